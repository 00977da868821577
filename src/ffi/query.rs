//! Life and queries: commit and free, size and bounds (plain, `_x` and `_c`, and the MPI-1
//! `MPI_Type_extent` / `_lb` / `_ub`). Names are in [`names`](super::names), addresses and
//! type matching in [`address`](super::address), status element counts in
//! [`status`](super::status).

use super::{check_out, guard, read_in, with_datatype, write_out, CountArg};
use crate::abi::*;
use crate::behind;
use crate::datatype::Measures;
use crate::handles;
use std::os::raw::c_int;

/// Commits a datatype so it can be used to pack and communicate.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_commit(datatype: *mut MPI_Datatype) -> c_int {
    behind::foreign_call!(
        PMPI_Type_commit(datatype: *mut MPI_Datatype)
        // SAFETY: the caller's in-out handle, as the function requires it.
        if crate::dropin::is_foreign(unsafe { behind::read_handle(datatype) })
    );
    guard("MPI_Type_commit", || {
        // SAFETY: the caller's in-out argument; read_in checks it for NULL.
        let handle = unsafe { read_in(datatype, "datatype")? };
        crate::trace::commit(handle);
        let dt = crate::dropin::commit(handle)?;
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
        if crate::dropin::is_foreign(unsafe { behind::read_handle(datatype) })
    );
    guard("MPI_Type_free", || {
        // SAFETY: the caller's in-out argument; read_in checks it for NULL.
        let handle = unsafe { read_in(datatype, "datatype")? };
        let attributes = handles::attributes_if_freeable(handle)?;
        super::attributes::delete_all(handle, attributes)?;
        crate::trace::free(handle);
        // The twin goes before the entry: the MPI behind runs the delete callbacks of its
        // attributes, which may query the type.
        crate::dropin::free(handle)?;
        // SAFETY: as above.
        unsafe { write_out(datatype, MPI_DATATYPE_NULL, "datatype") }
    })
}

// ---- how a query is answered ----------------------------------------------------------

/// Answers a query on `dt`: at once when the handle is one of this library's whose measures
/// are found without a lock ([`handles::measures_at_once`]) and `at_once` could write the
/// answer (it returns false for a NULL output or a value that does not fit, which `in_full`
/// then reports); else with the MPI
/// behind's answer for a type that library made itself (`forward`); else in full, with the
/// argument checks and error reporting of `in_full`.
#[inline(always)]
fn answer(
    dt: MPI_Datatype,
    at_once: impl FnOnce(&Measures) -> bool,
    forward: impl FnOnce() -> Option<c_int>,
    in_full: impl FnOnce() -> c_int,
) -> c_int {
    if handles::measures_at_once(dt).is_some_and(|m| at_once(&m)) {
        return MPI_SUCCESS;
    }
    answer_otherwise(dt, forward, in_full)
}

/// [`answer`] when the measures were not found at once: out of line, so that the success
/// path keeps no registers or stack for it.
#[cold]
#[inline(never)]
fn answer_otherwise(
    dt: MPI_Datatype,
    forward: impl FnOnce() -> Option<c_int>,
    in_full: impl FnOnce() -> c_int,
) -> c_int {
    if crate::dropin::is_foreign(dt) {
        if let Some(rc) = forward() {
            return rc;
        }
    }
    in_full()
}

// ---- size ---------------------------------------------------------------------------------

/// # Safety
/// As for the exported functions.
unsafe fn type_size<C: CountArg>(
    function: &'static str,
    dt: MPI_Datatype,
    size: *mut C,
    forward: impl FnOnce() -> Option<c_int>,
) -> c_int {
    let value_of = move |bytes: i64| {
        if !C::LARGE {
            // "If the size of the datatype exceeds the value that can be represented in
            // the int argument, MPI_UNDEFINED is returned."
            Ok(C::or_undefined(Some(bytes)))
        } else {
            C::from_count(bytes, "the size")
        }
    };
    let at_once = move |m: &Measures| {
        value_of(m.size).is_ok_and(|v| {
            // SAFETY: the caller's pointer, under the exported function's contract;
            // write_out checks it for NULL.
            unsafe { write_out(size, v, "size") }.is_ok()
        })
    };
    let in_full = move || {
        guard(function, || {
            check_out(size, "size")?;
            let value = value_of(with_datatype(dt, |t| t.measures.size)?)?;
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(size, value, "size") }
        })
    };
    answer(dt, at_once, forward, in_full)
}

