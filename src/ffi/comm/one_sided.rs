//! The calls of one-sided communication that move data: `MPI_Put`, `MPI_Get`,
//! `MPI_Accumulate`, `MPI_Get_accumulate`, `MPI_Fetch_and_op`, `MPI_Compare_and_swap`, and
//! the request-based `MPI_Rput`, `MPI_Rget`, `MPI_Raccumulate`, `MPI_Rget_accumulate` (each
//! with its `_c` form). In drop-in mode each is the MPI behind's. In the one-process world
//! the target is the process itself: the operation takes effect when it is called, through
//! the engine, so the origin and target types may be any derived types of the same
//! signature; a request-based call's request is complete at once.

use super::windows::{guard_win, targets_self, with_window};
use crate::abi::*;
use crate::datatype::Datatype;
use crate::error::{MpiError, MpiResult};
use crate::ffi::pack::user_memory;
use crate::ffi::{check_out, with_committed, write_out};
use crate::pack::packed_size;
use crate::reduce::Op;
use crate::serial::mailbox::Outcome;
use crate::serial::windows::Memory;
use std::collections::BTreeSet;
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::Arc;

/// One buffer of an operation at the origin: `count` copies of `datatype` at `buffer`.
#[derive(Clone, Copy)]
struct Buffer {
    buffer: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
}

/// Where an operation reaches into the target's window.
#[derive(Clone, Copy)]
struct Target {
    rank: c_int,
    disp: MPI_Aint,
    count: i64,
    datatype: MPI_Datatype,
    win: MPI_Win,
}

/// A committed type of a buffer, with its count and the bytes its data packs to.
struct Typed {
    datatype: Arc<Datatype>,
    count: i64,
    bytes: usize,
}

impl Typed {
    /// The committed type of `count` copies of `datatype`.
    fn of(count: i64, datatype: MPI_Datatype) -> MpiResult<Typed> {
        crate::datatype::construct::check_count(count, "count")?;
        let datatype = with_committed(datatype, Arc::clone)?;
        let bytes = packed_size(&datatype, count)? as usize;
        Ok(Typed {
            datatype,
            count,
            bytes,
        })
    }

    /// Packs the data at `address` into new bytes.
    ///
    /// # Safety
    /// The type map at `address` is readable.
    unsafe fn pack_from(&self, address: *const c_void) -> Vec<u8> {
        let mut bytes = vec![0u8; self.bytes];
        // SAFETY: the caller's contract; `bytes` has room for the packed data.
        unsafe {
            crate::plan::pack_all(
                &self.datatype.plan,
                self.count,
                user_memory(address),
                bytes.as_mut_ptr(),
            )
        };
        bytes
    }

    /// Unpacks `bytes`, this side's packed data, to `address`.
    ///
    /// # Safety
    /// The type map at `address` is writable.
    unsafe fn unpack_to(&self, bytes: &[u8], address: *const c_void) {
        // SAFETY: the caller's contract; `bytes` holds this side's packed data.
        unsafe {
            crate::plan::unpack_all(
                &self.datatype.plan,
                self.count,
                bytes.as_ptr(),
                user_memory(address),
            )
        };
    }

    /// Checks that `other` carries as many bytes as this side (their signatures must match).
    fn matches(&self, other: &Typed, what: &str) -> MpiResult<()> {
        if self.bytes != other.bytes {
            return Err(MpiError::new(
                MPI_ERR_TYPE,
                format!(
                    "the {what} has {} bytes of data and the target {}: their type signatures must match",
                    other.bytes, self.bytes
                ),
            ));
        }
        Ok(())
    }
}

/// The target's data of an operation: its address and type, once the rank, the epoch and the
/// range of the window are checked; `None` for a target of `MPI_PROC_NULL`.
fn reach(target: Target) -> MpiResult<Option<(*const c_void, Typed)>> {
    let typed = Typed::of(target.count, target.datatype)?;
    with_window(target.win, |_| Ok(()))?;
    if !targets_self(target.rank)? {
        return Ok(None);
    }
    let address = with_window(target.win, |w| {
        w.epochs.may_access()?;
        let address = match w.memory {
            Memory::Attached(_) => target.disp as i128,
            _ => w.memory.base() as i128 + target.disp as i128 * w.disp_unit as i128,
        };
        if typed.count > 0 && typed.bytes > 0 {
            check_range(&w.memory, address, &typed)?;
        }
        Ok(address)
    })?;
    Ok(Some((
        std::ptr::with_exposed_provenance(address as usize),
        typed,
    )))
}

