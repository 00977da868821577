/* collective_forms: the collectives that move blocks, each rank's side in a layout of its own
 * for the same type signature (doubles): every other double (a resized MPI_DOUBLE), plain
 * MPI_DOUBLEs, or a contiguous type of 4 doubles, in blocks of 128 KiB, long enough that an
 * MPI cuts them into pieces. A rank sends in its own layout and receives in the next rank's,
 * so every pair of ranks moves one signature in two layouts, and a derived layout meets a
 * predefined one. MPI_Alltoall (blocking, nonblocking, in place), MPI_Allgather, MPI_Gather
 * and MPI_Scatter with every root (and MPI_IN_PLACE at the root), MPI_Alltoallv with a count
 * per pair, MPI_Allgatherv, MPI_Gatherv, MPI_Scatterv and MPI_Neighbor_alltoall on a ring;
 * MPI_Alltoallw (blocking, nonblocking, in place and, with MPI 4 or Open MPI 5, persistent)
 * with a layout per pair.
 * Every receive buffer is filled with sentinels first and compared whole, gaps included.
 *
 * The standard allows it all; plainly, Intel MPI 2021.19 crashes in MPI_Allgather and Open MPI
 * 4.1 and 5.0 hang in MPI_Allgatherv. Fails plainly over: impi ompi4 ompi5 */
#include "double_layouts.h"

#define B 16384 /* doubles of a whole block */
#define RANKS 4

/* The layout rank r sends in, and the one it receives in. */
static const layout_t *sends(int r) { return &g_layouts[r % 3]; }
static const layout_t *receives(int r) { return &g_layouts[(r + 1) % 3]; }

/* Element i of the data src sends dst (dst RANKS: the same data for every receiver). */
static double val(int src, int dst, int i) { return src * 1e6 + dst * 1e5 + i; }

/* The doubles of `blocks` blocks of n[k] doubles each in layout l. */
static size_t span(const layout_t *l, const int *n, int blocks)
{
    size_t total = 0;
    for (int k = 0; k < blocks; k++)
        total += (size_t)n[k] * l->gap;
    return total;
}

/* A buffer of `blocks` blocks in layout l, block k of n[k] doubles from src[k] to dst[k]
 * (the data, or with `fill` unset the sentinel -1 everywhere but the places of the data, which
 * are -1 too, for the caller to receive into and compare with a buffer made with `fill`). */
static double *blocks_of(const layout_t *l, const int *n, int blocks, const int *src,
                         const int *dst, int fill)
{
    size_t doubles = span(l, n, blocks), at = 0;
    double *buf = malloc((doubles + 1) * sizeof *buf);
    for (size_t i = 0; i < doubles; i++)
        buf[i] = -1.0;
    for (int k = 0; k < blocks; k++)
        for (int i = 0; i < n[k]; i++, at += l->gap)
            buf[at] = fill ? val(src[k], dst[k], i) : -1.0;
    return buf;
}

/* Counts in copies of l's type and displacements in its extents of blocks of n[k] doubles
 * laid end to end. */
static void counts_of(const layout_t *l, const int *n, int blocks, int *counts, int *displs)
{
    int at = 0;
    for (int k = 0; k < blocks; k++) {
        counts[k] = n[k] / l->per;
        displs[k] = at;
        at += counts[k];
    }
}

/* The doubles of the block src sends dst in the `v` collectives: a multiple of 4. */
static int varied(int src, int dst) { return B - 4 * (97 * src + 31 * dst + 5); }

static void expect(const double *got, const layout_t *l, const int *n, int blocks,
                   const int *src, const int *dst, const char *what)
{
    double *want = blocks_of(l, n, blocks, src, dst, 1);
    char label[160];
    snprintf(label, sizeof label, "%s (received as %s)", what, l->name);
    CHECK_DOUBLES(got, want, span(l, n, blocks), label);
    free(want);
}

