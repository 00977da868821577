//! Life and queries: commit and free, size and bounds, names, addresses, type matching,
//! and the element counts of a status.

use super::{check_out, datatype, guard, write_out};
use crate::abi::*;
use crate::datatype::{elements, predefined};
use crate::error::{MpiError, MpiResult};
use crate::handles;
use std::ffi::{c_char, c_void, CStr};
use std::os::raw::c_int;

/// Commits a datatype so it can be used to pack and communicate.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_commit(datatype: *mut MPI_Datatype) -> c_int {
    guard("MPI_Type_commit", || {
        check_out(datatype, "datatype")?;
        let dt = handles::commit(*datatype)?;
        crate::plan::compiled(&dt);
        Ok(())
    })
}

/// Frees a datatype handle and sets it to `MPI_DATATYPE_NULL`; types built from it stay valid.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_free(datatype: *mut MPI_Datatype) -> c_int {
    guard("MPI_Type_free", || {
        check_out(datatype, "datatype")?;
        let handle = *datatype;
        if handles::is_predefined(handle) {
            return Err(MpiError::datatype("a predefined datatype cannot be freed"));
        }
        let attributes = handles::with_entry(handle, |e| e.attributes.clone())?;
        super::attributes::delete_all(handle, &attributes)?;
        handles::remove(handle)?;
        super::attributes::released(&attributes);
        write_out(datatype, MPI_DATATYPE_NULL, "datatype")
    })
}

unsafe fn size_common<T>(
    dt: MPI_Datatype,
    size: *mut T,
    convert: impl FnOnce(i64) -> T,
) -> MpiResult<()> {
    check_out(size, "size")?;
    let bytes = datatype(dt)?.size();
    write_out(size, convert(bytes), "size")
}

/// The number of bytes of data in one copy of the datatype (`MPI_UNDEFINED` if it does not
/// fit an `int`).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size(datatype: MPI_Datatype, size: *mut c_int) -> c_int {
    guard("MPI_Type_size", || {
        size_common(datatype, size, |s| {
            c_int::try_from(s).unwrap_or(MPI_UNDEFINED)
        })
    })
}

/// `MPI_Type_size` with an `MPI_Count` result.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size_x(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    guard("MPI_Type_size_x", || size_common(datatype, size, |s| s))
}

/// Large-count variant of `MPI_Type_size`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size_c(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    guard("MPI_Type_size_c", || size_common(datatype, size, |s| s))
}

unsafe fn bounds_common(
    dt: MPI_Datatype,
    lb: *mut i64,
    extent: *mut i64,
    true_bounds: bool,
) -> MpiResult<()> {
    check_out(lb, "lb")?;
    check_out(extent, "extent")?;
    let t = datatype(dt)?;
    let (l, e) = if true_bounds {
        (t.true_lb(), t.true_extent())
    } else {
        (t.lb(), t.extent())
    };
    write_out(lb, l, "lb")?;
    write_out(extent, e, "extent")
}

/// The lower bound and extent of the datatype.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent(
    datatype: MPI_Datatype,
    lb: *mut MPI_Aint,
    extent: *mut MPI_Aint,
) -> c_int {
    guard("MPI_Type_get_extent", || {
        bounds_common(datatype, lb, extent, false)
    })
}

/// `MPI_Type_get_extent` with `MPI_Count` results.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent_x(
    datatype: MPI_Datatype,
    lb: *mut MPI_Count,
    extent: *mut MPI_Count,
) -> c_int {
    guard("MPI_Type_get_extent_x", || {
        bounds_common(datatype, lb, extent, false)
    })
}

/// Large-count variant of `MPI_Type_get_extent`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent_c(
    datatype: MPI_Datatype,
    lb: *mut MPI_Count,
    extent: *mut MPI_Count,
) -> c_int {
    guard("MPI_Type_get_extent_c", || {
        bounds_common(datatype, lb, extent, false)
    })
}

/// The lower bound and extent of the data itself, ignoring markers and padding.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Aint,
    true_extent: *mut MPI_Aint,
) -> c_int {
    guard("MPI_Type_get_true_extent", || {
        bounds_common(datatype, true_lb, true_extent, true)
    })
}

/// `MPI_Type_get_true_extent` with `MPI_Count` results.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent_x(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Count,
    true_extent: *mut MPI_Count,
) -> c_int {
    guard("MPI_Type_get_true_extent_x", || {
        bounds_common(datatype, true_lb, true_extent, true)
    })
}

/// Large-count variant of `MPI_Type_get_true_extent`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent_c(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Count,
    true_extent: *mut MPI_Count,
) -> c_int {
    guard("MPI_Type_get_true_extent_c", || {
        bounds_common(datatype, true_lb, true_extent, true)
    })
}

