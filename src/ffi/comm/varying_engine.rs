//! The collectives with a count and a displacement per process in drop-in mode
//! (`MPI_Gatherv`, `MPI_Scatterv`, `MPI_Allgatherv`, `MPI_Alltoallv`, `MPI_Alltoallw` and
//! their `_c` forms): each side with a block per partner takes one path for all its blocks
//! ([`Spread`]); a side of one block takes the path of that block as one message
//! ([`SentBlocks`], [`ReceivedBlocks`]). Then the MPI behind's function of the same name moves
//! the data: packed bytes where the engine packed, else the program's data with their
//! stand-ins.
//!
//! With `MPI_IN_PLACE` (the send buffer of an alltoall or allgather, at the root of a gather)
//! the data sent are the receive side's blocks, packed first into the buffer the MPI behind
//! receives into. The arguments only the root reads are not looked at elsewhere.

use crate::abi::p2p::{MPI_IN_PLACE, MPI_PROC_NULL, MPI_ROOT};
use crate::abi::{MPI_Comm, MPI_Datatype, MPI_SUCCESS};
use crate::dropin::comm::blocks::{
    root_and_partners, Exchange, Partners, ReceivedBlocks, SentBlocks,
};
use crate::dropin::comm::collective::{After, Collective, Landing, Refill};
use crate::dropin::comm::pool::Buffer;
use crate::dropin::comm::route::{self, BlockSides, Side};
use crate::dropin::comm::varying::{Block, Spread, Unit};
use crate::error::MpiResult;
use crate::ffi::read_in;
use std::cell::OnceCell;
use std::ffi::c_void;
use std::os::raw::c_int;

/// A count or displacement of the C interface (`int`, `MPI_Count`, `MPI_Aint`).
pub(super) trait Number: Copy + Into<i64> + From<i32> + Send + 'static {}
impl<T: Copy + Into<i64> + From<i32> + Send + 'static> Number for T {}

/// The type argument of a side: one type for every block (`MPI_Datatype`) or one per block
/// (`const MPI_Datatype *`, `MPI_Alltoallw`).
pub(super) trait Types: Copy {
    /// How displacements count with these types.
    const UNIT: Unit;
    /// True for an array of a type per block.
    const PER_BLOCK: bool;
    /// The type of block `index`.
    ///
    /// # Safety
    /// An array holds an entry per block.
    unsafe fn at(self, index: usize) -> MPI_Datatype;
    /// The argument the MPI behind takes for `spread` of `blocks` blocks (`kept` holds an
    /// array it points to).
    fn taken(self, spread: &Spread, blocks: usize, kept: &mut Vec<MPI_Datatype>) -> Self;
    /// Whether the engine may pack any block at all (a quick look before reading arrays).
    fn may_pack(self) -> bool;
    /// The first block's type, for the one process of the one-process world (`name`: the
    /// argument's, for the error of a NULL array).
    ///
    /// # Safety
    /// A non-NULL array holds an entry per block.
    unsafe fn first(self, name: &str) -> MpiResult<MPI_Datatype>;
    /// The types as an array of one entry per block, or the address of the one type: valid
    /// while `self` is.
    fn array(&self) -> *const MPI_Datatype;
    /// The argument the MPI behind takes for these types of `blocks` blocks: an array that
    /// holds handles of this library's own form is copied into `kept` with each made a
    /// handle of that library ([`crate::behind::datatypes`]; one type is made so by the call
    /// itself).
    ///
    /// # Safety
    /// A non-NULL array holds an entry per block.
    unsafe fn for_behind(self, blocks: usize, kept: &mut Vec<Vec<MPI_Datatype>>) -> Self;
}

impl Types for MPI_Datatype {
    const UNIT: Unit = Unit::Extents;
    const PER_BLOCK: bool = false;
    unsafe fn at(self, _: usize) -> MPI_Datatype {
        self
    }
    fn taken(self, spread: &Spread, _: usize, _: &mut Vec<MPI_Datatype>) -> Self {
        spread.one_datatype(self)
    }
    fn may_pack(self) -> bool {
        route::may_pack(self)
    }
    unsafe fn first(self, _: &str) -> MpiResult<MPI_Datatype> {
        Ok(self)
    }
    fn array(&self) -> *const MPI_Datatype {
        self
    }
    unsafe fn for_behind(self, _: usize, _: &mut Vec<Vec<MPI_Datatype>>) -> Self {
        self
    }
}

