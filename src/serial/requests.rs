//! The requests of the one-process world: each nonblocking or persistent operation the
//! program started and has not freed (`MPI_Request` handles carry its index in the world's
//! [`super::slab::Slab`]: [`crate::abi::own_request`]).

use super::generalized::Generalized;
use super::mailbox::{Buffer, Outcome, Selector};
use super::partitioned::Partitioned;
use std::os::raw::c_int;
use std::sync::Arc;

/// How a send completes (MPI-4.1 §3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `MPI_Send`: the library keeps a copy, so it completes at once.
    Standard,
    /// `MPI_Bsend`: the copy is counted against the buffer the program attached.
    Buffered,
    /// `MPI_Ssend`: completes when a receive has matched the message.
    Synchronous,
    /// `MPI_Rsend`: its receive must be posted already.
    Ready,
}

impl Mode {
    /// The mode of the send function `name` (`MPI_Ssend`, `MPI_Ibsend_c`, `MPI_Rsend_init`,
    /// ...).
    pub fn of(name: &str) -> Mode {
        let stem = name.trim_start_matches("MPI_").trim_start_matches('I');
        match stem.as_bytes() {
            [b'S' | b's', b's', ..] => Mode::Synchronous,
            [b'B' | b'b', ..] => Mode::Buffered,
            [b'R' | b'r', ..] => Mode::Ready,
            _ => Mode::Standard,
        }
    }
}

/// What an operation does: a send's data and destination, or a receive's buffer and source.
#[derive(Clone)]
pub enum Operation {
    /// A send in `mode` of `buffer` to rank `dest` (0 or `MPI_PROC_NULL`) with `tag`.
    Send {
        /// The data.
        buffer: Buffer,
        /// How it completes.
        mode: Mode,
        /// Where to: 0 or `MPI_PROC_NULL`.
        dest: c_int,
        /// The communicator and tag.
        selector: Selector,
    },
    /// A receive into `buffer` from `source` (0, `MPI_ANY_SOURCE` or `MPI_PROC_NULL`).
    Receive {
        /// Where the data go.
        buffer: Buffer,
        /// From whom.
        source: c_int,
        /// The communicator and tag.
        selector: Selector,
    },
    /// A receive of a message `MPI_Mprobe` matched: complete when it starts.
    Matched,
    /// A persistent collective (`MPI_Allreduce_init`, ...): each start runs it (it waits for
    /// no other process) and returns its error code, raised already.
    Collective(Arc<dyn Fn() -> c_int + Send + Sync>),
    /// A generalized request (`MPI_Grequest_start`): complete when the program says so.
    Generalized(Arc<Generalized>),
    /// A partitioned send or receive (`MPI_Psend_init`, `MPI_Precv_init`).
    Partitioned(Arc<Partitioned>),
}

/// Where an operation stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Progress {
    /// A persistent request not started, or completed and reported.
    Inactive,
    /// Started, not complete.
    Active,
    /// Complete, not reported yet.
    Done(Outcome),
}

/// One request.
pub struct Request {
    /// The function that made it, for messages.
    pub made_by: &'static str,
    /// What it does.
    pub operation: Operation,
    /// Persistent (`MPI_Send_init`, ...): inactive again after its completion is reported.
    pub persistent: bool,
    /// Where it stands.
    pub progress: Progress,
    /// The program freed its handle while the operation ran: the request goes when it
    /// completes.
    pub freed: bool,
}

impl Request {
    /// The callbacks of a generalized request.
    pub fn generalized(&self) -> Option<Arc<Generalized>> {
        match &self.operation {
            Operation::Generalized(generalized) => Some(Arc::clone(generalized)),
            _ => None,
        }
    }

    /// What the request does, in words, for the error of a call that would wait forever.
    pub fn describe(&self) -> String {
        let made_by = self.made_by;
        match &self.operation {
            Operation::Send { selector, .. } => format!(
                "the synchronous send started by {made_by} (tag {}) is received by no posted receive",
                selector.tag
            ),
            Operation::Receive { selector, .. } => format!(
                "the receive started by {made_by} (tag {}) has no matching message",
                selector.tag
            ),
            Operation::Matched => format!("the receive started by {made_by}"),
            Operation::Collective(_) => format!("the collective started by {made_by}"),
            Operation::Generalized(_) => format!(
                "the generalized request started by {made_by} is not completed by MPI_Grequest_complete"
            ),
            Operation::Partitioned(side) if side.sending => format!(
                "the partitioned send started by {made_by} has partitions not marked ready by MPI_Pready"
            ),
            Operation::Partitioned(_) => format!(
                "the partitioned receive started by {made_by} waits for partitions no started \
                 partitioned send has marked ready"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_modes_follow_the_function_name() {
        for (name, mode) in [
            ("MPI_Send", Mode::Standard),
            ("MPI_Isend_c", Mode::Standard),
            ("MPI_Send_init", Mode::Standard),
            ("MPI_Ssend", Mode::Synchronous),
            ("MPI_Issend", Mode::Synchronous),
            ("MPI_Ssend_init_c", Mode::Synchronous),
            ("MPI_Bsend", Mode::Buffered),
            ("MPI_Ibsend", Mode::Buffered),
            ("MPI_Rsend_init", Mode::Ready),
            ("MPI_Irsend_c", Mode::Ready),
        ] {
            assert_eq!(Mode::of(name), mode, "{name}");
        }
    }
}
