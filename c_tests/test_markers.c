/*
 * test_markers.c: bounds of datatypes: the legacy MPI_LB / MPI_UB markers (built
 * with the MPI-1 MPI_Type_struct), MPI_Type_create_resized, empty types and zero counts
 * (docs/semantics.md), and alignment padding (docs/semantics.md).
 *
 * The rules checked (MPI's bound equations):
 *   lb = least data displacement, or, if the type map has MPI_LB markers, the least of those
 *        displacements regardless of the data;
 *   ub = greatest data end rounded up so that ub - lb is a multiple of the largest alignment
 *        of the basic types, or, if there are MPI_UB markers, the greatest of them;
 *   markers are part of the type map (replicated by every constructor); resized erases the
 *   old ones; a zero count adds no entries and no bounds; true bounds ignore markers.
 */
#include "check.h"

/* MPI_Type_struct with blocklengths of 1. */
static MPI_Datatype legacy_struct(int n, MPI_Aint *disp, MPI_Datatype *types)
{
    int bl[16];
    int i;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    for (i = 0; i < n; ++i) {
        bl[i] = 1;
    }
    CHECK_OK(MPI_Type_struct(n, bl, disp, types, &t));
    CHECK_OK(MPI_Type_commit(&t));
    return t;
}

static void commit(MPI_Datatype *t)
{
    CHECK_OK(MPI_Type_commit(t));
}

static void test_least_lb_greatest_ub(void)
{
    /* "the return value is the least displacement specified for any of those MPI.LB fields,
       regardless of the values appearing in the displacement list proper" (and the same,
       greatest, for MPI.UB) */
    MPI_Aint d[5] = {0, 8, 4, 2, 10};
    MPI_Datatype ty[5] = {MPI_INT, MPI_LB, MPI_LB, MPI_UB, MPI_UB};
    static const check_entry map[] = {{0, 4}};
    MPI_Datatype t = legacy_struct(5, d, ty);
    CHECK_BOUNDS(t, 4, 4, 6, 0, 4);
    CHECK_TYPEMAP(t, 1, map);
    CHECK_TYPEMAP(t, 3, map); /* copies 6 bytes apart */
    CHECK_OK(MPI_Type_free(&t));

    /* markers given in the other order, and data outside [lb, ub) on both sides */
    {
        MPI_Aint d2[4] = {30, -20, 12, 2};
        MPI_Datatype ty2[4] = {MPI_UB, MPI_DOUBLE, MPI_DOUBLE, MPI_LB};
        static const check_entry map2[] = {{-20, 8}, {12, 8}};
        t = legacy_struct(4, d2, ty2);
        CHECK_BOUNDS(t, 16, 2, 28, -20, 40);
        CHECK_TYPEMAP(t, 2, map2);
        CHECK_OK(MPI_Type_free(&t));
    }

    /* only an lb marker: ub = data end rounded so that ub - lb is a multiple of 4 */
    {
        MPI_Aint d3[2] = {-3, 0};
        MPI_Datatype ty3[2] = {MPI_LB, MPI_INT};
        t = legacy_struct(2, d3, ty3);
        CHECK_BOUNDS(t, 4, -3, 8, 0, 4);
        CHECK_OK(MPI_Type_free(&t));
    }
    /* only a ub marker: no rounding, lb from the data */
    {
        MPI_Aint d4[2] = {0, 9};
        MPI_Datatype ty4[2] = {MPI_DOUBLE, MPI_UB};
        t = legacy_struct(2, d4, ty4);
        CHECK_BOUNDS(t, 8, 0, 9, 0, 8);
        CHECK_OK(MPI_Type_free(&t));
    }
    /* a ub marker below the data end: extent smaller than the data span */
    {
        MPI_Aint d5[2] = {0, 2};
        MPI_Datatype ty5[2] = {MPI_INT, MPI_UB};
        static const check_entry map5[] = {{0, 4}};
        t = legacy_struct(2, d5, ty5);
        CHECK_BOUNDS(t, 4, 0, 2, 0, 4);
        CHECK_TYPEMAP(t, 3, map5); /* overlapping copies 2 bytes apart */
        CHECK_OK(MPI_Type_free(&t));
    }
    /* markers only: an empty data map with bounds */
    {
        MPI_Aint d6[2] = {-5, 7};
        MPI_Datatype ty6[2] = {MPI_LB, MPI_UB};
        t = legacy_struct(2, d6, ty6);
        CHECK_BOUNDS(t, 0, -5, 12, 0, 0);
        CHECK_OK(MPI_Type_free(&t));
    }
}

