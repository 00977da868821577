/* collectives: MPI_Bcast and MPI_Allgather of an indexed type with irregular blocks and of a
 * resized struct type (int, double, char[3]); MPI_Allgatherv, MPI_Gatherv and MPI_Scatterv
 * with derived types on one or both sides; MPI_Ibcast of the indexed type; and
 * MPI_Neighbor_allgather on a periodic cartesian ring with derived send and receive types;
 * MPI_Alltoallv and MPI_Ialltoallv, MPI_Neighbor_alltoallw on a distributed graph with a
 * different type per neighbour, MPI_Igatherv and MPI_Iscatterv.
 * Every receive buffer is filled with sentinels first and compared whole (including the
 * gaps the types skip, which must keep their sentinels) with a buffer computed from the
 * sender's rank and the element index.
 *
 * Intel MPI 2021.19's MPI_Allgather delivers wrong data between a type and another layout of
 * its signature. Fails plainly over: impi */
#include "check_mpi.h"
#include <stddef.h>

#if defined(OPEN_MPI) && defined(__GNUC__) && !defined(__clang__)
/* Open MPI's MPI_UNWEIGHTED is a small constant address, which gcc takes for an array of no
 * bytes that MPI_Dist_graph_create_adjacent would read. */
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

struct rec {
    int a;
    double b;
    char c[3];
};

/* Another C layout with the same type signature (int, double, 3 chars). */
struct rec2 {
    char c[3];
    double b;
    int a;
};

static const int idx_blocklens[4] = {2, 1, 3, 1};
static const int idx_displs[4] = {0, 3, 5, 10};
#define IDX_EXTENT 11 /* ints */
#define IDX_SIZE 7    /* ints */

static int ival(int src, int i) { return src * 1000 + i * 7 + 3; }
static int sentinel(int i) { return -1 - i; }

/* position (in ints, within one copy) of element e of the indexed type */
static int idx_pos(int e)
{
    int b, n = 0;
    for (b = 0; b < 4; b++) {
        if (e < n + idx_blocklens[b])
            return idx_displs[b] + (e - n);
        n += idx_blocklens[b];
    }
    return -1;
}

static void set_rec(struct rec *r, int src, int i)
{
    r->a = src * 100 + i;
    r->b = src * 10.0 + i * 0.125 + 0.5;
    r->c[0] = (char)('a' + src);
    r->c[1] = (char)('A' + i);
    r->c[2] = (char)(src * 16 + i);
}

static void set_rec2(struct rec2 *r, int src, int i)
{
    struct rec t;
    set_rec(&t, src, i);
    r->a = t.a;
    r->b = t.b;
    memcpy(r->c, t.c, 3);
}

