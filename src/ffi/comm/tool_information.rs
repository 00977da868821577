//! The tool information interface (`MPI_T_*`, MPI-4.1 §15.3): its initialization, the control
//! variables (the environment variables that set this library, read-only), the one category
//! that holds them, the performance-variable calls (the library keeps none: a session can be
//! made, and no variable is found), and enumerations (there are none). In drop-in mode each
//! is the MPI behind's. As the standard says, these functions return their error codes and
//! call no error handler.

use crate::abi::*;
use crate::error::{MpiError, MpiResult};
use crate::ffi::{check_out, read_in, write_out};
use crate::tool_information::{self as tool, Record, CATEGORY, CONTROL_VARIABLES};
use std::ffi::{c_char, c_void, CStr};
use std::os::raw::c_int;

/// The guard of an `MPI_T` function: its error class is its answer.
fn tool_guard(_function: &'static str, body: impl FnOnce() -> MpiResult<()>) -> c_int {
    match crate::ffi::checked(body) {
        Ok(()) => MPI_SUCCESS,
        Err(error) => error.class,
    }
}

/// The guard of an `MPI_T` function that needs the interface initialized.
fn initialized(function: &'static str, body: impl FnOnce() -> MpiResult<()>) -> c_int {
    tool_guard(function, || {
        tool::check_initialized()?;
        body()
    })
}

/// Writes `text` as `MPI_T` returns a name or description: into `buffer` (of `*length` bytes,
/// cut to fit with its NUL) unless it or `length` is NULL or `*length` is 0, and the bytes
/// the whole text takes with its NUL into `*length`.
///
/// # Safety
/// Non-NULL pointers are valid: `length` for an int, `buffer` for `*length` bytes.
unsafe fn write_text(buffer: *mut c_char, length: *mut c_int, text: &str) -> MpiResult<()> {
    if length.is_null() {
        return Ok(());
    }
    // SAFETY: the caller's contract.
    let room = unsafe { length.read() };
    if !buffer.is_null() && room > 0 {
        let mut written = 0;
        // SAFETY: the caller's buffer of `room` bytes.
        unsafe { crate::ffi::write_c_string(buffer, &mut written, text, room)? };
    }
    // SAFETY: the caller's contract.
    unsafe { length.write(text.len() as c_int + 1) };
    Ok(())
}

/// Writes `value` through `out` unless it is NULL (the `MPI_T` queries let a tool ask for
/// some answers only).
///
/// # Safety
/// A non-NULL `out` is writable.
unsafe fn maybe_write<T>(out: *mut T, value: T) {
    if !out.is_null() {
        // SAFETY: the caller's contract.
        unsafe { out.write(value) };
    }
}

/// The name a tool passes, as text.
///
/// # Safety
/// A non-NULL `name` is a NUL-terminated string.
unsafe fn name_arg(name: *const c_char) -> MpiResult<String> {
    check_out(name, "name")?;
    // SAFETY: the caller's contract.
    Ok(unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned())
}

/// Writes the first entries of `indices` (room for `len`) from `values`.
///
/// # Safety
/// A non-NULL `indices` has room for `len` ints.
unsafe fn write_indices(
    len: c_int,
    indices: *mut c_int,
    values: impl Iterator<Item = c_int>,
) -> MpiResult<()> {
    for (k, value) in values.take(len.max(0) as usize).enumerate() {
        check_out(indices, "indices")?;
        // SAFETY: `k < len`, within the caller's array.
        unsafe { indices.add(k).write(value) };
    }
    Ok(())
}

/// Checks that `index` is the one category's.
fn category(index: c_int) -> MpiResult<()> {
    match index {
        0 => Ok(()),
        _ => Err(tool::invalid_index(index)),
    }
}

/// Checks that `session` is a live session of performance variables.
fn session_of(session: MPI_T_pvar_session) -> MpiResult<()> {
    match tool::record(session.expose_provenance()) {
        Ok(Record::Session) => Ok(()),
        _ => Err(MpiError::new(
            MPI_T_ERR_INVALID_SESSION,
            "not a session of performance variables",
        )),
    }
}

/// The error of a performance-variable handle: the library has no performance variable, so
/// no handle but `MPI_T_PVAR_ALL_HANDLES` (where it is allowed) is one.
fn no_pvar_handle(handle: MPI_T_pvar_handle, all_allowed: bool) -> MpiResult<()> {
    match all_allowed && handle.cast_const().cast::<c_int>() == all_pvar_handles() {
        true => Ok(()),
        false => Err(MpiError::new(
            MPI_T_ERR_INVALID_HANDLE,
            "the library has no performance variable",
        )),
    }
}

