/*
 * test_pack.c: MPI_Pack / MPI_Unpack round trips (count > 1, several calls sharing one
 * buffer and one position, negative strides, overlapping type maps, MPI_BOTTOM with absolute
 * addresses, the _c variants), MPI_Pack_size, the external32 representation
 * (MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size), and MPI_Get_count /
 * MPI_Get_elements on a status set with MPI_Status_set_elements.
 */
#include "check.h"

/* type1 = {(double, 0), (char, 8)}: extent 16, size 9 */
static MPI_Datatype make_type1(void)
{
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK_OK(MPI_Type_create_struct(2, bl, disp, types, &t));
    CHECK_OK(MPI_Type_commit(&t));
    return t;
}

typedef struct {
    double d;
    char c;
} dc_t; /* the C struct type1 describes */

static void test_count_many(void)
{
    MPI_Datatype v = MPI_DATATYPE_NULL;
    int src[40], dst[40], i, position = 0, size = 0;
    unsigned char buf[256];
    /* vector(3, 2, 4, int): ints {0,1,4,5,8,9}, extent 40 bytes (10 ints) */
    CHECK_OK(MPI_Type_vector(3, 2, 4, MPI_INT, &v));
    CHECK_OK(MPI_Type_commit(&v));
    for (i = 0; i < 40; ++i) {
        src[i] = 1000 + i;
        dst[i] = 0;
    }
    CHECK_OK(MPI_Pack_size(3, v, MPI_COMM_WORLD, &size));
    CHECK_EQ_LONG(size, 3 * 24);
    CHECK_OK(MPI_Pack(src, 3, v, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 72);
    {
        int packed[18];
        memcpy(packed, buf, sizeof packed);
        CHECK_EQ_LONG(packed[0], 1000);
        CHECK_EQ_LONG(packed[1], 1001);
        CHECK_EQ_LONG(packed[2], 1004);
        CHECK_EQ_LONG(packed[5], 1009);
        CHECK_EQ_LONG(packed[6], 1010);
        CHECK_EQ_LONG(packed[17], 1029);
    }
    position = 0;
    CHECK_OK(MPI_Unpack(buf, 72, &position, dst, 3, v, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 72);
    for (i = 0; i < 40; ++i) {
        int in_map = i < 30 && (i % 10) % 4 < 2;
        if (!CHECK_EQ_LONG(dst[i], in_map ? src[i] : 0)) {
            printf("  (index %d)\n", i);
        }
    }
    CHECK_OK(MPI_Type_free(&v));
}

static void test_position_sequence(void)
{
    MPI_Datatype v = MPI_DATATYPE_NULL, type1 = make_type1();
    unsigned char buf[256];
    int n = 42, arr[6] = {1, 2, 3, 4, 5, 6};
    double dd[2] = {3.25, -1.0 / 3.0};
    dc_t s[2] = {{2.5, 'x'}, {-7.125, 'y'}};
    int n2 = 0, arr2[6] = {0, 0, 0, 0, 0, 0};
    double dd2[2] = {0, 0};
    dc_t s2[2];
    int position = 0, total = 0, sz = 0;

    memset(s2, 0, sizeof s2);
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &v));
    CHECK_OK(MPI_Type_commit(&v));

    CHECK_OK(MPI_Pack(&n, 1, MPI_INT, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 4);
    CHECK_OK(MPI_Pack(arr, 1, v, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 16);
    CHECK_OK(MPI_Pack(dd, 2, MPI_DOUBLE, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 32);
    CHECK_OK(MPI_Pack(s, 2, type1, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 50);

    CHECK_OK(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &sz));
    total += sz;
    CHECK_OK(MPI_Pack_size(1, v, MPI_COMM_WORLD, &sz));
    total += sz;
    CHECK_OK(MPI_Pack_size(2, MPI_DOUBLE, MPI_COMM_WORLD, &sz));
    total += sz;
    CHECK_OK(MPI_Pack_size(2, type1, MPI_COMM_WORLD, &sz));
    total += sz;
    CHECK_EQ_LONG(total, 50);

    position = 0;
    CHECK_OK(MPI_Unpack(buf, 50, &position, &n2, 1, MPI_INT, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 4);
    CHECK_OK(MPI_Unpack(buf, 50, &position, arr2, 1, v, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 16);
    CHECK_OK(MPI_Unpack(buf, 50, &position, dd2, 2, MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 32);
    CHECK_OK(MPI_Unpack(buf, 50, &position, s2, 2, type1, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 50);

    CHECK_EQ_LONG(n2, 42);
    CHECK_EQ_LONG(arr2[0], 1);
    CHECK_EQ_LONG(arr2[1], 0);
    CHECK_EQ_LONG(arr2[2], 3);
    CHECK_EQ_LONG(arr2[3], 0);
    CHECK_EQ_LONG(arr2[4], 5);
    CHECK_EQ_LONG(arr2[5], 0);
    CHECK(dd2[0] == dd[0]);
    CHECK(dd2[1] == dd[1]);
    CHECK(s2[0].d == 2.5);
    CHECK_EQ_LONG(s2[0].c, 'x');
    CHECK(s2[1].d == -7.125);
    CHECK_EQ_LONG(s2[1].c, 'y');

    /* the same with the _c variants and an MPI_Count position */
    {
        MPI_Count cpos = 0, csz = 0, ctotal = 0;
        memset(buf, 0, sizeof buf);
        CHECK_OK(MPI_Pack_c(&n, 1, MPI_INT, buf, (MPI_Count)sizeof buf, &cpos, MPI_COMM_WORLD));
        CHECK_OK(MPI_Pack_c(arr, 1, v, buf, (MPI_Count)sizeof buf, &cpos, MPI_COMM_WORLD));
        CHECK_OK(MPI_Pack_c(dd, 2, MPI_DOUBLE, buf, (MPI_Count)sizeof buf, &cpos,
                            MPI_COMM_WORLD));
        CHECK_OK(MPI_Pack_c(s, 2, type1, buf, (MPI_Count)sizeof buf, &cpos, MPI_COMM_WORLD));
        CHECK_EQ_LONG(cpos, 50);
        CHECK_OK(MPI_Pack_size_c(2, type1, MPI_COMM_WORLD, &csz));
        CHECK_EQ_LONG(csz, 18);
        ctotal += csz;
        CHECK_OK(MPI_Pack_size_c(1, v, MPI_COMM_WORLD, &csz));
        CHECK_EQ_LONG(csz, 12);
        ctotal += csz;
        CHECK_EQ_LONG(ctotal, 30);

        n2 = 0;
        memset(arr2, 0, sizeof arr2);
        memset(dd2, 0, sizeof dd2);
        memset(s2, 0, sizeof s2);
        cpos = 0;
        CHECK_OK(MPI_Unpack_c(buf, 50, &cpos, &n2, 1, MPI_INT, MPI_COMM_WORLD));
        CHECK_OK(MPI_Unpack_c(buf, 50, &cpos, arr2, 1, v, MPI_COMM_WORLD));
        CHECK_OK(MPI_Unpack_c(buf, 50, &cpos, dd2, 2, MPI_DOUBLE, MPI_COMM_WORLD));
        CHECK_OK(MPI_Unpack_c(buf, 50, &cpos, s2, 2, type1, MPI_COMM_WORLD));
        CHECK_EQ_LONG(cpos, 50);
        CHECK_EQ_LONG(n2, 42);
        CHECK_EQ_LONG(arr2[4], 5);
        CHECK_EQ_LONG(arr2[5], 0);
        CHECK(dd2[1] == dd[1]);
        CHECK(s2[1].d == -7.125);
        CHECK_EQ_LONG(s2[1].c, 'y');
    }
    CHECK_OK(MPI_Type_free(&v));
    CHECK_OK(MPI_Type_free(&type1));
}

static void test_negative_stride(void)
{
    MPI_Datatype v = MPI_DATATYPE_NULL;
    double arr[16], dst[16], packed[6];
    unsigned char buf[128];
    int i, position = 0;
    for (i = 0; i < 16; ++i) {
        arr[i] = i + 0.5;
        dst[i] = -1;
    }
    /* vector(3, 1, -3, double): elements 0, -3, -6; lb -48, extent 56 (7 doubles) */
    CHECK_OK(MPI_Type_vector(3, 1, -3, MPI_DOUBLE, &v));
    CHECK_OK(MPI_Type_commit(&v));
    CHECK_BOUNDS(v, 24, -48, 56, -48, 56);
    CHECK_OK(MPI_Pack(&arr[6], 2, v, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 48);
    memcpy(packed, buf, sizeof packed);
    CHECK(packed[0] == 6.5);
    CHECK(packed[1] == 3.5);
    CHECK(packed[2] == 0.5);
    CHECK(packed[3] == 13.5);
    CHECK(packed[4] == 10.5);
    CHECK(packed[5] == 7.5);
    position = 0;
    CHECK_OK(MPI_Unpack(buf, 48, &position, &dst[6], 2, v, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 48);
    for (i = 0; i < 16; ++i) {
        int in_map = i == 0 || i == 3 || i == 6 || i == 7 || i == 10 || i == 13;
        if (!CHECK(dst[i] == (in_map ? arr[i] : -1))) {
            printf("  (index %d: %g)\n", i, dst[i]);
        }
    }
    CHECK_OK(MPI_Type_free(&v));

    /* hvector with a negative byte stride over a derived child */
    {
        MPI_Datatype type1 = make_type1(), h = MPI_DATATYPE_NULL;
        dc_t s[4] = {{1.0, 'a'}, {2.0, 'b'}, {3.0, 'c'}, {4.0, 'd'}}, s2[4];
        memset(s2, 0, sizeof s2);
        CHECK_OK(MPI_Type_create_hvector(2, 1, -2 * (MPI_Aint)sizeof(dc_t), type1, &h));
        CHECK_OK(MPI_Type_commit(&h));
        position = 0;
        CHECK_OK(MPI_Pack(&s[3], 1, h, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
        CHECK_EQ_LONG(position, 18);
        {
            double d0, d1;
            memcpy(&d0, buf, 8);
            memcpy(&d1, buf + 9, 8);
            CHECK(d0 == 4.0);
            CHECK_EQ_LONG(buf[8], 'd');
            CHECK(d1 == 2.0);
            CHECK_EQ_LONG(buf[17], 'b');
        }
        position = 0;
        CHECK_OK(MPI_Unpack(buf, 18, &position, &s2[3], 1, h, MPI_COMM_WORLD));
        CHECK(s2[3].d == 4.0);
        CHECK(s2[1].d == 2.0);
        CHECK_EQ_LONG(s2[1].c, 'b');
        CHECK(s2[2].d == 0.0);
        CHECK(s2[0].d == 0.0);
        CHECK_OK(MPI_Type_free(&h));
        CHECK_OK(MPI_Type_free(&type1));
    }
}

static void test_overlap(void)
{
    MPI_Datatype h = MPI_DATATYPE_NULL;
    int a[8] = {10, 11, 12, 13, 14, 15, 16, 17};
    int b[2] = {3, 3};
    MPI_Aint d[2] = {0, 4};
    int packed[6], out[6], position = 0, size = 0;
    unsigned char buf[64];
    /* blocks [0, 12) and [4, 16) overlap: packing reads the shared ints twice */
    CHECK_OK(MPI_Type_create_hindexed(2, b, d, MPI_INT, &h));
    CHECK_OK(MPI_Type_commit(&h));
    CHECK_BOUNDS(h, 24, 0, 16, 0, 16);
    CHECK_OK(MPI_Pack_size(1, h, MPI_COMM_WORLD, &size));
    CHECK_EQ_LONG(size, 24);
    CHECK_OK(MPI_Pack(a, 1, h, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 24);
    memcpy(packed, buf, sizeof packed);
    CHECK_EQ_LONG(packed[0], 10);
    CHECK_EQ_LONG(packed[1], 11);
    CHECK_EQ_LONG(packed[2], 12);
    CHECK_EQ_LONG(packed[3], 11);
    CHECK_EQ_LONG(packed[4], 12);
    CHECK_EQ_LONG(packed[5], 13);
    /* two copies 16 bytes apart */
    position = 0;
    CHECK_OK(MPI_Pack(a, 2, h, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 48);
    memcpy(packed, buf + 24, sizeof packed);
    CHECK_EQ_LONG(packed[0], 14);
    CHECK_EQ_LONG(packed[5], 17);
    /* the packed data unpacks as 6 contiguous ints */
    position = 0;
    CHECK_OK(MPI_Unpack(buf, 24, &position, out, 6, MPI_INT, MPI_COMM_WORLD));
    CHECK_EQ_LONG(out[3], 11);
    CHECK_OK(MPI_Type_free(&h));

    /* a vector with stride 0: every block at the same place */
    {
        MPI_Datatype z = MPI_DATATYPE_NULL;
        CHECK_OK(MPI_Type_vector(3, 1, 0, MPI_INT, &z));
        CHECK_OK(MPI_Type_commit(&z));
        CHECK_BOUNDS(z, 12, 0, 4, 0, 4);
        position = 0;
        CHECK_OK(MPI_Pack(a, 2, z, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
        CHECK_EQ_LONG(position, 24);
        memcpy(packed, buf, sizeof packed);
        CHECK_EQ_LONG(packed[0], 10);
        CHECK_EQ_LONG(packed[2], 10);
        CHECK_EQ_LONG(packed[3], 11);
        CHECK_EQ_LONG(packed[5], 11);
        CHECK_OK(MPI_Type_free(&z));
    }
    /* a struct naming the same int twice */
    {
        int bl[2] = {1, 1};
        MPI_Aint sd[2] = {4, 4};
        MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
        MPI_Datatype s = MPI_DATATYPE_NULL;
        CHECK_OK(MPI_Type_create_struct(2, bl, sd, ty, &s));
        CHECK_OK(MPI_Type_commit(&s));
        CHECK_BOUNDS(s, 8, 4, 4, 4, 4);
        position = 0;
        CHECK_OK(MPI_Pack(a, 1, s, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
        CHECK_EQ_LONG(position, 8);
        memcpy(packed, buf, 8);
        CHECK_EQ_LONG(packed[0], 11);
        CHECK_EQ_LONG(packed[1], 11);
        CHECK_OK(MPI_Type_free(&s));
    }
}

static void test_bottom(void)
{
    int x = 7;
    double y[2] = {1.5, -2.25};
    char c = 'q';
    int x2 = 0;
    double y2[2] = {0, 0};
    char c2 = 0;
    int bl[3] = {1, 2, 1};
    MPI_Aint disp[3], base;
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype s = MPI_DATATYPE_NULL, s2 = MPI_DATATYPE_NULL, rel = MPI_DATATYPE_NULL;
    unsigned char buf[64], expected[21];
    int position = 0;

    CHECK_OK(MPI_Get_address(&x, &disp[0]));
    CHECK_OK(MPI_Get_address(y, &disp[1]));
    CHECK_OK(MPI_Get_address(&c, &disp[2]));
    CHECK_EQ_LONG(disp[0], (MPI_Aint)(uintptr_t)&x);
    CHECK_OK(MPI_Type_create_struct(3, bl, disp, ty, &s));
    CHECK_OK(MPI_Type_commit(&s));
    CHECK_OK(MPI_Pack(MPI_BOTTOM, 1, s, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 21);
    memcpy(expected, &x, 4);
    memcpy(expected + 4, y, 16);
    expected[20] = (unsigned char)c;
    CHECK_EQ_MEM(buf, expected, 21);

    /* unpack into other variables through MPI_BOTTOM */
    CHECK_OK(MPI_Get_address(&x2, &disp[0]));
    CHECK_OK(MPI_Get_address(y2, &disp[1]));
    CHECK_OK(MPI_Get_address(&c2, &disp[2]));
    CHECK_OK(MPI_Type_create_struct(3, bl, disp, ty, &s2));
    CHECK_OK(MPI_Type_commit(&s2));
    position = 0;
    CHECK_OK(MPI_Unpack(buf, 21, &position, MPI_BOTTOM, 1, s2, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 21);
    CHECK_EQ_LONG(x2, 7);
    CHECK(y2[0] == 1.5);
    CHECK(y2[1] == -2.25);
    CHECK_EQ_LONG(c2, 'q');

    /* the same layout relative to &x, built with MPI_Aint_diff */
    CHECK_OK(MPI_Get_address(&x, &base));
    CHECK_OK(MPI_Get_address(&x, &disp[0]));
    CHECK_OK(MPI_Get_address(y, &disp[1]));
    CHECK_OK(MPI_Get_address(&c, &disp[2]));
    disp[0] = MPI_Aint_diff(disp[0], base);
    disp[1] = MPI_Aint_diff(disp[1], base);
    disp[2] = MPI_Aint_diff(disp[2], base);
    CHECK_EQ_LONG(disp[0], 0);
    CHECK_EQ_LONG(MPI_Aint_add(base, disp[1]), (MPI_Aint)(uintptr_t)y);
    CHECK_OK(MPI_Type_create_struct(3, bl, disp, ty, &rel));
    CHECK_OK(MPI_Type_commit(&rel));
    memset(buf, 0, sizeof buf);
    position = 0;
    CHECK_OK(MPI_Pack(&x, 1, rel, buf, (int)sizeof buf, &position, MPI_COMM_WORLD));
    CHECK_EQ_MEM(buf, expected, 21);

    CHECK_OK(MPI_Type_free(&rel));
    CHECK_OK(MPI_Type_free(&s2));
    CHECK_OK(MPI_Type_free(&s));
}

static void test_pack_size(void)
{
    MPI_Datatype type1 = make_type1(), v = MPI_DATATYPE_NULL, e = MPI_DATATYPE_NULL;
    MPI_Datatype m = MPI_DATATYPE_NULL;
    struct {
        MPI_Datatype t;
        long size;
    } cases[6];
    int k, counts[4] = {0, 1, 3, 1000};
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI_Type_struct: not in the standard ABI */
    MPI_Aint md[3] = {-8, 0, 100};
    int mb[3] = {1, 1, 1};
    MPI_Datatype mt[3] = {MPI_LB, MPI_INT, MPI_UB};
#endif

    CHECK_OK(MPI_Type_vector(3, 2, 4, MPI_SHORT, &v));
    CHECK_OK(MPI_Type_contiguous(0, MPI_DOUBLE, &e));
    /* an int between markers at -8 and 100 (a resize where there are no MPI_LB / MPI_UB) */
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI_Type_struct: not in the standard ABI */
    CHECK_OK(MPI_Type_struct(3, mb, md, mt, &m));
#else
    CHECK_OK(MPI_Type_create_resized(MPI_INT, -8, 108, &m));
#endif
    cases[0].t = MPI_INT;
    cases[0].size = 4;
    cases[1].t = MPI_DOUBLE_INT;
    cases[1].size = 12;
    cases[2].t = type1;
    cases[2].size = 9;
    cases[3].t = v;
    cases[3].size = 12;
    cases[4].t = e;
    cases[4].size = 0;
    cases[5].t = m;
    cases[5].size = 4;
    for (k = 0; k < 6; ++k) {
        int j;
        for (j = 0; j < 4; ++j) {
            int size = -1;
            MPI_Count csize = -1;
            CHECK_OK(MPI_Pack_size(counts[j], cases[k].t, MPI_COMM_WORLD, &size));
            CHECK_EQ_LONG(size, counts[j] * cases[k].size);
            CHECK_OK(MPI_Pack_size_c(counts[j], cases[k].t, MPI_COMM_WORLD, &csize));
            CHECK_EQ_LONG(csize, counts[j] * cases[k].size);
        }
    }
    /* a large-count size */
    {
        MPI_Count csize = -1;
        CHECK_OK(MPI_Pack_size_c((MPI_Count)1 << 33, MPI_INT, MPI_COMM_WORLD, &csize));
        CHECK_EQ_LONG(csize, (MPI_Count)1 << 35);
    }
    CHECK_OK(MPI_Type_free(&m));
    CHECK_OK(MPI_Type_free(&e));
    CHECK_OK(MPI_Type_free(&v));
    CHECK_OK(MPI_Type_free(&type1));
}

static void test_external32(void)
{
    unsigned char buf[128];
    MPI_Aint position = 0, size = -1;

    /* sizes in external32: int 4, long 4, double 8, no padding */
    CHECK_OK(MPI_Pack_external_size("external32", 1, MPI_INT, &size));
    CHECK_EQ_LONG(size, 4);
    CHECK_OK(MPI_Pack_external_size("external32", 3, MPI_LONG, &size));
    CHECK_EQ_LONG(size, 12);
    CHECK_OK(MPI_Pack_external_size("external32", 2, MPI_DOUBLE, &size));
    CHECK_EQ_LONG(size, 16);
    CHECK_OK(MPI_Pack_external_size("external32", 5, MPI_SHORT, &size));
    CHECK_EQ_LONG(size, 10);
    CHECK_OK(MPI_Pack_external_size("external32", 1, MPI_UNSIGNED_LONG, &size));
    CHECK_EQ_LONG(size, 4);
    CHECK_OK(MPI_Pack_external_size("external32", 1, MPI_LONG_LONG, &size));
    CHECK_EQ_LONG(size, 8);
    CHECK_OK(MPI_Pack_external_size("external32", 2, MPI_DOUBLE_INT, &size));
    CHECK_EQ_LONG(size, 24);
    CHECK_OK(MPI_Pack_external_size("external32", 1, MPI_LONG_INT, &size));
    CHECK_EQ_LONG(size, 8);
    CHECK_OK(MPI_Pack_external_size("external32", 1, MPI_SHORT_INT, &size));
    CHECK_EQ_LONG(size, 6);
    CHECK_OK(MPI_Pack_external_size("external32", 3, MPI_CHAR, &size));
    CHECK_EQ_LONG(size, 3);
    CHECK_OK(MPI_Pack_external_size("external32", 1, MPI_FLOAT, &size));
    CHECK_EQ_LONG(size, 4);
    /* a derived type: the external sizes of its basic elements, no padding */
    {
        MPI_Datatype type1 = make_type1();
        CHECK_OK(MPI_Pack_external_size("external32", 3, type1, &size));
        CHECK_EQ_LONG(size, 27);
        CHECK_OK(MPI_Type_free(&type1));
    }
    {
        MPI_Datatype lv = MPI_DATATYPE_NULL;
        CHECK_OK(MPI_Type_vector(2, 2, 3, MPI_LONG, &lv));
        CHECK_OK(MPI_Pack_external_size("external32", 2, lv, &size));
        CHECK_EQ_LONG(size, 32);
        CHECK_OK(MPI_Type_free(&lv));
    }
    {
        MPI_Count csize = -1;
        CHECK_OK(MPI_Pack_external_size_c("external32", 3, MPI_LONG, &csize));
        CHECK_EQ_LONG(csize, 12);
    }

    /* int 0x01020304 is 01 02 03 04 (big-endian) */
    {
        int v[2] = {0x01020304, -2};
        int back[2] = {0, 0};
        static const unsigned char expect[8] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe};
        position = 0;
        CHECK_OK(MPI_Pack_external("external32", v, 2, MPI_INT, buf, sizeof buf, &position));
        CHECK_EQ_LONG(position, 8);
        CHECK_EQ_MEM(buf, expect, 8);
        position = 0;
        CHECK_OK(MPI_Unpack_external("external32", buf, 8, &position, back, 2, MPI_INT));
        CHECK_EQ_LONG(position, 8);
        CHECK_EQ_LONG(back[0], 0x01020304);
        CHECK_EQ_LONG(back[1], -2);
    }
    /* double: IEEE 754 big-endian */
    {
        double v[2] = {1.0, -2.5};
        double back[2] = {0, 0};
        static const unsigned char expect[16] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0,
                                                 0xc0, 0x04, 0, 0, 0, 0, 0, 0};
        position = 0;
        CHECK_OK(MPI_Pack_external("external32", v, 2, MPI_DOUBLE, buf, sizeof buf, &position));
        CHECK_EQ_LONG(position, 16);
        CHECK_EQ_MEM(buf, expect, 16);
        position = 0;
        CHECK_OK(MPI_Unpack_external("external32", buf, 16, &position, back, 2, MPI_DOUBLE));
        CHECK(back[0] == 1.0);
        CHECK(back[1] == -2.5);
    }
    /* long: 4 bytes big-endian in external32 */
    {
        long v[4] = {0x01020304L, -5L, 2147483647L, -2147483647L - 1};
        long back[4] = {0, 0, 0, 0};
        static const unsigned char expect[16] = {1,    2,    3,    4,    0xff, 0xff, 0xff, 0xfb,
                                                 0x7f, 0xff, 0xff, 0xff, 0x80, 0,    0,    0};
        position = 0;
        CHECK_OK(MPI_Pack_external("external32", v, 4, MPI_LONG, buf, sizeof buf, &position));
        CHECK_EQ_LONG(position, 16);
        CHECK_EQ_MEM(buf, expect, 16);
        position = 0;
        CHECK_OK(MPI_Unpack_external("external32", buf, 16, &position, back, 4, MPI_LONG));
        CHECK_EQ_LONG(position, 16);
        CHECK_EQ_LONG(back[0], 0x01020304L);
        CHECK_EQ_LONG(back[1], -5L);
        CHECK_EQ_LONG(back[2], 2147483647L);
        CHECK_EQ_LONG(back[3], -2147483647L - 1);
    }
    /* short, and a derived type: each element converted in type-map order */
    {
        short sv = 0x0102;
        int arr[3] = {0x01020304, 99, 0x0a0b0c0d};
        int back[3] = {0, 0, 0};
        MPI_Datatype v = MPI_DATATYPE_NULL;
        static const unsigned char expect[10] = {1, 2, 1, 2, 3, 4, 0x0a, 0x0b, 0x0c, 0x0d};
        CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
        CHECK_OK(MPI_Type_commit(&v));
        position = 0;
        CHECK_OK(MPI_Pack_external("external32", &sv, 1, MPI_SHORT, buf, sizeof buf, &position));
        CHECK_OK(MPI_Pack_external("external32", arr, 1, v, buf, sizeof buf, &position));
        CHECK_EQ_LONG(position, 10);
        CHECK_EQ_MEM(buf, expect, 10);
        sv = 0;
        position = 0;
        CHECK_OK(MPI_Unpack_external("external32", buf, 10, &position, &sv, 1, MPI_SHORT));
        CHECK_OK(MPI_Unpack_external("external32", buf, 10, &position, back, 1, v));
        CHECK_EQ_LONG(position, 10);
        CHECK_EQ_LONG(sv, 0x0102);
        CHECK_EQ_LONG(back[0], 0x01020304);
        CHECK_EQ_LONG(back[1], 0);
        CHECK_EQ_LONG(back[2], 0x0a0b0c0d);
        /* the _c variants */
        {
            MPI_Count cpos = 0, csize = -1;
            memset(buf, 0, sizeof buf);
            CHECK_OK(MPI_Pack_external_size_c("external32", 1, v, &csize));
            CHECK_EQ_LONG(csize, 8);
            CHECK_OK(MPI_Pack_external_c("external32", arr, 1, v, buf, sizeof buf, &cpos));
            CHECK_EQ_LONG(cpos, 8);
            CHECK_EQ_MEM(buf, expect + 2, 8);
            memset(back, 0, sizeof back);
            cpos = 0;
            CHECK_OK(MPI_Unpack_external_c("external32", buf, 8, &cpos, back, 1, v));
            CHECK_EQ_LONG(cpos, 8);
            CHECK_EQ_LONG(back[2], 0x0a0b0c0d);
        }
        CHECK_OK(MPI_Type_free(&v));
    }
    /* MPI_DOUBLE_INT: no padding between the pair's members or the copies */
    {
        struct {
            double d;
            int i;
        } di[2] = {{1.0, 0x01020304}, {-2.5, 7}}, back[2];
        static const unsigned char expect[24] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4,
                                                 0xc0, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7};
        memset(back, 0, sizeof back);
        position = 0;
        CHECK_OK(MPI_Pack_external("external32", di, 2, MPI_DOUBLE_INT, buf, sizeof buf,
                                   &position));
        CHECK_EQ_LONG(position, 24);
        CHECK_EQ_MEM(buf, expect, 24);
        position = 0;
        CHECK_OK(MPI_Unpack_external("external32", buf, 24, &position, back, 2, MPI_DOUBLE_INT));
        CHECK(back[1].d == -2.5);
        CHECK_EQ_LONG(back[1].i, 7);
        CHECK_EQ_LONG(back[0].i, 0x01020304);
    }
}

/*
 * MPI_Status_set_elements: "This procedure modifies the opaque part of status so that a call to
 * MPI_GET_ELEMENTS or MPI_GET_ELEMENTS_X will return count. MPI_GET_COUNT will return a
 * compatible value." (count is a number of basic elements: "The number of elements is set
 * instead of the count because the former can deal with a nonintegral number of datatypes.")
 * Later queries use the datatype given to MPI_Status_set_elements, as the standard requires.
 */
static void test_status_counts(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, s = MPI_DATATYPE_NULL, e = MPI_DATATYPE_NULL;
    MPI_Status status;
    int count = -1;
    MPI_Count ccount = -1;

    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_OK(MPI_Type_commit(&t));
    memset(&status, 0, sizeof status);

    /* a basic type: elements = count */
    CHECK_OK(MPI_Status_set_elements(&status, MPI_INT, 6));
    CHECK_OK(MPI_Get_elements(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 6);
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 6);
    CHECK_OK(MPI_Get_count_c(&status, MPI_INT, &ccount));
    CHECK_EQ_LONG(ccount, 6);
    CHECK_OK(MPI_Get_elements_x(&status, MPI_INT, &ccount));
    CHECK_EQ_LONG(ccount, 6);
    CHECK_OK(MPI_Get_elements_c(&status, MPI_INT, &ccount));
    CHECK_EQ_LONG(ccount, 6);

    /* contiguous(2, int): 4 elements are 2 copies */
    CHECK_OK(MPI_Status_set_elements(&status, t, 4));
    CHECK_OK(MPI_Get_elements(&status, t, &count));
    CHECK_EQ_LONG(count, 4);
    CHECK_OK(MPI_Get_count(&status, t, &count));
    CHECK_EQ_LONG(count, 2);
    CHECK_OK(MPI_Get_count_c(&status, t, &ccount));
    CHECK_EQ_LONG(ccount, 2);
    /* 3 elements are one and a half copies */
    CHECK_OK(MPI_Status_set_elements(&status, t, 3));
    CHECK_OK(MPI_Get_elements(&status, t, &count));
    CHECK_EQ_LONG(count, 3);
    CHECK_OK(MPI_Get_count(&status, t, &count));
    CHECK_EQ_LONG(count, MPI_UNDEFINED);
    CHECK_OK(MPI_Status_set_elements_x(&status, t, 3));
    CHECK_OK(MPI_Get_elements_x(&status, t, &ccount));
    CHECK_EQ_LONG(ccount, 3);
    CHECK_OK(MPI_Get_elements_c(&status, t, &ccount));
    CHECK_EQ_LONG(ccount, 3);

    /* {int, double}: 3 elements are one copy and an int, 4 elements two copies */
    {
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {0, 8};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        CHECK_OK(MPI_Type_create_struct(2, bl, d, ty, &s));
        CHECK_OK(MPI_Type_commit(&s));
        CHECK_OK(MPI_Status_set_elements(&status, s, 3));
        CHECK_OK(MPI_Get_elements(&status, s, &count));
        CHECK_EQ_LONG(count, 3);
        CHECK_OK(MPI_Get_count(&status, s, &count));
        CHECK_EQ_LONG(count, MPI_UNDEFINED);
        CHECK_OK(MPI_Status_set_elements(&status, s, 4));
        CHECK_OK(MPI_Get_elements(&status, s, &count));
        CHECK_EQ_LONG(count, 4);
        CHECK_OK(MPI_Get_count(&status, s, &count));
        CHECK_EQ_LONG(count, 2);
    }

    /* a status holding a byte count, as a receive of bytes leaves it (MPICH's status stores
       the byte count): whole and partial copies of t */
    CHECK_OK(MPI_Status_set_elements(&status, MPI_BYTE, 24));
    CHECK_OK(MPI_Get_count(&status, t, &count));
    CHECK_EQ_LONG(count, 3);
    CHECK_OK(MPI_Get_elements(&status, t, &count));
    CHECK_EQ_LONG(count, 6);
    CHECK_OK(MPI_Status_set_elements(&status, MPI_BYTE, 20));
    CHECK_OK(MPI_Get_count(&status, t, &count));
    CHECK_EQ_LONG(count, MPI_UNDEFINED);
    CHECK_OK(MPI_Get_elements(&status, t, &count));
    CHECK_EQ_LONG(count, 5);
    /* 6 bytes end inside an int */
    CHECK_OK(MPI_Status_set_elements(&status, MPI_BYTE, 6));
    CHECK_OK(MPI_Get_elements(&status, t, &count));
    CHECK_EQ_LONG(count, MPI_UNDEFINED);

    /* large counts through the _x variants */
    CHECK_OK(MPI_Status_set_elements_x(&status, MPI_INT, (MPI_Count)1 << 33));
    CHECK_OK(MPI_Get_elements_x(&status, MPI_INT, &ccount));
    CHECK_EQ_LONG(ccount, (MPI_Count)1 << 33);
    CHECK_OK(MPI_Get_count_c(&status, MPI_INT, &ccount));
    CHECK_EQ_LONG(ccount, (MPI_Count)1 << 33);
    /* "If the number of basic elements received exceeds the limits of the count parameter,
       then MPI_GET_ELEMENTS sets the value of count to MPI_UNDEFINED." */
    count = 0;
    CHECK_OK(MPI_Get_elements(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, MPI_UNDEFINED);
    /* "If the number of entries received exceeds the limits of the count parameter, then
       MPI_GET_COUNT sets the value of count to MPI_UNDEFINED." */
    count = 0;
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, MPI_UNDEFINED);

    /* a zero-size datatype: "If the size of the datatype is zero, this routine will return a
       count of zero." */
    CHECK_OK(MPI_Type_contiguous(0, MPI_INT, &e));
    CHECK_OK(MPI_Type_commit(&e));
    CHECK_OK(MPI_Status_set_elements(&status, e, 0));
    CHECK_OK(MPI_Get_count(&status, e, &count));
    CHECK_EQ_LONG(count, 0);
    CHECK_OK(MPI_Status_set_elements(&status, t, 0));
    CHECK_OK(MPI_Get_count(&status, t, &count));
    CHECK_EQ_LONG(count, 0);
    CHECK_OK(MPI_Get_elements(&status, t, &count));
    CHECK_EQ_LONG(count, 0);

    CHECK_OK(MPI_Type_free(&e));
    CHECK_OK(MPI_Type_free(&s));
    CHECK_OK(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    test_count_many();
    test_position_sequence();
    test_negative_stride();
    test_overlap();
    test_bottom();
    test_pack_size();
    test_external32();
    test_status_counts();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
