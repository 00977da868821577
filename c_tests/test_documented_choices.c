/*
 * The choices docs/semantics.md documents where MPICH answers otherwise:
 * - the count of MPI_Status_set_elements is a number of basic elements, so MPI_Get_count
 *   may be MPI_UNDEFINED afterwards (MPICH reads it as a number of copies of the type);
 * - a freed handle is rejected, also after new types were made (MPICH may reuse its number);
 * - a struct whose only entry is an MPI_LB marker has ub = lb and extent 0 (MPICH: -10).
 */
#include "check.h"

static void set_elements_counts_basic_elements(void)
{
    int lengths[2] = {1, 1};
    MPI_Aint disps[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Status status;
    int count = -1, elements = -1, bytes = -1;
    memset(&status, 0, sizeof status);
    CHECK_OK(MPI_Type_create_struct(2, lengths, disps, types, &t));
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_OK(MPI_Status_set_elements(&status, t, 1));
    CHECK_OK(MPI_Get_elements(&status, t, &elements));
    CHECK_EQ_LONG(elements, 1);
    CHECK_OK(MPI_Get_count(&status, t, &count));
    CHECK_EQ_LONG(count, MPI_UNDEFINED);
    CHECK_OK(MPI_Get_elements(&status, MPI_BYTE, &bytes));
    CHECK_EQ_LONG(bytes, 4);
    CHECK_OK(MPI_Status_set_elements(&status, t, 4));
    CHECK_OK(MPI_Get_count(&status, t, &count));
    CHECK_EQ_LONG(count, 2);
    CHECK_OK(MPI_Type_free(&t));
}

static void freed_handles_stay_invalid(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, stale, others[64];
    int i, size = -1;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    stale = t;
    CHECK_OK(MPI_Type_free(&t));
    CHECK_EQ_LONG(t, MPI_DATATYPE_NULL);
    for (i = 0; i < 64; ++i) {
        CHECK_OK(MPI_Type_contiguous(i + 1, MPI_CHAR, &others[i]));
        CHECK(others[i] != stale);
    }
    CHECK_ERR(MPI_Type_size(stale, &size), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_commit(&stale), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_free(&stale), MPI_ERR_TYPE);
    for (i = 0; i < 64; ++i) {
        CHECK_OK(MPI_Type_free(&others[i]));
    }
}

#ifndef MPI_DTYPE_STANDARD_ABI /* MPI_Type_struct: not in the standard ABI */
static void struct_of_a_lower_marker_alone(void)
{
    int one = 1;
    MPI_Aint ten = 10;
    MPI_Datatype lb = MPI_LB, t = MPI_DATATYPE_NULL;
    CHECK_OK(MPI_Type_struct(1, &one, &ten, &lb, &t));
    CHECK_BOUNDS(t, 0, 10, 0, 0, 0);
    CHECK_OK(MPI_Type_free(&t));
}
#endif

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    set_elements_counts_basic_elements();
    freed_handles_stay_invalid();
#ifndef MPI_DTYPE_STANDARD_ABI
    struct_of_a_lower_marker_alone();
#endif
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
