//! Messages between processes of one node through shared memory (`MPI_DTYPE_TRANSPORT=shm`):
//! the sender packs a message of a derived type into its own ring ([`ring`]) while the
//! receiver unpacks what is there, so that packing, moving and unpacking overlap as in Open
//! MPI's shared-memory transport, instead of one following the other.
//!
//! Only where every process of `MPI_COMM_WORLD` runs this library on this node, as its
//! markers showed at `MPI_Init` ([`super::peers::all_on_this_node`]), and only on
//! communicators of that world ([`super::world::within_world`]): every receiver then looks
//! at what it receives. A send of a derived type of at least [`SMALLEST`] bytes that the ring
//! has room for goes so:
//!
//! 1. a slot of the ring is reserved;
//! 2. a header ([`header`]) is sent on the program's envelope, in the program's mode
//!    (standard, synchronous, ready or buffered), blocking or not as the call is, so MPI's
//!    matching and ordering decide which receive takes it, and a synchronous send completes
//!    when that receive has started;
//! 3. the sender packs the message into the slot in chunks of [`CHUNK`] bytes, saying after
//!    each how far it got. It never waits for the receiver: the call then returns (a
//!    nonblocking one with the header's request).
//!
//! Every receive with room for the part of a header that names its slot ([`watch`]), of any
//! datatype, predefined too, looks
//! at what arrived when it completes ([`deliver`]): a header sends it to the sender's ring,
//! where it unpacks each chunk into the program's memory as it appears, releases the slot,
//! and sets the status's count to the message's bytes. A message larger than the receive
//! fills what fits and reports `MPI_ERR_TRUNCATE` ([`Overflow`]).
//!
//! The probes report such a message's size, not its header's ([`held`]).
//!
//! Not yet looked at: a persistent receive started after a probe held the message it would
//! match.

pub mod header;
pub mod held;
pub mod ring;

use super::memory::Memory;
use super::pool::Buffer;
use super::settings::{transport, Transport};
use crate::abi::p2p::{MPI_Request, MPI_PROC_NULL};
use crate::abi::{MPI_Comm, MPI_Datatype, MPI_Status, MPI_BYTE, MPI_ERR_TRUNCATE, MPI_SUCCESS};
use crate::behind::forward;
use header::{Header, HEADER_BYTES, HEADER_USED};
use parking_lot::Mutex;
use ring::{Peer, Ring};
use std::collections::HashMap;
use std::ffi::c_void;
use std::os::raw::c_int;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// Messages of fewer packed bytes go as before: their header and its matching would cost
/// more than the overlap saves.
pub const SMALLEST: i64 = 8192;

/// The bytes of a process's ring; larger messages go as before.
const RING_BYTES: u64 = 4 << 20;

/// The bytes the sender packs before it says they are there.
const CHUNK: u64 = 16 << 10;

/// Where the rings are: the node's shared memory.
const DIRECTORY: &str = "/dev/shm";

/// Whether messages go through rings in this process: `MPI_DTYPE_TRANSPORT=shm`, and every
/// process of the world runs this library on this node.
#[inline]
pub fn enabled() -> bool {
    transport() == Transport::Shm && super::peers::all_on_this_node()
}

/// The file of the ring of process `pid` of this job.
fn ring_path(job: &str, pid: u32) -> PathBuf {
    PathBuf::from(DIRECTORY).join(format!("{}{job}.{pid}", super::peers::RING_NAME))
}

/// This process's ring, made at its first message (`None` where it cannot be made: messages
/// then go as before). With `MPI_DTYPE_DEBUG=1` its making is said on stderr.
fn own_ring() -> Option<&'static Ring> {
    static RING: OnceLock<Option<(Ring, PathBuf)>> = OnceLock::new();
    let made = RING.get_or_init(|| {
        let path = ring_path(&super::peers::job_name()?, std::process::id());
        let ring = Ring::create(&path, RING_BYTES).ok()?;
        *MADE.lock() = Some(path.clone());
        if crate::behind::debug() {
            crate::diagnostic::line(format_args!(
                "mpi-dtype: messages of derived types from {SMALLEST} to {} bytes go to this node's processes through {}",
                ring.largest(),
                path.display()
            ));
        }
        // SAFETY: registers a function of no arguments that only removes a file.
        unsafe { libc::atexit(withdraw_at_exit) };
        Some((ring, path))
    });
    made.as_ref().map(|(ring, _)| ring)
}

/// The file of this process's ring, while it stands.
static MADE: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Removes this process's ring file (when `MPI_Finalize` has returned, or at exit): the
/// processes that mapped it keep their mapping.
pub fn withdraw() {
    if let Some(path) = MADE.lock().take() {
        let _ = std::fs::remove_file(path);
    }
}

/// [`withdraw`] at the process's exit.
extern "C" fn withdraw_at_exit() {
    withdraw();
}

/// The ring of process `pid` of this job, mapped at its first message here.
fn peer(pid: u32) -> Option<Arc<Peer>> {
    static PEERS: Mutex<Option<HashMap<u32, Arc<Peer>>>> = Mutex::new(None);
    let mut peers = PEERS.lock();
    let peers = peers.get_or_insert_with(HashMap::new);
    if let Some(found) = peers.get(&pid) {
        return Some(found.clone());
    }
    let opened = Arc::new(Peer::open(&ring_path(&super::peers::job_name()?, pid)).ok()?);
    peers.insert(pid, opened.clone());
    Some(opened)
}

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
    if !enabled() || dest == MPI_PROC_NULL || count <= 0 || !super::route::may_pack(datatype) {
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
    let datatype = super::route::packable(handle)?;
    let bytes = datatype.size().checked_mul(count)?;
    if bytes < SMALLEST || request.is_some_and(|r| r.is_null()) {
        return None;
    }
    let ring = own_ring()?;
    if bytes as u64 > ring.largest() || !super::world::within_world(comm) {
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
    if !enabled() || source == MPI_PROC_NULL || count <= 0 {
        return None;
    }
    let datatype = super::route::packable(datatype)?;
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
