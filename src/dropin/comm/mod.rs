//! Messages of derived datatypes in drop-in mode, packed by this library's engine.
//!
//! The exported communication functions ([`crate::ffi::comm`]) stand in front of the MPI
//! behind's: point-to-point (blocking, nonblocking, persistent, matched receives), the
//! completion calls, `MPI_Bcast`, the collectives that move one block per process
//! (`MPI_Alltoall`, `MPI_Allgather`, `MPI_Gather`, `MPI_Scatter`: [`blocks`]) and those with
//! a count and a displacement per process (`MPI_Alltoallv`, `MPI_Alltoallw`, `MPI_Gatherv`,
//! `MPI_Scatterv`, `MPI_Allgatherv`: [`varying`]) and the neighbourhood collectives
//! ([`neighbours`]), each collective also in its nonblocking form ([`collective`]). For each
//! message they ask [`route`] which path it takes:
//!
//! - the MPI's: the call goes to the MPI behind unchanged, with the type's twin;
//! - the engine's: a send packs the program's data into a pooled buffer ([`pool`]) and sends
//!   it as `count * size` `MPI_BYTE`s (or, for some types whose basic entries differ in size,
//!   as `count` copies of a type of the MPI behind with the packed bytes' signature:
//!   [`route`]); a receive receives that many bytes into a pooled
//!   buffer and unpacks what arrived into the program's memory when the receive completes
//!   (at once for a blocking call, else in the completion call that reports it:
//!   [`pending`]).
//!
//! The bytes on the wire are the packed type signature either way (MPICH moves a derived type
//! as its packed bytes too), so a receive of any matching type, predefined or derived, on
//! either path, or by a process without this library, gets the same data, and the byte count
//! every status carries is the same: `MPI_Get_count` and `MPI_Get_elements` answer as they
//! would. Matching (source, tag, communicator, order) is the MPI's, untouched.

pub mod blocks;
pub mod collective;
pub mod holed;
pub mod memory;
pub mod neighbours;
pub mod node_local;
pub mod peers;
pub mod pending;
pub mod pool;
pub mod route;
pub mod settings;
pub mod varying;
pub mod world;

use crate::abi::p2p::{MPI_Request, MPI_PROC_NULL, MPI_STATUSES_IGNORE};
use crate::abi::{
    MPI_Datatype, MPI_Status, MPI_BYTE, MPI_ERR_PENDING, MPI_ERR_TRUNCATE, MPI_SUCCESS,
};
use crate::behind::forward;
use crate::dropin::twin::Held;
use memory::Memory;
use pending::{Pending, Refill, Work};
use pool::Buffer;
use route::{Packed, Path};
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::Arc;

/// The error class of the MPI behind's error code `code`.
fn class_of(code: c_int) -> c_int {
    let mut class = code;
    forward!(MPI_Error_class: fn(c_int, *mut c_int) -> c_int, code, &mut class);
    class
}

/// Whether a receive of the engine that the MPI behind completed with the code `code` has
/// bytes in its landing buffer to unpack, as many as its status counts (at most the
/// receive's size): a successful one, and a truncated one where that library writes the
/// bytes that fit ([`route::keeps_truncated_prefix`]).
pub fn delivered(code: c_int) -> bool {
    code == MPI_SUCCESS || route::keeps_truncated_prefix() && class_of(code) == MPI_ERR_TRUNCATE
}

/// A fresh status, for a call whose program passed `MPI_STATUS_IGNORE`.
pub fn empty_status() -> MPI_Status {
    // SAFETY: MPI_Status is plain integers.
    unsafe { std::mem::zeroed() }
}

/// The address of the program's buffer, `MPI_BOTTOM` included.
fn address_of(buffer: *const c_void) -> usize {
    buffer.expose_provenance()
}

/// The buffer, count and datatype to give the MPI behind: the packed bytes (as `MPI_BYTE`s, or
/// as the program's count of copies of the `stand_in` that types them), or the program's
/// buffer and count with the program's datatype or its `stand_in` of the MPI behind.
fn substitute<C: From<i32>>(
    packed: Option<(&Buffer, usize)>,
    stand_in: Option<MPI_Datatype>,
    buffer: *const c_void,
    count: C,
    datatype: MPI_Datatype,
) -> (*mut c_void, C, MPI_Datatype) {
    match (packed, stand_in) {
        (Some((pooled, _)), Some(stream_type)) => (pooled.as_mut_ptr().cast(), count, stream_type),
        // The byte count fits in an int: `route` keeps larger messages on the MPI's path.
        (Some((pooled, bytes)), None) => {
            (pooled.as_mut_ptr().cast(), C::from(bytes as i32), MPI_BYTE)
        }
        (None, _) => (buffer.cast_mut(), count, stand_in.unwrap_or(datatype)),
    }
}

