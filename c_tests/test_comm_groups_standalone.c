/*
 * test_comm_groups_standalone.c: communicators and groups in the one-process world (the
 * library linked alone, no MPI behind it), in both builds.
 *
 *   - MPI_Comm_dup, _dup_with_info, _idup, _idup_with_info, _split, _split_type (shared
 *     memory, and the hardware splits: guided by mpi_hw_resource_type, unguided into strict
 *     subsets, which one process has not), _create and _create_group make
 *     communicators of the one process (or MPI_COMM_NULL where the process is left out), each
 *     a context of its own: a message sent on one is not received on another;
 *   - a new communicator takes its parent's error handler, has no name until it is given one,
 *     compares MPI_CONGRUENT to the others and MPI_IDENT to itself, and after MPI_Comm_free is
 *     MPI_COMM_NULL and no longer a communicator;
 *   - MPI_Comm_call_errhandler calls the communicator's handler; MPI_Comm_set_info /
 *     _get_info keep the hints; MPI_Pcontrol takes any level and arguments;
 *   - groups: the group of a communicator, the set operations in the standard's order,
 *     MPI_Group_incl / _excl / _range_incl / _range_excl, MPI_Group_translate_ranks and
 *     MPI_Group_compare, with MPI_GROUP_EMPTY for an empty result;
 *   - the errors of a call on a communicator go to that communicator's error handler;
 *   - the predefined attributes (MPI_TAG_UB, MPI_UNIVERSE_SIZE, ...), and the program's own
 *     with their callbacks: MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN and a copy function at
 *     MPI_Comm_dup, delete callbacks when a value is replaced or deleted, when its
 *     communicator is freed (also after its key was), and for MPI_COMM_SELF at MPI_Finalize;
 *   - bad arguments get MPI_ERR_COMM, MPI_ERR_GROUP, MPI_ERR_RANK, MPI_ERR_ARG, MPI_ERR_KEYVAL.
 */
#include "check.h"

/* A message on `a` is not received on `b`, and is on `a`. */
static void contexts_apart(MPI_Comm a, MPI_Comm b)
{
    int x = 5, got = 0, flag = -1;
    MPI_Status status;
    CHECK_OK(MPI_Send(&x, 1, MPI_INT, 0, 1, a));
    CHECK_OK(MPI_Iprobe(0, 1, b, &flag, &status));
    CHECK_EQ_LONG(flag, 0);
    CHECK_OK(MPI_Recv(&got, 1, MPI_INT, 0, 1, a, &status));
    CHECK_EQ_LONG(got, 5);
}

/* The error handler of the handler test: counts its calls and keeps the communicator. */
static int handled;
static MPI_Comm handled_on;
static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)code;
    handled++;
    handled_on = *comm;
}

/* Errors of a call on a communicator go to that communicator's handler. */
static void error_handlers(void)
{
    MPI_Comm dup;
    MPI_Errhandler counting;
    int x = 0;

    CHECK_OK(MPI_Comm_create_errhandler(count_errors, &counting));
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_OK(MPI_Comm_set_errhandler(dup, counting));
    CHECK_ERR(MPI_Send(&x, 1, MPI_INT, 3, 0, dup), MPI_ERR_RANK);
    CHECK_EQ_LONG(handled, 1);
    CHECK(handled_on == dup);
    CHECK_ERR(MPI_Allreduce(&x, &x, 1, MPI_BYTE, MPI_SUM, dup), MPI_ERR_OP);
    CHECK_EQ_LONG(handled, 2);
    CHECK_ERR(MPI_Send(&x, 1, MPI_INT, 3, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_EQ_LONG(handled, 2); /* MPI_COMM_WORLD returns its errors */
    CHECK_OK(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER));
    CHECK_EQ_LONG(handled, 3);
    CHECK_OK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));
    CHECK_EQ_LONG(handled, 3);
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Errhandler_free(&counting));
    CHECK_ERR(MPI_Errhandler_free(&counting), MPI_ERR_ARG); /* MPI_ERRHANDLER_NULL */
}

/* Hints given to a communicator are read back; MPI_Pcontrol takes any level and arguments. */
static void info_and_profiling(void)
{
    MPI_Comm dup;
    MPI_Info info, used;
    char value[16];
    int flag = 0, nkeys = -1;

    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_OK(MPI_Comm_get_info(dup, &used));
    CHECK_OK(MPI_Info_get_nkeys(used, &nkeys));
    CHECK_EQ_LONG(nkeys, 0);
    CHECK_OK(MPI_Info_free(&used));
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK_OK(MPI_Comm_set_info(dup, info));
    CHECK_OK(MPI_Info_free(&info));
    CHECK_OK(MPI_Comm_get_info(dup, &used));
    CHECK_OK(MPI_Info_get(used, "mpi_assert_no_any_tag", sizeof value - 1, value, &flag));
    CHECK(flag && strcmp(value, "true") == 0);
    CHECK_OK(MPI_Info_free(&used));
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Pcontrol(0));
    CHECK_OK(MPI_Pcontrol(2, "phase", 3));
    CHECK_OK(MPI_Pcontrol(1));
}

