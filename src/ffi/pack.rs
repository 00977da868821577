//! `MPI_Pack`, `MPI_Unpack`, `MPI_Pack_size`, the external32 variants, and their `_c` forms.
//! A call without enough room or input fails with `MPI_ERR_TRUNCATE`, writes nothing and
//! leaves `position` unchanged. Each `int` function and its `_c` variant share one generic
//! definition ([`CountArg`]).
//!
//! A user buffer that is `MPI_BOTTOM` (the null pointer) is addressed by absolute
//! displacements, which are addresses from `MPI_Get_address`: it becomes a pointer with
//! exposed provenance ([`std::ptr::with_exposed_provenance`]), so the memory reached from it
//! is accessed with the provenance `MPI_Get_address` exposed.

use super::{
    check_comm, check_out, guard, is_comm, read_in, with_committed, with_datatype, write_out,
    CountArg,
};
use crate::abi::*;
use crate::error::{MpiError, MpiResult};
use crate::ffi::exported;
use crate::pack::Representation;
use std::ffi::{c_char, c_void, CStr};
use std::os::raw::c_int;

/// The user memory of a pack or unpack call: `MPI_BOTTOM` becomes the origin of the address
/// space with exposed provenance, any other pointer stays as it is.
pub(crate) fn user_memory(buffer: *const c_void) -> *mut u8 {
    if buffer.is_null() {
        std::ptr::with_exposed_provenance_mut(0)
    } else {
        buffer.cast_mut().cast()
    }
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

/// # Safety
/// As for `MPI_Pack` / `MPI_Pack_external`: the type map relative to `inbuf` is readable and
/// `outbuf` holds `outsize` bytes.
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
    let (inp, out) = (user_memory(inbuf).cast_const(), outbuf.cast::<u8>());
    // SAFETY: the caller's buffers; the arguments were checked above.
    with_committed(dt, |t| unsafe {
        rep.pack(inp, incount, t, out, outsize, position)
    })?
    .map_err(Into::into)
}

/// # Safety
/// As for `MPI_Unpack` / `MPI_Unpack_external`: `inbuf` holds `insize` bytes and the type map
/// relative to `outbuf` is writable.
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
    let (inp, out) = (inbuf.cast::<u8>(), user_memory(outbuf));
    // SAFETY: the caller's buffers; the arguments were checked above.
    with_committed(dt, |t| unsafe {
        rep.unpack(inp, insize, position, out, outcount, t)
    })?
    .map_err(Into::into)
}

/// Runs `f` on a 64-bit copy of the position and writes it back on success.
///
/// # Safety
/// A non-NULL `position` must be valid for a read and a write.
unsafe fn with_position<P: CountArg>(
    position: *mut P,
    f: impl FnOnce(&mut i64) -> MpiResult<()>,
) -> MpiResult<()> {
    // SAFETY: the caller's contract; read_in checks for NULL.
    let mut p = unsafe { read_in(position, "position")? }.into();
    f(&mut p)?;
    let p = P::from_count(p, "the new position")?;
    // SAFETY: as above.
    unsafe { write_out(position, p, "position") }
}

/// The arguments of a native pack (`MPI_Pack`, `MPI_Pack_c`) or unpack (`MPI_Unpack`,
/// `MPI_Unpack_c`), named by their role rather than by their direction: `memory` is the user
/// buffer the type map addresses (`inbuf` of a pack, `outbuf` of an unpack), `packed` the
/// buffer of packed bytes with its `size` and the `position` in it.
struct NativeCall<C> {
    function: &'static str,
    memory: *const c_void,
    count: C,
    datatype: MPI_Datatype,
    packed: *mut c_void,
    size: C,
    position: *mut C,
    comm: MPI_Comm,
}

