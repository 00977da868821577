//! The handle table: maps `int` datatype handles to shared datatype objects.
//!
//! Predefined handles are MPICH's values and resolve through a read-only table. Derived
//! handles are `0x0c000000 | generation << 20 | slot` (slot >= 1): their top bits are those of
//! MPICH's invalid-handle kind, so they never collide with a value MPICH defines, and an MPI
//! library handed one of them rejects it instead of misreading it. Each slot carries a
//! 6-bit generation that changes when the slot is reused, and freed slots wait in a queue
//! before reuse, so a freed handle is reported as invalid rather than aliasing a new type.
//!
//! In drop-in mode ([`crate::twin`]) the program is given, instead, the handle of each type's
//! twin in the MPI library behind, which that library encodes as `0x8c000000 | index` or
//! `0xcc000000 | index`: a map from those numbers to slots resolves them. A handle of that
//! form not in the map is one that library made itself ([`is_foreign`]).
//!
//! Lookups lock only the slot they read (a reader lock), so threads working on different
//! types never contend. The pack path takes no lock in the steady state: each thread keeps the
//! committed types it used last ([`with_committed`]), so a hit costs a thread-local read and
//! one load of a global counter of frees, with no write to shared memory; predefined types
//! resolve through a fixed table indexed by the handle's low byte.

use crate::abi::{MPI_Datatype, MPI_DATATYPE_NULL};
use crate::datatype::{construct, predefined, Combiner, Datatype, F90Class};
use crate::error::{MpiError, MpiResult};
use parking_lot::{Mutex, RwLock};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

const KIND_MASK: i32 = 0xfc00_0000u32 as i32;
const DERIVED_KIND: i32 = MPI_DATATYPE_NULL;
const SLOT_BITS: u32 = 20;
const SLOT_MASK: i32 = (1 << SLOT_BITS) - 1;
const GENERATION_MASK: i32 = 0x3f;
const CHUNK: usize = 4096;
const CHUNKS: usize = (1 << SLOT_BITS) / CHUNK;
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

/// The kinds of MPICH's handles of derived datatypes (direct and indirect).
const BEHIND_KINDS: [i32; 2] = [0x8c00_0000u32 as i32, 0xcc00_0000u32 as i32];
/// MPICH's kind of predefined datatype handles.
const PREDEFINED_KIND: i32 = 0x4c00_0000;

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
}

/// A map keyed by handle numbers.
type HandleMap<V> = HashMap<MPI_Datatype, V, std::hash::BuildHasherDefault<HandleHasher>>;

/// The slot handle of each twin handle the program holds.
static TWINS: LazyLock<RwLock<HandleMap<MPI_Datatype>>> = LazyLock::new(Default::default);

fn has_behind_form(handle: MPI_Datatype) -> bool {
    BEHIND_KINDS.contains(&(handle & KIND_MASK))
}

/// The slot handle a program's handle stands for (itself unless it is a twin).
fn internal(handle: MPI_Datatype) -> MPI_Datatype {
    if has_behind_form(handle) {
        if let Some(&slot_handle) = TWINS.read().get(&handle) {
            return slot_handle;
        }
    }
    handle
}

/// True if `handle` is a datatype handle of the MPI library behind this one that this
/// library did not make (a type that library made itself): calls with it go to that library.
///
/// MPICH gives some predefined types (the pair types `MPI_DOUBLE_INT` and its kin) handles of
/// its derived kind: they are this library's, like every predefined type.
///
/// A handle of the predefined kind that is no predefined type of this library (a type newer
/// than its table, or another internal number of the MPI behind) is that library's too.
pub fn is_foreign(handle: MPI_Datatype) -> bool {
    let behind_kind = has_behind_form(handle)
        && !used_recently(handle)
        && !TWINS.read().contains_key(&handle)
        && !is_predefined(handle);
    let unknown_predefined = handle & KIND_MASK == PREDEFINED_KIND
        && !matches!(PREDEFINED_BY_INDEX[(handle & 0xff) as usize], Some((h, _)) if h == handle)
        && !is_predefined(handle);
    (behind_kind || unknown_predefined) && crate::behind::backend().is_some()
}

/// True if `handle` is the twin handle of one of this library's entries.
pub fn is_twin(handle: MPI_Datatype) -> bool {
    has_behind_form(handle) && TWINS.read().contains_key(&handle)
}

