//! Windows of one-sided communication: making them (`MPI_Win_create`, `_allocate`,
//! `_allocate_shared`, `_create_dynamic`, each with its `_c` form), attaching memory, freeing
//! them, their group, name, info, attributes, error handlers and shared memory, and the
//! synchronisation calls (fence; start, complete, post, wait, test; lock, unlock, lock_all,
//! unlock_all, flush and its kin, sync). In drop-in mode each is the MPI behind's; in the
//! one-process world the windows and their epochs are [`crate::serial::windows`], and the
//! calls that move data are in [`super::one_sided`].

use super::groups::{members_of, write_group};
use super::guard_on;
use crate::abi::*;
use crate::error::{self, MpiError, MpiResult, Raised, UserHandler};
use crate::ffi::{
    check_comm, check_out, guard, read_in, read_object_name, write_c_string, write_out,
};
use crate::keyvals::{self, Keyval, WIN_KEYS};
use crate::serial::windows::{self, Access, Epochs, Flavor, Memory, Predefined, Window};
use std::ffi::{c_char, c_void};
use std::os::raw::c_int;

/// The error of a handle that is no window.
fn not_a_window(win: MPI_Win) -> MpiError {
    MpiError::new(MPI_ERR_WIN, format!("{win:#x} is not a window"))
}

/// Runs `f` on the window `win`; `MPI_ERR_WIN` if it is none.
pub(super) fn with_window<R>(
    win: MPI_Win,
    f: impl FnOnce(&mut Window) -> MpiResult<R>,
) -> MpiResult<R> {
    let index = own_win_index(win).ok_or_else(|| not_a_window(win))?;
    windows::with(index, f).ok_or_else(|| not_a_window(win))?
}

/// Runs `f` on the epochs of `win`.
fn with_epochs<R>(win: MPI_Win, f: impl FnOnce(&mut Epochs) -> MpiResult<R>) -> MpiResult<R> {
    with_window(win, |w| f(&mut w.epochs))
}

/// [`guard`] for a call on the window `win`: its error is raised on the window's error
/// handler (on the default one if `win` is not a window).
pub(super) fn guard_win(
    function: &'static str,
    win: MPI_Win,
    body: impl FnOnce() -> MpiResult<()>,
) -> c_int {
    let handler = || with_window(win, |w| Ok(w.errhandler));
    super::guard_object(function, (Raised::Win(win), handler), body)
}

/// Whether a call aims at the one process: true for rank 0, false for `MPI_PROC_NULL` (the
/// call does nothing), `MPI_ERR_RANK` for any other rank.
pub(super) fn targets_self(rank: c_int) -> MpiResult<bool> {
    match rank {
        0 => Ok(true),
        MPI_PROC_NULL => Ok(false),
        _ => Err(MpiError::new(
            MPI_ERR_RANK,
            format!("rank {rank} is not in the window's group of one process"),
        )),
    }
}

/// The number `MPI_WIN_CREATE_FLAVOR` gives a flavor.
fn flavor_value(flavor: Flavor) -> c_int {
    match flavor {
        Flavor::Create => MPI_WIN_FLAVOR_CREATE,
        Flavor::Allocate => MPI_WIN_FLAVOR_ALLOCATE,
        Flavor::Shared => MPI_WIN_FLAVOR_SHARED,
        Flavor::Dynamic => MPI_WIN_FLAVOR_DYNAMIC,
    }
}

