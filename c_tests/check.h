/*
 * check.h: tiny assertion helpers for the C tests of mpi-dtype.
 *
 * Every CHECK* macro prints "file:line: FAILED ..." with the values involved when it fails,
 * counts the failure and carries on, so one run reports every failing check. A test ends with
 * `return check_report(argv[0]);`, which prints a summary and returns 0 (pass) or 1 (fail).
 *
 * Besides plain assertions there are MPI-aware helpers:
 *   CHECK_OK(call)             the call returns MPI_SUCCESS (prints the error string if not)
 *   CHECK_ERR(call, class)     the call returns an error code whose class is `class`
 *   CHECK_BOUNDS(type, ...)    size / lb / extent / true_lb / true_extent of a datatype
 *   CHECK_TYPEMAP(type, ...)   the type map of a datatype, verified by packing (see below)
 *
 * Only static inline functions and macros; the failure counter is a static local of one
 * function.
 */
#ifndef MPI_DTYPE_C_TESTS_CHECK_H
#define MPI_DTYPE_C_TESTS_CHECK_H

#include <mpi.h>

#include "error_names.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number of failed checks so far (one counter per test program). */
static inline int *check_failure_counter(void)
{
    static int failures;
    return &failures;
}

/* The number of checks run so far. */
static inline int *check_total_counter(void)
{
    static int total;
    return &total;
}

/* Records the outcome of one check; returns `ok`. */
static inline int check_record(int ok)
{
    ++*check_total_counter();
    if (!ok) {
        ++*check_failure_counter();
    }
    return ok;
}

/* Prints the summary line and returns the exit status of the test (0 = every check passed). */
static inline int check_report(const char *name)
{
    int failures = *check_failure_counter();
    int total = *check_total_counter();
    if (failures == 0) {
        printf("%s: all %d checks passed\n", name, total);
        return 0;
    }
    printf("%s: %d of %d checks FAILED\n", name, failures, total);
    return 1;
}


static inline int check_true_(int ok, const char *expr, const char *file, int line)
{
    if (!check_record(ok)) {
        printf("%s:%d: FAILED CHECK(%s)\n", file, line, expr);
    }
    return ok;
}

static inline int check_eq_long_(long a, long b, const char *ea, const char *eb, const char *file,
                                 int line)
{
    int ok = check_record(a == b);
    if (!ok) {
        printf("%s:%d: FAILED CHECK_EQ_LONG(%s, %s): %ld != %ld (0x%lx != 0x%lx)\n", file, line,
               ea, eb, a, b, (unsigned long)a, (unsigned long)b);
    }
    return ok;
}

static inline int check_eq_str_(const char *a, const char *b, const char *ea, const char *eb,
                                const char *file, int line)
{
    int ok = check_record(a != NULL && b != NULL && strcmp(a, b) == 0);
    if (!ok) {
        printf("%s:%d: FAILED CHECK_EQ_STR(%s, %s): \"%s\" != \"%s\"\n", file, line, ea, eb,
               a ? a : "(null)", b ? b : "(null)");
    }
    return ok;
}

static inline int check_eq_mem_(const void *a, const void *b, size_t n, const char *ea,
                                const char *eb, const char *file, int line)
{
    int ok = check_record(n == 0 || memcmp(a, b, n) == 0);
    if (!ok) {
        const unsigned char *pa = (const unsigned char *)a;
        const unsigned char *pb = (const unsigned char *)b;
        size_t i;
        printf("%s:%d: FAILED CHECK_EQ_MEM(%s, %s, %zu):\n  got     ", file, line, ea, eb, n);
        for (i = 0; i < n && i < 64; ++i) {
            printf(" %02x", pa[i]);
        }
        printf("%s\n  expected", n > 64 ? " ..." : "");
        for (i = 0; i < n && i < 64; ++i) {
            printf(" %02x", pb[i]);
        }
        printf("%s\n", n > 64 ? " ..." : "");
    }
    return ok;
}

