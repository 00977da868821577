/*
 * test_names_attrs.c: datatype names (MPI_Type_get_name / MPI_Type_set_name), attribute
 * caching on datatypes (keyvals, copy callbacks on MPI_Type_dup, delete callbacks on
 * MPI_Type_free / MPI_Type_delete_attr / replacement), and MPI_Type_match_size.
 */
#include "check.h"

static void check_name_(MPI_Datatype t, const char *expected, const char *file, int line)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    memset(name, 'Z', sizeof name);
    if (check_ok_(MPI_Type_get_name(t, name, &len), "MPI_Type_get_name", file, line)) {
        name[MPI_MAX_OBJECT_NAME - 1] = '\0';
        check_eq_str_(name, expected, "name", "expected name", file, line);
        check_eq_long_(len, (long)strlen(expected), "resultlen", "strlen(expected)", file,
                       line);
    }
}

#define CHECK_NAME(t, expected) check_name_((t), (expected), __FILE__, __LINE__)

static void test_predefined_names(void)
{
    CHECK_NAME(MPI_INT, "MPI_INT");
    CHECK_NAME(MPI_DOUBLE, "MPI_DOUBLE");
    CHECK_NAME(MPI_CHAR, "MPI_CHAR");
    CHECK_NAME(MPI_BYTE, "MPI_BYTE");
    CHECK_NAME(MPI_PACKED, "MPI_PACKED");
    CHECK_NAME(MPI_FLOAT, "MPI_FLOAT");
    CHECK_NAME(MPI_SHORT, "MPI_SHORT");
    CHECK_NAME(MPI_UNSIGNED, "MPI_UNSIGNED");
    CHECK_NAME(MPI_LONG, "MPI_LONG");
#ifndef MPI_DTYPE_STANDARD_ABI /* the MPI-1 markers: not in the standard ABI */
    CHECK_NAME(MPI_LB, "MPI_LB");
    CHECK_NAME(MPI_UB, "MPI_UB");
#endif
    CHECK_NAME(MPI_DOUBLE_INT, "MPI_DOUBLE_INT");
    CHECK_NAME(MPI_SHORT_INT, "MPI_SHORT_INT");
    CHECK_NAME(MPI_2INT, "MPI_2INT");
    CHECK_NAME(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT");
    CHECK_NAME(MPI_REAL8, "MPI_REAL8");
    CHECK_NAME(MPI_INTEGER4, "MPI_INTEGER4");
    CHECK_NAME(MPI_INT64_T, "MPI_INT64_T");
    CHECK_NAME(MPI_UINT8_T, "MPI_UINT8_T");
    CHECK_NAME(MPI_C_BOOL, "MPI_C_BOOL");
    CHECK_NAME(MPI_AINT, "MPI_AINT");
    CHECK_NAME(MPI_COUNT, "MPI_COUNT");
}

static void test_set_get_name(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, d = MPI_DATATYPE_NULL, d2 = MPI_DATATYPE_NULL;
    char longname[200];
    char expected[MPI_MAX_OBJECT_NAME];

    /* a new derived type has the empty name */
    CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
    CHECK_NAME(t, "");
    CHECK_OK(MPI_Type_set_name(t, "halo column"));
    CHECK_NAME(t, "halo column");
    /* setting again replaces the name */
    CHECK_OK(MPI_Type_set_name(t, "x"));
    CHECK_NAME(t, "x");
    /* committing keeps it */
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_NAME(t, "x");
    /* dup does not copy the name */
    CHECK_OK(MPI_Type_dup(t, &d));
    CHECK_NAME(d, "");
    /* nor does dup of a predefined type */
    CHECK_OK(MPI_Type_dup(MPI_INT, &d2));
    CHECK_NAME(d2, "");
    CHECK_NAME(MPI_INT, "MPI_INT");
    /* names are per object */
    CHECK_OK(MPI_Type_set_name(d, "the dup"));
    CHECK_NAME(d, "the dup");
    CHECK_NAME(t, "x");
    /* the empty name can be set */
    CHECK_OK(MPI_Type_set_name(d, ""));
    CHECK_NAME(d, "");
    /* a name of MPI_MAX_OBJECT_NAME - 1 characters is kept whole; a longer one is truncated
       to that length */
    memset(longname, 'a', sizeof longname);
    longname[MPI_MAX_OBJECT_NAME - 1] = '\0';
    CHECK_OK(MPI_Type_set_name(t, longname));
    CHECK_NAME(t, longname);
    longname[MPI_MAX_OBJECT_NAME - 1] = 'b';
    longname[sizeof longname - 1] = '\0';
    memset(expected, 'a', sizeof expected);
    expected[MPI_MAX_OBJECT_NAME - 1] = '\0';
    CHECK_OK(MPI_Type_set_name(t, longname));
    CHECK_NAME(t, expected);

    CHECK_OK(MPI_Type_free(&d2));
    CHECK_OK(MPI_Type_free(&d));
    CHECK_OK(MPI_Type_free(&t));
}

/* What the callbacks saw; passed as extra_state (no globals). */
typedef struct {
    int copies;
    int deletes;
    void *last_deleted;
    MPI_Datatype last_type;
    int last_keyval;
} calls_t;

static int counting_delete(MPI_Datatype type, int keyval, void *attribute_val, void *extra)
{
    calls_t *calls = (calls_t *)extra;
    calls->deletes++;
    calls->last_deleted = attribute_val;
    calls->last_type = type;
    calls->last_keyval = keyval;
    return MPI_SUCCESS;
}

static int counting_copy(MPI_Datatype oldtype, int keyval, void *extra, void *attribute_val_in,
                         void *attribute_val_out, int *flag)
{
    calls_t *calls = (calls_t *)extra;
    (void)oldtype;
    (void)keyval;
    calls->copies++;
    /* copy a different value, to see that the copy's result is what is cached */
    *(void **)attribute_val_out = (char *)attribute_val_in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int refusing_copy(MPI_Datatype oldtype, int keyval, void *extra, void *attribute_val_in,
                         void *attribute_val_out, int *flag)
{
    calls_t *calls = (calls_t *)extra;
    (void)oldtype;
    (void)keyval;
    (void)attribute_val_in;
    (void)attribute_val_out;
    calls->copies++;
    *flag = 0;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Datatype oldtype, int keyval, void *extra, void *attribute_val_in,
                        void *attribute_val_out, int *flag)
{
    (void)oldtype;
    (void)keyval;
    (void)extra;
    (void)attribute_val_in;
    (void)attribute_val_out;
    *flag = 0;
    return MPI_ERR_OTHER;
}

static void test_attributes(void)
{
    calls_t c1, c2, c3, c4;
    int k1 = MPI_KEYVAL_INVALID, k2 = MPI_KEYVAL_INVALID, k3 = MPI_KEYVAL_INVALID;
    int k4 = MPI_KEYVAL_INVALID;
    int value1 = 1, value2 = 2, value3 = 3;
    char block[8];
    MPI_Datatype t = MPI_DATATYPE_NULL, d = MPI_DATATYPE_NULL;
    void *got = NULL;
    int flag = -1;

    memset(&c1, 0, sizeof c1);
    memset(&c2, 0, sizeof c2);
    memset(&c3, 0, sizeof c3);
    memset(&c4, 0, sizeof c4);
    /* k1 copies the value on dup; k2 is not copied; k3 copies through a callback; k4 refuses */
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, counting_delete, &k1, &c1));
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, counting_delete, &k2, &c2));
    CHECK_OK(MPI_Type_create_keyval(counting_copy, counting_delete, &k3, &c3));
    CHECK_OK(MPI_Type_create_keyval(refusing_copy, MPI_TYPE_NULL_DELETE_FN, &k4, &c4));
    CHECK(k1 != MPI_KEYVAL_INVALID);
    CHECK(k1 != k2 && k2 != k3 && k1 != k3 && k3 != k4);

    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    /* nothing cached yet */
    CHECK_OK(MPI_Type_get_attr(t, k1, &got, &flag));
    CHECK_EQ_LONG(flag, 0);

    CHECK_OK(MPI_Type_set_attr(t, k1, &value1));
    CHECK_OK(MPI_Type_set_attr(t, k2, &value2));
    CHECK_OK(MPI_Type_set_attr(t, k3, block));
    CHECK_OK(MPI_Type_set_attr(t, k4, &value3));
    CHECK_OK(MPI_Type_get_attr(t, k1, &got, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK(got == &value1);
    CHECK_OK(MPI_Type_get_attr(t, k2, &got, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK(got == &value2);
    CHECK_EQ_LONG(c1.deletes + c2.deletes + c3.deletes, 0);

    /* dup: k1 copied as is, k2 not copied, k3 copied as the callback says, k4 refused */
    CHECK_OK(MPI_Type_dup(t, &d));
    CHECK_OK(MPI_Type_get_attr(d, k1, &got, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK(got == &value1);
    got = NULL;
    CHECK_OK(MPI_Type_get_attr(d, k2, &got, &flag));
    CHECK_EQ_LONG(flag, 0);
    CHECK_OK(MPI_Type_get_attr(d, k3, &got, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK(got == block + 1);
    CHECK_EQ_LONG(c3.copies, 1);
    CHECK_OK(MPI_Type_get_attr(d, k4, &got, &flag));
    CHECK_EQ_LONG(flag, 0);
    CHECK_EQ_LONG(c4.copies, 1);
    /* the original is unchanged */
    CHECK_OK(MPI_Type_get_attr(t, k3, &got, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK(got == block);

    /* replacing a value runs the delete callback on the old one */
    CHECK_OK(MPI_Type_set_attr(t, k1, &value3));
    CHECK_EQ_LONG(c1.deletes, 1);
    CHECK(c1.last_deleted == &value1);
    CHECK_EQ_LONG(c1.last_type, t);
    CHECK_EQ_LONG(c1.last_keyval, k1);
    CHECK_OK(MPI_Type_get_attr(t, k1, &got, &flag));
    CHECK(got == &value3);
    /* the dup's value is its own */
    CHECK_OK(MPI_Type_get_attr(d, k1, &got, &flag));
    CHECK(got == &value1);

    /* delete_attr runs the delete callback; the attribute is gone */
    CHECK_OK(MPI_Type_delete_attr(t, k2));
    CHECK_EQ_LONG(c2.deletes, 1);
    CHECK(c2.last_deleted == &value2);
    CHECK_OK(MPI_Type_get_attr(t, k2, &got, &flag));
    CHECK_EQ_LONG(flag, 0);

    /* a keyval can be freed while attributes still use it */
    {
        int k1_value = k1;
        CHECK_OK(MPI_Type_free_keyval(&k1));
        CHECK_EQ_LONG(k1, MPI_KEYVAL_INVALID);
        k1 = k1_value;
    }

    /* freeing a type runs the delete callbacks of its attributes */
    CHECK_OK(MPI_Type_free(&d));
    CHECK_EQ_LONG(c1.deletes, 2);
    CHECK(c1.last_deleted == &value1);
    CHECK_EQ_LONG(c3.deletes, 1);
    CHECK(c3.last_deleted == block + 1);
    CHECK_OK(MPI_Type_free(&t));
    CHECK_EQ_LONG(c1.deletes, 3);
    CHECK(c1.last_deleted == &value3);
    CHECK_EQ_LONG(c3.deletes, 2);
    CHECK(c3.last_deleted == block);
    CHECK_EQ_LONG(c2.deletes, 1);

    /* a copy callback that fails makes MPI_Type_dup fail */
    {
        int k5 = MPI_KEYVAL_INVALID;
        int rc;
        CHECK_OK(MPI_Type_create_keyval(failing_copy, MPI_TYPE_NULL_DELETE_FN, &k5, NULL));
        CHECK_OK(MPI_Type_contiguous(3, MPI_INT, &t));
        CHECK_OK(MPI_Type_set_attr(t, k5, &value1));
        rc = MPI_Type_dup(t, &d);
        CHECK(rc != MPI_SUCCESS);
        if (rc == MPI_SUCCESS) {
            CHECK_OK(MPI_Type_free(&d));
        }
        CHECK_OK(MPI_Type_free(&t));
        CHECK_OK(MPI_Type_free_keyval(&k5));
    }

    /* an invalid keyval */
    CHECK_OK(MPI_Type_contiguous(1, MPI_INT, &t));
    CHECK_ERR(MPI_Type_get_attr(t, MPI_KEYVAL_INVALID, &got, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_set_attr(t, MPI_KEYVAL_INVALID, &value1), MPI_ERR_KEYVAL);
    CHECK_OK(MPI_Type_free(&t));

    CHECK_OK(MPI_Type_free_keyval(&k2));
    CHECK_EQ_LONG(k2, MPI_KEYVAL_INVALID);
    CHECK_OK(MPI_Type_free_keyval(&k3));
    CHECK_OK(MPI_Type_free_keyval(&k4));
}

static void test_match_size(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int size = 0;
    CHECK_OK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t));
    CHECK_EQ_LONG(t, MPI_REAL8);
    /* the others: a predefined type of the asked size */
    {
        const int classes[3] = {MPI_TYPECLASS_REAL, MPI_TYPECLASS_INTEGER, MPI_TYPECLASS_COMPLEX};
        const int sizes[3] = {4, 4, 16};
        int k;
        for (k = 0; k < 3; ++k) {
            int ni = -1, na = -1, nd = -1, comb = -1;
            t = MPI_DATATYPE_NULL;
            CHECK_OK(MPI_Type_match_size(classes[k], sizes[k], &t));
            CHECK_OK(MPI_Type_size(t, &size));
            CHECK_EQ_LONG(size, sizes[k]);
            CHECK_OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
            CHECK_EQ_LONG(comb, MPI_COMBINER_NAMED);
        }
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    test_predefined_names();
    test_set_get_name();
    test_attributes();
    test_match_size();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
