/*
 * The benchmark of record for packing: the access patterns of real applications, packed and
 * unpacked through MPI_Pack / MPI_Unpack of whichever MPI this file is built against
 * (mpi-dtype, MPICH or Open MPI), and sent by the one process to itself (MPI_Sendrecv on
 * MPI_COMM_SELF), next to a hand-written loop for the same layout and a memcpy of the packed
 * bytes. Every pattern is checked against the hand loop before it is
 * timed. Prints one line per measurement:
 *
 *     <pattern> <operation> <implementation> <value> <unit>
 *
 * where operation is pack, unpack, sendrecv (the message to itself), call (ns per call) or build (construct + commit, ms, with
 * the heap memory it added in MiB as a second line). Times are the CPU time of the calling
 * thread (CLOCK_THREAD_CPUTIME_ID), so time spent waiting for a core while other programs run
 * is not counted; only the thread-scaling rows, which measure two threads together, use the
 * wall clock. benches/run.py runs the builds interleaved and prints the table of ratios.
 *
 * Usage: pack_bench <library name> [trials] [groups]
 *
 * where groups is a comma-separated list of the names `pack_bench <library> 1 list` prints
 * (a pattern's name, or calls, build, threads); all of them when absent.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <malloc.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *library = "mpi";
static int trials = 7;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds of the calling thread: what a measurement costs, without the time the thread
 * waited for a core. */
static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the `n` samples (sorted in place). */
static double median_of(double *samples, int n) {
    qsort(samples, (size_t)n, sizeof samples[0], compare_doubles);
    return samples[n / 2];
}

/* One operation to time: `run(ctx)` moves `bytes` bytes. */
typedef void (*operation)(void *ctx);

/* Median over `trials` of the CPU seconds per call, each trial repeating the call in growing
 * batches until it has run at least 20 ms. */
static double seconds_per_call(operation run, void *ctx) {
    double samples[64];
    int n = trials < 64 ? trials : 64;
    run(ctx); /* warm the caches and the library's plan */
    for (int t = 0; t < n; t++) {
        long reps = 0, batch = 1;
        double start = cpu_now(), elapsed;
        do { /* the clock is read once per batch, so it costs nothing per call */
            for (long i = 0; i < batch; i++)
                run(ctx);
            reps += batch;
            if (batch < (1L << 16))
                batch *= 2;
            elapsed = cpu_now() - start;
        } while (elapsed < 0.02);
        samples[t] = elapsed / (double)reps;
    }
    return median_of(samples, n);
}

static void report(const char *pattern, const char *op, const char *impl, double value,
                   const char *unit) {
    printf("%s %s %s %.4f %s\n", pattern, op, impl, value, unit);
    fflush(stdout);
}

static void check(int ok, const char *pattern, const char *what) {
    if (!ok) {
        fprintf(stderr, "%s: %s: %s differs from the hand-written loop\n", library, pattern, what);
        exit(1);
    }
}

/* ---- a pattern: a datatype, a source buffer and a hand-written pack / unpack ---------- */

typedef struct pattern {
    const char *name;
    MPI_Datatype type;
    int count;           /* copies of `type` per pack */
    char *memory;        /* the user buffer the type map addresses (origin) */
    size_t memory_bytes;
    size_t packed_bytes;
    char *packed;        /* MPI_Pack output */
    char *expected;      /* hand loop output */
    char *scratch;       /* unpack target */
    void (*hand_pack)(const struct pattern *, char *out);
    void (*hand_unpack)(const struct pattern *, const char *in, char *mem);
    const long *index;   /* gather indices, for the patterns that have them */
    long n;              /* pattern size parameter */
    long m;              /* second parameter */
} pattern;

static void op_pack(void *ctx) {
    pattern *p = ctx;
    int position = 0;
    MPI_Pack(p->memory, p->count, p->type, p->packed, (int)p->packed_bytes, &position,
             MPI_COMM_WORLD);
}

static void op_unpack(void *ctx) {
    pattern *p = ctx;
    int position = 0;
    MPI_Unpack(p->packed, (int)p->packed_bytes, &position, p->scratch, p->count, p->type,
               MPI_COMM_WORLD);
}

static void op_hand_pack(void *ctx) {
    pattern *p = ctx;
    p->hand_pack(p, p->expected);
}

