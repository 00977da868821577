//! Life and queries: commit and free, size and bounds (plain, `_x` and `_c`, and the MPI-1
//! `MPI_Type_extent` / `_lb` / `_ub`). Names are in [`names`](super::names), addresses and
//! type matching in [`address`](super::address), status element counts in
//! [`status`](super::status).

use super::{check_out, guard, read_in, with_datatype, write_out, CountArg};
use crate::abi::*;
use crate::behind;
use crate::datatype::{MeasuresPart, ReadMeasures};
use crate::error::MpiResult;
use crate::ffi::{export, exported};
use crate::handles::{self, IfAttributed, Removal};
use std::os::raw::c_int;

/// Commits a datatype so it can be used to pack and communicate.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_commit(datatype: *mut MPI_Datatype) -> c_int {
    export("MPI_Type_commit", || {
        behind::foreign_call!(
            MPI_Type_commit(datatype)
            // SAFETY: the caller's in-out handle, as the function requires it.
            if crate::dropin::is_foreign(unsafe { behind::read_handle(datatype) })
        );
        guard("MPI_Type_commit", || {
            // SAFETY: the caller's in-out argument; read_in checks it for NULL.
            let handle = unsafe { read_in(datatype, "datatype")? };
            crate::trace::commit(handle);
            crate::dropin::commit(handle)
        })
    })
}

/// Frees a datatype handle and sets it to `MPI_DATATYPE_NULL`; types built from it stay valid.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_free(datatype: *mut MPI_Datatype) -> c_int {
    export("MPI_Type_free", || {
        behind::foreign_call!(
            MPI_Type_free(datatype)
            // SAFETY: the caller's in-out handle, as the function requires it.
            if crate::dropin::is_foreign(unsafe { behind::read_handle(datatype) })
        );
        guard("MPI_Type_free", || {
            // SAFETY: the caller's in-out argument; read_in checks it for NULL.
            let handle = unsafe { read_in(datatype, "datatype")? };
            crate::trace::free(handle);
            // Most types hold no attributes: such a handle is checked and removed under one lock
            // of its slot. Else the attributes' delete callbacks run first (they may query the
            // type), and then it goes.
            if let Removal::Attributed(attributes) =
                crate::dropin::free(handle, IfAttributed::Refuse)?
            {
                super::attributes::delete_all(handle, attributes)?;
                crate::dropin::free(handle, IfAttributed::Remove)?;
            }
            // SAFETY: as above.
            unsafe { write_out(datatype, MPI_DATATYPE_NULL, "datatype") }
        })
    })
}

// ---- how a query is answered ----------------------------------------------------------
//
// Each query answers at once when the handle is one of this library's whose measures are
// found without a lock ([`handles::measures_at_once`]) and the output pointers are not NULL.
// Everything else (the MPI behind's answer for a type that library made itself, or the
// answer in full, with the argument checks and error reporting) is in a function of its own, out of line and called with the query's own
// arguments, so that the success path calls nothing and keeps no registers or stack.

/// The MPI behind's function of a query, called with the query's arguments (`None` when no
/// MPI library is behind this one).
type Forward<O> = fn(MPI_Datatype, O) -> Option<c_int>;

/// A query: its name, for errors, and its function in the MPI behind.
struct Query<O> {
    name: &'static str,
    forward: Forward<O>,
}

/// Where a query's answer goes: its output pointers.
trait Outputs: Copy {
    /// The answer, taken from the type's measures.
    type Answer;
    /// Writes `answer` if every output is there and it is reported as it is (a size that fits
    /// its type); false otherwise, which the full answer then reports.
    ///
    /// # Safety
    /// Non-NULL outputs must be valid for writes.
    unsafe fn write_at_once(self, answer: Self::Answer) -> bool;
    /// Fails with `MPI_ERR_ARG` for a NULL output (before the handle is looked at).
    fn check(self) -> MpiResult<()>;
    /// Writes `answer` (the outputs are checked), or fails if it cannot be reported.
    ///
    /// # Safety
    /// The outputs must be valid for writes.
    unsafe fn write(self, answer: Self::Answer) -> MpiResult<()>;
}

/// Answers a query on `dt` whose answer is `part` of its measures: at once when the handle is
/// one of this library's whose measures are found without a lock
/// ([`handles::measures_at_once`]) and the outputs take it; else out of line
/// ([`answer_otherwise`]).
///
/// # Safety
/// As for the exported functions.
#[inline(always)]
unsafe fn answer<O: Outputs, P: MeasuresPart<Value = O::Answer>>(
    query: &'static Query<O>,
    dt: MPI_Datatype,
    outputs: O,
    part: P,
) -> c_int {
    if let Some(answer) = handles::measures_at_once(dt, part) {
        // SAFETY: the exported function's contract.
        if unsafe { outputs.write_at_once(answer) } {
            return MPI_SUCCESS;
        }
    }
    // SAFETY: as above.
    unsafe { answer_otherwise(query, dt, outputs, part) }
}

