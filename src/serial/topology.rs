//! Process topologies (MPI-4.1 §8): Cartesian grids and graphs, and the arithmetic on them
//! (`MPI_Dims_create`, ranks and coordinates, shifts). The functions hold for grids and
//! graphs of any size; the one-process world makes those of one node (or none).

use crate::abi::{MPI_ERR_ARG, MPI_ERR_DIMS, MPI_PROC_NULL};
use crate::error::{MpiError, MpiResult};
use std::os::raw::c_int;

/// The topology a communicator carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Topology {
    /// A Cartesian grid: its extent and periodicity in each dimension.
    Cart {
        /// Processes along each dimension.
        dims: Vec<c_int>,
        /// Whether each dimension wraps around.
        periods: Vec<bool>,
    },
    /// A graph in the compressed form of `MPI_Graph_create`.
    Graph {
        /// `index[i]`: the number of edges of nodes 0 to i.
        index: Vec<c_int>,
        /// The neighbours of each node, one after the other.
        edges: Vec<c_int>,
    },
    /// A distributed graph (`MPI_Dist_graph_create`, `_adjacent`): the process's edges in and
    /// out, each with its weight if the graph is weighted.
    DistGraph {
        /// The sources of the edges into the process.
        sources: Vec<c_int>,
        /// The destinations of the edges out of the process.
        destinations: Vec<c_int>,
        /// The weights of the edges in and out, if the graph has weights.
        weights: Option<EdgeWeights>,
    },
}

/// The weights of a distributed graph's edges into and out of the process.
pub type EdgeWeights = (Vec<c_int>, Vec<c_int>);

impl Topology {
    /// Where each block a neighbourhood collective receives comes from in the one-process
    /// world: for the i-th neighbour the process receives from, the index of the block it sent
    /// that neighbour, or `None` for `MPI_PROC_NULL` (nothing arrives). Every neighbour is the
    /// process itself: on a Cartesian grid, what goes out in the positive direction of a
    /// periodic dimension comes back from the negative one and the other way round (MPI-4.1
    /// §8.6); in a graph the k-th edge out of the process to itself is the k-th edge into it.
    pub fn neighbour_blocks(&self) -> Vec<Option<usize>> {
        match self {
            Topology::Cart { periods, .. } => periods
                .iter()
                .enumerate()
                .flat_map(|(d, &wraps)| match wraps {
                    true => [Some(2 * d + 1), Some(2 * d)],
                    false => [None, None],
                })
                .collect(),
            Topology::Graph { index, .. } => {
                let degree = index.first().copied().unwrap_or(0).max(0) as usize;
                (0..degree).map(Some).collect()
            }
            Topology::DistGraph {
                sources,
                destinations,
                ..
            } => (0..sources.len())
                .map(|i| (i < destinations.len()).then_some(i))
                .collect(),
        }
    }

    /// The numbers of blocks a neighbourhood collective receives and sends.
    pub fn degrees(&self) -> (usize, usize) {
        match self {
            Topology::Cart { dims, .. } => (2 * dims.len(), 2 * dims.len()),
            Topology::Graph { index, .. } => {
                let degree = index.first().copied().unwrap_or(0).max(0) as usize;
                (degree, degree)
            }
            Topology::DistGraph {
                sources,
                destinations,
                ..
            } => (sources.len(), destinations.len()),
        }
    }
}

/// The number of nodes of a grid.
pub fn grid_size(dims: &[c_int]) -> i64 {
    dims.iter().map(|&d| i64::from(d)).product()
}

