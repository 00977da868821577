//! The receives: `MPI_Recv`, `MPI_Irecv`, `MPI_Recv_init`, the matched receives `MPI_Mrecv`
//! and `MPI_Imrecv`, `MPI_Sendrecv` and `MPI_Sendrecv_replace`, and the `_c` form of each.
//! On the engine's path the MPI behind receives `MPI_BYTE`s into a pooled buffer, which are
//! unpacked into the program's memory when the receive completes.

use super::int_forms::or_int_form;
use super::{missing_behind, serial, standalone};
use crate::abi::p2p::{MPI_Message, MPI_Request, MPI_MESSAGE_NO_PROC, MPI_PROC_NULL};
use crate::abi::{MPI_Comm, MPI_Count, MPI_Datatype, MPI_Status};
use crate::behind::forward;
use crate::dropin::comm::node_local::held;
use crate::dropin::comm::{Incoming, Outgoing};
use crate::ffi::export;
use std::ffi::c_void;
use std::os::raw::c_int;

/// The source a matched receive of `message` receives from: none for the message of
/// `MPI_PROC_NULL`, any other otherwise (the message is matched already).
///
/// # Safety
/// A non-NULL `message` is valid for a read.
unsafe fn source_of(message: *const MPI_Message) -> c_int {
    // SAFETY: the caller's contract.
    match message.is_null() || unsafe { message.read() } == MPI_MESSAGE_NO_PROC {
        true => MPI_PROC_NULL,
        false => 0,
    }
}

/// The envelope of the probed message that the matched message `message` stands for, where
/// a probe made it ([`held::take_minted`]).
///
/// # Safety
/// A non-NULL `message` is valid for a read.
unsafe fn minted_envelope(message: *const MPI_Message) -> Option<held::Envelope> {
    match message.is_null() {
        true => None,
        // SAFETY: the caller's contract.
        false => held::take_minted(unsafe { message.read() }),
    }
}

/// For `MPI_Sendrecv_replace` from `source` with `tag` on `comm` where a probe held the
/// message it receives: that message, and the data to send (the program's `message`)
/// packed. `None` where none is held, or the type is none the engine packs (the MPI behind's
/// own: the call then goes as any other).
///
/// # Safety
/// The type map of `message` is readable.
unsafe fn held_replace(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    (buf, count, datatype): Message<*mut c_void, i64>,
) -> Option<(MPI_Message, Vec<u8>)> {
    if !held::holds(source, tag, comm) {
        return None;
    }
    // SAFETY: the caller's contract.
    let bytes = unsafe { crate::dropin::comm::packed_copy(buf.cast_const(), count, datatype) }?;
    Some((held::take(source, tag, comm)?, bytes))
}

/// The buffer, count and datatype of one side of a call.
type Message<B, C> = (B, C, MPI_Datatype);

/// A blocking receive past the one-process world: `call`, the MPI behind's function, gets
/// the buffer, count and datatype `incoming` gives it for `message` and the status to fill;
/// the engine unpacks what arrived before the answer is returned.
///
/// It borrows the receive, which the caller made where it drops it: moved here, the
/// receive's fields, just written one by one, were copied whole, and the copy waited for
/// those writes.
///
/// # Safety
/// The program's buffer takes the message and `status` is the program's, as the MPI function
/// requires.
unsafe fn receive_blocking<C: From<i32>>(
    function: &'static str,
    incoming: &mut Incoming,
    (buf, count, datatype): Message<*mut c_void, C>,
    status: *mut MPI_Status,
    call: impl FnOnce(Message<*mut c_void, C>, *mut MPI_Status) -> Option<c_int>,
) -> c_int {
    let mut local = crate::dropin::comm::empty_status();
    let status = incoming.status(status, &mut local);
    let Some(rc) = call(incoming.args(buf, count, datatype), status) else {
        return missing_behind(function);
    };
    // SAFETY: the caller's contract; the MPI behind wrote the status.
    match unsafe { incoming.finish(rc, status) } {
        // Where the MPI behind failed the call (a truncated header), it raised the error.
        Some(overflow) if rc == crate::abi::MPI_SUCCESS => overflow.raise(overflow.code(function)),
        _ => rc,
    }
}

