/* The selection model: extents, all / none / point / hyperslab selections, the hyperslab set
 * operators on span trees, offsets, counts and validity. HDF5's semantics (H5S*), plain set
 * semantics for every hyperslab operator. */
#include "h5s_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */
/* Span nodes                                                                               */

static uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

static uint64_t spans_hash(const h5s_span *spans, size_t n) {
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ n;
    for (size_t i = 0; i < n; i++) {
        h = mix64(h ^ spans[i].low) + spans[i].high;
        h = mix64(h ^ (uint64_t)(uintptr_t)spans[i].down);
    }
    return h;
}

void h5s_node_release(h5s_node *node) {
    if (node == NULL || --node->refs > 0)
        return;
    for (size_t i = 0; i < node->nspans; i++)
        h5s_node_release(node->spans[i].down);
    free(node);
}

static h5s_node *node_ref(h5s_node *node) {
    if (node != NULL)
        node->refs++;
    return node;
}

/* A new node owning one reference to each child of spans; NULL when out of memory or when the
 * element count overflows (the children's references are then released). */
static h5s_node *node_new(const h5s_span *spans, size_t n, uint64_t hash) {
    uint64_t total = 0;
    int overflow = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t len = spans[i].high - spans[i].low + 1;
        uint64_t each = spans[i].down != NULL ? spans[i].down->npoints : 1;
        if (each != 0 && len > UINT64_MAX / each)
            overflow = 1;
        else if (total > UINT64_MAX - len * each)
            overflow = 1;
        else
            total += len * each;
    }
    h5s_node *node = overflow ? NULL : malloc(sizeof *node + n * sizeof(h5s_span));
    if (node == NULL) {
        for (size_t i = 0; i < n; i++)
            h5s_node_release(spans[i].down);
        return NULL;
    }
    node->refs = 1;
    node->nspans = n;
    node->npoints = total;
    node->hash = hash;
    memcpy(node->spans, spans, n * sizeof(h5s_span));
    return node;
}

/* ---------------------------------------------------------------------------------------- */
/* Hash tables: a map from pointer pairs to nodes, and a set of nodes by content            */

static uint64_t pair_hash(const void *k1, const void *k2) {
    return mix64((uint64_t)(uintptr_t)k1 * UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)(uintptr_t)k2);
}

static int pmap_grow(h5s_pmap *m) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    h5s_pmap_entry *e = calloc(cap, sizeof *e);
    if (e == NULL)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->e[i].k1 == NULL && m->e[i].k2 == NULL)
            continue;
        size_t j = pair_hash(m->e[i].k1, m->e[i].k2) & (cap - 1);
        while (e[j].k1 != NULL || e[j].k2 != NULL)
            j = (j + 1) & (cap - 1);
        e[j] = m->e[i];
    }
    free(m->e);
    m->e = e;
    m->cap = cap;
    return 0;
}

/* Key (NULL, NULL) is never stored. Returns the entry of the key or the empty slot for it. */
static h5s_pmap_entry *pmap_slot(const h5s_pmap *m, const void *k1, const void *k2) {
    size_t j = pair_hash(k1, k2) & (m->cap - 1);
    while ((m->e[j].k1 != NULL || m->e[j].k2 != NULL) && (m->e[j].k1 != k1 || m->e[j].k2 != k2))
        j = (j + 1) & (m->cap - 1);
    return &m->e[j];
}

int h5s_pmap_find(const h5s_pmap *m, const void *k1, const void *k2, void **val) {
    if (m->cap == 0)
        return 0;
    const h5s_pmap_entry *s = pmap_slot(m, k1, k2);
    if (s->k1 == NULL && s->k2 == NULL)
        return 0;
    *val = s->val;
    return 1;
}

int h5s_pmap_put(h5s_pmap *m, const void *k1, const void *k2, void *val) {
    if ((m->n + 1) * 2 > m->cap && pmap_grow(m) < 0)
        return -1;
    h5s_pmap_entry *s = pmap_slot(m, k1, k2);
    if (s->k1 == NULL && s->k2 == NULL)
        m->n++;
    s->k1 = k1;
    s->k2 = k2;
    s->val = val;
    return 0;
}

typedef h5s_nodeset nodeset;

