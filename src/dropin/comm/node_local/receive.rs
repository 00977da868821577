//! The receive side of a message through a ring ([`super`]): what a receive looks at when it
//! completes, and the message it then takes from the sender's ring.

use super::header::{Header, HEADER_BYTES, HEADER_USED};
use super::peer;
use crate::abi::p2p::MPI_PROC_NULL;
use crate::abi::{MPI_Comm, MPI_Datatype, MPI_Status, MPI_ERR_TRUNCATE};
use crate::behind::forward;
use crate::dropin::comm::memory::Memory;
use crate::dropin::comm::pool::Buffer;
use std::ffi::c_void;
use std::os::raw::c_int;

/// A receive that looks at what it got: the program's memory, and the communicator a
/// truncation is reported on.
#[derive(Clone)]
pub struct Watch {
    memory: Memory,
    comm: MPI_Comm,
}

/// The receive of `count` copies of `datatype` at `buffer` from `source` on `comm`, to look
/// at when it completes, if a header (or the part of one that names its slot, where it
/// truncates a message) may arrive in it, and messages go through rings.
pub fn watch(
    (buffer, count, datatype): (*mut c_void, i64, MPI_Datatype),
    source: c_int,
    comm: MPI_Comm,
) -> Option<Watch> {
    if !super::enabled() || source == MPI_PROC_NULL || count <= 0 {
        return None;
    }
    let datatype = crate::dropin::comm::route::packable(datatype)?;
    let room = datatype.size().checked_mul(count)?;
    (room >= HEADER_USED as i64).then(|| Watch {
        memory: Memory {
            address: buffer.expose_provenance(),
            datatype,
            count,
        },
        comm,
    })
}

/// A message larger than the receive it arrived in.
#[derive(Clone, Copy, Debug)]
pub struct Overflow {
    /// The communicator of the receive.
    pub comm: MPI_Comm,
    /// The message's bytes.
    pub sent: u64,
    /// The receive's room.
    pub room: u64,
}

impl Overflow {
    /// A new error code of class `MPI_ERR_TRUNCATE` for this message, of `function`.
    pub fn code(&self, function: &str) -> c_int {
        let message = format!(
            "a message of {} bytes arrived in a receive with room for {}",
            self.sent, self.room
        );
        crate::dropin::codes::code_for(MPI_ERR_TRUNCATE, function, &message)
            .unwrap_or(MPI_ERR_TRUNCATE)
    }

    /// Raises `code` on the receive's communicator (whose error handler the MPI behind
    /// calls); `code`.
    pub fn raise(&self, code: c_int) -> c_int {
        forward!(PMPI_Comm_call_errhandler: fn(MPI_Comm, c_int) -> c_int, self.comm, code);
        code
    }
}

/// What a receive that got a header delivered.
#[derive(Clone, Copy, Debug)]
pub struct Delivered {
    /// The bytes now in the program's memory.
    pub bytes: u64,
    /// Where the message did not fit.
    pub overflow: Option<Overflow>,
}

impl Delivered {
    /// Writes the byte count into `status`.
    pub fn into_status(&self, status: &mut MPI_Status) {
        status.set_count_bytes(self.bytes as crate::abi::MPI_Count);
    }
}

/// Looks at what a receive got (`status`, from a call that delivered it): when it is a
/// header, copies the message from the sender's ring into the program's memory, chunk by
/// chunk as the sender fills it, and sets the status's count. `landed`: where the bytes
/// arrived, if not in the program's memory (a receive the engine unpacks). A receive with
/// less room than a header that the MPI behind reports `truncated` may hold the header's
/// first bytes, whatever count its status gives: where they name a live slot
/// ([`HEADER_USED`]), the message's bytes that fit replace them.
///
/// # Safety
/// The program's memory is writable (and readable) for the receive's type map; `landed`, if
/// any, holds the bytes the status counts.
pub unsafe fn deliver(
    watch: &Watch,
    landed: Option<&Buffer>,
    status: &mut MPI_Status,
    truncated: bool,
) -> Option<Delivered> {
    let whole = !truncated && status.count_bytes() == HEADER_BYTES as crate::abi::MPI_Count;
    if !(whole || truncated) || status.cancelled() {
        return None;
    }
    let mut start = [0u8; HEADER_USED];
    match landed {
        // SAFETY: the caller's contract: the landing buffer holds the bytes received.
        Some(buffer) => unsafe {
            buffer.close_hole();
            start.copy_from_slice(buffer.filled(HEADER_USED))
        },
        // SAFETY: the caller's contract; at least the header's used bytes arrived.
        None => unsafe { watch.memory.pack_range(0, &mut start) },
    }
    let header = Header::decode(&start)?;
    let peer = peer(header.pid)?;
    let slot = peer.slot(header.place)?;
    let room = (watch.memory.datatype.size() * watch.memory.count) as u64;
    let sent = header.place.bytes;
    slot.drain(room, |at, chunk| {
        // SAFETY: the caller's contract; the chunk lies within the receive's room.
        unsafe { watch.memory.unpack_range(at as i64, chunk) }
    });
    let delivered = Delivered {
        bytes: sent.min(room),
        overflow: (sent > room).then_some(Overflow {
            comm: watch.comm,
            sent,
            room,
        }),
    };
    delivered.into_status(status);
    Some(delivered)
}
