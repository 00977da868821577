/* gather: MPI_Allgather, MPI_Gather and MPI_Scatter of one block per process with derived
 * types: a vector with gaps on both sides, a vector sent into MPI_INTs and MPI_INTs into a
 * vector, MPI_IN_PLACE (every process of an allgather, the root of a gather and of a
 * scatter), a root other than 0, and a gather and a scatter over an intercommunicator between
 * two groups of two (the root passing MPI_ROOT, its partner MPI_PROC_NULL). Every receive
 * buffer is filled with sentinels first and compared whole, gaps included.
 *
 * Intel MPI 2021.19's MPI_Allgather delivers wrong data between a vector and MPI_INTs.
 * Fails plainly over: impi */
#include "check_mpi.h"

#define ROOT 2

static int val(int src, int i) { return src * 100 + i; }

/* Two ints, every other int: the extent of a block is 4 ints. */
static MPI_Datatype spaced_pair(void)
{
    MPI_Datatype raw, pair;
    MPI_CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &raw));
    MPI_CHECK(MPI_Type_create_resized(raw, 0, 4 * (MPI_Aint)sizeof(int), &pair));
    MPI_CHECK(MPI_Type_free(&raw));
    MPI_CHECK(MPI_Type_commit(&pair));
    return pair;
}

/* The buffer of `blocks` spaced pairs whose block b holds the pair of process b (values of
 * process `owner(b)`), gaps -1. */
static void spaced_blocks(int *buf, int blocks, int from_rank_of_block, int rank)
{
    int b, i;
    for (b = 0; b < blocks; b++)
        for (i = 0; i < 4; i++) {
            int src = from_rank_of_block ? b : rank;
            buf[4 * b + i] = i % 2 == 0 ? val(src, i / 2) : -1;
        }
}

static void allgather(int rank, MPI_Datatype pair)
{
    int mine[4], got[16], want[16], ints[8], want_ints[8], i;
    spaced_blocks(mine, 1, 0, rank);
    for (i = 0; i < 16; i++)
        got[i] = -1;
    spaced_blocks(want, 4, 1, rank);
    MPI_CHECK(MPI_Allgather(mine, 1, pair, got, 1, pair, MPI_COMM_WORLD));
    CHECK_INTS(got, want, 16, "gather: MPI_Allgather of spaced pairs");

    for (i = 0; i < 8; i++) {
        ints[i] = -1;
        want_ints[i] = val(i / 2, i % 2);
    }
    MPI_CHECK(MPI_Allgather(mine, 1, pair, ints, 2, MPI_INT, MPI_COMM_WORLD));
    CHECK_INTS(ints, want_ints, 8, "gather: MPI_Allgather of a pair into MPI_INTs");

    for (i = 0; i < 16; i++)
        got[i] = -1;
    for (i = 0; i < 2; i++)
        ints[i] = val(rank, i);
    MPI_CHECK(MPI_Allgather(ints, 2, MPI_INT, got, 1, pair, MPI_COMM_WORLD));
    CHECK_INTS(got, want, 16, "gather: MPI_Allgather of MPI_INTs into pairs");

    /* In place: this process's block is already in the buffer; the gaps keep their values. */
    for (i = 0; i < 16; i++)
        got[i] = i / 4 == rank ? (i % 2 == 0 ? val(rank, (i % 4) / 2) : -1) : -1;
    MPI_CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, got, 1, pair, MPI_COMM_WORLD));
    CHECK_INTS(got, want, 16, "gather: MPI_Allgather in place");
}

