//! Type constructors: `MPI_Type_contiguous` ... `MPI_Type_create_resized`, their large-count
//! `_c` variants, `MPI_Type_dup`, and the MPI-1 names MPICH still exports.

use super::{check_out, datatype, guard, read_array, write_out};
use crate::abi::*;
use crate::datatype::{construct, DarrayArgs, Datatype, Distribution, Order};
use crate::error::{MpiError, MpiResult};
use crate::handles;
use std::os::raw::c_int;
use std::sync::Arc;

/// Registers `made` and writes its handle to `newtype`.
unsafe fn publish(newtype: *mut MPI_Datatype, made: MpiResult<Arc<Datatype>>) -> MpiResult<()> {
    check_out(newtype, "newtype")?;
    let handle = handles::insert(made?, false)?;
    write_out(newtype, handle, "newtype")
}

fn order(value: c_int) -> MpiResult<Order> {
    match value {
        MPI_ORDER_C => Ok(Order::C),
        MPI_ORDER_FORTRAN => Ok(Order::Fortran),
        _ => Err(MpiError::arg(format!(
            "order {value} is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN"
        ))),
    }
}

fn distribution(value: c_int, dim: usize) -> MpiResult<Distribution> {
    match value {
        MPI_DISTRIBUTE_BLOCK => Ok(Distribution::Block),
        MPI_DISTRIBUTE_CYCLIC => Ok(Distribution::Cyclic),
        MPI_DISTRIBUTE_NONE => Ok(Distribution::None),
        _ => Err(MpiError::arg(format!(
            "array_of_distribs[{dim}] = {value} is not a distribution"
        ))),
    }
}

fn check_ndims(ndims: c_int) -> MpiResult<i64> {
    if ndims <= 0 {
        return Err(MpiError::arg(format!(
            "ndims must be positive, got {ndims}"
        )));
    }
    Ok(ndims as i64)
}

/// Creates a datatype of `count` copies of `oldtype` laid end to end.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_contiguous(
    count: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_contiguous", || {
        publish(
            newtype,
            construct::contiguous(count.into(), &datatype(oldtype)?, false),
        )
    })
}

/// Large-count variant of `MPI_Type_contiguous`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_contiguous_c(
    count: MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_contiguous_c", || {
        publish(
            newtype,
            construct::contiguous(count, &datatype(oldtype)?, true),
        )
    })
}

/// Creates `count` blocks of `blocklength` copies of `oldtype`, block starts `stride`
/// extents of `oldtype` apart.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_vector(
    count: c_int,
    blocklength: c_int,
    stride: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_vector", || {
        let old = datatype(oldtype)?;
        publish(
            newtype,
            construct::vector(
                count.into(),
                blocklength.into(),
                stride.into(),
                false,
                &old,
                false,
            ),
        )
    })
}

/// Large-count variant of `MPI_Type_vector`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_vector_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    stride: MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_vector_c", || {
        publish(
            newtype,
            construct::vector(count, blocklength, stride, false, &datatype(oldtype)?, true),
        )
    })
}

/// Creates `count` blocks of `blocklength` copies of `oldtype`, block starts `stride` bytes
/// apart.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hvector(
    count: c_int,
    blocklength: c_int,
    stride: MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_hvector", || {
        let old = datatype(oldtype)?;
        publish(
            newtype,
            construct::vector(count.into(), blocklength.into(), stride, true, &old, false),
        )
    })
}

/// Large-count variant of `MPI_Type_create_hvector`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hvector_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    stride: MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_hvector_c", || {
        publish(
            newtype,
            construct::vector(count, blocklength, stride, true, &datatype(oldtype)?, true),
        )
    })
}

/// MPI-1 name of `MPI_Type_create_hvector` (removed from the standard, still exported by MPICH).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_hvector(
    count: c_int,
    blocklength: c_int,
    stride: MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_hvector", || {
        let old = datatype(oldtype)?;
        publish(
            newtype,
            construct::vector(count.into(), blocklength.into(), stride, true, &old, false),
        )
    })
}

