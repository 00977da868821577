//! Data representations of the program's own (`MPI_Register_datarep`, `_c`): its conversion
//! and extent functions, kept by [`crate::serial::datareps`] and called by the reads and
//! writes through a view in that representation.

use super::callable;
use super::manage::guard_no_file;
use crate::abi::*;
use crate::error::{MpiError, MpiResult};
use crate::ffi::comm::one_process_functions;
use crate::serial::datareps::{
    self, Conversion, CountConversion, ExtentFunction, IntConversion, Registered,
};
use std::ffi::{c_char, c_void, CStr};

/// Registers `datarep` with its functions.
///
/// # Safety
/// A non-NULL `datarep` is a C string.
unsafe fn register(
    datarep: *const c_char,
    (read, write): (Conversion, Conversion),
    extent: Option<ExtentFunction>,
    extra_state: *mut c_void,
) -> MpiResult<()> {
    if datarep.is_null() {
        return Err(MpiError::arg("datarep is NULL"));
    }
    let extent = extent.ok_or_else(|| MpiError::arg("dtype_file_extent_fn is NULL"))?;
    // SAFETY: the caller's C string.
    let name = unsafe { CStr::from_ptr(datarep) }
        .to_string_lossy()
        .into_owned();
    datareps::register(Registered {
        name,
        read,
        write,
        extent,
        extra_state: extra_state.expose_provenance(),
    })
}

one_process_functions! {
    /// Registers the data representation `datarep`: `read_conversion_fn` and
    /// `write_conversion_fn` convert between memory and the file (`MPI_CONVERSION_FN_NULL`:
    /// the file holds the bytes of memory), `dtype_file_extent_fn` gives a predefined type's
    /// extent in the file. `MPI_ERR_DUP_DATAREP` if the name is taken.
    fn MPI_Register_datarep(datarep: *const c_char, read_conversion_fn: *mut MPI_Datarep_conversion_function, write_conversion_fn: *mut MPI_Datarep_conversion_function, dtype_file_extent_fn: *mut MPI_Datarep_extent_function, extra_state: *mut c_void) via guard_no_file() {
        // SAFETY: the program's functions have the C types of their parameters.
        let (read, write, extent) = unsafe {
            (
                callable::<_, IntConversion>(read_conversion_fn).map_or(Conversion::None, Conversion::Int),
                callable::<_, IntConversion>(write_conversion_fn).map_or(Conversion::None, Conversion::Int),
                callable::<_, ExtentFunction>(dtype_file_extent_fn),
            )
        };
        // SAFETY: the caller's C string.
        unsafe { register(datarep, (read, write), extent, extra_state) }
    }
    /// `MPI_Register_datarep` with conversion functions that take an `MPI_Count` of copies.
    fn MPI_Register_datarep_c(datarep: *const c_char, read_conversion_fn: *mut MPI_Datarep_conversion_function_c, write_conversion_fn: *mut MPI_Datarep_conversion_function_c, dtype_file_extent_fn: *mut MPI_Datarep_extent_function, extra_state: *mut c_void) via guard_no_file() {
        // SAFETY: the program's functions have the C types of their parameters.
        let (read, write, extent) = unsafe {
            (
                callable::<_, CountConversion>(read_conversion_fn).map_or(Conversion::None, Conversion::Count),
                callable::<_, CountConversion>(write_conversion_fn).map_or(Conversion::None, Conversion::Count),
                callable::<_, ExtentFunction>(dtype_file_extent_fn),
            )
        };
        // SAFETY: the caller's C string.
        unsafe { register(datarep, (read, write), extent, extra_state) }
    }
}
