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

/// Defines each constant of the table as a `pub const` with its doc comment.
macro_rules! abi_constants {
    ($($(#[doc = $doc:literal])* $name:ident : $ty:ty = $value:expr;)*) => {
        $($(#[doc = $doc])* pub const $name: $ty = $value;)*
    };
}

include!("abi_constants.rs");