impl Types for *const MPI_Datatype {
    const UNIT: Unit = Unit::Bytes;
    const PER_BLOCK: bool = true;
    unsafe fn at(self, index: usize) -> MPI_Datatype {
        // SAFETY: the caller's contract.
        unsafe { self.add(index).read() }
    }
    fn taken(self, spread: &Spread, blocks: usize, kept: &mut Vec<MPI_Datatype>) -> Self {
        match spread.datatypes(blocks) {
            Some(types) => {
                *kept = types;
                kept.as_ptr()
            }
            None => self,
        }
    }
    fn may_pack(self) -> bool {
        !self.is_null()
    }
    unsafe fn first(self, name: &str) -> MpiResult<MPI_Datatype> {
        // SAFETY: the caller's contract.
        unsafe { read_in(self, name) }
    }
    fn array(&self) -> *const MPI_Datatype {
        *self
    }
    unsafe fn for_behind(self, blocks: usize, kept: &mut Vec<Vec<MPI_Datatype>>) -> Self {
        if self.is_null() {
            return self;
        }
        // SAFETY: the caller's contract.
        let types = unsafe { std::slice::from_raw_parts(self, blocks) };
        if !types.iter().any(|&t| crate::abi::own_parts(t).is_some()) {
            return self;
        }
        let translated: Vec<MPI_Datatype> = types
            .iter()
            .map(|&t| crate::behind::datatypes::datatype_for_behind(t))
            .collect();
        let address = translated.as_ptr();
        kept.push(translated);
        address
    }
}

/// A side with a block per partner, as the program passes it.
#[derive(Clone, Copy)]
pub(super) struct Varied<C, D, T> {
    /// The buffer.
    pub buffer: *const c_void,
    /// The count of each block.
    pub counts: *const C,
    /// The displacement of each block.
    pub displs: *const D,
    /// The type of the blocks.
    pub types: T,
}

/// The arrays the MPI behind reads in place of the program's: byte counts and offsets for a
/// side the engine packs, stand-in types for one it does not. They are held, not read here,
/// until the call completes.
struct Kept<C, D> {
    counts: Vec<C>,
    displs: Vec<D>,
    _types: Vec<MPI_Datatype>,
}

impl<C: Number, D: Number, T: Types> Varied<C, D, T> {
    /// The path of this side of `n` blocks on `side`, or as bytes (`all_bytes`:
    /// [`route::BlockSides::AllBytes`]); `None` where an array is NULL, of counts,
    /// displacements or types (the call then goes to the MPI behind unchanged, which reports
    /// the error), or the blocks cannot go as bytes ([`Spread::as_bytes`]: the call goes
    /// unchanged too, though the other sides move bytes).
    ///
    /// # Safety
    /// Non-NULL arrays hold `n` entries.
    unsafe fn spread(&self, side: Side, n: usize, all_bytes: bool) -> Option<Spread> {
        if self.counts.is_null() || self.displs.is_null() || self.types.array().is_null() {
            return None;
        }
        // SAFETY: the caller's contract.
        let blocks: Vec<Block> = unsafe {
            (0..n)
                .map(|i| Block {
                    count: self.counts.add(i).read().into(),
                    displacement: self.displs.add(i).read().into(),
                    datatype: self.types.at(i),
                })
                .collect()
        };
        match all_bytes {
            true => Spread::as_bytes(self.buffer, T::UNIT, &blocks),
            false => Some(Spread::new(side, self.buffer, T::UNIT, &blocks)),
        }
    }

