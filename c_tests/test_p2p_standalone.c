/*
 * test_p2p_standalone.c: point-to-point communication in the one-process world (the library
 * linked alone, no MPI behind it), in both builds.
 *
 * A process sends to itself with the standard's semantics:
 *   - data move through the pack engine: a vector is received as plain doubles and back (type
 *     matching by signature), a short message fills part of the buffer, and MPI_Get_count /
 *     MPI_Get_elements report whole copies and basic elements;
 *   - matching by communicator and tag, MPI_ANY_TAG, messages in the order they were sent, and
 *     MPI_COMM_WORLD apart from MPI_COMM_SELF;
 *   - every send mode, blocking, nonblocking and persistent: a synchronous send completes when
 *     its receive matches it, a ready send needs its receive posted, a buffered send needs an
 *     attached buffer with room;
 *   - the completion calls (Wait/Test, all/any/some, MPI_Request_get_status), MPI_PROC_NULL,
 *     probes and matched probes, MPI_Cancel, MPI_Sendrecv and MPI_Sendrecv_replace;
 *   - a blocking call that could never complete fails with MPI_ERR_OTHER instead of hanging,
 *     and a second thread can satisfy a receive the first is blocked in;
 *   - bad arguments get their classes: MPI_ERR_RANK, MPI_ERR_TAG, MPI_ERR_COMM,
 *     MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_REQUEST, MPI_ERR_TRUNCATE, MPI_ERR_BUFFER,
 *     MPI_ERR_IN_STATUS.
 */
#include "check.h"

#include <pthread.h>

/* Clears a buffer of doubles to -1. */
static void clear(double *x, int n)
{
    for (int i = 0; i < n; i++)
        x[i] = -1;
}

/* The bytes and tag a status reports, checked. */
static void check_status(const MPI_Status *status, int tag, int doubles)
{
    int count = -7;
    CHECK_EQ_LONG(status->MPI_SOURCE, 0);
    CHECK_EQ_LONG(status->MPI_TAG, tag);
    CHECK_OK(MPI_Get_count(status, MPI_DOUBLE, &count));
    CHECK_EQ_LONG(count, doubles);
}

/* A vector sent, doubles received, and back; a short message; counts of a partial copy. */
static void data_and_types(MPI_Datatype vector)
{
    double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    MPI_Status status;
    MPI_Datatype pair;
    int count = -7;

    clear(got, 8);
    CHECK_OK(MPI_Send(data, 1, vector, 0, 3, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(got, 8, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, &status));
    check_status(&status, 3, 4);
    for (int i = 0; i < 8; i++)
        CHECK_EQ_LONG((long)got[i], i < 4 ? 2 * i + 1 : -1);

    clear(got, 8);
    CHECK_OK(MPI_Send(data, 4, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(got, 1, vector, 0, 4, MPI_COMM_WORLD, &status));
    for (int i = 0; i < 8; i++)
        CHECK_EQ_LONG((long)got[i], i % 2 == 0 ? i / 2 + 1 : -1);

    /* Three doubles into pairs: one whole pair and one element more. */
    CHECK_OK(MPI_Type_contiguous(2, MPI_DOUBLE, &pair));
    CHECK_OK(MPI_Type_commit(&pair));
    clear(got, 8);
    CHECK_OK(MPI_Send(data, 3, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(got, 3, pair, 0, 5, MPI_COMM_WORLD, &status));
    CHECK_OK(MPI_Get_count(&status, pair, &count));
    CHECK_EQ_LONG(count, MPI_UNDEFINED);
    CHECK_OK(MPI_Get_elements(&status, pair, &count));
    CHECK_EQ_LONG(count, 3);
    CHECK_EQ_LONG((long)got[2], 3);
    CHECK_EQ_LONG((long)got[3], -1);

    /* Truncation: the buffer takes what fits, the call says MPI_ERR_TRUNCATE. */
    clear(got, 8);
    CHECK_OK(MPI_Send(data, 4, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD));
    CHECK_ERR(MPI_Recv(got, 1, pair, 0, 6, MPI_COMM_WORLD, &status), MPI_ERR_TRUNCATE);
    CHECK_EQ_LONG((long)got[1], 2);
    CHECK_EQ_LONG((long)got[2], -1);
    CHECK_OK(MPI_Type_free(&pair));
}

/* Matching: tags, MPI_ANY_TAG, order, and the two predefined communicators apart. */
static void matching(void)
{
    int a = 1, b = 2, c = 3, d = 4, got = 0;
    MPI_Status status;

    CHECK_OK(MPI_Send(&a, 1, MPI_INT, 0, 7, MPI_COMM_WORLD));
    CHECK_OK(MPI_Send(&b, 1, MPI_INT, 0, 8, MPI_COMM_WORLD));
    CHECK_OK(MPI_Send(&c, 1, MPI_INT, 0, 7, MPI_COMM_WORLD));
    CHECK_OK(MPI_Send(&d, 1, MPI_INT, 0, 7, MPI_COMM_SELF));
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &status));
    CHECK_EQ_LONG(got, 2);
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_SELF, &status));
    CHECK_EQ_LONG(got, 4);
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status));
    CHECK_EQ_LONG(got, 1);
    CHECK_EQ_LONG(status.MPI_TAG, 7);
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(got, 3);
}

