/*
 * test_io_standalone.c: MPI-IO in the one-process world (the library linked alone, no MPI
 * behind it), in the builds of MPICH's ABI and of the standard ABI.
 *
 *   - opening with each access mode, MPI_File_get_amode / _get_group / _get_size /
 *     _set_size / _preallocate / _get_info / _set_info / _sync, atomicity, closing (the
 *     handle becomes MPI_FILE_NULL) and MPI_MODE_DELETE_ON_CLOSE, MPI_File_delete;
 *   - views: a strided filetype of ints with holes, written through a vector in memory and
 *     checked byte by byte in the file as read with stdio; MPI_File_get_view (a new handle
 *     for a derived filetype, the predefined etype itself), MPI_File_get_byte_offset,
 *     MPI_File_get_type_extent;
 *   - every way to access: explicit offsets, the individual pointer, the shared pointer
 *     (and _ordered), blocking, nonblocking (MPI_Wait gives the count), collective and split
 *     collective, _c forms; MPI_File_seek with each whence, _get_position(_shared);
 *     a read past the end returns what there is (MPI_Get_count);
 *   - external32: ints stored big-endian; a representation the program registers
 *     (MPI_Register_datarep: its conversion functions called, MPI_ERR_DUP_DATAREP for a name
 *     taken, file extents other than memory's MPI_ERR_UNSUPPORTED_DATAREP, a conversion
 *     function's failure MPI_ERR_CONVERSION, its count and position in basic entries);
 *   - MPI_MODE_APPEND starts both pointers at the end; MPI_MODE_SEQUENTIAL allows the
 *     shared pointer only, no seek, and views from MPI_DISPLACEMENT_CURRENT only;
 *   - errors, raised on the file's error handler (MPI_ERRORS_RETURN by default, a handler
 *     of the program's when set): a bad access mode (MPI_ERR_AMODE), a missing file
 *     (MPI_ERR_NO_SUCH_FILE), an existing one with MPI_MODE_EXCL (MPI_ERR_FILE_EXISTS),
 *     writing a read-only file (MPI_ERR_READ_ONLY), reading a write-only one
 *     (MPI_ERR_ACCESS), a filetype not made of etypes (MPI_ERR_ARG, as ROMIO) or going back
 *     (MPI_ERR_TYPE), an offset whose bytes overflow or a negative one (MPI_ERR_ARG), an
 *     unknown data representation (MPI_ERR_UNSUPPORTED_DATAREP), a negative seek
 *     (MPI_ERR_ARG), an _end without its _begin (MPI_ERR_IO), a handle that is no file
 *     (MPI_ERR_FILE).
 */
#include "check.h"

#include <unistd.h>

static char path[256];

/* The file's bytes as stdio reads them; how many. */
static long file_bytes(unsigned char *out, long room)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f)
        return -1;
    n = (long)fread(out, 1, (size_t)room, f);
    fclose(f);
    return n;
}

static int file_errors;

static void count_file_error(MPI_File *fh, int *code, ...)
{
    (void)fh, (void)code;
    file_errors++;
}

