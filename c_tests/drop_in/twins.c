/*
 * twins.c: mpi-dtype's drop-in mode as MPICH itself sees it, in one process under
 * LD_PRELOAD=libmpi_dtype.so (built with mpicc.mpich).
 *
 * MPICH's own functions are reached with dlsym on libmpich, past the preload:
 *   - the twin MPICH gets of every datatype the program makes has the standard's type map in
 *     MPICH: MPICH packs the bytes mpi-dtype's MPI_Pack writes, for types where MPICH's own
 *     constructors compute other bounds (the deviations of docs/conformance.md);
 *   - MPICH sends and receives them (MPI_Sendrecv to itself);
 *   - datatypes and keyvals MPICH made itself go to MPICH: queries, decoding, packing,
 *     constructors built on them, attributes with MPICH's keyvals, and MPI_Type_free;
 *   - MPI_Finalize is clean.
 */
#define _GNU_SOURCE /* RTLD_NOLOAD */
#include "check.h"

#include <dlfcn.h>

typedef int (*vector_fn)(int, int, int, MPI_Datatype, MPI_Datatype *);
typedef int (*handle_fn)(MPI_Datatype *);
typedef int (*keyval_fn)(MPI_Type_copy_attr_function *, MPI_Type_delete_attr_function *, int *,
                         void *);

static void *mpich;

/* CHECK with a message saying what was checked, printed when it fails. */
#define CHECK_MSG(cond, ...)                                                                 \
    do {                                                                                     \
        if (!CHECK(cond)) {                                                                  \
            printf("    ");                                                                  \
            printf(__VA_ARGS__);                                                             \
            printf("\n");                                                                    \
        }                                                                                    \
    } while (0)

static void *mpich_function(const char *name)
{
    void *f = dlsym(mpich, name);
    if (!f) {
        fprintf(stderr, "FAILED: libmpich has no %s\n", name);
        exit(1);
    }
    return f;
}

/* MPICH's own view of `type`: the program holds mpi-dtype's own handle, and the twin MPICH
 * gets at the first call that takes the type there has the standard's type map and extent.
 * With MPI_DTYPE_COMM=mpi (set in main) every message takes MPICH's path with the twin, so
 * MPICH itself packs 3 copies sent with the type into a receive of bytes: they are the bytes
 * mpi-dtype's MPI_Pack writes, for types where MPICH's own constructors compute other bounds
 * (the deviations of docs/conformance.md). */
static void check_twin(const char *what, MPI_Datatype type)
{
    CHECK_OK(MPI_Type_commit(&type));
    CHECK_MSG(((unsigned)type & 0xfc000000u) == 0x0c000000u,
              "%s: handle %#x is mpi-dtype's own", what, (unsigned)type);
    static unsigned char source[1 << 16];
    for (size_t i = 0; i < sizeof source; i++)
        source[i] = (unsigned char)(i * 7 + 3);
    /* The middle of the buffer: room for negative displacements. */
    const unsigned char *from = source + sizeof source / 2;
    static unsigned char ours[1 << 14], theirs[1 << 14];
    memset(ours, 0, sizeof ours);
    memset(theirs, 0, sizeof theirs);
    int n_ours = 0, n_theirs = -1;
    CHECK_OK(MPI_Pack(from, 3, type, ours, sizeof ours, &n_ours, MPI_COMM_SELF));
    MPI_Status status;
    CHECK_OK(MPI_Sendrecv(from, 3, type, 0, 5, theirs, sizeof theirs, MPI_BYTE, 0, 5,
                          MPI_COMM_SELF, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_BYTE, &n_theirs));
    CHECK_MSG(n_ours == n_theirs && memcmp(ours, theirs, (size_t)n_ours) == 0,
              "%s: 3 copies pack to the same %d bytes (MPICH: %d)", what, n_ours, n_theirs);

    /* MPICH moves it: the received copy is packed back to the same bytes. */
    static unsigned char sent[1 << 16], got[1 << 16];
    for (size_t i = 0; i < sizeof sent; i++)
        sent[i] = (unsigned char)(i * 13 + 1);
    memset(got, 0, sizeof got);
    size_t mid = sizeof sent / 2;
    CHECK_OK(MPI_Sendrecv(sent + mid, 2, type, 0, 7, got + mid, 2, type, 0, 7, MPI_COMM_SELF,
                          MPI_STATUS_IGNORE));
    int a = 0, b = 0;
    CHECK_OK(MPI_Pack(sent + mid, 2, type, ours, sizeof ours, &a, MPI_COMM_SELF));
    CHECK_OK(MPI_Pack(got + mid, 2, type, theirs, sizeof theirs, &b, MPI_COMM_SELF));
    CHECK_MSG(a == b && memcmp(ours, theirs, (size_t)a) == 0, "%s: MPICH moved every byte", what);
    CHECK_OK(MPI_Type_free(&type));
}

