//! The one way in from C. Every exported function's body runs inside [`export`] (or
//! [`export_value`] for the few that answer with a value, not an error code), so that a panic
//! anywhere in it, a call of the MPI behind included, is caught at the boundary and raised as
//! `MPI_ERR_INTERN` on the error handler instead of aborting the program. Inside, [`guard`]
//! runs the checked part of a call and raises its error on the error handler.

use crate::abi::*;
use crate::error::{self, MpiError, MpiResult};
use std::os::raw::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs the whole body of the exported function `function` and returns its error code; a
/// panic in it is raised as `MPI_ERR_INTERN` on the error handler.
#[inline(always)]
pub fn export(function: &'static str, body: impl FnOnce() -> c_int) -> c_int {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(code) => code,
        Err(_) => panicked(function),
    }
}

/// [`export`] for a function that answers with a value instead of an error code
/// (`MPI_Wtime`, `MPI_Aint_add`, `MPI_Type_toint`, ...): a panic in it is raised on the
/// error handler, and the function answers `fallback`.
#[inline(always)]
pub fn export_value<T>(function: &'static str, fallback: T, body: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(value) => value,
        Err(_) => {
            panicked(function);
            fallback
        }
    }
}

/// Raises the panic caught in `function` as `MPI_ERR_INTERN`.
#[cold]
#[inline(never)]
fn panicked(function: &'static str) -> c_int {
    raise(function, caught_panic())
}

/// The error a caught panic is raised as.
fn caught_panic() -> MpiError {
    MpiError::new(MPI_ERR_INTERN, "internal error (a panic was caught)")
}

/// Runs the checked part of the exported function `function`: returns `MPI_SUCCESS`, or
/// raises the error (or a caught panic, as `MPI_ERR_INTERN`) on the error handler and returns
/// its code. It catches panics itself because some of its callers are `extern "C"` helpers
/// inside an exported body (the out-of-line half of a query), which a panic must not leave.
pub fn guard(function: &'static str, body: impl FnOnce() -> MpiResult<()>) -> c_int {
    match checked(body) {
        Ok(()) => MPI_SUCCESS,
        Err(error) => raise(function, error),
    }
}

/// The answer of `body`, a caught panic as `MPI_ERR_INTERN`.
pub fn checked(body: impl FnOnce() -> MpiResult<()>) -> MpiResult<()> {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| Err(caught_panic()))
}

/// The answer of `function` when the MPI library behind this one lacks it.
pub fn missing_behind(function: &'static str) -> c_int {
    guard(function, || {
        Err(MpiError::new(
            MPI_ERR_OTHER,
            "the MPI library behind mpi-dtype does not have this function",
        ))
    })
}

/// Hands `error` from `function` to the error handler in force (`MPI_COMM_SELF`'s if the
/// program set one, else `MPI_COMM_WORLD`'s) and returns its error code ([`raise_on`]).
pub fn raise(function: &'static str, error: MpiError) -> c_int {
    raise_on(
        function,
        error,
        error::effective_handler(),
        error::Raised::Comm(error::effective_comm()),
    )
}

/// Calls `handler` for the error code `code` raised on `on`, as `MPI_Comm_call_errhandler`
/// and `MPI_Win_call_errhandler` do: `MPI_ERRORS_RETURN` does nothing,
/// `MPI_ERRORS_ARE_FATAL` and `MPI_ERRORS_ABORT` end the program, and a handler the program
/// made is called.
pub fn call_handler(
    function: &'static str,
    handler: MPI_Errhandler,
    code: c_int,
    on: error::Raised,
) {
    match handler {
        handler if handler == MPI_ERRORS_RETURN => {}
        handler if is_fatal(handler) => {
            let class = error::class_of(code).unwrap_or(code);
            crate::diagnostic::line(format_args!(
                "Fatal error in {function}: error code {code} ({})",
                error::class_name(class)
            ));
            crate::process::abort_program(class.max(1))
        }
        other => error::call_user_errhandler(other, code, on),
    }
}

/// True if `handler` ends the program: `MPI_ERRORS_ARE_FATAL` or `MPI_ERRORS_ABORT`.
fn is_fatal(handler: MPI_Errhandler) -> bool {
    handler == MPI_ERRORS_ARE_FATAL || handler == MPI_ERRORS_ABORT
}

/// A new error code for `error` of `function`: with an MPI behind, one that library reads;
/// else one of this library's own.
pub fn error_code(function: &'static str, error: &MpiError) -> c_int {
    crate::dropin::codes::code_for(error.class, function, &error.message)
        .unwrap_or_else(|| error::new_code(error.class, function, &error.message))
}