/// MPI-1: the extent of the datatype (removed from the standard, still exported by MPICH).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_extent(datatype: MPI_Datatype, extent: *mut MPI_Aint) -> c_int {
    guard("MPI_Type_extent", || {
        check_out(extent, "extent")?;
        write_out(extent, super::datatype(datatype)?.extent(), "extent")
    })
}

/// MPI-1: the lower bound of the datatype (removed from the standard, still exported by MPICH).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_lb(datatype: MPI_Datatype, displacement: *mut MPI_Aint) -> c_int {
    guard("MPI_Type_lb", || {
        check_out(displacement, "displacement")?;
        write_out(
            displacement,
            super::datatype(datatype)?.lb(),
            "displacement",
        )
    })
}

/// MPI-1: the upper bound of the datatype (removed from the standard, still exported by MPICH).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_ub(datatype: MPI_Datatype, displacement: *mut MPI_Aint) -> c_int {
    guard("MPI_Type_ub", || {
        check_out(displacement, "displacement")?;
        write_out(
            displacement,
            super::datatype(datatype)?.ub(),
            "displacement",
        )
    })
}

/// The name of the datatype: "MPI_INT" etc. for predefined types, what `MPI_Type_set_name`
/// set, or the empty string.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_name(
    datatype: MPI_Datatype,
    type_name: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    guard("MPI_Type_get_name", || {
        check_out(type_name, "type_name")?;
        check_out(resultlen, "resultlen")?;
        let name = handles::with_entry(datatype, |e| e.name.clone())?;
        let bytes = &name.as_bytes()[..name.len().min(MPI_MAX_OBJECT_NAME as usize - 1)];
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), type_name as *mut u8, bytes.len());
        *type_name.add(bytes.len()) = 0;
        write_out(resultlen, bytes.len() as c_int, "resultlen")
    })
}

/// Gives the datatype a name (at most `MPI_MAX_OBJECT_NAME - 1` characters are kept).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_set_name(
    datatype: MPI_Datatype,
    type_name: *const c_char,
) -> c_int {
    guard("MPI_Type_set_name", || {
        check_out(type_name, "type_name")?;
        let bytes = CStr::from_ptr(type_name).to_bytes();
        let kept = &bytes[..bytes.len().min(MPI_MAX_OBJECT_NAME as usize - 1)];
        let name = String::from_utf8_lossy(kept).into_owned();
        handles::update(datatype, |e| e.name = name)
    })
}

/// The address of `location`, for absolute displacements relative to `MPI_BOTTOM`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_address(location: *const c_void, address: *mut MPI_Aint) -> c_int {
    guard("MPI_Get_address", || {
        write_out(address, location as MPI_Aint, "address")
    })
}

/// MPI-1 name of `MPI_Get_address` (removed from the standard, still exported by MPICH).
#[no_mangle]
pub unsafe extern "C" fn MPI_Address(location: *mut c_void, address: *mut MPI_Aint) -> c_int {
    guard("MPI_Address", || {
        write_out(address, location as MPI_Aint, "address")
    })
}

/// `base + disp` as addresses (wrapping like pointer arithmetic).
#[no_mangle]
pub extern "C" fn MPI_Aint_add(base: MPI_Aint, disp: MPI_Aint) -> MPI_Aint {
    base.wrapping_add(disp)
}

/// `addr1 - addr2` as addresses (wrapping like pointer arithmetic).
#[no_mangle]
pub extern "C" fn MPI_Aint_diff(addr1: MPI_Aint, addr2: MPI_Aint) -> MPI_Aint {
    addr1.wrapping_sub(addr2)
}

/// The predefined Fortran-sized type of `typeclass` (`MPI_TYPECLASS_*`) with `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_match_size(
    typeclass: c_int,
    size: c_int,
    datatype: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_match_size", || {
        check_out(datatype, "datatype")?;
        if !matches!(
            typeclass,
            MPI_TYPECLASS_REAL | MPI_TYPECLASS_INTEGER | MPI_TYPECLASS_COMPLEX
        ) {
            return Err(MpiError::arg(format!(
                "typeclass {typeclass} is not an MPI_TYPECLASS_* value"
            )));
        }
        let found = predefined::match_size(typeclass, size.into()).ok_or_else(|| {
            MpiError::arg(format!(
                "no predefined type of class {typeclass} has {size} bytes"
            ))
        })?;
        write_out(datatype, found, "datatype")
    })
}

// ---- status element counts ----------------------------------------------------------------

fn status_bytes(status: &MPI_Status) -> i64 {
    ((status.count_hi_and_cancelled as u32 >> 1) as i64) << 32 | status.count_lo as u32 as i64
}

fn set_status_bytes(status: &mut MPI_Status, bytes: i64) {
    status.count_lo = bytes as u32 as c_int;
    status.count_hi_and_cancelled =
        (status.count_hi_and_cancelled & 1) | (((bytes >> 32) as c_int) << 1);
}

