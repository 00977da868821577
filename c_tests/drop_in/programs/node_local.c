/* node_local: large messages of a derived type around a ring of 4 ranks, in every send mode,
 * received with predefined and derived types by every kind of receive and completion call.
 * Preloaded it runs with MPI_DTYPE_TRANSPORT=shm, so these messages go through the senders'
 * rings in shared memory; the program checks what the standard promises either way: the
 * data, the gaps of the receive type left alone, the counts of the statuses, the order of
 * the messages from one sender, MPI_ERR_TRUNCATE for a message larger than its receive, a
 * receive of exactly a header's size (1024 bytes) that gets the program's own bytes, and
 * what the probes report (MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe) of messages that
 * later receives take, each kind of them (MPI_Isendrecv and MPI_Isendrecv_replace in
 * node_local_isendrecv.c).
 *
 * Preloaded with: MPI_DTYPE_TRANSPORT=shm
 */
#include "ring_messages.h"

#include <string.h>

int main(int argc, char **argv)
{
    int size;
    start(&argc, &argv, "node_local", &rank, &size);
    ring_start(size);
    MPI_Status status;
    MPI_Request sends[2], recvs[2];

    /* 1. MPI_Isend; MPI_Recv of doubles with room to spare. */
    fill_vector(out, 1);
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 1, MPI_COMM_WORLD, &sends[0]));
    clear(in, SPAN);
    MPI_CHECK(MPI_Recv(in, SPAN, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &status));
    MPI_CHECK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));
    check_count(&status, MPI_DOUBLE, PACKED, "count of doubles");
    check_packed(in, 1, PACKED, "Recv of doubles");
    CHECK(in[PACKED] == -3.0, "Recv of doubles", "wrote past the message");

    /* 2. MPI_Send after MPI_Irecv of the vector; MPI_Wait with MPI_STATUS_IGNORE. */
    fill_vector(out, 2);
    clear(in, SPAN);
    MPI_CHECK(MPI_Irecv(in, 1, vec, prev, 2, MPI_COMM_WORLD, &recvs[0]));
    MPI_CHECK(MPI_Send(out, 1, vec, next, 2, MPI_COMM_WORLD));
    MPI_CHECK(MPI_Wait(&recvs[0], MPI_STATUS_IGNORE));
    check_vector(in, 2, "Irecv of the vector");

    /* 3. MPI_Issend; MPI_Recv of bytes from any source with any tag. */
    fill_vector(out, 3);
    MPI_CHECK(MPI_Issend(out, 1, vec, next, 3, MPI_COMM_WORLD, &sends[0]));
    clear(in, SPAN);
    MPI_CHECK(MPI_Recv(in, (int)(SPAN * sizeof(double)), MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                       MPI_COMM_WORLD, &status));
    MPI_CHECK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));
    check_count(&status, MPI_BYTE, (int)(PACKED * sizeof(double)), "count of bytes");
    CHECK_INT(status.MPI_SOURCE, prev, "source of any source");
    CHECK_INT(status.MPI_TAG, 3, "tag of any tag");
    check_packed(in, 3, PACKED, "Recv of bytes");

    /* 4. MPI_Bsend through an attached buffer; MPI_Irecv and MPI_Test until done. */
    int room = (int)(PACKED * sizeof(double)) + MPI_BSEND_OVERHEAD;
    char *attached = malloc((size_t)room);
    MPI_CHECK(MPI_Buffer_attach(attached, room));
    fill_vector(out, 4);
    clear(in, SPAN);
    MPI_CHECK(MPI_Irecv(in, 1, vec, prev, 4, MPI_COMM_WORLD, &recvs[0]));
    MPI_CHECK(MPI_Bsend(out, 1, vec, next, 4, MPI_COMM_WORLD));
    for (int done = 0; !done;)
        MPI_CHECK(MPI_Test(&recvs[0], &done, &status));
    check_count(&status, vec, 1, "count of a vector");
    check_vector(in, 4, "Bsend, Test");
    void *detached;
    MPI_CHECK(MPI_Buffer_detach(&detached, &room));
    free(attached);

    /* 5. MPI_Rsend to a receive posted before a barrier. */
    fill_vector(out, 5);
    clear(in, SPAN);
    MPI_CHECK(MPI_Irecv(in, PACKED, MPI_DOUBLE, prev, 5, MPI_COMM_WORLD, &recvs[0]));
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_CHECK(MPI_Rsend(out, 1, vec, next, 5, MPI_COMM_WORLD));
    MPI_CHECK(MPI_Wait(&recvs[0], &status));
    check_packed(in, 5, PACKED, "Rsend");

    /* 6. Two messages received in the other order than sent (their slots released in the
     *    other order), with MPI_Waitall and no statuses. */
    fill_vector(out, 6);
    fill_vector(out2, 7);
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 6, MPI_COMM_WORLD, &sends[0]));
    MPI_CHECK(MPI_Isend(out2, 1, vec, next, 7, MPI_COMM_WORLD, &sends[1]));
    clear(in, SPAN);
    clear(in2, SPAN);
    MPI_CHECK(MPI_Recv(in2, 1, vec, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_Irecv(in, PACKED, MPI_DOUBLE, prev, 6, MPI_COMM_WORLD, &recvs[0]));
    MPI_CHECK(MPI_Waitall(1, recvs, statuses_ignore));
    MPI_CHECK(MPI_Waitall(2, sends, statuses_ignore));
    check_packed(in, 6, PACKED, "first sent, second received");
    check_vector(in2, 7, "second sent, first received");

    /* 7. A persistent receive started twice. */
    MPI_Request persistent;
    MPI_CHECK(MPI_Recv_init(in, 1, vec, prev, 8, MPI_COMM_WORLD, &persistent));
    for (int round = 8; round < 10; round++) {
        fill_vector(out, round);
        clear(in, SPAN);
        MPI_CHECK(MPI_Start(&persistent));
        MPI_CHECK(MPI_Send(out, 1, vec, next, 8, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Wait(&persistent, &status));
        check_count(&status, vec, 1, "persistent receive's count");
        check_vector(in, round, "persistent receive");
    }
    MPI_CHECK(MPI_Request_free(&persistent));

    /* 8. MPI_Sendrecv (vector out, doubles in) and MPI_Sendrecv_replace of the vector. */
    fill_vector(out, 10);
    clear(in, SPAN);
    MPI_CHECK(MPI_Sendrecv(out, 1, vec, next, 10, in, PACKED, MPI_DOUBLE, prev, 10, MPI_COMM_WORLD,
                           &status));
    check_count(&status, MPI_DOUBLE, PACKED, "Sendrecv's count");
    check_packed(in, 10, PACKED, "Sendrecv");
    fill_vector_in_place(out, 11);
    MPI_CHECK(MPI_Sendrecv_replace(out, 1, vec, next, 11, prev, 11, MPI_COMM_WORLD, &status));
    check_vector(out, 11, "Sendrecv_replace");

    /* 9. A message larger than its receive: MPI_ERR_TRUNCATE. */
    fill_vector(out, 12);
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 12, MPI_COMM_WORLD, &sends[0]));
    clear(in, SPAN);
    int rc = MPI_Recv(in, PACKED / 2, MPI_DOUBLE, prev, 12, MPI_COMM_WORLD, &status);
    int class = MPI_SUCCESS;
    MPI_CHECK(MPI_Error_class(rc, &class));
    CHECK_INT(class, MPI_ERR_TRUNCATE, "class of a truncated receive");
    CHECK(in[PACKED / 2] == -3.0, "truncated receive", "wrote past the receive");
    MPI_CHECK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));

    /* 10. MPI_Request_get_status until done, then MPI_Wait: the same count twice. */
    fill_vector(out, 13);
    clear(in, SPAN);
    MPI_CHECK(MPI_Irecv(in, SPAN, MPI_DOUBLE, prev, 13, MPI_COMM_WORLD, &recvs[0]));
    MPI_CHECK(MPI_Send(out, 1, vec, next, 13, MPI_COMM_WORLD));
    for (int done = 0; !done;)
        MPI_CHECK(MPI_Request_get_status(recvs[0], &done, &status));
    check_count(&status, MPI_DOUBLE, PACKED, "count at MPI_Request_get_status");
    MPI_CHECK(MPI_Wait(&recvs[0], &status));
    check_count(&status, MPI_DOUBLE, PACKED, "count at MPI_Wait after it");
    check_packed(in, 13, PACKED, "MPI_Request_get_status");

    /* 11. MPI_Waitsome over a large and a small message. */
    fill_vector(out, 14);
    double small[4] = {1.5, 2.5, 3.5, 4.5 + rank}, small_in[4] = {0};
    clear(in, SPAN);
    MPI_CHECK(MPI_Irecv(in, 1, vec, prev, 14, MPI_COMM_WORLD, &recvs[0]));
    MPI_CHECK(MPI_Irecv(small_in, 4, MPI_DOUBLE, prev, 15, MPI_COMM_WORLD, &recvs[1]));
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 14, MPI_COMM_WORLD, &sends[0]));
    MPI_CHECK(MPI_Isend(small, 4, MPI_DOUBLE, next, 15, MPI_COMM_WORLD, &sends[1]));
    int completed = 0;
    while (completed < 2) {
        int outcount = 0, indices[2];
        MPI_Status statuses[2];
        MPI_CHECK(MPI_Waitsome(2, recvs, &outcount, indices, statuses));
        for (int k = 0; k < outcount; k++)
            if (indices[k] == 0)
                check_count(&statuses[k], vec, 1, "Waitsome's count");
        completed += outcount;
    }
    MPI_CHECK(MPI_Waitall(2, sends, statuses_ignore));
    check_vector(in, 14, "Waitsome");
    CHECK(small_in[3] == 4.5 + prev, "Waitsome", "small message");

    /* 12. A large message then a small one with the same tag arrive in order. */
    fill_vector(out, 16);
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 16, MPI_COMM_WORLD, &sends[0]));
    MPI_CHECK(MPI_Isend(small, 4, MPI_DOUBLE, next, 16, MPI_COMM_WORLD, &sends[1]));
    clear(in, SPAN);
    MPI_CHECK(MPI_Recv(in, SPAN, MPI_DOUBLE, prev, 16, MPI_COMM_WORLD, &status));
    check_count(&status, MPI_DOUBLE, PACKED, "first of two");
    MPI_CHECK(MPI_Recv(small_in, 4, MPI_DOUBLE, prev, 16, MPI_COMM_WORLD, &status));
    check_count(&status, MPI_DOUBLE, 4, "second of two");
    MPI_CHECK(MPI_Waitall(2, sends, statuses_ignore));
    check_packed(in, 16, PACKED, "first of two");

    /* 13. A message of exactly 1024 bytes that starts like a header is the program's. */
    unsigned char bytes[1024], bytes_in[2048];
    memset(bytes, rank, sizeof bytes);
    memcpy(bytes, "mpi-dtype\0ring\x01\x02", 16);
    MPI_CHECK(MPI_Sendrecv(bytes, 1024, MPI_BYTE, next, 17, bytes_in, 2048, MPI_BYTE, prev, 17,
                           MPI_COMM_WORLD, &status));
    check_count(&status, MPI_BYTE, 1024, "a header's size");
    CHECK(memcmp(bytes_in, "mpi-dtype\0ring\x01\x02", 16) == 0 && bytes_in[1023] == prev,
          "a header's size", "the program's bytes");

    /* 14. MPI_Probe: the message's count, then MPI_Recv of it; MPI_Iprobe until it is there,
     *     then MPI_Irecv of it. */
    fill_vector(out, 18);
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 18, MPI_COMM_WORLD, &sends[0]));
    MPI_CHECK(MPI_Probe(prev, 18, MPI_COMM_WORLD, &status));
    check_count(&status, vec, 1, "MPI_Probe's count");
    check_count(&status, MPI_DOUBLE, PACKED, "MPI_Probe's count of doubles");
    CHECK_INT(status.MPI_SOURCE, prev, "MPI_Probe's source");
    clear(in, SPAN);
    MPI_CHECK(MPI_Recv(in, 1, vec, prev, 18, MPI_COMM_WORLD, &status));
    check_count(&status, vec, 1, "Recv after MPI_Probe");
    check_vector(in, 18, "Recv after MPI_Probe");
    MPI_CHECK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));
    fill_vector(out, 19);
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 19, MPI_COMM_WORLD, &sends[0]));
    for (int there = 0; !there;)
        MPI_CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &there, &status));
    check_count(&status, MPI_DOUBLE, PACKED, "MPI_Iprobe's count");
    CHECK_INT(status.MPI_TAG, 19, "MPI_Iprobe's tag");
    clear(in, SPAN);
    MPI_CHECK(MPI_Irecv(in, SPAN, MPI_DOUBLE, MPI_ANY_SOURCE, 19, MPI_COMM_WORLD, &recvs[0]));
    MPI_CHECK(MPI_Wait(&recvs[0], &status));
    check_envelope(&status, MPI_DOUBLE, PACKED, 19, "Irecv after MPI_Iprobe");
    check_packed(in, 19, PACKED, "Irecv after MPI_Iprobe");
    MPI_CHECK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));

    /* 15. MPI_Mprobe and MPI_Mrecv; MPI_Improbe and MPI_Imrecv. */
    fill_vector(out, 20);
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 20, MPI_COMM_WORLD, &sends[0]));
    MPI_Message message;
    MPI_CHECK(MPI_Mprobe(prev, MPI_ANY_TAG, MPI_COMM_WORLD, &message, &status));
    check_count(&status, vec, 1, "MPI_Mprobe's count");
    CHECK_INT(status.MPI_TAG, 20, "MPI_Mprobe's tag");
    clear(in, SPAN);
    MPI_CHECK(MPI_Mrecv(in, 1, vec, &message, &status));
    check_envelope(&status, vec, 1, 20, "MPI_Mrecv");
    check_vector(in, 20, "MPI_Mrecv");
    MPI_CHECK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));
    fill_vector(out, 21);
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 21, MPI_COMM_WORLD, &sends[0]));
    for (int there = 0; !there;)
        MPI_CHECK(MPI_Improbe(prev, 21, MPI_COMM_WORLD, &there, &message, &status));
    check_count(&status, MPI_DOUBLE, PACKED, "MPI_Improbe's count");
    clear(in, SPAN);
    MPI_CHECK(MPI_Imrecv(in, SPAN, MPI_DOUBLE, &message, &recvs[0]));
    MPI_CHECK(MPI_Wait(&recvs[0], &status));
    check_envelope(&status, MPI_DOUBLE, PACKED, 21, "MPI_Imrecv");
    check_packed(in, 21, PACKED, "MPI_Imrecv");
    MPI_CHECK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));

    /* 16. MPI_Probe, then MPI_Mprobe of the message it saw; MPI_Iprobe, then MPI_Sendrecv and
     *     MPI_Sendrecv_replace that receive the messages probed. */
    fill_vector(out, 22);
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 22, MPI_COMM_WORLD, &sends[0]));
    MPI_CHECK(MPI_Probe(prev, 22, MPI_COMM_WORLD, &status));
    MPI_CHECK(MPI_Mprobe(prev, 22, MPI_COMM_WORLD, &message, &status));
    check_count(&status, vec, 1, "MPI_Mprobe after MPI_Probe");
    clear(in, SPAN);
    MPI_CHECK(MPI_Mrecv(in, 1, vec, &message, &status));
    CHECK_INT(status.MPI_TAG, 22, "MPI_Mrecv after MPI_Probe's tag");
    check_vector(in, 22, "MPI_Mrecv after MPI_Probe");
    MPI_CHECK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));
    fill_vector(out, 23);
    MPI_CHECK(MPI_Isend(out, 1, vec, next, 23, MPI_COMM_WORLD, &sends[0]));
    MPI_CHECK(MPI_Probe(prev, 23, MPI_COMM_WORLD, &status));
    clear(in2, SPAN);
    MPI_CHECK(MPI_Irecv(in2, 1, vec, prev, 24, MPI_COMM_WORLD, &recvs[1]));
    fill_vector(out2, 24);
    clear(in, SPAN);
    MPI_CHECK(MPI_Sendrecv(out2, 1, vec, next, 24, in, 1, vec, prev, 23, MPI_COMM_WORLD, &status));
    check_count(&status, vec, 1, "Sendrecv of a probed message");
    CHECK_INT(status.MPI_TAG, 23, "Sendrecv of a probed message: tag");
    check_vector(in, 23, "Sendrecv of a probed message");
    MPI_CHECK(MPI_Wait(&recvs[1], MPI_STATUS_IGNORE));
    check_vector(in2, 24, "what Sendrecv sent");
    MPI_CHECK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));
    fill_vector(out2, 25);
    MPI_CHECK(MPI_Isend(out2, 1, vec, next, 25, MPI_COMM_WORLD, &sends[1]));
    MPI_CHECK(MPI_Probe(prev, 25, MPI_COMM_WORLD, &status));
    clear(in2, SPAN);
    MPI_CHECK(MPI_Irecv(in2, 1, vec, prev, 26, MPI_COMM_WORLD, &recvs[1]));
    fill_vector_in_place(out, 26);
    MPI_CHECK(MPI_Sendrecv_replace(out, 1, vec, next, 26, prev, 25, MPI_COMM_WORLD, &status));
    CHECK_INT(status.MPI_TAG, 25, "Sendrecv_replace of a probed message: tag");
    check_vector(out, 25, "Sendrecv_replace of a probed message");
    MPI_CHECK(MPI_Wait(&recvs[1], MPI_STATUS_IGNORE));
    check_vector(in2, 26, "what Sendrecv_replace sent");
    MPI_CHECK(MPI_Wait(&sends[1], MPI_STATUS_IGNORE));

    /* 17. A probed message of the program's own of exactly 1024 bytes, like a header's start. */
    MPI_CHECK(MPI_Isend(bytes, 1024, MPI_BYTE, next, 28, MPI_COMM_WORLD, &sends[0]));
    MPI_CHECK(MPI_Probe(prev, 28, MPI_COMM_WORLD, &status));
    check_count(&status, MPI_BYTE, 1024, "MPI_Probe of 1024 bytes");
    memset(bytes_in, 0, sizeof bytes_in);
    MPI_CHECK(MPI_Recv(bytes_in, 2048, MPI_BYTE, prev, 28, MPI_COMM_WORLD, &status));
    check_count(&status, MPI_BYTE, 1024, "Recv of 1024 probed bytes");
    CHECK_INT(status.MPI_SOURCE, prev, "Recv of 1024 probed bytes: source");
    CHECK(memcmp(bytes_in, "mpi-dtype\0ring\x01\x02", 16) == 0 && bytes_in[1023] == prev,
          "Recv of 1024 probed bytes", "the program's bytes");
    MPI_CHECK(MPI_Wait(&sends[0], MPI_STATUS_IGNORE));

    return ring_finish();
}