static void gather_scatter(int rank, MPI_Datatype pair)
{
    int mine[4], got[16], want[16], i;
    spaced_blocks(mine, 1, 0, rank);
    for (i = 0; i < 16; i++)
        got[i] = -1;
    spaced_blocks(want, 4, 1, rank);
    MPI_CHECK(MPI_Gather(mine, 1, pair, got, 1, pair, ROOT, MPI_COMM_WORLD));
    if (rank == ROOT)
        CHECK_INTS(got, want, 16, "gather: MPI_Gather of spaced pairs at root 2");

    /* The root's block in place. */
    for (i = 0; i < 16; i++)
        got[i] = i / 4 == rank ? (i % 2 == 0 ? val(rank, (i % 4) / 2) : -1) : -1;
    if (rank == ROOT) {
        MPI_CHECK(MPI_Gather(MPI_IN_PLACE, 0, MPI_INT, got, 1, pair, ROOT, MPI_COMM_WORLD));
    }
    else {
        int two[2] = {val(rank, 0), val(rank, 1)};
        MPI_CHECK(MPI_Gather(two, 2, MPI_INT, NULL, 0, MPI_INT, ROOT, MPI_COMM_WORLD));
    }
    if (rank == ROOT)
        CHECK_INTS(got, want, 16, "gather: MPI_Gather in place at the root");

    /* Scatter: block b of the root's spaced pairs to process b, received as a pair and then
     * as MPI_INTs; the root's own block in place. */
    int from[16], one[4], want_one[4], ints[2];
    for (i = 0; i < 16; i++)
        from[i] = i % 2 == 0 ? val(i / 4, (i % 4) / 2) : -7;
    for (i = 0; i < 4; i++) {
        one[i] = -1;
        want_one[i] = i % 2 == 0 ? val(rank, i / 2) : -1;
    }
    MPI_CHECK(MPI_Scatter(from, 1, pair, one, 1, pair, ROOT, MPI_COMM_WORLD));
    CHECK_INTS(one, want_one, 4, "gather: MPI_Scatter of spaced pairs");
    ints[0] = ints[1] = -1;
    MPI_CHECK(MPI_Scatter(from, 1, pair, ints, 2, MPI_INT, ROOT, MPI_COMM_WORLD));
    CHECK_INT(ints[0], val(rank, 0), "gather: MPI_Scatter of a pair into MPI_INTs, first");
    CHECK_INT(ints[1], val(rank, 1), "gather: MPI_Scatter of a pair into MPI_INTs, second");
    for (i = 0; i < 4; i++)
        one[i] = -1;
    if (rank == ROOT) {
        int kept[16];
        memcpy(kept, from, sizeof kept);
        MPI_CHECK(MPI_Scatter(from, 1, pair, MPI_IN_PLACE, 0, MPI_INT, ROOT, MPI_COMM_WORLD));
        CHECK_INTS(from, kept, 16, "gather: MPI_Scatter in place leaves the root's buffer");
    } else {
        MPI_CHECK(MPI_Scatter(NULL, 0, MPI_INT, one, 1, pair, ROOT, MPI_COMM_WORLD));
        CHECK_INTS(one, want_one, 4, "gather: MPI_Scatter with the root in place");
    }
}

/* Over an intercommunicator between {0, 1} and {2, 3}: rank 0 is the root of the low group
 * and gathers a pair from each of 2 and 3, then scatters one to each. */
static void intercommunicator(int rank, MPI_Datatype pair)
{
    MPI_Comm half, inter;
    int low = rank < 2, got[8], want[8], mine[4], i, root;
    MPI_CHECK(MPI_Comm_split(MPI_COMM_WORLD, !low, rank, &half));
    MPI_CHECK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? 2 : 0, 9, &inter));
    MPI_CHECK(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    root = !low ? 0 : rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    spaced_blocks(mine, 1, 0, rank);
    for (i = 0; i < 8; i++) {
        got[i] = -1;
        want[i] = i % 2 == 0 ? val(2 + i / 4, (i % 4) / 2) : -1;
    }
    MPI_CHECK(MPI_Gather(mine, 1, pair, got, 1, pair, root, inter));
    if (rank == 0)
        CHECK_INTS(got, want, 8, "gather: MPI_Gather over an intercommunicator");

    int from[8], one[4], want_one[4];
    for (i = 0; i < 8; i++)
        from[i] = i % 2 == 0 ? val(2 + i / 4, (i % 4) / 2) : -7;
    for (i = 0; i < 4; i++) {
        one[i] = -1;
        want_one[i] = i % 2 == 0 ? val(rank, i / 2) : -1;
    }
    MPI_CHECK(MPI_Scatter(from, 1, pair, one, 1, pair, root, inter));
    if (!low)
        CHECK_INTS(one, want_one, 4, "gather: MPI_Scatter over an intercommunicator");
    MPI_CHECK(MPI_Comm_free(&inter));
    MPI_CHECK(MPI_Comm_free(&half));
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Datatype pair;
    start(&argc, &argv, "gather", &rank, &size);
    pair = spaced_pair();
    allgather(rank, pair);
    gather_scatter(rank, pair);
    intercommunicator(rank, pair);
    MPI_CHECK(MPI_Type_free(&pair));
    return finish();
}
