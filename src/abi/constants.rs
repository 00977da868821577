// The constants of every ABI the library is built for: one table that the library
// (`src/abi/mpich.rs`, `src/abi/standard.rs`) and the header generator (`build.rs`) read
// through their own definitions of the `abi_constants!` macro, each taking the values of its
// ABI with `value_in!` (`src/abi/value_in.rs`). Each entry is `NAME: TYPE = abi VALUE, ...;`
// with its doc comment: the value in each ABI that defines the constant (`mpich`: MPICH's
// ABI; `standard`: the MPI-5.0 standard ABI; `ompi`: Open MPI's). A VALUE that is another
// constant's NAME is an alias (the header defines it by name).
//
// Open MPI's handle constants are the addresses of its objects (`MPI_DOUBLE: ... ompi
// &ompi_mpi_double;`): this library defines and exports an object of that name and size, and
// the handle is its address, wherever the program's copy of it lives (`src/abi/ompi.rs`).
// Open MPI's values are those of its `mpi.h` in 4.1.4 (Debian) and 5.0.11 (PyPI), which agree
// on every constant both define; `scripts/check_abi_ompi.py` checks them.
//
// The standard ABI's handle constants are written as integers under their handle type
// (`MPI_DOUBLE: MPI_Datatype = ..., standard 0x214;`): in C its handle types are pointers to
// incomplete structs and the header writes `((MPI_Datatype)0x214)`; in Rust they are the types
// of `src/abi/standard.rs`. Every standard value equals the one in MPICH 5.0.2's `mpi_abi.h`
// and in the standard's own header (mpi-forum/mpi-abi-stubs); `scripts/check_abi_standard.py`
// checks it, as `scripts/check_abi.py` checks MPICH's values against MPICH's `mpi.h`.
//
// The standard ABI no longer defines the markers `MPI_LB` / `MPI_UB`, the combiners
// `MPI_COMBINER_HVECTOR_INTEGER`, `MPI_COMBINER_HINDEXED_INTEGER` and
// `MPI_COMBINER_STRUCT_INTEGER`, or MPICH's extension `MPIX_C_FLOAT16` (MPICH's `mpi_abi.h`
// does not define it). It adds what MPI-4.1 and 5.0 added to the datatype chapter: the
// optional Fortran types `MPI_LOGICAL1` ... `MPI_LOGICAL16`, `MPI_REAL2` and `MPI_COMPLEX4`,
// the error classes `MPI_ERR_ERRHANDLER` and `MPI_ERR_ABI`, and `MPI_ABI_VERSION` /
// `MPI_ABI_SUBVERSION`.
//
// Predefined datatypes for which the library has no basic type yet are marked "No type in
// mpi-dtype yet" in their doc comment. The standard requires every datatype handle to be
// defined; an implementation without the type answers `MPI_UNDEFINED` from `MPI_Type_size`
// (MPI-5.0, chapter 21, on the Fortran ABI).
abi_constants! {

    // ---- null handles -------------------------------------------------------------------------

    /// The null datatype handle.
    MPI_DATATYPE_NULL: MPI_Datatype = mpich 0x0c000000, standard 0x200, ompi &ompi_mpi_datatype_null;
    /// The null communicator handle.
    MPI_COMM_NULL: MPI_Comm = mpich 0x04000000, standard 0x100, ompi &ompi_mpi_comm_null;
    /// The null error handler handle.
    MPI_ERRHANDLER_NULL: MPI_Errhandler = mpich 0x14000000, standard 0x140, ompi &ompi_mpi_errhandler_null;

    // ---- predefined datatypes -----------------------------------------------------------------

    /// C `char`.
    MPI_CHAR: MPI_Datatype = mpich 0x4c000101, standard 0x243, ompi &ompi_mpi_char;
    /// C `signed char`.
    MPI_SIGNED_CHAR: MPI_Datatype = mpich 0x4c000118, standard 0x244, ompi &ompi_mpi_signed_char;
    /// C `unsigned char`.
    MPI_UNSIGNED_CHAR: MPI_Datatype = mpich 0x4c000102, standard 0x245, ompi &ompi_mpi_unsigned_char;
    /// Untyped byte.
    MPI_BYTE: MPI_Datatype = mpich 0x4c00010d, standard 0x247, ompi &ompi_mpi_byte;
    /// C `wchar_t`.
    MPI_WCHAR: MPI_Datatype = mpich 0x4c00040e, standard 0x23c, ompi &ompi_mpi_wchar;
    /// C `short`.
    MPI_SHORT: MPI_Datatype = mpich 0x4c000203, standard 0x208, ompi &ompi_mpi_short;
    /// C `unsigned short`.
    MPI_UNSIGNED_SHORT: MPI_Datatype = mpich 0x4c000204, standard 0x20c, ompi &ompi_mpi_unsigned_short;
    /// C `int`.
    MPI_INT: MPI_Datatype = mpich 0x4c000405, standard 0x209, ompi &ompi_mpi_int;
    /// C `unsigned int`.
    MPI_UNSIGNED: MPI_Datatype = mpich 0x4c000406, standard 0x20d, ompi &ompi_mpi_unsigned;
    /// C `long`.
    MPI_LONG: MPI_Datatype = mpich 0x4c000807, standard 0x20a, ompi &ompi_mpi_long;
    /// C `unsigned long`.
    MPI_UNSIGNED_LONG: MPI_Datatype = mpich 0x4c000808, standard 0x20e, ompi &ompi_mpi_unsigned_long;
    /// C `float`.
    MPI_FLOAT: MPI_Datatype = mpich 0x4c00040a, standard 0x210, ompi &ompi_mpi_float;
    /// C `double`.
    MPI_DOUBLE: MPI_Datatype = mpich 0x4c00080b, standard 0x214, ompi &ompi_mpi_double;
    /// C `long double`.
    MPI_LONG_DOUBLE: MPI_Datatype = mpich 0x4c00100c, standard 0x220, ompi &ompi_mpi_long_double;
    /// C `long long` (MPICH's ABI: the primary name; the standard ABI: an alias of
    /// `MPI_LONG_LONG`).
    MPI_LONG_LONG_INT: MPI_Datatype = mpich 0x4c000809, standard MPI_LONG_LONG, ompi &ompi_mpi_long_long_int;
    /// C `long long` (MPICH's ABI: an alias of `MPI_LONG_LONG_INT`; the standard ABI: the
    /// primary name).
    MPI_LONG_LONG: MPI_Datatype = mpich MPI_LONG_LONG_INT, standard 0x20b, ompi MPI_LONG_LONG_INT;
    /// C `unsigned long long`.
    MPI_UNSIGNED_LONG_LONG: MPI_Datatype = mpich 0x4c000819, standard 0x20f, ompi &ompi_mpi_unsigned_long_long;
    /// Packed bytes (language-independent).
    MPI_PACKED: MPI_Datatype = mpich 0x4c00010f, standard 0x207, ompi &ompi_mpi_packed;
    /// Legacy lower-bound marker (MPI-1).
    MPI_LB: MPI_Datatype = mpich 0x4c000010, ompi &ompi_mpi_lb;
    /// Legacy upper-bound marker (MPI-1).
    MPI_UB: MPI_Datatype = mpich 0x4c000011, ompi &ompi_mpi_ub;
    /// `struct { float; int; }`.
    MPI_FLOAT_INT: MPI_Datatype = mpich 0x8c000000u32 as MPI_Datatype, standard 0x228, ompi &ompi_mpi_float_int;
    /// `struct { double; int; }`.
    MPI_DOUBLE_INT: MPI_Datatype = mpich 0x8c000001u32 as MPI_Datatype, standard 0x229, ompi &ompi_mpi_double_int;
    /// `struct { long; int; }`.
    MPI_LONG_INT: MPI_Datatype = mpich 0x8c000002u32 as MPI_Datatype, standard 0x22a, ompi &ompi_mpi_long_int;
    /// `struct { short; int; }`.
    MPI_SHORT_INT: MPI_Datatype = mpich 0x8c000003u32 as MPI_Datatype, standard 0x22c, ompi &ompi_mpi_short_int;
    /// `struct { int; int; }`.
    MPI_2INT: MPI_Datatype = mpich 0x4c000816, standard 0x22b, ompi &ompi_mpi_2int;
    /// `struct { long double; int; }`.
    MPI_LONG_DOUBLE_INT: MPI_Datatype = mpich 0x8c000004u32 as MPI_Datatype, standard 0x22d, ompi &ompi_mpi_longdbl_int;
    /// Fortran `COMPLEX`.
    MPI_COMPLEX: MPI_Datatype = mpich 0x4c00081e, standard 0x21b, ompi &ompi_mpi_cplex;
    /// Fortran `DOUBLE COMPLEX`.
    MPI_DOUBLE_COMPLEX: MPI_Datatype = mpich 0x4c001022, standard 0x21d, ompi &ompi_mpi_dblcplex;
    /// Fortran `LOGICAL`.
    MPI_LOGICAL: MPI_Datatype = mpich 0x4c00041d, standard 0x218, ompi &ompi_mpi_logical;
    /// Fortran `REAL`.
    MPI_REAL: MPI_Datatype = mpich 0x4c00041c, standard 0x21a, ompi &ompi_mpi_real;
    /// Fortran `DOUBLE PRECISION`.
    MPI_DOUBLE_PRECISION: MPI_Datatype = mpich 0x4c00081f, standard 0x21c, ompi &ompi_mpi_dblprec;
    /// Fortran `INTEGER`.
    MPI_INTEGER: MPI_Datatype = mpich 0x4c00041b, standard 0x219, ompi &ompi_mpi_integer;
    /// Pair of Fortran `INTEGER`.
    MPI_2INTEGER: MPI_Datatype = mpich 0x4c000820, standard 0x232, ompi &ompi_mpi_2integer;
    /// Pair of Fortran `REAL`.
    MPI_2REAL: MPI_Datatype = mpich 0x4c000821, standard 0x230, ompi &ompi_mpi_2real;
    /// Pair of Fortran `DOUBLE PRECISION`.
    MPI_2DOUBLE_PRECISION: MPI_Datatype = mpich 0x4c001023, standard 0x231, ompi &ompi_mpi_2dblprec;
    /// Fortran `CHARACTER`.
    MPI_CHARACTER: MPI_Datatype = mpich 0x4c00011a, standard 0x21e, ompi &ompi_mpi_character;
    /// Fortran `REAL*4`.
    MPI_REAL4: MPI_Datatype = mpich 0x4c000427, standard 0x2d2, ompi &ompi_mpi_real4;
    /// Fortran `REAL*8`.
    MPI_REAL8: MPI_Datatype = mpich 0x4c000829, standard 0x2da, ompi &ompi_mpi_real8;
    /// Fortran `REAL*16`.
    MPI_REAL16: MPI_Datatype = mpich 0x4c00102b, standard 0x2e2, ompi &ompi_mpi_real16;
    /// Fortran `COMPLEX*8`.
    MPI_COMPLEX8: MPI_Datatype = mpich 0x4c000828, standard 0x2db, ompi &ompi_mpi_complex8;
    /// Fortran `COMPLEX*16`.
    MPI_COMPLEX16: MPI_Datatype = mpich 0x4c00102a, standard 0x2e3, ompi &ompi_mpi_complex16;
    /// Fortran `COMPLEX*32`.
    MPI_COMPLEX32: MPI_Datatype = mpich 0x4c00202c, standard 0x2eb, ompi &ompi_mpi_complex32;
    /// Fortran `INTEGER*1`.
    MPI_INTEGER1: MPI_Datatype = mpich 0x4c00012d, standard 0x2c1, ompi &ompi_mpi_integer1;
    /// Fortran `INTEGER*2`.
    MPI_INTEGER2: MPI_Datatype = mpich 0x4c00022f, standard 0x2c9, ompi &ompi_mpi_integer2;
    /// Fortran `INTEGER*4`.
    MPI_INTEGER4: MPI_Datatype = mpich 0x4c000430, standard 0x2d1, ompi &ompi_mpi_integer4;
    /// Fortran `INTEGER*8`.
    MPI_INTEGER8: MPI_Datatype = mpich 0x4c000831, standard 0x2d9, ompi &ompi_mpi_integer8;
    /// Fortran `INTEGER*16`. No type in mpi-dtype yet (MPICH's ABI makes it the null handle, as
    /// MPICH does not support it on this platform; the standard ABI gives it a value).
    MPI_INTEGER16: MPI_Datatype = mpich MPI_DATATYPE_NULL, standard 0x2e1, ompi &ompi_mpi_integer16;
    /// Fortran `REAL*2` (IEEE binary16). No type in mpi-dtype yet.
    MPI_REAL2: MPI_Datatype = standard 0x2ca, ompi &ompi_mpi_real2;
    /// Fortran `COMPLEX*4` (two `REAL*2`). No type in mpi-dtype yet.
    MPI_COMPLEX4: MPI_Datatype = standard 0x2d3, ompi &ompi_mpi_complex4;
    /// Fortran `LOGICAL*1`. No type in mpi-dtype yet.
    MPI_LOGICAL1: MPI_Datatype = standard 0x2c0, ompi &ompi_mpi_logical1;
    /// Fortran `LOGICAL*2`. No type in mpi-dtype yet.
    MPI_LOGICAL2: MPI_Datatype = standard 0x2c8, ompi &ompi_mpi_logical2;
    /// Fortran `LOGICAL*4`. No type in mpi-dtype yet.
    MPI_LOGICAL4: MPI_Datatype = standard 0x2d0, ompi &ompi_mpi_logical4;
    /// Fortran `LOGICAL*8`. No type in mpi-dtype yet.
    MPI_LOGICAL8: MPI_Datatype = standard 0x2d8, ompi &ompi_mpi_logical8;
    /// Fortran `LOGICAL*16`. No type in mpi-dtype yet.
    MPI_LOGICAL16: MPI_Datatype = standard 0x2e0;
    /// C `int8_t`.
    MPI_INT8_T: MPI_Datatype = mpich 0x4c000137, standard 0x240, ompi &ompi_mpi_int8_t;
    /// C `int16_t`.
    MPI_INT16_T: MPI_Datatype = mpich 0x4c000238, standard 0x248, ompi &ompi_mpi_int16_t;
    /// C `int32_t`.
    MPI_INT32_T: MPI_Datatype = mpich 0x4c000439, standard 0x250, ompi &ompi_mpi_int32_t;
    /// C `int64_t`.
    MPI_INT64_T: MPI_Datatype = mpich 0x4c00083a, standard 0x258, ompi &ompi_mpi_int64_t;
    /// C `uint8_t`.
    MPI_UINT8_T: MPI_Datatype = mpich 0x4c00013b, standard 0x241, ompi &ompi_mpi_uint8_t;
    /// C `uint16_t`.
    MPI_UINT16_T: MPI_Datatype = mpich 0x4c00023c, standard 0x249, ompi &ompi_mpi_uint16_t;
    /// C `uint32_t`.
    MPI_UINT32_T: MPI_Datatype = mpich 0x4c00043d, standard 0x251, ompi &ompi_mpi_uint32_t;
    /// C `uint64_t`.
    MPI_UINT64_T: MPI_Datatype = mpich 0x4c00083e, standard 0x259, ompi &ompi_mpi_uint64_t;
    /// C `_Bool`.
    MPI_C_BOOL: MPI_Datatype = mpich 0x4c00013f, standard 0x238, ompi &ompi_mpi_c_bool;
    /// C `float _Complex`.
    MPI_C_FLOAT_COMPLEX: MPI_Datatype = mpich 0x4c000840, standard 0x212, ompi &ompi_mpi_c_float_complex;
    /// C `float _Complex` (alias of `MPI_C_FLOAT_COMPLEX`).
    MPI_C_COMPLEX: MPI_Datatype = mpich MPI_C_FLOAT_COMPLEX, standard MPI_C_FLOAT_COMPLEX, ompi MPI_C_FLOAT_COMPLEX;
    /// C `double _Complex`.
    MPI_C_DOUBLE_COMPLEX: MPI_Datatype = mpich 0x4c001041, standard 0x216, ompi &ompi_mpi_c_double_complex;
    /// C `long double _Complex`.
    MPI_C_LONG_DOUBLE_COMPLEX: MPI_Datatype = mpich 0x4c002042, standard 0x224, ompi &ompi_mpi_c_long_double_complex;
    /// C `_Float16` (MPICH extension).
    MPIX_C_FLOAT16: MPI_Datatype = mpich 0x4c000246, ompi &ompi_mpix_c_float16;
    /// `MPI_Aint` (language-independent).
    MPI_AINT: MPI_Datatype = mpich 0x4c000843, standard 0x201, ompi &ompi_mpi_aint;
    /// `MPI_Offset` (language-independent).
    MPI_OFFSET: MPI_Datatype = mpich 0x4c000844, standard 0x203, ompi &ompi_mpi_offset;
    /// `MPI_Count` (language-independent).
    MPI_COUNT: MPI_Datatype = mpich 0x4c000845, standard 0x202, ompi &ompi_mpi_count;
    /// C++ `bool`.
    MPI_CXX_BOOL: MPI_Datatype = mpich 0x4c000133, standard 0x239, ompi &ompi_mpi_cxx_bool;
    /// C++ `std::complex<float>`.
    MPI_CXX_FLOAT_COMPLEX: MPI_Datatype = mpich 0x4c000834, standard 0x213, ompi &ompi_mpi_cxx_cplex;
    /// C++ `std::complex<double>`.
    MPI_CXX_DOUBLE_COMPLEX: MPI_Datatype = mpich 0x4c001035, standard 0x217, ompi &ompi_mpi_cxx_dblcplex;
    /// C++ `std::complex<long double>`.
    MPI_CXX_LONG_DOUBLE_COMPLEX: MPI_Datatype = mpich 0x4c002036, standard 0x225, ompi &ompi_mpi_cxx_ldblcplex;

    // ---- type classes for MPI_Type_match_size -------------------------------------------------

    /// Type class of real (floating-point) types.
    MPI_TYPECLASS_REAL: c_int = mpich 1, standard 193, ompi 2;
    /// Type class of integer types.
    MPI_TYPECLASS_INTEGER: c_int = mpich 2, standard 192, ompi 1;
    /// Type class of complex types.
    MPI_TYPECLASS_COMPLEX: c_int = mpich 3, standard 194, ompi 3;

    // ---- communicators and error handlers -----------------------------------------------------

    /// The communicator of all processes.
    MPI_COMM_WORLD: MPI_Comm = mpich 0x44000000, standard 0x101, ompi &ompi_mpi_comm_world;
    /// The communicator of this process alone.
    MPI_COMM_SELF: MPI_Comm = mpich 0x44000001, standard 0x102, ompi &ompi_mpi_comm_self;
    /// Error handler that prints the error and aborts (the default).
    MPI_ERRORS_ARE_FATAL: MPI_Errhandler = mpich 0x54000000, standard 0x141, ompi &ompi_mpi_errors_are_fatal;
    /// Error handler that returns the error code to the caller.
    MPI_ERRORS_RETURN: MPI_Errhandler = mpich 0x54000001, standard 0x143, ompi &ompi_mpi_errors_return;
    /// Error handler that aborts the processes of the communicator (MPI-4). Intel MPI
    /// 2021.19's `mpi_abi.h` and library swap this value with `MPI_ERRORS_RETURN`'s.
    MPI_ERRORS_ABORT: MPI_Errhandler = mpich 0x54000003, standard 0x142, ompi &ompi_mpi_errors_abort;

    // ---- point-to-point -----------------------------------------------------------------------

    /// The null request handle.
    MPI_REQUEST_NULL: MPI_Request = mpich 0x2c000000, standard 0x180, ompi &ompi_request_null;
    /// The null message handle.
    MPI_MESSAGE_NULL: MPI_Message = mpich 0x2c000000, standard 0x128, ompi &ompi_message_null;
    /// The message `MPI_Mprobe` matches from `MPI_PROC_NULL`.
    MPI_MESSAGE_NO_PROC: MPI_Message = mpich 0x6c000000, standard 0x129, ompi &ompi_message_no_proc;
    /// A receive's source that matches a message from any process.
    MPI_ANY_SOURCE: c_int = mpich -2, standard -1, ompi -1;
    /// A receive's tag that matches a message of any tag.
    MPI_ANY_TAG: c_int = mpich -1, standard -2, ompi -1;
    /// The null process: a send to it or a receive from it completes at once and moves nothing.
    MPI_PROC_NULL: c_int = mpich -1, standard -3, ompi -2;
    /// The root's argument in the root group of an intercommunicator.
    MPI_ROOT: c_int = mpich -3, standard -4, ompi -4;
    /// The bytes a buffered send takes in the attached buffer beyond its packed data.
    MPI_BSEND_OVERHEAD: c_int = mpich 96, standard 512, ompi 128;
    /// Attribute key of the largest tag a message may carry.
    MPI_TAG_UB: c_int = mpich 0x64400001, standard 501, ompi 0;

    // ---- groups and communicators ------------------------------------------------------------

    /// The null group handle.
    MPI_GROUP_NULL: MPI_Group = mpich 0x08000000, standard 0x108, ompi &ompi_mpi_group_null;
    /// The group of no process.
    MPI_GROUP_EMPTY: MPI_Group = mpich 0x48000000, standard 0x109, ompi &ompi_mpi_group_empty;
    /// `MPI_Comm_compare` / `MPI_Group_compare`: the same object.
    MPI_IDENT: c_int = mpich 0, standard 201, ompi 0;
    /// `MPI_Comm_compare`: the same group, in another context.
    MPI_CONGRUENT: c_int = mpich 1, standard 202, ompi 1;
    /// The same members in another order.
    MPI_SIMILAR: c_int = mpich 2, standard 203, ompi 2;
    /// Different members.
    MPI_UNEQUAL: c_int = mpich 3, standard 204, ompi 3;
    /// `MPI_Comm_split_type`: the processes that can share memory.
    MPI_COMM_TYPE_SHARED: c_int = mpich 1, standard 221, ompi 0;
    /// `MPI_Comm_split_type`: a split the info key `mpi_hw_resource_type` guides.
    MPI_COMM_TYPE_HW_GUIDED: c_int = mpich 2, standard 223, ompi 13;
    /// `MPI_Comm_split_type`: a split by the hardware, chosen by the library.
    MPI_COMM_TYPE_HW_UNGUIDED: c_int = mpich 3, standard 222, ompi 12;
    /// Attribute key of the host process's rank (`MPI_PROC_NULL` when there is none).
    MPI_HOST: c_int = mpich 0x64400003, standard 503, ompi 1;
    /// Attribute key of the rank that can do I/O (`MPI_ANY_SOURCE`: every one).
    MPI_IO: c_int = mpich 0x64400005, standard 502, ompi 2;
    /// Attribute key of whether the clocks of all processes agree.
    MPI_WTIME_IS_GLOBAL: c_int = mpich 0x64400007, standard 504, ompi 3;
    /// Attribute key of the number of processes the job may have.
    MPI_UNIVERSE_SIZE: c_int = mpich 0x64400009, standard 507, ompi 6;
    /// Attribute key of the last error code or class the program added.
    MPI_LASTUSEDCODE: c_int = mpich 0x6440000b, standard 506, ompi 5;
    /// Attribute key of the number of the program among those started together.
    MPI_APPNUM: c_int = mpich 0x6440000d, standard 505, ompi 4;

    // ---- topologies ---------------------------------------------------------------------------

    /// `MPI_Topo_test`: a graph topology.
    MPI_GRAPH: c_int = mpich 1, standard 212, ompi 2;
    /// `MPI_Topo_test`: a Cartesian topology.
    MPI_CART: c_int = mpich 2, standard 211, ompi 1;
    /// `MPI_Topo_test`: a distributed graph topology.
    MPI_DIST_GRAPH: c_int = mpich 3, standard 213, ompi 3;

    // ---- sessions ------------------------------------------------------------------------------

    /// The null session handle.
    MPI_SESSION_NULL: MPI_Session = mpich 0x38000000, standard 0x120, ompi &ompi_mpi_instance_null;
    /// The longest name of a process set, with its terminating NUL.
    MPI_MAX_PSET_NAME_LEN: c_int = mpich 256, standard 1024, ompi 512;
    /// The longest tag `MPI_Comm_create_from_group` takes, with its terminating NUL.
    MPI_MAX_STRINGTAG_LEN: c_int = mpich 256, standard 1024, ompi 1024;

    // ---- the tool information interface (MPI_T) -------------------------------------------

    /// Verbosity: basic information for users.
    MPI_T_VERBOSITY_USER_BASIC: c_int = mpich 221, standard 9, ompi 0;
    /// Verbosity: detailed information for users.
    MPI_T_VERBOSITY_USER_DETAIL: c_int = mpich 222, standard 10, ompi 1;
    /// Verbosity: all information for users.
    MPI_T_VERBOSITY_USER_ALL: c_int = mpich 223, standard 12, ompi 2;
    /// Verbosity: basic information for tuners.
    MPI_T_VERBOSITY_TUNER_BASIC: c_int = mpich 224, standard 17, ompi 3;
    /// Verbosity: detailed information for tuners.
    MPI_T_VERBOSITY_TUNER_DETAIL: c_int = mpich 225, standard 18, ompi 4;
    /// Verbosity: all information for tuners.
    MPI_T_VERBOSITY_TUNER_ALL: c_int = mpich 226, standard 20, ompi 5;
    /// Verbosity: basic information for MPI developers.
    MPI_T_VERBOSITY_MPIDEV_BASIC: c_int = mpich 227, standard 33, ompi 6;
    /// Verbosity: detailed information for MPI developers.
    MPI_T_VERBOSITY_MPIDEV_DETAIL: c_int = mpich 228, standard 34, ompi 7;
    /// Verbosity: all information for MPI developers.
    MPI_T_VERBOSITY_MPIDEV_ALL: c_int = mpich 229, standard 36, ompi 8;
    /// A variable bound to no object.
    MPI_T_BIND_NO_OBJECT: c_int = mpich 9700, standard 1, ompi 0;
    /// A variable bound to an `MPI_COMM` object.
    MPI_T_BIND_MPI_COMM: c_int = mpich 9701, standard 2, ompi 1;
    /// A variable bound to an `MPI_DATATYPE` object.
    MPI_T_BIND_MPI_DATATYPE: c_int = mpich 9702, standard 3, ompi 2;
    /// A variable bound to an `MPI_ERRHANDLER` object.
    MPI_T_BIND_MPI_ERRHANDLER: c_int = mpich 9703, standard 4, ompi 3;
    /// A variable bound to an `MPI_FILE` object.
    MPI_T_BIND_MPI_FILE: c_int = mpich 9704, standard 5, ompi 4;
    /// A variable bound to an `MPI_GROUP` object.
    MPI_T_BIND_MPI_GROUP: c_int = mpich 9705, standard 6, ompi 5;
    /// A variable bound to an `MPI_OP` object.
    MPI_T_BIND_MPI_OP: c_int = mpich 9706, standard 7, ompi 6;
    /// A variable bound to an `MPI_REQUEST` object.
    MPI_T_BIND_MPI_REQUEST: c_int = mpich 9707, standard 8, ompi 7;
    /// A variable bound to an `MPI_WIN` object.
    MPI_T_BIND_MPI_WIN: c_int = mpich 9708, standard 9, ompi 8;
    /// A variable bound to an `MPI_MESSAGE` object.
    MPI_T_BIND_MPI_MESSAGE: c_int = mpich 9709, standard 10, ompi 9;
    /// A variable bound to an `MPI_INFO` object.
    MPI_T_BIND_MPI_INFO: c_int = mpich 9710, standard 11, ompi 10;
    /// A variable that is read-only and never changes.
    MPI_T_SCOPE_CONSTANT: c_int = mpich 60438, standard 1, ompi 0;
    /// A variable that is read-only.
    MPI_T_SCOPE_READONLY: c_int = mpich 60439, standard 2, ompi 1;
    /// A variable each process may set on its own.
    MPI_T_SCOPE_LOCAL: c_int = mpich 60440, standard 3, ompi 2;
    /// A variable the processes of a group must set together.
    MPI_T_SCOPE_GROUP: c_int = mpich 60441, standard 4, ompi 3;
    /// A variable the processes of a group must set together, to one value.
    MPI_T_SCOPE_GROUP_EQ: c_int = mpich 60442, standard 5, ompi 4;
    /// A variable every process must set together.
    MPI_T_SCOPE_ALL: c_int = mpich 60443, standard 6, ompi 5;
    /// A variable every process must set together, to one value.
    MPI_T_SCOPE_ALL_EQ: c_int = mpich 60444, standard 7, ompi 6;
    /// A performance variable of the class state.
    MPI_T_PVAR_CLASS_STATE: c_int = mpich 240, standard 1, ompi 0;
    /// A performance variable of the class level.
    MPI_T_PVAR_CLASS_LEVEL: c_int = mpich 241, standard 2, ompi 1;
    /// A performance variable of the class size.
    MPI_T_PVAR_CLASS_SIZE: c_int = mpich 242, standard 3, ompi 2;
    /// A performance variable of the class percentage.
    MPI_T_PVAR_CLASS_PERCENTAGE: c_int = mpich 243, standard 4, ompi 3;
    /// A performance variable of the class highwatermark.
    MPI_T_PVAR_CLASS_HIGHWATERMARK: c_int = mpich 244, standard 5, ompi 4;
    /// A performance variable of the class lowwatermark.
    MPI_T_PVAR_CLASS_LOWWATERMARK: c_int = mpich 245, standard 6, ompi 5;
    /// A performance variable of the class counter.
    MPI_T_PVAR_CLASS_COUNTER: c_int = mpich 246, standard 7, ompi 6;
    /// A performance variable of the class aggregate.
    MPI_T_PVAR_CLASS_AGGREGATE: c_int = mpich 247, standard 8, ompi 7;
    /// A performance variable of the class timer.
    MPI_T_PVAR_CLASS_TIMER: c_int = mpich 248, standard 9, ompi 8;
    /// A performance variable of the class generic.
    MPI_T_PVAR_CLASS_GENERIC: c_int = mpich 249, standard 10, ompi 9;
    /// MPI_T: out of memory.
    MPI_T_ERR_MEMORY: c_int = mpich 59, standard 1005, ompi 54;
    /// MPI_T: the interface is not initialized.
    MPI_T_ERR_NOT_INITIALIZED: c_int = mpich 60, standard 1003, ompi 55;
    /// MPI_T: the interface cannot be initialized now.
    MPI_T_ERR_CANNOT_INIT: c_int = mpich 61, standard 1001, ompi 56;
    /// MPI_T: the variable is not accessible.
    MPI_T_ERR_NOT_ACCESSIBLE: c_int = standard 1002;
    /// MPI_T: the index is not one of a variable or category.
    MPI_T_ERR_INVALID_INDEX: c_int = mpich 62, standard 1007, ompi 57;
    /// MPI_T: the item index is out of range (deprecated).
    MPI_T_ERR_INVALID_ITEM: c_int = mpich 63, standard 1008, ompi 58;
    /// MPI_T: the handle is not one.
    MPI_T_ERR_INVALID_HANDLE: c_int = mpich 64, standard 1010, ompi 59;
    /// MPI_T: no more handles.
    MPI_T_ERR_OUT_OF_HANDLES: c_int = mpich 65, standard 1012, ompi 60;
    /// MPI_T: no more sessions.
    MPI_T_ERR_OUT_OF_SESSIONS: c_int = mpich 66, standard 1013, ompi 61;
    /// MPI_T: the session is not one.
    MPI_T_ERR_INVALID_SESSION: c_int = mpich 67, standard 1009, ompi 62;
    /// MPI_T: the control variable cannot be set now.
    MPI_T_ERR_CVAR_SET_NOT_NOW: c_int = mpich 68, standard 1014, ompi 63;
    /// MPI_T: the control variable cannot be set.
    MPI_T_ERR_CVAR_SET_NEVER: c_int = mpich 69, standard 1015, ompi 64;
    /// MPI_T: the performance variable cannot be started or stopped.
    MPI_T_ERR_PVAR_NO_STARTSTOP: c_int = mpich 70, standard 1017, ompi 65;
    /// MPI_T: the performance variable cannot be written or reset.
    MPI_T_ERR_PVAR_NO_WRITE: c_int = mpich 71, standard 1016, ompi 66;
    /// MPI_T: the performance variable cannot be read and written atomically.
    MPI_T_ERR_PVAR_NO_ATOMIC: c_int = mpich 72, standard 1018, ompi 67;
    /// MPI_T: no variable or category has the name.
    MPI_T_ERR_INVALID_NAME: c_int = mpich 73, standard 1011, ompi 73;
    /// MPI_T: an invalid use of the interface.
    MPI_T_ERR_INVALID: c_int = mpich 74, standard 1006, ompi 72;
    /// MPI_T: the function is not supported.
    MPI_T_ERR_NOT_SUPPORTED: c_int = mpich 78, standard 1004;

    // ---- MPI-IO ---------------------------------------------------------------------------------

    /// The null file handle (MPICH's ABI: the null pointer, defined with the `MPI_File` type).
    MPI_FILE_NULL: MPI_File = standard 0x118, ompi &ompi_mpi_file_null;
    /// `MPI_File_open`: read only.
    MPI_MODE_RDONLY: c_int = mpich 2, standard 16, ompi 2;
    /// `MPI_File_open`: reading and writing.
    MPI_MODE_RDWR: c_int = mpich 8, standard 32, ompi 8;
    /// `MPI_File_open`: write only.
    MPI_MODE_WRONLY: c_int = mpich 4, standard 256, ompi 4;
    /// `MPI_File_open`: create the file if it does not exist.
    MPI_MODE_CREATE: c_int = mpich 1, standard 2, ompi 1;
    /// `MPI_File_open`: with `MPI_MODE_CREATE`, fail if the file exists.
    MPI_MODE_EXCL: c_int = mpich 64, standard 8, ompi 64;
    /// `MPI_File_open`: delete the file when it is closed.
    MPI_MODE_DELETE_ON_CLOSE: c_int = mpich 16, standard 4, ompi 16;
    /// `MPI_File_open`: no other process opens the file meanwhile.
    MPI_MODE_UNIQUE_OPEN: c_int = mpich 32, standard 128, ompi 32;
    /// `MPI_File_open`: the file pointers start at the end of the file.
    MPI_MODE_APPEND: c_int = mpich 128, standard 1, ompi 128;
    /// `MPI_File_open`: the file is accessed sequentially (the shared pointer only).
    MPI_MODE_SEQUENTIAL: c_int = mpich 256, standard 64, ompi 256;
    /// `MPI_File_seek`: from the start of the view.
    MPI_SEEK_SET: c_int = mpich 600, standard 403, ompi 600;
    /// `MPI_File_seek`: from the file pointer.
    MPI_SEEK_CUR: c_int = mpich 602, standard 401, ompi 602;
    /// `MPI_File_seek`: from the end of the file.
    MPI_SEEK_END: c_int = mpich 604, standard 402, ompi 604;
    /// `MPI_File_set_view` of a file opened with `MPI_MODE_SEQUENTIAL`: the view starts at
    /// the shared file pointer.
    MPI_DISPLACEMENT_CURRENT: MPI_Offset = mpich -54278278, standard -1, ompi -54278278;
    /// Longest name of a data representation, with its terminating NUL.
    MPI_MAX_DATAREP_STRING: c_int = mpich 128, standard 128, ompi 128;

    // ---- one-sided communication --------------------------------------------------------------

    /// The null window handle.
    MPI_WIN_NULL: MPI_Win = mpich 0x20000000, standard 0x110, ompi &ompi_mpi_win_null;
    /// Attribute key of a window's base address.
    MPI_WIN_BASE: c_int = mpich 0x66000001, standard 601, ompi 7;
    /// Attribute key of a window's size in bytes.
    MPI_WIN_SIZE: c_int = mpich 0x66000003, standard 603, ompi 8;
    /// Attribute key of a window's displacement unit.
    MPI_WIN_DISP_UNIT: c_int = mpich 0x66000005, standard 602, ompi 9;
    /// Attribute key of how a window was made (`MPI_WIN_FLAVOR_*`).
    MPI_WIN_CREATE_FLAVOR: c_int = mpich 0x66000007, standard 604, ompi 10;
    /// Attribute key of a window's memory model (`MPI_WIN_SEPARATE` or `MPI_WIN_UNIFIED`).
    MPI_WIN_MODEL: c_int = mpich 0x66000009, standard 605, ompi 11;
    /// A window made by `MPI_Win_create` over the program's memory.
    MPI_WIN_FLAVOR_CREATE: c_int = mpich 1, standard 311, ompi 1;
    /// A window made by `MPI_Win_allocate` over memory the library allocated.
    MPI_WIN_FLAVOR_ALLOCATE: c_int = mpich 2, standard 312, ompi 2;
    /// A window made by `MPI_Win_create_dynamic`, memory attached to it later.
    MPI_WIN_FLAVOR_DYNAMIC: c_int = mpich 3, standard 313, ompi 3;
    /// A window made by `MPI_Win_allocate_shared` over memory its processes share.
    MPI_WIN_FLAVOR_SHARED: c_int = mpich 4, standard 314, ompi 4;
    /// The memory model whose public and private copies of a window are separate.
    MPI_WIN_SEPARATE: c_int = mpich 1, standard 322, ompi 1;
    /// The memory model whose public and private copies of a window are one.
    MPI_WIN_UNIFIED: c_int = mpich 2, standard 321, ompi 0;
    /// `MPI_Win_lock`: a lock no other process holds at the same time.
    MPI_LOCK_EXCLUSIVE: c_int = mpich 234, standard 301, ompi 1;
    /// `MPI_Win_lock`: a lock other processes may hold at the same time.
    MPI_LOCK_SHARED: c_int = mpich 235, standard 302, ompi 2;
    /// Assertion: no other process holds or attempts a conflicting lock.
    MPI_MODE_NOCHECK: c_int = mpich 1024, standard 1024, ompi 1;
    /// Assertion: the local window was not updated by stores since the last synchronisation.
    MPI_MODE_NOSTORE: c_int = mpich 2048, standard 8192, ompi 8;
    /// Assertion: the local window will not be updated by puts or accumulates until the next
    /// synchronisation.
    MPI_MODE_NOPUT: c_int = mpich 4096, standard 4096, ompi 4;
    /// Assertion: the fence completes no sequence of locally issued RMA calls.
    MPI_MODE_NOPRECEDE: c_int = mpich 8192, standard 2048, ompi 2;
    /// Assertion: the fence starts no sequence of locally issued RMA calls.
    MPI_MODE_NOSUCCEED: c_int = mpich 16384, standard 16384, ompi 16;

    // ---- reduction operations -----------------------------------------------------------------

    /// The null operation handle.
    MPI_OP_NULL: MPI_Op = mpich 0x18000000, standard 0x20, ompi &ompi_mpi_op_null;
    /// Maximum.
    MPI_MAX: MPI_Op = mpich 0x58000001, standard 0x23, ompi &ompi_mpi_op_max;
    /// Minimum.
    MPI_MIN: MPI_Op = mpich 0x58000002, standard 0x22, ompi &ompi_mpi_op_min;
    /// Sum.
    MPI_SUM: MPI_Op = mpich 0x58000003, standard 0x21, ompi &ompi_mpi_op_sum;
    /// Product.
    MPI_PROD: MPI_Op = mpich 0x58000004, standard 0x24, ompi &ompi_mpi_op_prod;
    /// Logical and.
    MPI_LAND: MPI_Op = mpich 0x58000005, standard 0x30, ompi &ompi_mpi_op_land;
    /// Bitwise and.
    MPI_BAND: MPI_Op = mpich 0x58000006, standard 0x28, ompi &ompi_mpi_op_band;
    /// Logical or.
    MPI_LOR: MPI_Op = mpich 0x58000007, standard 0x31, ompi &ompi_mpi_op_lor;
    /// Bitwise or.
    MPI_BOR: MPI_Op = mpich 0x58000008, standard 0x29, ompi &ompi_mpi_op_bor;
    /// Logical exclusive or.
    MPI_LXOR: MPI_Op = mpich 0x58000009, standard 0x32, ompi &ompi_mpi_op_lxor;
    /// Bitwise exclusive or.
    MPI_BXOR: MPI_Op = mpich 0x5800000a, standard 0x2a, ompi &ompi_mpi_op_bxor;
    /// Minimum of value-index pairs, and its index.
    MPI_MINLOC: MPI_Op = mpich 0x5800000b, standard 0x38, ompi &ompi_mpi_op_minloc;
    /// Maximum of value-index pairs, and its index.
    MPI_MAXLOC: MPI_Op = mpich 0x5800000c, standard 0x39, ompi &ompi_mpi_op_maxloc;
    /// The origin's data (one-sided accumulation).
    MPI_REPLACE: MPI_Op = mpich 0x5800000d, standard 0x3c, ompi &ompi_mpi_op_replace;
    /// The target's data, unchanged (one-sided accumulation).
    MPI_NO_OP: MPI_Op = mpich 0x5800000e, standard 0x3d, ompi &ompi_mpi_op_no_op;

    // ---- combiners ----------------------------------------------------------------------------

    /// A named predefined datatype.
    MPI_COMBINER_NAMED: c_int = mpich 1, standard 101, ompi 0;
    /// `MPI_Type_dup`.
    MPI_COMBINER_DUP: c_int = mpich 2, standard 102, ompi 1;
    /// `MPI_Type_contiguous`.
    MPI_COMBINER_CONTIGUOUS: c_int = mpich 3, standard 103, ompi 2;
    /// `MPI_Type_vector`.
    MPI_COMBINER_VECTOR: c_int = mpich 4, standard 104, ompi 3;
    /// `MPI_TYPE_HVECTOR` called from Fortran (never produced by this C library).
    MPI_COMBINER_HVECTOR_INTEGER: c_int = mpich 5;
    /// `MPI_Type_create_hvector` (and, in MPICH's ABI, the MPI-1 `MPI_Type_hvector`).
    MPI_COMBINER_HVECTOR: c_int = mpich 6, standard 105, ompi 5;
    /// `MPI_Type_indexed`.
    MPI_COMBINER_INDEXED: c_int = mpich 7, standard 106, ompi 6;
    /// `MPI_TYPE_HINDEXED` called from Fortran (never produced by this C library).
    MPI_COMBINER_HINDEXED_INTEGER: c_int = mpich 8;
    /// `MPI_Type_create_hindexed` (and, in MPICH's ABI, the MPI-1 `MPI_Type_hindexed`).
    MPI_COMBINER_HINDEXED: c_int = mpich 9, standard 107, ompi 8;
    /// `MPI_Type_create_indexed_block`.
    MPI_COMBINER_INDEXED_BLOCK: c_int = mpich 10, standard 108, ompi 9;
    /// `MPI_TYPE_STRUCT` called from Fortran (never produced by this C library).
    MPI_COMBINER_STRUCT_INTEGER: c_int = mpich 11;
    /// `MPI_Type_create_struct` (and, in MPICH's ABI, the MPI-1 `MPI_Type_struct`).
    MPI_COMBINER_STRUCT: c_int = mpich 12, standard 110, ompi 11;
    /// `MPI_Type_create_subarray`.
    MPI_COMBINER_SUBARRAY: c_int = mpich 13, standard 111, ompi 12;
    /// `MPI_Type_create_darray`.
    MPI_COMBINER_DARRAY: c_int = mpich 14, standard 112, ompi 13;
    /// `MPI_Type_create_f90_real`.
    MPI_COMBINER_F90_REAL: c_int = mpich 15, standard 113, ompi 14;
    /// `MPI_Type_create_f90_complex`.
    MPI_COMBINER_F90_COMPLEX: c_int = mpich 16, standard 114, ompi 15;
    /// `MPI_Type_create_f90_integer`.
    MPI_COMBINER_F90_INTEGER: c_int = mpich 17, standard 115, ompi 16;
    /// `MPI_Type_create_resized`.
    MPI_COMBINER_RESIZED: c_int = mpich 18, standard 116, ompi 17;
    /// `MPI_Type_create_hindexed_block`.
    MPI_COMBINER_HINDEXED_BLOCK: c_int = mpich 19, standard 109, ompi 18;
    /// A pair type returned by `MPI_Type_get_value_index` that is not predefined (MPI-4.1; in
    /// MPICH's ABI, MPICH 5's value).
    MPI_COMBINER_VALUE_INDEX: c_int = mpich 20, standard 117;

    // ---- subarray and darray ------------------------------------------------------------------

    /// Row-major array order.
    MPI_ORDER_C: c_int = mpich 56, standard 0xC, ompi 0;
    /// Column-major array order.
    MPI_ORDER_FORTRAN: c_int = mpich 57, standard 0xF, ompi 1;
    /// Block distribution of a darray dimension.
    MPI_DISTRIBUTE_BLOCK: c_int = mpich 121, standard 17, ompi 0;
    /// Cyclic distribution of a darray dimension.
    MPI_DISTRIBUTE_CYCLIC: c_int = mpich 122, standard 18, ompi 1;
    /// No distribution of a darray dimension.
    MPI_DISTRIBUTE_NONE: c_int = mpich 123, standard 16, ompi 2;
    /// Default distribution argument of a darray dimension.
    MPI_DISTRIBUTE_DFLT_DARG: c_int = mpich -49767, standard 19, ompi -1;

    // ---- miscellaneous constants --------------------------------------------------------------

    /// Returned where a value is undefined (for example a size that does not fit an `int`,
    /// or the size of an optional datatype the library does not support).
    MPI_UNDEFINED: c_int = mpich -32766, standard -32766, ompi -32766;
    /// Longest datatype or communicator name, including the terminating NUL.
    MPI_MAX_OBJECT_NAME: c_int = mpich 128, standard 128, ompi 64;
    /// The null info handle.
    MPI_INFO_NULL: MPI_Info = mpich 0x1c000000, standard 0x130, ompi &ompi_mpi_info_null;
    /// The info object of the execution environment.
    MPI_INFO_ENV: MPI_Info = mpich 0x5c000001, standard 0x131, ompi &ompi_mpi_info_env;
    /// Longest info key, not counting the NUL.
    MPI_MAX_INFO_KEY: c_int = mpich 255, standard 256, ompi 36;
    /// Longest info value, not counting the NUL.
    MPI_MAX_INFO_VAL: c_int = mpich 1024, standard 1024, ompi 256;
    /// Longest error string, including the terminating NUL.
    MPI_MAX_ERROR_STRING: c_int = mpich 512, standard 512, ompi 256;
    /// Longest library version string, including the terminating NUL.
    MPI_MAX_LIBRARY_VERSION_STRING: c_int = mpich 8192, standard 8192, ompi 256;
    /// Longest processor name (128 in MPICH's ABI, 256 in the standard ABI).
    MPI_MAX_PROCESSOR_NAME: c_int = mpich 128, standard 256, ompi 256;
    /// The invalid attribute key.
    MPI_KEYVAL_INVALID: c_int = mpich 0x24000000, standard 0, ompi -1;
    /// Version of the MPI standard implemented (MPICH's ABI: as MPICH 4.0 reports it; the
    /// standard ABI: the version the ABI belongs to; Open MPI's: the large-count functions of
    /// MPI 4.0 are there, where Open MPI 4.1 and 5.0 say 3.1).
    MPI_VERSION: c_int = mpich 4, standard 5, ompi 4;
    /// Subversion of the MPI standard implemented (as for `MPI_VERSION`).
    MPI_SUBVERSION: c_int = mpich 0, standard 0, ompi 0;
    /// Major version of the standard ABI (`MPI_Abi_get_version` returns it).
    MPI_ABI_VERSION: c_int = standard 1;
    /// Minor version of the standard ABI (`MPI_Abi_get_version` returns it).
    MPI_ABI_SUBVERSION: c_int = standard 0;
    /// Only one thread will execute.
    MPI_THREAD_SINGLE: c_int = mpich 0, standard 0, ompi 0;
    /// Only the main thread makes MPI calls.
    MPI_THREAD_FUNNELED: c_int = mpich 1, standard 1024, ompi 1;
    /// Only one thread at a time makes MPI calls.
    MPI_THREAD_SERIALIZED: c_int = mpich 2, standard 2048, ompi 2;
    /// Any thread may call MPI at any time.
    MPI_THREAD_MULTIPLE: c_int = mpich 3, standard 4096, ompi 3;

    // ---- error classes ------------------------------------------------------------------------

    /// Successful return code.
    MPI_SUCCESS: c_int = mpich 0, standard 0, ompi 0;
    /// Invalid buffer pointer.
    MPI_ERR_BUFFER: c_int = mpich 1, standard 1, ompi 1;
    /// Invalid count argument.
    MPI_ERR_COUNT: c_int = mpich 2, standard 2, ompi 2;
    /// Invalid datatype argument.
    MPI_ERR_TYPE: c_int = mpich 3, standard 3, ompi 3;
    /// Invalid tag argument.
    MPI_ERR_TAG: c_int = mpich 4, standard 4, ompi 4;
    /// Invalid communicator.
    MPI_ERR_COMM: c_int = mpich 5, standard 5, ompi 5;
    /// Invalid rank.
    MPI_ERR_RANK: c_int = mpich 6, standard 6, ompi 6;
    /// Invalid root.
    MPI_ERR_ROOT: c_int = mpich 7, standard 8, ompi 8;
    /// Invalid group.
    MPI_ERR_GROUP: c_int = mpich 8, standard 9, ompi 9;
    /// Invalid operation.
    MPI_ERR_OP: c_int = mpich 9, standard 10, ompi 10;
    /// Invalid topology.
    MPI_ERR_TOPOLOGY: c_int = mpich 10, standard 11, ompi 11;
    /// Invalid dimension argument.
    MPI_ERR_DIMS: c_int = mpich 11, standard 12, ompi 12;
    /// Invalid argument of some other kind.
    MPI_ERR_ARG: c_int = mpich 12, standard 13, ompi 13;
    /// Unknown error.
    MPI_ERR_UNKNOWN: c_int = mpich 13, standard 14, ompi 14;
    /// Message truncated (also: not enough room to pack or data to unpack).
    MPI_ERR_TRUNCATE: c_int = mpich 14, standard 15, ompi 15;
    /// Known error not in this list.
    MPI_ERR_OTHER: c_int = mpich 15, standard 16, ompi 16;
    /// Internal MPI (implementation) error.
    MPI_ERR_INTERN: c_int = mpich 16, standard 17, ompi 17;
    /// Error code is in status.
    MPI_ERR_IN_STATUS: c_int = mpich 17, standard 19, ompi 18;
    /// Pending request.
    MPI_ERR_PENDING: c_int = mpich 18, standard 18, ompi 19;
    /// Invalid request handle.
    MPI_ERR_REQUEST: c_int = mpich 19, standard 7, ompi 7;
    /// Permission denied.
    MPI_ERR_ACCESS: c_int = mpich 20, standard 20, ompi 20;
    /// Error related to the amode passed to `MPI_File_open`.
    MPI_ERR_AMODE: c_int = mpich 21, standard 21, ompi 21;
    /// Invalid file name.
    MPI_ERR_BAD_FILE: c_int = mpich 22, standard 23, ompi 23;
    /// An error occurred in a user-supplied data conversion function.
    MPI_ERR_CONVERSION: c_int = mpich 23, standard 25, ompi 25;
    /// Conversion functions could not be registered because the data representation exists.
    MPI_ERR_DUP_DATAREP: c_int = mpich 24, standard 27, ompi 27;
    /// File exists.
    MPI_ERR_FILE_EXISTS: c_int = mpich 25, standard 28, ompi 28;
    /// File operation could not be completed, the file is in use.
    MPI_ERR_FILE_IN_USE: c_int = mpich 26, standard 29, ompi 29;
    /// Invalid file handle.
    MPI_ERR_FILE: c_int = mpich 27, standard 30, ompi 30;
    /// Invalid info object.
    MPI_ERR_INFO: c_int = mpich 28, standard 34, ompi 34;
    /// Key longer than `MPI_MAX_INFO_KEY`.
    MPI_ERR_INFO_KEY: c_int = mpich 29, standard 31, ompi 31;
    /// Value longer than `MPI_MAX_INFO_VAL`.
    MPI_ERR_INFO_VALUE: c_int = mpich 30, standard 33, ompi 33;
    /// Invalid key passed to `MPI_Info_delete`.
    MPI_ERR_INFO_NOKEY: c_int = mpich 31, standard 32, ompi 32;
    /// Other I/O error.
    MPI_ERR_IO: c_int = mpich 32, standard 35, ompi 35;
    /// Invalid service name.
    MPI_ERR_NAME: c_int = mpich 33, standard 38, ompi 38;
    /// Memory could not be allocated.
    MPI_ERR_NO_MEM: c_int = mpich 34, standard 39, ompi 39;
    /// Collective argument not identical on all processes.
    MPI_ERR_NOT_SAME: c_int = mpich 35, standard 40, ompi 40;
    /// Not enough space.
    MPI_ERR_NO_SPACE: c_int = mpich 36, standard 41, ompi 41;
    /// File does not exist.
    MPI_ERR_NO_SUCH_FILE: c_int = mpich 37, standard 42, ompi 42;
    /// Invalid port name.
    MPI_ERR_PORT: c_int = mpich 38, standard 43, ompi 43;
    /// Quota exceeded.
    MPI_ERR_QUOTA: c_int = mpich 39, standard 44, ompi 44;
    /// Read-only file or file system.
    MPI_ERR_READ_ONLY: c_int = mpich 40, standard 45, ompi 45;
    /// Error in publishing or unpublishing a service name.
    MPI_ERR_SERVICE: c_int = mpich 41, standard 51, ompi 48;
    /// Error in spawning processes.
    MPI_ERR_SPAWN: c_int = mpich 42, standard 53, ompi 50;
    /// Unsupported data representation.
    MPI_ERR_UNSUPPORTED_DATAREP: c_int = mpich 43, standard 54, ompi 51;
    /// Unsupported operation.
    MPI_ERR_UNSUPPORTED_OPERATION: c_int = mpich 44, standard 55, ompi 52;
    /// Invalid window.
    MPI_ERR_WIN: c_int = mpich 45, standard 56, ompi 53;
    /// Invalid base.
    MPI_ERR_BASE: c_int = mpich 46, standard 24, ompi 24;
    /// Invalid lock type.
    MPI_ERR_LOCKTYPE: c_int = mpich 47, standard 37, ompi 37;
    /// Invalid attribute key.
    MPI_ERR_KEYVAL: c_int = mpich 48, standard 36, ompi 36;
    /// Conflicting accesses to a window.
    MPI_ERR_RMA_CONFLICT: c_int = mpich 49, standard 47, ompi 46;
    /// Wrong synchronization of RMA calls.
    MPI_ERR_RMA_SYNC: c_int = mpich 50, standard 50, ompi 47;
    /// Invalid size argument.
    MPI_ERR_SIZE: c_int = mpich 51, standard 52, ompi 49;
    /// Invalid displacement argument.
    MPI_ERR_DISP: c_int = mpich 52, standard 26, ompi 26;
    /// Invalid assert argument.
    MPI_ERR_ASSERT: c_int = mpich 53, standard 22, ompi 22;
    /// Target memory is not part of the window.
    MPI_ERR_RMA_RANGE: c_int = mpich 55, standard 48, ompi 68;
    /// Memory cannot be attached.
    MPI_ERR_RMA_ATTACH: c_int = mpich 56, standard 46, ompi 69;
    /// Memory cannot be shared.
    MPI_ERR_RMA_SHARED: c_int = mpich 57, standard 49, ompi 71;
    /// Passed window has the wrong flavor.
    MPI_ERR_RMA_FLAVOR: c_int = mpich 58, standard 57, ompi 70;
    /// Invalid session handle.
    MPI_ERR_SESSION: c_int = mpich 75, standard 60, ompi 78;
    /// Invalid error handler (MPI-4.1).
    MPI_ERR_ERRHANDLER: c_int = standard 61;
    /// Error in an ABI query or setting (MPI-5.0).
    MPI_ERR_ABI: c_int = standard 62;
    /// Communication with an aborted process.
    MPI_ERR_PROC_ABORTED: c_int = mpich 76, standard 58, ompi 74;
    /// A value is too large to store.
    MPI_ERR_VALUE_TOO_LARGE: c_int = mpich 77, standard 59, ompi 79;
    /// Last valid error code of a predefined error class (the standard ABI's value: half of the
    /// least `INT_MAX` C allows).
    MPI_ERR_LASTCODE: c_int = mpich 0x3fffffff, standard 0x3fff, ompi 92;
}
