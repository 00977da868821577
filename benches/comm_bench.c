/* Derived-type messages between two processes: one program, built with MPICH's mpicc and run
 * with `mpiexec -n 2`, plainly or with libmpi_dtype.so preloaded (and MPI_DTYPE_COMM choosing
 * how the library moves its types). benches/comm.py builds and runs it and prints the table;
 * docs/BENCHMARKS.md has the figures.
 *
 *   comm_bench [--reps N] [--variants typed,packed,manual,shm] [--only NAME,NAME...] [--list]
 *
 * For each pattern, a message of one derived type goes from rank 0 to rank 1, by default in
 * two variants:
 *
 *   typed   rank 0 MPI_Send(buf, count, type), rank 1 MPI_Recv(buf, count, type): the MPI
 *           library (or, preloaded, mpi-dtype's interposition) moves the type itself;
 *   packed  rank 0 MPI_Pack into a buffer and MPI_Send of MPI_PACKED bytes, rank 1 MPI_Recv
 *           of MPI_PACKED bytes and MPI_Unpack: what the engine path does, written by hand.
 *           The pack buffers are allocated and touched once, outside the timing.
 *
 * and on request in two more: manual (the application's own copy loop, run by run, and
 * bytes) and shm (that loop pipelined through shared memory: shm_pipeline.c).
 *
 * One message is timed as a ping with an acknowledgement: after an MPI_Barrier, rank 0 takes
 * MPI_Wtime, sends, and waits for a zero-byte message that rank 1 sends once its receive
 * (and unpack) is complete; rank 0 takes MPI_Wtime again. So the time covers packing,
 * transfer and unpacking, plus one zero-byte latency (a few microseconds, against the
 * milliseconds the messages take). Wall time, not CPU time: waiting for the other process
 * is part of a message.
 *
 * The halo pattern is different: each rank owns a 128^3 block of doubles with a ghost layer
 * (130^3 in memory) and exchanges its six faces with the other rank, as if the other rank
 * were its neighbour in every direction (a periodic ring of two), with six MPI_Irecv, six
 * MPI_Isend and one MPI_Waitall on subarray types; the time of one exchange is the longer
 * of the two ranks' times. It has only the typed variant.
 *
 * Prints one line per pattern and variant:
 *
 *   PATTERN VARIANT BYTES MEDIAN_SECONDS MIN_SECONDS REPS
 *
 * BYTES being the bytes of data in the message (the size of the type's signature times the
 * count; for the halo, what one rank sends), MEDIAN and MIN over REPS timed messages
 * (default 20), after one untimed message whose received data is checked (every byte the
 * type map covers must hold the sender's byte and every other byte of the receive buffer
 * must be left alone) and untimed ones to warm up (warmups() in comm_bench.h). A wrong
 * message, size or count aborts the run with a nonzero status.
 */
#include "comm_bench.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_DATA 1
#define TAG_ACK 2
#define TAG_HALO 10

int rank;
int reps = 20;

void fail(const char *pattern, const char *what) {
    fprintf(stderr, "comm_bench: rank %d, %s: %s\n", rank, pattern, what);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
    exit(3);
}

void *allocate(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        fail("allocate", "out of memory");
    return p;
}

/* ---- contents: the sender's bytes are a function of (seed, offset) --------------------- */

static uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

unsigned char content(uint64_t seed, size_t offset) {
    uint64_t x = mix(seed * 0x100000001b3ull + offset / 8);
    unsigned char b = (unsigned char)(x >> (8 * (offset % 8)));
    return b == SENTINEL ? (unsigned char)~b : b;
}

void fill(unsigned char *buf, size_t bytes, uint64_t seed) {
    for (size_t w = 0; w < bytes / 8 + 1; w++) {
        uint64_t x = mix(seed * 0x100000001b3ull + w);
        for (size_t i = 0; i < 8 && 8 * w + i < bytes; i++) {
            unsigned char b = (unsigned char)(x >> (8 * i));
            buf[8 * w + i] = b == SENTINEL ? (unsigned char)~b : b;
        }
    }
}

/* ---- the patterns ---------------------------------------------------------------------- */

void add_run(pattern *p, size_t offset, size_t length) {
    if (p->nruns == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 1024;
        p->runs = realloc(p->runs, p->cap * sizeof *p->runs);
        if (!p->runs)
            fail(p->name, "out of memory");
    }
    p->runs[p->nruns].offset = offset;
    p->runs[p->nruns].length = length;
    p->nruns++;
}