/// Makes a window over `memory` for the processes of `comm` and writes its handle through
/// `win`; `baseptr`, if not NULL, receives its base address (`MPI_Win_allocate`).
///
/// # Safety
/// `win` and a non-NULL `baseptr` (a `void **`) are writable.
unsafe fn make(
    (memory, flavor): (Memory, Flavor),
    disp_unit: i64,
    info: MPI_Info,
    comm: MPI_Comm,
    (baseptr, win): (*mut c_void, *mut MPI_Win),
) -> MpiResult<()> {
    check_comm(comm)?;
    check_out(win, "win")?;
    if disp_unit <= 0 {
        return Err(MpiError::new(
            MPI_ERR_DISP,
            format!("disp_unit {disp_unit} is not positive"),
        ));
    }
    let disp_unit_int = c_int::try_from(disp_unit).map_err(|_| {
        MpiError::new(
            MPI_ERR_DISP,
            format!("disp_unit {disp_unit} does not fit an int"),
        )
    })?;
    let hints = crate::info::hints_of(info)?;
    let base = memory.base();
    let predefined = Box::new(Predefined {
        size: memory.size() as MPI_Aint,
        disp_unit: disp_unit_int,
        flavor: flavor_value(flavor),
        model: MPI_WIN_UNIFIED,
    });
    let index = windows::keep(Window {
        memory,
        disp_unit,
        flavor,
        name: String::new(),
        errhandler: MPI_ERRORS_ARE_FATAL,
        attributes: Vec::new(),
        info: hints,
        epochs: Epochs::default(),
        predefined,
    });
    let Some(handle) = own_win(index) else {
        windows::free(index);
        return Err(MpiError::new(MPI_ERR_NO_MEM, "too many windows"));
    };
    if !baseptr.is_null() {
        // SAFETY: the caller's `void **`.
        unsafe {
            baseptr
                .cast::<*mut c_void>()
                .write(std::ptr::with_exposed_provenance_mut(base))
        };
    }
    // SAFETY: checked non-NULL above.
    unsafe { write_out(win, handle, "win") }
}

/// The bytes a window is asked to have; `MPI_ERR_SIZE` if negative.
fn window_size(size: MPI_Aint) -> MpiResult<usize> {
    usize::try_from(size)
        .map_err(|_| MpiError::new(MPI_ERR_SIZE, format!("size {size} is negative")))
}

/// `MPI_Win_create` and `_c`: a window over the program's `size` bytes at `base`.
///
/// # Safety
/// As for the MPI functions.
unsafe fn create(
    (base, size, disp_unit): (*mut c_void, MPI_Aint, i64),
    info: MPI_Info,
    comm: MPI_Comm,
    win: *mut MPI_Win,
) -> MpiResult<()> {
    let size = window_size(size)?;
    let memory = Memory::Program {
        base: base.expose_provenance(),
        size,
    };
    // SAFETY: the caller's pointers.
    unsafe {
        make(
            (memory, Flavor::Create),
            disp_unit,
            info,
            comm,
            (std::ptr::null_mut(), win),
        )
    }
}

/// `MPI_Win_allocate`, `_allocate_shared` and their `_c` forms: a window over `size` bytes the
/// library allocates, whose address goes to `baseptr`.
///
/// # Safety
/// As for the MPI functions.
unsafe fn allocate(
    (size, disp_unit, flavor): (MPI_Aint, i64, Flavor),
    info: MPI_Info,
    comm: MPI_Comm,
    (baseptr, win): (*mut c_void, *mut MPI_Win),
) -> MpiResult<()> {
    check_out(baseptr, "baseptr")?;
    let memory = Memory::allocate(window_size(size)?);
    // SAFETY: the caller's pointers.
    unsafe { make((memory, flavor), disp_unit, info, comm, (baseptr, win)) }
}

