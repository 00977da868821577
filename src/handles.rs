//! The handle table: maps datatype handles to shared datatype objects. It is a table and
//! nothing more: it never calls the MPI library behind this one; the drop-in layer
//! ([`crate::dropin`]) decides whose a handle is and makes the twins it records here.
//!
//! Predefined handles resolve through a read-only table, the common ones by a direct index
//! ([`abi::predefined_index`]). Derived handles have the form of the ABI's own handles
//! ([`abi::own_handle`]: a slot and a generation); each slot's generation changes when the slot
//! is reused, and freed slots wait in a queue before reuse, so a freed handle is reported as
//! invalid rather than aliasing a new type.
//!
//! In drop-in mode the program holds, instead, the handle of each type's twin in the MPI
//! library behind: a map from those numbers to slots resolves them ([`is_twin`]).
//!
//! Lookups lock only the slot they read (a reader lock), so threads working on different
//! types never contend. Size and bound queries read a copy of the type's measures published in
//! its slot under a sequence lock ([`measures_at_once`]); the pack path keeps the types each
//! thread used last ([`with_type`]), valid while their slot's epoch has not moved: no lock, no
//! reference count, no write to shared memory.

use crate::abi::{self, MPI_Datatype, MPI_DATATYPE_NULL};
use crate::datatype::{
    construct, predefined, Combiner, Datatype, F90Class, Measures, MeasuresPart, ReadMeasures,
};
use crate::error::{MpiError, MpiResult};
use parking_lot::{Mutex, RwLock};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicPtr, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Once, OnceLock};

const CHUNK: usize = 4096;
const CHUNKS: usize = (1 << abi::SLOT_BITS) / CHUNK;
/// Freed slots are reused only once this many are waiting, so stale handles stay invalid.
const REUSE_AFTER: usize = 4096;

/// Per-handle state: the datatype object and what belongs to the handle, not the type map.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The datatype object (shared with the types built from it).
    pub datatype: Arc<Datatype>,
    /// True once `MPI_Type_commit` was called on this handle.
    pub committed: bool,
    /// The name set with `MPI_Type_set_name` (empty for a new derived type).
    pub name: String,
    /// Cached attributes: `(keyval, value)`.
    pub attributes: Vec<(i32, usize)>,
    /// The handle of its twin in the MPI library behind, which is the handle the program
    /// holds (drop-in mode only).
    pub twin: Option<MPI_Datatype>,
}

/// A hash for handle numbers: one multiplication (handles are distinct small integers, and
/// the map is read on every call with a handle of the MPI behind).
#[derive(Default)]
struct HandleHasher(u64);

