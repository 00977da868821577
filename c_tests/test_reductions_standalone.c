/*
 * test_reductions_standalone.c: reductions in the one-process world (the library linked
 * alone, no MPI behind it), in both builds.
 *
 *   - MPI_Reduce_local computes inoutbuf = inbuf op inoutbuf along the type signature: MPI_SUM
 *     of ints, MPI_MAX over a vector of doubles (only the vector's elements change),
 *     MPI_PROD of complex numbers, MPI_LXOR of booleans, MPI_MINLOC / MPI_MAXLOC of
 *     MPI_DOUBLE_INT pairs (the least index among equal values), and the program's own
 *     operations (MPI_Op_create, MPI_Op_create_c), which it calls with the count and type;
 *   - the reducing collectives of one process give its own contribution: MPI_Allreduce,
 *     MPI_Reduce, MPI_Scan, MPI_Reduce_scatter_block, MPI_Reduce_scatter, their _c forms and
 *     MPI_IN_PLACE; MPI_Exscan leaves the receive buffer alone; MPI_Barrier returns;
 *   - an operation the standard does not define for a type (MPI_SUM of MPI_BYTE, MPI_BAND of
 *     MPI_DOUBLE, MPI_MINLOC of MPI_INT), MPI_REPLACE in a collective, MPI_OP_NULL and a
 *     freed operation are MPI_ERR_OP; a root other than 0 is MPI_ERR_ROOT; MPI_COMM_NULL is
 *     MPI_ERR_COMM.
 */
#include "check.h"

#include <complex.h>
#include <stdbool.h>

/* The program's operation: inout = 10 * in + inout, on ints; counts its calls. */
static int calls;
static void scaled_sum(void *in, void *inout, int *len, MPI_Datatype *datatype)
{
    (void)datatype;
    calls++;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += 10 * ((int *)in)[i];
}

static void scaled_sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *datatype)
{
    int n = (int)*len;
    scaled_sum(in, inout, &n, datatype);
}

struct double_int {
    double value;
    int index;
};

static void reduce_local(void)
{
    int a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
    double x[4] = {5, 0, -1, 0}, y[4] = {1, 7, 2, 9};
    double complex p = 1 + 2 * I, q = 3 + 4 * I;
    bool t[3] = {true, true, false}, u[3] = {true, false, false};
    struct double_int m[3] = {{1, 4}, {2, 3}, {5, 9}}, n[3] = {{0.5, 7}, {2, 1}, {6, 2}};
    MPI_Datatype vector;
    MPI_Op op;
    int commute = -1;

    CHECK_OK(MPI_Reduce_local(a, b, 3, MPI_INT, MPI_SUM));
    CHECK(b[0] == 11 && b[1] == 22 && b[2] == 33);

    CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &vector));
    CHECK_OK(MPI_Type_commit(&vector));
    CHECK_OK(MPI_Reduce_local(x, y, 1, vector, MPI_MAX));
    CHECK(y[0] == 5 && y[1] == 7 && y[2] == 2 && y[3] == 9);
    CHECK_OK(MPI_Type_free(&vector));

    CHECK_OK(MPI_Reduce_local(&p, &q, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD));
    CHECK(creal(q) == -5 && cimag(q) == 10);
    /* long double, as C computes it: 1/3 + 1/3 in extended precision */
    long double third = 1.0L / 3, sum = 1.0L / 3, big[2] = {1e300L, -2}, other[2] = {1e300L, 5};
    CHECK_OK(MPI_Reduce_local(&third, &sum, 1, MPI_LONG_DOUBLE, MPI_SUM));
    CHECK(sum == 2.0L / 3);
    CHECK_OK(MPI_Reduce_local(big, other, 2, MPI_LONG_DOUBLE, MPI_PROD));
    CHECK(other[0] == 1e600L && other[1] == -10);
    CHECK_OK(MPI_Reduce_local(big, other, 2, MPI_LONG_DOUBLE, MPI_MIN));
    CHECK(other[0] == 1e300L && other[1] == -10);
    CHECK_OK(MPI_Reduce_local(t, u, 3, MPI_C_BOOL, MPI_LXOR));
    CHECK(!u[0] && u[1] && !u[2]);

    CHECK_OK(MPI_Reduce_local(n, m, 3, MPI_DOUBLE_INT, MPI_MINLOC));
    CHECK(m[0].value == 0.5 && m[0].index == 7);
    CHECK(m[1].value == 2 && m[1].index == 1);
    CHECK(m[2].value == 5 && m[2].index == 9);
    CHECK_OK(MPI_Reduce_local(n, m, 3, MPI_DOUBLE_INT, MPI_MAXLOC));
    CHECK(m[2].value == 6 && m[2].index == 2);

    CHECK_OK(MPI_Op_create(scaled_sum, 0, &op));
    CHECK_OK(MPI_Op_commutative(op, &commute));
    CHECK_EQ_LONG(commute, 0);
    CHECK_OK(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK_EQ_LONG(commute, 1);
    b[0] = 1, b[1] = 1, b[2] = 1;
    CHECK_OK(MPI_Reduce_local(a, b, 3, MPI_INT, op));
    CHECK(b[0] == 11 && b[1] == 21 && b[2] == 31 && calls == 1);
    CHECK_OK(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL);
    CHECK_OK(MPI_Op_create_c(scaled_sum_c, 1, &op));
    CHECK_OK(MPI_Reduce_local_c(a, b, 3, MPI_INT, op));
    CHECK(b[0] == 21 && calls == 2);
    MPI_Op freed = op;
    CHECK_OK(MPI_Op_free(&op));
    CHECK_ERR(MPI_Reduce_local(a, b, 3, MPI_INT, freed), MPI_ERR_OP);
    CHECK_ERR(MPI_Op_free(&freed), MPI_ERR_OP);

    CHECK_ERR(MPI_Reduce_local(a, b, 3, MPI_BYTE, MPI_SUM), MPI_ERR_OP);
    CHECK_ERR(MPI_Reduce_local(x, y, 1, MPI_DOUBLE, MPI_BAND), MPI_ERR_OP);
    CHECK_ERR(MPI_Reduce_local(a, b, 2, MPI_INT, MPI_MINLOC), MPI_ERR_OP);
    CHECK_ERR(MPI_Reduce_local(a, b, 3, MPI_INT, MPI_OP_NULL), MPI_ERR_OP);
    CHECK(b[0] == 21 && b[1] == 41 && b[2] == 61); /* a failed reduction writes nothing */
}

