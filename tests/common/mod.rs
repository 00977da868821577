//! Shared helpers for the model-based tests: a description of random nested datatypes
//! ([`Spec`]), a proptest strategy for it, and the byte-level model of pack / unpack /
//! external32 derived from `TypeMap::of` (with what the fuzz targets share, from the crate
//! `mpi-dtype-testkit`).
#![allow(dead_code)]

// Not every test file uses all of them.
#[allow(unused_imports)]
pub use mpi_dtype_testkit::{ext32_decode, ext32_encode, only_data, random_bytes, Geometry};

use mpi_dtype::abi::*;
use mpi_dtype::datatype::typemap::TypeMap;
use mpi_dtype::datatype::{
    construct, Basic, DarrayArgs, Datatype, Distribution, Order, PredefinedKind,
};
use mpi_dtype::handles;
use proptest::prelude::*;
use std::fmt;
use std::sync::Arc;

/// The predefined datatype behind `handle`.
pub fn pre(handle: MPI_Datatype) -> Arc<Datatype> {
    handles::with_type(handle, |t, _| t.clone()).expect("a predefined handle resolves")
}

/// The basic type of a predefined basic handle.
pub fn basic(handle: MPI_Datatype) -> Basic {
    match pre(handle).predefined().expect("a predefined handle").kind {
        PredefinedKind::Basic(basic) => basic,
        _ => panic!("{handle:?} is not a basic handle"),
    }
}

// ---- random datatype descriptions ------------------------------------------------------------

/// A predefined leaf type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaf {
    Int,
    Double,
    Char,
    Short,
    Float,
    Long,
    DoubleInt,
    ShortInt,
    LongDoubleInt,
    /// `MPI_LB`, in MPICH's ABI and Open MPI's: the standard ABI removed the MPI-1 markers.
    #[cfg(not(abi = "standard"))]
    Lb,
    /// `MPI_UB`, as `MPI_LB`.
    #[cfg(not(abi = "standard"))]
    Ub,
}

impl Leaf {
    pub fn handle(self) -> MPI_Datatype {
        match self {
            Leaf::Int => MPI_INT,
            Leaf::Double => MPI_DOUBLE,
            Leaf::Char => MPI_CHAR,
            Leaf::Short => MPI_SHORT,
            Leaf::Float => MPI_FLOAT,
            Leaf::Long => MPI_LONG,
            Leaf::DoubleInt => MPI_DOUBLE_INT,
            Leaf::ShortInt => MPI_SHORT_INT,
            Leaf::LongDoubleInt => MPI_LONG_DOUBLE_INT,
            #[cfg(not(abi = "standard"))]
            Leaf::Lb => MPI_LB,
            #[cfg(not(abi = "standard"))]
            Leaf::Ub => MPI_UB,
        }
    }

    /// Number of type-map entries of the leaf.
    fn entries(self) -> u64 {
        match self {
            Leaf::DoubleInt | Leaf::ShortInt | Leaf::LongDoubleInt => 2,
            _ => 1,
        }
    }
}

/// A datatype to build, constructor by constructor, with arguments that are always valid.
#[derive(Debug, Clone)]
pub enum Spec {
    Leaf(Leaf),
    Dup(Box<Spec>),
    Contiguous(i64, Box<Spec>),
    /// `stride_in_bytes` selects hvector.
    Vector {
        count: i64,
        blocklength: i64,
        stride: i64,
        stride_in_bytes: bool,
        old: Box<Spec>,
    },
    /// `in_bytes` selects hindexed.
    Indexed {
        blocklengths: Vec<i64>,
        displacements: Vec<i64>,
        in_bytes: bool,
        old: Box<Spec>,
    },
    /// `in_bytes` selects hindexed_block.
    IndexedBlock {
        blocklength: i64,
        displacements: Vec<i64>,
        in_bytes: bool,
        old: Box<Spec>,
    },
    /// `(blocklength, displacement, type)` per member.
    Struct(Vec<(i64, i64, Spec)>),
    Subarray {
        sizes: Vec<i64>,
        subsizes: Vec<i64>,
        starts: Vec<i64>,
        order: Order,
        old: Box<Spec>,
    },
    Darray {
        args: DarrayArgs,
        old: Box<Spec>,
    },
    Resized {
        lb: i64,
        extent: i64,
        old: Box<Spec>,
    },
}

