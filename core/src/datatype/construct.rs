//! One function per MPI type constructor. Each checks its arguments, computes the new type's
//! [`Layout`] from its children's with checked 64-bit arithmetic, and keeps the arguments
//! verbatim in the [`Combiner`].

use super::layout::{add, mul, Layout};
use super::{
    Combiner, DarrayArgs, Datatype, Distribution, F90Class, Measures, Order, SubarrayShape,
};
use crate::array::Array;
use crate::error::{Error, Result};
use crate::predefined::{pair_offset, Basic, Predefined, PredefinedKind};
use std::sync::Arc;

fn make(combiner: Combiner, large_count: bool, layout: Layout) -> Arc<Datatype> {
    let measures = Measures::of(&layout);
    make_measured(combiner, large_count, layout, measures)
}

/// [`make`] for a constructed type, which is rejected if its bounds leave the 64-bit range.
fn make_checked(combiner: Combiner, large_count: bool, layout: Layout) -> Result<Arc<Datatype>> {
    let measures = Measures::checked(&layout)?;
    Ok(make_measured(combiner, large_count, layout, measures))
}

/// The datatype object of `layout` and its `measures`, with its plan compiled: its children's
/// plans were compiled when they were made, so this costs the constructor's own level only,
/// and the commit and first pack of the type find the plan with one load.
fn make_measured(
    combiner: Combiner,
    large_count: bool,
    layout: Layout,
    measures: Measures,
) -> Arc<Datatype> {
    let plan = super::compile::plan(&combiner, measures.extent);
    // Written in place, field by field: `Arc::new`, or writing a whole `Datatype`, would
    // build the object on the stack and copy it over.
    let made = Arc::<Datatype>::new_uninit();
    // The pointer the Arc holds, which keeps the write permission of its allocation
    // (`Arc::as_ptr` makes no shared reference on the way): `Arc::get_mut` would give the
    // same place, after an atomic read-modify-write of the counts to learn what is known
    // here, that the Arc made a line above has no other holder.
    let object = Arc::as_ptr(&made).cast_mut().cast::<Datatype>();
    // SAFETY: `object` points to the new Arc's uninitialised `Datatype`, which this thread
    // alone holds (no clone of `made` exists yet); each field is written once, with no read
    // of the uninitialised memory.
    unsafe {
        std::ptr::addr_of_mut!((*object).combiner).write(combiner);
        std::ptr::addr_of_mut!((*object).large_count).write(large_count);
        std::ptr::addr_of_mut!((*object).measures).write(measures);
        std::ptr::addr_of_mut!((*object).layout).write(layout);
        std::ptr::addr_of_mut!((*object).plan).write(plan);
        std::ptr::addr_of_mut!((*object).attached).write(Default::default());
    }
    // SAFETY: every field was initialised just above ([`names_every_field`]).
    unsafe { made.assume_init() }
}

/// Names every field of [`Datatype`], so that a field added to it fails to compile here until
/// [`make_measured`] writes it too.
#[allow(dead_code)]
fn names_every_field(datatype: &Datatype) {
    let Datatype {
        combiner: _,
        large_count: _,
        measures: _,
        layout: _,
        plan: _,
        attached: _,
    } = datatype;
}

/// Rejects a negative replication count with `MPI_ERR_COUNT`.
pub fn check_count(value: i64, name: &str) -> Result<()> {
    if value < 0 {
        return Err(Error::count(format!(
            "{name} must be non-negative, got {value}"
        )));
    }
    Ok(())
}

/// Rejects a negative block length with `MPI_ERR_ARG`.
pub fn check_blocklength(value: i64, name: &str) -> Result<()> {
    if value < 0 {
        return Err(Error::arg(format!(
            "{name} must be non-negative, got {value}"
        )));
    }
    Ok(())
}

