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
//! In drop-in mode a handle may have a twin in the MPI library behind: a type made inside a
//! call of that library is handed out as its twin's number, and a handle of the program's
//! gets one at the first call that takes it there ([`attach_twin`]). A map from those numbers
//! to slots resolves them ([`is_twin`]).
//!
//! The parts: [`slots`] (the slots, their epochs and published measures, and the allocation
//! of slot indices), [`slot_lock`] (the lock of a slot), [`named`] (the predefined types and the `MPI_Type_create_f90_*`
//! ones), [`twins`] (the twin numbers of drop-in mode) and [`cache`] (each thread's recent
//! lookups); this file is the table's interface.
//!
//! Lookups lock only the slot they read, for a few loads, so threads working on different
//! types never contend. Size and bound queries read a copy of the type's measures published in
//! its slot, the measures before the handle ([`measures_at_once`]); the pack path keeps the
//! types each thread used last ([`with_type`]), valid while their slot's epoch has not moved:
//! no lock, no reference count, no write to shared memory.

use crate::abi::{self, MPI_Datatype, MPI_DATATYPE_NULL};
use crate::datatype::{Datatype, MeasuresPart};
use crate::error::{MpiError, MpiResult};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

mod cache;
mod named;
mod slot_lock;
mod slots;
mod twins;

use cache::{forget_cached, remember, with_cached, CachedLookup};
use named::{f90_key, predefined_by_index, predefined_entry};
use slots::{allocate, cell, cell_of, chunk, decode, handle_of, release, SlotCell, CHUNK};
use twins::{internal, map_twin, twin_slot, unmap_twin};

pub use cache::{forget_thread_cache, known_recently};
pub use named::{
    accept_internal_aliases, f90_handle, is_builtin, is_predefined, record_f90, take_f90_handles,
    F90Key,
};
pub use twins::{is_twin, may_be_twin};

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
    /// The handle of its twin in the MPI library behind (drop-in mode only): the handle the
    /// program holds for a type made inside that library, or one made for the first call that
    /// took this handle there ([`attach_twin`]).
    pub twin: Option<MPI_Datatype>,
    /// True when the twin was made after the handle ([`attach_twin`]): the program holds the
    /// handle of this library's own form, not the twin.
    pub twin_attached: bool,
}

/// A hash for handle numbers: one multiplication and one rotation (handles are distinct
/// integers, or in Open MPI's ABI addresses of objects 512 bytes apart, and the map is read
/// on every call with a handle of the MPI behind). The low bits of a product depend only on
/// the low bits of the handle, which are all zero for such addresses, so the well-mixed high
/// bits are rotated down to where the table takes its bucket from.
#[derive(Default)]
pub(crate) struct HandleHasher(u64);

