//! Attribute caching on datatypes: `MPI_Type_create_keyval`, `MPI_Type_free_keyval`,
//! `MPI_Type_set_attr`, `MPI_Type_get_attr`, `MPI_Type_delete_attr`, and the copy / delete
//! callbacks run by `MPI_Type_dup` and `MPI_Type_free`.

use super::{check_out, guard, read_in, write_out};
use crate::abi::*;
use crate::behind::forward;
use crate::error::MpiResult;
use crate::ffi::{export, exported};
use crate::handles;
use crate::keyvals::{self, Keyval, TypeKeyval};
use std::ffi::c_void;
use std::os::raw::c_int;

/// True if `key` is a keyval of the MPI library behind this one ([`is_behind_keyval`]):
/// calls with it go to that library.
fn behind_keyval(key: c_int) -> bool {
    is_behind_keyval(key) && crate::behind::backend().is_some()
}

/// True if an attribute call goes to the MPI behind: a key of that library, or a type it made
/// with a key that is not this library's (this library's keys work on its own types only).
fn goes_behind(key: c_int, datatype: MPI_Datatype) -> bool {
    behind_keyval(key) || (!is_own_keyval_form(key) && crate::dropin::is_foreign(datatype))
}

/// Runs the delete callback of `key` for `value` cached on `datatype`.
fn run_delete(datatype: MPI_Datatype, key: c_int, value: usize) -> MpiResult<()> {
    let k = keyvals::TYPE_KEYS.get_cached(key)?;
    keyvals::call_delete(k.delete, datatype, key, value, k.extra_state)
}

/// The attributes `MPI_Type_dup` gives the copy of `datatype`: those whose copy callback
/// sets its flag, with the values the callback returns. Each counts as a use of its key
/// until [`released`] is called for it.
pub fn copy_all(datatype: MPI_Datatype) -> MpiResult<Vec<(c_int, usize)>> {
    let attributes = handles::with_entry(datatype, |e| e.attributes.clone())?;
    let mut copied = Vec::new();
    let result = copy_each(datatype, &attributes, &mut copied);
    if result.is_err() {
        released(&copied);
    }
    result.map(|()| copied)
}

fn copy_each(
    datatype: MPI_Datatype,
    attributes: &[(c_int, usize)],
    copied: &mut Vec<(c_int, usize)>,
) -> MpiResult<()> {
    for &(key, value) in attributes {
        let k: TypeKeyval = keyvals::TYPE_KEYS.get_cached(key)?;
        if let Some(copy) = keyvals::call_copy(k.copy, datatype, key, value, k.extra_state)? {
            keyvals::TYPE_KEYS.retain(key, false)?;
            copied.push((key, copy));
        }
    }
    Ok(())
}

/// Records that the attributes of a freed datatype (or a failed dup) no longer use their keys.
pub fn released(attributes: &[(c_int, usize)]) {
    for &(key, _) in attributes {
        keyvals::TYPE_KEYS.release(key);
    }
}

/// Runs the delete callback of each of `attributes`, those cached on `datatype` (for
/// `MPI_Type_free`: those [`handles::remove_with`] gave back), removing each attribute once its
/// callback succeeded: if one fails, the free fails and the attributes already deleted are
/// not deleted again by the next attempt.
pub fn delete_all(datatype: MPI_Datatype, attributes: Vec<(c_int, usize)>) -> MpiResult<()> {
    for (key, value) in attributes {
        run_delete(datatype, key, value)?;
        handles::with_entry(datatype, |e| keyvals::uncache(&mut e.attributes, key))?;
        keyvals::TYPE_KEYS.release(key);
    }
    Ok(())
}

exported! {
    /// `MPI_TYPE_DUP_FN` in MPICH's ABI, whose `mpi.h` names this function (the standard ABI has
    /// a sentinel instead, [`is_dup_fn_sentinel`]).
    #[cfg(abi = "mpich")]
    fn MPIR_Type_dup_fn(oldtype: MPI_Datatype, type_keyval: c_int, extra_state: *mut c_void, attribute_val_in: *mut c_void, attribute_val_out: *mut c_void, flag: *mut c_int);
    => {
        // SAFETY: the caller's arguments, under the same contract.
        unsafe { keyvals::copy_value::<MPI_Datatype>(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag) }
    }
}

/// Creates an attribute key for datatypes with the given copy and delete callbacks.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_keyval(
    type_copy_attr_fn: MPI_Type_copy_attr_function,
    type_delete_attr_fn: MPI_Type_delete_attr_function,
    type_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    export("MPI_Type_create_keyval", || {
        if crate::behind::inside() && crate::dropin::twin::enabled() {
            // A key made inside a call of the MPI behind (ROMIO's) is that library's: its
            // types carry it. The program's keys are this library's, as its handles are.
            let made = forward!(PMPI_Type_create_keyval: fn(MPI_Type_copy_attr_function, MPI_Type_delete_attr_function, *mut c_int, *mut c_void) -> c_int,
                type_copy_attr_fn, type_delete_attr_fn, type_keyval, extra_state);
            if let Some(rc) = made {
                return rc;
            }
        }
        guard("MPI_Type_create_keyval", || {
            check_out(type_keyval, "type_keyval")?;
            // The standard ABI's MPI_TYPE_DUP_FN is a sentinel to recognise, not to call.
            let copy = match is_dup_fn_sentinel(type_copy_attr_fn) {
                true => Some(keyvals::copy_value::<MPI_Datatype> as _),
                false => type_copy_attr_fn,
            };
            let key = keyvals::TYPE_KEYS.create(Keyval {
                copy,
                delete: type_delete_attr_fn,
                extra_state: extra_state as usize,
            })?;
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(type_keyval, key, "type_keyval") }
        })
    })
}

