//! The external32 representation (MPI-4.1 §5.2.2 and §14.5.2): big-endian, IEEE formats, and
//! the standard's fixed sizes (`MPI_LONG` is 4 bytes, `MPI_LONG_DOUBLE` is IEEE binary128).
//!
//! A type whose signature is short ([`crate::datatype::signature`]: one basic type throughout,
//! or an array of small structs) is converted in chunks: the compiled plan packs (or unpacks)
//! a few kilobytes of the native stream at a time, resuming at the chunk's byte offset, and
//! runs of equal basic types are byte-swapped in place. Other types are converted element by
//! element as the reference walk visits them.

use crate::datatype::layout::mul;
use crate::datatype::walk::{walk, Piece, GO_ON};
use crate::datatype::{Basic, Datatype};
use crate::error::Result;
use crate::predefined::Scalar;

/// Bytes that `count` copies of `dt` occupy in external32.
pub fn packed_size(dt: &Datatype, count: i64) -> Result<i64> {
    mul(dt.layout.ext32_size, count, "count * external32 size")
}

/// Calls `f(displacement, basic)` for every basic entry of `count` copies of `dt`.
fn for_each_basic(dt: &Datatype, count: i64, mut f: impl FnMut(i64, Basic)) {
    let extent = dt.extent();
    for k in 0..count {
        let _ = walk(dt, k.wrapping_mul(extent), true, &mut |disp, piece| {
            if let Piece::Basic(b) = piece {
                f(disp, b)
            }
            GO_ON
        });
    }
}

/// Native bytes converted per chunk.
const CHUNK: usize = 4096;
/// Signature runs per chunk.
const BATCHES: usize = 64;

/// A position in the signature of `count` copies of a type.
struct SignatureCursor<'a> {
    signature: &'a [(Basic, i64)],
    run: usize,
    used: i64,
    copies_left: i64,
}

impl SignatureCursor<'_> {
    /// The next run of at most `room` native bytes of equal basic types: `(basic, count)`.
    fn next_batch(&mut self, room: usize) -> Option<(Basic, i64)> {
        if self.copies_left == 0 || self.signature.is_empty() {
            return None;
        }
        let (b, total) = self.signature[self.run];
        let n = (total - self.used).min((room / b.size() as usize) as i64);
        if n == 0 {
            return None;
        }
        self.used += n;
        if self.used == total {
            self.used = 0;
            self.run += 1;
            if self.run == self.signature.len() {
                self.run = 0;
                self.copies_left -= 1;
            }
        }
        Some((b, n))
    }

    /// Fills `batches` with the runs of the next chunk and returns how many, and the chunk's
    /// native bytes.
    fn next_chunk(&mut self, batches: &mut [(Basic, i64); BATCHES]) -> (usize, usize) {
        let (mut count, mut bytes) = (0, 0);
        while count < BATCHES {
            let Some((b, n)) = self.next_batch(CHUNK - bytes) else {
                break;
            };
            batches[count] = (b, n);
            bytes += (n * b.size()) as usize;
            count += 1;
        }
        (count, bytes)
    }
}

/// Converts `n` consecutive values of `b` between native form and external32.
fn convert_run(b: Basic, n: usize, from: &[u8], to: &mut [u8], to_external: bool) {
    let info = b.info();
    let native_part = info.part_size() as usize;
    let swaps = native_part == info.ext32_part as usize
        && matches!(
            info.scalar,
            Scalar::Float | Scalar::Signed | Scalar::Unsigned
        );
    match (info.scalar, native_part) {
        (Scalar::Bytes, _) | (_, 1) if swaps || info.scalar == Scalar::Bytes => {
            to.copy_from_slice(from)
        }
        (_, 2) if swaps => swap_parts::<2, u16>(from, to, u16::swap_bytes),
        (_, 4) if swaps => swap_parts::<4, u32>(from, to, u32::swap_bytes),
        (_, 8) if swaps => swap_parts::<8, u64>(from, to, u64::swap_bytes),
        _ => {
            let (from_size, to_size) = if to_external {
                (b.size() as usize, info.ext32_size() as usize)
            } else {
                (info.ext32_size() as usize, b.size() as usize)
            };
            for k in 0..n {
                convert(
                    b,
                    &from[k * from_size..(k + 1) * from_size],
                    &mut to[k * to_size..(k + 1) * to_size],
                    to_external,
                );
            }
        }
    }
}

/// Reverses the bytes of every `N`-byte part of `from` into `to`.
fn swap_parts<const N: usize, T: FromBytes<N>>(from: &[u8], to: &mut [u8], swap: fn(T) -> T) {
    for (src, dst) in from.chunks_exact(N).zip(to.chunks_exact_mut(N)) {
        let value = T::from_ne(src.try_into().expect("N bytes"));
        dst.copy_from_slice(&T::to_ne(swap(value)));
    }
}

