//! Checks a user would want of a datatype, each reported as a [`Warning`] of a named
//! [`Kind`] (stable names, listed in [`KINDS`] and `docs/explain.md`), with the sentence of
//! the MPI standard that applies where there is one.
//!
//! [`check`] runs every check that needs only the datatype. Checks of how a program uses a
//! type (used uncommitted, committed twice, still allocated at `MPI_Finalize`) belong to the
//! code that sees the calls: they make a [`Warning`] of their own static [`Kind`] the same way
//! and render with the others.
//!
//! Every check is bounded: overlaps are looked for among the sampled runs of
//! [`Facts`] (sorted, at most [`facts::RUN_LIMIT`] of them), and answered by arithmetic where
//! the sample cannot decide (more data bytes than span is an overlap whatever the runs are).

use super::facts::{self, Facts};
use mpi_dtype_core::datatype::{Combiner, Datatype};

/// What a warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// Using the type as intended is erroneous or reads the wrong bytes.
    Correctness,
    /// The type is correct; the advice is about speed.
    Performance,
}

impl Severity {
    /// `"correctness"` or `"performance"`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Correctness => "correctness",
            Severity::Performance => "performance",
        }
    }
}

/// A kind of warning: its stable name, what it means, and the standard's sentence.
#[derive(Debug, PartialEq, Eq)]
pub struct Kind {
    /// The stable name (`overlapping-entries`).
    pub name: &'static str,
    /// Correctness or performance.
    pub severity: Severity,
    /// What it means, in one sentence.
    pub meaning: &'static str,
    /// The sentence of the MPI standard that applies, with its section, if one does.
    pub standard: Option<&'static str>,
}

/// Entries of one copy's type map share bytes.
pub static OVERLAPPING_ENTRIES: Kind = Kind {
    name: "overlapping-entries",
    severity: Severity::Correctness,
    meaning:
        "two entries of the type map share bytes: receiving or unpacking into the type is erroneous",
    standard: Some(
        "MPI-4.1 §5.1.11: \"A datatype may specify overlapping entries. The use of such a \
         datatype in any communication in association with a buffer updated by the operation \
         is erroneous. (This is erroneous even if the actual message received is short enough \
         not to write any entry more than once.)\"",
    ),
};

/// Consecutive copies of the type share bytes.
pub static EXTENT_SHORTER_THAN_DATA: Kind = Kind {
    name: "extent-shorter-than-data",
    severity: Severity::Correctness,
    meaning: "the extent is shorter than the data, so copies placed one extent apart share bytes \
              when count > 1 (a resize to the wrong extent, or a missing one)",
    standard: Some(
        "MPI-4.1 §5.1.11: \"A call of the form MPI_SEND(buf, count, datatype, ...), where \
         count > 1, is interpreted as if the call was passed a new datatype that is the \
         concatenation of count copies of datatype.\"",
    ),
};

/// A basic entry sits at a displacement not aligned for its type.
pub static MISALIGNED_MEMBER: Kind = Kind {
    name: "misaligned-member",
    severity: Severity::Correctness,
    meaning: "a basic entry sits at a displacement that is not a multiple of its type's alignment \
              (from a buffer aligned for the type), in the first copy or in the next ones: \
              usually a struct whose displacements do not match the C struct (use offsetof)",
    standard: Some(
        "MPI-4.1 §5.1.11: \"The variable stored at address addr_{i,j} in the calling program \
         should be of a type that matches type_j\"",
    ),
};

/// The type is one contiguous run of bytes.
pub static SINGLE_CONTIGUOUS_RUN: Kind = Kind {
    name: "single-contiguous-run",
    severity: Severity::Performance,
    meaning: "the type's data is one contiguous run of bytes: packing it is one copy, and a \
              contiguous type (or count elements of the basic type) says the same more simply",
    standard: None,
};

/// Many short runs: packing is bound by the cost per block.
pub static PER_BLOCK_BOUND: Kind = Kind {
    name: "per-block-bound",
    severity: Severity::Performance,
    meaning: "the data is many runs shorter than a cache line: packing is bound by the cost per \
              block, not by memory bandwidth",
    standard: None,
};

/// A pack, unpack or communication call was given a type that was not committed (seen by
/// the trace, `src/trace/`; the call itself fails with `MPI_ERR_TYPE`).
pub static USED_UNCOMMITTED: Kind = Kind {
    name: "used-uncommitted",
    severity: Severity::Correctness,
    meaning: "the type was passed to a pack, unpack or communication call before \
              MPI_Type_commit: the call fails with MPI_ERR_TYPE",
    standard: Some(
        "MPI-4.1 §5.1.9: \"A datatype object has to be committed before it can be used in a \
         communication.\"",
    ),
};

/// `MPI_Type_commit` was called on a type already committed (seen by the trace).
pub static COMMITTED_TWICE: Kind = Kind {
    name: "committed-twice",
    severity: Severity::Correctness,
    meaning: "MPI_Type_commit was called again on a committed type: harmless in itself, but \
              usually a sign that the program loses track of its types (a handle committed \
              in a loop, or committed where it was meant to be freed)",
    standard: None,
};

