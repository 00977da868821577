/*
 * mpiio_files.h: files of the MPI-IO programs: a fresh directory every rank writes its files
 * in, and a raw read of a file with stdio to check the bytes MPI-IO wrote. Include after
 * check_mpi.h, with _GNU_SOURCE (or POSIX 2008) defined for mkdtemp.
 */
#ifndef DROP_IN_MPIIO_FILES_H
#define DROP_IN_MPIIO_FILES_H

#include <unistd.h>

/* Rank 0 makes a new directory `$TMPDIR/mpi-dtype-<name>-<pid>-XXXXXX` (/tmp without
   TMPDIR) and every rank receives its path in `dir` (of `size` bytes, at least 256); the
   program aborts if it cannot be made. */
static inline void make_shared_dir(char *dir, int size, const char *name, int rank)
{
    memset(dir, 0, (size_t)size);
    if (rank == 0) {
        const char *tmp = getenv("TMPDIR");
        if (!tmp || !*tmp || strlen(tmp) > 150)
            tmp = "/tmp";
        snprintf(dir, (size_t)size, "%s/mpi-dtype-%s-%ld-XXXXXX", tmp, name, (long)getpid());
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            dir[0] = 0;
        }
    }
    MPI_CHECK(MPI_Bcast(dir, size, MPI_CHAR, 0, MPI_COMM_WORLD));
    if (dir[0] == 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
}

/* Reads up to `max` bytes of the file `path` with stdio on the calling rank; returns the
   number of bytes read (0 if it cannot be opened). */
static inline size_t read_raw(const char *path, void *buf, size_t max)
{
    size_t n = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        n = fread(buf, 1, max, f);
        fclose(f);
    }
    return n;
}

#endif
