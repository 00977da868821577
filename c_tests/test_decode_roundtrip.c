/*
 * test_decode_roundtrip.c: MPI_Type_get_envelope / MPI_Type_get_contents (and _c) for every
 * combiner, built with the ordinary and the large-count (_c) constructors (the table of
 * MPI-4.1 section 5.1.13).
 *
 * For each type: the envelope gives the combiner and the argument counts of the table; the
 * contents give the constructor arguments back verbatim; rebuilding the type from the decoded
 * arguments with the same constructor gives a type with the same size, extent, true extent and
 * packed bytes (count 2). Named children come back as the same predefined handle, derived
 * children as new handles that the caller frees and that outlive the original.
 *
 * For types made by _c constructors every count and displacement argument is a large count,
 * and the variants without large counts fail with MPI_ERR_TYPE: "If the MPI_TYPE_GET_ENVELOPE
 * variant without num_large_counts is invoked with a datatype that requires an output value of
 * num_large_counts > 0, then an error of class MPI_ERR_TYPE is raised."
 */
#include "check.h"

#define MAXARGS 64

typedef struct {
    int combiner;
    int large; /* built with a _c constructor */
    int ni;
    const int *ints;
    int na;
    const MPI_Aint *addrs;
    int nc;
    const MPI_Count *counts;
    int nd;
    const MPI_Datatype *types;
} expect_t;

static int is_named(MPI_Datatype t)
{
    int ni = -1, na = -1, nd = -1, comb = -1;
    MPI_Count cni = -1, cna = -1, cnc = -1, cnd = -1;
    if (MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS) {
        return comb == MPI_COMBINER_NAMED;
    }
    if (MPI_Type_get_envelope_c(t, &cni, &cna, &cnc, &cnd, &comb) == MPI_SUCCESS) {
        return comb == MPI_COMBINER_NAMED;
    }
    return 0;
}

/* Packs `count` copies of `t` from a buffer of pattern bytes; returns the packed bytes (to be
   freed) and their number in *len. */
static unsigned char *pack_pattern(MPI_Datatype t, int count, int *len)
{
    MPI_Count tlb = 0, text = 0, lb = 0, ext = 0;
    long lo, hi, i;
    unsigned char *src, *out;
    int psize = 0, position = 0;
    MPI_Datatype c = t;

    *len = -1;
    CHECK_OK(MPI_Type_get_true_extent_c(t, &tlb, &text));
    CHECK_OK(MPI_Type_get_extent_c(t, &lb, &ext));
    lo = tlb + ((count - 1) * ext < 0 ? (count - 1) * ext : 0);
    hi = tlb + text + ((count - 1) * ext > 0 ? (count - 1) * ext : 0);
    if (lo > 0) {
        lo = 0;
    }
    if (hi < 1) {
        hi = 1;
    }
    src = malloc((size_t)(hi - lo));
    if (src == NULL) {
        return NULL;
    }
    for (i = 0; i < hi - lo; ++i) {
        src[i] = check_pattern_byte((size_t)i);
    }
    CHECK_OK(MPI_Type_commit(&c));
    CHECK_OK(MPI_Pack_size(count, t, MPI_COMM_WORLD, &psize));
    out = malloc((size_t)psize + 1);
    if (out == NULL) {
        free(src);
        return NULL;
    }
    if (!CHECK_OK(MPI_Pack(src - lo, count, t, out, psize, &position, MPI_COMM_WORLD))) {
        free(out);
        free(src);
        return NULL;
    }
    CHECK_EQ_LONG(position, psize);
    free(src);
    *len = position;
    return out;
}

/* `a` and `b` describe the same layout: same size, extent, true extent, packed bytes. */
static int same_layout(MPI_Datatype a, MPI_Datatype b, const char *what)
{
    MPI_Count sa = -1, sb = -2, lba = -1, lbb = -2, exa = -1, exb = -2;
    MPI_Count tlba = -1, tlbb = -2, texa = -1, texb = -2;
    int ok = 1, la = -1, lb = -2;
    unsigned char *pa, *pb;
    ok &= CHECK_OK(MPI_Type_size_c(a, &sa));
    ok &= CHECK_OK(MPI_Type_size_c(b, &sb));
    ok &= CHECK_OK(MPI_Type_get_extent_c(a, &lba, &exa));
    ok &= CHECK_OK(MPI_Type_get_extent_c(b, &lbb, &exb));
    ok &= CHECK_OK(MPI_Type_get_true_extent_c(a, &tlba, &texa));
    ok &= CHECK_OK(MPI_Type_get_true_extent_c(b, &tlbb, &texb));
    ok &= CHECK_EQ_LONG(sa, sb);
    ok &= CHECK_EQ_LONG(lba, lbb);
    ok &= CHECK_EQ_LONG(exa, exb);
    ok &= CHECK_EQ_LONG(tlba, tlbb);
    ok &= CHECK_EQ_LONG(texa, texb);
    if (ok) {
        pa = pack_pattern(a, 2, &la);
        pb = pack_pattern(b, 2, &lb);
        ok &= CHECK(pa != NULL && pb != NULL);
        if (pa != NULL && pb != NULL) {
            ok &= CHECK_EQ_LONG(la, lb);
            if (la == lb) {
                ok &= CHECK_EQ_MEM(pb, pa, la);
            }
        }
        free(pa);
        free(pb);
    }
    if (!ok) {
        printf("  (in same_layout: %s)\n", what);
    }
    return ok;
}

