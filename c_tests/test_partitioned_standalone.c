/*
 * test_partitioned_standalone.c: partitioned communication (MPI-4.1 chapter 4) in the
 * one-process world, the process sending to itself:
 *
 *   - a partition arrives (MPI_Parrived) when the send partitions it overlaps are ready, and
 *     not before; the data and the status (source, tag, count) are the message's; rounds of
 *     one pair of requests, each with its own data;
 *   - a send started, readied and completed before its receive starts: the round waits for
 *     the receive;
 *   - the two sides cut the message differently, and read it with different datatypes;
 *   - partitions of no data pair by their share of the message;
 *   - MPI_Pready_range and MPI_Pready_list (partitions not in order);
 *   - sends and receives pair in the order they were made, by communicator and tag;
 *   - MPI_PROC_NULL, MPI_REQUEST_NULL and an inactive receive in MPI_Parrived;
 *   - a send whose receive is smaller (MPI_ERR_TRUNCATE) or larger (MPI_ERR_OTHER);
 *   - a send freed while its round waits for the receive (made later, it pairs with the
 *     send made first), a send whose receive was freed, requests freed unstarted;
 *   - every bad argument or order, with its error class; a wait that could never return
 *     says so;
 *   - with MPI_THREAD_MULTIPLE, a thread marks partitions ready while the main thread waits.
 */
#include "check.h"

#include <pthread.h>

enum { PARTS = 4, PER = 8, TAG = 5 };

/* Fills `n` ints with values of round `round`. */
static void fill(int *data, int n, int round)
{
    for (int i = 0; i < n; i++) {
        data[i] = 1000 * round + i;
    }
}

/* Partitions arrive one by one, in the order they are marked ready, over three rounds. */
static void rounds_arrive_partition_by_partition(void)
{
    int sent[PARTS * PER] = {0}, got[PARTS * PER], flag = -1, count = -1;
    const int order[PARTS] = {3, 1, 0, 2};
    MPI_Request send, receive;
    MPI_Status status;

    CHECK_OK(MPI_Psend_init(sent, PARTS, PER, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Precv_init(got, PARTS, PER, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    for (int round = 1; round <= 3; round++) {
        fill(sent, PARTS * PER, round);
        memset(got, 0, sizeof got);
        CHECK_OK(MPI_Start(&receive));
        CHECK_OK(MPI_Start(&send));
        for (int k = 0; k < PARTS; k++) {
            int p = order[k];
            CHECK_OK(MPI_Parrived(receive, p, &flag));
            CHECK_EQ_LONG(flag, 0);
            CHECK_OK(MPI_Pready(p, send));
            CHECK_OK(MPI_Parrived(receive, p, &flag));
            CHECK_EQ_LONG(flag, 1);
            CHECK_EQ_MEM(got + p * PER, sent + p * PER, PER * sizeof(int));
            CHECK_OK(MPI_Test(&receive, &flag, MPI_STATUS_IGNORE));
            CHECK_EQ_LONG(flag, k == PARTS - 1);
        }
        if (!flag) {
            CHECK_OK(MPI_Wait(&receive, &status));
        }
        CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
        CHECK_EQ_MEM(got, sent, sizeof sent);
        CHECK_OK(MPI_Parrived(receive, 0, &flag)); /* inactive again: nothing to wait for */
        CHECK_EQ_LONG(flag, 1);
    }
    CHECK_OK(MPI_Start(&receive));
    CHECK_OK(MPI_Start(&send));
    CHECK_OK(MPI_Pready_range(0, PARTS - 1, send));
    CHECK_OK(MPI_Wait(&receive, &status));
    CHECK_EQ_LONG(status.MPI_SOURCE, 0);
    CHECK_EQ_LONG(status.MPI_TAG, TAG);
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, PARTS * PER);
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&receive));
    CHECK(send == MPI_REQUEST_NULL && receive == MPI_REQUEST_NULL);
}

