//! Communicators: duplicating, splitting, creating from groups, freeing and comparing them,
//! their names, groups and predefined attributes. In drop-in mode each is the MPI behind's;
//! in the one-process world ([`crate::serial::comms`]) every communicator has the one
//! process, and each is a context of its own for messages.

use super::guard_on;
use crate::abi::*;
use crate::error::{MpiError, MpiResult};
use crate::ffi::{
    check_comm, check_out, errhandler_of, guard, place_of, write_c_string, write_out,
};
use crate::serial::comms::{self, Place};
use crate::serial::topology::Topology;
use std::ffi::c_char;
use std::os::raw::c_int;

/// Makes a communicator of the one process from `parent` (whose error handler it takes, and
/// for `MPI_Comm_dup` its attributes, through their copy callbacks, and its topology) and
/// writes its handle through `newcomm`.
///
/// # Safety
/// A non-NULL `newcomm` is writable.
unsafe fn make(parent: MPI_Comm, newcomm: *mut MPI_Comm, duplicate: bool) -> MpiResult<()> {
    let topology = match duplicate {
        true => comms::with(place_of(parent)?, |c| c.topology.clone()).flatten(),
        false => None,
    };
    // SAFETY: the caller's contract.
    unsafe { make_with(parent, newcomm, duplicate, topology) }
}

/// [`make`], the new communicator carrying `topology`.
///
/// # Safety
/// A non-NULL `newcomm` is writable.
pub(crate) unsafe fn make_with(
    parent: MPI_Comm,
    newcomm: *mut MPI_Comm,
    duplicate: bool,
    topology: Option<Topology>,
) -> MpiResult<()> {
    check_out(newcomm, "newcomm")?;
    let errhandler = errhandler_of(parent)?;
    let attributes = match duplicate {
        true => super::attributes::copy_all(parent)?,
        false => Vec::new(),
    };
    let index = comms::keep(comms::new(errhandler, attributes, topology));
    let Some(handle) = own_comm(index) else {
        if let Some(attributes) = comms::with(Place::Made(index), |c| c.attributes.clone()) {
            super::attributes::released(&attributes);
        }
        comms::free(index);
        return Err(MpiError::new(MPI_ERR_NO_MEM, "too many communicators"));
    };
    // SAFETY: checked non-NULL; the caller's contract.
    unsafe { write_out(newcomm, handle, "newcomm") }
}

/// Writes `MPI_COMM_NULL` through `newcomm`: the one process is not in the new communicator.
///
/// # Safety
/// A non-NULL `newcomm` is writable.
pub(crate) unsafe fn make_none(newcomm: *mut MPI_Comm) -> MpiResult<()> {
    // SAFETY: the caller's contract.
    unsafe { write_out(newcomm, MPI_COMM_NULL, "newcomm") }
}

/// Makes a communicator of `group`'s processes from `comm`: the one process's, or
/// `MPI_COMM_NULL` for the empty group.
///
/// # Safety
/// A non-NULL `newcomm` is writable.
unsafe fn make_from_group(
    comm: MPI_Comm,
    group: MPI_Group,
    newcomm: *mut MPI_Comm,
) -> MpiResult<()> {
    check_comm(comm)?;
    let members = super::groups::members_of(group)?;
    if members.iter().any(|&m| m != 0) {
        return Err(MpiError::new(
            MPI_ERR_GROUP,
            "the group is not a subgroup of the communicator's",
        ));
    }
    match members.is_empty() {
        // SAFETY: the caller's contract.
        true => unsafe { make_none(newcomm) },
        // SAFETY: the caller's contract.
        false => unsafe { make(comm, newcomm, false) },
    }
}