/* Rebuilds a type from decoded arguments with the constructor of `comb`; `large` selects the _c
   constructor (arguments in `c`). */
static MPI_Datatype rebuild(int comb, int large, const int *i, const MPI_Aint *a,
                            const MPI_Count *c, const MPI_Datatype *d)
{
    MPI_Datatype r = MPI_DATATYPE_NULL;
    int rc = MPI_ERR_OTHER;
    switch (comb) {
    case MPI_COMBINER_DUP:
        rc = MPI_Type_dup(d[0], &r);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        rc = large ? MPI_Type_contiguous_c(c[0], d[0], &r) : MPI_Type_contiguous(i[0], d[0], &r);
        break;
    case MPI_COMBINER_VECTOR:
        rc = large ? MPI_Type_vector_c(c[0], c[1], c[2], d[0], &r)
                   : MPI_Type_vector(i[0], i[1], i[2], d[0], &r);
        break;
    case MPI_COMBINER_HVECTOR:
        rc = large ? MPI_Type_create_hvector_c(c[0], c[1], c[2], d[0], &r)
                   : MPI_Type_create_hvector(i[0], i[1], a[0], d[0], &r);
        break;
    case MPI_COMBINER_INDEXED:
        rc = large ? MPI_Type_indexed_c(c[0], c + 1, c + 1 + c[0], d[0], &r)
                   : MPI_Type_indexed(i[0], i + 1, i + 1 + i[0], d[0], &r);
        break;
    case MPI_COMBINER_HINDEXED:
        rc = large ? MPI_Type_create_hindexed_c(c[0], c + 1, c + 1 + c[0], d[0], &r)
                   : MPI_Type_create_hindexed(i[0], i + 1, a, d[0], &r);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        rc = large ? MPI_Type_create_indexed_block_c(c[0], c[1], c + 2, d[0], &r)
                   : MPI_Type_create_indexed_block(i[0], i[1], i + 2, d[0], &r);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        rc = large ? MPI_Type_create_hindexed_block_c(c[0], c[1], c + 2, d[0], &r)
                   : MPI_Type_create_hindexed_block(i[0], i[1], a, d[0], &r);
        break;
    case MPI_COMBINER_STRUCT:
        rc = large ? MPI_Type_create_struct_c(c[0], c + 1, c + 1 + c[0], d, &r)
                   : MPI_Type_create_struct(i[0], i + 1, a, d, &r);
        break;
    case MPI_COMBINER_SUBARRAY:
        rc = large ? MPI_Type_create_subarray_c(i[0], c, c + i[0], c + 2 * i[0], i[1], d[0], &r)
                   : MPI_Type_create_subarray(i[0], i + 1, i + 1 + i[0], i + 1 + 2 * i[0],
                                              i[3 * i[0] + 1], d[0], &r);
        break;
    case MPI_COMBINER_DARRAY:
        rc = large ? MPI_Type_create_darray_c(i[0], i[1], i[2], c, i + 3, i + 3 + i[2],
                                              i + 3 + 2 * i[2], i[3 + 3 * i[2]], d[0], &r)
                   : MPI_Type_create_darray(i[0], i[1], i[2], i + 3, i + 3 + i[2],
                                            i + 3 + 2 * i[2], i + 3 + 3 * i[2],
                                            i[3 + 4 * i[2]], d[0], &r);
        break;
    case MPI_COMBINER_RESIZED:
        rc = large ? MPI_Type_create_resized_c(d[0], c[0], c[1], &r)
                   : MPI_Type_create_resized(d[0], a[0], a[1], &r);
        break;
    default:
        printf("rebuild: unexpected combiner %d\n", comb);
        break;
    }
    CHECK_OK(rc);
    return rc == MPI_SUCCESS ? r : MPI_DATATYPE_NULL;
}

/* Checks the decoded datatypes against the originals and frees the derived ones. */
static void check_and_free_children(const expect_t *e, MPI_Datatype *types, int n)
{
    int k;
    for (k = 0; k < n; ++k) {
        if (is_named(e->types[k])) {
            /* "If these were predefined datatypes, then the returned datatype is equal to that
               (constant) predefined datatype and cannot be freed." */
            CHECK_EQ_LONG(types[k], e->types[k]);
            CHECK_ERR(MPI_Type_free(&types[k]), MPI_ERR_TYPE);
        } else {
            /* "If these were derived datatypes, then the returned datatypes are new datatype
               objects, and the user is responsible for freeing these datatypes" */
            CHECK(types[k] != e->types[k]);
            CHECK(types[k] != MPI_DATATYPE_NULL);
            same_layout(types[k], e->types[k], "decoded child vs original child");
            CHECK_OK(MPI_Type_free(&types[k]));
            CHECK_EQ_LONG(types[k], MPI_DATATYPE_NULL);
        }
    }
}

