/*
 * drop_in.c: mpi-dtype is a drop-in for MPICH's datatype functions.
 *
 * One source, three runs (see CMakeLists.txt next to this file):
 *
 *   drop_in_mpich_plain     built with mpicc.mpich (MPICH's mpi.h and handle values, linked
 *                           with libmpich) and run as is: every call reaches MPICH.
 *                           Argument "mpich".
 *   drop_in_mpich_preload   the same binary run with LD_PRELOAD=libmpi_dtype.so: the datatype,
 *                           decode and pack calls reach mpi-dtype; MPI_Init, MPI_Comm_rank,
 *                           MPI_Comm_size, MPI_Finalize, ... reach mpi-dtype's wrappers, which
 *                           forward them to MPICH (found among the loaded objects, see
 *                           docs/drop-in.md); MPI_Send, MPI_Recv and MPI_Sendrecv reach
 *                           mpi-dtype's stand-ins, which pass these messages on to MPICH.
 *                           Argument "standard".
 *   drop_in_standalone      built against mpi-dtype's own mpi.h and linked only with
 *                           -lmpi_dtype: no communication functions exist, the packed bytes
 *                           are "received" with memcpy. Argument "standard".
 *
 * The argument selects the expected answers in the few places where MPICH 4.0.2 departs from
 * the MPI standard (deviations(), at the end): the plain run must see MPICH's answers and the
 * preloaded run the standard's, which shows that the preloaded library really answered those
 * calls while MPICH still ran the process and moved the bytes. Everything else is checked
 * identically in all runs.
 *
 * Derived types are used here only with pack/unpack, so that the same program also runs
 * standalone; what travels through MPICH is MPI_PACKED bytes and predefined types. Derived
 * types in MPICH's own functions under the preload (each handle is also a type of MPICH's,
 * its twin: docs/drop-in.md) are the subject of the 4-rank programs in programs/ and of the
 * random messages in p2p/.
 */
#define _GNU_SOURCE /* dladdr and RTLD_DEFAULT, to show which library answers a call */

#include "check.h" /* includes <mpi.h>: MPICH's or mpi-dtype's, whichever is on the path */

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* mpi-dtype's header defines MPI_DTYPE_VERSION_MAJOR, MPICH's defines MPICH_VERSION. */
#if defined(MPI_DTYPE_VERSION_MAJOR)
#define STANDALONE 1
#elif defined(MPICH_VERSION)
#define STANDALONE 0
#else
#error "drop_in.c is built with mpi-dtype's mpi.h or with MPICH's"
#endif

/* Which answers to expect where MPICH 4.0.2 and the MPI standard disagree. */
enum expectation { EXPECT_STANDARD, EXPECT_MPICH };
static enum expectation expect = EXPECT_STANDARD;

/* ---------------------------------------------------------------------------------------- */
/* Which library answers a call                                                             */
/* ---------------------------------------------------------------------------------------- */

/* The file of the shared object whose definition of `name` the program's calls bind to (the
   global lookup order, LD_PRELOAD first), or NULL if no loaded object defines it. */
static const char *provider(const char *name)
{
    Dl_info info;
    void *symbol = dlsym(RTLD_DEFAULT, name);
    if (symbol == NULL || dladdr(symbol, &info) == 0 || info.dli_fname == NULL) {
        return NULL;
    }
    return info.dli_fname;
}

static int provided_by(const char *name, const char *library)
{
    const char *file = provider(name);
    return file != NULL && strstr(file, library) != NULL;
}

/* Proves the set-up: in the plain MPICH run everything is MPICH's; under the preload and
   when linked before MPICH the datatype functions, the process wrappers and the
   communication functions are mpi-dtype's (the last two call MPICH's); standalone there is no
   other MPI at all. */
