/* End to end over MPICH: each of the processes writes its part of a shared 8 x 16 dataset of
 * ints through MPI_File_set_view with the port's file-side type and MPI_File_write_all with the
 * memory-side type, for a regular, an irregular and a permuted point selection; then rank 0
 * reads the file back and checks every byte. Usage: mpiexec -n 4 e2e_mpiio FILE */
#include "h5s_mpio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long hc_live;
long hc_made[16];
long hc_fail_at, hc_calls;

enum { ROWS = 8, COLS = 16, PHASES = 3 };

/* The process that owns element (i, j) in each phase. */
static int owner(int phase, int i, int j, int nprocs) {
    switch (phase) {
    case 0: return j % nprocs;             /* columns, strided: regular */
    case 1: return (i + j / 4) % nprocs;   /* shifted column groups: irregular */
    default: return (i * COLS + j) % nprocs; /* points */
    }
}

static int value(int phase, int i, int j) { return 100000 * (phase + 1) + i * COLS + j; }

static int fail(const char *what, int rank) {
    fprintf(stderr, "rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, nprocs;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 2 || nprocs > 4)
        return fail("usage: mpiexec -n <1..4> e2e_mpiio FILE", rank);
    MPI_File fh;
    if (rank == 0)
        MPI_File_delete(argv[1], MPI_INFO_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) != MPI_SUCCESS)
        return fail("cannot open the file", rank);
    const uint64_t dims[2] = {ROWS, COLS};
    for (int phase = 0; phase < PHASES; phase++) {
        h5s_space *file = h5s_create_simple(2, dims);
        int mine[ROWS * COLS][2], n = 0;
        if (phase == 0) {
            const uint64_t start[2] = {0, (uint64_t)rank}, stride[2] = {1, (uint64_t)nprocs};
            const uint64_t count[2] = {1, (uint64_t)((COLS - rank + nprocs - 1) / nprocs)}, block[2] = {ROWS, 1};
            if (h5s_select_hyperslab(file, H5S_OP_SET, start, stride, count, block) < 0)
                return fail("regular selection", rank);
        } else if (phase == 1) {
            for (int g = 0; g < 4; g++) {
                const uint64_t start[2] = {(uint64_t)(((rank - g) % nprocs + nprocs) % nprocs), (uint64_t)(4 * g)};
                const uint64_t stride[2] = {(uint64_t)nprocs, 1};
                const uint64_t count[2] = {(uint64_t)((ROWS - (int)start[0] + nprocs - 1) / nprocs), 1};
                const uint64_t block[2] = {1, 4};
                if (h5s_select_hyperslab(file, g == 0 ? H5S_OP_SET : H5S_OP_OR, start, stride, count, block) < 0)
                    return fail("irregular selection", rank);
            }
            if (nprocs > 1 && h5s_select_is_regular_hyperslab(file) != 0)
                return fail("phase 1 should be irregular", rank);
        }
        /* the elements this process owns: row-major for hyperslabs, reversed for points */
        for (int i = 0; i < ROWS; i++)
            for (int j = 0; j < COLS; j++)
                if (owner(phase, i, j, nprocs) == rank) {
                    mine[n][0] = i;
                    mine[n][1] = j;
                    n++;
                }
        if (phase == 2) {
            uint64_t *coords = malloc(2 * (size_t)n * sizeof *coords);
            for (int k = 0; k < n; k++) {
                coords[2 * k] = (uint64_t)mine[n - 1 - k][0];
                coords[2 * k + 1] = (uint64_t)mine[n - 1 - k][1];
            }
            for (int k = 0; k < n / 2; k++) {
                int t0 = mine[k][0], t1 = mine[k][1];
                mine[k][0] = mine[n - 1 - k][0];
                mine[k][1] = mine[n - 1 - k][1];
                mine[n - 1 - k][0] = t0;
                mine[n - 1 - k][1] = t1;
            }
            if (h5s_select_elements(file, H5S_OP_SET, (size_t)n, coords) < 0)
                return fail("point selection", rank);
            free(coords);
        }
        if (h5s_get_select_npoints(file) != n)
            return fail("npoints", rank);
        /* memory: every other int of a buffer of 2n + 1 */
        const uint64_t mdim = 2 * (uint64_t)n + 1, one = 1, two = 2, cnt = (uint64_t)n;
        h5s_space *mem = h5s_create_simple(1, &mdim);
        if (h5s_select_hyperslab(mem, H5S_OP_SET, &one, &two, &cnt, NULL) < 0)
            return fail("memory selection", rank);
        int *buf = calloc(mdim, sizeof *buf);
        for (int k = 0; k < n; k++)
            buf[1 + 2 * k] = value(phase, mine[k][0], mine[k][1]);
        MPI_Datatype ftype, mtype;
        int fcount, fderived, mcount, mderived, permuted = 0;
        uint64_t *map = NULL;
        if (h5s_mpio_space_type(file, sizeof(int), &ftype, &fcount, &fderived, 1, &map, &permuted) < 0 ||
            h5s_mpio_space_type(mem, sizeof(int), &mtype, &mcount, &mderived, 0, &map, &permuted) < 0)
            return fail("space types", rank);
        if (phase == 2 && n > 1 && !permuted)
            return fail("points given in reverse order should be permuted", rank);
        if (map != NULL)
            return fail("the memory-side call should free the map", rank);
        if (!fderived)
            return fail("the file side needs a derived type", rank);
        MPI_File_set_view(fh, (MPI_Offset)phase * ROWS * COLS * (MPI_Offset)sizeof(int), MPI_BYTE, ftype, "native",
                          MPI_INFO_NULL);
        MPI_Status status;
        if (MPI_File_write_all(fh, buf, mcount, mtype, &status) != MPI_SUCCESS)
            return fail("write_all", rank);
        MPI_Type_free(&ftype);
        if (mderived)
            MPI_Type_free(&mtype);
        free(buf);
        h5s_close(mem);
        h5s_close(file);
    }
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    int bad = 0;
    if (rank == 0) {
        FILE *f = fopen(argv[1], "rb");
        int data[PHASES][ROWS][COLS];
        if (f == NULL || fread(data, sizeof data, 1, f) != 1)
            return fail("cannot read the file back", rank);
        fclose(f);
        for (int p = 0; p < PHASES; p++)
            for (int i = 0; i < ROWS; i++)
                for (int j = 0; j < COLS; j++)
                    if (data[p][i][j] != value(p, i, j)) {
                        if (bad++ < 10)
                            fprintf(stderr, "phase %d element (%d,%d): %d, expected %d\n", p, i, j, data[p][i][j],
                                    value(p, i, j));
                    }
        printf("%d processes, %d phases: %s\n", nprocs, PHASES, bad ? "MISMATCH" : "every byte matches");
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return bad ? 1 : 0;
}
