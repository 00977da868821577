/* mpi4: MPI-4.0 interfaces with derived types.
 *  - Large-count constructors (MPI_Type_vector_c, MPI_Type_indexed_c,
 *    MPI_Type_create_struct_c, MPI_Type_create_subarray_c, MPI_Type_create_resized_c) in
 *    MPI_Send_c/MPI_Recv_c, MPI_Bcast_c and MPI_Allgather_c, with MPI_Get_count_c,
 *    MPI_Get_elements_c, MPI_Type_size_c and MPI_Type_get_extent_c.
 *  - Persistent collectives: MPI_Bcast_init with a derived type, MPI_Alltoall_init,
 *    MPI_Gather_init and MPI_Scatter_init with a derived type on one side or both, each
 *    started three times with new data.
 *  - The persistent forms of the collectives with a count and a displacement per process
 *    (MPI_Alltoallv_init, MPI_Alltoallw_init, MPI_Allgatherv_init, and over MPICH 5
 *    MPI_Gatherv_init and MPI_Scatterv_init) and of the neighbourhood
 *    collectives on a periodic ring (MPI_Neighbor_alltoall_init, MPI_Neighbor_alltoallv_init,
 *    MPI_Neighbor_alltoallw_init, MPI_Neighbor_allgather_init), the same way; then vectors
 *    received, on a ring that is not periodic (the block from MPI_PROC_NULL stays), and with
 *    MPI_IN_PLACE. */
#include "persistent_starts.h"
#include <stddef.h>

/* True if the MPI library is MPICH 5 or later, whose rooted persistent collectives work */
static int rooted_persistent_works(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, major = 0;
    MPI_CHECK(MPI_Get_library_version(version, &len));
    return sscanf(version, "MPICH Version: %d", &major) == 1 && major >= 5;
}

static int prev_of(int r) { return (r + 3) % 4; }
static int next_of(int r) { return (r + 1) % 4; }