/// A nonblocking or persistent (`persistent`) receive past the one-process world: `call`,
/// the MPI behind's function, gets the buffer, count and datatype `incoming` gives it for
/// `message`; the engine's landing buffer stays with the request it makes.
///
/// # Safety
/// `request` is the program's, as the MPI function requires.
unsafe fn receive_with_request<C: From<i32>>(
    function: &'static str,
    incoming: Incoming,
    (buf, count, datatype): Message<*mut c_void, C>,
    request: *mut MPI_Request,
    persistent: bool,
    call: impl FnOnce(Message<*mut c_void, C>) -> Option<c_int>,
) -> c_int {
    let Some(rc) = call(incoming.args(buf, count, datatype)) else {
        return missing_behind(function);
    };
    // SAFETY: the MPI behind wrote the request it made when it succeeded.
    unsafe { incoming.keep(rc, request, persistent) };
    rc
}

/// [`receive_blocking`] of a receive it is given: a matched one (`MPI_Mrecv`), which
/// [`matched_receive!`] hands over as [`receive_matched_with_request`] takes it.
///
/// # Safety
/// As for [`receive_blocking`].
unsafe fn receive_matched_blocking<C: From<i32>>(
    function: &'static str,
    mut incoming: Incoming,
    message: Message<*mut c_void, C>,
    status: *mut MPI_Status,
    call: impl FnOnce(Message<*mut c_void, C>, *mut MPI_Status) -> Option<c_int>,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { receive_blocking(function, &mut incoming, message, status, call) }
}

/// [`receive_with_request`] for a matched receive (`MPI_Imrecv`, never persistent), whose
/// `call` takes the request as [`receive_blocking`]'s takes the status.
///
/// # Safety
/// As for [`receive_with_request`].
unsafe fn receive_matched_with_request<C: From<i32>>(
    function: &'static str,
    incoming: Incoming,
    message: Message<*mut c_void, C>,
    request: *mut MPI_Request,
    call: impl FnOnce(Message<*mut c_void, C>, *mut MPI_Request) -> Option<c_int>,
) -> c_int {
    let call = |message| call(message, request);
    // SAFETY: the caller's contract.
    unsafe { receive_with_request(function, incoming, message, request, false, call) }
}

/// The matched receive `$matched` (`MPI_Mrecv`, `MPI_Imrecv`), which completes through
/// `$out`, its status or its request, on the engine's path for a message it packs
/// (`$engine`: [`receive_matched_blocking`] or [`receive_matched_with_request`]); in the one-process
/// world `serial::$serial` receives.
macro_rules! matched_receive {
    ($matched:ident $(as $int:ident)?, $count:ty, $out:ident: $out_ty:ty, $serial:ident, $engine:ident) => {
        #[doc = concat!("`", stringify!($matched), "`, on the engine's path for a message it packs.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $matched(buf: *mut c_void, count: $count, datatype: MPI_Datatype, message: *mut MPI_Message, $out: $out_ty) -> c_int {
            export(stringify!($matched), || {
                if standalone() {
                    let buffer = (buf, count.into(), datatype);
                    // SAFETY: the program's buffer, message and status or request.
                    return unsafe { serial::$serial(stringify!($matched), buffer, message, $out) };
                }
                // SAFETY: the program's message handle.
                let source = unsafe { source_of(message) };
                // SAFETY: as above.
                let minted = unsafe { minted_envelope(message) };
                // A matched message's communicator is not known here, unless it stands for a
                // probed one: a message that does not fit is reported on the world's.
                let comm = minted.map_or(crate::abi::MPI_COMM_WORLD, |envelope| envelope.comm);
                let incoming = Incoming::new(buf, count.into(), datatype, source, false)
                    .watched((buf, count.into(), datatype), source, comm)
                    .reporting(minted);
                let call = |(b, c, t), out| {
                    or_int_form!(forward!($matched: fn(*mut c_void, $count, MPI_Datatype,
                        *mut MPI_Message, $out_ty) -> c_int, b, c, t, message, out);
                        $matched [$($int)?]; on Process; widths &[]; after Return;
                        messages [(c, t) = (c, t)]; (b, c, t, message, out))
                };
                // SAFETY: the program's buffer and status or request, as the function requires.
                unsafe { $engine(stringify!($matched), incoming, (buf, count, datatype), $out, call) }
            })
        }
    };
}