static void alltoall(int rank, int mode)
{
    const layout_t *s = sends(rank), *r = receives(rank);
    int n[RANKS], from[RANKS], to[RANKS], me[RANKS];
    for (int k = 0; k < RANKS; k++) {
        n[k] = B;
        from[k] = k;
        to[k] = k;
        me[k] = rank;
    }
    double *out = blocks_of(s, n, RANKS, me, to, 1);
    double *in = blocks_of(r, n, RANKS, from, me, 0);
    if (mode == 0) {
        MPI_CHECK(MPI_Alltoall(out, B / s->per, s->type, in, B / r->per, r->type, MPI_COMM_WORLD));
        expect(in, r, n, RANKS, from, me, "MPI_Alltoall");
    } else if (mode == 1) {
        MPI_Request request;
        MPI_CHECK(MPI_Ialltoall(out, B / s->per, s->type, in, B / r->per, r->type, MPI_COMM_WORLD,
                                &request));
        MPI_CHECK(MPI_Wait(&request, MPI_STATUS_IGNORE));
        expect(in, r, n, RANKS, from, me, "MPI_Ialltoall");
    } else {
        /* In place: the receive buffer holds the data sent, in the receive layout. */
        double *both = blocks_of(r, n, RANKS, me, to, 1);
        MPI_CHECK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, both, B / r->per, r->type,
                               MPI_COMM_WORLD));
        expect(both, r, n, RANKS, from, me, "MPI_Alltoall in place");
        free(both);
    }
    free(out);
    free(in);
}

static void allgather(int rank)
{
    const layout_t *s = sends(rank), *r = receives(rank);
    int n[RANKS], from[RANKS], all[RANKS];
    for (int k = 0; k < RANKS; k++) {
        n[k] = B;
        from[k] = k;
        all[k] = RANKS;
    }
    double *out = blocks_of(s, n, 1, &rank, all, 1);
    double *in = blocks_of(r, n, RANKS, from, all, 0);
    MPI_CHECK(MPI_Allgather(out, B / s->per, s->type, in, B / r->per, r->type, MPI_COMM_WORLD));
    expect(in, r, n, RANKS, from, all, "MPI_Allgather");
    free(out);
    free(in);
}

static void gather_scatter(int rank, int root, int in_place)
{
    const layout_t *s = sends(rank), *r = receives(rank);
    int n[RANKS], ranks[RANKS], roots[RANKS];
    for (int k = 0; k < RANKS; k++) {
        n[k] = B;
        ranks[k] = k;
        roots[k] = root;
    }
    /* Gather: every rank sends the root a block. */
    double *out = blocks_of(s, n, 1, &rank, roots, 1);
    double *in = rank == root ? blocks_of(r, n, RANKS, ranks, roots, 0) : NULL;
    if (rank == root && in_place) {
        free(in);
        in = blocks_of(r, n, RANKS, ranks, roots, 0);
        double *mine = blocks_of(r, n, 1, &rank, roots, 1);
        memcpy(in + (size_t)root * B * r->gap, mine, (size_t)B * r->gap * sizeof(double));
        free(mine);
        MPI_CHECK(MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in, B / r->per, r->type, root,
                             MPI_COMM_WORLD));
    } else {
        MPI_CHECK(MPI_Gather(out, B / s->per, s->type, in, B / r->per, r->type, root,
                             MPI_COMM_WORLD));
    }
    if (rank == root)
        expect(in, r, n, RANKS, ranks, roots, in_place ? "MPI_Gather in place" : "MPI_Gather");
    free(out);
    free(in);
    /* Scatter: the root sends every rank a block. */
    int mine = rank;
    out = rank == root ? blocks_of(s, n, RANKS, roots, ranks, 1) : NULL;
    in = blocks_of(r, n, 1, &root, &mine, 0);
    if (rank == root && in_place) {
        MPI_CHECK(MPI_Scatter(out, B / s->per, s->type, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root,
                              MPI_COMM_WORLD));
    } else {
        MPI_CHECK(MPI_Scatter(out, B / s->per, s->type, in, B / r->per, r->type, root,
                              MPI_COMM_WORLD));
        expect(in, r, n, 1, &root, &mine, "MPI_Scatter");
    }
    free(out);
    free(in);
}

static void alltoallv(int rank)
{
    const layout_t *s = sends(rank), *r = receives(rank);
    int nout[RANKS], nin[RANKS], from[RANKS], to[RANKS], me[RANKS];
    int sc[RANKS], sd[RANKS], rc[RANKS], rd[RANKS];
    for (int k = 0; k < RANKS; k++) {
        nout[k] = varied(rank, k);
        nin[k] = varied(k, rank);
        from[k] = k;
        to[k] = k;
        me[k] = rank;
    }
    double *out = blocks_of(s, nout, RANKS, me, to, 1);
    double *in = blocks_of(r, nin, RANKS, from, me, 0);
    counts_of(s, nout, RANKS, sc, sd);
    counts_of(r, nin, RANKS, rc, rd);
    MPI_CHECK(MPI_Alltoallv(out, sc, sd, s->type, in, rc, rd, r->type, MPI_COMM_WORLD));
    expect(in, r, nin, RANKS, from, me, "MPI_Alltoallv");
    free(out);
    free(in);
}

