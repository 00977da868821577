//! Twins: the datatypes of the MPI library behind this one that stand for mpi-dtype's.
//!
//! The program's derived types are this library's alone: their handles have this library's
//! own form, and nothing is made in the MPI behind while they are made, committed, queried,
//! packed and freed. A handle gets its twin, a datatype of the MPI behind with the same type
//! map, at the first call that takes it there ([`for_behind`], through
//! [`crate::behind::datatypes`]); the twin is kept with the handle until it is freed. A type
//! made inside a call of the MPI behind (ROMIO's) is handed out as a new twin at once
//! ([`new_handle`], [`dup_handle`]), since that library may use it where this one does not
//! see it.
//!
//! Each datatype object gets its own twin the first time it is needed and keeps it (a
//! [`Shadow`]) until it goes. It is rebuilt level by level with the other library's
//! constructor of the same kind, from the twins of the children (a `contiguous(1, ·)` where a
//! copy is needed, never a dup, which would copy attributes), and each level is resized to
//! mpi-dtype's bounds when that library computes others, so the type map is the same at every
//! level whatever that library's rules for bounds. Subarrays are rebuilt dimension by dimension
//! as the standard defines them (a placement and a resize each), and darrays from the
//! equivalent type mpi-dtype realizes them with, so the other library's own darray rules play
//! no part; a type without data becomes an empty type with mpi-dtype's bounds. The twin of a
//! handle is a copy (`contiguous(1, twin)`) of its object's, made for that handle (so that
//! freeing it frees only it, and the other library runs the delete callbacks of its own
//! attributes then); `MPI_Type_dup` inside the MPI behind duplicates the handle's twin, so
//! that library copies its attributes as the standard says.

use super::behind_types::{self as types, check, Count};
use crate::abi::*;
use crate::behind::{self, forward};
use crate::datatype::numbering::Numbering;
use crate::datatype::{construct, Combiner, Datatype, F90Class, SubarrayShape};
use crate::error::{MpiError, MpiResult};
use crate::handles::{HandleMap, HandleSet};
use parking_lot::Mutex;
use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};

/// True when twins can be made: an MPI library is behind this one, initialized and not
/// finalized. Once that library was found so, the answer is kept (`STATE`) until the
/// program calls `MPI_Finalize` ([`finalizing`]), so that the calls that make and free twins
/// do not ask it twice each; from then on it is asked every time, as that library's own
/// teardown decides what may still be called.
pub fn enabled() -> bool {
    if STATE.load(Ordering::Acquire) == RUNNING {
        return true;
    }
    if behind::backend().is_none() {
        return false;
    }
    let (mut initialized, mut finalized) = (0, 1);
    forward!(PMPI_Initialized: fn(*mut c_int) -> c_int, &mut initialized);
    if initialized == 0 {
        return false;
    }
    forward!(PMPI_Finalized: fn(*mut c_int) -> c_int, &mut finalized);
    let running = finalized == 0;
    if running {
        // Not over FINALIZING: a finalize that began meanwhile wins.
        let _ = STATE.compare_exchange(UNKNOWN, RUNNING, Ordering::AcqRel, Ordering::Acquire);
    }
    running
}

/// What is known of the MPI behind's life: nothing yet ([`UNKNOWN`]), that it runs
/// ([`RUNNING`], found by [`enabled`]), or that the program began to finalize it
/// ([`FINALIZING`], for good: MPI is not initialized twice). A program's `MPI_Finalize`
/// passes through this library's (which `PMPI_Finalize` names too); one that finalizes the
/// MPI behind through that library's own symbols and then makes a twin is erroneous (it uses
/// MPI after finalizing it), and [`release`] asks that library every time.
static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);
const UNKNOWN: u8 = 0;
const RUNNING: u8 = 1;
const FINALIZING: u8 = 2;

/// Notes that the program called `MPI_Finalize`: from now on [`enabled`] asks the MPI behind
/// whether it still runs.
pub fn finalizing() {
    STATE.store(FINALIZING, Ordering::Release);
}