    /// These arguments as the MPI behind takes them for `spread` of `n` blocks (`kept` holds
    /// the arrays they point to, if any: none where the program's are passed on).
    fn taken(self, spread: &Spread, n: usize, kept: &mut Option<Kept<C, D>>) -> Self {
        // A type array points into `stand_ins`' heap memory, which moves into `kept` intact.
        let mut stand_ins = Vec::new();
        let types = self.types.taken(spread, n, &mut stand_ins);
        let layout = spread.byte_layout::<C, D>();
        if layout.is_none() && stand_ins.is_empty() {
            return Varied { types, ..self };
        }
        let stored = kept.insert(Kept {
            counts: Vec::new(),
            displs: Vec::new(),
            _types: stand_ins,
        });
        let Some((counts, displs)) = layout else {
            return Varied { types, ..self };
        };
        stored.counts = counts;
        stored.displs = displs;
        Varied {
            buffer: spread.buffer(self.buffer),
            counts: stored.counts.as_ptr(),
            displs: stored.displs.as_ptr(),
            types,
        }
    }

    /// [`Varied::taken`] where this side has a `spread`, else these arguments unchanged.
    fn taken_if(self, spread: Option<&Spread>, n: usize, kept: &mut Option<Kept<C, D>>) -> Self {
        match spread {
            Some(spread) => self.taken(spread, n, kept),
            None => self,
        }
    }
}

/// A side of one block, as the program passes it.
#[derive(Clone, Copy)]
pub(super) struct Single<C> {
    /// The buffer.
    pub buffer: *const c_void,
    /// The copies.
    pub count: C,
    /// Their type.
    pub datatype: MPI_Datatype,
}

impl<C: Number> Single<C> {
    /// Sends this block on its path (`defer`: packed at each start of a persistent
    /// collective, not now; `all_bytes`: as bytes, [`route::BlockSides::AllBytes`]).
    ///
    /// # Safety
    /// The block is readable, as the call requires.
    unsafe fn sent(self, defer: bool, all_bytes: bool) -> (Single<C>, Option<SentBlocks>) {
        let block = (self.count.into(), self.datatype);
        // SAFETY: the caller's contract.
        let sent = unsafe { SentBlocks::new(self.buffer, block, 1, defer, all_bytes) };
        let (buffer, count, datatype) = sent.args(self.buffer, self.count, self.datatype);
        (
            Single {
                buffer,
                count,
                datatype,
            },
            Some(sent),
        )
    }

    /// Receives this block on its path (`all_bytes`: as bytes, [`route::BlockSides::AllBytes`]).
    fn received(self, all_bytes: bool) -> (Single<C>, Option<ReceivedBlocks>) {
        let buffer = self.buffer.cast_mut();
        let block = (self.count.into(), self.datatype);
        let received = ReceivedBlocks::new(buffer, block, 1, false, all_bytes);
        let (buffer, count, datatype) = received.args(buffer, self.count, self.datatype);
        let buffer = buffer.cast_const();
        (
            Single {
                buffer,
                count,
                datatype,
            },
            Some(received),
        )
    }
}

/// Whether `buffer` is `MPI_IN_PLACE`.
pub(super) fn is_in_place(buffer: *const c_void) -> bool {
    buffer.expose_provenance() == MPI_IN_PLACE
}

/// Runs `call` after the packing `refills` (the program's data put where the MPI behind
/// finds them: now, or at each start of a persistent collective), keeping what its sides
/// packed into (`sent`), what lands as bytes (`landing`) and the `arrays` it gave the MPI
/// behind until it completes ([`After`]), which unpacks them.
///
/// # Safety
/// The program's data of `refills` are readable (at each start, for a persistent
/// collective), the blocks of `landing` writable until the call completes.
unsafe fn completed<C: Number, D: Number>(
    refills: Vec<Refill>,
    (sent, landing): (Option<Buffer>, Option<Landing>),
    arrays: impl IntoIterator<Item = Kept<C, D>>,
    call: impl FnOnce() -> c_int,
    after: After,
) -> c_int {
    let mut kept = Collective::default();
    kept.sent(sent);
    kept.lands(landing);
    for array in arrays {
        kept.keeps(array);
    }
    // SAFETY: the caller's contract.
    unsafe { kept.run(refills, call, after) }
}

/// A sending side of blocks as a collective keeps it: the buffer they are packed into, and
/// their packing where that waits for each start of a persistent collective (added to
/// `refills`).
pub(super) fn kept_sent(sent: Option<SentBlocks>, refills: &mut Vec<Refill>) -> Option<Buffer> {
    let (buffer, deferred) = sent.map_or((None, None), SentBlocks::into_kept);
    refills.extend(deferred);
    buffer
}