/// The one entry of `MPI_Pack`, `MPI_Unpack` and their `_c` forms (`PACK` gives the
/// direction): the success path ([`try_fast_native`]); then, for a type of the MPI behind,
/// `forward`, which calls that library and gives its answer; then every check, with the error
/// handler ([`native_checked`]).
///
/// # Safety
/// As for the exported functions.
#[inline(always)]
unsafe fn native<const PACK: bool, C: CountArg>(
    call: NativeCall<C>,
    forward: impl FnOnce() -> Option<c_int>,
) -> c_int {
    let _traced = crate::trace::pack_call(
        PACK,
        call.function,
        call.datatype,
        call.count.into(),
        call.position,
    );
    // The success path first: a type it packs with is this library's, never foreign.
    // SAFETY: the caller's pointers, as the function requires them.
    if unsafe { try_fast_native::<PACK, C>(&call) } {
        return MPI_SUCCESS;
    }
    if let Some(rc) = forward() {
        return rc;
    }
    // SAFETY: as above.
    unsafe { native_checked::<PACK, C>(&call) }
}

/// The success path of a native pack (`PACK`) or unpack, without the error handler: it
/// packs, advances `*position` and returns true, or returns false without touching anything
/// when any argument is unusual, and the caller then takes the checked path, which reports
/// the error.
///
/// # Safety
/// As for `MPI_Pack` / `MPI_Unpack`.
#[inline(always)]
unsafe fn try_fast_native<const PACK: bool, C: CountArg>(call: &NativeCall<C>) -> bool {
    let (position, buffer) = (call.position, call.packed.cast::<u8>());
    if position.is_null() || buffer.is_null() || !is_comm(call.comm) {
        return false;
    }
    // SAFETY: the caller's position, not NULL.
    let at: i64 = unsafe { position.read() }.into();
    let (count, size): (i64, i64) = (call.count.into(), call.size.into());
    if count < 0 || size < 0 || at < 0 || at > size {
        return false;
    }
    let mem = user_memory(call.memory);
    // A type the MPI behind made is not imported here: the caller forwards its call.
    let end = crate::handles::try_with_committed(call.datatype, |t| {
        let end = t.size().checked_mul(count)?.checked_add(at)?;
        if end > size {
            return None;
        }
        // SAFETY: the caller's buffers as MPI_Pack requires them; the room was checked.
        unsafe {
            let stream = buffer.add(at as usize);
            if PACK {
                crate::plan::pack_all(&t.plan, count, mem, stream)
            } else {
                crate::plan::unpack_all(&t.plan, count, stream, mem)
            }
        }
        Some(end)
    });
    // end <= size, so it fits the position's type.
    match end.flatten().and_then(|end| C::from_count(end, "").ok()) {
        Some(end) => {
            // SAFETY: the caller's position, not NULL.
            unsafe { position.write(end) };
            true
        }
        None => false,
    }
}

/// A native pack or unpack past the success path: every check (the communicator, the
/// position, then [`check_buffer_args`] and the room, shared with external32), and the error
/// handler.
///
/// # Safety
/// As for the exported functions.
#[inline(never)]
unsafe fn native_checked<const PACK: bool, C: CountArg>(call: &NativeCall<C>) -> c_int {
    guard(call.function, || {
        check_comm(call.comm)?;
        let (count, size) = (call.count.into(), call.size.into());
        let rep = Representation::Native;
        // SAFETY: the caller's position and buffers, as MPI_Pack / MPI_Unpack require them.
        unsafe {
            with_position(call.position, |p| {
                if PACK {
                    pack_common(rep, call.memory, count, call.datatype, call.packed, size, p)
                } else {
                    let (packed, memory) = (call.packed.cast_const(), call.memory.cast_mut());
                    unpack_common(rep, packed, size, p, memory, count, call.datatype)
                }
            })
        }
    })
}