static int copies, deletes;
static int failing_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)k, (void)extra, (void)in, (void)out, (void)flag;
    return MPI_ERR_OTHER;
}
static int count_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)k, (void)extra;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    copies++;
    return MPI_SUCCESS;
}
static int count_delete(MPI_Datatype t, int k, void *value, void *extra)
{
    (void)t, (void)k, (void)value, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

/* Callbacks of attributes on predefined types and of the type being freed. */
static int predefined_copies, freed_combiner, fail_once = 1, own_deletes;
static char freed_name[MPI_MAX_OBJECT_NAME];
static int copy_counted(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)k, (void)extra;
    *(void **)out = in;
    *flag = 1;
    predefined_copies++;
    return MPI_SUCCESS;
}
static int look_at_freed(MPI_Datatype t, int k, void *value, void *extra)
{
    int ni, na, nd, len = 0;
    (void)k, (void)value, (void)extra;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &freed_combiner);
    MPI_Type_get_name(t, freed_name, &len);
    return MPI_SUCCESS;
}
static int count_own_delete(MPI_Datatype t, int k, void *value, void *extra)
{
    (void)t, (void)k, (void)value, (void)extra;
    own_deletes++;
    return MPI_SUCCESS;
}
static int fail_first_delete(MPI_Datatype t, int k, void *value, void *extra)
{
    (void)t, (void)k, (void)value, (void)extra;
    return fail_once-- > 0 ? MPI_ERR_OTHER : MPI_SUCCESS;
}

typedef int (*contiguous_fn)(int, MPI_Datatype, MPI_Datatype *);

