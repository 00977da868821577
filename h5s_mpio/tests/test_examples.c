/* The worked examples of HDF5's design note on H5S_mpio_* (one test per selection kind and
 * construction step), the places where the port deliberately differs from HDF5 1.10.8 (offsets,
 * the interleaved OR, the bigio displacements), sharing of equal subtrees, bad input, and no
 * leaked handles. The port's sources are compiled in with handle_count.h, so the test sees
 * every datatype constructor the port calls. */
#include "h5s_mpio.h"
#include "flatten.h"
#include "handle_count.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long hc_live;
long hc_made[HC_KINDS];
long hc_fail_at, hc_calls;

static int failures;

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                                   \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static unsigned char pattern(size_t i) { return (unsigned char)(i * 7 + 1); }

/* Builds the file-side type of the space and checks MPI_Pack of a patterned extent-sized buffer
 * against the given linear element indices; checks the count threshold and monotonic
 * displacements on the decoded type map. Returns the type's constructor counts in made. */
static void expect_pack(const h5s_space *s, size_t elmt, const uint64_t *idx, size_t n, uint64_t threshold,
                        long made[HC_KINDS]) {
    int64_t extent = 1;
    for (int u = 0; u < h5s_get_rank(s); u++)
        (void)u;
    /* the extent is not queryable through the API: size the buffer from the largest index */
    for (size_t i = 0; i < n; i++)
        if ((int64_t)idx[i] + 1 > extent)
            extent = (int64_t)idx[i] + 1;
    const size_t bytes = (size_t)extent * elmt + 64;
    unsigned char *src = malloc(bytes), *out = calloc(n * elmt + 1, 1);
    for (size_t i = 0; i < bytes; i++)
        src[i] = pattern(i);
    MPI_Datatype t;
    int count, derived, permuted = 0;
    uint64_t *map = NULL;
    long before[HC_KINDS];
    memcpy(before, hc_made, sizeof before);
    CHECK(h5s_mpio_space_type(s, elmt, &t, &count, &derived, 1, &map, &permuted) == 0);
    for (int k = 0; k < HC_KINDS && made; k++)
        made[k] = hc_made[k] - before[k];
    CHECK(map == NULL);
    int size;
    MPI_Type_size(t, &size);
    CHECK((size_t)size * (size_t)count == n * elmt);
    int pos = 0;
    if (n > 0)
        CHECK(MPI_Pack(src, count, t, out, (int)(n * elmt), &pos, MPI_COMM_SELF) == MPI_SUCCESS);
    CHECK((size_t)pos == n * elmt);
    for (size_t i = 0; i < n; i++)
        if (memcmp(out + i * elmt, src + idx[i] * elmt, elmt) != 0) {
            fprintf(stderr, "element %zu differs (expected extent element %" PRIu64 ")\n", i, idx[i]);
            failures++;
            break;
        }
    if (derived) {
        flat_list f;
        memset(&f, 0, sizeof f);
        flat_type(&f, t, 0);
        CHECK(!f.unknown);
        CHECK(f.max_count <= (long)(threshold < 2 ? 2 : threshold));
        for (size_t i = 1; i < f.n; i++)
            CHECK(f.disp[i] >= f.disp[i - 1]);
        for (size_t i = 0; i < f.n; i++)
            CHECK(f.disp[i] >= 0 && (size_t)(f.disp[i] + f.len[i]) <= (size_t)extent * elmt);
        free(f.disp);
        free(f.len);
        MPI_Type_free(&t);
    }
    free(src);
    free(out);
}

static int combiner(MPI_Datatype t) {
    int ni, na, nd, c;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
    return c;
}

/* The first inner type of a derived type (freed by the caller when derived). */
static MPI_Datatype first_child(MPI_Datatype t, int *ints_out, MPI_Aint *addrs_out) {
    int ni, na, nd, c;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
    int *ints = malloc(sizeof(int) * (size_t)(ni + 1));
    MPI_Aint *addrs = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1));
    MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types);
    MPI_Datatype child = types[0];
    if (ints_out)
        memcpy(ints_out, ints, sizeof(int) * (size_t)(ni < 8 ? ni : 8));
    if (addrs_out)
        memcpy(addrs_out, addrs, sizeof(MPI_Aint) * (size_t)(na < 8 ? na : 8));
    for (int k = 1; k < nd; k++)
        if (combiner(types[k]) != MPI_COMBINER_NAMED)
            hc_free(&types[k]), hc_live++;
    free(ints);
    free(addrs);
    free(types);
    return child;
}

