//! Twin handles (drop-in mode): the numbers of the MPI library behind that stand for this
//! library's handles there, mapped to their slots, with what lets a query find a twin's slot
//! and rule out other numbers without the map's lock.

use super::slots::decode;
use super::HandleMap;
use crate::abi::{self, MPI_Datatype};
use parking_lot::RwLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::LazyLock;

/// The slot handle of each twin handle the program holds. Changed only through
/// [`map_twin`] and [`unmap_twin`], which keep [`TWIN_COUNTS`].
static TWINS: LazyLock<RwLock<HandleMap<MPI_Datatype>>> = LazyLock::new(Default::default);

/// How many of the twin handles in [`TWINS`] fall in each entry of [`TWIN_SLOTS`]
/// ([`twin_way`]): a handle whose entry counts none is no twin, which is known without the
/// map's lock (the handles of types the MPI behind made itself, in drop-in mode).
static TWIN_COUNTS: [AtomicU32; TWIN_WAYS] = [const { AtomicU32::new(0) }; TWIN_WAYS];

/// Maps the twin handle `twin` to `slot_handle`, whose slot the queries then look in for
/// `twin` ([`twin_slot`]); the slot handle it mapped to before, if any.
pub(super) fn map_twin(twin: MPI_Datatype, slot_handle: MPI_Datatype) -> Option<MPI_Datatype> {
    if let Some((index, _)) = decode(slot_handle) {
        TWIN_SLOTS[twin_way(twin)].store(index as u32, Ordering::Release);
    }
    let mut twins = TWINS.write();
    let previous = twins.insert(twin, slot_handle);
    if previous.is_none() {
        TWIN_COUNTS[twin_way(twin)].fetch_add(1, Ordering::Relaxed);
    }
    previous
}

/// Removes the mapping of the twin handle `twin` if it still maps to `slot_handle`.
pub(super) fn unmap_twin(twin: MPI_Datatype, slot_handle: MPI_Datatype) {
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
pub(super) fn internal(handle: MPI_Datatype) -> MPI_Datatype {
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

/// How many entries [`TWIN_SLOTS`] has.
const TWIN_WAYS: usize = 4096;

/// The slot of a twin handle, by a hash of the handle ([`twin_way`]): where a query looks for
/// the measures published under a twin. An entry may name a slot that publishes another
/// handle (another twin took the entry, or the type was freed); the query then finds no
/// measures there and takes the long way.
static TWIN_SLOTS: [AtomicU32; TWIN_WAYS] = [const { AtomicU32::new(0) }; TWIN_WAYS];

/// The slot index where the measures of the twin handle `handle` may be published (the slot
/// itself checks that they are `handle`'s), if it has the form of a twin. No lock, one load.
#[inline(always)]
pub(super) fn twin_slot(handle: MPI_Datatype) -> Option<usize> {
    abi::has_behind_form(handle)
        .then(|| TWIN_SLOTS[twin_way(handle)].load(Ordering::Acquire) as usize)
}

/// The entry of [`TWIN_SLOTS`] (and of [`TWIN_COUNTS`]) for the twin handle `twin`.
#[inline(always)]
fn twin_way(twin: MPI_Datatype) -> usize {
    (abi::handle_bits(twin).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52) as usize % TWIN_WAYS
}
