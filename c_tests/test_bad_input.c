/*
 * test_bad_input.c: invalid arguments give the right error class (with MPI_ERRORS_RETURN on
 * MPI_COMM_WORLD), never a crash, and failed calls leave their outputs alone where docs/semantics.md
 * says so (MPI_Pack / MPI_Unpack with too little room write nothing and keep `position`).
 * Also: a datatype stays alive while types built from it use it.
 */
#include "check.h"

#define BOGUS_TYPE ((MPI_Datatype)0x12345678)
#define BOGUS_COMM ((MPI_Comm)0x12345)

/* A handle that was valid and has been freed. */
static MPI_Datatype freed_handle(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, saved;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    saved = t;
    CHECK_OK(MPI_Type_free(&t));
    CHECK_EQ_LONG(t, MPI_DATATYPE_NULL);
    return saved;
}

static void test_negative_counts(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int b[2] = {1, 1};
    int d[2] = {0, 1};
    MPI_Aint ad[2] = {0, 8};
    MPI_Count cb[2] = {1, 1};
    MPI_Count cd[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT};

    CHECK_ERR(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_contiguous_c(-1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_vector(-1, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_vector_c(-1, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hvector(-2, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hvector_c(-2, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI-1 names: not in the standard ABI */
    CHECK_ERR(MPI_Type_hvector(-2, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
#endif
    CHECK_ERR(MPI_Type_indexed(-1, b, d, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_indexed_c(-1, cb, cd, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed(-1, b, ad, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed_c(-1, cb, cd, MPI_INT, &t), MPI_ERR_COUNT);
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI-1 names: not in the standard ABI */
    CHECK_ERR(MPI_Type_hindexed(-1, b, ad, MPI_INT, &t), MPI_ERR_COUNT);
#endif
    CHECK_ERR(MPI_Type_create_indexed_block(-1, 1, d, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_indexed_block_c(-1, 1, cd, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed_block(-1, 1, ad, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed_block_c(-1, 1, cd, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_struct(-1, b, ad, ty, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_struct_c(-1, cb, cd, ty, &t), MPI_ERR_COUNT);
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI-1 names: not in the standard ABI */
    CHECK_ERR(MPI_Type_struct(-1, b, ad, ty, &t), MPI_ERR_COUNT);
#endif
    {
        int in[4] = {0}, size = 0, position = 0;
        char out[64];
        MPI_Aint esize = 0;
        CHECK_ERR(MPI_Pack(in, -1, MPI_INT, out, 64, &position, MPI_COMM_WORLD),
                  MPI_ERR_COUNT);
        CHECK_ERR(MPI_Unpack(out, 64, &position, in, -1, MPI_INT, MPI_COMM_WORLD),
                  MPI_ERR_COUNT);
        CHECK_ERR(MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &size), MPI_ERR_COUNT);
        CHECK_ERR(MPI_Pack_external_size("external32", -1, MPI_INT, &esize), MPI_ERR_COUNT);
        CHECK_EQ_LONG(position, 0);
    }
}

static void test_negative_blocklengths(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int b[2] = {1, -1};
    int d[2] = {0, 1};
    MPI_Aint ad[2] = {0, 8};
    MPI_Count cb[2] = {1, -1};
    MPI_Count cd[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT};

    CHECK_ERR(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_vector_c(2, -1, 1, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hvector(2, -1, 8, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hvector_c(2, -1, 8, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_indexed(2, b, d, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_indexed_c(2, cb, cd, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed(2, b, ad, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_c(2, cb, cd, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_indexed_block(2, -1, d, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_indexed_block_c(2, -1, cd, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_block(2, -1, ad, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_block_c(2, -1, cd, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_struct(2, b, ad, ty, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_struct_c(2, cb, cd, ty, &t), MPI_ERR_ARG);
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI-1 names: not in the standard ABI */
    CHECK_ERR(MPI_Type_struct(2, b, ad, ty, &t), MPI_ERR_ARG);
#endif
}

static void check_bad_oldtype(MPI_Datatype bad, const char *what)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int b[1] = {1};
    int d[1] = {0};
    MPI_Aint ad[1] = {0};
    MPI_Datatype ty[2];
    int sizes[1] = {4}, subsizes[1] = {2}, starts[1] = {1};
    int gsizes[1] = {4}, distribs[1] = {MPI_DISTRIBUTE_BLOCK}, dargs[1] = {MPI_DISTRIBUTE_DFLT_DARG},
        psizes[1] = {1};
    int size = 0, failures = *check_failure_counter();
    MPI_Aint lb = 0, extent = 0;
    MPI_Count csize = 0;
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;

    ty[0] = MPI_INT;
    ty[1] = bad;
    CHECK_ERR(MPI_Type_contiguous(1, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_contiguous_c(1, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_vector(1, 1, 1, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_hvector(1, 1, 1, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_indexed(1, b, d, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_hindexed(1, b, ad, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_indexed_block(1, 1, d, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_hindexed_block(1, 1, ad, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_struct(1, b, ad, &ty[1], &t), MPI_ERR_TYPE);
    {
        int b2[2] = {1, 1};
        MPI_Aint ad2[2] = {0, 4};
        CHECK_ERR(MPI_Type_create_struct(2, b2, ad2, ty, &t), MPI_ERR_TYPE);
#ifndef MPI_DTYPE_STANDARD_ABI /* MPI-1 names: not in the standard ABI */
        CHECK_ERR(MPI_Type_struct(2, b2, ad2, ty, &t), MPI_ERR_TYPE);
#endif
    }
    CHECK_ERR(MPI_Type_create_subarray(1, sizes, subsizes, starts, MPI_ORDER_C, bad, &t),
              MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C, bad,
                                     &t),
              MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_resized(bad, 0, 4, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_dup(bad, &t), MPI_ERR_TYPE);
    CHECK_EQ_LONG(t, MPI_DATATYPE_NULL);
    /* queries and other uses */
    t = bad;
    CHECK_ERR(MPI_Type_commit(&t), MPI_ERR_TYPE);
    t = bad;
    CHECK_ERR(MPI_Type_free(&t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_size(bad, &size), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_size_c(bad, &csize), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_extent(bad, &lb, &extent), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_true_extent(bad, &lb, &extent), MPI_ERR_TYPE);
    if (bad == MPI_DATATYPE_NULL) {
        /* MPI-4.1 names the null handle. */
        CHECK_OK(MPI_Type_get_name(bad, name, &len));
        CHECK_EQ_STR(name, "MPI_DATATYPE_NULL");
    } else {
        CHECK_ERR(MPI_Type_get_name(bad, name, &len), MPI_ERR_TYPE);
    }
    CHECK_ERR(MPI_Type_set_name(bad, "x"), MPI_ERR_TYPE);
    {
        int ni, na, nd, comb;
        CHECK_ERR(MPI_Type_get_envelope(bad, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    }
    {
        int in[2] = {1, 2}, position = 0;
        char out[16];
        CHECK_ERR(MPI_Pack(in, 1, bad, out, 16, &position, MPI_COMM_WORLD), MPI_ERR_TYPE);
        CHECK_ERR(MPI_Unpack(out, 16, &position, in, 1, bad, MPI_COMM_WORLD), MPI_ERR_TYPE);
        CHECK_ERR(MPI_Pack_size(1, bad, MPI_COMM_WORLD, &size), MPI_ERR_TYPE);
    }
    if (*check_failure_counter() != failures) {
        printf("  (bad oldtype: %s)\n", what);
    }
}

static void test_bad_handles(void)
{
    MPI_Datatype t;
    check_bad_oldtype(MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL");
    check_bad_oldtype(BOGUS_TYPE, "made-up handle 0x12345678");
    check_bad_oldtype(freed_handle(), "freed handle");

    /* freeing a predefined type */
    t = MPI_INT;
    CHECK_ERR(MPI_Type_free(&t), MPI_ERR_TYPE);
    CHECK_EQ_LONG(t, MPI_INT);
    t = MPI_DOUBLE_INT;
    CHECK_ERR(MPI_Type_free(&t), MPI_ERR_TYPE);

    /* free sets the handle to MPI_DATATYPE_NULL; a second free of the old value fails */
    {
        MPI_Datatype a = MPI_DATATYPE_NULL, saved, fresh = MPI_DATATYPE_NULL;
        int size = 0;
        CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &a));
        saved = a;
        CHECK_OK(MPI_Type_free(&a));
        CHECK_EQ_LONG(a, MPI_DATATYPE_NULL);
        CHECK_ERR(MPI_Type_free(&a), MPI_ERR_TYPE);
        a = saved;
        CHECK_ERR(MPI_Type_free(&a), MPI_ERR_TYPE);
        /* a new type made afterwards does not bring the stale handle back to life (unless it
           is given the very same handle value) */
        CHECK_OK(MPI_Type_contiguous(3, MPI_INT, &fresh));
        if (fresh != saved) {
            CHECK_ERR(MPI_Type_size(saved, &size), MPI_ERR_TYPE);
        }
        CHECK_OK(MPI_Type_free(&fresh));
    }

    /* NULL output pointers */
    {
        int b[1] = {1};
        int d[1] = {0};
        MPI_Aint ad[1] = {0};
        MPI_Datatype ty[1] = {MPI_INT};
        CHECK_ERR(MPI_Type_contiguous(1, MPI_INT, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_contiguous_c(1, MPI_INT, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_vector(1, 1, 1, MPI_INT, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_create_hvector(1, 1, 1, MPI_INT, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_indexed(1, b, d, MPI_INT, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_create_hindexed(1, b, ad, MPI_INT, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_create_indexed_block(1, 1, d, MPI_INT, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_create_hindexed_block(1, 1, ad, MPI_INT, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_create_struct(1, b, ad, ty, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_create_resized(MPI_INT, 0, 4, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_dup(MPI_INT, NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_commit(NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_free(NULL), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_size(MPI_INT, NULL), MPI_ERR_ARG);
        /* NULL input arrays with a positive count */
        CHECK_ERR(MPI_Type_indexed(1, NULL, d, MPI_INT, &t), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_indexed(1, b, NULL, MPI_INT, &t), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_create_struct(1, b, ad, NULL, &t), MPI_ERR_ARG);
    }
    /* MPI_Type_get_name with NULL outputs */
    {
        char name[MPI_MAX_OBJECT_NAME];
        int len = 0;
        CHECK_ERR(MPI_Type_get_name(MPI_INT, NULL, &len), MPI_ERR_ARG);
        CHECK_ERR(MPI_Type_get_name(MPI_INT, name, NULL), MPI_ERR_ARG);
    }
}

static void test_uncommitted(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0}, position = 0;
    char buf[64];
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_ERR(MPI_Pack(in, 1, t, buf, 64, &position, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_EQ_LONG(position, 0);
    CHECK_OK(MPI_Pack(in, 2, MPI_INT, buf, 64, &position, MPI_COMM_WORLD));
    position = 0;
    CHECK_ERR(MPI_Unpack(buf, 64, &position, out, 1, t, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_EQ_LONG(position, 0);
    CHECK_EQ_LONG(out[0], 0);
    /* a dup of an uncommitted type is uncommitted: "newtype has the same committed state as
       the old oldtype" */
    {
        MPI_Datatype d = MPI_DATATYPE_NULL;
        CHECK_OK(MPI_Type_dup(t, &d));
        position = 0;
        CHECK_ERR(MPI_Pack(in, 1, d, buf, 64, &position, MPI_COMM_WORLD), MPI_ERR_TYPE);
        CHECK_OK(MPI_Type_free(&d));
    }
    CHECK_OK(MPI_Type_commit(&t));
    position = 0;
    CHECK_OK(MPI_Unpack(buf, 64, &position, out, 1, t, MPI_COMM_WORLD));
    CHECK_EQ_LONG(out[1], 2);
    /* ... and a dup of a committed type is committed */
    {
        MPI_Datatype d = MPI_DATATYPE_NULL;
        CHECK_OK(MPI_Type_dup(t, &d));
        position = 0;
        CHECK_OK(MPI_Pack(in, 1, d, buf, 64, &position, MPI_COMM_WORLD));
        CHECK_EQ_LONG(position, 8);
        CHECK_OK(MPI_Type_free(&d));
    }
    CHECK_OK(MPI_Type_free(&t));
}

static void test_truncation(void)
{
    MPI_Datatype v = MPI_DATATYPE_NULL;
    int in[6] = {11, 12, 13, 14, 15, 16};
    unsigned char out[64], before[64];
    int position, rc;

    /* vector of 3 ints (12 bytes packed) */
    CHECK_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &v));
    CHECK_OK(MPI_Type_commit(&v));

    /* room for 2 of the 3 ints after position 3: fails, writes nothing, keeps position */
    memset(out, 0xA5, sizeof out);
    memcpy(before, out, sizeof out);
    position = 3;
    rc = MPI_Pack(in, 1, v, out, 3 + 11, &position, MPI_COMM_WORLD);
    CHECK_ERR(rc, MPI_ERR_TRUNCATE);
    CHECK_EQ_LONG(position, 3);
    CHECK_EQ_MEM(out, before, sizeof out);
    /* two copies when there is room for one */
    position = 0;
    CHECK_ERR(MPI_Pack(in, 2, MPI_INT, out, 7, &position, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_EQ_LONG(position, 0);
    CHECK_EQ_MEM(out, before, sizeof out);
    /* position already past outsize: an error (the standard names no class; MPI_ERR_TRUNCATE
       or MPI_ERR_ARG), nothing written, position kept */
    position = 20;
    rc = MPI_Pack(in, 1, MPI_INT, out, 16, &position, MPI_COMM_WORLD);
    CHECK(rc != MPI_SUCCESS);
    CHECK(check_error_class(rc) == MPI_ERR_TRUNCATE || check_error_class(rc) == MPI_ERR_ARG);
    CHECK_EQ_LONG(position, 20);
    CHECK_EQ_MEM(out, before, sizeof out);
    /* the _c variant */
    {
        MPI_Count cpos = 3;
        CHECK_ERR(MPI_Pack_c(in, 1, v, out, 3 + 11, &cpos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
        CHECK_EQ_LONG(cpos, 3);
        CHECK_EQ_MEM(out, before, sizeof out);
    }
    /* external32 */
    {
        MPI_Aint apos = 0;
        CHECK_ERR(MPI_Pack_external("external32", in, 1, v, out, 11, &apos), MPI_ERR_TRUNCATE);
        CHECK_EQ_LONG(apos, 0);
        CHECK_EQ_MEM(out, before, sizeof out);
    }
    /* exactly enough room works */
    position = 3;
    CHECK_OK(MPI_Pack(in, 1, v, out, 3 + 12, &position, MPI_COMM_WORLD));
    CHECK_EQ_LONG(position, 15);

    /* unpack with too little input: fails, writes nothing, keeps position */
    {
        int dst[6] = {-1, -1, -1, -1, -1, -1};
        const int expect_dst[6] = {-1, -1, -1, -1, -1, -1};
        position = 3;
        CHECK_ERR(MPI_Unpack(out, 3 + 11, &position, dst, 1, v, MPI_COMM_WORLD),
                  MPI_ERR_TRUNCATE);
        CHECK_EQ_LONG(position, 3);
        CHECK_EQ_MEM(dst, expect_dst, sizeof dst);
        position = 3;
        CHECK_ERR(MPI_Unpack(out, 15, &position, dst, 2, v, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
        CHECK_EQ_LONG(position, 3);
        CHECK_EQ_MEM(dst, expect_dst, sizeof dst);
        {
            MPI_Count cpos = 3;
            CHECK_ERR(MPI_Unpack_c(out, 3 + 11, &cpos, dst, 1, v, MPI_COMM_WORLD),
                      MPI_ERR_TRUNCATE);
            CHECK_EQ_LONG(cpos, 3);
            CHECK_EQ_MEM(dst, expect_dst, sizeof dst);
        }
        {
            unsigned char ext[16];
            MPI_Aint apos = 0;
            memset(ext, 0, sizeof ext);
            CHECK_ERR(MPI_Unpack_external("external32", ext, 11, &apos, dst, 1, v),
                      MPI_ERR_TRUNCATE);
            CHECK_EQ_LONG(apos, 0);
            CHECK_EQ_MEM(dst, expect_dst, sizeof dst);
        }
        /* with enough input it works */
        position = 3;
        CHECK_OK(MPI_Unpack(out, 15, &position, dst, 1, v, MPI_COMM_WORLD));
        CHECK_EQ_LONG(position, 15);
        CHECK_EQ_LONG(dst[0], 11);
        CHECK_EQ_LONG(dst[1], -1);
        CHECK_EQ_LONG(dst[2], 13);
        CHECK_EQ_LONG(dst[4], 15);
    }
    CHECK_OK(MPI_Type_free(&v));
}

static void test_overflow(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, huge = MPI_DATATYPE_NULL;
    /* hvector of 2^30 blocks 2^40 bytes apart: the extent (about 2^70) overflows MPI_Aint */
    CHECK_ERR(MPI_Type_create_hvector_c((MPI_Count)1 << 30, 1, (MPI_Count)1 << 40, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hvector(1 << 30, 1, (MPI_Aint)1 << 40, MPI_INT, &t), MPI_ERR_ARG);
    /* vector of a type with extent 2^62 */
    CHECK_OK(MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)1 << 62, &huge));
    CHECK_ERR(MPI_Type_vector(4, 1, 1, huge, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_contiguous(8, huge, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_vector(2, 1, 3, huge, &t), MPI_ERR_ARG);
    /* a sum of sizes that overflows: any error class, but an error and no crash */
    {
        MPI_Datatype big = MPI_DATATYPE_NULL;
        int rc = MPI_Type_contiguous_c((MPI_Count)1 << 40, MPI_DOUBLE, &big);
        if (CHECK_OK(rc)) {
            MPI_Count size = 0;
            int isize = 0;
            CHECK_OK(MPI_Type_size_c(big, &size));
            CHECK_EQ_LONG(size, (MPI_Count)1 << 43);
            /* a size that does not fit an int is MPI_UNDEFINED */
            CHECK_OK(MPI_Type_size(big, &isize));
            CHECK_EQ_LONG(isize, MPI_UNDEFINED);
            rc = MPI_Type_contiguous_c((MPI_Count)1 << 30, big, &t);
            CHECK(rc != MPI_SUCCESS);
            if (rc == MPI_SUCCESS) {
                CHECK_OK(MPI_Type_free(&t));
            }
            CHECK_OK(MPI_Type_free(&big));
        }
    }
    CHECK_OK(MPI_Type_free(&huge));
}

static void test_get_contents_room(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, v = MPI_DATATYPE_NULL;
    int ints[8];
    MPI_Aint addrs[8];
    MPI_Count counts[8];
    MPI_Datatype types[8];
    int b[2] = {1, 2};
    MPI_Aint d[2] = {0, 16};

    CHECK_OK(MPI_Type_create_hindexed(2, b, d, MPI_INT, &t));
    /* needs 3 integers, 2 addresses, 1 datatype */
    CHECK_ERR(MPI_Type_get_contents(t, 2, 2, 1, ints, addrs, types), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents(t, 3, 1, 1, ints, addrs, types), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents(t, 3, 2, 0, ints, addrs, types), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(t, 2, 2, 0, 1, ints, addrs, counts, types), MPI_ERR_ARG);
    CHECK_OK(MPI_Type_get_contents(t, 3, 2, 1, ints, addrs, types));
    CHECK_OK(MPI_Type_free(&t));

    /* built with large counts: needs 5 large counts */
    {
        MPI_Count cb[2] = {1, 2}, cd[2] = {0, 16};
        CHECK_OK(MPI_Type_create_hindexed_c(2, cb, cd, MPI_INT, &t));
        CHECK_ERR(MPI_Type_get_contents_c(t, 0, 0, 4, 1, ints, addrs, counts, types),
                  MPI_ERR_ARG);
        CHECK_OK(MPI_Type_get_contents_c(t, 0, 0, 5, 1, ints, addrs, counts, types));
        CHECK_OK(MPI_Type_free(&t));
    }
    /* a decoded derived child must not leak when the call fails */
    CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    CHECK_OK(MPI_Type_contiguous(2, v, &t));
    CHECK_ERR(MPI_Type_get_contents(t, 0, 0, 1, ints, addrs, types), MPI_ERR_ARG);
    CHECK_OK(MPI_Type_free(&t));
    CHECK_OK(MPI_Type_free(&v));
}

static void test_subarray_darray_args(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    {
        int sizes[2] = {4, 5}, subsizes[2] = {2, 3}, starts[2] = {1, 3};
        /* start + subsize = 6 > 5 */
        CHECK_ERR(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t),
                  MPI_ERR_ARG);
        starts[1] = -1;
        CHECK_ERR(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t),
                  MPI_ERR_ARG);
        starts[1] = 0;
        subsizes[0] = 5; /* > size */
        CHECK_ERR(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t),
                  MPI_ERR_ARG);
        subsizes[0] = 2;
        CHECK_ERR(MPI_Type_create_subarray(2, sizes, subsizes, starts, 999, MPI_INT, &t),
                  MPI_ERR_ARG);
        {
            MPI_Count cs[2] = {4, 5}, css[2] = {2, 3}, cst[2] = {1, 3};
            CHECK_ERR(MPI_Type_create_subarray_c(2, cs, css, cst, MPI_ORDER_C, MPI_INT, &t),
                      MPI_ERR_ARG);
        }
        /* the valid one works */
        CHECK_OK(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
        CHECK_OK(MPI_Type_free(&t));
    }
    {
        int gsizes[2] = {8, 6};
        int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
        int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
        int psizes[2] = {2, 2};
        CHECK_ERR(MPI_Type_create_darray(4, 4, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                         MPI_INT, &t),
                  MPI_ERR_RANK);
        CHECK_ERR(MPI_Type_create_darray(4, 7, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                         MPI_INT, &t),
                  MPI_ERR_RANK);
        CHECK_ERR(MPI_Type_create_darray(4, -1, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                         MPI_INT, &t),
                  MPI_ERR_RANK);
        {
            MPI_Count cg[2] = {8, 6};
            CHECK_ERR(MPI_Type_create_darray_c(4, 4, 2, cg, distribs, dargs, psizes,
                                               MPI_ORDER_C, MPI_INT, &t),
                      MPI_ERR_RANK);
        }
        CHECK_OK(MPI_Type_create_darray(4, 3, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                        MPI_INT, &t));
        CHECK_OK(MPI_Type_free(&t));
    }
}

static void test_bad_comm(void)
{
    int in[2] = {1, 2}, position = 0, size = 0;
    char out[16];
    CHECK_ERR(MPI_Pack(in, 1, MPI_INT, out, 16, &position, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_ERR(MPI_Pack(in, 1, MPI_INT, out, 16, &position, BOGUS_COMM), MPI_ERR_COMM);
    CHECK_EQ_LONG(position, 0);
    CHECK_ERR(MPI_Unpack(out, 16, &position, in, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_ERR(MPI_Unpack(out, 16, &position, in, 1, MPI_INT, BOGUS_COMM), MPI_ERR_COMM);
    CHECK_ERR(MPI_Pack_size(1, MPI_INT, BOGUS_COMM, &size), MPI_ERR_COMM);
    CHECK_ERR(MPI_Pack_size(1, MPI_INT, MPI_COMM_NULL, &size), MPI_ERR_COMM);
    /* MPI_COMM_SELF is a valid communicator */
    CHECK_OK(MPI_Pack(in, 1, MPI_INT, out, 16, &position, MPI_COMM_SELF));
    CHECK_EQ_LONG(position, 4);
}

static void test_error_strings(void)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = -1, cls = -1;
    text[0] = '\0';
    CHECK_OK(MPI_Error_string(MPI_ERR_TYPE, text, &len));
    CHECK(len > 0);
    CHECK(len < MPI_MAX_ERROR_STRING);
    CHECK_EQ_LONG(strlen(text), len);
    CHECK_OK(MPI_Error_string(MPI_SUCCESS, text, &len));
    CHECK_EQ_LONG(strlen(text), len);
    CHECK_OK(MPI_Error_class(MPI_ERR_TRUNCATE, &cls));
    CHECK_EQ_LONG(cls, MPI_ERR_TRUNCATE);
    /* the code returned by a failing call has a non-empty string too */
    {
        MPI_Datatype t;
        int rc = MPI_Type_contiguous(-5, MPI_INT, &t);
        CHECK_ERR(rc, MPI_ERR_COUNT);
        len = -1;
        CHECK_OK(MPI_Error_string(rc, text, &len));
        CHECK(len > 0);
        CHECK_EQ_LONG(strlen(text), len);
    }
}

/* A type stays alive while a type built from it is in use (MPI_Type_free: "Any communication
   that is currently using this datatype will complete normally. Freeing a datatype does not
   affect any other datatype that was built from the freed datatype."). */
static void test_object_lifetime(void)
{
    MPI_Datatype a = MPI_DATATYPE_NULL, b = MPI_DATATYPE_NULL, c = MPI_DATATYPE_NULL;
    static const check_entry map[] = {{0, 4}, {4, 4}, {16, 4}, {20, 4}, {32, 4}, {36, 4}};
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &a));
    CHECK_OK(MPI_Type_vector(3, 1, 2, a, &b));
    CHECK_OK(MPI_Type_free(&a));
    CHECK_OK(MPI_Type_commit(&b));
    CHECK_BOUNDS(b, 24, 0, 40, 0, 40);
    CHECK_TYPEMAP(b, 2, map);
    /* and types built from b after a was freed */
    CHECK_OK(MPI_Type_contiguous(2, b, &c));
    CHECK_OK(MPI_Type_free(&b));
    CHECK_OK(MPI_Type_commit(&c));
    CHECK_BOUNDS(c, 48, 0, 80, 0, 80);
    CHECK_OK(MPI_Type_free(&c));
    /* freeing a committed type while it is the child of an uncommitted one */
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &a));
    CHECK_OK(MPI_Type_commit(&a));
    CHECK_OK(MPI_Type_create_resized(a, 0, 16, &b));
    CHECK_OK(MPI_Type_free(&a));
    CHECK_OK(MPI_Type_commit(&b));
    CHECK_BOUNDS(b, 8, 0, 16, 0, 8);
    CHECK_OK(MPI_Type_free(&b));
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    test_negative_counts();
    test_negative_blocklengths();
    test_bad_handles();
    test_uncommitted();
    test_truncation();
    test_overflow();
    test_get_contents_room();
    test_subarray_darray_args();
    test_bad_comm();
    test_error_strings();
    test_object_lifetime();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