/// Checks that the bytes `typed` touches from `address` are in the window's memory
/// (`MPI_ERR_RMA_RANGE`).
fn check_range(memory: &Memory, address: i128, typed: &Typed) -> MpiResult<()> {
    let measures = typed.datatype.measures;
    let last = (typed.count - 1) as i128 * measures.extent as i128;
    let start = address + measures.true_lb as i128 + last.min(0);
    let end = address + measures.true_lb as i128 + measures.true_extent as i128 + last.max(0);
    let inside = usize::try_from(start).ok().zip(usize::try_from(end).ok());
    match inside {
        Some((start, end)) if memory.holds(start, end) => Ok(()),
        _ => Err(MpiError::new(
            MPI_ERR_RMA_RANGE,
            "the target data are not all in the window's memory",
        )),
    }
}

/// `MPI_Put`: the origin's data written to the target.
///
/// # Safety
/// As for the MPI function.
unsafe fn put(origin: Buffer, target: Target) -> MpiResult<()> {
    let from = Typed::of(origin.count, origin.datatype)?;
    let Some((address, to)) = reach(target)? else {
        return Ok(());
    };
    to.matches(&from, "origin")?;
    // SAFETY: the caller's buffer and the window's memory, through their types.
    unsafe { to.unpack_to(&from.pack_from(origin.buffer), address) };
    Ok(())
}

/// `MPI_Get`: the target's data read into the origin's buffer.
///
/// # Safety
/// As for the MPI function.
unsafe fn get(origin: Buffer, target: Target) -> MpiResult<()> {
    let into = Typed::of(origin.count, origin.datatype)?;
    let Some((address, from)) = reach(target)? else {
        return Ok(());
    };
    from.matches(&into, "origin")?;
    // SAFETY: the window's memory and the caller's buffer, through their types.
    unsafe { into.unpack_to(&from.pack_from(address), origin.buffer) };
    Ok(())
}

/// The predefined operation of a one-sided accumulation: `MPI_ERR_OP` for an operation the
/// program made (MPI-4.1 §12.3.4 allows predefined ones only), and for `MPI_NO_OP` unless
/// `fetching` (`MPI_Get_accumulate`, `MPI_Fetch_and_op`).
fn accumulation(op: MPI_Op, fetching: bool) -> MpiResult<Op> {
    match super::reductions::predefined_op(op)? {
        Some(Op::NoOp) if !fetching => Err(MpiError::new(
            MPI_ERR_OP,
            "MPI_NO_OP is for MPI_Get_accumulate and MPI_Fetch_and_op only",
        )),
        Some(found) => Ok(found),
        None => Err(MpiError::new(
            MPI_ERR_OP,
            "one-sided accumulation takes predefined operations only",
        )),
    }
}

/// The predefined types a type is made of.
fn basic_types(typed: &Typed) -> MpiResult<BTreeSet<String>> {
    let runs = typed.datatype.signature().ok_or_else(|| {
        MpiError::new(
            MPI_ERR_TYPE,
            "the type has too many kinds of elements for an accumulation",
        )
    })?;
    Ok(runs
        .iter()
        .map(|(basic, _)| basic.info().name.to_string())
        .collect())
}

/// Combines `origin`'s data into the target's at `address` with `op`: both must be made of
/// the same predefined types, on which `op` is defined.
///
/// # Safety
/// The origin's type map is readable, the target's readable and writable.
unsafe fn combine_into(
    op: Op,
    (origin, from): (Buffer, &Typed),
    (address, to): (*const c_void, &Typed),
) -> MpiResult<()> {
    if matches!(op, Op::NoOp) {
        return Ok(());
    }
    to.matches(from, "origin")?;
    if to.bytes == 0 {
        return Ok(());
    }
    if basic_types(from)? != basic_types(to)? {
        return Err(MpiError::new(
            MPI_ERR_TYPE,
            "the origin and target types of an accumulation must be made of the same predefined type",
        ));
    }
    crate::reduce::check(op, &to.datatype)?;
    // SAFETY: the caller's contract.
    let input = unsafe { from.pack_from(origin.buffer) };
    // SAFETY: as above.
    let mut inout = unsafe { to.pack_from(address) };
    crate::reduce::combine(op, &to.datatype, to.count, &input, &mut inout)?;
    // SAFETY: as above.
    unsafe { to.unpack_to(&inout, address) };
    Ok(())
}

