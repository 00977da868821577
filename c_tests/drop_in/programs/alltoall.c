/* alltoall: MPI_Alltoall with derived types on either side or both: a distributed transpose
 * (a resized vector block sent, a contiguous run of resized column vectors received, as a
 * 2-D FFT does), a vector sent into MPI_INTs and MPI_INTs into a vector, a resized struct of
 * an int and a double, MPI_IN_PLACE with a vector with gaps, zero counts, and an exchange
 * over an intercommunicator between two groups of two. Every receive buffer is filled with
 * sentinels first and compared whole, gaps included. */
#include "check_mpi.h"
#include <stddef.h>

#define N 3 /* rows of the transposed matrix a rank holds; it has 4 N columns */

static int val(int src, int dst, int i) { return src * 1000 + dst * 100 + i; }
static double dval(int src, int dst, int i) { return src * 10.0 + dst + i / 64.0; }

struct pair {
    int a;
    double b;
};

/* 1. The transpose: rank r holds rows r N .. r N + N - 1 of a 4N x 4N matrix whose element
 * (i, j) is i * 4N + j; afterwards it holds the same rows of the transpose. */
static void transpose(int rank)
{
    const int cols = 4 * N;
    double slab[N][4 * N], got[N][4 * N], want[N][4 * N];
    MPI_Datatype block, blocks, column, columns, lanes;
    int i, j;
    MPI_CHECK(MPI_Type_vector(N, N, cols, MPI_DOUBLE, &block));
    MPI_CHECK(MPI_Type_create_resized(block, 0, N * (MPI_Aint)sizeof(double), &blocks));
    MPI_CHECK(MPI_Type_vector(N, 1, cols, MPI_DOUBLE, &column));
    MPI_CHECK(MPI_Type_create_resized(column, 0, (MPI_Aint)sizeof(double), &columns));
    MPI_CHECK(MPI_Type_contiguous(N, columns, &lanes));
    MPI_CHECK(MPI_Type_commit(&blocks));
    MPI_CHECK(MPI_Type_commit(&lanes));
    for (i = 0; i < N; i++)
        for (j = 0; j < cols; j++) {
            slab[i][j] = (rank * N + i) * cols + j;
            got[i][j] = -1.0;
            want[i][j] = (double)j * cols + rank * N + i;
        }
    MPI_CHECK(MPI_Alltoall(slab, 1, blocks, got, 1, lanes, MPI_COMM_WORLD));
    CHECK_DOUBLES(&got[0][0], &want[0][0], N * cols, "alltoall: transpose");
    MPI_CHECK(MPI_Type_free(&block));
    MPI_CHECK(MPI_Type_free(&blocks));
    MPI_CHECK(MPI_Type_free(&column));
    MPI_CHECK(MPI_Type_free(&columns));
    MPI_CHECK(MPI_Type_free(&lanes));
}

/* 2 and 3. Two ints every third int sent as a vector and received as MPI_INTs, then the other
 * way round. */
static void vector_and_ints(int rank)
{
    int sent[4][6], ints[8], got[4][6], want_ints[8], want[4][6];
    MPI_Datatype raw, every_third;
    int p, i;
    MPI_CHECK(MPI_Type_vector(2, 1, 3, MPI_INT, &raw));
    MPI_CHECK(MPI_Type_create_resized(raw, 0, 6 * (MPI_Aint)sizeof(int), &every_third));
    MPI_CHECK(MPI_Type_free(&raw));
    MPI_CHECK(MPI_Type_commit(&every_third));
    for (p = 0; p < 4; p++)
        for (i = 0; i < 6; i++) {
            sent[p][i] = i % 3 == 0 ? val(rank, p, i / 3) : -7;
            got[p][i] = -1;
            want[p][i] = i % 3 == 0 ? val(p, rank, i / 3) : -1;
        }
    for (i = 0; i < 8; i++) {
        ints[i] = -1;
        want_ints[i] = val(i / 2, rank, i % 2);
    }
    MPI_CHECK(MPI_Alltoall(sent, 1, every_third, ints, 2, MPI_INT, MPI_COMM_WORLD));
    CHECK_INTS(ints, want_ints, 8, "alltoall: vector sent, MPI_INT received");
    for (i = 0; i < 8; i++)
        ints[i] = val(rank, i / 2, i % 2);
    MPI_CHECK(MPI_Alltoall(ints, 2, MPI_INT, got, 1, every_third, MPI_COMM_WORLD));
    CHECK_INTS(&got[0][0], &want[0][0], 24, "alltoall: MPI_INT sent, vector received");
    MPI_CHECK(MPI_Type_free(&every_third));
}