exported! {
    /// Packs `incount` copies of `datatype` from `inbuf` into `outbuf` at `*position`.
    fn MPI_Pack(inbuf: *const c_void, incount: c_int, datatype: MPI_Datatype, outbuf: *mut c_void, outsize: c_int, position: *mut c_int, comm: MPI_Comm);
    /// Large-count variant of `MPI_Pack`.
    fn MPI_Pack_c(inbuf: *const c_void, incount: MPI_Count, datatype: MPI_Datatype, outbuf: *mut c_void, outsize: MPI_Count, position: *mut MPI_Count, comm: MPI_Comm);
    => {
        let call = NativeCall {
            function: FUNCTION,
            memory: inbuf,
            count: incount,
            datatype,
            packed: outbuf,
            size: outsize,
            position,
            comm,
        };
        let foreign = || crate::dropin::is_foreign(datatype);
        let forward = || foreign().then(|| behind_call(inbuf, incount, datatype, outbuf, outsize, position, comm))?;
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe { native::<true, _>(call, forward) }
    }
}

exported! {
    /// Unpacks `outcount` copies of `datatype` from `inbuf` at `*position` into `outbuf`.
    fn MPI_Unpack(inbuf: *const c_void, insize: c_int, position: *mut c_int, outbuf: *mut c_void, outcount: c_int, datatype: MPI_Datatype, comm: MPI_Comm);
    /// Large-count variant of `MPI_Unpack`.
    fn MPI_Unpack_c(inbuf: *const c_void, insize: MPI_Count, position: *mut MPI_Count, outbuf: *mut c_void, outcount: MPI_Count, datatype: MPI_Datatype, comm: MPI_Comm);
    => {
        let call = NativeCall {
            function: FUNCTION,
            memory: outbuf,
            count: outcount,
            datatype,
            packed: inbuf.cast_mut(),
            size: insize,
            position,
            comm,
        };
        let foreign = || crate::dropin::is_foreign(datatype);
        let forward = || foreign().then(|| behind_call(inbuf, insize, position, outbuf, outcount, datatype, comm))?;
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe { native::<false, _>(call, forward) }
    }
}

/// The packed size of `incount` copies of `dt` in `rep`.
fn size_common(rep: Representation, incount: i64, dt: MPI_Datatype) -> MpiResult<i64> {
    if incount < 0 {
        return Err(MpiError::count(format!(
            "incount must be non-negative, got {incount}"
        )));
    }
    Ok(with_datatype(dt, |t| rep.packed_size(t, incount))??)
}

/// `MPI_Pack_size` and `MPI_Pack_size_c`.
///
/// # Safety
/// As for the exported functions.
unsafe fn pack_size<C: CountArg>(
    function: &'static str,
    incount: C,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
    size: *mut C,
) -> c_int {
    guard(function, || {
        check_comm(comm)?;
        check_out(size, "size")?;
        let bytes = size_common(Representation::Native, incount.into(), datatype)?;
        let bytes = C::from_count(bytes, "the packed size")?;
        // SAFETY: the caller's pointer, checked non-NULL above.
        unsafe { write_out(size, bytes, "size") }
    })
}

exported! {
    /// An upper bound (here: the exact number) of bytes `MPI_Pack` needs for `incount` copies.
    fn MPI_Pack_size(incount: c_int, datatype: MPI_Datatype, comm: MPI_Comm, size: *mut c_int);
    /// Large-count variant of `MPI_Pack_size`.
    fn MPI_Pack_size_c(incount: MPI_Count, datatype: MPI_Datatype, comm: MPI_Comm, size: *mut MPI_Count);
    foreign if crate::dropin::is_foreign(datatype);
    // SAFETY: the caller's pointer, passed on under the same contract.
    => unsafe { pack_size(FUNCTION, incount, datatype, comm, size) }
}

/// `MPI_Pack_external` and `MPI_Pack_external_c`.
///
/// # Safety
/// As for the exported functions.
unsafe fn pack_external<C: CountArg>(
    function: &'static str,
    datarep: *const c_char,
    inbuf: *const c_void,
    incount: C,
    datatype: MPI_Datatype,
    (outbuf, outsize, position): (*mut c_void, i64, *mut i64),
) -> c_int {
    guard(function, || {
        check_datarep(datarep)?;
        let (rep, count) = (Representation::External32, incount.into());
        let _traced = crate::trace::pack_call(true, function, datatype, count, position);
        // SAFETY: the caller's position and buffers, as MPI_Pack_external requires them.
        unsafe {
            with_position(position, |p| {
                pack_common(rep, inbuf, count, datatype, outbuf, outsize, p)
            })
        }
    })
}

