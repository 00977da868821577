//! What this library holds in the MPI behind (the twins of datatype objects, the types of
//! bytes, the f90 twins, the types with a hole) is given back inside that library's
//! `MPI_Finalize`, after the program's own work there.
//!
//! `MPI_Finalize` first deletes the attributes of `MPI_COMM_SELF`, the last set first, and
//! runs their delete callbacks, in which a program may still communicate (MPI-4.1 §11.2.5;
//! HDF5 closes the files left open so): with types whose twins this library keeps. Right
//! after the MPI behind is initialized, before the program can set any, this library sets an
//! attribute of its own key on `MPI_COMM_SELF` ([`set`]), so its delete callback runs last,
//! and gives everything back there. Where it could not be set, everything is given back
//! before the MPI behind's `MPI_Finalize`, as the only place left.

use crate::abi::*;
use crate::behind::forward;
use std::os::raw::{c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};

/// True once the attribute is set on `MPI_COMM_SELF`.
static SET: AtomicBool = AtomicBool::new(false);

/// Sets the attribute whose delete callback gives everything back, right after the MPI
/// behind was initialized through this library.
pub fn set() {
    let mut key = MPI_KEYVAL_INVALID;
    // A copy callback that copies nothing, as a function: Open MPI refuses a null one (a
    // duplicate of MPI_COMM_SELF does not get the attribute).
    let copy_nothing = crate::keyvals::copy_nothing::<MPI_Comm>;
    let made = forward!(PMPI_Comm_create_keyval: fn(MPI_Comm_copy_attr_function, MPI_Comm_delete_attr_function, *mut c_int, *mut c_void) -> c_int,
        Some(copy_nothing), Some(at_finalize), &mut key, std::ptr::null_mut());
    if made != Some(MPI_SUCCESS) {
        return;
    }
    let set = forward!(PMPI_Comm_set_attr: fn(MPI_Comm, c_int, *mut c_void) -> c_int,
        MPI_COMM_SELF, key, std::ptr::null_mut());
    SET.store(set == Some(MPI_SUCCESS), Ordering::Release);
}

/// Whether the attribute is set: `MPI_Finalize` then leaves the giving back to its callback.
pub fn is_set() -> bool {
    SET.load(Ordering::Acquire)
}

/// The delete callback: the MPI behind is finalizing, and the program's callbacks on
/// `MPI_COMM_SELF` have run.
unsafe extern "C" fn at_finalize(
    _comm: MPI_Comm,
    _keyval: c_int,
    _value: *mut c_void,
    _extra: *mut c_void,
) -> c_int {
    // Nothing may unwind into the MPI behind.
    let _ = std::panic::catch_unwind(super::give_back);
    MPI_SUCCESS
}
