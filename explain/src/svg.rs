//! The SVG format: a picture of the memory layout of two consecutive copies of a type.
//!
//! Over a byte ruler, each basic entry is a box coloured by its basic type and numbered in
//! pack order; the holes inside the extent are hatched, the lower and upper bounds and the
//! extent of each copy are bracketed under it, and the true bounds are dashed lines. Bytes
//! that the two copies share are marked in red between the rows, and arcs over the first copy
//! lead from each contiguous run to the next in pack order.
//!
//! A type with more than [`BOX_LIMIT`] entries gets a summary instead: a density strip of
//! where the data of one copy lies (from the sampled runs) and the boxes of its first
//! entries, so the file stays small whatever the type.

use super::constructor;
use super::facts::Facts;
use mpi_dtype_core::datatype::{Basic, Datatype};
use mpi_dtype_core::plan::node::Node;
use std::fmt::Write as _;

/// Types with at most this many entries are drawn box by box.
pub const BOX_LIMIT: usize = 512;
/// Pack-order arcs are drawn for types of at most this many runs.
const ARC_LIMIT: usize = 64;
/// Width of the picture.
const WIDTH: f64 = 1040.0;
/// Left edge of the plot (row labels are to its left).
const LEFT: f64 = 110.0;
/// Width of the plot.
const PLOT: f64 = 900.0;
/// Height of a row of boxes.
const ROW: f64 = 34.0;
/// Bins of the density strip.
const BINS: usize = 300;
/// Entries drawn box by box under the density strip of a big type.
const ZOOM_ENTRIES: usize = 48;
/// Plan nodes visited for the density strip before the rest is placed roughly.
const DENSITY_WORK: i64 = 1 << 25;

/// Fill colours of basic types, given out in order of first appearance.
const PALETTE: [&str; 12] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac", "#86bcb6", "#d37295",
];
/// Colour of the lb / ub brackets and lines.
const BOUND: &str = "#1f3a93";
/// Colour of the true bounds.
const TRUE_BOUND: &str = "#d35400";
/// Colour of bytes shared by two copies.
const SHARED: &str = "#d62728";

/// `text` escaped for XML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The colours of the basic types among `entries`, in order of first appearance.
struct Colours(Vec<Basic>);

impl Colours {
    fn of(entries: &[(Basic, i64)]) -> Colours {
        let mut seen: Vec<Basic> = Vec::new();
        for (b, _) in entries {
            if !seen.contains(b) {
                seen.push(*b);
            }
        }
        Colours(seen)
    }

    fn of_basic(&self, b: Basic) -> &'static str {
        let i = self.0.iter().position(|&x| x == b).unwrap_or(0);
        PALETTE[i % PALETTE.len()]
    }
}

/// A byte range shown across the plot.
#[derive(Clone, Copy)]
struct Scale {
    from: i64,
    to: i64,
}

impl Scale {
    fn new(from: i64, to: i64) -> Scale {
        Scale {
            from,
            to: to.max(from.saturating_add(1)),
        }
    }

    fn x(&self, byte: i64) -> f64 {
        let span = (self.to as f64) - (self.from as f64);
        LEFT + ((byte as f64) - (self.from as f64)) / span * PLOT
    }

    fn px_per_byte(&self) -> f64 {
        PLOT / ((self.to as f64) - (self.from as f64))
    }
}

/// An SVG document being written, top to bottom.
struct Canvas {
    body: String,
    y: f64,
}

impl Canvas {
    fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, fill: &str, text: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" text-anchor="{anchor}" fill="{fill}">{}</text>"#,
            escape(text)
        );
    }

    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, style: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.2}" y="{y:.1}" width="{w:.2}" height="{h:.1}" {style}/>"#
        );
    }

    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, style: &str) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.2}" y1="{y1:.1}" x2="{x2:.2}" y2="{y2:.1}" {style}/>"#
        );
    }
}

/// A tick step for a ruler over `span` bytes: a power of two giving ticks at least 48 px
/// apart.
fn tick_step(scale: &Scale) -> i64 {
    let mut step = 1i64;
    while (step as f64) * scale.px_per_byte() < 48.0 && step < i64::MAX / 2 {
        step *= 2;
    }
    step
}

