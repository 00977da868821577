//! The info objects this library keeps standalone (with an MPI library behind, every info
//! object is that library's): their keys and values, by handle. The exported functions that
//! read and change them are in `src/ffi/info.rs`.

use crate::abi::*;
use crate::error::{MpiError, MpiResult};
use parking_lot::Mutex;

/// The keys and values of one info object, in the order the keys were first set.
pub type Pairs = Vec<(String, String)>;

/// The info objects made standalone, by [`own_info`] index (`None` once freed).
static INFOS: Mutex<Vec<Option<Pairs>>> = Mutex::new(Vec::new());

/// The error of a handle that is no info object of this library.
fn invalid(info: MPI_Info) -> MpiError {
    MpiError::new(
        MPI_ERR_INFO,
        format!("{info:#x} is not a valid info object"),
    )
}

/// Runs `f` on the pairs of `info` (`MPI_INFO_ENV` is empty and cannot be changed).
pub fn with_pairs<R>(
    info: MPI_Info,
    change: bool,
    f: impl FnOnce(&mut Pairs) -> R,
) -> MpiResult<R> {
    if info == MPI_INFO_ENV && !change {
        return Ok(f(&mut Vec::new()));
    }
    let index = own_info_index(info).ok_or_else(|| invalid(info))?;
    match INFOS.lock().get_mut(index) {
        Some(Some(pairs)) => Ok(f(pairs)),
        _ => Err(invalid(info)),
    }
}

/// The value of `key` in `info`, if it is set.
pub fn value_of(info: MPI_Info, key: &str) -> MpiResult<Option<String>> {
    with_pairs(info, false, |pairs| {
        pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    })
}

/// The hints of `info` as a list: none for `MPI_INFO_NULL` (what the calls that take hints
/// keep with their object).
pub fn hints_of(info: MPI_Info) -> MpiResult<Pairs> {
    match info {
        info if info == MPI_INFO_NULL => Ok(Vec::new()),
        info => with_pairs(info, false, |pairs| pairs.clone()),
    }
}

/// Sets `key` to `value` in `pairs`: in its place if it is set, else after the others.
pub fn set(pairs: &mut Pairs, key: String, value: String) {
    match pairs.iter_mut().find(|(k, _)| *k == key) {
        Some(pair) => pair.1 = value,
        None => pairs.push((key, value)),
    }
}

/// Registers a new info object with `pairs` and returns its handle.
pub fn new_info(pairs: Pairs) -> MpiResult<MPI_Info> {
    let mut infos = INFOS.lock();
    let handle = own_info(infos.len())
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many info objects"))?;
    infos.push(Some(pairs));
    Ok(handle)
}

/// Frees the info object `info`.
pub fn free(info: MPI_Info) -> MpiResult<()> {
    let index = own_info_index(info).ok_or_else(|| invalid(info))?;
    match INFOS.lock().get_mut(index) {
        Some(slot @ Some(_)) => *slot = None,
        _ => return Err(invalid(info)),
    }
    Ok(())
}