/// Checks `count` and reads the block-length and displacement arrays of a constructor.
unsafe fn read_blocks<B: Copy + Into<i64>, D: Copy + Into<i64>>(
    count: i64,
    blocklengths: *const B,
    displacements: *const D,
) -> MpiResult<(Vec<i64>, Vec<i64>)> {
    construct::check_count(count, "count")?;
    Ok((
        read_array(blocklengths, count, "array_of_blocklengths")?,
        read_array(displacements, count, "array_of_displacements")?,
    ))
}

unsafe fn indexed_common<B: Copy + Into<i64>, D: Copy + Into<i64>>(
    count: i64,
    blocklengths: *const B,
    displacements: *const D,
    in_bytes: bool,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
    large: bool,
) -> MpiResult<()> {
    let (b, d) = read_blocks(count, blocklengths, displacements)?;
    publish(
        newtype,
        construct::indexed(b, d, in_bytes, &datatype(oldtype)?, large),
    )
}

/// Creates blocks of `array_of_blocklengths[i]` copies of `oldtype` at displacements
/// `array_of_displacements[i]` counted in extents of `oldtype`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_indexed(
    count: c_int,
    array_of_blocklengths: *const c_int,
    array_of_displacements: *const c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_indexed", || {
        indexed_common(
            count.into(),
            array_of_blocklengths,
            array_of_displacements,
            false,
            oldtype,
            newtype,
            false,
        )
    })
}

/// Large-count variant of `MPI_Type_indexed`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_indexed_c(
    count: MPI_Count,
    array_of_blocklengths: *const MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_indexed_c", || {
        indexed_common(
            count,
            array_of_blocklengths,
            array_of_displacements,
            false,
            oldtype,
            newtype,
            true,
        )
    })
}

/// Creates blocks of `array_of_blocklengths[i]` copies of `oldtype` at byte displacements
/// `array_of_displacements[i]`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hindexed(
    count: c_int,
    array_of_blocklengths: *const c_int,
    array_of_displacements: *const MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_hindexed", || {
        indexed_common(
            count.into(),
            array_of_blocklengths,
            array_of_displacements,
            true,
            oldtype,
            newtype,
            false,
        )
    })
}

/// Large-count variant of `MPI_Type_create_hindexed`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hindexed_c(
    count: MPI_Count,
    array_of_blocklengths: *const MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_hindexed_c", || {
        indexed_common(
            count,
            array_of_blocklengths,
            array_of_displacements,
            true,
            oldtype,
            newtype,
            true,
        )
    })
}

/// MPI-1 name of `MPI_Type_create_hindexed` (removed from the standard, still exported by MPICH).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_hindexed(
    count: c_int,
    array_of_blocklengths: *mut c_int,
    array_of_displacements: *mut MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_hindexed", || {
        indexed_common(
            count.into(),
            array_of_blocklengths,
            array_of_displacements,
            true,
            oldtype,
            newtype,
            false,
        )
    })
}

unsafe fn indexed_block_common<D: Copy + Into<i64>>(
    count: i64,
    blocklength: i64,
    displacements: *const D,
    in_bytes: bool,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
    large: bool,
) -> MpiResult<()> {
    construct::check_count(count, "count")?;
    let d = read_array(displacements, count, "array_of_displacements")?;
    publish(
        newtype,
        construct::indexed_block(blocklength, d, in_bytes, &datatype(oldtype)?, large),
    )
}

/// Creates blocks of `blocklength` copies of `oldtype` at displacements counted in extents
/// of `oldtype`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_indexed_block(
    count: c_int,
    blocklength: c_int,
    array_of_displacements: *const c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_indexed_block", || {
        indexed_block_common(
            count.into(),
            blocklength.into(),
            array_of_displacements,
            false,
            oldtype,
            newtype,
            false,
        )
    })
}

/// Large-count variant of `MPI_Type_create_indexed_block`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_indexed_block_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_indexed_block_c", || {
        indexed_block_common(
            count,
            blocklength,
            array_of_displacements,
            false,
            oldtype,
            newtype,
            true,
        )
    })
}

