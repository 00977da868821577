/*
 * MPI_ERRORS_ARE_FATAL is the default error handler: an error prints the function and the
 * problem on stderr and ends the process with the error class as its exit status. A child
 * process makes the error; this test checks how it ended and what it printed.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs `body` in a child process with its stderr on a pipe; returns the child's wait status
   and what it printed (at most size - 1 bytes) in `text`. */
static int run_child(void (*body)(void), char *text, size_t size)
{
    int fds[2];
    int status = -1;
    size_t got = 0;
    pid_t pid;
    text[0] = '\0';
    if (pipe(fds) != 0) {
        return -1;
    }
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        body();
        _exit(100); /* not reached: the error ended the process */
    }
    close(fds[1]);
    for (;;) {
        ssize_t n = read(fds[0], text + got, size - 1 - got);
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    text[got] = '\0';
    close(fds[0]);
    waitpid(pid, &status, 0);
    return status;
}

static void negative_count(void)
{
    MPI_Datatype t;
    MPI_Init(NULL, NULL);
    MPI_Type_contiguous(-3, MPI_INT, &t);
}

static void freed_handle(void)
{
    MPI_Datatype t, stale;
    int size;
    MPI_Init(NULL, NULL);
    MPI_Type_contiguous(2, MPI_INT, &t);
    stale = t;
    MPI_Type_free(&t);
    MPI_Type_size(stale, &size);
}

static void check_fatal(void (*body)(void), int expected_class, const char *message)
{
    char text[4096];
    int status = run_child(body, text, sizeof text);
    CHECK(WIFEXITED(status));
    if (WIFEXITED(status)) {
        CHECK_EQ_LONG(WEXITSTATUS(status), expected_class);
    }
    if (!CHECK(strstr(text, message) != NULL)) {
        printf("  stderr of the child: %s\n", text);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    check_fatal(negative_count, MPI_ERR_COUNT,
                "Fatal error in MPI_Type_contiguous: count must be non-negative, got -3 "
                "(MPI_ERR_COUNT: Invalid count argument)");
    check_fatal(freed_handle, MPI_ERR_TYPE,
                "Fatal error in MPI_Type_size: ");
    return check_report(argv[0]);
}