/// Hands `error` from `function` to `handler`, the error handler of `on`, and returns its
/// error code (a new code for each error; `MPI_Error_class` maps it to its class; in drop-in
/// mode a code of the MPI behind, [`crate::dropin::codes`]).
pub fn raise_on(
    function: &'static str,
    error: MpiError,
    handler: MPI_Errhandler,
    on: error::Raised,
) -> c_int {
    let text = error::class_text(error.class).unwrap_or("error");
    let code = error_code(function, &error);
    match handler {
        handler if handler == MPI_ERRORS_RETURN => code,
        handler if is_fatal(handler) => {
            crate::diagnostic::line(format_args!(
                "Fatal error in {function}: {} ({}: {text})",
                error.message,
                error::class_name(error.class)
            ));
            crate::process::abort_program(error.class.max(1))
        }
        other => {
            error::call_user_errhandler(other, code, on);
            code
        }
    }
}

/// Defines exported functions that share one body: an `int` function and its large-count
/// `_c` (or `_x`) form, and an MPI-1 name where MPICH keeps one, differ only in the C types
/// of their arguments. Each `fn` line declares one function, with its doc and attributes,
/// and may end `with name = value` for a value of its own that the body sees as `name`;
/// after `=>` comes the body, run inside [`export`], which sees the arguments by name,
/// `FUNCTION`, the name of the function called, and `behind_call`, which calls the MPI
/// behind's function of that name (`P`-prefixed) with arguments of its C types (`None`
/// without an MPI behind). With `foreign if $foreign;` first, a call
/// whose datatype handles `$foreign` finds to be the MPI behind's own goes to that library's
/// function of the same name ([`crate::behind::foreign_call`]). With `standalone => $body`
/// instead, the body is the one-process world's answer, and where an MPI library is behind
/// this one every call is that library's.
///
/// `build.rs` gives cbindgen, which does not expand macros, each `fn` line as a prototype of
/// the header.
macro_rules! exported {
    (@names $name:ident($($arg:ident: $ty:ty),*)) => {
        #[allow(dead_code)]
        const FUNCTION: &str = stringify!($name);
        #[allow(dead_code, clippy::too_many_arguments)]
        fn behind_call($($arg: $ty),*) -> Option<std::os::raw::c_int> {
            $crate::behind::forward!(P $name: fn($($ty),*) -> std::os::raw::c_int, $($arg),*)
        }
    };
    // What runs before the body: nothing, the MPI behind's function for a foreign handle, or
    // the MPI behind's function whenever there is one.
    (@before [] $name:ident($($arg:ident),*)) => {};
    (@before [foreign ($foreign:expr)] $name:ident($($arg:ident),*)) => {
        $crate::behind::foreign_call!($name($($arg),*) if $foreign);
    };
    (@before [standalone] $name:ident($($arg:ident),*)) => {
        if $crate::behind::backend().is_some() {
            return behind_call($($arg),*).unwrap_or_else(|| $crate::ffi::missing_behind(FUNCTION));
        }
    };
    (
        @define $before:tt
        $($(#[$attr:meta])* fn $name:ident ($($arg:ident: $ty:ty),*) $(with $var:ident = $value:expr)?;)+
        => $body:expr
    ) => {$(
        $(#[$attr])*
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> std::os::raw::c_int {
            $crate::ffi::export(stringify!($name), || {
                $crate::ffi::exported!(@names $name($($arg: $ty),*));
                $crate::ffi::exported!(@before $before $name($($arg),*));
                $(let $var = $value;)?
                $body
            })
        }
    )+};
    (
        $($(#[$attr:meta])* fn $name:ident ($($arg:ident: $ty:ty),* $(,)?) $(with $var:ident = $value:expr)?;)+
        foreign if $foreign:expr;
        => $body:expr
    ) => {
        $crate::ffi::exported! {
            @define [foreign ($foreign)]
            $($(#[$attr])* fn $name($($arg: $ty),*) $(with $var = $value)?;)+ => $body
        }
    };
    (
        $($(#[$attr:meta])* fn $name:ident ($($arg:ident: $ty:ty),* $(,)?) $(with $var:ident = $value:expr)?;)+
        standalone => $body:expr
    ) => {
        $crate::ffi::exported! {
            @define [standalone]
            $($(#[$attr])* fn $name($($arg: $ty),*) $(with $var = $value)?;)+ => $body
        }
    };
    (
        $($(#[$attr:meta])* fn $name:ident ($($arg:ident: $ty:ty),* $(,)?) $(with $var:ident = $value:expr)?;)+
        => $body:expr
    ) => {
        $crate::ffi::exported! {
            @define []
            $($(#[$attr])* fn $name($($arg: $ty),*) $(with $var = $value)?;)+ => $body
        }
    };
}
pub(crate) use exported;
