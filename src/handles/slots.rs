//! The slots of the table: each holds a derived type's entry behind a lock ([`SlotLock`]),
//! with the epoch that marks cached lookups stale and a copy of the type's measures that
//! queries read without the lock (the measures first, then the handle). Slots are made a
//! chunk at a time and never freed; their indices come from a shared allocator, a batch per
//! thread, and freed ones wait in a queue before reuse so that a freed handle stays invalid.

use super::slot_lock::SlotLock;
use super::Entry;
use crate::abi::{self, MPI_Datatype, MPI_DATATYPE_NULL};
use crate::datatype::{Measures, MeasuresPart, ReadMeasures};
use crate::error::{MpiError, MpiResult};
use parking_lot::Mutex;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicI64, AtomicPtr, AtomicU32, AtomicU64, Ordering};

pub(super) const CHUNK: usize = 4096;
const CHUNKS: usize = (1 << abi::SLOT_BITS) / CHUNK;
/// Freed slots are reused only once this many are waiting, so stale handles stay invalid.
const REUSE_AFTER: usize = 4096;

#[derive(Default)]
pub(super) struct Slot {
    pub(super) generation: u32,
    pub(super) entry: Option<Entry>,
}

/// A slot of the table with its epoch and a copy of what the queries ask.
///
/// The epoch moves whenever what a handle of the slot stands for changes (the entry is made,
/// removed or committed, or a twin number that named it names another slot). A thread's
/// cached lookup is valid while the epoch has not moved, so freeing one type never
/// invalidates the caches of others.
///
/// `published` and `measures` are a copy of what the queries ask: the handle the program holds
/// for the slot (its own handle, or in drop-in mode its twin's) and its type's [`Measures`].
/// A writer, which holds the slot's lock, makes the epoch odd and withdraws the handle, then
/// writes the measures, then publishes the new handle and makes the epoch even
/// ([`SlotCell::publish`]); a reader loads the measures it needs and then the handle, and
/// takes them if the handle is its own ([`SlotCell::published_part`]; for a twin's number,
/// which the MPI behind reuses at once, also if the epoch stayed even and unmoved:
/// [`SlotCell::published_part_of_twin`]). Size and bound queries are so answered with a few
/// loads: no lock, no reference count, no thread-local storage.
///
/// The epoch, the published handle and the measures come first and fill one cache line, so
/// that a query reads a single line.
#[derive(Default)]
#[repr(C, align(64))]
pub(super) struct SlotCell {
    pub(super) epoch: AtomicU32,
    pub(super) published: AtomicU64,
    pub(super) measures: PublishedMeasures,
    pub(super) slot: SlotLock<Slot>,
}

/// A type's measures as a slot publishes them: each one an atomic, read one at a time by the
/// queries ([`ReadMeasures`]), so that a query loads only what it reports.
#[derive(Default)]
#[repr(C)]
pub(super) struct PublishedMeasures {
    size: AtomicI64,
    lb: AtomicI64,
    ub: AtomicI64,
    extent: AtomicI64,
    true_lb: AtomicI64,
    true_extent: AtomicI64,
}

impl PublishedMeasures {
    fn store(&self, m: Measures) {
        let store = |field: &AtomicI64, value| field.store(value, Ordering::Relaxed);
        store(&self.size, m.size);
        store(&self.lb, m.lb);
        store(&self.ub, m.ub);
        store(&self.extent, m.extent);
        store(&self.true_lb, m.true_lb);
        store(&self.true_extent, m.true_extent);
    }
}

impl ReadMeasures for PublishedMeasures {
    fn size(&self) -> i64 {
        self.size.load(Ordering::Relaxed)
    }
    fn lb(&self) -> i64 {
        self.lb.load(Ordering::Relaxed)
    }
    fn ub(&self) -> i64 {
        self.ub.load(Ordering::Relaxed)
    }
    fn extent(&self) -> i64 {
        self.extent.load(Ordering::Relaxed)
    }
    fn true_lb(&self) -> i64 {
        self.true_lb.load(Ordering::Relaxed)
    }
    fn true_extent(&self) -> i64 {
        self.true_extent.load(Ordering::Relaxed)
    }
}

impl SlotCell {
    /// Marks every cached lookup of this slot stale. The epoch is written only under the
    /// slot's lock (`_locked` is the locked slot), so by plain stores, not atomic
    /// read-modify-writes.
    pub(super) fn bump(&self, _locked: &mut Slot) {
        let epoch = self.epoch.load(Ordering::Relaxed);
        self.epoch.store(epoch.wrapping_add(2), Ordering::Release);
    }