one_process_functions! {
    /// Makes a window over the program's `size` bytes at `base`.
    fn MPI_Win_create(base: *mut c_void, size: MPI_Aint, disp_unit: c_int, info: MPI_Info, comm: MPI_Comm, win: *mut MPI_Win) via guard_on(comm) {
        // SAFETY: the caller's pointers.
        unsafe { create((base, size, disp_unit.into()), info, comm, win) }
    }
    /// `MPI_Win_create` with an `MPI_Aint` displacement unit.
    fn MPI_Win_create_c(base: *mut c_void, size: MPI_Aint, disp_unit: MPI_Aint, info: MPI_Info, comm: MPI_Comm, win: *mut MPI_Win) as MPI_Win_create via guard_on(comm) {
        // SAFETY: the caller's pointers.
        unsafe { create((base, size, disp_unit), info, comm, win) }
    }
    /// Makes a window over `size` bytes the library allocates; their address goes to
    /// `baseptr` (a `void **`).
    fn MPI_Win_allocate(size: MPI_Aint, disp_unit: c_int, info: MPI_Info, comm: MPI_Comm, baseptr: *mut c_void, win: *mut MPI_Win) via guard_on(comm) {
        // SAFETY: the caller's pointers.
        unsafe { allocate((size, disp_unit.into(), Flavor::Allocate), info, comm, (baseptr, win)) }
    }
    /// `MPI_Win_allocate` with an `MPI_Aint` displacement unit.
    fn MPI_Win_allocate_c(size: MPI_Aint, disp_unit: MPI_Aint, info: MPI_Info, comm: MPI_Comm, baseptr: *mut c_void, win: *mut MPI_Win) as MPI_Win_allocate via guard_on(comm) {
        // SAFETY: the caller's pointers.
        unsafe { allocate((size, disp_unit, Flavor::Allocate), info, comm, (baseptr, win)) }
    }
    /// Makes a window over `size` bytes of memory the processes share (the one process's).
    fn MPI_Win_allocate_shared(size: MPI_Aint, disp_unit: c_int, info: MPI_Info, comm: MPI_Comm, baseptr: *mut c_void, win: *mut MPI_Win) via guard_on(comm) {
        // SAFETY: the caller's pointers.
        unsafe { allocate((size, disp_unit.into(), Flavor::Shared), info, comm, (baseptr, win)) }
    }
    /// `MPI_Win_allocate_shared` with an `MPI_Aint` displacement unit.
    fn MPI_Win_allocate_shared_c(size: MPI_Aint, disp_unit: MPI_Aint, info: MPI_Info, comm: MPI_Comm, baseptr: *mut c_void, win: *mut MPI_Win) as MPI_Win_allocate_shared via guard_on(comm) {
        // SAFETY: the caller's pointers.
        unsafe { allocate((size, disp_unit, Flavor::Shared), info, comm, (baseptr, win)) }
    }
    /// Makes a window with no memory, to which the program attaches regions; its target
    /// displacements are addresses.
    fn MPI_Win_create_dynamic(info: MPI_Info, comm: MPI_Comm, win: *mut MPI_Win) via guard_on(comm) {
        let memory = (Memory::Attached(Vec::new()), Flavor::Dynamic);
        // SAFETY: the caller's pointer.
        unsafe { make(memory, 1, info, comm, (std::ptr::null_mut(), win)) }
    }
    /// Attaches the `size` bytes at `base` to a dynamic window.
    fn MPI_Win_attach(win: MPI_Win, base: *mut c_void, size: MPI_Aint) via guard_win(win) {
        let size = window_size(size)?;
        let start = base.expose_provenance();
        with_window(win, |w| {
            let Memory::Attached(regions) = &mut w.memory else {
                return Err(MpiError::new(MPI_ERR_RMA_FLAVOR, "the window is not dynamic"));
            };
            let end = start.checked_add(size).ok_or_else(|| MpiError::new(MPI_ERR_RMA_ATTACH, "the region wraps around the address space"))?;
            if regions.iter().any(|&(b, s)| start < b + s && b < end) {
                return Err(MpiError::new(MPI_ERR_RMA_ATTACH, "the region overlaps one already attached"));
            }
            regions.push((start, size));
            Ok(())
        })
    }
    /// Detaches the region attached at `base` from a dynamic window.
    fn MPI_Win_detach(win: MPI_Win, base: *const c_void) via guard_win(win) {
        let start = base.expose_provenance();
        with_window(win, |w| {
            let Memory::Attached(regions) = &mut w.memory else {
                return Err(MpiError::new(MPI_ERR_RMA_FLAVOR, "the window is not dynamic"));
            };
            let at = regions.iter().position(|&(b, _)| b == start).ok_or_else(|| {
                MpiError::new(MPI_ERR_RMA_ATTACH, format!("no region is attached at {start:#x}"))
            })?;
            regions.remove(at);
            Ok(())
        })
    }
    /// Frees a window (outside any lock, start or post epoch), deleting its attributes last
    /// set first, and sets the handle to `MPI_WIN_NULL`.
    fn MPI_Win_free(win: *mut MPI_Win) via guard() {
        // SAFETY: the caller's in-out argument.
        let handle = unsafe { read_in(win, "win")? };
        with_epochs(handle, |e| e.closed())?;
        let attributes = with_window(handle, |w| Ok(w.attributes.clone()))?;
        for (key, value) in attributes.into_iter().rev() {
            run_delete(handle, key, value)?;
            with_window(handle, |w| Ok(keyvals::uncache(&mut w.attributes, key)))?;
            WIN_KEYS.release(key);
        }
        own_win_index(handle).and_then(windows::free);
        // SAFETY: read above, so valid.
        unsafe { write_out(win, MPI_WIN_NULL, "win") }
    }
    /// The group of the window's processes (a new group handle, to be freed).
    fn MPI_Win_get_group(win: MPI_Win, group: *mut MPI_Group) via guard_win(win) {
        with_window(win, |_| Ok(()))?;
        // SAFETY: the caller's pointer.
        unsafe { write_group(group, vec![0]) }
    }
    /// Names the window.
    fn MPI_Win_set_name(win: MPI_Win, win_name: *const c_char) via guard_win(win) {
        // SAFETY: the caller's C string.
        let name = unsafe { read_object_name(win_name, "win_name")? };
        with_window(win, |w| {
            w.name = name;
            Ok(())
        })
    }
    /// The window's name (empty until set).
    fn MPI_Win_get_name(win: MPI_Win, win_name: *mut c_char, resultlen: *mut c_int) via guard_win(win) {
        let name = with_window(win, |w| Ok(w.name.clone()))?;
        // SAFETY: the caller's buffers of MPI_MAX_OBJECT_NAME bytes and an int.
        unsafe { write_c_string(win_name, resultlen, &name, MPI_MAX_OBJECT_NAME) }
    }
    /// Adds the hints of `info` to the window's.
    fn MPI_Win_set_info(win: MPI_Win, info: MPI_Info) via guard_win(win) {
        let hints = crate::info::hints_of(info)?;
        with_window(win, |w| {
            for (key, value) in hints {
                crate::info::set(&mut w.info, key, value);
            }
            Ok(())
        })
    }
    /// A new info object with the window's hints.
    fn MPI_Win_get_info(win: MPI_Win, info_used: *mut MPI_Info) via guard_win(win) {
        check_out(info_used, "info_used")?;
        let hints = with_window(win, |w| Ok(w.info.clone()))?;
        let info = crate::info::new_info(hints)?;
        // SAFETY: checked non-NULL above.
        unsafe { write_out(info_used, info, "info_used") }
    }
    /// The size, displacement unit and base address of the window's memory at `rank` (the
    /// one process; `MPI_PROC_NULL` for the first process with memory).
    fn MPI_Win_shared_query(win: MPI_Win, rank: c_int, size: *mut MPI_Aint, disp_unit: *mut c_int, baseptr: *mut c_void) via guard_win(win) {
        let (bytes, unit, base) = shared_memory(win, rank)?;
        let unit = c_int::try_from(unit).map_err(|_| MpiError::new(MPI_ERR_DISP, "the displacement unit does not fit an int"))?;
        // SAFETY: the caller's pointers.
        unsafe { write_shared(size, (disp_unit, unit), baseptr, (bytes, base)) }
    }
    /// `MPI_Win_shared_query` with an `MPI_Aint` displacement unit.
    fn MPI_Win_shared_query_c(win: MPI_Win, rank: c_int, size: *mut MPI_Aint, disp_unit: *mut MPI_Aint, baseptr: *mut c_void) as MPI_Win_shared_query via guard_win(win) {
        let (bytes, unit, base) = shared_memory(win, rank)?;
        // SAFETY: the caller's pointers.
        unsafe { write_shared(size, (disp_unit, unit as MPI_Aint), baseptr, (bytes, base)) }
    }
}