/// Builds the datatype a spec describes through `mpi_dtype::datatype::construct`.
pub fn build(spec: &Spec) -> Arc<Datatype> {
    match spec {
        Spec::Leaf(l) => pre(l.handle()),
        Spec::Dup(old) => construct::dup(&build(old)),
        Spec::Contiguous(count, old) => construct::contiguous(*count, build(old), false).unwrap(),
        Spec::Vector {
            count,
            blocklength,
            stride,
            stride_in_bytes,
            old,
        } => construct::vector(
            *count,
            *blocklength,
            *stride,
            *stride_in_bytes,
            build(old),
            false,
        )
        .unwrap(),
        Spec::Indexed {
            blocklengths,
            displacements,
            in_bytes,
            old,
        } => construct::indexed(
            blocklengths.clone(),
            displacements.clone(),
            *in_bytes,
            &build(old),
            false,
        )
        .unwrap(),
        Spec::IndexedBlock {
            blocklength,
            displacements,
            in_bytes,
            old,
        } => construct::indexed_block(
            *blocklength,
            displacements.clone(),
            *in_bytes,
            build(old),
            false,
        )
        .unwrap(),
        Spec::Struct(members) => construct::structure(
            members.iter().map(|m| m.0).collect::<Vec<_>>(),
            members.iter().map(|m| m.1).collect::<Vec<_>>(),
            members.iter().map(|m| build(&m.2)).collect(),
            false,
        )
        .unwrap(),
        Spec::Subarray {
            sizes,
            subsizes,
            starts,
            order,
            old,
        } => construct::subarray(
            sizes.clone(),
            subsizes.clone(),
            starts.clone(),
            *order,
            &build(old),
            false,
        )
        .unwrap(),
        Spec::Darray { args, old } => construct::darray(args.clone(), &build(old), false).unwrap(),
        Spec::Resized { lb, extent, old } => {
            construct::resized(build(old), *lb, *extent, false).unwrap()
        }
    }
}

/// An upper bound on the number of type-map entries (data and markers) of one copy.
pub fn estimate(spec: &Spec) -> u64 {
    let (mult, overhead) = multiplier(spec);
    match spec {
        Spec::Leaf(l) => l.entries(),
        Spec::Struct(members) => members
            .iter()
            .map(|(b, _, t)| (*b as u64).saturating_mul(estimate(t)))
            .fold(0u64, |a, b| a.saturating_add(b)),
        Spec::Dup(old)
        | Spec::Contiguous(_, old)
        | Spec::Vector { old, .. }
        | Spec::Indexed { old, .. }
        | Spec::IndexedBlock { old, .. }
        | Spec::Subarray { old, .. }
        | Spec::Darray { old, .. }
        | Spec::Resized { old, .. } => mult.saturating_mul(estimate(old)).saturating_add(overhead),
    }
}

/// How many copies of its (single) child a node makes, and how many entries it adds itself.
fn multiplier(spec: &Spec) -> (u64, u64) {
    let n = |x: i64| x.max(0) as u64;
    match spec {
        Spec::Leaf(_) | Spec::Struct(_) => (1, 0),
        Spec::Dup(_) => (1, 0),
        Spec::Contiguous(c, _) => (n(*c), 0),
        Spec::Vector {
            count, blocklength, ..
        } => (n(*count) * n(*blocklength), 0),
        Spec::Indexed { blocklengths, .. } => (blocklengths.iter().map(|&b| n(b)).sum(), 0),
        Spec::IndexedBlock {
            blocklength,
            displacements,
            ..
        } => (n(*blocklength) * displacements.len() as u64, 0),
        Spec::Subarray { subsizes, .. } => (subsizes.iter().map(|&s| n(s)).product(), 2),
        Spec::Darray { args, .. } => (args.gsizes.iter().map(|&s| n(s)).product(), 2),
        Spec::Resized { .. } => (1, 2),
    }
}