int *random_indices(int count, int range, uint64_t seed) {
    int *all = allocate((size_t)range * sizeof *all);
    uint64_t x = seed;
    for (int i = 0; i < range; i++)
        all[i] = i;
    for (int i = 0; i < count; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int j = i + (int)((x >> 33) % (uint64_t)(range - i));
        int swap = all[i];
        all[i] = all[j];
        all[j] = swap;
    }
    return all;
}

/* The C struct of pattern 1. */
typedef struct particle {
    int a;
    double b;
    char c[3];
} particle;

#define STRUCTS (1 << 18)
static void make_struct(pattern *p) {
    int lengths[3] = {1, 1, 3};
    MPI_Aint displs[3] = {offsetof(particle, a), offsetof(particle, b), offsetof(particle, c)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t;
    MPI_Type_create_struct(3, lengths, displs, types, &t);
    MPI_Type_create_resized(t, 0, sizeof(particle), &p->type);
    MPI_Type_free(&t);
    p->count = STRUCTS;
    p->span = STRUCTS * sizeof(particle);
    p->bytes = (size_t)STRUCTS * (sizeof(int) + sizeof(double) + 3);
    for (size_t k = 0; k < STRUCTS; k++) {
        size_t at = k * sizeof(particle);
        add_run(p, at + offsetof(particle, a), sizeof(int));
        add_run(p, at + offsetof(particle, b), sizeof(double));
        add_run(p, at + offsetof(particle, c), 3);
    }
}

/* `n` blocks of `m` doubles every `stride` doubles: MPI_Type_vector(n, m, stride, MPI_DOUBLE). */
static void make_vector(pattern *p, int n, int m, int stride) {
    MPI_Type_vector(n, m, stride, MPI_DOUBLE, &p->type);
    p->count = 1;
    p->span = ((size_t)(n - 1) * (size_t)stride + (size_t)m) * sizeof(double);
    p->bytes = (size_t)n * (size_t)m * sizeof(double);
    for (size_t k = 0; k < (size_t)n; k++)
        add_run(p, k * (size_t)stride * sizeof(double), (size_t)m * sizeof(double));
}

/* One double at each of `n` distinct indices of an array of `range` doubles, in a random
 * order (a fixed seed): the first n places of a Fisher-Yates shuffle of 0..range-1. The
 * indices are distinct so that the type may be received into (overlapping entries may not). */
#define GATHER_N (1 << 18)
#define GATHER_RANGE (1 << 20)
static void make_gather(pattern *p) {
    int *all = random_indices(GATHER_N, GATHER_RANGE, 2718281828u);
    MPI_Type_create_indexed_block(GATHER_N, 1, all, MPI_DOUBLE, &p->type);
    p->count = 1;
    p->span = GATHER_RANGE * sizeof(double);
    p->bytes = GATHER_N * sizeof(double);
    for (int k = 0; k < GATHER_N; k++)
        add_run(p, (size_t)all[k] * sizeof(double), sizeof(double));
    free(all);
}

/* A face of a 256^3 grid of doubles in C order (z slowest, x fastest), as a subarray. The
 * x = 0 face is 256 x 256 single doubles 2 KiB apart; the y = 0 face is 256 rows of 256
 * doubles (2 KiB each), 512 KiB apart. */
#define GRID 256
static void make_face(pattern *p, int dim) {
    int sizes[3] = {GRID, GRID, GRID}, subsizes[3] = {GRID, GRID, GRID}, starts[3] = {0, 0, 0};
    subsizes[dim] = 1;
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &p->type);
    p->count = 1;
    p->span = (size_t)GRID * GRID * GRID * sizeof(double);
    p->bytes = (size_t)GRID * GRID * sizeof(double);
    for (size_t z = 0; z < (size_t)subsizes[0]; z++)
        for (size_t y = 0; y < (size_t)subsizes[1]; y++) {
            size_t at = (z * GRID + y) * GRID * sizeof(double);
            add_run(p, at, (size_t)subsizes[2] * sizeof(double));
        }
}

/* ---- one message, timed ----------------------------------------------------------------- */

typedef struct buffers {
    unsigned char *memory; /* rank 0: the sender's data; rank 1: the receive buffer */
    unsigned char *packed; /* the packed variant's buffer */
    int packed_size;
} buffers;

/* The end of one timed message: rank 1 says with a zero-byte message that it is in, rank 0
 * waits for that. */