static inline int check_ok_(int rc, const char *expr, const char *file, int line)
{
    int ok = check_record(rc == MPI_SUCCESS);
    if (!ok) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        text[0] = '\0';
        MPI_Error_string(rc, text, &len);
        printf("%s:%d: FAILED CHECK_OK(%s): returned %d (%s): %s\n", file, line, expr, rc,
               check_class_name(check_error_class(rc)), text);
    }
    return ok;
}

static inline int check_err_(int rc, int expected_class, const char *expr, const char *ecls,
                             const char *file, int line)
{
    int cls = rc == MPI_SUCCESS ? MPI_SUCCESS : check_error_class(rc);
    int ok = check_record(rc != MPI_SUCCESS && cls == expected_class);
    if (!ok) {
        printf("%s:%d: FAILED CHECK_ERR(%s, %s): returned %d, class %d (%s), expected class %d "
               "(%s)\n",
               file, line, expr, ecls, rc, cls, check_class_name(cls), expected_class,
               check_class_name(expected_class));
    }
    return ok;
}

#define CHECK(cond) check_true_((cond) ? 1 : 0, #cond, __FILE__, __LINE__)
#define CHECK_EQ_LONG(a, b) check_eq_long_((long)(a), (long)(b), #a, #b, __FILE__, __LINE__)
#define CHECK_EQ_STR(a, b) check_eq_str_((a), (b), #a, #b, __FILE__, __LINE__)
#define CHECK_EQ_MEM(a, b, n) check_eq_mem_((a), (b), (size_t)(n), #a, #b, __FILE__, __LINE__)
#define CHECK_OK(call) check_ok_((call), #call, __FILE__, __LINE__)
#define CHECK_ERR(call, cls) check_err_((call), (cls), #call, #cls, __FILE__, __LINE__)

/* Checks size, lb, extent, true_lb and true_extent of `type` through every query that reports
   them (plain, _x, _c and, in the MPICH-ABI build, the MPI-1 MPI_Type_lb / MPI_Type_ub /
   MPI_Type_extent, which the standard ABI does not have). */
