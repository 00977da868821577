//! One function per MPI type constructor. Each checks its arguments, computes the new type's
//! [`Layout`] from its children's with checked 64-bit arithmetic, and keeps the arguments
//! verbatim in the [`Combiner`].

use super::layout::{mul, Layout};
use super::predefined::{pair_offset, Basic, Predefined, PredefinedKind};
use super::{Combiner, DarrayArgs, Datatype, Distribution, Order};
use crate::abi::MPI_DISTRIBUTE_DFLT_DARG;
use crate::error::{MpiError, MpiResult};
use std::sync::Arc;

fn make(combiner: Combiner, large_count: bool, layout: Layout) -> Arc<Datatype> {
    Arc::new(Datatype {
        combiner,
        large_count,
        layout,
        plan: Default::default(),
    })
}

/// Rejects a negative replication count with `MPI_ERR_COUNT`.
pub fn check_count(value: i64, name: &str) -> MpiResult<()> {
    if value < 0 {
        return Err(MpiError::count(format!(
            "{name} must be non-negative, got {value}"
        )));
    }
    Ok(())
}

/// Rejects a negative block length with `MPI_ERR_ARG`.
pub fn check_blocklength(value: i64, name: &str) -> MpiResult<()> {
    if value < 0 {
        return Err(MpiError::arg(format!(
            "{name} must be non-negative, got {value}"
        )));
    }
    Ok(())
}

fn check_lengths(blocklengths: &[i64], displacements: &[i64]) -> MpiResult<()> {
    if blocklengths.len() != displacements.len() {
        return Err(MpiError::arg(
            "blocklength and displacement arrays differ in length",
        ));
    }
    for (i, &b) in blocklengths.iter().enumerate() {
        check_blocklength(b, &format!("array_of_blocklengths[{i}]"))?;
    }
    Ok(())
}

fn basic_layout(b: Basic) -> Layout {
    Layout::basic(b.size(), b.align(), b.info().ext32_size())
}

/// The layout of a named predefined datatype.
fn predefined_layout(p: &Predefined) -> Layout {
    match p.kind {
        PredefinedKind::Basic(b) => basic_layout(b),
        PredefinedKind::LbMarker => Layout::marker(false),
        PredefinedKind::UbMarker => Layout::marker(true),
        PredefinedKind::Pair(first, second) => {
            let second = basic_layout(second).shifted(pair_offset(first, second));
            basic_layout(first)
                .followed_by(&second.expect("pair offsets are small"))
                .expect("pair sizes are small")
        }
    }
}

/// The datatype object of a named predefined datatype.
pub fn named(p: &'static Predefined) -> Arc<Datatype> {
    make(Combiner::Named(p), false, predefined_layout(p))
}

/// `MPI_Type_dup`: the same type map under a new, freeable type.
pub fn dup(old: &Arc<Datatype>) -> Arc<Datatype> {
    make(Combiner::Dup(old.clone()), false, old.layout)
}

/// `blocklength` consecutive copies of `old` (one block of a vector or indexed type).
fn block(old: &Datatype, blocklength: i64) -> MpiResult<Layout> {
    old.layout.repeated(blocklength, old.extent())
}

/// `MPI_Type_contiguous`.
pub fn contiguous(count: i64, old: &Arc<Datatype>, large: bool) -> MpiResult<Arc<Datatype>> {
    check_count(count, "count")?;
    let layout = block(old, count)?;
    Ok(make(
        Combiner::Contiguous {
            count,
            old: old.clone(),
        },
        large,
        layout,
    ))
}

