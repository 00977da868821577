/*
 * test_seed_examples.c: every worked example of the constructor and extent texts (seeds 001
 * and 002) as a test. Type maps are verified by packing (CHECK_TYPEMAP in check.h): the packed
 * bytes must be the bytes at the listed displacements, in the listed order.
 */
#include "check.h"

/* type1 = {(double, 0), (char, 8)}, built with MPI_Type_create_struct; extent 16. */
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

static void test_type1(void)
{
    static const check_entry map[] = {{0, 8}, {8, 1}};
    MPI_Datatype t = make_type1();
    /* "the extent of this datatype is 16 (9 rounded to the next multiple of 8)" */
    CHECK_BOUNDS(t, 9, 0, 16, 0, 9);
    CHECK_TYPEMAP(t, 1, map);
    /* count 3 of type1 is three copies 16 bytes apart */
    CHECK_TYPEMAP(t, 3, map);
    CHECK_OK(MPI_Type_free(&t));
}

/* Seed 002: "A datatype that consists of a character immediately followed by a double will also
   have an extent of 16." */
static void test_char_then_double(void)
{
    int bl[2] = {1, 1};
    MPI_Datatype types[2] = {MPI_CHAR, MPI_DOUBLE};
    MPI_Datatype t = MPI_DATATYPE_NULL;

    /* the double immediately after the char: span 9, rounded up to 16 */
    {
        MPI_Aint disp[2] = {0, 1};
        static const check_entry map[] = {{0, 1}, {1, 8}};
        CHECK_OK(MPI_Type_create_struct(2, bl, disp, types, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 9, 0, 16, 0, 9);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));
    }
    /* the double at its aligned place after the char: span 16, already a multiple of 8 */
    {
        MPI_Aint disp[2] = {0, 8};
        static const check_entry map[] = {{0, 1}, {8, 8}};
        CHECK_OK(MPI_Type_create_struct(2, bl, disp, types, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 9, 0, 16, 0, 16);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));
    }
}

/* Seed 001, contiguous: count = 3 of type1 gives
   {(double,0),(char,8),(double,16),(char,24),(double,32),(char,40)}. */
static void test_contiguous(void)
{
    static const check_entry map[] = {{0, 8}, {8, 1}, {16, 8}, {24, 1}, {32, 8}, {40, 1}};
    MPI_Datatype type1 = make_type1();
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK_OK(MPI_Type_contiguous(3, type1, &t));
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_BOUNDS(t, 27, 0, 48, 0, 41);
    CHECK_TYPEMAP(t, 1, map);
    CHECK_TYPEMAP(t, 2, map);

    /* "MPI_TYPE_CONTIGUOUS (count, oldtype, newtype) is equivalent to a call to MPI_TYPE_VECTOR
       (count, 1, 1, oldtype, newtype), or to a call to MPI_TYPE_VECTOR (1, count, n, oldtype,
       newtype), where n is an arbitrary integer value." */
    {
        MPI_Datatype v = MPI_DATATYPE_NULL;
        CHECK_OK(MPI_Type_vector(3, 1, 1, type1, &v));
        CHECK_OK(MPI_Type_commit(&v));
        CHECK_BOUNDS(v, 27, 0, 48, 0, 41);
        CHECK_TYPEMAP(v, 2, map);
        CHECK_OK(MPI_Type_free(&v));
    }
    {
        const int ns[] = {-7, 0, 1, 5};
        size_t i;
        for (i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
            MPI_Datatype v = MPI_DATATYPE_NULL;
            CHECK_OK(MPI_Type_vector(1, 3, ns[i], type1, &v));
            CHECK_OK(MPI_Type_commit(&v));
            CHECK_BOUNDS(v, 27, 0, 48, 0, 41);
            CHECK_TYPEMAP(v, 2, map);
            CHECK_OK(MPI_Type_free(&v));
        }
    }
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_free(&type1));
}