/* T = {(lb, 4), (int, 8), (ub, 20)}: lb 4, extent 16. */
static MPI_Datatype make_marked(void)
{
    MPI_Aint d[3] = {4, 8, 20};
    MPI_Datatype ty[3] = {MPI_LB, MPI_INT, MPI_UB};
    return legacy_struct(3, d, ty);
}

static void test_sticky_markers(void)
{
    MPI_Datatype t = make_marked();
    MPI_Datatype n = MPI_DATATYPE_NULL;
    CHECK_BOUNDS(t, 4, 4, 16, 8, 4);

    /* contiguous(3): lb markers at 4, 20, 36, ub markers at 20, 36, 52 */
    {
        static const check_entry map[] = {{8, 4}, {24, 4}, {40, 4}};
        CHECK_OK(MPI_Type_contiguous(3, t, &n));
        commit(&n);
        CHECK_BOUNDS(n, 12, 4, 48, 8, 36);
        CHECK_TYPEMAP(n, 2, map);
        CHECK_OK(MPI_Type_free(&n));
    }
    /* vector(2, 1, 3): copies at 0 and 48 */
    {
        static const check_entry map[] = {{8, 4}, {56, 4}};
        CHECK_OK(MPI_Type_vector(2, 1, 3, t, &n));
        commit(&n);
        CHECK_BOUNDS(n, 8, 4, 64, 8, 52);
        CHECK_TYPEMAP(n, 2, map);
        CHECK_OK(MPI_Type_free(&n));
    }
    /* hvector(2, 1, -40): copies at 0 and -40 */
    {
        static const check_entry map[] = {{8, 4}, {-32, 4}};
        CHECK_OK(MPI_Type_create_hvector(2, 1, -40, t, &n));
        commit(&n);
        CHECK_BOUNDS(n, 8, -36, 56, -32, 44);
        CHECK_TYPEMAP(n, 2, map);
        CHECK_OK(MPI_Type_free(&n));
    }
    /* indexed: copies at 16 and 0 */
    {
        static const check_entry map[] = {{24, 4}, {8, 4}};
        int b[2] = {1, 1};
        int d[2] = {1, 0};
        CHECK_OK(MPI_Type_indexed(2, b, d, t, &n));
        commit(&n);
        CHECK_BOUNDS(n, 8, 4, 32, 8, 20);
        CHECK_TYPEMAP(n, 2, map);
        CHECK_OK(MPI_Type_free(&n));
    }
    /* struct {(T, 0) x2, (int, 100)}: the markers of T decide the bounds, the int at 100 does
       not move ub */
    {
        static const check_entry map[] = {{8, 4}, {24, 4}, {100, 4}};
        int b[2] = {2, 1};
        MPI_Aint d[2] = {0, 100};
        MPI_Datatype ty[2];
        ty[0] = t;
        ty[1] = MPI_INT;
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &n));
        commit(&n);
        CHECK_BOUNDS(n, 12, 4, 32, 8, 96);
        CHECK_TYPEMAP(n, 2, map);
        CHECK_OK(MPI_Type_free(&n));
    }
    /* dup keeps the markers */
    {
        CHECK_OK(MPI_Type_dup(t, &n));
        CHECK_BOUNDS(n, 4, 4, 16, 8, 4);
        CHECK_OK(MPI_Type_free(&n));
    }
    CHECK_OK(MPI_Type_free(&t));
}