/// A type the program built was never freed before `MPI_Finalize` (seen by the trace).
pub static STILL_ALLOCATED_AT_FINALIZE: Kind = Kind {
    name: "still-allocated-at-finalize",
    severity: Severity::Correctness,
    meaning: "the type was never freed (MPI_Type_free) before MPI_Finalize, or before exit: a \
              leak of a datatype object, with where it was built",
    standard: None,
};

/// The kinds only a traced run reports, from the calls it sees (the C library's recorder,
/// `MPI_DTYPE_TRACE`).
pub static RUNTIME_KINDS: [&Kind; 3] = [
    &USED_UNCOMMITTED,
    &COMMITTED_TWICE,
    &STILL_ALLOCATED_AT_FINALIZE,
];

/// Every kind [`check`] reports, in the order it reports them.
pub static KINDS: [&Kind; 5] = [
    &OVERLAPPING_ENTRIES,
    &EXTENT_SHORTER_THAN_DATA,
    &MISALIGNED_MEMBER,
    &SINGLE_CONTIGUOUS_RUN,
    &PER_BLOCK_BOUND,
];

/// Runs shorter than this many bytes (a cache line) count as short for [`PER_BLOCK_BOUND`].
pub const SHORT_RUN: i64 = 64;
/// [`PER_BLOCK_BOUND`] needs at least this many runs.
pub const MANY_RUNS: i64 = 64;
/// At most this many misaligned entries are named in a message.
const NAMED_OFFENDERS: usize = 3;

/// One warning about one datatype.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Its kind.
    pub kind: &'static Kind,
    /// What was found, with the numbers of this type.
    pub message: String,
}

impl Warning {
    /// A warning of `kind` saying `message`.
    pub fn new(kind: &'static Kind, message: impl Into<String>) -> Warning {
        Warning {
            kind,
            message: message.into(),
        }
    }

    /// The kind's stable name.
    pub fn name(&self) -> &'static str {
        self.kind.name
    }
}

/// Every warning about `dt` that the type alone shows.
pub fn check(dt: &Datatype) -> Vec<Warning> {
    check_with(dt, &Facts::of(dt))
}

/// [`check`] with the facts of `dt` already sampled.
pub fn check_with(dt: &Datatype, facts: &Facts) -> Vec<Warning> {
    let checks: [fn(&Datatype, &Facts) -> Option<Warning>; 5] = [
        overlapping_entries,
        extent_shorter_than_data,
        misaligned_member,
        single_contiguous_run,
        per_block_bound,
    ];
    checks.iter().filter_map(|c| c(dt, facts)).collect()
}

/// The sampled runs sorted by displacement, with their pack-order numbers.
fn sorted_runs(facts: &Facts) -> Vec<(i64, i64, usize)> {
    let mut runs: Vec<(i64, i64, usize)> = facts
        .runs
        .iter()
        .enumerate()
        .map(|(i, &(d, l))| (d, d.saturating_add(l), i))
        .collect();
    runs.sort_unstable();
    runs
}

/// [`OVERLAPPING_ENTRIES`]: two runs of one copy share a byte.
pub fn overlapping_entries(dt: &Datatype, facts: &Facts) -> Option<Warning> {
    if dt.layout.dense || facts.size == 0 {
        return None;
    }
    let mut furthest: Option<(i64, usize)> = None;
    for (start, end, index) in sorted_runs(facts) {
        if let Some((reach, owner)) = furthest {
            if start < reach {
                let (first, second) = (owner.min(index), owner.max(index));
                return Some(Warning::new(
                    &OVERLAPPING_ENTRIES,
                    format!(
                        "bytes [{start}, {}) belong to run {first} and run {second} (in pack \
                         order) of the same copy",
                        end.min(reach)
                    ),
                ));
            }
        }
        if furthest.is_none_or(|(reach, _)| end > reach) {
            furthest = Some((end, index));
        }
    }
    (facts.size > facts.true_extent()).then(|| {
        Warning::new(
            &OVERLAPPING_ENTRIES,
            format!(
                "{} bytes of data lie within a span of {} bytes, so some entries share bytes",
                facts.size,
                facts.true_extent()
            ),
        )
    })
}