static void check_decode_(MPI_Datatype t, const expect_t *e, const char *where, int line)
{
    int ints[MAXARGS];
    MPI_Aint addrs[MAXARGS];
    MPI_Count counts[MAXARGS];
    MPI_Datatype types[MAXARGS];
    int k, failures_before = *check_failure_counter();
    MPI_Datatype r;

    /* the envelope without large counts */
    {
        int ni = -1, na = -1, nd = -1, comb = -1;
        if (e->large) {
            CHECK_ERR(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
            CHECK_ERR(MPI_Type_get_contents(t, MAXARGS, MAXARGS, MAXARGS, ints, addrs, types),
                      MPI_ERR_TYPE);
        } else {
            CHECK_OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
            CHECK_EQ_LONG(comb, e->combiner);
            CHECK_EQ_LONG(ni, e->ni);
            CHECK_EQ_LONG(na, e->na);
            CHECK_EQ_LONG(nd, e->nd);
        }
    }
    /* the envelope with large counts */
    {
        MPI_Count ni = -1, na = -1, nc = -1, nd = -1;
        int comb = -1;
        CHECK_OK(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb));
        CHECK_EQ_LONG(comb, e->combiner);
        CHECK_EQ_LONG(ni, e->ni);
        CHECK_EQ_LONG(na, e->na);
        CHECK_EQ_LONG(nc, e->nc);
        CHECK_EQ_LONG(nd, e->nd);
    }
    /* the contents with large counts, in arrays of exactly the envelope's sizes */
    for (k = 0; k < MAXARGS; ++k) {
        ints[k] = -12345;
        addrs[k] = -12345;
        counts[k] = -12345;
        types[k] = MPI_DATATYPE_NULL;
    }
    if (CHECK_OK(MPI_Type_get_contents_c(t, e->ni, e->na, e->nc, e->nd, ints, addrs, counts,
                                         types))) {
        for (k = 0; k < e->ni; ++k) {
            CHECK_EQ_LONG(ints[k], e->ints[k]);
        }
        for (k = 0; k < e->na; ++k) {
            CHECK_EQ_LONG(addrs[k], e->addrs[k]);
        }
        for (k = 0; k < e->nc; ++k) {
            CHECK_EQ_LONG(counts[k], e->counts[k]);
        }
        /* nothing written past the envelope's sizes */
        CHECK_EQ_LONG(ints[e->ni], -12345);
        CHECK_EQ_LONG(addrs[e->na], -12345);
        CHECK_EQ_LONG(counts[e->nc], -12345);
        CHECK_EQ_LONG(types[e->nd], MPI_DATATYPE_NULL);
        r = rebuild(e->combiner, e->large, ints, addrs, counts, types);
        if (r != MPI_DATATYPE_NULL) {
            same_layout(t, r, "rebuilt from MPI_Type_get_contents_c vs original");
            CHECK_OK(MPI_Type_free(&r));
        }
        check_and_free_children(e, types, e->nd);
    }
    /* the contents without large counts */
    if (!e->large) {
        for (k = 0; k < MAXARGS; ++k) {
            ints[k] = -12345;
            addrs[k] = -12345;
            types[k] = MPI_DATATYPE_NULL;
        }
        if (CHECK_OK(MPI_Type_get_contents(t, e->ni, e->na, e->nd, ints, addrs, types))) {
            for (k = 0; k < e->ni; ++k) {
                CHECK_EQ_LONG(ints[k], e->ints[k]);
            }
            for (k = 0; k < e->na; ++k) {
                CHECK_EQ_LONG(addrs[k], e->addrs[k]);
            }
            r = rebuild(e->combiner, 0, ints, addrs, counts, types);
            if (r != MPI_DATATYPE_NULL) {
                same_layout(t, r, "rebuilt from MPI_Type_get_contents vs original");
                CHECK_OK(MPI_Type_free(&r));
            }
            check_and_free_children(e, types, e->nd);
        }
    }
    if (*check_failure_counter() != failures_before) {
        printf("  (in check_decode for %s, line %d)\n", where, line);
    }
}

#define CHECK_DECODE(t, ...)                                                                       \
    do {                                                                                           \
        const expect_t e_ = __VA_ARGS__;                                                           \
        check_decode_((t), &e_, #t, __LINE__);                                                     \
    } while (0)

#define INTS(...) (const int[]){__VA_ARGS__}
#define ADDRS(...) (const MPI_Aint[]){__VA_ARGS__}
#define COUNTS(...) (const MPI_Count[]){__VA_ARGS__}
#define TYPES(...) (const MPI_Datatype[]){__VA_ARGS__}
#define NONE_I NULL
#define NONE_A NULL
#define NONE_C NULL

/* type1 = {(double, 0), (char, 8)}, a derived child */
static MPI_Datatype make_type1(void)
{
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK_OK(MPI_Type_create_struct(2, bl, disp, types, &t));
    return t;
}

static void test_named(void)
{
    const MPI_Datatype named[] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_DOUBLE_INT, MPI_2INT,
#ifndef MPI_DTYPE_STANDARD_ABI /* the MPI-1 markers: not in the standard ABI */
                                  MPI_LB, MPI_UB,
#endif
                                  MPI_PACKED, MPI_REAL8, MPI_INT64_T};
    size_t n;
    for (n = 0; n < sizeof named / sizeof named[0]; ++n) {
        int ni = -1, na = -1, nd = -1, comb = -1;
        MPI_Count cni = -1, cna = -1, cnc = -1, cnd = -1;
        int ints[4];
        MPI_Aint addrs[4];
        MPI_Count counts[4];
        MPI_Datatype types[4];
        CHECK_OK(MPI_Type_get_envelope(named[n], &ni, &na, &nd, &comb));
        CHECK_EQ_LONG(comb, MPI_COMBINER_NAMED);
        CHECK_EQ_LONG(ni, 0);
        CHECK_EQ_LONG(na, 0);
        CHECK_EQ_LONG(nd, 0);
        comb = -1;
        CHECK_OK(MPI_Type_get_envelope_c(named[n], &cni, &cna, &cnc, &cnd, &comb));
        CHECK_EQ_LONG(comb, MPI_COMBINER_NAMED);
        CHECK_EQ_LONG(cni, 0);
        CHECK_EQ_LONG(cna, 0);
        CHECK_EQ_LONG(cnc, 0);
        CHECK_EQ_LONG(cnd, 0);
        /* "the call is erroneous if datatype is a predefined named datatype" */
        CHECK_ERR(MPI_Type_get_contents(named[n], 4, 4, 4, ints, addrs, types), MPI_ERR_TYPE);
        CHECK_ERR(MPI_Type_get_contents_c(named[n], 4, 4, 4, 4, ints, addrs, counts, types),
                  MPI_ERR_TYPE);
    }
}