static void acknowledge(void) {
    static char ack;
    if (rank == 0)
        MPI_Recv(&ack, 0, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_Send(&ack, 0, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
}

static void message_typed(const pattern *p, buffers *b) {
    if (rank == 0)
        MPI_Send(b->memory + p->origin, p->count, p->type, 1, TAG_DATA, MPI_COMM_WORLD);
    else {
        MPI_Status status;
        int count;
        MPI_Recv(b->memory + p->origin, p->count, p->type, 0, TAG_DATA, MPI_COMM_WORLD, &status);
        MPI_Get_count(&status, p->type, &count);
        if (count != p->count)
            fail(p->name, "MPI_Get_count of the received message is not the count sent");
    }
    acknowledge();
}

static void message_packed(const pattern *p, buffers *b) {
    int position = 0;
    if (rank == 0) {
        MPI_Pack(b->memory + p->origin, p->count, p->type, b->packed, b->packed_size, &position,
                 MPI_COMM_WORLD);
        if ((size_t)position != p->bytes)
            fail(p->name, "MPI_Pack wrote another number of bytes than the type's size");
        MPI_Send(b->packed, position, MPI_PACKED, 1, TAG_DATA, MPI_COMM_WORLD);
    } else {
        MPI_Status status;
        int received;
        MPI_Recv(b->packed, b->packed_size, MPI_PACKED, 0, TAG_DATA, MPI_COMM_WORLD, &status);
        MPI_Get_count(&status, MPI_PACKED, &received);
        if ((size_t)received != p->bytes)
            fail(p->name, "received another number of packed bytes than the type's size");
        MPI_Unpack(b->packed, received, &position, b->memory + p->origin, p->count, p->type,
                   MPI_COMM_WORLD);
    }
    acknowledge();
}

/* The application's own loop, which the other two variants replace: rank 0 copies each run
 * of the type map into a buffer and sends MPI_BYTEs, rank 1 copies them back run by run. */
static void message_manual(const pattern *p, buffers *b) {
    size_t at = 0;
    if (rank == 0) {
        for (size_t r = 0; r < p->nruns; r++) {
            memcpy(b->packed + at, b->memory + p->runs[r].offset, p->runs[r].length);
            at += p->runs[r].length;
        }
        MPI_Send(b->packed, (int)at, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD);
    } else {
        MPI_Recv(b->packed, b->packed_size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        for (size_t r = 0; r < p->nruns; r++) {
            memcpy(b->memory + p->runs[r].offset, b->packed + at, p->runs[r].length);
            at += p->runs[r].length;
        }
    }
    acknowledge();
}

/* The manual loop pipelined through shared memory (shm_pipeline.c). */
static void message_shm(const pattern *p, buffers *b) {
    shm_message(p, b->memory);
    acknowledge();
}

/* Rank 1: every byte of the type map holds the sender's byte, every other byte SENTINEL.
 * Leaves the whole buffer SENTINEL again. */
static void check_received(const pattern *p, unsigned char *memory, const char *variant) {
    char what[160];
    for (size_t r = 0; r < p->nruns; r++) {
        unsigned char *at = memory + p->runs[r].offset;
        for (size_t i = 0; i < p->runs[r].length; i++)
            if (at[i] != content(0, p->runs[r].offset + i)) {
                snprintf(what, sizeof what, "%s: byte %zu of the buffer is not the byte sent",
                         variant, p->runs[r].offset + i);
                fail(p->name, what);
            }
        memset(at, SENTINEL, p->runs[r].length);
    }
    for (size_t i = 0; i < p->span; i++)
        if (memory[i] != SENTINEL) {
            snprintf(what, sizeof what, "%s: byte %zu, outside the type map, was written",
                     variant, i);
            fail(p->name, what);
        }
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void report(const char *name, const char *variant, size_t bytes, double *times) {
    qsort(times, (size_t)reps, sizeof *times, by_value);
    double median = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
    printf("%s %s %zu %.9f %.9f %d\n", name, variant, bytes, median, times[0], reps);
    fflush(stdout);
}

typedef void (*message_fn)(const pattern *, buffers *);

int warmups(size_t bytes) {
    size_t n = ((size_t)1 << 26) / (bytes ? bytes : 1);
    return n < 2 ? 2 : n > 128 ? 128 : (int)n;
}

/* One checked message, the warm-up, then `reps` timed ones (rank 0's times). */
static void measure(const pattern *p, buffers *b, const char *variant, message_fn message) {
    double *times = allocate((size_t)reps * sizeof *times);
    MPI_Barrier(MPI_COMM_WORLD);
    message(p, b);
    if (rank == 1)
        check_received(p, b->memory, variant);
    for (int w = warmups(p->bytes); w > 0; w--)
        message(p, b);
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        message(p, b);
        times[r] = MPI_Wtime() - start;
    }
    if (rank == 0)
        report(p->name, variant, p->bytes, times);
    free(times);
}

int want_typed = 1, want_packed = 1, want_manual = 0, want_shm = 0;

static void bench_pattern(pattern *p) {
    int size, packed_size;
    buffers b;
    MPI_Type_commit(&p->type);
    MPI_Type_size(p->type, &size);
    if ((size_t)size * (size_t)p->count != p->bytes)
        fail(p->name, "MPI_Type_size is not the size of the pattern");
    MPI_Pack_size(p->count, p->type, MPI_COMM_WORLD, &packed_size);
    if ((size_t)packed_size < p->bytes)
        fail(p->name, "MPI_Pack_size is less than the data");
    b.memory = allocate(p->span);
    if (rank == 0)
        fill(b.memory, p->span, 0);
    else
        memset(b.memory, SENTINEL, p->span);
    b.packed_size = packed_size;
    b.packed = allocate((size_t)packed_size);
    memset(b.packed, 0, (size_t)packed_size);
    if (want_typed)
        measure(p, &b, "typed", message_typed);
    if (want_packed)
        measure(p, &b, "packed", message_packed);
    if (want_manual)
        measure(p, &b, "manual", message_manual);
    if (want_shm)
        measure(p, &b, "shm", message_shm);
    free(b.memory);
    free(b.packed);
    free(p->runs);
    MPI_Type_free(&p->type);
}

/* ---- the halo exchange ----------------------------------------------------------------- */

#define HALO 128              /* interior cells per dimension */
#define HALO_SIDE (HALO + 2)  /* with the ghost layer */

static size_t halo_offset(int z, int y, int x) {
    return (((size_t)z * HALO_SIDE + (size_t)y) * HALO_SIDE + (size_t)x) * sizeof(double);
}

/* The face of dimension `dim` at index `at` (1 or HALO: interior; 0 or HALO + 1: ghost),
 * over the interior of the two other dimensions. */
static MPI_Datatype halo_face(int dim, int at) {
    int sizes[3] = {HALO_SIDE, HALO_SIDE, HALO_SIDE}, subsizes[3] = {HALO, HALO, HALO},
        starts[3] = {1, 1, 1};
    MPI_Datatype t;
    subsizes[dim] = 1;
    starts[dim] = at;
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
}

typedef struct halo {
    double *grid;
    MPI_Datatype send[6], recv[6]; /* [2 * dim + side], side 0 low, 1 high */
} halo;

/* My low face goes to the other rank's high ghost layer and my high face to its low one;
 * the tag names the ghost layer it fills. */
static void exchange(halo *h) {
    MPI_Request requests[12];
    MPI_Status statuses[12]; /* not MPI_STATUSES_IGNORE: gcc 12 takes it for an empty array */
    int other = 1 - rank;
    for (int f = 0; f < 6; f++)
        MPI_Irecv(h->grid, 1, h->recv[f], other, TAG_HALO + f, MPI_COMM_WORLD, &requests[f]);
    for (int f = 0; f < 6; f++)
        MPI_Isend(h->grid, 1, h->send[f], other, TAG_HALO + (f ^ 1), MPI_COMM_WORLD,
                  &requests[6 + f]);
    MPI_Waitall(12, requests, statuses);
}

/* After one exchange: the interior is this rank's, each face of the ghost layer the other
 * rank's opposite interior face, the ghost edges and corners untouched. */
static void check_halo(const halo *h) {
    const unsigned char *bytes = (const unsigned char *)h->grid;
    uint64_t mine = 1 + (uint64_t)rank, theirs = 2 - (uint64_t)rank;
    for (int z = 0; z < HALO_SIDE; z++)
        for (int y = 0; y < HALO_SIDE; y++)
            for (int x = 0; x < HALO_SIDE; x++) {
                int c[3] = {z, y, x}, ghosts = 0;
                for (int d = 0; d < 3; d++)
                    if (c[d] == 0 || c[d] == HALO + 1) {
                        ghosts++;
                        c[d] = c[d] == 0 ? HALO : 1; /* where the other rank sent it from */
                    }
                size_t at = halo_offset(z, y, x), from = halo_offset(c[0], c[1], c[2]);
                for (size_t i = 0; i < sizeof(double); i++) {
                    unsigned char want = ghosts == 0   ? content(mine, at + i)
                                         : ghosts == 1 ? content(theirs, from + i)
                                                       : SENTINEL;
                    if (bytes[at + i] != want) {
                        char what[96];
                        snprintf(what, sizeof what, "cell (%d, %d, %d) holds a wrong value", z,
                                 y, x);
                        fail("halo_3d", what);
                    }
                }
            }
}

static void bench_halo(void) {
    halo h;
    size_t span = halo_offset(HALO_SIDE, 0, 0);
    size_t bytes = 6 * (size_t)HALO * HALO * sizeof(double);
    h.grid = allocate(span);
    unsigned char *raw = (unsigned char *)h.grid;
    fill(raw, span, 1 + (uint64_t)rank);
    for (int z = 0; z < HALO_SIDE; z++)
        for (int y = 0; y < HALO_SIDE; y++)
            for (int x = 0; x < HALO_SIDE; x++)
                if (z == 0 || y == 0 || x == 0 || z == HALO + 1 || y == HALO + 1 ||
                    x == HALO + 1)
                    memset(raw + halo_offset(z, y, x), SENTINEL, sizeof(double));
    for (int dim = 0; dim < 3; dim++) {
        h.send[2 * dim] = halo_face(dim, 1);
        h.send[2 * dim + 1] = halo_face(dim, HALO);
        h.recv[2 * dim] = halo_face(dim, 0);
        h.recv[2 * dim + 1] = halo_face(dim, HALO + 1);
    }
    double *times = allocate((size_t)reps * sizeof *times);
    double *longest = allocate((size_t)reps * sizeof *longest);
    MPI_Barrier(MPI_COMM_WORLD);
    exchange(&h);
    check_halo(&h);
    for (int w = warmups(bytes); w > 0; w--)
        exchange(&h);
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        exchange(&h);
        times[r] = MPI_Wtime() - start;
    }
    MPI_Reduce(times, longest, reps, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        report("halo_3d", "typed", bytes, longest);
    for (int f = 0; f < 6; f++) {
        MPI_Type_free(&h.send[f]);
        MPI_Type_free(&h.recv[f]);
    }
    free(times);
    free(longest);
    free(h.grid);
}

/* ---- main -------------------------------------------------------------------------------- */

static const char *const names[] = {"struct_int_double_char3", "vector_1_of_2",
                                    "gather_random_1",         "face_x",
                                    "vector_16_of_32",         "face_y",
                                    "halo_3d"};
#define PATTERNS (int)(sizeof names / sizeof names[0])

static void run_pattern(int which) {
    pattern p;
    memset(&p, 0, sizeof p);
    p.name = names[which];
    switch (which) {
    case 0:
        make_struct(&p);
        break;
    case 1:
        make_vector(&p, 1 << 20, 1, 2);
        break;
    case 2:
        make_gather(&p);
        break;
    case 3:
        make_face(&p, 2);
        break;
    case 4:
        make_vector(&p, 1 << 16, 16, 32);
        break;
    case 5:
        make_face(&p, 1);
        break;
    default:
        if (want_typed)
            bench_halo();
        return;
    }
    bench_pattern(&p);
}

static int listed(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *at = list; at && *at;) {
        const char *end = strchr(at, ',');
        size_t len = end ? (size_t)(end - at) : strlen(at);
        if (len == n && !strncmp(at, name, n))
            return 1;
        at = end ? end + 1 : NULL;
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *only = NULL, *variants = "typed,packed";
    int size;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--variants") && i + 1 < argc)
            variants = argv[++i];
        else if (!strcmp(argv[i], "--list")) {
            for (int k = 0; k < PATTERNS; k++)
                printf("%s\n", names[k]);
            for (int k = 0; k < app_pattern_count(); k++)
                printf("%s\n", app_pattern_name(k));
            return 0;
        } else {
            fprintf(stderr,
                    "usage: %s [--reps N] [--variants typed,packed,manual,shm] [--only NAME,...] "
                    "[--list]\n",
                    argv[0]);
            return 2;
        }
    }
    if (reps < 1) {
        fprintf(stderr, "comm_bench: --reps must be at least 1\n");
        return 2;
    }
    want_typed = listed(variants, "typed");
    want_packed = listed(variants, "packed");
    want_manual = listed(variants, "manual");
    want_shm = listed(variants, "shm");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "comm_bench: run with exactly 2 processes (mpiexec -n 2)\n");
        MPI_Finalize();
        return 2;
    }
    if (want_shm)
        shm_setup();
    for (int k = 0; k < PATTERNS; k++)
        if (!only || listed(only, names[k]))
            run_pattern(k);
    for (int k = 0; k < app_pattern_count(); k++)
        if (only && listed(only, app_pattern_name(k))) {
            pattern p;
            memset(&p, 0, sizeof p);
            p.name = app_pattern_name(k);
            if (app_pattern(k, &p))
                bench_pattern(&p);
        }
    if (want_shm)
        shm_teardown();
    MPI_Finalize();
    return 0;
}
