/* What drop-in mode costs: one program, built against MPICH and run plainly and with
 * libmpi_dtype.so preloaded (and, with -DBENCH_STANDALONE, built against mpi-dtype alone).
 * benches/drop_in.py builds and runs it and prints the table; docs/BENCHMARKS.md has the
 * figures.
 *
 *   drop_in_bench [--trials N] [--min-ms M]
 *
 * Prints one line per measurement, "name value unit", the value being the median of N trials
 * (default 5), each timing a batch of calls that lasts at least M ms (default 4; the batch
 * size is found once per measurement). Times are the CPU time of the thread (user and
 * system), so that time spent waiting for a core on a busy machine is not counted.
 * Measured:
 *
 *   call/...   ns per call of queries and MPI_Pack on MPI_DOUBLE, on a vector MPICH made
 *              itself (through PMPI_Type_vector of libmpich, found with dlsym: under the
 *              preload these calls are forwarded to MPICH), and on a vector the program made
 *              with MPI_Type_vector (under the preload: mpi-dtype's type, which gets a twin
 *              in MPICH only when a call takes it there);
 *   build/...  us per construction + commit + free of five typical derived types, after
 *              MPI_Init;
 *   comm/...   us per MPI_Sendrecv to self of a derived type, and per construction + commit
 *              + one MPI_Sendrecv + free of a vector (under the preload: on the path
 *              MPI_DTYPE_COMM chooses, and with a twin made for the message where that is
 *              MPICH's); ns per message to itself (MPI_Isend, MPI_Recv, MPI_Wait) of one
 *              MPI_DOUBLE and of a contiguous type of 512 doubles.
 *
 * Every type is checked (size, extent, packed or received bytes) before it is timed; a wrong
 * answer exits with status 1, an MPI error aborts (the default error handler).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int trials = 5;
static double min_time = 0.004;
static volatile long sink;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef void (*op_fn)(long n);

/* Seconds per call of `op`: the median over `trials` batches of a size that lasts at least
 * `min_time`. */
static double per_call(op_fn op) {
    long n = 1;
    for (;;) {
        double t0 = now();
        op(n);
        double elapsed = now() - t0;
        if (elapsed >= min_time || n >= (1L << 30))
            break;
        n = elapsed > min_time / 64 ? (long)(n * 1.2 * min_time / elapsed) + 1 : n * 8;
    }
    double times[64];
    int count = trials < 64 ? trials : 64;
    for (int i = 0; i < count; i++) {
        double t0 = now();
        op(n);
        times[i] = (now() - t0) / (double)n;
    }
    qsort(times, (size_t)count, sizeof times[0], by_value);
    return count % 2 ? times[count / 2] : 0.5 * (times[count / 2 - 1] + times[count / 2]);
}

static void report(const char *name, double seconds, double scale, const char *unit) {
    printf("%s %.4f %s\n", name, seconds * scale, unit);
    fflush(stdout);
}

static void fail(const char *what) {
    fprintf(stderr, "drop_in_bench: wrong result: %s\n", what);
    exit(1);
}

/* ---- the types ------------------------------------------------------------------------ */

#define VECTOR_COUNT 1000     /* blocks of one double, stride 2 */
#define INDEXED_BLOCKS 16
#define HINDEXED_BLOCKS 100000

static int indexed_lengths[INDEXED_BLOCKS], indexed_places[INDEXED_BLOCKS];
static int *hindexed_lengths;
static MPI_Aint *hindexed_places;
static long hindexed_size;

static void prepare_arguments(void) {
    for (int i = 0, at = 0; i < INDEXED_BLOCKS; i++) {
        indexed_lengths[i] = 1 + i % 4;
        indexed_places[i] = at;
        at += indexed_lengths[i] + 3;
    }
    hindexed_lengths = malloc(HINDEXED_BLOCKS * sizeof *hindexed_lengths);
    hindexed_places = malloc(HINDEXED_BLOCKS * sizeof *hindexed_places);
    if (!hindexed_lengths || !hindexed_places)
        fail("out of memory");
    unsigned state = 12345;
    MPI_Aint at = 0;
    for (int i = 0; i < HINDEXED_BLOCKS; i++) {
        state = state * 1103515245u + 12345u;
        hindexed_lengths[i] = 1 + (int)(state >> 16) % 4;
        hindexed_places[i] = at;
        at += 8 * (hindexed_lengths[i] + 1 + (int)(state >> 20) % 3);
        hindexed_size += 8 * hindexed_lengths[i];
    }
}

enum kind { VECTOR, INDEXED, STRUCT, SUBARRAY, HINDEXED, KINDS };
static const char *kind_names[KINDS] = {"vector_1000", "indexed_16", "struct_3",
                                        "subarray_3d", "hindexed_100000"};

