/*
 * api_fuzz.c: a hostile-input fuzzer of mpi-dtype's exported C API.
 *
 * Each input is a program of calls decoded from bytes. Every call gets valid arguments
 * except, sometimes, exactly one hostile one: a garbage, freed, uncommitted or NULL datatype
 * handle, a NULL output pointer, a negative or overflowing count, a negative block length,
 * a buffer one byte too short, a position outside the buffer, an unknown data
 * representation, a bad communicator or keyval. With MPI_ERRORS_RETURN set, a call with no
 * hostile argument must succeed, and a call with one must return an error of the class the
 * standard (and docs/semantics.md) gives for it; no call may crash, write outside its
 * buffers (guard bytes around every buffer, and AddressSanitizer) or hang. Types are also
 * nested thousands of levels deep and then queried, decoded, packed and freed.
 *
 * Built two ways (c_tests/fuzz/CMakeLists.txt):
 *   api_fuzz_libfuzzer   clang -fsanitize=fuzzer: LLVMFuzzerTestOneInput below
 *   api_fuzz_driver      any compiler: main() runs --iterations N pseudo-random inputs from
 *                        --seed S (deterministic, for ctest), or replays the files it is given
 */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------
 * Reading the input.
 */
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t at;
} reader;

static unsigned rd_u8(reader *r)
{
    return r->at < r->size ? r->data[r->at++] : (r->at++, 0u);
}

static unsigned rd_below(reader *r, unsigned n)
{
    unsigned v = rd_u8(r);
    if (n > 256) v = v << 8 | rd_u8(r);
    return v % n;
}

static int rd_range(reader *r, int lo, int hi)
{
    return lo + (int)rd_below(r, (unsigned)(hi - lo + 1));
}

static int rd_one_in(reader *r, unsigned n)
{
    return rd_below(r, n) == 0;
}

/* ---------------------------------------------------------------------------------------
 * Handles as numbers. A datatype handle is an int in MPICH's ABI (mpi_dtype/mpi.h defines
 * MPI_DTYPE_MPICH_ABI) and a pointer in the standard ABI and Open MPI's: garbage handles are
 * made from numbers, and printed as numbers, through these two.
 */
#define HANDLE_FROM_BITS(type, bits) ((type)(intptr_t)(bits))

static unsigned long handle_bits(MPI_Datatype t)
{
#ifndef MPI_DTYPE_MPICH_ABI
    return (unsigned long)(uintptr_t)t;
#else
    return (unsigned long)(unsigned)t;
#endif
}

/* ---------------------------------------------------------------------------------------
 * Failures: printed with the call, then abort (libFuzzer and ctest both see the crash).
 */
static unsigned long checks;
static MPI_Datatype last_bad_type; /* for messages */

static void fail(const char *call, const char *what, int rc)
{
    int cls = rc;
    MPI_Error_class(rc, &cls);
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) strcpy(text, "?");
    fprintf(stderr, "api_fuzz: %s: %s (returned %d, class %d: %s; last bad handle %#lx)\n", call,
            what, rc, cls, text, handle_bits(last_bad_type));
    abort();
}

/* Hostile-argument kinds and the error classes each must give. */
enum {
    OK = 0,
    BAD_TYPE,     /* garbage, freed or MPI_DATATYPE_NULL handle: MPI_ERR_TYPE */
    NULL_PTR,     /* NULL output or input array: MPI_ERR_ARG */
    NEG_COUNT,    /* negative count: MPI_ERR_COUNT */
    NEG_LENGTH,   /* negative block length: MPI_ERR_ARG */
    SHORT_BUF,    /* buffer or input one byte short: MPI_ERR_TRUNCATE */
    BAD_POSITION, /* position < 0 or past the buffer: MPI_ERR_ARG or MPI_ERR_TRUNCATE */
    BAD_DATAREP,  /* not "external32": MPI_ERR_UNSUPPORTED_DATAREP or MPI_ERR_ARG */
    BAD_COMM,     /* not a communicator: MPI_ERR_COMM */
    BAD_KEYVAL,   /* garbage or freed keyval: MPI_ERR_KEYVAL */
    OVERFLOW,     /* a size beyond 64 bits or beyond the int result: MPI_ERR_ARG,
                     MPI_ERR_COUNT or MPI_ERR_VALUE_TOO_LARGE */
    BAD_ARG,      /* another argument out of range: MPI_ERR_ARG */
    BAD_RANK,     /* a rank outside the process grid: MPI_ERR_RANK or MPI_ERR_ARG */
};

static int class_allowed(int hostile, int cls)
{
    switch (hostile) {
    case OK: return cls == MPI_SUCCESS;
    case BAD_TYPE: return cls == MPI_ERR_TYPE;
    case NULL_PTR: return cls == MPI_ERR_ARG;
    case NEG_COUNT: return cls == MPI_ERR_COUNT;
    case NEG_LENGTH: return cls == MPI_ERR_ARG;
    case SHORT_BUF: return cls == MPI_ERR_TRUNCATE;
    case BAD_POSITION: return cls == MPI_ERR_ARG || cls == MPI_ERR_TRUNCATE;
    case BAD_DATAREP: return cls == MPI_ERR_UNSUPPORTED_DATAREP || cls == MPI_ERR_ARG;
    case BAD_COMM: return cls == MPI_ERR_COMM;
    case BAD_KEYVAL: return cls == MPI_ERR_KEYVAL;
    case OVERFLOW:
        return cls == MPI_ERR_ARG || cls == MPI_ERR_COUNT
#ifdef MPI_ERR_VALUE_TOO_LARGE
               || cls == MPI_ERR_VALUE_TOO_LARGE
#endif
            ;
    case BAD_ARG: return cls == MPI_ERR_ARG;
    case BAD_RANK: return cls == MPI_ERR_RANK || cls == MPI_ERR_ARG;
    default: return 0;
    }
}

static const char *const HOSTILE_NAMES[] = {
    "no hostile argument", "a bad datatype handle", "a NULL pointer", "a negative count",
    "a negative block length", "a short buffer", "a bad position", "a bad datarep",
    "a bad communicator", "a bad keyval", "an overflowing size", "an out-of-range argument",
    "a rank outside the grid",
};

/* Checks the class of `rc` against the hostile argument the call was given. */
static void expect(const char *call, int hostile, int rc)
{
    checks++;
    int cls = rc;
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS) fail(call, "MPI_Error_class refused the code", rc);
    if (!class_allowed(hostile, cls)) {
        char what[160];
        snprintf(what, sizeof what, "wrong result for %s", HOSTILE_NAMES[hostile]);
        fail(call, what, rc);
    }
}

/* ---------------------------------------------------------------------------------------
 * Guarded buffers: 16 guard bytes on each side, checked after every call.
 */
enum { GUARD = 16 };

typedef struct {
    unsigned char *base;
    size_t size;
} guarded;

static unsigned char *guarded_new(guarded *g, size_t size, unsigned char fill)
{
    g->size = size;
    g->base = malloc(size + 2 * GUARD);
    if (!g->base) abort();
    memset(g->base, 0xfd, GUARD);
    memset(g->base + GUARD, fill, size);
    memset(g->base + GUARD + size, 0xfd, GUARD);
    return g->base + GUARD;
}

/* True if one copy of `t` placed at the middle of the 8192-byte source the pack cases use
 * reads only inside it (its data lie within 4096 bytes either side of the origin). */
static int data_within_source(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_true_extent(t, &lb, &ext);
    return lb >= -4096 && lb + ext <= 4096;
}

