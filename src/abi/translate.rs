//! The core's values in this ABI's numbers, the same code for both ABIs (it names the
//! constants only): the handle of each predefined datatype ([`predefined_handle`]), the type
//! class of `MPI_Type_match_size` ([`class_of_typeclass`]), the omitted argument of
//! `MPI_Type_create_f90_*` ([`f90_type`]), and the combiners, orders, distributions and
//! default distribution argument ([`Numbers`]).
//!
//! The core ([`crate::datatype`]) knows a predefined type by its entry in
//! [`predefined::all`] and these values as Rust types; this is where they meet the C numbers.

use super::*;
use crate::datatype::numbering::{CombinerKind, Numbering};
use crate::datatype::{Distribution, F90Class, Order};
use crate::predefined::{self, Basic, Predefined};
use std::os::raw::c_int;
use std::sync::LazyLock;

/// `(name, handle)` of each constant named.
macro_rules! by_name {
    ($($name:ident),* $(,)?) => {
        vec![$((stringify!($name), $name)),*]
    };
}

/// The handle of each predefined datatype of this ABI, by the name the core knows it by.
fn handles_by_name() -> Vec<(&'static str, MPI_Datatype)> {
    by_name![
        MPI_CHAR,
        MPI_SIGNED_CHAR,
        MPI_UNSIGNED_CHAR,
        MPI_BYTE,
        MPI_WCHAR,
        MPI_SHORT,
        MPI_UNSIGNED_SHORT,
        MPI_INT,
        MPI_UNSIGNED,
        MPI_LONG,
        MPI_UNSIGNED_LONG,
        MPI_FLOAT,
        MPI_DOUBLE,
        MPI_LONG_DOUBLE,
        MPI_LONG_LONG_INT,
        MPI_UNSIGNED_LONG_LONG,
        MPI_PACKED,
        MPI_COMPLEX,
        MPI_DOUBLE_COMPLEX,
        MPI_LOGICAL,
        MPI_REAL,
        MPI_DOUBLE_PRECISION,
        MPI_INTEGER,
        MPI_CHARACTER,
        MPI_REAL4,
        MPI_REAL8,
        MPI_REAL16,
        MPI_COMPLEX8,
        MPI_COMPLEX16,
        MPI_COMPLEX32,
        MPI_INTEGER1,
        MPI_INTEGER2,
        MPI_INTEGER4,
        MPI_INTEGER8,
        MPI_INT8_T,
        MPI_INT16_T,
        MPI_INT32_T,
        MPI_INT64_T,
        MPI_UINT8_T,
        MPI_UINT16_T,
        MPI_UINT32_T,
        MPI_UINT64_T,
        MPI_C_BOOL,
        MPI_C_COMPLEX,
        MPI_C_DOUBLE_COMPLEX,
        MPI_C_LONG_DOUBLE_COMPLEX,
        MPIX_C_FLOAT16,
        MPI_AINT,
        MPI_OFFSET,
        MPI_COUNT,
        MPI_CXX_BOOL,
        MPI_CXX_FLOAT_COMPLEX,
        MPI_CXX_DOUBLE_COMPLEX,
        MPI_CXX_LONG_DOUBLE_COMPLEX,
        MPI_FLOAT_INT,
        MPI_DOUBLE_INT,
        MPI_LONG_INT,
        MPI_SHORT_INT,
        MPI_2INT,
        MPI_LONG_DOUBLE_INT,
        MPI_2INTEGER,
        MPI_2REAL,
        MPI_2DOUBLE_PRECISION,
    ]
}

/// The legacy bound markers of MPI-1, which MPICH's ABI and Open MPI's have (the standard ABI
/// has none).
fn markers_by_name() -> Vec<(&'static str, MPI_Datatype)> {
    #[cfg(not(abi = "standard"))]
    return by_name![MPI_LB, MPI_UB];
    #[cfg(abi = "standard")]
    return Vec::new();
}

/// The handle of the predefined datatype `p` in this ABI; `None` for one the ABI has none for
/// (the bound markers in the standard ABI).
pub fn predefined_handle(p: &Predefined) -> Option<MPI_Datatype> {
    static BY_INDEX: LazyLock<Vec<Option<MPI_Datatype>>> = LazyLock::new(|| {
        let table: Vec<_> = handles_by_name()
            .into_iter()
            .chain(markers_by_name())
            .collect();
        predefined::all()
            .iter()
            .map(|p| {
                table
                    .iter()
                    .find(|&&(name, _)| name == p.name)
                    .map(|&(_, h)| h)
            })
            .collect()
    });
    BY_INDEX.get(p.index).copied().flatten()
}