static void check_providers(void)
{
    static const char *const names[] = {"MPI_Init", "MPI_Comm_rank", "MPI_Type_vector",
                                        "MPI_Type_get_contents", "MPI_Pack", "MPI_Unpack",
                                        "MPI_Send", "MPI_Recv", "MPI_Sendrecv"};
    static const char *const datatype_functions[] = {"MPI_Type_vector", "MPI_Type_get_contents",
                                                     "MPI_Pack", "MPI_Unpack", "MPI_Get_count"};
    const char *datatype_library = expect == EXPECT_MPICH ? "libmpich" : "libmpi_dtype";
    size_t i;

    for (i = 0; i < sizeof names / sizeof names[0]; ++i) {
        const char *file = provider(names[i]);
        printf("  %-22s from %s\n", names[i], file != NULL ? file : "(not defined)");
    }
    for (i = 0; i < sizeof datatype_functions / sizeof datatype_functions[0]; ++i) {
        if (!CHECK(provided_by(datatype_functions[i], datatype_library))) {
            printf("  %s should come from %s\n", datatype_functions[i], datatype_library);
        }
    }
    /* MPI_Init binds to the library that defines the datatype functions: MPICH's own, or
       mpi-dtype's wrapper that forwards to MPICH. So do the point-to-point functions, which
       mpi-dtype stands in front of (it packs derived types with its own engine). */
    CHECK(provided_by("MPI_Init", datatype_library));
    CHECK(provided_by("MPI_Send", datatype_library));
    CHECK(provided_by("MPI_Recv", datatype_library));
    CHECK(provided_by("MPI_Sendrecv", datatype_library));
}

/* ---------------------------------------------------------------------------------------- */
/* Derived types: construction and queries                                                  */
/* ---------------------------------------------------------------------------------------- */

#define ROWS 4 /* a ROWS x COLS matrix of doubles */
#define COLS 5
#define BR 4 /* a BR x BC matrix of ints, of which a 2 x 3 block is selected */
#define BC 6

struct particle {
    int id;
    double pos[3];
    char tag;
};

static MPI_Datatype column_t;   /* one column of the double matrix (vector) */
static MPI_Datatype columns_t;  /* column_t resized to extent sizeof(double): consecutive
                                   copies are consecutive columns, so packing COLS of them
                                   packs the transposed matrix */
static MPI_Datatype pattern_t;  /* ints 0-1, 4, 9-11 (indexed) */
static MPI_Datatype particle_t; /* struct particle (struct) */
static MPI_Datatype block_t;    /* rows 1-2, columns 2-4 of the int matrix (subarray) */

static void build_types(void)
{
    int lens[3] = {2, 1, 3}, displs[3] = {0, 4, 9};
    int plens[3] = {1, 3, 1};
    MPI_Aint pdispls[3] = {offsetof(struct particle, id), offsetof(struct particle, pos),
                           offsetof(struct particle, tag)};
    MPI_Datatype ptypes[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    int sizes[2] = {BR, BC}, subsizes[2] = {2, 3}, starts[2] = {1, 2};

    CHECK_OK(MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &column_t));
    CHECK_OK(MPI_Type_create_resized(column_t, 0, (MPI_Aint)sizeof(double), &columns_t));
    CHECK_OK(MPI_Type_indexed(3, lens, displs, MPI_INT, &pattern_t));
    CHECK_OK(MPI_Type_create_struct(3, plens, pdispls, ptypes, &particle_t));
    CHECK_OK(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT,
                                      &block_t));
    CHECK_OK(MPI_Type_commit(&column_t));
    CHECK_OK(MPI_Type_commit(&columns_t));
    CHECK_OK(MPI_Type_commit(&pattern_t));
    CHECK_OK(MPI_Type_commit(&particle_t));
    CHECK_OK(MPI_Type_commit(&block_t));
}

/* Size, lb, extent, true lb and true extent through every query (plain, _x, _c and MPI-1),
   and the type maps, verified by packing from a buffer of distinct bytes (check.h). Both
   libraries agree on all of these. */