/// Unsigned integers read from and written as native-endian bytes.
trait FromBytes<const N: usize> {
    fn from_ne(bytes: [u8; N]) -> Self;
    fn to_ne(self) -> [u8; N];
}

macro_rules! from_bytes {
    ($($t:ty: $n:literal),*) => {$(
        impl FromBytes<$n> for $t {
            fn from_ne(bytes: [u8; $n]) -> Self {
                <$t>::from_ne_bytes(bytes)
            }
            fn to_ne(self) -> [u8; $n] {
                self.to_ne_bytes()
            }
        }
    )*};
}
from_bytes!(u16: 2, u32: 4, u64: 8);

/// Packs (`PACK`) `count` copies of `dt`, of signature `signature`, from user memory `user`
/// into the external32 stream at `external`, or unpacks them from it, a chunk of the native
/// stream at a time: the plan packs a chunk which is then converted, or a converted chunk is
/// unpacked by the plan.
///
/// # Safety
/// As for [`pack`] / [`unpack`]; `external` must be valid for the external32 size.
unsafe fn convert_chunked<const PACK: bool>(
    dt: &Datatype,
    count: i64,
    signature: &[(Basic, i64)],
    user: *mut u8,
    external: *mut u8,
) {
    let Some(&(first, _)) = signature.first() else {
        return;
    };
    let mut cursor = SignatureCursor {
        signature,
        run: 0,
        used: 0,
        copies_left: count,
    };
    let mut native = [0u8; CHUNK];
    let mut batches = [(first, 0i64); BATCHES];
    let (mut native_offset, mut done) = (0i64, 0usize);
    loop {
        let (n, bytes) = cursor.next_chunk(&mut batches);
        if bytes == 0 {
            break;
        }
        if PACK {
            let chunk = &mut native[..bytes];
            // SAFETY: the caller guarantees the source; the chunk lies inside the stream.
            unsafe { crate::plan::pack_range(&dt.plan, count, user, native_offset, chunk) };
        }
        let mut at = 0;
        for &(b, k) in &batches[..n] {
            let (native_len, ext_len) = (
                (k * b.size()) as usize,
                (k * b.info().ext32_size()) as usize,
            );
            let native_part = &mut native[at..at + native_len];
            if PACK {
                // SAFETY: the caller guarantees the whole external32 stream, writable.
                let ext = unsafe { std::slice::from_raw_parts_mut(external.add(done), ext_len) };
                convert_run(b, k as usize, native_part, ext, true);
            } else {
                // SAFETY: the caller guarantees the whole external32 stream.
                let ext = unsafe { std::slice::from_raw_parts(external.add(done), ext_len) };
                convert_run(b, k as usize, ext, native_part, false);
            }
            at += native_len;
            done += ext_len;
        }
        if !PACK {
            // SAFETY: the caller guarantees the destination; the chunk lies inside the stream.
            unsafe {
                crate::plan::unpack_range(&dt.plan, count, user, native_offset, &native[..bytes])
            };
        }
        native_offset += bytes as i64;
    }
}

/// Converts one value of `b` between native form and external32 (`to_external` tells which
/// way), part by part (a complex number has two parts).
fn convert(b: Basic, from: &[u8], to: &mut [u8], to_external: bool) {
    let info = b.info();
    let (native_part, external_part) = (info.part_size() as usize, info.ext32_part as usize);
    let (from_part, to_part) = if to_external {
        (native_part, external_part)
    } else {
        (external_part, native_part)
    };
    let signed = info.scalar == Scalar::Signed;
    for part in 0..info.parts as usize {
        let src = &from[part * from_part..(part + 1) * from_part];
        let dst = &mut to[part * to_part..(part + 1) * to_part];
        match (info.scalar, to_external) {
            (Scalar::Bytes, _) => dst.copy_from_slice(src),
            (Scalar::Float, _) => {
                dst.copy_from_slice(src);
                dst.reverse();
            }
            (Scalar::Signed | Scalar::Unsigned, true) => write_be(read_le(src, signed), dst),
            (Scalar::Signed | Scalar::Unsigned, false) => write_le(read_be(src, signed), dst),
            (Scalar::X87Extended, true) => {
                dst.copy_from_slice(&x87_to_binary128(src).to_be_bytes())
            }
            (Scalar::X87Extended, false) => {
                let bits = u128::from_be_bytes(src.try_into().expect("binary128 is 16 bytes"));
                dst.copy_from_slice(&binary128_to_x87(bits));
            }
        }
    }
}

fn extend(raw: u128, bytes: usize, signed: bool) -> i128 {
    let shift = 128 - 8 * bytes as u32;
    if signed {
        ((raw << shift) as i128) >> shift
    } else {
        raw as i128
    }
}