static void test_dup(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, type1 = make_type1(), c = MPI_DATATYPE_NULL;
    CHECK_OK(MPI_Type_dup(MPI_INT, &t));
    /* a dup of a predefined type is not the predefined type */
    CHECK(t != MPI_INT);
    CHECK_DECODE(t, {MPI_COMBINER_DUP, 0, 0, NONE_I, 0, NONE_A, 0, NONE_C, 1, TYPES(MPI_INT)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_dup(type1, &t));
    CHECK_DECODE(t, {MPI_COMBINER_DUP, 0, 0, NONE_I, 0, NONE_A, 0, NONE_C, 1, TYPES(type1)});
    CHECK_OK(MPI_Type_free(&t));
    /* a dup of a type built with large counts has no large counts itself */
    CHECK_OK(MPI_Type_contiguous_c(3, MPI_INT, &c));
    CHECK_OK(MPI_Type_dup(c, &t));
    CHECK_DECODE(t, {MPI_COMBINER_DUP, 0, 0, NONE_I, 0, NONE_A, 0, NONE_C, 1, TYPES(c)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_free(&c));
    CHECK_OK(MPI_Type_free(&type1));
}

static void test_contiguous_vector(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, type1 = make_type1();

    CHECK_OK(MPI_Type_contiguous(5, type1, &t));
    CHECK_DECODE(t, {MPI_COMBINER_CONTIGUOUS, 0, 1, INTS(5), 0, NONE_A, 0, NONE_C, 1,
                     TYPES(type1)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_contiguous_c(5, type1, &t));
    CHECK_DECODE(t, {MPI_COMBINER_CONTIGUOUS, 1, 0, NONE_I, 0, NONE_A, 1, COUNTS(5), 1,
                     TYPES(type1)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_contiguous(0, MPI_INT, &t));
    CHECK_DECODE(t, {MPI_COMBINER_CONTIGUOUS, 0, 1, INTS(0), 0, NONE_A, 0, NONE_C, 1,
                     TYPES(MPI_INT)});
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_vector(3, 2, -4, MPI_INT, &t));
    CHECK_DECODE(t, {MPI_COMBINER_VECTOR, 0, 3, INTS(3, 2, -4), 0, NONE_A, 0, NONE_C, 1,
                     TYPES(MPI_INT)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_vector_c(3, 2, -4, MPI_INT, &t));
    CHECK_DECODE(t, {MPI_COMBINER_VECTOR, 1, 0, NONE_I, 0, NONE_A, 3, COUNTS(3, 2, -4), 1,
                     TYPES(MPI_INT)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_vector(2, 3, 4, type1, &t));
    CHECK_DECODE(t, {MPI_COMBINER_VECTOR, 0, 3, INTS(2, 3, 4), 0, NONE_A, 0, NONE_C, 1,
                     TYPES(type1)});
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_create_hvector(3, 2, -40, MPI_DOUBLE, &t));
    CHECK_DECODE(t, {MPI_COMBINER_HVECTOR, 0, 2, INTS(3, 2), 1, ADDRS(-40), 0, NONE_C, 1,
                     TYPES(MPI_DOUBLE)});
    CHECK_OK(MPI_Type_free(&t));
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI-1 names: not in the standard ABI */
    CHECK_OK(MPI_Type_hvector(3, 2, -40, MPI_DOUBLE, &t));
    CHECK_DECODE(t, {MPI_COMBINER_HVECTOR, 0, 2, INTS(3, 2), 1, ADDRS(-40), 0, NONE_C, 1,
                     TYPES(MPI_DOUBLE)});
    CHECK_OK(MPI_Type_free(&t));
#endif
    CHECK_OK(MPI_Type_create_hvector_c(3, 2, -40, MPI_DOUBLE, &t));
    CHECK_DECODE(t, {MPI_COMBINER_HVECTOR, 1, 0, NONE_I, 0, NONE_A, 3, COUNTS(3, 2, -40), 1,
                     TYPES(MPI_DOUBLE)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_create_hvector_c(2, 1, 100, type1, &t));
    CHECK_DECODE(t, {MPI_COMBINER_HVECTOR, 1, 0, NONE_I, 0, NONE_A, 3, COUNTS(2, 1, 100), 1,
                     TYPES(type1)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_free(&type1));
}

static void test_indexed_family(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, type1 = make_type1();

    {
        int b[3] = {2, 0, 1};
        int d[3] = {5, -1, 9};
        MPI_Count cb[3] = {2, 0, 1};
        MPI_Count cd[3] = {5, -1, 9};
        CHECK_OK(MPI_Type_indexed(3, b, d, MPI_SHORT, &t));
        CHECK_DECODE(t, {MPI_COMBINER_INDEXED, 0, 7, INTS(3, 2, 0, 1, 5, -1, 9), 0, NONE_A, 0,
                         NONE_C, 1, TYPES(MPI_SHORT)});
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_indexed_c(3, cb, cd, MPI_SHORT, &t));
        CHECK_DECODE(t, {MPI_COMBINER_INDEXED, 1, 0, NONE_I, 0, NONE_A, 7,
                         COUNTS(3, 2, 0, 1, 5, -1, 9), 1, TYPES(MPI_SHORT)});
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_indexed(2, b, d, type1, &t));
        CHECK_DECODE(t, {MPI_COMBINER_INDEXED, 0, 5, INTS(2, 2, 0, 5, -1), 0, NONE_A, 0, NONE_C,
                         1, TYPES(type1)});
        CHECK_OK(MPI_Type_free(&t));
    }
    {
        int b[2] = {1, 3};
        MPI_Aint d[2] = {100, -8};
        MPI_Count cb[2] = {1, 3};
        MPI_Count cd[2] = {100, -8};
        CHECK_OK(MPI_Type_create_hindexed(2, b, d, type1, &t));
        CHECK_DECODE(t, {MPI_COMBINER_HINDEXED, 0, 3, INTS(2, 1, 3), 2, ADDRS(100, -8), 0,
                         NONE_C, 1, TYPES(type1)});
        CHECK_OK(MPI_Type_free(&t));
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI-1 names: not in the standard ABI */
        CHECK_OK(MPI_Type_hindexed(2, b, d, MPI_INT, &t));
        CHECK_DECODE(t, {MPI_COMBINER_HINDEXED, 0, 3, INTS(2, 1, 3), 2, ADDRS(100, -8), 0,
                         NONE_C, 1, TYPES(MPI_INT)});
        CHECK_OK(MPI_Type_free(&t));
#endif
        CHECK_OK(MPI_Type_create_hindexed_c(2, cb, cd, type1, &t));
        CHECK_DECODE(t, {MPI_COMBINER_HINDEXED, 1, 0, NONE_I, 0, NONE_A, 5,
                         COUNTS(2, 1, 3, 100, -8), 1, TYPES(type1)});
        CHECK_OK(MPI_Type_free(&t));
    }
    {
        int d[3] = {4, 0, -2};
        MPI_Count cd[3] = {4, 0, -2};
        CHECK_OK(MPI_Type_create_indexed_block(3, 2, d, MPI_FLOAT, &t));
        CHECK_DECODE(t, {MPI_COMBINER_INDEXED_BLOCK, 0, 5, INTS(3, 2, 4, 0, -2), 0, NONE_A, 0,
                         NONE_C, 1, TYPES(MPI_FLOAT)});
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_indexed_block_c(3, 2, cd, MPI_FLOAT, &t));
        CHECK_DECODE(t, {MPI_COMBINER_INDEXED_BLOCK, 1, 0, NONE_I, 0, NONE_A, 5,
                         COUNTS(3, 2, 4, 0, -2), 1, TYPES(MPI_FLOAT)});
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_indexed_block(2, 1, d, type1, &t));
        CHECK_DECODE(t, {MPI_COMBINER_INDEXED_BLOCK, 0, 4, INTS(2, 1, 4, 0), 0, NONE_A, 0,
                         NONE_C, 1, TYPES(type1)});
        CHECK_OK(MPI_Type_free(&t));
    }
    {
        MPI_Aint d[2] = {0, 64};
        MPI_Count cd[2] = {0, 64};
        CHECK_OK(MPI_Type_create_hindexed_block(2, 3, d, MPI_INT, &t));
        CHECK_DECODE(t, {MPI_COMBINER_HINDEXED_BLOCK, 0, 2, INTS(2, 3), 2, ADDRS(0, 64), 0,
                         NONE_C, 1, TYPES(MPI_INT)});
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_hindexed_block_c(2, 3, cd, MPI_INT, &t));
        CHECK_DECODE(t, {MPI_COMBINER_HINDEXED_BLOCK, 1, 0, NONE_I, 0, NONE_A, 4,
                         COUNTS(2, 3, 0, 64), 1, TYPES(MPI_INT)});
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_hindexed_block(2, 1, d, type1, &t));
        CHECK_DECODE(t, {MPI_COMBINER_HINDEXED_BLOCK, 0, 2, INTS(2, 1), 2, ADDRS(0, 64), 0,
                         NONE_C, 1, TYPES(type1)});
        CHECK_OK(MPI_Type_free(&t));
    }
    CHECK_OK(MPI_Type_free(&type1));
}

