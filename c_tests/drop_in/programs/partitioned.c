/* partitioned: MPI-4.0 partitioned communication of derived types around a ring.
 *  - Each rank sends 6 partitions of 5 doubles, read every other double (a vector resized to
 *    a stride of two doubles), to its right neighbour, which receives them as 10 partitions
 *    of 3 contiguous doubles: the sides cut the message differently.
 *  - Three rounds of one pair of requests, each with new data; partitions marked ready from
 *    the last to the first (MPI_Pready), then as a range (MPI_Pready_range) and as a list of
 *    odd partitions then even ones (MPI_Pready_list).
 *  - The receiver polls MPI_Parrived until every partition has arrived and checks each one's
 *    doubles as soon as it says so, then MPI_Wait's status (source, tag, count).
 *  MPI_Parrived of a receive not started or of MPI_REQUEST_NULL, true by the standard, is left
 *  to the one-process tests: MPICH 4.0.2 fails the first (MPI_ERR_PENDING) and MPICH 5.0.2
 *  crashes on the second.
 *  The ranks make their requests in an order that cannot wait forever where making one waits
 *  for its partner (Open MPI 5's prototype): even ranks make the send first, odd ranks the
 *  receive. */
#include "check_mpi.h"

enum { SEND_PARTS = 6, SEND_PER = 5, RECV_PARTS = 10, RECV_PER = 3, TOTAL = 30, TAG = 21 };

/* The value of double `i` that `rank` sends in `round`. */
static double value(int rank, int round, int i)
{
    return rank * 10000.0 + round * 100.0 + i + 0.25;
}

/* Marks every partition of `send` ready, in the way of `round`. */
static void mark(MPI_Request send, int round)
{
    int odd_then_even[SEND_PARTS], n = 0, p;
    switch (round) {
    case 0:
        for (p = SEND_PARTS - 1; p >= 0; p--)
            MPI_CHECK(MPI_Pready(p, send));
        break;
    case 1:
        MPI_CHECK(MPI_Pready_range(0, SEND_PARTS / 2 - 1, send));
        MPI_CHECK(MPI_Pready_range(SEND_PARTS / 2, SEND_PARTS - 1, send));
        break;
    default:
        for (p = 1; p < SEND_PARTS; p += 2)
            odd_then_even[n++] = p;
        for (p = 0; p < SEND_PARTS; p += 2)
            odd_then_even[n++] = p;
        MPI_CHECK(MPI_Pready_list(n, odd_then_even, send));
    }
}

int main(int argc, char **argv)
{
    double sent[2 * TOTAL], got[TOTAL];
    int size, right, left, round, p, i, flag = 0, count = -1, arrived[RECV_PARTS];
    MPI_Datatype every_other, strided;
    MPI_Request send, receive;
    MPI_Status status;

    MPI_Init(&argc, &argv);
    g_prog = "partitioned";
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    right = (g_rank + 1) % size;
    left = (g_rank + size - 1) % size;

    MPI_CHECK(MPI_Type_vector(1, 1, 2, MPI_DOUBLE, &every_other));
    MPI_CHECK(MPI_Type_create_resized(every_other, 0, 2 * sizeof(double), &strided));
    MPI_CHECK(MPI_Type_commit(&strided));
    if (g_rank % 2 == 0) {
        MPI_CHECK(MPI_Psend_init(sent, SEND_PARTS, SEND_PER, strided, right, TAG, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &send));
        MPI_CHECK(MPI_Precv_init(got, RECV_PARTS, RECV_PER, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &receive));
    } else {
        MPI_CHECK(MPI_Precv_init(got, RECV_PARTS, RECV_PER, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &receive));
        MPI_CHECK(MPI_Psend_init(sent, SEND_PARTS, SEND_PER, strided, right, TAG, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &send));
    }
    for (round = 0; round < 3; round++) {
        for (i = 0; i < TOTAL; i++) {
            sent[2 * i] = value(g_rank, round, i);
            sent[2 * i + 1] = -1.0; /* the gaps are never sent */
            got[i] = -2.0;
        }
        for (p = 0; p < RECV_PARTS; p++)
            arrived[p] = 0;
        MPI_CHECK(MPI_Start(&receive));
        MPI_CHECK(MPI_Start(&send));
        mark(send, round);
        for (int left_to_arrive = RECV_PARTS; left_to_arrive > 0;) {
            for (p = 0; p < RECV_PARTS; p++) {
                if (arrived[p])
                    continue;
                MPI_CHECK(MPI_Parrived(receive, p, &flag));
                if (!flag)
                    continue;
                arrived[p] = 1;
                left_to_arrive--;
                for (i = p * RECV_PER; i < (p + 1) * RECV_PER; i++)
                    CHECK(got[i] == value(left, round, i), "a double of an arrived partition",
                          "round %d double %d: got %g, want %g", round, i, got[i],
                          value(left, round, i));
            }
        }
        MPI_CHECK(MPI_Wait(&receive, &status));
        MPI_CHECK(MPI_Wait(&send, MPI_STATUS_IGNORE));
        CHECK_INT(status.MPI_SOURCE, left, "the status's source");
        CHECK_INT(status.MPI_TAG, TAG, "the status's tag");
        MPI_CHECK(MPI_Get_count(&status, MPI_DOUBLE, &count));
        CHECK_INT(count, TOTAL, "the doubles received");
        for (i = 0; i < TOTAL; i++)
            CHECK(got[i] == value(left, round, i), "a double received", "round %d double %d: got %g",
                  round, i, got[i]);
    }
    MPI_CHECK(MPI_Request_free(&send));
    MPI_CHECK(MPI_Request_free(&receive));
    MPI_CHECK(MPI_Type_free(&every_other));
    MPI_CHECK(MPI_Type_free(&strided));
    return finish();
}
