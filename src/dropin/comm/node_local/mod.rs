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
//! datatype, predefined too, looks at what arrived when it completes ([`deliver`]): a header
//! sends it to the sender's ring,
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
pub mod receive;
pub mod ring;
pub mod send;

pub use receive::{deliver, watch, Delivered, Overflow, Watch};
pub use send::{send, Sent};

use super::settings::{transport, Transport};
use parking_lot::Mutex;
use ring::{Peer, Ring};
use std::collections::HashMap;
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
