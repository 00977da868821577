//! The probes: `MPI_Probe`, `MPI_Iprobe`, and the matched probes `MPI_Mprobe` and
//! `MPI_Improbe`, whose message `MPI_Mrecv` receives. In drop-in mode they are the MPI
//! behind's (no data move, so the engine has no part in them).

use super::{missing_behind, serial, standalone};
use crate::abi::{MPI_Comm, MPI_Message, MPI_Status};
use crate::behind::forward;
use crate::ffi::export;
use std::os::raw::c_int;

/// Blocks until a message from `source` with `tag` can be received, and describes it in
/// `status`.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Probe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    export("MPI_Probe", || {
        if standalone() {
            // SAFETY: the program's status.
            return unsafe { serial::probe("MPI_Probe", (source, tag, comm), None, status) };
        }
        forward!(MPI_Probe: fn(c_int, c_int, MPI_Comm, *mut MPI_Status) -> c_int,
            source, tag, comm, status)
        .unwrap_or_else(|| missing_behind("MPI_Probe"))
    })
}

/// Sets `flag` if a message from `source` with `tag` can be received, and then describes it
/// in `status`.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Iprobe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    export("MPI_Iprobe", || {
        if standalone() {
            // SAFETY: the program's flag and status.
            return unsafe { serial::probe("MPI_Iprobe", (source, tag, comm), Some(flag), status) };
        }
        forward!(MPI_Iprobe: fn(c_int, c_int, MPI_Comm, *mut c_int, *mut MPI_Status) -> c_int,
            source, tag, comm, flag, status)
        .unwrap_or_else(|| missing_behind("MPI_Iprobe"))
    })
}

/// Blocks until a message from `source` with `tag` can be received, matches it (no other
/// receive can take it) and returns it in `message`, for `MPI_Mrecv`.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Mprobe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> c_int {
    export("MPI_Mprobe", || {
        if standalone() {
            let envelope = (source, tag, comm);
            // SAFETY: the program's message and status.
            return unsafe { serial::match_probe("MPI_Mprobe", envelope, None, message, status) };
        }
        forward!(MPI_Mprobe: fn(c_int, c_int, MPI_Comm, *mut MPI_Message, *mut MPI_Status) -> c_int,
            source, tag, comm, message, status)
        .unwrap_or_else(|| missing_behind("MPI_Mprobe"))
    })
}

/// Sets `flag` if a message from `source` with `tag` can be received, and then matches it
/// and returns it in `message`, for `MPI_Mrecv`.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Improbe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    flag: *mut c_int,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> c_int {
    export("MPI_Improbe", || {
        if standalone() {
            let (envelope, flag) = ((source, tag, comm), Some(flag));
            // SAFETY: the program's flag, message and status.
            return unsafe { serial::match_probe("MPI_Improbe", envelope, flag, message, status) };
        }
        forward!(MPI_Improbe: fn(c_int, c_int, MPI_Comm, *mut c_int, *mut MPI_Message,
            *mut MPI_Status) -> c_int, source, tag, comm, flag, message, status)
        .unwrap_or_else(|| missing_behind("MPI_Improbe"))
    })
}
