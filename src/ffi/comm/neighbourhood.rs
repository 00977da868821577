//! The neighbourhood collectives: `MPI_Neighbor_allgather`, `_allgatherv`, `_alltoall`,
//! `_alltoallv` and `_alltoallw`, each with its `_c` form, its nonblocking form and its
//! persistent form, all made with [`super::varying::varying_collective`]. In drop-in mode each is
//! the MPI behind's, on the engine's path for the sides it packs, as the collectives of a
//! block per process are ([`super::varying_engine`]; the blocks from an `MPI_PROC_NULL`
//! neighbour stay as they are). In the one-process world every neighbour of the process's topology is the
//! process itself or `MPI_PROC_NULL`: each block it receives from itself is the block it
//! sent to itself along the matching edge ([`crate::serial::topology::Topology::neighbour_blocks`]),
//! moved through the engine, so the two sides may have different types of the same
//! signature; a block from `MPI_PROC_NULL` is left as it is.

use super::blocks::neighbor_exchange;
use super::one_process::{copy, Side};
use super::serial::at_once;
use super::topologies::topology_of;
use super::varying::{alltoall_shaped, varying_collective};
use super::varying::{side, Unit};
use super::varying_engine::{allgather_varied, alltoall_varied, Number, Single, Types, Varied};
use super::{guard_on, missing_behind, standalone};
use crate::abi::{MPI_Aint, MPI_Comm, MPI_Count, MPI_Datatype, MPI_Info, MPI_Request};
use crate::behind::forward;
use crate::dropin::comm::blocks::Exchange;
use crate::dropin::comm::collective::After;
use crate::error::{MpiError, MpiResult};
use crate::ffi::export;
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
/// the one send block), their `_c` forms and their nonblocking and persistent forms.
macro_rules! neighbor_blocks {
    ($same:literal, $count:ty: $name:ident / $iname:ident / $pname:ident $(as $int:ident / $iint:ident / $pint:ident)?) => {
        varying_collective! {
            #[doc = concat!("`", stringify!($name), "`: in the one-process world each block from the process itself is the one it sent along the same edge.")]
            fn $name / $iname / $pname $(as $int / $iint / $pint)? (
                sendbuf: *const c_void,
                sendcount: $count,
                sendtype: MPI_Datatype,
                recvbuf: *mut c_void,
                recvcount: $count,
                recvtype: MPI_Datatype,
                comm: MPI_Comm,
            )
            root []
            sides (
                Single { buffer: sendbuf, count: sendcount, datatype: sendtype },
                Single { buffer: recvbuf.cast_const(), count: recvcount, datatype: recvtype }
            )
            taken as (s: Single<$count>, r: Single<$count>)
            passing (s.buffer, s.count, s.datatype, r.buffer.cast_mut(), r.count, r.datatype, comm)
            via neighbor_exchange((stringify!($name), $same, comm))
            // SAFETY: the caller's buffers.
            standalone guard_on(stringify!($name), comm, || unsafe {
                exchange(
                    comm,
                    |_| Ok(Blocks::regular(sendbuf, sendcount.into(), sendtype, $same)),
                    |_| Ok(Blocks::regular(recvbuf, recvcount.into(), recvtype, false)),
                )
            })
        }
    };
}

neighbor_blocks!(true, c_int: MPI_Neighbor_allgather / MPI_Ineighbor_allgather / MPI_Neighbor_allgather_init);
neighbor_blocks!(true, MPI_Count: MPI_Neighbor_allgather_c / MPI_Ineighbor_allgather_c / MPI_Neighbor_allgather_init_c as MPI_Neighbor_allgather / MPI_Ineighbor_allgather / MPI_Neighbor_allgather_init);
neighbor_blocks!(false, c_int: MPI_Neighbor_alltoall / MPI_Ineighbor_alltoall / MPI_Neighbor_alltoall_init);
neighbor_blocks!(false, MPI_Count: MPI_Neighbor_alltoall_c / MPI_Ineighbor_alltoall_c / MPI_Neighbor_alltoall_init_c as MPI_Neighbor_alltoall / MPI_Ineighbor_alltoall / MPI_Neighbor_alltoall_init);

