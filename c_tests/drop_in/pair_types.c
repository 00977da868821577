/*
 * pair_types.c: the pair types (MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT,
 * MPI_2INT, MPI_LONG_DOUBLE_INT) and types built on them follow the standard under
 * LD_PRELOAD=libmpi_dtype.so over MPICH (built with mpicc.mpich), and so do types built with
 * mpi-dtype's constructors on a type MPICH made itself.
 *
 * MPICH gives five of the pair types handles of its derived kind (0x8c00000x); they are
 * predefined types all the same, so mpi-dtype answers for them and for every type built on
 * them. The expected values are the standard's, computed here by hand: a pair type has the
 * type map of the C struct it stands for, and a type built on it is padded to the alignment
 * of its flattened type map's basic types ("ub is rounded up by epsilon"), not by the pair's
 * extent: hvector(4, 1, 60, MPI_DOUBLE_INT) ends at 3 * 60 + 12 = 192, a multiple of 8
 * (MPICH says 196). MPICH's own view of the same type (its twin, which MPICH packs when it
 * sends the type) must show the same bytes and extent.
 */
#define _GNU_SOURCE /* RTLD_NOLOAD */
#include "check.h"

#include <dlfcn.h>

typedef int (*hvector_fn)(int, int, MPI_Aint, MPI_Datatype, MPI_Datatype *);
typedef int (*free_fn)(MPI_Datatype *);

struct pair {
    MPI_Datatype type;
    const char *name;
    long size, extent, true_extent, align;
};

static long round_up(long value, long align)
{
    return (value + align - 1) / align * align;
}

static void *mpich_function(void *mpich, const char *name)
{
    void *f = dlsym(mpich, name);
    if (!f) {
        fprintf(stderr, "FAILED: libmpich has no %s\n", name);
        exit(1);
    }
    return f;
}

/* MPICH's own view of `type`, through the twin it gets at the first call that takes the type
 * there: with MPI_DTYPE_COMM=mpi (set in main) every message takes MPICH's path with the
 * twin, so MPICH itself packs 2 copies sent with the type into a receive of bytes, and they
 * are the bytes mpi-dtype's MPI_Pack writes (the twin's type map and extent are the
 * standard's). */
static void check_mpich_view(MPI_Datatype type)
{
    static unsigned char source[4096], ours[4096], theirs[4096];
    for (size_t i = 0; i < sizeof source; i++) {
        source[i] = check_pattern_byte(i);
    }
    int ours_at = 0, theirs_at = -1;
    MPI_Status status;
    CHECK_OK(MPI_Pack(source + 64, 2, type, ours, sizeof ours, &ours_at, MPI_COMM_WORLD));
    CHECK_OK(MPI_Sendrecv(source + 64, 2, type, 0, 3, theirs, sizeof theirs, MPI_BYTE, 0, 3,
                          MPI_COMM_SELF, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_BYTE, &theirs_at));
    CHECK_EQ_LONG(theirs_at, ours_at);
    CHECK_EQ_MEM(theirs, ours, (size_t)ours_at);
}

