/* Messages of p2p_random.c: what each one carries, the buffers on both sides, the bytes a
 * receive must leave, and the checks of a received message and of its status.
 *
 * A message is named by (case, source, destination, k).  From that name and the seed every
 * rank computes the same spec (send type and count, receive type and count, tag), the same
 * send buffer (values at the entries of the send type's type map, a background pattern in
 * the holes and margins), the bytes of the message (the entries read in type-map order), and
 * what the receive buffer must hold afterwards: its sentinel pattern, with the message's
 * bytes written at the entries of the receive type's type map, in order, as far as the
 * message goes.  Send and receive buffers are allocated with margins on both sides, and every
 * byte of the receive buffer, margins included, is compared. */
#ifndef P2P_MSG_H
#define P2P_MSG_H

#include "p2p_model.h"

/* ---------------------------------------------------------------- checks */

typedef struct {
    long checks, fails;
    int cas;
    const char *cname;
    const char *where; /* e.g. "thread 1" */
} ctx_t;

static unsigned long g_seed;
static int g_rank;
/* the least receive count of a truncated receive: 0, or 1 over Intel MPI, whose receives of
 * count 0 never report MPI_ERR_TRUNCATE (Intel MPI 2021.19: MPI_Recv of count 0 returns
 * MPI_SUCCESS for a message of 3 ints; MPICH 4.0.2 and 5.0.2 report the truncation) */
static int g_trunc_min;

static void report(ctx_t *c, const char *fmt, ...)
{
    char line[1024];
    int n;
    va_list ap;
    n = snprintf(line, sizeof line, "seed %lu case %02d %s rank %d%s%s: ", g_seed, c->cas, c->cname,
                 g_rank, c->where ? " " : "", c->where ? c->where : "");
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof line)
        vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    line[sizeof line - 2] = 0;
    strcat(line, "\n");
    fputs(line, stdout);
    fflush(stdout);
}

/* one check; a failure is printed (the first 10 of a case on a rank) and counted */
#define CK(c, cond, ...)                                                                   \
    do {                                                                                   \
        (c)->checks++;                                                                     \
        if (!(cond)) {                                                                     \
            (c)->fails++;                                                                  \
            if ((c)->fails <= 10)                                                          \
                report((c), __VA_ARGS__);                                                  \
        }                                                                                  \
    } while (0)

static int err_class(int code)
{
    int cls = -1;
    if (MPI_Error_class(code, &cls) != MPI_SUCCESS)
        return -1;
    return cls;
}

/* ---------------------------------------------------------------- the pool of types */

#define NPOOL 6 /* 0-3: any primitives; 4: one primitive; 5: entries may overlap */

typedef struct {
    node_t *t;    /* the type */
    node_t *sig1; /* same signature, another layout */
    node_t *sigr; /* the signature of r copies of t */
    node_t *hom;  /* contiguous(n, primitive) when every entry is one primitive, else NULL */
    int r;
    int recv; /* can be received into (with any count) */
} pool_t;

static pool_t g_pool[NPOOL];

/* ---------------------------------------------------------------- specs */

#define BIG_BYTES 70000 /* a big message: past MPICH's eager limit (64 KB in shared memory) */

#define SP_LARGER 1   /* the receive count may be larger than needed */
#define SP_PARTIAL 2  /* the receive type may hold several copies of the send type */
#define SP_BIG 4      /* the message may be big */
#define SP_EXACT 8    /* the receive signature must equal the message's (collectives) */
#define SP_RECVSAME 16 /* receive with the send type and count */
#define SP_NOZERO 32  /* no message of count 0 */
#define SP_SHARED 64  /* send type and count depend on (case, k) only */
#define SP_TRUNC 128  /* the receive buffer is too small */
#define SP_PACKED 256 /* what MPICH sends as MPI_PACKED: primitives of one size, at most
                         PACKED_BYTES (see buffered_kind in p2p_random.c) */

#define PACKED_BYTES 12000

typedef struct {
    int cas, src, dst, k, tag, round;
    int ti;
    node_t *st;
    long sc;
    node_t *rt;
    long rc;
    char rv[24]; /* the receive variant, for messages */
} spec_t;

