//! The predefined datatypes: their names and, for each basic type, the facts of the C (or
//! Fortran) type it stands for on x86-64 Linux: size, alignment and external32 form.
//!
//! A predefined type is known here by its entry in [`all`] (its [`Predefined::index`]) and
//! its name; the handle each ABI gives it is the ABI layer's business (its
//! `predefined_handle`).

use crate::error::{Error, Result};
use std::sync::LazyLock;

/// The Fortran type class an `MPI_Type_create_f90_*` function was called for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum F90Class {
    /// `MPI_Type_create_f90_integer(r, ...)`.
    Integer,
    /// `MPI_Type_create_f90_real(p, r, ...)`.
    Real,
    /// `MPI_Type_create_f90_complex(p, r, ...)`.
    Complex,
}

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
    /// The named predefined type this basic type is.
    pub fn predefined(self) -> &'static Predefined {
        &all()[self.0 as usize]
    }
}

const fn basic(
    name: &'static str,
    size: i64,
    align: i64,
    ext32_part: i64,
    parts: i64,
    scalar: Scalar,
) -> BasicInfo {
    BasicInfo {
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
    basic("MPI_CHAR", 1, 1, 1, 1, Signed),
    basic("MPI_SIGNED_CHAR", 1, 1, 1, 1, Signed),
    basic("MPI_UNSIGNED_CHAR", 1, 1, 1, 1, Unsigned),
    basic("MPI_BYTE", 1, 1, 1, 1, Bytes),
    basic("MPI_WCHAR", 4, 4, 2, 1, Unsigned),
    basic("MPI_SHORT", 2, 2, 2, 1, Signed),
    basic("MPI_UNSIGNED_SHORT", 2, 2, 2, 1, Unsigned),
    basic("MPI_INT", 4, 4, 4, 1, Signed),
    basic("MPI_UNSIGNED", 4, 4, 4, 1, Unsigned),
    basic("MPI_LONG", 8, 8, 4, 1, Signed),
    basic("MPI_UNSIGNED_LONG", 8, 8, 4, 1, Unsigned),
    basic("MPI_FLOAT", 4, 4, 4, 1, Float),
    basic("MPI_DOUBLE", 8, 8, 8, 1, Float),
    basic("MPI_LONG_DOUBLE", 16, 16, 16, 1, X87Extended),
    basic("MPI_LONG_LONG_INT", 8, 8, 8, 1, Signed),
    basic("MPI_UNSIGNED_LONG_LONG", 8, 8, 8, 1, Unsigned),
    basic("MPI_PACKED", 1, 1, 1, 1, Bytes),
    basic("MPI_COMPLEX", 8, 4, 4, 2, Float),
    basic("MPI_DOUBLE_COMPLEX", 16, 8, 8, 2, Float),
    basic("MPI_LOGICAL", 4, 4, 4, 1, Signed),
    basic("MPI_REAL", 4, 4, 4, 1, Float),
    basic("MPI_DOUBLE_PRECISION", 8, 8, 8, 1, Float),
    basic("MPI_INTEGER", 4, 4, 4, 1, Signed),
    basic("MPI_CHARACTER", 1, 1, 1, 1, Unsigned),
    basic("MPI_REAL4", 4, 4, 4, 1, Float),
    basic("MPI_REAL8", 8, 8, 8, 1, Float),
    basic("MPI_REAL16", 16, 16, 16, 1, X87Extended),
    basic("MPI_COMPLEX8", 8, 4, 4, 2, Float),
    basic("MPI_COMPLEX16", 16, 8, 8, 2, Float),
    basic("MPI_COMPLEX32", 32, 16, 16, 2, X87Extended),
    basic("MPI_INTEGER1", 1, 1, 1, 1, Signed),
    basic("MPI_INTEGER2", 2, 2, 2, 1, Signed),
    basic("MPI_INTEGER4", 4, 4, 4, 1, Signed),
    basic("MPI_INTEGER8", 8, 8, 8, 1, Signed),
    basic("MPI_INT8_T", 1, 1, 1, 1, Signed),
    basic("MPI_INT16_T", 2, 2, 2, 1, Signed),
    basic("MPI_INT32_T", 4, 4, 4, 1, Signed),
    basic("MPI_INT64_T", 8, 8, 8, 1, Signed),
    basic("MPI_UINT8_T", 1, 1, 1, 1, Unsigned),
    basic("MPI_UINT16_T", 2, 2, 2, 1, Unsigned),
    basic("MPI_UINT32_T", 4, 4, 4, 1, Unsigned),
    basic("MPI_UINT64_T", 8, 8, 8, 1, Unsigned),
    basic("MPI_C_BOOL", 1, 1, 1, 1, Unsigned),
    // The standard's table lists MPI_C_COMPLEX first and MPI_C_FLOAT_COMPLEX "(as a
    // synonym)"; the name is the first one, as MPICH and Open MPI report it. The other pair
    // of synonyms, MPI_LONG_LONG_INT and MPI_LONG_LONG, is named likewise.
    basic("MPI_C_COMPLEX", 8, 4, 4, 2, Float),
    basic("MPI_C_DOUBLE_COMPLEX", 16, 8, 8, 2, Float),
    basic("MPI_C_LONG_DOUBLE_COMPLEX", 32, 16, 16, 2, X87Extended),
    basic("MPIX_C_FLOAT16", 2, 2, 2, 1, Float),
    basic("MPI_AINT", 8, 8, 8, 1, Signed),
    basic("MPI_OFFSET", 8, 8, 8, 1, Signed),
    basic("MPI_COUNT", 8, 8, 8, 1, Signed),
    basic("MPI_CXX_BOOL", 1, 1, 1, 1, Unsigned),
    basic("MPI_CXX_FLOAT_COMPLEX", 8, 4, 4, 2, Float),
    basic("MPI_CXX_DOUBLE_COMPLEX", 16, 8, 8, 2, Float),
    basic("MPI_CXX_LONG_DOUBLE_COMPLEX", 32, 16, 16, 2, X87Extended),
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
    /// Its place in [`all`], which identifies it (basic types first: a [`Basic`]'s index is
    /// its place).
    pub index: usize,
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
const REAL4: Basic = Basic(24);
const REAL8: Basic = Basic(25);
const REAL16: Basic = Basic(26);
const COMPLEX8: Basic = Basic(27);
const COMPLEX16: Basic = Basic(28);
const COMPLEX32: Basic = Basic(29);
const INTEGER1: Basic = Basic(30);
const INTEGER2: Basic = Basic(31);
const INTEGER4: Basic = Basic(32);
const INTEGER8: Basic = Basic(33);

const fn pair(name: &'static str, first: Basic, second: Basic) -> (&'static str, PredefinedKind) {
    (name, PredefinedKind::Pair(first, second))
}

/// The predefined datatypes that are not a single basic type: the pairs and the legacy bound
/// markers of MPI-1 (which only MPICH's ABI gives a handle).
static COMPOSITES: &[(&str, PredefinedKind)] = &[
    pair("MPI_FLOAT_INT", FLOAT, INT),
    pair("MPI_DOUBLE_INT", DOUBLE, INT),
    pair("MPI_LONG_INT", LONG, INT),
    pair("MPI_SHORT_INT", SHORT, INT),
    pair("MPI_2INT", INT, INT),
    pair("MPI_LONG_DOUBLE_INT", LONG_DOUBLE, INT),
    pair("MPI_2INTEGER", INTEGER, INTEGER),
    pair("MPI_2REAL", REAL, REAL),
    pair("MPI_2DOUBLE_PRECISION", DOUBLE_PRECISION, DOUBLE_PRECISION),
    ("MPI_LB", PredefinedKind::LbMarker),
    ("MPI_UB", PredefinedKind::UbMarker),
];

/// Every named predefined datatype, basic types first, each at its [`Predefined::index`].
pub fn all() -> &'static [Predefined] {
    static ALL: LazyLock<Vec<Predefined>> = LazyLock::new(|| {
        let basics =
            (0..BASICS.len()).map(|i| (BASICS[i].name, PredefinedKind::Basic(Basic(i as u8))));
        basics
            .chain(COMPOSITES.iter().copied())
            .enumerate()
            .map(|(index, (name, kind))| Predefined { index, name, kind })
            .collect()
    });
    &ALL
}

/// The named predefined type called `name` (`"MPI_INT"`).
pub fn by_name(name: &str) -> Option<&'static Predefined> {
    all().iter().find(|p| p.name == name)
}

