//! The naive reference model: a datatype's type map written out entry by entry, straight from
//! the standard's definitions of each constructor (MPI-4.1 §5.1), with bounds computed by the
//! standard's marker equations (§5.1.7). It is slow and exists to check everything else.

use super::{Combiner, DarrayArgs, Datatype, Distribution, Order};
use crate::predefined::{pair_offset, Basic, PredefinedKind};

/// What an entry of a type map is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A basic datatype.
    Data(Basic),
    /// The pseudo-type `lb` (lower-bound marker).
    Lb,
    /// The pseudo-type `ub` (upper-bound marker).
    Ub,
}

/// One `(type, displacement)` pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The type.
    pub item: Item,
    /// The byte displacement.
    pub disp: i64,
}

/// An explicit type map.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypeMap {
    /// The entries in type-map order.
    pub entries: Vec<Entry>,
}

/// The unit of an indexed constructor's displacements: the extent of the child `child` for
/// `MPI_Type_indexed` and `MPI_Type_create_indexed_block`, a byte for the `h` forms.
fn displacement_unit(combiner: &Combiner, child: &TypeMap) -> i64 {
    match combiner {
        Combiner::Indexed { .. } | Combiner::IndexedBlock { .. } => child.extent(),
        _ => 1,
    }
}

impl TypeMap {
    /// The type map of `dt`, computed from its constructor arguments alone. The recursion
    /// through the children grows the stack on the heap as needed, so any depth works.
    pub fn of(dt: &Datatype) -> TypeMap {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || TypeMap::of_node(dt))
    }

    fn of_node(dt: &Datatype) -> TypeMap {
        let mut out = TypeMap::default();
        match &dt.combiner {
            Combiner::Named(p) => match p.kind {
                PredefinedKind::Basic(b) => out.push(Item::Data(b), 0),
                PredefinedKind::LbMarker => out.push(Item::Lb, 0),
                PredefinedKind::UbMarker => out.push(Item::Ub, 0),
                PredefinedKind::Pair(a, b) => {
                    out.push(Item::Data(a), 0);
                    out.push(Item::Data(b), pair_offset(a, b));
                }
            },
            Combiner::Dup(old) | Combiner::F90 { base: old, .. } => return TypeMap::of(old),
            Combiner::Contiguous { count, old } => {
                let child = TypeMap::of(old);
                let ex = child.extent();
                for i in 0..*count {
                    out.append(&child, i * ex);
                }
            }
            Combiner::Vector {
                count,
                blocklength,
                stride,
                old,
            }
            | Combiner::Hvector {
                count,
                blocklength,
                stride,
                old,
            } => {
                let child = TypeMap::of(old);
                let ex = child.extent();
                let step = if matches!(dt.combiner, Combiner::Vector { .. }) {
                    stride * ex
                } else {
                    *stride
                };
                for i in 0..*count {
                    for j in 0..*blocklength {
                        out.append(&child, i * step + j * ex);
                    }
                }
            }
            Combiner::Indexed {
                blocklengths,
                displacements,
                old,
            }
            | Combiner::Hindexed {
                blocklengths,
                displacements,
                old,
            } => {
                let blocks = blocklengths.iter().zip(displacements);
                out.append_indexed(&dt.combiner, old, blocks.map(|(&b, &d)| (b, d)));
            }
            Combiner::IndexedBlock {
                blocklength,
                displacements,
                old,
            }
            | Combiner::HindexedBlock {
                blocklength,
                displacements,
                old,
            } => {
                let blocks = displacements.iter().map(|&d| (*blocklength, d));
                out.append_indexed(&dt.combiner, old, blocks);
            }
            Combiner::Struct {
                blocklengths,
                displacements,
                types,
            } => {
                for ((&b, &d), t) in blocklengths.iter().zip(displacements).zip(types) {
                    out.append_blocks(&TypeMap::of(t), [(b, d)]);
                }
            }
            Combiner::Resized { lb, extent, old } => {
                out.push(Item::Lb, *lb);
                out.append_data(&TypeMap::of(old), 0);
                out.push(Item::Ub, lb + extent);
            }
            Combiner::Subarray { shape, old, .. } => {
                let (sizes, subsizes, starts) = (&shape.sizes, &shape.subsizes, &shape.starts);
                let ranges: Vec<Vec<i64>> = (0..sizes.len())
                    .map(|d| (starts[d]..starts[d] + subsizes[d]).collect())
                    .collect();
                out.array_part(sizes, &ranges, shape.order, old);
            }
            Combiner::Darray { args, old, .. } => {
                let ranges = darray_indices(args);
                out.array_part(&args.gsizes, &ranges, args.order, old);
            }
        }
        out
    }

    fn push(&mut self, item: Item, disp: i64) {
        self.entries.push(Entry { item, disp });
    }

    fn append(&mut self, child: &TypeMap, offset: i64) {
        self.entries.extend(child.entries.iter().map(|e| Entry {
            item: e.item,
            disp: e.disp + offset,
        }));
    }

    /// Appends blocks of copies of `child` laid end to end: `(copies, byte offset)` each.
    fn append_blocks(&mut self, child: &TypeMap, blocks: impl IntoIterator<Item = (i64, i64)>) {
        let ex = child.extent();
        for (copies, offset) in blocks {
            for j in 0..copies {
                self.append(child, offset + j * ex);
            }
        }
    }

    /// Appends the blocks `(copies, displacement)` of an indexed constructor `combiner` of
    /// `old`, its displacements in the units of [`displacement_unit`].
    fn append_indexed(
        &mut self,
        combiner: &Combiner,
        old: &Datatype,
        blocks: impl Iterator<Item = (i64, i64)>,
    ) {
        let child = TypeMap::of(old);
        let unit = displacement_unit(combiner, &child);
        self.append_blocks(&child, blocks.map(|(copies, d)| (copies, d * unit)));
    }

    fn append_data(&mut self, child: &TypeMap, offset: i64) {
        self.entries.extend(
            child
                .entries
                .iter()
                .filter(|e| matches!(e.item, Item::Data(_)))
                .map(|e| Entry {
                    item: e.item,
                    disp: e.disp + offset,
                }),
        );
    }

    /// The elements of an array of `sizes` (in `order`) whose index in dimension `d` is one of
    /// `ranges[d]`, in array order, between markers at 0 and the end of the whole array.
    fn array_part(&mut self, sizes: &[i64], ranges: &[Vec<i64>], order: Order, old: &Datatype) {
        let child = TypeMap::of(old);
        let ex = child.extent();
        let n = sizes.len();
        let dims: Vec<usize> = match order {
            Order::C => (0..n).collect(),
            Order::Fortran => (0..n).rev().collect(),
        };
        let mut strides = vec![1i64; n];
        for k in (0..n - 1).rev() {
            strides[dims[k]] = strides[dims[k + 1]] * sizes[dims[k + 1]];
        }
        self.push(Item::Lb, 0);
        let mut tuple = vec![0usize; n];
        if ranges.iter().all(|r| !r.is_empty()) {
            'outer: loop {
                let linear: i64 = (0..n).map(|d| ranges[d][tuple[d]] * strides[d]).sum();
                self.append_data(&child, linear * ex);
                for k in (0..n).rev() {
                    let d = dims[k];
                    tuple[d] += 1;
                    if tuple[d] < ranges[d].len() {
                        continue 'outer;
                    }
                    tuple[d] = 0;
                }
                break;
            }
        }
        self.push(Item::Ub, sizes.iter().product::<i64>() * ex);
    }

    fn data(&self) -> impl Iterator<Item = (Basic, i64)> + '_ {
        self.entries.iter().filter_map(|e| match e.item {
            Item::Data(b) => Some((b, e.disp)),
            _ => None,
        })
    }

    /// The basic entries `(type, displacement)` in type-map order.
    pub fn data_entries(&self) -> Vec<(Basic, i64)> {
        self.data().collect()
    }

    /// The basic entries of `count` copies, copy `k` moved by `k` extents, in order.
    pub fn copies(&self, count: i64) -> Vec<(Basic, i64)> {
        let extent = self.extent();
        let one = self.data_entries();
        (0..count)
            .flat_map(|k| one.iter().map(move |&(b, d)| (b, k * extent + d)))
            .collect()
    }

    /// True if no two basic entries of `count` copies share a byte.
    pub fn non_overlapping(&self, count: i64) -> bool {
        let mut spans: Vec<(i64, i64)> = self
            .copies(count)
            .into_iter()
            .map(|(b, d)| (d, d + b.size()))
            .collect();
        spans.sort();
        spans.windows(2).all(|w| w[0].1 <= w[1].0)
    }

    /// What packing `count` copies from `memory` must give, displacement 0 being
    /// `memory[origin]`: the bytes of every basic entry, in order.
    pub fn pack_bytes(&self, count: i64, memory: &[u8], origin: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for (b, d) in self.copies(count) {
            let i = (origin as i64 + d) as usize;
            out.extend_from_slice(&memory[i..i + b.size() as usize]);
        }
        out
    }

    /// What unpacking `packed` as `count` copies must leave in `memory`, displacement 0 being
    /// `memory[origin]`: the packed bytes written entry by entry, in order.
    pub fn unpack_bytes(&self, count: i64, packed: &[u8], memory: &mut [u8], origin: usize) {
        let mut at = 0usize;
        for (b, d) in self.copies(count) {
            let (i, n) = ((origin as i64 + d) as usize, b.size() as usize);
            memory[i..i + n].copy_from_slice(&packed[at..at + n]);
            at += n;
        }
    }

    /// Total size of the basic entries.
    pub fn size(&self) -> i64 {
        self.data().map(|(b, _)| b.size()).sum()
    }

    /// `lb(Typemap)` of MPI-4.1 §5.1.7.
    pub fn lb(&self) -> i64 {
        let marks: Vec<i64> = self
            .entries
            .iter()
            .filter(|e| e.item == Item::Lb)
            .map(|e| e.disp)
            .collect();
        if let Some(m) = marks.iter().min() {
            return *m;
        }
        self.entries.iter().map(|e| e.disp).min().unwrap_or(0)
    }

    /// `ub(Typemap)` of MPI-4.1 §5.1.7, with the alignment padding epsilon.
    pub fn ub(&self) -> i64 {
        let marks: Vec<i64> = self
            .entries
            .iter()
            .filter(|e| e.item == Item::Ub)
            .map(|e| e.disp)
            .collect();
        if let Some(m) = marks.iter().max() {
            return *m;
        }
        let end = |e: &Entry| match e.item {
            Item::Data(b) => e.disp + b.size(),
            _ => e.disp,
        };
        let Some(raw) = self.entries.iter().map(end).max() else {
            return 0;
        };
        let k = self.data().map(|(b, _)| b.align()).max().unwrap_or(1);
        let lb = self.lb();
        lb + (raw - lb + k - 1).div_euclid(k) * k
    }

    /// `ub - lb`.
    pub fn extent(&self) -> i64 {
        self.ub() - self.lb()
    }

    /// Least displacement of a basic entry (0 if none).
    pub fn true_lb(&self) -> i64 {
        self.data().map(|(_, d)| d).min().unwrap_or(0)
    }

    /// Greatest end of a basic entry (0 if none).
    pub fn true_ub(&self) -> i64 {
        self.data().map(|(b, d)| d + b.size()).max().unwrap_or(0)
    }
}

/// For each darray dimension, the global indices the process owns, in increasing order,
/// computed from the distribution's definition index by index.
fn darray_indices(args: &DarrayArgs) -> Vec<Vec<i64>> {
    let n = args.gsizes.len();
    let mut coords = vec![0i64; n];
    let mut rest = args.rank as i64;
    for d in (0..n).rev() {
        coords[d] = rest % args.psizes[d] as i64;
        rest /= args.psizes[d] as i64;
    }
    (0..n)
        .map(|d| {
            let (g, p, darg) = (args.gsizes[d], args.psizes[d] as i64, args.dargs[d]);
            (0..g)
                .filter(|&i| match args.distribs[d] {
                    Distribution::None => true,
                    Distribution::Block => {
                        let b = darg.map_or((g + p - 1) / p, i64::from);
                        i / b == coords[d]
                    }
                    Distribution::Cyclic => {
                        let b = darg.map_or(1, i64::from);
                        (i / b) % p == coords[d]
                    }
                })
                .collect()
        })
        .collect()
}