/* 4. Structs of an int and a double, 3 to each rank. */
static void structs(int rank)
{
    struct pair sent[12], got[12], want[12];
    int lengths[2] = {1, 1};
    MPI_Aint displs[2] = {offsetof(struct pair, a), offsetof(struct pair, b)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, raw, pair;
    int i;
    MPI_CHECK(MPI_Type_create_struct(2, lengths, displs, types, &raw));
    MPI_CHECK(MPI_Type_create_resized(raw, 0, sizeof(struct pair), &pair));
    MPI_CHECK(MPI_Type_commit(&pair));
    memset(sent, 0, sizeof sent);
    memset(got, 0x5a, sizeof got);
    memcpy(want, got, sizeof want);
    for (i = 0; i < 12; i++) {
        sent[i].a = val(rank, i / 3, i % 3);
        sent[i].b = dval(rank, i / 3, i % 3);
        want[i].a = val(i / 3, rank, i % 3);
        want[i].b = dval(i / 3, rank, i % 3);
    }
    MPI_CHECK(MPI_Alltoall(sent, 3, pair, got, 3, pair, MPI_COMM_WORLD));
    CHECK_BYTES(got, want, sizeof got, "alltoall: structs of an int and a double");
    MPI_CHECK(MPI_Type_free(&raw));
    MPI_CHECK(MPI_Type_free(&pair));
}

/* 5. MPI_IN_PLACE: block p of the receive buffer, 2 ints of every other int, goes to rank p
 * and is replaced by rank p's block for this rank; the gaps keep their values. */
static void in_place(int rank)
{
    int buf[16], want[16];
    MPI_Datatype raw, every_other;
    int i;
    MPI_CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &raw));
    MPI_CHECK(MPI_Type_create_resized(raw, 0, 4 * (MPI_Aint)sizeof(int), &every_other));
    MPI_CHECK(MPI_Type_free(&raw));
    MPI_CHECK(MPI_Type_commit(&every_other));
    for (i = 0; i < 16; i++) {
        int p = i / 4, k = i % 4;
        buf[i] = k % 2 == 0 ? val(rank, p, k / 2) : -100 - i;
        want[i] = k % 2 == 0 ? val(p, rank, k / 2) : -100 - i;
    }
    MPI_CHECK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, buf, 1, every_other,
                           MPI_COMM_WORLD));
    CHECK_INTS(buf, want, 16, "alltoall: MPI_IN_PLACE with a vector with gaps");
    MPI_CHECK(MPI_Type_free(&every_other));
}

/* 6. Zero counts of a derived type move nothing. */
static void zero_counts(void)
{
    int buf[4] = {1, 2, 3, 4}, want[4] = {1, 2, 3, 4};
    MPI_Datatype pairs;
    MPI_CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &pairs));
    MPI_CHECK(MPI_Type_commit(&pairs));
    MPI_CHECK(MPI_Alltoall(buf, 0, pairs, buf + 2, 0, pairs, MPI_COMM_WORLD));
    CHECK_INTS(buf, want, 4, "alltoall: zero counts");
    MPI_CHECK(MPI_Type_free(&pairs));
}

/* 7. Over an intercommunicator between ranks {0, 1} and {2, 3}: each rank sends one vector
 * block to each of the two ranks of the other group. */
static void intercommunicator(int rank)
{
    MPI_Comm half, inter;
    MPI_Datatype raw, spaced;
    int sent[2][4], got[2][4], want[2][4], p, i;
    int low = rank < 2, remote_leader = low ? 2 : 0;
    MPI_CHECK(MPI_Comm_split(MPI_COMM_WORLD, !low, rank, &half));
    MPI_CHECK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, remote_leader, 7, &inter));
    MPI_CHECK(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &raw));
    MPI_CHECK(MPI_Type_create_resized(raw, 0, 4 * (MPI_Aint)sizeof(int), &spaced));
    MPI_CHECK(MPI_Type_free(&raw));
    MPI_CHECK(MPI_Type_commit(&spaced));
    for (p = 0; p < 2; p++)
        for (i = 0; i < 4; i++) {
            int peer = low ? 2 + p : p;
            sent[p][i] = i % 2 == 0 ? val(rank, peer, i / 2) : -9;
            got[p][i] = -1;
            want[p][i] = i % 2 == 0 ? val(peer, rank, i / 2) : -1;
        }
    MPI_CHECK(MPI_Alltoall(sent, 1, spaced, got, 1, spaced, inter));
    CHECK_INTS(&got[0][0], &want[0][0], 8, "alltoall: over an intercommunicator");
    MPI_CHECK(MPI_Type_free(&spaced));
    MPI_CHECK(MPI_Comm_free(&inter));
    MPI_CHECK(MPI_Comm_free(&half));
}

int main(int argc, char **argv)
{
    int rank, size;
    start(&argc, &argv, "alltoall", &rank, &size);
    transpose(rank);
    vector_and_ints(rank);
    structs(rank);
    in_place(rank);
    zero_counts();
    intercommunicator(rank);
    return finish();
}