impl std::hash::Hasher for HandleHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_i32(&mut self, value: i32) {
        self.0 = (value as u32 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_usize(&mut self, value: usize) {
        self.0 = (value as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A map keyed by handle numbers.
type HandleMap<V> = HashMap<MPI_Datatype, V, std::hash::BuildHasherDefault<HandleHasher>>;

/// The slot handle of each twin handle the program holds. Changed only through
/// [`map_twin`] and [`unmap_twin`], which keep [`TWIN_COUNTS`].
static TWINS: LazyLock<RwLock<HandleMap<MPI_Datatype>>> = LazyLock::new(Default::default);

/// How many of the twin handles in [`TWINS`] fall in each entry of [`TWIN_SLOTS`]
/// ([`twin_way`]): a handle whose entry counts none is no twin, which is known without the
/// map's lock (the handles of types the MPI behind made itself, in drop-in mode).
static TWIN_COUNTS: [AtomicU32; TWIN_WAYS] = [const { AtomicU32::new(0) }; TWIN_WAYS];

/// Maps the twin handle `twin` to `slot_handle`; the slot handle it mapped to before, if any.
fn map_twin(twin: MPI_Datatype, slot_handle: MPI_Datatype) -> Option<MPI_Datatype> {
    let mut twins = TWINS.write();
    let previous = twins.insert(twin, slot_handle);
    if previous.is_none() {
        TWIN_COUNTS[twin_way(twin)].fetch_add(1, Ordering::Relaxed);
    }
    previous
}

/// Removes the mapping of the twin handle `twin` if it still maps to `slot_handle`.
fn unmap_twin(twin: MPI_Datatype, slot_handle: MPI_Datatype) {
    let mut twins = TWINS.write();
    if twins.get(&twin) == Some(&slot_handle) {
        twins.remove(&twin);
        TWIN_COUNTS[twin_way(twin)].fetch_sub(1, Ordering::Relaxed);
    }
}

/// True if `handle` may be a twin handle: it has the MPI behind's form and some twin handle
/// falls in its entry of [`TWIN_SLOTS`]. No lock, one load.
#[inline]
pub fn may_be_twin(handle: MPI_Datatype) -> bool {
    abi::has_behind_form(handle) && TWIN_COUNTS[twin_way(handle)].load(Ordering::Acquire) != 0
}

/// The slot handle a program's handle stands for (itself unless it is a twin).
fn internal(handle: MPI_Datatype) -> MPI_Datatype {
    if may_be_twin(handle) {
        if let Some(&slot_handle) = TWINS.read().get(&handle) {
            return slot_handle;
        }
    }
    handle
}

/// True if `handle` is the twin handle of one of this library's entries.
pub fn is_twin(handle: MPI_Datatype) -> bool {
    may_be_twin(handle) && TWINS.read().contains_key(&handle)
}

#[derive(Default)]
struct Slot {
    generation: u32,
    entry: Option<Entry>,
}

/// A slot of the table with its epoch and a copy of what the queries ask.
///
/// The epoch moves whenever what a handle of the slot stands for changes (the entry is made,
/// removed or committed, or a twin number that named it names another slot). A thread's
/// cached lookup is valid while the epoch has not moved, so freeing one type never
/// invalidates the caches of others.
///
/// The epoch is also a sequence lock over `published` and `measures`: the handle the program
/// holds for the slot (standalone) and its type's [`Measures`]. A writer, which holds the
/// slot's write lock, makes the epoch odd, writes, and makes it even again; a reader that sees
/// the same even epoch before and after reading has a consistent copy. Size and bound queries
/// are so answered with a few loads: no lock, no reference count, no thread-local storage.
///
/// The epoch, the published handle and the measures come first and fill one cache line, so
/// that a query reads a single line.
#[derive(Default)]
#[repr(C, align(64))]
struct SlotCell {
    epoch: AtomicU32,
    published: AtomicU64,
    measures: PublishedMeasures,
    slot: RwLock<Slot>,
}

/// A type's measures as a slot publishes them: each one an atomic, read one at a time by the
/// queries ([`ReadMeasures`]), so that a query loads only what it reports.
#[derive(Default)]
#[repr(C)]
struct PublishedMeasures {
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
    /// slot's write lock (`_locked` is the locked slot), so by plain stores, not atomic
    /// read-modify-writes.
    fn bump(&self, _locked: &mut Slot) {
        let epoch = self.epoch.load(Ordering::Relaxed);
        self.epoch.store(epoch.wrapping_add(2), Ordering::Release);
    }

    /// Publishes the handle the program holds for this slot and its type's measures, or
    /// withdraws them (`None`); `_locked` is the slot, locked for writing.
    fn publish(&self, _locked: &mut Slot, published: Option<(MPI_Datatype, Measures)>) {
        let epoch = self.epoch.load(Ordering::Relaxed);
        self.epoch.store(epoch.wrapping_add(1), Ordering::Relaxed);
        std::sync::atomic::fence(Ordering::Release);
        let (handle, m) = published.unwrap_or((MPI_DATATYPE_NULL, Measures::default()));
        self.published
            .store(abi::handle_bits(handle), Ordering::Relaxed);
        self.measures.store(m);
        self.epoch.store(epoch.wrapping_add(2), Ordering::Release);
    }

    /// `part` of the measures published for `handle`, if it is the handle published and no
    /// writer changed them meanwhile.
    #[inline(always)]
    fn published_part<P: MeasuresPart>(&self, handle: MPI_Datatype, part: P) -> Option<P::Value> {
        let before = self.epoch.load(Ordering::Acquire);
        let published = self.published.load(Ordering::Relaxed);
        let value = part.of(&self.measures);
        std::sync::atomic::fence(Ordering::Acquire);
        let after = self.epoch.load(Ordering::Relaxed);
        let current = before & 1 == 0 && before == after;
        (current && published == abi::handle_bits(handle)).then_some(value)
    }
}

/// The slots not in use: those never used yet (from `next_fresh` on) and the freed ones, in
/// the order they were freed.
struct Allocator {
    next_fresh: usize,
    freed: VecDeque<usize>,
}

impl Allocator {
    /// Up to `wanted` slot indices for new entries: a freed one once more than
    /// [`REUSE_AFTER`] wait (the oldest first), else a fresh one; fewer (or none) when every
    /// slot is taken.
    fn take(&mut self, wanted: usize) -> Vec<usize> {
        let mut taken = Vec::with_capacity(wanted);
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
        taken
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

/// How many entries [`TWIN_SLOTS`] has.
const TWIN_WAYS: usize = 4096;

/// The slot of a twin handle, by a hash of the handle ([`twin_way`]): where a query looks for
/// the measures published under a twin. An entry may name a slot that publishes another
/// handle (another twin took the entry, or the type was freed); the query then finds no
/// measures there and takes the long way.
static TWIN_SLOTS: [AtomicU32; TWIN_WAYS] = [const { AtomicU32::new(0) }; TWIN_WAYS];

/// The entry of [`TWIN_SLOTS`] for the twin handle `twin`.
#[inline(always)]
fn twin_way(twin: MPI_Datatype) -> usize {
    (abi::handle_bits(twin).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52) as usize % TWIN_WAYS
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

struct PredefinedEntry {
    datatype: Arc<Datatype>,
    state: Mutex<(String, Vec<(i32, usize)>)>,
}

static PREDEFINED: LazyLock<HandleMap<PredefinedEntry>> = LazyLock::new(|| {
    predefined::all()
        .iter()
        .filter_map(|p| {
            let entry = PredefinedEntry {
                datatype: construct::named(p),
                state: Mutex::new((p.name.to_string(), Vec::new())),
            };
            Some((abi::predefined_handle(p)?, entry))
        })
        .collect()
});

/// A predefined type in the table by index: its handle, its measures (read by the queries
/// with no pointer to follow) and its datatype object.
struct Indexed {
    handle: MPI_Datatype,
    measures: Measures,
    entry: &'static PredefinedEntry,
}

/// Predefined types by the low byte of their handle (MPICH's index of the type), for the
/// queries and the pack path; a handle whose low byte another type took first is found in
/// [`PREDEFINED`]. A static array of fixed length, so that reading it is one load at a fixed
/// place (no pointer to follow, no bounds check for MPICH's one-byte index); it is filled
/// once, by the first lookup that misses it ([`fill_predefined_by_index`]).
static PREDEFINED_BY_INDEX: [OnceLock<Indexed>; abi::PREDEFINED_INDEXES] =
    [const { OnceLock::new() }; abi::PREDEFINED_INDEXES];
static PREDEFINED_BY_INDEX_FILLED: Once = Once::new();

/// Fills [`PREDEFINED_BY_INDEX`] from [`PREDEFINED`], once.
fn fill_predefined_by_index() {
    PREDEFINED_BY_INDEX_FILLED.call_once(|| {
        for (&handle, entry) in PREDEFINED.iter() {
            if let Some(index) = abi::predefined_index(handle) {
                let _first_one_kept = PREDEFINED_BY_INDEX[index].set(Indexed {
                    handle,
                    measures: entry.datatype.measures,
                    entry,
                });
            }
        }
    });
}

/// The entry of a predefined handle in the table by index, with no lookup beyond one read.
#[inline(always)]
fn predefined_by_index(handle: MPI_Datatype) -> Option<&'static Indexed> {
    PREDEFINED_BY_INDEX[abi::predefined_index(handle)?]
        .get()
        .filter(|indexed| indexed.handle == handle)
}

/// The chunk of slots number `number`, if it was made.
#[inline(always)]
fn chunk(number: usize) -> Option<&'static Chunk> {
    let pointer = CHUNK_TABLE.get(number)?.load(Ordering::Acquire);
    // SAFETY: a non-null entry points to a chunk made by `cell` and never freed.
    unsafe { pointer.as_ref() }
}

/// The slot cell `index`, its chunk made if it was not.
#[inline]
fn cell(index: usize) -> &'static SlotCell {
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

fn slot(index: usize) -> &'static RwLock<Slot> {
    &cell(index).slot
}

fn handle_of(index: usize, generation: u32) -> MPI_Datatype {
    abi::own_handle(index, generation)
}

/// The slot index and generation one of this library's handles names, if it has that form.
#[inline(always)]
fn decode(handle: MPI_Datatype) -> Option<(usize, u32)> {
    abi::own_parts(handle)
}

fn invalid(handle: MPI_Datatype) -> MpiError {
    if handle == MPI_DATATYPE_NULL {
        MpiError::datatype("the datatype is MPI_DATATYPE_NULL")
    } else {
        MpiError::datatype(format!(
            "{handle:#x} is not a valid datatype handle (never created, or already freed)"
        ))
    }
}

/// True if `handle` is a named predefined datatype (also under the MPI behind's internal
/// number for it, [`predefined_alias`]).
pub fn is_predefined(handle: MPI_Datatype) -> bool {
    predefined_entry(handle).is_some()
}

/// The predefined handle an internal number of the MPI behind stands for, once such numbers
/// are accepted ([`accept_internal_aliases`]).
fn predefined_alias(handle: MPI_Datatype) -> Option<MPI_Datatype> {
    if !ALIASES.load(Ordering::Relaxed) {
        return None;
    }
    let original = abi::internal_alias(handle)?;
    PREDEFINED.contains_key(&original).then_some(original)
}

/// True once the drop-in layer found an MPI library behind this one, whose internal numbers
/// for predefined types ([`abi::internal_alias`]) then name them.
static ALIASES: AtomicBool = AtomicBool::new(false);

/// Makes the MPI behind's internal numbers for predefined types name them (drop-in mode).
pub fn accept_internal_aliases() {
    ALIASES.store(true, Ordering::Relaxed);
}

/// The entry of a predefined handle, or of the MPI behind's internal number for one.
fn predefined_entry(handle: MPI_Datatype) -> Option<&'static PredefinedEntry> {
    if abi::own_parts(handle).is_some() {
        return None; // one of this library's own handles: no map to search
    }
    if let Some(indexed) = predefined_by_index(handle) {
        return Some(indexed.entry);
    }
    fill_predefined_by_index();
    PREDEFINED
        .get(&handle)
        .or_else(|| PREDEFINED.get(&predefined_alias(handle)?))
}

/// The arguments of an `MPI_Type_create_f90_*` call: the type class, `p` and `r`.
pub type F90Key = (F90Class, i32, i32);

/// The handles of the types `MPI_Type_create_f90_*` returned, by their arguments.
static F90_TYPES: LazyLock<Mutex<HashMap<F90Key, MPI_Datatype>>> = LazyLock::new(Default::default);

fn f90_key(datatype: &Datatype) -> Option<F90Key> {
    match datatype.combiner {
        Combiner::F90 {
            class,
            precision,
            range,
            ..
        } => Some((class, precision, range)),
        _ => None,
    }
}

/// The handle `MPI_Type_create_f90_*` returned for `key`, if it was called with it before.
pub fn f90_handle(key: F90Key) -> Option<MPI_Datatype> {
    F90_TYPES.lock().get(&key).copied()
}

/// Records `handle` as the one `MPI_Type_create_f90_*` returns for `key`, unless another
/// thread recorded one first: that one is returned then.
pub fn record_f90(key: F90Key, handle: MPI_Datatype) -> Option<MPI_Datatype> {
    let mut table = F90_TYPES.lock();
    match table.get(&key) {
        Some(&first) => Some(first),
        None => {
            table.insert(key, handle);
            None
        }
    }
}

/// The handles of every type `MPI_Type_create_f90_*` returned, which the table forgets.
pub fn take_f90_handles() -> Vec<MPI_Datatype> {
    F90_TYPES.lock().drain().map(|(_, h)| h).collect()
}

/// True if `handle` is predefined: named, or returned by `MPI_Type_create_f90_*` (the
/// standard calls those predefined too; neither can be freed).
pub fn is_builtin(handle: MPI_Datatype) -> bool {
    is_predefined(handle) || with_entry(handle, |e| f90_key(&e.datatype).is_some()).unwrap_or(false)
}

/// Registers a new derived datatype and returns the handle the program holds: its twin in the
/// MPI behind if it has one (drop-in mode, [`crate::dropin`]), else a handle of this library.
pub fn insert(
    datatype: Arc<Datatype>,
    committed: bool,
    twin: Option<MPI_Datatype>,
) -> MpiResult<MPI_Datatype> {
    let index = allocate()?;
    let cell = cell(index);
    let mut slot = cell.slot.write();
    let slot_handle = handle_of(index, slot.generation);
    // The queries read the cell under the handle the program holds.
    cell.publish(
        &mut slot,
        Some((twin.unwrap_or(slot_handle), datatype.measures)),
    );
    if let Some(twin) = twin {
        TWIN_SLOTS[twin_way(twin)].store(index as u32, Ordering::Release);
    }
    slot.entry = Some(Entry {
        datatype,
        committed,
        name: String::new(),
        attributes: Vec::new(),
        twin,
    });
    drop(slot);
    match twin {
        Some(twin) => {
            let previous = map_twin(twin, slot_handle);
            if let Some(cell) = previous.and_then(cell_of) {
                // The number named a freed type a moment ago: forget it in every cache.
                cell.bump(&mut cell.slot.write());
            }
            Ok(twin)
        }
        None => Ok(slot_handle),
    }
}

/// A slot index for a new entry: from this thread's batch, refilled from the shared allocator
/// a batch at a time ([`LocalSlots`]), so that most inserts take no shared lock.
fn allocate() -> MpiResult<usize> {
    let local = LOCAL_SLOTS.try_with(|local| {
        let mut local = local.try_borrow_mut().ok()?;
        if local.ready.is_empty() {
            local.ready = ALLOCATOR.lock().take(SLOT_BATCH);
        }
        local.ready.pop()
    });
    match local {
        Ok(Some(index)) => Some(index),
        // This thread's batch is gone (it is exiting) or in use further up the stack.
        _ => ALLOCATOR.lock().take(1).pop(),
    }
    .ok_or_else(|| MpiError::new(crate::abi::MPI_ERR_NO_MEM, "too many datatypes are alive"))
}

/// Gives the slot index of a removed entry back: to this thread's batch of freed slots, which
/// goes to the shared allocator's queue when it is full.
fn release(index: usize) {
    let kept = LOCAL_SLOTS.try_with(|local| {
        let Ok(mut local) = local.try_borrow_mut() else {
            return false;
        };
        local.freed.push(index);
        if local.freed.len() >= SLOT_BATCH {
            let freed = std::mem::take(&mut local.freed);
            ALLOCATOR.lock().freed.extend(freed);
        }
        true
    });
    if kept != Ok(true) {
        ALLOCATOR.lock().freed.push_back(index);
    }
}

/// The handle under which `datatype` can be given back to the caller without making a new
/// one: its predefined handle, or the handle `MPI_Type_create_f90_*` returned for it.
pub fn existing_handle(datatype: &Datatype) -> Option<MPI_Datatype> {
    if let Some(p) = datatype.predefined() {
        return abi::predefined_handle(p);
    }
    f90_handle(f90_key(datatype)?)
}

/// The datatype object behind `handle`.
pub fn get(handle: MPI_Datatype) -> MpiResult<Arc<Datatype>> {
    lookup(handle).map(|(datatype, _)| datatype)
}

/// The datatype object behind `handle` and whether the handle is committed.
pub fn lookup(handle: MPI_Datatype) -> MpiResult<(Arc<Datatype>, bool)> {
    match predefined_entry(handle) {
        Some(p) => Ok((p.datatype.clone(), true)),
        None => with_entry(handle, |e| (e.datatype.clone(), e.committed)),
    }
}

/// Marks the handle committed (`MPI_Type_commit`), runs `then` on its datatype object (the
/// plan's compilation) and returns what it returned and the handle's twin: one lock of the
/// slot, which also marks the threads' cached lookups stale. This thread then remembers the
/// committed lookup, so that the type's first pack finds it at once.
pub fn commit<R>(
    handle: MPI_Datatype,
    then: impl FnOnce(&Datatype) -> R,
) -> MpiResult<(R, Option<MPI_Datatype>)> {
    if let Some(p) = predefined_entry(handle) {
        return Ok((then(&p.datatype), None));
    }
    let (index, generation) = decode(internal(handle)).ok_or_else(|| invalid(handle))?;
    let cell = cell(index);
    let mut slot = cell.slot.write();
    let current = slot.generation == generation;
    let (datatype, twin, was_committed) = match &mut slot.entry {
        Some(entry) if current => {
            let was_committed = std::mem::replace(&mut entry.committed, true);
            (entry.datatype.clone(), entry.twin, was_committed)
        }
        _ => return Err(invalid(handle)),
    };
    if !was_committed {
        cell.bump(&mut slot);
    }
    let epoch = cell.epoch.load(Ordering::Relaxed);
    drop(slot);
    let lookup = CachedLookup {
        handle,
        cell,
        epoch,
        datatype,
        committed: true,
    };
    let result = then(&lookup.datatype);
    remember(lookup);
    Ok((result, twin))
}

/// How many lookups each thread keeps (by handle modulo this), so that a thread working with
/// a few types in turn (the faces of a halo exchange) keeps hitting.
const CACHED_TYPES: usize = 4;

/// A lookup a thread made: valid while the slot's epoch is the one seen then.
struct CachedLookup {
    handle: MPI_Datatype,
    cell: &'static SlotCell,
    epoch: u32,
    datatype: Arc<Datatype>,
    committed: bool,
}

thread_local! {
    static RECENT: RefCell<[Option<CachedLookup>; CACHED_TYPES]> =
        const { RefCell::new([const { None }; CACHED_TYPES]) };
}

/// Runs `f` on this thread's cached lookup of `handle` if it is still valid (one load of the
/// slot's epoch: no lock, no write to shared memory), or gives `f` back.
#[inline]
fn with_cached<R, F: FnOnce(&Datatype, bool) -> R>(handle: MPI_Datatype, f: F) -> Result<R, F> {
    let mut f = Some(f);
    let hit = RECENT.try_with(|recent| {
        let recent = recent.try_borrow().ok()?;
        match &recent[abi::handle_bits(handle) as usize % CACHED_TYPES] {
            Some(c) if c.handle == handle && c.cell.epoch.load(Ordering::Acquire) == c.epoch => {
                f.take().map(|f| f(&c.datatype, c.committed))
            }
            _ => None,
        }
    });
    match hit {
        Ok(Some(result)) => Ok(result),
        _ => Err(f.expect("f runs only on a hit")),
    }
}

/// Remembers a lookup in this thread's cache (skipped while the cache is in use further up
/// the stack). The lookup it replaces is dropped after the borrow ends: dropping a type may
/// release a twin, and the MPI behind may then run callbacks that look types up.
fn remember(lookup: CachedLookup) {
    let way = abi::handle_bits(lookup.handle) as usize % CACHED_TYPES;
    let replaced = RECENT
        .try_with(|recent| {
            let mut recent = recent.try_borrow_mut().ok()?;
            recent[way].replace(lookup)
        })
        .ok()
        .flatten();
    drop(replaced);
}

/// True if this thread looked `handle` up recently and what it stands for has not changed
/// since.
pub fn known_recently(handle: MPI_Datatype) -> bool {
    with_cached(handle, |_, _| ()).is_ok()
}

/// The slot cell a slot handle names, if it has the derived form.
fn cell_of(slot_handle: MPI_Datatype) -> Option<&'static SlotCell> {
    decode(slot_handle).map(|(index, _)| cell(index))
}

/// `part` of the measures of the type behind `handle` if they are found with no lock, no
/// reference taken and no thread-local storage: a predefined type's from the table, a derived
/// type's from its slot's published copy (the slot found from the handle, or for a twin from
/// [`TWIN_SLOTS`]). A handle found so is this library's, never one of the MPI behind.
#[inline(always)]
pub fn measures_at_once<P: MeasuresPart>(handle: MPI_Datatype, part: P) -> Option<P::Value> {
    if let Some(indexed) = predefined_by_index(handle) {
        return Some(part.of(&indexed.measures));
    }
    let index = match decode(handle) {
        Some((index, _)) => index,
        None if abi::has_behind_form(handle) => {
            TWIN_SLOTS[twin_way(handle)].load(Ordering::Acquire) as usize
        }
        None => return None,
    };
    chunk(index / CHUNK)?[index % CHUNK].published_part(handle, part)
}

/// `part` of the measures of the type behind `handle` from this thread's cache (a twin's, in
/// drop-in mode, which [`measures_at_once`] does not find).
pub fn cached_measures<P: MeasuresPart>(handle: MPI_Datatype, part: P) -> Option<P::Value> {
    with_cached(handle, |datatype, _| part.of(&datatype.measures)).ok()
}

/// Runs `f` on the datatype behind `handle` and whether the handle is committed if that takes
/// no more than a table read (a predefined type) or a valid entry of this thread's cache (no
/// lock, no reference count, no write to shared memory); gives `f` back otherwise. A handle
/// found so is this library's, never one of the MPI behind.
#[inline]
fn with_type_at_once<R, F: FnOnce(&Datatype, bool) -> R>(
    handle: MPI_Datatype,
    f: F,
) -> Result<R, F> {
    match predefined_by_index(handle) {
        Some(indexed) => Ok(f(&indexed.entry.datatype, true)),
        None => with_cached(handle, f),
    }
}

/// Runs `f` on the datatype behind `handle` and whether the handle is committed: the lookup
/// of the queries and the pack path. A predefined type is one table read; a derived type this
/// thread looked up recently costs one load of its slot's epoch (no lock, no reference count,
/// no write to shared memory); otherwise the slot is read once and the lookup remembered.
pub fn with_type<R>(handle: MPI_Datatype, f: impl FnOnce(&Datatype, bool) -> R) -> MpiResult<R> {
    let f = match with_type_at_once(handle, f) {
        Ok(result) => return Ok(result),
        Err(f) => f,
    };
    if let Some(p) = predefined_entry(handle) {
        return Ok(f(&p.datatype, true));
    }
    let (index, generation) = decode(internal(handle)).ok_or_else(|| invalid(handle))?;
    let cell = cell(index);
    let lookup = {
        let slot = cell.slot.read();
        match &slot.entry {
            Some(entry) if slot.generation == generation => CachedLookup {
                handle,
                cell,
                epoch: cell.epoch.load(Ordering::Acquire),
                datatype: entry.datatype.clone(),
                committed: entry.committed,
            },
            _ => return Err(invalid(handle)),
        }
    };
    let result = f(&lookup.datatype, lookup.committed);
    remember(lookup);
    Ok(result)
}

/// Takes the lookup of `handle` out of this thread's cache: a freed handle's type is then
/// dropped with its entry, by the free, not kept alive until another lookup replaces it.
fn forget_cached(handle: MPI_Datatype) -> Option<CachedLookup> {
    let way = abi::handle_bits(handle) as usize % CACHED_TYPES;
    RECENT
        .try_with(|recent| {
            let mut recent = recent.try_borrow_mut().ok()?;
            match &recent[way] {
                Some(lookup) if lookup.handle == handle => recent[way].take(),
                _ => None,
            }
        })
        .ok()
        .flatten()
}

/// Empties this thread's cache of lookups (the types it kept alive).
pub fn forget_thread_cache() {
    let recent =
        RECENT.try_with(|recent| recent.try_borrow_mut().map(|mut r| std::mem::take(&mut *r)));
    drop(recent);
}

/// Runs `f` on the datatype behind `handle`, which must be committed: the lookup of the pack
/// path ([`with_type`]).
pub fn with_committed<R>(handle: MPI_Datatype, f: impl FnOnce(&Datatype) -> R) -> MpiResult<R> {
    with_type(handle, |datatype, committed| committed.then(|| f(datatype)))?
        .ok_or_else(|| MpiError::datatype("the datatype has not been committed (MPI_Type_commit)"))
}

/// Runs `f` on a snapshot of the handle's state.
pub fn with_entry<R>(handle: MPI_Datatype, f: impl FnOnce(&Entry) -> R) -> MpiResult<R> {
    if let Some(p) = predefined_entry(handle) {
        let state = p.state.lock();
        let entry = Entry {
            datatype: p.datatype.clone(),
            committed: true,
            name: state.0.clone(),
            attributes: state.1.clone(),
            twin: None,
        };
        return Ok(f(&entry));
    }
    let (index, generation) = decode(internal(handle)).ok_or_else(|| invalid(handle))?;
    let slot = slot(index).read();
    match &slot.entry {
        Some(entry) if slot.generation == generation => Ok(f(entry)),
        _ => Err(invalid(handle)),
    }
}

/// Changes the handle's state with `f` (for a predefined type: its name and attributes).
pub fn update<R>(handle: MPI_Datatype, f: impl FnOnce(&mut Entry) -> R) -> MpiResult<R> {
    if let Some(p) = predefined_entry(handle) {
        let mut state = p.state.lock();
        let mut entry = Entry {
            datatype: p.datatype.clone(),
            committed: true,
            name: std::mem::take(&mut state.0),
            attributes: std::mem::take(&mut state.1),
            twin: None,
        };
        let result = f(&mut entry);
        *state = (entry.name, entry.attributes);
        return Ok(result);
    }
    let (index, generation) = decode(internal(handle)).ok_or_else(|| invalid(handle))?;
    let mut slot = slot(index).write();
    let current = slot.generation == generation;
    match &mut slot.entry {
        Some(entry) if current => Ok(f(entry)),
        _ => Err(invalid(handle)),
    }
}

/// The error of freeing a predefined datatype (named, or made by `MPI_Type_create_f90_*`).
fn not_freeable() -> MpiError {
    MpiError::datatype("a predefined datatype cannot be freed")
}

/// What [`remove_with`] does with a handle that holds attributes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IfAttributed {
    /// Leaves it and gives the attributes back, for the caller to delete first.
    Refuse,
    /// Removes it with them (their delete callbacks have run).
    Remove,
}

/// What [`remove_with`] did.
#[derive(Debug)]
pub enum Removal {
    /// The entry is gone: the handle's state.
    Removed(Entry),
    /// Nothing ([`IfAttributed::Refuse`]): the handle holds these attributes.
    Attributed(Vec<(i32, usize)>),
}

/// Removes a derived handle and returns its state (`MPI_Type_free`); one that holds
/// attributes is left if `if_attributed` says so. If the handle is a twin, `release_twin`
/// runs on it (with its datatype object) first, while the handle still resolves to its entry:
/// the MPI behind runs the delete callbacks of its attributes then, and they may query the
/// type. Predefined types cannot be freed. A handle without a twin is checked and removed
/// under one lock of its slot.
pub fn remove_with(
    handle: MPI_Datatype,
    if_attributed: IfAttributed,
    release_twin: impl FnOnce(MPI_Datatype, Arc<Datatype>),
) -> MpiResult<Removal> {
    if is_predefined(handle) {
        return Err(not_freeable());
    }
    let slot_handle = internal(handle);
    let (twin, datatype) = match take_entry(slot_handle, handle, Freeing::Program(if_attributed))? {
        Taken::Entry(entry) => return Ok(Removal::Removed(entry)),
        Taken::Attributed(attributes) => return Ok(Removal::Attributed(attributes)),
        Taken::TwinFirst(twin, datatype) => (twin, datatype),
    };
    // Once released, the MPI behind may give the number to a new type at once: the entry's
    // withdrawal (in `take_entry`) has marked the threads' caches of it stale already.
    release_twin(twin, datatype);
    match take_entry(slot_handle, handle, Freeing::Released)? {
        Taken::Entry(entry) => Ok(Removal::Removed(entry)),
        _ => Err(invalid(handle)),
    }
}

/// Removes a derived handle, with its attributes, whose twin, if any, the caller releases.
pub fn remove(handle: MPI_Datatype) -> MpiResult<Entry> {
    match remove_with(handle, IfAttributed::Remove, |_, _| ())? {
        Removal::Removed(entry) => Ok(entry),
        Removal::Attributed(_) => unreachable!("IfAttributed::Remove removes"),
    }
}

/// Removes the entry of `handle` whether the program may free it or not (an
/// `MPI_Type_create_f90_*` type made twice by racing threads), with its twin's mapping.
pub fn discard(handle: MPI_Datatype) -> MpiResult<Entry> {
    match take_entry(internal(handle), handle, Freeing::Any)? {
        Taken::Entry(entry) => Ok(entry),
        _ => Err(invalid(handle)),
    }
}

/// What [`take_entry`] did.
enum Taken {
    /// Took the entry.
    Entry(Entry),
    /// Left the entry in place for its twin to be released first: the twin and the datatype
    /// object.
    TwinFirst(MPI_Datatype, Arc<Datatype>),
    /// Left the entry, which holds these attributes ([`IfAttributed::Refuse`]).
    Attributed(Vec<(i32, usize)>),
}

/// Who removes an entry, and so what [`take_entry`] checks first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Freeing {
    /// `MPI_Type_free`: a predefined (f90) type is refused, an entry with attributes is left
    /// in place if asked, and a twinned entry is left in place for its twin to be released
    /// first.
    Program(IfAttributed),
    /// `MPI_Type_free` once the twin is released: a predefined (f90) type is refused.
    Released,
    /// Any entry goes.
    Any,
}

