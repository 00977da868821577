//! mpi-dtype: the datatype chapter of MPI as a standalone library, with MPICH's C ABI or the
//! MPI-5.0 standard ABI ([`abi`], chosen when it is built).
//!
//! Data flows one way: C call ([`ffi`]) → drop-in layer ([`dropin`]: whose handle it is, the
//! twins in an MPI library behind this one) → handle table ([`handles`]) → immutable
//! [`datatype::Datatype`] → compiled pack plan ([`plan`]) → bytes ([`pack`]). The MPI library
//! behind ([`behind`]) is found and called by the drop-in layer only. The datatype objects,
//! their plans and the pack engine are the safe core, the crate `mpi-dtype-core` (`core/`),
//! whose modules are re-exported here under their own names.

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub mod abi;
pub mod behind;
pub mod diagnostic;
pub mod dropin;
pub mod error;
pub mod ffi;
pub mod handles;
pub mod info;
pub mod keyvals;
pub mod process;
pub mod serial;
pub mod tool_information;
pub mod trace;

pub use mpi_dtype_core::{array, datatype, file_view, pack, plan, predefined, reduce};
