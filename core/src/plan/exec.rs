//! Runs a plan: moves the bytes of a node between user memory and the packed stream, either
//! all of them ([`full`]) or any byte range of the node's packed stream ([`range`]). A range
//! starts with a seek that descends the tree once (O(depth), plus a binary search in
//! irregular block lists), never by skipping bytes one block at a time.
//!
//! # Safety
//! As for [`super::kernels`]: every byte the plan addresses relative to `mem`, and the bytes
//! moved at `*stream`, must be valid for the access the direction makes.

use super::kernels::{self, at, prefetch, GATHER_ASKS_FROM, PREFETCH_AHEAD};
use super::node::{Blocks, Counts, Node, Sequence};

/// Stack space kept free before descending one more level of a deep plan.
const STACK_RED_ZONE: usize = 64 * 1024;
/// Stack allocated when a deep plan needs more.
const STACK_GROWTH: usize = 1024 * 1024;

/// Moves every byte of `node` placed at `mem`.
pub unsafe fn full<const PACK: bool>(node: &Node, mem: *mut u8, stream: &mut *mut u8) {
    match node {
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        Node::Run { disp, len } => unsafe {
            kernels::any::<PACK>(at(mem, *disp), *stream, *len as usize);
            *stream = stream.add(*len as usize);
        },
        Node::Repeat {
            disp,
            count,
            stride,
            child,
            ..
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        } => unsafe { repeat_full::<PACK>(at(mem, *disp), *count, *stride, child, stream) },
        Node::Strided {
            disp,
            count,
            stride,
            len,
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        } => unsafe { kernels::strided::<PACK>(at(mem, *disp), *count, *stride, *len, stream) },
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        Node::Blocks(b) => unsafe { blocks_full::<PACK>(b, mem, 0, b.len(), 1, stream) },
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        Node::Seq { disp, seq } if seq.runs_only() => unsafe {
            struct_runs::<PACK>(seq, at(mem, *disp), 1, 0, stream)
        },
        Node::Seq { disp, seq } => {
            let (base, parts) = (at(mem, *disp), &seq.parts);
            stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || {
                for (i, part) in parts.iter().enumerate() {
                    if let Some(ahead) = parts.get(i + PREFETCH_AHEAD) {
                        prefetch(at(base, ahead.disp()));
                    }
                    // SAFETY: module contract.
                    unsafe { full::<PACK>(part, base, stream) };
                }
            })
        }
    }
}

/// Moves `count` copies, `stride` bytes apart from `base`, of a sequence made of runs only
/// ([`Sequence::runs_only`]): by the loop compiled for its shape, else the generic one.
unsafe fn struct_runs<const PACK: bool>(
    seq: &Sequence,
    base: *mut u8,
    count: i64,
    stride: i64,
    stream: &mut *mut u8,
) {
    // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
    unsafe {
        match &seq.kernel {
            Some(k) => k.run::<PACK>(base, count, stride, &seq.runs, stream),
            None => kernels::struct_array::<PACK>(base, count, stride, &seq.runs, stream),
        }
    }
}

/// Moves every byte of `count` copies of `root`, `extent` bytes apart from `mem`.
pub unsafe fn copies_full<const PACK: bool>(
    root: &Node,
    mem: *mut u8,
    count: i64,
    extent: i64,
    stream: &mut *mut u8,
) {
    // A type that places one copy of another (a struct of one member) is run as that one,
    // so that many copies of it take the loops of what it places.
    let (mem, root) = match root {
        Node::Repeat {
            disp,
            count: 1,
            child,
            ..
        } => (at(mem, *disp), &**child),
        _ => (mem, root),
    };
    // SAFETY: module contract.
    unsafe {
        if count == 1 {
            full::<PACK>(root, mem, stream)
        } else {
            repeat_full::<PACK>(mem, count, extent, root, stream)
        }
    }
}

/// Moves `count` copies of `child`, `stride` bytes apart from `base`.
unsafe fn repeat_full<const PACK: bool>(
    base: *mut u8,
    count: i64,
    stride: i64,
    child: &Node,
    stream: &mut *mut u8,
) {
    match child {
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        Node::Run { disp, len } => unsafe {
            kernels::strided::<PACK>(at(base, *disp), count, stride, *len, stream)
        },
        Node::Strided {
            disp,
            count: inner,
            stride: inner_stride,
            len,
            // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        } => unsafe {
            kernels::strided_side_by_side::<PACK>(
                at(base, *disp),
                count,
                stride,
                *inner,
                *inner_stride,
                *len,
                stream,
            )
        },
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        Node::Seq { disp, seq } if seq.runs_only() => unsafe {
            struct_runs::<PACK>(seq, at(base, *disp), count, stride, stream)
        },
        other => {
            for k in 0..count {
                let copy = base.wrapping_offset(k.wrapping_mul(stride) as isize);
                // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
                unsafe {
                    match other {
                        // A block list's gathers ask ahead by the blocks of all the copies.
                        Node::Blocks(b) => blocks_full::<PACK>(b, copy, 0, b.len(), count, stream),
                        _ => full::<PACK>(other, copy, stream),
                    }
                }
            }
        }
    }
}