static spec_t make_spec(int cas, int src, int dst, int k, int flags)
{
    spec_t s;
    rng_t rs = (flags & SP_SHARED) ? rng_for(g_seed, (uint64_t)cas, 99, 99, (uint64_t)k)
                                   : rng_for(g_seed, (uint64_t)cas, (uint64_t)src, (uint64_t)dst, (uint64_t)k);
    rng_t rr = rng_for(g_seed ^ 0xabcdefULL, (uint64_t)cas, (uint64_t)src, (uint64_t)dst, (uint64_t)k);
    pool_t *p;
    int v, b;
    memset(&s, 0, sizeof s);
    s.cas = cas;
    s.src = src;
    s.dst = dst;
    s.k = k;
    s.tag = cas * 100 + k;
    s.ti = rnd(&rs, NPOOL);
    /* the pool's type NPOOL - 2 has one primitive and can be received into: these end */
    if (flags & (SP_RECVSAME | SP_TRUNC))
        while (!g_pool[s.ti].recv)
            s.ti = (s.ti + 1) % NPOOL;
    if (flags & SP_PACKED)
        while (g_pool[s.ti].t->esize < 0 || ((flags & SP_RECVSAME) && !g_pool[s.ti].recv))
            s.ti = (s.ti + 1) % NPOOL;
    p = &g_pool[s.ti];
    s.st = p->t;
    if (flags & SP_PACKED) {
        s.sc = rnd(&rs, 16) == 0 ? 0 : 1 + rnd(&rs, 4);
        if (s.sc * s.st->size > PACKED_BYTES)
            s.sc = PACKED_BYTES / s.st->size;
    } else if (flags & SP_TRUNC)
        s.sc = 2 + rnd(&rs, 3);
    else if ((flags & SP_BIG) && rnd(&rs, 14) == 0)
        s.sc = (BIG_BYTES + s.st->size - 1) / s.st->size;
    else if (!(flags & SP_NOZERO) && rnd(&rs, 16) == 0)
        s.sc = 0;
    else
        s.sc = 1 + rnd(&rs, 4);
    if (flags & SP_RECVSAME) {
        s.rt = s.st;
        s.rc = s.sc;
        strcpy(s.rv, "same");
        return s;
    }
    v = rnd(&rr, 7);
    b = v < 4 ? v : rnd(&rr, 4);
    if (b == 0 && !receivable(s.st, s.sc))
        b = 1;
    if (b >= 2 && !p->hom)
        b = 1;
    switch (b) {
    case 0:
        s.rt = s.st;
        s.rc = s.sc;
        strcpy(s.rv, "same");
        break;
    case 1:
        s.rt = p->sig1;
        s.rc = s.sc;
        strcpy(s.rv, "signature");
        break;
    case 2:
        s.rt = &g_leaves[s.st->prim];
        s.rc = s.sc * s.st->ne;
        strcpy(s.rv, "predefined");
        break;
    default:
        s.rt = p->hom;
        s.rc = s.sc;
        strcpy(s.rv, "contiguous");
        break;
    }
    if (flags & SP_TRUNC) {
        s.rc = g_trunc_min + rnd(&rr, (int)s.rc - g_trunc_min);
        strcat(s.rv, "-short");
        return s;
    }
    if (v == 4 && (flags & SP_LARGER)) {
        s.rc += (1 + rnd(&rr, 3)) * (b == 2 ? 1 + rnd(&rr, (int)s.st->ne) : 1);
        strcat(s.rv, "+larger");
    } else if (v == 5 && (flags & SP_PARTIAL) && (!(flags & SP_EXACT) || s.sc % p->r == 0)) {
        s.rt = p->sigr;
        s.rc = (s.sc + p->r - 1) / p->r;
        strcpy(s.rv, "partial");
        if ((flags & SP_LARGER) && rnd(&rr, 2))
            s.rc++;
    }
    return s;
}

/* ---------------------------------------------------------------- buffers */

#define MARGIN 24