one_process_functions! {
    /// Starts using the interface (calls nest: each needs its `MPI_T_finalize`).
    fn MPI_T_init_thread(required: c_int, provided: *mut c_int) via tool_guard() {
        check_out(provided, "provided")?;
        tool::init();
        // SAFETY: checked non-NULL above.
        unsafe { write_out(provided, required.clamp(MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE), "provided") }
    }
    /// Ends one `MPI_T_init_thread`.
    fn MPI_T_finalize() via tool_guard() {
        tool::finalize()
    }
    /// The number of control variables.
    fn MPI_T_cvar_get_num(num_cvar: *mut c_int) via initialized() {
        // SAFETY: the caller's pointer.
        unsafe { write_out(num_cvar, CONTROL_VARIABLES.len() as c_int, "num_cvar") }
    }
    /// What a control variable is: a string (`MPI_CHAR`) of no object, read-only.
    fn MPI_T_cvar_get_info(cvar_index: c_int, name: *mut c_char, name_len: *mut c_int, verbosity: *mut c_int, datatype: *mut MPI_Datatype, enumtype: *mut MPI_T_enum, desc: *mut c_char, desc_len: *mut c_int, bind: *mut c_int, scope: *mut c_int) via initialized() {
        let variable = tool::control_variable(cvar_index)?;
        // SAFETY: the caller's pointers, each NULL or valid.
        unsafe {
            write_text(name, name_len, variable.name)?;
            write_text(desc, desc_len, variable.description)?;
            maybe_write(verbosity, variable.verbosity);
            maybe_write(datatype, MPI_CHAR);
            maybe_write(enumtype, std::ptr::null_mut());
            maybe_write(bind, MPI_T_BIND_NO_OBJECT);
            maybe_write(scope, MPI_T_SCOPE_READONLY);
        }
        Ok(())
    }
    /// The index of the control variable named `name`.
    fn MPI_T_cvar_get_index(name: *const c_char, cvar_index: *mut c_int) via initialized() {
        // SAFETY: the caller's C string.
        let name = unsafe { name_arg(name)? };
        let index = CONTROL_VARIABLES.iter().position(|v| v.name == name).ok_or_else(|| tool::invalid_name(&name))?;
        // SAFETY: the caller's pointer.
        unsafe { write_out(cvar_index, index as c_int, "cvar_index") }
    }
    /// A handle to read a control variable; `*count` is the bytes its value takes now, with
    /// the NUL.
    fn MPI_T_cvar_handle_alloc(cvar_index: c_int, obj_handle: *mut c_void, handle: *mut MPI_T_cvar_handle, count: *mut c_int) via initialized() {
        let _ = obj_handle;
        check_out(handle, "handle")?;
        check_out(count, "count")?;
        let variable = tool::control_variable(cvar_index)?;
        let bytes = tool::value_of(variable).len() as c_int + 1;
        let made = tool::hand_out(Record::Cvar { index: cvar_index, count: bytes });
        // SAFETY: checked non-NULL above.
        unsafe {
            write_out(handle, std::ptr::without_provenance_mut(made), "handle")?;
            write_out(count, bytes, "count")
        }
    }
    /// Frees a control variable's handle and sets it to `MPI_T_CVAR_HANDLE_NULL`.
    fn MPI_T_cvar_handle_free(handle: *mut MPI_T_cvar_handle) via initialized() {
        // SAFETY: the caller's in-out argument.
        let made = unsafe { read_in(handle, "handle")? };
        match tool::record(made.expose_provenance())? {
            Record::Cvar { .. } => tool::release(made.expose_provenance())?,
            Record::Session => return Err(MpiError::new(MPI_T_ERR_INVALID_HANDLE, "not a control variable's handle")),
        }
        // SAFETY: read above, so valid.
        unsafe { write_out(handle, std::ptr::null_mut(), "handle") }
    }
    /// Reads a control variable's value into `buf`: its string, cut to the count its handle
    /// gave, with a NUL.
    fn MPI_T_cvar_read(handle: MPI_T_cvar_handle, buf: *mut c_void) via initialized() {
        let Record::Cvar { index, count } = tool::record(handle.expose_provenance())? else {
            return Err(MpiError::new(MPI_T_ERR_INVALID_HANDLE, "not a control variable's handle"));
        };
        let value = tool::value_of(tool::control_variable(index)?);
        let mut written = 0;
        // SAFETY: the caller's buffer of `count` chars, as the handle said.
        unsafe { crate::ffi::write_c_string(buf.cast(), &mut written, &value, count) }
    }
    /// Sets a control variable: none can be set (they are read from the environment).
    fn MPI_T_cvar_write(handle: MPI_T_cvar_handle, buf: *const c_void) via initialized() {
        let _ = buf;
        let Record::Cvar { .. } = tool::record(handle.expose_provenance())? else {
            return Err(MpiError::new(MPI_T_ERR_INVALID_HANDLE, "not a control variable's handle"));
        };
        Err(MpiError::new(MPI_T_ERR_CVAR_SET_NEVER, "the variable is read from the environment when the library needs it"))
    }
    /// The number of performance variables: none.
    fn MPI_T_pvar_get_num(num_pvar: *mut c_int) via initialized() {
        // SAFETY: the caller's pointer.
        unsafe { write_out(num_pvar, 0, "num_pvar") }
    }
    /// What a performance variable is: there is none.
    fn MPI_T_pvar_get_info(pvar_index: c_int, name: *mut c_char, name_len: *mut c_int, verbosity: *mut c_int, var_class: *mut c_int, datatype: *mut MPI_Datatype, enumtype: *mut MPI_T_enum, desc: *mut c_char, desc_len: *mut c_int, bind: *mut c_int, readonly: *mut c_int, continuous: *mut c_int, atomic: *mut c_int) via initialized() {
        let _ = (name, name_len, verbosity, var_class, datatype, enumtype, desc, desc_len, bind, readonly, continuous, atomic);
        Err(tool::invalid_index(pvar_index))
    }
    /// The index of the performance variable named `name`: there is none.
    fn MPI_T_pvar_get_index(name: *const c_char, var_class: c_int, pvar_index: *mut c_int) via initialized() {
        let _ = (var_class, pvar_index);
        // SAFETY: the caller's C string.
        let name = unsafe { name_arg(name)? };
        Err(tool::invalid_name(&name))
    }
    /// Makes a session of performance variables.
    fn MPI_T_pvar_session_create(session: *mut MPI_T_pvar_session) via initialized() {
        check_out(session, "session")?;
        let made = tool::hand_out(Record::Session);
        // SAFETY: checked non-NULL above.
        unsafe { write_out(session, std::ptr::without_provenance_mut(made), "session") }
    }
    /// Frees a session and sets it to `MPI_T_PVAR_SESSION_NULL`.
    fn MPI_T_pvar_session_free(session: *mut MPI_T_pvar_session) via initialized() {
        // SAFETY: the caller's in-out argument.
        let made = unsafe { read_in(session, "session")? };
        session_of(made)?;
        tool::release(made.expose_provenance())?;
        // SAFETY: read above, so valid.
        unsafe { write_out(session, std::ptr::null_mut(), "session") }
    }
    /// A handle of a performance variable: there is none.
    fn MPI_T_pvar_handle_alloc(session: MPI_T_pvar_session, pvar_index: c_int, obj_handle: *mut c_void, handle: *mut MPI_T_pvar_handle, count: *mut c_int) via initialized() {
        let _ = (obj_handle, handle, count);
        session_of(session)?;
        Err(tool::invalid_index(pvar_index))
    }
    /// Frees a handle of a performance variable: there is none.
    fn MPI_T_pvar_handle_free(session: MPI_T_pvar_session, handle: *mut MPI_T_pvar_handle) via initialized() {
        session_of(session)?;
        // SAFETY: the caller's in-out argument.
        no_pvar_handle(unsafe { read_in(handle, "handle")? }, false)
    }
    /// Starts the variables of a handle (`MPI_T_PVAR_ALL_HANDLES`: all of the session's, none).
    fn MPI_T_pvar_start(session: MPI_T_pvar_session, handle: MPI_T_pvar_handle) via initialized() {
        session_of(session)?;
        no_pvar_handle(handle, true)
    }
    /// Stops the variables of a handle (`MPI_T_PVAR_ALL_HANDLES`: all of the session's, none).
    fn MPI_T_pvar_stop(session: MPI_T_pvar_session, handle: MPI_T_pvar_handle) via initialized() {
        session_of(session)?;
        no_pvar_handle(handle, true)
    }
    /// Resets the variables of a handle (`MPI_T_PVAR_ALL_HANDLES`: all of the session's, none).
    fn MPI_T_pvar_reset(session: MPI_T_pvar_session, handle: MPI_T_pvar_handle) via initialized() {
        session_of(session)?;
        no_pvar_handle(handle, true)
    }
    /// Reads a performance variable: there is none.
    fn MPI_T_pvar_read(session: MPI_T_pvar_session, handle: MPI_T_pvar_handle, buf: *mut c_void) via initialized() {
        let _ = buf;
        session_of(session)?;
        no_pvar_handle(handle, false)
    }
    /// Writes a performance variable: there is none.
    fn MPI_T_pvar_write(session: MPI_T_pvar_session, handle: MPI_T_pvar_handle, buf: *const c_void) via initialized() {
        let _ = buf;
        session_of(session)?;
        no_pvar_handle(handle, false)
    }
    /// Reads and resets a performance variable: there is none.
    fn MPI_T_pvar_readreset(session: MPI_T_pvar_session, handle: MPI_T_pvar_handle, buf: *mut c_void) via initialized() {
        let _ = buf;
        session_of(session)?;
        no_pvar_handle(handle, false)
    }
    /// The number of categories: one.
    fn MPI_T_category_get_num(num_cat: *mut c_int) via initialized() {
        // SAFETY: the caller's pointer.
        unsafe { write_out(num_cat, 1, "num_cat") }
    }
    /// What the category is: its name, description, and its control variables.
    fn MPI_T_category_get_info(cat_index: c_int, name: *mut c_char, name_len: *mut c_int, desc: *mut c_char, desc_len: *mut c_int, num_cvars: *mut c_int, num_pvars: *mut c_int, num_categories: *mut c_int) via initialized() {
        category(cat_index)?;
        // SAFETY: the caller's pointers, each NULL or valid.
        unsafe {
            write_text(name, name_len, CATEGORY.0)?;
            write_text(desc, desc_len, CATEGORY.1)?;
            maybe_write(num_cvars, CONTROL_VARIABLES.len() as c_int);
            maybe_write(num_pvars, 0);
            maybe_write(num_categories, 0);
        }
        Ok(())
    }
    /// The index of the category named `name`.
    fn MPI_T_category_get_index(name: *const c_char, cat_index: *mut c_int) via initialized() {
        // SAFETY: the caller's C string.
        let name = unsafe { name_arg(name)? };
        if name != CATEGORY.0 {
            return Err(tool::invalid_name(&name));
        }
        // SAFETY: the caller's pointer.
        unsafe { write_out(cat_index, 0, "cat_index") }
    }
    /// The indices of the category's control variables (the first `len`).
    fn MPI_T_category_get_cvars(cat_index: c_int, len: c_int, indices: *mut c_int) via initialized() {
        category(cat_index)?;
        // SAFETY: the caller's array of `len` ints.
        unsafe { write_indices(len, indices, 0..CONTROL_VARIABLES.len() as c_int) }
    }
    /// The indices of the category's performance variables: none.
    fn MPI_T_category_get_pvars(cat_index: c_int, len: c_int, indices: *mut c_int) via initialized() {
        let _ = (len, indices);
        category(cat_index)
    }
    /// The indices of the category's subcategories: none.
    fn MPI_T_category_get_categories(cat_index: c_int, len: c_int, indices: *mut c_int) via initialized() {
        let _ = (len, indices);
        category(cat_index)
    }
    /// A stamp that changes when categories are added: they never are.
    fn MPI_T_category_changed(update_number: *mut c_int) via initialized() {
        // SAFETY: the caller's pointer.
        unsafe { write_out(update_number, 0, "update_number") }
    }
    /// What an enumeration is: there is none.
    fn MPI_T_enum_get_info(enumtype: MPI_T_enum, num: *mut c_int, name: *mut c_char, name_len: *mut c_int) via initialized() {
        let _ = (enumtype, num, name, name_len);
        Err(MpiError::new(MPI_T_ERR_INVALID_HANDLE, "the library has no enumeration"))
    }
    /// An item of an enumeration: there is none.
    fn MPI_T_enum_get_item(enumtype: MPI_T_enum, index: c_int, value: *mut c_int, name: *mut c_char, name_len: *mut c_int) via initialized() {
        let _ = (enumtype, index, value, name, name_len);
        Err(MpiError::new(MPI_T_ERR_INVALID_HANDLE, "the library has no enumeration"))
    }
}