/// The size, displacement unit and base address of the memory of `win` at `rank`: its own
/// (the one process shares its memory with itself), or none for a dynamic window.
fn shared_memory(win: MPI_Win, rank: c_int) -> MpiResult<(MPI_Aint, i64, usize)> {
    targets_self(rank)?;
    with_window(win, |w| {
        Ok((w.memory.size() as MPI_Aint, w.disp_unit, w.memory.base()))
    })
}

/// Writes the answers of `MPI_Win_shared_query`.
///
/// # Safety
/// Non-NULL pointers are writable; `baseptr` is a `void **`.
unsafe fn write_shared<U>(
    size: *mut MPI_Aint,
    (disp_unit, unit): (*mut U, U),
    baseptr: *mut c_void,
    (bytes, base): (MPI_Aint, usize),
) -> MpiResult<()> {
    check_out(baseptr, "baseptr")?;
    // SAFETY: the caller's pointers.
    unsafe {
        write_out(size, bytes, "size")?;
        write_out(disp_unit, unit, "disp_unit")?;
        baseptr
            .cast::<*mut c_void>()
            .write(std::ptr::with_exposed_provenance_mut(base));
    }
    Ok(())
}

/// Runs the delete callback of `key` for `value` cached on `win`.
fn run_delete(win: MPI_Win, key: c_int, value: usize) -> MpiResult<()> {
    let k = WIN_KEYS.get_cached(key)?;
    keyvals::call_delete(k.delete, win, key, value, k.extra_state)
}