static int nodes_equal(const h5s_node *a, const h5s_span *spans, size_t n) {
    if (a->nspans != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (a->spans[i].low != spans[i].low || a->spans[i].high != spans[i].high ||
            a->spans[i].down != spans[i].down)
            return 0;
    return 1;
}

static int nodeset_grow(nodeset *s) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    h5s_node **e = calloc(cap, sizeof *e);
    if (e == NULL)
        return -1;
    for (size_t i = 0; i < s->cap; i++) {
        if (s->e[i] == NULL)
            continue;
        size_t j = s->e[i]->hash & (cap - 1);
        while (e[j] != NULL)
            j = (j + 1) & (cap - 1);
        e[j] = s->e[i];
    }
    free(s->e);
    s->e = e;
    s->cap = cap;
    return 0;
}

/* The node of the set equal to node (the same pointer or the same content), or NULL. */
static h5s_node *nodeset_find(const nodeset *s, const h5s_node *node) {
    if (s == NULL || s->cap == 0)
        return NULL;
    size_t j = node->hash & (s->cap - 1);
    while (s->e[j] != NULL) {
        if (s->e[j] == node || (s->e[j]->hash == node->hash && nodes_equal(s->e[j], node->spans, node->nspans)))
            return s->e[j];
        j = (j + 1) & (s->cap - 1);
    }
    return NULL;
}

/* Adds a node known not to be in the set; no reference is taken. */
static int nodeset_add(nodeset *s, h5s_node *node) {
    if ((s->n + 1) * 2 > s->cap && nodeset_grow(s) < 0)
        return -1;
    size_t j = node->hash & (s->cap - 1);
    while (s->e[j] != NULL)
        j = (j + 1) & (s->cap - 1);
    s->e[j] = node;
    s->n++;
    return 0;
}

/* The node with these spans: an existing equal one (its children's references in spans are
 * then released) or a new one. The set keeps one reference to each of its nodes. Returns a
 * new reference, or NULL on error. */
static h5s_node *intern(const nodeset *base, nodeset *s, const h5s_span *spans, size_t n) {
    uint64_t hash = spans_hash(spans, n);
    if (base != NULL && base->cap > 0) { /* a node of the first operand */
        size_t j = hash & (base->cap - 1);
        while (base->e[j] != NULL) {
            if (base->e[j]->hash == hash && nodes_equal(base->e[j], spans, n)) {
                for (size_t i = 0; i < n; i++)
                    h5s_node_release(spans[i].down);
                return node_ref(base->e[j]);
            }
            j = (j + 1) & (base->cap - 1);
        }
    }
    if ((s->n + 1) * 2 > s->cap && nodeset_grow(s) < 0) {
        for (size_t i = 0; i < n; i++)
            h5s_node_release(spans[i].down);
        return NULL;
    }
    size_t j = hash & (s->cap - 1);
    while (s->e[j] != NULL) {
        if (s->e[j]->hash == hash && nodes_equal(s->e[j], spans, n)) {
            for (size_t i = 0; i < n; i++)
                h5s_node_release(spans[i].down);
            return node_ref(s->e[j]);
        }
        j = (j + 1) & (s->cap - 1);
    }
    h5s_node *node = node_new(spans, n, hash);
    if (node == NULL)
        return NULL;
    s->e[j] = node;
    s->n++;
    return node_ref(node);
}

/* ---------------------------------------------------------------------------------------- */
/* Set operations on span trees                                                              */

/* A new reference to the node of the set equal to node, which is put in the set when it has
 * no equal there; NULL when out of memory. */
static h5s_node *canonical_or_insert(const nodeset *base, nodeset *s, h5s_node *node) {
    h5s_node *in_base = nodeset_find(base, node);
    if (in_base != NULL)
        return node_ref(in_base);
    if ((s->n + 1) * 2 > s->cap && nodeset_grow(s) < 0)
        return NULL;
    size_t j = node->hash & (s->cap - 1);
    while (s->e[j] != NULL) {
        if (s->e[j] == node || (s->e[j]->hash == node->hash && nodes_equal(s->e[j], node->spans, node->nspans)))
            return node_ref(s->e[j]);
        j = (j + 1) & (s->cap - 1);
    }
    s->e[j] = node_ref(node);
    s->n++;
    return node_ref(node);
}

typedef struct {
    h5s_seloper op;
    int rank;
    int err;
    const nodeset *base; /* every node of the first operand (which is canonical) */
    h5s_pmap memo; /* (a, b) -> result of op(a, b), holding a reference */
    nodeset nodes; /* every node made by this operation */
} op_ctx;