/// Creates blocks of `blocklength` copies of `oldtype` at byte displacements.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hindexed_block(
    count: c_int,
    blocklength: c_int,
    array_of_displacements: *const MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_hindexed_block", || {
        indexed_block_common(
            count.into(),
            blocklength.into(),
            array_of_displacements,
            true,
            oldtype,
            newtype,
            false,
        )
    })
}

/// Large-count variant of `MPI_Type_create_hindexed_block`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hindexed_block_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_hindexed_block_c", || {
        indexed_block_common(
            count,
            blocklength,
            array_of_displacements,
            true,
            oldtype,
            newtype,
            true,
        )
    })
}

unsafe fn struct_common<B: Copy + Into<i64>, D: Copy + Into<i64>>(
    count: i64,
    blocklengths: *const B,
    displacements: *const D,
    types: *const MPI_Datatype,
    newtype: *mut MPI_Datatype,
    large: bool,
) -> MpiResult<()> {
    let (b, d) = read_blocks(count, blocklengths, displacements)?;
    let t = read_array(types, count, "array_of_types")?
        .into_iter()
        .map(|h| datatype(h as MPI_Datatype))
        .collect::<MpiResult<Vec<_>>>()?;
    publish(newtype, construct::structure(b, d, t, large))
}

/// Creates blocks of `array_of_blocklengths[i]` copies of `array_of_types[i]` at byte
/// displacements `array_of_displacements[i]`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_struct(
    count: c_int,
    array_of_blocklengths: *const c_int,
    array_of_displacements: *const MPI_Aint,
    array_of_types: *const MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_struct", || {
        struct_common(
            count.into(),
            array_of_blocklengths,
            array_of_displacements,
            array_of_types,
            newtype,
            false,
        )
    })
}

/// Large-count variant of `MPI_Type_create_struct`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_struct_c(
    count: MPI_Count,
    array_of_blocklengths: *const MPI_Count,
    array_of_displacements: *const MPI_Count,
    array_of_types: *const MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_struct_c", || {
        struct_common(
            count,
            array_of_blocklengths,
            array_of_displacements,
            array_of_types,
            newtype,
            true,
        )
    })
}

/// MPI-1 name of `MPI_Type_create_struct`; accepts the `MPI_LB` and `MPI_UB` markers.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_struct(
    count: c_int,
    array_of_blocklengths: *mut c_int,
    array_of_displacements: *mut MPI_Aint,
    array_of_types: *mut MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_struct", || {
        struct_common(
            count.into(),
            array_of_blocklengths,
            array_of_displacements,
            array_of_types,
            newtype,
            false,
        )
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn subarray_common<T: Copy + Into<i64>>(
    ndims: c_int,
    sizes: *const T,
    subsizes: *const T,
    starts: *const T,
    order_value: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
    large: bool,
) -> MpiResult<()> {
    let n = check_ndims(ndims)?;
    let sizes = read_array(sizes, n, "array_of_sizes")?;
    let subsizes = read_array(subsizes, n, "array_of_subsizes")?;
    let starts = read_array(starts, n, "array_of_starts")?;
    let order = order(order_value)?;
    publish(
        newtype,
        construct::subarray(sizes, subsizes, starts, order, &datatype(oldtype)?, large),
    )
}

/// Creates the datatype of a subarray `array_of_subsizes` starting at `array_of_starts` of
/// an `ndims`-dimensional array of `array_of_sizes` elements of `oldtype`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_subarray(
    ndims: c_int,
    array_of_sizes: *const c_int,
    array_of_subsizes: *const c_int,
    array_of_starts: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_subarray", || {
        subarray_common(
            ndims,
            array_of_sizes,
            array_of_subsizes,
            array_of_starts,
            order,
            oldtype,
            newtype,
            false,
        )
    })
}

