//! The communication functions: point-to-point, completion, probes, the buffer of buffered
//! sends, `MPI_Bcast`, the collectives that move one block per process (`MPI_Alltoall`,
//! `MPI_Allgather`, `MPI_Gather`, `MPI_Scatter`), communicators and groups.
//!
//! Each stands in front of the MPI behind's function of the same name and calls it, with the
//! program's arguments or, for a message the engine packs, with the packed bytes
//! ([`crate::dropin::comm`] decides and keeps the requests). The `int` function and its `_c`
//! form are made by one macro from one body.
//!
//! Standalone (no MPI library behind this one) they are the one-process world's
//! ([`serial`], [`crate::serial`]): a process sends to itself with the standard's semantics,
//! `MPI_Bcast` completes at once (the root is the only process), and the block collectives
//! copy their one block through the engine ([`one_process`]). The functions made by macros
//! are declared in the header from `communication.h`.

/// Defines exported functions of the one-process world, each from its C signature and its
/// body there: in drop-in mode the function passes its arguments on to the MPI behind's
/// function of the same name; standalone, the body runs in `$guard` (`guard` for a call on
/// no object, `guard_on` for one on a communicator, `guard_win` for one on a window), which
/// catches a panic and raises the body's error. A `_c` function may name its `int` form
/// (`as $int`), which the MPI behind's answers for it where that library lacks it
/// ([`int_forms`]).
macro_rules! one_process_functions {
    ($(
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(as $int:ident)? via $guard:ident($($on:expr)?) $body:block
    )*) => {$(
        $(#[$doc])*
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> std::os::raw::c_int {
            $crate::ffi::export(stringify!($name), || {
                if !$crate::ffi::comm::standalone() {
                    let rc = $crate::ffi::comm::int_forms::or_int_form!($crate::behind::forward!($name: fn($($ty),*) -> std::os::raw::c_int, $($arg),*);
                        $name [$($int)?];
                        on [raised_on!($guard($($on)?))]; widths &[]; after Return; messages []; ($($arg),*));
                    return rc.unwrap_or_else(|| $crate::ffi::missing_behind(stringify!($name)));
                }
                $guard(stringify!($name), $($on,)? || -> $crate::error::MpiResult<()> { $body })
            })
        }
    )*};
}

/// Where the error of a call guarded by `guard_on(comm)`, `guard_win(win)` or `guard()` is
/// raised in drop-in mode ([`int_forms::On`]).
macro_rules! raised_on {
    (guard_on($comm:expr)) => {
        $crate::ffi::comm::int_forms::On::Comm($comm)
    };
    (guard_win($win:expr)) => {
        $crate::ffi::comm::int_forms::On::Win($win)
    };
    (guard()) => {
        $crate::ffi::comm::int_forms::On::Process
    };
    (guard_file($file:expr)) => {
        $crate::ffi::comm::int_forms::On::File($file)
    };
}

pub(crate) use {one_process_functions, raised_on};

/// The first of a list of arguments (a collective's send buffer).
macro_rules! first {
    ($first:ident $(, $rest:ident)*) => {
        $first
    };
}

/// The last of a list of arguments (a collective's communicator).
macro_rules! last {
    ($only:ident) => {
        $only
    };
    ($first:ident, $($rest:ident),+) => {
        last!($($rest),+)
    };
}

pub mod attributes;
pub mod bcast;
pub mod blocks;
pub mod buffer;
pub mod communicators;
pub mod complete;
pub mod groups;
pub(crate) mod int_forms;
pub mod neighbourhood;
pub mod nonblocking;
mod one_process;
pub mod one_sided;
mod op_functions;
pub mod partitioned;
mod persistent_alone;
pub mod probe;
pub mod receive;
pub mod reductions;
pub mod send;
pub mod serial;
pub mod sessions;
pub mod tool_information;
pub mod topologies;
pub mod varying;
mod varying_engine;
pub mod windows;

use super::{guard, missing_behind};
use crate::abi::{MPI_Comm, MPI_SUCCESS};
use crate::error::MpiResult;
use std::os::raw::c_int;

/// [`guard`] for a call on `comm` in the one-process world: its error is raised on `comm`'s
/// error handler (on the default one if `comm` is not a communicator).
fn guard_on(function: &'static str, comm: MPI_Comm, body: impl FnOnce() -> MpiResult<()>) -> c_int {
    let handler = || super::errhandler_of(comm);
    guard_object(function, (crate::error::Raised::Comm(comm), handler), body)
}

/// [`guard`] for a call on an object (a communicator, window or session): its error is raised
/// on the handler `handler` finds for it, or on the default one if the object is not one.
fn guard_object(
    function: &'static str,
    (on, handler): (
        crate::error::Raised,
        impl FnOnce() -> MpiResult<crate::abi::MPI_Errhandler>,
    ),
    body: impl FnOnce() -> MpiResult<()>,
) -> c_int {
    let Err(error) = super::checked(body) else {
        return MPI_SUCCESS;
    };
    match handler() {
        Ok(handler) => super::raise_on(function, error, handler, on),
        Err(_) => super::raise(function, error),
    }
}

/// True if there is no MPI library behind this one: the one-process world answers.
pub(crate) fn standalone() -> bool {
    crate::behind::backend().is_none()
}
