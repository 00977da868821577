/* Construction and pack time of the datatype of irregular selections of about 10^4, 10^5 and
 * 10^6 spans (a checkerboard, four repeated row patterns, every row distinct), through the port
 * and, when built with -DWITH_HDF5 against Debian's libhdf5-mpich, through HDF5's own
 * H5S_mpio_space_type (an internal function the library exports) on the same selection.
 * Usage: bench_construct [max_spans]   (prints one Markdown table row per case) */
#include "h5s_mpio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef WITH_HDF5
#include <hdf5.h>
#include <stdbool.h>
/* HDF5 1.10's internal entry points (exported by the shared library). */
extern herr_t H5S_mpio_space_type(const void *space, size_t elmt_size, MPI_Datatype *new_type, int *count,
                                  bool *is_derived_type, bool do_permute, hsize_t **permute_map, bool *is_permuted);
extern void *H5I_object_verify(hid_t id, H5I_type_t id_type);
#endif

enum { CHECKER, REPEATED, DISTINCT };
static const char *const names[] = {"checkerboard", "4 repeated row patterns", "every row distinct"};

/* One slab of a selection, applied to the port and to HDF5 alike. */
typedef struct {
    h5s_seloper op;
    uint64_t start[2], stride[2], count[2], block[2];
} slab;

/* The slabs of a selection of about `spans` spans in `*rows` x `*cols`. */
static slab *make_selection(int kind, long spans, uint64_t *rows, uint64_t *cols, size_t *nslabs) {
    slab *v = NULL;
    size_t n = 0;
    if (kind == CHECKER) {
        uint64_t r = 1;
        while (r * r < (uint64_t)spans / 2)
            r++;
        *rows = r;
        *cols = 2 * ((uint64_t)spans / r);
        v = calloc(2, sizeof *v);
        for (int k = 0; k < 2; k++) {
            v[k].op = k ? H5S_OP_OR : H5S_OP_SET;
            v[k].start[0] = v[k].start[1] = (uint64_t)k;
            v[k].stride[0] = v[k].stride[1] = 2;
            v[k].count[0] = (*rows - (uint64_t)k + 1) / 2;
            v[k].count[1] = (*cols - (uint64_t)k + 1) / 2;
            v[k].block[0] = v[k].block[1] = 1;
        }
        n = 2;
    } else if (kind == REPEATED) {
        /* rows p, p + 4, ... have spans of length 1 every p + 2 columns */
        uint64_t r = 4;
        while (r * r < (uint64_t)spans / 3)
            r += 4;
        *rows = r;
        *cols = 3 * ((uint64_t)spans / r) * 4 / 4;
        v = calloc(4, sizeof *v);
        for (int p = 0; p < 4; p++) {
            v[p].op = p ? H5S_OP_OR : H5S_OP_SET;
            v[p].start[0] = (uint64_t)p;
            v[p].stride[0] = 4;
            v[p].count[0] = r / 4;
            v[p].block[0] = 1;
            v[p].start[1] = (uint64_t)p;
            v[p].stride[1] = (uint64_t)p + 2;
            v[p].count[1] = (*cols - (uint64_t)p) / ((uint64_t)p + 2);
            v[p].block[1] = 1;
        }
        n = 4;
    } else {
        /* row i: spans of length 1 every 2 columns, k_i of them, all k_i different */
        uint64_t r = 1;
        while (r * r < (uint64_t)spans)
            r++;
        *rows = r;
        const uint64_t kmax = (uint64_t)spans / r + r / 2;
        *cols = 2 * kmax;
        v = calloc(r, sizeof *v);
        for (uint64_t i = 0; i < r; i++) {
            v[i].op = i ? H5S_OP_OR : H5S_OP_SET;
            v[i].start[0] = i;
            v[i].stride[0] = 1;
            v[i].count[0] = 1;
            v[i].block[0] = 1;
            v[i].start[1] = 0;
            v[i].stride[1] = 2;
            v[i].count[1] = kmax - i;
            v[i].block[1] = 1;
        }
        n = r;
    }
    *nslabs = n;
    return v;
}

