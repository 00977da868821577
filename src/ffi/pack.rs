//! `MPI_Pack`, `MPI_Unpack`, `MPI_Pack_size`, the external32 variants, and their `_c` forms.
//! A call without enough room or input fails with `MPI_ERR_TRUNCATE`, writes nothing and
//! leaves `position` unchanged.

use super::{check_comm, check_out, datatype, guard, is_comm, to_int, write_out};
use crate::abi::*;
use crate::error::{MpiError, MpiResult};
use crate::handles;
use crate::pack;
use std::ffi::{c_char, c_void, CStr};
use std::os::raw::c_int;

/// Which representation a pack call produces.
#[derive(Clone, Copy)]
enum Representation {
    Native,
    External32,
}

fn check_datarep(datarep: *const c_char) -> MpiResult<()> {
    check_out(datarep, "datarep")?;
    // SAFETY: checked non-NULL; the caller passes a C string.
    let name = unsafe { CStr::from_ptr(datarep) };
    if name.to_bytes() != b"external32" {
        return Err(MpiError::new(
            MPI_ERR_UNSUPPORTED_DATAREP,
            format!(
                "data representation {:?} is not supported (only \"external32\")",
                name
            ),
        ));
    }
    Ok(())
}

fn check_buffer_args(
    count: i64,
    size: i64,
    position: i64,
    buffer: *const c_void,
    what: &str,
) -> MpiResult<()> {
    if count < 0 {
        return Err(MpiError::count(format!(
            "count must be non-negative, got {count}"
        )));
    }
    if size < 0 {
        return Err(MpiError::arg(format!(
            "{what} size must be non-negative, got {size}"
        )));
    }
    if position < 0 || position > size {
        return Err(MpiError::arg(format!(
            "position {position} is outside the {what} buffer of {size} bytes"
        )));
    }
    if buffer.is_null() && size > 0 {
        return Err(MpiError::new(
            MPI_ERR_BUFFER,
            format!("the {what} buffer is NULL"),
        ));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
unsafe fn pack_common(
    rep: Representation,
    inbuf: *const c_void,
    incount: i64,
    dt: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: i64,
    position: &mut i64,
) -> MpiResult<()> {
    check_buffer_args(incount, outsize, *position, outbuf, "output")?;
    let (inp, out) = (inbuf as *const u8, outbuf as *mut u8);
    handles::with_committed(dt, |t| match rep {
        Representation::Native => pack::pack(inp, incount, t, out, outsize, position),
        Representation::External32 => {
            pack::external32::pack(inp, incount, t, out, outsize, position)
        }
    })?
}

#[allow(clippy::too_many_arguments)]
unsafe fn unpack_common(
    rep: Representation,
    inbuf: *const c_void,
    insize: i64,
    position: &mut i64,
    outbuf: *mut c_void,
    outcount: i64,
    dt: MPI_Datatype,
) -> MpiResult<()> {
    check_buffer_args(outcount, insize, *position, inbuf, "input")?;
    let (inp, out) = (inbuf as *const u8, outbuf as *mut u8);
    handles::with_committed(dt, |t| match rep {
        Representation::Native => pack::unpack(inp, insize, position, out, outcount, t),
        Representation::External32 => {
            pack::external32::unpack(inp, insize, position, out, outcount, t)
        }
    })?
}

/// Runs `f` on a 64-bit copy of the `int` position and writes it back on success.
unsafe fn with_int_position(
    position: *mut c_int,
    f: impl FnOnce(&mut i64) -> MpiResult<()>,
) -> MpiResult<()> {
    check_out(position, "position")?;
    let mut p = *position as i64;
    f(&mut p)?;
    write_out(position, to_int(p, "the new position")?, "position")
}

/// Runs `f` on the 64-bit position and writes it back on success.
unsafe fn with_position(
    position: *mut i64,
    f: impl FnOnce(&mut i64) -> MpiResult<()>,
) -> MpiResult<()> {
    check_out(position, "position")?;
    let mut p = *position;
    f(&mut p)?;
    write_out(position, p, "position")
}

/// The success path of a native pack (`PACK`) or unpack of `count` copies of `dt` between
/// user memory `mem` and the packed buffer `buffer` of `size` bytes at `position`, with no
/// error plumbing: it returns the new position, or `None` without touching anything when any
/// argument is unusual, and the caller then takes the checked path, which reports the error.
///
/// # Safety
/// As for `MPI_Pack` / `MPI_Unpack`.
unsafe fn fast_native<const PACK: bool>(
    mem: *mut u8,
    count: i64,
    dt: MPI_Datatype,
    buffer: *mut u8,
    size: i64,
    position: i64,
    comm: MPI_Comm,
) -> Option<i64> {
    if count < 0 || size < 0 || position < 0 || position > size || buffer.is_null() {
        return None;
    }
    if !is_comm(comm) {
        return None;
    }
    handles::try_with_committed(dt, |t| {
        let end = t.size().checked_mul(count)?.checked_add(position)?;
        if end > size {
            return None;
        }
        // SAFETY: the caller's buffers as MPI_Pack requires them; the room was checked.
        unsafe {
            let stream = buffer.add(position as usize);
            if PACK {
                crate::plan::pack_all(t, count, mem, stream)
            } else {
                crate::plan::unpack_all(t, count, stream, mem)
            }
        }
        Some(end)
    })
    .ok()
    .flatten()
}

/// Packs `incount` copies of `datatype` from `inbuf` into `outbuf` at `*position`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Pack(
    inbuf: *const c_void,
    incount: c_int,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: c_int,
    position: *mut c_int,
    comm: MPI_Comm,
) -> c_int {
    if !position.is_null() {
        let (mem, buffer) = (inbuf as *mut u8, outbuf as *mut u8);
        let at = (*position).into();
        let fast = fast_native::<true>(mem, incount.into(), datatype, buffer, outsize.into(), at, comm);
        if let Some(end) = fast {
            *position = end as c_int; // end <= outsize, an int
            return MPI_SUCCESS;
        }
    }
    guard("MPI_Pack", || {
        check_comm(comm)?;
        with_int_position(position, |p| {
            pack_common(
                Representation::Native,
                inbuf,
                incount.into(),
                datatype,
                outbuf,
                outsize.into(),
                p,
            )
        })
    })
}

/// Large-count variant of `MPI_Pack`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_c(
    inbuf: *const c_void,
    incount: MPI_Count,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Count,
    position: *mut MPI_Count,
    comm: MPI_Comm,
) -> c_int {
    if !position.is_null() {
        let (mem, buffer) = (inbuf as *mut u8, outbuf as *mut u8);
        let fast = fast_native::<true>(mem, incount, datatype, buffer, outsize, *position, comm);
        if let Some(end) = fast {
            *position = end;
            return MPI_SUCCESS;
        }
    }
    guard("MPI_Pack_c", || {
        check_comm(comm)?;
        with_position(position, |p| {
            pack_common(
                Representation::Native,
                inbuf,
                incount,
                datatype,
                outbuf,
                outsize,
                p,
            )
        })
    })
}

