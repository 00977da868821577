//! The children of a constructor: the one place that knows which arguments of each combiner
//! are datatypes, so that code which only needs the children (dropping a type, walking its
//! basic types) does not match every combiner again.

use super::{Combiner, Datatype};
use std::sync::Arc;

/// Matches `$combiner` (a `Combiner`, or a reference to one) by its children: none, one old
/// type (`base` of an f90 type), an old type and the type a subarray or darray is realised
/// with, or a struct's block lengths and members.
macro_rules! match_children {
    ($combiner:expr,
     none => $none:expr,
     ($old:ident) => $one:expr,
     ($o:ident, $realized:ident) => $two:expr,
     ($lengths:ident, $members:ident) => $many:expr $(,)?) => {
        match $combiner {
            Combiner::Named(_) => $none,
            Combiner::Dup($old)
            | Combiner::Contiguous { old: $old, .. }
            | Combiner::Vector { old: $old, .. }
            | Combiner::Hvector { old: $old, .. }
            | Combiner::Indexed { old: $old, .. }
            | Combiner::Hindexed { old: $old, .. }
            | Combiner::IndexedBlock { old: $old, .. }
            | Combiner::HindexedBlock { old: $old, .. }
            | Combiner::Resized { old: $old, .. }
            | Combiner::F90 { base: $old, .. } => $one,
            Combiner::Subarray {
                old: $o,
                realized: $realized,
                ..
            }
            | Combiner::Darray {
                old: $o,
                realized: $realized,
                ..
            } => $two,
            Combiner::Struct {
                blocklengths: $lengths,
                types: $members,
                ..
            } => $many,
        }
    };
}

/// At most two single children, then a list.
type Split<'a> = (
    Option<&'a Arc<Datatype>>,
    Option<&'a Arc<Datatype>>,
    &'a [Arc<Datatype>],
);

impl Combiner {
    /// Every datatype this combiner holds: the old type (or a struct's members), and for a
    /// subarray or darray also the equivalent type it is realised with.
    pub fn children(&self) -> impl Iterator<Item = &Arc<Datatype>> {
        let (old, realized, members): Split = match_children!(self,
            none => (None, None, &[]),
            (old) => (Some(old), None, &[]),
            (old, realized) => (Some(old), Some(realized), &[]),
            (_lengths, members) => (None, None, members),
        );
        old.into_iter().chain(realized).chain(members)
    }

    /// The children whose entries make up the type map: the old type, the realised type of a
    /// subarray or darray instead of its old type, and the struct's members given at least one
    /// copy. None for a predefined type.
    pub fn parts(&self) -> impl Iterator<Item = &Arc<Datatype>> {
        type Parts<'a> = (Option<&'a Arc<Datatype>>, &'a [i64], &'a [Arc<Datatype>]);
        let (one, lengths, types): Parts = match_children!(self,
            none => (None, &[], &[]),
            (old) => (Some(old), &[], &[]),
            (_old, realized) => (Some(realized), &[], &[]),
            (lengths, members) => (None, lengths, members),
        );
        let given = types.iter().zip(lengths).filter(|(_, &length)| length > 0);
        one.into_iter().chain(given.map(|(t, _)| t))
    }

    /// Gives every datatype this combiner holds, taken out of it, to `out` (as
    /// [`Combiner::children`]), one call per child, with nothing built in between (the drop
    /// of every type runs this).
    #[inline]
    pub fn take_children(self, mut out: impl FnMut(Arc<Datatype>)) {
        match_children!(self,
            none => {},
            (old) => out(old),
            (old, realized) => {
                out(old);
                out(realized);
            },
            (_lengths, members) => members.into_iter().for_each(out),
        )
    }
}
