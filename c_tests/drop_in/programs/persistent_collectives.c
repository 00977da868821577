/* persistent_collectives: all 22 persistent collectives, each with a derived type and started
 * twice with new data, checked whole after each start. Built against Open MPI 4.1's headers
 * they are the MPIX_ functions of its pcollreq extension (mpi-ext.h), which MPI 4.0 made
 * standard with the same signatures; elsewhere the MPI_ ones.
 *  - Blocks: MPI_Bcast_init of a vector with gaps, and MPI_Allgather(v)_init,
 *    MPI_Alltoall(v,w)_init, MPI_Gather(v)_init, MPI_Scatter(v)_init and the neighbourhood
 *    allgather(v)/alltoall(v,w) on a periodic ring, each sending a vector and receiving 6 ints.
 *  - Reductions, by an operation of the program's own that adds pairs of ints, over a
 *    contiguous type of 2 ints (MPI's predefined operations take only predefined types):
 *    MPI_Allreduce_init, MPI_Reduce_init, MPI_Scan_init, MPI_Exscan_init,
 *    MPI_Reduce_scatter_init, MPI_Reduce_scatter_block_init.
 *  - MPI_Barrier_init.
 * MPICH 4.0.2 and Intel MPI 2021.19 themselves get three wrong: MPI_Allgather_init and
 * MPI_Gather_init deliver wrong data, and MPI_Scatter_init made after another persistent
 * collective was freed fails in MPI_Wait. Over those the program skips the three and says so. */
#include "persistent_starts.h"

#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
#include <mpi-ext.h>
#define PERSISTENT(name) MPIX_##name
#else
#define PERSISTENT(name) MPI_##name
#endif

#define N 48 /* ints of every buffer (persistent_starts.h) */

/* True if the MPI library gets the persistent collective `name` wrong itself: one of three, in
 * MPICH before 5 and in Intel MPI. Says so on rank 0. */
static int skipped(const char *name)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, major = 0;
    MPI_CHECK(MPI_Get_library_version(version, &len));
    const int old_mpich = sscanf(version, "MPICH Version: %d", &major) == 1 && major < 5;
    const int broken = !strcmp(name, "Allgather_init") || !strcmp(name, "Gather_init") ||
                       !strcmp(name, "Scatter_init");
    if (!broken || !(old_mpich || strstr(version, "Intel")))
        return 0;
    if (g_rank == 0)
        printf("%s: %s skipped (this MPI gets it wrong)\n", g_prog, name);
    return 1;
}

static int prev_of(int r) { return (r + 3) % 4; }
static int next_of(int r) { return (r + 1) % 4; }

/* The data rank r sends at start k: int i of its send buffer is first(r, k) + i. */
static int first(int r, int k) { return 10000 * k + 100 * r; }

