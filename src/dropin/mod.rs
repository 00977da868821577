//! The drop-in layer: mpi-dtype loaded in front of another MPI library (`LD_PRELOAD`).
//!
//! It stands between the exported functions ([`crate::ffi`]) and the two things below it, which
//! never call each other or back up: the handle table ([`crate::handles`], a pure table) and
//! the MPI library behind ([`crate::behind`], found and called). Here are taken the decisions
//! that need both:
//! - whose a handle is ([`is_foreign`]): a type the MPI behind made itself goes to it;
//! - the twins ([`twin`]): the type of the MPI behind with the same type map that a handle
//!   of this library's gets at the first call that takes it there, and that a type made
//!   inside a call of that library gets at once;
//! - importing the MPI behind's own types into this library when the program builds on them
//!   ([`import`]);
//! - knowing Open MPI's duplicates of the program's handles as the program's types
//!   ([`duplicates`]);
//! - error codes the MPI behind understands ([`codes`]);
//! - messages of derived datatypes packed by this library's engine ([`comm`]);
//! - messages of more copies than an `int` counts, for an MPI behind without large-count
//!   functions ([`whole_message`]).
//!
//! Standalone (no MPI behind) every function here comes down to the handle table alone.

pub mod behind_types;
pub mod codes;
pub mod comm;
pub mod duplicates;
pub mod finalize_hook;
pub mod import;
pub mod twin;
pub mod whole_message;

use crate::abi::{self, MPI_Datatype};
use crate::datatype::{construct, Datatype, F90Class};
use crate::error::MpiResult;
use crate::handles::{self, Entry, IfAttributed, Removal};
use std::sync::Arc;

/// True if `handle` is a datatype handle of the MPI library behind this one that this
/// library did not make (a type that library made itself): calls with it go to that library.
///
/// MPICH gives some predefined types (the pair types `MPI_DOUBLE_INT` and its kin) handles of
/// its derived kind: they are this library's, like every predefined type. A handle of the
/// predefined form that is no predefined type of this library (a type newer than its table, or
/// another internal number of the MPI behind) is that library's too. A duplicate Open MPI made
/// of one of the program's handles is not: it joins the table the first time it is seen
/// ([`duplicates::adopt`]).
pub fn is_foreign(handle: MPI_Datatype) -> bool {
    match behind_made(handle) {
        Some(unknown_predefined) => unknown_predefined || !duplicates::adopt(handle),
        None => false,
    }
}

/// Whether `handle` is a type the MPI behind made, as [`is_foreign`] says, before a duplicate
/// is looked for: `None` if not, `Some(true)` for a handle of the predefined form, `Some(false)`
/// for one of that library's derived handles (or a duplicate Open MPI made of the program's).
fn behind_made(handle: MPI_Datatype) -> Option<bool> {
    crate::behind::backend()?;
    let twin = handles::may_be_twin(handle)
        && (handles::known_recently(handle) || handles::is_twin(handle));
    let behind_form = abi::has_behind_form(handle) && !twin && !handles::is_predefined(handle);
    let unknown_predefined = abi::has_predefined_form(handle) && !handles::is_predefined(handle);
    (unknown_predefined || behind_form).then_some(unknown_predefined)
}

/// The type of this library that `handle`, which the MPI behind handed back from a type of its
/// own and which is no handle of the table, stands for: the type of a handle the program freed
/// since ([`twin::retired`]), or the type of the handle it duplicates (Open MPI:
/// [`duplicates`]).
pub fn handed_back(handle: MPI_Datatype) -> Option<Arc<Datatype>> {
    twin::retired(handle).or_else(|| duplicates::original(handle))
}

/// Runs `f` on the datatype behind the handle argument `handle` and whether the handle is
/// committed: the one way a datatype handle is resolved. This library's handle is one read of
/// the table ([`handles::try_with_type`]: no lock, no reference, for a type this thread used
/// lately); a type the MPI behind made itself is imported first ([`import`]: made again by
/// this library, and not committed here, since only that library knows whether it is).
#[inline]
pub fn with_type<R>(
    handle: MPI_Datatype,
    f: impl FnOnce(&Arc<Datatype>, bool) -> R,
) -> MpiResult<R> {
    handles::try_with_type(handle, f).or_else(|f| with_imported(handle, f))
}

