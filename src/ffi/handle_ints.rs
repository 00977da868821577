//! `MPI_Type_toint` and `MPI_Type_fromint` (MPI-5.0): every datatype handle as an `int` and
//! back, the standard ABI's replacement of `MPI_Type_c2f` / `MPI_Type_f2c`, in every build;
//! and those two in the build of Open MPI's ABI, where they are functions.
//!
//! Predefined and this library's own handles convert by the ABI's codec
//! ([`handle_to_int`], [`handle_from_int`]): the identity in MPICH's ABI, where handles are
//! `int`s; in the standard ABI a predefined handle is its value and an own handle a tagged
//! slot number. A handle of the MPI behind (a twin, in drop-in mode) is that library's to
//! convert.

use crate::abi::*;
use crate::behind::forward;
use crate::ffi::export_value;
use std::os::raw::c_int;

/// The `int` standing for `datatype`, which `MPI_Type_fromint` turns back into the handle.
/// A value of no handle's form has none: the answer is then -1. (A freed handle of this
/// library still converts, and back: every call with it then reports it invalid.)
#[no_mangle]
pub extern "C" fn MPI_Type_toint(datatype: MPI_Datatype) -> c_int {
    export_value("MPI_Type_toint", -1, || {
        if let Some(value) = handle_to_int(datatype) {
            return value;
        }
        forward!(PMPI_Type_toint: fn(MPI_Datatype) -> c_int, datatype).unwrap_or(-1)
    })
}

/// The datatype handle `MPI_Type_toint` gave `value` for. In the standard ABI an `int` no
/// handle converts to gives `MPI_DATATYPE_NULL`; in MPICH's ABI, where handles are `int`s,
/// the conversion is the identity.
#[no_mangle]
pub extern "C" fn MPI_Type_fromint(value: c_int) -> MPI_Datatype {
    export_value("MPI_Type_fromint", MPI_DATATYPE_NULL, || {
        if let Some(handle) = handle_from_int(value) {
            return handle;
        }
        forward!(PMPI_Type_fromint: fn(c_int) -> MPI_Datatype, value).unwrap_or(MPI_DATATYPE_NULL)
    })
}

/// `MPI_Type_c2f` (a function of Open MPI's ABI; MPICH's is a macro): the Fortran number of
/// `datatype`. While an MPI library behind is initialized, it is that library's number of the
/// handle (of its twin, for a handle of this library's own form), which the program's Fortran
/// code takes there; otherwise the `int` of [`MPI_Type_toint`].
#[cfg(abi = "ompi")]
#[no_mangle]
pub extern "C" fn MPI_Type_c2f(datatype: MPI_Datatype) -> MPI_Fint {
    export_value("MPI_Type_c2f", -1, || {
        if crate::dropin::twin::enabled() {
            let number = forward!(PMPI_Type_c2f: fn(MPI_Datatype) -> MPI_Fint, datatype);
            if let Some(number) = number {
                return number;
            }
        }
        handle_to_int(datatype).unwrap_or(-1)
    })
}

/// `MPI_Type_f2c` (Open MPI's ABI): the datatype handle of a Fortran number [`MPI_Type_c2f`]
/// gave: while an MPI library behind is initialized, the handle the program holds for the
/// type that library gives (a twin's is the handle it was made for); otherwise, or for a
/// number that library does not know (one given before it was initialized), the handle of
/// [`MPI_Type_fromint`].
#[cfg(abi = "ompi")]
#[no_mangle]
pub extern "C" fn MPI_Type_f2c(datatype: MPI_Fint) -> MPI_Datatype {
    export_value("MPI_Type_f2c", MPI_DATATYPE_NULL, || {
        if crate::dropin::twin::enabled() {
            let handle = forward!(PMPI_Type_f2c: fn(MPI_Fint) -> MPI_Datatype, datatype);
            match handle {
                Some(handle) if handle != MPI_DATATYPE_NULL => {
                    return crate::handles::program_handle(handle)
                }
                _ => {}
            }
        }
        handle_from_int(datatype).unwrap_or(MPI_DATATYPE_NULL)
    })
}
