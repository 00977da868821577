//! The communicators of the one-process world: `MPI_COMM_WORLD`, `MPI_COMM_SELF` and those
//! the program makes from them (`MPI_Comm_dup`, `MPI_Comm_split`, ...), each with its name,
//! error handler and attributes. Every one has the one process; each is a context of its
//! own, so that messages on one never match receives on another ([`super::mailbox`] matches
//! by handle).

use super::slab::Slab;
use super::topology::Topology;
use crate::abi::{MPI_Errhandler, MPI_ERRORS_ARE_FATAL};
use crate::keyvals::Attributes;
use parking_lot::Mutex;
use std::sync::LazyLock;

/// What the world keeps of a communicator.
#[derive(Clone, Debug)]
pub struct Communicator {
    /// Its name (`MPI_Comm_set_name`); empty until it is set, for those the program makes.
    pub name: String,
    /// Its error handler (for `MPI_COMM_WORLD` and `MPI_COMM_SELF`, [`crate::error`] keeps
    /// theirs, which the datatype functions use too).
    pub errhandler: MPI_Errhandler,
    /// Its attributes, in the order they were set.
    pub attributes: Attributes,
    /// Its process topology, if it has one.
    pub topology: Option<Topology>,
    /// The hints it was given (`MPI_Comm_set_info`).
    pub info: crate::info::Pairs,
}

/// Where a communicator's record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `MPI_COMM_WORLD`'s.
    World,
    /// `MPI_COMM_SELF`'s.
    SelfComm,
    /// That of the communicator the program made at this index ([`crate::abi::own_comm`]).
    Made(usize),
}

/// The records of the communicators.
struct Table {
    /// `MPI_COMM_WORLD`'s and `MPI_COMM_SELF`'s.
    predefined: [Communicator; 2],
    /// Those the program made.
    made: Slab<Communicator>,
}

/// The communicators, behind their lock.
static TABLE: LazyLock<Mutex<Table>> = LazyLock::new(|| {
    let named = |name: &str| Communicator {
        name: name.to_string(),
        errhandler: MPI_ERRORS_ARE_FATAL,
        attributes: Attributes::new(),
        topology: None,
        info: Vec::new(),
    };
    Mutex::new(Table {
        predefined: [named("MPI_COMM_WORLD"), named("MPI_COMM_SELF")],
        made: Slab::default(),
    })
});

/// Keeps a communicator the program made and returns its index.
pub fn keep(communicator: Communicator) -> usize {
    TABLE.lock().made.insert(communicator)
}

/// Runs `f` on the record at `place`; `None` if there is no communicator there.
pub fn with<R>(place: Place, f: impl FnOnce(&mut Communicator) -> R) -> Option<R> {
    let mut table = TABLE.lock();
    let record = match place {
        Place::World => Some(&mut table.predefined[0]),
        Place::SelfComm => Some(&mut table.predefined[1]),
        Place::Made(index) => table.made.get_mut(index),
    };
    record.map(f)
}

/// True if the program made a communicator at `index` and has not freed it.
pub fn exists(index: usize) -> bool {
    with(Place::Made(index), |_| ()).is_some()
}

/// Forgets the communicator the program made at `index`; false if there was none.
pub fn free(index: usize) -> bool {
    TABLE.lock().made.remove(index).is_some()
}

/// A new communicator with the error handler `errhandler`, attributes `attributes`, the
/// topology `topology` and no name.
pub fn new(
    errhandler: MPI_Errhandler,
    attributes: Attributes,
    topology: Option<Topology>,
) -> Communicator {
    Communicator {
        name: String::new(),
        errhandler,
        attributes,
        topology,
        info: Vec::new(),
    }
}
