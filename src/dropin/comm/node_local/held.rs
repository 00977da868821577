//! What the probes report where messages go through rings ([`super`]), and the messages they
//! took out of MPI's matching to look at.
//!
//! A probe sees a message through a ring as its header: [`HEADER_BYTES`] bytes. So where a
//! probe (`MPI_Probe`, `MPI_Iprobe`, `MPI_Mprobe`, `MPI_Improbe`) finds a message of exactly
//! that size on a communicator of this world, it matches it (`MPI_Improbe`) and receives it
//! to look at it, then sends the same bytes to this process on a communicator of its own and
//! matches them there (`MPI_Mprobe`): that matched message stands for the probed one. Its
//! count is the message's (a header's names it), and its envelope (source, tag,
//! communicator) is kept for it ([`take_minted`]), so that the receive that takes it reports
//! the probed message's.
//!
//! `MPI_Probe` and `MPI_Iprobe` leave the message to a later receive: it is *held*, in the
//! order held. Every later receive from the same communicator looks at the held messages
//! first ([`take`]): a held message was the first from its source that MPI had for the probe,
//! so every other from that source came after it. A receive posted before the probe cannot
//! take a held message: MPI would have given it that message first. `MPI_Mprobe` and
//! `MPI_Improbe` return the message that stands for the probed one to the program, which
//! receives it with `MPI_Mrecv` or `MPI_Imrecv`.
//!
//! `MPI_Isendrecv` and `MPI_Isendrecv_replace` of a held message receive it at once and
//! start their send; the send's completion reports the receive's status. A persistent receive
//! started after a probe held its message does not look at the held messages.

use super::header::{Header, HEADER_BYTES, HEADER_USED};
use crate::abi::p2p::{MPI_Message, MPI_Request, MPI_MESSAGE_NULL};
use crate::abi::{
    MPI_Comm, MPI_Datatype, MPI_Status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_BYTE, MPI_COMM_NULL,
    MPI_COMM_SELF, MPI_STATUS_IGNORE, MPI_SUCCESS,
};
use crate::behind::forward;
use parking_lot::Mutex;
use std::collections::{HashMap, VecDeque};
use std::os::raw::c_int;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Where a probed message came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// Its source, a rank of its communicator.
    pub source: c_int,
    /// Its tag.
    pub tag: c_int,
    /// Its communicator.
    pub comm: MPI_Comm,
}

/// A message a probe took out of MPI's matching.
struct Held {
    envelope: Envelope,
    /// The byte count to report: the message's.
    bytes: u64,
    /// The matched message that stands for it.
    message: MPI_Message,
}

/// The held messages, oldest first.
static QUEUE: Mutex<VecDeque<Held>> = Mutex::new(VecDeque::new());
/// How many are held: 0 lets receives skip the queue.
static QUEUED: AtomicUsize = AtomicUsize::new(0);
/// The matched messages made here, with the envelopes of the messages they stand for.
static MINTED: Mutex<Option<HashMap<MPI_Message, Envelope>>> = Mutex::new(None);
/// How many there are: 0 lets matched receives skip the table.
static MINTS: AtomicUsize = AtomicUsize::new(0);

impl Held {
    fn matches(&self, (source, tag, comm): (c_int, c_int, MPI_Comm)) -> bool {
        let held = self.envelope;
        held.comm == comm
            && (source == MPI_ANY_SOURCE || source == held.source)
            && (tag == MPI_ANY_TAG || tag == held.tag)
    }

    /// The status a probe of this message reports.
    fn status(&self) -> MPI_Status {
        status_of(self.envelope, self.bytes)
    }
}

/// A status of a message from `envelope` of `bytes` bytes.
fn status_of(envelope: Envelope, bytes: u64) -> MPI_Status {
    let mut status = super::super::empty_status();
    status.MPI_SOURCE = envelope.source;
    status.MPI_TAG = envelope.tag;
    status.MPI_ERROR = MPI_SUCCESS;
    status.set_count_bytes(bytes as crate::abi::MPI_Count);
    status
}