/// Moves blocks `from..to` of `b` placed at `mem`, one of `copies` copies of `b` the message
/// moves (which decide whether a gather asks ahead: [`GATHER_ASKS_FROM`]).
unsafe fn blocks_full<const PACK: bool>(
    b: &Blocks,
    mem: *mut u8,
    from: usize,
    to: usize,
    copies: i64,
    stream: &mut *mut u8,
) {
    let base = at(mem, b.disp);
    let displs = &b.displs[from..to];
    match (&*b.child, &b.counts) {
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        (Node::Run { disp, len }, Counts::Uniform(c)) if *len == b.child_stride => unsafe {
            let ask_ahead = (b.len() as i64).saturating_mul(copies) >= GATHER_ASKS_FROM as i64;
            kernels::gather::<PACK>(at(base, *disp), displs, b.scale, c * len, ask_ahead, stream)
        },
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        (Node::Run { disp, len }, Counts::PerBlock(counts)) if *len == b.child_stride => unsafe {
            kernels::gather_lengths::<PACK>(
                at(base, *disp),
                displs,
                b.scale,
                &counts[from..to],
                *len,
                stream,
            )
        },
        _ => {
            for k in from..to {
                if k + PREFETCH_AHEAD < to {
                    prefetch(at(mem, b.block_disp(k + PREFETCH_AHEAD)));
                }
                let block = at(mem, b.block_disp(k));
                // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
                unsafe {
                    repeat_full::<PACK>(block, b.counts.get(k), b.child_stride, &b.child, stream)
                }
            }
        }
    }
}

/// Moves the bytes `[skip, skip + want)` of the packed stream of `node` placed at `mem`
/// (`0 <= skip`, `skip + want <= node.size()`).
pub unsafe fn range<const PACK: bool>(
    node: &Node,
    mem: *mut u8,
    skip: i64,
    want: i64,
    stream: &mut *mut u8,
) {
    if want <= 0 {
        return;
    }
    if skip == 0 && want == node.size() {
        // SAFETY: module contract.
        return unsafe { full::<PACK>(node, mem, stream) };
    }
    match node {
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        Node::Run { disp, .. } => unsafe {
            kernels::any::<PACK>(at(mem, disp.wrapping_add(skip)), *stream, want as usize);
            *stream = stream.add(want as usize);
        },
        Node::Repeat {
            disp,
            count,
            stride,
            child,
            ..
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        } => unsafe {
            repeat_range::<PACK>(at(mem, *disp), *count, *stride, child, skip, want, stream)
        },
        Node::Strided {
            disp,
            count,
            stride,
            len,
        } => {
            let run = Node::Run { disp: 0, len: *len };
            // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
            unsafe { repeat_range::<PACK>(at(mem, *disp), *count, *stride, &run, skip, want, stream) }
        }
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        Node::Blocks(b) => unsafe { blocks_range::<PACK>(b, mem, skip, want, stream) },
        Node::Seq { disp, seq } => {
            let (base, parts, starts) = (at(mem, *disp), &seq.parts, &seq.starts);
            let mut i = starts.partition_point(|&s| s <= skip) - 1;
            let (mut skip, mut want) = (skip - starts[i], want);
            stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || {
                while want > 0 {
                    let take = (parts[i].size() - skip).min(want);
                    // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
                    unsafe { range::<PACK>(&parts[i], base, skip, take, stream) };
                    want -= take;
                    skip = 0;
                    i += 1;
                }
            })
        }
    }
}

/// Moves the bytes `[skip, skip + want)` of `count` copies of `child` `stride` bytes apart.
#[allow(clippy::too_many_arguments)]
unsafe fn repeat_range<const PACK: bool>(
    base: *mut u8,
    count: i64,
    stride: i64,
    child: &Node,
    skip: i64,
    mut want: i64,
    stream: &mut *mut u8,
) {
    let size = child.size();
    let mut k = skip / size;
    let offset = skip % size;
    let copy = |k: i64| base.wrapping_offset(k.wrapping_mul(stride) as isize);
    if offset > 0 {
        let take = (size - offset).min(want);
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        unsafe { range::<PACK>(child, copy(k), offset, take, stream) };
        want -= take;
        k += 1;
    }
    let whole = (want / size).min(count - k);
    if whole > 0 {
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        unsafe { repeat_full::<PACK>(copy(k), whole, stride, child, stream) };
        want -= whole * size;
        k += whole;
    }
    if want > 0 {
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        unsafe { range::<PACK>(child, copy(k), 0, want, stream) };
    }
}

/// Moves the bytes `[skip, skip + want)` of the blocks of `b` placed at `mem`.
unsafe fn blocks_range<const PACK: bool>(
    b: &Blocks,
    mem: *mut u8,
    skip: i64,
    mut want: i64,
    stream: &mut *mut u8,
) {
    let (mut k, start) = b.seek(skip);
    // Moves `[skip, skip + take)` of block `k`'s stream.
    let block_range = |k: usize, skip: i64, take: i64, stream: &mut *mut u8| {
        let block = at(mem, b.block_disp(k));
        let (count, stride) = (b.counts.get(k), b.child_stride);
        // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
        unsafe { repeat_range::<PACK>(block, count, stride, &b.child, skip, take, stream) }
    };
    let offset = skip - start;
    if offset > 0 {
        let take = (b.block_size(k) - offset).min(want);
        block_range(k, offset, take, stream);
        want -= take;
        k += 1;
    }
    let first_whole = k;
    while k < b.len() && b.block_size(k) <= want {
        want -= b.block_size(k);
        k += 1;
    }
    // SAFETY: module contract: the caller guarantees the addressed bytes and the stream.
    unsafe { blocks_full::<PACK>(b, mem, first_whole, k, 1, stream) };
    if want > 0 {
        block_range(k, 0, want, stream);
    }
}
