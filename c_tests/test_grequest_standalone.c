/*
 * test_grequest_standalone.c: generalized requests in the one-process world (the library
 * linked alone, no MPI behind it), in both builds.
 *
 *   - MPI_Test on a generalized request is false until MPI_Grequest_complete, then true,
 *     with the status its query callback fills (source, tag, count, cancelled); the free
 *     callback runs once the request is freed, and not before;
 *   - MPI_Wait on one not completed would never return (MPI_ERR_OTHER), and leaves it alive;
 *   - MPI_Request_get_status calls the query but frees nothing;
 *   - MPI_Request_free before MPI_Grequest_complete: the free callback runs at the completion;
 *   - MPI_Cancel calls the cancel callback with whether the request is complete;
 *   - a query that fails makes MPI_Wait fail with its code, and MPI_Waitall with
 *     MPI_ERR_IN_STATUS; completing one twice is MPI_ERR_REQUEST.
 */
#include "check.h"

struct state {
    int queries, frees, cancels, cancelled_complete, fail;
};

static int query(void *extra, MPI_Status *status)
{
    struct state *s = extra;
    s->queries++;
    status->MPI_SOURCE = 0;
    status->MPI_TAG = 42;
    MPI_Status_set_elements(status, MPI_INT, 3);
    MPI_Status_set_cancelled(status, 0);
    return s->fail ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int release(void *extra)
{
    ((struct state *)extra)->frees++;
    return MPI_SUCCESS;
}

static int cancel(void *extra, int complete)
{
    struct state *s = extra;
    s->cancels++;
    s->cancelled_complete = complete;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    struct state s = {0}, t = {0};
    MPI_Request request, kept, requests[2];
    MPI_Status status, statuses[2];
    int flag = -1, count = -1;

    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    CHECK_OK(MPI_Grequest_start(query, release, cancel, &s, &request));
    CHECK_OK(MPI_Test(&request, &flag, &status));
    CHECK_EQ_LONG(flag, 0);
    CHECK_ERR(MPI_Wait(&request, &status), MPI_ERR_OTHER);
    CHECK(request != MPI_REQUEST_NULL);
    CHECK_OK(MPI_Cancel(&request));
    CHECK(s.cancels == 1 && s.cancelled_complete == 0);
    CHECK_OK(MPI_Grequest_complete(request));
    CHECK_ERR(MPI_Grequest_complete(request), MPI_ERR_REQUEST);
    CHECK_OK(MPI_Request_get_status(request, &flag, &status));
    CHECK(flag == 1 && s.queries == 1 && s.frees == 0);
    CHECK_OK(MPI_Cancel(&request));
    CHECK(s.cancels == 2 && s.cancelled_complete == 1);
    CHECK_OK(MPI_Test(&request, &flag, &status));
    CHECK(flag == 1 && request == MPI_REQUEST_NULL);
    CHECK(s.queries == 2 && s.frees == 1);
    CHECK_EQ_LONG(status.MPI_TAG, 42);
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 3);

    /* freed before it completes: the free callback runs at the completion */
    CHECK_OK(MPI_Grequest_start(query, release, cancel, &t, &request));
    kept = request;
    CHECK_OK(MPI_Request_free(&request));
    CHECK(request == MPI_REQUEST_NULL && t.frees == 0);
    CHECK_OK(MPI_Grequest_complete(kept));
    CHECK(t.frees == 1 && t.queries == 0);

    /* a failing query */
    s.fail = 1;
    CHECK_OK(MPI_Grequest_start(query, release, cancel, &s, &requests[0]));
    CHECK_OK(MPI_Grequest_start(query, release, cancel, &s, &requests[1]));
    CHECK_OK(MPI_Grequest_complete(requests[0]));
    CHECK_OK(MPI_Grequest_complete(requests[1]));
    CHECK_ERR(MPI_Waitall(2, requests, statuses), MPI_ERR_IN_STATUS);
    CHECK_EQ_LONG(statuses[0].MPI_ERROR != MPI_SUCCESS, 1);
    CHECK(requests[0] == MPI_REQUEST_NULL && s.frees == 3);

    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
