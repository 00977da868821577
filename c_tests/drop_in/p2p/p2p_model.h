/* Random derived datatypes and a model of their type maps, for p2p_random.c.
 *
 * Every type the test makes is a node_t: the MPI handle, and the test's own idea of the type
 * map for count 1 (a list of (displacement, primitive) entries in type-map order), its size,
 * data bounds, lower bound and extent.  The model is computed from the constructor arguments
 * alone, never from what the MPI library says, so that every choice the test makes (which
 * type, which receive type, which buffer size) is the same on every rank, in every run of a
 * seed, with or without mpi-dtype preloaded.  The "types" case then checks the library's
 * MPI_Type_size and MPI_Type_get_extent against the model.
 *
 * The generator keeps to the type maps on which the MPI standard and MPICH agree about the
 * bounds (docs/conformance.md lists where they do not), so that the same expected bytes hold
 * over the plain MPI library and under the preload:
 *   - every type's lower bound and extent are multiples of its alignment (the largest
 *     alignment of its primitives), and byte displacements and strides are multiples of the
 *     alignment of the type they place: then the standard's alignment padding (epsilon, on
 *     every type map) and MPICH's (only in structs, and counting the padding of pair types
 *     as data) give the same extent;
 *   - a block of length 0 sits at the displacement of a non-empty block of the same type, so
 *     that MPICH, which lets it move the bounds, finds the same bounds;
 *   - the members of a struct either all carry lb/ub markers (resized, subarray and darray
 *     types, and types built on them) or none does;
 *   - no type without data, no MPI_DISTRIBUTE_NONE over more than one process, no long double.
 *
 * MPI_Get_elements of MPICH 4.0.2 (MPIR_Type_get_elements, src/mpi/datatype/get_elements_x.c)
 * is wrong for many types with more than one primitive: it counts count copies of a vector,
 * not count x blocklength, takes ndims for the count of a subarray, compares element counts
 * with block counts in a struct, aborts on a darray (MPIR_Assert(0); a darray of one
 * primitive can get there too), divides by zero (SIGFPE) on primitives that differ but have
 * one size (struct {MPI_INT, MPI_FLOAT}) and on struct {MPI_2INT, MPI_DOUBLE}, and counts 0
 * with MPI_SHORT_INT.  MPICH 5.0.2 counts an MPI_2INT in a derived type as 1 element
 * (struct {MPI_INT; 3 x MPI_2INT}: 4, not 7).  el_ok marks the derived types whose element
 * count both get right: one primitive, no darray, no pair type.  The test calls
 * MPI_Get_elements with a derived type only for those (and with predefined types and MPI_BYTE
 * always), so that the plain MPICH runs pass.
 */
#ifndef P2P_MODEL_H
#define P2P_MODEL_H

#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- random numbers */

typedef struct {
    uint64_t s;
} rng_t;

static uint64_t rng_next(rng_t *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* 0 <= rnd(r, n) < n, for n >= 1 */
static int rnd(rng_t *r, int n)
{
    return (int)(rng_next(r) % (uint64_t)n);
}

/* A generator for a tuple of numbers (a seed and the place it is used in). */
static rng_t rng_for(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e)
{
    rng_t r;
    r.s = a;
    r.s = rng_next(&r) ^ (b * 0x100000001B3ULL);
    r.s = rng_next(&r) ^ (c * 0x100000001B3ULL);
    r.s = rng_next(&r) ^ (d * 0x100000001B3ULL);
    r.s = rng_next(&r) ^ (e * 0x100000001B3ULL);
    (void)rng_next(&r);
    return r;
}

static uint64_t hash4(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    rng_t r = rng_for(a, b, c, d, 0x5eed);
    return rng_next(&r);
}

/* ---------------------------------------------------------------- small helpers */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "p2p_random: out of memory (%zu bytes)\n", n);
        MPI_Abort(MPI_COMM_WORLD, 3);
        exit(3);
    }
    return p;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "p2p_random: out of memory (%zu bytes)\n", n);
        MPI_Abort(MPI_COMM_WORLD, 3);
        exit(3);
    }
    return q;
}

