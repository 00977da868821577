//! The nonblocking reducing collectives and barrier (`MPI_Ibarrier`, `MPI_Iallreduce`,
//! `MPI_Ireduce` and the others) and their persistent forms (`MPI_Barrier_init`,
//! `MPI_Allreduce_init`, ...), each with its `_c` form, both made from one definition. In
//! drop-in mode each is the MPI behind's. The nonblocking and persistent forms of
//! `MPI_Bcast`, of the collectives with a block per process (`MPI_Ialltoall`,
//! `MPI_Gatherv_init`, ...) and of the neighbourhood collectives are made with their
//! blocking ones instead, on the engine's path ([`super::bcast`], [`super::blocks`],
//! [`super::varying`], [`super::neighbourhood`]), through [`serial::at_once`] and
//! [`super::persistent_alone`] in the one-process world. In the one-process
//! world nothing waits for another process: a nonblocking collective is done when it is started (by the blocking function of
//! the same arguments) and its request is complete at once (`MPI_Wait` and `MPI_Test` report it
//! with an empty status); a persistent one runs the blocking function at each `MPI_Start`.

use super::int_forms::{self, or_int_form};
use super::persistent_alone::persistent_in_one_process;
use super::reductions::*;
use super::{missing_behind, serial, standalone};
use crate::abi::{MPI_Comm, MPI_Count, MPI_Datatype, MPI_Info, MPI_Op, MPI_Request};
use crate::behind::forward;
use crate::ffi::export;
use std::ffi::c_void;
use std::os::raw::c_int;

/// Defines the nonblocking collective `$name` and the persistent `$init`, or the persistent
/// one alone where `$name` is left out (the nonblocking one is then defined with its blocking
/// one, on the engine's path): the MPI behind's in drop-in mode; in the one-process world the blocking `$blocking` with the same arguments, now with a request
/// complete at once, or at each start of the persistent request.
macro_rules! nonblocking {
    ($name:ident $(as $int:ident)?, $init:ident $(as $iint:ident)? $([$root:ident])? => $blocking:ident ($($arg:ident: $ty:ty),*)) => {
        #[doc = concat!("`", stringify!($name), "`: in the one-process world, `", stringify!($blocking), "` and a request complete at once.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty,)* request: *mut MPI_Request) -> c_int {
            export(stringify!($name), || {
                if !standalone() {
                    let rc = or_int_form!(forward!($name: fn($($ty,)* *mut MPI_Request) -> c_int, $($arg,)* request);
                        $name [$($int)?];
                        on Comm(last!($($arg),*));
                        widths &int_forms::widths(stringify!($name), last!($($arg),*), None $(.or(Some($root)))?, first!($($arg),*));
                        after Request(request); messages []; ($($arg,)* request));
                    return rc.unwrap_or_else(|| missing_behind(stringify!($name)));
                }
                // SAFETY: the caller's arguments, as the blocking function takes them.
                unsafe { serial::at_once(stringify!($name), request, || $blocking($($arg),*)) }
            })
        }

        nonblocking!(, $init $(as $iint)? $([$root])? => $blocking ($($arg: $ty),*));
    };
    (, $init:ident $(as $iint:ident)? $([$root:ident])? => $blocking:ident ($($arg:ident: $ty:ty),*)) => {
        #[doc = concat!("`", stringify!($init), "`: in the one-process world each start runs `", stringify!($blocking), "`.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $init($($arg: $ty,)* info: MPI_Info, request: *mut MPI_Request) -> c_int {
            export(stringify!($init), || {
                if !standalone() {
                    let rc = or_int_form!(forward!($init: fn($($ty,)* MPI_Info, *mut MPI_Request) -> c_int, $($arg,)* info, request);
                        $init [$($iint)?];
                        on Comm(last!($($arg),*));
                        widths &int_forms::widths(stringify!($init), last!($($arg),*), None $(.or(Some($root)))?, first!($($arg),*));
                        after Persistent(request); messages []; ($($arg,)* info, request));
                    return rc.unwrap_or_else(|| missing_behind(stringify!($init)));
                }
                persistent_in_one_process!($init => $blocking($($arg),*), request)
            })
        }
    };
}

nonblocking!(MPI_Ibarrier, MPI_Barrier_init => MPI_Barrier
    (comm: MPI_Comm));

/// Defines the nonblocking form of each reducing collective of `MPI_Allreduce`'s shape.
macro_rules! nonblocking_allreduce_like {
    ($($count:ty: $name:ident $(as $int:ident)?, $init:ident $(as $iint:ident)? => $blocking:ident),*) => {$(
        nonblocking!($name $(as $int)?, $init $(as $iint)? => $blocking
            (sendbuf: *const c_void, recvbuf: *mut c_void, count: $count, datatype: MPI_Datatype, op: MPI_Op, comm: MPI_Comm));
    )*};
}

nonblocking_allreduce_like!(c_int: MPI_Iallreduce, MPI_Allreduce_init => MPI_Allreduce, MPI_Count: MPI_Iallreduce_c as MPI_Iallreduce, MPI_Allreduce_init_c as MPI_Allreduce_init => MPI_Allreduce_c);
nonblocking_allreduce_like!(c_int: MPI_Iscan, MPI_Scan_init => MPI_Scan, MPI_Count: MPI_Iscan_c as MPI_Iscan, MPI_Scan_init_c as MPI_Scan_init => MPI_Scan_c);
nonblocking_allreduce_like!(c_int: MPI_Iexscan, MPI_Exscan_init => MPI_Exscan, MPI_Count: MPI_Iexscan_c as MPI_Iexscan, MPI_Exscan_init_c as MPI_Exscan_init => MPI_Exscan_c);
nonblocking_allreduce_like!(c_int: MPI_Ireduce_scatter_block, MPI_Reduce_scatter_block_init => MPI_Reduce_scatter_block, MPI_Count: MPI_Ireduce_scatter_block_c as MPI_Ireduce_scatter_block, MPI_Reduce_scatter_block_init_c as MPI_Reduce_scatter_block_init => MPI_Reduce_scatter_block_c);

nonblocking!(MPI_Ireduce, MPI_Reduce_init => MPI_Reduce
    (sendbuf: *const c_void, recvbuf: *mut c_void, count: c_int, datatype: MPI_Datatype, op: MPI_Op, root: c_int, comm: MPI_Comm));
nonblocking!(MPI_Ireduce_c as MPI_Ireduce, MPI_Reduce_init_c as MPI_Reduce_init => MPI_Reduce_c
    (sendbuf: *const c_void, recvbuf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, op: MPI_Op, root: c_int, comm: MPI_Comm));
nonblocking!(MPI_Ireduce_scatter, MPI_Reduce_scatter_init => MPI_Reduce_scatter
    (sendbuf: *const c_void, recvbuf: *mut c_void, recvcounts: *const c_int, datatype: MPI_Datatype, op: MPI_Op, comm: MPI_Comm));
nonblocking!(MPI_Ireduce_scatter_c as MPI_Ireduce_scatter, MPI_Reduce_scatter_init_c as MPI_Reduce_scatter_init => MPI_Reduce_scatter_c
    (sendbuf: *const c_void, recvbuf: *mut c_void, recvcounts: *const MPI_Count, datatype: MPI_Datatype, op: MPI_Op, comm: MPI_Comm));