int main(int argc, char **argv)
{
    /* Every message takes MPICH's path, with the twins (check_mpich_view). */
    setenv("MPI_DTYPE_COMM", "mpi", 1);
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    void *mpich = dlopen("libmpich.so.12", RTLD_NOW | RTLD_NOLOAD);
    if (!mpich) {
        fprintf(stderr, "FAILED: libmpich.so.12 is not loaded\n");
        return 1;
    }
    const struct pair pairs[] = {
        {MPI_FLOAT_INT, "MPI_FLOAT_INT", 8, 8, 8, 4},
        {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 12, 16, 12, 8},
        {MPI_LONG_INT, "MPI_LONG_INT", 12, 16, 12, 8},
        {MPI_SHORT_INT, "MPI_SHORT_INT", 6, 8, 8, 4},
        {MPI_2INT, "MPI_2INT", 8, 8, 8, 4},
        {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", 20, 32, 20, 16},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const struct pair *p = &pairs[i];
        printf("%s\n", p->name);
        CHECK_BOUNDS(p->type, p->size, 0, p->extent, 0, p->true_extent);

        /* Blocks 60 bytes apart: the last ends at 180 + true extent, padded to the alignment. */
        MPI_Datatype hvector, contiguous, strided, structure;
        CHECK_OK(MPI_Type_create_hvector(4, 1, 60, p->type, &hvector));
        CHECK_BOUNDS(hvector, 4 * p->size, 0, round_up(180 + p->true_extent, p->align), 0,
                     180 + p->true_extent);
        CHECK_OK(MPI_Type_contiguous(3, p->type, &contiguous));
        CHECK_BOUNDS(contiguous, 3 * p->size, 0, 3 * p->extent, 0,
                     2 * p->extent + p->true_extent);
        /* A vector of the hvector: its elements are placed by the hvector's extent. */
        long hextent = round_up(180 + p->true_extent, p->align);
        CHECK_OK(MPI_Type_vector(2, 1, 2, hvector, &strided));
        CHECK_BOUNDS(strided, 8 * p->size, 0, 3 * hextent, 0, 2 * hextent + 180 + p->true_extent);
        /* A struct of the pair and a char right after its data. */
        int lengths[2] = {1, 1};
        MPI_Aint places[2] = {0, (MPI_Aint)p->true_extent};
        MPI_Datatype types[2] = {p->type, MPI_CHAR};
        CHECK_OK(MPI_Type_create_struct(2, lengths, places, types, &structure));
        CHECK_BOUNDS(structure, p->size + 1, 0, round_up(p->true_extent + 1, p->align), 0,
                     p->true_extent + 1);

        MPI_Datatype made[] = {hvector, contiguous, strided, structure};
        for (size_t k = 0; k < sizeof made / sizeof made[0]; k++) {
            CHECK_OK(MPI_Type_commit(&made[k]));
            check_mpich_view(made[k]);
        }
        for (size_t k = 0; k < sizeof made / sizeof made[0]; k++) {
            CHECK_OK(MPI_Type_free(&made[k]));
        }
    }

    /* A type MPICH made itself (its hvector of MPI_DOUBLE_INT, extent 196 by MPICH's rules),
       used as the child of mpi-dtype's constructors: the new type is mpi-dtype's and the child
       is taken with the standard's type map (extent 192). */
    hvector_fn mpich_hvector = (hvector_fn)mpich_function(mpich, "PMPI_Type_create_hvector");
    free_fn mpich_free = (free_fn)mpich_function(mpich, "PMPI_Type_free");
    MPI_Datatype foreign, built, child[1];
    CHECK_OK(mpich_hvector(4, 1, 60, MPI_DOUBLE_INT, &foreign));
    CHECK_OK(MPI_Type_contiguous(2, foreign, &built));
    CHECK_BOUNDS(built, 96, 0, 384, 0, 192 + 192);
    int ni, na, nd, combiner;
    CHECK_OK(MPI_Type_get_envelope(built, &ni, &na, &nd, &combiner));
    CHECK_EQ_LONG(combiner, MPI_COMBINER_CONTIGUOUS);
    int count;
    CHECK_OK(MPI_Type_get_contents(built, 1, 0, 1, &count, NULL, child));
    CHECK_EQ_LONG(count, 2);
    CHECK_BOUNDS(child[0], 48, 0, 192, 0, 192);
    CHECK_OK(MPI_Type_get_envelope(child[0], &ni, &na, &nd, &combiner));
    CHECK_EQ_LONG(combiner, MPI_COMBINER_HVECTOR);
    CHECK_OK(MPI_Type_commit(&built));
    check_mpich_view(built);
    CHECK_OK(MPI_Type_free(&child[0]));
    CHECK_OK(MPI_Type_free(&built));
    /* The foreign type itself stays MPICH's. */
    MPI_Aint lb, extent;
    CHECK_OK(MPI_Type_get_extent(foreign, &lb, &extent));
    CHECK_EQ_LONG(extent, 196);
    CHECK_OK(mpich_free(&foreign));

    MPI_Finalize();
    return check_report("drop_in_pair_types");
}
