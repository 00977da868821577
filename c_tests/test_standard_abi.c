/*
 * test_standard_abi.c: what the MPI-5.0 standard ABI (MPI-5.0 chapter 21, docs/abi.md) adds or
 * changes, checked in the three builds where the question has an answer in each (Open MPI's
 * ABI answers as Open MPI's mpi.h does: its handles are addresses, its status is 24 bytes):
 *
 *   - MPI_Type_toint / MPI_Type_fromint round-trip predefined handles, derived handles and
 *     MPI_DATATYPE_NULL (a predefined handle's int is its value in the standard ABI);
 *   - MPI_TYPE_DUP_FN copies an attribute in MPI_Type_dup (a sentinel that is never called
 *     in the standard ABI, a function in MPICH's);
 *   - MPI_STATUS_IGNORE is refused (MPI_ERR_ARG) where a status is read or written;
 *   - MPI_Status_set_elements and MPI_Get_count / MPI_Get_elements round-trip through the
 *     status, stored as MPICH 5 stores it (standard ABI: MPI_internal[0] the low 32 bits of
 *     the byte count, MPI_internal[1] bit 0 cancelled and bits 1.. the high bits);
 *   - MPI_Abi_get_version: 1.0 in the standard-ABI build, -1.-1 in the MPICH-ABI build, and
 *     MPI_Get_library_version names the ABI;
 *   - MPI_Type_get_value_index;
 *   - predefined handles have the standard's values (MPI_DOUBLE is 0x214) in the standard
 *     build only, and derived handles never lie in 1..4095, the predefined range.
 *
 * The header says which build this is: mpi_dtype_abi/mpi.h defines MPI_DTYPE_STANDARD_ABI,
 * mpi_dtype_ompi/mpi.h MPI_DTYPE_OMPI_ABI, MPICH's-ABI mpi.h MPI_DTYPE_MPICH_ABI;
 * MPI_Abi_get_version and MPI_Get_library_version check that the library linked agrees.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "check.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#ifdef MPI_DTYPE_STANDARD_ABI
#if MPI_DTYPE_STANDARD_ABI != 1 || MPI_ABI_VERSION != 1 || MPI_ABI_SUBVERSION != 0
#error "the standard-ABI header defines MPI_DTYPE_STANDARD_ABI 1 and ABI version 1.0"
#endif
/* The names the standard ABI removed are not in its header. */
#if defined(MPI_LB) || defined(MPI_UB) || defined(MPI_COMBINER_HVECTOR_INTEGER) ||                \
    defined(MPI_COMBINER_HINDEXED_INTEGER) || defined(MPI_COMBINER_STRUCT_INTEGER) ||            \
    defined(MPI_Type_c2f) || defined(MPI_Type_f2c) || defined(MPIX_C_FLOAT16)
#error "the standard-ABI header defines a name the standard ABI removed"
#endif
#endif

/* A handle as a number: its bits (the standard ABI's handles are pointers). */
static long handle_value(MPI_Datatype t)
{
#ifndef MPI_DTYPE_MPICH_ABI
    return (long)(intptr_t)t;
#else
    return (long)t;
#endif
}

static void check_round_trip(MPI_Datatype t, const char *what)
{
    int v = MPI_Type_toint(t);
    if (!check_true_(v != -1 && MPI_Type_fromint(v) == t, what, __FILE__, __LINE__)) {
        printf("  %s: handle %#lx, toint %#x, back %#lx\n", what, (unsigned long)handle_value(t),
               (unsigned)v, (unsigned long)handle_value(MPI_Type_fromint(v)));
    }
    /* the same int on every call */
    CHECK_EQ_LONG(MPI_Type_toint(t), v);
}