static int op_keeps(h5s_seloper op, int in_a, int in_b) {
    switch (op) {
    case H5S_OP_OR: return in_a || in_b;
    case H5S_OP_AND: return in_a && in_b;
    case H5S_OP_XOR: return in_a != in_b;
    case H5S_OP_NOTB: return in_a && !in_b;
    case H5S_OP_NOTA: return in_b && !in_a;
    default: return 0;
    }
}

typedef struct {
    h5s_span *v;
    size_t n, cap;
} span_vec;

static int span_push(span_vec *sv, uint64_t low, uint64_t high, h5s_node *down) {
    if (sv->n > 0) {
        h5s_span *last = &sv->v[sv->n - 1];
        if (last->high + 1 == low && last->down == down) {
            last->high = high;
            h5s_node_release(down);
            return 0;
        }
    }
    if (sv->n == sv->cap) {
        size_t cap = sv->cap ? sv->cap * 2 : 8;
        h5s_span *v = realloc(sv->v, cap * sizeof *v);
        if (v == NULL) {
            h5s_node_release(down);
            return -1;
        }
        sv->v = v;
        sv->cap = cap;
    }
    sv->v[sv->n].low = low;
    sv->v[sv->n].high = high;
    sv->v[sv->n].down = down;
    sv->n++;
    return 0;
}

/* op(a, b) on the lists of dimension dim (NULL: nothing selected). Returns a new reference, or
 * NULL for an empty result or an error (ctx->err set). */
static h5s_node *tree_op(op_ctx *ctx, h5s_node *a, h5s_node *b, int dim) {
    if (a == NULL && b == NULL)
        return NULL;
    /* an empty side: the other side itself (its representative among equal nodes), or nothing */
    if (b == NULL)
        return (ctx->op == H5S_OP_OR || ctx->op == H5S_OP_XOR || ctx->op == H5S_OP_NOTB) ? node_ref(a) : NULL;
    if (a == NULL)
        return (ctx->op == H5S_OP_OR || ctx->op == H5S_OP_XOR || ctx->op == H5S_OP_NOTA) ? node_ref(b) : NULL;
    void *found;
    if (h5s_pmap_find(&ctx->memo, a, b, &found))
        return node_ref(found);
    const int leaf = dim == ctx->rank - 1;
    const size_t na = a ? a->nspans : 0, nb = b ? b->nspans : 0;
    size_t i = 0, j = 0;
    uint64_t cur = 0;
    span_vec out = {NULL, 0, 0};
    while (!ctx->err) {
        while (i < na && a->spans[i].high < cur)
            i++;
        while (j < nb && b->spans[j].high < cur)
            j++;
        if (i == na && j == nb)
            break;
        const uint64_t la = i < na ? (a->spans[i].low > cur ? a->spans[i].low : cur) : UINT64_MAX;
        const uint64_t lb = j < nb ? (b->spans[j].low > cur ? b->spans[j].low : cur) : UINT64_MAX;
        const uint64_t x = la < lb ? la : lb;
        const int in_a = i < na && a->spans[i].low <= x;
        const int in_b = j < nb && b->spans[j].low <= x;
        uint64_t y = UINT64_MAX;
        if (in_a)
            y = a->spans[i].high;
        else if (i < na)
            y = a->spans[i].low - 1;
        if (in_b) {
            if (b->spans[j].high < y)
                y = b->spans[j].high;
        } else if (j < nb && b->spans[j].low - 1 < y) {
            y = b->spans[j].low - 1;
        }
        if (leaf) {
            if (op_keeps(ctx->op, in_a, in_b) && span_push(&out, x, y, NULL) < 0)
                ctx->err = 1;
        } else {
            h5s_node *child = tree_op(ctx, in_a ? a->spans[i].down : NULL, in_b ? b->spans[j].down : NULL,
                                      dim + 1);
            if (child != NULL && span_push(&out, x, y, child) < 0)
                ctx->err = 1;
        }
        cur = y + 1;
    }
    h5s_node *result = NULL;
    if (!ctx->err && out.n > 0) {
        result = intern(ctx->base, &ctx->nodes, out.v, out.n);
        out.n = 0;
        if (result == NULL)
            ctx->err = 1;
    }
    for (size_t k = 0; k < out.n; k++)
        h5s_node_release(out.v[k].down);
    free(out.v);
    if (!ctx->err && h5s_pmap_put(&ctx->memo, a, b, node_ref(result)) < 0) {
        h5s_node_release(result);
        ctx->err = 1;
    }
    if (ctx->err) {
        h5s_node_release(result);
        return NULL;
    }
    return result;
}