/// Blocking receives from a source and a tag (`MPI_Recv`) or of a matched message
/// (`MPI_Mrecv`): unpacked before the call returns.
macro_rules! blocking_receives {
    ($count:ty: $name:ident $(as $int:ident)?, $matched:ident $(as $mint:ident)?) => {
        #[doc = concat!("`", stringify!($name), "`, on the engine's path for a message it packs.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(buf: *mut c_void, count: $count, datatype: MPI_Datatype, source: c_int, tag: c_int, comm: MPI_Comm, status: *mut MPI_Status) -> c_int {
            export(stringify!($name), || {
                if standalone() {
                    let message = (buf, count.into(), datatype);
                    // SAFETY: the program's buffer and status, as the function requires.
                    return unsafe {
                        serial::receive(stringify!($name), message, source, tag, comm, status)
                    };
                }
                if let Some(mut held) = held::take(source, tag, comm) {
                    // SAFETY: the program's buffer and status; the message a probe held.
                    return unsafe { $matched(buf, count, datatype, &mut held, status) };
                }
                let mut incoming = Incoming::new(buf, count.into(), datatype, source, false)
                    .watched((buf, count.into(), datatype), source, comm);
                let call = |(b, c, t), status| {
                    or_int_form!(forward!($name: fn(*mut c_void, $count, MPI_Datatype,
                        c_int, c_int, MPI_Comm, *mut MPI_Status) -> c_int, b, c, t, source, tag, comm, status);
                        $name [$($int)?]; on Comm(comm); widths &[]; after Return;
                        messages [(c, t) = (c, t)]; (b, c, t, source, tag, comm, status))
                };
                // SAFETY: the program's buffer and status, as the function requires.
                unsafe { receive_blocking(stringify!($name), &mut incoming, (buf, count, datatype), status, call) }
            })
        }

        matched_receive!($matched $(as $mint)?, $count, status: *mut MPI_Status, receive_matched, receive_matched_blocking);
    };
}

/// Nonblocking and persistent receives (`$persistent`): unpacked by the completion call that
/// reports them complete.
macro_rules! request_receives {
    ($count:ty: $name:ident $(as $int:ident)?, $persistent_name:ident $(as $pint:ident)?, $matched:ident $(as $mint:ident)?) => {
        request_receives!(@one false, $count, $name $(as $int)?, $matched);
        request_receives!(@one true, $count, $persistent_name $(as $pint)?, $matched);

        matched_receive!($matched $(as $mint)?, $count, request: *mut MPI_Request, start_matched, receive_matched_with_request);
    };
    (@one $persistent:literal, $count:ty, $name:ident $(as $int:ident)?, $matched:ident) => {
        #[doc = concat!("`", stringify!($name), "`, on the engine's path for a message it packs.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(buf: *mut c_void, count: $count, datatype: MPI_Datatype, source: c_int, tag: c_int, comm: MPI_Comm, request: *mut MPI_Request) -> c_int {
            export(stringify!($name), || {
                if standalone() {
                    let (message, envelope) = ((buf.cast_const(), count.into(), datatype), (source, tag, comm));
                    // SAFETY: the program's buffer and request, as the function requires.
                    return unsafe {
                        serial::start_point_to_point(stringify!($name), true, message, envelope, $persistent, request)
                    };
                }
                if !$persistent {
                    if let Some(mut held) = held::take(source, tag, comm) {
                        // SAFETY: the program's buffer and request; the message a probe held.
                        return unsafe { $matched(buf, count, datatype, &mut held, request) };
                    }
                }
                let incoming = Incoming::new(buf, count.into(), datatype, source, $persistent)
                    .watched((buf, count.into(), datatype), source, comm);
                let call = |(b, c, t)| {
                    or_int_form!(forward!($name: fn(*mut c_void, $count, MPI_Datatype, c_int,
                        c_int, MPI_Comm, *mut MPI_Request) -> c_int, b, c, t, source, tag, comm, request);
                        $name [$($int)?]; on Comm(comm); widths &[]; after Return;
                        messages [(c, t) = (c, t)]; (b, c, t, source, tag, comm, request))
                };
                let message = (buf, count, datatype);
                // SAFETY: the program's request, as the function requires.
                unsafe { receive_with_request(stringify!($name), incoming, message, request, $persistent, call) }
            })
        }
    };
}

