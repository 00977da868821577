//! The integers that stand for the core's values where they meet C: the combiner decoding
//! reports, and the order, distributions and distribution arguments among the integers of
//! `MPI_Type_get_contents` and of the subarray and darray constructors.
//!
//! Each ABI numbers them its own way (`MPI_ORDER_C` is 56 in MPICH's and 12 in the standard's),
//! so the core names them through [`Numbering`] only, which each ABI implements
//! (the ABI layer's `Numbers`); the functions here read an ABI's integers back into the core's
//! values.

use super::{Distribution, Order};
use crate::error::{Error, Result};

/// The constructor a datatype was made by, as decoding reports it (`MPI_COMBINER_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CombinerKind {
    /// A named predefined datatype.
    Named,
    /// `MPI_Type_dup`.
    Dup,
    /// `MPI_Type_contiguous`.
    Contiguous,
    /// `MPI_Type_vector`.
    Vector,
    /// `MPI_Type_create_hvector`.
    Hvector,
    /// `MPI_Type_indexed`.
    Indexed,
    /// `MPI_Type_create_hindexed`.
    Hindexed,
    /// `MPI_Type_create_indexed_block`.
    IndexedBlock,
    /// `MPI_Type_create_hindexed_block`.
    HindexedBlock,
    /// `MPI_Type_create_struct`.
    Struct,
    /// `MPI_Type_create_subarray`.
    Subarray,
    /// `MPI_Type_create_darray`.
    Darray,
    /// `MPI_Type_create_resized`.
    Resized,
    /// `MPI_Type_create_f90_integer`.
    F90Integer,
    /// `MPI_Type_create_f90_real`.
    F90Real,
    /// `MPI_Type_create_f90_complex`.
    F90Complex,
}

impl CombinerKind {
    /// Every kind.
    pub const ALL: [CombinerKind; 16] = [
        CombinerKind::Named,
        CombinerKind::Dup,
        CombinerKind::Contiguous,
        CombinerKind::Vector,
        CombinerKind::Hvector,
        CombinerKind::Indexed,
        CombinerKind::Hindexed,
        CombinerKind::IndexedBlock,
        CombinerKind::HindexedBlock,
        CombinerKind::Struct,
        CombinerKind::Subarray,
        CombinerKind::Darray,
        CombinerKind::Resized,
        CombinerKind::F90Integer,
        CombinerKind::F90Real,
        CombinerKind::F90Complex,
    ];

    /// The name of the constructor, as in `MPI_COMBINER_*` without the prefix.
    pub fn name(self) -> &'static str {
        match self {
            CombinerKind::Named => "NAMED",
            CombinerKind::Dup => "DUP",
            CombinerKind::Contiguous => "CONTIGUOUS",
            CombinerKind::Vector => "VECTOR",
            CombinerKind::Hvector => "HVECTOR",
            CombinerKind::Indexed => "INDEXED",
            CombinerKind::Hindexed => "HINDEXED",
            CombinerKind::IndexedBlock => "INDEXED_BLOCK",
            CombinerKind::HindexedBlock => "HINDEXED_BLOCK",
            CombinerKind::Struct => "STRUCT",
            CombinerKind::Subarray => "SUBARRAY",
            CombinerKind::Darray => "DARRAY",
            CombinerKind::Resized => "RESIZED",
            CombinerKind::F90Integer => "F90_INTEGER",
            CombinerKind::F90Real => "F90_REAL",
            CombinerKind::F90Complex => "F90_COMPLEX",
        }
    }
}

/// How an ABI numbers the core's values in C's integers.
pub trait Numbering {
    /// `MPI_DISTRIBUTE_DFLT_DARG`: the distribution argument that asks for the default.
    const DEFAULT_DARG: i32;
    /// `MPI_UNDEFINED`: an argument not given (`p` and `r` of the f90 types).
    const UNDEFINED: i32;
    /// The `MPI_COMBINER_*` value of `kind`.
    fn combiner(kind: CombinerKind) -> i32;
    /// `MPI_ORDER_C` or `MPI_ORDER_FORTRAN`.
    fn order(order: Order) -> i32;
    /// `MPI_DISTRIBUTE_BLOCK`, `MPI_DISTRIBUTE_CYCLIC` or `MPI_DISTRIBUTE_NONE`.
    fn distribution(distribution: Distribution) -> i32;

    /// The integer of a distribution argument: [`Self::DEFAULT_DARG`] for the default
    /// (`None`), else the argument itself.
    fn darg(darg: Option<i32>) -> i32 {
        darg.unwrap_or(Self::DEFAULT_DARG)
    }

    /// The integer of an argument that may be undefined: [`Self::UNDEFINED`] for `None`.
    fn undefined(value: Option<i32>) -> i32 {
        value.unwrap_or(Self::UNDEFINED)
    }

    /// The argument an integer stands for: `None` for [`Self::UNDEFINED`].
    fn given(value: i32) -> Option<i32> {
        (value != Self::UNDEFINED).then_some(value)
    }
}

/// The combiner kind an `MPI_COMBINER_*` value of `N` names.
pub fn combiner<N: Numbering>(value: i32) -> Option<CombinerKind> {
    CombinerKind::ALL
        .into_iter()
        .find(|&kind| N::combiner(kind) == value)
}

/// The order an `MPI_ORDER_*` value of `N` names.
pub fn order<N: Numbering>(value: i64) -> Result<Order> {
    [Order::C, Order::Fortran]
        .into_iter()
        .find(|&order| i64::from(N::order(order)) == value)
        .ok_or_else(|| {
            Error::arg(format!(
                "order {value} is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN"
            ))
        })
}

/// The distribution an `MPI_DISTRIBUTE_*` value of `N` names (`dim` for the message).
pub fn distribution<N: Numbering>(value: i64, dim: usize) -> Result<Distribution> {
    [
        Distribution::Block,
        Distribution::Cyclic,
        Distribution::None,
    ]
    .into_iter()
    .find(|&distribution| i64::from(N::distribution(distribution)) == value)
    .ok_or_else(|| {
        Error::arg(format!(
            "array_of_distribs[{dim}] = {value} is not a distribution"
        ))
    })
}

/// The distribution argument a C integer of `N` stands for: `None` for
/// [`Numbering::DEFAULT_DARG`], else the integer itself.
pub fn darg<N: Numbering>(value: i32) -> Option<i32> {
    (value != N::DEFAULT_DARG).then_some(value)
}

/// A numbering of the core's own tests, unlike either ABI's.
#[cfg(test)]
pub(crate) struct TestNumbering;

#[cfg(test)]
impl Numbering for TestNumbering {
    const DEFAULT_DARG: i32 = -7;
    const UNDEFINED: i32 = -9;
    fn combiner(kind: CombinerKind) -> i32 {
        1000 + kind as i32
    }
    fn order(order: Order) -> i32 {
        order as i32 + 10
    }
    fn distribution(distribution: Distribution) -> i32 {
        distribution as i32 + 20
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back() {
        for kind in CombinerKind::ALL {
            let value = TestNumbering::combiner(kind);
            assert_eq!(combiner::<TestNumbering>(value), Some(kind));
        }
        assert_eq!(order::<TestNumbering>(11).unwrap(), Order::Fortran);
        assert!(order::<TestNumbering>(12).is_err());
        assert_eq!(
            distribution::<TestNumbering>(22, 0).unwrap(),
            Distribution::None
        );
        assert_eq!(darg::<TestNumbering>(-7), None);
        assert_eq!(darg::<TestNumbering>(3), Some(3));
        assert_eq!(TestNumbering::darg(None), -7);
    }
}
