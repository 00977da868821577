/* lifetime: datatype handles over their whole life in communication.
 *  - Types freed while nonblocking operations that use them are pending (point-to-point,
 *    MPI_Ibcast, MPI_Put before the closing fence): the operations complete normally.
 *  - An inner type freed before the outer type built from it is committed and used, also
 *    after other types were made in between (which may reuse the inner type's handle).
 *  - 300 rounds over a pool of 8 live types, one replaced every round (handles get reused),
 *    each used in MPI_Sendrecv; 2000 types alive at once, a sample of them used.
 *  - Negative strides and lower bounds (hvector with negative stride, struct with a negative
 *    displacement, resized with negative lb), MPI_Type_create_hindexed_block.
 *  - MPI_Sendrecv_replace with a derived type; a type of size zero in MPI_Sendrecv.
 *  - MPI_Type_c2f/MPI_Type_f2c round trip of a derived handle, used in communication.
 *  - MPI_Allreduce with a user-defined op on a struct type: the op receives the handle the
 *    program passed and can query it (size, extent) inside the callback.
 *  - A partial receive into a struct type (MPI_Get_count, MPI_Get_elements), and
 *    MPI_Type_dup of a predefined type in communication.
 *  - 120 rounds of make, MPI_Pack, MPI_Unpack, MPI_Sendrecv and MPI_Get_count, free:
 *    each new type (whose handle number may be a freed one's) must act as itself. */
#include "check_mpi.h"
#include <stddef.h>

static int prev_of(int r) { return (r + 3) % 4; }
static int next_of(int r) { return (r + 1) % 4; }

/* MPI_Sendrecv of one item of an int type around the ring; pos: the type's int offsets */
static void sendrecv_check(MPI_Datatype t, int rank, int tag, const int *pos, int npos,
                           int span, const char *what)
{
    int s[256], r[256], w[256], i;
    MPI_Status st;
    for (i = 0; i < span; i++) {
        s[i] = rank * 100000 + tag * 100 + i;
        r[i] = w[i] = -1 - i;
    }
    MPI_CHECK(MPI_Sendrecv(s, 1, t, next_of(rank), tag, r, 1, t, prev_of(rank), tag,
                           MPI_COMM_WORLD, &st));
    for (i = 0; i < npos; i++)
        w[pos[i]] = prev_of(rank) * 100000 + tag * 100 + pos[i];
    CHECK_INTS(r, w, span, what);
}

struct cell {
    int i;
    int pad;
    double d;
};

/* ---- user-defined op ---- */

struct acc {
    int n;
    double x;
    int m[2];
};

static MPI_Datatype g_acc_type;
static int g_op_calls, g_op_bad_handle, g_op_bad_query;

static void acc_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    struct acc *a = (struct acc *)in, *b = (struct acc *)inout;
    int i, sz;
    MPI_Aint lb, ext;
    g_op_calls++;
    if (*dt != g_acc_type)
        g_op_bad_handle++;
    if (MPI_Type_size(*dt, &sz) != MPI_SUCCESS || sz != 3 * (int)sizeof(int) + (int)sizeof(double))
        g_op_bad_query++;
    if (MPI_Type_get_extent(*dt, &lb, &ext) != MPI_SUCCESS || lb != 0 ||
        ext != (MPI_Aint)sizeof(struct acc))
        g_op_bad_query++;
    for (i = 0; i < *len; i++) {
        b[i].n += a[i].n;
        b[i].x += a[i].x;
        b[i].m[0] = a[i].m[0] > b[i].m[0] ? a[i].m[0] : b[i].m[0];
        b[i].m[1] += a[i].m[1];
    }
}

