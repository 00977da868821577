/* Threads building and packing types from the same spaces at once (the builders only read a
 * space) while another thread changes the bigio threshold: every pack equals the one of a
 * single thread. Over mpi-dtype, which supports MPI_THREAD_MULTIPLE. */
#include "h5s_mpio.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { THREADS = 4, ROUNDS = 200, ROWS = 64, COLS = 64, ELMT = 4 };

static h5s_space *spaces[3];
static unsigned char src[ROWS * COLS * ELMT];
static unsigned char expected[3][ROWS * COLS * ELMT];
static int expected_bytes[3];
static int stop_flag;
static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;

static int pack(const h5s_space *s, unsigned char *out) {
    MPI_Datatype t;
    int count, derived, permuted = 0, pos = 0;
    uint64_t *map = NULL;
    if (h5s_mpio_space_type(s, ELMT, &t, &count, &derived, 1, &map, &permuted) < 0)
        return -1;
    MPI_Pack(src, count, t, out, (int)sizeof src, &pos, MPI_COMM_SELF);
    if (derived)
        MPI_Type_free(&t);
    free(map);
    return pos;
}

static void *worker(void *arg) {
    long bad = 0;
    unsigned char *out = malloc(sizeof src);
    for (int r = 0; r < ROUNDS; r++) {
        const int k = (int)((r + (long)arg) % 3);
        const int n = pack(spaces[k], out);
        if (n != expected_bytes[k] || memcmp(out, expected[k], (size_t)n) != 0)
            bad++;
    }
    free(out);
    return (void *)bad;
}

static void *threshold_changer(void *arg) {
    (void)arg;
    for (uint64_t b = 2;; b = b % 50 + 2) {
        h5s_mpio_set_bigio_count(b);
        pthread_mutex_lock(&stop_lock);
        const int stop = stop_flag;
        pthread_mutex_unlock(&stop_lock);
        if (stop)
            break;
    }
    return NULL;
}

int main(int argc, char **argv) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        printf("MPI_THREAD_MULTIPLE not provided: skipped\n");
        MPI_Finalize();
        return 0;
    }
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 7 + 3);
    const uint64_t dims[2] = {ROWS, COLS};
    /* an irregular checkerboard with a hole, a regular strided slab, out-of-order points */
    const uint64_t z[2] = {0, 0}, o[2] = {1, 1}, st[2] = {2, 2}, cn[2] = {32, 32}, hole[2] = {10, 10},
                   hc[2] = {5, 7};
    spaces[0] = h5s_create_simple(2, dims);
    h5s_select_hyperslab(spaces[0], H5S_OP_SET, z, st, cn, NULL);
    h5s_select_hyperslab(spaces[0], H5S_OP_OR, o, st, cn, NULL);
    h5s_select_hyperslab(spaces[0], H5S_OP_NOTB, hole, NULL, hc, NULL);
    spaces[1] = h5s_create_simple(2, dims);
    const uint64_t s1[2] = {3, 1}, sd1[2] = {5, 3}, c1[2] = {12, 20}, b1[2] = {2, 2};
    h5s_select_hyperslab(spaces[1], H5S_OP_SET, s1, sd1, c1, b1);
    spaces[2] = h5s_create_simple(2, dims);
    uint64_t pts[2 * 300];
    for (int i = 0; i < 300; i++) {
        pts[2 * i] = (uint64_t)(i * 37 % ROWS);
        pts[2 * i + 1] = (uint64_t)(i * 11 % COLS);
    }
    h5s_select_elements(spaces[2], H5S_OP_SET, 300, pts);
    for (int k = 0; k < 3; k++)
        expected_bytes[k] = pack(spaces[k], expected[k]);
    pthread_t threads[THREADS], changer;
    pthread_create(&changer, NULL, threshold_changer, NULL);
    for (long i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, worker, (void *)i);
    long bad = 0;
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(threads[i], &r);
        bad += (long)r;
    }
    pthread_mutex_lock(&stop_lock);
    stop_flag = 1;
    pthread_mutex_unlock(&stop_lock);
    pthread_join(changer, NULL);
    for (int k = 0; k < 3; k++)
        h5s_close(spaces[k]);
    printf("%d threads x %d types and packs, bigio changing meanwhile: %ld wrong\n", THREADS, ROUNDS, bad);
    MPI_Finalize();
    return bad != 0;
}