/* The operation of the reductions: adds `len` pairs of ints. */
static void add_pairs(void *in, void *inout, int *len, MPI_Datatype *datatype)
{
    (void)datatype;
    for (int i = 0; i < 2 * *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

/* The sum over ranks from..to-1 of what each sends as int i at start k. */
static int sum_of(int from, int to, int k, int i)
{
    int total = 0;
    for (int q = from; q < to; q++)
        total += first(q, k) + i;
    return total;
}

int main(int argc, char **argv)
{
    int rank, size, s[N], r[N], w[N], k, q;
    int ones[4] = {1, 1, 1, 1}, sixes[4] = {6, 6, 6, 6}, at6[4] = {0, 6, 12, 18};
    int extents[4] = {0, 1, 2, 3}, bytes12[4], bytes6[4];
    MPI_Datatype v, pair, vs[4], ints[4];
    MPI_Comm ring;
    MPI_Op add;
    MPI_Request req;
    int dims[1] = {4}, periods[1] = {1};

    start(&argc, &argv, "persistent_collectives", &rank, &size);
    MPI_CHECK(MPI_Type_vector(3, 2, 5, MPI_INT, &v));
    MPI_CHECK(MPI_Type_commit(&v));
    MPI_CHECK(MPI_Type_contiguous(2, MPI_INT, &pair));
    MPI_CHECK(MPI_Type_commit(&pair));
    MPI_CHECK(MPI_Op_create(add_pairs, 1, &add));
    for (q = 0; q < 4; q++) {
        bytes12[q] = 12 * q * (int)sizeof(int);
        bytes6[q] = 6 * q * (int)sizeof(int);
        vs[q] = v;
        ints[q] = MPI_INT;
    }
    MPI_CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));

    /* MPI_Bcast_init from rank 1 of a vector: the others' buffers change only at its ints. */
    MPI_CHECK(PERSISTENT(Bcast_init)(r, 1, v, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    for (k = 0; k < 2; k++) {
        for (int i = 0; i < N; i++)
            r[i] = w[i] = rank == 1 ? first(1, k) + i : -1;
        MPI_CHECK(MPI_Start(&req));
        MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        placed_pairs(w, 0, first(1, k));
        check_start(r, w, "Bcast_init of a vector", "", k);
        CHECK(req != MPI_REQUEST_NULL, "persistent_collectives: the request stays", "null");
    }
    MPI_CHECK(MPI_Request_free(&req));

    /* The gathers: one vector from each rank, as 6 ints at 6 * rank. */
    for (int which = 0; which < 4; which++) {
        static const char *names[4] = {"Allgather_init", "Allgatherv_init", "Gather_init",
                                       "Gatherv_init"};
        const int root = which >= 2 ? 2 : -1;
        if (skipped(names[which]))
            continue;
        if (which == 0)
            MPI_CHECK(PERSISTENT(Allgather_init)(s, 1, v, r, 6, MPI_INT, MPI_COMM_WORLD,
                                                 MPI_INFO_NULL, &req));
        else if (which == 1)
            MPI_CHECK(PERSISTENT(Allgatherv_init)(s, 1, v, r, sixes, at6, MPI_INT, MPI_COMM_WORLD,
                                                  MPI_INFO_NULL, &req));
        else if (which == 2)
            MPI_CHECK(PERSISTENT(Gather_init)(s, 1, v, r, 6, MPI_INT, root, MPI_COMM_WORLD,
                                              MPI_INFO_NULL, &req));
        else
            MPI_CHECK(PERSISTENT(Gatherv_init)(s, 1, v, r, sixes, at6, MPI_INT, root,
                                               MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (k = 0; k < 2; k++) {
            one_start(&req, s, first(rank, k), r, w);
            if (root < 0 || rank == root)
                for (q = 0; q < 4; q++)
                    packed_pairs(w, 6 * q, first(q, k));
            check_start(r, w, names[which], "", k);
        }
        MPI_CHECK(MPI_Request_free(&req));
    }

    /* The exchanges and scatters: vector q (from int 12 q) to rank q, 6 ints from each. */
    for (int which = 0; which < 5; which++) {
        static const char *names[5] = {"Alltoall_init", "Alltoallv_init", "Alltoallw_init",
                                       "Scatter_init", "Scatterv_init"};
        const int root = which >= 3 ? 3 : -1;
        if (skipped(names[which]))
            continue;
        if (which == 0)
            MPI_CHECK(PERSISTENT(Alltoall_init)(s, 1, v, r, 6, MPI_INT, MPI_COMM_WORLD,
                                                MPI_INFO_NULL, &req));
        else if (which == 1)
            MPI_CHECK(PERSISTENT(Alltoallv_init)(s, ones, extents, v, r, sixes, at6, MPI_INT,
                                                 MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        else if (which == 2)
            MPI_CHECK(PERSISTENT(Alltoallw_init)(s, ones, bytes12, vs, r, sixes, bytes6, ints,
                                                 MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        else if (which == 3)
            MPI_CHECK(PERSISTENT(Scatter_init)(s, 1, v, r, 6, MPI_INT, root, MPI_COMM_WORLD,
                                               MPI_INFO_NULL, &req));
        else
            MPI_CHECK(PERSISTENT(Scatterv_init)(s, ones, extents, v, r, 6, MPI_INT, root,
                                                MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (k = 0; k < 2; k++) {
            one_start(&req, s, first(rank, k), r, w);
            if (root < 0)
                for (q = 0; q < 4; q++)
                    packed_pairs(w, 6 * q, first(q, k) + 12 * rank);
            else
                packed_pairs(w, 0, first(root, k) + 12 * rank);
            check_start(r, w, names[which], "", k);
        }
        MPI_CHECK(MPI_Request_free(&req));
    }

    /* The neighbourhood collectives on the ring: neighbour 0 is the previous rank, 1 the
     * next. The alltoalls send block 0 (a vector) to the previous rank and block 1 to the
     * next, so block 0 received comes from the previous rank's block 1 and block 1 from the
     * next rank's block 0; the allgathers send the one vector to both. */
    for (int which = 0; which < 5; which++) {
        static const char *names[5] = {"Neighbor_alltoall_init", "Neighbor_alltoallv_init",
                                       "Neighbor_alltoallw_init", "Neighbor_allgather_init",
                                       "Neighbor_allgatherv_init"};
        if (which == 0)
            MPI_CHECK(PERSISTENT(Neighbor_alltoall_init)(s, 1, v, r, 6, MPI_INT, ring,
                                                         MPI_INFO_NULL, &req));
        else if (which == 1)
            MPI_CHECK(PERSISTENT(Neighbor_alltoallv_init)(s, ones, extents, v, r, sixes, at6,
                                                          MPI_INT, ring, MPI_INFO_NULL, &req));
        else if (which == 2)
            MPI_CHECK(PERSISTENT(Neighbor_alltoallw_init)(s, ones, (const MPI_Aint[]){0, 48}, vs,
                                                          r, sixes, (const MPI_Aint[]){0, 24},
                                                          ints, ring, MPI_INFO_NULL, &req));
        else if (which == 3)
            MPI_CHECK(PERSISTENT(Neighbor_allgather_init)(s, 1, v, r, 6, MPI_INT, ring,
                                                          MPI_INFO_NULL, &req));
        else
            MPI_CHECK(PERSISTENT(Neighbor_allgatherv_init)(s, 1, v, r, sixes, at6, MPI_INT, ring,
                                                           MPI_INFO_NULL, &req));
        for (k = 0; k < 2; k++) {
            const int gathers = which >= 3;
            one_start(&req, s, first(rank, k), r, w);
            packed_pairs(w, 0, first(prev_of(rank), k) + (gathers ? 0 : 12));
            packed_pairs(w, 6, first(next_of(rank), k));
            check_start(r, w, names[which], "", k);
        }
        MPI_CHECK(MPI_Request_free(&req));
    }

    /* The reductions of 3 pairs of ints (Reduce_scatter: one pair to each rank). */
    for (int which = 0; which < 6; which++) {
        static const char *names[6] = {"Allreduce_init", "Reduce_init", "Scan_init",
                                       "Exscan_init", "Reduce_scatter_init",
                                       "Reduce_scatter_block_init"};
        if (which == 0)
            MPI_CHECK(PERSISTENT(Allreduce_init)(s, r, 3, pair, add, MPI_COMM_WORLD,
                                                 MPI_INFO_NULL, &req));
        else if (which == 1)
            MPI_CHECK(PERSISTENT(Reduce_init)(s, r, 3, pair, add, 0, MPI_COMM_WORLD,
                                              MPI_INFO_NULL, &req));
        else if (which == 2)
            MPI_CHECK(PERSISTENT(Scan_init)(s, r, 3, pair, add, MPI_COMM_WORLD, MPI_INFO_NULL,
                                            &req));
        else if (which == 3)
            MPI_CHECK(PERSISTENT(Exscan_init)(s, r, 3, pair, add, MPI_COMM_WORLD,
                                              MPI_INFO_NULL, &req));
        else if (which == 4)
            MPI_CHECK(PERSISTENT(Reduce_scatter_init)(s, r, ones, pair, add, MPI_COMM_WORLD,
                                                      MPI_INFO_NULL, &req));
        else
            MPI_CHECK(PERSISTENT(Reduce_scatter_block_init)(s, r, 1, pair, add,
                                                            MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (k = 0; k < 2; k++) {
            one_start(&req, s, first(rank, k), r, w);
            for (int i = 0; i < 6; i++) {
                if (which == 0 || (which == 1 && rank == 0))
                    w[i] = sum_of(0, 4, k, i);
                else if (which == 2)
                    w[i] = sum_of(0, rank + 1, k, i);
                else if (which == 3 && rank > 0)
                    w[i] = sum_of(0, rank, k, i);
                else if (which >= 4 && i < 2)
                    w[i] = sum_of(0, 4, k, 2 * rank + i);
            }
            if (which == 3 && rank == 0) /* rank 0's result of an exscan is undefined */
                memcpy(w, r, 6 * sizeof(int));
            check_start(r, w, names[which], "", k);
        }
        MPI_CHECK(MPI_Request_free(&req));
    }

    /* MPI_Barrier_init, started twice. */
    MPI_CHECK(PERSISTENT(Barrier_init)(MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    for (k = 0; k < 2; k++) {
        MPI_CHECK(MPI_Start(&req));
        MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK(req != MPI_REQUEST_NULL, "persistent_collectives: the barrier's request stays",
              "null");
    }
    MPI_CHECK(MPI_Request_free(&req));

    MPI_CHECK(MPI_Comm_free(&ring));
    MPI_CHECK(MPI_Op_free(&add));
    MPI_CHECK(MPI_Type_free(&pair));
    MPI_CHECK(MPI_Type_free(&v));
    return finish();
}