/// Takes the entry of the slot handle `slot_handle` (`handle` is the number the caller holds,
/// for errors), with its twin's mapping if that still names this slot; or, for
/// [`Freeing::Program`], leaves an entry with attributes (if asked) or with a twin
/// ([`Taken`]).
fn take_entry(
    slot_handle: MPI_Datatype,
    handle: MPI_Datatype,
    freeing: Freeing,
) -> MpiResult<Taken> {
    let (index, generation) = decode(slot_handle).ok_or_else(|| invalid(handle))?;
    let cell = cell(index);
    let entry = {
        let mut slot = cell.slot.write();
        let entry = match &slot.entry {
            Some(entry) if slot.generation == generation => entry,
            _ => return Err(invalid(handle)),
        };
        if freeing != Freeing::Any && f90_key(&entry.datatype).is_some() {
            return Err(not_freeable());
        }
        if freeing == Freeing::Program(IfAttributed::Refuse) && !entry.attributes.is_empty() {
            return Ok(Taken::Attributed(entry.attributes.clone()));
        }
        if let (Freeing::Program(_), Some(twin)) = (freeing, entry.twin) {
            // The MPI behind may give the number to a new type once it is released: the
            // queries stop reading this cell under it, and the cached lookups of it go stale.
            let datatype = entry.datatype.clone();
            cell.publish(&mut slot, None);
            return Ok(Taken::TwinFirst(twin, datatype));
        }
        cell.publish(&mut slot, None);
        slot.generation = (slot.generation + 1) % abi::GENERATIONS;
        slot.entry.take().expect("checked above")
    };
    if let Some(twin) = entry.twin {
        unmap_twin(twin, slot_handle);
    }
    release(index);
    drop(forget_cached(handle));
    Ok(Taken::Entry(entry))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::*;

    #[test]
    fn predefined_handles_resolve() {
        assert_eq!(get(MPI_INT).unwrap().size(), 4);
        assert_eq!(get(MPI_DOUBLE_INT).unwrap().extent(), 16);
        assert!(get(MPI_DATATYPE_NULL).is_err());
    }

    #[test]
    #[cfg(not(feature = "standard-abi"))]
    fn twin_handles_resolve_to_their_slots() {
        let twin = 0x8c00_0123u32 as i32;
        let handle = insert(get(MPI_DOUBLE).unwrap(), true, Some(twin)).unwrap();
        assert_eq!(handle, twin);
        assert_eq!(get(twin).unwrap().size(), 8);
        let published = measures_at_once(twin, Whole).expect("a twin publishes its measures");
        assert_eq!((published.size, published.extent), (8, 8));
        assert_eq!(with_committed(twin, |t| t.extent()).unwrap(), 8);
        update(twin, |e| e.name = "twin".into()).unwrap();
        assert_eq!(with_entry(twin, |e| e.name.clone()).unwrap(), "twin");
        assert!(is_twin(twin));
        let removal = remove_with(twin, IfAttributed::Refuse, |released, _| {
            // The MPI behind may reuse the number once released: no query reads it here.
            assert_eq!(measures_at_once(released, Whole), None);
        });
        let Ok(Removal::Removed(entry)) = removal else {
            panic!("removed: {removal:?}");
        };
        assert_eq!(entry.twin, Some(twin));
        assert_eq!(measures_at_once(twin, Whole), None);
        assert!(get(twin).is_err());
        assert!(with_committed(twin, |_| ()).is_err());
    }

    /// All of the measures, read one at a time.
    #[derive(Clone, Copy)]
    struct Whole;

    impl MeasuresPart for Whole {
        type Value = Measures;
        fn of(self, m: &impl ReadMeasures) -> Measures {
            Measures {
                size: m.size(),
                lb: m.lb(),
                ub: m.ub(),
                extent: m.extent(),
                true_lb: m.true_lb(),
                true_extent: m.true_extent(),
            }
        }
    }

    #[test]
    fn measures_are_read_at_once_until_the_handle_is_freed() {
        let vector = construct::vector(3, 2, 4, false, &get(MPI_DOUBLE).unwrap(), false).unwrap();
        let h = insert(vector, false, None).unwrap();
        let m = measures_at_once(h, Whole).expect("a standalone handle publishes its measures");
        assert_eq!((m.size, m.lb, m.extent, m.true_extent), (48, 0, 80, 80));
        get(MPI_INT).unwrap(); // the first lookup fills the table by index
        assert_eq!(measures_at_once(MPI_INT, Whole).map(|m| m.size), Some(4));
        assert!(
            with_type_at_once(h, |_, _| ()).is_err(),
            "not yet looked up"
        );
        assert_eq!(
            with_type(h, |t, committed| (t.size(), committed)).unwrap(),
            (48, false)
        );
        assert!(
            with_type_at_once(h, |_, _| ()).is_ok(),
            "cached by the lookup"
        );
        commit(h, |_| ()).unwrap();
        assert!(
            matches!(with_type_at_once(h, |_, committed| committed), Ok(true)),
            "the commit replaced the stale lookup with the committed one"
        );
        assert!(with_committed(h, |_| ()).is_ok());
        remove(h).unwrap();
        assert_eq!(measures_at_once(h, Whole), None);
        assert!(with_type_at_once(h, |_, _| ()).is_err());
        assert!(with_type(h, |_, _| ()).is_err());
    }

    #[test]
    fn freed_handles_become_invalid() {
        let h = insert(get(MPI_INT).unwrap(), false, None).unwrap();
        assert_ne!(h, MPI_DATATYPE_NULL);
        assert!(!is_predefined(h));
        remove(h).unwrap();
        assert!(get(h).is_err());
        assert!(remove(h).is_err());
        assert!(remove(MPI_INT).is_err());
    }
}