/* Nonblocking calls and the completion functions. */
static void nonblocking(MPI_Datatype vector)
{
    double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    MPI_Request requests[3];
    MPI_Status statuses[3];
    int flag = -1, index = -1, outcount = -1, indices[3];

    /* A receive posted first takes the send when it comes. */
    clear(got, 8);
    CHECK_OK(MPI_Irecv(got, 1, vector, 0, 10, MPI_COMM_WORLD, &requests[0]));
    CHECK_OK(MPI_Test(&requests[0], &flag, &statuses[0]));
    CHECK_EQ_LONG(flag, 0);
    CHECK_OK(MPI_Request_get_status(requests[0], &flag, &statuses[0]));
    CHECK_EQ_LONG(flag, 0);
    CHECK_OK(MPI_Send(data, 4, MPI_DOUBLE, 0, 10, MPI_COMM_WORLD));
    CHECK_OK(MPI_Request_get_status(requests[0], &flag, &statuses[0]));
    CHECK_EQ_LONG(flag, 1);
    CHECK(requests[0] != MPI_REQUEST_NULL);
    CHECK_OK(MPI_Wait(&requests[0], &statuses[0]));
    CHECK(requests[0] == MPI_REQUEST_NULL);
    CHECK_EQ_LONG((long)got[6], 4);
    CHECK_OK(MPI_Wait(&requests[0], &statuses[0])); /* MPI_REQUEST_NULL: an empty status */
    CHECK_EQ_LONG(statuses[0].MPI_TAG, MPI_ANY_TAG);

    /* Waitall over a send, a receive and a null request. */
    CHECK_OK(MPI_Isend(data, 2, MPI_DOUBLE, 0, 11, MPI_COMM_WORLD, &requests[0]));
    CHECK_OK(MPI_Irecv(got, 2, MPI_DOUBLE, 0, 11, MPI_COMM_WORLD, &requests[1]));
    requests[2] = MPI_REQUEST_NULL;
    CHECK_OK(MPI_Waitall(3, requests, statuses));
    CHECK(requests[0] == MPI_REQUEST_NULL && requests[1] == MPI_REQUEST_NULL);
    check_status(&statuses[1], 11, 2);

    /* Waitany, Testsome, Waitsome. */
    CHECK_OK(MPI_Irecv(got, 1, MPI_DOUBLE, 0, 12, MPI_COMM_WORLD, &requests[0]));
    CHECK_OK(MPI_Irecv(got + 1, 1, MPI_DOUBLE, 0, 13, MPI_COMM_WORLD, &requests[1]));
    CHECK_OK(MPI_Testsome(2, requests, &outcount, indices, statuses));
    CHECK_EQ_LONG(outcount, 0);
    CHECK_OK(MPI_Send(data + 5, 1, MPI_DOUBLE, 0, 13, MPI_COMM_WORLD));
    CHECK_OK(MPI_Waitany(2, requests, &index, &statuses[0]));
    CHECK_EQ_LONG(index, 1);
    CHECK_EQ_LONG((long)got[1], 6);
    CHECK_OK(MPI_Testany(2, requests, &index, &flag, &statuses[0]));
    CHECK_EQ_LONG(flag, 0);
    CHECK_OK(MPI_Send(data + 6, 1, MPI_DOUBLE, 0, 12, MPI_COMM_WORLD));
    CHECK_OK(MPI_Waitsome(2, requests, &outcount, indices, statuses));
    CHECK_EQ_LONG(outcount, 1);
    CHECK_EQ_LONG(indices[0], 0);
    CHECK_OK(MPI_Waitsome(2, requests, &outcount, indices, statuses));
    CHECK_EQ_LONG(outcount, MPI_UNDEFINED);
    CHECK_OK(MPI_Waitany(2, requests, &index, &statuses[0]));
    CHECK_EQ_LONG(index, MPI_UNDEFINED);
    CHECK_OK(MPI_Testall(2, requests, &flag, statuses));
    CHECK_EQ_LONG(flag, 1);

    /* A truncated receive among several: MPI_ERR_IN_STATUS, the class in its status. */
    CHECK_OK(MPI_Irecv(got, 1, MPI_DOUBLE, 0, 14, MPI_COMM_WORLD, &requests[0]));
    CHECK_OK(MPI_Irecv(got + 1, 1, MPI_DOUBLE, 0, 15, MPI_COMM_WORLD, &requests[1]));
    CHECK_OK(MPI_Send(data, 2, MPI_DOUBLE, 0, 14, MPI_COMM_WORLD));
    CHECK_OK(MPI_Send(data, 1, MPI_DOUBLE, 0, 15, MPI_COMM_WORLD));
    CHECK_ERR(MPI_Waitall(2, requests, statuses), MPI_ERR_IN_STATUS);
    CHECK_ERR(statuses[0].MPI_ERROR, MPI_ERR_TRUNCATE);
    CHECK_EQ_LONG(statuses[1].MPI_ERROR, MPI_SUCCESS);
}

