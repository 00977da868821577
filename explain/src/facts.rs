//! The bounded sample of a datatype every format is drawn from: bounds and counts (from the
//! layout and plan arithmetic, never by counting entries), the signature, and the first
//! entries and byte runs.

use super::entries;
use mpi_dtype_core::datatype::layout::Span;
use mpi_dtype_core::datatype::{Basic, Datatype};
use mpi_dtype_core::plan::iov;

/// At most this many basic entries of one copy are sampled.
pub const ENTRY_LIMIT: usize = 1 << 14;
/// At most this many byte runs of one copy are sampled.
pub const RUN_LIMIT: usize = 1 << 14;
/// Runs are counted one by one up to this many; beyond, the count is the plan's bound.
pub use mpi_dtype_core::plan::iov::RUN_COUNT_WALK;

/// How many contiguous byte runs one copy of a type has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunCount {
    /// The number of runs (exact), or an upper bound on it (not exact).
    pub count: i64,
    /// True if `count` is the exact number of merged runs.
    pub exact: bool,
}

/// What is known of one copy of a datatype, bounded in size and in the time it takes.
#[derive(Debug, Clone)]
pub struct Facts {
    /// Size in bytes of the data.
    pub size: i64,
    /// Lower bound.
    pub lb: i64,
    /// Upper bound.
    pub ub: i64,
    /// Extent (`ub - lb`).
    pub extent: i64,
    /// Lower bound of the data (markers ignored).
    pub true_lb: i64,
    /// Upper bound of the data (markers ignored).
    pub true_ub: i64,
    /// Number of basic entries.
    pub elements: i64,
    /// The least and greatest `lb` marker, if there are any.
    pub lb_marks: Option<Span>,
    /// The least and greatest `ub` marker, if there are any.
    pub ub_marks: Option<Span>,
    /// The largest alignment among the basic entries.
    pub align: i64,
    /// The signature as `(basic, count)` runs: whole if `signature_complete`, else the
    /// signature of the sampled entries only.
    pub signature: Vec<(Basic, i64)>,
    /// True if `signature` is the whole signature.
    pub signature_complete: bool,
    /// The first [`ENTRY_LIMIT`] basic entries `(basic, displacement)` in type-map order.
    pub entries: Vec<(Basic, i64)>,
    /// The first [`RUN_LIMIT`] merged byte runs `(displacement, length)` in pack order.
    pub runs: Vec<(i64, i64)>,
    /// How many runs there are in all.
    pub run_count: RunCount,
}

impl Facts {
    /// The facts of `dt`.
    pub fn of(dt: &Datatype) -> Facts {
        let layout = &dt.layout;
        let entries = entries::first(dt, ENTRY_LIMIT);
        let (runs, run_count) = runs(dt);
        let (signature, signature_complete) = match dt.signature() {
            Some(sig) => (sig.to_vec(), true),
            None => (compress(&entries), false),
        };
        Facts {
            size: dt.size(),
            lb: dt.lb(),
            ub: dt.ub(),
            extent: dt.extent(),
            true_lb: dt.true_lb(),
            true_ub: layout.true_ub(),
            elements: layout.elements,
            lb_marks: layout.lb_marks,
            ub_marks: layout.ub_marks,
            align: layout.align,
            signature,
            signature_complete,
            entries,
            runs,
            run_count,
        }
    }

    /// True if only the first entries were sampled.
    pub fn entries_cut(&self) -> bool {
        (self.entries.len() as i64) < self.elements
    }

    /// True if only the first runs were sampled.
    pub fn runs_cut(&self) -> bool {
        !self.run_count.exact || (self.runs.len() as i64) < self.run_count.count
    }

    /// `true_ub - true_lb`.
    pub fn true_extent(&self) -> i64 {
        self.true_ub.wrapping_sub(self.true_lb)
    }
}

/// Entries as `(basic, count)` runs of equal basic types.
pub fn compress(entries: &[(Basic, i64)]) -> Vec<(Basic, i64)> {
    let mut out: Vec<(Basic, i64)> = Vec::new();
    for &(b, _) in entries {
        match out.last_mut() {
            Some((last, n)) if *last == b => *n += 1,
            _ => out.push((b, 1)),
        }
    }
    out
}

/// The first [`RUN_LIMIT`] merged runs of one copy of `dt` and their number
/// ([`plan::Plan::runs`]: counted while there are at most [`RUN_COUNT_WALK`], else bounded by
/// the plan's counts).
fn runs(dt: &Datatype) -> (Vec<(i64, i64)>, RunCount) {
    let compiled = &dt.plan;
    let mut sample = Vec::new();
    iov::for_each_segment(compiled.root(), |disp, len| {
        sample.push((disp, len));
        sample.len() < RUN_LIMIT
    });
    let count = compiled.runs();
    let exact = count <= RUN_COUNT_WALK;
    (sample, RunCount { count, exact })
}
