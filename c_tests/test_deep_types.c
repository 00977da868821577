/*
 * Types nested 2x10^5 and 10^6 levels deep (chains of contiguous, struct, resized, dup and
 * hindexed constructors, each level freed as soon as the next is built) work with every
 * function that takes a datatype: commit, size and bounds queries, decoding, element counts,
 * pack, unpack and external32, dup and free. Freeing the last handle frees the whole chain,
 * which must not recurse on the stack once per level. Built with sanitizers (whose allocator
 * makes each level many times slower), the chains are DEEP_TYPES_DIVISOR times shorter:
 * 4x10^4 and 2x10^5 levels, still far past the depth at which one stack frame per level
 * would overflow.
 */
#include "check.h"

#ifndef DEEP_TYPES_DIVISOR
#define DEEP_TYPES_DIVISOR 1
#endif

enum chain_kind { CONTIGUOUS, STRUCT, RESIZED, DUP, HINDEXED, MIXED, KINDS };

static const char *const kind_names[KINDS] = {"contiguous", "struct", "resized",
                                              "dup",        "hindexed", "mixed"};

/* One level above `old`: the same type map as MPI_INT (4 bytes at 0, extent 4). */
static int one_level(enum chain_kind kind, long level, MPI_Datatype old, MPI_Datatype *next)
{
    int one = 1;
    MPI_Aint zero = 0;
    if (kind == MIXED) {
        kind = (enum chain_kind)(level % MIXED);
    }
    switch (kind) {
    case CONTIGUOUS: return MPI_Type_contiguous(1, old, next);
    case STRUCT: return MPI_Type_create_struct(1, &one, &zero, &old, next);
    case RESIZED: return MPI_Type_create_resized(old, 0, 4, next);
    case DUP: return MPI_Type_dup(old, next);
    case HINDEXED: return MPI_Type_create_hindexed(1, &one, &zero, old, next);
    default: return MPI_ERR_INTERN;
    }
}

static void deep_chain(enum chain_kind kind, long depth)
{
    MPI_Datatype t = MPI_INT, next = MPI_DATATYPE_NULL, copy = MPI_DATATYPE_NULL;
    long level;
    int ok = 1;
    printf("%s chain of %ld levels\n", kind_names[kind], depth);
    for (level = 0; level < depth && ok; ++level) {
        int rc = one_level(kind, level, t, &next);
        if (rc == MPI_SUCCESS && t != MPI_INT) {
            rc = MPI_Type_free(&t);
        }
        ok = rc == MPI_SUCCESS || CHECK_OK(rc);
        t = next;
    }
    if (!ok) {
        printf("  (failed at level %ld)\n", level);
        return;
    }
    CHECK_OK(MPI_Type_commit(&t));
    CHECK_BOUNDS(t, 4, 0, 4, 0, 4);
    {
        int ni = -1, na = -1, nd = -1, combiner = -1;
        MPI_Datatype child = MPI_DATATYPE_NULL;
        int ints[2];
        MPI_Aint addrs[2];
        CHECK_OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
        CHECK_EQ_LONG(nd, 1);
        CHECK_OK(MPI_Type_get_contents(t, 2, 2, 1, ints, addrs, &child));
        CHECK(child != MPI_DATATYPE_NULL && child != MPI_INT);
        CHECK_BOUNDS(child, 4, 0, 4, 0, 4);
        CHECK_OK(MPI_Type_free(&child));
    }
    {
        MPI_Status status;
        int elements = -1, count = -1;
        memset(&status, 0, sizeof status);
        CHECK_OK(MPI_Status_set_elements(&status, t, 3));
        CHECK_OK(MPI_Get_elements(&status, t, &elements));
        CHECK_EQ_LONG(elements, 3);
        CHECK_OK(MPI_Get_count(&status, t, &count));
        CHECK_EQ_LONG(count, 3);
        CHECK_OK(MPI_Status_set_elements(&status, MPI_BYTE, 6));
        CHECK_OK(MPI_Get_elements(&status, t, &elements));
        CHECK_EQ_LONG(elements, MPI_UNDEFINED);
    }
    {
        int in[3] = {7, 8, 9}, out[3] = {0, 0, 0}, back[3] = {0, 0, 0};
        int position = 0;
        MPI_Aint external_position = 0;
        unsigned char external[12];
        static const unsigned char expected[12] = {0, 0, 0, 7, 0, 0, 0, 8, 0, 0, 0, 9};
        CHECK_OK(MPI_Pack(in, 3, t, out, (int)sizeof out, &position, MPI_COMM_WORLD));
        CHECK_EQ_LONG(position, 12);
        CHECK_EQ_MEM(out, in, sizeof in);
        position = 0;
        CHECK_OK(MPI_Unpack(out, (int)sizeof out, &position, back, 3, t, MPI_COMM_WORLD));
        CHECK_EQ_MEM(back, in, sizeof in);
        CHECK_OK(MPI_Pack_external("external32", in, 3, t, external, sizeof external,
                                   &external_position));
        CHECK_EQ_LONG(external_position, 12);
        CHECK_EQ_MEM(external, expected, sizeof expected);
    }
    CHECK_OK(MPI_Type_dup(t, &copy));
    CHECK_OK(MPI_Type_free(&t));
    CHECK_BOUNDS(copy, 4, 0, 4, 0, 4);
    CHECK_OK(MPI_Type_free(&copy));
    CHECK_EQ_LONG(copy, MPI_DATATYPE_NULL);
}

int main(int argc, char **argv)
{
    int kind;
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    check_errors_return();
    for (kind = 0; kind < KINDS; ++kind) {
        deep_chain((enum chain_kind)kind, 200000L / DEEP_TYPES_DIVISOR);
    }
    for (kind = 0; kind < KINDS; ++kind) {
        deep_chain((enum chain_kind)kind, 1000000L / DEEP_TYPES_DIVISOR);
    }
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
