//! Opening, closing and deleting files; their size, access mode, group, hints, atomicity,
//! error handlers.

use super::{default_handler, guard_file, with_file, DEFAULT_HANDLER};
use crate::abi::*;
use crate::error::{self, MpiError, MpiResult, Raised, UserHandler};
use crate::ffi::comm::groups::write_group;
use crate::ffi::comm::one_process_functions;
use crate::ffi::{check_comm, check_out, guard, with_datatype, write_out};
use crate::serial::files::{self, path_of, Access};
use std::ffi::{c_char, CStr};
use std::os::raw::c_int;

/// The access a file's `amode` asks for; `MPI_ERR_AMODE` for a combination the standard
/// forbids.
fn access_of(amode: c_int) -> MpiResult<Access> {
    let has = |bit: c_int| amode & bit != 0;
    let (read_only, write_only, read_write) = (
        has(MPI_MODE_RDONLY),
        has(MPI_MODE_WRONLY),
        has(MPI_MODE_RDWR),
    );
    let access = Access {
        read: read_only || read_write,
        write: write_only || read_write,
        create: has(MPI_MODE_CREATE),
        exclusive: has(MPI_MODE_EXCL),
        delete_on_close: has(MPI_MODE_DELETE_ON_CLOSE),
        append: has(MPI_MODE_APPEND),
        sequential: has(MPI_MODE_SEQUENTIAL),
    };
    let modes = [read_only, write_only, read_write]
        .iter()
        .filter(|&&m| m)
        .count();
    access.check(modes)?;
    Ok(access)
}

/// The file name a C string gives; `MPI_ERR_BAD_FILE` for NULL or an empty name.
///
/// # Safety
/// A non-NULL `filename` is a C string.
unsafe fn file_name(filename: *const c_char) -> MpiResult<String> {
    if filename.is_null() {
        return Err(MpiError::new(MPI_ERR_BAD_FILE, "the file name is NULL"));
    }
    // SAFETY: the caller's C string.
    let name = unsafe { CStr::from_ptr(filename) }
        .to_string_lossy()
        .into_owned();
    if name.is_empty() {
        return Err(MpiError::new(MPI_ERR_BAD_FILE, "the file name is empty"));
    }
    Ok(name)
}

/// `MPI_File_open` in the one-process world.
///
/// # Safety
/// As for the MPI function.
unsafe fn open(
    comm: MPI_Comm,
    filename: *const c_char,
    amode: c_int,
    info: MPI_Info,
    fh: *mut MPI_File,
) -> MpiResult<()> {
    check_comm(comm)?;
    check_out(fh, "fh")?;
    // SAFETY: the caller's C string.
    let name = unsafe { file_name(filename)? };
    let access = access_of(amode)?;
    let hints = crate::info::hints_of(info)?;
    let bytes = with_datatype(MPI_BYTE, std::sync::Arc::clone)?;
    let file = files::open(&name, (access, amode), hints, default_handler(), &bytes)?;
    let index = files::keep(file);
    let Some(handle) = own_file(index) else {
        files::take(index);
        return Err(MpiError::new(MPI_ERR_NO_MEM, "too many open files"));
    };
    // SAFETY: checked non-NULL above.
    unsafe { write_out(fh, handle, "fh") }
}

/// `MPI_File_close` in the one-process world: what was written is synced to storage (as
/// `MPI_File_sync`), the file goes (and its path, with `MPI_MODE_DELETE_ON_CLOSE`), and the
/// handle becomes `MPI_FILE_NULL`.
///
/// # Safety
/// As for the MPI function.
unsafe fn close(fh: *mut MPI_File) -> MpiResult<()> {
    // SAFETY: the caller's pointer.
    let handle = unsafe { crate::ffi::read_in(fh, "fh")? };
    let index = own_file_index(handle).ok_or_else(|| super::not_a_file(handle))?;
    let file = files::take(index).ok_or_else(|| super::not_a_file(handle))?;
    let (path, synced) = {
        let file = file.lock();
        let synced = match file.access.write {
            true => file.file.sync_all(),
            false => Ok(()),
        };
        (
            file.access.delete_on_close.then(|| file.path.clone()),
            synced,
        )
    };
    drop(file);
    synced.map_err(|e| files::io_error("syncing the file", &e))?;
    if let Some(path) = path {
        std::fs::remove_file(&path)
            .map_err(|e| files::io_error(&format!("deleting {}", path.display()), &e))?;
    }
    // SAFETY: read above.
    unsafe { write_out(fh, MPI_FILE_NULL, "fh") }
}

/// `MPI_File_delete` in the one-process world.
///
/// # Safety
/// As for the MPI function.
unsafe fn delete(filename: *const c_char, info: MPI_Info) -> MpiResult<()> {
    // SAFETY: the caller's C string.
    let name = unsafe { file_name(filename)? };
    crate::info::hints_of(info)?;
    std::fs::remove_file(path_of(&name))
        .map_err(|e| files::io_error(&format!("deleting {name:?}"), &e))
}

/// [`guard_file`] for a call on no file yet: errors go to `MPI_FILE_NULL`'s handler.
pub(super) fn guard_no_file(function: &'static str, body: impl FnOnce() -> MpiResult<()>) -> c_int {
    guard_file(function, MPI_FILE_NULL, body)
}

