/* threads: derived types made, used and freed concurrently.  MPI_Init_thread with
 * MPI_THREAD_MULTIPLE; on every rank 4 threads, each with its own duplicate of
 * MPI_COMM_WORLD, run 60 rounds of: build a vector type and a struct type whose shapes
 * depend on the thread and round, commit, MPI_Sendrecv around the ring with them, MPI_Pack
 * and MPI_Unpack through them, set and read an attribute, MPI_Type_dup, free everything.
 * Every received or unpacked buffer is compared whole with the expected values. */
#include "check_mpi.h"
#include <pthread.h>

#define NTHREADS 4
#define ROUNDS 60

static int g_keyval;

struct worker {
    int id, rank, checks, failures;
    MPI_Comm comm;
    char first[256];
};

static void fail(struct worker *w, int round, const char *what)
{
    if (w->failures++ == 0)
        snprintf(w->first, sizeof w->first, "thread %d round %d: %s", w->id, round, what);
}

#define T_MPI(w, round, call)                                                              \
    do {                                                                                   \
        int rc_ = (call);                                                                  \
        if (rc_ != MPI_SUCCESS) {                                                          \
            char msg_[MPI_MAX_ERROR_STRING + 1];                                           \
            int len_ = 0;                                                                  \
            msg_[0] = 0;                                                                   \
            MPI_Error_string(rc_, msg_, &len_);                                            \
            fprintf(stderr, "threads: rank %d thread %d round %d: line %d: %s returned %d: %s\n", \
                    (w)->rank, (w)->id, (round), __LINE__, #call, rc_, msg_);              \
            MPI_Abort(MPI_COMM_WORLD, 2);                                                  \
        }                                                                                  \
    } while (0)

static void *work(void *arg)
{
    struct worker *w = (struct worker *)arg;
    int rank = w->rank, prev = (rank + 3) % 4, next = (rank + 1) % 4, round, i;
    for (round = 0; round < ROUNDS; round++) {
        int count = 1 + (w->id + round) % 4, bl = 1 + round % 3, stride = bl + 1 + w->id % 2;
        int span = (count - 1) * stride + bl, tag = w->id * 1000 + round;
        int s[64], r[64], e[64];
        double ds[8], dr[8], de[8];
        int is[3], ir[3], ie[3];
        MPI_Datatype vec, st, dup;
        char packed[512];
        int pos = 0, upos = 0, flag = 0, *val = NULL;

        T_MPI(w, round, MPI_Type_vector(count, bl, stride, MPI_INT, &vec));
        T_MPI(w, round, MPI_Type_commit(&vec));
        for (i = 0; i < 64; i++) {
            s[i] = rank * 1000000 + tag * 64 + i;
            r[i] = e[i] = -1 - i;
        }
        T_MPI(w, round, MPI_Sendrecv(s, 1, vec, next, tag, r, 1, vec, prev, tag, w->comm,
                                     MPI_STATUS_IGNORE));
        for (i = 0; i < span; i++)
            if (i % stride < bl)
                e[i] = prev * 1000000 + tag * 64 + i;
        w->checks++;
        if (memcmp(r, e, sizeof r) != 0)
            fail(w, round, "MPI_Sendrecv with the vector type");

        {   /* struct of ints and doubles at thread-dependent places */
            int sbl[2] = {1 + w->id % 3, 2};
            MPI_Aint sdl[2];
            MPI_Datatype sty[2] = {MPI_INT, MPI_DOUBLE};
            MPI_Aint a_i, a_d;
            MPI_Get_address(is, &a_i);
            MPI_Get_address(ds + (round % 5), &a_d);
            sdl[0] = 0;
            sdl[1] = a_d - a_i;
            for (i = 0; i < 3; i++) {
                is[i] = rank * 100 + w->id * 10 + i + round;
                ir[i] = ie[i] = -7;
            }
            for (i = 0; i < 8; i++) {
                ds[i] = rank + w->id * 0.25 + i * 0.125 + round;
                dr[i] = de[i] = -8.0;
            }
            T_MPI(w, round, MPI_Type_create_struct(2, sbl, sdl, sty, &st));
            T_MPI(w, round, MPI_Type_commit(&st));
            /* pack mine, unpack into receive buffers laid out alike (same displacement) */
            T_MPI(w, round, MPI_Pack(is, 1, st, packed, sizeof packed, &pos, w->comm));
            {
                MPI_Aint a_ri, a_rd;
                MPI_Datatype rt;
                MPI_Aint rdl[2];
                MPI_Get_address(ir, &a_ri);
                MPI_Get_address(dr + (round % 5), &a_rd);
                rdl[0] = 0;
                rdl[1] = a_rd - a_ri;
                T_MPI(w, round, MPI_Type_create_struct(2, sbl, rdl, sty, &rt));
                T_MPI(w, round, MPI_Type_commit(&rt));
                T_MPI(w, round, MPI_Unpack(packed, pos, &upos, ir, 1, rt, w->comm));
                for (i = 0; i < sbl[0]; i++)
                    ie[i] = is[i];
                de[round % 5] = ds[round % 5];
                de[round % 5 + 1] = ds[round % 5 + 1];
                w->checks++;
                if (memcmp(ir, ie, sizeof ir) != 0 || memcmp(dr, de, sizeof dr) != 0 || upos != pos)
                    fail(w, round, "MPI_Pack/MPI_Unpack through struct types");
                /* and over the ring, packed -> typed */
                for (i = 0; i < 3; i++)
                    ir[i] = ie[i] = -7;
                for (i = 0; i < 8; i++)
                    dr[i] = de[i] = -8.0;
                T_MPI(w, round, MPI_Sendrecv(packed, pos, MPI_PACKED, next, tag, ir, 1, rt, prev,
                                             tag, w->comm, MPI_STATUS_IGNORE));
                for (i = 0; i < sbl[0]; i++)
                    ie[i] = prev * 100 + w->id * 10 + i + round;
                de[round % 5] = prev + w->id * 0.25 + (round % 5) * 0.125 + round;
                de[round % 5 + 1] = prev + w->id * 0.25 + (round % 5 + 1) * 0.125 + round;
                w->checks++;
                if (memcmp(ir, ie, sizeof ir) != 0 || memcmp(dr, de, sizeof dr) != 0)
                    fail(w, round, "MPI_PACKED sent, received with a struct type");
                T_MPI(w, round, MPI_Type_free(&rt));
            }
        }

        {   /* attribute and dup */
            static int vals[NTHREADS];
            vals[w->id] = w->id + 1;
            T_MPI(w, round, MPI_Type_set_attr(vec, g_keyval, &vals[w->id]));
            T_MPI(w, round, MPI_Type_dup(vec, &dup));
            T_MPI(w, round, MPI_Type_get_attr(dup, g_keyval, &val, &flag));
            w->checks++;
            if (!flag || val != &vals[w->id])
                fail(w, round, "attribute copied by MPI_Type_dup (MPI_TYPE_DUP_FN)");
            for (i = 0; i < 64; i++)
                r[i] = e[i] = -1 - i;
            T_MPI(w, round, MPI_Sendrecv(s, 1, dup, next, tag, r, 1, vec, prev, tag, w->comm,
                                         MPI_STATUS_IGNORE));
            for (i = 0; i < span; i++)
                if (i % stride < bl)
                    e[i] = prev * 1000000 + tag * 64 + i;
            w->checks++;
            if (memcmp(r, e, sizeof r) != 0)
                fail(w, round, "MPI_Sendrecv with the duplicate");
        }
        T_MPI(w, round, MPI_Type_free(&dup));
        T_MPI(w, round, MPI_Type_free(&st));
        T_MPI(w, round, MPI_Type_free(&vec));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1, rank, size, t;
    pthread_t th[NTHREADS];
    struct worker w[NTHREADS];

    g_prog = "threads";
    MPI_CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    g_rank = rank;
    if (size != 4) {
        if (rank == 0)
            fprintf(stderr, "threads: needs exactly 4 ranks, got %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    CHECK_INT(provided, MPI_THREAD_MULTIPLE, "threads: MPI_Init_thread provides MPI_THREAD_MULTIPLE");
    if (provided != MPI_THREAD_MULTIPLE)
        return finish();
    MPI_CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &g_keyval, NULL));

    for (t = 0; t < NTHREADS; t++) {
        memset(&w[t], 0, sizeof w[t]);
        w[t].id = t;
        w[t].rank = rank;
        MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &w[t].comm));
        MPI_CHECK(MPI_Comm_set_errhandler(w[t].comm, MPI_ERRORS_RETURN));
    }
    for (t = 0; t < NTHREADS; t++)
        if (pthread_create(&th[t], NULL, work, &w[t]) != 0) {
            fprintf(stderr, "threads: pthread_create failed\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    for (t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        g_checks += w[t].checks;
        g_failures += w[t].failures;
        if (w[t].failures)
            fprintf(stderr, "threads: rank %d: check failed: %d failures, first: %s\n", rank,
                    w[t].failures, w[t].first);
        MPI_CHECK(MPI_Comm_free(&w[t].comm));
    }
    MPI_CHECK(MPI_Type_free_keyval(&g_keyval));
    return finish();
}
