/* Messages of a vector of doubles around a ring of ranks, for the programs that send them
 * through mpi-dtype's rings in shared memory (node_local.c, node_local_isendrecv.c): the
 * vector, the values of each message, and the checks of what arrived. */
#ifndef DROP_IN_RING_MESSAGES_H
#define DROP_IN_RING_MESSAGES_H

#include "check_mpi.h"

#include <stdlib.h>

#define BLOCKS 2048             /* blocks of 2 doubles, 3 apart: 32 KiB packed */
#define PACKED (2 * BLOCKS)     /* doubles in a message */
#define SPAN (3 * BLOCKS)       /* doubles a copy of the vector spans */

static int rank, next, prev;
static MPI_Datatype vec;
/* Two buffers to send from and two to receive into, each a copy of the vector's span. */
static double *out, *out2, *in, *in2;
/* MPI_STATUSES_IGNORE, read at each use: gcc takes the constant for an array too short for
 * the statuses MPICH's prototype of MPI_Waitall declares. */
static MPI_Status *volatile statuses_ignore;

/* The value of packed element i of message `round` sent by `from`. */
static inline double value(int round, int from, int i)
{
    return round * 1.0e6 + from * 1.0e5 + i + 0.5;
}

/* The program's memory of a copy of the vector, filled for message `round` of this rank. */
static inline void fill_vector(double *memory, int round)
{
    for (int i = 0; i < SPAN; i++)
        memory[i] = -7.0;
    for (int i = 0; i < PACKED; i++)
        memory[3 * (i / 2) + i % 2] = value(round, rank, i);
}

/* Checks doubles received packed (contiguously) from prev for `round`. */
static inline void check_packed(const double *got, int round, int n, const char *what)
{
    double *want = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        want[i] = value(round, prev, i);
    CHECK_DOUBLES(got, want, n, what);
    free(want);
}

/* Checks a copy of the vector received from prev for `round`, gaps untouched (-3). */
static inline void check_vector(const double *got, int round, const char *what)
{
    double *want = malloc(sizeof(double) * SPAN);
    for (int i = 0; i < SPAN; i++)
        want[i] = -3.0;
    for (int i = 0; i < PACKED; i++)
        want[3 * (i / 2) + i % 2] = value(round, prev, i);
    CHECK_DOUBLES(got, want, SPAN, what);
    free(want);
}

static inline void clear(double *memory, int n)
{
    for (int i = 0; i < n; i++)
        memory[i] = -3.0;
}

static inline void check_count(const MPI_Status *status, MPI_Datatype type, int want,
                               const char *what)
{
    int count = -1;
    MPI_CHECK(MPI_Get_count(status, type, &count));
    CHECK_INT(count, want, what);
}

/* Checks the count of `status` in `type` and its envelope: from prev, with `tag`. */
static inline void check_envelope(const MPI_Status *status, MPI_Datatype type, int want, int tag,
                                  const char *what)
{
    check_count(status, type, want, what);
    CHECK_INT(status->MPI_SOURCE, prev, what);
    CHECK_INT(status->MPI_TAG, tag, what);
}

/* The ring, the vector and the buffers: call once after start(). */
static inline void ring_start(int size)
{
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    statuses_ignore = MPI_STATUSES_IGNORE;
    MPI_CHECK(MPI_Type_vector(BLOCKS, 2, 3, MPI_DOUBLE, &vec));
    MPI_CHECK(MPI_Type_commit(&vec));
    out = malloc(sizeof(double) * SPAN);
    out2 = malloc(sizeof(double) * SPAN);
    in = malloc(sizeof(double) * SPAN);
    in2 = malloc(sizeof(double) * SPAN);
}

/* Frees what ring_start() made, then finish(): the exit status. */
static inline int ring_finish(void)
{
    MPI_CHECK(MPI_Type_free(&vec));
    free(out);
    free(out2);
    free(in);
    free(in2);
    return finish();
}

/* The vector's memory for message `round` of this rank, its gaps -3 as a receive leaves them
 * (for MPI_Sendrecv_replace, which sends from and receives into one buffer). */
static inline void fill_vector_in_place(double *memory, int round)
{
    fill_vector(memory, round);
    for (int i = 0; i < SPAN; i++)
        if (memory[i] == -7.0)
            memory[i] = -3.0;
}

#endif
