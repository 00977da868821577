//! mpi-dtype: the datatype chapter of MPI as a standalone library with MPICH's C ABI.
//!
//! Data flows one way: C call ([`ffi`]) → handle table ([`handles`]) → immutable
//! [`datatype::Datatype`] → pack engine ([`pack`]) → bytes.

#![deny(unsafe_op_in_unsafe_fn)]

pub mod abi;
pub mod datatype;
pub mod error;
pub mod ffi;
pub mod handles;
pub mod pack;
pub mod plan;
