/* misc: more derived types in communication.
 *  - MPI_Type_create_darray (block x cyclic(2), C order, 2x2 grid): rank 0 sends each rank
 *    its part of an 8x8 global array with that rank's darray type, every rank sends it back
 *    as MPI_INT, rank 0 receives it with the darray type, and the reassembled array must equal
 *    the original; a cyclic(1) x none darray in Fortran order as the receive type of an
 *    MPI_Bcast whose root sends contiguous ints.
 *  - Types from MPI_Type_dup and rebuilt from MPI_Type_get_contents (indexed, and a struct
 *    holding a derived type), and the types MPI_Type_get_contents returns, used in
 *    MPI_Sendrecv against the original types.
 *  - MPI_Pack of a struct type sent as MPI_PACKED and received with the struct type; sent with
 *    the struct type and received as MPI_PACKED then MPI_Unpack'ed; MPI_Pack_external
 *    ("external32") of an hindexed and a vector type sent as bytes, checked against the
 *    standard's big-endian encoding, and MPI_Unpack_external'ed.
 *  - MPI_Type_create_f90_real/_integer/_complex and MPI_Type_match_size types, and a
 *    vector type built on one, in MPI_Bcast; the f90 types in MPI_Allreduce and
 *    MPI_Reduce_local with MPI_SUM.
 *  - Names: of a predefined type, of a new derived type (empty), set on a derived type.
 *  - The MPI-1 names MPI removed in 3.0 and MPICH and Open MPI still have (not the standard
 *    ABI): MPI_Type_hvector, MPI_Type_hindexed, MPI_Type_struct with the MPI_LB and MPI_UB
 *    markers (where the mpi.h has them), MPI_Type_extent/_lb/_ub, MPI_Address; their
 *    combiners, and two copies of the struct sent around the ring. */
/* Open MPI's mpi.h declares the MPI-1 names only when asked. */
#define OMPI_OMIT_MPI1_COMPAT_DECLS 0
#include "check_mpi.h"
#include <stddef.h>

static int prev_of(int r) { return (r + 3) % 4; }
static int next_of(int r) { return (r + 1) % 4; }

/* ---- darray ---- */

static void darray_part(int q, int *want, int *n)
{
    int row, col, c0 = q / 2, c1 = q % 2;
    *n = 0;
    for (row = 0; row < 8; row++)
        for (col = 0; col < 8; col++)
            if (row / 4 == c0 && (col / 2) % 2 == c1)
                want[(*n)++] = 1000 + row * 8 + col;
}