static void communicators(void)
{
    MPI_Comm dup, split, none, typed, copy;
    MPI_Errhandler handler;
    MPI_Request request;
    int rank = -1, size = -1, result = -1, flag = -1, len = 0;
    char name[MPI_MAX_OBJECT_NAME];

    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(dup != MPI_COMM_WORLD && dup != MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_rank(dup, &rank));
    CHECK_OK(MPI_Comm_size(dup, &size));
    CHECK_EQ_LONG(rank, 0);
    CHECK_EQ_LONG(size, 1);
    CHECK_OK(MPI_Comm_get_errhandler(dup, &handler));
    CHECK(handler == MPI_ERRORS_RETURN);
    CHECK_OK(MPI_Comm_compare(dup, MPI_COMM_WORLD, &result));
    CHECK_EQ_LONG(result, MPI_CONGRUENT);
    CHECK_OK(MPI_Comm_compare(dup, dup, &result));
    CHECK_EQ_LONG(result, MPI_IDENT);
    contexts_apart(MPI_COMM_WORLD, dup);
    contexts_apart(dup, MPI_COMM_WORLD);

    CHECK_OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0);
    CHECK_OK(MPI_Comm_get_name(dup, name, &len));
    CHECK_EQ_LONG(len, 0);
    CHECK_OK(MPI_Comm_set_name(dup, "halo"));
    CHECK_OK(MPI_Comm_get_name(dup, name, &len));
    CHECK(strcmp(name, "halo") == 0 && len == 4);

    CHECK_OK(MPI_Comm_split(dup, 3, 0, &split));
    contexts_apart(split, dup);
    CHECK_OK(MPI_Comm_split(dup, MPI_UNDEFINED, 0, &none));
    CHECK(none == MPI_COMM_NULL);
    CHECK_ERR(MPI_Comm_split(dup, -4, 0, &none), MPI_ERR_ARG);
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &typed));
    CHECK_OK(MPI_Comm_size(typed, &size));
    CHECK_EQ_LONG(size, 1);
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none));
    CHECK(none == MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_dup_with_info(split, MPI_INFO_NULL, &copy));
    CHECK_OK(MPI_Comm_free(&copy));
    CHECK_OK(MPI_Comm_idup(typed, &copy, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK(request == MPI_REQUEST_NULL);
    contexts_apart(copy, typed);

    CHECK_OK(MPI_Comm_test_inter(dup, &flag));
    CHECK_EQ_LONG(flag, 0);
    CHECK_ERR(MPI_Comm_remote_size(dup, &size), MPI_ERR_COMM);
    /* no intercommunicator can be made or merged: the remote group would be this process */
    MPI_Comm inter = MPI_COMM_NULL;
    CHECK_ERR(MPI_Intercomm_create(dup, 0, MPI_COMM_WORLD, 0, 7, &inter), MPI_ERR_RANK);
    CHECK_ERR(MPI_Intercomm_merge(dup, 0, &inter), MPI_ERR_COMM);

    /* hardware splits: guided by mpi_hw_resource_type (mpi_shared_memory is known, and the new
       communicator's info says it), unguided into strict subsets (one process has none) */
    MPI_Info hints, used;
    MPI_Comm hardware;
    char resource[64];
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL,
                                 &hardware));
    CHECK(hardware == MPI_COMM_NULL);
    CHECK_OK(MPI_Info_create(&hints));
    CHECK_OK(MPI_Info_set(hints, "mpi_hw_resource_type", "mpi_shared_memory"));
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, hints, &hardware));
    CHECK(hardware != MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_get_info(hardware, &used));
    CHECK_OK(MPI_Info_get(used, "mpi_hw_resource_type", sizeof resource - 1, resource, &flag));
    CHECK(flag && strcmp(resource, "mpi_shared_memory") == 0);
    CHECK_OK(MPI_Info_free(&used));
    CHECK_OK(MPI_Comm_free(&hardware));
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, hints, &hardware));
    CHECK(hardware == MPI_COMM_NULL);
    /* MPI_Comm_idup_with_info: the hints go with the duplicate */
    CHECK_OK(MPI_Comm_idup_with_info(dup, hints, &hardware, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Comm_get_info(hardware, &used));
    CHECK_OK(MPI_Info_get(used, "mpi_hw_resource_type", sizeof resource - 1, resource, &flag));
    CHECK(flag);
    CHECK_OK(MPI_Info_free(&used));
    contexts_apart(hardware, dup);
    CHECK_OK(MPI_Comm_free(&hardware));
    CHECK_OK(MPI_Info_free(&hints));

    CHECK_OK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_ARE_FATAL));
    CHECK_OK(MPI_Comm_get_errhandler(dup, &handler));
    CHECK(handler == MPI_ERRORS_ARE_FATAL);
    CHECK_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler));
    CHECK(handler == MPI_ERRORS_RETURN);

    MPI_Comm freed = split;
    for (int k = 0; k < 4; k++) {
        MPI_Comm *comm = k == 0 ? &dup : k == 1 ? &split : k == 2 ? &typed : &copy;
        CHECK_OK(MPI_Comm_free(comm));
        CHECK(*comm == MPI_COMM_NULL);
    }
    CHECK_ERR(MPI_Comm_size(freed, &size), MPI_ERR_COMM);
    CHECK_ERR(MPI_Send(&size, 1, MPI_INT, 0, 0, freed), MPI_ERR_COMM);
    copy = MPI_COMM_WORLD;
    CHECK_ERR(MPI_Comm_free(&copy), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_dup(MPI_COMM_NULL, &copy), MPI_ERR_COMM);
}