one_process_functions! {
    /// Makes a duplicate of `comm`, with its error handler (attributes are not copied: the
    /// one-process world has only the predefined ones).
    fn MPI_Comm_dup(comm: MPI_Comm, newcomm: *mut MPI_Comm) via guard_on(comm) {
        // SAFETY: the caller's pointer.
        unsafe { make(comm, newcomm, true) }
    }

    /// `MPI_Comm_dup` with info hints (the one-process world takes none).
    fn MPI_Comm_dup_with_info(comm: MPI_Comm, info: MPI_Info, newcomm: *mut MPI_Comm) via guard_on(comm) {
        // SAFETY: the caller's pointer.
        unsafe { make(comm, newcomm, true) }
    }

    /// Nonblocking `MPI_Comm_dup`: in the one-process world the request is complete at once.
    fn MPI_Comm_idup(comm: MPI_Comm, newcomm: *mut MPI_Comm, request: *mut MPI_Request) via guard_on(comm) {
        check_out(request, "request")?;
        // SAFETY: the caller's pointers.
        unsafe {
            make(comm, newcomm, true)?;
            super::serial::complete_at_once("MPI_Comm_idup", request)
        }
    }

    /// Splits `comm` by `color` (`MPI_UNDEFINED`: the process is in no new communicator).
    fn MPI_Comm_split(comm: MPI_Comm, color: c_int, key: c_int, newcomm: *mut MPI_Comm) via guard_on(comm) {
        check_comm(comm)?;
        match color {
            // SAFETY: the caller's pointer.
            MPI_UNDEFINED => unsafe { make_none(newcomm) },
            c if c < 0 => Err(MpiError::arg(format!("color {c} is negative"))),
            // SAFETY: the caller's pointer.
            _ => unsafe { make(comm, newcomm, false) },
        }
    }

    /// Splits `comm` by a kind of locality (`MPI_COMM_TYPE_SHARED`, ...): the one process is
    /// one of each kind.
    fn MPI_Comm_split_type(comm: MPI_Comm, split_type: c_int, key: c_int, info: MPI_Info, newcomm: *mut MPI_Comm) via guard_on(comm) {
        check_comm(comm)?;
        match split_type {
            // SAFETY: the caller's pointer.
            MPI_UNDEFINED => unsafe { make_none(newcomm) },
            MPI_COMM_TYPE_SHARED => {
                // SAFETY: the caller's pointer.
                unsafe { make(comm, newcomm, false) }
            }
            // MPI-4.1 §7.4.2: a split by the kind of hardware resource the info key
            // mpi_hw_resource_type names (mpi_shared_memory is the one every library
            // knows); for any other, or none, the process is in no new communicator.
            MPI_COMM_TYPE_HW_GUIDED => {
                let resource = match info {
                    info if info == MPI_INFO_NULL => None,
                    info => crate::info::value_of(info, HW_RESOURCE)?,
                };
                if resource.as_deref() != Some(SHARED_MEMORY) {
                    // SAFETY: the caller's pointer.
                    return unsafe { make_none(newcomm) };
                }
                // SAFETY: the caller's pointer.
                unsafe { make(comm, newcomm, false)? };
                // SAFETY: written above.
                let made = unsafe { newcomm.read() };
                comms::with(crate::ffi::place_of(made)?, |c| {
                    c.info = vec![(HW_RESOURCE.to_string(), SHARED_MEMORY.to_string())];
                });
                Ok(())
            }
            // A split into strict subsets of the group: one process has none.
            // SAFETY: the caller's pointer.
            MPI_COMM_TYPE_HW_UNGUIDED => unsafe { make_none(newcomm) },
            other => Err(MpiError::arg(format!("{other} is not a split type"))),
        }
    }
}

/// The info key of `MPI_COMM_TYPE_HW_GUIDED` that names a kind of hardware resource.
const HW_RESOURCE: &str = "mpi_hw_resource_type";
/// The kind of hardware resource every library knows: the processes that share memory.
const SHARED_MEMORY: &str = "mpi_shared_memory";

