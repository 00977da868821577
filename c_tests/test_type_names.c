/*
 * MPI_Type_get_name of every predefined datatype is its name in the standard. Where the
 * standard's table gives two names for one type, the second "(as a synonym)", both handles
 * are the same type and its name is the first: MPI_C_COMPLEX (MPI_C_FLOAT_COMPLEX is the
 * synonym) and MPI_LONG_LONG_INT (MPI_LONG_LONG), as MPICH and Open MPI report them.
 */
#include "check.h"

static void check_name(MPI_Datatype type, const char *expected)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    name[0] = '\0';
    if (CHECK_OK(MPI_Type_get_name(type, name, &len))) {
        CHECK_EQ_STR(name, expected);
        CHECK_EQ_LONG(len, (long)strlen(expected));
    }
}

#define NAMED(type) check_name(type, #type)

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    /* the synonyms */
    CHECK_EQ_LONG(MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX);
    check_name(MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX");
    check_name(MPI_C_COMPLEX, "MPI_C_COMPLEX");
    CHECK_EQ_LONG(MPI_LONG_LONG, MPI_LONG_LONG_INT);
    check_name(MPI_LONG_LONG, "MPI_LONG_LONG_INT");
    /* every other predefined type */
#ifndef MPI_DTYPE_STANDARD_ABI /* MPICH's extension: not in the standard ABI */
    NAMED(MPIX_C_FLOAT16);
#endif
    NAMED(MPI_2DOUBLE_PRECISION);
    NAMED(MPI_2INT);
    NAMED(MPI_2INTEGER);
    NAMED(MPI_2REAL);
    NAMED(MPI_AINT);
    NAMED(MPI_BYTE);
    NAMED(MPI_CHAR);
    NAMED(MPI_CHARACTER);
    NAMED(MPI_COMPLEX);
    NAMED(MPI_COMPLEX16);
    NAMED(MPI_COMPLEX32);
    NAMED(MPI_COMPLEX8);
    NAMED(MPI_COUNT);
    NAMED(MPI_CXX_BOOL);
    NAMED(MPI_CXX_DOUBLE_COMPLEX);
    NAMED(MPI_CXX_FLOAT_COMPLEX);
    NAMED(MPI_CXX_LONG_DOUBLE_COMPLEX);
    NAMED(MPI_C_BOOL);
    NAMED(MPI_C_DOUBLE_COMPLEX);
    NAMED(MPI_C_LONG_DOUBLE_COMPLEX);
    NAMED(MPI_DOUBLE);
    NAMED(MPI_DOUBLE_COMPLEX);
    NAMED(MPI_DOUBLE_INT);
    NAMED(MPI_DOUBLE_PRECISION);
    NAMED(MPI_FLOAT);
    NAMED(MPI_FLOAT_INT);
    NAMED(MPI_INT);
    NAMED(MPI_INT16_T);
    NAMED(MPI_INT32_T);
    NAMED(MPI_INT64_T);
    NAMED(MPI_INT8_T);
    NAMED(MPI_INTEGER);
    NAMED(MPI_INTEGER1);
    NAMED(MPI_INTEGER2);
    NAMED(MPI_INTEGER4);
    NAMED(MPI_INTEGER8);
#ifndef MPI_DTYPE_STANDARD_ABI /* the MPI-1 markers: not in the standard ABI */
    NAMED(MPI_LB);
#endif
    NAMED(MPI_LOGICAL);
    NAMED(MPI_LONG);
    NAMED(MPI_LONG_DOUBLE);
    NAMED(MPI_LONG_DOUBLE_INT);
    NAMED(MPI_LONG_INT);
    NAMED(MPI_LONG_LONG_INT);
    NAMED(MPI_OFFSET);
    NAMED(MPI_PACKED);
    NAMED(MPI_REAL);
    NAMED(MPI_REAL16);
    NAMED(MPI_REAL4);
    NAMED(MPI_REAL8);
    NAMED(MPI_SHORT);
    NAMED(MPI_SHORT_INT);
    NAMED(MPI_SIGNED_CHAR);
#ifndef MPI_DTYPE_STANDARD_ABI /* the MPI-1 markers: not in the standard ABI */
    NAMED(MPI_UB);
#endif
    NAMED(MPI_UINT16_T);
    NAMED(MPI_UINT32_T);
    NAMED(MPI_UINT64_T);
    NAMED(MPI_UINT8_T);
    NAMED(MPI_UNSIGNED);
    NAMED(MPI_UNSIGNED_CHAR);
    NAMED(MPI_UNSIGNED_LONG);
    NAMED(MPI_UNSIGNED_LONG_LONG);
    NAMED(MPI_UNSIGNED_SHORT);
    NAMED(MPI_WCHAR);
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
