/* mpiio: MPI-IO with derived file and memory types.
 *  - An 8x12 global array of doubles, one 4x6 block per rank of a 2x2 grid: file view with
 *    etype MPI_DOUBLE and a subarray filetype, written with MPI_File_write_all from the
 *    interior of a local array with ghost cells (subarray memory type), read back with
 *    MPI_File_read_all into the same layout (the ghosts must keep their sentinels), and the
 *    whole file read on rank 0 with a plain view and checked element by element.
 *  - MPI_File_get_view: displacement, etype, datarep, and the filetype decoded with
 *    MPI_Type_get_envelope/MPI_Type_get_contents (MPI_COMBINER_SUBARRAY and its integers,
 *    under any layers that keep the type map, such as MPI_COMBINER_DUP or a contiguous of
 *    count 1: the standard asks only for new types with equal type maps);
 *    derived types returned are freed, predefined ones are not.  The returned filetype is
 *    also used in MPI_Pack, MPI_Type_dup, a constructor, MPI_Sendrecv, names and attributes.
 *  - A view with datarep "external32", a derived etype (2 MPI_INT) and a resized vector
 *    filetype interleaving the ranks: written, read back through the view, and the raw file
 *    on rank 0 decoded as big-endian 4-byte integers.
 *  - A darray filetype (Fortran order) written with MPI_File_write_at_all, and a resized
 *    struct filetype with a hole interleaving the ranks, written with MPI_File_write and read
 *    with MPI_File_read_at into another struct layout; rank 0 checks both files' bytes.
 *  - Each rank tiles its own file with a filetype whose extent MPICH's rules and the
 *    standard's put differently (26-byte hvector, struct with an empty member): the data
 *    must sit at multiples of the extent MPI_Type_get_extent reports.
 * The files live in a fresh directory under $TMPDIR (else /tmp) made by rank 0 and are
 * removed at the end. */
#define _GNU_SOURCE
#include "check_mpi.h"
#include "mpiio_files.h"
#include <stddef.h>
#include <unistd.h>

#define GR 8
#define GC 12

static double gval(int r, int c) { return r * 100.0 + c + 0.5; }
static int xval(int rank, int k) { return rank * 1000 + k * 17 - 50; }

static int is_named(MPI_Datatype t)
{
    int ni, na, nd, comb;
    MPI_CHECK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    return comb == MPI_COMBINER_NAMED;
}

/* MPI_File_get_view returns new types with the type maps of the view's types; how they are
 * built is the implementation's choice (ROMIO returns MPI_Type_contiguous(1, t)).  Decodes
 * through any layers that leave the type map as it is (MPI_COMBINER_DUP, and
 * MPI_COMBINER_CONTIGUOUS of count 1), freeing each handle it leaves, and returns the first
 * other type (the caller frees it unless it is predefined). */
static MPI_Datatype unwrap(MPI_Datatype t)
{
    for (;;) {
        int ni, na, nd, comb, count = 0;
        MPI_Aint none[1];
        MPI_Datatype old;
        MPI_CHECK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
        if (comb == MPI_COMBINER_DUP) {
            CHECK(ni == 0 && na == 0 && nd == 1, "mpiio: envelope of a MPI_COMBINER_DUP type",
                  "ni %d na %d nd %d", ni, na, nd);
            MPI_CHECK(MPI_Type_get_contents(t, 0, 0, 1, &count, none, &old));
        } else if (comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && na == 0 && nd == 1) {
            MPI_CHECK(MPI_Type_get_contents(t, 1, 0, 1, &count, none, &old));
            if (count != 1) {
                if (!is_named(old))
                    MPI_CHECK(MPI_Type_free(&old));
                return t;
            }
        } else
            return t;
        MPI_CHECK(MPI_Type_free(&t));
        t = old;
    }
}

static int g_view_deletes, g_view_keyval = MPI_KEYVAL_INVALID;

static int view_delete(MPI_Datatype t, int keyval, void *val, void *extra)
{
    (void)t;
    (void)keyval;
    if (extra == &g_view_deletes && *(int *)val == 77)
        g_view_deletes++;
    else
        g_view_deletes += 1000;
    return MPI_SUCCESS;
}