/// Frees an attribute key and sets it to `MPI_KEYVAL_INVALID`. The key is invalid from now on
/// in every call; attributes still cached with it keep their callbacks, which run when their
/// datatypes are duplicated or freed.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_free_keyval(type_keyval: *mut c_int) -> c_int {
    export("MPI_Type_free_keyval", || {
        // SAFETY: the caller's in-out argument, read if it is not NULL.
        if !type_keyval.is_null() && behind_keyval(unsafe { type_keyval.read() }) {
            if let Some(rc) = forward!(PMPI_Type_free_keyval: fn(*mut c_int) -> c_int, type_keyval)
            {
                return rc;
            }
        }
        guard("MPI_Type_free_keyval", || {
            check_out(type_keyval, "type_keyval")?;
            // SAFETY: the caller's in-out argument.
            keyvals::TYPE_KEYS.free(unsafe { read_in(type_keyval, "type_keyval")? })?;
            // SAFETY: as above.
            unsafe { write_out(type_keyval, MPI_KEYVAL_INVALID, "type_keyval") }
        })
    })
}

/// Caches `attribute_val` on `datatype` under `type_keyval`, deleting any previous value.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_set_attr(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    export("MPI_Type_set_attr", || {
        if goes_behind(type_keyval, datatype) {
            let rc = forward!(PMPI_Type_set_attr: fn(MPI_Datatype, c_int, *mut c_void) -> c_int,
                datatype, type_keyval, attribute_val);
            if let Some(rc) = rc {
                return rc;
            }
        }
        guard("MPI_Type_set_attr", || {
            keyvals::TYPE_KEYS.retain(type_keyval, true)?;
            let value = attribute_val as usize;
            let previous = crate::dropin::with_entry(datatype, |e| {
                keyvals::cache(&mut e.attributes, type_keyval, value)
            });
            let previous = previous.inspect_err(|_| keyvals::TYPE_KEYS.release(type_keyval))?;
            match previous {
                Some(value) => {
                    // The new value replaces the old one: the key has one use, not two.
                    keyvals::TYPE_KEYS.release(type_keyval);
                    run_delete(datatype, type_keyval, value)
                }
                None => Ok(()),
            }
        })
    })
}

/// Retrieves the value cached on `datatype` under `type_keyval`; `*flag` tells whether there is one.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_attr(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    export("MPI_Type_get_attr", || {
        if goes_behind(type_keyval, datatype) {
            let rc = forward!(PMPI_Type_get_attr: fn(MPI_Datatype, c_int, *mut c_void, *mut c_int) -> c_int,
                datatype, type_keyval, attribute_val, flag);
            if let Some(rc) = rc {
                return rc;
            }
        }
        guard("MPI_Type_get_attr", || {
            check_out(attribute_val, "attribute_val")?;
            check_out(flag, "flag")?;
            keyvals::TYPE_KEYS.get(type_keyval)?;
            let found = crate::dropin::with_entry(datatype, |e| {
                keyvals::cached(&e.attributes, type_keyval)
            })?;
            if let Some(value) = found {
                // SAFETY: checked non-NULL; MPI passes the address of a `void *` here.
                unsafe {
                    attribute_val
                        .cast::<*mut c_void>()
                        .write(value as *mut c_void)
                };
            }
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(flag, found.is_some() as c_int, "flag") }
        })
    })
}

/// Deletes the value cached on `datatype` under `type_keyval`, running its delete callback
/// (nothing happens if no value is cached).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_delete_attr(datatype: MPI_Datatype, type_keyval: c_int) -> c_int {
    export("MPI_Type_delete_attr", || {
        if goes_behind(type_keyval, datatype) {
            let rc = forward!(PMPI_Type_delete_attr: fn(MPI_Datatype, c_int) -> c_int, datatype, type_keyval);
            if let Some(rc) = rc {
                return rc;
            }
        }
        guard("MPI_Type_delete_attr", || {
            keyvals::TYPE_KEYS.get(type_keyval)?;
            let removed = crate::dropin::with_entry(datatype, |e| {
                keyvals::uncache(&mut e.attributes, type_keyval)
            })?;
            match removed {
                Some(value) => {
                    let deleted = run_delete(datatype, type_keyval, value);
                    keyvals::TYPE_KEYS.release(type_keyval);
                    deleted
                }
                None => Ok(()),
            }
        })
    })
}
