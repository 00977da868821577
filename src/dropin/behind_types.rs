//! The datatype constructors and queries of the MPI library behind this one, in large counts:
//! its `_c` functions where it has them (MPI 4.0: MPICH 4 and 5, Intel MPI), else its MPI-3
//! functions with each count narrowed to `int` and each displacement to `MPI_Aint` (Open MPI
//! 4.1 and 5.0 export no `_c` datatype function). A count that does not fit an `int` is then
//! an error of class `MPI_ERR_COUNT`: that library cannot hold the type.
//!
//! Twins ([`super::twin`]), the types messages take on that library's path and the import of
//! its own types ([`super::import`]) go through here, so they need not know which it is.

use crate::abi::*;
use crate::behind::{forward, real_function};
use crate::error::{MpiError, MpiResult};
use std::os::raw::c_int;
use std::sync::atomic::AtomicUsize;

/// The count type of the large-count functions.
pub type Count = MPI_Count;

/// `(integers, addresses, large counts, datatypes, combiner)` of a type of the MPI behind
/// (`MPI_Type_get_envelope_c`).
pub type Envelope = (Count, Count, Count, Count, c_int);

/// True if the MPI behind has MPI 4.0's large-count datatype functions.
fn large_counts() -> bool {
    static CELL: AtomicUsize = AtomicUsize::new(0);
    real_function(&CELL, c"PMPI_Type_contiguous_c") != 0
}

/// Maps the result of a call of the MPI behind to an error of the same class (a copy
/// callback's error in `PMPI_Type_dup`, say, stays that error).
pub fn check(function: &str, rc: Option<c_int>) -> MpiResult<()> {
    match rc {
        Some(MPI_SUCCESS) => Ok(()),
        Some(code) => {
            let mut class = MPI_ERR_INTERN;
            forward!(PMPI_Error_class: fn(c_int, *mut c_int) -> c_int, code, &mut class);
            Err(MpiError::new(
                class,
                format!("the MPI library behind failed {function} for a twin (error code {code})"),
            ))
        }
        None => Err(MpiError::new(
            MPI_ERR_INTERN,
            format!("the MPI library behind has no {function}"),
        )),
    }
}

/// Calls a constructor of the MPI behind (its last argument, the new handle, is added): the
/// datatype it made, which the caller owns.
macro_rules! made {
    ($name:ident : fn($($ty:ty),*), $($arg:expr),*) => {{
        let mut made: MPI_Datatype = MPI_DATATYPE_NULL;
        let rc = forward!($name: fn($($ty,)* *mut MPI_Datatype) -> c_int, $($arg,)* &mut made);
        check(stringify!($name), rc).map(|()| made)
    }};
}

/// `value` as the `int` of an MPI-3 function.
fn int(value: Count) -> MpiResult<c_int> {
    narrowed(value, "datatype functions")
}

/// `value` as the `int` of an MPI-3 function of the MPI behind, which lacks the large-count
/// `functions` (`"datatype functions"`, ...): else an error of class `MPI_ERR_COUNT`.
pub fn narrowed(value: Count, functions: &str) -> MpiResult<c_int> {
    c_int::try_from(value).map_err(|_| {
        MpiError::new(
            MPI_ERR_COUNT,
            format!(
                "{value} does not fit in an int, and the MPI library behind has no large-count \
                 {functions}"
            ),
        )
    })
}

/// `values` as the `int`s of an MPI-3 function.
fn ints(values: &[Count]) -> MpiResult<Vec<c_int>> {
    values.iter().map(|&v| int(v)).collect()
}

/// `values` as the addresses of an MPI-3 function (`MPI_Aint` holds every `MPI_Count` on the
/// platforms the library builds for).
fn aints(values: &[Count]) -> Vec<MPI_Aint> {
    values.iter().map(|&v| v as MPI_Aint).collect()
}

/// `MPI_Type_dup` (the MPI behind copies the attributes of `old` by their callbacks).
pub fn dup(old: MPI_Datatype) -> MpiResult<MPI_Datatype> {
    made!(PMPI_Type_dup: fn(MPI_Datatype), old)
}

/// `MPI_Type_contiguous`.
pub fn contiguous(count: Count, old: MPI_Datatype) -> MpiResult<MPI_Datatype> {
    if large_counts() {
        return made!(PMPI_Type_contiguous_c: fn(Count, MPI_Datatype), count, old);
    }
    made!(PMPI_Type_contiguous: fn(c_int, MPI_Datatype), int(count)?, old)
}

/// `MPI_Type_vector`.
pub fn vector(
    count: Count,
    blocklength: Count,
    stride: Count,
    old: MPI_Datatype,
) -> MpiResult<MPI_Datatype> {
    if large_counts() {
        return made!(PMPI_Type_vector_c: fn(Count, Count, Count, MPI_Datatype),
            count, blocklength, stride, old);
    }
    made!(PMPI_Type_vector: fn(c_int, c_int, c_int, MPI_Datatype),
        int(count)?, int(blocklength)?, int(stride)?, old)
}