/// Takes the first held message a receive from `source` with `tag` on `comm` matches: the
/// matched message to receive instead (its envelope is kept for it, [`take_minted`]).
#[inline]
pub fn take(source: c_int, tag: c_int, comm: MPI_Comm) -> Option<MPI_Message> {
    if QUEUED.load(Ordering::Acquire) == 0 {
        return None;
    }
    take_held((source, tag, comm)).map(|held| held.message)
}

/// [`take`] once some message is held.
#[inline(never)]
fn take_held(wanted: (c_int, c_int, MPI_Comm)) -> Option<Held> {
    let mut queue = QUEUE.lock();
    let at = queue.iter().position(|held| held.matches(wanted))?;
    QUEUED.fetch_sub(1, Ordering::AcqRel);
    queue.remove(at)
}

/// Whether a message is held that a receive from `source` with `tag` on `comm` matches.
#[inline]
pub fn holds(source: c_int, tag: c_int, comm: MPI_Comm) -> bool {
    first_status((source, tag, comm)).is_some()
}

/// The status a probe reports of the first held message a receive of `wanted` (source, tag,
/// communicator) matches, left held (no lock where nothing is held).
fn first_status(wanted: (c_int, c_int, MPI_Comm)) -> Option<MPI_Status> {
    if QUEUED.load(Ordering::Acquire) == 0 {
        return None;
    }
    let queue = QUEUE.lock();
    queue
        .iter()
        .find(|held| held.matches(wanted))
        .map(Held::status)
}

/// The envelope of the probed message that the matched message `message` stands for, if this
/// library made it; forgotten here (a matched message is received once).
#[inline]
pub fn take_minted(message: MPI_Message) -> Option<Envelope> {
    if MINTS.load(Ordering::Acquire) == 0 {
        return None;
    }
    let found = MINTED.lock().as_mut()?.remove(&message);
    if found.is_some() {
        MINTS.fetch_sub(1, Ordering::AcqRel);
    }
    found
}

/// Writes `found` to the program's `status` (unless it is `MPI_STATUS_IGNORE`).
///
/// # Safety
/// A `status` that is not `MPI_STATUS_IGNORE` is writable.
unsafe fn report(status: *mut MPI_Status, found: &MPI_Status) {
    if status != MPI_STATUS_IGNORE && !status.is_null() {
        // SAFETY: the caller's contract.
        unsafe { status.write(*found) };
    }
}

/// Sets the program's `flag` (of a nonblocking probe) to `value`.
///
/// # Safety
/// A `flag` given is writable.
unsafe fn set_flag(flag: Option<*mut c_int>, value: c_int) {
    if let Some(flag) = flag.filter(|f| !f.is_null()) {
        // SAFETY: the caller's contract.
        unsafe { flag.write(value) };
    }
}

/// `MPI_Probe` (`flag` none) or `MPI_Iprobe` of a message from `source` with `tag` on `comm`
/// where messages go through rings: the held messages first, then the MPI behind's probe,
/// whose message of a header's size is held and looked at. `None` where messages do not go
/// through rings (the MPI behind's probe answers).
///
/// # Safety
/// As for the MPI function: `flag` and `status` are the program's.
pub unsafe fn probe(
    (source, tag, comm): (c_int, c_int, MPI_Comm),
    flag: Option<*mut c_int>,
    status: *mut MPI_Status,
) -> Option<c_int> {
    if !super::enabled() {
        return None;
    }
    loop {
        if let Some(found) = first_status((source, tag, comm)) {
            // SAFETY: the caller's contract.
            unsafe { report(status, &found) };
            // SAFETY: the caller's contract.
            unsafe { set_flag(flag, 1) };
            return Some(MPI_SUCCESS);
        }
        let mut found = super::super::empty_status();
        let mut there: c_int = 1;
        let rc = match flag {
            None => {
                forward!(MPI_Probe: fn(c_int, c_int, MPI_Comm, *mut MPI_Status) -> c_int,
                    source, tag, comm, &mut found)
            }
            Some(_) => {
                forward!(MPI_Iprobe: fn(c_int, c_int, MPI_Comm, *mut c_int, *mut MPI_Status) -> c_int,
                    source, tag, comm, &mut there, &mut found)
            }
        }?;
        if rc != MPI_SUCCESS || there == 0 {
            // SAFETY: the caller's contract.
            unsafe { set_flag(flag, 0) };
            return Some(rc);
        }
        if !looked_at(&found, comm) {
            // SAFETY: the caller's contract.
            unsafe { report(status, &found) };
            // SAFETY: the caller's contract.
            unsafe { set_flag(flag, 1) };
            return Some(MPI_SUCCESS);
        }
        // Matched and held, the queue answers at the next turn (or, where another thread
        // took the message first, the MPI behind's probe again).
        let envelope = Envelope {
            source: found.MPI_SOURCE,
            tag: found.MPI_TAG,
            comm,
        };
        if let Some(held) = take_out(envelope) {
            QUEUE.lock().push_back(held);
            QUEUED.fetch_add(1, Ordering::AcqRel);
        }
    }
}