static void test_struct(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, type1 = make_type1();
    int b[3] = {2, 1, 3};
    MPI_Aint d[3] = {0, 16, 26};
    MPI_Count cb[3] = {2, 1, 3};
    MPI_Count cd[3] = {0, 16, 26};
    MPI_Datatype ty[3];
    ty[0] = MPI_FLOAT;
    ty[1] = type1;
    ty[2] = MPI_CHAR;

    CHECK_OK(MPI_Type_create_struct(3, b, d, ty, &t));
    CHECK_DECODE(t, {MPI_COMBINER_STRUCT, 0, 4, INTS(3, 2, 1, 3), 3, ADDRS(0, 16, 26), 0,
                     NONE_C, 3, TYPES(MPI_FLOAT, type1, MPI_CHAR)});
    CHECK_OK(MPI_Type_free(&t));
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI-1 names: not in the standard ABI */
    CHECK_OK(MPI_Type_struct(3, b, d, ty, &t));
    CHECK_DECODE(t, {MPI_COMBINER_STRUCT, 0, 4, INTS(3, 2, 1, 3), 3, ADDRS(0, 16, 26), 0,
                     NONE_C, 3, TYPES(MPI_FLOAT, type1, MPI_CHAR)});
    CHECK_OK(MPI_Type_free(&t));
#endif
    CHECK_OK(MPI_Type_create_struct_c(3, cb, cd, ty, &t));
    CHECK_DECODE(t, {MPI_COMBINER_STRUCT, 1, 0, NONE_I, 0, NONE_A, 7,
                     COUNTS(3, 2, 1, 3, 0, 16, 26), 3, TYPES(MPI_FLOAT, type1, MPI_CHAR)});
    CHECK_OK(MPI_Type_free(&t));
    /* the same derived child twice: two new handles */
    ty[0] = type1;
    CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
    CHECK_DECODE(t, {MPI_COMBINER_STRUCT, 0, 3, INTS(2, 2, 1), 2, ADDRS(0, 16), 0, NONE_C, 2,
                     TYPES(type1, type1)});
    CHECK_OK(MPI_Type_free(&t));
#ifndef MPI_DTYPE_STANDARD_ABI /* the MPI-1 markers: not in the standard ABI */
    /* legacy markers come back as the predefined marker handles */
    {
        MPI_Aint md[3] = {-4, 0, 20};
        int mb[3] = {1, 1, 1};
        MPI_Datatype mt[3] = {MPI_LB, MPI_INT, MPI_UB};
        CHECK_OK(MPI_Type_create_struct(3, mb, md, mt, &t));
        CHECK_DECODE(t, {MPI_COMBINER_STRUCT, 0, 4, INTS(3, 1, 1, 1), 3, ADDRS(-4, 0, 20), 0,
                         NONE_C, 3, TYPES(MPI_LB, MPI_INT, MPI_UB)});
        CHECK_OK(MPI_Type_free(&t));
    }
#endif
    CHECK_OK(MPI_Type_free(&type1));
}

