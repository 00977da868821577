/*
 * harness.c: the random datatype conformance harness.
 *
 * From a seed it builds a random nested datatype through the MPI C API and prints what the
 * MPI library says about it. The same source is built against mpi-dtype, MPICH and Open MPI;
 * conformance/driver.py runs the three over the same seeds, compares their answers line by
 * line and checks mpi-dtype against the naive type-map model (conformance/model.py).
 *
 *   harness FIRST_SEED COUNT     the random types of seeds FIRST_SEED, FIRST_SEED + 1, ...
 *   harness --recipe TYPE        one given type (in the notation below), as seed 0
 *
 * For every seed it prints one block:
 *
 *   seed S
 *   recipe T          the type as built, in the decode notation below (library independent)
 *   region R          a bound on the addresses of 3 elements, from the recipe alone
 *   size N
 *   extent LB EXTENT
 *   true_extent TRUE_LB TRUE_EXTENT
 *   decode T          the type read back with MPI_Type_get_envelope / MPI_Type_get_contents
 *   pack C POSITION CRC       for C = 1..3: MPI_Pack of C elements from a patterned buffer
 *   unpack C POSITION CRC     MPI_Unpack of those bytes into a buffer filled with 0xAA
 * With HARNESS_EXTRA_LINES=N in the environment, for seeds that are multiples of N, also:
 *   ext C POSITION CRC        for C = 1..3: the same with MPI_Pack_external ("external32")
 *   unext C POSITION CRC      and MPI_Unpack_external of those bytes
 *   size_c N, extent_c LB EXTENT, true_extent_c TRUE_LB TRUE_EXTENT, pack_c 2 POSITION CRC,
 *   unpack_c 2 POSITION CRC   the large-count (_c) queries, MPI_Pack_c and MPI_Unpack_c of
 *                             2 elements, on the type built again through the large-count
 *                             (_c) constructors (only from MPI-4 libraries: not Open MPI 4.1)
 *   elements K N C            (if size > 0) MPI_Get_elements and MPI_Get_count on a status
 *                             of K bytes (MPI_Status_set_elements of MPI_BYTE), for
 *                             K = size / 2, size + 4 and 2 * size - 8; N and C are numbers
 *                             or `undefined` (MPI_UNDEFINED); MPI-4 libraries follow each
 *                             with `elements_c K N C` from MPI_Get_elements_c / _count_c
 *   end S
 *
 * A failing call prints its error class instead of its results ("size error MPI_ERR_TYPE").
 *
 * With HARNESS_DROP_IN=1 in the environment the generator is the one of the drop-in comparison
 * (scripts/test-drop-in-random.sh, conformance/drop_in.py), which runs this source built
 * against mpi-dtype alone and built against MPICH with mpi-dtype preloaded, and requires the
 * same lines from both. Types nest up to 4 levels instead of 3, leaves are sometimes
 * MPI_Type_create_f90_* types, and two notations that are not combiners appear in recipes:
 *   from_contents(i=K;a=;t=T)   the K-th datatype MPI_Type_get_contents gives for T (built
 *                     from its recipe; T and its other children are then freed), reused as a
 *                     child of a new constructor or as the type itself
 *   behind(i=F;a=;t=T) T made by the MPI library behind mpi-dtype, every level of it with
 *                     that library's constructors (the program's libmpich or libmpi, found
 *                     with dlopen RTLD_NOLOAD: a type that library made itself; T holds no
 *                     from_contents or behind node, since mpi-dtype's own handles name
 *                     nothing there); where no such library is loaded (standalone), or where
 *                     that library's own rules refuse the arguments (MPI_ERR_ARG, or
 *                     MPI_ERR_TYPE for a type without data), in mpi-dtype like any other. With
 *                     F = 0 the handles of T's children are freed as soon as T is made, with
 *                     F = 1 only once the whole type was used (at the end of the seed). The
 *                     types MPICH made follow MPICH's rules (the queries on them, and
 *                     MPI_Type_dup, go to MPICH); those mpi-dtype makes around them, and the
 *                     children decoded from them that mpi-dtype made, the standard's. So
 *                     such a type (made_behind()) is never the type itself nor a dup's child.
 * Each child handle is freed as soon as the constructor using it returned (but those of
 * behind(i=1;...) nodes), as a program done with it does. Each block has one more line,
 * after `region`:
 *   expect T          the recipe with each from_contents node replaced by the child it names,
 *                     and each behind node by its T: what the `decode` line must print
 * Without it the generator, and every line it prints, are as described above (the
 * MPICH and Open MPI comparison of driver.py). `--recipe` reads both notations.
 * Type notation: a named type is its name (MPI_INT); a derived type is
 * `combiner(i=INTEGERS;a=ADDRESSES;t=TYPE,TYPE)` with the arrays exactly as
 * MPI_Type_get_contents returns them, except that orders, distributions and the default
 * darg are written as words (C, FORTRAN, BLOCK, CYCLIC, NONE, DFLT) because their values
 * differ between MPI libraries.
 *
 * The buffer byte at offset o from the origin passed to MPI_Pack holds (o mod 251); CRC is
 * the CRC-32 (zlib's) of the packed bytes, and for unpack of the whole target buffer, which
 * spans [-R, R) around the origin. The output is flushed after every seed, so
 * when a library crashes the driver knows the seed that crashed it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dlopen's RTLD_NOLOAD, dladdr */
#endif
#include "error_names.h" /* check_class_name, check_error_class */

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MPI 4.0's large-count functions: with an mpi.h of MPI 4.0 or later, or, built with
 * -DHARNESS_LARGE_COUNTS, with an mpi.h of MPI 3.1 that lacks them (Open MPI 4.1's and
 * 5.0's) for a run on a library that serves them (mpi-dtype, alone or preloaded in front of
 * an MPI that lacks them). large_counts.h then declares them, weak, so that the harness
 * links with that MPI, and main() checks that they are there. */
#if MPI_VERSION >= 4 || defined(HARNESS_LARGE_COUNTS)
#define HARNESS_HAS_LARGE_COUNTS 1
#endif
#if MPI_VERSION < 4 && defined(HARNESS_LARGE_COUNTS)
#define HARNESS_DECLARES_LARGE_COUNTS 1
#include "large_counts.h"
#endif

enum { MAX_DEPTH = 3, DROP_IN_MAX_DEPTH = 4, MAX_BLOCKS = 4, MAX_DIMS = 3 };

/* HARNESS_DROP_IN: the generator of the drop-in comparison (see the top of this file). */
static int drop_in;
static int max_depth = MAX_DEPTH;

/* Bounds that keep every seed small: on the bytes an element can reach and on its entries. */
static const int64_t REACH_LIMIT = 1 << 15;
static const int64_t ENTRY_LIMIT = 2048;

/* ---------------------------------------------------------------------------------------
 * Random numbers: splitmix64, so every seed gives the same type on every library.
 */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform integer in [lo, hi]. */