    /// Publishes the handle the program holds for this slot and its type's measures, or
    /// withdraws them (`None`), and moves the epoch; `_locked` is the slot, locked.
    ///
    /// The epoch is odd while the writer writes, and the handle is withdrawn before any
    /// measure changes, with a release fence after both: a reader that loads any of the new
    /// measures then finds the epoch moved ([`SlotCell::published_part_of_twin`]) and the
    /// handle gone ([`SlotCell::published_part`]).
    pub(super) fn publish(&self, _locked: &mut Slot, published: Option<(MPI_Datatype, Measures)>) {
        let epoch = self.epoch.load(Ordering::Relaxed);
        self.epoch.store(epoch.wrapping_add(1), Ordering::Relaxed);
        let withdrawn = abi::handle_bits(MPI_DATATYPE_NULL);
        self.published.store(withdrawn, Ordering::Relaxed);
        std::sync::atomic::fence(Ordering::Release);
        let (handle, m) = published.unwrap_or((MPI_DATATYPE_NULL, Measures::default()));
        self.measures.store(m);
        self.published
            .store(abi::handle_bits(handle), Ordering::Release);
        self.epoch.store(epoch.wrapping_add(2), Ordering::Release);
    }

    /// `part` of the measures published for `handle`, one of this library's own handles, if it
    /// is the handle published.
    ///
    /// The measure is loaded first and the handle after it, with an acquire fence between,
    /// which pairs with the release fence of [`SlotCell::publish`]: if the measure came from a
    /// later writer, the handle loaded is that writer's withdrawal or what it published
    /// after. That is never `handle` again until the slot's generation wraps around, after
    /// [`REUSE_AFTER`] frees times its number of generations (in `crate::abi`), which is when
    /// a stale copy of the handle names the slot's new type anyway. And a handle the program
    /// holds was published before the program could hold it, so the measure is never older
    /// than its type's.
    #[inline(always)]
    pub(super) fn published_part<P: MeasuresPart>(
        &self,
        handle: MPI_Datatype,
        part: P,
    ) -> Option<P::Value> {
        let value = part.of(&self.measures);
        std::sync::atomic::fence(Ordering::Acquire);
        let published = self.published.load(Ordering::Relaxed);
        (published == abi::handle_bits(handle)).then_some(value)
    }

    /// [`SlotCell::published_part`] for a twin's number (drop-in mode), which the MPI behind
    /// may hand out again as soon as the twin is freed, so the next type of this slot may
    /// publish the same number: the slot's epoch is read before and after too (a sequence
    /// lock), and a writer that ran meanwhile moved it.
    #[inline(always)]
    pub(super) fn published_part_of_twin<P: MeasuresPart>(
        &self,
        handle: MPI_Datatype,
        part: P,
    ) -> Option<P::Value> {
        let before = self.epoch.load(Ordering::Acquire);
        let value = self.published_part(handle, part)?;
        let after = self.epoch.load(Ordering::Relaxed);
        (before & 1 == 0 && before == after).then_some(value)
    }
}

/// The slots not in use: those never used yet (from `next_fresh` on) and the freed ones, in
/// the order they were freed.
struct Allocator {
    next_fresh: usize,
    freed: VecDeque<usize>,
}

impl Allocator {
    /// Up to `wanted` slot indices for new entries, put in `taken` (empty) so that the
    /// lowest comes out of it first: a freed one once more than [`REUSE_AFTER`] wait (the
    /// oldest first), else a fresh one; fewer (or none) when every slot is taken.
    fn take(&mut self, wanted: usize, taken: &mut Vec<usize>) {
        while taken.len() < wanted {
            let index = if self.freed.len() > REUSE_AFTER || self.next_fresh >= CHUNKS * CHUNK {
                self.freed.pop_front()
            } else {
                self.next_fresh += 1;
                Some(self.next_fresh - 1)
            };
            match index {
                Some(index) => taken.push(index),
                None => break,
            }
        }
        // Popped from the end: the lowest index goes first.
        taken.reverse();
    }
}

/// How many slot indices a thread takes from the shared allocator, or gives back to it, at
/// once.
const SLOT_BATCH: usize = 32;

/// The slot indices a thread holds between visits to the shared allocator: taken for its next
/// inserts, and freed by its removals (they wait for reuse in the shared queue like any
/// other, only later). A thread that ends gives both back.
#[derive(Default)]
struct LocalSlots {
    ready: Vec<usize>,
    freed: Vec<usize>,
}

impl Drop for LocalSlots {
    fn drop(&mut self) {
        let mut allocator = ALLOCATOR.lock();
        allocator.freed.extend(self.freed.drain(..));
        // Never used: their handles were never given out, so they may go back at once.
        allocator.freed.extend(self.ready.drain(..));
    }
}