/// A datatype of the MPI behind that is held (by this module, by a message's
/// [`super::whole_message`]), freed on drop.
pub struct Held(pub MPI_Datatype);

impl Held {
    /// The handle, of the MPI behind.
    pub fn handle(&self) -> MPI_Datatype {
        self.0
    }

    /// Gives up the reference to the caller.
    fn into_raw(self) -> MPI_Datatype {
        let handle = self.0;
        std::mem::forget(self);
        handle
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        release(self.0)
    }
}

// After `Held`, which they hold their types with.
mod kept;
mod messages;
mod tags;
pub use kept::{kept, Kept, MessagePaths, Shadow};
pub use messages::{byte_twin, for_messages, message_copy, stream_type, streams_whole};
pub use tags::{duplicated, Duplicated};

/// Frees a datatype handle of the MPI behind (nothing once that library is finalized, when
/// its datatypes are gone already, nor for one of its own `MPI_Type_create_f90_*` types,
/// which it keeps until then: [`f90_handle`]).
pub fn release(handle: MPI_Datatype) {
    if is_behind_f90(handle) {
        return;
    }
    // Asked every time, not taken from [`STATE`]: a twin may be released when a datatype
    // goes at the process's or a thread's end, after a program finalized the MPI behind
    // through that library's own symbols (a foreign-function call into it) and not this
    // library's `MPI_Finalize`.
    let mut finalized = 1;
    forward!(PMPI_Finalized: fn(*mut c_int) -> c_int, &mut finalized);
    if finalized == 0 {
        let mut handle = handle;
        forward!(PMPI_Type_free: fn(*mut MPI_Datatype) -> c_int, &mut handle);
    }
}

/// How many of the MPI behind's own f90 types can be twins (MPICH makes at most 64).
const MOST_BEHIND_F90: usize = 64;

/// The MPI behind's own `MPI_Type_create_f90_*` types that are twins ([`f90_handle`]), by
/// their handle's bits: the first [`BEHIND_F90_COUNT`], read without a lock by every release
/// of a twin, and written one at a time (the f90 types are made so).
static BEHIND_F90: [AtomicU64; MOST_BEHIND_F90] = [const { AtomicU64::new(0) }; MOST_BEHIND_F90];
static BEHIND_F90_COUNT: AtomicUsize = AtomicUsize::new(0);

/// True if `handle` is one of the MPI behind's own f90 types that are twins.
fn is_behind_f90(handle: MPI_Datatype) -> bool {
    let count = BEHIND_F90_COUNT.load(Ordering::Acquire);
    let bits = handle_bits(handle);
    BEHIND_F90[..count]
        .iter()
        .any(|h| h.load(Ordering::Relaxed) == bits)
}

