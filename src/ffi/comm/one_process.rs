//! The collectives that move one block per process, in the one-process world of a library
//! with no MPI behind it: the one block goes from the send buffer to the receive buffer
//! through the engine, packed and unpacked.

use super::guard_on;
use crate::abi::p2p::MPI_IN_PLACE;
use crate::abi::{MPI_Comm, MPI_Datatype, MPI_ERR_ROOT, MPI_ERR_TRUNCATE};
use crate::error::{MpiError, MpiResult};
use crate::ffi::pack::user_memory;
use crate::ffi::{check_comm, with_committed};
use crate::pack::{pack, packed_size};
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::Arc;

/// The arguments of one block's move: `count` copies of `datatype` at `buffer`, for each side.
pub struct Side {
    /// The buffer (`MPI_IN_PLACE` on one side: nothing moves).
    pub buffer: *const c_void,
    /// The copies.
    pub count: i64,
    /// Their datatype.
    pub datatype: MPI_Datatype,
}

/// `function` (`MPI_Alltoall`, `MPI_Gather`, ...) over `comm` in the one-process world
/// ([`copy`]), its error raised on `comm`'s error handler.
///
/// # Safety
/// As for [`copy`].
pub unsafe fn copy_block(
    function: &'static str,
    sent: Side,
    received: Side,
    comm: MPI_Comm,
    root: Option<c_int>,
) -> c_int {
    // SAFETY: the caller's contract.
    guard_on(function, comm, || unsafe {
        copy(sent, received, comm, root)
    })
}

/// The one block of a collective over `comm` in the one-process world, from the send side to
/// the receive side through the engine: `root`, for a rooted collective, must be 0; the data
/// sent must fit the receive side (`MPI_ERR_TRUNCATE`); each type must be committed; with
/// `MPI_IN_PLACE` on either side nothing moves.
///
/// # Safety
/// As for the MPI function: the send side's type map is readable, the receive side's
/// writable.
pub unsafe fn copy(
    sent: Side,
    received: Side,
    comm: MPI_Comm,
    root: Option<c_int>,
) -> MpiResult<()> {
    check_comm(comm)?;
    if let Some(root) = root.filter(|&root| root != 0) {
        return Err(MpiError::new(
            MPI_ERR_ROOT,
            format!("root {root} is not rank 0"),
        ));
    }
    for side in [&sent, &received] {
        crate::datatype::construct::check_count(side.count, "count")?;
    }
    let in_place = [&sent, &received]
        .iter()
        .any(|side| side.buffer.expose_provenance() == MPI_IN_PLACE);
    if in_place {
        return Ok(());
    }
    let sent_type = with_committed(sent.datatype, Arc::clone)?;
    let received_type = with_committed(received.datatype, Arc::clone)?;
    let bytes = packed_size(&sent_type, sent.count)?;
    let room = packed_size(&received_type, received.count)?;
    if bytes > room {
        return Err(MpiError::new(
            MPI_ERR_TRUNCATE,
            format!("{bytes} bytes are sent to a receive buffer of {room} bytes"),
        ));
    }
    let mut block = vec![0u8; bytes as usize];
    let mut packed = 0;
    // SAFETY: the caller's buffers; `block` holds the `bytes` bytes sent, which the receive
    // side takes (a part of its last copy included).
    unsafe {
        pack(
            user_memory(sent.buffer),
            sent.count,
            &sent_type,
            block.as_mut_ptr(),
            bytes,
            &mut packed,
        )?;
        crate::plan::unpack_range(
            &received_type.plan,
            received.count,
            user_memory(received.buffer),
            0,
            &block,
        );
    }
    Ok(())
}