static void release(MPI_Datatype *t) {
    if (combiner(*t) != MPI_COMBINER_NAMED) {
        MPI_Type_free(t);
        hc_live++; /* handles from get_contents were not counted when made */
    }
}

/* Design note, "All": MPI_BYTE with a count of element size x elements. */
static void example_all(void) {
    const uint64_t dims[2] = {4, 5};
    h5s_space *s = h5s_create_simple(2, dims);
    MPI_Datatype t;
    int count, derived;
    CHECK(h5s_mpio_space_type(s, 8, &t, &count, &derived, 0, NULL, NULL) == 0);
    CHECK(t == MPI_BYTE && count == 160 && derived == 0);
    /* past the bigio threshold: one large type of the same bytes */
    uint64_t old = h5s_mpio_set_bigio_count(100);
    CHECK(h5s_mpio_space_type(s, 8, &t, &count, &derived, 0, NULL, NULL) == 0);
    CHECK(count == 1 && derived == 1);
    int size;
    MPI_Type_size(t, &size);
    CHECK(size == 160);
    MPI_Type_free(&t);
    uint64_t idx[20];
    for (int i = 0; i < 20; i++)
        idx[i] = (uint64_t)i;
    h5s_mpio_set_bigio_count(3); /* 160 bytes as 3-byte chunks, nested */
    expect_pack(s, 8, idx, 20, 3, NULL);
    /* the offset is ignored for "all", as in HDF5 */
    const int64_t off[2] = {1, 1};
    CHECK(h5s_offset_simple(s, off) == 0);
    expect_pack(s, 8, idx, 20, 3, NULL);
    h5s_mpio_set_bigio_count(old);
    h5s_close(s);
}

/* Design note, "None": MPI_BYTE, count 0. */
static void example_none(void) {
    const uint64_t dims[1] = {10};
    h5s_space *s = h5s_create_simple(1, dims);
    CHECK(h5s_select_none(s) == 0);
    MPI_Datatype t;
    int count = -1, derived = -1;
    CHECK(h5s_mpio_space_type(s, 4, &t, &count, &derived, 0, NULL, NULL) == 0);
    CHECK(t == MPI_BYTE && count == 0 && derived == 0);
    CHECK(h5s_get_select_npoints(s) == 0);
    h5s_close(s);
}

/* Design note, "Regular": from the fastest dimension outwards a vector (count, block, stride) of
 * the inner type, moved to the start of the selection and resized to the dimension's extent. */
static void example_regular(void) {
    const uint64_t dims[2] = {6, 8};
    const uint64_t start[2] = {1, 2}, stride[2] = {2, 3}, count[2] = {2, 2}, block[2] = {1, 2};
    h5s_space *s = h5s_create_simple(2, dims);
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, start, stride, count, block) == 0);
    CHECK(h5s_select_is_regular_hyperslab(s) == 1);
    CHECK(h5s_get_select_npoints(s) == 8);
    const uint64_t idx[8] = {10, 11, 13, 14, 26, 27, 29, 30};
    long made[HC_KINDS];
    expect_pack(s, 4, idx, 8, 1u << 30, made);
    CHECK(made[HC_VECTOR] == 2);     /* one vector per dimension */
    CHECK(made[HC_CONTIGUOUS] == 1); /* the element type */
    /* the outer type: resized to 6 rows of 32 bytes, holding the start-moved vector */
    MPI_Datatype t;
    int c, d;
    CHECK(h5s_mpio_space_type(s, 4, &t, &c, &d, 0, NULL, NULL) == 0);
    CHECK(combiner(t) == MPI_COMBINER_RESIZED);
    MPI_Datatype t2;
    CHECK(h5s_mpio_space_type(s, 4, &t2, &c, &d, 1, NULL, NULL) == 0); /* do_permute: nothing here */
    MPI_Type_free(&t2);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(lb == 0 && ext == 6 * 8 * 4);
    MPI_Aint addrs[8];
    MPI_Datatype moved = first_child(t, NULL, NULL);
    CHECK(combiner(moved) == MPI_COMBINER_HINDEXED);
    MPI_Datatype vec = first_child(moved, NULL, addrs);
    CHECK(addrs[0] == 1 * 32); /* row 1 */
    int ints[8];
    CHECK(combiner(vec) == MPI_COMBINER_VECTOR);
    MPI_Datatype row = first_child(vec, ints, NULL);
    CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 2); /* count 2, block 1, stride 2 rows */
    MPI_Type_get_extent(row, &lb, &ext);
    CHECK(lb == 0 && ext == 32); /* the inner type spans one row */
    release(&row);
    release(&vec);
    release(&moved);
    MPI_Type_free(&t);
    /* folding: whole rows are one dimension (a single vector) */
    const uint64_t s2[2] = {1, 0}, c2[2] = {3, 1}, b2[2] = {1, 8};
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, s2, NULL, c2, b2) == 0);
    uint64_t rows[24];
    for (int i = 0; i < 24; i++)
        rows[i] = (uint64_t)(8 + i);
    expect_pack(s, 2, rows, 24, 1u << 30, made);
    CHECK(made[HC_VECTOR] == 1);
    /* the offset moves a regular selection too */
    const int64_t off[2] = {1, -0};
    CHECK(h5s_offset_simple(s, off) == 0);
    for (int i = 0; i < 24; i++)
        rows[i] += 8;
    expect_pack(s, 2, rows, 24, 1u << 30, NULL);
    h5s_close(s);
}

