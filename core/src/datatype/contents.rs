//! Decoding: the arguments of the constructor that made a datatype, laid out as
//! `MPI_Type_get_envelope` / `MPI_Type_get_contents` return them (the table of MPI-4.1
//! §5.1.13); types made by `_c` constructors report their counts as large counts. Only the
//! constructor itself is decoded (its children are not visited), so decoding costs the same
//! at any depth. One walk over the arguments ([`decode`]) feeds either the arrays
//! ([`contents`]) or their lengths alone ([`envelope`]), which copies nothing, however many
//! blocks the type has.
//!
//! The combiner is reported as a [`CombinerKind`]; the integers that stand for an order, a
//! distribution or a distribution argument are written as the ABI `N` numbers them
//! ([`Numbering`]).

use super::numbering::{CombinerKind, Numbering};
use super::{Combiner, Datatype, F90Class};
use std::sync::Arc;

/// Where the decoded arguments of a constructor go, each kind as a list of slices in order.
pub trait Sink {
    /// Parts of `array_of_integers`.
    fn ints(&mut self, parts: &[&[i64]]);
    /// Parts of `array_of_addresses`.
    fn addresses(&mut self, parts: &[&[i64]]);
    /// Parts of `array_of_large_counts`.
    fn large_counts(&mut self, parts: &[&[i64]]);
    /// `array_of_datatypes`.
    fn types(&mut self, types: &[Arc<Datatype>]);
}

/// The decoded arguments of one constructor call.
pub struct Contents {
    /// The combiner.
    pub combiner: CombinerKind,
    /// `array_of_integers`.
    pub ints: Vec<i64>,
    /// `array_of_addresses`.
    pub addresses: Vec<i64>,
    /// `array_of_large_counts`.
    pub large_counts: Vec<i64>,
    /// `array_of_datatypes`.
    pub types: Vec<Arc<Datatype>>,
}

impl Sink for Contents {
    fn ints(&mut self, parts: &[&[i64]]) {
        self.ints = parts.concat();
    }
    fn addresses(&mut self, parts: &[&[i64]]) {
        self.addresses = parts.concat();
    }
    fn large_counts(&mut self, parts: &[&[i64]]) {
        self.large_counts = parts.concat();
    }
    fn types(&mut self, types: &[Arc<Datatype>]) {
        self.types = types.to_vec();
    }
}

/// What `MPI_Type_get_envelope` reports: the combiner and the length of each array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Envelope {
    /// The combiner.
    pub combiner: CombinerKind,
    /// Length of `array_of_integers`.
    pub ints: i64,
    /// Length of `array_of_addresses`.
    pub addresses: i64,
    /// Length of `array_of_large_counts`.
    pub large_counts: i64,
    /// Length of `array_of_datatypes`.
    pub types: i64,
}

fn total(parts: &[&[i64]]) -> i64 {
    parts.iter().map(|p| p.len() as i64).sum()
}

impl Sink for Envelope {
    fn ints(&mut self, parts: &[&[i64]]) {
        self.ints = total(parts);
    }
    fn addresses(&mut self, parts: &[&[i64]]) {
        self.addresses = total(parts);
    }
    fn large_counts(&mut self, parts: &[&[i64]]) {
        self.large_counts = total(parts);
    }
    fn types(&mut self, types: &[Arc<Datatype>]) {
        self.types = types.len() as i64;
    }
}

/// The arguments of the constructor of `dt`, laid out as `MPI_Type_get_contents` returns
/// them, in the numbering `N`.
pub fn contents<N: Numbering>(dt: &Datatype) -> Contents {
    let mut c = Contents {
        combiner: dt.combiner.kind(),
        ints: Vec::new(),
        addresses: Vec::new(),
        large_counts: Vec::new(),
        types: Vec::new(),
    };
    decode::<N>(dt, &mut c);
    c
}

/// The combiner and array lengths of the constructor of `dt` (`MPI_Type_get_envelope`).
pub fn envelope(dt: &Datatype) -> Envelope {
    let mut e = Envelope {
        combiner: dt.combiner.kind(),
        ints: 0,
        addresses: 0,
        large_counts: 0,
        types: 0,
    };
    // The lengths do not depend on how the integers are numbered.
    decode::<Lengths>(dt, &mut e);
    e
}

