//! MPICH's `MPIX_Type_iov_len` and `MPIX_Type_iov`: the flattened view of a committed type as
//! its contiguous segments `(address, length)` relative to address 0 (`MPI_BOTTOM`), in
//! type-map order, with segments that continue one another merged. I/O layers add their
//! buffer's address to each segment.

use super::{check_out, guard, with_committed, write_out};
use crate::abi::*;
use crate::behind;
use crate::error::{MpiError, MpiResult};
use crate::ffi::export;
use crate::plan::iov;
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::Arc;

/// One contiguous segment of a datatype (MPICH's `MPIX_Iov`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MPIX_Iov {
    /// Start of the segment, relative to address 0.
    pub iov_base: *mut c_void,
    /// Length of the segment in bytes.
    pub iov_len: MPI_Aint,
}

fn check_non_negative(value: MPI_Count, name: &str) -> MpiResult<()> {
    if value < 0 {
        return Err(MpiError::arg(format!(
            "{name} must be non-negative, got {value}"
        )));
    }
    Ok(())
}

/// The number of whole segments of one copy of `datatype`, from its start, whose bytes add up
/// to at most `max_iov_bytes`, and those bytes.
#[no_mangle]
pub unsafe extern "C" fn MPIX_Type_iov_len(
    datatype: MPI_Datatype,
    max_iov_bytes: MPI_Count,
    iov_len: *mut MPI_Count,
    actual_iov_bytes: *mut MPI_Count,
) -> c_int {
    export("MPIX_Type_iov_len", || {
        behind::foreign_call!(
            MPIX_Type_iov_len(datatype, max_iov_bytes, iov_len, actual_iov_bytes)
            if crate::dropin::is_foreign(datatype)
        );
        guard("MPIX_Type_iov_len", || {
            check_non_negative(max_iov_bytes, "max_iov_bytes")?;
            check_out(iov_len, "iov_len")?;
            check_out(actual_iov_bytes, "actual_iov_bytes")?;
            let (segments, bytes) = with_committed(datatype, |dt| {
                iov::segments_within(dt.plan.root(), max_iov_bytes)
            })?;
            // SAFETY: both checked non-NULL; the caller passes valid pointers.
            unsafe {
                write_out(iov_len, segments, "iov_len")?;
                write_out(actual_iov_bytes, bytes, "actual_iov_bytes")
            }
        })
    })
}

/// Writes up to `max_iov_len` segments of one copy of `datatype` into `iov`, starting with
/// segment number `iov_offset`, and their number into `actual_iov_len`.
#[no_mangle]
pub unsafe extern "C" fn MPIX_Type_iov(
    datatype: MPI_Datatype,
    iov_offset: MPI_Count,
    iov: *mut MPIX_Iov,
    max_iov_len: MPI_Count,
    actual_iov_len: *mut MPI_Count,
) -> c_int {
    export("MPIX_Type_iov", || {
        behind::foreign_call!(
            MPIX_Type_iov(datatype, iov_offset, iov, max_iov_len, actual_iov_len)
            if crate::dropin::is_foreign(datatype)
        );
        guard("MPIX_Type_iov", || {
            check_non_negative(iov_offset, "iov_offset")?;
            check_non_negative(max_iov_len, "max_iov_len")?;
            check_out(actual_iov_len, "actual_iov_len")?;
            if max_iov_len > 0 {
                check_out(iov, "iov")?;
            }
            let dt = with_committed(datatype, Arc::clone)?;
            let mut next = iov;
            let written = iov::segments(dt.plan.root(), iov_offset, max_iov_len, |disp, len| {
                // SAFETY: `iov` has room for `max_iov_len` entries, and at most that many are
                // reported.
                unsafe {
                    next.write(MPIX_Iov {
                        iov_base: std::ptr::without_provenance_mut(disp as usize),
                        iov_len: len,
                    });
                    next = next.add(1);
                }
            });
            // SAFETY: checked non-NULL.
            unsafe { write_out(actual_iov_len, written, "actual_iov_len") }
        })
    })
}
