/* large_counts: MPI 4.0's large-count (_c) communication functions with derived types.
 *  - MPI_Send_c / MPI_Recv_c, MPI_Isend_c / MPI_Irecv_c, MPI_Sendrecv_c,
 *    MPI_Sendrecv_replace_c of a vector type, with MPI_Get_count_c;
 *  - MPI_Bcast_c of a struct type, MPI_Allreduce_c, MPI_Reduce_c, MPI_Reduce_scatter_c (an
 *    array of counts), MPI_Alltoall_c, MPI_Alltoallv_c and MPI_Ialltoallv_c (arrays of counts
 *    and displacements) of a vector type, MPI_Gatherv_c at root 3;
 *  - MPI_Bsend_c through MPI_Buffer_attach_c / MPI_Buffer_detach_c, an operation of
 *    MPI_Op_create_c (its function takes an MPI_Count length) in MPI_Allreduce_c, and
 *    MPI_Win_shared_query_c of a window of MPI_Win_allocate_shared_c;
 *  - built against Open MPI's mpi.h, a message of more than INT_MAX bytes (2^31 + 25
 *    MPI_BYTEs) from rank 0 to rank 1, with MPI_Get_count_c.
 * Built against an mpi.h without them (Open MPI's, MPI 3.1), the functions are declared weak
 * (large_counts.h): the program then runs where a library serves them (mpi-dtype, preloaded
 * over Open MPI) and says so and fails where none does. */
#include "../../large_counts.h"
#include "check_mpi.h"
#include <limits.h>
#include <stddef.h>
#include <unistd.h>

#ifdef OPEN_MPI
#define BUILT_FOR_OPEN_MPI 1
#else
#define BUILT_FOR_OPEN_MPI 0
#endif

static int prev_of(int r) { return (r + 3) % 4; }
static int next_of(int r) { return (r + 1) % 4; }

/* Every function of this program the MPI library serves */
static int served(void)
{
#if MPI_VERSION < 4
    void *needed[] = {(void *)MPI_Send_c,          (void *)MPI_Recv_c,
                      (void *)MPI_Isend_c,         (void *)MPI_Irecv_c,
                      (void *)MPI_Sendrecv_c,      (void *)MPI_Sendrecv_replace_c,
                      (void *)MPI_Bcast_c,         (void *)MPI_Allreduce_c,
                      (void *)MPI_Reduce_c,        (void *)MPI_Reduce_scatter_c,
                      (void *)MPI_Alltoall_c,      (void *)MPI_Alltoallv_c,
                      (void *)MPI_Ialltoallv_c,    (void *)MPI_Gatherv_c,
                      (void *)MPI_Get_count_c,     (void *)MPI_Type_vector_c,
                      (void *)MPI_Bsend_c,         (void *)MPI_Buffer_attach_c,
                      (void *)MPI_Buffer_detach_c, (void *)MPI_Op_create_c,
                      (void *)MPI_Win_allocate_shared_c, (void *)MPI_Win_shared_query_c};
    size_t i;
    for (i = 0; i < sizeof needed / sizeof needed[0]; i++)
        if (needed[i] == NULL)
            return 0;
#endif
    return 1;
}

/* A vector of 3 blocks of 2 ints, stride 5 (ints 0,1,5,6,10,11; extent 12 ints) */
static MPI_Datatype spaced_pairs(void)
{
    MPI_Datatype v;
    MPI_CHECK(MPI_Type_vector_c(3, 2, 5, MPI_INT, &v));
    MPI_CHECK(MPI_Type_commit(&v));
    return v;
}

/* The int at index i of `copies` copies of spaced_pairs() laid out in memory, or -1 in a gap */
static int in_pairs(const int *sent, int i)
{
    int in_copy = i % 12;
    return (in_copy % 5 < 2 && in_copy < 12) ? sent[i] : -1;
}