/* Builds (uncommitted) a type of the kind, and the size it must have. */
static MPI_Datatype make(enum kind kind, long *size) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    switch (kind) {
    case VECTOR:
        MPI_Type_vector(VECTOR_COUNT, 1, 2, MPI_DOUBLE, &t);
        *size = 8L * VECTOR_COUNT;
        break;
    case INDEXED: {
        MPI_Type_indexed(INDEXED_BLOCKS, indexed_lengths, indexed_places, MPI_DOUBLE, &t);
        long s = 0;
        for (int i = 0; i < INDEXED_BLOCKS; i++)
            s += 8L * indexed_lengths[i];
        *size = s;
        break;
    }
    case STRUCT: { /* struct { int; double; char[3]; } */
        int lengths[3] = {1, 1, 3};
        MPI_Aint places[3] = {0, 8, 16};
        MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
        MPI_Type_create_struct(3, lengths, places, types, &t);
        *size = 4 + 8 + 3;
        break;
    }
    case SUBARRAY: { /* a 6x64x64 tile of a 40x128x128 grid of floats (WRF) */
        int sizes[3] = {40, 128, 128}, subsizes[3] = {6, 64, 64}, starts[3] = {2, 32, 32};
        MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_FLOAT, &t);
        *size = 4L * 6 * 64 * 64;
        break;
    }
    case HINDEXED:
        MPI_Type_create_hindexed(HINDEXED_BLOCKS, hindexed_lengths, hindexed_places, MPI_DOUBLE,
                                 &t);
        *size = hindexed_size;
        break;
    default:
        fail("kind");
    }
    return t;
}

static enum kind building;

static void build_commit_free(long n) {
    for (long i = 0; i < n; i++) {
        long size;
        MPI_Datatype t = make(building, &size);
        MPI_Type_commit(&t);
        MPI_Type_free(&t);
    }
}

static void check_type(MPI_Datatype t, long size, const char *what) {
    int s;
    MPI_Aint lb, extent;
    MPI_Type_size(t, &s);
    MPI_Type_get_extent(t, &lb, &extent);
    if (s != size || extent < size)
        fail(what);
}

static void bench_builds(const char *prefix) {
    char name[96];
    for (int k = 0; k < KINDS; k++) {
        long size;
        MPI_Datatype t = make((enum kind)k, &size);
        MPI_Type_commit(&t);
        check_type(t, size, kind_names[k]);
        MPI_Type_free(&t);
        building = (enum kind)k;
        snprintf(name, sizeof name, "%s/%s", prefix, kind_names[k]);
        report(name, per_call(build_commit_free), 1e6, "us");
    }
}

/* ---- calls on existing types ---------------------------------------------------------- */

static MPI_Datatype queried;   /* the type the query loops ask about */
static MPI_Datatype packed;    /* the type the pack loop packs */
static int packed_count;
static double source[2 * VECTOR_COUNT];
static char packed_bytes[16 * VECTOR_COUNT];

static void size_loop(long n) {
    long total = 0;
    for (long i = 0; i < n; i++) {
        int s;
        MPI_Type_size(queried, &s);
        total += s;
    }
    sink = total;
}

static void extent_loop(long n) {
    long total = 0;
    for (long i = 0; i < n; i++) {
        MPI_Aint lb, extent;
        MPI_Type_get_extent(queried, &lb, &extent);
        total += extent;
    }
    sink = total;
}

static void pack_loop(long n) {
    long total = 0;
    for (long i = 0; i < n; i++) {
        int position = 0;
        MPI_Pack(source, packed_count, packed, packed_bytes, (int)sizeof packed_bytes, &position,
                 MPI_COMM_SELF);
        total += position;
    }
    sink = total;
}

/* Checks, then times, MPI_Type_size, MPI_Type_get_extent and MPI_Pack of `count` copies of
 * `t` (which has `size` bytes of data at every other double, or is contiguous). */
static void bench_calls(const char *label, MPI_Datatype t, int count, int strided) {
    char name[96];
    int s;
    MPI_Aint lb, extent;
    MPI_Type_size(t, &s);
    MPI_Type_get_extent(t, &lb, &extent);
    int position = 0;
    MPI_Pack(source, count, t, packed_bytes, (int)sizeof packed_bytes, &position, MPI_COMM_SELF);
    if (position != count * s)
        fail(label);
    for (int i = 0; i < position / 8; i++) {
        double expected = source[strided ? 2 * i : i], got;
        memcpy(&got, packed_bytes + 8 * i, 8);
        if (got != expected)
            fail(label);
    }
    queried = t;
    packed = t;
    packed_count = count;
    snprintf(name, sizeof name, "call/size/%s", label);
    report(name, per_call(size_loop), 1e9, "ns");
    snprintf(name, sizeof name, "call/extent/%s", label);
    report(name, per_call(extent_loop), 1e9, "ns");
    snprintf(name, sizeof name, "call/pack/%s", label);
    report(name, per_call(pack_loop), 1e9, "ns");
}

#ifndef BENCH_STANDALONE
typedef int (*vector_fn)(int, int, int, MPI_Datatype, MPI_Datatype *);