/// A numbering for counting only, whose numbers nobody reads.
struct Lengths;

impl Numbering for Lengths {
    const DEFAULT_DARG: i32 = 0;
    const UNDEFINED: i32 = 0;
    fn combiner(_: CombinerKind) -> i32 {
        0
    }
    fn order(_: super::Order) -> i32 {
        0
    }
    fn distribution(_: super::Distribution) -> i32 {
        0
    }
}

impl Combiner {
    /// The kind of constructor this is.
    pub fn kind(&self) -> CombinerKind {
        match self {
            Combiner::Named(_) => CombinerKind::Named,
            Combiner::Dup(_) => CombinerKind::Dup,
            Combiner::Contiguous { .. } => CombinerKind::Contiguous,
            Combiner::Vector { .. } => CombinerKind::Vector,
            Combiner::Hvector { .. } => CombinerKind::Hvector,
            Combiner::Indexed { .. } => CombinerKind::Indexed,
            Combiner::Hindexed { .. } => CombinerKind::Hindexed,
            Combiner::IndexedBlock { .. } => CombinerKind::IndexedBlock,
            Combiner::HindexedBlock { .. } => CombinerKind::HindexedBlock,
            Combiner::Struct { .. } => CombinerKind::Struct,
            Combiner::Subarray { .. } => CombinerKind::Subarray,
            Combiner::Darray { .. } => CombinerKind::Darray,
            Combiner::Resized { .. } => CombinerKind::Resized,
            Combiner::F90 { class, .. } => match class {
                F90Class::Integer => CombinerKind::F90Integer,
                F90Class::Real => CombinerKind::F90Real,
                F90Class::Complex => CombinerKind::F90Complex,
            },
        }
    }
}

