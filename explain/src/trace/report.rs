//! The report of a trace (`mpi-dtype-explain --trace FILE`): as one self-contained HTML page
//! (a sortable table of every type, then for each its picture, warnings and text report,
//! the pieces of [`crate::explain`]), or as text, one line per type.
//!
//! Each type is rebuilt from its expression ([`crate::parse`]) to be drawn; a type
//! whose expression was cut (a huge type) is shown by its recorded numbers only.

use super::read::Traced;
use crate::facts::Facts;
use crate::svg::escape;
use crate::{html, parse, svg, text, warnings};
use std::collections::HashMap;
use std::fmt::Write as _;

/// At most this many types get a section with a picture; the table lists them all.
pub const DETAIL_LIMIT: usize = 10000;

const STYLE: &str = "table{border-collapse:collapse;font-size:13px;width:100%}\
th,td{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}\
th{background:#f0f3f6;cursor:pointer;user-select:none;white-space:nowrap;position:sticky;top:0}\
th[data-order=asc]::after{content:' \\25B2'}th[data-order=desc]::after{content:' \\25BC'}\
td.num{text-align:right;font-variant-numeric:tabular-nums}\
td code{font-size:12px;word-break:break-all}td code.handle{white-space:nowrap}.tag{display:inline-block;border-radius:3px;\
padding:0 4px;margin:1px;font-size:11px;background:#fde2e2;color:#8a1c1c}\
.tag.performance{background:#fff0dc;color:#8a4b00}.type{border-top:2px solid #ccc;\
margin-top:32px}.frames{font-family:monospace;font-size:12px}img.layout{max-width:100%}\
.summary td{border:none;padding:2px 12px 2px 0}";

const SCRIPT: &str = "(function(){\
var table=document.getElementById('types');if(!table){return;}\
var heads=table.tHead.rows[0].cells;\
function value(cell,num){var v=cell.getAttribute('data-v');\
if(!num){return v===null?cell.textContent:v;}var f=parseFloat(v);return isNaN(f)?Infinity:f;}\
Array.prototype.forEach.call(heads,function(th,col){th.addEventListener('click',function(){\
var asc=th.getAttribute('data-order')!=='asc';\
Array.prototype.forEach.call(heads,function(h){h.removeAttribute('data-order');});\
th.setAttribute('data-order',asc?'asc':'desc');var num=th.hasAttribute('data-num');\
var body=table.tBodies[0];var rows=Array.prototype.slice.call(body.rows);\
rows.sort(function(a,b){var x=value(a.cells[col],num),y=value(b.cells[col],num);\
var c=num?(x<y?-1:x>y?1:0):String(x).localeCompare(String(y));return asc?c:-c;});\
rows.forEach(function(r){body.appendChild(r);});});});\
var m=/^#sort=([0-9]+)$/.exec(location.hash);if(m&&heads[+m[1]]){heads[+m[1]].click();}})();";

