//! The names the twins of the program's handles carry in the MPI library behind when that
//! library hands back duplicates of them (Open MPI).
//!
//! MPICH gives back the very handle a type of its own was built on (`MPI_Type_get_contents`)
//! and, through ROMIO, a type built on the handle a file view was set with
//! (`MPI_File_get_view`). Open MPI gives back a new object instead: a duplicate, named "Dup "
//! followed by the original's name, whose envelope is the original's. So that such a
//! duplicate can be known as the program's type, every twin of a handle of the program's
//! carries there, over such a library, a name that says which handle it is ([`tag`]:
//! `mpi-dtype <handle> <serial>`, the serial telling the handle from a later one the MPI
//! behind makes at the same address once this one is gone). The names the program gives its
//! types stay this library's (`MPI_Type_set_name`), so the tag is never replaced.
//!
//! Open MPI names some types it makes itself the same way: `MPI_Type_create_resized` and
//! `MPI_Type_dup` start from a duplicate of their argument. A duplicate it hands back has its
//! original's envelope, which for every twin of a handle of the program's is
//! `MPI_COMBINER_CONTIGUOUS` of one ([`super::new_handle`]) or `MPI_COMBINER_DUP` of another
//! type ([`super::dup_handle`]). Open MPI's own `MPI_Type_dup` of the twin (or of a copy or
//! duplicate of it), whose child carries the same tag and stands for the twin, is a duplicate
//! of the handle's type; one of a resized type Open MPI made from the twin, whose child
//! carries the tag too, is neither ([`duplicated`]).

use crate::abi::*;
use crate::behind::forward;
use crate::dropin::behind_types::{self as types, check};
use crate::error::MpiResult;
use std::ffi::{c_char, CStr, CString};
use std::os::raw::c_int;
use std::sync::atomic::{AtomicU64, Ordering};

/// True where the MPI behind hands back duplicates of the program's handles: Open MPI's ABI.
const DUPLICATES: bool = cfg!(abi = "ompi");

/// What a tag starts with.
const TAG: &str = "mpi-dtype ";

/// What the MPI behind puts before the name of the type it duplicates.
const DUPLICATE: &str = "Dup ";

/// The serial of the next tag.
static SERIAL: AtomicU64 = AtomicU64::new(1);

/// Names `handle`, a new handle of the MPI behind for the program, after itself (where that
/// library duplicates handles it gives back).
pub fn tag(handle: MPI_Datatype) -> MpiResult<()> {
    if !DUPLICATES {
        return Ok(());
    }
    let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
    let name = CString::new(format!("{TAG}{:x} {serial:x}", handle_bits(handle)))
        .expect("a tag has no NUL");
    let rc = forward!(PMPI_Type_set_name: fn(MPI_Datatype, *const c_char) -> c_int,
        handle, name.as_ptr());
    check("PMPI_Type_set_name", rc)
}

/// The name the MPI behind gives its datatype `handle`.
fn name_of(handle: MPI_Datatype) -> Option<String> {
    let mut name = [0 as c_char; MPI_MAX_OBJECT_NAME as usize + 1];
    let mut length: c_int = 0;
    let rc = forward!(PMPI_Type_get_name: fn(MPI_Datatype, *mut c_char, *mut c_int) -> c_int,
        handle, name.as_mut_ptr(), &mut length);
    if rc != Some(MPI_SUCCESS) {
        return None;
    }
    // SAFETY: the MPI behind wrote a NUL-terminated name of at most MPI_MAX_OBJECT_NAME
    // characters, and the last element of the buffer is never written.
    let name = unsafe { CStr::from_ptr(name.as_ptr()) };
    name.to_str().ok().map(str::to_owned)
}

/// A duplicate the MPI behind made of one of the program's handles, or of such a duplicate:
/// the tagged handle and its tag.
pub struct Duplicated {
    /// The handle whose tag the duplicate's name carries.
    pub original: MPI_Datatype,
    /// That tag.
    tag: String,
    /// True if it is the MPI behind's `MPI_Type_dup` of the handle (or of a duplicate of it),
    /// a new type with its type map (`MPI_File_get_view` of Open MPI hands one back); false
    /// for a copy that stands for the handle itself.
    pub is_dup: bool,
}

impl Duplicated {
    /// True if `self.original`, a handle the program holds (so alive in the MPI behind), is
    /// still the handle the tag was given to, not a later one at the same address.
    pub fn is_current(&self) -> bool {
        name_of(self.original).is_some_and(|name| name == self.tag)
    }
}

/// What `handle`, a datatype of the MPI behind that is no handle of this library, duplicates:
/// `None` unless its name there is a tag after one or more "Dup " and its envelope is the one
/// a handle of the program's has (a copy of the handle), or that of Open MPI's
/// `MPI_Type_dup` of it, whose child carries the same tag.
pub fn duplicated(handle: MPI_Datatype) -> Option<Duplicated> {
    if !DUPLICATES {
        return None;
    }
    let name = name_of(handle)?;
    let tag = name.trim_start_matches(DUPLICATE);
    if tag.len() == name.len() {
        return None;
    }
    let (bits, serial) = tag.strip_prefix(TAG)?.split_once(' ')?;
    u64::from_str_radix(serial, 16).ok()?;
    let original = handle_from_bits(u64::from_str_radix(bits, 16).ok()?);
    let is_dup = match types::envelope(handle).ok()? {
        (1, 0, 0, 1, MPI_COMBINER_CONTIGUOUS) => false,
        (0, 0, 0, 1, MPI_COMBINER_DUP) => {
            let child = only_child(handle)?;
            match carries(&child, tag) {
                // A copy of a handle this library made as a duplicate.
                false => false,
                // Open MPI's `MPI_Type_dup` of the handle, or of a copy or duplicate of it;
                // not of a type Open MPI made from the handle (a resized one, named after it
                // all the same).
                true if child.0 == original || stands_for(child.0, original) => true,
                true => return None,
            }
        }
        _ => return None,
    };
    Some(Duplicated {
        original,
        tag: tag.to_owned(),
        is_dup,
    })
}

/// The one datatype the MPI behind decodes its type `handle` to, as a handle the caller need
/// not free: a duplicate of a derived child is freed at once, and only its name is read.
fn only_child(handle: MPI_Datatype) -> Option<Child> {
    let mut child = [MPI_DATATYPE_NULL];
    types::contents(handle, &mut [], &mut [], &mut [], &mut child).ok()?;
    Some(Child(child[0]))
}

/// A child the MPI behind decoded a type to: freed on drop unless predefined.
struct Child(MPI_Datatype);

impl Drop for Child {
    fn drop(&mut self) {
        if !has_predefined_form(self.0) {
            super::release(self.0);
        }
    }
}

/// True if `handle` is a copy or a duplicate the MPI behind made of `original`.
fn stands_for(handle: MPI_Datatype, original: MPI_Datatype) -> bool {
    duplicated(handle).is_some_and(|copy| copy.original == original)
}

/// True if the MPI behind's name of `child` is `tag` after none or more "Dup ": the child is
/// the tagged handle or a type Open MPI made from it (a duplicate, a resized type), never the
/// type a handle this library gave duplicates.
fn carries(child: &Child, tag: &str) -> bool {
    name_of(child.0).is_some_and(|name| name.trim_start_matches(DUPLICATE) == tag)
}
