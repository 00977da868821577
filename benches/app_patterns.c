/* The exchange patterns of real applications, as the datatype benchmarks of the field
 * describe them (DDTBench: Schneider, Gerstenberger and Hoefler, "Application-oriented
 * ping-pong benchmarking", EuroMPI 2013): each pattern builds its MPI type the way the
 * application does, at the size the description calls typical, and writes down the bytes the
 * type covers from the application's geometry (for the check, and for the manual variant,
 * which copies them as the application's own loop does).
 *
 * Where the application joins several arrays in one struct type with absolute addresses
 * (WRF, LAMMPS, SPECFEM3D's crust and mantle), the arrays lie one after another in one buffer
 * and the struct's displacements are their offsets in it: the same type map, moved.
 *
 *   wrf_x_vec, wrf_y_vec   WRF's x and y halo (a 4 x 4 process grid): a struct of 4 vectors
 *                          over 2-D arrays, 3 hvectors of vectors over 3-D arrays, 2 hvectors
 *                          of those over 4-D arrays, of floats; x: runs of 12 B, y: 64 B
 *   wrf_x_sa, wrf_y_sa     the same halos as a struct of 2-, 3- and 4-D subarrays
 *   milc_su3_zd            MILC's su3 vectors, z down: an hvector of vectors of 6 floats
 *   nas_lu_x, nas_lu_y     NAS LU (class B): a contiguous face, and a vector of 5 doubles
 *   nas_mg_x/_y/_z         NAS MG (class W) faces: single doubles, and rows of 1 KiB
 *   lammps_full            LAMMPS's full exchange: a struct of 6 indexed blocks (x[3],
 *                          tag, type, mask, q, molecule: doubles and ints) over 3,062 of
 *                          3,534 particles in a random order
 *   lammps_atomic          the atomic style: x[3], tag, type, mask of 145 of 2,157
 *   specfem3d_oc           SPECFEM3D's outer core: an indexed block of single floats
 *   specfem3d_cm           its crust, mantle and inner core: a struct of two indexed blocks
 *                          of 3 floats
 *   specfem3d_mt           its transposed mesh: a vector of every other 3 floats
 *   fft_transpose          a 2-D FFT's transpose of 768 x 768 complex doubles between the two
 *                          ranks: MPI_Alltoall with a resized vector to send and a
 *                          contiguous of resized vectors to receive
 *   fft_transpose_i        the same with MPI_Ialltoall and MPI_Wait
 *   fft_transpose_v        the same with MPI_Alltoallv (a count and displacement per rank)
 *   fft_transpose_w        the same with MPI_Alltoallw (a type and a displacement in bytes
 *                          per rank)
 */
#include "comm_bench.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- WRF --------------------------------------------------------------------------------- */

/* One halo box: the arrays' extents (x, vertical, y) and the box's size and start. */
typedef struct wrf_box {
    int dim1, dim2, dim3; /* i (fastest), k, j */
    int sub1, sub3;       /* the box: i and j; k is whole */
    int i0, j0;
} wrf_box;

static const wrf_box wrf_x = {24, 65, 34, 3, 26, 14, 4};
static const wrf_box wrf_y = {24, 65, 34, 16, 3, 4, 7};

/* The 9 arrays (4 of 2-D, 3 of 3-D, 2 of 4-D with 2 slabs) one after another in the buffer:
 * the offset of each, in bytes, and the buffer's size. */
static size_t wrf_layout(const wrf_box *b, size_t offsets[9]) {
    size_t plane = (size_t)b->dim1 * (size_t)b->dim3 * sizeof(float);
    size_t sizes[9], at = 0;
    for (int a = 0; a < 9; a++) {
        sizes[a] = a < 4 ? plane : a < 7 ? plane * (size_t)b->dim2 : 2 * plane * (size_t)b->dim2;
        offsets[a] = at;
        at += sizes[a];
    }
    return at;
}

/* The runs of the halo box, in the struct's order: per array, j outer, k inner; of the 4-D
 * arrays, slab 1 alone. */
static void wrf_runs(pattern *p, const wrf_box *b, const size_t offsets[9]) {
    size_t row = (size_t)b->dim1, length = (size_t)b->sub1 * sizeof(float);
    for (int a = 0; a < 9; a++) {
        int levels = a < 4 ? 1 : b->dim2;
        size_t slab = a < 7 ? 0 : (size_t)b->dim3 * (size_t)b->dim2 * row;
        for (int j = 0; j < b->sub3; j++)
            for (int k = 0; k < levels; k++) {
                size_t element = slab + ((size_t)(b->j0 + j) * (size_t)levels + (size_t)k) * row +
                                 (size_t)b->i0;
                add_run(p, offsets[a] + element * sizeof(float), length);
            }
    }
}

