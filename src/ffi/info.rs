//! Info objects and `MPI_Abi_get_info` (MPI-5.0 §21.2), standalone.
//!
//! With an MPI library behind this one every info object is that library's, so every function
//! here goes to it. Standalone, the library keeps the few info objects a program can get from
//! it: the one `MPI_Abi_get_info` returns, describing the ABI's integer types
//! (`mpi_aint_size`, `mpi_count_size`, `mpi_offset_size`), those the program creates, and the
//! empty `MPI_INFO_ENV`; the functions that read, change, duplicate and free them work as the
//! standard says (MPI-4.1 §10).

use super::{check_out, guard, read_in, write_out};
use crate::abi::*;
use crate::behind::{backend, foreign_call};
use crate::error::{MpiError, MpiResult};
use crate::ffi::export;
use crate::info::{new_info, value_of, with_pairs};

use std::ffi::{c_char, CStr};
use std::os::raw::c_int;

/// A key argument: NUL-terminated, at most `MPI_MAX_INFO_KEY` characters, not empty.
///
/// # Safety
/// A non-NULL `key` must point to a NUL-terminated string.
unsafe fn key_arg(key: *const c_char) -> MpiResult<String> {
    check_out(key, "key")?;
    // SAFETY: not NULL; NUL-terminated by the caller's contract.
    let key = unsafe { CStr::from_ptr(key) }
        .to_string_lossy()
        .into_owned();
    if key.is_empty() || key.len() > MPI_MAX_INFO_KEY as usize {
        return Err(MpiError::new(
            MPI_ERR_INFO_KEY,
            format!("the key must have 1 to {MPI_MAX_INFO_KEY} characters"),
        ));
    }
    Ok(key)
}

/// Writes `text` and a NUL into the `room` bytes at `out` (cut to fit).
///
/// # Safety
/// `out` must be valid for `room` bytes.
unsafe fn write_text(out: *mut c_char, room: usize, text: &str) {
    if room == 0 {
        return;
    }
    let n = text.len().min(room - 1);
    // SAFETY: `out` has `room` bytes, more than `n + 1`.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), out.cast::<u8>(), n);
        out.add(n).write(0);
    }
}

/// The info object describing the ABI's integer types: a new one standalone.
#[no_mangle]
pub unsafe extern "C" fn MPI_Abi_get_info(info: *mut MPI_Info) -> c_int {
    export("MPI_Abi_get_info", || {
        foreign_call!(MPI_Abi_get_info(info) if backend().is_some());
        guard("MPI_Abi_get_info", || {
            check_out(info, "info")?;
            let size = |bytes: usize| bytes.to_string();
            let made = new_info(vec![
                ("mpi_aint_size".into(), size(size_of::<MPI_Aint>())),
                ("mpi_count_size".into(), size(size_of::<MPI_Count>())),
                ("mpi_offset_size".into(), size(size_of::<MPI_Offset>())),
            ])?;
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(info, made, "info") }
        })
    })
}

/// A new, empty info object.
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_create(info: *mut MPI_Info) -> c_int {
    export("MPI_Info_create", || {
        foreign_call!(MPI_Info_create(info) if backend().is_some());
        guard("MPI_Info_create", || {
            check_out(info, "info")?;
            let made = new_info(Vec::new())?;
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(info, made, "info") }
        })
    })
}

/// A new info object describing how the program was started (MPI-4.1 §11.2.1): `command`
/// (`argv[0]`) and `argv` (the other arguments, space separated) when `argc` and `argv` are
/// given, `maxprocs` (1), `wdir` (the working directory) and `thread_level` (the level
/// provided, or asked for before `MPI_Init`).
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_create_env(
    argc: c_int,
    argv: *mut *mut c_char,
    info: *mut MPI_Info,
) -> c_int {
    export("MPI_Info_create_env", || {
        foreign_call!(MPI_Info_create_env(argc, argv, info) if backend().is_some());
        guard("MPI_Info_create_env", || {
            check_out(info, "info")?;
            let mut pairs = Vec::new();
            // SAFETY: the program's argc strings at argv (none if NULL).
            let args = unsafe { super::read_slice(argv.cast_const(), argc.max(0).into(), "argv")? };
            let word = |arg: *mut c_char| {
                // SAFETY: each argument is a NUL-terminated string of the program's.
                unsafe { std::ffi::CStr::from_ptr(arg) }
                    .to_string_lossy()
                    .into_owned()
            };
            let words: Vec<String> = args
                .iter()
                .filter(|arg| !arg.is_null())
                .map(|&arg| word(arg))
                .collect();
            if let Some((command, rest)) = words.split_first() {
                pairs.push(("command".to_string(), command.clone()));
                pairs.push(("argv".to_string(), rest.join(" ")));
            }
            pairs.push(("maxprocs".to_string(), "1".to_string()));
            if let Ok(dir) = std::env::current_dir() {
                pairs.push(("wdir".to_string(), dir.display().to_string()));
            }
            let level = match crate::process::thread_level() {
                MPI_THREAD_SINGLE => "MPI_THREAD_SINGLE",
                MPI_THREAD_FUNNELED => "MPI_THREAD_FUNNELED",
                MPI_THREAD_SERIALIZED => "MPI_THREAD_SERIALIZED",
                _ => "MPI_THREAD_MULTIPLE",
            };
            pairs.push(("thread_level".to_string(), level.to_string()));
            let made = new_info(pairs)?;
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(info, made, "info") }
        })
    })
}