/// The number of bytes of data in one copy of the datatype (`MPI_UNDEFINED` if it does not
/// fit an `int`).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size(datatype: MPI_Datatype, size: *mut c_int) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_size: fn(MPI_Datatype, *mut c_int) -> c_int, datatype, size);
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { type_size("MPI_Type_size", datatype, size, forward) }
}

/// `MPI_Type_size` with an `MPI_Count` result.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size_x(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_size_x: fn(MPI_Datatype, *mut MPI_Count) -> c_int, datatype, size);
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { type_size("MPI_Type_size_x", datatype, size, forward) }
}

/// Large-count variant of `MPI_Type_size`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size_c(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_size_c: fn(MPI_Datatype, *mut MPI_Count) -> c_int, datatype, size);
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { type_size("MPI_Type_size_c", datatype, size, forward) }
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

impl Bounds {
    fn of(self, m: &Measures) -> (i64, i64) {
        match self {
            Bounds::Marked => (m.lb, m.extent),
            Bounds::True => (m.true_lb, m.true_extent),
        }
    }
}

/// # Safety
/// As for the exported functions.
unsafe fn bounds(
    function: &'static str,
    dt: MPI_Datatype,
    lb: *mut i64,
    extent: *mut i64,
    which: Bounds,
    forward: impl FnOnce() -> Option<c_int>,
) -> c_int {
    let at_once = move |m: &Measures| {
        let (l, e) = which.of(m);
        // SAFETY: the caller's pointers, under the exported function's contract.
        !extent.is_null()
            && unsafe { write_out(lb, l, "lb").is_ok() && write_out(extent, e, "extent").is_ok() }
    };
    let in_full = move || {
        guard(function, || {
            check_out(lb, "lb")?;
            check_out(extent, "extent")?;
            let (l, e) = with_datatype(dt, |t| which.of(&t.measures))?;
            // SAFETY: the caller's pointers, checked non-NULL above.
            unsafe {
                write_out(lb, l, "lb")?;
                write_out(extent, e, "extent")
            }
        })
    };
    answer(dt, at_once, forward, in_full)
}

/// The lower bound and extent of the datatype.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent(
    datatype: MPI_Datatype,
    lb: *mut MPI_Aint,
    extent: *mut MPI_Aint,
) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_get_extent: fn(MPI_Datatype, *mut MPI_Aint, *mut MPI_Aint) -> c_int, datatype, lb, extent);
    let which = Bounds::Marked;
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe { bounds("MPI_Type_get_extent", datatype, lb, extent, which, forward) }
}

/// `MPI_Type_get_extent` with `MPI_Count` results.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent_x(
    datatype: MPI_Datatype,
    lb: *mut MPI_Count,
    extent: *mut MPI_Count,
) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_get_extent_x: fn(MPI_Datatype, *mut MPI_Count, *mut MPI_Count) -> c_int, datatype, lb, extent);
    let which = Bounds::Marked;
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe {
        bounds(
            "MPI_Type_get_extent_x",
            datatype,
            lb,
            extent,
            which,
            forward,
        )
    }
}

/// Large-count variant of `MPI_Type_get_extent`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent_c(
    datatype: MPI_Datatype,
    lb: *mut MPI_Count,
    extent: *mut MPI_Count,
) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_get_extent_c: fn(MPI_Datatype, *mut MPI_Count, *mut MPI_Count) -> c_int, datatype, lb, extent);
    let which = Bounds::Marked;
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe {
        bounds(
            "MPI_Type_get_extent_c",
            datatype,
            lb,
            extent,
            which,
            forward,
        )
    }
}

/// The lower bound and extent of the data itself, ignoring markers and padding.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Aint,
    true_extent: *mut MPI_Aint,
) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_get_true_extent: fn(MPI_Datatype, *mut MPI_Aint, *mut MPI_Aint) -> c_int, datatype, true_lb, true_extent);
    let which = Bounds::True;
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe {
        bounds(
            "MPI_Type_get_true_extent",
            datatype,
            true_lb,
            true_extent,
            which,
            forward,
        )
    }
}