/* The halo as WRF's vector version builds it: T2 = vector over a 2-D array, T3 = hvector
 * (over j) of vector (over k), T4 = hvector of one T3 at the second slab; each displaced to
 * the box's first element. */
static void make_wrf_vec(pattern *p, const wrf_box *b) {
    size_t offsets[9];
    MPI_Datatype t2, k_plane, t3, t4, types[9];
    MPI_Aint displs[9];
    int lengths[9];
    MPI_Aint level = (MPI_Aint)b->dim1 * b->dim2 * (MPI_Aint)sizeof(float);
    p->span = wrf_layout(b, offsets);
    MPI_Type_vector(b->sub3, b->sub1, b->dim1, MPI_FLOAT, &t2);
    MPI_Type_vector(b->dim2, b->sub1, b->dim1, MPI_FLOAT, &k_plane);
    MPI_Type_create_hvector(b->sub3, 1, level, k_plane, &t3);
    MPI_Type_create_hvector(1, 1, level * b->dim3, t3, &t4);
    for (int a = 0; a < 9; a++) {
        size_t first = a < 4 ? (size_t)b->j0 * (size_t)b->dim1 + (size_t)b->i0
                             : (size_t)b->j0 * (size_t)b->dim2 * (size_t)b->dim1 + (size_t)b->i0;
        if (a >= 7)
            first += (size_t)b->dim3 * (size_t)b->dim2 * (size_t)b->dim1;
        lengths[a] = 1;
        displs[a] = (MPI_Aint)(offsets[a] + first * sizeof(float));
        types[a] = a < 4 ? t2 : a < 7 ? t3 : t4;
    }
    MPI_Type_create_struct(9, lengths, displs, types, &p->type);
    MPI_Type_free(&t2);
    MPI_Type_free(&k_plane);
    MPI_Type_free(&t3);
    MPI_Type_free(&t4);
    p->count = 1;
    p->bytes = (size_t)b->sub1 * (size_t)b->sub3 * (4 + 5 * (size_t)b->dim2) * sizeof(float);
    wrf_runs(p, b, offsets);
}

/* The same halo as WRF's subarray version builds it: 2-, 3- and 4-D subarrays in C order at
 * the arrays' bases. */
static void make_wrf_sa(pattern *p, const wrf_box *b) {
    size_t offsets[9];
    MPI_Datatype t2, t3, t4, types[9];
    MPI_Aint displs[9];
    int lengths[9];
    int sizes4[4] = {2, b->dim3, b->dim2, b->dim1}, subs4[4] = {1, b->sub3, b->dim2, b->sub1};
    int starts4[4] = {1, b->j0, 0, b->i0};
    p->span = wrf_layout(b, offsets);
    MPI_Type_create_subarray(2, (int[]){b->dim3, b->dim1}, (int[]){b->sub3, b->sub1},
                             (int[]){b->j0, b->i0}, MPI_ORDER_C, MPI_FLOAT, &t2);
    MPI_Type_create_subarray(3, sizes4 + 1, subs4 + 1, starts4 + 1, MPI_ORDER_C, MPI_FLOAT, &t3);
    MPI_Type_create_subarray(4, sizes4, subs4, starts4, MPI_ORDER_C, MPI_FLOAT, &t4);
    for (int a = 0; a < 9; a++) {
        lengths[a] = 1;
        displs[a] = (MPI_Aint)offsets[a];
        types[a] = a < 4 ? t2 : a < 7 ? t3 : t4;
    }
    MPI_Type_create_struct(9, lengths, displs, types, &p->type);
    MPI_Type_free(&t2);
    MPI_Type_free(&t3);
    MPI_Type_free(&t4);
    p->count = 1;
    p->bytes = (size_t)b->sub1 * (size_t)b->sub3 * (4 + 5 * (size_t)b->dim2) * sizeof(float);
    wrf_runs(p, b, offsets);
}

/* ---- MILC -------------------------------------------------------------------------------- */

/* su3 vectors (6 floats) on an 8 x 16 x 16 x 16 lattice [t][z][y][x]: the z-down
 * neighbours of both checkerboard halves, 2 x 16 blocks of 1,536 B. */