static void toint_fromint(void)
{
    const MPI_Datatype predefined[] = {MPI_CHAR,        MPI_INT,      MPI_DOUBLE,  MPI_BYTE,
                                       MPI_PACKED,      MPI_FLOAT_INT, MPI_2INT,   MPI_INTEGER,
                                       MPI_2INTEGER,    MPI_INT64_T,  MPI_REAL8,   MPI_AINT,
                                       MPI_LONG_DOUBLE, MPI_C_BOOL,   MPI_WCHAR,   MPI_COUNT};
    MPI_Datatype derived[3] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
    size_t k;
    int v0, v1;

    for (k = 0; k < sizeof predefined / sizeof predefined[0]; ++k) {
        check_round_trip(predefined[k], "toint/fromint of a predefined handle");
#ifdef MPI_DTYPE_STANDARD_ABI
        /* a predefined handle's int is its value (MPI-5.0 §21.5) */
        CHECK_EQ_LONG(MPI_Type_toint(predefined[k]), handle_value(predefined[k]));
#endif
    }
    check_round_trip(MPI_DATATYPE_NULL, "toint/fromint of MPI_DATATYPE_NULL");
#ifdef MPI_DTYPE_STANDARD_ABI
    CHECK_EQ_LONG(MPI_Type_toint(MPI_DOUBLE), 0x214);
    CHECK_EQ_LONG(MPI_Type_toint(MPI_DATATYPE_NULL), 0x200);
    CHECK(MPI_Type_fromint(0x214) == MPI_DOUBLE);
#endif

    CHECK_OK(MPI_Type_contiguous(3, MPI_INT, &derived[0]));
    CHECK_OK(MPI_Type_vector(2, 1, 3, derived[0], &derived[1]));
    CHECK_OK(MPI_Type_dup(derived[1], &derived[2]));
    CHECK_OK(MPI_Type_commit(&derived[2]));
    for (k = 0; k < 3; ++k) {
        int v = MPI_Type_toint(derived[k]);
        int size = -1;
        check_round_trip(derived[k], "toint/fromint of a derived handle");
        /* outside the predefined range, and the handle it gives back works */
        CHECK(v < 1 || v > 4095);
        CHECK_OK(MPI_Type_size(MPI_Type_fromint(v), &size));
        CHECK_EQ_LONG(size, k == 0 ? 12 : 24);
    }
    /* distinct handles, distinct ints */
    v0 = MPI_Type_toint(derived[0]);
    v1 = MPI_Type_toint(derived[1]);
    CHECK(v0 != v1);
    CHECK(v0 != MPI_Type_toint(derived[2]) && v1 != MPI_Type_toint(derived[2]));
    for (k = 0; k < 3; ++k) {
        CHECK_OK(MPI_Type_free(&derived[k]));
    }
#ifdef MPI_DTYPE_STANDARD_ABI
    /* an int no handle converts to (in MPICH's ABI the conversion is the identity, as
       MPICH's MPI_Type_f2c is) */
    CHECK(MPI_Type_fromint(-1) == MPI_DATATYPE_NULL);
#endif
}

/* Derived handles never lie in 1..4095 (the standard ABI's predefined range); in the
   standard ABI they are not the predefined values either, nor among themselves equal. */
static void derived_handles_outside_the_predefined_range(void)
{
    enum { N = 300 };
    MPI_Datatype t[N];
    int k, j, bad = 0;
    for (k = 0; k < N; ++k) {
        long v;
        t[k] = MPI_DATATYPE_NULL;
        CHECK_OK(k % 3 == 0   ? MPI_Type_contiguous(k + 1, MPI_CHAR, &t[k])
                 : k % 3 == 1 ? MPI_Type_dup(MPI_DOUBLE, &t[k])
                              : MPI_Type_create_resized(MPI_INT, 0, 8, &t[k]));
        v = handle_value(t[k]);
        if (v >= 1 && v <= 4095) {
            ++bad;
            printf("  derived handle %#lx in the predefined range\n", (unsigned long)v);
        }
        for (j = 0; j < k; ++j) {
            if (t[j] == t[k]) {
                ++bad;
                printf("  derived handles %d and %d are equal\n", j, k);
            }
        }
        if (k % 2 == 1) {
            /* free every other one, so that slots are reused */
            CHECK_OK(MPI_Type_free(&t[k - 1]));
            CHECK_OK(MPI_Type_contiguous(2, MPI_SHORT, &t[k - 1]));
            v = handle_value(t[k - 1]);
            if (v >= 1 && v <= 4095) {
                ++bad;
                printf("  reused derived handle %#lx in the predefined range\n", (unsigned long)v);
            }
        }
    }
    CHECK_EQ_LONG(bad, 0);
    for (k = 0; k < N; ++k) {
        CHECK_OK(MPI_Type_free(&t[k]));
    }
}