/// Shrinks a spec until [`estimate`] is at most `budget` (at least 2), replacing subtrees that
/// cannot fit by a leaf.
pub fn trim(spec: Spec, budget: u64) -> Spec {
    if estimate(&spec) <= budget {
        return spec;
    }
    let (mult, overhead) = multiplier(&spec);
    let child_budget = budget.saturating_sub(overhead) / mult.max(1);
    let sub = |old: Box<Spec>| Box::new(trim(*old, child_budget));
    if child_budget < 2 {
        return Spec::Leaf(Leaf::Int);
    }
    match spec {
        Spec::Leaf(l) => Spec::Leaf(l),
        Spec::Struct(members) => {
            let n = members.len() as u64;
            Spec::Struct(
                members
                    .into_iter()
                    .map(|(b, d, t)| {
                        let per = budget / n / (b.max(1) as u64);
                        if per < 2 {
                            (b, d, Spec::Leaf(Leaf::Char))
                        } else {
                            (b, d, trim(t, per))
                        }
                    })
                    .collect(),
            )
        }
        Spec::Dup(old) => Spec::Dup(sub(old)),
        Spec::Contiguous(c, old) => Spec::Contiguous(c, sub(old)),
        Spec::Vector {
            count,
            blocklength,
            stride,
            stride_in_bytes,
            old,
        } => Spec::Vector {
            count,
            blocklength,
            stride,
            stride_in_bytes,
            old: sub(old),
        },
        Spec::Indexed {
            blocklengths,
            displacements,
            in_bytes,
            old,
        } => Spec::Indexed {
            blocklengths,
            displacements,
            in_bytes,
            old: sub(old),
        },
        Spec::IndexedBlock {
            blocklength,
            displacements,
            in_bytes,
            old,
        } => Spec::IndexedBlock {
            blocklength,
            displacements,
            in_bytes,
            old: sub(old),
        },
        Spec::Subarray {
            sizes,
            subsizes,
            starts,
            order,
            old,
        } => Spec::Subarray {
            sizes,
            subsizes,
            starts,
            order,
            old: sub(old),
        },
        Spec::Darray { args, old } => Spec::Darray {
            args,
            old: sub(old),
        },
        Spec::Resized { lb, extent, old } => Spec::Resized {
            lb,
            extent,
            old: sub(old),
        },
    }
}

/// The marker leaves, one weight each, that [`leaf`] and [`lossless_leaf`] add to their own:
/// `MPI_LB` and `MPI_UB` in MPICH's ABI and Open MPI's, none in the standard ABI, which
/// removed them.
#[cfg(not(abi = "standard"))]
const MARKER_LEAVES: &[(u32, Leaf)] = &[(1, Leaf::Lb), (1, Leaf::Ub)];
/// The standard ABI has no marker leaves.
#[cfg(abi = "standard")]
const MARKER_LEAVES: &[(u32, Leaf)] = &[];

/// One of `leaves`, each drawn with its weight.
fn one_of(leaves: &[(u32, Leaf)]) -> prop::strategy::Union<Just<Leaf>> {
    prop::strategy::Union::new_weighted(leaves.iter().map(|&(w, l)| (w, Just(l))).collect())
}

/// One of `leaves` and [`MARKER_LEAVES`], each drawn with its weight.
fn weighted(leaves: &[(u32, Leaf)]) -> impl Strategy<Value = Leaf> {
    one_of(&[leaves, MARKER_LEAVES].concat())
}

/// The basic leaves with their weights, weighted towards the common basic types.
const LEAVES: &[(u32, Leaf)] = &[
    (4, Leaf::Int),
    (3, Leaf::Double),
    (3, Leaf::Char),
    (2, Leaf::Short),
    (1, Leaf::Float),
    (1, Leaf::Long),
    (2, Leaf::DoubleInt),
    (2, Leaf::ShortInt),
    (1, Leaf::LongDoubleInt),
];

/// The leaves: [`LEAVES`] and the markers.
pub fn leaf() -> impl Strategy<Value = Leaf> {
    weighted(LEAVES)
}

/// The leaves allowed when `lossless` is set: those whose external32 form has the native size
/// and converts back bit for bit (all of [`LEAVES`] but `long` and `long double`).
pub fn lossless_leaf() -> impl Strategy<Value = Leaf> {
    let lossless: Vec<(u32, Leaf)> = LEAVES
        .iter()
        .filter(|(_, leaf)| !matches!(leaf, Leaf::Long | Leaf::LongDoubleInt))
        .copied()
        .collect();
    weighted(&lossless)
}

/// A replication count in 0..4, zero less often than the others.
fn count() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![1 => Just(0i64), 12 => 1..4i64]
}

