/*
 * MPI_Get_elements and MPI_Status_set_elements count basic elements in a prefix of the packed
 * data from the structure of the type, not by visiting elements: on a type of INT_MAX
 * elements each call takes microseconds (it took 30 s when it walked every element).
 */
#include "check.h"

#include <limits.h>
#include <time.h>

static double seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

static void huge_types_are_counted_quickly(void)
{
    MPI_Datatype big = MPI_DATATYPE_NULL, vec = MPI_DATATYPE_NULL;
    MPI_Status status;
    MPI_Count elements = -1;
    int ielements = -1;
    double start = seconds();
    memset(&status, 0, sizeof status);
    CHECK_OK(MPI_Type_contiguous(INT_MAX, MPI_CHAR, &big));
    CHECK_OK(MPI_Type_commit(&big));
    CHECK_OK(MPI_Status_set_elements(&status, big, 1));
    CHECK_OK(MPI_Get_elements(&status, big, &ielements));
    CHECK_EQ_LONG(ielements, 1);
    CHECK_OK(MPI_Status_set_elements(&status, big, INT_MAX - 1));
    CHECK_OK(MPI_Get_elements_x(&status, big, &elements));
    CHECK_EQ_LONG(elements, INT_MAX - 1);
    CHECK_OK(MPI_Status_set_elements_x(&status, big, 3L * INT_MAX + 5));
    CHECK_OK(MPI_Get_elements_c(&status, big, &elements));
    CHECK_EQ_LONG(elements, 3L * INT_MAX + 5);
    /* a vector of INT_MAX blocks of a struct, counted in the middle */
    {
        int lengths[2] = {1, 2};
        MPI_Aint disps[2] = {0, 8};
        MPI_Datatype types[2] = {MPI_DOUBLE, MPI_SHORT};
        MPI_Datatype s = MPI_DATATYPE_NULL;
        CHECK_OK(MPI_Type_create_struct(2, lengths, disps, types, &s)); /* 12 bytes, 3 elements */
        CHECK_OK(MPI_Type_vector(INT_MAX, 2, 3, s, &vec));
        CHECK_OK(MPI_Type_free(&s));
        CHECK_OK(MPI_Type_commit(&vec));
        /* 1000 whole structs (3000 elements) plus a double and one short: 12010 bytes */
        CHECK_OK(MPI_Status_set_elements_x(&status, MPI_BYTE, 12010));
        CHECK_OK(MPI_Get_elements_x(&status, vec, &elements));
        CHECK_EQ_LONG(elements, 3002);
        CHECK_OK(MPI_Status_set_elements_x(&status, vec, 3002));
        CHECK_OK(MPI_Get_elements_x(&status, MPI_BYTE, &elements));
        CHECK_EQ_LONG(elements, 12010);
        /* the MPI-4.1 large-count form agrees with the deprecated _x one */
        CHECK_OK(MPI_Status_set_elements_c(&status, vec, 3L * INT_MAX + 2));
        CHECK_OK(MPI_Get_elements_c(&status, MPI_BYTE, &elements));
        CHECK_EQ_LONG(elements, 12L * INT_MAX + 10);
        CHECK_ERR(MPI_Status_set_elements_c(&status, vec, -1), MPI_ERR_COUNT);
        CHECK_ERR(MPI_Status_set_elements_c(NULL, vec, 1), MPI_ERR_ARG);
        /* ending inside the double: not a whole number of elements */
        CHECK_OK(MPI_Status_set_elements_x(&status, MPI_BYTE, 12004));
        CHECK_OK(MPI_Get_elements_x(&status, vec, &elements));
        CHECK_EQ_LONG(elements, MPI_UNDEFINED);
        CHECK_OK(MPI_Type_free(&vec));
    }
    CHECK_OK(MPI_Type_free(&big));
    CHECK(seconds() - start < 1.0);
}

/* A struct with pair types and markers, counted at every byte of two copies. The markers are
   MPI_LB / MPI_UB in the MPICH-ABI build, a resize in the standard-ABI build (which has no
   MPI_LB / MPI_UB): the same type map. */
static void every_prefix_of_a_struct(void)
{
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI_Type_struct: not in the standard ABI */
    int lengths[4] = {1, 2, 1, 1};
    MPI_Aint disps[4] = {-4, 0, 40, 64};
    MPI_Datatype types[4] = {MPI_LB, MPI_DOUBLE_INT, MPI_CHAR, MPI_UB};
#else
    int lengths[2] = {2, 1};
    MPI_Aint disps[2] = {0, 40};
    MPI_Datatype types[2] = {MPI_DOUBLE_INT, MPI_CHAR};
    MPI_Datatype unmarked = MPI_DATATYPE_NULL;
#endif
    /* signature: double, int, double, int, char -> sizes 8 4 8 4 1 = 25 bytes, 5 elements */
    static const int sizes[5] = {8, 4, 8, 4, 1};
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Status status;
    int copy, k, inside, bytes = 0, elements = 0, got = -1;
    memset(&status, 0, sizeof status);
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI_Type_struct: not in the standard ABI */
    CHECK_OK(MPI_Type_struct(4, lengths, disps, types, &t));
#else
    CHECK_OK(MPI_Type_create_struct(2, lengths, disps, types, &unmarked));
    CHECK_OK(MPI_Type_create_resized(unmarked, -4, 68, &t));
    CHECK_OK(MPI_Type_free(&unmarked));
#endif
    CHECK_BOUNDS(t, 25, -4, 68, 0, 41);
    CHECK_OK(MPI_Type_commit(&t));
    for (copy = 0; copy < 2; ++copy) {
        for (k = 0; k < 5; ++k) {
            CHECK_OK(MPI_Status_set_elements(&status, MPI_BYTE, bytes));
            CHECK_OK(MPI_Get_elements(&status, t, &got));
            CHECK_EQ_LONG(got, elements);
            CHECK_OK(MPI_Status_set_elements(&status, t, elements));
            CHECK_OK(MPI_Get_elements(&status, MPI_BYTE, &got));
            CHECK_EQ_LONG(got, bytes);
            for (inside = 1; inside < sizes[k]; ++inside) {
                CHECK_OK(MPI_Status_set_elements(&status, MPI_BYTE, bytes + inside));
                CHECK_OK(MPI_Get_elements(&status, t, &got));
                CHECK_EQ_LONG(got, MPI_UNDEFINED);
            }
            bytes += sizes[k];
            ++elements;
        }
    }
    CHECK_OK(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    huge_types_are_counted_quickly();
    every_prefix_of_a_struct();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
