//! A message of more copies of a type than an `int` counts, for an MPI library behind that
//! has only the `int` functions of communication (Open MPI 4.1 and 5.0): one copy of a type
//! of that library that holds them all ([`whole`]), which its `int` function takes with a
//! count of 1.
//!
//! The type has the type map of the copies (`MPI_Type_contiguous` of the count, built in
//! steps of [`STEP`] copies), resized to the lower bound of the type and `count` times its
//! extent, so that blocks of it in a collective lie where blocks of the copies would.

use super::behind_types::{self as types, Count};
use super::twin::{commit, Held};
use crate::abi::{MPI_Datatype, MPI_ERR_COUNT};
use crate::error::{MpiError, MpiResult};
use std::os::raw::c_int;

/// The copies of one step of the type: a count an `int` holds.
const STEP: Count = 1 << 30;

/// The committed type of the MPI behind of `count` copies of `datatype` (its handle, of that
/// library).
pub fn whole(count: Count, datatype: MPI_Datatype) -> MpiResult<Held> {
    let (lb, extent) = types::extent(datatype)?;
    let extent = count.checked_mul(extent).ok_or_else(too_large)?;
    let copies = copies(count, datatype)?;
    let made = Held(types::resized(copies.0, lb, extent)?);
    commit(made.0)?;
    Ok(made)
}

/// `count` copies of `datatype` one after the other, not yet committed: one contiguous type
/// if `count` fits an `int`, else `count / STEP` copies of a type of [`STEP`] copies and,
/// after them, a contiguous type of the rest.
fn copies(count: Count, datatype: MPI_Datatype) -> MpiResult<Held> {
    if c_int::try_from(count).is_ok() {
        return Ok(Held(types::contiguous(count, datatype)?));
    }
    let (steps, rest) = (count / STEP, count % STEP);
    let step = Held(types::contiguous(STEP, datatype)?);
    let body = copies(steps, step.0)?;
    if rest == 0 {
        return Ok(body);
    }
    let tail = Held(types::contiguous(rest, datatype)?);
    let (_, extent) = types::extent(datatype)?;
    let at = (steps * STEP).checked_mul(extent).ok_or_else(too_large)?;
    let types = [body.0, tail.0];
    Ok(Held(types::structure(&[1, 1], &[0, at], &types)?))
}

/// The error of a message whose bounds overflow `MPI_Count`.
fn too_large() -> MpiError {
    MpiError::new(
        MPI_ERR_COUNT,
        "the message's extent overflows MPI_Count".to_string(),
    )
}
