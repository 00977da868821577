//! MPICH's application binary interface: handle types, predefined handle values, combiners,
//! error classes and the other constants of `mpi.h`. This module is the one place where these
//! numbers live; everything else refers to them by name.
//!
//! Values are those of MPICH 4.0 (Debian's `libmpich-dev`), so that a binary compiled against
//! MPICH's `mpi.h` can run with this library in its place.
#![allow(non_camel_case_types, non_snake_case)]

use std::os::raw::{c_int, c_long};

/// Handle of a datatype (MPICH: `int`).
pub type MPI_Datatype = c_int;
/// Handle of a communicator (MPICH: `int`).
pub type MPI_Comm = c_int;
/// Handle of an error handler (MPICH: `int`).
pub type MPI_Errhandler = c_int;
/// An address-sized integer (MPICH on x86-64: `long`).
pub type MPI_Aint = c_long;
/// A large count (MPICH on x86-64: `long`).
pub type MPI_Count = c_long;
/// A file offset (MPICH on x86-64: `long`).
pub type MPI_Offset = c_long;
/// The C type of a Fortran `INTEGER`.
pub type MPI_Fint = c_int;

/// The status object of a receive, laid out as MPICH lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct MPI_Status {
    /// Low 32 bits of the received byte count.
    pub count_lo: c_int,
    /// High bits of the received byte count (shifted left by one) and the cancelled flag (bit 0).
    pub count_hi_and_cancelled: c_int,
    /// Rank of the sender.
    pub MPI_SOURCE: c_int,
    /// Tag of the message.
    pub MPI_TAG: c_int,
    /// Error code of the operation.
    pub MPI_ERROR: c_int,
}

/// The C signature of an error handler function (`MPI_Comm_errhandler_function`).
pub type MPI_Comm_errhandler_function =
    Option<unsafe extern "C" fn(comm: *mut MPI_Comm, error_code: *mut c_int, ...)>;
/// Attribute copy callback for datatypes.
pub type MPI_Type_copy_attr_function = Option<
    unsafe extern "C" fn(
        oldtype: MPI_Datatype,
        type_keyval: c_int,
        extra_state: *mut std::ffi::c_void,
        attribute_val_in: *mut std::ffi::c_void,
        attribute_val_out: *mut std::ffi::c_void,
        flag: *mut c_int,
    ) -> c_int,
>;
/// Attribute delete callback for datatypes.
pub type MPI_Type_delete_attr_function = Option<
    unsafe extern "C" fn(
        datatype: MPI_Datatype,
        type_keyval: c_int,
        attribute_val: *mut std::ffi::c_void,
        extra_state: *mut std::ffi::c_void,
    ) -> c_int,
>;

// ---- null handles -------------------------------------------------------------------------

/// The null datatype handle.
pub const MPI_DATATYPE_NULL: MPI_Datatype = 0x0c000000;
/// The null communicator handle.
pub const MPI_COMM_NULL: MPI_Comm = 0x04000000;
/// The null error handler handle.
pub const MPI_ERRHANDLER_NULL: MPI_Errhandler = 0x14000000;

// ---- predefined datatypes -----------------------------------------------------------------

