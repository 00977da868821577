//! The data of the collectives that move one block per process (`MPI_Alltoall`,
//! `MPI_Allgather`, `MPI_Gather`, `MPI_Scatter`): `blocks` blocks of `count` copies of a type
//! laid end to end (block `i` is copies `i * count` on), which is `blocks * count` copies, one
//! message. Each side takes its path as that message would ([`super::route`]); on the engine's,
//! the blocks are packed into one buffer, block `i` at `i` times the bytes of a block, and the
//! MPI behind moves `MPI_BYTE`s, so its count is the bytes of one block. Over an MPI that
//! takes bytes only where every side is bytes, every side of every process goes so
//! ([`super::route::BlockSides::AllBytes`]): the blocks of a type whose copies are one run of
//! memory as the bytes they are, the others packed.

use super::collective::{Landing, Refill};
use super::pool::Buffer;
use super::{Incoming, Outgoing};
use crate::abi::p2p::MPI_ROOT;
use crate::abi::{MPI_Comm, MPI_Datatype, MPI_BYTE, MPI_SUCCESS};
use crate::behind::forward;
use std::ffi::c_void;
use std::os::raw::c_int;

/// Whether `comm` is an intercommunicator (`None` if the MPI behind cannot say: the call then
/// goes to it unchanged, which reports the error).
fn is_inter(comm: MPI_Comm) -> Option<bool> {
    let mut inter: c_int = 0;
    let rc = forward!(MPI_Comm_test_inter: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut inter);
    (rc == Some(MPI_SUCCESS)).then_some(inter != 0)
}

/// The number of processes of `comm` (`inter`: an intercommunicator) a process sends blocks to
/// or receives blocks from: the remote group's over an intercommunicator, else the
/// communicator's.
fn partners_in(comm: MPI_Comm, inter: bool) -> Option<i64> {
    let mut size: c_int = 0;
    let rc = match inter {
        false => forward!(MPI_Comm_size: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut size),
        true => forward!(MPI_Comm_remote_size: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut size),
    };
    (rc == Some(MPI_SUCCESS) && size > 0).then_some(size.into())
}

/// The number of processes of `comm` a process sends blocks to or receives blocks from.
pub fn partners(comm: MPI_Comm) -> Option<i64> {
    partners_in(comm, is_inter(comm)?)
}

/// Whom a collective exchanges blocks with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Exchange {
    /// Every process of the communicator, or of the remote group of an intercommunicator.
    Everyone,
    /// The neighbours of the communicator's topology (the neighbourhood collectives).
    Neighbours,
}

/// The partners of one call: how many blocks a process sends and receives, and which of the
/// blocks it receives come from nobody (`MPI_PROC_NULL` neighbours: those blocks stay as
/// they are).
pub struct Partners {
    /// The blocks sent.
    pub outgoing: usize,
    /// The blocks received.
    pub incoming: usize,
    /// Per block received, whether it comes from `MPI_PROC_NULL`.
    nobody: Vec<bool>,
}

impl Partners {
    /// The partners of this process in a collective `exchange` over `comm` (`None` where the
    /// MPI behind cannot say: the call then goes to it unchanged).
    pub fn of(comm: MPI_Comm, exchange: Exchange) -> Option<Partners> {
        match exchange {
            Exchange::Everyone => Some(Partners::everyone(partners(comm)? as usize)),
            Exchange::Neighbours => {
                let neighbours = super::neighbours::Neighbours::of(comm)?;
                let incoming = neighbours.sources.len();
                Some(Partners {
                    outgoing: neighbours.destinations.len(),
                    incoming,
                    nobody: (0..incoming).map(|i| neighbours.from_nobody(i)).collect(),
                })
            }
        }
    }

    /// `n` partners each way, every block received from one of them (the rooted collectives).
    pub fn everyone(n: usize) -> Partners {
        Partners {
            outgoing: n,
            incoming: n,
            nobody: Vec::new(),
        }
    }

    /// The blocks received from nobody, by index.
    pub fn from_nobody(&self) -> impl Iterator<Item = usize> + '_ {
        self.nobody
            .iter()
            .enumerate()
            .filter(|(_, &none)| none)
            .map(|(i, _)| i)
    }
}

/// Whether this process is the root of a rooted collective over `comm` (`inter`: an
/// intercommunicator) with the argument `root`.
fn is_root_in(root: c_int, comm: MPI_Comm, inter: bool) -> bool {
    if root == MPI_ROOT {
        return true;
    }
    if inter {
        return false; // root names a process of the other group
    }
    let mut rank: c_int = -1;
    forward!(MPI_Comm_rank: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut rank);
    rank == root
}

/// Whether this process is the root of a rooted collective over `comm` with the argument
/// `root`: the root of an intracommunicator, or the process that passes `MPI_ROOT` in the
/// root group of an intercommunicator (over which `root` otherwise names a process of the
/// other group).
pub fn is_root(root: c_int, comm: MPI_Comm) -> bool {
    root == MPI_ROOT || is_root_in(root, comm, is_inter(comm).unwrap_or(false))
}

/// Whether this process is the root of a rooted collective over `comm` with `root`
/// ([`is_root`]), and its number of [`partners`]: the communicator asked once.
pub fn root_and_partners(root: c_int, comm: MPI_Comm) -> Option<(bool, i64)> {
    let inter = is_inter(comm)?;
    Some((is_root_in(root, comm, inter), partners_in(comm, inter)?))
}