/// [`with_type`] for a handle not in the table: a type the MPI behind made itself is
/// imported and given to `f`.
#[cold]
#[inline(never)]
fn with_imported<R>(
    handle: MPI_Datatype,
    f: impl FnOnce(&Arc<Datatype>, bool) -> R,
) -> MpiResult<R> {
    match is_foreign(handle) {
        true => Ok(f(&import::imported(handle)?, false)),
        // Open MPI's duplicate of one of the program's handles, a handle of the table now
        // (else `MPI_ERR_TYPE`: no handle at all).
        false => handles::with_type(handle, f),
    }
}

/// [`handles::with_entry`] on a datatype handle the program passes: a duplicate the MPI
/// behind made of one of the program's handles (Open MPI's `MPI_File_get_view`) joins the
/// table first, as every call with it does ([`is_foreign`]).
pub fn with_entry<R>(
    handle: MPI_Datatype,
    f: impl FnOnce(&mut handles::Entry) -> R,
) -> MpiResult<R> {
    // Only for what it adopts: a foreign handle has no entry either way.
    let _ = is_foreign(handle);
    handles::with_entry(handle, f)
}

/// Registers a new derived datatype and returns the handle the program holds: a handle of
/// this library's own, whose twin the MPI behind gets at the first call that takes it there
/// ([`twin::for_behind`]); for a type made inside a call of that library (ROMIO's), a new
/// twin of it, since that library may use it where this one does not see it.
pub fn insert(datatype: Arc<Datatype>, committed: bool) -> MpiResult<MPI_Datatype> {
    let made = match crate::behind::inside() {
        true => twin::new_handle(&datatype, committed)?,
        false => None,
    };
    insert_with_twin(datatype, committed, made)
}

/// Registers the datatype `MPI_Type_dup` made of `old`. Made inside a call of the MPI
/// behind, its handle is that library's duplicate of `old`'s twin, so that library copies its
/// own attributes. Otherwise it is a handle of this library's own, as [`insert`] makes; if
/// `old` has been to the MPI behind (it has a twin, which may hold attributes of that
/// library's keys), the duplicate's twin is that library's duplicate of `old`'s, made now, so
/// that those attributes are copied too.
pub fn insert_dup(
    datatype: Arc<Datatype>,
    committed: bool,
    old: MPI_Datatype,
) -> MpiResult<MPI_Datatype> {
    let predefined = handles::is_predefined(old);
    let old_twin = match predefined {
        true => None,
        false => handles::with_entry(old, |e| e.twin)?,
    };
    if !crate::behind::inside() {
        let twin = match old_twin {
            Some(old_twin) => twin::dup_handle(old_twin, committed)?,
            None => None,
        };
        let handle = insert_with_twin(datatype, committed, None)
            .inspect_err(|_| twin.into_iter().for_each(twin::release))?;
        if let Some(twin) = twin {
            // Made committed as the handle is: nothing can commit the handle meanwhile.
            twin::attach(handle, twin);
        }
        return Ok(handle);
    }
    let source = if predefined { Some(old) } else { old_twin };
    let made = match source {
        Some(source) => twin::dup_handle(source, committed)?,
        None => twin::new_handle(&datatype, committed)?,
    };
    insert_with_twin(datatype, committed, made)
}

/// Records `datatype` with its twin `made` (if any) in the handle table; the twin is released
/// if the table is full.
fn insert_with_twin(
    datatype: Arc<Datatype>,
    committed: bool,
    made: Option<MPI_Datatype>,
) -> MpiResult<MPI_Datatype> {
    let handle = handles::insert(datatype, committed, made)
        .inspect_err(|_| made.into_iter().for_each(twin::release))?;
    if made.is_none() {
        // A handle of this library's own form may reach an MPI behind from now on.
        crate::behind::datatypes::translate_with(twin::for_behind);
    }
    if let Some(made) = made {
        // The number is a new type's now, whatever the program freed under it before; the
        // objects of numbers forgotten so are dropped here (only twins are ever retired).
        twin::forget_retired(made);
        twin::forget_forgotten();
    }
    Ok(handle)
}

/// Marks the handle committed (`MPI_Type_commit`), its twin too.
pub fn commit(handle: MPI_Datatype) -> MpiResult<()> {
    if let Some(made) = handles::commit(handle)? {
        twin::commit(made)?;
    }
    Ok(())
}

/// Frees a derived handle (`MPI_Type_free`) and its twin, and returns its state; one that
/// holds attributes is left, and they are returned, if `if_attributed` says so. The twin goes
/// before the entry: the MPI behind runs the delete callbacks of its attributes then, which
/// may query the type; until that library destroys its type, the number still stands for the
/// object ([`twin::retire`]).
pub fn free(handle: MPI_Datatype, if_attributed: IfAttributed) -> MpiResult<Removal> {
    handles::remove_with(handle, if_attributed, |made, datatype| {
        twin::retire(made, datatype);
        twin::release(made);
    })
}