/* The filetype MPI_File_get_view returned (made by the MPI library, not by the program) in
 * the datatype functions and in communication: MPI_Pack of the global array gives this rank's
 * block; MPI_Type_dup of it sends the block to the next rank; a contiguous type built on it
 * receives the previous rank's block into this rank's block of a global array; a name and an
 * attribute (whose delete callback runs when the type is freed) on it. */
static void returned_filetype_in_use(MPI_Datatype ft, int rank, int size, const int *dims)
{
    static int val77 = 77;
    double garr[GR * GC], gw[GR * GC], packed[GR * GC], wp[GR * GC];
    int LR = GR / dims[0], LC = GC / dims[1], pr = rank / dims[1], pc = rank % dims[1];
    int prev = (rank + size - 1) % size, ppr = prev / dims[1], ppc = prev % dims[1];
    int r, c, i, pos = 0, psz, flag = 0, *got = NULL, len = 0;
    MPI_Datatype ftd, one;
    char name[MPI_MAX_OBJECT_NAME + 1];

    for (i = 0; i < GR * GC; i++) {
        garr[i] = gval(i / GC, i % GC);
        packed[i] = wp[i] = -4.0;
    }
    MPI_CHECK(MPI_Pack_size(1, ft, MPI_COMM_WORLD, &psz));
    CHECK(psz >= LR * LC * (int)sizeof(double), "mpiio: MPI_Pack_size of the returned filetype",
          "%d", psz);
    MPI_CHECK(MPI_Pack(garr, 1, ft, packed, sizeof packed, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, LR * LC * sizeof(double), "mpiio: MPI_Pack position with the returned filetype");
    for (r = 0; r < LR; r++)
        for (c = 0; c < LC; c++)
            wp[r * LC + c] = gval(pr * LR + r, pc * LC + c);
    CHECK_DOUBLES(packed, wp, GR * GC, "mpiio: MPI_Pack of the global array with the returned filetype");

    MPI_CHECK(MPI_Type_dup(ft, &ftd));
    MPI_CHECK(MPI_Type_contiguous(1, ft, &one));
    MPI_CHECK(MPI_Type_commit(&one));
    for (i = 0; i < GR * GC; i++)
        gw[i] = packed[i] = -5.0;
    MPI_CHECK(MPI_Sendrecv(garr, 1, ftd, (rank + 1) % size, 40, packed, LR * LC, MPI_DOUBLE,
                           prev, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (r = 0; r < LR; r++)
        for (c = 0; c < LC; c++)
            gw[r * LC + c] = gval(ppr * LR + r, ppc * LC + c);
    CHECK_DOUBLES(packed, gw, GR * GC, "mpiio: send with a duplicate of the returned filetype");
    for (i = 0; i < GR * GC; i++)
        gw[i] = packed[i] = -6.0;
    MPI_CHECK(MPI_Sendrecv(wp, LR * LC, MPI_DOUBLE, (rank + 1) % size, 41, packed, 1, one, prev,
                           41, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (r = 0; r < LR; r++)
        for (c = 0; c < LC; c++)
            gw[(pr * LR + r) * GC + pc * LC + c] = gval(ppr * LR + r, ppc * LC + c);
    CHECK_DOUBLES(packed, gw, GR * GC, "mpiio: receive with a contiguous type built on the returned filetype");

    MPI_CHECK(MPI_Type_set_name(ftd, "view filetype copy"));
    MPI_CHECK(MPI_Type_get_name(ftd, name, &len));
    CHECK(strcmp(name, "view filetype copy") == 0 && len == (int)strlen(name),
          "mpiio: name of the duplicate of the returned filetype", "\"%s\" (%d)", name, len);
    MPI_CHECK(MPI_Type_free(&ftd));
    MPI_CHECK(MPI_Type_free(&one));

    MPI_CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, view_delete, &g_view_keyval,
                                     &g_view_deletes));
    MPI_CHECK(MPI_Type_set_attr(ft, g_view_keyval, &val77));
    MPI_CHECK(MPI_Type_get_attr(ft, g_view_keyval, &got, &flag));
    CHECK(flag == 1 && got == &val77, "mpiio: attribute on the returned filetype", "flag %d", flag);
    CHECK_INT(g_view_deletes, 0, "mpiio: no delete callback before the free");
}

int main(int argc, char **argv)
{
    int rank, size, i, r, c;
    int dims[2] = {0, 0}, pr, pc, LR, LC;
    char dir[256], path[300], path2[300], path3[300], path4[300];
    MPI_File fh;
    MPI_Status st;
    MPI_Datatype ftype, mtype;
    double *loc, *want;

    start(&argc, &argv, "mpiio", &rank, &size);

    make_shared_dir(dir, sizeof dir, "mpiio", rank);
    snprintf(path, sizeof path, "%s/array.dat", dir);
    snprintf(path2, sizeof path2, "%s/external32.dat", dir);
    snprintf(path3, sizeof path3, "%s/darray.dat", dir);
    snprintf(path4, sizeof path4, "%s/records.dat", dir);

    MPI_CHECK(MPI_Dims_create(size, 2, dims));
    pr = rank / dims[1];
    pc = rank % dims[1];
    LR = GR / dims[0];
    LC = GC / dims[1];

    {
        int gs[2] = {GR, GC}, ss[2] = {LR, LC}, st0[2] = {pr * LR, pc * LC};
        int ms[2] = {LR + 2, LC + 2}, mst[2] = {1, 1};
        MPI_CHECK(MPI_Type_create_subarray(2, gs, ss, st0, MPI_ORDER_C, MPI_DOUBLE, &ftype));
        MPI_CHECK(MPI_Type_commit(&ftype));
        MPI_CHECK(MPI_Type_create_subarray(2, ms, ss, mst, MPI_ORDER_C, MPI_DOUBLE, &mtype));
        MPI_CHECK(MPI_Type_commit(&mtype));
    }
    loc = malloc((LR + 2) * (LC + 2) * sizeof(double));
    want = malloc((LR + 2) * (LC + 2) * sizeof(double));

    /* Write the blocks. */
    for (r = 0; r < LR + 2; r++)
        for (c = 0; c < LC + 2; c++) {
            int in = r >= 1 && r <= LR && c >= 1 && c <= LC;
            loc[r * (LC + 2) + c] = in ? gval(pr * LR + r - 1, pc * LC + c - 1) : -1.0 - r * 100 - c;
        }
    MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    MPI_CHECK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_File_set_view(fh, 0, MPI_DOUBLE, ftype, "native", MPI_INFO_NULL));
    MPI_CHECK(MPI_File_write_all(fh, loc, 1, mtype, &st));
    {
        int n;
        MPI_CHECK(MPI_Get_count(&st, mtype, &n));
        CHECK_INT(n, 1, "mpiio: MPI_Get_count after MPI_File_write_all");
        MPI_CHECK(MPI_Get_elements(&st, mtype, &n));
        CHECK_INT(n, LR * LC, "mpiio: MPI_Get_elements after MPI_File_write_all");
    }

    /* MPI_File_get_view and the decoded filetype. */
    {
        MPI_Offset disp;
        MPI_Datatype et, ft;
        char rep[MPI_MAX_DATAREP_STRING + 1];
        int ni, na, nd, comb, sz;
        MPI_CHECK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
        CHECK_INT(disp, 0, "mpiio: MPI_File_get_view displacement");
        CHECK(strcmp(rep, "native") == 0, "mpiio: MPI_File_get_view datarep", "got \"%s\"", rep);
        CHECK(is_named(et), "mpiio: MPI_File_get_view etype is predefined", "combiner not NAMED");
        MPI_CHECK(MPI_Type_size(et, &sz));
        CHECK_INT(sz, sizeof(double), "mpiio: size of the returned etype");
        MPI_CHECK(MPI_Type_size(ft, &sz));
        CHECK_INT(sz, LR * LC * sizeof(double), "mpiio: size of the returned filetype");
        {
            MPI_Aint lb, ext;
            MPI_CHECK(MPI_Type_get_extent(ft, &lb, &ext));
            CHECK_INT(lb, 0, "mpiio: lower bound of the returned filetype");
            CHECK_INT(ext, GR * GC * sizeof(double), "mpiio: extent of the returned filetype");
        }
        returned_filetype_in_use(ft, rank, size, dims);
        ft = unwrap(ft);
        CHECK_INT(g_view_deletes, 1, "mpiio: delete callback of the attribute on the returned filetype");
        MPI_CHECK(MPI_Type_free_keyval(&g_view_keyval));
        MPI_CHECK(MPI_Type_get_envelope(ft, &ni, &na, &nd, &comb));
        CHECK_INT(comb, MPI_COMBINER_SUBARRAY, "mpiio: combiner of the returned filetype");
        CHECK_INT(ni, 8, "mpiio: number of integers of the subarray filetype");
        CHECK_INT(na, 0, "mpiio: number of addresses of the subarray filetype");
        CHECK_INT(nd, 1, "mpiio: number of datatypes of the subarray filetype");
        if (comb == MPI_COMBINER_SUBARRAY && ni == 8 && na == 0 && nd == 1) {
            int ints[8], wi[8] = {2, GR, GC, LR, LC, pr * LR, pc * LC, MPI_ORDER_C};
            MPI_Aint addrs[1];
            MPI_Datatype types[1];
            MPI_CHECK(MPI_Type_get_contents(ft, 8, 0, 1, ints, addrs, types));
            CHECK_INTS(ints, wi, 8, "mpiio: integers of the subarray filetype");
            CHECK(is_named(types[0]), "mpiio: old type of the filetype is predefined", "not NAMED");
            MPI_CHECK(MPI_Type_size(types[0], &sz));
            CHECK_INT(sz, sizeof(double), "mpiio: size of the filetype's old type");
            if (!is_named(types[0]))
                MPI_CHECK(MPI_Type_free(&types[0]));
        }
        if (!is_named(et))
            MPI_CHECK(MPI_Type_free(&et));
        if (!is_named(ft))
            MPI_CHECK(MPI_Type_free(&ft));
    }

    /* Read back through the view. */
    MPI_CHECK(MPI_File_sync(fh));
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_CHECK(MPI_File_sync(fh));
    for (r = 0; r < LR + 2; r++)
        for (c = 0; c < LC + 2; c++) {
            int in = r >= 1 && r <= LR && c >= 1 && c <= LC;
            want[r * (LC + 2) + c] = loc[r * (LC + 2) + c];
            loc[r * (LC + 2) + c] = in ? -7.25 : -1.0 - r * 100 - c;
        }
    MPI_CHECK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    MPI_CHECK(MPI_File_read_all(fh, loc, 1, mtype, &st));
    CHECK_DOUBLES(loc, want, (LR + 2) * (LC + 2), "mpiio: MPI_File_read_all through the subarray view");
    {
        int n;
        MPI_CHECK(MPI_Get_elements(&st, mtype, &n));
        CHECK_INT(n, LR * LC, "mpiio: MPI_Get_elements after MPI_File_read_all");
    }
    MPI_CHECK(MPI_File_close(&fh));

    /* The whole file on rank 0 with a plain view. */
    if (rank == 0) {
        double all[GR * GC], wall[GR * GC];
        MPI_Offset fsize;
        MPI_File f0;
        MPI_CHECK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f0));
        MPI_CHECK(MPI_File_get_size(f0, &fsize));
        CHECK_INT(fsize, GR * GC * sizeof(double), "mpiio: size of the array file");
        MPI_CHECK(MPI_File_set_view(f0, 0, MPI_DOUBLE, MPI_DOUBLE, "native", MPI_INFO_NULL));
        for (i = 0; i < GR * GC; i++)
            all[i] = -3.0;
        MPI_CHECK(MPI_File_read_at(f0, 0, all, GR * GC, MPI_DOUBLE, &st));
        for (r = 0; r < GR; r++)
            for (c = 0; c < GC; c++)
                wall[r * GC + c] = gval(r, c);
        CHECK_DOUBLES(all, wall, GR * GC, "mpiio: global layout of the array file");
        MPI_CHECK(MPI_File_close(&f0));
    }

    /* external32 with a derived etype and filetype. */
    {
        MPI_Datatype pair, vec, ft32;
        int out[20], in[20], wi[20];
        MPI_Offset disp;
        MPI_Datatype et, ft;
        char rep[MPI_MAX_DATAREP_STRING + 1];
        MPI_CHECK(MPI_Type_contiguous(2, MPI_INT, &pair));
        MPI_CHECK(MPI_Type_commit(&pair));
        MPI_CHECK(MPI_Type_vector(5, 1, 4, pair, &vec));
        MPI_CHECK(MPI_Type_create_resized(vec, 0, 20 * 8, &ft32)); /* 20 pairs of 8 bytes */
        MPI_CHECK(MPI_Type_commit(&ft32));
        for (i = 0; i < 20; i++)
            out[i] = wi[i] = xval(rank, i);
        MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, path2, MPI_MODE_CREATE | MPI_MODE_RDWR,
                                MPI_INFO_NULL, &fh));
        MPI_CHECK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_File_set_view(fh, rank * 8, pair, ft32, "external32", MPI_INFO_NULL));
        MPI_CHECK(MPI_File_write_all(fh, out, 20, MPI_INT, &st));
        MPI_CHECK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
        CHECK_INT(disp, rank * 8, "mpiio: external32 view displacement");
        CHECK(strcmp(rep, "external32") == 0, "mpiio: external32 view datarep", "got \"%s\"", rep);
        et = unwrap(et);
        ft = unwrap(ft);
        {
            int ni, na, nd, comb;
            MPI_CHECK(MPI_Type_get_envelope(et, &ni, &na, &nd, &comb));
            CHECK_INT(comb, MPI_COMBINER_CONTIGUOUS, "mpiio: combiner of the external32 etype");
            if (comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && na == 0 && nd == 1) {
                int count = 0, sz;
                MPI_Aint none[1];
                MPI_Datatype old;
                MPI_CHECK(MPI_Type_get_contents(et, 1, 0, 1, &count, none, &old));
                CHECK_INT(count, 2, "mpiio: count of the external32 etype");
                CHECK(is_named(old), "mpiio: old type of the external32 etype is predefined", "not NAMED");
                MPI_CHECK(MPI_Type_size(old, &sz));
                CHECK_INT(sz, 4, "mpiio: size of the old type of the external32 etype");
                if (!is_named(old))
                    MPI_CHECK(MPI_Type_free(&old));
            }
            MPI_CHECK(MPI_Type_get_envelope(ft, &ni, &na, &nd, &comb));
            CHECK_INT(comb, MPI_COMBINER_RESIZED, "mpiio: combiner of the external32 filetype");
            if (comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1) {
                int none[1];
                MPI_Aint lbext[2];
                MPI_Datatype old;
                MPI_CHECK(MPI_Type_get_contents(ft, 0, 2, 1, none, lbext, &old));
                CHECK_INT(lbext[0], 0, "mpiio: lower bound of the external32 filetype");
                CHECK_INT(lbext[1], 160, "mpiio: extent of the external32 filetype");
                MPI_CHECK(MPI_Type_get_envelope(old, &ni, &na, &nd, &comb));
                CHECK_INT(comb, MPI_COMBINER_VECTOR, "mpiio: combiner under the resized filetype");
                if (comb != MPI_COMBINER_NAMED)
                    MPI_CHECK(MPI_Type_free(&old));
            }
        }
        if (!is_named(et))
            MPI_CHECK(MPI_Type_free(&et));
        if (!is_named(ft))
            MPI_CHECK(MPI_Type_free(&ft));
        MPI_CHECK(MPI_File_sync(fh));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_CHECK(MPI_File_sync(fh));
        for (i = 0; i < 20; i++)
            in[i] = -1;
        MPI_CHECK(MPI_File_read_at_all(fh, 0, in, 20, MPI_INT, &st));
        CHECK_INTS(in, wi, 20, "mpiio: external32 read back through the view");
        MPI_CHECK(MPI_File_close(&fh));

        if (rank == 0) {
            unsigned char raw[320 + 8];
            int k, got;
            MPI_Offset fsize;
            MPI_File f0;
            MPI_CHECK(MPI_File_open(MPI_COMM_SELF, path2, MPI_MODE_RDONLY, MPI_INFO_NULL, &f0));
            MPI_CHECK(MPI_File_get_size(f0, &fsize));
            CHECK_INT(fsize, 320, "mpiio: size of the external32 file");
            memset(raw, 0xAA, sizeof raw);
            MPI_CHECK(MPI_File_read_at(f0, 0, raw, 320, MPI_BYTE, &st));
            MPI_CHECK(MPI_Get_count(&st, MPI_BYTE, &got));
            CHECK_INT(got, 320, "mpiio: bytes read from the external32 file");
            {
                unsigned char wraw[320 + 8];
                memset(wraw, 0xAA, sizeof wraw);
                for (r = 0; r < 4; r++)
                    for (k = 0; k < 20; k++) { /* int k of rank r: pair k/2, element k%2 */
                        int pj = k / 2, tile = pj / 5, j = pj % 5;
                        long off = (long)(tile * 20 + 4 * j + r) * 8 + (k % 2) * 4;
                        unsigned int v = (unsigned int)xval(r, k);
                        wraw[off] = (unsigned char)(v >> 24);
                        wraw[off + 1] = (unsigned char)(v >> 16);
                        wraw[off + 2] = (unsigned char)(v >> 8);
                        wraw[off + 3] = (unsigned char)v;
                    }
                CHECK_BYTES(raw, wraw, sizeof raw, "mpiio: external32 file holds big-endian ints in the interleaved layout");
            }
            MPI_CHECK(MPI_File_close(&f0));
        }
        MPI_CHECK(MPI_Type_free(&pair));
        MPI_CHECK(MPI_Type_free(&vec));
        MPI_CHECK(MPI_Type_free(&ft32));
    }

    /* A darray filetype (cyclic rows x block columns, Fortran order) with
     * MPI_File_write_at_all, and a struct filetype with a hole, interleaving the ranks,
     * with individual MPI_File_write and MPI_File_read through other memory layouts. */
    {
        int gs[2] = {6, 8}, di[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
        int da[2] = {1, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {2, 2};
        int c0 = rank / 2, c1 = rank % 2, n = 0, j, mine[48], all[48], wall[48];
        MPI_Datatype dft;
        MPI_CHECK(MPI_Type_create_darray(4, rank, 2, gs, di, da, ps, MPI_ORDER_FORTRAN, MPI_INT, &dft));
        MPI_CHECK(MPI_Type_commit(&dft));
        for (j = 0; j < 8; j++) /* Fortran order: element (i, j) at i + 6 j, i fastest */
            for (i = 0; i < 6; i++)
                if (i % 2 == c0 && j / 4 == c1)
                    mine[n++] = 1000 + i + 6 * j;
        CHECK_INT(n, 12, "mpiio: elements of the darray filetype");
        MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, path3, MPI_MODE_CREATE | MPI_MODE_RDWR,
                                MPI_INFO_NULL, &fh));
        MPI_CHECK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_File_set_view(fh, 0, MPI_INT, dft, "native", MPI_INFO_NULL));
        MPI_CHECK(MPI_File_write_at_all(fh, 0, mine, n, MPI_INT, &st));
        MPI_CHECK(MPI_File_close(&fh));
        MPI_CHECK(MPI_Type_free(&dft));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 0) {
            MPI_File f0;
            MPI_CHECK(MPI_File_open(MPI_COMM_SELF, path3, MPI_MODE_RDONLY, MPI_INFO_NULL, &f0));
            for (i = 0; i < 48; i++) {
                all[i] = -1;
                wall[i] = 1000 + i;
            }
            MPI_CHECK(MPI_File_read_at(f0, 0, all, 48, MPI_INT, &st));
            CHECK_INTS(all, wall, 48, "mpiio: file written through darray views holds the global array");
            MPI_CHECK(MPI_File_close(&f0));
        }
    }
    {
        struct rec {
            int i;
            double d;
        } out[3];
        struct back {
            double d;
            char pad[3];
            int i;
        } in[3], win[3];
        MPI_Datatype sraw, ftype2, mraw, mtype2, braw, btype;
        int bl[2] = {1, 1};
        MPI_Aint dl[2] = {0, 8}, bdl[2] = {offsetof(struct back, i), offsetof(struct back, d)};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &sraw));
        MPI_CHECK(MPI_Type_create_resized(sraw, 0, 64, &ftype2)); /* 4 ranks x 16 bytes */
        MPI_CHECK(MPI_Type_commit(&ftype2));
        dl[1] = offsetof(struct rec, d);
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &mraw));
        MPI_CHECK(MPI_Type_create_resized(mraw, 0, sizeof(struct rec), &mtype2));
        MPI_CHECK(MPI_Type_commit(&mtype2));
        MPI_CHECK(MPI_Type_create_struct(2, bl, bdl, ty, &braw));
        MPI_CHECK(MPI_Type_create_resized(braw, 0, sizeof(struct back), &btype));
        MPI_CHECK(MPI_Type_commit(&btype));
        memset(out, 0x77, sizeof out);
        for (i = 0; i < 3; i++) {
            out[i].i = rank * 100 + i;
            out[i].d = rank + i * 0.5;
        }
        MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, path4, MPI_MODE_CREATE | MPI_MODE_RDWR,
                                MPI_INFO_NULL, &fh));
        MPI_CHECK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_File_set_view(fh, rank * 16, MPI_BYTE, ftype2, "native", MPI_INFO_NULL));
        MPI_CHECK(MPI_File_write(fh, out, 3, mtype2, &st));
        {
            int cnt;
            MPI_CHECK(MPI_Get_count(&st, mtype2, &cnt));
            CHECK_INT(cnt, 3, "mpiio: MPI_Get_count after MPI_File_write of 3 structs");
        }
        MPI_CHECK(MPI_File_sync(fh));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_CHECK(MPI_File_sync(fh));
        /* read the previous rank's records: its view */
        MPI_CHECK(MPI_File_set_view(fh, ((rank + 3) % 4) * 16, MPI_BYTE, ftype2, "native",
                                    MPI_INFO_NULL));
        memset(in, 0x55, sizeof in);
        memset(win, 0x55, sizeof win);
        for (i = 0; i < 3; i++) {
            win[i].i = ((rank + 3) % 4) * 100 + i;
            win[i].d = (rank + 3) % 4 + i * 0.5;
        }
        MPI_CHECK(MPI_File_read_at(fh, 0, in, 3, btype, &st));
        CHECK_BYTES(in, win, sizeof in, "mpiio: struct records read through the struct view into another layout");
        MPI_CHECK(MPI_File_close(&fh));
        if (rank == 0) {
            unsigned char raw[192 + 8], wraw[192 + 8];
            MPI_File f0;
            MPI_Offset fsize;
            int r, k;
            MPI_CHECK(MPI_File_open(MPI_COMM_SELF, path4, MPI_MODE_RDONLY, MPI_INFO_NULL, &f0));
            MPI_CHECK(MPI_File_get_size(f0, &fsize));
            CHECK_INT(fsize, 192, "mpiio: size of the struct-view file");
            memset(raw, 0xAA, sizeof raw);
            memset(wraw, 0xAA, sizeof wraw);
            MPI_CHECK(MPI_File_read_at(f0, 0, raw, 192, MPI_BYTE, &st));
            for (k = 0; k < 3; k++)
                for (r = 0; r < 4; r++) {
                    int iv = r * 100 + k;
                    double dv = r + k * 0.5;
                    memcpy(wraw + k * 64 + r * 16, &iv, 4);
                    /* the 4-byte hole was never written: its contents are not defined */
                    memcpy(wraw + k * 64 + r * 16 + 4, raw + k * 64 + r * 16 + 4, 4);
                    memcpy(wraw + k * 64 + r * 16 + 8, &dv, 8);
                }
            CHECK_BYTES(raw, wraw, sizeof raw, "mpiio: struct-view file layout (ints and doubles of every rank)");
            MPI_CHECK(MPI_File_close(&f0));
        }
        MPI_CHECK(MPI_Type_free(&sraw));
        MPI_CHECK(MPI_Type_free(&ftype2));
        MPI_CHECK(MPI_Type_free(&mraw));
        MPI_CHECK(MPI_Type_free(&mtype2));
        MPI_CHECK(MPI_Type_free(&braw));
        MPI_CHECK(MPI_Type_free(&btype));
    }

    /* Filetypes whose extent is where MPICH's own rules and the standard's differ: the file
     * is tiled with the extent MPI_Type_get_extent reports.  Each rank its own file. */
    {
        char tpath[320];
        MPI_Datatype ft3;
        MPI_Aint lb3, ext3, disp3[2];
        int len3[2], k, j, n3 = 2;
        unsigned char out3[36], raw3[512];
        MPI_File f3;
        MPI_Offset fsize;
        if (rank % 2 == 0) {
            MPI_CHECK(MPI_Type_create_hvector(2, 1, 26, MPI_UINT32_T, &ft3));
            disp3[0] = 0, len3[0] = 4, disp3[1] = 26, len3[1] = 4;
        } else {
            MPI_Datatype empty;
            int bl[3] = {1, 1, 1};
            MPI_Aint dl[3] = {0, 100, 8};
            MPI_Datatype ty[3];
            MPI_CHECK(MPI_Type_contiguous(0, MPI_INT, &empty));
            ty[0] = MPI_INT;
            ty[1] = empty;
            ty[2] = MPI_DOUBLE;
            MPI_CHECK(MPI_Type_create_struct(3, bl, dl, ty, &ft3));
            MPI_CHECK(MPI_Type_free(&empty));
            disp3[0] = 0, len3[0] = 4, disp3[1] = 8, len3[1] = 8;
        }
        MPI_CHECK(MPI_Type_commit(&ft3));
        MPI_CHECK(MPI_Type_get_extent(ft3, &lb3, &ext3));
        snprintf(tpath, sizeof tpath, "%s/tiles-%d.dat", dir, rank);
        for (i = 0; i < (int)sizeof out3; i++)
            out3[i] = (unsigned char)(rank * 31 + i * 7 + 1);
        MPI_CHECK(MPI_File_open(MPI_COMM_SELF, tpath, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &f3));
        MPI_CHECK(MPI_File_set_errhandler(f3, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_File_set_view(f3, 0, MPI_BYTE, ft3, "native", MPI_INFO_NULL));
        /* 3 tiles: 3 * (4 + 4) or 3 * (4 + 8) bytes */
        MPI_CHECK(MPI_File_write(f3, out3, 3 * (len3[0] + len3[1]), MPI_BYTE, &st));
        MPI_CHECK(MPI_File_close(&f3));
        MPI_CHECK(MPI_File_open(MPI_COMM_SELF, tpath, MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE,
                                MPI_INFO_NULL, &f3));
        MPI_CHECK(MPI_File_get_size(f3, &fsize));
        CHECK_INT(fsize, 2 * ext3 + disp3[1] + len3[1],
                  rank % 2 == 0 ? "mpiio: size of a file tiled with hvector(2, 1, 26 bytes, MPI_UINT32_T)"
                                : "mpiio: size of a file tiled with a struct with an empty member");
        if (fsize > 0 && fsize <= (MPI_Offset)sizeof raw3) {
            unsigned char want3[512];
            MPI_CHECK(MPI_File_read_at(f3, 0, raw3, (int)fsize, MPI_BYTE, &st));
            memcpy(want3, raw3, (size_t)fsize); /* bytes between the tiles' data: not defined */
            j = 0;
            for (k = 0; k < 3; k++)
                for (i = 0; i < n3; i++) {
                    memcpy(want3 + k * ext3 + disp3[i], out3 + j, len3[i]);
                    j += len3[i];
                }
            CHECK_BYTES(raw3, want3, (size_t)fsize,
                        rank % 2 == 0 ? "mpiio: data tiled with hvector(2, 1, 26 bytes, MPI_UINT32_T)"
                                      : "mpiio: data tiled with a struct with an empty member");
        }
        MPI_CHECK(MPI_File_close(&f3));
        MPI_CHECK(MPI_Type_free(&ft3));
    }

    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        MPI_CHECK(MPI_File_delete(path, MPI_INFO_NULL));
        MPI_CHECK(MPI_File_delete(path2, MPI_INFO_NULL));
        MPI_CHECK(MPI_File_delete(path3, MPI_INFO_NULL));
        MPI_CHECK(MPI_File_delete(path4, MPI_INFO_NULL));
        CHECK(rmdir(dir) == 0, "mpiio: removing the temporary directory", "rmdir %s failed", dir);
    }
    MPI_CHECK(MPI_Type_free(&ftype));
    MPI_CHECK(MPI_Type_free(&mtype));
    free(loc);
    free(want);
    return finish();
}