/* Two rounds sent before the receive starts wait for it, in order. */
static void rounds_wait_for_the_receive(void)
{
    int sent[PARTS * PER] = {0}, got[PARTS * PER], expect[PARTS * PER], flag = -1;
    MPI_Request send, receive;

    CHECK_OK(MPI_Psend_init(sent, PARTS, PER, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Precv_init(got, PARTS, PER, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    for (int round = 1; round <= 2; round++) {
        fill(sent, PARTS * PER, round);
        CHECK_OK(MPI_Start(&send));
        CHECK_OK(MPI_Pready_range(0, PARTS - 1, send));
        CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    }
    fill(sent, PARTS * PER, 9); /* the send buffer is the program's again */
    for (int round = 1; round <= 2; round++) {
        memset(got, 0, sizeof got);
        CHECK_OK(MPI_Start(&receive));
        for (int p = 0; p < PARTS; p++) {
            CHECK_OK(MPI_Parrived(receive, p, &flag));
            CHECK_EQ_LONG(flag, 1);
        }
        CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE));
        fill(expect, PARTS * PER, round);
        CHECK_EQ_MEM(got, expect, sizeof got);
    }
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&receive));
}

/* 3 send partitions of 4 doubles, 4 receive partitions of 3: a receive partition arrives when
 * both send partitions it straddles are ready. The send reads every other double (a vector
 * resized to one double's stride, so copies interleave). */
static void partitions_cut_differently(void)
{
    double sent[24], got[12], expect[12];
    MPI_Datatype every_other, strided;
    MPI_Request send, receive;
    int flag = -1;

    for (int i = 0; i < 24; i++) {
        sent[i] = i % 2 ? -1.0 : i / 2 + 0.5;
    }
    for (int i = 0; i < 12; i++) {
        expect[i] = i + 0.5;
    }
    CHECK_OK(MPI_Type_vector(1, 1, 2, MPI_DOUBLE, &every_other));
    CHECK_OK(MPI_Type_create_resized(every_other, 0, 2 * sizeof(double), &strided));
    CHECK_OK(MPI_Type_commit(&strided));
    memset(got, 0, sizeof got);
    CHECK_OK(MPI_Psend_init(sent, 3, 4, strided, 0, 7, MPI_COMM_SELF, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Precv_init(got, 4, 3, MPI_DOUBLE, 0, 7, MPI_COMM_SELF, MPI_INFO_NULL, &receive));
    CHECK_OK(MPI_Startall(1, &send));
    CHECK_OK(MPI_Startall(1, &receive));
    CHECK_OK(MPI_Pready(0, send)); /* doubles 0..3 */
    const int after_first[4] = {1, 0, 0, 0};
    for (int p = 0; p < 4; p++) {
        CHECK_OK(MPI_Parrived(receive, p, &flag));
        CHECK_EQ_LONG(flag, after_first[p]);
    }
    CHECK_OK(MPI_Pready(2, send)); /* doubles 8..11 */
    const int after_third[4] = {1, 0, 0, 1};
    for (int p = 0; p < 4; p++) {
        CHECK_OK(MPI_Parrived(receive, p, &flag));
        CHECK_EQ_LONG(flag, after_third[p]);
    }
    CHECK_EQ_MEM(got + 9, expect + 9, 3 * sizeof(double));
    CHECK_OK(MPI_Pready(1, send));
    CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_EQ_MEM(got, expect, sizeof got);
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&receive));
    CHECK_OK(MPI_Type_free(&every_other));
    CHECK_OK(MPI_Type_free(&strided));
}

/* Partitions of no data (count 0) arrive when their own send partitions are ready: the two
 * sides' partitions pair by their share of the message. */