/// The twin of an `MPI_Type_create_f90_*` type (`datatype`): the MPI behind's own type for
/// the same arguments. That library lets only its predefined types into its predefined
/// reductions, and the standard lists the f90 types among the types of `MPI_SUM` and its
/// kin (MPI-4.1 §6.9.2), which a copy of the base type would not be to it. `None` (the twin
/// is then a copy of the base type, as for any other type) when twins are not enabled, when
/// the base type is one that library may lack (its constructor would then fail, and call the
/// program's error handler), or when its type has another size. Never freed: that library
/// keeps these types until it finalizes. Called by one thread at a time.
pub fn f90_handle(datatype: &Datatype) -> Option<MPI_Datatype> {
    let Combiner::F90 {
        class,
        precision,
        range,
        base,
    } = &datatype.combiner
    else {
        return None;
    };
    // Integers of 1 to 8 bytes, reals of 4 or 8 and complexes of 8 or 16: every MPI this
    // library runs over has those.
    let widest = match class {
        F90Class::Complex => 16,
        F90Class::Integer | F90Class::Real => 8,
    };
    let count = BEHIND_F90_COUNT.load(Ordering::Acquire);
    if base.size() > widest || count == MOST_BEHIND_F90 || !enabled() {
        return None;
    }
    let mut made = MPI_DATATYPE_NULL;
    let rc = match class {
        F90Class::Integer => forward!(PMPI_Type_create_f90_integer:
            fn(c_int, *mut MPI_Datatype) -> c_int, Numbers::undefined(*range), &mut made),
        F90Class::Real => forward!(PMPI_Type_create_f90_real:
            fn(c_int, c_int, *mut MPI_Datatype) -> c_int, Numbers::undefined(*precision), Numbers::undefined(*range), &mut made),
        F90Class::Complex => forward!(PMPI_Type_create_f90_complex:
            fn(c_int, c_int, *mut MPI_Datatype) -> c_int, Numbers::undefined(*precision), Numbers::undefined(*range), &mut made),
    };
    if rc != Some(MPI_SUCCESS) {
        return None;
    }
    let mut size: c_int = -1;
    forward!(PMPI_Type_size: fn(MPI_Datatype, *mut c_int) -> c_int, made, &mut size);
    if i64::from(size) != datatype.size() {
        return None;
    }
    BEHIND_F90[count].store(handle_bits(made), Ordering::Relaxed);
    BEHIND_F90_COUNT.store(count + 1, Ordering::Release);
    Some(made)
}

/// Commits a handle of the MPI behind.
pub fn commit(handle: MPI_Datatype) -> MpiResult<()> {
    let mut handle = handle;
    let rc = forward!(PMPI_Type_commit: fn(*mut MPI_Datatype) -> c_int, &mut handle);
    check("PMPI_Type_commit", rc)
}

/// A new handle of the MPI behind for a new handle of `datatype` (committed if `committed`),
/// or `None` when twins are not enabled.
pub fn new_handle(datatype: &Datatype, committed: bool) -> MpiResult<Option<MPI_Datatype>> {
    if !enabled() {
        return Ok(None);
    }
    // The twin's bounds are fitted already, and a contiguous copy of one has the same.
    for_program(watched_copy(of(datatype)?)?, committed).map(Some)
}

/// The handle of the MPI behind for `MPI_Type_dup` of the program's handle `old` (a handle of
/// that library): its duplicate, with that library's attributes copied by their callbacks.
/// `None` when twins are not enabled.
pub fn dup_handle(old: MPI_Datatype, committed: bool) -> MpiResult<Option<MPI_Datatype>> {
    if !enabled() {
        return Ok(None);
    }
    let made = Held(types::dup(old)?);
    // A duplicate must be the MPI behind's duplicate of the program's handle (so that its
    // attributes are copied), so it carries the watch attribute itself.
    watch_itself(made.0)?;
    for_program(made, committed).map(Some)
}

/// Makes `handle`, a duplicate the MPI behind made of one of the program's handles
/// ([`duplicated`]), a handle of the program's like those this module makes: tagged, and
/// watched for its destruction.
pub fn adopt(handle: MPI_Datatype) -> MpiResult<()> {
    watch_itself(handle)?;
    tags::tag(handle)
}

/// Puts the watch attribute on `handle` itself, a handle of the program's that is no
/// [`watched_copy`] (a duplicate), once the key exists.
fn watch_itself(handle: MPI_Datatype) -> MpiResult<()> {
    match watch_key() {
        Some(key) => watch(key, handle, handle),
        None => Ok(()),
    }
}

/// Gives `made`, a new handle of the MPI behind, to the program: tagged where that library
/// duplicates the handles it hands back ([`tags`]), and committed if `committed`.
fn for_program(made: Held, committed: bool) -> MpiResult<MPI_Datatype> {
    tags::tag(made.0)?;
    if committed {
        commit(made.0)?;
    }
    Ok(made.into_raw())
}