static void guarded_free(guarded *g, const char *call)
{
    for (size_t i = 0; i < GUARD; i++) {
        if (g->base[i] != 0xfd || g->base[GUARD + g->size + i] != 0xfd) {
            fail(call, "wrote outside the buffer", MPI_SUCCESS);
        }
    }
    free(g->base);
}

/* ---------------------------------------------------------------------------------------
 * The handle pool of one input.
 */
enum { POOL = 12, FREED = 8 };

typedef struct {
    reader *r;
    MPI_Datatype live[POOL];
    int committed[POOL];
    int nlive;
    MPI_Datatype freed[FREED];
    int nfreed;
    int keyvals[4];
    int nkeyvals;
    int freed_keyval;
} state;

static const MPI_Datatype BASICS[] = {
    MPI_CHAR, MPI_INT, MPI_DOUBLE, MPI_SHORT, MPI_LONG, MPI_LONG_DOUBLE, MPI_BYTE,
    MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_2INT, MPI_C_DOUBLE_COMPLEX, MPI_UINT64_T, MPI_PACKED,
};
enum { NBASICS = sizeof BASICS / sizeof BASICS[0] };

/* A datatype handle that is not a valid one. */
static MPI_Datatype bad_type_(state *s);

static MPI_Datatype bad_type(state *s)
{
    last_bad_type = bad_type_(s);
    return last_bad_type;
}

static MPI_Datatype bad_type_(state *s)
{
    reader *r = s->r;
    switch (rd_below(r, 6)) {
    case 0: return MPI_DATATYPE_NULL;
    case 1:
        if (s->nfreed > 0) return s->freed[rd_below(r, (unsigned)s->nfreed)];
        return HANDLE_FROM_BITS(MPI_Datatype, 0x7fffffff);
#ifdef MPI_DTYPE_MPICH_ABI
    case 2: return (MPI_Datatype)(0x4c000000 | rd_below(r, 256) << 16); /* not a predefined */
    case 3: return (MPI_Datatype)(0x8c000000u | (rd_u8(r) << 8) | 0x77); /* derived-looking */
#else
    case 2: {
        /* In the range of predefined handles but no datatype: other kinds of handles, codes
         * the standard reserves, values above the datatypes. */
        static const unsigned not_types[] = {0x001, 0x020, 0x101, 0x102, 0x141, 0x143, 0x204,
                                             0x206, 0x211, 0x215, 0x21f, 0x221, 0x226, 0x22e,
                                             0x233, 0x23f, 0x242, 0x246, 0x270, 0x280, 0x2a5,
                                             0x2bf, 0x300, 0x5a5, 0xfff};
        return HANDLE_FROM_BITS(MPI_Datatype,
                                not_types[rd_below(r, sizeof not_types / sizeof not_types[0])]);
    }
    case 3: /* derived-looking: mpi-dtype's own form (tag 0x4d44 in bits 48..63, a generation,
               a slot) with a slot far beyond any the pool uses */
        return HANDLE_FROM_BITS(MPI_Datatype, (0x4d44UL << 48) | (unsigned long)rd_below(r, 64) << 20 |
                                                  0xff000UL | rd_u8(r));
#endif
    case 4: return HANDLE_FROM_BITS(MPI_Datatype, (int)(rd_u8(r) | rd_u8(r) << 8 | rd_u8(r) << 16 | 0x10000000));
    default: return HANDLE_FROM_BITS(MPI_Datatype, -1);
    }
}

/* A valid datatype: a basic one or one of the pool's; `*is_committed` says if it may be
 * used to pack. */
static MPI_Datatype good_type(state *s, int *is_committed)
{
    reader *r = s->r;
    if (s->nlive > 0 && rd_below(r, 3) != 0) {
        int i = (int)rd_below(r, (unsigned)s->nlive);
        if (is_committed) *is_committed = s->committed[i];
        return s->live[i];
    }
    if (is_committed) *is_committed = 1;
    return BASICS[rd_below(r, NBASICS)];
}

static void remember(state *s, MPI_Datatype t, int committed)
{
    if (s->nlive == POOL) {
        MPI_Datatype old = s->live[0];
        int rc = MPI_Type_free(&old);
        expect("MPI_Type_free (pool)", OK, rc);
        if (s->nfreed < FREED) s->freed[s->nfreed++] = s->live[0];
        memmove(s->live, s->live + 1, (POOL - 1) * sizeof s->live[0]);
        memmove(s->committed, s->committed + 1, (POOL - 1) * sizeof s->committed[0]);
        s->nlive--;
    }
    s->live[s->nlive] = t;
    s->committed[s->nlive] = committed;
    s->nlive++;
}

/* Picks the hostile argument of a call among `n` offered (listed in `kinds`), or OK. */
static int pick_hostile(state *s, const int *kinds, int n)
{
    if (rd_below(s->r, 3) != 0) return OK;
    return kinds[rd_below(s->r, (unsigned)n)];
}

static int small_count(reader *r)
{
    return rd_range(r, 0, 4);
}

/* ---------------------------------------------------------------------------------------
 * The operations.
 */
