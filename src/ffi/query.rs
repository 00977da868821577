//! Life and queries: commit and free, size and bounds (plain, `_x` and `_c`, and the MPI-1
//! `MPI_Type_extent` / `_lb` / `_ub`). Names are in [`names`](super::names), addresses and
//! type matching in [`address`](super::address), status element counts in
//! [`status`](super::status).

use super::{check_out, datatype, guard, read_in, write_out, CountArg};
use crate::abi::*;
use crate::behind;
use crate::error::MpiError;
use crate::handles;
use std::os::raw::c_int;

/// Commits a datatype so it can be used to pack and communicate.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_commit(datatype: *mut MPI_Datatype) -> c_int {
    behind::foreign_call!(
        PMPI_Type_commit(datatype: *mut MPI_Datatype)
        // SAFETY: the caller's in-out handle, as the function requires it.
        if handles::is_foreign(unsafe { behind::read_handle(datatype) })
    );
    guard("MPI_Type_commit", || {
        // SAFETY: the caller's in-out argument; read_in checks it for NULL.
        let handle = unsafe { read_in(datatype, "datatype")? };
        let dt = handles::commit(handle)?;
        crate::plan::compiled(&dt);
        Ok(())
    })
}

/// Frees a datatype handle and sets it to `MPI_DATATYPE_NULL`; types built from it stay valid.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_free(datatype: *mut MPI_Datatype) -> c_int {
    behind::foreign_call!(
        PMPI_Type_free(datatype: *mut MPI_Datatype)
        // SAFETY: the caller's in-out handle, as the function requires it.
        if handles::is_foreign(unsafe { behind::read_handle(datatype) })
    );
    guard("MPI_Type_free", || {
        // SAFETY: the caller's in-out argument; read_in checks it for NULL.
        let handle = unsafe { read_in(datatype, "datatype")? };
        if handles::is_builtin(handle) {
            return Err(MpiError::datatype("a predefined datatype cannot be freed"));
        }
        super::attributes::delete_all(handle)?;
        // The twin goes before the entry: the MPI behind runs the delete callbacks of its
        // attributes, which may query the type.
        handles::remove_with(handle, crate::twin::release)?;
        // SAFETY: as above.
        unsafe { write_out(datatype, MPI_DATATYPE_NULL, "datatype") }
    })
}

// ---- size ---------------------------------------------------------------------------------

/// # Safety
/// As for the exported functions.
unsafe fn type_size<C: CountArg>(
    function: &'static str,
    dt: MPI_Datatype,
    size: *mut C,
    undefined_if_too_large: bool,
) -> c_int {
    guard(function, || {
        check_out(size, "size")?;
        let bytes = datatype(dt)?.size();
        let value = if undefined_if_too_large {
            // "If the size of the datatype exceeds the value that can be represented in
            // the int argument, MPI_UNDEFINED is returned."
            C::or_undefined(Some(bytes))
        } else {
            C::from_count(bytes, "the size")?
        };
        // SAFETY: the caller's pointer, checked non-NULL above.
        unsafe { write_out(size, value, "size") }
    })
}

/// The number of bytes of data in one copy of the datatype (`MPI_UNDEFINED` if it does not
/// fit an `int`).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size(datatype: MPI_Datatype, size: *mut c_int) -> c_int {
    behind::foreign_call!(
        PMPI_Type_size(datatype: MPI_Datatype, size: *mut c_int)
        if handles::is_foreign(datatype)
    );
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { type_size("MPI_Type_size", datatype, size, true) }
}

/// `MPI_Type_size` with an `MPI_Count` result.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size_x(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    behind::foreign_call!(
        PMPI_Type_size_x(datatype: MPI_Datatype, size: *mut MPI_Count)
        if handles::is_foreign(datatype)
    );
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { type_size("MPI_Type_size_x", datatype, size, false) }
}

/// Large-count variant of `MPI_Type_size`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size_c(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    behind::foreign_call!(
        PMPI_Type_size_c(datatype: MPI_Datatype, size: *mut MPI_Count)
        if handles::is_foreign(datatype)
    );
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { type_size("MPI_Type_size_c", datatype, size, false) }
}

// ---- bounds -------------------------------------------------------------------------------

/// Which bounds a query reports.
#[derive(Clone, Copy)]
enum Bounds {
    /// lb and extent.
    Marked,
    /// true_lb and true_extent.
    True,
}

/// # Safety
/// As for the exported functions.
unsafe fn bounds(
    function: &'static str,
    dt: MPI_Datatype,
    lb: *mut i64,
    extent: *mut i64,
    which: Bounds,
) -> c_int {
    guard(function, || {
        check_out(lb, "lb")?;
        check_out(extent, "extent")?;
        let t = datatype(dt)?;
        let (l, e) = match which {
            Bounds::Marked => (t.lb(), t.extent()),
            Bounds::True => (t.true_lb(), t.true_extent()),
        };
        // SAFETY: the caller's pointers, checked non-NULL above.
        unsafe {
            write_out(lb, l, "lb")?;
            write_out(extent, e, "extent")
        }
    })
}

/// The lower bound and extent of the datatype.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent(
    datatype: MPI_Datatype,
    lb: *mut MPI_Aint,
    extent: *mut MPI_Aint,
) -> c_int {
    behind::foreign_call!(
        PMPI_Type_get_extent(datatype: MPI_Datatype, lb: *mut MPI_Aint, extent: *mut MPI_Aint)
        if handles::is_foreign(datatype)
    );
    let name = "MPI_Type_get_extent";
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe { bounds(name, datatype, lb, extent, Bounds::Marked) }
}