static void predefined_values(void)
{
#ifdef MPI_DTYPE_STANDARD_ABI
    /* MPI-5.0 §21.5 and Annex A: the values every standard-ABI library shares */
    CHECK(MPI_DOUBLE == (MPI_Datatype)0x214);
    CHECK(MPI_BYTE == (MPI_Datatype)0x247);
    CHECK(MPI_INT == (MPI_Datatype)0x209);
    CHECK(MPI_DATATYPE_NULL == (MPI_Datatype)0x200);
    CHECK(MPI_FLOAT_INT == (MPI_Datatype)0x228);
    CHECK(MPI_2INTEGER == (MPI_Datatype)0x232);
    CHECK(MPI_COMM_WORLD == (MPI_Comm)0x101);
    CHECK(MPI_ERRORS_RETURN == (MPI_Errhandler)0x143);
    CHECK_EQ_LONG(MPI_COMBINER_NAMED, 101);
    CHECK_EQ_LONG(MPI_COMBINER_VECTOR, 104);
    CHECK_EQ_LONG(MPI_COMBINER_RESIZED, 116);
    CHECK_EQ_LONG(MPI_COMBINER_VALUE_INDEX, 117);
    CHECK_EQ_LONG(MPI_ORDER_C, 12);
    CHECK_EQ_LONG(MPI_DISTRIBUTE_BLOCK, 17);
    CHECK_EQ_LONG(MPI_ERR_TRUNCATE, 15);
    CHECK_EQ_LONG(MPI_KEYVAL_INVALID, 0);
    CHECK_EQ_LONG(sizeof(MPI_Datatype), sizeof(void *));
#elif defined(MPI_DTYPE_OMPI_ABI)
    /* Open MPI's: handles are the addresses of its objects, which this library defines */
    CHECK(MPI_DOUBLE == (MPI_Datatype)&ompi_mpi_double);
    CHECK(MPI_COMM_WORLD == (MPI_Comm)&ompi_mpi_comm_world);
    CHECK(MPI_LONG_LONG == MPI_LONG_LONG_INT);
    CHECK(MPI_DOUBLE != MPI_FLOAT && MPI_DOUBLE != MPI_DATATYPE_NULL);
    CHECK_EQ_LONG(MPI_COMBINER_NAMED, 0);
    CHECK_EQ_LONG(MPI_COMBINER_RESIZED, 17);
    CHECK_EQ_LONG(MPI_ORDER_C, 0);
    CHECK_EQ_LONG(MPI_UNDEFINED, -32766);
    CHECK_EQ_LONG(sizeof(MPI_Datatype), sizeof(void *));
#else
    /* MPICH's values */
    CHECK_EQ_LONG(MPI_DOUBLE, 0x4c00080b);
    CHECK_EQ_LONG(MPI_BYTE, 0x4c00010d);
    CHECK_EQ_LONG(MPI_DATATYPE_NULL, 0x0c000000);
    CHECK(MPI_DOUBLE != (MPI_Datatype)0x214);
    CHECK_EQ_LONG(MPI_COMBINER_NAMED, 1);
    CHECK_EQ_LONG(MPI_ORDER_C, 56);
    CHECK_EQ_LONG(sizeof(MPI_Datatype), sizeof(int));
#endif
    /* both: the same type behind the handle */
    {
        int size = -1;
        CHECK_OK(MPI_Type_size(MPI_DOUBLE, &size));
        CHECK_EQ_LONG(size, 8);
    }
}

