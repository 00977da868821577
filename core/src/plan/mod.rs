//! Pack plans, and the range-based pack / unpack entry points every copy of a type's bytes
//! goes through.
//!
//! A plan is a small tree of [`node::Node`]s (runs, repetitions, block lists, sequences),
//! built by the smart constructors of [`compile`] so that the common shapes (vectors, faces
//! and tiles of grids, gathers, arrays of structs) become one or two levels that [`exec`]
//! runs with the size-specialised loops of [`kernels`]. A datatype's plan is compiled once,
//! when the type is made ([`crate::datatype::compile`]), and kept on the datatype; this module
//! knows nodes and bytes, not datatypes.
//!
//! The packed stream of `count` copies of a type is addressed by byte offset: any range of it
//! can be packed or unpacked on its own, so a caller can stop and resume anywhere, and the
//! seek to a range's start costs O(depth of the plan).

pub mod compile;
mod exec;
pub mod iov;
mod kernels;
pub mod node;

pub use kernels::StructKernel;

use crate::predefined::Basic;
use node::Node;
use std::sync::{Arc, OnceLock};

/// A type signature as `(basic, count)` runs.
pub type Signature = Box<[(Basic, i64)]>;

/// A compiled type: the plan of one copy and the extent between copies.
#[derive(Debug)]
pub struct Plan {
    /// The plan of one copy, placed at displacement 0.
    root: Node,
    /// The shared copy of `root` through which other plans hold it, when they do not copy it
    /// ([`Node::is_held`]): made when a first plan is built on this one, since most types are
    /// never another's child.
    holder: OnceLock<Arc<Node>>,
    /// The type's extent: copy `k` of a count is placed at `k * extent`.
    pub extent: i64,
    /// The signature of one copy as `(basic, count)` runs, computed on first use; `None` when
    /// it has too many runs to keep.
    signature: OnceLock<Option<Signature>>,
    /// The number of contiguous runs of one copy, computed on first use.
    runs: OnceLock<i64>,
}

impl Plan {
    /// The plan whose one copy is `root`, copies `extent` bytes apart.
    pub fn new(root: Node, extent: i64) -> Plan {
        Plan {
            holder: OnceLock::new(),
            root,
            extent,
            signature: OnceLock::new(),
            runs: OnceLock::new(),
        }
    }

    /// The plan of one copy, placed at displacement 0.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// The shared copy of the root that other plans hold, if they do not copy it
    /// ([`Node::is_held`]).
    pub fn holder(&self) -> Option<&Arc<Node>> {
        if !self.root.is_held() {
            return None;
        }
        Some(self.holder.get_or_init(|| Arc::new(self.root.clone())))
    }

    /// The signature of one copy as `(basic, count)` runs, computed by `compute` on first use
    /// and kept; `None` when it is too long to keep.
    pub fn signature(
        &self,
        compute: impl FnOnce() -> Option<Vec<(Basic, i64)>>,
    ) -> Option<&[(Basic, i64)]> {
        self.signature
            .get_or_init(|| compute().map(Vec::into_boxed_slice))
            .as_deref()
    }

    /// The number of contiguous byte runs of one copy, runs that continue one another merged,
    /// counted once ([`iov::run_count`]: exact up to [`iov::RUN_COUNT_WALK`], else an upper
    /// bound above it).
    pub fn runs(&self) -> i64 {
        *self.runs.get_or_init(|| iov::run_count(self.root()))
    }

    /// True if one copy is runs of one length at regular strides, level by level (a vector,
    /// or a subarray, of a contiguous type): repeats of repeats of one run. Such a layout is
    /// what every MPI's own engine handles best; blocks at irregular displacements and
    /// sequences of unlike parts (indexed and struct types) are not.
    pub fn strided(&self) -> bool {
        let mut node = self.root();
        loop {
            match node {
                Node::Run { .. } | Node::Strided { .. } => return true,
                Node::Repeat { child, .. } => node = child,
                Node::Blocks(_) | Node::Seq { .. } => return false,
            }
        }
    }

    /// True if one copy is [`strided`](Self::strided) and goes forward at every level: each
    /// repeated part starts after the whole of the one before, so its bytes lie in memory in
    /// type-map order, apart (not a vector of negative stride, nor overlapping blocks).
    pub fn strided_forward(&self) -> bool {
        forward_span(self.root()).is_some()
    }

