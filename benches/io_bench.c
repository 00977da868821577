/* io_bench: MPI-IO of one process through file views of derived types, the same source for
 * mpi-dtype's one-process MPI-IO, MPICH's ROMIO and Open MPI's; benches/io.py builds it three
 * ways, runs them in turns and prints the table (docs/BENCHMARKS.md, "MPI-IO of one process").
 *
 *   io_bench DIR [REPS]
 *
 * Each pattern writes its data with MPI_File_write_at_all through its view, then reads them
 * back with MPI_File_read_at_all, REPS times (default 5), into a file in DIR (a tmpfs such as
 * /dev/shm measures the library, not the disk); the read is checked against what was
 * written. Each line is "pattern write|read MB/s" for the best repetition (MB of data, not of
 * file). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A pattern: its name, the bytes of data, and its view. */
typedef struct {
    const char *name;
    MPI_Datatype filetype; /* tiled from displacement 0 */
    MPI_Datatype etype;
    int count; /* etypes a process writes */
} pattern;

static double now(void) { return MPI_Wtime(); }

/* Times one pattern; 0 on success. */
static int run(const char *path, const pattern *p, int reps)
{
    MPI_File fh;
    MPI_Status status;
    int size, r, got;
    double best_w = 1e30, best_r = 1e30, t;
    char *out, *in;
    long bytes;

    MPI_Type_size(p->etype, &size);
    bytes = (long)size * p->count;
    out = malloc((size_t)bytes);
    in = malloc((size_t)bytes);
    if (!out || !in)
        return 1;
    for (long i = 0; i < bytes; i++)
        out[i] = (char)(i * 7 + 3);
    for (r = 0; r < reps; r++) {
        MPI_File_delete(path, MPI_INFO_NULL);
        if (MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh))
            return 1;
        MPI_File_set_view(fh, 0, p->etype, p->filetype, "native", MPI_INFO_NULL);
        t = now();
        if (MPI_File_write_at_all(fh, 0, out, p->count, p->etype, &status))
            return 1;
        t = now() - t;
        best_w = t < best_w ? t : best_w;
        memset(in, 0, (size_t)bytes);
        t = now();
        if (MPI_File_read_at_all(fh, 0, in, p->count, p->etype, &status))
            return 1;
        t = now() - t;
        best_r = t < best_r ? t : best_r;
        MPI_Get_count(&status, p->etype, &got);
        if (got != p->count || memcmp(in, out, (size_t)bytes)) {
            fprintf(stderr, "io_bench: %s read back wrong data\n", p->name);
            return 1;
        }
        MPI_File_close(&fh);
    }
    MPI_File_delete(path, MPI_INFO_NULL);
    printf("%s write %.1f\n", p->name, bytes / best_w / 1e6);
    printf("%s read %.1f\n", p->name, bytes / best_r / 1e6);
    free(out);
    free(in);
    return 0;
}

int main(int argc, char **argv)
{
    char path[512];
    int reps = argc > 2 ? atoi(argv[2]) : 5, failed = 0;
    int sizes[3] = {32, 512, 512}, subsizes[3] = {32, 256, 256}, starts[3] = {0, 128, 0};
    MPI_Datatype every_other, every_16th, block, resized;
    pattern patterns[4];

    if (argc < 2) {
        fprintf(stderr, "usage: io_bench DIR [REPS]\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    snprintf(path, sizeof path, "%s/io_bench.%d", argv[1], (int)getpid());
    /* 16 MiB, contiguous. */
    patterns[0] = (pattern){"contiguous 16 MiB", MPI_DOUBLE, MPI_DOUBLE, 1 << 21};
    /* Every other double: 8 MiB of data over 16 MiB of file. */
    MPI_Type_vector(1, 1, 2, MPI_DOUBLE, &block);
    MPI_Type_create_resized(block, 0, 16, &every_other);
    MPI_Type_commit(&every_other);
    patterns[1] = (pattern){"every other double, 8 MiB", every_other, MPI_DOUBLE, 1 << 20};
    /* A quarter of a 32 x 512 x 512 grid of doubles (rows of 2 KiB): 16 MiB of data. */
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &resized);
    MPI_Type_commit(&resized);
    patterns[2] = (pattern){"subarray of a grid, 2 KiB rows, 16 MiB", resized, MPI_DOUBLE,
                            32 * 256 * 256};
    /* One double of every 16: 1 MiB of data over 16 MiB of file. */
    MPI_Type_create_resized(MPI_DOUBLE, 0, 128, &every_16th);
    MPI_Type_commit(&every_16th);
    patterns[3] = (pattern){"one double of 16, 1 MiB", every_16th, MPI_DOUBLE, 1 << 17};
    for (int i = 0; i < 4 && !failed; i++)
        failed = run(path, &patterns[i], reps);
    MPI_Type_free(&block);
    MPI_Type_free(&every_other);
    MPI_Type_free(&resized);
    MPI_Type_free(&every_16th);
    MPI_Finalize();
    return failed;
}
