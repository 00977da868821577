//! The compiled pack plan of a type in words: what the engine will do, level by level, with
//! the byte counts it copies per block. At most [`LINE_LIMIT`] lines are written.

use mpi_dtype_core::datatype::Datatype;
use mpi_dtype_core::plan::node::{Counts, Node};

/// At most this many lines describe a plan.
pub const LINE_LIMIT: usize = 24;
/// At most this many parts of a sequence are described.
const PARTS_LIMIT: usize = 8;

/// One line of a plan description: its nesting depth and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Nesting depth (0 for the root).
    pub depth: usize,
    /// What the node does.
    pub text: String,
}

/// The plan of one copy of `dt`, as at most [`LINE_LIMIT`] steps.
pub fn describe(dt: &Datatype) -> Vec<Step> {
    let mut out = Vec::new();
    step(dt.plan.root(), 0, &mut out);
    out
}

fn push(out: &mut Vec<Step>, depth: usize, text: String) -> bool {
    if out.len() + 1 == LINE_LIMIT {
        out.push(Step {
            depth,
            text: "... (the rest of the plan is not shown)".into(),
        });
        return false;
    }
    if out.len() >= LINE_LIMIT {
        return false;
    }
    out.push(Step { depth, text });
    true
}

fn step(node: &Node, depth: usize, out: &mut Vec<Step>) {
    match node {
        Node::Run { len: 0, .. } => {
            push(out, depth, "nothing to copy (no data)".into());
        }
        Node::Run { disp, len } => {
            push(out, depth, format!("copy {len} B at {disp:+}"));
        }
        Node::Strided { .. } => step(&node.unflattened(), depth, out),
        Node::Repeat {
            disp,
            count,
            stride,
            child,
            ..
        } => {
            let what = match **child {
                Node::Run { len, .. } => format!(" of {len} B each"),
                _ => String::new(),
            };
            if push(
                out,
                depth,
                format!("repeat {count} times{what}, {stride} B apart, from {disp:+}:"),
            ) {
                step(child, depth + 1, out);
            }
        }
        Node::Blocks(b) => {
            let counts = match &b.counts {
                Counts::Uniform(c) => format!("{c} copies each"),
                Counts::PerBlock(_) => "its own number of copies each".into(),
            };
            let text = format!(
                "{} blocks at listed displacements (x {} B) from {:+}, {counts} ({} B apart) of:",
                b.len(),
                b.scale,
                b.disp,
                b.child_stride
            );
            if push(out, depth, text) {
                step(&b.child, depth + 1, out);
            }
        }
        Node::Seq { disp, seq } => {
            let parts = &seq.parts;
            let kernel = if !seq.runs_only() {
                String::new()
            } else {
                " (one struct-copy loop)".into()
            };
            if !push(
                out,
                depth,
                format!(
                    "{} parts one after the other from {disp:+}{kernel}:",
                    parts.len()
                ),
            ) {
                return;
            }
            for p in parts.iter().take(PARTS_LIMIT) {
                stacker::maybe_grow(64 * 1024, 1024 * 1024, || step(p, depth + 1, out));
            }
            if parts.len() > PARTS_LIMIT {
                push(
                    out,
                    depth + 1,
                    format!("... {} more parts", parts.len() - PARTS_LIMIT),
                );
            }
        }
    }
}