static void make_milc(pattern *p) {
    const int lx = 8, ly = 16, lz = 16, lt = 16;
    const size_t site = 6 * sizeof(float), half = site * (size_t)(lx * ly * lz * lt / 2);
    MPI_Datatype su3, planes;
    MPI_Type_contiguous(6, MPI_FLOAT, &su3);
    MPI_Type_vector(lt, lx * ly / 2, lx * ly * lz / 2, su3, &planes);
    MPI_Type_create_hvector(2, 1, (MPI_Aint)half, planes, &p->type);
    MPI_Type_free(&su3);
    MPI_Type_free(&planes);
    p->count = 1;
    p->span = 2 * half;
    p->bytes = 2 * (size_t)lt * (size_t)(lx * ly / 2) * site;
    for (size_t h = 0; h < 2; h++)
        for (size_t t = 0; t < (size_t)lt; t++)
            add_run(p, h * half + t * (size_t)(lx * ly * lz / 2) * site,
                    (size_t)(lx * ly / 2) * site);
}

/* ---- NAS LU and MG ----------------------------------------------------------------------- */

/* LU, class B: 5 doubles per point of a 104 x 104 plane; x: the face k = N, contiguous;
 * y: the line j = N of every plane, 40 B every 4,160 B. */
static void make_nas_lu(pattern *p, int y) {
    const size_t n = 102, point = 5 * sizeof(double);
    p->span = (n + 2) * (n + 2) * point;
    p->count = 1;
    p->bytes = n * point;
    if (!y) {
        MPI_Type_contiguous((int)(5 * n), MPI_DOUBLE, &p->type);
        p->origin = (n * (n + 2) + 1) * point;
        add_run(p, p->origin, n * point);
        return;
    }
    MPI_Datatype point_type;
    MPI_Type_contiguous(5, MPI_DOUBLE, &point_type);
    MPI_Type_vector((int)n, 1, (int)(n + 2), point_type, &p->type);
    MPI_Type_free(&point_type);
    p->origin = (1 * (n + 2) + n) * point;
    for (size_t k = 0; k < n; k++)
        add_run(p, p->origin + k * (n + 2) * point, point);
}

/* MG, class W: a 130 x 66 x 66 grid of doubles [z][y][x] with a ghost layer; the faces
 * x = nx - 2 (single doubles), y = ny - 2 and z = 1 (rows of 128 doubles). */
static void make_nas_mg(pattern *p, int face) {
    const int nx = 130, ny = 66, nz = 66;
    const size_t row = (size_t)nx * sizeof(double), plane = row * (size_t)ny;
    MPI_Datatype inner;
    p->span = plane * (size_t)nz;
    p->count = 1;
    if (face == 0) {
        MPI_Type_vector(ny - 2, 1, nx, MPI_DOUBLE, &inner);
        MPI_Type_create_hvector(nz - 2, 1, (MPI_Aint)plane, inner, &p->type);
        MPI_Type_free(&inner);
        p->origin = plane + row + (size_t)(nx - 2) * sizeof(double);
        for (size_t z = 0; z < (size_t)nz - 2; z++)
            for (size_t y = 0; y < (size_t)ny - 2; y++)
                add_run(p, p->origin + z * plane + y * row, sizeof(double));
        p->bytes = (size_t)(ny - 2) * (size_t)(nz - 2) * sizeof(double);
        return;
    }
    /* y: one row per plane, planes apart; z: every row of one plane */
    int rows = face == 1 ? nz - 2 : ny - 2;
    size_t stride = face == 1 ? plane : row;
    MPI_Type_vector(rows, nx - 2, (int)(stride / sizeof(double)), MPI_DOUBLE, &p->type);
    p->origin = plane + (face == 1 ? (size_t)(ny - 2) : 1) * row + sizeof(double);
    for (size_t r = 0; r < (size_t)rows; r++)
        add_run(p, p->origin + r * stride, (size_t)(nx - 2) * sizeof(double));
    p->bytes = (size_t)rows * (size_t)(nx - 2) * sizeof(double);
}

/* ---- LAMMPS ------------------------------------------------------------------------------ */

/* The particles `list` of `local` sent as a struct of indexed blocks, one per property:
 * x[3] (doubles), tag, type, mask (ints), and for the full style q (double) and molecule
 * (int). The properties' arrays lie one after another. */
