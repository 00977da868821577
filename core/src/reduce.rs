//! The predefined reduction operations (MPI-4.1 §6.9.2) applied to packed data: `inout =
//! input op inout`, element by element along the type signature, for the basic types the
//! standard defines each operation for. Both operands are the native packed streams of the
//! same count of the same datatype (what `MPI_Reduce_local` combines).

use crate::datatype::signature::signature;
use crate::datatype::Datatype;
use crate::error::{Error, ErrorClass, Result};
use crate::predefined::{Basic, Scalar};

/// A predefined operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `MPI_MAX`.
    Max,
    /// `MPI_MIN`.
    Min,
    /// `MPI_SUM`.
    Sum,
    /// `MPI_PROD`.
    Prod,
    /// `MPI_LAND`.
    Land,
    /// `MPI_BAND`.
    Band,
    /// `MPI_LOR`.
    Lor,
    /// `MPI_BOR`.
    Bor,
    /// `MPI_LXOR`.
    Lxor,
    /// `MPI_BXOR`.
    Bxor,
    /// `MPI_MINLOC`: of value-index pairs, the least value and its least index.
    Minloc,
    /// `MPI_MAXLOC`: of value-index pairs, the greatest value and its least index.
    Maxloc,
    /// `MPI_REPLACE`: the input.
    Replace,
    /// `MPI_NO_OP`: the inout operand unchanged.
    NoOp,
}

/// The classes of basic types of MPI-4.1 §6.9.2 that decide which operations apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// C and Fortran integers and the multi-language types (`MPI_AINT`, ...).
    Integer,
    /// Floating point.
    Real,
    /// Complex.
    Complex,
    /// `MPI_C_BOOL`, `MPI_CXX_BOOL`, `MPI_LOGICAL`.
    Logical,
    /// `MPI_BYTE`.
    Byte,
    /// Characters and `MPI_PACKED`: no operation applies.
    Other,
}

/// The class of a basic type.
fn class(basic: Basic) -> Class {
    let info = basic.info();
    match (info.name, info.scalar) {
        ("MPI_C_BOOL" | "MPI_CXX_BOOL" | "MPI_LOGICAL", _) => Class::Logical,
        ("MPI_CHAR" | "MPI_WCHAR" | "MPI_CHARACTER" | "MPI_PACKED", _) => Class::Other,
        ("MPI_BYTE", _) => Class::Byte,
        (_, Scalar::Signed | Scalar::Unsigned) => Class::Integer,
        (_, Scalar::Float | Scalar::X87Extended) if info.parts == 2 => Class::Complex,
        (_, Scalar::Float | Scalar::X87Extended) => Class::Real,
        (_, Scalar::Bytes) => Class::Other,
    }
}

impl Op {
    /// Whether the standard defines the operation for basic types of `class`.
    fn applies_to(self, class: Class) -> bool {
        use Class::*;
        match self {
            Op::Max | Op::Min => matches!(class, Integer | Real),
            Op::Sum | Op::Prod => matches!(class, Integer | Real | Complex),
            Op::Land | Op::Lor | Op::Lxor => matches!(class, Integer | Logical),
            Op::Band | Op::Bor | Op::Bxor => matches!(class, Integer | Byte),
            Op::Minloc | Op::Maxloc => matches!(class, Integer | Real),
            Op::Replace | Op::NoOp => true,
        }
    }
}

/// The error of an operation applied to a type it is not defined for.
fn undefined(op: Op, basic: Basic) -> Error {
    Error::new(
        ErrorClass::Op,
        format!(
            "{op:?} is not defined for {} (MPI-4.1 §6.9.2)",
            basic.info().name
        ),
    )
}

/// The basic elements of `count` copies of `dt`, in order, one per element.
fn elements(dt: &Datatype, count: i64) -> Result<Vec<Basic>> {
    let runs = signature(dt).ok_or_else(|| Error::datatype("the type has no signature"))?;
    let mut out = Vec::new();
    for _ in 0..count {
        for &(basic, n) in &runs {
            out.extend(std::iter::repeat_n(basic, n as usize));
        }
    }
    Ok(out)
}

