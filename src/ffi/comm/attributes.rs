//! Attributes of communicators: `MPI_Comm_create_keyval`, `MPI_Comm_free_keyval`,
//! `MPI_Comm_set_attr`, `MPI_Comm_get_attr`, `MPI_Comm_delete_attr`, the predefined
//! attributes (`MPI_TAG_UB`, ...), and the copy and delete callbacks that `MPI_Comm_dup`,
//! `MPI_Comm_free` and `MPI_Finalize` run. In drop-in mode each is the MPI behind's; in the
//! one-process world the keys are [`crate::keyvals::COMM_KEYS`] and the attributes are kept
//! with each communicator ([`crate::serial::comms`]).

use super::guard_on;
use crate::abi::*;
use crate::error::MpiResult;
use crate::ffi::{check_out, exported, guard, place_of, read_in, write_out};
use crate::keyvals::{self, CommKeyval, Keyval, COMM_KEYS};
use crate::serial::comms;
use std::ffi::c_void;
use std::os::raw::c_int;

/// The attributes of `comm`.
fn attributes_of(comm: MPI_Comm) -> MpiResult<Vec<(c_int, usize)>> {
    Ok(comms::with(place_of(comm)?, |c| c.attributes.clone()).unwrap_or_default())
}

/// Runs the delete callback of `key` for `value` cached on `comm`.
fn run_delete(comm: MPI_Comm, key: c_int, value: usize) -> MpiResult<()> {
    let k = COMM_KEYS.get_cached(key)?;
    keyvals::call_delete(k.delete, comm, key, value, k.extra_state)
}

/// The attributes `MPI_Comm_dup` gives the duplicate of `comm`: those whose copy callback
/// sets its flag, with the values it returns. Each counts as a use of its key until
/// [`released`] is called for it.
pub fn copy_all(comm: MPI_Comm) -> MpiResult<Vec<(c_int, usize)>> {
    let mut copied = Vec::new();
    for (key, value) in attributes_of(comm)? {
        let k: CommKeyval = COMM_KEYS.get_cached(key)?;
        let copy = keyvals::call_copy(k.copy, comm, key, value, k.extra_state);
        let copy = copy.inspect_err(|_| released(&copied))?;
        if let Some(copy) = copy {
            COMM_KEYS.retain(key, false)?;
            copied.push((key, copy));
        }
    }
    Ok(copied)
}

/// Records that attributes no communicator holds any longer no longer use their keys.
pub fn released(attributes: &[(c_int, usize)]) {
    for &(key, _) in attributes {
        COMM_KEYS.release(key);
    }
}

/// Runs the delete callback of each attribute of `comm`, last set first, removing each once
/// its callback succeeded (`MPI_Comm_free`, and `MPI_Finalize` for `MPI_COMM_SELF`).
pub fn delete_all(comm: MPI_Comm) -> MpiResult<()> {
    let place = place_of(comm)?;
    for (key, value) in attributes_of(comm)?.into_iter().rev() {
        run_delete(comm, key, value)?;
        comms::with(place, |c| keyvals::uncache(&mut c.attributes, key));
        COMM_KEYS.release(key);
    }
    Ok(())
}

exported! {
    /// `MPI_COMM_DUP_FN` in MPICH's ABI, whose header names this function (the standard ABI has
    /// the sentinel 1 instead): copies the attribute value.
    #[cfg(abi = "mpich")]
    fn MPIR_Comm_dup_fn(oldcomm: MPI_Comm, comm_keyval: c_int, extra_state: *mut c_void, attribute_val_in: *mut c_void, attribute_val_out: *mut c_void, flag: *mut c_int);
    => {
        // SAFETY: the caller's arguments, as a copy callback gets them.
        unsafe { keyvals::copy_value::<MPI_Comm>(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag) }
    }
}

/// The address of the standard ABI's `MPI_COMM_DUP_FN`, a sentinel that is no function.
const DUP_SENTINEL: usize = 1;