/// A block length in 0..3, zero less often than the others.
fn blocklength() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![1 => Just(0i64), 12 => 1..3i64]
}

/// A vector of 0..max elements, empty less often than not.
fn few<S: Strategy + Clone>(element: S, max: usize) -> impl Strategy<Value = Vec<S::Value>> {
    prop_oneof![
        1 => prop::collection::vec(element.clone(), 0..=0),
        12 => prop::collection::vec(element, 1..max),
    ]
}

fn order() -> impl Strategy<Value = Order> {
    prop_oneof![Just(Order::C), Just(Order::Fortran)]
}

/// One subarray dimension from raw draws: (size, subsize, start), always valid.
fn subarray_dim(size: i64, a: i64, b: i64) -> (i64, i64, i64) {
    let subsize = 1 + a % size;
    let start = b % (size - subsize + 1);
    (size, subsize, start)
}

type DarrayDim = (i64, u8, i32, bool, i32);

/// A valid darray argument set from raw draws.
fn darray_args(dims: Vec<DarrayDim>, rank_seed: i32, order: Order) -> DarrayArgs {
    let mut args = DarrayArgs {
        size: 1,
        rank: 0,
        gsizes: vec![],
        distribs: vec![],
        dargs: vec![],
        psizes: vec![],
        order,
    };
    for (gsize, dist, psize, default, extra) in dims {
        let (distrib, psize) = match dist {
            0 => (Distribution::Block, psize),
            1 => (Distribution::Cyclic, psize),
            _ => (Distribution::None, 1),
        };
        let darg = if default {
            None
        } else {
            Some(match distrib {
                // At least ceil(gsize / psize), so that the blocks cover the dimension.
                Distribution::Block => (gsize as i32 + psize - 1) / psize + extra,
                _ => 1 + extra,
            })
        };
        args.gsizes.push(gsize);
        args.distribs.push(distrib);
        args.dargs.push(darg);
        args.psizes.push(psize);
        args.size *= psize;
    }
    args.rank = rank_seed % args.size;
    args
}

/// Random nested datatype specs over the given leaves, trimmed to about `budget` entries.
pub fn spec_with(leaves: BoxedStrategy<Leaf>, budget: u64) -> impl Strategy<Value = Spec> {
    // A struct member is sometimes a marker, where the ABI has them.
    let markers = (!MARKER_LEAVES.is_empty()).then(|| one_of(MARKER_LEAVES).prop_map(Spec::Leaf));
    leaves
        .prop_map(Spec::Leaf)
        .prop_recursive(4, 96, 2, move |inner| {
            let b = |s: Spec| Box::new(s);
            let member = match markers.clone() {
                Some(markers) => prop_oneof![4 => inner.clone(), 1 => markers].boxed(),
                None => inner.clone(),
            };
            prop_oneof![
                2 => (count(), inner.clone()).prop_map(move |(c, o)| Spec::Contiguous(c, b(o))),
                2 => (count(), blocklength(), -3..=3i64, inner.clone()).prop_map(move |(c, bl, s, o)| {
                    Spec::Vector { count: c, blocklength: bl, stride: s, stride_in_bytes: false, old: b(o) }
                }),
                2 => (count(), blocklength(), -40..=40i64, inner.clone()).prop_map(move |(c, bl, s, o)| {
                    Spec::Vector { count: c, blocklength: bl, stride: s, stride_in_bytes: true, old: b(o) }
                }),
                2 => (few((blocklength(), -4..=4i64), 4), inner.clone()).prop_map(
                    move |(bd, o)| Spec::Indexed {
                        blocklengths: bd.iter().map(|x| x.0).collect(),
                        displacements: bd.iter().map(|x| x.1).collect(),
                        in_bytes: false,
                        old: b(o),
                    }
                ),
                2 => (few((blocklength(), -40..=40i64), 4), inner.clone()).prop_map(
                    move |(bd, o)| Spec::Indexed {
                        blocklengths: bd.iter().map(|x| x.0).collect(),
                        displacements: bd.iter().map(|x| x.1).collect(),
                        in_bytes: true,
                        old: b(o),
                    }
                ),
                1 => (blocklength(), few(-4..=4i64, 4), inner.clone()).prop_map(
                    move |(bl, d, o)| Spec::IndexedBlock {
                        blocklength: bl, displacements: d, in_bytes: false, old: b(o)
                    }
                ),
                1 => (blocklength(), few(-40..=40i64, 4), inner.clone()).prop_map(
                    move |(bl, d, o)| Spec::IndexedBlock {
                        blocklength: bl, displacements: d, in_bytes: true, old: b(o)
                    }
                ),
                3 => few((blocklength(), -40..=40i64, member), 5)
                    .prop_map(Spec::Struct),
                2 => (
                    prop::collection::vec((1..=4i64, 0..4i64, 0..4i64), 1..=3),
                    order(),
                    inner.clone()
                )
                    .prop_map(move |(dims, order, o)| {
                        let dims: Vec<_> =
                            dims.into_iter().map(|(s, a, c)| subarray_dim(s, a, c)).collect();
                        Spec::Subarray {
                            sizes: dims.iter().map(|d| d.0).collect(),
                            subsizes: dims.iter().map(|d| d.1).collect(),
                            starts: dims.iter().map(|d| d.2).collect(),
                            order,
                            old: b(o),
                        }
                    }),
                2 => (
                    prop::collection::vec(
                        (1..=5i64, 0..3u8, 1..=3i32, any::<bool>(), 0..2i32),
                        1..=2
                    ),
                    0..64i32,
                    order(),
                    inner.clone()
                )
                    .prop_map(move |(dims, rank, order, o)| Spec::Darray {
                        args: darray_args(dims, rank, order),
                        old: b(o),
                    }),
                2 => (-16..=16i64, -16..=32i64, inner.clone()).prop_map(move |(lb, extent, o)| {
                    Spec::Resized { lb, extent, old: b(o) }
                }),
                1 => inner.clone().prop_map(move |o| Spec::Dup(b(o))),
            ]
        })
        .prop_map(move |s| trim(s, budget))
}

