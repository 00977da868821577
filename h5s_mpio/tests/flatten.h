/* Decodes a datatype built from MPI_BYTE with MPI_Type_get_envelope / MPI_Type_get_contents
 * into its list of byte blocks (type-map order), independently of MPI_Pack, and records the
 * largest count any constructor in it was given. */
#ifndef H5S_MPIO_FLATTEN_H
#define H5S_MPIO_FLATTEN_H

#include <mpi.h>
#include <stdlib.h>

typedef struct {
    MPI_Aint *disp;
    MPI_Aint *len;
    size_t n, cap;
    long max_count; /* the largest count or array length in any constructor */
    int unknown;    /* a combiner this decoder does not know */
} flat_list;

static void flat_push(flat_list *f, MPI_Aint disp, MPI_Aint len) {
    if (len == 0)
        return;
    if (f->n > 0 && f->disp[f->n - 1] + f->len[f->n - 1] == disp) {
        f->len[f->n - 1] += len;
        return;
    }
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 64;
        f->disp = realloc(f->disp, f->cap * sizeof *f->disp);
        f->len = realloc(f->len, f->cap * sizeof *f->len);
        if (f->disp == NULL || f->len == NULL)
            abort();
    }
    f->disp[f->n] = disp;
    f->len[f->n] = len;
    f->n++;
}

static void flat_note(flat_list *f, long count) {
    if (count > f->max_count)
        f->max_count = count;
}

static void flat_type(flat_list *f, MPI_Datatype t, MPI_Aint base);

static void flat_copies(flat_list *f, MPI_Datatype t, MPI_Aint base, long copies) {
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    for (long k = 0; k < copies; k++)
        flat_type(f, t, base + k * ext);
}

static void flat_type(flat_list *f, MPI_Datatype t, MPI_Aint base) {
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED) {
        int size;
        MPI_Type_size(t, &size);
        flat_push(f, base, size);
        return;
    }
    int *ints = malloc((size_t)(ni + 1) * sizeof *ints);
    MPI_Aint *addrs = malloc((size_t)(na + 1) * sizeof *addrs);
    MPI_Datatype *types = malloc((size_t)(nd + 1) * sizeof *types);
    if (ints == NULL || addrs == NULL || types == NULL)
        abort();
    MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types);
    MPI_Aint lb, ext;
    switch (comb) {
    case MPI_COMBINER_CONTIGUOUS:
        flat_note(f, ints[0]);
        flat_copies(f, types[0], base, ints[0]);
        break;
    case MPI_COMBINER_VECTOR:
        flat_note(f, ints[0]);
        flat_note(f, ints[1]);
        MPI_Type_get_extent(types[0], &lb, &ext);
        for (int k = 0; k < ints[0]; k++)
            flat_copies(f, types[0], base + (MPI_Aint)k * ints[2] * ext, ints[1]);
        break;
    case MPI_COMBINER_HVECTOR:
        flat_note(f, ints[0]);
        flat_note(f, ints[1]);
        for (int k = 0; k < ints[0]; k++)
            flat_copies(f, types[0], base + (MPI_Aint)k * addrs[0], ints[1]);
        break;
    case MPI_COMBINER_HINDEXED:
        flat_note(f, ints[0]);
        for (int k = 0; k < ints[0]; k++) {
            flat_note(f, ints[1 + k]);
            flat_copies(f, types[0], base + addrs[k], ints[1 + k]);
        }
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        flat_note(f, ints[0]);
        flat_note(f, ints[1]);
        for (int k = 0; k < ints[0]; k++)
            flat_copies(f, types[0], base + addrs[k], ints[1]);
        break;
    case MPI_COMBINER_STRUCT:
        flat_note(f, ints[0]);
        for (int k = 0; k < ints[0]; k++) {
            flat_note(f, ints[1 + k]);
            flat_copies(f, types[k], base + addrs[k], ints[1 + k]);
        }
        break;
    case MPI_COMBINER_RESIZED: flat_type(f, types[0], base); break;
    default: f->unknown = 1; break;
    }
    for (int k = 0; k < nd; k++) {
        int a, b, c, cb;
        MPI_Type_get_envelope(types[k], &a, &b, &c, &cb);
        if (cb != MPI_COMBINER_NAMED)
            MPI_Type_free(&types[k]);
    }
    free(ints);
    free(addrs);
    free(types);
}

#endif
