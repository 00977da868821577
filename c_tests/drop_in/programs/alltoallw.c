/* alltoallw: MPI_Alltoallw and MPI_Ialltoallw with buffers MPI_BOTTOM, where the type for
 * each peer is a struct of absolute addresses (MPI_Get_address) into separately allocated
 * arrays, different for every peer in sizes and layout: the sender's type is ints then
 * doubles; the receiver splits the ints in two blocks in reverse memory order (one of them
 * empty for some peers) and takes the doubles either contiguous or through a strided vector.
 * The second exchange gives the opposite peer count 0, whose storage must stay untouched. */
#include "check_mpi.h"

static int nint(int s, int d) { return s + d + 1; }
static int ndbl(int s, int d) { return 1 + (s * d + d) % 3; }
static int ival(int round, int s, int d, int i) { return round * 100000 + s * 1000 + d * 100 + i; }
static double dval(int round, int s, int d, int i)
{
    return round * 1000.0 + s + d * 0.25 + i * 0.0625 + 0.5;
}
#define ISENT(i) (-7 - (i))
#define DSENT(i) (-9.5 - (i))

int main(int argc, char **argv)
{
    int rank, size, p, i, round;
    int *sint[4], *rint[4];
    double *sdbl[4], *rdbl[4];
    MPI_Datatype stype[4], rtype[4], dvec[4];

    start(&argc, &argv, "alltoallw", &rank, &size);

    for (p = 0; p < 4; p++) {
        int ns = nint(rank, p), ds = ndbl(rank, p); /* what rank sends to p */
        int nr = nint(p, rank), dr = ndbl(p, rank); /* what rank receives from p */
        int k = nr / 2, bl[3];
        MPI_Aint addr[3];
        MPI_Datatype types[3];

        sint[p] = malloc(ns * sizeof(int));
        sdbl[p] = malloc(ds * sizeof(double));
        rint[p] = malloc((nr + 1 + nr) * sizeof(int));
        rdbl[p] = malloc((2 * dr + 2) * sizeof(double));

        bl[0] = ns;
        bl[1] = ds;
        MPI_CHECK(MPI_Get_address(sint[p], &addr[0]));
        MPI_CHECK(MPI_Get_address(sdbl[p], &addr[1]));
        types[0] = MPI_INT;
        types[1] = MPI_DOUBLE;
        MPI_CHECK(MPI_Type_create_struct(2, bl, addr, types, &stype[p]));
        MPI_CHECK(MPI_Type_commit(&stype[p]));

        /* receive: ints [0, k) at rint[p] + nr + 1, ints [k, nr) at rint[p], then doubles */
        bl[0] = k;
        bl[1] = nr - k;
        MPI_CHECK(MPI_Get_address(rint[p] + nr + 1, &addr[0]));
        MPI_CHECK(MPI_Get_address(rint[p], &addr[1]));
        types[0] = MPI_INT;
        types[1] = MPI_INT;
        if (p % 2 == 0) {
            dvec[p] = MPI_DATATYPE_NULL;
            bl[2] = dr;
            MPI_CHECK(MPI_Get_address(rdbl[p] + 1, &addr[2]));
            types[2] = MPI_DOUBLE;
        } else {
            MPI_CHECK(MPI_Type_vector(dr, 1, 2, MPI_DOUBLE, &dvec[p]));
            bl[2] = 1;
            MPI_CHECK(MPI_Get_address(rdbl[p], &addr[2]));
            types[2] = dvec[p];
        }
        MPI_CHECK(MPI_Type_create_struct(3, bl, addr, types, &rtype[p]));
        MPI_CHECK(MPI_Type_commit(&rtype[p]));
    }

    for (round = 1; round <= 2; round++) {
        int scounts[4], rcounts[4], sdispls[4] = {0, 0, 0, 0}, rdispls[4] = {0, 0, 0, 0};
        int skip = round == 2 ? (rank + 2) % 4 : -1;
        for (p = 0; p < 4; p++) {
            int nr = nint(p, rank), dr = ndbl(p, rank);
            for (i = 0; i < nint(rank, p); i++)
                sint[p][i] = ival(round, rank, p, i);
            for (i = 0; i < ndbl(rank, p); i++)
                sdbl[p][i] = dval(round, rank, p, i);
            for (i = 0; i < 2 * nr + 1; i++)
                rint[p][i] = ISENT(i);
            for (i = 0; i < 2 * dr + 2; i++)
                rdbl[p][i] = DSENT(i);
            scounts[p] = rcounts[p] = p == skip ? 0 : 1;
        }
        if (round == 1) {
            MPI_CHECK(MPI_Alltoallw(MPI_BOTTOM, scounts, sdispls, stype, MPI_BOTTOM, rcounts,
                                    rdispls, rtype, MPI_COMM_WORLD));
        } else {
            MPI_Request req;
            MPI_CHECK(MPI_Ialltoallw(MPI_BOTTOM, scounts, sdispls, stype, MPI_BOTTOM, rcounts,
                                     rdispls, rtype, MPI_COMM_WORLD, &req));
            MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
        for (p = 0; p < 4; p++) {
            int nr = nint(p, rank), dr = ndbl(p, rank), k = nr / 2;
            int *wi = malloc((2 * nr + 1) * sizeof(int));
            double *wd = malloc((2 * dr + 2) * sizeof(double));
            char what[160];
            for (i = 0; i < 2 * nr + 1; i++)
                wi[i] = ISENT(i);
            for (i = 0; i < 2 * dr + 2; i++)
                wd[i] = DSENT(i);
            if (p != skip) {
                for (i = 0; i < nr; i++)
                    wi[i < k ? nr + 1 + i : i - k] = ival(round, p, rank, i);
                for (i = 0; i < dr; i++)
                    wd[p % 2 == 0 ? 1 + i : 2 * i] = dval(round, p, rank, i);
            }
            snprintf(what, sizeof what, "alltoallw: %s round %d: ints from rank %d",
                     round == 1 ? "MPI_Alltoallw" : "MPI_Ialltoallw", round, p);
            CHECK_INTS(rint[p], wi, 2 * nr + 1, what);
            snprintf(what, sizeof what, "alltoallw: %s round %d: doubles from rank %d",
                     round == 1 ? "MPI_Alltoallw" : "MPI_Ialltoallw", round, p);
            CHECK_DOUBLES(rdbl[p], wd, 2 * dr + 2, what);
            free(wi);
            free(wd);
        }
    }

    /* The same exchange once more through MPI_Alltoallw with all types duplicated. */
    {
        MPI_Datatype sdup[4], rdup[4];
        int ones[4] = {1, 1, 1, 1}, zeros[4] = {0, 0, 0, 0};
        for (p = 0; p < 4; p++) {
            MPI_CHECK(MPI_Type_dup(stype[p], &sdup[p]));
            MPI_CHECK(MPI_Type_dup(rtype[p], &rdup[p]));
            for (i = 0; i < nint(rank, p); i++)
                sint[p][i] = ival(3, rank, p, i);
            for (i = 0; i < ndbl(rank, p); i++)
                sdbl[p][i] = dval(3, rank, p, i);
            for (i = 0; i < 2 * nint(p, rank) + 1; i++)
                rint[p][i] = ISENT(i);
            for (i = 0; i < 2 * ndbl(p, rank) + 2; i++)
                rdbl[p][i] = DSENT(i);
        }
        MPI_CHECK(MPI_Alltoallw(MPI_BOTTOM, ones, zeros, sdup, MPI_BOTTOM, ones, zeros, rdup,
                                MPI_COMM_WORLD));
        for (p = 0; p < 4; p++) {
            int nr = nint(p, rank), dr = ndbl(p, rank), k = nr / 2;
            int *wi = malloc((2 * nr + 1) * sizeof(int));
            double *wd = malloc((2 * dr + 2) * sizeof(double));
            for (i = 0; i < 2 * nr + 1; i++)
                wi[i] = ISENT(i);
            for (i = 0; i < 2 * dr + 2; i++)
                wd[i] = DSENT(i);
            for (i = 0; i < nr; i++)
                wi[i < k ? nr + 1 + i : i - k] = ival(3, p, rank, i);
            for (i = 0; i < dr; i++)
                wd[p % 2 == 0 ? 1 + i : 2 * i] = dval(3, p, rank, i);
            CHECK_INTS(rint[p], wi, 2 * nr + 1, "alltoallw: duplicated types: ints");
            CHECK_DOUBLES(rdbl[p], wd, 2 * dr + 2, "alltoallw: duplicated types: doubles");
            free(wi);
            free(wd);
            MPI_CHECK(MPI_Type_free(&sdup[p]));
            MPI_CHECK(MPI_Type_free(&rdup[p]));
        }
    }

    for (p = 0; p < 4; p++) {
        MPI_CHECK(MPI_Type_free(&stype[p]));
        MPI_CHECK(MPI_Type_free(&rtype[p]));
        if (dvec[p] != MPI_DATATYPE_NULL)
            MPI_CHECK(MPI_Type_free(&dvec[p]));
        free(sint[p]);
        free(sdbl[p]);
        free(rint[p]);
        free(rdbl[p]);
    }
    return finish();
}
