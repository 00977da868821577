/* error_stack: the error codes datatype functions return are codes the MPI library itself can
 * read.  A code a datatype function returns can reach the MPI library's own error handling
 * without passing through the program: ROMIO, for one, returns such a code as the error of a
 * file operation, and MPICH's error stack takes it as the cause of its own error.  So the
 * program looks up the library's own PMPI_Error_class and PMPI_Error_string (in
 * libmpich.so.12, libmpi_abi.so.1 or Open MPI's libmpi.so.40, the library it is linked with,
 * found with dlopen(RTLD_NOLOAD): a library
 * that defines the MPI functions in front of it does not hide them there) and asks them about
 * codes returned by failing datatype calls:
 *  - MPI_Type_size(MPI_DATATYPE_NULL) (class MPI_ERR_TYPE), MPI_Type_contiguous with a
 *    negative count, MPI_Type_vector with a negative block length, and the last of 300 failing
 *    MPI_Type_get_extent calls (older codes may have lost their messages, the last may not);
 *  - the library's class of each code is the class MPI_Error_class gives the program, and
 *    MPI_SUCCESS is returned;
 *  - the library's string of each code is returned with MPI_SUCCESS, is not empty, has the
 *    length reported, holds only printable characters and newlines, and does not contain
 *    "(unknown)" (MPICH's mark of a code whose message it cannot find);
 *  - the library's error stack takes each code as the cause of an error of its own:
 *    MPIR_Err_create_code(code, ..., MPI_ERR_OTHER, "**other", NULL), the function through
 *    which MPICH's layers (its bindings, ROMIO) add their error on top of the error a callee
 *    returned, gives a code of the cause's class (MPICH passes the class of a cause it can
 *    read through an MPI_ERR_OTHER), and its string is readable as above.  MPICH rejects a
 *    cause that is neither a bare class nor a code of its own error ring with "INTERNAL
 *    ERROR: invalid error code" and gives MPI_ERR_OTHER; its dynamic codes
 *    (MPI_Add_error_code) are rejected that way too.  Skipped if the library has no such
 *    function;
 *  - nothing is printed on stderr meanwhile (MPICH prints "Invalid error code" or "INTERNAL
 *    ERROR" for codes it cannot decode). */
#define _GNU_SOURCE
#include "check_mpi.h"
#include <dlfcn.h>
#include <unistd.h>

/* The MPI library the program is linked with: MPICH's ABI, the MPI-5.0 standard ABI, or Open
 * MPI's. */
#if defined(MPI_ABI_VERSION) && MPI_ABI_VERSION >= 1
#define MPI_LIBRARY "libmpi_abi.so.1"
#elif defined(OPEN_MPI)
#define MPI_LIBRARY "libmpi.so.40"
#else
#define MPI_LIBRARY "libmpich.so.12"
#endif

typedef int (*error_class_fn)(int, int *);
typedef int (*error_string_fn)(int, char *, int *);
typedef int (*err_create_code_fn)(int, int, const char *, int, int, const char *, const char *, ...);

static err_create_code_fn g_create_code; /* MPICH's MPIR_Err_create_code, if exported */

static FILE *g_capture;
static int g_saved_stderr = -1;

/* Sends stderr to a temporary file until capture_end. */
static void capture_begin(void)
{
    fflush(stderr);
    g_capture = tmpfile();
    if (!g_capture)
        return;
    g_saved_stderr = dup(2);
    if (g_saved_stderr < 0 || dup2(fileno(g_capture), 2) < 0) {
        fclose(g_capture);
        g_capture = NULL;
    }
}

/* Restores stderr and returns what was written meanwhile (at most max - 1 bytes). */
static size_t capture_end(char *buf, size_t max)
{
    size_t n = 0;
    buf[0] = 0;
    if (!g_capture)
        return 0;
    fflush(stderr);
    dup2(g_saved_stderr, 2);
    close(g_saved_stderr);
    g_saved_stderr = -1;
    rewind(g_capture);
    n = fread(buf, 1, max - 1, g_capture);
    buf[n] = 0;
    fclose(g_capture);
    g_capture = NULL;
    return n;
}