/* The representative of node's subtree in the operation's set: the subtree itself, with equal
 * nodes (within it or already in the set) replaced by one of them, so that results built from
 * it compare by pointer. Memoised by pointer; returns a new reference or NULL on error. */
static h5s_node *canon_tree(op_ctx *ctx, h5s_pmap *seen, h5s_node *node) {
    void *found;
    if (h5s_pmap_find(seen, node, NULL, &found))
        return node_ref(found);
    int same = 1;
    h5s_span *spans = NULL;
    if (node->spans[0].down != NULL) {
        spans = malloc(node->nspans * sizeof *spans);
        if (spans == NULL)
            return NULL;
        for (size_t i = 0; i < node->nspans; i++) {
            spans[i] = node->spans[i];
            if (i > 0 && node->spans[i].down == node->spans[i - 1].down)
                spans[i].down = node_ref(spans[i - 1].down);
            else
                spans[i].down = canon_tree(ctx, seen, node->spans[i].down);
            if (spans[i].down == NULL) {
                for (size_t k = 0; k < i; k++)
                    h5s_node_release(spans[k].down);
                free(spans);
                return NULL;
            }
            same &= spans[i].down == node->spans[i].down;
        }
    }
    h5s_node *result;
    if (same) {
        for (size_t i = 0; spans != NULL && i < node->nspans; i++)
            h5s_node_release(spans[i].down);
        result = canonical_or_insert(ctx->base, &ctx->nodes, node);
    } else {
        result = intern(ctx->base, &ctx->nodes, spans, node->nspans);
    }
    free(spans);
    if (result != NULL && h5s_pmap_put(seen, node, NULL, node_ref(result)) < 0) {
        h5s_node_release(result);
        h5s_node_release(result);
        return NULL;
    }
    return result;
}

/* op(a, b) as a tree whose equal subtrees are shared (with the operands' too); a_index holds
 * every node of a. *ok = 0 on error. */
static h5s_node *tree_combine(h5s_seloper op, int rank, h5s_node *a, const nodeset *a_index, h5s_node *b, int *ok) {
    op_ctx ctx = {op, rank, 0, a_index, {NULL, 0, 0}, {NULL, 0, 0}};
    h5s_pmap seen = {NULL, 0, 0};
    h5s_node *ca = node_ref(a), *cb = b ? canon_tree(&ctx, &seen, b) : NULL;
    if (b && !cb)
        ctx.err = 1;
    h5s_node *result = ctx.err ? NULL : tree_op(&ctx, ca, cb, 0);
    h5s_node_release(ca);
    h5s_node_release(cb);
    for (size_t k = 0; k < seen.cap; k++)
        if (seen.e[k].k1 != NULL)
            h5s_node_release((h5s_node *)seen.e[k].val);
    free(seen.e);
    for (size_t k = 0; k < ctx.memo.cap; k++)
        if (ctx.memo.e[k].k1 != NULL || ctx.memo.e[k].k2 != NULL)
            h5s_node_release((h5s_node *)ctx.memo.e[k].val);
    for (size_t k = 0; k < ctx.nodes.cap; k++)
        h5s_node_release(ctx.nodes.e[k]);
    free(ctx.memo.e);
    free(ctx.nodes.e);
    *ok = !ctx.err;
    return result;
}

/* The span tree of a regular hyperslab (every count and block non-zero). */
static h5s_node *tree_regular(int rank, const h5s_dim *d) {
    h5s_node *below = NULL;
    for (int dim = rank - 1; dim >= 0; dim--) {
        const int merged = d[dim].stride == d[dim].block || d[dim].count == 1;
        const uint64_t n = merged ? 1 : d[dim].count;
        if (n > SIZE_MAX / sizeof(h5s_span)) {
            h5s_node_release(below);
            return NULL;
        }
        h5s_span *spans = malloc((size_t)n * sizeof *spans);
        if (spans == NULL) {
            h5s_node_release(below);
            return NULL;
        }
        for (uint64_t k = 0; k < n; k++) {
            spans[k].low = d[dim].start + k * d[dim].stride;
            spans[k].high = merged ? d[dim].start + d[dim].count * d[dim].block - 1 : spans[k].low + d[dim].block - 1;
            spans[k].down = node_ref(below);
        }
        h5s_node *node = node_new(spans, (size_t)n, spans_hash(spans, (size_t)n));
        free(spans);
        h5s_node_release(below);
        if (node == NULL)
            return NULL;
        below = node;
    }
    return below;
}