/// The value `MPI_Win_get_attr` gives for a predefined key of `window`, if `key` is one: the
/// base address itself, or the address of the size, displacement unit, flavor or model.
fn predefined(window: &Window, key: c_int) -> Option<usize> {
    let values = &*window.predefined;
    Some(match key {
        MPI_WIN_BASE => window.memory.base(),
        MPI_WIN_SIZE => std::ptr::from_ref(&values.size).expose_provenance(),
        MPI_WIN_DISP_UNIT => std::ptr::from_ref(&values.disp_unit).expose_provenance(),
        MPI_WIN_CREATE_FLAVOR => std::ptr::from_ref(&values.flavor).expose_provenance(),
        MPI_WIN_MODEL => std::ptr::from_ref(&values.model).expose_provenance(),
        _ => return None,
    })
}

one_process_functions! {
    /// Creates an attribute key for windows with the given callbacks (a window is never
    /// duplicated, so the copy callback never runs).
    fn MPI_Win_create_keyval(win_copy_attr_fn: MPI_Win_copy_attr_function, win_delete_attr_fn: MPI_Win_delete_attr_function, win_keyval: *mut c_int, extra_state: *mut c_void) via guard() {
        check_out(win_keyval, "win_keyval")?;
        let key = WIN_KEYS.create(Keyval {
            copy: win_copy_attr_fn,
            delete: win_delete_attr_fn,
            extra_state: extra_state as usize,
        })?;
        // SAFETY: checked non-NULL above.
        unsafe { write_out(win_keyval, key, "win_keyval") }
    }
    /// Frees a window attribute key and sets it to `MPI_KEYVAL_INVALID`.
    fn MPI_Win_free_keyval(win_keyval: *mut c_int) via guard() {
        // SAFETY: the caller's in-out argument.
        WIN_KEYS.free(unsafe { read_in(win_keyval, "win_keyval")? })?;
        // SAFETY: read above, so valid.
        unsafe { write_out(win_keyval, MPI_KEYVAL_INVALID, "win_keyval") }
    }
    /// Caches `attribute_val` on the window under `win_keyval`, deleting any previous value.
    fn MPI_Win_set_attr(win: MPI_Win, win_keyval: c_int, attribute_val: *mut c_void) via guard_win(win) {
        with_window(win, |_| Ok(()))?;
        WIN_KEYS.retain(win_keyval, true)?;
        let previous = with_window(win, |w| Ok(keyvals::cache(&mut w.attributes, win_keyval, attribute_val as usize)));
        match previous.inspect_err(|_| WIN_KEYS.release(win_keyval))? {
            Some(value) => {
                // The new value replaces the old one: the key has one use, not two.
                WIN_KEYS.release(win_keyval);
                run_delete(win, win_keyval, value)
            }
            None => Ok(()),
        }
    }
    /// Deletes the value cached on the window under `win_keyval`, running its delete callback.
    fn MPI_Win_delete_attr(win: MPI_Win, win_keyval: c_int) via guard_win(win) {
        with_window(win, |_| Ok(()))?;
        WIN_KEYS.get(win_keyval)?;
        match with_window(win, |w| Ok(keyvals::uncache(&mut w.attributes, win_keyval)))? {
            Some(value) => {
                let deleted = run_delete(win, win_keyval, value);
                WIN_KEYS.release(win_keyval);
                deleted
            }
            None => Ok(()),
        }
    }
    /// Reads the attribute of the window under `win_keyval` into `attribute_val` (a `void **`
    /// passed as `void *`): a value the program cached, or for a predefined key
    /// (`MPI_WIN_BASE`, `MPI_WIN_SIZE`, `MPI_WIN_DISP_UNIT`, `MPI_WIN_CREATE_FLAVOR`,
    /// `MPI_WIN_MODEL`) the base address or the address of the value. `*flag` tells whether
    /// there is one.
    fn MPI_Win_get_attr(win: MPI_Win, win_keyval: c_int, attribute_val: *mut c_void, flag: *mut c_int) via guard_win(win) {
        check_out(attribute_val, "attribute_val")?;
        check_out(flag, "flag")?;
        let found = with_window(win, |w| match predefined(w, win_keyval) {
            Some(value) => Ok(Some(value)),
            None => {
                WIN_KEYS.get(win_keyval)?;
                Ok(keyvals::cached(&w.attributes, win_keyval))
            }
        })?;
        if let Some(value) = found {
            // SAFETY: checked non-NULL; attribute_val points to a `void *`.
            unsafe { attribute_val.cast::<*mut c_void>().write(std::ptr::with_exposed_provenance_mut(value)) };
        }
        // SAFETY: checked non-NULL above.
        unsafe { write_out(flag, c_int::from(found.is_some()), "flag") }
    }
}

