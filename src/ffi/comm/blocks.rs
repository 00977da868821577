//! The collectives that move one block per process, and their `_c` forms: `MPI_Alltoall` (a
//! block to each process, `n` sent), `MPI_Allgather` (the same block to each, one sent),
//! `MPI_Gather` (every process sends a block, the root receives `n`) and `MPI_Scatter` (the
//! root sends `n` blocks, every process receives one). `n` is the number of processes a
//! process exchanges with: the communicator's, or the remote group's over an
//! intercommunicator. Each side takes its path as one message of all its blocks would
//! ([`crate::dropin::comm::blocks`]): on the engine's, the blocks are packed into one buffer
//! and the MPI behind moves `MPI_BYTE`s, or receives bytes that are unpacked. The type
//! signatures of the blocks match pairwise, so every pair moves the same bytes whichever path
//! each side takes. The arguments only the root reads are not looked at elsewhere.
//!
//! With `MPI_IN_PLACE` as the send buffer (every process of an alltoall or allgather, the
//! root of a gather), the data sent are the receive buffer's, of the receive type: packed
//! first into the buffer the MPI behind receives into, where it finds them. At the root of a
//! scatter (`MPI_IN_PLACE` as the receive buffer) nothing is received.

use super::int_forms::or_int_form;
use super::one_process::{copy_block, Side};
use super::persistent_alone::persistent_in_one_process;
use super::serial::at_once;
use super::varying_engine::{exchanging, is_in_place, kept_sent, Single};
use super::{missing_behind, standalone};
use crate::abi::p2p::{MPI_PROC_NULL, MPI_ROOT};
use crate::abi::{MPI_Comm, MPI_Count, MPI_Datatype, MPI_Info, MPI_Request};
use crate::behind::forward;
use crate::dropin::comm::blocks::{root_and_partners, Exchange, ReceivedBlocks, SentBlocks};
use crate::dropin::comm::collective::{After, Collective, Refill};
use crate::dropin::comm::route::{self, BlockSides};
use crate::ffi::export;
use std::ffi::c_void;
use std::os::raw::c_int;

/// The C type of the counts: `int`, or `MPI_Count` in the `_c` forms.
pub(super) trait BlockCount: Copy + Into<i64> + From<i32> {}
impl BlockCount for c_int {}
impl BlockCount for MPI_Count {}

/// The arguments every collective here takes (a rooted one takes `root` besides).
#[derive(Clone, Copy)]
struct Blocks<C> {
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
}

impl<C: BlockCount> Blocks<C> {
    /// In the one-process world of a library with no MPI behind it, the answer of the call
    /// `function` ([`copy_block`]); `None` when there is an MPI behind.
    ///
    /// # Safety
    /// As for the MPI function.
    unsafe fn standalone(&self, function: &'static str, root: Option<c_int>) -> Option<c_int> {
        if crate::behind::backend().is_some() {
            return None;
        }
        let sent = Side {
            buffer: self.sendbuf,
            count: self.sendcount.into(),
            datatype: self.sendtype,
        };
        let received = Side {
            buffer: self.recvbuf,
            count: self.recvcount.into(),
            datatype: self.recvtype,
        };
        // SAFETY: the caller's contract.
        Some(unsafe { copy_block(function, sent, received, self.comm, root) })
    }

    /// These arguments with the sides the MPI behind takes (`sent` and `received`, where the
    /// engine has them).
    fn with_sides(self, sent: Option<&SentBlocks>, received: Option<&ReceivedBlocks>) -> Blocks<C> {
        let (sendbuf, sendcount, sendtype) = match sent {
            Some(sent) => sent.args(self.sendbuf, self.sendcount, self.sendtype),
            None => (self.sendbuf, self.sendcount, self.sendtype),
        };
        let (recvbuf, recvcount, recvtype) = match received {
            Some(received) => received.args(self.recvbuf, self.recvcount, self.recvtype),
            None => (self.recvbuf, self.recvcount, self.recvtype),
        };
        Blocks {
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            recvcount,
            recvtype,
            ..self
        }
    }
}