fn check_lengths(blocklengths: &[i64], displacements: &[i64]) -> Result<()> {
    if blocklengths.len() != displacements.len() {
        return Err(Error::arg(
            "blocklength and displacement arrays differ in length",
        ));
    }
    match blocklengths.iter().position(|&b| b < 0) {
        Some(i) => check_blocklength(blocklengths[i], &format!("array_of_blocklengths[{i}]")),
        None => Ok(()),
    }
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

/// `MPI_Type_create_f90_*`: the predefined type with the type map of `base`, the named
/// Fortran type [`crate::predefined::f90_select`] chose for the arguments `precision` and `range`.
pub fn f90(
    class: F90Class,
    precision: Option<i32>,
    range: Option<i32>,
    base: &Arc<Datatype>,
) -> Arc<Datatype> {
    make(
        Combiner::F90 {
            class,
            precision,
            range,
            base: base.clone(),
        },
        false,
        base.layout,
    )
}

/// The old type a constructor is given: borrowed, when the new type takes a reference of its
/// own, or handed over, when the caller's reference becomes the new type's (a type built only
/// to be nested in the next, as the levels of a subarray, without a count taken and given
/// back).
pub trait OldType: AsRef<Datatype> {
    /// The reference the new type keeps.
    fn kept(self) -> Arc<Datatype>;
}

impl OldType for &Arc<Datatype> {
    fn kept(self) -> Arc<Datatype> {
        self.clone()
    }
}

impl OldType for Arc<Datatype> {
    fn kept(self) -> Arc<Datatype> {
        self
    }
}

/// `blocklength` consecutive copies of `old` (one block of a vector or indexed type).
#[inline]
fn block(old: &Datatype, blocklength: i64) -> Result<Layout> {
    old.layout.repeated(blocklength, old.extent())
}

/// `MPI_Type_contiguous`.
pub fn contiguous(count: i64, old: impl OldType, large: bool) -> Result<Arc<Datatype>> {
    check_count(count, "count")?;
    let layout = block(old.as_ref(), count)?;
    make_checked(
        Combiner::Contiguous {
            count,
            old: old.kept(),
        },
        large,
        layout,
    )
}

/// `MPI_Type_vector` (`stride_in_bytes == false`) or `MPI_Type_create_hvector`.
pub fn vector(
    count: i64,
    blocklength: i64,
    stride: i64,
    stride_in_bytes: bool,
    old: impl OldType,
    large: bool,
) -> Result<Arc<Datatype>> {
    check_count(count, "count")?;
    check_blocklength(blocklength, "blocklength")?;
    let step = if stride_in_bytes {
        stride
    } else {
        mul(stride, old.as_ref().extent(), "stride * extent")?
    };
    let layout = block(old.as_ref(), blocklength)?.repeated(count, step)?;
    let old = old.kept();
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
    make_checked(combiner, large, layout)
}

/// The layout of blocks of (possibly different) types at byte displacements, in order:
/// the fold of [`Layout::followed_by`] over the blocks, computed in one pass without building
/// a layout per block (a block list may have millions of entries).
fn blocks_layout<'a>(blocks: impl Iterator<Item = (i64, i64, &'a Datatype)>) -> Result<Layout> {
    let mut acc = BlockListLayout::default();
    for (blocklength, displacement, old) in blocks {
        if blocklength > 0 {
            acc.push(blocklength, displacement as i128, &old.layout, old.extent())?;
        }
    }
    acc.finish()
}

/// A running [`blocks_layout`]: totals in 128 bits, spans as `(min, max)`.
struct BlockListLayout {
    size: i128,
    elements: i128,
    ext32_size: i128,
    data: Option<(i128, i128)>,
    lb_marks: Option<(i128, i128)>,
    ub_marks: Option<(i128, i128)>,
    align: i64,
    dense: bool,
}

impl Default for BlockListLayout {
    fn default() -> Self {
        BlockListLayout {
            size: 0,
            elements: 0,
            ext32_size: 0,
            data: None,
            lb_marks: None,
            ub_marks: None,
            align: 1,
            dense: true,
        }
    }
}

/// `span` moved by `lo` at its minimum and `hi` at its maximum, united with `into`; fails if
/// the moved span leaves the 64-bit range.
fn extend_span(
    into: &mut Option<(i128, i128)>,
    span: Option<super::layout::Span>,
    lo: i128,
    hi: i128,
) -> Result<()> {
    if let Some(s) = span {
        let (min, max) = (s.min as i128 + lo, s.max as i128 + hi);
        if min < i64::MIN as i128 || max > i64::MAX as i128 {
            return Err(Error::overflow("a displacement"));
        }
        *into = Some(match *into {
            None => (min, max),
            Some((a, b)) => (a.min(min), b.max(max)),
        });
    }
    Ok(())
}

