//! The requests of messages the engine packs, and what is left to do when each completes.
//!
//! A nonblocking send or receive on the engine's path gives the program the MPI behind's own
//! request, for a message of bytes in a pooled buffer. This table remembers, per request,
//! that buffer and the work left: nothing for a send (the buffer goes back to the pool), the
//! unpacking of the bytes received for a receive, the packing of the program's buffer at each
//! start for a persistent send.
//!
//! Completion calls take their requests' entries out of the table *before* they call the MPI
//! behind (whose completion may free a request number that another thread's new request then
//! reuses) and put back those that did not complete. A request the program frees while its
//! operation still runs is *detached*: kept here, with its buffer, until a later call finds
//! it complete ([`progress_detached`]) or `MPI_Finalize` waits for it ([`drain_detached`]).
//! [`outstanding`] counts both kinds, which `MPI_Finalize` reports with `MPI_DTYPE_DEBUG=1`.

use super::memory::Memory;
use super::node_local::held::Envelope;
use super::node_local::{self, Delivered, Overflow, Watch};
use super::pool::Buffer;
use crate::abi::p2p::{MPI_Request, MPI_REQUEST_NULL};
use crate::abi::MPI_Status;
use crate::behind::forward;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::os::raw::c_int;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where a landing buffer's blocks go: each block's copies in the program's memory, and the
/// offset of its bytes in the buffer.
pub type Landing = (Buffer, Vec<(Memory, usize)>);

/// Packing a persistent collective does again at each start: the program's copies `memory`
/// packed to the address `at`, in a buffer the collective keeps.
pub struct Refill {
    /// The program's copies.
    pub memory: Memory,
    /// Where their bytes go, as an integer.
    pub at: usize,
}

impl Refill {
    /// Packs the program's copies.
    ///
    /// # Safety
    /// The copies are readable, and the buffer they go to is still kept.
    pub unsafe fn pack(&self) {
        // SAFETY: the caller's contract; `at` is in a buffer of the collective.
        unsafe {
            self.memory
                .pack_to(std::ptr::with_exposed_provenance_mut(self.at))
        }
    }
}

/// The buffers and blocks of one collective call.
#[derive(Default)]
pub struct Collective {
    /// The buffers its sending sides packed.
    pub(super) sent: Vec<Buffer>,
    /// The landing buffer of its receiving side, and where its blocks go.
    pub(super) landing: Option<Landing>,
    /// The arrays it gave the MPI behind.
    pub(super) arrays: Vec<Box<dyn std::any::Any + Send>>,
    /// For a persistent collective, the packing each start does first.
    pub(super) refills: Vec<Refill>,
}

impl Collective {
    /// Unpacks every block of the landing buffer into the program's memory.
    ///
    /// # Safety
    /// The MPI behind delivered every block, and each block's memory is writable.
    pub unsafe fn unpack(&self) {
        let Some((buffer, blocks)) = &self.landing else {
            return;
        };
        for (memory, offset) in blocks {
            // SAFETY: the caller's contract; each block's bytes lie within the buffer.
            unsafe { memory.unpack_whole(buffer.as_mut_ptr().add(*offset)) };
        }
    }
}

/// What is left to do for a request.
pub enum Work {
    /// A send: the buffer goes back to the pool when it completes.
    Send,
    /// A persistent send: each start packs the program's memory into the buffer first.
    PersistentSend(Memory),
    /// A receive: its completion unpacks the bytes received into the program's memory.
    Receive(Memory),
    /// A nonblocking collective: its completion unpacks the blocks that landed.
    Collective(Collective),
    /// A receive into the program's memory that looks at what it got (the entry's watch).
    Watched,
    /// Nothing: the operation completed and its data are in place, but the request is still
    /// the program's (`MPI_Request_get_status` said it is complete); with what a message
    /// through a ring delivered, for the status of the call that completes it.
    Done(Option<Delivered>),
}