/// The key of the MPI behind whose attribute marks a watcher ([`watched_copy`]): its delete
/// callback runs when that library destroys the watcher. `None` until made, or if the
/// library could not make it.
static WATCH_KEY: std::sync::OnceLock<Option<c_int>> = std::sync::OnceLock::new();

/// The delete callback of [`WATCH_KEY`]: the MPI behind destroyed a watcher, so the
/// program's handle it watched, the attribute's value, is gone there too and its number no
/// longer names this library's object.
unsafe extern "C" fn destroyed(
    _watcher: MPI_Datatype,
    _keyval: c_int,
    handle: *mut std::ffi::c_void,
    _extra: *mut std::ffi::c_void,
) -> c_int {
    forget_retired(handle_from_bits(handle as usize as u64));
    MPI_SUCCESS
}

fn watch_key() -> Option<c_int> {
    *WATCH_KEY.get_or_init(|| {
        let mut key = MPI_KEYVAL_INVALID;
        // A copy callback that copies nothing, as a function: Open MPI refuses a null one.
        let copy_nothing = crate::keyvals::copy_nothing::<MPI_Datatype>;
        let rc = forward!(PMPI_Type_create_keyval: fn(MPI_Type_copy_attr_function, MPI_Type_delete_attr_function, *mut c_int, *mut std::ffi::c_void) -> c_int,
            Some(copy_nothing), Some(destroyed), &mut key, std::ptr::null_mut());
        (rc == Some(MPI_SUCCESS)).then_some(key)
    })
}

/// A new handle of the MPI behind with the type map of `twin`, for the program, that tells
/// when that library destroys it: `contiguous(1, watcher)`, where the watcher is
/// `contiguous(1, twin)` carrying an attribute of [`WATCH_KEY`] and held by nothing else. A
/// type of that library built on the handle keeps it alive after the program freed it, and
/// may hand its number back (`MPI_Type_get_contents`): until the watcher's delete callback
/// runs, the number still names this library's object ([`retired`]). The
/// attribute is on the watcher, not on the handle, so that the handle's own attributes are
/// the program's alone (MPICH runs no delete callback when an attribute that is not the
/// first in a type's list is replaced).
fn watched_copy(twin: MPI_Datatype) -> MpiResult<Held> {
    let Some(key) = watch_key() else {
        return same_map(twin);
    };
    let watcher = same_map(twin)?;
    let handle = same_map(watcher.0)?;
    watch(key, watcher.0, handle.0)?;
    // The handle holds the watcher now.
    drop(watcher);
    Ok(handle)
}

/// Sets the attribute of [`WATCH_KEY`] (`key`) on `watcher`, whose destruction tells that
/// `handle`, the attribute's value, is gone.
fn watch(key: c_int, watcher: MPI_Datatype, handle: MPI_Datatype) -> MpiResult<()> {
    let value = handle_bits(handle) as usize as *mut std::ffi::c_void;
    let rc = forward!(PMPI_Type_set_attr: fn(MPI_Datatype, c_int, *mut std::ffi::c_void) -> c_int,
        watcher, key, value);
    check("PMPI_Type_set_attr", rc)
}

/// Makes the key of the watch attributes right after the MPI behind was initialized through
/// this library, so that it is older than any key of the program's. (MPICH keeps a type's
/// attributes sorted by key, and when one of a newer key stands first, replacing one of an
/// older key runs no delete callback: the attribute a duplicate carries itself, see
/// [`dup_handle`], must not stand before the program's.)
pub fn prepare() {
    if enabled() {
        crate::handles::accept_internal_aliases();
        watch_key();
    }
}

