/*
 * MPIX_Type_iov_len and MPIX_Type_iov (MPICH's extension): the contiguous segments of one
 * copy of a committed type, relative to address 0, merged where they continue one another.
 */
#include "check.h"

static void check_vector_segments(void)
{
    MPI_Datatype t;
    MPI_Count n = -1, bytes = -1;
    MPIX_Iov iov[8];

    CHECK_OK(MPI_Type_vector(3, 2, 4, MPI_INT, &t)); /* 8 bytes at 0, 16 and 32 */
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_OK(MPIX_Type_iov_len(t, 1000, &n, &bytes));
    CHECK(n == 3 && bytes == 24);
    CHECK_OK(MPIX_Type_iov_len(t, 20, &n, &bytes)); /* whole segments only */
    CHECK(n == 2 && bytes == 16);
    CHECK_OK(MPIX_Type_iov_len(t, 7, &n, &bytes));
    CHECK(n == 0 && bytes == 0);

    CHECK_OK(MPIX_Type_iov(t, 0, iov, 8, &n));
    CHECK(n == 3);
    for (int k = 0; k < 3; k++) {
        CHECK((MPI_Aint)(uintptr_t)iov[k].iov_base == 16 * k);
        CHECK(iov[k].iov_len == 8);
    }
    CHECK_OK(MPIX_Type_iov(t, 1, iov, 1, &n)); /* skip one, room for one */
    CHECK(n == 1 && (MPI_Aint)(uintptr_t)iov[0].iov_base == 16);
    CHECK_OK(MPIX_Type_iov(t, 3, iov, 8, &n)); /* past the end */
    CHECK(n == 0);
    CHECK_OK(MPI_Type_free(&t));
}

static void check_merged_struct(void)
{
    /* {int at 4, int at 8, double at 16}: the two ints make one segment of 8 bytes. */
    int lengths[3] = {1, 1, 1};
    MPI_Aint displs[3] = {4, 8, 16};
    MPI_Datatype types[3] = {MPI_INT, MPI_INT, MPI_DOUBLE}, t;
    MPIX_Iov iov[4];
    MPI_Count n = -1;

    CHECK_OK(MPI_Type_create_struct(3, lengths, displs, types, &t));
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_OK(MPIX_Type_iov(t, 0, iov, 4, &n));
    CHECK(n == 2);
    CHECK((MPI_Aint)(uintptr_t)iov[0].iov_base == 4 && iov[0].iov_len == 8);
    CHECK((MPI_Aint)(uintptr_t)iov[1].iov_base == 16 && iov[1].iov_len == 8);
    CHECK_OK(MPI_Type_free(&t));
}

static void check_errors(void)
{
    MPI_Datatype t;
    MPI_Count n, bytes;
    MPIX_Iov iov[1];

    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t)); /* not committed */
    CHECK_ERR(MPIX_Type_iov_len(t, 8, &n, &bytes), MPI_ERR_TYPE);
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_ERR(MPIX_Type_iov_len(t, -1, &n, &bytes), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_iov_len(t, 8, NULL, &bytes), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_iov(t, -1, iov, 1, &n), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_iov(t, 0, NULL, 1, &n), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_iov(MPI_DATATYPE_NULL, 0, iov, 1, &n), MPI_ERR_TYPE);
    CHECK_OK(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    (void)argc;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check_vector_segments();
    check_merged_struct();
    check_errors();
    MPI_Finalize();
    return check_report(argv[0]);
}