/// Whether `count` is one the engine may pack (a negative one goes to the MPI behind, which
/// reports it).
fn valid<C: Number>(count: C) -> bool {
    count.into() >= 0
}

/// The receive side of a block from each of `partners`, and the packing of the program's
/// blocks it needs (`in_place`: the call sends from it too; and the blocks from nobody,
/// which stay), or `None` where the call goes to the MPI behind unchanged; `all_bytes`: as
/// bytes ([`route::BlockSides::AllBytes`]).
///
/// # Safety
/// The arrays hold an entry per partner.
unsafe fn receiving<C: Number, D: Number, T: Types>(
    recv: &Varied<C, D, T>,
    partners: &Partners,
    (in_place, all_bytes): (bool, bool),
) -> Option<(Spread, Vec<Refill>)> {
    let side = match in_place {
        true => Side::ReceiveInPlace,
        false => Side::Receive,
    };
    // SAFETY: the caller's contract.
    let received = unsafe { recv.spread(side, partners.incoming, all_bytes)? };
    let refills = match in_place {
        true => received.program_data(),
        false => received.program_blocks_of(partners.from_nobody()),
    };
    Some((received, refills))
}

/// The partners of a collective exchanging blocks `with` whom over `comm`, or `None` where the
/// call goes to the MPI behind unchanged: nothing the engine may pack (`packs`), or
/// `MPI_IN_PLACE` in a neighbourhood collective (which that library reports).
pub(super) fn exchanging(
    with: Exchange,
    comm: MPI_Comm,
    packs: bool,
    in_place: bool,
) -> Option<Partners> {
    exchanges(with, packs, in_place)
        .then(|| Partners::of(comm, with))
        .flatten()
}

/// Whether a collective exchanging blocks `with` whom may take the engine's path at all
/// ([`exchanging`], before its partners are asked for).
fn exchanges(with: Exchange, packs: bool, in_place: bool) -> bool {
    packs && !(in_place && with == Exchange::Neighbours)
}

/// `MPI_Alltoallv` or `MPI_Alltoallw`: a block of its own to and from each partner.
///
/// # Safety
/// As for the MPI function.
pub(super) unsafe fn alltoall_varied<C: Number, D: Number, T: Types>(
    send: Varied<C, D, T>,
    recv: Varied<C, D, T>,
    (with, comm): (Exchange, MPI_Comm),
    call: impl Fn(Varied<C, D, T>, Varied<C, D, T>) -> c_int,
    after: After,
) -> c_int {
    // The partners, asked for once, where the routing or the array of types needs them.
    let asked = OnceCell::new();
    let partners = || asked.get_or_init(|| Partners::of(comm, with)).as_ref();
    // The blocks are routed with the program's types; whatever array of types then reaches
    // the MPI behind goes as that library's handles.
    let behind = |send, recv| {
        // SAFETY: the caller's contract: the arrays hold an entry per partner.
        unsafe { with_types_for_behind(send, recv, partners, &call, after) }
    };
    let in_place = is_in_place(send.buffer);
    let packable = recv.types.may_pack() || (!in_place && send.types.may_pack());
    let sides = route::block_sides(false, comm, packable);
    let packs = exchanges(with, sides != BlockSides::Unchanged, in_place);
    let Some(partners) = packs.then(partners).flatten() else {
        return behind(send, recv);
    };
    let all_bytes = sides == BlockSides::AllBytes;
    let sends_bytes = route::sends_bytes(sides, with == Exchange::Everyone);
    // SAFETY: the caller's contract: the arrays hold an entry per partner.
    let receiving = unsafe { receiving(&recv, partners, (in_place, all_bytes)) };
    let Some((received, mut refills)) = receiving else {
        return behind(send, recv);
    };
    let (n, outgoing) = (partners.incoming, partners.outgoing);
    let sent = match in_place {
        true => None,
        // SAFETY: as above.
        false => match unsafe { send.spread(Side::Send, outgoing, sends_bytes) } {
            Some(sent) => Some(sent),
            None if all_bytes => return behind(send, recv),
            None => None,
        },
    };
    refills.extend(sent.iter().flat_map(Spread::program_data));
    let (mut kept_send, mut kept_recv) = (None, None);
    let send = send.taken_if(sent.as_ref(), outgoing, &mut kept_send);
    let recv = recv.taken(&received, n, &mut kept_recv);
    let sides = (sent.and_then(Spread::into_buffer), received.into_landing());
    let arrays = kept_send.into_iter().chain(kept_recv);
    // SAFETY: the buffers hold the data sent and take the blocks, as the function requires.
    unsafe { completed(refills, sides, arrays, || behind(send, recv), after) }
}