static void op_hand_unpack(void *ctx) {
    pattern *p = ctx;
    p->hand_unpack(p, p->expected, p->scratch);
}

/* A message of the pattern to this process and back into the scratch buffer: the one-process
 * world's self-message (one pack and one unpack), MPICH's and Open MPI's on one process. */
static void op_self_sendrecv(void *ctx) {
    pattern *p = ctx;
    MPI_Sendrecv(p->memory, p->count, p->type, 0, 0, p->scratch, p->count, p->type, 0, 0,
                 MPI_COMM_SELF, MPI_STATUS_IGNORE);
}

/* The same move written by hand: the hand loops through a buffer. */
static void op_hand_sendrecv(void *ctx) {
    pattern *p = ctx;
    p->hand_pack(p, p->expected);
    p->hand_unpack(p, p->expected, p->scratch);
}

static void op_memcpy(void *ctx) {
    pattern *p = ctx;
    memcpy(p->packed, p->expected, p->packed_bytes);
}

static void fill(char *buffer, size_t bytes, unsigned seed) {
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < bytes; i++) {
        x = x * 1664525u + 1013904223u;
        buffer[i] = (char)(x >> 24);
    }
}

static char *allocate(size_t bytes) {
    char *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* Checks the pattern, then times pack, unpack and a message to this process through MPI, the
 * hand loops and memcpy. */
static void measure(pattern *p) {
    int size;
    MPI_Type_commit(&p->type);
    MPI_Pack_size(p->count, p->type, MPI_COMM_WORLD, &size);
    check((size_t)size == p->packed_bytes, p->name, "the packed size");
    p->packed = allocate(p->packed_bytes);
    p->expected = allocate(p->packed_bytes);
    p->scratch = allocate(p->memory_bytes);
    fill(p->memory, p->memory_bytes, 7);

    op_pack(p);
    p->hand_pack(p, p->expected);
    check(memcmp(p->packed, p->expected, p->packed_bytes) == 0, p->name, "MPI_Pack");
    memcpy(p->scratch, p->memory, p->memory_bytes);
    fill(p->packed, p->packed_bytes, 11);
    op_unpack(p);
    p->hand_unpack(p, p->packed, p->memory);
    check(memcmp(p->scratch, p->memory, p->memory_bytes) == 0, p->name, "MPI_Unpack");

    /* The self-message lands where the hand loops put the data, and nowhere else. */
    char *want = allocate(p->memory_bytes);
    fill(p->memory, p->memory_bytes, 17);
    fill(p->scratch, p->memory_bytes, 19);
    memcpy(want, p->scratch, p->memory_bytes);
    p->hand_pack(p, p->expected);
    p->hand_unpack(p, p->expected, want);
    op_self_sendrecv(p);
    check(memcmp(p->scratch, want, p->memory_bytes) == 0, p->name, "MPI_Sendrecv to itself");
    free(want);
    double gb = (double)p->packed_bytes / 1e9;
    report(p->name, "pack", library, gb / seconds_per_call(op_pack, p), "GB/s");
    report(p->name, "unpack", library, gb / seconds_per_call(op_unpack, p), "GB/s");
    report(p->name, "sendrecv", library, gb / seconds_per_call(op_self_sendrecv, p), "GB/s");
    if (strcmp(library, "mpi-dtype") == 0) {
        report(p->name, "pack", "hand", gb / seconds_per_call(op_hand_pack, p), "GB/s");
        report(p->name, "unpack", "hand", gb / seconds_per_call(op_hand_unpack, p), "GB/s");
        report(p->name, "sendrecv", "hand", gb / seconds_per_call(op_hand_sendrecv, p), "GB/s");
        double m = gb / seconds_per_call(op_memcpy, p);
        report(p->name, "pack", "memcpy", m, "GB/s");
        report(p->name, "unpack", "memcpy", m, "GB/s");
        report(p->name, "sendrecv", "memcpy", m, "GB/s");
    }
    MPI_Type_free(&p->type);
    free(p->packed);
    free(p->expected);
    free(p->scratch);
}

/* ---- hand-written loops --------------------------------------------------------------- */

/* n blocks of `m` doubles, block k at memory offset k * stride doubles (vector family). */
static void strided_pack(const pattern *p, char *out) {
    const double *mem = (const double *)p->memory;
    double *o = (double *)out;
    long stride = (long)(p->memory_bytes / sizeof(double)) / p->n;
    for (long k = 0; k < p->n; k++)
        for (long j = 0; j < p->m; j++)
            *o++ = mem[k * stride + j];
}
static void strided_unpack(const pattern *p, const char *in, char *memory) {
    double *mem = (double *)memory;
    const double *i = (const double *)in;
    long stride = (long)(p->memory_bytes / sizeof(double)) / p->n;
    for (long k = 0; k < p->n; k++)
        for (long j = 0; j < p->m; j++)
            mem[k * stride + j] = *i++;
}

/* Gathers of m doubles at index[k] * m doubles. */
static void gather_pack(const pattern *p, char *out) {
    const double *mem = (const double *)p->memory;
    double *o = (double *)out;
    for (long k = 0; k < p->n; k++)
        for (long j = 0; j < p->m; j++)
            *o++ = mem[p->index[k] * p->m + j];
}
static void gather_unpack(const pattern *p, const char *in, char *memory) {
    double *mem = (double *)memory;
    const double *i = (const double *)in;
    for (long k = 0; k < p->n; k++)
        for (long j = 0; j < p->m; j++)
            mem[p->index[k] * p->m + j] = *i++;
}

/* A 3-D grid of doubles, dims[0] slowest; the box [lo, lo + len) in each dimension. */
typedef struct box {
    long dims[3], lo[3], len[3];
    size_t elem;
} box;
static box grid_box;

static void box_pack(const pattern *p, char *out) {
    const box *b = &grid_box;
    size_t e = b->elem, row = (size_t)b->len[2] * e;
    for (long i = 0; i < b->len[0]; i++)
        for (long j = 0; j < b->len[1]; j++) {
            size_t at = (((size_t)(b->lo[0] + i) * (size_t)b->dims[1] + (size_t)(b->lo[1] + j)) *
                             (size_t)b->dims[2] + (size_t)b->lo[2]) * e;
            if (row == 8)
                memcpy(out, p->memory + at, 8);
            else
                memcpy(out, p->memory + at, row);
            out += row;
        }
}
static void box_unpack(const pattern *p, const char *in, char *memory) {
    const box *b = &grid_box;
    size_t e = b->elem, row = (size_t)b->len[2] * e;
    (void)p;
    for (long i = 0; i < b->len[0]; i++)
        for (long j = 0; j < b->len[1]; j++) {
            size_t at = (((size_t)(b->lo[0] + i) * (size_t)b->dims[1] + (size_t)(b->lo[1] + j)) *
                             (size_t)b->dims[2] + (size_t)b->lo[2]) * e;
            if (row == 8)
                memcpy(memory + at, in, 8);
            else
                memcpy(memory + at, in, row);
            in += row;
        }
}

/* Transpose: column j of an n x n matrix of 16-byte complex values, for every j. */
static void transpose_pack(const pattern *p, char *out) {
    long n = p->n;
    for (long j = 0; j < n; j++)
        for (long i = 0; i < n; i++) {
            memcpy(out, p->memory + (size_t)(i * n + j) * 16, 16);
            out += 16;
        }
}
static void transpose_unpack(const pattern *p, const char *in, char *memory) {
    long n = p->n;
    for (long j = 0; j < n; j++)
        for (long i = 0; i < n; i++) {
            memcpy(memory + (size_t)(i * n + j) * 16, in, 16);
            in += 16;
        }
}

/* Array of struct {int a; double b; char c[3];}: 4 + 8 + 3 bytes of each 24. */
typedef struct particle {
    int a;
    double b;
    char c[3];
} particle;
static void particles_pack(const pattern *p, char *out) {
    const particle *s = (const particle *)p->memory;
    for (long k = 0; k < p->n; k++) {
        memcpy(out, &s[k].a, 4);
        memcpy(out + 4, &s[k].b, 8);
        memcpy(out + 12, s[k].c, 3);
        out += 15;
    }
}
static void particles_unpack(const pattern *p, const char *in, char *memory) {
    particle *s = (particle *)memory;
    for (long k = 0; k < p->n; k++) {
        memcpy(&s[k].a, in, 4);
        memcpy(&s[k].b, in + 4, 8);
        memcpy(s[k].c, in + 12, 3);
        in += 15;
    }
}

/* Runs (offset, length) in bytes, listed in index[2k], index[2k+1]. */
static void runs_pack(const pattern *p, char *out) {
    for (long k = 0; k < p->n; k++) {
        memcpy(out, p->memory + p->index[2 * k], (size_t)p->index[2 * k + 1]);
        out += p->index[2 * k + 1];
    }
}
static void runs_unpack(const pattern *p, const char *in, char *memory) {
    for (long k = 0; k < p->n; k++) {
        memcpy(memory + p->index[2 * k], in, (size_t)p->index[2 * k + 1]);
        in += p->index[2 * k + 1];
    }
}

/* ---- the patterns ---------------------------------------------------------------------- */

static pattern make(const char *name, MPI_Datatype type, int count, size_t memory_bytes,
                    size_t packed_bytes) {
    pattern p;
    memset(&p, 0, sizeof p);
    p.name = name;
    p.type = type;
    p.count = count;
    p.memory_bytes = memory_bytes;
    p.memory = allocate(memory_bytes);
    p.packed_bytes = packed_bytes;
    return p;
}

/* `n` blocks of `m` doubles every `stride` doubles, as a vector of doubles (or of a
 * contiguous type of m doubles when `nested`). */
static void bench_strided(const char *name, long n, long m, long stride, int nested) {
    MPI_Datatype t, inner;
    if (nested) {
        MPI_Type_contiguous((int)m, MPI_DOUBLE, &inner);
        MPI_Type_vector((int)n, 1, (int)(stride / m), inner, &t);
        MPI_Type_free(&inner);
    } else {
        MPI_Type_vector((int)n, (int)m, (int)stride, MPI_DOUBLE, &t);
    }
    pattern p = make(name, t, 1, (size_t)(n * stride) * 8, (size_t)(n * m) * 8);
    p.n = n;
    p.m = m;
    p.hand_pack = strided_pack;
    p.hand_unpack = strided_unpack;
    measure(&p);
    free(p.memory);
}

static void bench_box(const char *name, const long dims[3], const long lo[3], const long len[3],
                      MPI_Datatype element, size_t elem) {
    int sizes[3], subsizes[3], starts[3];
    for (int d = 0; d < 3; d++) {
        sizes[d] = (int)dims[d];
        subsizes[d] = (int)len[d];
        starts[d] = (int)lo[d];
        grid_box.dims[d] = dims[d];
        grid_box.lo[d] = lo[d];
        grid_box.len[d] = len[d];
    }
    grid_box.elem = elem;
    MPI_Datatype t;
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, element, &t);
    pattern p = make(name, t, 1, (size_t)(dims[0] * dims[1] * dims[2]) * elem,
                     (size_t)(len[0] * len[1] * len[2]) * elem);
    p.hand_pack = box_pack;
    p.hand_unpack = box_unpack;
    measure(&p);
    free(p.memory);
}