/* ---------------------------------------------------------------------------------------- */
/* Spaces                                                                                   */

static void clear_selection(h5s_space *s) {
    free(s->coords);
    s->coords = NULL;
    s->npoints = 0;
    h5s_node_release(s->tree);
    s->tree = NULL;
    s->tree_nnodes = 0;
    free(s->index.e);
    s->index.e = NULL;
    s->index.cap = s->index.n = 0;
    s->regular = 0;
    s->hyper_npoints = 0;
}

h5s_space *h5s_create_simple(int rank, const uint64_t *dims) {
    if (rank < 0 || rank > H5S_MPIO_MAX_RANK || (rank > 0 && dims == NULL))
        return NULL;
    uint64_t total = 1;
    for (int u = 0; u < rank; u++) {
        if (dims[u] >= H5S_COORD_LIMIT)
            return NULL;
        if (dims[u] != 0 && total > (UINT64_C(1) << 63) / dims[u])
            return NULL;
        total *= dims[u];
    }
    h5s_space *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->rank = rank;
    for (int u = 0; u < rank; u++)
        s->dims[u] = dims[u];
    s->kind = H5S_KIND_ALL;
    return s;
}

h5s_space *h5s_copy(const h5s_space *space) {
    if (space == NULL)
        return NULL;
    h5s_space *s = malloc(sizeof *s);
    if (s == NULL)
        return NULL;
    *s = *space;
    s->index.e = NULL; /* a cache, rebuilt when needed */
    s->index.cap = s->index.n = 0;
    if (space->coords != NULL) {
        size_t bytes = space->npoints * (size_t)space->rank * sizeof(uint64_t);
        s->coords = malloc(bytes);
        if (s->coords == NULL) {
            free(s);
            return NULL;
        }
        memcpy(s->coords, space->coords, bytes);
    }
    node_ref(s->tree);
    return s;
}

void h5s_close(h5s_space *space) {
    if (space == NULL)
        return;
    clear_selection(space);
    free(space);
}

int h5s_get_rank(const h5s_space *space) { return space == NULL ? -1 : space->rank; }

int h5s_get_simple_extent_dims(const h5s_space *space, uint64_t *dims) {
    if (space == NULL)
        return -1;
    for (int u = 0; dims != NULL && u < space->rank; u++)
        dims[u] = space->dims[u];
    return space->rank;
}

int h5s_select_all(h5s_space *space) {
    if (space == NULL)
        return -1;
    clear_selection(space);
    space->kind = H5S_KIND_ALL;
    return 0;
}

int h5s_select_none(h5s_space *space) {
    if (space == NULL)
        return -1;
    clear_selection(space);
    space->kind = H5S_KIND_NONE;
    return 0;
}

int h5s_offset_simple(h5s_space *space, const int64_t *offset) {
    if (space == NULL || offset == NULL || space->rank == 0)
        return -1;
    for (int u = 0; u < space->rank; u++)
        if (offset[u] >= (int64_t)H5S_COORD_LIMIT || offset[u] <= -(int64_t)H5S_COORD_LIMIT)
            return -1;
    for (int u = 0; u < space->rank; u++)
        space->offset[u] = offset[u];
    return 0;
}

int h5s_select_elements(h5s_space *space, h5s_seloper op, size_t num_elem, const uint64_t *coord) {
    if (space == NULL || coord == NULL || num_elem == 0 || space->rank == 0)
        return -1;
    if (op != H5S_OP_SET && op != H5S_OP_APPEND && op != H5S_OP_PREPEND)
        return -1;
    const size_t rank = (size_t)space->rank;
    if (num_elem > SIZE_MAX / rank / sizeof(uint64_t))
        return -1;
    for (size_t k = 0; k < num_elem * rank; k++)
        if (coord[k] >= H5S_COORD_LIMIT)
            return -1;
    const int keep = op != H5S_OP_SET && space->kind == H5S_KIND_POINTS;
    const size_t old = keep ? space->npoints : 0;
    if (old > SIZE_MAX / rank / sizeof(uint64_t) - num_elem)
        return -1;
    uint64_t *c = malloc((old + num_elem) * rank * sizeof *c);
    if (c == NULL)
        return -1;
    const size_t at_new = (keep && op == H5S_OP_PREPEND) ? 0 : old;
    const size_t at_old = (keep && op == H5S_OP_PREPEND) ? num_elem : 0;
    memcpy(c + at_new * rank, coord, num_elem * rank * sizeof *c);
    if (old > 0)
        memcpy(c + at_old * rank, space->coords, old * rank * sizeof *c);
    clear_selection(space);
    space->kind = H5S_KIND_POINTS;
    space->coords = c;
    space->npoints = old + num_elem;
    return 0;
}

