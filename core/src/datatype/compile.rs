//! Compiles a datatype into its pack plan when the type is made: each constructor becomes a
//! node built from its children's plans (compiled when they were made) by the smart
//! constructors of [`crate::plan::compile`], which keep the plan normalised.

use super::{Combiner, PredefinedKind};
use crate::plan::compile::{blocks, copies_of, sequence, strided};
use crate::plan::node::{Counts, Node};
use crate::plan::Plan;
use crate::predefined::pair_offset;

/// Stack kept free before compiling one more level of a deeply nested type.
const STACK_RED_ZONE: usize = 64 * 1024;
/// Stack allocated when compiling a deep type needs more.
const STACK_GROWTH: usize = 1024 * 1024;

/// The plan of a type made by `combiner` whose extent is `extent`: compiled when the type is
/// made, from the plans of its children (compiled when they were made).
pub fn plan(combiner: &Combiner, extent: i64) -> Plan {
    Plan::new(
        stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || root(combiner)),
        extent,
    )
}

/// The node of one copy of the type `combiner` makes, placed at displacement 0.
fn root(combiner: &Combiner) -> Node {
    match combiner {
        Combiner::Named(p) => match p.kind {
            PredefinedKind::Basic(b) => Node::Run {
                disp: 0,
                len: b.size(),
            },
            PredefinedKind::Pair(a, b) => sequence(vec![
                Node::Run {
                    disp: 0,
                    len: a.size(),
                },
                Node::Run {
                    disp: pair_offset(a, b),
                    len: b.size(),
                },
            ]),
            PredefinedKind::LbMarker | PredefinedKind::UbMarker => Node::EMPTY,
        },
        Combiner::Dup(old) | Combiner::Resized { old, .. } | Combiner::F90 { base: old, .. } => {
            old.plan.root().clone()
        }
        Combiner::Subarray { realized, .. } | Combiner::Darray { realized, .. } => {
            realized.plan.root().clone()
        }
        Combiner::Contiguous { count, old } => copies_of(*count, old.extent(), &old.plan),
        Combiner::Vector {
            count,
            blocklength,
            stride,
            old,
        } => strided(
            *count,
            stride.wrapping_mul(old.extent()),
            *blocklength,
            &old.plan,
        ),
        Combiner::Hvector {
            count,
            blocklength,
            stride,
            old,
        } => strided(*count, *stride, *blocklength, &old.plan),
        Combiner::Indexed {
            blocklengths,
            displacements,
            old,
        } => blocks(
            displacements,
            old.extent(),
            Counts::PerBlock(blocklengths.clone()),
            &old.plan,
        ),
        Combiner::Hindexed {
            blocklengths,
            displacements,
            old,
        } => blocks(
            displacements,
            1,
            Counts::PerBlock(blocklengths.clone()),
            &old.plan,
        ),
        Combiner::IndexedBlock {
            blocklength,
            displacements,
            old,
        } => blocks(
            displacements,
            old.extent(),
            Counts::Uniform(*blocklength),
            &old.plan,
        ),
        Combiner::HindexedBlock {
            blocklength,
            displacements,
            old,
        } => blocks(displacements, 1, Counts::Uniform(*blocklength), &old.plan),
        Combiner::Struct {
            blocklengths,
            displacements,
            types,
        } => sequence(
            blocklengths
                .iter()
                .zip(displacements)
                .zip(types)
                .map(|((&b, &d), t)| copies_of(b, t.extent(), &t.plan).shifted(d))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::datatype::construct;
    use crate::predefined;

    /// Vectors and subarrays of a contiguous type are strided plans; indexed and struct
    /// layouts, and vectors of them, are not.
    #[test]
    fn strided_plans_are_the_regular_layouts() {
        let double = construct::named(predefined::by_name("MPI_DOUBLE").unwrap());
        let int = construct::named(predefined::by_name("MPI_INT").unwrap());
        let row = construct::contiguous(5, &double, false).unwrap();
        let column = construct::vector(64, 1, 130, false, &double, false).unwrap();
        let face = construct::vector(64, 1, 68_640, true, &column, false).unwrap();
        let gather = construct::indexed_block(1, vec![9, 2, 40], false, &double, false).unwrap();
        let pair =
            construct::structure(vec![1, 1], vec![0, 8], vec![int, double.clone()], false).unwrap();
        let vector_of_pairs = construct::vector(8, 1, 4, false, &pair, false).unwrap();
        for (name, datatype, strided) in [
            ("contiguous", &row, true),
            ("vector", &column, true),
            ("hvector of vectors", &face, true),
            ("indexed block", &gather, false),
            ("struct", &pair, false),
            ("vector of structs", &vector_of_pairs, false),
        ] {
            assert_eq!(datatype.plan.strided(), strided, "{name}");
        }
    }

    /// A strided plan goes forward when every repeat places each part after the whole of the
    /// one before: not with a negative stride, nor with blocks that overlap.
    #[test]
    fn forward_strided_plans_keep_their_bytes_in_order() {
        let char_ = construct::named(predefined::by_name("MPI_CHAR").unwrap());
        let double = construct::named(predefined::by_name("MPI_DOUBLE").unwrap());
        let column = construct::vector(64, 1, 130, false, &double, false).unwrap();
        let face = construct::vector(64, 1, 68_640, true, &column, false).unwrap();
        let backwards = construct::vector(2, 1, -1, true, &char_, false).unwrap();
        let overlapping = construct::vector(4, 3, 2, false, &double, false).unwrap();
        let gather = construct::indexed_block(1, vec![9, 2, 40], false, &double, false).unwrap();
        for (name, datatype, forward) in [
            ("vector", &column, true),
            ("hvector of vectors", &face, true),
            ("hvector of stride -1", &backwards, false),
            ("vector of overlapping blocks", &overlapping, false),
            ("indexed block", &gather, false),
        ] {
            assert_eq!(datatype.plan.strided_forward(), forward, "{name}");
        }
    }
}