/// The byte ruler over `scale`, with its baseline at `c.y`.
fn ruler(c: &mut Canvas, scale: &Scale, label: &str) {
    let y = c.y + 18.0;
    c.text(LEFT - 8.0, y + 4.0, 11.0, "end", "#555", label);
    c.line(
        LEFT,
        y,
        LEFT + PLOT,
        y,
        r##"stroke="#333" stroke-width="1""##,
    );
    let step = tick_step(scale);
    let minor = scale.px_per_byte() >= 5.0 && step > 1;
    if minor {
        let mut b = scale.from;
        while b <= scale.to {
            let x = scale.x(b);
            c.line(x, y, x, y + 3.0, r##"stroke="#999" stroke-width="0.6""##);
            b += 1;
        }
    }
    let mut b = scale.from.div_euclid(step).saturating_mul(step);
    while b <= scale.to {
        if b >= scale.from {
            let x = scale.x(b);
            c.line(
                x,
                y - 4.0,
                x,
                y + 6.0,
                r##"stroke="#333" stroke-width="1""##,
            );
            c.text(x, y - 7.0, 10.0, "middle", "#333", &b.to_string());
        }
        b = match b.checked_add(step) {
            Some(n) => n,
            None => break,
        };
    }
    c.y = y + 12.0;
}

/// The boxes of `entries` placed at `offset`, numbered from `first_number`, in a row whose top
/// is `top`.
#[allow(clippy::too_many_arguments)]
fn boxes(
    c: &mut Canvas,
    scale: &Scale,
    colours: &Colours,
    entries: &[(Basic, i64)],
    offset: i64,
    first_number: usize,
    top: f64,
    faded: bool,
) {
    let opacity = if faded { 0.55 } else { 1.0 };
    for (i, &(b, d)) in entries.iter().enumerate() {
        let start = d.wrapping_add(offset);
        let x = scale.x(start);
        let w = (scale.x(start.wrapping_add(b.size())) - x).max(2.5);
        let style = format!(
            r##"fill="{}" fill-opacity="{opacity}" stroke="#ffffff" stroke-width="{}""##,
            colours.of_basic(b),
            if w > 4.0 { 1 } else { 0 }
        );
        c.rect(x, top, w, ROW, &style);
        let number = (first_number + i).to_string();
        let needed = 7.0 * number.len() as f64 + 4.0;
        if w >= needed {
            c.text(
                x + w / 2.0,
                top + ROW / 2.0 + 4.0,
                11.0,
                "middle",
                "#111",
                &number,
            );
        }
    }
}

/// The extent region `[lb, ub)` of a copy at `offset`: hatched (its holes show through
/// between the boxes drawn over it).
fn extent_band(c: &mut Canvas, scale: &Scale, f: &Facts, offset: i64, top: f64) {
    let (lb, ub) = (f.lb.wrapping_add(offset), f.ub.wrapping_add(offset));
    let (x1, x2) = (scale.x(lb.min(ub)), scale.x(lb.max(ub)));
    c.rect(
        x1,
        top,
        (x2 - x1).max(0.0),
        ROW,
        r##"fill="url(#hole)" stroke="#888" stroke-width="0.8""##,
    );
}

/// The bracket under a copy's row from lb to ub, labelled with the bounds and the extent.
fn extent_bracket(c: &mut Canvas, scale: &Scale, f: &Facts, offset: i64, copy: usize) {
    let y = c.y + 8.0;
    let (lb, ub) = (f.lb.wrapping_add(offset), f.ub.wrapping_add(offset));
    let (x1, x2) = (scale.x(lb), scale.x(ub));
    let style = format!(r#"stroke="{BOUND}" stroke-width="1.5""#);
    c.line(x1, y - 6.0, x1, y + 4.0, &style);
    c.line(x2, y - 6.0, x2, y + 4.0, &style);
    c.line(x1, y, x2, y, &style);
    let label = format!("copy {copy}: lb {lb}, ub {ub}, extent {}", f.extent);
    let mid = ((x1 + x2) / 2.0).clamp(LEFT + 120.0, LEFT + PLOT - 120.0);
    c.text(mid, y + 15.0, 11.0, "middle", BOUND, &label);
    c.y = y + 22.0;
}

/// Dashed lines at the true bounds of a copy across a row.
fn true_bounds(c: &mut Canvas, scale: &Scale, f: &Facts, offset: i64, top: f64, labels: bool) {
    if f.elements == 0 {
        return;
    }
    let style = format!(r#"stroke="{TRUE_BOUND}" stroke-width="1.6" stroke-dasharray="4 3""#);
    for (byte, name) in [(f.true_lb, "true lb"), (f.true_ub, "true ub")] {
        let x = scale.x(byte.wrapping_add(offset));
        c.line(x, top - 6.0, x, top + ROW + 6.0, &style);
        if labels {
            // Labels go outside the data, unless that would leave the picture.
            let outside_left = name == "true lb" && x - 90.0 > 0.0;
            let inside_right = name == "true ub" && x + 110.0 > WIDTH;
            let (anchor, dx) = if outside_left || inside_right {
                ("end", -3.0)
            } else {
                ("start", 3.0)
            };
            c.text(
                x + dx,
                top - 2.0,
                10.0,
                anchor,
                TRUE_BOUND,
                &format!("{name} {}", byte.wrapping_add(offset)),
            );
        }
    }
}

/// Arcs over a row from the end of each run to the start of the next, in pack order.
fn pack_arcs(c: &mut Canvas, scale: &Scale, runs: &[(i64, i64)], top: f64) {
    let style = r##"fill="none" stroke="#444" stroke-width="1" marker-end="url(#arrow)""##;
    if runs.len() > ARC_LIMIT {
        return;
    }
    for pair in runs.windows(2) {
        let (from, to) = (scale.x(pair[0].0 + pair[0].1), scale.x(pair[1].0) + 2.0);
        if (to - from).abs() < 8.0 {
            continue;
        }
        let lift = 10.0 + ((to - from).abs() / 12.0).min(14.0);
        let _ = writeln!(
            c.body,
            r#"<path d="M {from:.1} {top:.1} C {from:.1} {:.1}, {to:.1} {:.1}, {to:.1} {top:.1}" {style}/>"#,
            top - lift,
            top - lift
        );
    }
}

/// The byte ranges that two runs of one copy both cover (overlapping entries).
fn overlapping_ranges(f: &Facts) -> Vec<(i64, i64)> {
    let mut runs: Vec<(i64, i64)> = f.runs.iter().map(|&(d, l)| (d, d + l)).collect();
    runs.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::new();
    let mut reach = i64::MIN;
    for (s, e) in runs {
        if s < reach && out.len() < BOX_LIMIT {
            out.push((s, e.min(reach)));
        }
        reach = reach.max(e);
    }
    out
}

/// The byte ranges that copy 0 and copy 1 (at `extent`) of the sampled runs share.
fn shared_ranges(f: &Facts) -> Vec<(i64, i64)> {
    let mut a: Vec<(i64, i64)> = f.runs.iter().map(|&(d, l)| (d, d + l)).collect();
    a.sort_unstable();
    let mut merged: Vec<(i64, i64)> = Vec::new();
    for (s, e) in a {
        match merged.last_mut() {
            Some((_, end)) if s <= *end => *end = (*end).max(e),
            _ => merged.push((s, e)),
        }
    }
    let shift = f.extent;
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < merged.len() && j < merged.len() && out.len() < BOX_LIMIT {
        let (a0, a1) = merged[i];
        let (b0, b1) = (
            merged[j].0.wrapping_add(shift),
            merged[j].1.wrapping_add(shift),
        );
        let (lo, hi) = (a0.max(b0), a1.min(b1));
        if lo < hi {
            out.push((lo, hi));
        }
        if a1 <= b1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

fn legend(c: &mut Canvas, colours: &Colours) {
    let mut x = LEFT;
    let y = c.y + 10.0;
    let mut item = |c: &mut Canvas, swatch: &dyn Fn(&mut Canvas, f64, f64), text: &str| {
        let w = 26.0 + 6.6 * text.chars().count() as f64;
        if x + w > WIDTH - 10.0 {
            x = LEFT;
            c.y += 20.0;
        }
        let yy = c.y + 10.0;
        swatch(c, x, yy);
        c.text(x + 20.0, yy + 10.0, 11.0, "start", "#222", text);
        x += w + 10.0;
    };
    c.y = y - 10.0;
    for &b in &colours.0 {
        let colour = PALETTE[colours.0.iter().position(|&x| x == b).unwrap_or(0) % PALETTE.len()];
        item(
            c,
            &|c, x, y| c.rect(x, y, 14.0, 14.0, &format!(r#"fill="{colour}""#)),
            &format!("{} ({} B)", b.info().name, b.size()),
        );
    }
    item(
        c,
        &|c, x, y| c.rect(x, y, 14.0, 14.0, r##"fill="url(#hole)" stroke="#888""##),
        "hole (inside the extent, not data)",
    );
    item(
        c,
        &|c, x, y| {
            c.line(
                x,
                y + 7.0,
                x + 14.0,
                y + 7.0,
                &format!(r#"stroke="{BOUND}" stroke-width="2""#),
            )
        },
        "lb .. ub = extent",
    );
    item(
        c,
        &|c, x, y| {
            c.line(
                x + 7.0,
                y,
                x + 7.0,
                y + 14.0,
                &format!(r#"stroke="{TRUE_BOUND}" stroke-width="2" stroke-dasharray="4 3""#),
            )
        },
        "true lb / true ub",
    );
    item(
        c,
        &|c, x, y| c.rect(x, y + 4.0, 14.0, 6.0, &format!(r#"fill="{SHARED}""#)),
        "bytes covered twice (two entries, or two copies)",
    );
    item(
        c,
        &|c, x, y| {
            let _ = writeln!(
                c.body,
                r##"<path d="M {x:.1} {:.1} C {x:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}" fill="none" stroke="#444" marker-end="url(#arrow)"/>"##,
                y + 12.0,
                y,
                x + 14.0,
                y,
                x + 14.0,
                y + 12.0
            );
        },
        "pack order (boxes are numbered in it)",
    );
    c.y += 34.0;
}

/// The header: the expression and a summary line.
fn header(c: &mut Canvas, dt: &Datatype, f: &Facts) {
    let (expression, _) = constructor::expression(dt);
    let shown: String = if expression.chars().count() > 120 {
        expression.chars().take(117).collect::<String>() + "..."
    } else {
        expression
    };
    c.text(20.0, 26.0, 15.0, "start", "#111", &shown);
    let runs = if f.run_count.exact {
        format!("{}", f.run_count.count)
    } else {
        format!("at most {}", f.run_count.count)
    };
    let sizes = format!(
        "size {} B in {} entries, {runs} contiguous runs",
        f.size, f.elements
    );
    let bounds = format!(
        "lb {}, ub {}, extent {} · true lb {}, true ub {}, true extent {}",
        f.lb,
        f.ub,
        f.extent,
        f.true_lb,
        f.true_ub,
        f.true_extent()
    );
    c.text(20.0, 46.0, 12.0, "start", "#444", &sizes);
    c.text(20.0, 62.0, 12.0, "start", "#444", &bounds);
    c.y = 78.0;
}

const DEFS: &str = r##"<defs>
<pattern id="hole" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<rect width="6" height="6" fill="#ffffff"/><line x1="0" y1="0" x2="0" y2="6" stroke="#c8c8c8" stroke-width="2"/>
</pattern>
<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
<path d="M 0 0 L 10 5 L 0 10 z" fill="#444"/>
</marker>
</defs>
"##;

/// The SVG picture of `dt`.
pub fn render(dt: &Datatype, f: &Facts) -> String {
    let mut c = Canvas {
        body: String::new(),
        y: 0.0,
    };
    header(&mut c, dt, f);
    let colours = Colours::of(&f.entries);
    if f.entries_cut() || f.entries.len() > BOX_LIMIT {
        summary(&mut c, dt, f, &colours);
    } else {
        two_copies(&mut c, f, &colours);
    }
    legend(&mut c, &colours);
    let height = c.y.ceil();
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">
<title>{}</title>
{DEFS}<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>
{}</svg>
"##,
        escape(&constructor::expression(dt).0),
        c.body
    )
}

/// Two copies, box by box.
fn two_copies(c: &mut Canvas, f: &Facts, colours: &Colours) {
    let offsets = [0, f.extent];
    let mut from = i64::MAX;
    let mut to = i64::MIN;
    for o in offsets {
        for b in [f.lb, f.ub] {
            from = from.min(b.wrapping_add(o));
            to = to.max(b.wrapping_add(o));
        }
        if f.elements > 0 {
            from = from.min(f.true_lb.wrapping_add(o));
            to = to.max(f.true_ub.wrapping_add(o));
        }
    }
    let scale = Scale::new(from, to);
    ruler(c, &scale, "byte");
    c.y += 38.0;
    let n = f.entries.len();
    for (copy, &offset) in offsets.iter().enumerate() {
        let top = c.y;
        c.text(
            LEFT - 8.0,
            top + ROW / 2.0 + 4.0,
            12.0,
            "end",
            "#222",
            &format!("copy {copy}"),
        );
        extent_band(c, &scale, f, offset, top);
        boxes(
            c,
            &scale,
            colours,
            &f.entries,
            offset,
            copy * n,
            top,
            copy == 1,
        );
        true_bounds(c, &scale, f, offset, top, copy == 0);
        for (lo, hi) in overlapping_ranges(f) {
            let (x1, x2) = (scale.x(lo + offset), scale.x(hi + offset));
            c.rect(
                x1,
                top + ROW - 6.0,
                (x2 - x1).max(1.5),
                6.0,
                &format!(r#"fill="{SHARED}""#),
            );
        }
        if copy == 0 {
            pack_arcs(c, &scale, &f.runs, top);
        }
        c.y = top + ROW;
        extent_bracket(c, &scale, f, offset, copy);
        if copy == 0 {
            let shared = shared_ranges(f);
            let y = c.y + 2.0;
            for (lo, hi) in &shared {
                let (x1, x2) = (scale.x(*lo), scale.x(*hi));
                c.rect(
                    x1,
                    y,
                    (x2 - x1).max(1.5),
                    6.0,
                    &format!(r#"fill="{SHARED}""#),
                );
            }
            if !shared.is_empty() {
                c.text(LEFT - 8.0, y + 6.0, 10.0, "end", SHARED, "shared");
            }
            c.y += 16.0;
        }
    }
    if f.elements == 0 {
        c.text(
            LEFT,
            c.y + 14.0,
            12.0,
            "start",
            "#444",
            "(no data: the type map has no basic entries)",
        );
        c.y += 20.0;
    }
}

/// The summary of a type too big to draw box by box: where the data of one copy lies, and
/// the boxes of its first entries.
fn summary(c: &mut Canvas, dt: &Datatype, f: &Facts, colours: &Colours) {
    let scale = Scale::new(f.true_lb.min(f.lb), f.true_ub.max(f.ub));
    c.text(
        20.0,
        c.y + 16.0,
        13.0,
        "start",
        "#111",
        &format!(
            "Where the data of one copy lies ({} entries; the darker, the more of each byte range is data):",
            f.elements
        ),
    );
    c.y += 22.0;
    ruler(c, &scale, "byte");
    c.y += 6.0;
    let top = c.y;
    let bins = density(dt, &scale);
    let w = PLOT / bins.len() as f64;
    c.rect(
        LEFT,
        top,
        PLOT,
        ROW,
        r##"fill="url(#hole)" stroke="#888" stroke-width="0.8""##,
    );
    for (i, &fill) in bins.iter().enumerate() {
        if fill > 0.0 {
            let x = LEFT + i as f64 * w;
            c.rect(
                x,
                top,
                w + 0.3,
                ROW,
                &format!(
                    r##"fill="#1f3a93" fill-opacity="{:.3}""##,
                    0.15 + 0.85 * fill
                ),
            );
        }
    }
    c.text(
        LEFT - 8.0,
        top + ROW / 2.0 + 4.0,
        12.0,
        "end",
        "#222",
        "density",
    );
    true_bounds(c, &scale, f, 0, top, true);
    c.y = top + ROW;
    extent_bracket(c, &scale, f, 0, 0);

    let first = &f.entries[..f.entries.len().min(ZOOM_ENTRIES)];
    if first.is_empty() {
        return;
    }
    let from = first.iter().map(|e| e.1).min().unwrap_or(0);
    let to = first
        .iter()
        .map(|(b, d)| d.wrapping_add(b.size()))
        .max()
        .unwrap_or(from + 1);
    c.text(
        20.0,
        c.y + 22.0,
        13.0,
        "start",
        "#111",
        &format!(
            "The first {} of {} entries, bytes {from} to {to}:",
            first.len(),
            f.elements
        ),
    );
    c.y += 28.0;
    let zoom = Scale::new(from, to);
    ruler(c, &zoom, "byte");
    c.y += 30.0;
    let top = c.y;
    c.rect(
        LEFT,
        top,
        PLOT,
        ROW,
        r##"fill="url(#hole)" stroke="#888" stroke-width="0.8""##,
    );
    boxes(c, &zoom, colours, first, 0, 0, top, false);
    let runs_in_view: Vec<(i64, i64)> = f
        .runs
        .iter()
        .copied()
        .take_while(|&(d, l)| d >= from && d + l <= to)
        .collect();
    pack_arcs(c, &zoom, &runs_in_view, top);
    c.text(
        LEFT - 8.0,
        top + ROW / 2.0 + 4.0,
        12.0,
        "end",
        "#222",
        "copy 0",
    );
    c.y = top + ROW + 12.0;
}

/// Bytes of data per bin of the density strip.
struct Bins {
    from: i128,
    span: i128,
    bytes: Vec<f64>,
}

impl Bins {
    fn start(&self, k: i128) -> i128 {
        self.from + k * self.span / self.bytes.len() as i128
    }

    fn bin_of(&self, byte: i128) -> i128 {
        ((byte - self.from) * self.bytes.len() as i128 / self.span)
            .clamp(0, self.bytes.len() as i128 - 1)
    }

    /// `len` bytes of data from `start`, bin by bin.
    fn run(&mut self, start: i64, len: i64) {
        let (a, b) = (start as i128, start as i128 + len as i128);
        let mut k = self.bin_of(a);
        while k < self.bytes.len() as i128 && self.start(k) < b {
            let (lo, hi) = (a.max(self.start(k)), b.min(self.start(k + 1)));
            if lo < hi {
                self.bytes[k as usize] += (hi - lo) as f64;
            }
            k += 1;
        }
    }

    /// `bytes` of data spread evenly over `[lo, hi)`.
    fn even(&mut self, lo: i64, hi: i64, bytes: f64) {
        let (a, b) = (lo as i128, (hi as i128).max(lo as i128 + 1));
        let per_byte = bytes / (b - a) as f64;
        let mut k = self.bin_of(a);
        while k < self.bytes.len() as i128 && self.start(k) < b {
            let (x, y) = (a.max(self.start(k)), b.min(self.start(k + 1)));
            if x < y {
                self.bytes[k as usize] += (y - x) as f64 * per_byte;
            }
            k += 1;
        }
    }

    fn width(&self) -> f64 {
        self.span as f64 / self.bytes.len() as f64
    }
}

/// Adds the data of `node` placed at `base` to `bins`, from the plan's structure: a
/// repetition whose copies are closer than a bin is spread evenly over its copies, anything
/// else is visited; once `work` runs out, a node's bytes are put where it starts.
fn spread(node: &Node, base: i64, bins: &mut Bins, work: &mut i64) {
    *work -= 1;
    match node {
        Node::Run { disp, len } => bins.run(base.wrapping_add(*disp), *len),
        _ if *work <= 0 => {
            let at = base.wrapping_add(node.disp());
            bins.even(at, at.wrapping_add(node.size().max(1)), node.size() as f64);
        }
        Node::Strided { .. } => {
            // Spread as the repetition of a run it stands for, counted once.
            *work += 1;
            spread(&node.unflattened(), base, bins, work)
        }
        Node::Repeat {
            disp,
            count,
            stride,
            child,
            size,
        } => {
            let start = base.wrapping_add(*disp);
            if (stride.unsigned_abs() as f64) * 2.0 < bins.width() || *count > 1 << 16 {
                let last = start.wrapping_add((count - 1).wrapping_mul(*stride));
                let (lo, hi) = (start.min(last), start.max(last).wrapping_add(stride.abs()));
                bins.even(lo, hi, *size as f64);
            } else {
                for k in 0..*count {
                    spread(
                        child,
                        start.wrapping_add(k.wrapping_mul(*stride)),
                        bins,
                        work,
                    );
                }
            }
        }
        Node::Blocks(b) => {
            let start = base.wrapping_add(b.disp);
            for k in 0..b.len() {
                let block = start.wrapping_add(b.displs[k].wrapping_mul(b.scale));
                let copies = b.counts.get(k);
                if *work <= 0 || copies > 1 << 10 {
                    let span = copies.wrapping_mul(b.child_stride).abs().max(1);
                    bins.even(block, block.wrapping_add(span), b.block_size(k) as f64);
                } else {
                    for j in 0..copies {
                        spread(
                            &b.child,
                            block.wrapping_add(j.wrapping_mul(b.child_stride)),
                            bins,
                            work,
                        );
                    }
                }
            }
        }
        Node::Seq { disp, seq } => {
            for p in &seq.parts {
                stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                    spread(p, base.wrapping_add(*disp), bins, work)
                });
            }
        }
    }
}

/// The fraction of each of at most [`BINS`] equal byte ranges of `scale` that the data of one
/// copy of `dt` covers, from its plan (bounded by [`DENSITY_WORK`]).
fn density(dt: &Datatype, scale: &Scale) -> Vec<f64> {
    let span = (scale.to as i128) - (scale.from as i128);
    let count = (BINS as i128).min(span).max(1) as usize;
    let mut bins = Bins {
        from: scale.from as i128,
        span: span.max(1),
        bytes: vec![0.0; count],
    };
    let mut work = DENSITY_WORK;
    spread(dt.plan.root(), 0, &mut bins, &mut work);
    let width = bins.width().max(1.0);
    bins.bytes.iter().map(|&b| (b / width).min(1.0)).collect()
}