/// The path of a message to or from `peer` (none for `MPI_PROC_NULL`).
#[inline]
fn path_to(
    peer: c_int,
    datatype: MPI_Datatype,
    count: i64,
    side: route::Side,
    uses: route::Uses,
) -> Path {
    match peer {
        MPI_PROC_NULL => Path::Mpi(None),
        _ => route::route(datatype, count, side, uses),
    }
}

/// The [`route::Uses`] of a point-to-point call, persistent or not.
fn point_to_point(persistent: bool) -> route::Uses {
    match persistent {
        true => route::Uses::Many,
        false => route::Uses::One,
    }
}

/// The send side of a message: on the engine's path, the packed bytes.
pub struct Outgoing {
    packed: Option<(Buffer, usize)>,
    /// On the MPI's path, the type of the MPI behind that stands in for the program's; on the
    /// engine's, the type the packed bytes go as, if not `MPI_BYTE`s (their stream type).
    stand_in: Option<MPI_Datatype>,
    /// The program's memory, for a persistent send that packs at each start.
    deferred: Option<Memory>,
}

impl Outgoing {
    /// Prepares sending `count` copies of `datatype` at `buffer` to `dest`, a point-to-point
    /// message; on the engine's path, packs them now (`defer`: a persistent send, which packs
    /// at each start instead).
    ///
    /// # Safety
    /// The type map relative to `buffer` is readable, as the send call requires.
    #[inline]
    pub unsafe fn new(
        buffer: *const c_void,
        count: i64,
        datatype: MPI_Datatype,
        dest: c_int,
        defer: bool,
    ) -> Outgoing {
        // SAFETY: the caller's contract.
        unsafe { Outgoing::on(buffer, count, datatype, dest, defer, point_to_point(defer)) }
    }

    /// [`Outgoing::new`] for the data a collective sends (`defer`: a persistent one).
    ///
    /// # Safety
    /// The type map relative to `buffer` is readable, as the collective requires.
    pub unsafe fn collective(
        buffer: *const c_void,
        count: i64,
        datatype: MPI_Datatype,
        defer: bool,
    ) -> Outgoing {
        // SAFETY: the caller's contract.
        unsafe { Outgoing::on(buffer, count, datatype, 0, defer, route::Uses::Many) }
    }

    /// Prepares the send, for `uses` messages.
    ///
    /// # Safety
    /// As for [`Outgoing::new`].
    #[inline]
    unsafe fn on(
        buffer: *const c_void,
        count: i64,
        datatype: MPI_Datatype,
        dest: c_int,
        defer: bool,
        uses: route::Uses,
    ) -> Outgoing {
        pending::progress_detached();
        // A predefined type's message is the MPI's, decided here, inline: it reaches the MPI
        // behind with nothing else done.
        if !route::may_pack(datatype) {
            return Outgoing::unchanged(None);
        }
        // SAFETY: the caller's contract.
        unsafe { Outgoing::routed(buffer, count, datatype, dest, defer, uses) }
    }

    /// A message the MPI behind sends, with `stand_in` for the program's type if any.
    #[inline]
    fn unchanged(stand_in: Option<MPI_Datatype>) -> Outgoing {
        Outgoing {
            packed: None,
            stand_in,
            deferred: None,
        }
    }

    /// [`Outgoing::new`] for a type that may take the engine's path.
    ///
    /// # Safety
    /// As for [`Outgoing::new`].
    #[inline(never)]
    unsafe fn routed(
        buffer: *const c_void,
        count: i64,
        datatype: MPI_Datatype,
        dest: c_int,
        defer: bool,
        uses: route::Uses,
    ) -> Outgoing {
        match path_to(dest, datatype, count, route::Side::Send, uses) {
            // SAFETY: the caller's contract.
            Path::Engine(packed) => unsafe { Outgoing::packed(buffer, count, packed, defer) },
            Path::Mpi(stand_in) => Outgoing::unchanged(stand_in),
        }
    }

