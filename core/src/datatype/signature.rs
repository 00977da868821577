//! The type signature of one copy of a type as runs of equal basic types, `(basic, count)`
//! in type-map order: what the external32 conversion needs to know about the bytes of a
//! packed stream. Types with one basic type throughout are recognised from the constructor
//! tree without visiting their entries; others are walked once, and their signature is kept
//! only when it has few runs (an array of structs, say).

use super::walk::{walk, Piece, GO_ON};
use super::{Basic, Combiner, Datatype, PredefinedKind};
use std::ops::ControlFlow;

impl Datatype {
    /// The signature of one copy as `(basic, count)` runs, computed on first use and kept with
    /// the plan, if it is short enough to keep ([`signature`]).
    pub fn signature(&self) -> Option<&[(Basic, i64)]> {
        self.plan.signature(|| signature(self))
    }
}

/// Signatures with more runs than this are not kept.
pub const MAX_RUNS: usize = 256;
/// Types of mixed basic types with more entries than this are not walked for a signature.
pub const MAX_WALKED_ENTRIES: i64 = 1 << 16;

/// What the basic entries of a type are, told apart by a key of each (the basic type itself,
/// or its size).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Uniformity<K> {
    /// No basic entries.
    Empty,
    /// Every basic entry has this key.
    One(K),
    /// Basic entries of more than one key.
    Mixed,
}

impl<K: Copy + Eq> Uniformity<K> {
    fn and(self, other: Uniformity<K>) -> Uniformity<K> {
        match (self, other) {
            (Uniformity::Empty, x) | (x, Uniformity::Empty) => x,
            (Uniformity::One(a), Uniformity::One(b)) if a == b => self,
            _ => Uniformity::Mixed,
        }
    }
}

/// Whether every basic entry of `dt` has the same size (true for a type without entries).
/// MPICH 4.0.2 cannot receive a stream of bytes of more than about 8 KiB into a type whose
/// entries differ in size (it reports a truncation), which the drop-in layer works around.
pub fn one_entry_size(dt: &Datatype) -> bool {
    uniformity(dt, &Basic::size) != Uniformity::Mixed
}

/// The basic type of every entry of `dt`, if they all have one (`None` for a type without
/// entries or with entries of several basic types).
pub fn only_basic(dt: &Datatype) -> Option<Basic> {
    match uniformity(dt, &|b| b) {
        Uniformity::One(b) => Some(b),
        _ => None,
    }
}

/// The distinct basic types of `dt`'s entries, from its constructor tree, in the order met.
pub fn basics(dt: &Datatype) -> Vec<Basic> {
    fn collect(dt: &Datatype, found: &mut Vec<Basic>) {
        if dt.layout.elements == 0 {
            return;
        }
        let mut add = |b: Basic| {
            if !found.contains(&b) {
                found.push(b);
            }
        };
        match &dt.combiner {
            Combiner::Named(p) => match p.kind {
                PredefinedKind::Basic(b) => add(b),
                PredefinedKind::Pair(a, b) => {
                    add(a);
                    add(b);
                }
                PredefinedKind::LbMarker | PredefinedKind::UbMarker => {}
            },
            derived => stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                derived.parts().for_each(|part| collect(part, found))
            }),
        }
    }
    let mut found = Vec::new();
    collect(dt, &mut found);
    found
}

/// Whether an entry of `dt` is one of the pair types (`MPI_DOUBLE_INT` and the like), whose
/// two basic parts the [`signature`] lists as two runs, from its constructor tree.
pub fn holds_pairs(dt: &Datatype) -> bool {
    if dt.layout.elements == 0 {
        return false;
    }
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || match &dt.combiner {
        Combiner::Named(p) => matches!(p.kind, PredefinedKind::Pair(..)),
        derived => derived.parts().any(|part| holds_pairs(part)),
    })
}

/// The uniformity of `dt`'s basic entries under `key`, from its constructor tree.
fn uniformity<K: Copy + Eq>(dt: &Datatype, key: &impl Fn(Basic) -> K) -> Uniformity<K> {
    if dt.layout.elements == 0 {
        return Uniformity::Empty;
    }
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || match &dt.combiner {
        Combiner::Named(p) => match p.kind {
            PredefinedKind::Basic(b) => Uniformity::One(key(b)),
            PredefinedKind::Pair(a, b) => Uniformity::One(key(a)).and(Uniformity::One(key(b))),
            PredefinedKind::LbMarker | PredefinedKind::UbMarker => Uniformity::Empty,
        },
        derived => derived
            .parts()
            .fold(Uniformity::Empty, |u, part| u.and(uniformity(part, key))),
    })
}

/// The signature of one copy of `dt` as `(basic, count)` runs, or `None` when it has more than
/// [`MAX_RUNS`] runs.
pub fn signature(dt: &Datatype) -> Option<Vec<(Basic, i64)>> {
    match uniformity(dt, &|b| b) {
        Uniformity::Empty => return Some(Vec::new()),
        Uniformity::One(b) => return Some(vec![(b, dt.layout.elements)]),
        Uniformity::Mixed if dt.layout.elements > MAX_WALKED_ENTRIES => return None,
        Uniformity::Mixed => {}
    }
    let mut runs: Vec<(Basic, i64)> = Vec::new();
    let mut too_long = false;
    let _ = walk(dt, 0, true, &mut |_, piece| {
        let Piece::Basic(b) = piece else { return GO_ON };
        if let Some((last, n)) = runs.last_mut() {
            if *last == b {
                *n += 1;
                return GO_ON;
            }
        }
        if runs.len() == MAX_RUNS {
            too_long = true;
            return ControlFlow::Break(()); // no use walking on
        }
        runs.push((b, 1));
        GO_ON
    });
    (!too_long).then_some(runs)
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

    /// A struct of every other double, a char and every other int: three runs of its
    /// signature, and no pair; a pair type inside a struct is found.
    #[test]
    fn signature_runs_and_pairs_of_a_struct() {
        let (double, char, int) = (named("MPI_DOUBLE"), named("MPI_CHAR"), named("MPI_INT"));
        let doubles = construct::vector(200, 1, 16, true, &double, false).unwrap();
        let ints = construct::vector(200, 1, 8, true, &int, false).unwrap();
        let members = vec![doubles.clone(), char.clone(), ints, doubles];
        let st =
            construct::structure(vec![1; 4], vec![0, 3200, 3208, 4808], members, false).unwrap();
        let basic = |t: &Arc<Datatype>| only_basic(t).unwrap();
        let expected = vec![
            (basic(&double), 200),
            (basic(&char), 1),
            (basic(&int), 200),
            (basic(&double), 200),
        ];
        assert_eq!(signature(&st), Some(expected));
        assert!(!holds_pairs(&st));
        let pair = named("MPI_DOUBLE_INT");
        let with_pair =
            construct::structure(vec![1, 1], vec![0, 16], vec![char, pair], false).unwrap();
        assert!(holds_pairs(&with_pair));
    }
}