static void op_constructor(state *s)
{
    reader *r = s->r;
    static const int kinds[] = {BAD_TYPE, NULL_PTR, NEG_COUNT, NEG_LENGTH, OVERFLOW};
    int hostile = pick_hostile(s, kinds, 5);
    MPI_Datatype old = hostile == BAD_TYPE ? bad_type(s) : good_type(s, NULL);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Datatype *out = hostile == NULL_PTR ? NULL : &t;
    int count = hostile == NEG_COUNT ? -rd_range(r, 1, 3) : small_count(r);
    int blen = hostile == NEG_LENGTH ? -rd_range(r, 1, 3) : small_count(r);
    int ints_b[4], ints_d[4];
    MPI_Aint addrs[4];
    MPI_Count cb[4], cd[4];
    MPI_Datatype types[4];
    for (int k = 0; k < 4; k++) {
        ints_b[k] = hostile == NEG_LENGTH ? blen : small_count(r);
        ints_d[k] = rd_range(r, -8, 8);
        addrs[k] = rd_range(r, -64, 64);
        cb[k] = ints_b[k];
        cd[k] = addrs[k];
        types[k] = hostile == BAD_TYPE && k == 1 ? old : good_type(s, NULL);
    }
    if (hostile == BAD_TYPE) types[0] = old;
    int rc;
    const char *call;
    int which = (int)rd_below(r, 12);
    if (hostile == NEG_LENGTH && (which == 0 || which >= 9)) hostile = OK, blen = 1;
    if (hostile == NEG_LENGTH && which != 1 && which != 2 && count == 0) count = 1;
    if (hostile == NEG_LENGTH && (which == 1 || which == 2 || which == 5 || which == 6) && count == 0) count = 1;
    if (hostile == OVERFLOW) {
        /* A size or extent beyond 64 bits, or a count beyond the int results. */
        switch (which % 4) {
        case 0:
            call = "MPI_Type_contiguous_c";
            rc = MPI_Type_contiguous_c((MPI_Count)1 << 62, MPI_DOUBLE, out);
            break;
        case 1:
            call = "MPI_Type_vector_c";
            rc = MPI_Type_vector_c((MPI_Count)1 << 40, (MPI_Count)1 << 40, 1, MPI_INT, out);
            break;
        case 2:
            call = "MPI_Type_create_hvector_c";
            rc = MPI_Type_create_hvector_c(3, 1, (MPI_Count)1 << 62, MPI_INT, out);
            break;
        default:
            /* lb and extent fit 64 bits; ub = lb + extent does not. */
            call = "MPI_Type_create_resized";
            rc = MPI_Type_create_resized(MPI_INT, (MPI_Aint)1 << 62, (MPI_Aint)1 << 62, out);
            break;
        }
        if (rc == MPI_SUCCESS && out) MPI_Type_free(out);
        expect(call, OVERFLOW, rc);
        return;
    }
    switch (which) {
    case 0: call = "MPI_Type_contiguous"; rc = MPI_Type_contiguous(count, old, out); break;
    case 1:
        call = "MPI_Type_vector";
        rc = MPI_Type_vector(count, blen, rd_range(r, -3, 3), old, out);
        break;
    case 2:
        call = "MPI_Type_create_hvector_c";
        rc = MPI_Type_create_hvector_c(count, blen, rd_range(r, -40, 40), old, out);
        break;
    case 3: call = "MPI_Type_indexed"; rc = MPI_Type_indexed(count, ints_b, ints_d, old, out); break;
    case 4:
        call = "MPI_Type_create_hindexed";
        rc = MPI_Type_create_hindexed(count, ints_b, addrs, old, out);
        break;
    case 5:
        call = "MPI_Type_create_indexed_block_c";
        rc = MPI_Type_create_indexed_block_c(count, blen, cd, old, out);
        break;
    case 6:
        call = "MPI_Type_create_hindexed_block";
        rc = MPI_Type_create_hindexed_block(count, blen, addrs, old, out);
        break;
    case 7:
        call = "MPI_Type_create_struct";
        if (hostile == BAD_TYPE && count == 0) count = 1;
        rc = MPI_Type_create_struct(count, ints_b, addrs, types, out);
        break;
    case 8:
        call = "MPI_Type_create_struct_c";
        if (hostile == BAD_TYPE && count == 0) count = 1;
        rc = MPI_Type_create_struct_c(count, cb, cd, types, out);
        break;
    case 9:
        call = "MPI_Type_create_resized";
        if (hostile == NEG_COUNT || hostile == NEG_LENGTH) hostile = OK;
        rc = MPI_Type_create_resized(old, rd_range(r, -16, 16), rd_range(r, 0, 32), out);
        break;
    case 10:
        call = "MPI_Type_dup";
        if (hostile == NEG_COUNT || hostile == NEG_LENGTH) hostile = OK;
        rc = MPI_Type_dup(old, out);
        break;
    default: {
        call = "MPI_Type_create_subarray";
        int sizes[2] = {rd_range(r, 1, 4), rd_range(r, 1, 4)};
        int subs[2] = {1, 1};
        int starts[2] = {0, sizes[1] - 1};
        if (hostile == NEG_COUNT || hostile == NEG_LENGTH) {
            subs[1] = hostile == NEG_COUNT ? 0 : sizes[1] + 1; /* out of range */
            hostile = BAD_ARG;
        }
        rc = MPI_Type_create_subarray(2, sizes, subs, starts,
                                      rd_one_in(r, 2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN, old, out);
        break;
    }
    }
    /* A marker as oldtype of a non-struct constructor may be accepted or refused. */
#ifndef MPI_DTYPE_STANDARD_ABI /* no markers in the standard ABI */
    if (hostile == OK && rc != MPI_SUCCESS && (old == MPI_LB || old == MPI_UB)) return;
#endif
    expect(call, hostile, rc);
    if (rc == MPI_SUCCESS) {
        int commit = rd_one_in(r, 2);
        if (commit) expect("MPI_Type_commit", OK, MPI_Type_commit(&t));
        remember(s, t, commit);
    }
}

static void op_queries(state *s)
{
    reader *r = s->r;
    static const int kinds[] = {BAD_TYPE, NULL_PTR};
    int hostile = pick_hostile(s, kinds, 2);
    MPI_Datatype t = hostile == BAD_TYPE ? bad_type(s) : good_type(s, NULL);
    int null = hostile == NULL_PTR;
    int size;
    MPI_Count csize, clb, cext;
    MPI_Aint lb, ext;
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    int ni, na, nt, combiner;
    MPI_Count cni, cna, cnc, cnt;
    switch (rd_below(r, 10)) {
    case 0: expect("MPI_Type_size", hostile, MPI_Type_size(t, null ? NULL : &size)); break;
    case 1: expect("MPI_Type_size_c", hostile, MPI_Type_size_c(t, null ? NULL : &csize)); break;
    case 2: expect("MPI_Type_get_extent", hostile, MPI_Type_get_extent(t, &lb, null ? NULL : &ext)); break;
    case 3:
        expect("MPI_Type_get_true_extent_c", hostile,
               MPI_Type_get_true_extent_c(t, null ? NULL : &clb, &cext));
        break;
    case 4: expect("MPI_Type_get_extent_x", hostile, MPI_Type_get_extent_x(t, &clb, null ? NULL : &cext)); break;
    case 5:
        /* MPI-4.1 names the null handle: a valid call. */
        if (hostile == BAD_TYPE && t == MPI_DATATYPE_NULL) hostile = OK;
        expect("MPI_Type_get_name", hostile, MPI_Type_get_name(t, null ? NULL : name, &len));
        break;
    case 6:
        if (hostile == OK && !s->nlive) break;
        if (hostile == OK) t = s->live[rd_below(r, (unsigned)s->nlive)];
        expect("MPI_Type_set_name", hostile, MPI_Type_set_name(t, null ? NULL : "fuzzed name"));
        break;
    case 7:
        if (hostile == OK && MPI_Type_get_envelope_c(t, &cni, &cna, &cnc, &cnt, &combiner) == MPI_SUCCESS &&
            cnc > 0) {
            hostile = BAD_TYPE; /* built with large counts: only the _c variant decodes it */
        }
        expect("MPI_Type_get_envelope", hostile,
               MPI_Type_get_envelope(t, &ni, &na, &nt, null ? NULL : &combiner));
        break;
    case 8:
        expect("MPI_Type_get_envelope_c", hostile,
               MPI_Type_get_envelope_c(t, &cni, &cna, null ? NULL : &cnc, &cnt, &combiner));
        break;
    default: expect("MPI_Type_size_x", hostile, MPI_Type_size_x(t, null ? NULL : &csize)); break;
    }
}

/* Decodes a pool type with arrays that are exact (guarded) or, hostile, too short. */
static void op_decode(state *s)
{
    reader *r = s->r;
    if (s->nlive == 0) return;
    MPI_Datatype t = s->live[rd_below(r, (unsigned)s->nlive)];
    MPI_Count ni, na, nc, nt;
    int combiner;
    expect("MPI_Type_get_envelope_c", OK, MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nt, &combiner));
    guarded gi, ga, gc, gt;
    int *ints = (int *)guarded_new(&gi, (size_t)ni * sizeof(int), 0);
    MPI_Aint *addrs = (MPI_Aint *)guarded_new(&ga, (size_t)na * sizeof(MPI_Aint), 0);
    MPI_Count *counts = (MPI_Count *)guarded_new(&gc, (size_t)nc * sizeof(MPI_Count), 0);
    MPI_Datatype *types = (MPI_Datatype *)guarded_new(&gt, (size_t)nt * sizeof(MPI_Datatype), 0);
    int hostile = OK;
    MPI_Count mi = ni, ma = na, mc = nc, mt = nt;
    if (rd_one_in(r, 3)) {
        /* A max_* below what the envelope said: the call must refuse, not write past it. */
        hostile = BAD_ARG;
        switch (rd_below(r, 4)) {
        case 0: if (mi > 0) mi--; else hostile = OK; break;
        case 1: if (ma > 0) ma--; else hostile = OK; break;
        case 2: if (mc > 0) mc--; else hostile = OK; break;
        default: if (mt > 0) mt--; else hostile = OK; break;
        }
    }
    int rc = MPI_Type_get_contents_c(t, mi, ma, mc, mt, ints, addrs, counts, types);
    expect("MPI_Type_get_contents_c", hostile, rc);
    if (rc == MPI_SUCCESS) {
        for (MPI_Count k = 0; k < nt; k++) {
            int cni, cna, cnt2, comb;
            expect("MPI_Type_get_envelope (child)", OK,
                   MPI_Type_get_envelope(types[k], &cni, &cna, &cnt2, &comb) == MPI_SUCCESS
                       ? MPI_SUCCESS
                       : MPI_Type_get_envelope_c(types[k], &(MPI_Count){0}, &(MPI_Count){0},
                                                 &(MPI_Count){0}, &(MPI_Count){0}, &comb));
            if (comb != MPI_COMBINER_NAMED) expect("MPI_Type_free (child)", OK, MPI_Type_free(&types[k]));
        }
    }
    guarded_free(&gi, "MPI_Type_get_contents_c ints");
    guarded_free(&ga, "MPI_Type_get_contents_c addresses");
    guarded_free(&gc, "MPI_Type_get_contents_c large counts");
    guarded_free(&gt, "MPI_Type_get_contents_c types");
}

