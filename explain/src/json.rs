//! The JSON format: one object with the bounds, the signature, the type map and the runs of
//! one copy (cut at [`facts::ENTRY_LIMIT`] and [`facts::RUN_LIMIT`], with the full counts),
//! the plan, the constructor tree and the warnings. `docs/explain.md` lists the keys.

use super::constructor::{self, Arg, Children, Item, NODE_LIMIT};
use super::facts::{self, Facts};
use super::plan;
use super::warnings::Warning;
use mpi_dtype_core::datatype::layout::Span;
use mpi_dtype_core::datatype::Datatype;
use std::fmt::Write as _;

/// `text` as a JSON string literal.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn span(s: Option<Span>) -> String {
    match s {
        Some(s) => format!("[{}, {}]", s.min, s.max),
        None => "null".into(),
    }
}

fn pairs<T: std::fmt::Display>(items: impl Iterator<Item = (String, T)>) -> String {
    let parts: Vec<String> = items.map(|(a, b)| format!("[{a}, {b}]")).collect();
    format!("[{}]", parts.join(", "))
}

fn item(i: &Item) -> String {
    match i {
        Item::Num(n) => n.to_string(),
        Item::Word(w) => string(w),
    }
}

/// The constructor tree of `dt` as a JSON object, at most [`NODE_LIMIT`] constructors deep
/// and wide; a cut subtree is `{"cut": true}`.
pub fn constructor(dt: &Datatype) -> String {
    let mut budget = NODE_LIMIT;
    constructor_of(dt, &mut budget)
}

fn constructor_of(dt: &Datatype, budget: &mut usize) -> String {
    if *budget == 0 {
        return "{\"cut\": true}".into();
    }
    *budget -= 1;
    let c = constructor::call(dt);
    let mut fields = vec![
        format!("\"combiner\": {}", string(c.combiner)),
        format!("\"function\": {}", string(c.function)),
    ];
    if c.combiner == "MPI_COMBINER_NAMED" {
        fields.push(format!("\"name\": {}", string(c.function)));
    }
    for (name, arg) in &c.args {
        let value = match arg {
            Arg::One(i) => item(i),
            Arg::List(items, total) => {
                if *total > items.len() {
                    fields.push(format!("\"{name}_count\": {total}"));
                }
                format!(
                    "[{}]",
                    items.iter().map(item).collect::<Vec<_>>().join(", ")
                )
            }
        };
        fields.push(format!("\"{name}\": {value}"));
    }
    let mut child =
        |t: &Datatype| stacker::maybe_grow(64 * 1024, 1024 * 1024, || constructor_of(t, budget));
    match c.placement {
        Children::None => {}
        Children::Last | Children::First => {
            fields.push(format!("\"oldtype\": {}", child(c.children[0])));
        }
        Children::List => {
            let shown: Vec<String> = c
                .children
                .iter()
                .take(constructor::ARRAY_LIMIT)
                .map(|t| child(t))
                .collect();
            if c.children.len() > shown.len() {
                fields.push(format!("\"array_of_types_count\": {}", c.children.len()));
            }
            fields.push(format!("\"array_of_types\": [{}]", shown.join(", ")));
        }
    }
    format!("{{{}}}", fields.join(", "))
}

/// The warnings as a JSON array of `{"name", "severity", "message", "standard"}` objects.
pub fn warnings(list: &[Warning]) -> String {
    let items: Vec<String> = list
        .iter()
        .map(|w| {
            format!(
                "{{\"name\": {}, \"severity\": {}, \"message\": {}, \"standard\": {}}}",
                string(w.kind.name),
                string(w.kind.severity.name()),
                string(&w.message),
                w.kind.standard.map_or("null".into(), string)
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// The JSON object explaining `dt`.
pub fn render(dt: &Datatype, f: &Facts, warnings_found: &[Warning]) -> String {
    let (expression, whole) = constructor::expression(dt);
    let names = |sig: &[(mpi_dtype_core::datatype::Basic, i64)]| {
        pairs(sig.iter().map(|(b, n)| (string(b.info().name), *n)))
    };
    let steps: Vec<String> = plan::describe(dt)
        .iter()
        .map(|s| string(&format!("{}{}", "  ".repeat(s.depth), s.text)))
        .collect();
    let fields = [
        format!("\"expression\": {}", string(&expression)),
        format!("\"expression_complete\": {whole}"),
        format!("\"size\": {}", f.size),
        format!("\"lb\": {}", f.lb),
        format!("\"ub\": {}", f.ub),
        format!("\"extent\": {}", f.extent),
        format!("\"true_lb\": {}", f.true_lb),
        format!("\"true_ub\": {}", f.true_ub),
        format!("\"true_extent\": {}", f.true_extent()),
        format!("\"elements\": {}", f.elements),
        format!(
            "\"markers\": {{\"lb\": {}, \"ub\": {}}}",
            span(f.lb_marks),
            span(f.ub_marks)
        ),
        format!("\"signature\": {}", names(&f.signature)),
        format!("\"signature_complete\": {}", f.signature_complete),
        format!(
            "\"typemap\": {}",
            pairs(f.entries.iter().map(|(b, d)| (string(b.info().name), *d)))
        ),
        format!("\"typemap_count\": {}", f.elements),
        format!("\"typemap_truncated\": {}", f.entries_cut()),
        format!(
            "\"runs\": {}",
            pairs(f.runs.iter().map(|(d, l)| (d.to_string(), *l)))
        ),
        format!("\"run_count\": {}", f.run_count.count),
        format!("\"run_count_exact\": {}", f.run_count.exact),
        format!("\"runs_truncated\": {}", f.runs_cut()),
        format!(
            "\"limits\": {{\"typemap\": {}, \"runs\": {}}}",
            facts::ENTRY_LIMIT,
            facts::RUN_LIMIT
        ),
        format!("\"plan\": [{}]", steps.join(", ")),
        format!("\"constructor\": {}", constructor(dt)),
        format!("\"warnings\": {}", warnings(warnings_found)),
    ];
    format!("{{\n  {}\n}}\n", fields.join(",\n  "))
}
