//! The pack plan's nodes: a normalised, byte-level description of where the bytes of a type
//! map lie, in type-map order. Every node knows how many bytes it packs, so any packed byte
//! offset can be found by descending the tree.

use super::kernels::StructKernel;
use crate::array::Array;
use std::sync::Arc;

/// Block counts of a [`Blocks`] node: one for all blocks, or one per block.
#[derive(Debug, Clone)]
pub enum Counts {
    /// Every block holds this many copies of the child.
    Uniform(i64),
    /// Block `k` holds `counts[k]` copies of the child.
    PerBlock(Array),
}

impl Counts {
    /// The number of copies in block `k`.
    #[inline(always)]
    pub fn get(&self, k: usize) -> i64 {
        match self {
            Counts::Uniform(c) => *c,
            Counts::PerBlock(a) => a[k],
        }
    }
}

/// How many blocks lie between two packed-offset checkpoints of a [`Blocks`] node.
pub const CHECKPOINT_EVERY: usize = 64;

/// Blocks at irregular displacements: block `k` holds `counts.get(k)` copies of `child`,
/// `child_stride` bytes apart, starting at `disp + displs[k] * scale`.
#[derive(Debug, Clone)]
pub struct Blocks {
    /// Displacement added to every block.
    pub disp: i64,
    /// Block displacements, in units of `scale` bytes (shared with the constructor).
    pub displs: Array,
    /// Bytes per displacement unit.
    pub scale: i64,
    /// Copies of the child per block.
    pub counts: Counts,
    /// The node each copy packs.
    pub child: Arc<Node>,
    /// Bytes between consecutive copies of the child inside a block.
    pub child_stride: i64,
    /// Packed bytes of one copy of the child.
    pub child_size: i64,
    /// Packed bytes of all blocks.
    pub size: i64,
    /// Packed offset at which block `(j + 1) * CHECKPOINT_EVERY` starts (for seeking; the
    /// first block starts at 0, so a list of up to `CHECKPOINT_EVERY` blocks keeps none).
    pub checkpoints: Vec<i64>,
}

impl Blocks {
    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.displs.len()
    }

    /// True if there are no blocks.
    pub fn is_empty(&self) -> bool {
        self.displs.is_empty()
    }

    /// Byte displacement of block `k`.
    #[inline(always)]
    pub fn block_disp(&self, k: usize) -> i64 {
        self.disp
            .wrapping_add(self.displs[k].wrapping_mul(self.scale))
    }

    /// Packed bytes of block `k`.
    #[inline(always)]
    pub fn block_size(&self, k: usize) -> i64 {
        self.counts.get(k).wrapping_mul(self.child_size)
    }

    /// The block holding packed offset `offset` (less than `size`) and the packed offset at
    /// which that block starts.
    pub fn seek(&self, offset: i64) -> (usize, i64) {
        let j = self.checkpoints.partition_point(|&c| c <= offset);
        let mut k = j * CHECKPOINT_EVERY;
        let mut start = match j {
            0 => 0,
            j => self.checkpoints[j - 1],
        };
        loop {
            let next = start + self.block_size(k);
            if next > offset {
                return (k, start);
            }
            start = next;
            k += 1;
        }
    }
}

/// One node of a pack plan. Displacements are bytes relative to the base address the node
/// is executed at.
#[derive(Debug, Clone)]
pub enum Node {
    /// `len` contiguous bytes at `disp` (`len == 0` is the empty plan).
    Run {
        /// Where the bytes start.
        disp: i64,
        /// How many bytes.
        len: i64,
    },
    /// `count` copies of `child`, the `k`-th at `disp + k * stride`.
    Repeat {
        /// Where the first copy is placed.
        disp: i64,
        /// Number of copies.
        count: i64,
        /// Bytes between consecutive copies.
        stride: i64,
        /// The repeated node.
        child: Arc<Node>,
        /// Packed bytes of all copies.
        size: i64,
    },
    /// `count` runs of `len` bytes, the `k`-th at `disp + k * stride`: a repetition of one
    /// run (a vector of a basic type), kept flat so that making, copying and dropping it
    /// touch no shared node. `count >= 2` and `0 < len != stride`.
    Strided {
        /// Where the first run starts.
        disp: i64,
        /// Number of runs.
        count: i64,
        /// Bytes between the starts of consecutive runs.
        stride: i64,
        /// Bytes of each run.
        len: i64,
    },
    /// Blocks at irregular displacements (shared: a copy of the node shares them).
    Blocks(Arc<Blocks>),
    /// Parts packed one after the other, each placed at `disp` plus its own displacement.
    Seq {
        /// Displacement added to every part.
        disp: i64,
        /// The parts (shared: a copy of the node shares them).
        seq: Arc<Sequence>,
    },
}

/// The parts of a [`Node::Seq`].
#[derive(Debug)]
pub struct Sequence {
    /// The parts, in type-map order, none of them empty.
    pub parts: Vec<Node>,
    /// Packed offset at which each part starts, and the total at the end.
    pub starts: Vec<i64>,
    /// When every part is a run and there are few of them: their `(disp, len)`, for the
    /// array-of-structs kernel; empty otherwise.
    pub runs: Vec<(i64, i64)>,
    /// The array-of-structs loop compiled for the shape of `runs`, when there is one.
    pub kernel: Option<StructKernel>,
}

impl Sequence {
    /// True if every part is a run: the array-of-structs loops move the sequence then.
    pub fn runs_only(&self) -> bool {
        !self.runs.is_empty()
    }
}