/// Twin numbers whose handle the program freed while the MPI behind still holds that type
/// (inside a type of its own), with the object each stands for: that library may hand the
/// number back (`MPI_Type_get_contents` of its type), and it still means this library's
/// object until that library destroys it ([`crate::twin`] watches for that).
static RETIRED: LazyLock<Mutex<HandleMap<Arc<Datatype>>>> = LazyLock::new(Default::default);

/// The object a twin number the program freed still stands for in the MPI behind.
pub fn retired(handle: MPI_Datatype) -> Option<Arc<Datatype>> {
    if !has_behind_form(handle) {
        return None;
    }
    RETIRED.lock().get(&handle).cloned()
}

/// Forgets a retired twin number: the MPI behind destroyed its type.
pub fn forget_retired(handle: MPI_Datatype) {
    // This runs inside the MPI behind (the delete callback of its type): the object is not
    // dropped here, where dropping the last reference would call that library again to
    // release the object's twins, but with the next type made.
    let gone = RETIRED.lock().remove(&handle);
    if let Some(gone) = gone {
        FORGOTTEN.lock().push(gone);
    }
}

/// Objects of forgotten retired numbers, dropped by the next [`insert_with_twin`].
static FORGOTTEN: Mutex<Vec<Arc<Datatype>>> = Mutex::new(Vec::new());

#[derive(Default)]
struct Slot {
    generation: i32,
    entry: Option<Entry>,
}

struct Allocator {
    next_fresh: usize,
    freed: VecDeque<usize>,
}

static CHUNK_TABLE: [OnceLock<Box<[RwLock<Slot>]>>; CHUNKS] = [const { OnceLock::new() }; CHUNKS];
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
        .map(|p| {
            let p: &'static predefined::Predefined = Box::leak(Box::new(p));
            let entry = PredefinedEntry {
                datatype: construct::named(p),
                state: Mutex::new((p.name.to_string(), Vec::new())),
            };
            (p.handle, entry)
        })
        .collect()
});

/// A predefined handle and its datatype object.
type NamedType = (MPI_Datatype, Arc<Datatype>);

/// Predefined types by the low byte of their handle (MPICH's index of the type), for the
/// pack path; a handle whose low byte another type took first is found in [`PREDEFINED`].
static PREDEFINED_BY_INDEX: LazyLock<Vec<Option<NamedType>>> = LazyLock::new(|| {
    let mut table = vec![None; 256];
    for (&handle, entry) in PREDEFINED.iter() {
        let index = (handle & 0xff) as usize;
        if table[index].is_none() {
            table[index] = Some((handle, entry.datatype.clone()));
        }
    }
    table
});

fn slot(index: usize) -> &'static RwLock<Slot> {
    let chunk = CHUNK_TABLE[index / CHUNK]
        .get_or_init(|| (0..CHUNK).map(|_| RwLock::new(Slot::default())).collect());
    &chunk[index % CHUNK]
}

fn handle_of(index: usize, generation: i32) -> MPI_Datatype {
    DERIVED_KIND | (generation << SLOT_BITS) | index as i32
}

/// The slot index and generation a derived handle names, if it has the derived form.
fn decode(handle: MPI_Datatype) -> Option<(usize, i32)> {
    let index = (handle & SLOT_MASK) as usize;
    if handle & KIND_MASK != DERIVED_KIND || index == 0 {
        return None;
    }
    Some((index, (handle >> SLOT_BITS) & GENERATION_MASK))
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
    PREDEFINED.contains_key(&handle) || predefined_alias(handle).is_some()
}

/// The form of MPICH's internal numbers for predefined types: MPICH 5 passes
/// `0x4c8TSSDD` in place of the predefined handle `0x4c00SSDD` to the datatype functions it
/// calls from inside its own functions (ROMIO's, on a memory type of `MPI_File_write_all`).
const INTERNAL_ALIAS_MASK: i32 = 0xff80_0000u32 as i32;
const INTERNAL_ALIAS_KIND: i32 = 0x4c80_0000;

/// The predefined handle an internal number of the MPI behind stands for: with an MPI
/// behind, `0x4c8TSSDD` stands for `0x4c00SSDD` if that is a predefined type (MPICH's
/// `MPIR_DATATYPE_GET_ORIG_BUILTIN`).
fn predefined_alias(handle: MPI_Datatype) -> Option<MPI_Datatype> {
    if handle & INTERNAL_ALIAS_MASK != INTERNAL_ALIAS_KIND || handle & 0xff == 0 {
        return None;
    }
    let original = PREDEFINED_KIND | (handle & 0xffff);
    (PREDEFINED.contains_key(&original) && crate::behind::backend().is_some()).then_some(original)
}