static void check_layouts(void)
{
    static const check_entry column_map[] = {{0, 8}, {40, 8}, {80, 8}, {120, 8}};
    static const check_entry pattern_map[] = {{0, 4}, {4, 4}, {16, 4}, {36, 4}, {40, 4}, {44, 4}};
    static const check_entry particle_map[] = {{0, 4}, {8, 8}, {16, 8}, {24, 8}, {32, 1}};
    static const check_entry block_map[] = {{32, 4}, {36, 4}, {40, 4}, {56, 4}, {60, 4}, {64, 4}};

    CHECK_BOUNDS(column_t, 32, 0, 128, 0, 128);
    CHECK_BOUNDS(columns_t, 32, 0, 8, 0, 128);
    CHECK_BOUNDS(pattern_t, 24, 0, 48, 0, 48);
    /* ub 33 is rounded up to the alignment of double: the extent is sizeof(struct particle) */
    CHECK_BOUNDS(particle_t, 29, 0, (long)sizeof(struct particle), 0,
                 (long)offsetof(struct particle, tag) + 1);
    /* a subarray's bounds are those of the whole array; its data starts at row 1, column 2 */
    CHECK_BOUNDS(block_t, 24, 0, BR * BC * 4, 32, 36);

    CHECK_TYPEMAP(column_t, 1, column_map);
    CHECK_TYPEMAP(columns_t, 3, column_map); /* copies 8 bytes apart */
    CHECK_TYPEMAP(pattern_t, 2, pattern_map);
    CHECK_TYPEMAP(particle_t, 2, particle_map);
    CHECK_TYPEMAP(block_t, 1, block_map);
}

/* ---------------------------------------------------------------------------------------- */
/* Decoding: rebuild each type from MPI_Type_get_envelope / MPI_Type_get_contents           */
/* ---------------------------------------------------------------------------------------- */

#define MAXARGS 32

/* Packs one `type` from a buffer of pattern bytes into out (512 bytes); returns the length. */
static int pack_pattern(MPI_Datatype type, unsigned char *out)
{
    unsigned char src[512];
    int position = 0;
    size_t i;
    for (i = 0; i < sizeof src; ++i) {
        src[i] = check_pattern_byte(i);
    }
    memset(out, 0, 512);
    CHECK_OK(MPI_Pack(src, 1, type, out, 512, &position, MPI_COMM_WORLD));
    return position;
}

/* `copy` has the same size, bounds and packed bytes as `type`. */
static void check_same_layout(MPI_Datatype type, MPI_Datatype copy, const char *name)
{
    int size_a = -1, size_b = -2, len_a, len_b;
    MPI_Aint lb_a = -1, ext_a = -1, tlb_a = -1, text_a = -1;
    MPI_Aint lb_b = -2, ext_b = -2, tlb_b = -2, text_b = -2;
    unsigned char packed_a[512], packed_b[512];
    int ok = 1;

    CHECK_OK(MPI_Type_size(type, &size_a));
    CHECK_OK(MPI_Type_size(copy, &size_b));
    CHECK_OK(MPI_Type_get_extent(type, &lb_a, &ext_a));
    CHECK_OK(MPI_Type_get_extent(copy, &lb_b, &ext_b));
    CHECK_OK(MPI_Type_get_true_extent(type, &tlb_a, &text_a));
    CHECK_OK(MPI_Type_get_true_extent(copy, &tlb_b, &text_b));
    ok &= CHECK_EQ_LONG(size_b, size_a);
    ok &= CHECK_EQ_LONG(lb_b, lb_a);
    ok &= CHECK_EQ_LONG(ext_b, ext_a);
    ok &= CHECK_EQ_LONG(tlb_b, tlb_a);
    ok &= CHECK_EQ_LONG(text_b, text_a);
    len_a = pack_pattern(type, packed_a);
    len_b = pack_pattern(copy, packed_b);
    ok &= CHECK_EQ_LONG(len_b, len_a);
    ok &= CHECK_EQ_MEM(packed_b, packed_a, len_a);
    if (!ok) {
        printf("  (rebuilt %s differs from the original)\n", name);
    }
}

static int is_named(MPI_Datatype type)
{
    int ni = -1, na = -1, nt = -1, combiner = -1;
    CHECK_OK(MPI_Type_get_envelope(type, &ni, &na, &nt, &combiner));
    return combiner == MPI_COMBINER_NAMED;
}

