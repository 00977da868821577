//! The sends: `MPI_Send`, `MPI_Ssend`, `MPI_Rsend`, `MPI_Bsend`, their nonblocking forms
//! (`MPI_Isend`, ...), their persistent forms (`MPI_Send_init`, ...) and the `_c` form of
//! each. On the engine's path the data are packed when the call is made (at each
//! `MPI_Start` for a persistent send) and the MPI behind sends `MPI_BYTE`s; with
//! `MPI_DTYPE_TRANSPORT=shm`, a large one that is not persistent goes through this process's
//! ring ([`send_node_local`]). Where that library
//! has no `_c` function, the `_c` form calls its `int` one ([`int_forms`]).

use super::int_forms::or_int_form;
use super::{missing_behind, serial, standalone};
use crate::abi::p2p::MPI_Request;
use crate::abi::{MPI_Comm, MPI_Count, MPI_Datatype};
use crate::behind::forward;
use crate::dropin::comm::{send_node_local, Outgoing};
use crate::ffi::export;
use std::ffi::c_void;
use std::os::raw::c_int;

/// The answer `rc` of the MPI behind's nonblocking or persistent send (`None` without the
/// function), the packed bytes of `outgoing` kept with the request it made.
///
/// # Safety
/// `request` is the program's, as the MPI function requires.
#[inline(always)]
unsafe fn keep_with_request(
    function: &'static str,
    outgoing: Outgoing,
    rc: Option<c_int>,
    request: *mut MPI_Request,
) -> c_int {
    let Some(rc) = rc else {
        return missing_behind(function);
    };
    // SAFETY: the MPI behind wrote the request it made when it succeeded.
    unsafe { outgoing.keep(rc, request) };
    rc
}

/// Blocking sends: the packed bytes go back to the pool when the MPI behind returns.
macro_rules! blocking_sends {
    ($count:ty: $($name:ident $(as $int:ident)?),*) => {$(
        #[doc = concat!("`", stringify!($name), "`, on the engine's path for a message it packs.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(buf: *const c_void, count: $count, datatype: MPI_Datatype, dest: c_int, tag: c_int, comm: MPI_Comm) -> c_int {
            export(stringify!($name), || {
                if standalone() {
                    let message = (buf, count.into(), datatype);
                    // SAFETY: the program's buffer holds the message, as the function requires.
                    return unsafe { serial::send(stringify!($name), message, dest, tag, comm) };
                }
                let message = (buf, count.into(), datatype);
                // SAFETY: the program's buffer holds the message, as the function requires.
                if let Some(rc) = unsafe { send_node_local(stringify!($name), message, (dest, tag, comm), None) } {
                    return rc;
                }
                // SAFETY: as above.
                let outgoing = unsafe { Outgoing::new(buf, count.into(), datatype, dest, false) };
                let (b, c, t) = outgoing.args(buf, count, datatype);
                let rc = or_int_form!(forward!($name: fn(*const c_void, $count, MPI_Datatype, c_int, c_int, MPI_Comm) -> c_int,
                    b, c, t, dest, tag, comm);
                    $name [$($int)?]; on Comm(comm); widths &[]; after Return;
                    messages [(c, t) = (c, t)]; (b, c, t, dest, tag, comm));
                rc.unwrap_or_else(|| missing_behind(stringify!($name)))
            })
        }
    )*};
}

/// Nonblocking and persistent sends (`$persistent`): the packed bytes stay with the request.
macro_rules! request_sends {
    ($persistent:literal, $count:ty: $($name:ident $(as $int:ident)?),*) => {$(
        #[doc = concat!("`", stringify!($name), "`, on the engine's path for a message it packs.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(buf: *const c_void, count: $count, datatype: MPI_Datatype, dest: c_int, tag: c_int, comm: MPI_Comm, request: *mut MPI_Request) -> c_int {
            export(stringify!($name), || {
                if standalone() {
                    let (message, envelope) = ((buf, count.into(), datatype), (dest, tag, comm));
                    // SAFETY: the program's buffer and request, as the function requires.
                    return unsafe {
                        serial::start_point_to_point(stringify!($name), false, message, envelope, $persistent, request)
                    };
                }
                if !$persistent {
                    let message = (buf, count.into(), datatype);
                    // SAFETY: the program's buffer and request, as the function requires.
                    let sent = unsafe { send_node_local(stringify!($name), message, (dest, tag, comm), Some(request)) };
                    if let Some(rc) = sent {
                        return rc;
                    }
                }
                // SAFETY: the program's buffer holds the message, as the function requires (a
                // persistent send reads it at each start).
                let outgoing = unsafe { Outgoing::new(buf, count.into(), datatype, dest, $persistent) };
                let (b, c, t) = outgoing.args(buf, count, datatype);
                let rc = or_int_form!(forward!($name: fn(*const c_void, $count, MPI_Datatype, c_int, c_int,
                    MPI_Comm, *mut MPI_Request) -> c_int, b, c, t, dest, tag, comm, request);
                    $name [$($int)?]; on Comm(comm); widths &[]; after Return;
                    messages [(c, t) = (c, t)]; (b, c, t, dest, tag, comm, request));
                // SAFETY: the program's request, as the function requires.
                unsafe { keep_with_request(stringify!($name), outgoing, rc, request) }
            })
        }
    )*};
}

blocking_sends!(c_int: MPI_Send, MPI_Ssend, MPI_Rsend, MPI_Bsend);
blocking_sends!(MPI_Count: MPI_Send_c as MPI_Send, MPI_Ssend_c as MPI_Ssend,
    MPI_Rsend_c as MPI_Rsend, MPI_Bsend_c as MPI_Bsend);
request_sends!(false, c_int: MPI_Isend, MPI_Issend, MPI_Irsend, MPI_Ibsend);
request_sends!(false, MPI_Count: MPI_Isend_c as MPI_Isend, MPI_Issend_c as MPI_Issend,
    MPI_Irsend_c as MPI_Irsend, MPI_Ibsend_c as MPI_Ibsend);
request_sends!(true, c_int: MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init, MPI_Bsend_init);
request_sends!(true, MPI_Count: MPI_Send_init_c as MPI_Send_init, MPI_Ssend_init_c as MPI_Ssend_init,
    MPI_Rsend_init_c as MPI_Rsend_init, MPI_Bsend_init_c as MPI_Bsend_init);