/// Unpacks `outcount` copies of `datatype` from `inbuf` at `*position` into `outbuf`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Unpack(
    inbuf: *const c_void,
    insize: c_int,
    position: *mut c_int,
    outbuf: *mut c_void,
    outcount: c_int,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    if !position.is_null() {
        let (mem, buffer) = (outbuf as *mut u8, inbuf as *mut u8);
        let at = (*position).into();
        let fast = fast_native::<false>(mem, outcount.into(), datatype, buffer, insize.into(), at, comm);
        if let Some(end) = fast {
            *position = end as c_int; // end <= insize, an int
            return MPI_SUCCESS;
        }
    }
    guard("MPI_Unpack", || {
        check_comm(comm)?;
        with_int_position(position, |p| {
            unpack_common(
                Representation::Native,
                inbuf,
                insize.into(),
                p,
                outbuf,
                outcount.into(),
                datatype,
            )
        })
    })
}

/// Large-count variant of `MPI_Unpack`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Unpack_c(
    inbuf: *const c_void,
    insize: MPI_Count,
    position: *mut MPI_Count,
    outbuf: *mut c_void,
    outcount: MPI_Count,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    if !position.is_null() {
        let (mem, buffer) = (outbuf as *mut u8, inbuf as *mut u8);
        let fast = fast_native::<false>(mem, outcount, datatype, buffer, insize, *position, comm);
        if let Some(end) = fast {
            *position = end;
            return MPI_SUCCESS;
        }
    }
    guard("MPI_Unpack_c", || {
        check_comm(comm)?;
        with_position(position, |p| {
            unpack_common(
                Representation::Native,
                inbuf,
                insize,
                p,
                outbuf,
                outcount,
                datatype,
            )
        })
    })
}