static void make_lammps(pattern *p, int full) {
    const int count = full ? 3062 : 145, local = full ? 3534 : 2157;
    const int members = full ? 6 : 4;
    /* per property: blocklength and element type */
    const int blocks[6] = {3, 1, 1, 1, 1, 1};
    MPI_Datatype elements[6] = {MPI_DOUBLE, MPI_INT, MPI_INT, MPI_INT, MPI_DOUBLE, MPI_INT};
    const size_t sizes[6] = {sizeof(double), sizeof(int), sizeof(int), sizeof(int),
                             sizeof(double), sizeof(int)};
    int *list = random_indices(count, local, full ? 31415926u : 27182818u);
    int *scaled = allocate((size_t)count * sizeof *scaled);
    MPI_Datatype types[6];
    MPI_Aint displs[6];
    int lengths[6];
    size_t at = 0;
    p->bytes = 0;
    for (int m = 0; m < members; m++) {
        size_t element = (size_t)blocks[m] * sizes[m];
        for (int k = 0; k < count; k++)
            scaled[k] = list[k] * blocks[m];
        MPI_Type_create_indexed_block(count, blocks[m], scaled, elements[m], &types[m]);
        lengths[m] = 1;
        displs[m] = (MPI_Aint)at;
        for (int k = 0; k < count; k++)
            add_run(p, at + (size_t)list[k] * element, element);
        p->bytes += (size_t)count * element;
        at += (size_t)local * element;
        at = (at + 63) / 64 * 64;
    }
    MPI_Type_create_struct(members, lengths, displs, types, &p->type);
    for (int m = 0; m < members; m++)
        MPI_Type_free(&types[m]);
    free(list);
    free(scaled);
    p->count = 1;
    p->span = at;
}

/* ---- SPECFEM3D --------------------------------------------------------------------------- */

/* The outer core's boundary: 1,897 of 38,585 floats, in a random order. */
static void make_specfem_oc(pattern *p) {
    const int count = 1897, points = 38585;
    int *list = random_indices(count, points, 16180339u);
    MPI_Type_create_indexed_block(count, 1, list, MPI_FLOAT, &p->type);
    for (int k = 0; k < count; k++)
        add_run(p, (size_t)list[k] * sizeof(float), sizeof(float));
    free(list);
    p->count = 1;
    p->span = (size_t)points * sizeof(float);
    p->bytes = (size_t)count * sizeof(float);
}

/* The crust and mantle's and the inner core's boundaries: 7,125 of 396,849 and 1,729 of
 * 22,477 vectors of 3 floats, each in a random order, in a struct of two indexed blocks. */
static void make_specfem_cm(pattern *p) {
    const int counts[2] = {7125, 1729}, points[2] = {396849, 22477};
    const size_t vector = 3 * sizeof(float);
    MPI_Datatype types[2];
    MPI_Aint displs[2];
    int lengths[2] = {1, 1};
    size_t at = 0;
    p->bytes = 0;
    for (int r = 0; r < 2; r++) {
        int *list = random_indices(counts[r], points[r], 14142135u + (uint64_t)r);
        for (int k = 0; k < counts[r]; k++) {
            add_run(p, at + (size_t)list[k] * vector, vector);
            list[k] *= 3;
        }
        MPI_Type_create_indexed_block(counts[r], 3, list, MPI_FLOAT, &types[r]);
        free(list);
        displs[r] = (MPI_Aint)at;
        p->bytes += (size_t)counts[r] * vector;
        at += (size_t)points[r] * vector;
    }
    MPI_Type_create_struct(2, lengths, displs, types, &p->type);
    MPI_Type_free(&types[0]);
    MPI_Type_free(&types[1]);
    p->count = 1;
    p->span = at;
}

/* The transposed mesh: the first 3 floats of each of 6,400 records of 6. */
static void make_specfem_mt(pattern *p) {
    const int n = 6400;
    MPI_Datatype vector;
    MPI_Type_contiguous(3, MPI_FLOAT, &vector);
    MPI_Type_vector(n, 1, 2, vector, &p->type);
    MPI_Type_free(&vector);
    for (size_t k = 0; k < (size_t)n; k++)
        add_run(p, k * 6 * sizeof(float), 3 * sizeof(float));
    p->count = 1;
    p->span = (size_t)n * 6 * sizeof(float);
    p->bytes = (size_t)n * 3 * sizeof(float);
}

/* ---- the FFT transpose --------------------------------------------------------------------- */

#define FFT_N 768 /* the matrix is FFT_N x FFT_N complex doubles, FFT_N / 2 rows per rank */
#define COMPLEX 16

/* The complex at row `row`, column `column` of rank `owner`'s slab: its byte `b`. */
static unsigned char fft_byte(int owner, size_t row, size_t column, size_t b) {
    return content((uint64_t)owner + 1, (row * FFT_N + column) * COMPLEX + b);
}