/// C `char`.
pub const MPI_CHAR: MPI_Datatype = 0x4c000101;
/// C `signed char`.
pub const MPI_SIGNED_CHAR: MPI_Datatype = 0x4c000118;
/// C `unsigned char`.
pub const MPI_UNSIGNED_CHAR: MPI_Datatype = 0x4c000102;
/// Untyped byte.
pub const MPI_BYTE: MPI_Datatype = 0x4c00010d;
/// C `wchar_t`.
pub const MPI_WCHAR: MPI_Datatype = 0x4c00040e;
/// C `short`.
pub const MPI_SHORT: MPI_Datatype = 0x4c000203;
/// C `unsigned short`.
pub const MPI_UNSIGNED_SHORT: MPI_Datatype = 0x4c000204;
/// C `int`.
pub const MPI_INT: MPI_Datatype = 0x4c000405;
/// C `unsigned int`.
pub const MPI_UNSIGNED: MPI_Datatype = 0x4c000406;
/// C `long`.
pub const MPI_LONG: MPI_Datatype = 0x4c000807;
/// C `unsigned long`.
pub const MPI_UNSIGNED_LONG: MPI_Datatype = 0x4c000808;
/// C `float`.
pub const MPI_FLOAT: MPI_Datatype = 0x4c00040a;
/// C `double`.
pub const MPI_DOUBLE: MPI_Datatype = 0x4c00080b;
/// C `long double`.
pub const MPI_LONG_DOUBLE: MPI_Datatype = 0x4c00100c;
/// C `long long`.
pub const MPI_LONG_LONG_INT: MPI_Datatype = 0x4c000809;
/// C `long long` (alias of `MPI_LONG_LONG_INT`).
pub const MPI_LONG_LONG: MPI_Datatype = MPI_LONG_LONG_INT;
/// C `unsigned long long`.
pub const MPI_UNSIGNED_LONG_LONG: MPI_Datatype = 0x4c000819;
/// Packed bytes.
pub const MPI_PACKED: MPI_Datatype = 0x4c00010f;
/// Legacy lower-bound marker (MPI-1).
pub const MPI_LB: MPI_Datatype = 0x4c000010;
/// Legacy upper-bound marker (MPI-1).
pub const MPI_UB: MPI_Datatype = 0x4c000011;
/// `struct { float; int; }`.
pub const MPI_FLOAT_INT: MPI_Datatype = 0x8c000000u32 as MPI_Datatype;
/// `struct { double; int; }`.
pub const MPI_DOUBLE_INT: MPI_Datatype = 0x8c000001u32 as MPI_Datatype;
/// `struct { long; int; }`.
pub const MPI_LONG_INT: MPI_Datatype = 0x8c000002u32 as MPI_Datatype;
/// `struct { short; int; }`.
pub const MPI_SHORT_INT: MPI_Datatype = 0x8c000003u32 as MPI_Datatype;
/// `struct { int; int; }`.
pub const MPI_2INT: MPI_Datatype = 0x4c000816;
/// `struct { long double; int; }`.
pub const MPI_LONG_DOUBLE_INT: MPI_Datatype = 0x8c000004u32 as MPI_Datatype;
/// Fortran `COMPLEX`.
pub const MPI_COMPLEX: MPI_Datatype = 0x4c00081e;
/// Fortran `DOUBLE COMPLEX`.
pub const MPI_DOUBLE_COMPLEX: MPI_Datatype = 0x4c001022;
/// Fortran `LOGICAL`.
pub const MPI_LOGICAL: MPI_Datatype = 0x4c00041d;
/// Fortran `REAL`.
pub const MPI_REAL: MPI_Datatype = 0x4c00041c;
/// Fortran `DOUBLE PRECISION`.
pub const MPI_DOUBLE_PRECISION: MPI_Datatype = 0x4c00081f;
/// Fortran `INTEGER`.
pub const MPI_INTEGER: MPI_Datatype = 0x4c00041b;
/// Pair of Fortran `INTEGER`.
pub const MPI_2INTEGER: MPI_Datatype = 0x4c000820;
/// Pair of Fortran `REAL`.
pub const MPI_2REAL: MPI_Datatype = 0x4c000821;
/// Pair of Fortran `DOUBLE PRECISION`.
pub const MPI_2DOUBLE_PRECISION: MPI_Datatype = 0x4c001023;
/// Fortran `CHARACTER`.
pub const MPI_CHARACTER: MPI_Datatype = 0x4c00011a;
/// Fortran `REAL*4`.
pub const MPI_REAL4: MPI_Datatype = 0x4c000427;
/// Fortran `REAL*8`.
pub const MPI_REAL8: MPI_Datatype = 0x4c000829;
/// Fortran `REAL*16`.
pub const MPI_REAL16: MPI_Datatype = 0x4c00102b;
/// Fortran `COMPLEX*8`.
pub const MPI_COMPLEX8: MPI_Datatype = 0x4c000828;
/// Fortran `COMPLEX*16`.
pub const MPI_COMPLEX16: MPI_Datatype = 0x4c00102a;
/// Fortran `COMPLEX*32`.
pub const MPI_COMPLEX32: MPI_Datatype = 0x4c00202c;
/// Fortran `INTEGER*1`.
pub const MPI_INTEGER1: MPI_Datatype = 0x4c00012d;
/// Fortran `INTEGER*2`.
pub const MPI_INTEGER2: MPI_Datatype = 0x4c00022f;
/// Fortran `INTEGER*4`.
pub const MPI_INTEGER4: MPI_Datatype = 0x4c000430;
/// Fortran `INTEGER*8`.
pub const MPI_INTEGER8: MPI_Datatype = 0x4c000831;
/// Fortran `INTEGER*16` (not supported by MPICH on this platform: the null handle).
pub const MPI_INTEGER16: MPI_Datatype = MPI_DATATYPE_NULL;
/// C `int8_t`.
pub const MPI_INT8_T: MPI_Datatype = 0x4c000137;
/// C `int16_t`.
pub const MPI_INT16_T: MPI_Datatype = 0x4c000238;
/// C `int32_t`.
pub const MPI_INT32_T: MPI_Datatype = 0x4c000439;
/// C `int64_t`.
pub const MPI_INT64_T: MPI_Datatype = 0x4c00083a;
/// C `uint8_t`.
pub const MPI_UINT8_T: MPI_Datatype = 0x4c00013b;
/// C `uint16_t`.
pub const MPI_UINT16_T: MPI_Datatype = 0x4c00023c;
/// C `uint32_t`.
pub const MPI_UINT32_T: MPI_Datatype = 0x4c00043d;
/// C `uint64_t`.
pub const MPI_UINT64_T: MPI_Datatype = 0x4c00083e;
/// C `_Bool`.
pub const MPI_C_BOOL: MPI_Datatype = 0x4c00013f;
/// C `float _Complex`.
pub const MPI_C_FLOAT_COMPLEX: MPI_Datatype = 0x4c000840;
/// C `float _Complex` (alias of `MPI_C_FLOAT_COMPLEX`).
pub const MPI_C_COMPLEX: MPI_Datatype = MPI_C_FLOAT_COMPLEX;
/// C `double _Complex`.
pub const MPI_C_DOUBLE_COMPLEX: MPI_Datatype = 0x4c001041;
/// C `long double _Complex`.
pub const MPI_C_LONG_DOUBLE_COMPLEX: MPI_Datatype = 0x4c002042;
/// C `_Float16` (MPICH extension).
pub const MPIX_C_FLOAT16: MPI_Datatype = 0x4c000246;
/// `MPI_Aint`.
pub const MPI_AINT: MPI_Datatype = 0x4c000843;
/// `MPI_Offset`.
pub const MPI_OFFSET: MPI_Datatype = 0x4c000844;
/// `MPI_Count`.
pub const MPI_COUNT: MPI_Datatype = 0x4c000845;
/// C++ `bool`.
pub const MPI_CXX_BOOL: MPI_Datatype = 0x4c000133;
/// C++ `std::complex<float>`.
pub const MPI_CXX_FLOAT_COMPLEX: MPI_Datatype = 0x4c000834;
/// C++ `std::complex<double>`.
pub const MPI_CXX_DOUBLE_COMPLEX: MPI_Datatype = 0x4c001035;
/// C++ `std::complex<long double>`.
pub const MPI_CXX_LONG_DOUBLE_COMPLEX: MPI_Datatype = 0x4c002036;

