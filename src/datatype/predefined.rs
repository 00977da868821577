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
    let composites = COMPOSITES
        .iter()
        .chain(MARKERS)
        .map(|&(handle, name, kind)| Predefined { handle, name, kind });
    basics.chain(composites)
}

/// The legacy bound markers of MPI-1, in MPICH's ABI (the standard ABI has none).
#[cfg(not(feature = "standard-abi"))]
static MARKERS: &[(MPI_Datatype, &str, PredefinedKind)] = &[
    (MPI_LB, "MPI_LB", PredefinedKind::LbMarker),
    (MPI_UB, "MPI_UB", PredefinedKind::UbMarker),
];
/// The standard ABI has no bound markers.
#[cfg(feature = "standard-abi")]
static MARKERS: &[(MPI_Datatype, &str, PredefinedKind)] = &[];

/// The predefined pair type whose value is of the basic type `value` and whose index of the
/// basic type `index` (`MPI_Type_get_value_index`: `MPI_FLOAT_INT` for `MPI_FLOAT` and
/// `MPI_INT`, `MPI_2INTEGER` for `MPI_INTEGER` twice), if there is one.
pub fn value_index_pair(value: Basic, index: Basic) -> Option<MPI_Datatype> {
    COMPOSITES.iter().find_map(|&(handle, _, kind)| match kind {
        PredefinedKind::Pair(first, second) => {
            (first == value && second == index).then_some(handle)
        }
        _ => None,
    })
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

/// The Fortran `KIND` models of x86-64 Linux compilers (gfortran) that the predefined
/// size-specific types stand for, smallest first: `(type, precision, exponent range)` as
/// `PRECISION(x)` and `RANGE(x)` report them. `MPI_REAL16` is the 16-byte x87 extended
/// type here (the one `MPI_LONG_DOUBLE` is), so its precision is 18 digits. There is no
/// `MPI_INTEGER16` in MPICH's ABI (it is `MPI_DATATYPE_NULL`), so ranges beyond 18 digits
/// have no integer type.
const F90_INTEGERS: &[(MPI_Datatype, i32)] = &[
    (MPI_INTEGER1, 2),
    (MPI_INTEGER2, 4),
    (MPI_INTEGER4, 9),
    (MPI_INTEGER8, 18),
];
const F90_REALS: &[(MPI_Datatype, i32, i32)] = &[
    (MPI_REAL4, 6, 37),
    (MPI_REAL8, 15, 307),
    (MPI_REAL16, 18, 4931),
];
const F90_COMPLEXES: &[(MPI_Datatype, i32, i32)] = &[
    (MPI_COMPLEX8, 6, 37),
    (MPI_COMPLEX16, 15, 307),
    (MPI_COMPLEX32, 18, 4931),
];

/// The named type an `MPI_Type_create_f90_*` call selects, as Fortran's
/// `SELECTED_INT_KIND(r)` / `SELECTED_REAL_KIND(p, r)` would: the smallest type whose decimal
/// range is at least `range` and, for real and complex types, whose precision is at least
/// `precision`; `MPI_UNDEFINED` stands for an omitted `p` or `r` (not both). `None` if no
/// type fits or both are omitted.
pub fn f90_select(class: super::F90Class, precision: i32, range: i32) -> Option<MPI_Datatype> {
    use super::F90Class;
    if class == F90Class::Integer {
        return F90_INTEGERS
            .iter()
            .find(|&&(_, r)| range <= r)
            .map(|&(h, _)| h);
    }
    if precision == MPI_UNDEFINED && range == MPI_UNDEFINED {
        return None;
    }
    let models = if class == F90Class::Real {
        F90_REALS
    } else {
        F90_COMPLEXES
    };
    let fits = |wanted: i32, have: i32| wanted == MPI_UNDEFINED || wanted <= have;
    models
        .iter()
        .find(|&&(_, p, r)| fits(precision, p) && fits(range, r))
        .map(|&(h, _, _)| h)
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
    fn f90_selection_follows_the_kind_models() {
        use crate::datatype::F90Class::*;
        assert_eq!(f90_select(Integer, MPI_UNDEFINED, -1), Some(MPI_INTEGER1));
        assert_eq!(f90_select(Integer, MPI_UNDEFINED, 2), Some(MPI_INTEGER1));
        assert_eq!(f90_select(Integer, MPI_UNDEFINED, 3), Some(MPI_INTEGER2));
        assert_eq!(f90_select(Integer, MPI_UNDEFINED, 9), Some(MPI_INTEGER4));
        assert_eq!(f90_select(Integer, MPI_UNDEFINED, 18), Some(MPI_INTEGER8));
        assert_eq!(f90_select(Integer, MPI_UNDEFINED, 19), None);
        assert_eq!(f90_select(Real, 6, MPI_UNDEFINED), Some(MPI_REAL4));
        assert_eq!(f90_select(Real, MPI_UNDEFINED, 38), Some(MPI_REAL8));
        assert_eq!(f90_select(Real, 16, 10), Some(MPI_REAL16));
        assert_eq!(f90_select(Real, 19, MPI_UNDEFINED), None);
        assert_eq!(f90_select(Real, MPI_UNDEFINED, MPI_UNDEFINED), None);
        assert_eq!(f90_select(Complex, 7, 0), Some(MPI_COMPLEX16));
        assert_eq!(f90_select(Complex, 1, 4932), None);
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
