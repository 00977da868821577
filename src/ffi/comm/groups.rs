//! Groups: their sizes, ranks and comparisons, the set operations that make new ones, and
//! freeing them. In drop-in mode each is the MPI behind's; in the one-process world a group
//! is a list of ranks of `MPI_COMM_WORLD` ([`crate::serial::groups`]), and the operations
//! follow MPI-4.1 §7.3 on any such list.

use crate::abi::*;
use crate::error::{MpiError, MpiResult};
use crate::ffi::{check_out, guard, read_slice, write_out};
use crate::serial::groups::{self, Members};
use std::os::raw::c_int;

/// The members of a group handle: `MPI_GROUP_EMPTY`'s none, or those of a group the program
/// holds; `MPI_ERR_GROUP` for anything else.
pub(crate) fn members_of(group: MPI_Group) -> MpiResult<Members> {
    if group == MPI_GROUP_EMPTY {
        return Ok(Vec::new());
    }
    own_group_index(group)
        .and_then(groups::members)
        .ok_or_else(|| MpiError::new(MPI_ERR_GROUP, format!("{group:#x} is not a group")))
}

/// Keeps a group of `members` and writes its handle through `group` (`MPI_GROUP_EMPTY` for
/// no members, as MPICH gives).
///
/// # Safety
/// A non-NULL `group` is writable.
pub(crate) unsafe fn write_group(group: *mut MPI_Group, members: Members) -> MpiResult<()> {
    check_out(group, "group")?;
    let handle = match members.is_empty() {
        true => MPI_GROUP_EMPTY,
        false => {
            let index = groups::keep(members);
            own_group(index).ok_or_else(|| {
                groups::free(index);
                MpiError::new(MPI_ERR_NO_MEM, "too many groups")
            })?
        }
    };
    // SAFETY: checked non-NULL; the caller's contract.
    unsafe { write_out(group, handle, "group") }
}

one_process_functions! {
    /// The size of `group`.
    fn MPI_Group_size(group: MPI_Group, size: *mut c_int) via guard() {
        let members = members_of(group)?;
        // SAFETY: the caller's pointer.
        unsafe { write_out(size, members.len() as c_int, "size") }
    }

    /// The rank of this process in `group`, or `MPI_UNDEFINED` if it is not a member.
    fn MPI_Group_rank(group: MPI_Group, rank: *mut c_int) via guard() {
        let members = members_of(group)?;
        let at = members.iter().position(|&m| m == 0);
        // SAFETY: the caller's pointer.
        unsafe { write_out(rank, at.map_or(MPI_UNDEFINED, |k| k as c_int), "rank") }
    }

    /// Frees a group and sets the handle to `MPI_GROUP_NULL`.
    fn MPI_Group_free(group: *mut MPI_Group) via guard() {
        // SAFETY: the caller's pointer.
        let handle = unsafe { crate::ffi::read_in(group, "group")? };
        members_of(handle)?;
        if let Some(index) = own_group_index(handle) {
            groups::free(index);
        }
        // SAFETY: read above, so valid.
        unsafe { group.write(MPI_GROUP_NULL) };
        Ok(())
    }

    /// Compares two groups: `MPI_IDENT`, `MPI_SIMILAR` (the same members in another order) or
    /// `MPI_UNEQUAL`.
    fn MPI_Group_compare(group1: MPI_Group, group2: MPI_Group, result: *mut c_int) via guard() {
        let answer = groups::compare(&members_of(group1)?, &members_of(group2)?);
        // SAFETY: the caller's pointer.
        unsafe { write_out(result, answer, "result") }
    }

    /// The ranks in `group2` of the processes at `ranks1` in `group1`.
    fn MPI_Group_translate_ranks(group1: MPI_Group, n: c_int, ranks1: *const c_int, group2: MPI_Group, ranks2: *mut c_int) via guard() {
        let (from, to) = (members_of(group1)?, members_of(group2)?);
        // SAFETY: the caller's array of n ranks.
        let ranks = unsafe { read_slice(ranks1, n.into(), "ranks1")? };
        let sentinels = (MPI_UNDEFINED, MPI_PROC_NULL);
        let translated = groups::translate(&from, ranks, &to, sentinels)?;
        if !translated.is_empty() {
            check_out(ranks2, "ranks2")?;
        }
        for (k, rank) in translated.into_iter().enumerate() {
            // SAFETY: the caller's array of n ranks.
            unsafe { ranks2.add(k).write(rank) };
        }
        Ok(())
    }
}

