//! Process topologies: `MPI_Dims_create`, Cartesian grids (`MPI_Cart_create`, `_get`,
//! `_rank`, `_coords`, `_shift`, `_sub`, `_map`, `MPI_Cartdim_get`), graphs
//! (`MPI_Graph_create`, `_get`, `_neighbors_count`, `_neighbors`, `_map`,
//! `MPI_Graphdims_get`), distributed graphs (`MPI_Dist_graph_create`, `_create_adjacent`,
//! `_neighbors_count`, `_neighbors`) and `MPI_Topo_test`. In drop-in mode each is the MPI behind's; in the
//! one-process world a topology of one node is kept with its communicator
//! ([`crate::serial::topology`]).

use super::communicators::{make_none, make_with};
use super::guard_on;
use crate::abi::*;
use crate::error::{MpiError, MpiResult};
use crate::ffi::{check_out, guard, place_of, read_slice, write_out};
use crate::serial::comms;
use crate::serial::topology::{self, EdgeWeights, Topology};
use std::os::raw::c_int;

/// Writes `values` into the program's array `out` of room `max`.
///
/// # Safety
/// `out` holds `max` entries (it is not read when `values` is empty).
unsafe fn write_array<T: Copy>(out: *mut T, max: c_int, values: &[T], name: &str) -> MpiResult<()> {
    if values.is_empty() {
        return Ok(());
    }
    if (max as usize) < values.len() || max < 0 {
        return Err(MpiError::arg(format!(
            "{name} has room for {max} entries, {} are needed",
            values.len()
        )));
    }
    check_out(out, name)?;
    // SAFETY: the caller's array has room for `max` >= `values.len()` entries.
    unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), out, values.len()) };
    Ok(())
}

/// The topology of `comm`; `MPI_ERR_TOPOLOGY` if it has none.
pub(super) fn topology_of(comm: MPI_Comm) -> MpiResult<Topology> {
    comms::with(place_of(comm)?, |c| c.topology.clone())
        .flatten()
        .ok_or_else(|| MpiError::new(MPI_ERR_TOPOLOGY, "the communicator has no topology"))
}

/// The grid of a communicator with a Cartesian topology.
fn cart_of(comm: MPI_Comm) -> MpiResult<(Vec<c_int>, Vec<bool>)> {
    match topology_of(comm)? {
        Topology::Cart { dims, periods } => Ok((dims, periods)),
        _ => Err(MpiError::new(
            MPI_ERR_TOPOLOGY,
            "the communicator's topology is not Cartesian",
        )),
    }
}

/// The graph of a communicator with a graph topology.
fn graph_of(comm: MPI_Comm) -> MpiResult<(Vec<c_int>, Vec<c_int>)> {
    match topology_of(comm)? {
        Topology::Graph { index, edges } => Ok((index, edges)),
        _ => Err(MpiError::new(
            MPI_ERR_TOPOLOGY,
            "the communicator's topology is not a graph",
        )),
    }
}

/// Reads a grid of `ndims` dimensions (`dims` and `periods`) and checks it fits the one
/// process: every extent positive, their product at most 1.
///
/// # Safety
/// The arrays hold `ndims` entries.
unsafe fn read_grid(
    ndims: c_int,
    dims: *const c_int,
    periods: *const c_int,
) -> MpiResult<(Vec<c_int>, Vec<bool>)> {
    if ndims < 0 {
        return Err(MpiError::new(
            MPI_ERR_DIMS,
            format!("ndims {ndims} is negative"),
        ));
    }
    // SAFETY: the caller's contract.
    let (dims, periods) = unsafe {
        (
            read_slice(dims, ndims.into(), "dims")?.to_vec(),
            read_slice(periods, ndims.into(), "periods")?,
        )
    };
    if let Some(&bad) = dims.iter().find(|&&d| d <= 0) {
        return Err(MpiError::new(MPI_ERR_DIMS, format!("dims has {bad}")));
    }
    Ok((dims, periods.iter().map(|&p| p != 0).collect()))
}