impl BlockListLayout {
    /// Appends `blocklength` (> 0) copies of a type of layout `old` and extent `extent` at
    /// byte displacement `disp`.
    fn push(&mut self, blocklength: i64, disp: i128, old: &Layout, extent: i64) -> Result<()> {
        let n = blocklength as i128;
        let last = (n - 1) * extent as i128;
        let (lo, hi) = (disp + last.min(0), disp + last.max(0));
        let block_dense = old.dense && (blocklength == 1 || old.size == 0 || extent == old.size);
        let starts_where_data_ends = match (self.data, old.data) {
            (Some((_, end)), Some(d)) => end == d.min as i128 + lo,
            _ => true,
        };
        self.dense = self.dense && block_dense && starts_where_data_ends;
        extend_span(&mut self.data, old.data, lo, hi)?;
        extend_span(&mut self.lb_marks, old.lb_marks, lo, hi)?;
        extend_span(&mut self.ub_marks, old.ub_marks, lo, hi)?;
        self.size += old.size as i128 * n;
        self.elements += old.elements as i128 * n;
        self.ext32_size += old.ext32_size as i128 * n;
        if self.size > i64::MAX as i128 || self.elements > i64::MAX as i128 {
            return Err(Error::overflow("the datatype size"));
        }
        if self.ext32_size > i64::MAX as i128 {
            return Err(Error::overflow("the external32 size"));
        }
        self.align = self.align.max(old.align);
        Ok(())
    }

    fn finish(self) -> Result<Layout> {
        let span = |s: Option<(i128, i128)>| {
            s.map(|(min, max)| super::layout::Span {
                min: min as i64,
                max: max as i64,
            })
        };
        Ok(Layout {
            size: self.size as i64,
            elements: self.elements as i64,
            ext32_size: self.ext32_size as i64,
            data: span(self.data),
            lb_marks: span(self.lb_marks),
            ub_marks: span(self.ub_marks),
            align: self.align,
            dense: self.dense,
        })
    }
}

/// The layout of blocks of `old` with the given lengths at `displacements` counted in bytes
/// (`in_bytes`) or in extents of `old`. Every displacement must convert to 64-bit bytes.
///
/// All blocks repeat one type, so the result is that type's layout spread over the least
/// and greatest block placement: one pass keeps those two, the total count and whether each
/// block's data starts where the previous block's ended.
fn indexed_layout(
    lengths: impl Iterator<Item = i64> + Clone,
    displacements: &[i64],
    in_bytes: bool,
    old: &Datatype,
) -> Result<Layout> {
    let child = &old.layout;
    let Placement {
        copies,
        lowest,
        highest,
        dense,
    } = match placement::<i64>(lengths.clone(), displacements, in_bytes, old) {
        Some(placement) => placement?,
        None => placement::<i128>(lengths, displacements, in_bytes, old)
            .expect("128 bits hold every value of a placement")?,
    };
    if copies == 0 {
        return Ok(Layout::EMPTY);
    }
    let copies = i64::try_from(copies).map_err(|_| Error::overflow("the number of copies"))?;
    let fit = |v: i128| i64::try_from(v).map_err(|_| Error::overflow("a displacement"));
    let spread = |span: Option<super::layout::Span>| -> Result<Option<super::layout::Span>> {
        span.map(|s| {
            Ok(super::layout::Span {
                min: fit(lowest + s.min as i128)?,
                max: fit(highest + s.max as i128)?,
            })
        })
        .transpose()
    };
    Ok(Layout {
        size: mul(child.size, copies, "the datatype size")?,
        elements: mul(child.elements, copies, "the number of elements")?,
        ext32_size: mul(child.ext32_size, copies, "the external32 size")?,
        data: spread(child.data)?,
        lb_marks: spread(child.lb_marks)?,
        ub_marks: spread(child.ub_marks)?,
        align: child.align,
        dense,
    })
}

/// Where the blocks of an indexed type lie ([`indexed_layout`]): how many copies of the old
/// type they hold, the least and greatest displacement of a copy (both 0 when there are
/// none), and whether their data follow one another without a gap.
#[derive(Debug, PartialEq)]
struct Placement {
    copies: i128,
    lowest: i128,
    highest: i128,
    dense: bool,
}

