//! `mpi-dtype-explain`: explains a datatype written as the MPI calls that build it.
//!
//! ```sh
//! mpi-dtype-explain 'struct([1,1,3], [0,8,16], [MPI_INT, MPI_DOUBLE, MPI_CHAR])' --format svg > particle.svg
//! ```
//!
//! The expression language is described in `mpi_dtype::explain::parse` and `docs/explain.md`.
//! Exit status: 0 on success, 1 for an expression that is malformed or whose constructor
//! fails, 2 for bad command-line arguments.

use mpi_dtype::explain::{self, parse, Format};
use std::io::Write as _;
use std::process::ExitCode;

const USAGE: &str = "usage: mpi-dtype-explain EXPRESSION [--format text|json|svg|html]

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

Example:
  mpi-dtype-explain 'struct([1,1,3], [0,8,16], [MPI_INT, MPI_DOUBLE, MPI_CHAR])' --format svg
";

fn main() -> ExitCode {
    let mut expression: Option<String> = None;
    let mut format = Format::Text;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "-h" | "--help" => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "-f" | "--format" => args.next(),
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