    /// [`Outgoing::collective`] of `blocks` blocks for a collective every side of which goes
    /// as bytes ([`route::BlockSides::AllBytes`]), and the bytes of one block where they do: from
    /// the program's buffer as they are ([`route::AsBytes::InPlace`]), or packed (`None`
    /// where the engine could not take a buffer: the call then moves the program's type).
    ///
    /// # Safety
    /// As for [`Outgoing::collective`].
    pub unsafe fn collective_bytes(
        buffer: *const c_void,
        (count, datatype): (i64, MPI_Datatype),
        blocks: i64,
        defer: bool,
    ) -> (Outgoing, Option<i64>) {
        pending::progress_detached();
        match route::as_bytes(datatype, count, blocks) {
            route::AsBytes::InPlace(block) => (Outgoing::unchanged(None), Some(block)),
            route::AsBytes::Packed(packed, block) => {
                // SAFETY: the caller's contract.
                let outgoing = unsafe { Outgoing::packed(buffer, count, packed, defer) };
                let block = outgoing.packed.is_some().then_some(block);
                (outgoing, block)
            }
            route::AsBytes::Unchanged => (Outgoing::unchanged(None), None),
        }
    }

    /// The send of `count` copies at `buffer` on the engine's path, `route`: packed now, or
    /// at each start (`defer`).
    ///
    /// # Safety
    /// As for [`Outgoing::new`].
    // Inlined: `routed`, on every message of the engine's path, builds the route and hands it
    // on here without a call between.
    #[inline(always)]
    unsafe fn packed(buffer: *const c_void, count: i64, route: Packed, defer: bool) -> Outgoing {
        let Some(pooled) = Buffer::take(route.bytes) else {
            return Outgoing::unchanged(None);
        };
        let memory = Memory {
            address: address_of(buffer),
            datatype: route.datatype,
            count,
        };
        if defer {
            return Outgoing {
                packed: Some((pooled, route.bytes)),
                stand_in: route.stream_type,
                deferred: Some(memory),
            };
        }
        // SAFETY: the caller's contract; the buffer holds the packed bytes.
        unsafe { memory.pack_into(&pooled) };
        Outgoing {
            packed: Some((pooled, route.bytes)),
            stand_in: route.stream_type,
            deferred: None,
        }
    }

    /// Whether the engine packed this message and the MPI behind sends it as `MPI_BYTE`s
    /// (not as copies of its stream type): the count it is given is then a count of bytes.
    pub fn sends_bytes(&self) -> bool {
        self.packed.is_some() && self.stand_in.is_none()
    }

    /// The buffer, count and datatype the MPI behind sends.
    #[inline]
    pub fn args<C: From<i32>>(
        &self,
        buffer: *const c_void,
        count: C,
        datatype: MPI_Datatype,
    ) -> (*const c_void, C, MPI_Datatype) {
        let (b, c, t) = substitute(
            self.packed.as_ref().map(|(p, n)| (p, *n)),
            self.stand_in,
            buffer,
            count,
            datatype,
        );
        (b.cast_const(), c, t)
    }

    /// The buffer the engine packed into, if it did (kept until the call completes).
    pub fn into_buffer(self) -> Option<Buffer> {
        self.packed.map(|(pooled, _)| pooled)
    }

    /// The buffer the engine packs into, and for a message packed at each start (`defer`),
    /// the packing each start does.
    pub fn into_kept(self) -> (Option<Buffer>, Option<Refill>) {
        let Some((pooled, _)) = self.packed else {
            return (None, None);
        };
        let refill = self.deferred.map(|memory| Refill {
            memory,
            at: pooled.as_mut_ptr().expose_provenance(),
        });
        (Some(pooled), refill)
    }

    /// Keeps the packed bytes with `request` until it completes (a nonblocking or persistent
    /// send that the MPI behind accepted with `rc`).
    ///
    /// # Safety
    /// When `rc` is success, a non-NULL `request` holds the request the MPI behind made.
    #[inline]
    pub unsafe fn keep(self, rc: c_int, request: *const MPI_Request) {
        if self.packed.is_some() {
            // SAFETY: the caller's contract.
            unsafe { self.keep_packed(rc, request) }
        }
    }

    /// [`Outgoing::keep`] of a message the engine packed.
    ///
    /// # Safety
    /// As for [`Outgoing::keep`].
    #[inline(never)]
    unsafe fn keep_packed(self, rc: c_int, request: *const MPI_Request) {
        let Some((pooled, _)) = self.packed else {
            return;
        };
        if rc != MPI_SUCCESS || request.is_null() {
            return;
        }
        // SAFETY: the caller's contract.
        let request = unsafe { request.read() };
        let entry = match self.deferred {
            Some(memory) => Pending::persistent(pooled, Work::PersistentSend(memory)),
            None => Pending::started(pooled, Work::Send),
        };
        pending::insert(request, entry);
    }
}