unsafe fn status_ref<'a>(status: *const MPI_Status) -> MpiResult<&'a MPI_Status> {
    if status.is_null() || status as usize == 1 {
        return Err(MpiError::arg("status is NULL or MPI_STATUS_IGNORE"));
    }
    Ok(&*status)
}

/// Number of whole copies of `dt` in the status's byte count, or `None` if it is not whole.
fn whole_copies(bytes: i64, size: i64) -> Option<i64> {
    match size {
        0 => Some(0),
        s if bytes % s == 0 => Some(bytes / s),
        _ => None,
    }
}

unsafe fn count_common(
    status: *const MPI_Status,
    dt: MPI_Datatype,
    elements: bool,
) -> MpiResult<Option<i64>> {
    let bytes = status_bytes(status_ref(status)?);
    let t = datatype(dt)?;
    Ok(if elements {
        elements::elements_in_bytes(&t, bytes)
    } else {
        whole_copies(bytes, t.size())
    })
}

/// Number of whole copies of `datatype` received (`MPI_UNDEFINED` if not whole).
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_count(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut c_int,
) -> c_int {
    guard("MPI_Get_count", || {
        check_out(count, "count")?;
        let n = count_common(status, datatype, false)?;
        write_out(count, int_or_undefined(n), "count")
    })
}

/// Large-count variant of `MPI_Get_count`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_count_c(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut MPI_Count,
) -> c_int {
    guard("MPI_Get_count_c", || {
        check_out(count, "count")?;
        let n = count_common(status, datatype, false)?;
        write_out(count, n.unwrap_or(MPI_UNDEFINED as i64), "count")
    })
}

/// Number of basic elements received (`MPI_UNDEFINED` if the data ends inside one).
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_elements(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut c_int,
) -> c_int {
    guard("MPI_Get_elements", || {
        check_out(count, "count")?;
        let n = count_common(status, datatype, true)?;
        write_out(count, int_or_undefined(n), "count")
    })
}

/// A count for an `int` output: `MPI_UNDEFINED` if it is undefined or does not fit ("If the
/// number of entries received exceeds the limits of the count parameter, then MPI_GET_COUNT
/// sets the value of count to MPI_UNDEFINED").
fn int_or_undefined(n: Option<i64>) -> c_int {
    n.and_then(|n| c_int::try_from(n).ok())
        .unwrap_or(MPI_UNDEFINED)
}

unsafe fn elements_count(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut MPI_Count,
) -> MpiResult<()> {
    check_out(count, "count")?;
    let n = count_common(status, datatype, true)?;
    write_out(count, n.unwrap_or(MPI_UNDEFINED as i64), "count")
}

/// `MPI_Get_elements` with an `MPI_Count` result.
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_elements_x(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut MPI_Count,
) -> c_int {
    guard("MPI_Get_elements_x", || {
        elements_count(status, datatype, count)
    })
}

/// Large-count variant of `MPI_Get_elements`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_elements_c(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut MPI_Count,
) -> c_int {
    guard("MPI_Get_elements_c", || {
        elements_count(status, datatype, count)
    })
}

unsafe fn set_elements(status: *mut MPI_Status, dt: MPI_Datatype, count: i64) -> MpiResult<()> {
    if count < 0 {
        return Err(MpiError::count(format!(
            "count must be non-negative, got {count}"
        )));
    }
    let bytes = elements::bytes_of_elements(&*datatype(dt)?, count)?;
    if status.is_null() || status as usize == 1 {
        return Err(MpiError::arg("status is NULL or MPI_STATUS_IGNORE"));
    }
    set_status_bytes(&mut *status, bytes);
    Ok(())
}

/// Sets the status so that `MPI_Get_elements` with `datatype` reports `count` basic elements.
#[no_mangle]
pub unsafe extern "C" fn MPI_Status_set_elements(
    status: *mut MPI_Status,
    datatype: MPI_Datatype,
    count: c_int,
) -> c_int {
    guard("MPI_Status_set_elements", || {
        set_elements(status, datatype, count.into())
    })
}

/// `MPI_Status_set_elements` with an `MPI_Count` count.
#[no_mangle]
pub unsafe extern "C" fn MPI_Status_set_elements_x(
    status: *mut MPI_Status,
    datatype: MPI_Datatype,
    count: MPI_Count,
) -> c_int {
    guard("MPI_Status_set_elements_x", || {
        set_elements(status, datatype, count)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_byte_count_round_trips() {
        let mut s = MPI_Status::default();
        for bytes in [0i64, 1, 0x7fff_ffff, 0x1_0000_0000, 0x7_1234_5678] {
            set_status_bytes(&mut s, bytes);
            assert_eq!(status_bytes(&s), bytes);
        }
    }
}
