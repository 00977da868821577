// The constants of MPICH's ABI: one table that both the library (`src/abi/mpich.rs`) and the
// header generator (`build.rs`) read through their own definition of the `abi_constants!`
// macro. Each entry is `NAME: TYPE = VALUE;` with its doc comment; a VALUE that is another
// constant's NAME is an alias (the header defines it by name).
abi_constants! {
    // ---- null handles -------------------------------------------------------------------------

    /// The null datatype handle.
    MPI_DATATYPE_NULL: MPI_Datatype = 0x0c000000;
    /// The null communicator handle.
    MPI_COMM_NULL: MPI_Comm = 0x04000000;
    /// The null error handler handle.
    MPI_ERRHANDLER_NULL: MPI_Errhandler = 0x14000000;

    // ---- predefined datatypes -----------------------------------------------------------------

    /// C `char`.
    MPI_CHAR: MPI_Datatype = 0x4c000101;
    /// C `signed char`.
    MPI_SIGNED_CHAR: MPI_Datatype = 0x4c000118;
    /// C `unsigned char`.
    MPI_UNSIGNED_CHAR: MPI_Datatype = 0x4c000102;
    /// Untyped byte.
    MPI_BYTE: MPI_Datatype = 0x4c00010d;
    /// C `wchar_t`.
    MPI_WCHAR: MPI_Datatype = 0x4c00040e;
    /// C `short`.
    MPI_SHORT: MPI_Datatype = 0x4c000203;
    /// C `unsigned short`.
    MPI_UNSIGNED_SHORT: MPI_Datatype = 0x4c000204;
    /// C `int`.
    MPI_INT: MPI_Datatype = 0x4c000405;
    /// C `unsigned int`.
    MPI_UNSIGNED: MPI_Datatype = 0x4c000406;
    /// C `long`.
    MPI_LONG: MPI_Datatype = 0x4c000807;
    /// C `unsigned long`.
    MPI_UNSIGNED_LONG: MPI_Datatype = 0x4c000808;
    /// C `float`.
    MPI_FLOAT: MPI_Datatype = 0x4c00040a;
    /// C `double`.
    MPI_DOUBLE: MPI_Datatype = 0x4c00080b;
    /// C `long double`.
    MPI_LONG_DOUBLE: MPI_Datatype = 0x4c00100c;
    /// C `long long`.
    MPI_LONG_LONG_INT: MPI_Datatype = 0x4c000809;
    /// C `long long` (alias of `MPI_LONG_LONG_INT`).
    MPI_LONG_LONG: MPI_Datatype = MPI_LONG_LONG_INT;
    /// C `unsigned long long`.
    MPI_UNSIGNED_LONG_LONG: MPI_Datatype = 0x4c000819;
    /// Packed bytes.
    MPI_PACKED: MPI_Datatype = 0x4c00010f;
    /// Legacy lower-bound marker (MPI-1).
    MPI_LB: MPI_Datatype = 0x4c000010;
    /// Legacy upper-bound marker (MPI-1).
    MPI_UB: MPI_Datatype = 0x4c000011;
    /// `struct { float; int; }`.
    MPI_FLOAT_INT: MPI_Datatype = 0x8c000000u32 as MPI_Datatype;
    /// `struct { double; int; }`.
    MPI_DOUBLE_INT: MPI_Datatype = 0x8c000001u32 as MPI_Datatype;
    /// `struct { long; int; }`.
    MPI_LONG_INT: MPI_Datatype = 0x8c000002u32 as MPI_Datatype;
    /// `struct { short; int; }`.
    MPI_SHORT_INT: MPI_Datatype = 0x8c000003u32 as MPI_Datatype;
    /// `struct { int; int; }`.
    MPI_2INT: MPI_Datatype = 0x4c000816;
    /// `struct { long double; int; }`.
    MPI_LONG_DOUBLE_INT: MPI_Datatype = 0x8c000004u32 as MPI_Datatype;
    /// Fortran `COMPLEX`.
    MPI_COMPLEX: MPI_Datatype = 0x4c00081e;
    /// Fortran `DOUBLE COMPLEX`.
    MPI_DOUBLE_COMPLEX: MPI_Datatype = 0x4c001022;
    /// Fortran `LOGICAL`.
    MPI_LOGICAL: MPI_Datatype = 0x4c00041d;
    /// Fortran `REAL`.
    MPI_REAL: MPI_Datatype = 0x4c00041c;
    /// Fortran `DOUBLE PRECISION`.
    MPI_DOUBLE_PRECISION: MPI_Datatype = 0x4c00081f;
    /// Fortran `INTEGER`.
    MPI_INTEGER: MPI_Datatype = 0x4c00041b;
    /// Pair of Fortran `INTEGER`.
    MPI_2INTEGER: MPI_Datatype = 0x4c000820;
    /// Pair of Fortran `REAL`.
    MPI_2REAL: MPI_Datatype = 0x4c000821;
    /// Pair of Fortran `DOUBLE PRECISION`.
    MPI_2DOUBLE_PRECISION: MPI_Datatype = 0x4c001023;
    /// Fortran `CHARACTER`.
    MPI_CHARACTER: MPI_Datatype = 0x4c00011a;
    /// Fortran `REAL*4`.
    MPI_REAL4: MPI_Datatype = 0x4c000427;
    /// Fortran `REAL*8`.
    MPI_REAL8: MPI_Datatype = 0x4c000829;
    /// Fortran `REAL*16`.
    MPI_REAL16: MPI_Datatype = 0x4c00102b;
    /// Fortran `COMPLEX*8`.
    MPI_COMPLEX8: MPI_Datatype = 0x4c000828;
    /// Fortran `COMPLEX*16`.
    MPI_COMPLEX16: MPI_Datatype = 0x4c00102a;
    /// Fortran `COMPLEX*32`.
    MPI_COMPLEX32: MPI_Datatype = 0x4c00202c;
    /// Fortran `INTEGER*1`.
    MPI_INTEGER1: MPI_Datatype = 0x4c00012d;
    /// Fortran `INTEGER*2`.
    MPI_INTEGER2: MPI_Datatype = 0x4c00022f;
    /// Fortran `INTEGER*4`.
    MPI_INTEGER4: MPI_Datatype = 0x4c000430;
    /// Fortran `INTEGER*8`.
    MPI_INTEGER8: MPI_Datatype = 0x4c000831;
    /// Fortran `INTEGER*16` (not supported by MPICH on this platform: the null handle).
    MPI_INTEGER16: MPI_Datatype = MPI_DATATYPE_NULL;
    /// C `int8_t`.
    MPI_INT8_T: MPI_Datatype = 0x4c000137;
    /// C `int16_t`.
    MPI_INT16_T: MPI_Datatype = 0x4c000238;
    /// C `int32_t`.
    MPI_INT32_T: MPI_Datatype = 0x4c000439;
    /// C `int64_t`.
    MPI_INT64_T: MPI_Datatype = 0x4c00083a;
    /// C `uint8_t`.
    MPI_UINT8_T: MPI_Datatype = 0x4c00013b;
    /// C `uint16_t`.
    MPI_UINT16_T: MPI_Datatype = 0x4c00023c;
    /// C `uint32_t`.
    MPI_UINT32_T: MPI_Datatype = 0x4c00043d;
    /// C `uint64_t`.
    MPI_UINT64_T: MPI_Datatype = 0x4c00083e;
    /// C `_Bool`.
    MPI_C_BOOL: MPI_Datatype = 0x4c00013f;
    /// C `float _Complex`.
    MPI_C_FLOAT_COMPLEX: MPI_Datatype = 0x4c000840;
    /// C `float _Complex` (alias of `MPI_C_FLOAT_COMPLEX`).
    MPI_C_COMPLEX: MPI_Datatype = MPI_C_FLOAT_COMPLEX;
    /// C `double _Complex`.
    MPI_C_DOUBLE_COMPLEX: MPI_Datatype = 0x4c001041;
    /// C `long double _Complex`.
    MPI_C_LONG_DOUBLE_COMPLEX: MPI_Datatype = 0x4c002042;
    /// C `_Float16` (MPICH extension).
    MPIX_C_FLOAT16: MPI_Datatype = 0x4c000246;
    /// `MPI_Aint`.
    MPI_AINT: MPI_Datatype = 0x4c000843;
    /// `MPI_Offset`.
    MPI_OFFSET: MPI_Datatype = 0x4c000844;
    /// `MPI_Count`.
    MPI_COUNT: MPI_Datatype = 0x4c000845;
    /// C++ `bool`.
    MPI_CXX_BOOL: MPI_Datatype = 0x4c000133;
    /// C++ `std::complex<float>`.
    MPI_CXX_FLOAT_COMPLEX: MPI_Datatype = 0x4c000834;
    /// C++ `std::complex<double>`.
    MPI_CXX_DOUBLE_COMPLEX: MPI_Datatype = 0x4c001035;
    /// C++ `std::complex<long double>`.
    MPI_CXX_LONG_DOUBLE_COMPLEX: MPI_Datatype = 0x4c002036;

    // ---- type classes for MPI_Type_match_size -------------------------------------------------

    /// Type class of real (floating-point) types.
    MPI_TYPECLASS_REAL: c_int = 1;
    /// Type class of integer types.
    MPI_TYPECLASS_INTEGER: c_int = 2;
    /// Type class of complex types.
    MPI_TYPECLASS_COMPLEX: c_int = 3;

    // ---- communicators and error handlers -----------------------------------------------------

    /// The communicator of all processes.
    MPI_COMM_WORLD: MPI_Comm = 0x44000000;
    /// The communicator of this process alone.
    MPI_COMM_SELF: MPI_Comm = 0x44000001;
    /// Error handler that prints the error and aborts (the default).
    MPI_ERRORS_ARE_FATAL: MPI_Errhandler = 0x54000000;
    /// Error handler that returns the error code to the caller.
    MPI_ERRORS_RETURN: MPI_Errhandler = 0x54000001;
    /// Error handler that aborts the processes of the communicator (MPI-4).
    MPI_ERRORS_ABORT: MPI_Errhandler = 0x54000003;

    // ---- point-to-point -----------------------------------------------------------------------

    /// The null request handle.
    MPI_REQUEST_NULL: MPI_Request = 0x2c000000;
    /// The null message handle.
    MPI_MESSAGE_NULL: MPI_Message = 0x2c000000;
    /// The message `MPI_Mprobe` matches from `MPI_PROC_NULL`.
    MPI_MESSAGE_NO_PROC: MPI_Message = 0x6c000000;
    /// A receive's source that matches a message from any process.
    MPI_ANY_SOURCE: c_int = -2;
    /// A receive's tag that matches a message of any tag.
    MPI_ANY_TAG: c_int = -1;
    /// The null process: a send to it or a receive from it completes at once and moves nothing.
    MPI_PROC_NULL: c_int = -1;
    /// The root's argument in the root group of an intercommunicator.
    MPI_ROOT: c_int = -3;
    /// The bytes a buffered send takes in the attached buffer beyond its packed data.
    MPI_BSEND_OVERHEAD: c_int = 96;
    /// Attribute key of the largest tag a message may carry.
    MPI_TAG_UB: c_int = 0x64400001;

    // ---- groups and communicators ------------------------------------------------------------

    /// The null group handle.
    MPI_GROUP_NULL: MPI_Group = 0x08000000;
    /// The group of no process.
    MPI_GROUP_EMPTY: MPI_Group = 0x48000000;
    /// `MPI_Comm_compare` / `MPI_Group_compare`: the same object.
    MPI_IDENT: c_int = 0;
    /// `MPI_Comm_compare`: the same group, in another context.
    MPI_CONGRUENT: c_int = 1;
    /// The same members in another order.
    MPI_SIMILAR: c_int = 2;
    /// Different members.
    MPI_UNEQUAL: c_int = 3;
    /// `MPI_Comm_split_type`: the processes that can share memory.
    MPI_COMM_TYPE_SHARED: c_int = 1;
    /// `MPI_Comm_split_type`: a split the info key `mpi_hw_resource_type` guides.
    MPI_COMM_TYPE_HW_GUIDED: c_int = 2;
    /// `MPI_Comm_split_type`: a split by the hardware, chosen by the library.
    MPI_COMM_TYPE_HW_UNGUIDED: c_int = 3;
    /// Attribute key of the host process's rank (`MPI_PROC_NULL` when there is none).
    MPI_HOST: c_int = 0x64400003;
    /// Attribute key of the rank that can do I/O (`MPI_ANY_SOURCE`: every one).
    MPI_IO: c_int = 0x64400005;
    /// Attribute key of whether the clocks of all processes agree.
    MPI_WTIME_IS_GLOBAL: c_int = 0x64400007;
    /// Attribute key of the number of processes the job may have.
    MPI_UNIVERSE_SIZE: c_int = 0x64400009;
    /// Attribute key of the last error code or class the program added.
    MPI_LASTUSEDCODE: c_int = 0x6440000b;
    /// Attribute key of the number of the program among those started together.
    MPI_APPNUM: c_int = 0x6440000d;

    // ---- topologies ---------------------------------------------------------------------------

    /// `MPI_Topo_test`: a graph topology.
    MPI_GRAPH: c_int = 1;
    /// `MPI_Topo_test`: a Cartesian topology.
    MPI_CART: c_int = 2;
    /// `MPI_Topo_test`: a distributed graph topology.
    MPI_DIST_GRAPH: c_int = 3;

    // ---- sessions ------------------------------------------------------------------------------

    /// The null session handle.
    MPI_SESSION_NULL: MPI_Session = 0x38000000;
    /// The longest name of a process set, with its terminating NUL.
    MPI_MAX_PSET_NAME_LEN: c_int = 256;
    /// The longest tag `MPI_Comm_create_from_group` takes, with its terminating NUL.
    MPI_MAX_STRINGTAG_LEN: c_int = 256;

    // ---- the tool information interface (MPI_T) -------------------------------------------

    /// Verbosity: basic information for users.
    MPI_T_VERBOSITY_USER_BASIC: c_int = 221;
    /// Verbosity: detailed information for users.
    MPI_T_VERBOSITY_USER_DETAIL: c_int = 222;
    /// Verbosity: all information for users.
    MPI_T_VERBOSITY_USER_ALL: c_int = 223;
    /// Verbosity: basic information for tuners.
    MPI_T_VERBOSITY_TUNER_BASIC: c_int = 224;
    /// Verbosity: detailed information for tuners.
    MPI_T_VERBOSITY_TUNER_DETAIL: c_int = 225;
    /// Verbosity: all information for tuners.
    MPI_T_VERBOSITY_TUNER_ALL: c_int = 226;
    /// Verbosity: basic information for MPI developers.
    MPI_T_VERBOSITY_MPIDEV_BASIC: c_int = 227;
    /// Verbosity: detailed information for MPI developers.
    MPI_T_VERBOSITY_MPIDEV_DETAIL: c_int = 228;
    /// Verbosity: all information for MPI developers.
    MPI_T_VERBOSITY_MPIDEV_ALL: c_int = 229;
    /// A variable bound to no object.
    MPI_T_BIND_NO_OBJECT: c_int = 9700;
    /// A variable bound to an `MPI_COMM` object.
    MPI_T_BIND_MPI_COMM: c_int = 9701;
    /// A variable bound to an `MPI_DATATYPE` object.
    MPI_T_BIND_MPI_DATATYPE: c_int = 9702;
    /// A variable bound to an `MPI_ERRHANDLER` object.
    MPI_T_BIND_MPI_ERRHANDLER: c_int = 9703;
    /// A variable bound to an `MPI_FILE` object.
    MPI_T_BIND_MPI_FILE: c_int = 9704;
    /// A variable bound to an `MPI_GROUP` object.
    MPI_T_BIND_MPI_GROUP: c_int = 9705;
    /// A variable bound to an `MPI_OP` object.
    MPI_T_BIND_MPI_OP: c_int = 9706;
    /// A variable bound to an `MPI_REQUEST` object.
    MPI_T_BIND_MPI_REQUEST: c_int = 9707;
    /// A variable bound to an `MPI_WIN` object.
    MPI_T_BIND_MPI_WIN: c_int = 9708;
    /// A variable bound to an `MPI_MESSAGE` object.
    MPI_T_BIND_MPI_MESSAGE: c_int = 9709;
    /// A variable bound to an `MPI_INFO` object.
    MPI_T_BIND_MPI_INFO: c_int = 9710;
    /// A variable that is read-only and never changes.
    MPI_T_SCOPE_CONSTANT: c_int = 60438;
    /// A variable that is read-only.
    MPI_T_SCOPE_READONLY: c_int = 60439;
    /// A variable each process may set on its own.
    MPI_T_SCOPE_LOCAL: c_int = 60440;
    /// A variable the processes of a group must set together.
    MPI_T_SCOPE_GROUP: c_int = 60441;
    /// A variable the processes of a group must set together, to one value.
    MPI_T_SCOPE_GROUP_EQ: c_int = 60442;
    /// A variable every process must set together.
    MPI_T_SCOPE_ALL: c_int = 60443;
    /// A variable every process must set together, to one value.
    MPI_T_SCOPE_ALL_EQ: c_int = 60444;
    /// A performance variable of the class state.
    MPI_T_PVAR_CLASS_STATE: c_int = 240;
    /// A performance variable of the class level.
    MPI_T_PVAR_CLASS_LEVEL: c_int = 241;
    /// A performance variable of the class size.
    MPI_T_PVAR_CLASS_SIZE: c_int = 242;
    /// A performance variable of the class percentage.
    MPI_T_PVAR_CLASS_PERCENTAGE: c_int = 243;
    /// A performance variable of the class highwatermark.
    MPI_T_PVAR_CLASS_HIGHWATERMARK: c_int = 244;
    /// A performance variable of the class lowwatermark.
    MPI_T_PVAR_CLASS_LOWWATERMARK: c_int = 245;
    /// A performance variable of the class counter.
    MPI_T_PVAR_CLASS_COUNTER: c_int = 246;
    /// A performance variable of the class aggregate.
    MPI_T_PVAR_CLASS_AGGREGATE: c_int = 247;
    /// A performance variable of the class timer.
    MPI_T_PVAR_CLASS_TIMER: c_int = 248;
    /// A performance variable of the class generic.
    MPI_T_PVAR_CLASS_GENERIC: c_int = 249;
    /// MPI_T: out of memory.
    MPI_T_ERR_MEMORY: c_int = 59;
    /// MPI_T: the interface is not initialized.
    MPI_T_ERR_NOT_INITIALIZED: c_int = 60;
    /// MPI_T: the interface cannot be initialized now.
    MPI_T_ERR_CANNOT_INIT: c_int = 61;
    /// MPI_T: the index is not one of a variable or category.
    MPI_T_ERR_INVALID_INDEX: c_int = 62;
    /// MPI_T: the item index is out of range (deprecated).
    MPI_T_ERR_INVALID_ITEM: c_int = 63;
    /// MPI_T: the handle is not one.
    MPI_T_ERR_INVALID_HANDLE: c_int = 64;
    /// MPI_T: no more handles.
    MPI_T_ERR_OUT_OF_HANDLES: c_int = 65;
    /// MPI_T: no more sessions.
    MPI_T_ERR_OUT_OF_SESSIONS: c_int = 66;
    /// MPI_T: the session is not one.
    MPI_T_ERR_INVALID_SESSION: c_int = 67;
    /// MPI_T: the control variable cannot be set now.
    MPI_T_ERR_CVAR_SET_NOT_NOW: c_int = 68;
    /// MPI_T: the control variable cannot be set.
    MPI_T_ERR_CVAR_SET_NEVER: c_int = 69;
    /// MPI_T: the performance variable cannot be started or stopped.
    MPI_T_ERR_PVAR_NO_STARTSTOP: c_int = 70;
    /// MPI_T: the performance variable cannot be written or reset.
    MPI_T_ERR_PVAR_NO_WRITE: c_int = 71;
    /// MPI_T: the performance variable cannot be read and written atomically.
    MPI_T_ERR_PVAR_NO_ATOMIC: c_int = 72;
    /// MPI_T: no variable or category has the name.
    MPI_T_ERR_INVALID_NAME: c_int = 73;
    /// MPI_T: an invalid use of the interface.
    MPI_T_ERR_INVALID: c_int = 74;
    /// MPI_T: the function is not supported.
    MPI_T_ERR_NOT_SUPPORTED: c_int = 78;

    // ---- one-sided communication --------------------------------------------------------------

    /// The null window handle.
    MPI_WIN_NULL: MPI_Win = 0x20000000;
    /// Attribute key of a window's base address.
    MPI_WIN_BASE: c_int = 0x66000001;
    /// Attribute key of a window's size in bytes.
    MPI_WIN_SIZE: c_int = 0x66000003;
    /// Attribute key of a window's displacement unit.
    MPI_WIN_DISP_UNIT: c_int = 0x66000005;
    /// Attribute key of how a window was made (`MPI_WIN_FLAVOR_*`).
    MPI_WIN_CREATE_FLAVOR: c_int = 0x66000007;
    /// Attribute key of a window's memory model (`MPI_WIN_SEPARATE` or `MPI_WIN_UNIFIED`).
    MPI_WIN_MODEL: c_int = 0x66000009;
    /// A window made by `MPI_Win_create` over the program's memory.
    MPI_WIN_FLAVOR_CREATE: c_int = 1;
    /// A window made by `MPI_Win_allocate` over memory the library allocated.
    MPI_WIN_FLAVOR_ALLOCATE: c_int = 2;
    /// A window made by `MPI_Win_create_dynamic`, memory attached to it later.
    MPI_WIN_FLAVOR_DYNAMIC: c_int = 3;
    /// A window made by `MPI_Win_allocate_shared` over memory its processes share.
    MPI_WIN_FLAVOR_SHARED: c_int = 4;
    /// The memory model whose public and private copies of a window are separate.
    MPI_WIN_SEPARATE: c_int = 1;
    /// The memory model whose public and private copies of a window are one.
    MPI_WIN_UNIFIED: c_int = 2;
    /// `MPI_Win_lock`: a lock no other process holds at the same time.
    MPI_LOCK_EXCLUSIVE: c_int = 234;
    /// `MPI_Win_lock`: a lock other processes may hold at the same time.
    MPI_LOCK_SHARED: c_int = 235;
    /// Assertion: no other process holds or attempts a conflicting lock.
    MPI_MODE_NOCHECK: c_int = 1024;
    /// Assertion: the local window was not updated by stores since the last synchronisation.
    MPI_MODE_NOSTORE: c_int = 2048;
    /// Assertion: the local window will not be updated by puts or accumulates until the next
    /// synchronisation.
    MPI_MODE_NOPUT: c_int = 4096;
    /// Assertion: the fence completes no sequence of locally issued RMA calls.
    MPI_MODE_NOPRECEDE: c_int = 8192;
    /// Assertion: the fence starts no sequence of locally issued RMA calls.
    MPI_MODE_NOSUCCEED: c_int = 16384;

    // ---- reduction operations -----------------------------------------------------------------

    /// The null operation handle.
    MPI_OP_NULL: MPI_Op = 0x18000000;
    /// Maximum.
    MPI_MAX: MPI_Op = 0x58000001;
    /// Minimum.
    MPI_MIN: MPI_Op = 0x58000002;
    /// Sum.
    MPI_SUM: MPI_Op = 0x58000003;
    /// Product.
    MPI_PROD: MPI_Op = 0x58000004;
    /// Logical and.
    MPI_LAND: MPI_Op = 0x58000005;
    /// Bitwise and.
    MPI_BAND: MPI_Op = 0x58000006;
    /// Logical or.
    MPI_LOR: MPI_Op = 0x58000007;
    /// Bitwise or.
    MPI_BOR: MPI_Op = 0x58000008;
    /// Logical exclusive or.
    MPI_LXOR: MPI_Op = 0x58000009;
    /// Bitwise exclusive or.
    MPI_BXOR: MPI_Op = 0x5800000a;
    /// Minimum of value-index pairs, and its index.
    MPI_MINLOC: MPI_Op = 0x5800000b;
    /// Maximum of value-index pairs, and its index.
    MPI_MAXLOC: MPI_Op = 0x5800000c;
    /// The origin's data (one-sided accumulation).
    MPI_REPLACE: MPI_Op = 0x5800000d;
    /// The target's data, unchanged (one-sided accumulation).
    MPI_NO_OP: MPI_Op = 0x5800000e;

    // ---- combiners ----------------------------------------------------------------------------

    /// A named predefined datatype.
    MPI_COMBINER_NAMED: c_int = 1;
    /// `MPI_Type_dup`.
    MPI_COMBINER_DUP: c_int = 2;
    /// `MPI_Type_contiguous`.
    MPI_COMBINER_CONTIGUOUS: c_int = 3;
    /// `MPI_Type_vector`.
    MPI_COMBINER_VECTOR: c_int = 4;
    /// `MPI_TYPE_HVECTOR` called from Fortran (never produced by this C library).
    MPI_COMBINER_HVECTOR_INTEGER: c_int = 5;
    /// `MPI_Type_create_hvector` (and the MPI-1 `MPI_Type_hvector`).
    MPI_COMBINER_HVECTOR: c_int = 6;
    /// `MPI_Type_indexed`.
    MPI_COMBINER_INDEXED: c_int = 7;
    /// `MPI_TYPE_HINDEXED` called from Fortran (never produced by this C library).
    MPI_COMBINER_HINDEXED_INTEGER: c_int = 8;
    /// `MPI_Type_create_hindexed` (and the MPI-1 `MPI_Type_hindexed`).
    MPI_COMBINER_HINDEXED: c_int = 9;
    /// `MPI_Type_create_indexed_block`.
    MPI_COMBINER_INDEXED_BLOCK: c_int = 10;
    /// `MPI_TYPE_STRUCT` called from Fortran (never produced by this C library).
    MPI_COMBINER_STRUCT_INTEGER: c_int = 11;
    /// `MPI_Type_create_struct` (and the MPI-1 `MPI_Type_struct`).
    MPI_COMBINER_STRUCT: c_int = 12;
    /// `MPI_Type_create_subarray`.
    MPI_COMBINER_SUBARRAY: c_int = 13;
    /// `MPI_Type_create_darray`.
    MPI_COMBINER_DARRAY: c_int = 14;
    /// `MPI_Type_create_f90_real`.
    MPI_COMBINER_F90_REAL: c_int = 15;
    /// `MPI_Type_create_f90_complex`.
    MPI_COMBINER_F90_COMPLEX: c_int = 16;
    /// `MPI_Type_create_f90_integer`.
    MPI_COMBINER_F90_INTEGER: c_int = 17;
    /// `MPI_Type_create_resized`.
    MPI_COMBINER_RESIZED: c_int = 18;
    /// `MPI_Type_create_hindexed_block`.
    MPI_COMBINER_HINDEXED_BLOCK: c_int = 19;
    /// A pair type `MPI_Type_get_value_index` returned (MPI-4.1; MPICH 5's value).
    MPI_COMBINER_VALUE_INDEX: c_int = 20;

    // ---- subarray and darray ------------------------------------------------------------------

    /// Row-major array order.
    MPI_ORDER_C: c_int = 56;
    /// Column-major array order.
    MPI_ORDER_FORTRAN: c_int = 57;
    /// Block distribution of a darray dimension.
    MPI_DISTRIBUTE_BLOCK: c_int = 121;
    /// Cyclic distribution of a darray dimension.
    MPI_DISTRIBUTE_CYCLIC: c_int = 122;
    /// No distribution of a darray dimension.
    MPI_DISTRIBUTE_NONE: c_int = 123;
    /// Default distribution argument of a darray dimension.
    MPI_DISTRIBUTE_DFLT_DARG: c_int = -49767;

    // ---- miscellaneous constants --------------------------------------------------------------

    /// Returned where a value is undefined (for example a size that does not fit an `int`).
    MPI_UNDEFINED: c_int = -32766;
    /// Longest datatype or communicator name, including the terminating NUL.
    MPI_MAX_OBJECT_NAME: c_int = 128;
    /// The null info handle.
    MPI_INFO_NULL: MPI_Info = 0x1c000000;
    /// The info object of the execution environment.
    MPI_INFO_ENV: MPI_Info = 0x5c000001;
    /// Longest info key, not counting the NUL.
    MPI_MAX_INFO_KEY: c_int = 255;
    /// Longest info value, not counting the NUL.
    MPI_MAX_INFO_VAL: c_int = 1024;
    /// Longest error string, including the terminating NUL.
    MPI_MAX_ERROR_STRING: c_int = 512;
    /// Longest library version string, including the terminating NUL.
    MPI_MAX_LIBRARY_VERSION_STRING: c_int = 8192;
    /// Longest processor name.
    MPI_MAX_PROCESSOR_NAME: c_int = 128;
    /// The invalid attribute key.
    MPI_KEYVAL_INVALID: c_int = 0x24000000;
    /// Version of the MPI standard implemented (as MPICH 4.0 reports it).
    MPI_VERSION: c_int = 4;
    /// Subversion of the MPI standard implemented.
    MPI_SUBVERSION: c_int = 0;
    /// Only one thread will execute.
    MPI_THREAD_SINGLE: c_int = 0;
    /// Only the main thread makes MPI calls.
    MPI_THREAD_FUNNELED: c_int = 1;
    /// Only one thread at a time makes MPI calls.
    MPI_THREAD_SERIALIZED: c_int = 2;
    /// Any thread may call MPI at any time.
    MPI_THREAD_MULTIPLE: c_int = 3;

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
    /// Invalid root.
    MPI_ERR_ROOT: c_int = 7;
    /// Invalid group.
    MPI_ERR_GROUP: c_int = 8;
    /// Invalid operation.
    MPI_ERR_OP: c_int = 9;
    /// Invalid topology.
    MPI_ERR_TOPOLOGY: c_int = 10;
    /// Invalid dimension argument.
    MPI_ERR_DIMS: c_int = 11;
    /// Invalid argument of some other kind.
    MPI_ERR_ARG: c_int = 12;
    /// Unknown error.
    MPI_ERR_UNKNOWN: c_int = 13;
    /// Message truncated (also: not enough room to pack or data to unpack).
    MPI_ERR_TRUNCATE: c_int = 14;
    /// Known error not in this list.
    MPI_ERR_OTHER: c_int = 15;
    /// Internal MPI (implementation) error.
    MPI_ERR_INTERN: c_int = 16;
    /// Error code is in status.
    MPI_ERR_IN_STATUS: c_int = 17;
    /// Pending request.
    MPI_ERR_PENDING: c_int = 18;
    /// Invalid request handle.
    MPI_ERR_REQUEST: c_int = 19;
    /// Permission denied.
    MPI_ERR_ACCESS: c_int = 20;
    /// Error related to the amode passed to `MPI_File_open`.
    MPI_ERR_AMODE: c_int = 21;
    /// Invalid file name.
    MPI_ERR_BAD_FILE: c_int = 22;
    /// An error occurred in a user-supplied data conversion function.
    MPI_ERR_CONVERSION: c_int = 23;
    /// Conversion functions could not be registered because the data representation exists.
    MPI_ERR_DUP_DATAREP: c_int = 24;
    /// File exists.
    MPI_ERR_FILE_EXISTS: c_int = 25;
    /// File operation could not be completed, the file is in use.
    MPI_ERR_FILE_IN_USE: c_int = 26;
    /// Invalid file handle.
    MPI_ERR_FILE: c_int = 27;
    /// Invalid info object.
    MPI_ERR_INFO: c_int = 28;
    /// Key longer than `MPI_MAX_INFO_KEY`.
    MPI_ERR_INFO_KEY: c_int = 29;
    /// Value longer than `MPI_MAX_INFO_VAL`.
    MPI_ERR_INFO_VALUE: c_int = 30;
    /// Invalid key passed to `MPI_Info_delete`.
    MPI_ERR_INFO_NOKEY: c_int = 31;
    /// Other I/O error.
    MPI_ERR_IO: c_int = 32;
    /// Invalid service name.
    MPI_ERR_NAME: c_int = 33;
    /// Memory could not be allocated.
    MPI_ERR_NO_MEM: c_int = 34;
    /// Collective argument not identical on all processes.
    MPI_ERR_NOT_SAME: c_int = 35;
    /// Not enough space.
    MPI_ERR_NO_SPACE: c_int = 36;
    /// File does not exist.
    MPI_ERR_NO_SUCH_FILE: c_int = 37;
    /// Invalid port name.
    MPI_ERR_PORT: c_int = 38;
    /// Quota exceeded.
    MPI_ERR_QUOTA: c_int = 39;
    /// Read-only file or file system.
    MPI_ERR_READ_ONLY: c_int = 40;
    /// Error in publishing or unpublishing a service name.
    MPI_ERR_SERVICE: c_int = 41;
    /// Error in spawning processes.
    MPI_ERR_SPAWN: c_int = 42;
    /// Unsupported data representation.
    MPI_ERR_UNSUPPORTED_DATAREP: c_int = 43;
    /// Unsupported operation.
    MPI_ERR_UNSUPPORTED_OPERATION: c_int = 44;
    /// Invalid window.
    MPI_ERR_WIN: c_int = 45;
    /// Invalid base.
    MPI_ERR_BASE: c_int = 46;
    /// Invalid lock type.
    MPI_ERR_LOCKTYPE: c_int = 47;
    /// Invalid attribute key.
    MPI_ERR_KEYVAL: c_int = 48;
    /// Conflicting accesses to a window.
    MPI_ERR_RMA_CONFLICT: c_int = 49;
    /// Wrong synchronization of RMA calls.
    MPI_ERR_RMA_SYNC: c_int = 50;
    /// Invalid size argument.
    MPI_ERR_SIZE: c_int = 51;
    /// Invalid displacement argument.
    MPI_ERR_DISP: c_int = 52;
    /// Invalid assert argument.
    MPI_ERR_ASSERT: c_int = 53;
    /// Target memory is not part of the window.
    MPI_ERR_RMA_RANGE: c_int = 55;
    /// Memory cannot be attached.
    MPI_ERR_RMA_ATTACH: c_int = 56;
    /// Memory cannot be shared.
    MPI_ERR_RMA_SHARED: c_int = 57;
    /// Passed window has the wrong flavor.
    MPI_ERR_RMA_FLAVOR: c_int = 58;
    /// Invalid session handle.
    MPI_ERR_SESSION: c_int = 75;
    /// Communication with an aborted process.
    MPI_ERR_PROC_ABORTED: c_int = 76;
    /// A value is too large to store.
    MPI_ERR_VALUE_TOO_LARGE: c_int = 77;
    /// Last valid error code of a predefined error class.
    MPI_ERR_LASTCODE: c_int = 0x3fffffff;
}
