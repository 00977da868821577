//! The rooted collectives that move one block per process: `MPI_Gather` (every process sends
//! a block, the root receives `n`) and `MPI_Scatter` (the root sends `n` blocks, every process
//! receives one), and their `_c` forms. `n` is the number of processes of the communicator, or
//! of the remote group for the root (`MPI_ROOT`) of an intercommunicator. Each side takes its
//! path as one message of all its blocks would ([`crate::dropin::comm::blocks`]); the
//! arguments that only the root's side reads are not looked at elsewhere.
//!
//! With `MPI_IN_PLACE` at the root of a gather, the root's own block is in the receive buffer:
//! all its blocks are packed first into the buffer the MPI behind receives into. At the root
//! of a scatter the root's block stays where it is and nothing is received.

use super::one_process::{copy_block, Side};
use super::without_mpi;
use crate::abi::p2p::{MPI_IN_PLACE, MPI_PROC_NULL, MPI_ROOT};
use crate::abi::{MPI_Comm, MPI_Count, MPI_Datatype};
use crate::behind::forward;
use crate::dropin::comm::blocks::{is_root, partners, ReceivedBlocks, SentBlocks};
use crate::dropin::comm::route;
use crate::ffi::export;
use std::ffi::c_void;
use std::os::raw::c_int;

/// Which sides of a rooted collective this process takes part in, or `None` where the call
/// goes to the MPI behind unchanged (nothing to pack; `MPI_PROC_NULL`, a process of the root
/// group of an intercommunicator other than the root; `MPI_IN_PLACE` where the standard does
/// not allow it, which that library reports).
struct Roles {
    /// This process is the root.
    root: bool,
    /// The number of blocks the root sends or receives.
    partners: i64,
}

/// The [`Roles`] of a rooted collective over `comm` with `root`, whose buffer `in_place` may
/// be `MPI_IN_PLACE` (the root's receive buffer of a gather, send buffer of a scatter).
fn roles(root: c_int, comm: MPI_Comm, types: [MPI_Datatype; 2], in_place: bool) -> Option<Roles> {
    if root == MPI_PROC_NULL
        || !route::may_pack_blocks()
        || !types.iter().any(|&t| route::may_pack(t))
    {
        return None;
    }
    let is_root = is_root(root, comm);
    if in_place && !is_root {
        return None;
    }
    Some(Roles {
        root: is_root,
        partners: partners(comm)?,
    })
}

macro_rules! gathers {
    ($($count:ty: $name:ident),*) => {$(
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
            root: c_int,
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                let call = |sb: *const c_void, sc: $count, st: MPI_Datatype, rb: *mut c_void, rc: $count, rt: MPI_Datatype| {
                    forward!($name: fn(*const c_void, $count, MPI_Datatype, *mut c_void, $count, MPI_Datatype, c_int, MPI_Comm) -> c_int,
                        sb, sc, st, rb, rc, rt, root, comm)
                    .unwrap_or_else(|| without_mpi(stringify!($name)))
                };
                if crate::behind::backend().is_none() {
                    let sent = Side { buffer: sendbuf, count: sendcount.into(), datatype: sendtype };
                    let received = Side { buffer: recvbuf, count: recvcount.into(), datatype: recvtype };
                    // SAFETY: the caller's buffers, passed on under the same contract.
                    return unsafe { copy_block(stringify!($name), sent, received, comm, Some(root)) };
                }
                let in_place = sendbuf.expose_provenance() == MPI_IN_PLACE;
                let roles = match roles(root, comm, [sendtype, recvtype], in_place) {
                    Some(roles) if sendcount >= 0 && recvcount >= 0 => roles,
                    _ => return call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
                };
                let received = roles.root.then(|| {
                    ReceivedBlocks::new(recvbuf, recvcount.into(), recvtype, roles.partners, in_place)
                });
                let (rb, rcount, rt) = match &received {
                    Some(received) => received.args(recvbuf, recvcount, recvtype),
                    None => (recvbuf, recvcount, recvtype),
                };
                // Every process sends but the root of an intercommunicator and a root whose
                // block is in place.
                let rc = if root == MPI_ROOT || in_place {
                    if let Some(received) = &received {
                        // SAFETY: the root's block is in the receive buffer, as the function
                        // requires with MPI_IN_PLACE (read only then).
                        unsafe { received.pack_program_data() };
                    }
                    call(sendbuf, sendcount, sendtype, rb, rcount, rt)
                } else {
                    // SAFETY: the send buffer holds the block, as the function requires.
                    let sent = unsafe { SentBlocks::new(sendbuf, sendcount.into(), sendtype, 1) };
                    let (sb, scount, st) = sent.args(sendbuf, sendcount, sendtype);
                    call(sb, scount, st, rb, rcount, rt)
                };
                if let Some(received) = received {
                    // SAFETY: the root's receive buffer takes the blocks.
                    unsafe { received.finish(rc) };
                }
                rc
            })
        }
    )*};
}

macro_rules! scatters {
    ($($count:ty: $name:ident),*) => {$(
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
            root: c_int,
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                let call = |sb: *const c_void, sc: $count, st: MPI_Datatype, rb: *mut c_void, rc: $count, rt: MPI_Datatype| {
                    forward!($name: fn(*const c_void, $count, MPI_Datatype, *mut c_void, $count, MPI_Datatype, c_int, MPI_Comm) -> c_int,
                        sb, sc, st, rb, rc, rt, root, comm)
                    .unwrap_or_else(|| without_mpi(stringify!($name)))
                };
                if crate::behind::backend().is_none() {
                    let sent = Side { buffer: sendbuf, count: sendcount.into(), datatype: sendtype };
                    let received = Side { buffer: recvbuf, count: recvcount.into(), datatype: recvtype };
                    // SAFETY: the caller's buffers, passed on under the same contract.
                    return unsafe { copy_block(stringify!($name), sent, received, comm, Some(root)) };
                }
                let in_place = recvbuf.expose_provenance() == MPI_IN_PLACE;
                let roles = match roles(root, comm, [sendtype, recvtype], in_place) {
                    Some(roles) if sendcount >= 0 && recvcount >= 0 => roles,
                    _ => return call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
                };
                let sent = roles.root.then(|| {
                    // SAFETY: the root's send buffer holds the blocks, as the function requires.
                    unsafe { SentBlocks::new(sendbuf, sendcount.into(), sendtype, roles.partners) }
                });
                let (sb, scount, st) = match &sent {
                    Some(sent) => sent.args(sendbuf, sendcount, sendtype),
                    None => (sendbuf, sendcount, sendtype),
                };
                // Every process receives but the root of an intercommunicator and a root whose
                // block stays in place.
                if root == MPI_ROOT || in_place {
                    return call(sb, scount, st, recvbuf, recvcount, recvtype);
                }
                let received = ReceivedBlocks::new(recvbuf, recvcount.into(), recvtype, 1, false);
                let (rb, rcount, rt) = received.args(recvbuf, recvcount, recvtype);
                let rc = call(sb, scount, st, rb, rcount, rt);
                // SAFETY: the receive buffer takes the block.
                unsafe { received.finish(rc) };
                rc
            })
        }
    )*};
}

gathers!(c_int: MPI_Gather, MPI_Count: MPI_Gather_c);
scatters!(c_int: MPI_Scatter, MPI_Count: MPI_Scatter_c);