/* Design note, "Irregular": a leaf hindexed of element types per span list, an hvector per span
 * of a slower dimension (count: the span's length, stride: the row), a struct of them. Two
 * deliberate economies with the same type map: a leaf whose spans all have one length is an
 * hindexed_block, and a span of one row uses the type below it directly. */
static void example_irregular(void) {
    const uint64_t dims[2] = {5, 10};
    h5s_space *s = h5s_create_simple(2, dims);
    const uint64_t a0[2] = {0, 0}, ac[2] = {2, 3};
    const uint64_t b0[2] = {3, 4}, bc[2] = {1, 3};
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, a0, NULL, ac, NULL) == 0);
    CHECK(h5s_select_hyperslab(s, H5S_OP_OR, b0, NULL, bc, NULL) == 0);
    CHECK(h5s_select_is_regular_hyperslab(s) == 0);
    CHECK(h5s_get_select_npoints(s) == 9);
    const uint64_t idx[9] = {0, 1, 2, 10, 11, 12, 34, 35, 36};
    long made[HC_KINDS];
    expect_pack(s, 3, idx, 9, 1u << 30, made);
    CHECK(made[HC_HINDEXED] + made[HC_HINDEXED_BLOCK] == 2 && made[HC_HVECTOR] == 1 && made[HC_STRUCT] == 1);
    MPI_Datatype t;
    int c, d;
    CHECK(h5s_mpio_space_type(s, 3, &t, &c, &d, 0, NULL, NULL) == 0);
    CHECK(combiner(t) == MPI_COMBINER_STRUCT);
    int ints[8];
    MPI_Aint addrs[8];
    MPI_Datatype hv = first_child(t, ints, addrs);
    CHECK(ints[0] == 2 && addrs[0] == 0 && addrs[1] == 3 * 30);
    CHECK(combiner(hv) == MPI_COMBINER_HVECTOR);
    MPI_Datatype leaf = first_child(hv, ints, addrs);
    CHECK(ints[0] == 2 && addrs[0] == 30); /* 2 rows, 30 bytes apart */
    CHECK(combiner(leaf) == MPI_COMBINER_HINDEXED_BLOCK); /* one span of 3 */
    release(&leaf);
    release(&hv);
    MPI_Type_free(&t);
    /* an offset moves every span */
    const int64_t off[2] = {1, 2};
    CHECK(h5s_offset_simple(s, off) == 0);
    uint64_t moved[9];
    for (int i = 0; i < 9; i++)
        moved[i] = idx[i] + 12;
    expect_pack(s, 3, moved, 9, 1u << 30, NULL);
    h5s_close(s);

    /* a checkerboard of 200 rows: two distinct rows, so two leaf types, whatever the row count */
    const uint64_t big[2] = {200, 16};
    s = h5s_create_simple(2, big);
    const uint64_t z[2] = {0, 0}, o[2] = {1, 1}, st[2] = {2, 2}, cn[2] = {100, 8};
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, z, st, cn, NULL) == 0);
    CHECK(h5s_select_hyperslab(s, H5S_OP_OR, o, st, cn, NULL) == 0);
    CHECK(h5s_get_select_npoints(s) == 1600);
    uint64_t *all = malloc(1600 * sizeof *all);
    for (size_t r = 0, k = 0; r < 200; r++)
        for (size_t col = r % 2; col < 16; col += 2)
            all[k++] = r * 16 + col;
    expect_pack(s, 1, all, 1600, 1u << 30, made);
    CHECK(made[HC_HINDEXED] + made[HC_HINDEXED_BLOCK] == 2 && made[HC_HVECTOR] == 0);
    free(all);
    h5s_close(s);
}