/// Runs `call` with arrays of types (`MPI_Alltoallw`) that hold handles of this library's own
/// form replaced by arrays of the MPI behind's handles ([`Types::for_behind`]), kept until
/// the call completes; `partners` gives how many entries they hold.
///
/// # Safety
/// Non-NULL arrays hold an entry per partner.
unsafe fn with_types_for_behind<'a, C: Number, D: Number, T: Types>(
    mut send: Varied<C, D, T>,
    mut recv: Varied<C, D, T>,
    partners: impl Fn() -> Option<&'a Partners>,
    call: impl Fn(Varied<C, D, T>, Varied<C, D, T>) -> c_int,
    after: After,
) -> c_int {
    if !T::PER_BLOCK || (send.types.array().is_null() && recv.types.array().is_null()) {
        return call(send, recv);
    }
    let mut translated = Vec::new();
    let (sent, received) = partners().map_or((0, 0), |p| (p.outgoing, p.incoming));
    // SAFETY: the caller's contract.
    unsafe {
        if !is_in_place(send.buffer) {
            send.types = send.types.for_behind(sent, &mut translated);
        }
        recv.types = recv.types.for_behind(received, &mut translated);
    }
    let rc = call(send, recv);
    if rc == MPI_SUCCESS && !translated.is_empty() {
        // SAFETY: a request of `after` is the one the call made, which it wrote.
        unsafe { crate::dropin::comm::collective::keep_until_complete(translated, after) };
    }
    rc
}

/// `MPI_Allgatherv`: one block to every partner, a block of its own from each.
///
/// # Safety
/// As for the MPI function.
pub(super) unsafe fn allgather_varied<C: Number, D: Number>(
    send: Single<C>,
    recv: Varied<C, D, MPI_Datatype>,
    (with, comm): (Exchange, MPI_Comm),
    call: impl Fn(Single<C>, Varied<C, D, MPI_Datatype>) -> c_int,
    after: After,
) -> c_int {
    let in_place = is_in_place(send.buffer);
    let packable = route::may_pack(recv.types) || (!in_place && route::may_pack(send.datatype));
    let sides = route::block_sides(true, comm, packable);
    let valid = in_place || valid(send.count);
    let packs = sides != BlockSides::Unchanged && valid;
    let Some(partners) = exchanging(with, comm, packs, in_place) else {
        return call(send, recv);
    };
    let all_bytes = sides == BlockSides::AllBytes;
    // SAFETY: the caller's contract: the arrays hold an entry per partner.
    let receiving = unsafe { receiving(&recv, &partners, (in_place, all_bytes)) };
    let Some((received, mut refills)) = receiving else {
        return call(send, recv);
    };
    let n = partners.incoming;
    let (send, sent) = match in_place {
        true => (send, None),
        // SAFETY: the send buffer holds the block, as the function requires.
        false => unsafe { send.sent(after.persistent(), all_bytes) },
    };
    let mut kept = None;
    let recv = recv.taken(&received, n, &mut kept);
    let sides = (kept_sent(sent, &mut refills), received.into_landing());
    // SAFETY: the buffers hold the data sent and take the blocks, as the function requires.
    unsafe { completed(refills, sides, kept, || call(send, recv), after) }
}

