//! The data of one side of the collectives with a count and a displacement per process
//! (`MPI_Gatherv`, `MPI_Scatterv`, `MPI_Allgatherv`, `MPI_Alltoallv`, `MPI_Alltoallw`): a
//! block per partner, each of its own count, displacement (and, in `MPI_Alltoallw`, type).
//!
//! A side takes one path for all its blocks ([`Spread::new`]):
//!
//! - the engine's: every block is packed into one pooled buffer, one after another in the
//!   order of the partners, and the MPI behind moves `MPI_BYTE`s, with each block's byte
//!   count and its offset in that buffer as count and displacement;
//! - the MPI's: the program's buffer, counts and displacements go to the MPI behind, each
//!   block's type replaced by its stand-in where [`super::route`] gives one.
//!
//! A sending side packs only where every block it sends would be packed as a message of its
//! own, and as `MPI_BYTE`s: a process without this library may receive it, and some types
//! must then be sent with their twins, or as their packed bytes typed by their signature
//! ([`super::route`], types whose basic entries differ in size). A receiving side
//! lands as bytes where any of its blocks would: bytes unpacked by the engine take whatever
//! the sender sent, so every other block may land so too. The bytes of a block are its
//! packed type signature on either path, so each pair of processes moves the same bytes
//! whichever path each side takes.
//!
//! Over an MPI that takes bytes only where every side is bytes, every side of every process
//! goes so ([`Spread::as_bytes`], [`route::BlockSides::AllBytes`]): the blocks as the bytes they
//! are where each is one run of memory, else packed.

use super::collective::{Landing, Refill};
use super::memory::Memory;
use super::pool::Buffer;
use super::route::{self, Path, Side};
use crate::abi::{MPI_Datatype, MPI_BYTE};
use crate::handles;
use std::ffi::c_void;
use std::sync::Arc;

/// How a block's displacement counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Unit {
    /// In extents of the block's type (`MPI_Gatherv` and the like).
    Extents,
    /// In bytes (`MPI_Alltoallw`).
    Bytes,
}

/// One partner's block: `count` copies of `datatype` at `displacement` (in `unit`s) from the
/// side's buffer.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    /// The copies.
    pub count: i64,
    /// Where the block starts.
    pub displacement: i64,
    /// The type of its copies.
    pub datatype: MPI_Datatype,
}

/// A packed block: which partner's, the program's memory and its place in the pooled buffer.
struct Placed {
    index: usize,
    memory: Memory,
    offset: usize,
}

/// One side of the call as the MPI behind takes it.
pub struct Spread(Paths);

/// The path of a side.
enum Paths {
    /// The engine packs: the blocks' bytes one after another in `pooled`.
    Packed {
        /// The buffer the MPI behind sends from or receives into.
        pooled: Buffer,
        /// The non-empty blocks.
        placed: Vec<Placed>,
        /// Each block's bytes, and its offset in `pooled`, in partner order.
        bytes: Vec<(i64, i64)>,
    },
    /// The MPI behind moves the program's data as `MPI_BYTE`s, as they are: each block's
    /// bytes and its offset in bytes from the program's buffer, in partner order.
    Bytes(Vec<(i64, i64)>),
    /// The MPI behind moves the program's data, each block with this type (none: each with
    /// the program's, the arguments are passed on as they are).
    Unchanged(Vec<MPI_Datatype>),
}

/// Adds a block's `run` (its bytes and offset) to `runs`, or, where the block is no run of
/// the program's memory the MPI behind can reach (`None`), gives the runs up.
fn add_run(runs: &mut Option<Vec<(i64, i64)>>, run: Option<(i64, i64)>) {
    match (runs.as_mut(), run) {
        (Some(kept), Some(run)) => kept.push(run),
        _ => *runs = None,
    }
}

