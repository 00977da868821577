//! The basic entries of a type map in type-map order, visited one by one from the
//! constructor tree and stoppable at any entry, so that reading the first entries of a type
//! with 10^9 of them costs only those entries. Parts of the tree without basic entries
//! (zero counts, empty children, markers) are skipped without being visited.

use crate::datatype::predefined::pair_offset;
use crate::datatype::{Basic, Combiner, Datatype, PredefinedKind};
use std::ops::ControlFlow;

/// What a visitor of entries returns: `Break` stops the walk.
pub type Flow = ControlFlow<()>;

/// Calls `f(basic, displacement)` for each basic entry of one copy of `dt` placed at byte
/// offset `base`, in type-map order, until `f` breaks; returns `Break` if it did.
pub fn for_each(dt: &Datatype, base: i64, f: &mut dyn FnMut(Basic, i64) -> Flow) -> Flow {
    if dt.layout.elements == 0 {
        return ControlFlow::Continue(());
    }
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || visit(dt, base, f))
}

/// The first `limit` basic entries of one copy of `dt`, as `(basic, displacement)`.
pub fn first(dt: &Datatype, limit: usize) -> Vec<(Basic, i64)> {
    let mut out = Vec::with_capacity(limit.min(dt.layout.elements.max(0) as usize));
    if limit == 0 {
        return out;
    }
    let _ = for_each(dt, 0, &mut |b, d| {
        out.push((b, d));
        if out.len() >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    out
}

fn visit(dt: &Datatype, base: i64, f: &mut dyn FnMut(Basic, i64) -> Flow) -> Flow {
    match &dt.combiner {
        Combiner::Named(p) => match p.kind {
            PredefinedKind::Basic(b) => f(b, base),
            PredefinedKind::Pair(a, b) => {
                f(a, base)?;
                f(b, base.wrapping_add(pair_offset(a, b)))
            }
            PredefinedKind::LbMarker | PredefinedKind::UbMarker => ControlFlow::Continue(()),
        },
        Combiner::Dup(old) | Combiner::Resized { old, .. } | Combiner::F90 { base: old, .. } => {
            for_each(old, base, f)
        }
        Combiner::Subarray { realized, .. } | Combiner::Darray { realized, .. } => {
            for_each(realized, base, f)
        }
        Combiner::Contiguous { count, old } => blocks(old, base, 1, 0, *count, f),
        Combiner::Vector {
            count,
            blocklength,
            stride,
            old,
        } => {
            let step = stride.wrapping_mul(old.extent());
            blocks(old, base, *count, step, *blocklength, f)
        }
        Combiner::Hvector {
            count,
            blocklength,
            stride,
            old,
        } => blocks(old, base, *count, *stride, *blocklength, f),
        Combiner::Indexed {
            blocklengths,
            displacements,
            old,
        } => {
            let unit = old.extent();
            for (&b, &d) in blocklengths.iter().zip(displacements) {
                blocks(old, base.wrapping_add(d.wrapping_mul(unit)), 1, 0, b, f)?;
            }
            ControlFlow::Continue(())
        }
        Combiner::Hindexed {
            blocklengths,
            displacements,
            old,
        } => {
            for (&b, &d) in blocklengths.iter().zip(displacements) {
                blocks(old, base.wrapping_add(d), 1, 0, b, f)?;
            }
            ControlFlow::Continue(())
        }
        Combiner::IndexedBlock {
            blocklength,
            displacements,
            old,
        } => {
            let unit = old.extent();
            for &d in displacements {
                let start = base.wrapping_add(d.wrapping_mul(unit));
                blocks(old, start, 1, 0, *blocklength, f)?;
            }
            ControlFlow::Continue(())
        }
        Combiner::HindexedBlock {
            blocklength,
            displacements,
            old,
        } => {
            for &d in displacements {
                blocks(old, base.wrapping_add(d), 1, 0, *blocklength, f)?;
            }
            ControlFlow::Continue(())
        }
        Combiner::Struct {
            blocklengths,
            displacements,
            types,
        } => {
            for ((&b, &d), t) in blocklengths.iter().zip(displacements).zip(types) {
                blocks(t, base.wrapping_add(d), 1, 0, b, f)?;
            }
            ControlFlow::Continue(())
        }
    }
}

/// `count` blocks `step` bytes apart, each of `blocklength` copies of `old` one extent apart.
fn blocks(
    old: &Datatype,
    base: i64,
    count: i64,
    step: i64,
    blocklength: i64,
    f: &mut dyn FnMut(Basic, i64) -> Flow,
) -> Flow {
    if old.layout.elements == 0 || blocklength <= 0 {
        return ControlFlow::Continue(());
    }
    let extent = old.extent();
    for i in 0..count {
        let start = base.wrapping_add(i.wrapping_mul(step));
        for j in 0..blocklength {
            for_each(old, start.wrapping_add(j.wrapping_mul(extent)), f)?;
        }
    }
    ControlFlow::Continue(())
}
