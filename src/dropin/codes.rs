//! Error codes for this library's errors while an MPI library is behind it (drop-in mode):
//! codes that library reads. Its own functions receive them: the program's
//! `MPI_Error_class` / `MPI_Error_string` go there for codes this library did not make, and
//! a code returned to one of that library's internal callers travels up its error stack (ROMIO
//! calls the datatype functions on file views and returns their failures from
//! `MPI_File_write_all`), where MPICH accepts only a bare error class or a code of its own
//! error ring.
//!
//! A code is therefore made by the MPI behind: MPICH's ABI libraries (MPICH 4 and 5, Intel
//! MPI) export `MPIR_Err_create_code`, which records an error of a class with a message in
//! that ring, as MPICH's own functions do. So `MPI_Error_class` gives the class and
//! `MPI_Error_string` names the function and the problem (after MPICH's text of the class and
//! its "error stack:" line). An MPI without that function gets the bare class as the code.
//!
//! (MPI's dynamic codes, `MPI_Add_error_code`, would carry a message too, but MPICH's error
//! stack rejects them as the cause of its own errors, and MPICH 4.0.2 makes codes of
//! predefined classes that its own `MPI_Error_string` misreads.)

use crate::behind::real_function;
use std::ffi::CString;
use std::os::raw::{c_char, c_int};
use std::sync::atomic::AtomicUsize;

/// MPICH's `MPIR_Err_create_code(lastcode, fatal, fcname, line, error_class, generic_msg,
/// specific_msg, ...)`.
type CreateCode = unsafe extern "C" fn(
    c_int,
    c_int,
    *const c_char,
    c_int,
    c_int,
    *const c_char,
    *const c_char,
    ...
) -> c_int;

/// `MPIR_ERR_RECOVERABLE`: the error does not end the program by itself.
const RECOVERABLE: c_int = 0;

/// The error code to return for an error of `class` raised by `function` with `message`
/// while the MPI behind is initialized, or `None` when none is (this library's own codes
/// apply then).
pub fn code_for(class: c_int, function: &str, message: &str) -> Option<c_int> {
    if !super::twin::enabled() {
        return None;
    }
    static CREATE: AtomicUsize = AtomicUsize::new(0);
    let address = real_function(&CREATE, c"MPIR_Err_create_code");
    if address == 0 {
        return Some(class);
    }
    // SAFETY: MPICH's ABI libraries define MPIR_Err_create_code with this C signature.
    let create: CreateCode = unsafe { std::mem::transmute::<usize, CreateCode>(address) };
    let text = |s: &str| CString::new(s.replace('\0', " ")).expect("NUL bytes were replaced");
    let (function, message) = (text(function), text(message));
    // SAFETY: NUL-terminated strings that outlive the call; "%s" takes the one vararg, a
    // NUL-terminated string. "**other" is a generic message every MPICH version has.
    let code = unsafe {
        create(
            crate::abi::MPI_SUCCESS,
            RECOVERABLE,
            function.as_ptr(),
            0,
            class,
            c"**other".as_ptr(),
            c"%s".as_ptr(),
            message.as_ptr(),
        )
    };
    Some(if code == crate::abi::MPI_SUCCESS {
        class
    } else {
        code
    })
}