/* Decodes `type`, checks its combiner, rebuilds it with the same constructor from the decoded
   arguments and compares the copy with the original (its envelope and contents, and its
   layout). The derived children that get_contents returns are new handles, freed here. */
static void check_decode(MPI_Datatype type, int expected_combiner, const char *name)
{
    int ni = -1, na = -1, nt = -1, combiner = -1;
    int ints[MAXARGS], ints2[MAXARGS];
    MPI_Aint addrs[MAXARGS], addrs2[MAXARGS];
    MPI_Datatype types[MAXARGS], types2[MAXARGS];
    MPI_Datatype copy = MPI_DATATYPE_NULL;
    int ni2 = -1, na2 = -1, nt2 = -1, combiner2 = -1;
    int i, n;

    CHECK_OK(MPI_Type_get_envelope(type, &ni, &na, &nt, &combiner));
    if (!CHECK_EQ_LONG(combiner, expected_combiner) || !CHECK(ni <= MAXARGS && na <= MAXARGS &&
                                                              nt <= MAXARGS)) {
        printf("  (decoding %s)\n", name);
        return;
    }
    CHECK_OK(MPI_Type_get_contents(type, ni, na, nt, ints, addrs, types));

    switch (combiner) {
    case MPI_COMBINER_VECTOR: /* count, blocklength, stride; oldtype */
        CHECK_OK(MPI_Type_vector(ints[0], ints[1], ints[2], types[0], &copy));
        break;
    case MPI_COMBINER_INDEXED: /* count, blocklengths[count], displacements[count]; oldtype */
        CHECK_OK(MPI_Type_indexed(ints[0], &ints[1], &ints[1 + ints[0]], types[0], &copy));
        break;
    case MPI_COMBINER_STRUCT: /* count, blocklengths[count]; displacements; types */
        CHECK_OK(MPI_Type_create_struct(ints[0], &ints[1], addrs, types, &copy));
        break;
    case MPI_COMBINER_SUBARRAY: /* ndims, sizes, subsizes, starts, order; oldtype */
        n = ints[0];
        CHECK_OK(MPI_Type_create_subarray(n, &ints[1], &ints[1 + n], &ints[1 + 2 * n],
                                          ints[1 + 3 * n], types[0], &copy));
        break;
    case MPI_COMBINER_RESIZED: /* lb, extent; oldtype */
        CHECK_OK(MPI_Type_create_resized(types[0], addrs[0], addrs[1], &copy));
        break;
    default:
        CHECK(!"unexpected combiner");
        return;
    }
    CHECK_OK(MPI_Type_commit(&copy));

    /* The copy decodes to the same arguments (derived children compare by combiner only:
       get_contents hands out new handles for them). */
    CHECK_OK(MPI_Type_get_envelope(copy, &ni2, &na2, &nt2, &combiner2));
    CHECK_EQ_LONG(combiner2, combiner);
    if (CHECK_EQ_LONG(ni2, ni) && CHECK_EQ_LONG(na2, na) && CHECK_EQ_LONG(nt2, nt)) {
        CHECK_OK(MPI_Type_get_contents(copy, ni2, na2, nt2, ints2, addrs2, types2));
        CHECK_EQ_MEM(ints2, ints, (size_t)ni * sizeof ints[0]);
        CHECK_EQ_MEM(addrs2, addrs, (size_t)na * sizeof addrs[0]);
        for (i = 0; i < nt; ++i) {
            if (is_named(types[i])) {
                CHECK_EQ_LONG(types2[i], types[i]);
            } else {
                int e1 = -1, e2 = -1, d1, d2, d3;
                CHECK_OK(MPI_Type_get_envelope(types[i], &d1, &d2, &d3, &e1));
                CHECK_OK(MPI_Type_get_envelope(types2[i], &d1, &d2, &d3, &e2));
                CHECK_EQ_LONG(e2, e1);
                CHECK_OK(MPI_Type_free(&types2[i]));
            }
        }
    }
    check_same_layout(type, copy, name);

    for (i = 0; i < nt; ++i) {
        if (!is_named(types[i])) {
            CHECK_OK(MPI_Type_free(&types[i]));
        }
    }
    CHECK_OK(MPI_Type_free(&copy));
    printf("  %-10s decoded (combiner %d, %d integers, %d addresses, %d types) and rebuilt\n",
           name, combiner, ni, na, nt);
}