static void test_resized_erases_markers(void)
{
    MPI_Datatype t = make_marked(); /* markers lb 4, ub 20 */
    MPI_Datatype r = MPI_DATATYPE_NULL, n = MPI_DATATYPE_NULL;

    CHECK_OK(MPI_Type_create_resized(t, 0, 40, &r));
    commit(&r);
    CHECK_BOUNDS(r, 4, 0, 40, 8, 4);
    {
        static const check_entry map[] = {{8, 4}, {48, 4}};
        CHECK_OK(MPI_Type_contiguous(2, r, &n));
        commit(&n);
        CHECK_BOUNDS(n, 8, 0, 80, 8, 44);
        CHECK_TYPEMAP(n, 1, map);
        CHECK_OK(MPI_Type_free(&n));
    }
    /* a new MPI_LB marker below the resized lb wins; the resized ub stays */
    {
        MPI_Aint d[2] = {0, -10};
        MPI_Datatype ty[2];
        ty[0] = r;
        ty[1] = MPI_LB;
        n = legacy_struct(2, d, ty);
        CHECK_BOUNDS(n, 4, -10, 50, 8, 4);
        CHECK_OK(MPI_Type_free(&n));
    }
    CHECK_OK(MPI_Type_free(&r));

    /* resized to lb 10, extent 30: the old lb marker (4) is gone, so a new lb marker at 12
       leaves lb at 10 */
    CHECK_OK(MPI_Type_create_resized(t, 10, 30, &r));
    {
        MPI_Aint d[2] = {0, 12};
        MPI_Datatype ty[2];
        ty[0] = r;
        ty[1] = MPI_LB;
        n = legacy_struct(2, d, ty);
        CHECK_BOUNDS(n, 4, 10, 30, 8, 4);
        CHECK_OK(MPI_Type_free(&n));
    }
    CHECK_OK(MPI_Type_free(&r));

    /* resized to lb 6, extent 10: the old markers (4, 20) must not reappear in a struct */
    CHECK_OK(MPI_Type_create_resized(t, 6, 10, &r));
    {
        MPI_Aint d[2] = {0, 1};
        MPI_Datatype ty[2];
        ty[0] = r;
        ty[1] = MPI_CHAR;
        n = legacy_struct(2, d, ty);
        CHECK_BOUNDS(n, 5, 6, 10, 1, 11);
        CHECK_OK(MPI_Type_free(&n));
    }
    /* ... nor in a contiguous */
    CHECK_OK(MPI_Type_contiguous(2, r, &n));
    CHECK_BOUNDS(n, 8, 6, 20, 8, 14);
    CHECK_OK(MPI_Type_free(&n));
    CHECK_OK(MPI_Type_free(&r));
    CHECK_OK(MPI_Type_free(&t));
}

