//! Each thread's cache of the lookups it made last: valid while the slot's epoch has not
//! moved, so that the pack path finds a type with no lock, no reference count and no write to
//! shared memory.

use super::slots::SlotCell;
use crate::abi::{self, MPI_Datatype};
use crate::datatype::Datatype;
use std::cell::RefCell;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// How many lookups each thread keeps (by handle modulo this), so that a thread working with
/// a few types in turn (the faces of a halo exchange) keeps hitting.
const CACHED_TYPES: usize = 4;

/// A lookup a thread made: valid while the slot's epoch is the one seen then. It is three
/// words with no flag of its own: the epoch of a stable slot is even, so the lowest bit of
/// `stamp` says whether the handle was committed.
pub(super) struct CachedLookup {
    handle: MPI_Datatype,
    stamp: u32,
    cell: &'static SlotCell,
    datatype: Arc<Datatype>,
}

impl CachedLookup {
    /// The lookup of `handle`, whose slot `cell` had the (even) epoch `epoch`: `datatype`,
    /// committed or not.
    #[inline(always)]
    pub(super) fn new(
        handle: MPI_Datatype,
        cell: &'static SlotCell,
        epoch: u32,
        datatype: Arc<Datatype>,
        committed: bool,
    ) -> CachedLookup {
        debug_assert!(
            epoch & 1 == 0,
            "a slot's epoch is even while its lock is held"
        );
        CachedLookup {
            handle,
            stamp: epoch | committed as u32,
            cell,
            datatype,
        }
    }

    /// True while the slot's epoch is the one seen at the lookup.
    #[inline(always)]
    fn valid(&self) -> bool {
        self.cell.epoch.load(Ordering::Acquire) == self.stamp & !1
    }

    /// The datatype looked up, and whether its handle was committed.
    #[inline(always)]
    pub(super) fn datatype(&self) -> (&Arc<Datatype>, bool) {
        (&self.datatype, self.stamp & 1 == 1)
    }
}

/// A thread's cached lookups, by handle modulo [`CACHED_TYPES`].
type RecentLookups = RefCell<[Option<CachedLookup>; CACHED_TYPES]>;

thread_local! {
    static RECENT: RecentLookups = const { RefCell::new([const { None }; CACHED_TYPES]) };
}

/// Runs `f` on this thread's cached lookup of `handle` if it is still valid (one load of the
/// slot's epoch: no lock, no write to shared memory), or gives `f` back.
#[inline]
pub(super) fn with_cached<R, F: FnOnce(&Arc<Datatype>, bool) -> R>(
    handle: MPI_Datatype,
    f: F,
) -> Result<R, F> {
    let mut f = Some(f);
    let hit = RECENT.try_with(|recent| {
        let recent = recent.try_borrow().ok()?;
        match &recent[abi::handle_bits(handle) as usize % CACHED_TYPES] {
            Some(c) if c.handle == handle && c.valid() => {
                let (datatype, committed) = c.datatype();
                f.take().map(|f| f(datatype, committed))
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
#[inline(always)]
pub(super) fn remember(lookup: CachedLookup) {
    // Put in the cache word by word, not as a closure's captured copy: a copy of the whole
    // lookup would read back words just written one at a time, through a stalled store.
    let Ok(recent) = RECENT.try_with(|recent| recent as *const RecentLookups) else {
        return; // this thread is ending
    };
    // SAFETY: this thread's cache, reachable a moment ago; it lives until the thread ends, and
    // its destructor would run on this thread, after this call.
    let recent = unsafe { &*recent };
    let way = abi::handle_bits(lookup.handle) as usize % CACHED_TYPES;
    let replaced = match recent.try_borrow_mut() {
        Ok(mut recent) => recent[way].replace(lookup),
        Err(_) => None,
    };
    drop(replaced);
}

/// True if this thread looked `handle` up recently and what it stands for has not changed
/// since.
pub fn known_recently(handle: MPI_Datatype) -> bool {
    with_cached(handle, |_, _| ()).is_ok()
}

/// Takes the lookup of `handle` out of this thread's cache: a freed handle's type is then
/// dropped with its entry, by the free, not kept alive until another lookup replaces it.
pub(super) fn forget_cached(handle: MPI_Datatype) -> Option<CachedLookup> {
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