/// The receive side of a message: on the engine's path, the buffer bytes arrive in and the
/// program's memory they are unpacked into.
pub struct Incoming {
    landing: Option<(Buffer, usize, Memory)>,
    /// On the MPI's path, the type of the MPI behind that stands in for the program's.
    stand_in: Option<MPI_Datatype>,
    /// On the engine's path over an MPI that writes past a short receive buffer, the type
    /// with a hole the bytes land through ([`holed`]), held until the MPI behind has the
    /// receive.
    holed: Option<Arc<Held>>,
    /// Where a header of a message through a ring may arrive: what the receive looks at
    /// when it completes ([`node_local`]).
    watch: Option<node_local::Watch>,
    /// For a matched message that stands for a probed one, the probed one's envelope, which
    /// the status reports ([`node_local::held`]).
    envelope: Option<node_local::held::Envelope>,
}

impl Incoming {
    /// Prepares receiving `count` copies of `datatype` at `buffer` from `source`, a
    /// point-to-point message (of a persistent receive: `persistent`).
    #[inline]
    pub fn new(
        buffer: *mut c_void,
        count: i64,
        datatype: MPI_Datatype,
        source: c_int,
        persistent: bool,
    ) -> Incoming {
        let uses = point_to_point(persistent);
        Incoming::on(
            route::Side::Receive,
            buffer,
            count,
            datatype,
            source,
            true,
            uses,
        )
    }

    /// [`Incoming::new`] for a receive into the buffer the same call sends from
    /// (`MPI_Sendrecv_replace`, [`route::Side::ReceiveInPlace`]).
    pub fn in_place(
        buffer: *mut c_void,
        count: i64,
        datatype: MPI_Datatype,
        source: c_int,
    ) -> Incoming {
        Incoming::on(
            route::Side::ReceiveInPlace,
            buffer,
            count,
            datatype,
            source,
            true,
            route::Uses::One,
        )
    }

    /// [`Incoming::new`] for the blocks a collective delivers (whole: a collective's
    /// messages cannot be truncated), in place (`MPI_IN_PLACE`) or not.
    pub fn collective(
        buffer: *mut c_void,
        count: i64,
        datatype: MPI_Datatype,
        in_place: bool,
    ) -> Incoming {
        let side = match in_place {
            true => route::Side::ReceiveInPlace,
            false => route::Side::Receive,
        };
        Incoming::on(side, buffer, count, datatype, 0, false, route::Uses::Many)
    }

    /// Prepares the receive on `side`, for `uses` messages; a point-to-point one
    /// (`truncatable`) lands through a type with a hole where the MPI behind would write past
    /// a short landing buffer.
    #[inline]
    fn on(
        side: route::Side,
        buffer: *mut c_void,
        count: i64,
        datatype: MPI_Datatype,
        source: c_int,
        truncatable: bool,
        uses: route::Uses,
    ) -> Incoming {
        pending::progress_detached();
        // As for [`Outgoing::new`]: a predefined type's message is the MPI's, decided inline.
        if !route::may_pack(datatype) {
            return Incoming::unchanged(None);
        }
        Incoming::routed(side, buffer, count, datatype, source, truncatable, uses)
    }

    /// A receive the MPI behind makes into the program's memory with the program's type as
    /// it is (one it was handed whole: `MPI_Isendrecv`), to watch.
    pub fn unpacked() -> Incoming {
        Incoming::unchanged(None)
    }

    /// A message the MPI behind receives, with `stand_in` for the program's type if any.
    #[inline]
    fn unchanged(stand_in: Option<MPI_Datatype>) -> Incoming {
        Incoming {
            landing: None,
            stand_in,
            holed: None,
            watch: None,
            envelope: None,
        }
    }

    /// [`Incoming::on`] for a type that may take the engine's path.
    #[inline(never)]
    fn routed(
        side: route::Side,
        buffer: *mut c_void,
        count: i64,
        datatype: MPI_Datatype,
        source: c_int,
        truncatable: bool,
        uses: route::Uses,
    ) -> Incoming {
        match path_to(source, datatype, count, side, uses) {
            Path::Engine(packed) => Incoming::landing(buffer, count, packed, truncatable),
            Path::Mpi(stand_in) => Incoming::unchanged(stand_in),
        }
    }

    /// [`Incoming::collective`] of `blocks` blocks for a collective every side of which goes
    /// as bytes ([`route::BlockSides::AllBytes`]), and the bytes of one block where they do: into
    /// the program's buffer as they are ([`route::AsBytes::InPlace`]), or into a landing
    /// buffer (`None` where the engine could not take one: the call then moves the program's
    /// type).
    pub fn collective_bytes(
        buffer: *mut c_void,
        (count, datatype): (i64, MPI_Datatype),
        blocks: i64,
    ) -> (Incoming, Option<i64>) {
        pending::progress_detached();
        match route::as_bytes(datatype, count, blocks) {
            route::AsBytes::InPlace(block) => (Incoming::unchanged(None), Some(block)),
            route::AsBytes::Packed(packed, block) => {
                let incoming = Incoming::landing(buffer, count, packed, false);
                let block = incoming.landing.is_some().then_some(block);
                (incoming, block)
            }
            route::AsBytes::Unchanged => (Incoming::unchanged(None), None),
        }
    }