/// `MPI_Sendrecv` and `MPI_Sendrecv_replace`.
macro_rules! sendrecvs {
    // The call of the MPI behind's `$name` (or of its `int` form `$int`) that sends the
    // message `$sb`, `$sc`, `$st` and receives the one it is given, with its status.
    (@exchange $name:ident [$($int:ident)?] $count:ty, ($sb:ident, $sc:ident, $st:ident),
        ($dest:ident, $sendtag:ident, $source:ident, $recvtag:ident, $comm:ident)) => {
        |(rb, rc, rt), status| {
            or_int_form!(forward!($name: fn(*const c_void, $count, MPI_Datatype,
                c_int, c_int, *mut c_void, $count, MPI_Datatype, c_int, c_int, MPI_Comm,
                *mut MPI_Status) -> c_int, $sb, $sc, $st, $dest, $sendtag, rb, rc, rt, $source, $recvtag, $comm, status);
                $name [$($int)?]; on Comm($comm); widths &[]; after Return;
                messages [(sc, st) = ($sc, $st), (rc, rt) = (rc, rt)];
                ($sb, sc, st, $dest, $sendtag, rb, rc, rt, $source, $recvtag, $comm, status))
        }
    };
    ($count:ty: $name:ident $(as $int:ident)?, $replace:ident $(as $rint:ident)?; $send:ident, $mrecv:ident) => {
        #[doc = concat!("`", stringify!($name), "`, on the engine's path for either message it packs.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(sendbuf: *const c_void, sendcount: $count, sendtype: MPI_Datatype, dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: $count, recvtype: MPI_Datatype, source: c_int, recvtag: c_int, comm: MPI_Comm, status: *mut MPI_Status) -> c_int {
            export(stringify!($name), || {
                if standalone() {
                    let (sent, received) = ((sendbuf, sendcount.into(), sendtype), (recvbuf, recvcount.into(), recvtype));
                    // SAFETY: the program's buffers and status, as the function requires.
                    return unsafe {
                        serial::sendrecv(stringify!($name), sent, (dest, sendtag), received, (source, recvtag, comm), status)
                    };
                }
                if let Some(mut held) = held::take(source, recvtag, comm) {
                    // The message a probe held is here: received first, then the one sent.
                    // SAFETY: the program's buffers and status, as the function requires.
                    return unsafe {
                        let received = $mrecv(recvbuf, recvcount, recvtype, &mut held, status);
                        match received == crate::abi::MPI_SUCCESS {
                            true => super::send::$send(sendbuf, sendcount, sendtype, dest, sendtag, comm),
                            false => received,
                        }
                    };
                }
                // SAFETY: the program's send buffer holds the message.
                let outgoing = unsafe { Outgoing::new(sendbuf, sendcount.into(), sendtype, dest, false) };
                let mut incoming = Incoming::new(recvbuf, recvcount.into(), recvtype, source, false)
                    .watched((recvbuf, recvcount.into(), recvtype), source, comm);
                let (sb, sc, st) = outgoing.args(sendbuf, sendcount, sendtype);
                let call = sendrecvs!(@exchange $name [$($int)?] $count, (sb, sc, st), (dest, sendtag, source, recvtag, comm));
                let received = (recvbuf, recvcount, recvtype);
                // SAFETY: the program's receive buffer and status, as the function requires.
                unsafe { receive_blocking(stringify!($name), &mut incoming, received, status, call) }
            })
        }

        #[doc = concat!("`", stringify!($replace), "`: on the engine's path, an `MPI_Sendrecv` of")]
        /// packed bytes (the data sent are packed before any arrive), unpacked into the same
        /// buffer.
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $replace(buf: *mut c_void, count: $count, datatype: MPI_Datatype, dest: c_int, sendtag: c_int, source: c_int, recvtag: c_int, comm: MPI_Comm, status: *mut MPI_Status) -> c_int {
            export(stringify!($replace), || {
                if standalone() {
                    let message = (buf.cast_const(), count.into(), datatype);
                    let (source, received) = ((source, recvtag, comm), (buf, count.into(), datatype));
                    // SAFETY: the program's buffer and status, as the function requires; the
                    // data sent are packed before the data received are written.
                    return unsafe {
                        serial::sendrecv(stringify!($replace), message, (dest, sendtag), received, source, status)
                    };
                }
                // SAFETY: the program's buffer holds the data to send.
                if let Some(packed) = unsafe { held_replace(source, recvtag, comm, (buf, count.into(), datatype)) } {
                    let (mut held, bytes) = packed;
                    // The message a probe held is here: the data to send are copied out, the
                    // held message received in their place, then the copy sent.
                    // SAFETY: the program's buffer and status, as the function requires.
                    return unsafe {
                        let received = $mrecv(buf, count, datatype, &mut held, status);
                        match received == crate::abi::MPI_SUCCESS {
                            true => super::send::$send(bytes.as_ptr().cast(), <$count>::try_from(bytes.len()).unwrap_or(<$count>::MAX),
                                crate::abi::MPI_BYTE, dest, sendtag, comm),
                            false => received,
                        }
                    };
                }
                let mut incoming = Incoming::in_place(buf, count.into(), datatype, source)
                    .watched((buf, count.into(), datatype), source, comm);
                if !incoming.packs() {
                    // The MPI behind's own exchange in place, looked at when it returns.
                    let call = |(_, _, _), status| {
                        or_int_form!(forward!($replace: fn(*mut c_void, $count, MPI_Datatype, c_int, c_int, c_int,
                            c_int, MPI_Comm, *mut MPI_Status) -> c_int,
                            buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
                            $replace [$($rint)?]; on Comm(comm); widths &[]; after Return;
                            messages [(c, t) = (count, datatype)]; (buf, c, t, dest, sendtag, source, recvtag, comm, status))
                    };
                    // SAFETY: the program's buffer and status, as the function requires.
                    return unsafe { receive_blocking(stringify!($replace), &mut incoming, (buf, count, datatype), status, call) };
                }
                // SAFETY: the program's buffer holds the message sent.
                let outgoing = unsafe { Outgoing::new(buf, count.into(), datatype, dest, false) };
                let (sb, sc, st) = outgoing.args(buf, count, datatype);
                let call = sendrecvs!(@exchange $name [$($int)?] $count, (sb, sc, st), (dest, sendtag, source, recvtag, comm));
                // SAFETY: the program's buffer takes the message received, as the function requires.
                unsafe { receive_blocking(stringify!($replace), &mut incoming, (buf, count, datatype), status, call) }
            })
        }
    };
}