int main(int argc, char **argv)
{
    int rank, size, i, k, q;

    start(&argc, &argv, "mpi4", &rank, &size);

    /* 1. vector_c in MPI_Send_c / MPI_Recv_c. */
    {
        MPI_Datatype v;
        MPI_Count cnt, sz, lb, ext;
        int s[40], r[40], w[40];
        MPI_Status st;
        MPI_Request req;
        MPI_CHECK(MPI_Type_vector_c(3, 2, 5, MPI_INT, &v)); /* 0,1,5,6,10,11; extent 12 */
        MPI_CHECK(MPI_Type_commit(&v));
        MPI_CHECK(MPI_Type_size_c(v, &sz));
        CHECK_INT(sz, 6 * sizeof(int), "mpi4: MPI_Type_size_c of vector_c");
        MPI_CHECK(MPI_Type_get_extent_c(v, &lb, &ext));
        CHECK_INT(lb, 0, "mpi4: lb of vector_c");
        CHECK_INT(ext, 12 * sizeof(int), "mpi4: extent of vector_c");
        for (i = 0; i < 40; i++) {
            s[i] = rank * 1000 + i;
            r[i] = w[i] = -1 - i;
        }
        MPI_CHECK(MPI_Isend_c(s, 3, v, next_of(rank), 1, MPI_COMM_WORLD, &req));
        MPI_CHECK(MPI_Recv_c(r, 3, v, prev_of(rank), 1, MPI_COMM_WORLD, &st));
        MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (k = 0; k < 3; k++)
            for (i = 0; i < 12; i++)
                if (i % 5 < 2)
                    w[12 * k + i] = prev_of(rank) * 1000 + 12 * k + i;
        CHECK_INTS(r, w, 40, "mpi4: MPI_Isend_c/MPI_Recv_c with vector_c");
        MPI_CHECK(MPI_Get_count_c(&st, v, &cnt));
        CHECK_INT(cnt, 3, "mpi4: MPI_Get_count_c");
        MPI_CHECK(MPI_Get_elements_c(&st, v, &cnt));
        CHECK_INT(cnt, 18, "mpi4: MPI_Get_elements_c");
        MPI_CHECK(MPI_Type_free(&v));
    }

    /* 2. indexed_c and struct_c/resized_c in MPI_Bcast_c and MPI_Allgather_c. */
    {
        MPI_Datatype ix, raw, rec;
        MPI_Count bl[3] = {2, 1, 3}, dl[3] = {4, 0, 8};
        int b[24], w[24];
        MPI_CHECK(MPI_Type_indexed_c(3, bl, dl, MPI_INT, &ix)); /* 4,5,0,8,9,10; extent 11 */
        MPI_CHECK(MPI_Type_commit(&ix));
        for (i = 0; i < 24; i++)
            b[i] = w[i] = rank == 2 ? 500 + i : -1 - i;
        MPI_CHECK(MPI_Bcast_c(b, 2, ix, 2, MPI_COMM_WORLD));
        if (rank != 2) {
            int pos[6] = {4, 5, 0, 8, 9, 10};
            for (k = 0; k < 2; k++)
                for (i = 0; i < 6; i++)
                    w[11 * k + pos[i]] = 500 + 11 * k + pos[i];
        }
        CHECK_INTS(b, w, 24, "mpi4: MPI_Bcast_c of 2 indexed_c items");

        {
            struct pt {
                double x;
                int id;
                short s;
            } mine, all[4], want[4];
            MPI_Count sbl[3] = {1, 1, 1};
            MPI_Count sdl[3] = {offsetof(struct pt, x), offsetof(struct pt, id), offsetof(struct pt, s)};
            MPI_Datatype sty[3] = {MPI_DOUBLE, MPI_INT, MPI_SHORT};
            MPI_Count lb, ext;
            MPI_CHECK(MPI_Type_create_struct_c(3, sbl, sdl, sty, &raw));
            MPI_CHECK(MPI_Type_create_resized_c(raw, 0, sizeof(struct pt), &rec));
            MPI_CHECK(MPI_Type_commit(&rec));
            MPI_CHECK(MPI_Type_get_extent_c(rec, &lb, &ext));
            CHECK_INT(ext, sizeof(struct pt), "mpi4: extent of resized_c");
            memset(&mine, 0x3C, sizeof mine);
            mine.x = rank * 1.5;
            mine.id = -rank;
            mine.s = (short)(rank * 11);
            memset(all, 0xEE, sizeof all);
            memset(want, 0xEE, sizeof want);
            for (q = 0; q < 4; q++) {
                want[q].x = q * 1.5;
                want[q].id = -q;
                want[q].s = (short)(q * 11);
            }
            MPI_CHECK(MPI_Allgather_c(&mine, 1, rec, all, 1, rec, MPI_COMM_WORLD));
            CHECK_BYTES(all, want, sizeof all, "mpi4: MPI_Allgather_c of struct_c items");
            MPI_CHECK(MPI_Type_free(&raw));
            MPI_CHECK(MPI_Type_free(&rec));
        }
        MPI_CHECK(MPI_Type_free(&ix));
    }

    /* 3. subarray_c. */
    {
        MPI_Datatype sa;
        MPI_Count sizes[2] = {5, 6}, subs[2] = {2, 3}, starts[2] = {2, 1};
        int s[30], r[30], w[30], a, bb;
        MPI_CHECK(MPI_Type_create_subarray_c(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &sa));
        MPI_CHECK(MPI_Type_commit(&sa));
        for (i = 0; i < 30; i++) {
            s[i] = rank * 100 + i;
            r[i] = w[i] = -1 - i;
        }
        MPI_CHECK(MPI_Sendrecv_c(s, 1, sa, next_of(rank), 3, r, 1, sa, prev_of(rank), 3,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (a = 0; a < 2; a++)
            for (bb = 0; bb < 3; bb++)
                w[(2 + a) * 6 + 1 + bb] = prev_of(rank) * 100 + (2 + a) * 6 + 1 + bb;
        CHECK_INTS(r, w, 30, "mpi4: MPI_Sendrecv_c with subarray_c");
        MPI_CHECK(MPI_Type_free(&sa));
    }

    /* 4. A persistent collective: MPI_Bcast_init with a vector type, started three times
     * with new data.  (MPI_Allgather_init is left out: in MPICH 4.0.2 its second start
     * delivers wrong data even with MPI_INT and a derived type trips a reference-count
     * assertion; MPI_Isendrecv and MPI_Isendrecv_replace with a derived type crash it.) */
    {
        MPI_Datatype v;
        MPI_Request req;
        MPI_Status st;
        int bb[16], wb[16];
        MPI_CHECK(MPI_Type_vector(4, 1, 4, MPI_INT, &v)); /* 0,4,8,12 */
        MPI_CHECK(MPI_Type_commit(&v));
        MPI_CHECK(MPI_Bcast_init(bb, 1, v, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (k = 0; k < 3; k++) {
            char what[100];
            for (i = 0; i < 16; i++)
                bb[i] = wb[i] = rank == 1 ? 70 * k + i : -1 - i;
            MPI_CHECK(MPI_Start(&req));
            MPI_CHECK(MPI_Wait(&req, &st));
            if (rank != 1)
                for (i = 0; i < 16; i += 4)
                    wb[i] = 70 * k + i;
            snprintf(what, sizeof what, "mpi4: MPI_Bcast_init with a vector type, start %d", k + 1);
            CHECK_INTS(bb, wb, 16, what);
            CHECK(req != MPI_REQUEST_NULL, "mpi4: the persistent request stays allocated", "null");
        }
        MPI_CHECK(MPI_Request_free(&req));
        MPI_CHECK(MPI_Type_free(&v));
    }

    /* 5. Persistent collectives of a block per process: a vector of 3 pairs of ints (stride 5,
     * extent 12 ints) on one side or both, started three times with new data. MPI_Gather_init
     * and MPI_Scatter_init run over MPICH 5 only: MPICH 4.0.2 and Intel MPI 2021.19 deliver
     * wrong data at the root of MPI_Gather_init (with a derived type, and with bytes) and fail
     * an MPI_Scatter_init made after another persistent collective was freed. */
    {
        MPI_Datatype v;
        MPI_Request req;
        int s[48], r[48], w[48], start_no, rooted = rooted_persistent_works();
        MPI_CHECK(MPI_Type_vector(3, 2, 5, MPI_INT, &v));
        MPI_CHECK(MPI_Type_commit(&v));
        if (!rooted && rank == 0)
            printf("mpi4: MPI_Gather_init and MPI_Scatter_init skipped (not MPICH 5)\n");
        for (i = 0; i < 48; i++)
            s[i] = r[i] = 0;
        /* MPI_Alltoall_init: a vector to each rank, received as 6 ints */
        MPI_CHECK(MPI_Alltoall_init(s, 1, v, r, 6, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (start_no = 0; start_no < 3; start_no++) {
            one_start(&req, s, 10000 * start_no + rank * 100, r, w);
            for (q = 0; q < 4; q++)
                packed_pairs(w, 6 * q, 10000 * start_no + q * 100 + 12 * rank);
            check_start(r, w, "MPI_Alltoall_init of vectors into ints", "", start_no);
        }
        MPI_CHECK(MPI_Request_free(&req));
        /* MPI_Gather_init at root 2: a vector from each rank, received as a vector */
        if (rooted) {
            MPI_CHECK(MPI_Gather_init(s, 1, v, r, 1, v, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
            for (start_no = 0; start_no < 3; start_no++) {
                one_start(&req, s, 10000 * start_no + rank * 100, r, w);
                if (rank == 2) {
                    for (q = 0; q < 4; q++)
                        placed_pairs(w, 12 * q, 10000 * start_no + q * 100);
                    check_start(r, w, "MPI_Gather_init of vectors at the root", "", start_no);
                }
            }
            MPI_CHECK(MPI_Request_free(&req));
        }
        /* MPI_Scatter_init from root 3: a vector to each rank, received as 6 ints; one is
         * freed before it is ever started */
        if (rooted) {
            MPI_CHECK(MPI_Scatter_init(s, 1, v, r, 6, MPI_INT, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
            MPI_CHECK(MPI_Request_free(&req));
            MPI_CHECK(MPI_Scatter_init(s, 1, v, r, 6, MPI_INT, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
            for (start_no = 0; start_no < 3; start_no++) {
                one_start(&req, s, 10000 * start_no, r, w);
                packed_pairs(w, 0, 10000 * start_no + 12 * rank);
                check_start(r, w, "MPI_Scatter_init of vectors into ints", "", start_no);
            }
            MPI_CHECK(MPI_Request_free(&req));
        }
        MPI_CHECK(MPI_Type_free(&v));
    }

    /* 6. Persistent collectives with a count and a displacement per process, and persistent
     * neighbourhood collectives on a periodic ring of the 4 ranks: the same vector of 3 pairs
     * of ints on the send side, ints on the receive side, started three times each. */
    {
        MPI_Datatype v, vs[4], ints[4];
        MPI_Comm ring;
        MPI_Request req;
        int s[48], r[48], w[48], start_no, dims[1] = {4}, periods[1] = {1};
        int ones[4] = {1, 1, 1, 1}, sixes[4] = {6, 6, 6, 6}, extents[4] = {0, 1, 2, 3};
        int at6[4] = {0, 6, 12, 18}, bytes12[4], bytes6[4];
        MPI_Aint nbytes12[2], nbytes6[2];
        for (q = 0; q < 4; q++) {
            bytes12[q] = 12 * q * (int)sizeof(int);
            bytes6[q] = 6 * q * (int)sizeof(int);
        }
        nbytes12[0] = 0;
        nbytes12[1] = 12 * sizeof(int);
        nbytes6[0] = 0;
        nbytes6[1] = 6 * sizeof(int);
        MPI_CHECK(MPI_Type_vector(3, 2, 5, MPI_INT, &v));
        MPI_CHECK(MPI_Type_commit(&v));
        for (q = 0; q < 4; q++) {
            vs[q] = v;
            ints[q] = MPI_INT;
        }
        MPI_CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
        for (i = 0; i < 48; i++)
            s[i] = r[i] = 0;
        for (k = 0; k < 2; k++) {
            /* MPI_Alltoallv_init (k = 0) and MPI_Alltoallw_init (k = 1): a vector to each
             * rank, 6 ints from each */
            const char *name = k == 0 ? "MPI_Alltoallv_init" : "MPI_Alltoallw_init";
            if (k == 0)
                MPI_CHECK(MPI_Alltoallv_init(s, ones, extents, v, r, sixes, at6, MPI_INT, MPI_COMM_WORLD,
                                             MPI_INFO_NULL, &req));
            else
                MPI_CHECK(MPI_Alltoallw_init(s, ones, bytes12, vs, r, sixes, bytes6, ints, MPI_COMM_WORLD,
                                             MPI_INFO_NULL, &req));
            for (start_no = 0; start_no < 3; start_no++) {
                one_start(&req, s, 10000 * start_no + rank * 100, r, w);
                for (q = 0; q < 4; q++)
                    packed_pairs(w, 6 * q, 10000 * start_no + q * 100 + 12 * rank);
                check_start(r, w, name, " of vectors into ints", start_no);
            }
            MPI_CHECK(MPI_Request_free(&req));
        }
        /* MPI_Allgatherv_init: one vector from each rank, as 6 ints at its displacement */
        MPI_CHECK(MPI_Allgatherv_init(s, 1, v, r, sixes, at6, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (start_no = 0; start_no < 3; start_no++) {
            one_start(&req, s, 10000 * start_no + rank * 100, r, w);
            for (q = 0; q < 4; q++)
                packed_pairs(w, 6 * q, 10000 * start_no + q * 100);
            check_start(r, w, "MPI_Allgatherv_init of vectors into ints", "", start_no);
        }
        MPI_CHECK(MPI_Request_free(&req));
        /* MPI_Gatherv_init at root 1 (a vector from each rank, as 6 ints at its
         * displacement) and MPI_Scatterv_init from root 2 (a vector to each rank, received as
         * 6 ints): over MPICH 5 only, as in section 5 */
        if (rooted_persistent_works()) {
            MPI_CHECK(MPI_Gatherv_init(s, 1, v, r, sixes, at6, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
            for (start_no = 0; start_no < 3; start_no++) {
                one_start(&req, s, 10000 * start_no + rank * 100, r, w);
                if (rank == 1) {
                    for (q = 0; q < 4; q++)
                        packed_pairs(w, 6 * q, 10000 * start_no + q * 100);
                    check_start(r, w, "MPI_Gatherv_init of vectors at the root", "", start_no);
                }
            }
            MPI_CHECK(MPI_Request_free(&req));
            MPI_CHECK(MPI_Scatterv_init(s, ones, extents, v, r, 6, MPI_INT, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
            for (start_no = 0; start_no < 3; start_no++) {
                one_start(&req, s, 10000 * start_no, r, w);
                packed_pairs(w, 0, 10000 * start_no + 12 * rank);
                check_start(r, w, "MPI_Scatterv_init of vectors into ints", "", start_no);
            }
            MPI_CHECK(MPI_Request_free(&req));
        }
        /* The neighbourhood collectives: neighbour 0 is the previous rank, neighbour 1 the
         * next. MPI_Neighbor_alltoall_init (k = 0), _alltoallv_init (k = 1) and
         * _alltoallw_init (k = 2) send a vector to each: block 0 of the receive buffer comes
         * from the previous rank's block 1, block 1 from the next rank's block 0.
         * MPI_Neighbor_allgather_init (k = 3) sends the one vector to both. */
        for (k = 0; k < 4; k++) {
            static const char *names[4] = {"MPI_Neighbor_alltoall_init", "MPI_Neighbor_alltoallv_init",
                                           "MPI_Neighbor_alltoallw_init", "MPI_Neighbor_allgather_init"};
            if (k == 0)
                MPI_CHECK(MPI_Neighbor_alltoall_init(s, 1, v, r, 6, MPI_INT, ring, MPI_INFO_NULL, &req));
            else if (k == 1)
                MPI_CHECK(MPI_Neighbor_alltoallv_init(s, ones, extents, v, r, sixes, at6, MPI_INT, ring,
                                                      MPI_INFO_NULL, &req));
            else if (k == 2)
                MPI_CHECK(MPI_Neighbor_alltoallw_init(s, ones, nbytes12, vs, r, sixes, nbytes6, ints, ring,
                                                      MPI_INFO_NULL, &req));
            else
                MPI_CHECK(MPI_Neighbor_allgather_init(s, 1, v, r, 6, MPI_INT, ring, MPI_INFO_NULL, &req));
            for (start_no = 0; start_no < 3; start_no++) {
                int from[2] = {prev_of(rank), next_of(rank)}, block[2] = {1, 0};
                one_start(&req, s, 10000 * start_no + rank * 100, r, w);
                for (q = 0; q < 2; q++) {
                    int first_block = k == 3 ? 0 : block[q];
                    packed_pairs(w, 6 * q, 10000 * start_no + from[q] * 100 + 12 * first_block);
                }
                check_start(r, w, names[k], " of vectors into ints", start_no);
            }
            MPI_CHECK(MPI_Request_free(&req));
        }
        MPI_CHECK(MPI_Comm_free(&ring));

        /* Receiving into vectors: MPI_Alltoallv_init of 6 ints to each rank, received as a
         * vector from each (the other ints of the receive buffer stay as they were) */
        {
            int sixes_at[4] = {0, 6, 12, 18};
            MPI_CHECK(MPI_Alltoallv_init(s, sixes, sixes_at, MPI_INT, r, ones, extents, v, MPI_COMM_WORLD,
                                         MPI_INFO_NULL, &req));
            for (start_no = 0; start_no < 3; start_no++) {
                one_start(&req, s, 10000 * start_no + rank * 100, r, w);
                for (q = 0; q < 4; q++)
                    ints_in_pairs(w, 12 * q, 10000 * start_no + q * 100 + 6 * rank);
                check_start(r, w, "MPI_Alltoallv_init of ints into vectors", "", start_no);
            }
            MPI_CHECK(MPI_Request_free(&req));
        }
        /* A ring that is not periodic: rank 0 has no previous neighbour, rank 3 no next one,
         * and the block from MPI_PROC_NULL keeps what it held. MPI_Neighbor_alltoallv_init of
         * 6 ints to each neighbour, received as a vector from each. */
        {
            MPI_Comm line;
            int no_period[1] = {0};
            MPI_CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, no_period, 0, &line));
            MPI_CHECK(MPI_Neighbor_alltoallv_init(s, sixes, at6, MPI_INT, r, ones, extents, v, line,
                                                  MPI_INFO_NULL, &req));
            for (start_no = 0; start_no < 3; start_no++) {
                int from[2] = {rank - 1, rank + 1}, block[2] = {1, 0};
                one_start(&req, s, 10000 * start_no + rank * 100, r, w);
                for (q = 0; q < 2; q++) {
                    if (from[q] < 0 || from[q] > 3)
                        continue;
                    ints_in_pairs(w, 12 * q, 10000 * start_no + from[q] * 100 + 6 * block[q]);
                }
                check_start(r, w, "MPI_Neighbor_alltoallv_init on a line, into vectors", "", start_no);
            }
            MPI_CHECK(MPI_Request_free(&req));
            MPI_CHECK(MPI_Comm_free(&line));
        }
        /* MPI_IN_PLACE: MPI_Alltoallv_init exchanges the vectors of the receive buffer, whose
         * data are new at each start; the ints between them stay */
        MPI_CHECK(MPI_Alltoallv_init(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, r, ones, extents, v,
                                     MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (start_no = 0; start_no < 3; start_no++) {
            for (i = 0; i < 48; i++)
                r[i] = w[i] = 10000 * start_no + rank * 100 + i;
            MPI_CHECK(MPI_Start(&req));
            MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            for (q = 0; q < 4; q++)
                placed_pairs(w, 12 * q, 10000 * start_no + q * 100 + 12 * rank);
            check_start(r, w, "MPI_Alltoallv_init in place of vectors", "", start_no);
        }
        MPI_CHECK(MPI_Request_free(&req));
        MPI_CHECK(MPI_Type_free(&v));
    }

    return finish();
}