typedef struct {
    spec_t sp;
    unsigned char *sraw, *sbase, *scopy;
    long slen;
    unsigned char *rraw, *rbase, *rexp;
    long rlen;
    unsigned char *stream;
    long nbytes, nelems;
    int fits; /* the whole message fits the receive buffer */
} msg_t;

/* bytes of count copies of t with margins, and where copy 0 starts in them */
static void geom(const node_t *t, long count, long *len, long *base)
{
    if (count == 0) {
        *len = 2 * MARGIN;
        *base = MARGIN;
        return;
    }
    *len = (count - 1) * t->ext + t->tub - t->tlb + 2 * MARGIN;
    *base = MARGIN - t->tlb;
}

static void put_value(unsigned char *dst, int p, uint64_t h)
{
    switch (prims[p].vk) {
    case VK_INT:
        memcpy(dst, &h, (size_t)prims[p].size); /* the low bytes on x86-64 */
        break;
    case VK_FLOAT: {
        float f = (float)((long)(h % 2000001) - 1000000) / 64.0f;
        memcpy(dst, &f, sizeof f);
        break;
    }
    case VK_DOUBLE: {
        double d = (double)((long)(h % 2000000001) - 1000000000) / 1024.0;
        memcpy(dst, &d, sizeof d);
        break;
    }
    default: {
        double z[2];
        z[0] = (double)((long)(h % 200001) - 100000) / 8.0;
        z[1] = (double)((long)((h >> 20) % 200001) - 100000) / 16.0;
        memcpy(dst, z, sizeof z);
        break;
    }
    }
}

static uint64_t msg_key(const spec_t *s)
{
    return ((uint64_t)s->cas << 32) ^ ((uint64_t)(s->src + 1) << 24) ^ ((uint64_t)(s->dst + 1) << 16) ^
           (uint64_t)s->k;
}

/* writes the send buffer (values depend on sp.round) and the message's bytes */
static void fill_send(msg_t *m, unsigned char *raw, long len, unsigned char *base)
{
    const spec_t *s = &m->sp;
    const node_t *t = s->st;
    long i, c, j, pos = 0;
    uint64_t key = msg_key(s);
    for (i = 0; i < len; i++)
        raw[i] = (unsigned char)(0x5a ^ (i * 29) ^ (s->src << 4) ^ s->round);
    for (c = 0, i = 0; c < s->sc; c++)
        for (j = 0; j < t->ne; j++, i++)
            put_value(base + c * t->ext + t->e[j].disp, t->e[j].p,
                      hash4(g_seed, key, (uint64_t)s->round, (uint64_t)i));
    for (c = 0; c < s->sc; c++)
        for (j = 0; j < t->ne; j++) {
            int sz = prims[t->e[j].p].size;
            memcpy(m->stream + pos, base + c * t->ext + t->e[j].disp, (size_t)sz);
            pos += sz;
        }
}

static void fail_internal(const char *what, const spec_t *s)
{
    fprintf(stderr, "p2p_random: internal error: %s (seed %lu case %d %d->%d k %d: %s x %ld as %s x %ld)\n",
            what, g_seed, s->cas, s->src, s->dst, s->k, s->st->desc, s->sc, s->rt->desc, s->rc);
    MPI_Abort(MPI_COMM_WORLD, 3);
    exit(3);
}

/* the byte the receive buffer holds at `i` before the message (reset_recv) */
static unsigned char recv_sentinel(const msg_t *m, long i)
{
    return (unsigned char)(0xc3 ^ (i * 13) ^ (m->sp.dst << 5));
}

/* the receive buffer's sentinels, and the bytes it must hold after the message */
static void reset_recv(msg_t *m)
{
    const spec_t *s = &m->sp;
    const node_t *rt = s->rt, *st = s->st;
    long i, c, j, pos = 0, el = 0, rbase_off = m->rbase - m->rraw;
    for (i = 0; i < m->rlen; i++)
        m->rraw[i] = recv_sentinel(m, i);
    memcpy(m->rexp, m->rraw, (size_t)m->rlen);
    for (c = 0; c < s->rc && pos < m->nbytes; c++)
        for (j = 0; j < rt->ne && pos < m->nbytes; j++) {
            int p = rt->e[j].p, sz = prims[p].size;
            if (p != st->e[el % st->ne].p || pos + sz > m->nbytes)
                fail_internal("receive type signature does not match the message", s);
            memcpy(m->rexp + rbase_off + c * rt->ext + rt->e[j].disp, m->stream + pos, (size_t)sz);
            pos += sz;
            el++;
        }
    m->fits = pos == m->nbytes;
}

