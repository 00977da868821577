/* The datatype builders: HDF5's H5S_mpio_* construction of an MPI datatype from a selection,
 * calling only the standard MPI API. Every count given to an MPI constructor is at most the
 * bigio threshold; larger counts are split into nested types whose displacements follow from
 * the standard's type maps. */
#include "h5s_internal.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The one process-wide setting: the largest count passed to an MPI constructor. */
static _Atomic uint64_t bigio_count = UINT64_C(1) << 30;

uint64_t h5s_mpio_set_bigio_count(uint64_t new_count) {
    if (new_count == 0 || new_count > (uint64_t)INT_MAX)
        return atomic_load(&bigio_count);
    return atomic_exchange(&bigio_count, new_count);
}

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        if ((call) != MPI_SUCCESS)                                                                                     \
            return -1;                                                                                                 \
    } while (0)

static void free_type(MPI_Datatype *t) {
    if (*t != MPI_DATATYPE_NULL)
        MPI_Type_free(t);
    *t = MPI_DATATYPE_NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* Large-count helpers                                                                      */

/* n (>= 1) copies of old laid out contiguously, old having extent ext. */
static int contig_large(uint64_t big, uint64_t n, MPI_Datatype old, MPI_Aint ext, MPI_Datatype *out) {
    if (n <= big)
        return MPI_Type_contiguous((int)n, old, out) == MPI_SUCCESS ? 0 : -1;
    const uint64_t q = n / big, r = n % big;
    MPI_Datatype chunk, body, tail;
    CHECK(MPI_Type_contiguous((int)big, old, &chunk));
    int rc = contig_large(big, q, chunk, ext * (MPI_Aint)big, &body);
    free_type(&chunk);
    if (rc < 0)
        return -1;
    if (r == 0) {
        *out = body;
        return 0;
    }
    if (MPI_Type_contiguous((int)r, old, &tail) != MPI_SUCCESS) {
        free_type(&body);
        return -1;
    }
    int blens[2] = {1, 1};
    MPI_Aint disps[2] = {0, (MPI_Aint)q * (MPI_Aint)big * ext};
    MPI_Datatype types[2] = {body, tail};
    rc = MPI_Type_create_struct(2, blens, disps, types, out) == MPI_SUCCESS ? 0 : -1;
    free_type(&body);
    free_type(&tail);
    return rc;
}

/* count (>= 1) copies of old, stride bytes apart. HDF5's own version uses the element stride
 * for the outer vector too; the copies of a chunk of `big` are big * stride bytes apart. */
static int hvector_large(uint64_t big, uint64_t count, MPI_Aint stride, MPI_Datatype old, MPI_Datatype *out) {
    if (count <= big)
        return MPI_Type_create_hvector((int)count, 1, stride, old, out) == MPI_SUCCESS ? 0 : -1;
    const uint64_t q = count / big, r = count % big;
    MPI_Datatype chunk, body, tail;
    CHECK(MPI_Type_create_hvector((int)big, 1, stride, old, &chunk));
    int rc = hvector_large(big, q, stride * (MPI_Aint)big, chunk, &body);
    free_type(&chunk);
    if (rc < 0)
        return -1;
    if (r == 0) {
        *out = body;
        return 0;
    }
    if (MPI_Type_create_hvector((int)r, 1, stride, old, &tail) != MPI_SUCCESS) {
        free_type(&body);
        return -1;
    }
    int blens[2] = {1, 1};
    MPI_Aint disps[2] = {0, (MPI_Aint)q * (MPI_Aint)big * stride};
    MPI_Datatype types[2] = {body, tail};
    rc = MPI_Type_create_struct(2, blens, disps, types, out) == MPI_SUCCESS ? 0 : -1;
    free_type(&body);
    free_type(&tail);
    return rc;
}

/* A struct of n members (each block length <= big); more than big members are split into
 * structs of at most big members, placed at displacement 0 in an enclosing struct, so the type
 * map keeps the members' order. */
static int struct_large(uint64_t big, size_t n, const int *blens, const MPI_Aint *disps, const MPI_Datatype *types,
                        MPI_Datatype *out) {
    if (n <= big)
        return MPI_Type_create_struct((int)n, blens, disps, types, out) == MPI_SUCCESS ? 0 : -1;
    const size_t nchunks = (size_t)((n + big - 1) / big);
    MPI_Datatype *chunks = malloc(nchunks * sizeof *chunks);
    int *ones = malloc(nchunks * sizeof *ones);
    MPI_Aint *zeros = calloc(nchunks, sizeof *zeros);
    int rc = (chunks && ones && zeros) ? 0 : -1;
    size_t made = 0;
    for (; rc == 0 && made < nchunks; made++) {
        const size_t first = made * (size_t)big;
        const size_t m = n - first < big ? n - first : (size_t)big;
        ones[made] = 1;
        if (MPI_Type_create_struct((int)m, blens + first, disps + first, types + first, &chunks[made]) != MPI_SUCCESS)
            rc = -1;
    }
    if (rc == 0)
        rc = struct_large(big, nchunks, ones, zeros, chunks, out);
    else if (made > 0)
        made--; /* the failed one was not created */
    for (size_t k = 0; chunks && k < made; k++)
        free_type(&chunks[k]);
    free(chunks);
    free(ones);
    free(zeros);
    return rc;
}

/* n blocks of old at byte displacements disps, of lens[i] copies each (any size). */
static int hindexed_large(uint64_t big, size_t n, const uint64_t *lens, const MPI_Aint *disps, MPI_Datatype old,
                          MPI_Aint ext, MPI_Datatype *out) {
    int small = 1;
    for (size_t i = 0; i < n && small; i++)
        small = lens[i] <= big;
    int *blens = malloc((n ? n : 1) * sizeof *blens);
    if (blens == NULL)
        return -1;
    int rc = 0;
    if (small && n <= big) {
        int uniform = 1;
        for (size_t i = 0; i < n; i++) {
            blens[i] = (int)lens[i];
            uniform &= lens[i] == lens[0];
        }
        if (uniform && n > 0) /* one block length: the cheaper hindexed_block */
            rc = MPI_Type_create_hindexed_block((int)n, blens[0], disps, old, out) == MPI_SUCCESS ? 0 : -1;
        else
            rc = MPI_Type_create_hindexed((int)n, blens, disps, old, out) == MPI_SUCCESS ? 0 : -1;
        free(blens);
        return rc;
    }
    /* one struct member per block: old itself, or a large contiguous type for a long block */
    MPI_Datatype *types = malloc((n ? n : 1) * sizeof *types);
    if (types == NULL) {
        free(blens);
        return -1;
    }
    size_t made = 0;
    for (; made < n; made++) {
        if (lens[made] <= big) {
            blens[made] = (int)lens[made];
            types[made] = old;
        } else {
            blens[made] = 1;
            if (contig_large(big, lens[made], old, ext, &types[made]) < 0) {
                rc = -1;
                break;
            }
        }
    }
    if (rc == 0)
        rc = struct_large(big, n, blens, disps, types, out);
    for (size_t i = 0; i < made; i++)
        if (types[i] != old)
            free_type(&types[i]);
    free(types);
    free(blens);
    return rc;
}

/* n single copies of old at byte displacements disps: hindexed_block, split past big. */
static int points_type(uint64_t big, size_t n, const MPI_Aint *disps, MPI_Datatype old, MPI_Datatype *out) {
    if (n <= big)
        return MPI_Type_create_hindexed_block((int)n, 1, disps, old, out) == MPI_SUCCESS ? 0 : -1;
    const size_t nchunks = (size_t)((n + big - 1) / big);
    MPI_Datatype *chunks = malloc(nchunks * sizeof *chunks);
    int *ones = malloc(nchunks * sizeof *ones);
    MPI_Aint *zeros = calloc(nchunks, sizeof *zeros);
    int rc = (chunks && ones && zeros) ? 0 : -1;
    size_t made = 0;
    for (; rc == 0 && made < nchunks; made++) {
        const size_t first = made * (size_t)big;
        const size_t m = n - first < big ? n - first : (size_t)big;
        ones[made] = 1;
        if (MPI_Type_create_hindexed_block((int)m, 1, disps + first, old, &chunks[made]) != MPI_SUCCESS) {
            rc = -1;
            break;
        }
    }
    if (rc == 0)
        rc = struct_large(big, nchunks, ones, zeros, chunks, out);
    for (size_t k = 0; chunks && k < made; k++)
        free_type(&chunks[k]);
    free(chunks);
    free(ones);
    free(zeros);
    return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Regular hyperslabs                                                                       */

/* HDF5's construction: fold fully selected fast dimensions into the slower ones, then from the
 * fastest dimension outwards a vector of the inner type, moved to the start of the selection
 * (hindexed) and resized to the extent of the dimension. */
static int regular_type(uint64_t big, const h5s_space *s, MPI_Datatype elem, MPI_Aint elmt, MPI_Datatype *out) {
    int k = s->rank;
    uint64_t xt[H5S_MPIO_MAX_RANK];
    h5s_dim d[H5S_MPIO_MAX_RANK];
    for (int u = 0; u < k; u++) {
        xt[u] = s->dims[u];
        d[u] = s->diminfo[u];
        d[u].start = (uint64_t)((int64_t)d[u].start + s->offset[u]);
    }
    for (int u = 0; u < k; u++) {
        if (d[u].count == 1 || d[u].stride == d[u].block) {
            d[u].block *= d[u].count;
            d[u].count = 1;
            d[u].stride = d[u].block;
        }
    }
    while (k >= 2 && d[k - 1].start == 0 && d[k - 1].count == 1 && d[k - 1].block == xt[k - 1]) {
        const uint64_t f = xt[k - 1];
        h5s_dim *p = &d[k - 2];
        xt[k - 2] *= f;
        p->start *= f;
        p->block *= f;
        p->stride *= f;
        if (p->count == 1 || p->stride == p->block) {
            p->block *= p->count;
            p->count = 1;
            p->stride = p->block;
        }
        k--;
    }
    MPI_Datatype inner = elem, outer = MPI_DATATYPE_NULL, moved = MPI_DATATYPE_NULL;
    MPI_Aint inner_ext = elmt;
    int rc = 0;
    for (int u = k - 1; u >= 0 && rc == 0; u--) {
        const MPI_Aint stride = (MPI_Aint)d[u].stride * inner_ext;
        if (d[u].count <= big && d[u].block <= big) {
            if (d[u].stride <= (uint64_t)INT_MAX)
                rc = MPI_Type_vector((int)d[u].count, (int)d[u].block, (int)d[u].stride, inner, &outer);
            else
                rc = MPI_Type_create_hvector((int)d[u].count, (int)d[u].block, stride, inner, &outer);
            rc = rc == MPI_SUCCESS ? 0 : -1;
        } else {
            MPI_Datatype blk;
            rc = contig_large(big, d[u].block, inner, inner_ext, &blk);
            if (rc == 0) {
                rc = hvector_large(big, d[u].count, stride, blk, &outer);
                free_type(&blk);
            }
        }
        if (inner != elem)
            free_type(&inner);
        if (rc < 0)
            break;
        const MPI_Aint start = (MPI_Aint)d[u].start * inner_ext;
        const MPI_Aint row = (MPI_Aint)xt[u] * inner_ext;
        if (start > 0) {
            int one = 1;
            rc = MPI_Type_create_hindexed(1, &one, &start, outer, &moved) == MPI_SUCCESS ? 0 : -1;
            free_type(&outer);
            if (rc < 0)
                break;
            outer = moved;
        }
        MPI_Aint lb, ext;
        rc = MPI_Type_get_extent(outer, &lb, &ext) == MPI_SUCCESS ? 0 : -1;
        if (rc == 0 && (lb != 0 || ext != row)) {
            moved = MPI_DATATYPE_NULL; /* stays so if the call fails */
            rc = MPI_Type_create_resized(outer, 0, row, &moved) == MPI_SUCCESS ? 0 : -1;
            free_type(&outer);
            outer = moved;
        }
        inner = outer;
        inner_ext = row;
    }
    if (rc < 0) {
        if (inner != elem)
            free_type(&inner);
        return -1;
    }
    if (inner == elem) /* rank 0 cannot reach here; keep ownership simple */
        return -1;
    *out = inner;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Irregular hyperslabs                                                                     */

typedef struct {
    uint64_t big;
    const h5s_space *s;
    MPI_Datatype elem;
    MPI_Aint elmt;
    MPI_Aint row[H5S_MPIO_MAX_RANK]; /* bytes per index step of each dimension */
    h5s_pmap index;                  /* node -> 1 + its slot in memo */
    MPI_Datatype *memo;              /* the type of each node built so far */
    size_t nmemo;
} span_ctx;

/* The type of one instance of node (dimension dim), built once per distinct node. */
static int node_type(span_ctx *c, const h5s_node *node, int dim, MPI_Datatype *out) {
    void *slot;
    if (h5s_pmap_find(&c->index, node, NULL, &slot)) {
        *out = c->memo[(uintptr_t)slot - 1];
        return 0;
    }
    const size_t n = node->nspans;
    MPI_Aint *disps = malloc(n * sizeof *disps);
    uint64_t *lens = malloc(n * sizeof *lens);
    int rc = (disps && lens) ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        disps[i] = ((MPI_Aint)node->spans[i].low + (MPI_Aint)c->s->offset[dim]) * c->row[dim];
        lens[i] = node->spans[i].high - node->spans[i].low + 1;
    }
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (rc == 0 && dim == c->s->rank - 1) {
        rc = hindexed_large(c->big, n, lens, disps, c->elem, c->elmt, &t);
    } else if (rc == 0) {
        MPI_Datatype *types = malloc(n * sizeof *types);
        int *ones = malloc(n * sizeof *ones);
        size_t made = 0;
        rc = (types && ones) ? 0 : -1;
        for (; rc == 0 && made < n; made++) {
            MPI_Datatype child;
            ones[made] = 1;
            rc = node_type(c, node->spans[made].down, dim + 1, &child);
            if (rc == 0 && lens[made] == 1)
                types[made] = child; /* one row: the child itself, no vector of one */
            else if (rc == 0)
                rc = hvector_large(c->big, lens[made], c->row[dim], child, &types[made]);
            if (rc < 0)
                break;
        }
        if (rc == 0)
            rc = struct_large(c->big, n, ones, disps, types, &t);
        for (size_t i = 0; i < made; i++)
            if (lens[i] != 1)
                free_type(&types[i]);
        free(types);
        free(ones);
    }
    free(disps);
    free(lens);
    if (rc < 0)
        return -1;
    if (c->nmemo == SIZE_MAX || h5s_pmap_put(&c->index, node, NULL, (void *)(uintptr_t)(c->nmemo + 1)) < 0) {
        free_type(&t);
        return -1;
    }
    c->memo[c->nmemo++] = t;
    *out = t;
    return 0;
}

static int span_type(uint64_t big, const h5s_space *s, MPI_Datatype elem, MPI_Aint elmt, MPI_Datatype *out) {
    span_ctx c;
    c.big = big;
    c.s = s;
    c.elem = elem;
    c.elmt = elmt;
    MPI_Aint row = elmt;
    for (int u = s->rank - 1; u >= 0; u--) {
        c.row[u] = row;
        row *= (MPI_Aint)s->dims[u];
    }
    c.index.e = NULL;
    c.index.cap = c.index.n = 0;
    c.nmemo = 0;
    c.memo = malloc((s->tree_nnodes ? s->tree_nnodes : 1) * sizeof *c.memo);
    if (c.memo == NULL)
        return -1;
    MPI_Datatype root;
    int rc = node_type(&c, s->tree, 0, &root);
    if (rc == 0) {
        *out = root; /* the last one built */
        c.nmemo--;
    }
    for (size_t i = 0; i < c.nmemo; i++)
        free_type(&c.memo[i]);
    free(c.memo);
    free(c.index.e);
    return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Points and permutations                                                                  */

typedef struct {
    MPI_Aint disp;
    uint64_t index;
} disp_index;

static int by_disp(const void *pa, const void *pb) {
    const disp_index *a = pa, *b = pb;
    if (a->disp != b->disp)
        return a->disp < b->disp ? -1 : 1;
    return a->index < b->index ? -1 : (a->index > b->index);
}

static MPI_Aint linear_point(const h5s_space *s, size_t k, MPI_Aint elmt) {
    MPI_Aint at = 0;
    for (int u = 0; u < s->rank; u++)
        at = at * (MPI_Aint)s->dims[u] + (MPI_Aint)s->coords[k * (size_t)s->rank + (size_t)u] + (MPI_Aint)s->offset[u];
    return at * elmt;
}

static int point_type(uint64_t big, const h5s_space *s, MPI_Datatype elem, MPI_Aint elmt, int do_permute,
                      uint64_t **permute_map, int *is_permuted, MPI_Datatype *out) {
    const size_t n = s->npoints;
    MPI_Aint *disps = malloc(n * sizeof *disps);
    if (disps == NULL)
        return -1;
    int sorted = 1;
    for (size_t k = 0; k < n; k++) {
        disps[k] = linear_point(s, k, elmt);
        if (k > 0 && disps[k] < disps[k - 1])
            sorted = 0;
    }
    uint64_t *map = NULL;
    if (do_permute && !sorted) {
        disp_index *pairs = malloc(n * sizeof *pairs);
        map = malloc(n * sizeof *map);
        if (pairs == NULL || map == NULL) {
            free(pairs);
            free(map);
            free(disps);
            return -1;
        }
        for (size_t k = 0; k < n; k++) {
            pairs[k].disp = disps[k];
            pairs[k].index = k;
        }
        qsort(pairs, n, sizeof *pairs, by_disp);
        for (size_t j = 0; j < n; j++) {
            disps[j] = pairs[j].disp;
            map[pairs[j].index] = j;
        }
        free(pairs);
    }
    int rc = points_type(big, n, disps, elem, out);
    free(disps);
    if (rc < 0) {
        free(map);
        return -1;
    }
    if (map != NULL) {
        *permute_map = map;
        *is_permuted = 1;
    }
    return 0;
}

typedef struct {
    MPI_Aint *disps;
    const uint64_t *map;
    size_t n, next;
    MPI_Aint elmt;
    unsigned char *seen;
} permute_ctx;

static int permute_put(void *pc, uint64_t index) {
    permute_ctx *c = pc;
    if (c->next >= c->n)
        return -1;
    const uint64_t to = c->map[c->next++];
    if (to >= c->n || c->seen[to])
        return -1;
    c->seen[to] = 1;
    c->disps[to] = (MPI_Aint)index * c->elmt;
    return 0;
}

/* The memory-side type matching a permuted file-side point type: the i-th element of the
 * memory selection goes to position map[i]. */
static int permute_type(uint64_t big, const h5s_space *s, MPI_Datatype elem, MPI_Aint elmt, const uint64_t *map,
                        MPI_Datatype *out) {
    const int64_t np = h5s_get_select_npoints(s);
    if (np < 0 || (uint64_t)np > SIZE_MAX / sizeof(MPI_Aint))
        return -1;
    permute_ctx c;
    c.n = (size_t)np;
    c.next = 0;
    c.map = map;
    c.elmt = elmt;
    c.disps = malloc((c.n ? c.n : 1) * sizeof *c.disps);
    c.seen = calloc(c.n ? c.n : 1, 1);
    int rc = (c.disps && c.seen) ? 0 : -1;
    if (rc == 0) {
        switch (s->kind) {
        case H5S_KIND_NONE: break;
        case H5S_KIND_ALL:
            for (size_t k = 0; k < c.n && rc == 0; k++)
                rc = permute_put(&c, k);
            break;
        case H5S_KIND_POINTS:
            for (size_t k = 0; k < c.n && rc == 0; k++)
                rc = permute_put(&c, (uint64_t)(linear_point(s, k, 1)));
            break;
        case H5S_KIND_HYPER: rc = h5s_hyper_iterate(s, permute_put, &c); break;
        }
    }
    if (rc == 0 && c.next != c.n)
        rc = -1;
    if (rc == 0)
        rc = points_type(big, c.n, c.disps, elem, out);
    free(c.disps);
    free(c.seen);
    return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Dispatch                                                                                 */

int h5s_mpio_space_type(const h5s_space *space, size_t elmt_size, MPI_Datatype *new_type, int *count,
                        int *is_derived_type, int do_permute, uint64_t **permute_map, int *is_permuted) {
    if (space == NULL || new_type == NULL || count == NULL || is_derived_type == NULL || elmt_size == 0)
        return -1;
    if (do_permute && space->kind == H5S_KIND_POINTS && (permute_map == NULL || is_permuted == NULL))
        return -1; /* do_permute means nothing for other selections */
    const int memory_side = !do_permute && is_permuted != NULL && *is_permuted == 1;
    if (memory_side && (permute_map == NULL || *permute_map == NULL))
        return -1;
    if (h5s_select_valid(space) != 1)
        return -1;
    /* a struct of two members needs a count of 2: below that nothing can be split further */
    const uint64_t threshold = atomic_load(&bigio_count);
    const uint64_t big = threshold < 2 ? 2 : threshold;
    const int64_t np = h5s_get_select_npoints(space);
    uint64_t extent = 1; /* elements of the extent: bounded at creation */
    for (int u = 0; u < space->rank; u++)
        extent *= space->dims[u];
    if (np < 0 || (extent != 0 && elmt_size > (uint64_t)INT64_MAX / extent))
        return -1;
    const MPI_Aint elmt = (MPI_Aint)elmt_size;

    if (!memory_side && (space->kind == H5S_KIND_NONE || np == 0)) {
        *new_type = MPI_BYTE;
        *count = 0;
        *is_derived_type = 0;
        return 0;
    }
    if (!memory_side && space->kind == H5S_KIND_ALL) {
        const uint64_t bytes = (uint64_t)np * elmt_size;
        if (bytes <= big) {
            *new_type = MPI_BYTE;
            *count = (int)bytes;
            *is_derived_type = 0;
            return 0;
        }
        MPI_Datatype t;
        if (contig_large(big, bytes, MPI_BYTE, 1, &t) < 0)
            return -1;
        if (MPI_Type_commit(&t) != MPI_SUCCESS) {
            free_type(&t);
            return -1;
        }
        *new_type = t;
        *count = 1;
        *is_derived_type = 1;
        return 0;
    }

    MPI_Datatype elem, t = MPI_DATATYPE_NULL;
    if (contig_large(big, elmt_size, MPI_BYTE, 1, &elem) < 0)
        return -1;
    int rc;
    uint64_t *map = NULL; /* a permutation made here, handed out only on success */
    int permuted = 0;
    if (memory_side)
        rc = permute_type(big, space, elem, elmt, *permute_map, &t);
    else if (space->kind == H5S_KIND_POINTS)
        rc = point_type(big, space, elem, elmt, do_permute, &map, &permuted, &t);
    else if (space->regular)
        rc = regular_type(big, space, elem, elmt, &t);
    else
        rc = span_type(big, space, elem, elmt, &t);
    free_type(&elem);
    if (rc == 0 && MPI_Type_commit(&t) != MPI_SUCCESS)
        rc = -1;
    if (rc < 0) {
        free_type(&t);
        free(map);
        return -1;
    }
    if (permuted) {
        *permute_map = map;
        *is_permuted = 1;
    }
    if (memory_side) {
        free(*permute_map);
        *permute_map = NULL;
    }
    *new_type = t;
    *count = 1;
    *is_derived_type = 1;
    return 0;
}