/// Feeds the arguments of the constructor of `dt` to `out`, numbered as `N` numbers them.
/// Integer arguments are integers for ordinary constructors and large counts for `_c` ones;
/// byte displacements are addresses for ordinary constructors and large counts for `_c` ones.
pub fn decode<N: Numbering>(dt: &Datatype, out: &mut impl Sink) {
    let large = dt.large_count;
    let counts = |out: &mut dyn Sink, parts: &[&[i64]]| match large {
        true => out.large_counts(parts),
        false => out.ints(parts),
    };
    let with_addresses = |out: &mut dyn Sink, ints: &[&[i64]], addresses: &[i64]| {
        if large {
            out.large_counts(&[ints, &[addresses]].concat());
        } else {
            out.ints(ints);
            out.addresses(&[addresses]);
        }
    };
    let order_value = |order| i64::from(N::order(order));
    match &dt.combiner {
        Combiner::Named(_) => {}
        Combiner::Dup(old) => {
            out.types(std::slice::from_ref(old));
        }
        Combiner::Contiguous { count, old } => {
            counts(out, &[&[*count]]);
            out.types(std::slice::from_ref(old));
        }
        Combiner::Vector {
            count,
            blocklength,
            stride,
            old,
        } => {
            counts(out, &[&[*count, *blocklength, *stride]]);
            out.types(std::slice::from_ref(old));
        }
        Combiner::Hvector {
            count,
            blocklength,
            stride,
            old,
        } => {
            with_addresses(out, &[&[*count, *blocklength]], &[*stride]);
            out.types(std::slice::from_ref(old));
        }
        Combiner::Indexed {
            blocklengths,
            displacements,
            old,
        } => {
            let n = [blocklengths.len() as i64];
            counts(out, &[&n, blocklengths, displacements]);
            out.types(std::slice::from_ref(old));
        }
        Combiner::Hindexed {
            blocklengths,
            displacements,
            old,
        } => {
            let n = [blocklengths.len() as i64];
            with_addresses(out, &[&n, blocklengths], displacements);
            out.types(std::slice::from_ref(old));
        }
        Combiner::IndexedBlock {
            blocklength,
            displacements,
            old,
        } => {
            let head = [displacements.len() as i64, *blocklength];
            counts(out, &[&head, displacements]);
            out.types(std::slice::from_ref(old));
        }
        Combiner::HindexedBlock {
            blocklength,
            displacements,
            old,
        } => {
            let head = [displacements.len() as i64, *blocklength];
            with_addresses(out, &[&head], displacements);
            out.types(std::slice::from_ref(old));
        }
        Combiner::Struct {
            blocklengths,
            displacements,
            types,
        } => {
            let n = [blocklengths.len() as i64];
            with_addresses(out, &[&n, blocklengths], displacements);
            out.types(types);
        }
        Combiner::Subarray { shape, old, .. } => {
            let (sizes, subsizes, starts) = (&shape.sizes, &shape.subsizes, &shape.starts);
            let (ndims, order) = ([sizes.len() as i64], [order_value(shape.order)]);
            if large {
                out.ints(&[&ndims, &order]);
                out.large_counts(&[sizes, subsizes, starts]);
            } else {
                out.ints(&[&ndims, sizes, subsizes, starts, &order]);
            }
            out.types(std::slice::from_ref(old));
        }
        Combiner::Darray { args, old, .. } => {
            let widen = |v: &[i32]| v.iter().map(|&x| x as i64).collect::<Vec<_>>();
            let distribs: Vec<i64> = args
                .distribs
                .iter()
                .map(|&d| i64::from(N::distribution(d)))
                .collect();
            let head = [args.size as i64, args.rank as i64, args.gsizes.len() as i64];
            let dargs: Vec<i64> = args.dargs.iter().map(|&d| i64::from(N::darg(d))).collect();
            let psizes = widen(&args.psizes);
            let order = [order_value(args.order)];
            if large {
                out.ints(&[&head, &distribs, &dargs, &psizes, &order]);
                out.large_counts(&[&args.gsizes]);
            } else {
                out.ints(&[&head, &args.gsizes, &distribs, &dargs, &psizes, &order]);
            }
            out.types(std::slice::from_ref(old));
        }
        Combiner::Resized { lb, extent, old } => {
            with_addresses(out, &[], &[*lb, *extent]);
            out.types(std::slice::from_ref(old));
        }
        // "MPI_COMBINER_F90_REAL: p, r" and likewise for complex; "MPI_COMBINER_F90_INTEGER:
        // r" (MPI-4.1 §5.1.13). The type the arguments select is not a child: nd is 0.
        Combiner::F90 {
            class,
            precision,
            range,
            ..
        } => match class {
            F90Class::Integer => {
                out.ints(&[&[N::undefined(*range).into()]]);
            }
            F90Class::Real | F90Class::Complex => {
                out.ints(&[&[N::undefined(*precision).into(), N::undefined(*range).into()]]);
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::construct;
    use crate::predefined;

    fn int() -> Arc<Datatype> {
        construct::named(predefined::by_name("MPI_INT").unwrap())
    }

    /// The envelope counts exactly the arrays of the contents, for each kind of constructor,
    /// ordinary and large-count.
    #[test]
    fn envelope_counts_the_contents() {
        let t = int();
        for large in [false, true] {
            let made = [
                construct::contiguous(3, &t, large).unwrap(),
                construct::vector(2, 3, 4, true, &t, large).unwrap(),
                construct::indexed(vec![1, 2], vec![0, 5], true, &t, large).unwrap(),
                construct::indexed_block(2, vec![0, 9, 20], false, &t, large).unwrap(),
                construct::structure(vec![1, 1], vec![0, 8], vec![t.clone(), t.clone()], large)
                    .unwrap(),
                construct::resized(&t, -4, 16, large).unwrap(),
            ];
            for dt in made {
                let (c, e) = (
                    contents::<crate::datatype::numbering::TestNumbering>(&dt),
                    envelope(&dt),
                );
                let lengths = (
                    c.ints.len(),
                    c.addresses.len(),
                    c.large_counts.len(),
                    c.types.len(),
                );
                let counted = (
                    e.ints as usize,
                    e.addresses as usize,
                    e.large_counts as usize,
                    e.types as usize,
                );
                assert_eq!((c.combiner, lengths), (e.combiner, counted), "{dt:?}");
            }
        }
    }
}
