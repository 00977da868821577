//! The neighbours of a process in the topology of a communicator of the MPI behind, in the
//! order its neighbourhood collectives take their blocks (MPI-4.1 §8.6): for a Cartesian
//! topology, per dimension the neighbour one step down and the one one step up (the same
//! list for sources and destinations, `MPI_PROC_NULL` off the edge of a dimension that is not
//! periodic); for a graph, the neighbours of the process; for a distributed graph, its
//! sources and its destinations.

use crate::abi::p2p::MPI_PROC_NULL;
use crate::abi::{MPI_Comm, MPI_CART, MPI_DIST_GRAPH, MPI_GRAPH, MPI_SUCCESS};
use crate::behind::forward;
use std::os::raw::c_int;

/// The neighbours a process receives blocks from and sends blocks to.
pub struct Neighbours {
    /// The sources, one per block received.
    pub sources: Vec<c_int>,
    /// The destinations, one per block sent.
    pub destinations: Vec<c_int>,
}

impl Neighbours {
    /// The neighbours of this process in `comm`'s topology, as the MPI behind knows them
    /// (`None` if it has none, or cannot say: the call then goes to it unchanged, which
    /// reports the error).
    pub fn of(comm: MPI_Comm) -> Option<Neighbours> {
        let mut kind: c_int = 0;
        ok(forward!(MPI_Topo_test: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut kind))?;
        match kind {
            MPI_CART => cartesian(comm),
            MPI_GRAPH => graph(comm),
            MPI_DIST_GRAPH => distributed(comm),
            _ => None,
        }
    }

    /// Whether block `index` of the receiving side comes from `MPI_PROC_NULL` (nothing
    /// arrives: the program's data stay).
    pub fn from_nobody(&self, index: usize) -> bool {
        self.sources.get(index) == Some(&MPI_PROC_NULL)
    }
}

/// `Some(())` if the MPI behind answered a call with success.
fn ok(rc: Option<c_int>) -> Option<()> {
    (rc == Some(MPI_SUCCESS)).then_some(())
}

/// A non-negative count the MPI behind gave, as a length.
fn length(count: c_int) -> Option<usize> {
    usize::try_from(count).ok()
}

/// The neighbours in a Cartesian topology.
fn cartesian(comm: MPI_Comm) -> Option<Neighbours> {
    let mut dims: c_int = 0;
    ok(forward!(MPI_Cartdim_get: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut dims))?;
    let mut list = Vec::with_capacity(2 * length(dims)?);
    for dimension in 0..dims {
        let (mut down, mut up): (c_int, c_int) = (0, 0);
        ok(forward!(
            MPI_Cart_shift: fn(MPI_Comm, c_int, c_int, *mut c_int, *mut c_int) -> c_int,
            comm,
            dimension,
            1,
            &mut down,
            &mut up
        ))?;
        list.extend([down, up]);
    }
    Some(Neighbours {
        sources: list.clone(),
        destinations: list,
    })
}

/// The neighbours in a graph topology.
fn graph(comm: MPI_Comm) -> Option<Neighbours> {
    let (mut rank, mut count): (c_int, c_int) = (0, 0);
    ok(forward!(MPI_Comm_rank: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut rank))?;
    ok(forward!(
        MPI_Graph_neighbors_count: fn(MPI_Comm, c_int, *mut c_int) -> c_int,
        comm,
        rank,
        &mut count
    ))?;
    let mut list = vec![0; length(count)?];
    ok(forward!(
        MPI_Graph_neighbors: fn(MPI_Comm, c_int, c_int, *mut c_int) -> c_int,
        comm,
        rank,
        count,
        list.as_mut_ptr()
    ))?;
    Some(Neighbours {
        sources: list.clone(),
        destinations: list,
    })
}

/// The neighbours in a distributed graph topology.
fn distributed(comm: MPI_Comm) -> Option<Neighbours> {
    let (mut indegree, mut outdegree, mut weighted): (c_int, c_int, c_int) = (0, 0, 0);
    ok(forward!(
        MPI_Dist_graph_neighbors_count: fn(MPI_Comm, *mut c_int, *mut c_int, *mut c_int) -> c_int,
        comm,
        &mut indegree,
        &mut outdegree,
        &mut weighted
    ))?;
    let (ins, outs) = (length(indegree)?, length(outdegree)?);
    let (mut sources, mut destinations) = (vec![0; ins], vec![0; outs]);
    // The weights are asked for too, whether or not the graph has any.
    let (mut source_weights, mut destination_weights) = (vec![0; ins.max(1)], vec![0; outs.max(1)]);
    ok(forward!(
        MPI_Dist_graph_neighbors: fn(MPI_Comm, c_int, *mut c_int, *mut c_int, c_int, *mut c_int, *mut c_int) -> c_int,
        comm,
        indegree,
        sources.as_mut_ptr(),
        source_weights.as_mut_ptr(),
        outdegree,
        destinations.as_mut_ptr(),
        destination_weights.as_mut_ptr()
    ))?;
    Some(Neighbours {
        sources,
        destinations,
    })
}