one_process_functions! {
    /// Creates an attribute key for communicators with the given copy and delete callbacks.
    fn MPI_Comm_create_keyval(comm_copy_attr_fn: MPI_Comm_copy_attr_function, comm_delete_attr_fn: MPI_Comm_delete_attr_function, comm_keyval: *mut c_int, extra_state: *mut c_void) via guard() {
        check_out(comm_keyval, "comm_keyval")?;
        let sentinel = comm_copy_attr_fn.is_some_and(|f| f as usize == DUP_SENTINEL);
        let copy = match sentinel {
            true => Some(keyvals::copy_value::<MPI_Comm> as _),
            false => comm_copy_attr_fn,
        };
        let key = COMM_KEYS.create(Keyval {
            copy,
            delete: comm_delete_attr_fn,
            extra_state: extra_state as usize,
        })?;
        // SAFETY: checked non-NULL above.
        unsafe { write_out(comm_keyval, key, "comm_keyval") }
    }

    /// Frees an attribute key and sets it to `MPI_KEYVAL_INVALID`; attributes still cached with
    /// it keep their callbacks.
    fn MPI_Comm_free_keyval(comm_keyval: *mut c_int) via guard() {
        // SAFETY: the caller's in-out argument.
        COMM_KEYS.free(unsafe { read_in(comm_keyval, "comm_keyval")? })?;
        // SAFETY: read above, so valid.
        unsafe { write_out(comm_keyval, MPI_KEYVAL_INVALID, "comm_keyval") }
    }

    /// Caches `attribute_val` on `comm` under `comm_keyval`, deleting any previous value.
    fn MPI_Comm_set_attr(comm: MPI_Comm, comm_keyval: c_int, attribute_val: *mut c_void) via guard_on(comm) {
        let place = place_of(comm)?;
        COMM_KEYS.retain(comm_keyval, true)?;
        let value = attribute_val as usize;
        let previous = comms::with(place, |c| {
            keyvals::cache(&mut c.attributes, comm_keyval, value)
        });
        match previous.flatten() {
            Some(value) => {
                // The new value replaces the old one: the key has one use, not two.
                COMM_KEYS.release(comm_keyval);
                run_delete(comm, comm_keyval, value)
            }
            None => Ok(()),
        }
    }

    /// Deletes the value cached on `comm` under `comm_keyval`, running its delete callback.
    fn MPI_Comm_delete_attr(comm: MPI_Comm, comm_keyval: c_int) via guard_on(comm) {
        let place = place_of(comm)?;
        COMM_KEYS.get(comm_keyval)?;
        let removed = comms::with(place, |c| keyvals::uncache(&mut c.attributes, comm_keyval));
        match removed.flatten() {
            Some(value) => {
                let deleted = run_delete(comm, comm_keyval, value);
                COMM_KEYS.release(comm_keyval);
                deleted
            }
            None => Ok(()),
        }
    }
}

/// The values of the predefined attributes in the one-process world, which
/// `MPI_Comm_get_attr` hands out by address.
static TAG_UB_VALUE: c_int = super::serial::TAG_UB;
static HOST_VALUE: c_int = MPI_PROC_NULL;
static IO_VALUE: c_int = MPI_ANY_SOURCE;
static WTIME_IS_GLOBAL_VALUE: c_int = 1;
static UNIVERSE_SIZE_VALUE: c_int = 1;
static APPNUM_VALUE: c_int = 0;

/// The address of the value of a predefined attribute key, if `key` is one
/// (`MPI_LASTUSEDCODE`'s grows as the program adds error classes and codes).
fn predefined(key: c_int) -> Option<usize> {
    let value: &'static c_int = match key {
        MPI_TAG_UB => &TAG_UB_VALUE,
        MPI_HOST => &HOST_VALUE,
        MPI_IO => &IO_VALUE,
        MPI_WTIME_IS_GLOBAL => &WTIME_IS_GLOBAL_VALUE,
        MPI_UNIVERSE_SIZE => &UNIVERSE_SIZE_VALUE,
        MPI_APPNUM => &APPNUM_VALUE,
        MPI_LASTUSEDCODE => return Some(crate::error::LAST_USED_CODE.as_ptr().expose_provenance()),
        _ => return None,
    };
    Some(std::ptr::from_ref(value).expose_provenance())
}

one_process_functions! {
    /// Reads the attribute of `comm` under `comm_keyval` into `attribute_val` (a `void **`
    /// passed as `void *`): a value the program cached, or for a predefined key (`MPI_TAG_UB`,
    /// `MPI_HOST`, `MPI_IO`, `MPI_WTIME_IS_GLOBAL`, `MPI_UNIVERSE_SIZE`, `MPI_APPNUM`,
    /// `MPI_LASTUSEDCODE`) the address of its `int` value. `*flag` tells whether there is one.
    fn MPI_Comm_get_attr(comm: MPI_Comm, comm_keyval: c_int, attribute_val: *mut c_void, flag: *mut c_int) via guard_on(comm) {
        let place = place_of(comm)?;
        check_out(attribute_val, "attribute_val")?;
        check_out(flag, "flag")?;
        let found = match predefined(comm_keyval) {
            Some(address) => Some(address),
            None => {
                COMM_KEYS.get(comm_keyval)?;
                comms::with(place, |c| keyvals::cached(&c.attributes, comm_keyval)).flatten()
            }
        };
        if let Some(value) = found {
            // SAFETY: checked non-NULL; attribute_val points to a `void *`.
            unsafe {
                attribute_val
                    .cast::<*mut c_void>()
                    .write(value as *mut c_void)
            };
        }
        // SAFETY: checked non-NULL above.
        unsafe { write_out(flag, c_int::from(found.is_some()), "flag") }
    }
}
