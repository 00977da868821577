/* rewritten_send: what it costs to send a buffer the sender has just written, when the
 * receiver read the same buffer's bytes for the message before, as the engine's path does
 * with the buffer it packs into (src/dropin/comm/pool.rs).
 *
 *   mpicc.mpich -O2 -Wall -Wextra -Werror benches/rewritten_send.c -o rewritten_send
 *   mpiexec.mpich -n 2 ./rewritten_send
 *
 * Rank 0 sends BYTES contiguous bytes to rank 1, which answers with a zero-byte message once
 * they have arrived; each line is the fastest of 40 such messages, in microseconds, after an
 * MPI_Barrier each, for 16 to 128 KiB, with the buffer:
 *
 *   as is        sent unchanged each time;
 *   rewritten    written with memset just before each send (inside the timing);
 *   before       written with memset before the barrier (outside the timing);
 *   in turn      one of 16 buffers, each written just before its send, in turn.
 *
 * The last column is the memset of the buffer alone, repeated on its own. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TURN 16 /* buffers written in turn */
#define MESSAGES 40

enum how { AS_IS, REWRITTEN, BEFORE, IN_TURN };

static double one_way(char *buffers, size_t apart, int bytes, enum how how, int rank)
{
    double best = 1e30;
    char ack = 0;
    for (int i = 0; i < MESSAGES; i++) {
        char *buffer = buffers + (how == IN_TURN ? (size_t)(i % TURN) * apart : 0);
        double start, took;
        if (rank == 0 && how == BEFORE)
            memset(buffer, i, (size_t)bytes);
        MPI_Barrier(MPI_COMM_WORLD);
        start = MPI_Wtime();
        if (rank == 0) {
            if (how == REWRITTEN || how == IN_TURN)
                memset(buffer, i, (size_t)bytes);
            MPI_Send(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&ack, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&ack, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
        took = MPI_Wtime() - start;
        if (took < best)
            best = took;
    }
    return best;
}

int main(int argc, char **argv)
{
    const size_t apart = (128 << 10) + 4096;
    int rank;
    char *buffers;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    buffers = malloc(TURN * apart);
    if (!buffers)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(buffers, 1, TURN * apart);
    if (rank == 0)
        printf("bytes as_is rewritten before in_turn memset_alone (us)\n");
    for (int bytes = 16 << 10; bytes <= 128 << 10; bytes *= 2) {
        double t[4], alone = 1e30;
        one_way(buffers, apart, bytes, AS_IS, rank); /* warm-up */
        for (int how = AS_IS; how <= IN_TURN; how++)
            t[how] = one_way(buffers, apart, bytes, (enum how)how, rank);
        for (int i = 0; i < MESSAGES; i++) {
            double start = MPI_Wtime(), took;
            memset(buffers, i, (size_t)bytes);
            took = MPI_Wtime() - start;
            if (took < alone)
                alone = took;
        }
        if (rank == 0)
            printf("%d %.2f %.2f %.2f %.2f %.2f\n", bytes, t[0] * 1e6, t[1] * 1e6, t[2] * 1e6,
                   t[3] * 1e6, alone * 1e6);
    }
    free(buffers);
    MPI_Finalize();
    return 0;
}