/// One request of the engine's path.
pub struct Pending {
    /// The pooled buffer the message travels in.
    pub buffer: Option<Buffer>,
    /// What its completion does.
    pub work: Work,
    /// A persistent request, which stays after completion until it is freed.
    pub persistent: bool,
    /// Started and not yet completed (a persistent request between `MPI_Start` and its
    /// completion; always true for the others until they complete).
    pub active: bool,
    /// For a receive that may get a header of a message through a ring, what it looks at.
    pub watch: Option<Watch>,
    /// For a receive of a matched message that stands for a probed one, the probed one's
    /// envelope, which its status reports ([`node_local::held`]).
    pub envelope: Option<Envelope>,
    /// For the send of an `MPI_Isendrecv` whose receive was made when it started (of a
    /// message a probe held), that receive's status, which its completion reports, and the
    /// bytes the send reads.
    pub early: Option<(MPI_Status, Option<Vec<u8>>)>,
}

impl Pending {
    /// The entry of a nonblocking send or receive, active from now.
    pub fn started(buffer: Buffer, work: Work) -> Pending {
        Pending {
            buffer: Some(buffer),
            work,
            persistent: false,
            active: true,
            watch: None,
            envelope: None,
            early: None,
        }
    }

    /// The entry of a nonblocking collective, active from now.
    pub fn collective(collective: Collective) -> Pending {
        Pending {
            buffer: None,
            work: Work::Collective(collective),
            persistent: false,
            active: true,
            watch: None,
            envelope: None,
            early: None,
        }
    }

    /// The entry of a persistent collective, inactive until started.
    pub fn persistent_collective(collective: Collective) -> Pending {
        Pending {
            buffer: None,
            work: Work::Collective(collective),
            persistent: true,
            active: false,
            watch: None,
            envelope: None,
            early: None,
        }
    }

    /// The entry of a persistent request, inactive until started.
    pub fn persistent(buffer: Buffer, work: Work) -> Pending {
        Pending {
            buffer: Some(buffer),
            work,
            persistent: true,
            active: false,
            watch: None,
            envelope: None,
            early: None,
        }
    }

    /// Prepares a start of the request: packs a persistent send's data; marks it active.
    ///
    /// # Safety
    /// A persistent send's memory is readable, as for the call that created it.
    pub unsafe fn start(&mut self) {
        match (&self.work, &self.buffer) {
            // SAFETY: the caller's contract; the buffer was sized for the message.
            (Work::PersistentSend(memory), Some(buffer)) => unsafe { memory.pack_into(buffer) },
            (Work::Collective(collective), _) => {
                for refill in &collective.refills {
                    // SAFETY: the caller's contract; the collective keeps the buffers.
                    unsafe { refill.pack() };
                }
            }
            _ => {}
        }
        self.active = true;
    }

    /// The same entry, looking at what its receive gets with `watch`, and reporting
    /// `envelope` in its status.
    pub fn watching(self, watch: Option<Watch>, envelope: Option<Envelope>) -> Pending {
        Pending {
            watch,
            envelope,
            ..self
        }
    }

    /// The same entry, reporting `received` when it completes and keeping `bytes` until then
    /// ([`Pending::early`]).
    pub fn received_early(self, received: MPI_Status, bytes: Option<Vec<u8>>) -> Pending {
        Pending {
            early: Some((received, bytes)),
            ..self
        }
    }

    /// The entry of a receive into the program's memory that only looks at what it gets
    /// (persistent or not), or reports another envelope.
    pub fn watched(persistent: bool) -> Pending {
        Pending {
            buffer: None,
            work: Work::Watched,
            persistent,
            active: !persistent,
            watch: None,
            envelope: None,
            early: None,
        }
    }

