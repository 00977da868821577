/* eager_sweep: the round trip of one message of a derived type between two ranks, by the
 * message's size, to find where the MPI library's own path and mpi-dtype's engine cross
 * (docs/drop-in.md, "Messages of derived types: the engine's path").
 *
 *   mpicc.mpich -O2 -Wall -Wextra -Werror benches/eager_sweep.c -o eager_sweep
 *   for mode in mpi engine auto; do
 *       mpiexec.mpich -n 2 -genv LD_PRELOAD build/prefix/lib/libmpi_dtype.so \
 *           -genv MPI_DTYPE_COMM $mode ./eager_sweep floats
 *   done
 *
 * The layout is the first argument: "floats" (single floats at random places of a 4 MiB
 * array, an indexed block), "bytes" (single bytes so), "doubles" (every other double, a
 * vector), "column" (single doubles 256 bytes apart, a vector) or "columns" (the same
 * layout as a vector of vectors of 32 doubles, the bytes rounded down to 256 of data, and a
 * size that rounds to the one before skipped) or "runsN" (blocks of N doubles 2N doubles
 * apart, a vector, N from 1 to 64: runs of 8N bytes); the second, the round trips of a run
 * (default 2000). Each line is the message's bytes of data and the fastest of 5 runs, in
 * microseconds a round trip, printed by rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPAN (1 << 22) /* bytes of the array the messages are taken from */
#define COLUMN 32       /* doubles from one to the next of a column */
#define PIECE 32        /* doubles of a column in each vector of the "columns" layout */

/* A type of `bytes` bytes of data in the layout `layout`, committed, or MPI_DATATYPE_NULL for
 * an unknown layout. */
static MPI_Datatype make_type(const char *layout, int bytes)
{
    MPI_Datatype basic, made = MPI_DATATYPE_NULL;
    int size, n, i, *places;
    if (!strcmp(layout, "doubles") || !strcmp(layout, "column")) {
        int stride = !strcmp(layout, "doubles") ? 2 : COLUMN;
        MPI_Type_vector(bytes / 8, 1, stride, MPI_DOUBLE, &made);
        MPI_Type_commit(&made);
        return made;
    }
    if (!strncmp(layout, "runs", 4)) {
        int run = atoi(layout + 4);
        if (run < 1 || run > 64)
            return MPI_DATATYPE_NULL;
        MPI_Type_vector(bytes / (8 * run), run, 2 * run, MPI_DOUBLE, &made);
        MPI_Type_commit(&made);
        return made;
    }
    if (!strcmp(layout, "columns")) {
        MPI_Datatype piece;
        MPI_Type_vector(PIECE, 1, COLUMN, MPI_DOUBLE, &piece);
        MPI_Type_create_hvector(bytes / (PIECE * (int)sizeof(double)), 1,
                                PIECE * COLUMN * (MPI_Aint)sizeof(double), piece, &made);
        MPI_Type_free(&piece);
        MPI_Type_commit(&made);
        return made;
    }
    if (!strcmp(layout, "floats"))
        basic = MPI_FLOAT;
    else if (!strcmp(layout, "bytes"))
        basic = MPI_BYTE;
    else
        return MPI_DATATYPE_NULL;
    MPI_Type_size(basic, &size);
    n = bytes / size;
    places = malloc((size_t)n * sizeof *places);
    srand(7);
    for (i = 0; i < n; i++)
        places[i] = (int)((unsigned long)rand() * 2654435761u % (unsigned long)(SPAN / size));
    MPI_Type_create_indexed_block(n, 1, places, basic, &made);
    MPI_Type_commit(&made);
    free(places);
    return made;
}

int main(int argc, char **argv)
{
    static const int sizes[] = {1024, 2048, 4096, 7600, 8192, 8400, 12000, 16384, 32768, 104000};
    const char *layout = argc > 1 ? argv[1] : "floats";
    const int trips = argc > 2 && atoi(argv[2]) > 0 ? atoi(argv[2]) : 2000;
    char *data;
    int rank, k, i, run, size, last = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    data = calloc(2 * SPAN, 1);
    for (k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
        MPI_Datatype type = make_type(layout, sizes[k]);
        double best = 1e30;
        if (type == MPI_DATATYPE_NULL) {
            if (rank == 0)
                fprintf(stderr, "eager_sweep: the layout is floats, bytes, doubles, column, "
                                "columns or runsN\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Type_size(type, &size);
        if (size == last) { /* rounded down to the size before */
            MPI_Type_free(&type);
            continue;
        }
        last = size;
        for (run = 0; run < 5; run++) {
            double start;
            MPI_Barrier(MPI_COMM_WORLD);
            start = MPI_Wtime();
            for (i = 0; i < trips; i++) {
                if (rank == 0) {
                    MPI_Send(data, 1, type, 1, 0, MPI_COMM_WORLD);
                    MPI_Recv(data, 1, type, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else if (rank == 1) {
                    MPI_Recv(data, 1, type, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(data, 1, type, 0, 0, MPI_COMM_WORLD);
                }
            }
            if ((MPI_Wtime() - start) / trips < best)
                best = (MPI_Wtime() - start) / trips;
        }
        if (rank == 0)
            printf("%d %.3f\n", size, best * 1e6);
        MPI_Type_free(&type);
    }
    free(data);
    MPI_Finalize();
    return 0;
}
