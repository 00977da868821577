/* Generated selections checked against real HDF5 (serial libhdf5) and a bitmap model.
 *
 * Every case is one description (rank 0..5, extent, element size 1..16, a sequence of
 * all / none / hyperslab / point selections with every operator, an offset, a bigio threshold)
 * applied both to an HDF5 dataspace and to an h5s_space. Checked for every case:
 *   - each call succeeds or fails in both, and failed calls leave the port's space unchanged;
 *   - npoints and validity agree with HDF5 and with the set-semantics bitmap model;
 *   - MPI_Pack with the port's type equals H5Dgather (sorted by file offset when permuted), and
 *     the model's gather; MPI_Unpack equals H5Dscatter;
 *   - the packed size is npoints * element size;
 *   - the decoded type map has non-decreasing displacements (file side) and no constructor count
 *     above the bigio threshold, and matches the packed bytes;
 *   - the memory-side type of a permuted point selection moves each memory element to its point;
 *   - no MPI handle is left behind.
 * One case in 30 has a larger extent (up to 4000 elements in 1-D, 100 x 100, 24^3, ...).
 * Where HDF5 disagrees with the model, HDF5 is wrong by set semantics (a documented HDF5 1.10
 * merge bug); those cases are counted and reported, the port must still match the model.
 * Usage: gen_selections [ncases [first_seed [digest_file]]]. The digest file gets one line per
 * case with a hash of every byte the port packed, to compare builds against different MPIs. */
#include "h5s_mpio.h"
#include "flatten.h"

#include <hdf5.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long hc_live;
long hc_made[16];
long hc_fail_at, hc_calls;

#define MAXR 5
#define MARGIN 6