int main(int argc, char **argv)
{
    int rank, size, i, k;

    start(&argc, &argv, "lifetime", &rank, &size);

    /* 1. Types freed while the operations using them are pending. */
    {
        MPI_Datatype st, rt;
        MPI_Request req[2];
        MPI_Status sts[2];
        int s[30], r[30], w[30];
        MPI_CHECK(MPI_Type_vector(5, 2, 6, MPI_INT, &st)); /* 0,1,6,7,...,24,25 */
        MPI_CHECK(MPI_Type_commit(&st));
        MPI_CHECK(MPI_Type_vector(2, 5, 7, MPI_INT, &rt)); /* 0..4, 7..11 */
        MPI_CHECK(MPI_Type_commit(&rt));
        for (i = 0; i < 30; i++) {
            s[i] = rank * 1000 + i;
            r[i] = w[i] = -1 - i;
        }
        MPI_CHECK(MPI_Irecv(r, 1, rt, prev_of(rank), 1, MPI_COMM_WORLD, &req[0]));
        MPI_CHECK(MPI_Isend(s, 1, st, next_of(rank), 1, MPI_COMM_WORLD, &req[1]));
        MPI_CHECK(MPI_Type_free(&st));
        MPI_CHECK(MPI_Type_free(&rt));
        CHECK(st == MPI_DATATYPE_NULL && rt == MPI_DATATYPE_NULL,
              "lifetime: MPI_Type_free of types in use sets MPI_DATATYPE_NULL", "not null");
        {   /* make and free other types while the requests are pending */
            MPI_Datatype junk[4];
            for (k = 0; k < 4; k++) {
                MPI_CHECK(MPI_Type_contiguous(k + 2, MPI_DOUBLE, &junk[k]));
                MPI_CHECK(MPI_Type_commit(&junk[k]));
            }
            for (k = 0; k < 4; k++)
                MPI_CHECK(MPI_Type_free(&junk[k]));
        }
        MPI_CHECK(MPI_Waitall(2, req, sts));
        for (i = 0; i < 10; i++) /* element i of the send type -> element i of the receive type */
            w[(i / 5) * 7 + i % 5] = prev_of(rank) * 1000 + (i / 2) * 6 + i % 2;
        CHECK_INTS(r, w, 30, "lifetime: MPI_Isend/MPI_Irecv with types freed before MPI_Waitall");
        {
            int cnt;
            MPI_CHECK(MPI_Get_count(&sts[0], MPI_INT, &cnt));
            CHECK_INT(cnt, 10, "lifetime: ints received with a freed type");
        }
    }

    /* 1b. The same for a nonblocking collective and a one-sided put. */
    {
        MPI_Datatype bt, ot, tt;
        MPI_Request req;
        MPI_Win win;
        int b[20], w[20], *wmem;
        MPI_CHECK(MPI_Type_vector(4, 1, 5, MPI_INT, &bt)); /* 0,5,10,15 */
        MPI_CHECK(MPI_Type_commit(&bt));
        for (i = 0; i < 20; i++)
            b[i] = w[i] = rank == 2 ? 300 + i : -1 - i;
        MPI_CHECK(MPI_Ibcast(b, 1, bt, 2, MPI_COMM_WORLD, &req));
        MPI_CHECK(MPI_Type_free(&bt));
        MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        if (rank != 2)
            for (i = 0; i < 20; i += 5)
                w[i] = 300 + i;
        CHECK_INTS(b, w, 20, "lifetime: MPI_Ibcast with its type freed before MPI_Wait");

        MPI_CHECK(MPI_Alloc_mem(16 * sizeof(int), MPI_INFO_NULL, &wmem));
        for (i = 0; i < 16; i++)
            wmem[i] = -1 - i;
        MPI_CHECK(MPI_Win_create(wmem, 16 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &win));
        MPI_CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_Type_vector(3, 1, 2, MPI_INT, &ot)); /* 0,2,4 */
        MPI_CHECK(MPI_Type_vector(3, 1, 4, MPI_INT, &tt)); /* 0,4,8 */
        MPI_CHECK(MPI_Type_commit(&ot));
        MPI_CHECK(MPI_Type_commit(&tt));
        MPI_CHECK(MPI_Win_fence(0, win));
        for (i = 0; i < 6; i++)
            b[i] = 700 + rank * 10 + i;
        MPI_CHECK(MPI_Put(b, 1, ot, next_of(rank), 1, 1, tt, win));
        MPI_CHECK(MPI_Type_free(&ot));
        MPI_CHECK(MPI_Type_free(&tt));
        MPI_CHECK(MPI_Win_fence(0, win));
        for (i = 0; i < 16; i++)
            w[i] = -1 - i;
        for (i = 0; i < 3; i++)
            w[1 + 4 * i] = 700 + prev_of(rank) * 10 + 2 * i;
        CHECK_INTS(wmem, w, 16, "lifetime: MPI_Put with its types freed before the closing fence");
        MPI_CHECK(MPI_Win_free(&win));
        MPI_CHECK(MPI_Free_mem(wmem));
    }

    /* 2. The inner type freed before the outer one is committed. */
    {
        MPI_Datatype inner, outer, other[3];
        int pos[6] = {0, 2, 4, 6, 8, 10}; /* contiguous(2, vector(3,1,2)): extent of inner 5 */
        int pos2[6] = {0, 2, 4, 5, 7, 9};
        MPI_CHECK(MPI_Type_vector(3, 1, 2, MPI_INT, &inner));
        MPI_CHECK(MPI_Type_contiguous(2, inner, &outer));
        MPI_CHECK(MPI_Type_free(&inner));
        MPI_CHECK(MPI_Type_commit(&outer));
        sendrecv_check(outer, rank, 2, pos2, 6, 12, "lifetime: outer type committed after its inner type's free");
        MPI_CHECK(MPI_Type_free(&outer));

        MPI_CHECK(MPI_Type_vector(3, 1, 2, MPI_INT, &inner));
        MPI_CHECK(MPI_Type_commit(&inner));
        MPI_CHECK(MPI_Type_create_resized(inner, 0, 6 * sizeof(int), &outer));
        MPI_CHECK(MPI_Type_free(&inner));
        for (k = 0; k < 3; k++) /* may take the freed inner handle */
            MPI_CHECK(MPI_Type_contiguous(7 + k, MPI_CHAR, &other[k]));
        MPI_CHECK(MPI_Type_commit(&outer));
        {
            MPI_Datatype two;
            MPI_CHECK(MPI_Type_contiguous(2, outer, &two));
            MPI_CHECK(MPI_Type_commit(&two));
            /* resized to 6 ints: items at 0 and 6 -> 0,2,4,6,8,10 */
            sendrecv_check(two, rank, 3, pos, 6, 14, "lifetime: resized type of a freed inner type, new types made in between");
            MPI_CHECK(MPI_Type_free(&two));
        }
        for (k = 0; k < 3; k++) {
            int sz;
            MPI_CHECK(MPI_Type_size(other[k], &sz));
            CHECK_INT(sz, 7 + k, "lifetime: size of a type made after a free");
            MPI_CHECK(MPI_Type_free(&other[k]));
        }
        MPI_CHECK(MPI_Type_free(&outer));
    }

    /* 3. A pool of 8 live types, one replaced per round. */
    {
        MPI_Datatype pool[8];
        int desc[8][3]; /* count, blocklen, stride */
        int failures_before = (int)g_failures;
        for (k = 0; k < 8; k++)
            pool[k] = MPI_DATATYPE_NULL;
        for (k = 0; k < 300; k++) {
            int slot = (k * 5 + k / 8) % 8, c, b, pos[64], n = 0, j, u = (k < 8) ? k : slot;
            char what[120];
            if (pool[u] != MPI_DATATYPE_NULL)
                MPI_CHECK(MPI_Type_free(&pool[u]));
            desc[u][0] = 1 + k % 5;
            desc[u][1] = 1 + k % 3;
            desc[u][2] = desc[u][1] + 1 + k % 4;
            MPI_CHECK(MPI_Type_vector(desc[u][0], desc[u][1], desc[u][2], MPI_INT, &pool[u]));
            MPI_CHECK(MPI_Type_commit(&pool[u]));
            j = (k * 3) % 8; /* use some live type, not always the new one */
            if (pool[j] == MPI_DATATYPE_NULL)
                j = u;
            for (c = 0; c < desc[j][0]; c++)
                for (b = 0; b < desc[j][1]; b++)
                    pos[n++] = c * desc[j][2] + b;
            snprintf(what, sizeof what, "lifetime: round %d of the type pool (slot %d)", k, j);
            sendrecv_check(pool[j], rank, 4 + k % 50, pos, n, 64, what);
        }
        for (k = 0; k < 8; k++)
            MPI_CHECK(MPI_Type_free(&pool[k]));
        CHECK_INT(g_failures - failures_before, 0, "lifetime: type pool rounds");
    }

    /* 4. 2000 types alive at once. */
    {
        int n = 2000;
        MPI_Datatype *many = malloc(n * sizeof(MPI_Datatype));
        for (k = 0; k < n; k++) {
            MPI_CHECK(MPI_Type_vector(2, 1, 2 + k % 9, MPI_INT, &many[k]));
            MPI_CHECK(MPI_Type_commit(&many[k]));
        }
        for (k = 0; k < n; k += 97) {
            int pos[2] = {0, 2 + k % 9};
            sendrecv_check(many[k], rank, 60, pos, 2, 16, "lifetime: one of 2000 live types");
        }
        for (k = n - 1; k >= 0; k--)
            MPI_CHECK(MPI_Type_free(&many[k]));
        free(many);
    }

    /* 5. Negative strides and bounds. */
    {
        MPI_Datatype neg, res, sn, hb;
        double s[12], r[12], w[12];
        MPI_Aint lb, ext;
        MPI_CHECK(MPI_Type_create_hvector(3, 1, -2 * (MPI_Aint)sizeof(double), MPI_DOUBLE, &neg));
        MPI_CHECK(MPI_Type_commit(&neg));
        MPI_CHECK(MPI_Type_get_extent(neg, &lb, &ext));
        CHECK_INT(lb, -4 * (MPI_Aint)sizeof(double), "lifetime: lb of a negative-stride hvector");
        CHECK_INT(ext, 5 * (MPI_Aint)sizeof(double), "lifetime: extent of a negative-stride hvector");
        {
            MPI_Datatype c3;
            MPI_CHECK(MPI_Type_contiguous(3, MPI_DOUBLE, &c3));
            MPI_CHECK(MPI_Type_create_resized(c3, -(MPI_Aint)sizeof(double), 5 * sizeof(double), &res));
            MPI_CHECK(MPI_Type_free(&c3));
            MPI_CHECK(MPI_Type_commit(&res));
        }
        for (i = 0; i < 12; i++) {
            s[i] = rank + i * 0.5;
            r[i] = w[i] = -1.0 - i;
        }
        /* send elements 8, 6, 4; receive into 3, 4, 5 */
        MPI_CHECK(MPI_Sendrecv(s + 8, 1, neg, next_of(rank), 70, r + 3, 1, res, prev_of(rank), 70,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        w[3] = prev_of(rank) + 8 * 0.5;
        w[4] = prev_of(rank) + 6 * 0.5;
        w[5] = prev_of(rank) + 4 * 0.5;
        CHECK_DOUBLES(r, w, 12, "lifetime: negative-stride send, negative-lb receive");

        {   /* struct with a negative displacement: the int before the double */
            struct cell cell[3];
            int bl[2] = {1, 1};
            MPI_Aint dl[2] = {-(MPI_Aint)offsetof(struct cell, d), 0};
            MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
            memset(cell, 0, sizeof cell);
            for (k = 0; k < 3; k++) {
                cell[k].i = rank * 10 + k;
                cell[k].pad = -99;
                cell[k].d = rank + k / 4.0;
            }
            MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &sn));
            MPI_CHECK(MPI_Type_commit(&sn));
            MPI_CHECK(MPI_Type_get_extent(sn, &lb, &ext));
            CHECK_INT(lb, dl[0], "lifetime: lb of a struct with a negative displacement");
            /* send the middle cell; the receiver takes int + double as raw bytes */
            {
                unsigned char rb[sizeof(int) + sizeof(double)], wb[sizeof(int) + sizeof(double)];
                int pi = prev_of(rank) * 10 + 1;
                double pd = prev_of(rank) + 1 / 4.0;
                MPI_Datatype flat;
                int fbl[2] = {1, 1};
                MPI_Aint fdl[2] = {0, sizeof(int)};
                MPI_CHECK(MPI_Type_create_struct(2, fbl, fdl, ty, &flat));
                MPI_CHECK(MPI_Type_commit(&flat));
                memset(rb, 0, sizeof rb);
                MPI_CHECK(MPI_Sendrecv(&cell[1].d, 1, sn, next_of(rank), 71, rb, 1, flat,
                                       prev_of(rank), 71, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                memcpy(wb, &pi, sizeof pi);
                memcpy(wb + sizeof pi, &pd, sizeof pd);
                CHECK_BYTES(rb, wb, sizeof rb, "lifetime: struct with a negative displacement");
                MPI_CHECK(MPI_Type_free(&flat));
            }
        }
        {   /* hindexed_block: blocks of 2 ints at byte 20, 0, 36 */
            MPI_Aint hd[3] = {20, 0, 36};
            int pos[6] = {5, 6, 0, 1, 9, 10};
            MPI_CHECK(MPI_Type_create_hindexed_block(3, 2, hd, MPI_INT, &hb));
            MPI_CHECK(MPI_Type_commit(&hb));
            sendrecv_check(hb, rank, 72, pos, 6, 12, "lifetime: MPI_Type_create_hindexed_block");
        }
        MPI_CHECK(MPI_Type_free(&neg));
        MPI_CHECK(MPI_Type_free(&res));
        MPI_CHECK(MPI_Type_free(&sn));
        MPI_CHECK(MPI_Type_free(&hb));
    }

    /* 6. MPI_Sendrecv_replace, and a type of size zero. */
    {
        MPI_Datatype v, empty;
        int b[16], w[16], cnt;
        MPI_Status st;
        MPI_CHECK(MPI_Type_vector(4, 1, 3, MPI_INT, &v)); /* 0,3,6,9 */
        MPI_CHECK(MPI_Type_commit(&v));
        for (i = 0; i < 16; i++)
            b[i] = w[i] = rank * 100 + i;
        MPI_CHECK(MPI_Sendrecv_replace(b, 1, v, next_of(rank), 80, prev_of(rank), 80,
                                       MPI_COMM_WORLD, &st));
        for (i = 0; i < 10; i += 3)
            w[i] = prev_of(rank) * 100 + i;
        CHECK_INTS(b, w, 16, "lifetime: MPI_Sendrecv_replace with a vector type");
        MPI_CHECK(MPI_Get_count(&st, v, &cnt));
        CHECK_INT(cnt, 1, "lifetime: MPI_Get_count after MPI_Sendrecv_replace");

        MPI_CHECK(MPI_Type_contiguous(0, MPI_INT, &empty));
        MPI_CHECK(MPI_Type_commit(&empty));
        for (i = 0; i < 16; i++)
            b[i] = w[i] = -3 - i;
        MPI_CHECK(MPI_Sendrecv(w, 1, empty, next_of(rank), 81, b, 1, empty, prev_of(rank), 81,
                               MPI_COMM_WORLD, &st));
        CHECK_INTS(b, w, 16, "lifetime: a type of size zero moves no data");
        MPI_CHECK(MPI_Get_count(&st, MPI_INT, &cnt));
        CHECK_INT(cnt, 0, "lifetime: MPI_Get_count(MPI_INT) of an empty message");
        MPI_CHECK(MPI_Type_free(&v));
        MPI_CHECK(MPI_Type_free(&empty));
    }

    /* 7. MPI_Type_c2f / MPI_Type_f2c (MPI_Type_toint / MPI_Type_fromint in the standard ABI,
     * which has no Fortran handle conversion). */
    {
        MPI_Datatype t, back;
#if defined(MPI_ABI_VERSION) && MPI_ABI_VERSION >= 1
        int f;
#define MPI_Type_c2f MPI_Type_toint
#define MPI_Type_f2c MPI_Type_fromint
#else
        MPI_Fint f;
#endif
        int pos[4] = {1, 2, 7, 8};
        MPI_CHECK(MPI_Type_vector(2, 2, 6, MPI_INT, &t));
        MPI_CHECK(MPI_Type_commit(&t));
        {
            MPI_Datatype shifted;
            MPI_CHECK(MPI_Type_create_resized(t, -(MPI_Aint)sizeof(int), 12 * sizeof(int), &shifted));
            MPI_CHECK(MPI_Type_free(&t));
            t = shifted;
            MPI_CHECK(MPI_Type_commit(&t));
        }
        f = MPI_Type_c2f(t);
        back = MPI_Type_f2c(f);
        CHECK(back == t, "lifetime: MPI_Type_f2c(MPI_Type_c2f(t)) == t", "%#lx vs %#lx",
              HANDLE_BITS(back), HANDLE_BITS(t));
        {   /* send from s + 1 so that the data are at 1,2,7,8 of the buffer */
            int s[12], r[12], w[12];
            for (i = 0; i < 12; i++) {
                s[i] = rank * 10 + i;
                r[i] = w[i] = -1 - i;
            }
            MPI_CHECK(MPI_Sendrecv(s + 1, 1, back, next_of(rank), 90, r + 1, 1, back,
                                   prev_of(rank), 90, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            for (i = 0; i < 4; i++)
                w[pos[i]] = prev_of(rank) * 10 + pos[i];
            CHECK_INTS(r, w, 12, "lifetime: type through MPI_Type_c2f/MPI_Type_f2c in MPI_Sendrecv");
        }
        MPI_CHECK(MPI_Type_free(&t));
    }

    /* 8. MPI_Allreduce with a user-defined op on a struct type. */
    {
        MPI_Datatype raw;
        MPI_Op op;
        struct acc in[3], out[3], want[3];
        int bl[3] = {1, 1, 2};
        MPI_Aint dl[3] = {offsetof(struct acc, n), offsetof(struct acc, x), offsetof(struct acc, m)};
        MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_INT};
        MPI_CHECK(MPI_Type_create_struct(3, bl, dl, ty, &raw));
        MPI_CHECK(MPI_Type_create_resized(raw, 0, sizeof(struct acc), &g_acc_type));
        MPI_CHECK(MPI_Type_free(&raw));
        MPI_CHECK(MPI_Type_commit(&g_acc_type));
        MPI_CHECK(MPI_Op_create(acc_sum, 1, &op));
        memset(in, 0, sizeof in);
        memset(want, 0, sizeof want);
        for (k = 0; k < 3; k++) {
            int q;
            in[k].n = rank + k;
            in[k].x = rank * 0.5 + k;
            in[k].m[0] = (rank * 7 + k * 3) % 5;
            in[k].m[1] = rank * k;
            want[k].m[0] = -1;
            for (q = 0; q < 4; q++) {
                int m0 = (q * 7 + k * 3) % 5;
                want[k].n += q + k;
                want[k].x += q * 0.5 + k;
                want[k].m[0] = m0 > want[k].m[0] ? m0 : want[k].m[0];
                want[k].m[1] += q * k;
            }
        }
        memset(out, 0, sizeof out);
        MPI_CHECK(MPI_Allreduce(in, out, 3, g_acc_type, op, MPI_COMM_WORLD));
        for (k = 0; k < 3; k++) {
            CHECK_INT(out[k].n, want[k].n, "lifetime: user op result (n)");
            CHECK(out[k].x == want[k].x, "lifetime: user op result (x)", "%g vs %g", out[k].x, want[k].x);
            CHECK_INT(out[k].m[0], want[k].m[0], "lifetime: user op result (max)");
            CHECK_INT(out[k].m[1], want[k].m[1], "lifetime: user op result (sum)");
        }
        CHECK_INT(g_op_bad_handle, 0, "lifetime: the user op receives the program's datatype handle");
        CHECK_INT(g_op_bad_query, 0, "lifetime: MPI_Type_size/MPI_Type_get_extent inside the user op");
        {
            int calls_total;
            MPI_CHECK(MPI_Allreduce(&g_op_calls, &calls_total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
            CHECK(calls_total >= 3, "lifetime: the user op was called", "%d calls", calls_total);
        }
        MPI_CHECK(MPI_Op_free(&op));
        MPI_CHECK(MPI_Type_free(&g_acc_type));
    }

    /* 9. A partial receive into a struct type (int, double, 3 shorts): a message of one int
     * and one double fills the first two members; MPI_Get_count gives MPI_UNDEFINED and
     * MPI_Get_elements 2.  And MPI_Type_dup of a predefined type in communication. */
    {
        struct part {
            int i;
            double d;
            short s[3];
        } src, dst, want;
        MPI_Datatype full, prefix, dupint;
        int bl[3] = {1, 1, 3}, cnt;
        MPI_Aint dl[3] = {offsetof(struct part, i), offsetof(struct part, d), offsetof(struct part, s)};
        MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT};
        MPI_Status st;
        MPI_CHECK(MPI_Type_create_struct(3, bl, dl, ty, &full));
        MPI_CHECK(MPI_Type_commit(&full));
        MPI_CHECK(MPI_Type_create_struct(2, bl, dl, ty, &prefix));
        MPI_CHECK(MPI_Type_commit(&prefix));
        memset(&src, 0x11, sizeof src);
        src.i = rank * 3 + 1;
        src.d = rank * 0.75;
        src.s[0] = src.s[1] = src.s[2] = 9;
        memset(&dst, 0x22, sizeof dst);
        memset(&want, 0x22, sizeof want);
        want.i = prev_of(rank) * 3 + 1;
        want.d = prev_of(rank) * 0.75;
        MPI_CHECK(MPI_Sendrecv(&src, 1, prefix, next_of(rank), 95, &dst, 1, full, prev_of(rank),
                               95, MPI_COMM_WORLD, &st));
        CHECK_BYTES(&dst, &want, sizeof dst, "lifetime: partial receive into a struct type");
        MPI_CHECK(MPI_Get_count(&st, full, &cnt));
        CHECK_INT(cnt, MPI_UNDEFINED, "lifetime: MPI_Get_count of a partial struct");
        MPI_CHECK(MPI_Get_elements(&st, full, &cnt));
        CHECK_INT(cnt, 2, "lifetime: MPI_Get_elements of a partial struct");
        MPI_CHECK(MPI_Get_count(&st, prefix, &cnt));
        CHECK_INT(cnt, 1, "lifetime: MPI_Get_count with the prefix type");
        MPI_CHECK(MPI_Type_free(&full));
        MPI_CHECK(MPI_Type_free(&prefix));

        MPI_CHECK(MPI_Type_dup(MPI_INT, &dupint));
        MPI_CHECK(MPI_Type_commit(&dupint));
        {
            int ni, na, nd, comb, s4[4], r4[4], w4[4];
            MPI_Datatype old;
            MPI_CHECK(MPI_Type_get_envelope(dupint, &ni, &na, &nd, &comb));
            CHECK_INT(comb, MPI_COMBINER_DUP, "lifetime: combiner of MPI_Type_dup(MPI_INT)");
            MPI_CHECK(MPI_Type_get_contents(dupint, 0, 0, 1, NULL, NULL, &old));
            CHECK(old == MPI_INT, "lifetime: MPI_Type_dup(MPI_INT) decodes to MPI_INT", "%#lx",
                  HANDLE_BITS(old));
            for (i = 0; i < 4; i++) {
                s4[i] = rank * 4 + i;
                r4[i] = -1;
                w4[i] = prev_of(rank) * 4 + i;
            }
            MPI_CHECK(MPI_Sendrecv(s4, 4, dupint, next_of(rank), 96, r4, 4, MPI_INT,
                                   prev_of(rank), 96, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_INTS(r4, w4, 4, "lifetime: MPI_Type_dup(MPI_INT) in MPI_Sendrecv");
        }
        MPI_CHECK(MPI_Type_free(&dupint));
    }

    /* 10. Handles reused after a free in the datatype functions themselves: a type is
     * made, packed with, freed, and a different type made right after (often with the same
     * handle number) must pack, unpack, size and count as itself. */
    {
        int src[64], dst[64], w[64], packed[64], reused = 0;
        MPI_Datatype prevhandle = MPI_DATATYPE_NULL;
        for (i = 0; i < 64; i++)
            src[i] = rank * 1000 + i;
        for (k = 0; k < 120; k++) {
            MPI_Datatype t;
            int c = 1 + k % 4, b = 1 + (k / 4) % 3, st = b + 1 + (k / 12) % 3, pos = 0, upos = 0;
            int sz, n = 0, j, cnt;
            MPI_Status rst;
            char what[120];
            MPI_CHECK(MPI_Type_vector(c, b, st, MPI_INT, &t));
            MPI_CHECK(MPI_Type_commit(&t));
            if (k > 0 && t == prevhandle)
                reused++;
            prevhandle = t;
            MPI_CHECK(MPI_Type_size(t, &sz));
            snprintf(what, sizeof what, "lifetime: size after handle reuse, round %d", k);
            CHECK_INT(sz, c * b * (int)sizeof(int), what);
            MPI_CHECK(MPI_Pack(src, 1, t, packed, sizeof packed, &pos, MPI_COMM_WORLD));
            for (j = 0; j < c; j++)
                for (i = 0; i < b; i++)
                    w[n++] = rank * 1000 + j * st + i;
            snprintf(what, sizeof what, "lifetime: MPI_Pack after handle reuse, round %d", k);
            CHECK(pos == n * (int)sizeof(int) && memcmp(packed, w, n * sizeof(int)) == 0, what,
                  "position %d, %d ints expected", pos, n);
            for (i = 0; i < 64; i++)
                dst[i] = w[i] = -1 - i;
            MPI_CHECK(MPI_Unpack(packed, pos, &upos, dst, 1, t, MPI_COMM_WORLD));
            for (j = 0; j < c; j++)
                for (i = 0; i < b; i++)
                    w[j * st + i] = rank * 1000 + j * st + i;
            snprintf(what, sizeof what, "lifetime: MPI_Unpack after handle reuse, round %d", k);
            CHECK_INTS(dst, w, 64, what);
            MPI_CHECK(MPI_Sendrecv(src, 1, t, next_of(rank), 97, dst, 64, MPI_INT, prev_of(rank),
                                   97, MPI_COMM_WORLD, &rst));
            MPI_CHECK(MPI_Get_count(&rst, t, &cnt));
            snprintf(what, sizeof what, "lifetime: MPI_Get_count after handle reuse, round %d", k);
            CHECK_INT(cnt, 1, what);
            MPI_CHECK(MPI_Get_elements(&rst, t, &cnt));
            snprintf(what, sizeof what, "lifetime: MPI_Get_elements after handle reuse, round %d", k);
            CHECK_INT(cnt, c * b, what);
            MPI_CHECK(MPI_Type_free(&t));
        }
        (void)reused; /* whether numbers are reused is the library's business */
    }

    return finish();
}
