//! Importing a datatype the MPI library behind this one made itself, so that a type the
//! program builds on it with this library's constructors is this library's, with the
//! standard's semantics (drop-in mode).
//!
//! Such a type comes, for example, from `MPI_File_get_view` or from `MPI_Type_get_contents`
//! of a type that library made. Its own types decode down to named types, which are this
//! library's: the type is read with that library's `PMPI_Type_get_envelope(_c)` /
//! `PMPI_Type_get_contents(_c)` ([`super::behind_types`]), its children are imported the same way, and it is made again
//! with this library's constructors ([`crate::datatype::rebuild`]). A child that is the
//! number of one of this library's types (a twin, also one whose handle the program freed
//! since, or Open MPI's duplicate of one: [`super::handed_back`]) is that type. The foreign handle itself stays that
//! library's: calls made with it still go there.
//!
//! What the other library reports is checked before it is believed: argument counts beyond
//! [`MAX_ARGUMENTS`], nesting deeper than [`MAX_DEPTH`] and arrays that do not fit their
//! combiner are `MPI_ERR_TYPE`, never a huge allocation or an endless descent.

use super::behind_types::{self, Envelope};
use crate::abi::*;
use crate::datatype::numbering::{self, Numbering};
use crate::datatype::rebuild::{rebuild, Decoded};
use crate::datatype::{Datatype, F90Class};
use crate::error::{MpiError, MpiResult};
use crate::handles;
use std::os::raw::c_int;
use std::sync::Arc;

/// The most arguments of one kind a decoded constructor may report.
pub const MAX_ARGUMENTS: i64 = 1 << 26;
/// The deepest nesting of constructors an imported type may have.
pub const MAX_DEPTH: usize = 1 << 10;

/// True if `handle` is a type of the MPI behind that this library cannot make again: one
/// built, at any depth, on a predefined type of that library this library does not know
/// (MPICH 5's `MPIX_BFLOAT16`, say). A constructor on it is left to that library.
pub fn is_unknown(handle: MPI_Datatype) -> bool {
    super::is_foreign(handle) && matches!(attempt(handle), Err(Failure::Unknown(_)))
}

/// True if one of the `count` handles at `types` is [`is_unknown`] (for the struct
/// constructors).
///
/// # Safety
/// A non-NULL `types` must be valid for `count` reads.
pub unsafe fn any_unknown(count: impl Into<i64>, types: *const MPI_Datatype) -> bool {
    let count: i64 = count.into();
    if types.is_null() || count <= 0 || crate::behind::backend().is_none() {
        return false;
    }
    // SAFETY: not NULL, and valid for `count` reads by the caller's contract.
    let types = unsafe { std::slice::from_raw_parts(types, count as usize) };
    types.iter().any(|&t| is_unknown(t))
}

/// The `count` handles of `types` as the MPI behind knows them (each of this library's own
/// form made its twin), if one of them is a predefined type of that library this one does
/// not know ([`any_unknown`]): a struct of them is that library's to make.
///
/// # Safety
/// A non-NULL `types` must be valid for `count` reads.
pub unsafe fn types_if_unknown(
    count: impl Into<i64>,
    types: *const MPI_Datatype,
) -> Option<Vec<MPI_Datatype>> {
    let count: i64 = count.into();
    // SAFETY: the caller's contract.
    if !unsafe { any_unknown(count, types) } {
        return None;
    }
    // SAFETY: not NULL and `count` is positive (`any_unknown`), valid by the caller's
    // contract.
    let types = unsafe { std::slice::from_raw_parts(types, count as usize) };
    let for_behind = crate::behind::datatypes::datatype_for_behind;
    Some(types.iter().map(|&t| for_behind(t)).collect())
}

/// Why a type of the MPI behind could not be imported.
enum Failure {
    /// It is built on a predefined type this library does not know.
    Unknown(MpiError),
    /// Anything else.
    Other(MpiError),
}

impl Failure {
    fn into_error(self) -> MpiError {
        match self {
            Failure::Unknown(e) | Failure::Other(e) => e,
        }
    }
}

impl From<mpi_dtype_core::error::Error> for Failure {
    fn from(error: mpi_dtype_core::error::Error) -> Self {
        Failure::Other(error.into())
    }
}

impl From<MpiError> for Failure {
    fn from(error: MpiError) -> Self {
        Failure::Other(error)
    }
}

/// The type the MPI behind made itself as `handle`, made again by this library.
pub(super) fn imported(handle: MPI_Datatype) -> MpiResult<Arc<Datatype>> {
    attempt(handle).map_err(Failure::into_error)
}

fn attempt(handle: MPI_Datatype) -> Result<Arc<Datatype>, Failure> {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || import(handle, 0))
}

fn behind_error(function: &str, rc: Option<c_int>) -> MpiError {
    MpiError::new(
        MPI_ERR_TYPE,
        format!("the MPI library behind could not decode its datatype ({function}: {rc:?})"),
    )
}

