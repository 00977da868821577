//! Shared pieces of the fuzz targets: a program of constructor calls decoded from the fuzzer's
//! bytes ([`Program`]), its execution through the Rust core ([`build`]) with a check of every
//! outcome and query against the naive type-map model, and the byte-level model of pack and
//! unpack. [`capi`] runs the same program through the exported C functions.
//!
//! A program is a list of operations over a growing list of types: an operation either names
//! a predefined type (markers and pair types included) or applies one constructor to types
//! made before it, with counts, block lengths, strides and displacements that are mostly
//! small but sometimes zero, negative or close to the limits of 32 and 64 bits.

pub mod capi;

use mpi_dtype::abi::*;
use mpi_dtype::datatype::typemap::TypeMap;
use mpi_dtype::datatype::{construct, DarrayArgs, Datatype, Distribution, Order};
use mpi_dtype::handles;
use mpi_dtype_core::error::Error as CoreError;
pub use mpi_dtype_testkit::{ext32_encode, only_data, random_bytes, Geometry};
use std::sync::Arc;

// ---- reading the fuzzer's bytes -----------------------------------------------------------------

/// The fuzzer's input, read front to back; reads past the end give zeros, so every input is
/// a program.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, at: 0 }
    }

    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    pub fn u16(&mut self) -> u16 {
        u16::from(self.u8()) | u16::from(self.u8()) << 8
    }

    pub fn u64(&mut self) -> u64 {
        (0..8).fold(0u64, |acc, _| acc << 8 | u64::from(self.u8()))
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n <= 256 {
            u64::from(self.u8()) % n
        } else {
            u64::from(self.u16()) % n
        }
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}

/// Counts close to the limits: they must be accepted or refused with an error, never crash.
const LARGE: [i64; 8] = [
    0x7fff_ffff,
    0x8000_0000,
    0x1_0000_0001,
    1 << 40,
    1 << 62,
    i64::MAX / 3,
    i64::MAX - 1,
    i64::MAX,
];
const NEGATIVE: [i64; 5] = [-1, -2, -0x8000_0000, i64::MIN + 1, i64::MIN];
/// Displacements close to the limits.
const FAR: [i64; 8] = [
    1 << 31,
    -(1 << 31),
    1 << 40,
    -(1 << 40),
    1 << 62,
    -(1 << 62),
    i64::MAX,
    i64::MIN,
];

/// A count or block length: mostly 1..=4, sometimes 0, large or negative.
fn count(b: &mut Bytes) -> i64 {
    match b.u8() {
        0..=199 => 1 + i64::from(b.u8() % 4),
        200..=223 => 0,
        224..=243 => LARGE[b.below(LARGE.len() as u64) as usize],
        _ => NEGATIVE[b.below(NEGATIVE.len() as u64) as usize],
    }
}

/// A byte displacement or stride: mostly within ±64 (any byte, unaligned ones included),
/// sometimes within ±4096 or far.
fn bytes_disp(b: &mut Bytes) -> i64 {
    match b.u8() {
        0..=209 => b.range(-64, 64),
        210..=239 => b.range(-512, 512) * 8,
        _ => FAR[b.below(FAR.len() as u64) as usize],
    }
}

/// A displacement or stride in elements: mostly within ±6, sometimes far.
fn element_disp(b: &mut Bytes) -> i64 {
    match b.u8() {
        0..=229 => b.range(-6, 6),
        230..=245 => b.range(-1000, 1000),
        _ => FAR[b.below(FAR.len() as u64) as usize],
    }
}

fn small(v: i64) -> bool {
    v.unsigned_abs() <= 1 << 20
}

// ---- predefined leaves ------------------------------------------------------------------------

