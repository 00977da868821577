//! Decoding: `MPI_Type_get_envelope` and `MPI_Type_get_contents` (and `_c`), which give back
//! the constructor and its arguments exactly as they were passed; the core
//! ([`contents`](crate::datatype::contents)) lays them out, this file writes them.

use super::{check_out, guard, with_datatype, write_out, CountArg};
use crate::abi::*;
use crate::behind;
use crate::datatype::contents::{contents, Contents};
use crate::datatype::numbering::Numbering;
use crate::datatype::Datatype;
use crate::error::{MpiError, MpiResult};
use crate::ffi::export;
use crate::handles::{self, IfAttributed};
use std::os::raw::c_int;
use std::sync::Arc;

/// Fails for a type built with large counts when decoded by a variant without them
/// (`MPI_ERR_TYPE`, as MPI-4.1 §5.1.13 says).
fn check_variant(large_counts: usize, large_variant: bool) -> MpiResult<()> {
    if !large_variant && large_counts > 0 {
        return Err(MpiError::datatype(
            "the datatype was built with large counts; use the _c variant to decode it",
        ));
    }
    Ok(())
}

/// The decoded arguments of `handle`.
fn decoded(handle: MPI_Datatype, large_variant: bool) -> MpiResult<(Arc<Datatype>, Contents)> {
    let dt = with_datatype(handle, Arc::clone)?;
    let c = contents::<Numbers>(&dt);
    check_variant(c.large_counts.len(), large_variant)?;
    Ok((dt, c))
}

/// The envelope of `datatype`: counts of integers, addresses, large counts and datatypes, and
/// the combiner, counted without copying the arrays.
fn envelope(handle: MPI_Datatype, large_variant: bool) -> MpiResult<(i64, i64, i64, i64, c_int)> {
    let e = with_datatype(handle, |dt| crate::datatype::contents::envelope(dt))?;
    check_variant(e.large_counts as usize, large_variant)?;
    let combiner = Numbers::combiner(e.combiner);
    Ok((e.ints, e.addresses, e.large_counts, e.types, combiner))
}

/// # Safety
/// As for the exported functions.
unsafe fn get_envelope<C: CountArg>(
    function: &'static str,
    datatype: MPI_Datatype,
    counts: [*mut C; 4],
    combiner: *mut c_int,
) -> c_int {
    guard(function, || {
        let names = [
            "num_integers",
            "num_addresses",
            "num_large_counts",
            "num_datatypes",
        ];
        for (i, &p) in counts.iter().enumerate() {
            // The variant without large counts has no num_large_counts argument.
            if i != 2 || C::LARGE {
                check_out(p, names[i])?;
            }
        }
        check_out(combiner, "combiner")?;
        let (ni, na, nc, nd, comb) = envelope(datatype, C::LARGE)?;
        for (i, n) in [ni, na, nc, nd].into_iter().enumerate() {
            if i != 2 || C::LARGE {
                let n = C::from_count(n, "an envelope count")?;
                // SAFETY: the caller's pointer, checked non-NULL above.
                unsafe { write_out(counts[i], n, names[i])? };
            }
        }
        // SAFETY: the caller's pointer, checked non-NULL above.
        unsafe { write_out(combiner, comb, "combiner") }
    })
}

/// How many arguments of each kind the constructor of `datatype` took, and which constructor.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_envelope(
    datatype: MPI_Datatype,
    num_integers: *mut c_int,
    num_addresses: *mut c_int,
    num_datatypes: *mut c_int,
    combiner: *mut c_int,
) -> c_int {
    export("MPI_Type_get_envelope", || {
        behind::foreign_call!(
            MPI_Type_get_envelope(datatype, num_integers, num_addresses, num_datatypes, combiner)
            if crate::dropin::is_foreign(datatype)
        );
        let counts = [
            num_integers,
            num_addresses,
            std::ptr::null_mut(),
            num_datatypes,
        ];
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe { get_envelope("MPI_Type_get_envelope", datatype, counts, combiner) }
    })
}