/// `MPI_Dims_create`: fills the zero entries of `dims` so that the product of all is
/// `nnodes`, as balanced as possible and in non-increasing order; the positive entries stay.
pub fn dims_create(nnodes: c_int, dims: &mut [c_int]) -> MpiResult<()> {
    if nnodes < 0 {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("nnodes {nnodes} is negative"),
        ));
    }
    if let Some(&bad) = dims.iter().find(|&&d| d < 0) {
        return Err(MpiError::new(MPI_ERR_DIMS, format!("dims has {bad}")));
    }
    let fixed: i64 = dims
        .iter()
        .filter(|&&d| d > 0)
        .map(|&d| i64::from(d))
        .product();
    let free = dims.iter().filter(|&&d| d == 0).count();
    let nnodes = i64::from(nnodes);
    if fixed == 0 || nnodes % fixed != 0 || (free == 0 && fixed != nnodes) {
        return Err(MpiError::new(
            MPI_ERR_DIMS,
            format!("the given dims (product {fixed}) do not divide {nnodes} nodes"),
        ));
    }
    let mut rest = nnodes / fixed;
    let mut primes = Vec::new();
    let mut p = 2;
    while p * p <= rest {
        while rest % p == 0 {
            primes.push(p);
            rest /= p;
        }
        p += 1;
    }
    if rest > 1 {
        primes.push(rest);
    }
    // The largest factors first, each onto the smallest dimension so far.
    let mut sizes = vec![1i64; free];
    for &prime in primes.iter().rev() {
        if let Some(smallest) = sizes.iter_mut().min() {
            *smallest *= prime;
        }
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mut sizes = sizes.into_iter();
    for d in dims.iter_mut().filter(|d| **d == 0) {
        *d = sizes.next().unwrap_or(1) as c_int;
    }
    Ok(())
}

/// The rank of the node at `coords` in a grid (row-major), coordinates of periodic
/// dimensions wrapped; `MPI_ERR_ARG` for one out of range in a dimension that does not wrap.
pub fn cart_rank(dims: &[c_int], periods: &[bool], coords: &[c_int]) -> MpiResult<c_int> {
    let mut rank: i64 = 0;
    for ((&d, &periodic), &c) in dims.iter().zip(periods).zip(coords) {
        let c = match periodic {
            true => c.rem_euclid(d),
            false if (0..d).contains(&c) => c,
            false => {
                return Err(MpiError::new(
                    MPI_ERR_ARG,
                    format!("coordinate {c} is outside 0..{d} of a dimension that does not wrap"),
                ))
            }
        };
        rank = rank * i64::from(d) + i64::from(c);
    }
    Ok(rank as c_int)
}

/// The coordinates of `rank` in a grid (row-major).
pub fn cart_coords(dims: &[c_int], mut rank: c_int) -> Vec<c_int> {
    let mut coords = vec![0; dims.len()];
    for (c, &d) in coords.iter_mut().zip(dims).rev() {
        *c = rank % d;
        rank /= d;
    }
    coords
}

/// `MPI_Cart_shift`: the ranks `disp` steps before and after `rank` along `direction`
/// (`MPI_PROC_NULL` off the end of a dimension that does not wrap).
pub fn cart_shift(
    dims: &[c_int],
    periods: &[bool],
    rank: c_int,
    direction: usize,
    disp: c_int,
) -> (c_int, c_int) {
    let coords = cart_coords(dims, rank);
    let moved = |step: c_int| {
        let mut c = coords.clone();
        c[direction] = c[direction].saturating_add(step);
        cart_rank(dims, periods, &c).unwrap_or(MPI_PROC_NULL)
    };
    (moved(disp.saturating_neg()), moved(disp))
}

/// The neighbours of `rank` in a graph.
pub fn graph_neighbors(index: &[c_int], edges: &[c_int], rank: usize) -> Vec<c_int> {
    let start = match rank {
        0 => 0,
        r => index[r - 1] as usize,
    };
    edges[start..index[rank] as usize].to_vec()
}