    /// The receive of `count` copies at `buffer` on the engine's path, `route`: into a
    /// landing buffer (`truncatable`: through a type with a hole where the MPI behind would
    /// write past a short one).
    // Inlined, as `Outgoing::packed` is.
    #[inline(always)]
    fn landing(buffer: *mut c_void, count: i64, route: Packed, truncatable: bool) -> Incoming {
        let unchanged = Incoming::unchanged;
        let (holed, pooled) = match truncatable && route::overruns_short_receives() {
            true => match holed::holed_bytes(route.bytes) {
                Some(holed) => (Some(holed), Buffer::take_holed(route.bytes)),
                None => return unchanged(None),
            },
            false => (None, Buffer::take(route.bytes)),
        };
        let landing = pooled.map(|pooled| {
            let memory = Memory {
                address: address_of(buffer),
                datatype: route.datatype,
                count,
            };
            (pooled, route.bytes, memory)
        });
        Incoming {
            landing,
            stand_in: None,
            holed,
            watch: None,
            envelope: None,
        }
    }

    /// The same receive of the program's `message` from `source` on `comm` (a
    /// point-to-point one), looking at what it gets where messages go through rings
    /// ([`node_local::watch`]).
    #[inline]
    pub fn watched(
        mut self,
        message: (*mut c_void, i64, MPI_Datatype),
        source: c_int,
        comm: crate::abi::MPI_Comm,
    ) -> Incoming {
        if node_local::enabled() {
            self.watch = node_local::watch(message, source, comm);
        }
        self
    }

    /// The same receive of a matched message, reporting `envelope` in its status: the
    /// probed message's that the matched one stands for ([`node_local::held::take_minted`]).
    pub fn reporting(mut self, envelope: Option<node_local::held::Envelope>) -> Incoming {
        self.envelope = envelope;
        self
    }

    /// Whether the engine takes this message.
    pub fn packs(&self) -> bool {
        self.landing.is_some()
    }

    /// The buffer, count and datatype the MPI behind receives into.
    #[inline]
    pub fn args<C: From<i32>>(
        &self,
        buffer: *mut c_void,
        count: C,
        datatype: MPI_Datatype,
    ) -> (*mut c_void, C, MPI_Datatype) {
        if let (Some((pooled, _, _)), Some(holed)) = (&self.landing, &self.holed) {
            return (pooled.as_mut_ptr().cast(), C::from(1), holed.handle());
        }
        substitute(
            self.landing.as_ref().map(|(p, n, _)| (p, *n)),
            self.stand_in,
            buffer,
            count,
            datatype,
        )
    }

    /// The status to give the MPI behind: the program's, or `local` where the program passed
    /// `MPI_STATUS_IGNORE` and the engine needs the byte count.
    #[inline]
    pub fn status(&self, program: *mut MPI_Status, local: &mut MPI_Status) -> *mut MPI_Status {
        let counted = self.landing.is_some() || self.watch.is_some();
        match counted && program == MPI_STATUSES_IGNORE {
            true => local,
            false => program,
        }
    }

    /// Completes a blocking receive that returned `rc` with `status` (from
    /// [`Incoming::status`]): takes a message through a ring whose header arrived, or
    /// unpacks the bytes received. Returns the message that did not fit, if one did not.
    ///
    /// It borrows the receive, which its owner drops where it made it (a receive moved
    /// right after it was made is copied whole, which waits for its fields' writes).
    ///
    /// # Safety
    /// The type map relative to the program's buffer is writable; `status` is the one the MPI
    /// behind wrote.
    #[inline]
    pub unsafe fn finish(
        &mut self,
        rc: c_int,
        status: *mut MPI_Status,
    ) -> Option<node_local::Overflow> {
        if let Some(envelope) = self.envelope {
            if !status.is_null() && status != MPI_STATUSES_IGNORE {
                // SAFETY: the status the MPI behind wrote.
                unsafe {
                    (*status).MPI_SOURCE = envelope.source;
                    (*status).MPI_TAG = envelope.tag;
                }
            }
        }
        if self.watch.is_some() {
            // SAFETY: the caller's contract.
            let through_ring = unsafe { self.take_through_ring(rc, status) };
            if through_ring.is_some() {
                self.landing = None;
                return through_ring.and_then(|delivered| delivered.overflow);
            }
        }
        if self.landing.is_some() {
            // SAFETY: the caller's contract.
            unsafe { self.unpack(rc, status) }
        }
        None
    }

