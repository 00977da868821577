//! Dropping and printing a datatype without recursion on the native stack.
//!
//! A datatype owns its children through `Arc`s, so a chain of 10^6 constructors
//! (`contiguous(contiguous(...))`) is a linked list 10^6 nodes long. The default drop glue
//! would free it recursively, one stack frame per level, and overflow the stack; the derived
//! `Debug` would print it the same way. Here the last owner of a node detaches its children
//! first and frees them from a work list, and `Debug` prints one level only.

use super::{Combiner, Datatype};
use crate::predefined::{Predefined, PredefinedKind};
use std::fmt;
use std::sync::Arc;

/// What a node's combiner becomes once its children have been detached: a constructor with
/// no children, never visible outside `drop`.
static DETACHED: Predefined = Predefined {
    index: usize::MAX,
    name: "(freed)",
    kind: PredefinedKind::LbMarker,
};

/// Gives each child of `combiner` to `out` and leaves a constructor without children.
fn detach_children(combiner: &mut Combiner, out: impl FnMut(Arc<Datatype>)) {
    std::mem::replace(combiner, Combiner::Named(&DETACHED)).take_children(out);
}

/// Drops `child`. If this was its last holder, its own children are detached first and go to
/// `pending`, so that its drop nests no further. A child held here alone is taken apart where
/// it lies, not moved out of its `Arc` (a datatype is a few hundred bytes); one others hold
/// (a predefined type) only loses a reference, one atomic decrement, unless its other holders
/// let go meanwhile: then exactly one of the threads letting go takes it apart.
fn release(mut child: Arc<Datatype>, pending: &mut Vec<Arc<Datatype>>) {
    // A plain load first: a type other types share is never asked for mutable access, which
    // costs an atomic read-modify-write.
    if Arc::strong_count(&child) == 1 {
        if let Some(last) = Arc::get_mut(&mut child) {
            detach_children(&mut last.combiner, |grandchild| pending.push(grandchild));
            return;
        }
    }
    if let Some(mut last) = Arc::into_inner(child) {
        detach_children(&mut last.combiner, |grandchild| pending.push(grandchild));
    }
}

impl Drop for Datatype {
    fn drop(&mut self) {
        let mut pending = Vec::new();
        detach_children(&mut self.combiner, |child| release(child, &mut pending));
        // Each child whose last owner we were had its children detached into `pending`; its
        // own drop found none, so no drop nests more than one level deep.
        while let Some(node) = pending.pop() {
            release(node, &mut pending);
        }
    }
}

impl Combiner {
    /// The name of the constructor, as in `MPI_COMBINER_*` without the prefix.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }
}

/// One level of a datatype: its constructor (the name, for a predefined type) and layout;
/// children are not printed, so printing costs the same at any depth.
impl fmt::Debug for Datatype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Datatype");
        match &self.combiner {
            Combiner::Named(p) => s.field("named", &p.name),
            other => s.field("combiner", &other.name()),
        };
        s.field("large_count", &self.large_count)
            .field("layout", &self.layout)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::super::construct;
    use crate::predefined;
    use std::sync::Arc;

    fn int() -> Arc<super::Datatype> {
        construct::named(predefined::by_name("MPI_INT").expect("MPI_INT is predefined"))
    }

    /// A chain a million constructors deep is freed (and printed) without overflowing the
    /// stack of a test thread (2 MiB).
    #[test]
    fn deep_chains_drop_iteratively() {
        let mut t = int();
        for i in 0..1_000_000 {
            t = match i % 4 {
                0 => construct::contiguous(1, &t, false).unwrap(),
                1 => construct::dup(&t),
                2 => construct::resized(&t, 0, 4, false).unwrap(),
                _ => construct::structure(vec![1], vec![0], vec![t.clone()], false).unwrap(),
            };
        }
        assert_eq!(t.size(), 4);
        assert!(format!("{t:?}").contains("STRUCT"));
        drop(t);
    }

    /// Shared children survive the drop of one parent.
    #[test]
    fn shared_children_stay_alive() {
        let child = construct::contiguous(3, int(), false).unwrap();
        let a = construct::contiguous(2, &child, false).unwrap();
        let b = construct::dup(&child);
        drop(a);
        assert_eq!(b.size(), 12);
        assert_eq!(child.size(), 12);
    }
}