/// Checks that `op` is defined for every basic type of `dt` and computed by this library
/// ([`ErrorClass::Op`] otherwise), as [`combine`] does before it writes anything.
pub fn check(op: Op, dt: &Datatype) -> Result<()> {
    let elements = elements(dt, 1)?;
    if let Some(&bad) = elements.iter().find(|&&b| !op.applies_to(class(b))) {
        return Err(undefined(op, bad));
    }
    let computed = !matches!(op, Op::Replace | Op::NoOp);
    if let Some(&bad) = elements.iter().find(|&&b| computed && !supported(b)) {
        return Err(Error::new(
            ErrorClass::Op,
            format!("reductions of {} are not supported", bad.info().name),
        ));
    }
    let pairs = matches!(op, Op::Minloc | Op::Maxloc);
    if pairs && (elements.len() % 2 != 0 || elements.chunks(2).any(|p| !is_pair(p))) {
        return Err(Error::new(
            ErrorClass::Op,
            format!("{op:?} needs value-index pairs whose index is an integer"),
        ));
    }
    Ok(())
}

/// True if `pair` is a value and an integer index, as `MPI_MINLOC` takes.
fn is_pair(pair: &[Basic]) -> bool {
    class(pair[1]) == Class::Integer && class(pair[0]) != Class::Complex
}

/// Combines `input` into `inout`, both the packed bytes of `count` copies of `dt`: each
/// element of `inout` becomes `input op inout`. Fails with [`ErrorClass::Op`] if the
/// operation is not defined for a basic type of `dt` (nothing is written then).
pub fn combine(op: Op, dt: &Datatype, count: i64, input: &[u8], inout: &mut [u8]) -> Result<()> {
    check(op, dt)?;
    let elements = elements(dt, count)?;
    if matches!(op, Op::Minloc | Op::Maxloc) {
        combine_pairs(&elements, op, input, inout);
        return Ok(());
    }
    let mut at = 0usize;
    for basic in elements {
        let size = basic.size() as usize;
        combine_one(op, basic, &input[at..at + size], &mut inout[at..at + size]);
        at += size;
    }
    Ok(())
}

/// Whether this library computes with elements of `basic`: not the half precision types,
/// which Rust has no arithmetic for, nor the x87 extended ones off x86-64 (on x86-64 the x87
/// unit computes them: [`crate::extended`]).
fn supported(basic: Basic) -> bool {
    let info = basic.info();
    match info.scalar {
        Scalar::X87Extended => cfg!(target_arch = "x86_64"),
        Scalar::Float => info.part_size() >= 4,
        _ => true,
    }
}

/// Applies `op` to one element of `basic`: `b = a op b`.
fn combine_one(op: Op, basic: Basic, a: &[u8], b: &mut [u8]) {
    let info = basic.info();
    match op {
        Op::NoOp => return,
        Op::Replace => {
            b.copy_from_slice(a);
            return;
        }
        _ => {}
    }
    match (info.scalar, info.size, info.parts) {
        (Scalar::Signed, 1, _) => apply::<i8>(op, a, b),
        (Scalar::Signed, 2, _) => apply::<i16>(op, a, b),
        (Scalar::Signed, 4, _) => apply::<i32>(op, a, b),
        (Scalar::Signed, 8, _) => apply::<i64>(op, a, b),
        (Scalar::Unsigned | Scalar::Bytes, 1, _) => apply::<u8>(op, a, b),
        (Scalar::Unsigned, 2, _) => apply::<u16>(op, a, b),
        (Scalar::Unsigned, 4, _) => apply::<u32>(op, a, b),
        (Scalar::Unsigned, 8, _) => apply::<u64>(op, a, b),
        (Scalar::Float, 4, 1) => apply::<f32>(op, a, b),
        (Scalar::Float, 8, 1) => apply::<f64>(op, a, b),
        (Scalar::Float, 8, 2) => complex::<f32>(op, a, b),
        (Scalar::Float, 16, 2) => complex::<f64>(op, a, b),
        #[cfg(target_arch = "x86_64")]
        (Scalar::X87Extended, 16, 1) => apply::<Extended>(op, a, b),
        #[cfg(target_arch = "x86_64")]
        (Scalar::X87Extended, 32, 2) => complex::<Extended>(op, a, b),
        _ => unreachable!("{} was checked to be supported", info.name),
    }
}