static void check_decoding(void)
{
    int ni = -1, na = -1, nt = -1, combiner = -1;

    /* A predefined type is "named" and has no arguments. */
    CHECK_OK(MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nt, &combiner));
    CHECK_EQ_LONG(combiner, MPI_COMBINER_NAMED);
    CHECK_EQ_LONG(ni + na + nt, 0);

    check_decode(column_t, MPI_COMBINER_VECTOR, "column");
    check_decode(columns_t, MPI_COMBINER_RESIZED, "columns"); /* child column_t is derived */
    check_decode(pattern_t, MPI_COMBINER_INDEXED, "pattern");
    check_decode(particle_t, MPI_COMBINER_STRUCT, "particle");
    check_decode(block_t, MPI_COMBINER_SUBARRAY, "block");
}

/* ---------------------------------------------------------------------------------------- */
/* Pack, send the packed bytes, unpack                                                       */
/* ---------------------------------------------------------------------------------------- */

static double grid[ROWS][COLS];
static struct particle particles[2];
static int matrix[BR][BC];

static void fill_sources(void)
{
    int i, j;
    for (i = 0; i < ROWS; ++i) {
        for (j = 0; j < COLS; ++j) {
            grid[i][j] = 10.0 * i + j + 0.25;
        }
    }
    for (i = 0; i < 2; ++i) {
        memset(&particles[i], 0, sizeof particles[i]);
        particles[i].id = 100 + i;
        particles[i].pos[0] = 1.5 + i;
        particles[i].pos[1] = -2.5 - i;
        particles[i].pos[2] = 1e300 * (i + 1);
        particles[i].tag = (char)('A' + i);
    }
    for (i = 0; i < BR; ++i) {
        for (j = 0; j < BC; ++j) {
            matrix[i][j] = 1000 * i + j;
        }
    }
}

/* Packs one packing unit: column 2 of grid, both particles, the block of matrix, and all of
   grid through columns_t (column after column: the transpose). Returns the position. */