/// `MPI_Accumulate`: the origin's data combined into the target's with `op`.
///
/// # Safety
/// As for the MPI function.
unsafe fn accumulate(origin: Buffer, target: Target, op: MPI_Op) -> MpiResult<()> {
    let op = accumulation(op, false)?;
    let from = Typed::of(origin.count, origin.datatype)?;
    let Some((address, to)) = reach(target)? else {
        return Ok(());
    };
    // SAFETY: the caller's contract.
    unsafe { combine_into(op, (origin, &from), (address, &to)) }
}

/// `MPI_Get_accumulate`: the target's data read into `result`, then the origin's combined
/// into them with `op` (`MPI_NO_OP`: only read).
///
/// # Safety
/// As for the MPI function.
unsafe fn get_accumulate(
    origin: Buffer,
    result: Buffer,
    target: Target,
    op: MPI_Op,
) -> MpiResult<()> {
    let op = accumulation(op, true)?;
    let from = Typed::of(origin.count, origin.datatype)?;
    let into = Typed::of(result.count, result.datatype)?;
    let Some((address, to)) = reach(target)? else {
        return Ok(());
    };
    to.matches(&into, "result buffer")?;
    if !matches!(op, Op::NoOp) {
        // Checked before the result is written.
        to.matches(&from, "origin")?;
    }
    // SAFETY: the caller's contract.
    unsafe {
        into.unpack_to(&to.pack_from(address), result.buffer);
        combine_into(op, (origin, &from), (address, &to))
    }
}

/// `MPI_Compare_and_swap`: the target's element read into `result`, and replaced by the
/// origin's if it equals the one at `compare`.
///
/// # Safety
/// As for the MPI function.
unsafe fn compare_and_swap(
    (origin, compare, result): (*const c_void, *const c_void, *mut c_void),
    datatype: MPI_Datatype,
    target: Target,
) -> MpiResult<()> {
    let one = |buffer| Buffer {
        buffer,
        count: 1,
        datatype,
    };
    let typed = Typed::of(1, datatype)?;
    let Some((address, to)) = reach(target)? else {
        return Ok(());
    };
    // SAFETY: the caller's buffers of one element each, and the window's memory.
    unsafe {
        let old = to.pack_from(address);
        let expected = typed.pack_from(one(compare).buffer);
        typed.unpack_to(&old, result.cast_const());
        if old == expected {
            to.unpack_to(&typed.pack_from(one(origin).buffer), address);
        }
    }
    Ok(())
}

/// Writes the request of a request-based operation, complete at once.
///
/// # Safety
/// A non-NULL `request` is writable.
unsafe fn completed_request(call: &'static str, request: *mut MPI_Request) -> MpiResult<()> {
    check_out(request, "request")?;
    let index = crate::serial::world::completed(call, Outcome::of_send(false));
    let handle =
        own_request(index).ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many requests"))?;
    // SAFETY: checked non-NULL above.
    unsafe { write_out(request, handle, "request") }
}

/// Defines the `int` and `_c` forms of the calls of the shape of `MPI_Put` (`$request`: and of
/// `MPI_Rput`, which also writes a request).
macro_rules! puts {
    ($body:ident, $origin:ty, $($count:ty: $name:ident $(as $int:ident)? $(, $request:ident)?);*) => {
        one_process_functions! {$(
            #[doc = concat!("`", stringify!($name), "` (", stringify!($body), ").")]
            fn $name(origin_addr: $origin, origin_count: $count, origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint, target_count: $count, target_datatype: MPI_Datatype, win: MPI_Win $(, $request: *mut MPI_Request)?) $(as $int)? via guard_win(win) {
                $(check_out($request, "request")?;)?
                let origin = Buffer { buffer: origin_addr, count: origin_count.into(), datatype: origin_datatype };
                let target = Target { rank: target_rank, disp: target_disp, count: target_count.into(), datatype: target_datatype, win };
                // SAFETY: the caller's buffers.
                unsafe { $body(origin, target)? };
                // SAFETY: the caller's pointer.
                $(unsafe { completed_request(stringify!($name), $request)? };)?
                Ok(())
            }
        )*}
    };
}

puts!(put, *const c_void, c_int: MPI_Put; MPI_Count: MPI_Put_c as MPI_Put; c_int: MPI_Rput, request; MPI_Count: MPI_Rput_c as MPI_Rput, request);
puts!(get, *mut c_void, c_int: MPI_Get; MPI_Count: MPI_Get_c as MPI_Get; c_int: MPI_Rget, request; MPI_Count: MPI_Rget_c as MPI_Rget, request);