    /// [`Incoming::finish`] of a receive that looks at what it got.
    ///
    /// # Safety
    /// As for [`Incoming::finish`].
    #[inline(never)]
    unsafe fn take_through_ring(
        &self,
        rc: c_int,
        status: *mut MPI_Status,
    ) -> Option<node_local::Delivered> {
        let watch = self.watch.as_ref()?;
        let truncated = rc != MPI_SUCCESS && class_of(rc) == MPI_ERR_TRUNCATE;
        if !(delivered(rc) || truncated) || status.is_null() {
            return None;
        }
        let landed = self.landing.as_ref().map(|(pooled, _, _)| pooled);
        // SAFETY: the caller's contract; the status is the one the MPI behind wrote.
        unsafe { node_local::deliver(watch, landed, &mut *status, truncated) }
    }

    /// [`Incoming::finish`] of a receive the engine takes.
    ///
    /// # Safety
    /// As for [`Incoming::finish`].
    #[inline(never)]
    unsafe fn unpack(&mut self, rc: c_int, status: *const MPI_Status) {
        let Some((pooled, _, memory)) = self.landing.take() else {
            return;
        };
        if !delivered(rc) {
            return;
        }
        // SAFETY: the status the MPI behind wrote for this receive.
        let received = unsafe { (*status).count_bytes() }.max(0) as usize;
        // SAFETY: the caller's contract.
        unsafe { memory.unpack_from(&pooled, received) };
    }

    /// The copies this receive takes (0 where it is not the engine's).
    pub fn copies(&self) -> i64 {
        self.landing
            .as_ref()
            .map_or(0, |(_, _, memory)| memory.count)
    }

    /// The packing of `count` of the program's copies from copy `first` on into the landing
    /// buffer, where their bytes go (copies nothing arrives in are then unpacked as they
    /// were), to do now or at each start.
    pub fn program_copies(&self, first: i64, count: i64) -> Option<Refill> {
        let (pooled, _, memory) = self.landing.as_ref()?;
        let offset = (first * memory.datatype.size()) as usize;
        Some(Refill {
            memory: memory.copies(first, count),
            at: pooled.as_mut_ptr().expose_provenance() + offset,
        })
    }

    /// The packing of the program's data into the landing buffer (a collective with
    /// `MPI_IN_PLACE`, whose data to send are in the receive buffer and which exchanges them
    /// in place), to do now or at each start.
    pub fn program_data(&self) -> Option<Refill> {
        let copies = self.copies();
        self.program_copies(0, copies)
    }

    /// The landing buffer and the program's memory its bytes go to, if the message lands as
    /// bytes (a collective, which delivers it whole).
    pub fn into_landing(self) -> Option<collective::Landing> {
        self.landing
            .map(|(pooled, _, memory)| (pooled, vec![(memory, 0)]))
    }

    /// Keeps the landing buffer and the work of unpacking with `request` (a nonblocking or
    /// persistent receive that the MPI behind accepted with `rc`).
    ///
    /// # Safety
    /// When `rc` is success, a non-NULL `request` holds the request the MPI behind made.
    #[inline]
    pub unsafe fn keep(self, rc: c_int, request: *const MPI_Request, persistent: bool) {
        if rc != MPI_SUCCESS || request.is_null() {
            return;
        }
        let (watch, envelope) = (self.watch, self.envelope);
        let entry = match self.landing {
            Some((pooled, _, memory)) => match persistent {
                true => Pending::persistent(pooled, Work::Receive(memory)),
                false => Pending::started(pooled, Work::Receive(memory)),
            },
            None if watch.is_some() || envelope.is_some() => Pending::watched(persistent),
            None => return,
        };
        let entry = entry.watching(watch, envelope);
        // SAFETY: the caller's contract.
        let request = unsafe { request.read() };
        pending::insert(request, entry);
    }
}

/// A completion call (`MPI_Wait*`, `MPI_Test*`, `MPI_Request_get_status`) on requests among
/// which some are the engine's: their entries, taken out of the table for the call.
pub struct Completion {
    requests: Vec<MPI_Request>,
    taken: Vec<Option<Pending>>,
    local: Vec<MPI_Status>,
}

/// Which operations a completion call completed: pairs of (index in the request array, index
/// in the status array).
pub enum Completed<'a> {
    /// None.
    None,
    /// Every request, each with the status of the same index.
    All,
    /// The listed ones.
    Some(&'a [(usize, usize)]),
}

