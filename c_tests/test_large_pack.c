/*
 * Packs whose packed size exceeds 2^31 and 2^32 bytes, through the large-count (_c)
 * functions: 65537 copies of a 64 KiB pattern (an hvector of stride 0 reads the same source
 * every time) pack into 2^32 + 64 KiB bytes; they unpack again with the same type, and the
 * last block unpacks on its own from its position past 2^32; the int functions report that
 * the size does not fit an int.
 */
#include "check.h"

#define BLOCK 65536L
#define BLOCKS 65537L

int main(int argc, char **argv)
{
    MPI_Datatype repeated, contiguous;
    MPI_Count size = 0, position = 0, unpacked_at = 0;
    int int_size;
    char *pattern = malloc(BLOCK);
    char *packed = malloc((size_t)(BLOCK * BLOCKS));
    char *copy = malloc(BLOCK);

    (void)argc;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (!pattern || !packed || !copy) {
        printf("%s: skipped, 4 GiB of memory not available\n", argv[0]);
        MPI_Finalize();
        return 0;
    }
    for (long i = 0; i < BLOCK; i++) {
        pattern[i] = (char)(i * 7 + i / 251);
    }

    CHECK_OK(MPI_Type_create_hvector_c(BLOCKS, BLOCK, 0, MPI_BYTE, &repeated));
    CHECK_OK(MPI_Type_commit(&repeated));
    CHECK_OK(MPI_Pack_size_c(1, repeated, MPI_COMM_WORLD, &size));
    CHECK_EQ_LONG(size, BLOCK * BLOCKS);
    CHECK(size > 4294967296L);
    CHECK_ERR(MPI_Pack_size(1, repeated, MPI_COMM_WORLD, &int_size), MPI_ERR_VALUE_TOO_LARGE);

    CHECK_OK(MPI_Pack_c(pattern, 1, repeated, packed, size, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, size);
    int same = 1;
    for (long b = 0; b < BLOCKS && same; b++) {
        same = memcmp(packed + b * BLOCK, pattern, BLOCK) == 0;
    }
    CHECK(same);

    CHECK_OK(MPI_Unpack_c(packed, size, &unpacked_at, copy, 1, repeated, MPI_COMM_WORLD));
    CHECK_EQ_LONG(unpacked_at, size);
    CHECK(memcmp(copy, pattern, BLOCK) == 0);

    /* Past 2^32 the positions still count. */
    CHECK_OK(MPI_Type_contiguous_c(BLOCK, MPI_BYTE, &contiguous));
    CHECK_OK(MPI_Type_commit(&contiguous));
    memset(copy, 0, BLOCK);
    position = size - BLOCK;
    CHECK_OK(MPI_Unpack_c(packed, size, &position, copy, 1, contiguous, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, size);
    CHECK(memcmp(copy, pattern, BLOCK) == 0);
    position = size - BLOCK + 1;
    CHECK_ERR(MPI_Unpack_c(packed, size, &position, copy, 1, contiguous, MPI_COMM_WORLD),
              MPI_ERR_TRUNCATE);
    CHECK_EQ_LONG(position, size - BLOCK + 1);

    CHECK_OK(MPI_Type_free(&repeated));
    CHECK_OK(MPI_Type_free(&contiguous));
    free(pattern);
    free(packed);
    free(copy);
    MPI_Finalize();
    return check_report(argv[0]);
}