/* Seed 001, vector: MPI_TYPE_VECTOR(2, 3, 4, oldtype, newtype) and (3, 1, -2, ...). */
static void test_vector(void)
{
    static const check_entry map_2_3_4[] = {{0, 8},  {8, 1},  {16, 8}, {24, 1},
                                            {32, 8}, {40, 1}, {64, 8}, {72, 1},
                                            {80, 8}, {88, 1}, {96, 8}, {104, 1}};
    static const check_entry map_3_1_m2[] = {{0, 8}, {8, 1}, {-32, 8}, {-24, 1},
                                             {-64, 8}, {-56, 1}};
    MPI_Datatype type1 = make_type1();
    MPI_Datatype t = MPI_DATATYPE_NULL;

    CHECK_OK(MPI_Type_vector(2, 3, 4, type1, &t));
    CHECK_OK(MPI_Type_commit(&t));
    /* data spans [0, 105); the extent is rounded up to a multiple of 8 */
    CHECK_BOUNDS(t, 54, 0, 112, 0, 105);
    CHECK_TYPEMAP(t, 1, map_2_3_4);
    CHECK_TYPEMAP(t, 2, map_2_3_4);
    CHECK_OK(MPI_Type_free(&t));

    /* hvector with the stride in bytes (4 * 16 = 64) has the same type map */
    CHECK_OK(MPI_Type_create_hvector(2, 3, 64, type1, &t));
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_BOUNDS(t, 54, 0, 112, 0, 105);
    CHECK_TYPEMAP(t, 2, map_2_3_4);
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_vector(3, 1, -2, type1, &t));
    CHECK_OK(MPI_Type_commit(&t));
    /* data spans [-64, 9): lb -64, extent 73 rounded up to 80 */
    CHECK_BOUNDS(t, 27, -64, 80, -64, 73);
    CHECK_TYPEMAP(t, 1, map_3_1_m2);
    CHECK_TYPEMAP(t, 2, map_3_1_m2);
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_create_hvector(3, 1, -32, type1, &t));
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_BOUNDS(t, 27, -64, 80, -64, 73);
    CHECK_TYPEMAP(t, 1, map_3_1_m2);
    CHECK_OK(MPI_Type_free(&t));

    /* "MPI_TYPE_VECTOR (count, blocklength, stride, ...) is equivalent to MPI_TYPE_INDEXED
       (count, B, D, ...) where D[j] = j * stride and B[j] = blocklength" */
    {
        int b[2] = {3, 3};
        int d[2] = {0, 4};
        CHECK_OK(MPI_Type_indexed(2, b, d, type1, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 54, 0, 112, 0, 105);
        CHECK_TYPEMAP(t, 2, map_2_3_4);
        CHECK_OK(MPI_Type_free(&t));
    }
    {
        int b[3] = {1, 1, 1};
        int d[3] = {0, -2, -4};
        CHECK_OK(MPI_Type_indexed(3, b, d, type1, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 27, -64, 80, -64, 73);
        CHECK_TYPEMAP(t, 2, map_3_1_m2);
        CHECK_OK(MPI_Type_free(&t));
    }
    CHECK_OK(MPI_Type_free(&type1));
}

/* Seed 001, indexed: B = (3, 1), D = (4, 0). */
static void test_indexed(void)
{
    static const check_entry map[] = {{64, 8}, {72, 1}, {80, 8}, {88, 1},
                                      {96, 8}, {104, 1}, {0, 8}, {8, 1}};
    MPI_Datatype type1 = make_type1();
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int b[2] = {3, 1};
    int d[2] = {4, 0};

    CHECK_OK(MPI_Type_indexed(2, b, d, type1, &t));
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_BOUNDS(t, 36, 0, 112, 0, 105);
    CHECK_TYPEMAP(t, 1, map);
    CHECK_TYPEMAP(t, 2, map);
    CHECK_OK(MPI_Type_free(&t));

    /* hindexed with the displacements in bytes (4 * 16, 0) */
    {
        MPI_Aint hd[2] = {64, 0};
        CHECK_OK(MPI_Type_create_hindexed(2, b, hd, type1, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 36, 0, 112, 0, 105);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));

        /* "A call to MPI_TYPE_CREATE_HINDEXED (count, B, D, oldtype, newtype) is equivalent to
           a call to MPI_TYPE_CREATE_STRUCT (count, B, D, T, newtype), where each entry of T is
           equal to oldtype." */
        {
            MPI_Datatype types[2];
            types[0] = type1;
            types[1] = type1;
            CHECK_OK(MPI_Type_create_struct(2, b, hd, types, &t));
            CHECK_OK(MPI_Type_commit(&t));
            CHECK_BOUNDS(t, 36, 0, 112, 0, 105);
            CHECK_TYPEMAP(t, 2, map);
            CHECK_OK(MPI_Type_free(&t));
        }
    }

    /* indexed_block / hindexed_block: the same blocklength for every block */
    {
        static const check_entry bmap[] = {{64, 8}, {72, 1}, {80, 8}, {88, 1},
                                           {0, 8},  {8, 1},  {16, 8}, {24, 1}};
        int bd[2] = {4, 0};
        MPI_Aint hbd[2] = {64, 0};
        CHECK_OK(MPI_Type_create_indexed_block(2, 2, bd, type1, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 36, 0, 96, 0, 89);
        CHECK_TYPEMAP(t, 2, bmap);
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_create_hindexed_block(2, 2, hbd, type1, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 36, 0, 96, 0, 89);
        CHECK_TYPEMAP(t, 2, bmap);
        CHECK_OK(MPI_Type_free(&t));
    }
    CHECK_OK(MPI_Type_free(&type1));
}

/* Seed 001, struct: B = (2, 1, 3), D = (0, 16, 26), T = (MPI_FLOAT, type1, MPI_CHAR) gives
   {(float,0),(float,4),(double,16),(char,24),(char,26),(char,27),(char,28)}. */
static void test_struct(void)
{
    static const check_entry map[] = {{0, 4}, {4, 4}, {16, 8}, {24, 1},
                                      {26, 1}, {27, 1}, {28, 1}};
    MPI_Datatype type1 = make_type1();
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int b[3] = {2, 1, 3};
    MPI_Aint d[3] = {0, 16, 26};
    MPI_Datatype types[3];
    types[0] = MPI_FLOAT;
    types[1] = type1;
    types[2] = MPI_CHAR;

    CHECK_OK(MPI_Type_create_struct(3, b, d, types, &t));
    CHECK_OK(MPI_Type_commit(&t));
    /* data spans [0, 29); the largest alignment (double) is 8, so the extent is 32 */
    CHECK_BOUNDS(t, 20, 0, 32, 0, 29);
    CHECK_TYPEMAP(t, 1, map);
    CHECK_TYPEMAP(t, 3, map);
    CHECK_OK(MPI_Type_free(&t));

#ifndef MPI_DTYPE_STANDARD_ABI /* MPI-1 names: not in the standard ABI */
    /* the MPI-1 name builds the same type */
    CHECK_OK(MPI_Type_struct(3, b, d, types, &t));
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_BOUNDS(t, 20, 0, 32, 0, 29);
    CHECK_TYPEMAP(t, 2, map);
    CHECK_OK(MPI_Type_free(&t));
#endif
    CHECK_OK(MPI_Type_free(&type1));
}

/* The general hvector / hindexed formulas of MPI-4.1 §5.1, on a basic type. */
static void test_general_formulas(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    /* hvector(3, 2, 20, MPI_INT): blocks of 2 ints (ex = 4) at 0, 20, 40 */
    {
        static const check_entry map[] = {{0, 4}, {4, 4}, {20, 4}, {24, 4}, {40, 4}, {44, 4}};
        CHECK_OK(MPI_Type_create_hvector(3, 2, 20, MPI_INT, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 24, 0, 48, 0, 48);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));
    }
    /* hindexed B = (1, 2), D = (10, -6) bytes of MPI_SHORT */
    {
        static const check_entry map[] = {{10, 2}, {-6, 2}, {-4, 2}};
        int b[2] = {1, 2};
        MPI_Aint d[2] = {10, -6};
        CHECK_OK(MPI_Type_create_hindexed(2, b, d, MPI_SHORT, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 6, -6, 18, -6, 18);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));
    }
    /* indexed_block(3, 1, (2, 0, 5), MPI_DOUBLE) */
    {
        static const check_entry map[] = {{16, 8}, {0, 8}, {40, 8}};
        int d[3] = {2, 0, 5};
        CHECK_OK(MPI_Type_create_indexed_block(3, 1, d, MPI_DOUBLE, &t));
        CHECK_OK(MPI_Type_commit(&t));
        CHECK_BOUNDS(t, 24, 0, 48, 0, 48);
        CHECK_TYPEMAP(t, 2, map);
        CHECK_OK(MPI_Type_free(&t));
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    test_type1();
    test_char_then_double();
    test_contiguous();
    test_vector();
    test_indexed();
    test_struct();
    test_general_formulas();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
