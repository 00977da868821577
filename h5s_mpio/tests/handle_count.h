/* Forced into the library's sources when the tests compile them (-include): every datatype
 * constructor and MPI_Type_free the port calls is counted, so a test can check that the port
 * leaves no MPI handle behind and how many types of each kind it built; and the n-th
 * constructor or commit can be made to fail, to test the error paths. */
#ifndef H5S_MPIO_HANDLE_COUNT_H
#define H5S_MPIO_HANDLE_COUNT_H

#include <mpi.h>

enum { HC_CONTIGUOUS, HC_VECTOR, HC_HVECTOR, HC_HINDEXED, HC_HINDEXED_BLOCK, HC_STRUCT, HC_RESIZED, HC_KINDS };

/* Defined by the test program. */
extern long hc_live;            /* types created minus types freed */
extern long hc_made[HC_KINDS];  /* types created, by constructor */
extern long hc_fail_at;         /* > 0: the hc_fail_at-th constructor or commit call fails */
extern long hc_calls;           /* constructor and commit calls so far */

static inline int hc_fails(void) { return hc_fail_at > 0 && ++hc_calls == hc_fail_at; }
static inline int hc_note(int rc, int kind) {
    if (rc == MPI_SUCCESS) {
        hc_live++;
        hc_made[kind]++;
    }
    return rc;
}
static inline int hc_contiguous(int n, MPI_Datatype old, MPI_Datatype *t) {
    return hc_fails() ? MPI_ERR_TYPE : hc_note(MPI_Type_contiguous(n, old, t), HC_CONTIGUOUS);
}
static inline int hc_vector(int n, int b, int s, MPI_Datatype old, MPI_Datatype *t) {
    return hc_fails() ? MPI_ERR_TYPE : hc_note(MPI_Type_vector(n, b, s, old, t), HC_VECTOR);
}
static inline int hc_hvector(int n, int b, MPI_Aint s, MPI_Datatype old, MPI_Datatype *t) {
    return hc_fails() ? MPI_ERR_TYPE : hc_note(MPI_Type_create_hvector(n, b, s, old, t), HC_HVECTOR);
}
static inline int hc_hindexed(int n, const int *b, const MPI_Aint *d, MPI_Datatype old, MPI_Datatype *t) {
    return hc_fails() ? MPI_ERR_TYPE : hc_note(MPI_Type_create_hindexed(n, b, d, old, t), HC_HINDEXED);
}
static inline int hc_hindexed_block(int n, int b, const MPI_Aint *d, MPI_Datatype old, MPI_Datatype *t) {
    return hc_fails() ? MPI_ERR_TYPE : hc_note(MPI_Type_create_hindexed_block(n, b, d, old, t), HC_HINDEXED_BLOCK);
}
static inline int hc_struct(int n, const int *b, const MPI_Aint *d, const MPI_Datatype *ty, MPI_Datatype *t) {
    return hc_fails() ? MPI_ERR_TYPE : hc_note(MPI_Type_create_struct(n, b, d, ty, t), HC_STRUCT);
}
static inline int hc_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint ext, MPI_Datatype *t) {
    return hc_fails() ? MPI_ERR_TYPE : hc_note(MPI_Type_create_resized(old, lb, ext, t), HC_RESIZED);
}
static inline int hc_commit(MPI_Datatype *t) { return hc_fails() ? MPI_ERR_TYPE : MPI_Type_commit(t); }
static inline int hc_free(MPI_Datatype *t) {
    int rc = MPI_Type_free(t);
    if (rc == MPI_SUCCESS)
        hc_live--;
    return rc;
}
#define MPI_Type_contiguous hc_contiguous
#define MPI_Type_vector hc_vector
#define MPI_Type_create_hvector hc_hvector
#define MPI_Type_create_hindexed hc_hindexed
#define MPI_Type_create_hindexed_block hc_hindexed_block
#define MPI_Type_create_struct hc_struct
#define MPI_Type_create_resized hc_resized
#define MPI_Type_free hc_free
#define MPI_Type_commit hc_commit

#endif
