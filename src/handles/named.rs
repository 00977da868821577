//! Named (predefined) types: the table of their entries, read by a direct index for the
//! common handles, the internal numbers the MPI behind uses for them, and the types
//! `MPI_Type_create_f90_*` returned (which the standard calls predefined too).

use super::{with_entry, HandleMap};
use crate::abi::{self, MPI_Datatype};
use crate::datatype::{construct, Combiner, Datatype, F90Class, Measures};
use crate::predefined;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Once, OnceLock};

pub(super) struct PredefinedEntry {
    pub(super) datatype: Arc<Datatype>,
    pub(super) state: Mutex<(String, Vec<(i32, usize)>)>,
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
pub(super) struct Indexed {
    pub(super) handle: MPI_Datatype,
    pub(super) measures: Measures,
    pub(super) entry: &'static PredefinedEntry,
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
pub(super) fn predefined_by_index(handle: MPI_Datatype) -> Option<&'static Indexed> {
    PREDEFINED_BY_INDEX[abi::predefined_index(handle)?]
        .get()
        .filter(|indexed| indexed.handle == handle)
}

/// True if `handle` is a named predefined datatype (also under the MPI behind's internal
/// number for it, [`predefined_alias`]).
#[inline]
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

/// The entry of a predefined handle, or of the MPI behind's internal number for one. The
/// common answers are inline, in the caller: a type found by index, and one of this library's
/// own handles (no map to search); the map is searched out of line.
#[inline]
pub(super) fn predefined_entry(handle: MPI_Datatype) -> Option<&'static PredefinedEntry> {
    if let Some(indexed) = predefined_by_index(handle) {
        return Some(indexed.entry);
    }
    if abi::own_parts(handle).is_some() {
        return None;
    }
    predefined_entry_in_map(handle)
}

/// [`predefined_entry`] of a handle neither found by index nor one of this library's own.
#[inline(never)]
fn predefined_entry_in_map(handle: MPI_Datatype) -> Option<&'static PredefinedEntry> {
    fill_predefined_by_index();
    PREDEFINED
        .get(&handle)
        .or_else(|| PREDEFINED.get(&predefined_alias(handle)?))
}

/// The arguments of an `MPI_Type_create_f90_*` call: the type class, `p` and `r` (`None`
/// where not given).
pub type F90Key = (F90Class, Option<i32>, Option<i32>);

/// The handles of the types `MPI_Type_create_f90_*` returned, by their arguments.
static F90_TYPES: LazyLock<Mutex<HashMap<F90Key, MPI_Datatype>>> = LazyLock::new(Default::default);

pub(super) fn f90_key(datatype: &Datatype) -> Option<F90Key> {
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

/// Records `handle` as the one `MPI_Type_create_f90_*` returns for `key` (the caller makes
/// these types one at a time, so none was recorded for `key` meanwhile).
pub fn record_f90(key: F90Key, handle: MPI_Datatype) {
    F90_TYPES.lock().insert(key, handle);
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
