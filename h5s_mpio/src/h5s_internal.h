/* Internal data structures of h5s_mpio: the selection model shared by h5s_space.c (selections)
 * and h5s_type.c (the datatype builders). */
#ifndef H5S_MPIO_INTERNAL_H
#define H5S_MPIO_INTERNAL_H

#include "h5s_mpio.h"

#include <stddef.h>
#include <stdint.h>

/* Coordinates, offsets and counts stay below 2^62 so that sums of two never overflow. */
#define H5S_COORD_LIMIT ((uint64_t)1 << 62)

typedef struct h5s_node h5s_node;

/* One span of a span list: the coordinates low..high (inclusive) of one dimension, with the
 * selection of the faster dimensions below it (NULL in the fastest dimension). */
typedef struct {
    uint64_t low, high;
    h5s_node *down;
} h5s_span;

/* A span list of one dimension: sorted, disjoint, adjacent spans with equal subtrees merged.
 * Nodes are reference counted and hash-consed: two equal subtrees of one tree are one node. */
struct h5s_node {
    size_t refs;
    size_t nspans;
    uint64_t npoints; /* elements selected by one instance of this list */
    uint64_t hash;
    h5s_span spans[];
};

/* One dimension of a regular hyperslab. */
typedef struct {
    uint64_t start, stride, count, block;
} h5s_dim;

/* A hash set of nodes by content (their stored hash), open addressing. */
typedef struct {
    h5s_node **e;
    size_t cap, n;
} h5s_nodeset;

typedef enum { H5S_KIND_NONE, H5S_KIND_ALL, H5S_KIND_POINTS, H5S_KIND_HYPER } h5s_kind;

struct h5s_space {
    int rank;
    uint64_t dims[H5S_MPIO_MAX_RANK];
    int64_t offset[H5S_MPIO_MAX_RANK];
    h5s_kind kind;
    /* points: npoints coordinates of rank entries each, in selection order */
    size_t npoints;
    uint64_t *coords;
    /* hyperslabs: the count of selected elements, the span tree (NULL for a regular selection
     * made by one SET, which needs none), its number of distinct nodes, the bounding box
     * (without offset) and, when the selection is regular, its description */
    uint64_t hyper_npoints;
    h5s_node *tree;
    size_t tree_nnodes;
    h5s_nodeset index; /* the distinct nodes of tree (no references held), or empty: rebuilt on use */
    uint64_t lo[H5S_MPIO_MAX_RANK], hi[H5S_MPIO_MAX_RANK];
    int regular;
    h5s_dim diminfo[H5S_MPIO_MAX_RANK];
};

void h5s_node_release(h5s_node *node);

/* A hash map from pointer pairs to pointers (open addressing; the key (NULL, NULL) is not
 * allowed). Start from {NULL, 0, 0}; free(map.e) when done. */
typedef struct {
    const void *k1, *k2;
    void *val;
} h5s_pmap_entry;
typedef struct {
    h5s_pmap_entry *e;
    size_t cap, n;
} h5s_pmap;
int h5s_pmap_find(const h5s_pmap *m, const void *k1, const void *k2, void **val);
int h5s_pmap_put(h5s_pmap *m, const void *k1, const void *k2, void *val);

/* Calls fn(ctx, linear element index) for every selected element of a hyperslab selection in
 * row-major order, the offset applied; stops and returns fn's value when it is non-zero. */
int h5s_hyper_iterate(const h5s_space *space, int (*fn)(void *ctx, uint64_t index), void *ctx);

#endif
