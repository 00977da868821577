//! Whether every process of a communicator is a process of this one's `MPI_COMM_WORLD`, so
//! that what the processes of the world learnt alike ([`super::peers`]) holds for all of a
//! communicator's processes. It does not for a communicator that reaches processes of another
//! world (made by `MPI_Comm_spawn`, `MPI_Comm_connect` and `MPI_Comm_accept`, `MPI_Comm_join`,
//! or from one of those, as an `MPI_Intercomm_merge` of it): those may have learnt otherwise,
//! a spawned process nothing at all.
//!
//! The MPI behind is asked once per communicator: the world ranks of its group (and of its
//! remote group). The answer is kept as an attribute of the communicator, of a key of this
//! library's own whose copy callback copies nothing (a duplicate is asked again), and the
//! MPI behind drops it with the communicator.

use crate::abi::{MPI_Comm, MPI_Group, MPI_COMM_NULL, MPI_COMM_WORLD, MPI_SUCCESS, MPI_UNDEFINED};
use crate::behind::forward;
use std::os::raw::{c_int, c_void};
use std::sync::OnceLock;

/// The attribute's value where every process is of this world.
const WITHIN: usize = 1;
/// The attribute's value where some process is not.
const BEYOND: usize = 2;

/// Whether every process of `comm` (of both groups of an intercommunicator) is a process of
/// this process's `MPI_COMM_WORLD`; false where the MPI behind cannot say, where there is no
/// world (a process that made its communicators from sessions, without `MPI_Init`) and for
/// `MPI_COMM_NULL` (the call then reports the error itself).
pub fn within_world(comm: MPI_Comm) -> bool {
    if comm == MPI_COMM_NULL {
        return false;
    }
    let Some(key) = key() else {
        return false;
    };
    let (mut value, mut found): (*mut c_void, c_int) = (std::ptr::null_mut(), 0);
    let asked = forward!(PMPI_Comm_get_attr: fn(MPI_Comm, c_int, *mut c_void, *mut c_int) -> c_int,
        comm, key, (&raw mut value).cast(), &mut found);
    if asked != Some(MPI_SUCCESS) {
        return false;
    }
    if found != 0 {
        return value as usize == WITHIN;
    }
    // Asked only where the answer is not kept yet: it was kept while the world was there.
    if !world_initialized() {
        return false;
    }
    let within = groups_within_world(comm).unwrap_or(false);
    let value = if within { WITHIN } else { BEYOND };
    // Where it cannot be kept, it is asked again at the next call.
    let _ = forward!(PMPI_Comm_set_attr: fn(MPI_Comm, c_int, *mut c_void) -> c_int,
        comm, key, value as *mut c_void);
    within
}

/// Whether `MPI_COMM_WORLD` may be used: `MPI_Init` was called (sessions do not count) and
/// `MPI_Finalize` was not.
fn world_initialized() -> bool {
    let (mut initialized, mut finalized): (c_int, c_int) = (0, 0);
    let asked = forward!(PMPI_Initialized: fn(*mut c_int) -> c_int, &mut initialized);
    let ended = forward!(PMPI_Finalized: fn(*mut c_int) -> c_int, &mut finalized);
    asked == Some(MPI_SUCCESS) && ended == Some(MPI_SUCCESS) && initialized != 0 && finalized == 0
}

/// The key of the attribute, made at the first call (`None` where the MPI behind made none).
fn key() -> Option<c_int> {
    static KEY: OnceLock<Option<c_int>> = OnceLock::new();
    *KEY.get_or_init(|| {
        let mut key: c_int = 0;
        let copy = crate::keyvals::copy_nothing::<MPI_Comm>;
        let delete = crate::keyvals::delete_nothing::<MPI_Comm>;
        let made = forward!(PMPI_Comm_create_keyval: fn(crate::abi::MPI_Comm_copy_attr_function, crate::abi::MPI_Comm_delete_attr_function, *mut c_int, *mut c_void) -> c_int,
            Some(copy), Some(delete), &mut key, std::ptr::null_mut());
        (made == Some(MPI_SUCCESS)).then_some(key)
    })
}

/// Asks the MPI behind whether every process of `comm` is of this world.
fn groups_within_world(comm: MPI_Comm) -> Option<bool> {
    let mut inter: c_int = 0;
    let asked = forward!(PMPI_Comm_test_inter: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut inter);
    (asked == Some(MPI_SUCCESS)).then_some(())?;
    let world = Group::of(MPI_COMM_WORLD, false)?;
    let local = Group::of(comm, false)?;
    let within = local.within(&world)?;
    match inter != 0 && within {
        true => Group::of(comm, true)?.within(&world),
        false => Some(within),
    }
}

/// A group of the MPI behind, freed when dropped.
struct Group(MPI_Group);

impl Group {
    /// The group of `comm`, or its remote group (`remote`).
    fn of(comm: MPI_Comm, remote: bool) -> Option<Group> {
        let mut group: MPI_Group = crate::abi::MPI_GROUP_NULL;
        let made = match remote {
            false => {
                forward!(PMPI_Comm_group: fn(MPI_Comm, *mut MPI_Group) -> c_int, comm, &mut group)
            }
            true => {
                forward!(PMPI_Comm_remote_group: fn(MPI_Comm, *mut MPI_Group) -> c_int, comm, &mut group)
            }
        };
        (made == Some(MPI_SUCCESS)).then_some(Group(group))
    }

    /// Whether every process of this group is one of `world`.
    fn within(&self, world: &Group) -> Option<bool> {
        let mut size: c_int = 0;
        let asked =
            forward!(PMPI_Group_size: fn(MPI_Group, *mut c_int) -> c_int, self.0, &mut size);
        (asked == Some(MPI_SUCCESS) && size >= 0).then_some(())?;
        let ranks: Vec<c_int> = (0..size).collect();
        let mut there = vec![MPI_UNDEFINED; ranks.len()];
        let translated = forward!(PMPI_Group_translate_ranks: fn(MPI_Group, c_int, *const c_int, MPI_Group, *mut c_int) -> c_int,
            self.0, size, ranks.as_ptr(), world.0, there.as_mut_ptr());
        (translated == Some(MPI_SUCCESS)).then_some(())?;
        Some(there.iter().all(|&rank| rank != MPI_UNDEFINED))
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let _ = forward!(PMPI_Group_free: fn(*mut MPI_Group) -> c_int, &mut self.0);
    }
}
