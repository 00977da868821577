/* Shared checking helpers for the 4-rank drop-in programs.
 *
 * Every MPI call is wrapped in MPI_CHECK: with MPI_ERRORS_RETURN set on the communicators,
 * windows and files, a failing call is reported with its error string, the program name and
 * the line, and the job is ended with MPI_Abort(…, 2).  CHECK counts one check and records a
 * failure (printed, not fatal) so that a run reports every wrong value it sees; finish()
 * sums the counts over all ranks, prints "<program>: all N checks passed" on rank 0 and
 * returns the exit status (0 only if no rank saw a failure). */
#ifndef DROP_IN_CHECK_MPI_H
#define DROP_IN_CHECK_MPI_H

#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *g_prog = "?";
static int g_rank = -1;
static long g_checks = 0;
static long g_failures = 0;

static inline void mpi_failed(int rc, const char *call, int line)
{
    char msg[MPI_MAX_ERROR_STRING + 1];
    int len = 0;
    int cls = -1;
    memset(msg, 0, sizeof msg);
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
        snprintf(msg, sizeof msg, "(no error string)");
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        cls = -1;
    fprintf(stderr, "%s: rank %d: line %d: %s returned %d (class %d): %s\n", g_prog, g_rank,
            line, call, rc, cls, msg);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

#define MPI_CHECK(call)                                                                    \
    do {                                                                                   \
        int mpi_rc_ = (call);                                                              \
        if (mpi_rc_ != MPI_SUCCESS)                                                        \
            mpi_failed(mpi_rc_, #call, __LINE__);                                          \
    } while (0)

static inline void check_failed(int line, const char *what, const char *fmt, ...)
{
    va_list ap;
    g_failures++;
    if (g_failures > 20)
        return; /* enough to diagnose; the count is still reported */
    fprintf(stderr, "%s: rank %d: line %d: check failed: %s: ", g_prog, g_rank, line, what);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

/* CHECK(cond, what, fmt, ...): one check. */
#define CHECK(cond, what, ...)                                                             \
    do {                                                                                   \
        g_checks++;                                                                        \
        if (!(cond))                                                                       \
            check_failed(__LINE__, (what), __VA_ARGS__);                                   \
    } while (0)

/* A handle as a number to print with "%#lx": an int in MPICH's ABI, a pointer in the MPI-5.0
 * standard ABI (MPI_ABI_VERSION, from mpi_abi.h, which MPICH 5's mpicc_abi compiles with). */
#define HANDLE_BITS(h) ((unsigned long)(uintptr_t)(h))

#define CHECK_INT(got, want, what)                                                         \
    do {                                                                                   \
        long long got_ = (long long)(got), want_ = (long long)(want);                      \
        CHECK(got_ == want_, (what), "got %lld, want %lld", got_, want_);                  \
    } while (0)

/* One check over a whole buffer: every byte must equal the expected buffer. */
#define CHECK_BYTES(got, want, nbytes, what)                                               \
    check_bytes_at(__LINE__, (const void *)(got), (const void *)(want), (size_t)(nbytes),  \
                   (what))

static inline void check_bytes_at(int line, const void *got, const void *want, size_t n,
                           const char *what)
{
    const unsigned char *g = (const unsigned char *)got, *w = (const unsigned char *)want;
    size_t i, bad = 0, first = 0;
    g_checks++;
    for (i = 0; i < n; i++) {
        if (g[i] != w[i]) {
            if (bad == 0)
                first = i;
            bad++;
        }
    }
    if (bad)
        check_failed(line, what, "%zu of %zu bytes differ, first at byte %zu (got 0x%02x, want 0x%02x)",
                     bad, n, first, g[first], w[first]);
}

/* One check over an array of doubles, naming the first wrong index. */
#define CHECK_DOUBLES(got, want, n, what)                                                  \
    check_doubles_at(__LINE__, (got), (want), (size_t)(n), (what))

static inline void check_doubles_at(int line, const double *got, const double *want, size_t n,
                             const char *what)
{
    size_t i, bad = 0, first = 0;
    g_checks++;
    for (i = 0; i < n; i++) {
        if (memcmp(&got[i], &want[i], sizeof(double)) != 0) {
            if (bad == 0)
                first = i;
            bad++;
        }
    }
    if (bad)
        check_failed(line, what, "%zu of %zu doubles differ, first at index %zu (got %.17g, want %.17g)",
                     bad, n, first, got[first], want[first]);
}

#define CHECK_INTS(got, want, n, what) check_ints_at(__LINE__, (got), (want), (size_t)(n), (what))

static inline void check_ints_at(int line, const int *got, const int *want, size_t n, const char *what)
{
    size_t i, bad = 0, first = 0;
    g_checks++;
    for (i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            if (bad == 0)
                first = i;
            bad++;
        }
    }
    if (bad)
        check_failed(line, what, "%zu of %zu ints differ, first at index %zu (got %d, want %d)",
                     bad, n, first, got[first], want[first]);
}

/* MPI_Init, MPI_ERRORS_RETURN on MPI_COMM_WORLD, and a check that there are 4 ranks. */
static inline void start(int *argc, char ***argv, const char *prog, int *rank, int *size)
{
    g_prog = prog;
    MPI_CHECK(MPI_Init(argc, argv));
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, size));
    g_rank = *rank;
    if (*size != 4) {
        if (*rank == 0)
            fprintf(stderr, "%s: needs exactly 4 ranks, got %d\n", prog, *size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* Sums checks and failures over the ranks, prints them on rank 0, returns the exit status. */
static inline int report(void)
{
    long local[2], total[2];
    local[0] = g_checks;
    local[1] = g_failures;
    MPI_CHECK(MPI_Allreduce(local, total, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    if (g_rank == 0) {
        if (total[1] == 0)
            printf("%s: all %ld checks passed\n", g_prog, total[0]);
        else
            printf("%s: %ld of %ld checks FAILED\n", g_prog, total[1], total[0]);
        fflush(stdout);
    }
    return total[1] == 0 ? 0 : 1;
}

/* report(), then MPI_Finalize; returns the exit status. */
static inline int finish(void)
{
    int status = report();
    MPI_CHECK(MPI_Finalize());
    return status;
}

#endif