/* Puts every distinct node of a canonical tree in index (no references taken) and, when lo / hi
 * are given, finds the bounding box per dimension; returns the number of nodes or -1. */
static long index_tree(h5s_node *tree, int rank, nodeset *index, uint64_t *lo, uint64_t *hi) {
    for (int u = 0; lo != NULL && u < rank; u++) {
        lo[u] = UINT64_MAX;
        hi[u] = 0;
    }
    if (tree == NULL)
        return 0;
    size_t nstack = 0, capstack = 64;
    long nnodes = 0;
    h5s_node **stack = malloc(capstack * sizeof *stack);
    if (stack == NULL || nodeset_add(index, tree) < 0) {
        free(stack);
        return -1;
    }
    stack[nstack++] = tree;
    while (nstack > 0) {
        h5s_node *node = stack[--nstack];
        nnodes++;
        if (lo != NULL) { /* a node's depth is the length of its chain of children */
            int depth = rank - 1;
            for (const h5s_node *n = node; n->spans[0].down != NULL; n = n->spans[0].down)
                depth--;
            if (node->spans[0].low < lo[depth])
                lo[depth] = node->spans[0].low;
            if (node->spans[node->nspans - 1].high > hi[depth])
                hi[depth] = node->spans[node->nspans - 1].high;
        }
        for (size_t i = 0; node->spans[0].down != NULL && i < node->nspans; i++) {
            h5s_node *down = node->spans[i].down;
            if ((i > 0 && down == node->spans[i - 1].down) || nodeset_find(index, down) != NULL)
                continue;
            if (nodeset_add(index, down) < 0) {
                free(stack);
                return -1;
            }
            if (nstack == capstack) {
                h5s_node **st = realloc(stack, 2 * capstack * sizeof *st);
                if (st == NULL) {
                    free(stack);
                    return -1;
                }
                stack = st;
                capstack *= 2;
            }
            stack[nstack++] = down;
        }
    }
    free(stack);
    return nnodes;
}

/* Indexes the distinct nodes of the tree, finds its bounding box and whether it is regular. */
static int finish_tree(h5s_space *s) {
    const int rank = s->rank;
    s->index.e = NULL;
    s->index.cap = s->index.n = 0;
    const long nnodes = index_tree(s->tree, rank, &s->index, s->lo, s->hi);
    if (nnodes < 0) {
        free(s->index.e);
        s->index.e = NULL;
        s->index.cap = s->index.n = 0;
        return -1;
    }
    s->tree_nnodes = (size_t)nnodes;
    /* Regular: one distinct list per dimension, its spans equally long and equally spaced. */
    s->regular = 1;
    const h5s_node *node = s->tree;
    for (int u = 0; u < rank && s->regular; u++) {
        const h5s_span *sp = node->spans;
        const size_t n = node->nspans;
        const uint64_t block = sp[0].high - sp[0].low + 1;
        const uint64_t stride = n > 1 ? sp[1].low - sp[0].low : block;
        for (size_t i = 0; i < n && s->regular; i++) {
            if (sp[i].high - sp[i].low + 1 != block || sp[i].low != sp[0].low + i * stride ||
                sp[i].down != sp[0].down)
                s->regular = 0;
        }
        s->diminfo[u].start = sp[0].low;
        s->diminfo[u].stride = stride;
        s->diminfo[u].count = n;
        s->diminfo[u].block = block;
        node = sp[0].down;
    }
    return 0;
}