/// The entry of a predefined handle, or of the MPI behind's internal number for one.
fn predefined_entry(handle: MPI_Datatype) -> Option<&'static PredefinedEntry> {
    PREDEFINED
        .get(&handle)
        .or_else(|| PREDEFINED.get(&predefined_alias(handle)?))
}

/// The handles of the types `MPI_Type_create_f90_*` returned, by their arguments.
type F90Key = (F90Class, i32, i32);
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

/// The handle of the predefined type `MPI_Type_create_f90_*` returns for `class`,
/// `precision` and `range`: made (committed, with the type map of `base`) by the first call,
/// and the same handle for every later call with the same arguments.
pub fn f90(
    class: F90Class,
    precision: i32,
    range: i32,
    base: MPI_Datatype,
) -> MpiResult<MPI_Datatype> {
    let key = (class, precision, range);
    if let Some(&handle) = F90_TYPES.lock().get(&key) {
        return Ok(handle);
    }
    // Made without the table's lock held: making a twin calls the MPI behind.
    let made = construct::f90(class, precision, range, &get(base)?);
    let handle = insert(made, true)?;
    let mut table = F90_TYPES.lock();
    if let Some(&first) = table.get(&key) {
        drop(table);
        // Another thread made it meanwhile: its handle is the one.
        if let Ok(Entry {
            twin: Some(twin), ..
        }) = remove_entry(internal(handle))
        {
            crate::twin::release(twin);
        }
        return Ok(first);
    }
    table.insert(key, handle);
    Ok(handle)
}

/// True if `handle` is predefined: named, or returned by `MPI_Type_create_f90_*` (the
/// standard calls those predefined too; neither can be freed).
pub fn is_builtin(handle: MPI_Datatype) -> bool {
    is_predefined(handle) || with_entry(handle, |e| f90_key(&e.datatype).is_some()).unwrap_or(false)
}

/// Registers a new derived datatype and returns its handle (in drop-in mode, the handle of a
/// new twin).
pub fn insert(datatype: Arc<Datatype>, committed: bool) -> MpiResult<MPI_Datatype> {
    let twin = crate::twin::new_handle(&datatype, committed)?;
    insert_with_twin(datatype, committed, twin)
}

/// Registers the datatype `MPI_Type_dup` made of `old`; in drop-in mode its handle is the MPI
/// behind's duplicate of `old`, so that library copies its own attributes.
pub fn insert_dup(
    datatype: Arc<Datatype>,
    committed: bool,
    old: MPI_Datatype,
) -> MpiResult<MPI_Datatype> {
    let source = match is_predefined(old) {
        true => Some(old),
        false => with_entry(old, |e| e.twin)?,
    };
    let twin = match source {
        Some(source) => crate::twin::dup_handle(source, committed)?,
        None => crate::twin::new_handle(&datatype, committed)?,
    };
    insert_with_twin(datatype, committed, twin)
}

fn insert_with_twin(
    datatype: Arc<Datatype>,
    committed: bool,
    twin: Option<MPI_Datatype>,
) -> MpiResult<MPI_Datatype> {
    let index = allocate().inspect_err(|_| twin.into_iter().for_each(crate::twin::release))?;
    let mut slot = slot(index).write();
    slot.entry = Some(Entry {
        datatype,
        committed,
        name: String::new(),
        attributes: Vec::new(),
        twin,
    });
    let slot_handle = handle_of(index, slot.generation);
    drop(slot);
    let forgotten = std::mem::take(&mut *FORGOTTEN.lock());
    drop(forgotten);
    match twin {
        Some(twin) => {
            forget_retired(twin);
            if TWINS.write().insert(twin, slot_handle).is_some() {
                // The number named a freed type a moment ago: forget it in every cache.
                FREES.fetch_add(1, Ordering::AcqRel);
            }
            Ok(twin)
        }
        None => Ok(slot_handle),
    }
}

fn allocate() -> MpiResult<usize> {
    {
        let mut alloc = ALLOCATOR.lock();
        if alloc.freed.len() > REUSE_AFTER || alloc.next_fresh >= CHUNKS * CHUNK {
            alloc.freed.pop_front()
        } else {
            alloc.next_fresh += 1;
            Some(alloc.next_fresh - 1)
        }
    }
    .ok_or_else(|| MpiError::new(crate::abi::MPI_ERR_NO_MEM, "too many datatypes are alive"))
}

