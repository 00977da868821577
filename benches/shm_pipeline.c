/* The shm variant of the communication benchmark (comm_bench.c): rank 0 copies the runs of the
 * type map, in chunks, into a ring of slots in memory that both processes share
 * (MPI_Win_allocate_shared), and rank 1 copies each chunk out to its runs as soon as it is
 * there, while rank 0 fills the next ones. That is the copy-in/copy-out pipeline through
 * shared memory with which Open MPI's shared-memory transport moves a derived type, and what a
 * node-local transport between processes running mpi-dtype would do. It is not an MPI path:
 * MPI only makes the shared memory and carries the acknowledgement, so the variant measures
 * how fast such a transport could move each pattern, under the same timing as the others. */
#include "comm_bench.h"
#include <string.h>

#define SLOTS 16
#define CHUNK (16 * 1024)
#define LINE 64

/* A counter alone on its cache line, so that the two processes' writes do not share one. */
typedef struct flag {
    uint64_t value;
    char pad[LINE - sizeof(uint64_t)];
} flag;

/* The shared ring. filled[s]: 1 + the number of the chunk slot s holds, written by rank 0
 * once the chunk is in; emptied[s]: 1 + the number of the last chunk rank 1 took out of it. */
typedef struct ring {
    flag filled[SLOTS];
    flag emptied[SLOTS];
    _Alignas(LINE) unsigned char data[SLOTS][CHUNK];
} ring;

static ring *g_ring;
static MPI_Win g_window;
static MPI_Comm g_node;
/* Chunks moved through the ring so far: the same count on both processes. */
static uint64_t g_moved;

void shm_setup(void) {
    int node_size;
    MPI_Aint size;
    int unit;
    void *base;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &g_node);
    MPI_Comm_size(g_node, &node_size);
    if (node_size != 2)
        fail("shm", "the two processes are not on one node");
    MPI_Win_allocate_shared(rank == 0 ? (MPI_Aint)sizeof(ring) : 0, 1, MPI_INFO_NULL, g_node,
                            &base, &g_window);
    MPI_Win_shared_query(g_window, 0, &size, &unit, &g_ring);
    if ((size_t)size < sizeof(ring))
        fail("shm", "the shared window is smaller than the ring");
    if (rank == 0)
        memset(g_ring, 0, sizeof(ring));
    MPI_Barrier(MPI_COMM_WORLD);
}

void shm_teardown(void) {
    MPI_Win_free(&g_window);
    MPI_Comm_free(&g_node);
}

/* Where a copy stands in the runs of the type map. */
typedef struct cursor {
    size_t run, at;
} cursor;

/* Copies up to `room` bytes between the runs (from `c` on) of `memory` and `chunk`: into the
 * chunk with `in` set, out of it otherwise. Returns the bytes copied. */
static size_t copy_runs(const pattern *p, cursor *c, unsigned char *memory, unsigned char *chunk,
                        size_t room, int in) {
    size_t done = 0;
    while (done < room && c->run < p->nruns) {
        const run *r = &p->runs[c->run];
        size_t n = r->length - c->at;
        if (n > room - done)
            n = room - done;
        unsigned char *place = memory + r->offset + c->at;
        if (in)
            memcpy(chunk + done, place, n);
        else
            memcpy(place, chunk + done, n);
        done += n;
        c->at += n;
        if (c->at == r->length) {
            c->run++;
            c->at = 0;
        }
    }
    return done;
}

static void wait_for(const uint64_t *value, uint64_t at_least) {
    while (__atomic_load_n(value, __ATOMIC_ACQUIRE) < at_least) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

void shm_message(const pattern *p, unsigned char *memory) {
    uint64_t chunks = (p->bytes + CHUNK - 1) / CHUNK;
    cursor c = {0, 0};
    for (uint64_t k = 0; k < chunks; k++) {
        uint64_t n = g_moved + k, slot = n % SLOTS;
        if (rank == 0) {
            /* The chunk that held the slot before, SLOTS chunks ago, is out. */
            if (n >= SLOTS)
                wait_for(&g_ring->emptied[slot].value, n - SLOTS + 1);
            copy_runs(p, &c, memory, g_ring->data[slot], CHUNK, 1);
            __atomic_store_n(&g_ring->filled[slot].value, n + 1, __ATOMIC_RELEASE);
        } else {
            wait_for(&g_ring->filled[slot].value, n + 1);
            copy_runs(p, &c, memory, g_ring->data[slot], CHUNK, 0);
            __atomic_store_n(&g_ring->emptied[slot].value, n + 1, __ATOMIC_RELEASE);
        }
    }
    g_moved += chunks;
}