/* Commits a pool type (packing and the iov functions need a committed type; a dup of a
 * committed type may already be committed: committing again is allowed). */
static void ensure_committed(state *s, MPI_Datatype t)
{
    MPI_Datatype c = t;
    expect("MPI_Type_commit (before use)", OK, MPI_Type_commit(&c));
    for (int i = 0; i < s->nlive; i++) {
        if (s->live[i] == t) s->committed[i] = 1;
    }
}

/* Packs and unpacks a committed type (native or external32) with exact, short or
 * misplaced buffers. */
static void op_pack(state *s)
{
    reader *r = s->r;
    static const int kinds[] = {BAD_TYPE, NEG_COUNT, SHORT_BUF, BAD_POSITION, BAD_COMM, BAD_DATAREP, NULL_PTR};
    int hostile = pick_hostile(s, kinds, 7);
    int committed = 1;
    MPI_Datatype t = good_type(s, &committed);
    if (!committed) ensure_committed(s, t);
    int external = rd_one_in(r, 3);
    if (hostile == BAD_COMM && external) hostile = OK;
    if (hostile == BAD_DATAREP && !external) hostile = OK;
    int count = rd_range(r, 0, 3);
    MPI_Aint lb, extent, tlb, text;
    expect("MPI_Type_get_extent", OK, MPI_Type_get_extent(t, &lb, &extent));
    expect("MPI_Type_get_true_extent", OK, MPI_Type_get_true_extent(t, &tlb, &text));
    /* The source region: count copies of the true extent, around the origin. */
    MPI_Aint ext_abs = extent < 0 ? -extent : extent;
    MPI_Aint reach = (tlb < 0 ? -tlb : tlb) + text + 3 * ext_abs + 64;
    if (reach > (1 << 20) || t == MPI_PACKED) return;
    MPI_Aint need = 0;
    int rc;
    if (external) {
        rc = MPI_Pack_external_size("external32", count, t, &need);
    } else {
        int n = 0;
        rc = MPI_Pack_size(count, t, MPI_COMM_WORLD, &n);
        need = n;
    }
    if (rc != MPI_SUCCESS) return; /* too large for an int: fine */
    guarded gsrc, gout, gback;
    unsigned char *src = guarded_new(&gsrc, (size_t)(2 * reach), 0x5a);
    unsigned char *out = guarded_new(&gout, (size_t)need + 8, 0);
    unsigned char *back = guarded_new(&gback, (size_t)(2 * reach), 0);
    MPI_Datatype use = hostile == BAD_TYPE ? bad_type(s) : t;
    int use_count = hostile == NEG_COUNT ? -1 : count;
    if (hostile == SHORT_BUF && need == 0) hostile = OK;
    int outsize = (int)need + (hostile == SHORT_BUF ? -1 : rd_range(r, 0, 8));
    int position = hostile == BAD_POSITION ? (rd_one_in(r, 2) ? -1 : outsize + 1) : 0;
    if (hostile == NULL_PTR) position = -2; /* stands for &position = NULL below */
    if (external) {
        MPI_Aint pos = position;
        const char *rep = hostile == BAD_DATAREP ? (rd_one_in(r, 2) ? "native" : "") : "external32";
        rc = MPI_Pack_external(rep, src + reach, use_count, use, out, outsize,
                               hostile == NULL_PTR ? NULL : &pos);
        expect("MPI_Pack_external", hostile, rc);
        if (rc == MPI_SUCCESS) {
            if (pos != need) fail("MPI_Pack_external", "position is not the packed size", rc);
            MPI_Aint in = 0;
            expect("MPI_Unpack_external", OK,
                   MPI_Unpack_external("external32", out, pos, &in, back + reach, count, t));
            in = 0;
            if (need > 0) {
                expect("MPI_Unpack_external (short input)", SHORT_BUF,
                       MPI_Unpack_external("external32", out, pos - 1, &in, back + reach, count, t));
                if (in != 0) fail("MPI_Unpack_external", "moved position on failure", rc);
            }
        }
    } else {
        MPI_Comm comm = hostile == BAD_COMM
                            ? (rd_one_in(r, 2) ? HANDLE_FROM_BITS(MPI_Comm, 0x12345) : MPI_COMM_NULL)
                            : MPI_COMM_WORLD;
        int before = position;
        rc = MPI_Pack(src + reach, use_count, use, out, outsize, hostile == NULL_PTR ? NULL : &position,
                      comm);
        expect("MPI_Pack", hostile, rc);
        if (rc != MPI_SUCCESS && hostile != NULL_PTR && position != before) {
            fail("MPI_Pack", "moved position on failure", rc);
        }
        if (rc == MPI_SUCCESS) {
            if (position != need) fail("MPI_Pack", "position is not the packed size", rc);
            int in = 0;
            expect("MPI_Unpack", OK,
                   MPI_Unpack(out, position, &in, back + reach, count, t, MPI_COMM_WORLD));
            MPI_Count cin = 0;
            expect("MPI_Unpack_c", OK,
                   MPI_Unpack_c(out, position, &cin, back + reach, count, t, MPI_COMM_WORLD));
            if (need > 0) {
                cin = 0;
                expect("MPI_Unpack_c (short input)", SHORT_BUF,
                       MPI_Unpack_c(out, position - 1, &cin, back + reach, count, t, MPI_COMM_WORLD));
            }
            /* Everything packed again from the unpacked copy gives the same bytes. */
            unsigned char *again = malloc((size_t)need + 1);
            int pos2 = 0;
            expect("MPI_Pack (again)", OK,
                   MPI_Pack(back + reach, count, t, again, (int)need, &pos2, MPI_COMM_WORLD));
            free(again);
        }
    }
    guarded_free(&gsrc, "pack source");
    guarded_free(&gout, "pack output");
    guarded_free(&gback, "unpack target");
}

