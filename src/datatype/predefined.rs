//! The predefined datatypes: their handles, names and, for each basic type, the facts of the
//! C (or Fortran) type it stands for on x86-64 Linux: size, alignment and external32 form.

use crate::abi::*;

/// What a basic type's bytes mean, for conversion to and from external32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    /// Opaque bytes (`MPI_BYTE`, `MPI_PACKED`): copied unchanged.
    Bytes,
    /// Two's-complement signed integer.
    Signed,
    /// Unsigned integer (also characters and booleans).
    Unsigned,
    /// IEEE-754 binary floating point of the same width natively and in external32.
    Float,
    /// x87 80-bit extended precision stored in 16 bytes; IEEE binary128 in external32.
    X87Extended,
}

/// The facts of one basic (leaf) type.
#[derive(Debug)]
pub struct BasicInfo {
    /// Its predefined handle.
    pub handle: MPI_Datatype,
    /// Its name as `MPI_Type_get_name` reports it.
    pub name: &'static str,
    /// Native size in bytes.
    pub size: i64,
    /// Native alignment in bytes (the `k` of the standard's extent rule).
    pub align: i64,
    /// Size of one part in external32 (a complex number has two parts).
    pub ext32_part: i64,
    /// Number of parts (2 for complex types, else 1).
    pub parts: i64,
    /// How one part is converted to external32.
    pub scalar: Scalar,
}

impl BasicInfo {
    /// Size in the external32 representation.
    pub fn ext32_size(&self) -> i64 {
        self.ext32_part * self.parts
    }
    /// Native size of one part.
    pub fn part_size(&self) -> i64 {
        self.size / self.parts
    }
}

/// A basic type: an index into [`BASICS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Basic(pub u8);

impl Basic {
    /// The facts of this basic type.
    pub fn info(self) -> &'static BasicInfo {
        &BASICS[self.0 as usize]
    }
    /// Native size in bytes.
    pub fn size(self) -> i64 {
        self.info().size
    }
    /// Native alignment in bytes.
    pub fn align(self) -> i64 {
        self.info().align
    }
    /// The basic type whose predefined handle is `handle`.
    pub fn from_handle(handle: MPI_Datatype) -> Option<Basic> {
        BASICS
            .iter()
            .position(|b| b.handle == handle)
            .map(|i| Basic(i as u8))
    }
}

const fn basic(
    handle: MPI_Datatype,
    name: &'static str,
    size: i64,
    align: i64,
    ext32_part: i64,
    parts: i64,
    scalar: Scalar,
) -> BasicInfo {
    BasicInfo {
        handle,
        name,
        size,
        align,
        ext32_part,
        parts,
        scalar,
    }
}

use Scalar::*;