// ---- type classes for MPI_Type_match_size -------------------------------------------------

/// Type class of real (floating-point) types.
pub const MPI_TYPECLASS_REAL: c_int = 1;
/// Type class of integer types.
pub const MPI_TYPECLASS_INTEGER: c_int = 2;
/// Type class of complex types.
pub const MPI_TYPECLASS_COMPLEX: c_int = 3;

// ---- communicators and error handlers -----------------------------------------------------

/// The communicator of all processes.
pub const MPI_COMM_WORLD: MPI_Comm = 0x44000000;
/// The communicator of this process alone.
pub const MPI_COMM_SELF: MPI_Comm = 0x44000001;
/// Error handler that prints the error and aborts (the default).
pub const MPI_ERRORS_ARE_FATAL: MPI_Errhandler = 0x54000000;
/// Error handler that returns the error code to the caller.
pub const MPI_ERRORS_RETURN: MPI_Errhandler = 0x54000001;
/// Error handler that aborts the processes of the communicator (MPI-4).
pub const MPI_ERRORS_ABORT: MPI_Errhandler = 0x54000003;

// ---- combiners ----------------------------------------------------------------------------

/// A named predefined datatype.
pub const MPI_COMBINER_NAMED: c_int = 1;
/// `MPI_Type_dup`.
pub const MPI_COMBINER_DUP: c_int = 2;
/// `MPI_Type_contiguous`.
pub const MPI_COMBINER_CONTIGUOUS: c_int = 3;
/// `MPI_Type_vector`.
pub const MPI_COMBINER_VECTOR: c_int = 4;
/// `MPI_TYPE_HVECTOR` called from Fortran (never produced by this C library).
pub const MPI_COMBINER_HVECTOR_INTEGER: c_int = 5;
/// `MPI_Type_create_hvector` (and the MPI-1 `MPI_Type_hvector`).
pub const MPI_COMBINER_HVECTOR: c_int = 6;
/// `MPI_Type_indexed`.
pub const MPI_COMBINER_INDEXED: c_int = 7;
/// `MPI_TYPE_HINDEXED` called from Fortran (never produced by this C library).
pub const MPI_COMBINER_HINDEXED_INTEGER: c_int = 8;
/// `MPI_Type_create_hindexed` (and the MPI-1 `MPI_Type_hindexed`).
pub const MPI_COMBINER_HINDEXED: c_int = 9;
/// `MPI_Type_create_indexed_block`.
pub const MPI_COMBINER_INDEXED_BLOCK: c_int = 10;
/// `MPI_TYPE_STRUCT` called from Fortran (never produced by this C library).
pub const MPI_COMBINER_STRUCT_INTEGER: c_int = 11;
/// `MPI_Type_create_struct` (and the MPI-1 `MPI_Type_struct`).
pub const MPI_COMBINER_STRUCT: c_int = 12;
/// `MPI_Type_create_subarray`.
pub const MPI_COMBINER_SUBARRAY: c_int = 13;
/// `MPI_Type_create_darray`.
pub const MPI_COMBINER_DARRAY: c_int = 14;
/// `MPI_Type_create_f90_real`.
pub const MPI_COMBINER_F90_REAL: c_int = 15;
/// `MPI_Type_create_f90_complex`.
pub const MPI_COMBINER_F90_COMPLEX: c_int = 16;
/// `MPI_Type_create_f90_integer`.
pub const MPI_COMBINER_F90_INTEGER: c_int = 17;
/// `MPI_Type_create_resized`.
pub const MPI_COMBINER_RESIZED: c_int = 18;
/// `MPI_Type_create_hindexed_block`.
pub const MPI_COMBINER_HINDEXED_BLOCK: c_int = 19;

