/* attributes: datatype attribute caching on derived types.  Four keyvals made with
 * MPI_Type_create_keyval: one whose copy callback stores the old value plus one and whose
 * delete callback counts, one with MPI_TYPE_NULL_COPY_FN, one whose copy callback declines
 * (flag 0), one with MPI_TYPE_DUP_FN.  MPI_Type_set_attr on a vector type, MPI_Type_dup
 * (the copy callbacks run once per attribute, with the old type's handle and the keyval's
 * extra_state), MPI_Type_get_attr on both types, replacing a value (the delete callback
 * sees the old value), MPI_Type_delete_attr, MPI_Type_free_keyval while attributes still use
 * the keyval (their delete callbacks still run later), MPI_Type_free (the delete callbacks
 * run for the remaining attributes, with the freed type's handle).  The types, duplicates
 * included, carry data in MPI_Sendrecv between ring neighbours on a duplicate of
 * MPI_COMM_WORLD, and a duplicate still works after its original is freed.  Every callback
 * count is checked after every step.  Types are freed newest first: MPICH runs the delete
 * callbacks of a freed type only once no type built from it (a duplicate) is left. */
#include "check_mpi.h"

struct counts {
    int copies, deletes, last_deleted, bad_extra;
    MPI_Datatype last_copy_type, last_delete_type;
    int last_copy_keyval, last_delete_keyval;
    const char *name;
};

static struct counts c1 = {.name = "k1"}, c2 = {.name = "k2"}, c3 = {.name = "k3"},
                     c4 = {.name = "k4"};
static int pool[64];
static int npool;

static int *newval(int v)
{
    pool[npool] = v;
    return &pool[npool++];
}

