//! Sessions (MPI-4.1 §11.3): `MPI_Session_init` and `_finalize`, their process sets
//! (`MPI_Session_get_num_psets`, `_get_nth_pset`, `_get_pset_info`,
//! `MPI_Group_from_session_pset`), `MPI_Comm_create_from_group`, their info and their error
//! handlers. In drop-in mode each is the MPI behind's; in the one-process world the sessions
//! are [`crate::serial::sessions`], and both process sets, `mpi://WORLD` and `mpi://SELF`,
//! hold the one process.

use super::communicators::{make_none, make_with};
use super::groups::{members_of, write_group};
use crate::abi::*;
use crate::error::{self, MpiError, MpiResult, Raised, UserHandler};
use crate::ffi::{check_out, guard, read_in, read_object_name, write_out};
use crate::serial::comms;
use crate::serial::sessions::{self, process_set, Session, PROCESS_SETS};
use std::ffi::{c_char, CStr};
use std::os::raw::c_int;

/// The error of a handle that is no session.
fn not_a_session(session: MPI_Session) -> MpiError {
    MpiError::new(MPI_ERR_SESSION, format!("{session:#x} is not a session"))
}

/// Runs `f` on the session `session`; `MPI_ERR_SESSION` if it is none.
fn with_session<R>(session: MPI_Session, f: impl FnOnce(&mut Session) -> R) -> MpiResult<R> {
    let index = own_session_index(session).ok_or_else(|| not_a_session(session))?;
    sessions::with(index, f).ok_or_else(|| not_a_session(session))
}

/// [`guard`] for a call on `session`: its error is raised on the session's error handler (on
/// the default one if `session` is not a session).
fn guard_session(
    function: &'static str,
    session: MPI_Session,
    body: impl FnOnce() -> MpiResult<()>,
) -> c_int {
    let handler = || with_session(session, |s| s.errhandler);
    super::guard_object(function, (Raised::Session(session), handler), body)
}

/// The process set named by the C string `name`; `MPI_ERR_ARG` for a name of none.
///
/// # Safety
/// A non-NULL `name` is a NUL-terminated string.
unsafe fn named_set(name: *const c_char) -> MpiResult<&'static str> {
    check_out(name, "pset_name")?;
    // SAFETY: the caller's contract.
    let name = unsafe { CStr::from_ptr(name) }.to_string_lossy();
    process_set(&name).ok_or_else(|| {
        MpiError::arg(format!(
            "{name} is not a process set (there are {})",
            PROCESS_SETS.join(" and ")
        ))
    })
}

/// True if `errhandler` may be attached to a session.
fn session_handler(errhandler: MPI_Errhandler) -> bool {
    error::attachable(errhandler, |h| matches!(h, UserHandler::Session(_)))
}

