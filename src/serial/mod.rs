//! The one-process world: what this library is when no MPI library is behind it, so that a
//! program linked with `-lmpi_dtype` instead of an MPI runs as one process. Point-to-point
//! communication has the standard's full semantics in that world: a process sends to itself,
//! in every mode, blocking, nonblocking and persistent; messages are matched by communicator
//! and tag in the order they were sent; probes, matched probes and cancels work; and a call
//! that could never complete fails, saying why, instead of hanging. Data move through the
//! pack engine, so a receive may use any type of the same signature as the send.
//!
//! This module keeps the state and the rules; the exported functions
//! ([`crate::ffi::comm`]) check the arguments and call it when there is no MPI behind.

pub mod comms;
pub mod datareps;
pub mod files;
pub mod generalized;
pub mod groups;
pub mod mailbox;
pub mod ops;
pub mod partitioned;
pub mod requests;
pub mod sessions;
mod slab;
pub mod topology;
pub mod windows;
pub mod world;
