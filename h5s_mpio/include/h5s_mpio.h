/* h5s_mpio: dataspace selections (HDF5's model) turned into MPI derived datatypes.
 *
 * A C port of the behaviour of HDF5's H5S_mpio_* functions. It calls only the standard MPI
 * API, so it builds against mpi-dtype and, unchanged, against MPICH or Open MPI.
 * Functions returning int return 0 on success and a negative value on error; an error leaves
 * the space as it was. See docs/h5s_mpio.md. */
#ifndef H5S_MPIO_H
#define H5S_MPIO_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Largest rank of a dataspace. */
#define H5S_MPIO_MAX_RANK 32

/** A dataspace extent with its selection. */
typedef struct h5s_space h5s_space;

/** Selection operators: the first six apply to hyperslabs, SET / APPEND / PREPEND to points. */
typedef enum {
    H5S_OP_SET,
    H5S_OP_OR,
    H5S_OP_AND,
    H5S_OP_XOR,
    H5S_OP_NOTB,
    H5S_OP_NOTA,
    H5S_OP_APPEND,
    H5S_OP_PREPEND
} h5s_seloper;

/** A space of rank 0..32 (0: scalar, one element) with everything selected; NULL on bad input. */
h5s_space *h5s_create_simple(int rank, const uint64_t *dims);
/** A deep copy of a space (extent, selection and offset); NULL on bad input. */
h5s_space *h5s_copy(const h5s_space *space);
/** Frees a space; NULL is ignored. */
void h5s_close(h5s_space *space);
/** Rank of the space, or negative on NULL. */
int h5s_get_rank(const h5s_space *space);
/** Writes the rank entries of the extent to dims (may be NULL) and returns the rank; negative
 *  on a NULL space. */
int h5s_get_simple_extent_dims(const h5s_space *space, uint64_t *dims);

int h5s_select_all(h5s_space *space);
int h5s_select_none(h5s_space *space);
/** HDF5's H5Sselect_hyperslab; stride and block may be NULL (all 1). */
int h5s_select_hyperslab(h5s_space *space, h5s_seloper op, const uint64_t *start,
                         const uint64_t *stride, const uint64_t *count, const uint64_t *block);
/** HDF5's H5Sselect_elements; coord holds num_elem x rank coordinates, row-major. */
int h5s_select_elements(h5s_space *space, h5s_seloper op, size_t num_elem, const uint64_t *coord);
/** HDF5's H5Soffset_simple: moves the selection by offset (rank entries). */
int h5s_offset_simple(h5s_space *space, const int64_t *offset);
/** Number of selected elements, negative on error. */
int64_t h5s_get_select_npoints(const h5s_space *space);
/** 1 when every selected element (moved by the offset) is inside the extent, 0 when not,
 *  negative on NULL. */
int h5s_select_valid(const h5s_space *space);
/** 1 when the selection is a regular hyperslab (one start / stride / count / block per
 *  dimension), 0 when not, negative on NULL. */
int h5s_select_is_regular_hyperslab(const h5s_space *space);

/** HDF5's H5S_mpio_space_type: the MPI datatype of the selection, with elements of elmt_size
 *  bytes. none: MPI_BYTE, count 0; all: MPI_BYTE x bytes (or one large type past the bigio
 *  threshold); otherwise one committed derived type, count 1, *is_derived_type = 1 (free it
 *  with MPI_Type_free). On a point selection with do_permute = 1 the type lists the points
 *  sorted by file offset; when they were out of order *permute_map receives a malloc'd map
 *  (entry i: the position in the sorted order of the i-th point) and *is_permuted is set to 1.
 *  A later call on the memory space with do_permute = 0, that map and *is_permuted == 1 builds
 *  the matching memory type and frees the map (*permute_map = NULL). */
int h5s_mpio_space_type(const h5s_space *space, size_t elmt_size, MPI_Datatype *new_type,
                        int *count, int *is_derived_type, int do_permute,
                        uint64_t **permute_map, int *is_permuted);
/** Sets the bigio threshold (no count passed to an MPI constructor exceeds it; a threshold of 1
 *  acts as 2) and returns the previous one. 0 or a value above 2^31 - 1 changes nothing and
 *  returns the current one. Default 2^30. Process-wide and atomic. */
uint64_t h5s_mpio_set_bigio_count(uint64_t new_count);

#ifdef __cplusplus
}
#endif

#endif /* H5S_MPIO_H */
