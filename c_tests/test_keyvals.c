/*
 * Datatype keyvals: a freed keyval is invalid in every call (MPI_ERR_KEYVAL), while the
 * attributes still cached with it keep their callbacks until they go; and the registry does
 * not grow with keyvals that were created and freed (10^6 create / free pairs).
 */
#include "check.h"

#include <stdio.h>

typedef struct {
    int copies;
    int deletes;
} counts;

static int count_copy(MPI_Datatype type, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)type;
    (void)keyval;
    ((counts *)extra)->copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type;
    (void)keyval;
    (void)value;
    ((counts *)extra)->deletes++;
    return MPI_SUCCESS;
}

static void freed_keyvals_are_invalid(void)
{
    counts c = {0, 0};
    int key = MPI_KEYVAL_INVALID, stale, flag = -1, value = 7;
    void *got = NULL;
    MPI_Datatype t = MPI_DATATYPE_NULL, d = MPI_DATATYPE_NULL, d2 = MPI_DATATYPE_NULL;
    CHECK_OK(MPI_Type_create_keyval(count_copy, count_delete, &key, &c));
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_OK(MPI_Type_set_attr(t, key, &value));
    stale = key;
    CHECK_OK(MPI_Type_free_keyval(&key));
    CHECK_EQ_LONG(key, MPI_KEYVAL_INVALID);
    /* the program can no longer use the key ... */
    CHECK_ERR(MPI_Type_get_attr(t, stale, &got, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_set_attr(t, stale, &value), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_delete_attr(t, stale), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_free_keyval(&stale), MPI_ERR_KEYVAL);
    CHECK_EQ_LONG(c.deletes, 0);
    /* ... but the cached attribute is copied by dup and deleted by free */
    CHECK_OK(MPI_Type_dup(t, &d));
    CHECK_EQ_LONG(c.copies, 1);
    CHECK_OK(MPI_Type_free(&t));
    CHECK_EQ_LONG(c.deletes, 1);
    CHECK_OK(MPI_Type_dup(d, &d2));
    CHECK_EQ_LONG(c.copies, 2);
    CHECK_OK(MPI_Type_free(&d));
    CHECK_OK(MPI_Type_free(&d2));
    CHECK_EQ_LONG(c.deletes, 3);
    /* with its last attribute gone, the key is gone too */
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_ERR(MPI_Type_get_attr(t, stale, &got, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_delete_attr(t, stale), MPI_ERR_KEYVAL);
    CHECK_OK(MPI_Type_free(&t));
    /* freed without ever being used: invalid at once */
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL));
    stale = key;
    CHECK_OK(MPI_Type_free_keyval(&key));
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, stale, &got, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_delete_attr(MPI_INT, stale), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, stale, &value), MPI_ERR_KEYVAL);
}

/* The resident set size in pages, from /proc/self/statm (-1 where there is none). */
static long resident_pages(void)
{
    long size = -1, resident = -1;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL) {
        return -1;
    }
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) {
        resident = -1;
    }
    fclose(f);
    return resident;
}

static void freed_keyvals_take_no_memory(void)
{
    long i, before, after;
    int key = MPI_KEYVAL_INVALID;
    /* warm up, so the registry has reached its working size */
    for (i = 0; i < 1000; ++i) {
        CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL));
        CHECK_OK(MPI_Type_free_keyval(&key));
    }
    before = resident_pages();
    for (i = 0; i < 1000000; ++i) {
        int rc = MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL);
        if (rc == MPI_SUCCESS) {
            rc = MPI_Type_free_keyval(&key);
        }
        if (rc != MPI_SUCCESS) {
            CHECK_OK(rc);
            break;
        }
    }
    after = resident_pages();
    printf("resident pages before %ld, after %ld\n", before, after);
    /* it grew by 77 MiB when freed keyvals stayed; allow 4 MiB of noise */
    if (before > 0 && after > 0) {
        CHECK(after - before < 1024);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    freed_keyvals_are_invalid();
    freed_keyvals_take_no_memory();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
