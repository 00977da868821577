/* bounds: types whose bounds and extents are where MPI implementations tend to differ
 * (structs with alignment padding, zero-length blocks, empty struct members, lb/ub set by
 * MPI_Type_create_resized inside a struct, MPI_DOUBLE_INT, negative displacements and
 * strides, Fortran-order subarrays, an extent smaller than the data so that items overlap).
 * The standard fixes the type map (displacements and basic types, in order), the size, the
 * true lower bound and true extent, and that item k of a count starts k extents after the
 * buffer; the extent itself may include alignment padding.  So for each type the program
 * checks the size and true extent against the type map written out by hand, reads the
 * extent with MPI_Type_get_extent, and then checks that MPI_Send of 3 items puts exactly the
 * type map's bytes (item k at k * extent) on the wire, that receiving 3 items of the type
 * fills exactly those bytes, and that MPI_Pack + MPI_PACKED + a typed receive round-trips.
 * The true bounds are not checked for the three types where MPICH 4.0.2 gets them wrong (a
 * struct with an empty member or with empty blocks, whose displacements it counts, and a
 * darray whose data do not start at 0, whose true lb it reports as 0). */
#include "check_mpi.h"
#include <stddef.h>
#include <wchar.h>

#define MAXE 16
#define BUF 1024
#define BASE 128 /* bytes before the buffer pointer, for negative displacements */

struct tcase {
    const char *name;
    MPI_Datatype type;
    int n;              /* entries of the type map */
    MPI_Aint disp[MAXE];
    int len[MAXE];
    int overlapping;    /* items overlap: receive checks are skipped */
    int no_true_extent; /* true bounds not checked (see the case) */
};

static void add(struct tcase *t, MPI_Aint d, int len)
{
    t->disp[t->n] = d;
    t->len[t->n] = len;
    t->n++;
}

static unsigned char pattern(int rank, int j) { return (unsigned char)(rank * 37 + j * 11 + 5); }

