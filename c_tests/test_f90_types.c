/*
 * MPI_Type_create_f90_integer / _real / _complex (MPI-4.1 §19.1.9) and MPI_Type_match_size.
 *
 * An f90 type is predefined: it has the type map of the named size-specific type its
 * arguments select (the smallest whose range and precision suffice, as SELECTED_INT_KIND and
 * SELECTED_REAL_KIND choose), every call with the same arguments returns the same handle, and
 * it cannot be freed (MPI_ERR_TYPE). Its envelope is MPI_COMBINER_F90_* with the integer
 * arguments (r, or p and r) and no datatypes; MPI_Type_get_contents returns them. Arguments
 * no type fits are MPI_ERR_ARG. MPICH 4.0.2 agrees on the sizes of the types it has (it maps
 * reals onto MPI_REAL and MPI_DOUBLE_PRECISION only) and answers MPI_ERR_OTHER where no type
 * fits.
 */
#include "check.h"

/* Checks that `type` is the f90 type of `combiner` with the integers `p` (if `ni` is 2) and
   `r`, of `size` bytes. */
static void check_f90(MPI_Datatype type, int combiner, int ni, int p, int r, long size)
{
    int nints = -1, naddrs = -1, ntypes = -1, comb = -1;
    int ints[2] = {-7, -7};
    MPI_Aint addrs[1] = {-7};
    MPI_Datatype types[1] = {MPI_DATATYPE_NULL};
    CHECK_BOUNDS(type, size, 0, size, 0, size);
    if (CHECK_OK(MPI_Type_get_envelope(type, &nints, &naddrs, &ntypes, &comb))) {
        CHECK_EQ_LONG(comb, combiner);
        CHECK_EQ_LONG(nints, ni);
        CHECK_EQ_LONG(naddrs, 0);
        CHECK_EQ_LONG(ntypes, 0);
    }
    if (CHECK_OK(MPI_Type_get_contents(type, 2, 1, 1, ints, addrs, types))) {
        if (ni == 2) {
            CHECK_EQ_LONG(ints[0], p);
            CHECK_EQ_LONG(ints[1], r);
        } else {
            CHECK_EQ_LONG(ints[0], r);
            CHECK_EQ_LONG(ints[1], -7);
        }
    }
}

static void check_integer(int r, long size)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (CHECK_OK(MPI_Type_create_f90_integer(r, &t))) {
        check_f90(t, MPI_COMBINER_F90_INTEGER, 1, 0, r, size);
    }
}

static void check_real(int p, int r, long size)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (CHECK_OK(MPI_Type_create_f90_real(p, r, &t))) {
        check_f90(t, MPI_COMBINER_F90_REAL, 2, p, r, size);
    }
    if (CHECK_OK(MPI_Type_create_f90_complex(p, r, &t))) {
        check_f90(t, MPI_COMBINER_F90_COMPLEX, 2, p, r, 2 * size);
    }
}