static void test_darray(int rank)
{
    int gsizes[2] = {8, 8}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[2] = {2, 2};
    MPI_Datatype d[4];
    int q, i, n, global[64], back[64], local[20], want[20], cnt;
    MPI_Status st;

    for (q = 0; q < 4; q++) {
        MPI_CHECK(MPI_Type_create_darray(4, q, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                         MPI_INT, &d[q]));
        MPI_CHECK(MPI_Type_commit(&d[q]));
    }
    {
        int sz;
        MPI_Aint lb, ext;
        MPI_CHECK(MPI_Type_size(d[rank], &sz));
        CHECK_INT(sz, 16 * (int)sizeof(int), "misc: size of the darray type");
        MPI_CHECK(MPI_Type_get_extent(d[rank], &lb, &ext));
        CHECK_INT(lb, 0, "misc: lower bound of the darray type");
        CHECK_INT(ext, 64 * (MPI_Aint)sizeof(int), "misc: extent of the darray type");
    }
    for (i = 0; i < 64; i++) {
        global[i] = 1000 + i;
        back[i] = -1 - i;
    }
    for (i = 0; i < 20; i++)
        local[i] = -5;
    if (rank == 0) {
        MPI_Request req[4];
        MPI_Status sts[4];
        for (q = 0; q < 4; q++)
            MPI_CHECK(MPI_Isend(global, 1, d[q], q, 7, MPI_COMM_WORLD, &req[q]));
        MPI_CHECK(MPI_Recv(local, 20, MPI_INT, 0, 7, MPI_COMM_WORLD, &st));
        MPI_CHECK(MPI_Waitall(4, req, sts));
    } else
        MPI_CHECK(MPI_Recv(local, 20, MPI_INT, 0, 7, MPI_COMM_WORLD, &st));
    MPI_CHECK(MPI_Get_count(&st, MPI_INT, &cnt));
    CHECK_INT(cnt, 16, "misc: ints received from a darray send");
    darray_part(rank, want, &n);
    for (i = n; i < 20; i++)
        want[i] = -5;
    CHECK_INTS(local, want, 20, "misc: part of the global array sent with the darray type");

    /* back to rank 0, received with the darray types */
    if (rank == 0) {
        MPI_Request sreq;
        MPI_CHECK(MPI_Isend(local, 16, MPI_INT, 0, 8, MPI_COMM_WORLD, &sreq));
        for (q = 0; q < 4; q++) {
            MPI_CHECK(MPI_Recv(back, 1, d[q], q, 8, MPI_COMM_WORLD, &st));
            MPI_CHECK(MPI_Get_count(&st, d[q], &cnt));
            CHECK_INT(cnt, 1, "misc: MPI_Get_count of a darray receive");
        }
        MPI_CHECK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        CHECK_INTS(back, global, 64, "misc: global array reassembled with the darray types");
    } else
        MPI_CHECK(MPI_Send(local, 16, MPI_INT, 0, 8, MPI_COMM_WORLD));
    for (q = 0; q < 4; q++)
        MPI_CHECK(MPI_Type_free(&d[q]));

    /* cyclic(1) x none over a 4x1 grid, Fortran order, as MPI_Bcast's receive type */
    {
        int gs[2] = {8, 6}, di[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE};
        int da[2] = {1, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {4, 1};
        int g[48], w[48], src[12], j;
        MPI_Datatype f;
        MPI_CHECK(MPI_Type_create_darray(4, rank, 2, gs, di, da, ps, MPI_ORDER_FORTRAN, MPI_INT, &f));
        MPI_CHECK(MPI_Type_commit(&f));
        for (i = 0; i < 12; i++)
            src[i] = 300 + 11 * i;
        for (i = 0; i < 48; i++)
            g[i] = w[i] = -100 - i;
        if (rank == 0)
            MPI_CHECK(MPI_Bcast(src, 12, MPI_INT, 0, MPI_COMM_WORLD));
        else
            MPI_CHECK(MPI_Bcast(g, 1, f, 0, MPI_COMM_WORLD));
        if (rank != 0) {
            n = 0; /* Fortran order: element (i, j) at i + 8 j, i fastest */
            for (j = 0; j < 6; j++)
                for (i = 0; i < 8; i++)
                    if (i % 4 == rank)
                        w[i + 8 * j] = 300 + 11 * n++;
            CHECK_INT(n, 12, "misc: elements of the Fortran-order darray");
        }
        CHECK_INTS(g, w, 48, "misc: MPI_Bcast received with a Fortran-order cyclic darray");
        MPI_CHECK(MPI_Type_free(&f));
    }
}

/* ---- dup and get_contents ---- */

static void sendrecv_doubles(MPI_Datatype st, MPI_Datatype rt, int rank, int tag,
                             const int *pos, int npos, const char *what)
{
    double s[16], r[16], w[16];
    int i;
    for (i = 0; i < 16; i++) {
        s[i] = rank * 100 + tag + i * 0.5;
        r[i] = w[i] = -1.0 - i;
    }
    MPI_CHECK(MPI_Sendrecv(s, 1, st, next_of(rank), tag, r, 1, rt, prev_of(rank), tag,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (i = 0; i < npos; i++)
        w[pos[i]] = prev_of(rank) * 100 + tag + pos[i] * 0.5;
    CHECK_DOUBLES(r, w, 16, what);
}

static void test_decoded(int rank)
{
    int bl[3] = {2, 1, 3}, dl[3] = {5, 0, 9};
    int pos[6] = {5, 6, 0, 9, 10, 11}; /* type map order; send and receive use the same map */
    MPI_Datatype ix, d, old, rb;
    int ni, na, nd, comb;

    MPI_CHECK(MPI_Type_indexed(3, bl, dl, MPI_DOUBLE, &ix));
    MPI_CHECK(MPI_Type_commit(&ix));
    MPI_CHECK(MPI_Type_dup(ix, &d));

    MPI_CHECK(MPI_Type_get_envelope(d, &ni, &na, &nd, &comb));
    CHECK_INT(comb, MPI_COMBINER_DUP, "misc: combiner of MPI_Type_dup");
    MPI_CHECK(MPI_Type_get_contents(d, 0, 0, 1, NULL, NULL, &old));
    MPI_CHECK(MPI_Type_get_envelope(old, &ni, &na, &nd, &comb));
    CHECK_INT(comb, MPI_COMBINER_INDEXED, "misc: combiner of the type under the dup");
    CHECK(ni == 7 && na == 0 && nd == 1, "misc: envelope of the indexed type",
          "ni %d na %d nd %d", ni, na, nd);
    {
        int ints[7], want[7] = {3, 2, 1, 3, 5, 0, 9};
        MPI_Aint none[1];
        MPI_Datatype types[1];
        MPI_CHECK(MPI_Type_get_contents(old, 7, 0, 1, ints, none, types));
        CHECK_INTS(ints, want, 7, "misc: integers of the indexed type");
        CHECK(types[0] == MPI_DOUBLE, "misc: old type of the indexed type", "not MPI_DOUBLE");
        MPI_CHECK(MPI_Type_indexed(ints[0], ints + 1, ints + 4, types[0], &rb));
        MPI_CHECK(MPI_Type_commit(&rb));
    }
    MPI_CHECK(MPI_Type_commit(&old));

    sendrecv_doubles(d, rb, rank, 1, pos, 6, "misc: send with the dup, receive with the rebuilt type");
    sendrecv_doubles(old, ix, rank, 2, pos, 6, "misc: send with the decoded handle, receive with the original");
    sendrecv_doubles(rb, old, rank, 3, pos, 6, "misc: send with the rebuilt type, receive with the decoded handle");

    /* a struct with a derived member: decoded, the derived member freed, rebuilt */
    {
        int sbl[2] = {1, 2};
        MPI_Aint sdl[2] = {0, 12 * sizeof(double)};
        MPI_Datatype st[2] = {ix, MPI_DOUBLE}, s, s2, rt[2];
        int rbl[2];
        MPI_Aint rdl[2];
        int spos[8] = {5, 6, 0, 9, 10, 11, 12, 13};
        MPI_CHECK(MPI_Type_create_struct(2, sbl, sdl, st, &s));
        MPI_CHECK(MPI_Type_commit(&s));
        MPI_CHECK(MPI_Type_get_envelope(s, &ni, &na, &nd, &comb));
        CHECK_INT(comb, MPI_COMBINER_STRUCT, "misc: combiner of the struct");
        CHECK(ni == 3 && na == 2 && nd == 2, "misc: envelope of the struct", "ni %d na %d nd %d",
              ni, na, nd);
        {
            int ints[3];
            MPI_CHECK(MPI_Type_get_contents(s, 3, 2, 2, ints, rdl, rt));
            CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 2, "misc: integers of the struct",
                  "%d %d %d", ints[0], ints[1], ints[2]);
            CHECK(rdl[0] == 0 && rdl[1] == 12 * (MPI_Aint)sizeof(double),
                  "misc: addresses of the struct", "%ld %ld", (long)rdl[0], (long)rdl[1]);
            CHECK(rt[1] == MPI_DOUBLE, "misc: second type of the struct", "not MPI_DOUBLE");
            rbl[0] = ints[1];
            rbl[1] = ints[2];
            MPI_CHECK(MPI_Type_create_struct(2, rbl, rdl, rt, &s2));
            MPI_CHECK(MPI_Type_commit(&s2));
            MPI_CHECK(MPI_Type_get_envelope(rt[0], &ni, &na, &nd, &comb));
            CHECK_INT(comb, MPI_COMBINER_INDEXED, "misc: first type of the struct");
            MPI_CHECK(MPI_Type_free(&rt[0])); /* derived: returned as a new handle */
        }
        sendrecv_doubles(s, s2, rank, 4, spos, 8, "misc: struct sent, rebuilt struct received");
        sendrecv_doubles(s2, s, rank, 5, spos, 8, "misc: rebuilt struct sent, struct received");
        MPI_CHECK(MPI_Type_free(&s));
        MPI_CHECK(MPI_Type_free(&s2));
    }
    MPI_CHECK(MPI_Type_free(&old));
    MPI_CHECK(MPI_Type_free(&rb));
    MPI_CHECK(MPI_Type_free(&d));
    MPI_CHECK(MPI_Type_free(&ix));
}

/* ---- pack ---- */

struct item {
    int id[2];
    double x;
    short s[5]; /* s[0], s[2], s[4] are in the type */
    char tag;
};

static void set_item(struct item *it, int src, int k)
{
    it->id[0] = src * 1000 + k;
    it->id[1] = -(src * 1000 + k);
    it->x = src + k / 8.0 + 0.0625;
    it->s[0] = (short)(src * 10 + k);
    it->s[2] = (short)(-src * 10 - k);
    it->s[4] = (short)(30000 - k);
    it->tag = (char)('a' + src + k);
}

static void put_be(unsigned char *p, unsigned long long v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
}

/* MPI_Pack_external("external32") of 2 items of a derived type of one basic type (kind 0:
 * hindexed of MPI_INT, ints 0,1,4,6,7,8 of 9; kind 1: vector of MPI_SHORT, shorts 0,2,4 of
 * 5), sent as MPI_BYTE, compared with the big-endian encoding, and unpacked.  (A struct type
 * is not used here: MPICH 4.0.2 dies with SIGILL in MPI_Pack_external_size of a struct.) */
static void ext32_exchange(int rank, int kind)
{
    MPI_Datatype t;
    int esz = kind == 0 ? 4 : 2, ext = kind == 0 ? 9 : 5, nper = kind == 0 ? 6 : 3;
    int pos0[6] = {0, 1, 4, 6, 7, 8}, pos1[3] = {0, 2, 4};
    const int *pos = kind == 0 ? pos0 : pos1;
    unsigned char src[2 * 9 * 4], got[2 * 9 * 4], want[2 * 9 * 4];
    unsigned char ext_buf[64], rext[64], wext[64];
    MPI_Aint epos = 0, esize, upos = 0;
    int i, c, n, total = 2 * ext;
    MPI_Status st;
    char what[120];

    if (kind == 0) {
        int bl[3] = {2, 1, 3};
        MPI_Aint dl[3] = {0, 16, 24};
        MPI_CHECK(MPI_Type_create_hindexed(3, bl, dl, MPI_INT, &t));
    } else
        MPI_CHECK(MPI_Type_vector(3, 1, 2, MPI_SHORT, &t));
    MPI_CHECK(MPI_Type_commit(&t));

    /* values: rank r, element slot i of the buffer */
    for (i = 0; i < total; i++) {
        int vs = (rank + 1) * -70001 + 513 * i, vp = (prev_of(rank) + 1) * -70001 + 513 * i;
        int sent = -1 - i;
        if (kind == 0) {
            memcpy(src + 4 * i, &vs, 4);
            memcpy(want + 4 * i, &sent, 4);
            memcpy(got + 4 * i, &sent, 4);
            (void)vp;
        } else {
            short a = (short)vs, b = (short)sent;
            memcpy(src + 2 * i, &a, 2);
            memcpy(want + 2 * i, &b, 2);
            memcpy(got + 2 * i, &b, 2);
        }
    }
    n = 0;
    for (c = 0; c < 2; c++)
        for (i = 0; i < nper; i++) {
            int slot = c * ext + pos[i];
            int vp = (prev_of(rank) + 1) * -70001 + 513 * slot;
            if (kind == 0) {
                memcpy(want + 4 * slot, &vp, 4);
                put_be(wext + n, (unsigned int)vp, 4);
            } else {
                short a = (short)vp;
                memcpy(want + 2 * slot, &a, 2);
                put_be(wext + n, (unsigned short)a, 2);
            }
            n += esz;
        }

    MPI_CHECK(MPI_Pack_external_size("external32", 2, t, &esize));
    snprintf(what, sizeof what, "misc: MPI_Pack_external_size (%s)", kind == 0 ? "hindexed ints" : "vector of shorts");
    CHECK_INT(esize, n, what);
    MPI_CHECK(MPI_Pack_external("external32", src, 2, t, ext_buf, sizeof ext_buf, &epos));
    snprintf(what, sizeof what, "misc: MPI_Pack_external position (%s)", kind == 0 ? "hindexed ints" : "vector of shorts");
    CHECK_INT(epos, n, what);
    memset(rext, 0, sizeof rext);
    memset(wext + n, 0, sizeof wext - n);
    MPI_CHECK(MPI_Sendrecv(ext_buf, (int)epos, MPI_BYTE, next_of(rank), 22 + kind, rext,
                           sizeof rext, MPI_BYTE, prev_of(rank), 22 + kind, MPI_COMM_WORLD, &st));
    MPI_CHECK(MPI_Get_count(&st, MPI_BYTE, &i));
    CHECK_INT(i, n, "misc: external32 bytes received");
    snprintf(what, sizeof what, "misc: external32 bytes of the %s are big-endian in type map order",
             kind == 0 ? "hindexed ints" : "vector of shorts");
    CHECK_BYTES(rext, wext, sizeof rext, what);
    MPI_CHECK(MPI_Unpack_external("external32", rext, i, &upos, got, 2, t));
    snprintf(what, sizeof what, "misc: MPI_Unpack_external of the %s",
             kind == 0 ? "hindexed ints" : "vector of shorts");
    CHECK_BYTES(got, want, (size_t)total * esz, what);
    CHECK_INT(upos, n, "misc: MPI_Unpack_external position");
    MPI_CHECK(MPI_Type_free(&t));
}

static void test_pack(int rank)
{
    MPI_Datatype shorts, raw, t;
    struct item src[3], got[3], want[3];
    unsigned char pbuf[512];
    int pos, k, psize, n;
    MPI_Status st;
    {
        int bl[4] = {2, 1, 1, 1};
        MPI_Aint dl[4] = {offsetof(struct item, id), offsetof(struct item, x),
                          offsetof(struct item, s), offsetof(struct item, tag)};
        MPI_Datatype ty[4];
        MPI_CHECK(MPI_Type_vector(3, 1, 2, MPI_SHORT, &shorts));
        ty[0] = MPI_INT;
        ty[1] = MPI_DOUBLE;
        ty[2] = shorts;
        ty[3] = MPI_CHAR;
        MPI_CHECK(MPI_Type_create_struct(4, bl, dl, ty, &raw));
        MPI_CHECK(MPI_Type_create_resized(raw, 0, sizeof(struct item), &t));
        MPI_CHECK(MPI_Type_commit(&t));
    }
    memset(src, 0x5A, sizeof src);
    for (k = 0; k < 3; k++)
        set_item(&src[k], rank, k);
    memset(want, 0xEE, sizeof want);
    for (k = 0; k < 3; k++)
        set_item(&want[k], prev_of(rank), k);
    MPI_CHECK(MPI_Pack_size(3, t, MPI_COMM_WORLD, &psize));
    CHECK(psize >= 3 * (2 * 4 + 8 + 3 * 2 + 1) && psize <= (int)sizeof pbuf,
          "misc: MPI_Pack_size of 3 items", "%d", psize);

    /* packed -> typed */
    pos = 0;
    MPI_CHECK(MPI_Pack(src, 3, t, pbuf, sizeof pbuf, &pos, MPI_COMM_WORLD));
    CHECK(pos <= psize, "misc: MPI_Pack stays within MPI_Pack_size", "%d > %d", pos, psize);
    memset(got, 0xEE, sizeof got);
    MPI_CHECK(MPI_Sendrecv(pbuf, pos, MPI_PACKED, next_of(rank), 20, got, 3, t, prev_of(rank), 20,
                           MPI_COMM_WORLD, &st));
    CHECK_BYTES(got, want, sizeof got, "misc: sent as MPI_PACKED, received with the struct type");
    MPI_CHECK(MPI_Get_count(&st, t, &n));
    CHECK_INT(n, 3, "misc: MPI_Get_count of the typed receive of packed data");

    /* typed -> packed -> unpack */
    {
        unsigned char rbuf[512];
        int upos = 0;
        MPI_CHECK(MPI_Sendrecv(src, 3, t, next_of(rank), 21, rbuf, sizeof rbuf, MPI_PACKED,
                               prev_of(rank), 21, MPI_COMM_WORLD, &st));
        MPI_CHECK(MPI_Get_count(&st, MPI_PACKED, &n));
        memset(got, 0xEE, sizeof got);
        MPI_CHECK(MPI_Unpack(rbuf, n, &upos, got, 3, t, MPI_COMM_WORLD));
        CHECK_BYTES(got, want, sizeof got, "misc: sent with the struct type, received as MPI_PACKED, unpacked");
        CHECK_INT(upos, n, "misc: MPI_Unpack consumes the received packed bytes");
    }

    ext32_exchange(rank, 0);
    ext32_exchange(rank, 1);
    MPI_CHECK(MPI_Type_free(&t));
    MPI_CHECK(MPI_Type_free(&raw));
    MPI_CHECK(MPI_Type_free(&shorts));
}

/* ---- f90 and match_size ---- */

static void test_f90(int rank)
{
    MPI_Datatype r8, i4, c8, f4, tri;
    int sz, i;
    MPI_CHECK(MPI_Type_create_f90_real(15, 300, &r8));
    MPI_CHECK(MPI_Type_create_f90_integer(9, &i4));
    MPI_CHECK(MPI_Type_create_f90_complex(15, 300, &c8));
    MPI_CHECK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &f4));
    MPI_CHECK(MPI_Type_size(r8, &sz));
    CHECK_INT(sz, 8, "misc: size of MPI_Type_create_f90_real(15, 300)");
    MPI_CHECK(MPI_Type_size(i4, &sz));
    CHECK_INT(sz, 4, "misc: size of MPI_Type_create_f90_integer(9)");
    MPI_CHECK(MPI_Type_size(c8, &sz));
    CHECK_INT(sz, 16, "misc: size of MPI_Type_create_f90_complex(15, 300)");
    MPI_CHECK(MPI_Type_size(f4, &sz));
    CHECK_INT(sz, 4, "misc: size of MPI_Type_match_size(REAL, 4)");
    {
        double d[5], wd[5], z[6], wz[6], b8[8], w8[8];
        int n[4], wn[4];
        float f[3], wf[3];
        for (i = 0; i < 5; i++)
            wd[i] = 1.0 / (i + 3), d[i] = rank == 1 ? wd[i] : -1;
        for (i = 0; i < 6; i++)
            wz[i] = 2.5 * i - 1, z[i] = rank == 2 ? wz[i] : -1;
        for (i = 0; i < 4; i++)
            wn[i] = -123456 * (i + 1), n[i] = rank == 3 ? wn[i] : 0;
        for (i = 0; i < 3; i++)
            wf[i] = 0.25f * i + 3, f[i] = rank == 0 ? wf[i] : -1;
        MPI_CHECK(MPI_Bcast(d, 5, r8, 1, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Bcast(z, 3, c8, 2, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Bcast(n, 4, i4, 3, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Bcast(f, 3, f4, 0, MPI_COMM_WORLD));
        CHECK_DOUBLES(d, wd, 5, "misc: MPI_Bcast with the f90 real type");
        CHECK_DOUBLES(z, wz, 6, "misc: MPI_Bcast with the f90 complex type");
        CHECK_INTS(n, wn, 4, "misc: MPI_Bcast with the f90 integer type");
        CHECK_BYTES(f, wf, sizeof f, "misc: MPI_Bcast with the MPI_Type_match_size type");

        /* a vector of the f90 real type: blocks of 2 at 0, 3, 6 */
        MPI_CHECK(MPI_Type_vector(3, 2, 3, r8, &tri));
        MPI_CHECK(MPI_Type_commit(&tri));
        for (i = 0; i < 8; i++) {
            b8[i] = rank == 0 ? 7.5 * i : -2;
            w8[i] = rank == 0 || i % 3 != 2 ? 7.5 * i : -2;
        }
        MPI_CHECK(MPI_Bcast(b8, 1, tri, 0, MPI_COMM_WORLD));
        CHECK_DOUBLES(b8, w8, 8, "misc: MPI_Bcast of a vector of the f90 real type");
        MPI_CHECK(MPI_Type_free(&tri));
    }
    {
        /* The f90 types are predefined, and among the types of MPI_SUM (MPI-4.1 §6.9.2). */
        double rs[2], rr[2], wr[2] = {8.0, 12.0}, cs[2], cr[2], wc[2] = {6.0, -4.0};
        int is[2], ir[2], wi[2] = {10, 4000}, local[2] = {5, 6};
        rs[0] = rank + 0.5, rs[1] = 2.0 * rank;
        cs[0] = rank, cs[1] = -1.0;
        is[0] = rank + 1, is[1] = 1000;
        MPI_CHECK(MPI_Allreduce(rs, rr, 2, r8, MPI_SUM, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Allreduce(cs, cr, 1, c8, MPI_SUM, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Allreduce(is, ir, 2, i4, MPI_SUM, MPI_COMM_WORLD));
        CHECK_DOUBLES(rr, wr, 2, "misc: MPI_Allreduce MPI_SUM of the f90 real type");
        CHECK_DOUBLES(cr, wc, 2, "misc: MPI_Allreduce MPI_SUM of the f90 complex type");
        CHECK_INTS(ir, wi, 2, "misc: MPI_Allreduce MPI_SUM of the f90 integer type");
        MPI_CHECK(MPI_Reduce_local(local, ir, 2, i4, MPI_SUM));
        wi[0] += 5, wi[1] += 6;
        CHECK_INTS(ir, wi, 2, "misc: MPI_Reduce_local MPI_SUM of the f90 integer type");
    }
}

/* ---- names ---- */

static void test_names(int rank)
{
    MPI_Datatype v;
    char name[MPI_MAX_OBJECT_NAME + 1];
    int len = -1, s[8], r[8], w[8], i;
    MPI_CHECK(MPI_Type_get_name(MPI_DOUBLE, name, &len));
    CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "misc: name of MPI_DOUBLE", "\"%s\" (%d)", name, len);
    MPI_CHECK(MPI_Type_vector(2, 2, 3, MPI_INT, &v));
    MPI_CHECK(MPI_Type_get_name(v, name, &len));
    CHECK(name[0] == 0 && len == 0, "misc: a new derived type has an empty name", "\"%s\" (%d)", name, len);
    MPI_CHECK(MPI_Type_set_name(v, "two pairs"));
    MPI_CHECK(MPI_Type_commit(&v));
    MPI_CHECK(MPI_Type_get_name(v, name, &len));
    CHECK(strcmp(name, "two pairs") == 0 && len == 9, "misc: name set on a derived type", "\"%s\" (%d)", name, len);
    for (i = 0; i < 8; i++) {
        s[i] = rank * 10 + i;
        r[i] = w[i] = -1 - i;
    }
    MPI_CHECK(MPI_Sendrecv(s, 1, v, next_of(rank), 30, r, 1, v, prev_of(rank), 30, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    w[0] = prev_of(rank) * 10 + 0;
    w[1] = prev_of(rank) * 10 + 1;
    w[3] = prev_of(rank) * 10 + 3;
    w[4] = prev_of(rank) * 10 + 4;
    CHECK_INTS(r, w, 8, "misc: MPI_Sendrecv with a named type");
    MPI_CHECK(MPI_Type_free(&v));
}

/* ---- the MPI-1 names ---- */

#if !defined(MPI_ABI_VERSION)
static int combiner_of(MPI_Datatype t)
{
    int ni, na, nd, combiner;
    MPI_CHECK(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
    return combiner;
}

static void test_mpi1_names(int rank)
{
    /* hv: pairs of ints (a type of MPI 2's) at ints 0 and 5 (extent 7 ints); hi: one hv at
     * int 0 and two from int 12 (ints 12, 13, 17, 18, 19, 20, 24, 25); st: hi between an
     * MPI_LB 2 ints before it and an MPI_UB at int 28, so lb -8 bytes, ub 112 and extent 120
     * (30 ints). Open MPI 4.1 declares the markers only when built with
     * --enable-mpi1-compatibility: there st has ints at -2 and 27 instead, which give it the
     * same bounds. */
    static const int at[14] = {0, 1, 5, 6, 12, 13, 17, 18, 19, 20, 24, 25, -2, 27};
#ifdef MPI_LB
    const int moved = 12;
    MPI_Datatype members[3] = {MPI_LB, MPI_DATATYPE_NULL, MPI_UB};
    MPI_Aint st_at[3] = {-8, 0, 28 * sizeof(int)};
#else
    const int moved = 14;
    MPI_Datatype members[3] = {MPI_INT, MPI_DATATYPE_NULL, MPI_INT};
    MPI_Aint st_at[3] = {-8, 0, 27 * sizeof(int)};
#endif
    int two[2] = {1, 2}, ones[3] = {1, 1, 1}, s[64], r[64], w[64], i, k;
    MPI_Aint hi_at[2] = {0, 12 * sizeof(int)};
    MPI_Aint extent, lb, ub, a0, a3;
    MPI_Datatype pair, hv, hi, st;
    MPI_CHECK(MPI_Type_contiguous(2, MPI_INT, &pair));
    MPI_CHECK(MPI_Type_hvector(2, 1, 5 * sizeof(int), pair, &hv));
    MPI_CHECK(MPI_Type_hindexed(2, two, hi_at, hv, &hi));
    members[1] = hi;
    MPI_CHECK(MPI_Type_struct(3, ones, st_at, members, &st));
    MPI_CHECK(MPI_Type_commit(&st));
    CHECK_INT(combiner_of(hv), MPI_COMBINER_HVECTOR, "misc: combiner of MPI_Type_hvector");
    CHECK_INT(combiner_of(hi), MPI_COMBINER_HINDEXED, "misc: combiner of MPI_Type_hindexed");
    CHECK_INT(combiner_of(st), MPI_COMBINER_STRUCT, "misc: combiner of MPI_Type_struct");
    MPI_CHECK(MPI_Type_extent(hv, &extent));
    CHECK_INT(extent, 7 * sizeof(int), "misc: MPI_Type_extent of the hvector");
    MPI_CHECK(MPI_Type_extent(st, &extent));
    MPI_CHECK(MPI_Type_lb(st, &lb));
    MPI_CHECK(MPI_Type_ub(st, &ub));
    CHECK_INT(extent, 120, "misc: MPI_Type_extent of the struct with markers");
    CHECK_INT(lb, -8, "misc: MPI_Type_lb of the struct with markers");
    CHECK_INT(ub, 112, "misc: MPI_Type_ub of the struct with markers");
    MPI_CHECK(MPI_Address(&s[0], &a0));
    MPI_CHECK(MPI_Address(&s[3], &a3));
    CHECK_INT(a3 - a0, 3 * sizeof(int), "misc: MPI_Address");
    /* Two copies from int 2 of each buffer (the lower bound at int 0). */
    for (i = 0; i < 64; i++) {
        s[i] = rank * 1000 + i;
        r[i] = w[i] = -1;
    }
    for (k = 0; k < 2; k++)
        for (i = 0; i < moved; i++)
            w[2 + 30 * k + at[i]] = prev_of(rank) * 1000 + 2 + 30 * k + at[i];
    MPI_CHECK(MPI_Sendrecv(s + 2, 2, st, next_of(rank), 9, r + 2, 2, st, prev_of(rank), 9,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_INTS(r, w, 64, "misc: MPI_Sendrecv of two copies of the MPI-1 struct");
    MPI_CHECK(MPI_Type_free(&st));
    MPI_CHECK(MPI_Type_free(&hi));
    MPI_CHECK(MPI_Type_free(&hv));
    MPI_CHECK(MPI_Type_free(&pair));
}
#endif

int main(int argc, char **argv)
{
    int rank, size;
    start(&argc, &argv, "misc", &rank, &size);
    test_darray(rank);
    test_decoded(rank);
    test_pack(rank);
    test_f90(rank);
    test_names(rank);
#if !defined(MPI_ABI_VERSION) /* removed in MPI 3.0: not in the standard ABI */
    test_mpi1_names(rank);
#endif
    return finish();
}
