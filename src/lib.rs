//! mpi-dtype: the datatype chapter of MPI as a standalone library with MPICH's C ABI.
//!
//! Data flows one way: C call ([`ffi`]) → handle table ([`handles`]) → immutable
//! [`datatype::Datatype`] → compiled pack plan ([`plan`]) → bytes ([`pack`]).

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub mod abi;
pub mod behind;
pub mod behind_codes;
pub mod datatype;
pub mod error;
pub mod explain;
pub mod ffi;
pub mod handles;
pub mod import;
pub mod pack;
pub mod plan;
pub mod trace;
pub mod twin;