static void collectives(void)
{
    double data[6] = {1, 2, 3, 4, 5, 6}, got[6];
    MPI_Datatype vector;
    int counts[1] = {2};

    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &vector));
    CHECK_OK(MPI_Type_commit(&vector));
    for (int i = 0; i < 6; i++)
        got[i] = -1;
    CHECK_OK(MPI_Allreduce(data, got, 1, vector, MPI_SUM, MPI_COMM_WORLD));
    CHECK(got[0] == 1 && got[1] == -1 && got[2] == 3 && got[4] == 5 && got[5] == -1);
    CHECK_OK(MPI_Allreduce(MPI_IN_PLACE, got, 1, vector, MPI_MAX, MPI_COMM_WORLD));
    CHECK(got[0] == 1 && got[1] == -1);

    for (int i = 0; i < 6; i++)
        got[i] = -1;
    CHECK_OK(MPI_Reduce(data, got, 6, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_SELF));
    CHECK(memcmp(got, data, sizeof data) == 0);
    CHECK_ERR(MPI_Reduce(data, got, 6, MPI_DOUBLE, MPI_MIN, 1, MPI_COMM_SELF), MPI_ERR_ROOT);

    for (int i = 0; i < 6; i++)
        got[i] = -1;
    CHECK_OK(MPI_Scan(data, got, 2, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD));
    CHECK(got[0] == 1 && got[1] == 2 && got[2] == -1);
    CHECK_OK(MPI_Exscan(data, got + 2, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    CHECK(got[2] == -1 && got[3] == -1);
    CHECK_OK(MPI_Reduce_scatter_block(data, got, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    CHECK(got[2] == 3 && got[3] == -1);
    for (int i = 0; i < 6; i++)
        got[i] = -1;
    CHECK_OK(MPI_Reduce_scatter(data, got, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    CHECK(got[1] == 2 && got[2] == -1);
    for (int i = 0; i < 6; i++)
        got[i] = -1;
    CHECK_OK(MPI_Allreduce_c(data, got, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    CHECK(got[3] == 4 && got[4] == -1);

    CHECK_ERR(MPI_Allreduce(data, got, 1, MPI_DOUBLE, MPI_REPLACE, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_ERR(MPI_Allreduce(data, got, 1, MPI_BYTE, MPI_PROD, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_ERR(MPI_Allreduce(data, got, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_ERR(MPI_Allreduce(data, got, -1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT);

    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_ERR(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_OK(MPI_Type_free(&vector));
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    reduce_local();
    collectives();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