static void check_callbacks(void)
{
    /* Twins made inside mpi-dtype copy no attribute of a predefined type: only the program's
     * MPI_Type_dup(MPI_INT) runs the copy callback. */
    int key = MPI_KEYVAL_INVALID;
    MPI_Datatype d, c, child, f;
    CHECK_OK(MPI_Type_create_keyval(copy_counted, MPI_TYPE_NULL_DELETE_FN, &key, NULL));
    CHECK_OK(MPI_Type_set_attr(MPI_INT, key, &predefined_copies));
    CHECK_OK(MPI_Type_set_attr(MPI_DOUBLE, key, &predefined_copies));
    CHECK_OK(MPI_Type_dup(MPI_INT, &d));
    CHECK_OK(MPI_Type_contiguous(2, d, &c));
    int ints[1];
    CHECK_OK(MPI_Type_get_contents(c, 1, 0, 1, ints, NULL, &child));
    CHECK_OK(MPI_Type_create_f90_real(15, MPI_UNDEFINED, &f));
    CHECK_EQ_LONG(predefined_copies, 1);
    CHECK_OK(MPI_Type_free(&child));
    CHECK_OK(MPI_Type_free(&c));
    CHECK_OK(MPI_Type_free(&d));
    CHECK_OK(MPI_Type_delete_attr(MPI_INT, key));
    CHECK_OK(MPI_Type_delete_attr(MPI_DOUBLE, key));
    CHECK_OK(MPI_Type_free_keyval(&key));

    /* A delete callback run by MPI_Type_free sees the type being freed. */
    MPI_Datatype v;
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, look_at_freed, &key, NULL));
    CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    CHECK_OK(MPI_Type_set_name(v, "freed vector"));
    CHECK_OK(MPI_Type_set_attr(v, key, NULL));
    CHECK_OK(MPI_Type_free(&v));
    CHECK_EQ_LONG(freed_combiner, MPI_COMBINER_VECTOR);
    CHECK_EQ_STR(freed_name, "freed vector");
    CHECK_OK(MPI_Type_free_keyval(&key));

    /* MPICH decodes a type it made around one of mpi-dtype's: the child comes back as a new
     * handle, and freeing it leaves the program's own handle whole. */
    contiguous_fn mpich_contiguous = (contiguous_fn)mpich_function("PMPI_Type_contiguous");
    MPI_Datatype theirs, mine, both, kids[2];
    CHECK_OK(mpich_contiguous(2, MPI_INT, &theirs));
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &mine));
    CHECK_OK(MPI_Type_set_name(mine, "mine"));
    {
        int lengths[2] = {1, 1};
        MPI_Aint places[2] = {0, 64}, addrs[2];
        MPI_Datatype types[2] = {mine, theirs};
        int ints3[3];
        CHECK_OK(MPI_Type_create_struct(2, lengths, places, types, &both));
        CHECK_OK(MPI_Type_get_contents(both, 3, 2, 2, ints3, addrs, kids));
    }
    CHECK(kids[0] != mine);
    CHECK_OK(MPI_Type_free(&kids[0]));
    CHECK_OK(MPI_Type_free(&kids[1]));
    int ni, na, nd, combiner, len = 0;
    char name[MPI_MAX_OBJECT_NAME];
    CHECK_OK(MPI_Type_get_envelope(mine, &ni, &na, &nd, &combiner));
    CHECK_EQ_LONG(combiner, MPI_COMBINER_VECTOR);
    CHECK_OK(MPI_Type_get_name(mine, name, &len));
    CHECK_EQ_STR(name, "mine");
    CHECK_OK(MPI_Type_free(&both));
    CHECK_OK(MPI_Type_free(&mine));
    CHECK_OK(MPI_Type_free(&theirs));
}