/// [`answer`] when the measures were not found at once: the MPI behind's answer for a type
/// that library made itself, else the answer in full, with the argument checks and error
/// reporting (whose lookup looks in this thread's cache first: [`with_datatype`]). Out of
/// line and called with the query's own arguments, so that the success path builds nothing
/// for it and keeps no registers or stack.
///
/// It has the C calling convention, as the queries do, and so cannot unwind (a panic inside
/// is caught by [`guard`]): the query can jump to it, keeping no frame of its own.
///
/// # Safety
/// As for the exported functions.
#[inline(never)]
#[allow(improper_ctypes_definitions)] // called from Rust only; "C" for the calling convention
unsafe extern "C" fn answer_otherwise<O: Outputs, P: MeasuresPart<Value = O::Answer>>(
    query: &'static Query<O>,
    dt: MPI_Datatype,
    outputs: O,
    part: P,
) -> c_int {
    if crate::dropin::is_foreign(dt) {
        if let Some(rc) = (query.forward)(dt, outputs) {
            return rc;
        }
    }
    guard(query.name, || {
        outputs.check()?;
        let answer = with_datatype(dt, |t| part.of(&t.measures))?;
        // SAFETY: the outputs are checked, and valid by the exported function's contract.
        unsafe { outputs.write(answer) }
    })
}