static void groups(void)
{
    MPI_Group world, empty, one, other;
    MPI_Comm comm;
    int size = -1, rank = -1, result = -1, translated[2], ranks[2] = {0, MPI_PROC_NULL};
    int range[1][3] = {{0, 0, 1}}, bad_range[1][3] = {{0, 0, 0}}, bad_rank = 1;

    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_OK(MPI_Group_size(world, &size));
    CHECK_OK(MPI_Group_rank(world, &rank));
    CHECK_EQ_LONG(size, 1);
    CHECK_EQ_LONG(rank, 0);
    CHECK_OK(MPI_Group_rank(MPI_GROUP_EMPTY, &rank));
    CHECK_EQ_LONG(rank, MPI_UNDEFINED);

    CHECK_OK(MPI_Group_excl(world, 1, ranks, &empty));
    CHECK(empty == MPI_GROUP_EMPTY);
    CHECK_OK(MPI_Group_incl(world, 1, ranks, &one));
    CHECK_OK(MPI_Group_compare(world, one, &result));
    CHECK_EQ_LONG(result, MPI_IDENT);
    CHECK_OK(MPI_Group_compare(world, MPI_GROUP_EMPTY, &result));
    CHECK_EQ_LONG(result, MPI_UNEQUAL);
    CHECK_OK(MPI_Group_free(&one));
    CHECK(one == MPI_GROUP_NULL);
    CHECK_OK(MPI_Group_union(MPI_GROUP_EMPTY, world, &one));
    CHECK_OK(MPI_Group_size(one, &size));
    CHECK_EQ_LONG(size, 1);
    CHECK_OK(MPI_Group_intersection(world, MPI_GROUP_EMPTY, &other));
    CHECK(other == MPI_GROUP_EMPTY);
    CHECK_OK(MPI_Group_difference(world, MPI_GROUP_EMPTY, &other));
    CHECK_OK(MPI_Group_size(other, &size));
    CHECK_EQ_LONG(size, 1);
    CHECK_OK(MPI_Group_free(&other));
    CHECK_OK(MPI_Group_range_incl(world, 1, range, &other));
    CHECK_OK(MPI_Group_size(other, &size));
    CHECK_EQ_LONG(size, 1);
    CHECK_OK(MPI_Group_free(&other));
    CHECK_OK(MPI_Group_range_excl(world, 1, range, &other));
    CHECK(other == MPI_GROUP_EMPTY);
    CHECK_OK(MPI_Group_translate_ranks(world, 2, ranks, one, translated));
    CHECK_EQ_LONG(translated[0], 0);
    CHECK_EQ_LONG(translated[1], MPI_PROC_NULL);
    CHECK_OK(MPI_Group_translate_ranks(world, 1, ranks, MPI_GROUP_EMPTY, translated));
    CHECK_EQ_LONG(translated[0], MPI_UNDEFINED);

    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, one, &comm));
    CHECK(comm != MPI_COMM_NULL);
    contexts_apart(comm, MPI_COMM_WORLD);
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &comm));
    CHECK(comm == MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_create_group(MPI_COMM_SELF, world, 7, &comm));
    CHECK_OK(MPI_Comm_size(comm, &size));
    CHECK_EQ_LONG(size, 1);
    CHECK_OK(MPI_Comm_free(&comm));

    CHECK_ERR(MPI_Group_incl(world, 1, &bad_rank, &other), MPI_ERR_RANK);
    CHECK_ERR(MPI_Group_range_incl(world, 1, bad_range, &other), MPI_ERR_ARG);
    CHECK_ERR(MPI_Group_size(MPI_GROUP_NULL, &size), MPI_ERR_GROUP);
    CHECK_OK(MPI_Group_free(&one));
    CHECK_OK(MPI_Group_free(&world));
    CHECK_ERR(MPI_Group_size(world, &size), MPI_ERR_GROUP);
    CHECK_ERR(MPI_Group_free(&world), MPI_ERR_GROUP);
}