static void varied_rooted(int rank, int root)
{
    const layout_t *s = sends(rank), *r = receives(rank);
    int n[RANKS], ranks[RANKS], roots[RANKS], all[RANKS], counts[RANKS], displs[RANKS];
    for (int k = 0; k < RANKS; k++) {
        n[k] = varied(k, root);
        ranks[k] = k;
        roots[k] = root;
        all[k] = RANKS;
    }
    /* Allgatherv: rank k's block of n[k] doubles to every rank. */
    double *out = blocks_of(s, &n[rank], 1, &rank, all, 1);
    double *in = blocks_of(r, n, RANKS, ranks, all, 0);
    counts_of(r, n, RANKS, counts, displs);
    MPI_CHECK(MPI_Allgatherv(out, n[rank] / s->per, s->type, in, counts, displs, r->type,
                             MPI_COMM_WORLD));
    expect(in, r, n, RANKS, ranks, all, "MPI_Allgatherv");
    free(out);
    free(in);
    /* Gatherv: rank k's block of n[k] doubles to the root. */
    out = blocks_of(s, &n[rank], 1, &rank, roots, 1);
    in = rank == root ? blocks_of(r, n, RANKS, ranks, roots, 0) : NULL;
    MPI_CHECK(MPI_Gatherv(out, n[rank] / s->per, s->type, in, counts, displs, r->type, root,
                          MPI_COMM_WORLD));
    if (rank == root)
        expect(in, r, n, RANKS, ranks, roots, "MPI_Gatherv");
    free(out);
    free(in);
    /* Scatterv: the root's block of n[k] doubles to rank k. */
    int mine = rank;
    out = rank == root ? blocks_of(s, n, RANKS, roots, ranks, 1) : NULL;
    in = blocks_of(r, &n[rank], 1, &root, &mine, 0);
    counts_of(s, n, RANKS, counts, displs);
    MPI_CHECK(MPI_Scatterv(out, counts, displs, s->type, in, n[rank] / r->per, r->type, root,
                           MPI_COMM_WORLD));
    expect(in, r, &n[rank], 1, &root, &mine, "MPI_Scatterv");
    free(out);
    free(in);
}

/* The layouts of the block src sends dst in MPI_Alltoallw: the sender's, and the receiver's
 * (the next one), so that one rank's blocks are in all three layouts. */
static const layout_t *sends_w(int src, int dst) { return &g_layouts[(src + dst) % 3]; }
static const layout_t *receives_w(int src, int dst) { return &g_layouts[(src + dst + 1) % 3]; }

/* A buffer of RANKS blocks, block k in layout l[k] of n[k] doubles from src[k] to dst[k]
 * (blocks_of, each block in a layout of its own), with each block's count of copies and
 * displacement in bytes; `doubles` is set to the buffer's length. */
static double *blocks_w(const layout_t **l, const int *n, const int *src, const int *dst,
                        int fill, int *counts, int *displs, size_t *doubles)
{
    size_t at[RANKS + 1];
    at[0] = 0;
    for (int k = 0; k < RANKS; k++)
        at[k + 1] = at[k] + span(l[k], &n[k], 1);
    double *buf = malloc((at[RANKS] + 1) * sizeof *buf);
    for (int k = 0; k < RANKS; k++) {
        double *block = blocks_of(l[k], &n[k], 1, &src[k], &dst[k], fill);
        memcpy(buf + at[k], block, span(l[k], &n[k], 1) * sizeof *buf);
        free(block);
        counts[k] = n[k] / l[k]->per;
        displs[k] = (int)(at[k] * sizeof *buf);
    }
    *doubles = at[RANKS];
    return buf;
}