/// The predefined types a program names: basic types of every kind of external32 conversion,
/// the pair types (with padding) and the bound markers.
pub const LEAVES: [MPI_Datatype; 24] = [
    MPI_CHAR,
    MPI_BYTE,
    MPI_SHORT,
    MPI_INT,
    MPI_INT,
    MPI_DOUBLE,
    MPI_DOUBLE,
    MPI_FLOAT,
    MPI_LONG,
    MPI_UNSIGNED_LONG,
    MPI_LONG_LONG,
    MPI_LONG_DOUBLE,
    MPI_C_BOOL,
    MPI_WCHAR,
    MPI_INT64_T,
    MPI_C_FLOAT_COMPLEX,
    MPI_C_LONG_DOUBLE_COMPLEX,
    MPI_AINT,
    MPI_DOUBLE_INT,
    MPI_SHORT_INT,
    MPI_LONG_DOUBLE_INT,
    MPI_2INT,
    MPI_LB,
    MPI_UB,
];

/// The predefined type object of a handle.
pub fn predefined(handle: MPI_Datatype) -> Arc<Datatype> {
    handles::with_type(handle, |t, _| t.clone()).expect("a predefined handle resolves")
}

fn is_marker(handle: MPI_Datatype) -> bool {
    handle == MPI_LB || handle == MPI_UB
}

// ---- programs ---------------------------------------------------------------------------------

/// One constructor call (or a predefined type), with its arguments as the standard states
/// them; `old` and `types` index earlier operations.
#[derive(Debug, Clone)]
pub enum Kind {
    Leaf(MPI_Datatype),
    Dup,
    Contiguous {
        count: i64,
    },
    Vector {
        count: i64,
        blocklength: i64,
        stride: i64,
        bytes: bool,
    },
    Indexed {
        blocklengths: Vec<i64>,
        displacements: Vec<i64>,
        bytes: bool,
    },
    IndexedBlock {
        blocklength: i64,
        displacements: Vec<i64>,
        bytes: bool,
    },
    Struct {
        blocklengths: Vec<i64>,
        displacements: Vec<i64>,
        types: Vec<usize>,
    },
    Subarray {
        sizes: Vec<i64>,
        subsizes: Vec<i64>,
        starts: Vec<i64>,
        order: Order,
    },
    Darray(DarrayArgs),
    Resized {
        lb: i64,
        extent: i64,
    },
}