/// Large-count variant of `MPI_Type_get_envelope`, which also reports large counts.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_envelope_c(
    datatype: MPI_Datatype,
    num_integers: *mut MPI_Count,
    num_addresses: *mut MPI_Count,
    num_large_counts: *mut MPI_Count,
    num_datatypes: *mut MPI_Count,
    combiner: *mut c_int,
) -> c_int {
    export("MPI_Type_get_envelope_c", || {
        behind::foreign_call!(
            MPI_Type_get_envelope_c(datatype, num_integers, num_addresses, num_large_counts, num_datatypes, combiner)
            if crate::dropin::is_foreign(datatype)
        );
        let counts = [num_integers, num_addresses, num_large_counts, num_datatypes];
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe { get_envelope("MPI_Type_get_envelope_c", datatype, counts, combiner) }
    })
}

/// Checks that an output array of `max` elements can take `values` and is not NULL.
fn check_capacity<T>(ptr: *const T, max: i64, needed: usize, name: &str) -> MpiResult<()> {
    if max < 0 {
        return Err(MpiError::arg(format!(
            "max for {name} must be non-negative, got {max}"
        )));
    }
    if (max as u64) < needed as u64 {
        return Err(MpiError::arg(format!(
            "{name} has room for {max} values but the datatype needs {needed}"
        )));
    }
    if needed > 0 && ptr.is_null() {
        return Err(MpiError::arg(format!("{name} is a NULL pointer")));
    }
    Ok(())
}

/// Copies `values` to the C array `out`.
///
/// # Safety
/// `out` must be valid for `values.len()` writes (it may be NULL only if `values` is empty).
unsafe fn copy_out<T: Copy>(values: &[T], out: *mut T) {
    if !values.is_empty() {
        // SAFETY: the caller's contract.
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), out, values.len()) };
    }
}

/// Writes the decoded arguments of `handle` into the caller's arrays.
///
/// # Safety
/// Each array must be valid for its `max` writes.
#[allow(clippy::too_many_arguments)]
unsafe fn write_contents(
    handle: MPI_Datatype,
    large_variant: bool,
    max: [i64; 4],
    ints: *mut c_int,
    addresses: *mut MPI_Aint,
    large_counts: *mut MPI_Count,
    types: *mut MPI_Datatype,
) -> MpiResult<()> {
    let (dt, c) = decoded(handle, large_variant)?;
    if dt.predefined().is_some() {
        return Err(MpiError::datatype(
            "MPI_Type_get_contents cannot decode a named predefined datatype",
        ));
    }
    check_capacity(ints, max[0], c.ints.len(), "array_of_integers")?;
    check_capacity(addresses, max[1], c.addresses.len(), "array_of_addresses")?;
    check_capacity(
        large_counts,
        max[2],
        c.large_counts.len(),
        "array_of_large_counts",
    )?;
    check_capacity(types, max[3], c.types.len(), "array_of_datatypes")?;
    let ints_out = c
        .ints
        .iter()
        .map(|&v| {
            c_int::try_from(v)
                .map_err(|_| MpiError::new(MPI_ERR_INTERN, "a decoded integer does not fit"))
        })
        .collect::<MpiResult<Vec<_>>>()?;
    // SAFETY: each array is the caller's, checked above to be non-NULL with room for the
    // values written (the caller's contract: `max_*` values are writable).
    unsafe {
        copy_out(&ints_out, ints);
        copy_out(&c.addresses, addresses);
        copy_out(&c.large_counts, large_counts);
    }
    let mut children = Vec::with_capacity(c.types.len());
    for child in &c.types {
        match crate::dropin::handle_for_child(child) {
            Ok(handle) => children.push(handle),
            Err(e) => {
                // The handles made so far are not handed out: they go again.
                for made in children.into_iter().filter(|&h| !handles::is_builtin(h)) {
                    let _ = crate::dropin::free(made, IfAttributed::Remove);
                }
                return Err(e);
            }
        }
    }
    // SAFETY: as above.
    unsafe { copy_out(&children, types) };
    Ok(())
}