one_process_functions! {
    /// Makes a communicator of the processes of `group`, a subgroup of `comm`'s.
    fn MPI_Comm_create(comm: MPI_Comm, group: MPI_Group, newcomm: *mut MPI_Comm) via guard_on(comm) {
        // SAFETY: the caller's pointer.
        unsafe { make_from_group(comm, group, newcomm) }
    }

    /// `MPI_Comm_create` called by the members of `group` only.
    fn MPI_Comm_create_group(comm: MPI_Comm, group: MPI_Group, tag: c_int, newcomm: *mut MPI_Comm) via guard_on(comm) {
        if tag < 0 {
            return Err(MpiError::new(MPI_ERR_TAG, format!("tag {tag} is negative")));
        }
        // SAFETY: the caller's pointer.
        unsafe { make_from_group(comm, group, newcomm) }
    }

    /// Frees a communicator the program made and sets the handle to `MPI_COMM_NULL`.
    fn MPI_Comm_free(comm: *mut MPI_Comm) via guard() {
        // SAFETY: the caller's pointer.
        let handle = unsafe { crate::ffi::read_in(comm, "comm")? };
        let Place::Made(index) = place_of(handle)? else {
            return Err(MpiError::new(
                MPI_ERR_COMM,
                "MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed",
            ));
        };
        super::attributes::delete_all(handle)?;
        comms::free(index);
        // SAFETY: read above, so valid.
        unsafe { comm.write(MPI_COMM_NULL) };
        Ok(())
    }

    /// Compares two communicators: `MPI_IDENT` for the same one; every other pair of the
    /// one-process world has the same group in another context, `MPI_CONGRUENT`.
    fn MPI_Comm_compare(comm1: MPI_Comm, comm2: MPI_Comm, result: *mut c_int) via guard() {
        check_comm(comm1)?;
        check_comm(comm2)?;
        let answer = if comm1 == comm2 {
            MPI_IDENT
        } else {
            MPI_CONGRUENT
        };
        // SAFETY: the caller's pointer.
        unsafe { write_out(result, answer, "result") }
    }

    /// Sets `flag` if `comm` is an intercommunicator (never, in the one-process world).
    fn MPI_Comm_test_inter(comm: MPI_Comm, flag: *mut c_int) via guard_on(comm) {
        check_comm(comm)?;
        // SAFETY: the caller's pointer.
        unsafe { write_out(flag, 0, "flag") }
    }
}

/// The error of asking an intracommunicator for its remote group.
fn not_inter() -> MpiError {
    MpiError::new(
        MPI_ERR_COMM,
        "the communicator is not an intercommunicator (it has no remote group)",
    )
}

one_process_functions! {
    /// The size of the remote group of an intercommunicator.
    fn MPI_Comm_remote_size(comm: MPI_Comm, size: *mut c_int) via guard_on(comm) {
        check_comm(comm)?;
        Err(not_inter())
    }

    /// The remote group of an intercommunicator.
    fn MPI_Comm_remote_group(comm: MPI_Comm, group: *mut MPI_Group) via guard_on(comm) {
        check_comm(comm)?;
        Err(not_inter())
    }

    /// The group of `comm`'s processes (a new group handle, to be freed).
    fn MPI_Comm_group(comm: MPI_Comm, group: *mut MPI_Group) via guard_on(comm) {
        check_comm(comm)?;
        // SAFETY: the caller's pointer.
        unsafe { super::groups::write_group(group, vec![0]) }
    }

    /// Names `comm`.
    fn MPI_Comm_set_name(comm: MPI_Comm, comm_name: *const c_char) via guard_on(comm) {
        // SAFETY: the caller passes a C string.
        let name = unsafe { crate::ffi::read_object_name(comm_name, "comm_name")? };
        comms::with(place_of(comm)?, |c| c.name = name);
        Ok(())
    }

    /// The name of `comm` (empty if it was never named).
    fn MPI_Comm_get_name(comm: MPI_Comm, comm_name: *mut c_char, resultlen: *mut c_int) via guard_on(comm) {
        let name = comms::with(place_of(comm)?, |c| c.name.clone()).unwrap_or_default();
        // SAFETY: the caller's buffers of MPI_MAX_OBJECT_NAME bytes and an int.
        unsafe { write_c_string(comm_name, resultlen, &name, MPI_MAX_OBJECT_NAME) }
    }
}

