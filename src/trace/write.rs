//! Writing the trace: once, at `MPI_Finalize` or at exit, one JSON object per line for each
//! type the program built (keys in `docs/explain.md`), appended to the file the pattern of
//! `MPI_DTYPE_TRACE` names (`%p`: the process id, `%r`: the rank in `MPI_COMM_WORLD`, `%%`:
//! a percent sign). The whole trace goes out in one write, so processes sharing a file do
//! not interleave their lines.

use super::frames::Frame;
use super::record::{Occurrences, Record, Stamp};
use mpi_dtype_explain::json::{string, warnings as warnings_json};
use mpi_dtype_explain::warnings::{self, Warning};
use std::io::Write as _;
use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, Ordering};

/// When the trace is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// At `MPI_Finalize`.
    Finalize,
    /// At exit: the program did not call `MPI_Finalize`.
    Exit,
}

static WRITTEN: AtomicBool = AtomicBool::new(false);

extern "C" fn at_exit() {
    write_once(When::Exit);
}

/// Makes the trace be written at exit if `MPI_Finalize` does not write it first.
pub fn register_at_exit() {
    // SAFETY: `at_exit` is a plain function that lives as long as this library (atexit in a
    // shared object runs at its unloading too).
    unsafe { libc::atexit(at_exit) };
}

/// The file name `pattern` gives for process `pid` of rank `rank` (the pid when the rank is
/// not known).
pub fn file_name(pattern: &str, pid: u32, rank: Option<c_int>) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('p') => out.push_str(&pid.to_string()),
            Some('r') => match rank {
                Some(r) => out.push_str(&r.to_string()),
                None => out.push_str(&format!("pid{pid}")),
            },
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

/// Writes the trace, the first time it is called.
pub fn write_once(when: When) {
    if WRITTEN.swap(true, Ordering::SeqCst) {
        return;
    }
    let Some(pattern) = super::pattern() else {
        return;
    };
    let rank = crate::process::world_rank();
    let pid = std::process::id();
    let lines = super::record::with_registry(|r| {
        r.records
            .iter()
            .map(|rec| line(rec, pid, rank, when))
            .collect::<String>()
    })
    .unwrap_or_default();
    let path = file_name(pattern, pid, rank);
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(lines.as_bytes()));
    if let Err(e) = written {
        crate::diagnostic::line(format_args!(
            "mpi-dtype: cannot write the datatype trace to {path}: {e}"
        ));
    }
}

fn stamp(s: Option<Stamp>) -> String {
    match s {
        Some(s) => format!("{{\"seq\": {}, \"time\": {:.6}}}", s.seq, s.time),
        None => "null".into(),
    }
}

fn frames(list: &[Frame]) -> String {
    let items: Vec<String> = list
        .iter()
        .map(|f| {
            format!(
                "{{\"function\": {}, \"library\": {}, \"offset\": \"{:#x}\"}}",
                f.function.as_deref().map_or("null".into(), string),
                string(&f.library),
                f.offset
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// `first seq 12 at 0.000123 s in MPI_Pack`.
fn first(o: &Occurrences) -> String {
    format!(
        "{} time{}, the first at event {} ({:.6} s) in {}",
        o.count,
        if o.count == 1 { "" } else { "s" },
        o.first.seq,
        o.first.time,
        o.function
    )
}

/// Every warning of `rec`: those the type shows, with the unpacks into overlapping entries
/// added to `overlapping-entries`, then the runtime ones.
pub fn all_warnings(rec: &Record, when: When) -> Vec<Warning> {
    let mut out: Vec<Warning> = rec.warnings.clone();
    if let Some(o) = &rec.overlapping_unpacks {
        for w in out
            .iter_mut()
            .filter(|w| std::ptr::eq(w.kind, &warnings::OVERLAPPING_ENTRIES))
        {
            w.message
                .push_str(&format!("; unpacked into while overlapping: {}", first(o)));
        }
    }
    if let Some(o) = &rec.uncommitted_uses {
        out.push(Warning::new(
            &warnings::USED_UNCOMMITTED,
            format!(
                "used uncommitted {} (the call failed with MPI_ERR_TYPE)",
                first(o)
            ),
        ));
    }
    if let Some(o) = &rec.committed_again {
        out.push(Warning::new(
            &warnings::COMMITTED_TWICE,
            format!("committed again {}", first(o)),
        ));
    }
    if rec.freed.is_none() && !rec.predefined {
        let at = match when {
            When::Finalize => "at MPI_Finalize",
            When::Exit => "at exit (the program did not call MPI_Finalize)",
        };
        let place = rec
            .built_at
            .first()
            .map_or_else(|| "an unknown caller".to_string(), Frame::short);
        out.push(Warning::new(
            &warnings::STILL_ALLOCATED_AT_FINALIZE,
            format!(
                "still allocated {at}: built by {place} at event {} ({:.6} s) and never freed",
                rec.built.seq, rec.built.time
            ),
        ));
    }
    out
}

/// The JSON line of `rec`.
pub fn line(rec: &Record, pid: u32, rank: Option<c_int>, when: When) -> String {
    format!(
        "{{\"type\": {}, \"pid\": {pid}, \"rank\": {}, \"handle\": \"{:#x}\", \
         \"expression\": {}, \"expression_complete\": {}, \"predefined\": {}, \
         \"size\": {}, \"lb\": {}, \"extent\": {}, \"true_lb\": {}, \"true_extent\": {}, \
         \"built\": {}, \"built_at\": {}, \"committed\": {}, \"commits\": {}, \"freed\": {}, \
         \"packs\": {}, \"pack_bytes\": {}, \"unpacks\": {}, \"unpack_bytes\": {}, \
         \"warnings\": {}}}\n",
        rec.number,
        rank.map_or("null".into(), |r| r.to_string()),
        rec.handle,
        string(&rec.expression),
        rec.expression_complete,
        rec.predefined,
        rec.size,
        rec.lb,
        rec.extent,
        rec.true_lb,
        rec.true_extent,
        stamp(Some(rec.built)),
        frames(&rec.built_at),
        stamp(rec.committed),
        rec.committed.is_some() as u64 + rec.committed_again.map_or(0, |o| o.count),
        stamp(rec.freed),
        rec.packs,
        rec.pack_bytes,
        rec.unpacks,
        rec.unpack_bytes,
        warnings_json(&all_warnings(rec, when)),
    )
}