static void empty_partitions(void)
{
    int none[1] = {0}, flag = -1;
    MPI_Request send, receive;

    CHECK_OK(MPI_Psend_init(none, 2, 0, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Precv_init(none, 4, 0, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    for (int round = 0; round < 2; round++) {
        CHECK_OK(MPI_Start(&receive));
        for (int p = 0; p < 4; p++) {
            CHECK_OK(MPI_Parrived(receive, p, &flag));
            CHECK_EQ_LONG(flag, 0);
        }
        CHECK_OK(MPI_Start(&send));
        CHECK_OK(MPI_Pready(1, send));
        for (int p = 0; p < 4; p++) {
            CHECK_OK(MPI_Parrived(receive, p, &flag));
            CHECK_EQ_LONG(flag, p >= 2);
        }
        CHECK_OK(MPI_Pready(0, send));
        CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    }
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&receive));
}

/* A list of the even partitions, then of the odd ones in reverse. */
static void lists_of_partitions(void)
{
    enum { N = 9 };
    int sent[N], got[N], flag = -1;
    int evens[] = {8, 0, 4, 2, 6}, odds[] = {7, 5, 3, 1};
    MPI_Request send, receive;

    fill(sent, N, 4);
    memset(got, 0, sizeof got);
    CHECK_OK(MPI_Psend_init(sent, N, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Precv_init(got, N, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    CHECK_OK(MPI_Start(&send));
    CHECK_OK(MPI_Start(&receive));
    CHECK_OK(MPI_Pready_list(5, evens, send));
    for (int p = 0; p < N; p++) {
        CHECK_OK(MPI_Parrived(receive, p, &flag));
        CHECK_EQ_LONG(flag, p % 2 == 0);
    }
    CHECK_OK(MPI_Pready_list(0, NULL, send));
    CHECK_OK(MPI_Pready_list(4, odds, send));
    CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_EQ_MEM(got, sent, sizeof got);
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&receive));
}

/* Three sends and three receives of one communicator and tag pair in the order they were
 * made, whatever order they start in; another tag and a duplicate communicator pair apart. */
static void pairs_in_the_order_made(void)
{
    int sent[5], got[5];
    MPI_Request sends[5], receives[5];
    MPI_Comm dup;
    const int tags[5] = {TAG, TAG, TAG, TAG + 1, TAG};
    MPI_Status statuses[5];

    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    for (int i = 0; i < 5; i++) {
        MPI_Comm comm = i == 4 ? dup : MPI_COMM_WORLD;
        sent[i] = 100 + i;
        got[i] = -1;
        CHECK_OK(MPI_Psend_init(&sent[i], 1, 1, MPI_INT, 0, tags[i], comm, MPI_INFO_NULL, &sends[i]));
    }
    /* the duplicate's receive and the other tag's are made first */
    CHECK_OK(MPI_Precv_init(&got[4], 1, 1, MPI_INT, 0, TAG, dup, MPI_INFO_NULL, &receives[4]));
    CHECK_OK(MPI_Precv_init(&got[3], 1, 1, MPI_INT, 0, TAG + 1, MPI_COMM_WORLD, MPI_INFO_NULL, &receives[3]));
    for (int i = 0; i < 3; i++) {
        CHECK_OK(MPI_Precv_init(&got[i], 1, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &receives[i]));
    }
    CHECK_OK(MPI_Startall(5, receives));
    for (int i = 4; i >= 0; i--) {
        CHECK_OK(MPI_Start(&sends[i]));
        CHECK_OK(MPI_Pready(0, sends[i]));
    }
    CHECK_OK(MPI_Waitall(5, receives, statuses));
    CHECK_OK(MPI_Waitall(5, sends, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_LONG(got[i], 100 + i);
        CHECK_EQ_LONG(statuses[i].MPI_TAG, tags[i]);
        CHECK_OK(MPI_Request_free(&sends[i]));
        CHECK_OK(MPI_Request_free(&receives[i]));
    }
    CHECK_OK(MPI_Comm_free(&dup));
}

/* MPI_PROC_NULL on either side, MPI_REQUEST_NULL and an inactive receive in MPI_Parrived. */
static void null_processes_and_requests(void)
{
    int data[4] = {1, 2, 3, 4}, flag = -1;
    MPI_Request send, receive, none = MPI_REQUEST_NULL;
    MPI_Status status;

    CHECK_OK(MPI_Parrived(none, 0, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK_OK(MPI_Psend_init(data, 2, 2, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Precv_init(data, 2, 2, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    flag = -1;
    CHECK_OK(MPI_Parrived(receive, 1, &flag)); /* not started */
    CHECK_EQ_LONG(flag, 1);
    CHECK_OK(MPI_Start(&send));
    CHECK_OK(MPI_Start(&receive));
    CHECK_OK(MPI_Pready(1, send));
    CHECK_OK(MPI_Pready(0, send));
    flag = -1;
    CHECK_OK(MPI_Parrived(receive, 1, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&receive, &status));
    CHECK_EQ_LONG(status.MPI_SOURCE, MPI_PROC_NULL);
    CHECK_EQ_LONG(status.MPI_TAG, MPI_ANY_TAG);
    CHECK_EQ_LONG(data[3], 4);
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&receive));
}

/* Sends and receives of different sizes: the receive's completion says so. */
static void sizes_that_differ(void)
{
    int sent[8] = {0}, got[8] = {0}, count = -1;
    MPI_Request send, receive;
    MPI_Status status;

    fill(sent, 8, 2);
    CHECK_OK(MPI_Psend_init(sent, 2, 4, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Precv_init(got, 2, 3, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    CHECK_OK(MPI_Start(&send));
    CHECK_OK(MPI_Start(&receive));
    CHECK_OK(MPI_Pready_range(0, 1, send));
    CHECK_ERR(MPI_Wait(&receive, &status), MPI_ERR_TRUNCATE);
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 6);
    CHECK_EQ_MEM(got, sent, 6 * sizeof(int));
    CHECK_EQ_LONG(got[6], 0);
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&receive));

    CHECK_OK(MPI_Psend_init(sent, 2, 2, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Precv_init(got, 2, 3, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    CHECK_OK(MPI_Start(&send));
    CHECK_OK(MPI_Start(&receive));
    CHECK_OK(MPI_Pready_range(0, 1, send));
    CHECK_ERR(MPI_Wait(&receive, &status), MPI_ERR_OTHER);
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&receive));
}

/* A send freed after its round: the receive made after still gets the round; requests freed
 * without a start. */
static void freed_requests(void)
{
    int sent[3] = {7, 8, 9}, got[3] = {0};
    MPI_Request send, receive, unstarted;

    CHECK_OK(MPI_Psend_init(sent, 3, 1, MPI_INT, 0, TAG + 2, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Start(&send));
    CHECK_OK(MPI_Pready_range(0, 2, send));
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Precv_init(got, 1, 3, MPI_INT, 0, TAG + 2, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Start(&receive));
    CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE));
    CHECK_EQ_MEM(got, sent, sizeof got);
    CHECK_OK(MPI_Request_free(&receive));

    /* A send freed, complete, before any receive was made: the next receive made pairs with
     * it and takes its round, not the round of a send made after it. */
    int first[2] = {11, 12}, second[2] = {21, 22}, pair[2] = {0, 0};
    MPI_Request later;
    CHECK_OK(MPI_Psend_init(first, 2, 1, MPI_INT, 0, TAG + 4, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Start(&send));
    CHECK_OK(MPI_Pready_range(0, 1, send));
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Psend_init(second, 2, 1, MPI_INT, 0, TAG + 4, MPI_COMM_WORLD, MPI_INFO_NULL, &later));
    CHECK_OK(MPI_Precv_init(pair, 1, 2, MPI_INT, 0, TAG + 4, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    CHECK_OK(MPI_Start(&receive));
    CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE));
    CHECK_EQ_MEM(pair, first, sizeof pair);
    CHECK_OK(MPI_Request_free(&receive));
    /* the later send pairs with the next receive */
    CHECK_OK(MPI_Precv_init(pair, 2, 1, MPI_INT, 0, TAG + 4, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    CHECK_OK(MPI_Start(&later));
    CHECK_OK(MPI_Start(&receive));
    CHECK_OK(MPI_Pready_list(2, (int[]){1, 0}, later));
    CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&later, MPI_STATUS_IGNORE));
    CHECK_EQ_MEM(pair, second, sizeof pair);
    /* its receive freed, the send still starts and completes (keeping nothing) */
    CHECK_OK(MPI_Request_free(&receive));
    for (int round = 0; round < 3; round++) {
        CHECK_OK(MPI_Start(&later));
        CHECK_OK(MPI_Pready_range(0, 1, later));
        CHECK_OK(MPI_Wait(&later, MPI_STATUS_IGNORE));
    }
    CHECK_OK(MPI_Request_free(&later));

    CHECK_OK(MPI_Precv_init(got, 1, 3, MPI_INT, 0, TAG + 3, MPI_COMM_WORLD, MPI_INFO_NULL, &unstarted));
    CHECK_OK(MPI_Request_free(&unstarted));
    /* the freed receive was never paired: this send pairs with the next receive made */
    CHECK_OK(MPI_Psend_init(sent, 1, 3, MPI_INT, 0, TAG + 3, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Precv_init(got, 1, 3, MPI_INT, 0, TAG + 3, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    memset(got, 0, sizeof got);
    CHECK_OK(MPI_Start(&send));
    CHECK_OK(MPI_Start(&receive));
    CHECK_OK(MPI_Pready(0, send));
    CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_EQ_MEM(got, sent, sizeof got);
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&receive));
}

/* Every bad argument and order gets its error class. */
static void bad_arguments(void)
{
    int data[8] = {0}, flag = -1;
    int twice[2] = {1, 1};
    MPI_Request send, receive, request = MPI_REQUEST_NULL;
    MPI_Datatype uncommitted;

    CHECK_ERR(MPI_Psend_init(data, 0, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &request), MPI_ERR_ARG);
    CHECK_ERR(MPI_Psend_init(data, -2, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &request), MPI_ERR_ARG);
    CHECK_ERR(MPI_Psend_init(data, 1, -1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &request), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Psend_init(data, 1, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &request), MPI_ERR_RANK);
    CHECK_ERR(MPI_Psend_init(data, 1, 1, MPI_INT, 0, -1, MPI_COMM_WORLD, MPI_INFO_NULL, &request), MPI_ERR_TAG);
    CHECK_ERR(MPI_Psend_init(data, 1, 1, MPI_INT, 0, TAG, MPI_COMM_NULL, MPI_INFO_NULL, &request), MPI_ERR_COMM);
    CHECK_ERR(MPI_Psend_init(data, 1, 1, MPI_DATATYPE_NULL, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &request), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Psend_init(data, 1, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Precv_init(data, 1, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &request), MPI_ERR_RANK);
    CHECK_ERR(MPI_Precv_init(data, 1, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &request), MPI_ERR_TAG);
    /* more bytes than a process holds: 16 partitions of 2^40 copies of 1 MiB */
    MPI_Datatype mebibyte;
    CHECK_OK(MPI_Type_contiguous(1 << 20, MPI_BYTE, &mebibyte));
    CHECK_OK(MPI_Type_commit(&mebibyte));
    CHECK_ERR(MPI_Psend_init(data, 16, (MPI_Count)1 << 40, mebibyte, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &request), MPI_ERR_COUNT);
    CHECK_OK(MPI_Type_free(&mebibyte));
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
    CHECK_ERR(MPI_Precv_init(data, 1, 1, uncommitted, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &request), MPI_ERR_TYPE);
    CHECK_OK(MPI_Type_free(&uncommitted));
    CHECK(request == MPI_REQUEST_NULL);

    CHECK_OK(MPI_Psend_init(data, 4, 2, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
    CHECK_OK(MPI_Precv_init(data, 4, 2, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    CHECK_ERR(MPI_Pready(0, send), MPI_ERR_REQUEST); /* not started */
    CHECK_ERR(MPI_Pready(0, MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE)); /* inactive: returns at once */
    CHECK_OK(MPI_Start(&receive));
    CHECK_ERR(MPI_Wait(&receive, MPI_STATUS_IGNORE), MPI_ERR_OTHER); /* no send started */
    CHECK_ERR(MPI_Start(&receive), MPI_ERR_REQUEST);                 /* active already */
    CHECK_ERR(MPI_Cancel(&receive), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Pready(0, receive), MPI_ERR_REQUEST); /* a receive */
    CHECK_OK(MPI_Start(&send));
    CHECK_ERR(MPI_Parrived(send, 0, &flag), MPI_ERR_REQUEST); /* a send */
    CHECK_ERR(MPI_Parrived(receive, 4, &flag), MPI_ERR_ARG);
    CHECK_ERR(MPI_Parrived(receive, 0, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Pready(4, send), MPI_ERR_ARG);
    CHECK_ERR(MPI_Pready(-1, send), MPI_ERR_ARG);
    CHECK_ERR(MPI_Pready_range(2, 1, send), MPI_ERR_ARG);
    CHECK_ERR(MPI_Pready_range(0, 4, send), MPI_ERR_ARG);
    CHECK_ERR(MPI_Pready_list(-1, twice, send), MPI_ERR_ARG);
    CHECK_ERR(MPI_Pready_list(2, NULL, send), MPI_ERR_ARG);
    CHECK_ERR(MPI_Pready_list(2, twice, send), MPI_ERR_ARG); /* one partition twice */
    CHECK_OK(MPI_Parrived(receive, 1, &flag));
    CHECK_EQ_LONG(flag, 0); /* the failed calls marked nothing */
    CHECK_OK(MPI_Pready(1, send));
    CHECK_ERR(MPI_Pready(1, send), MPI_ERR_ARG); /* ready already */
    CHECK_ERR(MPI_Wait(&send, MPI_STATUS_IGNORE), MPI_ERR_OTHER); /* partitions not ready */
    CHECK_OK(MPI_Pready_list(3, (int[]){0, 3, 2}, send));
    CHECK_ERR(MPI_Pready(2, send), MPI_ERR_ARG); /* every partition is ready */
    CHECK_OK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE));
    CHECK_ERR(MPI_Pready(0, send), MPI_ERR_REQUEST); /* inactive again */
    CHECK_OK(MPI_Request_free(&send));
    CHECK_OK(MPI_Request_free(&receive));
}

/* With MPI_THREAD_MULTIPLE: a thread marks the partitions ready; the main thread sees the
 * first arrive (so the thread has made a call), then waits for the rest. */
struct marking {
    MPI_Request send;
    int failures;
};

static void *mark_all(void *argument)
{
    struct marking *marking = argument;
    for (int p = 0; p < PARTS; p++) {
        marking->failures += MPI_Pready(p, marking->send) != MPI_SUCCESS;
    }
    return NULL;
}

static void another_thread_marks(void)
{
    int sent[PARTS * PER], got[PARTS * PER], flag = 0;
    struct marking marking = {MPI_REQUEST_NULL, 0};
    MPI_Request receive;
    pthread_t thread;

    fill(sent, PARTS * PER, 6);
    memset(got, 0, sizeof got);
    CHECK_OK(MPI_Psend_init(sent, PARTS, PER, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &marking.send));
    CHECK_OK(MPI_Precv_init(got, PARTS, PER, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &receive));
    CHECK_OK(MPI_Start(&receive));
    CHECK_OK(MPI_Start(&marking.send));
    CHECK(pthread_create(&thread, NULL, mark_all, &marking) == 0);
    int rc = MPI_SUCCESS;
    while (!flag && rc == MPI_SUCCESS) {
        rc = MPI_Parrived(receive, 0, &flag);
    }
    CHECK_OK(rc);
    CHECK_OK(MPI_Wait(&receive, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&marking.send, MPI_STATUS_IGNORE));
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_EQ_LONG(marking.failures, 0);
    CHECK_EQ_MEM(got, sent, sizeof got);
    CHECK_OK(MPI_Request_free(&marking.send));
    CHECK_OK(MPI_Request_free(&receive));
}

int main(int argc, char **argv)
{
    int provided = -1;

    (void)argc;
    CHECK_OK(MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided));
    CHECK_EQ_LONG(provided, MPI_THREAD_MULTIPLE);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    rounds_arrive_partition_by_partition();
    rounds_wait_for_the_receive();
    partitions_cut_differently();
    empty_partitions();
    lists_of_partitions();
    pairs_in_the_order_made();
    null_processes_and_requests();
    sizes_that_differ();
    freed_requests();
    bad_arguments();
    another_thread_marks();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