int h5s_select_hyperslab(h5s_space *space, h5s_seloper op, const uint64_t *start, const uint64_t *stride,
                         const uint64_t *count, const uint64_t *block) {
    if (space == NULL || start == NULL || count == NULL || space->rank == 0)
        return -1;
    if (op < H5S_OP_SET || op > H5S_OP_NOTA)
        return -1;
    const int rank = space->rank;
    h5s_dim d[H5S_MPIO_MAX_RANK];
    int empty = 0;
    /* HDF5's order of checks: zero strides; then dimension by dimension overlapping blocks (an
     * error) and empty slabs (a success whatever the later dimensions hold) */
    for (int u = 0; u < rank; u++) {
        d[u].start = start[u];
        d[u].stride = stride ? stride[u] : 1;
        d[u].count = count[u];
        d[u].block = block ? block[u] : 1;
        if (d[u].stride == 0)
            return -1;
    }
    for (int u = 0; u < rank && !empty; u++) {
        if (d[u].count > 1 && d[u].stride < d[u].block)
            return -1; /* overlapping blocks */
        if (d[u].count == 0 || d[u].block == 0)
            empty = 1;
    }
    for (int u = 0; u < rank && !empty; u++) {
        if (d[u].start >= H5S_COORD_LIMIT || d[u].stride >= H5S_COORD_LIMIT || d[u].count >= H5S_COORD_LIMIT ||
            d[u].block >= H5S_COORD_LIMIT)
            return -1;
        /* the last coordinate, start + (count - 1) * stride + block - 1, must stay below the limit */
        const uint64_t room = H5S_COORD_LIMIT - d[u].start;
        if (d[u].block > room)
            return -1;
        if (d[u].count > 1 && (d[u].count - 1) > (room - d[u].block) / d[u].stride)
            return -1;
    }
    if (empty) { /* HDF5 checks this before the kind of the current selection */
        if (op == H5S_OP_SET || op == H5S_OP_AND || op == H5S_OP_NOTA)
            return h5s_select_none(space);
        return 0;
    }
    if (space->kind == H5S_KIND_POINTS && op != H5S_OP_SET)
        return -1;
    if (space->kind == H5S_KIND_NONE) {
        if (op == H5S_OP_AND || op == H5S_OP_NOTB)
            return 0;
        op = H5S_OP_SET;
    }
    uint64_t npoints = 1;
    for (int u = 0; u < rank; u++) {
        uint64_t n = d[u].count * d[u].block; /* both below 2^62 and their span fits: no overflow */
        if (npoints > UINT64_MAX / n)
            return -1;
        npoints *= n;
    }
    if (op == H5S_OP_SET) {
        clear_selection(space);
        space->kind = H5S_KIND_HYPER;
        space->regular = 1;
        space->hyper_npoints = npoints;
        for (int u = 0; u < rank; u++) {
            space->diminfo[u] = d[u];
            space->lo[u] = d[u].start;
            space->hi[u] = d[u].start + (d[u].count - 1) * d[u].stride + d[u].block - 1;
        }
        return 0;
    }
    /* The current selection as a tree. */
    h5s_node *current = NULL;
    if (space->kind == H5S_KIND_ALL) {
        h5s_dim all[H5S_MPIO_MAX_RANK];
        int zero = 0;
        for (int u = 0; u < rank; u++) {
            all[u].start = 0;
            all[u].stride = 1;
            all[u].count = 1;
            all[u].block = space->dims[u];
            zero |= space->dims[u] == 0;
        }
        if (!zero && (current = tree_regular(rank, all)) == NULL)
            return -1;
    } else if (space->tree != NULL) {
        current = node_ref(space->tree);
    } else if ((current = tree_regular(rank, space->diminfo)) == NULL) {
        return -1;
    }
    /* the index of the current tree's nodes: the space's own, or one made for this call */
    nodeset temp = {NULL, 0, 0};
    nodeset *index = &temp;
    if (current != NULL && current == space->tree) {
        if (space->index.n == 0 && index_tree(current, rank, &space->index, NULL, NULL) < 0) {
            free(space->index.e);
            space->index.e = NULL;
            space->index.cap = space->index.n = 0;
            h5s_node_release(current);
            return -1;
        }
        index = &space->index;
    } else if (index_tree(current, rank, &temp, NULL, NULL) < 0) {
        free(temp.e);
        h5s_node_release(current);
        return -1;
    }
    h5s_node *added = tree_regular(rank, d);
    if (added == NULL) {
        free(temp.e);
        h5s_node_release(current);
        return -1;
    }
    int ok;
    h5s_node *result = tree_combine(op, rank, current, index, added, &ok);
    free(temp.e);
    h5s_node_release(current);
    h5s_node_release(added);
    if (!ok)
        return -1;
    if (result == NULL)
        return h5s_select_none(space);
    h5s_space next = *space;
    next.kind = H5S_KIND_HYPER;
    next.coords = NULL;
    next.npoints = 0;
    next.tree = result;
    next.hyper_npoints = result->npoints;
    if (finish_tree(&next) < 0) {
        h5s_node_release(result);
        return -1;
    }
    clear_selection(space);
    *space = next;
    return 0;
}