static void test_subarray(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, type1 = make_type1();
    /* C order: rows 1-2, columns 2-4 of a 6 x 5 array of int */
    {
        int sizes[2] = {6, 5}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
        MPI_Count csizes[2] = {6, 5}, csubsizes[2] = {2, 3}, cstarts[2] = {1, 2};
        static const check_entry map[] = {{28, 4}, {32, 4}, {36, 4}, {48, 4}, {52, 4}, {56, 4}};
        CHECK_OK(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 24, 0, 120, 28, 32);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_DECODE(t, {MPI_COMBINER_SUBARRAY, 0, 8, INTS(2, 6, 5, 2, 3, 1, 2, MPI_ORDER_C), 0,
                         NONE_A, 0, NONE_C, 1, TYPES(MPI_INT)});
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_subarray_c(2, csizes, csubsizes, cstarts, MPI_ORDER_C, MPI_INT,
                                            &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 24, 0, 120, 28, 32);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_DECODE(t, {MPI_COMBINER_SUBARRAY, 1, 2, INTS(2, MPI_ORDER_C), 0, NONE_A, 6,
                         COUNTS(6, 5, 2, 3, 1, 2), 1, TYPES(MPI_INT)});
        CHECK_OK(MPI_Type_free(&t));
    }
    /* Fortran order: a 4 x 3 x 5 array of type1, subarray 2 x 1 x 3 at (1, 2, 0) */
    {
        int sizes[3] = {4, 3, 5}, subsizes[3] = {2, 1, 3}, starts[3] = {1, 2, 0};
        MPI_Count csizes[3] = {4, 3, 5}, csubsizes[3] = {2, 1, 3}, cstarts[3] = {1, 2, 0};
        static const check_entry map[] = {{144, 8}, {152, 1}, {160, 8}, {168, 1},
                                          {336, 8}, {344, 1}, {352, 8}, {360, 1},
                                          {528, 8}, {536, 1}, {544, 8}, {552, 1}};
        CHECK_OK(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, type1,
                                          &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 54, 0, 960, 144, 409);
        CHECK_TYPEMAP(t, 1, map);
        CHECK_DECODE(t, {MPI_COMBINER_SUBARRAY, 0, 11,
                         INTS(3, 4, 3, 5, 2, 1, 3, 1, 2, 0, MPI_ORDER_FORTRAN), 0, NONE_A, 0,
                         NONE_C, 1, TYPES(type1)});
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_subarray_c(3, csizes, csubsizes, cstarts, MPI_ORDER_FORTRAN,
                                            type1, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 54, 0, 960, 144, 409);
        CHECK_TYPEMAP(t, 1, map);
        CHECK_DECODE(t, {MPI_COMBINER_SUBARRAY, 1, 2, INTS(3, MPI_ORDER_FORTRAN), 0, NONE_A, 9,
                         COUNTS(4, 3, 5, 2, 1, 3, 1, 2, 0), 1, TYPES(type1)});
        CHECK_OK(MPI_Type_free(&t));
    }
    CHECK_OK(MPI_Type_free(&type1));
}

