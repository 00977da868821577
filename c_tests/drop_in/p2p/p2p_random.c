/* p2p_random: point-to-point communication, MPI_Bcast and the collectives with a block per
 * rank (MPI_Alltoallv/w, MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv) of random derived
 * datatypes on 4 ranks, every byte and every status checked against the test's own model of
 * the type maps.
 *
 * usage: mpiexec -n 4 p2p_random [-t] SEED [SEED...]
 *   -t   MPI_Init_thread(MPI_THREAD_MULTIPLE) and, if provided, the threaded case
 *
 * For each seed, every rank builds the same pool of 6 random derived types (every
 * constructor, nested up to 3 levels, zero-length blocks, negative displacements and lower
 * bounds; p2p_model.h), each with receive types of the same type signature built otherwise,
 * then runs the cases below.  Every message is sent from each rank to every other rank and
 * received into a buffer with margins whose every byte is compared with what the message
 * must leave there (p2p_msg.h); every status is checked: MPI_SOURCE, MPI_TAG, MPI_Get_count
 * and MPI_Get_elements with the receive type and with MPI_BYTE (MPI_Get_elements with a
 * derived type only where MPICH 4.0.2 counts right: p2p_model.h).  Receive types are mixed per
 * message: the send type itself, another type of the same signature, the predefined type
 * (count x n) or a contiguous type for a signature of one primitive, a receive count larger
 * than the message, and a type holding several copies of the send type's signature (so that
 * MPI_Get_count may be MPI_UNDEFINED).  Some messages have count 0, some are big enough for
 * the MPI library's rendezvous protocol.
 *
 * Rank 0 prints the pool's types and one line per case ("seed S case C NAME: ok (N checks)");
 * a failed check prints a line on the rank that saw it.  At the end: "p2p_random: all N checks
 * passed" and exit 0, or "p2p_random: F of N checks FAILED" and exit 1.  The output of a
 * passing run depends only on the seeds, so a run over the plain MPI library and one with
 * mpi-dtype preloaded print the same lines. */
#include "../../large_counts.h"
#include "p2p_msg.h"
#include <ctype.h>
#include <pthread.h>

/* Built against an mpi.h without MPI 4.0's large-count functions (Open MPI's, MPI 3.1), whose
 * library lacks them, the collectives' _c forms are left out (large_counts.h declares them,
 * so the program still compiles). */
#define HAVE_LARGE_COUNTS (MPI_VERSION >= 4)

#if defined(OPEN_MPI) && defined(__GNUC__) && !defined(__clang__)
/* Open MPI's MPI_UNWEIGHTED is a small constant address, which gcc takes for an array of no
 * bytes that MPI_Dist_graph_create_adjacent would read. */
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

static MPI_Comm g_comm;
static int g_intel;   /* the MPI library is Intel MPI */
static int g_mpich40; /* the MPI library is MPICH 4.0 */
static int g_threads_requested, g_thread_level;
static long g_total_checks, g_total_fails;

/* ---------------------------------------------------------------- the pool */

/* LONG_MIXED_EVERY: every such seed makes its pool's type 0 long_mixed() instead of a random
 * one. */
#define LONG_MIXED_EVERY 5

/* A struct of every other double, a char, every other int, a short and every other double
 * again (200 of each), as a particle exchange's struct of properties: short runs in memory,
 * long runs of each primitive in the type signature, and primitives of different sizes, so
 * that packed, the ints and the second doubles start at odd offsets.  Sent in pieces cut at
 * any byte, such a stream cannot be received into the type by MPICH 4.0.2; mpi-dtype's engine
 * must give the MPI library its packed bytes with their signature. */
static node_t *long_mixed(void)
{
    enum { N = 200 };
    node_t *members[5];
    int lengths[5] = {1, 1, 1, 1, 1};
    long displs[5] = {0, 16 * N, 16 * N + 8, 16 * N + 8 + 8 * N, 16 * N + 16 + 8 * N};
    members[0] = mk_vector(N, 1, 16, 1, &g_leaves[P_DOUBLE], GEN_CAP);
    members[1] = &g_leaves[P_CHAR];
    members[2] = mk_vector(N, 1, 8, 1, &g_leaves[P_INT], GEN_CAP);
    members[3] = &g_leaves[P_SHORT];
    members[4] = members[0];
    return mk_struct(5, lengths, displs, members, GEN_CAP);
}

static void build_pool(void)
{
    int i;
    for (i = 0; i < NPOOL; i++) {
        rng_t r = rng_for(g_seed, 1000 + (uint64_t)i, 0, 0, 0);
        gen_t g;
        pool_t *p = &g_pool[i];
        int attempt = 0;
        g.r = &r;
        g.ovl = i == NPOOL - 1;
        g.only_prim = i == NPOOL - 2 ? rnd(&r, NPRIMS) : -1;
        /* types 0-4 must be receive buffers for any count: made again until they are
         * (a struct of members whose data go past their markers may not be) */
        if (i == 0 && g_seed % LONG_MIXED_EVERY == 0)
            p->t = long_mixed();
        else
            do
                p->t = gen_node(&g, 1);
            while (i < NPOOL - 1 && !receivable(p->t, 2) && ++attempt < 100);
        if (!receivable(p->t, 2) && i < NPOOL - 1)
            p->t = mk_contig(2, &g_leaves[g.only_prim >= 0 ? g.only_prim : P_INT], GEN_CAP);
        p->recv = receivable(p->t, 2);
        p->r = 2 + rnd(&r, 2);
        p->sig1 = mk_sig(p->t, 1, &r, 0);
        p->sigr = mk_sig(p->t, p->r, &r, rnd(&r, 2));
        p->hom = p->t->prim >= 0 ? mk_contig((int)p->t->ne, &g_leaves[p->t->prim], 1L << 24) : NULL;
        p->t->keep = p->sig1->keep = p->sigr->keep = 1;
        if (p->hom)
            p->hom->keep = 1;
    }
    /* the inner types are not needed any more: MPI keeps what the kept types use */
    free_nodes(0);
    for (i = 0; i < NPOOL; i++) {
        pool_t *p = &g_pool[i];
        MC(MPI_Type_commit(&p->t->h));
        MC(MPI_Type_commit(&p->sig1->h));
        MC(MPI_Type_commit(&p->sigr->h));
        if (p->hom)
            MC(MPI_Type_commit(&p->hom->h));
    }
}

static void print_pool(void)
{
    int i;
    if (g_rank != 0)
        return;
    for (i = 0; i < NPOOL; i++) {
        const node_t *t = g_pool[i].t;
        printf("seed %lu type %d: %.300s%s: size %ld, lb %ld, extent %ld, %ld entries%s%s\n", g_seed, i, t->desc,
               strlen(t->desc) > 300 ? "..." : "", t->size, t->lb, t->ext, t->ne,
               t->prim >= 0 ? ", one primitive" : "", g_pool[i].recv ? "" : ", overlapping (sent only)");
    }
    fflush(stdout);
}

/* ---------------------------------------------------------------- helpers of the cases */

/* partner of each rank in the 3 rounds of pairwise exchanges */
static const int g_match[3][4] = {{1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}};

#define READY_TAG 9001
#define CANCEL_TAG 9002

/* the 3 other ranks, in the order rank+1, rank+2, rank+3 */
static int peer(int i)
{
    return (g_rank + 1 + i) % 4;
}

static void *attach(const msg_t *m, int n)
{
    int i, size = 4096, s;
    void *buf;
    for (i = 0; i < n; i++) {
        MC(MPI_Pack_size((int)m[i].sp.sc, m[i].sp.st->h, g_comm, &s));
        size += s + MPI_BSEND_OVERHEAD;
    }
    buf = xmalloc((size_t)size);
    MC(MPI_Buffer_attach(buf, size));
    return buf;
}

