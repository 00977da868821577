//! mpi-dtype-core: the datatype chapter of MPI as safe Rust, with no FFI, no handles, no ABI
//! numbers and no state of an MPI library behind.
//!
//! Data flows one way: a constructor ([`datatype::construct`]) makes an immutable
//! [`datatype::Datatype`], which keeps its arguments verbatim, its bounds, and the pack plan
//! ([`plan`]) compiled when it is made; [`pack`] checks room and runs the plan to move bytes;
//! [`reduce`] applies the predefined reduction operations to packed data.
//! Errors are [`error::Error`] values of an [`error::ErrorClass`]; the C library maps the
//! class to the number of the ABI it is built for.

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub mod array;
pub mod datatype;
pub mod error;
#[cfg(target_arch = "x86_64")]
mod extended;
pub mod file_view;
pub mod pack;
pub mod plan;
pub mod predefined;
pub mod reduce;
