//! The flattened view of a plan: its contiguous byte runs `(displacement, length)` in
//! type-map order, with runs that continue one another merged (what `MPIX_Type_iov` returns).

use super::node::Node;

/// Reports the runs of `node` placed at displacement `base` to `f`, in order, unmerged; stops
/// early when `f` returns false. Returns false if it stopped early.
fn visit(node: &Node, base: i64, f: &mut dyn FnMut(i64, i64) -> bool) -> bool {
    match node {
        Node::Run { disp, len } => *len == 0 || f(base.wrapping_add(*disp), *len),
        Node::Repeat {
            disp,
            count,
            stride,
            child,
            ..
        } => {
            let start = base.wrapping_add(*disp);
            (0..*count).all(|k| visit(child, start.wrapping_add(k.wrapping_mul(*stride)), f))
        }
        Node::Strided {
            disp,
            count,
            stride,
            len,
        } => {
            let start = base.wrapping_add(*disp);
            (0..*count).all(|k| f(start.wrapping_add(k.wrapping_mul(*stride)), *len))
        }
        Node::Blocks(b) => {
            let start = base.wrapping_add(b.disp);
            (0..b.len()).all(|k| {
                let block = start.wrapping_add(b.displs[k].wrapping_mul(b.scale));
                (0..b.counts.get(k)).all(|j| {
                    visit(
                        &b.child,
                        block.wrapping_add(j.wrapping_mul(b.child_stride)),
                        f,
                    )
                })
            })
        }
        Node::Seq { disp, seq } => {
            let start = base.wrapping_add(*disp);
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                seq.parts.iter().all(|p| visit(p, start, f))
            })
        }
    }
}

/// Reports the merged runs of `node` to `f` in order; stops early when `f` returns false.
pub fn for_each_segment(node: &Node, mut f: impl FnMut(i64, i64) -> bool) {
    let mut pending: Option<(i64, i64)> = None;
    let finished = visit(node, 0, &mut |disp, len| match &mut pending {
        Some((start, run)) if start.wrapping_add(*run) == disp => {
            *run += len;
            true
        }
        _ => match pending.replace((disp, len)) {
            Some((start, run)) => f(start, run),
            None => true,
        },
    });
    if finished {
        if let Some((start, run)) = pending {
            f(start, run);
        }
    }
}

/// The number of whole segments from the start of `node` whose bytes add up to at most
/// `max_bytes`, and those bytes (`MPIX_Type_iov_len`).
pub fn segments_within(node: &Node, max_bytes: i64) -> (i64, i64) {
    let (mut segments, mut bytes) = (0i64, 0i64);
    for_each_segment(node, |_, len| {
        if bytes + len > max_bytes {
            return false;
        }
        segments += 1;
        bytes += len;
        true
    });
    (segments, bytes)
}

/// Calls `f(displacement, length)` for at most `max` segments of `node`, skipping the first
/// `skip` (`MPIX_Type_iov`); returns how many were reported.
pub fn segments(node: &Node, skip: i64, max: i64, mut f: impl FnMut(i64, i64)) -> i64 {
    let (mut seen, mut reported) = (0i64, 0i64);
    if max <= 0 {
        return 0;
    }
    for_each_segment(node, |disp, len| {
        if seen >= skip {
            f(disp, len);
            reported += 1;
        }
        seen += 1;
        reported < max
    });
    reported
}

/// Where the merged runs of a node cannot be counted from its shape ([`run_shape`]), they are
/// counted one by one up to this many ([`run_count`]); beyond, the count is the plan's bound
/// ([`visited_runs`]). It is also the most blocks [`run_shape`] iterates.
pub const RUN_COUNT_WALK: i64 = 1 << 20;

/// The number of merged runs of `node`: from its shape when that can be had without visiting
/// the runs ([`run_shape`]: exact); else counted one by one, exact when it is at most
/// [`RUN_COUNT_WALK`], else an upper bound above it from the plan's counts. Bounded time for a
/// type of 10^9 blocks, and no walk over the runs of a vector.
pub fn run_count(node: &Node) -> i64 {
    if let Ok(shape) = run_shape(node) {
        return shape.map_or(0, |s| s.runs);
    }
    let mut seen = 0i64;
    let mut stopped = false;
    for_each_segment(node, |_, _| {
        if seen == RUN_COUNT_WALK {
            stopped = true;
            return false;
        }
        seen += 1;
        true
    });
    match stopped {
        true => visited_runs(node).max(seen),
        false => seen,
    }
}

