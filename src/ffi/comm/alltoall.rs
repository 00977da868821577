//! The collectives in which every process sends to and receives from every process:
//! `MPI_Alltoall` (a block to each, `n` blocks sent) and `MPI_Allgather` (the same block to
//! each, one block sent), and their `_c` forms. A process receives `n` blocks, `n` being the
//! number of processes it exchanges with (the remote group's, over an intercommunicator).
//! Each side takes its path as one message of all its blocks would
//! ([`crate::dropin::comm::blocks`]): on the engine's, the blocks are packed into one buffer
//! and the MPI behind moves `MPI_BYTE`s, or receives bytes that are unpacked. The type
//! signatures of the blocks match pairwise, so every pair moves the same bytes whichever path
//! each side takes.
//!
//! With `MPI_IN_PLACE` the data sent are the receive buffer's, of the receive type: packed
//! first into the buffer the MPI behind receives into, where it exchanges them in place.

use super::one_process::{copy_block, Side};
use super::without_mpi;
use crate::abi::p2p::MPI_IN_PLACE;
use crate::abi::{MPI_Comm, MPI_Count, MPI_Datatype};
use crate::behind::forward;
use crate::dropin::comm::blocks::{partners, ReceivedBlocks, SentBlocks};
use crate::dropin::comm::route;
use crate::ffi::export;
use std::ffi::c_void;
use std::os::raw::c_int;

/// `$name` sends `$sent(n)` blocks (a function of the number of partners `n`) and receives `n`.
macro_rules! exchanges {
    ($sent:expr; $($count:ty: $name:ident),*) => {$(
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
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                let call = |sb: *const c_void, sc: $count, st: MPI_Datatype, rb: *mut c_void, rc: $count, rt: MPI_Datatype| {
                    forward!($name: fn(*const c_void, $count, MPI_Datatype, *mut c_void, $count, MPI_Datatype, MPI_Comm) -> c_int,
                        sb, sc, st, rb, rc, rt, comm)
                    .unwrap_or_else(|| without_mpi(stringify!($name)))
                };
                if crate::behind::backend().is_none() {
                    let sent = Side { buffer: sendbuf, count: sendcount.into(), datatype: sendtype };
                    let received = Side { buffer: recvbuf, count: recvcount.into(), datatype: recvtype };
                    // SAFETY: the caller's buffers, passed on under the same contract.
                    return unsafe { copy_block(stringify!($name), sent, received, comm, None) };
                }
                let in_place = sendbuf.expose_provenance() == MPI_IN_PLACE;
                let packable = route::may_pack_blocks()
                    && (route::may_pack(recvtype) || (!in_place && route::may_pack(sendtype)));
                let n = match partners(comm) {
                    Some(n) if packable && sendcount >= 0 && recvcount >= 0 => n,
                    // Nothing to pack, or arguments the MPI behind reports.
                    _ => return call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
                };
                let received = ReceivedBlocks::new(recvbuf, recvcount.into(), recvtype, n, in_place);
                let (rb, rcount, rt) = received.args(recvbuf, recvcount, recvtype);
                let rc = if in_place {
                    // SAFETY: the receive buffer holds the data sent, as the function requires.
                    unsafe { received.pack_program_data() };
                    call(sendbuf, sendcount, sendtype, rb, rcount, rt)
                } else {
                    let blocks: fn(i64) -> i64 = $sent;
                    // SAFETY: the send buffer holds the data, as the function requires.
                    let sent = unsafe { SentBlocks::new(sendbuf, sendcount.into(), sendtype, blocks(n)) };
                    let (sb, scount, st) = sent.args(sendbuf, sendcount, sendtype);
                    call(sb, scount, st, rb, rcount, rt)
                };
                // SAFETY: the receive buffer takes the data, as the function requires.
                unsafe { received.finish(rc) };
                rc
            })
        }
    )*};
}

exchanges!(|n| n; c_int: MPI_Alltoall, MPI_Count: MPI_Alltoall_c);
exchanges!(|_| 1; c_int: MPI_Allgather, MPI_Count: MPI_Allgather_c);
