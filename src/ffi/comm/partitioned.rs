//! Partitioned communication (MPI-4.1 §4): `MPI_Psend_init` and `MPI_Precv_init` make
//! persistent requests that `MPI_Start` starts, `MPI_Pready`, `MPI_Pready_range` and
//! `MPI_Pready_list` mark a send's partitions ready, and `MPI_Parrived` tells whether a
//! receive's partition has arrived. In drop-in mode each is the MPI behind's; in the
//! one-process world a process sends to itself ([`crate::serial::partitioned`]).

use super::serial::{buffer, check_rank, live_request, selector, write_request};
use super::{guard, guard_on};
use crate::abi::*;
use crate::error::{MpiError, MpiResult};
use crate::ffi::{check_out, read_slice, write_out};
use crate::serial::partitioned::{Marked, Partitioned};
use crate::serial::world;
use std::ffi::c_void;
use std::os::raw::c_int;

/// Makes the partitioned send (`sending`) or receive of `partitions` partitions of `count`
/// copies of `datatype` each at `buf`, with `peer`, `tag` and `comm`, and writes its request.
///
/// # Safety
/// A non-NULL `request` is writable.
unsafe fn initialize(
    call: &'static str,
    sending: bool,
    (buf, partitions, count, datatype): (*const c_void, c_int, MPI_Count, MPI_Datatype),
    (peer, tag, comm): (c_int, c_int, MPI_Comm),
    info: MPI_Info,
    request: *mut MPI_Request,
) -> MpiResult<()> {
    check_out(request, "request")?;
    // A wildcard is no source or tag of a partitioned receive (MPI-4.1 §4.2.1).
    let selector = selector(comm, tag, false)?;
    check_rank(peer, false)?;
    crate::datatype::construct::check_count(count, "count")?;
    if partitions <= 0 {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("partitions is {partitions}: a partitioned operation has at least one"),
        ));
    }
    let copies = count.checked_mul(partitions.into()).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_COUNT,
            format!("{partitions} partitions of {count} copies are more than MPI_Count counts"),
        )
    })?;
    crate::info::hints_of(info)?;
    let buffer = buffer(buf, copies, datatype)?;
    let partition_bytes = crate::pack::packed_size(&buffer.datatype, count)?;
    let total = partition_bytes
        .checked_mul(partitions.into())
        .and_then(|total| usize::try_from(total).ok())
        .ok_or_else(|| {
            MpiError::new(
                MPI_ERR_COUNT,
                format!("{partitions} partitions of {partition_bytes} bytes are more bytes than a process can hold"),
            )
        })?;
    let side = Partitioned {
        sending,
        buffer,
        partitions: partitions as usize,
        partition_bytes: partition_bytes as usize,
        total,
        channel: None,
    };
    let index = world::partitioned(call, side, (selector.comm, tag), peer != MPI_PROC_NULL);
    // SAFETY: checked non-NULL; the caller's request.
    unsafe { write_request(request, index) }
}

/// Marks the partitions `marked` of the partitioned send `request` ready.
fn ready(request: MPI_Request, marked: Marked) -> MpiResult<()> {
    let index = live_request(request, "marked ready")?;
    // SAFETY: the program keeps a started send's buffer readable until it completes.
    unsafe { world::ready(index, marked) }
}

/// Marks the `length` partitions listed at `list` ready (`MPI_Pready_list`).
///
/// # Safety
/// A non-NULL `list` holds `length` partitions.
unsafe fn ready_list(length: c_int, list: *const c_int, request: MPI_Request) -> MpiResult<()> {
    if length < 0 {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("length is {length}: a list is not shorter than empty"),
        ));
    }
    // SAFETY: the caller's contract.
    let partitions = unsafe { read_slice(list, length.into(), "array_of_partitions")? };
    ready(request, Marked::List(partitions))
}

one_process_functions! {
    /// Makes a partitioned send of `partitions` partitions of `count` copies of `datatype`
    /// each: a persistent request, paired with the partitioned receive of `dest`, `tag` and
    /// `comm` made first and not paired yet (or the next made).
    fn MPI_Psend_init(buf: *const c_void, partitions: c_int, count: MPI_Count, datatype: MPI_Datatype, dest: c_int, tag: c_int, comm: MPI_Comm, info: MPI_Info, request: *mut MPI_Request) via guard_on(comm) {
        let data = (buf, partitions, count, datatype);
        // SAFETY: the program's request.
        unsafe { initialize("MPI_Psend_init", true, data, (dest, tag, comm), info, request) }
    }
    /// Makes a partitioned receive of `partitions` partitions of `count` copies of
    /// `datatype` each, paired as `MPI_Psend_init`'s send is.
    fn MPI_Precv_init(buf: *mut c_void, partitions: c_int, count: MPI_Count, datatype: MPI_Datatype, source: c_int, tag: c_int, comm: MPI_Comm, info: MPI_Info, request: *mut MPI_Request) via guard_on(comm) {
        let data = (buf.cast_const(), partitions, count, datatype);
        // SAFETY: the program's request.
        unsafe { initialize("MPI_Precv_init", false, data, (source, tag, comm), info, request) }
    }
    /// Marks the partition `partition` of a started partitioned send ready: its data may go.
    fn MPI_Pready(partition: c_int, request: MPI_Request) via guard() {
        ready(request, Marked::One(partition))
    }
    /// Marks the partitions `partition_low` to `partition_high` (both included) ready.
    fn MPI_Pready_range(partition_low: c_int, partition_high: c_int, request: MPI_Request) via guard() {
        if partition_low > partition_high {
            return Err(MpiError::new(MPI_ERR_ARG, format!(
                "partition_low {partition_low} is above partition_high {partition_high}")));
        }
        ready(request, Marked::Range(partition_low, partition_high))
    }
    /// Marks the `length` partitions listed in `array_of_partitions` ready.
    #[cfg(abi = "standard")]
    fn MPI_Pready_list(length: c_int, array_of_partitions: *const c_int, request: MPI_Request) via guard() {
        // SAFETY: the program's array of `length` partitions.
        unsafe { ready_list(length, array_of_partitions, request) }
    }
    /// Marks the `length` partitions listed in `array_of_partitions` ready (MPICH 4's and Open
    /// MPI's `mpi.h` declare the array without `const`).
    #[cfg(not(abi = "standard"))]
    fn MPI_Pready_list(length: c_int, array_of_partitions: *mut c_int, request: MPI_Request) via guard() {
        // SAFETY: the program's array of `length` partitions.
        unsafe { ready_list(length, array_of_partitions, request) }
    }
    /// Sets `*flag` to whether the partition `partition` of a partitioned receive has
    /// arrived (true for `MPI_REQUEST_NULL` and a receive not started).
    fn MPI_Parrived(request: MPI_Request, partition: c_int, flag: *mut c_int) via guard() {
        let arrived = match request == MPI_REQUEST_NULL {
            true => true,
            false => world::arrived(live_request(request, "tested")?, partition)?,
        };
        // SAFETY: the program's flag.
        unsafe { write_out(flag, c_int::from(arrived), "flag") }
    }
}
