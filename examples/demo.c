/*
 * demo.c: builds three derived datatypes, decodes them, and packs / unpacks with them,
 * printing what happens at each step. Runs with mpi-dtype alone (no other MPI needed).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const char *combiner_name(int combiner) {
    switch (combiner) {
    case MPI_COMBINER_NAMED: return "NAMED";
    case MPI_COMBINER_DUP: return "DUP";
    case MPI_COMBINER_CONTIGUOUS: return "CONTIGUOUS";
    case MPI_COMBINER_VECTOR: return "VECTOR";
    case MPI_COMBINER_HVECTOR: return "HVECTOR";
    case MPI_COMBINER_INDEXED: return "INDEXED";
    case MPI_COMBINER_HINDEXED: return "HINDEXED";
    case MPI_COMBINER_INDEXED_BLOCK: return "INDEXED_BLOCK";
    case MPI_COMBINER_HINDEXED_BLOCK: return "HINDEXED_BLOCK";
    case MPI_COMBINER_STRUCT: return "STRUCT";
    case MPI_COMBINER_SUBARRAY: return "SUBARRAY";
    case MPI_COMBINER_DARRAY: return "DARRAY";
    case MPI_COMBINER_RESIZED: return "RESIZED";
    default: return "?";
    }
}

/* Prints a datatype's bounds and its decoded constructor, recursively. */
static void describe(MPI_Datatype type, int depth) {
    int ni, na, nd, combiner, size, i;
    MPI_Aint lb, extent, true_lb, true_extent;
    MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    MPI_Type_size(type, &size);
    MPI_Type_get_extent(type, &lb, &extent);
    MPI_Type_get_true_extent(type, &true_lb, &true_extent);
    printf("%*s%s: size %d, lb %ld, extent %ld, true lb %ld, true extent %ld", depth * 2, "",
           combiner_name(combiner), size, (long)lb, (long)extent, (long)true_lb, (long)true_extent);
    if (combiner == MPI_COMBINER_NAMED) {
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Type_get_name(type, name, &len);
        printf(" (%s)\n", name);
        return;
    }
    {
        int ints[64];
        MPI_Aint addrs[64];
        MPI_Datatype types[16];
        MPI_Type_get_contents(type, 64, 64, 16, ints, addrs, types);
        printf("\n%*sintegers:", depth * 2 + 2, "");
        for (i = 0; i < ni; i++) printf(" %d", ints[i]);
        printf("  addresses:");
        for (i = 0; i < na; i++) printf(" %ld", (long)addrs[i]);
        printf("\n");
        for (i = 0; i < nd; i++) {
            int cni, cna, cnd, ccomb;
            describe(types[i], depth + 1);
            MPI_Type_get_envelope(types[i], &cni, &cna, &cnd, &ccomb);
            if (ccomb != MPI_COMBINER_NAMED) MPI_Type_free(&types[i]);
        }
    }
}

int main(int argc, char **argv) {
    double matrix[4][5];
    double column[4], back[4][5];
    char packed[256];
    int position, i, j;
    MPI_Datatype column_type, particle_type, block_type;
    struct particle { double x[3]; int id; char tag; } particles[2];

    MPI_Init(&argc, &argv);
    for (i = 0; i < 4; i++)
        for (j = 0; j < 5; j++) matrix[i][j] = 10 * i + j;

    /* 1. Column 2 of a 4x5 row-major matrix: a vector of 4 doubles, stride 5. */
    MPI_Type_vector(4, 1, 5, MPI_DOUBLE, &column_type);
    MPI_Type_commit(&column_type);
    printf("column of a 4x5 matrix:\n");
    describe(column_type, 1);
    position = 0;
    MPI_Pack(&matrix[0][2], 1, column_type, packed, sizeof packed, &position, MPI_COMM_WORLD);
    memcpy(column, packed, sizeof column);
    printf("  packed %d bytes: %g %g %g %g\n", position, column[0], column[1], column[2], column[3]);
    memset(back, 0, sizeof back);
    position = 0;
    MPI_Unpack(packed, sizeof packed, &position, &back[0][2], 1, column_type, MPI_COMM_WORLD);
    printf("  unpacked into column 2 of a zeroed matrix: back[3][2] = %g, back[3][1] = %g\n\n",
           back[3][2], back[3][1]);

    /* 2. A C struct: three doubles, an int and a char, with the C compiler's padding. */
    {
        int blocklengths[3] = {3, 1, 1};
        MPI_Aint displacements[3], base;
        MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
        MPI_Get_address(&particles[0], &base);
        MPI_Get_address(&particles[0].x, &displacements[0]);
        MPI_Get_address(&particles[0].id, &displacements[1]);
        MPI_Get_address(&particles[0].tag, &displacements[2]);
        for (i = 0; i < 3; i++) displacements[i] = MPI_Aint_diff(displacements[i], base);
        MPI_Type_create_struct(3, blocklengths, displacements, types, &particle_type);
        MPI_Type_commit(&particle_type);
    }
    printf("struct particle (sizeof %zu):\n", sizeof(struct particle));
    describe(particle_type, 1);
    for (i = 0; i < 2; i++) {
        particles[i].x[0] = i + 0.5;
        particles[i].id = 100 + i;
        particles[i].tag = (char)('a' + i);
    }
    position = 0;
    MPI_Pack(particles, 2, particle_type, packed, sizeof packed, &position, MPI_COMM_WORLD);
    printf("  packed 2 particles into %d bytes (2 x 29 data bytes, no padding)\n\n", position);

    /* 3. A 2x3 block at (1,1) of a 4x5 array, as a subarray. */
    {
        int sizes[2] = {4, 5}, subsizes[2] = {2, 3}, starts[2] = {1, 1};
        MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &block_type);
        MPI_Type_commit(&block_type);
    }
    printf("2x3 block at (1,1) of a 4x5 array:\n");
    describe(block_type, 1);
    position = 0;
    MPI_Pack(matrix, 1, block_type, packed, sizeof packed, &position, MPI_COMM_WORLD);
    {
        double block[6];
        memcpy(block, packed, sizeof block);
        printf("  packed %d bytes:", position);
        for (i = 0; i < 6; i++) printf(" %g", block[i]);
        printf("\n");
    }

    MPI_Type_free(&column_type);
    MPI_Type_free(&particle_type);
    MPI_Type_free(&block_type);
    MPI_Finalize();
    return 0;
}