/// Every basic type. Sizes and alignments are those of gcc on x86-64 Linux; external32 sizes
/// are those of the MPI standard's table of external32 sizes (MPI-4.1 §14.5.2).
pub static BASICS: &[BasicInfo] = &[
    basic(MPI_CHAR, "MPI_CHAR", 1, 1, 1, 1, Signed),
    basic(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, 1, 1, 1, Signed),
    basic(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, 1, 1, 1, Unsigned),
    basic(MPI_BYTE, "MPI_BYTE", 1, 1, 1, 1, Bytes),
    basic(MPI_WCHAR, "MPI_WCHAR", 4, 4, 2, 1, Unsigned),
    basic(MPI_SHORT, "MPI_SHORT", 2, 2, 2, 1, Signed),
    basic(
        MPI_UNSIGNED_SHORT,
        "MPI_UNSIGNED_SHORT",
        2,
        2,
        2,
        1,
        Unsigned,
    ),
    basic(MPI_INT, "MPI_INT", 4, 4, 4, 1, Signed),
    basic(MPI_UNSIGNED, "MPI_UNSIGNED", 4, 4, 4, 1, Unsigned),
    basic(MPI_LONG, "MPI_LONG", 8, 8, 4, 1, Signed),
    basic(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", 8, 8, 4, 1, Unsigned),
    basic(MPI_FLOAT, "MPI_FLOAT", 4, 4, 4, 1, Float),
    basic(MPI_DOUBLE, "MPI_DOUBLE", 8, 8, 8, 1, Float),
    basic(
        MPI_LONG_DOUBLE,
        "MPI_LONG_DOUBLE",
        16,
        16,
        16,
        1,
        X87Extended,
    ),
    basic(MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", 8, 8, 8, 1, Signed),
    basic(
        MPI_UNSIGNED_LONG_LONG,
        "MPI_UNSIGNED_LONG_LONG",
        8,
        8,
        8,
        1,
        Unsigned,
    ),
    basic(MPI_PACKED, "MPI_PACKED", 1, 1, 1, 1, Bytes),
    basic(MPI_COMPLEX, "MPI_COMPLEX", 8, 4, 4, 2, Float),
    basic(MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, 8, 8, 2, Float),
    basic(MPI_LOGICAL, "MPI_LOGICAL", 4, 4, 4, 1, Signed),
    basic(MPI_REAL, "MPI_REAL", 4, 4, 4, 1, Float),
    basic(
        MPI_DOUBLE_PRECISION,
        "MPI_DOUBLE_PRECISION",
        8,
        8,
        8,
        1,
        Float,
    ),
    basic(MPI_INTEGER, "MPI_INTEGER", 4, 4, 4, 1, Signed),
    basic(MPI_CHARACTER, "MPI_CHARACTER", 1, 1, 1, 1, Unsigned),
    basic(MPI_REAL4, "MPI_REAL4", 4, 4, 4, 1, Float),
    basic(MPI_REAL8, "MPI_REAL8", 8, 8, 8, 1, Float),
    basic(MPI_REAL16, "MPI_REAL16", 16, 16, 16, 1, X87Extended),
    basic(MPI_COMPLEX8, "MPI_COMPLEX8", 8, 4, 4, 2, Float),
    basic(MPI_COMPLEX16, "MPI_COMPLEX16", 16, 8, 8, 2, Float),
    basic(MPI_COMPLEX32, "MPI_COMPLEX32", 32, 16, 16, 2, X87Extended),
    basic(MPI_INTEGER1, "MPI_INTEGER1", 1, 1, 1, 1, Signed),
    basic(MPI_INTEGER2, "MPI_INTEGER2", 2, 2, 2, 1, Signed),
    basic(MPI_INTEGER4, "MPI_INTEGER4", 4, 4, 4, 1, Signed),
    basic(MPI_INTEGER8, "MPI_INTEGER8", 8, 8, 8, 1, Signed),
    basic(MPI_INT8_T, "MPI_INT8_T", 1, 1, 1, 1, Signed),
    basic(MPI_INT16_T, "MPI_INT16_T", 2, 2, 2, 1, Signed),
    basic(MPI_INT32_T, "MPI_INT32_T", 4, 4, 4, 1, Signed),
    basic(MPI_INT64_T, "MPI_INT64_T", 8, 8, 8, 1, Signed),
    basic(MPI_UINT8_T, "MPI_UINT8_T", 1, 1, 1, 1, Unsigned),
    basic(MPI_UINT16_T, "MPI_UINT16_T", 2, 2, 2, 1, Unsigned),
    basic(MPI_UINT32_T, "MPI_UINT32_T", 4, 4, 4, 1, Unsigned),
    basic(MPI_UINT64_T, "MPI_UINT64_T", 8, 8, 8, 1, Unsigned),
    basic(MPI_C_BOOL, "MPI_C_BOOL", 1, 1, 1, 1, Unsigned),
    // The standard's table lists MPI_C_COMPLEX first and MPI_C_FLOAT_COMPLEX "(as a
    // synonym)"; the name is the first one, as MPICH and Open MPI report it. The other pair
    // of synonyms, MPI_LONG_LONG_INT and MPI_LONG_LONG, is named likewise.
    basic(MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX", 8, 4, 4, 2, Float),
    basic(
        MPI_C_DOUBLE_COMPLEX,
        "MPI_C_DOUBLE_COMPLEX",
        16,
        8,
        8,
        2,
        Float,
    ),
    basic(
        MPI_C_LONG_DOUBLE_COMPLEX,
        "MPI_C_LONG_DOUBLE_COMPLEX",
        32,
        16,
        16,
        2,
        X87Extended,
    ),
    basic(MPIX_C_FLOAT16, "MPIX_C_FLOAT16", 2, 2, 2, 1, Float),
    basic(MPI_AINT, "MPI_AINT", 8, 8, 8, 1, Signed),
    basic(MPI_OFFSET, "MPI_OFFSET", 8, 8, 8, 1, Signed),
    basic(MPI_COUNT, "MPI_COUNT", 8, 8, 8, 1, Signed),
    basic(MPI_CXX_BOOL, "MPI_CXX_BOOL", 1, 1, 1, 1, Unsigned),
    basic(
        MPI_CXX_FLOAT_COMPLEX,
        "MPI_CXX_FLOAT_COMPLEX",
        8,
        4,
        4,
        2,
        Float,
    ),
    basic(
        MPI_CXX_DOUBLE_COMPLEX,
        "MPI_CXX_DOUBLE_COMPLEX",
        16,
        8,
        8,
        2,
        Float,
    ),
    basic(
        MPI_CXX_LONG_DOUBLE_COMPLEX,
        "MPI_CXX_LONG_DOUBLE_COMPLEX",
        32,
        16,
        16,
        2,
        X87Extended,
    ),
];

/// What a predefined datatype is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PredefinedKind {
    /// One basic type at displacement 0.
    Basic(Basic),
    /// The C struct `{ first; second; }` (`MPI_DOUBLE_INT` and its kin), laid out by C rules.
    Pair(Basic, Basic),
    /// The legacy lower-bound marker `MPI_LB`: type map `{(lb, 0)}`.
    LbMarker,
    /// The legacy upper-bound marker `MPI_UB`: type map `{(ub, 0)}`.
    UbMarker,
}

/// Byte offset of the second member of the pair type `struct { a; b; }` under C layout rules.
pub fn pair_offset(a: Basic, b: Basic) -> i64 {
    (a.size() + b.align() - 1) / b.align() * b.align()
}

/// A named predefined datatype.
#[derive(Debug)]
pub struct Predefined {
    /// Its handle.
    pub handle: MPI_Datatype,
    /// Its name as `MPI_Type_get_name` reports it.
    pub name: &'static str,
    /// What it is made of.
    pub kind: PredefinedKind,
}

const SHORT: Basic = Basic(5);
const INT: Basic = Basic(7);
const LONG: Basic = Basic(9);
const FLOAT: Basic = Basic(11);
const DOUBLE: Basic = Basic(12);
const LONG_DOUBLE: Basic = Basic(13);
const REAL: Basic = Basic(20);
const DOUBLE_PRECISION: Basic = Basic(21);
const INTEGER: Basic = Basic(22);

const fn pair(
    handle: MPI_Datatype,
    name: &'static str,
    first: Basic,
    second: Basic,
) -> (MPI_Datatype, &'static str, PredefinedKind) {
    (handle, name, PredefinedKind::Pair(first, second))
}

/// The predefined datatypes that are not a single basic type.
static COMPOSITES: &[(MPI_Datatype, &str, PredefinedKind)] = &[
    (MPI_LB, "MPI_LB", PredefinedKind::LbMarker),
    (MPI_UB, "MPI_UB", PredefinedKind::UbMarker),
    pair(MPI_FLOAT_INT, "MPI_FLOAT_INT", FLOAT, INT),
    pair(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", DOUBLE, INT),
    pair(MPI_LONG_INT, "MPI_LONG_INT", LONG, INT),
    pair(MPI_SHORT_INT, "MPI_SHORT_INT", SHORT, INT),
    pair(MPI_2INT, "MPI_2INT", INT, INT),
    pair(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", LONG_DOUBLE, INT),
    pair(MPI_2INTEGER, "MPI_2INTEGER", INTEGER, INTEGER),
    pair(MPI_2REAL, "MPI_2REAL", REAL, REAL),
    pair(
        MPI_2DOUBLE_PRECISION,
        "MPI_2DOUBLE_PRECISION",
        DOUBLE_PRECISION,
        DOUBLE_PRECISION,
    ),
];

/// Every named predefined datatype, basic types first.
pub fn all() -> impl Iterator<Item = Predefined> {
    let basics = BASICS.iter().enumerate().map(|(i, b)| Predefined {
        handle: b.handle,
        name: b.name,
        kind: PredefinedKind::Basic(Basic(i as u8)),
    });
    let composites =
        COMPOSITES
            .iter()
            .map(|&(handle, name, kind)| Predefined { handle, name, kind });
    basics.chain(composites)
}

/// The basic type `MPI_Type_match_size` returns for `typeclass` and `size`, if any.
pub fn match_size(typeclass: i32, size: i64) -> Option<MPI_Datatype> {
    let candidates: &[MPI_Datatype] = match typeclass {
        MPI_TYPECLASS_REAL => &[MPI_REAL4, MPI_REAL8, MPI_REAL16],
        MPI_TYPECLASS_INTEGER => &[MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8],
        MPI_TYPECLASS_COMPLEX => &[MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32],
        _ => return None,
    };
    candidates
        .iter()
        .copied()
        .find(|&h| Basic::from_handle(h).map(|b| b.size()) == Some(size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composite_indices_name_the_intended_basics() {
        let name = |b: Basic| b.info().name;
        assert_eq!(name(SHORT), "MPI_SHORT");
        assert_eq!(name(INT), "MPI_INT");
        assert_eq!(name(LONG), "MPI_LONG");
        assert_eq!(name(FLOAT), "MPI_FLOAT");
        assert_eq!(name(DOUBLE), "MPI_DOUBLE");
        assert_eq!(name(LONG_DOUBLE), "MPI_LONG_DOUBLE");
        assert_eq!(name(REAL), "MPI_REAL");
        assert_eq!(name(DOUBLE_PRECISION), "MPI_DOUBLE_PRECISION");
        assert_eq!(name(INTEGER), "MPI_INTEGER");
    }

    #[test]
    fn handles_are_unique() {
        let mut handles: Vec<_> = all().map(|p| p.handle).collect();
        let n = handles.len();
        handles.sort();
        handles.dedup();
        assert_eq!(handles.len(), n);
    }
}
