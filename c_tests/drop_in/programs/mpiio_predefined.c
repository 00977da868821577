/* mpiio_predefined: MPI-IO in which the memory type of every read and write is a predefined
 * type (MPI_DOUBLE with a count), through derived and duplicated filetypes.
 *
 * MPICH 5 replaces each predefined datatype argument of its MPI functions by an internal
 * equivalent before the implementation sees it (MPIR_DATATYPE_REPLACE_BUILTIN: MPI_DOUBLE
 * becomes 0x4c83080b), and ROMIO then asks the datatype functions about that handle
 * (MPI_Type_size_x, MPI_Type_get_extent, MPI_Type_get_true_extent, MPIX_Type_iov_len, ...).
 * A library that answers those functions must accept such handles.  Every file operation
 * here therefore runs with MPI_ERRORS_ARE_FATAL on MPI_COMM_WORLD (files have
 * MPI_ERRORS_RETURN and every return code is checked): an error raised by a datatype function
 * that the MPI library calls internally cannot reach the program, and with the fatal handler
 * it ends the run with its message instead of leaving the library to work with undefined
 * outputs (which shows as a failed assertion in ROMIO's flattening, a crash in a read, or
 * wrong data).
 *  - An 8x8 global array of doubles, one 4x4 block per rank of a 2x2 grid: a view with etype
 *    MPI_DOUBLE and a subarray filetype; the first two rows of each block written with
 *    MPI_File_write_all(buf, 8, MPI_DOUBLE), the last two with MPI_File_write_at, the block
 *    read back with MPI_File_read_all after MPI_File_seek, MPI_Get_count on the status.
 *  - Rank 0 reads the whole file with a plain view (MPI_DOUBLE, MPI_DOUBLE) and
 *    MPI_File_read_at, and reads the file's bytes with stdio as well.
 *  - A keyval with copy and delete callbacks, an attribute on a vector filetype, a duplicate
 *    made with MPI_Type_dup (the copy callback runs) used as the filetype of a view whose
 *    ranks interleave pairs of doubles: MPI_File_write_all, MPI_File_iread_at, MPI_File_get_view
 *    (the types it returns freed unless predefined), MPI_File_read_at_all; once every type is
 *    freed and the file closed, each attribute value made (the one set and each copy) has
 *    had its delete callback run exactly once.  Rank 0 checks the file's bytes with stdio.
 * The files live in a fresh directory under $TMPDIR (else /tmp) made by rank 0 and are
 * removed at the end. */
#define _GNU_SOURCE
#include "check_mpi.h"
#include "mpiio_files.h"
#include <unistd.h>

#define G 8 /* global array G x G */
#define B 4 /* block B x B per rank */

static double gval(int r, int c) { return r * 100.0 + c + 0.25; }
static double ival(int rank, int k) { return rank * 1000.0 + k + 0.5; }

/* Attribute callbacks: values live in a pool; each copy stores the old value plus one. */
static int g_copies, g_deletes, g_bad;
static int g_pool[256];
static int g_npool;

static int copy_fn(MPI_Datatype oldtype, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldtype;
    (void)keyval;
    if (extra != &g_copies || g_npool >= 256) {
        g_bad++;
        *flag = 0;
        return MPI_SUCCESS;
    }
    g_pool[g_npool] = *(int *)in + 1;
    *(int **)out = &g_pool[g_npool++];
    *flag = 1;
    g_copies++;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Datatype type, int keyval, void *val, void *extra)
{
    (void)type;
    (void)keyval;
    if (extra != &g_copies || *(int *)val < 5)
        g_bad++;
    g_deletes++;
    return MPI_SUCCESS;
}

static int is_named(MPI_Datatype t)
{
    int ni, na, nd, comb;
    MPI_CHECK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    return comb == MPI_COMBINER_NAMED;
}

