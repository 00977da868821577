/*
 * test_tool_information_standalone.c: the tool information interface (MPI_T) of the library
 * linked alone, in both builds.
 *
 *   - nothing but MPI_T_init_thread works before it (MPI_T_ERR_NOT_INITIALIZED), and each
 *     MPI_T_init_thread needs its MPI_T_finalize;
 *   - the control variables are the environment variables that set the library: each has a
 *     name, a description and a value read when asked (MPI_DTYPE_TRACE, set here), is found
 *     by name, and cannot be written (MPI_T_ERR_CVAR_SET_NEVER);
 *   - one category holds them all; there are no performance variables, though sessions can
 *     be made and MPI_T_PVAR_ALL_HANDLES started and stopped; there are no enumerations;
 *   - bad indices, names and handles get their error codes.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "check.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    int provided = -1, num = -1, index = -1, count = -1, verbosity = -1, bind = -1, scope = -1;
    int name_len, desc_len, cvars = -1, pvars = -1, categories = -1, indices[8], stamp = -1;
    char name[64], desc[256], value[64];
    MPI_Datatype datatype = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype = (MPI_T_enum)1;
    MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL, stale;
    MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
    MPI_T_pvar_handle pvar = MPI_T_PVAR_HANDLE_NULL;

    (void)argc;
    CHECK_EQ_LONG(MPI_T_cvar_get_num(&num), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_EQ_LONG(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_EQ_LONG(provided, MPI_THREAD_SINGLE);
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    CHECK_OK(MPI_T_finalize()); /* nested: the interface stays initialized */

    CHECK_OK(MPI_T_cvar_get_num(&num));
    CHECK(num >= 1);
    setenv("MPI_DTYPE_TRACE", "/tmp/trace.json", 1);
    CHECK_OK(MPI_T_cvar_get_index("MPI_DTYPE_TRACE", &index));
    name_len = sizeof name, desc_len = sizeof desc;
    CHECK_OK(MPI_T_cvar_get_info(index, name, &name_len, &verbosity, &datatype, &enumtype, desc,
                                 &desc_len, &bind, &scope));
    CHECK_EQ_STR(name, "MPI_DTYPE_TRACE");
    CHECK_EQ_LONG(name_len, (long)strlen("MPI_DTYPE_TRACE") + 1);
    CHECK(desc_len > 1 && strlen(desc) + 1 == (size_t)desc_len);
    CHECK(datatype == MPI_CHAR && enumtype == MPI_T_ENUM_NULL);
    CHECK(bind == MPI_T_BIND_NO_OBJECT && scope == MPI_T_SCOPE_READONLY);
    CHECK(verbosity == MPI_T_VERBOSITY_USER_BASIC);
    name_len = 4; /* too short: cut, and told the length the name takes */
    CHECK_OK(MPI_T_cvar_get_info(index, name, &name_len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    CHECK_EQ_STR(name, "MPI");
    CHECK_EQ_LONG(name_len, (long)strlen("MPI_DTYPE_TRACE") + 1);

    CHECK_OK(MPI_T_cvar_handle_alloc(index, NULL, &handle, &count));
    CHECK_EQ_LONG(count, (long)strlen("/tmp/trace.json") + 1);
    CHECK_OK(MPI_T_cvar_read(handle, value));
    CHECK_EQ_STR(value, "/tmp/trace.json");
    CHECK_EQ_LONG(MPI_T_cvar_write(handle, "x"), MPI_T_ERR_CVAR_SET_NEVER);
    stale = handle;
    CHECK_OK(MPI_T_cvar_handle_free(&handle));
    CHECK(handle == MPI_T_CVAR_HANDLE_NULL);
    CHECK_EQ_LONG(MPI_T_cvar_read(stale, value), MPI_T_ERR_INVALID_HANDLE);
    CHECK_EQ_LONG(MPI_T_cvar_get_index("NO_SUCH_VARIABLE", &index), MPI_T_ERR_INVALID_NAME);
    CHECK_EQ_LONG(MPI_T_cvar_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                  MPI_T_ERR_INVALID_INDEX);
    CHECK_EQ_LONG(MPI_T_cvar_handle_alloc(-1, NULL, &handle, &count), MPI_T_ERR_INVALID_INDEX);

    CHECK_OK(MPI_T_category_get_num(&num));
    CHECK_EQ_LONG(num, 1);
    CHECK_OK(MPI_T_category_get_index("mpi_dtype", &index));
    name_len = sizeof name, desc_len = sizeof desc;
    CHECK_OK(MPI_T_category_get_info(index, name, &name_len, desc, &desc_len, &cvars, &pvars,
                                     &categories));
    CHECK_EQ_STR(name, "mpi_dtype");
    CHECK(cvars >= 1 && pvars == 0 && categories == 0);
    CHECK_OK(MPI_T_category_get_cvars(index, 8, indices));
    CHECK_EQ_LONG(indices[0], 0);
    CHECK_OK(MPI_T_category_changed(&stamp));
    CHECK_EQ_LONG(MPI_T_category_get_info(1, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                  MPI_T_ERR_INVALID_INDEX);

    CHECK_OK(MPI_T_pvar_get_num(&num));
    CHECK_EQ_LONG(num, 0);
    CHECK_OK(MPI_T_pvar_session_create(&session));
    CHECK_EQ_LONG(MPI_T_pvar_handle_alloc(session, 0, NULL, &pvar, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_OK(MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES));
    CHECK_OK(MPI_T_pvar_stop(session, MPI_T_PVAR_ALL_HANDLES));
    CHECK_EQ_LONG(MPI_T_pvar_read(session, MPI_T_PVAR_ALL_HANDLES, value), MPI_T_ERR_INVALID_HANDLE);
    CHECK_OK(MPI_T_pvar_session_free(&session));
    CHECK(session == MPI_T_PVAR_SESSION_NULL);
    CHECK_EQ_LONG(MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES), MPI_T_ERR_INVALID_SESSION);
    CHECK_EQ_LONG(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &num, name, &name_len), MPI_T_ERR_INVALID_HANDLE);

    CHECK_OK(MPI_T_finalize());
    CHECK_EQ_LONG(MPI_T_pvar_get_num(&num), MPI_T_ERR_NOT_INITIALIZED);
    return check_report(argv[0]);
}