static void detach(void *buf)
{
    void *b;
    int s;
    MC(MPI_Buffer_detach(&b, &s));
    if (b != buf) {
        fprintf(stderr, "p2p_random: MPI_Buffer_detach returned another buffer\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    free(b);
}

static int send_any(int kind, const msg_t *m, MPI_Comm comm)
{
    const spec_t *s = &m->sp;
    switch (kind) {
    case 0: return MPI_Send(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm);
    case 1: return MPI_Ssend(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm);
    case 2: return MPI_Rsend(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm);
    default: return MPI_Bsend(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm);
    }
}

static int isend_any(int kind, const msg_t *m, MPI_Comm comm, MPI_Request *req)
{
    const spec_t *s = &m->sp;
    switch (kind) {
    case 0: return MPI_Isend(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm, req);
    case 1: return MPI_Issend(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm, req);
    case 2: return MPI_Irsend(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm, req);
    default: return MPI_Ibsend(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm, req);
    }
}

static int send_init_any(int kind, const msg_t *m, MPI_Comm comm, MPI_Request *req)
{
    const spec_t *s = &m->sp;
    switch (kind) {
    case 0: return MPI_Send_init(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm, req);
    case 1: return MPI_Ssend_init(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm, req);
    case 2: return MPI_Rsend_init(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm, req);
    default: return MPI_Bsend_init(m->sbase, (int)s->sc, s->st->h, s->dst, s->tag, comm, req);
    }
}

static int irecv_msg(msg_t *m, MPI_Comm comm, MPI_Request *req)
{
    const spec_t *s = &m->sp;
    return MPI_Irecv(m->rbase, (int)s->rc, s->rt->h, s->src, s->tag, comm, req);
}

static int isend_msg(msg_t *m, MPI_Comm comm, MPI_Request *req)
{
    return isend_any(0, m, comm, req);
}

/* MPI_Waitall into a status array of our own (GCC warns about MPI_STATUSES_IGNORE) */
static int waitall(int n, MPI_Request *req)
{
    MPI_Status st[16];
    return MPI_Waitall(n, req, st);
}

static const char *const g_send_names[4] = {"MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend"};
static const char *const g_isend_names[4] = {"MPI_Isend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend"};
static const char *const g_init_names[4] = {"MPI_Send_init", "MPI_Ssend_init", "MPI_Rsend_init",
                                            "MPI_Bsend_init"};

#define PFLAGS (SP_LARGER | SP_PARTIAL | SP_BIG)

/* One MPI_Isend of a random message to each of the 3 other ranks */
static void isend_to_peers(ctx_t *c, msg_t out[3], MPI_Request sreq[3])
{
    int i;
    for (i = 0; i < 3; i++) {
        msg_init(&out[i], make_spec(c->cas, g_rank, peer(i), 0, PFLAGS), M_SEND);
        MC(isend_msg(&out[i], g_comm, &sreq[i]));
    }
}

/* Completes the sends of isend_to_peers and checks that their buffers are unchanged */
static void finish_isends(ctx_t *c, msg_t out[3], MPI_Request sreq[3])
{
    int i;
    MC(waitall(3, sreq));
    for (i = 0; i < 3; i++) {
        check_send(c, &out[i], "MPI_Isend");
        msg_free(&out[i]);
    }
}

/* The send mode of the message src -> dst in a case that mixes them: 0 standard,
 * 1 synchronous, 2 ready, 3 buffered.  A buffered message, and the message of
 * MPI_Sendrecv_replace, has a send type whose primitives are all of one size and at most
 * PACKED_BYTES (SP_PACKED): MPICH 4.0.2 (ch4:ucx) sends both as MPI_PACKED and, past about
 * 8 KB, fails to receive them into a type of primitives of different sizes with
 * MPI_ERR_TRUNCATE ("Message truncated": struct {double; int} x 1700 into a receive count of
 * 1702; 8880 bytes of complex, unsigned and char), the packed stream being cut in pieces
 * that end inside an element. */
static int buffered_kind(int cas, int src, int dst)
{
    return (int)(hash4(g_seed, (uint64_t)cas, (uint64_t)src, (uint64_t)dst) % 4);
}

/* ---------------------------------------------------------------- the cases */

/* the library's size and bounds of every type against the model: 3 checks a type */
static void case_types(ctx_t *c)
{
    int i, j;
    for (i = 0; i < NPOOL; i++) {
        node_t *ts[4] = {g_pool[i].t, g_pool[i].sig1, g_pool[i].sigr, g_pool[i].hom};
        for (j = 0; j < 4; j++) {
            MPI_Aint lb, ext;
            int size;
            if (!ts[j])
                continue;
            MC(MPI_Type_size(ts[j]->h, &size));
            MC(MPI_Type_get_extent(ts[j]->h, &lb, &ext));
            CK(c, size == ts[j]->size, "type %d.%d: MPI_Type_size %d, model %ld (%.200s)", i, j, size, ts[j]->size,
               ts[j]->desc);
            CK(c, lb == ts[j]->lb, "type %d.%d: lb %ld, model %ld (%.200s)", i, j, (long)lb, ts[j]->lb,
               ts[j]->desc);
            CK(c, ext == ts[j]->ext, "type %d.%d: extent %ld, model %ld (%.200s)", i, j, (long)ext, ts[j]->ext,
               ts[j]->desc);
        }
    }
}

/* blocking MPI_Send / MPI_Ssend / MPI_Rsend in 3 rounds of pairs; MPI_Rsend after a
 * handshake that tells the sender the receive is posted */
static void case_blocking(ctx_t *c, int kind)
{
    int round;
    for (round = 0; round < 3; round++) {
        int p = g_match[round][g_rank];
        msg_t out, in;
        MPI_Status st;
        MPI_Request req;
        msg_init(&out, make_spec(c->cas, g_rank, p, 0, PFLAGS), M_SEND);
        msg_init(&in, make_spec(c->cas, p, g_rank, 0, PFLAGS), M_RECV);
        if (kind == 2) {
            MC(MPI_Irecv(in.rbase, (int)in.sp.rc, in.sp.rt->h, p, in.sp.tag, g_comm, &req));
            MC(MPI_Sendrecv(NULL, 0, MPI_BYTE, p, READY_TAG, NULL, 0, MPI_BYTE, p, READY_TAG, g_comm,
                            MPI_STATUS_IGNORE));
            MC(send_any(kind, &out, g_comm));
            MC(MPI_Wait(&req, &st));
        } else if (g_rank < p) {
            MC(send_any(kind, &out, g_comm));
            MC(MPI_Recv(in.rbase, (int)in.sp.rc, in.sp.rt->h, p, in.sp.tag, g_comm, &st));
        } else {
            MC(MPI_Recv(in.rbase, (int)in.sp.rc, in.sp.rt->h, p, in.sp.tag, g_comm, &st));
            MC(send_any(kind, &out, g_comm));
        }
        check_recv(c, &in, &st, kind == 2 ? "MPI_Irecv/MPI_Wait" : "MPI_Recv");
        check_send(c, &out, g_send_names[kind]);
        msg_free(&out);
        msg_free(&in);
    }
}

/* MPI_Bsend to the 3 others from an attached buffer, then MPI_Recv from each */
static void case_bsend(ctx_t *c)
{
    msg_t out[3], in[3];
    int i;
    void *buf;
    for (i = 0; i < 3; i++)
        msg_init(&out[i], make_spec(c->cas, g_rank, peer(i), 0, PFLAGS | SP_PACKED), M_SEND);
    buf = attach(out, 3);
    for (i = 0; i < 3; i++)
        MC(send_any(3, &out[i], g_comm));
    for (i = 0; i < 3; i++) { /* the buffer is the library's copy: the program's may change */
        memset(out[i].sraw, 0xee, (size_t)out[i].slen);
        memset(out[i].scopy, 0xee, (size_t)out[i].slen);
    }
    for (i = 2; i >= 0; i--) {
        MPI_Status st;
        int src = (g_rank + 3 - i) % 4; /* from rank-1, rank-2, rank-3 */
        msg_init(&in[i], make_spec(c->cas, src, g_rank, 0, PFLAGS | SP_PACKED), M_RECV);
        MC(MPI_Recv(in[i].rbase, (int)in[i].sp.rc, in[i].sp.rt->h, src, in[i].sp.tag, g_comm, &st));
        check_recv(c, &in[i], &st, "MPI_Recv of MPI_Bsend");
    }
    detach(buf);
    for (i = 0; i < 3; i++) {
        msg_free(&out[i]);
        msg_free(&in[i]);
    }
}

/* MPI_Isend, MPI_Issend, MPI_Irsend and MPI_Ibsend mixed, every receive posted before (a
 * barrier), all completed with one MPI_Waitall */
static void case_isend_family(ctx_t *c)
{
    msg_t out[3], in[3];
    MPI_Request req[6];
    MPI_Status st[6];
    int i, kind[3];
    void *buf;
    for (i = 0; i < 3; i++) {
        int from = peer(i), from_kind = buffered_kind(c->cas, from, g_rank);
        kind[i] = buffered_kind(c->cas, g_rank, peer(i));
        msg_init(&in[i], make_spec(c->cas, from, g_rank, 0, PFLAGS | (from_kind == 3 ? SP_PACKED : 0)), M_RECV);
        MC(irecv_msg(&in[i], g_comm, &req[i]));
        msg_init(&out[i], make_spec(c->cas, g_rank, peer(i), 0, PFLAGS | (kind[i] == 3 ? SP_PACKED : 0)), M_SEND);
    }
    buf = attach(out, 3);
    MC(MPI_Barrier(g_comm));
    for (i = 0; i < 3; i++)
        MC(isend_any(kind[i], &out[i], g_comm, &req[3 + i]));
    MC(MPI_Waitall(6, req, st));
    for (i = 0; i < 3; i++) {
        check_recv(c, &in[i], &st[i], "MPI_Irecv/MPI_Waitall");
        check_send(c, &out[i], g_isend_names[kind[i]]);
        CK(c, req[i] == MPI_REQUEST_NULL && req[3 + i] == MPI_REQUEST_NULL,
           "MPI_Waitall left request %d or %d not MPI_REQUEST_NULL", i, 3 + i);
    }
    detach(buf);
    for (i = 0; i < 3; i++) {
        msg_free(&out[i]);
        msg_free(&in[i]);
    }
}

enum { CM_WAIT, CM_WAITANY, CM_WAITSOME, CM_TEST, CM_TESTALL, CM_TESTANY, CM_TESTSOME, CM_GETSTATUS };
static const char *const g_cm_names[] = {"MPI_Wait",    "MPI_Waitany", "MPI_Waitsome",
                                         "MPI_Test",    "MPI_Testall", "MPI_Testany",
                                         "MPI_Testsome", "MPI_Request_get_status"};

/* MPI_Irecv from the 3 others, MPI_Isend to them, the receives completed by one completion
 * function; each receive buffer is checked when its request is reported complete */
static void case_completion(ctx_t *c, int how)
{
    msg_t out[3], in[3];
    MPI_Request rreq[3], sreq[3];
    MPI_Status st[3], sst[3];
    int i, flag, idx, done = 0, cnt, ind[3];
    const char *name = g_cm_names[how];
    for (i = 0; i < 3; i++) {
        msg_init(&in[i], make_spec(c->cas, peer(i), g_rank, 0, PFLAGS), M_RECV);
        MC(irecv_msg(&in[i], g_comm, &rreq[i]));
    }
    isend_to_peers(c, out, sreq);
    switch (how) {
    case CM_WAIT:
        for (i = 0; i < 3; i++) {
            MC(MPI_Wait(&rreq[i], &st[i]));
            check_recv(c, &in[i], &st[i], name);
            CK(c, rreq[i] == MPI_REQUEST_NULL, "MPI_Wait left the request active");
        }
        break;
    case CM_WAITANY:
        for (done = 0; done < 3; done++) {
            MPI_Status s1;
            MC(MPI_Waitany(3, rreq, &idx, &s1));
            CK(c, idx >= 0 && idx < 3 && rreq[idx] == MPI_REQUEST_NULL, "MPI_Waitany returned index %d", idx);
            if (idx >= 0 && idx < 3)
                check_recv(c, &in[idx], &s1, name);
        }
        MC(MPI_Waitany(3, rreq, &idx, MPI_STATUS_IGNORE));
        CK(c, idx == MPI_UNDEFINED, "MPI_Waitany on 3 null requests returned index %d", idx);
        break;
    case CM_WAITSOME:
        while (done < 3) {
            MC(MPI_Waitsome(3, rreq, &cnt, ind, st));
            if (cnt == MPI_UNDEFINED || cnt < 1) {
                CK(c, 0, "MPI_Waitsome returned outcount %d with %d receives pending", cnt, 3 - done);
                break;
            }
            for (i = 0; i < cnt; i++) {
                CK(c, ind[i] >= 0 && ind[i] < 3 && rreq[ind[i]] == MPI_REQUEST_NULL, "MPI_Waitsome index %d",
                   ind[i]);
                if (ind[i] >= 0 && ind[i] < 3)
                    check_recv(c, &in[ind[i]], &st[i], name);
            }
            done += cnt;
        }
        break;
    case CM_TEST:
        for (i = 0; i < 3; i++) {
            do
                MC(MPI_Test(&rreq[i], &flag, &st[i]));
            while (!flag);
            check_recv(c, &in[i], &st[i], name);
            CK(c, rreq[i] == MPI_REQUEST_NULL, "MPI_Test left the request active");
        }
        break;
    case CM_TESTALL:
        do
            MC(MPI_Testall(3, rreq, &flag, st));
        while (!flag);
        for (i = 0; i < 3; i++) {
            check_recv(c, &in[i], &st[i], name);
            CK(c, rreq[i] == MPI_REQUEST_NULL, "MPI_Testall left a request active");
        }
        break;
    case CM_TESTANY:
        while (done < 3) {
            MPI_Status s1;
            MC(MPI_Testany(3, rreq, &idx, &flag, &s1));
            if (!flag)
                continue;
            CK(c, idx >= 0 && idx < 3 && rreq[idx] == MPI_REQUEST_NULL, "MPI_Testany returned index %d", idx);
            if (idx < 0 || idx >= 3)
                break;
            check_recv(c, &in[idx], &s1, name);
            done++;
        }
        MC(MPI_Testany(3, rreq, &idx, &flag, MPI_STATUS_IGNORE));
        CK(c, flag && idx == MPI_UNDEFINED, "MPI_Testany on 3 null requests: flag %d index %d", flag, idx);
        break;
    case CM_TESTSOME:
        while (done < 3) {
            MC(MPI_Testsome(3, rreq, &cnt, ind, st));
            if (cnt == MPI_UNDEFINED) {
                CK(c, 0, "MPI_Testsome returned MPI_UNDEFINED with %d receives pending", 3 - done);
                break;
            }
            for (i = 0; i < cnt; i++) {
                CK(c, ind[i] >= 0 && ind[i] < 3 && rreq[ind[i]] == MPI_REQUEST_NULL, "MPI_Testsome index %d",
                   ind[i]);
                if (ind[i] >= 0 && ind[i] < 3)
                    check_recv(c, &in[ind[i]], &st[i], name);
            }
            done += cnt;
        }
        break;
    default: /* CM_GETSTATUS: the data must be there when the request says it is complete */
        for (i = 0; i < 3; i++) {
            MPI_Status s2;
            do
                MC(MPI_Request_get_status(rreq[i], &flag, &st[i]));
            while (!flag);
            check_recv(c, &in[i], &st[i], name);
            CK(c, rreq[i] != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
            MC(MPI_Wait(&rreq[i], &s2));
            CK(c, s2.MPI_SOURCE == in[i].sp.src && s2.MPI_TAG == in[i].sp.tag,
               "MPI_Wait after MPI_Request_get_status: source %d tag %d", s2.MPI_SOURCE, s2.MPI_TAG);
            check_bytes(c, in[i].rraw, in[i].rexp, in[i].rlen, &in[i], "after MPI_Wait");
        }
        for (i = 0; i < 3; i++) {
            do
                MC(MPI_Request_get_status(sreq[i], &flag, MPI_STATUS_IGNORE));
            while (!flag);
        }
        break;
    }
    MC(MPI_Waitall(3, sreq, sst));
    for (i = 0; i < 3; i++) {
        check_send(c, &out[i], "MPI_Isend");
        msg_free(&out[i]);
        msg_free(&in[i]);
    }
}

/* persistent requests of the 4 send modes and MPI_Recv_init, started 3 times with new values
 * in the same buffers, with MPI_Startall and with MPI_Start */
static void case_persistent(ctx_t *c)
{
    msg_t out[3], in[3];
    MPI_Request rreq[3], sreq[3];
    MPI_Status st[3];
    int i, round, kind[3];
    void *buf;
    for (i = 0; i < 3; i++) {
        int from = peer(i), from_kind = buffered_kind(c->cas, from, g_rank);
        kind[i] = buffered_kind(c->cas, g_rank, peer(i));
        msg_init(&in[i], make_spec(c->cas, from, g_rank, 0, PFLAGS | (from_kind == 3 ? SP_PACKED : 0)), M_RECV);
        MC(MPI_Recv_init(in[i].rbase, (int)in[i].sp.rc, in[i].sp.rt->h, in[i].sp.src, in[i].sp.tag, g_comm,
                         &rreq[i]));
        msg_init(&out[i], make_spec(c->cas, g_rank, peer(i), 0, PFLAGS | (kind[i] == 3 ? SP_PACKED : 0)), M_SEND);
        MC(send_init_any(kind[i], &out[i], g_comm, &sreq[i]));
    }
    buf = attach(out, 3);
    for (round = 0; round < 3; round++) {
        for (i = 0; i < 3; i++) {
            msg_round(&in[i], round, M_RECV);
            msg_round(&out[i], round, M_SEND);
        }
        if (round % 2 == 0)
            MC(MPI_Startall(3, rreq));
        else
            for (i = 0; i < 3; i++)
                MC(MPI_Start(&rreq[i]));
        MC(MPI_Barrier(g_comm)); /* every receive is posted: MPI_Rsend_init may start */
        if (round % 2 == 0)
            MC(MPI_Startall(3, sreq));
        else
            for (i = 2; i >= 0; i--)
                MC(MPI_Start(&sreq[i]));
        MC(MPI_Waitall(3, rreq, st));
        MC(waitall(3, sreq));
        for (i = 0; i < 3; i++) {
            check_recv(c, &in[i], &st[i], round % 2 ? "MPI_Start of MPI_Recv_init" : "MPI_Startall of MPI_Recv_init");
            check_send(c, &out[i], g_init_names[kind[i]]);
            CK(c, rreq[i] != MPI_REQUEST_NULL && sreq[i] != MPI_REQUEST_NULL,
               "a persistent request became MPI_REQUEST_NULL");
        }
    }
    for (i = 0; i < 3; i++) {
        MC(MPI_Request_free(&rreq[i]));
        MC(MPI_Request_free(&sreq[i]));
    }
    detach(buf);
    for (i = 0; i < 3; i++) {
        msg_free(&out[i]);
        msg_free(&in[i]);
    }
}

/* MPI_Sendrecv around the ring at distances 1, 2, 3 (the last from MPI_ANY_SOURCE) */
static void case_sendrecv(ctx_t *c)
{
    int d;
    for (d = 1; d <= 3; d++) {
        int dst = (g_rank + d) % 4, src = (g_rank + 4 - d) % 4;
        msg_t out, in;
        MPI_Status st;
        msg_init(&out, make_spec(c->cas, g_rank, dst, d, PFLAGS), M_SEND);
        msg_init(&in, make_spec(c->cas, src, g_rank, d, PFLAGS), M_RECV);
        MC(MPI_Sendrecv(out.sbase, (int)out.sp.sc, out.sp.st->h, dst, out.sp.tag, in.rbase, (int)in.sp.rc,
                        in.sp.rt->h, d == 3 ? MPI_ANY_SOURCE : src, in.sp.tag, g_comm, &st));
        check_recv(c, &in, &st, "MPI_Sendrecv");
        check_send(c, &out, "MPI_Sendrecv");
        msg_free(&out);
        msg_free(&in);
    }
}

/* MPI_Sendrecv_replace around the ring: the buffer keeps its holes, its entries take the
 * message from the other side */
static void case_sendrecv_replace(ctx_t *c)
{
    int d;
    for (d = 1; d <= 3; d++) {
        int dst = (g_rank + d) % 4, src = (g_rank + 4 - d) % 4;
        msg_t out, in;
        MPI_Status st;
        long base = 0, j, k, pos = 0;
        spec_t so = make_spec(c->cas, g_rank, dst, d, SP_RECVSAME | SP_SHARED | SP_PACKED);
        spec_t si = make_spec(c->cas, src, g_rank, d, SP_RECVSAME | SP_SHARED | SP_PACKED);
        msg_init(&out, so, M_SEND);
        msg_init(&in, si, 0);
        /* what the buffer must hold: the send buffer with the received bytes at the entries */
        in.rlen = out.slen;
        in.rraw = out.sraw;
        in.rexp = (unsigned char *)xmalloc((size_t)out.slen);
        memcpy(in.rexp, out.sraw, (size_t)out.slen);
        base = out.sbase - out.sraw;
        for (k = 0; k < si.sc; k++)
            for (j = 0; j < si.st->ne; j++) {
                int sz = prims[si.st->e[j].p].size;
                memcpy(in.rexp + base + k * si.st->ext + si.st->e[j].disp, in.stream + pos, (size_t)sz);
                pos += sz;
            }
        MC(MPI_Sendrecv_replace(out.sbase, (int)so.sc, so.st->h, dst, so.tag, src, si.tag, g_comm, &st));
        check_recv(c, &in, &st, "MPI_Sendrecv_replace");
        in.rraw = NULL;
        msg_free(&out);
        msg_free(&in);
    }
}

/* MPI_Mprobe + MPI_Mrecv from each other rank in turn, then MPI_Improbe from MPI_ANY_SOURCE +
 * MPI_Imrecv; the probe's status is checked before the receive */
static void case_mprobe(ctx_t *c, int nonblocking)
{
    msg_t out[3], in[4];
    MPI_Request sreq[3];
    int i, seen[4] = {0, 0, 0, 0};
    isend_to_peers(c, out, sreq);
    for (i = 0; i < 3; i++) {
        MPI_Message mh;
        MPI_Status st, st2;
        MPI_Request req;
        int src, flag = 0, tag = c->cas * 100;
        if (!nonblocking) {
            src = peer(i);
            MC(MPI_Mprobe(src, tag, g_comm, &mh, &st));
        } else {
            do
                MC(MPI_Improbe(MPI_ANY_SOURCE, tag, g_comm, &flag, &mh, &st));
            while (!flag);
            src = st.MPI_SOURCE;
        }
        CK(c, src >= 0 && src < 4 && src != g_rank && !seen[src], "%s matched source %d twice or wrongly",
           nonblocking ? "MPI_Improbe" : "MPI_Mprobe", src);
        if (src < 0 || src >= 4 || src == g_rank || seen[src]) {
            MC(MPI_Mrecv(NULL, 0, MPI_BYTE, &mh, MPI_STATUS_IGNORE)); /* erroneous; ends the case */
            break;
        }
        seen[src] = 1;
        msg_init(&in[src], make_spec(c->cas, src, g_rank, 0, PFLAGS), M_RECV);
        check_probe(c, &in[src], &st, nonblocking ? "MPI_Improbe" : "MPI_Mprobe");
        if (!nonblocking) {
            MC(MPI_Mrecv(in[src].rbase, (int)in[src].sp.rc, in[src].sp.rt->h, &mh, &st2));
            CK(c, mh == MPI_MESSAGE_NULL, "MPI_Mrecv did not set the message to MPI_MESSAGE_NULL");
            check_recv(c, &in[src], &st2, "MPI_Mrecv");
        } else {
            MC(MPI_Imrecv(in[src].rbase, (int)in[src].sp.rc, in[src].sp.rt->h, &mh, &req));
            CK(c, mh == MPI_MESSAGE_NULL, "MPI_Imrecv did not set the message to MPI_MESSAGE_NULL");
            if (i == 1) {
                do
                    MC(MPI_Test(&req, &flag, &st2));
                while (!flag);
            } else {
                MC(MPI_Wait(&req, &st2));
            }
            check_recv(c, &in[src], &st2, i == 1 ? "MPI_Imrecv/MPI_Test" : "MPI_Imrecv/MPI_Wait");
        }
        msg_free(&in[src]);
    }
    finish_isends(c, out, sreq);
}

/* MPI_Probe from a named source, MPI_Iprobe from a named source with MPI_ANY_TAG, MPI_Probe
 * with MPI_ANY_SOURCE and MPI_ANY_TAG; each status checked, then MPI_Recv of the message */
static void case_probe(ctx_t *c)
{
    msg_t out[3], in;
    MPI_Request sreq[3];
    int i;
    isend_to_peers(c, out, sreq);
    for (i = 0; i < 3; i++) {
        MPI_Status st, st2;
        int src = peer(i), flag = 0;
        msg_init(&in, make_spec(c->cas, src, g_rank, 0, PFLAGS), M_RECV);
        if (i == 0) {
            MC(MPI_Probe(src, in.sp.tag, g_comm, &st));
            check_probe(c, &in, &st, "MPI_Probe");
        } else if (i == 1) {
            do
                MC(MPI_Iprobe(src, MPI_ANY_TAG, g_comm, &flag, &st));
            while (!flag);
            check_probe(c, &in, &st, "MPI_Iprobe");
        } else {
            MC(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, g_comm, &st));
            check_probe(c, &in, &st, "MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG)");
        }
        MC(MPI_Recv(in.rbase, (int)in.sp.rc, in.sp.rt->h, src, in.sp.tag, g_comm, &st2));
        check_recv(c, &in, &st2, "MPI_Recv after a probe");
        msg_free(&in);
    }
    finish_isends(c, out, sreq);
}

/* 3 messages from each rank to each other, tags A, B, B, all received with MPI_ANY_SOURCE
 * and MPI_ANY_TAG into one receive type: from each source they must come in the order sent
 * (the tags, and the values of the two with the same envelope) */
static void case_any_source(ctx_t *c)
{
    msg_t out[9], in;
    MPI_Request sreq[9];
    int i, k, next[4] = {0, 0, 0, 0};
    int tag_a = c->cas * 100 + 1, tag_b = c->cas * 100 + 2;
    spec_t base = make_spec(c->cas, 0, 0, 0, SP_SHARED | SP_LARGER | SP_PARTIAL | SP_BIG);
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++) {
            spec_t s = base;
            s.src = g_rank;
            s.dst = peer(i);
            s.k = k;
            s.tag = k == 0 ? tag_a : tag_b;
            msg_init(&out[3 * i + k], s, M_SEND);
            MC(isend_msg(&out[3 * i + k], g_comm, &sreq[3 * i + k]));
        }
    for (i = 0; i < 9; i++) {
        MPI_Status st;
        spec_t s = base;
        msg_t any;
        int src;
        /* the receive buffer's sentinels depend on the receiver only: post the receive with a
         * buffer made for any source, compare once the status names it */
        s.src = peer(0);
        s.dst = g_rank;
        msg_init(&any, s, M_RECV);
        MC(MPI_Recv(any.rbase, (int)base.rc, base.rt->h, MPI_ANY_SOURCE, MPI_ANY_TAG, g_comm, &st));
        src = st.MPI_SOURCE;
        CK(c, src >= 0 && src < 4 && src != g_rank && next[src] < 3, "MPI_ANY_SOURCE receive from source %d", src);
        if (src < 0 || src >= 4 || src == g_rank || next[src] >= 3) {
            msg_free(&any);
            continue;
        }
        s.src = src;
        s.k = next[src]++;
        s.tag = s.k == 0 ? tag_a : tag_b;
        msg_init(&in, s, M_RECV);
        memcpy(in.rraw, any.rraw, (size_t)in.rlen);
        msg_free(&any);
        check_recv(c, &in, &st, s.k == 0 ? "MPI_ANY_SOURCE/MPI_ANY_TAG, first from its source"
                                         : "MPI_ANY_SOURCE/MPI_ANY_TAG, same envelope in order");
        msg_free(&in);
    }
    MC(waitall(9, sreq));
    for (i = 0; i < 9; i++) {
        check_send(c, &out[i], "MPI_Isend");
        msg_free(&out[i]);
    }
}

/* receive counts too small: MPI_ERR_TRUNCATE from MPI_Recv, and MPI_ERR_IN_STATUS from
 * MPI_Waitall with MPI_ERR_TRUNCATE in the truncated receive's status and MPI_SUCCESS in the
 * other's; each buffer holds what it held or the message's bytes that fit there */
static void case_truncate(ctx_t *c)
{
    int next = (g_rank + 1) % 4, prev = (g_rank + 3) % 4, opp = (g_rank + 2) % 4, rc;
    msg_t ox, oy, oz, ix, iy, iz;
    MPI_Request rreq[2], sreq[3];
    MPI_Status st[2], s1;
    msg_init(&ox, make_spec(c->cas, g_rank, next, 0, SP_TRUNC), M_SEND);
    msg_init(&oy, make_spec(c->cas, g_rank, next, 1, PFLAGS), M_SEND);
    msg_init(&oz, make_spec(c->cas, g_rank, opp, 2, SP_TRUNC), M_SEND);
    msg_init(&ix, make_spec(c->cas, prev, g_rank, 0, SP_TRUNC), M_RECV);
    msg_init(&iy, make_spec(c->cas, prev, g_rank, 1, PFLAGS), M_RECV);
    msg_init(&iz, make_spec(c->cas, opp, g_rank, 2, SP_TRUNC), M_RECV);
    MC(irecv_msg(&ix, g_comm, &rreq[0]));
    MC(irecv_msg(&iy, g_comm, &rreq[1]));
    MC(isend_msg(&ox, g_comm, &sreq[0]));
    MC(isend_msg(&oy, g_comm, &sreq[1]));
    MC(isend_msg(&oz, g_comm, &sreq[2]));
    st[0].MPI_ERROR = st[1].MPI_ERROR = -12345;
    rc = MPI_Waitall(2, rreq, st);
    CK(c, err_class(rc) == MPI_ERR_IN_STATUS, "MPI_Waitall with a truncated receive returned class %d, want MPI_ERR_IN_STATUS (%d)",
       err_class(rc), MPI_ERR_IN_STATUS);
    CK(c, err_class(st[0].MPI_ERROR) == MPI_ERR_TRUNCATE, "truncated receive: status MPI_ERROR class %d, want MPI_ERR_TRUNCATE (%d)",
       err_class(st[0].MPI_ERROR), MPI_ERR_TRUNCATE);
    /* "MPI_SUCCESS if the specific communication completed ... or it can be MPI_ERR_PENDING if
     * it has neither failed nor completed" (MPICH 4.0.2 stops at the failed request) */
    CK(c, st[1].MPI_ERROR == MPI_SUCCESS || st[1].MPI_ERROR == MPI_ERR_PENDING,
       "the other receive of the MPI_Waitall: status MPI_ERROR %d, want MPI_SUCCESS or MPI_ERR_PENDING",
       st[1].MPI_ERROR);
    if (st[1].MPI_ERROR == MPI_ERR_PENDING)
        MC(MPI_Wait(&rreq[1], &st[1]));
    check_truncated(c, &ix, "truncated MPI_Irecv");
    check_recv(c, &iy, &st[1], "MPI_Waitall beside a truncated receive");
    rc = MPI_Recv(iz.rbase, (int)iz.sp.rc, iz.sp.rt->h, opp, iz.sp.tag, g_comm, &s1);
    CK(c, err_class(rc) == MPI_ERR_TRUNCATE, "truncated MPI_Recv returned class %d, want MPI_ERR_TRUNCATE (%d)",
       err_class(rc), MPI_ERR_TRUNCATE);
    check_truncated(c, &iz, "truncated MPI_Recv");
    rc = waitall(3, sreq);
    CK(c, rc == MPI_SUCCESS, "MPI_Waitall of the sends of truncated messages returned class %d", err_class(rc));
    check_send(c, &ox, "MPI_Isend");
    check_send(c, &oy, "MPI_Isend");
    check_send(c, &oz, "MPI_Isend");
    msg_free(&ox);
    msg_free(&oy);
    msg_free(&oz);
    msg_free(&ix);
    msg_free(&iy);
    msg_free(&iz);
}

/* MPI_Cancel of receives that no message matches (a named source, and MPI_ANY_SOURCE):
 * MPI_Test_cancelled is true, the buffers are untouched; then a message on the same
 * envelope goes to a new receive, not to the cancelled one */
static void case_cancel(ctx_t *c)
{
    msg_t a, b, out, in;
    MPI_Request ra, rb, sreq;
    MPI_Status st;
    int flag, next = (g_rank + 1) % 4, prev = (g_rank + 3) % 4;
    unsigned char *a0, *b0;
    spec_t sa = make_spec(c->cas, next, g_rank, 0, PFLAGS), sb = make_spec(c->cas, prev, g_rank, 1, PFLAGS);
    sa.tag = CANCEL_TAG;
    sb.tag = CANCEL_TAG + 1;
    msg_init(&a, sa, M_RECV);
    msg_init(&b, sb, M_RECV);
    a0 = (unsigned char *)xmalloc((size_t)a.rlen); /* the sentinels before the receive */
    b0 = (unsigned char *)xmalloc((size_t)b.rlen);
    memcpy(a0, a.rraw, (size_t)a.rlen);
    memcpy(b0, b.rraw, (size_t)b.rlen);
    MC(MPI_Irecv(a.rbase, (int)sa.rc, sa.rt->h, next, CANCEL_TAG, g_comm, &ra));
    MC(MPI_Irecv(b.rbase, (int)sb.rc, sb.rt->h, MPI_ANY_SOURCE, CANCEL_TAG + 1, g_comm, &rb));
    MC(MPI_Cancel(&ra));
    MC(MPI_Cancel(&rb));
    MC(MPI_Wait(&ra, &st));
    MC(MPI_Test_cancelled(&st, &flag));
    CK(c, flag, "MPI_Test_cancelled false for a cancelled MPI_Irecv from rank %d", next);
    do
        MC(MPI_Test(&rb, &flag, &st));
    while (!flag);
    MC(MPI_Test_cancelled(&st, &flag));
    CK(c, flag, "MPI_Test_cancelled false for a cancelled MPI_Irecv from MPI_ANY_SOURCE");
    CK(c, ra == MPI_REQUEST_NULL && rb == MPI_REQUEST_NULL, "cancelled requests not freed by completion");
    MC(MPI_Barrier(g_comm)); /* every rank has cancelled */
    /* now a message with the envelope of the first cancelled receive */
    {
        spec_t so = make_spec(c->cas, g_rank, prev, 0, PFLAGS), si = sa;
        so.tag = CANCEL_TAG;
        msg_init(&out, so, M_SEND);
        msg_init(&in, si, M_RECV);
        MC(isend_msg(&out, g_comm, &sreq));
        MC(MPI_Recv(in.rbase, (int)si.rc, si.rt->h, next, CANCEL_TAG, g_comm, &st));
        MC(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        check_recv(c, &in, &st, "MPI_Recv after a cancelled MPI_Irecv of the same envelope");
        check_send(c, &out, "MPI_Isend");
    }
    check_bytes(c, a.rraw, a0, a.rlen, &a, "buffer of the cancelled MPI_Irecv from a named source");
    check_bytes(c, b.rraw, b0, b.rlen, &b, "buffer of the cancelled MPI_Irecv from MPI_ANY_SOURCE");
    free(a0);
    free(b0);
    msg_free(&a);
    msg_free(&b);
    msg_free(&out);
    msg_free(&in);
}

/* MPI_Request_free of each MPI_Isend right after starting it; the receivers check the data,
 * and after a barrier the send buffers are checked and freed */
static void case_request_free(ctx_t *c)
{
    msg_t out[3], in;
    MPI_Request sreq[3];
    int i;
    for (i = 0; i < 3; i++) {
        msg_init(&out[i], make_spec(c->cas, g_rank, peer(i), 0, PFLAGS), M_SEND);
        MC(isend_msg(&out[i], g_comm, &sreq[i]));
        MC(MPI_Request_free(&sreq[i]));
        CK(c, sreq[i] == MPI_REQUEST_NULL, "MPI_Request_free did not set MPI_REQUEST_NULL");
    }
    for (i = 2; i >= 0; i--) {
        MPI_Status st;
        int src = (g_rank + 3 - i) % 4;
        msg_init(&in, make_spec(c->cas, src, g_rank, 0, PFLAGS), M_RECV);
        MC(MPI_Recv(in.rbase, (int)in.sp.rc, in.sp.rt->h, src, in.sp.tag, g_comm, &st));
        check_recv(c, &in, &st, "MPI_Recv of a freed MPI_Isend");
        msg_free(&in);
    }
    MC(MPI_Barrier(g_comm));
    for (i = 0; i < 3; i++) {
        check_send(c, &out[i], "MPI_Isend freed with MPI_Request_free");
        msg_free(&out[i]);
    }
}

/* ---------------------------------------------------------------- collectives of a block per rank */

/* The most blocks a side of a collective has (a neighbourhood collective's: 3 edges out of
 * each of 4 ranks) */
#define MAX_BLOCKS 12

/* One side of a collective with a block per partner, in one buffer: the blocks of the
 * messages m[0..n-1] (to or from partner i) placed one after another, block i at displ[i]
 * units of `unit` bytes, with a pattern in the gaps and margins.  On the send side the blocks
 * hold the messages' send data; on the receive side the sentinels of their receive buffers,
 * and `copy` what the whole buffer must hold after the call. */
typedef struct {
    unsigned char *raw, *copy; /* copy: the send side's bytes, or the receive side's expected */
    unsigned char *buf;        /* the buffer the call takes: raw + origin */
    long len, unit, origin;
    long displ[MAX_BLOCKS];
} arena_t;

/* arena_init's unit for the collectives of one count and one type a side: block i at
 * i * count extents from the buffer, as MPI_Alltoall and its kin place them */
#define ARENA_REGULAR (-1)

/* the least d with d * unit >= at (unit > 0) */
static long ceil_units(long at, long unit)
{
    return at >= 0 ? (at + unit - 1) / unit : -((-at) / unit);
}

/* Places the n blocks of m (role M_SEND: their send types and counts; M_RECV: their receive
 * types and counts) in a new arena; `unit` 0 counts displacements in extents of the types
 * (which are then one type), ARENA_REGULAR places them as the collectives of one count do
 * (one type and count), else displacements count in bytes.  The blocks of the bits of
 * `untouched` (from MPI_PROC_NULL) must keep their sentinels. */
static void arena_init(arena_t *a, const msg_t *m, int n, int role, long unit, unsigned untouched)
{
    long cursor = 0, i;
    memset(a, 0, sizeof *a);
    if (unit == ARENA_REGULAR && n > 0) {
        const node_t *t = role == M_SEND ? m[0].sp.st : m[0].sp.rt;
        long count = role == M_SEND ? m[0].sp.sc : m[0].sp.rc;
        a->unit = t->ext;
        a->origin = t->tlb < MARGIN ? MARGIN - t->tlb : 0;
        for (i = 0; i < n; i++)
            a->displ[i] = i * count;
        cursor = count ? a->origin + (n * count - 1) * t->ext + t->tub : a->origin;
    }
    for (i = 0; i < n && unit != ARENA_REGULAR; i++) {
        const node_t *t = role == M_SEND ? m[i].sp.st : m[i].sp.rt;
        long count = role == M_SEND ? m[i].sp.sc : m[i].sp.rc;
        a->unit = unit ? unit : t->ext;
        if (count == 0)
            continue;
        a->displ[i] = ceil_units(cursor + MARGIN - t->tlb, a->unit);
        cursor = a->displ[i] * a->unit + (count - 1) * t->ext + t->tub;
    }
    a->len = cursor + MARGIN;
    a->raw = (unsigned char *)xmalloc((size_t)a->len);
    a->copy = (unsigned char *)xmalloc((size_t)a->len);
    a->buf = a->raw + a->origin;
    for (i = 0; i < a->len; i++)
        a->raw[i] = (unsigned char)(0x3c ^ (i * 7) ^ (g_rank << 3));
    memcpy(a->copy, a->raw, (size_t)a->len);
    for (i = 0; i < n; i++) {
        const node_t *t = role == M_SEND ? m[i].sp.st : m[i].sp.rt;
        long count = role == M_SEND ? m[i].sp.sc : m[i].sp.rc;
        long len = role == M_SEND ? m[i].slen : m[i].rlen, at = a->origin + a->displ[i] * a->unit + t->tlb;
        if (count == 0)
            continue;
        /* the block's bytes are those of the message's own buffer between its margins */
        if (role == M_SEND) {
            memcpy(a->raw + at, m[i].sraw + MARGIN, (size_t)(len - 2 * MARGIN));
            memcpy(a->copy + at, m[i].sraw + MARGIN, (size_t)(len - 2 * MARGIN));
        } else {
            memcpy(a->raw + at, m[i].rraw + MARGIN, (size_t)(len - 2 * MARGIN));
            memcpy(a->copy + at, (untouched >> i & 1 ? m[i].rraw : m[i].rexp) + MARGIN, (size_t)(len - 2 * MARGIN));
        }
    }
}

static void arena_free(arena_t *a)
{
    free(a->raw);
    free(a->copy);
}

/* The messages of the collectives are small (at most 4 copies of a type): MPICH 4.0.2
 * (ch4:ucx) fails MPI_Alltoallv with MPI_ERR_TRUNCATE on a single 70 KB message of an
 * hindexed type of ints and floats, and on 11880 bytes of a struct of shorts and doubles
 * (the stream cut into pieces that end inside an element, as for MPI_PACKED in
 * buffered_kind above).  The longest message between types whose primitives differ in
 * size: */
#define MIXED_COLLECTIVE_BYTES 4000

/* The count of a collective's message of `count` copies of t, cut to MIXED_COLLECTIVE_BYTES
 * where the primitives of t differ in size. */
static long collective_count(const node_t *t, long count)
{
    if (t->esize < 0 && count * t->size > MIXED_COLLECTIVE_BYTES)
        return MIXED_COLLECTIVE_BYTES / t->size;
    return count;
}

/* How the messages of a collective call vary (vspec): */
enum {
    VS_PAIR,       /* a count per pair of ranks (MPI_Alltoallv, MPI_Scatterv) */
    VS_SENDER,     /* a count per sender (MPI_Gatherv, whose receiver is the root) */
    VS_SENDER_ALL, /* a count per sender, the same data for every receiver (MPI_Allgatherv) */
    VS_CALL,       /* one count (MPI_Alltoall, MPI_Gather, MPI_Scatter) */
    VS_CALL_ALL    /* one count, the same data for every receiver (MPI_Allgather) */
};

/* The message src -> dst of a collective whose sides each take one type for all blocks: the
 * pool type is shared by (case, k); the send type (the type or another of its signature) is
 * the sender's, the receive type the receiver's; the count as `how` says. */
static spec_t vspec(int cas, int k, int src, int dst, int how)
{
    spec_t s = make_spec(cas, src, dst, k, SP_EXACT);
    rng_t shared = rng_for(g_seed, (uint64_t)cas, 77, 77, (uint64_t)k);
    rng_t sender = rng_for(g_seed, (uint64_t)cas, (uint64_t)src, 88, (uint64_t)k);
    rng_t receiver = rng_for(g_seed, (uint64_t)cas, 88, (uint64_t)dst, (uint64_t)k);
    rng_t pair = how >= VS_CALL     ? rng_for(g_seed, (uint64_t)cas, 77, 66, (uint64_t)k)
                 : how == VS_PAIR ? rng_for(g_seed, (uint64_t)cas, (uint64_t)src, (uint64_t)dst, (uint64_t)k)
                                  : rng_for(g_seed, (uint64_t)cas, (uint64_t)src, 99, (uint64_t)k);
    pool_t *p;
    int v;
    s.ti = rnd(&shared, NPOOL);
    p = &g_pool[s.ti];
    s.st = rnd(&sender, 2) ? p->sig1 : p->t;
    s.sc = rnd(&pair, 8) == 0 ? 0 : 1 + rnd(&pair, 4);
    s.sc = collective_count(s.st, s.sc);
    if (how == VS_SENDER_ALL || how == VS_CALL_ALL)
        s.dst = -1; /* the data of one block sent to all */
    v = rnd(&receiver, 4);
    if (v == 0 && !p->recv)
        v = 1;
    if (v >= 2 && !p->hom)
        v = 1;
    s.rc = s.sc;
    switch (v) {
    case 0: s.rt = p->t; strcpy(s.rv, "same"); break;
    case 1: s.rt = p->sig1; strcpy(s.rv, "signature"); break;
    case 2:
        s.rt = &g_leaves[p->t->prim];
        s.rc = s.sc * p->t->ne;
        strcpy(s.rv, "predefined");
        break;
    default: s.rt = p->hom; strcpy(s.rv, "contiguous"); break;
    }
    return s;
}

/* The n messages of one rank's side: to each of the partners `peers` (role M_SEND) or from
 * each (M_RECV), or to or from ranks 0 to 3 where `peers` is NULL, with a type of their own
 * (`wtypes`: MPI_Alltoallw) or as `how` says (vspec). */
static void side_msgs(msg_t *m, int n, const int *peers, int cas, int k, int role, int wtypes, int how)
{
    int i;
    for (i = 0; i < n; i++) {
        int peer = peers ? peers[i] : i;
        int src = role == M_SEND ? g_rank : peer, dst = role == M_SEND ? peer : g_rank;
        spec_t s = wtypes ? make_spec(cas, src, dst, k, SP_EXACT) : vspec(cas, k, src, dst, how);
        if (wtypes && collective_count(s.st, s.sc) != s.sc) {
            s.rc = s.rc / s.sc * collective_count(s.st, s.sc);
            s.sc = collective_count(s.st, s.sc);
        }
        msg_init(&m[i], s, role);
    }
}

static void free_msgs(msg_t *m, int n)
{
    int i;
    for (i = 0; i < n; i++)
        msg_free(&m[i]);
}

/* The checks after a collective: the receive side's whole buffer (if this rank received) and
 * the send side's unchanged (if it sent). */
static void check_arenas(ctx_t *c, const arena_t *in, const msg_t *rm, const arena_t *out, const msg_t *sm,
                         const char *what)
{
    if (in)
        check_bytes(c, in->raw, in->copy, in->len, rm, what);
    if (out) {
        char d[200];
        CK(c, memcmp(out->raw, out->copy, (size_t)out->len) == 0, "%s: %s changed its send buffer",
           mdesc(sm, d, sizeof d), what);
    }
}

/* The forms of a collective call k of a case (8 calls): k odd the _c form, k / 2 odd the
 * nonblocking form (completed by MPI_Wait, or by an MPI_Test loop for k 6 and 7) */
#define LARGE(k) ((k) % 2)
#define NONBLOCKING(k) ((k) / 2 % 2)
/* True if call k is a form this build leaves out */
#define LEFT_OUT(k) (LARGE(k) && !HAVE_LARGE_COUNTS)

/* The name of the form of call k of `name` (e.g. "MPI_Ialltoallv_c") */
static const char *form_name(char *buf, size_t n, const char *name, int k)
{
    if (NONBLOCKING(k))
        snprintf(buf, n, "MPI_I%c%s%s", tolower((unsigned char)name[4]), name + 5, LARGE(k) ? "_c" : "");
    else
        snprintf(buf, n, "%s%s", name, LARGE(k) ? "_c" : "");
    return buf;
}

/* Completes the request of nonblocking call k; MPI_REQUEST_NULL after */
static void complete_collective(ctx_t *c, MPI_Request *req, int k, const char *name)
{
    int flag = 0;
    if (k < 6)
        MC(MPI_Wait(req, MPI_STATUS_IGNORE));
    else
        while (!flag)
            MC(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
    CK(c, *req == MPI_REQUEST_NULL, "%s: the completed request is not MPI_REQUEST_NULL", name);
}

/* The three alltoalls (case_alltoall) */
enum { A_V, A_REGULAR, A_W };

/* MPI_Alltoallv (A_V), MPI_Alltoall (A_REGULAR) or MPI_Alltoallw (A_W) in its 4 forms: a
 * block to each rank; of its own count, one send type and one receive type a rank, at
 * displacements in extents (v); of one count, one after another (regular); of its own type
 * and count, at byte displacements from the buffer, or for the _c form as addresses from
 * MPI_BOTTOM (w) */
static void case_alltoall(ctx_t *c, int kind)
{
    static const char *const names[3] = {"MPI_Alltoallv", "MPI_Alltoall", "MPI_Alltoallw"};
    int k, i;
    for (k = 0; k < 8; k++) {
        if (LEFT_OUT(k))
            continue;
        msg_t out[4], in[4];
        arena_t a, b;
        int sc[4], sd[4], rc[4], rd[4];
        MPI_Count scc[4], rcc[4];
        MPI_Aint sdc[4], rdc[4];
        MPI_Datatype st[4], rt[4];
        MPI_Request req = MPI_REQUEST_NULL;
        int how = kind == A_REGULAR ? VS_CALL : VS_PAIR;
        long unit = kind == A_W ? 1 : kind == A_REGULAR ? ARENA_REGULAR : 0;
        char name[40];
        form_name(name, sizeof name, names[kind], k);
        side_msgs(out, 4, NULL, c->cas, k, M_SEND, kind == A_W, how);
        side_msgs(in, 4, NULL, c->cas, k, M_RECV, kind == A_W, how);
        arena_init(&a, out, 4, M_SEND, unit, 0);
        arena_init(&b, in, 4, M_RECV, unit, 0);
        for (i = 0; i < 4; i++) {
            scc[i] = sc[i] = (int)out[i].sp.sc;
            sdc[i] = sd[i] = (int)a.displ[i];
            st[i] = out[i].sp.st->h;
            rcc[i] = rc[i] = (int)in[i].sp.rc;
            rdc[i] = rd[i] = (int)b.displ[i];
            rt[i] = in[i].sp.rt->h;
            if (kind == A_W) {
                MC(MPI_Get_address(a.buf + a.displ[i], &sdc[i]));
                MC(MPI_Get_address(b.buf + b.displ[i], &rdc[i]));
            }
        }
        switch (kind * 4 + k % 4) {
        case 0: MC(MPI_Alltoallv(a.buf, sc, sd, st[0], b.buf, rc, rd, rt[0], g_comm)); break;
        case 1: MC(MPI_Alltoallv_c(a.buf, scc, sdc, st[0], b.buf, rcc, rdc, rt[0], g_comm)); break;
        case 2: MC(MPI_Ialltoallv(a.buf, sc, sd, st[0], b.buf, rc, rd, rt[0], g_comm, &req)); break;
        case 3: MC(MPI_Ialltoallv_c(a.buf, scc, sdc, st[0], b.buf, rcc, rdc, rt[0], g_comm, &req)); break;
        case 4: MC(MPI_Alltoall(a.buf, sc[0], st[0], b.buf, rc[0], rt[0], g_comm)); break;
        case 5: MC(MPI_Alltoall_c(a.buf, scc[0], st[0], b.buf, rcc[0], rt[0], g_comm)); break;
        case 6: MC(MPI_Ialltoall(a.buf, sc[0], st[0], b.buf, rc[0], rt[0], g_comm, &req)); break;
        case 7: MC(MPI_Ialltoall_c(a.buf, scc[0], st[0], b.buf, rcc[0], rt[0], g_comm, &req)); break;
        case 8: MC(MPI_Alltoallw(a.buf, sc, sd, st, b.buf, rc, rd, rt, g_comm)); break;
        case 9: MC(MPI_Alltoallw_c(MPI_BOTTOM, scc, sdc, st, MPI_BOTTOM, rcc, rdc, rt, g_comm)); break;
        case 10: MC(MPI_Ialltoallw(a.buf, sc, sd, st, b.buf, rc, rd, rt, g_comm, &req)); break;
        default: MC(MPI_Ialltoallw_c(MPI_BOTTOM, scc, sdc, st, MPI_BOTTOM, rcc, rdc, rt, g_comm, &req)); break;
        }
        if (NONBLOCKING(k))
            complete_collective(c, &req, k, name);
        check_arenas(c, &b, &in[0], &a, &out[0], name);
        arena_free(&a);
        arena_free(&b);
        free_msgs(out, 4);
        free_msgs(in, 4);
    }
}

/* MPI_Gatherv, MPI_Scatterv and MPI_Allgatherv (`which` 0, 1, 2), or with `regular` MPI_Gather,
 * MPI_Scatter and MPI_Allgather, in their 4 forms: the root k % 4 (all ranks for the
 * allgather) receives or sends a block per rank, its own included (of its own count at its
 * own displacement, or of one count one after another); the others send or receive one
 * block */
static void case_rooted(ctx_t *c, int which, int regular)
{
    static const char *const names[2][3] = {{"MPI_Gatherv", "MPI_Scatterv", "MPI_Allgatherv"},
                                            {"MPI_Gather", "MPI_Scatter", "MPI_Allgather"}};
    int k, i;
    for (k = 0; k < 8; k++) {
        if (LEFT_OUT(k))
            continue;
        int root = k % 4, is_root = which == 2 || g_rank == root;
        /* Intel MPI 2021.19's blocking MPI_Allgather and MPI_Allgather_c deliver wrong bytes
         * between types of one signature and other layouts (not its MPI_Iallgather), and on
         * AMD EPYC processors its blocking MPI_Gather and MPI_Gather_c free memory twice in
         * the choice of an algorithm (MPIDI_coll_invoke): left out there */
        if (regular && which != 1 && !NONBLOCKING(k) && g_intel)
            continue;
        int how = regular ? (which == 2 ? VS_CALL_ALL : VS_CALL)
                          : (which == 0 ? VS_SENDER : which == 2 ? VS_SENDER_ALL : VS_PAIR);
        msg_t many[4], one;
        arena_t a;
        int counts[4] = {0, 0, 0, 0}, displs[4], oc;
        MPI_Count countsc[4] = {0, 0, 0, 0}, occ;
        MPI_Aint displsc[4];
        MPI_Request req = MPI_REQUEST_NULL;
        MPI_Datatype many_t = MPI_DATATYPE_NULL, ot;
        void *sbuf = NULL, *rbuf = NULL;
        char name[40];
        form_name(name, sizeof name, names[regular][which], k);
        /* the side of one block: this rank's message to the root (gather), from the root
         * (scatter), or to every rank (allgather: one block of the same data for all) */
        if (which == 1)
            msg_init(&one, vspec(c->cas, k, root, g_rank, how), M_RECV);
        else
            msg_init(&one, vspec(c->cas, k, g_rank, which == 2 ? g_rank : root, how), M_SEND);
        if (is_root) {
            int role = which == 1 ? M_SEND : M_RECV;
            for (i = 0; i < 4; i++) {
                int src = which == 1 ? g_rank : i, dst = which == 1 ? i : g_rank;
                msg_init(&many[i], vspec(c->cas, k, src, dst, how), role);
            }
            arena_init(&a, many, 4, role, regular ? ARENA_REGULAR : 0, 0);
            for (i = 0; i < 4; i++) {
                countsc[i] = counts[i] = (int)(role == M_SEND ? many[i].sp.sc : many[i].sp.rc);
                displsc[i] = displs[i] = (int)a.displ[i];
            }
            many_t = which == 1 ? many[0].sp.st->h : many[0].sp.rt->h;
            if (which == 1)
                sbuf = a.buf;
            else
                rbuf = a.buf;
        }
        occ = oc = (int)(which == 1 ? one.sp.rc : one.sp.sc);
        ot = which == 1 ? one.sp.rt->h : one.sp.st->h;
        switch (regular * 12 + which * 4 + k % 4) {
        case 0: MC(MPI_Gatherv(one.sbase, oc, ot, rbuf, counts, displs, many_t, root, g_comm)); break;
        case 1: MC(MPI_Gatherv_c(one.sbase, occ, ot, rbuf, countsc, displsc, many_t, root, g_comm)); break;
        case 2: MC(MPI_Igatherv(one.sbase, oc, ot, rbuf, counts, displs, many_t, root, g_comm, &req)); break;
        case 3: MC(MPI_Igatherv_c(one.sbase, occ, ot, rbuf, countsc, displsc, many_t, root, g_comm, &req)); break;
        case 4: MC(MPI_Scatterv(sbuf, counts, displs, many_t, one.rbase, oc, ot, root, g_comm)); break;
        case 5: MC(MPI_Scatterv_c(sbuf, countsc, displsc, many_t, one.rbase, occ, ot, root, g_comm)); break;
        case 6: MC(MPI_Iscatterv(sbuf, counts, displs, many_t, one.rbase, oc, ot, root, g_comm, &req)); break;
        case 7: MC(MPI_Iscatterv_c(sbuf, countsc, displsc, many_t, one.rbase, occ, ot, root, g_comm, &req)); break;
        case 8: MC(MPI_Allgatherv(one.sbase, oc, ot, rbuf, counts, displs, many_t, g_comm)); break;
        case 9: MC(MPI_Allgatherv_c(one.sbase, occ, ot, rbuf, countsc, displsc, many_t, g_comm)); break;
        case 10: MC(MPI_Iallgatherv(one.sbase, oc, ot, rbuf, counts, displs, many_t, g_comm, &req)); break;
        case 11: MC(MPI_Iallgatherv_c(one.sbase, occ, ot, rbuf, countsc, displsc, many_t, g_comm, &req)); break;
        case 12: MC(MPI_Gather(one.sbase, oc, ot, rbuf, counts[0], many_t, root, g_comm)); break;
        case 13: MC(MPI_Gather_c(one.sbase, occ, ot, rbuf, countsc[0], many_t, root, g_comm)); break;
        case 14: MC(MPI_Igather(one.sbase, oc, ot, rbuf, counts[0], many_t, root, g_comm, &req)); break;
        case 15: MC(MPI_Igather_c(one.sbase, occ, ot, rbuf, countsc[0], many_t, root, g_comm, &req)); break;
        case 16: MC(MPI_Scatter(sbuf, counts[0], many_t, one.rbase, oc, ot, root, g_comm)); break;
        case 17: MC(MPI_Scatter_c(sbuf, countsc[0], many_t, one.rbase, occ, ot, root, g_comm)); break;
        case 18: MC(MPI_Iscatter(sbuf, counts[0], many_t, one.rbase, oc, ot, root, g_comm, &req)); break;
        case 19: MC(MPI_Iscatter_c(sbuf, countsc[0], many_t, one.rbase, occ, ot, root, g_comm, &req)); break;
        case 20: MC(MPI_Allgather(one.sbase, oc, ot, rbuf, counts[0], many_t, g_comm)); break;
        case 21: MC(MPI_Allgather_c(one.sbase, occ, ot, rbuf, countsc[0], many_t, g_comm)); break;
        case 22: MC(MPI_Iallgather(one.sbase, oc, ot, rbuf, counts[0], many_t, g_comm, &req)); break;
        default: MC(MPI_Iallgather_c(one.sbase, occ, ot, rbuf, countsc[0], many_t, g_comm, &req)); break;
        }
        if (NONBLOCKING(k))
            complete_collective(c, &req, k, name);
        if (which == 1) {
            check_bytes(c, one.rraw, one.rexp, one.rlen, &one, name);
            check_arenas(c, NULL, NULL, is_root ? &a : NULL, &many[0], name);
        } else {
            check_send(c, &one, name);
            check_arenas(c, is_root ? &a : NULL, &many[0], NULL, NULL, name);
        }
        if (is_root) {
            arena_free(&a);
            free_msgs(many, 4);
        }
        msg_free(&one);
    }
}

/* The communicator of a neighbourhood collective and this rank's neighbours in it */
typedef struct {
    MPI_Comm comm;
    int nin, nout;
    int sources[MAX_BLOCKS], destinations[MAX_BLOCKS];
    unsigned from_nobody; /* bit i: source i is MPI_PROC_NULL */
} hood_t;

/* topology 0: a 2 x 2 Cartesian grid, not periodic (2 of each rank's 4 neighbours are
 * MPI_PROC_NULL); 1: a distributed graph of random edges, 0 to 3 out of each rank to any
 * rank, itself and repeated edges included */
static void hood_init(hood_t *h, int cas, int topology)
{
    int r, i;
    memset(h, 0, sizeof *h);
    if (topology == 0) {
        int dims[2] = {2, 2}, periods[2] = {0, 0};
        MC(MPI_Cart_create(g_comm, 2, dims, periods, 0, &h->comm));
        h->nin = h->nout = 4;
        for (i = 0; i < 2; i++)
            MC(MPI_Cart_shift(h->comm, i, 1, &h->sources[2 * i], &h->sources[2 * i + 1]));
        memcpy(h->destinations, h->sources, sizeof h->sources);
    } else {
        int out[4][3], nout[4];
        for (r = 0; r < 4; r++) {
            rng_t g = rng_for(g_seed, (uint64_t)cas, 55, (uint64_t)r, 0);
            nout[r] = rnd(&g, 4);
            for (i = 0; i < nout[r]; i++)
                out[r][i] = rnd(&g, 4);
        }
        h->nout = nout[g_rank];
        for (i = 0; i < h->nout; i++)
            h->destinations[i] = out[g_rank][i];
        for (r = 0; r < 4; r++) /* in the order of the edges out of each source */
            for (i = 0; i < nout[r]; i++)
                if (out[r][i] == g_rank)
                    h->sources[h->nin++] = r;
        MC(MPI_Dist_graph_create_adjacent(g_comm, h->nin, h->sources, MPI_UNWEIGHTED, h->nout, h->destinations,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &h->comm));
    }
    for (i = 0; i < h->nin; i++)
        if (h->sources[i] == MPI_PROC_NULL)
            h->from_nobody |= 1u << i;
}

/* The neighbourhood collectives (`which` 0-4: MPI_Neighbor_alltoall, _allgather, _alltoallv,
 * _allgatherv, _alltoallw) on both topologies in their 4 forms: a block to each destination
 * (the same one for the allgathers), one from each source; blocks from MPI_PROC_NULL keep
 * their sentinels */
static void case_neighbors(ctx_t *c, int which)
{
    static const char *const names[5] = {"MPI_Neighbor_alltoall", "MPI_Neighbor_allgather",
                                         "MPI_Neighbor_alltoallv", "MPI_Neighbor_allgatherv",
                                         "MPI_Neighbor_alltoallw"};
    static const int hows[5] = {VS_CALL, VS_CALL_ALL, VS_PAIR, VS_SENDER_ALL, VS_PAIR};
    int k, i, topology;
    for (topology = 0; topology < 2; topology++) {
        hood_t h;
        /* MPICH 4.0.2's MPI_Neighbor_alltoallw delivers wrong bytes over a distributed graph
         * (not MPICH 5.0.2's, nor Intel MPI's): left out there */
        if (which == 4 && topology == 1 && g_mpich40)
            continue;
        hood_init(&h, c->cas, topology);
        for (k = 0; k < 8; k++) {
            if (LEFT_OUT(k))
                continue;
            int same = which == 1 || which == 3, wtypes = which == 4, nsent = same ? 1 : h.nout;
            int self[1];
            long unit = wtypes ? 1 : which < 2 ? ARENA_REGULAR : 0;
            msg_t out[MAX_BLOCKS], in[MAX_BLOCKS];
            arena_t a, b;
            int sc[MAX_BLOCKS], sd[MAX_BLOCKS], rc[MAX_BLOCKS], rd[MAX_BLOCKS];
            MPI_Count scc[MAX_BLOCKS], rcc[MAX_BLOCKS];
            MPI_Aint sdc[MAX_BLOCKS], rdc[MAX_BLOCKS];
            MPI_Datatype st[MAX_BLOCKS], rt[MAX_BLOCKS];
            MPI_Request req = MPI_REQUEST_NULL;
            MPI_Comm hc = h.comm;
            unsigned char *sbuf;
            char name[48];
            form_name(name, sizeof name, names[which], k);
            self[0] = g_rank; /* the allgathers send one block, the same data to every neighbour */
            side_msgs(out, nsent, same ? self : h.destinations, c->cas, 100 * topology + k, M_SEND, wtypes,
                      hows[which]);
            side_msgs(in, h.nin, h.sources, c->cas, 100 * topology + k, M_RECV, wtypes, hows[which]);
            arena_init(&a, out, nsent, M_SEND, unit, 0);
            arena_init(&b, in, h.nin, M_RECV, unit, h.from_nobody);
            for (i = 0; i < MAX_BLOCKS; i++) {
                int s = i < nsent, r = i < h.nin;
                scc[i] = sc[i] = s ? (int)out[i].sp.sc : 0;
                sdc[i] = sd[i] = s ? (int)a.displ[i] : 0;
                st[i] = s ? out[i].sp.st->h : MPI_DATATYPE_NULL;
                rcc[i] = rc[i] = r ? (int)in[i].sp.rc : 0;
                rdc[i] = rd[i] = r ? (int)b.displ[i] : 0;
                rt[i] = r ? in[i].sp.rt->h : MPI_DATATYPE_NULL;
            }
            /* the allgathers' one block: where the arena placed it */
            sbuf = a.buf + (same ? a.displ[0] * a.unit : 0);
            if (nsent == 0) /* the one count and type of a side with no blocks */
                st[0] = MPI_INT;
            if (h.nin == 0)
                rt[0] = MPI_INT;
            switch (which * 4 + k % 4) {
            case 0: MC(MPI_Neighbor_alltoall(sbuf, sc[0], st[0], b.buf, rc[0], rt[0], hc)); break;
            case 1: MC(MPI_Neighbor_alltoall_c(sbuf, scc[0], st[0], b.buf, rcc[0], rt[0], hc)); break;
            case 2: MC(MPI_Ineighbor_alltoall(sbuf, sc[0], st[0], b.buf, rc[0], rt[0], hc, &req)); break;
            case 3: MC(MPI_Ineighbor_alltoall_c(sbuf, scc[0], st[0], b.buf, rcc[0], rt[0], hc, &req)); break;
            case 4: MC(MPI_Neighbor_allgather(sbuf, sc[0], st[0], b.buf, rc[0], rt[0], hc)); break;
            case 5: MC(MPI_Neighbor_allgather_c(sbuf, scc[0], st[0], b.buf, rcc[0], rt[0], hc)); break;
            case 6: MC(MPI_Ineighbor_allgather(sbuf, sc[0], st[0], b.buf, rc[0], rt[0], hc, &req)); break;
            case 7: MC(MPI_Ineighbor_allgather_c(sbuf, scc[0], st[0], b.buf, rcc[0], rt[0], hc, &req)); break;
            case 8: MC(MPI_Neighbor_alltoallv(sbuf, sc, sd, st[0], b.buf, rc, rd, rt[0], hc)); break;
            case 9: MC(MPI_Neighbor_alltoallv_c(sbuf, scc, sdc, st[0], b.buf, rcc, rdc, rt[0], hc)); break;
            case 10: MC(MPI_Ineighbor_alltoallv(sbuf, sc, sd, st[0], b.buf, rc, rd, rt[0], hc, &req)); break;
            case 11: MC(MPI_Ineighbor_alltoallv_c(sbuf, scc, sdc, st[0], b.buf, rcc, rdc, rt[0], hc, &req)); break;
            case 12: MC(MPI_Neighbor_allgatherv(sbuf, sc[0], st[0], b.buf, rc, rd, rt[0], hc)); break;
            case 13: MC(MPI_Neighbor_allgatherv_c(sbuf, scc[0], st[0], b.buf, rcc, rdc, rt[0], hc)); break;
            case 14: MC(MPI_Ineighbor_allgatherv(sbuf, sc[0], st[0], b.buf, rc, rd, rt[0], hc, &req)); break;
            case 15: MC(MPI_Ineighbor_allgatherv_c(sbuf, scc[0], st[0], b.buf, rcc, rdc, rt[0], hc, &req)); break;
            case 16: MC(MPI_Neighbor_alltoallw(sbuf, sc, sdc, st, b.buf, rc, rdc, rt, hc)); break;
            case 17: MC(MPI_Neighbor_alltoallw_c(sbuf, scc, sdc, st, b.buf, rcc, rdc, rt, hc)); break;
            case 18: MC(MPI_Ineighbor_alltoallw(sbuf, sc, sdc, st, b.buf, rc, rdc, rt, hc, &req)); break;
            default: MC(MPI_Ineighbor_alltoallw_c(sbuf, scc, sdc, st, b.buf, rcc, rdc, rt, hc, &req)); break;
            }
            if (NONBLOCKING(k))
                complete_collective(c, &req, k, name);
            check_arenas(c, h.nin ? &b : NULL, &in[0], nsent ? &a : NULL, &out[0], name);
            arena_free(&a);
            arena_free(&b);
            free_msgs(out, nsent);
            free_msgs(in, h.nin);
        }
        MC(MPI_Comm_free(&h.comm));
    }
}

/* MPI_Bcast from each root, then MPI_Ibcast (completed by MPI_Wait, or an MPI_Test loop from
 * roots 2 and 3): the root sends a pool type, each other rank receives with a type of the same
 * signature (the same type, another layout, the predefined type, contiguous); with
 * predefined, the root sends count x n of the primitive of the one-primitive type */
static void case_bcast(ctx_t *c, int predefined)
{
    int k;
    for (k = 0; k < 8; k++) {
        int root = k % 4;
        msg_t m;
        MPI_Request req = MPI_REQUEST_NULL;
        spec_t s = make_spec(c->cas, root, g_rank, k, SP_SHARED | SP_EXACT | SP_PARTIAL | SP_BIG);
        if (predefined) {
            /* the one-primitive type, sent as its primitive */
            pool_t *p = &g_pool[NPOOL - 2];
            long n = p->t->ne, cnt = s.sc;
            int v = (int)(hash4(g_seed, (uint64_t)c->cas, (uint64_t)k, (uint64_t)g_rank) % 4);
            s.ti = NPOOL - 2;
            s.st = &g_leaves[p->t->prim];
            s.sc = cnt * n;
            switch (v) {
            case 0: s.rt = s.st; s.rc = s.sc; strcpy(s.rv, "predefined"); break;
            case 1: s.rt = p->t; s.rc = cnt; strcpy(s.rv, "derived"); break;
            case 2: s.rt = p->hom; s.rc = cnt; strcpy(s.rv, "contiguous"); break;
            default: s.rt = p->sig1; s.rc = cnt; strcpy(s.rv, "signature"); break;
            }
        }
        s.src = root;
        s.dst = -1;
        s.tag = -1;
        if (g_rank == root) {
            msg_init(&m, s, M_SEND);
            if (k < 4)
                MC(MPI_Bcast(m.sbase, (int)s.sc, s.st->h, root, g_comm));
            else {
                MC(MPI_Ibcast(m.sbase, (int)s.sc, s.st->h, root, g_comm, &req));
                complete_collective(c, &req, k, "MPI_Ibcast");
            }
            check_send(c, &m, k < 4 ? "MPI_Bcast root" : "MPI_Ibcast root");
        } else {
            msg_init(&m, s, M_RECV);
            if (k < 4)
                MC(MPI_Bcast(m.rbase, (int)s.rc, s.rt->h, root, g_comm));
            else {
                MC(MPI_Ibcast(m.rbase, (int)s.rc, s.rt->h, root, g_comm, &req));
                complete_collective(c, &req, k, "MPI_Ibcast");
            }
            check_bytes(c, m.rraw, m.rexp, m.rlen, &m, k < 4 ? "MPI_Bcast" : "MPI_Ibcast");
        }
        msg_free(&m);
    }
}

/* ---------------------------------------------------------------- threads */

typedef struct {
    int id;
    MPI_Comm own;
    ctx_t ctx;
} worker_t;

/* each of 2 threads: 4 rounds of MPI_Irecv/MPI_Isend with the 3 other ranks (on the shared
 * communicator with its own tags, or on its own communicator), then MPI_Sendrecv */
static void *thread_work(void *arg)
{
    worker_t *w = (worker_t *)arg;
    ctx_t *c = &w->ctx;
    int round, i;
    for (round = 0; round < 4; round++) {
        MPI_Comm comm = round % 2 ? w->own : g_comm;
        int k = 10 * w->id + round, tag = 5000 + 100 * w->id + 10 * round;
        msg_t out[3], in[3], so, si;
        MPI_Request req[6];
        MPI_Status st[6], s1;
        for (i = 0; i < 3; i++) {
            spec_t s = make_spec(c->cas, peer(i), g_rank, k, PFLAGS);
            s.tag = tag;
            msg_init(&in[i], s, M_RECV);
            MC(irecv_msg(&in[i], comm, &req[i]));
        }
        for (i = 0; i < 3; i++) {
            spec_t s = make_spec(c->cas, g_rank, peer(i), k, PFLAGS);
            s.tag = tag;
            msg_init(&out[i], s, M_SEND);
            MC(isend_msg(&out[i], comm, &req[3 + i]));
        }
        MC(MPI_Waitall(6, req, st));
        for (i = 0; i < 3; i++) {
            check_recv(c, &in[i], &st[i], "thread MPI_Irecv/MPI_Waitall");
            check_send(c, &out[i], "thread MPI_Isend");
            msg_free(&in[i]);
            msg_free(&out[i]);
        }
        {
            int d = 1 + round % 3, dst = (g_rank + d) % 4, src = (g_rank + 4 - d) % 4;
            spec_t a = make_spec(c->cas, g_rank, dst, 100 + k, PFLAGS), b = make_spec(c->cas, src, g_rank, 100 + k, PFLAGS);
            a.tag = b.tag = tag + 1;
            msg_init(&so, a, M_SEND);
            msg_init(&si, b, M_RECV);
            MC(MPI_Sendrecv(so.sbase, (int)a.sc, a.st->h, dst, a.tag, si.rbase, (int)b.rc, b.rt->h, src, b.tag, comm,
                            &s1));
            check_recv(c, &si, &s1, "thread MPI_Sendrecv");
            check_send(c, &so, "thread MPI_Sendrecv");
            msg_free(&so);
            msg_free(&si);
        }
    }
    return NULL;
}

static int case_threads(ctx_t *c)
{
    worker_t w[2];
    pthread_t th[2];
    int i;
    if (g_thread_level < MPI_THREAD_MULTIPLE)
        return 0;
    for (i = 0; i < 2; i++) {
        w[i].id = i;
        w[i].ctx = *c;
        w[i].ctx.checks = w[i].ctx.fails = 0;
        w[i].ctx.where = i ? "thread 1" : "thread 0";
        MC(MPI_Comm_dup(g_comm, &w[i].own));
    }
    for (i = 0; i < 2; i++)
        if (pthread_create(&th[i], NULL, thread_work, &w[i]) != 0) {
            fprintf(stderr, "p2p_random: pthread_create failed\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    for (i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        c->checks += w[i].ctx.checks;
        c->fails += w[i].ctx.fails;
        MC(MPI_Comm_free(&w[i].own));
    }
    return 1;
}

/* ---------------------------------------------------------------- driver */

enum {
    C_TYPES,
    C_SEND,
    C_SSEND,
    C_RSEND,
    C_BSEND,
    C_ISEND,
    C_WAIT,
    C_WAITANY,
    C_WAITSOME,
    C_TEST,
    C_TESTALL,
    C_TESTANY,
    C_TESTSOME,
    C_GETSTATUS,
    C_PERSISTENT,
    C_SENDRECV,
    C_REPLACE,
    C_MPROBE,
    C_IMPROBE,
    C_PROBE,
    C_ANYSOURCE,
    C_TRUNCATE,
    C_CANCEL,
    C_REQFREE,
    C_BCAST,
    C_BCAST_PREDEFINED,
    C_ALLTOALL,
    C_GATHER,
    C_SCATTER,
    C_ALLGATHER,
    C_ALLTOALLV,
    C_ALLTOALLW,
    C_GATHERV,
    C_SCATTERV,
    C_ALLGATHERV,
    C_NEIGHBOR_ALLTOALL,
    C_NEIGHBOR_ALLGATHER,
    C_NEIGHBOR_ALLTOALLV,
    C_NEIGHBOR_ALLGATHERV,
    C_NEIGHBOR_ALLTOALLW,
    C_THREADS,
    NCASES
};

static const char *const g_case_names[NCASES] = {
    "types",           "send",         "ssend",         "rsend",       "bsend",
    "isend-family",    "irecv-wait",   "irecv-waitany", "irecv-waitsome", "irecv-test",
    "irecv-testall",   "irecv-testany", "irecv-testsome", "irecv-request_get_status",
    "persistent",      "sendrecv",     "sendrecv_replace", "mprobe-mrecv", "improbe-imrecv",
    "probe-iprobe",    "any_source-order", "truncate",   "cancel",      "request_free",
    "bcast",           "bcast-predefined", "alltoall",    "gather",      "scatter",
    "allgather",       "alltoallv",    "alltoallw",     "gatherv",     "scatterv",
    "allgatherv",      "neighbor_alltoall", "neighbor_allgather", "neighbor_alltoallv",
    "neighbor_allgatherv", "neighbor_alltoallw", "threads"};

/* Runs one case; returns 0 if it did not run (threads without MPI_THREAD_MULTIPLE). */
static int run_case(int cas, long *checks, long *fails)
{
    ctx_t c;
    int ran = 1;
    memset(&c, 0, sizeof c);
    c.cas = cas;
    c.cname = g_case_names[cas];
    switch (cas) {
    case C_TYPES: case_types(&c); break;
    case C_SEND: case_blocking(&c, 0); break;
    case C_SSEND: case_blocking(&c, 1); break;
    case C_RSEND: case_blocking(&c, 2); break;
    case C_BSEND: case_bsend(&c); break;
    case C_ISEND: case_isend_family(&c); break;
    case C_WAIT: case_completion(&c, CM_WAIT); break;
    case C_WAITANY: case_completion(&c, CM_WAITANY); break;
    case C_WAITSOME: case_completion(&c, CM_WAITSOME); break;
    case C_TEST: case_completion(&c, CM_TEST); break;
    case C_TESTALL: case_completion(&c, CM_TESTALL); break;
    case C_TESTANY: case_completion(&c, CM_TESTANY); break;
    case C_TESTSOME: case_completion(&c, CM_TESTSOME); break;
    case C_GETSTATUS: case_completion(&c, CM_GETSTATUS); break;
    case C_PERSISTENT: case_persistent(&c); break;
    case C_SENDRECV: case_sendrecv(&c); break;
    case C_REPLACE: case_sendrecv_replace(&c); break;
    case C_MPROBE: case_mprobe(&c, 0); break;
    case C_IMPROBE: case_mprobe(&c, 1); break;
    case C_PROBE: case_probe(&c); break;
    case C_ANYSOURCE: case_any_source(&c); break;
    case C_TRUNCATE: case_truncate(&c); break;
    case C_CANCEL: case_cancel(&c); break;
    case C_REQFREE: case_request_free(&c); break;
    case C_BCAST: case_bcast(&c, 0); break;
    case C_BCAST_PREDEFINED: case_bcast(&c, 1); break;
    case C_ALLTOALL: case_alltoall(&c, A_REGULAR); break;
    case C_GATHER: case_rooted(&c, 0, 1); break;
    case C_SCATTER: case_rooted(&c, 1, 1); break;
    case C_ALLGATHER: case_rooted(&c, 2, 1); break;
    case C_ALLTOALLV: case_alltoall(&c, A_V); break;
    case C_ALLTOALLW: case_alltoall(&c, A_W); break;
    case C_GATHERV: case_rooted(&c, 0, 0); break;
    case C_SCATTERV: case_rooted(&c, 1, 0); break;
    case C_ALLGATHERV: case_rooted(&c, 2, 0); break;
    case C_NEIGHBOR_ALLTOALL: case_neighbors(&c, 0); break;
    case C_NEIGHBOR_ALLGATHER: case_neighbors(&c, 1); break;
    case C_NEIGHBOR_ALLTOALLV: case_neighbors(&c, 2); break;
    case C_NEIGHBOR_ALLGATHERV: case_neighbors(&c, 3); break;
    case C_NEIGHBOR_ALLTOALLW: case_neighbors(&c, 4); break;
    default: ran = case_threads(&c); break;
    }
    /* Every message of a case has the case's own tags, so ranks may run ahead into the next
     * case; but a receive with MPI_ANY_TAG could match the next case's messages: no rank
     * leaves such a case before every rank has received all of its messages. */
    if (cas == C_PROBE || cas == C_ANYSOURCE)
        MC(MPI_Barrier(g_comm));
    *checks = c.checks;
    *fails = c.fails;
    return ran;
}

/* One seed: the pool, every case, one line per case from rank 0 with the sums over ranks. */
static void run_seed(void)
{
    long local[2 * NCASES], total[2 * NCASES];
    int ran[NCASES], cas;
    build_pool();
    print_pool();
    for (cas = 0; cas < NCASES; cas++)
        ran[cas] = run_case(cas, &local[2 * cas], &local[2 * cas + 1]);
    MC(MPI_Reduce(local, total, 2 * NCASES, MPI_LONG, MPI_SUM, 0, g_comm));
    if (g_rank == 0) {
        for (cas = 0; cas < NCASES; cas++) {
            const char *name = g_case_names[cas];
            long n = total[2 * cas], f = total[2 * cas + 1];
            if (!ran[cas] && g_threads_requested)
                printf("seed %lu case %02d %s: skipped (MPI_THREAD_MULTIPLE not provided)\n", g_seed, cas, name);
            else if (!ran[cas])
                printf("seed %lu case %02d %s: not run (no -t)\n", g_seed, cas, name);
            else if (f == 0)
                printf("seed %lu case %02d %s: ok (%ld checks)\n", g_seed, cas, name, n);
            else
                printf("seed %lu case %02d %s: FAILED (%ld of %ld checks)\n", g_seed, cas, name, f, n);
            g_total_checks += n;
            g_total_fails += f;
        }
        fflush(stdout);
    }
    free_nodes(1);
}

int main(int argc, char **argv)
{
    int size, i, nseeds = 0;
    unsigned long seeds[256];
    for (i = 1; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "-t") == 0) {
            g_threads_requested = 1;
            continue;
        }
        if (nseeds == 256 || !*argv[i] || (seeds[nseeds] = strtoul(argv[i], &end, 10), *end)) {
            fprintf(stderr, "usage: mpiexec -n 4 %s [-t] SEED [SEED...] (at most 256 seeds)\n", argv[0]);
            return 2;
        }
        nseeds++;
    }
    if (nseeds == 0) {
        fprintf(stderr, "usage: mpiexec -n 4 %s [-t] SEED [SEED...]\n", argv[0]);
        return 2;
    }
    if (g_threads_requested)
        MC(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &g_thread_level));
    else
        MC(MPI_Init(&argc, &argv));
    MC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MC(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank));
    MC(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size != 4) {
        if (g_rank == 0)
            fprintf(stderr, "p2p_random: needs exactly 4 ranks, got %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MC(MPI_Comm_dup(MPI_COMM_WORLD, &g_comm));
    {
        char version[MPI_MAX_LIBRARY_VERSION_STRING + 1];
        int len = 0;
        MC(MPI_Get_library_version(version, &len));
        version[len < 0 ? 0 : len > MPI_MAX_LIBRARY_VERSION_STRING ? MPI_MAX_LIBRARY_VERSION_STRING : len] = 0;
        g_intel = strstr(version, "Intel") != NULL;
        g_mpich40 = strncmp(version, "MPICH Version:", 14) == 0 && strncmp(version + 14 + strspn(version + 14, " \t"), "4.0", 3) == 0;
        g_trunc_min = g_intel;
    }
    init_leaves();
    for (i = 0; i < nseeds; i++) {
        g_seed = seeds[i];
        run_seed();
    }
    MC(MPI_Comm_free(&g_comm));
    MC(MPI_Bcast(&g_total_fails, 1, MPI_LONG, 0, MPI_COMM_WORLD));
    if (g_rank == 0) {
        if (g_total_fails == 0)
            printf("p2p_random: all %ld checks passed\n", g_total_checks);
        else
            printf("p2p_random: %ld of %ld checks FAILED\n", g_total_fails, g_total_checks);
        fflush(stdout);
    }
    MC(MPI_Finalize());
    return g_total_fails == 0 ? 0 : 1;
}
