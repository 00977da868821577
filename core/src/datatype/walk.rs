//! Walks a datatype's type map in order, reporting byte runs or basic entries, without
//! materialising the type map. Dense sub-types are reported as one run. Signatures
//! ([`crate::datatype::signature`]) and external32 ([`crate::pack::external32`]) are built on it,
//! and the tests check the compiled plans against it.

use crate::datatype::{Basic, Combiner, Datatype, PredefinedKind};
use crate::predefined::pair_offset;
use std::ops::ControlFlow;

/// What a visitor of the walk returns: `Break` stops it.
pub type Flow = ControlFlow<()>;

/// Goes on walking.
pub const GO_ON: Flow = ControlFlow::Continue(());

/// What the walk reports at a displacement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// A run of this many bytes that are copied as they are.
    Run(i64),
    /// One basic entry (reported only when basic entries are asked for).
    Basic(Basic),
}

/// Reports the pieces of one copy of `dt` placed at byte offset `base`, in type-map order,
/// until `f` breaks (then returns `Break`). With `basics == false`, dense sub-types come as
/// single runs and basic entries as runs of their size; with `basics == true`, every basic
/// entry is reported as [`Piece::Basic`]. Parts without data are skipped unvisited, so
/// stopping after the first pieces of a type of 10^9 entries costs only those pieces.
pub fn walk(dt: &Datatype, base: i64, basics: bool, f: &mut dyn FnMut(i64, Piece) -> Flow) -> Flow {
    // The stack grows with the nesting of constructors only: a named type is a leaf, walked
    // without the check (it is the one met once per element).
    match dt.combiner {
        Combiner::Named(_) => walk_here(dt, base, basics, f),
        _ => stacker::maybe_grow(64 * 1024, 1024 * 1024, || walk_here(dt, base, basics, f)),
    }
}

fn walk_here(
    dt: &Datatype,
    base: i64,
    basics: bool,
    f: &mut dyn FnMut(i64, Piece) -> Flow,
) -> Flow {
    let layout = &dt.layout;
    if layout.size == 0 {
        return GO_ON;
    }
    if !basics && layout.dense {
        return f(base.wrapping_add(layout.true_lb()), Piece::Run(layout.size));
    }
    let mut leaf = |disp: i64, b: Basic| {
        if basics {
            f(disp, Piece::Basic(b))
        } else {
            f(disp, Piece::Run(b.size()))
        }
    };
    match &dt.combiner {
        Combiner::Named(p) => match p.kind {
            PredefinedKind::Basic(b) => leaf(base, b),
            PredefinedKind::Pair(a, b) => {
                leaf(base, a)?;
                leaf(base.wrapping_add(pair_offset(a, b)), b)
            }
            PredefinedKind::LbMarker | PredefinedKind::UbMarker => GO_ON,
        },
        Combiner::Dup(old) | Combiner::Resized { old, .. } | Combiner::F90 { base: old, .. } => {
            walk(old, base, basics, f)
        }
        Combiner::Subarray { realized, .. } | Combiner::Darray { realized, .. } => {
            walk(realized, base, basics, f)
        }
        Combiner::Contiguous { count, old } => strided(old, base, 1, 0, *count, basics, f),
        Combiner::Vector {
            count,
            blocklength,
            stride,
            old,
        } => {
            let step = stride.wrapping_mul(old.extent());
            strided(old, base, *count, step, *blocklength, basics, f)
        }
        Combiner::Hvector {
            count,
            blocklength,
            stride,
            old,
        } => strided(old, base, *count, *stride, *blocklength, basics, f),
        Combiner::Indexed {
            blocklengths,
            displacements,
            old,
        }
        | Combiner::Hindexed {
            blocklengths,
            displacements,
            old,
        } => {
            let unit = displacement_unit(&dt.combiner, old);
            for (&b, &d) in blocklengths.iter().zip(displacements) {
                strided(
                    old,
                    base.wrapping_add(d.wrapping_mul(unit)),
                    1,
                    0,
                    b,
                    basics,
                    f,
                )?;
            }
            GO_ON
        }
        Combiner::IndexedBlock {
            blocklength,
            displacements,
            old,
        }
        | Combiner::HindexedBlock {
            blocklength,
            displacements,
            old,
        } => {
            let unit = displacement_unit(&dt.combiner, old);
            for &d in displacements {
                let start = base.wrapping_add(d.wrapping_mul(unit));
                strided(old, start, 1, 0, *blocklength, basics, f)?;
            }
            GO_ON
        }
        Combiner::Struct {
            blocklengths,
            displacements,
            types,
        } => {
            for ((&b, &d), t) in blocklengths.iter().zip(displacements).zip(types) {
                strided(t, base.wrapping_add(d), 1, 0, b, basics, f)?;
            }
            GO_ON
        }
    }
}

/// Bytes per displacement unit of an indexed-family combiner: the old type's extent for
/// `Indexed` and `IndexedBlock`, one byte for their `H` variants.
fn displacement_unit(combiner: &Combiner, old: &Datatype) -> i64 {
    match combiner {
        Combiner::Indexed { .. } | Combiner::IndexedBlock { .. } => old.extent(),
        _ => 1,
    }
}

/// `count` blocks `step` bytes apart, each of `blocklength` consecutive copies of `old`.
fn strided(
    old: &Datatype,
    base: i64,
    count: i64,
    step: i64,
    blocklength: i64,
    basics: bool,
    f: &mut dyn FnMut(i64, Piece) -> Flow,
) -> Flow {
    let ex = old.extent();
    // A block of consecutive copies of a dense type whose copies abut is one run.
    let block_is_run = !basics && old.layout.dense && ex == old.layout.size;
    for i in 0..count {
        let start = base.wrapping_add(i.wrapping_mul(step));
        if block_is_run && blocklength > 0 && old.layout.size > 0 {
            f(
                start.wrapping_add(old.true_lb()),
                Piece::Run(old.layout.size.wrapping_mul(blocklength)),
            )?;
            continue;
        }
        for j in 0..blocklength {
            walk(old, start.wrapping_add(j.wrapping_mul(ex)), basics, f)?;
        }
    }
    GO_ON
}