    /// Finishes the operation the MPI behind reported complete with `status` (`delivered`:
    /// with data to take; `truncated`: with `MPI_ERR_TRUNCATE`): a receive that
    /// got a header takes the message from the sender's ring (and its status the message's
    /// count); else unpacks what a receive got (unless it was cancelled or failed); and gives
    /// back what the request kept unless it stays (persistent requests, and `keep` for a
    /// request the program still holds). Returns the entry to put back, if any, and the
    /// message that did not fit, if one did not.
    ///
    /// # Safety
    /// A receive's memory is writable, as for the call that created it.
    pub unsafe fn complete(
        mut self,
        status: &mut MPI_Status,
        (delivered, truncated): (bool, bool),
        keep: bool,
    ) -> (Option<Pending>, Option<Overflow>) {
        let mut through_ring = None;
        if self.active && (delivered || truncated) {
            if let Some(watch) = &self.watch {
                let landed = match (&self.work, &self.buffer) {
                    (Work::Receive(_), Some(buffer)) => Some(buffer),
                    _ => None,
                };
                // SAFETY: the caller's contract; the landing buffer holds what arrived.
                through_ring = unsafe { node_local::deliver(watch, landed, status, truncated) };
            }
            match (&self.work, &self.buffer) {
                _ if through_ring.is_some() || !delivered => {}
                (Work::Receive(memory), Some(buffer)) if !status.cancelled() => {
                    let received = status.count_bytes().max(0) as usize;
                    // SAFETY: the caller's contract; the MPI behind received these bytes.
                    unsafe { memory.unpack_from(buffer, received) };
                }
                // SAFETY: the caller's contract; a collective delivers all its blocks.
                (Work::Collective(collective), _) => unsafe { collective.unpack() },
                _ => {}
            }
        }
        if let Some((received, _)) = self.early.take().filter(|_| self.active) {
            let error = status.MPI_ERROR;
            *status = received;
            status.MPI_ERROR = error;
        }
        if let Some(envelope) = self.envelope.filter(|_| self.active) {
            status.MPI_SOURCE = envelope.source;
            status.MPI_TAG = envelope.tag;
        }
        if let Work::Done(Some(earlier)) = &self.work {
            earlier.into_status(status);
            through_ring = Some(*earlier);
        }
        let overflow = through_ring.and_then(|delivered| delivered.overflow);
        self.active = false;
        if self.persistent {
            return (Some(self), overflow);
        }
        (keep.then(|| Pending::done(through_ring)), overflow)
    }

    /// The entry of a request whose operation is over and whose data are in place.
    fn done(delivered: Option<Delivered>) -> Pending {
        Pending {
            buffer: None,
            work: Work::Done(delivered),
            persistent: false,
            active: false,
            watch: None,
            envelope: None,
            early: None,
        }
    }
}

/// The table, keyed by the MPI behind's request.
static TABLE: Mutex<Option<HashMap<MPI_Request, Pending>>> = Mutex::new(None);
/// Entries in the table plus detached requests: 0 lets calls skip the table.
static ENTRIES: AtomicUsize = AtomicUsize::new(0);
/// Requests the program freed while they were active.
static DETACHED: Mutex<Vec<(MPI_Request, Pending)>> = Mutex::new(Vec::new());

/// Whether any request of the engine's path exists (one load).
#[inline]
pub fn any() -> bool {
    outstanding() != 0
}

/// How many requests of the engine's path are kept: entries of the table and detached
/// requests (0 once the program has completed or freed every request and the detached ones
/// have completed).
#[inline]
pub fn outstanding() -> usize {
    ENTRIES.load(Ordering::Acquire)
}

/// Remembers `pending` for the MPI behind's `request` (also to put back an entry taken for a
/// completion call that stays).
pub fn insert(request: MPI_Request, pending: Pending) {
    let mut table = TABLE.lock();
    if table
        .get_or_insert_with(HashMap::new)
        .insert(request, pending)
        .is_none()
    {
        ENTRIES.fetch_add(1, Ordering::AcqRel);
    }
}