impl Completion {
    /// Takes the entries of the `count` requests at `requests` (the values before the call);
    /// `None` when none of them is the engine's (the call then goes to the MPI behind
    /// untouched).
    ///
    /// # Safety
    /// `requests` holds `count` requests (or is NULL or `count` is not positive).
    #[inline]
    pub unsafe fn new(requests: *const MPI_Request, count: c_int) -> Option<Completion> {
        pending::progress_detached();
        if !pending::any() || requests.is_null() || count <= 0 {
            return None;
        }
        // SAFETY: the caller's contract.
        unsafe { Completion::taken(requests, count) }
    }

    /// [`Completion::new`] once some request of the engine's path exists.
    ///
    /// # Safety
    /// As for [`Completion::new`], with `requests` not NULL and `count` positive.
    #[inline(never)]
    unsafe fn taken(requests: *const MPI_Request, count: c_int) -> Option<Completion> {
        // SAFETY: the caller's contract.
        let requests = unsafe { std::slice::from_raw_parts(requests, count as usize) }.to_vec();
        let taken = pending::take(&requests);
        if taken.iter().all(Option::is_none) {
            return None;
        }
        Some(Completion {
            requests,
            taken,
            local: Vec::new(),
        })
    }

    /// The status array to give the MPI behind: the program's, or one of this call's own
    /// where the program passed `MPI_STATUS(ES)_IGNORE` (the engine needs the byte counts).
    pub fn statuses(&mut self, program: *mut MPI_Status) -> *mut MPI_Status {
        if program != MPI_STATUSES_IGNORE {
            return program;
        }
        self.local = vec![empty_status(); self.requests.len()];
        self.local.as_mut_ptr()
    }

    /// Finishes the operations the call completed (`rc` its answer, `statuses` the array from
    /// [`Completion::statuses`]): takes the messages through rings whose headers arrived
    /// ([`node_local`]), unpacks received bytes, gives back buffers, and puts back
    /// the entries that stay (persistent requests, the others that did not complete, and
    /// with `keep` every entry: `MPI_Request_get_status` leaves the request to the program).
    /// `per_status` says the call reports errors per status (`MPI_ERR_IN_STATUS`). Returns the
    /// messages through rings that did not fit, with the index of their status.
    ///
    /// # Safety
    /// The program's memory of each completed receive is writable; `statuses` holds what the
    /// call wrote at the listed indices.
    pub unsafe fn finish(
        mut self,
        rc: c_int,
        statuses: *mut MPI_Status,
        completed: Completed,
        per_status: bool,
        keep: bool,
    ) -> Vec<(usize, node_local::Overflow)> {
        let mut overflows = Vec::new();
        let all: Vec<(usize, usize)>;
        let pairs: &[(usize, usize)] = match completed {
            Completed::None => &[],
            Completed::All => {
                all = (0..self.requests.len()).map(|i| (i, i)).collect();
                &all
            }
            Completed::Some(pairs) => pairs,
        };
        for &(index, status_index) in pairs {
            let Some(entry) = self.taken.get_mut(index).and_then(Option::take) else {
                continue;
            };
            // SAFETY: the call wrote this status.
            let status = unsafe { &mut *statuses.add(status_index) };
            let code = match per_status && rc != MPI_SUCCESS {
                true => status.MPI_ERROR,
                false => rc,
            };
            if per_status && code != MPI_SUCCESS && class_of(code) == MPI_ERR_PENDING {
                pending::insert(self.requests[index], entry); // not completed
                continue;
            }
            let truncated = code != MPI_SUCCESS && class_of(code) == MPI_ERR_TRUNCATE;
            let how = (delivered(code), truncated);
            // SAFETY: the caller's contract.
            let (stays, overflow) = unsafe { entry.complete(status, how, keep) };
            if let Some(stays) = stays {
                pending::insert(self.requests[index], stays);
            }
            if let Some(overflow) = overflow {
                overflows.push((status_index, overflow));
            }
        }
        for (index, entry) in self.taken.into_iter().enumerate() {
            if let Some(entry) = entry {
                pending::insert(self.requests[index], entry);
            }
        }
        if per_status && rc == MPI_SUCCESS && !overflows.is_empty() {
            // The call now fails in some statuses: every other one it completed says success.
            for &(_, status_index) in pairs {
                // SAFETY: the call wrote this status.
                unsafe { (*statuses.add(status_index)).MPI_ERROR = MPI_SUCCESS };
            }
        }
        overflows
    }
}

