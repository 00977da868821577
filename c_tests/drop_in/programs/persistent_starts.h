/* What the programs of persistent collectives share (mpi4.c, persistent_collectives.c): one
 * start of a request over buffers of 48 ints, the check of what it received, and what a vector
 * of 3 pairs of ints 5 apart (ints 0, 1, 5, 6, 10 and 11 of its extent of 12) moves. Each
 * helper is static inline, so that a program that needs only some of them builds without
 * warnings. */
#ifndef DROP_IN_PERSISTENT_STARTS_H
#define DROP_IN_PERSISTENT_STARTS_H

#include "check_mpi.h"

/* Fills the send buffer of 48 ints with `first + i`, the receive buffer and the expected one
 * with -1, and runs one start of the persistent request `req`. */
static inline void one_start(MPI_Request *req, int *s, int first, int *r, int *w)
{
    int i;
    for (i = 0; i < 48; i++) {
        s[i] = first + i;
        r[i] = w[i] = -1;
    }
    MPI_CHECK(MPI_Start(req));
    MPI_CHECK(MPI_Wait(req, MPI_STATUS_IGNORE));
}

/* Checks the 48 ints received at start `start_no` of the persistent collective `name`. */
static inline void check_start(const int *r, const int *w, const char *name, const char *how,
                               int start_no)
{
    char what[160];
    snprintf(what, sizeof what, "%s: %s%s, start %d", g_prog, name, how, start_no + 1);
    CHECK_INTS(r, w, 48, what);
}

/* Whether int i of the vector's extent is one of its pairs. What the vector moves, written
 * into the expected buffer w: the data of a vector whose ints are first + i, as 6 ints from
 * w[at] (packed_pairs) or at their places from w[at] (placed_pairs); or 6 ints first,
 * first + 1, ... at the places of a vector from w[at] (ints_in_pairs). */
static inline int in_pair(int i) { return i % 5 < 2; }

static inline void packed_pairs(int *w, int at, int first)
{
    int i, n = 0;
    for (i = 0; i < 12; i++)
        if (in_pair(i))
            w[at + n++] = first + i;
}

static inline void placed_pairs(int *w, int at, int first)
{
    int i;
    for (i = 0; i < 12; i++)
        if (in_pair(i))
            w[at + i] = first + i;
}

static inline void ints_in_pairs(int *w, int at, int first)
{
    int i, n = 0;
    for (i = 0; i < 12; i++)
        if (in_pair(i))
            w[at + i] = first + n++;
}

#endif
