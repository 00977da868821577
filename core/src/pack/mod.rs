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
fn within_room(
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

/// How packed bytes are laid out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Representation {
    /// This machine's own (`MPI_Pack`): the bytes of the type map's entries, in order.
    Native,
    /// The canonical big-endian one of `MPI_Pack_external` (`"external32"`,
    /// [`external32`]).
    External32,
}

impl Representation {
    /// Bytes that `count` copies of `dt` occupy packed in this representation.
    pub fn packed_size(self, dt: &Datatype, count: i64) -> Result<i64> {
        match self {
            Representation::Native => packed_size(dt, count),
            Representation::External32 => external32::packed_size(dt, count),
        }
    }

    /// Packs `count` copies of `dt` read relative to `inbuf` into `outbuf[*position..outsize]`
    /// and advances `*position`.
    ///
    /// # Safety
    /// Every byte the type map addresses relative to `inbuf` must be readable, and `outbuf`
    /// must be valid for `outsize` bytes.
    #[inline]
    pub unsafe fn pack(
        self,
        inbuf: *const u8,
        count: i64,
        dt: &Datatype,
        outbuf: *mut u8,
        outsize: i64,
        position: &mut i64,
    ) -> Result<()> {
        let needed = self.packed_size(dt, count)?;
        within_room(position, needed, outsize, "packing", |at| {
            // SAFETY: the caller guarantees the source; the room was checked.
            let stream = unsafe { outbuf.add(at) };
            match self {
                // SAFETY: as above.
                Representation::Native => unsafe { plan::pack_all(&dt.plan, count, inbuf, stream) },
                // SAFETY: as above; packing only reads the source.
                Representation::External32 => unsafe {
                    external32::convert_all::<true>(dt, count, inbuf.cast_mut(), stream)
                },
            }
        })
    }

    /// Unpacks `count` copies of `dt` from `inbuf[*position..insize]` into memory relative to
    /// `outbuf` and advances `*position`.
    ///
    /// # Safety
    /// `inbuf` must be valid for `insize` bytes and every byte the type map addresses
    /// relative to `outbuf` must be writable.
    #[inline]
    pub unsafe fn unpack(
        self,
        inbuf: *const u8,
        insize: i64,
        position: &mut i64,
        outbuf: *mut u8,
        count: i64,
        dt: &Datatype,
    ) -> Result<()> {
        let needed = self.packed_size(dt, count)?;
        within_room(position, needed, insize, "unpacking", |at| {
            // SAFETY: the caller guarantees the destination; the input was checked.
            let stream = unsafe { inbuf.add(at) };
            match self {
                // SAFETY: as above.
                Representation::Native => unsafe {
                    plan::unpack_all(&dt.plan, count, stream, outbuf)
                },
                // SAFETY: as above; unpacking only reads the stream.
                Representation::External32 => unsafe {
                    external32::convert_all::<false>(dt, count, outbuf, stream.cast_mut())
                },
            }
        })
    }
}

/// Packs natively ([`Representation::pack`]).
///
/// # Safety
/// As for [`Representation::pack`].
pub unsafe fn pack(
    inbuf: *const u8,
    count: i64,
    dt: &Datatype,
    outbuf: *mut u8,
    outsize: i64,
    position: &mut i64,
) -> Result<()> {
    // SAFETY: the caller's contract, passed on.
    unsafe { Representation::Native.pack(inbuf, count, dt, outbuf, outsize, position) }
}

/// Unpacks natively ([`Representation::unpack`]).
///
/// # Safety
/// As for [`Representation::unpack`].
pub unsafe fn unpack(
    inbuf: *const u8,
    insize: i64,
    position: &mut i64,
    outbuf: *mut u8,
    count: i64,
    dt: &Datatype,
) -> Result<()> {
    // SAFETY: the caller's contract, passed on.
    unsafe { Representation::Native.unpack(inbuf, insize, position, outbuf, count, dt) }
}
