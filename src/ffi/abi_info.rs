//! `MPI_Abi_get_version` (MPI-5.0): which ABI the library speaks.
//!
//! With an MPI library behind this one (drop-in mode) that library answers, for it is the one
//! that runs the program's communication. Standalone the standard-ABI build answers the
//! version of its constants (`MPI_ABI_VERSION`, `MPI_ABI_SUBVERSION`: 1.0) and the MPICH-ABI
//! build -1.-1, as MPICH's own `libmpi.so.12` does: a caller such as mpi4py, which asks the
//! process's first `MPI_Abi_get_version` to tell the standard ABI from MPICH's, so sees the ABI
//! its program was built for.

use super::{check_out, guard, write_out};
use crate::abi::*;
use crate::behind::foreign_call;
use crate::ffi::export;
use std::os::raw::c_int;

/// The major and minor version of the standard ABI the library speaks (-1 and -1 for none).
#[no_mangle]
pub unsafe extern "C" fn MPI_Abi_get_version(
    abi_major: *mut c_int,
    abi_minor: *mut c_int,
) -> c_int {
    export("MPI_Abi_get_version", || {
        foreign_call!(
            MPI_Abi_get_version(abi_major, abi_minor)
            if crate::behind::backend().is_some()
        );
        guard("MPI_Abi_get_version", || {
            check_out(abi_major, "abi_major")?;
            check_out(abi_minor, "abi_minor")?;
            let (major, minor) = standard_abi_version();
            // SAFETY: the caller's pointers, checked non-NULL above.
            unsafe {
                write_out(abi_major, major, "abi_major")?;
                write_out(abi_minor, minor, "abi_minor")
            }
        })
    })
}
