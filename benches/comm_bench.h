/* What the two files of the communication benchmark share: comm_bench.c (the harness, the
 * benchmark's own patterns and main) and app_patterns.c (the exchange patterns of real
 * applications). */
#ifndef MPI_DTYPE_COMM_BENCH_H
#define MPI_DTYPE_COMM_BENCH_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#define SENTINEL 0xA5 /* what the receive buffer holds where nothing may be written */

/* This process's rank in MPI_COMM_WORLD, and the timed messages per pattern and variant. */
extern int rank;
extern int reps;

/* Which variants run: the type sent and received by MPI (typed), MPI_Pack + bytes +
 * MPI_Unpack (packed), the application's own copy loop + bytes (manual), and the same loop
 * pipelined through shared memory (shm, shm_pipeline.c). */
extern int want_typed, want_packed, want_manual, want_shm;

/* Reports `what` went wrong in `pattern` and aborts the job. */
void fail(const char *pattern, const char *what);
/* malloc, or fail. */
void *allocate(size_t bytes);
/* The byte at `offset` of a buffer filled by fill(seed); never SENTINEL. */
unsigned char content(uint64_t seed, size_t offset);
/* Fills `buf` with content(seed, 0..bytes-1). */
void fill(unsigned char *buf, size_t bytes, uint64_t seed);
/* `count` distinct indices of 0..range-1 in a random order (a fixed seed), as an
 * application's list of boundary points or particles to send: the first `count` places of a
 * Fisher-Yates shuffle. The caller frees it. */
int *random_indices(int count, int range, uint64_t seed);
/* How many untimed messages of `bytes` bytes each pattern sends after its checked one and
 * before its timed ones (the same number on both ranks): 2^26 / bytes, at least 2 and at most
 * 128. MPICH over UCX runs the first 64 or so eager messages between two processes several
 * times slower than the rest (about 7.5 us against 1.8 for 5 KB), whichever pattern sends
 * them: without the warm-up, a small pattern that follows one sent by rendezvous (as the
 * engine's packed bytes are) would be timed in that slow start. */
int warmups(size_t bytes);
/* Prints the line of one pattern and variant from rank 0's `reps` times (sorts them). */
void report(const char *name, const char *variant, size_t bytes, double *times);

/* A byte range of the type map, written down by hand from the pattern's geometry (not asked
 * of MPI), for the check and for the manual variant. */
typedef struct run {
    size_t offset, length;
} run;

/* One message of `count` copies of `type` over a buffer of `span` bytes. */
typedef struct pattern {
    const char *name;
    MPI_Datatype type;
    int count;      /* of `type` in one message */
    size_t span;    /* bytes of memory the buffer has */
    size_t origin;  /* where in the buffer the message's address is (the runs are from 0) */
    size_t bytes;   /* bytes of data in one message */
    run *runs;      /* in the order the manual variant copies them */
    size_t nruns;
    size_t cap;     /* room in `runs` */
} pattern;

/* Appends the run [offset, offset + length) to the pattern's runs. */
void add_run(pattern *p, size_t offset, size_t length);

/* The shm variant (shm_pipeline.c): the shared memory both processes copy through, made and
 * freed by both; one message of `p`, from rank 0's `memory` into rank 1's. */
void shm_setup(void);
void shm_teardown(void);
void shm_message(const pattern *p, unsigned char *memory);

/* The application patterns (app_patterns.c): how many, their names, and making pattern
 * `which` into `p` (1), or running it whole itself (0: the FFT transpose, a collective). */
int app_pattern_count(void);
const char *app_pattern_name(int which);
int app_pattern(int which, pattern *p);

#endif
