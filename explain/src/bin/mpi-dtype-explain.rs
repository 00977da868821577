//! `mpi-dtype-explain`: explains a datatype written as the MPI calls that build it.
//!
//! ```sh
//! mpi-dtype-explain 'struct([1,1,3], [0,8,16], [MPI_INT, MPI_DOUBLE, MPI_CHAR])' --format svg > particle.svg
//! ```
//!
//! The expression language is described in `mpi_dtype_explain::parse` and `docs/explain.md`.
//! With `--trace FILE` (repeatable) it reports on the types a traced program built
//! (`MPI_DTYPE_TRACE`, read by `mpi_dtype_explain::trace`): a sortable HTML page (`--format html`) or text.
//! Exit status: 0 on success, 1 for an expression that is malformed or whose constructor
//! fails, or a trace file that cannot be read, 2 for bad command-line arguments.

use mpi_dtype_explain::trace::{read, report};
use mpi_dtype_explain::{self as explain, parse, Format};
use std::io::Write as _;
use std::process::ExitCode;

const USAGE: &str = "usage: mpi-dtype-explain EXPRESSION [--format text|json|svg|html]
       mpi-dtype-explain --trace FILE [--trace FILE...] [--format text|html]

Explains the MPI datatype EXPRESSION builds: its constructor tree, bounds, signature, runs,
pack plan, type map and warnings (text, json), or a picture of its memory layout (svg, or
html: a page with the picture, the report and the warnings).

EXPRESSION is written as the MPI calls that build the type, by their names without
MPI_Type_ / create_, arguments in C order, arrays as bracketed lists (counts implied):
  contiguous(count, T)          vector(count, blocklength, stride, T)
  hvector(count, blocklength, stride_bytes, T)
  indexed([bl...], [disp...], T)          hindexed([bl...], [disp_bytes...], T)
  indexed_block(bl, [disp...], T)         hindexed_block(bl, [disp_bytes...], T)
  struct([bl...], [disp_bytes...], [T...])
  subarray([sizes], [subsizes], [starts], C|FORTRAN, T)
  darray(size, rank, [gsizes], [BLOCK|CYCLIC|NONE...], [dargs|DFLT...], [psizes], C|FORTRAN, T)
  resized(T, lb, extent)        dup(T)
Predefined types by their C names: MPI_INT, MPI_DOUBLE, MPI_DOUBLE_INT, MPI_LB, MPI_UB, ...

With --trace, reports on the types a program built when run with MPI_DTYPE_TRACE=FILE
(one JSON line per type): one line each (text), or one page (html) with a table of all
types, sortable, and the picture, the warnings and the report of each.

Examples:
  mpi-dtype-explain 'struct([1,1,3], [0,8,16], [MPI_INT, MPI_DOUBLE, MPI_CHAR])' --format svg
  MPI_DTYPE_TRACE=trace.%r.jsonl mpiexec -n 4 ./app
  mpi-dtype-explain --trace trace.0.jsonl --format html > report.html
";

fn main() -> ExitCode {
    let mut expression: Option<String> = None;
    let mut traces: Vec<String> = Vec::new();
    let mut format = Format::Text;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "-h" | "--help" => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "-f" | "--format" => args.next(),
            "-t" | "--trace" => match args.next() {
                Some(file) => {
                    traces.push(file);
                    continue;
                }
                None => {
                    eprintln!("mpi-dtype-explain: --trace takes a file\n\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            other => match other.strip_prefix("--format=") {
                Some(v) => Some(v.to_string()),
                None if other.starts_with("--") => {
                    eprintln!("mpi-dtype-explain: unknown option {other}\n\n{USAGE}");
                    return ExitCode::from(2);
                }
                None if expression.is_some() => {
                    eprintln!("mpi-dtype-explain: give one expression (quote it)\n\n{USAGE}");
                    return ExitCode::from(2);
                }
                None => {
                    expression = Some(other.to_string());
                    continue;
                }
            },
        };
        match value.as_deref().and_then(Format::from_name) {
            Some(f) => format = f,
            None => {
                eprintln!("mpi-dtype-explain: --format takes text, json, svg or html\n\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    if !traces.is_empty() {
        if expression.is_some() {
            eprintln!("mpi-dtype-explain: give an expression or --trace, not both\n\n{USAGE}");
            return ExitCode::from(2);
        }
        return trace_report(&traces, format);
    }
    let Some(expression) = expression else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    match parse::parse(&expression) {
        Ok(dt) => {
            let out = explain::explain(&dt, format);
            // A closed pipe (`| head`) is not an error of the explanation.
            let _ = std::io::stdout().write_all(out.as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprint!("mpi-dtype-explain: {}", e.report(&expression));
            ExitCode::from(1)
        }
    }
}

/// Prints the report of the trace files `files` in `format` (text or html).
fn trace_report(files: &[String], format: Format) -> ExitCode {
    if !matches!(format, Format::Text | Format::Html) {
        eprintln!("mpi-dtype-explain: a trace is reported as text or html\n\n{USAGE}");
        return ExitCode::from(2);
    }
    let mut sources = Vec::new();
    for file in files {
        let records = std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|text| read::records(&text));
        match records {
            Ok(records) => sources.push((file.clone(), records)),
            Err(e) => {
                eprintln!("mpi-dtype-explain: {file}: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let out = match format {
        Format::Html => report::html(&sources),
        _ => report::text(&sources),
    };
    let _ = std::io::stdout().write_all(out.as_bytes());
    ExitCode::SUCCESS
}