static double now(void) { return MPI_Wtime(); }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    const long max_spans = argc > 1 ? atol(argv[1]) : 1000000;
    const size_t elmt = 8;
    printf("| selection | spans | port: select (ms) | port: build type (ms) | pack (ms, MB/s) |"
#ifdef WITH_HDF5
           " HDF5: select (ms) | HDF5: H5S_mpio_space_type (ms) |"
#endif
           "\n|---|---|---|---|---|"
#ifdef WITH_HDF5
           "---|---|"
#endif
           "\n");
    for (long spans = 10000; spans <= max_spans; spans *= 10) {
        for (int kind = 0; kind < 3; kind++) {
            uint64_t rows, cols;
            size_t nslabs;
            slab *v = make_selection(kind, spans, &rows, &cols, &nslabs);
            const uint64_t dims[2] = {rows, cols};
            double t0 = now();
            h5s_space *s = h5s_create_simple(2, dims);
            for (size_t k = 0; k < nslabs; k++)
                if (h5s_select_hyperslab(s, v[k].op, v[k].start, v[k].stride, v[k].count, v[k].block) < 0)
                    return 1;
            const double t_select = now() - t0;
            const int64_t np = h5s_get_select_npoints(s);
            double best = 1e30;
            MPI_Datatype t = MPI_DATATYPE_NULL;
            int count, derived;
            for (int rep = 0; rep < 3; rep++) {
                if (t != MPI_DATATYPE_NULL)
                    MPI_Type_free(&t);
                t0 = now();
                if (h5s_mpio_space_type(s, elmt, &t, &count, &derived, 0, NULL, NULL) < 0)
                    return 1;
                const double dt = now() - t0;
                if (dt < best)
                    best = dt;
            }
            const size_t bytes = (size_t)(rows * cols) * elmt, nbytes = (size_t)np * elmt;
            unsigned char *src = malloc(bytes), *dst = malloc(nbytes), *want = malloc(nbytes);
            for (size_t i = 0; i < bytes; i++)
                src[i] = (unsigned char)(i * 7 + i / 251);
            double pbest = 1e30;
            for (int rep = 0; rep < 3; rep++) {
                int pos = 0;
                t0 = now();
                MPI_Pack(src, count, t, dst, (int)nbytes, &pos, MPI_COMM_SELF);
                const double dt = now() - t0;
                if (dt < pbest)
                    pbest = dt;
            }
            MPI_Type_free(&t);
            /* check the packed bytes against the slabs applied to a bitmap */
            unsigned char *in = calloc(rows * cols, 1);
            for (size_t k = 0; k < nslabs; k++)
                for (uint64_t a = 0; a < v[k].count[0]; a++)
                    for (uint64_t b = 0; b < v[k].count[1]; b++)
                        in[(v[k].start[0] + a * v[k].stride[0]) * cols + v[k].start[1] + b * v[k].stride[1]] = 1;
            size_t at = 0;
            for (size_t i = 0; i < rows * cols; i++)
                if (in[i]) {
                    memcpy(want + at, src + i * elmt, elmt);
                    at += elmt;
                }
            free(in);
            if (at != nbytes || memcmp(want, dst, nbytes) != 0) {
                fprintf(stderr, "%s, %ld spans: MPI_Pack with the port's type gives wrong bytes\n", names[kind], spans);
                return 1;
            }
            free(want);
            /* spans: the runs of the selection in each row */
            printf("| %s | %lld | %.1f | %.2f | %.2f, %.0f |", names[kind],
                   (long long)(kind == CHECKER ? np : np), t_select * 1e3, best * 1e3, pbest * 1e3,
                   nbytes / pbest / 1e6);
#ifdef WITH_HDF5
            hsize_t hd[2] = {rows, cols};
            t0 = now();
            hid_t hs = H5Screate_simple(2, hd, NULL);
            for (size_t k = 0; k < nslabs; k++) {
                hsize_t st[2] = {v[k].start[0], v[k].start[1]}, sd[2] = {v[k].stride[0], v[k].stride[1]};
                hsize_t ct[2] = {v[k].count[0], v[k].count[1]}, bl[2] = {v[k].block[0], v[k].block[1]};
                H5Sselect_hyperslab(hs, (H5S_seloper_t)v[k].op, st, sd, ct, bl);
            }
            const double h_select = now() - t0;
            if (H5Sget_select_npoints(hs) != np)
                printf(" (HDF5 selects %lld elements)", (long long)H5Sget_select_npoints(hs));
            const void *hspace = H5I_object_verify(hs, H5I_DATASPACE);
            double hbest = 1e30;
            for (int rep = 0; rep < 3; rep++) {
                MPI_Datatype ht;
                int hc;
                bool hder = false, hperm = false;
                t0 = now();
                if (H5S_mpio_space_type(hspace, elmt, &ht, &hc, &hder, false, NULL, &hperm) < 0)
                    return 1;
                const double dt = now() - t0;
                if (dt < hbest)
                    hbest = dt;
                if (hder)
                    MPI_Type_free(&ht);
            }
            printf(" %.1f | %.2f |", h_select * 1e3, hbest * 1e3);
            H5Sclose(hs);
#endif
            printf("\n");
            fflush(stdout);
            free(src);
            free(dst);
            free(v);
            h5s_close(s);
        }
    }
    MPI_Finalize();
    return 0;
}