/// A number the operations apply to, read from and written to native bytes.
trait Number: Copy + PartialOrd {
    fn read(bytes: &[u8]) -> Self;
    fn write(self, bytes: &mut [u8]);
    fn add(self, other: Self) -> Self;
    fn mul(self, other: Self) -> Self;
    fn sub(self, other: Self) -> Self;
    fn is_true(self) -> bool;
    fn from_bool(value: bool) -> Self;
    /// The bitwise operation `op` (`Band`, `Bor`, `Bxor`); floats have none.
    fn bits(self, other: Self, op: Op) -> Self;
}

/// The `read` and `write` of [`Number`] for a type with native byte conversions.
macro_rules! native_bytes {
    ($t:ty) => {
        fn read(bytes: &[u8]) -> Self {
            <$t>::from_ne_bytes(bytes.try_into().expect("an element's bytes"))
        }
        fn write(self, bytes: &mut [u8]) {
            bytes.copy_from_slice(&self.to_ne_bytes());
        }
    };
}

/// Implements [`Number`] for integer types (wrapping arithmetic, as C's unsigned and MPICH's
/// signed reductions).
macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Number for $t {
            native_bytes!($t);
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn mul(self, other: Self) -> Self {
                self.wrapping_mul(other)
            }
            fn sub(self, other: Self) -> Self {
                self.wrapping_sub(other)
            }
            fn is_true(self) -> bool {
                self != 0
            }
            fn from_bool(value: bool) -> Self {
                <$t>::from(value)
            }
            fn bits(self, other: Self, op: Op) -> Self {
                match op {
                    Op::Band => self & other,
                    Op::Bor => self | other,
                    _ => self ^ other,
                }
            }
        }
    )*};
}

integers!(i8, i16, i32, i64, u8, u16, u32, u64);

/// Implements [`Number`] for floating-point types.
macro_rules! floats {
    ($($t:ty),*) => {$(
        impl Number for $t {
            native_bytes!($t);
            fn add(self, other: Self) -> Self {
                self + other
            }
            fn mul(self, other: Self) -> Self {
                self * other
            }
            fn sub(self, other: Self) -> Self {
                self - other
            }
            fn is_true(self) -> bool {
                self != 0.0
            }
            fn from_bool(value: bool) -> Self {
                if value { 1.0 } else { 0.0 }
            }
            fn bits(self, _other: Self, _op: Op) -> Self {
                unreachable!("no bitwise operation applies to floating point")
            }
        }
    )*};
}

floats!(f32, f64);

#[cfg(target_arch = "x86_64")]
use crate::extended::Extended;

/// C's `long double` on x86-64, computed by the x87 unit.
#[cfg(target_arch = "x86_64")]
impl Number for Extended {
    fn read(bytes: &[u8]) -> Self {
        Extended::read(bytes)
    }
    fn write(self, bytes: &mut [u8]) {
        bytes.copy_from_slice(&self.0);
    }
    fn add(self, other: Self) -> Self {
        Extended::add(self, other)
    }
    fn mul(self, other: Self) -> Self {
        Extended::mul(self, other)
    }
    fn sub(self, other: Self) -> Self {
        Extended::sub(self, other)
    }
    fn is_true(self) -> bool {
        self != Extended::from_bool(false)
    }
    fn from_bool(value: bool) -> Self {
        Extended::from_bool(value)
    }
    fn bits(self, _other: Self, _op: Op) -> Self {
        unreachable!("no bitwise operation applies to floating point")
    }
}

/// `b = a op b` for one number.
fn apply<T: Number>(op: Op, a: &[u8], b: &mut [u8]) {
    let (x, y) = (T::read(a), T::read(b));
    let result = match op {
        Op::Max => {
            if x > y {
                x
            } else {
                y
            }
        }
        Op::Min => {
            if x < y {
                x
            } else {
                y
            }
        }
        Op::Sum => x.add(y),
        Op::Prod => x.mul(y),
        Op::Land => T::from_bool(x.is_true() && y.is_true()),
        Op::Lor => T::from_bool(x.is_true() || y.is_true()),
        Op::Lxor => T::from_bool(x.is_true() != y.is_true()),
        Op::Band | Op::Bor | Op::Bxor => x.bits(y, op),
        Op::Minloc | Op::Maxloc | Op::Replace | Op::NoOp => y,
    };
    result.write(b);
}

