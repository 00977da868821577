//! The communicators of the one-process world: `MPI_COMM_WORLD`, `MPI_COMM_SELF` and those
//! the program makes from them (`MPI_Comm_dup`, `MPI_Comm_split`, ...), each with its name
//! and error handler. Every one has the one process; each is a context of its own, so that
//! messages on one never match receives on another ([`super::mailbox`] matches by handle).

use super::slab::Slab;
use crate::abi::{MPI_Comm, MPI_Errhandler, MPI_COMM_SELF, MPI_COMM_WORLD};
use parking_lot::Mutex;
use std::sync::LazyLock;

/// What the world keeps of a communicator the program made.
#[derive(Clone, Debug)]
pub struct Communicator {
    /// Its name (`MPI_Comm_set_name`); empty until it is set.
    pub name: String,
    /// Its error handler.
    pub errhandler: MPI_Errhandler,
}

/// The communicators the program made, by index ([`crate::abi::own_comm`]).
static MADE: LazyLock<Mutex<Slab<Communicator>>> = LazyLock::new(Default::default);
/// The names of the two predefined communicators (MPI-4.1 §7.8: set to their own names).
static PREDEFINED_NAMES: Mutex<Option<[String; 2]>> = Mutex::new(None);

/// Keeps a communicator and returns its index.
pub fn keep(communicator: Communicator) -> usize {
    MADE.lock().insert(communicator)
}

/// The communicator at `index`, if it is alive.
pub fn get(index: usize) -> Option<Communicator> {
    MADE.lock().get(index).cloned()
}

/// Changes the communicator at `index`; false if there is none.
pub fn update(index: usize, change: impl FnOnce(&mut Communicator)) -> bool {
    MADE.lock().get_mut(index).map(change).is_some()
}

/// Forgets the communicator at `index`; false if there was none.
pub fn free(index: usize) -> bool {
    MADE.lock().remove(index).is_some()
}

/// A new communicator with the error handler `errhandler` and no name.
pub fn new(errhandler: MPI_Errhandler) -> Communicator {
    Communicator {
        name: String::new(),
        errhandler,
    }
}

/// The name of `MPI_COMM_WORLD` or `MPI_COMM_SELF`.
pub fn predefined_name(comm: MPI_Comm) -> String {
    let names = PREDEFINED_NAMES.lock();
    let at = usize::from(comm == MPI_COMM_SELF);
    match &*names {
        Some(names) => names[at].clone(),
        None => ["MPI_COMM_WORLD", "MPI_COMM_SELF"][at].to_string(),
    }
}

/// Renames `MPI_COMM_WORLD` or `MPI_COMM_SELF`.
pub fn rename_predefined(comm: MPI_Comm, name: String) {
    let mut names = PREDEFINED_NAMES.lock();
    let names =
        names.get_or_insert_with(|| ["MPI_COMM_WORLD".to_string(), "MPI_COMM_SELF".to_string()]);
    names[usize::from(comm == MPI_COMM_SELF)] = name;
    debug_assert!(comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF);
}