/// Large-count variant of `MPI_Type_create_subarray`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_subarray_c(
    ndims: c_int,
    array_of_sizes: *const MPI_Count,
    array_of_subsizes: *const MPI_Count,
    array_of_starts: *const MPI_Count,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_subarray_c", || {
        subarray_common(
            ndims,
            array_of_sizes,
            array_of_subsizes,
            array_of_starts,
            order,
            oldtype,
            newtype,
            true,
        )
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn darray_common<G: Copy + Into<i64>>(
    size: c_int,
    rank: c_int,
    ndims: c_int,
    gsizes: *const G,
    distribs: *const c_int,
    dargs: *const c_int,
    psizes: *const c_int,
    order_value: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
    large: bool,
) -> MpiResult<()> {
    let n = check_ndims(ndims)?;
    let narrow = |v: Vec<i64>| v.into_iter().map(|x| x as i32).collect::<Vec<_>>();
    let args = DarrayArgs {
        size,
        rank,
        gsizes: read_array(gsizes, n, "array_of_gsizes")?,
        distribs: read_array(distribs, n, "array_of_distribs")?
            .into_iter()
            .enumerate()
            .map(|(d, v)| distribution(v as c_int, d))
            .collect::<MpiResult<Vec<_>>>()?,
        dargs: narrow(read_array(dargs, n, "array_of_dargs")?),
        psizes: narrow(read_array(psizes, n, "array_of_psizes")?),
        order: order(order_value)?,
    };
    publish(newtype, construct::darray(args, &datatype(oldtype)?, large))
}

/// Creates the datatype of the part of an `ndims`-dimensional array of `array_of_gsizes`
/// that process `rank` of `size` owns under the given block / cyclic distribution.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_darray(
    size: c_int,
    rank: c_int,
    ndims: c_int,
    array_of_gsizes: *const c_int,
    array_of_distribs: *const c_int,
    array_of_dargs: *const c_int,
    array_of_psizes: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_darray", || {
        darray_common(
            size,
            rank,
            ndims,
            array_of_gsizes,
            array_of_distribs,
            array_of_dargs,
            array_of_psizes,
            order,
            oldtype,
            newtype,
            false,
        )
    })
}

/// Large-count variant of `MPI_Type_create_darray`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_darray_c(
    size: c_int,
    rank: c_int,
    ndims: c_int,
    array_of_gsizes: *const MPI_Count,
    array_of_distribs: *const c_int,
    array_of_dargs: *const c_int,
    array_of_psizes: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_darray_c", || {
        darray_common(
            size,
            rank,
            ndims,
            array_of_gsizes,
            array_of_distribs,
            array_of_dargs,
            array_of_psizes,
            order,
            oldtype,
            newtype,
            true,
        )
    })
}

/// Creates a copy of `oldtype` whose lower bound is `lb` and whose extent is `extent`
/// (earlier bound markers are erased).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_resized(
    oldtype: MPI_Datatype,
    lb: MPI_Aint,
    extent: MPI_Aint,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_resized", || {
        publish(
            newtype,
            construct::resized(&datatype(oldtype)?, lb, extent, false),
        )
    })
}

/// Large-count variant of `MPI_Type_create_resized`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_resized_c(
    oldtype: MPI_Datatype,
    lb: MPI_Count,
    extent: MPI_Count,
    newtype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_create_resized_c", || {
        publish(
            newtype,
            construct::resized(&datatype(oldtype)?, lb, extent, true),
        )
    })
}

/// Creates a new datatype with the same type map and committed state as `oldtype`; cached
/// attributes are copied through their copy callbacks.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_dup(oldtype: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int {
    guard("MPI_Type_dup", || {
        check_out(newtype, "newtype")?;
        let (old, committed) = handles::lookup(oldtype)?;
        let attributes = super::attributes::copy_all(oldtype)?;
        let handle = handles::insert(construct::dup(&old), committed)
            .inspect_err(|_| super::attributes::released(&attributes))?;
        handles::update(handle, |e| e.attributes = attributes)?;
        write_out(newtype, handle, "newtype")
    })
}