/// `MPI_Isendrecv` and `MPI_Isendrecv_replace` (`$sendrecv`: the blocking function of the
/// same arguments, with a status instead of a request): the MPI behind's in drop-in mode; in
/// the one-process world the exchange is done when it starts, and its request is complete at
/// once with the status of the message received.
/// A `_c` function names its `int` form `$int` and its messages, counts `$c` of types `$t`.
macro_rules! isendrecvs {
    ($($name:ident $(as $int:ident [$($c:ident $t:ident),*])? => $sendrecv:ident ($($arg:ident: $ty:ty),*)
        receiving ($rb:ident, $rc:ident, $rt:ident, $source:ident, $tag:ident, $comm:ident)
        $held:ident ($($held_arg:ident),*);)*) => {$(
        #[doc = concat!("`", stringify!($name), "`: in the one-process world, `", stringify!($sendrecv), "` and a request complete at once.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty,)* request: *mut MPI_Request) -> c_int {
            export(stringify!($name), || {
                if !standalone() {
                    if held::holds($source, $tag, $comm) && !request.is_null() {
                        // SAFETY: the program's buffers and request, as the function requires.
                        if let Some(rc) = unsafe { $held($($held_arg,)* request) } {
                            return rc;
                        }
                    }
                    let rc = or_int_form!(forward!($name: fn($($ty,)* *mut MPI_Request) -> c_int, $($arg,)* request);
                        $name [$($int)?]; on Comm(last!($($arg),*)); widths &[]; after Return;
                        messages [$($(($c, $t) = ($c, $t)),*)?]; ($($arg,)* request));
                    let Some(rc) = rc else {
                        return missing_behind(stringify!($name));
                    };
                    // SAFETY: the MPI behind made the request when it succeeded.
                    unsafe { watch_request(rc, request, ($rb, $rc.into(), $rt), $source, $comm) };
                    return rc;
                }
                let checked = crate::ffi::guard(stringify!($name), || crate::ffi::check_out(request, "request"));
                if checked != crate::abi::MPI_SUCCESS {
                    return checked;
                }
                let mut status = crate::dropin::comm::empty_status();
                // SAFETY: the caller's arguments, as the blocking function takes them.
                let rc = unsafe { $sendrecv($($arg,)* &mut status) };
                if rc != crate::abi::MPI_SUCCESS {
                    return rc;
                }
                // SAFETY: checked non-NULL; the caller's request.
                crate::ffi::guard(stringify!($name), || unsafe { serial::completed_with(stringify!($name), request, &status) })
            })
        }
    )*};
}

