/*
 * thread_stress.c: many threads use the datatype API at once and must each see exactly what
 * one thread alone sees.
 *
 * The main thread first computes, alone, the reference answers for a set of recipes (size,
 * extent, true extent, envelope and the bytes MPI_Pack writes from a patterned buffer) and
 * the packed bytes of one shared committed type. Then THREADS threads run ITERATIONS rounds
 * each, all at once: build a type from a recipe, commit it, duplicate it, name the duplicate,
 * set, read and delete attributes on it (with a keyval shared by all threads and keyvals of
 * their own, created and freed as they go), decode it, pack with it and with the shared
 * type, unpack, check every answer against the reference and free everything. At the end the
 * attribute callbacks must have run exactly as often as the calls asked for.
 *
 *   thread_stress [THREADS [ITERATIONS]]     (default 8 threads, 2000 rounds each)
 *
 * Built plainly and, where the compiler supports it, with ThreadSanitizer
 * (c_tests/stress/CMakeLists.txt); it prints the figures of the run.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <mpi.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RECIPES = 8, PACK_COUNT = 3, REGION = 4096 };

typedef struct {
    int size;
    MPI_Aint lb, extent, true_lb, true_extent;
    int ni, na, nt, combiner;
    int packed_size;
    unsigned char packed[REGION];
} reference;

static reference references[RECIPES];
static unsigned char shared_packed[REGION];
static int shared_packed_size;
static MPI_Datatype shared_type;
static int shared_keyval;
static unsigned char source[2 * REGION]; /* origin at source + REGION */

static atomic_long copy_calls, delete_calls, expected_copies, expected_deletes;
static atomic_int failures;

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        if (atomic_fetch_add(&failures, 1) < 20) {                                                 \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define OK(call)                                                                                   \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        if (rc_ != MPI_SUCCESS) FAIL("%s:%d: %s returned %d", __FILE__, __LINE__, #call, rc_);    \
    } while (0)

/* Builds recipe `k` (vector, indexed, struct with markers and padding, resized, subarray,
 * nested and hindexed types). */
static int build(int k, MPI_Datatype *out)
{
    MPI_Datatype inner = MPI_DATATYPE_NULL;
    int rc;
    switch (k) {
    case 0: return MPI_Type_vector(4, 2, 5, MPI_INT, out);
    case 1: {
        int bl[3] = {3, 1, 2}, d[3] = {5, 0, 12};
        return MPI_Type_indexed(3, bl, d, MPI_DOUBLE, out);
    }
    case 2: {
        int bl[3] = {1, 2, 1};
        MPI_Aint d[3] = {0, 8, 40};
        MPI_Datatype t[3] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT};
        return MPI_Type_create_struct(3, bl, d, t, out);
    }
    case 3:
        rc = MPI_Type_contiguous(3, MPI_SHORT, &inner);
        if (rc == MPI_SUCCESS) rc = MPI_Type_create_resized(inner, -4, 16, out);
        break;
    case 4: {
        int sizes[2] = {6, 5}, subs[2] = {3, 2}, starts[2] = {1, 2};
        return MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_FLOAT, out);
    }
    case 5:
        rc = MPI_Type_create_hvector(3, 2, -24, MPI_DOUBLE_INT, &inner);
        if (rc == MPI_SUCCESS) rc = MPI_Type_contiguous(2, inner, out);
        break;
    case 6: {
        MPI_Aint d[4] = {7, 0, 33, 90};
        return MPI_Type_create_hindexed_block(4, 3, d, MPI_CHAR, out);
    }
    default: {
        /* an int at 64 after a lower marker at -8: MPI_LB in the MPICH-ABI build, a resize
           in the standard-ABI build (no MPI_LB there) */
#ifndef MPI_DTYPE_STANDARD_ABI
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {-8, 64};
        MPI_Datatype t[2] = {MPI_LB, MPI_INT};
        rc = MPI_Type_create_struct(2, bl, d, t, &inner);
#else
        MPI_Datatype shifted = MPI_DATATYPE_NULL;
        MPI_Aint d = 64;
        rc = MPI_Type_create_hindexed_block(1, 1, &d, MPI_INT, &shifted);
        if (rc == MPI_SUCCESS) rc = MPI_Type_create_resized(shifted, -8, 76, &inner);
        if (shifted != MPI_DATATYPE_NULL) MPI_Type_free(&shifted);
#endif
        if (rc == MPI_SUCCESS) rc = MPI_Type_vector(2, 1, 2, inner, out);
        break;
    }
    }
    if (inner != MPI_DATATYPE_NULL) MPI_Type_free(&inner);
    return rc;
}

