//! The collectives with a count and a displacement per process: `MPI_Gatherv`,
//! `MPI_Scatterv`, `MPI_Allgatherv`, `MPI_Alltoallv`, `MPI_Alltoallw` and the `_c` form of
//! each. In drop-in mode each is the MPI behind's, with the sides the engine packs as bytes
//! ([`super::varying_engine`]). In the one-process world the one block
//! moves from the send side to the receive side through the engine ([`copy`]), each side
//! at its displacement (in extents of its type, or in bytes for `MPI_Alltoallw`).

use super::one_process::{copy, Side};
use super::varying_engine::{
    allgather_varied, alltoall_varied, gather_varied, scatter_varied, Single, Varied,
};
use super::{guard_on, missing_behind, standalone};
use crate::abi::p2p::MPI_IN_PLACE;
use crate::abi::{MPI_Aint, MPI_Comm, MPI_Count, MPI_Datatype};
use crate::behind::forward;
use crate::error::{MpiError, MpiResult};
use crate::ffi::{export, read_in, with_datatype};
use std::ffi::c_void;
use std::os::raw::c_int;

/// How a displacement counts.
#[derive(Clone, Copy)]
pub(super) enum Unit {
    /// In extents of the side's type (`MPI_Gatherv` and the like).
    Extents,
    /// In bytes (`MPI_Alltoallw`).
    Bytes,
}

/// The one process's side of a collective: `count` copies of `datatype` at `buffer` moved
/// by `displacement` (`MPI_IN_PLACE` stays where it is).
pub(super) fn side(
    buffer: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    displacement: i64,
    unit: Unit,
) -> MpiResult<Side> {
    if buffer.expose_provenance() == MPI_IN_PLACE || displacement == 0 {
        return Ok(Side {
            buffer,
            count,
            datatype,
        });
    }
    let bytes = match unit {
        Unit::Bytes => Some(displacement),
        Unit::Extents => with_datatype(datatype, |dt| dt.extent())?.checked_mul(displacement),
    }
    .ok_or_else(|| MpiError::overflow("the displacement"))?;
    Ok(Side {
        buffer: buffer.wrapping_byte_offset(bytes as isize),
        count,
        datatype,
    })
}

/// Reads the one process's entry of a per-process array argument.
///
/// # Safety
/// A non-NULL `array` holds an entry per process.
unsafe fn first<T: Copy + Into<i64>>(array: *const T, name: &str) -> MpiResult<i64> {
    // SAFETY: the caller's contract.
    Ok(unsafe { read_in(array, name)? }.into())
}

/// Defines `MPI_Gatherv` / `MPI_Allgatherv` (`$root`: whether it has a root) and their `_c`
/// forms.
macro_rules! gathervs {
    (@int $root:ident) => { c_int };
    ($count:ty: $displ:ty: $name:ident [$($root:ident)?] $helper:ident) => {
        #[doc = concat!("`", stringify!($name), "`: in the one-process world the block moves to its displacement.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            sendbuf: *const c_void,
            sendcount: $count,
            sendtype: MPI_Datatype,
            recvbuf: *mut c_void,
            recvcounts: *const $count,
            displs: *const $displ,
            recvtype: MPI_Datatype,
            $($root: c_int,)?
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                if !standalone() {
                    let call = |s: Single<$count>, r: Varied<$count, $displ, MPI_Datatype>| {
                        forward!($name: fn(*const c_void, $count, MPI_Datatype, *mut c_void,
                            *const $count, *const $displ, MPI_Datatype, $(gathervs!(@int $root),)? MPI_Comm) -> c_int,
                            s.buffer, s.count, s.datatype, r.buffer.cast_mut(), r.counts, r.displs, r.types, $($root,)? comm)
                        .unwrap_or_else(|| missing_behind(stringify!($name)))
                    };
                    let send = Single { buffer: sendbuf, count: sendcount, datatype: sendtype };
                    let recv = Varied { buffer: recvbuf.cast_const(), counts: recvcounts, displs, types: recvtype };
                    // SAFETY: the caller's arguments, passed on under the same contract.
                    return unsafe { $helper(send, recv, $($root,)? comm, call) };
                }
                guard_on(stringify!($name), comm, || {
                    let root: Option<c_int> = None $(.or(Some($root)))?;
                    // SAFETY: the caller's arrays of one entry per process.
                    let (count, displ) = unsafe { (first(recvcounts, "recvcounts")?, first(displs, "displs")?) };
                    let sent = side(sendbuf, sendcount.into(), sendtype, 0, Unit::Extents)?;
                    let received = side(recvbuf.cast_const(), count, recvtype, displ, Unit::Extents)?;
                    // SAFETY: the caller's buffers.
                    unsafe { copy(sent, received, comm, root) }
                })
            })
        }
    };
}