/// This process's part in a rooted collective whose side of one block (every process's but
/// the root's) has `count` copies: whether it is the root, its partners, whether that side
/// moves a block here (not at the root of an intercommunicator, nor at a root whose block
/// stays in place) and whether every side goes as bytes ([`route::BlockSides::AllBytes`]);
/// `None` where the call goes to the MPI behind unchanged (`MPI_PROC_NULL`, nothing to
/// pack, a negative count, `MPI_IN_PLACE` but at the root).
fn rooted<C: Number>(
    root: c_int,
    comm: MPI_Comm,
    packable: bool,
    in_place: bool,
    count: C,
) -> Option<(bool, usize, bool, bool)> {
    if root == MPI_PROC_NULL {
        return None;
    }
    let sides = route::block_sides(false, comm, packable);
    if sides == BlockSides::Unchanged {
        return None;
    }
    let all_bytes = sides == BlockSides::AllBytes;
    let (is_root, n) = root_and_partners(root, comm)?;
    let moves = root != MPI_ROOT && !(is_root && in_place);
    let valid = (!moves || valid(count)) && (is_root || !in_place);
    valid.then_some((is_root, n as usize, moves, all_bytes))
}

/// `MPI_Gatherv`: every process sends a block (but the root of an intercommunicator, and a
/// root whose block is in place), the root receives a block of its own from each partner.
///
/// # Safety
/// As for the MPI function.
pub(super) unsafe fn gather_varied<C: Number, D: Number>(
    send: Single<C>,
    recv: Varied<C, D, MPI_Datatype>,
    (root, comm): (c_int, MPI_Comm),
    call: impl Fn(Single<C>, Varied<C, D, MPI_Datatype>) -> c_int,
    after: After,
) -> c_int {
    let in_place = is_in_place(send.buffer);
    let packable = route::may_pack(send.datatype) || route::may_pack(recv.types);
    let Some((is_root, n, sends, all_bytes)) = rooted(root, comm, packable, in_place, send.count)
    else {
        return call(send, recv);
    };
    let everyone = Partners::everyone(n);
    let (received, mut refills) = match is_root {
        // SAFETY: the root's arrays hold an entry per partner.
        true => match unsafe { receiving(&recv, &everyone, (in_place, all_bytes)) } {
            Some((received, refills)) => (Some(received), refills),
            None => return call(send, recv),
        },
        false => (None, Vec::new()),
    };
    let (send, sent) = match sends {
        // SAFETY: the send buffer holds the block, as the function requires.
        true => unsafe { send.sent(after.persistent(), all_bytes) },
        false => (send, None),
    };
    let mut kept = None;
    let recv = recv.taken_if(received.as_ref(), n, &mut kept);
    let sides = (
        kept_sent(sent, &mut refills),
        received.and_then(Spread::into_landing),
    );
    // SAFETY: the buffers hold the data sent (with MPI_IN_PLACE the root's block is in its
    // receive buffer) and the root's takes the blocks, as the function requires.
    unsafe { completed(refills, sides, kept, || call(send, recv), after) }
}

/// `MPI_Scatterv`: the root sends a block of its own to each partner, every process
/// receives one (but the root of an intercommunicator, and a root whose block stays in
/// place).
///
/// # Safety
/// As for the MPI function.
pub(super) unsafe fn scatter_varied<C: Number, D: Number>(
    send: Varied<C, D, MPI_Datatype>,
    recv: Single<C>,
    (root, comm): (c_int, MPI_Comm),
    call: impl Fn(Varied<C, D, MPI_Datatype>, Single<C>) -> c_int,
    after: After,
) -> c_int {
    let in_place = is_in_place(recv.buffer);
    let packable = route::may_pack(send.types) || route::may_pack(recv.datatype);
    let Some((is_root, n, receives, all_bytes)) =
        rooted(root, comm, packable, in_place, recv.count)
    else {
        return call(send, recv);
    };
    let sent = match is_root {
        // SAFETY: the root's arrays hold an entry per partner.
        true => match unsafe { send.spread(Side::Send, n, all_bytes) } {
            Some(sent) => Some(sent),
            None => return call(send, recv),
        },
        false => None,
    };
    let refills = sent.iter().flat_map(Spread::program_data).collect();
    let (recv, received) = match receives {
        true => recv.received(all_bytes),
        false => (recv, None),
    };
    let mut kept = None;
    let send = send.taken_if(sent.as_ref(), n, &mut kept);
    let sides = (
        sent.and_then(Spread::into_buffer),
        received.and_then(ReceivedBlocks::into_landing),
    );
    // SAFETY: the root's send buffer holds the blocks and the receive buffer takes the
    // block, as the function requires.
    unsafe { completed(refills, sides, kept, || call(send, recv), after) }
}
