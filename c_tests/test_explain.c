/*
 * MPIX_Type_explain: the buffer-size contract (*needed is always the whole explanation with
 * its NUL, a short buffer gets a NUL-terminated prefix and nothing past it is touched, NULL
 * with size 0 asks for the size), each format, and the error classes of bad arguments.
 */
#include "check.h"

#define SENTINEL 'Z'

/* The particle of the README: struct { int; double; char[3]; }. */
static MPI_Datatype particle(void)
{
    int lengths[3] = {1, 1, 3};
    MPI_Aint displs[3] = {0, 8, 16};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t = MPI_DATATYPE_NULL;
    CHECK_OK(MPI_Type_create_struct(3, lengths, displs, types, &t));
    return t;
}

/* The whole explanation of `t` in `format`, malloc'ed (NULL if the call failed). */
static char *explained(MPI_Datatype t, const char *format)
{
    MPI_Count needed = -1, again = -1;
    char *text;
    if (!CHECK_OK(MPIX_Type_explain(t, format, NULL, 0, &needed)) || !CHECK(needed > 1)) {
        return NULL;
    }
    text = malloc((size_t)needed);
    if (text == NULL) {
        return NULL;
    }
    CHECK_OK(MPIX_Type_explain(t, format, text, needed, &again));
    CHECK_EQ_LONG(again, needed);
    CHECK_EQ_LONG(strlen(text) + 1, needed);
    return text;
}

static void check_formats(void)
{
    MPI_Datatype t = particle();
    char *text = explained(t, "text");
    char *json = explained(t, "json");
    char *svg = explained(t, "svg");
    char *html = explained(t, "html");
    CHECK(text != NULL && strstr(text, "MPI_Type_create_struct") != NULL);
    CHECK(text != NULL && strstr(text, "1 x MPI_INT, 1 x MPI_DOUBLE, 3 x MPI_CHAR") != NULL);
    CHECK(json != NULL && json[0] == '{');
    CHECK(json != NULL && strstr(json, "\"typemap\": [[\"MPI_INT\", 0], [\"MPI_DOUBLE\", 8]") != NULL);
    CHECK(json != NULL && strstr(json, "\"extent\": 24") != NULL);
    CHECK(svg != NULL && strncmp(svg, "<svg ", 5) == 0);
    CHECK(html != NULL && strncmp(html, "<!DOCTYPE html>", 15) == 0);
    free(text);
    free(json);
    free(svg);
    free(html);
    /* Uncommitted derived types and predefined types are explained too. */
    text = explained(MPI_DOUBLE_INT, "text");
    CHECK(text != NULL && strstr(text, "1 x MPI_DOUBLE, 1 x MPI_INT") != NULL);
    free(text);
    CHECK_OK(MPI_Type_free(&t));
}

static void check_truncation(void)
{
    MPI_Datatype t = particle();
    MPI_Count needed = -1, whole = -1;
    char buf[64];

    CHECK_OK(MPIX_Type_explain(t, "json", NULL, 0, &whole));
    CHECK(whole > (MPI_Count)sizeof buf);

    /* A short buffer: a NUL-terminated prefix, nothing written past size bytes. */
    memset(buf, SENTINEL, sizeof buf);
    CHECK_OK(MPIX_Type_explain(t, "json", buf, 10, &needed));
    CHECK_EQ_LONG(needed, whole);
    CHECK_EQ_LONG(strlen(buf), 9);
    CHECK(strncmp(buf, "{\n  \"expr", 9) == 0);
    CHECK(buf[10] == SENTINEL && buf[63] == SENTINEL);

    /* Room for the NUL alone. */
    memset(buf, SENTINEL, sizeof buf);
    CHECK_OK(MPIX_Type_explain(t, "json", buf, 1, &needed));
    CHECK(buf[0] == '\0' && buf[1] == SENTINEL);
    CHECK_EQ_LONG(needed, whole);

    /* Size 0 with a buffer writes nothing. */
    memset(buf, SENTINEL, sizeof buf);
    CHECK_OK(MPIX_Type_explain(t, "json", buf, 0, &needed));
    CHECK(buf[0] == SENTINEL);
    CHECK_EQ_LONG(needed, whole);
    CHECK_OK(MPI_Type_free(&t));
}

static void check_errors(void)
{
    MPI_Datatype t = particle(), gone = particle(), stale = gone;
    MPI_Count needed = 0;
    char buf[16];

    CHECK_OK(MPI_Type_free(&gone));
    CHECK_ERR(MPIX_Type_explain(MPI_DATATYPE_NULL, "text", buf, sizeof buf, &needed), MPI_ERR_TYPE);
    CHECK_ERR(MPIX_Type_explain((MPI_Datatype)0x12345, "text", buf, sizeof buf, &needed), MPI_ERR_TYPE);
    CHECK_ERR(MPIX_Type_explain(t, NULL, buf, sizeof buf, &needed), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_explain(t, "pdf", buf, sizeof buf, &needed), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_explain(t, "text", buf, sizeof buf, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_explain(t, "text", NULL, 5, &needed), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_explain(t, "text", buf, -1, &needed), MPI_ERR_COUNT);
    /* A freed handle is no longer a type. */
    CHECK_ERR(MPIX_Type_explain(stale, "text", buf, sizeof buf, &needed), MPI_ERR_TYPE);
    CHECK_OK(MPI_Type_free(&t));
    /* The profiling name is the same function. */
    CHECK_OK(PMPIX_Type_explain(MPI_INT, "text", NULL, 0, &needed));
    CHECK(needed > 1);
}

int main(int argc, char **argv)
{
    (void)argc;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check_formats();
    check_truncation();
    check_errors();
    MPI_Finalize();
    return check_report(argv[0]);
}
