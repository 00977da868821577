//! Life and queries: commit and free, size and bounds (plain, `_x` and `_c`, and the MPI-1
//! `MPI_Type_extent` / `_lb` / `_ub`). Names are in [`names`](super::names), addresses and
//! type matching in [`address`](super::address), status element counts in
//! [`status`](super::status).

use super::{check_out, guard, read_in, with_datatype, write_out, CountArg};
use crate::abi::*;
use crate::behind;
use crate::datatype::Measures;
use crate::error::MpiResult;
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
//
// Each query answers at once when the handle is one of this library's whose measures are
// found without a lock ([`handles::measures_at_once`]) and the output pointers are not NULL.
// Everything else (the MPI behind's answer for a type that library made itself, or the
// answer in full, with the argument checks and error reporting) is in a function of its own,
// out of line and called with the query's own arguments, so that the success path builds
// nothing for it and keeps no registers or stack.

/// The MPI behind's function of a query, called with the query's arguments (`None` when no
/// MPI library is behind this one).
type Forward<A> = fn(MPI_Datatype, A) -> Option<c_int>;

/// The MPI behind's answer when `dt` is a type that library made itself.
fn forwarded<A>(dt: MPI_Datatype, outputs: A, forward: Forward<A>) -> Option<c_int> {
    if crate::dropin::is_foreign(dt) {
        return forward(dt, outputs);
    }
    None
}

// ---- size ---------------------------------------------------------------------------------

/// The size `bytes` as a query of type `C` reports it.
fn size_value<C: CountArg>(bytes: i64) -> MpiResult<C> {
    if !C::LARGE {
        // "If the size of the datatype exceeds the value that can be represented in the int
        // argument, MPI_UNDEFINED is returned."
        Ok(C::or_undefined(Some(bytes)))
    } else {
        C::from_count(bytes, "the size")
    }
}

/// # Safety
/// As for the exported functions.
#[inline(always)]
unsafe fn type_size<C: CountArg>(
    function: &'static str,
    dt: MPI_Datatype,
    size: *mut C,
    forward: Forward<*mut C>,
) -> c_int {
    if let Some(bytes) = handles::measures_at_once(dt, |m| m.size) {
        if let (false, Ok(value)) = (size.is_null(), size_value::<C>(bytes)) {
            // SAFETY: not NULL, and valid for a write by the exported function's contract.
            unsafe { size.write(value) };
            return MPI_SUCCESS;
        }
    }
    // SAFETY: as above.
    unsafe { type_size_otherwise(function, dt, size, forward) }
}

/// [`type_size`] when the measures were not found at once.
///
/// # Safety
/// As for the exported functions.
#[cold]
#[inline(never)]
unsafe fn type_size_otherwise<C: CountArg>(
    function: &'static str,
    dt: MPI_Datatype,
    size: *mut C,
    forward: Forward<*mut C>,
) -> c_int {
    if let Some(rc) = forwarded(dt, size, forward) {
        return rc;
    }
    guard(function, || {
        check_out(size, "size")?;
        let value = size_value::<C>(with_datatype(dt, |t| t.measures.size)?)?;
        // SAFETY: the caller's pointer, checked non-NULL above.
        unsafe { write_out(size, value, "size") }
    })
}

/// The number of bytes of data in one copy of the datatype (`MPI_UNDEFINED` if it does not
/// fit an `int`).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size(datatype: MPI_Datatype, size: *mut c_int) -> c_int {
    let forward: Forward<_> = |dt, size| behind::forward!(PMPI_Type_size: fn(MPI_Datatype, *mut c_int) -> c_int, dt, size);
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { type_size("MPI_Type_size", datatype, size, forward) }
}

/// `MPI_Type_size` with an `MPI_Count` result.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size_x(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    let forward: Forward<_> = |dt, size| behind::forward!(PMPI_Type_size_x: fn(MPI_Datatype, *mut MPI_Count) -> c_int, dt, size);
    // SAFETY: the caller's pointer, passed on under the same contract.
    unsafe { type_size("MPI_Type_size_x", datatype, size, forward) }
}

/// Large-count variant of `MPI_Type_size`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size_c(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    let forward: Forward<_> = |dt, size| behind::forward!(PMPI_Type_size_c: fn(MPI_Datatype, *mut MPI_Count) -> c_int, dt, size);
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
#[inline(always)]
unsafe fn bounds(
    function: &'static str,
    dt: MPI_Datatype,
    lb: *mut i64,
    extent: *mut i64,
    which: Bounds,
    forward: Forward<(*mut i64, *mut i64)>,
) -> c_int {
    if let Some((l, e)) = handles::measures_at_once(dt, |m| which.of(m)) {
        if !lb.is_null() && !extent.is_null() {
            // SAFETY: not NULL, and valid for writes by the exported function's contract.
            unsafe {
                lb.write(l);
                extent.write(e);
            }
            return MPI_SUCCESS;
        }
    }
    // SAFETY: as above.
    unsafe { bounds_otherwise(function, dt, lb, extent, which, forward) }
}