/* Design note, "Point" (HDF5 builds hindexed_block of element types): in order and permuted,
 * with the memory-side type that matches the permutation. */
static void example_points(void) {
    const uint64_t dims[2] = {4, 4};
    h5s_space *s = h5s_create_simple(2, dims);
    const uint64_t pts[8] = {3, 3, 0, 1, 2, 0, 0, 1};
    CHECK(h5s_select_elements(s, H5S_OP_SET, 4, pts) == 0);
    MPI_Datatype t;
    int count, derived, permuted = 0;
    uint64_t *map = NULL;
    CHECK(h5s_mpio_space_type(s, 2, &t, &count, &derived, 1, &map, &permuted) == 0);
    CHECK(permuted == 1 && map != NULL);
    CHECK(map[0] == 3 && map[1] == 0 && map[2] == 2 && map[3] == 1); /* sorted: 1, 1, 8, 15 */
    CHECK(combiner(t) == MPI_COMBINER_HINDEXED_BLOCK);
    /* memory: 4 contiguous elements, element i goes to the file position of point i */
    const uint64_t md = 4;
    h5s_space *mem = h5s_create_simple(1, &md);
    MPI_Datatype mt;
    int mc, mdv;
    CHECK(h5s_mpio_space_type(mem, 2, &mt, &mc, &mdv, 0, &map, &permuted) == 0);
    CHECK(map == NULL && mdv == 1 && mc == 1);
    unsigned char msrc[8] = {'a', 'A', 'b', 'B', 'c', 'C', 'd', 'D'}, stream[8], file[32];
    memset(file, '.', sizeof file);
    int p1 = 0, p2 = 0;
    MPI_Pack(msrc, mc, mt, stream, 8, &p1, MPI_COMM_SELF);
    MPI_Unpack(stream, 8, &p2, file, count, t, MPI_COMM_SELF);
    CHECK(memcmp(file + 30, "aA", 2) == 0 && memcmp(file + 16, "cC", 2) == 0);
    CHECK(memcmp(file + 2, "dD", 2) == 0); /* point 1 and 3 are the same: the later one wins */
    MPI_Type_free(&mt);
    MPI_Type_free(&t);
    /* in order: no map */
    const uint64_t sorted[6] = {0, 1, 1, 0, 2, 3};
    CHECK(h5s_select_elements(s, H5S_OP_SET, 3, sorted) == 0);
    permuted = 0;
    CHECK(h5s_mpio_space_type(s, 2, &t, &count, &derived, 1, &map, &permuted) == 0);
    CHECK(permuted == 0 && map == NULL);
    MPI_Type_free(&t);
    /* the offset counts for points (HDF5 1.10.8 ignores it) */
    const int64_t off[2] = {1, 0};
    CHECK(h5s_offset_simple(s, off) == 0);
    const uint64_t idx[3] = {5, 8, 15};
    expect_pack(s, 2, idx, 3, 1u << 30, NULL);
    /* append and prepend keep the given order */
    const uint64_t more[2] = {0, 0}, first[2] = {0, 3};
    CHECK(h5s_select_elements(s, H5S_OP_APPEND, 1, more) == 0);
    CHECK(h5s_select_elements(s, H5S_OP_PREPEND, 1, first) == 0);
    CHECK(h5s_get_select_npoints(s) == 5);
    h5s_close(mem);
    h5s_close(s);
}

/* HDF5 1.10.8 turns {1,3,5,7} OR {0,2,4,6} into a wrong regular selection; plain set semantics
 * give all of 0..7, which is regular. */