one_process_functions! {
    /// `MPI_Group_union`: a new group, of the members of either group.
    fn MPI_Group_union(group1: MPI_Group, group2: MPI_Group, newgroup: *mut MPI_Group) via guard() {
        let members = groups::union(&members_of(group1)?, &members_of(group2)?);
        // SAFETY: the caller's pointer.
        unsafe { write_group(newgroup, members) }
    }

    /// `MPI_Group_intersection`: a new group, of the members of both groups.
    fn MPI_Group_intersection(group1: MPI_Group, group2: MPI_Group, newgroup: *mut MPI_Group) via guard() {
        let members = groups::intersection(&members_of(group1)?, &members_of(group2)?);
        // SAFETY: the caller's pointer.
        unsafe { write_group(newgroup, members) }
    }

    /// `MPI_Group_difference`: a new group, of the members of the first group only.
    fn MPI_Group_difference(group1: MPI_Group, group2: MPI_Group, newgroup: *mut MPI_Group) via guard() {
        let members = groups::difference(&members_of(group1)?, &members_of(group2)?);
        // SAFETY: the caller's pointer.
        unsafe { write_group(newgroup, members) }
    }

    /// `MPI_Group_incl`: a new group, of the members of `group` at `ranks`.
    fn MPI_Group_incl(group: MPI_Group, n: c_int, ranks: *const c_int, newgroup: *mut MPI_Group) via guard() {
        // SAFETY: the caller's array of n ranks.
        let ranks_in = |_| Ok(unsafe { read_slice(ranks, n.into(), "ranks")? }.to_vec());
        // SAFETY: the caller's pointer.
        unsafe { chosen(group, newgroup, groups::include, ranks_in) }
    }

    /// `MPI_Group_excl`: a new group, of the members of `group` not at `ranks`.
    fn MPI_Group_excl(group: MPI_Group, n: c_int, ranks: *const c_int, newgroup: *mut MPI_Group) via guard() {
        // SAFETY: the caller's array of n ranks.
        let ranks_in = |_| Ok(unsafe { read_slice(ranks, n.into(), "ranks")? }.to_vec());
        // SAFETY: the caller's pointer.
        unsafe { chosen(group, newgroup, groups::exclude, ranks_in) }
    }

    /// `MPI_Group_range_incl`: a new group, of the members of `group` at the ranks of the
    /// triplets `ranges` (first, last, stride).
    fn MPI_Group_range_incl(group: MPI_Group, n: c_int, ranges: *mut [c_int; 3], newgroup: *mut MPI_Group) via guard() {
        // SAFETY: the caller's array of n triplets.
        let ranks_in = |size| groups::ranges(unsafe { read_slice(ranges.cast_const(), n.into(), "ranges")? }, size);
        // SAFETY: the caller's pointer.
        unsafe { chosen(group, newgroup, groups::include, ranks_in) }
    }

    /// `MPI_Group_range_excl`: a new group, of the members of `group` not at the ranks of the
    /// triplets `ranges`.
    fn MPI_Group_range_excl(group: MPI_Group, n: c_int, ranges: *mut [c_int; 3], newgroup: *mut MPI_Group) via guard() {
        // SAFETY: the caller's array of n triplets.
        let ranks_in = |size| groups::ranges(unsafe { read_slice(ranges.cast_const(), n.into(), "ranges")? }, size);
        // SAFETY: the caller's pointer.
        unsafe { chosen(group, newgroup, groups::exclude, ranks_in) }
    }
}

/// The members of `group` that `choose` (`groups::include` or `groups::exclude`) picks by
/// the ranks `ranks_in` gives for a group of its size, written to `newgroup` as a new group.
///
/// # Safety
/// A non-NULL `newgroup` is writable.
unsafe fn chosen(
    group: MPI_Group,
    newgroup: *mut MPI_Group,
    choose: fn(&[c_int], &[c_int]) -> MpiResult<Members>,
    ranks_in: impl FnOnce(usize) -> MpiResult<Vec<c_int>>,
) -> MpiResult<()> {
    let members = members_of(group)?;
    let ranks = ranks_in(members.len())?;
    // SAFETY: the caller's pointer.
    unsafe { write_group(newgroup, choose(&members, &ranks)?) }
}