/// Defines `MPI_Neighbor_allgatherv`, its `_c` form and their nonblocking and persistent forms.
macro_rules! neighbor_allgathervs {
    ($count:ty: $displ:ty: $name:ident / $iname:ident / $pname:ident $(as $int:ident / $iint:ident / $pint:ident)?) => {
        varying_collective! {
            #[doc = concat!("`", stringify!($name), "`: in the one-process world each block from the process itself is the one it sent, at its displacement.")]
            fn $name / $iname / $pname $(as $int / $iint / $pint)? (
                sendbuf: *const c_void,
                sendcount: $count,
                sendtype: MPI_Datatype,
                recvbuf: *mut c_void,
                recvcounts: *const $count,
                displs: *const $displ,
                recvtype: MPI_Datatype,
                comm: MPI_Comm,
            )
            root []
            sides (
                Single { buffer: sendbuf, count: sendcount, datatype: sendtype },
                Varied { buffer: recvbuf.cast_const(), counts: recvcounts, displs, types: recvtype }
            )
            taken as (s: Single<$count>, r: Varied<$count, $displ, MPI_Datatype>)
            passing (s.buffer, s.count, s.datatype, r.buffer.cast_mut(), r.counts, r.displs, r.types, comm)
            via allgather_varied((Exchange::Neighbours, comm))
            // SAFETY: the caller's buffers and arrays of one entry per neighbour.
            standalone guard_on(stringify!($name), comm, || unsafe {
                exchange(
                    comm,
                    |_| Ok(Blocks::regular(sendbuf, sendcount.into(), sendtype, true)),
                    |degree| Blocks::listed(recvbuf, (recvcounts, displs), (&recvtype, false), degree, ["recvcounts", "displs", "recvtype"]),
                )
            })
        }
    };
}

neighbor_allgathervs!(c_int: c_int: MPI_Neighbor_allgatherv / MPI_Ineighbor_allgatherv / MPI_Neighbor_allgatherv_init);
neighbor_allgathervs!(MPI_Count: MPI_Aint: MPI_Neighbor_allgatherv_c / MPI_Ineighbor_allgatherv_c / MPI_Neighbor_allgatherv_init_c as MPI_Neighbor_allgatherv / MPI_Ineighbor_allgatherv / MPI_Neighbor_allgatherv_init);

/// `MPI_Neighbor_alltoallv` or `MPI_Neighbor_alltoallw` in the one-process world: each block
/// from the process itself is the one it sent along the same edge, each at its displacement.
///
/// # Safety
/// As for the MPI function.
unsafe fn neighbor_alltoall_alone<C: Number, D: Number, T: Types>(
    function: &'static str,
    send: Varied<C, D, T>,
    recv: Varied<C, D, T>,
    comm: MPI_Comm,
) -> c_int {
    let per_block = T::UNIT == Unit::Bytes;
    // SAFETY: the caller's buffers and arrays of one entry per neighbour.
    guard_on(function, comm, || unsafe {
        exchange(
            comm,
            |degree| {
                Blocks::listed(
                    send.buffer,
                    (send.counts, send.displs),
                    (send.types.array(), per_block),
                    degree,
                    ["sendcounts", "sdispls", "sendtypes"],
                )
            },
            |degree| {
                Blocks::listed(
                    recv.buffer,
                    (recv.counts, recv.displs),
                    (recv.types.array(), per_block),
                    degree,
                    ["recvcounts", "rdispls", "recvtypes"],
                )
            },
        )
    })
}

alltoall_shaped!(Exchange::Neighbours, neighbor_alltoall_alone,
    "each block from the process itself is the one it sent along the same edge";
    c_int: c_int: MPI_Datatype: MPI_Neighbor_alltoallv / MPI_Ineighbor_alltoallv / MPI_Neighbor_alltoallv_init,
    MPI_Count: MPI_Aint: MPI_Datatype: MPI_Neighbor_alltoallv_c / MPI_Ineighbor_alltoallv_c / MPI_Neighbor_alltoallv_init_c as MPI_Neighbor_alltoallv / MPI_Ineighbor_alltoallv / MPI_Neighbor_alltoallv_init,
    c_int: MPI_Aint: *const MPI_Datatype: MPI_Neighbor_alltoallw / MPI_Ineighbor_alltoallw / MPI_Neighbor_alltoallw_init,
    MPI_Count: MPI_Aint: *const MPI_Datatype: MPI_Neighbor_alltoallw_c / MPI_Ineighbor_alltoallw_c / MPI_Neighbor_alltoallw_init_c as MPI_Neighbor_alltoallw / MPI_Ineighbor_alltoallw / MPI_Neighbor_alltoallw_init,
);
