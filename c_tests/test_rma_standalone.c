/*
 * test_rma_standalone.c: one-sided communication in the one-process world (the library
 * linked alone, no MPI behind it), in both builds.
 *
 *   - windows of every flavor: MPI_Win_create over the program's memory, MPI_Win_allocate,
 *     MPI_Win_allocate_shared (with MPI_Win_shared_query), MPI_Win_create_dynamic (memory
 *     attached and detached, target displacements that are addresses); their predefined
 *     attributes, group, name, info, attributes of the program's keys (the delete callback
 *     runs at MPI_Win_free) and error handlers (the program's own is called);
 *   - MPI_Put and MPI_Get between derived types of the same signature (a vector at the
 *     origin, a contiguous run or an indexed type at the target), the displacement unit
 *     applied; MPI_Accumulate (MPI_SUM, MPI_REPLACE), MPI_Get_accumulate (and MPI_NO_OP),
 *     MPI_Fetch_and_op, MPI_Compare_and_swap; the request-based forms, whose requests
 *     complete; the _c forms;
 *   - every synchronisation: fences, post-start-complete-wait (MPI_Win_test before and after
 *     the origin completes), lock and unlock, lock_all with the flushes, MPI_Win_sync;
 *   - bad calls: an operation outside an epoch or a flush outside a lock
 *     (MPI_ERR_RMA_SYNC), a target outside the window (MPI_ERR_RMA_RANGE), rank 1
 *     (MPI_ERR_RANK), a bad lock type (MPI_ERR_LOCKTYPE), attaching to a window that is not
 *     dynamic (MPI_ERR_RMA_FLAVOR), overlapping regions (MPI_ERR_RMA_ATTACH), the program's
 *     operation or MPI_NO_OP in MPI_Accumulate (MPI_ERR_OP), signatures of different sizes
 *     or types (MPI_ERR_TYPE), a negative size (MPI_ERR_SIZE), a displacement unit of 0
 *     (MPI_ERR_DISP), MPI_Win_complete before the process posted and MPI_Win_wait before it
 *     completed (which would never return: MPI_ERR_OTHER), freeing a locked window
 *     (MPI_ERR_RMA_SYNC), and a window handle that is none (MPI_ERR_WIN).
 */
#include "check.h"

static int deleted;

static int count_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win, (void)keyval, (void)extra;
    deleted += *(int *)value;
    return MPI_SUCCESS;
}

static int handled;

static void count_error(MPI_Win *win, int *code, ...)
{
    (void)win, (void)code;
    handled++;
}

