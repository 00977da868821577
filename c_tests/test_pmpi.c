/*
 * The profiling interface (MPI-4.1 §15.2): every exported MPI_ / MPIX_ function has a PMPI_
 * name, which is the same function. A tool defines MPI_X and calls PMPI_X; here the test
 * program is the tool for MPI_Type_size and MPI_Type_commit.
 *
 * The list of functions is the header's own: every prototype of mpi_dtype.h (whose path is
 * MPI_DTYPE_HEADER) is looked up in the loaded library, and its PMPI_ name must be there, at
 * the same address, and declared in the header.
 */
#define _GNU_SOURCE
#include "check.h"

#include <dlfcn.h>

static int size_calls, commit_calls;

/* The tool's wrappers: count, then call the library through the profiling names. */
int MPI_Type_size(MPI_Datatype datatype, int *size)
{
    ++size_calls;
    return PMPI_Type_size(datatype, size);
}

int MPI_Type_commit(MPI_Datatype *datatype)
{
    ++commit_calls;
    return PMPI_Type_commit(datatype);
}

static void check_wrappers(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int size = -1;
    MPI_Aint lb = -1, extent = -1;
    CHECK_OK(PMPI_Type_vector(3, 2, 4, MPI_INT, &t));
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_OK(MPI_Type_size(t, &size));
    CHECK_EQ_LONG(size, 24);
    CHECK_EQ_LONG(size_calls, 1);
    CHECK_EQ_LONG(commit_calls, 1);
    size = -1;
    CHECK_OK(PMPI_Type_size(t, &size));
    CHECK_EQ_LONG(size, 24);
    CHECK_EQ_LONG(size_calls, 1);
    CHECK_OK(PMPI_Type_get_extent(t, &lb, &extent));
    CHECK_EQ_LONG(extent, 40);
    CHECK_OK(PMPI_Type_free(&t));
    CHECK_EQ_LONG(t, MPI_DATATYPE_NULL);
    /* errors go through the same error handler and codes */
    t = MPI_INT;
    CHECK_ERR(PMPI_Type_free(&t), MPI_ERR_TYPE);
    CHECK_EQ_LONG(PMPI_Aint_add(40, 2), 42);
    CHECK(PMPI_Wtime() >= 0.0);
}

/* Every prototype of the header, looked up in the library that defines MPI_Type_contiguous. */
static void check_every_function(void)
{
    Dl_info info;
    void *library;
    FILE *header;
    char line[4096];
    int functions = 0, profiling = 0;

    if (!CHECK(dladdr((void *)&MPI_Type_contiguous, &info) != 0 && info.dli_fname != NULL)) {
        return;
    }
    library = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    header = fopen(MPI_DTYPE_HEADER, "r");
    if (!CHECK(library != NULL) || !CHECK(header != NULL)) {
        return;
    }
    while (fgets(line, sizeof line, header) != NULL) {
        char *open = strchr(line, '(');
        char *name;
        if (open == NULL || strstr(line, ");") == NULL || line[0] == '#' || line[0] == ' ') {
            continue;
        }
        *open = '\0';
        name = strrchr(line, ' ');
        name = name == NULL ? line : name + 1;
        if (*name == '*') {
            ++name;
        }
        if (strncmp(name, "PMPI", 4) == 0) {
            ++profiling;
            continue;
        }
        if (strncmp(name, "MPI_", 4) != 0 && strncmp(name, "MPIX_", 5) != 0) {
            continue;
        }
        ++functions;
        {
            char pname[sizeof line + 1];
            void *f = dlsym(library, name), *pf;
            snprintf(pname, sizeof pname, "P%s", name);
            pf = dlsym(library, pname);
            if (!check_true_(f != NULL && pf == f, pname, __FILE__, __LINE__)) {
                printf("  %s at %p, %s at %p\n", name, f, pname, pf);
            }
        }
    }
    fclose(header);
    dlclose(library);
#ifdef MPI_DTYPE_STANDARD_ABI
    CHECK(functions >= 93); /* the other headers' 100 or more, without the 7 MPI-1 ones */
#else
    CHECK(functions >= 100);
#endif
    CHECK_EQ_LONG(profiling, functions);
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(PMPI_Init(NULL, NULL));
    check_errors_return();
    check_wrappers();
    check_every_function();
    CHECK_OK(PMPI_Finalize());
    return check_report(argv[0]);
}