/// `MPI_Type_vector` (`stride_in_bytes == false`) or `MPI_Type_create_hvector`.
pub fn vector(
    count: i64,
    blocklength: i64,
    stride: i64,
    stride_in_bytes: bool,
    old: &Arc<Datatype>,
    large: bool,
) -> MpiResult<Arc<Datatype>> {
    check_count(count, "count")?;
    check_blocklength(blocklength, "blocklength")?;
    let step = if stride_in_bytes {
        stride
    } else {
        mul(stride, old.extent(), "stride * extent")?
    };
    let layout = block(old, blocklength)?.repeated(count, step)?;
    let old = old.clone();
    let combiner = if stride_in_bytes {
        Combiner::Hvector {
            count,
            blocklength,
            stride,
            old,
        }
    } else {
        Combiner::Vector {
            count,
            blocklength,
            stride,
            old,
        }
    };
    Ok(make(combiner, large, layout))
}

/// The layout of blocks of (possibly different) types at byte displacements, in order.
fn blocks_layout<'a>(blocks: impl Iterator<Item = (i64, i64, &'a Datatype)>) -> MpiResult<Layout> {
    let mut layout = Layout::EMPTY;
    for (blocklength, displacement, old) in blocks {
        if blocklength == 0 {
            continue;
        }
        layout = layout.followed_by(&block(old, blocklength)?.shifted(displacement)?)?;
    }
    Ok(layout)
}

/// Block displacements in bytes: as given when they are byte displacements, else multiplied
/// by the extent of `old`.
fn byte_displacements(
    displacements: &[i64],
    in_bytes: bool,
    old: &Datatype,
) -> MpiResult<Vec<i64>> {
    let unit = if in_bytes { 1 } else { old.extent() };
    displacements
        .iter()
        .map(|&d| mul(d, unit, "displacement * extent"))
        .collect()
}

/// `MPI_Type_indexed` (`displacements_in_bytes == false`) or `MPI_Type_create_hindexed`.
pub fn indexed(
    blocklengths: Vec<i64>,
    displacements: Vec<i64>,
    displacements_in_bytes: bool,
    old: &Arc<Datatype>,
    large: bool,
) -> MpiResult<Arc<Datatype>> {
    check_lengths(&blocklengths, &displacements)?;
    let bytes = byte_displacements(&displacements, displacements_in_bytes, old)?;
    let layout = blocks_layout(
        blocklengths
            .iter()
            .zip(&bytes)
            .map(|(&b, &d)| (b, d, &**old)),
    )?;
    let old = old.clone();
    let combiner = if displacements_in_bytes {
        Combiner::Hindexed {
            blocklengths: blocklengths.into(),
            displacements: displacements.into(),
            old,
        }
    } else {
        Combiner::Indexed {
            blocklengths: blocklengths.into(),
            displacements: displacements.into(),
            old,
        }
    };
    Ok(make(combiner, large, layout))
}

/// `MPI_Type_create_indexed_block` (`displacements_in_bytes == false`) or
/// `MPI_Type_create_hindexed_block`.
pub fn indexed_block(
    blocklength: i64,
    displacements: Vec<i64>,
    displacements_in_bytes: bool,
    old: &Arc<Datatype>,
    large: bool,
) -> MpiResult<Arc<Datatype>> {
    check_blocklength(blocklength, "blocklength")?;
    let bytes = byte_displacements(&displacements, displacements_in_bytes, old)?;
    let layout = blocks_layout(bytes.iter().map(|&d| (blocklength, d, &**old)))?;
    let old = old.clone();
    let combiner = if displacements_in_bytes {
        Combiner::HindexedBlock {
            blocklength,
            displacements: displacements.into(),
            old,
        }
    } else {
        Combiner::IndexedBlock {
            blocklength,
            displacements: displacements.into(),
            old,
        }
    };
    Ok(make(combiner, large, layout))
}

