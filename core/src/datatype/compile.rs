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