/* printf into a new string */
static char *strf(const char *fmt, ...)
{
    va_list ap;
    int n;
    char *s;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    s = (char *)xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* a growing string */
typedef struct {
    char *s;
    size_t len, cap;
} sbuf_t;

static void sb_add(sbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = (char *)xrealloc(b->s, b->cap);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static long floor_to(long v, long a)
{
    long q = v / a;
    if (v % a != 0 && v < 0)
        q--;
    return q * a;
}

static long ceil_to(long v, long a)
{
    return -floor_to(-v, a);
}

static void mpi_fatal(int rc, const char *call, const char *file, int line)
{
    char msg[MPI_MAX_ERROR_STRING + 1];
    int len = 0;
    msg[0] = 0;
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "p2p_random: %s:%d: %s returned %d: %s\n", file, line, call, rc, msg);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

/* every MPI call that must succeed */
#define MC(call)                                                                           \
    do {                                                                                   \
        int mc_rc_ = (call);                                                               \
        if (mc_rc_ != MPI_SUCCESS)                                                         \
            mpi_fatal(mc_rc_, #call, __FILE__, __LINE__);                                  \
    } while (0)

/* ---------------------------------------------------------------- primitive types */

enum { VK_INT, VK_FLOAT, VK_DOUBLE, VK_COMPLEX };

enum {
    P_CHAR,
    P_BYTE,
    P_SHORT,
    P_INT,
    P_UNSIGNED,
    P_LONG,
    P_LONG_LONG,
    P_FLOAT,
    P_DOUBLE,
    P_DCOMPLEX,
    P_INT16,
    P_UINT64,
    NPRIMS
};

typedef struct {
    const char *name;
    int size, align, vk;
} prim_t;

static const prim_t prims[NPRIMS] = {
    {"MPI_CHAR", 1, 1, VK_INT},         {"MPI_BYTE", 1, 1, VK_INT},
    {"MPI_SHORT", 2, 2, VK_INT},        {"MPI_INT", 4, 4, VK_INT},
    {"MPI_UNSIGNED", 4, 4, VK_INT},     {"MPI_LONG", 8, 8, VK_INT},
    {"MPI_LONG_LONG", 8, 8, VK_INT},    {"MPI_FLOAT", 4, 4, VK_FLOAT},
    {"MPI_DOUBLE", 8, 8, VK_DOUBLE},    {"MPI_C_DOUBLE_COMPLEX", 16, 8, VK_COMPLEX},
    {"MPI_INT16_T", 2, 2, VK_INT},      {"MPI_UINT64_T", 8, 8, VK_INT},
};

static MPI_Datatype prim_handle(int p)
{
    switch (p) {
    case P_CHAR: return MPI_CHAR;
    case P_BYTE: return MPI_BYTE;
    case P_SHORT: return MPI_SHORT;
    case P_INT: return MPI_INT;
    case P_UNSIGNED: return MPI_UNSIGNED;
    case P_LONG: return MPI_LONG;
    case P_LONG_LONG: return MPI_LONG_LONG;
    case P_FLOAT: return MPI_FLOAT;
    case P_DOUBLE: return MPI_DOUBLE;
    case P_DCOMPLEX: return MPI_C_DOUBLE_COMPLEX;
    case P_INT16: return MPI_INT16_T;
    default: return MPI_UINT64_T;
    }
}

/* The pair types: the type maps of the C structs they stand for. */
enum { PAIR_DOUBLE_INT, PAIR_2INT, PAIR_SHORT_INT, NPAIRS };

typedef struct {
    const char *name;
    int part[2];
    long pdisp[2];
    long ext;
    int align;
} pair_t;

static const pair_t pairs[NPAIRS] = {
    {"MPI_DOUBLE_INT", {P_DOUBLE, P_INT}, {0, 8}, 16, 8},
    {"MPI_2INT", {P_INT, P_INT}, {0, 4}, 8, 4},
    {"MPI_SHORT_INT", {P_SHORT, P_INT}, {0, 4}, 8, 4},
};

static MPI_Datatype pair_handle(int i)
{
    switch (i) {
    case PAIR_DOUBLE_INT: return MPI_DOUBLE_INT;
    case PAIR_2INT: return MPI_2INT;
    default: return MPI_SHORT_INT;
    }
}

/* ---------------------------------------------------------------- the model */

typedef struct {
    long disp;
    int p; /* primitive */
} ent_t;

typedef struct node {
    MPI_Datatype h;
    int leaf;    /* 1: a predefined type (never freed) */
    int keep;    /* 1: used for communication (committed, freed at the end of the seed) */
    ent_t *e;    /* type map for count 1, in type-map order */
    long ne, ecap;
    long size;   /* bytes of data */
    long lb, ext;
    long tlb, tub; /* least displacement and greatest end of the data */
    int align;
    int markers; /* the type map carries lb/ub markers */
    int overlap; /* two entries of the count-1 type map overlap */
    int prim;    /* the primitive of every entry, or -1 if they differ */
    int el_ok;   /* MPICH 4.0.2 counts its elements right (see below) */
    int has_darray; /* a darray is among its parts */
    int has_pair; /* a pair type is among its leaves */
    int esize;   /* the size of every primitive, or -1 if they differ in size */
    char *desc;
    struct node *next;
} node_t;

static node_t g_leaves[NPRIMS + NPAIRS];
static node_t *g_nodes; /* every derived node of the current seed */

static void init_leaves(void)
{
    int i;
    for (i = 0; i < NPRIMS; i++) {
        node_t *n = &g_leaves[i];
        memset(n, 0, sizeof *n);
        n->h = prim_handle(i);
        n->leaf = 1;
        n->e = (ent_t *)xmalloc(sizeof(ent_t));
        n->e[0].disp = 0;
        n->e[0].p = i;
        n->ne = n->ecap = 1;
        n->size = prims[i].size;
        n->lb = n->tlb = 0;
        n->ext = n->tub = prims[i].size;
        n->align = prims[i].align;
        n->prim = i;
        n->el_ok = 1;
        n->esize = prims[i].size;
        n->desc = (char *)prims[i].name;
    }
    for (i = 0; i < NPAIRS; i++) {
        node_t *n = &g_leaves[NPRIMS + i];
        const pair_t *q = &pairs[i];
        memset(n, 0, sizeof *n);
        n->h = pair_handle(i);
        n->leaf = 1;
        n->e = (ent_t *)xmalloc(2 * sizeof(ent_t));
        n->e[0].disp = q->pdisp[0];
        n->e[0].p = q->part[0];
        n->e[1].disp = q->pdisp[1];
        n->e[1].p = q->part[1];
        n->ne = n->ecap = 2;
        n->size = prims[q->part[0]].size + prims[q->part[1]].size;
        n->lb = n->tlb = 0;
        n->tub = q->pdisp[1] + prims[q->part[1]].size;
        n->ext = q->ext;
        n->align = q->align;
        n->prim = q->part[0] == q->part[1] ? q->part[0] : -1;
        n->el_ok = 1;
        n->esize = prims[q->part[0]].size == prims[q->part[1]].size ? prims[q->part[0]].size : -1;
        n->has_pair = 1;
        n->desc = (char *)q->name;
    }
}

/* Building a node: place copies of children at offsets, then finish. */
typedef struct {
    node_t *n;
    long cap;      /* most entries allowed */
    int bad, any, seen_mk, seen_nomk;
    long mlb, mub; /* markers seen */
} bld_t;

static void b_init(bld_t *b, long cap)
{
    memset(b, 0, sizeof *b);
    b->n = (node_t *)xmalloc(sizeof(node_t));
    memset(b->n, 0, sizeof(node_t));
    b->n->h = MPI_DATATYPE_NULL;
    b->n->align = 1;
    b->cap = cap;
}

static void b_place(bld_t *b, const node_t *c, long off)
{
    node_t *n = b->n;
    long i;
    if (b->bad)
        return;
    if (n->ne + c->ne > b->cap) {
        b->bad = 1;
        return;
    }
    if (n->ne + c->ne > n->ecap) {
        n->ecap = (n->ne + c->ne) * 2;
        n->e = (ent_t *)xrealloc(n->e, (size_t)n->ecap * sizeof(ent_t));
    }
    for (i = 0; i < c->ne; i++) {
        n->e[n->ne + i].disp = c->e[i].disp + off;
        n->e[n->ne + i].p = c->e[i].p;
    }
    n->ne += c->ne;
    if (!b->any || off + c->tlb < n->tlb)
        n->tlb = off + c->tlb;
    if (!b->any || off + c->tub > n->tub)
        n->tub = off + c->tub;
    b->any = 1;
    n->size += c->size;
    n->has_darray |= c->has_darray;
    n->has_pair |= c->has_pair;
    if (c->align > n->align)
        n->align = c->align;
    if (c->markers) {
        if (!b->seen_mk || off + c->lb < b->mlb)
            b->mlb = off + c->lb;
        if (!b->seen_mk || off + c->lb + c->ext > b->mub)
            b->mub = off + c->lb + c->ext;
        b->seen_mk = 1;
    } else {
        b->seen_nomk = 1;
    }
}

static int cmp_ent(const void *a, const void *b)
{
    const ent_t *x = (const ent_t *)a, *y = (const ent_t *)b;
    return x->disp < y->disp ? -1 : x->disp > y->disp ? 1 : 0;
}

/* whether two of the n entries overlap */
static int entries_overlap(const ent_t *e, long n)
{
    ent_t *s;
    long i;
    int ov = 0;
    if (n < 2)
        return 0;
    s = (ent_t *)xmalloc((size_t)n * sizeof(ent_t));
    memcpy(s, e, (size_t)n * sizeof(ent_t));
    qsort(s, (size_t)n, sizeof(ent_t), cmp_ent);
    for (i = 0; i + 1 < n && !ov; i++)
        if (s[i].disp + prims[s[i].p].size > s[i + 1].disp)
            ov = 1;
    free(s);
    return ov;
}

static void node_free_model(node_t *n)
{
    free(n->e);
    free(n->desc);
    free(n);
}

/* The model of the node being built, or NULL when it is outside the generator's rules
 * (explicit: the bounds of a resize). */
static node_t *b_finish(bld_t *b, int explicit_bounds, long lb, long ext)
{
    node_t *n = b->n;
    long i;
    if (b->bad || !b->any || n->size == 0 || (b->seen_mk && b->seen_nomk)) {
        node_free_model(n);
        return NULL;
    }
    if (explicit_bounds) {
        n->markers = 1;
        n->lb = lb;
        n->ext = ext;
    } else if (b->seen_mk) {
        n->markers = 1;
        n->lb = b->mlb;
        n->ext = b->mub - b->mlb;
    } else {
        n->markers = 0;
        n->lb = n->tlb;
        n->ext = ceil_to(n->tub - n->tlb, n->align);
    }
    if (n->ext <= 0 || n->lb % n->align != 0 || n->ext % n->align != 0 || n->tub - n->tlb > (1L << 22)) {
        node_free_model(n);
        return NULL;
    }
    n->prim = n->e[0].p;
    for (i = 1; i < n->ne; i++)
        if (n->e[i].p != n->prim) {
            n->prim = -1;
            break;
        }
    n->esize = prims[n->e[0].p].size;
    for (i = 1; i < n->ne; i++)
        if (prims[n->e[i].p].size != n->esize) {
            n->esize = -1;
            break;
        }
    n->overlap = entries_overlap(n->e, n->ne);
    return n;
}

static node_t *reg(node_t *n, MPI_Datatype h, char *desc)
{
    n->el_ok = n->prim >= 0 && !n->has_darray && !n->has_pair;
    n->h = h;
    n->desc = desc;
    n->next = g_nodes;
    g_nodes = n;
    return n;
}

/* count copies of t can be a receive buffer: no two entries overlap */
static int receivable(const node_t *t, long count)
{
    if (count == 0)
        return 1;
    if (t->overlap)
        return 0;
    return count == 1 || t->ext >= t->tub - t->tlb;
}

/* ---------------------------------------------------------------- constructors */

static char *list_int(const int *v, int n)
{
    sbuf_t b = {NULL, 0, 0};
    int i;
    sb_add(&b, "[");
    for (i = 0; i < n; i++)
        sb_add(&b, i ? ",%d" : "%d", v[i]);
    sb_add(&b, "]");
    return b.s;
}

static char *list_long(const long *v, int n)
{
    sbuf_t b = {NULL, 0, 0};
    int i;
    sb_add(&b, "[");
    for (i = 0; i < n; i++)
        sb_add(&b, i ? ",%ld" : "%ld", v[i]);
    sb_add(&b, "]");
    return b.s;
}

static node_t *mk_contig(int count, node_t *c, long cap)
{
    bld_t b;
    node_t *n;
    MPI_Datatype h;
    int i;
    b_init(&b, cap);
    for (i = 0; i < count; i++)
        b_place(&b, c, i * c->ext);
    if (!(n = b_finish(&b, 0, 0, 0)))
        return NULL;
    MC(MPI_Type_contiguous(count, c->h, &h));
    return reg(n, h, strf("contiguous(%d,%s)", count, c->desc));
}

/* vector (stride in extents of c) or hvector (stride in bytes) */
static node_t *mk_vector(int count, int bl, long stride, int bytes, node_t *c, long cap)
{
    bld_t b;
    node_t *n;
    MPI_Datatype h;
    int i, j;
    b_init(&b, cap);
    for (i = 0; i < count; i++)
        for (j = 0; j < bl; j++)
            b_place(&b, c, (bytes ? i * stride : i * stride * c->ext) + j * c->ext);
    if (!(n = b_finish(&b, 0, 0, 0)))
        return NULL;
    if (bytes) {
        MC(MPI_Type_create_hvector(count, bl, (MPI_Aint)stride, c->h, &h));
        return reg(n, h, strf("hvector(%d,%d,%ld,%s)", count, bl, stride, c->desc));
    }
    MC(MPI_Type_vector(count, bl, (int)stride, c->h, &h));
    return reg(n, h, strf("vector(%d,%d,%ld,%s)", count, bl, stride, c->desc));
}

/* indexed / hindexed (bytes) / indexed_block / hindexed_block (block: every bl[i] == bl[0]) */
static node_t *mk_indexed(int n_, const int *bl, const long *disp, int bytes, int block, node_t *c,
                          long cap)
{
    bld_t b;
    node_t *n;
    MPI_Datatype h;
    int i, j, *idisp;
    MPI_Aint *adisp;
    char *sbl, *sd;
    b_init(&b, cap);
    for (i = 0; i < n_; i++)
        for (j = 0; j < bl[i]; j++)
            b_place(&b, c, (bytes ? disp[i] : disp[i] * c->ext) + j * c->ext);
    if (!(n = b_finish(&b, 0, 0, 0)))
        return NULL;
    idisp = (int *)xmalloc((size_t)n_ * sizeof(int));
    adisp = (MPI_Aint *)xmalloc((size_t)n_ * sizeof(MPI_Aint));
    for (i = 0; i < n_; i++) {
        idisp[i] = (int)disp[i];
        adisp[i] = (MPI_Aint)disp[i];
    }
    sbl = list_int(bl, n_);
    sd = list_long(disp, n_);
    if (block && bytes) {
        MC(MPI_Type_create_hindexed_block(n_, bl[0], adisp, c->h, &h));
        reg(n, h, strf("hindexed_block(%d,%d,%s,%s)", n_, bl[0], sd, c->desc));
    } else if (block) {
        MC(MPI_Type_create_indexed_block(n_, bl[0], idisp, c->h, &h));
        reg(n, h, strf("indexed_block(%d,%d,%s,%s)", n_, bl[0], sd, c->desc));
    } else if (bytes) {
        MC(MPI_Type_create_hindexed(n_, bl, adisp, c->h, &h));
        reg(n, h, strf("hindexed(%d,%s,%s,%s)", n_, sbl, sd, c->desc));
    } else {
        MC(MPI_Type_indexed(n_, bl, idisp, c->h, &h));
        reg(n, h, strf("indexed(%d,%s,%s,%s)", n_, sbl, sd, c->desc));
    }
    free(sbl);
    free(sd);
    free(idisp);
    free(adisp);
    return n;
}

static node_t *mk_struct(int n_, const int *bl, const long *disp, node_t *const *c, long cap)
{
    bld_t b;
    node_t *n;
    MPI_Datatype h, *types;
    MPI_Aint *adisp;
    sbuf_t d = {NULL, 0, 0};
    int i, j;
    b_init(&b, cap);
    for (i = 0; i < n_; i++)
        for (j = 0; j < bl[i]; j++)
            b_place(&b, c[i], disp[i] + j * c[i]->ext);
    if (!(n = b_finish(&b, 0, 0, 0)))
        return NULL;
    types = (MPI_Datatype *)xmalloc((size_t)n_ * sizeof(MPI_Datatype));
    adisp = (MPI_Aint *)xmalloc((size_t)n_ * sizeof(MPI_Aint));
    for (i = 0; i < n_; i++) {
        types[i] = c[i]->h;
        adisp[i] = (MPI_Aint)disp[i];
    }
    MC(MPI_Type_create_struct(n_, bl, adisp, types, &h));
    sb_add(&d, "struct(%d,", n_);
    {
        char *s1 = list_int(bl, n_), *s2 = list_long(disp, n_);
        sb_add(&d, "%s,%s,[", s1, s2);
        free(s1);
        free(s2);
    }
    for (i = 0; i < n_ && i < 64; i++)
        sb_add(&d, i ? ",%s" : "%s", c[i]->desc);
    sb_add(&d, n_ > 64 ? ",...])" : "])");
    free(types);
    free(adisp);
    return reg(n, h, d.s);
}

/* ascending index tuples of a (sub)array: for each of nd dimensions the list of indices
 * idx[d][0..cnt[d]-1]; the elements are placed in memory order, at their linear index in the
 * array of gsizes (C: dimension 0 slowest; Fortran: dimension 0 fastest) times c->ext */
static void place_array(bld_t *b, int nd, const int *gsizes, int *const *idx, const int *cnt,
                        int fortran, node_t *c)
{
    int pos[3] = {0, 0, 0}, d;
    for (d = 0; d < nd; d++)
        if (cnt[d] == 0)
            return;
    for (;;) {
        long lin = 0;
        if (fortran) {
            for (d = nd - 1; d >= 0; d--)
                lin = lin * gsizes[d] + idx[d][pos[d]];
        } else {
            for (d = 0; d < nd; d++)
                lin = lin * gsizes[d] + idx[d][pos[d]];
        }
        b_place(b, c, lin * c->ext);
        if (b->bad)
            return;
        /* next tuple: the fastest dimension first */
        if (fortran) {
            for (d = 0; d < nd; d++) {
                if (++pos[d] < cnt[d])
                    break;
                pos[d] = 0;
            }
            if (d == nd)
                return;
        } else {
            for (d = nd - 1; d >= 0; d--) {
                if (++pos[d] < cnt[d])
                    break;
                pos[d] = 0;
            }
            if (d < 0)
                return;
        }
    }
}

static node_t *mk_subarray(int nd, const int *sizes, const int *subsizes, const int *starts,
                           int fortran, node_t *c, long cap)
{
    bld_t b;
    node_t *n;
    MPI_Datatype h;
    int d, i, *idx[3], cnt[3];
    long prod = 1;
    char *s1, *s2, *s3;
    b_init(&b, cap);
    for (d = 0; d < nd; d++) {
        idx[d] = (int *)xmalloc((size_t)subsizes[d] * sizeof(int));
        for (i = 0; i < subsizes[d]; i++)
            idx[d][i] = starts[d] + i;
        cnt[d] = subsizes[d];
        prod *= sizes[d];
    }
    place_array(&b, nd, sizes, idx, cnt, fortran, c);
    for (d = 0; d < nd; d++)
        free(idx[d]);
    if (!(n = b_finish(&b, 1, 0, prod * c->ext)))
        return NULL;
    MC(MPI_Type_create_subarray(nd, sizes, subsizes, starts,
                                fortran ? MPI_ORDER_FORTRAN : MPI_ORDER_C, c->h, &h));
    s1 = list_int(sizes, nd);
    s2 = list_int(subsizes, nd);
    s3 = list_int(starts, nd);
    reg(n, h, strf("subarray(%d,%s,%s,%s,%s,%s)", nd, s1, s2, s3, fortran ? "F" : "C", c->desc));
    free(s1);
    free(s2);
    free(s3);
    return n;
}

enum { DIST_BLOCK, DIST_CYCLIC, DIST_NONE };

static node_t *mk_darray(int size, int rank, int nd, const int *gsizes, const int *dist,
                         const int *darg, const int *psizes, int fortran, node_t *c, long cap)
{
    bld_t b;
    node_t *n;
    MPI_Datatype h;
    int d, i, *idx[3], cnt[3], coords[3], rem = rank, mdist[3], mdarg[3];
    long prod = 1;
    sbuf_t ds = {NULL, 0, 0};
    for (d = nd - 1; d >= 0; d--) { /* process coordinates are row-major */
        coords[d] = rem % psizes[d];
        rem /= psizes[d];
    }
    b_init(&b, cap);
    for (d = 0; d < nd; d++) {
        int g = gsizes[d], p = psizes[d];
        idx[d] = (int *)xmalloc((size_t)g * sizeof(int));
        cnt[d] = 0;
        prod *= g;
        if (dist[d] == DIST_NONE) {
            for (i = 0; i < g; i++)
                idx[d][cnt[d]++] = i;
        } else if (dist[d] == DIST_BLOCK) {
            int blk = darg[d] > 0 ? darg[d] : (g + p - 1) / p;
            for (i = coords[d] * blk; i < (coords[d] + 1) * blk && i < g; i++)
                idx[d][cnt[d]++] = i;
        } else {
            int k = darg[d] > 0 ? darg[d] : 1, s;
            for (s = coords[d] * k; s < g; s += p * k)
                for (i = s; i < s + k && i < g; i++)
                    idx[d][cnt[d]++] = i;
        }
    }
    place_array(&b, nd, gsizes, idx, cnt, fortran, c);
    for (d = 0; d < nd; d++)
        free(idx[d]);
    if (!(n = b_finish(&b, 1, 0, prod * c->ext)))
        return NULL;
    n->has_darray = 1;
    for (d = 0; d < nd; d++) {
        mdist[d] = dist[d] == DIST_BLOCK ? MPI_DISTRIBUTE_BLOCK
                   : dist[d] == DIST_CYCLIC ? MPI_DISTRIBUTE_CYCLIC
                                            : MPI_DISTRIBUTE_NONE;
        mdarg[d] = darg[d] > 0 ? darg[d] : MPI_DISTRIBUTE_DFLT_DARG;
        sb_add(&ds, "%s%s:%d/%d:%d", d ? "," : "",
               dist[d] == DIST_BLOCK ? "BLOCK" : dist[d] == DIST_CYCLIC ? "CYCLIC" : "NONE",
               darg[d], psizes[d], gsizes[d]);
    }
    MC(MPI_Type_create_darray(size, rank, nd, gsizes, mdist, mdarg, psizes,
                              fortran ? MPI_ORDER_FORTRAN : MPI_ORDER_C, c->h, &h));
    reg(n, h, strf("darray(%d,%d,[%s],%s,%s)", size, rank, ds.s, fortran ? "F" : "C", c->desc));
    free(ds.s);
    return n;
}

static node_t *mk_resized(node_t *c, long lb, long ext, long cap)
{
    bld_t b;
    node_t *n;
    MPI_Datatype h;
    b_init(&b, cap);
    b_place(&b, c, 0);
    if (!(n = b_finish(&b, 1, lb, ext)))
        return NULL;
    MC(MPI_Type_create_resized(c->h, (MPI_Aint)lb, (MPI_Aint)ext, &h));
    return reg(n, h, strf("resized(%ld,%ld,%s)", lb, ext, c->desc));
}

static node_t *mk_dup(node_t *c, long cap)
{
    bld_t b;
    node_t *n;
    MPI_Datatype h;
    b_init(&b, cap);
    b_place(&b, c, 0);
    if (!(n = b_finish(&b, c->markers, c->lb, c->ext)))
        return NULL;
    MC(MPI_Type_dup(c->h, &h));
    return reg(n, h, strf("dup(%s)", c->desc));
}

/* ---------------------------------------------------------------- the generator */

#define GEN_CAP 768 /* entries of a generated type (count 1) */
#define MAXDEPTH 3  /* levels of derived types */

enum {
    K_CONTIG,
    K_VECTOR,
    K_HVECTOR,
    K_INDEXED,
    K_HINDEXED,
    K_INDEXED_BLOCK,
    K_HINDEXED_BLOCK,
    K_STRUCT,
    K_SUBARRAY,
    K_DARRAY,
    K_RESIZED,
    K_DUP,
    NKINDS
};

typedef struct {
    rng_t *r;
    int ovl;       /* entries may overlap (a type only to send) */
    int only_prim; /* >= 0: every primitive is this one (a homogeneous type) */
} gen_t;

static node_t *gen_leaf(gen_t *g)
{
    int k;
    if (g->only_prim >= 0)
        return &g_leaves[g->only_prim];
    k = rnd(g->r, 16);
    if (k < 2)
        return &g_leaves[NPRIMS + rnd(g->r, NPAIRS)];
    return &g_leaves[rnd(g->r, NPRIMS)];
}

/* a leaf in a resize that keeps its data inside the markers (a member with markers) */
static node_t *gen_marked_leaf(gen_t *g)
{
    node_t *l = gen_leaf(g), *n;
    long a = l->align;
    n = mk_resized(l, -a * rnd(g->r, 2), l->ext + a * (1 + rnd(g->r, 3)), GEN_CAP);
    return n ? n : mk_resized(l, 0, l->ext, GEN_CAP);
}

static node_t *gen_node(gen_t *g, int depth);

static node_t *gen_child(gen_t *g, int depth)
{
    if (depth >= MAXDEPTH || rnd(g->r, 3) == 0)
        return gen_leaf(g);
    return gen_node(g, depth + 1);
}

/* Displacements of n blocks of bl[i] elements, each element `unit` apart in the units of
 * the displacement, laid out in a random order with gaps of multiples of `step`, shifted so
 * that some may be negative; blocks of length 0 take the displacement of a non-empty block.
 * With ovl, the displacements are random and blocks may overlap. */
static void layout(gen_t *g, int n, const int *bl, long unit, long step, long *disp)
{
    int perm[8], i, j, nonzero = -1;
    long pos = 0, shift;
    for (i = 0; i < n; i++)
        perm[i] = i;
    for (i = n - 1; i > 0; i--) {
        int k = rnd(g->r, i + 1), t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
    }
    for (j = 0; j < n; j++) {
        i = perm[j];
        if (bl[i] == 0)
            continue;
        if (nonzero < 0)
            nonzero = i;
        else
            pos += step * rnd(g->r, 3);
        if (g->ovl && rnd(g->r, 2))
            disp[i] = step * (rnd(g->r, 9) - 4);
        else
            disp[i] = pos;
        pos = disp[i] + bl[i] * unit > pos ? disp[i] + bl[i] * unit : pos;
    }
    shift = step * rnd(g->r, (int)(pos / step / 2 + 1));
    for (i = 0; i < n; i++)
        disp[i] -= shift;
    for (i = 0; i < n; i++)
        if (bl[i] == 0)
            disp[i] = disp[nonzero];
}

static node_t *gen_kind(gen_t *g, int kind, node_t *c, int depth)
{
    rng_t *r = g->r;
    int i;
    switch (kind) {
    case K_CONTIG:
        return mk_contig(1 + rnd(r, 4), c, GEN_CAP);
    case K_VECTOR: {
        int count = 1 + rnd(r, 4), bl = 1 + rnd(r, 3);
        long stride = g->ovl ? rnd(r, bl + 2) : bl + rnd(r, 3);
        if (rnd(r, 4) == 0)
            stride = -stride;
        return mk_vector(count, bl, stride, 0, c, GEN_CAP);
    }
    case K_HVECTOR: {
        int count = 1 + rnd(r, 4), bl = 1 + rnd(r, 3);
        long a = c->align, stride;
        if (g->ovl)
            stride = a * rnd(r, (int)(bl * c->ext / a) + 2);
        else
            stride = bl * c->ext + a * rnd(r, 4);
        if (rnd(r, 4) == 0)
            stride = -stride;
        return mk_vector(count, bl, stride, 1, c, GEN_CAP);
    }
    case K_INDEXED:
    case K_HINDEXED:
    case K_INDEXED_BLOCK:
    case K_HINDEXED_BLOCK: {
        int n = 1 + rnd(r, 4), bl[8], bytes = kind == K_HINDEXED || kind == K_HINDEXED_BLOCK;
        int block = kind == K_INDEXED_BLOCK || kind == K_HINDEXED_BLOCK, any = 0;
        long disp[8];
        for (i = 0; i < n; i++) {
            bl[i] = block ? (i ? bl[0] : 1 + rnd(r, 3)) : (rnd(r, 5) == 0 ? 0 : 1 + rnd(r, 3));
            any |= bl[i] > 0;
        }
        if (!any)
            bl[0] = 1;
        if (bytes)
            layout(g, n, bl, c->ext, c->align, disp);
        else
            layout(g, n, bl, 1, 1, disp);
        return mk_indexed(n, bl, disp, bytes, block, c, GEN_CAP);
    }
    case K_STRUCT: {
        int n = 1 + rnd(r, 4), bl[8], perm[8], j, mk, zero;
        long disp[8], pos = 0, amax = 1, shift;
        node_t *m[8];
        for (i = 0; i < n; i++) {
            m[i] = (i == 0 && c) ? c : gen_child(g, depth);
            bl[i] = 1 + rnd(r, 3);
        }
        mk = m[0]->markers;
        for (i = 1; i < n; i++)
            if (m[i]->markers != mk)
                m[i] = mk ? gen_marked_leaf(g) : gen_leaf(g);
        for (i = 0; i < n; i++)
            if (m[i]->align > amax)
                amax = m[i]->align;
        for (i = 0; i < n; i++)
            perm[i] = i;
        for (i = n - 1; i > 0; i--) {
            int k = rnd(r, i + 1), t = perm[i];
            perm[i] = perm[k];
            perm[k] = t;
        }
        /* memory order perm; the data of a member's blocks lie in
         * [disp + tlb, disp + tlb + bl * ext) (its extent covers its data) */
        for (j = 0; j < n; j++) {
            long a = mk ? amax : m[perm[j]]->align;
            i = perm[j];
            if (j > 0)
                pos = ceil_to(pos, a) + a * rnd(r, 3);
            if (g->ovl && rnd(r, 3) == 0)
                pos = a * (rnd(r, 5) - 2);
            disp[i] = pos - floor_to(m[i]->tlb, a);
            pos = disp[i] + m[i]->tlb + bl[i] * m[i]->ext;
        }
        shift = amax * rnd(r, (int)(pos / amax / 2 + 1));
        for (i = 0; i < n; i++)
            disp[i] -= shift;
        /* a member of length 0 beside a copy of another member */
        zero = rnd(r, 4) == 0;
        if (zero) {
            int src = rnd(r, n), at = rnd(r, n + 1);
            for (i = n; i > at; i--) {
                m[i] = m[i - 1];
                bl[i] = bl[i - 1];
                disp[i] = disp[i - 1];
            }
            if (src >= at)
                src++;
            m[at] = m[src];
            bl[at] = 0;
            disp[at] = disp[src];
            n++;
        }
        return mk_struct(n, bl, disp, m, GEN_CAP);
    }
    case K_SUBARRAY: {
        int nd = 1 + rnd(r, 3), sizes[3], sub[3], starts[3];
        for (i = 0; i < nd; i++) {
            sizes[i] = 1 + rnd(r, 4);
            sub[i] = 1 + rnd(r, sizes[i]);
            starts[i] = rnd(r, sizes[i] - sub[i] + 1);
        }
        return mk_subarray(nd, sizes, sub, starts, rnd(r, 2), c, GEN_CAP);
    }
    case K_DARRAY: {
        int nd = 1 + rnd(r, 2), gs[3], dist[3], darg[3], ps[3], size = 1;
        for (i = 0; i < nd; i++) {
            ps[i] = 1 + rnd(r, 2);
            size *= ps[i];
            gs[i] = 2 + rnd(r, 5);
            dist[i] = rnd(r, 3);
            if (dist[i] == DIST_NONE && ps[i] > 1)
                dist[i] = DIST_BLOCK;
            if (dist[i] == DIST_BLOCK)
                darg[i] = rnd(r, 2) ? 0 : (gs[i] + ps[i] - 1) / ps[i] + rnd(r, 2);
            else if (dist[i] == DIST_CYCLIC)
                darg[i] = rnd(r, 2) ? 0 : 1 + rnd(r, 3);
            else
                darg[i] = 0;
        }
        return mk_darray(size, rnd(r, size), nd, gs, dist, darg, ps, rnd(r, 2), c, GEN_CAP);
    }
    case K_RESIZED: {
        long a = c->align, lb, ub;
        if (g->ovl && rnd(r, 2)) {
            lb = floor_to(c->tlb, a) + a * rnd(r, 2);
            ub = lb + a * (1 + rnd(r, (int)((c->tub - c->tlb) / a + 1)));
        } else {
            lb = floor_to(c->tlb, a) - a * rnd(r, 3);
            ub = ceil_to(c->tub, a) + a * rnd(r, 3);
        }
        return mk_resized(c, lb, ub - lb, GEN_CAP);
    }
    default:
        return mk_dup(c, GEN_CAP);
    }
}

static node_t *gen_node(gen_t *g, int depth)
{
    node_t *c = NULL, *n;
    int attempt;
    for (attempt = 0; attempt < 10; attempt++) {
        int kind = rnd(g->r, NKINDS);
        if (kind != K_STRUCT && !c)
            c = gen_child(g, depth);
        n = gen_kind(g, kind, kind == K_STRUCT ? (rnd(g->r, 2) ? c : NULL) : c, depth);
        if (n)
            return n;
    }
    if (!c)
        c = gen_leaf(g);
    n = mk_contig(1, c, GEN_CAP);
    if (!n) { /* cannot happen: one copy of a valid type is valid */
        fprintf(stderr, "p2p_random: generator: contiguous(1, %s) refused\n", c->desc);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return n;
}

/* ---------------------------------------------------------------- same signature, other layout */

/* A type whose type signature is that of r copies of t, laid out differently: a struct (or,
 * for one primitive, contiguous or hindexed) of the runs of equal primitives, placed in memory
 * in the reverse order with gaps, so that it shares t's signature and nothing else. */
static node_t *mk_sig(const node_t *t, int r, rng_t *rg, int contiguous_ok)
{
    long total = t->ne * r, nruns = 0, i, pos = 0, amax = 1;
    int *bl, *p;
    long *disp;
    node_t *n, **m;
    bl = (int *)xmalloc((size_t)total * sizeof(int));
    p = (int *)xmalloc((size_t)total * sizeof(int));
    disp = (long *)xmalloc((size_t)total * sizeof(long));
    for (i = 0; i < total; i++) {
        int q = t->e[i % t->ne].p;
        /* runs of one primitive; long runs of one primitive are cut at random */
        if (nruns > 0 && p[nruns - 1] == q && rnd(rg, 6) != 0)
            bl[nruns - 1]++;
        else {
            p[nruns] = q;
            bl[nruns] = 1;
            nruns++;
        }
        if (prims[q].align > amax)
            amax = prims[q].align;
    }
    if (t->prim >= 0 && contiguous_ok) {
        n = mk_contig((int)total, &g_leaves[t->prim], 1L << 24);
    } else {
        for (i = nruns - 1; i >= 0; i--) { /* reverse memory order */
            disp[i] = pos;
            pos += bl[i] * prims[p[i]].size;
            pos = ceil_to(pos, amax) + amax * rnd(rg, 2);
        }
        for (i = 0; i < nruns; i++)
            disp[i] -= ceil_to(pos / 2, amax);
        if (t->prim >= 0) {
            n = mk_indexed((int)nruns, bl, disp, 1, 0, &g_leaves[t->prim], 1L << 24);
        } else {
            m = (node_t **)xmalloc((size_t)nruns * sizeof(node_t *));
            for (i = 0; i < nruns; i++)
                m[i] = &g_leaves[p[i]];
            n = mk_struct((int)nruns, bl, disp, m, 1L << 24);
            free(m);
        }
    }
    free(bl);
    free(p);
    free(disp);
    if (!n) {
        fprintf(stderr, "p2p_random: mk_sig refused a layout of %s\n", t->desc);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return n;
}

/* Frees the MPI handles of the nodes not kept; with all, every node and its model. */
static void free_nodes(int all)
{
    node_t **pp = &g_nodes;
    while (*pp) {
        node_t *n = *pp;
        if (n->h != MPI_DATATYPE_NULL && (all || !n->keep))
            MC(MPI_Type_free(&n->h));
        if (all) {
            *pp = n->next;
            node_free_model(n);
        } else {
            pp = &n->next;
        }
    }
}

#endif