static void bench_transpose(long n) {
    MPI_Datatype column, resized, t;
    MPI_Type_vector((int)n, 2, (int)(2 * n), MPI_DOUBLE, &column);
    MPI_Type_create_resized(column, 0, 16, &resized);
    MPI_Type_contiguous((int)n, resized, &t);
    MPI_Type_free(&column);
    MPI_Type_free(&resized);
    pattern p = make("fft_transpose", t, 1, (size_t)(n * n) * 16, (size_t)(n * n) * 16);
    p.n = n;
    p.hand_pack = transpose_pack;
    p.hand_unpack = transpose_unpack;
    measure(&p);
    free(p.memory);
}

static long *random_indices(long n, long range, unsigned seed) {
    long *index = malloc((size_t)n * sizeof *index);
    uint64_t x = seed;
    for (long k = 0; k < n; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        index[k] = (long)((x >> 33) % (uint64_t)range);
    }
    return index;
}

static void bench_gather(const char *name, long n, long m, long range) {
    long *index = random_indices(n, range, 3);
    int *displs = malloc((size_t)n * sizeof *displs);
    for (long k = 0; k < n; k++)
        displs[k] = (int)index[k];
    MPI_Datatype block, t;
    MPI_Type_contiguous((int)m, MPI_DOUBLE, &block);
    MPI_Type_create_indexed_block((int)n, 1, displs, block, &t);
    MPI_Type_free(&block);
    pattern p = make(name, t, 1, (size_t)(range * m) * 8, (size_t)(n * m) * 8);
    p.n = n;
    p.m = m;
    p.index = index;
    p.hand_pack = gather_pack;
    p.hand_unpack = gather_unpack;
    measure(&p);
    free(p.memory);
    free(index);
    free(displs);
}