static void op_status(state *s)
{
    reader *r = s->r;
    static const int kinds[] = {BAD_TYPE, NULL_PTR, NEG_COUNT};
    int hostile = pick_hostile(s, kinds, 3);
    MPI_Datatype t = hostile == BAD_TYPE ? bad_type(s) : good_type(s, NULL);
    MPI_Status st;
    memset(&st, 0, sizeof st);
    int n = rd_range(r, 0, 40);
    int size = 1;
    if (hostile == OK && MPI_Type_size(t, &size) == MPI_SUCCESS && size == 0 && n > 0) {
        hostile = BAD_ARG; /* no basic elements to count */
    }
    int rc = MPI_Status_set_elements(hostile == NULL_PTR ? NULL : &st, t, hostile == NEG_COUNT ? -n - 1 : n);
    expect("MPI_Status_set_elements", hostile, rc);
    if (rc != MPI_SUCCESS) return;
    int count;
    MPI_Count big;
    expect("MPI_Get_elements", OK, MPI_Get_elements(&st, t, &count));
    expect("MPI_Get_count", OK, MPI_Get_count(&st, t, &count));
    expect("MPI_Get_elements_x", OK, MPI_Get_elements_x(&st, t, &big));
    expect("MPI_Get_count_c", OK, MPI_Get_count_c(&st, t, &big));
    expect("MPI_Get_elements (NULL status)", NULL_PTR, MPI_Get_elements(NULL, t, &count));
    expect("MPI_Get_count (MPI_STATUS_IGNORE)", NULL_PTR, MPI_Get_count(MPI_STATUS_IGNORE, t, &count));
    expect("MPI_Status_set_elements_x", OK, MPI_Status_set_elements_x(&st, MPI_BYTE, rd_range(r, 0, 1000)));
    expect("MPI_Get_elements_c", OK, MPI_Get_elements_c(&st, t, &big));
}

static int copy_calls;

static int count_copy(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)t;
    (void)keyval;
    (void)extra;
    copy_calls++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static void op_attributes(state *s)
{
    reader *r = s->r;
    if (s->nlive == 0) return;
    MPI_Datatype t = s->live[rd_below(r, (unsigned)s->nlive)];
    switch (rd_below(r, 5)) {
    case 0:
        if (s->nkeyvals < 4) {
            int kv;
            expect("MPI_Type_create_keyval", OK,
                   MPI_Type_create_keyval(rd_one_in(r, 2) ? count_copy : MPI_TYPE_DUP_FN,
                                          MPI_TYPE_NULL_DELETE_FN, &kv, NULL));
            s->keyvals[s->nkeyvals++] = kv;
        }
        break;
    case 1:
        if (s->nkeyvals > 0) {
            int kv = s->keyvals[rd_below(r, (unsigned)s->nkeyvals)];
            expect("MPI_Type_set_attr", OK, MPI_Type_set_attr(t, kv, (void *)(intptr_t)rd_u8(r)));
        }
        break;
    case 2: {
        int kv = s->nkeyvals > 0 ? s->keyvals[rd_below(r, (unsigned)s->nkeyvals)] : MPI_KEYVAL_INVALID;
        int hostile = s->nkeyvals > 0 ? OK : BAD_KEYVAL;
        void *v;
        int flag;
        expect("MPI_Type_get_attr", hostile, MPI_Type_get_attr(t, kv, &v, &flag));
        if (s->nkeyvals > 0) {
            expect("MPI_Type_get_attr (NULL flag)", NULL_PTR, MPI_Type_get_attr(t, kv, &v, NULL));
        }
        break;
    }
    case 3:
        if (s->nkeyvals > 0) {
            int i = (int)rd_below(r, (unsigned)s->nkeyvals);
            int kv = s->keyvals[i];
            expect("MPI_Type_free_keyval", OK, MPI_Type_free_keyval(&kv));
            s->freed_keyval = s->keyvals[i];
            s->keyvals[i] = s->keyvals[--s->nkeyvals];
        }
        break;
    default: {
        /* Garbage keyvals (a freed one is checked only with MPI_DTYPE_FUZZ_STRICT=1: known). */
        int kv = rd_one_in(r, 2) ? 0x7654321 : MPI_KEYVAL_INVALID;
        if (s->freed_keyval && getenv("MPI_DTYPE_FUZZ_STRICT")) kv = s->freed_keyval;
        void *v;
        int flag;
        expect("MPI_Type_set_attr (bad keyval)", BAD_KEYVAL, MPI_Type_set_attr(t, kv, NULL));
        expect("MPI_Type_get_attr (bad keyval)", BAD_KEYVAL, MPI_Type_get_attr(t, kv, &v, &flag));
        expect("MPI_Type_delete_attr (bad keyval)", BAD_KEYVAL, MPI_Type_delete_attr(t, kv));
        break;
    }
    }
}

static void op_misc(state *s)
{
    reader *r = s->r;
    char text[MPI_MAX_ERROR_STRING];
    int len, cls;
    MPI_Aint a;
    MPI_Datatype t;
    switch (rd_below(r, 8)) {
    case 0: {
        /* Any code: never a crash; the text is NUL-terminated within the buffer. */
        int code = (int)(rd_u8(r) | rd_u8(r) << 8) - 100;
        if (MPI_Error_string(code, text, &len) == MPI_SUCCESS &&
            (len < 0 || len >= MPI_MAX_ERROR_STRING || text[len] != '\0')) {
            fail("MPI_Error_string", "length out of range", code);
        }
        MPI_Error_class(code, &cls);
        break;
    }
    case 1: expect("MPI_Get_address (NULL)", NULL_PTR, MPI_Get_address(text, NULL)); break;
    case 2: {
        /* not a typeclass (the standard ABI's are 192 to 194, MPICH's 1 to 3) */
        int typeclass = rd_range(r, 100, 200);
        if (typeclass == MPI_TYPECLASS_INTEGER || typeclass == MPI_TYPECLASS_REAL ||
            typeclass == MPI_TYPECLASS_COMPLEX) {
            typeclass += 10;
        }
        expect("MPI_Type_match_size (bad typeclass)", BAD_ARG, MPI_Type_match_size(typeclass, 4, &t));
        break;
    }
    case 3:
        expect("MPI_Type_match_size (no such size)", BAD_ARG, MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t));
        break;
    case 4: {
        int rank;
        expect("MPI_Comm_rank (bad comm)", BAD_COMM, MPI_Comm_rank((MPI_Comm)0x1234567, &rank));
        break;
    }
    case 5: {
        int size;
        expect("MPI_Pack_size (bad comm)", BAD_COMM, MPI_Pack_size(1, MPI_INT, MPI_COMM_NULL, &size));
        expect("MPI_Pack_size (overflow)", OVERFLOW,
               MPI_Pack_size(0x7fffffff, MPI_LONG_DOUBLE, MPI_COMM_WORLD, &size));
        break;
    }
    case 6: {
        MPI_Aint sz;
        expect("MPI_Pack_external_size (bad datarep)", BAD_DATAREP,
               MPI_Pack_external_size("little-endian", 1, MPI_INT, &sz));
        break;
    }
    default:
        a = MPI_Aint_add((MPI_Aint)rd_u8(r), -5);
        (void)MPI_Aint_diff(a, 7);
        break;
    }
}

static void my_errhandler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

/* The remaining exported functions: MPI-1 names, the _c variants of pack, darray, the
 * iov extension, process and error-handler functions, MPIR_Type_dup_fn. The standard ABI has
 * neither the MPI-1 names nor MPIR_Type_dup_fn: there the same cases call their successors
 * (MPI_Type_create_hvector, ..., MPI_Get_address) and MPI_Type_toint / MPI_Type_fromint. */