/* `errors`: also the error cases (after MPI_ERRORS_RETURN is set). */
static void abi_version(int errors)
{
    int major = 0, minor = 0;
    CHECK_OK(MPI_Abi_get_version(&major, &minor));
#ifdef MPI_DTYPE_STANDARD_ABI
    CHECK_EQ_LONG(major, 1);
    CHECK_EQ_LONG(minor, 0);
    CHECK_EQ_LONG(major, MPI_ABI_VERSION);
    CHECK_EQ_LONG(minor, MPI_ABI_SUBVERSION);
#else
    CHECK_EQ_LONG(major, -1);
    CHECK_EQ_LONG(minor, -1);
#endif
    if (errors) {
        CHECK_ERR(MPI_Abi_get_version(NULL, &minor), MPI_ERR_ARG);
        CHECK_ERR(MPI_Abi_get_version(&major, NULL), MPI_ERR_ARG);
    }
    /* The library version names the ABI it speaks. */
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    CHECK_OK(MPI_Get_library_version(library, &length));
#if defined(MPI_DTYPE_STANDARD_ABI)
    CHECK(strstr(library, "the MPI-5.0 standard ABI") != NULL);
#elif defined(MPI_DTYPE_OMPI_ABI)
    CHECK(strstr(library, "Open MPI's ABI") != NULL);
#else
    CHECK(strstr(library, "MPICH's ABI") != NULL);
#endif
}

static void value_index(void)
{
    MPI_Datatype pair = MPI_INT, gone = MPI_DATATYPE_NULL, stale;
    CHECK_OK(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, &pair));
    CHECK(pair == MPI_FLOAT_INT);
    CHECK_OK(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pair));
    CHECK(pair == MPI_DOUBLE_INT);
    CHECK_OK(MPI_Type_get_value_index(MPI_INT, MPI_INT, &pair));
    CHECK(pair == MPI_2INT);
    CHECK_OK(MPI_Type_get_value_index(MPI_INTEGER, MPI_INTEGER, &pair));
    CHECK(pair == MPI_2INTEGER);
    CHECK_OK(MPI_Type_get_value_index(MPI_REAL, MPI_REAL, &pair));
    CHECK(pair == MPI_2REAL);
    /* no predefined pair has these members */
    pair = MPI_INT;
    CHECK_OK(MPI_Type_get_value_index(MPI_FLOAT, MPI_FLOAT, &pair));
    CHECK(pair == MPI_DATATYPE_NULL);
    /* errors */
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &gone));
    stale = gone;
    CHECK_OK(MPI_Type_free(&gone));
    CHECK_ERR(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &pair), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_value_index(MPI_FLOAT, stale, &pair), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_value_index((MPI_Datatype)0x12345678, MPI_INT, &pair), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, NULL), MPI_ERR_ARG);
}