static void test_darray(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    /* 8 x 6 ints, 2 x 2 processes, rows block-distributed, columns cyclic(2); rank 1 has
       coordinates (0, 1): rows 0-3, columns 2-3 */
    {
        int gsizes[2] = {8, 6};
        MPI_Count cgsizes[2] = {8, 6};
        int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2};
        int psizes[2] = {2, 2};
        static const check_entry map[] = {{8, 4},  {12, 4}, {32, 4}, {36, 4},
                                          {56, 4}, {60, 4}, {80, 4}, {84, 4}};
        CHECK_OK(MPI_Type_create_darray(4, 1, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                        MPI_INT, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 32, 0, 192, 8, 80);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_DECODE(t, {MPI_COMBINER_DARRAY, 0, 12,
                         INTS(4, 1, 2, 8, 6, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC,
                              MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2, MPI_ORDER_C),
                         0, NONE_A, 0, NONE_C, 1, TYPES(MPI_INT)});
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_darray_c(4, 1, 2, cgsizes, distribs, dargs, psizes,
                                          MPI_ORDER_C, MPI_INT, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 32, 0, 192, 8, 80);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_DECODE(t, {MPI_COMBINER_DARRAY, 1, 10,
                         INTS(4, 1, 2, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC,
                              MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2, MPI_ORDER_C),
                         0, NONE_A, 2, COUNTS(8, 6), 1, TYPES(MPI_INT)});
        CHECK_OK(MPI_Type_free(&t));
    }
    /* 5 x 7 doubles in Fortran order, 1 x 3 processes, first dimension not distributed,
       second block-distributed; rank 2 has coordinates (0, 2): column 6, all 5 rows */
    {
        int gsizes[2] = {5, 7};
        MPI_Count cgsizes[2] = {5, 7};
        int distribs[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK};
        int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
        int psizes[2] = {1, 3};
        static const check_entry map[] = {{240, 8}, {248, 8}, {256, 8}, {264, 8}, {272, 8}};
        CHECK_OK(MPI_Type_create_darray(3, 2, 2, gsizes, distribs, dargs, psizes,
                                        MPI_ORDER_FORTRAN, MPI_DOUBLE, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 40, 0, 280, 240, 40);
        CHECK_TYPEMAP(t, 1, map);
        CHECK_DECODE(t, {MPI_COMBINER_DARRAY, 0, 12,
                         INTS(3, 2, 2, 5, 7, MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK,
                              MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG, 1, 3,
                              MPI_ORDER_FORTRAN),
                         0, NONE_A, 0, NONE_C, 1, TYPES(MPI_DOUBLE)});
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_darray_c(3, 2, 2, cgsizes, distribs, dargs, psizes,
                                          MPI_ORDER_FORTRAN, MPI_DOUBLE, &t));
        CHECK_DECODE(t, {MPI_COMBINER_DARRAY, 1, 10,
                         INTS(3, 2, 2, MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK,
                              MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG, 1, 3,
                              MPI_ORDER_FORTRAN),
                         0, NONE_A, 2, COUNTS(5, 7), 1, TYPES(MPI_DOUBLE)});
        CHECK_OK(MPI_Type_free(&t));
    }
    /* 7 ints cyclic over 2 processes with the default argument (cyclic(1)); rank 1 has
       elements 1, 3, 5 */
    {
        int gsizes[1] = {7};
        int distribs[1] = {MPI_DISTRIBUTE_CYCLIC};
        int dargs[1] = {MPI_DISTRIBUTE_DFLT_DARG};
        int psizes[1] = {2};
        static const check_entry map[] = {{4, 4}, {12, 4}, {20, 4}};
        CHECK_OK(MPI_Type_create_darray(2, 1, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                        MPI_INT, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 12, 0, 28, 4, 20);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_DECODE(t, {MPI_COMBINER_DARRAY, 0, 8,
                         INTS(2, 1, 1, 7, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG, 2,
                              MPI_ORDER_C),
                         0, NONE_A, 0, NONE_C, 1, TYPES(MPI_INT)});
        CHECK_OK(MPI_Type_free(&t));
    }
}

static void test_resized(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, type1 = make_type1();
    CHECK_OK(MPI_Type_create_resized(type1, -8, 40, &t));
    CHECK_BOUNDS(t, 9, -8, 40, 0, 9);
    CHECK_DECODE(t, {MPI_COMBINER_RESIZED, 0, 0, NONE_I, 2, ADDRS(-8, 40), 0, NONE_C, 1,
                     TYPES(type1)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_create_resized_c(type1, -8, 40, &t));
    CHECK_BOUNDS(t, 9, -8, 40, 0, 9);
    CHECK_DECODE(t, {MPI_COMBINER_RESIZED, 1, 0, NONE_I, 0, NONE_A, 2, COUNTS(-8, 40), 1,
                     TYPES(type1)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_create_resized(MPI_INT, 0, 12, &t));
    CHECK_DECODE(t, {MPI_COMBINER_RESIZED, 0, 0, NONE_I, 2, ADDRS(0, 12), 0, NONE_C, 1,
                     TYPES(MPI_INT)});
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_free(&type1));
}

/* Decoded derived children are new objects that live on after the original and its parent are
   freed, and each decode gives a handle of its own. */
static void test_child_lifetime(void)
{
    MPI_Datatype a = MPI_DATATYPE_NULL, p = MPI_DATATYPE_NULL;
    MPI_Datatype c1 = MPI_DATATYPE_NULL, c2 = MPI_DATATYPE_NULL;
    int ints[4];
    MPI_Aint addrs[4];
    static const check_entry map[] = {{0, 4}, {12, 4}};

    CHECK_OK(MPI_Type_vector(2, 1, 3, MPI_INT, &a));
    CHECK_OK(MPI_Type_contiguous(2, a, &p));
    CHECK_OK(MPI_Type_get_contents(p, 1, 0, 1, ints, addrs, &c1));
    CHECK_OK(MPI_Type_get_contents(p, 1, 0, 1, ints, addrs, &c2));
    CHECK_EQ_LONG(ints[0], 2);
    CHECK(c1 != a);
    CHECK(c2 != a);
    CHECK(c1 != c2);
    /* free the originals first */
    CHECK_OK(MPI_Type_free(&a));
    CHECK_OK(MPI_Type_free(&p));
    /* the decoded child still works */
    CHECK_BOUNDS(c1, 8, 0, 16, 0, 16);
    CHECK_OK(MPI_Type_commit(&c1));
    CHECK_TYPEMAP(c1, 2, map);
    {
        int ni = -1, na = -1, nd = -1, comb = -1;
        int ci[4];
        MPI_Aint ca[1];
        MPI_Datatype cd[1] = {MPI_DATATYPE_NULL};
        CHECK_OK(MPI_Type_get_envelope(c1, &ni, &na, &nd, &comb));
        CHECK_EQ_LONG(comb, MPI_COMBINER_VECTOR);
        CHECK_EQ_LONG(ni, 3);
        CHECK_OK(MPI_Type_get_contents(c1, 3, 0, 1, ci, ca, cd));
        CHECK_EQ_LONG(ci[0], 2);
        CHECK_EQ_LONG(ci[1], 1);
        CHECK_EQ_LONG(ci[2], 3);
        CHECK_EQ_LONG(cd[0], MPI_INT);
    }
    CHECK_OK(MPI_Type_free(&c1));
    /* the second decoded handle is independent of the first */
    CHECK_BOUNDS(c2, 8, 0, 16, 0, 16);
    CHECK_OK(MPI_Type_free(&c2));
    CHECK_ERR(MPI_Type_free(&c2), MPI_ERR_TYPE);
}

/* Large counts beyond the int range come back verbatim. */
static void test_large_values(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, d = MPI_DATATYPE_NULL;
    MPI_Count ni = -1, na = -1, nc = -1, nd = -1, counts[3] = {0, 0, 0}, size = -1;
    int comb = -1, isize = 0, ints[1];
    MPI_Aint addrs[1];
    const MPI_Count big = (MPI_Count)1 << 33;

    CHECK_OK(MPI_Type_contiguous_c(big, MPI_BYTE, &t));
    CHECK_OK(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb));
    CHECK_EQ_LONG(comb, MPI_COMBINER_CONTIGUOUS);
    CHECK_EQ_LONG(nc, 1);
    CHECK_OK(MPI_Type_get_contents_c(t, 0, 0, 1, 1, ints, addrs, counts, &d));
    CHECK_EQ_LONG(counts[0], big);
    CHECK_EQ_LONG(d, MPI_BYTE);
    CHECK_OK(MPI_Type_size_c(t, &size));
    CHECK_EQ_LONG(size, big);
    CHECK_OK(MPI_Type_size(t, &isize));
    CHECK_EQ_LONG(isize, MPI_UNDEFINED);
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_create_hvector_c(2, 3, -big, MPI_INT, &t));
    CHECK_OK(MPI_Type_get_contents_c(t, 0, 0, 3, 1, ints, addrs, counts, &d));
    CHECK_EQ_LONG(counts[0], 2);
    CHECK_EQ_LONG(counts[1], 3);
    CHECK_EQ_LONG(counts[2], -big);
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_create_resized_c(MPI_INT, -big, 2 * big, &t));
    CHECK_OK(MPI_Type_get_contents_c(t, 0, 0, 2, 1, ints, addrs, counts, &d));
    CHECK_EQ_LONG(counts[0], -big);
    CHECK_EQ_LONG(counts[1], 2 * big);
    CHECK_OK(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    test_named();
    test_dup();
    test_contiguous_vector();
    test_indexed_family();
    test_struct();
    test_subarray();
    test_darray();
    test_resized();
    test_child_lifetime();
    test_large_values();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