/// The program's `count` copies of `datatype` at `buffer` packed into a new vector, where the
/// engine packs that type (not one the MPI behind made itself and the program never
/// committed).
///
/// # Safety
/// The type map relative to `buffer` is readable.
pub unsafe fn packed_copy(
    buffer: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
) -> Option<Vec<u8>> {
    let datatype = route::packable(datatype)?;
    let bytes = usize::try_from(datatype.size().checked_mul(count)?).ok()?;
    let mut packed = vec![0u8; bytes];
    let memory = Memory {
        address: address_of(buffer),
        datatype,
        count,
    };
    // SAFETY: the caller's contract; the vector holds the packed bytes.
    unsafe { memory.pack_to(packed.as_mut_ptr()) };
    Some(packed)
}

/// Has the completion of the send `request` (started with answer `rc`) report `received`, the
/// status of a receive made when the call started (an `MPI_Isendrecv` of a message a probe
/// held), and keep `bytes` (the data it sends) until then.
///
/// # Safety
/// When `rc` is success, `request` holds the request the send made.
pub unsafe fn report_received(
    rc: c_int,
    request: *const MPI_Request,
    received: MPI_Status,
    bytes: Option<Vec<u8>>,
) {
    if rc != MPI_SUCCESS || request.is_null() {
        return;
    }
    // SAFETY: the caller's contract.
    let request = unsafe { request.read() };
    let entry = pending::take(&[request]).pop().flatten();
    let entry = entry.unwrap_or_else(|| Pending::watched(false));
    pending::insert(request, entry.received_early(received, bytes));
}

/// Sends the program's `message` on `envelope` through this process's ring where it may go
/// so ([`node_local::send`]; with `request`, a nonblocking send, whose header's buffer is
/// kept with the request): the call's answer, or `None` where the message goes as before.
///
/// # Safety
/// As for [`node_local::send`].
#[inline]
pub unsafe fn send_node_local(
    function: &'static str,
    message: (*const c_void, i64, MPI_Datatype),
    envelope: (c_int, c_int, crate::abi::MPI_Comm),
    request: Option<*mut MPI_Request>,
) -> Option<c_int> {
    // SAFETY: the caller's contract.
    let sent = unsafe { node_local::send(function, message, envelope, request) }?;
    if let (Some(request), Some(header)) = (request, sent.header) {
        // SAFETY: the MPI behind wrote the request it made when it succeeded.
        let request = unsafe { request.read() };
        pending::insert(request, Pending::started(header, Work::Send));
    }
    Some(sent.rc)
}

/// `MPI_Request_free` of a request of the engine's path: a request whose operation still
/// runs is detached (kept with its buffer until the operation completes); an inactive one
/// is freed. Returns `Some(MPI_SUCCESS)` when the request is dealt with here (the program's
/// handle is set to `MPI_REQUEST_NULL`), `None` when the MPI behind must free it.
///
/// # Safety
/// `request` is valid for a read and a write.
pub unsafe fn free_request(request: *mut MPI_Request) -> Option<c_int> {
    if !pending::any() || request.is_null() {
        return None;
    }
    // SAFETY: the caller's contract.
    let value = unsafe { request.read() };
    let entry = pending::take(&[value]).pop().flatten()?;
    if !entry.active {
        return None; // dropped here; the MPI behind frees its request
    }
    pending::detach(value, entry);
    // SAFETY: the caller's contract.
    unsafe { request.write(crate::abi::p2p::MPI_REQUEST_NULL) };
    Some(MPI_SUCCESS)
}

/// Packs the data of the persistent sends among `requests` before they start.
///
/// # Safety
/// `requests` holds `count` requests; the memory of each persistent send is readable.
pub unsafe fn before_start(requests: *const MPI_Request, count: c_int) {
    pending::progress_detached();
    if !pending::any() || requests.is_null() || count <= 0 {
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { pending::start(std::slice::from_raw_parts(requests, count as usize)) };
}

/// Before `MPI_Finalize`: waits for the requests the program freed while they were active;
/// then, with `MPI_DTYPE_DEBUG=1` and an MPI
/// library behind, says on stderr how many requests of the engine's path and pooled buffers
/// are left (both 0 when the program completed or freed every request):
///
/// ```text
/// mpi-dtype: at MPI_Finalize, 0 engine requests pending, 0 pooled buffers lent
/// ```
pub fn before_finalize() {
    pending::drain_detached();
    if crate::behind::debug() && crate::behind::backend().is_some() {
        crate::diagnostic::line(format_args!(
            "mpi-dtype: at MPI_Finalize, {} engine requests pending, {} pooled buffers lent",
            pending::outstanding(),
            pool::lent()
        ));
    }
}