/* MPI_TYPE_DUP_FN copies the attribute to the duplicate; MPI_TYPE_NULL_COPY_FN does not. */
static void dup_fn(void)
{
    int dup_key = MPI_KEYVAL_INVALID, null_key = MPI_KEYVAL_INVALID, flag = -1;
    int value = 42, other = 7;
    void *got = NULL;
    MPI_Datatype t = MPI_DATATYPE_NULL, copy = MPI_DATATYPE_NULL, copy2 = MPI_DATATYPE_NULL;

#ifdef MPI_DTYPE_STANDARD_ABI
    CHECK(MPI_TYPE_DUP_FN == (MPI_Type_copy_attr_function *)1);
    CHECK(MPI_TYPE_NULL_COPY_FN == (MPI_Type_copy_attr_function *)0);
    CHECK(MPI_TYPE_NULL_DELETE_FN == (MPI_Type_delete_attr_function *)0);
#endif
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &dup_key, NULL));
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &null_key,
                                    NULL));
    CHECK(dup_key != MPI_KEYVAL_INVALID && null_key != MPI_KEYVAL_INVALID);
    CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
    CHECK_OK(MPI_Type_set_attr(t, dup_key, &value));
    CHECK_OK(MPI_Type_set_attr(t, null_key, &other));
    CHECK_OK(MPI_Type_dup(t, &copy));
    CHECK_OK(MPI_Type_get_attr(copy, dup_key, &got, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK(got == (void *)&value);
    flag = -1;
    CHECK_OK(MPI_Type_get_attr(copy, null_key, &got, &flag));
    CHECK_EQ_LONG(flag, 0);
    /* and again from the copy (the sentinel is kept with the keyval) */
    CHECK_OK(MPI_Type_dup(copy, &copy2));
    flag = -1;
    got = NULL;
    CHECK_OK(MPI_Type_get_attr(copy2, dup_key, &got, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK(got == (void *)&value);
    CHECK_OK(MPI_Type_free(&copy2));
    CHECK_OK(MPI_Type_free(&copy));
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_free_keyval(&dup_key));
    CHECK_OK(MPI_Type_free_keyval(&null_key));
    CHECK_EQ_LONG(dup_key, MPI_KEYVAL_INVALID);
}

/* MPI_STATUS_IGNORE is not a status to read or write. */
static void status_ignore(void)
{
    int count = -5;
    MPI_Count big = -5;
#ifndef MPI_DTYPE_MPICH_ABI
    CHECK(MPI_STATUS_IGNORE == (MPI_Status *)0);
    CHECK(MPI_STATUSES_IGNORE == (MPI_Status *)0);
#else
    CHECK(MPI_STATUS_IGNORE == (MPI_Status *)1);
#endif
    CHECK_ERR(MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &count), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_count_c(MPI_STATUS_IGNORE, MPI_INT, &big), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_elements(MPI_STATUS_IGNORE, MPI_INT, &count), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_elements_x(MPI_STATUS_IGNORE, MPI_INT, &big), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_elements_c(MPI_STATUS_IGNORE, MPI_INT, &big), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_set_elements(MPI_STATUS_IGNORE, MPI_INT, 3), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_set_elements_x(MPI_STATUS_IGNORE, MPI_INT, 3), MPI_ERR_ARG);
    CHECK_EQ_LONG(count, -5);
    CHECK_EQ_LONG(big, -5);
}

/* The byte count and the cancelled flag, where this build's status keeps them. */
static long long status_bytes(const MPI_Status *s)
{
#if defined(MPI_DTYPE_OMPI_ABI)
    return (long long)s->_ucount;
#elif defined(MPI_DTYPE_STANDARD_ABI)
    return (long long)((unsigned long long)(unsigned)s->MPI_internal[0] |
                       (unsigned long long)((unsigned)s->MPI_internal[1] >> 1) << 32);
#else
    return (long long)((unsigned long long)(unsigned)s->count_lo |
                       (unsigned long long)((unsigned)s->count_hi_and_cancelled >> 1) << 32);
#endif
}

static int status_cancelled(const MPI_Status *s)
{
#if defined(MPI_DTYPE_OMPI_ABI)
    return s->_cancelled;
#elif defined(MPI_DTYPE_STANDARD_ABI)
    return s->MPI_internal[1] & 1;
#else
    return s->count_hi_and_cancelled & 1;
#endif
}

static void status_set_bytes(MPI_Status *s, long long bytes, int cancelled)
{
#if defined(MPI_DTYPE_OMPI_ABI)
    s->_ucount = (size_t)bytes;
    s->_cancelled = cancelled;
#else
    unsigned lo = (unsigned)((unsigned long long)bytes & 0xffffffffu);
    unsigned hi = (unsigned)((unsigned long long)bytes >> 32) << 1 | (cancelled ? 1u : 0u);
#if defined(MPI_DTYPE_STANDARD_ABI)
    s->MPI_internal[0] = (int)lo;
    s->MPI_internal[1] = (int)hi;
#else
    s->count_lo = (int)lo;
    s->count_hi_and_cancelled = (int)hi;
#endif
#endif
}

static void status_layout(void)
{
    MPI_Status s;
    int count = -1;
    MPI_Count big = -1;

#ifdef MPI_DTYPE_STANDARD_ABI
    /* {MPI_SOURCE, MPI_TAG, MPI_ERROR, MPI_internal[5]} */
    CHECK_EQ_LONG(sizeof(MPI_Status), 32);
    CHECK_EQ_LONG(offsetof(MPI_Status, MPI_SOURCE), 0);
    CHECK_EQ_LONG(offsetof(MPI_Status, MPI_TAG), 4);
    CHECK_EQ_LONG(offsetof(MPI_Status, MPI_ERROR), 8);
    CHECK_EQ_LONG(offsetof(MPI_Status, MPI_internal), 12);
#elif defined(MPI_DTYPE_OMPI_ABI)
    /* Open MPI's {MPI_SOURCE, MPI_TAG, MPI_ERROR, _cancelled, _ucount} */
    CHECK_EQ_LONG(sizeof(MPI_Status), 24);
    CHECK_EQ_LONG(offsetof(MPI_Status, MPI_SOURCE), 0);
    CHECK_EQ_LONG(offsetof(MPI_Status, _cancelled), 12);
    CHECK_EQ_LONG(offsetof(MPI_Status, _ucount), 16);
#else
    /* MPICH's {count_lo, count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR} */
    CHECK_EQ_LONG(sizeof(MPI_Status), 20);
    CHECK_EQ_LONG(offsetof(MPI_Status, MPI_SOURCE), 8);
#endif

    /* Set through the library, read by hand: the observed MPICH 5 encoding (docs/abi.md). */
    memset(&s, 0x5a, sizeof s);
    s.MPI_SOURCE = 3;
    s.MPI_TAG = 77;
    s.MPI_ERROR = MPI_SUCCESS;
    status_set_bytes(&s, 0, 0);
    CHECK_OK(MPI_Status_set_elements_x(&s, MPI_BYTE, 0x123456789aLL));
    CHECK_EQ_LONG(status_bytes(&s), 0x123456789aLL);
    CHECK_EQ_LONG(status_cancelled(&s), 0);
#ifdef MPI_DTYPE_STANDARD_ABI
    CHECK_EQ_LONG(s.MPI_internal[0], 0x3456789a);
    CHECK_EQ_LONG(s.MPI_internal[1], 0x24);
    /* the words the implementation does not use are left alone */
    CHECK_EQ_LONG(s.MPI_internal[2], 0x5a5a5a5a);
    CHECK_EQ_LONG(s.MPI_internal[3], 0x5a5a5a5a);
    CHECK_EQ_LONG(s.MPI_internal[4], 0x5a5a5a5a);
#endif
    /* the public fields are the caller's */
    CHECK_EQ_LONG(s.MPI_SOURCE, 3);
    CHECK_EQ_LONG(s.MPI_TAG, 77);
    CHECK_EQ_LONG(s.MPI_ERROR, MPI_SUCCESS);
    CHECK_OK(MPI_Get_count_c(&s, MPI_BYTE, &big));
    CHECK_EQ_LONG(big, 0x123456789aLL);
    CHECK_OK(MPI_Get_count(&s, MPI_BYTE, &count));
    CHECK_EQ_LONG(count, MPI_UNDEFINED); /* does not fit an int */
    CHECK_OK(MPI_Get_elements_x(&s, MPI_CHAR, &big));
    CHECK_EQ_LONG(big, 0x123456789aLL);

    /* Written by hand (cancelled, 40 bytes), read through the library. */
    status_set_bytes(&s, 40, 1);
    CHECK_OK(MPI_Get_count(&s, MPI_DOUBLE, &count));
    CHECK_EQ_LONG(count, 5);
    CHECK_OK(MPI_Get_count(&s, MPI_INT, &count));
    CHECK_EQ_LONG(count, 10);
    CHECK_OK(MPI_Get_elements(&s, MPI_DOUBLE_INT, &count));
    CHECK_EQ_LONG(count, MPI_UNDEFINED); /* 3 pairs are 36 bytes: 40 ends inside a double */
    CHECK_EQ_LONG(status_cancelled(&s), 1);
    status_set_bytes(&s, 36, 1);
    CHECK_OK(MPI_Get_elements(&s, MPI_DOUBLE_INT, &count));
    CHECK_EQ_LONG(count, 6);
    CHECK_OK(MPI_Get_count(&s, MPI_DOUBLE_INT, &count));
    CHECK_EQ_LONG(count, 3);
    status_set_bytes(&s, (5LL << 32) + 8, 1);
    CHECK_OK(MPI_Get_count_c(&s, MPI_DOUBLE, &big));
    CHECK_EQ_LONG(big, ((5LL << 32) + 8) / 8);

    /* Setting a count keeps the cancelled flag. */
    CHECK_OK(MPI_Status_set_elements(&s, MPI_INT, 6));
    CHECK_EQ_LONG(status_bytes(&s), 24);
    CHECK_EQ_LONG(status_cancelled(&s), 1);
    CHECK_OK(MPI_Get_elements(&s, MPI_INT, &count));
    CHECK_EQ_LONG(count, 6);
    CHECK_OK(MPI_Get_count(&s, MPI_SHORT, &count));
    CHECK_EQ_LONG(count, 12);
    status_set_bytes(&s, 24, 0);
    CHECK_OK(MPI_Status_set_elements_x(&s, MPI_DOUBLE, (MPI_Count)3 << 31));
    CHECK_EQ_LONG(status_bytes(&s), ((long long)3 << 31) * 8);
    CHECK_EQ_LONG(status_cancelled(&s), 0);
    CHECK_OK(MPI_Get_elements_c(&s, MPI_DOUBLE, &big));
    CHECK_EQ_LONG(big, (MPI_Count)3 << 31);
    /* a derived type's elements */
    {
        MPI_Datatype v = MPI_DATATYPE_NULL;
        CHECK_OK(MPI_Type_vector(3, 2, 5, MPI_FLOAT, &v));
        CHECK_OK(MPI_Type_commit(&v));
        CHECK_OK(MPI_Status_set_elements(&s, v, 8)); /* one vector (6 floats) and 2 floats */
        CHECK_EQ_LONG(status_bytes(&s), 32);
        CHECK_OK(MPI_Get_count(&s, v, &count));
        CHECK_EQ_LONG(count, MPI_UNDEFINED);
        CHECK_OK(MPI_Get_elements(&s, v, &count));
        CHECK_EQ_LONG(count, 8);
        CHECK_OK(MPI_Type_free(&v));
    }
}

/* The functions the standard ABI removed are not exported by its library (they are by the
   libraries of MPICH's and Open MPI's ABIs, as by those MPIs). */
static void removed_functions(void)
{
    static const char *const removed[] = {"MPI_Type_struct",  "MPI_Type_hvector",
                                          "MPI_Type_hindexed", "MPI_Type_extent",
                                          "MPI_Type_lb",      "MPI_Type_ub",
                                          "MPI_Address",      "PMPI_Type_struct"};
    size_t k;
    for (k = 0; k < sizeof removed / sizeof removed[0]; ++k) {
        void *f = dlsym(RTLD_DEFAULT, removed[k]);
#ifdef MPI_DTYPE_STANDARD_ABI
        if (!check_true_(f == NULL, "a removed function is not exported", __FILE__, __LINE__)) {
            printf("  %s is exported\n", removed[k]);
        }
#else
        if (!check_true_(f != NULL, "an MPI-1 function is exported", __FILE__, __LINE__)) {
            printf("  %s is not exported\n", removed[k]);
        }
#endif
    }
    CHECK(dlsym(RTLD_DEFAULT, "MPI_Type_toint") != NULL);
    CHECK(dlsym(RTLD_DEFAULT, "MPI_Type_fromint") != NULL);
    CHECK(dlsym(RTLD_DEFAULT, "MPI_Abi_get_version") != NULL);
}

int main(int argc, char **argv)
{
    (void)argc;
    abi_version(0); /* callable before MPI_Init */
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    abi_version(1);
    predefined_values();
    toint_fromint();
    derived_handles_outside_the_predefined_range();
    value_index();
    dup_fn();
    status_ignore();
    status_layout();
    removed_functions();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