exported! {
    /// Packs `incount` copies of `datatype` into the portable external32 representation.
    fn MPI_Pack_external(datarep: *const c_char, inbuf: *const c_void, incount: c_int, datatype: MPI_Datatype, outbuf: *mut c_void, outsize: MPI_Aint, position: *mut MPI_Aint);
    /// Large-count variant of `MPI_Pack_external`.
    fn MPI_Pack_external_c(datarep: *const c_char, inbuf: *const c_void, incount: MPI_Count, datatype: MPI_Datatype, outbuf: *mut c_void, outsize: MPI_Count, position: *mut MPI_Count);
    foreign if crate::dropin::is_foreign(datatype);
    => {
        let packed = (outbuf, outsize, position);
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe { pack_external(FUNCTION, datarep, inbuf, incount, datatype, packed) }
    }
}

/// `MPI_Unpack_external` and `MPI_Unpack_external_c`.
///
/// # Safety
/// As for the exported functions.
unsafe fn unpack_external<C: CountArg>(
    function: &'static str,
    datarep: *const c_char,
    (inbuf, insize, position): (*const c_void, i64, *mut i64),
    outbuf: *mut c_void,
    outcount: C,
    datatype: MPI_Datatype,
) -> c_int {
    guard(function, || {
        check_datarep(datarep)?;
        let (rep, count) = (Representation::External32, outcount.into());
        let _traced = crate::trace::pack_call(false, function, datatype, count, position);
        // SAFETY: the caller's position and buffers, as MPI_Unpack_external requires them.
        unsafe {
            with_position(position, |p| {
                unpack_common(rep, inbuf, insize, p, outbuf, count, datatype)
            })
        }
    })
}

exported! {
    /// Unpacks `outcount` copies of `datatype` from the external32 representation.
    fn MPI_Unpack_external(datarep: *const c_char, inbuf: *const c_void, insize: MPI_Aint, position: *mut MPI_Aint, outbuf: *mut c_void, outcount: c_int, datatype: MPI_Datatype);
    /// Large-count variant of `MPI_Unpack_external`.
    fn MPI_Unpack_external_c(datarep: *const c_char, inbuf: *const c_void, insize: MPI_Count, position: *mut MPI_Count, outbuf: *mut c_void, outcount: MPI_Count, datatype: MPI_Datatype);
    foreign if crate::dropin::is_foreign(datatype);
    => {
        let packed = (inbuf, insize, position);
        // SAFETY: the caller's pointers, passed on under the same contract.
        unsafe { unpack_external(FUNCTION, datarep, packed, outbuf, outcount, datatype) }
    }
}

/// `MPI_Pack_external_size` and `MPI_Pack_external_size_c`.
///
/// # Safety
/// As for the exported functions.
unsafe fn pack_external_size<C: CountArg>(
    function: &'static str,
    datarep: *const c_char,
    incount: C,
    datatype: MPI_Datatype,
    size: *mut i64,
) -> c_int {
    guard(function, || {
        check_datarep(datarep)?;
        check_out(size, "size")?;
        let bytes = size_common(Representation::External32, incount.into(), datatype)?;
        // SAFETY: the caller's pointer, checked non-NULL above.
        unsafe { write_out(size, bytes, "size") }
    })
}

exported! {
    /// The number of bytes `MPI_Pack_external` needs for `incount` copies of `datatype`.
    fn MPI_Pack_external_size(datarep: *const c_char, incount: c_int, datatype: MPI_Datatype, size: *mut MPI_Aint);
    /// Large-count variant of `MPI_Pack_external_size`.
    fn MPI_Pack_external_size_c(datarep: *const c_char, incount: MPI_Count, datatype: MPI_Datatype, size: *mut MPI_Count);
    foreign if crate::dropin::is_foreign(datatype);
    // SAFETY: the caller's pointers, passed on under the same contract.
    => unsafe { pack_external_size(FUNCTION, datarep, incount, datatype, size) }
}