impl Spread {
    /// The path of the side of `blocks` at `buffer` where every side of every process goes as
    /// bytes ([`route::BlockSides::AllBytes`]): the program's data as they are where each block
    /// is one run of memory from its address ([`route::AsBytes::InPlace`]) and lies less than
    /// `2^31` bytes from `buffer`, else packed; `None` where neither can be (a negative count,
    /// a type the engine may not pack, a block of `2^31` bytes or more, more than `2^31 - 1`
    /// bytes in all, no memory for the buffer).
    pub fn as_bytes(buffer: *const c_void, unit: Unit, blocks: &[Block]) -> Option<Spread> {
        // Each block's bytes and offset from `buffer`, while every block is one run of memory
        // there; and each block's path should they be packed.
        let mut runs = Some(Vec::with_capacity(blocks.len()));
        let mut paths = Vec::with_capacity(blocks.len());
        for block in blocks {
            if block.count < 0 {
                return None;
            }
            if block.count == 0 {
                add_run(&mut runs, Some((0, 0)));
                paths.push(None);
                continue;
            }
            let datatype = route::packable(block.datatype)?;
            let packed = match route::as_bytes_of(&datatype, block.count, 1) {
                route::AsBytes::Unchanged => return None,
                route::AsBytes::Packed(packed, _) => {
                    add_run(&mut runs, None);
                    packed
                }
                route::AsBytes::InPlace(bytes) => {
                    let stride = match unit {
                        Unit::Extents => datatype.extent(),
                        Unit::Bytes => 1,
                    };
                    let offset = block.displacement.checked_mul(stride);
                    let offset = offset.filter(|&offset| i32::try_from(offset).is_ok());
                    add_run(&mut runs, offset.map(|offset| (bytes, offset)));
                    route::Packed {
                        datatype,
                        bytes: bytes as usize,
                        stream_type: None,
                    }
                }
            };
            paths.push(Some(Path::Engine(packed)));
        }
        match runs {
            Some(runs) => Some(Spread(Paths::Bytes(runs))),
            None => Spread::packed(buffer, unit, blocks, paths),
        }
    }

    /// The path of the side of `blocks` at `buffer` (module documentation).
    pub fn new(side: Side, buffer: *const c_void, unit: Unit, blocks: &[Block]) -> Spread {
        let paths: Vec<Option<Path>> = blocks
            .iter()
            .map(|b| {
                (b.count != 0).then(|| route::route(b.datatype, b.count, side, route::Uses::Many))
            })
            .collect();
        // Blocks whose bytes must go as their type's signature are not packed here: the
        // buffer of all blocks goes as `MPI_BYTE`s (they take their twins).
        let engine = |path: &Path| matches!(path, Path::Engine(p) if p.stream_type.is_none());
        let mut routed = paths.iter().flatten();
        let packs = match side {
            Side::Send => routed.clone().next().is_some() && routed.all(engine),
            Side::Receive | Side::ReceiveInPlace => routed.any(engine),
        };
        let stand_in = |(_, path): (&Block, &Option<Path>)| match path {
            Some(Path::Mpi(Some(stand_in))) => Some(*stand_in),
            _ => None,
        };
        let stand_ins = match blocks.iter().zip(&paths).any(|b| stand_in(b).is_some()) {
            true => blocks
                .iter()
                .zip(&paths)
                .map(|b| stand_in(b).unwrap_or(b.0.datatype))
                .collect(),
            false => Vec::new(),
        };
        let unchanged = Spread(Paths::Unchanged(stand_ins));
        if !packs || blocks.iter().any(|b| b.count < 0) {
            return unchanged;
        }
        Spread::packed(buffer, unit, blocks, paths).unwrap_or(unchanged)
    }

    /// The engine's path for `blocks` (their `paths` as messages of their own), or `None`
    /// where it cannot be taken: a type the engine cannot pack, more than `2^31 - 1` bytes in
    /// all, a displacement out of range, or no memory for the buffer.
    fn packed(
        buffer: *const c_void,
        unit: Unit,
        blocks: &[Block],
        paths: Vec<Option<Path>>,
    ) -> Option<Spread> {
        let base = buffer.expose_provenance() as i64;
        let (mut placed, mut bytes, mut total) =
            (Vec::new(), Vec::with_capacity(blocks.len()), 0i64);
        for (index, (block, path)) in blocks.iter().zip(paths).enumerate() {
            let datatype = match path {
                None => {
                    bytes.push((0, total));
                    continue;
                }
                Some(Path::Engine(packed)) => packed.datatype,
                // A committed type of this library's, which the engine may pack.
                Some(Path::Mpi(_)) => handles::try_with_committed(block.datatype, Arc::clone)?,
            };
            let size = datatype.size().checked_mul(block.count)?;
            let stride = match unit {
                Unit::Extents => datatype.extent(),
                Unit::Bytes => 1,
            };
            let address = block.displacement.checked_mul(stride)?.checked_add(base)?;
            bytes.push((size, total));
            let offset = total as usize;
            total = total.checked_add(size).filter(|&t| t <= i32::MAX as i64)?;
            let memory = Memory {
                address: address as usize,
                datatype,
                count: block.count,
            };
            placed.push(Placed {
                index,
                memory,
                offset,
            });
        }
        let pooled = Buffer::take(total.max(1) as usize)?;
        Some(Spread(Paths::Packed {
            pooled,
            placed,
            bytes,
        }))
    }