int main(int argc, char **argv)
{
    /* Every message takes MPICH's path, with the twins (check_twin). */
    setenv("MPI_DTYPE_COMM", "mpi", 1);
    /* Keys made before MPI_Init are mpi-dtype's: a delete callback that fails makes
     * MPI_Type_free fail, and the attributes deleted before it are not deleted again. */
    int own_a = MPI_KEYVAL_INVALID, own_b = MPI_KEYVAL_INVALID;
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_own_delete, &own_a, NULL));
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, fail_first_delete, &own_b, NULL));
    /* A type made before MPI_Init gets its twin at its first call in MPICH, as any other. */
    MPI_Datatype early;
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &early));
    CHECK_OK(MPI_Init(&argc, &argv));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    {
        MPI_Datatype v;
        CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
        CHECK_OK(MPI_Type_set_attr(v, own_a, NULL));
        CHECK_OK(MPI_Type_set_attr(v, own_b, NULL));
        CHECK(MPI_Type_free(&v) != MPI_SUCCESS);
        CHECK_OK(MPI_Type_free(&v));
        CHECK_EQ_LONG(own_deletes, 1);
        CHECK_OK(MPI_Type_free_keyval(&own_a));
        CHECK_OK(MPI_Type_free_keyval(&own_b));
    }
    mpich = dlopen("libmpich.so.12", RTLD_NOW | RTLD_NOLOAD);
    CHECK_MSG(mpich != NULL, "libmpich.so.12 is loaded");
    if (!mpich)
        return check_report(argv[0]);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Types where MPICH's own constructors give other bounds than the standard. */
    MPI_Datatype t, u, v;
    MPI_Type_create_hvector(2, 1, 26, MPI_UINT32_T, &t); /* extent 32, MPICH 30 */
    check_twin("vector(3, 1, 2, int) made before MPI_Init", early);
    /* An uncommitted type reaches MPICH as an uncommitted twin, which MPICH refuses; once
     * committed (its twin too), MPICH moves it. */
    {
        MPI_Datatype loose;
        int data[6] = {1, 2, 3, 4, 5, 6}, got[3] = {0, 0, 0}, class = -1;
        CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &loose));
        int rc = MPI_Send(data, 1, loose, 0, 8, MPI_COMM_SELF);
        MPI_Error_class(rc, &class);
        CHECK_MSG(rc != MPI_SUCCESS && class == MPI_ERR_TYPE,
                  "an uncommitted type is MPI_ERR_TYPE in MPICH (rc %d, class %d)", rc, class);
        CHECK_OK(MPI_Type_commit(&loose));
        CHECK_OK(MPI_Sendrecv(data, 1, loose, 0, 9, got, 3, MPI_INT, 0, 9, MPI_COMM_SELF,
                              MPI_STATUS_IGNORE));
        CHECK_MSG(got[0] == 1 && got[1] == 3 && got[2] == 5, "the committed type moved");
        CHECK_OK(MPI_Type_free(&loose));
    }
    check_twin("hvector(2, 1, 26 bytes, uint32)", t);
    MPI_Type_create_hvector(4, 1, 60, MPI_DOUBLE_INT, &t); /* extent 192, MPICH 196 */
    check_twin("hvector(4, 1, 60 bytes, double_int)", t);
    MPI_Type_create_resized(MPI_INT, 0, 8, &u);
    {
        int lengths[2] = {1, 1};
        MPI_Aint places[2] = {0, -28};
        MPI_Datatype types[2] = {MPI_INT, u};
        MPI_Type_create_struct(2, lengths, places, types, &t); /* markers decide: extent 8 */
        check_twin("struct(int at 0, resized(int, 0, 8) at -28)", t);
    }
    {
        MPI_Type_vector(1, 0, 1, u, &v); /* empty: MPICH's MPI_Pack divides by zero */
        int lengths[2] = {1, 1};
        MPI_Aint places[2] = {0, 8};
        MPI_Datatype types[2] = {v, MPI_INT};
        MPI_Type_create_struct(2, lengths, places, types, &t);
        check_twin("struct(empty vector of resized, int)", t);
        MPI_Type_free(&v);
    }
    MPI_Type_vector(3, 0, 4, MPI_BYTE, &v);
    {
        int lengths[2] = {1, 2};
        MPI_Aint places[2] = {4, 16};
        MPI_Datatype types[2] = {v, MPI_SHORT};
        MPI_Type_create_struct(2, lengths, places, types, &t); /* the empty vector moves nothing */
        check_twin("struct(vector(3, 0, 4, byte), 2 short)", t);
    }
    MPI_Type_free(&v);
    {
        int gsizes[2] = {6, 5}, distribs[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC};
        int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[2] = {2, 2};
        MPI_Type_create_darray(4, 3, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT,
                               &t); /* NONE over 2 processes: the whole dimension */
        check_twin("darray(NONE over 2 processes, CYCLIC(2))", t);
        int sizes[3] = {5, 6, 7}, subsizes[3] = {2, 3, 4}, starts[3] = {1, 2, 3};
        MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, u, &t);
        check_twin("subarray of resized ints, Fortran order", t);
    }
    {
        int lengths[3] = {2, 0, 3}, places[3] = {5, 1, -2};
        MPI_Type_indexed(3, lengths, places, MPI_DOUBLE, &t);
        MPI_Type_dup(t, &v);
        MPI_Type_free(&t);
        check_twin("dup of indexed", v);
    }
    MPI_Type_free(&u);
    /* MPICH gives types built on MPIX_C_FLOAT16 a size of 0: the twin stands in uint16. */
    MPI_Type_contiguous(3, MPIX_C_FLOAT16, &t);
    check_twin("contiguous(3, MPIX_C_FLOAT16)", t);

    /* A type MPICH made itself, and calls with it. */
    vector_fn mpich_vector = (vector_fn)mpich_function("PMPI_Type_vector");
    handle_fn mpich_commit = (handle_fn)mpich_function("PMPI_Type_commit");
    MPI_Datatype foreign = MPI_DATATYPE_NULL;
    CHECK_OK(mpich_vector(3, 2, 4, MPI_INT, &foreign));
    CHECK_OK(mpich_commit(&foreign));
    int size = 0, ni, na, nd, combiner;
    MPI_Aint lb, extent;
    CHECK_OK(MPI_Type_size(foreign, &size));
    CHECK_EQ_LONG(size, 24);
    CHECK_OK(MPI_Type_get_extent(foreign, &lb, &extent));
    CHECK_EQ_LONG(extent, 40);
    CHECK_OK(MPI_Type_get_envelope(foreign, &ni, &na, &nd, &combiner));
    CHECK_EQ_LONG(combiner, MPI_COMBINER_VECTOR);
    {
        int ints[3];
        MPI_Aint addrs[1];
        MPI_Datatype types[1];
        CHECK_OK(MPI_Type_get_contents(foreign, 3, 0, 1, ints, addrs, types));
        CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && types[0] == MPI_INT);
    }
    {
        int data[12], packed[6], position = 0;
        for (int i = 0; i < 12; i++)
            data[i] = i;
        CHECK_OK(MPI_Pack(data, 1, foreign, packed, sizeof packed, &position, MPI_COMM_SELF));
        CHECK(position == 24 && packed[0] == 0 && packed[1] == 1 && packed[2] == 4 &&
              packed[5] == 9);
    }
    /* Built on it: MPICH builds it, and answers for it. */
    MPI_Datatype built;
    CHECK_OK(MPI_Type_contiguous(2, foreign, &built));
    CHECK_OK(MPI_Type_size(built, &size));
    CHECK_EQ_LONG(size, 48);
    CHECK_OK(MPI_Type_free(&built));
    MPI_Datatype ours;
    MPI_Type_contiguous(3, MPI_SHORT, &ours);
    {
        int lengths[2] = {1, 1};
        MPI_Aint places[2] = {0, 64};
        MPI_Datatype types[2] = {foreign, ours};
        CHECK_OK(MPI_Type_create_struct(2, lengths, places, types, &built));
        CHECK_OK(MPI_Type_size(built, &size));
        CHECK_EQ_LONG(size, 30);
        CHECK_OK(MPI_Type_free(&built));
    }

    /* MPICH's keyvals: attributes on MPICH's type and on mpi-dtype's go to MPICH. */
    keyval_fn mpich_keyval = (keyval_fn)mpich_function("PMPI_Type_create_keyval");
    int key = MPI_KEYVAL_INVALID, flag = 0;
    CHECK_OK(mpich_keyval(count_copy, count_delete, &key, NULL));
    static char anchor[4];
    CHECK_OK(MPI_Type_set_attr(ours, key, anchor));
    CHECK_OK(MPI_Type_set_attr(foreign, key, anchor));
    void *value = NULL;
    MPI_Datatype copy;
    CHECK_OK(MPI_Type_dup(ours, &copy));
    CHECK_OK(MPI_Type_get_attr(copy, key, &value, &flag));
    CHECK(flag && value == anchor + 1 && copies == 1);
    CHECK_OK(MPI_Type_free(&copy));
    CHECK_OK(MPI_Type_delete_attr(foreign, key));
    CHECK_EQ_LONG(deletes, 2);
    CHECK_OK(MPI_Type_free_keyval(&key));
    CHECK_EQ_LONG(key, MPI_KEYVAL_INVALID);
    CHECK_OK(MPI_Type_free(&ours));
    CHECK_EQ_LONG(deletes, 3);
    /* A copy callback's error is MPI_Type_dup's error, of the callback's class. */
    {
        int failing = MPI_KEYVAL_INVALID, class = -1;
        MPI_Datatype base, copy2 = MPI_DATATYPE_NULL;
        MPI_Type_contiguous(2, MPI_INT, &base);
        CHECK_OK(MPI_Type_create_keyval(failing_copy, MPI_TYPE_NULL_DELETE_FN, &failing, NULL));
        CHECK_OK(MPI_Type_set_attr(base, failing, anchor));
        int rc = MPI_Type_dup(base, &copy2);
        MPI_Error_class(rc, &class);
        CHECK_EQ_LONG(class, MPI_ERR_OTHER);
        CHECK_OK(MPI_Type_free(&base));
        CHECK_OK(MPI_Type_free_keyval(&failing));
    }
    CHECK_OK(MPI_Type_free(&foreign));
    CHECK_EQ_LONG(foreign, MPI_DATATYPE_NULL);

    check_callbacks();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