int64_t h5s_get_select_npoints(const h5s_space *space) {
    if (space == NULL)
        return -1;
    switch (space->kind) {
    case H5S_KIND_NONE: return 0;
    case H5S_KIND_ALL: {
        uint64_t total = 1;
        for (int u = 0; u < space->rank; u++)
            total *= space->dims[u];
        return (int64_t)total;
    }
    case H5S_KIND_POINTS: return (int64_t)space->npoints;
    case H5S_KIND_HYPER: return space->hyper_npoints > INT64_MAX ? -1 : (int64_t)space->hyper_npoints;
    }
    return -1;
}

static int inside(uint64_t c, int64_t off, uint64_t dim) {
    const int64_t moved = (int64_t)c + off;
    return moved >= 0 && (uint64_t)moved < dim;
}

int h5s_select_valid(const h5s_space *space) {
    if (space == NULL)
        return -1;
    const int rank = space->rank;
    switch (space->kind) {
    case H5S_KIND_NONE:
    case H5S_KIND_ALL: return 1;
    case H5S_KIND_POINTS:
        for (size_t k = 0; k < space->npoints; k++)
            for (int u = 0; u < rank; u++)
                if (!inside(space->coords[k * (size_t)rank + (size_t)u], space->offset[u], space->dims[u]))
                    return 0;
        return 1;
    case H5S_KIND_HYPER:
        for (int u = 0; u < rank; u++)
            if (!inside(space->lo[u], space->offset[u], space->dims[u]) ||
                !inside(space->hi[u], space->offset[u], space->dims[u]))
                return 0;
        return 1;
    }
    return -1;
}

int h5s_select_is_regular_hyperslab(const h5s_space *space) {
    if (space == NULL)
        return -1;
    return space->kind == H5S_KIND_HYPER && space->regular;
}

/* ---------------------------------------------------------------------------------------- */
/* Iteration over a hyperslab selection in row-major order                                  */

typedef struct {
    const h5s_space *space;
    uint64_t rowsize[H5S_MPIO_MAX_RANK]; /* elements in one index step of each dimension */
    int (*fn)(void *, uint64_t);
    void *ctx;
} iter_state;

static int iter_tree(const iter_state *st, const h5s_node *node, int dim, uint64_t base) {
    for (size_t i = 0; i < node->nspans; i++) {
        for (uint64_t c = node->spans[i].low; c <= node->spans[i].high; c++) {
            const uint64_t at = base + (uint64_t)((int64_t)c + st->space->offset[dim]) * st->rowsize[dim];
            int rc = node->spans[i].down ? iter_tree(st, node->spans[i].down, dim + 1, at) : st->fn(st->ctx, at);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

static int iter_regular(const iter_state *st, int dim, uint64_t base) {
    const h5s_dim *d = &st->space->diminfo[dim];
    const int last = dim == st->space->rank - 1;
    for (uint64_t k = 0; k < d->count; k++) {
        for (uint64_t b = 0; b < d->block; b++) {
            const uint64_t c = d->start + k * d->stride + b;
            const uint64_t at = base + (uint64_t)((int64_t)c + st->space->offset[dim]) * st->rowsize[dim];
            int rc = last ? st->fn(st->ctx, at) : iter_regular(st, dim + 1, at);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

int h5s_hyper_iterate(const h5s_space *space, int (*fn)(void *ctx, uint64_t index), void *ctx) {
    iter_state st;
    st.space = space;
    st.fn = fn;
    st.ctx = ctx;
    uint64_t row = 1;
    for (int u = space->rank - 1; u >= 0; u--) {
        st.rowsize[u] = row;
        row *= space->dims[u];
    }
    if (space->tree != NULL)
        return iter_tree(&st, space->tree, 0, 0);
    return iter_regular(&st, 0, 0);
}
