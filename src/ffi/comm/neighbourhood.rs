//! The neighbourhood collectives: `MPI_Neighbor_allgather`, `_allgatherv`, `_alltoall`,
//! `_alltoallv` and `_alltoallw`, each with its `_c` form (the nonblocking and persistent
//! forms are made from these in [`super::nonblocking`]). In drop-in mode each is the MPI
//! behind's. In the one-process world every neighbour of the process's topology is the
//! process itself or `MPI_PROC_NULL`: each block it receives from itself is the block it
//! sent to itself along the matching edge ([`crate::serial::topology::Topology::neighbour_blocks`]),
//! moved through the engine, so the two sides may have different types of the same
//! signature; a block from `MPI_PROC_NULL` is left as it is.

use super::guard_on;
use super::one_process::{copy, Side};
use super::topologies::topology_of;
use super::varying::{side, Unit};
use crate::abi::{MPI_Aint, MPI_Comm, MPI_Count, MPI_Datatype};
use crate::error::{MpiError, MpiResult};
use crate::ffi::{read_array, read_slice};
use std::ffi::c_void;
use std::os::raw::c_int;

/// One side of a neighbourhood collective: its buffer and how each neighbour's block is
/// found in it.
struct Blocks {
    /// The buffer.
    buffer: *const c_void,
    /// Each block's count (one for all, or one per neighbour).
    counts: Vec<i64>,
    /// Each block's displacement (`None`: block k is k counts of its type from the start).
    displacements: Option<Vec<i64>>,
    /// Each block's type (one for all, or one per neighbour).
    types: Vec<MPI_Datatype>,
    /// How the displacements count.
    unit: Unit,
}

impl Blocks {
    /// `count` copies of `datatype` per neighbour, one block after the other (`same`: the one
    /// block for every neighbour, as `MPI_Neighbor_allgather` sends).
    fn regular(buffer: *const c_void, count: i64, datatype: MPI_Datatype, same: bool) -> Blocks {
        Blocks {
            buffer,
            counts: vec![count],
            displacements: same.then(|| vec![0]),
            types: vec![datatype],
            unit: Unit::Extents,
        }
    }

    /// The blocks of `degree` neighbours with their own counts and displacements (and types,
    /// for `MPI_Neighbor_alltoallw`, whose displacements are in bytes).
    ///
    /// # Safety
    /// The arrays hold `degree` entries (`types`: one, or `degree` with `per_block_types`).
    unsafe fn listed<C: Copy + Into<i64>, D: Copy + Into<i64>>(
        buffer: *const c_void,
        (counts, displacements): (*const C, *const D),
        (types, per_block_types): (*const MPI_Datatype, bool),
        degree: usize,
        names: [&str; 3],
    ) -> MpiResult<Blocks> {
        let degree = degree as i64;
        let type_count = if per_block_types { degree } else { 1 };
        // SAFETY: the caller's contract.
        unsafe {
            Ok(Blocks {
                buffer,
                counts: read_array(counts, degree, names[0])?,
                displacements: Some(read_array(displacements, degree, names[1])?),
                types: read_slice(types, type_count, names[2])?.to_vec(),
                unit: if per_block_types {
                    Unit::Bytes
                } else {
                    Unit::Extents
                },
            })
        }
    }

    /// The block of neighbour `k`.
    fn block(&self, k: usize) -> MpiResult<Side> {
        let pick = |values: &[i64]| values.get(k).or(values.first()).copied().unwrap_or(0);
        let count = pick(&self.counts);
        let datatype = *self
            .types
            .get(k)
            .or(self.types.first())
            .ok_or_else(|| MpiError::arg("no datatype for a neighbour's block"))?;
        let displacement = match &self.displacements {
            Some(displacements) => pick(displacements),
            None => (k as i64)
                .checked_mul(count)
                .ok_or_else(|| MpiError::overflow("the block's displacement"))?,
        };
        side(self.buffer, count, datatype, displacement, self.unit)
    }
}

/// A neighbourhood collective over `comm`'s topology in the one-process world: each block
/// received from the process itself is copied from the block it sent along the same edge.
///
/// # Safety
/// As for the MPI functions: the blocks sent are readable, those received writable.
unsafe fn exchange(
    comm: MPI_Comm,
    sent: impl FnOnce(usize) -> MpiResult<Blocks>,
    received: impl FnOnce(usize) -> MpiResult<Blocks>,
) -> MpiResult<()> {
    let topology = topology_of(comm)?;
    let (indegree, outdegree) = topology.degrees();
    let (sent, received) = (sent(outdegree)?, received(indegree)?);
    for (i, from) in topology.neighbour_blocks().into_iter().enumerate() {
        if let Some(j) = from {
            // SAFETY: the caller's buffers.
            unsafe { copy(sent.block(j)?, received.block(i)?, comm, None)? };
        }
    }
    Ok(())
}

