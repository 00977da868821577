/* spawned: collectives between the 4 ranks of the job and 2 processes they spawn
 * (MPI_Comm_spawn of this program), which have a world of their own: MPI_Allgather and
 * MPI_Alltoall over the intercommunicator, and over the intracommunicator of the two worlds
 * (MPI_Intercomm_merge). Each process's side is a layout of its own for one type signature
 * (doubles): every other double (a resized MPI_DOUBLE), plain MPI_DOUBLEs or a contiguous type
 * of 4 doubles, in blocks of 64 KiB, long enough that an MPI cuts them into pieces. A
 * process sends in its own layout and receives in the next one's. The processes of the two
 * worlds cannot know alike what the others run, so these must move alike on every side.
 * Every receive buffer is filled with sentinels first and compared whole, gaps included.
 *
 * Debian's MPICH 4.0.2 fails MPI_Comm_spawn here ("Error in spawn call"), and Intel MPI
 * 2021.19 spawns only over its shm:ofi fabric, not over the shm one it runs with here.
 * Cannot run over: mpich4 impi */
#include "double_layouts.h"

#define B 8192 /* doubles of a block */
#define SPAWNED 2

/* The value of double i of the block process `src` sends process `dst` (numbered as in the
 * merged communicator; dst -1: the same block for everyone). */
static double val(int src, int dst, int i) { return src * 1e6 + (dst + 1) * 1e5 + i; }

/* A buffer of `blocks` blocks in layout l, block k from src[k] to dst[k] (`fill` unset: the
 * sentinel -1 everywhere, to receive into). */
static double *blocks_of(const layout_t *l, int blocks, const int *src, const int *dst,
                         int fill)
{
    size_t doubles = (size_t)blocks * B * l->gap;
    double *buf = malloc(doubles * sizeof *buf);
    for (size_t i = 0; i < doubles; i++)
        buf[i] = -1.0;
    for (int k = 0; fill && k < blocks; k++)
        for (int i = 0; i < B; i++)
            buf[((size_t)k * B + i) * l->gap] = val(src[k], dst[k], i);
    return buf;
}

static void expect(const double *got, const layout_t *l, int blocks, const int *src,
                   const int *dst, const char *what)
{
    double *want = blocks_of(l, blocks, src, dst, 1);
    CHECK_DOUBLES(got, want, (size_t)blocks * B * l->gap, what);
    free(want);
}

/* MPI_Allgather and MPI_Alltoall over `comm`, whose processes are numbered `id` (this one)
 * and ids[k] (the k-th of the `n` it exchanges with: the remote group of an
 * intercommunicator, or every process). */
static void exchange(MPI_Comm comm, int id, const int *ids, int n, const char *over)
{
    const layout_t *s = &g_layouts[id % 3], *r = &g_layouts[(id + 1) % 3];
    int me[8], everyone[8];
    char what[96];
    for (int k = 0; k < n; k++) {
        me[k] = id;
        everyone[k] = -1;
    }
    double *out = blocks_of(s, 1, &id, everyone, 1);
    double *in = blocks_of(r, n, ids, everyone, 0);
    MPI_CHECK(MPI_Allgather(out, B / s->per, s->type, in, B / r->per, r->type, comm));
    snprintf(what, sizeof what, "MPI_Allgather over %s", over);
    expect(in, r, n, ids, everyone, what);
    free(out);
    free(in);
    out = blocks_of(s, n, me, ids, 1);
    in = blocks_of(r, n, ids, me, 0);
    MPI_CHECK(MPI_Alltoall(out, B / s->per, s->type, in, B / r->per, r->type, comm));
    snprintf(what, sizeof what, "MPI_Alltoall over %s", over);
    expect(in, r, n, ids, me, what);
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    MPI_Comm parent, inter, merged;
    int rank, size, id, ids[8];
    MPI_CHECK(MPI_Init(&argc, &argv));
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_Comm_get_parent(&parent));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int spawned = parent != MPI_COMM_NULL;
    g_prog = "spawned";
    g_rank = spawned ? 4 + rank : rank;
    if (spawned) {
        inter = parent;
    } else {
        if (size != 4) {
            if (rank == 0)
                fprintf(stderr, "spawned: needs exactly 4 ranks, got %d\n", size);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        int codes[SPAWNED];
        MPI_CHECK(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, SPAWNED, MPI_INFO_NULL, 0,
                                 MPI_COMM_WORLD, &inter, codes));
    }
    MPI_CHECK(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    make_layouts();
    /* Over the intercommunicator: the job's ranks are 0-3, the spawned ones 4-5. */
    id = spawned ? 4 + rank : rank;
    int remote = spawned ? 4 : SPAWNED;
    for (int k = 0; k < remote; k++)
        ids[k] = spawned ? k : 4 + k;
    exchange(inter, id, ids, remote, "the intercommunicator");
    /* Over both worlds as one: the job's ranks first. */
    MPI_CHECK(MPI_Intercomm_merge(inter, spawned, &merged));
    MPI_CHECK(MPI_Comm_set_errhandler(merged, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_Comm_rank(merged, &id));
    for (int k = 0; k < 4 + SPAWNED; k++)
        ids[k] = k;
    exchange(merged, id, ids, 4 + SPAWNED, "the merged communicator");
    /* Every process's counts, printed by the job's rank 0. */
    long local[2] = {g_checks, g_failures}, total[2];
    MPI_CHECK(MPI_Allreduce(local, total, 2, MPI_LONG, MPI_SUM, merged));
    if (id == 0) {
        if (total[1] == 0)
            printf("spawned: all %ld checks passed\n", total[0]);
        else
            printf("spawned: %ld of %ld checks FAILED\n", total[1], total[0]);
        fflush(stdout);
    }
    free_layouts();
    MPI_CHECK(MPI_Comm_free(&merged));
    MPI_CHECK(MPI_Comm_disconnect(&inter));
    MPI_CHECK(MPI_Finalize());
    return total[1] == 0 ? 0 : 1;
}