/// `MPI_Mprobe` (`flag` none) or `MPI_Improbe` where messages go through rings: a held
/// message first, then the MPI behind's; a message of a header's size is looked at and
/// replaced by one that stands for it. `None` where messages do not go through rings.
///
/// # Safety
/// As for the MPI function: `flag`, `message` and `status` are the program's.
pub unsafe fn match_probe(
    (source, tag, comm): (c_int, c_int, MPI_Comm),
    flag: Option<*mut c_int>,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> Option<c_int> {
    if !super::enabled() || message.is_null() {
        return None;
    }
    if let Some(held) = take_held((source, tag, comm)) {
        // SAFETY: the caller's contract.
        unsafe {
            message.write(held.message);
            report(status, &held.status());
            set_flag(flag, 1);
        }
        return Some(MPI_SUCCESS);
    }
    let mut found = super::super::empty_status();
    let mut matched = MPI_MESSAGE_NULL;
    let mut there: c_int = 1;
    let rc = match flag {
        None => {
            forward!(MPI_Mprobe: fn(c_int, c_int, MPI_Comm, *mut MPI_Message, *mut MPI_Status) -> c_int,
                source, tag, comm, &mut matched, &mut found)
        }
        Some(_) => {
            forward!(MPI_Improbe: fn(c_int, c_int, MPI_Comm, *mut c_int, *mut MPI_Message, *mut MPI_Status) -> c_int,
                source, tag, comm, &mut there, &mut matched, &mut found)
        }
    }?;
    if rc != MPI_SUCCESS || there == 0 {
        // SAFETY: the caller's contract.
        unsafe { set_flag(flag, 0) };
        return Some(rc);
    }
    let envelope = Envelope {
        source: found.MPI_SOURCE,
        tag: found.MPI_TAG,
        comm,
    };
    let answer = match looked_at(&found, comm) {
        true => replace(matched, envelope),
        false => None,
    };
    let (matched, found) = match answer {
        Some(held) => (held.message, held.status()),
        None => (matched, found),
    };
    // SAFETY: the caller's contract.
    unsafe {
        message.write(matched);
        report(status, &found);
        set_flag(flag, 1);
    }
    Some(MPI_SUCCESS)
}

/// Whether a probed message of `status` on `comm` may be a header: exactly its size, on a
/// communicator of this world.
fn looked_at(status: &MPI_Status, comm: MPI_Comm) -> bool {
    status.count_bytes() == HEADER_BYTES as crate::abi::MPI_Count
        && super::super::world::within_world(comm)
}

/// Matches the first message of `envelope` (a probe saw it), receives it to look at it, and
/// makes the matched message that stands for it; `None` where another thread took it first
/// or a call failed.
fn take_out(envelope: Envelope) -> Option<Held> {
    let mut there: c_int = 0;
    let mut matched = MPI_MESSAGE_NULL;
    let mut found = super::super::empty_status();
    let rc = forward!(MPI_Improbe: fn(c_int, c_int, MPI_Comm, *mut c_int, *mut MPI_Message, *mut MPI_Status) -> c_int,
        envelope.source, envelope.tag, envelope.comm, &mut there, &mut matched, &mut found)?;
    if rc != MPI_SUCCESS || there == 0 {
        return None;
    }
    if !looked_at(&found, envelope.comm) {
        // Not the message probed (another thread received that one): this one is held as
        // it is, a message of the MPI behind's matching with its own count.
        return Some(Held {
            envelope,
            bytes: found.count_bytes().max(0) as u64,
            message: matched,
        });
    }
    replace(matched, envelope)
}

/// Receives the matched message `matched` of a header's size from `envelope` to look at it,
/// and makes the matched message that stands for it, with the count of the message a header
/// names.
fn replace(mut matched: MPI_Message, envelope: Envelope) -> Option<Held> {
    let mut bytes = vec![0u8; HEADER_BYTES];
    let mut got = super::super::empty_status();
    let rc = forward!(MPI_Mrecv: fn(*mut u8, c_int, MPI_Datatype, *mut MPI_Message, *mut MPI_Status) -> c_int,
        bytes.as_mut_ptr(), HEADER_BYTES as c_int, MPI_BYTE, &mut matched, &mut got)?;
    if rc != MPI_SUCCESS {
        return None;
    }
    let start: &[u8; HEADER_USED] = bytes[..HEADER_USED].try_into().ok()?;
    let size = Header::decode(start)
        .filter(|header| {
            super::peer(header.pid).is_some_and(|peer| peer.slot(header.place).is_some())
        })
        .map_or(HEADER_BYTES as u64, |header| header.place.bytes);
    let message = mint(bytes)?;
    MINTED
        .lock()
        .get_or_insert_with(HashMap::new)
        .insert(message, envelope);
    MINTS.fetch_add(1, Ordering::AcqRel);
    Some(Held {
        envelope,
        bytes: size,
        message,
    })
}

/// A communicator of this process alone, its own, that the matched messages are made on.
fn own_comm() -> Option<MPI_Comm> {
    static OWN: OnceLock<Option<MPI_Comm>> = OnceLock::new();
    *OWN.get_or_init(|| {
        let mut comm = MPI_COMM_NULL;
        let rc =
            forward!(PMPI_Comm_dup: fn(MPI_Comm, *mut MPI_Comm) -> c_int, MPI_COMM_SELF, &mut comm);
        (rc == Some(MPI_SUCCESS)).then_some(comm)
    })
}

/// The sends of [`mint`] not known to be complete, with the bytes they send: a send to this
/// process may complete only when its message is received.
static MINTING: Mutex<Vec<(MPI_Request, Vec<u8>)>> = Mutex::new(Vec::new());

/// Sends `bytes` to this process on [`own_comm`] and matches them there: a matched message of
/// the MPI behind with those bytes. The send completes when the message is received; until
/// then it is kept, and the earlier ones that completed are let go first.
fn mint(bytes: Vec<u8>) -> Option<MPI_Message> {
    static TAGS: AtomicI32 = AtomicI32::new(0);
    let comm = own_comm()?;
    let mut minting = MINTING.lock();
    minting.retain_mut(|(request, _)| {
        let mut done: c_int = 0;
        let tested = forward!(MPI_Test: fn(*mut MPI_Request, *mut c_int, *mut MPI_Status) -> c_int,
            request, &mut done, MPI_STATUS_IGNORE);
        !(tested == Some(MPI_SUCCESS) && done != 0)
    });
    // Tags from 0 to 32767, which every MPI allows (MPI_TAG_UB is at least that).
    let tag = TAGS.fetch_add(1, Ordering::Relaxed) & 0x7fff;
    let mut request: MPI_Request = crate::abi::p2p::MPI_REQUEST_NULL;
    let sent = forward!(MPI_Isend: fn(*const u8, c_int, MPI_Datatype, c_int, c_int, MPI_Comm, *mut MPI_Request) -> c_int,
        bytes.as_ptr(), bytes.len() as c_int, MPI_BYTE, 0, tag, comm, &mut request)?;
    if sent != MPI_SUCCESS {
        return None;
    }
    minting.push((request, bytes));
    drop(minting);
    let mut matched = MPI_MESSAGE_NULL;
    let probed = forward!(MPI_Mprobe: fn(c_int, c_int, MPI_Comm, *mut MPI_Message, *mut MPI_Status) -> c_int,
        0, tag, comm, &mut matched, MPI_STATUS_IGNORE);
    (probed == Some(MPI_SUCCESS)).then_some(matched)
}
