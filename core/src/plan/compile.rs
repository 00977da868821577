//! The smart constructors a datatype's plan is compiled with (each constructor's node is built
//! from its children's plans by [`crate::datatype::compile`]); they keep the plan small and
//! regular:
//!
//! - count-1 and empty levels disappear, and adjacent runs merge;
//! - a repetition of a dense run whose copies abut is one run (a vector of dense blocks is one
//!   block), and a repetition of a repetition that continues it is one repetition (nested
//!   strides fold);
//! - indexed displacements that turn out to be regular become a repetition, and a struct whose
//!   members are congruent and evenly spaced becomes one;
//! - each type's plan is compiled once and shared, so repeated subtrees are not copied, and the
//!   block arrays of indexed types are shared with the constructor's arguments.

use super::node::{Blocks, Counts, Node, Sequence, CHECKPOINT_EVERY};
use super::{Plan, StructKernel};
use crate::array::Array;
use std::cell::RefCell;
use std::sync::Arc;

/// Block lists up to this long are compiled into sequences, where neighbouring blocks can
/// merge; longer ones keep their arrays.
const SMALL_BLOCK_LIST: usize = 8;
/// Nested sequences up to this long are flattened into their parent.
const SMALL_SEQUENCE: usize = 32;
/// Sequences of up to this many runs are run by the array-of-structs kernel.
const SMALL_STRUCT: usize = 16;

/// `count` blocks `stride` bytes apart of `blocklength` consecutive copies of `old`.
pub fn strided(count: i64, stride: i64, blocklength: i64, old: &Plan) -> Node {
    let block = copies_of(blocklength, old.extent, old);
    repeat(count, stride, &block)
}

/// How many run leaves each thread keeps for reuse ([`shared`]).
const RECENT_RUNS: usize = 8;

thread_local! {
    /// The run leaves this thread made last, by a hash of their shape.
    static RECENT_RUN_LEAVES: RefCell<[Option<Arc<Node>>; RECENT_RUNS]> =
        const { RefCell::new([const { None }; RECENT_RUNS]) };
}

/// `child` as the shared node a repetition or block list holds. A run (the child of every
/// indexed type of a basic type; a repetition of a run is a flat [`Node::Strided`]) is taken
/// from this thread's recent run leaves when one of the same shape is there, so that building
/// and freeing such types in a loop allocates no node; a node is immutable, so any number of
/// plans can share one.
fn shared(child: &Node) -> Arc<Node> {
    let Node::Run { disp, len } = *child else {
        return Arc::new(child.clone());
    };
    let way = (len ^ disp.rotate_left(17)) as usize % RECENT_RUNS;
    let recent = RECENT_RUN_LEAVES.try_with(|leaves| {
        let mut leaves = leaves.try_borrow_mut().ok()?;
        match &leaves[way] {
            Some(leaf) if matches!(**leaf, Node::Run { disp: d, len: l } if d == disp && l == len) => {
                Some(leaf.clone())
            }
            _ => {
                let leaf = Arc::new(child.clone());
                leaves[way] = Some(leaf.clone());
                Some(leaf)
            }
        }
    });
    recent
        .ok()
        .flatten()
        .unwrap_or_else(|| Arc::new(child.clone()))
}

/// `node` as a displacement, the node placed there and the `Arc` that holds that node when
/// there is one: a single copy of a sequence or block list is kept as a one-copy repetition
/// (so that it is shared, not copied); this looks through it.
fn unwrap_single(node: &Node) -> (i64, &Node, Option<&Arc<Node>>) {
    match node {
        Node::Repeat {
            disp,
            count: 1,
            child,
            ..
        } => (*disp, child, Some(child)),
        _ => (0, node, None),
    }
}

/// `count` copies of `child`, `stride` bytes apart.
pub fn repeat(count: i64, stride: i64, child: &Node) -> Node {
    repeat_sharing(count, stride, child, None)
}