static void management(void)
{
    MPI_File fh;
    MPI_Offset size;
    MPI_Group group;
    MPI_Info info, used;
    char value[64];
    int amode, flag, group_size, nkeys;

    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK(fh != MPI_FILE_NULL);
    CHECK_OK(MPI_File_get_amode(fh, &amode));
    CHECK_EQ_LONG(amode, MPI_MODE_CREATE | MPI_MODE_RDWR);
    CHECK_OK(MPI_File_get_group(fh, &group));
    CHECK_OK(MPI_Group_size(group, &group_size));
    CHECK_EQ_LONG(group_size, 1);
    CHECK_OK(MPI_Group_free(&group));
    CHECK_OK(MPI_File_set_size(fh, 100));
    CHECK_OK(MPI_File_get_size(fh, &size));
    CHECK_EQ_LONG((int)size, 100);
    CHECK_OK(MPI_File_preallocate(fh, 50));
    CHECK_OK(MPI_File_get_size(fh, &size));
    CHECK_EQ_LONG((int)size, 100);
    CHECK_OK(MPI_File_preallocate(fh, 200));
    CHECK_OK(MPI_File_get_size(fh, &size));
    CHECK_EQ_LONG((int)size, 200);
    CHECK_OK(MPI_File_set_size(fh, 0));
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "access_style", "read_mostly"));
    CHECK_OK(MPI_File_set_info(fh, info));
    CHECK_OK(MPI_Info_free(&info));
    CHECK_OK(MPI_File_get_info(fh, &used));
    CHECK_OK(MPI_Info_get_nkeys(used, &nkeys));
    CHECK(nkeys >= 1);
    CHECK_OK(MPI_Info_get(used, "access_style", (int)sizeof value - 1, value, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK_EQ_STR(value, "read_mostly");
    CHECK_OK(MPI_Info_free(&used));
    CHECK_OK(MPI_File_get_atomicity(fh, &flag));
    CHECK_EQ_LONG(flag, 0);
    CHECK_OK(MPI_File_set_atomicity(fh, 1));
    CHECK_OK(MPI_File_get_atomicity(fh, &flag));
    CHECK_EQ_LONG(flag, 1);
    CHECK_OK(MPI_File_sync(fh));
    CHECK_OK(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL);
    CHECK(access(path, F_OK) == 0);
    CHECK_OK(MPI_File_delete(path, MPI_INFO_NULL));
    CHECK(access(path, F_OK) != 0);
    CHECK_ERR(MPI_File_delete(path, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);
    CHECK_OK(MPI_File_open(MPI_COMM_SELF, path,
                           MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_close(&fh));
    CHECK(access(path, F_OK) != 0);
}

/* Two ints of every four from byte 8: the view's stream, written from a vector in memory
   that takes every other int. */
static void strided_view(void)
{
    MPI_File fh;
    MPI_Datatype pairs, filetype, every_other, etype, got_filetype;
    MPI_Offset disp, byte;
    MPI_Aint extent;
    MPI_Status status;
    char datarep[MPI_MAX_DATAREP_STRING];
    unsigned char raw[128];
    int memory[12], back[6], i, count, combiner, ni, na, nd;
    long n;

    for (i = 0; i < 12; i++)
        memory[i] = i % 2 ? -1 : i / 2 + 1; /* 1, -1, 2, -1, ... */
    CHECK_OK(MPI_Type_vector(1, 2, 4, MPI_INT, &pairs));
    CHECK_OK(MPI_Type_create_resized(pairs, 0, 16, &filetype));
    CHECK_OK(MPI_Type_commit(&filetype));
    CHECK_OK(MPI_Type_vector(6, 1, 2, MPI_INT, &every_other));
    CHECK_OK(MPI_Type_commit(&every_other));

    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_set_view(fh, 8, MPI_INT, filetype, "native", MPI_INFO_NULL));
    CHECK_OK(MPI_File_write(fh, memory, 1, every_other, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 6);
    CHECK_OK(MPI_File_sync(fh));
    n = file_bytes(raw, sizeof raw);
    CHECK_EQ_LONG((int)n, 48);
    {
        int words[12];
        const int want[12] = {0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 5, 6};
        memcpy(words, raw, sizeof words);
        for (i = 0; i < 12; i++)
            CHECK_EQ_LONG(words[i], want[i]);
    }
    /* Back from etype 1: five ints there, the sixth past the end. */
    for (i = 0; i < 6; i++)
        back[i] = -7;
    CHECK_OK(MPI_File_read_at(fh, 1, back, 6, MPI_INT, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 5);
    for (i = 0; i < 5; i++)
        CHECK_EQ_LONG(back[i], i + 2);
    CHECK_EQ_LONG(back[5], -7);
    /* The end through the view: six ints, so MPI_SEEK_END - 2 is etype 4. */
    CHECK_OK(MPI_File_seek(fh, -2, MPI_SEEK_END));
    CHECK_OK(MPI_File_get_position(fh, &byte));
    CHECK_EQ_LONG((int)byte, 4);
    CHECK_OK(MPI_File_get_byte_offset(fh, 2, &byte));
    CHECK_EQ_LONG((int)byte, 24);
    CHECK_OK(MPI_File_get_type_extent(fh, filetype, &extent));
    CHECK_EQ_LONG((int)extent, 16);

    CHECK_OK(MPI_File_get_view(fh, &disp, &etype, &got_filetype, datarep));
    CHECK_EQ_LONG((int)disp, 8);
    CHECK(etype == MPI_INT);
    CHECK(strcmp(datarep, "native") == 0);
    CHECK(got_filetype != filetype);
    CHECK_OK(MPI_Type_get_envelope(got_filetype, &ni, &na, &nd, &combiner));
    CHECK_EQ_LONG(combiner, MPI_COMBINER_DUP);
    CHECK_BOUNDS(got_filetype, 8, 0, 16, 0, 8);
    CHECK_OK(MPI_Type_free(&got_filetype));

    /* A filetype of 6 bytes is no whole number of ints; one going back is not allowed. */
    {
        MPI_Datatype shorts, backwards;
        CHECK_OK(MPI_Type_contiguous(3, MPI_SHORT, &shorts));
        CHECK_OK(MPI_Type_commit(&shorts));
        CHECK_ERR(MPI_File_set_view(fh, 0, MPI_INT, shorts, "native", MPI_INFO_NULL), MPI_ERR_ARG);
        CHECK_OK(MPI_Type_vector(2, 1, -2, MPI_INT, &backwards));
        CHECK_OK(MPI_Type_commit(&backwards));
        CHECK_ERR(MPI_File_set_view(fh, 0, MPI_INT, backwards, "native", MPI_INFO_NULL), MPI_ERR_TYPE);
        CHECK_ERR(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no such representation", MPI_INFO_NULL),
                  MPI_ERR_UNSUPPORTED_DATAREP);
        CHECK_OK(MPI_Type_free(&shorts));
        CHECK_OK(MPI_Type_free(&backwards));
    }
    CHECK_OK(MPI_File_close(&fh));
    CHECK_OK(MPI_File_delete(path, MPI_INFO_NULL));
    CHECK_OK(MPI_Type_free(&pairs));
    CHECK_OK(MPI_Type_free(&filetype));
    CHECK_OK(MPI_Type_free(&every_other));
}

/* Each way to reach the data writes ten ints 0..9 in turn and reads them back. */
static void every_access(void)
{
    MPI_File fh;
    MPI_Request request;
    MPI_Status status;
    MPI_Offset at;
    int out[10], in[10], i, count;

    for (i = 0; i < 10; i++)
        out[i] = 100 + i;
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));

    /* Explicit offsets: blocking, collective, nonblocking, split, _c. */
    CHECK_OK(MPI_File_write_at(fh, 0, out, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_write_at_all(fh, 2, out + 2, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_iwrite_at(fh, 4, out + 4, 2, MPI_INT, &request));
    CHECK_OK(MPI_Wait(&request, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 2);
    CHECK_OK(MPI_File_write_at_all_begin(fh, 6, out + 6, 2, MPI_INT));
    CHECK_OK(MPI_File_write_at_all_end(fh, out + 6, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 2);
    CHECK_OK(MPI_File_write_at_c(fh, 8, out + 8, (MPI_Count)2, MPI_INT, MPI_STATUS_IGNORE));
    memset(in, 0, sizeof in);
    CHECK_OK(MPI_File_read_at_all(fh, 0, in, 10, MPI_INT, &status));
    for (i = 0; i < 10; i++)
        CHECK_EQ_LONG(in[i], 100 + i);

    /* The individual pointer moves past what each call moved. */
    CHECK_OK(MPI_File_seek(fh, 3, MPI_SEEK_SET));
    CHECK_OK(MPI_File_read(fh, in, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(in[0], 103);
    CHECK_OK(MPI_File_iread_all(fh, in, 1, MPI_INT, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(in[0], 105);
    CHECK_OK(MPI_File_get_position(fh, &at));
    CHECK_EQ_LONG((int)at, 6);
    CHECK_OK(MPI_File_seek(fh, -2, MPI_SEEK_CUR));
    CHECK_OK(MPI_File_read_all_begin(fh, in, 1, MPI_INT));
    CHECK_ERR(MPI_File_read_all_begin(fh, in, 1, MPI_INT), MPI_ERR_IO);
    CHECK_OK(MPI_File_read_all_end(fh, in, &status));
    CHECK_EQ_LONG(in[0], 104);
    CHECK_ERR(MPI_File_read_all_end(fh, in, &status), MPI_ERR_IO);
    CHECK_OK(MPI_File_seek(fh, -1, MPI_SEEK_END));
    CHECK_OK(MPI_File_read_c(fh, in, (MPI_Count)3, MPI_INT, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 1);
    CHECK_EQ_LONG(in[0], 109);
    CHECK_ERR(MPI_File_seek(fh, -1, MPI_SEEK_SET), MPI_ERR_ARG);
    /* An offset whose bytes do not fit an MPI_Offset; one far past the end reads nothing. */
    CHECK_ERR(MPI_File_read_at(fh, (MPI_Offset)1 << 62, in, 1, MPI_INT, &status), MPI_ERR_ARG);
    CHECK_ERR(MPI_File_read_at(fh, -1, in, 1, MPI_INT, &status), MPI_ERR_ARG);
    CHECK_OK(MPI_File_read_at(fh, (MPI_Offset)1 << 40, in, 1, MPI_INT, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 0);

    /* The shared pointer, apart from the individual one. */
    CHECK_OK(MPI_File_seek_shared(fh, 7, MPI_SEEK_SET));
    CHECK_OK(MPI_File_read_shared(fh, in, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(in[0], 107);
    CHECK_OK(MPI_File_read_ordered(fh, in, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(in[0], 108);
    CHECK_OK(MPI_File_get_position_shared(fh, &at));
    CHECK_EQ_LONG((int)at, 9);
    CHECK_OK(MPI_File_write_ordered(fh, out, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_iwrite_shared(fh, out + 1, 1, MPI_INT, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_get_size(fh, &at));
    CHECK_EQ_LONG((int)at, 44);
    CHECK_OK(MPI_File_read_at(fh, 9, in, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(in[0], 100);
    CHECK_EQ_LONG(in[1], 101);
    CHECK_OK(MPI_File_close(&fh));

    /* MPI_MODE_APPEND: both pointers start at the end. */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_APPEND | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_get_position(fh, &at));
    CHECK_EQ_LONG((int)at, 44);
    CHECK_OK(MPI_File_get_position_shared(fh, &at));
    CHECK_EQ_LONG((int)at, 44);
    CHECK_ERR(MPI_File_read(fh, in, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ACCESS);
    CHECK_OK(MPI_File_close(&fh));

    /* Read only. */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    CHECK_ERR(MPI_File_write(fh, out, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY);
    CHECK_OK(MPI_File_close(&fh));

    /* Sequential: the shared pointer only. */
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh));
    CHECK_ERR(MPI_File_write_at(fh, 0, out, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK_ERR(MPI_File_seek(fh, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK_ERR(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK_OK(MPI_File_write_shared(fh, out, 1, MPI_INT, MPI_STATUS_IGNORE));
    /* Its view starts where the shared pointer is. */
    CHECK_ERR(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL), MPI_ERR_ARG);
    CHECK_OK(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    CHECK_OK(MPI_File_write_shared(fh, out + 1, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_close(&fh));
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    CHECK_ERR(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL),
              MPI_ERR_ARG);
    CHECK_OK(MPI_File_read_at(fh, 0, in, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(in[0], 100);
    CHECK_EQ_LONG(in[1], 101);
    CHECK_OK(MPI_File_close(&fh));
    CHECK_OK(MPI_File_delete(path, MPI_INFO_NULL));
}

static void external32(void)
{
    MPI_File fh;
    unsigned char raw[16];
    int values[2] = {1, -2}, back[2] = {0, 0};
    const unsigned char want[8] = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe};

    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    CHECK_OK(MPI_File_write(fh, values, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_read_at(fh, 0, back, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(back[0], 1);
    CHECK_EQ_LONG(back[1], -2);
    CHECK_OK(MPI_File_close(&fh));
    CHECK_EQ_LONG((int)file_bytes(raw, sizeof raw), 8);
    CHECK(memcmp(raw, want, 8) == 0);
    CHECK_OK(MPI_File_delete(path, MPI_INFO_NULL));
}

/* A representation of the program's: ints stored byte-swapped, as the conversion functions
   below write and read them; one whose ints take 8 bytes in the file. */
static int conversions;

static int swap_ints(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                     MPI_Offset position, int to_file)
{
    unsigned char *user = (unsigned char *)userbuf + position * 4, *file = filebuf;
    int i, b;
    int combiner = MPI_COMBINER_NAMED, ni, na, nd;
    /* Ints, or the test's contiguous pairs of ints: count and position are in ints. */
    if (datatype != MPI_INT) {
        MPI_Type_get_envelope(datatype, &ni, &na, &nd, &combiner);
        if (combiner != MPI_COMBINER_CONTIGUOUS)
            return MPI_ERR_TYPE;
    }
    for (i = 0; i < count; i++)
        for (b = 0; b < 4; b++) {
            if (to_file)
                file[4 * i + b] = user[4 * i + 3 - b];
            else
                user[4 * i + 3 - b] = file[4 * i + b];
        }
    conversions++;
    return MPI_SUCCESS;
}

static int read_swapped(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                        MPI_Offset position, void *extra)
{
    (void)extra;
    return swap_ints(userbuf, datatype, count, filebuf, position, 0);
}

static int write_swapped(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                         MPI_Offset position, void *extra)
{
    CHECK(extra == &conversions);
    return swap_ints(userbuf, datatype, count, filebuf, position, 1);
}

static int native_extent(MPI_Datatype datatype, MPI_Aint *extent, void *extra)
{
    MPI_Aint lb;
    (void)extra;
    return MPI_Type_get_extent(datatype, &lb, extent);
}

static int wide_extent(MPI_Datatype datatype, MPI_Aint *extent, void *extra)
{
    (void)datatype, (void)extra;
    *extent = 8;
    return MPI_SUCCESS;
}

static void registered(void)
{
    MPI_File fh;
    MPI_Datatype pairs;
    unsigned char raw[16], big[64];
    MPI_Status status;
    int values[2] = {0x01020304, 0x0a0b0c0d}, back[4] = {-7, -7, -7, -7}, plain, count;
    const unsigned char want[8] = {1, 2, 3, 4, 0x0a, 0x0b, 0x0c, 0x0d};
    char name[MPI_MAX_DATAREP_STRING + 8];

    CHECK_OK(MPI_Register_datarep("mpi-dtype-swapped", read_swapped, write_swapped, native_extent,
                                  &conversions));
    CHECK_ERR(MPI_Register_datarep("mpi-dtype-swapped", read_swapped, write_swapped, native_extent, NULL),
              MPI_ERR_DUP_DATAREP);
    CHECK_ERR(MPI_Register_datarep("external32", NULL, NULL, native_extent, NULL), MPI_ERR_DUP_DATAREP);
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = 0;
    CHECK_ERR(MPI_Register_datarep(name, NULL, NULL, native_extent, NULL), MPI_ERR_ARG);
    CHECK_OK(MPI_Register_datarep("mpi-dtype-wide", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                                  wide_extent, NULL));
    CHECK_OK(MPI_Register_datarep("mpi-dtype-native", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                                  native_extent, NULL));

    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    /* The program's functions run in data accesses only (MPI-4.1 §14.5.3): the view is set,
       and the access finds the ints 8 bytes wide in the file. */
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "mpi-dtype-wide", MPI_INFO_NULL));
    CHECK_ERR(MPI_File_write(fh, values, 2, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_UNSUPPORTED_DATAREP);
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "mpi-dtype-swapped", MPI_INFO_NULL));
    conversions = 0;
    CHECK_OK(MPI_File_write(fh, values, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(conversions, 1);
    CHECK_OK(MPI_File_sync(fh));
    CHECK_EQ_LONG((int)file_bytes(raw, sizeof raw), 8);
    CHECK(memcmp(raw, want, 8) == 0);
    /* Read back past the end: the copies read are converted, the rest of the buffer kept. */
    CHECK_OK(MPI_File_read_at(fh, 0, back, 4, MPI_INT, &status));
    CHECK_OK(MPI_Get_count(&status, MPI_INT, &count));
    CHECK_EQ_LONG(count, 2);
    CHECK_EQ_LONG(back[0], values[0]);
    CHECK_EQ_LONG(back[1], values[1]);
    CHECK_EQ_LONG(back[2], -7);
    CHECK_EQ_LONG(back[3], -7);
    /* The conversion function counts basic entries: two copies of a pair of ints are four
       ints to convert, at positions 0 to 3 of the program's buffer. */
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &pairs));
    CHECK_OK(MPI_Type_commit(&pairs));
    {
        int four[4] = {0x11121314, 0x21222324, 0x31323334, 0x41424344}, again[4] = {0, 0, 0, 0};
        const unsigned char first[4] = {0x11, 0x12, 0x13, 0x14}, last[4] = {0x41, 0x42, 0x43, 0x44};
        int i;
        CHECK_OK(MPI_File_write_at(fh, 4, four, 2, pairs, MPI_STATUS_IGNORE));
        CHECK_OK(MPI_File_sync(fh));
        CHECK_EQ_LONG((int)file_bytes(raw, sizeof raw), 16);
        CHECK(memcmp(raw, want, 8) == 0);
        CHECK_EQ_LONG((int)file_bytes(big, sizeof big), 32);
        CHECK(memcmp(big + 16, first, 4) == 0);
        CHECK(memcmp(big + 28, last, 4) == 0);
        CHECK_OK(MPI_File_read_at(fh, 4, again, 2, pairs, MPI_STATUS_IGNORE));
        for (i = 0; i < 4; i++)
            CHECK_EQ_LONG(again[i], four[i]);
    }
    /* The conversion function's failure (it takes ints only) is MPI_ERR_CONVERSION. */
    CHECK_ERR(MPI_File_write_at(fh, 0, values, 2, MPI_UNSIGNED, MPI_STATUS_IGNORE), MPI_ERR_CONVERSION);
    CHECK_OK(MPI_Type_free(&pairs));
    /* No conversion functions: the bytes of memory. */
    CHECK_OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "mpi-dtype-native", MPI_INFO_NULL));
    CHECK_OK(MPI_File_read_at(fh, 0, &plain, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_EQ_LONG(plain, 0x04030201);
    CHECK_OK(MPI_File_close(&fh));
    CHECK_OK(MPI_File_delete(path, MPI_INFO_NULL));
}

static void errors(void)
{
    MPI_File fh;
    MPI_Errhandler mine, got;

    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
              MPI_ERR_AMODE);
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh),
              MPI_ERR_AMODE);
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_ERR_NO_SUCH_FILE);
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_close(&fh));
    CHECK_ERR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY,
                            MPI_INFO_NULL, &fh),
              MPI_ERR_FILE_EXISTS);
    CHECK_ERR(MPI_File_close(&fh), MPI_ERR_FILE);

    /* The program's handler: on a file, and on MPI_FILE_NULL for calls on no file. */
    CHECK_OK(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    CHECK(got == MPI_ERRORS_RETURN);
    CHECK_OK(MPI_File_create_errhandler(count_file_error, &mine));
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    CHECK_OK(MPI_File_set_errhandler(fh, mine));
    file_errors = 0;
    CHECK_ERR(MPI_File_write(fh, &file_errors, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY);
    CHECK_EQ_LONG(file_errors, 1);
    CHECK_OK(MPI_File_call_errhandler(fh, MPI_ERR_OTHER));
    CHECK_EQ_LONG(file_errors, 2);
    CHECK_OK(MPI_File_close(&fh));
    CHECK_OK(MPI_File_set_errhandler(MPI_FILE_NULL, mine));
    CHECK_ERR(MPI_File_delete("/nonexistent-dir/mpi-dtype", MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);
    CHECK_EQ_LONG(file_errors, 3);
    CHECK_OK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
    CHECK_OK(MPI_Errhandler_free(&mine));
    CHECK_OK(MPI_File_delete(path, MPI_INFO_NULL));
}

int main(int argc, char **argv)
{
    const char *dir = getenv("TMPDIR");
    MPI_Init(&argc, &argv);
    snprintf(path, sizeof path, "%s/mpi-dtype-io-%ld", dir ? dir : "/tmp", (long)getpid());
    management();
    strided_view();
    every_access();
    external32();
    registered();
    errors();
    MPI_Finalize();
    return check_report(argv[0]);
}