/// The union of the sampled runs as sorted disjoint intervals.
fn union(facts: &Facts) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for (start, end, _) in sorted_runs(facts) {
        match out.last_mut() {
            Some((_, e)) if start <= *e => *e = (*e).max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// The first byte that `set` and `set` moved by `shift` share, if any (both sorted, disjoint).
fn first_shared(set: &[(i64, i64)], shift: i64) -> Option<(i64, i64)> {
    let (mut i, mut j) = (0, 0);
    while i < set.len() && j < set.len() {
        let (a0, a1) = set[i];
        let (b0, b1) = (
            set[j].0.saturating_add(shift),
            set[j].1.saturating_add(shift),
        );
        let (lo, hi) = (a0.max(b0), a1.min(b1));
        if lo < hi {
            return Some((lo, hi));
        }
        if a1 <= b1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    None
}

/// [`EXTENT_SHORTER_THAN_DATA`]: copy 0 and copy 1 share a byte. (Copies that only
/// interleave, as a column type resized to one element does, are what the resize is for.)
pub fn extent_shorter_than_data(_: &Datatype, facts: &Facts) -> Option<Warning> {
    let (extent, span) = (facts.extent, facts.true_extent());
    if facts.size == 0 || extent.unsigned_abs() >= span as u64 {
        return None;
    }
    let message = |detail: String| {
        Warning::new(
            &EXTENT_SHORTER_THAN_DATA,
            format!(
                "the extent is {extent} B but the data spans {span} B (true lb {}, true ub {}): \
                 {detail}",
                facts.true_lb, facts.true_ub
            ),
        )
    };
    if extent == 0 {
        return Some(message("every copy lies on the first one".into()));
    }
    let set = union(facts);
    if let Some((lo, hi)) = first_shared(&set, extent.abs()) {
        // The shared bytes of the copy at +|extent| and the one below it; with a negative
        // extent the lower one is copy 1, so move them down by |extent|.
        let (lo, hi) = if extent > 0 {
            (lo, hi)
        } else {
            (lo + extent, hi + extent)
        };
        return Some(message(format!(
            "copy 0 and copy 1 (at {extent}) share bytes [{lo}, {hi}), so any count > 1 overlaps"
        )));
    }
    // Two copies lie within true_extent + |extent| bytes: more data than that must overlap.
    let two_copies = 2 * facts.size as i128;
    (facts.runs_cut() && two_copies > span as i128 + extent.unsigned_abs() as i128).then(|| {
        message(format!(
            "two copies hold {two_copies} B of data within {} B, so they share bytes",
            span as i128 + extent.unsigned_abs() as i128
        ))
    })
}

/// [`MISALIGNED_MEMBER`]: a sampled entry, or the extent between copies, is not a multiple of
/// the alignment.
pub fn misaligned_member(_: &Datatype, facts: &Facts) -> Option<Warning> {
    let offenders: Vec<String> = facts
        .entries
        .iter()
        .filter(|(b, d)| d.rem_euclid(b.align()) != 0)
        .take(NAMED_OFFENDERS)
        .map(|(b, d)| format!("{} at {d} (alignment {})", b.info().name, b.align()))
        .collect();
    let mut parts = Vec::new();
    if !offenders.is_empty() {
        parts.push(format!("misaligned entries: {}", offenders.join(", ")));
    }
    if facts.elements > 0 && facts.extent.rem_euclid(facts.align) != 0 {
        parts.push(format!(
            "the extent {} is not a multiple of the alignment {}, so copies after the first \
             are misaligned",
            facts.extent, facts.align
        ));
    }
    (!parts.is_empty()).then(|| Warning::new(&MISALIGNED_MEMBER, parts.join("; ")))
}

/// [`SINGLE_CONTIGUOUS_RUN`]: a derived type of more than one entry whose data is one run.
pub fn single_contiguous_run(dt: &Datatype, facts: &Facts) -> Option<Warning> {
    let derived = !matches!(dt.combiner, Combiner::Named(_) | Combiner::F90 { .. });
    if !derived
        || facts.elements < 2
        || facts.run_count
            != (facts::RunCount {
                count: 1,
                exact: true,
            })
    {
        return None;
    }
    let copies = if facts.extent == facts.size {
        "count copies are one run too".to_string()
    } else {
        format!("copies are {} B apart", facts.extent)
    };
    Some(Warning::new(
        &SINGLE_CONTIGUOUS_RUN,
        format!(
            "this type is one contiguous run of {} bytes at displacement {} ({copies}): \
             packing it is one memory copy",
            facts.size, facts.true_lb
        ),
    ))
}

/// [`PER_BLOCK_BOUND`]: at least [`MANY_RUNS`] runs, shorter than [`SHORT_RUN`] on average.
pub fn per_block_bound(_: &Datatype, facts: &Facts) -> Option<Warning> {
    // With every run counted the mean is exact; else the sampled runs (at least
    // RUN_COUNT_WALK of them exist) give it.
    let (runs, bytes) = if facts.run_count.exact {
        (facts.run_count.count, facts.size)
    } else {
        let sampled: i64 = facts.runs.iter().map(|r| r.1).sum();
        (facts.runs.len() as i64, sampled)
    };
    let enough = if facts.run_count.exact {
        runs >= MANY_RUNS
    } else {
        true
    };
    if !enough || runs == 0 || bytes / runs >= SHORT_RUN {
        return None;
    }
    let mean = bytes as f64 / runs as f64;
    let what = if facts.run_count.exact {
        format!("{runs} runs of {mean:.1} B on average")
    } else {
        format!(
            "more than {} runs, the first {runs} of {mean:.1} B on average",
            facts::RUN_COUNT_WALK
        )
    };
    Some(Warning::new(
        &PER_BLOCK_BOUND,
        format!(
            "{what}: packing will be bound by per-block cost, not by memory bandwidth (runs of \
             {SHORT_RUN} B or more pack at close to memcpy speed)"
        ),
    ))
}
