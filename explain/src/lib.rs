//! Explaining a datatype to a person: what it is made of, where its bytes lie, how the pack
//! engine will copy them, and what looks wrong (`MPIX_Type_explain`, `mpi-dtype-explain`).
//!
//! Every format is computed from one bounded [`facts::Facts`] sample of the type: the bounds
//! and counts come from the type's layout and plan arithmetic, and only the first entries and
//! runs are ever visited, so a type with 10^9 entries is explained as fast as a small one and
//! the output stays small (what was cut is said, with the full count).
//!
//! - [`text`]: a report for a terminal;
//! - [`json`]: the same as one JSON object (keys in `docs/explain.md`);
//! - [`svg`]: a picture of the memory layout of two consecutive copies;
//! - [`html`]: a self-contained page with the picture, the text and the warnings.
//!
//! [`warnings`] holds the checks, [`parse`] the expression language of the command-line tool.

pub mod constructor;
pub mod entries;
pub mod facts;
pub mod html;
pub mod json;
pub mod parse;
pub mod plan;
pub mod svg;
pub mod text;
pub mod trace;
pub mod warnings;

use mpi_dtype_core::datatype::Datatype;

/// An output format of [`explain`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A plain-text report.
    Text,
    /// One JSON object.
    Json,
    /// An SVG picture of the memory layout.
    Svg,
    /// A self-contained HTML page: the picture, the report and the warnings.
    Html,
}

impl Format {
    /// Every format, in the order the documentation lists them.
    pub const ALL: [Format; 4] = [Format::Text, Format::Json, Format::Svg, Format::Html];

    /// The format called `name` (`"text"`, `"json"`, `"svg"` or `"html"`).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The name of the format, as [`Format::from_name`] takes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Svg => "svg",
            Format::Html => "html",
        }
    }
}

/// The explanation of `dt` in `format`.
pub fn explain(dt: &Datatype, format: Format) -> String {
    let facts = facts::Facts::of(dt);
    let warnings = warnings::check(dt);
    match format {
        Format::Text => text::render(dt, &facts, &warnings),
        Format::Json => json::render(dt, &facts, &warnings),
        Format::Svg => svg::render(dt, &facts),
        Format::Html => html::render(dt, &facts, &warnings),
    }
}