static inline int check_bounds_(MPI_Datatype type, long size, long lb, long extent, long true_lb,
                                long true_extent, const char *et, const char *file, int line)
{
    int isize = -1;
    MPI_Aint alb = -1, aext = -1, tlb = -1, text = -1;
#ifndef MPI_DTYPE_STANDARD_ABI /* the MPI-1 bound queries: not in the standard ABI */
    MPI_Aint ub1 = -1, lb1 = -1, ext1 = -1;
#endif
    MPI_Count csize = -1, clb = -1, cext = -1, ctlb = -1, ctext = -1;
    MPI_Count xsize = -1, xlb = -1, xext = -1, xtlb = -1, xtext = -1;
    int ok = 1;
    ok &= check_ok_(MPI_Type_size(type, &isize), "MPI_Type_size", file, line);
    ok &= check_ok_(MPI_Type_size_c(type, &csize), "MPI_Type_size_c", file, line);
    ok &= check_ok_(MPI_Type_get_extent(type, &alb, &aext), "MPI_Type_get_extent", file, line);
    ok &= check_ok_(MPI_Type_get_extent_c(type, &clb, &cext), "MPI_Type_get_extent_c", file, line);
    ok &= check_ok_(MPI_Type_get_true_extent(type, &tlb, &text), "MPI_Type_get_true_extent",
                    file, line);
    ok &= check_ok_(MPI_Type_get_true_extent_c(type, &ctlb, &ctext),
                    "MPI_Type_get_true_extent_c", file, line);
    ok &= check_ok_(MPI_Type_size_x(type, &xsize), "MPI_Type_size_x", file, line);
    ok &= check_ok_(MPI_Type_get_extent_x(type, &xlb, &xext), "MPI_Type_get_extent_x", file, line);
    ok &= check_ok_(MPI_Type_get_true_extent_x(type, &xtlb, &xtext),
                    "MPI_Type_get_true_extent_x", file, line);
#ifndef MPI_DTYPE_STANDARD_ABI /* the MPI-1 bound queries: not in the standard ABI */
    ok &= check_ok_(MPI_Type_lb(type, &lb1), "MPI_Type_lb", file, line);
    ok &= check_ok_(MPI_Type_ub(type, &ub1), "MPI_Type_ub", file, line);
    ok &= check_ok_(MPI_Type_extent(type, &ext1), "MPI_Type_extent", file, line);
#endif
    if (size <= 0x7fffffffL) {
        ok &= check_eq_long_(isize, size, "MPI_Type_size", "expected size", file, line);
    }
    ok &= check_eq_long_(csize, size, "MPI_Type_size_c", "expected size", file, line);
    ok &= check_eq_long_(alb, lb, "lb", "expected lb", file, line);
    ok &= check_eq_long_(aext, extent, "extent", "expected extent", file, line);
    ok &= check_eq_long_(tlb, true_lb, "true_lb", "expected true_lb", file, line);
    ok &= check_eq_long_(text, true_extent, "true_extent", "expected true_extent", file, line);
    ok &= check_eq_long_(clb, lb, "lb (_c)", "expected lb", file, line);
    ok &= check_eq_long_(cext, extent, "extent (_c)", "expected extent", file, line);
    ok &= check_eq_long_(ctlb, true_lb, "true_lb (_c)", "expected true_lb", file, line);
    ok &= check_eq_long_(ctext, true_extent, "true_extent (_c)", "expected true_extent", file,
                         line);
    ok &= check_eq_long_(xsize, size, "MPI_Type_size_x", "expected size", file, line);
    ok &= check_eq_long_(xlb, lb, "lb (_x)", "expected lb", file, line);
    ok &= check_eq_long_(xext, extent, "extent (_x)", "expected extent", file, line);
    ok &= check_eq_long_(xtlb, true_lb, "true_lb (_x)", "expected true_lb", file, line);
    ok &= check_eq_long_(xtext, true_extent, "true_extent (_x)", "expected true_extent", file,
                         line);
#ifndef MPI_DTYPE_STANDARD_ABI /* the MPI-1 bound queries: not in the standard ABI */
    ok &= check_eq_long_(lb1, lb, "MPI_Type_lb", "expected lb", file, line);
    ok &= check_eq_long_(ub1, lb + extent, "MPI_Type_ub", "expected lb + extent", file, line);
    ok &= check_eq_long_(ext1, extent, "MPI_Type_extent", "expected extent", file, line);
#endif
    if (!ok) {
        printf("  (in CHECK_BOUNDS(%s, size=%ld, lb=%ld, extent=%ld, true_lb=%ld, "
               "true_extent=%ld))\n",
               et, size, lb, extent, true_lb, true_extent);
    }
    return ok;
}

#define CHECK_BOUNDS(type, size, lb, extent, true_lb, true_extent)                                 \
    check_bounds_((type), (size), (lb), (extent), (true_lb), (true_extent), #type, __FILE__,    \
                  __LINE__)

/* The byte at offset `i` of the source buffers used by the type map checks: distinct for any
   256 consecutive offsets, and different again in the next 256. */
static inline unsigned char check_pattern_byte(size_t i)
{
    return (unsigned char)(i * 151u + (i >> 8) * 89u + 7u);
}

/* One entry of an expected type map: a basic element of `size` bytes at `disp`. */
typedef struct {
    long disp;
    long size;
} check_entry;

/* Half the size of the source buffer used by CHECK_TYPEMAP: displacements (plus (count-1) *
   extent) must lie in [-CHECK_TYPEMAP_HALF, CHECK_TYPEMAP_HALF). */
#define CHECK_TYPEMAP_HALF 1024L

/*
 * Verifies the type map of `type` (which must be committed) by packing: `count` copies are
 * packed from a buffer of distinct byte values whose origin is its middle (so negative
 * displacements work), and the packed bytes must be, in order, the bytes at the `n` expected
 * (displacement, size) entries, the whole list repeated `count` times at multiples of the
 * extent. MPI_Pack_size, the final position and (through MPI_Status_set_elements /
 * MPI_Get_elements) the sizes of the basic elements of the signature are checked as well.
 */