// ---- subarray and darray ------------------------------------------------------------------

/// Row-major array order.
pub const MPI_ORDER_C: c_int = 56;
/// Column-major array order.
pub const MPI_ORDER_FORTRAN: c_int = 57;
/// Block distribution of a darray dimension.
pub const MPI_DISTRIBUTE_BLOCK: c_int = 121;
/// Cyclic distribution of a darray dimension.
pub const MPI_DISTRIBUTE_CYCLIC: c_int = 122;
/// No distribution of a darray dimension.
pub const MPI_DISTRIBUTE_NONE: c_int = 123;
/// Default distribution argument of a darray dimension.
pub const MPI_DISTRIBUTE_DFLT_DARG: c_int = -49767;

// ---- miscellaneous constants --------------------------------------------------------------

/// Returned where a value is undefined (for example a size that does not fit an `int`).
pub const MPI_UNDEFINED: c_int = -32766;
/// Longest datatype or communicator name, including the terminating NUL.
pub const MPI_MAX_OBJECT_NAME: c_int = 128;
/// Longest error string, including the terminating NUL.
pub const MPI_MAX_ERROR_STRING: c_int = 512;
/// Longest library version string, including the terminating NUL.
pub const MPI_MAX_LIBRARY_VERSION_STRING: c_int = 8192;
/// Longest processor name.
pub const MPI_MAX_PROCESSOR_NAME: c_int = 128;
/// The invalid attribute key.
pub const MPI_KEYVAL_INVALID: c_int = 0x24000000;
/// Version of the MPI standard implemented (as MPICH 4.0 reports it).
pub const MPI_VERSION: c_int = 4;
/// Subversion of the MPI standard implemented.
pub const MPI_SUBVERSION: c_int = 0;
/// Only one thread will execute.
pub const MPI_THREAD_SINGLE: c_int = 0;
/// Only the main thread makes MPI calls.
pub const MPI_THREAD_FUNNELED: c_int = 1;
/// Only one thread at a time makes MPI calls.
pub const MPI_THREAD_SERIALIZED: c_int = 2;
/// Any thread may call MPI at any time.
pub const MPI_THREAD_MULTIPLE: c_int = 3;