one_process_functions! {
    /// Starts a session with the error handler `errhandler` and the hints of `info`.
    fn MPI_Session_init(info: MPI_Info, errhandler: MPI_Errhandler, session: *mut MPI_Session) via guard() {
        check_out(session, "session")?;
        if !session_handler(errhandler) {
            return Err(MpiError::arg(format!("{errhandler:#x} is not an error handler for sessions")));
        }
        let hints = crate::info::hints_of(info)?;
        let index = sessions::keep(Session { errhandler, info: hints });
        let Some(handle) = own_session(index) else {
            sessions::free(index);
            return Err(MpiError::new(MPI_ERR_NO_MEM, "too many sessions"));
        };
        // SAFETY: checked non-NULL above.
        unsafe { write_out(session, handle, "session") }
    }
    /// Ends a session and sets its handle to `MPI_SESSION_NULL`.
    fn MPI_Session_finalize(session: *mut MPI_Session) via guard() {
        // SAFETY: the caller's in-out argument.
        let handle = unsafe { read_in(session, "session")? };
        let index = own_session_index(handle).ok_or_else(|| not_a_session(handle))?;
        if !sessions::free(index) {
            return Err(not_a_session(handle));
        }
        // SAFETY: read above, so valid.
        unsafe { write_out(session, MPI_SESSION_NULL, "session") }
    }
    /// The number of process sets.
    fn MPI_Session_get_num_psets(session: MPI_Session, info: MPI_Info, npset_names: *mut c_int) via guard_session(session) {
        let _ = info;
        with_session(session, |_| ())?;
        // SAFETY: the caller's pointer.
        unsafe { write_out(npset_names, PROCESS_SETS.len() as c_int, "npset_names") }
    }
    /// The name of the `n`-th process set, into `pset_name` of `*pset_len` bytes; `*pset_len`
    /// becomes the bytes the name takes with its NUL (a `*pset_len` of 0 asks only that).
    fn MPI_Session_get_nth_pset(session: MPI_Session, info: MPI_Info, n: c_int, pset_len: *mut c_int, pset_name: *mut c_char) via guard_session(session) {
        let _ = info;
        with_session(session, |_| ())?;
        let name = usize::try_from(n).ok().and_then(|n| PROCESS_SETS.get(n)).ok_or_else(|| {
            MpiError::arg(format!("there is no process set {n} (there are {})", PROCESS_SETS.len()))
        })?;
        // SAFETY: the caller's in-out length.
        let room = unsafe { read_in(pset_len.cast_const(), "pset_len")? };
        if room > 0 {
            let mut written = 0;
            // SAFETY: the caller's buffer of `room` bytes.
            unsafe { crate::ffi::write_c_string(pset_name, &mut written, name, room)? };
        }
        // SAFETY: read above, so valid.
        unsafe { write_out(pset_len, name.len() as c_int + 1, "pset_len") }
    }
    /// A new info object describing a process set: its size (`mpi_size`, 1).
    fn MPI_Session_get_pset_info(session: MPI_Session, pset_name: *const c_char, info: *mut MPI_Info) via guard_session(session) {
        with_session(session, |_| ())?;
        // SAFETY: the caller's C string.
        unsafe { named_set(pset_name)? };
        check_out(info, "info")?;
        let described = crate::info::new_info(vec![("mpi_size".to_string(), "1".to_string())])?;
        // SAFETY: checked non-NULL above.
        unsafe { write_out(info, described, "info") }
    }
    /// A new group of a process set's processes.
    fn MPI_Group_from_session_pset(session: MPI_Session, pset_name: *const c_char, newgroup: *mut MPI_Group) via guard_session(session) {
        with_session(session, |_| ())?;
        // SAFETY: the caller's C string.
        unsafe { named_set(pset_name)? };
        // SAFETY: the caller's pointer.
        unsafe { write_group(newgroup, vec![0]) }
    }
    /// A new info object with the session's hints.
    fn MPI_Session_get_info(session: MPI_Session, info_used: *mut MPI_Info) via guard_session(session) {
        check_out(info_used, "info_used")?;
        let hints = with_session(session, |s| s.info.clone())?;
        let info = crate::info::new_info(hints)?;
        // SAFETY: checked non-NULL above.
        unsafe { write_out(info_used, info, "info_used") }
    }
    /// Makes a communicator of `group`'s processes, with the error handler `errhandler`:
    /// the one process's, or `MPI_COMM_NULL` for the empty group.
    fn MPI_Comm_create_from_group(group: MPI_Group, stringtag: *const c_char, info: MPI_Info, errhandler: MPI_Errhandler, newcomm: *mut MPI_Comm) via guard() {
        let _ = info;
        // SAFETY: the caller's C string.
        let tag = unsafe { read_object_name(stringtag, "stringtag")? };
        let _ = tag;
        if !error::attachable(errhandler, |h| matches!(h, UserHandler::Comm(_))) {
            return Err(MpiError::arg(format!("{errhandler:#x} is not an error handler for communicators")));
        }
        if members_of(group)?.is_empty() {
            // SAFETY: the caller's pointer.
            return unsafe { make_none(newcomm) };
        }
        // SAFETY: the caller's pointer.
        unsafe { make_with(MPI_COMM_SELF, newcomm, false, None)? };
        // SAFETY: written above.
        let made = unsafe { newcomm.read() };
        comms::with(crate::ffi::place_of(made)?, |c| c.errhandler = errhandler);
        Ok(())
    }
    /// Makes an error handler for sessions from a C function.
    fn MPI_Session_create_errhandler(session_errhandler_fn: MPI_Session_errhandler_function, errhandler: *mut MPI_Errhandler) via guard() {
        let handler = UserHandler::Session(session_errhandler_fn);
        // SAFETY: the caller's pointer.
        unsafe { crate::ffi::make_errhandler(handler, "session_errhandler_fn", errhandler) }
    }
    /// Attaches an error handler to the session.
    fn MPI_Session_set_errhandler(session: MPI_Session, errhandler: MPI_Errhandler) via guard_session(session) {
        if !session_handler(errhandler) {
            return Err(MpiError::arg(format!("{errhandler:#x} is not an error handler for sessions")));
        }
        with_session(session, |s| s.errhandler = errhandler)
    }
    /// The error handler attached to the session.
    fn MPI_Session_get_errhandler(session: MPI_Session, errhandler: *mut MPI_Errhandler) via guard_session(session) {
        let handler = with_session(session, |s| s.errhandler)?;
        // SAFETY: the caller's pointer.
        unsafe { write_out(errhandler, handler, "errhandler") }
    }
    /// Calls the session's error handler with `errorcode`.
    fn MPI_Session_call_errhandler(session: MPI_Session, errorcode: c_int) via guard_session(session) {
        let handler = with_session(session, |s| s.errhandler)?;
        crate::ffi::call_handler("MPI_Session_call_errhandler", handler, errorcode, Raised::Session(session));
        Ok(())
    }
}