static void test_empty_types(void)
{
    MPI_Datatype e = MPI_DATATYPE_NULL, t = MPI_DATATYPE_NULL, re = MPI_DATATYPE_NULL;
    /* "an empty type map with no markers has lb = ub = true_lb = true_ub = 0" */
    CHECK_OK(MPI_Type_contiguous(0, MPI_INT, &e));
    commit(&e);
    CHECK_BOUNDS(e, 0, 0, 0, 0, 0);
    {
        unsigned char in[8] = {0}, out[8];
        int position = 0;
        memset(out, 0x5A, sizeof out);
        CHECK_OK(MPI_Pack(in, 3, e, out, (int)sizeof out, &position, MPI_COMM_WORLD));
        CHECK_EQ_LONG(position, 0);
        CHECK_EQ_LONG(out[0], 0x5A);
    }

    CHECK_OK(MPI_Type_vector(0, 3, 5, MPI_DOUBLE, &t));
    CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_vector(3, 0, 5, MPI_DOUBLE, &t));
    CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_create_hvector(4, 0, -100, MPI_DOUBLE, &t));
    CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
    CHECK_OK(MPI_Type_free(&t));
    {
        int b[2] = {0, 0};
        int d[2] = {5, -7};
        MPI_Aint hd[2] = {1000, -1000};
        MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_INT};
        CHECK_OK(MPI_Type_indexed(2, b, d, MPI_DOUBLE, &t));
        CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_hindexed(2, b, hd, MPI_DOUBLE, &t));
        CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_indexed_block(2, 0, d, MPI_INT, &t));
        CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_hindexed_block(2, 0, hd, MPI_INT, &t));
        CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_struct(2, b, hd, ty, &t));
        CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_struct(0, b, hd, ty, &t));
        CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
        CHECK_OK(MPI_Type_free(&t));
        /* children that are empty add nothing either */
        ty[0] = e;
        ty[1] = e;
        b[0] = 3;
        b[1] = 1;
        CHECK_OK(MPI_Type_create_struct(2, b, hd, ty, &t));
        CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_hindexed(2, b, hd, e, &t));
        CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
        CHECK_OK(MPI_Type_free(&t));
    }
    CHECK_OK(MPI_Type_contiguous(5, e, &t));
    CHECK_BOUNDS(t, 0, 0, 0, 0, 0);
    CHECK_OK(MPI_Type_free(&t));

    /* a zero-count member at displacement 29 does not move the struct's lb or ub */
    {
        int b[2] = {1, 1};
        MPI_Aint d[2] = {0, 29};
        MPI_Datatype ty[2];
        static const check_entry map[] = {{0, 4}};
        ty[0] = MPI_INT;
        ty[1] = e;
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        commit(&t);
        CHECK_BOUNDS(t, 4, 0, 4, 0, 4);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));
        /* the same with the legacy constructor, and at a negative displacement */
        d[1] = -29;
        CHECK_OK(MPI_Type_struct(2, b, d, ty, &t));
        CHECK_BOUNDS(t, 4, 0, 4, 0, 4);
        CHECK_OK(MPI_Type_free(&t));
        /* a blocklength of 0: no entries, no bounds, and no alignment (the double is absent) */
        b[1] = 0;
        d[1] = 29;
        ty[1] = MPI_DOUBLE;
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        commit(&t);
        CHECK_BOUNDS(t, 4, 0, 4, 0, 4);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));
    }
    /* hindexed with a zero blocklength at 1000 */
    {
        int b[2] = {0, 1};
        MPI_Aint d[2] = {1000, 0};
        CHECK_OK(MPI_Type_create_hindexed(2, b, d, MPI_INT, &t));
        CHECK_BOUNDS(t, 4, 0, 4, 0, 4);
        CHECK_OK(MPI_Type_free(&t));
    }

    /* a resized empty type keeps its markers wherever it is replicated */
    CHECK_OK(MPI_Type_create_resized(e, -4, 12, &re));
    commit(&re);
    CHECK_BOUNDS(re, 0, -4, 12, 0, 0);
    {
        int b[2] = {1, 1};
        MPI_Aint d[2] = {0, 100};
        MPI_Datatype ty[2];
        static const check_entry map[] = {{0, 4}};
        ty[0] = MPI_INT;
        ty[1] = re;
        /* markers lb 96, ub 108 from the resized empty member; the int does not count */
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        commit(&t);
        CHECK_BOUNDS(t, 4, 96, 12, 0, 4);
        CHECK_TYPEMAP(t, 1, map);
        CHECK_OK(MPI_Type_free(&t));
    }
    CHECK_OK(MPI_Type_contiguous(3, re, &t));
    /* lb markers at -4, 8, 20; ub markers at 8, 20, 32 */
    CHECK_BOUNDS(t, 0, -4, 36, 0, 0);
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_vector(2, 1, -2, re, &t));
    /* copies at 0 and -24: lb -28, ub 8 */
    CHECK_BOUNDS(t, 0, -28, 36, 0, 0);
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_free(&re));
    CHECK_OK(MPI_Type_free(&e));
}