static void example_interleaved_or(void) {
    const uint64_t d = 8, one = 1, zero = 0, two = 2, four = 4;
    h5s_space *s = h5s_create_simple(1, &d);
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, &one, &two, &four, NULL) == 0);
    CHECK(h5s_select_hyperslab(s, H5S_OP_OR, &zero, &two, &four, NULL) == 0);
    CHECK(h5s_get_select_npoints(s) == 8);
    CHECK(h5s_select_is_regular_hyperslab(s) == 1);
    const uint64_t idx[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    expect_pack(s, 4, idx, 8, 1u << 30, NULL);
    /* XOR back to the odd ones, AND, NOTB, NOTA */
    CHECK(h5s_select_hyperslab(s, H5S_OP_XOR, &zero, &two, &four, NULL) == 0);
    const uint64_t odd[4] = {1, 3, 5, 7};
    expect_pack(s, 4, odd, 4, 1u << 30, NULL);
    const uint64_t three = 3;
    CHECK(h5s_select_hyperslab(s, H5S_OP_NOTB, &zero, NULL, &four, NULL) == 0); /* {5, 7} */
    CHECK(h5s_select_hyperslab(s, H5S_OP_NOTA, &three, NULL, &four, NULL) == 0); /* {3, 4, 6} */
    const uint64_t rest[3] = {3, 4, 6};
    expect_pack(s, 4, rest, 3, 1u << 30, NULL);
    CHECK(h5s_select_hyperslab(s, H5S_OP_AND, &zero, NULL, &d, NULL) == 0);
    expect_pack(s, 4, rest, 3, 1u << 30, NULL);
    h5s_close(s);
}

/* Counts past the bigio threshold, with tiny thresholds so the large paths run on small data:
 * HDF5 1.10.8 gets the outer stride of a strided large type and the displacements of its large
 * leaf-span chain wrong. */
static void example_bigio(void) {
    const uint64_t old = h5s_mpio_set_bigio_count(4);
    CHECK(old == (1u << 30));
    /* a regular selection whose count (30) exceeds the threshold: 2 of every 3, from 1 */
    const uint64_t d = 100, st = 1, sd = 3, cn = 30, bl = 2;
    h5s_space *s = h5s_create_simple(1, &d);
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, &st, &sd, &cn, &bl) == 0);
    uint64_t idx[200];
    size_t n = 0;
    for (uint64_t k = 0; k < 30; k++)
        for (uint64_t b = 0; b < 2; b++)
            idx[n++] = 1 + 3 * k + b;
    expect_pack(s, 5, idx, n, 4, NULL);
    /* a block longer than the threshold */
    const uint64_t st2 = 7, cn2 = 3, sd2 = 20, bl2 = 11;
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, &st2, &sd2, &cn2, &bl2) == 0);
    n = 0;
    for (uint64_t k = 0; k < 3; k++)
        for (uint64_t b = 0; b < 11; b++)
            idx[n++] = 7 + 20 * k + b;
    expect_pack(s, 3, idx, n, 4, NULL);
    h5s_close(s);
    /* irregular: 2 rows of 10 spans (more spans per row than the threshold), and a row with one
     * span of 17 elements (longer than the threshold), elements of 6 bytes (past it too) */
    const uint64_t dims[2] = {4, 40};
    s = h5s_create_simple(2, dims);
    const uint64_t a0[2] = {0, 0}, ast[2] = {1, 4}, ac[2] = {2, 10};
    const uint64_t b0[2] = {3, 5}, bc[2] = {1, 17};
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, a0, ast, ac, NULL) == 0);
    CHECK(h5s_select_hyperslab(s, H5S_OP_OR, b0, NULL, bc, NULL) == 0);
    CHECK(h5s_select_is_regular_hyperslab(s) == 0);
    n = 0;
    for (uint64_t r = 0; r < 2; r++)
        for (uint64_t k = 0; k < 10; k++)
            idx[n++] = r * 40 + 4 * k;
    for (uint64_t k = 0; k < 17; k++)
        idx[n++] = 3 * 40 + 5 + k;
    expect_pack(s, 6, idx, n, 4, NULL);
    /* thresholds 1 (behaves as 2), 2 and 3 */
    for (uint64_t b = 1; b <= 3; b++) {
        h5s_mpio_set_bigio_count(b);
        expect_pack(s, 6, idx, n, b, NULL);
    }
    h5s_close(s);
    /* many points */
    const uint64_t pd = 50;
    s = h5s_create_simple(1, &pd);
    uint64_t pts[37];
    for (int i = 0; i < 37; i++)
        pts[i] = (uint64_t)(i * 17 % 50);
    CHECK(h5s_select_elements(s, H5S_OP_SET, 37, pts) == 0);
    h5s_mpio_set_bigio_count(3);
    MPI_Datatype t;
    int count, derived, permuted = 0;
    uint64_t *map = NULL;
    CHECK(h5s_mpio_space_type(s, 9, &t, &count, &derived, 1, &map, &permuted) == 0);
    CHECK(permuted == 1 && map != NULL);
    flat_list f;
    memset(&f, 0, sizeof f);
    flat_type(&f, t, 0);
    CHECK(f.max_count <= 3);
    for (size_t i = 1; i < f.n; i++)
        CHECK(f.disp[i] > f.disp[i - 1]);
    free(f.disp);
    free(f.len);
    free(map);
    MPI_Type_free(&t);
    h5s_close(s);
    /* the setter: 0 and values past 2^31 - 1 change nothing */
    CHECK(h5s_mpio_set_bigio_count(0) == 3);
    CHECK(h5s_mpio_set_bigio_count((uint64_t)1 << 31) == 3);
    CHECK(h5s_mpio_set_bigio_count(((uint64_t)1 << 31) - 1) == 3);
    CHECK(h5s_mpio_set_bigio_count(old) == ((uint64_t)1 << 31) - 1);
}

