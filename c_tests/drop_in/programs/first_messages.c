/* first_messages: a type's messages match in the order they were sent and land whole,
 * whatever path each one takes. (Under the preload, in `auto`, the first small message of a
 * type on each side may take another path than the ones after it.)
 *  - 40 rounds around the ring, each with new types: a vector of ints, an indexed block of
 *    doubles, a contiguous run of a resized struct of an int and a double, a resized vector of
 *    ints sent two items at a time; messages of 0.2 to 5.4 KB, and every fifth round of
 *    9 KB or more. Rank r sends three messages of each type to r+1 with one tag (MPI_Isend,
 *    MPI_Isend, MPI_Send), each with its own values, and receives three from r-1 (MPI_Irecv,
 *    MPI_Recv, and MPI_Irecv with MPI_ANY_SOURCE and MPI_ANY_TAG), the first after MPI_Probe.
 *    Every byte, and MPI_Get_count and MPI_Get_elements of each status, then the types are
 *    freed.
 *  - Crossed: with another new type, rank r receives first from r+1, then from r-1, and sends
 *    first to r+1, then to r-1, so that each process's first message of the type meets its
 *    partner's second receive of it, and its second message its partner's first receive.
 *  - Each round also makes a type, uses it in one MPI_Sendrecv to the process itself and
 *    frees it. */
#include "check_mpi.h"

#define ROUNDS 40
#define KINDS 4
#define MESSAGES 3
#define MOST_RUNS 8192
#define SENTINEL 0xEE

/* The type map of one message, written out: runs of bytes in type-map order. */
typedef struct {
    int runs;
    long off[MOST_RUNS];
    int len[MOST_RUNS];
    long span;     /* bytes of the buffer the message lies in */
    int count;     /* items sent */
    long elements; /* basic elements of the message */
} layout;