static int copy_plus_one(MPI_Datatype oldtype, int keyval, void *extra, void *in, void *out,
                         int *flag)
{
    struct counts *c = (struct counts *)extra;
    if (c != &c1)
        c1.bad_extra++;
    c->copies++;
    c->last_copy_type = oldtype;
    c->last_copy_keyval = keyval;
    *(int **)out = newval(*(int *)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_decline(MPI_Datatype oldtype, int keyval, void *extra, void *in, void *out,
                        int *flag)
{
    struct counts *c = (struct counts *)extra;
    (void)in;
    (void)out;
    if (c != &c3)
        c3.bad_extra++;
    c->copies++;
    c->last_copy_type = oldtype;
    c->last_copy_keyval = keyval;
    *flag = 0;
    return MPI_SUCCESS;
}

static int delete_count(MPI_Datatype type, int keyval, void *val, void *extra)
{
    struct counts *c = (struct counts *)extra;
    if (c != &c1 && c != &c2 && c != &c4)
        c1.bad_extra++;
    c->deletes++;
    c->last_deleted = *(int *)val;
    c->last_delete_type = type;
    c->last_delete_keyval = keyval;
    return MPI_SUCCESS;
}

static void expect_counts(const char *step, int copies1, int deletes1, int deletes2, int copies3,
                          int deletes4)
{
    char what[200];
    snprintf(what, sizeof what, "attributes: %s: copy callbacks of k1", step);
    CHECK_INT(c1.copies, copies1, what);
    snprintf(what, sizeof what, "attributes: %s: delete callbacks of k1", step);
    CHECK_INT(c1.deletes, deletes1, what);
    snprintf(what, sizeof what, "attributes: %s: delete callbacks of k2", step);
    CHECK_INT(c2.deletes, deletes2, what);
    snprintf(what, sizeof what, "attributes: %s: copy callbacks of k3", step);
    CHECK_INT(c3.copies, copies3, what);
    snprintf(what, sizeof what, "attributes: %s: delete callbacks of k4", step);
    CHECK_INT(c4.deletes, deletes4, what);
    snprintf(what, sizeof what, "attributes: %s: extra_state passed to the callbacks", step);
    CHECK_INT(c1.bad_extra + c3.bad_extra, 0, what);
}

static void expect_attr(MPI_Datatype t, int keyval, int present, int value, const char *what)
{
    int *v = NULL, flag = -1;
    MPI_CHECK(MPI_Type_get_attr(t, keyval, &v, &flag));
    CHECK_INT(flag, present, what);
    if (present && flag)
        CHECK_INT(*v, value, what);
}

/* MPI_Sendrecv of one item of t (vector of 3 blocks of 2 ints, stride 4) around the ring. */
static void ring_exchange(MPI_Comm comm, MPI_Datatype t, int rank, int tag, const char *what)
{
    int s[12], r[12], w[12], i, prev = (rank + 3) % 4, next = (rank + 1) % 4;
    MPI_Status st;
    for (i = 0; i < 12; i++) {
        s[i] = rank * 100 + tag * 1000 + i;
        r[i] = w[i] = -1 - i;
    }
    MPI_CHECK(MPI_Sendrecv(s, 1, t, next, tag, r, 1, t, prev, tag, comm, &st));
    for (i = 0; i < 10; i++)
        if (i % 4 < 2)
            w[i] = prev * 100 + tag * 1000 + i;
    CHECK_INTS(r, w, 12, what);
}

int main(int argc, char **argv)
{
    int rank, size, k1, k2, k3, k4, k5;
    MPI_Datatype t, t2, t3, saved;
    MPI_Comm comm;

    start(&argc, &argv, "attributes", &rank, &size);
    MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));

    MPI_CHECK(MPI_Type_create_keyval(copy_plus_one, delete_count, &k1, &c1));
    MPI_CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, delete_count, &k2, &c2));
    MPI_CHECK(MPI_Type_create_keyval(copy_decline, MPI_TYPE_NULL_DELETE_FN, &k3, &c3));
    MPI_CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, delete_count, &k4, &c4));
    MPI_CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k5, NULL));

    MPI_CHECK(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
    /* k1 is set before the commit, the others after */
    MPI_CHECK(MPI_Type_set_attr(t, k1, newval(10)));
    MPI_CHECK(MPI_Type_commit(&t));
    MPI_CHECK(MPI_Type_set_attr(t, k2, newval(20)));
    MPI_CHECK(MPI_Type_set_attr(t, k3, newval(30)));
    MPI_CHECK(MPI_Type_set_attr(t, k4, newval(40)));
    expect_attr(t, k1, 1, 10, "attributes: k1 on the original (set before commit)");
    expect_attr(t, k2, 1, 20, "attributes: k2 on the original");
    expect_attr(t, k3, 1, 30, "attributes: k3 on the original");
    expect_attr(t, k4, 1, 40, "attributes: k4 on the original");
    expect_attr(t, k5, 0, 0, "attributes: k5 never set");
    expect_counts("after set_attr", 0, 0, 0, 0, 0);
    ring_exchange(comm, t, rank, 1, "attributes: MPI_Sendrecv with the original type");

    MPI_CHECK(MPI_Type_dup(t, &t2));
    expect_counts("after the first MPI_Type_dup", 1, 0, 0, 1, 0);
    CHECK(c1.last_copy_type == t, "attributes: copy callback of k1 gets the old type's handle",
          "got handle %#lx, want %#lx", HANDLE_BITS(c1.last_copy_type), HANDLE_BITS(t));
    CHECK_INT(c1.last_copy_keyval, k1, "attributes: copy callback of k1 gets its keyval");
    CHECK(c3.last_copy_type == t, "attributes: copy callback of k3 gets the old type's handle",
          "got handle %#lx, want %#lx", HANDLE_BITS(c3.last_copy_type), HANDLE_BITS(t));
    CHECK_INT(c3.last_copy_keyval, k3, "attributes: copy callback of k3 gets its keyval");
    expect_attr(t2, k1, 1, 11, "attributes: k1 on the duplicate (copied plus one)");
    expect_attr(t2, k2, 0, 0, "attributes: k2 not copied (MPI_TYPE_NULL_COPY_FN)");
    expect_attr(t2, k3, 0, 0, "attributes: k3 not copied (callback flag 0)");
    expect_attr(t2, k4, 1, 40, "attributes: k4 copied as is (MPI_TYPE_DUP_FN)");
    {
        int *a = NULL, *b = NULL, f1 = 0, f2 = 0;
        MPI_CHECK(MPI_Type_get_attr(t, k4, &a, &f1));
        MPI_CHECK(MPI_Type_get_attr(t2, k4, &b, &f2));
        CHECK(f1 && f2 && a == b, "attributes: MPI_TYPE_DUP_FN copies the pointer", "%p vs %p",
              (void *)a, (void *)b);
    }
    expect_attr(t, k1, 1, 10, "attributes: k1 on the original after the dup");

    MPI_CHECK(MPI_Type_set_attr(t, k1, newval(50)));
    expect_counts("after replacing k1 on the original", 1, 1, 0, 1, 0);
    CHECK_INT(c1.last_deleted, 10, "attributes: replacing k1 deletes the old value");
    CHECK(c1.last_delete_type == t, "attributes: delete callback gets the type's handle",
          "got %#lx, want %#lx", HANDLE_BITS(c1.last_delete_type), HANDLE_BITS(t));
    CHECK_INT(c1.last_delete_keyval, k1, "attributes: delete callback of k1 gets its keyval");
    expect_attr(t, k1, 1, 50, "attributes: k1 on the original after replacing");
    expect_attr(t2, k1, 1, 11, "attributes: k1 on the duplicate after replacing the original's");

    MPI_CHECK(MPI_Type_delete_attr(t, k2));
    expect_counts("after MPI_Type_delete_attr(k2)", 1, 1, 1, 1, 0);
    CHECK_INT(c2.last_deleted, 20, "attributes: MPI_Type_delete_attr passes the value");
    expect_attr(t, k2, 0, 0, "attributes: k2 gone after MPI_Type_delete_attr");

    MPI_CHECK(MPI_Type_dup(t2, &t3));
    expect_counts("after duplicating the duplicate", 2, 1, 1, 1, 0);
    CHECK(c1.last_copy_type == t2, "attributes: copy callback gets the duplicate's handle",
          "got %#lx, want %#lx", HANDLE_BITS(c1.last_copy_type), HANDLE_BITS(t2));
    expect_attr(t3, k1, 1, 12, "attributes: k1 on the second duplicate");
    expect_attr(t3, k4, 1, 40, "attributes: k4 on the second duplicate");
    expect_attr(t3, k3, 0, 0, "attributes: k3 absent on the second duplicate");

    ring_exchange(comm, t2, rank, 2, "attributes: MPI_Sendrecv with the duplicate");
    ring_exchange(comm, t3, rank, 3, "attributes: MPI_Sendrecv with the second duplicate");
    {   /* t2 sends, t3 receives */
        int s[12], r[12], w[12], i, prev = (rank + 3) % 4;
        for (i = 0; i < 12; i++) {
            s[i] = 7 * i + rank;
            r[i] = w[i] = -50 - i;
        }
        MPI_CHECK(MPI_Sendrecv(s, 1, t2, (rank + 1) % 4, 4, r, 1, t3, prev, 4, comm, MPI_STATUS_IGNORE));
        for (i = 0; i < 10; i++)
            if (i % 4 < 2)
                w[i] = 7 * i + prev;
        CHECK_INTS(r, w, 12, "attributes: send with one duplicate, receive with the other");
    }

    /* Free the keyval while three types still hold attributes under it; then free the
     * types, newest first (each type is freed when no other type is built from it). */
    MPI_CHECK(MPI_Type_free_keyval(&k1));
    CHECK(k1 == MPI_KEYVAL_INVALID, "attributes: MPI_Type_free_keyval sets MPI_KEYVAL_INVALID",
          "%d", k1);
    expect_counts("after freeing keyval k1 (still in use)", 2, 1, 1, 1, 0);

    saved = t3;
    MPI_CHECK(MPI_Type_free(&t3));
    CHECK(t3 == MPI_DATATYPE_NULL, "attributes: MPI_Type_free sets MPI_DATATYPE_NULL", "%#lx",
          HANDLE_BITS(t3));
    expect_counts("after freeing the second duplicate", 2, 2, 1, 1, 1);
    CHECK_INT(c1.last_deleted, 12, "attributes: freed keyval's delete callback still runs");
    CHECK(c1.last_delete_type == saved, "attributes: delete callback gets the freed type's handle",
          "got %#lx, want %#lx", HANDLE_BITS(c1.last_delete_type), HANDLE_BITS(saved));
    CHECK_INT(c4.last_deleted, 40, "attributes: freeing deletes k4's value");

    saved = t2;
    MPI_CHECK(MPI_Type_free(&t2));
    expect_counts("after freeing the first duplicate", 2, 3, 1, 1, 2);
    CHECK_INT(c1.last_deleted, 11, "attributes: delete callback for the first duplicate");
    CHECK(c1.last_delete_type == saved, "attributes: delete callback gets the duplicate's handle",
          "got %#lx, want %#lx", HANDLE_BITS(c1.last_delete_type), HANDLE_BITS(saved));

    saved = t;
    MPI_CHECK(MPI_Type_free(&t));
    expect_counts("after freeing the original", 2, 4, 1, 1, 3);
    CHECK_INT(c1.last_deleted, 50, "attributes: freeing deletes k1's current value");
    CHECK(c1.last_delete_type == saved, "attributes: delete callback gets the original's handle",
          "got %#lx, want %#lx", HANDLE_BITS(c1.last_delete_type), HANDLE_BITS(saved));

    /* Freeing a type does not affect a duplicate of it. */
    {
        MPI_Datatype u, u2;
        MPI_CHECK(MPI_Type_vector(3, 2, 4, MPI_INT, &u));
        MPI_CHECK(MPI_Type_commit(&u));
        MPI_CHECK(MPI_Type_dup(u, &u2));
        MPI_CHECK(MPI_Type_free(&u));
        ring_exchange(comm, u2, rank, 5, "attributes: MPI_Sendrecv with a duplicate of a freed type");
        MPI_CHECK(MPI_Type_free(&u2));
    }
    expect_counts("after the attribute-free types", 2, 4, 1, 1, 3);

    MPI_CHECK(MPI_Type_free_keyval(&k2));
    MPI_CHECK(MPI_Type_free_keyval(&k3));
    MPI_CHECK(MPI_Type_free_keyval(&k4));
    MPI_CHECK(MPI_Type_free_keyval(&k5));
    CHECK(k2 == MPI_KEYVAL_INVALID && k3 == MPI_KEYVAL_INVALID && k4 == MPI_KEYVAL_INVALID &&
              k5 == MPI_KEYVAL_INVALID,
          "attributes: the other keyvals freed", "%d %d %d %d", k2, k3, k4, k5);
    expect_counts("at the end", 2, 4, 1, 1, 3);
    MPI_CHECK(MPI_Comm_free(&comm));
    return finish();
}