/// Writes `value` through `out` if it is not NULL.
///
/// # Safety
/// A non-NULL `out` must be valid for a write.
unsafe fn write_if_there(out: *mut i64, value: i64) -> bool {
    if out.is_null() {
        return false;
    }
    // SAFETY: not NULL, and valid for a write by the caller's contract.
    unsafe { out.write(value) };
    true
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

/// The output of a size query, of type `C`.
#[derive(Clone, Copy)]
struct SizeOutput<C>(*mut C);

impl<C: CountArg> Outputs for SizeOutput<C> {
    type Answer = i64;
    unsafe fn write_at_once(self, bytes: i64) -> bool {
        match (self.0.is_null(), size_value::<C>(bytes)) {
            (false, Ok(value)) => {
                // SAFETY: not NULL, and valid for a write by the trait's contract.
                unsafe { self.0.write(value) };
                true
            }
            _ => false,
        }
    }
    fn check(self) -> MpiResult<()> {
        check_out(self.0, "size")
    }
    unsafe fn write(self, bytes: i64) -> MpiResult<()> {
        // SAFETY: the trait's contract.
        unsafe { write_out(self.0, size_value::<C>(bytes)?, "size") }
    }
}

/// The part of the measures a size query reports.
#[derive(Clone, Copy)]
struct Size;

impl MeasuresPart for Size {
    type Value = i64;
    fn of(self, m: &impl ReadMeasures) -> i64 {
        m.size()
    }
}

exported! {
    /// The number of bytes of data in one copy of the datatype (`MPI_UNDEFINED` if it does not
    /// fit an `int`).
    fn MPI_Type_size(datatype: MPI_Datatype, size: *mut c_int);
    /// `MPI_Type_size` with an `MPI_Count` result.
    fn MPI_Type_size_x(datatype: MPI_Datatype, size: *mut MPI_Count);
    /// Large-count variant of `MPI_Type_size`.
    fn MPI_Type_size_c(datatype: MPI_Datatype, size: *mut MPI_Count);
    => {
        let query = &Query {
            name: FUNCTION,
            forward: |dt, SizeOutput(size)| behind_call(dt, size),
        };
        // SAFETY: the caller's pointer, passed on under the same contract.
        unsafe { answer(query, datatype, SizeOutput(size), Size) }
    }
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

impl MeasuresPart for Bounds {
    type Value = (i64, i64);
    fn of(self, m: &impl ReadMeasures) -> (i64, i64) {
        match self {
            Bounds::Marked => (m.lb(), m.extent()),
            Bounds::True => (m.true_lb(), m.true_extent()),
        }
    }
}

/// The outputs of a bounds query: the lower bound and the extent.
#[derive(Clone, Copy)]
struct BoundsOutputs(*mut i64, *mut i64);

impl Outputs for BoundsOutputs {
    type Answer = (i64, i64);
    unsafe fn write_at_once(self, (lb, extent): (i64, i64)) -> bool {
        // Both or neither: a NULL output leaves the other unwritten too.
        // SAFETY: the trait's contract.
        !self.0.is_null() && unsafe { write_if_there(self.1, extent) && write_if_there(self.0, lb) }
    }
    fn check(self) -> MpiResult<()> {
        check_out(self.0, "lb")?;
        check_out(self.1, "extent")
    }
    unsafe fn write(self, (lb, extent): (i64, i64)) -> MpiResult<()> {
        // SAFETY: the trait's contract.
        unsafe {
            write_out(self.0, lb, "lb")?;
            write_out(self.1, extent, "extent")
        }
    }
}

exported! {
    /// The lower bound and extent of the datatype.
    fn MPI_Type_get_extent(datatype: MPI_Datatype, lb: *mut MPI_Aint, extent: *mut MPI_Aint) with outputs = (lb, extent, Bounds::Marked);
    /// `MPI_Type_get_extent` with `MPI_Count` results.
    fn MPI_Type_get_extent_x(datatype: MPI_Datatype, lb: *mut MPI_Count, extent: *mut MPI_Count) with outputs = (lb, extent, Bounds::Marked);
    /// Large-count variant of `MPI_Type_get_extent`.
    fn MPI_Type_get_extent_c(datatype: MPI_Datatype, lb: *mut MPI_Count, extent: *mut MPI_Count) with outputs = (lb, extent, Bounds::Marked);
    /// The lower bound and extent of the data itself, ignoring markers and padding.
    fn MPI_Type_get_true_extent(datatype: MPI_Datatype, true_lb: *mut MPI_Aint, true_extent: *mut MPI_Aint) with outputs = (true_lb, true_extent, Bounds::True);
    /// `MPI_Type_get_true_extent` with `MPI_Count` results.
    fn MPI_Type_get_true_extent_x(datatype: MPI_Datatype, true_lb: *mut MPI_Count, true_extent: *mut MPI_Count) with outputs = (true_lb, true_extent, Bounds::True);
    /// Large-count variant of `MPI_Type_get_true_extent`.
    fn MPI_Type_get_true_extent_c(datatype: MPI_Datatype, true_lb: *mut MPI_Count, true_extent: *mut MPI_Count) with outputs = (true_lb, true_extent, Bounds::True);
    => {
        let query = &Query {
            name: FUNCTION,
            forward: |dt, BoundsOutputs(a, b)| behind_call(dt, a, b),
        };
        let (lb, extent, which) = outputs;
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe { answer(query, datatype, BoundsOutputs(lb, extent), which) }
    }
}

/// One bound of the MPI-1 queries.
#[cfg(not(abi = "standard"))]
#[derive(Clone, Copy)]
enum Mpi1Bound {
    Extent,
    Lb,
    Ub,
}

#[cfg(not(abi = "standard"))]
impl MeasuresPart for Mpi1Bound {
    type Value = i64;
    fn of(self, m: &impl ReadMeasures) -> i64 {
        match self {
            Mpi1Bound::Extent => m.extent(),
            Mpi1Bound::Lb => m.lb(),
            Mpi1Bound::Ub => m.ub(),
        }
    }
}

/// The output of an MPI-1 bound query and which bound it takes.
#[cfg(not(abi = "standard"))]
#[derive(Clone, Copy)]
struct Mpi1Output(*mut MPI_Aint, Mpi1Bound);

#[cfg(not(abi = "standard"))]
impl Mpi1Output {
    /// The output's name in the C prototype, for errors.
    fn name(self) -> &'static str {
        match self.1 {
            Mpi1Bound::Extent => "extent",
            Mpi1Bound::Lb | Mpi1Bound::Ub => "displacement",
        }
    }
}

#[cfg(not(abi = "standard"))]
impl Outputs for Mpi1Output {
    type Answer = i64;
    unsafe fn write_at_once(self, value: i64) -> bool {
        // SAFETY: the trait's contract.
        unsafe { write_if_there(self.0, value) }
    }
    fn check(self) -> MpiResult<()> {
        check_out(self.0, self.name())
    }
    unsafe fn write(self, value: i64) -> MpiResult<()> {
        // SAFETY: the trait's contract.
        unsafe { write_out(self.0, value, self.name()) }
    }
}

exported! {
    /// MPI-1: the extent of the datatype (removed from the standard, still exported by MPICH and Open MPI).
    #[cfg(not(abi = "standard"))]
    fn MPI_Type_extent(datatype: MPI_Datatype, extent: *mut MPI_Aint) with out = (extent, Mpi1Bound::Extent);
    /// MPI-1: the lower bound of the datatype (removed from the standard, still exported by MPICH and Open MPI).
    #[cfg(not(abi = "standard"))]
    fn MPI_Type_lb(datatype: MPI_Datatype, displacement: *mut MPI_Aint) with out = (displacement, Mpi1Bound::Lb);
    /// MPI-1: the upper bound of the datatype (removed from the standard, still exported by MPICH and Open MPI).
    #[cfg(not(abi = "standard"))]
    fn MPI_Type_ub(datatype: MPI_Datatype, displacement: *mut MPI_Aint) with out = (displacement, Mpi1Bound::Ub);
    => {
        let query = &Query {
            name: FUNCTION,
            forward: |dt, Mpi1Output(out, _)| behind_call(dt, out),
        };
        let (out, which) = out;
        // SAFETY: the caller's pointer, passed on under the same contract.
        unsafe { answer(query, datatype, Mpi1Output(out, which), which) }
    }
}
