//! Commit-time compilation of a datatype into a pack plan, and the range-based pack / unpack
//! entry points every walk of a type map goes through.
//!
//! The packed stream of `count` copies of a type is addressed by byte offset: any range of it
//! can be packed or unpacked on its own, so a caller can stop and resume anywhere.

use crate::datatype::Datatype;
use crate::pack::for_each_run;

/// Packs the bytes `[offset, offset + out.len())` of the packed stream of `count` copies of
/// `dt` read relative to `inbuf` into `out`.
///
/// # Safety
/// Every byte the type map addresses relative to `inbuf` in that range must be readable.
pub unsafe fn pack_range(dt: &Datatype, count: i64, inbuf: *const u8, offset: i64, out: &mut [u8]) {
    let end = offset + out.len() as i64;
    let mut stream = 0i64;
    for_each_run(dt, count, |disp, len| {
        let (lo, hi) = (stream.max(offset), (stream + len as i64).min(end));
        if lo < hi {
            let skip = (lo - stream) as isize;
            // SAFETY: the caller guarantees the source; `lo..hi` lies inside `out`'s range.
            unsafe {
                std::ptr::copy(
                    inbuf.wrapping_offset(disp as isize + skip),
                    out.as_mut_ptr().add((lo - offset) as usize),
                    (hi - lo) as usize,
                )
            };
        }
        stream += len as i64;
    });
}

/// Unpacks `input`, the bytes `[offset, offset + input.len())` of the packed stream of
/// `count` copies of `dt`, into memory relative to `outbuf`.
///
/// # Safety
/// Every byte the type map addresses relative to `outbuf` in that range must be writable.
pub unsafe fn unpack_range(dt: &Datatype, count: i64, outbuf: *mut u8, offset: i64, input: &[u8]) {
    let end = offset + input.len() as i64;
    let mut stream = 0i64;
    for_each_run(dt, count, |disp, len| {
        let (lo, hi) = (stream.max(offset), (stream + len as i64).min(end));
        if lo < hi {
            let skip = (lo - stream) as isize;
            // SAFETY: the caller guarantees the destination; `lo..hi` lies inside `input`.
            unsafe {
                std::ptr::copy(
                    input.as_ptr().add((lo - offset) as usize),
                    outbuf.wrapping_offset(disp as isize + skip),
                    (hi - lo) as usize,
                )
            };
        }
        stream += len as i64;
    });
}
