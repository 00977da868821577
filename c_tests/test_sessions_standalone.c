/*
 * test_sessions_standalone.c: sessions in the one-process world (the library linked alone,
 * no MPI behind it), in both builds, used as the MPI-4 sessions model uses them: without
 * MPI_Init.
 *
 *   - MPI_Session_init with hints, which MPI_Session_get_info gives back;
 *   - the process sets: two (mpi://WORLD and mpi://SELF), their names by index (a length of
 *     0 asks for the length only), their info (mpi_size 1), their groups of one process;
 *   - MPI_Comm_create_from_group makes a communicator of the group with the given error
 *     handler, on which a message goes from the process to itself; the empty group gives
 *     MPI_COMM_NULL;
 *   - the session's error handlers: the program's own is called on a bad call and by
 *     MPI_Session_call_errhandler;
 *   - bad calls: an unknown process set (MPI_ERR_ARG), an index past the last set
 *     (MPI_ERR_ARG), a finalized session (MPI_ERR_SESSION).
 */
#include "check.h"

static int handled;

static void count_error(MPI_Session *session, int *code, ...)
{
    (void)session, (void)code;
    handled++;
}

int main(int argc, char **argv)
{
    MPI_Session session, finalized;
    MPI_Info info, used, described;
    MPI_Group group, empty;
    MPI_Comm comm, none;
    MPI_Errhandler handler, current;
    char name[MPI_MAX_PSET_NAME_LEN], value[32];
    int n = -1, len = 0, flag = 0, size = -1, sent = 7, received = 0, rank = -1;

    (void)argc;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "thread_level", "MPI_THREAD_SINGLE"));
    CHECK_OK(MPI_Session_init(info, MPI_ERRORS_RETURN, &session));
    CHECK_OK(MPI_Info_free(&info));
    CHECK_OK(MPI_Session_get_info(session, &used));
    CHECK_OK(MPI_Info_get(used, "thread_level", sizeof value - 1, value, &flag));
    CHECK(flag && strcmp(value, "MPI_THREAD_SINGLE") == 0);
    CHECK_OK(MPI_Info_free(&used));

    CHECK_OK(MPI_Session_get_num_psets(session, MPI_INFO_NULL, &n));
    CHECK_EQ_LONG(n, 2);
    len = 0;
    CHECK_OK(MPI_Session_get_nth_pset(session, MPI_INFO_NULL, 0, &len, name));
    CHECK_EQ_LONG(len, (long)strlen("mpi://WORLD") + 1);
    len = sizeof name;
    CHECK_OK(MPI_Session_get_nth_pset(session, MPI_INFO_NULL, 1, &len, name));
    CHECK_EQ_STR(name, "mpi://SELF");
    CHECK_ERR(MPI_Session_get_nth_pset(session, MPI_INFO_NULL, 2, &len, name), MPI_ERR_ARG);
    CHECK_OK(MPI_Session_get_pset_info(session, "mpi://WORLD", &described));
    CHECK_OK(MPI_Info_get(described, "mpi_size", sizeof value - 1, value, &flag));
    CHECK(flag && strcmp(value, "1") == 0);
    CHECK_OK(MPI_Info_free(&described));
    CHECK_ERR(MPI_Session_get_pset_info(session, "mpi://NOWHERE", &described), MPI_ERR_ARG);

    CHECK_OK(MPI_Group_from_session_pset(session, "mpi://WORLD", &group));
    CHECK_OK(MPI_Group_size(group, &size));
    CHECK_EQ_LONG(size, 1);
    CHECK_OK(MPI_Comm_create_from_group(group, "org.example.test", MPI_INFO_NULL,
                                        MPI_ERRORS_RETURN, &comm));
    CHECK_OK(MPI_Comm_rank(comm, &rank));
    CHECK_EQ_LONG(rank, 0);
    CHECK_OK(MPI_Comm_get_errhandler(comm, &current));
    CHECK(current == MPI_ERRORS_RETURN);
    CHECK_OK(MPI_Sendrecv(&sent, 1, MPI_INT, 0, 5, &received, 1, MPI_INT, 0, 5, comm,
                          MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(received, 7);
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_OK(MPI_Group_incl(group, 0, NULL, &empty));
    CHECK_OK(MPI_Comm_create_from_group(empty, "org.example.none", MPI_INFO_NULL,
                                        MPI_ERRORS_RETURN, &none));
    CHECK(none == MPI_COMM_NULL);
    CHECK_OK(MPI_Group_free(&group));

    CHECK_OK(MPI_Session_create_errhandler(count_error, &handler));
    CHECK_OK(MPI_Session_set_errhandler(session, handler));
    CHECK_OK(MPI_Session_get_errhandler(session, &current));
    CHECK(current == handler);
    CHECK(MPI_Group_from_session_pset(session, "mpi://NOWHERE", &group) != MPI_SUCCESS);
    CHECK_EQ_LONG(handled, 1);
    CHECK_OK(MPI_Session_call_errhandler(session, MPI_ERR_OTHER));
    CHECK_EQ_LONG(handled, 2);
    CHECK_OK(MPI_Session_set_errhandler(session, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Errhandler_free(&handler));

    /* an error on no session goes to the default handler: make it return */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    finalized = session;
    CHECK_OK(MPI_Session_finalize(&session));
    CHECK(session == MPI_SESSION_NULL);
    CHECK_ERR(MPI_Session_get_num_psets(finalized, MPI_INFO_NULL, &n), MPI_ERR_SESSION);
    return check_report(argv[0]);
}