/// Takes the entries of `requests` out of the table (`None` where a request has none).
pub fn take(requests: &[MPI_Request]) -> Vec<Option<Pending>> {
    if !any() {
        return requests.iter().map(|_| None).collect();
    }
    let mut table = TABLE.lock();
    let Some(map) = table.as_mut() else {
        return requests.iter().map(|_| None).collect();
    };
    requests
        .iter()
        .map(|request| {
            let taken = (*request != MPI_REQUEST_NULL)
                .then(|| map.remove(request))
                .flatten();
            if taken.is_some() {
                ENTRIES.fetch_sub(1, Ordering::AcqRel);
            }
            taken
        })
        .collect()
}

/// Starts the persistent requests among `requests` that have entries (see
/// [`Pending::start`]).
///
/// # Safety
/// As for [`Pending::start`].
pub unsafe fn start(requests: &[MPI_Request]) {
    if !any() {
        return;
    }
    let mut table = TABLE.lock();
    let Some(map) = table.as_mut() else { return };
    for request in requests {
        if let Some(pending) = map.get_mut(request) {
            // SAFETY: the caller's contract.
            unsafe { pending.start() };
        }
    }
}

/// Keeps an active request the program freed until its operation completes.
pub fn detach(request: MPI_Request, pending: Pending) {
    DETACHED.lock().push((request, pending));
    ENTRIES.fetch_add(1, Ordering::AcqRel);
}

/// Completes the detached requests whose operations have completed (`MPI_Test` on each),
/// freeing what they kept. Called at the start of the communication calls.
#[inline]
pub fn progress_detached() {
    if any() {
        progress_detached_now();
    }
}

/// [`progress_detached`] once some request of the engine's path exists.
#[inline(never)]
fn progress_detached_now() {
    let Some(mut detached) = DETACHED.try_lock() else {
        return; // another thread is at it
    };
    detached.retain_mut(|(request, pending)| !finish_detached(request, pending, false));
}

/// Waits for every detached request (before `MPI_Finalize`).
pub fn drain_detached() {
    let mut detached = DETACHED.lock();
    for (mut request, mut pending) in detached.drain(..) {
        finish_detached(&mut request, &mut pending, true);
    }
}

/// Tests (or, with `wait`, waits for) a detached request; when complete, finishes it and
/// frees the MPI behind's request if persistent. Returns whether it completed.
fn finish_detached(request: &mut MPI_Request, pending: &mut Pending, wait: bool) -> bool {
    // SAFETY: MPI_Status is plain integers.
    let mut status: MPI_Status = unsafe { std::mem::zeroed() };
    let mut flag: c_int = 1;
    let rc = match wait {
        true => {
            forward!(MPI_Wait: fn(*mut MPI_Request, *mut MPI_Status) -> c_int, request, &mut status)
        }
        false => forward!(
            MPI_Test: fn(*mut MPI_Request, *mut c_int, *mut MPI_Status) -> c_int,
            request,
            &mut flag,
            &mut status
        ),
    };
    let completed = rc.is_some() && flag != 0;
    if !completed {
        return false;
    }
    let delivered = rc.is_some_and(super::delivered);
    let truncated = rc.is_some_and(|rc| {
        rc != crate::abi::MPI_SUCCESS && super::class_of(rc) == crate::abi::MPI_ERR_TRUNCATE
    });
    let taken = std::mem::replace(pending, Pending::done(None));
    let how = (delivered, truncated);
    // SAFETY: the program's memory of a receive stays valid until the operation completes
    // (MPI-4.1 §3.7.3: freeing an active request does not end the operation). A message
    // that did not fit is not reported: the program gave the request up.
    let persistent = unsafe { taken.complete(&mut status, how, false) }
        .0
        .is_some();
    if persistent {
        forward!(MPI_Request_free: fn(*mut MPI_Request) -> c_int, request);
    }
    ENTRIES.fetch_sub(1, Ordering::AcqRel);
    true
}