/// `b = a op b` for one complex number of two `T` parts (only `MPI_SUM` and `MPI_PROD`
/// apply).
fn complex<T: Number>(op: Op, a: &[u8], b: &mut [u8]) {
    let part = a.len() / 2;
    let (ar, ai) = (T::read(&a[..part]), T::read(&a[part..]));
    let (br, bi) = (T::read(&b[..part]), T::read(&b[part..]));
    let (re, im) = match op {
        Op::Prod => (ar.mul(br).sub(ai.mul(bi)), ar.mul(bi).add(ai.mul(br))),
        _ => (ar.add(br), ai.add(bi)),
    };
    re.write(&mut b[..part]);
    im.write(&mut b[part..]);
}

/// `MPI_MINLOC` / `MPI_MAXLOC` over value-index pairs ([`check`]ed: the elements alternate a
/// value and an integer index).
fn combine_pairs(elements: &[Basic], op: Op, input: &[u8], inout: &mut [u8]) {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let mut at = 0usize;
    for pair in elements.chunks(2) {
        let (value, index) = (pair[0], pair[1]);
        let (vs, is) = (value.size() as usize, index.size() as usize);
        let a = &input[at..at + vs + is];
        let b = &mut inout[at..at + vs + is];
        let take_input = match (op, compare(value, &a[..vs], &b[..vs])) {
            (Op::Minloc, Less) | (Op::Maxloc, Greater) => true,
            (_, Equal) => compare(index, &a[vs..], &b[vs..]).is_lt(),
            _ => false,
        };
        if take_input {
            b.copy_from_slice(a);
        }
        at += vs + is;
    }
}