/* Counts really past 2^31 with the default threshold: the types are only built and measured
 * (size, true extent), nothing is packed. */
static void example_real_bigio(void) {
    const uint64_t n = ((uint64_t)3 << 30) + 5;
    h5s_space *s = h5s_create_simple(1, &n);
    MPI_Datatype t;
    int count, derived;
    MPI_Count size, lb, extent;
    CHECK(h5s_mpio_space_type(s, 1, &t, &count, &derived, 0, NULL, NULL) == 0);
    CHECK(count == 1 && derived == 1);
    MPI_Type_size_x(t, &size);
    MPI_Type_get_true_extent_x(t, &lb, &extent);
    CHECK(size == (MPI_Count)n && lb == 0 && extent == (MPI_Count)n);
    MPI_Type_free(&t);
    /* a regular selection of 2^31 + 3 elements of 2 bytes, every other one */
    const uint64_t big = ((uint64_t)2 << 31) + 8, start = 1, stride = 2, cnt = ((uint64_t)1 << 31) + 3;
    h5s_space *r = h5s_create_simple(1, &big);
    CHECK(h5s_select_hyperslab(r, H5S_OP_SET, &start, &stride, &cnt, NULL) == 0);
    CHECK(h5s_get_select_npoints(r) == (int64_t)cnt);
    CHECK(h5s_mpio_space_type(r, 2, &t, &count, &derived, 0, NULL, NULL) == 0);
    MPI_Type_size_x(t, &size);
    MPI_Type_get_true_extent_x(t, &lb, &extent);
    CHECK(size == (MPI_Count)(2 * cnt));
    CHECK(lb == 2 && extent == (MPI_Count)(2 * (2 * (cnt - 1) + 1))); /* first to last element */
    MPI_Type_free(&t);
    h5s_close(r);
    h5s_close(s);
}

/* Each MPI call of a build failing in turn: the build returns an error and frees everything it
 * made, and leaves the permutation arguments as they were. */