/// `MPI_Type_create_hvector` (`stride` in bytes).
pub fn hvector(
    count: Count,
    blocklength: Count,
    stride: Count,
    old: MPI_Datatype,
) -> MpiResult<MPI_Datatype> {
    if large_counts() {
        return made!(PMPI_Type_create_hvector_c: fn(Count, Count, Count, MPI_Datatype),
            count, blocklength, stride, old);
    }
    made!(PMPI_Type_create_hvector: fn(c_int, c_int, MPI_Aint, MPI_Datatype),
        int(count)?, int(blocklength)?, stride as MPI_Aint, old)
}

/// `MPI_Type_indexed`.
pub fn indexed(
    blocklengths: &[Count],
    displacements: &[Count],
    old: MPI_Datatype,
) -> MpiResult<MPI_Datatype> {
    let n = blocklengths.len() as Count;
    if large_counts() {
        return made!(PMPI_Type_indexed_c: fn(Count, *const Count, *const Count, MPI_Datatype),
            n, blocklengths.as_ptr(), displacements.as_ptr(), old);
    }
    let (lengths, places) = (ints(blocklengths)?, ints(displacements)?);
    made!(PMPI_Type_indexed: fn(c_int, *const c_int, *const c_int, MPI_Datatype),
        int(n)?, lengths.as_ptr(), places.as_ptr(), old)
}

/// `MPI_Type_create_hindexed` (displacements in bytes).
pub fn hindexed(
    blocklengths: &[Count],
    displacements: &[Count],
    old: MPI_Datatype,
) -> MpiResult<MPI_Datatype> {
    let n = blocklengths.len() as Count;
    if large_counts() {
        return made!(PMPI_Type_create_hindexed_c: fn(Count, *const Count, *const Count, MPI_Datatype),
            n, blocklengths.as_ptr(), displacements.as_ptr(), old);
    }
    let (lengths, places) = (ints(blocklengths)?, aints(displacements));
    made!(PMPI_Type_create_hindexed: fn(c_int, *const c_int, *const MPI_Aint, MPI_Datatype),
        int(n)?, lengths.as_ptr(), places.as_ptr(), old)
}

/// `MPI_Type_create_indexed_block`.
pub fn indexed_block(
    blocklength: Count,
    displacements: &[Count],
    old: MPI_Datatype,
) -> MpiResult<MPI_Datatype> {
    let n = displacements.len() as Count;
    if large_counts() {
        return made!(PMPI_Type_create_indexed_block_c: fn(Count, Count, *const Count, MPI_Datatype),
            n, blocklength, displacements.as_ptr(), old);
    }
    let places = ints(displacements)?;
    made!(PMPI_Type_create_indexed_block: fn(c_int, c_int, *const c_int, MPI_Datatype),
        int(n)?, int(blocklength)?, places.as_ptr(), old)
}

/// `MPI_Type_create_hindexed_block` (displacements in bytes).
pub fn hindexed_block(
    blocklength: Count,
    displacements: &[Count],
    old: MPI_Datatype,
) -> MpiResult<MPI_Datatype> {
    let n = displacements.len() as Count;
    if large_counts() {
        return made!(PMPI_Type_create_hindexed_block_c: fn(Count, Count, *const Count, MPI_Datatype),
            n, blocklength, displacements.as_ptr(), old);
    }
    let places = aints(displacements);
    made!(PMPI_Type_create_hindexed_block: fn(c_int, c_int, *const MPI_Aint, MPI_Datatype),
        int(n)?, int(blocklength)?, places.as_ptr(), old)
}

/// `MPI_Type_create_struct`.
pub fn structure(
    blocklengths: &[Count],
    displacements: &[Count],
    types: &[MPI_Datatype],
) -> MpiResult<MPI_Datatype> {
    let n = blocklengths.len() as Count;
    if large_counts() {
        return made!(PMPI_Type_create_struct_c: fn(Count, *const Count, *const Count, *const MPI_Datatype),
            n, blocklengths.as_ptr(), displacements.as_ptr(), types.as_ptr());
    }
    let (lengths, places) = (ints(blocklengths)?, aints(displacements));
    made!(PMPI_Type_create_struct: fn(c_int, *const c_int, *const MPI_Aint, *const MPI_Datatype),
        int(n)?, lengths.as_ptr(), places.as_ptr(), types.as_ptr())
}

/// `MPI_Type_create_resized`.
pub fn resized(old: MPI_Datatype, lb: Count, extent: Count) -> MpiResult<MPI_Datatype> {
    if large_counts() {
        return made!(PMPI_Type_create_resized_c: fn(MPI_Datatype, Count, Count), old, lb, extent);
    }
    made!(PMPI_Type_create_resized: fn(MPI_Datatype, MPI_Aint, MPI_Aint),
        old, lb as MPI_Aint, extent as MPI_Aint)
}