/// Runs `call` with `args` after the packing `refills` (the program's data put where the MPI
/// behind finds them: now, or at each start of a persistent collective), and finishes the
/// sides `sent` and `received` ([`After`]: unpacks what arrived, now or when the request
/// completes).
///
/// # Safety
/// The program's data are readable and the receive buffer takes the blocks, as the MPI
/// function requires.
unsafe fn completed<C>(
    args: Blocks<C>,
    (sent, received): (Option<SentBlocks>, Option<ReceivedBlocks>),
    mut refills: Vec<Refill>,
    call: impl Fn(Blocks<C>) -> c_int,
    after: After,
) -> c_int {
    let mut kept = Collective::default();
    kept.sent(kept_sent(sent, &mut refills));
    kept.lands(received.and_then(ReceivedBlocks::into_landing));
    // SAFETY: the caller's contract.
    unsafe { kept.run(refills, || call(args), after) }
}

/// `MPI_Alltoall` or `MPI_Allgather`, or their neighbourhood forms (`with`: whom the blocks
/// go to and come from; `same`: a process sends one block, the same to every partner).
///
/// # Safety
/// As for the MPI function.
unsafe fn exchange<C: BlockCount>(
    function: &'static str,
    args: Blocks<C>,
    (same, with): (bool, Exchange),
    call: impl Fn(Blocks<C>) -> c_int,
    after: After,
) -> c_int {
    // SAFETY: the caller's contract.
    if let Some(rc) = unsafe { args.standalone(function, None) } {
        return rc;
    }
    let in_place = is_in_place(args.sendbuf);
    let packable = route::may_pack(args.recvtype) || (!in_place && route::may_pack(args.sendtype));
    let sides = route::block_sides(same, args.comm, packable);
    let valid = args.recvcount.into() >= 0 && (in_place || args.sendcount.into() >= 0);
    let packs = sides != BlockSides::Unchanged && valid;
    let Some(partners) = exchanging(with, args.comm, packs, in_place) else {
        return call(args);
    };
    let all_bytes = sides == BlockSides::AllBytes;
    let sends_bytes = route::sends_bytes(sides, !same && with == Exchange::Everyone);
    let received = (args.recvcount.into(), args.recvtype);
    let incoming = partners.incoming as i64;
    let received = ReceivedBlocks::new(args.recvbuf, received, incoming, in_place, all_bytes);
    // The receive buffer's blocks nothing arrives in are readable as they are writable; with
    // MPI_IN_PLACE it holds the data sent.
    let mut refills: Vec<Refill> = partners
        .from_nobody()
        .filter_map(|index| received.program_block(index))
        .collect();
    let sent = match in_place {
        true => {
            refills.extend(received.program_data());
            None
        }
        // SAFETY: the send buffer holds the data, as the function requires.
        false => Some(unsafe {
            SentBlocks::new(
                args.sendbuf,
                (args.sendcount.into(), args.sendtype),
                if same { 1 } else { partners.outgoing as i64 },
                after.persistent(),
                sends_bytes,
            )
        }),
    };
    let args = args.with_sides(sent.as_ref(), Some(&received));
    // SAFETY: the buffers hold the data sent and take the blocks, as the function requires.
    unsafe { completed(args, (sent, Some(received)), refills, call, after) }
}