static void point_to_point(int rank)
{
    MPI_Datatype v = spaced_pairs();
    int s[48], r[48], w[48], i;
    MPI_Status st, sts[2];
    MPI_Request reqs[2];
    MPI_Count n = -1;

    for (i = 0; i < 48; i++) {
        s[i] = rank * 1000 + i;
        r[i] = -1;
    }
    /* blocking, to the next rank */
    MPI_CHECK(MPI_Sendrecv_c(s, 4, v, next_of(rank), 1, r, 4, v, prev_of(rank), 1,
                             MPI_COMM_WORLD, &st));
    for (i = 0; i < 48; i++)
        w[i] = in_pairs(s, i) < 0 ? -1 : (prev_of(rank) * 1000 + i);
    CHECK_INTS(r, w, 48, "large_counts: MPI_Sendrecv_c of 4 vectors");
    MPI_CHECK(MPI_Get_count_c(&st, v, &n));
    CHECK_INT(n, 4, "large_counts: MPI_Get_count_c after MPI_Sendrecv_c");

    /* MPI_Send_c / MPI_Recv_c: even ranks send first */
    for (i = 0; i < 48; i++)
        r[i] = -1;
    if (rank % 2 == 0) {
        MPI_CHECK(MPI_Send_c(s, 3, v, next_of(rank), 2, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Recv_c(r, 4, v, prev_of(rank), 2, MPI_COMM_WORLD, &st));
    } else {
        MPI_CHECK(MPI_Recv_c(r, 4, v, prev_of(rank), 2, MPI_COMM_WORLD, &st));
        MPI_CHECK(MPI_Send_c(s, 3, v, next_of(rank), 2, MPI_COMM_WORLD));
    }
    for (i = 0; i < 48; i++)
        w[i] = (i >= 36 || in_pairs(s, i) < 0) ? -1 : (prev_of(rank) * 1000 + i);
    CHECK_INTS(r, w, 48, "large_counts: MPI_Recv_c of 3 of 4 vectors");
    MPI_CHECK(MPI_Get_count_c(&st, v, &n));
    CHECK_INT(n, 3, "large_counts: MPI_Get_count_c after a short MPI_Recv_c");

    /* nonblocking */
    for (i = 0; i < 48; i++)
        r[i] = -1;
    MPI_CHECK(MPI_Irecv_c(r, 2, v, next_of(rank), 3, MPI_COMM_WORLD, &reqs[0]));
    MPI_CHECK(MPI_Isend_c(s, 2, v, prev_of(rank), 3, MPI_COMM_WORLD, &reqs[1]));
    MPI_CHECK(MPI_Waitall(2, reqs, sts));
    for (i = 0; i < 48; i++)
        w[i] = (i >= 24 || in_pairs(s, i) < 0) ? -1 : (next_of(rank) * 1000 + i);
    CHECK_INTS(r, w, 48, "large_counts: MPI_Irecv_c of 2 vectors");

    /* in place: what was sent is replaced by what arrives */
    for (i = 0; i < 48; i++)
        r[i] = rank * 1000 + i;
    MPI_CHECK(MPI_Sendrecv_replace_c(r, 4, v, next_of(rank), 4, prev_of(rank), 4,
                                     MPI_COMM_WORLD, &st));
    for (i = 0; i < 48; i++)
        w[i] = in_pairs(s, i) < 0 ? rank * 1000 + i : prev_of(rank) * 1000 + i;
    CHECK_INTS(r, w, 48, "large_counts: MPI_Sendrecv_replace_c of 4 vectors");
    MPI_CHECK(MPI_Type_free(&v));
}

struct particle {
    double x[3];
    int id;
};

static void collectives(int rank)
{
    MPI_Datatype v = spaced_pairs(), p;
    int blocklengths[2] = {3, 1};
    MPI_Aint displs[2] = {offsetof(struct particle, x), offsetof(struct particle, id)};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
    struct particle parts[5];
    int i, k, q;

    /* MPI_Bcast_c of a struct type from root 2 */
    MPI_CHECK(MPI_Type_create_struct(2, blocklengths, displs, types, &p));
    MPI_CHECK(MPI_Type_commit(&p));
    memset(parts, 0, sizeof parts);
    for (i = 0; i < 5; i++) {
        parts[i].id = rank == 2 ? 100 + i : -1;
        for (k = 0; k < 3; k++)
            parts[i].x[k] = rank == 2 ? i + k / 4.0 : -1.0;
    }
    MPI_CHECK(MPI_Bcast_c(parts, 5, p, 2, MPI_COMM_WORLD));
    for (i = 0; i < 5; i++) {
        CHECK_INT(parts[i].id, 100 + i, "large_counts: MPI_Bcast_c of a struct: id");
        CHECK(parts[i].x[2] == i + 0.5, "large_counts: MPI_Bcast_c of a struct: x",
              "got %g", parts[i].x[2]);
    }
    MPI_CHECK(MPI_Type_free(&p));

    /* reductions */
    {
        int in[10], sum[10], root_sum[10], want[10], part[4], got_part[4];
        MPI_Count counts[4] = {1, 2, 3, 4};
        for (i = 0; i < 10; i++) {
            in[i] = rank * 10 + i;
            want[i] = (0 + 10 + 20 + 30) + 4 * i;
            root_sum[i] = -1;
        }
        MPI_CHECK(MPI_Allreduce_c(in, sum, 10, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK_INTS(sum, want, 10, "large_counts: MPI_Allreduce_c");
        MPI_CHECK(MPI_Reduce_c(in, root_sum, 10, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD));
        if (rank == 1)
            CHECK_INTS(root_sum, want, 10, "large_counts: MPI_Reduce_c at the root");
        /* rank r gets r + 1 sums, after those of the ranks before it */
        MPI_CHECK(MPI_Reduce_scatter_c(in, got_part, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        for (i = 0; i <= rank; i++)
            part[i] = want[rank * (rank + 1) / 2 + i];
        CHECK_INTS(got_part, part, rank + 1, "large_counts: MPI_Reduce_scatter_c");
    }

    /* MPI_Alltoall_c: one vector to each rank, received as 6 ints */
    {
        int s[48], r[24], w[24];
        for (i = 0; i < 48; i++)
            s[i] = rank * 1000 + i;
        MPI_CHECK(MPI_Alltoall_c(s, 1, v, r, 6, MPI_INT, MPI_COMM_WORLD));
        for (q = 0; q < 4; q++) {
            int at = 0;
            for (i = 0; i < 12; i++)
                if (i % 5 < 2)
                    w[q * 6 + at++] = q * 1000 + rank * 12 + i;
        }
        CHECK_INTS(r, w, 24, "large_counts: MPI_Alltoall_c of vectors into ints");
    }

    /* MPI_Alltoallv_c and MPI_Ialltoallv_c: r + 1 ints from displacement 3r of rank q's
     * buffer to rank r, received as r + 1 copies of an int resized to 12 ints, the block of
     * rank q at displacement q(r + 1) of those extents */
    {
        int s[16], r[192], w[192], blocking;
        MPI_Count sc[4], rc[4];
        MPI_Aint sd[4], rd[4];
        MPI_Datatype one;
        MPI_CHECK(MPI_Type_create_resized(MPI_INT, 0, 12 * sizeof(int), &one));
        MPI_CHECK(MPI_Type_commit(&one));
        for (blocking = 1; blocking >= 0; blocking--) {
            for (i = 0; i < 16; i++)
                s[i] = rank * 100 + i;
            for (i = 0; i < 192; i++)
                r[i] = w[i] = -1;
            for (q = 0; q < 4; q++) {
                sc[q] = q + 1;
                sd[q] = 3 * q;
                rc[q] = rank + 1;
                rd[q] = q * (rank + 1);
                for (k = 0; k <= rank; k++)
                    w[(q * (rank + 1) + k) * 12] = q * 100 + 3 * rank + k;
            }
            if (blocking) {
                MPI_CHECK(MPI_Alltoallv_c(s, sc, sd, MPI_INT, r, rc, rd, one, MPI_COMM_WORLD));
            } else {
                MPI_Request req;
                MPI_CHECK(MPI_Ialltoallv_c(s, sc, sd, MPI_INT, r, rc, rd, one, MPI_COMM_WORLD,
                                           &req));
                MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            }
            CHECK_INTS(r, w, 192,
                       blocking ? "large_counts: MPI_Alltoallv_c" : "large_counts: MPI_Ialltoallv_c");
        }
        MPI_CHECK(MPI_Type_free(&one));
    }

    /* MPI_Gatherv_c at root 3: rank q sends one vector, the root receives it as 6 ints at
     * displacement 8q */
    {
        int s[12], r[32], w[32];
        MPI_Count rc[4] = {6, 6, 6, 6};
        MPI_Aint rd[4] = {0, 8, 16, 24};
        for (i = 0; i < 12; i++)
            s[i] = rank * 100 + i;
        for (i = 0; i < 32; i++)
            r[i] = w[i] = -1;
        MPI_CHECK(MPI_Gatherv_c(s, 1, v, r, rc, rd, MPI_INT, 3, MPI_COMM_WORLD));
        if (rank == 3) {
            for (q = 0; q < 4; q++) {
                int at = 0;
                for (i = 0; i < 12; i++)
                    if (i % 5 < 2)
                        w[8 * q + at++] = q * 100 + i;
            }
            CHECK_INTS(r, w, 32, "large_counts: MPI_Gatherv_c at the root");
        }
    }
    MPI_CHECK(MPI_Type_free(&v));
}

/* inout[i] = in[i] + inout[i], counting the elements it is called with */
static long g_summed;

static void summed(void *in, void *inout, MPI_Count *len, MPI_Datatype *datatype)
{
    const int *a = in;
    int *b = inout;
    MPI_Count i;
    (void)datatype;
    for (i = 0; i < *len; i++)
        b[i] += a[i];
    g_summed += (long)*len;
}

static void buffers_ops_windows(int rank)
{
    int i, q;
    /* MPI_Bsend_c of a vector through an attached buffer */
    {
        MPI_Datatype v = spaced_pairs();
        int s[24], r[24], w[24], bytes = 0;
        MPI_Count detached = -1;
        void *buffer, *back = NULL;
        MPI_Status st;
        MPI_CHECK(MPI_Pack_size(2, v, MPI_COMM_WORLD, &bytes));
        bytes += MPI_BSEND_OVERHEAD;
        buffer = malloc((size_t)bytes);
        MPI_CHECK(MPI_Buffer_attach_c(buffer, bytes));
        for (i = 0; i < 24; i++) {
            s[i] = rank * 100 + i;
            r[i] = -1;
            w[i] = in_pairs(s, i) < 0 ? -1 : prev_of(rank) * 100 + i;
        }
        MPI_CHECK(MPI_Bsend_c(s, 2, v, next_of(rank), 20, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Recv_c(r, 2, v, prev_of(rank), 20, MPI_COMM_WORLD, &st));
        CHECK_INTS(r, w, 24, "large_counts: MPI_Bsend_c of 2 vectors");
        MPI_CHECK(MPI_Buffer_detach_c(&back, &detached));
        CHECK(back == buffer, "large_counts: MPI_Buffer_detach_c's buffer", "got %p", back);
        CHECK_INT(detached, bytes, "large_counts: MPI_Buffer_detach_c's size");
        free(buffer);
        MPI_CHECK(MPI_Type_free(&v));
    }
    /* MPI_Allreduce_c with an operation of MPI_Op_create_c (not said to commute) */
    {
        MPI_Op op;
        int in[5], out[5], w[5];
        long calls;
        MPI_CHECK(MPI_Op_create_c(summed, 0, &op));
        for (i = 0; i < 5; i++) {
            in[i] = rank + 10 * i;
            w[i] = 6 + 40 * i;
        }
        g_summed = 0;
        MPI_CHECK(MPI_Allreduce_c(in, out, 5, MPI_INT, op, MPI_COMM_WORLD));
        CHECK_INTS(out, w, 5, "large_counts: MPI_Allreduce_c of an operation of MPI_Op_create_c");
        /* three combinations of 5 elements happen somewhere */
        MPI_CHECK(MPI_Allreduce(&g_summed, &calls, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
        CHECK(calls >= 15 && calls % 5 == 0, "large_counts: the elements the operation combined",
              "%ld", calls);
        MPI_CHECK(MPI_Op_free(&op));
    }
    /* MPI_Win_shared_query_c: each rank's memory, its size and displacement unit */
    {
        MPI_Comm node;
        MPI_Win win;
        int *mine = NULL, node_rank, node_size;
        MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                                      &node));
        MPI_CHECK(MPI_Comm_rank(node, &node_rank));
        MPI_CHECK(MPI_Comm_size(node, &node_size));
        MPI_CHECK(MPI_Win_allocate_shared_c((node_rank + 1) * (MPI_Aint)sizeof(int), sizeof(int),
                                            MPI_INFO_NULL, node, &mine, &win));
        MPI_CHECK(MPI_Win_fence(0, win));
        for (i = 0; i <= node_rank; i++)
            mine[i] = node_rank * 10 + i;
        MPI_CHECK(MPI_Win_fence(0, win));
        for (q = 0; q < node_size; q++) {
            MPI_Aint size = -1, unit = -1;
            int *theirs = NULL;
            MPI_CHECK(MPI_Win_shared_query_c(win, q, &size, &unit, &theirs));
            CHECK_INT(size, (q + 1) * sizeof(int), "large_counts: MPI_Win_shared_query_c's size");
            CHECK_INT(unit, sizeof(int), "large_counts: MPI_Win_shared_query_c's unit");
            CHECK(theirs != NULL && theirs[q] == q * 10 + q,
                  "large_counts: MPI_Win_shared_query_c's memory", "of rank %d", q);
        }
        MPI_CHECK(MPI_Win_fence(0, win));
        MPI_CHECK(MPI_Win_free(&win));
        MPI_CHECK(MPI_Comm_free(&node));
    }
}

/* Waits for every rank without keeping a core busy (4 ranks share 2 cores here, and the ones
 * moving 2 GB need them) */
static void gently_wait_for_all(void)
{
    MPI_Request req;
    int done = 0;
    MPI_CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &req));
    for (;;) {
        MPI_CHECK(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
        if (done)
            break;
        usleep(2000);
    }
}

/* 2^31 + 25 bytes from rank 0 to rank 1, as MPI_BYTEs, with MPI_Get_count_c */
static void beyond_int(int rank)
{
    const MPI_Count n = (MPI_Count)INT_MAX + 26;
    unsigned char *buf;
    MPI_Count i, got = -1;

    if (rank > 1) {
        gently_wait_for_all();
        return;
    }
    buf = malloc((size_t)n);
    if (buf == NULL) {
        fprintf(stderr, "large_counts: no memory for %lld bytes\n", (long long)n);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (rank == 0) {
        for (i = 0; i < n; i += 4096)
            buf[i] = (unsigned char)(i / 4096);
        buf[n - 1] = 0x5a;
        MPI_CHECK(MPI_Send_c(buf, n, MPI_BYTE, 1, 10, MPI_COMM_WORLD));
    } else {
        MPI_Status st;
        long bad = 0;
        memset(buf, 0, (size_t)n);
        MPI_CHECK(MPI_Recv_c(buf, n, MPI_BYTE, 0, 10, MPI_COMM_WORLD, &st));
        for (i = 0; i < n; i += 4096)
            bad += buf[i] != (unsigned char)(i / 4096);
        CHECK(bad == 0 && buf[n - 1] == 0x5a, "large_counts: a message of more than INT_MAX bytes",
              "%ld bytes wrong", bad);
        MPI_CHECK(MPI_Get_count_c(&st, MPI_BYTE, &got));
        CHECK_INT(got, n, "large_counts: MPI_Get_count_c of more than INT_MAX");
    }
    free(buf);
    gently_wait_for_all();
}

int main(int argc, char **argv)
{
    int rank, size;

    start(&argc, &argv, "large_counts", &rank, &size);
    if (!served()) {
        if (rank == 0)
            printf("large_counts: the MPI library has no large-count communication functions\n");
        MPI_Finalize();
        return 1;
    }
    point_to_point(rank);
    collectives(rank);
    buffers_ops_windows(rank);
    /* Only where mpi-dtype builds the message's type (over Open MPI, which has no _c
     * functions): elsewhere MPI_Send_c is the MPI library's own, and Intel MPI takes minutes
     * for 2 GB between two ranks on a busy machine. */
    if (BUILT_FOR_OPEN_MPI)
        beyond_int(rank);
    return finish();
}
