//! The HTML format: one self-contained page (no external resource) with the SVG picture, the
//! warnings and the text report of a type.

use super::facts::Facts;
use super::svg::{self, escape};
use super::text;
use super::warnings::Warning;
use mpi_dtype_core::datatype::Datatype;
use std::fmt::Write as _;

/// The page's style sheet (the trace report, [`crate::trace::report`], starts from it too).
pub const STYLE: &str =
    "body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}\
h1{font-size:20px}h2{font-size:16px;margin-top:28px}\
pre{background:#f6f8fa;padding:12px;border-radius:6px;overflow-x:auto;font-size:13px}\
.warning{border-left:4px solid #d62728;padding:6px 12px;margin:8px 0;background:#fff5f5}\
.performance{border-left-color:#f28e2b;background:#fffaf2}\
.name{font-family:monospace;font-weight:bold}.standard{font-size:13px;color:#555;margin-top:4px}\
.none{color:#2e7d32}";

/// The HTML page explaining `dt`.
pub fn render(dt: &Datatype, facts: &Facts, warnings: &[Warning]) -> String {
    let (expression, _) = super::constructor::expression(dt);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1><code>{}</code></h1>\n",
        escape(&expression),
        escape(&expression)
    );
    out.push_str("<h2>Memory layout</h2>\n");
    out.push_str(&svg::render(dt, facts));
    out.push_str("<h2>Warnings</h2>\n");
    if warnings.is_empty() {
        out.push_str("<p class=\"none\">None.</p>\n");
    }
    for w in warnings {
        warning(
            &mut out,
            w.name(),
            w.kind.severity.name(),
            &w.message,
            w.kind.standard,
        );
    }
    let _ = write!(
        out,
        "<h2>Report</h2>\n<pre>{}</pre>\n</body>\n</html>\n",
        escape(&text::render(dt, facts, warnings))
    );
    out
}

/// Appends one warning as a block: its name, what was found, and the standard's sentence.
pub fn warning(
    out: &mut String,
    name: &str,
    severity: &str,
    message: &str,
    standard: Option<&str>,
) {
    let _ = write!(
        out,
        "<div class=\"warning {}\"><span class=\"name\">{}</span>: {}",
        escape(severity),
        escape(name),
        escape(message)
    );
    if let Some(standard) = standard {
        let _ = write!(out, "<div class=\"standard\">{}</div>", escape(standard));
    }
    out.push_str("</div>\n");
}