/// Defines `MPI_Neighbor_allgather` / `MPI_Neighbor_alltoall` (`$same`: every neighbour gets
/// the one send block) and their `_c` forms.
macro_rules! neighbor_blocks {
    ($same:literal, $($count:ty: $name:ident),*) => {
        one_process_functions! {$(
            #[doc = concat!("`", stringify!($name), "`: in the one-process world each block from the process itself is the one it sent along the same edge.")]
            fn $name(sendbuf: *const c_void, sendcount: $count, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcount: $count, recvtype: MPI_Datatype, comm: MPI_Comm) via guard_on(comm) {
                // SAFETY: the caller's buffers.
                unsafe {
                    exchange(
                        comm,
                        |_| Ok(Blocks::regular(sendbuf, sendcount.into(), sendtype, $same)),
                        |_| Ok(Blocks::regular(recvbuf, recvcount.into(), recvtype, false)),
                    )
                }
            }
        )*}
    };
}

neighbor_blocks!(true, c_int: MPI_Neighbor_allgather, MPI_Count: MPI_Neighbor_allgather_c);
neighbor_blocks!(false, c_int: MPI_Neighbor_alltoall, MPI_Count: MPI_Neighbor_alltoall_c);

/// Defines `MPI_Neighbor_allgatherv` and its `_c` form.
macro_rules! neighbor_allgathervs {
    ($($count:ty: $displ:ty: $name:ident),*) => {
        one_process_functions! {$(
            #[doc = concat!("`", stringify!($name), "`: in the one-process world each block from the process itself is the one it sent, at its displacement.")]
            fn $name(sendbuf: *const c_void, sendcount: $count, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const $count, displs: *const $displ, recvtype: MPI_Datatype, comm: MPI_Comm) via guard_on(comm) {
                // SAFETY: the caller's buffers and arrays of one entry per neighbour.
                unsafe {
                    exchange(
                        comm,
                        |_| Ok(Blocks::regular(sendbuf, sendcount.into(), sendtype, true)),
                        |degree| Blocks::listed(recvbuf, (recvcounts, displs), (&recvtype, false), degree, ["recvcounts", "displs", "recvtype"]),
                    )
                }
            }
        )*}
    };
}

neighbor_allgathervs!(c_int: c_int: MPI_Neighbor_allgatherv, MPI_Count: MPI_Aint: MPI_Neighbor_allgatherv_c);

/// Defines `MPI_Neighbor_alltoallv` and its `_c` form.
macro_rules! neighbor_alltoallvs {
    ($($count:ty: $displ:ty: $name:ident),*) => {
        one_process_functions! {$(
            #[doc = concat!("`", stringify!($name), "`: in the one-process world each block from the process itself is the one it sent along the same edge, each at its displacement.")]
            fn $name(sendbuf: *const c_void, sendcounts: *const $count, sdispls: *const $displ, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const $count, rdispls: *const $displ, recvtype: MPI_Datatype, comm: MPI_Comm) via guard_on(comm) {
                // SAFETY: the caller's buffers and arrays of one entry per neighbour.
                unsafe {
                    exchange(
                        comm,
                        |degree| Blocks::listed(sendbuf, (sendcounts, sdispls), (&sendtype, false), degree, ["sendcounts", "sdispls", "sendtype"]),
                        |degree| Blocks::listed(recvbuf, (recvcounts, rdispls), (&recvtype, false), degree, ["recvcounts", "rdispls", "recvtype"]),
                    )
                }
            }
        )*}
    };
}

neighbor_alltoallvs!(c_int: c_int: MPI_Neighbor_alltoallv, MPI_Count: MPI_Aint: MPI_Neighbor_alltoallv_c);

/// Defines `MPI_Neighbor_alltoallw` and its `_c` form: a type per neighbour, displacements
/// in bytes.
macro_rules! neighbor_alltoallws {
    ($($count:ty: $name:ident),*) => {
        one_process_functions! {$(
            #[doc = concat!("`", stringify!($name), "`: in the one-process world each block from the process itself is the one it sent along the same edge, each with its type at its byte displacement.")]
            fn $name(sendbuf: *const c_void, sendcounts: *const $count, sdispls: *const MPI_Aint, sendtypes: *const MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const $count, rdispls: *const MPI_Aint, recvtypes: *const MPI_Datatype, comm: MPI_Comm) via guard_on(comm) {
                // SAFETY: the caller's buffers and arrays of one entry per neighbour.
                unsafe {
                    exchange(
                        comm,
                        |degree| Blocks::listed(sendbuf, (sendcounts, sdispls), (sendtypes, true), degree, ["sendcounts", "sdispls", "sendtypes"]),
                        |degree| Blocks::listed(recvbuf, (recvcounts, rdispls), (recvtypes, true), degree, ["recvcounts", "rdispls", "recvtypes"]),
                    )
                }
            }
        )*}
    };
}

neighbor_alltoallws!(c_int: MPI_Neighbor_alltoallw, MPI_Count: MPI_Neighbor_alltoallw_c);
