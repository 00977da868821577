//! Packing and unpacking: the native representation (`MPI_Pack`/`MPI_Unpack`), run by the
//! type's compiled plan ([`crate::plan`]), and the canonical big-endian one
//! (`MPI_Pack_external`, in [`external32`]). Both check the room they need before they touch
//! a byte, so a failed call writes nothing. [`walk`](crate::datatype::walk) visits a type map entry by entry
//! without a plan: the reference the plan is tested against.

pub mod external32;

use crate::datatype::layout::{add, mul};
#[cfg(any(test, feature = "model"))]
use crate::datatype::walk::{walk, Piece, GO_ON};
use crate::datatype::Datatype;
use crate::error::{Error, Result};
use crate::plan;

/// Bytes that `count` copies of `dt` occupy when packed natively.
pub fn packed_size(dt: &Datatype, count: i64) -> Result<i64> {
    mul(dt.size(), count, "count * size")
}

/// The one path of every pack and unpack, native and external32: if `needed` bytes fit in a
/// buffer of `size` bytes after `*position`, runs `copy` at that offset and advances
/// `*position` past them; else fails with `MPI_ERR_TRUNCATE` and touches nothing.
#[inline(always)]
pub fn within_room(
    position: &mut i64,
    needed: i64,
    size: i64,
    what: &str,
    copy: impl FnOnce(usize),
) -> Result<()> {
    let end = add(*position, needed, "position + packed size")?;
    if end > size {
        return Err(Error::truncate(format!(
            "{what} needs {needed} bytes at position {position} but the buffer has {size} bytes"
        )));
    }
    copy(*position as usize);
    *position = end;
    Ok(())
}

/// Calls `f(displacement, length)` for the byte runs of `count` copies of `dt`, in order,
/// merging runs that continue one another: the reference the plan's segments are tested
/// against.
#[cfg(any(test, feature = "model"))]
pub fn for_each_run(dt: &Datatype, count: i64, mut f: impl FnMut(i64, usize)) {
    let extent = dt.extent();
    let mut pending: Option<(i64, i64)> = None;
    for k in 0..count {
        let _ = walk(dt, k.wrapping_mul(extent), false, &mut |disp, piece| {
            let Piece::Run(len) = piece else { return GO_ON };
            match &mut pending {
                Some((start, run)) if start.wrapping_add(*run) == disp => *run += len,
                _ => {
                    if let Some((start, run)) = pending.replace((disp, len)) {
                        f(start, run as usize);
                    }
                }
            }
            GO_ON
        });
    }
    if let Some((start, run)) = pending {
        f(start, run as usize);
    }
}

/// Packs `count` copies of `dt` read relative to `inbuf` into `outbuf[*position..outsize]`
/// and advances `*position`.
///
/// # Safety
/// Every byte the type map addresses relative to `inbuf` must be readable, and `outbuf` must
/// be valid for `outsize` bytes.
pub unsafe fn pack(
    inbuf: *const u8,
    count: i64,
    dt: &Datatype,
    outbuf: *mut u8,
    outsize: i64,
    position: &mut i64,
) -> Result<()> {
    within_room(
        position,
        packed_size(dt, count)?,
        outsize,
        "packing",
        |at| {
            // SAFETY: the caller guarantees the source; the room was checked.
            unsafe { plan::pack_all(&dt.plan, count, inbuf, outbuf.add(at)) }
        },
    )
}

/// Unpacks `count` copies of `dt` from `inbuf[*position..insize]` into memory relative to
/// `outbuf` and advances `*position`.
///
/// # Safety
/// `inbuf` must be valid for `insize` bytes and every byte the type map addresses relative to
/// `outbuf` must be writable.
pub unsafe fn unpack(
    inbuf: *const u8,
    insize: i64,
    position: &mut i64,
    outbuf: *mut u8,
    count: i64,
    dt: &Datatype,
) -> Result<()> {
    within_room(
        position,
        packed_size(dt, count)?,
        insize,
        "unpacking",
        |at| {
            // SAFETY: the caller guarantees the destination; the input was checked.
            unsafe { plan::unpack_all(&dt.plan, count, inbuf.add(at), outbuf) }
        },
    )
}