/// The handle the MPI behind takes for `handle`, a handle of this library's own form: the
/// handle's twin, made at the first call that takes it there, as a new handle's twin is made
/// inside that library ([`new_handle`]: committed if the handle is), and kept with the handle
/// until it is freed. A handle that names no type, or whose twin cannot be made, becomes
/// `MPI_DATATYPE_NULL`, which that library rejects (`MPI_ERR_TYPE`): it never sees this
/// library's own form (Open MPI would read a handle as the address of its object).
pub fn for_behind(handle: MPI_Datatype) -> MPI_Datatype {
    // One lock of the slot: every call after the first finds the twin, with no reference
    // taken; the first takes the type to make it.
    let found = crate::handles::with_entry(handle, |e| match e.twin {
        Some(twin) => Ok(twin),
        None => Err((e.datatype.clone(), e.committed)),
    });
    let (datatype, committed) = match found {
        Ok(Ok(twin)) => return twin,
        Ok(Err(untwinned)) => untwinned,
        Err(_) => return MPI_DATATYPE_NULL,
    };
    let Ok(Some(made)) = new_handle(&datatype, committed) else {
        return MPI_DATATYPE_NULL;
    };
    match attach(handle, made) {
        Some((twin, now_committed)) => {
            if twin == made && now_committed && !committed {
                // `MPI_Type_commit` came in while the twin was made, and found none to
                // commit.
                commit(made).ok();
            }
            twin
        }
        None => MPI_DATATYPE_NULL,
    }
}

/// Gives `handle`, of this library's own form, the twin `made` (a new handle of the MPI
/// behind) unless it has one already: the twin it keeps and whether the handle is committed
/// now (`made` is released if it is not that twin; `None` if the handle is gone).
pub fn attach(handle: MPI_Datatype, made: MPI_Datatype) -> Option<(MPI_Datatype, bool)> {
    match crate::handles::attach_twin(handle, made) {
        Ok((kept, committed)) if kept == made => {
            // The number is this handle's twin now, whatever the program freed under it
            // before.
            forget_retired(made);
            forget_forgotten();
            Some((made, committed))
        }
        kept => {
            // Another thread gave the handle its twin meanwhile (or it was freed).
            release(made);
            kept.ok()
        }
    }
}

/// True if the MPI behind says when it destroys the program's handles ([`watched_copy`]):
/// once the key exists, every handle made carries the watch, made before the handle.
pub fn watched() -> bool {
    matches!(WATCH_KEY.get(), Some(Some(_)))
}

/// A new datatype of the MPI behind with the type map and bounds of its datatype `handle`
/// and none of its attributes (the copy callbacks of `PMPI_Type_dup` are for the program's
/// own duplicates only).
fn same_map(handle: MPI_Datatype) -> MpiResult<Held> {
    types::contiguous(1, handle).map(Held)
}

/// The twin of `datatype` in the MPI behind: for a named type, its predefined handle (or a
/// stand-in, see [`named`]), else a type made the first time and kept with `datatype`.
fn of(datatype: &Datatype) -> MpiResult<MPI_Datatype> {
    of_kept(datatype, false).map(|(twin, _)| twin)
}

/// [`of`], and whether the twin is a type made for `datatype` that was committed before it was
/// kept: one made here when `commit` is asked for, unless another thread kept its own first.
/// A named type's handle is never committed here (`false`).
fn of_kept(datatype: &Datatype, commit: bool) -> MpiResult<(MPI_Datatype, bool)> {
    if let Some(p) = datatype.predefined() {
        let handle = predefined_handle(p).unwrap_or(MPI_DATATYPE_NULL);
        return Ok((named(handle, datatype.size())?, false));
    }
    if let Combiner::F90 { base, .. } = &datatype.combiner {
        return Ok((of(base)?, false));
    }
    let twin = &kept(datatype).twin;
    if let Some(shadow) = twin.get() {
        return Ok((handle_from_bits(shadow.handle_bits), shadow.committed));
    }
    let made = stacker::maybe_grow(64 * 1024, 1024 * 1024, || build(datatype))?;
    if commit {
        // Before it is kept, while no other thread can see it.
        self::commit(made.handle())?;
    }
    let handle = made.into_raw();
    // Another thread may have made one meanwhile: the one kept wins, the other is released.
    drop(twin.set(shadow(handle, commit)));
    let kept = twin.get().expect("set above");
    Ok((handle_from_bits(kept.handle_bits), kept.committed))
}