/// [`bounds`] when the measures were not found at once.
///
/// # Safety
/// As for the exported functions.
#[cold]
#[inline(never)]
unsafe fn bounds_otherwise(
    function: &'static str,
    dt: MPI_Datatype,
    lb: *mut i64,
    extent: *mut i64,
    which: Bounds,
    forward: Forward<(*mut i64, *mut i64)>,
) -> c_int {
    if let Some(rc) = forwarded(dt, (lb, extent), forward) {
        return rc;
    }
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
}

/// The lower bound and extent of the datatype.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent(
    datatype: MPI_Datatype,
    lb: *mut MPI_Aint,
    extent: *mut MPI_Aint,
) -> c_int {
    let forward: Forward<_> = |dt, (a, b)| behind::forward!(PMPI_Type_get_extent: fn(MPI_Datatype, *mut MPI_Aint, *mut MPI_Aint) -> c_int, dt, a, b);
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
    let forward: Forward<_> = |dt, (a, b)| behind::forward!(PMPI_Type_get_extent_x: fn(MPI_Datatype, *mut MPI_Count, *mut MPI_Count) -> c_int, dt, a, b);
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
    let forward: Forward<_> = |dt, (a, b)| behind::forward!(PMPI_Type_get_extent_c: fn(MPI_Datatype, *mut MPI_Count, *mut MPI_Count) -> c_int, dt, a, b);
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
    let forward: Forward<_> = |dt, (a, b)| behind::forward!(PMPI_Type_get_true_extent: fn(MPI_Datatype, *mut MPI_Aint, *mut MPI_Aint) -> c_int, dt, a, b);
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
    let forward: Forward<_> = |dt, (a, b)| behind::forward!(PMPI_Type_get_true_extent_x: fn(MPI_Datatype, *mut MPI_Count, *mut MPI_Count) -> c_int, dt, a, b);
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
    let forward: Forward<_> = |dt, (a, b)| behind::forward!(PMPI_Type_get_true_extent_c: fn(MPI_Datatype, *mut MPI_Count, *mut MPI_Count) -> c_int, dt, a, b);
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
#[inline(always)]
unsafe fn mpi1_bound(
    function: &'static str,
    dt: MPI_Datatype,
    out: *mut MPI_Aint,
    name: &'static str,
    which: Mpi1Bound,
    forward: Forward<*mut MPI_Aint>,
) -> c_int {
    if let Some(value) = handles::measures_at_once(dt, |m| which.of(m)) {
        if !out.is_null() {
            // SAFETY: not NULL, and valid for a write by the exported function's contract.
            unsafe { out.write(value) };
            return MPI_SUCCESS;
        }
    }
    // SAFETY: as above.
    unsafe { mpi1_bound_otherwise(function, dt, out, name, which, forward) }
}

/// [`mpi1_bound`] when the measures were not found at once.
///
/// # Safety
/// As for the exported functions.
#[cfg(not(feature = "standard-abi"))]
#[cold]
#[inline(never)]
unsafe fn mpi1_bound_otherwise(
    function: &'static str,
    dt: MPI_Datatype,
    out: *mut MPI_Aint,
    name: &'static str,
    which: Mpi1Bound,
    forward: Forward<*mut MPI_Aint>,
) -> c_int {
    if let Some(rc) = forwarded(dt, out, forward) {
        return rc;
    }
    guard(function, || {
        check_out(out, name)?;
        let value = with_datatype(dt, |t| which.of(&t.measures))?;
        // SAFETY: the caller's pointer, checked non-NULL above.
        unsafe { write_out(out, value, name) }
    })
}

/// MPI-1: the extent of the datatype (removed from the standard, still exported by MPICH).
#[cfg(not(feature = "standard-abi"))]
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_extent(datatype: MPI_Datatype, extent: *mut MPI_Aint) -> c_int {
    let forward: Forward<_> = |dt, out| behind::forward!(PMPI_Type_extent: fn(MPI_Datatype, *mut MPI_Aint) -> c_int, dt, out);
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
    let forward: Forward<_> =
        |dt, out| behind::forward!(PMPI_Type_lb: fn(MPI_Datatype, *mut MPI_Aint) -> c_int, dt, out);
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
    let forward: Forward<_> =
        |dt, out| behind::forward!(PMPI_Type_ub: fn(MPI_Datatype, *mut MPI_Aint) -> c_int, dt, out);
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