fn read_le(bytes: &[u8], signed: bool) -> i128 {
    let raw = bytes
        .iter()
        .rev()
        .fold(0u128, |acc, &b| acc << 8 | b as u128);
    extend(raw, bytes.len(), signed)
}

fn read_be(bytes: &[u8], signed: bool) -> i128 {
    let raw = bytes.iter().fold(0u128, |acc, &b| acc << 8 | b as u128);
    extend(raw, bytes.len(), signed)
}

/// Writes the low `out.len()` bytes of `value`, most significant first.
fn write_be(value: i128, out: &mut [u8]) {
    let n = out.len();
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = (value >> (8 * (n - 1 - i))) as u8;
    }
}

/// Writes the low `out.len()` bytes of `value`, least significant first.
fn write_le(value: i128, out: &mut [u8]) {
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = (value >> (8 * i)) as u8;
    }
}

/// x87 80-bit extended (little-endian, in 16 bytes) to IEEE binary128 bits. Both formats
/// have a 15-bit exponent with the same bias; the x87 explicit integer bit is dropped.
fn x87_to_binary128(native: &[u8]) -> u128 {
    let mantissa = u64::from_le_bytes(native[0..8].try_into().expect("8 bytes"));
    let sign_exp = u16::from_le_bytes(native[8..10].try_into().expect("2 bytes")) as u128;
    let fraction = (mantissa & !(1u64 << 63)) as u128;
    (sign_exp << 112) | (fraction << 49)
}

/// IEEE binary128 bits to x87 80-bit extended (little-endian, padded to 16 bytes); the low
/// 49 fraction bits are truncated.
fn binary128_to_x87(bits: u128) -> [u8; 16] {
    let sign_exp = (bits >> 112) as u16;
    let exponent = sign_exp & 0x7fff;
    let fraction = (bits >> 49) as u64 & !(1u64 << 63);
    let integer_bit = if exponent != 0 { 1u64 << 63 } else { 0 };
    let mut mantissa = integer_bit | fraction;
    if exponent == 0x7fff && fraction == 0 && bits & ((1u128 << 112) - 1) != 0 {
        mantissa |= 1 << 62; // a NaN whose payload lived only in the truncated bits
    }
    let mut out = [0u8; 16];
    out[0..8].copy_from_slice(&mantissa.to_le_bytes());
    out[8..10].copy_from_slice(&sign_exp.to_le_bytes());
    out
}

/// Packs (`PACK`) `count` copies of `dt` from user memory `user` into the external32 stream
/// at `external`, or unpacks them from it: a chunk of the native stream at a time when the
/// type's signature is short, else element by element as the reference walk visits them.
///
/// # Safety
/// As for [`pack`] / [`unpack`]; `external` must be valid for the external32 size (writable
/// when packing).
pub(super) unsafe fn convert_all<const PACK: bool>(
    dt: &Datatype,
    count: i64,
    user: *mut u8,
    external: *mut u8,
) {
    if let Some(signature) = dt.signature() {
        // SAFETY: forwarded contract.
        return unsafe { convert_chunked::<PACK>(dt, count, signature, user, external) };
    }
    let mut at = 0usize;
    for_each_basic(dt, count, |disp, b| {
        let (n, e) = (b.size() as usize, b.info().ext32_size() as usize);
        let (mem, ext) = (
            user.wrapping_offset(disp as isize),
            external.wrapping_add(at),
        );
        // SAFETY: the caller guarantees the entry's bytes in user memory and the stream.
        unsafe {
            if PACK {
                let native = std::slice::from_raw_parts(mem, n);
                convert(b, native, std::slice::from_raw_parts_mut(ext, e), true);
            } else {
                let native = std::slice::from_raw_parts_mut(mem, n);
                convert(b, std::slice::from_raw_parts(ext, e), native, false);
            }
        }
        at += e;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_shrink_and_grow_with_sign() {
        let mut ext = [0u8; 4];
        write_be(read_le(&(-2i64).to_le_bytes(), true), &mut ext);
        assert_eq!(ext, [0xff, 0xff, 0xff, 0xfe]);
        let mut native = [0u8; 8];
        write_le(read_be(&ext, true), &mut native);
        assert_eq!(i64::from_le_bytes(native), -2);
    }

    #[test]
    fn x87_round_trips_through_binary128() {
        // 1.5 in x87: mantissa 0xC000_0000_0000_0000, exponent 0x3fff.
        let mut x = [0u8; 16];
        x[0..8].copy_from_slice(&0xC000_0000_0000_0000u64.to_le_bytes());
        x[8..10].copy_from_slice(&0x3fffu16.to_le_bytes());
        let q = x87_to_binary128(&x);
        assert_eq!(q >> 112, 0x3fff);
        assert_eq!((q >> 111) & 1, 1);
        assert_eq!(binary128_to_x87(q), x);
    }
}