/// Checks the compressed graph of `MPI_Graph_create`: `index` non-decreasing from 0, as many
/// edges as its last entry, each a node of the graph.
pub fn check_graph(index: &[c_int], edges: &[c_int]) -> MpiResult<()> {
    let nodes = index.len() as c_int;
    let mut previous = 0;
    for &i in index {
        if i < previous {
            return Err(MpiError::new(MPI_ERR_ARG, "index is not non-decreasing"));
        }
        previous = i;
    }
    if let Some(&bad) = edges.iter().find(|&&e| !(0..nodes).contains(&e)) {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!("edge to {bad}, not a node of {nodes}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbour_blocks_pair_each_edge_in_with_the_edge_out_it_ends() {
        let cart = Topology::Cart {
            dims: vec![1, 1, 1],
            periods: vec![true, false, true],
        };
        assert_eq!(
            cart.neighbour_blocks(),
            [Some(1), Some(0), None, None, Some(5), Some(4)]
        );
        assert_eq!(cart.degrees(), (6, 6));
        let graph = Topology::Graph {
            index: vec![3],
            edges: vec![0, 0, 0],
        };
        assert_eq!(graph.neighbour_blocks(), [Some(0), Some(1), Some(2)]);
        let dist = Topology::DistGraph {
            sources: vec![0, 0],
            destinations: vec![0, 0],
            weights: None,
        };
        assert_eq!(dist.neighbour_blocks(), [Some(0), Some(1)]);
        assert_eq!(dist.degrees(), (2, 2));
        let lopsided = Topology::DistGraph {
            sources: vec![0, 0],
            destinations: vec![0],
            weights: None,
        };
        assert_eq!(lopsided.neighbour_blocks(), [Some(0), None]);
    }

    #[test]
    fn dims_create_balances_the_free_dimensions_in_non_increasing_order() {
        for (nnodes, given, want) in [
            (6, vec![0, 0], vec![3, 2]),
            (7, vec![0, 0], vec![7, 1]),
            (6, vec![0, 3, 0], vec![2, 3, 1]),
            (90, vec![0, 0, 0], vec![6, 5, 3]),
            (64, vec![0, 0, 0], vec![4, 4, 4]),
            (1, vec![0, 0], vec![1, 1]),
            (12, vec![3, 0], vec![3, 4]),
        ] {
            let mut dims = given.clone();
            dims_create(nnodes, &mut dims).unwrap();
            assert_eq!(dims, want, "{nnodes} over {given:?}");
        }
        assert!(dims_create(7, &mut [2, 0]).is_err());
        assert!(dims_create(6, &mut [-1, 0]).is_err());
        assert!(dims_create(6, &mut [2, 2]).is_err());
    }

    #[test]
    fn ranks_coordinates_and_shifts_agree_on_a_grid() {
        let (dims, periods) = ([3, 4], [true, false]);
        for rank in 0..12 {
            let coords = cart_coords(&dims, rank);
            assert_eq!(cart_rank(&dims, &periods, &coords).unwrap(), rank);
        }
        assert_eq!(cart_rank(&dims, &periods, &[-1, 2]).unwrap(), 10);
        assert!(cart_rank(&dims, &periods, &[0, 4]).is_err());
        assert_eq!(cart_shift(&dims, &periods, 5, 0, 1), (1, 9));
        assert_eq!(cart_shift(&dims, &periods, 5, 1, 2), (MPI_PROC_NULL, 7));
        assert_eq!(cart_shift(&[1], &[true], 0, 0, 3), (0, 0));
        assert_eq!(
            cart_shift(&[1], &[false], 0, 0, 1),
            (MPI_PROC_NULL, MPI_PROC_NULL)
        );
    }

    #[test]
    fn graph_neighbours_come_from_the_compressed_form() {
        let (index, edges) = ([2, 3, 4], [1, 2, 0, 0]);
        check_graph(&index, &edges).unwrap();
        assert_eq!(graph_neighbors(&index, &edges, 0), [1, 2]);
        assert_eq!(graph_neighbors(&index, &edges, 2), [0]);
        assert!(check_graph(&[1], &[3]).is_err());
        assert!(check_graph(&[2, 1], &[0, 0]).is_err());
    }
}
