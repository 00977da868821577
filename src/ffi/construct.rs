//! Type constructors: `MPI_Type_contiguous` ... `MPI_Type_create_resized`, their large-count
//! `_c` variants, `MPI_Type_dup`, and the MPI-1 names MPICH still exports. Each constructor
//! has one definition, generic over the C type of its counts ([`CountArg`]); the `int`
//! function, its `_c` variant and its MPI-1 name call it.

use super::{check_out, guard, read_array, read_slice, with_datatype, write_out, CountArg};
use crate::abi::*;
use crate::behind;
use crate::datatype::numbering::{darg, distribution, order, Numbering};
use crate::datatype::{construct, Array, DarrayArgs, Datatype, F90Class};
use crate::error::{MpiError, MpiResult};
use crate::ffi::{export, exported};
use crate::handles::{self, IfAttributed};
use std::os::raw::c_int;
use std::sync::Arc;

/// Registers `made` and writes its handle to `newtype`.
///
/// # Safety
/// A non-NULL `newtype` must be valid for a write.
unsafe fn publish<E: Into<MpiError>>(
    newtype: *mut MPI_Datatype,
    made: Result<Arc<Datatype>, E>,
) -> MpiResult<()> {
    check_out(newtype, "newtype")?;
    let handle = crate::dropin::insert(made.map_err(Into::into)?, false)?;
    crate::trace::built(handle);
    // SAFETY: the caller's contract.
    unsafe { write_out(newtype, handle, "newtype") }
}

/// Runs the constructor `make` on the datatype behind `oldtype`, borrowed (no reference
/// taken unless the new type keeps one: [`with_datatype`]).
fn made_on<E: Into<MpiError>>(
    oldtype: MPI_Datatype,
    make: impl FnOnce(&Arc<Datatype>) -> Result<Arc<Datatype>, E>,
) -> MpiResult<Arc<Datatype>> {
    with_datatype(oldtype, make)?.map_err(Into::into)
}

fn check_ndims(ndims: c_int) -> MpiResult<i64> {
    if ndims <= 0 {
        return Err(MpiError::arg(format!(
            "ndims must be positive, got {ndims}"
        )));
    }
    Ok(ndims as i64)
}

// ---- contiguous -------------------------------------------------------------------------

/// # Safety
/// As for the exported functions.
unsafe fn contiguous<C: CountArg>(
    function: &'static str,
    count: C,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard(function, || {
        let made = made_on(oldtype, |old| {
            construct::contiguous(count.into(), old, C::LARGE)
        });
        // SAFETY: the caller's pointer, valid by the contract of the exported function.
        unsafe { publish(newtype, made) }
    })
}

