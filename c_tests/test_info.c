/*
 * test_info.c: info objects standalone and MPI_Abi_get_info (MPI-5.0 §21.2), in both builds:
 *
 *   - MPI_Abi_get_info returns a new info object whose keys mpi_aint_size, mpi_count_size and
 *     mpi_offset_size give the sizes of MPI_Aint, MPI_Count and MPI_Offset (what mpi4py's
 *     test_mpiabi checks);
 *   - MPI_Info_create / set / get_string / get / get_valuelen / get_nkeys / get_nthkey /
 *     delete / dup / free behave as MPI-4.1 §10 says, with truncation and the error classes
 *     of bad keys, missing keys and invalid objects;
 *   - MPI_INFO_ENV is an empty info object that cannot be freed;
 *   - MPI_Info_create_env describes how the program was started: command and argv from the
 *     arguments, maxprocs 1, the thread level.
 */
#include "check.h"

#include <stdio.h>
#include <string.h>

/* The value of `key` in `info` as a number, or -1 if it is not set. */
static long number_of(MPI_Info info, const char *key)
{
    char value[32];
    int flag = 0, len = (int)sizeof value;
    CHECK_OK(MPI_Info_get_string(info, key, &len, value, &flag));
    return flag ? atol(value) : -1;
}

static void abi_info(void)
{
    MPI_Info info;
    int n;
    char key[MPI_MAX_INFO_KEY + 1];
    CHECK_OK(MPI_Abi_get_info(&info));
    CHECK_OK(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ_LONG(n, 3);
    CHECK_EQ_LONG(number_of(info, "mpi_aint_size"), sizeof(MPI_Aint));
    CHECK_EQ_LONG(number_of(info, "mpi_count_size"), sizeof(MPI_Count));
    CHECK_EQ_LONG(number_of(info, "mpi_offset_size"), sizeof(MPI_Offset));
    CHECK_OK(MPI_Info_get_nthkey(info, 0, key));
    CHECK_EQ_STR(key, "mpi_aint_size");
    CHECK_OK(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL);
    CHECK_ERR(MPI_Abi_get_info(NULL), MPI_ERR_ARG);
}

static void keys_and_values(void)
{
    MPI_Info info, copy;
    int n, flag, len, valuelen;
    char value[8], key[MPI_MAX_INFO_KEY + 1];
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ_LONG(n, 0);
    CHECK_OK(MPI_Info_set(info, "alpha", "first"));
    CHECK_OK(MPI_Info_set(info, "beta", "a longer value"));
    CHECK_OK(MPI_Info_set(info, "alpha", "again")); /* replaces, keeps the order */
    CHECK_OK(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ_LONG(n, 2);
    CHECK_OK(MPI_Info_get_nthkey(info, 1, key));
    CHECK_EQ_STR(key, "beta");
    CHECK_ERR(MPI_Info_get_nthkey(info, 2, key), MPI_ERR_ARG);

    /* get_string cuts to the buffer and says the length the value needs */
    len = (int)sizeof value;
    CHECK_OK(MPI_Info_get_string(info, "beta", &len, value, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK_EQ_LONG(len, (long)strlen("a longer value") + 1);
    CHECK_EQ_STR(value, "a longe");
    len = 0; /* a zero-length buffer only asks the length */
    CHECK_OK(MPI_Info_get_string(info, "alpha", &len, NULL, &flag));
    CHECK_EQ_LONG(len, 6);
    len = 5;
    flag = 1;
    CHECK_OK(MPI_Info_get_string(info, "gamma", &len, value, &flag));
    CHECK_EQ_LONG(flag, 0);
    CHECK_EQ_LONG(len, 5);

    /* the deprecated MPI-2 forms */
    CHECK_OK(MPI_Info_get_valuelen(info, "alpha", &valuelen, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK_EQ_LONG(valuelen, 5);
    CHECK_OK(MPI_Info_get(info, "alpha", 3, value, &flag));
    CHECK_EQ_STR(value, "aga");

    /* dup copies; changes to one do not reach the other */
    CHECK_OK(MPI_Info_dup(info, &copy));
    CHECK_OK(MPI_Info_delete(copy, "alpha"));
    CHECK_ERR(MPI_Info_delete(copy, "alpha"), MPI_ERR_INFO_NOKEY);
    CHECK_OK(MPI_Info_get_nkeys(copy, &n));
    CHECK_EQ_LONG(n, 1);
    CHECK_OK(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ_LONG(n, 2);

    /* bad keys, values and objects */
    CHECK_ERR(MPI_Info_set(info, "", "x"), MPI_ERR_INFO_KEY);
    {
        char long_key[MPI_MAX_INFO_KEY + 2];
        memset(long_key, 'k', sizeof long_key - 1);
        long_key[sizeof long_key - 1] = '\0';
        CHECK_ERR(MPI_Info_set(info, long_key, "x"), MPI_ERR_INFO_KEY);
    }
    {
        static char long_value[MPI_MAX_INFO_VAL + 2];
        memset(long_value, 'v', sizeof long_value - 1);
        CHECK_ERR(MPI_Info_set(info, "k", long_value), MPI_ERR_INFO_VALUE);
    }
    CHECK_ERR(MPI_Info_set(info, NULL, "x"), MPI_ERR_ARG);
    CHECK_OK(MPI_Info_free(&copy));
    CHECK_ERR(MPI_Info_get_nkeys(copy, &n), MPI_ERR_INFO); /* MPI_INFO_NULL now */
    {
        MPI_Info stale = info;
        CHECK_OK(MPI_Info_free(&info));
        CHECK_ERR(MPI_Info_get_nkeys(stale, &n), MPI_ERR_INFO);
        CHECK_ERR(MPI_Info_free(&stale), MPI_ERR_INFO);
    }
}

static void info_env(void)
{
    MPI_Info env = MPI_INFO_ENV;
    int n;
    CHECK_OK(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    CHECK_EQ_LONG(n, 0);
    CHECK_ERR(MPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO);
    CHECK_ERR(MPI_Info_free(&env), MPI_ERR_INFO);
}

static void info_create_env(void)
{
    char *args[3] = {"./app", "-n", "4"}, value[64];
    int flag = 0, len = (int)sizeof value;
    MPI_Info info;
    CHECK_OK(MPI_Info_create_env(3, args, &info));
    CHECK_OK(MPI_Info_get_string(info, "command", &len, value, &flag));
    CHECK(flag && strcmp(value, "./app") == 0);
    len = (int)sizeof value;
    CHECK_OK(MPI_Info_get_string(info, "argv", &len, value, &flag));
    CHECK(flag && strcmp(value, "-n 4") == 0);
    CHECK_EQ_LONG(number_of(info, "maxprocs"), 1);
    len = (int)sizeof value;
    CHECK_OK(MPI_Info_get_string(info, "thread_level", &len, value, &flag));
    CHECK(flag && strncmp(value, "MPI_THREAD_", 11) == 0);
    CHECK_OK(MPI_Info_free(&info));
    CHECK_OK(MPI_Info_create_env(0, NULL, &info));
    CHECK_EQ_LONG(number_of(info, "maxprocs"), 1);
    CHECK_OK(MPI_Info_free(&info));
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    abi_info();
    keys_and_values();
    info_env();
    info_create_env();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
