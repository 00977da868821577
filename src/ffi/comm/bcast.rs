//! `MPI_Bcast`, `MPI_Ibcast` and their `_c` forms. On the engine's path the root packs and
//! every process broadcasts `count * size` `MPI_BYTE`s, which the others unpack (when the
//! call returns, or when the request of `MPI_Ibcast` completes); the type signatures of a
//! broadcast match, so every process moves the same number of bytes, whichever path each
//! takes.

use super::int_forms::or_int_form;
use super::persistent_alone::persistent_in_one_process;
use super::serial::at_once;
use super::{guard, missing_behind};
use crate::abi::p2p::MPI_PROC_NULL;
use crate::abi::{MPI_Comm, MPI_Count, MPI_Datatype, MPI_Info, MPI_Request, MPI_ERR_ROOT};
use crate::behind::forward;
use crate::dropin::comm::blocks::is_root;
use crate::dropin::comm::collective::{After, Collective};
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

/// The broadcast of `count` copies of `datatype` at `buffer` from `root` over the MPI behind:
/// on the engine's path where the type takes it. `call` makes the MPI behind's call with the
/// buffer, count and type it moves; the data land as `after` says (when the call returns, or
/// when its request completes). `None`: the MPI behind lacks the function.
///
/// # Safety
/// As for the MPI function.
unsafe fn over_behind<C: Copy + Into<i64> + From<i32>>(
    (buffer, count, datatype): (*mut c_void, C, MPI_Datatype),
    root: c_int,
    comm: MPI_Comm,
    call: impl Fn(*mut c_void, C, MPI_Datatype) -> Option<c_int>,
    after: After,
) -> Option<c_int> {
    // Which side this process is on costs two calls of the MPI behind: asked only for a type
    // that may be packed.
    if root == MPI_PROC_NULL || !route::may_pack(datatype) {
        return call(buffer, count, datatype);
    }
    let mut kept = Collective::default();
    let rc = if is_root(root, comm) {
        // SAFETY: the root's buffer holds the data, as the function requires (packed at each
        // start of a persistent broadcast).
        let outgoing =
            unsafe { Outgoing::collective(buffer, count.into(), datatype, after.persistent()) };
        let (b, c, t) = outgoing.args(buffer, count, datatype);
        let rc = call(b.cast_mut(), c, t);
        let (sent, refill) = outgoing.into_kept();
        kept.sent(sent);
        // SAFETY: the root's buffer holds the data; the collective keeps the buffer.
        unsafe { kept.refills(refill, after) };
        rc
    } else {
        let incoming = Incoming::collective(buffer, count.into(), datatype, false);
        let (b, c, t) = incoming.args(buffer, count, datatype);
        let rc = call(b, c, t);
        kept.lands(incoming.into_landing());
        rc
    };
    if let Some(rc) = rc {
        // SAFETY: the buffer takes the data; a broadcast delivers all of them.
        unsafe { kept.finish(rc, after) };
    }
    rc
}

/// Defines each broadcast and its nonblocking form.
macro_rules! bcasts {
    // The call of the MPI behind's `$function` (or of its `int` form `$int`) with the buffer,
    // count and type it moves, the broadcast's `$root` and `$comm` and its last arguments
    // `$last` (none, the request, or the info and the request), which completes as
    // `After::$after` says.
    (@call $function:ident [$($int:ident)?] $count:ty; $root:ident, $comm:ident;
        [$($last:ident: $last_ty:ty),*]; $after:ident $(($request:expr))?) => {
        |b: *mut c_void, c: $count, t: MPI_Datatype| {
            or_int_form!(forward!($function: fn(*mut c_void, $count, MPI_Datatype, c_int, MPI_Comm $(, $last_ty)*) -> c_int,
                b, c, t, $root, $comm $(, $last)*);
                $function [$($int)?]; on Comm($comm); widths &[]; after $after $(($request))?;
                messages [(c, t) = (c, t)]; (b, c, t, $root, $comm $(, $last)*))
        }
    };
    ($($count:ty: $name:ident / $iname:ident / $pname:ident $(as $int:ident / $iint:ident / $pint:ident)?),*) => {$(
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
                if crate::behind::backend().is_none() {
                    return standalone(stringify!($name), count.into(), root, comm);
                }
                let call = bcasts!(@call $name [$($int)?] $count; root, comm; []; Return);
                // SAFETY: the caller's buffer, passed on under the same contract.
                unsafe { over_behind((buffer, count, datatype), root, comm, call, After::Return) }
                    .unwrap_or_else(|| missing_behind(stringify!($name)))
            })
        }

        #[doc = concat!("`", stringify!($iname), "`, on the engine's path for a message it packs, unpacked when the request completes.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $iname(
            buffer: *mut c_void,
            count: $count,
            datatype: MPI_Datatype,
            root: c_int,
            comm: MPI_Comm,
            request: *mut MPI_Request,
        ) -> c_int {
            export(stringify!($iname), || {
                if crate::behind::backend().is_none() {
                    // SAFETY: the caller's arguments, as the blocking function takes them.
                    return unsafe { at_once(stringify!($iname), request, || $name(buffer, count, datatype, root, comm)) };
                }
                let call = bcasts!(@call $iname [$($iint)?] $count; root, comm;
                    [request: *mut MPI_Request]; Request(request));
                let after = After::Request(request);
                // SAFETY: the caller's buffer, passed on under the same contract.
                unsafe { over_behind((buffer, count, datatype), root, comm, call, after) }
                    .unwrap_or_else(|| missing_behind(stringify!($iname)))
            })
        }

        #[doc = concat!("`", stringify!($pname), "`, on the engine's path for a message it packs: the root packs at each start, the others unpack at each completion.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $pname(
            buffer: *mut c_void,
            count: $count,
            datatype: MPI_Datatype,
            root: c_int,
            comm: MPI_Comm,
            info: MPI_Info,
            request: *mut MPI_Request,
        ) -> c_int {
            export(stringify!($pname), || {
                if crate::behind::backend().is_none() {
                    return persistent_in_one_process!($pname => $name(buffer, count, datatype, root, comm), request);
                }
                let call = bcasts!(@call $pname [$($pint)?] $count; root, comm;
                    [info: MPI_Info, request: *mut MPI_Request]; Persistent(request));
                let after = After::Persistent(request);
                // SAFETY: the caller's buffer, passed on under the same contract.
                unsafe { over_behind((buffer, count, datatype), root, comm, call, after) }
                    .unwrap_or_else(|| missing_behind(stringify!($pname)))
            })
        }
    )*};
}

bcasts!(c_int: MPI_Bcast / MPI_Ibcast / MPI_Bcast_init,
    MPI_Count: MPI_Bcast_c / MPI_Ibcast_c / MPI_Bcast_init_c as MPI_Bcast / MPI_Ibcast / MPI_Bcast_init);