thread_local! {
    static LOCAL_SLOTS: RefCell<LocalSlots> = const {
        RefCell::new(LocalSlots { ready: Vec::new(), freed: Vec::new() })
    };
}

/// A chunk of slots.
type Chunk = [SlotCell; CHUNK];

/// The slots, made a chunk at a time and never freed; a chunk has a fixed length, so that
/// `index % CHUNK` needs no bounds check. Each entry is a plain pointer (null until its chunk
/// is made), so that a query finds a slot with one load and no initialisation check.
static CHUNK_TABLE: [AtomicPtr<Chunk>; CHUNKS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; CHUNKS];
static ALLOCATOR: Mutex<Allocator> = Mutex::new(Allocator {
    next_fresh: 1,
    freed: VecDeque::new(),
});

/// The chunk of slots number `number`, if it was made.
#[inline(always)]
pub(super) fn chunk(number: usize) -> Option<&'static Chunk> {
    let pointer = CHUNK_TABLE.get(number)?.load(Ordering::Acquire);
    // SAFETY: a non-null entry points to a chunk made by `make_chunk` and never freed.
    unsafe { pointer.as_ref() }
}

/// The slot cell `index`, its chunk made if it was not.
#[inline]
pub(super) fn cell(index: usize) -> &'static SlotCell {
    let number = index / CHUNK;
    let chunk = chunk(number).unwrap_or_else(|| make_chunk(number));
    &chunk[index % CHUNK]
}

/// Makes the chunk of slots number `number` (or takes the one another thread made meanwhile).
#[cold]
#[inline(never)]
fn make_chunk(number: usize) -> &'static Chunk {
    let made: Box<[SlotCell]> = std::iter::repeat_with(SlotCell::default)
        .take(CHUNK)
        .collect();
    let made = Box::into_raw(made) as *mut Chunk;
    let null = std::ptr::null_mut();
    match CHUNK_TABLE[number].compare_exchange(null, made, Ordering::AcqRel, Ordering::Acquire) {
        // SAFETY: just made, and from now on never freed.
        Ok(_) => unsafe { &*made },
        Err(theirs) => {
            // SAFETY: `made` came from `Box::into_raw` and was not published.
            drop(unsafe { Box::from_raw(made) });
            // SAFETY: published by another thread, never freed.
            unsafe { &*theirs }
        }
    }
}

pub(super) fn handle_of(index: usize, generation: u32) -> MPI_Datatype {
    abi::own_handle(index, generation)
}

/// The slot index and generation one of this library's handles names, if it has that form.
#[inline(always)]
pub(super) fn decode(handle: MPI_Datatype) -> Option<(usize, u32)> {
    abi::own_parts(handle)
}

/// A slot index for a new entry: from this thread's batch, refilled from the shared allocator
/// a batch at a time ([`LocalSlots`]), so that most inserts take no shared lock.
pub(super) fn allocate() -> MpiResult<usize> {
    let local = LOCAL_SLOTS.try_with(|local| {
        let mut local = local.try_borrow_mut().ok()?;
        if local.ready.is_empty() {
            ALLOCATOR.lock().take(SLOT_BATCH, &mut local.ready);
        }
        local.ready.pop()
    });
    match local {
        Ok(Some(index)) => Some(index),
        // This thread's batch is gone (it is exiting) or in use further up the stack.
        _ => {
            let mut one = Vec::with_capacity(1);
            ALLOCATOR.lock().take(1, &mut one);
            one.pop()
        }
    }
    .ok_or_else(|| MpiError::new(crate::abi::MPI_ERR_NO_MEM, "too many datatypes are alive"))
}

/// Gives the slot index of a removed entry back: to this thread's batch of freed slots, which
/// goes to the shared allocator's queue when it is full.
pub(super) fn release(index: usize) {
    let kept = LOCAL_SLOTS.try_with(|local| {
        let Ok(mut local) = local.try_borrow_mut() else {
            return false;
        };
        local.freed.push(index);
        if local.freed.len() >= SLOT_BATCH {
            // Drained, not taken: the batch keeps its capacity for the next frees.
            ALLOCATOR.lock().freed.extend(local.freed.drain(..));
        }
        true
    });
    if kept != Ok(true) {
        ALLOCATOR.lock().freed.push_back(index);
    }
}

/// The slot cell a slot handle names, if it has the derived form.
pub(super) fn cell_of(slot_handle: MPI_Datatype) -> Option<&'static SlotCell> {
    decode(slot_handle).map(|(index, _)| cell(index))
}
