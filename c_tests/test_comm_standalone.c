/*
 * test_comm_standalone.c: the collectives in the one-process world (the library with no MPI
 * library behind it), in both builds; point-to-point is test_p2p_standalone.c's:
 *   - MPI_Bcast in the one-process world succeeds (the root, rank 0, is the only process) on
 *     MPI_COMM_WORLD and MPI_COMM_SELF, and leaves the buffer alone; another root is
 *     MPI_ERR_ROOT, a negative count MPI_ERR_COUNT;
 *   - MPI_Alltoall in the one-process world moves the one block from the send buffer to the
 *     receive buffer through the engine, types on both sides (a vector into doubles and
 *     doubles into a vector), leaves the buffer alone with MPI_IN_PLACE, and fails with
 *     MPI_ERR_TRUNCATE when the receive buffer takes fewer bytes than are sent, MPI_ERR_TYPE
 *     for a type not committed and MPI_ERR_COUNT for a negative count; MPI_Allgather,
 *     MPI_Gather and MPI_Scatter move their one block the same way, and a root other than 0
 *     is MPI_ERR_ROOT;
 *   - the v and w collectives (MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv,
 *     MPI_Alltoallw, and a _c form) move the block to and from its displacement, in extents
 *     of the side's type (in bytes for MPI_Alltoallw);
 *   - the nonblocking collectives are done when started, and their requests are complete at
 *     once; their errors are those of the blocking ones, and a NULL request is MPI_ERR_ARG;
 *   - the persistent collectives (MPI_Allreduce_init, MPI_Barrier_init, ...) run at each
 *     start with the data of that moment, beside persistent sends in one MPI_Startall, and
 *     give their errors at the start; their arrays of counts and displacements are copied
 *     when they are made.
 */
#include "check.h"

/* MPI_Alltoall in the one-process world. */
static void alltoall(MPI_Datatype vector, MPI_Datatype uncommitted)
{
    double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8], want[8];
    int i;
    for (i = 0; i < 8; i++)
        got[i] = -1;
    CHECK_OK(MPI_Alltoall(data, 1, vector, got, 4, MPI_DOUBLE, MPI_COMM_WORLD));
    for (i = 0; i < 8; i++)
        want[i] = i < 4 ? data[2 * i] : -1;
    CHECK(memcmp(got, want, sizeof got) == 0);
    for (i = 0; i < 8; i++)
        got[i] = -1;
    CHECK_OK(MPI_Alltoall(data, 4, MPI_DOUBLE, got, 1, vector, MPI_COMM_SELF));
    for (i = 0; i < 8; i++)
        want[i] = i % 2 == 0 ? data[i / 2] : -1;
    CHECK(memcmp(got, want, sizeof got) == 0);
    memcpy(want, data, sizeof data);
    CHECK_OK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DOUBLE, data, 1, vector, MPI_COMM_WORLD));
    CHECK(memcmp(data, want, sizeof data) == 0);
    CHECK_ERR(MPI_Alltoall(data, 2, vector, got, 7, MPI_DOUBLE, MPI_COMM_WORLD),
              MPI_ERR_TRUNCATE);
    CHECK_ERR(MPI_Alltoall(data, 1, uncommitted, got, 4, MPI_DOUBLE, MPI_COMM_WORLD),
              MPI_ERR_TYPE);
    CHECK_ERR(MPI_Alltoall(data, -1, vector, got, 4, MPI_DOUBLE, MPI_COMM_WORLD),
              MPI_ERR_COUNT);
}

/* MPI_Allgather, MPI_Gather and MPI_Scatter in the one-process world: the one block. */
/* Sets the eight doubles of `got` to -1. */
static void clear8(double *got)
{
    for (int i = 0; i < 8; i++)
        got[i] = -1;
}