static void op_more(state *s)
{
    reader *r = s->r;
    int committed = 1;
    MPI_Datatype t = good_type(s, &committed);
    if (!committed && rd_one_in(r, 2)) {
        ensure_committed(s, t);
        committed = 1;
    }
    MPI_Datatype bad = bad_type(s);
    MPI_Datatype n = MPI_DATATYPE_NULL;
    int bl[3] = {1, 2, 1};
    MPI_Aint ad[3] = {0, 16, 40};
    MPI_Count cb[3] = {1, 2, 1}, cd[3] = {0, 16, 40};
    MPI_Datatype ty[3] = {MPI_INT, t, MPI_CHAR};
    MPI_Aint a = 0;
    MPI_Count c = 0, c2 = 0;
    int i = 0, j = 0;
    switch (rd_below(r, 24)) {
#ifndef MPI_DTYPE_MPICH_ABI
    case 0:
        expect("MPI_Type_create_hvector (negative count)", NEG_COUNT,
               MPI_Type_create_hvector(-1, 1, 8, t, &n));
        expect("MPI_Type_create_hvector", OK, MPI_Type_create_hvector(2, 1, 24, t, &n));
        break;
    case 1:
        expect("MPI_Type_create_hindexed (bad type)", BAD_TYPE,
               MPI_Type_create_hindexed(3, bl, ad, bad, &n));
        expect("MPI_Type_create_hindexed", OK, MPI_Type_create_hindexed(3, bl, ad, t, &n));
        break;
    case 2:
        ty[1] = bad;
        expect("MPI_Type_create_struct (bad type)", BAD_TYPE, MPI_Type_create_struct(3, bl, ad, ty, &n));
        ty[1] = t;
        expect("MPI_Type_create_struct (NULL types)", NULL_PTR,
               MPI_Type_create_struct(3, bl, ad, NULL, &n));
        expect("MPI_Type_create_struct", OK, MPI_Type_create_struct(3, bl, ad, ty, &n));
        break;
    case 3:
        expect("MPI_Type_get_extent (bad type)", BAD_TYPE, MPI_Type_get_extent(bad, &a, &a));
        expect("MPI_Type_get_extent (NULL)", NULL_PTR, MPI_Type_get_extent(t, NULL, &a));
        expect("MPI_Type_get_extent", OK, MPI_Type_get_extent(t, &a, &a));
        expect("MPI_Get_address (NULL)", NULL_PTR, MPI_Get_address(&i, NULL));
        expect("MPI_Get_address", OK, MPI_Get_address(&i, &a));
        break;
#else
    case 0:
        expect("MPI_Type_hvector (negative count)", NEG_COUNT, MPI_Type_hvector(-1, 1, 8, t, &n));
        expect("MPI_Type_hvector", OK, MPI_Type_hvector(2, 1, 24, t, &n));
        break;
    case 1:
        expect("MPI_Type_hindexed (bad type)", BAD_TYPE, MPI_Type_hindexed(3, bl, ad, bad, &n));
        expect("MPI_Type_hindexed", OK, MPI_Type_hindexed(3, bl, ad, t, &n));
        break;
    case 2:
        ty[1] = bad;
        expect("MPI_Type_struct (bad type)", BAD_TYPE, MPI_Type_struct(3, bl, ad, ty, &n));
        ty[1] = t;
        expect("MPI_Type_struct (NULL types)", NULL_PTR, MPI_Type_struct(3, bl, ad, NULL, &n));
        expect("MPI_Type_struct", OK, MPI_Type_struct(3, bl, ad, ty, &n));
        break;
    case 3:
        expect("MPI_Type_extent (bad type)", BAD_TYPE, MPI_Type_extent(bad, &a));
        expect("MPI_Type_lb (NULL)", NULL_PTR, MPI_Type_lb(t, NULL));
        expect("MPI_Type_ub", OK, MPI_Type_ub(t, &a));
        expect("MPI_Address (NULL)", NULL_PTR, MPI_Address(&i, NULL));
        expect("MPI_Address", OK, MPI_Address(&i, &a));
        break;
#endif
    case 4: {
        /* A rank outside the process grid: MPI_ERR_RANK (or MPI_ERR_ARG). */
        int gsizes[2] = {4, 4}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 1}, psizes[2] = {2, 1};
        int rc = MPI_Type_create_darray(2, rd_one_in(r, 2) ? 2 : -1, 2, gsizes, distribs, dargs,
                                        psizes, MPI_ORDER_C, t, &n);
        expect("MPI_Type_create_darray (bad rank)", BAD_RANK, rc);
        break;
    }
    case 5: {
        int gsizes[2] = {rd_range(r, 1, 6), rd_range(r, 1, 6)};
        int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, rd_range(r, 1, 2)};
        int psizes[2] = {2, 1};
        MPI_Count cg[2] = {gsizes[0], gsizes[1]};
        int rank = rd_range(r, 0, 1);
        if (rd_one_in(r, 2)) {
            expect("MPI_Type_create_darray", OK,
                   MPI_Type_create_darray(2, rank, 2, gsizes, distribs, dargs, psizes,
                                          MPI_ORDER_FORTRAN, t, &n));
        } else {
            expect("MPI_Type_create_darray_c", OK,
                   MPI_Type_create_darray_c(2, rank, 2, cg, distribs, dargs, psizes, MPI_ORDER_C, t, &n));
        }
        break;
    }
    case 6:
        expect("MPI_Type_create_hindexed_c (negative length)", NEG_LENGTH,
               MPI_Type_create_hindexed_c(3, (MPI_Count[]){1, -1, 1}, cd, t, &n));
        expect("MPI_Type_create_hindexed_c", OK, MPI_Type_create_hindexed_c(3, cb, cd, t, &n));
        break;
    case 7:
        expect("MPI_Type_create_hindexed_block_c (negative count)", NEG_COUNT,
               MPI_Type_create_hindexed_block_c(-3, 1, cd, t, &n));
        expect("MPI_Type_create_hindexed_block_c", OK, MPI_Type_create_hindexed_block_c(3, 2, cd, t, &n));
        break;
    case 8:
        expect("MPI_Type_indexed_c (NULL displacements)", NULL_PTR, MPI_Type_indexed_c(3, cb, NULL, t, &n));
        expect("MPI_Type_indexed_c", OK, MPI_Type_indexed_c(3, cb, (MPI_Count[]){0, 3, 9}, t, &n));
        break;
    case 9:
        expect("MPI_Type_create_indexed_block (bad type)", BAD_TYPE,
               MPI_Type_create_indexed_block(2, 1, bl, bad, &n));
        expect("MPI_Type_create_hvector", OK, MPI_Type_create_hvector(2, 2, -40, t, &n));
        break;
    case 10:
        expect("MPI_Type_create_resized_c (bad type)", BAD_TYPE, MPI_Type_create_resized_c(bad, 0, 8, &n));
        expect("MPI_Type_create_resized_c", OK, MPI_Type_create_resized_c(t, -8, 24, &n));
        break;
    case 11: {
        MPI_Count sizes[2] = {4, 5}, subs[2] = {2, 3}, starts[2] = {1, 2};
        starts[1] = rd_one_in(r, 3) ? 3 : 2; /* 3 + 3 > 5: out of range */
        expect("MPI_Type_create_subarray_c", starts[1] == 3 ? BAD_ARG : OK,
               MPI_Type_create_subarray_c(2, sizes, subs, starts, MPI_ORDER_FORTRAN, t, &n));
        break;
    }
    case 12:
        expect("MPI_Type_get_extent_c (bad type)", BAD_TYPE, MPI_Type_get_extent_c(bad, &c, &c2));
        expect("MPI_Type_get_true_extent_x (NULL)", NULL_PTR, MPI_Type_get_true_extent_x(t, NULL, &c2));
        expect("MPI_Type_get_true_extent_x", OK, MPI_Type_get_true_extent_x(t, &c, &c2));
        break;
    case 13:
        expect("MPI_Pack_size_c (negative count)", NEG_COUNT, MPI_Pack_size_c(-1, t, MPI_COMM_WORLD, &c));
        expect("MPI_Pack_external_size_c (bad type)", BAD_TYPE,
               MPI_Pack_external_size_c("external32", 1, bad, &c));
        expect("MPI_Pack_external_size_c (overflow)", OVERFLOW,
               MPI_Pack_external_size_c("external32", (MPI_Count)1 << 62, MPI_LONG_DOUBLE, &c));
        break;
    case 14: {
        if (!committed) break;
        MPI_Count need = 0, pos = 0;
        if (MPI_Pack_size_c(1, t, MPI_COMM_WORLD, &need) != MPI_SUCCESS || need > 4096) break;
        if (!data_within_source(t)) break;
        guarded gs, go;
        unsigned char *src = guarded_new(&gs, 8192, 1);
        unsigned char *out = guarded_new(&go, (size_t)need, 0);
        expect("MPI_Pack_c (short)", need > 0 ? SHORT_BUF : OK,
               MPI_Pack_c(src + 4096, 1, t, out, need > 0 ? need - 1 : 0, &pos, MPI_COMM_WORLD));
        pos = 0;
        expect("MPI_Pack_c", OK, MPI_Pack_c(src + 4096, 1, t, out, need, &pos, MPI_COMM_WORLD));
        guarded_free(&gs, "MPI_Pack_c source");
        guarded_free(&go, "MPI_Pack_c output");
        break;
    }
    case 15: {
        if (!committed) break;
        MPI_Count need = 0, pos = 0;
        if (MPI_Pack_external_size_c("external32", 1, t, &need) != MPI_SUCCESS || need > 4096) break;
        if (!data_within_source(t)) break;
        guarded gs, go;
        unsigned char *src = guarded_new(&gs, 8192, 1);
        unsigned char *out = guarded_new(&go, (size_t)need, 0);
        expect("MPI_Pack_external_c", OK, MPI_Pack_external_c("external32", src + 4096, 1, t, out, need, &pos));
        pos = rd_one_in(r, 2) ? -1 : need + 1;
        expect("MPI_Unpack_external_c (bad position)", BAD_POSITION,
               MPI_Unpack_external_c("external32", out, need, &pos, src + 4096, 1, t));
        pos = 0;
        expect("MPI_Unpack_external_c", OK, MPI_Unpack_external_c("external32", out, need, &pos, src + 4096, 1, t));
        guarded_free(&gs, "MPI_Pack_external_c source");
        guarded_free(&go, "MPI_Pack_external_c output");
        break;
    }
    case 16: {
        /* The int get_contents of a type made with int arguments. */
        MPI_Datatype v;
        expect("MPI_Type_vector", OK, MPI_Type_vector(2, 1, 3, t, &v));
        int ints[3];
        MPI_Datatype kids[1];
        expect("MPI_Type_get_contents (max_integers too small)", BAD_ARG,
               MPI_Type_get_contents(v, 2, 0, 1, ints, NULL, kids));
        expect("MPI_Type_get_contents", OK, MPI_Type_get_contents(v, 3, 0, 1, ints, &a, kids));
        int ni, na, nt, comb;
        MPI_Type_get_envelope(kids[0], &ni, &na, &nt, &comb);
        if (comb != MPI_COMBINER_NAMED) MPI_Type_free(&kids[0]);
        expect("MPI_Type_get_contents (named type)", BAD_TYPE,
               MPI_Type_get_contents(MPI_INT, 0, 0, 0, ints, &a, kids));
        MPI_Type_free(&v);
        break;
    }
