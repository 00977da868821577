//! What the tests (`tests/`) and the fuzz targets (`fuzz/`) of mpi-dtype share: the
//! byte-level model of a buffer that a type map addresses ([`Geometry`]), patterned bytes
//! ([`random_bytes`]), and the external32 form of a value where it can be stated exactly
//! ([`ext32_encode`]); and the workspace's own sources, for the tests of its shape
//! ([`sources`]).

pub mod sources;

use mpi_dtype_core::datatype::typemap::{Item, TypeMap};
use mpi_dtype_core::predefined::{Basic, Scalar};

/// A buffer region: index `i` of the buffer holds displacement `lo + i` from the origin.
#[derive(Debug, Clone, Copy)]
pub struct Geometry {
    /// The displacement of the buffer's first byte.
    pub lo: i64,
    /// The buffer's length in bytes.
    pub len: usize,
}

impl Geometry {
    /// A region that holds the origin, `[min(lb, true_lb), max(ub, true_ub))` and every byte
    /// of `count` copies (copy `k` at `k * extent`), with `margin` bytes on either side.
    pub fn new(tm: &TypeMap, count: i64, margin: i64) -> Geometry {
        let lo = 0.min(tm.lb()).min(tm.true_lb());
        let hi = 0.max(tm.ub()).max(tm.true_ub());
        Geometry::spanning(tm, count, margin, lo, hi)
    }

    /// A region that holds the origin and every byte of `count` copies, with `margin` bytes
    /// on either side (the bounds of the type may lie outside it).
    pub fn of_data(tm: &TypeMap, count: i64, margin: i64) -> Geometry {
        Geometry::spanning(tm, count, margin, 0, 0)
    }

    /// `[lo, hi)` widened to every byte of `count` copies, with `margin` bytes on either side.
    fn spanning(tm: &TypeMap, count: i64, margin: i64, mut lo: i64, mut hi: i64) -> Geometry {
        for (b, d) in tm.copies(count) {
            lo = lo.min(d);
            hi = hi.max(d + b.size());
        }
        Geometry {
            lo: lo - margin,
            len: (hi - lo + 2 * margin) as usize,
        }
    }

    /// Buffer index of the origin.
    pub fn origin(&self) -> usize {
        (-self.lo) as usize
    }

    /// Buffer index of displacement `disp`.
    pub fn index(&self, disp: i64) -> usize {
        (disp - self.lo) as usize
    }
}

/// A deterministic stream of pseudo-random bytes (splitmix64).
pub fn random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        out.extend_from_slice(&z.to_le_bytes());
    }
    out.truncate(len);
    out
}

/// The external32 encoding of one native value of `b`, when a test can state it exactly:
/// big-endian, same-width integers and IEEE floats (per part for complex types), bytes as is.
/// `None` for conversions that change width or format (`MPI_LONG`, long double).
pub fn ext32_encode(b: Basic, native: &[u8]) -> Option<Vec<u8>> {
    let info = b.info();
    match info.scalar {
        Scalar::Bytes => Some(native.to_vec()),
        Scalar::X87Extended => None,
        Scalar::Signed | Scalar::Unsigned | Scalar::Float => {
            if info.ext32_part != info.part_size() {
                return None;
            }
            Some(
                native
                    .chunks(info.part_size() as usize)
                    .flat_map(|part| part.iter().rev().copied())
                    .collect(),
            )
        }
    }
}

/// The decoding counterpart of [`ext32_encode`] (byte reversal is its own inverse).
pub fn ext32_decode(b: Basic, external: &[u8]) -> Option<Vec<u8>> {
    ext32_encode(b, external)
}

/// True if every entry of the type map is data (no markers).
pub fn only_data(tm: &TypeMap) -> bool {
    tm.entries.iter().all(|e| matches!(e.item, Item::Data(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mpi_dtype_core::datatype::construct;
    use mpi_dtype_core::predefined;

    #[test]
    fn a_region_holds_the_origin_every_byte_and_the_margins() {
        let int = construct::named(predefined::by_name("MPI_INT").expect("predefined"));
        let resized = construct::resized(&int, -8, 32, false).expect("valid");
        let tm = TypeMap::of(&resized);
        let data = Geometry::of_data(&tm, 2, 4);
        assert_eq!((data.lo, data.len), (-4, 32 + 4 + 8));
        let whole = Geometry::new(&tm, 2, 4);
        assert_eq!((whole.lo, whole.origin()), (-12, 12));
        assert_eq!(whole.index(36), 48);
    }

    #[test]
    fn random_bytes_repeat_for_a_seed() {
        assert_eq!(random_bytes(7, 13), random_bytes(7, 13));
        assert_ne!(random_bytes(7, 13), random_bytes(8, 13));
        assert_eq!(random_bytes(1, 5).len(), 5);
    }
}
