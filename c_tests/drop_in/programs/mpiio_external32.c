/* mpiio_external32: MPI-IO with datarep "external32" and only predefined types, as etype,
 * filetype and memory type.
 *
 * For an external32 view ROMIO converts the program's buffer itself: it asks
 * MPI_Type_get_true_extent, MPI_Pack_external_size_c, MPI_Pack_external_c (and, reading,
 * MPI_Unpack_external_c) about the memory type, and returns any error code they give as the
 * error of the file operation, after MPICH's error stack has taken it as the cause of its own
 * error.  MPICH 5 hands ROMIO the internal equivalent of a predefined type (MPI_INT becomes
 * 0x4c810405), so these functions must accept that handle, and any code they return must be
 * one MPICH's error stack can read.
 *  - Each rank writes 8 MPI_INT with MPI_File_write_all through a view (etype and filetype
 *    MPI_INT) at its own displacement, reads them back with MPI_File_read_all, and
 *    MPI_Get_count counts 8.
 *  - Each rank writes 4 MPI_DOUBLE with MPI_File_write_at through a view of MPI_DOUBLE at its
 *    own displacement, and reads them back with MPI_File_read_at.
 *  - Rank 0 reads both files' bytes with stdio: big-endian 4-byte integers and big-endian
 *    IEEE doubles, rank after rank.
 * The files live in a fresh directory under $TMPDIR (else /tmp) made by rank 0 and are
 * removed at the end. */
#define _GNU_SOURCE
#include "check_mpi.h"
#include "mpiio_files.h"
#include <stdint.h>
#include <unistd.h>

#define NI 8 /* ints per rank */
#define ND 4 /* doubles per rank */

static int ival(int rank, int k) { return rank * 100000 - k * 4099 + 7; }
static double dval(int rank, int k) { return rank * 10.0 - k * 0.375 + 1.0 / 3.0; }

static void put_be(unsigned char *p, uint64_t v, int nbytes)
{
    int i;
    for (i = nbytes - 1; i >= 0; i--) {
        p[i] = (unsigned char)(v & 0xff);
        v >>= 8;
    }
}

int main(int argc, char **argv)
{
    int rank, size, i, r, n;
    char dir[256], path[300], path2[300];
    MPI_File fh;
    MPI_Status st;

    start(&argc, &argv, "mpiio_external32", &rank, &size);

    make_shared_dir(dir, sizeof dir, "mpiio-external32", rank);
    snprintf(path, sizeof path, "%s/ints.dat", dir);
    snprintf(path2, sizeof path2, "%s/doubles.dat", dir);

    /* Collective: MPI_INT everywhere. */
    {
        int out[NI], in[NI];
        char rep[MPI_MAX_DATAREP_STRING + 1];
        MPI_Offset disp;
        MPI_Datatype et, ft;
        for (i = 0; i < NI; i++) {
            out[i] = ival(rank, i);
            in[i] = -1;
        }
        MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
        MPI_CHECK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_File_set_view(fh, rank * NI * 4, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
        MPI_CHECK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
        CHECK_INT(disp, rank * NI * 4, "mpiio_external32: view displacement");
        CHECK(strcmp(rep, "external32") == 0, "mpiio_external32: view datarep", "got \"%s\"", rep);
        CHECK(et == MPI_INT && ft == MPI_INT, "mpiio_external32: view types are MPI_INT", "etype %#lx filetype %#lx",
              HANDLE_BITS(et), HANDLE_BITS(ft));
        MPI_CHECK(MPI_File_write_all(fh, out, NI, MPI_INT, &st));
        MPI_CHECK(MPI_Get_count(&st, MPI_INT, &n));
        CHECK_INT(n, NI, "mpiio_external32: MPI_Get_count after MPI_File_write_all");
        MPI_CHECK(MPI_File_sync(fh));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_CHECK(MPI_File_sync(fh));
        MPI_CHECK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
        MPI_CHECK(MPI_File_read_all(fh, in, NI, MPI_INT, &st));
        CHECK_INTS(in, out, NI, "mpiio_external32: MPI_File_read_all of MPI_INT");
        MPI_CHECK(MPI_Get_count(&st, MPI_INT, &n));
        CHECK_INT(n, NI, "mpiio_external32: MPI_Get_count after MPI_File_read_all");
        MPI_CHECK(MPI_File_close(&fh));
    }

    /* Independent: MPI_DOUBLE everywhere. */
    {
        double out[ND], in[ND];
        for (i = 0; i < ND; i++) {
            out[i] = dval(rank, i);
            in[i] = -1.0;
        }
        MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, path2, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
        MPI_CHECK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_File_set_view(fh, rank * ND * 8, MPI_DOUBLE, MPI_DOUBLE, "external32", MPI_INFO_NULL));
        MPI_CHECK(MPI_File_write_at(fh, 0, out, ND, MPI_DOUBLE, &st));
        MPI_CHECK(MPI_Get_count(&st, MPI_DOUBLE, &n));
        CHECK_INT(n, ND, "mpiio_external32: MPI_Get_count after MPI_File_write_at");
        MPI_CHECK(MPI_File_sync(fh));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_CHECK(MPI_File_sync(fh));
        MPI_CHECK(MPI_File_read_at(fh, 0, in, ND, MPI_DOUBLE, &st));
        CHECK_DOUBLES(in, out, ND, "mpiio_external32: MPI_File_read_at of MPI_DOUBLE");
        MPI_CHECK(MPI_File_close(&fh));
    }

    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        unsigned char raw[4 * NI * 4 + 16], want[4 * NI * 4];
        unsigned char rawd[4 * ND * 8 + 16], wantd[4 * ND * 8];
        for (r = 0; r < 4; r++)
            for (i = 0; i < NI; i++)
                put_be(want + (r * NI + i) * 4, (uint32_t)ival(r, i), 4);
        for (r = 0; r < 4; r++)
            for (i = 0; i < ND; i++) {
                double d = dval(r, i);
                uint64_t bits;
                memcpy(&bits, &d, sizeof bits);
                put_be(wantd + (r * ND + i) * 8, bits, 8);
            }
        memset(raw, 0, sizeof raw);
        memset(rawd, 0, sizeof rawd);
        CHECK_INT(read_raw(path, raw, sizeof raw), sizeof want, "mpiio_external32: size of the MPI_INT file (stdio)");
        CHECK_BYTES(raw, want, sizeof want, "mpiio_external32: the MPI_INT file holds big-endian ints, rank after rank");
        CHECK_INT(read_raw(path2, rawd, sizeof rawd), sizeof wantd, "mpiio_external32: size of the MPI_DOUBLE file (stdio)");
        CHECK_BYTES(rawd, wantd, sizeof wantd,
                    "mpiio_external32: the MPI_DOUBLE file holds big-endian doubles, rank after rank");
        MPI_CHECK(MPI_File_delete(path, MPI_INFO_NULL));
        MPI_CHECK(MPI_File_delete(path2, MPI_INFO_NULL));
        CHECK(rmdir(dir) == 0, "mpiio_external32: removing the temporary directory", "rmdir %s failed", dir);
    }
    return finish();
}