impl std::hash::Hasher for HandleHasher {
    fn finish(&self) -> u64 {
        self.0.rotate_left(20)
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
pub(crate) type HandleMap<V> =
    HashMap<MPI_Datatype, V, std::hash::BuildHasherDefault<HandleHasher>>;

/// A set of handle numbers, hashed as [`HandleMap`]'s keys.
pub(crate) type HandleSet =
    std::collections::HashSet<MPI_Datatype, std::hash::BuildHasherDefault<HandleHasher>>;

/// The slot cell of the derived handle (or twin) `handle` and the generation it names;
/// `None` if it has no derived form.
fn derived_cell(handle: MPI_Datatype) -> Option<(&'static SlotCell, u32)> {
    let (index, generation) = decode(internal(handle))?;
    Some((cell(index), generation))
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

/// Registers a new derived datatype and returns the handle the program holds: its twin in the
/// MPI behind if it has one (drop-in mode, [`crate::dropin`]), else a handle of this library.
pub fn insert(
    datatype: Arc<Datatype>,
    committed: bool,
    twin: Option<MPI_Datatype>,
) -> MpiResult<MPI_Datatype> {
    let index = allocate()?;
    let cell = cell(index);
    let mut slot = cell.slot.lock();
    let slot_handle = handle_of(index, slot.generation);
    // The queries read the cell under the handle the program holds.
    cell.publish(
        &mut slot,
        Some((twin.unwrap_or(slot_handle), datatype.measures)),
    );
    slot.entry = Some(Entry {
        datatype,
        committed,
        name: String::new(),
        attributes: Vec::new(),
        twin,
        twin_attached: false,
    });
    drop(slot);
    match twin {
        Some(twin) => {
            let previous = map_twin(twin, slot_handle);
            if let Some(cell) = previous.and_then(cell_of) {
                // The number named a freed type a moment ago: forget it in every cache.
                cell.bump(&mut cell.slot.lock());
            }
            Ok(twin)
        }
        None => Ok(slot_handle),
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

/// Marks the handle committed (`MPI_Type_commit`) and returns its twin: one lock of the slot,
/// which also marks the threads' cached lookups stale. (The plan was compiled when the type
/// was made.) This thread then remembers the committed lookup, so that the type's first pack
/// finds it at once.
pub fn commit(handle: MPI_Datatype) -> MpiResult<Option<MPI_Datatype>> {
    if is_predefined(handle) {
        return Ok(None);
    }
    let (cell, generation) = derived_cell(handle).ok_or_else(|| invalid(handle))?;
    let mut slot = cell.slot.lock();
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
    remember(CachedLookup::new(handle, cell, epoch, datatype, true));
    Ok(twin)
}

/// `part` of the measures of the type behind `handle` if they are found with no lock, no
/// reference taken and no thread-local storage: a predefined type's from the table, a derived
/// type's from its slot's published copy (the slot found from the handle, or for a twin by
/// [`twin_slot`]). A handle found so is this library's, never one of the MPI behind.
#[inline(always)]
pub fn measures_at_once<P: MeasuresPart>(handle: MPI_Datatype, part: P) -> Option<P::Value> {
    if let Some(indexed) = predefined_by_index(handle) {
        return Some(part.of(&indexed.measures));
    }
    match decode(handle) {
        Some((index, _)) => chunk(index / CHUNK)?[index % CHUNK].published_part(handle, part),
        None => {
            let index = twin_slot(handle)?;
            chunk(index / CHUNK)?[index % CHUNK].published_part_of_twin(handle, part)
        }
    }
}

/// Runs `f` on the datatype behind `handle` and whether the handle is committed if that takes
/// no more than a table read (a predefined type) or a valid entry of this thread's cache (no
/// lock, no reference count, no write to shared memory); gives `f` back otherwise. A handle
/// found so is this library's, never one of the MPI behind.
#[inline]
fn with_type_at_once<R, F: FnOnce(&Arc<Datatype>, bool) -> R>(
    handle: MPI_Datatype,
    f: F,
) -> Result<R, F> {
    match predefined_by_index(handle) {
        Some(indexed) => Ok(f(&indexed.entry.datatype, true)),
        None => with_cached(handle, f),
    }
}

/// Runs `f` on the datatype behind `handle` and whether the handle is committed: the lookup
/// of every datatype handle of this library. A predefined type is one table read; a derived
/// type this thread looked up recently costs one load of its slot's epoch (no lock, no
/// reference count, no write to shared memory); otherwise the slot is read once and the
/// lookup remembered. A handle the table does not hold gives `f` back, for the caller to try
/// it elsewhere ([`crate::dropin::with_type`] imports the MPI behind's own types) or to report
/// it ([`with_type`]): no error is made here, so a caller that forwards the MPI behind's
/// handles pays nothing for the miss.
#[inline]
pub fn try_with_type<R, F: FnOnce(&Arc<Datatype>, bool) -> R>(
    handle: MPI_Datatype,
    f: F,
) -> Result<R, F> {
    match with_type_at_once(handle, f) {
        Ok(result) => Ok(result),
        Err(f) => with_type_read(handle, f),
    }
}

/// [`try_with_type`] on a handle neither predefined by index nor in this thread's cache.
fn with_type_read<R, F: FnOnce(&Arc<Datatype>, bool) -> R>(
    handle: MPI_Datatype,
    f: F,
) -> Result<R, F> {
    if let Some(p) = predefined_entry(handle) {
        return Ok(f(&p.datatype, true));
    }
    let Some((cell, generation)) = derived_cell(handle) else {
        return Err(f);
    };
    let lookup = {
        let slot = cell.slot.lock();
        match &slot.entry {
            Some(entry) if slot.generation == generation => CachedLookup::new(
                handle,
                cell,
                cell.epoch.load(Ordering::Acquire),
                entry.datatype.clone(),
                entry.committed,
            ),
            _ => return Err(f),
        }
    };
    let (datatype, committed) = lookup.datatype();
    let result = f(datatype, committed);
    remember(lookup);
    Ok(result)
}

/// Runs `f` on this library's committed type behind `handle`: `None` for a handle the table
/// does not hold (a type of the MPI behind's, which the caller forwards to it, or none) and
/// for an uncommitted type. Nothing is imported or reported: the success path of packing and
/// the routing of messages ask this.
#[inline]
pub fn try_with_committed<R>(
    handle: MPI_Datatype,
    f: impl FnOnce(&Arc<Datatype>) -> R,
) -> Option<R> {
    try_with_type(handle, |datatype, committed| committed.then(|| f(datatype)))
        .ok()
        .flatten()
}

/// [`try_with_type`] for a handle that must be this library's: `MPI_ERR_TYPE` otherwise.
#[inline]
pub fn with_type<R>(
    handle: MPI_Datatype,
    f: impl FnOnce(&Arc<Datatype>, bool) -> R,
) -> MpiResult<R> {
    try_with_type(handle, f).map_err(|_| invalid(handle))
}

/// Runs `f` on the state of the handle, which it may change: the one access to a handle's
/// name, attributes, commit flag and twin (for a predefined type, its name and attributes
/// alone are kept).
pub fn with_entry<R>(handle: MPI_Datatype, f: impl FnOnce(&mut Entry) -> R) -> MpiResult<R> {
    if let Some(p) = predefined_entry(handle) {
        let mut state = p.state.lock();
        let mut entry = Entry {
            datatype: p.datatype.clone(),
            committed: true,
            name: std::mem::take(&mut state.0),
            attributes: std::mem::take(&mut state.1),
            twin: None,
            twin_attached: false,
        };
        let result = f(&mut entry);
        *state = (entry.name, entry.attributes);
        return Ok(result);
    }
    let (cell, generation) = derived_cell(handle).ok_or_else(|| invalid(handle))?;
    let mut slot = cell.slot.lock();
    let current = slot.generation == generation;
    match &mut slot.entry {
        Some(entry) if current => Ok(f(entry)),
        _ => Err(invalid(handle)),
    }
}

/// Gives the derived handle `handle`, of this library's own form, the twin `twin`, made for a
/// call of the MPI behind after the handle (the program keeps holding `handle`), unless it
/// has one already: the twin the handle keeps, and whether the handle is committed now (read
/// with the twin, so that a commit that came in meanwhile is seen). From now on the twin's
/// number resolves to the handle's entry, as the number of a twin the program holds does.
pub fn attach_twin(handle: MPI_Datatype, twin: MPI_Datatype) -> MpiResult<(MPI_Datatype, bool)> {
    let (index, generation) = decode(handle).ok_or_else(|| invalid(handle))?;
    let cell = cell(index);
    let (kept, previous) = {
        let mut slot = cell.slot.lock();
        let current = slot.generation == generation;
        let Some(entry) = slot.entry.as_mut().filter(|_| current) else {
            return Err(invalid(handle));
        };
        let committed = entry.committed;
        match entry.twin {
            Some(kept) => ((kept, committed), None),
            None => {
                entry.twin = Some(twin);
                entry.twin_attached = true;
                // Mapped under the slot's lock, so that a free of the handle (which unmaps
                // its twin after taking the entry) cannot come in between.
                ((twin, committed), map_twin(twin, handle))
            }
        }
    };
    if let Some(cell) = previous.and_then(cell_of) {
        // The number named a freed type a moment ago: forget it in every cache.
        cell.bump(&mut cell.slot.lock());
    }
    Ok(kept)
}

/// The handle the program holds for `handle`, a datatype handle the MPI behind hands to the
/// program (the type of an operation's function): the handle of this library's own form whose
/// twin [`attach_twin`] made `handle`, else `handle` itself.
pub fn program_handle(handle: MPI_Datatype) -> MPI_Datatype {
    if !may_be_twin(handle) {
        return handle;
    }
    let slot_handle = internal(handle);
    let Some((index, generation)) = decode(slot_handle).filter(|_| slot_handle != handle) else {
        return handle;
    };
    let slot = cell(index).slot.lock();
    match &slot.entry {
        Some(entry)
            if slot.generation == generation
                && entry.twin_attached
                && entry.twin == Some(handle) =>
        {
            slot_handle
        }
        _ => handle,
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
    /// The entry is gone, its state dropped (after the slot's lock was let go).
    Removed,
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
    let (twin, datatype) =
        match take_entry(slot_handle, handle, Freeing::Program(if_attributed), None)? {
            Taken::Entry => return Ok(Removal::Removed),
            Taken::Attributed(attributes) => return Ok(Removal::Attributed(attributes)),
            Taken::TwinFirst(twin, datatype) => (twin, datatype),
        };
    // Once released, the MPI behind may give the number to a new type at once: the entry's
    // withdrawal (in `take_entry`) has marked the threads' caches of it stale already.
    release_twin(twin, datatype);
    match take_entry(slot_handle, handle, Freeing::Released, None)? {
        Taken::Entry => Ok(Removal::Removed),
        _ => Err(invalid(handle)),
    }
}

/// Removes a derived handle, with its attributes, whose twin, if any, the caller releases.
pub fn remove(handle: MPI_Datatype) -> MpiResult<()> {
    match remove_with(handle, IfAttributed::Remove, |_, _| ())? {
        Removal::Removed => Ok(()),
        Removal::Attributed(_) => unreachable!("IfAttributed::Remove removes"),
    }
}

/// Removes the entry of `handle` whether the program may free it or not (an
/// `MPI_Type_create_f90_*` type, given back before the MPI behind finalizes), with its twin's
/// mapping.
pub fn discard(handle: MPI_Datatype) -> MpiResult<Entry> {
    let mut taken = None;
    match take_entry(internal(handle), handle, Freeing::Any, Some(&mut taken))? {
        Taken::Entry => taken.ok_or_else(|| invalid(handle)),
        _ => Err(invalid(handle)),
    }
}

/// What [`take_entry`] did.
enum Taken {
    /// Took the entry (and dropped it, or put it where the caller asked).
    Entry,
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
/// ([`Taken`]). The entry taken goes to `keep` if given, else it is dropped here, once the
/// slot's lock is let go (its type may release a twin, whose MPI runs callbacks): a free does
/// not copy it out through the results.
fn take_entry(
    slot_handle: MPI_Datatype,
    handle: MPI_Datatype,
    freeing: Freeing,
    keep: Option<&mut Option<Entry>>,
) -> MpiResult<Taken> {
    let (index, generation) = decode(slot_handle).ok_or_else(|| invalid(handle))?;
    let cell = cell(index);
    let entry = {
        let mut slot = cell.slot.lock();
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
    match keep {
        Some(keep) => *keep = Some(entry),
        None => drop(entry),
    }
    Ok(Taken::Entry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::*;
    use crate::datatype::{construct, Measures, ReadMeasures};

    /// The datatype object behind `handle`.
    fn get(handle: MPI_Datatype) -> MpiResult<Arc<Datatype>> {
        with_type(handle, |datatype, _| datatype.clone())
    }

    /// Runs `f` on the committed type behind `handle`, or `None` if it is not committed.
    fn with_committed<R>(
        handle: MPI_Datatype,
        f: impl FnOnce(&Datatype) -> R,
    ) -> MpiResult<Option<R>> {
        with_type(handle, |datatype, committed| committed.then(|| f(datatype)))
    }

    #[test]
    fn predefined_handles_resolve() {
        assert_eq!(get(MPI_INT).unwrap().size(), 4);
        assert_eq!(get(MPI_DOUBLE_INT).unwrap().extent(), 16);
        assert!(get(MPI_DATATYPE_NULL).is_err());
    }

    #[test]
    #[cfg(abi = "mpich")]
    fn twin_handles_resolve_to_their_slots() {
        let twin = MPI_Datatype(0x8c00_0123u32 as i32);
        let handle = insert(get(MPI_DOUBLE).unwrap(), true, Some(twin)).unwrap();
        assert_eq!(handle, twin);
        assert_eq!(get(twin).unwrap().size(), 8);
        let published = measures_at_once(twin, Whole).expect("a twin publishes its measures");
        assert_eq!((published.size, published.extent), (8, 8));
        assert_eq!(with_committed(twin, |t| t.extent()).unwrap(), Some(8));
        with_entry(twin, |e| e.name = "twin".into()).unwrap();
        assert_eq!(with_entry(twin, |e| e.name.clone()).unwrap(), "twin");
        assert!(is_twin(twin));
        let mut released_twin = None;
        let removal = remove_with(twin, IfAttributed::Refuse, |released, _| {
            // The MPI behind may reuse the number once released: no query reads it here.
            assert_eq!(measures_at_once(released, Whole), None);
            released_twin = Some(released);
        });
        assert!(
            matches!(removal, Ok(Removal::Removed)),
            "removed: {removal:?}"
        );
        assert_eq!(released_twin, Some(twin));
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
        let vector = construct::vector(3, 2, 4, false, get(MPI_DOUBLE).unwrap(), false).unwrap();
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
        commit(h).unwrap();
        assert!(
            matches!(with_type_at_once(h, |_, committed| committed), Ok(true)),
            "the commit replaced the stale lookup with the committed one"
        );
        assert_eq!(with_committed(h, |_| ()).unwrap(), Some(()));
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