/// `MPI_Type_get_true_extent` with `MPI_Count` results.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent_x(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Count,
    true_extent: *mut MPI_Count,
) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_get_true_extent_x: fn(MPI_Datatype, *mut MPI_Count, *mut MPI_Count) -> c_int, datatype, true_lb, true_extent);
    let which = Bounds::True;
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe {
        bounds(
            "MPI_Type_get_true_extent_x",
            datatype,
            true_lb,
            true_extent,
            which,
            forward,
        )
    }
}

/// Large-count variant of `MPI_Type_get_true_extent`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent_c(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Count,
    true_extent: *mut MPI_Count,
) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_get_true_extent_c: fn(MPI_Datatype, *mut MPI_Count, *mut MPI_Count) -> c_int, datatype, true_lb, true_extent);
    let which = Bounds::True;
    // SAFETY: the caller's pointers, passed on under the same contract.
    unsafe {
        bounds(
            "MPI_Type_get_true_extent_c",
            datatype,
            true_lb,
            true_extent,
            which,
            forward,
        )
    }
}

/// One bound of the MPI-1 queries.
#[cfg(not(feature = "standard-abi"))]
#[derive(Clone, Copy)]
enum Mpi1Bound {
    Extent,
    Lb,
    Ub,
}

#[cfg(not(feature = "standard-abi"))]
impl Mpi1Bound {
    fn of(self, m: &Measures) -> i64 {
        match self {
            Mpi1Bound::Extent => m.extent,
            Mpi1Bound::Lb => m.lb,
            Mpi1Bound::Ub => m.ub,
        }
    }
}

/// # Safety
/// As for the exported functions.
#[cfg(not(feature = "standard-abi"))]
unsafe fn mpi1_bound(
    function: &'static str,
    dt: MPI_Datatype,
    out: *mut MPI_Aint,
    name: &str,
    which: Mpi1Bound,
    forward: impl FnOnce() -> Option<c_int>,
) -> c_int {
    // SAFETY: the caller's pointer, under the exported function's contract.
    let at_once = move |m: &Measures| unsafe { write_out(out, which.of(m), name) }.is_ok();
    let in_full = move || {
        guard(function, || {
            check_out(out, name)?;
            let value = with_datatype(dt, |t| which.of(&t.measures))?;
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(out, value, name) }
        })
    };
    answer(dt, at_once, forward, in_full)
}

/// MPI-1: the extent of the datatype (removed from the standard, still exported by MPICH).
#[cfg(not(feature = "standard-abi"))]
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_extent(datatype: MPI_Datatype, extent: *mut MPI_Aint) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_extent: fn(MPI_Datatype, *mut MPI_Aint) -> c_int, datatype, extent);
    let which = Mpi1Bound::Extent;
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe {
        mpi1_bound(
            "MPI_Type_extent",
            datatype,
            extent,
            "extent",
            which,
            forward,
        )
    }
}

/// MPI-1: the lower bound of the datatype (removed from the standard, still exported by MPICH).
#[cfg(not(feature = "standard-abi"))]
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_lb(datatype: MPI_Datatype, displacement: *mut MPI_Aint) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_lb: fn(MPI_Datatype, *mut MPI_Aint) -> c_int, datatype, displacement);
    let which = Mpi1Bound::Lb;
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe {
        mpi1_bound(
            "MPI_Type_lb",
            datatype,
            displacement,
            "displacement",
            which,
            forward,
        )
    }
}

/// MPI-1: the upper bound of the datatype (removed from the standard, still exported by MPICH).
#[cfg(not(feature = "standard-abi"))]
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_ub(datatype: MPI_Datatype, displacement: *mut MPI_Aint) -> c_int {
    let forward = move || behind::forward!(PMPI_Type_ub: fn(MPI_Datatype, *mut MPI_Aint) -> c_int, datatype, displacement);
    let which = Mpi1Bound::Ub;
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe {
        mpi1_bound(
            "MPI_Type_ub",
            datatype,
            displacement,
            "displacement",
            which,
            forward,
        )
    }
}