static void failures_of_mpi(void) {
    const uint64_t dims[2] = {6, 40};
    h5s_space *sp[5];
    for (int k = 0; k < 5; k++)
        sp[k] = h5s_create_simple(2, dims);
    const uint64_t a0[2] = {0, 0}, ast[2] = {1, 4}, ac[2] = {2, 10}, b0[2] = {3, 5}, bc[2] = {2, 17};
    const uint64_t r0[2] = {1, 1}, rst[2] = {2, 3}, rc[2] = {3, 12}, rb[2] = {1, 2};
    h5s_select_hyperslab(sp[0], H5S_OP_SET, a0, ast, ac, NULL); /* irregular */
    h5s_select_hyperslab(sp[0], H5S_OP_OR, b0, NULL, bc, NULL);
    h5s_select_hyperslab(sp[1], H5S_OP_SET, r0, rst, rc, rb); /* regular */
    uint64_t pts[2 * 20];
    for (int i = 0; i < 20; i++) {
        pts[2 * i] = (uint64_t)(i * 5 % 6);
        pts[2 * i + 1] = (uint64_t)(i * 7 % 40);
    }
    h5s_select_elements(sp[2], H5S_OP_SET, 20, pts); /* points, out of order */
    /* sp[3]: all (a large type past a threshold of 3) */
    const uint64_t m0[2] = {0, 0}, mc[2] = {1, 20};
    h5s_select_hyperslab(sp[4], H5S_OP_SET, m0, NULL, mc, NULL); /* memory side of sp[2] */
    const uint64_t old = h5s_mpio_set_bigio_count(3);
    for (int k = 0; k < 5; k++) {
        for (long n = 1;; n++) {
            MPI_Datatype t;
            int count, derived, permuted = k == 4;
            uint64_t *map = NULL;
            if (k == 4) { /* a valid map for the memory side */
                map = malloc(20 * sizeof *map);
                for (uint64_t i = 0; i < 20; i++)
                    map[i] = (i * 3) % 20;
            }
            const long live = hc_live;
            hc_calls = 0;
            hc_fail_at = n;
            const int rc_type = h5s_mpio_space_type(sp[k], 4, &t, &count, &derived, k == 2, &map, &permuted);
            hc_fail_at = 0;
            if (rc_type == 0) { /* no call left to fail */
                CHECK(n > 1 && hc_live == live + derived);
                if (derived)
                    MPI_Type_free(&t);
                free(map);
                break;
            }
            CHECK(hc_live == live);
            CHECK(k == 4 ? (map != NULL && permuted == 1) : (map == NULL && permuted == 0));
            free(map);
            if (n > 100000)
                break;
        }
    }
    h5s_mpio_set_bigio_count(old);
    for (int k = 0; k < 5; k++)
        h5s_close(sp[k]);
}