static void test_alignment(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, n = MPI_DATATYPE_NULL;
    int b[2] = {1, 1};
    MPI_Datatype ty[2];

    /* {int at 0, char at 4}: span 5, rounded to 8 */
    {
        MPI_Aint d[2] = {0, 4};
        static const check_entry map[] = {{0, 4}, {4, 1}};
        static const check_entry map3[] = {{0, 4}, {4, 1}, {8, 4}, {12, 1}, {16, 4}, {20, 1}};
        ty[0] = MPI_INT;
        ty[1] = MPI_CHAR;
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        commit(&t);
        CHECK_BOUNDS(t, 5, 0, 8, 0, 5);
        CHECK_TYPEMAP(t, 3, map);
        CHECK_OK(MPI_Type_contiguous(3, t, &n));
        commit(&n);
        CHECK_BOUNDS(n, 15, 0, 24, 0, 21);
        CHECK_TYPEMAP(n, 1, map3);
        CHECK_OK(MPI_Type_free(&n));
        CHECK_OK(MPI_Type_free(&t));
    }
    /* {char at 0, double at 8}: 16 */
    {
        MPI_Aint d[2] = {0, 8};
        ty[0] = MPI_CHAR;
        ty[1] = MPI_DOUBLE;
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        CHECK_BOUNDS(t, 9, 0, 16, 0, 16);
        CHECK_OK(MPI_Type_free(&t));
    }
    /* {short at 0, char at 2}: alignment 2, span 3 rounded to 4 */
    {
        MPI_Aint d[2] = {0, 2};
        ty[0] = MPI_SHORT;
        ty[1] = MPI_CHAR;
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        CHECK_BOUNDS(t, 3, 0, 4, 0, 3);
        CHECK_OK(MPI_Type_free(&t));
    }
    /* chars only: no padding */
    {
        MPI_Aint d[2] = {0, 4};
        ty[0] = MPI_CHAR;
        ty[1] = MPI_CHAR;
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        CHECK_BOUNDS(t, 2, 0, 5, 0, 5);
        CHECK_OK(MPI_Type_free(&t));
    }
    /* vector of {int, char}: the flattened map {0..21} rounded to 24 */
    {
        MPI_Aint d[2] = {0, 4};
        ty[0] = MPI_INT;
        ty[1] = MPI_CHAR;
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        CHECK_OK(MPI_Type_vector(2, 1, 2, t, &n));
        CHECK_BOUNDS(n, 10, 0, 24, 0, 21);
        CHECK_OK(MPI_Type_free(&n));
        CHECK_OK(MPI_Type_free(&t));
    }

    /* the predefined pair types have the type maps of the C structs they stand for */
    {
        static const check_entry di[] = {{0, 8}, {8, 4}};
        static const check_entry si[] = {{0, 2}, {4, 4}};
        static const check_entry ldi[] = {{0, 16}, {16, 4}};
        static const check_entry fi[] = {{0, 4}, {4, 4}};
        static const check_entry li[] = {{0, 8}, {8, 4}};
        static const check_entry ii[] = {{0, 4}, {4, 4}};
        static const check_entry di2[] = {{0, 8}, {8, 4}, {16, 8}, {24, 4}};
        CHECK_BOUNDS(MPI_DOUBLE_INT, 12, 0, 16, 0, 12);
        CHECK_TYPEMAP(MPI_DOUBLE_INT, 2, di);
        CHECK_BOUNDS(MPI_SHORT_INT, 6, 0, 8, 0, 8);
        CHECK_TYPEMAP(MPI_SHORT_INT, 2, si);
        CHECK_BOUNDS(MPI_LONG_DOUBLE_INT, 20, 0, 32, 0, 20);
        CHECK_TYPEMAP(MPI_LONG_DOUBLE_INT, 2, ldi);
        CHECK_BOUNDS(MPI_FLOAT_INT, 8, 0, 8, 0, 8);
        CHECK_TYPEMAP(MPI_FLOAT_INT, 2, fi);
        CHECK_BOUNDS(MPI_LONG_INT, 12, 0, 16, 0, 12);
        CHECK_TYPEMAP(MPI_LONG_INT, 2, li);
        CHECK_BOUNDS(MPI_2INT, 8, 0, 8, 0, 8);
        CHECK_TYPEMAP(MPI_2INT, 2, ii);

        CHECK_OK(MPI_Type_contiguous(2, MPI_DOUBLE_INT, &n));
        commit(&n);
        CHECK_BOUNDS(n, 24, 0, 32, 0, 28);
        CHECK_TYPEMAP(n, 1, di2);
        CHECK_OK(MPI_Type_free(&n));

        {
            int b2[1] = {2};
            MPI_Aint d2[1] = {0};
            MPI_Datatype t2[1] = {MPI_SHORT_INT};
            CHECK_OK(MPI_Type_create_struct(1, b2, d2, t2, &n));
            CHECK_BOUNDS(n, 12, 0, 16, 0, 16);
            CHECK_OK(MPI_Type_free(&n));
        }
    }

    /* padding is computed on the flattened type map, not inherited from a child's extent:
       {(char, 0), (MPI_DOUBLE_INT, 4)} flattens to {(char,0),(double,4),(int,12)}: span 16,
       already a multiple of 8 (inheriting the child's ub 4 + 16 = 20 would give 24) */
    {
        MPI_Aint d[2] = {0, 4};
        static const check_entry map[] = {{0, 1}, {4, 8}, {12, 4}};
        ty[0] = MPI_CHAR;
        ty[1] = MPI_DOUBLE_INT;
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        commit(&t);
        CHECK_BOUNDS(t, 13, 0, 16, 0, 16);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));
    }
    /* {(char, 0), (type1, 4)} with type1 = {(double,0),(char,8)}: flattened span 13 -> 16 */
    {
        MPI_Aint d1[2] = {0, 8};
        MPI_Aint d[2] = {0, 4};
        MPI_Datatype type1 = MPI_DATATYPE_NULL;
        ty[0] = MPI_DOUBLE;
        ty[1] = MPI_CHAR;
        CHECK_OK(MPI_Type_create_struct(2, b, d1, ty, &type1));
        ty[0] = MPI_CHAR;
        ty[1] = type1;
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        CHECK_BOUNDS(t, 10, 0, 16, 0, 13);
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_free(&type1));
    }
}

