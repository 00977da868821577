/* node_local_isendrecv: MPI_Isendrecv and MPI_Isendrecv_replace receiving messages of a
 * derived type that a probe saw first, around a ring of 4 ranks.  Preloaded it runs with
 * MPI_DTYPE_TRANSPORT=shm: the messages go through the senders' rings in shared memory, the
 * probe reports their size and holds them, and each exchange receives the held message and
 * reports its status (source, tag, count) at MPI_Wait, while what it sends arrives whole.
 *
 * MPICH 4.0.2 crashes on MPI_Isendrecv of a derived type, and MPICH 5.0.2 and Intel MPI
 * 2021.19 report wrong tags and counts in its status: the program fails plainly over them.
 * Open MPI 4.1 and 5.0 have no MPI_Isendrecv (MPI 4.0).
 *
 * Fails plainly over: mpich4 mpich5 impi
 * Cannot run over: ompi4 ompi5
 * Preloaded with: MPI_DTYPE_TRANSPORT=shm
 */
#include "ring_messages.h"

int main(int argc, char **argv)
{
    int size;
    start(&argc, &argv, "node_local_isendrecv", &rank, &size);
    ring_start(size);
    MPI_Status status;
    MPI_Request send, exchange, received;

    for (int round = 0; round < 2; round++) {
        int tag = 10 * round;
        /* MPI_Isendrecv of a probed message, while the message it sends is received. */
        fill_vector(out2, tag + 1);
        MPI_CHECK(MPI_Isend(out2, 1, vec, next, tag + 1, MPI_COMM_WORLD, &send));
        MPI_CHECK(MPI_Probe(prev, tag + 1, MPI_COMM_WORLD, &status));
        check_count(&status, vec, 1, "MPI_Probe's count");
        fill_vector(out, tag + 2);
        clear(in, SPAN);
        clear(in2, SPAN);
        MPI_CHECK(MPI_Irecv(in2, 1, vec, prev, tag + 2, MPI_COMM_WORLD, &received));
        MPI_CHECK(MPI_Isendrecv(out, 1, vec, next, tag + 2, in, 1, vec, prev, tag + 1,
                                MPI_COMM_WORLD, &exchange));
        MPI_CHECK(MPI_Wait(&exchange, &status));
        check_envelope(&status, vec, 1, tag + 1, "MPI_Isendrecv of a probed message");
        check_vector(in, tag + 1, "MPI_Isendrecv of a probed message");
        MPI_CHECK(MPI_Wait(&received, MPI_STATUS_IGNORE));
        check_vector(in2, tag + 2, "what MPI_Isendrecv sent");
        MPI_CHECK(MPI_Wait(&send, MPI_STATUS_IGNORE));

        /* MPI_Isendrecv_replace of a probed message. */
        fill_vector(out2, tag + 3);
        MPI_CHECK(MPI_Isend(out2, 1, vec, next, tag + 3, MPI_COMM_WORLD, &send));
        MPI_CHECK(MPI_Probe(prev, tag + 3, MPI_COMM_WORLD, &status));
        clear(in2, SPAN);
        MPI_CHECK(MPI_Irecv(in2, 1, vec, prev, tag + 4, MPI_COMM_WORLD, &received));
        fill_vector_in_place(out, tag + 4);
        MPI_CHECK(MPI_Isendrecv_replace(out, 1, vec, next, tag + 4, prev, tag + 3, MPI_COMM_WORLD,
                                        &exchange));
        MPI_CHECK(MPI_Wait(&exchange, &status));
        check_envelope(&status, vec, 1, tag + 3, "MPI_Isendrecv_replace of a probed message");
        check_vector(out, tag + 3, "MPI_Isendrecv_replace of a probed message");
        MPI_CHECK(MPI_Wait(&received, MPI_STATUS_IGNORE));
        check_vector(in2, tag + 4, "what MPI_Isendrecv_replace sent");
        MPI_CHECK(MPI_Wait(&send, MPI_STATUS_IGNORE));
    }

    return ring_finish();
}