/* A vector made by MPICH itself (its PMPI_Type_vector, which the preload does not replace). */
static MPI_Datatype mpich_vector(void) {
    void *mpich = dlopen("libmpich.so.12", RTLD_NOW | RTLD_NOLOAD);
    if (!mpich)
        fail("libmpich.so.12 is not loaded");
    vector_fn vector;
    *(void **)&vector = dlsym(mpich, "PMPI_Type_vector");
    if (!vector)
        fail("libmpich.so.12 has no PMPI_Type_vector");
    MPI_Datatype t;
    if (vector(VECTOR_COUNT, 1, 2, MPI_DOUBLE, &t) != MPI_SUCCESS)
        fail("PMPI_Type_vector of MPICH");
    dlclose(mpich);
    MPI_Type_commit(&t); /* under the preload: forwarded to MPICH */
    return t;
}

static MPI_Datatype exchanged;
static double target[2 * VECTOR_COUNT];

static void sendrecv_loop(long n) {
    for (long i = 0; i < n; i++)
        MPI_Sendrecv(source, 1, exchanged, 0, 7, target, 1, exchanged, 0, 7, MPI_COMM_SELF,
                     MPI_STATUS_IGNORE);
}

/* A new vector each time, used once in communication: where the message takes MPICH's path,
 * its twin is made for it, and this is where that shows. */
static void build_sendrecv_free(long n) {
    for (long i = 0; i < n; i++) {
        MPI_Datatype t;
        MPI_Type_vector(VECTOR_COUNT, 1, 2, MPI_DOUBLE, &t);
        MPI_Type_commit(&t);
        MPI_Sendrecv(source, 1, t, 0, 7, target, 1, t, 0, 7, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        MPI_Type_free(&t);
    }
}

/* One message to itself as programs send one: MPI_Isend, MPI_Recv, MPI_Wait, of one copy of
 * `exchanged` (under the preload: a predefined type's message is forwarded as it is). */
static void self_message_loop(long n) {
    for (long i = 0; i < n; i++) {
        MPI_Request request;
        MPI_Isend(source, 1, exchanged, 0, 8, MPI_COMM_SELF, &request);
        MPI_Recv(target, 1, exchanged, 0, 8, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
}

static void bench_self_message(const char *label, MPI_Datatype t, int bytes) {
    char name[96];
    memset(target, 0, sizeof target);
    exchanged = t;
    self_message_loop(1);
    if (memcmp(target, source, (size_t)bytes) != 0)
        fail(label);
    snprintf(name, sizeof name, "comm/self-message/%s", label);
    report(name, per_call(self_message_loop), 1e9, "ns");
}

static void bench_sendrecv(const char *label, MPI_Datatype t) {
    char name[96];
    memset(target, 0, sizeof target);
    MPI_Sendrecv(source, 1, t, 0, 7, target, 1, t, 0, 7, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    for (int i = 0; i < 2 * VECTOR_COUNT; i++)
        if (target[i] != (i % 2 ? 0.0 : source[i]))
            fail(label);
    exchanged = t;
    snprintf(name, sizeof name, "comm/sendrecv/%s", label);
    report(name, per_call(sendrecv_loop), 1e6, "us");
}
#endif

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--trials") && i + 1 < argc)
            trials = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--min-ms") && i + 1 < argc)
            min_time = atof(argv[++i]) / 1e3;
        else {
            fprintf(stderr, "usage: %s [--trials N] [--min-ms M]\n", argv[0]);
            return 2;
        }
    }
    if (trials < 1)
        trials = 1;
    prepare_arguments();
    for (int i = 0; i < 2 * VECTOR_COUNT; i++)
        source[i] = 1.0 + i;

    MPI_Init(&argc, &argv);

    MPI_Datatype vector;
    MPI_Type_vector(VECTOR_COUNT, 1, 2, MPI_DOUBLE, &vector);
    MPI_Type_commit(&vector);

    bench_calls("MPI_DOUBLE", MPI_DOUBLE, 4, 0);
#ifndef BENCH_STANDALONE
    MPI_Datatype theirs = mpich_vector();
    bench_calls("mpich_vector", theirs, 1, 1);
#endif
    bench_calls("own_vector", vector, 1, 1);

    bench_builds("build");

#ifndef BENCH_STANDALONE
    bench_sendrecv("own_vector", vector);
    bench_sendrecv("mpich_vector", theirs);
    MPI_Datatype run;
    MPI_Type_contiguous(512, MPI_DOUBLE, &run);
    MPI_Type_commit(&run);
    bench_self_message("MPI_DOUBLE", MPI_DOUBLE, (int)sizeof(double));
    bench_self_message("contiguous_512", run, 512 * (int)sizeof(double));
    MPI_Type_free(&run);
    report("comm/build-sendrecv-free/vector_1000", per_call(build_sendrecv_free), 1e6, "us");
    MPI_Type_free(&theirs); /* under the preload: forwarded to MPICH */
#endif
    MPI_Type_free(&vector);
    MPI_Finalize();
    return 0;
}