/// The predefined pair type whose value is of the basic type `value` and whose index of the
/// basic type `index` (`MPI_Type_get_value_index`: `MPI_FLOAT_INT` for `MPI_FLOAT` and
/// `MPI_INT`, `MPI_2INTEGER` for `MPI_INTEGER` twice), if there is one.
pub fn value_index_pair(value: Basic, index: Basic) -> Option<&'static Predefined> {
    all()
        .iter()
        .find(|p| p.kind == PredefinedKind::Pair(value, index))
}

/// The basic type `MPI_Type_match_size` returns for the type class `class` and `size`, if
/// any.
pub fn match_size(class: F90Class, size: i64) -> Option<Basic> {
    let candidates: &[Basic] = match class {
        F90Class::Real => &[REAL4, REAL8, REAL16],
        F90Class::Integer => &[INTEGER1, INTEGER2, INTEGER4, INTEGER8],
        F90Class::Complex => &[COMPLEX8, COMPLEX16, COMPLEX32],
    };
    candidates.iter().copied().find(|b| b.size() == size)
}

/// The Fortran `KIND` models of x86-64 Linux compilers (gfortran) that the predefined
/// size-specific types stand for, smallest first: `(type, precision, exponent range)` as
/// `PRECISION(x)` and `RANGE(x)` report them. `MPI_REAL16` is the 16-byte x87 extended
/// type here (the one `MPI_LONG_DOUBLE` is), so its precision is 18 digits. There is no
/// `MPI_INTEGER16` in MPICH's ABI (it is `MPI_DATATYPE_NULL`), so ranges beyond 18 digits
/// have no integer type.
const F90_INTEGERS: &[(Basic, i32)] =
    &[(INTEGER1, 2), (INTEGER2, 4), (INTEGER4, 9), (INTEGER8, 18)];