/// Sets `key` to `value` (replacing its value if it is set).
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_set(
    info: MPI_Info,
    key: *const c_char,
    value: *const c_char,
) -> c_int {
    export("MPI_Info_set", || {
        foreign_call!(MPI_Info_set(info, key, value) if backend().is_some());
        guard("MPI_Info_set", || {
            // SAFETY: the caller's NUL-terminated strings.
            let key = unsafe { key_arg(key)? };
            check_out(value, "value")?;
            // SAFETY: not NULL; NUL-terminated by the caller's contract.
            let value = unsafe { CStr::from_ptr(value) }
                .to_string_lossy()
                .into_owned();
            if value.len() > MPI_MAX_INFO_VAL as usize {
                return Err(MpiError::new(
                    MPI_ERR_INFO_VALUE,
                    format!("the value has more than {MPI_MAX_INFO_VAL} characters"),
                ));
            }
            with_pairs(info, true, |pairs| crate::info::set(pairs, key, value))
        })
    })
}

/// Removes `key` (`MPI_ERR_INFO_NOKEY` if it is not set).
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_delete(info: MPI_Info, key: *const c_char) -> c_int {
    export("MPI_Info_delete", || {
        foreign_call!(MPI_Info_delete(info, key) if backend().is_some());
        guard("MPI_Info_delete", || {
            // SAFETY: the caller's NUL-terminated string.
            let key = unsafe { key_arg(key)? };
            let found = with_pairs(info, true, |pairs| {
                let before = pairs.len();
                pairs.retain(|(k, _)| *k != key);
                pairs.len() < before
            })?;
            match found {
                true => Ok(()),
                false => Err(MpiError::new(
                    MPI_ERR_INFO_NOKEY,
                    format!("the key {key:?} is not set"),
                )),
            }
        })
    })
}

/// The value of `key` if it is set (MPI-4.0): at most `*buflen - 1` characters and a NUL go
/// to `value`, and `*buflen` becomes the value's length plus one.
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get_string(
    info: MPI_Info,
    key: *const c_char,
    buflen: *mut c_int,
    value: *mut c_char,
    flag: *mut c_int,
) -> c_int {
    export("MPI_Info_get_string", || {
        foreign_call!(
            MPI_Info_get_string(info, key, buflen, value, flag)
            if backend().is_some()
        );
        guard("MPI_Info_get_string", || {
            // SAFETY: the caller's NUL-terminated string and in-out length.
            let (key, room) = unsafe { (key_arg(key)?, read_in(buflen, "buflen")?) };
            check_out(flag, "flag")?;
            let found = value_of(info, &key)?;
            let Some(found) = found else {
                // SAFETY: the caller's pointer, checked non-NULL above.
                return unsafe { write_out(flag, 0, "flag") };
            };
            if room > 0 {
                check_out(value, "value")?;
                // SAFETY: the caller's buffer of `*buflen` bytes.
                unsafe { write_text(value, room as usize, &found) };
            }
            // SAFETY: the caller's pointers, checked non-NULL above.
            unsafe {
                write_out(buflen, found.len() as c_int + 1, "buflen")?;
                write_out(flag, 1, "flag")
            }
        })
    })
}

