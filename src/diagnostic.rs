//! Diagnostic lines on standard error (`MPI_DTYPE_DEBUG`, fatal errors, trace problems).
//!
//! Each line goes out in one `write`: mpiexec merges the standard error of every process as it
//! reads it, and a line written in pieces (as `eprintln!` writes its arguments) can come out
//! cut by another process's line, or by a line of the program's standard output.

use std::fmt;
use std::io::Write;

/// Writes `message` and a newline to standard error with one write; a failure to write is
/// ignored (a diagnostic never changes what a call returns).
pub fn line(message: fmt::Arguments) {
    let mut text = message.to_string();
    text.push('\n');
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
