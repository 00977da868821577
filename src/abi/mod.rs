//! The application binary interface the library speaks, chosen when it is built: MPICH's
//! ([`mpich`], the default, `libmpi_dtype`) or the MPI-5.0 standard ABI (`standard`, the
//! cargo feature `standard-abi`, `libmpi_dtype_abi`). docs/abi.md sets them side by side.
//!
//! Each ABI module gives the same names:
//! - the C types (`MPI_Datatype`, `MPI_Comm`, `MPI_Aint`, `MPI_Status`, the callback types)
//!   and every constant of `mpi.h` the datatype chapter uses, with its values from the one
//!   table of every ABI's constants (`constants.rs`, read through `value_in!` of
//!   `value_in.rs`), which `build.rs` also reads to write the header;
//! - the handle codec: which handles are predefined and where they sit in the table by index
//!   ([`predefined_index`]), the form of this library's own handles ([`own_handle`],
//!   [`own_parts`]), of the MPI behind's ([`has_behind_form`]), of communicators and keyvals,
//!   and `MPI_Type_toint` / `MPI_Type_fromint`;
//! - the status codec (`MPI_Status::count_bytes` and kin) and `MPI_STATUS_IGNORE`.
//!
//! [`translate`], one file for both ABIs, gives the core's values their numbers: the handle of
//! each predefined datatype ([`predefined_handle`]), and the combiners, orders, distributions
//! and default distribution argument ([`Numbers`]). The core (`datatype`, `plan`, `pack`)
//! does not use this module at all (`tests/layering.rs` checks it); the layers above it name
//! these by name only: no number of either ABI appears anywhere else.

include!("value_in.rs");

#[cfg(pointer_handles)]
#[macro_use]
mod address_handles;

#[cfg(abi = "mpich")]
mod mpich;
#[cfg(abi = "mpich")]
pub use mpich::*;

#[cfg(abi = "standard")]
mod standard;
#[cfg(abi = "standard")]
pub use standard::*;

#[cfg(abi = "ompi")]
mod ompi;
#[cfg(abi = "ompi")]
pub use ompi::*;

/// The point-to-point values the communication layers take together: handles and ranks of
/// the table, and the addresses of `MPI_IN_PLACE` and `MPI_STATUSES_IGNORE` in this ABI
/// (`MPI_STATUSES_IGNORE` is `MPI_STATUS_IGNORE`: 1 in MPICH's ABI, the null pointer in the
/// others).
pub mod p2p {
    pub use super::IN_PLACE_ADDRESS as MPI_IN_PLACE;
    pub use super::MPI_STATUS_IGNORE as MPI_STATUSES_IGNORE;
    pub use super::{
        MPI_Message, MPI_Request, MPI_ANY_SOURCE, MPI_MESSAGE_NO_PROC, MPI_MESSAGE_NULL,
        MPI_PROC_NULL, MPI_REQUEST_NULL, MPI_ROOT,
    };
}

pub mod translate;
pub use translate::*;

/// The C signature of a reduction function the program defines (`MPI_User_function`, for
/// `MPI_Op_create`): `inoutvec[i] = invec[i] op inoutvec[i]` for `*len` elements of
/// `*datatype`.
#[allow(non_camel_case_types)]
pub type MPI_User_function = Option<
    unsafe extern "C" fn(
        invec: *mut std::ffi::c_void,
        inoutvec: *mut std::ffi::c_void,
        len: *mut std::os::raw::c_int,
        datatype: *mut MPI_Datatype,
    ),
>;

/// [`MPI_User_function`] with an `MPI_Count` length (`MPI_User_function_c`, for
/// `MPI_Op_create_c`).
#[allow(non_camel_case_types)]
pub type MPI_User_function_c = Option<
    unsafe extern "C" fn(
        invec: *mut std::ffi::c_void,
        inoutvec: *mut std::ffi::c_void,
        len: *mut MPI_Count,
        datatype: *mut MPI_Datatype,
    ),
>;

/// The C signature of an attribute copy callback on handles of type `H`
/// (`MPI_Comm_copy_attr_function`, `MPI_Win_copy_attr_function`): the old object, the key,
/// the extra state, the value in, where the value out goes, and the flag that says whether
/// the copy keeps it.
pub type AttrCopyFunction<H> = unsafe extern "C" fn(
    H,
    std::os::raw::c_int,
    *mut std::ffi::c_void,
    *mut std::ffi::c_void,
    *mut std::ffi::c_void,
    *mut std::os::raw::c_int,
) -> std::os::raw::c_int;

/// The C signature of an attribute delete callback on handles of type `H`
/// (`MPI_Comm_delete_attr_function`, `MPI_Win_delete_attr_function`): the object, the key,
/// the value and the extra state.
pub type AttrDeleteFunction<H> = unsafe extern "C" fn(
    H,
    std::os::raw::c_int,
    *mut std::ffi::c_void,
    *mut std::ffi::c_void,
) -> std::os::raw::c_int;

/// `MPI_File_errhandler_function`, a C function type of which only pointers are passed
/// (`MPI_File_create_errhandler`): opaque here, so that the header spells the parameter as
/// the standard does (`MPI_File_errhandler_function *`); [`FileErrhandler`] is the callable
/// pointer.
#[allow(non_camel_case_types)]
#[repr(C)]
pub struct MPI_File_errhandler_function {
    _private: [u8; 0],
}

