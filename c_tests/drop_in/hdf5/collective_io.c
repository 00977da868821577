/* collective_io: parallel HDF5 collective I/O on 4 ranks, with selections for which HDF5 builds
 * derived MPI datatypes (H5S_mpio_space_type) and hands them to MPI-IO as memory types and
 * file views.
 *
 * One file, opened with H5Pset_fapl_mpio, five datasets, each written and read with
 * H5Pset_dxpl_mpio(H5FD_MPIO_COLLECTIVE) by every rank through its own selection:
 *   regular    16x24 ints: a strided hyperslab with blocks (start {r/2, 2(r%2)}, stride {2, 4},
 *              block {1, 2}); in memory every second int of a 8x24 buffer
 *   irregular  16x24 ints: a union (H5S_SELECT_OR) of one hyperslab per run of the rank's
 *              elements in each row, owners from an irregular map, plus two overlapping
 *              rectangles OR'ed in; the same selection in a 16x24 memory buffer
 *   points     240 doubles: H5Sselect_elements with the rank's 60 points in a shuffled order,
 *              to and from a contiguous memory buffer
 *   compound   96 elements of struct {int; double; char[3]; short} (with its padding bytes,
 *              the same compound type in memory and file, so that no conversion is needed):
 *              a block-cyclic hyperslab (blocks of 3 every 12)
 *   chunked    16x24 ints in 4x6 chunks, the regular selection (collective chunk I/O)
 * Checks: after every collective H5Dwrite and H5Dread, H5Pget_mpio_actual_io_mode reports
 * collective I/O (contiguous or chunk) and H5Pget_mpio_no_collective_cause reports no cause on
 * this rank or any; every byte read back through the rank's own selection and through the next
 * rank's, with the memory outside the selection untouched; the whole file reopened and read
 * with H5S_ALL and compared with the values every element must hold.
 *
 * HDF5 reaches MPI through the MPI library's datatype functions. A profiling layer here
 * (MPI_Type_commit calling PMPI_Type_commit) counts the derived types HDF5 commits, by
 * combiner: each collective transfer of a phase must have committed some, so that the run shows
 * HDF5 did build derived types.
 *
 * Prints "collective_io: all N checks passed" on rank 0 and exits 0, or names every failed
 * check and exits 1. Files go in a fresh directory under $TMPDIR (else /tmp), removed at the
 * end. */
#define _GNU_SOURCE
#include <hdf5.h>
#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NR 16
#define NC 24
#define NPTS 240
#define NCMP 96
#define NRANKS 4

static int g_rank = -1;
static long g_checks, g_failures;