static int rng_range(int lo, int hi)
{
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

/* True with probability 1/n. */
static int rng_one_in(int n)
{
    return rng_range(1, n) == 1;
}

/* ---------------------------------------------------------------------------------------
 * The predefined types the generator uses, and every name the decoder can print.
 */
typedef struct {
    MPI_Datatype type;
    const char *name;
    int extent;  /* the C sizeof of the type (of the struct, for the pair types) */
    int entries; /* basic entries of its type map: 2 for the pair types */
} named_type;

#define NAMED(t, size) { t, #t, size, 1 }
#define PAIR(t, size) { t, #t, size, 2 }
static const named_type NAMED_TYPES[] = {
    NAMED(MPI_CHAR, 1),         NAMED(MPI_UNSIGNED_CHAR, 1), NAMED(MPI_BYTE, 1),
    NAMED(MPI_SHORT, 2),        NAMED(MPI_INT, 4),           NAMED(MPI_UNSIGNED, 4),
    NAMED(MPI_LONG, 8),         NAMED(MPI_LONG_LONG, 8),     NAMED(MPI_FLOAT, 4),
    NAMED(MPI_DOUBLE, 8),       NAMED(MPI_LONG_DOUBLE, 16),  NAMED(MPI_INT8_T, 1),
    NAMED(MPI_INT16_T, 2),      NAMED(MPI_UINT32_T, 4),      NAMED(MPI_INT64_T, 8),
    NAMED(MPI_C_BOOL, 1),       NAMED(MPI_WCHAR, 4),         NAMED(MPI_AINT, 8),
    NAMED(MPI_C_FLOAT_COMPLEX, 8), NAMED(MPI_C_DOUBLE_COMPLEX, 16),
    PAIR(MPI_FLOAT_INT, 8),     PAIR(MPI_DOUBLE_INT, 16),    PAIR(MPI_LONG_INT, 16),
    PAIR(MPI_2INT, 8),          PAIR(MPI_SHORT_INT, 8),      PAIR(MPI_LONG_DOUBLE_INT, 32),
};
#undef NAMED
#undef PAIR
enum { NAMED_COUNT = sizeof NAMED_TYPES / sizeof NAMED_TYPES[0] };

/* The name of a predefined handle, or NULL. */
static const char *named_type_name(MPI_Datatype type)
{
    for (int i = 0; i < NAMED_COUNT; i++) {
        if (NAMED_TYPES[i].type == type) {
            return NAMED_TYPES[i].name;
        }
    }
    return NULL;
}

/* The symbolic name of an error code's class (the values differ between libraries). */
static const char *error_class_name(int code)
{
    return check_class_name(check_error_class(code));
}

/* ---------------------------------------------------------------------------------------
 * Recipes: a type as its constructor arguments, laid out as MPI_Type_get_contents returns
 * them, so that printing a recipe and printing a decoded type use one notation.
 */
typedef enum {
    K_NAMED, K_DUP, K_CONTIGUOUS, K_VECTOR, K_HVECTOR, K_INDEXED, K_HINDEXED,
    K_INDEXED_BLOCK, K_HINDEXED_BLOCK, K_STRUCT, K_SUBARRAY, K_DARRAY, K_RESIZED,
    /* Only with HARNESS_DROP_IN: the MPI_Type_create_f90_* types (predefined, not named:
     * their envelope gives the arguments), and the from_contents and behind nodes (notations
     * of the recipes, not combiners). */
    K_F90_INTEGER, K_F90_REAL, K_F90_COMPLEX, K_FROM_CONTENTS, K_BEHIND,
    K_COUNT
} kind;

static const char *const KIND_NAMES[K_COUNT] = {
    "named", "dup", "contiguous", "vector", "hvector", "indexed", "hindexed",
    "indexed_block", "hindexed_block", "struct", "subarray", "darray", "resized",
    "f90_integer", "f90_real", "f90_complex", "from_contents", "behind",
};

/* True for the kinds of types that are predefined (never freed, never committed). */
static int is_predefined_kind(kind k)
{
    return k == K_NAMED || k == K_F90_INTEGER || k == K_F90_REAL || k == K_F90_COMPLEX;
}

enum { MAX_INTS = 4 * MAX_DIMS + 4, MAX_ADDRS = MAX_BLOCKS, MAX_TYPES = MAX_BLOCKS };

typedef struct recipe {
    kind kind;
    int named;           /* index into NAMED_TYPES when kind == K_NAMED */
    int ni, na, nt;
    int ints[MAX_INTS];
    MPI_Aint addrs[MAX_ADDRS];
    struct recipe *types[MAX_TYPES];
    int64_t reach;       /* no entry or bound of one element is farther than this from 0 */
    int64_t entries;     /* number of basic entries of one element (pair types count 2) */
} recipe;

/* The kind of a combiner constant of this library. */
static kind kind_of_combiner(int combiner)
{
    if (combiner == MPI_COMBINER_NAMED) return K_NAMED;
    if (combiner == MPI_COMBINER_DUP) return K_DUP;
    if (combiner == MPI_COMBINER_CONTIGUOUS) return K_CONTIGUOUS;
    if (combiner == MPI_COMBINER_VECTOR) return K_VECTOR;
    if (combiner == MPI_COMBINER_HVECTOR) return K_HVECTOR;
    if (combiner == MPI_COMBINER_INDEXED) return K_INDEXED;
    if (combiner == MPI_COMBINER_HINDEXED) return K_HINDEXED;
    if (combiner == MPI_COMBINER_INDEXED_BLOCK) return K_INDEXED_BLOCK;
    if (combiner == MPI_COMBINER_HINDEXED_BLOCK) return K_HINDEXED_BLOCK;
    if (combiner == MPI_COMBINER_STRUCT) return K_STRUCT;
    if (combiner == MPI_COMBINER_SUBARRAY) return K_SUBARRAY;
    if (combiner == MPI_COMBINER_DARRAY) return K_DARRAY;
    if (combiner == MPI_COMBINER_RESIZED) return K_RESIZED;
    if (combiner == MPI_COMBINER_F90_INTEGER) return K_F90_INTEGER;
    if (combiner == MPI_COMBINER_F90_REAL) return K_F90_REAL;
    if (combiner == MPI_COMBINER_F90_COMPLEX) return K_F90_COMPLEX;
    return K_COUNT;
}

/* Prints integer `index` of the contents of a `k` type: a word where the value is a
 * library-specific constant. */
static void print_int(kind k, const int *ints, int ni, int index)
{
    int v = ints[index];
    int last = index == ni - 1;
    const char *word = NULL;
    if (k == K_F90_INTEGER || k == K_F90_REAL || k == K_F90_COMPLEX) {
        if (v == MPI_UNDEFINED) word = "UNDEF";
    } else if ((k == K_SUBARRAY || k == K_DARRAY) && last) {
        word = v == MPI_ORDER_C ? "C" : v == MPI_ORDER_FORTRAN ? "FORTRAN" : "ORDER?";
    } else if (k == K_DARRAY && ni >= 3) {
        int ndims = ints[2];
        if (index >= 3 + ndims && index < 3 + 2 * ndims) {
            word = v == MPI_DISTRIBUTE_BLOCK    ? "BLOCK"
                   : v == MPI_DISTRIBUTE_CYCLIC ? "CYCLIC"
                   : v == MPI_DISTRIBUTE_NONE   ? "NONE"
                                                : "DISTRIB?";
        } else if (index >= 3 + 2 * ndims && index < 3 + 3 * ndims &&
                   v == MPI_DISTRIBUTE_DFLT_DARG) {
            word = "DFLT";
        }
    }
    if (word) {
        fputs(word, stdout);
    } else {
        printf("%d", v);
    }
}

/* Prints the arrays of one derived node; `print_child(i)` prints child i. */
static void print_arrays(kind k, const int *ints, int ni, const MPI_Aint *addrs, int na)
{
    printf("%s(i=", KIND_NAMES[k]);
    for (int i = 0; i < ni; i++) {
        if (i) putchar(',');
        print_int(k, ints, ni, i);
    }
    fputs(";a=", stdout);
    for (int i = 0; i < na; i++) {
        printf(i ? ",%ld" : "%ld", (long)addrs[i]);
    }
    fputs(";t=", stdout);
}

/* The recipe a from_contents node stands for (the child it names, itself resolved), or a
 * behind node (its type). */
static const recipe *resolve(const recipe *r)
{
    for (;;) {
        if (r->kind == K_FROM_CONTENTS) r = resolve(r->types[0])->types[r->ints[0]];
        else if (r->kind == K_BEHIND) r = r->types[0];
        else return r;
    }
}

/* Prints a recipe; with `resolved`, each from_contents and behind node as the type it
 * stands for (what decoding the type must give). */
static void print_recipe_as(const recipe *r, int resolved)
{
    if (resolved) r = resolve(r);
    if (r->kind == K_NAMED) {
        fputs(NAMED_TYPES[r->named].name, stdout);
        return;
    }
    print_arrays(r->kind, r->ints, r->ni, r->addrs, r->na);
    for (int i = 0; i < r->nt; i++) {
        if (i) putchar(',');
        print_recipe_as(r->types[i], resolved);
    }
    putchar(')');
}

static void print_recipe(const recipe *r) { print_recipe_as(r, 0); }

/* Prints `type` as the library decodes it; 0 on success, else the failing error code. */
static int print_decoded(MPI_Datatype type)
{
    int ni, na, nt, combiner;
    int rc = MPI_Type_get_envelope(type, &ni, &na, &nt, &combiner);
    if (rc != MPI_SUCCESS) return rc;
    kind k = kind_of_combiner(combiner);
    if (k == K_NAMED) {
        const char *name = named_type_name(type);
        fputs(name ? name : "named?", stdout);
        return 0;
    }
    if (k == K_COUNT || ni > MAX_INTS || na > MAX_ADDRS || nt > MAX_TYPES) {
        printf("unexpected(combiner=%d,ni=%d,na=%d,nt=%d)", combiner, ni, na, nt);
        return 0;
    }
    int ints[MAX_INTS + 1];
    MPI_Aint addrs[MAX_ADDRS + 1];
    MPI_Datatype types[MAX_TYPES + 1];
    rc = MPI_Type_get_contents(type, ni, na, nt, ints, addrs, types);
    if (rc != MPI_SUCCESS) return rc;
    print_arrays(k, ints, ni, addrs, na);
    for (int i = 0; i < nt && rc == MPI_SUCCESS; i++) {
        if (i) putchar(',');
        rc = print_decoded(types[i]);
    }
    putchar(')');
    /* Derived children are new handles the caller frees; predefined ones (named, f90) are
     * the constants. */
    for (int i = 0; i < nt; i++) {
        int cni, cna, cnt, ccombiner;
        if (MPI_Type_get_envelope(types[i], &cni, &cna, &cnt, &ccombiner) == MPI_SUCCESS &&
            !is_predefined_kind(kind_of_combiner(ccombiner))) {
            MPI_Type_free(&types[i]);
        }
    }
    return rc;
}

/* ---------------------------------------------------------------------------------------
 * The generator.
 */
static recipe *new_recipe(kind k)
{
    recipe *r = calloc(1, sizeof *r);
    if (!r) {
        fputs("out of memory\n", stderr);
        exit(2);
    }
    r->kind = k;
    return r;
}

static void free_recipe(recipe *r)
{
    for (int i = 0; i < r->nt; i++) free_recipe(r->types[i]);
    free(r);
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t abs64(int64_t a) { return a < 0 ? -a : a; }

/* Bound on the extent of one element of `r` (it lies within [-reach, reach]). */
static int64_t extent_bound(const recipe *r) { return 2 * r->reach; }

static int64_t product(const int *values, int n)
{
    int64_t p = 1;
    for (int d = 0; d < n; d++) p *= values[d];
    return p;
}

/* Adds to r's bounds a block of `blocklength` elements of `old` starting `disp` bytes from 0. */
static void measure_block(recipe *r, const recipe *old, int64_t blocklength, int64_t disp)
{
    int64_t n = blocklength < 0 ? 0 : blocklength;
    r->reach = max64(r->reach, abs64(disp) + n * extent_bound(old) + old->reach + 16);
    r->entries += n * old->entries;
}

/* The size of the type MPI_Type_create_f90_* selects for the arguments of `r` (the kind
 * models of x86-64 Linux: INTEGER1..8, REAL4, REAL8, REAL16, and complex types twice the
 * reals), or 0 if no type fits. Only a bound on what the library selects is needed. */
static int f90_size(const recipe *r)
{
    if (r->kind == K_F90_INTEGER) {
        int range = r->ints[0];
        return range <= 2 ? 1 : range <= 4 ? 2 : range <= 9 ? 4 : range <= 18 ? 8 : 0;
    }
    int p = r->ints[0], range = r->ints[1];
    if (p == MPI_UNDEFINED && range == MPI_UNDEFINED) return 0;
    static const int MODELS[][3] = {{6, 37, 4}, {15, 307, 8}, {18, 4931, 16}};
    for (int m = 0; m < 3; m++) {
        if ((p == MPI_UNDEFINED || p <= MODELS[m][0]) &&
            (range == MPI_UNDEFINED || range <= MODELS[m][1])) {
            return MODELS[m][2] * (r->kind == K_F90_COMPLEX ? 2 : 1);
        }
    }
    return 0;
}

/* Sets r->reach and r->entries from the recipe's arrays (its children are measured). */
static void measure(recipe *r)
{
    const int *i = r->ints;
    const MPI_Aint *a = r->addrs;
    const recipe *old = r->nt > 0 ? r->types[0] : NULL;
    int64_t unit = old ? extent_bound(old) : 0;
    r->reach = 0;
    r->entries = 0;
    switch (r->kind) {
    case K_NAMED:
        r->reach = NAMED_TYPES[r->named].extent;
        r->entries = NAMED_TYPES[r->named].entries;
        break;
    case K_DUP:
        r->reach = old->reach;
        r->entries = old->entries;
        break;
    case K_CONTIGUOUS: measure_block(r, old, i[0], 0); break;
    case K_VECTOR:
    case K_HVECTOR: {
        int64_t step = r->kind == K_VECTOR ? i[2] * unit : a[0];
        for (int k = 0; k < i[0]; k++) measure_block(r, old, i[1], k * step);
        break;
    }
    case K_INDEXED:
        for (int k = 0; k < i[0]; k++) measure_block(r, old, i[1 + k], i[1 + i[0] + k] * unit);
        break;
    case K_HINDEXED:
        for (int k = 0; k < i[0]; k++) measure_block(r, old, i[1 + k], a[k]);
        break;
    case K_INDEXED_BLOCK:
        for (int k = 0; k < i[0]; k++) measure_block(r, old, i[1], i[2 + k] * unit);
        break;
    case K_HINDEXED_BLOCK:
        for (int k = 0; k < i[0]; k++) measure_block(r, old, i[1], a[k]);
        break;
    case K_STRUCT:
        for (int k = 0; k < i[0]; k++) measure_block(r, r->types[k], i[1 + k], a[k]);
        break;
    case K_SUBARRAY:
        r->reach = product(i + 1, i[0]) * unit + old->reach + 16;
        r->entries = product(i + 1 + i[0], i[0]) * old->entries;
        break;
    case K_DARRAY:
        r->reach = product(i + 3, i[2]) * unit + old->reach + 16;
        r->entries = product(i + 3, i[2]) * old->entries;
        break;
    case K_RESIZED:
        r->reach = max64(old->reach, abs64(a[0]) + abs64(a[1]));
        r->entries = old->entries;
        break;
    case K_F90_INTEGER:
    case K_F90_REAL:
    case K_F90_COMPLEX:
        r->reach = f90_size(r);
        r->entries = r->kind == K_F90_COMPLEX ? 2 : 1;
        break;
    case K_FROM_CONTENTS:
    case K_BEHIND:
        r->reach = resolve(r)->reach;
        r->entries = resolve(r)->entries;
        break;
    default:
        break;
    }
}

static recipe *random_named(void)
{
    recipe *r = new_recipe(K_NAMED);
    r->named = rng_range(0, NAMED_COUNT - 1);
    measure(r);
    return r;
}

/* A count or block length: mostly small and positive, sometimes zero. */
static int random_count(int max)
{
    return rng_one_in(8) ? 0 : rng_range(1, max);
}

/* A byte displacement or stride: mostly a multiple of 4, sometimes any byte, either sign. */
static int random_bytes(int lo, int hi)
{
    int v = rng_range(lo, hi);
    return rng_one_in(4) ? v : v / 4 * 4;
}

static recipe *random_recipe(int depth);
static recipe *random_child(int depth);

/* An MPI_Type_create_f90_* type (drop-in generator only): one of a few arguments, each
 * model once, MPI_UNDEFINED for an omitted p or r. */
static recipe *random_f90(void)
{
    static const int CHOICES[][3] = {
        {K_F90_INTEGER, 1, 0},  {K_F90_INTEGER, 3, 0},  {K_F90_INTEGER, 9, 0},
        {K_F90_INTEGER, 18, 0}, {K_F90_REAL, 6, MPI_UNDEFINED},
        {K_F90_REAL, MPI_UNDEFINED, 300}, {K_F90_REAL, 15, 307},
        {K_F90_REAL, 17, MPI_UNDEFINED}, {K_F90_COMPLEX, 5, 30},
        {K_F90_COMPLEX, 12, MPI_UNDEFINED}, {K_F90_COMPLEX, MPI_UNDEFINED, 400},
    };
    const int *c = CHOICES[rng_range(0, (int)(sizeof CHOICES / sizeof CHOICES[0]) - 1)];
    recipe *r = new_recipe((kind)c[0]);
    r->ni = c[0] == K_F90_INTEGER ? 1 : 2;
    r->ints[0] = c[1];
    r->ints[1] = c[2];
    measure(r);
    return r;
}

/* A predefined type: named, or (drop-in generator) sometimes an f90 one. */
static recipe *random_leaf(void)
{
    return drop_in && rng_one_in(8) ? random_f90() : random_named();
}

/* Subarray: ndims, sizes, subsizes, starts, order. */
static void random_subarray(recipe *r)
{
    int n = rng_range(1, MAX_DIMS);
    r->ni = 3 * n + 2;
    r->ints[0] = n;
    for (int d = 0; d < n; d++) {
        int size = rng_range(1, 4);
        int subsize = rng_range(1, size);
        r->ints[1 + d] = size;
        r->ints[1 + n + d] = subsize;
        r->ints[1 + 2 * n + d] = rng_range(0, size - subsize);
    }
    r->ints[r->ni - 1] = rng_one_in(2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
}

/* Darray: size, rank, ndims, gsizes, distribs, dargs, psizes, order. */
static void random_darray(recipe *r)
{
    int n = rng_range(1, MAX_DIMS);
    r->ni = 4 * n + 4;
    r->ints[2] = n;
    int size = 1;
    for (int d = 0; d < n; d++) {
        int gsize = rng_range(1, 6);
        int psize = rng_range(1, 3);
        int distrib = MPI_DISTRIBUTE_NONE;
        int darg = MPI_DISTRIBUTE_DFLT_DARG;
        switch (rng_range(0, 2)) {
        case 0:
            distrib = MPI_DISTRIBUTE_BLOCK;
            if (rng_one_in(2)) darg = (gsize + psize - 1) / psize + rng_range(0, 2);
            break;
        case 1:
            distrib = MPI_DISTRIBUTE_CYCLIC;
            if (rng_one_in(2)) darg = rng_range(1, 3);
            break;
        default:
            /* Not distributed: mostly over one process, sometimes replicated over more. */
            if (!rng_one_in(4)) psize = 1;
            break;
        }
        r->ints[3 + d] = gsize;
        r->ints[3 + n + d] = distrib;
        r->ints[3 + 2 * n + d] = darg;
        r->ints[3 + 3 * n + d] = psize;
        size *= psize;
    }
    r->ints[0] = size;
    r->ints[1] = rng_range(0, size - 1);
    r->ints[r->ni - 1] = rng_one_in(2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
}

/* Block lengths and displacements of the indexed family; `bytes` for the h- variants. */
static void random_blocks(recipe *r, int blocked, int bytes)
{
    int count = random_count(MAX_BLOCKS);
    int common = random_count(3);
    r->ints[r->ni++] = count;
    if (blocked) r->ints[r->ni++] = common;
    if (!blocked) {
        for (int k = 0; k < count; k++) r->ints[r->ni++] = random_count(3);
    }
    for (int k = 0; k < count; k++) {
        if (bytes) r->addrs[r->na++] = random_bytes(-48, 48);
        else r->ints[r->ni++] = rng_range(-6, 6);
    }
}

static recipe *random_derived(kind k, int depth)
{
    recipe *r = new_recipe(k);
    if (k != K_STRUCT) {
        r->nt = 1;
        /* A dup of a type the MPI behind made is that library's (MPI_Type_dup forwards):
         * not a behind node's parent. */
        r->types[0] = k == K_DUP ? random_recipe(depth - 1) : random_child(depth - 1);
    }
    switch (k) {
    case K_CONTIGUOUS:
        r->ni = 1;
        r->ints[0] = random_count(4);
        break;
    case K_VECTOR:
        r->ni = 3;
        r->ints[0] = random_count(4);
        r->ints[1] = random_count(3);
        r->ints[2] = rng_range(-4, 4);
        break;
    case K_HVECTOR:
        r->ni = 2;
        r->ints[0] = random_count(4);
        r->ints[1] = random_count(3);
        r->na = 1;
        r->addrs[0] = random_bytes(-64, 64);
        break;
    case K_INDEXED: random_blocks(r, 0, 0); break;
    case K_HINDEXED: random_blocks(r, 0, 1); break;
    case K_INDEXED_BLOCK: random_blocks(r, 1, 0); break;
    case K_HINDEXED_BLOCK: random_blocks(r, 1, 1); break;
    case K_STRUCT: {
        int count = rng_one_in(10) ? 0 : rng_range(1, MAX_BLOCKS);
        r->ni = 1 + count;
        r->ints[0] = count;
        r->na = r->nt = count;
        for (int k = 0; k < count; k++) {
            r->types[k] = random_child(depth - 1);
            r->ints[1 + k] = random_count(3);
            r->addrs[k] = random_bytes(-32, 64);
        }
        break;
    }
    case K_SUBARRAY: random_subarray(r); break;
    case K_DARRAY: random_darray(r); break;
    case K_RESIZED:
        r->na = 2;
        r->addrs[0] = random_bytes(-24, 16);
        r->addrs[1] = rng_one_in(8) ? 0 : random_bytes(1, 64);
        break;
    default:
        break;
    }
    measure(r);
    return r;
}

static int within_limits(const recipe *r)
{
    return r->reach <= REACH_LIMIT && r->entries <= ENTRY_LIMIT;
}

/* True while the generator makes the type of a behind node, which holds no from_contents
 * or behind node. */
static int generating_behind;

/* A random derived type of at most `depth` levels made by the MPI library behind (drop-in
 * generator). */
static recipe *random_behind(int depth)
{
    generating_behind = 1;
    recipe *t = random_derived((kind)rng_range(K_DUP, K_RESIZED), depth);
    generating_behind = 0;
    if (!within_limits(t)) {
        free_recipe(t);
        return random_leaf();
    }
    recipe *r = new_recipe(K_BEHIND);
    r->ni = 1;
    r->ints[0] = rng_range(0, 1);
    r->nt = 1;
    r->types[0] = t;
    measure(r);
    return r;
}

/* A child MPI_Type_get_contents returns (drop-in generator): of a random derived type of at
 * most `depth` levels, itself within the limits, the child at a random position. With
 * `behind`, sometimes of a type the MPI library behind made. */
static recipe *random_from_contents(int depth, int behind)
{
    recipe *t = behind && rng_one_in(3)
                    ? random_behind(depth)
                    : random_derived((kind)rng_range(K_DUP, K_RESIZED), depth);
    if (resolve(t)->nt == 0 || !within_limits(t)) {
        free_recipe(t);
        return random_leaf();
    }
    recipe *r = new_recipe(K_FROM_CONTENTS);
    r->ni = 1;
    r->ints[0] = rng_range(0, resolve(t)->nt - 1);
    r->nt = 1;
    r->types[0] = t;
    measure(r);
    return r;
}

/* True if the handle built for `r` is expected to be one the MPI library behind made itself
 * (in drop-in mode): a behind node, a dup of such a type (MPI_Type_dup forwards it), or a
 * derived child MPI_Type_get_contents gives for such a type (which that library answers, of
 * a type it made at every level). The types mpi-dtype makes around one import it. */
static int made_behind(const recipe *r)
{
    switch (r->kind) {
    case K_BEHIND: return 1;
    case K_DUP: return made_behind(r->types[0]);
    case K_FROM_CONTENTS: {
        const recipe *child = resolve(r->types[0])->types[r->ints[0]];
        return made_behind(r->types[0]) && child->kind != K_NAMED &&
               !is_predefined_kind(child->kind);
    }
    default: return 0;
    }
}

/* A random type of at most `depth` levels of constructors, within the size limits: never
 * one the MPI library behind made (see made_behind()), whose queries that library answers. */
static recipe *random_recipe(int depth)
{
    if (depth <= 0 || rng_one_in(depth == max_depth ? 12 : 3)) {
        return random_leaf();
    }
    if (drop_in && !generating_behind && rng_one_in(5)) {
        recipe *r = random_from_contents(depth, 1);
        if (made_behind(r)) {
            free_recipe(r);
            return random_leaf();
        }
        return r;
    }
    kind k = (kind)rng_range(K_DUP, K_RESIZED);
    recipe *r = random_derived(k, depth);
    if (r->reach > REACH_LIMIT || r->entries > ENTRY_LIMIT) {
        free_recipe(r);
        return random_named();
    }
    return r;
}

/* A random child of a constructor: a random type, or (drop-in generator) sometimes one the
 * MPI library behind made, or a child MPI_Type_get_contents gave for one. */
static recipe *random_child(int depth)
{
    if (drop_in && !generating_behind && depth > 0 && rng_one_in(8)) {
        return rng_one_in(3) ? random_from_contents(depth, 1) : random_behind(depth);
    }
    return random_recipe(depth);
}

/* ---------------------------------------------------------------------------------------
 * Reading a recipe back from its notation (for reproducers: `harness --recipe TEXT`).
 */
typedef struct {
    const char *text;
    const char *at;
    int failed;
} reader;

static int read_word(reader *rd, char *word, size_t room)
{
    size_t n = 0;
    while ((rd->at[n] >= 'A' && rd->at[n] <= 'Z') || (rd->at[n] >= 'a' && rd->at[n] <= 'z') ||
           (rd->at[n] >= '0' && rd->at[n] <= '9') || rd->at[n] == '_') {
        n++;
    }
    if (n == 0 || n >= room) return 0;
    memcpy(word, rd->at, n);
    word[n] = '\0';
    rd->at += n;
    return 1;
}

static void expect_char(reader *rd, char c)
{
    if (*rd->at == c) rd->at++;
    else rd->failed = 1;
}

/* One integer of a list: a number, or a word standing for a library constant. */
static long read_value(reader *rd)
{
    static const struct { const char *word; int value; } WORD_VALUES[] = {
        {"C", MPI_ORDER_C},          {"FORTRAN", MPI_ORDER_FORTRAN},
        {"BLOCK", MPI_DISTRIBUTE_BLOCK}, {"CYCLIC", MPI_DISTRIBUTE_CYCLIC},
        {"NONE", MPI_DISTRIBUTE_NONE},   {"DFLT", MPI_DISTRIBUTE_DFLT_DARG},
        {"UNDEF", MPI_UNDEFINED},
    };
    if (*rd->at == '-' || (*rd->at >= '0' && *rd->at <= '9')) {
        char *end;
        long v = strtol(rd->at, &end, 10);
        rd->at = end;
        return v;
    }
    char word[16];
    if (read_word(rd, word, sizeof word)) {
        for (size_t k = 0; k < sizeof WORD_VALUES / sizeof WORD_VALUES[0]; k++) {
            if (strcmp(word, WORD_VALUES[k].word) == 0) return WORD_VALUES[k].value;
        }
    }
    rd->failed = 1;
    return 0;
}

/* Reads `key=` and a comma-separated list ended by `stop` into `out`; returns its length. */
static int read_list(reader *rd, char key, char stop, long *out, int room)
{
    expect_char(rd, key);
    expect_char(rd, '=');
    int n = 0;
    while (!rd->failed && *rd->at != stop) {
        if (n > 0) expect_char(rd, ',');
        if (n == room) rd->failed = 1;
        if (!rd->failed) out[n++] = read_value(rd);
    }
    expect_char(rd, stop);
    return n;
}

/* Whether the array lengths are the ones MPI_Type_get_envelope gives for the combiner. */
static int arrays_fit(const recipe *r)
{
    int n = r->ni > 0 ? r->ints[0] : 0;
    int ni = 0, na = 0, nt = 1;
    switch (r->kind) {
    case K_NAMED: return 1;
    case K_DUP: break;
    case K_CONTIGUOUS: ni = 1; break;
    case K_VECTOR: ni = 3; break;
    case K_HVECTOR: ni = 2; na = 1; break;
    case K_INDEXED: ni = 1 + 2 * n; break;
    case K_HINDEXED: ni = 1 + n; na = n; break;
    case K_INDEXED_BLOCK: ni = 2 + n; break;
    case K_HINDEXED_BLOCK: ni = 2; na = n; break;
    case K_STRUCT: ni = 1 + n; na = nt = n; break;
    case K_SUBARRAY: ni = 3 * n + 2; break;
    case K_DARRAY: ni = r->ni > 2 ? 4 * r->ints[2] + 4 : -1; break;
    case K_RESIZED: na = 2; break;
    case K_F90_INTEGER:
    case K_F90_REAL:
    case K_F90_COMPLEX:
        return r->ni == (r->kind == K_F90_INTEGER ? 1 : 2) && r->na == 0 && r->nt == 0 &&
               f90_size(r) > 0;
    case K_FROM_CONTENTS:
        return r->ni == 1 && r->na == 0 && r->nt == 1 && n >= 0 &&
               n < resolve(r->types[0])->nt;
    case K_BEHIND:
        return r->ni == 1 && (n == 0 || n == 1) && r->na == 0 && r->nt == 1 &&
               r->types[0]->kind >= K_DUP && r->types[0]->kind <= K_RESIZED;
    default: return 0;
    }
    return n >= 0 && r->ni == ni && r->na == na && r->nt == nt;
}

static recipe *read_recipe(reader *rd)
{
    char word[32];
    if (!read_word(rd, word, sizeof word)) {
        rd->failed = 1;
        return new_recipe(K_NAMED);
    }
    recipe *r = NULL;
    if (*rd->at != '(') {
        r = new_recipe(K_NAMED);
        for (int k = 0; k < NAMED_COUNT; k++) {
            if (strcmp(word, NAMED_TYPES[k].name) == 0) r->named = k;
        }
        if (strcmp(word, NAMED_TYPES[r->named].name) != 0) rd->failed = 1;
    } else {
        kind k = K_DUP;
        while (k < K_COUNT && strcmp(word, KIND_NAMES[k]) != 0) k++;
        if (k == K_COUNT) rd->failed = 1;
        r = new_recipe(k == K_COUNT ? K_DUP : k);
        expect_char(rd, '(');
        long values[MAX_INTS];
        r->ni = read_list(rd, 'i', ';', values, MAX_INTS);
        for (int v = 0; v < r->ni; v++) r->ints[v] = (int)values[v];
        r->na = read_list(rd, 'a', ';', values, MAX_ADDRS);
        for (int v = 0; v < r->na; v++) r->addrs[v] = values[v];
        expect_char(rd, 't');
        expect_char(rd, '=');
        while (!rd->failed && *rd->at != ')') {
            if (r->nt > 0) expect_char(rd, ',');
            if (r->nt == MAX_TYPES) rd->failed = 1;
            if (!rd->failed) r->types[r->nt++] = read_recipe(rd);
        }
        expect_char(rd, ')');
    }
    if (!rd->failed && !arrays_fit(r)) rd->failed = 1;
    if (!rd->failed) measure(r);
    return r;
}

/* ---------------------------------------------------------------------------------------
 * Building a recipe through the MPI API.
 */

/* Error codes of the harness itself, for a from_contents node whose type decodes otherwise
 * than its recipe says: printed as the words below instead of an error class. */
enum { RC_UNEXPECTED_ENVELOPE = -1001, RC_UNEXPECTED_CONTENTS = -1002 };

static const char *rc_name(int rc)
{
    if (rc == RC_UNEXPECTED_ENVELOPE) return "unexpected_envelope";
    if (rc == RC_UNEXPECTED_CONTENTS) return "unexpected_contents";
    return error_class_name(rc);
}

/* True if the handle built for `r` is one the program frees (not a predefined type). */
static int freed_by_program(const recipe *r)
{
    return !is_predefined_kind(resolve(r)->kind);
}

/* Builds the predefined types of the kinds that have no handle of their own (f90). */
static int build_f90(const recipe *r, MPI_Datatype *out)
{
    switch (r->kind) {
    case K_F90_INTEGER: return MPI_Type_create_f90_integer(r->ints[0], out);
    case K_F90_REAL: return MPI_Type_create_f90_real(r->ints[0], r->ints[1], out);
    case K_F90_COMPLEX: return MPI_Type_create_f90_complex(r->ints[0], r->ints[1], out);
    default: return MPI_ERR_INTERN;
    }
}

/* After MPI_Type_get_contents of the type `parent` built for the recipe `t` gave `types`:
 * keeps child `keep` in *out and frees the other derived children and `parent`. */
static void keep_child(const recipe *t, MPI_Datatype parent, MPI_Datatype *types, int keep,
                       MPI_Datatype *out)
{
    *out = types[keep];
    for (int k = 0; k < t->nt; k++) {
        if (k != keep && freed_by_program(t->types[k])) MPI_Type_free(&types[k]);
    }
    MPI_Type_free(&parent);
}

/* The constructors build() calls: this program's MPI functions (API), or for behind nodes
 * those of the MPI library behind mpi-dtype (BEHIND, set by load_behind()). */
typedef struct {
    __typeof__(MPI_Type_dup) *dup;
    __typeof__(MPI_Type_contiguous) *contiguous;
    __typeof__(MPI_Type_vector) *vector;
    __typeof__(MPI_Type_create_hvector) *hvector;
    __typeof__(MPI_Type_indexed) *indexed;
    __typeof__(MPI_Type_create_hindexed) *hindexed;
    __typeof__(MPI_Type_create_indexed_block) *indexed_block;
    __typeof__(MPI_Type_create_hindexed_block) *hindexed_block;
    __typeof__(MPI_Type_create_struct) *structure;
    __typeof__(MPI_Type_create_subarray) *subarray;
    __typeof__(MPI_Type_create_darray) *darray;
    __typeof__(MPI_Type_create_resized) *resized;
} constructors;

static const constructors API = {
    MPI_Type_dup,           MPI_Type_contiguous,           MPI_Type_vector,
    MPI_Type_create_hvector, MPI_Type_indexed,             MPI_Type_create_hindexed,
    MPI_Type_create_indexed_block, MPI_Type_create_hindexed_block, MPI_Type_create_struct,
    MPI_Type_create_subarray, MPI_Type_create_darray,      MPI_Type_create_resized,
};
static constructors BEHIND;

/* The MPI library a program built for this ABI links: MPICH's, the MPI-5.0 standard ABI's
 * (MPI_ABI_VERSION, from mpi_abi.h or mpi-dtype's standard-ABI header), or Open MPI's (OPEN_MPI,
 * from Open MPI's mpi.h; MPI_DTYPE_OMPI_ABI, from mpi-dtype's header of Open MPI's ABI). */
#if defined(MPI_ABI_VERSION) && MPI_ABI_VERSION >= 1
#define MPI_LIBRARY_NAME "libmpi_abi.so.1"
#elif defined(OPEN_MPI) || defined(MPI_DTYPE_OMPI_ABI)
#define MPI_LIBRARY_NAME "libmpi.so.40"
#else
#define MPI_LIBRARY_NAME "libmpich.so.12"
#endif

/* Sets BEHIND: the PMPI_ constructors of the MPICH library the program was linked with, if
 * one is loaded (under the preload, the functions of the program's names are mpi-dtype's);
 * else the program's own. Returns the file they come from, or NULL. */
static const char *load_behind(void)
{
    BEHIND = API;
    void *lib = dlopen(MPI_LIBRARY_NAME, RTLD_LAZY | RTLD_NOLOAD);
    if (lib == NULL) return NULL;
    void *found[12] = {
        dlsym(lib, "PMPI_Type_dup"), dlsym(lib, "PMPI_Type_contiguous"),
        dlsym(lib, "PMPI_Type_vector"), dlsym(lib, "PMPI_Type_create_hvector"),
        dlsym(lib, "PMPI_Type_indexed"), dlsym(lib, "PMPI_Type_create_hindexed"),
        dlsym(lib, "PMPI_Type_create_indexed_block"),
        dlsym(lib, "PMPI_Type_create_hindexed_block"), dlsym(lib, "PMPI_Type_create_struct"),
        dlsym(lib, "PMPI_Type_create_subarray"), dlsym(lib, "PMPI_Type_create_darray"),
        dlsym(lib, "PMPI_Type_create_resized"),
    };
    for (int k = 0; k < 12; k++) {
        if (found[k] == NULL) return NULL;
    }
    _Static_assert(sizeof BEHIND == sizeof found, "one pointer per constructor");
    memcpy(&BEHIND, found, sizeof BEHIND);
    Dl_info info;
    return dladdr(found[1], &info) && info.dli_fname ? info.dli_fname : "?";
}

static int build(const recipe *r, MPI_Datatype *out);
static int build_with(const recipe *r, MPI_Datatype *out, const constructors *c, int defer);

/* The children of behind(i=1;...) nodes: freed at the end of the seed (free_deferred()). */
enum { MAX_DEFERRED = 256 };
static MPI_Datatype deferred[MAX_DEFERRED];
static int deferred_count;

static void free_deferred(void)
{
    while (deferred_count > 0) MPI_Type_free(&deferred[--deferred_count]);
}

/* Builds a from_contents node: the type of its recipe T, then the child MPI_Type_get_contents
 * returns at its position. The envelope and the integers and addresses must be T's (else
 * RC_UNEXPECTED_*); T and its other children are freed, as a program done with them does. */
static int build_from_contents(const recipe *r, MPI_Datatype *out)
{
    const recipe *t = resolve(r->types[0]);
    MPI_Datatype parent;
    int rc = build(r->types[0], &parent);
    if (rc != MPI_SUCCESS) return rc;
    int ni = -1, na = -1, nt = -1, combiner = MPI_COMBINER_NAMED;
    rc = MPI_Type_get_envelope(parent, &ni, &na, &nt, &combiner);
    if (rc == MPI_SUCCESS &&
        (kind_of_combiner(combiner) != t->kind || ni != t->ni || na != t->na || nt != t->nt)) {
        rc = RC_UNEXPECTED_ENVELOPE;
    }
    int ints[MAX_INTS + 1];
    MPI_Aint addrs[MAX_ADDRS + 1];
    MPI_Datatype types[MAX_TYPES + 1];
    if (rc == MPI_SUCCESS) rc = MPI_Type_get_contents(parent, ni, na, nt, ints, addrs, types);
    if (rc != MPI_SUCCESS) {
        MPI_Type_free(&parent);
        return rc;
    }
    keep_child(t, parent, types, r->ints[0], out);
    if (memcmp(ints, t->ints, (size_t)ni * sizeof ints[0]) != 0 ||
        memcmp(addrs, t->addrs, (size_t)na * sizeof addrs[0]) != 0) {
        if (freed_by_program(r)) MPI_Type_free(out);
        return RC_UNEXPECTED_CONTENTS;
    }
    return MPI_SUCCESS;
}

static int build(const recipe *r, MPI_Datatype *out) { return build_with(r, out, &API, 0); }

/* True if `r` or a type it is built of has no data (the MPI behind may refuse such a type as
 * a child: Open MPI as the old type of MPI_Type_create_darray). */
static int holds_empty(const recipe *r)
{
    if (r->entries == 0) return 1;
    for (int k = 0; k < r->nt; k++) {
        if (holds_empty(r->types[k])) return 1;
    }
    return 0;
}

/* Builds `r` through the constructors `c`: its children too, through the MPI library behind's
 * (a behind node's type), else through the program's. With `defer` the children's handles
 * are kept until free_deferred(). */
static int build_with(const recipe *r, MPI_Datatype *out, const constructors *c, int defer)
{
    if (r->kind == K_NAMED) {
        *out = NAMED_TYPES[r->named].type;
        return MPI_SUCCESS;
    }
    if (is_predefined_kind(r->kind)) return build_f90(r, out);
    if (r->kind == K_FROM_CONTENTS) return build_from_contents(r, out);
    if (r->kind == K_BEHIND) {
        int rc = build_with(r->types[0], out, &BEHIND, r->ints[0]);
        /* Arguments the MPI behind's own rules refuse (Intel MPI: MPI_DISTRIBUTE_NONE over
         * several processes) are mpi-dtype's to take, as where no library is behind. So is a
         * type without data Open MPI refuses as the old type of MPI_Type_create_darray. */
        int refused = rc != MPI_SUCCESS ? check_error_class(rc) : MPI_SUCCESS;
        if (refused == MPI_ERR_ARG || (refused == MPI_ERR_TYPE && holds_empty(r->types[0]))) {
            return build_with(r->types[0], out, &API, r->ints[0]);
        }
        return rc;
    }
    MPI_Datatype types[MAX_TYPES] = {MPI_DATATYPE_NULL};
    int rc = MPI_SUCCESS, built = 0;
    for (; built < r->nt && rc == MPI_SUCCESS; built++) {
        rc = c == &API ? build(r->types[built], &types[built])
                       : build_with(r->types[built], &types[built], c, 0);
    }
    if (rc != MPI_SUCCESS) {
        built--;
    } else {
        const int *i = r->ints;
        const MPI_Aint *a = r->addrs;
        MPI_Datatype old = types[0];
        switch (r->kind) {
        case K_DUP: rc = c->dup(old, out); break;
        case K_CONTIGUOUS: rc = c->contiguous(i[0], old, out); break;
        case K_VECTOR: rc = c->vector(i[0], i[1], i[2], old, out); break;
        case K_HVECTOR: rc = c->hvector(i[0], i[1], a[0], old, out); break;
        case K_INDEXED: rc = c->indexed(i[0], i + 1, i + 1 + i[0], old, out); break;
        case K_HINDEXED: rc = c->hindexed(i[0], i + 1, a, old, out); break;
        case K_INDEXED_BLOCK: rc = c->indexed_block(i[0], i[1], i + 2, old, out); break;
        case K_HINDEXED_BLOCK: rc = c->hindexed_block(i[0], i[1], a, old, out); break;
        case K_STRUCT: rc = c->structure(i[0], i + 1, a, types, out); break;
        case K_SUBARRAY: {
            int n = i[0];
            rc = c->subarray(n, i + 1, i + 1 + n, i + 1 + 2 * n, i[3 * n + 1], old, out);
            break;
        }
        case K_DARRAY: {
            int n = i[2];
            rc = c->darray(i[0], i[1], n, i + 3, i + 3 + n, i + 3 + 2 * n, i + 3 + 3 * n,
                           i[3 + 4 * n], old, out);
            break;
        }
        case K_RESIZED: rc = c->resized(old, a[0], a[1], out); break;
        default: rc = MPI_ERR_INTERN; break;
        }
    }
    for (int k = 0; k < built; k++) {
        if (!freed_by_program(r->types[k])) continue;
        if (defer && deferred_count < MAX_DEFERRED) deferred[deferred_count++] = types[k];
        else MPI_Type_free(&types[k]);
    }
    return rc;
}

#ifdef HARNESS_HAS_LARGE_COUNTS
/* Builds a recipe as build() does, through the large-count (_c) constructors: every count,
 * block length, stride, displacement and array size goes in as an MPI_Count. */
static int build_large(const recipe *r, MPI_Datatype *out);

/* build_from_contents() through the large-count constructors and MPI_Type_get_contents_c
 * (whose integers, addresses and large counts are not compared: their split differs). */
static int build_from_contents_large(const recipe *r, MPI_Datatype *out)
{
    const recipe *t = resolve(r->types[0]);
    MPI_Datatype parent;
    int rc = build_large(r->types[0], &parent);
    if (rc != MPI_SUCCESS) return rc;
    MPI_Count ni = -1, na = -1, nc = -1, nt = -1;
    int combiner = MPI_COMBINER_NAMED;
    rc = MPI_Type_get_envelope_c(parent, &ni, &na, &nc, &nt, &combiner);
    if (rc == MPI_SUCCESS && (kind_of_combiner(combiner) != t->kind || nt != t->nt ||
                              ni < 0 || ni > MAX_INTS || na < 0 || na > MAX_ADDRS || nc < 0 ||
                              nc > MAX_INTS + MAX_ADDRS)) {
        rc = RC_UNEXPECTED_ENVELOPE;
    }
    int ints[MAX_INTS + 1];
    MPI_Aint addrs[MAX_ADDRS + 1];
    MPI_Count counts[MAX_INTS + MAX_ADDRS + 1];
    MPI_Datatype types[MAX_TYPES + 1];
    if (rc == MPI_SUCCESS) {
        rc = MPI_Type_get_contents_c(parent, ni, na, nc, nt, ints, addrs, counts, types);
    }
    if (rc != MPI_SUCCESS) {
        MPI_Type_free(&parent);
        return rc;
    }
    keep_child(t, parent, types, r->ints[0], out);
    return MPI_SUCCESS;
}

static int build_large(const recipe *r, MPI_Datatype *out)
{
    if (r->kind == K_NAMED) {
        *out = NAMED_TYPES[r->named].type;
        return MPI_SUCCESS;
    }
    if (is_predefined_kind(r->kind)) return build_f90(r, out);
    if (r->kind == K_FROM_CONTENTS) return build_from_contents_large(r, out);
    /* The large-count lines are about mpi-dtype's _c constructors: made by it. */
    if (r->kind == K_BEHIND) return build_large(r->types[0], out);
    MPI_Datatype types[MAX_TYPES] = {MPI_DATATYPE_NULL};
    int rc = MPI_SUCCESS, built = 0;
    for (; built < r->nt && rc == MPI_SUCCESS; built++) {
        rc = build_large(r->types[built], &types[built]);
    }
    if (rc != MPI_SUCCESS) {
        built--;
    } else {
        MPI_Count c[MAX_INTS + MAX_ADDRS];
        const int *i = r->ints;
        const MPI_Aint *a = r->addrs;
        MPI_Datatype old = types[0];
        for (int k = 0; k < r->ni; k++) c[k] = i[k];
        MPI_Count *ca = c + r->ni; /* the addresses, as MPI_Count */
        for (int k = 0; k < r->na; k++) ca[k] = a[k];
        switch (r->kind) {
        case K_DUP: rc = MPI_Type_dup(old, out); break;
        case K_CONTIGUOUS: rc = MPI_Type_contiguous_c(c[0], old, out); break;
        case K_VECTOR: rc = MPI_Type_vector_c(c[0], c[1], c[2], old, out); break;
        case K_HVECTOR: rc = MPI_Type_create_hvector_c(c[0], c[1], ca[0], old, out); break;
        case K_INDEXED: rc = MPI_Type_indexed_c(c[0], c + 1, c + 1 + i[0], old, out); break;
        case K_HINDEXED: rc = MPI_Type_create_hindexed_c(c[0], c + 1, ca, old, out); break;
        case K_INDEXED_BLOCK:
            rc = MPI_Type_create_indexed_block_c(c[0], c[1], c + 2, old, out);
            break;
        case K_HINDEXED_BLOCK:
            rc = MPI_Type_create_hindexed_block_c(c[0], c[1], ca, old, out);
            break;
        case K_STRUCT: rc = MPI_Type_create_struct_c(c[0], c + 1, ca, types, out); break;
        case K_SUBARRAY: {
            int n = i[0];
            rc = MPI_Type_create_subarray_c(n, c + 1, c + 1 + n, c + 1 + 2 * n, i[3 * n + 1], old,
                                            out);
            break;
        }
        case K_DARRAY: {
            int n = i[2];
            rc = MPI_Type_create_darray_c(i[0], i[1], n, c + 3, i + 3 + n, i + 3 + 2 * n,
                                          i + 3 + 3 * n, i[3 + 4 * n], old, out);
            break;
        }
        case K_RESIZED: rc = MPI_Type_create_resized_c(old, ca[0], ca[1], out); break;
        default: rc = MPI_ERR_INTERN; break;
        }
    }
    for (int k = 0; k < built; k++) {
        if (freed_by_program(r->types[k])) MPI_Type_free(&types[k]);
    }
    return rc;
}
#endif

/* ---------------------------------------------------------------------------------------
 * Running one seed.
 */
static uint32_t crc_table[256];

/* The ext, unext and elements lines are printed for the seeds that are multiples of
 * HARNESS_EXTRA_LINES=N in the environment (and for --recipe); conformance/driver.py sets it
 * for mpi-dtype, and with --extra-lines for MPICH and Open MPI too. */
static int extra_every;
static int extra_lines;

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc32_of(const unsigned char *bytes, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) c = crc_table[(c ^ bytes[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

/* Prints the pack and unpack lines for `count` elements; `region` bounds the addresses. */
static void pack_and_unpack(MPI_Datatype type, int count, int64_t region, unsigned char *source,
                            unsigned char *target)
{
    size_t span = (size_t)(2 * region);
    int room = 0;
    int rc = MPI_Pack_size(count, type, MPI_COMM_WORLD, &room);
    if (rc != MPI_SUCCESS) {
        printf("pack %d error %s\n", count, error_class_name(rc));
        return;
    }
    /* Filled first, so that bytes a library leaves unwritten are the same on every run. */
    unsigned char *packed = malloc((size_t)room + 1);
    memset(packed, 0x55, (size_t)room + 1);
    int position = 0;
    rc = MPI_Pack(source + region, count, type, packed, room, &position, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        printf("pack %d error %s\n", count, error_class_name(rc));
        free(packed);
        return;
    }
    printf("pack %d %d %08x\n", count, position, (unsigned)crc32_of(packed, (size_t)position));
    memset(target, 0xaa, span);
    int read = 0;
    rc = MPI_Unpack(packed, position, &read, target + region, count, type, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        printf("unpack %d error %s\n", count, error_class_name(rc));
    } else {
        printf("unpack %d %d %08x\n", count, read, (unsigned)crc32_of(target, span));
    }
    free(packed);
    if (!extra_lines) return;

    /* The same through MPI_Pack_external / MPI_Unpack_external ("external32"). */
    MPI_Aint esize = 0;
    rc = MPI_Pack_external_size("external32", count, type, &esize);
    if (rc != MPI_SUCCESS) {
        printf("ext %d error %s\n", count, error_class_name(rc));
        return;
    }
    unsigned char *external = malloc((size_t)esize + 1);
    memset(external, 0x55, (size_t)esize + 1);
    MPI_Aint epos = 0;
    rc = MPI_Pack_external("external32", source + region, count, type, external, esize, &epos);
    if (rc != MPI_SUCCESS) {
        printf("ext %d error %s\n", count, error_class_name(rc));
        free(external);
        return;
    }
    printf("ext %d %ld %08x\n", count, (long)epos, (unsigned)crc32_of(external, (size_t)epos));
    memset(target, 0xaa, span);
    MPI_Aint eread = 0;
    rc = MPI_Unpack_external("external32", external, epos, &eread, target + region, count, type);
    if (rc != MPI_SUCCESS) {
        printf("unext %d error %s\n", count, error_class_name(rc));
    } else {
        printf("unext %d %ld %08x\n", count, (long)eread, (unsigned)crc32_of(target, span));
    }
    free(external);
}

#ifdef HARNESS_HAS_LARGE_COUNTS
static void large_count_queries(MPI_Datatype type, int64_t region, unsigned char *source,
                                unsigned char *target);

/* The large-count (_c) queries, pack and unpack of `count` elements (MPI-4 libraries), on
 * the type built again from the recipe through the large-count constructors. */
static void large_count_lines(const recipe *r, int64_t region, unsigned char *source,
                              unsigned char *target)
{
    MPI_Datatype type;
    int rc = build_large(r, &type);
    if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&type);
    if (rc != MPI_SUCCESS) {
        printf("build_c error %s\n", rc_name(rc));
        return;
    }
    large_count_queries(type, region, source, target);
    if (freed_by_program(r)) MPI_Type_free(&type);
}

/* The lines of large_count_lines() for one type. */
static void large_count_queries(MPI_Datatype type, int64_t region, unsigned char *source,
                                unsigned char *target)
{
    MPI_Count size, lb, extent, true_lb, true_extent;
    int rc = MPI_Type_size_c(type, &size);
    if (rc == MPI_SUCCESS) printf("size_c %lld\n", (long long)size);
    else printf("size_c error %s\n", error_class_name(rc));
    rc = MPI_Type_get_extent_c(type, &lb, &extent);
    if (rc == MPI_SUCCESS) printf("extent_c %lld %lld\n", (long long)lb, (long long)extent);
    else printf("extent_c error %s\n", error_class_name(rc));
    rc = MPI_Type_get_true_extent_c(type, &true_lb, &true_extent);
    if (rc == MPI_SUCCESS) printf("true_extent_c %lld %lld\n", (long long)true_lb, (long long)true_extent);
    else printf("true_extent_c error %s\n", error_class_name(rc));
    const int count = 2;
    MPI_Count room = 0;
    rc = MPI_Pack_size_c(count, type, MPI_COMM_WORLD, &room);
    if (rc != MPI_SUCCESS) {
        printf("pack_c %d error %s\n", count, error_class_name(rc));
        return;
    }
    unsigned char *packed = malloc((size_t)room + 1);
    memset(packed, 0x55, (size_t)room + 1);
    MPI_Count position = 0;
    rc = MPI_Pack_c(source + region, count, type, packed, room, &position, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        printf("pack_c %d error %s\n", count, error_class_name(rc));
        free(packed);
        return;
    }
    printf("pack_c %d %lld %08x\n", count, (long long)position,
           (unsigned)crc32_of(packed, (size_t)position));
    memset(target, 0xaa, (size_t)(2 * region));
    MPI_Count read = 0;
    rc = MPI_Unpack_c(packed, position, &read, target + region, count, type, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) printf("unpack_c %d error %s\n", count, error_class_name(rc));
    else printf("unpack_c %d %lld %08x\n", count, (long long)read,
                (unsigned)crc32_of(target, (size_t)(2 * region)));
    free(packed);
}
#endif

/* MPI_Get_elements and MPI_Get_count on a status that says `bytes` bytes arrived (set with
 * MPI_Status_set_elements of MPI_BYTE, which every library stores as a byte count). */
static void elements_line(MPI_Datatype type, int bytes)
{
    MPI_Status status;
    memset(&status, 0, sizeof status);
    int rc = MPI_Status_set_elements(&status, MPI_BYTE, bytes);
    int elements = 0, count = 0;
    if (rc == MPI_SUCCESS) rc = MPI_Get_elements(&status, type, &elements);
    if (rc == MPI_SUCCESS) rc = MPI_Get_count(&status, type, &count);
    if (rc != MPI_SUCCESS) {
        printf("elements %d error %s\n", bytes, error_class_name(rc));
        return;
    }
    printf("elements %d ", bytes);
    if (elements == MPI_UNDEFINED) fputs("undefined ", stdout);
    else printf("%d ", elements);
    if (count == MPI_UNDEFINED) puts("undefined");
    else printf("%d\n", count);
#ifdef HARNESS_HAS_LARGE_COUNTS
    MPI_Count big_elements = 0, big_count = 0;
    rc = MPI_Get_elements_c(&status, type, &big_elements);
    if (rc == MPI_SUCCESS) rc = MPI_Get_count_c(&status, type, &big_count);
    if (rc != MPI_SUCCESS) {
        printf("elements_c %d error %s\n", bytes, error_class_name(rc));
        return;
    }
    printf("elements_c %d ", bytes);
    if (big_elements == MPI_UNDEFINED) fputs("undefined ", stdout);
    else printf("%lld ", (long long)big_elements);
    if (big_count == MPI_UNDEFINED) puts("undefined");
    else printf("%lld\n", (long long)big_count);
#endif
}

/* Builds `r` through the MPI API and prints the block of lines described at the top. */
static void run_recipe(const recipe *r)
{
    fputs("recipe ", stdout);
    print_recipe(r);
    /* Three elements stay within [-region, region) of the origin. */
    int64_t region = r->reach + 2 * extent_bound(r) + 16;
    printf("\nregion %lld\n", (long long)region);
    if (drop_in) {
        fputs("expect ", stdout);
        print_recipe_as(r, 1);
        putchar('\n');
    }
    fflush(stdout);

    MPI_Datatype type;
    int rc = build(r, &type);
    if (rc == MPI_SUCCESS && freed_by_program(r)) rc = MPI_Type_commit(&type);
    if (rc != MPI_SUCCESS) {
        printf("build error %s\n", rc_name(rc));
        free_deferred();
        return;
    }
    int size = 0;
    MPI_Aint lb, extent, true_lb, true_extent;
    rc = MPI_Type_size(type, &size);
    if (rc == MPI_SUCCESS) printf("size %d\n", size);
    else printf("size error %s\n", error_class_name(rc));
    rc = MPI_Type_get_extent(type, &lb, &extent);
    if (rc == MPI_SUCCESS) printf("extent %ld %ld\n", (long)lb, (long)extent);
    else printf("extent error %s\n", error_class_name(rc));
    rc = MPI_Type_get_true_extent(type, &true_lb, &true_extent);
    if (rc == MPI_SUCCESS) printf("true_extent %ld %ld\n", (long)true_lb, (long)true_extent);
    else printf("true_extent error %s\n", error_class_name(rc));
    fputs("decode ", stdout);
    rc = print_decoded(type);
    if (rc != MPI_SUCCESS) printf(" error %s", error_class_name(rc));
    putchar('\n');
    fflush(stdout);

    unsigned char *source = malloc((size_t)(2 * region));
    unsigned char *target = malloc((size_t)(2 * region));
    for (int64_t o = -region; o < region; o++) {
        source[o + region] = (unsigned char)(((o % 251) + 251) % 251);
    }
    for (int count = 1; count <= 3; count++) {
        pack_and_unpack(type, count, region, source, target);
        fflush(stdout);
    }
#ifdef HARNESS_HAS_LARGE_COUNTS
    if (extra_lines) large_count_lines(r, region, source, target);
#endif
    /* Partial data: half an element, one element and a few bytes, two elements less a few. */
    if (size > 0 && extra_lines) {
        elements_line(type, size / 2);
        elements_line(type, size + 4);
        elements_line(type, 2 * size - 8 > 0 ? 2 * size - 8 : 0);
        fflush(stdout);
    }
    free(source);
    free(target);
    if (freed_by_program(r)) MPI_Type_free(&type);
    free_deferred();
}

static void run_seed(uint64_t seed)
{
    rng_state = seed * 0x2545f4914f6cdd1dULL + 1;
    extra_lines = extra_every > 0 && seed % (uint64_t)extra_every == 0;
    recipe *r = random_recipe(max_depth);
    printf("seed %llu\n", (unsigned long long)seed);
    run_recipe(r);
    printf("end %llu\n", (unsigned long long)seed);
    fflush(stdout);
    free_recipe(r);
}

/* Runs one recipe given in the type notation, as seed 0. */
static int run_text(const char *text)
{
    reader rd = {text, text, 0};
    recipe *r = read_recipe(&rd);
    int ok = !rd.failed && *rd.at == '\0';
    if (ok) {
        puts("seed 0");
        run_recipe(r);
        puts("end 0");
    } else {
        fprintf(stderr, "cannot read the recipe at offset %d: %s\n", (int)(rd.at - text), text);
    }
    free_recipe(r);
    return ok ? 0 : 2;
}

int main(int argc, char **argv)
{
    int from_text = argc == 3 && strcmp(argv[1], "--recipe") == 0;
    if (argc != 3) {
        fprintf(stderr, "usage: %s FIRST_SEED COUNT | --recipe TYPE\n", argv[0]);
        return 2;
    }
    const char *text = argv[2];
    unsigned long long first = from_text ? 0 : strtoull(argv[1], NULL, 10);
    unsigned long long count = from_text ? 0 : strtoull(argv[2], NULL, 10);
#ifdef HARNESS_DECLARES_LARGE_COUNTS
    if (MPI_Type_size_c == NULL || MPI_Type_get_contents_c == NULL) {
        fprintf(stderr, "%s: no MPI library here serves MPI 4.0's large-count functions\n",
                argv[0]);
        return 2;
    }
#endif
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    crc_init();
    const char *mode = getenv("HARNESS_DROP_IN");
    drop_in = mode != NULL && *mode != '\0' && strcmp(mode, "0") != 0;
    if (drop_in) max_depth = DROP_IN_MAX_DEPTH;
    const char *behind = load_behind();
    if (drop_in && getenv("MPI_DTYPE_DEBUG") != NULL) {
        fprintf(stderr, "harness: behind nodes are made by %s\n",
                behind ? behind : "the program's MPI functions");
    }
    const char *extra = getenv("HARNESS_EXTRA_LINES");
    extra_every = extra != NULL ? atoi(extra) : 0;
    extra_lines = extra_every > 0;
    static char out_buffer[1 << 16];
    setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
    int status = from_text ? run_text(text) : 0;
    for (unsigned long long s = first; s < first + count; s++) {
        run_seed(s);
    }
    MPI_Finalize();
    return status;
}