/// After the MPI behind decoded a type it made (`rc` its answer): a child that is one of this
/// library's types comes back from it as the program's own handle (or the number of a handle
/// the program freed since) with one more reference in that library; that reference is
/// dropped and the child returned as a new handle of this library, which the program frees as
/// the standard says without losing its own.
///
/// # Safety
/// `types` must hold the children the MPI behind wrote.
unsafe fn own_children(rc: c_int, datatype: MPI_Datatype, types: *mut MPI_Datatype) -> c_int {
    if rc != MPI_SUCCESS || types.is_null() {
        return rc;
    }
    let Ok((.., nd, _)) = crate::dropin::behind_types::envelope(datatype) else {
        return rc;
    };
    for i in 0..nd.max(0) as usize {
        // SAFETY: the first `nd` entries were written by the MPI behind.
        let child = unsafe { types.add(i).read() };
        let mine = match handles::is_twin(child) {
            true => crate::dropin::with_type(child, |dt, _| dt.clone()).ok(),
            // A number whose handle the program freed, still held by that library's type, or
            // Open MPI's duplicate of one of the program's handles.
            false => crate::dropin::handed_back(child),
        };
        let Some(Ok(own)) = mine.map(|dt| crate::dropin::handle_for_child(&dt)) else {
            continue;
        };
        crate::dropin::twin::release(child);
        // SAFETY: as above.
        unsafe { types.add(i).write(own) };
    }
    rc
}

/// The arguments the constructor of `datatype` was called with. Derived datatypes come back
/// as new handles that the caller frees; predefined ones as the predefined handle.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_contents(
    datatype: MPI_Datatype,
    max_integers: c_int,
    max_addresses: c_int,
    max_datatypes: c_int,
    array_of_integers: *mut c_int,
    array_of_addresses: *mut MPI_Aint,
    array_of_datatypes: *mut MPI_Datatype,
) -> c_int {
    export("MPI_Type_get_contents", || {
        behind::foreign_call!(
            MPI_Type_get_contents(datatype, max_integers, max_addresses, max_datatypes, array_of_integers, array_of_addresses, array_of_datatypes)
            if crate::dropin::is_foreign(datatype);
            // SAFETY: the caller's array, which the MPI behind filled.
            then |rc| unsafe { own_children(rc, datatype, array_of_datatypes) }
        );
        guard("MPI_Type_get_contents", || {
            let max = [
                max_integers.into(),
                max_addresses.into(),
                0,
                max_datatypes.into(),
            ];
            // SAFETY: the caller's arrays, passed on under the same contract.
            unsafe {
                write_contents(
                    datatype,
                    false,
                    max,
                    array_of_integers,
                    array_of_addresses,
                    std::ptr::null_mut(),
                    array_of_datatypes,
                )
            }
        })
    })
}

/// Large-count variant of `MPI_Type_get_contents`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_contents_c(
    datatype: MPI_Datatype,
    max_integers: MPI_Count,
    max_addresses: MPI_Count,
    max_large_counts: MPI_Count,
    max_datatypes: MPI_Count,
    array_of_integers: *mut c_int,
    array_of_addresses: *mut MPI_Aint,
    array_of_large_counts: *mut MPI_Count,
    array_of_datatypes: *mut MPI_Datatype,
) -> c_int {
    export("MPI_Type_get_contents_c", || {
        behind::foreign_call!(
            MPI_Type_get_contents_c(datatype, max_integers, max_addresses, max_large_counts, max_datatypes, array_of_integers, array_of_addresses, array_of_large_counts, array_of_datatypes)
            if crate::dropin::is_foreign(datatype);
            // SAFETY: the caller's array, which the MPI behind filled.
            then |rc| unsafe { own_children(rc, datatype, array_of_datatypes) }
        );
        guard("MPI_Type_get_contents_c", || {
            let max = [max_integers, max_addresses, max_large_counts, max_datatypes];
            // SAFETY: the caller's arrays, passed on under the same contract.
            unsafe {
                write_contents(
                    datatype,
                    true,
                    max,
                    array_of_integers,
                    array_of_addresses,
                    array_of_large_counts,
                    array_of_datatypes,
                )
            }
        })
    })
}
