/* finalize_hooks: derived types in communication inside MPI_Finalize. MPI_Finalize first
 * deletes the attributes of MPI_COMM_SELF, last set first, and runs their delete callbacks,
 * which may call MPI (MPI-4.1 §11.2.5, "Allowing User Functions at Process Termination";
 * HDF5 closes the files left open so). The callback here, on every rank:
 *  - sends around the ring a vector made, committed and sent before MPI_Finalize (whose
 *    messages took their course then), and one of its duplicates made before too;
 *  - makes a struct of an int and a double and sends it around the ring;
 *  - broadcasts the vector from rank 2, packs and unpacks it, frees the types;
 *  - sums the checks over the ranks and prints them on rank 0.
 * A second attribute, set before, checks that the types made in the first are gone and
 * that its own messages of the vector's duplicate still arrive. */
#include "check_mpi.h"
#include <stddef.h>

static MPI_Datatype g_vector, g_dup;
static int g_status = 1, g_first_ran = 0, g_second_ran = 0;

static int prev_of(int r) { return (r + 3) % 4; }
static int next_of(int r) { return (r + 1) % 4; }

/* One vector of 3 blocks of 2 ints, 4 ints apart, of `t`, around the ring. */
static void ring_vector(MPI_Datatype t, int tag, const char *what)
{
    int s[12], r[12], w[12], i;
    for (i = 0; i < 12; i++) {
        s[i] = g_rank * 1000 + tag * 100 + i;
        r[i] = w[i] = -1 - i;
    }
    MPI_CHECK(MPI_Sendrecv(s, 1, t, next_of(g_rank), tag, r, 1, t, prev_of(g_rank), tag,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (i = 0; i < 10; i++)
        if (i % 4 < 2)
            w[i] = prev_of(g_rank) * 1000 + tag * 100 + i;
    CHECK_INTS(r, w, 12, what);
}

struct item {
    int n;
    double x;
};

static void ring_struct(void)
{
    int bl[2] = {1, 1};
    MPI_Aint dl[2] = {offsetof(struct item, n), offsetof(struct item, x)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, st;
    struct item s[5], r[5];
    int i;
    MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &st));
    MPI_CHECK(MPI_Type_commit(&st));
    for (i = 0; i < 5; i++) {
        s[i].n = g_rank * 10 + i;
        s[i].x = g_rank + 0.5 * i;
        r[i].n = -1;
        r[i].x = -1.0;
    }
    MPI_CHECK(MPI_Sendrecv(s, 5, st, next_of(g_rank), 7, r, 5, st, prev_of(g_rank), 7,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (i = 0; i < 5; i++) {
        CHECK_INT(r[i].n, prev_of(g_rank) * 10 + i, "finalize_hooks: struct made in the callback");
        CHECK(r[i].x == prev_of(g_rank) + 0.5 * i, "finalize_hooks: struct made in the callback",
              "x[%d] = %g", i, r[i].x);
    }
    MPI_CHECK(MPI_Type_free(&st));
}

static void bcast_and_pack(void)
{
    int b[12], w[12], packed[6], back[12], i, position = 0;
    for (i = 0; i < 12; i++)
        b[i] = g_rank == 2 ? 500 + i : -1 - i;
    MPI_CHECK(MPI_Bcast(b, 1, g_vector, 2, MPI_COMM_WORLD));
    for (i = 0; i < 12; i++)
        w[i] = (i < 10 && i % 4 < 2) || g_rank == 2 ? 500 + i : -1 - i;
    CHECK_INTS(b, w, 12, "finalize_hooks: MPI_Bcast of the vector made before");
    MPI_CHECK(MPI_Pack(b, 1, g_vector, packed, (int)sizeof packed, &position, MPI_COMM_WORLD));
    CHECK_INT(position, 6 * (int)sizeof(int), "finalize_hooks: packed bytes");
    for (i = 0; i < 12; i++)
        back[i] = -1 - i;
    position = 0;
    MPI_CHECK(MPI_Unpack(packed, (int)sizeof packed, &position, back, 1, g_vector, MPI_COMM_WORLD));
    for (i = 0; i < 12; i++)
        w[i] = i < 10 && i % 4 < 2 ? 500 + i : -1 - i;
    CHECK_INTS(back, w, 12, "finalize_hooks: MPI_Unpack of the vector made before");
}

/* Set last, so deleted first. */
static int first_at_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    g_first_ran = 1;
    ring_vector(g_vector, 3, "finalize_hooks: the vector made before MPI_Finalize");
    ring_vector(g_dup, 4, "finalize_hooks: its duplicate");
    ring_struct();
    bcast_and_pack();
    MPI_CHECK(MPI_Type_free(&g_vector));
    return MPI_SUCCESS;
}

/* Set first, so deleted last: reports every check. */
static int second_at_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    g_second_ran = 1;
    CHECK(g_first_ran, "finalize_hooks: the attribute set last is deleted first", "it was not");
    ring_vector(g_dup, 5, "finalize_hooks: the duplicate, after the vector was freed");
    MPI_CHECK(MPI_Type_free(&g_dup));
    g_status = report();
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, size, first_key, second_key;
    MPI_Request request;
    int s[12], r[12], i;

    start(&argc, &argv, "finalize_hooks", &rank, &size);
    MPI_CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, second_at_finalize, &second_key, NULL));
    MPI_CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, second_key, NULL));
    MPI_CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, first_at_finalize, &first_key, NULL));
    MPI_CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, first_key, NULL));

    MPI_CHECK(MPI_Type_vector(3, 2, 4, MPI_INT, &g_vector));
    MPI_CHECK(MPI_Type_commit(&g_vector));
    MPI_CHECK(MPI_Type_dup(g_vector, &g_dup));
    ring_vector(g_vector, 1, "finalize_hooks: the vector before MPI_Finalize");
    ring_vector(g_dup, 2, "finalize_hooks: its duplicate before MPI_Finalize");
    for (i = 0; i < 12; i++)
        s[i] = rank * 1000 + i;
    MPI_CHECK(MPI_Isend(s, 1, g_vector, next_of(rank), 9, MPI_COMM_WORLD, &request));
    MPI_CHECK(MPI_Recv(r, 1, g_vector, prev_of(rank), 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_Wait(&request, MPI_STATUS_IGNORE));

    MPI_CHECK(MPI_Finalize());
    if (!g_first_ran || !g_second_ran) {
        fprintf(stderr, "finalize_hooks: rank %d: a delete callback of MPI_COMM_SELF did not run\n",
                rank);
        return 1;
    }
    return g_status;
}