one_process_functions! {
    /// Fills the zero entries of `dims` with a balanced grid of `nnodes` nodes.
    fn MPI_Dims_create(nnodes: c_int, ndims: c_int, dims: *mut c_int) via guard() {
        if ndims < 0 {
            return Err(MpiError::new(
                MPI_ERR_DIMS,
                format!("ndims {ndims} is negative"),
            ));
        }
        // SAFETY: the caller's array of ndims entries.
        let mut values =
            unsafe { read_slice(dims.cast_const(), ndims.into(), "dims")? }.to_vec();
        topology::dims_create(nnodes, &mut values)?;
        // SAFETY: as above.
        unsafe { write_array(dims, ndims, &values, "dims") }
    }

    /// Makes a communicator with a Cartesian topology of the grid `dims` (wrapping where
    /// `periods` says): the one process's, or `MPI_COMM_NULL` for a grid of no node.
    fn MPI_Cart_create(comm_old: MPI_Comm, ndims: c_int, dims: *const c_int, periods: *const c_int, reorder: c_int, comm_cart: *mut MPI_Comm) via guard_on(comm_old) {
        place_of(comm_old)?;
        // SAFETY: the caller's arrays of ndims entries.
        let (dims, periods) = unsafe { read_grid(ndims, dims, periods)? };
        let nodes = topology::grid_size(&dims);
        if nodes > 1 {
            return Err(MpiError::new(
                MPI_ERR_TOPOLOGY,
                format!("a grid of {nodes} nodes does not fit a communicator of 1 process"),
            ));
        }
        let cart = Topology::Cart { dims, periods };
        // SAFETY: the caller's pointer.
        unsafe { make_with(comm_old, comm_cart, false, Some(cart)) }
    }

    /// The grid of a Cartesian communicator and this process's coordinates in it.
    fn MPI_Cart_get(comm: MPI_Comm, maxdims: c_int, dims: *mut c_int, periods: *mut c_int, coords: *mut c_int) via guard_on(comm) {
        let (grid, wraps) = cart_of(comm)?;
        let wraps: Vec<c_int> = wraps.iter().map(|&w| c_int::from(w)).collect();
        let here = topology::cart_coords(&grid, 0);
        // SAFETY: the caller's arrays of maxdims entries.
        unsafe {
            write_array(dims, maxdims, &grid, "dims")?;
            write_array(periods, maxdims, &wraps, "periods")?;
            write_array(coords, maxdims, &here, "coords")
        }
    }

    /// The number of dimensions of a Cartesian communicator.
    fn MPI_Cartdim_get(comm: MPI_Comm, ndims: *mut c_int) via guard_on(comm) {
        let (grid, _) = cart_of(comm)?;
        // SAFETY: the caller's pointer.
        unsafe { write_out(ndims, grid.len() as c_int, "ndims") }
    }

    /// The rank of the process at `coords` of a Cartesian communicator.
    fn MPI_Cart_rank(comm: MPI_Comm, coords: *const c_int, rank: *mut c_int) via guard_on(comm) {
        let (grid, wraps) = cart_of(comm)?;
        // SAFETY: the caller's array of one coordinate per dimension.
        let at = unsafe { read_slice(coords, grid.len() as i64, "coords")? };
        let found = topology::cart_rank(&grid, &wraps, at)?;
        // SAFETY: the caller's pointer.
        unsafe { write_out(rank, found, "rank") }
    }

    /// The coordinates of `rank` in a Cartesian communicator.
    fn MPI_Cart_coords(comm: MPI_Comm, rank: c_int, maxdims: c_int, coords: *mut c_int) via guard_on(comm) {
        let (grid, _) = cart_of(comm)?;
        let nodes = topology::grid_size(&grid);
        if rank < 0 || i64::from(rank) >= nodes {
            return Err(MpiError::new(
                MPI_ERR_RANK,
                format!("rank {rank} is not in a grid of {nodes}"),
            ));
        }
        // SAFETY: the caller's array of maxdims entries.
        unsafe {
            write_array(
                coords,
                maxdims,
                &topology::cart_coords(&grid, rank),
                "coords",
            )
        }
    }

    /// The ranks `disp` steps before and after this process along `direction` of a Cartesian
    /// communicator (`MPI_PROC_NULL` off the end of a dimension that does not wrap).
    fn MPI_Cart_shift(comm: MPI_Comm, direction: c_int, disp: c_int, rank_source: *mut c_int, rank_dest: *mut c_int) via guard_on(comm) {
        let (grid, wraps) = cart_of(comm)?;
        if direction < 0 || direction as usize >= grid.len() {
            return Err(MpiError::arg(format!(
                "direction {direction} is not a dimension of {}",
                grid.len()
            )));
        }
        let (source, dest) = topology::cart_shift(&grid, &wraps, 0, direction as usize, disp);
        // SAFETY: the caller's pointers.
        unsafe {
            write_out(rank_source, source, "rank_source")?;
            write_out(rank_dest, dest, "rank_dest")
        }
    }

    /// The Cartesian communicator of the dimensions `remain_dims` keeps.
    fn MPI_Cart_sub(comm: MPI_Comm, remain_dims: *const c_int, newcomm: *mut MPI_Comm) via guard_on(comm) {
        let (grid, wraps) = cart_of(comm)?;
        // SAFETY: the caller's array of one flag per dimension.
        let keep = unsafe { read_slice(remain_dims, grid.len() as i64, "remain_dims")? };
        let kept = |k: &usize| keep[*k] != 0;
        let dims = (0..grid.len()).filter(kept).map(|k| grid[k]).collect();
        let periods = (0..grid.len()).filter(kept).map(|k| wraps[k]).collect();
        let sub = Topology::Cart { dims, periods };
        // SAFETY: the caller's pointer.
        unsafe { make_with(comm, newcomm, false, Some(sub)) }
    }

    /// The rank this process would have in a Cartesian topology of `dims` on `comm`
    /// (`MPI_UNDEFINED` if the grid has no node for it).
    fn MPI_Cart_map(comm: MPI_Comm, ndims: c_int, dims: *const c_int, periods: *const c_int, newrank: *mut c_int) via guard_on(comm) {
        place_of(comm)?;
        // SAFETY: the caller's arrays of ndims entries.
        let (grid, _) = unsafe { read_grid(ndims, dims, periods)? };
        let rank = match topology::grid_size(&grid) {
            0 => MPI_UNDEFINED,
            _ => 0,
        };
        // SAFETY: the caller's pointer.
        unsafe { write_out(newrank, rank, "newrank") }
    }
}