const F90_REALS: &[(Basic, i32, i32)] = &[(REAL4, 6, 37), (REAL8, 15, 307), (REAL16, 18, 4931)];
const F90_COMPLEXES: &[(Basic, i32, i32)] = &[
    (COMPLEX8, 6, 37),
    (COMPLEX16, 15, 307),
    (COMPLEX32, 18, 4931),
];

/// The named type an `MPI_Type_create_f90_*` call selects, as Fortran's
/// `SELECTED_INT_KIND(r)` / `SELECTED_REAL_KIND(p, r)` would: the smallest type whose decimal
/// range is at least `range` and, for real and complex types, whose precision is at least
/// `precision`; `None` stands for an omitted `p` or `r` (`MPI_UNDEFINED`; not both for real
/// and complex types). `None` if no type fits or both are omitted.
pub fn f90_select(class: F90Class, precision: Option<i32>, range: Option<i32>) -> Option<Basic> {
    let fits = |wanted: Option<i32>, have: i32| wanted.is_none_or(|wanted| wanted <= have);
    if class == F90Class::Integer {
        return F90_INTEGERS
            .iter()
            .find(|&&(_, r)| fits(range, r))
            .map(|&(b, _)| b);
    }
    if precision.is_none() && range.is_none() {
        return None;
    }
    let models = if class == F90Class::Real {
        F90_REALS
    } else {
        F90_COMPLEXES
    };
    models
        .iter()
        .find(|&&(_, p, r)| fits(precision, p) && fits(range, r))
        .map(|&(b, _, _)| b)
}

