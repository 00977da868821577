/*
 * Types whose upper bound, extent or true extent would leave the 64-bit range of MPI_Aint
 * are rejected at construction with MPI_ERR_ARG (docs/semantics.md), never reported wrapped
 * or saturated.
 */
#include "check.h"

#include <limits.h>

int main(int argc, char **argv)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int ones[2] = {1, 1};
    MPI_Aint far_apart[2] = {LONG_MIN, 8};
#ifndef MPI_DTYPE_STANDARD_ABI
    MPI_Aint marker_span[2] = {LONG_MAX, -64};
#endif
    MPI_Datatype wide_markers = MPI_DATATYPE_NULL;
    MPI_Aint resized_span[2] = {0, 1L << 62};

    (void)argc;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* true extent 2^63 + 9 */
    CHECK_ERR(MPI_Type_create_hindexed(2, ones, far_apart, MPI_CHAR, &t), MPI_ERR_ARG);
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI_LB: not in the standard ABI */
    /* lb -64, ub 2^63 - 1: extent 2^63 + 63 */
    CHECK_ERR(MPI_Type_create_hindexed_block(2, 1, marker_span, MPI_LB, &t), MPI_ERR_ARG);
#endif
    /* The same with the markers of a resize: a child with lb -2^62 and ub 1 (its char at 0),
     * copies at 0 and 2^62: lb -2^62, ub 2^62 + 1, extent 2^63 + 1 (the data span 2^62 + 1) */
    CHECK_OK(MPI_Type_create_resized(MPI_CHAR, -(1L << 62), (1L << 62) + 1, &wide_markers));
    CHECK_ERR(MPI_Type_create_hindexed_block(2, 1, resized_span, wide_markers, &t), MPI_ERR_ARG);
    CHECK_OK(MPI_Type_free(&wide_markers));
    /* an upper bound padded past 2^63 - 1: data from 0 to LONG_MAX - 4, rounded up to a
     * multiple of the double's alignment */
    MPI_Aint high[2] = {0, LONG_MAX - 12};
    MPI_Datatype members[2] = {MPI_CHAR, MPI_DOUBLE};
    CHECK_ERR(MPI_Type_create_struct(2, ones, high, members, &t), MPI_ERR_ARG);
    CHECK(t == MPI_DATATYPE_NULL);

    /* Just inside the range is fine. */
    MPI_Aint wide[2] = {-(LONG_MAX / 2), LONG_MAX / 2 - 8};
    MPI_Aint lb, extent;
    CHECK_OK(MPI_Type_create_hindexed(2, ones, wide, MPI_CHAR, &t));
    CHECK_OK(MPI_Type_get_true_extent(t, &lb, &extent));
    CHECK_EQ_LONG(lb, -(LONG_MAX / 2));
    CHECK_EQ_LONG(extent, LONG_MAX / 2 - 7 + LONG_MAX / 2);
    CHECK_OK(MPI_Type_free(&t));

    MPI_Finalize();
    return check_report(argv[0]);
}