int main(int argc, char **argv)
{
    int rank, size, i, r, c, pr, pc, n;
    char dir[256], path[300], path2[300];
    MPI_File fh;
    MPI_Status st;
    MPI_Datatype ftype;

    start(&argc, &argv, "mpiio_predefined", &rank, &size);
    pr = rank / 2;
    pc = rank % 2;

    make_shared_dir(dir, sizeof dir, "mpiio-predefined", rank);
    snprintf(path, sizeof path, "%s/array.dat", dir);
    snprintf(path2, sizeof path2, "%s/pairs.dat", dir);

    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));

    /* Subarray view, predefined memory type. */
    {
        int gs[2] = {G, G}, ss[2] = {B, B}, s0[2] = {pr * B, pc * B};
        double blk[B * B], back[B * B];
        MPI_CHECK(MPI_Type_create_subarray(2, gs, ss, s0, MPI_ORDER_C, MPI_DOUBLE, &ftype));
        MPI_CHECK(MPI_Type_commit(&ftype));
        for (r = 0; r < B; r++)
            for (c = 0; c < B; c++)
                blk[r * B + c] = gval(pr * B + r, pc * B + c);
        MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
        MPI_CHECK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_File_set_view(fh, 0, MPI_DOUBLE, ftype, "native", MPI_INFO_NULL));
        MPI_CHECK(MPI_File_write_all(fh, blk, 2 * B, MPI_DOUBLE, &st));
        MPI_CHECK(MPI_Get_count(&st, MPI_DOUBLE, &n));
        CHECK_INT(n, 2 * B, "mpiio_predefined: MPI_Get_count after MPI_File_write_all");
        /* Every aggregator of the collective write done before any process writes on its own:
         * Open MPI 4.1's ompio may still read, merge and write back a file domain (zeros
         * where nothing was written yet) after another process returned from the call. */
        MPI_CHECK(MPI_File_sync(fh));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_CHECK(MPI_File_write_at(fh, 2 * B, blk + 2 * B, 2 * B, MPI_DOUBLE, &st));
        MPI_CHECK(MPI_Get_count(&st, MPI_DOUBLE, &n));
        CHECK_INT(n, 2 * B, "mpiio_predefined: MPI_Get_count after MPI_File_write_at");
        MPI_CHECK(MPI_File_sync(fh));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_CHECK(MPI_File_sync(fh));
        for (i = 0; i < B * B; i++)
            back[i] = -1.0;
        MPI_CHECK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
        MPI_CHECK(MPI_File_read_all(fh, back, B * B, MPI_DOUBLE, &st));
        CHECK_DOUBLES(back, blk, B * B, "mpiio_predefined: MPI_File_read_all through the subarray view");
        MPI_CHECK(MPI_Get_count(&st, MPI_DOUBLE, &n));
        CHECK_INT(n, B * B, "mpiio_predefined: MPI_Get_count after MPI_File_read_all");
        MPI_CHECK(MPI_File_close(&fh));
    }

    /* The whole file on rank 0: a plain view, then the raw bytes. */
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        double all[G * G], wall[G * G];
        MPI_File f0;
        MPI_Offset fsize;
        for (r = 0; r < G; r++)
            for (c = 0; c < G; c++)
                wall[r * G + c] = gval(r, c);
        MPI_CHECK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f0));
        MPI_CHECK(MPI_File_set_errhandler(f0, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_File_get_size(f0, &fsize));
        CHECK_INT(fsize, G * G * sizeof(double), "mpiio_predefined: size of the array file");
        MPI_CHECK(MPI_File_set_view(f0, 0, MPI_DOUBLE, MPI_DOUBLE, "native", MPI_INFO_NULL));
        for (i = 0; i < G * G; i++)
            all[i] = -3.0;
        MPI_CHECK(MPI_File_read_at(f0, 0, all, G * G, MPI_DOUBLE, &st));
        CHECK_DOUBLES(all, wall, G * G, "mpiio_predefined: global layout read with MPI_File_read_at");
        MPI_CHECK(MPI_Get_count(&st, MPI_DOUBLE, &n));
        CHECK_INT(n, G * G, "mpiio_predefined: MPI_Get_count after MPI_File_read_at");
        MPI_CHECK(MPI_File_close(&f0));
        for (i = 0; i < G * G; i++)
            all[i] = -3.0;
        CHECK_INT(read_raw(path, all, sizeof all), sizeof all, "mpiio_predefined: bytes of the array file (stdio)");
        CHECK_DOUBLES(all, wall, G * G, "mpiio_predefined: global layout of the array file (stdio)");
    }

    /* Attributes on a filetype, its duplicate as the filetype of a view. */
    {
        static int v5 = 5;
        int key, flag = 0, *got = NULL;
        double out[8], in[8];
        MPI_Datatype vec, dup, et, ft;
        MPI_Offset disp;
        MPI_Request req;
        char rep[MPI_MAX_DATAREP_STRING + 1];

        MPI_CHECK(MPI_Type_create_keyval(copy_fn, delete_fn, &key, &g_copies));
        /* pairs of doubles, one pair in every 4 (the ranks interleave) */
        MPI_CHECK(MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &vec));
        MPI_CHECK(MPI_Type_commit(&vec));
        MPI_CHECK(MPI_Type_set_attr(vec, key, &v5));
        MPI_CHECK(MPI_Type_dup(vec, &dup));
        CHECK_INT(g_copies, 1, "mpiio_predefined: copy callback count after MPI_Type_dup");
        MPI_CHECK(MPI_Type_get_attr(dup, key, &got, &flag));
        CHECK(flag == 1 && got && *got == 6, "mpiio_predefined: attribute copied to the duplicate",
              "flag %d value %d", flag, got ? *got : -1);

        for (i = 0; i < 8; i++)
            out[i] = ival(rank, i);
        MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, path2, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
        MPI_CHECK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_File_set_view(fh, rank * 2 * sizeof(double), MPI_DOUBLE, dup, "native", MPI_INFO_NULL));
        MPI_CHECK(MPI_File_write_all(fh, out, 8, MPI_DOUBLE, &st));
        MPI_CHECK(MPI_File_sync(fh));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_CHECK(MPI_File_sync(fh));

        for (i = 0; i < 8; i++)
            in[i] = -2.0;
        MPI_CHECK(MPI_File_iread_at(fh, 0, in, 8, MPI_DOUBLE, &req));
        MPI_CHECK(MPI_Wait(&req, &st));
        CHECK_DOUBLES(in, out, 8, "mpiio_predefined: MPI_File_iread_at through the duplicated filetype");

        MPI_CHECK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
        CHECK_INT(disp, rank * 2 * sizeof(double), "mpiio_predefined: view displacement");
        CHECK(is_named(et), "mpiio_predefined: etype of the view is predefined", "not NAMED");
        {
            int sz;
            MPI_Aint lb, ext;
            MPI_CHECK(MPI_Type_size(ft, &sz));
            CHECK_INT(sz, 8 * sizeof(double), "mpiio_predefined: size of the returned filetype");
            MPI_CHECK(MPI_Type_get_extent(ft, &lb, &ext));
            CHECK_INT(lb, 0, "mpiio_predefined: lower bound of the returned filetype");
            CHECK_INT(ext, 26 * sizeof(double), "mpiio_predefined: extent of the returned filetype");
        }
        if (!is_named(et))
            MPI_CHECK(MPI_Type_free(&et));
        if (!is_named(ft))
            MPI_CHECK(MPI_Type_free(&ft));

        for (i = 0; i < 8; i++)
            in[i] = -2.0;
        MPI_CHECK(MPI_File_read_at_all(fh, 0, in, 8, MPI_DOUBLE, &st));
        CHECK_DOUBLES(in, out, 8, "mpiio_predefined: MPI_File_read_at_all through the duplicated filetype");
        MPI_CHECK(MPI_File_close(&fh));

        MPI_CHECK(MPI_Type_free(&dup));
        MPI_CHECK(MPI_Type_free(&vec));
        MPI_CHECK(MPI_Type_free_keyval(&key));
        CHECK(g_copies >= 1 && g_deletes == g_copies + 1,
              "mpiio_predefined: one delete callback for the value set and for each copy",
              "%d copies, %d deletes", g_copies, g_deletes);
        CHECK_INT(g_bad, 0, "mpiio_predefined: callbacks saw their extra_state and values");

        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 0) {
            double raw[32], wraw[32];
            int k;
            /* the k-th 8 doubles hold the k-th pair of rank 0, of rank 1, ... */
            for (k = 0; k < 4; k++)
                for (r = 0; r < 4; r++)
                    for (i = 0; i < 2; i++)
                        wraw[k * 8 + r * 2 + i] = ival(r, 2 * k + i);
            for (i = 0; i < 32; i++)
                raw[i] = -9.0;
            CHECK_INT(read_raw(path2, raw, sizeof raw), sizeof raw, "mpiio_predefined: bytes of the pairs file (stdio)");
            CHECK_DOUBLES(raw, wraw, 32, "mpiio_predefined: interleaved pairs in the file (stdio)");
        }
    }

    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        MPI_CHECK(MPI_File_delete(path, MPI_INFO_NULL));
        MPI_CHECK(MPI_File_delete(path2, MPI_INFO_NULL));
        CHECK(rmdir(dir) == 0, "mpiio_predefined: removing the temporary directory", "rmdir %s failed", dir);
    }
    MPI_CHECK(MPI_Type_free(&ftype));
    return finish();
}