/* Synchronous, ready and buffered sends. */
static void send_modes(void)
{
    int x = 42, got = 0, size = -1;
    MPI_Request send, receive;
    MPI_Status status;
    int flag = -1;
    char *attached;
    void *detached = NULL;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, rc;

    /* A blocking synchronous send with no receive would wait forever. */
    rc = MPI_Ssend(&x, 1, MPI_INT, 0, 20, MPI_COMM_WORLD);
    CHECK_ERR(rc, MPI_ERR_OTHER);
    CHECK_OK(MPI_Error_string(rc, text, &len));
    CHECK(strstr(text, "MPI_Ssend") != NULL && strstr(text, "never") != NULL);
    CHECK_OK(MPI_Iprobe(0, 20, MPI_COMM_WORLD, &flag, &status)); /* nothing was left behind */
    CHECK_EQ_LONG(flag, 0);

    /* A nonblocking synchronous send completes when its receive matches it. */
    CHECK_OK(MPI_Issend(&x, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, &send));
    CHECK_OK(MPI_Test(&send, &flag, &status));
    CHECK_EQ_LONG(flag, 0);
    rc = MPI_Wait(&send, &status);
    CHECK_ERR(rc, MPI_ERR_OTHER);
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, &status));
    CHECK_EQ_LONG(got, 42);
    CHECK_OK(MPI_Wait(&send, &status));

    /* A ready send needs its receive first. */
    CHECK_ERR(MPI_Rsend(&x, 1, MPI_INT, 0, 22, MPI_COMM_WORLD), MPI_ERR_OTHER);
    got = 0;
    CHECK_OK(MPI_Irecv(&got, 1, MPI_INT, 0, 22, MPI_COMM_WORLD, &receive));
    CHECK_OK(MPI_Rsend(&x, 1, MPI_INT, 0, 22, MPI_COMM_WORLD));
    CHECK_OK(MPI_Wait(&receive, &status));
    CHECK_EQ_LONG(got, 42);

    /* A buffered send needs room in an attached buffer. */
    CHECK_ERR(MPI_Bsend(&x, 1, MPI_INT, 0, 23, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    size = MPI_BSEND_OVERHEAD + (int)sizeof x;
    attached = malloc((size_t)size);
    CHECK_OK(MPI_Buffer_attach(attached, size));
    CHECK_ERR(MPI_Buffer_attach(attached, size), MPI_ERR_BUFFER);
    CHECK_OK(MPI_Bsend(&x, 1, MPI_INT, 0, 23, MPI_COMM_WORLD));
    CHECK_ERR(MPI_Bsend(&x, 1, MPI_INT, 0, 24, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 23, MPI_COMM_WORLD, &status));
    CHECK_OK(MPI_Bsend(&x, 1, MPI_INT, 0, 24, MPI_COMM_WORLD)); /* its room came back */
    CHECK_OK(MPI_Buffer_detach(&detached, &size));
    CHECK(detached == attached);
    CHECK_EQ_LONG(size, MPI_BSEND_OVERHEAD + (int)sizeof x);
    got = 0;
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 24, MPI_COMM_WORLD, &status));
    CHECK_EQ_LONG(got, 42);
    free(attached);
}