/// `count` copies of `plan`, `stride` bytes apart, sharing the copy of it that other plans
/// hold ([`Plan`]'s holder). Copies of a run that abut (a block of a basic type: every member
/// of most structs) are one run, found here without the general case's call.
#[inline]
pub fn copies_of(count: i64, stride: i64, plan: &Plan) -> Node {
    if let Node::Run { disp, len } = *plan.root() {
        if count > 0 && len > 0 && (count == 1 || len == stride) {
            return Node::Run {
                disp,
                len: len.wrapping_mul(count),
            };
        }
    }
    repeat_sharing(count, stride, plan.root(), plan.holder())
}

/// [`repeat`] of `child`, which `held` holds when it is given: a repetition made of `child`
/// then shares `held` (the plan of one type, repeated by many).
fn repeat_sharing(count: i64, stride: i64, child: &Node, held: Option<&Arc<Node>>) -> Node {
    if count <= 0 || child.size() == 0 {
        return Node::EMPTY;
    }
    let (offset, inner, inner_held) = unwrap_single(child);
    if count > 1 && inner_held.is_some() {
        return repeat_sharing(count, stride, inner, inner_held).shifted(offset);
    }
    match child {
        _ if count == 1 && !matches!(child, Node::Seq { .. } | Node::Blocks(_)) => child.clone(),
        Node::Run { disp, len } if *len == stride => Node::Run {
            disp: *disp,
            len: len.wrapping_mul(count),
        },
        Node::Run { disp, len } => Node::Strided {
            disp: *disp,
            count,
            stride,
            len: *len,
        },
        Node::Strided {
            disp,
            count: inner,
            stride: inner_stride,
            len,
        } if inner.wrapping_mul(*inner_stride) == stride => Node::Strided {
            disp: *disp,
            count: count.wrapping_mul(*inner),
            stride: *inner_stride,
            len: *len,
        },
        Node::Repeat {
            disp,
            count: inner,
            stride: inner_stride,
            child: grandchild,
            size,
        } if inner.wrapping_mul(*inner_stride) == stride => Node::Repeat {
            disp: *disp,
            count: count.wrapping_mul(*inner),
            stride: *inner_stride,
            child: grandchild.clone(),
            size: size.wrapping_mul(count),
        },
        _ => Node::Repeat {
            disp: 0,
            count,
            stride,
            child: held.cloned().unwrap_or_else(|| shared(child)),
            size: child.size().wrapping_mul(count),
        },
    }
}

/// The parts one after the other: nested small sequences are flattened, empty parts dropped,
/// abutting runs merged, and evenly spaced congruent parts turned into a repetition.
pub fn sequence(parts: Vec<Node>) -> Node {
    let mut flat = flattened(parts);
    match flat.len() {
        0 => return Node::EMPTY,
        1 => return flat.pop().expect("one part"),
        _ => {}
    }
    if let Some(regular) = as_repetition(&flat) {
        return regular;
    }
    let mut starts = Vec::with_capacity(flat.len() + 1);
    let mut offset = 0i64;
    for p in &flat {
        starts.push(offset);
        offset = offset.wrapping_add(p.size());
    }
    starts.push(offset);
    let run = |p: &Node| match *p {
        Node::Run { disp, len } => Some((disp, len)),
        _ => None,
    };
    let runs = match flat.len() <= SMALL_STRUCT && flat.iter().all(|p| run(p).is_some()) {
        true => flat.iter().filter_map(run).collect(),
        false => Vec::new(),
    };
    let kernel = StructKernel::for_runs(&runs);
    Node::Seq {
        disp: 0,
        seq: Arc::new(Sequence {
            parts: flat,
            starts,
            runs,
            kernel,
        }),
    }
}