#[derive(Debug, Clone)]
pub struct Op {
    pub kind: Kind,
    /// The operation whose type is `oldtype`.
    pub old: usize,
    /// Use the large-count (`_c`) constructor.
    pub large: bool,
    /// The arguments are valid by construction and small: the call must succeed when the
    /// types it uses were made and the result stays small.
    pub valid: bool,
    /// An argument is invalid for every oldtype (a negative count, a bad subarray or darray
    /// argument): the call must fail.
    pub invalid: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Program {
    pub ops: Vec<Op>,
}

/// Most operations a program has.
pub const MAX_OPS: usize = 24;

fn order(b: &mut Bytes) -> Order {
    if b.u8() & 1 == 0 {
        Order::C
    } else {
        Order::Fortran
    }
}

fn subarray(b: &mut Bytes, op: &mut Op) -> Kind {
    let ndims = b.range(1, 3) as usize;
    let (mut sizes, mut subsizes, mut starts) = (vec![], vec![], vec![]);
    for _ in 0..ndims {
        let size = b.range(1, 5);
        let subsize = 1 + b.below(size as u64) as i64;
        let start = b.below((size - subsize + 1) as u64) as i64;
        sizes.push(size);
        subsizes.push(subsize);
        starts.push(start);
    }
    if b.one_in(12) {
        // One argument out of its range: "erroneous" by §5.1.3.
        let d = b.below(ndims as u64) as usize;
        match b.u8() % 4 {
            0 => subsizes[d] = 0,
            1 => starts[d] = sizes[d] - subsizes[d] + 1,
            2 => sizes[d] = -1,
            _ => starts[d] = -1,
        }
        op.valid = false;
        op.invalid = true;
    } else if b.one_in(24) {
        // Large arrays: valid, but far beyond what the model writes out.
        sizes[0] = LARGE[b.below(4) as usize];
        subsizes[0] = sizes[0] / 2;
        op.valid = false;
    }
    Kind::Subarray {
        sizes,
        subsizes,
        starts,
        order: order(b),
    }
}

fn darray(b: &mut Bytes, op: &mut Op) -> Kind {
    let ndims = b.range(1, 3) as usize;
    let mut args = DarrayArgs {
        size: 1,
        rank: 0,
        gsizes: vec![],
        distribs: vec![],
        dargs: vec![],
        psizes: vec![],
        order: order(b),
    };
    for _ in 0..ndims {
        let gsize = b.range(1, 6);
        let mut psize = b.range(1, 3) as i32;
        let distrib = match b.u8() % 3 {
            0 => Distribution::Block,
            1 => Distribution::Cyclic,
            _ => {
                if b.u8() & 3 != 0 {
                    psize = 1;
                }
                Distribution::None
            }
        };
        let extra = b.range(0, 2) as i32;
        // None: MPI_DISTRIBUTE_DFLT_DARG.
        let darg = if b.u8() & 1 == 0 {
            None
        } else {
            Some(match distrib {
                // At least ceil(gsize / psize): the blocks cover the dimension.
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
    args.rank = b.below(args.size as u64) as i32;
    if b.one_in(12) {
        let d = b.below(ndims as u64) as usize;
        match b.u8() % 5 {
            0 => args.rank = args.size,
            1 => args.gsizes[d] = 0,
            2 => args.psizes[d] = 0,
            3 => args.size += 1,
            _ => args.rank = -1,
        }
        op.valid = false;
        op.invalid = true;
    }
    Kind::Darray(args)
}

fn blocks(b: &mut Bytes, n: usize, elements: bool) -> (Vec<i64>, Vec<i64>) {
    let mut lengths = vec![];
    let mut disps = vec![];
    for _ in 0..n {
        lengths.push(count(b));
        disps.push(if elements {
            element_disp(b)
        } else {
            bytes_disp(b)
        });
    }
    (lengths, disps)
}

impl Program {
    /// Decodes a program from the fuzzer's bytes (at most [`MAX_OPS`] operations).
    pub fn decode(b: &mut Bytes) -> Program {
        let mut prog = Program::default();
        let ops = 1 + b.below(MAX_OPS as u64) as usize;
        for i in 0..ops {
            if b.is_empty() && i > 0 {
                break;
            }
            let selector = b.u8();
            let mut op = Op {
                kind: Kind::Dup,
                old: 0,
                large: selector & 0x80 != 0,
                valid: true,
                invalid: false,
            };
            let choice = if i == 0 { 0 } else { selector % 14 };
            if i > 0 {
                // Mostly the newest types, so that programs nest deeply.
                op.old = if b.u8() < 160 {
                    i - 1 - b.below(i.min(3) as u64) as usize
                } else {
                    b.below(i as u64) as usize
                };
            }
            op.kind = match choice {
                0 | 13 => Kind::Leaf(LEAVES[b.below(LEAVES.len() as u64) as usize]),
                1 => Kind::Dup,
                2 => Kind::Contiguous { count: count(b) },
                3 | 4 => Kind::Vector {
                    count: count(b),
                    blocklength: count(b),
                    stride: if choice == 3 {
                        element_disp(b)
                    } else {
                        bytes_disp(b)
                    },
                    bytes: choice == 4,
                },
                5 | 6 => {
                    let n = b.below(5) as usize;
                    let (blocklengths, displacements) = blocks(b, n, choice == 5);
                    Kind::Indexed {
                        blocklengths,
                        displacements,
                        bytes: choice == 6,
                    }
                }
                7 | 8 => {
                    let n = b.below(5) as usize;
                    let blocklength = count(b);
                    let (_, displacements) = blocks(b, n, choice == 7);
                    Kind::IndexedBlock {
                        blocklength,
                        displacements,
                        bytes: choice == 8,
                    }
                }
                9 => {
                    let n = b.below(5) as usize;
                    let (blocklengths, displacements) = blocks(b, n, false);
                    let types = (0..n).map(|_| b.below(i as u64) as usize).collect();
                    Kind::Struct {
                        blocklengths,
                        displacements,
                        types,
                    }
                }
                10 => subarray(b, &mut op),
                11 => darray(b, &mut op),
                _ => Kind::Resized {
                    lb: if b.one_in(16) {
                        FAR[b.below(FAR.len() as u64) as usize]
                    } else {
                        b.range(-24, 24)
                    },
                    extent: if b.one_in(16) {
                        FAR[b.below(FAR.len() as u64) as usize]
                    } else {
                        b.range(-8, 64)
                    },
                },
            };
            classify(&mut op);
            prog.ops.push(op);
        }
        prog
    }

    /// The operations whose types the operation `i` uses.
    pub fn inputs(&self, i: usize) -> Vec<usize> {
        match &self.ops[i].kind {
            Kind::Leaf(_) => vec![],
            Kind::Struct { types, .. } => types.clone(),
            _ => vec![self.ops[i].old],
        }
    }
}

/// Sets `valid` and `invalid` from the integer arguments.
fn classify(op: &mut Op) {
    let (counts, others): (Vec<i64>, Vec<i64>) = match &op.kind {
        Kind::Leaf(_) | Kind::Dup => (vec![], vec![]),
        Kind::Contiguous { count } => (vec![*count], vec![]),
        Kind::Vector {
            count,
            blocklength,
            stride,
            ..
        } => (vec![*count, *blocklength], vec![*stride]),
        Kind::Indexed {
            blocklengths,
            displacements,
            ..
        }
        | Kind::Struct {
            blocklengths,
            displacements,
            ..
        } => (blocklengths.clone(), displacements.clone()),
        Kind::IndexedBlock {
            blocklength,
            displacements,
            ..
        } => (vec![*blocklength], displacements.clone()),
        Kind::Subarray { sizes, .. } => (vec![], sizes.clone()),
        Kind::Darray(args) => (vec![], args.gsizes.clone()),
        Kind::Resized { lb, extent } => (vec![], vec![*lb, *extent]),
    };
    if counts.iter().any(|&c| c < 0) {
        op.invalid = true;
        op.valid = false;
    }
    if !counts.iter().chain(&others).all(|&v| small(v)) {
        op.valid = false;
    }
}

// ---- sizes of what a program makes ------------------------------------------------------------

/// Upper bounds on the type map of a made type, computed from the arguments alone.
#[derive(Debug, Clone, Copy)]
pub struct Info {
    /// Entries of one copy's type map (data and markers).
    pub entries: u128,
    /// No entry or bound of one copy lies farther than this from 0.
    pub reach: u128,
    /// The most entries and the farthest reach of any type this one is built from, itself
    /// included (the model writes out every child's type map).
    pub subtree: (u128, u128),
}

const CAP: u128 = 1 << 100;

fn sat_mul(a: u128, b: u128) -> u128 {
    a.saturating_mul(b).min(CAP)
}

fn sat_add(a: u128, b: u128) -> u128 {
    a.saturating_add(b).min(CAP)
}

fn nonneg(v: i64) -> u128 {
    v.max(0) as u128
}

impl Info {
    /// Type maps the model writes out quickly and whose displacements fit comfortably in
    /// 64 bits.
    pub fn modelable(&self) -> bool {
        self.subtree.0 <= 20_000 && self.subtree.1 <= 1 << 40
    }

    fn leaf(handle: MPI_Datatype) -> Info {
        let dt = predefined(handle);
        let entries = if handle == MPI_DOUBLE_INT
            || handle == MPI_SHORT_INT
            || handle == MPI_LONG_DOUBLE_INT
            || handle == MPI_2INT
        {
            2
        } else {
            1
        };
        let reach = dt.extent().unsigned_abs() as u128 + 16;
        Info {
            entries,
            reach,
            subtree: (entries, reach),
        }
    }

    fn add_block(&mut self, old: &Info, blocklength: i64, disp: i128) {
        let n = nonneg(blocklength);
        // An empty child still costs the model (and the pack loops) one step per copy.
        self.entries = sat_add(self.entries, sat_mul(n, old.entries.max(1)));
        let far = sat_add(
            sat_add(disp.unsigned_abs(), sat_mul(n, 2 * old.reach)),
            old.reach + 16,
        );
        self.reach = self.reach.max(far);
    }
}

fn info_of(op: &Op, infos: &[Info], prog: &Program) -> Info {
    let empty = Info {
        entries: 0,
        reach: 0,
        subtree: (0, 0),
    };
    let old = infos.get(op.old).copied().unwrap_or(empty);
    let unit = (2 * old.reach).min(CAP) as i128;
    let mut r = empty;
    let clamp = |v: i128| v.clamp(-(CAP as i128), CAP as i128);
    match &op.kind {
        Kind::Leaf(h) => r = Info::leaf(*h),
        Kind::Dup => r = old,
        Kind::Contiguous { count } => r.add_block(&old, *count, 0),
        Kind::Vector {
            count,
            blocklength,
            stride,
            bytes,
        } => {
            let step = if *bytes {
                *stride as i128
            } else {
                clamp(*stride as i128 * unit)
            };
            let last = clamp((*count - 1).max(0) as i128 * step);
            r.add_block(&old, *blocklength, 0);
            r.add_block(&old, *blocklength, last);
            r.entries = sat_mul(
                nonneg(*count),
                sat_mul(nonneg(*blocklength), old.entries.max(1)),
            );
        }
        Kind::Indexed {
            blocklengths,
            displacements,
            bytes,
        } => {
            for (l, d) in blocklengths.iter().zip(displacements) {
                let disp = if *bytes {
                    *d as i128
                } else {
                    clamp(*d as i128 * unit)
                };
                r.add_block(&old, *l, disp);
            }
        }
        Kind::IndexedBlock {
            blocklength,
            displacements,
            bytes,
        } => {
            for d in displacements {
                let disp = if *bytes {
                    *d as i128
                } else {
                    clamp(*d as i128 * unit)
                };
                r.add_block(&old, *blocklength, disp);
            }
        }
        Kind::Struct {
            blocklengths,
            displacements,
            types,
        } => {
            for ((l, d), t) in blocklengths.iter().zip(displacements).zip(types) {
                r.add_block(&infos[*t], *l, *d as i128);
            }
        }
        Kind::Subarray {
            sizes, subsizes, ..
        } => {
            let all = sizes.iter().fold(1u128, |a, &s| sat_mul(a, nonneg(s)));
            let sub = subsizes.iter().fold(1u128, |a, &s| sat_mul(a, nonneg(s)));
            r.reach = sat_add(sat_mul(all, unit as u128), old.reach + 16);
            r.entries = sat_add(sat_mul(sub, old.entries.max(1)), 2);
        }
        Kind::Darray(args) => {
            let all = args
                .gsizes
                .iter()
                .fold(1u128, |a, &s| sat_mul(a, nonneg(s)));
            r.reach = sat_add(sat_mul(all, unit as u128), old.reach + 16);
            r.entries = sat_add(sat_mul(all, old.entries.max(1)), 2);
        }
        Kind::Resized { lb, extent } => {
            r = old;
            r.reach = r.reach.max(sat_add(
                lb.unsigned_abs() as u128,
                extent.unsigned_abs() as u128,
            ));
            r.entries = sat_add(r.entries, 2);
        }
    }
    r.subtree = (r.entries, r.reach);
    for i in prog_inputs(op) {
        let child = infos[i].subtree;
        r.subtree = (r.subtree.0.max(child.0), r.subtree.1.max(child.1));
    }
    let _ = prog;
    r
}

fn prog_inputs(op: &Op) -> Vec<usize> {
    match &op.kind {
        Kind::Leaf(_) => vec![],
        Kind::Struct { types, .. } => types.clone(),
        _ => vec![op.old],
    }
}

// ---- running a program through the Rust core --------------------------------------------------

/// The number of the error class of `error` in the ABI the library is built for.
fn abi_class(error: &CoreError) -> i32 {
    mpi_dtype::error::MpiError::from(error.clone()).class
}

/// What one operation made.
#[derive(Debug, Clone)]
pub struct Made {
    pub dt: Option<Arc<Datatype>>,
    pub info: Info,
    /// The class of the error the constructor returned.
    pub error: Option<i32>,
}

/// Calls the constructor of `op` through `mpi_dtype::datatype::construct`.
pub fn construct_one(op: &Op, types: &[Arc<Datatype>]) -> Result<Arc<Datatype>, CoreError> {
    let old = || &types[0];
    let large = op.large;
    match &op.kind {
        Kind::Leaf(h) => Ok(predefined(*h)),
        Kind::Dup => Ok(construct::dup(old())),
        Kind::Contiguous { count } => construct::contiguous(*count, old(), large),
        Kind::Vector {
            count,
            blocklength,
            stride,
            bytes,
        } => construct::vector(*count, *blocklength, *stride, *bytes, old(), large),
        Kind::Indexed {
            blocklengths,
            displacements,
            bytes,
        } => construct::indexed(
            blocklengths.clone(),
            displacements.clone(),
            *bytes,
            old(),
            large,
        ),
        Kind::IndexedBlock {
            blocklength,
            displacements,
            bytes,
        } => construct::indexed_block(*blocklength, displacements.clone(), *bytes, old(), large),
        Kind::Struct {
            blocklengths,
            displacements,
            ..
        } => construct::structure(
            blocklengths.clone(),
            displacements.clone(),
            types.to_vec(),
            large,
        ),
        Kind::Subarray {
            sizes,
            subsizes,
            starts,
            order,
        } => construct::subarray(
            sizes.clone(),
            subsizes.clone(),
            starts.clone(),
            *order,
            old(),
            large,
        ),
        Kind::Darray(args) => construct::darray(args.clone(), old(), large),
        Kind::Resized { lb, extent } => construct::resized(old(), *lb, *extent, large),
    }
}

/// Runs a program through the Rust core. Checks each outcome: a call with invalid arguments
/// fails, a call with small valid arguments succeeds, and every type the model can write out
/// answers every query as the model does.
pub fn build(prog: &Program) -> Vec<Made> {
    let mut made: Vec<Made> = Vec::with_capacity(prog.ops.len());
    let mut infos: Vec<Info> = Vec::with_capacity(prog.ops.len());
    for (i, op) in prog.ops.iter().enumerate() {
        let info = info_of(op, &infos, prog);
        infos.push(info);
        let inputs: Option<Vec<Arc<Datatype>>> =
            prog.inputs(i).iter().map(|&k| made[k].dt.clone()).collect();
        let Some(types) = inputs else {
            made.push(Made {
                dt: None,
                info,
                error: None,
            });
            continue;
        };
        let result = construct_one(op, &types);
        if std::env::var_os("MPI_DTYPE_FUZZ_TRACE").is_some() {
            eprintln!(
                "op {i}: {op:?}\n    {info:?} -> {:?}",
                result.as_ref().map(|d| (d.size(), d.lb(), d.ub()))
            );
        }
        let marker_old = !matches!(op.kind, Kind::Struct { .. } | Kind::Leaf(_))
            && matches!(prog.ops[op.old].kind, Kind::Leaf(h) if is_marker(h));
        let children_small = prog.inputs(i).iter().all(|&k| infos[k].modelable());
        match &result {
            Ok(dt) => {
                assert!(
                    !op.invalid,
                    "operation {i} {op:?} has an invalid argument but succeeded"
                );
                check_queries(dt, &info, &format!("operation {i} {op:?}"));
            }
            Err(e) => {
                let must_succeed = op.valid && !marker_old && children_small && info.modelable();
                assert!(
                    !must_succeed,
                    "operation {i} {op:?} has small valid arguments but failed: {e:?}"
                );
                assert!(
                    [
                        MPI_ERR_ARG,
                        MPI_ERR_COUNT,
                        MPI_ERR_TYPE,
                        MPI_ERR_RANK,
                        MPI_ERR_DIMS
                    ]
                    .contains(&abi_class(e)),
                    "operation {i} {op:?} failed with an unexpected class: {e:?}"
                );
            }
        }
        made.push(Made {
            error: result.as_ref().err().map(abi_class),
            dt: result.ok(),
            info,
        });
    }
    made
}

/// The true upper bound of a type map (0 for one without data, like `true_lb`).
pub fn true_ub(tm: &TypeMap) -> i64 {
    tm.true_ub()
}

/// Compares the queries of `dt` with the model (when the model can write it out) and with
/// one another.
pub fn check_queries(dt: &Datatype, info: &Info, what: &str) {
    assert!(
        spans_fit(dt),
        "{what}: accepted, but ub - lb or true_ub - true_lb does not fit 64 bits (lb {}, \
         ub {}, true_lb {}, true_extent {})",
        dt.lb(),
        dt.ub(),
        dt.true_lb(),
        dt.true_extent()
    );
    assert_eq!(
        Some(dt.extent()),
        dt.ub().checked_sub(dt.lb()),
        "{what}: extent = ub - lb (lb {}, ub {})",
        dt.lb(),
        dt.ub()
    );
    assert!(dt.size() >= 0, "{what}: negative size {}", dt.size());
    assert!(dt.true_extent() >= 0, "{what}: negative true extent");
    assert_eq!(
        mpi_dtype::pack::packed_size(dt, 1).ok(),
        Some(dt.size()),
        "{what}: packed size of one copy"
    );
    if !info.modelable() {
        return;
    }
    let tm = TypeMap::of(dt);
    let model = (
        tm.size(),
        tm.lb(),
        tm.ub(),
        tm.extent(),
        tm.true_lb(),
        tm.true_ub() - tm.true_lb(),
    );
    let ours = (
        dt.size(),
        dt.lb(),
        dt.ub(),
        dt.extent(),
        dt.true_lb(),
        dt.true_extent(),
    );
    assert_eq!(
        ours, model,
        "{what}: (size, lb, ub, extent, true_lb, true_extent) differ from the model"
    );
    let ext32: i64 = tm
        .data_entries()
        .iter()
        .map(|(b, _)| b.info().ext32_size())
        .sum();
    assert_eq!(
        mpi_dtype::pack::external32::packed_size(dt, 1).ok(),
        Some(ext32),
        "{what}: external32 size of one copy"
    );
}

/// Whether `ub - lb` and `true_ub - true_lb` fit 64 bits (else the constructor should have
/// failed with MPI_ERR_ARG).
pub fn spans_fit(dt: &Datatype) -> bool {
    dt.ub().checked_sub(dt.lb()).is_some() && dt.true_extent() >= 0
}

// ---- the byte-level model ---------------------------------------------------------------------

/// A buffer that holds every byte `count` copies of `tm` address, with a margin of 16 bytes,
/// or `None` if it is larger than `limit` bytes.
pub fn region(tm: &TypeMap, count: i64, limit: i64) -> Option<Geometry> {
    let region = Geometry::of_data(tm, count, 16);
    (region.len as i64 <= limit).then_some(region)
}

/// Cut points: `0 = c_0 <= c_1 <= ... <= c_k = total`, from the fuzzer's bytes.
pub fn cuts(b: &mut Bytes, total: usize) -> Vec<usize> {
    let n = b.below(6) as usize;
    let mut points: Vec<usize> = (0..n)
        .map(|_| {
            if total == 0 {
                0
            } else {
                b.below(total as u64 + 1) as usize
            }
        })
        .collect();
    points.push(0);
    points.push(total);
    points.sort_unstable();
    points
}

/// A fuzz case over user memory: the newest type of a program the model can write out, its
/// type map, a count of 0 to 3 and a patterned buffer covering every byte of that many copies.
pub struct MemoryCase {
    pub dt: Arc<Datatype>,
    pub tm: TypeMap,
    pub count: i64,
    pub region: Geometry,
    pub src: Vec<u8>,
}

impl MemoryCase {
    /// The case's parts: the type, its type map, the count, the region of memory and the
    /// source bytes.
    pub fn into_parts(self) -> (Arc<Datatype>, TypeMap, i64, Geometry, Vec<u8>) {
        (self.dt, self.tm, self.count, self.region, self.src)
    }

    /// Decodes a program and the rest of the case from `b`, or `None` if the program made no
    /// type the model can write out within a buffer of 1 MiB.
    pub fn decode(b: &mut Bytes) -> Option<MemoryCase> {
        let prog = Program::decode(b);
        let made = build(&prog);
        let m = made
            .iter()
            .rev()
            .find(|m| m.dt.is_some() && m.info.modelable())?;
        let dt = m.dt.clone().expect("found with a type");
        let tm = TypeMap::of(&dt);
        let count = b.range(0, 3);
        let region = region(&tm, count, 1 << 20)?;
        let src = random_bytes(b.u64(), region.len);
        Some(MemoryCase {
            dt,
            tm,
            count,
            region,
            src,
        })
    }
}