/* Persistent requests, started again and again. */
static void persistent(void)
{
    int x = 0, got = 0;
    MPI_Request requests[2];
    MPI_Status statuses[2];

    CHECK_OK(MPI_Send_init(&x, 1, MPI_INT, 0, 30, MPI_COMM_WORLD, &requests[0]));
    CHECK_OK(MPI_Recv_init(&got, 1, MPI_INT, 0, 30, MPI_COMM_WORLD, &requests[1]));
    CHECK_OK(MPI_Wait(&requests[1], &statuses[1])); /* inactive: completes at once */
    CHECK(requests[1] != MPI_REQUEST_NULL);
    for (x = 1; x <= 3; x++) {
        CHECK_OK(MPI_Start(&requests[1]));
        CHECK_ERR(MPI_Start(&requests[1]), MPI_ERR_REQUEST);
        CHECK_OK(MPI_Start(&requests[0]));
        CHECK_OK(MPI_Waitall(2, requests, statuses));
        CHECK_EQ_LONG(got, x);
        CHECK(requests[0] != MPI_REQUEST_NULL && requests[1] != MPI_REQUEST_NULL);
    }
    CHECK_OK(MPI_Startall(2, requests));
    CHECK_OK(MPI_Waitall(2, requests, statuses));
    CHECK_OK(MPI_Request_free(&requests[0]));
    CHECK_OK(MPI_Request_free(&requests[1]));
    CHECK(requests[0] == MPI_REQUEST_NULL && requests[1] == MPI_REQUEST_NULL);
}

