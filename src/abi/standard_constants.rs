// The constants of the MPI-5.0 standard ABI (MPI-5.0 chapter 21 and Annex A): the same
// table format as `src/abi/mpich_constants.rs` (MPICH's ABI), read the same two ways: by the
// library through its definition of the `abi_constants!` macro, and by the header generator
// through its own. Each entry is `NAME: TYPE = VALUE;` with its doc comment; a VALUE that is
// another constant's NAME is an alias (the header defines it by name).
//
// Handle constants are written as integers under their handle type (`MPI_DOUBLE:
// MPI_Datatype = 0x214;`): in C the handle types are pointers to incomplete structs and the
// header writes `((MPI_Datatype)0x214)`; in Rust they are the types of
// `src/abi/standard.rs`. Every value here equals the one in MPICH 5.0.2's `mpi_abi.h`
// and in the standard's own header (mpi-forum/mpi-abi-stubs); `scripts/check_abi_standard.py`
// checks it.
//
// The names are those of `src/abi/mpich_constants.rs`, minus what the standard ABI no longer
// defines (the markers `MPI_LB` / `MPI_UB`, the combiners `MPI_COMBINER_HVECTOR_INTEGER`,
// `MPI_COMBINER_HINDEXED_INTEGER` and `MPI_COMBINER_STRUCT_INTEGER`, and MPICH's extension
// `MPIX_C_FLOAT16`, which MPICH's `mpi_abi.h` does not define), plus what MPI-4.1 and 5.0
// added to the datatype chapter: `MPI_COMBINER_VALUE_INDEX`, the optional Fortran types
// `MPI_LOGICAL1` ... `MPI_LOGICAL16`, `MPI_REAL2` and `MPI_COMPLEX4`, the error classes
// `MPI_ERR_ERRHANDLER` and `MPI_ERR_ABI`, and `MPI_ABI_VERSION` / `MPI_ABI_SUBVERSION`.
//
// Predefined datatypes for which the library has no basic type yet are marked "No type in
// mpi-dtype yet" in their doc comment. The standard requires every datatype handle to be
// defined; an implementation without the type answers `MPI_UNDEFINED` from `MPI_Type_size`
// (MPI-5.0, chapter 21, on the Fortran ABI).
abi_constants! {
    // ---- null handles -------------------------------------------------------------------------

    /// The null datatype handle.
    MPI_DATATYPE_NULL: MPI_Datatype = 0x200;
    /// The null communicator handle.
    MPI_COMM_NULL: MPI_Comm = 0x100;
    /// The null error handler handle.
    MPI_ERRHANDLER_NULL: MPI_Errhandler = 0x140;

    // ---- predefined datatypes: sizes fixed by the platform ABI (bit 6 clear) -----------------

    /// `MPI_Aint` (language-independent).
    MPI_AINT: MPI_Datatype = 0x201;
    /// `MPI_Count` (language-independent).
    MPI_COUNT: MPI_Datatype = 0x202;
    /// `MPI_Offset` (language-independent).
    MPI_OFFSET: MPI_Datatype = 0x203;
    /// Packed bytes (language-independent).
    MPI_PACKED: MPI_Datatype = 0x207;
    /// C `short`.
    MPI_SHORT: MPI_Datatype = 0x208;
    /// C `int`.
    MPI_INT: MPI_Datatype = 0x209;
    /// C `long`.
    MPI_LONG: MPI_Datatype = 0x20a;
    /// C `long long`.
    MPI_LONG_LONG: MPI_Datatype = 0x20b;
    /// C `long long` (alias of `MPI_LONG_LONG`: in the standard ABI the short name is the
    /// primary one).
    MPI_LONG_LONG_INT: MPI_Datatype = MPI_LONG_LONG;
    /// C `unsigned short`.
    MPI_UNSIGNED_SHORT: MPI_Datatype = 0x20c;
    /// C `unsigned int`.
    MPI_UNSIGNED: MPI_Datatype = 0x20d;
    /// C `unsigned long`.
    MPI_UNSIGNED_LONG: MPI_Datatype = 0x20e;
    /// C `unsigned long long`.
    MPI_UNSIGNED_LONG_LONG: MPI_Datatype = 0x20f;
    /// C `float`.
    MPI_FLOAT: MPI_Datatype = 0x210;
    /// C `float _Complex`.
    MPI_C_FLOAT_COMPLEX: MPI_Datatype = 0x212;
    /// C `float _Complex` (alias of `MPI_C_FLOAT_COMPLEX`).
    MPI_C_COMPLEX: MPI_Datatype = MPI_C_FLOAT_COMPLEX;
    /// C++ `std::complex<float>`.
    MPI_CXX_FLOAT_COMPLEX: MPI_Datatype = 0x213;
    /// C `double`.
    MPI_DOUBLE: MPI_Datatype = 0x214;
    /// C `double _Complex`.
    MPI_C_DOUBLE_COMPLEX: MPI_Datatype = 0x216;
    /// C++ `std::complex<double>`.
    MPI_CXX_DOUBLE_COMPLEX: MPI_Datatype = 0x217;
    /// Fortran `LOGICAL`.
    MPI_LOGICAL: MPI_Datatype = 0x218;
    /// Fortran `INTEGER`.
    MPI_INTEGER: MPI_Datatype = 0x219;
    /// Fortran `REAL`.
    MPI_REAL: MPI_Datatype = 0x21a;
    /// Fortran `COMPLEX`.
    MPI_COMPLEX: MPI_Datatype = 0x21b;
    /// Fortran `DOUBLE PRECISION`.
    MPI_DOUBLE_PRECISION: MPI_Datatype = 0x21c;
    /// Fortran `DOUBLE COMPLEX`.
    MPI_DOUBLE_COMPLEX: MPI_Datatype = 0x21d;
    /// Fortran `CHARACTER`.
    MPI_CHARACTER: MPI_Datatype = 0x21e;
    /// C `long double`.
    MPI_LONG_DOUBLE: MPI_Datatype = 0x220;
    /// C `long double _Complex`.
    MPI_C_LONG_DOUBLE_COMPLEX: MPI_Datatype = 0x224;
    /// C++ `std::complex<long double>`.
    MPI_CXX_LONG_DOUBLE_COMPLEX: MPI_Datatype = 0x225;
    /// `struct { float; int; }`.
    MPI_FLOAT_INT: MPI_Datatype = 0x228;
    /// `struct { double; int; }`.
    MPI_DOUBLE_INT: MPI_Datatype = 0x229;
    /// `struct { long; int; }`.
    MPI_LONG_INT: MPI_Datatype = 0x22a;
    /// `struct { int; int; }`.
    MPI_2INT: MPI_Datatype = 0x22b;
    /// `struct { short; int; }`.
    MPI_SHORT_INT: MPI_Datatype = 0x22c;
    /// `struct { long double; int; }`.
    MPI_LONG_DOUBLE_INT: MPI_Datatype = 0x22d;
    /// Pair of Fortran `REAL`.
    MPI_2REAL: MPI_Datatype = 0x230;
    /// Pair of Fortran `DOUBLE PRECISION`.
    MPI_2DOUBLE_PRECISION: MPI_Datatype = 0x231;
    /// Pair of Fortran `INTEGER`.
    MPI_2INTEGER: MPI_Datatype = 0x232;
    /// C `_Bool`.
    MPI_C_BOOL: MPI_Datatype = 0x238;
    /// C++ `bool`.
    MPI_CXX_BOOL: MPI_Datatype = 0x239;
    /// C `wchar_t`.
    MPI_WCHAR: MPI_Datatype = 0x23c;

    // ---- predefined datatypes: fixed-size C types (bits 7:6 = 01, bits 5:3 = log2 size) -------

    /// C `int8_t`.
    MPI_INT8_T: MPI_Datatype = 0x240;
    /// C `uint8_t`.
    MPI_UINT8_T: MPI_Datatype = 0x241;
    /// C `char`.
    MPI_CHAR: MPI_Datatype = 0x243;
    /// C `signed char`.
    MPI_SIGNED_CHAR: MPI_Datatype = 0x244;
    /// C `unsigned char`.
    MPI_UNSIGNED_CHAR: MPI_Datatype = 0x245;
    /// Untyped byte.
    MPI_BYTE: MPI_Datatype = 0x247;
    /// C `int16_t`.
    MPI_INT16_T: MPI_Datatype = 0x248;
    /// C `uint16_t`.
    MPI_UINT16_T: MPI_Datatype = 0x249;
    /// C `int32_t`.
    MPI_INT32_T: MPI_Datatype = 0x250;
    /// C `uint32_t`.
    MPI_UINT32_T: MPI_Datatype = 0x251;
    /// C `int64_t`.
    MPI_INT64_T: MPI_Datatype = 0x258;
    /// C `uint64_t`.
    MPI_UINT64_T: MPI_Datatype = 0x259;

    // ---- predefined datatypes: fixed-size Fortran types (bits 7:6 = 11, bits 5:3 = log2 size) -

    /// Fortran `LOGICAL*1`. No type in mpi-dtype yet.
    MPI_LOGICAL1: MPI_Datatype = 0x2c0;
    /// Fortran `INTEGER*1`.
    MPI_INTEGER1: MPI_Datatype = 0x2c1;
    /// Fortran `LOGICAL*2`. No type in mpi-dtype yet.
    MPI_LOGICAL2: MPI_Datatype = 0x2c8;
    /// Fortran `INTEGER*2`.
    MPI_INTEGER2: MPI_Datatype = 0x2c9;
    /// Fortran `REAL*2` (IEEE binary16). No type in mpi-dtype yet.
    MPI_REAL2: MPI_Datatype = 0x2ca;
    /// Fortran `LOGICAL*4`. No type in mpi-dtype yet.
    MPI_LOGICAL4: MPI_Datatype = 0x2d0;
    /// Fortran `INTEGER*4`.
    MPI_INTEGER4: MPI_Datatype = 0x2d1;
    /// Fortran `REAL*4`.
    MPI_REAL4: MPI_Datatype = 0x2d2;
    /// Fortran `COMPLEX*4` (two `REAL*2`). No type in mpi-dtype yet.
    MPI_COMPLEX4: MPI_Datatype = 0x2d3;
    /// Fortran `LOGICAL*8`. No type in mpi-dtype yet.
    MPI_LOGICAL8: MPI_Datatype = 0x2d8;
    /// Fortran `INTEGER*8`.
    MPI_INTEGER8: MPI_Datatype = 0x2d9;
    /// Fortran `REAL*8`.
    MPI_REAL8: MPI_Datatype = 0x2da;
    /// Fortran `COMPLEX*8`.
    MPI_COMPLEX8: MPI_Datatype = 0x2db;
    /// Fortran `LOGICAL*16`. No type in mpi-dtype yet.
    MPI_LOGICAL16: MPI_Datatype = 0x2e0;
    /// Fortran `INTEGER*16`. No type in mpi-dtype yet (MPICH's ABI makes it the null handle;
    /// the standard ABI gives it a value).
    MPI_INTEGER16: MPI_Datatype = 0x2e1;
    /// Fortran `REAL*16`.
    MPI_REAL16: MPI_Datatype = 0x2e2;
    /// Fortran `COMPLEX*16`.
    MPI_COMPLEX16: MPI_Datatype = 0x2e3;
    /// Fortran `COMPLEX*32`.
    MPI_COMPLEX32: MPI_Datatype = 0x2eb;

    // ---- type classes for MPI_Type_match_size -------------------------------------------------

    /// Type class of integer types.
    MPI_TYPECLASS_INTEGER: c_int = 192;
    /// Type class of real (floating-point) types.
    MPI_TYPECLASS_REAL: c_int = 193;
    /// Type class of complex types.
    MPI_TYPECLASS_COMPLEX: c_int = 194;

    // ---- communicators and error handlers -----------------------------------------------------

    /// The communicator of all processes.
    MPI_COMM_WORLD: MPI_Comm = 0x101;
    /// The communicator of this process alone.
    MPI_COMM_SELF: MPI_Comm = 0x102;
    /// Error handler that prints the error and aborts (the default).
    MPI_ERRORS_ARE_FATAL: MPI_Errhandler = 0x141;
    /// Error handler that aborts the processes of the communicator (MPI-4). Intel MPI
    /// 2021.19's `mpi_abi.h` and library swap this value with `MPI_ERRORS_RETURN`'s.
    MPI_ERRORS_ABORT: MPI_Errhandler = 0x142;
    /// Error handler that returns the error code to the caller.
    MPI_ERRORS_RETURN: MPI_Errhandler = 0x143;

    // ---- point-to-point -----------------------------------------------------------------------

    /// The null request handle.
    MPI_REQUEST_NULL: MPI_Request = 0x180;
    /// The null message handle.
    MPI_MESSAGE_NULL: MPI_Message = 0x128;
    /// The message `MPI_Mprobe` matches from `MPI_PROC_NULL`.
    MPI_MESSAGE_NO_PROC: MPI_Message = 0x129;
    /// A receive's source that matches a message from any process.
    MPI_ANY_SOURCE: c_int = -1;
    /// A receive's tag that matches a message of any tag.
    MPI_ANY_TAG: c_int = -2;
    /// The null process: a send to it or a receive from it completes at once and moves nothing.
    MPI_PROC_NULL: c_int = -3;
    /// The root's argument in the root group of an intercommunicator.
    MPI_ROOT: c_int = -4;
    /// The bytes a buffered send takes in the attached buffer beyond its packed data.
    MPI_BSEND_OVERHEAD: c_int = 512;
    /// Attribute key of the largest tag a message may carry.
    MPI_TAG_UB: c_int = 501;

    // ---- groups and communicators ------------------------------------------------------------

    /// The null group handle.
    MPI_GROUP_NULL: MPI_Group = 0x108;
    /// The group of no process.
    MPI_GROUP_EMPTY: MPI_Group = 0x109;
    /// `MPI_Comm_compare` / `MPI_Group_compare`: the same object.
    MPI_IDENT: c_int = 201;
    /// `MPI_Comm_compare`: the same group, in another context.
    MPI_CONGRUENT: c_int = 202;
    /// The same members in another order.
    MPI_SIMILAR: c_int = 203;
    /// Different members.
    MPI_UNEQUAL: c_int = 204;
    /// `MPI_Comm_split_type`: the processes that can share memory.
    MPI_COMM_TYPE_SHARED: c_int = 221;
    /// `MPI_Comm_split_type`: a split by the hardware, chosen by the library.
    MPI_COMM_TYPE_HW_UNGUIDED: c_int = 222;
    /// `MPI_Comm_split_type`: a split the info key `mpi_hw_resource_type` guides.
    MPI_COMM_TYPE_HW_GUIDED: c_int = 223;
    /// Attribute key of the host process's rank (`MPI_PROC_NULL` when there is none).
    MPI_HOST: c_int = 503;
    /// Attribute key of the rank that can do I/O (`MPI_ANY_SOURCE`: every one).
    MPI_IO: c_int = 502;
    /// Attribute key of whether the clocks of all processes agree.
    MPI_WTIME_IS_GLOBAL: c_int = 504;
    /// Attribute key of the number of processes the job may have.
    MPI_UNIVERSE_SIZE: c_int = 507;
    /// Attribute key of the last error code or class the program added.
    MPI_LASTUSEDCODE: c_int = 506;
    /// Attribute key of the number of the program among those started together.
    MPI_APPNUM: c_int = 505;

    // ---- topologies ---------------------------------------------------------------------------

    /// `MPI_Topo_test`: a Cartesian topology.
    MPI_CART: c_int = 211;
    /// `MPI_Topo_test`: a graph topology.
    MPI_GRAPH: c_int = 212;
    /// `MPI_Topo_test`: a distributed graph topology.
    MPI_DIST_GRAPH: c_int = 213;

    // ---- sessions ------------------------------------------------------------------------------

    /// The null session handle.
    MPI_SESSION_NULL: MPI_Session = 0x120;
    /// The longest name of a process set, with its terminating NUL.
    MPI_MAX_PSET_NAME_LEN: c_int = 1024;
    /// The longest tag `MPI_Comm_create_from_group` takes, with its terminating NUL.
    MPI_MAX_STRINGTAG_LEN: c_int = 1024;

    // ---- the tool information interface (MPI_T) -------------------------------------------

    /// Verbosity: basic information for users.
    MPI_T_VERBOSITY_USER_BASIC: c_int = 9;
    /// Verbosity: detailed information for users.
    MPI_T_VERBOSITY_USER_DETAIL: c_int = 10;
    /// Verbosity: all information for users.
    MPI_T_VERBOSITY_USER_ALL: c_int = 12;
    /// Verbosity: basic information for tuners.
    MPI_T_VERBOSITY_TUNER_BASIC: c_int = 17;
    /// Verbosity: detailed information for tuners.
    MPI_T_VERBOSITY_TUNER_DETAIL: c_int = 18;
    /// Verbosity: all information for tuners.
    MPI_T_VERBOSITY_TUNER_ALL: c_int = 20;
    /// Verbosity: basic information for MPI developers.
    MPI_T_VERBOSITY_MPIDEV_BASIC: c_int = 33;
    /// Verbosity: detailed information for MPI developers.
    MPI_T_VERBOSITY_MPIDEV_DETAIL: c_int = 34;
    /// Verbosity: all information for MPI developers.
    MPI_T_VERBOSITY_MPIDEV_ALL: c_int = 36;
    /// A variable bound to no object.
    MPI_T_BIND_NO_OBJECT: c_int = 1;
    /// A variable bound to an `MPI_COMM` object.
    MPI_T_BIND_MPI_COMM: c_int = 2;
    /// A variable bound to an `MPI_DATATYPE` object.
    MPI_T_BIND_MPI_DATATYPE: c_int = 3;
    /// A variable bound to an `MPI_ERRHANDLER` object.
    MPI_T_BIND_MPI_ERRHANDLER: c_int = 4;
    /// A variable bound to an `MPI_FILE` object.
    MPI_T_BIND_MPI_FILE: c_int = 5;
    /// A variable bound to an `MPI_GROUP` object.
    MPI_T_BIND_MPI_GROUP: c_int = 6;
    /// A variable bound to an `MPI_OP` object.
    MPI_T_BIND_MPI_OP: c_int = 7;
    /// A variable bound to an `MPI_REQUEST` object.
    MPI_T_BIND_MPI_REQUEST: c_int = 8;
    /// A variable bound to an `MPI_WIN` object.
    MPI_T_BIND_MPI_WIN: c_int = 9;
    /// A variable bound to an `MPI_MESSAGE` object.
    MPI_T_BIND_MPI_MESSAGE: c_int = 10;
    /// A variable bound to an `MPI_INFO` object.
    MPI_T_BIND_MPI_INFO: c_int = 11;
    /// A variable that is read-only and never changes.
    MPI_T_SCOPE_CONSTANT: c_int = 1;
    /// A variable that is read-only.
    MPI_T_SCOPE_READONLY: c_int = 2;
    /// A variable each process may set on its own.
    MPI_T_SCOPE_LOCAL: c_int = 3;
    /// A variable the processes of a group must set together.
    MPI_T_SCOPE_GROUP: c_int = 4;
    /// A variable the processes of a group must set together, to one value.
    MPI_T_SCOPE_GROUP_EQ: c_int = 5;
    /// A variable every process must set together.
    MPI_T_SCOPE_ALL: c_int = 6;
    /// A variable every process must set together, to one value.
    MPI_T_SCOPE_ALL_EQ: c_int = 7;
    /// A performance variable of the class state.
    MPI_T_PVAR_CLASS_STATE: c_int = 1;
    /// A performance variable of the class level.
    MPI_T_PVAR_CLASS_LEVEL: c_int = 2;
    /// A performance variable of the class size.
    MPI_T_PVAR_CLASS_SIZE: c_int = 3;
    /// A performance variable of the class percentage.
    MPI_T_PVAR_CLASS_PERCENTAGE: c_int = 4;
    /// A performance variable of the class highwatermark.
    MPI_T_PVAR_CLASS_HIGHWATERMARK: c_int = 5;
    /// A performance variable of the class lowwatermark.
    MPI_T_PVAR_CLASS_LOWWATERMARK: c_int = 6;
    /// A performance variable of the class counter.
    MPI_T_PVAR_CLASS_COUNTER: c_int = 7;
    /// A performance variable of the class aggregate.
    MPI_T_PVAR_CLASS_AGGREGATE: c_int = 8;
    /// A performance variable of the class timer.
    MPI_T_PVAR_CLASS_TIMER: c_int = 9;
    /// A performance variable of the class generic.
    MPI_T_PVAR_CLASS_GENERIC: c_int = 10;
    /// MPI_T: the interface cannot be initialized now.
    MPI_T_ERR_CANNOT_INIT: c_int = 1001;
    /// MPI_T: the variable is not accessible.
    MPI_T_ERR_NOT_ACCESSIBLE: c_int = 1002;
    /// MPI_T: the interface is not initialized.
    MPI_T_ERR_NOT_INITIALIZED: c_int = 1003;
    /// MPI_T: the function is not supported.
    MPI_T_ERR_NOT_SUPPORTED: c_int = 1004;
    /// MPI_T: out of memory.
    MPI_T_ERR_MEMORY: c_int = 1005;
    /// MPI_T: an invalid use of the interface.
    MPI_T_ERR_INVALID: c_int = 1006;
    /// MPI_T: the index is not one of a variable or category.
    MPI_T_ERR_INVALID_INDEX: c_int = 1007;
    /// MPI_T: the item index is out of range (deprecated).
    MPI_T_ERR_INVALID_ITEM: c_int = 1008;
    /// MPI_T: the session is not one.
    MPI_T_ERR_INVALID_SESSION: c_int = 1009;
    /// MPI_T: the handle is not one.
    MPI_T_ERR_INVALID_HANDLE: c_int = 1010;
    /// MPI_T: no variable or category has the name.
    MPI_T_ERR_INVALID_NAME: c_int = 1011;
    /// MPI_T: no more handles.
    MPI_T_ERR_OUT_OF_HANDLES: c_int = 1012;
    /// MPI_T: no more sessions.
    MPI_T_ERR_OUT_OF_SESSIONS: c_int = 1013;
    /// MPI_T: the control variable cannot be set now.
    MPI_T_ERR_CVAR_SET_NOT_NOW: c_int = 1014;
    /// MPI_T: the control variable cannot be set.
    MPI_T_ERR_CVAR_SET_NEVER: c_int = 1015;
    /// MPI_T: the performance variable cannot be written or reset.
    MPI_T_ERR_PVAR_NO_WRITE: c_int = 1016;
    /// MPI_T: the performance variable cannot be started or stopped.
    MPI_T_ERR_PVAR_NO_STARTSTOP: c_int = 1017;
    /// MPI_T: the performance variable cannot be read and written atomically.
    MPI_T_ERR_PVAR_NO_ATOMIC: c_int = 1018;

    // ---- one-sided communication --------------------------------------------------------------

    /// The null window handle.
    MPI_WIN_NULL: MPI_Win = 0x110;
    /// Attribute key of a window's base address.
    MPI_WIN_BASE: c_int = 601;
    /// Attribute key of a window's size in bytes.
    MPI_WIN_SIZE: c_int = 603;
    /// Attribute key of a window's displacement unit.
    MPI_WIN_DISP_UNIT: c_int = 602;
    /// Attribute key of how a window was made (`MPI_WIN_FLAVOR_*`).
    MPI_WIN_CREATE_FLAVOR: c_int = 604;
    /// Attribute key of a window's memory model (`MPI_WIN_SEPARATE` or `MPI_WIN_UNIFIED`).
    MPI_WIN_MODEL: c_int = 605;
    /// A window made by `MPI_Win_create` over the program's memory.
    MPI_WIN_FLAVOR_CREATE: c_int = 311;
    /// A window made by `MPI_Win_allocate` over memory the library allocated.
    MPI_WIN_FLAVOR_ALLOCATE: c_int = 312;
    /// A window made by `MPI_Win_create_dynamic`, memory attached to it later.
    MPI_WIN_FLAVOR_DYNAMIC: c_int = 313;
    /// A window made by `MPI_Win_allocate_shared` over memory its processes share.
    MPI_WIN_FLAVOR_SHARED: c_int = 314;
    /// The memory model whose public and private copies of a window are separate.
    MPI_WIN_SEPARATE: c_int = 322;
    /// The memory model whose public and private copies of a window are one.
    MPI_WIN_UNIFIED: c_int = 321;
    /// `MPI_Win_lock`: a lock no other process holds at the same time.
    MPI_LOCK_EXCLUSIVE: c_int = 301;
    /// `MPI_Win_lock`: a lock other processes may hold at the same time.
    MPI_LOCK_SHARED: c_int = 302;
    /// Assertion: no other process holds or attempts a conflicting lock.
    MPI_MODE_NOCHECK: c_int = 1024;
    /// Assertion: the local window was not updated by stores since the last synchronisation.
    MPI_MODE_NOSTORE: c_int = 8192;
    /// Assertion: the local window will not be updated by puts or accumulates until the next
    /// synchronisation.
    MPI_MODE_NOPUT: c_int = 4096;
    /// Assertion: the fence completes no sequence of locally issued RMA calls.
    MPI_MODE_NOPRECEDE: c_int = 2048;
    /// Assertion: the fence starts no sequence of locally issued RMA calls.
    MPI_MODE_NOSUCCEED: c_int = 16384;

    // ---- reduction operations -----------------------------------------------------------------

    /// The null operation handle.
    MPI_OP_NULL: MPI_Op = 0x20;
    /// Maximum.
    MPI_MAX: MPI_Op = 0x23;
    /// Minimum.
    MPI_MIN: MPI_Op = 0x22;
    /// Sum.
    MPI_SUM: MPI_Op = 0x21;
    /// Product.
    MPI_PROD: MPI_Op = 0x24;
    /// Logical and.
    MPI_LAND: MPI_Op = 0x30;
    /// Bitwise and.
    MPI_BAND: MPI_Op = 0x28;
    /// Logical or.
    MPI_LOR: MPI_Op = 0x31;
    /// Bitwise or.
    MPI_BOR: MPI_Op = 0x29;
    /// Logical exclusive or.
    MPI_LXOR: MPI_Op = 0x32;
    /// Bitwise exclusive or.
    MPI_BXOR: MPI_Op = 0x2a;
    /// Minimum of value-index pairs, and its index.
    MPI_MINLOC: MPI_Op = 0x38;
    /// Maximum of value-index pairs, and its index.
    MPI_MAXLOC: MPI_Op = 0x39;
    /// The origin's data (one-sided accumulation).
    MPI_REPLACE: MPI_Op = 0x3c;
    /// The target's data, unchanged (one-sided accumulation).
    MPI_NO_OP: MPI_Op = 0x3d;

    // ---- combiners ----------------------------------------------------------------------------

    /// A named predefined datatype.
    MPI_COMBINER_NAMED: c_int = 101;
    /// `MPI_Type_dup`.
    MPI_COMBINER_DUP: c_int = 102;
    /// `MPI_Type_contiguous`.
    MPI_COMBINER_CONTIGUOUS: c_int = 103;
    /// `MPI_Type_vector`.
    MPI_COMBINER_VECTOR: c_int = 104;
    /// `MPI_Type_create_hvector`.
    MPI_COMBINER_HVECTOR: c_int = 105;
    /// `MPI_Type_indexed`.
    MPI_COMBINER_INDEXED: c_int = 106;
    /// `MPI_Type_create_hindexed`.
    MPI_COMBINER_HINDEXED: c_int = 107;
    /// `MPI_Type_create_indexed_block`.
    MPI_COMBINER_INDEXED_BLOCK: c_int = 108;
    /// `MPI_Type_create_hindexed_block`.
    MPI_COMBINER_HINDEXED_BLOCK: c_int = 109;
    /// `MPI_Type_create_struct`.
    MPI_COMBINER_STRUCT: c_int = 110;
    /// `MPI_Type_create_subarray`.
    MPI_COMBINER_SUBARRAY: c_int = 111;
    /// `MPI_Type_create_darray`.
    MPI_COMBINER_DARRAY: c_int = 112;
    /// `MPI_Type_create_f90_real`.
    MPI_COMBINER_F90_REAL: c_int = 113;
    /// `MPI_Type_create_f90_complex`.
    MPI_COMBINER_F90_COMPLEX: c_int = 114;
    /// `MPI_Type_create_f90_integer`.
    MPI_COMBINER_F90_INTEGER: c_int = 115;
    /// `MPI_Type_create_resized`.
    MPI_COMBINER_RESIZED: c_int = 116;
    /// A pair type returned by `MPI_Type_get_value_index` that is not predefined (MPI-4.1).
    MPI_COMBINER_VALUE_INDEX: c_int = 117;

    // ---- subarray and darray ------------------------------------------------------------------

    /// Row-major array order.
    MPI_ORDER_C: c_int = 0xC;
    /// Column-major array order.
    MPI_ORDER_FORTRAN: c_int = 0xF;
    /// No distribution of a darray dimension.
    MPI_DISTRIBUTE_NONE: c_int = 16;
    /// Block distribution of a darray dimension.
    MPI_DISTRIBUTE_BLOCK: c_int = 17;
    /// Cyclic distribution of a darray dimension.
    MPI_DISTRIBUTE_CYCLIC: c_int = 18;
    /// Default distribution argument of a darray dimension.
    MPI_DISTRIBUTE_DFLT_DARG: c_int = 19;

    // ---- miscellaneous constants --------------------------------------------------------------

    /// Returned where a value is undefined (for example a size that does not fit an `int`,
    /// or the size of an optional datatype the library does not support).
    MPI_UNDEFINED: c_int = -32766;
    /// Longest datatype or communicator name, including the terminating NUL.
    MPI_MAX_OBJECT_NAME: c_int = 128;
    /// The null info handle.
    MPI_INFO_NULL: MPI_Info = 0x130;
    /// The info object of the execution environment.
    MPI_INFO_ENV: MPI_Info = 0x131;
    /// Longest info key, not counting the NUL.
    MPI_MAX_INFO_KEY: c_int = 256;
    /// Longest info value, not counting the NUL.
    MPI_MAX_INFO_VAL: c_int = 1024;
    /// Longest error string, including the terminating NUL.
    MPI_MAX_ERROR_STRING: c_int = 512;
    /// Longest library version string, including the terminating NUL.
    MPI_MAX_LIBRARY_VERSION_STRING: c_int = 8192;
    /// Longest processor name (the standard ABI's bound: 256, where MPICH's ABI has 128).
    MPI_MAX_PROCESSOR_NAME: c_int = 256;
    /// The invalid attribute key.
    MPI_KEYVAL_INVALID: c_int = 0;
    /// Version of the MPI standard the standard ABI belongs to.
    MPI_VERSION: c_int = 5;
    /// Subversion of the MPI standard the standard ABI belongs to.
    MPI_SUBVERSION: c_int = 0;
    /// Major version of the standard ABI (`MPI_Abi_get_version` returns it).
    MPI_ABI_VERSION: c_int = 1;
    /// Minor version of the standard ABI (`MPI_Abi_get_version` returns it).
    MPI_ABI_SUBVERSION: c_int = 0;
    /// Only one thread will execute.
    MPI_THREAD_SINGLE: c_int = 0;
    /// Only the main thread makes MPI calls.
    MPI_THREAD_FUNNELED: c_int = 1024;
    /// Only one thread at a time makes MPI calls.
    MPI_THREAD_SERIALIZED: c_int = 2048;
    /// Any thread may call MPI at any time.
    MPI_THREAD_MULTIPLE: c_int = 4096;

    // ---- error classes ------------------------------------------------------------------------

    /// Successful return code.
    MPI_SUCCESS: c_int = 0;
    /// Invalid buffer pointer.
    MPI_ERR_BUFFER: c_int = 1;
    /// Invalid count argument.
    MPI_ERR_COUNT: c_int = 2;
    /// Invalid datatype argument.
    MPI_ERR_TYPE: c_int = 3;
    /// Invalid tag argument.
    MPI_ERR_TAG: c_int = 4;
    /// Invalid communicator.
    MPI_ERR_COMM: c_int = 5;
    /// Invalid rank.
    MPI_ERR_RANK: c_int = 6;
    /// Invalid request handle.
    MPI_ERR_REQUEST: c_int = 7;
    /// Invalid root.
    MPI_ERR_ROOT: c_int = 8;
    /// Invalid group.
    MPI_ERR_GROUP: c_int = 9;
    /// Invalid operation.
    MPI_ERR_OP: c_int = 10;
    /// Invalid topology.
    MPI_ERR_TOPOLOGY: c_int = 11;
    /// Invalid dimension argument.
    MPI_ERR_DIMS: c_int = 12;
    /// Invalid argument of some other kind.
    MPI_ERR_ARG: c_int = 13;
    /// Unknown error.
    MPI_ERR_UNKNOWN: c_int = 14;
    /// Message truncated (also: not enough room to pack or data to unpack).
    MPI_ERR_TRUNCATE: c_int = 15;
    /// Known error not in this list.
    MPI_ERR_OTHER: c_int = 16;
    /// Internal MPI (implementation) error.
    MPI_ERR_INTERN: c_int = 17;
    /// Pending request.
    MPI_ERR_PENDING: c_int = 18;
    /// Error code is in status.
    MPI_ERR_IN_STATUS: c_int = 19;
    /// Permission denied.
    MPI_ERR_ACCESS: c_int = 20;
    /// Error related to the amode passed to `MPI_File_open`.
    MPI_ERR_AMODE: c_int = 21;
    /// Invalid assert argument.
    MPI_ERR_ASSERT: c_int = 22;
    /// Invalid file name.
    MPI_ERR_BAD_FILE: c_int = 23;
    /// Invalid base.
    MPI_ERR_BASE: c_int = 24;
    /// An error occurred in a user-supplied data conversion function.
    MPI_ERR_CONVERSION: c_int = 25;
    /// Invalid displacement argument.
    MPI_ERR_DISP: c_int = 26;
    /// Conversion functions could not be registered because the data representation exists.
    MPI_ERR_DUP_DATAREP: c_int = 27;
    /// File exists.
    MPI_ERR_FILE_EXISTS: c_int = 28;
    /// File operation could not be completed, the file is in use.
    MPI_ERR_FILE_IN_USE: c_int = 29;
    /// Invalid file handle.
    MPI_ERR_FILE: c_int = 30;
    /// Key longer than `MPI_MAX_INFO_KEY`.
    MPI_ERR_INFO_KEY: c_int = 31;
    /// Invalid key passed to `MPI_Info_delete`.
    MPI_ERR_INFO_NOKEY: c_int = 32;
    /// Value longer than `MPI_MAX_INFO_VAL`.
    MPI_ERR_INFO_VALUE: c_int = 33;
    /// Invalid info object.
    MPI_ERR_INFO: c_int = 34;
    /// Other I/O error.
    MPI_ERR_IO: c_int = 35;
    /// Invalid attribute key.
    MPI_ERR_KEYVAL: c_int = 36;
    /// Invalid lock type.
    MPI_ERR_LOCKTYPE: c_int = 37;
    /// Invalid service name.
    MPI_ERR_NAME: c_int = 38;
    /// Memory could not be allocated.
    MPI_ERR_NO_MEM: c_int = 39;
    /// Collective argument not identical on all processes.
    MPI_ERR_NOT_SAME: c_int = 40;
    /// Not enough space.
    MPI_ERR_NO_SPACE: c_int = 41;
    /// File does not exist.
    MPI_ERR_NO_SUCH_FILE: c_int = 42;
    /// Invalid port name.
    MPI_ERR_PORT: c_int = 43;
    /// Quota exceeded.
    MPI_ERR_QUOTA: c_int = 44;
    /// Read-only file or file system.
    MPI_ERR_READ_ONLY: c_int = 45;
    /// Memory cannot be attached.
    MPI_ERR_RMA_ATTACH: c_int = 46;
    /// Conflicting accesses to a window.
    MPI_ERR_RMA_CONFLICT: c_int = 47;
    /// Target memory is not part of the window.
    MPI_ERR_RMA_RANGE: c_int = 48;
    /// Memory cannot be shared.
    MPI_ERR_RMA_SHARED: c_int = 49;
    /// Wrong synchronization of RMA calls.
    MPI_ERR_RMA_SYNC: c_int = 50;
    /// Error in publishing or unpublishing a service name.
    MPI_ERR_SERVICE: c_int = 51;
    /// Invalid size argument.
    MPI_ERR_SIZE: c_int = 52;
    /// Error in spawning processes.
    MPI_ERR_SPAWN: c_int = 53;
    /// Unsupported data representation.
    MPI_ERR_UNSUPPORTED_DATAREP: c_int = 54;
    /// Unsupported operation.
    MPI_ERR_UNSUPPORTED_OPERATION: c_int = 55;
    /// Invalid window.
    MPI_ERR_WIN: c_int = 56;
    /// Passed window has the wrong flavor.
    MPI_ERR_RMA_FLAVOR: c_int = 57;
    /// Communication with an aborted process.
    MPI_ERR_PROC_ABORTED: c_int = 58;
    /// A value is too large to store.
    MPI_ERR_VALUE_TOO_LARGE: c_int = 59;
    /// Invalid session handle.
    MPI_ERR_SESSION: c_int = 60;
    /// Invalid error handler (MPI-4.1).
    MPI_ERR_ERRHANDLER: c_int = 61;
    /// Error in an ABI query or setting (MPI-5.0).
    MPI_ERR_ABI: c_int = 62;
    /// Last valid error code of a predefined error class (the standard ABI's value: half of
    /// the least `INT_MAX` C allows).
    MPI_ERR_LASTCODE: c_int = 0x3fff;
}
