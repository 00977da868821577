//! The text format: a report for a terminal, section by section: the constructor tree, the
//! bounds, the signature, the runs and the plan, the first entries of the type map with the
//! holes between them, and the warnings.

use super::constructor;
use super::facts::Facts;
use super::plan;
use super::warnings::Warning;
use mpi_dtype_core::datatype::{Basic, Datatype};
use std::fmt::Write as _;

/// At most this many type-map entries are listed.
pub const ENTRY_LINES: usize = 64;
/// At most this many runs are listed.
pub const RUN_ITEMS: usize = 8;
/// At most this many signature groups are listed.
pub const SIGNATURE_ITEMS: usize = 16;

/// The signature in short form: `12 x MPI_DOUBLE, 1 x MPI_INT`, cut after `limit` groups.
pub fn signature(sig: &[(Basic, i64)], complete: bool, limit: usize) -> String {
    if sig.is_empty() {
        return "(empty)".into();
    }
    let mut parts: Vec<String> = sig
        .iter()
        .take(limit)
        .map(|(b, n)| format!("{n} x {}", b.info().name))
        .collect();
    if sig.len() > limit {
        parts.push(format!("... ({} groups in all)", sig.len()));
    } else if !complete {
        parts.push("... (of the first entries only)".into());
    }
    parts.join(", ")
}

/// The text report on `dt`.
pub fn render(dt: &Datatype, f: &Facts, warnings: &[Warning]) -> String {
    let mut out = String::new();
    let (expression, _) = constructor::expression(dt);
    let _ = writeln!(out, "{expression}\n");

    out.push_str("constructor tree (as built):\n");
    for line in constructor::tree_lines(dt) {
        let _ = writeln!(out, "  {line}");
    }

    out.push_str("\nbounds:\n");
    let _ = writeln!(
        out,
        "  size        {:>12} B in {} entries",
        f.size, f.elements
    );
    let _ = writeln!(out, "  lb          {:>12}", f.lb);
    let _ = writeln!(out, "  ub          {:>12}", f.ub);
    let _ = writeln!(out, "  extent      {:>12}", f.extent);
    let _ = writeln!(out, "  true lb     {:>12}", f.true_lb);
    let _ = writeln!(out, "  true ub     {:>12}", f.true_ub);
    let _ = writeln!(out, "  true extent {:>12}", f.true_extent());
    let marks = |name: &str, m: Option<mpi_dtype_core::datatype::layout::Span>| match m {
        Some(s) if s.min == s.max => format!("{name} marker at {}", s.min),
        Some(s) => format!("{name} markers from {} to {}", s.min, s.max),
        None => format!("no {name} marker"),
    };
    let _ = writeln!(
        out,
        "  markers     {}; {}",
        marks("lb", f.lb_marks),
        marks("ub", f.ub_marks)
    );

    let _ = writeln!(
        out,
        "\nsignature: {}",
        signature(&f.signature, f.signature_complete, SIGNATURE_ITEMS)
    );

    let count = if f.run_count.exact {
        format!("{}", f.run_count.count)
    } else {
        format!("at most {}", f.run_count.count)
    };
    let mut runs: Vec<String> = f
        .runs
        .iter()
        .take(RUN_ITEMS)
        .map(|(d, l)| format!("{l} B at {d}"))
        .collect();
    if f.run_count.count > runs.len() as i64 {
        runs.push("...".into());
    }
    let _ = writeln!(
        out,
        "\ncontiguous runs (pack order): {count}: {}",
        runs.join(", ")
    );

    out.push_str("\nplan (what the pack engine does):\n");
    for step in plan::describe(dt) {
        let _ = writeln!(out, "  {}{}", "  ".repeat(step.depth), step.text);
    }

    type_map(&mut out, f);

    if warnings.is_empty() {
        out.push_str("\nwarnings: none\n");
    } else {
        out.push_str("\nwarnings:\n");
        for w in warnings {
            let _ = writeln!(out, "  [{}] {}", w.name(), w.message);
            if let Some(standard) = w.kind.standard {
                let _ = writeln!(out, "      {standard}");
            }
        }
    }
    out
}

/// The first entries of the type map, one per line, with the hole before each entry that
/// starts after the end of the previous one.
fn type_map(out: &mut String, f: &Facts) {
    let shown = f.entries.len().min(ENTRY_LINES);
    let _ = writeln!(
        out,
        "\ntype map ({} entries{}):",
        f.elements,
        if (shown as i64) < f.elements {
            format!(", the first {shown} shown")
        } else {
            String::new()
        }
    );
    let mut previous_end: Option<i64> = None;
    for (i, &(b, d)) in f.entries.iter().take(shown).enumerate() {
        let end = d.wrapping_add(b.size());
        match previous_end {
            Some(e) if d > e => {
                let _ = writeln!(
                    out,
                    "        {:<26} [{e}, {d})",
                    format!("hole of {} B", d - e)
                );
            }
            Some(e) if d < e => {
                let _ = writeln!(out, "        (goes back {} B)", e - d);
            }
            _ => {}
        }
        let _ = writeln!(out, "  {i:>5} {:<26} [{d}, {end})", b.info().name);
        previous_end = Some(end);
    }
    if (shown as i64) < f.elements {
        let _ = writeln!(out, "  ... {} more entries", f.elements - shown as i64);
    }
}