/// `bytes` in base 64 (for the pictures' `data:` URLs).
fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(DIGITS[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The picture and text report of a type, from its expression.
struct Drawn {
    svg: String,
    text: String,
}

fn draw(expression: &str) -> Result<Drawn, String> {
    let dt = parse::parse(expression).map_err(|e| e.report(expression))?;
    let facts = Facts::of(&dt);
    let found = warnings::check_with(&dt, &facts);
    Ok(Drawn {
        svg: svg::render(&dt, &facts),
        text: text::render(&dt, &facts, &found),
    })
}

/// `rank 2 #14` (with the pid as a tooltip in the table), or `pid 4711 #14` when the rank
/// is not known.
fn who(t: &Traced) -> String {
    match t.rank {
        Some(r) => format!("rank {r} #{}", t.number),
        None => format!("pid {} #{}", t.pid, t.number),
    }
}

fn anchor(i: usize) -> String {
    format!("type-{i}")
}

/// `H5S_mpio_space_type ← H5D__contig_collective_write (libhdf5.so.310)`: the first two
/// calling functions with the library of the first; one without a name (a static function,
/// a program linked without `-rdynamic`) is its library and offset.
fn caller(t: &Traced) -> String {
    let base = |library: &str| library.rsplit('/').next().unwrap_or(library).to_string();
    let name = |(function, library, offset): &(Option<String>, String, String)| match function {
        Some(f) => f.clone(),
        None => format!("{}+{offset}", base(library)),
    };
    match t.built_at.as_slice() {
        [] => "(unknown)".into(),
        [only] => format!("{} ({})", name(only), base(&only.1)),
        [first, second, ..] => format!("{} ← {} ({})", name(first), name(second), base(&first.1)),
    }
}

fn seconds(t: Option<f64>) -> String {
    t.map_or("—".into(), |t| format!("{t:.6}"))
}

/// The HTML page of the records of `sources` (file name, records).
pub fn html(sources: &[(String, Vec<Traced>)]) -> String {
    let all: Vec<&Traced> = sources.iter().flat_map(|(_, r)| r.iter()).collect();
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>mpi-dtype trace: {} types</title>\n<style>{}{STYLE}</style>\n</head>\n<body>\n\
         <h1>Datatypes traced: {} types</h1>\n",
        all.len(),
        html::STYLE.replace("max-width:1100px", "max-width:1500px"),
        all.len()
    );
    summary(&mut out, sources, &all);
    table(&mut out, &all);
    // Each expression is drawn once, in the section of the first type that has it.
    let mut drawn: HashMap<&str, usize> = HashMap::new();
    for (i, t) in all.iter().enumerate().take(DETAIL_LIMIT) {
        match drawn.get(t.expression.as_str()) {
            Some(&first) => section(&mut out, i, t, Picture::Same(first)),
            None => {
                drawn.insert(&t.expression, i);
                let d = match t.expression_complete {
                    true => draw(&t.expression),
                    false => Err("the expression was cut (a very large type): no picture".into()),
                };
                section(&mut out, i, t, Picture::Here(d));
            }
        }
    }
    if all.len() > DETAIL_LIMIT {
        let _ = writeln!(
            out,
            "<p>Sections are shown for the first {DETAIL_LIMIT} of {} types.</p>",
            all.len()
        );
    }
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

fn summary(out: &mut String, sources: &[(String, Vec<Traced>)], all: &[&Traced]) {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for w in all.iter().flat_map(|t| t.warnings.iter()) {
        match counts.iter_mut().find(|(n, _)| *n == w.0) {
            Some(c) => c.1 += 1,
            None => counts.push((w.0.clone(), 1)),
        }
    }
    out.push_str("<table class=\"summary\">\n");
    for (file, records) in sources {
        let _ = writeln!(
            out,
            "<tr><td>trace</td><td><code>{}</code>: {} types</td></tr>",
            escape(file),
            records.len()
        );
    }
    let warned: Vec<String> = counts
        .iter()
        .map(|(n, c)| format!("<code>{}</code> on {c}", escape(n)))
        .collect();
    let warned = match warned.is_empty() {
        true => "none".to_string(),
        false => warned.join(", "),
    };
    let _ = writeln!(out, "<tr><td>warnings</td><td>{warned}</td></tr>\n</table>");
    out.push_str(
        "<p>Click a column's heading to sort by it (or open the page at <code>#sort=N</code> to \
         sort by column N, from 0); click a type to see it.</p>\n",
    );
}

fn table(out: &mut String, all: &[&Traced]) {
    out.push_str(
        "<table id=\"types\">\n<thead><tr><th>type</th><th>handle</th><th>expression</th>\
         <th data-num>size</th><th data-num>extent</th><th>built by</th><th data-num>built</th>\
         <th data-num>committed</th><th data-num>freed</th><th data-num>packs</th>\
         <th data-num>bytes packed</th><th data-num>unpacks</th><th data-num>bytes unpacked</th>\
         <th data-num>warnings</th></tr></thead>\n<tbody>\n",
    );
    for (i, t) in all.iter().enumerate() {
        let shown: String = t.expression.chars().take(120).collect();
        let cut = if shown.len() < t.expression.len() {
            "…"
        } else {
            ""
        };
        let tags: String = t
            .warnings
            .iter()
            .map(|w| {
                format!(
                    "<span class=\"tag {}\">{}</span>",
                    escape(&w.1),
                    escape(&w.0)
                )
            })
            .collect();
        let num =
            |v: String, shown: String| format!("<td class=\"num\" data-v=\"{v}\">{shown}</td>");
        let time = |t: Option<f64>| num(t.map_or("".into(), |t| t.to_string()), seconds(t));
        let int = |n: i64| num(n.to_string(), n.to_string());
        let key = format!("{:08}{:08}", t.rank.unwrap_or(t.pid), t.number.max(0));
        let _ = writeln!(
            out,
            "<tr><td data-v=\"{key}\" title=\"pid {}\"><a href=\"#{}\">{}</a></td><td><code class=\"handle\">{}</code></td>\
             <td><code>{}{cut}</code></td>{}{}<td>{}</td>{}{}{}{}{}{}{}<td data-v=\"{}\">{tags}</td></tr>",
            t.pid,
            anchor(i),
            escape(&who(t)),
            escape(&t.handle),
            escape(&shown),
            int(t.size),
            int(t.extent),
            escape(&caller(t)),
            time(Some(t.built)),
            time(t.committed),
            time(t.freed),
            int(t.packs.0),
            int(t.packs.1),
            int(t.unpacks.0),
            int(t.unpacks.1),
            t.warnings.len()
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// The picture of a section: drawn here, or the same as in an earlier section.
enum Picture {
    Here(Result<Drawn, String>),
    Same(usize),
}

fn section(out: &mut String, i: usize, t: &Traced, picture: Picture) {
    let _ = write!(
        out,
        "<div class=\"type\" id=\"{}\">\n<h2>{}: <code>{}</code></h2>\n<p>handle <code>{}</code>, \
         size {} B, extent {} B; built at {} s, committed at {} s ({} commit{}), freed at {} s; \
         packed {} times ({} B), unpacked {} times ({} B).</p>\n",
        anchor(i),
        escape(&who(t)),
        escape(&t.expression),
        escape(&t.handle),
        t.size,
        t.extent,
        seconds(Some(t.built)),
        seconds(t.committed),
        t.commits,
        if t.commits == 1 { "" } else { "s" },
        seconds(t.freed),
        t.packs.0,
        t.packs.1,
        t.unpacks.0,
        t.unpacks.1
    );
    out.push_str("<div class=\"frames\">built by:<br>\n");
    if t.built_at.is_empty() {
        out.push_str("(no calling function outside mpi-dtype was found)<br>\n");
    }
    for (function, library, offset) in &t.built_at {
        let _ = writeln!(
            out,
            "&nbsp;&nbsp;{} in {}<br>",
            escape(function.as_deref().unwrap_or("?")),
            escape(&format!("{library}+{offset}"))
        );
    }
    out.push_str("</div>\n<h3>Warnings</h3>\n");
    if t.warnings.is_empty() {
        out.push_str("<p class=\"none\">None.</p>\n");
    }
    for (name, severity, message, standard) in &t.warnings {
        html::warning(out, name, severity, message, standard.as_deref());
    }
    match picture {
        Picture::Same(first) => {
            let _ = writeln!(
                out,
                "<p>The same type as <a href=\"#{}\">the one above</a>: its picture and report \
                 are there.</p>",
                anchor(first)
            );
        }
        Picture::Here(Ok(d)) => {
            let _ = write!(
                out,
                "<h3>Memory layout</h3>\n<img class=\"layout\" loading=\"lazy\" alt=\"memory \
                 layout of {}\" src=\"data:image/svg+xml;base64,{}\">\n<details><summary>Report\
                 </summary>\n<pre>{}</pre>\n</details>\n",
                escape(&t.expression),
                base64(d.svg.as_bytes()),
                escape(&d.text)
            );
        }
        Picture::Here(Err(e)) => {
            let _ = writeln!(out, "<pre>{}</pre>", escape(&e));
        }
    }
    out.push_str("</div>\n");
}

/// The records of `sources` as text: one line per type, its warnings below it.
pub fn text(sources: &[(String, Vec<Traced>)]) -> String {
    let mut out = String::new();
    for (file, records) in sources {
        let _ = writeln!(out, "{file}: {} types", records.len());
        for t in records {
            let _ = writeln!(
                out,
                "  {:<14} {:<12} size {:>8} extent {:>8}  packs {} ({} B) unpacks {} ({} B)  {}\n    {}",
                who(t),
                t.handle,
                t.size,
                t.extent,
                t.packs.0,
                t.packs.1,
                t.unpacks.0,
                t.unpacks.1,
                caller(t),
                t.expression
            );
            for (name, _, message, _) in &t.warnings {
                let _ = writeln!(out, "    warning {name}: {message}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_pads_like_the_standard() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foob"), "Zm9vYg==");
    }
}