one_process_functions! {
    /// Adds the hints of `info` to the communicator's.
    fn MPI_Comm_set_info(comm: MPI_Comm, info: MPI_Info) via guard_on(comm) {
        let place = place_of(comm)?;
        let hints = crate::info::hints_of(info)?;
        comms::with(place, |c| {
            for (key, value) in hints {
                crate::info::set(&mut c.info, key, value);
            }
        });
        Ok(())
    }
    /// A new info object with the communicator's hints.
    fn MPI_Comm_get_info(comm: MPI_Comm, info_used: *mut MPI_Info) via guard_on(comm) {
        let place = place_of(comm)?;
        check_out(info_used, "info_used")?;
        let hints = comms::with(place, |c| c.info.clone()).unwrap_or_default();
        let info = crate::info::new_info(hints)?;
        // SAFETY: checked non-NULL above.
        unsafe { write_out(info_used, info, "info_used") }
    }
    /// Calls the communicator's error handler with `errorcode`.
    fn MPI_Comm_call_errhandler(comm: MPI_Comm, errorcode: c_int) via guard_on(comm) {
        let handler = crate::ffi::errhandler_of(comm)?;
        crate::ffi::call_handler("MPI_Comm_call_errhandler", handler, errorcode, crate::error::Raised::Comm(comm));
        Ok(())
    }
    /// `MPI_Comm_dup_with_info` that returns a request, complete at once.
    fn MPI_Comm_idup_with_info(comm: MPI_Comm, info: MPI_Info, newcomm: *mut MPI_Comm, request: *mut MPI_Request) via guard_on(comm) {
        check_out(request, "request")?;
        let hints = crate::info::hints_of(info)?;
        // SAFETY: the caller's pointers.
        unsafe { make(comm, newcomm, true)? };
        // SAFETY: written above.
        let made = unsafe { newcomm.read() };
        comms::with(place_of(made)?, |c| c.info = hints);
        // SAFETY: the caller's pointer.
        unsafe { super::serial::complete_at_once("MPI_Comm_idup_with_info", request) }
    }
    /// An intercommunicator between the groups of `local_comm` and of the remote leader: in
    /// a world of one process the remote leader is the process itself, which is in the local
    /// group, so there is no remote group (MPI-4.1 §7.6.2 wants the two disjoint).
    fn MPI_Intercomm_create(local_comm: MPI_Comm, local_leader: c_int, peer_comm: MPI_Comm, remote_leader: c_int, tag: c_int, newintercomm: *mut MPI_Comm) via guard_on(local_comm) {
        let _ = (local_leader, tag);
        check_comm(local_comm)?;
        check_comm(peer_comm)?;
        check_out(newintercomm, "newintercomm")?;
        Err(MpiError::new(MPI_ERR_RANK, format!(
            "the remote leader, rank {remote_leader}, must be outside the local group, and the one process is in it"
        )))
    }
    /// An intracommunicator of both groups of an intercommunicator: there is none in a
    /// world of one process.
    fn MPI_Intercomm_merge(intercomm: MPI_Comm, high: c_int, newintracomm: *mut MPI_Comm) via guard_on(intercomm) {
        let _ = (high, newintracomm);
        check_comm(intercomm)?;
        Err(not_inter())
    }
    /// The profiling control of MPI-4.1 §15.2.4: `level` 0 stops profiling, 1 resumes it, 2
    /// flushes it. This library profiles nothing by itself, so it only checks nothing and
    /// returns (a tool that defines `MPI_Pcontrol` sees the calls; the arguments after
    /// `level` are not read).
    fn MPI_Pcontrol(level: c_int) via guard() {
        let _ = level;
        Ok(())
    }
}