gathervs!(c_int: c_int: MPI_Gatherv [root] gather_varied);
gathervs!(MPI_Count: MPI_Aint: MPI_Gatherv_c [root] gather_varied);
gathervs!(c_int: c_int: MPI_Allgatherv [] allgather_varied);
gathervs!(MPI_Count: MPI_Aint: MPI_Allgatherv_c [] allgather_varied);

/// Defines `MPI_Scatterv` and `MPI_Scatterv_c`.
macro_rules! scattervs {
    ($count:ty: $displ:ty: $name:ident) => {
        #[doc = concat!("`", stringify!($name), "`: in the one-process world the block moves from its displacement.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            sendbuf: *const c_void,
            sendcounts: *const $count,
            displs: *const $displ,
            sendtype: MPI_Datatype,
            recvbuf: *mut c_void,
            recvcount: $count,
            recvtype: MPI_Datatype,
            root: c_int,
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                if !standalone() {
                    let call = |s: Varied<$count, $displ, MPI_Datatype>, r: Single<$count>| {
                        forward!($name: fn(*const c_void, *const $count, *const $displ, MPI_Datatype,
                            *mut c_void, $count, MPI_Datatype, c_int, MPI_Comm) -> c_int,
                            s.buffer, s.counts, s.displs, s.types, r.buffer.cast_mut(), r.count, r.datatype, root, comm)
                        .unwrap_or_else(|| missing_behind(stringify!($name)))
                    };
                    let send = Varied { buffer: sendbuf, counts: sendcounts, displs, types: sendtype };
                    let recv = Single { buffer: recvbuf.cast_const(), count: recvcount, datatype: recvtype };
                    // SAFETY: the caller's arguments, passed on under the same contract.
                    return unsafe { scatter_varied(send, recv, root, comm, call) };
                }
                guard_on(stringify!($name), comm, || {
                    // SAFETY: the caller's arrays of one entry per process.
                    let (count, displ) = unsafe { (first(sendcounts, "sendcounts")?, first(displs, "displs")?) };
                    let sent = side(sendbuf, count, sendtype, displ, Unit::Extents)?;
                    let received = side(recvbuf.cast_const(), recvcount.into(), recvtype, 0, Unit::Extents)?;
                    // SAFETY: the caller's buffers.
                    unsafe { copy(sent, received, comm, Some(root)) }
                })
            })
        }
    };
}

scattervs!(c_int: c_int: MPI_Scatterv);
scattervs!(MPI_Count: MPI_Aint: MPI_Scatterv_c);