/// `MPI_Type_create_struct` (and the MPI-1 `MPI_Type_struct`).
pub fn structure(
    blocklengths: Vec<i64>,
    displacements: Vec<i64>,
    types: Vec<Arc<Datatype>>,
    large: bool,
) -> MpiResult<Arc<Datatype>> {
    check_lengths(&blocklengths, &displacements)?;
    if types.len() != blocklengths.len() {
        return Err(MpiError::arg(
            "type array differs in length from the blocklength array",
        ));
    }
    let layout = blocks_layout(
        blocklengths
            .iter()
            .zip(&displacements)
            .zip(&types)
            .map(|((&b, &d), t)| (b, d, &**t)),
    )?;
    Ok(make(
        Combiner::Struct {
            blocklengths: blocklengths.into(),
            displacements: displacements.into(),
            types,
        },
        large,
        layout,
    ))
}

/// `MPI_Type_create_resized`.
pub fn resized(old: &Arc<Datatype>, lb: i64, extent: i64, large: bool) -> MpiResult<Arc<Datatype>> {
    let layout = old.layout.resized(lb, extent)?;
    Ok(make(
        Combiner::Resized {
            lb,
            extent,
            old: old.clone(),
        },
        large,
        layout,
    ))
}

/// Places `t` at the given `(start, length)` index ranges of a dimension of `dim_size`
/// elements of extent `t.extent()`, and resizes the result to the whole dimension: one step
/// of the standard's recursive definition of subarray and darray types.
fn embed_in_dimension(
    t: &Arc<Datatype>,
    ranges: &[(i64, i64)],
    dim_size: i64,
) -> MpiResult<Arc<Datatype>> {
    let unit = t.extent();
    let lengths = ranges.iter().map(|r| r.1).collect();
    let starts = ranges
        .iter()
        .map(|r| mul(r.0, unit, "array index * extent"))
        .collect::<MpiResult<Vec<_>>>()?;
    let placed = indexed(lengths, starts, true, t, false)?;
    resized(
        &placed,
        0,
        mul(dim_size, unit, "array size * extent")?,
        false,
    )
}

/// Dimension indices from the fastest-varying to the slowest for `order`.
fn fastest_first(ndims: usize, order: Order) -> Vec<usize> {
    match order {
        Order::Fortran => (0..ndims).collect(),
        Order::C => (0..ndims).rev().collect(),
    }
}

/// `MPI_Type_create_subarray`.
pub fn subarray(
    sizes: Vec<i64>,
    subsizes: Vec<i64>,
    starts: Vec<i64>,
    order: Order,
    old: &Arc<Datatype>,
    large: bool,
) -> MpiResult<Arc<Datatype>> {
    let ndims = sizes.len();
    if ndims == 0 {
        return Err(MpiError::arg("ndims must be positive"));
    }
    if subsizes.len() != ndims || starts.len() != ndims {
        return Err(MpiError::arg("array lengths differ from ndims"));
    }
    for i in 0..ndims {
        if sizes[i] <= 0 {
            return Err(MpiError::arg(format!(
                "array_of_sizes[{i}] must be positive, got {}",
                sizes[i]
            )));
        }
        if subsizes[i] < 1 || subsizes[i] > sizes[i] {
            return Err(MpiError::arg(format!(
                "array_of_subsizes[{i}] = {} is outside [1, {}]",
                subsizes[i], sizes[i]
            )));
        }
        if starts[i] < 0 || starts[i] > sizes[i] - subsizes[i] {
            return Err(MpiError::arg(format!(
                "array_of_starts[{i}] = {} is outside [0, {}]",
                starts[i],
                sizes[i] - subsizes[i]
            )));
        }
    }
    let mut t = old.clone();
    for d in fastest_first(ndims, order) {
        t = embed_in_dimension(&t, &[(starts[d], subsizes[d])], sizes[d])?;
    }
    let layout = t.layout;
    let combiner = Combiner::Subarray {
        sizes,
        subsizes,
        starts,
        order,
        old: old.clone(),
        realized: t,
    };
    Ok(make(combiner, large, layout))
}