static void add_run(layout *m, long off, int len)
{
    if (m->runs > 0 && m->off[m->runs - 1] + m->len[m->runs - 1] == off) {
        m->len[m->runs - 1] += len;
        return;
    }
    if (m->runs == MOST_RUNS) {
        fprintf(stderr, "first_messages: too many runs\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    m->off[m->runs] = off;
    m->len[m->runs] = len;
    m->runs++;
    if (off + len > m->span)
        m->span = off + len;
}

/* A new type of `kind` whose messages hold about `n` items of data, and its layout. */
static MPI_Datatype make(int kind, int n, layout *m)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, inner;
    memset(m, 0, sizeof *m);
    m->count = 1;
    switch (kind) {
    case 0: /* n blocks of 2 ints, 3 ints apart */
        MPI_CHECK(MPI_Type_vector(n, 2, 3, MPI_INT, &t));
        for (int i = 0; i < n; i++)
            add_run(m, 12L * i, 8);
        m->elements = 2L * n;
        break;
    case 1: { /* n doubles at increasing, uneven places */
        int *places = malloc((size_t)n * sizeof *places);
        for (int i = 0; i < n; i++) {
            places[i] = 2 * i + (i % 3 == 0);
            add_run(m, 8L * places[i], 8);
        }
        MPI_CHECK(MPI_Type_create_indexed_block(n, 1, places, MPI_DOUBLE, &t));
        free(places);
        m->elements = n;
        break;
    }
    case 2: { /* n structs {int at 0; double at 8}, 16 bytes apart */
        int lengths[2] = {1, 1};
        MPI_Aint places[2] = {0, 8};
        MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, pair;
        MPI_CHECK(MPI_Type_create_struct(2, lengths, places, types, &pair));
        MPI_CHECK(MPI_Type_create_resized(pair, 0, 16, &inner));
        MPI_CHECK(MPI_Type_free(&pair));
        MPI_CHECK(MPI_Type_contiguous(n, inner, &t));
        MPI_CHECK(MPI_Type_free(&inner));
        for (int i = 0; i < n; i++) {
            add_run(m, 16L * i, 4);
            add_run(m, 16L * i + 8, 8);
        }
        m->elements = 2L * n;
        break;
    }
    default: { /* two items of a vector of n / 2 single ints 2 apart, resized to 4 ints */
        int half = n / 2;
        MPI_CHECK(MPI_Type_vector(half, 1, 2, MPI_INT, &inner));
        MPI_CHECK(MPI_Type_create_resized(inner, 0, 8L * half, &t));
        MPI_CHECK(MPI_Type_free(&inner));
        for (int item = 0; item < 2; item++)
            for (int i = 0; i < half; i++)
                add_run(m, 8L * half * item + 8L * i, 4);
        m->count = 2;
        m->elements = 2L * half;
        break;
    }
    }
    MPI_CHECK(MPI_Type_commit(&t));
    return t;
}

/* The byte at `off` of message `msg` of `sender` in round `round`, type `kind`. */
static unsigned char value(int sender, int round, int kind, int msg, long off)
{
    return (unsigned char)(sender * 53 + round * 7 + kind * 29 + msg * 101 + off * 3 + 1);
}

static void fill(unsigned char *buf, const layout *m, int sender, int round, int kind, int msg)
{
    for (long off = 0; off < m->span; off++)
        buf[off] = value(sender, round, kind, msg, off);
}

/* `k` send buffers holding this process's messages 0 .. k-1 of the type, and `k` receive
 * buffers of the sentinel. */
static void prepare(unsigned char **out, unsigned char **in, int k, const layout *m, int rank,
                    int round, int kind)
{
    for (int i = 0; i < k; i++) {
        out[i] = malloc((size_t)m->span);
        in[i] = malloc((size_t)m->span);
        fill(out[i], m, rank, round, kind, i);
        memset(in[i], SENTINEL, (size_t)m->span);
    }
}

/* What a receive buffer must hold: the sender's bytes on the type map, the sentinel elsewhere. */
static void expect(unsigned char *want, const layout *m, int sender, int round, int kind,
                   int msg)
{
    memset(want, SENTINEL, (size_t)m->span);
    for (int r = 0; r < m->runs; r++)
        for (long off = m->off[r]; off < m->off[r] + m->len[r]; off++)
            want[off] = value(sender, round, kind, msg, off);
}

static void check_status(MPI_Status *st, MPI_Datatype t, const layout *m, int source,
                         const char *what)
{
    int count = -1, elements = -1;
    MPI_CHECK(MPI_Get_count(st, t, &count));
    MPI_CHECK(MPI_Get_elements(st, t, &elements));
    CHECK_INT(count, m->count, what);
    CHECK_INT(elements, m->elements, what);
    CHECK_INT(st->MPI_SOURCE, source, what);
}

int main(int argc, char **argv)
{
    int rank, size;
    static layout maps[KINDS];
    MPI_Init(&argc, &argv);
    g_prog = "first_messages";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    g_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    /* the crossed messages go on a communicator of their own, so that the receive from any
     * source with any tag can only match the ring's third message */
    MPI_Comm crossing;
    MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &crossing));
    MPI_CHECK(MPI_Comm_set_errhandler(crossing, MPI_ERRORS_RETURN));

    for (int round = 0; round < ROUNDS; round++) {
        /* 0.2 to 5.4 KB of data, and every fifth round 9 KB or more */
        int n = 50 + (round * 97) % 400;
        if (round % 5 == 4)
            n = 2200 + 10 * round;
        for (int kind = 0; kind < KINDS; kind++) {
            layout *m = &maps[kind];
            MPI_Datatype t = make(kind, n, m);
            const int tag = 100 * round + kind;
            size_t span = (size_t)m->span;
            unsigned char *out[MESSAGES], *in[MESSAGES], *want = malloc(span);
            MPI_Request sends[2], recvs[2];
            MPI_Status st[MESSAGES], sent[2], probed;
            prepare(out, in, MESSAGES, m, rank, round, kind);
            MPI_CHECK(MPI_Isend(out[0], m->count, t, next, tag, MPI_COMM_WORLD, &sends[0]));
            MPI_CHECK(MPI_Isend(out[1], m->count, t, next, tag, MPI_COMM_WORLD, &sends[1]));
            MPI_CHECK(MPI_Probe(prev, tag, MPI_COMM_WORLD, &probed));
            check_status(&probed, t, m, prev, "MPI_Probe of the first message");
            MPI_CHECK(MPI_Irecv(in[0], m->count, t, prev, tag, MPI_COMM_WORLD, &recvs[0]));
            MPI_CHECK(MPI_Recv(in[1], m->count, t, prev, tag, MPI_COMM_WORLD, &st[1]));
            MPI_CHECK(MPI_Irecv(in[2], m->count, t, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                                &recvs[1]));
            MPI_CHECK(MPI_Send(out[2], m->count, t, next, tag, MPI_COMM_WORLD));
            MPI_CHECK(MPI_Wait(&recvs[0], &st[0]));
            MPI_CHECK(MPI_Wait(&recvs[1], &st[2]));
            MPI_CHECK(MPI_Waitall(2, sends, sent));
            for (int k = 0; k < MESSAGES; k++) {
                expect(want, m, prev, round, kind, k);
                CHECK_BYTES(in[k], want, span, "a message of a new type, in order");
                check_status(&st[k], t, m, prev, "the status of a message of a new type");
                CHECK_INT(st[k].MPI_TAG, tag, "the tag of a message of a new type");
                free(out[k]);
                free(in[k]);
            }
            MPI_CHECK(MPI_Type_free(&t));

            /* crossed: first receive from next, first send to next */
            t = make(kind, n, m);
            span = (size_t)m->span;
            prepare(out, in, 2, m, rank, round, kind);
            MPI_CHECK(MPI_Irecv(in[0], m->count, t, next, tag, crossing, &recvs[0]));
            MPI_CHECK(MPI_Irecv(in[1], m->count, t, prev, tag, crossing, &recvs[1]));
            MPI_CHECK(MPI_Isend(out[0], m->count, t, next, tag, crossing, &sends[0]));
            MPI_CHECK(MPI_Isend(out[1], m->count, t, prev, tag, crossing, &sends[1]));
            MPI_CHECK(MPI_Waitall(2, recvs, st));
            MPI_CHECK(MPI_Waitall(2, sends, sent));
            /* from next: its second message (to prev); from prev: its first (to next) */
            const int from[2] = {next, prev}, which[2] = {1, 0};
            for (int k = 0; k < 2; k++) {
                expect(want, m, from[k], round, kind, which[k]);
                CHECK_BYTES(in[k], want, span, "a crossed message of a new type");
                check_status(&st[k], t, m, from[k], "the status of a crossed message");
                free(out[k]);
                free(in[k]);
            }
            MPI_CHECK(MPI_Type_free(&t));

            /* a type made, used once with the process itself, and freed */
            t = make(kind, n / 2 + 1, m);
            span = (size_t)m->span;
            unsigned char *mine = malloc(span), *back = malloc(span), *again = malloc(span);
            fill(mine, m, rank, round, kind, 0);
            memset(back, SENTINEL, span);
            MPI_CHECK(MPI_Sendrecv(mine, m->count, t, 0, tag, back, m->count, t, 0, tag,
                                   MPI_COMM_SELF, &st[0]));
            MPI_CHECK(MPI_Type_free(&t));
            expect(again, m, rank, round, kind, 0);
            CHECK_BYTES(back, again, span, "a type used once with the process itself");
            free(mine);
            free(back);
            free(again);
            free(want);
        }
    }
    MPI_CHECK(MPI_Comm_free(&crossing));
    return finish();
}
