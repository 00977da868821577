//! Error codes for this library's errors while an MPI library is behind it (drop-in mode):
//! codes that library reads, since its own functions (`MPI_Error_class`,
//! `MPI_Error_string`, its error stack when a code returned to one of its internal callers
//! travels up, as ROMIO's calls of `MPI_Pack_external` do) receive them.
//!
//! A code is one of that library's dynamic error codes of the error's class
//! (`MPI_Add_error_code`), carrying the error's text (`MPI_Add_error_string`): so
//! `MPI_Error_class` gives the class and `MPI_Error_string` names the function and the
//! problem, as this library's own codes do standalone. A few codes per class are made and
//! used in turn, their texts replaced, so that memory stays bounded: a code stays readable
//! for its class forever, its text for the next [`PER_CLASS`] - 1 errors of the same class.
//!
//! An MPI whose dynamic codes do not work for predefined classes gets the bare class as the
//! code instead. MPICH 4.0.2 is one: its `MPI_Add_error_code` returns a code without its own
//! dynamic-code mark, which its `MPI_Error_string` then misreads.

use crate::abi::*;
use crate::behind::forward;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::CString;
use std::os::raw::{c_char, c_int};

/// Codes made per error class and used in turn.
pub const PER_CLASS: usize = 8;
/// The bit MPICH sets in its dynamic error codes.
const DYNAMIC_MARK: c_int = 0x4000_0000;

/// The codes made so far for each class, and the index of the next to use.
#[derive(Default)]
struct Codes {
    /// False once the MPI behind showed that its dynamic codes do not work.
    broken: bool,
    by_class: HashMap<c_int, (Vec<c_int>, usize)>,
}

static CODES: Mutex<Option<Codes>> = Mutex::new(None);

/// The error code to return for an error of `class` with the text `text` while the MPI
/// behind is initialized, or `None` when none is (this library's own codes apply then).
pub fn code_for(class: c_int, text: &str) -> Option<c_int> {
    if !crate::twin::enabled() {
        return None;
    }
    let mut guard = CODES.lock();
    let codes = guard.get_or_insert_with(Codes::default);
    if codes.broken {
        return Some(class);
    }
    let (made, next) = codes.by_class.entry(class).or_default();
    let code = match made.get(*next) {
        Some(&code) => code,
        None => match new_code(class) {
            Some(code) => {
                made.push(code);
                code
            }
            None if made.is_empty() => {
                codes.broken = true;
                return Some(class);
            }
            None => made[0],
        },
    };
    *next = (*next + 1) % PER_CLASS;
    let text = CString::new(text.replace('\0', " ")).expect("NUL bytes were replaced");
    let set =
        forward!(PMPI_Add_error_string: fn(c_int, *const c_char) -> c_int, code, text.as_ptr());
    Some(if set == Some(MPI_SUCCESS) {
        code
    } else {
        class
    })
}

/// A new dynamic code of `class` in the MPI behind, if it makes one that it reads back as
/// of that class.
fn new_code(class: c_int) -> Option<c_int> {
    let mut code = MPI_SUCCESS;
    let made = forward!(PMPI_Add_error_code: fn(c_int, *mut c_int) -> c_int, class, &mut code);
    if made != Some(MPI_SUCCESS) || code & DYNAMIC_MARK == 0 {
        return None;
    }
    let mut read_back = MPI_SUCCESS;
    let rc = forward!(PMPI_Error_class: fn(c_int, *mut c_int) -> c_int, code, &mut read_back);
    (rc == Some(MPI_SUCCESS) && read_back == class).then_some(code)
}