/// The order of two elements of `basic`.
fn compare(basic: Basic, a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    fn by<T: Number>(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
        T::read(a)
            .partial_cmp(&T::read(b))
            .unwrap_or(std::cmp::Ordering::Equal)
    }
    let info = basic.info();
    match (info.scalar, info.size) {
        (Scalar::Signed, 1) => by::<i8>(a, b),
        (Scalar::Signed, 2) => by::<i16>(a, b),
        (Scalar::Signed, 4) => by::<i32>(a, b),
        (Scalar::Signed, 8) => by::<i64>(a, b),
        (Scalar::Unsigned, 1) => by::<u8>(a, b),
        (Scalar::Unsigned, 2) => by::<u16>(a, b),
        (Scalar::Unsigned, 4) => by::<u32>(a, b),
        (Scalar::Unsigned, 8) => by::<u64>(a, b),
        (Scalar::Float, 4) => by::<f32>(a, b),
        (Scalar::Float, 8) => by::<f64>(a, b),
        #[cfg(target_arch = "x86_64")]
        (Scalar::X87Extended, 16) => by::<Extended>(a, b),
        _ => std::cmp::Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::construct;
    use crate::predefined;
    use std::sync::Arc;

    fn named(name: &str) -> Arc<Datatype> {
        construct::named(predefined::by_name(name).unwrap())
    }

    fn bytes<T: Copy>(values: &[T]) -> Vec<u8> {
        let size = std::mem::size_of_val(values);
        // SAFETY: plain numbers, read as their bytes.
        unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), size) }.to_vec()
    }

    #[test]
    fn operations_combine_each_element_of_the_signature() {
        let int = named("MPI_INT");
        let mut inout = bytes(&[5i32, -2, 7]);
        combine(Op::Sum, &int, 3, &bytes(&[1i32, 2, 3]), &mut inout).unwrap();
        assert_eq!(inout, bytes(&[6i32, 0, 10]));
        combine(Op::Max, &int, 3, &bytes(&[9i32, -9, 10]), &mut inout).unwrap();
        assert_eq!(inout, bytes(&[9i32, 0, 10]));
        combine(Op::Bxor, &int, 1, &bytes(&[3i32]), &mut inout[..4]).unwrap();
        assert_eq!(inout[..4], bytes(&[10i32])[..]);

        // A struct of a double and an int: each member by its own type.
        let double = named("MPI_DOUBLE");
        let pair = construct::contiguous(2, &double, false).unwrap();
        let mut inout = bytes(&[1.5f64, 2.0, 4.0, -1.0]);
        combine(
            Op::Prod,
            &pair,
            2,
            &bytes(&[2.0f64, 3.0, 0.5, 2.0]),
            &mut inout,
        )
        .unwrap();
        assert_eq!(inout, bytes(&[3.0f64, 6.0, 2.0, -2.0]));

        let complex = named("MPI_C_DOUBLE_COMPLEX");
        let mut inout = bytes(&[1.0f64, 2.0]);
        combine(Op::Prod, &complex, 1, &bytes(&[3.0f64, 4.0]), &mut inout).unwrap();
        assert_eq!(inout, bytes(&[-5.0f64, 10.0]));

        let boolean = named("MPI_C_BOOL");
        let mut inout = vec![1u8, 0, 1];
        combine(Op::Lxor, &boolean, 3, &[1, 1, 0], &mut inout).unwrap();
        assert_eq!(inout, [0, 1, 1]);
    }

    #[test]
    fn minloc_and_maxloc_keep_the_least_index_of_equal_values() {
        let double_int = named("MPI_DOUBLE_INT");
        let pairs = |v: &[(f64, i32)]| -> Vec<u8> {
            v.iter()
                .flat_map(|&(x, i)| bytes(&[x]).into_iter().chain(bytes(&[i])))
                .collect()
        };
        let mut inout = pairs(&[(1.0, 4), (2.0, 3), (5.0, 9)]);
        let input = pairs(&[(0.5, 7), (2.0, 1), (6.0, 2)]);
        combine(Op::Minloc, &double_int, 3, &input, &mut inout).unwrap();
        assert_eq!(inout, pairs(&[(0.5, 7), (2.0, 1), (5.0, 9)]));
        combine(
            Op::Maxloc,
            &double_int,
            3,
            &pairs(&[(9.0, 0), (2.0, 0), (1.0, 0)]),
            &mut inout,
        )
        .unwrap();
        assert_eq!(inout, pairs(&[(9.0, 0), (2.0, 0), (5.0, 9)]));
    }

    #[test]
    fn an_operation_the_standard_does_not_define_for_a_type_fails_and_writes_nothing() {
        let mut inout = vec![7u8; 4];
        for (op, name) in [
            (Op::Sum, "MPI_BYTE"),
            (Op::Band, "MPI_FLOAT"),
            (Op::Max, "MPI_C_DOUBLE_COMPLEX"),
            (Op::Minloc, "MPI_INT"),
            (Op::Sum, "MPIX_C_FLOAT16"),
        ] {
            let dt = named(name);
            let size = dt.size() as usize;
            let mut target = vec![7u8; size];
            let err = combine(op, &dt, 1, &vec![1u8; size], &mut target).unwrap_err();
            assert_eq!(err.class, ErrorClass::Op, "{op:?} on {name}");
            assert_eq!(target, vec![7u8; size]);
        }
        combine(Op::Replace, &named("MPI_INT"), 1, &[1, 2, 3, 4], &mut inout).unwrap();
        assert_eq!(inout, [1, 2, 3, 4]);
    }

    /// The 16 bytes of the `long double` of a small integer (the x87 layout: 64-bit
    /// mantissa with its integer bit, then the sign and 15-bit exponent).
    #[cfg(target_arch = "x86_64")]
    fn long_double(n: u64) -> [u8; 16] {
        let mut bytes = [0u8; 16];
        if n != 0 {
            let shift = n.leading_zeros();
            bytes[..8].copy_from_slice(&(n << shift).to_le_bytes());
            bytes[8..10].copy_from_slice(&(16383 + 63 - shift as u16).to_le_bytes());
        }
        bytes
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn long_doubles_are_summed_multiplied_and_ordered_by_the_x87_unit() {
        let dt = named("MPI_LONG_DOUBLE");
        let (two, three) = (long_double(2), long_double(3));
        let mut inout = three.to_vec();
        combine(Op::Sum, &dt, 1, &two, &mut inout).unwrap();
        assert_eq!(inout, long_double(5));
        combine(Op::Prod, &dt, 1, &two, &mut inout).unwrap();
        assert_eq!(inout, long_double(10));
        combine(Op::Max, &dt, 1, &three, &mut inout).unwrap();
        assert_eq!(inout, long_double(10));
        combine(Op::Min, &dt, 1, &three, &mut inout).unwrap();
        assert_eq!(inout, long_double(3));
        // MPI_C_LONG_DOUBLE_COMPLEX: (2 + 3i)(3 + 2i) = 0 + 13i
        let complex = named("MPI_C_LONG_DOUBLE_COMPLEX");
        let mut z = [three, two].concat();
        combine(Op::Prod, &complex, 1, &[two, three].concat(), &mut z).unwrap();
        assert_eq!(z, [long_double(0), long_double(13)].concat());
    }
}