static void mine(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

static void put_get_fence(void)
{
    double memory[16], origin[12], back[6];
    MPI_Datatype every_other, block;
    MPI_Win win;
    int i;

    for (i = 0; i < 16; i++)
        memory[i] = -1.0;
    for (i = 0; i < 12; i++)
        origin[i] = i;
    CHECK_OK(MPI_Type_vector(6, 1, 2, MPI_DOUBLE, &every_other));
    CHECK_OK(MPI_Type_commit(&every_other));
    CHECK_OK(MPI_Type_contiguous(6, MPI_DOUBLE, &block));
    CHECK_OK(MPI_Type_commit(&block));
    CHECK_OK(MPI_Win_create(memory, sizeof memory, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &win));
    CHECK_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    CHECK_ERR(MPI_Put(origin, 1, every_other, 0, 2, 1, block, win), MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Win_fence(0, win));
    /* the even elements of origin to memory[2..8): the displacement is in doubles */
    CHECK_OK(MPI_Put(origin, 1, every_other, 0, 2, 1, block, win));
    CHECK_OK(MPI_Put(origin, 0, every_other, MPI_PROC_NULL, 100, 1, block, win));
    CHECK_OK(MPI_Win_fence(0, win));
    for (i = 0; i < 6; i++)
        CHECK(memory[2 + i] == 2.0 * i);
    CHECK(memory[1] == -1.0 && memory[8] == -1.0);
    CHECK_OK(MPI_Get(back, 6, MPI_DOUBLE, 0, 2, 1, block, win));
    for (i = 0; i < 6; i++)
        CHECK(back[i] == 2.0 * i);
    CHECK_OK(MPI_Get_c(back, 1, block, 0, 10, 6, MPI_DOUBLE, win));
    CHECK(back[0] == -1.0);

    CHECK_ERR(MPI_Put(origin, 1, block, 0, 12, 1, block, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Put(origin, 1, block, 0, -1, 1, block, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Put(origin, 1, block, 1, 0, 1, block, win), MPI_ERR_RANK);
    CHECK_ERR(MPI_Put(origin, 5, MPI_DOUBLE, 0, 0, 1, block, win), MPI_ERR_TYPE);
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_ERR(MPI_Get(back, 6, MPI_DOUBLE, 0, 2, 1, block, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_flush(0, win), MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL);
    CHECK_OK(MPI_Type_free(&every_other));
    CHECK_OK(MPI_Type_free(&block));
}

static void accumulate(void)
{
    int memory[8] = {1, 2, 3, 4, 5, 6, 7, 8}, add[4] = {10, 20, 30, 40}, old[4], one = 1, got = 0;
    int compare = 4, swap = 99;
    float floats[4] = {0};
    MPI_Datatype indexed, odd;
    int lengths[2] = {1, 1}, displacements[2] = {1, 3};
    MPI_Op op;
    MPI_Win win;
    MPI_Request request;

    CHECK_OK(MPI_Type_indexed(2, lengths, displacements, MPI_INT, &indexed));
    CHECK_OK(MPI_Type_create_resized(indexed, 0, 4 * sizeof(int), &odd));
    CHECK_OK(MPI_Type_free(&indexed));
    CHECK_OK(MPI_Type_commit(&odd));
    CHECK_OK(MPI_Op_create(mine, 1, &op));
    CHECK_OK(MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &win));
    CHECK_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    /* memory[1] += 10, memory[3] += 20, then memory[5] += 30, memory[7] += 40 */
    CHECK_OK(MPI_Accumulate(add, 4, MPI_INT, 0, 0, 2, odd, MPI_SUM, win));
    CHECK(memory[1] == 12 && memory[3] == 24 && memory[5] == 36 && memory[7] == 48);
    CHECK(memory[0] == 1 && memory[2] == 3);
    CHECK_OK(MPI_Accumulate(add, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_REPLACE, win));
    CHECK_EQ_LONG(memory[0], 10);
    CHECK_OK(MPI_Get_accumulate(add, 2, MPI_INT, old, 2, MPI_INT, 0, 0, 1, odd, MPI_PROD, win));
    CHECK(old[0] == 12 && old[1] == 24 && memory[1] == 120 && memory[3] == 480);
    CHECK_OK(MPI_Get_accumulate(NULL, 0, MPI_INT, old, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_NO_OP, win));
    CHECK_EQ_LONG(old[0], 3);
    CHECK_OK(MPI_Fetch_and_op(&one, &got, MPI_INT, 0, 2, MPI_SUM, win));
    CHECK(got == 3 && memory[2] == 4);
    CHECK_OK(MPI_Compare_and_swap(&swap, &compare, &got, MPI_INT, 0, 2, win));
    CHECK(got == 4 && memory[2] == 99);
    CHECK_OK(MPI_Compare_and_swap(&one, &compare, &got, MPI_INT, 0, 2, win));
    CHECK(got == 99 && memory[2] == 99);
    CHECK_OK(MPI_Raccumulate_c(add, 1, MPI_INT, 0, 6, 1, MPI_INT, MPI_MAX, win, &request));
    CHECK(request != MPI_REQUEST_NULL);
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK(request == MPI_REQUEST_NULL && memory[6] == 10);

    CHECK_ERR(MPI_Accumulate(add, 1, MPI_INT, 0, 0, 1, MPI_INT, op, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Accumulate(add, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_NO_OP, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Accumulate(floats, 1, MPI_FLOAT, 0, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Accumulate(floats, 1, MPI_FLOAT, 0, 0, 1, MPI_FLOAT, MPI_BAND, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Win_free(&win), MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Win_unlock(0, win));
    CHECK_ERR(MPI_Win_unlock(0, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_lock(12345, 0, 0, win), MPI_ERR_LOCKTYPE);
    CHECK_OK(MPI_Win_free(&win));
    CHECK_OK(MPI_Op_free(&op));
    CHECK_OK(MPI_Type_free(&odd));
}

static void allocated(void)
{
    double *base = NULL, *shared = NULL, *queried = NULL;
    MPI_Aint *size = NULL, bytes = 0;
    int *unit = NULL, *flavor = NULL, *model = NULL, flag = 0, disp_unit = 0, i;
    void *attr_base = NULL;
    MPI_Win win, win_shared;
    MPI_Request requests[2];
    double values[4] = {1, 2, 3, 4}, back[4] = {0};

    CHECK_OK(MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                              &base, &win));
    CHECK(base != NULL && ((size_t)base % 16) == 0);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &attr_base, &flag));
    CHECK(flag && attr_base == (void *)base);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &size, &flag));
    CHECK(flag && *size == 4 * sizeof(double));
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag));
    CHECK(flag && *unit == sizeof(double));
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    CHECK(flag && *model == MPI_WIN_UNIFIED);

    CHECK_OK(MPI_Win_lock_all(0, win));
    CHECK_OK(MPI_Rput(values, 4, MPI_DOUBLE, 0, 0, 4, MPI_DOUBLE, win, &requests[0]));
    CHECK_OK(MPI_Rget_c(back, 2, MPI_DOUBLE, 0, 2, 2, MPI_DOUBLE, win, &requests[1]));
    CHECK_OK(MPI_Waitall(2, requests, MPI_STATUSES_IGNORE));
    CHECK_OK(MPI_Win_flush(0, win));
    CHECK_OK(MPI_Win_flush_all(win));
    CHECK_OK(MPI_Win_flush_local(0, win));
    CHECK_OK(MPI_Win_flush_local_all(win));
    CHECK_OK(MPI_Win_sync(win));
    CHECK_OK(MPI_Win_unlock_all(win));
    for (i = 0; i < 4; i++)
        CHECK(base[i] == values[i]);
    CHECK(back[0] == 3 && back[1] == 4);
    CHECK_OK(MPI_Win_free(&win));

    CHECK_OK(MPI_Win_allocate_shared(3 * sizeof(double), sizeof(double), MPI_INFO_NULL,
                                     MPI_COMM_WORLD, &shared, &win_shared));
    CHECK_OK(MPI_Win_shared_query(win_shared, 0, &bytes, &disp_unit, &queried));
    CHECK(queried == shared && bytes == 3 * sizeof(double) && disp_unit == sizeof(double));
    CHECK_OK(MPI_Win_shared_query(win_shared, MPI_PROC_NULL, &bytes, &disp_unit, &queried));
    CHECK(queried == shared);
    CHECK_OK(MPI_Win_set_errhandler(win_shared, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Win_shared_query(win_shared, 1, &bytes, &disp_unit, &queried), MPI_ERR_RANK);
    CHECK_ERR(MPI_Win_attach(win_shared, values, sizeof values), MPI_ERR_RMA_FLAVOR);
    CHECK_OK(MPI_Win_free(&win_shared));

    CHECK_ERR(MPI_Win_allocate(-1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win), MPI_ERR_SIZE);
    CHECK_ERR(MPI_Win_create(values, sizeof values, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win),
              MPI_ERR_DISP);
}

static void dynamic(void)
{
    int region[4] = {0}, other[2] = {0}, values[2] = {7, 8};
    MPI_Aint address;
    MPI_Win win;

    CHECK_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Win_attach(win, region, sizeof region));
    CHECK_OK(MPI_Win_attach(win, other, sizeof other));
    CHECK_ERR(MPI_Win_attach(win, region + 1, sizeof(int)), MPI_ERR_RMA_ATTACH);
    CHECK_OK(MPI_Get_address(region + 2, &address));
    CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_OK(MPI_Put(values, 2, MPI_INT, 0, address, 2, MPI_INT, win));
    CHECK(region[2] == 7 && region[3] == 8);
    /* region[3] and the next int are not in one attached region */
    CHECK_OK(MPI_Get_address(region + 3, &address));
    CHECK_ERR(MPI_Put(values, 2, MPI_INT, 0, address, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_OK(MPI_Win_unlock(0, win));
    CHECK_OK(MPI_Win_detach(win, region));
    CHECK_ERR(MPI_Win_detach(win, region), MPI_ERR_RMA_ATTACH);
    CHECK_OK(MPI_Win_free(&win));
}

static void active_target(void)
{
    int memory[2] = {0, 0}, value = 5, flag = -1;
    MPI_Group world, empty;
    MPI_Win win;

    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_OK(MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &win));
    CHECK_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Win_start(world, 0, win));
    CHECK_ERR(MPI_Win_complete(win), MPI_ERR_OTHER); /* this process, the target, never posted */
    CHECK_OK(MPI_Win_post(world, 0, win));
    CHECK_ERR(MPI_Win_post(world, 0, win), MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Win_test(win, &flag));
    CHECK_EQ_LONG(flag, 0);
    CHECK_ERR(MPI_Win_wait(win), MPI_ERR_OTHER); /* the origin has not completed */
    CHECK_OK(MPI_Put(&value, 1, MPI_INT, 0, 1, 1, MPI_INT, win));
    CHECK_ERR(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Win_complete(win));
    CHECK_ERR(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Win_test(win, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK_EQ_LONG(memory[1], 5);
    CHECK_ERR(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);

    /* an access epoch to no process does not reach rank 0 */
    CHECK_OK(MPI_Group_incl(world, 0, NULL, &empty));
    CHECK_OK(MPI_Win_start(empty, 0, win));
    CHECK_ERR(MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    CHECK_OK(MPI_Win_complete(win));
    CHECK_OK(MPI_Win_free(&win));
    CHECK_OK(MPI_Group_free(&world));
}

static void objects(void)
{
    int memory[1], keyval = MPI_KEYVAL_INVALID, value = 3, *got = NULL, flag = 0, len = 0, size = 0;
    char name[MPI_MAX_OBJECT_NAME], hint[8];
    MPI_Group group;
    MPI_Info info, used;
    MPI_Errhandler handler, current;
    MPI_Win win, not_a_window;

    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "no_locks", "true"));
    CHECK_OK(MPI_Win_create(memory, sizeof memory, 1, info, MPI_COMM_WORLD, &win));
    CHECK_OK(MPI_Info_free(&info));
    CHECK_OK(MPI_Win_get_info(win, &used));
    CHECK_OK(MPI_Info_get(used, "no_locks", sizeof hint - 1, hint, &flag));
    CHECK(flag && strcmp(hint, "true") == 0);
    CHECK_OK(MPI_Info_free(&used));

    CHECK_OK(MPI_Win_get_group(win, &group));
    CHECK_OK(MPI_Group_size(group, &size));
    CHECK_EQ_LONG(size, 1);
    CHECK_OK(MPI_Group_free(&group));

    CHECK_OK(MPI_Win_get_name(win, name, &len));
    CHECK_EQ_LONG(len, 0);
    CHECK_OK(MPI_Win_set_name(win, "halo"));
    CHECK_OK(MPI_Win_get_name(win, name, &len));
    CHECK_EQ_STR(name, "halo");

    CHECK_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &keyval, NULL));
    CHECK_OK(MPI_Win_set_attr(win, keyval, &value));
    CHECK_OK(MPI_Win_get_attr(win, keyval, &got, &flag));
    CHECK(flag && got == &value);

    CHECK_OK(MPI_Win_create_errhandler(count_error, &handler));
    CHECK_OK(MPI_Win_set_errhandler(win, handler));
    CHECK_OK(MPI_Win_get_errhandler(win, &current));
    CHECK(current == handler);
    CHECK(MPI_Win_flush(0, win) != MPI_SUCCESS);
    CHECK_EQ_LONG(handled, 1);
    CHECK_OK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK_EQ_LONG(handled, 2);
    CHECK_OK(MPI_Errhandler_free(&handler));

    CHECK_OK(MPI_Win_free(&win));
    CHECK_EQ_LONG(deleted, 3);
    CHECK_OK(MPI_Win_free_keyval(&keyval));
    CHECK(keyval == MPI_KEYVAL_INVALID);

    not_a_window = win;
    CHECK_ERR(MPI_Win_fence(0, not_a_window), MPI_ERR_WIN);
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    put_get_fence();
    accumulate();
    allocated();
    dynamic();
    active_target();
    objects();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
