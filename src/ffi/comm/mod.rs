//! The communication functions of drop-in mode: point-to-point, completion, `MPI_Bcast`, and
//! the collectives that move one block per process (`MPI_Alltoall`, `MPI_Allgather`,
//! `MPI_Gather`, `MPI_Scatter`).
//!
//! Each stands in front of the MPI behind's function of the same name and calls it, with the
//! program's arguments or, for a message the engine packs, with the packed bytes
//! ([`crate::dropin::comm`] decides and keeps the requests). The `int` function and its `_c`
//! form are made by one macro from one body.
//!
//! Standalone (no MPI library behind this one) there is no one to exchange messages with:
//! `MPI_Bcast` in the one-process world completes at once (the root is the only process),
//! the block collectives copy their one block through the engine ([`one_process`]), and
//! every other function fails with `MPI_ERR_OTHER`, saying that it needs an MPI library.
//! These functions are not in this library's header, which declares the datatype chapter.

pub mod bcast;
pub mod blocks;
pub mod complete;
mod one_process;
pub mod receive;
pub mod send;

use super::guard;
use crate::error::MpiError;
use std::os::raw::c_int;

/// The answer of `function` without an MPI library behind this one.
fn without_mpi(function: &'static str) -> c_int {
    guard(function, || {
        Err(MpiError::new(
            crate::abi::MPI_ERR_OTHER,
            "point-to-point communication needs an MPI library behind mpi-dtype (drop-in \
             mode); standalone, mpi-dtype is the datatype chapter of MPI only",
        ))
    })
}