/* Every basic C type pads to its C alignment: {(T, 0), (char, sizeof T)} has extent
   sizeof T + 1 rounded up to alignof(T) (docs/semantics.md: "using the x86-64 C
   alignments (`alignof`: ...)"). */
#define ALIGN_CASE(mpi, ctype) {mpi, #mpi, (long)sizeof(ctype), (long)_Alignof(ctype)}
static void test_basic_alignments(void)
{
    static const struct {
        MPI_Datatype type;
        const char *name;
        long size;
        long align;
    } cases[] = {
        ALIGN_CASE(MPI_CHAR, char),
        ALIGN_CASE(MPI_SIGNED_CHAR, signed char),
        ALIGN_CASE(MPI_UNSIGNED_CHAR, unsigned char),
        ALIGN_CASE(MPI_SHORT, short),
        ALIGN_CASE(MPI_UNSIGNED_SHORT, unsigned short),
        ALIGN_CASE(MPI_INT, int),
        ALIGN_CASE(MPI_UNSIGNED, unsigned),
        ALIGN_CASE(MPI_LONG, long),
        ALIGN_CASE(MPI_UNSIGNED_LONG, unsigned long),
        ALIGN_CASE(MPI_LONG_LONG_INT, long long),
        ALIGN_CASE(MPI_UNSIGNED_LONG_LONG, unsigned long long),
        ALIGN_CASE(MPI_FLOAT, float),
        ALIGN_CASE(MPI_DOUBLE, double),
        ALIGN_CASE(MPI_LONG_DOUBLE, long double),
        ALIGN_CASE(MPI_WCHAR, wchar_t),
        ALIGN_CASE(MPI_C_BOOL, _Bool),
        ALIGN_CASE(MPI_INT8_T, int8_t),
        ALIGN_CASE(MPI_INT16_T, int16_t),
        ALIGN_CASE(MPI_INT32_T, int32_t),
        ALIGN_CASE(MPI_INT64_T, int64_t),
        ALIGN_CASE(MPI_UINT8_T, uint8_t),
        ALIGN_CASE(MPI_UINT16_T, uint16_t),
        ALIGN_CASE(MPI_UINT32_T, uint32_t),
        ALIGN_CASE(MPI_UINT64_T, uint64_t),
        ALIGN_CASE(MPI_C_FLOAT_COMPLEX, float _Complex),
        ALIGN_CASE(MPI_C_DOUBLE_COMPLEX, double _Complex),
        ALIGN_CASE(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
        ALIGN_CASE(MPI_AINT, MPI_Aint),
        ALIGN_CASE(MPI_OFFSET, MPI_Offset),
        ALIGN_CASE(MPI_COUNT, MPI_Count),
    };
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        int b[2] = {1, 1};
        MPI_Aint d[2];
        MPI_Datatype ty[2];
        long span = cases[k].size + 1;
        long extent = (span + cases[k].align - 1) / cases[k].align * cases[k].align;
        int failures = *check_failure_counter();
        d[0] = 0;
        d[1] = cases[k].size;
        ty[0] = cases[k].type;
        ty[1] = MPI_CHAR;
        /* the type alone: size = extent = sizeof */
        CHECK_BOUNDS(cases[k].type, cases[k].size, 0, cases[k].size, 0, cases[k].size);
        CHECK_OK(MPI_Type_create_struct(2, b, d, ty, &t));
        CHECK_BOUNDS(t, span, 0, extent, 0, span);
        CHECK_OK(MPI_Type_free(&t));
        if (*check_failure_counter() != failures) {
            printf("  (alignment case %s: sizeof %ld, alignof %ld)\n", cases[k].name,
                   cases[k].size, cases[k].align);
        }
    }
}