    /// The plan of `count` copies, one extent apart.
    pub fn copies(&self, count: i64) -> Node {
        match count {
            1 => self.root.clone(),
            _ => compile::copies_of(count, self.extent, self),
        }
    }
}

/// The bytes from the first to the end of the last of a strided `node` whose parts go forward
/// ([`Plan::strided_forward`]), or `None` if it is not such a node.
fn forward_span(node: &Node) -> Option<i64> {
    match node {
        Node::Run { len, .. } => Some(*len),
        Node::Repeat {
            count,
            stride,
            child,
            ..
        } => repeated_forward(*count, *stride, forward_span(child)?),
        Node::Strided {
            count, stride, len, ..
        } => repeated_forward(*count, *stride, *len),
        Node::Blocks(_) | Node::Seq { .. } => None,
    }
}

/// The bytes from the first to the end of the last of `count` copies, `stride` bytes apart,
/// of parts going forward over `span` bytes each; `None` if the copies overlap or go back.
fn repeated_forward(count: i64, stride: i64, span: i64) -> Option<i64> {
    match count {
        ..=1 => Some(span),
        count => (stride >= span).then(|| (count - 1) * stride + span),
    }
}

/// Checks that `[offset, offset + len)` lies inside the packed stream of `node`.
fn check_range(node: &Node, offset: i64, len: usize) {
    let end = offset.checked_add(len as i64);
    assert!(
        offset >= 0 && end.is_some_and(|e| e <= node.size()),
        "byte range {offset}+{len} outside a packed stream of {} bytes",
        node.size()
    );
}

/// Packs the bytes `[offset, offset + out.len())` of the packed stream of `count` copies of
/// `plan` read relative to `inbuf` into `out`.
///
/// # Safety
/// Every byte the type map addresses relative to `inbuf` in that range must be readable.
///
/// # Panics
/// If the range is not inside the packed stream.
pub unsafe fn pack_range(plan: &Plan, count: i64, inbuf: *const u8, offset: i64, out: &mut [u8]) {
    let node = plan.copies(count);
    check_range(&node, offset, out.len());
    let mut stream = out.as_mut_ptr();
    // SAFETY: the caller guarantees the source; `out` holds the range.
    unsafe {
        exec::range::<true>(
            &node,
            inbuf as *mut u8,
            offset,
            out.len() as i64,
            &mut stream,
        )
    }
}

/// Unpacks `input`, the bytes `[offset, offset + input.len())` of the packed stream of
/// `count` copies of `plan`, into memory relative to `outbuf`.
///
/// # Safety
/// Every byte the type map addresses relative to `outbuf` in that range must be writable.
///
/// # Panics
/// If the range is not inside the packed stream.
pub unsafe fn unpack_range(plan: &Plan, count: i64, outbuf: *mut u8, offset: i64, input: &[u8]) {
    let node = plan.copies(count);
    check_range(&node, offset, input.len());
    let mut stream = input.as_ptr() as *mut u8;
    // SAFETY: the caller guarantees the destination; the stream is only read.
    unsafe { exec::range::<false>(&node, outbuf, offset, input.len() as i64, &mut stream) }
}

/// Packs all of `count` copies of `plan` read relative to `inbuf` into `out`, which must hold
/// exactly their packed size.
///
/// # Safety
/// Every byte the type map addresses relative to `inbuf` must be readable, and `out` must be
/// valid for writes of the packed size.
pub unsafe fn pack_all(plan: &Plan, count: i64, inbuf: *const u8, out: *mut u8) {
    let mut stream = out;
    // SAFETY: forwarded contract.
    unsafe {
        exec::copies_full::<true>(
            plan.root(),
            inbuf as *mut u8,
            count,
            plan.extent,
            &mut stream,
        )
    }
}

/// Unpacks all of `count` copies of `plan` from `input` (their packed size in bytes) into
/// memory relative to `outbuf`.
///
/// # Safety
/// Every byte the type map addresses relative to `outbuf` must be writable, and `input` must
/// be valid for reads of the packed size.
pub unsafe fn unpack_all(plan: &Plan, count: i64, input: *const u8, outbuf: *mut u8) {
    let mut stream = input as *mut u8;
    // SAFETY: forwarded contract; the stream is only read.
    unsafe { exec::copies_full::<false>(plan.root(), outbuf, count, plan.extent, &mut stream) }
}