/* What one thread alone sees for a committed type. */
static void observe(MPI_Datatype t, reference *r)
{
    OK(MPI_Type_size(t, &r->size));
    OK(MPI_Type_get_extent(t, &r->lb, &r->extent));
    OK(MPI_Type_get_true_extent(t, &r->true_lb, &r->true_extent));
    OK(MPI_Type_get_envelope(t, &r->ni, &r->na, &r->nt, &r->combiner));
    OK(MPI_Pack_size(PACK_COUNT, t, MPI_COMM_WORLD, &r->packed_size));
    if (r->packed_size > REGION) {
        FAIL("recipe packs %d bytes, more than %d", r->packed_size, REGION);
        return;
    }
    int position = 0;
    memset(r->packed, 0, sizeof r->packed);
    OK(MPI_Pack(source + REGION, PACK_COUNT, t, r->packed, REGION, &position, MPI_COMM_WORLD));
    r->packed_size = position;
}

static int copy_fn(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)t;
    (void)keyval;
    (void)extra;
    atomic_fetch_add(&copy_calls, 1);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Datatype t, int keyval, void *value, void *extra)
{
    (void)t;
    (void)keyval;
    (void)value;
    (void)extra;
    atomic_fetch_add(&delete_calls, 1);
    return MPI_SUCCESS;
}

typedef struct {
    int id;
    int iterations;
} job;