/// Defines the forms of `MPI_Accumulate` and `MPI_Raccumulate`.
macro_rules! accumulates {
    ($($count:ty: $name:ident $(as $int:ident)? $(, $request:ident)?);*) => {
        one_process_functions! {$(
            #[doc = concat!("`", stringify!($name), "`: the origin's data combined into the target's with `op`.")]
            fn $name(origin_addr: *const c_void, origin_count: $count, origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint, target_count: $count, target_datatype: MPI_Datatype, op: MPI_Op, win: MPI_Win $(, $request: *mut MPI_Request)?) $(as $int)? via guard_win(win) {
                $(check_out($request, "request")?;)?
                let origin = Buffer { buffer: origin_addr, count: origin_count.into(), datatype: origin_datatype };
                let target = Target { rank: target_rank, disp: target_disp, count: target_count.into(), datatype: target_datatype, win };
                // SAFETY: the caller's buffers.
                unsafe { accumulate(origin, target, op)? };
                // SAFETY: the caller's pointer.
                $(unsafe { completed_request(stringify!($name), $request)? };)?
                Ok(())
            }
        )*}
    };
}

accumulates!(c_int: MPI_Accumulate; MPI_Count: MPI_Accumulate_c as MPI_Accumulate; c_int: MPI_Raccumulate, request; MPI_Count: MPI_Raccumulate_c as MPI_Raccumulate, request);

/// Defines the forms of `MPI_Get_accumulate` and `MPI_Rget_accumulate`.
macro_rules! get_accumulates {
    ($($count:ty: $name:ident $(as $int:ident)? $(, $request:ident)?);*) => {
        one_process_functions! {$(
            #[doc = concat!("`", stringify!($name), "`: the target's data read into the result buffer, then combined with the origin's with `op`.")]
            fn $name(origin_addr: *const c_void, origin_count: $count, origin_datatype: MPI_Datatype, result_addr: *mut c_void, result_count: $count, result_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint, target_count: $count, target_datatype: MPI_Datatype, op: MPI_Op, win: MPI_Win $(, $request: *mut MPI_Request)?) $(as $int)? via guard_win(win) {
                $(check_out($request, "request")?;)?
                let origin = Buffer { buffer: origin_addr, count: origin_count.into(), datatype: origin_datatype };
                let result = Buffer { buffer: result_addr, count: result_count.into(), datatype: result_datatype };
                let target = Target { rank: target_rank, disp: target_disp, count: target_count.into(), datatype: target_datatype, win };
                // SAFETY: the caller's buffers.
                unsafe { get_accumulate(origin, result, target, op)? };
                // SAFETY: the caller's pointer.
                $(unsafe { completed_request(stringify!($name), $request)? };)?
                Ok(())
            }
        )*}
    };
}

get_accumulates!(c_int: MPI_Get_accumulate; MPI_Count: MPI_Get_accumulate_c as MPI_Get_accumulate; c_int: MPI_Rget_accumulate, request; MPI_Count: MPI_Rget_accumulate_c as MPI_Rget_accumulate, request);

one_process_functions! {
    /// The target's element read into `result_addr`, then combined with the origin's with
    /// `op` (`MPI_NO_OP`: only read).
    fn MPI_Fetch_and_op(origin_addr: *const c_void, result_addr: *mut c_void, datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint, op: MPI_Op, win: MPI_Win) via guard_win(win) {
        let one = |buffer| Buffer { buffer, count: 1, datatype };
        let target = Target { rank: target_rank, disp: target_disp, count: 1, datatype, win };
        // SAFETY: the caller's buffers of one element each.
        unsafe { get_accumulate(one(origin_addr), one(result_addr.cast_const()), target, op) }
    }
    /// The target's element read into `result_addr`, and replaced by the origin's if it
    /// equals the one at `compare_addr`.
    fn MPI_Compare_and_swap(origin_addr: *const c_void, compare_addr: *const c_void, result_addr: *mut c_void, datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint, win: MPI_Win) via guard_win(win) {
        let target = Target { rank: target_rank, disp: target_disp, count: 1, datatype, win };
        // SAFETY: the caller's buffers of one element each.
        unsafe { compare_and_swap((origin_addr, compare_addr, result_addr), datatype, target) }
    }
}