enum { M_SEND = 1, M_RECV = 2 };

static void msg_init(msg_t *m, spec_t sp, int role)
{
    long base;
    memset(m, 0, sizeof *m);
    m->sp = sp;
    m->nbytes = sp.sc * sp.st->size;
    m->nelems = sp.sc * sp.st->ne;
    m->stream = (unsigned char *)xmalloc((size_t)m->nbytes);
    geom(sp.st, sp.sc, &m->slen, &base);
    m->sraw = (unsigned char *)xmalloc((size_t)m->slen);
    m->sbase = m->sraw + base;
    fill_send(m, m->sraw, m->slen, m->sbase);
    if (role & M_SEND) {
        m->scopy = (unsigned char *)xmalloc((size_t)m->slen);
        memcpy(m->scopy, m->sraw, (size_t)m->slen);
    } else {
        free(m->sraw);
        m->sraw = m->sbase = NULL;
    }
    if (role & M_RECV) {
        geom(sp.rt, sp.rc, &m->rlen, &base);
        m->rraw = (unsigned char *)xmalloc((size_t)m->rlen);
        m->rexp = (unsigned char *)xmalloc((size_t)m->rlen);
        m->rbase = m->rraw + base;
        reset_recv(m);
        if (!m->fits && !(sp.rc * sp.rt->size < m->nbytes))
            fail_internal("message does not fit", &sp);
    }
}

/* the next round of a persistent message: new values in the same buffers */
static void msg_round(msg_t *m, int round, int role)
{
    m->sp.round = round;
    if (role & M_SEND) {
        fill_send(m, m->sraw, m->slen, m->sbase);
        memcpy(m->scopy, m->sraw, (size_t)m->slen);
    } else {
        long len, base;
        unsigned char *raw;
        geom(m->sp.st, m->sp.sc, &len, &base);
        raw = (unsigned char *)xmalloc((size_t)len);
        fill_send(m, raw, len, raw + base);
        free(raw);
    }
    if (role & M_RECV)
        reset_recv(m);
}