static MPI_Datatype particle_type(void) {
    int lengths[3] = {1, 1, 3};
    MPI_Aint displs[3] = {offsetof(particle, a), offsetof(particle, b), offsetof(particle, c)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t, resized;
    MPI_Type_create_struct(3, lengths, displs, types, &t);
    MPI_Type_create_resized(t, 0, sizeof(particle), &resized);
    MPI_Type_free(&t);
    return resized;
}

static void bench_particles(long n) {
    pattern p = make("array_of_structs", particle_type(), (int)n, (size_t)n * sizeof(particle),
                     (size_t)n * 15);
    p.n = n;
    p.hand_pack = particles_pack;
    p.hand_unpack = particles_unpack;
    measure(&p);
    free(p.memory);
}

/* An indexed type of `n` blocks of 1 to 64 doubles (pseudo-random lengths), each followed by a
 * gap of 1 to 64 doubles: the runs of an irregular selection. */
static void bench_indexed_runs(long n) {
    int *lengths = malloc((size_t)n * sizeof *lengths), *displs = malloc((size_t)n * sizeof *displs);
    long *runs = malloc((size_t)n * 2 * sizeof *runs);
    long at = 0, packed = 0;
    uint64_t x = 12345;
    for (long k = 0; k < n; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        lengths[k] = 1 + (int)((x >> 33) % 64);
        displs[k] = (int)at;
        runs[2 * k] = at * 8;
        runs[2 * k + 1] = lengths[k] * 8;
        packed += lengths[k];
        at += lengths[k] + 1 + (long)((x >> 17) % 64);
    }
    MPI_Datatype t;
    MPI_Type_indexed((int)n, lengths, displs, MPI_DOUBLE, &t);
    pattern p = make("indexed_runs_1_to_64", t, 1, (size_t)at * 8, (size_t)packed * 8);
    p.n = n;
    p.index = runs;
    p.hand_pack = runs_pack;
    p.hand_unpack = runs_unpack;
    measure(&p);
    free(p.memory);
    free(runs);
    free(lengths);
    free(displs);
}

/* HDF5's irregular hyperslab: a struct of `rows` hvectors of a 3-block hindexed of doubles
 * (blocks of 2, 1 and 3 doubles at 0, 40 and 80 bytes; a row repeats it 1 to 4 times every
 * 160 bytes; rows are 1024 bytes apart). */
static void bench_hdf5_irregular(long rows) {
    int lengths[3] = {2, 1, 3};
    MPI_Aint offsets[3] = {0, 40, 80};
    MPI_Datatype spans, *row_types = malloc((size_t)rows * sizeof *row_types);
    int *ones = malloc((size_t)rows * sizeof *ones);
    MPI_Aint *row_displs = malloc((size_t)rows * sizeof *row_displs);
    long *runs = malloc((size_t)rows * 4 * 3 * 2 * sizeof *runs), nruns = 0;
    size_t packed = 0;
    MPI_Type_create_hindexed(3, lengths, offsets, MPI_DOUBLE, &spans);
    for (long r = 0; r < rows; r++) {
        int repeats = 1 + (int)(r * 7 % 4);
        MPI_Type_create_hvector(repeats, 1, 160, spans, &row_types[r]);
        ones[r] = 1;
        row_displs[r] = (MPI_Aint)r * 1024;
        for (int k = 0; k < repeats; k++)
            for (int b = 0; b < 3; b++) {
                runs[2 * nruns] = (long)(r * 1024 + k * 160 + offsets[b]);
                runs[2 * nruns + 1] = lengths[b] * 8;
                nruns++;
                packed += (size_t)lengths[b] * 8;
            }
    }
    MPI_Datatype t;
    MPI_Type_create_struct((int)rows, ones, row_displs, row_types, &t);
    for (long r = 0; r < rows; r++)
        MPI_Type_free(&row_types[r]);
    MPI_Type_free(&spans);
    pattern p = make("hdf5_irregular", t, 1, (size_t)rows * 1024, packed);
    p.n = nruns;
    p.index = runs;
    p.hand_pack = runs_pack;
    p.hand_unpack = runs_unpack;
    measure(&p);
    free(p.memory);
    free(runs);
    free(row_types);
    free(ones);
    free(row_displs);
}

/* ---- per-call latency and construction cost ------------------------------------------- */

typedef struct small_call {
    MPI_Datatype type;
    struct {
        int a;
        double b;
    } value;
    char out[16];
} small_call;

static void op_small_pack(void *ctx) {
    small_call *c = ctx;
    int position = 0;
    MPI_Pack(&c->value, 1, c->type, c->out, sizeof c->out, &position, MPI_COMM_WORLD);
}

static void bench_small_call(void) {
    small_call c;
    int lengths[2] = {1, 1};
    MPI_Aint displs[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, lengths, displs, types, &c.type);
    MPI_Type_commit(&c.type);
    c.value.a = 1;
    c.value.b = 2.0;
    report("small_struct", "call", library, 1e9 * seconds_per_call(op_small_pack, &c), "ns");
    MPI_Type_free(&c.type);
}

/* Queries HDF5, ROMIO and mpi4py make on every operation: ns per call. */
typedef struct query_call {
    MPI_Datatype type;
    MPI_Aint lb, extent;
    int size;
} query_call;

static void op_type_size(void *ctx) {
    query_call *c = ctx;
    MPI_Type_size(c->type, &c->size);
}

static void op_get_extent(void *ctx) {
    query_call *c = ctx;
    MPI_Type_get_extent(c->type, &c->lb, &c->extent);
}

/* The same queries called directly in a loop, the way a library calls them inline (no
 * function pointer between the loop and the call): ns per call, the median of the trials. */
static double seconds_per_direct_query(MPI_Datatype type, int extent) {
    double samples[64];
    int n = trials < 64 ? trials : 64;
    const long reps = 1L << 24;
    int size = 0;
    MPI_Aint lb = 0, ext = 0;
    for (int t = 0; t < n; t++) {
        double start = cpu_now();
        if (extent) {
            for (long i = 0; i < reps; i++) {
                MPI_Type_get_extent(type, &lb, &ext);
                __asm__ volatile("" : : "r"(&ext) : "memory");
            }
        } else {
            for (long i = 0; i < reps; i++) {
                MPI_Type_size(type, &size);
                __asm__ volatile("" : : "r"(&size) : "memory");
            }
        }
        samples[t] = (cpu_now() - start) / (double)reps;
    }
    return median_of(samples, n);
}

static void bench_queries(void) {
    query_call c = {MPI_DOUBLE, 0, 0, 0};
    report("query_size_double", "call", library, 1e9 * seconds_per_call(op_type_size, &c), "ns");
    report("query_extent_double", "call", library, 1e9 * seconds_per_call(op_get_extent, &c),
           "ns");
    MPI_Type_vector(16, 2, 4, MPI_DOUBLE, &c.type);
    MPI_Type_commit(&c.type);
    report("query_extent_vector", "call", library, 1e9 * seconds_per_call(op_get_extent, &c),
           "ns");
    check(c.extent == (15 * 4 + 2) * 8 && c.lb == 0, "query_extent_vector", "extent");
    report("query_size_double_direct", "call", library,
           1e9 * seconds_per_direct_query(MPI_DOUBLE, 0), "ns");
    report("query_extent_double_direct", "call", library,
           1e9 * seconds_per_direct_query(MPI_DOUBLE, 1), "ns");
    report("query_extent_vector_direct", "call", library,
           1e9 * seconds_per_direct_query(c.type, 1), "ns");
    MPI_Type_free(&c.type);
}

/* Build, commit, pack once and free a small vector, as HDF5 does for every I/O call. */
typedef struct build_loop {
    double memory[64];
    char out[512];
} build_loop;

static void op_build_pack_free(void *ctx) {
    build_loop *c = ctx;
    MPI_Datatype t;
    int position = 0;
    MPI_Type_vector(8, 2, 4, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    MPI_Pack(c->memory, 1, t, c->out, sizeof c->out, &position, MPI_COMM_WORLD);
    MPI_Type_free(&t);
}

static void bench_build_loop(void) {
    build_loop c;
    for (int k = 0; k < 64; k++)
        c.memory[k] = k;
    report("build_pack_free_vector", "call", library,
           1e9 * seconds_per_call(op_build_pack_free, &c), "ns");
    const double *packed = (const double *)c.out;
    int ok = 1;
    for (int k = 0; k < 16; k++)
        ok &= packed[k] == (double)(k / 2 * 4 + k % 2);
    check(ok, "build_pack_free_vector", "packed bytes");
}

/* Bytes the C heap has handed out (all three libraries allocate through glibc's malloc). */
static double heap_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return (double)info.uordblks + (double)info.hblkhd;
}

/* Builds and commits an hindexed of n blocks of 1 to 4 doubles; reports the time and the
 * memory the type holds beyond its argument arrays' own. */
static void bench_build_hindexed(long n) {
    int *lengths = malloc((size_t)n * sizeof *lengths);
    MPI_Aint *displs = malloc((size_t)n * sizeof *displs);
    MPI_Aint at = 0;
    for (long k = 0; k < n; k++) {
        lengths[k] = 1 + (int)(k * 7 % 4);
        displs[k] = at;
        at += (lengths[k] + 1 + k % 3) * 8;
    }
    double samples[16];
    int n_trials = trials < 16 ? trials : 16;
    double megabytes = 0;
    for (int t = 0; t < n_trials; t++) {
        MPI_Datatype type;
        double before = heap_bytes();
        double start = cpu_now();
        MPI_Type_create_hindexed((int)n, lengths, displs, MPI_DOUBLE, &type);
        MPI_Type_commit(&type);
        samples[t] = cpu_now() - start;
        if (t == 0)
            megabytes = (heap_bytes() - before) / 1048576.0;
        MPI_Type_free(&type);
    }
    double median = median_of(samples, n_trials);
    char name[64];
    snprintf(name, sizeof name, "hindexed_%ld", n);
    report(name, "build", library, 1e3 * median, "ms");
    report(name, "memory", library, megabytes, "MiB");
    report(name, "memory", "arguments", (double)n * (sizeof(int) + sizeof(MPI_Aint)) / 1048576.0,
           "MiB");
    free(lengths);
    free(displs);
}

/* The heap bytes a committed vector of 10^9 blocks of one double holds. */
static void bench_huge_vector(void) {
    MPI_Datatype t;
    double before = heap_bytes();
    MPI_Type_vector(1000000000, 1, 2, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    report("vector_1e9_blocks", "memory", library, heap_bytes() - before, "bytes");
    MPI_Type_free(&t);
}

typedef struct thread_job {
    pattern *p;
    double seconds;
} thread_job;

static void *pack_in_thread(void *arg) {
    thread_job *job = arg;
    pattern *p = job->p;
    char *out = allocate(p->packed_bytes);
    double start = now();
    for (int r = 0; r < 20; r++) {
        int position = 0;
        MPI_Pack(p->memory, p->count, p->type, out, (int)p->packed_bytes, &position,
                 MPI_COMM_WORLD);
    }
    job->seconds = now() - start;
    free(out);
    return NULL;
}

/* Aggregate pack bandwidth of 1 and 2 threads packing with one committed type (every other
 * double of 8 MiB, each thread with its own buffers). */
static void bench_threads(void) {
    long n = 1L << 20;
    for (int threads = 1; threads <= 2; threads++) {
        pattern p[2];
        thread_job jobs[2];
        pthread_t ids[2];
        MPI_Datatype t;
        MPI_Type_vector((int)n, 1, 2, MPI_DOUBLE, &t);
        MPI_Type_commit(&t);
        for (int k = 0; k < threads; k++) {
            p[k] = make("threads", t, 1, (size_t)n * 16, (size_t)n * 8);
            fill(p[k].memory, p[k].memory_bytes, 5);
            jobs[k].p = &p[k];
        }
        double start = now();
        for (int k = 0; k < threads; k++)
            pthread_create(&ids[k], NULL, pack_in_thread, &jobs[k]);
        for (int k = 0; k < threads; k++)
            pthread_join(ids[k], NULL);
        double elapsed = now() - start;
        char name[32];
        snprintf(name, sizeof name, "threads_%d", threads);
        report(name, "pack", library, 20.0 * threads * (double)n * 8 / 1e9 / elapsed, "GB/s");
        for (int k = 0; k < threads; k++)
            free(p[k].memory);
        MPI_Type_free(&t);
    }
}

/* ---- the groups a run can select ------------------------------------------------------ */

static void group_contiguous(void) { bench_strided("contiguous", 1, 1L << 20, 1L << 20, 0); }
static void group_every_other_double(void) { bench_strided("every_other_double", 1L << 20, 1, 2, 0); }
static void group_strided_column(void) { bench_strided("strided_column", 4096, 1, 512, 0); }
static void group_blocks_128_bytes(void) { bench_strided("blocks_128_bytes", 65536, 16, 32, 0); }
static void group_nas_lu(void) { bench_strided("nas_lu_contig_in_vector", 131072, 5, 15, 1); }
static void group_milc(void) { bench_strided("milc_su3_vectors", 131072, 3, 9, 1); }

static const long grid_dims[3] = {256, 256, 256};
static void group_face_x(void) {
    long lo[3] = {0, 0, 255}, len[3] = {256, 256, 1};
    bench_box("grid256_face_x", grid_dims, lo, len, MPI_DOUBLE, 8);
}
static void group_face_y(void) {
    long lo[3] = {0, 255, 0}, len[3] = {256, 1, 256};
    bench_box("grid256_face_y", grid_dims, lo, len, MPI_DOUBLE, 8);
}
static void group_face_z(void) {
    long lo[3] = {255, 0, 0}, len[3] = {1, 256, 256};
    bench_box("grid256_face_z", grid_dims, lo, len, MPI_DOUBLE, 8);
}
static void group_wrf(void) {
    long dims[3] = {40, 128, 128}, lo[3] = {17, 32, 32}, len[3] = {6, 64, 64};
    bench_box("wrf_tile", dims, lo, len, MPI_FLOAT, 4);
}
static void group_transpose(void) { bench_transpose(1024); }
static void group_gather_1(void) { bench_gather("unstructured_gather_1", 262144, 1, 1L << 20); }
static void group_gather_3(void) { bench_gather("unstructured_gather_3", 262144, 3, 1L << 20); }
static void group_indexed_runs(void) { bench_indexed_runs(32768); }
static void group_particles(void) { bench_particles(1L << 20); }
static void group_hdf5(void) { bench_hdf5_irregular(100000); }
static void group_calls(void) {
    bench_queries();
    bench_small_call();
    bench_build_loop();
}
static void group_build(void) {
    bench_build_hindexed(1000000);
    bench_huge_vector();
}
static int thread_multiple;
static void group_threads(void) {
    if (thread_multiple)
        bench_threads();
}

static const struct group {
    const char *name;
    void (*run)(void);
} groups[] = {
    {"contiguous", group_contiguous},
    {"every_other_double", group_every_other_double},
    {"strided_column", group_strided_column},
    {"blocks_128_bytes", group_blocks_128_bytes},
    {"nas_lu_contig_in_vector", group_nas_lu},
    {"milc_su3_vectors", group_milc},
    {"grid256_face_x", group_face_x},
    {"grid256_face_y", group_face_y},
    {"grid256_face_z", group_face_z},
    {"wrf_tile", group_wrf},
    {"fft_transpose", group_transpose},
    {"unstructured_gather_1", group_gather_1},
    {"unstructured_gather_3", group_gather_3},
    {"indexed_runs_1_to_64", group_indexed_runs},
    {"array_of_structs", group_particles},
    {"hdf5_irregular", group_hdf5},
    {"calls", group_calls},
    {"build", group_build},
    {"threads", group_threads},
};
#define N_GROUPS (sizeof groups / sizeof groups[0])

/* True if `name` is one of the comma-separated names of `list`. */
static int listed(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *at = list; at; at = strchr(at, ',')) {
        if (*at == ',')
            at++;
        if (strncmp(at, name, n) == 0 && (at[n] == ',' || at[n] == '\0'))
            return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    thread_multiple = provided == MPI_THREAD_MULTIPLE;
    if (argc > 1)
        library = argv[1];
    if (argc > 2)
        trials = atoi(argv[2]) > 0 ? atoi(argv[2]) : trials;
    const char *selected = argc > 3 ? argv[3] : NULL;
    if (selected && strcmp(selected, "list") == 0) {
        for (size_t g = 0; g < N_GROUPS; g++)
            printf("%s\n", groups[g].name);
    } else {
        for (size_t g = 0; g < N_GROUPS; g++)
            if (!selected || listed(selected, groups[g].name))
                groups[g].run();
    }
    MPI_Finalize();
    return 0;
}