unsafe fn size_common(rep: Representation, incount: i64, dt: MPI_Datatype) -> MpiResult<i64> {
    if incount < 0 {
        return Err(MpiError::count(format!(
            "incount must be non-negative, got {incount}"
        )));
    }
    let t = datatype(dt)?;
    match rep {
        Representation::Native => pack::packed_size(&t, incount),
        Representation::External32 => pack::external32::packed_size(&t, incount),
    }
}

/// An upper bound (here: the exact number) of bytes `MPI_Pack` needs for `incount` copies.
#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_size(
    incount: c_int,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
    size: *mut c_int,
) -> c_int {
    guard("MPI_Pack_size", || {
        check_comm(comm)?;
        check_out(size, "size")?;
        let bytes = size_common(Representation::Native, incount.into(), datatype)?;
        write_out(size, to_int(bytes, "the packed size")?, "size")
    })
}

/// Large-count variant of `MPI_Pack_size`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_size_c(
    incount: MPI_Count,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
    size: *mut MPI_Count,
) -> c_int {
    guard("MPI_Pack_size_c", || {
        check_comm(comm)?;
        check_out(size, "size")?;
        write_out(
            size,
            size_common(Representation::Native, incount, datatype)?,
            "size",
        )
    })
}

/// Packs `incount` copies of `datatype` into the portable external32 representation.
#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_external(
    datarep: *const c_char,
    inbuf: *const c_void,
    incount: c_int,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Aint,
    position: *mut MPI_Aint,
) -> c_int {
    guard("MPI_Pack_external", || {
        check_datarep(datarep)?;
        with_position(position, |p| {
            pack_common(
                Representation::External32,
                inbuf,
                incount.into(),
                datatype,
                outbuf,
                outsize,
                p,
            )
        })
    })
}

/// Large-count variant of `MPI_Pack_external`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_external_c(
    datarep: *const c_char,
    inbuf: *const c_void,
    incount: MPI_Count,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Count,
    position: *mut MPI_Count,
) -> c_int {
    guard("MPI_Pack_external_c", || {
        check_datarep(datarep)?;
        with_position(position, |p| {
            pack_common(
                Representation::External32,
                inbuf,
                incount,
                datatype,
                outbuf,
                outsize,
                p,
            )
        })
    })
}

/// Unpacks `outcount` copies of `datatype` from the external32 representation.
#[no_mangle]
pub unsafe extern "C" fn MPI_Unpack_external(
    datarep: *const c_char,
    inbuf: *const c_void,
    insize: MPI_Aint,
    position: *mut MPI_Aint,
    outbuf: *mut c_void,
    outcount: c_int,
    datatype: MPI_Datatype,
) -> c_int {
    guard("MPI_Unpack_external", || {
        check_datarep(datarep)?;
        with_position(position, |p| {
            unpack_common(
                Representation::External32,
                inbuf,
                insize,
                p,
                outbuf,
                outcount.into(),
                datatype,
            )
        })
    })
}

/// Large-count variant of `MPI_Unpack_external`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Unpack_external_c(
    datarep: *const c_char,
    inbuf: *const c_void,
    insize: MPI_Count,
    position: *mut MPI_Count,
    outbuf: *mut c_void,
    outcount: MPI_Count,
    datatype: MPI_Datatype,
) -> c_int {
    guard("MPI_Unpack_external_c", || {
        check_datarep(datarep)?;
        with_position(position, |p| {
            unpack_common(
                Representation::External32,
                inbuf,
                insize,
                p,
                outbuf,
                outcount,
                datatype,
            )
        })
    })
}

/// The number of bytes `MPI_Pack_external` needs for `incount` copies of `datatype`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_external_size(
    datarep: *const c_char,
    incount: c_int,
    datatype: MPI_Datatype,
    size: *mut MPI_Aint,
) -> c_int {
    guard("MPI_Pack_external_size", || {
        check_datarep(datarep)?;
        check_out(size, "size")?;
        write_out(
            size,
            size_common(Representation::External32, incount.into(), datatype)?,
            "size",
        )
    })
}

/// Large-count variant of `MPI_Pack_external_size`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_external_size_c(
    datarep: *const c_char,
    incount: MPI_Count,
    datatype: MPI_Datatype,
    size: *mut MPI_Count,
) -> c_int {
    guard("MPI_Pack_external_size_c", || {
        check_datarep(datarep)?;
        check_out(size, "size")?;
        write_out(
            size,
            size_common(Representation::External32, incount, datatype)?,
            "size",
        )
    })
}