static int build(struct tcase *tc)
{
    int n = 0, i;
    memset(tc, 0, 32 * sizeof *tc);

    {   /* int, char */
        int bl[2] = {1, 1};
        MPI_Aint dl[2] = {0, 4};
        MPI_Datatype ty[2] = {MPI_INT, MPI_CHAR};
        tc[n].name = "struct {int; char}";
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &tc[n].type));
        add(&tc[n], 0, 4), add(&tc[n], 4, 1);
        n++;
    }
    {   /* double, char */
        int bl[2] = {1, 1};
        MPI_Aint dl[2] = {0, 8};
        MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_CHAR};
        tc[n].name = "struct {double; char}";
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &tc[n].type));
        add(&tc[n], 0, 8), add(&tc[n], 8, 1);
        n++;
    }
    {   /* blocks listed against memory order */
        int bl[2] = {1, 1};
        MPI_Aint dl[2] = {8, 0};
        MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_CHAR};
        tc[n].name = "struct {double at 8; char at 0}";
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &tc[n].type));
        add(&tc[n], 8, 8), add(&tc[n], 0, 1);
        n++;
    }
    {
        int bl[2] = {2, 0}, dl[2] = {0, 10};
        tc[n].name = "indexed with a zero-length last block";
        MPI_CHECK(MPI_Type_indexed(2, bl, dl, MPI_INT, &tc[n].type));
        add(&tc[n], 0, 4), add(&tc[n], 4, 4);
        n++;
    }
    {
        int bl[3] = {0, 1, 2};
        MPI_Aint dl[3] = {-16, 4, 12};
        tc[n].name = "hindexed with a zero-length block at -16";
        MPI_CHECK(MPI_Type_create_hindexed(3, bl, dl, MPI_INT, &tc[n].type));
        add(&tc[n], 4, 4), add(&tc[n], 12, 4), add(&tc[n], 16, 4);
        n++;
    }
    {   /* resized int (lb -4, extent 16) inside a struct */
        MPI_Datatype inner;
        int bl[2] = {1, 1};
        MPI_Aint dl[2] = {8, 24};
        MPI_Datatype ty[2];
        MPI_CHECK(MPI_Type_create_resized(MPI_INT, -4, 16, &inner));
        ty[0] = inner;
        ty[1] = MPI_DOUBLE;
        tc[n].name = "struct {resized int (lb -4, extent 16) at 8; double at 24}";
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &tc[n].type));
        MPI_CHECK(MPI_Type_free(&inner));
        add(&tc[n], 8, 4), add(&tc[n], 24, 8);
        n++;
    }
    {
        MPI_Aint lb, e0;
        MPI_CHECK(MPI_Type_get_extent(MPI_DOUBLE_INT, &lb, &e0));
        tc[n].name = "contiguous(2, MPI_DOUBLE_INT)";
        MPI_CHECK(MPI_Type_contiguous(2, MPI_DOUBLE_INT, &tc[n].type));
        add(&tc[n], 0, 8), add(&tc[n], 8, 4), add(&tc[n], e0, 8), add(&tc[n], e0 + 8, 4);
        n++;
    }
    {   /* a member without data */
        MPI_Datatype empty;
        int bl[3] = {1, 1, 1};
        MPI_Aint dl[3] = {0, 100, 8};
        MPI_Datatype ty[3];
        MPI_CHECK(MPI_Type_contiguous(0, MPI_INT, &empty));
        ty[0] = MPI_INT;
        ty[1] = empty;
        ty[2] = MPI_DOUBLE;
        tc[n].name = "struct {int; empty at 100; double at 8}";
        MPI_CHECK(MPI_Type_create_struct(3, bl, dl, ty, &tc[n].type));
        MPI_CHECK(MPI_Type_free(&empty));
        add(&tc[n], 0, 4), add(&tc[n], 8, 8);
        /* MPICH 4.0.2 counts the empty member's displacement in the true extent (100, not
         * 16); the data placement is still checked */
        tc[n].no_true_extent = 1;
        n++;
    }
    {
        tc[n].name = "hvector(2, 2, -12 bytes, MPI_SHORT)";
        MPI_CHECK(MPI_Type_create_hvector(2, 2, -12, MPI_SHORT, &tc[n].type));
        add(&tc[n], 0, 2), add(&tc[n], 2, 2), add(&tc[n], -12, 2), add(&tc[n], -10, 2);
        n++;
    }
    {   /* extent 4 < the 16 bytes of data: items overlap */
        MPI_Datatype c4;
        MPI_CHECK(MPI_Type_contiguous(4, MPI_INT, &c4));
        tc[n].name = "resized(contiguous(4, MPI_INT), lb 8, extent 4)";
        MPI_CHECK(MPI_Type_create_resized(c4, 8, 4, &tc[n].type));
        MPI_CHECK(MPI_Type_free(&c4));
        for (i = 0; i < 4; i++)
            add(&tc[n], 4 * i, 4);
        tc[n].overlapping = 1;
        n++;
    }
    {   /* a struct inside a struct, neither resized */
        MPI_Datatype ic;
        int bl[2] = {1, 1};
        MPI_Aint dl[2] = {0, 4};
        MPI_Datatype ty[2] = {MPI_INT, MPI_CHAR};
        MPI_Aint dl2[2] = {0, 16};
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &ic));
        ty[0] = ic;
        ty[1] = MPI_SHORT;
        tc[n].name = "struct {struct {int; char}; short at 16}";
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl2, ty, &tc[n].type));
        MPI_CHECK(MPI_Type_free(&ic));
        add(&tc[n], 0, 4), add(&tc[n], 4, 1), add(&tc[n], 16, 2);
        n++;
    }
    {
        int sizes[2] = {4, 3}, subs[2] = {2, 2}, starts[2] = {1, 0};
        tc[n].name = "subarray 4x3 -> 2x2 at (1,0), Fortran order, MPI_SHORT";
        MPI_CHECK(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_SHORT,
                                           &tc[n].type));
        add(&tc[n], 2, 2), add(&tc[n], 4, 2), add(&tc[n], 10, 2), add(&tc[n], 12, 2);
        n++;
    }
    {
        MPI_Datatype v;
        MPI_CHECK(MPI_Type_vector(2, 1, 3, MPI_INT, &v));
        tc[n].name = "resized(vector(2, 1, 3, MPI_INT), lb -8, extent 32)";
        MPI_CHECK(MPI_Type_create_resized(v, -8, 32, &tc[n].type));
        MPI_CHECK(MPI_Type_free(&v));
        add(&tc[n], 0, 4), add(&tc[n], 12, 4);
        n++;
    }
    {   /* an hindexed of a struct with padding: the inner extent decides the stride */
        MPI_Datatype dc;
        int bl[2] = {1, 1}, hb[2] = {2, 1};
        MPI_Aint dl[2] = {0, 8}, hd[2] = {40, 0};
        MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_CHAR};
        MPI_Aint lb, e;
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &dc));
        MPI_CHECK(MPI_Type_get_extent(dc, &lb, &e));
        tc[n].name = "hindexed({2 at 40, 1 at 0}, struct {double; char})";
        MPI_CHECK(MPI_Type_create_hindexed(2, hb, hd, dc, &tc[n].type));
        MPI_CHECK(MPI_Type_free(&dc));
        add(&tc[n], 40, 8), add(&tc[n], 48, 1), add(&tc[n], 40 + e, 8), add(&tc[n], 48 + e, 1);
        add(&tc[n], 0, 8), add(&tc[n], 8, 1);
        n++;
    }
    {   /* data at 26-byte strides: alignment padding outside a struct is where MPICH and
         * the standard's epsilon may differ; only consistency is checked */
        tc[n].name = "hvector(2, 1, 26 bytes, MPI_UINT32_T)";
        MPI_CHECK(MPI_Type_create_hvector(2, 1, 26, MPI_UINT32_T, &tc[n].type));
        add(&tc[n], 0, 4), add(&tc[n], 26, 4);
        n++;
    }
    {   /* markers of a resized member decide the bounds, the int at 0 lies outside them */
        MPI_Datatype r8;
        int bl[2] = {1, 1};
        MPI_Aint dl[2] = {0, -28};
        MPI_Datatype ty[2];
        MPI_CHECK(MPI_Type_create_resized(MPI_INT, 0, 8, &r8));
        ty[0] = MPI_INT;
        ty[1] = r8;
        tc[n].name = "struct {int at 0; resized(MPI_INT, 0, 8) at -28}";
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &tc[n].type));
        MPI_CHECK(MPI_Type_free(&r8));
        add(&tc[n], 0, 4), add(&tc[n], -28, 4);
        n++;
    }
    {
        tc[n].name = "hvector(4, 1, 60 bytes, MPI_DOUBLE_INT)";
        MPI_CHECK(MPI_Type_create_hvector(4, 1, 60, MPI_DOUBLE_INT, &tc[n].type));
        for (i = 0; i < 4; i++)
            add(&tc[n], 60 * i, 8), add(&tc[n], 60 * i + 8, 4);
        n++;
    }
    {   /* a one-element darray of a struct whose data start at 28 */
        MPI_Datatype ll;
        int bl[1] = {3}, gs[1] = {1}, di[1] = {MPI_DISTRIBUTE_CYCLIC}, da[1] = {2}, ps[1] = {1};
        MPI_Aint dl[1] = {28};
        MPI_Datatype ty[1] = {MPI_LONG_LONG};
        MPI_CHECK(MPI_Type_create_struct(1, bl, dl, ty, &ll));
        tc[n].name = "darray(1 element, cyclic(2), Fortran) of struct {3 long long at 28}";
        MPI_CHECK(MPI_Type_create_darray(1, 0, 1, gs, di, da, ps, MPI_ORDER_FORTRAN, ll, &tc[n].type));
        MPI_CHECK(MPI_Type_free(&ll));
        add(&tc[n], 28, 8), add(&tc[n], 36, 8), add(&tc[n], 44, 8);
        /* MPICH 4.0.2 reports true_lb 0 for it */
        tc[n].no_true_extent = 1;
        n++;
    }
    {
        MPI_Aint hd[3] = {22, 24, -4};
        tc[n].name = "hindexed_block(3, 1, {22, 24, -4} bytes, MPI_INT)";
        MPI_CHECK(MPI_Type_create_hindexed_block(3, 1, hd, MPI_INT, &tc[n].type));
        add(&tc[n], 22, 4), add(&tc[n], 24, 4), add(&tc[n], -4, 4);
        tc[n].overlapping = 1; /* bytes 22..28 overlap within one item */
        n++;
    }
    {
        tc[n].name = "hvector(2, 1, -1 byte, MPI_CHAR)";
        MPI_CHECK(MPI_Type_create_hvector(2, 1, -1, MPI_CHAR, &tc[n].type));
        add(&tc[n], 0, 1), add(&tc[n], -1, 1);
        n++;
    }
    {   /* zero-length blocks next to data */
        MPI_Datatype z;
        int bl[2] = {1, 1};
        MPI_Aint dl[2] = {0, 8};
        MPI_Datatype ty[2];
        MPI_CHECK(MPI_Type_vector(3, 0, 4, MPI_BYTE, &z));
        ty[0] = MPI_SHORT;
        ty[1] = z;
        tc[n].name = "struct {short at 0; vector(3, 0, 4, MPI_BYTE) at 8}";
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &tc[n].type));
        MPI_CHECK(MPI_Type_free(&z));
        add(&tc[n], 0, 2);
        tc[n].no_true_extent = 1; /* MPICH 4.0.2 lets the empty blocks move the true bounds */
        n++;
    }
    {   /* many kinds of predefined types in one struct, at their C offsets */
        struct zoo {
            char c;
            long double ld;
            _Bool b;
            wchar_t wc;
            float _Complex fc;
            MPI_Aint a;
            long long ll;
            unsigned short us;
        };
        int bl[8] = {1, 1, 1, 1, 1, 1, 1, 1};
        MPI_Aint dl[8] = {offsetof(struct zoo, c), offsetof(struct zoo, ld), offsetof(struct zoo, b),
                          offsetof(struct zoo, wc), offsetof(struct zoo, fc), offsetof(struct zoo, a),
                          offsetof(struct zoo, ll), offsetof(struct zoo, us)};
        MPI_Datatype ty[8] = {MPI_CHAR, MPI_LONG_DOUBLE, MPI_C_BOOL, MPI_WCHAR, MPI_C_FLOAT_COMPLEX,
                              MPI_AINT, MPI_LONG_LONG, MPI_UNSIGNED_SHORT};
        int sz[8] = {1, (int)sizeof(long double), (int)sizeof(_Bool), (int)sizeof(wchar_t),
                     (int)sizeof(float _Complex), (int)sizeof(MPI_Aint), 8, 2};
        tc[n].name = "struct {char; long double; _Bool; wchar_t; float _Complex; MPI_Aint; long long; unsigned short}";
        MPI_CHECK(MPI_Type_create_struct(8, bl, dl, ty, &tc[n].type));
        for (i = 0; i < 8; i++)
            add(&tc[n], dl[i], sz[i]);
        n++;
    }
    for (i = 0; i < n; i++)
        MPI_CHECK(MPI_Type_commit(&tc[i].type));
    return n;
}

