//! The sessions of the one-process world (MPI-4.1 §11.3): each with its error handler and the
//! hints it was given. Both process sets the standard names, `mpi://WORLD` and `mpi://SELF`,
//! hold the one process.

use super::slab::Slab;
use crate::abi::MPI_Errhandler;
use crate::info::Pairs;
use parking_lot::Mutex;
use std::sync::LazyLock;

/// The process sets of every session, in the order `MPI_Session_get_nth_pset` gives them.
pub const PROCESS_SETS: [&str; 2] = ["mpi://WORLD", "mpi://SELF"];

/// The process set named `name` (the names are not case-sensitive), if there is one.
pub fn process_set(name: &str) -> Option<&'static str> {
    PROCESS_SETS
        .into_iter()
        .find(|set| set.eq_ignore_ascii_case(name))
}

/// What the world keeps of a session.
#[derive(Debug, Clone)]
pub struct Session {
    /// Its error handler.
    pub errhandler: MPI_Errhandler,
    /// The hints it was given at `MPI_Session_init`.
    pub info: Pairs,
}

/// The sessions, behind their lock.
static SESSIONS: LazyLock<Mutex<Slab<Session>>> = LazyLock::new(Mutex::default);

/// Keeps a session and returns its index.
pub fn keep(session: Session) -> usize {
    SESSIONS.lock().insert(session)
}

/// Runs `f` on the session at `index`; `None` if there is none.
pub fn with<R>(index: usize, f: impl FnOnce(&mut Session) -> R) -> Option<R> {
    SESSIONS.lock().get_mut(index).map(f)
}

/// Forgets the session at `index`; false if there was none.
pub fn free(index: usize) -> bool {
    SESSIONS.lock().remove(index).is_some()
}