/// Declares C function types of MPI-IO of which only pointers are passed: opaque here, so
/// that the header spells each parameter as the standard does (`TYPE *`).
macro_rules! opaque_function_types {
    ($($(#[doc = $doc:literal])* $name:ident;)*) => {$(
        $(#[doc = $doc])*
        #[allow(non_camel_case_types)]
        #[repr(C)]
        pub struct $name {
            _private: [u8; 0],
        }
    )*};
}

opaque_function_types! {
    /// `MPI_Datarep_conversion_function` (`MPI_Register_datarep`).
    MPI_Datarep_conversion_function;
    /// `MPI_Datarep_conversion_function_c` (`MPI_Register_datarep_c`).
    MPI_Datarep_conversion_function_c;
    /// `MPI_Datarep_extent_function`.
    MPI_Datarep_extent_function;
}

/// A pointer to a file's error handler function, callable.
pub type FileErrhandler =
    Option<unsafe extern "C" fn(file: *mut MPI_File, error_code: *mut std::os::raw::c_int, ...)>;

/// The C signature of a communicator's error handler (`MPI_Comm_errhandler_function`).
#[allow(non_camel_case_types)]
pub type MPI_Comm_errhandler_function =
    Option<unsafe extern "C" fn(comm: *mut MPI_Comm, error_code: *mut std::os::raw::c_int, ...)>;
/// The C signature of a window's error handler (`MPI_Win_errhandler_function`).
#[allow(non_camel_case_types)]
pub type MPI_Win_errhandler_function =
    Option<unsafe extern "C" fn(win: *mut MPI_Win, error_code: *mut std::os::raw::c_int, ...)>;
/// The C signature of a session's error handler (`MPI_Session_errhandler_function`).
#[allow(non_camel_case_types)]
pub type MPI_Session_errhandler_function = Option<
    unsafe extern "C" fn(session: *mut MPI_Session, error_code: *mut std::os::raw::c_int, ...),
>;

/// Attribute copy callback for datatype keyvals (`MPI_Type_copy_attr_function`), as C passes
/// it: a function pointer, `MPI_TYPE_NULL_COPY_FN` (the null pointer, or a function in Open
/// MPI's ABI), or `MPI_TYPE_DUP_FN` (a function, or the sentinel 1 in the standard ABI:
/// classify before calling).
#[allow(non_camel_case_types)]
pub type MPI_Type_copy_attr_function = Option<AttrCopyFunction<MPI_Datatype>>;

/// Attribute delete callback for datatype keyvals (`MPI_Type_delete_attr_function`).
#[allow(non_camel_case_types)]
pub type MPI_Type_delete_attr_function = Option<AttrDeleteFunction<MPI_Datatype>>;

/// Attribute copy callback for communicator keyvals (`MPI_Comm_copy_attr_function`), as C
/// passes it: a function pointer, `MPI_COMM_NULL_COPY_FN` (the null pointer), or
/// `MPI_COMM_DUP_FN` (a function of this library's in MPICH's ABI, the sentinel 1 in the
/// standard ABI: classify before calling).
#[allow(non_camel_case_types)]
pub type MPI_Comm_copy_attr_function = Option<AttrCopyFunction<MPI_Comm>>;

/// Attribute delete callback for communicator keyvals (`MPI_Comm_delete_attr_function`), or
/// `MPI_COMM_NULL_DELETE_FN` (the null pointer).
#[allow(non_camel_case_types)]
pub type MPI_Comm_delete_attr_function = Option<AttrDeleteFunction<MPI_Comm>>;

/// An enumeration of the tool information interface (`MPI_T_enum`): an opaque pointer in
/// both ABIs.
#[allow(non_camel_case_types)]
pub type MPI_T_enum = *mut std::ffi::c_void;
/// A handle of a control variable (`MPI_T_cvar_handle`): an opaque pointer in both ABIs.
#[allow(non_camel_case_types)]
pub type MPI_T_cvar_handle = *mut std::ffi::c_void;
/// A handle of a performance variable (`MPI_T_pvar_handle`): an opaque pointer in both ABIs.
#[allow(non_camel_case_types)]
pub type MPI_T_pvar_handle = *mut std::ffi::c_void;
/// A session of performance variables (`MPI_T_pvar_session`): an opaque pointer in both
/// ABIs.
#[allow(non_camel_case_types)]
pub type MPI_T_pvar_session = *mut std::ffi::c_void;

/// The query callback of a generalized request (`MPI_Grequest_query_function`): fills the
/// status of the completed request.
#[allow(non_camel_case_types)]
pub type MPI_Grequest_query_function = Option<
    unsafe extern "C" fn(
        extra_state: *mut std::ffi::c_void,
        status: *mut MPI_Status,
    ) -> std::os::raw::c_int,
>;

/// The free callback of a generalized request (`MPI_Grequest_free_function`).
#[allow(non_camel_case_types)]
pub type MPI_Grequest_free_function =
    Option<unsafe extern "C" fn(extra_state: *mut std::ffi::c_void) -> std::os::raw::c_int>;

/// The cancel callback of a generalized request (`MPI_Grequest_cancel_function`).
#[allow(non_camel_case_types)]
pub type MPI_Grequest_cancel_function = Option<
    unsafe extern "C" fn(
        extra_state: *mut std::ffi::c_void,
        complete: std::os::raw::c_int,
    ) -> std::os::raw::c_int,
>;

/// Attribute copy callback for window keyvals (`MPI_Win_copy_attr_function`): windows are
/// never duplicated, so it is kept but never called.
#[allow(non_camel_case_types)]
pub type MPI_Win_copy_attr_function = Option<AttrCopyFunction<MPI_Win>>;

/// Attribute delete callback for window keyvals (`MPI_Win_delete_attr_function`), or
/// `MPI_WIN_NULL_DELETE_FN` (the null pointer).
#[allow(non_camel_case_types)]
pub type MPI_Win_delete_attr_function = Option<AttrDeleteFunction<MPI_Win>>;