static void failed(int line, const char *fmt, ...)
{
    va_list ap;
    g_failures++;
    if (g_failures > 30)
        return;
    fprintf(stderr, "collective_io: rank %d: line %d: check failed: ", g_rank, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        g_checks++;                                                                        \
        if (!(cond))                                                                       \
            failed(__LINE__, __VA_ARGS__);                                                 \
    } while (0)

/* An HDF5 or MPI call that must succeed: the job ends if it does not. */
#define MUST(call)                                                                         \
    do {                                                                                   \
        if ((long long)(call) < 0) {                                                       \
            fprintf(stderr, "collective_io: rank %d: line %d: %s failed\n", g_rank,        \
                    __LINE__, #call);                                                      \
            fflush(stderr);                                                                \
            MPI_Abort(MPI_COMM_WORLD, 2);                                                  \
        }                                                                                  \
    } while (0)
#define MUST_MPI(call)                                                                     \
    do {                                                                                   \
        int rc_ = (call);                                                                  \
        if (rc_ != MPI_SUCCESS) {                                                          \
            fprintf(stderr, "collective_io: rank %d: line %d: %s returned %d\n", g_rank,   \
                    __LINE__, #call, rc_);                                                 \
            fflush(stderr);                                                                \
            MPI_Abort(MPI_COMM_WORLD, 2);                                                  \
        }                                                                                  \
    } while (0)

/* ---- the profiling layer: derived types committed, by combiner ---- */

enum { N_COMBINERS = 32 };
static long g_commits[N_COMBINERS];
static long g_commits_total;

int MPI_Type_commit(MPI_Datatype *type)
{
    int ni, na, nd, combiner, rc;
    rc = PMPI_Type_commit(type);
    if (rc == MPI_SUCCESS && PMPI_Type_get_envelope(*type, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
        combiner != MPI_COMBINER_NAMED) {
        g_commits_total++;
        g_commits[combiner >= 0 && combiner < N_COMBINERS ? combiner : 0]++;
    }
    return rc;
}

static const char *combiner_name(int c)
{
    switch (c) {
    case MPI_COMBINER_DUP: return "dup";
    case MPI_COMBINER_CONTIGUOUS: return "contiguous";
    case MPI_COMBINER_VECTOR: return "vector";
    case MPI_COMBINER_HVECTOR: return "hvector";
    case MPI_COMBINER_INDEXED: return "indexed";
    case MPI_COMBINER_HINDEXED: return "hindexed";
    case MPI_COMBINER_INDEXED_BLOCK: return "indexed_block";
    case MPI_COMBINER_HINDEXED_BLOCK: return "hindexed_block";
    case MPI_COMBINER_STRUCT: return "struct";
    case MPI_COMBINER_SUBARRAY: return "subarray";
    case MPI_COMBINER_DARRAY: return "darray";
    case MPI_COMBINER_RESIZED: return "resized";
    default: return "other";
    }
}

/* ---- values every element must hold ---- */

static int reg_value(int i, int j) { return 1000000 + i * 1000 + j * 7; }
static int irr_value(int i, int j) { return -2000000 - i * 997 - j * 13; }
static double pt_value(int k) { return k * 0.25 - 17.0; }
static int chk_value(int i, int j) { return 3000000 + i * 4099 + j * 3; }

/* regular selection: owner of (i, j) */
static int reg_owner(int i, int j) { return 2 * (i % 2) + (j / 2) % 2; }
/* irregular selection: an owner map with runs of every length */
static int irr_owner(int i, int j)
{
    /* two rectangles whose union is rank 3's, overlapping each other */
    if (i >= 3 && i < 8 && j >= 10 && j < 17)
        return 3;
    if (i >= 6 && i < 11 && j >= 14 && j < 20)
        return 3;
    return ((i * 7 + (j * j) / 5 + (i * j) % 3) / 3) % 3; /* ranks 0, 1, 2 */
}
/* points: owner of element k (k -> 7k mod NPTS is a permutation: 60 scattered points each) */
static int pt_owner(int k) { return (k * 7 % NPTS) / (NPTS / NRANKS); }
/* compound: blocks of 3 every 12 */
static int cmp_owner(int k) { return (k / 3) % NRANKS; }

typedef struct {
    int a;
    double b;
    char c[3];
    short d;
} rec_t;

static void rec_value(int k, rec_t *r)
{
    unsigned char *p = (unsigned char *)r;
    size_t n;
    /* every byte, padding included: HDF5 copies the element's bytes as they are */
    for (n = 0; n < sizeof *r; n++)
        p[n] = (unsigned char)(k * 31 + n * 7 + 3);
    r->a = k * 11 - 400;
    r->b = k / 8.0 + 0.125;
    r->c[0] = (char)('a' + k % 26);
    r->c[1] = (char)('A' + k % 26);
    r->c[2] = (char)('0' + k % 10);
    r->d = (short)(k * -3);
}

/* ---- selections ---- */

static void select_regular(hid_t space, int r)
{
    hsize_t start[2] = {(hsize_t)(r / 2), (hsize_t)(2 * (r % 2))};
    hsize_t stride[2] = {2, 4}, count[2] = {NR / 2, NC / 4}, block[2] = {1, 2};
    MUST(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, stride, count, block));
}

/* memory side of the regular selection: every second int of an (NR/2) x NC buffer */
static void select_regular_memory(hid_t space)
{
    hsize_t start[2] = {0, 1}, stride[2] = {1, 2}, count[2] = {NR / 2, NC / 2};
    MUST(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, stride, count, NULL));
}

/* union of one hyperslab per run of r's elements in each row */
static hssize_t select_irregular(hid_t space, int r)
{
    int i, j, first = 1;
    MUST(H5Sselect_none(space));
    for (i = 0; i < NR; i++)
        for (j = 0; j < NC;) {
            int len = 0;
            while (j + len < NC && irr_owner(i, j + len) == r)
                len++;
            if (len > 0) {
                hsize_t start[2] = {(hsize_t)i, (hsize_t)j}, count[2] = {1, (hsize_t)len};
                MUST(H5Sselect_hyperslab(space, first ? H5S_SELECT_SET : H5S_SELECT_OR, start,
                                         NULL, count, NULL));
                first = 0;
                j += len;
            } else
                j++;
        }
    if (r == 3) {
        /* the two overlapping rectangles once more, as whole blocks: the union is unchanged */
        hsize_t s1[2] = {3, 10}, c1[2] = {5, 7}, s2[2] = {6, 14}, c2[2] = {5, 6};
        MUST(H5Sselect_hyperslab(space, H5S_SELECT_OR, s1, NULL, c1, NULL));
        MUST(H5Sselect_hyperslab(space, H5S_SELECT_OR, s2, NULL, c2, NULL));
    }
    return H5Sget_select_npoints(space);
}

/* r's points, in a shuffled order (HDF5 sorts them for MPI and permutes the memory side) */
static int rank_points(int r, hsize_t *coords)
{
    int k, n = 0, m, i;
    hsize_t tmp[NPTS];
    for (k = 0; k < NPTS; k++)
        if (pt_owner(k) == r)
            tmp[n++] = (hsize_t)k;
    /* order: a stride-7 walk through the sorted list (7 is prime to n when n is 60) */
    for (i = 0, m = 0; i < n; i++, m = (m + 7) % n)
        coords[i] = tmp[m];
    return n;
}

static void select_compound(hid_t space, int r)
{
    hsize_t start[1] = {(hsize_t)(3 * r)}, stride[1] = {12}, count[1] = {NCMP / 12},
            block[1] = {3};
    MUST(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, stride, count, block));
}

/* ---- collective transfers and their checks ---- */

static hid_t g_dxpl;
static long g_phase_commits;

static void check_collective(const char *what, int chunked)
{
    H5D_mpio_actual_io_mode_t mode = H5D_MPIO_NO_COLLECTIVE;
    uint32_t local = 0xffffffffu, global = 0xffffffffu;
    MUST(H5Pget_mpio_actual_io_mode(g_dxpl, &mode));
    MUST(H5Pget_mpio_no_collective_cause(g_dxpl, &local, &global));
    if (chunked)
        CHECK(mode == H5D_MPIO_CHUNK_COLLECTIVE, "%s: actual I/O mode %d, want chunk collective (%d)",
              what, (int)mode, (int)H5D_MPIO_CHUNK_COLLECTIVE);
    else
        CHECK(mode == H5D_MPIO_CONTIGUOUS_COLLECTIVE,
              "%s: actual I/O mode %d, want contiguous collective (%d)", what, (int)mode,
              (int)H5D_MPIO_CONTIGUOUS_COLLECTIVE);
    CHECK(local == H5D_MPIO_COLLECTIVE && global == H5D_MPIO_COLLECTIVE,
          "%s: no-collective cause local 0x%x global 0x%x", what, (unsigned)local,
          (unsigned)global);
    CHECK(g_commits_total > g_phase_commits, "%s: HDF5 committed no derived MPI datatype", what);
    g_phase_commits = g_commits_total;
}

static void write_sel(hid_t dset, hid_t type, hid_t mspace, hid_t fspace, const void *buf,
                      const char *what, int chunked)
{
    MUST(H5Dwrite(dset, type, mspace, fspace, g_dxpl, buf));
    check_collective(what, chunked);
}

static void read_sel(hid_t dset, hid_t type, hid_t mspace, hid_t fspace, void *buf,
                     const char *what, int chunked)
{
    MUST(H5Dread(dset, type, mspace, fspace, g_dxpl, buf));
    check_collective(what, chunked);
}

static void check_bytes(const void *got, const void *want, size_t n, const char *what)
{
    const unsigned char *g = got, *w = want;
    size_t i;
    for (i = 0; i < n && g[i] == w[i]; i++)
        ;
    CHECK(i == n, "%s: byte %zu of %zu is 0x%02x, want 0x%02x", what, i, n, i < n ? g[i] : 0,
          i < n ? w[i] : 0);
}

/* regular (and chunked, with another value function): memory (NR/2) x NC, odd columns used */
static void fill_regular_memory(int r, int *mem, int (*value)(int, int))
{
    int a, b, n = 0;
    for (a = 0; a < NR / 2 * NC; a++)
        mem[a] = -1;
    /* file elements of r in row-major order, each into the next odd memory column */
    for (a = 0; a < NR; a++)
        for (b = 0; b < NC; b++)
            if (reg_owner(a, b) == r) {
                mem[(n / (NC / 2)) * NC + 2 * (n % (NC / 2)) + 1] = value(a, b);
                n++;
            }
}

static void regular_dataset(hid_t file, const char *name, int chunked, int (*value)(int, int))
{
    hsize_t dims[2] = {NR, NC}, mdims[2] = {NR / 2, NC}, chunk[2] = {4, 6};
    int mem[NR / 2 * NC], want[NR / 2 * NC], r, q;
    hid_t fspace, mspace, dcpl, dset;
    char what[128];
    MUST(fspace = H5Screate_simple(2, dims, NULL));
    MUST(mspace = H5Screate_simple(2, mdims, NULL));
    MUST(dcpl = H5Pcreate(H5P_DATASET_CREATE));
    if (chunked)
        MUST(H5Pset_chunk(dcpl, 2, chunk));
    MUST(dset = H5Dcreate2(file, name, H5T_NATIVE_INT, fspace, H5P_DEFAULT, dcpl, H5P_DEFAULT));
    select_regular(fspace, g_rank);
    select_regular_memory(mspace);
    CHECK(H5Sget_select_npoints(fspace) == H5Sget_select_npoints(mspace),
          "%s: selection sizes %lld and %lld", name, (long long)H5Sget_select_npoints(fspace),
          (long long)H5Sget_select_npoints(mspace));
    fill_regular_memory(g_rank, mem, value);
    snprintf(what, sizeof what, "%s: H5Dwrite", name);
    write_sel(dset, H5T_NATIVE_INT, mspace, fspace, mem, what, chunked);
    /* read back through this rank's selection, then through the next rank's */
    for (q = 0; q < 2; q++) {
        r = (g_rank + q) % NRANKS;
        select_regular(fspace, r);
        for (int a = 0; a < NR / 2 * NC; a++)
            mem[a] = -1;
        snprintf(what, sizeof what, "%s: H5Dread through rank %d's selection", name, r);
        read_sel(dset, H5T_NATIVE_INT, mspace, fspace, mem, what, chunked);
        fill_regular_memory(r, want, value);
        check_bytes(mem, want, sizeof mem, what);
    }
    MUST(H5Dclose(dset));
    MUST(H5Pclose(dcpl));
    MUST(H5Sclose(mspace));
    MUST(H5Sclose(fspace));
}

static void irregular_dataset(hid_t file)
{
    hsize_t dims[2] = {NR, NC};
    int mem[NR * NC], want[NR * NC], i, j, r, q;
    hid_t fspace, mspace, dset;
    hssize_t n;
    char what[128];
    MUST(fspace = H5Screate_simple(2, dims, NULL));
    MUST(mspace = H5Screate_simple(2, dims, NULL));
    MUST(dset = H5Dcreate2(file, "irregular", H5T_NATIVE_INT, fspace, H5P_DEFAULT, H5P_DEFAULT,
                           H5P_DEFAULT));
    n = select_irregular(fspace, g_rank);
    select_irregular(mspace, g_rank);
    {
        long want_n = 0;
        for (i = 0; i < NR; i++)
            for (j = 0; j < NC; j++)
                want_n += irr_owner(i, j) == g_rank;
        CHECK(n == want_n, "irregular: %lld elements selected, want %ld", (long long)n, want_n);
    }
    for (i = 0; i < NR; i++)
        for (j = 0; j < NC; j++)
            mem[i * NC + j] = irr_owner(i, j) == g_rank ? irr_value(i, j) : -1;
    write_sel(dset, H5T_NATIVE_INT, mspace, fspace, mem, "irregular: H5Dwrite", 0);
    for (q = 0; q < 2; q++) {
        r = (g_rank + q) % NRANKS;
        select_irregular(fspace, r);
        select_irregular(mspace, r);
        for (i = 0; i < NR * NC; i++)
            mem[i] = -1;
        snprintf(what, sizeof what, "irregular: H5Dread through rank %d's selection", r);
        read_sel(dset, H5T_NATIVE_INT, mspace, fspace, mem, what, 0);
        for (i = 0; i < NR; i++)
            for (j = 0; j < NC; j++)
                want[i * NC + j] = irr_owner(i, j) == r ? irr_value(i, j) : -1;
        check_bytes(mem, want, sizeof mem, what);
    }
    MUST(H5Dclose(dset));
    MUST(H5Sclose(mspace));
    MUST(H5Sclose(fspace));
}

static void points_dataset(hid_t file)
{
    hsize_t dims[1] = {NPTS}, coords[NPTS], mdims[1];
    double mem[NPTS], want[NPTS];
    int n, i, r, q;
    hid_t fspace, mspace, dset;
    char what[128];
    MUST(fspace = H5Screate_simple(1, dims, NULL));
    MUST(dset = H5Dcreate2(file, "points", H5T_NATIVE_DOUBLE, fspace, H5P_DEFAULT, H5P_DEFAULT,
                           H5P_DEFAULT));
    n = rank_points(g_rank, coords);
    CHECK(n == NPTS / NRANKS, "points: rank has %d points, want %d", n, NPTS / NRANKS);
    MUST(H5Sselect_elements(fspace, H5S_SELECT_SET, (size_t)n, coords));
    mdims[0] = (hsize_t)n;
    MUST(mspace = H5Screate_simple(1, mdims, NULL));
    for (i = 0; i < n; i++)
        mem[i] = pt_value((int)coords[i]); /* i-th point of the selection, in its order */
    write_sel(dset, H5T_NATIVE_DOUBLE, mspace, fspace, mem, "points: H5Dwrite", 0);
    for (q = 0; q < 2; q++) {
        r = (g_rank + q) % NRANKS;
        n = rank_points(r, coords);
        MUST(H5Sselect_elements(fspace, H5S_SELECT_SET, (size_t)n, coords));
        for (i = 0; i < NPTS; i++)
            mem[i] = want[i] = -99.5;
        snprintf(what, sizeof what, "points: H5Dread through rank %d's selection", r);
        read_sel(dset, H5T_NATIVE_DOUBLE, mspace, fspace, mem, what, 0);
        for (i = 0; i < n; i++)
            want[i] = pt_value((int)coords[i]);
        check_bytes(mem, want, sizeof mem, what);
    }
    MUST(H5Dclose(dset));
    MUST(H5Sclose(mspace));
    MUST(H5Sclose(fspace));
}

static hid_t rec_type(void)
{
    hid_t t, s;
    hsize_t three[1] = {3};
    MUST(t = H5Tcreate(H5T_COMPOUND, sizeof(rec_t)));
    MUST(s = H5Tarray_create2(H5T_NATIVE_CHAR, 1, three));
    MUST(H5Tinsert(t, "a", offsetof(rec_t, a), H5T_NATIVE_INT));
    MUST(H5Tinsert(t, "b", offsetof(rec_t, b), H5T_NATIVE_DOUBLE));
    MUST(H5Tinsert(t, "c", offsetof(rec_t, c), s));
    MUST(H5Tinsert(t, "d", offsetof(rec_t, d), H5T_NATIVE_SHORT));
    MUST(H5Tclose(s));
    return t;
}

static void compound_dataset(hid_t file)
{
    hsize_t dims[1] = {NCMP}, mdims[1] = {NCMP / NRANKS};
    rec_t mem[NCMP / NRANKS], want[NCMP / NRANKS];
    int k, n, r, q;
    hid_t fspace, mspace, dset, type;
    char what[128];
    type = rec_type();
    MUST(fspace = H5Screate_simple(1, dims, NULL));
    MUST(mspace = H5Screate_simple(1, mdims, NULL));
    MUST(dset = H5Dcreate2(file, "compound", type, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    select_compound(fspace, g_rank);
    for (k = 0, n = 0; k < NCMP; k++)
        if (cmp_owner(k) == g_rank)
            rec_value(k, &mem[n++]);
    write_sel(dset, type, mspace, fspace, mem, "compound: H5Dwrite", 0);
    for (q = 0; q < 2; q++) {
        r = (g_rank + q) % NRANKS;
        select_compound(fspace, r);
        memset(mem, 0xEE, sizeof mem);
        snprintf(what, sizeof what, "compound: H5Dread through rank %d's selection", r);
        read_sel(dset, type, mspace, fspace, mem, what, 0);
        for (k = 0, n = 0; k < NCMP; k++)
            if (cmp_owner(k) == r)
                rec_value(k, &want[n++]);
        check_bytes(mem, want, sizeof mem, what);
    }
    MUST(H5Dclose(dset));
    MUST(H5Sclose(mspace));
    MUST(H5Sclose(fspace));
    MUST(H5Tclose(type));
}

/* the NR x NC ints of dataset `name`, read whole with H5S_ALL, are value(i, j) */
static void check_whole_ints(hid_t file, hid_t dxpl, const char *name, int (*value)(int, int))
{
    hid_t dset;
    int got[NR * NC], want[NR * NC], i, j;
    char what[64];
    MUST(dset = H5Dopen2(file, name, H5P_DEFAULT));
    MUST(H5Dread(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, dxpl, got));
    for (i = 0; i < NR; i++)
        for (j = 0; j < NC; j++)
            want[i * NC + j] = value(i, j);
    snprintf(what, sizeof what, "%s: the whole dataset", name);
    check_bytes(got, want, sizeof got, what);
    MUST(H5Dclose(dset));
}

/* the whole file, reopened, read with H5S_ALL on every rank */
static void check_file(const char *path, hid_t fapl)
{
    hid_t file, dset, type, dxpl;
    int i;
    double dbl[NPTS], wdbl[NPTS];
    rec_t recs[NCMP], wrecs[NCMP];
    MUST(file = H5Fopen(path, H5F_ACC_RDONLY, fapl));
    MUST(dxpl = H5Pcreate(H5P_DATASET_XFER));
    MUST(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));

    check_whole_ints(file, dxpl, "regular", reg_value);
    check_whole_ints(file, dxpl, "chunked", chk_value);
    check_whole_ints(file, dxpl, "irregular", irr_value);

    MUST(dset = H5Dopen2(file, "points", H5P_DEFAULT));
    MUST(H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, dxpl, dbl));
    for (i = 0; i < NPTS; i++)
        wdbl[i] = pt_value(i);
    check_bytes(dbl, wdbl, sizeof dbl, "points: the whole dataset");
    MUST(H5Dclose(dset));

    type = rec_type();
    MUST(dset = H5Dopen2(file, "compound", H5P_DEFAULT));
    MUST(H5Dread(dset, type, H5S_ALL, H5S_ALL, dxpl, recs));
    for (i = 0; i < NCMP; i++)
        rec_value(i, &wrecs[i]);
    check_bytes(recs, wrecs, sizeof recs, "compound: the whole dataset");
    MUST(H5Dclose(dset));
    MUST(H5Tclose(type));

    MUST(H5Pclose(dxpl));
    MUST(H5Fclose(file));
}

int main(int argc, char **argv)
{
    int size, c;
    long checks, fails;
    char dir[256], path[300];
    hid_t fapl, file;

    MUST_MPI(MPI_Init(&argc, &argv));
    MUST_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank));
    MUST_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size != NRANKS) {
        if (g_rank == 0)
            fprintf(stderr, "collective_io: run with %d processes, not %d\n", NRANKS, size);
        MPI_Finalize();
        return 2;
    }
    memset(dir, 0, sizeof dir);
    if (g_rank == 0) {
        const char *tmp = getenv("TMPDIR");
        if (!tmp || !*tmp || strlen(tmp) > 150)
            tmp = "/tmp";
        snprintf(dir, sizeof dir, "%s/mpi-dtype-hdf5-%ld-XXXXXX", tmp, (long)getpid());
        if (!mkdtemp(dir)) {
            perror("collective_io: mkdtemp");
            dir[0] = 0;
        }
    }
    MUST_MPI(MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD));
    if (dir[0] == 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
    snprintf(path, sizeof path, "%s/collective.h5", dir);

    MUST(fapl = H5Pcreate(H5P_FILE_ACCESS));
    MUST(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    MUST(g_dxpl = H5Pcreate(H5P_DATASET_XFER));
    MUST(H5Pset_dxpl_mpio(g_dxpl, H5FD_MPIO_COLLECTIVE));
    MUST(file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl));
    g_phase_commits = g_commits_total;

    regular_dataset(file, "regular", 0, reg_value);
    irregular_dataset(file);
    points_dataset(file);
    compound_dataset(file);
    regular_dataset(file, "chunked", 1, chk_value);

    MUST(H5Fclose(file));
    MUST_MPI(MPI_Barrier(MPI_COMM_WORLD));
    check_file(path, fapl);
    MUST(H5Pclose(g_dxpl));
    MUST(H5Pclose(fapl));

    MUST_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (g_rank == 0) {
        CHECK(unlink(path) == 0, "removing %s", path);
        CHECK(rmdir(dir) == 0, "removing %s", dir);
    }
    MUST_MPI(MPI_Allreduce(&g_checks, &checks, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    MUST_MPI(MPI_Allreduce(&g_failures, &fails, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    if (g_rank == 0) {
        printf("collective_io: derived types HDF5 committed on rank 0: %ld (", g_commits_total);
        for (c = 0; c < N_COMBINERS; c++)
            if (g_commits[c])
                printf(" %s %ld", combiner_name(c), g_commits[c]);
        printf(" )\n");
        if (fails == 0)
            printf("collective_io: all %ld checks passed\n", checks);
        else
            printf("collective_io: %ld of %ld checks failed\n", fails, checks);
        fflush(stdout);
    }
    MUST_MPI(MPI_Finalize());
    return fails == 0 ? 0 : 1;
}