static void msg_free(msg_t *m)
{
    free(m->sraw);
    free(m->scopy);
    free(m->rraw);
    free(m->rexp);
    free(m->stream);
    memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------- checks of a message */

static const char *mdesc(const msg_t *m, char *buf, size_t n)
{
    const spec_t *s = &m->sp;
    snprintf(buf, n, "message %d->%d k %d tag %d (type %d x %ld, received as %s x %ld)", s->src, s->dst,
             s->k, s->tag, s->ti, s->sc, s->rv, s->rc);
    return buf;
}

static void check_bytes(ctx_t *c, const unsigned char *got, const unsigned char *want, long n,
                        const msg_t *m, const char *what)
{
    long i, bad = 0, first = -1;
    char d[200];
    for (i = 0; i < n; i++)
        if (got[i] != want[i]) {
            if (first < 0)
                first = i;
            bad++;
        }
    CK(c, bad == 0, "%s: %s: %ld of %ld bytes differ, first at byte %ld of the buffer (got 0x%02x, want 0x%02x)",
       mdesc(m, d, sizeof d), what, bad, n, first, first >= 0 ? got[first] : 0, first >= 0 ? want[first] : 0);
}

static int expect_count(long nbytes, long size)
{
    return nbytes % size == 0 ? (int)(nbytes / size) : MPI_UNDEFINED;
}

/* the receive buffer, the envelope, MPI_Get_count and MPI_Get_elements with the receive type
 * (where MPICH 4.0.2 counts it right: el_ok) and with MPI_BYTE: 6 or 7 checks */
static void check_recv(ctx_t *c, const msg_t *m, const MPI_Status *st, const char *how)
{
    const spec_t *s = &m->sp;
    int n;
    char d[200];
    check_bytes(c, m->rraw, m->rexp, m->rlen, m, how);
    CK(c, st->MPI_SOURCE == s->src, "%s: %s: MPI_SOURCE %d", mdesc(m, d, sizeof d), how, st->MPI_SOURCE);
    CK(c, st->MPI_TAG == s->tag, "%s: %s: MPI_TAG %d", mdesc(m, d, sizeof d), how, st->MPI_TAG);
    MC(MPI_Get_count(st, s->rt->h, &n));
    CK(c, n == expect_count(m->nbytes, s->rt->size), "%s: %s: MPI_Get_count with the receive type %d, want %d",
       mdesc(m, d, sizeof d), how, n, expect_count(m->nbytes, s->rt->size));
    if (s->rt->el_ok) {
        MC(MPI_Get_elements(st, s->rt->h, &n));
        CK(c, n == m->nelems, "%s: %s: MPI_Get_elements with the receive type %d, want %ld",
           mdesc(m, d, sizeof d), how, n, m->nelems);
    }
    MC(MPI_Get_count(st, MPI_BYTE, &n));
    CK(c, n == m->nbytes, "%s: %s: MPI_Get_count with MPI_BYTE %d, want %ld", mdesc(m, d, sizeof d), how, n,
       m->nbytes);
    MC(MPI_Get_elements(st, MPI_BYTE, &n));
    CK(c, n == m->nbytes, "%s: %s: MPI_Get_elements with MPI_BYTE %d, want %ld", mdesc(m, d, sizeof d), how, n,
       m->nbytes);
}

/* the status of a probe, before the receive: envelope, counts with the send type and bytes:
 * 4 or 5 checks */
static void check_probe(ctx_t *c, const msg_t *m, const MPI_Status *st, const char *how)
{
    const spec_t *s = &m->sp;
    int n;
    char d[200];
    CK(c, st->MPI_SOURCE == s->src, "%s: %s: MPI_SOURCE %d", mdesc(m, d, sizeof d), how, st->MPI_SOURCE);
    CK(c, st->MPI_TAG == s->tag, "%s: %s: MPI_TAG %d", mdesc(m, d, sizeof d), how, st->MPI_TAG);
    MC(MPI_Get_count(st, s->st->h, &n));
    CK(c, n == s->sc, "%s: %s: MPI_Get_count with the send type %d, want %ld", mdesc(m, d, sizeof d), how, n,
       s->sc);
    if (s->st->el_ok) {
        MC(MPI_Get_elements(st, s->st->h, &n));
        CK(c, n == m->nelems, "%s: %s: MPI_Get_elements with the send type %d, want %ld",
           mdesc(m, d, sizeof d), how, n, m->nelems);
    }
    MC(MPI_Get_count(st, MPI_BYTE, &n));
    CK(c, n == m->nbytes, "%s: %s: MPI_Get_count with MPI_BYTE %d, want %ld", mdesc(m, d, sizeof d), how, n,
       m->nbytes);
}

/* the send buffer was not written: 1 check */
static void check_send(ctx_t *c, const msg_t *m, const char *how)
{
    check_bytes(c, m->sraw, m->scopy, m->slen, m, how);
}

/* after a failed (truncated) receive: every byte holds what it held before, or the byte of
 * the message that fits there (the standard leaves the entries' content open, but nothing
 * that was not sent may appear in them), so every byte outside the receive type's entries is
 * unchanged: 1 check */
static void check_truncated(ctx_t *c, const msg_t *m, const char *how)
{
    long i, bad = 0, first = -1;
    char d[200];
    for (i = 0; i < m->rlen; i++)
        if (m->rraw[i] != m->rexp[i] && m->rraw[i] != recv_sentinel(m, i)) {
            if (first < 0)
                first = i;
            bad++;
        }
    CK(c, bad == 0,
       "%s: %s: %ld bytes hold neither what they held nor the message's bytes that fit, first at %ld",
       mdesc(m, d, sizeof d), how, bad, first);
}

#endif
