//! The first basic entries of a type map in type-map order, read with the type-map walk
//! ([`mpi_dtype_core::datatype::walk`]) stopped after them, so that reading the first entries of a type
//! with 10^9 of them costs only those entries.

use mpi_dtype_core::datatype::walk::{walk, Piece, GO_ON};
use mpi_dtype_core::datatype::{Basic, Datatype};
use std::ops::ControlFlow;

/// The first `limit` basic entries of one copy of `dt`, as `(basic, displacement)`.
pub fn first(dt: &Datatype, limit: usize) -> Vec<(Basic, i64)> {
    let mut out = Vec::with_capacity(limit.min(dt.layout.elements.max(0) as usize));
    if limit == 0 {
        return out;
    }
    let _ = walk(dt, 0, true, &mut |displacement, piece| {
        if let Piece::Basic(basic) = piece {
            out.push((basic, displacement));
        }
        match out.len() >= limit {
            true => ControlFlow::Break(()),
            false => GO_ON,
        }
    });
    out
}