impl Node {
    /// The empty plan: no bytes.
    pub const EMPTY: Node = Node::Run { disp: 0, len: 0 };

    /// Packed bytes of this node.
    #[inline(always)]
    pub fn size(&self) -> i64 {
        match self {
            Node::Run { len, .. } => *len,
            Node::Repeat { size, .. } => *size,
            Node::Strided { count, len, .. } => count.wrapping_mul(*len),
            Node::Blocks(b) => b.size,
            Node::Seq { seq, .. } => *seq.starts.last().expect("a sequence has an end offset"),
        }
    }

    /// The displacement of the node's placement.
    pub fn disp(&self) -> i64 {
        match self {
            Node::Run { disp, .. }
            | Node::Repeat { disp, .. }
            | Node::Strided { disp, .. }
            | Node::Seq { disp, .. } => *disp,
            Node::Blocks(b) => b.disp,
        }
    }

    /// True if the plans that repeat or place a type whose plan is this node hold it through
    /// one shared copy (so that all of them share it: [`Plan::holder`](super::Plan::holder)):
    /// a sequence or a block list. They copy any other node whole, cheaply.
    #[inline]
    pub fn is_held(&self) -> bool {
        matches!(self, Node::Seq { .. } | Node::Blocks(_))
    }

    /// A [`Node::Strided`] as the repetition of one run it stands for; any other node as it
    /// is. For code off the pack path that describes repetitions (it may allocate).
    pub fn unflattened(&self) -> std::borrow::Cow<'_, Node> {
        match *self {
            Node::Strided {
                disp,
                count,
                stride,
                len,
            } => std::borrow::Cow::Owned(Node::Repeat {
                disp,
                count,
                stride,
                child: Arc::new(Node::Run { disp: 0, len }),
                size: self.size(),
            }),
            _ => std::borrow::Cow::Borrowed(self),
        }
    }

    /// This node moved by `offset` bytes. Inline, so that a node just made is moved where it
    /// lies (in registers) and not copied through memory; only a block list, whose shared
    /// body may need a copy, is moved out of line.
    #[inline(always)]
    pub fn shifted(mut self, offset: i64) -> Node {
        match &mut self {
            Node::Run { disp, .. }
            | Node::Repeat { disp, .. }
            | Node::Strided { disp, .. }
            | Node::Seq { disp, .. } => *disp = disp.wrapping_add(offset),
            Node::Blocks(b) => shift_blocks(b, offset),
        }
        self
    }

    /// True if `self` and `other` pack the same shape of bytes, differing at most in the
    /// displacement of their placement: runs of one length, or repetitions of one count and
    /// stride whose children are the same (equal runs and repetitions down to a shared node),
    /// or strided runs of one count, stride and length.
    pub fn congruent(&self, other: &Node) -> bool {
        match (self, other) {
            (Node::Run { len: a, .. }, Node::Run { len: b, .. }) => a == b,
            (
                Node::Repeat {
                    count: c1,
                    stride: s1,
                    child: k1,
                    ..
                },
                Node::Repeat {
                    count: c2,
                    stride: s2,
                    child: k2,
                    ..
                },
            ) => c1 == c2 && s1 == s2 && same(k1, k2),
            (
                Node::Strided {
                    count: c1,
                    stride: s1,
                    len: l1,
                    ..
                },
                Node::Strided {
                    count: c2,
                    stride: s2,
                    len: l2,
                    ..
                },
            ) => (c1, s1, l1) == (c2, s2, l2),
            _ => false,
        }
    }
}

/// True if `a` and `b` are the same plan: one shared node, or equal runs, or repetitions
/// that agree field by field down to a shared node. A loop, not a recursion: a chain of
/// repetitions can be as deep as the type.
fn same(mut a: &Arc<Node>, mut b: &Arc<Node>) -> bool {
    loop {
        if Arc::ptr_eq(a, b) {
            return true;
        }
        match (&**a, &**b) {
            (Node::Run { disp: d1, len: l1 }, Node::Run { disp: d2, len: l2 }) => {
                return d1 == d2 && l1 == l2
            }
            (
                Node::Repeat {
                    disp: d1,
                    count: c1,
                    stride: s1,
                    child: k1,
                    ..
                },
                Node::Repeat {
                    disp: d2,
                    count: c2,
                    stride: s2,
                    child: k2,
                    ..
                },
            ) if d1 == d2 && c1 == c2 && s1 == s2 => (a, b) = (k1, k2),
            (
                Node::Strided {
                    disp: d1,
                    count: c1,
                    stride: s1,
                    len: l1,
                },
                Node::Strided {
                    disp: d2,
                    count: c2,
                    stride: s2,
                    len: l2,
                },
            ) => return (d1, c1, s1, l1) == (d2, c2, s2, l2),
            (Node::Seq { disp: d1, seq: q1 }, Node::Seq { disp: d2, seq: q2 }) => {
                return d1 == d2 && Arc::ptr_eq(q1, q2)
            }
            (Node::Blocks(b1), Node::Blocks(b2)) => return Arc::ptr_eq(b1, b2),
            _ => return false,
        }
    }
}

/// Moves a block list by `offset` bytes: its body is copied first if other nodes share it.
#[inline(never)]
fn shift_blocks(blocks: &mut Arc<Blocks>, offset: i64) {
    let b = Arc::make_mut(blocks);
    b.disp = b.disp.wrapping_add(offset)
}