int main(int argc, char **argv)
{
    int rank, size, i, q, c;
    MPI_Datatype idx, rec_raw, rec_t, rec2_t, vec, vec2, pair, pair_raw;
    MPI_Comm ring;

    start(&argc, &argv, "collectives", &rank, &size);

    MPI_CHECK(MPI_Type_indexed(4, idx_blocklens, idx_displs, MPI_INT, &idx));
    MPI_CHECK(MPI_Type_commit(&idx));
    {
        int bl[3] = {1, 1, 3};
        MPI_Aint d[3] = {offsetof(struct rec, a), offsetof(struct rec, b), offsetof(struct rec, c)};
        MPI_Datatype t[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
        MPI_Aint d2[3] = {offsetof(struct rec2, a), offsetof(struct rec2, b),
                          offsetof(struct rec2, c)};
        MPI_Datatype raw2;
        MPI_CHECK(MPI_Type_create_struct(3, bl, d, t, &rec_raw));
        MPI_CHECK(MPI_Type_create_resized(rec_raw, 0, sizeof(struct rec), &rec_t));
        MPI_CHECK(MPI_Type_commit(&rec_t));
        MPI_CHECK(MPI_Type_create_struct(3, bl, d2, t, &raw2));
        MPI_CHECK(MPI_Type_create_resized(raw2, 0, sizeof(struct rec2), &rec2_t));
        MPI_CHECK(MPI_Type_free(&raw2));
        MPI_CHECK(MPI_Type_commit(&rec2_t));
    }
    MPI_CHECK(MPI_Type_vector(2, 1, 3, MPI_INT, &vec)); /* ints 0 and 3, extent 4 */
    MPI_CHECK(MPI_Type_commit(&vec));
    MPI_CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &vec2)); /* ints 0 and 2, extent 3 */
    MPI_CHECK(MPI_Type_commit(&vec2));
    MPI_CHECK(MPI_Type_contiguous(2, MPI_INT, &pair_raw));
    MPI_CHECK(MPI_Type_create_resized(pair_raw, 0, 5 * sizeof(int), &pair)); /* 2 ints, extent 5 */
    MPI_CHECK(MPI_Type_commit(&pair));

    {   /* sizes and extents the rest relies on */
        int sz;
        MPI_Aint lb, ext;
        MPI_CHECK(MPI_Type_size(idx, &sz));
        CHECK_INT(sz, IDX_SIZE * (int)sizeof(int), "collectives: size of the indexed type");
        MPI_CHECK(MPI_Type_get_extent(idx, &lb, &ext));
        CHECK_INT(ext, IDX_EXTENT * (MPI_Aint)sizeof(int), "collectives: extent of the indexed type");
        MPI_CHECK(MPI_Type_get_extent(rec_t, &lb, &ext));
        CHECK_INT(ext, sizeof(struct rec), "collectives: extent of the resized struct");
        MPI_CHECK(MPI_Type_size(rec_t, &sz));
        CHECK_INT(sz, sizeof(int) + sizeof(double) + 3, "collectives: size of the struct type");
    }

    /* 1. MPI_Bcast of 2 indexed items from root 1. */
    {
        int buf[2 * IDX_EXTENT + 2], want[2 * IDX_EXTENT + 2], n = 2 * IDX_EXTENT + 2;
        for (i = 0; i < n; i++)
            buf[i] = rank == 1 ? ival(1, i) : sentinel(i);
        MPI_CHECK(MPI_Bcast(buf, 2, idx, 1, MPI_COMM_WORLD));
        for (i = 0; i < n; i++)
            want[i] = rank == 1 ? ival(1, i) : sentinel(i);
        if (rank != 1)
            for (c = 0; c < 2; c++)
                for (i = 0; i < IDX_SIZE; i++) {
                    int p = c * IDX_EXTENT + idx_pos(i);
                    want[p] = ival(1, p);
                }
        CHECK_INTS(buf, want, n, "collectives: MPI_Bcast of 2 indexed items");
    }

    /* 2. MPI_Bcast of 5 structs from root 2: padding bytes are not part of the type. */
    {
        struct rec buf[5], want[5];
        memset(buf, rank == 2 ? 0x11 : 0xEE, sizeof buf);
        memset(want, rank == 2 ? 0x11 : 0xEE, sizeof want);
        for (i = 0; i < 5; i++) {
            if (rank == 2)
                set_rec(&buf[i], 2, i);
            set_rec(&want[i], 2, i);
        }
        MPI_CHECK(MPI_Bcast(buf, 5, rec_t, 2, MPI_COMM_WORLD));
        CHECK_BYTES(buf, want, sizeof buf, "collectives: MPI_Bcast of 5 resized structs");
    }

    /* 3. MPI_Allgather: send 1 indexed item, receive 7 MPI_INT per rank. */
    {
        int sbuf[IDX_EXTENT], rbuf[4 * IDX_SIZE + 3], want[4 * IDX_SIZE + 3];
        int n = 4 * IDX_SIZE + 3;
        for (i = 0; i < IDX_EXTENT; i++)
            sbuf[i] = ival(rank, i);
        for (i = 0; i < n; i++)
            rbuf[i] = want[i] = sentinel(i);
        MPI_CHECK(MPI_Allgather(sbuf, 1, idx, rbuf, IDX_SIZE, MPI_INT, MPI_COMM_WORLD));
        for (q = 0; q < 4; q++)
            for (i = 0; i < IDX_SIZE; i++)
                want[q * IDX_SIZE + i] = ival(q, idx_pos(i));
        CHECK_INTS(rbuf, want, n, "collectives: MPI_Allgather indexed -> MPI_INT");
    }

    /* 4. MPI_Allgather: send 7 MPI_INT, receive 1 indexed item per rank. */
    {
        int sbuf[IDX_SIZE], rbuf[4 * IDX_EXTENT], want[4 * IDX_EXTENT];
        for (i = 0; i < IDX_SIZE; i++)
            sbuf[i] = ival(rank, i);
        for (i = 0; i < 4 * IDX_EXTENT; i++)
            rbuf[i] = want[i] = sentinel(i);
        MPI_CHECK(MPI_Allgather(sbuf, IDX_SIZE, MPI_INT, rbuf, 1, idx, MPI_COMM_WORLD));
        for (q = 0; q < 4; q++)
            for (i = 0; i < IDX_SIZE; i++)
                want[q * IDX_EXTENT + idx_pos(i)] = ival(q, i);
        CHECK_INTS(rbuf, want, 4 * IDX_EXTENT, "collectives: MPI_Allgather MPI_INT -> indexed");
    }

    /* 5. MPI_Allgather of one struct per rank. */
    {
        struct rec s, r[4], want[4];
        memset(&s, 0x22, sizeof s);
        set_rec(&s, rank, 40 + rank);
        memset(r, 0xEE, sizeof r);
        memset(want, 0xEE, sizeof want);
        for (q = 0; q < 4; q++)
            set_rec(&want[q], q, 40 + q);
        MPI_CHECK(MPI_Allgather(&s, 1, rec_t, r, 1, rec_t, MPI_COMM_WORLD));
        CHECK_BYTES(r, want, sizeof r, "collectives: MPI_Allgather of structs");
    }

    /* 6. MPI_Allgatherv: rank q sends q+1 items of vec2 (2 ints, extent 3), all receive
     * q+1 items of vec (2 ints, extent 4) at displacement 0,1,3,6 extents. */
    {
        int counts[4] = {1, 2, 3, 4}, displs[4] = {0, 1, 3, 6};
        int sbuf[3 * 4 + 1], rbuf[40 + 4], want[40 + 4], n = 44;
        for (i = 0; i < 13; i++)
            sbuf[i] = ival(rank, i);
        for (i = 0; i < n; i++)
            rbuf[i] = want[i] = sentinel(i);
        MPI_CHECK(MPI_Allgatherv(sbuf, rank + 1, vec2, rbuf, counts, displs, vec, MPI_COMM_WORLD));
        for (q = 0; q < 4; q++)
            for (c = 0; c < q + 1; c++)
                for (i = 0; i < 2; i++) /* element i of item c: source int 3c+2i, target 4(d+c)+3i */
                    want[4 * (displs[q] + c) + 3 * i] = ival(q, 3 * c + 2 * i);
        CHECK_INTS(rbuf, want, n, "collectives: MPI_Allgatherv vec2 -> vec");
    }

    /* 7. MPI_Gatherv to root 2: rank q sends q+1 items of vec, the root receives q+1 pairs
     * (2 ints, extent 5) at displacements 9,0,2,5 (out of rank order). */
    {
        int counts[4] = {1, 2, 3, 4}, displs[4] = {9, 0, 2, 5};
        int sbuf[4 * 4], rbuf[5 * 10 + 3], want[5 * 10 + 3], n = 53;
        for (i = 0; i < 16; i++)
            sbuf[i] = ival(rank, i);
        for (i = 0; i < n; i++)
            rbuf[i] = want[i] = sentinel(i);
        MPI_CHECK(MPI_Gatherv(sbuf, rank + 1, vec, rbuf, counts, displs, pair, 2, MPI_COMM_WORLD));
        if (rank == 2)
            for (q = 0; q < 4; q++)
                for (c = 0; c < q + 1; c++)
                    for (i = 0; i < 2; i++)
                        want[5 * (displs[q] + c) + i] = ival(q, 4 * c + 3 * i);
        CHECK_INTS(rbuf, want, n, "collectives: MPI_Gatherv vec -> pair at root 2");
    }

    /* 8. MPI_Scatterv from root 3: q+1 structs each at displacements 6,3,1,0; received
     * with the struct type of another C layout (blocks listed a, b, c). */
    {
        int counts[4] = {1, 2, 3, 4}, displs[4] = {6, 3, 1, 0};
        struct rec s[10];
        struct rec2 r[5], want[5];
        memset(s, 0x33, sizeof s);
        for (i = 0; i < 10; i++)
            set_rec(&s[i], 3, 60 + i);
        memset(r, 0xEE, sizeof r);
        memset(want, 0xEE, sizeof want);
        for (c = 0; c < rank + 1; c++)
            set_rec2(&want[c], 3, 60 + displs[rank] + c);
        MPI_CHECK(MPI_Scatterv(s, counts, displs, rec_t, r, rank + 1, rec2_t, 3, MPI_COMM_WORLD));
        CHECK_BYTES(r, want, sizeof r, "collectives: MPI_Scatterv struct -> struct of other layout");
    }

    /* 9. MPI_Ibcast of 3 indexed items from root 0. */
    {
        int buf[3 * IDX_EXTENT], want[3 * IDX_EXTENT], n = 3 * IDX_EXTENT;
        MPI_Request req;
        MPI_Status st;
        for (i = 0; i < n; i++)
            buf[i] = want[i] = rank == 0 ? ival(0, 2 * i) : sentinel(i);
        MPI_CHECK(MPI_Ibcast(buf, 3, idx, 0, MPI_COMM_WORLD, &req));
        MPI_CHECK(MPI_Wait(&req, &st));
        CHECK(req == MPI_REQUEST_NULL, "collectives: MPI_Wait frees the MPI_Ibcast request", "not null");
        if (rank != 0)
            for (c = 0; c < 3; c++)
                for (i = 0; i < IDX_SIZE; i++) {
                    int p = c * IDX_EXTENT + idx_pos(i);
                    want[p] = ival(0, 2 * p);
                }
        CHECK_INTS(buf, want, n, "collectives: MPI_Ibcast of 3 indexed items");
    }

    /* 10. MPI_Neighbor_allgather on a periodic ring: send 1 vec (ints 0 and 3), receive 1
     * pair (2 ints, extent 5) from each neighbour: first the rank below, then above. */
    {
        int dims[1] = {4}, periods[1] = {1}, lo, hi;
        int sbuf[4], rbuf[12], want[12];
        MPI_CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
        MPI_CHECK(MPI_Cart_shift(ring, 0, 1, &lo, &hi));
        CHECK_INT(lo, (rank + 3) % 4, "collectives: ring neighbour below");
        CHECK_INT(hi, (rank + 1) % 4, "collectives: ring neighbour above");
        for (i = 0; i < 4; i++)
            sbuf[i] = ival(rank, 50 + i);
        for (i = 0; i < 12; i++)
            rbuf[i] = want[i] = sentinel(i);
        MPI_CHECK(MPI_Neighbor_allgather(sbuf, 1, vec, rbuf, 1, pair, ring));
        want[0] = ival(lo, 50);
        want[1] = ival(lo, 53);
        want[5] = ival(hi, 50);
        want[6] = ival(hi, 53);
        CHECK_INTS(rbuf, want, 12, "collectives: MPI_Neighbor_allgather vec -> pair");
        MPI_CHECK(MPI_Comm_free(&ring));
    }

    /* 11. MPI_Alltoallv and MPI_Ialltoallv: to rank q go q+1 items of vec (2 ints, extent 4)
     * from send displacement 3q items; each rank receives rank+1 items from everyone, as
     * pairs (2 ints, extent 5) at displacement 4q pairs. */
    for (c = 0; c < 2; c++) {
        int scounts[4], sdispls[4], rcounts[4], rdispls[4];
        int sbuf[12 * 4 + 4], rbuf[5 * 16 + 5], want[5 * 16 + 5], n = 85;
        for (q = 0; q < 4; q++) {
            scounts[q] = q + 1;
            sdispls[q] = 3 * q;
            rcounts[q] = rank + 1;
            rdispls[q] = 4 * q;
        }
        for (i = 0; i < 52; i++)
            sbuf[i] = ival(rank, i) + c * 500;
        for (i = 0; i < n; i++)
            rbuf[i] = want[i] = sentinel(i);
        if (c == 0)
            MPI_CHECK(MPI_Alltoallv(sbuf, scounts, sdispls, vec, rbuf, rcounts, rdispls, pair,
                                    MPI_COMM_WORLD));
        else {
            MPI_Request req;
            MPI_CHECK(MPI_Ialltoallv(sbuf, scounts, sdispls, vec, rbuf, rcounts, rdispls, pair,
                                     MPI_COMM_WORLD, &req));
            MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
        for (q = 0; q < 4; q++) /* rank q sent its items 3*rank .. 3*rank+rank to me */
            for (i = 0; i < rank + 1; i++) {
                int item = 3 * rank + i;
                want[5 * (4 * q + i)] = ival(q, 4 * item) + c * 500;
                want[5 * (4 * q + i) + 1] = ival(q, 4 * item + 3) + c * 500;
            }
        CHECK_INTS(rbuf, want, n, c == 0 ? "collectives: MPI_Alltoallv vec -> pair"
                                         : "collectives: MPI_Ialltoallv vec -> pair");
    }

    /* 12. MPI_Neighbor_alltoallw on a distributed graph: rank r sends to r+1 and r+2 and
     * receives from r-1 and r-2, with a different type per neighbour. */
    {
        int srcs[2], dsts[2], scounts[2] = {1, 1}, rcounts[2] = {1, 1};
        MPI_Aint sdispls[2] = {0, 16 * sizeof(int)}, rdispls[2] = {0, 20 * sizeof(int)};
        MPI_Datatype stypes[2], rtypes[2];
        MPI_Comm g;
        int sbuf[32], rbuf[40], want[40];
        srcs[0] = (rank + 3) % 4;
        srcs[1] = (rank + 2) % 4;
        dsts[0] = (rank + 1) % 4;
        dsts[1] = (rank + 2) % 4;
        MPI_CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, MPI_UNWEIGHTED, 2, dsts,
                                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
        /* to r+1: 2 items of vec (ints 0,3,4,7); to r+2: 1 indexed item (7 ints) at int 16 */
        stypes[0] = vec;
        stypes[1] = idx;
        scounts[0] = 2;
        /* from r-1: 4 ints as 2 pairs (0,1,5,6); from r-2: 7 ints contiguous at int 20 */
        rtypes[0] = pair;
        rtypes[1] = MPI_INT;
        rcounts[0] = 2;
        rcounts[1] = 7;
        for (i = 0; i < 32; i++)
            sbuf[i] = ival(rank, i);
        for (i = 0; i < 40; i++)
            rbuf[i] = want[i] = sentinel(i);
        MPI_CHECK(MPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls,
                                         rtypes, g));
        want[0] = ival(srcs[0], 0);
        want[1] = ival(srcs[0], 3);
        want[5] = ival(srcs[0], 4);
        want[6] = ival(srcs[0], 7);
        for (i = 0; i < IDX_SIZE; i++)
            want[20 + i] = ival(srcs[1], 16 + idx_pos(i));
        CHECK_INTS(rbuf, want, 40, "collectives: MPI_Neighbor_alltoallw on a distributed graph");
        MPI_CHECK(MPI_Comm_free(&g));
    }

    /* 13. MPI_Igatherv and MPI_Iscatterv with derived types on both sides. */
    {
        int counts[4] = {2, 1, 2, 1}, displs[4] = {0, 2, 3, 5}; /* in items of the root's type */
        int gs[8], gr[5 * 6 + 2], wg[5 * 6 + 2], ss[5 * 6], sr[8], ws[8];
        MPI_Request req[2];
        MPI_Status sts[2];
        for (i = 0; i < 8; i++)
            gs[i] = ival(rank, 100 + i);
        for (i = 0; i < 32; i++)
            gr[i] = wg[i] = sentinel(i);
        for (i = 0; i < 30; i++)
            ss[i] = ival(rank, 200 + i);
        for (i = 0; i < 8; i++)
            sr[i] = ws[i] = sentinel(i);
        /* every rank sends counts[rank] vec items (ints 0,3 then 4,7); root 1 receives pairs */
        MPI_CHECK(MPI_Igatherv(gs, counts[rank], vec, gr, counts, displs, pair, 1, MPI_COMM_WORLD,
                               &req[0]));
        /* root 2 sends pairs (2 ints, extent 5); everyone receives vec2 items (ints 0,2) */
        MPI_CHECK(MPI_Iscatterv(ss, counts, displs, pair, sr, counts[rank], vec2, 2, MPI_COMM_WORLD,
                                &req[1]));
        MPI_CHECK(MPI_Waitall(2, req, sts));
        if (rank == 1)
            for (q = 0; q < 4; q++)
                for (c = 0; c < counts[q]; c++) {
                    wg[5 * (displs[q] + c)] = ival(q, 100 + 4 * c);
                    wg[5 * (displs[q] + c) + 1] = ival(q, 100 + 4 * c + 3);
                }
        CHECK_INTS(gr, wg, 32, "collectives: MPI_Igatherv vec -> pair at root 1");
        for (c = 0; c < counts[rank]; c++) {
            ws[3 * c] = ival(2, 200 + 5 * (displs[rank] + c));
            ws[3 * c + 2] = ival(2, 200 + 5 * (displs[rank] + c) + 1);
        }
        CHECK_INTS(sr, ws, 8, "collectives: MPI_Iscatterv pair -> vec2 from root 2");
    }

    MPI_CHECK(MPI_Type_free(&idx));
    MPI_CHECK(MPI_Type_free(&rec_raw));
    MPI_CHECK(MPI_Type_free(&rec_t));
    MPI_CHECK(MPI_Type_free(&rec2_t));
    MPI_CHECK(MPI_Type_free(&vec));
    MPI_CHECK(MPI_Type_free(&vec2));
    MPI_CHECK(MPI_Type_free(&pair));
    MPI_CHECK(MPI_Type_free(&pair_raw));
    return finish();
}