/* Rank `rank`'s received slab must hold the transpose: its element (i, k n + j) is source
 * k's element (j, rank n + i). Leaves the slab SENTINEL again. */
static void fft_check(const char *pattern, unsigned char *received, const char *variant) {
    const size_t n = FFT_N / 2;
    for (size_t i = 0; i < n; i++)
        for (size_t column = 0; column < FFT_N; column++) {
            unsigned char *at = received + (i * FFT_N + column) * COMPLEX;
            int source = (int)(column / n);
            size_t j = column % n;
            for (size_t b = 0; b < COMPLEX; b++)
                if (at[b] != fft_byte(source, j, (size_t)rank * n + i, b)) {
                    char what[96];
                    snprintf(what, sizeof what, "%s: the received slab is not the transpose",
                             variant);
                    fail(pattern, what);
                }
            memset(at, SENTINEL, COMPLEX);
        }
}

/* How the typed variant moves the FFT's blocks. */
enum fft_call { FFT_ALLTOALL, FFT_IALLTOALL, FFT_ALLTOALLV, FFT_ALLTOALLW };

typedef struct fft {
    enum fft_call call;
    const char *name;
    MPI_Datatype send, receive; /* one block to each rank, one block from each rank */
    unsigned char *slab, *received, *packed, *unpacked;
    int packed_size;
} fft;

/* One transpose, in the variant `variant`: typed (MPI_Alltoall of the types, or its
 * nonblocking, v or w form), packed
 * (MPI_Pack of both blocks, MPI_Alltoall of bytes, MPI_Unpack), manual (the application's
 * copy loops around an MPI_Alltoall of bytes). */