static void *worker(void *arg)
{
    const job *j = arg;
    unsigned char *packed = malloc(REGION);
    unsigned char *target = calloc(2 * REGION, 1);
    for (int it = 0; it < j->iterations && atomic_load(&failures) == 0; it++) {
        int k = (j->id * 7 + it) % RECIPES;
        MPI_Datatype t, dup, dup2;
        OK(build(k, &t));
        OK(MPI_Type_commit(&t));
        reference seen;
        observe(t, &seen);
        const reference *ref = &references[k];
        if (seen.size != ref->size || seen.lb != ref->lb || seen.extent != ref->extent ||
            seen.true_lb != ref->true_lb || seen.true_extent != ref->true_extent ||
            seen.ni != ref->ni || seen.na != ref->na || seen.nt != ref->nt ||
            seen.combiner != ref->combiner || seen.packed_size != ref->packed_size ||
            memcmp(seen.packed, ref->packed, (size_t)ref->packed_size) != 0) {
            FAIL("thread %d round %d: recipe %d differs from the single-threaded answers", j->id,
                 it, k);
        }

        /* A keyval of this thread, attributes on the shared keyval and on it, a dup that
         * copies them and frees that delete them. */
        int own;
        OK(MPI_Type_create_keyval(copy_fn, delete_fn, &own, NULL));
        OK(MPI_Type_set_attr(t, shared_keyval, (void *)(intptr_t)(it + 1)));
        OK(MPI_Type_set_attr(t, own, (void *)(intptr_t)j->id));
        OK(MPI_Type_dup(t, &dup));
        atomic_fetch_add(&expected_copies, 2);
        char name[MPI_MAX_OBJECT_NAME];
        snprintf(name, sizeof name, "thread %d round %d", j->id, it);
        OK(MPI_Type_set_name(dup, name));
        char back[MPI_MAX_OBJECT_NAME];
        int len;
        OK(MPI_Type_get_name(dup, back, &len));
        if (strcmp(name, back) != 0) FAIL("thread %d: name '%s' read back as '%s'", j->id, name, back);
        void *value;
        int flag;
        OK(MPI_Type_get_attr(dup, shared_keyval, &value, &flag));
        if (!flag || (intptr_t)value != it + 1) FAIL("thread %d: shared attribute lost", j->id);
        OK(MPI_Type_get_attr(dup, own, &value, &flag));
        if (!flag || (intptr_t)value != j->id) FAIL("thread %d: own attribute lost", j->id);
        OK(MPI_Type_delete_attr(dup, own));
        atomic_fetch_add(&expected_deletes, 1);
        OK(MPI_Type_dup(dup, &dup2)); /* copies the shared attribute only */
        atomic_fetch_add(&expected_copies, 1);

        /* Pack with the dup and with the shared type; unpack into a buffer of our own. */
        int position = 0;
        OK(MPI_Pack(source + REGION, PACK_COUNT, dup2, packed, REGION, &position, MPI_COMM_WORLD));
        if (position != ref->packed_size || memcmp(packed, ref->packed, (size_t)position) != 0) {
            FAIL("thread %d round %d: the dup of recipe %d packs differently", j->id, it, k);
        }
        int in = 0;
        OK(MPI_Unpack(packed, position, &in, target + REGION, PACK_COUNT, dup2, MPI_COMM_WORLD));
        position = 0;
        OK(MPI_Pack(source + REGION, 2, shared_type, packed, REGION, &position, MPI_COMM_WORLD));
        if (position != shared_packed_size || memcmp(packed, shared_packed, (size_t)position) != 0) {
            FAIL("thread %d round %d: the shared type packs differently", j->id, it);
        }

        /* Decode one level: the children are new handles to free. */
        if (ref->combiner != MPI_COMBINER_NAMED && ref->ni <= 16 && ref->na <= 16 && ref->nt <= 4) {
            int ints[16];
            MPI_Aint addrs[16];
            MPI_Datatype types[4];
            OK(MPI_Type_get_contents(t, ref->ni, ref->na, ref->nt, ints, addrs, types));
            for (int c = 0; c < ref->nt; c++) {
                int a, b, d, combiner;
                OK(MPI_Type_get_envelope(types[c], &a, &b, &d, &combiner));
                if (combiner != MPI_COMBINER_NAMED) OK(MPI_Type_free(&types[c]));
            }
        }

        OK(MPI_Type_free(&t));   /* deletes its two attributes */
        OK(MPI_Type_free(&dup)); /* deletes the shared one */
        OK(MPI_Type_free(&dup2));
        atomic_fetch_add(&expected_deletes, 4);
        OK(MPI_Type_free_keyval(&own));
    }
    free(packed);
    free(target);
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 8;
    int iterations = argc > 2 ? atoi(argv[2]) : 2000;
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
        return 1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < 2 * REGION; i++) source[i] = (unsigned char)(i * 7 + 3);

    /* The single-threaded answers. */
    for (int k = 0; k < RECIPES; k++) {
        MPI_Datatype t;
        OK(build(k, &t));
        OK(MPI_Type_commit(&t));
        observe(t, &references[k]);
        OK(MPI_Type_free(&t));
    }
    OK(build(2, &shared_type));
    OK(MPI_Type_commit(&shared_type));
    OK(MPI_Pack(source + REGION, 2, shared_type, shared_packed, REGION, &shared_packed_size,
                MPI_COMM_WORLD));
    OK(MPI_Type_create_keyval(copy_fn, delete_fn, &shared_keyval, NULL));
    if (atomic_load(&failures)) return 1;

    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pthread_t *ids = malloc(sizeof *ids * (size_t)threads);
    job *jobs = malloc(sizeof *jobs * (size_t)threads);
    for (int i = 0; i < threads; i++) {
        jobs[i] = (job){i, iterations};
        if (pthread_create(&ids[i], NULL, worker, &jobs[i]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;

    if (atomic_load(&copy_calls) != atomic_load(&expected_copies)) {
        FAIL("copy callbacks: %ld calls, %ld expected", atomic_load(&copy_calls),
             atomic_load(&expected_copies));
    }
    if (atomic_load(&delete_calls) != atomic_load(&expected_deletes)) {
        FAIL("delete callbacks: %ld calls, %ld expected", atomic_load(&delete_calls),
             atomic_load(&expected_deletes));
    }
    OK(MPI_Type_free(&shared_type));
    OK(MPI_Type_free_keyval(&shared_keyval));
    printf("thread_stress: %d threads x %d rounds (%ld types built, %ld attribute copies, %ld "
           "deletes) in %.2f s: %s\n",
           threads, iterations, (long)threads * iterations * 3, atomic_load(&copy_calls),
           atomic_load(&delete_calls), seconds, atomic_load(&failures) ? "FAILED" : "passed");
    free(ids);
    free(jobs);
    MPI_Finalize();
    return atomic_load(&failures) ? 1 : 0;
}
