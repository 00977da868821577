//! Element counts of a status: `MPI_Get_count`, `MPI_Get_elements` (with `_x` and `_c`) and
//! `MPI_Status_set_elements` (with `_x`). The counting itself is the core's ([`elements`]);
//! `count` in `MPI_Status_set_elements` is a number of basic elements (docs/semantics.md).

use super::{check_out, guard, with_datatype, write_out, CountArg};
use crate::abi::*;
use crate::behind::forward;
use crate::datatype::elements;
use crate::error::{MpiError, MpiResult};
use crate::ffi::{export, exported};
use std::os::raw::c_int;

/// Rejects NULL and `MPI_STATUS_IGNORE` where a status is needed.
fn check_status(status: *const MPI_Status) -> MpiResult<()> {
    if status.is_null() || status == MPI_STATUS_IGNORE {
        return Err(MpiError::arg("status is NULL or MPI_STATUS_IGNORE"));
    }
    Ok(())
}

/// Number of whole copies of a type of `size` bytes in `bytes`, if it is whole.
fn whole_copies(bytes: i64, size: i64) -> Option<i64> {
    match size {
        0 => Some(0),
        s if bytes % s == 0 => Some(bytes / s),
        _ => None,
    }
}

/// What a status query counts.
#[derive(Clone, Copy)]
enum Counted {
    /// Whole copies of the datatype (`MPI_Get_count`).
    Copies,
    /// Basic elements (`MPI_Get_elements`).
    Elements,
}

/// # Safety
/// As for the exported functions.
unsafe fn get_count<C: CountArg>(
    function: &'static str,
    status: *const MPI_Status,
    dt: MPI_Datatype,
    count: *mut C,
    what: Counted,
) -> c_int {
    guard(function, || {
        check_out(count, "count")?;
        check_status(status)?;
        // SAFETY: checked to be neither NULL nor MPI_STATUS_IGNORE; the caller's status.
        let bytes = unsafe { &*status }.count_bytes();
        let n = with_datatype(dt, |t| match what {
            Counted::Copies => whole_copies(bytes, t.size()),
            Counted::Elements => elements::elements_in_bytes(t, bytes),
        })?;
        // SAFETY: the caller's pointer, checked non-NULL above.
        unsafe { write_out(count, C::or_undefined(n), "count") }
    })
}

exported! {
    /// Number of whole copies of `datatype` received (`MPI_UNDEFINED` if not whole).
    fn MPI_Get_count(status: *const MPI_Status, datatype: MPI_Datatype, count: *mut c_int) with what = Counted::Copies;
    /// Large-count variant of `MPI_Get_count`.
    fn MPI_Get_count_c(status: *const MPI_Status, datatype: MPI_Datatype, count: *mut MPI_Count) with what = Counted::Copies;
    /// Number of basic elements received (`MPI_UNDEFINED` if the data ends inside one).
    fn MPI_Get_elements(status: *const MPI_Status, datatype: MPI_Datatype, count: *mut c_int) with what = Counted::Elements;
    /// `MPI_Get_elements` with an `MPI_Count` result.
    fn MPI_Get_elements_x(status: *const MPI_Status, datatype: MPI_Datatype, count: *mut MPI_Count) with what = Counted::Elements;
    /// Large-count variant of `MPI_Get_elements`.
    fn MPI_Get_elements_c(status: *const MPI_Status, datatype: MPI_Datatype, count: *mut MPI_Count) with what = Counted::Elements;
    foreign if crate::dropin::is_foreign(datatype);
    // SAFETY: the caller's pointers, passed on under the same contract.
    => unsafe { get_count(FUNCTION, status, datatype, count, what) }
}

/// # Safety
/// As for the exported functions.
unsafe fn set_elements<C: CountArg>(
    function: &'static str,
    status: *mut MPI_Status,
    dt: MPI_Datatype,
    count: C,
) -> c_int {
    guard(function, || {
        let count = count.into();
        crate::datatype::construct::check_count(count, "count")?;
        let bytes = with_datatype(dt, |t| elements::bytes_of_elements(t, count))??;
        check_status(status)?;
        // SAFETY: checked to be neither NULL nor MPI_STATUS_IGNORE; the caller's status.
        MPI_Status::set_count_bytes(unsafe { &mut *status }, bytes);
        Ok(())
    })
}

exported! {
    /// Sets the status so that `MPI_Get_elements` with `datatype` reports `count` basic elements.
    fn MPI_Status_set_elements(status: *mut MPI_Status, datatype: MPI_Datatype, count: c_int);
    /// `MPI_Status_set_elements` with an `MPI_Count` count.
    fn MPI_Status_set_elements_x(status: *mut MPI_Status, datatype: MPI_Datatype, count: MPI_Count);
    /// `MPI_Status_set_elements` with an `MPI_Count` count (MPI-4.1; the `_x` form it replaces is
    /// deprecated).
    fn MPI_Status_set_elements_c(status: *mut MPI_Status, datatype: MPI_Datatype, count: MPI_Count);
    foreign if crate::dropin::is_foreign(datatype);
    // SAFETY: the caller's pointer, passed on under the same contract.
    => unsafe { set_elements(FUNCTION, status, datatype, count) }
}

/// Sets `flag` if the operation `status` describes was cancelled (`MPI_Cancel`). In drop-in
/// mode the MPI behind reads its own status.
#[no_mangle]
pub unsafe extern "C" fn MPI_Test_cancelled(status: *const MPI_Status, flag: *mut c_int) -> c_int {
    export("MPI_Test_cancelled", || {
        let behind = forward!(MPI_Test_cancelled: fn(*const MPI_Status, *mut c_int) -> c_int,
            status, flag);
        if let Some(rc) = behind {
            return rc;
        }
        guard("MPI_Test_cancelled", || {
            check_status(status.cast_mut())?;
            // SAFETY: checked to be neither NULL nor MPI_STATUS_IGNORE; the caller's status.
            let cancelled = unsafe { &*status }.cancelled();
            // SAFETY: the caller's flag.
            unsafe { write_out(flag, c_int::from(cancelled), "flag") }
        })
    })
}

/// Sets whether the status says its operation was cancelled (for generalized requests). In
/// drop-in mode the MPI behind writes its own status.
#[no_mangle]
pub unsafe extern "C" fn MPI_Status_set_cancelled(status: *mut MPI_Status, flag: c_int) -> c_int {
    export("MPI_Status_set_cancelled", || {
        let behind = forward!(MPI_Status_set_cancelled: fn(*mut MPI_Status, c_int) -> c_int,
            status, flag);
        if let Some(rc) = behind {
            return rc;
        }
        guard("MPI_Status_set_cancelled", || {
            check_status(status)?;
            // SAFETY: checked to be neither NULL nor MPI_STATUS_IGNORE; the caller's status.
            unsafe { &mut *status }.set_cancelled(flag != 0);
            Ok(())
        })
    })
}