/// Reads and checks a graph of `nnodes` nodes in the compressed form.
///
/// # Safety
/// `index` holds `nnodes` entries and `edges` as many as its last one says.
unsafe fn read_graph(
    nnodes: c_int,
    index: *const c_int,
    edges: *const c_int,
) -> MpiResult<(Vec<c_int>, Vec<c_int>)> {
    if nnodes < 0 {
        return Err(MpiError::arg(format!("nnodes {nnodes} is negative")));
    }
    // SAFETY: the caller's contract.
    let index = unsafe { read_slice(index, nnodes.into(), "index")? }.to_vec();
    let count = index.last().copied().unwrap_or(0);
    // SAFETY: as above.
    let edges = unsafe { read_slice(edges, count.into(), "edges")? }.to_vec();
    topology::check_graph(&index, &edges)?;
    Ok((index, edges))
}

one_process_functions! {
    /// Makes a communicator with a graph topology: the one process's, or `MPI_COMM_NULL` for a
    /// graph of no node.
    fn MPI_Graph_create(comm_old: MPI_Comm, nnodes: c_int, index: *const c_int, edges: *const c_int, reorder: c_int, comm_graph: *mut MPI_Comm) via guard_on(comm_old) {
        place_of(comm_old)?;
        // SAFETY: the caller's arrays.
        let (index, edges) = unsafe { read_graph(nnodes, index, edges)? };
        match index.len() {
            // SAFETY: the caller's pointer.
            0 => unsafe { make_none(comm_graph) },
            1 => {
                let graph = Topology::Graph { index, edges };
                // SAFETY: the caller's pointer.
                unsafe { make_with(comm_old, comm_graph, false, Some(graph)) }
            }
            n => Err(MpiError::new(
                MPI_ERR_TOPOLOGY,
                format!("a graph of {n} nodes does not fit a communicator of 1 process"),
            )),
        }
    }

    /// The numbers of nodes and edges of a graph communicator.
    fn MPI_Graphdims_get(comm: MPI_Comm, nnodes: *mut c_int, nedges: *mut c_int) via guard_on(comm) {
        let (index, edges) = graph_of(comm)?;
        // SAFETY: the caller's pointers.
        unsafe {
            write_out(nnodes, index.len() as c_int, "nnodes")?;
            write_out(nedges, edges.len() as c_int, "nedges")
        }
    }

    /// The compressed form of a graph communicator's graph.
    fn MPI_Graph_get(comm: MPI_Comm, maxindex: c_int, maxedges: c_int, index: *mut c_int, edges: *mut c_int) via guard_on(comm) {
        let (graph_index, graph_edges) = graph_of(comm)?;
        // SAFETY: the caller's arrays of maxindex and maxedges entries.
        unsafe {
            write_array(index, maxindex, &graph_index, "index")?;
            write_array(edges, maxedges, &graph_edges, "edges")
        }
    }

    /// The number of neighbours of `rank` in a graph communicator.
    fn MPI_Graph_neighbors_count(comm: MPI_Comm, rank: c_int, nneighbors: *mut c_int) via guard_on(comm) {
        let neighbors = neighbors_of(comm, rank)?;
        // SAFETY: the caller's pointer.
        unsafe { write_out(nneighbors, neighbors.len() as c_int, "nneighbors") }
    }
}