/// The handle under which `datatype` can be given back to the caller: the predefined handle
/// for a named type, a new derived handle otherwise.
pub fn handle_for_child(datatype: &Arc<Datatype>) -> MpiResult<MPI_Datatype> {
    if let Some(p) = datatype.predefined() {
        return Ok(p.handle);
    }
    if let Some(key) = f90_key(datatype) {
        if let Some(&handle) = F90_TYPES.lock().get(&key) {
            return Ok(handle);
        }
    }
    insert(datatype.clone(), true)
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

/// Marks the handle committed and returns its datatype object (`MPI_Type_commit`).
pub fn commit(handle: MPI_Datatype) -> MpiResult<Arc<Datatype>> {
    let (datatype, twin) = update(handle, |entry| {
        entry.committed = true;
        (entry.datatype.clone(), entry.twin)
    })?;
    if let Some(twin) = twin {
        crate::twin::commit(twin)?;
    }
    Ok(datatype)
}

/// Counts the derived handles ever freed; a thread's cached types are valid while the count
/// has not moved.
static FREES: AtomicU64 = AtomicU64::new(0);

/// How many committed types each thread keeps (by handle modulo this), so that a thread
/// packing with a few types in turn (the faces of a halo exchange) keeps hitting.
const CACHED_TYPES: usize = 4;

/// A committed derived type a thread packed with: `(handle, frees at that time, type)`.
type CachedType = Option<(MPI_Datatype, u64, Arc<Datatype>)>;

thread_local! {
    static RECENT_COMMITTED: RefCell<[CachedType; CACHED_TYPES]> =
        const { RefCell::new([const { None }; CACHED_TYPES]) };
}

/// Gives back, before the MPI behind finalizes, what this library holds there beyond the
/// program's handles: the types this thread's cache kept alive, the twins of the
/// `MPI_Type_create_f90_*` types, which the program cannot free, and the twins every datatype
/// object holds. (MPICH reports types still alive at `MPI_Finalize` as leaked.)
pub fn release_before_finalize() {
    let recent = RECENT_COMMITTED.with(|recent| std::mem::take(&mut *recent.borrow_mut()));
    drop(recent);
    let f90_handles: Vec<MPI_Datatype> = F90_TYPES.lock().drain().map(|(_, h)| h).collect();
    for handle in f90_handles {
        if let Ok(entry) = remove_entry(internal(handle)) {
            if let Some(twin) = entry.twin {
                crate::twin::release(twin);
            }
        }
    }
    crate::twin::release_all_shadows();
}

/// True if this thread packed with the committed type `handle` recently and it was not freed
/// since (a lookup with no lock).
fn used_recently(handle: MPI_Datatype) -> bool {
    let frees = FREES.load(Ordering::Acquire);
    RECENT_COMMITTED.with(|recent| {
        matches!(&recent.borrow()[handle as usize % CACHED_TYPES],
            Some((h, seen, _)) if *h == handle && *seen == frees)
    })
}

/// Runs `f` on the datatype behind `handle`, which must be committed: the lookup of the pack
/// path. For a predefined type, or a committed derived type this thread used recently, it
/// takes no lock, allocates nothing and writes no shared memory; otherwise it reads the
/// handle's slot once and remembers the type.
pub fn with_committed<R>(handle: MPI_Datatype, f: impl FnOnce(&Datatype) -> R) -> MpiResult<R> {
    if handle & KIND_MASK == PREDEFINED_KIND {
        return match PREDEFINED_BY_INDEX.get((handle & 0xff) as usize) {
            Some(Some((h, datatype))) if *h == handle => Ok(f(datatype)),
            _ => {
                let (datatype, committed) = lookup(handle)?;
                run_if_committed(datatype, committed, f)
            }
        };
    }
    let frees = FREES.load(Ordering::Acquire);
    let way = handle as usize % CACHED_TYPES;
    let mut f = Some(f);
    let hit = RECENT_COMMITTED.with(|recent| match &recent.borrow()[way] {
        Some((h, seen, datatype)) if *h == handle && *seen == frees => {
            f.take().map(|f| f(datatype))
        }
        _ => None,
    });
    if let Some(result) = hit {
        return Ok(result);
    }
    let (datatype, committed) = lookup(handle)?;
    if committed {
        // The type it replaces is dropped after the borrow ends: dropping it may release a
        // twin, and the MPI behind may then run callbacks that pack.
        let replaced = RECENT_COMMITTED
            .with(|recent| recent.borrow_mut()[way].replace((handle, frees, datatype.clone())));
        drop(replaced);
    }
    run_if_committed(datatype, committed, f.expect("f runs only on a hit"))
}

/// Runs `f` on `datatype` if it is committed.
fn run_if_committed<R>(
    datatype: Arc<Datatype>,
    committed: bool,
    f: impl FnOnce(&Datatype) -> R,
) -> MpiResult<R> {
    if !committed {
        return Err(MpiError::datatype(
            "the datatype has not been committed (MPI_Type_commit)",
        ));
    }
    Ok(f(&datatype))
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

/// Removes a derived handle and returns its state. If the handle is a twin, `release_twin`
/// runs on it first, while the handle still resolves to its entry: the MPI behind runs the
/// delete callbacks of its attributes then, and they may query the type. Predefined types
/// cannot be freed.
pub fn remove_with(
    handle: MPI_Datatype,
    release_twin: impl FnOnce(MPI_Datatype),
) -> MpiResult<Entry> {
    if is_builtin(handle) {
        return Err(MpiError::datatype("a predefined datatype cannot be freed"));
    }
    let slot_handle = internal(handle);
    let (twin, datatype) = with_entry(handle, |e| (e.twin, e.datatype.clone()))?;
    if let Some(twin) = twin {
        // Once released, the MPI behind may give the number to a new type at once: threads'
        // caches of it are invalidated first.
        FREES.fetch_add(1, Ordering::AcqRel);
        // Until the MPI behind destroys its type, the number stands for the object (its
        // watch, set when the twin was made, forgets it then: at once, inside
        // `release_twin`, unless a type of that library still holds it).
        if crate::twin::watched() {
            RETIRED.lock().insert(twin, datatype);
        }
        release_twin(twin);
    }
    remove_entry(slot_handle).map_err(|_| invalid(handle))
}

/// Removes a derived handle whose twin, if any, the caller releases.
pub fn remove(handle: MPI_Datatype) -> MpiResult<Entry> {
    remove_with(handle, |_| ())
}

/// Removes the entry of the slot handle `slot_handle`, whether the program may free it or
/// not, and its twin's mapping if that still names this slot.
fn remove_entry(slot_handle: MPI_Datatype) -> MpiResult<Entry> {
    let (index, generation) = decode(slot_handle).ok_or_else(|| invalid(slot_handle))?;
    let entry = {
        let mut slot = slot(index).write();
        if slot.generation != generation || slot.entry.is_none() {
            return Err(invalid(slot_handle));
        }
        FREES.fetch_add(1, Ordering::AcqRel);
        slot.generation = (slot.generation + 1) & GENERATION_MASK;
        slot.entry.take().expect("checked above")
    };
    if let Some(twin) = entry.twin {
        let mut twins = TWINS.write();
        if twins.get(&twin) == Some(&slot_handle) {
            twins.remove(&twin);
        }
    }
    ALLOCATOR.lock().freed.push_back(index);
    Ok(entry)
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
    fn twin_handles_resolve_to_their_slots() {
        let twin = 0x8c00_0123u32 as i32;
        let handle = insert_with_twin(get(MPI_DOUBLE).unwrap(), true, Some(twin)).unwrap();
        assert_eq!(handle, twin);
        assert_eq!(get(twin).unwrap().size(), 8);
        assert_eq!(with_committed(twin, |t| t.extent()).unwrap(), 8);
        update(twin, |e| e.name = "twin".into()).unwrap();
        assert_eq!(with_entry(twin, |e| e.name.clone()).unwrap(), "twin");
        assert!(!is_foreign(twin));
        let entry = remove(twin).unwrap();
        assert_eq!(entry.twin, Some(twin));
        assert!(get(twin).is_err());
        assert!(with_committed(twin, |_| ()).is_err());
    }

    #[test]
    fn freed_handles_become_invalid() {
        let h = insert(get(MPI_INT).unwrap(), false).unwrap();
        assert_ne!(h, MPI_DATATYPE_NULL);
        assert!(!is_predefined(h));
        remove(h).unwrap();
        assert!(get(h).is_err());
        assert!(remove(h).is_err());
        assert!(remove(MPI_INT).is_err());
    }
}