static void check_selection(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    /* SELECTED_INT_KIND(r): decimal range 2, 4, 9, 18 digits */
    check_integer(-1, 1);
    check_integer(0, 1);
    check_integer(2, 1);
    check_integer(3, 2);
    check_integer(4, 2);
    check_integer(5, 4);
    check_integer(9, 4);
    check_integer(10, 8);
    check_integer(18, 8);
    CHECK_ERR(MPI_Type_create_f90_integer(19, &t), MPI_ERR_ARG); /* no MPI_INTEGER16 */
    CHECK_ERR(MPI_Type_create_f90_integer(38, &t), MPI_ERR_ARG);
    /* SELECTED_REAL_KIND(p, r): REAL4 (6, 37), REAL8 (15, 307), REAL16 (18, 4931) */
    check_real(6, MPI_UNDEFINED, 4);
    check_real(MPI_UNDEFINED, 37, 4);
    check_real(1, 1, 4);
    check_real(0, 0, 4);
    check_real(6, 37, 4);
    check_real(7, MPI_UNDEFINED, 8);
    check_real(MPI_UNDEFINED, 38, 8);
    check_real(6, 38, 8);
    check_real(15, 307, 8);
    check_real(16, MPI_UNDEFINED, 16);
    check_real(MPI_UNDEFINED, 308, 16);
    check_real(18, 4931, 16);
    CHECK_ERR(MPI_Type_create_f90_real(19, MPI_UNDEFINED, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_real(MPI_UNDEFINED, 4932, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_complex(33, 10, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_complex(1, 5000, &t), MPI_ERR_ARG);
    /* "Either p or r may be omitted ... (but not both)" */
    CHECK_ERR(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_complex(MPI_UNDEFINED, MPI_UNDEFINED, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_integer(4, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_real(4, 4, NULL), MPI_ERR_ARG);
}

/* The same arguments give the same handle; other arguments another handle, even when the same
   named type is selected. The type cannot be freed, is committed and has the empty name. */
static void check_predefined(void)
{
    MPI_Datatype a = MPI_DATATYPE_NULL, b = MPI_DATATYPE_NULL, c = MPI_DATATYPE_NULL;
    MPI_Datatype freed;
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_OK(MPI_Type_create_f90_integer(5, &a));
    CHECK_OK(MPI_Type_create_f90_integer(5, &b));
    CHECK_EQ_LONG(a, b);
    CHECK_OK(MPI_Type_create_f90_integer(9, &c));
    CHECK(c != a);
    CHECK(a != MPI_INTEGER4);
    CHECK_OK(MPI_Type_create_f90_real(7, MPI_UNDEFINED, &b));
    CHECK_OK(MPI_Type_create_f90_real(7, MPI_UNDEFINED, &c));
    CHECK_EQ_LONG(b, c);
    CHECK_OK(MPI_Type_create_f90_complex(7, MPI_UNDEFINED, &c));
    CHECK(b != c);
    freed = a;
    CHECK_ERR(MPI_Type_free(&freed), MPI_ERR_TYPE);
    CHECK_EQ_LONG(freed, a);
    CHECK_BOUNDS(a, 4, 0, 4, 0, 4);
    freed = c;
    CHECK_ERR(MPI_Type_free(&freed), MPI_ERR_TYPE);
    CHECK_OK(MPI_Type_commit(&a));
    if (CHECK_OK(MPI_Type_get_name(a, name, &len))) {
        CHECK_EQ_LONG(len, 0);
        CHECK_EQ_STR(name, "");
    }
}

/* Types built from an f90 type decode it back as the same handle; they pack its bytes. */
static void check_use(void)
{
    MPI_Datatype r8 = MPI_DATATYPE_NULL, i4 = MPI_DATATYPE_NULL, dup, vec, child;
    int nints, naddrs, ntypes, comb, ints[3];
    MPI_Aint addrs[1], esize = -1;
    double src[6] = {1, 2, 3, 4, 5, 6}, dst[3] = {0, 0, 0}, back[6] = {0, 0, 0, 0, 0, 0};
    char packed[64];
    int position = 0, count = -1;
    MPI_Status status;

    CHECK_OK(MPI_Type_create_f90_real(12, 100, &r8));
    CHECK_OK(MPI_Type_create_f90_integer(6, &i4));
    CHECK_OK(MPI_Type_dup(r8, &dup));
    if (CHECK_OK(MPI_Type_get_envelope(dup, &nints, &naddrs, &ntypes, &comb))) {
        CHECK_EQ_LONG(comb, MPI_COMBINER_DUP);
        CHECK_EQ_LONG(ntypes, 1);
    }
    child = MPI_DATATYPE_NULL;
    if (CHECK_OK(MPI_Type_get_contents(dup, 0, 0, 1, ints, addrs, &child))) {
        CHECK_EQ_LONG(child, r8);
    }
    CHECK_BOUNDS(dup, 8, 0, 8, 0, 8);
    CHECK_OK(MPI_Type_free(&dup));
    CHECK_OK(MPI_Type_vector(3, 1, 2, r8, &vec));
    CHECK_OK(MPI_Type_commit(&vec));
    child = MPI_DATATYPE_NULL;
    if (CHECK_OK(MPI_Type_get_contents(vec, 3, 0, 1, ints, addrs, &child))) {
        CHECK_EQ_LONG(child, r8);
        CHECK_ERR(MPI_Type_free(&child), MPI_ERR_TYPE);
    }
    CHECK_BOUNDS(vec, 24, 0, 40, 0, 40);
    CHECK_OK(MPI_Pack(src, 1, vec, packed, sizeof packed, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 24);
    memcpy(dst, packed, sizeof dst);
    CHECK(dst[0] == 1 && dst[1] == 3 && dst[2] == 5);
    position = 0;
    CHECK_OK(MPI_Unpack(packed, 24, &position, back, 1, vec, MPI_COMM_WORLD));
    CHECK(back[0] == 1 && back[2] == 3 && back[4] == 5 && back[1] == 0);
    CHECK_OK(MPI_Type_free(&vec));
    /* the f90 type itself packs and counts like the type it stands for */
    position = 0;
    CHECK_OK(MPI_Pack(src, 2, r8, packed, sizeof packed, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 16);
    CHECK_OK(MPI_Pack_external_size("external32", 3, i4, &esize));
    CHECK_EQ_LONG(esize, 12);
    CHECK_OK(MPI_Status_set_elements(&status, r8, 3));
    CHECK_OK(MPI_Get_count(&status, r8, &count));
    CHECK_EQ_LONG(count, 3);
}

/* MPI_TYPE_MATCH_SIZE "returns a reference (handle) to one of the predefined named datatypes,
   not a duplicate"; "The function returns an error if there is no matching type." */
static void check_match_size(void)
{
    static const struct {
        int typeclass, size;
        MPI_Datatype expected;
    } found[] = {
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1}, {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4}, {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},       {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, 16, MPI_REAL16},     {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16}, {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
    };
    static const struct {
        int typeclass, size;
    } missing[] = {
        {MPI_TYPECLASS_INTEGER, 16}, {MPI_TYPECLASS_INTEGER, 3}, {MPI_TYPECLASS_INTEGER, 0},
        {MPI_TYPECLASS_INTEGER, -4}, {MPI_TYPECLASS_REAL, 2},     {MPI_TYPECLASS_REAL, 32},
        {MPI_TYPECLASS_COMPLEX, 4},  {MPI_TYPECLASS_COMPLEX, 64}, {0, 4},
        {4, 4},
    };
    for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        int nints, naddrs, ntypes, comb = -1;
        if (CHECK_OK(MPI_Type_match_size(found[i].typeclass, found[i].size, &t))) {
            CHECK_EQ_LONG(t, found[i].expected);
            CHECK_OK(MPI_Type_get_envelope(t, &nints, &naddrs, &ntypes, &comb));
            CHECK_EQ_LONG(comb, MPI_COMBINER_NAMED);
        }
    }
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        CHECK_ERR(MPI_Type_match_size(missing[i].typeclass, missing[i].size, &t), MPI_ERR_ARG);
    }
    CHECK_ERR(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, NULL), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    check_selection();
    check_predefined();
    check_use();
    check_match_size();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