/// The integers a [`Placement`] is computed in: 64 bits, where the computation gives up as
/// soon as a value leaves their range, or 128 bits, which hold every value it makes (products
/// of two 64-bit values and sums of as many as a type has blocks).
trait PlacementInt: Copy + Ord + From<i64> + Into<i128> {
    const MIN: Self;
    const MAX: Self;
    /// `self * other`, `None` if it does not fit.
    fn times(self, other: Self) -> Option<Self>;
    /// `self + other`, `None` if it does not fit.
    fn plus(self, other: Self) -> Option<Self>;
}

impl PlacementInt for i64 {
    const MIN: i64 = i64::MIN;
    const MAX: i64 = i64::MAX;
    fn times(self, other: i64) -> Option<i64> {
        self.checked_mul(other)
    }
    fn plus(self, other: i64) -> Option<i64> {
        self.checked_add(other)
    }
}

impl PlacementInt for i128 {
    const MIN: i128 = i128::MIN;
    const MAX: i128 = i128::MAX;
    fn times(self, other: i128) -> Option<i128> {
        Some(self * other)
    }
    fn plus(self, other: i128) -> Option<i128> {
        Some(self + other)
    }
}

/// The [`Placement`] of the blocks computed in the integers `T`: `None` if a value leaves
/// their range (only in 64 bits: then the same computation in 128 bits tells which value does
/// not fit), an error if a displacement counted in bytes leaves the 64-bit range. Every value
/// a 64-bit computation that completes makes is the one the 128-bit computation makes, so both
/// give the same placement; the 64-bit one is the usual case and the cheaper.
fn placement<T: PlacementInt>(
    lengths: impl Iterator<Item = i64>,
    displacements: &[i64],
    in_bytes: bool,
    old: &Datatype,
) -> Option<Result<Placement>> {
    let unit = T::from(if in_bytes { 1 } else { old.extent() });
    let (extent, child) = (T::from(old.extent()), &old.layout);
    let zero = T::from(0);
    let (mut copies, mut lowest, mut highest) = (zero, T::MAX, T::MIN);
    let mut dense = child.dense;
    let mut data_end: Option<T> = None;
    for (blocklength, &d) in lengths.zip(displacements) {
        let disp = T::from(d).times(unit)?;
        if i64::try_from(disp.into()).is_err() {
            return Some(Err(Error::overflow("displacement * extent")));
        }
        if blocklength <= 0 {
            continue;
        }
        let last = T::from(blocklength - 1).times(extent)?;
        let (lo, hi) = (disp.plus(last.min(zero))?, disp.plus(last.max(zero))?);
        lowest = lowest.min(lo);
        highest = highest.max(hi);
        copies = copies.plus(T::from(blocklength))?;
        if dense {
            let block_dense = blocklength == 1 || child.size == 0 || old.extent() == child.size;
            if let Some(span) = child.data {
                let start = lo.plus(T::from(span.min))?;
                dense = block_dense && data_end.is_none_or(|end| end == start);
                data_end = Some(hi.plus(T::from(span.max))?);
            } else {
                dense = block_dense;
            }
        }
    }
    // With no copies there is no least or greatest displacement: both are 0 in any width.
    if copies == zero {
        (lowest, highest) = (zero, zero);
    }
    Some(Ok(Placement {
        copies: copies.into(),
        lowest: lowest.into(),
        highest: highest.into(),
        dense,
    }))
}

/// `MPI_Type_indexed` (`displacements_in_bytes == false`) or `MPI_Type_create_hindexed`.
pub fn indexed(
    blocklengths: impl Into<Array>,
    displacements: impl Into<Array>,
    displacements_in_bytes: bool,
    old: &Arc<Datatype>,
    large: bool,
) -> Result<Arc<Datatype>> {
    let (blocklengths, displacements) = (blocklengths.into(), displacements.into());
    check_lengths(&blocklengths, &displacements)?;
    let layout = indexed_layout(
        blocklengths.iter().copied(),
        &displacements,
        displacements_in_bytes,
        old,
    )?;
    let old = old.clone();
    let combiner = if displacements_in_bytes {
        Combiner::Hindexed {
            blocklengths,
            displacements,
            old,
        }
    } else {
        Combiner::Indexed {
            blocklengths,
            displacements,
            old,
        }
    };
    make_checked(combiner, large, layout)
}