// ---- error classes ------------------------------------------------------------------------

/// Successful return code.
pub const MPI_SUCCESS: c_int = 0;
/// Invalid buffer pointer.
pub const MPI_ERR_BUFFER: c_int = 1;
/// Invalid count argument.
pub const MPI_ERR_COUNT: c_int = 2;
/// Invalid datatype argument.
pub const MPI_ERR_TYPE: c_int = 3;
/// Invalid tag argument.
pub const MPI_ERR_TAG: c_int = 4;
/// Invalid communicator.
pub const MPI_ERR_COMM: c_int = 5;
/// Invalid rank.
pub const MPI_ERR_RANK: c_int = 6;
/// Invalid root.
pub const MPI_ERR_ROOT: c_int = 7;
/// Invalid group.
pub const MPI_ERR_GROUP: c_int = 8;
/// Invalid operation.
pub const MPI_ERR_OP: c_int = 9;
/// Invalid topology.
pub const MPI_ERR_TOPOLOGY: c_int = 10;
/// Invalid dimension argument.
pub const MPI_ERR_DIMS: c_int = 11;
/// Invalid argument of some other kind.
pub const MPI_ERR_ARG: c_int = 12;
/// Unknown error.
pub const MPI_ERR_UNKNOWN: c_int = 13;
/// Message truncated (also: not enough room to pack or data to unpack).
pub const MPI_ERR_TRUNCATE: c_int = 14;
/// Known error not in this list.
pub const MPI_ERR_OTHER: c_int = 15;
/// Internal MPI (implementation) error.
pub const MPI_ERR_INTERN: c_int = 16;
/// Error code is in status.
pub const MPI_ERR_IN_STATUS: c_int = 17;
/// Pending request.
pub const MPI_ERR_PENDING: c_int = 18;
/// Invalid request handle.
pub const MPI_ERR_REQUEST: c_int = 19;
/// Permission denied.
pub const MPI_ERR_ACCESS: c_int = 20;
/// Error related to the amode passed to `MPI_File_open`.
pub const MPI_ERR_AMODE: c_int = 21;
/// Invalid file name.
pub const MPI_ERR_BAD_FILE: c_int = 22;
/// An error occurred in a user-supplied data conversion function.
pub const MPI_ERR_CONVERSION: c_int = 23;
/// Conversion functions could not be registered because the data representation exists.
pub const MPI_ERR_DUP_DATAREP: c_int = 24;
/// File exists.
pub const MPI_ERR_FILE_EXISTS: c_int = 25;
/// File operation could not be completed, the file is in use.
pub const MPI_ERR_FILE_IN_USE: c_int = 26;
/// Invalid file handle.
pub const MPI_ERR_FILE: c_int = 27;
/// Invalid info object.
pub const MPI_ERR_INFO: c_int = 28;
/// Key longer than `MPI_MAX_INFO_KEY`.
pub const MPI_ERR_INFO_KEY: c_int = 29;
/// Value longer than `MPI_MAX_INFO_VAL`.
pub const MPI_ERR_INFO_VALUE: c_int = 30;
/// Invalid key passed to `MPI_Info_delete`.
pub const MPI_ERR_INFO_NOKEY: c_int = 31;
/// Other I/O error.
pub const MPI_ERR_IO: c_int = 32;
/// Invalid service name.
pub const MPI_ERR_NAME: c_int = 33;
/// Memory could not be allocated.
pub const MPI_ERR_NO_MEM: c_int = 34;
/// Collective argument not identical on all processes.
pub const MPI_ERR_NOT_SAME: c_int = 35;
/// Not enough space.
pub const MPI_ERR_NO_SPACE: c_int = 36;
/// File does not exist.
pub const MPI_ERR_NO_SUCH_FILE: c_int = 37;
/// Invalid port name.
pub const MPI_ERR_PORT: c_int = 38;
/// Quota exceeded.
pub const MPI_ERR_QUOTA: c_int = 39;
/// Read-only file or file system.
pub const MPI_ERR_READ_ONLY: c_int = 40;
/// Error in publishing or unpublishing a service name.
pub const MPI_ERR_SERVICE: c_int = 41;
/// Error in spawning processes.
pub const MPI_ERR_SPAWN: c_int = 42;
/// Unsupported data representation.
pub const MPI_ERR_UNSUPPORTED_DATAREP: c_int = 43;
/// Unsupported operation.
pub const MPI_ERR_UNSUPPORTED_OPERATION: c_int = 44;
/// Invalid window.
pub const MPI_ERR_WIN: c_int = 45;
/// Invalid base.
pub const MPI_ERR_BASE: c_int = 46;
/// Invalid lock type.
pub const MPI_ERR_LOCKTYPE: c_int = 47;
/// Invalid attribute key.
pub const MPI_ERR_KEYVAL: c_int = 48;
/// Conflicting accesses to a window.
pub const MPI_ERR_RMA_CONFLICT: c_int = 49;
/// Wrong synchronization of RMA calls.
pub const MPI_ERR_RMA_SYNC: c_int = 50;
/// Invalid size argument.
pub const MPI_ERR_SIZE: c_int = 51;
/// Invalid displacement argument.
pub const MPI_ERR_DISP: c_int = 52;
/// Invalid assert argument.
pub const MPI_ERR_ASSERT: c_int = 53;
/// Target memory is not part of the window.
pub const MPI_ERR_RMA_RANGE: c_int = 55;
/// Memory cannot be attached.
pub const MPI_ERR_RMA_ATTACH: c_int = 56;
/// Memory cannot be shared.
pub const MPI_ERR_RMA_SHARED: c_int = 57;
/// Passed window has the wrong flavor.
pub const MPI_ERR_RMA_FLAVOR: c_int = 58;
/// Invalid session handle.
pub const MPI_ERR_SESSION: c_int = 75;
/// Communication with an aborted process.
pub const MPI_ERR_PROC_ABORTED: c_int = 76;
/// A value is too large to store.
pub const MPI_ERR_VALUE_TOO_LARGE: c_int = 77;
/// Last valid error code of a predefined error class.
pub const MPI_ERR_LASTCODE: c_int = 0x3fffffff;