/// `MPI_Type_get_extent`: `(lb, extent)`.
pub fn extent(datatype: MPI_Datatype) -> MpiResult<(Count, Count)> {
    if large_counts() {
        let (mut lb, mut extent): (Count, Count) = (0, 0);
        let rc = forward!(PMPI_Type_get_extent_c: fn(MPI_Datatype, *mut Count, *mut Count) -> c_int,
            datatype, &mut lb, &mut extent);
        return check("PMPI_Type_get_extent_c", rc).map(|()| (lb, extent));
    }
    let (mut lb, mut extent): (MPI_Aint, MPI_Aint) = (0, 0);
    let rc = forward!(PMPI_Type_get_extent: fn(MPI_Datatype, *mut MPI_Aint, *mut MPI_Aint) -> c_int,
        datatype, &mut lb, &mut extent);
    check("PMPI_Type_get_extent", rc).map(|()| (lb as Count, extent as Count))
}

/// `MPI_Type_size` (`MPI_Type_size_x` of MPI-3 without the large-count functions).
pub fn size(datatype: MPI_Datatype) -> MpiResult<Count> {
    let mut size: Count = -1;
    if large_counts() {
        let rc =
            forward!(PMPI_Type_size_c: fn(MPI_Datatype, *mut Count) -> c_int, datatype, &mut size);
        return check("PMPI_Type_size_c", rc).map(|()| size);
    }
    let rc = forward!(PMPI_Type_size_x: fn(MPI_Datatype, *mut Count) -> c_int, datatype, &mut size);
    check("PMPI_Type_size_x", rc).map(|()| size)
}

/// `MPI_Type_get_envelope`, or the function's name and its answer when it fails.
pub fn envelope(datatype: MPI_Datatype) -> Result<Envelope, (&'static str, Option<c_int>)> {
    let mut combiner = MPI_UNDEFINED;
    if large_counts() {
        let (mut ni, mut na, mut nc, mut nd): (Count, Count, Count, Count) = (0, 0, 0, 0);
        let rc = forward!(PMPI_Type_get_envelope_c: fn(MPI_Datatype, *mut Count, *mut Count, *mut Count, *mut Count, *mut c_int) -> c_int,
            datatype, &mut ni, &mut na, &mut nc, &mut nd, &mut combiner);
        return match rc {
            Some(MPI_SUCCESS) => Ok((ni, na, nc, nd, combiner)),
            other => Err(("PMPI_Type_get_envelope_c", other)),
        };
    }
    let (mut ni, mut na, mut nd): (c_int, c_int, c_int) = (0, 0, 0);
    let rc = forward!(PMPI_Type_get_envelope: fn(MPI_Datatype, *mut c_int, *mut c_int, *mut c_int, *mut c_int) -> c_int,
        datatype, &mut ni, &mut na, &mut nd, &mut combiner);
    match rc {
        Some(MPI_SUCCESS) => Ok((ni.into(), na.into(), 0, nd.into(), combiner)),
        other => Err(("PMPI_Type_get_envelope", other)),
    }
}

/// `MPI_Type_get_contents` into arrays as long as [`envelope`] said (the large counts
/// stay empty without the large-count functions), or the function's name and its answer
/// when it fails.
pub fn contents(
    datatype: MPI_Datatype,
    ints: &mut [c_int],
    addresses: &mut [MPI_Aint],
    large_counts_out: &mut [Count],
    types: &mut [MPI_Datatype],
) -> Result<(), (&'static str, Option<c_int>)> {
    let [ni, na, nc, nd] = [
        ints.len(),
        addresses.len(),
        large_counts_out.len(),
        types.len(),
    ];
    if large_counts() {
        let rc = forward!(PMPI_Type_get_contents_c: fn(MPI_Datatype, Count, Count, Count, Count, *mut c_int, *mut MPI_Aint, *mut Count, *mut MPI_Datatype) -> c_int,
            datatype, ni as Count, na as Count, nc as Count, nd as Count, ints.as_mut_ptr(),
            addresses.as_mut_ptr(), large_counts_out.as_mut_ptr(), types.as_mut_ptr());
        return match rc {
            Some(MPI_SUCCESS) => Ok(()),
            other => Err(("PMPI_Type_get_contents_c", other)),
        };
    }
    let rc = forward!(PMPI_Type_get_contents: fn(MPI_Datatype, c_int, c_int, c_int, *mut c_int, *mut MPI_Aint, *mut MPI_Datatype) -> c_int,
        datatype, ni as c_int, na as c_int, nd as c_int, ints.as_mut_ptr(),
        addresses.as_mut_ptr(), types.as_mut_ptr());
    match rc {
        Some(MPI_SUCCESS) => Ok(()),
        other => Err(("PMPI_Type_get_contents", other)),
    }
}