one_process_functions! {
    /// Opens the file `filename` for the processes of `comm` (the one process), as `amode`
    /// says; its handle goes to `fh`.
    fn MPI_File_open(comm: MPI_Comm, filename: *const c_char, amode: c_int, info: MPI_Info, fh: *mut MPI_File) via guard_no_file() {
        // SAFETY: the caller's pointers.
        unsafe { open(comm, filename, amode, info, fh) }
    }
    /// Closes the file; `*fh` becomes `MPI_FILE_NULL`.
    fn MPI_File_close(fh: *mut MPI_File) via guard_no_file() {
        // SAFETY: the caller's pointer.
        unsafe { close(fh) }
    }
    /// Deletes the file `filename`.
    fn MPI_File_delete(filename: *const c_char, info: MPI_Info) via guard_no_file() {
        // SAFETY: the caller's C string.
        unsafe { delete(filename, info) }
    }
    /// Truncates or extends the file to `size` bytes.
    fn MPI_File_set_size(fh: MPI_File, size: MPI_Offset) via guard_file(fh) {
        with_file(fh, |f| f.resize(size, false))
    }
    /// Extends the file to at least `size` bytes.
    fn MPI_File_preallocate(fh: MPI_File, size: MPI_Offset) via guard_file(fh) {
        with_file(fh, |f| f.resize(size, true))
    }
    /// The file's size in bytes.
    fn MPI_File_get_size(fh: MPI_File, size: *mut MPI_Offset) via guard_file(fh) {
        let bytes = with_file(fh, |f| f.size())?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(size, bytes, "size") }
    }
    /// The group of the processes that opened the file: the one process.
    fn MPI_File_get_group(fh: MPI_File, group: *mut MPI_Group) via guard_file(fh) {
        with_file(fh, |_| Ok(()))?;
        // SAFETY: the caller's pointer.
        unsafe { write_group(group, vec![0]) }
    }
    /// The access mode the file was opened with.
    fn MPI_File_get_amode(fh: MPI_File, amode: *mut c_int) via guard_file(fh) {
        let mode = with_file(fh, |f| Ok(f.amode))?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(amode, mode, "amode") }
    }
    /// Adds the hints of `info` to the file's.
    fn MPI_File_set_info(fh: MPI_File, info: MPI_Info) via guard_file(fh) {
        let hints = crate::info::hints_of(info)?;
        with_file(fh, |f| {
            for (key, value) in hints {
                crate::info::set(&mut f.info, key, value);
            }
            Ok(())
        })
    }
    /// A new info object with the file's hints.
    fn MPI_File_get_info(fh: MPI_File, info_used: *mut MPI_Info) via guard_file(fh) {
        check_out(info_used, "info_used")?;
        let hints = with_file(fh, |f| Ok(f.info.clone()))?;
        let info = crate::info::new_info(hints)?;
        // SAFETY: checked non-NULL above.
        unsafe { write_out(info_used, info, "info_used") }
    }
    /// Sets atomic mode (`flag` true) or not.
    fn MPI_File_set_atomicity(fh: MPI_File, flag: c_int) via guard_file(fh) {
        with_file(fh, |f| {
            f.atomic = flag != 0;
            Ok(())
        })
    }
    /// Whether the file is in atomic mode.
    fn MPI_File_get_atomicity(fh: MPI_File, flag: *mut c_int) via guard_file(fh) {
        let atomic = with_file(fh, |f| Ok(f.atomic))?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(flag, c_int::from(atomic), "flag") }
    }
    /// Writes what the process wrote to the file to its storage.
    fn MPI_File_sync(fh: MPI_File) via guard_file(fh) {
        with_file(fh, |f| {
            f.file.sync_all().map_err(|e| files::io_error("syncing the file", &e))
        })
    }
    /// Makes an error handler for files from a C function.
    fn MPI_File_create_errhandler(file_errhandler_fn: *mut MPI_File_errhandler_function, errhandler: *mut MPI_Errhandler) via guard() {
        // SAFETY: the program's function has the C type MPI_File_errhandler_function.
        let function: FileErrhandler = unsafe { super::callable(file_errhandler_fn) }.flatten();
        // SAFETY: the caller's pointer.
        unsafe { crate::ffi::make_errhandler(UserHandler::File(function), "file_errhandler_fn", errhandler) }
    }
    /// Attaches an error handler to the file (to `MPI_FILE_NULL`: the one errors on no file
    /// and files opened later get).
    fn MPI_File_set_errhandler(file: MPI_File, errhandler: MPI_Errhandler) via guard_file(file) {
        if !error::attachable(errhandler, |h| matches!(h, UserHandler::File(_))) {
            return Err(MpiError::arg(format!("{errhandler:#x} is not an error handler for files")));
        }
        if file == MPI_FILE_NULL {
            *DEFAULT_HANDLER.lock() = Some(errhandler);
            return Ok(());
        }
        with_file(file, |f| {
            f.errhandler = errhandler;
            Ok(())
        })
    }
    /// The error handler attached to the file (or to `MPI_FILE_NULL`).
    fn MPI_File_get_errhandler(file: MPI_File, errhandler: *mut MPI_Errhandler) via guard_file(file) {
        let handler = match file == MPI_FILE_NULL {
            true => default_handler(),
            false => with_file(file, |f| Ok(f.errhandler))?,
        };
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(errhandler, handler, "errhandler") }
    }
    /// Calls the file's error handler (or `MPI_FILE_NULL`'s) with `errorcode`.
    fn MPI_File_call_errhandler(fh: MPI_File, errorcode: c_int) via guard_file(fh) {
        let handler = match fh == MPI_FILE_NULL {
            true => default_handler(),
            false => with_file(fh, |f| Ok(f.errhandler))?,
        };
        crate::ffi::call_handler("MPI_File_call_errhandler", handler, errorcode, Raised::File(fh));
        Ok(())
    }
}