/// `MPI_Type_create_indexed_block` (`displacements_in_bytes == false`) or
/// `MPI_Type_create_hindexed_block`.
pub fn indexed_block(
    blocklength: i64,
    displacements: impl Into<Array>,
    displacements_in_bytes: bool,
    old: impl OldType,
    large: bool,
) -> Result<Arc<Datatype>> {
    let displacements = displacements.into();
    check_blocklength(blocklength, "blocklength")?;
    let layout = indexed_layout(
        std::iter::repeat(blocklength),
        &displacements,
        displacements_in_bytes,
        old.as_ref(),
    )?;
    let old = old.kept();
    let combiner = if displacements_in_bytes {
        Combiner::HindexedBlock {
            blocklength,
            displacements,
            old,
        }
    } else {
        Combiner::IndexedBlock {
            blocklength,
            displacements,
            old,
        }
    };
    make_checked(combiner, large, layout)
}

/// `MPI_Type_create_struct` (and the MPI-1 `MPI_Type_struct`).
pub fn structure(
    blocklengths: impl Into<Array>,
    displacements: impl Into<Array>,
    types: Vec<Arc<Datatype>>,
    large: bool,
) -> Result<Arc<Datatype>> {
    let (blocklengths, displacements) = (blocklengths.into(), displacements.into());
    check_lengths(&blocklengths, &displacements)?;
    if types.len() != blocklengths.len() {
        return Err(Error::arg(
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
    make_checked(
        Combiner::Struct {
            blocklengths,
            displacements,
            types,
        },
        large,
        layout,
    )
}

/// `MPI_Type_create_resized`.
pub fn resized(old: impl OldType, lb: i64, extent: i64, large: bool) -> Result<Arc<Datatype>> {
    let layout = old.as_ref().layout.resized(lb, extent)?;
    make_checked(
        Combiner::Resized {
            lb,
            extent,
            old: old.kept(),
        },
        large,
        layout,
    )
}

/// Places `t` at the given `(start, length)` index ranges of a dimension of `dim_size`
/// elements of extent `t.extent()`, and resizes the result to the whole dimension: one step
/// of the standard's recursive definition of subarray and darray types.
fn embed_in_dimension(
    t: &Arc<Datatype>,
    ranges: &[(i64, i64)],
    dim_size: i64,
) -> Result<Arc<Datatype>> {
    let unit = t.extent();
    let lengths: Array = ranges.iter().map(|r| r.1).collect();
    let starts = ranges
        .iter()
        .map(|r| mul(r.0, unit, "array index * extent"))
        .collect::<Result<Vec<_>>>()?;
    let placed = indexed(lengths, starts, true, t, false)?;
    resized(
        &placed,
        0,
        mul(dim_size, unit, "array size * extent")?,
        false,
    )
}

/// Dimension indices from the fastest-varying to the slowest for `order`.
pub fn fastest_first(ndims: usize, order: Order) -> Vec<usize> {
    match order {
        Order::Fortran => (0..ndims).collect(),
        Order::C => (0..ndims).rev().collect(),
    }
}

/// The type with the type map of a subarray of `old` (arguments checked), as the nest of
/// strided copies it is: the fastest dimension's elements are the blocks of an `hvector` of
/// the next one (or one contiguous run, in one dimension), each slower dimension is an
/// `hvector` of one copy of the faster ones a whole row of the array apart, and the nest is
/// placed at the subarray's first element by a one-block `hindexed_block` and resized to the
/// whole array (lower bound 0, extent the array's). The type map and bounds are those of the
/// standard's recursive definition, which builds two types per dimension (an indexed
/// placement and a resize, [`embed_in_dimension`]); this builds `ndims - 1` `hvector`s (one
/// contiguous type in one dimension) and two more, with no array argument but the one
/// displacement, and one more for a derived `old` (below).
fn subarray_nest(
    sizes: &[i64],
    subsizes: &[i64],
    starts: &[i64],
    order: Order,
    old: &Arc<Datatype>,
) -> Result<Arc<Datatype>> {
    // The standard's construction resizes at every dimension, so no level keeps `old`'s own
    // bounds. The nest would carry them through every level, and a derived `old` whose markers
    // or padding lie far from its data (valid on its own) could leave the 64-bit range once
    // copied: it is resized to its extent from 0 first (the same entries, copies the same
    // extent apart). A predefined type's bounds lie within its copies.
    let old = &match old.predefined() {
        Some(_) => old.clone(),
        None => resized(old, 0, old.extent(), false)?,
    };
    let dims = fastest_first(sizes.len(), order);
    let fastest = dims[0];
    // The bytes from one index of the dimension to the next, and the subarray's first
    // element.
    let mut step = old.extent();
    let mut first = mul(starts[fastest], step, "array index * extent")?;
    let mut nest: Option<Arc<Datatype>> = None;
    for pair in dims.windows(2) {
        let (faster, d) = (pair[0], pair[1]);
        step = mul(step, sizes[faster], "array size * extent")?;
        let start = mul(starts[d], step, "array index * extent")?;
        first = add(first, start, "subarray offset")?;
        // Each level is handed to the next, which keeps the only reference to it.
        nest = Some(match nest {
            None => vector(subsizes[d], subsizes[fastest], step, true, old, false)?,
            Some(inner) => vector(subsizes[d], 1, step, true, inner, false)?,
        });
    }
    let nest = match nest {
        Some(nest) => nest,
        None => contiguous(subsizes[fastest], old, false)?,
    };
    let slowest = dims[dims.len() - 1];
    let whole = mul(step, sizes[slowest], "array size * extent")?;
    let placed = indexed_block(
        1,
        std::iter::once(first).collect::<Array>(),
        true,
        nest,
        false,
    )?;
    resized(placed, 0, whole, false)
}

/// `MPI_Type_create_subarray`.
pub fn subarray(
    sizes: Vec<i64>,
    subsizes: Vec<i64>,
    starts: Vec<i64>,
    order: Order,
    old: &Arc<Datatype>,
    large: bool,
) -> Result<Arc<Datatype>> {
    let ndims = sizes.len();
    if ndims == 0 {
        return Err(Error::arg("ndims must be positive"));
    }
    if subsizes.len() != ndims || starts.len() != ndims {
        return Err(Error::arg("array lengths differ from ndims"));
    }
    for i in 0..ndims {
        if sizes[i] <= 0 {
            return Err(Error::arg(format!(
                "array_of_sizes[{i}] must be positive, got {}",
                sizes[i]
            )));
        }
        if subsizes[i] < 1 || subsizes[i] > sizes[i] {
            return Err(Error::arg(format!(
                "array_of_subsizes[{i}] = {} is outside [1, {}]",
                subsizes[i], sizes[i]
            )));
        }
        if starts[i] < 0 || starts[i] > sizes[i] - subsizes[i] {
            return Err(Error::arg(format!(
                "array_of_starts[{i}] = {} is outside [0, {}]",
                starts[i],
                sizes[i] - subsizes[i]
            )));
        }
    }
    let t = subarray_nest(&sizes, &subsizes, &starts, order, old)?;
    let layout = t.layout;
    let combiner = Combiner::Subarray {
        shape: Box::new(SubarrayShape {
            sizes,
            subsizes,
            starts,
            order,
        }),
        old: old.clone(),
        realized: t,
    };
    make_checked(combiner, large, layout)
}

/// The index ranges of a darray dimension of `gsize` elements that process coordinate
/// `coord` of `psize` owns under `distrib` with argument `darg`.
fn owned_ranges(
    gsize: i64,
    distrib: Distribution,
    darg: Option<i32>,
    psize: i64,
    coord: i64,
    dim: usize,
) -> Result<Vec<(i64, i64)>> {
    if let Some(darg) = darg.filter(|&darg| darg <= 0) {
        return Err(Error::arg(format!(
            "array_of_dargs[{dim}] must be positive, got {darg}"
        )));
    }
    match distrib {
        Distribution::None => Ok(vec![(0, gsize)]),
        Distribution::Block => {
            // The default block covers the dimension, so only a given one can be too small.
            let blk = darg.map_or((gsize + psize - 1) / psize, i64::from);
            if mul(blk, psize, "block size * process count")? < gsize {
                return Err(Error::arg(format!(
                    "array_of_dargs[{dim}] = {blk} is too small: {psize} blocks of it do not cover {gsize} elements"
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
            let blk = darg.map_or(1, i64::from);
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
pub fn darray(args: DarrayArgs, old: &Arc<Datatype>, large: bool) -> Result<Arc<Datatype>> {
    let ndims = args.gsizes.len();
    if args.size <= 0 {
        return Err(Error::arg(format!(
            "size must be positive, got {}",
            args.size
        )));
    }
    if args.rank < 0 || args.rank >= args.size {
        return Err(Error::rank(format!(
            "rank {} is outside [0, {})",
            args.rank, args.size
        )));
    }
    if ndims == 0 {
        return Err(Error::arg("ndims must be positive"));
    }
    if args.distribs.len() != ndims || args.dargs.len() != ndims || args.psizes.len() != ndims {
        return Err(Error::arg("array lengths differ from ndims"));
    }
    let mut grid: i64 = 1;
    for d in 0..ndims {
        if args.gsizes[d] <= 0 {
            return Err(Error::arg(format!(
                "array_of_gsizes[{d}] must be positive, got {}",
                args.gsizes[d]
            )));
        }
        if args.psizes[d] <= 0 {
            return Err(Error::arg(format!(
                "array_of_psizes[{d}] must be positive, got {}",
                args.psizes[d]
            )));
        }
        grid = grid.saturating_mul(args.psizes[d] as i64);
    }
    if grid != args.size as i64 {
        return Err(Error::arg(format!(
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
    make_checked(
        Combiner::Darray {
            args: Box::new(args),
            old: old.clone(),
            realized: t,
        },
        large,
        layout,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::typemap::TypeMap;
    use crate::predefined::by_name;

    fn named_type(name: &str) -> Arc<Datatype> {
        named(by_name(name).expect("a predefined type"))
    }

    /// The standard's recursive definition: a placement and a resize per dimension.
    fn per_dimension(
        sizes: &[i64],
        subsizes: &[i64],
        starts: &[i64],
        order: Order,
        old: &Arc<Datatype>,
    ) -> Result<Arc<Datatype>> {
        let mut t = old.clone();
        for d in fastest_first(sizes.len(), order) {
            t = embed_in_dimension(&t, &[(starts[d], subsizes[d])], sizes[d])?;
        }
        Ok(t)
    }

    /// The nest a subarray is realized with has the layout, bounds and type map of the
    /// standard's definition wherever that construction succeeds, for old types whose markers,
    /// padding or data lie far from 0, in one to three dimensions and both orders. Where it
    /// fails (a level's copies of `old`'s markers leave the 64-bit range before the resize
    /// that drops them), the subarray may still be made, and is then the model's.
    #[test]
    fn the_nest_is_the_standards_subarray() {
        let int = named_type("MPI_INT");
        let double = named_type("MPI_DOUBLE");
        let char_ = named_type("MPI_CHAR");
        let far = i64::MAX - 30;
        let olds = [
            double.clone(),
            named_type("MPI_DOUBLE_INT"),
            resized(&int, i64::MAX - 100, 4, false).unwrap(),
            resized(&int, -12, 20, false).unwrap(),
            resized(&double, 4, 2, false).unwrap(),
            resized(&int, 0, 0, false).unwrap(),
            structure(vec![1, 1], vec![far, far + 8], vec![double, char_], false).unwrap(),
        ];
        let shapes: &[(&[i64], &[i64], &[i64])] = &[
            (&[7], &[3], &[4]),
            (&[100, 1], &[100, 1], &[0, 0]),
            (&[1, 2], &[1, 2], &[0, 0]),
            (&[5, 6], &[2, 6], &[3, 0]),
            (&[4, 5, 6], &[4, 1, 2], &[0, 4, 3]),
            (&[3, 3, 3], &[1, 1, 1], &[2, 2, 2]),
        ];
        let (mut compared, mut modelled) = (0, 0);
        for old in &olds {
            for &(sizes, subsizes, starts) in shapes {
                for order in [Order::C, Order::Fortran] {
                    let (v, sub, st) = (sizes.to_vec(), subsizes.to_vec(), starts.to_vec());
                    let made = subarray(v, sub, st, order, old, false);
                    let standard = per_dimension(sizes, subsizes, starts, order, old);
                    let case = format!("{sizes:?} {subsizes:?} {starts:?} {order:?} of {old:?}");
                    match (made, standard) {
                        (Ok(made), Ok(standard)) => {
                            assert_eq!(made.layout, standard.layout, "{case}");
                            assert_eq!(made.measures, standard.measures, "{case}");
                            let (a, b) = (TypeMap::of(&made), TypeMap::of(&standard));
                            assert_eq!(a.data_entries(), b.data_entries(), "{case}");
                            compared += 1;
                        }
                        (Err(_), Ok(_)) => panic!("{case}: fails where the standard's succeeds"),
                        (Ok(made), Err(_)) => {
                            let model = TypeMap::of(&made);
                            let bounds = (made.lb(), made.ub(), made.true_lb(), made.size());
                            let expected = (model.lb(), model.ub(), model.true_lb(), model.size());
                            assert_eq!(bounds, expected, "{case}");
                            modelled += 1;
                        }
                        (Err(_), Err(_)) => {}
                    }
                }
            }
        }
        assert!(
            compared > 60 && modelled > 0,
            "{compared} compared, {modelled} modelled"
        );
    }

    /// Where the 64-bit placement of indexed blocks finds one, it is the 128-bit one; where
    /// the 128-bit one fails, it finds none (and the type fails as before). Old types of
    /// negative and zero extents, markers and data far from 0; block lengths of 0 to 3;
    /// displacements small, random over the whole range, and near its ends.
    #[test]
    fn the_placement_in_64_bits_is_the_placement_in_128_bits() {
        let int = named_type("MPI_INT");
        let olds = [
            named_type("MPI_DOUBLE"),
            resized(&int, -12, 20, false).unwrap(),
            resized(&int, 8, -4, false).unwrap(),
            resized(&int, 0, 0, false).unwrap(),
            resized(&int, i64::MAX - 100, 4, false).unwrap(),
            vector(3, 1, -2, false, &int, false).unwrap(),
            structure(vec![1], vec![i64::MIN / 2], vec![int.clone()], false).unwrap(),
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            state
        };
        let (mut found, mut refused) = (0, 0);
        for old in &olds {
            for case in 0..600 {
                let n = (next() >> 40) as usize % 6 + 1;
                let lengths: Vec<i64> = (0..n).map(|_| (next() >> 40) as i64 % 4).collect();
                let displacements: Vec<i64> = (0..n)
                    .map(|_| match case % 3 {
                        0 => (next() >> 40) as i64 % 200 - 100,
                        1 => next() as i64,
                        _ => i64::MAX - (next() >> 40) as i64 % 64,
                    })
                    .collect();
                for in_bytes in [false, true] {
                    let (lengths_now, displs) = (lengths.iter().copied(), &displacements[..]);
                    let narrow = placement::<i64>(lengths_now.clone(), displs, in_bytes, old);
                    let wide = placement::<i128>(lengths_now, displs, in_bytes, old)
                        .expect("128 bits hold every value");
                    let what =
                        format!("{lengths:?} at {displacements:?} (bytes: {in_bytes}) of {old:?}");
                    match (narrow, wide) {
                        (Some(Ok(narrow)), Ok(wide)) => {
                            assert_eq!(narrow, wide, "{what}");
                            found += 1;
                        }
                        (Some(Ok(_)), Err(e)) => {
                            panic!("{what}: found where 128 bits fail: {e:?}")
                        }
                        (Some(Err(e)), _) => panic!("{what}: 64 bits fail with {e:?}"),
                        (None, _) => refused += 1,
                    }
                }
            }
        }
        assert!(
            found > 2000 && refused > 1000,
            "{found} found, {refused} refused"
        );
    }

    /// Copies lie as one run of memory from the buffer's address only where the type map is
    /// dense and in order: basic types, contiguous types, a vector without gaps; not a resized
    /// type with a gap, a pair type with padding, or a type whose data start elsewhere.
    #[test]
    fn one_run_is_where_copies_are_dense_from_the_address() {
        let double = named_type("MPI_DOUBLE");
        let four = contiguous(4, &double, false).unwrap();
        assert_eq!(double.one_run_at(3), Some(0));
        assert_eq!(four.one_run_at(5), Some(0));
        assert_eq!(
            vector(3, 2, 2, false, &double, false)
                .unwrap()
                .one_run_at(2),
            Some(0)
        );
        assert_eq!(
            resized(&double, 0, 16, false).unwrap().one_run_at(1),
            Some(0)
        );
        assert_eq!(resized(&double, 0, 16, false).unwrap().one_run_at(2), None);
        assert_eq!(
            resized(&double, -8, 8, false).unwrap().one_run_at(4),
            Some(0)
        );
        assert_eq!(named_type("MPI_DOUBLE_INT").one_run_at(2), None);
        let shifted = structure(vec![1], vec![24], vec![four.clone()], false).unwrap();
        assert_eq!(shifted.one_run_at(1), Some(24));
        assert_eq!(
            vector(2, 1, 2, false, &double, false)
                .unwrap()
                .one_run_at(1),
            None
        );
    }
}