one_process_functions! {
    /// Makes an error handler for windows from a C function.
    fn MPI_Win_create_errhandler(win_errhandler_fn: MPI_Win_errhandler_function, errhandler: *mut MPI_Errhandler) via guard() {
        // SAFETY: the caller's pointer.
        unsafe { crate::ffi::make_errhandler(UserHandler::Win(win_errhandler_fn), "win_errhandler_fn", errhandler) }
    }
    /// Attaches an error handler to the window.
    fn MPI_Win_set_errhandler(win: MPI_Win, errhandler: MPI_Errhandler) via guard_win(win) {
        if !error::attachable(errhandler, |h| matches!(h, UserHandler::Win(_))) {
            return Err(MpiError::arg(format!("{errhandler:#x} is not an error handler for windows")));
        }
        with_window(win, |w| {
            w.errhandler = errhandler;
            Ok(())
        })
    }
    /// The error handler attached to the window.
    fn MPI_Win_get_errhandler(win: MPI_Win, errhandler: *mut MPI_Errhandler) via guard_win(win) {
        let handler = with_window(win, |w| Ok(w.errhandler))?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(errhandler, handler, "errhandler") }
    }
    /// Calls the window's error handler with `errorcode`.
    fn MPI_Win_call_errhandler(win: MPI_Win, errorcode: c_int) via guard_win(win) {
        let handler = with_window(win, |w| Ok(w.errhandler))?;
        crate::ffi::call_handler("MPI_Win_call_errhandler", handler, errorcode, Raised::Win(win));
        Ok(())
    }
}

/// Whether a group of processes (`MPI_Win_start`, `MPI_Win_post`) has the one process.
fn has_self(group: MPI_Group) -> MpiResult<bool> {
    Ok(members_of(group)?.contains(&0))
}

