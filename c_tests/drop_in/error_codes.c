/*
 * error_codes.c: under LD_PRELOAD=libmpi_dtype.so over an MPI of MPICH's ABI (built with
 * mpicc.mpich), the error codes mpi-dtype's datatype functions return are codes the MPI
 * behind reads: its own MPI_Error_class (reached with dlsym past the preload) gives the right
 * class, its MPI_Error_string names the function and the problem, and its error stack takes
 * them as the cause of an error of its own (MPIR_Err_create_code, as MPICH's functions and
 * ROMIO's do with the codes of the functions they call) without complaint and with the same
 * class. The codes also reach an error handler made with MPI_Comm_create_errhandler.
 */
#define _GNU_SOURCE /* RTLD_NOLOAD */
#include "check.h"

#include <dlfcn.h>

typedef int (*class_fn)(int, int *);
typedef int (*string_fn)(int, char *, int *);
typedef int (*create_fn)(int, int, const char *, int, int, const char *, const char *, ...);

static int handler_calls, handler_code;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    void *mpich = dlopen("libmpich.so.12", RTLD_NOW | RTLD_NOLOAD);
    if (!mpich) {
        fprintf(stderr, "FAILED: libmpich.so.12 is not loaded\n");
        return 1;
    }
    class_fn mpich_class = (class_fn)dlsym(mpich, "PMPI_Error_class");
    string_fn mpich_string = (string_fn)dlsym(mpich, "PMPI_Error_string");
    create_fn mpich_create = (create_fn)dlsym(mpich, "MPIR_Err_create_code");
    if (!mpich_class || !mpich_string || !mpich_create) {
        fprintf(stderr, "FAILED: libmpich has no PMPI_Error_class, PMPI_Error_string or "
                        "MPIR_Err_create_code\n");
        return 1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Errors of several classes, each several times (the codes are used in turn). */
    double data[4] = {0};
    char room[4];
    for (int round = 0; round < 20; round++) {
        int size, position = 0, count = -1;
        MPI_Datatype type;
        struct {
            int rc, class;
            const char *function, *problem;
        } errors[] = {
            {MPI_Type_size(MPI_DATATYPE_NULL, &size), MPI_ERR_TYPE, "MPI_Type_size",
             "MPI_DATATYPE_NULL"},
            {MPI_Pack(data, 4, MPI_DOUBLE, room, sizeof room, &position, MPI_COMM_WORLD),
             MPI_ERR_TRUNCATE, "MPI_Pack", "needs 32 bytes"},
            {MPI_Type_contiguous(count, MPI_INT, &type), MPI_ERR_COUNT, "MPI_Type_contiguous",
             "-1"},
        };
        for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
            int class = -1, theirs = -1, length = 0;
            char text[MPI_MAX_ERROR_STRING] = "";
            CHECK(errors[i].rc != MPI_SUCCESS);
            CHECK_OK(MPI_Error_class(errors[i].rc, &class));
            CHECK_EQ_LONG(class, errors[i].class);
            CHECK_OK(mpich_class(errors[i].rc, &theirs));
            CHECK_EQ_LONG(theirs, errors[i].class);
            CHECK_OK(mpich_string(errors[i].rc, text, &length));
            CHECK(length > 0);
            CHECK(strstr(text, errors[i].function) != NULL);
            CHECK(strstr(text, errors[i].problem) != NULL);
            /* MPICH's own error raised with this code as its cause keeps the class. */
            int wrapped = mpich_create(errors[i].rc, 0, "error_codes", __LINE__, MPI_ERR_OTHER,
                                       "**other", NULL);
            CHECK_OK(mpich_class(wrapped, &theirs));
            CHECK_EQ_LONG(theirs, errors[i].class);
            if (round == 0) {
                printf("%s -> %#x: %s\n", errors[i].function, (unsigned)errors[i].rc, text);
            }
        }
    }

    /* A handler of the program's, made in the MPI behind, gets the code. */
    MPI_Errhandler handler;
    CHECK_OK(MPI_Comm_create_errhandler(count_errors, &handler));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler));
    int size;
    int rc = MPI_Type_size(MPI_DATATYPE_NULL, &size);
    CHECK_EQ_LONG(handler_calls, 1);
    CHECK_EQ_LONG(handler_code, rc);
    int class = -1;
    CHECK_OK(mpich_class(rc, &class));
    CHECK_EQ_LONG(class, MPI_ERR_TYPE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_OK(MPI_Errhandler_free(&handler));

    MPI_Finalize();
    return check_report("drop_in_error_codes");
}
