//! Addresses and type matching: `MPI_Get_address` (and the MPI-1 `MPI_Address`),
//! `MPI_Aint_add`, `MPI_Aint_diff`, `MPI_Type_match_size` and `MPI_Type_get_value_index`.
//!
//! An address is a pointer's address with its provenance exposed
//! ([`pointer::expose_provenance`]), so that memory reached through it later (an absolute
//! displacement from `MPI_BOTTOM`) is accessed with that provenance
//! ([`std::ptr::with_exposed_provenance`]).

use super::{check_out, guard, with_datatype, write_out};
use crate::abi::*;
use crate::error::MpiError;
use crate::ffi::{export, export_value};
use crate::predefined;
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::Arc;

/// # Safety
/// As for the exported functions.
unsafe fn get_address(
    function: &'static str,
    location: *const c_void,
    address: *mut MPI_Aint,
) -> c_int {
    guard(function, || {
        let value = location.expose_provenance() as MPI_Aint;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(address, value, "address") }
    })
}

/// The address of `location`, for absolute displacements relative to `MPI_BOTTOM`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_address(location: *const c_void, address: *mut MPI_Aint) -> c_int {
    export("MPI_Get_address", || {
        // SAFETY: the caller's pointer, passed on under the same contract.
        unsafe { get_address("MPI_Get_address", location, address) }
    })
}

/// MPI-1 name of `MPI_Get_address` (removed from the standard, still exported by MPICH and Open MPI).
#[cfg(not(abi = "standard"))]
#[no_mangle]
pub unsafe extern "C" fn MPI_Address(location: *mut c_void, address: *mut MPI_Aint) -> c_int {
    export("MPI_Address", || {
        // SAFETY: the caller's pointer, passed on under the same contract.
        unsafe { get_address("MPI_Address", location, address) }
    })
}

/// `base + disp` as addresses (wrapping like pointer arithmetic).
#[no_mangle]
pub extern "C" fn MPI_Aint_add(base: MPI_Aint, disp: MPI_Aint) -> MPI_Aint {
    export_value("MPI_Aint_add", 0, || base.wrapping_add(disp))
}

/// `addr1 - addr2` as addresses (wrapping like pointer arithmetic).
#[no_mangle]
pub extern "C" fn MPI_Aint_diff(addr1: MPI_Aint, addr2: MPI_Aint) -> MPI_Aint {
    export_value("MPI_Aint_diff", 0, || addr1.wrapping_sub(addr2))
}

/// The predefined Fortran-sized type of `typeclass` (`MPI_TYPECLASS_*`) with `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_match_size(
    typeclass: c_int,
    size: c_int,
    datatype: *mut MPI_Datatype,
) -> c_int {
    export("MPI_Type_match_size", || {
        // A size this library has no type for may be one of the MPI behind's (MPICH 5's
        // MPI_INTEGER16, say): that library answers then.
        let found = class_of_typeclass(typeclass)
            .and_then(|class| predefined::match_size(class, size.into()))
            .map(basic_handle);
        crate::behind::foreign_call!(
            MPI_Type_match_size(typeclass, size, datatype)
            if found.is_none() && crate::behind::backend().is_some()
        );
        guard("MPI_Type_match_size", || {
            check_out(datatype, "datatype")?;
            if class_of_typeclass(typeclass).is_none() {
                return Err(MpiError::arg(format!(
                    "typeclass {typeclass} is not an MPI_TYPECLASS_* value"
                )));
            }
            let found = found.ok_or_else(|| {
                MpiError::arg(format!(
                    "no predefined type of class {typeclass} has {size} bytes"
                ))
            })?;
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(datatype, found, "datatype") }
        })
    })
}

/// The predefined pair type for `MPI_MINLOC` / `MPI_MAXLOC` of a value of `value_type` with an
/// index of `index_type` (`MPI_FLOAT_INT`, ..., `MPI_2INT`, and the Fortran `MPI_2INTEGER`,
/// `MPI_2REAL`, `MPI_2DOUBLE_PRECISION`), or `MPI_DATATYPE_NULL` when no predefined pair has
/// those members (MPI-4.1 §6.9.4). Both arguments must be valid datatypes.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_value_index(
    value_type: MPI_Datatype,
    index_type: MPI_Datatype,
    pair_type: *mut MPI_Datatype,
) -> c_int {
    export("MPI_Type_get_value_index", || {
        crate::behind::foreign_call!(
            MPI_Type_get_value_index(value_type, index_type, pair_type)
            if crate::dropin::is_foreign(value_type) || crate::dropin::is_foreign(index_type)
        );
        guard("MPI_Type_get_value_index", || {
            check_out(pair_type, "pair_type")?;
            let basic = |t: &Arc<crate::datatype::Datatype>| match t.predefined()?.kind {
                predefined::PredefinedKind::Basic(b) => Some(b),
                _ => None,
            };
            let value = with_datatype(value_type, basic)?;
            let index = with_datatype(index_type, basic)?;
            let pair = value
                .zip(index)
                .and_then(|(v, i)| predefined::value_index_pair(v, i))
                .and_then(predefined_handle);
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(pair_type, pair.unwrap_or(MPI_DATATYPE_NULL), "pair_type") }
        })
    })
}