one_process_functions! {
    /// Ends the fence epoch of the window and, unless `assert` has `MPI_MODE_NOSUCCEED`,
    /// opens the next.
    fn MPI_Win_fence(assert: c_int, win: MPI_Win) via guard_win(win) {
        with_epochs(win, |e| e.fence(assert & MPI_MODE_NOSUCCEED == 0))
    }
    /// Opens an access epoch to the processes of `group`.
    fn MPI_Win_start(group: MPI_Group, assert: c_int, win: MPI_Win) via guard_win(win) {
        let _ = assert;
        let to_self = has_self(group)?;
        with_epochs(win, |e| e.open_access(Access::Start { to_self }))
    }
    /// Ends the access epoch of `MPI_Win_start`.
    fn MPI_Win_complete(win: MPI_Win) via guard_win(win) {
        with_epochs(win, Epochs::complete)
    }
    /// Opens an exposure epoch to the processes of `group`.
    fn MPI_Win_post(group: MPI_Group, assert: c_int, win: MPI_Win) via guard_win(win) {
        let _ = assert;
        let from_self = has_self(group)?;
        with_epochs(win, |e| e.post(from_self))
    }
    /// Ends the exposure epoch of `MPI_Win_post`, once every origin has completed.
    fn MPI_Win_wait(win: MPI_Win) via guard_win(win) {
        with_epochs(win, |e| e.finish_exposure(true)).map(drop)
    }
    /// Ends the exposure epoch of `MPI_Win_post` if every origin has completed; `*flag` says
    /// whether it did.
    fn MPI_Win_test(win: MPI_Win, flag: *mut c_int) via guard_win(win) {
        check_out(flag, "flag")?;
        let done = with_epochs(win, |e| e.finish_exposure(false))?;
        // SAFETY: checked non-NULL above.
        unsafe { write_out(flag, c_int::from(done), "flag") }
    }
    /// Opens a passive-target epoch to `rank` with a lock of `lock_type`.
    fn MPI_Win_lock(lock_type: c_int, rank: c_int, assert: c_int, win: MPI_Win) via guard_win(win) {
        let _ = assert;
        if lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED {
            return Err(MpiError::new(MPI_ERR_LOCKTYPE, format!("{lock_type} is not MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED")));
        }
        with_window(win, |_| Ok(()))?;
        if targets_self(rank)? {
            with_epochs(win, |e| e.open_access(Access::Lock))?;
        }
        Ok(())
    }
    /// Ends the passive-target epoch to `rank`.
    fn MPI_Win_unlock(rank: c_int, win: MPI_Win) via guard_win(win) {
        with_window(win, |_| Ok(()))?;
        if targets_self(rank)? {
            with_epochs(win, |e| e.unlock(false))?;
        }
        Ok(())
    }
    /// Opens a passive-target epoch to every process with a shared lock.
    fn MPI_Win_lock_all(assert: c_int, win: MPI_Win) via guard_win(win) {
        let _ = assert;
        with_epochs(win, |e| e.open_access(Access::LockAll))
    }
    /// Ends the passive-target epoch of `MPI_Win_lock_all`.
    fn MPI_Win_unlock_all(win: MPI_Win) via guard_win(win) {
        with_epochs(win, |e| e.unlock(true))
    }
    /// Completes the operations to `rank` (each is complete when it is called).
    fn MPI_Win_flush(rank: c_int, win: MPI_Win) via guard_win(win) {
        targets_self(rank)?;
        with_epochs(win, |e| e.passive("MPI_Win_flush"))
    }
    /// Completes the operations to every process.
    fn MPI_Win_flush_all(win: MPI_Win) via guard_win(win) {
        with_epochs(win, |e| e.passive("MPI_Win_flush_all"))
    }
    /// Completes the operations to `rank` at the origin.
    fn MPI_Win_flush_local(rank: c_int, win: MPI_Win) via guard_win(win) {
        targets_self(rank)?;
        with_epochs(win, |e| e.passive("MPI_Win_flush_local"))
    }
    /// Completes the operations to every process at the origin.
    fn MPI_Win_flush_local_all(win: MPI_Win) via guard_win(win) {
        with_epochs(win, |e| e.passive("MPI_Win_flush_local_all"))
    }
    /// Makes the public and private copies of the window agree (they are one: the model is
    /// unified).
    fn MPI_Win_sync(win: MPI_Win) via guard_win(win) {
        with_window(win, |_| Ok(()))
    }
}