    /// The buffer the MPI behind takes: the pooled one, or the program's `buffer`.
    pub fn buffer(&self, buffer: *const c_void) -> *const c_void {
        match &self.0 {
            Paths::Packed { pooled, .. } => pooled.as_mut_ptr().cast_const().cast(),
            Paths::Bytes(_) | Paths::Unchanged(_) => buffer,
        }
    }

    /// The counts and displacements the MPI behind takes where it moves bytes: each block's
    /// bytes and offset in the pooled buffer, or in the program's (`None` on the MPI's path:
    /// the program's).
    pub fn byte_layout<C: From<i32>, D: From<i32>>(&self) -> Option<(Vec<C>, Vec<D>)> {
        match &self.0 {
            // Each fits in an int: the total does (`packed`), each block and offset does
            // (`as_bytes`).
            Paths::Packed { bytes, .. } | Paths::Bytes(bytes) => Some(
                bytes
                    .iter()
                    .map(|&(size, offset)| (C::from(size as i32), D::from(offset as i32)))
                    .unzip(),
            ),
            Paths::Unchanged(_) => None,
        }
    }

    /// The one type of every block the MPI behind takes (`MPI_Gatherv` and the like, whose
    /// program passes `datatype` for all): `MPI_BYTE` on the engine's path, else the
    /// stand-in of the blocks that have one, or `datatype`.
    pub fn one_datatype(&self, datatype: MPI_Datatype) -> MPI_Datatype {
        match &self.0 {
            Paths::Packed { .. } | Paths::Bytes(_) => MPI_BYTE,
            Paths::Unchanged(types) => types
                .iter()
                .copied()
                .find(|&t| t != datatype)
                .unwrap_or(datatype),
        }
    }

    /// The types of all blocks the MPI behind takes (`MPI_Alltoallw`), or `None` where they
    /// are the program's.
    pub fn datatypes(&self, blocks: usize) -> Option<Vec<MPI_Datatype>> {
        match &self.0 {
            Paths::Packed { .. } | Paths::Bytes(_) => Some(vec![MPI_BYTE; blocks]),
            Paths::Unchanged(types) if types.is_empty() => None,
            Paths::Unchanged(types) => Some(types.clone()),
        }
    }

    /// The packing of the program's blocks into the pooled buffer, to do now or at each
    /// start ([`Refill`]): the data a sending side sends, or, for `MPI_IN_PLACE`, the data a
    /// receiving side sends from its own buffer.
    pub fn program_data(&self) -> Vec<Refill> {
        self.program_blocks(|_| true)
    }

    /// The packing of the program's data of the blocks of partners `indices` into the pooled
    /// buffer ([`Spread::program_data`]): blocks nothing arrives in (from `MPI_PROC_NULL`
    /// neighbours) are then unpacked as they were.
    pub fn program_blocks_of(&self, indices: impl Iterator<Item = usize>) -> Vec<Refill> {
        let indices: Vec<usize> = indices.collect();
        self.program_blocks(|index| indices.contains(&index))
    }

    /// The packing of the blocks whose partner's index `which` takes.
    fn program_blocks(&self, which: impl Fn(usize) -> bool) -> Vec<Refill> {
        let Paths::Packed { pooled, placed, .. } = &self.0 else {
            return Vec::new();
        };
        let start = pooled.as_mut_ptr().expose_provenance();
        placed
            .iter()
            .filter(|block| which(block.index))
            .map(|block| Refill {
                memory: block.memory.clone(),
                at: start + block.offset,
            })
            .collect()
    }

    /// The pooled buffer of a sending side, if it packed (kept until the call completes).
    pub fn into_buffer(self) -> Option<Buffer> {
        match self.0 {
            Paths::Packed { pooled, .. } => Some(pooled),
            Paths::Bytes(_) | Paths::Unchanged(_) => None,
        }
    }

    /// The landing buffer of a receiving side and where each block's bytes go, if it lands
    /// as bytes.
    pub fn into_landing(self) -> Option<Landing> {
        match self.0 {
            Paths::Packed { pooled, placed, .. } => {
                let blocks = placed.into_iter().map(|p| (p.memory, p.offset)).collect();
                Some((pooled, blocks))
            }
            Paths::Bytes(_) | Paths::Unchanged(_) => None,
        }
    }
}
