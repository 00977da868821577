//! The probes: `MPI_Probe`, `MPI_Iprobe`, and the matched probes `MPI_Mprobe` and
//! `MPI_Improbe`, whose message `MPI_Mrecv` receives. In drop-in mode they are the MPI
//! behind's (no data move, so the engine has no part in them).

use super::serial;
use crate::abi::{MPI_Comm, MPI_Message, MPI_Status};
use crate::ffi::exported;
use std::os::raw::c_int;

exported! {
    /// Blocks until a message from `source` with `tag` can be received, and describes it in
    /// `status`.
    fn MPI_Probe(source: c_int, tag: c_int, comm: MPI_Comm, status: *mut MPI_Status) with flag = None;
    /// Sets `flag` if a message from `source` with `tag` can be received, and then describes it
    /// in `status`.
    fn MPI_Iprobe(source: c_int, tag: c_int, comm: MPI_Comm, flag: *mut c_int, status: *mut MPI_Status) with flag = Some(flag);
    // SAFETY: the program's flag and status.
    standalone => unsafe { serial::probe(FUNCTION, (source, tag, comm), flag, status) }
}

exported! {
    /// Blocks until a message from `source` with `tag` can be received, matches it (no other
    /// receive can take it) and returns it in `message`, for `MPI_Mrecv`.
    fn MPI_Mprobe(source: c_int, tag: c_int, comm: MPI_Comm, message: *mut MPI_Message, status: *mut MPI_Status) with flag = None;
    /// Sets `flag` if a message from `source` with `tag` can be received, and then matches it
    /// and returns it in `message`, for `MPI_Mrecv`.
    fn MPI_Improbe(source: c_int, tag: c_int, comm: MPI_Comm, flag: *mut c_int, message: *mut MPI_Message, status: *mut MPI_Status) with flag = Some(flag);
    // SAFETY: the program's flag, message and status.
    standalone => unsafe { serial::match_probe(FUNCTION, (source, tag, comm), flag, message, status) }
}
