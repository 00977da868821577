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
        Node::Seq { disp, parts, .. } => {
            let start = base.wrapping_add(*disp);
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                parts.iter().all(|p| visit(p, start, f))
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

/// Merged runs are counted one by one up to this many ([`run_count`]); beyond, the count is
/// the plan's bound ([`visited_runs`]).
pub const RUN_COUNT_WALK: i64 = 1 << 20;

/// The number of merged runs of `node`, exact when it is at most [`RUN_COUNT_WALK`], else an
/// upper bound above it from the plan's counts: bounded time for a type of 10^9 blocks.
pub fn run_count(node: &Node) -> i64 {
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

/// The number of runs `node` visits before merging (an upper bound on the number of merged
/// runs), from the plan's counts; saturates at `i64::MAX`.
pub fn visited_runs(node: &Node) -> i64 {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || match node {
        Node::Run { len, .. } => i64::from(*len > 0),
        Node::Repeat { count, child, .. } => count.saturating_mul(visited_runs(child)),
        Node::Blocks(b) => {
            let per_copy = visited_runs(&b.child);
            let copies = (0..b.len()).fold(0i64, |acc, k| acc.saturating_add(b.counts.get(k)));
            copies.saturating_mul(per_copy)
        }
        Node::Seq { parts, .. } => parts
            .iter()
            .fold(0i64, |acc, p| acc.saturating_add(visited_runs(p))),
    })
}