/* MPI_PROC_NULL, probes, matched probes and cancels. */
static void probes_and_cancels(MPI_Datatype vector)
{
    double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    MPI_Status status;
    MPI_Message message;
    MPI_Request request;
    int flag = -1, count = -1;

    CHECK_OK(MPI_Send(data, 1, vector, MPI_PROC_NULL, 40, MPI_COMM_WORLD));
    CHECK_OK(MPI_Recv(got, 1, vector, MPI_PROC_NULL, 40, MPI_COMM_WORLD, &status));
    CHECK_EQ_LONG(status.MPI_SOURCE, MPI_PROC_NULL);
    CHECK_EQ_LONG(status.MPI_TAG, MPI_ANY_TAG);
    CHECK_OK(MPI_Get_count(&status, vector, &count));
    CHECK_EQ_LONG(count, 0);

    CHECK_OK(MPI_Iprobe(0, 41, MPI_COMM_WORLD, &flag, &status));
    CHECK_EQ_LONG(flag, 0);
    CHECK_ERR(MPI_Probe(0, 41, MPI_COMM_WORLD, &status), MPI_ERR_OTHER);
    CHECK_OK(MPI_Send(data, 1, vector, 0, 41, MPI_COMM_WORLD));
    CHECK_OK(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status));
    check_status(&status, 41, 4);
    CHECK_OK(MPI_Mprobe(0, 41, MPI_COMM_WORLD, &message, &status));
    CHECK_OK(MPI_Iprobe(0, 41, MPI_COMM_WORLD, &flag, &status)); /* matched: no one else sees it */
    CHECK_EQ_LONG(flag, 0);
    clear(got, 8);
    CHECK_OK(MPI_Mrecv(got, 4, MPI_DOUBLE, &message, &status));
    CHECK(message == MPI_MESSAGE_NULL);
    CHECK_EQ_LONG((long)got[3], 7);
    CHECK_ERR(MPI_Mrecv(got, 4, MPI_DOUBLE, &message, &status), MPI_ERR_REQUEST);

    CHECK_OK(MPI_Improbe(0, 42, MPI_COMM_WORLD, &flag, &message, &status));
    CHECK_EQ_LONG(flag, 0);
    CHECK_OK(MPI_Send(data, 2, MPI_DOUBLE, 0, 42, MPI_COMM_WORLD));
    CHECK_OK(MPI_Improbe(0, 42, MPI_COMM_WORLD, &flag, &message, &status));
    CHECK_EQ_LONG(flag, 1);
    CHECK_OK(MPI_Imrecv(got, 2, MPI_DOUBLE, &message, &request));
    CHECK_OK(MPI_Wait(&request, &status));
    check_status(&status, 42, 2);
    CHECK_OK(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &message, &status));
    CHECK(message == MPI_MESSAGE_NO_PROC);
    CHECK_OK(MPI_Mrecv(got, 2, MPI_DOUBLE, &message, &status));
    CHECK_EQ_LONG(status.MPI_SOURCE, MPI_PROC_NULL);

    /* A receive not matched, and a send not received, can be cancelled. */
    CHECK_OK(MPI_Irecv(got, 1, MPI_DOUBLE, 0, 43, MPI_COMM_WORLD, &request));
    CHECK_OK(MPI_Cancel(&request));
    CHECK_OK(MPI_Wait(&request, &status));
    CHECK_OK(MPI_Test_cancelled(&status, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK_OK(MPI_Isend(data, 1, MPI_DOUBLE, 0, 44, MPI_COMM_WORLD, &request));
    CHECK_OK(MPI_Cancel(&request));
    CHECK_OK(MPI_Wait(&request, &status));
    CHECK_OK(MPI_Test_cancelled(&status, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK_OK(MPI_Iprobe(0, 44, MPI_COMM_WORLD, &flag, &status));
    CHECK_EQ_LONG(flag, 0);
    /* Received already: the cancel has no effect. */
    CHECK_OK(MPI_Isend(data, 1, MPI_DOUBLE, 0, 45, MPI_COMM_WORLD, &request));
    CHECK_OK(MPI_Recv(got, 1, MPI_DOUBLE, 0, 45, MPI_COMM_WORLD, &status));
    CHECK_OK(MPI_Cancel(&request));
    CHECK_OK(MPI_Wait(&request, &status));
    CHECK_OK(MPI_Test_cancelled(&status, &flag));
    CHECK_EQ_LONG(flag, 0);
}

/* MPI_Sendrecv and MPI_Sendrecv_replace. */
static void sendrecvs(MPI_Datatype vector)
{
    double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    MPI_Status status;

    clear(got, 8);
    CHECK_OK(MPI_Sendrecv(data, 1, vector, 0, 50, got, 4, MPI_DOUBLE, 0, 50, MPI_COMM_WORLD,
                          &status));
    check_status(&status, 50, 4);
    CHECK_EQ_LONG((long)got[3], 7);
    CHECK_OK(MPI_Sendrecv_replace(data, 1, vector, 0, 51, 0, 51, MPI_COMM_WORLD, &status));
    CHECK_EQ_LONG((long)data[2], 3);
    CHECK_OK(MPI_Sendrecv_c(data, 2, MPI_DOUBLE, 0, 52, got, 2, MPI_DOUBLE, 0, 52,
                            MPI_COMM_WORLD, &status));
    CHECK_EQ_LONG((long)got[1], 2);

    /* The nonblocking exchanges are done when they start; the request reports the receive. */
    MPI_Request exchange;
    clear(got, 8);
    CHECK_OK(MPI_Isendrecv(data, 1, vector, 0, 54, got, 4, MPI_DOUBLE, 0, 54, MPI_COMM_WORLD,
                           &exchange));
    CHECK_OK(MPI_Wait(&exchange, &status));
    check_status(&status, 54, 4);
    CHECK(exchange == MPI_REQUEST_NULL);
    CHECK_OK(MPI_Isendrecv_replace(data, 1, vector, 0, 55, 0, 55, MPI_COMM_WORLD, &exchange));
    CHECK_OK(MPI_Wait(&exchange, &status));
    check_status(&status, 55, 4);
    CHECK_ERR(MPI_Isendrecv(data, 1, vector, 0, 56, got, 1, MPI_DOUBLE, 0, 56, MPI_COMM_WORLD,
                            &exchange),
              MPI_ERR_TRUNCATE);

    /* A message sent earlier is received first: the receive takes it, the message sent stays. */
    double early = 77, late = 88, one = 0;
    CHECK_OK(MPI_Send(&early, 1, MPI_DOUBLE, 0, 53, MPI_COMM_WORLD));
    CHECK_OK(MPI_Sendrecv(&late, 1, MPI_DOUBLE, 0, 54, &one, 1, MPI_DOUBLE, 0, MPI_ANY_TAG,
                          MPI_COMM_WORLD, &status));
    CHECK(one == 77 && status.MPI_TAG == 53);
    CHECK_OK(MPI_Recv(&one, 1, MPI_DOUBLE, 0, 54, MPI_COMM_WORLD, &status));
    CHECK_EQ_LONG((long)one, 88);

    /* Too long for the receive buffer: it takes what fits, and the call says so. */
    clear(got, 8);
    CHECK_ERR(MPI_Sendrecv(data, 5, MPI_DOUBLE, 0, 55, got, 1, vector, 0, 55, MPI_COMM_WORLD,
                           &status),
              MPI_ERR_TRUNCATE);
    CHECK(got[0] == 1 && got[1] == -1 && got[2] == 2 && got[6] == 4 && got[7] == -1);
    clear(got, 8);
    CHECK_ERR(MPI_Sendrecv(data, 8, MPI_DOUBLE, 0, 56, got, 3, MPI_DOUBLE, 0, 56, MPI_COMM_WORLD,
                           &status),
              MPI_ERR_TRUNCATE);
    CHECK(got[2] == 3 && got[3] == -1);
}

/* Arguments the standard names an error class for. */
static void bad_arguments(MPI_Datatype vector)
{
    double data[8] = {0};
    MPI_Datatype uncommitted;
    MPI_Request request;
    MPI_Status status;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, rc;

    CHECK_ERR(MPI_Send(data, 1, vector, 1, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_ERR(MPI_Recv(data, 1, vector, 2, 0, MPI_COMM_WORLD, &status), MPI_ERR_RANK);
    CHECK_ERR(MPI_Send(data, 1, vector, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_ERR(MPI_Send(data, 1, vector, 0, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_ERR(MPI_Send(data, 1, vector, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_ERR(MPI_Send(data, -1, vector, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Send(data, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_OK(MPI_Type_contiguous(2, MPI_DOUBLE, &uncommitted));
    CHECK_ERR(MPI_Isend(data, 1, uncommitted, 0, 0, MPI_COMM_WORLD, &request), MPI_ERR_TYPE);
    CHECK_OK(MPI_Type_free(&uncommitted));
    CHECK_ERR(MPI_Irecv(data, 1, vector, 0, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    request = (MPI_Request)(intptr_t)0x1234;
    CHECK_ERR(MPI_Wait(&request, &status), MPI_ERR_REQUEST);
    request = MPI_REQUEST_NULL;
    CHECK_ERR(MPI_Request_free(&request), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Cancel(&request), MPI_ERR_REQUEST);

    /* A receive with nothing to match would wait forever: it says so. */
    rc = MPI_Recv(data, 1, vector, 0, 60, MPI_COMM_WORLD, &status);
    CHECK_ERR(rc, MPI_ERR_OTHER);
    CHECK_OK(MPI_Error_string(rc, text, &len));
    CHECK(strstr(text, "MPI_Recv") != NULL && strstr(text, "never") != NULL);
    CHECK_OK(MPI_Irecv(data, 1, vector, 0, 61, MPI_COMM_WORLD, &request));
    rc = MPI_Wait(&request, &status);
    CHECK_ERR(rc, MPI_ERR_OTHER);
    CHECK_OK(MPI_Error_string(rc, text, &len));
    CHECK(strstr(text, "MPI_Wait") != NULL && strstr(text, "MPI_Irecv") != NULL);
    CHECK_OK(MPI_Cancel(&request));
    CHECK_OK(MPI_Wait(&request, &status));
}

/* The receiver of the thread test: a blocking receive another thread satisfies. */
static void *receiver(void *arg)
{
    int *got = arg;
    *got = MPI_Recv(got + 1, 1, MPI_INT, 0, 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return NULL;
}

/* With MPI_THREAD_MULTIPLE, a receive in one thread waits for a send from another. */
static void threads(void)
{
    int got[2] = {-1, 0}, x = 77;
    pthread_t thread;

    CHECK(pthread_create(&thread, NULL, receiver, got) == 0);
    CHECK_OK(MPI_Send(&x, 1, MPI_INT, 0, 70, MPI_COMM_WORLD));
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_OK(got[0]);
    CHECK_EQ_LONG(got[1], 77);
}

int main(int argc, char **argv)
{
    (void)argc;
    MPI_Datatype vector;
    int provided = -1;

    CHECK_OK(MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided));
    CHECK_EQ_LONG(provided, MPI_THREAD_MULTIPLE);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &vector));
    CHECK_OK(MPI_Type_commit(&vector));

    data_and_types(vector);
    matching();
    nonblocking(vector);
    send_modes();
    persistent();
    probes_and_cancels(vector);
    sendrecvs(vector);
    bad_arguments(vector);
    threads();

    CHECK_OK(MPI_Type_free(&vector));
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