/// [`f90_select`], or the `MPI_ERR_ARG` that says why no type fits.
pub fn f90_base(class: F90Class, precision: Option<i32>, range: Option<i32>) -> Result<Basic> {
    f90_select(class, precision, range).ok_or_else(|| {
        let given = |v: Option<i32>| v.map_or("MPI_UNDEFINED".to_string(), |v| v.to_string());
        Error::arg(match (class, precision, range) {
            (F90Class::Integer, _, _) => {
                format!("no predefined integer type has a range of {}", given(range))
            }
            (_, None, None) => "p and r cannot both be MPI_UNDEFINED".to_string(),
            _ => format!(
                "no predefined type has precision {} and range {}",
                given(precision),
                given(range)
            ),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_f90_selection_that_fits_nothing_says_why() {
        use F90Class::*;
        assert_eq!(f90_base(Real, Some(6), None), Ok(REAL4));
        let message = |class, p, r| f90_base(class, p, r).unwrap_err().message;
        assert_eq!(
            message(Integer, None, Some(19)),
            "no predefined integer type has a range of 19"
        );
        assert_eq!(
            message(Real, None, None),
            "p and r cannot both be MPI_UNDEFINED"
        );
        assert_eq!(
            message(Complex, Some(40), None),
            "no predefined type has precision 40 and range MPI_UNDEFINED"
        );
    }

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
        let sized = [REAL4, REAL8, REAL16, COMPLEX8, COMPLEX16, COMPLEX32];
        let names = sized.map(name);
        let want = [
            "MPI_REAL4",
            "MPI_REAL8",
            "MPI_REAL16",
            "MPI_COMPLEX8",
            "MPI_COMPLEX16",
        ];
        assert_eq!(names[..5], want);
        assert_eq!(name(COMPLEX32), "MPI_COMPLEX32");
        let integers = [INTEGER1, INTEGER2, INTEGER4, INTEGER8].map(name);
        assert_eq!(
            integers,
            [
                "MPI_INTEGER1",
                "MPI_INTEGER2",
                "MPI_INTEGER4",
                "MPI_INTEGER8"
            ]
        );
    }

    #[test]
    fn f90_selection_follows_the_kind_models() {
        use super::F90Class::*;
        assert_eq!(f90_select(Integer, None, Some(-1)), Some(INTEGER1));
        assert_eq!(f90_select(Integer, None, None), Some(INTEGER1));
        assert_eq!(f90_select(Integer, None, Some(2)), Some(INTEGER1));
        assert_eq!(f90_select(Integer, None, Some(3)), Some(INTEGER2));
        assert_eq!(f90_select(Integer, None, Some(9)), Some(INTEGER4));
        assert_eq!(f90_select(Integer, None, Some(18)), Some(INTEGER8));
        assert_eq!(f90_select(Integer, None, Some(19)), None);
        assert_eq!(f90_select(Real, Some(6), None), Some(REAL4));
        assert_eq!(f90_select(Real, None, Some(38)), Some(REAL8));
        assert_eq!(f90_select(Real, Some(16), Some(10)), Some(REAL16));
        assert_eq!(f90_select(Real, Some(19), None), None);
        assert_eq!(f90_select(Real, None, None), None);
        assert_eq!(f90_select(Complex, Some(7), Some(0)), Some(COMPLEX16));
        assert_eq!(f90_select(Complex, Some(1), Some(4932)), None);
    }

    #[test]
    fn names_are_unique_and_places_are_indexes() {
        let mut names: Vec<_> = all().iter().map(|p| p.name).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n);
        assert!(all().iter().enumerate().all(|(i, p)| p.index == i));
        assert_eq!(Basic(7).predefined().kind, PredefinedKind::Basic(Basic(7)));
    }
}