/// The index ranges of a darray dimension of `gsize` elements that process coordinate
/// `coord` of `psize` owns under `distrib` with argument `darg`.
fn owned_ranges(
    gsize: i64,
    distrib: Distribution,
    darg: i32,
    psize: i64,
    coord: i64,
    dim: usize,
) -> MpiResult<Vec<(i64, i64)>> {
    let default = darg == MPI_DISTRIBUTE_DFLT_DARG;
    if !default && darg <= 0 {
        return Err(MpiError::arg(format!(
            "array_of_dargs[{dim}] must be positive, got {darg}"
        )));
    }
    match distrib {
        Distribution::None => Ok(vec![(0, gsize)]),
        Distribution::Block => {
            let blk = if default {
                (gsize + psize - 1) / psize
            } else {
                darg as i64
            };
            if mul(blk, psize, "block size * process count")? < gsize {
                return Err(MpiError::arg(format!(
                    "array_of_dargs[{dim}] = {darg} is too small: {psize} blocks of it do not cover {gsize} elements"
                )));
            }
            let start = blk * coord;
            let end = (start + blk).min(gsize);
            Ok(if start < end {
                vec![(start, end - start)]
            } else {
                vec![]
            })
        }
        Distribution::Cyclic => {
            let blk = if default { 1 } else { darg as i64 };
            let cycle = mul(blk, psize, "block size * process count")?;
            let mut ranges = Vec::new();
            let mut start = mul(blk, coord, "block size * coordinate")?;
            while start < gsize {
                ranges.push((start, blk.min(gsize - start)));
                start += cycle;
            }
            Ok(ranges)
        }
    }
}

/// `MPI_Type_create_darray`.
pub fn darray(args: DarrayArgs, old: &Arc<Datatype>, large: bool) -> MpiResult<Arc<Datatype>> {
    let ndims = args.gsizes.len();
    if args.size <= 0 {
        return Err(MpiError::arg(format!(
            "size must be positive, got {}",
            args.size
        )));
    }
    if args.rank < 0 || args.rank >= args.size {
        return Err(MpiError::new(
            crate::abi::MPI_ERR_RANK,
            format!("rank {} is outside [0, {})", args.rank, args.size),
        ));
    }
    if ndims == 0 {
        return Err(MpiError::arg("ndims must be positive"));
    }
    if args.distribs.len() != ndims || args.dargs.len() != ndims || args.psizes.len() != ndims {
        return Err(MpiError::arg("array lengths differ from ndims"));
    }
    let mut grid: i64 = 1;
    for d in 0..ndims {
        if args.gsizes[d] <= 0 {
            return Err(MpiError::arg(format!(
                "array_of_gsizes[{d}] must be positive, got {}",
                args.gsizes[d]
            )));
        }
        if args.psizes[d] <= 0 {
            return Err(MpiError::arg(format!(
                "array_of_psizes[{d}] must be positive, got {}",
                args.psizes[d]
            )));
        }
        grid = grid.saturating_mul(args.psizes[d] as i64);
    }
    if grid != args.size as i64 {
        return Err(MpiError::arg(format!(
            "the process grid has {grid} processes but size is {}",
            args.size
        )));
    }
    // Process coordinates are row-major in the grid whatever the array order.
    let mut coords = vec![0i64; ndims];
    let mut rest = args.rank as i64;
    for d in (0..ndims).rev() {
        coords[d] = rest % args.psizes[d] as i64;
        rest /= args.psizes[d] as i64;
    }
    let mut t = old.clone();
    for d in fastest_first(ndims, args.order) {
        let ranges = owned_ranges(
            args.gsizes[d],
            args.distribs[d],
            args.dargs[d],
            args.psizes[d] as i64,
            coords[d],
            d,
        )?;
        t = embed_in_dimension(&t, &ranges, args.gsizes[d])?;
    }
    let layout = t.layout;
    Ok(make(
        Combiner::Darray {
            args,
            old: old.clone(),
            realized: t,
        },
        large,
        layout,
    ))
}
