/* A program traced by tests/trace.rs (MPI_DTYPE_TRACE): each scenario named by argv[1]
 * builds, commits, packs, unpacks and frees types in one way, so that the trace shows one
 * runtime warning, or none. Built with -rdynamic, so the functions that build the types
 * have names the trace can give. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        if ((call) != MPI_SUCCESS) {                                                 \
            fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call);        \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* A struct of an int, a double and three chars, as the C struct lays it out. */
MPI_Datatype build_particle(void) {
    int lengths[3] = {1, 1, 3};
    MPI_Aint displacements[3] = {0, 8, 16};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype particle;
    CHECK(MPI_Type_create_struct(3, lengths, displacements, types, &particle));
    return particle;
}

/* Every other double of eight. */
MPI_Datatype build_column(void) {
    MPI_Datatype column;
    CHECK(MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &column));
    return column;
}

/* Two blocks of doubles that share the bytes [4, 8). */
MPI_Datatype build_overlapping(void) {
    int lengths[2] = {1, 2};
    MPI_Aint displacements[2] = {0, 4};
    MPI_Datatype overlapping;
    CHECK(MPI_Type_create_hindexed(2, lengths, displacements, MPI_DOUBLE, &overlapping));
    return overlapping;
}

static char memory[4096];
static char packed[4096];

static void pack(MPI_Datatype type, int count) {
    int position = 0;
    CHECK(MPI_Pack(memory, count, type, packed, (int)sizeof packed, &position, MPI_COMM_WORLD));
}

static void unpack(MPI_Datatype type, int count) {
    int position = 0;
    CHECK(MPI_Unpack(packed, (int)sizeof packed, &position, memory, count, type, MPI_COMM_WORLD));
}

/* Builds, commits, packs 3 times and unpacks 2 times, frees everything. */
static void clean(void) {
    MPI_Datatype particle = build_particle(), column = build_column(), copy;
    CHECK(MPI_Type_commit(&particle));
    CHECK(MPI_Type_commit(&column));
    pack(particle, 2);
    pack(particle, 1);
    pack(column, 3);
    unpack(column, 3);
    unpack(particle, 1);
    CHECK(MPI_Type_dup(column, &copy));
    CHECK(MPI_Type_free(&copy));
    CHECK(MPI_Type_free(&particle));
    CHECK(MPI_Type_free(&column));
}

/* MPI_Pack with a type not yet committed fails with MPI_ERR_TYPE; then it is committed. */
static void uncommitted(void) {
    MPI_Datatype column = build_column();
    int position = 0, class = 0;
    int rc = MPI_Pack(memory, 1, column, packed, (int)sizeof packed, &position, MPI_COMM_WORLD);
    CHECK(MPI_Error_class(rc, &class));
    if (class != MPI_ERR_TYPE) {
        fprintf(stderr, "MPI_Pack of an uncommitted type gave class %d\n", class);
        exit(1);
    }
    CHECK(MPI_Type_commit(&column));
    pack(column, 1);
    CHECK(MPI_Type_free(&column));
}

static void twice(void) {
    MPI_Datatype column = build_column();
    CHECK(MPI_Type_commit(&column));
    CHECK(MPI_Type_commit(&column));
    CHECK(MPI_Type_free(&column));
}

/* A type left allocated at MPI_Finalize, and one freed. */
static void leak(void) {
    MPI_Datatype particle = build_particle(), column = build_column();
    CHECK(MPI_Type_commit(&particle));
    CHECK(MPI_Type_free(&column));
}

/* Unpacks into a type whose entries overlap, packs with it too, and unpacks into one whose
 * entries do not overlap. */
static void overlap(void) {
    MPI_Datatype overlapping = build_overlapping(), column = build_column();
    CHECK(MPI_Type_commit(&overlapping));
    CHECK(MPI_Type_commit(&column));
    pack(overlapping, 1);
    unpack(overlapping, 1);
    unpack(overlapping, 2);
    unpack(column, 1);
    CHECK(MPI_Type_free(&overlapping));
    CHECK(MPI_Type_free(&column));
}

/* external32 pack and unpack, and an f90 type (predefined: never reported as leaked). */
static void external(void) {
    MPI_Datatype column = build_column(), real;
    MPI_Aint position = 0;
    CHECK(MPI_Type_commit(&column));
    CHECK(MPI_Pack_external("external32", memory, 2, column, packed, sizeof packed, &position));
    position = 0;
    CHECK(MPI_Unpack_external("external32", packed, sizeof packed, &position, memory, 2, column));
    CHECK(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &real));
    CHECK(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &real));
    CHECK(MPI_Type_free(&column));
}

int main(int argc, char **argv) {
    const char *scenario = argc > 1 ? argv[1] : "clean";
    int finalize = !(argc > 2 && strcmp(argv[2], "no-finalize") == 0);
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    if (strcmp(scenario, "clean") == 0) {
        clean();
    } else if (strcmp(scenario, "uncommitted") == 0) {
        uncommitted();
    } else if (strcmp(scenario, "twice") == 0) {
        twice();
    } else if (strcmp(scenario, "leak") == 0) {
        leak();
    } else if (strcmp(scenario, "overlap") == 0) {
        overlap();
    } else if (strcmp(scenario, "external") == 0) {
        external();
    } else {
        fprintf(stderr, "unknown scenario %s\n", scenario);
        return 2;
    }
    if (finalize) {
        CHECK(MPI_Finalize());
    }
    return 0;
}
