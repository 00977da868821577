/* rma: one-sided communication with derived types.  A window of 128 ints per rank
 * (MPI_Win_create, disp_unit sizeof(int)) in four regions:
 *   [0,32)   MPI_Put, origin vector -> target indexed, and origin contiguous -> target subarray
 *   [32,64)  MPI_Get, target vector -> origin subarray, and target contiguous -> origin indexed
 *   [64,96)  MPI_Accumulate(MPI_SUM) of a vector of ints into a vector of ints, from every
 *            rank to every rank
 *   [96,128) MPI_Put under MPI_Win_lock/MPI_Win_unlock, hvector -> indexed_block
 * The first three in MPI_Win_fence epochs.  Afterwards the whole window and every origin
 * buffer are compared with values computed from rank and index.  Then a window from
 * MPI_Win_allocate under MPI_Win_lock_all: MPI_Rput, MPI_Get + MPI_Win_flush, MPI_Get_accumulate
 * (MPI_SUM, derived origin, result and target types) and MPI_Raccumulate (MPI_REPLACE). */
#include "check_mpi.h"

#define WN 128

static int wval(int r, int i) { return r * 10000 + i * 3 + 1; } /* initial window values */
static int oval(int r, int i) { return 500000 + r * 1000 + i; } /* origin buffer values */
static int initial(int r, int i)
{
    if (i < 32 || i >= 96)
        return -(i + 1);
    if (i < 64)
        return wval(r, i);
    return r * 1000 + i;
}