/// The neighbours of `rank` in a graph communicator.
fn neighbors_of(comm: MPI_Comm, rank: c_int) -> MpiResult<Vec<c_int>> {
    let (index, edges) = graph_of(comm)?;
    if rank < 0 || rank as usize >= index.len() {
        return Err(MpiError::new(
            MPI_ERR_RANK,
            format!("rank {rank} is not a node of a graph of {}", index.len()),
        ));
    }
    Ok(topology::graph_neighbors(&index, &edges, rank as usize))
}

one_process_functions! {
    /// The neighbours of `rank` in a graph communicator.
    fn MPI_Graph_neighbors(comm: MPI_Comm, rank: c_int, maxneighbors: c_int, neighbors: *mut c_int) via guard_on(comm) {
        let found = neighbors_of(comm, rank)?;
        // SAFETY: the caller's array of maxneighbors entries.
        unsafe { write_array(neighbors, maxneighbors, &found, "neighbors") }
    }

    /// The rank this process would have in a graph topology on `comm` (`MPI_UNDEFINED` if the
    /// graph has no node for it).
    fn MPI_Graph_map(comm: MPI_Comm, nnodes: c_int, index: *const c_int, edges: *const c_int, newrank: *mut c_int) via guard_on(comm) {
        place_of(comm)?;
        // SAFETY: the caller's arrays.
        let (index, _) = unsafe { read_graph(nnodes, index, edges)? };
        let rank = if index.is_empty() { MPI_UNDEFINED } else { 0 };
        // SAFETY: the caller's pointer.
        unsafe { write_out(newrank, rank, "newrank") }
    }

    /// The kind of topology of `comm`: `MPI_CART`, `MPI_GRAPH`, `MPI_DIST_GRAPH`, or
    /// `MPI_UNDEFINED` for none.
    fn MPI_Topo_test(comm: MPI_Comm, status: *mut c_int) via guard_on(comm) {
        let kind = match comms::with(place_of(comm)?, |c| c.topology.clone()).flatten() {
            Some(Topology::Cart { .. }) => MPI_CART,
            Some(Topology::Graph { .. }) => MPI_GRAPH,
            Some(Topology::DistGraph { .. }) => MPI_DIST_GRAPH,
            None => MPI_UNDEFINED,
        };
        // SAFETY: the caller's pointer.
        unsafe { write_out(status, kind, "status") }
    }
}