static inline int check_typemap_(MPI_Datatype type, int count, const check_entry *entries, int n,
                                 const char *et, const char *file, int line)
{
    enum { BUF = 2 * CHECK_TYPEMAP_HALF };
    unsigned char src[BUF];
    unsigned char packed[BUF];
    unsigned char expected[BUF];
    long total = 0;
    int ok = 1;
    int position = 0;
    int pack_size = -1;
    int rc;
    int c, k;
    size_t i;
    MPI_Aint lb = 0, extent = 0;
    unsigned char *origin = src + CHECK_TYPEMAP_HALF;

    for (i = 0; i < sizeof src; ++i) {
        src[i] = check_pattern_byte(i);
    }
    memset(packed, 0xEE, sizeof packed);
    ok &= check_ok_(MPI_Type_get_extent(type, &lb, &extent), "MPI_Type_get_extent", file, line);
    for (c = 0; c < count; ++c) {
        for (k = 0; k < n; ++k) {
            long d = entries[k].disp + (long)c * (long)extent;
            if (d < -CHECK_TYPEMAP_HALF || d + entries[k].size > CHECK_TYPEMAP_HALF ||
                total + entries[k].size > BUF) {
                printf("%s:%d: CHECK_TYPEMAP(%s): expected entry out of the test buffer\n", file,
                       line, et);
                check_record(0);
                return 0;
            }
            memcpy(expected + total, origin + d, (size_t)entries[k].size);
            total += entries[k].size;
        }
    }
    ok &= check_ok_(MPI_Pack_size(count, type, MPI_COMM_WORLD, &pack_size), "MPI_Pack_size",
                    file, line);
    ok &= check_eq_long_(pack_size, total, "MPI_Pack_size", "sum of expected sizes", file, line);
    rc = MPI_Pack(origin, count, type, packed, (int)sizeof packed, &position, MPI_COMM_WORLD);
    ok &= check_ok_(rc, "MPI_Pack", file, line);
    if (rc == MPI_SUCCESS) {
        ok &= check_eq_long_(position, total, "position after MPI_Pack", "sum of expected sizes",
                             file, line);
        ok &= check_eq_mem_(packed, expected, (size_t)total, "packed bytes",
                            "bytes at the expected displacements", file, line);
    }
    /* The signature: the number of basic elements in each prefix of the packed data. */
    {
        long bytes = 0;
        int elements = 0;
        for (c = 0; c < count; ++c) {
            for (k = 0; k < n; ++k) {
                MPI_Status status;
                int got = -1;
                bytes += entries[k].size;
                ++elements;
                memset(&status, 0, sizeof status);
                ok &= check_ok_(MPI_Status_set_elements(&status, MPI_BYTE, (int)bytes),
                                "MPI_Status_set_elements", file, line);
                ok &= check_ok_(MPI_Get_elements(&status, type, &got), "MPI_Get_elements", file,
                                line);
                if (!check_eq_long_(got, elements, "MPI_Get_elements of a prefix",
                                    "expected number of basic elements", file, line)) {
                    ok = 0;
                    printf("  (prefix of %ld bytes)\n", bytes);
                    c = count;
                    break;
                }
            }
        }
    }
    if (!ok) {
        printf("  (in CHECK_TYPEMAP(%s, count=%d, %d entries) at %s:%d)\n", et, count, n, file,
               line);
    }
    return ok;
}

#define CHECK_TYPEMAP(type, count, entries)                                                        \
    check_typemap_((type), (count), (entries), (int)(sizeof(entries) / sizeof((entries)[0])),    \
                   #type, __FILE__, __LINE__)

/* Sets MPI_ERRORS_RETURN on MPI_COMM_WORLD (and checks that it took). */
static inline void check_errors_return(void)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK_EQ_LONG(eh, MPI_ERRORS_RETURN);
}

#endif /* MPI_DTYPE_C_TESTS_CHECK_H */