/// Has the receive of an `MPI_Isendrecv` or `MPI_Isendrecv_replace` whose MPI behind's call
/// answered `rc` with `request` look at what it gets, where messages go through rings.
///
/// # Safety
/// When `rc` is success, `request` holds the request the MPI behind made.
unsafe fn watch_request(
    rc: c_int,
    request: *const MPI_Request,
    message: Message<*mut c_void, i64>,
    source: c_int,
    comm: MPI_Comm,
) {
    if rc == crate::abi::MPI_SUCCESS {
        let incoming = Incoming::unpacked().watched(message, source, comm);
        // SAFETY: the caller's contract.
        unsafe { incoming.keep(rc, request, false) };
    }
}

/// `MPI_Isendrecv` (`$mrecv`, `$isend`: the matched receive and nonblocking send of the same
/// count type) where a probe held the message it receives: that message is received now (it
/// is here), and the request is the send's, whose completion reports the receive's status.
/// `None` where the held message was taken by another thread first.
macro_rules! isendrecv_held {
    ($fn_name:ident, $count:ty, $mrecv:ident, $isend:ident) => {
        /// See [`isendrecv_held!`].
        ///
        /// # Safety
        /// As for the MPI function.
        #[allow(clippy::too_many_arguments)]
        unsafe fn $fn_name(
            sendbuf: *const c_void,
            sendcount: $count,
            sendtype: MPI_Datatype,
            dest: c_int,
            sendtag: c_int,
            recvbuf: *mut c_void,
            recvcount: $count,
            recvtype: MPI_Datatype,
            source: c_int,
            recvtag: c_int,
            comm: MPI_Comm,
            request: *mut MPI_Request,
        ) -> Option<c_int> {
            let mut held = held::take(source, recvtag, comm)?;
            let mut received = crate::dropin::comm::empty_status();
            // SAFETY: the caller's contract; the message a probe held.
            let rc = unsafe { $mrecv(recvbuf, recvcount, recvtype, &mut held, &mut received) };
            if rc != crate::abi::MPI_SUCCESS {
                return Some(rc);
            }
            // SAFETY: the caller's contract.
            let rc = unsafe {
                super::send::$isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, request)
            };
            // SAFETY: the request the send made when it succeeded.
            unsafe { crate::dropin::comm::report_received(rc, request, received, None) };
            Some(rc)
        }
    };
}

/// `MPI_Isendrecv_replace` where a probe held the message it receives: the data to send are
/// packed, the held message received in their place, and the packed bytes sent, kept with
/// the send's request, whose completion reports the receive's status. `None` where none is
/// held or the engine cannot pack the type (the MPI behind's own).
macro_rules! isendrecv_replace_held {
    ($fn_name:ident, $count:ty, $mrecv:ident, $isend:ident) => {
        /// See [`isendrecv_replace_held!`].
        ///
        /// # Safety
        /// As for the MPI function.
        #[allow(clippy::too_many_arguments)]
        unsafe fn $fn_name(
            buf: *mut c_void,
            count: $count,
            datatype: MPI_Datatype,
            dest: c_int,
            sendtag: c_int,
            source: c_int,
            recvtag: c_int,
            comm: MPI_Comm,
            request: *mut MPI_Request,
        ) -> Option<c_int> {
            let message = (buf, count.into(), datatype);
            // SAFETY: the caller's contract.
            let (mut held, bytes) = unsafe { held_replace(source, recvtag, comm, message) }?;
            let mut received = crate::dropin::comm::empty_status();
            // SAFETY: the caller's contract; the message a probe held.
            let rc = unsafe { $mrecv(buf, count, datatype, &mut held, &mut received) };
            if rc != crate::abi::MPI_SUCCESS {
                return Some(rc);
            }
            let length = <$count>::try_from(bytes.len()).unwrap_or(<$count>::MAX);
            // SAFETY: the packed bytes stay with the request until it completes.
            let rc = unsafe {
                super::send::$isend(
                    bytes.as_ptr().cast(),
                    length,
                    crate::abi::MPI_BYTE,
                    dest,
                    sendtag,
                    comm,
                    request,
                )
            };
            // SAFETY: the request the send made when it succeeded.
            unsafe { crate::dropin::comm::report_received(rc, request, received, Some(bytes)) };
            Some(rc)
        }
    };
}

