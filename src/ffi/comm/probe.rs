//! The probes: `MPI_Probe`, `MPI_Iprobe`, and the matched probes `MPI_Mprobe` and
//! `MPI_Improbe`, whose message `MPI_Mrecv` receives. In drop-in mode they are the MPI
//! behind's (no data move, so the engine has no part in them), except where messages of
//! derived types go through rings in shared memory: there a probe reports a message's size,
//! not its header's ([`crate::dropin::comm::node_local::held`]).

use super::serial;
use crate::abi::{MPI_Comm, MPI_Message, MPI_Status};
use crate::dropin::comm::node_local::held;
use crate::ffi::exported;
use std::os::raw::c_int;

exported! {
    /// Blocks until a message from `source` with `tag` can be received, and describes it in
    /// `status`.
    fn MPI_Probe(source: c_int, tag: c_int, comm: MPI_Comm, status: *mut MPI_Status);
    => match super::standalone() {
        // SAFETY: the program's status.
        true => unsafe { serial::probe(FUNCTION, (source, tag, comm), None, status) },
        // SAFETY: the program's status.
        false => unsafe { held::probe((source, tag, comm), None, status) }
            .or_else(|| behind_call(source, tag, comm, status))
            .unwrap_or_else(|| super::missing_behind(FUNCTION)),
    }
}

exported! {
    /// Sets `flag` if a message from `source` with `tag` can be received, and then describes it
    /// in `status`.
    fn MPI_Iprobe(source: c_int, tag: c_int, comm: MPI_Comm, flag: *mut c_int, status: *mut MPI_Status);
    => match super::standalone() {
        // SAFETY: the program's flag and status.
        true => unsafe { serial::probe(FUNCTION, (source, tag, comm), Some(flag), status) },
        // SAFETY: the program's flag and status.
        false => unsafe { held::probe((source, tag, comm), Some(flag), status) }
            .or_else(|| behind_call(source, tag, comm, flag, status))
            .unwrap_or_else(|| super::missing_behind(FUNCTION)),
    }
}

exported! {
    /// Blocks until a message from `source` with `tag` can be received, matches it (no other
    /// receive can take it) and returns it in `message`, for `MPI_Mrecv`.
    fn MPI_Mprobe(source: c_int, tag: c_int, comm: MPI_Comm, message: *mut MPI_Message, status: *mut MPI_Status);
    => match super::standalone() {
        // SAFETY: the program's message and status.
        true => unsafe { serial::match_probe(FUNCTION, (source, tag, comm), None, message, status) },
        // SAFETY: the program's message and status.
        false => unsafe { held::match_probe((source, tag, comm), None, message, status) }
            .or_else(|| behind_call(source, tag, comm, message, status))
            .unwrap_or_else(|| super::missing_behind(FUNCTION)),
    }
}

exported! {
    /// Sets `flag` if a message from `source` with `tag` can be received, and then matches it
    /// and returns it in `message`, for `MPI_Mrecv`.
    fn MPI_Improbe(source: c_int, tag: c_int, comm: MPI_Comm, flag: *mut c_int, message: *mut MPI_Message, status: *mut MPI_Status);
    => match super::standalone() {
        // SAFETY: the program's flag, message and status.
        true => unsafe { serial::match_probe(FUNCTION, (source, tag, comm), Some(flag), message, status) },
        // SAFETY: the program's flag, message and status.
        false => unsafe { held::match_probe((source, tag, comm), Some(flag), message, status) }
            .or_else(|| behind_call(source, tag, comm, flag, message, status))
            .unwrap_or_else(|| super::missing_behind(FUNCTION)),
    }
}