/// The twin of `datatype`, committed, if it is a type made for it that was committed before
/// it was kept ([`of_kept`]): made so now if it has none yet. `None` when its twin is a named
/// type, or was made uncommitted for another call first (it is never committed afterwards).
pub fn committed_twin(datatype: &Datatype) -> MpiResult<Option<MPI_Datatype>> {
    let (twin, committed) = of_kept(datatype, true)?;
    Ok(committed.then_some(twin))
}

/// The twins held by datatype objects (their [`Shadow`]s), so that `MPI_Finalize` can give
/// them all back, also those of objects other threads' caches keep alive.
static SHADOWS: std::sync::LazyLock<parking_lot::Mutex<HandleSet>> =
    std::sync::LazyLock::new(Default::default);

/// The [`Shadow`] that holds `handle`, a type of the MPI behind made for a datatype object
/// (`committed` before it is kept), entered in [`SHADOWS`] for `MPI_Finalize`.
fn shadow(handle: MPI_Datatype, committed: bool) -> Shadow {
    SHADOWS.lock().insert(handle);
    Shadow {
        handle_bits: handle_bits(handle),
        committed,
        release: release_shadow,
    }
}

/// Gives back a shadow's twin (its handle's bits), unless [`release_all_shadows`] already did.
fn release_shadow(bits: u64) {
    let handle = handle_from_bits(bits);
    if SHADOWS.lock().remove(&handle) {
        release(handle);
    }
}

/// Gives back the twins of every datatype object and the types of bytes [`named`] made,
/// before the MPI behind finalizes (the program's own handles stay the program's to free).
pub fn release_all_shadows() {
    let shadows: Vec<MPI_Datatype> = SHADOWS.lock().drain().collect();
    for handle in shadows {
        release(handle);
    }
    // The handles chosen that are no predefined types are the types of bytes.
    let chosen: Vec<MPI_Datatype> = NAMED.lock().drain().map(|(_, chosen)| chosen).collect();
    for bytes in chosen
        .into_iter()
        .filter(|&h| !crate::handles::is_predefined(h))
    {
        release(bytes);
    }
}

/// The handle [`named`] chose for each named type: a predefined one, or a type of bytes.
static NAMED: LazyLock<Mutex<HandleMap<MPI_Datatype>>> = LazyLock::new(Default::default);

/// The handle to build twins on for the named type `handle` of `size` bytes: the handle
/// itself if the MPI behind's types built on it hold its size, else the unsigned integer type
/// of that size, or for other sizes `size` bytes (a type of the MPI behind kept until it
/// finalizes). (MPICH 4.0 gives every type built on `MPIX_C_FLOAT16` a size of 0, though the
/// type itself has 2 bytes; Open MPI built without a Fortran `REAL*16` gives `MPI_COMPLEX32`
/// and `MPI_REAL16` none.) Checked once per handle.
fn named(handle: MPI_Datatype, size: i64) -> MpiResult<MPI_Datatype> {
    if let Some(&chosen) = NAMED.lock().get(&handle) {
        return Ok(chosen);
    }
    let probe = same_map(handle)?;
    let built = types::size(probe.0)?;
    let chosen = match (built == size, size) {
        (true, _) => handle,
        (false, 1) => MPI_UINT8_T,
        (false, 2) => MPI_UINT16_T,
        (false, 4) => MPI_UINT32_T,
        (false, 8) => MPI_UINT64_T,
        (false, _) => types::contiguous(size, MPI_BYTE)?,
    };
    NAMED.lock().insert(handle, chosen);
    Ok(chosen)
}

/// Makes the twin of one level of `datatype` from its children's twins, bounds fitted.
fn build(datatype: &Datatype) -> MpiResult<Held> {
    let level = if datatype.size() == 0 {
        Held(types::contiguous(0, MPI_BYTE)?)
    } else {
        level(datatype)?
    };
    fit_bounds(level, datatype)
}

