/* unfreed: derived types that are still allocated at MPI_Finalize, which MPI allows (a
 * program need not free its datatypes): a committed vector used in MPI_Sendrecv, an
 * uncommitted struct, a duplicate, and a type from MPI_Type_create_f90_real (which a program
 * cannot free).  MPI_Finalize must finish cleanly.  The runner notes it if MPICH reports
 * leaked handles at MPI_Finalize. */
#include "check_mpi.h"

int main(int argc, char **argv)
{
    int rank, size, i, s[12], r[12], w[12];
    MPI_Datatype v, st, d, f;
    int bl[2] = {1, 1};
    MPI_Aint dl[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};

    start(&argc, &argv, "unfreed", &rank, &size);
    MPI_CHECK(MPI_Type_vector(3, 2, 4, MPI_INT, &v));
    MPI_CHECK(MPI_Type_commit(&v));
    MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &st));
    MPI_CHECK(MPI_Type_dup(v, &d));
    MPI_CHECK(MPI_Type_create_f90_real(6, 30, &f));
    for (i = 0; i < 12; i++) {
        s[i] = rank * 100 + i;
        r[i] = w[i] = -1 - i;
    }
    MPI_CHECK(MPI_Sendrecv(s, 1, v, (rank + 1) % 4, 1, r, 1, d, (rank + 3) % 4, 1, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    for (i = 0; i < 10; i++)
        if (i % 4 < 2)
            w[i] = ((rank + 3) % 4) * 100 + i;
    CHECK_INTS(r, w, 12, "unfreed: MPI_Sendrecv with a vector and its duplicate");
    {
        float x[3], wx[3];
        for (i = 0; i < 3; i++) {
            wx[i] = 1.5f * i + 0.25f;
            x[i] = rank == 3 ? wx[i] : -1.0f;
        }
        MPI_CHECK(MPI_Bcast(x, 3, f, 3, MPI_COMM_WORLD));
        CHECK_BYTES(x, wx, sizeof x, "unfreed: MPI_Bcast with MPI_Type_create_f90_real(6, 30)");
    }
    return finish(); /* v, st, d are not freed */
}
