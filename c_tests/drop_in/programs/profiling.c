/* profiling: a profiling layer in the program (the MPI profiling interface) wraps
 * MPI_Type_vector, MPI_Type_create_struct, MPI_Type_commit, MPI_Type_dup, MPI_Type_free,
 * MPI_Pack and MPI_Send, counts the calls and forwards them to the PMPI_ names.  The types
 * made through the wrappers carry data in MPI_Send/MPI_Recv and MPI_Pack; each wrapper must
 * see exactly the calls the program made (no call made inside the library on its behalf). */
#include "check_mpi.h"

static int n_vector, n_struct, n_commit, n_dup, n_free, n_pack, n_send;

int MPI_Type_vector(int count, int bl, int stride, MPI_Datatype old, MPI_Datatype *t)
{
    n_vector++;
    return PMPI_Type_vector(count, bl, stride, old, t);
}

int MPI_Type_create_struct(int count, const int bl[], const MPI_Aint dl[],
                           const MPI_Datatype types[], MPI_Datatype *t)
{
    n_struct++;
    return PMPI_Type_create_struct(count, bl, dl, types, t);
}

int MPI_Type_commit(MPI_Datatype *t)
{
    n_commit++;
    return PMPI_Type_commit(t);
}

int MPI_Type_dup(MPI_Datatype old, MPI_Datatype *t)
{
    n_dup++;
    return PMPI_Type_dup(old, t);
}

int MPI_Type_free(MPI_Datatype *t)
{
    n_free++;
    return PMPI_Type_free(t);
}

int MPI_Pack(const void *in, int count, MPI_Datatype t, void *out, int size, int *pos, MPI_Comm c)
{
    n_pack++;
    return PMPI_Pack(in, count, t, out, size, pos, c);
}

int MPI_Send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    n_send++;
    return PMPI_Send(buf, count, t, dest, tag, c);
}

static void expect(const char *step, int vec, int str, int com, int dup, int fre, int pack, int send)
{
    char what[160];
    int got[7] = {n_vector, n_struct, n_commit, n_dup, n_free, n_pack, n_send};
    int want[7] = {vec, str, com, dup, fre, pack, send};
    snprintf(what, sizeof what,
             "profiling: %s: wrapper calls (vector, struct, commit, dup, free, pack, send)", step);
    CHECK_INTS(got, want, 7, what);
}

int main(int argc, char **argv)
{
    int rank, size, i, k;
    MPI_Datatype v, s, d;
    start(&argc, &argv, "profiling", &rank, &size);
    expect("after MPI_Init", 0, 0, 0, 0, 0, 0, 0);

    MPI_CHECK(MPI_Type_vector(3, 1, 3, MPI_INT, &v)); /* 0,3,6 */
    {
        int bl[2] = {2, 1};
        MPI_Aint dl[2] = {0, 16};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &s));
    }
    MPI_CHECK(MPI_Type_commit(&v));
    MPI_CHECK(MPI_Type_commit(&s));
    MPI_CHECK(MPI_Type_dup(v, &d));
    MPI_CHECK(MPI_Type_commit(&d));
    expect("after making the types", 1, 1, 3, 1, 0, 0, 0);

    for (k = 0; k < 3; k++) {
        int a[10], b[10], w[10];
        for (i = 0; i < 10; i++) {
            a[i] = rank * 100 + k * 10 + i;
            b[i] = w[i] = -1 - i;
        }
        if (rank % 2 == 0) {
            MPI_CHECK(MPI_Send(a, 1, k == 1 ? d : v, rank + 1, k, MPI_COMM_WORLD));
            MPI_CHECK(MPI_Recv(b, 1, v, rank + 1, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            MPI_CHECK(MPI_Recv(b, 1, k == 2 ? d : v, rank - 1, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MPI_CHECK(MPI_Send(a, 1, v, rank - 1, k, MPI_COMM_WORLD));
        }
        for (i = 0; i < 7; i += 3)
            w[i] = (rank ^ 1) * 100 + k * 10 + i;
        CHECK_INTS(b, w, 10, "profiling: MPI_Send/MPI_Recv with types made through the wrappers");
    }
    expect("after the sends", 1, 1, 3, 1, 0, 0, 3);

    {
        struct {
            int i[2];
            int pad[2];
            double x;
        } rec;
        unsigned char packed[64], want[16];
        int pos = 0;
        rec.i[0] = rank;
        rec.i[1] = -rank;
        rec.x = rank * 2.5;
        MPI_CHECK(MPI_Pack(&rec, 1, s, packed, sizeof packed, &pos, MPI_COMM_WORLD));
        memcpy(want, rec.i, 8);
        memcpy(want + 8, &rec.x, 8);
        CHECK_INT(pos, 16, "profiling: MPI_Pack position of the struct type");
        CHECK_BYTES(packed, want, 16, "profiling: MPI_Pack through the wrapper");
    }
    expect("after MPI_Pack", 1, 1, 3, 1, 0, 1, 3);

    MPI_CHECK(MPI_Type_free(&d));
    MPI_CHECK(MPI_Type_free(&s));
    MPI_CHECK(MPI_Type_free(&v));
    expect("after the frees", 1, 1, 3, 1, 3, 1, 3);
    return finish();
}
