/* Three layouts of one type signature, doubles, for the programs whose processes each take a
 * layout of their own: every other double (MPI_DOUBLE resized to 16 bytes), plain
 * MPI_DOUBLEs, and a contiguous type of 4 doubles. */
#ifndef DROP_IN_DOUBLE_LAYOUTS_H
#define DROP_IN_DOUBLE_LAYOUTS_H

#include "check_mpi.h"

/* A layout of doubles: `per` doubles a copy of `type`, each double `gap` doubles after the one
 * before. */
typedef struct {
    MPI_Datatype type;
    int per, gap;
    const char *name;
} layout_t;

static layout_t g_layouts[3];

static inline void make_layouts(void)
{
    MPI_Datatype spaced, four;
    MPI_CHECK(MPI_Type_create_resized(MPI_DOUBLE, 0, 2 * (MPI_Aint)sizeof(double), &spaced));
    MPI_CHECK(MPI_Type_commit(&spaced));
    MPI_CHECK(MPI_Type_contiguous(4, MPI_DOUBLE, &four));
    MPI_CHECK(MPI_Type_commit(&four));
    g_layouts[0] = (layout_t){spaced, 1, 2, "every other double"};
    g_layouts[1] = (layout_t){MPI_DOUBLE, 1, 1, "MPI_DOUBLE"};
    g_layouts[2] = (layout_t){four, 4, 1, "4 doubles"};
}

static inline void free_layouts(void)
{
    MPI_CHECK(MPI_Type_free(&g_layouts[0].type));
    MPI_CHECK(MPI_Type_free(&g_layouts[2].type));
}

#endif