/// The other library's constructor of the same kind, called on the children's twins.
fn level(datatype: &Datatype) -> MpiResult<Held> {
    let made = match &datatype.combiner {
        Combiner::Named(_) | Combiner::F90 { .. } => {
            return Err(MpiError::new(
                MPI_ERR_INTERN,
                "a predefined type is its own twin",
            ))
        }
        Combiner::Dup(old) => return same_map(of(old)?),
        Combiner::Subarray { shape, old, .. } => return subarray_level(shape, old),
        Combiner::Darray { realized, .. } => return same_map(of(realized)?),
        Combiner::Contiguous { count, old } => types::contiguous(*count, of(old)?),
        Combiner::Vector {
            count,
            blocklength,
            stride,
            old,
        } => types::vector(*count, *blocklength, *stride, of(old)?),
        Combiner::Hvector {
            count,
            blocklength,
            stride,
            old,
        } => types::hvector(*count, *blocklength, *stride, of(old)?),
        Combiner::Indexed {
            blocklengths,
            displacements,
            old,
        } => types::indexed(blocklengths, displacements, of(old)?),
        Combiner::Hindexed {
            blocklengths,
            displacements,
            old,
        } => types::hindexed(blocklengths, displacements, of(old)?),
        Combiner::IndexedBlock {
            blocklength,
            displacements,
            old,
        } => types::indexed_block(*blocklength, displacements, of(old)?),
        Combiner::HindexedBlock {
            blocklength,
            displacements,
            old,
        } => types::hindexed_block(*blocklength, displacements, of(old)?),
        Combiner::Struct {
            blocklengths,
            displacements,
            types: members,
        } => {
            // Members without data change no byte of the type map, and the bounds are
            // fitted afterwards: they are left out.
            let (mut lengths, mut places, mut twins) = (vec![], vec![], vec![]);
            for ((&length, &place), member) in blocklengths.iter().zip(displacements).zip(members) {
                if length > 0 && member.size() > 0 {
                    lengths.push(length);
                    places.push(place);
                    twins.push(of(member)?);
                }
            }
            types::structure(&lengths, &places, &twins)
        }
        Combiner::Resized { lb, extent, old } => types::resized(of(old)?, *lb, *extent),
    };
    made.map(Held)
}

/// The twin of a subarray of `old` with `shape`, built dimension by dimension as the standard
/// defines the type, from the fastest: one `hindexed` block of the dimension's subsize placed
/// at its start, resized to the whole dimension. mpi-dtype realizes the same type map as a
/// nest of `hvector`s ([`construct::subarray`]), which costs less to make; MPICH moves this
/// shape faster than that nest (or its own subarray) where the runs are single elements far
/// apart, a grid's x face, and MPICH's path takes the twin there.
///
/// [`construct::subarray`]: crate::datatype::construct::subarray
fn subarray_level(shape: &SubarrayShape, old: &Datatype) -> MpiResult<Held> {
    let overflow = || MpiError::new(MPI_ERR_INTERN, "a subarray's bounds overflow");
    let mut unit = old.extent();
    let mut level: Option<Held> = None;
    for d in construct::fastest_first(shape.sizes.len(), shape.order) {
        let inner = match &level {
            Some(level) => level.handle(),
            None => of(old)?,
        };
        let start = shape.starts[d].checked_mul(unit).ok_or_else(overflow)?;
        let placed = Held(types::hindexed(&[shape.subsizes[d]], &[start], inner)?);
        let whole = shape.sizes[d].checked_mul(unit).ok_or_else(overflow)?;
        level = Some(Held(types::resized(placed.handle(), 0, whole)?));
        unit = whole;
    }
    level.ok_or_else(|| MpiError::new(MPI_ERR_INTERN, "a subarray without dimensions"))
}