int main(int argc, char **argv)
{
    int rank, size, i, a, b, t;
    int *wmem, want[WN];
    MPI_Win win;
    MPI_Datatype ovec, tidx, tsub, gsub, tvec, oidx, avec_o, avec_t, hvec, iblock;

    start(&argc, &argv, "rma", &rank, &size);
    MPI_CHECK(MPI_Alloc_mem(WN * sizeof(int), MPI_INFO_NULL, &wmem));
    for (i = 0; i < WN; i++)
        wmem[i] = initial(rank, i);
    MPI_CHECK(MPI_Win_create(wmem, WN * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &win));
    MPI_CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    {
        int bl[3] = {3, 4, 1}, dl[3] = {0, 10, 20};
        int sizes[2] = {2, 4}, subsizes[2] = {2, 2}, starts[2] = {0, 1};
        int gsizes[2] = {6, 6}, gsub_sizes[2] = {3, 3}, gstarts[2] = {1, 2};
        int ibl[4] = {2, 1, 3, 1}, idl[4] = {6, 0, 10, 3};
        int bdispl[3] = {0, 5, 9};
        MPI_CHECK(MPI_Type_vector(4, 2, 5, MPI_INT, &ovec));
        MPI_CHECK(MPI_Type_indexed(3, bl, dl, MPI_INT, &tidx));
        MPI_CHECK(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &tsub));
        MPI_CHECK(MPI_Type_create_subarray(2, gsizes, gsub_sizes, gstarts, MPI_ORDER_C, MPI_INT,
                                           &gsub));
        MPI_CHECK(MPI_Type_vector(3, 3, 8, MPI_INT, &tvec));
        MPI_CHECK(MPI_Type_indexed(4, ibl, idl, MPI_INT, &oidx));
        MPI_CHECK(MPI_Type_vector(2, 2, 3, MPI_INT, &avec_o));
        MPI_CHECK(MPI_Type_vector(4, 1, 3, MPI_INT, &avec_t));
        MPI_CHECK(MPI_Type_create_hvector(2, 3, 4 * sizeof(int), MPI_INT, &hvec));
        MPI_CHECK(MPI_Type_create_indexed_block(3, 2, bdispl, MPI_INT, &iblock));
        MPI_CHECK(MPI_Type_commit(&ovec));
        MPI_CHECK(MPI_Type_commit(&tidx));
        MPI_CHECK(MPI_Type_commit(&tsub));
        MPI_CHECK(MPI_Type_commit(&gsub));
        MPI_CHECK(MPI_Type_commit(&tvec));
        MPI_CHECK(MPI_Type_commit(&oidx));
        MPI_CHECK(MPI_Type_commit(&avec_o));
        MPI_CHECK(MPI_Type_commit(&avec_t));
        MPI_CHECK(MPI_Type_commit(&hvec));
        MPI_CHECK(MPI_Type_commit(&iblock));
    }

    /* Epoch 1: puts. */
    {
        int obuf[20], obuf2[4], keep[20], keep2[4];
        for (i = 0; i < 20; i++)
            obuf[i] = keep[i] = oval(rank, i);
        for (i = 0; i < 4; i++)
            obuf2[i] = keep2[i] = oval(rank, 100 + i);
        MPI_CHECK(MPI_Win_fence(0, win));
        /* 8 ints at 0,1,5,6,10,11,15,16 -> target 2 + {0,1,2, 10,11,12,13, 20} */
        MPI_CHECK(MPI_Put(obuf, 1, ovec, (rank + 1) % 4, 2, 1, tidx, win));
        /* 4 ints -> target 24 + {1,2,5,6} */
        MPI_CHECK(MPI_Put(obuf2, 4, MPI_INT, (rank + 2) % 4, 24, 1, tsub, win));
        MPI_CHECK(MPI_Win_fence(0, win));
        CHECK_INTS(obuf, keep, 20, "rma: MPI_Put leaves the origin buffer alone");
        CHECK_INTS(obuf2, keep2, 4, "rma: MPI_Put leaves the second origin buffer alone");
    }

    /* Epoch 2: gets. */
    {
        int g[36], gw[36], h[14], hw[14];
        int from = (rank + 3) % 4, from2 = (rank + 1) % 4;
        for (i = 0; i < 36; i++)
            g[i] = gw[i] = -1000 - i;
        for (i = 0; i < 14; i++)
            h[i] = hw[i] = -2000 - i;
        /* target 37 + {0,1,2,8,9,10,16,17,18} -> the 3x3 block at (1,2) of a 6x6 array */
        MPI_CHECK(MPI_Get(g, 1, gsub, from, 37, 1, tvec, win));
        /* 7 contiguous target ints at 40 -> origin ints 6,7,0,10,11,12,3 */
        MPI_CHECK(MPI_Get(h, 1, oidx, from2, 40, 7, MPI_INT, win));
        MPI_CHECK(MPI_Win_fence(0, win));
        for (a = 0; a < 3; a++)
            for (b = 0; b < 3; b++)
                gw[(1 + a) * 6 + 2 + b] = wval(from, 37 + a * 8 + b);
        CHECK_INTS(g, gw, 36, "rma: MPI_Get vector target -> subarray origin");
        {
            int pos[7] = {6, 7, 0, 10, 11, 12, 3};
            for (i = 0; i < 7; i++)
                hw[pos[i]] = wval(from2, 40 + i);
        }
        CHECK_INTS(h, hw, 14, "rma: MPI_Get contiguous target -> indexed origin");
    }

    /* Epoch 3: every rank adds (rank+1)*(pos+1) from origin ints 0,1,3,4 into target ints
     * 66,69,72,75 of every rank. */
    {
        int acc[6];
        for (i = 0; i < 6; i++)
            acc[i] = (rank + 1) * (i + 1);
        for (t = 0; t < 4; t++)
            MPI_CHECK(MPI_Accumulate(acc, 1, avec_o, t, 66, 1, avec_t, MPI_SUM, win));
        MPI_CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    }

    /* Epoch 4: passive target. */
    {
        int pbuf[7];
        for (i = 0; i < 7; i++)
            pbuf[i] = oval(rank, 200 + i);
        MPI_CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, (rank + 1) % 4, 0, win));
        /* origin 0,1,2,4,5,6 -> target 100 + {0,1,5,6,9,10} */
        MPI_CHECK(MPI_Put(pbuf, 1, hvec, (rank + 1) % 4, 100, 1, iblock, win));
        MPI_CHECK(MPI_Win_unlock((rank + 1) % 4, win));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* The whole window. */
    MPI_CHECK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (i = 0; i < WN; i++)
        want[i] = initial(rank, i);
    {
        int from = (rank + 3) % 4, from2 = (rank + 2) % 4;
        int opos[8] = {0, 1, 5, 6, 10, 11, 15, 16}, tpos[8] = {0, 1, 2, 10, 11, 12, 13, 20};
        int spos[4] = {1, 2, 5, 6}, apos[4] = {0, 1, 3, 4};
        int ppos[6] = {0, 1, 2, 4, 5, 6}, qpos[6] = {0, 1, 5, 6, 9, 10};
        for (i = 0; i < 8; i++)
            want[2 + tpos[i]] = oval(from, opos[i]);
        for (i = 0; i < 4; i++)
            want[24 + spos[i]] = oval(from2, 100 + i);
        for (i = 0; i < 4; i++)
            want[66 + 3 * i] += 10 * (apos[i] + 1);
        for (i = 0; i < 6; i++)
            want[100 + qpos[i]] = oval(from, 200 + ppos[i]);
    }
    CHECK_INTS(wmem, want, 32, "rma: window region of the fenced MPI_Put calls");
    CHECK_INTS(wmem + 32, want + 32, 32, "rma: window region read by MPI_Get (unchanged)");
    CHECK_INTS(wmem + 64, want + 64, 32, "rma: window region of MPI_Accumulate(MPI_SUM)");
    CHECK_INTS(wmem + 96, want + 96, 32, "rma: window region of the passive-target MPI_Put");
    MPI_CHECK(MPI_Win_unlock(rank, win));

    MPI_CHECK(MPI_Win_free(&win));
    MPI_CHECK(MPI_Free_mem(wmem));

    /* MPI_Win_allocate, passive target for all (MPI_Win_lock_all): request-based MPI_Rput,
     * MPI_Get with MPI_Win_flush, MPI_Get_accumulate and MPI_Raccumulate with derived types. */
    {
        int *base, j;
        int want2[64];
        MPI_Win w2;
        MPI_Datatype ov, tv, ri;
        MPI_Request rq[1];
        MPI_Status rqst[1];
        MPI_CHECK(MPI_Win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                   &base, &w2));
        MPI_CHECK(MPI_Win_set_errhandler(w2, MPI_ERRORS_RETURN));
        MPI_CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w2));
        for (i = 0; i < 64; i++)
            base[i] = rank * 1000 + i;
        MPI_CHECK(MPI_Win_unlock(rank, w2));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        {
            int bl[2] = {2, 1}, dl[2] = {4, 0};
            MPI_CHECK(MPI_Type_vector(3, 1, 2, MPI_INT, &ov)); /* 0,2,4 */
            MPI_CHECK(MPI_Type_vector(3, 1, 5, MPI_INT, &tv)); /* 0,5,10 */
            MPI_CHECK(MPI_Type_indexed(2, bl, dl, MPI_INT, &ri)); /* 4,5,0 */
            MPI_CHECK(MPI_Type_commit(&ov));
            MPI_CHECK(MPI_Type_commit(&tv));
            MPI_CHECK(MPI_Type_commit(&ri));
        }
        MPI_CHECK(MPI_Win_lock_all(0, w2));
        {
            int put[6], got[8], wgot[8], res[8], add[6];
            int t = (rank + 1) % 4, from = (rank + 3) % 4;
            for (i = 0; i < 6; i++)
                put[i] = 90000 + rank * 10 + i;
            for (i = 0; i < 8; i++)
                got[i] = wgot[i] = res[i] = -1 - i;
            /* Rput: origin 0,2,4 -> target 1 + {0,5,10} of the next rank */
            MPI_CHECK(MPI_Rput(put, 1, ov, t, 1, 1, tv, w2, &rq[0]));
            /* target 40 + {0,5,10} of the previous rank -> origin 0,2,4, completed by
             * MPI_Win_flush (not MPI_Rget: in MPICH 4.0.2 over UCX, an MPI_Rget with a
             * derived type completes before the data are in the origin buffer) */
            MPI_CHECK(MPI_Get(got, 1, ov, from, 40, 1, tv, w2));
            MPI_CHECK(MPI_Win_flush(from, w2));
            MPI_CHECK(MPI_Wait(&rq[0], &rqst[0]));
            for (j = 0; j < 3; j++)
                wgot[2 * j] = from * 1000 + 40 + 5 * j;
            CHECK_INTS(got, wgot, 8, "rma: MPI_Get + MPI_Win_flush, vector target -> vector origin");
            MPI_CHECK(MPI_Win_flush_all(w2));
            MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
            /* every rank adds to 20 + {0,5,10} of rank 0 and fetches the old values */
            for (i = 0; i < 6; i++)
                add[i] = (rank + 1) * (i + 1);
            MPI_CHECK(MPI_Get_accumulate(add, 1, ov, res, 1, ri, 0, 20, 1, tv, MPI_SUM, w2));
            MPI_CHECK(MPI_Win_flush(0, w2));
            /* the fetched values are the target's before this rank's addition: not known
             * exactly (other ranks add at the same time), but each is the initial value plus
             * a sum of a subset of the other ranks' contributions */
            {
                int pos[3] = {4, 5, 0}, ok = 1;
                for (j = 0; j < 3; j++) {
                    int init = 0 * 1000 + 20 + 5 * j, delta = res[pos[j]] - init, q, found = 0;
                    for (q = 0; q < 16; q++) { /* subsets of the 4 ranks */
                        int sum = 0, b;
                        if (q & (1 << rank))
                            continue;
                        for (b = 0; b < 4; b++)
                            if (q & (1 << b))
                                sum += (b + 1) * (2 * j + 1);
                        if (sum == delta)
                            found = 1;
                    }
                    ok &= found;
                }
                res[1] = res[2] = res[3] = res[6] = res[7] = 0;
                CHECK(ok, "rma: MPI_Get_accumulate fetches values before this rank's sum",
                      "fetched %d %d %d", res[4], res[5], res[0]);
            }
        }
        MPI_CHECK(MPI_Win_unlock_all(w2));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        /* MPI_Raccumulate with MPI_REPLACE: rank r writes ints 50 + r and 54 + r of every
         * rank (its own slots, so the outcome is known) */
        MPI_CHECK(MPI_Win_lock_all(0, w2));
        {
            int rep[4], t;
            MPI_Datatype two;
            MPI_CHECK(MPI_Type_vector(2, 1, 4, MPI_INT, &two)); /* 0,4 */
            MPI_CHECK(MPI_Type_commit(&two));
            for (t = 0; t < 4; t++) {
                MPI_Request rr;
                rep[0] = -(rank * 10 + t);
                rep[1] = -(rank * 10 + t) - 5;
                MPI_CHECK(MPI_Raccumulate(rep, 2, MPI_INT, t, 50 + rank, 1, two, MPI_REPLACE, w2, &rr));
                MPI_CHECK(MPI_Wait(&rr, MPI_STATUS_IGNORE));
            }
            MPI_CHECK(MPI_Win_flush_all(w2));
            MPI_CHECK(MPI_Type_free(&two));
        }
        MPI_CHECK(MPI_Win_unlock_all(w2));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_CHECK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w2));
        for (i = 0; i < 64; i++)
            want2[i] = rank * 1000 + i;
        {
            int from = (rank + 3) % 4, q;
            for (j = 0; j < 3; j++)
                want2[1 + 5 * j] = 90000 + from * 10 + 2 * j;
            if (rank == 0)
                for (j = 0; j < 3; j++)
                    want2[20 + 5 * j] += 10 * (2 * j + 1);
            for (q = 0; q < 4; q++) {
                want2[50 + q] = -(q * 10 + rank);
                want2[54 + q] = -(q * 10 + rank) - 5;
            }
        }
        CHECK_INTS(base, want2, 64, "rma: MPI_Win_allocate window after Rput, Get_accumulate, Raccumulate");
        MPI_CHECK(MPI_Win_unlock(rank, w2));
        MPI_CHECK(MPI_Win_free(&w2));
        MPI_CHECK(MPI_Type_free(&ov));
        MPI_CHECK(MPI_Type_free(&tv));
        MPI_CHECK(MPI_Type_free(&ri));
    }
    MPI_CHECK(MPI_Type_free(&ovec));
    MPI_CHECK(MPI_Type_free(&tidx));
    MPI_CHECK(MPI_Type_free(&tsub));
    MPI_CHECK(MPI_Type_free(&gsub));
    MPI_CHECK(MPI_Type_free(&tvec));
    MPI_CHECK(MPI_Type_free(&oidx));
    MPI_CHECK(MPI_Type_free(&avec_o));
    MPI_CHECK(MPI_Type_free(&avec_t));
    MPI_CHECK(MPI_Type_free(&hvec));
    MPI_CHECK(MPI_Type_free(&iblock));
    return finish();
}