/// `MPI_Type_get_extent` with `MPI_Count` results.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent_x(
    datatype: MPI_Datatype,
    lb: *mut MPI_Count,
    extent: *mut MPI_Count,
) -> c_int {
    behind::foreign_call!(
        PMPI_Type_get_extent_x(datatype: MPI_Datatype, lb: *mut MPI_Count, extent: *mut MPI_Count)
        if handles::is_foreign(datatype)
    );
    let name = "MPI_Type_get_extent_x";
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe { bounds(name, datatype, lb, extent, Bounds::Marked) }
}

/// Large-count variant of `MPI_Type_get_extent`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent_c(
    datatype: MPI_Datatype,
    lb: *mut MPI_Count,
    extent: *mut MPI_Count,
) -> c_int {
    behind::foreign_call!(
        PMPI_Type_get_extent_c(datatype: MPI_Datatype, lb: *mut MPI_Count, extent: *mut MPI_Count)
        if handles::is_foreign(datatype)
    );
    let name = "MPI_Type_get_extent_c";
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe { bounds(name, datatype, lb, extent, Bounds::Marked) }
}

/// The lower bound and extent of the data itself, ignoring markers and padding.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Aint,
    true_extent: *mut MPI_Aint,
) -> c_int {
    behind::foreign_call!(
        PMPI_Type_get_true_extent(datatype: MPI_Datatype, true_lb: *mut MPI_Aint, true_extent: *mut MPI_Aint)
        if handles::is_foreign(datatype)
    );
    let name = "MPI_Type_get_true_extent";
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe { bounds(name, datatype, true_lb, true_extent, Bounds::True) }
}

/// `MPI_Type_get_true_extent` with `MPI_Count` results.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent_x(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Count,
    true_extent: *mut MPI_Count,
) -> c_int {
    behind::foreign_call!(
        PMPI_Type_get_true_extent_x(datatype: MPI_Datatype, true_lb: *mut MPI_Count, true_extent: *mut MPI_Count)
        if handles::is_foreign(datatype)
    );
    let name = "MPI_Type_get_true_extent_x";
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe { bounds(name, datatype, true_lb, true_extent, Bounds::True) }
}

/// Large-count variant of `MPI_Type_get_true_extent`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent_c(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Count,
    true_extent: *mut MPI_Count,
) -> c_int {
    behind::foreign_call!(
        PMPI_Type_get_true_extent_c(datatype: MPI_Datatype, true_lb: *mut MPI_Count, true_extent: *mut MPI_Count)
        if handles::is_foreign(datatype)
    );
    let name = "MPI_Type_get_true_extent_c";
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe { bounds(name, datatype, true_lb, true_extent, Bounds::True) }
}

/// One bound of the MPI-1 queries.
#[derive(Clone, Copy)]
enum Mpi1Bound {
    Extent,
    Lb,
    Ub,
}

/// # Safety
/// As for the exported functions.
unsafe fn mpi1_bound(
    function: &'static str,
    dt: MPI_Datatype,
    out: *mut MPI_Aint,
    name: &str,
    which: Mpi1Bound,
) -> c_int {
    guard(function, || {
        check_out(out, name)?;
        let t = datatype(dt)?;
        let value = match which {
            Mpi1Bound::Extent => t.extent(),
            Mpi1Bound::Lb => t.lb(),
            Mpi1Bound::Ub => t.ub(),
        };
        // SAFETY: the caller's pointer, checked non-NULL above.
        unsafe { write_out(out, value, name) }
    })
}

/// MPI-1: the extent of the datatype (removed from the standard, still exported by MPICH).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_extent(datatype: MPI_Datatype, extent: *mut MPI_Aint) -> c_int {
    behind::foreign_call!(
        PMPI_Type_extent(datatype: MPI_Datatype, extent: *mut MPI_Aint)
        if handles::is_foreign(datatype)
    );
    let (f, which) = ("MPI_Type_extent", Mpi1Bound::Extent);
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { mpi1_bound(f, datatype, extent, "extent", which) }
}

/// MPI-1: the lower bound of the datatype (removed from the standard, still exported by MPICH).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_lb(datatype: MPI_Datatype, displacement: *mut MPI_Aint) -> c_int {
    behind::foreign_call!(
        PMPI_Type_lb(datatype: MPI_Datatype, displacement: *mut MPI_Aint)
        if handles::is_foreign(datatype)
    );
    let (f, which) = ("MPI_Type_lb", Mpi1Bound::Lb);
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { mpi1_bound(f, datatype, displacement, "displacement", which) }
}

/// MPI-1: the upper bound of the datatype (removed from the standard, still exported by MPICH).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_ub(datatype: MPI_Datatype, displacement: *mut MPI_Aint) -> c_int {
    behind::foreign_call!(
        PMPI_Type_ub(datatype: MPI_Datatype, displacement: *mut MPI_Aint)
        if handles::is_foreign(datatype)
    );
    let (f, which) = ("MPI_Type_ub", Mpi1Bound::Ub);
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { mpi1_bound(f, datatype, displacement, "displacement", which) }
}