static void fft_transpose(fft *f, char variant) {
    const size_t n = FFT_N / 2, block = n * n * COMPLEX;
    int position = 0;
    if (variant == 't' && f->call == FFT_IALLTOALL) {
        MPI_Request request;
        MPI_Ialltoall(f->slab, 1, f->send, f->received, 1, f->receive, MPI_COMM_WORLD, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else if (variant == 't' && f->call == FFT_ALLTOALLV) {
        /* block k at k extents of the types on both sides */
        const int counts[2] = {1, 1}, displs[2] = {0, 1};
        MPI_Alltoallv(f->slab, counts, displs, f->send, f->received, counts, displs, f->receive,
                      MPI_COMM_WORLD);
    } else if (variant == 't' && f->call == FFT_ALLTOALLW) {
        /* block k at k extents of the types on both sides, in bytes */
        const int counts[2] = {1, 1}, displs[2] = {0, (int)(n * COMPLEX)};
        const MPI_Datatype sends[2] = {f->send, f->send}, receives[2] = {f->receive, f->receive};
        MPI_Alltoallw(f->slab, counts, displs, sends, f->received, counts, displs, receives,
                      MPI_COMM_WORLD);
    } else if (variant == 't') {
        MPI_Alltoall(f->slab, 1, f->send, f->received, 1, f->receive, MPI_COMM_WORLD);
    } else if (variant == 'p') {
        MPI_Pack(f->slab, 2, f->send, f->packed, f->packed_size, &position, MPI_COMM_WORLD);
        MPI_Alltoall(f->packed, (int)block, MPI_BYTE, f->unpacked, (int)block, MPI_BYTE,
                     MPI_COMM_WORLD);
        position = 0;
        MPI_Unpack(f->unpacked, 2 * (int)block, &position, f->received, 2, f->receive,
                   MPI_COMM_WORLD);
    } else {
        for (size_t k = 0; k < 2; k++)
            for (size_t row = 0; row < n; row++)
                memcpy(f->packed + k * block + row * n * COMPLEX,
                       f->slab + (row * FFT_N + k * n) * COMPLEX, n * COMPLEX);
        MPI_Alltoall(f->packed, (int)block, MPI_BYTE, f->unpacked, (int)block, MPI_BYTE,
                     MPI_COMM_WORLD);
        for (size_t k = 0; k < 2; k++)
            for (size_t j = 0; j < n; j++)
                for (size_t i = 0; i < n; i++)
                    memcpy(f->received + (i * FFT_N + k * n + j) * COMPLEX,
                           f->unpacked + k * block + (j * n + i) * COMPLEX, COMPLEX);
    }
}

/* One checked transpose, the warm-up, then `reps` timed ones: the longer of the two ranks'
 * times. */
static void fft_measure(fft *f, char variant, const char *name) {
    double *times = allocate((size_t)reps * sizeof *times);
    double *longest = allocate((size_t)reps * sizeof *longest);
    MPI_Barrier(MPI_COMM_WORLD);
    fft_transpose(f, variant);
    fft_check(f->name, f->received, name);
    for (int w = warmups((size_t)FFT_N * FFT_N / 2 * COMPLEX); w > 0; w--)
        fft_transpose(f, variant);
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        fft_transpose(f, variant);
        times[r] = MPI_Wtime() - start;
    }
    MPI_Reduce(times, longest, reps, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        report(f->name, name, (size_t)FFT_N * FFT_N / 2 * COMPLEX, longest);
    free(times);
    free(longest);
}

static void bench_fft(enum fft_call call, const char *pattern) {
    const int n = FFT_N / 2;
    const size_t slab = (size_t)n * FFT_N * COMPLEX;
    MPI_Datatype complex, block, column, columns;
    fft f;
    f.call = call;
    f.name = pattern;
    MPI_Type_contiguous(2, MPI_DOUBLE, &complex);
    MPI_Type_vector(n, n, FFT_N, complex, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)n * COMPLEX, &f.send);
    MPI_Type_vector(n, 1, FFT_N, complex, &column);
    MPI_Type_create_resized(column, 0, COMPLEX, &columns);
    MPI_Type_contiguous(n, columns, &f.receive);
    MPI_Type_free(&complex);
    MPI_Type_free(&block);
    MPI_Type_free(&column);
    MPI_Type_free(&columns);
    MPI_Type_commit(&f.send);
    MPI_Type_commit(&f.receive);
    MPI_Pack_size(2, f.send, MPI_COMM_WORLD, &f.packed_size);
    f.slab = allocate(slab);
    f.received = allocate(slab);
    f.packed = allocate((size_t)f.packed_size);
    f.unpacked = allocate((size_t)f.packed_size);
    for (size_t row = 0; row < (size_t)n; row++)
        for (size_t column = 0; column < FFT_N; column++)
            for (size_t b = 0; b < COMPLEX; b++)
                f.slab[(row * FFT_N + column) * COMPLEX + b] = fft_byte(rank, row, column, b);
    memset(f.received, SENTINEL, slab);
    if (want_typed)
        fft_measure(&f, 't', "typed");
    if (want_packed)
        fft_measure(&f, 'p', "packed");
    if (want_manual)
        fft_measure(&f, 'm', "manual");
    free(f.slab);
    free(f.received);
    free(f.packed);
    free(f.unpacked);
    MPI_Type_free(&f.send);
    MPI_Type_free(&f.receive);
}

/* ---- the list ------------------------------------------------------------------------------ */

static const char *const app_names[] = {
    "wrf_x_vec",   "wrf_y_vec",    "wrf_x_sa",      "wrf_y_sa",      "milc_su3_zd",
    "nas_lu_x",    "nas_lu_y",     "nas_mg_x",      "nas_mg_y",      "nas_mg_z",
    "lammps_full", "lammps_atomic", "specfem3d_oc", "specfem3d_cm",  "specfem3d_mt",
    "fft_transpose", "fft_transpose_i", "fft_transpose_v", "fft_transpose_w"};

int app_pattern_count(void) { return (int)(sizeof app_names / sizeof app_names[0]); }

const char *app_pattern_name(int which) { return app_names[which]; }

int app_pattern(int which, pattern *p) {
    switch (which) {
    case 0: make_wrf_vec(p, &wrf_x); break;
    case 1: make_wrf_vec(p, &wrf_y); break;
    case 2: make_wrf_sa(p, &wrf_x); break;
    case 3: make_wrf_sa(p, &wrf_y); break;
    case 4: make_milc(p); break;
    case 5: make_nas_lu(p, 0); break;
    case 6: make_nas_lu(p, 1); break;
    case 7: case 8: case 9: make_nas_mg(p, which - 7); break;
    case 10: case 11: make_lammps(p, which == 10); break;
    case 12: make_specfem_oc(p); break;
    case 13: make_specfem_cm(p); break;
    case 14: make_specfem_mt(p); break;
    case 15: bench_fft(FFT_ALLTOALL, app_names[which]); return 0;
    case 16: bench_fft(FFT_IALLTOALL, app_names[which]); return 0;
    case 17: bench_fft(FFT_ALLTOALLV, app_names[which]); return 0;
    default: bench_fft(FFT_ALLTOALLW, app_names[which]); return 0;
    }
    return 1;
}