fn envelope(handle: MPI_Datatype) -> MpiResult<Envelope> {
    let (ni, na, nc, nd, combiner) =
        behind_types::envelope(handle).map_err(|(function, rc)| behind_error(function, rc))?;
    for n in [ni, na, nc, nd] {
        if !(0..=MAX_ARGUMENTS).contains(&n) {
            return Err(MpiError::new(
                MPI_ERR_TYPE,
                format!("the MPI library behind reports {n} arguments for one of its datatypes"),
            ));
        }
    }
    Ok((ni, na, nc, nd, combiner))
}

/// True if `handle`, a child the MPI behind returned from `MPI_Type_get_contents`, is a
/// derived type there: a new reference the caller gives back.
fn is_new_reference(handle: MPI_Datatype) -> bool {
    if handles::is_predefined(handle) {
        return false;
    }
    matches!(envelope(handle), Ok((.., combiner)) if ![
        MPI_COMBINER_NAMED,
        MPI_COMBINER_F90_REAL,
        MPI_COMBINER_F90_COMPLEX,
        MPI_COMBINER_F90_INTEGER,
    ]
    .contains(&combiner))
}

fn import(handle: MPI_Datatype, depth: usize) -> Result<Arc<Datatype>, Failure> {
    if let Some(datatype) = super::handed_back(handle) {
        return Ok(datatype);
    }
    // A duplicate of the program's handle was looked for just above.
    if super::behind_made(handle).is_none() {
        return Ok(handles::with_type(handle, |datatype, _| datatype.clone())?);
    }
    if depth > MAX_DEPTH {
        return Err(Failure::Other(MpiError::new(
            MPI_ERR_TYPE,
            format!("a datatype of the MPI library behind nests deeper than {MAX_DEPTH} levels"),
        )));
    }
    let (ni, na, nc, nd, combiner) = envelope(handle)?;
    let mut ints = vec![0 as c_int; ni as usize];
    let mut addresses = vec![0 as MPI_Aint; na as usize];
    let mut large_counts = vec![0 as MPI_Count; nc as usize];
    let mut types = vec![MPI_DATATYPE_NULL; nd as usize];
    if combiner == MPI_COMBINER_NAMED {
        return Err(Failure::Unknown(MpiError::new(
            MPI_ERR_TYPE,
            format!("{handle:#x} is a predefined datatype of the MPI library behind that this library does not know"),
        )));
    }
    behind_types::contents(
        handle,
        &mut ints,
        &mut addresses,
        &mut large_counts,
        &mut types,
    )
    .map_err(|(function, rc)| behind_error(function, rc))?;
    let ints: Vec<i64> = ints.into_iter().map(i64::from).collect();
    let made = (|| {
        if let Some(class) = f90_class(combiner) {
            return Ok(f90(class, &ints)?);
        }
        let children = types
            .iter()
            .map(|&child| import(child, depth + 1))
            .collect::<Result<Vec<_>, Failure>>()?;
        let kind = numbering::combiner::<Numbers>(current_combiner(combiner)).ok_or_else(|| {
            MpiError::datatype(format!(
                "combiner {combiner} does not describe a derived datatype"
            ))
        })?;
        Ok(rebuild::<Numbers>(&Decoded {
            combiner: kind,
            ints: &ints,
            addresses: &addresses,
            large_counts: &large_counts,
            types: &children,
        })?)
    })();
    for child in types {
        if is_new_reference(child) {
            super::twin::release(child);
        }
    }
    made
}

fn f90_class(combiner: c_int) -> Option<F90Class> {
    match combiner {
        MPI_COMBINER_F90_INTEGER => Some(F90Class::Integer),
        MPI_COMBINER_F90_REAL => Some(F90Class::Real),
        MPI_COMBINER_F90_COMPLEX => Some(F90Class::Complex),
        _ => None,
    }
}

/// This library's `MPI_Type_create_f90_*` type for the decoded arguments `ints`.
fn f90(class: F90Class, ints: &[i64]) -> MpiResult<Arc<Datatype>> {
    let narrow = |v: Option<&i64>| v.and_then(|&v| i32::try_from(v).ok()).map(Numbers::given);
    let (precision, range) = match class {
        F90Class::Integer => (Some(None), narrow(ints.first())),
        F90Class::Real | F90Class::Complex => (narrow(ints.first()), narrow(ints.get(1))),
    };
    let (Some(precision), Some(range)) = (precision, range) else {
        return Err(MpiError::new(
            MPI_ERR_TYPE,
            "the decoded integers do not match the combiner",
        ));
    };
    let base = f90_type(class, precision, range).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_TYPE,
            "the MPI library behind decoded an f90 type this library has no type for",
        )
    })?;
    let handle = super::f90(class, precision, range, base)?;
    handles::with_type(handle, |datatype, _| datatype.clone())
}
