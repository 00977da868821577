//! `MPI_Alltoall` and `MPI_Alltoall_c`. The data a process sends are `n * sendcount` copies of
//! the send type laid end to end (block `i`, for process `i`, is copies `i * sendcount` on), and
//! the data it receives are `n * recvcount` copies of the receive type, `n` being the number
//! of processes it exchanges with (the remote group's, over an intercommunicator). So each
//! side takes its path as one message would ([`crate::dropin::comm::route`]): on the engine's,
//! the process packs all its blocks into one buffer (block `i` at `i` times the bytes of a
//! block) and the MPI behind exchanges `MPI_BYTE`s, or receives bytes that it unpacks. The
//! type signatures of the blocks match pairwise, so every pair moves the same bytes whichever
//! path each side takes.
//!
//! With `MPI_IN_PLACE` the data sent are the receive buffer's, of the receive type: packed
//! first when the receive side takes the engine's path, and the exchange lands beside them.

use super::{guard, without_mpi};
use crate::abi::p2p::MPI_IN_PLACE;
use crate::abi::{MPI_Comm, MPI_Count, MPI_Datatype, MPI_ERR_TRUNCATE};
use crate::behind::forward;
use crate::dropin::comm::{route, Incoming, Outgoing};
use crate::error::MpiError;
use crate::ffi::pack::user_memory;
use crate::ffi::{export, with_committed};
use crate::pack::Representation;
use std::ffi::c_void;
use std::os::raw::c_int;

/// The number of processes of `comm` a process exchanges blocks with: the remote group's
/// over an intercommunicator, else the communicator's.
fn partners(comm: MPI_Comm) -> Option<i64> {
    let (mut inter, mut size): (c_int, c_int) = (0, 0);
    forward!(MPI_Comm_test_inter: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut inter)?;
    let rc = match inter {
        0 => forward!(MPI_Comm_size: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut size),
        _ => forward!(MPI_Comm_remote_size: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut size),
    };
    (rc == Some(crate::abi::MPI_SUCCESS) && size > 0).then_some(size.into())
}

/// The count of one block of a substituted buffer of `total` bytes over `partners` processes
/// (the bytes of `n` blocks of equal size), or the program's `count` if nothing was packed.
fn block_count<C: Copy + Into<i64> + From<i32>>(
    packed: bool,
    total: C,
    partners: i64,
    count: C,
) -> C {
    match packed {
        // The total fits in an int (route keeps larger messages on the MPI's path).
        true => C::from((total.into() / partners) as i32),
        false => count,
    }
}

/// The one-process world's exchange (no MPI behind): the one block goes from the send buffer
/// to the receive buffer through the engine, packed and unpacked; `MPI_ERR_TRUNCATE` if the
/// receive buffer takes fewer bytes than are sent.
///
/// # Safety
/// As for `MPI_Alltoall`.
#[allow(clippy::too_many_arguments)]
unsafe fn standalone(
    function: &'static str,
    sendbuf: *const c_void,
    sendcount: i64,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: i64,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    guard(function, || {
        crate::ffi::check_comm(comm)?;
        for count in [sendcount, recvcount] {
            crate::datatype::construct::check_count(count, "count")?;
        }
        let room = with_committed(recvtype, |t| t.size() * recvcount)?;
        if sendbuf.expose_provenance() == MPI_IN_PLACE {
            return Ok(());
        }
        let sent = with_committed(sendtype, |t| t.size() * sendcount)?;
        if sent > room {
            return Err(MpiError::new(
                MPI_ERR_TRUNCATE,
                format!("{sent} bytes are sent to a receive buffer of {room} bytes"),
            ));
        }
        let mut block = vec![0u8; sent as usize];
        let (inp, out) = (user_memory(sendbuf), user_memory(recvbuf));
        let (mut packed, mut unpacked) = (0, 0);
        with_committed(sendtype, |t| {
            // SAFETY: the caller's send buffer; `block` has room for `sent` bytes.
            unsafe {
                Representation::Native.pack(
                    inp,
                    sendcount,
                    t,
                    block.as_mut_ptr(),
                    sent,
                    &mut packed,
                )
            }
        })??;
        let copies = with_committed(recvtype, |t| match t.size() {
            0 => 0,
            size => sent / size,
        })?;
        with_committed(recvtype, |t| {
            // SAFETY: the caller's receive buffer takes `copies` copies; `block` holds them.
            unsafe {
                Representation::Native.unpack(block.as_ptr(), sent, &mut unpacked, out, copies, t)
            }
        })??;
        Ok(())
    })
}

macro_rules! alltoalls {
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
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                let call = |sb: *const c_void, sc: $count, st: MPI_Datatype, rb: *mut c_void, rc: $count, rt: MPI_Datatype| {
                    forward!($name: fn(*const c_void, $count, MPI_Datatype, *mut c_void, $count, MPI_Datatype, MPI_Comm) -> c_int,
                        sb, sc, st, rb, rc, rt, comm)
                    .unwrap_or_else(|| without_mpi(stringify!($name)))
                };
                if crate::behind::backend().is_none() {
                    // SAFETY: the caller's buffers, passed on under the same contract.
                    return unsafe { standalone(stringify!($name), sendbuf, sendcount.into(), sendtype, recvbuf, recvcount.into(), recvtype, comm) };
                }
                let in_place = sendbuf.expose_provenance() == MPI_IN_PLACE;
                let packable = route::may_pack(recvtype) || (!in_place && route::may_pack(sendtype));
                let n = match partners(comm) {
                    Some(n) if packable && sendcount >= 0 && recvcount >= 0 => n,
                    // Nothing to pack, or arguments the MPI behind reports.
                    _ => return call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
                };
                let copies = n * i64::from(recvcount);
                let receiving = match in_place {
                    true => Incoming::in_place(recvbuf, copies, recvtype, 0),
                    false => Incoming::new(recvbuf, copies, recvtype, 0),
                };
                let (rb, rtotal, rt) = receiving.args(recvbuf, recvcount, recvtype);
                let rcount = block_count(receiving.packs(), rtotal, n, recvcount);
                let rc = if in_place {
                    // The data sent are the receive buffer's, of the receive type: packed into
                    // the landing buffer, which the MPI behind exchanges in place.
                    // SAFETY: the receive buffer holds the data, as the function requires.
                    unsafe { receiving.pack_program_data() };
                    call(sendbuf, sendcount, sendtype, rb, rcount, rt)
                } else {
                    // SAFETY: the send buffer holds the data, as the function requires.
                    let outgoing = unsafe { Outgoing::new(sendbuf, n * i64::from(sendcount), sendtype, 0, false) };
                    let (sb, stotal, st) = outgoing.args(sendbuf, sendcount, sendtype);
                    let scount = block_count(outgoing.packs(), stotal, n, sendcount);
                    call(sb, scount, st, rb, rcount, rt)
                };
                // SAFETY: the receive buffer takes the data; an exchange delivers all of them.
                unsafe { receiving.finish_whole(rc) };
                rc
            })
        }
    )*};
}

alltoalls!(c_int: MPI_Alltoall, MPI_Count: MPI_Alltoall_c);