/// The handle of the basic type `basic` (every basic type has one in both ABIs).
pub fn basic_handle(basic: Basic) -> MPI_Datatype {
    predefined_handle(basic.predefined()).unwrap_or(MPI_DATATYPE_NULL)
}

/// The type class an `MPI_TYPECLASS_*` value names.
pub fn class_of_typeclass(value: c_int) -> Option<F90Class> {
    match value {
        MPI_TYPECLASS_INTEGER => Some(F90Class::Integer),
        MPI_TYPECLASS_REAL => Some(F90Class::Real),
        MPI_TYPECLASS_COMPLEX => Some(F90Class::Complex),
        _ => None,
    }
}

/// The handle of the named type `MPI_Type_create_f90_*` of `class` selects for `p` and `r`
/// (either `None` when omitted), as [`predefined::f90_select`] chooses it.
pub fn f90_type(class: F90Class, p: Option<c_int>, r: Option<c_int>) -> Option<MPI_Datatype> {
    predefined::f90_select(class, p, r).map(basic_handle)
}

/// This ABI's numbers for the core's combiners, orders, distributions and default
/// distribution argument.
pub struct Numbers;

impl Numbering for Numbers {
    const DEFAULT_DARG: i32 = MPI_DISTRIBUTE_DFLT_DARG;
    const UNDEFINED: i32 = MPI_UNDEFINED;

    fn combiner(kind: CombinerKind) -> i32 {
        match kind {
            CombinerKind::Named => MPI_COMBINER_NAMED,
            CombinerKind::Dup => MPI_COMBINER_DUP,
            CombinerKind::Contiguous => MPI_COMBINER_CONTIGUOUS,
            CombinerKind::Vector => MPI_COMBINER_VECTOR,
            CombinerKind::Hvector => MPI_COMBINER_HVECTOR,
            CombinerKind::Indexed => MPI_COMBINER_INDEXED,
            CombinerKind::Hindexed => MPI_COMBINER_HINDEXED,
            CombinerKind::IndexedBlock => MPI_COMBINER_INDEXED_BLOCK,
            CombinerKind::HindexedBlock => MPI_COMBINER_HINDEXED_BLOCK,
            CombinerKind::Struct => MPI_COMBINER_STRUCT,
            CombinerKind::Subarray => MPI_COMBINER_SUBARRAY,
            CombinerKind::Darray => MPI_COMBINER_DARRAY,
            CombinerKind::Resized => MPI_COMBINER_RESIZED,
            CombinerKind::F90Integer => MPI_COMBINER_F90_INTEGER,
            CombinerKind::F90Real => MPI_COMBINER_F90_REAL,
            CombinerKind::F90Complex => MPI_COMBINER_F90_COMPLEX,
        }
    }

    fn order(order: Order) -> i32 {
        match order {
            Order::C => MPI_ORDER_C,
            Order::Fortran => MPI_ORDER_FORTRAN,
        }
    }

    fn distribution(distribution: Distribution) -> i32 {
        match distribution {
            Distribution::Block => MPI_DISTRIBUTE_BLOCK,
            Distribution::Cyclic => MPI_DISTRIBUTE_CYCLIC,
            Distribution::None => MPI_DISTRIBUTE_NONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::PredefinedKind;

    /// Every predefined type of the core but the bound markers has a handle in both ABIs, no
    /// two the same, and every name of the table names one of the core's types.
    #[test]
    fn every_predefined_type_has_its_own_handle() {
        let mut handles = Vec::new();
        for p in predefined::all() {
            let marker = matches!(p.kind, PredefinedKind::LbMarker | PredefinedKind::UbMarker);
            match predefined_handle(p) {
                Some(handle) => handles.push(handle_bits(handle)),
                None => assert!(marker && cfg!(abi = "standard"), "{}", p.name),
            }
        }
        let n = handles.len();
        handles.sort();
        handles.dedup();
        assert_eq!(handles.len(), n);
        assert_eq!(handles_by_name().len() + markers_by_name().len(), n);
    }
}