/* ---------------------------------------------------------------------------------------- */
typedef struct {
    uint64_t s;
} rng;
static uint64_t next(rng *r) {
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static uint64_t below(rng *r, uint64_t n) { return n ? next(r) % n : 0; }

/* ---------------------------------------------------------------------------------------- */
enum { A_ALL, A_NONE, A_HYPER, A_POINTS, A_OFFSET };

typedef struct {
    int kind;
    h5s_seloper op;
    uint64_t start[MAXR], stride[MAXR], count[MAXR], block[MAXR];
    int null_stride, null_block;
    size_t npts;
    uint64_t *coords;
    int64_t offset[MAXR];
} action;

typedef struct {
    int rank;
    uint64_t dims[MAXR];
    size_t elmt;
    uint64_t bigio;
    int nact;
    action act[12];
} scase;

/* ---------------------------------------------------------------------------------------- */
/* The bitmap model: a box of dims + MARGIN per dimension (selections may leave the extent) */
enum { M_NONE, M_ALL, M_POINTS, M_HYPER };
typedef struct {
    int rank;
    uint64_t dims[MAXR], box[MAXR];
    size_t nbox;
    int kind;
    unsigned char *bits;
    uint64_t *pts;
    size_t npts;
    int64_t offset[MAXR];
} model;

static void model_hyper(model *m, const action *a) {
    int empty = 0;
    for (int u = 0; u < m->rank; u++)
        if (a->count[u] == 0 || (!a->null_block && a->block[u] == 0))
            empty = 1;
    h5s_seloper op = a->op;
    if (empty) {
        if (op == H5S_OP_SET || op == H5S_OP_AND || op == H5S_OP_NOTA)
            m->kind = M_NONE;
        return;
    }
    if (m->kind == M_NONE) {
        if (op == H5S_OP_AND || op == H5S_OP_NOTB)
            return;
        op = H5S_OP_SET;
    }
    if (m->kind == M_ALL || m->kind == M_NONE || m->kind == M_POINTS) {
        const int was_all = m->kind == M_ALL;
        memset(m->bits, 0, m->nbox);
        if (was_all) {
            for (size_t i = 0; i < m->nbox; i++) {
                size_t rest = i;
                int in = 1;
                for (int u = m->rank - 1; u >= 0; u--) {
                    if (rest % m->box[u] >= m->dims[u])
                        in = 0;
                    rest /= m->box[u];
                }
                m->bits[i] = (unsigned char)in;
            }
        }
    }
    unsigned char *slab = calloc(m->nbox, 1);
    for (size_t i = 0; i < m->nbox; i++) {
        size_t rest = i;
        int in = 1;
        for (int u = m->rank - 1; u >= 0; u--) {
            uint64_t c = rest % m->box[u];
            rest /= m->box[u];
            uint64_t st = a->null_stride ? 1 : a->stride[u], bl = a->null_block ? 1 : a->block[u];
            if (c < a->start[u]) {
                in = 0;
                continue;
            }
            uint64_t k = (c - a->start[u]) / st, w = (c - a->start[u]) % st;
            if (a->count[u] == 1) {
                k = 0;
                w = c - a->start[u];
            }
            if (k >= a->count[u] || w >= bl)
                in = 0;
        }
        slab[i] = (unsigned char)in;
    }
    size_t n = 0;
    for (size_t i = 0; i < m->nbox; i++) {
        int x = m->bits[i], y = slab[i], r = 0;
        switch (op) {
        case H5S_OP_SET: r = y; break;
        case H5S_OP_OR: r = x || y; break;
        case H5S_OP_AND: r = x && y; break;
        case H5S_OP_XOR: r = x != y; break;
        case H5S_OP_NOTB: r = x && !y; break;
        case H5S_OP_NOTA: r = y && !x; break;
        default: break;
        }
        m->bits[i] = (unsigned char)r;
        n += (size_t)r;
    }
    free(slab);
    m->kind = n ? M_HYPER : M_NONE;
}

static void model_points(model *m, const action *a) {
    const size_t r = (size_t)m->rank;
    size_t old = (a->op != H5S_OP_SET && m->kind == M_POINTS) ? m->npts : 0;
    uint64_t *p = malloc((old + a->npts) * r * sizeof *p);
    if (a->op == H5S_OP_PREPEND && old) {
        memcpy(p, a->coords, a->npts * r * sizeof *p);
        memcpy(p + a->npts * r, m->pts, old * r * sizeof *p);
    } else {
        if (old)
            memcpy(p, m->pts, old * r * sizeof *p);
        memcpy(p + old * r, a->coords, a->npts * r * sizeof *p);
    }
    free(m->pts);
    m->pts = p;
    m->npts = old + a->npts;
    m->kind = M_POINTS;
}

/* Linear extent indices of the selected elements in selection order (offset applied);
 * returns -1 when an element is outside the extent. */
static long model_elements(const model *m, uint64_t **out) {
    uint64_t total = 1;
    for (int u = 0; u < m->rank; u++)
        total *= m->dims[u];
    size_t n = 0, cap = 16;
    uint64_t *v = malloc(cap * sizeof *v);
    uint64_t c[MAXR];
    int bad = 0;
    if (m->kind == M_ALL) {
        free(v);
        v = malloc((total ? total : 1) * sizeof *v);
        for (uint64_t i = 0; i < total; i++)
            v[i] = i;
        *out = v;
        return (long)total;
    }
    size_t count = m->kind == M_POINTS ? m->npts : m->kind == M_HYPER ? m->nbox : 0;
    for (size_t i = 0; i < count; i++) {
        if (m->kind == M_POINTS) {
            memcpy(c, m->pts + i * (size_t)m->rank, (size_t)m->rank * sizeof *c);
        } else {
            if (!m->bits[i])
                continue;
            size_t rest = i;
            for (int u = m->rank - 1; u >= 0; u--) {
                c[u] = rest % m->box[u];
                rest /= m->box[u];
            }
        }
        uint64_t at = 0;
        for (int u = 0; u < m->rank; u++) {
            int64_t x = (int64_t)c[u] + m->offset[u];
            if (x < 0 || (uint64_t)x >= m->dims[u])
                bad = 1;
            at = at * m->dims[u] + (uint64_t)x;
        }
        if (n == cap)
            v = realloc(v, (cap *= 2) * sizeof *v);
        v[n++] = at;
    }
    *out = v;
    return bad ? -1 : (long)n;
}

/* ---------------------------------------------------------------------------------------- */
/* Generation                                                                               */

static void gen_hyper(rng *r, const scase *c, action *a) {
    const int pattern = (int)below(r, 10);
    a->null_stride = below(r, 8) == 0;
    a->null_block = below(r, 8) == 0;
    for (int u = 0; u < c->rank; u++) {
        const uint64_t d = c->dims[u] ? c->dims[u] : 1;
        uint64_t bl = 1 + below(r, 3), st = bl + below(r, 3);
        if (pattern == 0)
            st = bl; /* contiguous blocks: regular, merged */
        if (pattern == 1) { /* checkerboard-like: stride 2 from 0 or 1 */
            bl = 1;
            st = 2;
        }
        if (a->null_stride)
            st = 1;
        if (a->null_block)
            bl = 1;
        if (st < bl)
            st = bl;
        uint64_t start = below(r, d);
        if (pattern == 1)
            start = below(r, 2);
        uint64_t room = d > start ? d - start : 1;
        uint64_t cnt = room >= bl ? 1 + (room - bl) / st : 1;
        cnt = 1 + below(r, cnt);
        if (below(r, 25) == 0) /* leave the extent */
            cnt += 1 + below(r, 2);
        if (below(r, 60) == 0)
            cnt = 0;
        /* stay inside the model's box */
        while (cnt > 1 && start + (cnt - 1) * st + bl > d + MARGIN)
            cnt--;
        if (start + bl > d + MARGIN)
            bl = 1;
        a->start[u] = start;
        a->stride[u] = st;
        a->count[u] = cnt;
        a->block[u] = bl;
        if (below(r, 200) == 0)
            a->stride[u] = 0; /* invalid */
        if (below(r, 200) == 0 && cnt > 1)
            a->stride[u] = bl > 1 ? bl - 1 : 0; /* overlapping blocks: invalid */
    }
}

static void gen_points(rng *r, const scase *c, action *a) {
    a->npts = 1 + below(r, 24);
    if (below(r, 40) == 0)
        a->npts = 0; /* invalid */
    a->coords = malloc((a->npts + 1) * (size_t)c->rank * sizeof *a->coords);
    const int ordered = below(r, 3) == 0;
    for (size_t k = 0; k < a->npts; k++)
        for (int u = 0; u < c->rank; u++) {
            uint64_t d = c->dims[u] ? c->dims[u] : 1;
            uint64_t x = below(r, d);
            if (below(r, 150) == 0)
                x = d + below(r, 2);
            a->coords[k * (size_t)c->rank + (size_t)u] = x;
        }
    if (ordered && c->rank == 1) {
        for (size_t k = 1; k < a->npts; k++)
            for (size_t j = k; j > 0 && a->coords[j - 1] > a->coords[j]; j--) {
                uint64_t t = a->coords[j];
                a->coords[j] = a->coords[j - 1];
                a->coords[j - 1] = t;
            }
    }
}

static void gen_case(uint64_t seed, scase *c) {
    rng r = {seed * UINT64_C(0x2545f4914f6cdd1d) + 1};
    memset(c, 0, sizeof *c);
    static const uint64_t maxdim[MAXR + 1] = {1, 40, 14, 7, 5, 4};
    static const uint64_t bigdim[MAXR + 1] = {1, 4000, 100, 24, 10, 7}; /* one case in 30 */
    c->rank = (int)below(&r, 6);
    const int big = below(&r, 30) == 0;
    for (int u = 0; u < c->rank; u++) {
        c->dims[u] = 1 + below(&r, big ? bigdim[c->rank] : maxdim[c->rank]);
        if (below(&r, 80) == 0)
            c->dims[u] = 0;
    }
    c->elmt = 1 + below(&r, 16);
    c->bigio = below(&r, 2) ? 0 : 1 + below(&r, 9);
    const int family = (int)below(&r, 4); /* 0: hyperslabs, 1: points, 2: mixed, 3: checkerboard */
    c->nact = 1 + (int)below(&r, 5);
    for (int k = 0; k < c->nact; k++) {
        action *a = &c->act[k];
        int pick = (int)below(&r, 20);
        if (family == 0 || family == 3)
            a->kind = pick < 1 ? A_ALL : pick < 2 ? A_NONE : A_HYPER;
        else if (family == 1)
            a->kind = pick < 1 ? A_NONE : pick < 2 ? A_HYPER : A_POINTS;
        else
            a->kind = pick < 2 ? A_ALL : pick < 3 ? A_NONE : pick < 11 ? A_HYPER : A_POINTS;
        if (below(&r, 12) == 0)
            a->kind = A_OFFSET;
        if (a->kind == A_HYPER) {
            a->op = k == 0 ? H5S_OP_SET : (h5s_seloper)below(&r, 6);
            if (below(&r, 100) == 0)
                a->op = H5S_OP_APPEND; /* not a hyperslab operator */
            gen_hyper(&r, c, a);
            for (int u = 0; u < c->rank; u++)
                if (c->dims[u] == 0)
                    a->op = H5S_OP_SET; /* HDF5 1.10 crashes combining slabs in an empty extent */
        } else if (a->kind == A_POINTS) {
            static const h5s_seloper pops[3] = {H5S_OP_SET, H5S_OP_APPEND, H5S_OP_PREPEND};
            a->op = pops[below(&r, 3)];
            if (below(&r, 100) == 0)
                a->op = H5S_OP_OR; /* not a point operator */
            gen_points(&r, c, a);
        } else if (a->kind == A_OFFSET) {
            for (int u = 0; u < c->rank; u++)
                a->offset[u] = (int64_t)below(&r, 5) - 2;
        }
    }
    if (family == 3 && c->rank >= 1) {
        /* a checkerboard: the OR of the two diagonal stride-2 lattices, then maybe more */
        c->nact = 2 + (int)below(&r, 2);
        for (int k = 0; k < 2; k++) {
            action *a = &c->act[k];
            memset(a, 0, sizeof *a);
            a->kind = A_HYPER;
            a->op = k == 0 ? H5S_OP_SET : H5S_OP_OR;
            const uint64_t bl = 1 + below(&r, 2);
            for (int u = 0; u < c->rank; u++) {
                uint64_t d = c->dims[u] ? c->dims[u] : 1;
                a->start[u] = k * bl;
                a->stride[u] = 2 * bl;
                a->block[u] = bl;
                a->count[u] = d > a->start[u] + bl - 1 ? 1 + (d - a->start[u] - bl) / (2 * bl) : 1;
            }
        }
    }
}

/* ---------------------------------------------------------------------------------------- */
/* HDF5 side                                                                                */

static const H5S_seloper_t hdf5_op[8] = {H5S_SELECT_SET,  H5S_SELECT_OR,   H5S_SELECT_AND,    H5S_SELECT_XOR,
                                         H5S_SELECT_NOTB, H5S_SELECT_NOTA, H5S_SELECT_APPEND, H5S_SELECT_PREPEND};

typedef struct {
    const unsigned char *src;
    size_t bytes;
} scatter_src;

static herr_t scatter_cb(const void **src_buf, size_t *used, void *op_data) {
    scatter_src *s = op_data;
    *src_buf = s->src;
    *used = s->bytes;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */

static int failures, hdf5_deviations, hdf5_valid_deviations, cases_packed, cases_permuted, cases_irregular, cases_large;

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        fprintf(stderr, "seed %" PRIu64 ": ", seed);                                                                   \
        fprintf(stderr, __VA_ARGS__);                                                                                  \
        fprintf(stderr, "\n");                                                                                         \
        failures++;                                                                                                    \
        goto done;                                                                                                     \
    } while (0)

/* The bytes MPI_Pack gives with the space's type (points in their own order) over a patterned
 * extent, or NULL when the space has no type (invalid) or selects nothing. */
static unsigned char *pack_of(const h5s_space *s, size_t *nbytes) {
    uint64_t dims[H5S_MPIO_MAX_RANK];
    const int rank = h5s_get_simple_extent_dims(s, dims);
    uint64_t total = 1;
    for (int u = 0; u < rank; u++)
        total *= dims[u];
    const int64_t np = h5s_get_select_npoints(s);
    MPI_Datatype t;
    int count, derived;
    *nbytes = (size_t)(np > 0 ? np : 0) * 2;
    if (np <= 0 || h5s_mpio_space_type(s, 2, &t, &count, &derived, 0, NULL, NULL) < 0)
        return NULL;
    unsigned char *src = malloc((size_t)total * 2), *out = malloc(*nbytes);
    for (size_t i = 0; i < (size_t)total * 2; i++)
        src[i] = (unsigned char)(i * 31 + 7);
    int pos = 0;
    MPI_Pack(src, count, t, out, (int)*nbytes, &pos, MPI_COMM_SELF);
    if (derived) {
        MPI_Type_free(&t);
        hc_live--;
    }
    free(src);
    return out;
}

/* Same selection: counts, validity, regularity, and the same bytes packed in the same order. */
static int same_space(const h5s_space *a, const h5s_space *b) {
    if (h5s_get_select_npoints(a) != h5s_get_select_npoints(b) || h5s_select_valid(a) != h5s_select_valid(b) ||
        h5s_select_is_regular_hyperslab(a) != h5s_select_is_regular_hyperslab(b))
        return 0;
    size_t na, nb;
    unsigned char *pa = pack_of(a, &na), *pb = pack_of(b, &nb);
    const int same = (pa == NULL) == (pb == NULL) && na == nb && (pa == NULL || memcmp(pa, pb, na) == 0);
    free(pa);
    free(pb);
    return same;
}


/* Whether HDF5's hyperslab blocks (moved by the offset) are exactly the model's elements; where
 * HDF5's selection is wrong, its gather may read far outside the extent, so it is not run. */
static int hdf5_blocks_match(hid_t hs, const model *m, const uint64_t *elems, size_t n) {
    uint64_t total = 1;
    for (int u = 0; u < m->rank; u++)
        total *= m->dims[u];
    const hssize_t nb = H5Sget_select_hyper_nblocks(hs);
    if (nb < 0)
        return 0;
    hsize_t *bl = malloc(((size_t)nb * 2 * (size_t)m->rank + 1) * sizeof *bl);
    unsigned char *in = calloc(total + 1, 1);
    int ok = H5Sget_select_hyper_blocklist(hs, 0, (hsize_t)nb, bl) >= 0;
    for (hssize_t b = 0; ok && b < nb; b++) {
        const hsize_t *lo = bl + (size_t)b * 2 * (size_t)m->rank, *hi = lo + m->rank;
        hsize_t c[MAXR];
        for (int u = 0; u < m->rank; u++) {
            c[u] = lo[u];
            if ((int64_t)hi[u] + m->offset[u] >= (int64_t)m->dims[u] || (int64_t)lo[u] + m->offset[u] < 0 || hi[u] < lo[u])
                ok = 0;
        }
        while (ok) {
            uint64_t at = 0;
            for (int u = 0; u < m->rank; u++)
                at = at * m->dims[u] + (uint64_t)((int64_t)c[u] + m->offset[u]);
            in[at]++;
            int u = m->rank - 1;
            while (u >= 0 && c[u] == hi[u]) {
                c[u] = lo[u];
                u--;
            }
            if (u < 0)
                break;
            c[u]++;
        }
    }
    size_t count = 0;
    for (uint64_t i = 0; ok && i < total; i++) {
        if (in[i] > 1)
            ok = 0;
        count += in[i];
    }
    for (size_t i = 0; ok && i < n; i++)
        if (!in[elems[i]])
            ok = 0;
    if (count != n)
        ok = 0;
    free(bl);
    free(in);
    return ok;
}

static void dump_case(const scase *c) {
    fprintf(stderr, "rank %d dims", c->rank);
    for (int u = 0; u < c->rank; u++)
        fprintf(stderr, " %" PRIu64, c->dims[u]);
    fprintf(stderr, " elmt %zu bigio %" PRIu64 "\n", c->elmt, c->bigio);
    for (int k = 0; k < c->nact; k++) {
        const action *a = &c->act[k];
        fprintf(stderr, "  kind %d op %d:", a->kind, (int)a->op);
        if (a->kind == A_HYPER)
            for (int u = 0; u < c->rank; u++)
                fprintf(stderr, " [%" PRIu64 " %" PRIu64 "%s %" PRIu64 " %" PRIu64 "%s]", a->start[u], a->stride[u],
                        a->null_stride ? "*" : "", a->count[u], a->block[u], a->null_block ? "*" : "");
        if (a->kind == A_POINTS)
            for (size_t i = 0; i < a->npts * (size_t)c->rank; i++)
                fprintf(stderr, "%s%" PRIu64, i % (size_t)c->rank ? "," : " ", a->coords[i]);
        if (a->kind == A_OFFSET)
            for (int u = 0; u < c->rank; u++)
                fprintf(stderr, " %" PRId64, a->offset[u]);
        fprintf(stderr, "\n");
    }
}

static int verbose;

static void run_case(uint64_t seed, FILE *digest) {
    scase c;
    gen_case(seed, &c);
    if (verbose)
        dump_case(&c);
    h5s_mpio_set_bigio_count(c.bigio ? c.bigio : UINT64_C(1) << 30);
    const int rank = c.rank;
    hsize_t hd[MAXR];
    for (int u = 0; u < rank; u++)
        hd[u] = c.dims[u];
    hid_t hs = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, hd, NULL);
    h5s_space *ps = h5s_create_simple(rank, c.dims);
    model m;
    memset(&m, 0, sizeof m);
    m.rank = rank;
    m.nbox = 1;
    for (int u = 0; u < rank; u++) {
        m.dims[u] = c.dims[u];
        m.box[u] = c.dims[u] + MARGIN;
        m.nbox *= m.box[u];
    }
    m.bits = calloc(m.nbox, 1);
    m.kind = M_ALL;
    unsigned char *src = NULL, *packed = NULL, *hgather = NULL, *unp = NULL, *hscat = NULL, *stream = NULL;
    uint64_t *elems = NULL, *map = NULL;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    flat_list fl;
    memset(&fl, 0, sizeof fl);
    hid_t ht = H5Tcreate(H5T_OPAQUE, c.elmt);
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    if (hs < 0 || ps == NULL)
        FAIL("create rank %d", rank);

    for (int k = 0; k < c.nact; k++) {
        const action *a = &c.act[k];
        herr_t he = 0;
        int pe = 0;
        h5s_space *before = h5s_copy(ps);
        hsize_t st[MAXR], ct[MAXR], sd[MAXR], bl[MAXR];
        for (int u = 0; u < rank; u++) {
            st[u] = a->start[u];
            ct[u] = a->count[u];
            sd[u] = a->stride[u];
            bl[u] = a->block[u];
        }
        switch (a->kind) {
        case A_ALL:
            he = H5Sselect_all(hs);
            pe = h5s_select_all(ps);
            if (pe == 0)
                m.kind = M_ALL;
            break;
        case A_NONE:
            he = H5Sselect_none(hs);
            pe = h5s_select_none(ps);
            if (pe == 0)
                m.kind = M_NONE;
            break;
        case A_HYPER:
            he = H5Sselect_hyperslab(hs, hdf5_op[a->op], st, a->null_stride ? NULL : sd, ct,
                                     a->null_block ? NULL : bl);
            pe = h5s_select_hyperslab(ps, a->op, a->start, a->null_stride ? NULL : a->stride, a->count,
                                      a->null_block ? NULL : a->block);
            if (pe == 0)
                model_hyper(&m, a);
            break;
        case A_POINTS: {
            hsize_t *hc = malloc((a->npts + 1) * (size_t)(rank ? rank : 1) * sizeof *hc);
            for (size_t i = 0; i < a->npts * (size_t)rank; i++)
                hc[i] = a->coords[i];
            he = H5Sselect_elements(hs, hdf5_op[a->op], a->npts, hc);
            free(hc);
            pe = h5s_select_elements(ps, a->op, a->npts, a->coords);
            if (pe == 0)
                model_points(&m, a);
            break;
        }
        case A_OFFSET: {
            hssize_t ho[MAXR];
            for (int u = 0; u < rank; u++)
                ho[u] = a->offset[u];
            he = H5Soffset_simple(hs, ho);
            pe = h5s_offset_simple(ps, a->offset);
            if (pe == 0)
                memcpy(m.offset, a->offset, sizeof m.offset);
            break;
        }
        }
        if ((he < 0) != (pe < 0)) {
            h5s_close(before);
            FAIL("action %d (kind %d op %d): HDF5 %d, port %d", k, a->kind, (int)a->op, (int)he, pe);
        }
        if (pe < 0 && !same_space(before, ps)) {
            h5s_close(before);
            FAIL("action %d failed and changed the space", k);
        }
        /* carry on with a copy after every other action (a copy shares the span tree) */
        if (k % 2 == 1) {
            h5s_space *copy = h5s_copy(ps);
            if (copy == NULL) {
                h5s_close(before);
                FAIL("h5s_copy");
            }
            h5s_close(ps);
            ps = copy;
        }
        h5s_close(before);
    }

    /* counts and validity */
    const int64_t pn = h5s_get_select_npoints(ps);
    const hssize_t hn = H5Sget_select_npoints(hs);
    const long mn = model_elements(&m, &elems);
    const int pvalid = h5s_select_valid(ps);
    const htri_t hvalid = H5Sselect_valid(hs);
    if (pvalid != (mn >= 0))
        FAIL("valid: port %d model %ld", pvalid, mn);
    if (pvalid != (hvalid > 0))
        hdf5_valid_deviations++; /* HDF5 1.10 accepts a point one past the extent */
    int hdf5_ok = pn == hn;
    if (hdf5_ok && pvalid && hn > 0 && H5Sget_select_type(hs) == H5S_SEL_HYPERSLABS)
        hdf5_ok = hdf5_blocks_match(hs, &m, elems, (size_t)mn);
    if (!pvalid) {
        int cnt = 5, der = 7;
        if (h5s_mpio_space_type(ps, c.elmt, &t, &cnt, &der, 0, NULL, NULL) >= 0)
            FAIL("type of an invalid selection");
        t = MPI_DATATYPE_NULL;
        goto digest;
    }
    if (pn != mn)
        FAIL("npoints: port %" PRId64 " model %ld", pn, mn);

    /* the file-side type */
    uint64_t total = 1;
    for (int u = 0; u < rank; u++)
        total *= c.dims[u];
    const size_t bytes = (size_t)total * c.elmt, nbytes = (size_t)pn * c.elmt;
    /* HDF5's own gather may read outside the extent where its selection is wrong (the merge
     * deviation): pad the buffer to the model's box, which its wrong selections stay inside */
    const size_t padded = (m.nbox > total ? m.nbox : (size_t)total) * c.elmt * 2 + 1;
    src = malloc(padded);
    packed = malloc(nbytes + 1);
    hgather = malloc(nbytes + 1);
    unp = calloc(bytes + 1, 1);
    hscat = calloc(padded, 1);
    stream = malloc(nbytes + 1);
    for (size_t i = 0; i < padded; i++)
        src[i] = (unsigned char)(next(&(rng){seed ^ i}) | 1);
    for (size_t i = 0; i < nbytes; i++)
        stream[i] = (unsigned char)(i * 7 + 3 + seed);
    int count = -1, derived = -1, permuted = 0;
    long live0 = hc_live;
    if (h5s_mpio_space_type(ps, c.elmt, &t, &count, &derived, 1, &map, &permuted) < 0)
        FAIL("space_type failed");
    if (h5s_select_is_regular_hyperslab(ps) == 0 && m.kind == M_HYPER)
        cases_irregular++;
    if (c.bigio && nbytes > c.bigio)
        cases_large++;
    if (m.kind == M_NONE || pn == 0) {
        if (t != MPI_BYTE || count != 0 || derived != 0)
            FAIL("none: MPI_BYTE %d count %d derived %d", t == MPI_BYTE, count, derived);
    } else if (m.kind == M_ALL && nbytes <= (c.bigio ? (c.bigio < 2 ? 2 : c.bigio) : UINT64_C(1) << 30)) {
        if (t != MPI_BYTE || (size_t)count != nbytes || derived != 0)
            FAIL("all: count %d derived %d", count, derived);
    } else if (count != 1 || derived != 1) {
        FAIL("derived: count %d derived %d", count, derived);
    }
    if (permuted != (map != NULL))
        FAIL("permuted %d but map %p", permuted, (void *)map);
    if (permuted)
        cases_permuted++;
    int tsize = 0;
    MPI_Type_size(t, &tsize);
    if ((size_t)tsize * (size_t)count != nbytes)
        FAIL("type size %d x %d != %zu", tsize, count, nbytes);

    /* the model's gather in file order (sorted when permuted) */
    uint64_t *order = malloc(((size_t)mn + 1) * sizeof *order); /* order[j]: selection index at file position j */
    for (size_t i = 0; i < (size_t)mn; i++)
        order[i] = i;
    if (map != NULL) {
        for (size_t i = 0; i < (size_t)mn; i++) {
            if (map[i] >= (uint64_t)mn) {
                free(order);
                FAIL("map entry out of range");
            }
            order[map[i]] = i;
        }
        for (size_t j = 1; j < (size_t)mn; j++)
            if (elems[order[j]] < elems[order[j - 1]]) {
                free(order);
                FAIL("permutation does not sort the points");
            }
    }
    int pos = 0;
    if (nbytes > 0 && MPI_Pack(src, count, t, packed, (int)nbytes, &pos, MPI_COMM_SELF) != MPI_SUCCESS) {
        free(order);
        FAIL("MPI_Pack failed");
    }
    if ((size_t)pos != nbytes) {
        free(order);
        FAIL("packed %d bytes, expected %zu", pos, nbytes);
    }
    for (size_t j = 0; j < (size_t)mn; j++)
        if (memcmp(packed + j * c.elmt, src + elems[order[j]] * c.elmt, c.elmt) != 0) {
            free(order);
            FAIL("pack differs from the model at element %zu of %ld", j, mn);
        }
    /* HDF5's gather, in selection order */
    if (hdf5_ok && nbytes > 0 && H5Dgather(hs, src, ht, nbytes, hgather, NULL, NULL) < 0) {
        free(order);
        FAIL("H5Dgather failed");
    }
    for (size_t j = 0; hdf5_ok && j < (size_t)mn; j++)
        if (memcmp(packed + j * c.elmt, hgather + order[j] * c.elmt, c.elmt) != 0)
            hdf5_ok = 0;
    /* unpack == scatter (the stream in selection order for HDF5) */
    pos = 0;
    if (nbytes > 0 && MPI_Unpack(stream, (int)nbytes, &pos, unp, count, t, MPI_COMM_SELF) != MPI_SUCCESS) {
        free(order);
        FAIL("MPI_Unpack failed");
    }
    unsigned char *sel_stream = malloc(nbytes + 1);
    for (size_t j = 0; j < (size_t)mn; j++)
        memcpy(sel_stream + order[j] * c.elmt, stream + j * c.elmt, c.elmt);
    scatter_src ss = {sel_stream, nbytes};
    if (hdf5_ok && nbytes > 0 && H5Dscatter(scatter_cb, &ss, ht, hs, hscat) < 0) {
        free(order);
        free(sel_stream);
        FAIL("H5Dscatter failed");
    }
    if (hdf5_ok && memcmp(unp, hscat, bytes) != 0) {
        free(order);
        free(sel_stream);
        FAIL("MPI_Unpack differs from H5Dscatter");
    }
    free(sel_stream);
    free(order);
    if (!hdf5_ok) {
        hdf5_deviations++;
        if (verbose) {
            fprintf(stderr, "seed %" PRIu64 ": HDF5 deviates (npoints %" PRId64 ", HDF5 %" PRId64 ")\n", seed, pn,
                    (int64_t)hn);
            dump_case(&c);
        }
    }
    /* decoded type map */
    if (derived) {
        flat_type(&fl, t, 0);
        if (fl.unknown)
            FAIL("unknown combiner in the type");
        const long big = c.bigio ? (long)c.bigio : 1L << 30;
        if (fl.max_count > (big < 2 ? 2 : big))
            FAIL("a constructor count %ld exceeds the threshold %ld", fl.max_count, big);
        size_t at = 0;
        for (size_t i = 0; i < fl.n; i++) {
            if (i > 0 && fl.disp[i] < fl.disp[i - 1])
                FAIL("displacements decrease at block %zu", i);
            if (fl.disp[i] < 0 || (size_t)(fl.disp[i] + fl.len[i]) > bytes)
                FAIL("block %zu outside the buffer", i);
            if (memcmp(packed + at, src + fl.disp[i], (size_t)fl.len[i]) != 0)
                FAIL("decoded type map differs from MPI_Pack at block %zu", i);
            at += (size_t)fl.len[i];
        }
        if (at != nbytes)
            FAIL("decoded %zu bytes of %zu", at, nbytes);
    }
    cases_packed++;
    h = fnv(h, packed, nbytes);
    h = fnv(h, unp, bytes);

    /* the memory side of a permuted point selection: a 1-D memory space with a hyperslab,
     * point or all selection of as many elements */
    if (map != NULL) {
        const uint64_t mdim = (uint64_t)pn + 3;
        h5s_space *mem = h5s_create_simple(1, &mdim);
        hid_t hm = H5Screate_simple(1, (const hsize_t[]){mdim}, NULL);
        const uint64_t one = 1, cnt = (uint64_t)pn;
        h5s_select_hyperslab(mem, H5S_OP_SET, &one, NULL, &cnt, NULL);
        H5Sselect_hyperslab(hm, H5S_SELECT_SET, (const hsize_t[]){1}, NULL, (const hsize_t[]){cnt}, NULL);
        MPI_Datatype mt;
        int mcount, mder, still = 1;
        uint64_t *keep = map;
        if (h5s_mpio_space_type(mem, c.elmt, &mt, &mcount, &mder, 0, &map, &still) < 0 || map != NULL) {
            h5s_close(mem);
            H5Sclose(hm);
            if (map == NULL)
                map = NULL;
            else
                map = keep;
            FAIL("memory-side permuted type");
        }
        const size_t mbytes = (size_t)mdim * c.elmt;
        unsigned char *msrc = malloc(mbytes), *through = malloc(nbytes + 1), *fileb = calloc(bytes + 1, 1),
                      *expect = calloc(bytes + 1, 1), *hg = malloc(nbytes + 1);
        for (size_t i = 0; i < mbytes; i++)
            msrc[i] = (unsigned char)(i * 13 + 5);
        int p1 = 0, p2 = 0;
        MPI_Pack(msrc, mcount, mt, through, (int)nbytes, &p1, MPI_COMM_SELF);
        MPI_Unpack(through, (int)nbytes, &p2, fileb, count, t, MPI_COMM_SELF);
        H5Dgather(hm, msrc, ht, nbytes, hg, NULL, NULL);
        scatter_src s2 = {hg, nbytes};
        H5Dscatter(scatter_cb, &s2, ht, hs, expect);
        int bad = (size_t)p1 != nbytes || memcmp(fileb, expect, bytes) != 0;
        h = fnv(h, through, nbytes);
        free(msrc);
        free(through);
        free(fileb);
        free(expect);
        free(hg);
        MPI_Type_free(&mt);
        hc_live--;
        h5s_close(mem);
        H5Sclose(hm);
        if (bad)
            FAIL("memory-side permuted type moves elements wrongly");
    }
    if (derived) {
        MPI_Type_free(&t);
        hc_live--;
    }
    t = MPI_DATATYPE_NULL;
    if (hc_live != live0)
        FAIL("%ld MPI handles leaked", hc_live - live0);
digest:
    if (digest)
        fprintf(digest, "%" PRIu64 " %" PRId64 " %d %016" PRIx64 "\n", seed, pn, h5s_select_is_regular_hyperslab(ps), h);
done:
    if (t != MPI_DATATYPE_NULL && t != MPI_BYTE) {
        MPI_Type_free(&t);
        hc_live--;
    }
    free(fl.disp);
    free(fl.len);
    free(map);
    free(src);
    free(packed);
    free(hgather);
    free(unp);
    free(hscat);
    free(stream);
    free(elems);
    free(m.bits);
    free(m.pts);
    for (int k = 0; k < c.nact; k++)
        free(c.act[k].coords);
    h5s_close(ps);
    if (hs >= 0)
        H5Sclose(hs);
    H5Tclose(ht);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    verbose = getenv("H5S_VERBOSE") != NULL;
    const uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 4000;
    const uint64_t first = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    FILE *digest = argc > 3 ? fopen(argv[3], "w") : NULL;
    for (uint64_t s = first; s < first + n; s++)
        run_case(s, digest);
    if (digest)
        fclose(digest);
    printf("%" PRIu64 " cases: %d packed (%d irregular, %d permuted, %d past a small bigio threshold), "
           "%d where HDF5's gather deviates from set semantics, %d where HDF5 calls an invalid selection valid, "
           "%d failures\n",
           n, cases_packed, cases_irregular, cases_permuted, cases_large, hdf5_deviations, hdf5_valid_deviations,
           failures);
    if (hc_live != 0) {
        printf("%ld MPI handles left\n", hc_live);
        failures++;
    }
    MPI_Finalize();
    return failures ? 1 : 0;
}