/// The ranks of one side of a distributed graph's edges, each of which must be the one
/// process (`MPI_ERR_RANK` otherwise).
///
/// # Safety
/// A non-NULL `ranks` holds `degree` entries.
unsafe fn read_ranks(ranks: *const c_int, degree: i64, name: &str) -> MpiResult<Vec<c_int>> {
    if degree < 0 {
        return Err(MpiError::arg(format!(
            "the degree of {name} ({degree}) is negative"
        )));
    }
    // SAFETY: the caller's contract.
    let ranks = unsafe { read_slice(ranks, degree, name)? }.to_vec();
    match ranks.iter().find(|&&rank| rank != 0) {
        Some(bad) => Err(MpiError::new(
            MPI_ERR_RANK,
            format!("{name} has rank {bad}, not in a communicator of 1 process"),
        )),
        None => Ok(ranks),
    }
}

/// The weights of `degree` edges: `None` for `MPI_UNWEIGHTED`, none for `MPI_WEIGHTS_EMPTY`.
///
/// # Safety
/// Any other non-NULL `weights` holds `degree` entries.
unsafe fn read_weights(
    weights: *const c_int,
    degree: i64,
    name: &str,
) -> MpiResult<Option<Vec<c_int>>> {
    if weights == unweighted() {
        return Ok(None);
    }
    if weights == weights_empty() {
        return match degree {
            0 => Ok(Some(Vec::new())),
            _ => Err(MpiError::arg(format!(
                "{name} is MPI_WEIGHTS_EMPTY for {degree} edges"
            ))),
        };
    }
    // SAFETY: the caller's contract.
    Ok(Some(unsafe { read_slice(weights, degree, name)? }.to_vec()))
}

/// A distributed graph's topology from the process's edges in and out, with weights on both
/// sides or on neither. In a world of one process every edge goes from the process to itself,
/// so a consistent graph has as many edges in as out; as MPICH, the library does not insist
/// (an edge in without its edge out brings nothing to a neighbourhood collective).
fn dist_graph(
    (sources, source_weights): (Vec<c_int>, Option<Vec<c_int>>),
    (destinations, dest_weights): (Vec<c_int>, Option<Vec<c_int>>),
) -> MpiResult<Topology> {
    let weights = match (source_weights, dest_weights) {
        (Some(s), Some(d)) => Some((s, d)),
        (None, None) => None,
        _ => {
            return Err(MpiError::arg(
                "the edges in and out must both have weights or both be MPI_UNWEIGHTED",
            ))
        }
    };
    Ok(Topology::DistGraph {
        sources,
        destinations,
        weights,
    })
}

