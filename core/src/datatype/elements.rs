//! Element counting in the packed stream: how many basic elements the first `bytes` bytes of
//! the packed data of a sequence of copies of a datatype hold (`MPI_Get_elements`), and how
//! many bytes the first `n` basic elements take (`MPI_Status_set_elements`).
//!
//! Both descend the constructor tree once, from the root to the one leaf where the prefix
//! ends, using the size and element count every [`Layout`](super::Layout) keeps: the cost is
//! the depth of the type plus, at an indexed or struct level, one pass over that level's
//! blocks, never a walk over elements. The descent is a loop, so any depth works.

use super::layout::mul;
use super::{Combiner, Datatype};
use crate::error::{Error, Result};
use crate::predefined::PredefinedKind;

/// The children of one level of the packed stream, in type-map order. A block of `n` copies
/// of a child occupies `n * child.size()` bytes of the stream and holds
/// `n * child.layout.elements` basic elements; only the block where a prefix ends is entered.
enum Blocks<'a> {
    /// Consecutive copies of one child.
    Uniform(&'a Datatype),
    /// Blocks of `lengths[i]` copies of one child.
    Lengths(&'a [i64], &'a Datatype),
    /// Blocks of `lengths[i]` copies of `types[i]`.
    Struct(&'a [i64], &'a [std::sync::Arc<Datatype>]),
}

/// What is below `dt` in the packed stream: a single basic element or pair, or blocks of
/// children.
enum Level<'a> {
    /// A named type: its basic elements' sizes (one, or two for a pair type; none for a
    /// marker).
    Leaf([i64; 2], usize),
    /// Children.
    Blocks(Blocks<'a>),
}

fn level(dt: &Datatype) -> Level<'_> {
    match &dt.combiner {
        Combiner::Named(p) => match p.kind {
            PredefinedKind::Basic(b) => Level::Leaf([b.size(), 0], 1),
            // The packed stream holds the members' bytes only, not the padding between.
            PredefinedKind::Pair(a, b) => Level::Leaf([a.size(), b.size()], 2),
            PredefinedKind::LbMarker | PredefinedKind::UbMarker => Level::Leaf([0, 0], 0),
        },
        Combiner::Dup(old) | Combiner::Resized { old, .. } | Combiner::F90 { base: old, .. } => {
            Level::Blocks(Blocks::Uniform(old))
        }
        Combiner::Subarray { realized, .. } | Combiner::Darray { realized, .. } => {
            Level::Blocks(Blocks::Uniform(realized))
        }
        Combiner::Contiguous { old, .. } => Level::Blocks(Blocks::Uniform(old)),
        Combiner::Vector { old, .. }
        | Combiner::Hvector { old, .. }
        | Combiner::IndexedBlock { old, .. }
        | Combiner::HindexedBlock { old, .. } => Level::Blocks(Blocks::Uniform(old)),
        Combiner::Indexed {
            blocklengths, old, ..
        }
        | Combiner::Hindexed {
            blocklengths, old, ..
        } => Level::Blocks(Blocks::Lengths(blocklengths, old)),
        Combiner::Struct {
            blocklengths,
            types,
            ..
        } => Level::Blocks(Blocks::Struct(blocklengths, types)),
    }
}

/// A measure of a datatype's packed data: its size in bytes, or its number of elements.
#[derive(Clone, Copy)]
enum Measure {
    Bytes,
    Elements,
}

impl Measure {
    fn of(self, dt: &Datatype) -> i64 {
        match self {
            Measure::Bytes => dt.layout.size,
            Measure::Elements => dt.layout.elements,
        }
    }
    fn other(self, dt: &Datatype) -> i64 {
        match self {
            Measure::Bytes => dt.layout.elements,
            Measure::Elements => dt.layout.size,
        }
    }
}

/// Within one copy of `dt`, converts a prefix of `amount` (less than the measure of `dt`) in
/// `measure` to the other measure: `(converted, exact)`, where `exact` is false when the
/// prefix ends inside a basic element (then `converted` counts the whole elements before it).
fn convert_within(mut dt: &Datatype, mut amount: i64, measure: Measure) -> (i64, bool) {
    let mut converted = 0i64;
    // Invariant: 0 <= amount < measure.of(dt), so the prefix ends inside this copy of dt.
    while amount > 0 {
        let (child, copies_before) = match level(dt) {
            Level::Leaf(sizes, n) => {
                for &size in &sizes[..n] {
                    if amount == 0 {
                        break;
                    }
                    let (step, other) = match measure {
                        Measure::Bytes => (size, 1),
                        Measure::Elements => (1, size),
                    };
                    if amount < step {
                        return (converted, false);
                    }
                    amount -= step;
                    converted += other;
                }
                return (converted, amount == 0);
            }
            Level::Blocks(Blocks::Uniform(child)) => (child, 0),
            Level::Blocks(Blocks::Lengths(lengths, child)) => {
                let unit = measure.of(child);
                let mut before = 0i64;
                for &len in lengths {
                    let block = len * unit;
                    if amount < block {
                        break;
                    }
                    amount -= block;
                    before += len;
                }
                (child, before)
            }
            Level::Blocks(Blocks::Struct(lengths, types)) => {
                let mut found = None;
                for (&len, t) in lengths.iter().zip(types) {
                    let block = len * measure.of(t);
                    if amount < block {
                        found = Some(&**t);
                        break;
                    }
                    amount -= block;
                    converted += len * measure.other(t);
                }
                match found {
                    Some(t) => (t, 0),
                    None => return (converted, amount == 0),
                }
            }
        };
        // Whole copies of `child` before the prefix ends, then the copy it ends in.
        let unit = measure.of(child);
        if unit == 0 {
            // Unreachable while the invariant holds; stop rather than divide by zero.
            return (converted, false);
        }
        let whole = amount / unit;
        amount -= whole * unit;
        converted += (copies_before + whole) * measure.other(child);
        dt = child;
    }
    (converted, true)
}

/// The number of basic elements in the first `bytes` bytes of the packed data of copies of
/// `dt`, or `None` if the bytes end inside a basic element (or the count does not fit 64
/// bits).
pub fn elements_in_bytes(dt: &Datatype, bytes: i64) -> Option<i64> {
    let size = dt.size();
    if size == 0 || bytes <= 0 {
        return (bytes >= 0).then_some(0);
    }
    let whole = (bytes / size).checked_mul(dt.layout.elements)?;
    let (elements, exact) = convert_within(dt, bytes % size, Measure::Bytes);
    exact.then(|| whole.checked_add(elements)).flatten()
}

/// The number of bytes that the first `count` basic elements of the packed data of copies of
/// `dt` take (`MPI_Status_set_elements`).
pub fn bytes_of_elements(dt: &Datatype, count: i64) -> Result<i64> {
    if count < 0 {
        return Err(Error::count(format!(
            "count must be non-negative, got {count}"
        )));
    }
    if count == 0 {
        return Ok(0);
    }
    let per_copy = dt.layout.elements;
    if per_copy == 0 {
        return Err(Error::arg("the datatype has no basic elements to count"));
    }
    let whole = mul(count / per_copy, dt.size(), "count * size")?;
    let (bytes, _) = convert_within(dt, count % per_copy, Measure::Elements);
    crate::datatype::layout::add(whole, bytes, "count * size")
}