#ifndef MPI_DTYPE_MPICH_ABI
    case 17: {
        /* MPI_Type_toint / MPI_Type_fromint: a valid handle round-trips; an invalid one
           either has no int (-1) or one that converts back to it or to MPI_DATATYPE_NULL
           (a freed handle of ours keeps its int: it stays invalid); an int no handle
           converts to gives MPI_DATATYPE_NULL. */
        int v = MPI_Type_toint(t);
        if (v == -1 || MPI_Type_fromint(v) != t) {
            fail("MPI_Type_toint", "a valid handle does not round-trip", MPI_SUCCESS);
        }
        v = MPI_Type_toint(bad);
        if (v != -1 && MPI_Type_fromint(v) != bad && MPI_Type_fromint(v) != MPI_DATATYPE_NULL) {
            fail("MPI_Type_fromint", "an invalid handle's int converts to another handle",
                 MPI_SUCCESS);
        }
        if (MPI_Type_fromint(-1) != MPI_DATATYPE_NULL) {
            fail("MPI_Type_fromint", "-1 converts to a handle", MPI_SUCCESS);
        }
        break;
    }
#else
    case 17: {
        /* The copy function behind MPI_TYPE_DUP_FN. */
        void *out = NULL;
        int flag = 0;
        expect("MPIR_Type_dup_fn", OK, MPIR_Type_dup_fn(t, 0, NULL, (void *)&i, &out, &flag));
        if (out != (void *)&i || flag != 1) fail("MPIR_Type_dup_fn", "did not copy the value", MPI_SUCCESS);
        expect("MPIR_Type_dup_fn (NULL out)", NULL_PTR, MPIR_Type_dup_fn(t, 0, NULL, &i, NULL, &flag));
        expect("MPIR_Type_dup_fn (NULL flag)", NULL_PTR, MPIR_Type_dup_fn(t, 0, NULL, &i, &out, NULL));
        break;
    }
#endif
    case 18: {
        MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
        expect("MPI_Comm_create_errhandler", OK, MPI_Comm_create_errhandler(my_errhandler, &eh));
        expect("MPI_Comm_get_errhandler", OK, MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
        expect("MPI_Comm_get_errhandler (bad comm)", BAD_COMM, MPI_Comm_get_errhandler((MPI_Comm)0x1234, &got));
        expect("MPI_Errhandler_free", OK, MPI_Errhandler_free(&eh));
        if (got != MPI_ERRHANDLER_NULL) MPI_Errhandler_free(&got);
        expect("MPI_Errhandler_free (NULL)", NULL_PTR, MPI_Errhandler_free(NULL));
        break;
    }
    case 19: {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = -1;
        expect("MPI_Get_library_version", OK, MPI_Get_library_version(version, &len));
        if (len < 0 || len >= MPI_MAX_LIBRARY_VERSION_STRING || version[len] != '\0') {
            fail("MPI_Get_library_version", "length out of range", MPI_SUCCESS);
        }
        expect("MPI_Get_version", OK, MPI_Get_version(&i, &j));
        expect("MPI_Get_version (NULL)", NULL_PTR, MPI_Get_version(NULL, &j));
        break;
    }
    case 20:
        expect("MPI_Query_thread", OK, MPI_Query_thread(&i));
        expect("MPI_Is_thread_main", OK, MPI_Is_thread_main(&i));
        expect("MPI_Comm_size", OK, MPI_Comm_size(MPI_COMM_SELF, &i));
        expect("MPI_Comm_size (bad comm)", BAD_COMM, MPI_Comm_size((MPI_Comm)0x1234, &i));
        expect("MPI_Finalized", OK, MPI_Finalized(&i));
        if (MPI_Wtime() < 0 || MPI_Wtick() <= 0) fail("MPI_Wtime", "negative time or tick", MPI_SUCCESS);
        break;
    case 21: {
        MPI_Count len = 0, bytes = 0;
        if (!committed) ensure_committed(s, t);
        expect("MPIX_Type_iov_len (bad type)", BAD_TYPE, MPIX_Type_iov_len(bad, 100, &len, &bytes));
        expect("MPIX_Type_iov_len (NULL)", NULL_PTR, MPIX_Type_iov_len(t, 100, NULL, &bytes));
        expect("MPIX_Type_iov_len", OK, MPIX_Type_iov_len(t, rd_range(r, 0, 200), &len, &bytes));
        break;
    }
    case 22: {
        MPI_Count max = rd_range(r, 0, 6), got = 0;
        if (!committed) ensure_committed(s, t);
        guarded g;
        MPIX_Iov *iov = (MPIX_Iov *)guarded_new(&g, (size_t)max * sizeof(MPIX_Iov), 0);
        expect("MPIX_Type_iov", OK, MPIX_Type_iov(t, rd_range(r, 0, 3), iov, max, &got));
        if (got < 0 || got > max) fail("MPIX_Type_iov", "more segments than asked for", MPI_SUCCESS);
        guarded_free(&g, "MPIX_Type_iov");
        expect("MPIX_Type_iov (NULL iov)", NULL_PTR, MPIX_Type_iov(t, 0, NULL, 4, &got));
        expect("MPIX_Type_iov (bad type)", BAD_TYPE, MPIX_Type_iov(bad, 0, iov, 0, &got));
        break;
    }
    default:
        expect("MPI_Type_match_size", OK, MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &n));
        n = MPI_DATATYPE_NULL;
        break;
    }
    if (n != MPI_DATATYPE_NULL) remember(s, n, 0);
}

