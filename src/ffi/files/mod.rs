//! MPI-IO (`MPI_File_*`), in the builds of MPICH's ABI and of the standard ABI. In drop-in
//! mode each function is the MPI behind's (ROMIO's); standalone, the one-process world's,
//! whose files are [`crate::serial::files`]: local files read and written through their views
//! by the pack engine.
//!
//! - [`manage`]: opening, closing and deleting files, their size, access mode, group, hints,
//!   atomicity and error handlers; [`fortran`]: their Fortran numbers;
//! - [`datarep`]: data representations of the program's own;
//! - [`view`]: views, file pointers and offsets;
//! - [`access`]: reading and writing, at explicit offsets and through the individual and
//!   shared pointers, blocking, nonblocking, collective and split collective.
//!
//! An error of a call on a file goes to that file's error handler; one on no file (a failed
//! `MPI_File_open`, `MPI_File_delete`, a call on `MPI_FILE_NULL`) to the handler of
//! `MPI_FILE_NULL`. Both start as `MPI_ERRORS_RETURN`, as the standard says.

pub mod access;
pub mod datarep;
pub mod fortran;
pub mod manage;
pub mod view;

use crate::abi::{own_file_index, MPI_Errhandler, MPI_File, MPI_ERRORS_RETURN, MPI_ERR_FILE};
use crate::error::{MpiError, MpiResult, Raised};
use crate::serial::files::{self, OpenFile};
use parking_lot::Mutex;
use std::os::raw::c_int;

/// The error handler of `MPI_FILE_NULL` once the program sets one (before, it is
/// `MPI_ERRORS_RETURN`, a handle Open MPI's ABI knows only once the program is loaded): files
/// opened get it, and errors on no file go to it.
static DEFAULT_HANDLER: Mutex<Option<MPI_Errhandler>> = Mutex::new(None);

/// The handler of `MPI_FILE_NULL`.
fn default_handler() -> MPI_Errhandler {
    DEFAULT_HANDLER.lock().unwrap_or(MPI_ERRORS_RETURN)
}

/// The error of a handle that names no open file.
fn not_a_file(fh: MPI_File) -> MpiError {
    MpiError::new(MPI_ERR_FILE, format!("{fh:#x} is not an open file"))
}

/// The index of the open file `fh` in the one-process world's table (whether a file is open
/// there is for the caller to see); `MPI_ERR_FILE` for a handle of no file's form.
fn file_index(fh: MPI_File) -> MpiResult<usize> {
    own_file_index(fh).ok_or_else(|| not_a_file(fh))
}

/// Runs `f` on the open file `fh`; `MPI_ERR_FILE` if it is none.
fn with_file<R>(fh: MPI_File, f: impl FnOnce(&mut OpenFile) -> MpiResult<R>) -> MpiResult<R> {
    files::with(file_index(fh)?, f).ok_or_else(|| not_a_file(fh))?
}

/// [`crate::ffi::guard`] for a call on the file `fh`: its error is raised on the file's error
/// handler, or on `MPI_FILE_NULL`'s if `fh` is no open file.
fn guard_file(function: &'static str, fh: MPI_File, body: impl FnOnce() -> MpiResult<()>) -> c_int {
    let Err(error) = crate::ffi::checked(body) else {
        return crate::abi::MPI_SUCCESS;
    };
    let handler = with_file(fh, |f| Ok(f.errhandler)).unwrap_or_else(|_| default_handler());
    crate::ffi::raise_on(function, error, handler, Raised::File(fh))
}

/// The callable form of a pointer to a C function of type `F`, or `None` for NULL.
///
/// # Safety
/// `pointer` is NULL or points to a C function whose signature `Callable` (a function
/// pointer type) spells.
pub(super) unsafe fn callable<F, Callable: Copy>(pointer: *mut F) -> Option<Callable> {
    assert_eq!(
        std::mem::size_of::<Callable>(),
        std::mem::size_of::<*mut F>()
    );
    // SAFETY: the caller's contract; a function pointer has the size of a data pointer here.
    (!pointer.is_null()).then(|| unsafe { std::mem::transmute_copy::<*mut F, Callable>(&pointer) })
}