/// `MPI_Neighbor_alltoall` or (`same`: one block for every neighbour)
/// `MPI_Neighbor_allgather` in drop-in mode: [`exchange`] with the neighbours of the
/// communicator's topology.
///
/// # Safety
/// As for the MPI function.
pub(super) unsafe fn neighbor_exchange<C: BlockCount>(
    send: Single<C>,
    recv: Single<C>,
    (function, same, comm): (&'static str, bool, MPI_Comm),
    call: impl Fn(Single<C>, Single<C>) -> c_int,
    after: After,
) -> c_int {
    let args = Blocks {
        sendbuf: send.buffer,
        sendcount: send.count,
        sendtype: send.datatype,
        recvbuf: recv.buffer.cast_mut(),
        recvcount: recv.count,
        recvtype: recv.datatype,
        comm,
    };
    let call = |a: Blocks<C>| {
        let send = Single {
            buffer: a.sendbuf,
            count: a.sendcount,
            datatype: a.sendtype,
        };
        let recv = Single {
            buffer: a.recvbuf.cast_const(),
            count: a.recvcount,
            datatype: a.recvtype,
        };
        call(send, recv)
    };
    // SAFETY: the caller's contract.
    unsafe { exchange(function, args, (same, Exchange::Neighbours), call, after) }
}

/// `MPI_Alltoall`: a block to each partner.
///
/// # Safety
/// As for the MPI function.
unsafe fn alltoall<C: BlockCount>(
    function: &'static str,
    args: Blocks<C>,
    call: impl Fn(Blocks<C>) -> c_int,
    after: After,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { exchange(function, args, (false, Exchange::Everyone), call, after) }
}

/// `MPI_Allgather`: the same block to each partner.
///
/// # Safety
/// As for the MPI function.
unsafe fn allgather<C: BlockCount>(
    function: &'static str,
    args: Blocks<C>,
    call: impl Fn(Blocks<C>) -> c_int,
    after: After,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { exchange(function, args, (true, Exchange::Everyone), call, after) }
}

/// Which side of a rooted collective this process is, its number of partners and whether
/// every side goes as bytes ([`route::BlockSides::AllBytes`]), or `None` where the call goes to
/// the MPI behind unchanged (nothing to pack; `MPI_PROC_NULL`, a process of the root group of
/// an intercommunicator other than the root; `MPI_IN_PLACE` at a process other than the root,
/// which that library reports; a negative count this process's side reads, which it
/// reports too).
fn rooted_side<C: BlockCount>(
    way: Rooted,
    args: &Blocks<C>,
    root: c_int,
    in_place: bool,
) -> Option<(bool, i64, bool)> {
    if root == MPI_PROC_NULL {
        return None;
    }
    let packable = route::may_pack(args.sendtype) || route::may_pack(args.recvtype);
    let sides = route::block_sides(false, args.comm, packable);
    if sides == BlockSides::Unchanged {
        return None;
    }
    let (is_root, partners) = root_and_partners(root, args.comm)?;
    // The counts this side reads: the root's block side (but where it stays in place or the
    // root is an intercommunicator's), and the side of its `n` blocks.
    let (blocks, one) = match way {
        Rooted::Gather => (args.recvcount.into(), args.sendcount.into()),
        Rooted::Scatter => (args.sendcount.into(), args.recvcount.into()),
    };
    let reads_one = !is_root || (root != MPI_ROOT && !in_place);
    let valid = (!is_root || blocks >= 0) && (!reads_one || one >= 0);
    let all_bytes = sides == BlockSides::AllBytes;
    (valid && (is_root || !in_place)).then_some((is_root, partners, all_bytes))
}

/// The start of a rooted collective: this process's side ([`rooted_side`]), or the call's
/// answer where it ends there (in the one-process world, or handed to the MPI behind
/// unchanged).
///
/// # Safety
/// As for the MPI function.
unsafe fn rooted<C: BlockCount>(
    (way, function): (Rooted, &'static str),
    args: &Blocks<C>,
    root: c_int,
    in_place: bool,
    call: &impl Fn(Blocks<C>) -> c_int,
) -> Result<(bool, i64, bool), c_int> {
    // SAFETY: the caller's contract.
    if let Some(rc) = unsafe { args.standalone(function, Some(root)) } {
        return Err(rc);
    }
    rooted_side(way, args, root, in_place).ok_or_else(|| call(*args))
}

/// Which way the blocks of a rooted collective go.
#[derive(Clone, Copy, PartialEq)]
enum Rooted {
    /// `MPI_Gather`: every process sends a block (but the root of an intercommunicator, and
    /// a root whose block is in place), the root receives `n`.
    Gather,
    /// `MPI_Scatter`: the root sends `n` blocks, every process receives one (but the root of
    /// an intercommunicator, and a root whose block stays in place).
    Scatter,
}

/// `MPI_Gather`.
///
/// # Safety
/// As for the MPI function.
unsafe fn gather<C: BlockCount>(
    function: &'static str,
    args: Blocks<C>,
    root: c_int,
    call: impl Fn(Blocks<C>) -> c_int,
    after: After,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { rooted_collective(Rooted::Gather, function, args, root, call, after) }
}

/// `MPI_Scatter`.
///
/// # Safety
/// As for the MPI function.
unsafe fn scatter<C: BlockCount>(
    function: &'static str,
    args: Blocks<C>,
    root: c_int,
    call: impl Fn(Blocks<C>) -> c_int,
    after: After,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { rooted_collective(Rooted::Scatter, function, args, root, call, after) }
}

/// A collective with a root, `MPI_Gather` or `MPI_Scatter` (`way`).
///
/// # Safety
/// As for the MPI function.
unsafe fn rooted_collective<C: BlockCount>(
    way: Rooted,
    function: &'static str,
    args: Blocks<C>,
    root: c_int,
    call: impl Fn(Blocks<C>) -> c_int,
    after: After,
) -> c_int {
    let in_place = match way {
        Rooted::Gather => is_in_place(args.sendbuf),
        Rooted::Scatter => is_in_place(args.recvbuf),
    };
    // SAFETY: the caller's contract.
    let side = unsafe { rooted((way, function), &args, root, in_place, &call) };
    let (is_root, n, all_bytes) = match side {
        Ok(side) => side,
        Err(rc) => return rc,
    };
    let (sendcount, recvcount) = (args.sendcount.into(), args.recvcount.into());
    let defer = after.persistent();
    let mut refills = Vec::new();
    let (sent, received) = match way {
        Rooted::Gather => {
            let received = (recvcount, args.recvtype);
            let received = is_root
                .then(|| ReceivedBlocks::new(args.recvbuf, received, n, in_place, all_bytes));
            let sent = match (root == MPI_ROOT, in_place, &received) {
                (true, _, _) => None,
                (_, true, received) => {
                    // The root's block is in the receive buffer, as the function requires
                    // with MPI_IN_PLACE.
                    refills.extend(received.as_ref().and_then(ReceivedBlocks::program_data));
                    None
                }
                // SAFETY: the send buffer holds the block, as the function requires.
                _ => Some(unsafe {
                    SentBlocks::new(
                        args.sendbuf,
                        (sendcount, args.sendtype),
                        1,
                        defer,
                        all_bytes,
                    )
                }),
            };
            (sent, received)
        }
        Rooted::Scatter => {
            let sent = is_root.then(|| {
                // SAFETY: the root's send buffer holds the blocks, as the function requires.
                unsafe {
                    SentBlocks::new(
                        args.sendbuf,
                        (sendcount, args.sendtype),
                        n,
                        defer,
                        all_bytes,
                    )
                }
            });
            let receives = root != MPI_ROOT && !in_place;
            let received = (recvcount, args.recvtype);
            let received =
                receives.then(|| ReceivedBlocks::new(args.recvbuf, received, 1, false, all_bytes));
            (sent, received)
        }
    };
    let args = args.with_sides(sent.as_ref(), received.as_ref());
    // SAFETY: the buffers hold the data sent and take the blocks, as the function requires.
    unsafe { completed(args, (sent, received), refills, call, after) }
}

/// The exported functions, each blocking one with its nonblocking form: each gathers its
/// arguments, makes the call of the MPI behind's function of the same name, and hands both to
/// `$helper` (with `$extra`, the root). Standalone, the nonblocking form is the blocking one
/// with a request complete at once.
macro_rules! block_collectives {
    ($helper:ident; $extras:tt; $($count:ty: $name:ident / $iname:ident / $pname:ident $(as $int:ident / $iint:ident / $pint:ident)?),*) => {$(
        block_collectives!(@one $helper; $extras; $count: $name / $iname / $pname $(as $int / $iint / $pint)?);
    )*};
    // The call of the MPI behind's `$function` (or of its `int` form `$int`) with the blocks
    // of `Blocks` `a`, the collective's `$extra` arguments and its last ones `$last` (none,
    // the request, or the info and the request), which completes as `After::$after` says.
    (@call $function:ident [$($int:ident)?] $count:ty; [$($extra:ident: $extra_ty:ty),*];
        [$($last:ident: $last_ty:ty),*]; $after:ident $(($request:expr))?) => {
        |a: Blocks<$count>| {
            let rc = or_int_form!(forward!($function: fn(*const c_void, $count, MPI_Datatype, *mut c_void, $count, MPI_Datatype, $($extra_ty,)* MPI_Comm $(, $last_ty)*) -> c_int,
                a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, $($extra,)* a.comm $(, $last)*);
                $function [$($int)?]; on Comm(a.comm); widths &[]; after $after $(($request))?;
                messages [(sc, st) = (a.sendcount, a.sendtype), (rc, rt) = (a.recvcount, a.recvtype)];
                (a.sendbuf, sc, st, a.recvbuf, rc, rt, $($extra,)* a.comm $(, $last)*));
            rc.unwrap_or_else(|| missing_behind(stringify!($function)))
        }
    };
    (@one $helper:ident; [$($extra:ident: $extra_ty:ty),*]; $count:ty: $name:ident / $iname:ident / $pname:ident $(as $int:ident / $iint:ident / $pint:ident)?) => {
        #[doc = concat!("`", stringify!($name), "`, on the engine's path for the blocks it packs.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            sendbuf: *const c_void,
            sendcount: $count,
            sendtype: MPI_Datatype,
            recvbuf: *mut c_void,
            recvcount: $count,
            recvtype: MPI_Datatype,
            $($extra: $extra_ty,)*
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                let args = Blocks { sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm };
                let call = block_collectives!(@call $name [$($int)?] $count; [$($extra: $extra_ty),*]; []; Return);
                // SAFETY: the caller's buffers, passed on under the same contract.
                unsafe { $helper(stringify!($name), args, $($extra,)* call, After::Return) }
            })
        }

        #[doc = concat!("`", stringify!($iname), "`, on the engine's path for the blocks it packs; their bytes are unpacked when the request completes.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $iname(
            sendbuf: *const c_void,
            sendcount: $count,
            sendtype: MPI_Datatype,
            recvbuf: *mut c_void,
            recvcount: $count,
            recvtype: MPI_Datatype,
            $($extra: $extra_ty,)*
            comm: MPI_Comm,
            request: *mut MPI_Request,
        ) -> c_int {
            export(stringify!($iname), || {
                // SAFETY: the caller's arguments, as the blocking function takes them.
                let blocking = || unsafe { $name(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, $($extra,)* comm) };
                if standalone() {
                    // SAFETY: the caller's arguments.
                    return unsafe { at_once(stringify!($iname), request, blocking) };
                }
                let args = Blocks { sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm };
                let call = block_collectives!(@call $iname [$($iint)?] $count; [$($extra: $extra_ty),*];
                    [request: *mut MPI_Request]; Request(request));
                // SAFETY: the caller's buffers, passed on under the same contract.
                unsafe { $helper(stringify!($iname), args, $($extra,)* call, After::Request(request)) }
            })
        }

        #[doc = concat!("`", stringify!($pname), "`, on the engine's path for the blocks it packs: each start packs them, each completion unpacks them.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $pname(
            sendbuf: *const c_void,
            sendcount: $count,
            sendtype: MPI_Datatype,
            recvbuf: *mut c_void,
            recvcount: $count,
            recvtype: MPI_Datatype,
            $($extra: $extra_ty,)*
            comm: MPI_Comm,
            info: MPI_Info,
            request: *mut MPI_Request,
        ) -> c_int {
            export(stringify!($pname), || {
                if standalone() {
                    return persistent_in_one_process!($pname => $name(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, $($extra,)* comm), request);
                }
                let args = Blocks { sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm };
                let call = block_collectives!(@call $pname [$($pint)?] $count; [$($extra: $extra_ty),*];
                    [info: MPI_Info, request: *mut MPI_Request]; Persistent(request));
                // SAFETY: the caller's buffers, passed on under the same contract.
                unsafe { $helper(stringify!($pname), args, $($extra,)* call, After::Persistent(request)) }
            })
        }
    };
}

block_collectives!(alltoall; []; c_int: MPI_Alltoall / MPI_Ialltoall / MPI_Alltoall_init,
    MPI_Count: MPI_Alltoall_c / MPI_Ialltoall_c / MPI_Alltoall_init_c as MPI_Alltoall / MPI_Ialltoall / MPI_Alltoall_init);
block_collectives!(allgather; []; c_int: MPI_Allgather / MPI_Iallgather / MPI_Allgather_init,
    MPI_Count: MPI_Allgather_c / MPI_Iallgather_c / MPI_Allgather_init_c as MPI_Allgather / MPI_Iallgather / MPI_Allgather_init);
block_collectives!(gather; [root: c_int]; c_int: MPI_Gather / MPI_Igather / MPI_Gather_init,
    MPI_Count: MPI_Gather_c / MPI_Igather_c / MPI_Gather_init_c as MPI_Gather / MPI_Igather / MPI_Gather_init);
block_collectives!(scatter; [root: c_int]; c_int: MPI_Scatter / MPI_Iscatter / MPI_Scatter_init,
    MPI_Count: MPI_Scatter_c / MPI_Iscatter_c / MPI_Scatter_init_c as MPI_Scatter / MPI_Iscatter / MPI_Scatter_init);