/// Type-map entries per copy that the strategies aim for.
pub const BUDGET: u64 = 1200;
/// Largest span (in bytes) of the buffers a case may need.
pub const MAX_SPAN: i64 = 1 << 20;

/// A generated datatype with its model type map.
#[derive(Clone)]
pub struct Case {
    pub spec: Spec,
    pub dt: Arc<Datatype>,
    pub tm: TypeMap,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.spec)
    }
}

impl Case {
    pub fn new(spec: Spec) -> Case {
        let dt = build(&spec);
        let tm = TypeMap::of(&dt);
        Case { spec, dt, tm }
    }
}

fn to_case(spec: Spec) -> Option<Case> {
    let case = Case::new(spec);
    let g = Geometry::new(&case.tm, 3, 16);
    (g.len as i64 <= MAX_SPAN).then_some(case)
}

/// Random datatypes over all leaves.
pub fn any_case() -> impl Strategy<Value = Case> {
    spec_with(leaf().boxed(), BUDGET).prop_filter_map("buffer span too large", to_case)
}

/// Random datatypes whose basic types survive an external32 round trip bit for bit.
pub fn lossless_case() -> impl Strategy<Value = Case> {
    spec_with(lossless_leaf().boxed(), BUDGET).prop_filter_map("buffer span too large", to_case)
}

// ---- the byte-level model ----------------------------------------------------------------------

/// `src` restricted to the bytes the type map covers; zero elsewhere.
pub fn covered_only(tm: &TypeMap, count: i64, src: &[u8], g: &Geometry) -> Vec<u8> {
    let mut out = vec![0u8; src.len()];
    for (b, d) in tm.copies(count) {
        let (i, n) = (g.index(d), b.size() as usize);
        out[i..i + n].copy_from_slice(&src[i..i + n]);
    }
    out
}

/// Sum of the external32 sizes of the data entries.
pub fn ext32_size(tm: &TypeMap) -> i64 {
    tm.data_entries()
        .iter()
        .map(|(b, _)| b.info().ext32_size())
        .sum()
}

/// The proptest configuration of the model-based tests: `default_cases` cases per property,
/// or `PROPTEST_CASES=n`; some properties only apply to type maps without overlapping entries
/// or with data, so rejections are allowed in proportion.
pub fn proptest_config(default_cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_cases);
    ProptestConfig {
        cases,
        max_global_rejects: cases.saturating_mul(2).max(1024),
        ..ProptestConfig::default()
    }
}