/* Builds a chain `depth` levels deep of contiguous / dup / resized / struct over MPI_INT,
 * then queries, decodes one level, packs and frees it. */
static void op_deep(state *s)
{
    reader *r = s->r;
    int depth = 100 + (int)rd_below(r, 4000);
    MPI_Datatype t = MPI_INT;
    for (int i = 0; i < depth; i++) {
        MPI_Datatype next;
        int rc;
        switch ((rd_u8(r) + i) % 4) {
        case 0: rc = MPI_Type_contiguous(1, t, &next); break;
        case 1: rc = MPI_Type_dup(t, &next); break;
        case 2: rc = MPI_Type_create_resized(t, 0, 4, &next); break;
        default: {
            int one = 1;
            MPI_Aint zero = 0;
            rc = MPI_Type_create_struct(1, &one, &zero, &t, &next);
            break;
        }
        }
        expect("deep chain constructor", OK, rc);
        if (t != MPI_INT) expect("MPI_Type_free (deep chain)", OK, MPI_Type_free(&t));
        t = next;
    }
    expect("MPI_Type_commit (deep)", OK, MPI_Type_commit(&t));
    int size;
    expect("MPI_Type_size (deep)", OK, MPI_Type_size(t, &size));
    if (size != 4) fail("MPI_Type_size (deep)", "size is not 4", MPI_SUCCESS);
    int value = 0x1234567, back = 0, position = 0;
    unsigned char packed[4];
    expect("MPI_Pack (deep)", OK, MPI_Pack(&value, 1, t, packed, 4, &position, MPI_COMM_WORLD));
    position = 0;
    expect("MPI_Unpack (deep)", OK, MPI_Unpack(packed, 4, &position, &back, 1, t, MPI_COMM_WORLD));
    if (back != value) fail("MPI_Unpack (deep)", "value differs", MPI_SUCCESS);
    MPI_Status st;
    expect("MPI_Status_set_elements (deep)", OK, MPI_Status_set_elements(&st, t, 1));
    MPI_Datatype dup;
    expect("MPI_Type_dup (deep)", OK, MPI_Type_dup(t, &dup));
    expect("MPI_Type_free (deep)", OK, MPI_Type_free(&t));
    remember(s, dup, 1);
}

static void op_free(state *s)
{
    reader *r = s->r;
    static const int kinds[] = {BAD_TYPE, NULL_PTR};
    int hostile = s->nlive == 0 ? BAD_TYPE : pick_hostile(s, kinds, 2);
    if (hostile == OK) {
        int i = (int)rd_below(r, (unsigned)s->nlive);
        MPI_Datatype t = s->live[i];
        int rc = MPI_Type_free(&t);
        expect("MPI_Type_free", OK, rc);
        if (t != MPI_DATATYPE_NULL) fail("MPI_Type_free", "handle not set to MPI_DATATYPE_NULL", rc);
        if (s->nfreed < FREED) s->freed[s->nfreed++] = s->live[i];
        s->live[i] = s->live[s->nlive - 1];
        s->committed[i] = s->committed[s->nlive - 1];
        s->nlive--;
    } else if (hostile == NULL_PTR) {
        expect("MPI_Type_free (NULL)", NULL_PTR, MPI_Type_free(NULL));
    } else {
        MPI_Datatype t = rd_one_in(r, 3) ? BASICS[rd_below(r, NBASICS)] : bad_type(s);
        /* Freeing a predefined type is an error too (class MPI_ERR_TYPE). */
        expect("MPI_Type_free (bad handle)", BAD_TYPE, MPI_Type_free(&t));
        MPI_Datatype c = bad_type(s);
        expect("MPI_Type_commit (bad handle)", BAD_TYPE, MPI_Type_commit(&c));
    }
}

/* ---------------------------------------------------------------------------------------
 * One input.
 */
static void setup(void)
{
    static int done;
    if (done) return;
    done = 1;
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag) MPI_Init(NULL, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    reader r = {data, size, 0};
    state s;
    memset(&s, 0, sizeof s);
    s.r = &r;
    for (int step = 0; step < 64 && r.at < size; step++) {
        switch (rd_below(&r, 16)) {
        case 0: case 1: case 2: case 3: op_constructor(&s); break;
        case 4: case 5: op_queries(&s); break;
        case 6: op_decode(&s); break;
        case 7: case 8: case 9: op_pack(&s); break;
        case 10: op_status(&s); break;
        case 11: op_attributes(&s); break;
        case 12: op_misc(&s); break;
        case 13: if (rd_one_in(&r, 4)) op_deep(&s); else op_more(&s); break;
        case 14: op_more(&s); break;
        default: op_free(&s); break;
        }
    }
    for (int i = 0; i < s.nlive; i++) expect("MPI_Type_free (end)", OK, MPI_Type_free(&s.live[i]));
    for (int i = 0; i < s.nkeyvals; i++) expect("MPI_Type_free_keyval (end)", OK, MPI_Type_free_keyval(&s.keyvals[i]));
    return 0;
}

#ifndef API_FUZZ_LIBFUZZER
/* The seeded driver: --iterations N --seed S runs N pseudo-random inputs of up to 1 KiB;
 * any other arguments are files to replay. */
static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    unsigned long iterations = 10000;
    uint64_t seed = 1;
    int files = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else {
            FILE *f = fopen(argv[i], "rb");
            if (!f) {
                perror(argv[i]);
                return 2;
            }
            static uint8_t buffer[1 << 20];
            size_t n = fread(buffer, 1, sizeof buffer, f);
            fclose(f);
            LLVMFuzzerTestOneInput(buffer, n);
            files++;
        }
    }
    if (files > 0) {
        printf("api_fuzz: %d inputs replayed, %lu checks passed\n", files, checks);
        return 0;
    }
    uint64_t state = seed;
    static uint8_t input[1024];
    for (unsigned long it = 0; it < iterations; it++) {
        size_t n = 1 + splitmix(&state) % sizeof input;
        for (size_t k = 0; k < n; k += 8) {
            uint64_t v = splitmix(&state);
            for (size_t b = 0; b < 8 && k + b < n; b++) input[k + b] = (uint8_t)(v >> (8 * b));
        }
        LLVMFuzzerTestOneInput(input, n);
    }
    printf("api_fuzz: %lu inputs from seed %llu, %lu checks passed\n", iterations,
           (unsigned long long)seed, checks);
    MPI_Finalize();
    return 0;
}
#endif
