//! The send side of a message through a ring ([`super`]): a slot reserved, the header sent on
//! the program's envelope in the program's mode, the message packed into the slot chunk by
//! chunk.

use super::header::{Header, HEADER_BYTES, HEADER_USED};
use super::{own_ring, CHUNK, SMALLEST};
use crate::abi::p2p::{MPI_Request, MPI_PROC_NULL};
use crate::abi::{MPI_Comm, MPI_Datatype, MPI_BYTE, MPI_SUCCESS};
use crate::behind::forward;
use crate::dropin::comm::memory::Memory;
use crate::dropin::comm::pool::Buffer;
use std::ffi::c_void;
use std::os::raw::c_int;

/// The mode of a send, from its function's name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum SendMode {
    Standard,
    Synchronous,
    Ready,
    Buffered,
}

impl SendMode {
    fn of(function: &str) -> SendMode {
        let name = function.trim_start_matches("MPI_").to_ascii_lowercase();
        let base = name.strip_prefix('i').unwrap_or(&name);
        match base.get(..5) {
            Some("ssend") => SendMode::Synchronous,
            Some("rsend") => SendMode::Ready,
            Some("bsend") => SendMode::Buffered,
            _ => SendMode::Standard,
        }
    }
}

/// A send through a ring that was made: the call's answer, and the buffer of its header, to
/// keep until a nonblocking send's request completes.
pub struct Sent {
    /// The answer.
    pub rc: c_int,
    /// The header's buffer, where the header was sent.
    pub header: Option<Buffer>,
}

/// Sends `count` copies of `datatype` at `buffer` to `dest` with `tag` on `comm` through this
/// process's ring, if the message may go so: the answer of the call (`function`, a send; with
/// `request`, a nonblocking one), or `None` where the message goes as before.
///
/// # Safety
/// The type map relative to `buffer` is readable; a non-NULL `request` is writable.
#[inline]
pub unsafe fn send(
    function: &'static str,
    (buffer, count, datatype): (*const c_void, i64, MPI_Datatype),
    (dest, tag, comm): (c_int, c_int, MPI_Comm),
    request: Option<*mut MPI_Request>,
) -> Option<Sent> {
    if !super::enabled()
        || dest == MPI_PROC_NULL
        || count <= 0
        || !crate::dropin::comm::route::may_pack(datatype)
    {
        return None;
    }
    let message = (buffer, count, datatype);
    // SAFETY: the caller's contract.
    unsafe { send_through_ring(function, message, (dest, tag, comm), request) }
}

/// [`send`] of a message of one of this library's derived types.
///
/// # Safety
/// As for [`send`].
#[inline(never)]
unsafe fn send_through_ring(
    function: &'static str,
    (buffer, count, handle): (*const c_void, i64, MPI_Datatype),
    (dest, tag, comm): (c_int, c_int, MPI_Comm),
    request: Option<*mut MPI_Request>,
) -> Option<Sent> {
    let datatype = crate::dropin::comm::route::packable(handle)?;
    let bytes = datatype.size().checked_mul(count)?;
    if bytes < SMALLEST || request.is_some_and(|r| r.is_null()) {
        return None;
    }
    let ring = own_ring()?;
    if bytes as u64 > ring.largest() || !crate::dropin::comm::world::within_world(comm) {
        return None;
    }
    let header_buffer = Buffer::take(HEADER_BYTES)?;
    let reserved = ring.reserve(bytes as u64)?;
    let header = Header {
        pid: std::process::id(),
        place: reserved.place(),
    };
    // SAFETY: the pooled buffer holds HEADER_BYTES bytes.
    unsafe {
        let at = header_buffer.as_mut_ptr();
        std::ptr::write_bytes(at, 0, HEADER_BYTES);
        std::ptr::copy_nonoverlapping(header.encode().as_ptr(), at, HEADER_USED);
    }
    let sent = (
        header_buffer.as_mut_ptr().cast_const().cast(),
        HEADER_BYTES as c_int,
    );
    let mode = SendMode::of(function);
    let rc = match request {
        None => send_header(mode, sent, (dest, tag, comm)),
        Some(request) => start_header(mode, sent, (dest, tag, comm), request),
    };
    if rc != Some(MPI_SUCCESS) {
        reserved.abandon();
        return rc.map(|rc| Sent { rc, header: None });
    }
    let memory = Memory {
        address: buffer.expose_provenance(),
        datatype,
        count,
    };
    let data = reserved.data();
    let mut start = 0u64;
    while start < bytes as u64 {
        let len = CHUNK.min(bytes as u64 - start);
        // SAFETY: the slot holds the message's bytes; the caller's contract for the
        // program's memory.
        unsafe {
            let out = std::slice::from_raw_parts_mut(data.add(start as usize), len as usize);
            memory.pack_range(start as i64, out);
        }
        start += len;
        reserved.filled(start);
    }
    Some(Sent {
        rc: MPI_SUCCESS,
        header: Some(header_buffer),
    })
}

/// Sends the header (a blocking send in `mode`).
fn send_header(
    mode: SendMode,
    (buffer, count): (*const c_void, c_int),
    (dest, tag, comm): (c_int, c_int, MPI_Comm),
) -> Option<c_int> {
    macro_rules! send {
        ($name:ident) => {
            forward!($name: fn(*const c_void, c_int, MPI_Datatype, c_int, c_int, MPI_Comm) -> c_int,
                buffer, count, MPI_BYTE, dest, tag, comm)
        };
    }
    match mode {
        SendMode::Standard => send!(MPI_Send),
        SendMode::Synchronous => send!(MPI_Ssend),
        SendMode::Ready => send!(MPI_Rsend),
        SendMode::Buffered => send!(MPI_Bsend),
    }
}

/// Starts sending the header (a nonblocking send in `mode`), its request in `request`.
fn start_header(
    mode: SendMode,
    (buffer, count): (*const c_void, c_int),
    (dest, tag, comm): (c_int, c_int, MPI_Comm),
    request: *mut MPI_Request,
) -> Option<c_int> {
    macro_rules! start {
        ($name:ident) => {
            forward!($name: fn(*const c_void, c_int, MPI_Datatype, c_int, c_int, MPI_Comm,
                *mut MPI_Request) -> c_int, buffer, count, MPI_BYTE, dest, tag, comm, request)
        };
    }
    match mode {
        SendMode::Standard => start!(MPI_Isend),
        SendMode::Synchronous => start!(MPI_Issend),
        SendMode::Ready => start!(MPI_Irsend),
        SendMode::Buffered => start!(MPI_Ibsend),
    }
}

#[cfg(test)]
mod tests {
    use super::SendMode;

    #[test]
    fn send_modes_follow_the_functions_names() {
        let cases = [
            ("MPI_Send", SendMode::Standard),
            ("MPI_Isend_c", SendMode::Standard),
            ("MPI_Ssend", SendMode::Synchronous),
            ("MPI_Issend", SendMode::Synchronous),
            ("MPI_Rsend_c", SendMode::Ready),
            ("MPI_Irsend", SendMode::Ready),
            ("MPI_Bsend", SendMode::Buffered),
            ("MPI_Ibsend_c", SendMode::Buffered),
        ];
        for (name, mode) in cases {
            assert_eq!(SendMode::of(name), mode, "{name}");
        }
    }
}