/// The handle under which `datatype` can be given back to the caller (decoding): the
/// predefined handle for a named type, the one `MPI_Type_create_f90_*` returned for such a
/// type, a new derived handle otherwise.
pub fn handle_for_child(datatype: &Arc<Datatype>) -> MpiResult<MPI_Datatype> {
    match handles::existing_handle(datatype) {
        Some(handle) => Ok(handle),
        None => insert(datatype.clone(), true),
    }
}

/// The handle of the predefined type `MPI_Type_create_f90_*` returns for `class`,
/// `precision` and `range`: made (committed, with the type map of `base`) by the first call,
/// and the same handle for every later call with the same arguments.
pub fn f90(
    class: F90Class,
    precision: Option<i32>,
    range: Option<i32>,
    base: MPI_Datatype,
) -> MpiResult<MPI_Datatype> {
    let key = (class, precision, range);
    if let Some(handle) = handles::f90_handle(key) {
        return Ok(handle);
    }
    // One thread at a time makes these types: the MPI behind gives the same twin to every
    // call with the same arguments, so two entries made at once would claim one twin.
    static MAKING: parking_lot::Mutex<()> = parking_lot::Mutex::new(());
    let _one_at_a_time = MAKING.lock();
    if let Some(handle) = handles::f90_handle(key) {
        return Ok(handle);
    }
    // Made without the table's lock held: making a twin calls the MPI behind.
    let made = with_type(base, |base, _| {
        construct::f90(class, precision, range, base)
    })?;
    // Made once per process, it has a twin at once, as a predefined type does: the MPI
    // behind's own f90 type, or a new twin of it.
    let behind = match twin::f90_handle(&made) {
        Some(behind) => Some(behind),
        None => twin::new_handle(&made, true)?,
    };
    let handle = insert_with_twin(made, true, behind)?;
    handles::record_f90(key, handle);
    Ok(handle)
}

/// Before the MPI behind's `MPI_Init` (or `MPI_Init_thread`), with an MPI library behind:
/// leaves this process's marker for the other processes of its job ([`comm::peers`]).
pub fn before_init() {
    if crate::behind::backend().is_some() {
        comm::peers::announce();
    }
}

/// After the MPI behind's `MPI_Init` (or `MPI_Init_thread`) returned `rc`: readies the twins
/// ([`twin::prepare`]) and, if it succeeded, learns whether every process of the job runs
/// this library ([`comm::peers::learn`]).
pub fn after_init(rc: std::os::raw::c_int) {
    twin::prepare();
    if rc == crate::abi::MPI_SUCCESS {
        finalize_hook::set();
        comm::peers::learn();
    }
}

/// Before the MPI behind's `MPI_Finalize`: notes that the program finalizes
/// ([`twin::finalizing`]), completes the engine's detached requests and, unless the attribute
/// of [`finalize_hook`] does it inside that call, gives everything back ([`give_back`]).
pub fn before_finalize() {
    twin::finalizing();
    comm::before_finalize();
    if !finalize_hook::is_set() {
        give_back();
    }
}

/// After the MPI behind's `MPI_Finalize` returned: removes this process's marker
/// ([`comm::peers::withdraw`]). Not before: the MPIs behind finalize with a fence of the whole
/// job, so no process of it reads the markers at its `MPI_Init` after one is removed, and
/// every process learns alike.
pub fn after_finalize() {
    comm::peers::withdraw();
    comm::node_local::withdraw();
}

/// Gives back what this library holds in the MPI behind, while that library still runs:
/// completes the detached requests of the engine (again: the program's last callbacks may
/// have made some) and releases the types ([`release_before_finalize`]).
pub fn give_back() {
    comm::pending::drain_detached();
    if twin::enabled() {
        release_before_finalize();
    }
}

/// Gives back, while the MPI behind finalizes ([`give_back`]), what this library holds there
/// beyond the program's handles: the types this thread's cache kept alive, the twins of the
/// `MPI_Type_create_f90_*` types, which the program cannot free, and the twins every datatype
/// object holds. (MPICH reports types still alive at `MPI_Finalize` as leaked.)
pub fn release_before_finalize() {
    handles::forget_thread_cache();
    for handle in handles::take_f90_handles() {
        if let Ok(Entry {
            twin: Some(made), ..
        }) = handles::discard(handle)
        {
            twin::release(made);
        }
    }
    twin::release_all_shadows();
    comm::holed::release_all();
}