static int pack_unit(unsigned char *packed, int capacity)
{
    int position = 0, size, expected_total = 0;
    double first_column[ROWS];
    int i;

    /* MPI_Pack_size is exact in both libraries: count x size, no header. */
    CHECK_OK(MPI_Pack_size(1, column_t, MPI_COMM_WORLD, &size));
    CHECK_EQ_LONG(size, ROWS * sizeof(double));
    expected_total += size;
    CHECK_OK(MPI_Pack_size(2, particle_t, MPI_COMM_WORLD, &size));
    CHECK_EQ_LONG(size, 2 * 29);
    expected_total += size;
    CHECK_OK(MPI_Pack_size(1, block_t, MPI_COMM_WORLD, &size));
    CHECK_EQ_LONG(size, 6 * sizeof(int));
    expected_total += size;
    CHECK_OK(MPI_Pack_size(COLS, columns_t, MPI_COMM_WORLD, &size));
    CHECK_EQ_LONG(size, ROWS * COLS * sizeof(double));
    expected_total += size;
    CHECK(expected_total <= capacity);

    CHECK_OK(MPI_Pack(&grid[0][2], 1, column_t, packed, capacity, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, ROWS * sizeof(double));
    CHECK_OK(MPI_Pack(particles, 2, particle_t, packed, capacity, &position, MPI_COMM_WORLD));
    CHECK_OK(MPI_Pack(matrix, 1, block_t, packed, capacity, &position, MPI_COMM_WORLD));
    CHECK_OK(MPI_Pack(grid, COLS, columns_t, packed, capacity, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, expected_total);

    /* The packed column is grid[0..3][2], contiguous. */
    memcpy(first_column, packed, sizeof first_column);
    for (i = 0; i < ROWS; ++i) {
        CHECK(first_column[i] == grid[i][2]);
    }
    return position;
}

/* Moves the packed bytes to `received` and returns how many arrived. With MPICH (plain or
   preloaded) they travel through MPICH's MPI_Sendrecv as MPI_PACKED, from this process to
   itself; mpi-dtype alone has no communication, so standalone they are copied. */
static int transfer(const unsigned char *packed, int length, unsigned char *received,
                    int capacity, int rank)
{
#if STANDALONE
    (void)rank;
    CHECK(length <= capacity);
    memcpy(received, packed, (size_t)length);
    return length;
#else
    MPI_Status status;
    int count = -1;
    /* MPI_PACKED is a predefined handle, the same number in both libraries. Derived handles
       made by mpi-dtype must not be passed here: MPICH does not know them. */
    CHECK_OK(MPI_Sendrecv(packed, length, MPI_PACKED, rank, 7, received, capacity, MPI_PACKED,
                          rank, 7, MPI_COMM_WORLD, &status));
    CHECK_EQ_LONG(status.MPI_SOURCE, rank);
    CHECK_EQ_LONG(status.MPI_TAG, 7);
    /* Under the preload MPI_Get_count is mpi-dtype's, reading the status MPICH filled in:
       the MPI_Status layouts agree. */
    CHECK_OK(MPI_Get_count(&status, MPI_PACKED, &count));
    CHECK_EQ_LONG(count, length);
    return count;
#endif
}

/* Unpacks the unit into fresh zeroed buffers with the same derived types and checks every
   element: selected elements equal the originals, the others stay zero. */
static void unpack_unit(const unsigned char *received, int length)
{
    static double grid2[ROWS][COLS];
    static struct particle particles2[2];
    static int matrix2[BR][BC];
    static double transposed[COLS][ROWS];
    int position = 0, i, j;

    memset(grid2, 0, sizeof grid2);
    memset(particles2, 0, sizeof particles2);
    memset(matrix2, 0, sizeof matrix2);
    memset(transposed, 0, sizeof transposed);

    CHECK_OK(MPI_Unpack(received, length, &position, &grid2[0][2], 1, column_t,
                        MPI_COMM_WORLD));
    CHECK_OK(MPI_Unpack(received, length, &position, particles2, 2, particle_t,
                        MPI_COMM_WORLD));
    CHECK_OK(MPI_Unpack(received, length, &position, matrix2, 1, block_t, MPI_COMM_WORLD));
    /* The transposed grid, unpacked as plain doubles: the signature is all that must match. */
    CHECK_OK(MPI_Unpack(received, length, &position, transposed, ROWS * COLS, MPI_DOUBLE,
                        MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, length);

    for (i = 0; i < ROWS; ++i) {
        for (j = 0; j < COLS; ++j) {
            if (!CHECK(grid2[i][j] == (j == 2 ? grid[i][j] : 0.0)) ||
                !CHECK(transposed[j][i] == grid[i][j])) {
                printf("  (grid element [%d][%d])\n", i, j);
            }
        }
    }
    for (i = 0; i < 2; ++i) {
        CHECK_EQ_LONG(particles2[i].id, particles[i].id);
        for (j = 0; j < 3; ++j) {
            CHECK(particles2[i].pos[j] == particles[i].pos[j]);
        }
        CHECK_EQ_LONG(particles2[i].tag, particles[i].tag);
    }
    for (i = 0; i < BR; ++i) {
        for (j = 0; j < BC; ++j) {
            int inside = i >= 1 && i < 3 && j >= 2 && j < 5;
            if (!CHECK_EQ_LONG(matrix2[i][j], inside ? matrix[i][j] : 0)) {
                printf("  (matrix element [%d][%d])\n", i, j);
            }
        }
    }
}

/* Predefined types go straight to MPICH's communication (same handle values): ints to self
   on MPI_COMM_SELF. */
static void check_predefined_communication(void)
{
#if !STANDALONE
    int out[4] = {3, -1, 4, 1000000}, in[4] = {0, 0, 0, 0}, count = -1, size = -1;
    MPI_Status status;
    CHECK_OK(MPI_Type_size(MPI_INT, &size));
    CHECK_EQ_LONG(size, sizeof(int));
    CHECK_OK(MPI_Sendrecv(out, 4, MPI_INT, 0, 8, in, 4, MPI_INT, 0, 8, MPI_COMM_SELF, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 4);
    CHECK_EQ_MEM(in, out, sizeof out);
#endif
}

/* ---------------------------------------------------------------------------------------- */
/* Deviations: where MPICH 4.0.2 answers differently from the MPI standard                 */
/* ---------------------------------------------------------------------------------------- */

/* 1. MPI_Pack with too little room. MPI-4.1 section 5.2: "The output buffer is a contiguous
   storage area containing outsize bytes", and "The pack operation stores this sequence in the
   buffer space, as if sending the message to that buffer"; for a receive (section 3.2.4) "An
   overflow error occurs if all incoming data does not fit, without truncation, into the
   receive buffer". mpi-dtype: MPI_ERR_TRUNCATE, nothing written, position unchanged.
   MPICH 4.0.2 packs the whole elements that fit (8 of the 12 bytes), advances position by
   them and returns MPI_SUCCESS, so the caller cannot tell that data is missing. */
static void deviation_pack_too_small(void)
{
    int src[3] = {0x11111111, 0x22222222, 0x33333333};
    unsigned char out[16], untouched[16];
    int position = 0;
    int rc;

    memset(out, 0xEE, sizeof out);
    memset(untouched, 0xEE, sizeof untouched);
    rc = MPI_Pack(src, 3, MPI_INT, out, 10, &position, MPI_COMM_WORLD);
    printf("  MPI_Pack of 12 bytes into 10: %s, position %d\n",
           check_class_name(rc == MPI_SUCCESS ? rc : check_error_class(rc)), position);
    if (expect == EXPECT_MPICH) {
        CHECK_OK(rc);
        CHECK_EQ_LONG(position, 8);
        CHECK_EQ_MEM(out, src, 8);
        CHECK_EQ_MEM(out + 8, untouched + 8, 8);
    } else {
        CHECK_ERR(rc, MPI_ERR_TRUNCATE);
        CHECK_EQ_LONG(position, 0);
        CHECK_EQ_MEM(out, untouched, sizeof out);
    }
}

/* 2. A struct member with no elements. MPI-4.1 section 5.1: "If the value is zero, no
   elements are generated in the type map and there is no effect on datatype bounds or
   extent." A struct of one int at 0 and MPI_Type_contiguous(0, MPI_INT) at 29 is just the
   int: size 4, lb 0, extent 4, true extent 4. MPICH 4.0.2 lets the empty member move the
   bounds: extent 32, true extent 29. */
static void deviation_empty_struct_member(void)
{
    MPI_Datatype empty, type;
    int lens[2] = {1, 1};
    MPI_Aint displs[2] = {0, 29};
    MPI_Datatype types[2];
    MPI_Aint lb = -1, extent = -1;

    CHECK_OK(MPI_Type_contiguous(0, MPI_INT, &empty));
    types[0] = MPI_INT;
    types[1] = empty;
    CHECK_OK(MPI_Type_create_struct(2, lens, displs, types, &type));
    CHECK_OK(MPI_Type_commit(&type));
    CHECK_OK(MPI_Type_get_extent(type, &lb, &extent));
    printf("  struct {int at 0, contiguous(0, MPI_INT) at 29}: lb %ld, extent %ld\n", (long)lb,
           (long)extent);
    if (expect == EXPECT_MPICH) {
        CHECK_BOUNDS(type, 4, 0, 32, 0, 29);
    } else {
        CHECK_BOUNDS(type, 4, 0, 4, 0, 4);
    }
    CHECK_OK(MPI_Type_free(&type));
    CHECK_OK(MPI_Type_free(&empty));
}

/* 3. A subarray with an empty dimension. MPI-4.1 section 5.1.3: "For any dimension i, it is
   erroneous to specify array_of_subsizes[i] < 1 or array_of_subsizes[i] >
   array_of_sizes[i]." mpi-dtype reports MPI_ERR_ARG; MPICH 4.0.2 accepts subsize 0 and
   returns an empty type with the extent of the whole array. */
static void deviation_empty_subarray(void)
{
    int sizes[2] = {4, 5}, subsizes[2] = {0, 2}, starts[2] = {1, 1};
    MPI_Datatype type = MPI_DATATYPE_NULL;
    int rc = MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &type);
    printf("  MPI_Type_create_subarray with a subsize of 0: %s\n",
           check_class_name(rc == MPI_SUCCESS ? rc : check_error_class(rc)));
    if (expect == EXPECT_MPICH) {
        CHECK_OK(rc);
        if (rc == MPI_SUCCESS) {
            CHECK_OK(MPI_Type_commit(&type));
            CHECK_BOUNDS(type, 0, 0, 4 * 5 * 4, 0, 0);
        }
    } else {
        CHECK_ERR(rc, MPI_ERR_ARG);
    }
    if (rc == MPI_SUCCESS) {
        CHECK_OK(MPI_Type_free(&type));
    }
}

/* ---------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    static unsigned char packed[1024], received[1024];
    int length = 0, rank = -1, size = -1, major = -1, minor = -1, packed_length, received_length;
    char name[128];

    if (argc != 2 || (strcmp(argv[1], "standard") != 0 && strcmp(argv[1], "mpich") != 0)) {
        fprintf(stderr, "usage: %s standard|mpich (the answers to expect)\n", argv[0]);
        return 2;
    }
    expect = strcmp(argv[1], "mpich") == 0 ? EXPECT_MPICH : EXPECT_STANDARD;
    if (STANDALONE && expect == EXPECT_MPICH) {
        fprintf(stderr, "%s: built against mpi-dtype: only 'standard' makes sense\n", argv[0]);
        return 2;
    }
    snprintf(name, sizeof name, "drop_in (%s header, expecting %s answers)",
             STANDALONE ? "mpi-dtype" : "MPICH", argv[1]);

    /* Under the preload these reach mpi-dtype's wrappers, which forward them to MPICH; the
       error handlers are recorded by both, so datatype errors come back as return codes. */
    CHECK_OK(MPI_Init(&argc, &argv));
    check_errors_return();
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 1 && rank >= 0 && rank < size);
    CHECK_OK(MPI_Get_version(&major, &minor));
    CHECK_OK(MPI_Get_library_version(version, &length));
    version[strcspn(version, "\n")] = '\0'; /* the first line is enough */
    printf("%s\n  library: %s (MPI %d.%d), rank %d of %d\n", name, version, major, minor, rank,
           size);
    /* The library version comes from MPICH in both MPICH runs: it is forwarded. */
    CHECK(strstr(version, STANDALONE ? "mpi-dtype" : "MPICH") != NULL);
    check_providers();

    printf("derived types: construction, queries and type maps\n");
    build_types();
    check_layouts();

    printf("decoding\n");
    check_decoding();

    printf("pack, %s, unpack\n", STANDALONE ? "copy" : "send as MPI_PACKED to self");
    fill_sources();
    packed_length = pack_unit(packed, (int)sizeof packed);
    memset(received, 0, sizeof received);
    received_length = transfer(packed, packed_length, received, (int)sizeof received, rank);
    printf("  %d bytes packed, %d received\n", packed_length, received_length);
    unpack_unit(received, received_length);
    check_predefined_communication();

    printf("deviations of MPICH 4.0.2 from the standard (expecting the %s answers)\n", argv[1]);
    deviation_pack_too_small();
    deviation_empty_struct_member();
    deviation_empty_subarray();

    CHECK_OK(MPI_Type_free(&column_t));
    CHECK_OK(MPI_Type_free(&columns_t));
    CHECK_OK(MPI_Type_free(&pattern_t));
    CHECK_OK(MPI_Type_free(&particle_t));
    CHECK_OK(MPI_Type_free(&block_t));
    CHECK_OK(MPI_Finalize());
    return check_report(name);
}