exported! {
    /// Creates a datatype of `count` copies of `oldtype` laid end to end.
    fn MPI_Type_contiguous(count: c_int, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_contiguous`.
    fn MPI_Type_contiguous_c(count: MPI_Count, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    foreign if crate::dropin::import::is_unknown(oldtype);
    // SAFETY: the caller's pointers, passed on under the same contract.
    => unsafe { contiguous(FUNCTION, count, oldtype, newtype) }
}

// ---- vector and hvector -----------------------------------------------------------------

/// # Safety
/// As for the exported functions.
unsafe fn vector<C: CountArg>(
    function: &'static str,
    count: C,
    blocklength: C,
    stride: impl Into<i64>,
    stride_in_bytes: bool,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard(function, || {
        let (count, blocklength, stride) = (count.into(), blocklength.into(), stride.into());
        let made = made_on(oldtype, |old| {
            construct::vector(count, blocklength, stride, stride_in_bytes, old, C::LARGE)
        });
        // SAFETY: the caller's pointer, valid by the contract of the exported function.
        unsafe { publish(newtype, made) }
    })
}

exported! {
    /// Creates `count` blocks of `blocklength` copies of `oldtype`, block starts `stride`
    /// extents of `oldtype` apart.
    fn MPI_Type_vector(count: c_int, blocklength: c_int, stride: c_int, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_vector`.
    fn MPI_Type_vector_c(count: MPI_Count, blocklength: MPI_Count, stride: MPI_Count, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    foreign if crate::dropin::import::is_unknown(oldtype);
    // SAFETY: the caller's pointers, passed on under the same contract.
    => unsafe { vector(FUNCTION, count, blocklength, stride, false, oldtype, newtype) }
}

exported! {
    /// Creates `count` blocks of `blocklength` copies of `oldtype`, block starts `stride` bytes
    /// apart.
    fn MPI_Type_create_hvector(count: c_int, blocklength: c_int, stride: MPI_Aint, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_create_hvector`.
    fn MPI_Type_create_hvector_c(count: MPI_Count, blocklength: MPI_Count, stride: MPI_Count, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// MPI-1 name of `MPI_Type_create_hvector` (removed from the standard, still exported by MPICH and Open MPI).
    #[cfg(not(abi = "standard"))]
    fn MPI_Type_hvector(count: c_int, blocklength: c_int, stride: MPI_Aint, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    foreign if crate::dropin::import::is_unknown(oldtype);
    // SAFETY: the caller's pointers, passed on under the same contract.
    => unsafe { vector(FUNCTION, count, blocklength, stride, true, oldtype, newtype) }
}

// ---- indexed and hindexed ---------------------------------------------------------------

/// # Safety
/// As for the exported functions: both arrays hold `count` values.
unsafe fn indexed<C: CountArg, D: Copy + Into<i64>>(
    function: &'static str,
    count: C,
    blocklengths: *const C,
    displacements: *const D,
    in_bytes: bool,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard(function, || {
        let count = count.into();
        construct::check_count(count, "count")?;
        // SAFETY: the caller's arrays of `count` values.
        let (b, d): (Array, Array) = unsafe {
            (
                read_array(blocklengths, count, "array_of_blocklengths")?,
                read_array(displacements, count, "array_of_displacements")?,
            )
        };
        let made = made_on(oldtype, |old| {
            construct::indexed(b, d, in_bytes, old, C::LARGE)
        });
        // SAFETY: the caller's pointer, valid by the contract of the exported function.
        unsafe { publish(newtype, made) }
    })
}

exported! {
    /// Creates blocks of `array_of_blocklengths[i]` copies of `oldtype` at displacements
    /// `array_of_displacements[i]` counted in extents of `oldtype`.
    fn MPI_Type_indexed(count: c_int, array_of_blocklengths: *const c_int, array_of_displacements: *const c_int, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_indexed`.
    fn MPI_Type_indexed_c(count: MPI_Count, array_of_blocklengths: *const MPI_Count, array_of_displacements: *const MPI_Count, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    foreign if crate::dropin::import::is_unknown(oldtype);
    // SAFETY: the caller's pointers, passed on under the same contract.
    => unsafe { indexed(FUNCTION, count, array_of_blocklengths, array_of_displacements, false, oldtype, newtype) }
}

exported! {
    /// Creates blocks of `array_of_blocklengths[i]` copies of `oldtype` at byte displacements
    /// `array_of_displacements[i]`.
    fn MPI_Type_create_hindexed(count: c_int, array_of_blocklengths: *const c_int, array_of_displacements: *const MPI_Aint, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_create_hindexed`.
    fn MPI_Type_create_hindexed_c(count: MPI_Count, array_of_blocklengths: *const MPI_Count, array_of_displacements: *const MPI_Count, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// MPI-1 name of `MPI_Type_create_hindexed` (removed from the standard, still exported by MPICH and Open MPI).
    #[cfg(not(abi = "standard"))]
    fn MPI_Type_hindexed(count: c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut MPI_Aint, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    foreign if crate::dropin::import::is_unknown(oldtype);
    // SAFETY: the caller's pointers, passed on under the same contract.
    => unsafe { indexed(FUNCTION, count, array_of_blocklengths, array_of_displacements, true, oldtype, newtype) }
}

// ---- indexed_block and hindexed_block ---------------------------------------------------

/// # Safety
/// As for the exported functions: `displacements` holds `count` values.
unsafe fn indexed_block<C: CountArg, D: Copy + Into<i64>>(
    function: &'static str,
    count: C,
    blocklength: C,
    displacements: *const D,
    in_bytes: bool,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard(function, || {
        let count = count.into();
        construct::check_count(count, "count")?;
        // SAFETY: the caller's array of `count` values.
        let d: Array = unsafe { read_array(displacements, count, "array_of_displacements")? };
        let made = made_on(oldtype, |old| {
            construct::indexed_block(blocklength.into(), d, in_bytes, old, C::LARGE)
        });
        // SAFETY: the caller's pointer, valid by the contract of the exported function.
        unsafe { publish(newtype, made) }
    })
}

exported! {
    /// Creates blocks of `blocklength` copies of `oldtype` at displacements counted in extents
    /// of `oldtype`.
    fn MPI_Type_create_indexed_block(count: c_int, blocklength: c_int, array_of_displacements: *const c_int, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_create_indexed_block`.
    fn MPI_Type_create_indexed_block_c(count: MPI_Count, blocklength: MPI_Count, array_of_displacements: *const MPI_Count, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    foreign if crate::dropin::import::is_unknown(oldtype);
    // SAFETY: the caller's pointers, passed on under the same contract.
    => unsafe { indexed_block(FUNCTION, count, blocklength, array_of_displacements, false, oldtype, newtype) }
}

exported! {
    /// Creates blocks of `blocklength` copies of `oldtype` at byte displacements.
    fn MPI_Type_create_hindexed_block(count: c_int, blocklength: c_int, array_of_displacements: *const MPI_Aint, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_create_hindexed_block`.
    fn MPI_Type_create_hindexed_block_c(count: MPI_Count, blocklength: MPI_Count, array_of_displacements: *const MPI_Count, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    foreign if crate::dropin::import::is_unknown(oldtype);
    // SAFETY: the caller's pointers, passed on under the same contract.
    => unsafe { indexed_block(FUNCTION, count, blocklength, array_of_displacements, true, oldtype, newtype) }
}

// ---- struct -----------------------------------------------------------------------------

/// # Safety
/// As for the exported functions: the three arrays hold `count` values.
unsafe fn structure<C: CountArg, D: Copy + Into<i64>>(
    function: &'static str,
    count: C,
    blocklengths: *const C,
    displacements: *const D,
    types: *const MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard(function, || {
        let count = count.into();
        construct::check_count(count, "count")?;
        // SAFETY: the caller's arrays of `count` values.
        let (b, d, t): (Array, Array, _) = unsafe {
            (
                read_array(blocklengths, count, "array_of_blocklengths")?,
                read_array(displacements, count, "array_of_displacements")?,
                read_slice(types, count, "array_of_types")?,
            )
        };
        let t = t
            .iter()
            .map(|&h| with_datatype(h, Arc::clone))
            .collect::<MpiResult<Vec<_>>>()?;
        let made = construct::structure(b, d, t, C::LARGE);
        // SAFETY: the caller's pointer, valid by the contract of the exported function.
        unsafe { publish(newtype, made) }
    })
}

exported! {
    /// Creates blocks of `array_of_blocklengths[i]` copies of `array_of_types[i]` at byte
    /// displacements `array_of_displacements[i]`.
    fn MPI_Type_create_struct(count: c_int, array_of_blocklengths: *const c_int, array_of_displacements: *const MPI_Aint, array_of_types: *const MPI_Datatype, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_create_struct`.
    fn MPI_Type_create_struct_c(count: MPI_Count, array_of_blocklengths: *const MPI_Count, array_of_displacements: *const MPI_Count, array_of_types: *const MPI_Datatype, newtype: *mut MPI_Datatype);
    /// MPI-1 name of `MPI_Type_create_struct`; accepts the `MPI_LB` and `MPI_UB` markers.
    #[cfg(not(abi = "standard"))]
    fn MPI_Type_struct(count: c_int, array_of_blocklengths: *mut c_int, array_of_displacements: *mut MPI_Aint, array_of_types: *mut MPI_Datatype, newtype: *mut MPI_Datatype);
    // SAFETY: the caller's pointers, passed on under the same contract; the array of count
    // handles, as the function requires it.
    => unsafe {
        // A member the MPI behind knows and this library does not: that library makes the
        // struct, of the members as it knows them.
        match crate::dropin::import::types_if_unknown(count, array_of_types) {
            Some(types) => behind_call(count, array_of_blocklengths, array_of_displacements, types.as_ptr() as _, newtype)
                .unwrap_or_else(|| crate::ffi::missing_behind(FUNCTION)),
            None => structure(FUNCTION, count, array_of_blocklengths, array_of_displacements, array_of_types, newtype),
        }
    }
}

// ---- subarray ---------------------------------------------------------------------------

/// # Safety
/// As for the exported functions: the three arrays (sizes, subsizes, starts) hold `ndims`
/// values.
unsafe fn subarray<C: CountArg>(
    function: &'static str,
    ndims: c_int,
    (sizes, subsizes, starts): (*const C, *const C, *const C),
    order_value: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard(function, || {
        let n = check_ndims(ndims)?;
        // SAFETY: the caller's arrays of `ndims` values.
        let (sizes, subsizes, starts): (Vec<i64>, Vec<i64>, Vec<i64>) = unsafe {
            (
                read_array(sizes, n, "array_of_sizes")?,
                read_array(subsizes, n, "array_of_subsizes")?,
                read_array(starts, n, "array_of_starts")?,
            )
        };
        let order = order::<Numbers>(order_value.into())?;
        let made = made_on(oldtype, |old| {
            construct::subarray(sizes, subsizes, starts, order, old, C::LARGE)
        });
        // SAFETY: the caller's pointer, valid by the contract of the exported function.
        unsafe { publish(newtype, made) }
    })
}

exported! {
    /// Creates the datatype of a subarray `array_of_subsizes` starting at `array_of_starts` of
    /// an `ndims`-dimensional array of `array_of_sizes` elements of `oldtype`.
    fn MPI_Type_create_subarray(ndims: c_int, array_of_sizes: *const c_int, array_of_subsizes: *const c_int, array_of_starts: *const c_int, order: c_int, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_create_subarray`.
    fn MPI_Type_create_subarray_c(ndims: c_int, array_of_sizes: *const MPI_Count, array_of_subsizes: *const MPI_Count, array_of_starts: *const MPI_Count, order: c_int, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    foreign if crate::dropin::import::is_unknown(oldtype);
    => {
        let arrays = (array_of_sizes, array_of_subsizes, array_of_starts);
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe { subarray(FUNCTION, ndims, arrays, order, oldtype, newtype) }
    }
}

// ---- darray -----------------------------------------------------------------------------

/// The arguments of `MPI_Type_create_darray` other than the global sizes.
struct DarrayCall {
    size: c_int,
    rank: c_int,
    ndims: c_int,
    distribs: *const c_int,
    dargs: *const c_int,
    psizes: *const c_int,
    order: c_int,
}

/// # Safety
/// As for the exported functions: the four arrays hold `ndims` values.
unsafe fn darray<C: CountArg>(
    function: &'static str,
    call: DarrayCall,
    gsizes: *const C,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard(function, || {
        let n = check_ndims(call.ndims)?;
        let narrow = |v: Vec<i64>| v.into_iter().map(|x| x as i32).collect::<Vec<_>>();
        // SAFETY: the caller's arrays of `ndims` values.
        let (gsizes, distribs, dargs, psizes): (Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>) = unsafe {
            (
                read_array(gsizes, n, "array_of_gsizes")?,
                read_array(call.distribs, n, "array_of_distribs")?,
                read_array(call.dargs, n, "array_of_dargs")?,
                read_array(call.psizes, n, "array_of_psizes")?,
            )
        };
        let args = DarrayArgs {
            size: call.size,
            rank: call.rank,
            gsizes,
            distribs: distribs
                .into_iter()
                .enumerate()
                .map(|(d, v)| distribution::<Numbers>(v, d))
                .collect::<Result<Vec<_>, _>>()?,
            dargs: narrow(dargs).into_iter().map(darg::<Numbers>).collect(),
            psizes: narrow(psizes),
            order: order::<Numbers>(call.order.into())?,
        };
        let made = made_on(oldtype, |old| construct::darray(args, old, C::LARGE));
        // SAFETY: the caller's pointer, valid by the contract of the exported function.
        unsafe { publish(newtype, made) }
    })
}

exported! {
    /// Creates the datatype of the part of an `ndims`-dimensional array of `array_of_gsizes`
    /// that process `rank` of `size` owns under the given block / cyclic distribution.
    fn MPI_Type_create_darray(size: c_int, rank: c_int, ndims: c_int, array_of_gsizes: *const c_int, array_of_distribs: *const c_int, array_of_dargs: *const c_int, array_of_psizes: *const c_int, order: c_int, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_create_darray`.
    fn MPI_Type_create_darray_c(size: c_int, rank: c_int, ndims: c_int, array_of_gsizes: *const MPI_Count, array_of_distribs: *const c_int, array_of_dargs: *const c_int, array_of_psizes: *const c_int, order: c_int, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype);
    foreign if crate::dropin::import::is_unknown(oldtype);
    => {
        let call = DarrayCall {
            size,
            rank,
            ndims,
            distribs: array_of_distribs,
            dargs: array_of_dargs,
            psizes: array_of_psizes,
            order,
        };
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe { darray(FUNCTION, call, array_of_gsizes, oldtype, newtype) }
    }
}

// ---- resized and dup --------------------------------------------------------------------

/// # Safety
/// As for the exported functions.
unsafe fn resized(
    function: &'static str,
    oldtype: MPI_Datatype,
    lb: i64,
    extent: i64,
    newtype: *mut MPI_Datatype,
) -> c_int {
    // `MPI_Aint` and `MPI_Count` are both 64-bit: the name tells the large-count variant.
    let large = function.ends_with("_c");
    guard(function, || {
        let made = made_on(oldtype, |old| construct::resized(old, lb, extent, large));
        // SAFETY: the caller's pointer, valid by the contract of the exported function.
        unsafe { publish(newtype, made) }
    })
}

exported! {
    /// Creates a copy of `oldtype` whose lower bound is `lb` and whose extent is `extent`
    /// (earlier bound markers are erased).
    fn MPI_Type_create_resized(oldtype: MPI_Datatype, lb: MPI_Aint, extent: MPI_Aint, newtype: *mut MPI_Datatype);
    /// Large-count variant of `MPI_Type_create_resized`.
    fn MPI_Type_create_resized_c(oldtype: MPI_Datatype, lb: MPI_Count, extent: MPI_Count, newtype: *mut MPI_Datatype);
    foreign if crate::dropin::import::is_unknown(oldtype);
    // SAFETY: the caller's pointer, passed on under the same contract.
    => unsafe { resized(FUNCTION, oldtype, lb, extent, newtype) }
}

/// Creates a new datatype with the same type map and committed state as `oldtype`; cached
/// attributes are copied through their copy callbacks.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_dup(oldtype: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int {
    export("MPI_Type_dup", || {
        behind::foreign_call!(
            MPI_Type_dup(oldtype, newtype)
            if crate::dropin::is_foreign(oldtype)
        );
        guard("MPI_Type_dup", || {
            check_out(newtype, "newtype")?;
            let (old, committed) =
                crate::dropin::with_type(oldtype, |old, committed| (old.clone(), committed))?;
            // The new handle first (in drop-in mode the MPI behind copies its own attributes
            // then), this library's attributes after: if one of their copy callbacks fails, the
            // new handle goes again (and the MPI behind runs the delete callbacks of its copies).
            let handle = crate::dropin::insert_dup(construct::dup(&old), committed, oldtype)?;
            let attributes = super::attributes::copy_all(oldtype)
                .inspect_err(|_| drop(crate::dropin::free(handle, IfAttributed::Remove)))?;
            handles::with_entry(handle, |e| e.attributes = attributes)?;
            crate::trace::built(handle);
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(newtype, handle, "newtype") }
        })
    })
}

// ---- Fortran 90 parameterized types -------------------------------------------------------

/// # Safety
/// As for the exported functions.
unsafe fn f90(
    function: &'static str,
    class: F90Class,
    precision: c_int,
    range: c_int,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard(function, || {
        check_out(newtype, "newtype")?;
        let (precision, range) = (Numbers::given(precision), Numbers::given(range));
        let base = basic_handle(crate::predefined::f90_base(class, precision, range)?);
        let handle = crate::dropin::f90(class, precision, range, base)?;
        crate::trace::built(handle);
        // SAFETY: the caller's pointer, checked non-NULL above.
        unsafe { write_out(newtype, handle, "newtype") }
    })
}

/// The predefined datatype of a Fortran `INTEGER(KIND=SELECTED_INT_KIND(r))`: it has the type
/// map of the smallest of `MPI_INTEGER1` ... `MPI_INTEGER8` with a decimal range of at least
/// `r`, its envelope is `MPI_COMBINER_F90_INTEGER` with the integer `r`, every call with the
/// same `r` returns the same handle, and it cannot be freed.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_f90_integer(
    r: c_int,
    newtype: *mut MPI_Datatype,
) -> c_int {
    export("MPI_Type_create_f90_integer", || {
        let name = "MPI_Type_create_f90_integer";
        // SAFETY: the caller's pointer, passed on under the same contract.
        unsafe { f90(name, F90Class::Integer, MPI_UNDEFINED, r, newtype) }
    })
}

/// The predefined datatype of a Fortran `REAL(KIND=SELECTED_REAL_KIND(p, r))`: the type map of
/// the smallest of `MPI_REAL4`, `MPI_REAL8`, `MPI_REAL16` with a precision of at least `p`
/// digits and a decimal exponent range of at least `r` (either may be `MPI_UNDEFINED`, not
/// both); envelope `MPI_COMBINER_F90_REAL` with the integers `p`, `r`; the same handle for the
/// same arguments; it cannot be freed.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_f90_real(
    p: c_int,
    r: c_int,
    newtype: *mut MPI_Datatype,
) -> c_int {
    export("MPI_Type_create_f90_real", || {
        let name = "MPI_Type_create_f90_real";
        // SAFETY: the caller's pointer, passed on under the same contract.
        unsafe { f90(name, F90Class::Real, p, r, newtype) }
    })
}

/// The predefined datatype of a Fortran `COMPLEX(KIND=SELECTED_REAL_KIND(p, r))`: as
/// `MPI_Type_create_f90_real`, with `MPI_COMPLEX8`, `MPI_COMPLEX16`, `MPI_COMPLEX32` and
/// the envelope `MPI_COMBINER_F90_COMPLEX`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_f90_complex(
    p: c_int,
    r: c_int,
    newtype: *mut MPI_Datatype,
) -> c_int {
    export("MPI_Type_create_f90_complex", || {
        let name = "MPI_Type_create_f90_complex";
        // SAFETY: the caller's pointer, passed on under the same contract.
        unsafe { f90(name, F90Class::Complex, p, r, newtype) }
    })
}
