/*
 * dlopen_local.c: mpi-dtype finds the MPI library behind it however that library was loaded.
 *
 * The program is linked with mpi-dtype only. Its argument says how MPICH comes in:
 *
 *   dlopen PATH   the program dlopen()s PATH (libmpich) with RTLD_LOCAL, as Python's mpi4py
 *                 does, after a first process call that found no MPI (standalone answers);
 *                 MPI_Init and the process functions must then reach MPICH.
 *   env           nothing is loaded by the program; MPI_DTYPE_MPI_LIBRARY names libmpich,
 *                 which mpi-dtype loads itself: the calls must reach MPICH.
 *   none          no MPI is loaded: mpi-dtype answers itself (standalone mode).
 *
 * MPICH is recognised by MPI_Get_library_version; the datatype calls are mpi-dtype's in
 * every case. MPI_DTYPE_DEBUG=1 makes mpi-dtype print the mode it chose, which the tests
 * match too.
 */
#define _GNU_SOURCE
#include "check.h"

#include <dlfcn.h>

static int library_is_mpich(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    version[0] = '\0';
    CHECK_OK(MPI_Get_library_version(version, &len));
    printf("  library: %s\n", version);
    return strncmp(version, "MPICH Version:", 14) == 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "none";
    int expect_mpich = strcmp(mode, "none") != 0;
    int flag = -1, rank = -1, size = -1, type_size = -1;
    void *mpich = NULL;
    MPI_Datatype vector = MPI_DATATYPE_NULL;

    printf("dlopen_local %s\n", mode);
    if (strcmp(mode, "dlopen") == 0) {
        /* A first call while no MPI is loaded: answered standalone, and the failed search
           must not be remembered once MPICH is there. */
        CHECK_OK(MPI_Initialized(&flag));
        CHECK_EQ_LONG(flag, 0);
        CHECK(!library_is_mpich());
        if (!CHECK(argc > 2)) {
            return check_report(argv[0]);
        }
        mpich = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        if (!CHECK(mpich != NULL)) {
            printf("  dlopen: %s\n", dlerror());
            return check_report(argv[0]);
        }
        /* RTLD_LOCAL: MPICH's symbols are not in the global scope. */
        CHECK(dlsym(RTLD_DEFAULT, "MPIR_Dup_fn") == NULL);
    }
    CHECK_OK(MPI_Init(&argc, &argv));
    CHECK_EQ_LONG(library_is_mpich(), expect_mpich);
    CHECK_OK(MPI_Initialized(&flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_EQ_LONG(rank, 0);
    CHECK_EQ_LONG(size, 1);
    /* The datatype functions stay mpi-dtype's. */
    CHECK_OK(MPI_Type_vector(2, 3, 4, MPI_DOUBLE, &vector));
    CHECK_OK(MPI_Type_commit(&vector));
    CHECK_OK(MPI_Type_size(vector, &type_size));
    CHECK_EQ_LONG(type_size, 48);
    CHECK_OK(MPI_Type_free(&vector));
    CHECK_OK(MPI_Finalize());
    CHECK_OK(MPI_Finalized(&flag));
    CHECK_EQ_LONG(flag, 1);
    /* mpich stays open: MPICH's exit handlers run at exit. */
    return check_report(argv[0]);
}