static void check_code(error_class_fn lib_class, error_string_fn lib_string, int code, int want_class,
                       const char *what)
{
    char s[MPI_MAX_ERROR_STRING + 1], err[2048], label[256];
    int cls = -1, lcls = -1, len = -1, rc_class, rc_string, printable = 1;
    size_t i, nerr;

    CHECK(code != MPI_SUCCESS, what, "the call did not fail");
    MPI_CHECK(MPI_Error_class(code, &cls));
    if (want_class >= 0) {
        snprintf(label, sizeof label, "%s: class", what);
        CHECK_INT(cls, want_class, label);
    }
    memset(s, 0, sizeof s);
    capture_begin();
    rc_class = lib_class(code, &lcls);
    rc_string = lib_string(code, s, &len);
    nerr = capture_end(err, sizeof err);

    snprintf(label, sizeof label, "%s: the MPI library's PMPI_Error_class succeeds", what);
    CHECK_INT(rc_class, MPI_SUCCESS, label);
    snprintf(label, sizeof label, "%s: the MPI library's class is the program's", what);
    CHECK_INT(lcls, cls, label);
    snprintf(label, sizeof label, "%s: the MPI library's PMPI_Error_string succeeds", what);
    CHECK_INT(rc_string, MPI_SUCCESS, label);
    s[MPI_MAX_ERROR_STRING] = 0;
    for (i = 0; s[i]; i++)
        if (!((s[i] >= 0x20 && s[i] < 0x7f) || s[i] == '\n'))
            printable = 0;
    snprintf(label, sizeof label, "%s: the MPI library's string", what);
    CHECK(len > 0 && len == (int)strlen(s) && printable && !strstr(s, "(unknown)"), label,
          "length %d (strlen %zu), %s: \"%.200s\"", len, strlen(s), printable ? "printable" : "NOT printable", s);
    snprintf(label, sizeof label, "%s: nothing printed on stderr by the MPI library", what);
    CHECK(nerr == 0, label, "got \"%.300s\"", err);

    if (g_create_code) {
        int outer, ocls = -1, olen = -1, rc_oclass, rc_ostring;
        char os[MPI_MAX_ERROR_STRING + 1];
        memset(os, 0, sizeof os);
        capture_begin();
        outer = g_create_code(code, 0, "error_stack", __LINE__, MPI_ERR_OTHER, "**other", NULL);
        rc_oclass = lib_class(outer, &ocls);
        rc_ostring = lib_string(outer, os, &olen);
        nerr = capture_end(err, sizeof err);
        snprintf(label, sizeof label, "%s: the MPI library's error on top of it has the code's class", what);
        CHECK(rc_oclass == MPI_SUCCESS && ocls == cls, label, "rc %d, class %d, want %d", rc_oclass, ocls, cls);
        os[MPI_MAX_ERROR_STRING] = 0;
        printable = 1;
        for (i = 0; os[i]; i++)
            if (!((os[i] >= 0x20 && os[i] < 0x7f) || os[i] == '\n'))
                printable = 0;
        snprintf(label, sizeof label, "%s: the MPI library's string of its error on top of it", what);
        CHECK(rc_ostring == MPI_SUCCESS && olen > 0 && olen == (int)strlen(os) && printable, label,
              "rc %d, length %d, %s: \"%.200s\"", rc_ostring, olen, printable ? "printable" : "NOT printable", os);
        snprintf(label, sizeof label, "%s: nothing printed on stderr by the MPI library's error stack", what);
        CHECK(nerr == 0, label, "got \"%.300s\"", err);
    }
}

int main(int argc, char **argv)
{
    int rank, size, code, sz, i;
    void *lib;
    error_class_fn lib_class = NULL;
    error_string_fn lib_string = NULL;
    MPI_Datatype t;
    MPI_Aint lb, ext;

    start(&argc, &argv, "error_stack", &rank, &size);

    lib = dlopen(MPI_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
    CHECK(lib != NULL, "error_stack: " MPI_LIBRARY " is loaded", "dlopen: %s", dlerror());
    if (lib) {
        *(void **)&lib_class = dlsym(lib, "PMPI_Error_class");
        *(void **)&lib_string = dlsym(lib, "PMPI_Error_string");
        *(void **)&g_create_code = dlsym(lib, "MPIR_Err_create_code");
    }
    CHECK(lib_class && lib_string, "error_stack: the MPI library's PMPI_Error_class and PMPI_Error_string",
          "not found");
    if (lib_class && lib_string) {
        code = MPI_Type_size(MPI_DATATYPE_NULL, &sz);
        check_code(lib_class, lib_string, code, MPI_ERR_TYPE, "error_stack: MPI_Type_size(MPI_DATATYPE_NULL)");

        t = MPI_DATATYPE_NULL;
        code = MPI_Type_contiguous(-1, MPI_INT, &t);
        check_code(lib_class, lib_string, code, -1, "error_stack: MPI_Type_contiguous(-1, MPI_INT)");
        if (code == MPI_SUCCESS && t != MPI_DATATYPE_NULL)
            MPI_CHECK(MPI_Type_free(&t));

        t = MPI_DATATYPE_NULL;
        code = MPI_Type_vector(2, -3, 4, MPI_INT, &t);
        check_code(lib_class, lib_string, code, -1, "error_stack: MPI_Type_vector(2, -3, 4, MPI_INT)");
        if (code == MPI_SUCCESS && t != MPI_DATATYPE_NULL)
            MPI_CHECK(MPI_Type_free(&t));

        code = MPI_SUCCESS;
        for (i = 0; i < 300; i++)
            code = MPI_Type_get_extent(MPI_DATATYPE_NULL, &lb, &ext);
        check_code(lib_class, lib_string, code, MPI_ERR_TYPE,
                   "error_stack: the last of 300 MPI_Type_get_extent(MPI_DATATYPE_NULL)");
    }
    return finish();
}