/* The delete callback of the attribute tests: counts its calls and the values it got. */
static int deleted;
static long deleted_sum;
static MPI_Comm deleted_on;
static int count_deletes(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)extra;
    deleted++;
    deleted_sum += (long)(intptr_t)value;
    deleted_on = comm;
    return MPI_SUCCESS;
}

/* A copy callback that copies the value plus one. */
static int copy_plus_one(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

/* Attributes of the program's keys: copied by MPI_Comm_dup through their copy callbacks,
   deleted through their delete callbacks. */
static void user_attributes(void)
{
    int dup_key, null_key, plus_key, flag = -1;
    void *value = NULL;
    MPI_Comm dup;

    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_deletes, &dup_key, NULL));
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_deletes, &null_key, NULL));
    CHECK_OK(MPI_Comm_create_keyval(copy_plus_one, MPI_COMM_NULL_DELETE_FN, &plus_key, NULL));
    CHECK(dup_key != null_key && dup_key != plus_key);
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, dup_key, (void *)10));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, null_key, (void *)20));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, plus_key, (void *)30));

    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_OK(MPI_Comm_get_attr(dup, dup_key, &value, &flag));
    CHECK(flag == 1 && value == (void *)10);
    CHECK_OK(MPI_Comm_get_attr(dup, null_key, &value, &flag));
    CHECK_EQ_LONG(flag, 0);
    CHECK_OK(MPI_Comm_get_attr(dup, plus_key, &value, &flag));
    CHECK(flag == 1 && value == (void *)31);

    /* Replacing a value deletes the old one; deleting runs the callback once. */
    CHECK_OK(MPI_Comm_set_attr(dup, dup_key, (void *)11));
    CHECK(deleted == 1 && deleted_sum == 10 && deleted_on == dup);
    CHECK_OK(MPI_Comm_delete_attr(dup, dup_key));
    CHECK(deleted == 2 && deleted_sum == 21);
    CHECK_OK(MPI_Comm_get_attr(dup, dup_key, &value, &flag));
    CHECK_EQ_LONG(flag, 0);

    /* A freed key is invalid, but its attributes keep their callbacks. */
    CHECK_OK(MPI_Comm_set_attr(dup, null_key, (void *)5));
    CHECK_OK(MPI_Comm_free_keyval(&null_key));
    CHECK_EQ_LONG(null_key, MPI_KEYVAL_INVALID);
    int freed_key = null_key;
    CHECK_ERR(MPI_Comm_get_attr(dup, freed_key, &value, &flag), MPI_ERR_KEYVAL);
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK(deleted == 3 && deleted_sum == 26);

    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, (void *)1), MPI_ERR_KEYVAL);
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, dup_key));
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, plus_key));
    CHECK(deleted == 4 && deleted_sum == 36);
    CHECK_OK(MPI_Comm_free_keyval(&plus_key));

    /* MPI_Finalize deletes MPI_COMM_SELF's attributes (checked in main). */
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, dup_key, (void *)100));
    CHECK_OK(MPI_Comm_free_keyval(&dup_key));
}

static void attributes(void)
{
    int *value = NULL, flag = 0;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag));
    CHECK(flag == 1 && value != NULL && *value >= 32767);
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_SELF, MPI_UNIVERSE_SIZE, &value, &flag));
    CHECK(flag == 1 && *value == 1);
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag));
    CHECK(flag == 1 && *value == 1);
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &value, &flag));
    CHECK(flag == 1 && *value == MPI_PROC_NULL);
    CHECK_ERR(MPI_Comm_get_attr(MPI_COMM_WORLD, 12345, &value, &flag), MPI_ERR_KEYVAL);
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    communicators();
    error_handlers();
    info_and_profiling();
    groups();
    attributes();
    user_attributes();
    CHECK_OK(MPI_Finalize());
    CHECK(deleted == 5 && deleted_sum == 136 && deleted_on == MPI_COMM_SELF);
    return check_report(argv[0]);
}
