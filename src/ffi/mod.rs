//! The exported `MPI_*` functions, one file per area. Every function has the same shape: its
//! whole body runs inside [`export`] (the panic boundary: nothing runs before it, and
//! `tests/exports.rs` checks that every exported function does so); inside, the arguments are
//! checked and converted with the helpers below, the call goes to the MPI behind when a handle
//! is that library's, or to the safe core, the outputs are written, and errors return through
//! [`guard`], which raises them on the error handler.
//!
//! Each pair of an `int` function and its large-count `_c` variant (or `_x` variant) has one
//! definition: one `exported!` invocation ([`export`]'s module), a `fn` line for each
//! function and one body, which calls a helper generic over [`CountArg`], the C type of its
//! counts, with the name of the function called. (cbindgen does not expand macros: `build.rs`
//! hands it each `fn` line, so that the header declares the function.)
//!
//! Safety: every exported function is `unsafe` for the one reason C functions are: the
//! pointers it is given must be valid as the MPI standard describes for that argument
//! (NULL pointers, `MPI_STATUS_IGNORE` where a status is read, and bad handles are detected
//! and reported as errors). Every exported function checks each pointer it writes through
//! before writing, through [`write_out`] or [`check_out`].
#![allow(non_snake_case, clippy::missing_safety_doc)]

pub mod abi_info;
pub mod address;
pub mod attributes;
pub mod comm;
pub mod construct;
pub mod decode;
pub mod explain;
mod export;
pub mod files;
pub mod handle_ints;
pub mod info;
pub mod iov;
pub mod names;
pub mod ompi_callbacks;
pub mod pack;
pub mod process;
pub mod query;
pub mod status;

use crate::abi::*;
use crate::datatype::Datatype;
use crate::error::{MpiError, MpiResult};
pub(crate) use export::exported;
pub use export::{
    call_handler, checked, error_code, export, export_value, guard, missing_behind, raise, raise_on,
};
use std::ffi::c_char;
use std::os::raw::c_int;
use std::sync::Arc;

/// Writes `value` through the output pointer `ptr`, or fails with `MPI_ERR_ARG` if it is NULL.
///
/// # Safety
/// A non-NULL `ptr` must be valid for a write of `T`.
pub unsafe fn write_out<T>(ptr: *mut T, value: T, name: &str) -> MpiResult<()> {
    check_out(ptr, name)?;
    // SAFETY: not NULL, and valid for a write by the caller's contract.
    unsafe { ptr.write(value) };
    Ok(())
}

/// Reads the value of the in-out argument `ptr`, or fails with `MPI_ERR_ARG` if it is NULL.
///
/// # Safety
/// A non-NULL `ptr` must be valid for a read of `T`.
pub unsafe fn read_in<T: Copy>(ptr: *const T, name: &str) -> MpiResult<T> {
    check_out(ptr, name)?;
    // SAFETY: not NULL, and valid for a read by the caller's contract.
    Ok(unsafe { ptr.read() })
}

/// Writes `text`, cut to `max - 1` bytes, as a NUL-terminated string into `string` and its
/// length into `resultlen` (the names, error strings and version texts of MPI).
///
/// # Safety
/// Non-NULL `string` must be valid for `max` bytes and non-NULL `resultlen` for an int.
pub unsafe fn write_c_string(
    string: *mut c_char,
    resultlen: *mut c_int,
    text: &str,
    max: c_int,
) -> MpiResult<()> {
    check_out(string, "string")?;
    check_out(resultlen, "resultlen")?;
    let bytes = &text.as_bytes()[..text.len().min(max as usize - 1)];
    // SAFETY: `string` is not NULL and has room for `max` bytes, more than `bytes.len() + 1`.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), string.cast::<u8>(), bytes.len());
        string.add(bytes.len()).write(0);
    }
    // SAFETY: checked non-NULL above; valid by the caller's contract.
    unsafe { write_out(resultlen, bytes.len() as c_int, "resultlen") }
}