/// Resizes `level` to the bounds of `datatype` if the other library computed others, after
/// checking that it holds as many bytes of data.
fn fit_bounds(level: Held, datatype: &Datatype) -> MpiResult<Held> {
    let (lb, extent) = types::extent(level.0)?;
    let size: Count = types::size(level.0)?;
    if size != datatype.size() {
        return Err(MpiError::new(
            MPI_ERR_INTERN,
            format!(
                "the twin in the MPI library behind has {size} bytes of data, not {}",
                datatype.size()
            ),
        ));
    }
    if (lb, extent) == (datatype.lb(), datatype.extent()) {
        return Ok(level);
    }
    types::resized(level.0, datatype.lb(), datatype.extent()).map(Held)
}

// ---- numbers the program freed that the MPI behind still holds --------------------------

/// Twin numbers whose handle the program freed while the MPI behind still holds that type
/// (inside a type of its own), with the object each stands for: that library may hand the
/// number back (`MPI_Type_get_contents` of its type), and it still means this library's
/// object until that library destroys it (the watch, [`watched_copy`], tells when).
static RETIRED: LazyLock<Mutex<HandleMap<Arc<Datatype>>>> = LazyLock::new(Default::default);

/// How many numbers [`RETIRED`] holds, stored under its lock after each change: none (the
/// usual case) is known without the lock. A number is retired before the MPI behind may give it to a new type
/// (whose insert looks for it), and that library's handing it out orders the two.
static RETIRED_COUNT: AtomicUsize = AtomicUsize::new(0);

/// Objects of forgotten retired numbers, dropped by the next [`forget_forgotten`].
static FORGOTTEN: Mutex<Vec<Arc<Datatype>>> = Mutex::new(Vec::new());

/// Whether [`FORGOTTEN`] may hold objects (set under its lock when one is pushed).
static ANY_FORGOTTEN: AtomicBool = AtomicBool::new(false);

/// Remembers that the program freed the twin number `handle` of `datatype`: until the MPI
/// behind destroys its type, the number still stands for the object (when the MPI behind says
/// when that happens, [`watched`]).
pub fn retire(handle: MPI_Datatype, datatype: Arc<Datatype>) {
    if watched() {
        let mut retired = RETIRED.lock();
        retired.insert(handle, datatype);
        RETIRED_COUNT.store(retired.len(), Ordering::Release);
    }
}

/// The object a twin number the program freed still stands for in the MPI behind.
pub fn retired(handle: MPI_Datatype) -> Option<Arc<Datatype>> {
    if !has_behind_form(handle) || RETIRED_COUNT.load(Ordering::Acquire) == 0 {
        return None;
    }
    RETIRED.lock().get(&handle).cloned()
}

/// Forgets a retired twin number: the MPI behind destroyed its type, or gave the number to a
/// new one.
pub fn forget_retired(handle: MPI_Datatype) {
    // This may run inside the MPI behind (the delete callback of its type): the object is not
    // dropped here, where dropping the last reference would call that library again to
    // release the object's twins, but by the next [`forget_forgotten`].
    if RETIRED_COUNT.load(Ordering::Acquire) == 0 {
        return;
    }
    let gone = {
        let mut retired = RETIRED.lock();
        let gone = retired.remove(&handle);
        RETIRED_COUNT.store(retired.len(), Ordering::Release);
        gone
    };
    if let Some(gone) = gone {
        let mut forgotten = FORGOTTEN.lock();
        forgotten.push(gone);
        ANY_FORGOTTEN.store(true, Ordering::Release);
    }
}

/// Drops the objects of forgotten retired numbers (outside any call of the MPI behind).
pub fn forget_forgotten() {
    if !ANY_FORGOTTEN.load(Ordering::Acquire) {
        return;
    }
    let forgotten = {
        let mut forgotten = FORGOTTEN.lock();
        ANY_FORGOTTEN.store(false, Ordering::Relaxed);
        std::mem::take(&mut *forgotten)
    };
    drop(forgotten);
}
