/*
 * Every error raised gets its own error code, as in MPICH: MPI_Error_class maps it to its
 * class, and MPI_Error_string on it gives that error's own message, even after later errors.
 * The program's own classes and codes (MPI_Add_error_class, _code, _string) are numbered
 * after MPI_ERR_LASTCODE, raise MPI_LASTUSEDCODE, and carry their strings.
 */
#include "check.h"

static int contains(const char *text, const char *part)
{
    return strstr(text, part) != NULL;
}

static void error_text(int code, char *text)
{
    int len = -1;
    text[0] = '\0';
    CHECK_OK(MPI_Error_string(code, text, &len));
    CHECK_EQ_LONG(len, (long)strlen(text));
}

static void codes_keep_their_messages(void)
{
    char text[MPI_MAX_ERROR_STRING];
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int lengths[2] = {-3, 1}, disps[2] = {0, 4};
    int cls = -1;
    int indexed = MPI_Type_indexed(2, lengths, disps, MPI_INT, &t);
    int contiguous = MPI_Type_contiguous(-5, MPI_INT, &t);
    int size = MPI_Type_size(MPI_DATATYPE_NULL, &cls);
    int again = MPI_Type_contiguous(-5, MPI_INT, &t);
    CHECK_ERR(indexed, MPI_ERR_ARG);
    CHECK_ERR(contiguous, MPI_ERR_COUNT);
    CHECK_ERR(size, MPI_ERR_TYPE);
    CHECK_ERR(again, MPI_ERR_COUNT);
    /* distinct codes, none of them the bare class, all valid error codes */
    CHECK(indexed != contiguous && contiguous != again && indexed != size);
    CHECK(contiguous != MPI_ERR_COUNT);
#ifdef MPI_DTYPE_MPICH_ABI
    /* MPICH's ABI keeps every code at or below MPI_ERR_LASTCODE (0x3fffffff) */
    CHECK(indexed > 0 && indexed <= MPI_ERR_LASTCODE);
    CHECK(contiguous > 0 && contiguous <= MPI_ERR_LASTCODE);
#else
    /* the standard ABI's MPI_ERR_LASTCODE (0x3fff, as in MPICH 5's mpi_abi.h) bounds the
       classes; codes, like MPICH 5's, lie above it */
    CHECK(indexed > MPI_ERR_LASTCODE && contiguous > MPI_ERR_LASTCODE);
#endif
    CHECK_OK(MPI_Error_class(contiguous, &cls));
    CHECK_EQ_LONG(cls, MPI_ERR_COUNT);
    /* the first error's message, asked for after three more errors */
    error_text(indexed, text);
    CHECK(contains(text, "MPI_Type_indexed"));
    CHECK(contains(text, "array_of_blocklengths[0] must be non-negative, got -3"));
    error_text(contiguous, text);
    CHECK(contains(text, "MPI_Type_contiguous"));
    CHECK(contains(text, "count must be non-negative, got -5"));
    error_text(size, text);
    CHECK(contains(text, "MPI_Type_size"));
    CHECK(contains(text, "MPI_DATATYPE_NULL"));
    /* a bare class is still an error code with its class's text */
    error_text(MPI_ERR_COUNT, text);
    CHECK_EQ_STR(text, "Invalid count argument");
    CHECK_OK(MPI_Error_class(MPI_ERR_COUNT, &cls));
    CHECK_EQ_LONG(cls, MPI_ERR_COUNT);
    /* what is not an error code */
    CHECK_ERR(MPI_Error_class(MPI_ERR_LASTCODE, &cls), MPI_ERR_ARG);
    CHECK_ERR(MPI_Error_string(-12345, text, &cls), MPI_ERR_ARG);
}

/* MPI_Pack_external with a data representation other than "external32". */
static void unknown_datarep(void)
{
    char text[MPI_MAX_ERROR_STRING];
    int value = 1;
    char out[16];
    MPI_Aint position = 0;
    int rc = MPI_Pack_external("native", &value, 1, MPI_INT, out, sizeof out, &position);
    CHECK_ERR(rc, MPI_ERR_UNSUPPORTED_DATAREP);
    error_text(rc, text);
    CHECK(contains(text, "MPI_Pack_external"));
    CHECK(contains(text, "native"));
    CHECK(!contains(text, "MPI_File_set_view"));
    error_text(MPI_ERR_UNSUPPORTED_DATAREP, text);
    CHECK(!contains(text, "MPI_File_set_view"));
    CHECK_EQ_LONG(position, 0);
}

/* A program's error handler receives the code the call returns. */
static int handled_code;

static void remember_code(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handled_code = *code;
}

static void handlers_get_the_code(void)
{
    MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc, cls = -1;
    CHECK_OK(MPI_Comm_create_errhandler(remember_code, &handler));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler));
    rc = MPI_Type_vector(-1, 1, 1, MPI_INT, &t);
    CHECK_EQ_LONG(handled_code, rc);
    CHECK_OK(MPI_Error_class(handled_code, &cls));
    CHECK_EQ_LONG(cls, MPI_ERR_COUNT);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Errhandler_free(&handler));
}

static void added_classes(void)
{
    int class = -1, code = -1, got = -1, len = 0, flag = 0, *last = NULL;
    char text[MPI_MAX_ERROR_STRING];

    CHECK_OK(MPI_Add_error_class(&class));
    CHECK(class > MPI_ERR_LASTCODE);
    CHECK_OK(MPI_Add_error_code(class, &code));
    CHECK(code > class);
    CHECK_OK(MPI_Error_class(code, &got));
    CHECK_EQ_LONG(got, class);
    CHECK_OK(MPI_Error_class(class, &got));
    CHECK_EQ_LONG(got, class);
    CHECK_OK(MPI_Add_error_string(class, "a class of the program's"));
    CHECK_OK(MPI_Add_error_string(code, "a code of the program's"));
    CHECK_OK(MPI_Error_string(code, text, &len));
    CHECK_EQ_STR(text, "a code of the program's");
    CHECK_OK(MPI_Error_string(class, text, &len));
    CHECK_EQ_STR(text, "a class of the program's");
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
    CHECK(flag && *last == code);
    CHECK_ERR(MPI_Add_error_code(code, &got), MPI_ERR_ARG); /* a code is no class */
    CHECK_ERR(MPI_Add_error_string(MPI_ERR_TYPE, "mine"), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    codes_keep_their_messages();
    unknown_datarep();
    handlers_get_the_code();
    added_classes();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