/// The name the program gives an object (`MPI_Type_set_name`, `MPI_Comm_set_name`, ...):
/// the C string `name`, of which at most `MPI_MAX_OBJECT_NAME - 1` bytes are kept.
///
/// # Safety
/// A non-NULL `name` is a NUL-terminated string.
pub unsafe fn read_object_name(name: *const c_char, what: &str) -> MpiResult<String> {
    check_out(name, what)?;
    // SAFETY: checked non-NULL; the caller's contract.
    let bytes = unsafe { std::ffi::CStr::from_ptr(name) }.to_bytes();
    let kept = &bytes[..bytes.len().min(MPI_MAX_OBJECT_NAME as usize - 1)];
    Ok(String::from_utf8_lossy(kept).into_owned())
}

/// Makes an error handler of the program's function in `handler` (`MPI_Comm_create_errhandler`
/// and its kin) and writes its handle through `errhandler`; a NULL function, `what`, is
/// `MPI_ERR_ARG`.
///
/// # Safety
/// A non-NULL `errhandler` is writable.
pub unsafe fn make_errhandler(
    handler: crate::error::UserHandler,
    what: &str,
    errhandler: *mut MPI_Errhandler,
) -> MpiResult<()> {
    check_out(errhandler, "errhandler")?;
    if handler.is_null() {
        return Err(MpiError::arg(format!("{what} is NULL")));
    }
    let handle = crate::error::add_user_handler(handler)?;
    // SAFETY: checked non-NULL above.
    unsafe { write_out(errhandler, handle, "errhandler") }
}

/// Checks that an output pointer is not NULL before any work is done.
#[inline(always)]
pub fn check_out<T>(ptr: *const T, name: &str) -> MpiResult<()> {
    if ptr.is_null() {
        return Err(null_pointer(name));
    }
    Ok(())
}

/// The error of a NULL pointer argument, made off the hot path (the queries' success path
/// then builds no message).
#[cold]
#[inline(never)]
fn null_pointer(name: &str) -> MpiError {
    MpiError::arg(format!("{name} is a NULL pointer"))
}

/// Reads `count` integers from the C array `ptr` as 64-bit values, into a `Vec<i64>` or
/// straight into the shared [`Array`](crate::datatype::Array) a constructor keeps.
///
/// # Safety
/// A non-NULL `ptr` must be valid for `count` reads of `T`.
pub unsafe fn read_array<T: Copy + Into<i64>, A: FromIterator<i64>>(
    ptr: *const T,
    count: i64,
    name: &str,
) -> MpiResult<A> {
    // SAFETY: the caller's contract, passed on.
    let values = unsafe { read_slice(ptr, count, name)? };
    Ok(values.iter().map(|&v| v.into()).collect())
}

/// The C array of `count` values at `ptr` (handles, say), borrowed: `MPI_ERR_COUNT` for a
/// negative count, `MPI_ERR_ARG` for NULL with a positive one.
///
/// # Safety
/// A non-NULL `ptr` must be valid for `count` reads of `T` while the slice is used.
pub unsafe fn read_slice<'a, T: Copy>(ptr: *const T, count: i64, name: &str) -> MpiResult<&'a [T]> {
    if count < 0 {
        return Err(MpiError::count(format!(
            "count must be non-negative, got {count}"
        )));
    }
    if count == 0 {
        return Ok(&[]);
    }
    check_out(ptr, name)?;
    let count = usize::try_from(count)
        .map_err(|_| MpiError::count(format!("count {count} is too large")))?;
    // SAFETY: not NULL, and valid for `count` reads by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, count) })
}

/// Runs `f` on the datatype object behind a handle argument, borrowed
/// ([`crate::dropin::with_type`], the one resolution of a handle: for this library's own
/// handles no reference is taken and nothing is written to shared memory; a type the MPI
/// behind made itself is imported first). `with_datatype(handle, Arc::clone)` keeps it.
pub fn with_datatype<R>(handle: MPI_Datatype, f: impl FnOnce(&Arc<Datatype>) -> R) -> MpiResult<R> {
    crate::dropin::with_type(handle, |datatype, _| f(datatype))
}

/// Runs `f` on the datatype behind a handle argument that must be committed (for packing):
/// [`with_datatype`], and `MPI_ERR_TYPE` for a type not committed.
pub fn with_committed<R>(
    handle: MPI_Datatype,
    f: impl FnOnce(&Arc<Datatype>) -> R,
) -> MpiResult<R> {
    crate::dropin::with_type(handle, |datatype, committed| committed.then(|| f(datatype)))?
        .ok_or_else(not_committed)
}