/// The merged runs of a node as [`for_each_segment`] reports them, without visiting them: how
/// many, where the first starts and where the last ends, relative to the node's base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RunShape {
    runs: i64,
    first: i64,
    end: i64,
}

/// A node whose runs [`run_shape`] does not count: more than [`RUN_COUNT_WALK`] irregular
/// blocks, or more runs than `i64` holds.
struct Uncountable;

impl RunShape {
    /// `count` copies of `self`, the `k`-th moved by `k * stride` (`count >= 1`): a copy's
    /// first run continues the previous copy's last one when the stride joins them.
    fn repeated(self, count: i64, stride: i64) -> Result<RunShape, Uncountable> {
        let joins = match self.end == self.first.wrapping_add(stride) {
            true => count - 1,
            false => 0,
        };
        Ok(RunShape {
            runs: count.checked_mul(self.runs).ok_or(Uncountable)? - joins,
            first: self.first,
            end: (count - 1).wrapping_mul(stride).wrapping_add(self.end),
        })
    }

    /// `self` moved by `offset` bytes.
    fn moved(self, offset: i64) -> RunShape {
        RunShape {
            first: self.first.wrapping_add(offset),
            end: self.end.wrapping_add(offset),
            ..self
        }
    }
}

/// The runs of `before` followed by those of `after` (`None`: no runs), joined where `before`
/// ends at `after`'s start.
fn joined(
    before: Option<RunShape>,
    after: Option<RunShape>,
) -> Result<Option<RunShape>, Uncountable> {
    Ok(match (before, after) {
        (Some(a), Some(n)) => Some(RunShape {
            runs: a.runs.checked_add(n.runs).ok_or(Uncountable)? - i64::from(a.end == n.first),
            first: a.first,
            end: n.end,
        }),
        (a, n) => a.or(n),
    })
}

/// The shape of the merged runs of `node` (`Ok(None)`: it has none), from its counts and
/// strides.
fn run_shape(node: &Node) -> Result<Option<RunShape>, Uncountable> {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || match node {
        Node::Run { disp, len } => Ok((*len > 0).then(|| RunShape {
            runs: 1,
            first: *disp,
            end: disp.wrapping_add(*len),
        })),
        Node::Repeat {
            disp,
            count,
            stride,
            child,
            ..
        } => match run_shape(child)? {
            Some(c) if *count > 0 => Ok(Some(c.repeated(*count, *stride)?.moved(*disp))),
            _ => Ok(None),
        },
        Node::Strided {
            disp,
            count,
            stride,
            len,
        } => {
            let run = RunShape {
                runs: 1,
                first: 0,
                end: *len,
            };
            Ok(Some(run.repeated(*count, *stride)?.moved(*disp)))
        }
        Node::Blocks(b) => {
            if b.len() as i64 > RUN_COUNT_WALK {
                return Err(Uncountable);
            }
            let Some(child) = run_shape(&b.child)? else {
                return Ok(None);
            };
            let mut acc = None;
            for k in 0..b.len() {
                let count = b.counts.get(k);
                if count <= 0 {
                    continue;
                }
                let place = b.disp.wrapping_add(b.displs[k].wrapping_mul(b.scale));
                let block = child.repeated(count, b.child_stride)?.moved(place);
                acc = joined(acc, Some(block))?;
            }
            Ok(acc)
        }
        Node::Seq { disp, seq } => {
            let mut acc = None;
            for part in &seq.parts {
                acc = joined(acc, run_shape(part)?)?;
            }
            Ok(acc.map(|shape| shape.moved(*disp)))
        }
    })
}

/// The number of runs `node` visits before merging (an upper bound on the number of merged
/// runs), from the plan's counts; saturates at `i64::MAX`.
pub fn visited_runs(node: &Node) -> i64 {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || match node {
        Node::Run { len, .. } => i64::from(*len > 0),
        Node::Repeat { count, child, .. } => count.saturating_mul(visited_runs(child)),
        Node::Strided { count, .. } => *count,
        Node::Blocks(b) => {
            let per_copy = visited_runs(&b.child);
            let copies = (0..b.len()).fold(0i64, |acc, k| acc.saturating_add(b.counts.get(k)));
            copies.saturating_mul(per_copy)
        }
        Node::Seq { seq, .. } => seq
            .parts
            .iter()
            .fold(0i64, |acc, p| acc.saturating_add(visited_runs(p))),
    })
}
