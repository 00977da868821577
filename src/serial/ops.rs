//! The reduction operations `MPI_Op_create` makes in the one-process world: the program's
//! function and whether it commutes, kept by index for the handles the program holds
//! ([`crate::abi::own_op`]).

use super::slab::Slab;
use crate::abi::{MPI_User_function, MPI_User_function_c};
use parking_lot::Mutex;
use std::sync::LazyLock;

/// The program's reduction function, as it was given.
#[derive(Clone, Copy, Debug)]
pub enum Function {
    /// From `MPI_Op_create`: the length is an `int`.
    Int(MPI_User_function),
    /// From `MPI_Op_create_c`: the length is an `MPI_Count`.
    Large(MPI_User_function_c),
}

/// An operation the program made.
#[derive(Clone, Copy, Debug)]
pub struct UserOp {
    /// Its function.
    pub function: Function,
    /// Whether it commutes (the order of operands may change).
    pub commutes: bool,
}

/// The operations the program made.
static OPS: LazyLock<Mutex<Slab<UserOp>>> = LazyLock::new(Default::default);

/// Keeps an operation and returns its index.
pub fn keep(op: UserOp) -> usize {
    OPS.lock().insert(op)
}

/// The operation at `index`, if it is alive.
pub fn get(index: usize) -> Option<UserOp> {
    OPS.lock().get(index).copied()
}

/// Forgets the operation at `index`; false if there was none.
pub fn free(index: usize) -> bool {
    OPS.lock().remove(index).is_some()
}