/// The error of packing with a type not committed, made off the hot path.
#[cold]
#[inline(never)]
fn not_committed() -> MpiError {
    MpiError::datatype("the datatype has not been committed (MPI_Type_commit)")
}

/// True if `comm` is a communicator other than `MPI_COMM_NULL`: a predefined one (asked
/// first: `MPI_Pack`'s fast path passes one and looks nothing up), one of the MPI library
/// behind this one ([`has_behind_comm_form`]), or standalone one the program made and has not
/// freed.
pub fn is_comm(comm: MPI_Comm) -> bool {
    if comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF {
        return true;
    }
    match crate::behind::backend() {
        Some(_) => has_behind_comm_form(comm),
        None => own_comm_index(comm).is_some_and(crate::serial::comms::exists),
    }
}

/// Checks a communicator argument: `MPI_COMM_NULL` and values that are not communicator
/// handles are `MPI_ERR_COMM`.
pub fn check_comm(comm: MPI_Comm) -> MpiResult<()> {
    if !is_comm(comm) {
        return Err(MpiError::new(
            MPI_ERR_COMM,
            format!("{comm:#x} is not a valid communicator"),
        ));
    }
    Ok(())
}

/// The C type of the counts of an exported function: `int` in the MPI functions, `MPI_Count`
/// in their large-count `_c` (and `_x`) variants. The helper shared by such a pair is generic
/// over it.
pub trait CountArg: Copy + Into<i64> {
    /// True for `MPI_Count`: the function is a large-count variant.
    const LARGE: bool;
    /// A 64-bit result as this type, or `MPI_ERR_VALUE_TOO_LARGE` if it does not fit.
    fn from_count(value: i64, what: &str) -> MpiResult<Self>;
    /// A count that may be undefined, for a status query: `MPI_UNDEFINED` if it is undefined
    /// or does not fit ("If the number of entries received exceeds the limits of the count
    /// parameter, then MPI_GET_COUNT sets the value of count to MPI_UNDEFINED").
    fn or_undefined(value: Option<i64>) -> Self;
}

impl CountArg for c_int {
    const LARGE: bool = false;
    fn from_count(value: i64, what: &str) -> MpiResult<c_int> {
        to_int(value, what)
    }
    fn or_undefined(value: Option<i64>) -> c_int {
        value
            .and_then(|n| c_int::try_from(n).ok())
            .unwrap_or(MPI_UNDEFINED)
    }
}

impl CountArg for MPI_Count {
    const LARGE: bool = true;
    fn from_count(value: i64, _: &str) -> MpiResult<MPI_Count> {
        Ok(value)
    }
    fn or_undefined(value: Option<i64>) -> MPI_Count {
        value.unwrap_or(MPI_UNDEFINED.into())
    }
}

/// Converts a 64-bit result to `int` for a non-large-count function, or reports that it
/// does not fit.
pub fn to_int(value: i64, what: &str) -> MpiResult<c_int> {
    c_int::try_from(value).map_err(|_| {
        MpiError::new(
            MPI_ERR_VALUE_TOO_LARGE,
            format!("{what} ({value}) does not fit an int; use the _c variant"),
        )
    })
}

/// Where the one-process world keeps the record of a communicator argument; `MPI_ERR_COMM`
/// for anything that is not a communicator.
pub fn place_of(comm: MPI_Comm) -> MpiResult<crate::serial::comms::Place> {
    use crate::serial::comms::Place;
    check_comm(comm)?;
    Ok(match own_comm_index(comm) {
        _ if comm == MPI_COMM_WORLD => Place::World,
        _ if comm == MPI_COMM_SELF => Place::SelfComm,
        Some(index) => Place::Made(index),
        None => {
            return Err(MpiError::new(
                MPI_ERR_COMM,
                format!("{comm:#x} is not a communicator"),
            ))
        }
    })
}

/// The error handler of a communicator of the one-process world.
pub fn errhandler_of(comm: MPI_Comm) -> MpiResult<MPI_Errhandler> {
    use crate::serial::comms::{self, Place};
    Ok(match place_of(comm)? {
        Place::World | Place::SelfComm => crate::error::handler_of(comm),
        made => comms::with(made, |c| c.errhandler).unwrap_or(MPI_ERRORS_ARE_FATAL),
    })
}