one_process_functions! {
    /// Makes a communicator with a distributed graph topology from the process's edges in
    /// and out (`MPI_UNWEIGHTED` for a graph without weights).
    fn MPI_Dist_graph_create_adjacent(comm_old: MPI_Comm, indegree: c_int, sources: *const c_int, sourceweights: *const c_int, outdegree: c_int, destinations: *const c_int, destweights: *const c_int, info: MPI_Info, reorder: c_int, comm_dist_graph: *mut MPI_Comm) via guard_on(comm_old) {
        let _ = (info, reorder);
        place_of(comm_old)?;
        // SAFETY: the caller's arrays of indegree and outdegree entries.
        let graph = unsafe {
            dist_graph(
                (read_ranks(sources, indegree.into(), "sources")?, read_weights(sourceweights, indegree.into(), "sourceweights")?),
                (read_ranks(destinations, outdegree.into(), "destinations")?, read_weights(destweights, outdegree.into(), "destweights")?),
            )?
        };
        // SAFETY: the caller's pointer.
        unsafe { make_with(comm_old, comm_dist_graph, false, Some(graph)) }
    }
    /// Makes a communicator with a distributed graph topology from edges given by any
    /// process: `degrees[i]` edges from `sources[i]`, to the next entries of `destinations`.
    fn MPI_Dist_graph_create(comm_old: MPI_Comm, n: c_int, sources: *const c_int, degrees: *const c_int, destinations: *const c_int, weights: *const c_int, info: MPI_Info, reorder: c_int, comm_dist_graph: *mut MPI_Comm) via guard_on(comm_old) {
        let _ = (info, reorder);
        place_of(comm_old)?;
        // SAFETY: the caller's arrays of n entries, and of one entry per edge.
        let graph = unsafe {
            read_ranks(sources, n.into(), "sources")?;
            let degrees = read_slice(degrees, n.into(), "degrees")?;
            if let Some(bad) = degrees.iter().find(|&&d| d < 0) {
                return Err(MpiError::arg(format!("degrees has {bad}")));
            }
            let edges: i64 = degrees.iter().map(|&d| i64::from(d)).sum();
            let ends = read_ranks(destinations, edges, "destinations")?;
            let weights = read_weights(weights, edges, "weights")?;
            dist_graph((ends.clone(), weights.clone()), (ends, weights))?
        };
        // SAFETY: the caller's pointer.
        unsafe { make_with(comm_old, comm_dist_graph, false, Some(graph)) }
    }
    /// The numbers of edges into and out of the process in a distributed graph, and whether
    /// it has weights.
    fn MPI_Dist_graph_neighbors_count(comm: MPI_Comm, indegree: *mut c_int, outdegree: *mut c_int, weighted: *mut c_int) via guard_on(comm) {
        let (sources, destinations, weights) = dist_graph_of(comm)?;
        // SAFETY: the caller's pointers.
        unsafe {
            write_out(indegree, sources.len() as c_int, "indegree")?;
            write_out(outdegree, destinations.len() as c_int, "outdegree")?;
            write_out(weighted, c_int::from(weights.is_some()), "weighted")
        }
    }
    /// The process's edges in and out of a distributed graph, with their weights.
    fn MPI_Dist_graph_neighbors(comm: MPI_Comm, maxindegree: c_int, sources: *mut c_int, sourceweights: *mut c_int, maxoutdegree: c_int, destinations: *mut c_int, destweights: *mut c_int) via guard_on(comm) {
        let (ins, outs, weights) = dist_graph_of(comm)?;
        // SAFETY: the caller's arrays of maxindegree and maxoutdegree entries.
        unsafe {
            write_array(sources, maxindegree, &ins, "sources")?;
            write_array(destinations, maxoutdegree, &outs, "destinations")?;
            if let Some((source_weights, dest_weights)) = weights {
                if sourceweights.cast_const() != unweighted() {
                    write_array(sourceweights, maxindegree, &source_weights, "sourceweights")?;
                }
                if destweights.cast_const() != unweighted() {
                    write_array(destweights, maxoutdegree, &dest_weights, "destweights")?;
                }
            }
        }
        Ok(())
    }
}

/// The edges of a communicator with a distributed graph topology.
fn dist_graph_of(comm: MPI_Comm) -> MpiResult<(Vec<c_int>, Vec<c_int>, Option<EdgeWeights>)> {
    match topology_of(comm)? {
        Topology::DistGraph {
            sources,
            destinations,
            weights,
        } => Ok((sources, destinations, weights)),
        _ => Err(MpiError::new(
            MPI_ERR_TOPOLOGY,
            "the communicator's topology is not a distributed graph",
        )),
    }
}
