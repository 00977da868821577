//! `MPI_Bcast` and `MPI_Bcast_c`. On the engine's path the root packs and every process
//! broadcasts `count * size` `MPI_BYTE`s, which the others unpack; the type signatures of a
//! broadcast match, so every process moves the same number of bytes, whichever path each
//! takes.

use super::{guard, missing_behind};
use crate::abi::p2p::MPI_PROC_NULL;
use crate::abi::{MPI_Comm, MPI_Count, MPI_Datatype, MPI_ERR_ROOT};
use crate::behind::forward;
use crate::dropin::comm::blocks::is_root;
use crate::dropin::comm::{route, Incoming, Outgoing};
use crate::error::MpiError;
use crate::ffi::export;
use std::ffi::c_void;
use std::os::raw::c_int;

/// The one-process world's broadcast: the root is the only process, nothing moves.
fn standalone(function: &'static str, count: i64, root: c_int, comm: MPI_Comm) -> c_int {
    if crate::ffi::is_comm(comm) && count >= 0 && root == 0 {
        return guard(function, || Ok(()));
    }
    if count < 0 || root != 0 {
        return guard(function, || {
            Err(match count < 0 {
                true => MpiError::count(format!("count must be non-negative, got {count}")),
                false => MpiError::new(MPI_ERR_ROOT, format!("root {root} is not rank 0")),
            })
        });
    }
    missing_behind(function)
}

macro_rules! bcasts {
    ($($count:ty: $name:ident),*) => {$(
        #[doc = concat!("`", stringify!($name), "`, on the engine's path for a message it packs.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            buffer: *mut c_void,
            count: $count,
            datatype: MPI_Datatype,
            root: c_int,
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                let call = |b: *mut c_void, c: $count, t: MPI_Datatype| {
                    forward!($name: fn(*mut c_void, $count, MPI_Datatype, c_int, MPI_Comm) -> c_int,
                        b, c, t, root, comm)
                };
                if crate::behind::backend().is_none() {
                    return standalone(stringify!($name), count.into(), root, comm);
                }
                // Which side this process is on costs two calls of the MPI behind: asked only
                // for a type that may be packed.
                if root == MPI_PROC_NULL || !route::may_pack(datatype) {
                    return call(buffer, count, datatype).unwrap_or_else(|| missing_behind(stringify!($name)));
                }
                let rc = if is_root(root, comm) {
                    // SAFETY: the root's buffer holds the data, as the function requires.
                    let outgoing = unsafe { Outgoing::new(buffer, count.into(), datatype, 0, false) };
                    let (b, c, t) = outgoing.args(buffer, count, datatype);
                    call(b.cast_mut(), c, t)
                } else {
                    let incoming = Incoming::new(buffer, count.into(), datatype, 0);
                    let (b, c, t) = incoming.args(buffer, count, datatype);
                    let rc = call(b, c, t);
                    if let Some(rc) = rc {
                        // SAFETY: the buffer takes the data; a broadcast delivers all of them.
                        unsafe { incoming.finish_whole(rc) };
                    }
                    rc
                };
                rc.unwrap_or_else(|| missing_behind(stringify!($name)))
            })
        }
    )*};
}

bcasts!(c_int: MPI_Bcast, MPI_Count: MPI_Bcast_c);