/* Every error returns a negative value and leaves the space as it was. */
static void bad_input(void) {
    const uint64_t dims[2] = {4, 5}, start[2] = {0, 0}, count[2] = {2, 2}, zero[2] = {0, 0};
    const uint64_t over[2] = {2, 1}, blk[2] = {2, 2};
    CHECK(h5s_create_simple(-1, dims) == NULL);
    CHECK(h5s_create_simple(33, dims) == NULL);
    CHECK(h5s_create_simple(2, NULL) == NULL);
    const uint64_t huge[2] = {(uint64_t)1 << 40, (uint64_t)1 << 40};
    CHECK(h5s_create_simple(2, huge) == NULL); /* 2^80 elements */
    CHECK(h5s_copy(NULL) == NULL);
    h5s_close(NULL);
    h5s_space *s = h5s_create_simple(2, dims);
    const uint64_t pts[2] = {1, 1};
    CHECK(h5s_select_elements(s, H5S_OP_SET, 1, pts) == 0);
    CHECK(h5s_select_all(NULL) < 0);
    CHECK(h5s_select_none(NULL) < 0);
    CHECK(h5s_select_hyperslab(NULL, H5S_OP_SET, start, NULL, count, NULL) < 0);
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, NULL, NULL, count, NULL) < 0);
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, start, NULL, NULL, NULL) < 0);
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, start, zero, count, NULL) < 0);      /* zero stride */
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, start, over, count, blk) < 0);       /* overlapping */
    CHECK(h5s_select_hyperslab(s, H5S_OP_APPEND, start, NULL, count, NULL) < 0);   /* point operator */
    CHECK(h5s_select_hyperslab(s, (h5s_seloper)42, start, NULL, count, NULL) < 0); /* no operator */
    CHECK(h5s_select_hyperslab(s, H5S_OP_OR, start, NULL, count, NULL) < 0);       /* OR onto points */
    const uint64_t far[2] = {(uint64_t)1 << 62, 0};
    CHECK(h5s_select_hyperslab(s, H5S_OP_SET, far, NULL, count, NULL) < 0); /* overflow */
    CHECK(h5s_select_elements(s, H5S_OP_OR, 1, pts) < 0);
    CHECK(h5s_select_elements(s, H5S_OP_SET, 0, pts) < 0);
    CHECK(h5s_select_elements(s, H5S_OP_SET, 1, NULL) < 0);
    CHECK(h5s_select_elements(NULL, H5S_OP_SET, 1, pts) < 0);
    CHECK(h5s_select_elements(s, H5S_OP_SET, 1, far) < 0);
    CHECK(h5s_offset_simple(s, NULL) < 0);
    CHECK(h5s_offset_simple(NULL, (const int64_t[]){0, 0}) < 0);
    CHECK(h5s_get_select_npoints(NULL) < 0);
    CHECK(h5s_select_valid(NULL) < 0);
    CHECK(h5s_get_select_npoints(s) == 1); /* unchanged through all of it */
    const uint64_t idx[1] = {6};
    expect_pack(s, 4, idx, 1, 1u << 30, NULL);
    /* the type builder */
    MPI_Datatype t;
    int c, d, permuted = 0;
    uint64_t *map = NULL;
    CHECK(h5s_mpio_space_type(NULL, 4, &t, &c, &d, 0, NULL, NULL) < 0);
    CHECK(h5s_mpio_space_type(s, 0, &t, &c, &d, 0, NULL, NULL) < 0);
    CHECK(h5s_mpio_space_type(s, 4, NULL, &c, &d, 0, NULL, NULL) < 0);
    CHECK(h5s_mpio_space_type(s, 4, &t, NULL, &d, 0, NULL, NULL) < 0);
    CHECK(h5s_mpio_space_type(s, 4, &t, &c, NULL, 0, NULL, NULL) < 0);
    CHECK(h5s_mpio_space_type(s, 4, &t, &c, &d, 1, NULL, &permuted) < 0);
    CHECK(h5s_mpio_space_type(s, 4, &t, &c, &d, 1, &map, NULL) < 0);
    permuted = 1;
    CHECK(h5s_mpio_space_type(s, 4, &t, &c, &d, 0, &map, &permuted) < 0); /* permuted without a map */
    /* a map that is not a permutation is refused and left to the caller */
    map = malloc(sizeof *map);
    map[0] = 5;
    CHECK(h5s_mpio_space_type(s, 4, &t, &c, &d, 0, &map, &permuted) < 0);
    CHECK(map != NULL);
    free(map);
    map = NULL;
    /* an out-of-extent selection has no type */
    const int64_t off[2] = {3, 0};
    CHECK(h5s_offset_simple(s, off) == 0);
    CHECK(h5s_select_valid(s) == 0);
    CHECK(h5s_mpio_space_type(s, 4, &t, &c, &d, 0, NULL, NULL) < 0);
    h5s_close(s);
    /* a scalar takes all and none only */
    h5s_space *scalar = h5s_create_simple(0, NULL);
    CHECK(scalar != NULL && h5s_get_select_npoints(scalar) == 1);
    CHECK(h5s_select_hyperslab(scalar, H5S_OP_SET, start, NULL, count, NULL) < 0);
    CHECK(h5s_select_elements(scalar, H5S_OP_SET, 1, pts) < 0);
    CHECK(h5s_offset_simple(scalar, off) < 0);
    CHECK(h5s_mpio_space_type(scalar, 8, &t, &c, &d, 0, NULL, NULL) == 0);
    CHECK(t == MPI_BYTE && c == 8 && d == 0);
    CHECK(h5s_select_none(scalar) == 0 && h5s_get_select_npoints(scalar) == 0);
    h5s_close(scalar);
    /* rank 32 is fine */
    uint64_t d32[32];
    for (int u = 0; u < 32; u++)
        d32[u] = u < 4 ? 2 : 1;
    h5s_space *r32 = h5s_create_simple(32, d32);
    CHECK(r32 != NULL && h5s_get_select_npoints(r32) == 16);
    uint64_t s32[32] = {0}, c32[32], b32[32];
    for (int u = 0; u < 32; u++) {
        c32[u] = 1;
        b32[u] = 1;
    }
    s32[3] = 1;
    CHECK(h5s_select_hyperslab(r32, H5S_OP_SET, s32, NULL, c32, b32) == 0);
    CHECK(h5s_select_hyperslab(r32, H5S_OP_OR, (const uint64_t[32]){1}, NULL, c32, b32) == 0);
    const uint64_t want[2] = {1, 8};
    expect_pack(r32, 2, want, 2, 1u << 30, NULL);
    h5s_space *copy = h5s_copy(r32);
    h5s_close(r32);
    expect_pack(copy, 2, want, 2, 1u << 30, NULL);
    h5s_close(copy);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    example_all();
    example_none();
    example_regular();
    example_irregular();
    example_points();
    example_interleaved_or();
    example_bigio();
    example_real_bigio();
    failures_of_mpi();
    bad_input();
    if (hc_live != 0) {
        fprintf(stderr, "%ld MPI handles left\n", hc_live);
        failures++;
    }
    MPI_Finalize();
    if (failures == 0)
        printf("all examples passed\n");
    return failures ? 1 : 0;
}