/* The v and w collectives: the one block at its displacement on each side. */
static void varying(MPI_Datatype vector)
{
    double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    int two = 2, three = 3, four = 4, one = 1, zero = 0, bytes = 2 * (int)sizeof(double);
    MPI_Count two_c = 2;
    MPI_Aint three_c = 3;
    MPI_Datatype doubles = MPI_DOUBLE;

    clear8(got);
    CHECK_OK(MPI_Gatherv(data, 2, MPI_DOUBLE, got, &two, &three, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    CHECK(got[2] == -1 && got[3] == 1 && got[4] == 2 && got[5] == -1);
    clear8(got);
    CHECK_OK(MPI_Gatherv_c(data, 2, MPI_DOUBLE, got, &two_c, &three_c, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    CHECK(got[3] == 1 && got[4] == 2 && got[5] == -1);
    CHECK_ERR(MPI_Gatherv(data, 2, MPI_DOUBLE, got, &two, &three, MPI_DOUBLE, 1, MPI_COMM_WORLD),
              MPI_ERR_ROOT);
    clear8(got);
    CHECK_OK(MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DOUBLE, got, &two, &three, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    CHECK(got[3] == -1);

    clear8(got);
    CHECK_OK(MPI_Scatterv(data, &two, &three, MPI_DOUBLE, got, 2, MPI_DOUBLE, 0, MPI_COMM_SELF));
    CHECK(got[0] == 4 && got[1] == 5 && got[2] == -1);

    /* Into a vector (extent: 3 doubles) one extent on: the doubles 3 and 5 of the buffer. */
    double wide[10];
    for (int i = 0; i < 10; i++)
        wide[i] = -1;
    CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &doubles));
    CHECK_OK(MPI_Type_commit(&doubles));
    CHECK_OK(MPI_Allgatherv(data, 2, MPI_DOUBLE, wide, &one, &one, doubles, MPI_COMM_WORLD));
    CHECK(wide[2] == -1 && wide[3] == 1 && wide[4] == -1 && wide[5] == 2 && wide[6] == -1);
    CHECK_OK(MPI_Type_free(&doubles));

    clear8(got);
    CHECK_OK(MPI_Alltoallv(data, &two, &one, MPI_DOUBLE, got, &two, &zero, MPI_DOUBLE,
                           MPI_COMM_WORLD));
    CHECK(got[0] == 2 && got[1] == 3 && got[2] == -1);
    /* with MPI_IN_PLACE the send arguments are ignored, NULL arrays included */
    CHECK_OK(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, got, &two, &zero,
                           MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK(got[0] == 2 && got[1] == 3);

    /* Alltoallw: a vector at byte 0 into doubles two doubles on. */
    clear8(got);
    doubles = MPI_DOUBLE;
    CHECK_OK(MPI_Alltoallw(data, &one, &zero, &vector, got, &four, &bytes, &doubles,
                           MPI_COMM_WORLD));
    CHECK(got[1] == -1 && got[2] == 1 && got[3] == 3 && got[4] == 5 && got[5] == 7);
    CHECK(got[6] == -1);
}

/* The nonblocking collectives: done when started, their requests complete at once. */
static void nonblocking(MPI_Datatype vector)
{
    double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    MPI_Request requests[4];
    MPI_Status statuses[4];
    int two = 2, one = 1, flag = 0;

    clear8(got);
    CHECK_OK(MPI_Ibarrier(MPI_COMM_WORLD, &requests[0]));
    CHECK_OK(MPI_Iallreduce(data, got, 1, vector, MPI_SUM, MPI_COMM_WORLD, &requests[1]));
    CHECK_OK(MPI_Igatherv(data, 2, MPI_DOUBLE, got, &two, &one, MPI_DOUBLE, 0, MPI_COMM_SELF,
                          &requests[2]));
    CHECK_OK(MPI_Ibcast_c(data, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD, &requests[3]));
    CHECK_OK(MPI_Testall(4, requests, &flag, statuses));
    CHECK_EQ_LONG(flag, 1);
    CHECK(requests[0] == MPI_REQUEST_NULL && requests[3] == MPI_REQUEST_NULL);
    /* The vector's 1, 3, 5, 7 at 0, 2, 4, 6, then the gather's 1, 2 at 1, 2. */
    CHECK(got[0] == 1 && got[1] == 1 && got[2] == 2 && got[4] == 5 && got[6] == 7);

    CHECK_ERR(MPI_Iallreduce(data, got, 1, MPI_BYTE, MPI_SUM, MPI_COMM_WORLD, &requests[0]),
              MPI_ERR_OP);
    CHECK_ERR(MPI_Ialltoall(data, 1, vector, got, 4, MPI_DOUBLE, MPI_COMM_WORLD, NULL),
              MPI_ERR_ARG);
}

/* The persistent collectives: each start runs the collective with the data of that moment. */
static void persistent(MPI_Datatype vector)
{
    double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8], one = 0, back = 0;
    MPI_Request requests[3];
    MPI_Status statuses[3];

    CHECK_OK(MPI_Allreduce_init(data, got, 1, vector, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL,
                                &requests[0]));
    CHECK_OK(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &requests[1]));
    CHECK_OK(MPI_Send_init(&one, 1, MPI_DOUBLE, 0, 9, MPI_COMM_SELF, &requests[2]));
    for (int round = 0; round < 3; round++) {
        clear8(got);
        data[2] = 100 + round;
        one = round;
        CHECK_OK(MPI_Startall(3, requests));
        CHECK_OK(MPI_Waitall(3, requests, statuses));
        CHECK(got[0] == 1 && got[2] == 100 + round && got[1] == -1);
        CHECK_OK(MPI_Recv(&back, 1, MPI_DOUBLE, 0, 9, MPI_COMM_SELF, MPI_STATUS_IGNORE));
        CHECK(back == round);
        CHECK(requests[0] != MPI_REQUEST_NULL && requests[1] != MPI_REQUEST_NULL);
    }
    for (int k = 0; k < 3; k++)
        CHECK_OK(MPI_Request_free(&requests[k]));

    /* Its errors come at each start, as the blocking collective's. */
    CHECK_OK(MPI_Allreduce_init(data, got, 1, MPI_BYTE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                                &requests[0]));
    CHECK_ERR(MPI_Start(&requests[0]), MPI_ERR_OP);
    CHECK_OK(MPI_Wait(&requests[0], &statuses[0]));
    CHECK_OK(MPI_Request_free(&requests[0]));

    /* The arrays of counts and displacements are the request's own once it is made: the
       program may change or drop its arrays. */
    int counts[1] = {2}, displs[1] = {3};
    CHECK_OK(MPI_Allgatherv_init(data, 2, MPI_DOUBLE, got, counts, displs, MPI_DOUBLE,
                                 MPI_COMM_WORLD, MPI_INFO_NULL, &requests[0]));
    counts[0] = 1000000;
    displs[0] = -1000000;
    clear8(got);
    CHECK_OK(MPI_Start(&requests[0]));
    CHECK_OK(MPI_Wait(&requests[0], &statuses[0]));
    CHECK(got[2] == -1 && got[3] == 1 && got[4] == 2 && got[5] == -1);
    CHECK_OK(MPI_Request_free(&requests[0]));
}

static void block_collectives(MPI_Datatype vector)
{
    double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8], want[8];
    int i, round;
    for (i = 0; i < 8; i++)
        want[i] = i < 4 ? data[2 * i] : -1;
    for (round = 0; round < 3; round++) {
        for (i = 0; i < 8; i++)
            got[i] = -1;
        if (round == 0)
            CHECK_OK(MPI_Allgather(data, 1, vector, got, 4, MPI_DOUBLE, MPI_COMM_WORLD));
        else if (round == 1)
            CHECK_OK(MPI_Gather(data, 1, vector, got, 4, MPI_DOUBLE, 0, MPI_COMM_SELF));
        else
            CHECK_OK(MPI_Scatter(data, 1, vector, got, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD));
        CHECK(memcmp(got, want, sizeof got) == 0);
    }
    CHECK_OK(MPI_Gather(MPI_IN_PLACE, 0, MPI_DOUBLE, data, 1, vector, 0, MPI_COMM_WORLD));
    CHECK_OK(MPI_Scatter(data, 1, vector, MPI_IN_PLACE, 0, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    CHECK_ERR(MPI_Gather(data, 1, vector, got, 4, MPI_DOUBLE, 1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    CHECK_ERR(MPI_Scatter(data, 1, vector, got, 4, MPI_DOUBLE, -5, MPI_COMM_WORLD),
              MPI_ERR_ROOT);
    CHECK_ERR(MPI_Allgather(data, 2, vector, got, 7, MPI_DOUBLE, MPI_COMM_WORLD),
              MPI_ERR_TRUNCATE);
}

int main(int argc, char **argv)
{
    (void)argc;
    double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, copy[8];
    MPI_Datatype vector;

    CHECK_OK(MPI_Init(NULL, NULL));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &vector));
    CHECK_OK(MPI_Type_commit(&vector));

    memcpy(copy, data, sizeof data);
    CHECK_OK(MPI_Bcast(data, 2, vector, 0, MPI_COMM_WORLD));
    CHECK_OK(MPI_Bcast(data, 8, MPI_DOUBLE, 0, MPI_COMM_SELF));
    CHECK(memcmp(copy, data, sizeof data) == 0);
    CHECK_ERR(MPI_Bcast(data, 1, vector, 1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    CHECK_ERR(MPI_Bcast(data, -1, vector, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);

    MPI_Datatype uncommitted;
    CHECK_OK(MPI_Type_contiguous(2, MPI_DOUBLE, &uncommitted));
    alltoall(vector, uncommitted);
    block_collectives(vector);
    varying(vector);
    nonblocking(vector);
    persistent(vector);
    CHECK_OK(MPI_Type_free(&uncommitted));

    CHECK_OK(MPI_Type_free(&vector));
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