static void run_case(struct tcase *t, int rank)
{
    int prev = (rank + 3) % 4, next = (rank + 1) % 4, i, k, size, want_size = 0, cnt;
    MPI_Aint lb, ext, tlb, text, mn = 0, mx = 0, spos;
    unsigned char *src = malloc(BUF), *dst = malloc(BUF), *stream = malloc(BUF),
                  *wstream = malloc(BUF), *want = malloc(BUF), *packed = malloc(BUF);
    char what[200];
    int pos = 0;
    MPI_Status st;

    for (i = 0; i < t->n; i++) {
        want_size += t->len[i];
        if (i == 0 || t->disp[i] < mn)
            mn = t->disp[i];
        if (i == 0 || t->disp[i] + t->len[i] > mx)
            mx = t->disp[i] + t->len[i];
    }
    MPI_CHECK(MPI_Type_size(t->type, &size));
    snprintf(what, sizeof what, "bounds: size of %s", t->name);
    CHECK_INT(size, want_size, what);
    MPI_CHECK(MPI_Type_get_true_extent(t->type, &tlb, &text));
    if (!t->no_true_extent) {
        snprintf(what, sizeof what, "bounds: true lower bound of %s", t->name);
        CHECK_INT(tlb, mn, what);
        snprintf(what, sizeof what, "bounds: true extent of %s", t->name);
        CHECK_INT(text, mx - mn, what);
    }
    MPI_CHECK(MPI_Type_get_extent(t->type, &lb, &ext));
    if (ext < 0 || ext > 256 || lb < -64 || lb > 64) {
        CHECK(0, "bounds: extent in a sane range", "%s: lb %ld extent %ld", t->name, (long)lb,
              (long)ext);
        goto out;
    }

    /* 1. send 3 items, receive bytes: the type map's bytes, item k at k * extent */
    for (i = 0; i < BUF; i++) {
        src[i] = pattern(rank, i);
        stream[i] = wstream[i] = 0xA5;
    }
    spos = 0;
    for (k = 0; k < 3; k++)
        for (i = 0; i < t->n; i++) {
            memcpy(wstream + spos, src + BASE + k * ext + t->disp[i], t->len[i]);
            /* what the previous rank sends: same positions of its pattern */
            for (pos = 0; pos < t->len[i]; pos++)
                wstream[spos + pos] = pattern(prev, (int)(BASE + k * ext + t->disp[i] + pos));
            spos += t->len[i];
        }
    MPI_CHECK(MPI_Sendrecv(src + BASE, 3, t->type, next, 1, stream, BUF, MPI_BYTE, prev, 1,
                           MPI_COMM_WORLD, &st));
    MPI_CHECK(MPI_Get_count(&st, MPI_BYTE, &cnt));
    snprintf(what, sizeof what, "bounds: bytes sent for 3 items of %s", t->name);
    CHECK_INT(cnt, 3 * want_size, what);
    snprintf(what, sizeof what, "bounds: wire bytes of 3 items of %s", t->name);
    CHECK_BYTES(stream, wstream, BUF, what);

    if (!t->overlapping) {
        /* 2. send bytes, receive 3 items of the type */
        for (i = 0; i < BUF; i++)
            dst[i] = want[i] = 0x5A;
        for (i = 0; i < 3 * want_size; i++)
            stream[i] = pattern(rank, 1000 + i);
        spos = 0;
        for (k = 0; k < 3; k++)
            for (i = 0; i < t->n; i++)
                for (pos = 0; pos < t->len[i]; pos++, spos++)
                    want[BASE + k * ext + t->disp[i] + pos] = pattern(prev, (int)(1000 + spos));
        MPI_CHECK(MPI_Sendrecv(stream, 3 * want_size, MPI_BYTE, next, 2, dst + BASE, 3, t->type,
                               prev, 2, MPI_COMM_WORLD, &st));
        snprintf(what, sizeof what, "bounds: memory after receiving 3 items of %s", t->name);
        CHECK_BYTES(dst, want, BUF, what);
        MPI_CHECK(MPI_Get_count(&st, t->type, &cnt));
        snprintf(what, sizeof what, "bounds: MPI_Get_count of 3 items of %s", t->name);
        CHECK_INT(cnt, 3, what);

        /* 3. MPI_Pack, MPI_PACKED on the wire, typed receive */
        pos = 0;
        MPI_CHECK(MPI_Pack(src + BASE, 3, t->type, packed, BUF, &pos, MPI_COMM_WORLD));
        for (i = 0; i < BUF; i++)
            dst[i] = want[i] = 0x3C;
        for (k = 0; k < 3; k++)
            for (i = 0; i < t->n; i++)
                for (spos = 0; spos < t->len[i]; spos++) {
                    MPI_Aint at = BASE + k * ext + t->disp[i] + spos;
                    want[at] = pattern(prev, (int)at);
                }
        MPI_CHECK(MPI_Sendrecv(packed, pos, MPI_PACKED, next, 3, dst + BASE, 3, t->type, prev, 3,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        snprintf(what, sizeof what, "bounds: MPI_Pack'ed items of %s received with the type", t->name);
        CHECK_BYTES(dst, want, BUF, what);
    }
out:
    free(src);
    free(dst);
    free(stream);
    free(wstream);
    free(want);
    free(packed);
}

int main(int argc, char **argv)
{
    int rank, size, n, i;
    struct tcase tc[32];
    start(&argc, &argv, "bounds", &rank, &size);
    n = build(tc);
    for (i = 0; i < n; i++)
        run_case(&tc[i], rank);
    for (i = 0; i < n; i++)
        MPI_CHECK(MPI_Type_free(&tc[i].type));
    return finish();
}