/// `parts` with nested small sequences flattened into them, empty parts dropped and abutting
/// runs merged; in the same vector when no sequence is nested (a struct of basic types).
fn flattened(parts: Vec<Node>) -> Vec<Node> {
    let nests = |p: &Node| matches!(p, Node::Seq { seq, .. } if seq.parts.len() <= SMALL_SEQUENCE);
    let mut flat = match parts.iter().any(nests) {
        false => parts,
        true => {
            let mut flat = Vec::with_capacity(parts.len());
            for part in parts {
                match part {
                    Node::Seq { disp, seq } if seq.parts.len() <= SMALL_SEQUENCE => {
                        // Its parts are taken over if this was its only holder, else copied.
                        let inner = Arc::try_unwrap(seq)
                            .map_or_else(|held| held.parts.clone(), |s| s.parts);
                        flat.extend(inner.into_iter().map(|p| p.shifted(disp)));
                    }
                    p => flat.push(p),
                }
            }
            flat
        }
    };
    flat.retain(|p| p.size() != 0);
    flat.dedup_by(|part, last| merged(last, part));
    flat
}

/// Merges `part` into `last` when both are runs and `part` starts where `last` ends.
fn merged(last: &mut Node, part: &Node) -> bool {
    if let (Node::Run { disp, len }, Node::Run { disp: d, len: l }) = (last, part) {
        if disp.wrapping_add(*len) == *d {
            *len = len.wrapping_add(*l);
            return true;
        }
    }
    false
}

/// The parts as one repetition, if they are congruent and evenly spaced.
fn as_repetition(parts: &[Node]) -> Option<Node> {
    let first = &parts[0];
    let step = parts[1].disp().wrapping_sub(first.disp());
    let regular = parts
        .windows(2)
        .all(|w| w[0].congruent(&w[1]) && w[1].disp().wrapping_sub(w[0].disp()) == step);
    if !regular {
        return None;
    }
    let origin = first.disp();
    let unit = first.clone().shifted(origin.wrapping_neg());
    Some(repeat(parts.len() as i64, step, &unit).shifted(origin))
}

/// Blocks of copies of `old` at `displs[k] * scale` bytes.
pub fn blocks(displs: &Array, scale: i64, counts: Counts, old: &Plan) -> Node {
    let (offset, child, held) = match (old.root(), old.holder()) {
        (root, Some(holder)) => (0, root, Some(holder)),
        (root, None) => unwrap_single(root),
    };
    let child_stride = old.extent;
    let n = displs.len();
    if n == 0 || child.size() == 0 {
        return Node::EMPTY;
    }
    let block = |k: usize| {
        repeat_sharing(counts.get(k), child_stride, child, held)
            .shifted(displs[k].wrapping_mul(scale).wrapping_add(offset))
    };
    if n <= SMALL_BLOCK_LIST {
        return sequence((0..n).map(block).collect());
    }
    let uniform = match &counts {
        Counts::Uniform(c) => Some(*c),
        Counts::PerBlock(a) => a.iter().all(|&c| c == a[0]).then_some(a[0]),
    };
    if let Some(c) = uniform {
        let step = displs[1].wrapping_sub(displs[0]);
        if displs.windows(2).all(|w| w[1].wrapping_sub(w[0]) == step) {
            let one = repeat_sharing(c, child_stride, child, held);
            return repeat(n as i64, step.wrapping_mul(scale), &one)
                .shifted(displs[0].wrapping_mul(scale).wrapping_add(offset));
        }
    }
    let counts = match uniform {
        Some(c) => Counts::Uniform(c),
        None => counts,
    };
    let child_size = child.size();
    let mut checkpoints = Vec::with_capacity(n / CHECKPOINT_EVERY);
    let mut size = 0i64;
    for k in 0..n {
        if k % CHECKPOINT_EVERY == 0 && k > 0 {
            checkpoints.push(size);
        }
        size = size.wrapping_add(counts.get(k).wrapping_mul(child_size));
    }
    if size == 0 {
        return Node::EMPTY;
    }
    Node::Blocks(Arc::new(Blocks {
        disp: offset,
        displs: displs.clone(),
        scale,
        counts,
        child: held.cloned().unwrap_or_else(|| shared(child)),
        child_stride,
        child_size,
        size,
        checkpoints,
    }))
}