/// Defines `MPI_Alltoallv` and `MPI_Alltoallv_c`.
macro_rules! alltoallvs {
    ($count:ty: $displ:ty: $name:ident) => {
        #[doc = concat!("`", stringify!($name), "`: in the one-process world the block moves between its displacements.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            sendbuf: *const c_void,
            sendcounts: *const $count,
            sdispls: *const $displ,
            sendtype: MPI_Datatype,
            recvbuf: *mut c_void,
            recvcounts: *const $count,
            rdispls: *const $displ,
            recvtype: MPI_Datatype,
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                if !standalone() {
                    let call = |s: Varied<$count, $displ, MPI_Datatype>, r: Varied<$count, $displ, MPI_Datatype>| {
                        forward!($name: fn(*const c_void, *const $count, *const $displ, MPI_Datatype,
                            *mut c_void, *const $count, *const $displ, MPI_Datatype, MPI_Comm) -> c_int,
                            s.buffer, s.counts, s.displs, s.types, r.buffer.cast_mut(), r.counts, r.displs, r.types, comm)
                        .unwrap_or_else(|| missing_behind(stringify!($name)))
                    };
                    let send = Varied { buffer: sendbuf, counts: sendcounts, displs: sdispls, types: sendtype };
                    let recv = Varied { buffer: recvbuf.cast_const(), counts: recvcounts, displs: rdispls, types: recvtype };
                    // SAFETY: the caller's arguments, passed on under the same contract.
                    return unsafe { alltoall_varied(send, recv, comm, call) };
                }
                guard_on(stringify!($name), comm, || {
                    let in_place = sendbuf.expose_provenance() == MPI_IN_PLACE;
                    // SAFETY: the caller's arrays of one entry per process (the send side's
                    // are not read with MPI_IN_PLACE).
                    let (sent, received) = unsafe {
                        let received = side(recvbuf.cast_const(), first(recvcounts, "recvcounts")?, recvtype,
                            first(rdispls, "rdispls")?, Unit::Extents)?;
                        let sent = match in_place {
                            true => Side { buffer: sendbuf, count: 0, datatype: recvtype },
                            false => side(sendbuf, first(sendcounts, "sendcounts")?, sendtype,
                                first(sdispls, "sdispls")?, Unit::Extents)?,
                        };
                        (sent, received)
                    };
                    // SAFETY: the caller's buffers.
                    unsafe { copy(sent, received, comm, None) }
                })
            })
        }
    };
}

alltoallvs!(c_int: c_int: MPI_Alltoallv);
alltoallvs!(MPI_Count: MPI_Aint: MPI_Alltoallv_c);

/// Defines `MPI_Alltoallw` and `MPI_Alltoallw_c`: a type per process, displacements in
/// bytes.
macro_rules! alltoallws {
    ($count:ty: $displ:ty: $name:ident) => {
        #[doc = concat!("`", stringify!($name), "`: in the one-process world the block moves between its byte displacements.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            sendbuf: *const c_void,
            sendcounts: *const $count,
            sdispls: *const $displ,
            sendtypes: *const MPI_Datatype,
            recvbuf: *mut c_void,
            recvcounts: *const $count,
            rdispls: *const $displ,
            recvtypes: *const MPI_Datatype,
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                if !standalone() {
                    let call = |s: Varied<$count, $displ, *const MPI_Datatype>, r: Varied<$count, $displ, *const MPI_Datatype>| {
                        forward!($name: fn(*const c_void, *const $count, *const $displ, *const MPI_Datatype,
                            *mut c_void, *const $count, *const $displ, *const MPI_Datatype, MPI_Comm) -> c_int,
                            s.buffer, s.counts, s.displs, s.types, r.buffer.cast_mut(), r.counts, r.displs, r.types, comm)
                        .unwrap_or_else(|| missing_behind(stringify!($name)))
                    };
                    let send = Varied { buffer: sendbuf, counts: sendcounts, displs: sdispls, types: sendtypes };
                    let recv = Varied { buffer: recvbuf.cast_const(), counts: recvcounts, displs: rdispls, types: recvtypes };
                    // SAFETY: the caller's arguments, passed on under the same contract.
                    return unsafe { alltoall_varied(send, recv, comm, call) };
                }
                guard_on(stringify!($name), comm, || {
                    let in_place = sendbuf.expose_provenance() == MPI_IN_PLACE;
                    // SAFETY: the caller's arrays of one entry per process (the send side's
                    // are not read with MPI_IN_PLACE).
                    let (sent, received) = unsafe {
                        let received = side(recvbuf.cast_const(), first(recvcounts, "recvcounts")?,
                            read_in(recvtypes, "recvtypes")?, first(rdispls, "rdispls")?, Unit::Bytes)?;
                        let sent = match in_place {
                            true => Side { buffer: sendbuf, count: 0, datatype: received.datatype },
                            false => side(sendbuf, first(sendcounts, "sendcounts")?,
                                read_in(sendtypes, "sendtypes")?, first(sdispls, "sdispls")?, Unit::Bytes)?,
                        };
                        (sent, received)
                    };
                    // SAFETY: the caller's buffers.
                    unsafe { copy(sent, received, comm, None) }
                })
            })
        }
    };
}

alltoallws!(c_int: c_int: MPI_Alltoallw);
alltoallws!(MPI_Count: MPI_Aint: MPI_Alltoallw_c);