/// The value of `key` if it is set (deprecated by MPI-4.0): at most `valuelen` characters and
/// a NUL go to `value`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get(
    info: MPI_Info,
    key: *const c_char,
    valuelen: c_int,
    value: *mut c_char,
    flag: *mut c_int,
) -> c_int {
    export("MPI_Info_get", || {
        foreign_call!(
            MPI_Info_get(info, key, valuelen, value, flag)
            if backend().is_some()
        );
        guard("MPI_Info_get", || {
            // SAFETY: the caller's NUL-terminated string.
            let key = unsafe { key_arg(key)? };
            check_out(flag, "flag")?;
            if valuelen < 0 {
                return Err(MpiError::arg(format!("valuelen is {valuelen}")));
            }
            let found = value_of(info, &key)?;
            if let Some(found) = &found {
                check_out(value, "value")?;
                // SAFETY: the caller's buffer of `valuelen + 1` bytes.
                unsafe { write_text(value, valuelen as usize + 1, found) };
            }
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(flag, found.is_some() as c_int, "flag") }
        })
    })
}

/// The length of the value of `key`, if it is set (deprecated by MPI-4.0).
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get_valuelen(
    info: MPI_Info,
    key: *const c_char,
    valuelen: *mut c_int,
    flag: *mut c_int,
) -> c_int {
    export("MPI_Info_get_valuelen", || {
        foreign_call!(
            MPI_Info_get_valuelen(info, key, valuelen, flag)
            if backend().is_some()
        );
        guard("MPI_Info_get_valuelen", || {
            // SAFETY: the caller's NUL-terminated string.
            let key = unsafe { key_arg(key)? };
            check_out(valuelen, "valuelen")?;
            check_out(flag, "flag")?;
            let found = value_of(info, &key)?.map(|v| v.len());
            if let Some(len) = found {
                // SAFETY: the caller's pointer, checked non-NULL above.
                unsafe { write_out(valuelen, len as c_int, "valuelen")? };
            }
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(flag, found.is_some() as c_int, "flag") }
        })
    })
}

/// The number of keys set.
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get_nkeys(info: MPI_Info, nkeys: *mut c_int) -> c_int {
    export("MPI_Info_get_nkeys", || {
        foreign_call!(MPI_Info_get_nkeys(info, nkeys) if backend().is_some());
        guard("MPI_Info_get_nkeys", || {
            check_out(nkeys, "nkeys")?;
            let n = with_pairs(info, false, |pairs| pairs.len())?;
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(nkeys, n as c_int, "nkeys") }
        })
    })
}

/// The `n`-th key (from 0), into `key` (`MPI_MAX_INFO_KEY + 1` bytes).
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> c_int {
    export("MPI_Info_get_nthkey", || {
        foreign_call!(MPI_Info_get_nthkey(info, n, key) if backend().is_some());
        guard("MPI_Info_get_nthkey", || {
            check_out(key, "key")?;
            let found = with_pairs(info, false, |pairs| {
                usize::try_from(n)
                    .ok()
                    .and_then(|n| pairs.get(n))
                    .map(|(k, _)| k.clone())
            })?;
            let found =
                found.ok_or_else(|| MpiError::arg(format!("there is no key number {n}")))?;
            // SAFETY: the caller's buffer of MPI_MAX_INFO_KEY + 1 bytes.
            unsafe { write_text(key, MPI_MAX_INFO_KEY as usize + 1, &found) };
            Ok(())
        })
    })
}

/// A new info object with the same keys and values.
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_dup(info: MPI_Info, newinfo: *mut MPI_Info) -> c_int {
    export("MPI_Info_dup", || {
        foreign_call!(MPI_Info_dup(info, newinfo) if backend().is_some());
        guard("MPI_Info_dup", || {
            check_out(newinfo, "newinfo")?;
            let pairs = with_pairs(info, false, |pairs| pairs.clone())?;
            let made = new_info(pairs)?;
            // SAFETY: the caller's pointer, checked non-NULL above.
            unsafe { write_out(newinfo, made, "newinfo") }
        })
    })
}

/// Frees an info object and sets the handle to `MPI_INFO_NULL`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_free(info: *mut MPI_Info) -> c_int {
    export("MPI_Info_free", || {
        foreign_call!(MPI_Info_free(info) if backend().is_some());
        guard("MPI_Info_free", || {
            // SAFETY: the caller's in-out handle; read_in checks it for NULL.
            let handle = unsafe { read_in(info, "info")? };
            crate::info::free(handle)?;
            // SAFETY: as above.
            unsafe { write_out(info, MPI_INFO_NULL, "info") }
        })
    })
}