/// The count of one block to give the MPI behind: the program's `count`, or, when the
/// blocks were packed into a buffer of `total` bytes sent as `MPI_BYTE`s (`bytes`), the bytes
/// of one of `blocks`.
fn block_count<C: Copy + Into<i64> + From<i32>>(bytes: bool, total: C, blocks: i64, count: C) -> C {
    match bytes {
        // The total fits in an int: route keeps larger messages on the MPI's path.
        true => C::from((total.into() / blocks) as i32),
        false => count,
    }
}

/// The arguments of one side of a collective whose every side goes as bytes, blocks of
/// `block` bytes at `buffer` (the program's, or the engine's it packed into): the buffer, the
/// bytes of one block and `MPI_BYTE`.
fn as_bytes<B, C: From<i32>>(buffer: B, block: i64) -> (B, C, MPI_Datatype) {
    // A block's bytes fit in an int: `super::route::as_bytes` leaves larger blocks unchanged.
    (buffer, C::from(block as i32), MPI_BYTE)
}

/// The blocks a process sends.
pub struct SentBlocks {
    outgoing: Outgoing,
    blocks: i64,
    /// Where every side goes as bytes, the bytes of one block.
    block_bytes: Option<i64>,
}

impl SentBlocks {
    /// Prepares sending `blocks` blocks of `count` copies of `datatype` at `buffer`: on the
    /// engine's path, packs them now, or at each start of a persistent collective (`defer`);
    /// `all_bytes`: as bytes, whatever the type ([`super::route::BlockSides::AllBytes`]).
    ///
    /// # Safety
    /// The type map of the blocks relative to `buffer` is readable, as the call requires.
    pub unsafe fn new(
        buffer: *const c_void,
        (count, datatype): (i64, MPI_Datatype),
        blocks: i64,
        defer: bool,
        all_bytes: bool,
    ) -> SentBlocks {
        let copies = blocks * count;
        // SAFETY: the caller's contract.
        let (outgoing, block_bytes) = unsafe {
            match all_bytes {
                true => Outgoing::collective_bytes(buffer, (copies, datatype), blocks, defer),
                false => (Outgoing::collective(buffer, copies, datatype, defer), None),
            }
        };
        SentBlocks {
            outgoing,
            blocks,
            block_bytes,
        }
    }

    /// The buffer the blocks were packed into, if they were.
    pub fn into_buffer(self) -> Option<Buffer> {
        self.outgoing.into_buffer()
    }

    /// The buffer the blocks are packed into, if they are, and the packing each start does
    /// where it is deferred.
    pub fn into_kept(self) -> (Option<Buffer>, Option<Refill>) {
        self.outgoing.into_kept()
    }

    /// The buffer, count of one block and datatype the MPI behind sends.
    pub fn args<C: Copy + Into<i64> + From<i32>>(
        &self,
        buffer: *const c_void,
        count: C,
        datatype: MPI_Datatype,
    ) -> (*const c_void, C, MPI_Datatype) {
        let (b, total, t) = self.outgoing.args(buffer, count, datatype);
        if let Some(block) = self.block_bytes {
            return as_bytes(b, block);
        }
        (
            b,
            block_count(self.outgoing.sends_bytes(), total, self.blocks, count),
            t,
        )
    }
}

/// The blocks a process receives.
pub struct ReceivedBlocks {
    incoming: Incoming,
    blocks: i64,
    /// Where every side goes as bytes, the bytes of one block.
    block_bytes: Option<i64>,
}

impl ReceivedBlocks {
    /// Prepares receiving `blocks` blocks of `count` copies of `datatype` at `buffer`;
    /// `in_place`: the call sends from this buffer too (`MPI_IN_PLACE`); `all_bytes`: as
    /// bytes, whatever the type ([`super::route::BlockSides::AllBytes`]).
    pub fn new(
        buffer: *mut c_void,
        (count, datatype): (i64, MPI_Datatype),
        blocks: i64,
        in_place: bool,
        all_bytes: bool,
    ) -> ReceivedBlocks {
        let copies = blocks * count;
        let (incoming, block_bytes) = match all_bytes {
            true => Incoming::collective_bytes(buffer, (copies, datatype), blocks),
            false => (
                Incoming::collective(buffer, copies, datatype, in_place),
                None,
            ),
        };
        ReceivedBlocks {
            incoming,
            blocks,
            block_bytes,
        }
    }

    /// The buffer, count of one block and datatype the MPI behind receives into.
    pub fn args<C: Copy + Into<i64> + From<i32>>(
        &self,
        buffer: *mut c_void,
        count: C,
        datatype: MPI_Datatype,
    ) -> (*mut c_void, C, MPI_Datatype) {
        let (b, total, t) = self.incoming.args(buffer, count, datatype);
        if let Some(block) = self.block_bytes {
            return as_bytes(b, block);
        }
        (
            b,
            block_count(self.incoming.packs(), total, self.blocks, count),
            t,
        )
    }

    /// The packing of the program's block `index` into the buffer the MPI behind receives
    /// into: a block nothing arrives in (from an `MPI_PROC_NULL` neighbour) is then unpacked
    /// as it was.
    pub fn program_block(&self, index: usize) -> Option<Refill> {
        let count = self.incoming.copies() / self.blocks.max(1);
        self.incoming.program_copies(index as i64 * count, count)
    }

    /// For `MPI_IN_PLACE`: the packing of the program's blocks into the buffer the MPI behind
    /// receives into, where it finds the data this process sends.
    pub fn program_data(&self) -> Option<Refill> {
        self.incoming.program_data()
    }

    /// The landing buffer and where its blocks go, if they land as bytes.
    pub fn into_landing(self) -> Option<Landing> {
        self.incoming.into_landing()
    }
}