// In braces: these define helpers, not exported functions (`build.rs` lists the `MPI_`
// names of parenthesised invocations as exported).
isendrecv_held! { isendrecv_held, c_int, MPI_Mrecv, MPI_Isend }
isendrecv_held! { isendrecv_held_c, MPI_Count, MPI_Mrecv_c, MPI_Isend_c }
isendrecv_replace_held! { isendrecv_replace_held, c_int, MPI_Mrecv, MPI_Isend }
isendrecv_replace_held! { isendrecv_replace_held_c, MPI_Count, MPI_Mrecv_c, MPI_Isend_c }

isendrecvs! {
    MPI_Isendrecv => MPI_Sendrecv(sendbuf: *const c_void, sendcount: c_int, sendtype: MPI_Datatype, dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: c_int, recvtype: MPI_Datatype, source: c_int, recvtag: c_int, comm: MPI_Comm)
        receiving (recvbuf, recvcount, recvtype, source, recvtag, comm)
        isendrecv_held (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm);
    MPI_Isendrecv_c as MPI_Isendrecv [sendcount sendtype, recvcount recvtype] => MPI_Sendrecv_c(sendbuf: *const c_void, sendcount: MPI_Count, sendtype: MPI_Datatype, dest: c_int, sendtag: c_int, recvbuf: *mut c_void, recvcount: MPI_Count, recvtype: MPI_Datatype, source: c_int, recvtag: c_int, comm: MPI_Comm)
        receiving (recvbuf, recvcount, recvtype, source, recvtag, comm)
        isendrecv_held_c (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm);
    MPI_Isendrecv_replace => MPI_Sendrecv_replace(buf: *mut c_void, count: c_int, datatype: MPI_Datatype, dest: c_int, sendtag: c_int, source: c_int, recvtag: c_int, comm: MPI_Comm)
        receiving (buf, count, datatype, source, recvtag, comm)
        isendrecv_replace_held (buf, count, datatype, dest, sendtag, source, recvtag, comm);
    MPI_Isendrecv_replace_c as MPI_Isendrecv_replace [count datatype] => MPI_Sendrecv_replace_c(buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, dest: c_int, sendtag: c_int, source: c_int, recvtag: c_int, comm: MPI_Comm)
        receiving (buf, count, datatype, source, recvtag, comm)
        isendrecv_replace_held_c (buf, count, datatype, dest, sendtag, source, recvtag, comm);
}

blocking_receives!(c_int: MPI_Recv, MPI_Mrecv);
blocking_receives!(MPI_Count: MPI_Recv_c as MPI_Recv, MPI_Mrecv_c as MPI_Mrecv);
request_receives!(c_int: MPI_Irecv, MPI_Recv_init, MPI_Imrecv);
request_receives!(MPI_Count: MPI_Irecv_c as MPI_Irecv, MPI_Recv_init_c as MPI_Recv_init,
    MPI_Imrecv_c as MPI_Imrecv);
sendrecvs!(c_int: MPI_Sendrecv, MPI_Sendrecv_replace; MPI_Send, MPI_Mrecv);
sendrecvs!(MPI_Count: MPI_Sendrecv_c as MPI_Sendrecv, MPI_Sendrecv_replace_c as MPI_Sendrecv_replace;
    MPI_Send_c, MPI_Mrecv_c);