/* Subarray and darray end in a resize to [0, product of sizes * extent of oldtype), whatever
   the lb of oldtype (docs/semantics.md; the standard defines them through MPI_TYPE_CREATE_RESIZED). */
static void test_subarray_darray_bounds(void)
{
    MPI_Datatype r = MPI_DATATYPE_NULL, t = MPI_DATATYPE_NULL;
    static const check_entry map[] = {{8, 4}};
    /* r: an int with lb -4 and extent 8 */
    CHECK_OK(MPI_Type_create_resized(MPI_INT, -4, 8, &r));
    {
        int sizes[1] = {3}, subsizes[1] = {1}, starts[1] = {1};
        CHECK_OK(MPI_Type_create_subarray(1, sizes, subsizes, starts, MPI_ORDER_C, r, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 4, 0, 24, 8, 4);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));
    }
    {
        int gsizes[1] = {3}, distribs[1] = {MPI_DISTRIBUTE_BLOCK};
        int dargs[1] = {1}, psizes[1] = {3};
        CHECK_OK(MPI_Type_create_darray(3, 1, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                        r, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 4, 0, 24, 8, 4);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));
    }
    CHECK_OK(MPI_Type_free(&r));
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    test_least_lb_greatest_ub();
    test_sticky_markers();
    test_resized_erases_markers();
    test_empty_types();
    test_alignment();
    test_basic_alignments();
    test_subarray_darray_bounds();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