static void alltoallw(int rank, int mode)
{
    const layout_t *ls[RANKS], *lr[RANKS];
    int nout[RANKS], nin[RANKS], from[RANKS], to[RANKS], me[RANKS];
    int sc[RANKS], sd[RANKS], rc[RANKS], rd[RANKS];
    MPI_Datatype st[RANKS], rt[RANKS];
    size_t sent, received;
    for (int k = 0; k < RANKS; k++) {
        ls[k] = sends_w(rank, k);
        lr[k] = receives_w(k, rank);
        st[k] = ls[k]->type;
        rt[k] = lr[k]->type;
        /* In place, each pair's blocks are of one length both ways. */
        nout[k] = mode == 3 ? B - 4 * (rank + k + 1) : varied(rank, k);
        nin[k] = mode == 3 ? nout[k] : varied(k, rank);
        from[k] = k;
        to[k] = k;
        me[k] = rank;
    }
    double *out = blocks_w(ls, nout, me, to, 1, sc, sd, &sent);
    double *in = blocks_w(lr, nin, from, me, 0, rc, rd, &received);
    double *want = blocks_w(lr, nin, from, me, 1, rc, rd, &received);
    const char *what = "MPI_Alltoallw";
    if (mode == 0) {
        MPI_CHECK(MPI_Alltoallw(out, sc, sd, st, in, rc, rd, rt, MPI_COMM_WORLD));
    } else if (mode == 1) {
        MPI_Request request;
        MPI_CHECK(MPI_Ialltoallw(out, sc, sd, st, in, rc, rd, rt, MPI_COMM_WORLD, &request));
        MPI_CHECK(MPI_Wait(&request, MPI_STATUS_IGNORE));
        what = "MPI_Ialltoallw";
    } else if (mode == 3) {
        /* The receive buffer holds the data sent, in the receive layouts. */
        double *both = blocks_w(lr, nin, me, to, 1, rc, rd, &received);
        MPI_CHECK(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, both, rc, rd, rt,
                                MPI_COMM_WORLD));
        free(in);
        in = both;
        what = "MPI_Alltoallw in place";
    } else {
#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
        /* Twice: the data of each start are the ones in the buffer then. */
        MPI_Request request;
        MPI_CHECK(MPI_Alltoallw_init(out, sc, sd, st, in, rc, rd, rt, MPI_COMM_WORLD,
                                     MPI_INFO_NULL, &request));
        for (int start = 0; start < 2; start++) {
            for (size_t i = 0; i < sent; i++)
                if (out[i] != -1.0)
                    out[i] += start;
            MPI_CHECK(MPI_Start(&request));
            MPI_CHECK(MPI_Wait(&request, MPI_STATUS_IGNORE));
        }
        MPI_CHECK(MPI_Request_free(&request));
        for (size_t i = 0; i < received; i++)
            if (want[i] != -1.0)
                want[i] += 1;
        what = "MPI_Alltoallw_init";
#else
        MPI_CHECK(MPI_Alltoallw(out, sc, sd, st, in, rc, rd, rt, MPI_COMM_WORLD));
#endif
    }
    CHECK_DOUBLES(in, want, received, what);
    free(out);
    free(in);
    free(want);
}

/* MPI_Neighbor_alltoall on a periodic ring: a block to the rank before and the one after. */
static void neighbours(int rank)
{
    const layout_t *s = sends(rank), *r = receives(rank);
    int dims[1] = {RANKS}, periods[1] = {1};
    MPI_Comm ring;
    MPI_CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int before = (rank + RANKS - 1) % RANKS, after = (rank + 1) % RANKS;
    int n[2] = {B, B}, to[2] = {before, after}, from[2] = {before, after}, me[2] = {rank, rank};
    double *out = blocks_of(s, n, 2, me, to, 1);
    double *in = blocks_of(r, n, 2, from, me, 0);
    MPI_CHECK(MPI_Neighbor_alltoall(out, B / s->per, s->type, in, B / r->per, r->type, ring));
    expect(in, r, n, 2, from, me, "MPI_Neighbor_alltoall");
    free(out);
    free(in);
    MPI_CHECK(MPI_Comm_free(&ring));
}

int main(int argc, char **argv)
{
    int rank, size;
    start(&argc, &argv, "collective_forms", &rank, &size);
    make_layouts();
    for (int mode = 0; mode < 3; mode++)
        alltoall(rank, mode);
    allgather(rank);
    for (int root = 0; root < RANKS; root++) {
        gather_scatter(rank, root, 0);
        gather_scatter(rank, root, 1);
        varied_rooted(rank, root);
    }
    alltoallv(rank);
    for (int mode = 0; mode < 4; mode++)
        alltoallw(rank, mode);
    neighbours(rank);
    free_layouts();
    return finish();
}
