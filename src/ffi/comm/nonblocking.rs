//! The nonblocking collectives (`MPI_Ibarrier`, `MPI_Iallreduce`,
//! `MPI_Ireduce` and the others) and the persistent ones (`MPI_Barrier_init`,
//! `MPI_Allreduce_init`, ...), each with its `_c` form, both made from one definition. In
//! drop-in mode each is the MPI behind's. The nonblocking forms of `MPI_Bcast`, of the
//! collectives with a block per process (`MPI_Ialltoall`, `MPI_Igatherv`, ...) and of the
//! neighbourhood collectives are made with their blocking ones instead, on the engine's path
//! ([`super::bcast`], [`super::blocks`], [`super::varying`], [`super::neighbourhood`]),
//! through [`serial::at_once`] in the one-process world; so are the persistent forms of
//! `MPI_Bcast` and of the collectives with a block per process (`MPI_Alltoall_init`, ...),
//! through [`super::persistent_alone`] there. In the one-process
//! world nothing waits for another process: a nonblocking collective is done when it is started (by the blocking function of
//! the same arguments) and its request is complete at once (`MPI_Wait` and `MPI_Test` report it
//! with an empty status); a persistent one runs the blocking function at each `MPI_Start`.

use super::int_forms::{self, or_int_form};
use super::neighbourhood::*;
use super::persistent_alone::persistent_in_one_process;
use super::reductions::*;
use super::varying::*;
use super::{missing_behind, serial, standalone};
use crate::abi::{MPI_Aint, MPI_Comm, MPI_Count, MPI_Datatype, MPI_Info, MPI_Op, MPI_Request};
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

/// Defines the nonblocking form of each collective of one block per process.
macro_rules! nonblocking_blocks {
    ($($count:ty: $($name:ident)?, $init:ident $(as $iint:ident)? => $blocking:ident [$($root:ident)?]),*) => {$(
        nonblocking!($($name)?, $init $(as $iint)? => $blocking
            (sendbuf: *const c_void, sendcount: $count, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcount: $count, recvtype: MPI_Datatype, $($root: c_int,)? comm: MPI_Comm));
    )*};
}

/// Defines the nonblocking forms of `MPI_Gatherv` / `MPI_Allgatherv`.
macro_rules! nonblocking_gathervs {
    ($($count:ty: $displ:ty: $($name:ident)?, $init:ident $(as $iint:ident)? => $blocking:ident [$($root:ident)?]),*) => {$(
        nonblocking!($($name)?, $init $(as $iint)? $([$root])? => $blocking
            (sendbuf: *const c_void, sendcount: $count, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const $count, displs: *const $displ, recvtype: MPI_Datatype, $($root: c_int,)? comm: MPI_Comm));
    )*};
}

nonblocking_gathervs!(c_int: c_int: , MPI_Gatherv_init => MPI_Gatherv [root], MPI_Count: MPI_Aint: , MPI_Gatherv_init_c as MPI_Gatherv_init => MPI_Gatherv_c [root]);
nonblocking_gathervs!(c_int: c_int: , MPI_Allgatherv_init => MPI_Allgatherv [], MPI_Count: MPI_Aint: , MPI_Allgatherv_init_c as MPI_Allgatherv_init => MPI_Allgatherv_c []);

nonblocking!(, MPI_Scatterv_init => MPI_Scatterv
    (sendbuf: *const c_void, sendcounts: *const c_int, displs: *const c_int, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcount: c_int, recvtype: MPI_Datatype, root: c_int, comm: MPI_Comm));
nonblocking!(, MPI_Scatterv_init_c as MPI_Scatterv_init [root] => MPI_Scatterv_c
    (sendbuf: *const c_void, sendcounts: *const MPI_Count, displs: *const MPI_Aint, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcount: MPI_Count, recvtype: MPI_Datatype, root: c_int, comm: MPI_Comm));
nonblocking!(, MPI_Alltoallv_init => MPI_Alltoallv
    (sendbuf: *const c_void, sendcounts: *const c_int, sdispls: *const c_int, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const c_int, rdispls: *const c_int, recvtype: MPI_Datatype, comm: MPI_Comm));
nonblocking!(, MPI_Alltoallv_init_c as MPI_Alltoallv_init => MPI_Alltoallv_c
    (sendbuf: *const c_void, sendcounts: *const MPI_Count, sdispls: *const MPI_Aint, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const MPI_Count, rdispls: *const MPI_Aint, recvtype: MPI_Datatype, comm: MPI_Comm));
nonblocking!(, MPI_Alltoallw_init => MPI_Alltoallw
    (sendbuf: *const c_void, sendcounts: *const c_int, sdispls: *const c_int, sendtypes: *const MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const c_int, rdispls: *const c_int, recvtypes: *const MPI_Datatype, comm: MPI_Comm));
nonblocking!(, MPI_Alltoallw_init_c as MPI_Alltoallw_init => MPI_Alltoallw_c
    (sendbuf: *const c_void, sendcounts: *const MPI_Count, sdispls: *const MPI_Aint, sendtypes: *const MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const MPI_Count, rdispls: *const MPI_Aint, recvtypes: *const MPI_Datatype, comm: MPI_Comm));

nonblocking_blocks!(c_int: , MPI_Neighbor_allgather_init => MPI_Neighbor_allgather [], MPI_Count: , MPI_Neighbor_allgather_init_c as MPI_Neighbor_allgather_init => MPI_Neighbor_allgather_c []);
nonblocking_blocks!(c_int: , MPI_Neighbor_alltoall_init => MPI_Neighbor_alltoall [], MPI_Count: , MPI_Neighbor_alltoall_init_c as MPI_Neighbor_alltoall_init => MPI_Neighbor_alltoall_c []);
nonblocking_gathervs!(c_int: c_int: , MPI_Neighbor_allgatherv_init => MPI_Neighbor_allgatherv [], MPI_Count: MPI_Aint: , MPI_Neighbor_allgatherv_init_c as MPI_Neighbor_allgatherv_init => MPI_Neighbor_allgatherv_c []);
nonblocking!(, MPI_Neighbor_alltoallv_init => MPI_Neighbor_alltoallv
    (sendbuf: *const c_void, sendcounts: *const c_int, sdispls: *const c_int, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const c_int, rdispls: *const c_int, recvtype: MPI_Datatype, comm: MPI_Comm));
nonblocking!(, MPI_Neighbor_alltoallv_init_c as MPI_Neighbor_alltoallv_init => MPI_Neighbor_alltoallv_c
    (sendbuf: *const c_void, sendcounts: *const MPI_Count, sdispls: *const MPI_Aint, sendtype: MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const MPI_Count, rdispls: *const MPI_Aint, recvtype: MPI_Datatype, comm: MPI_Comm));
nonblocking!(, MPI_Neighbor_alltoallw_init => MPI_Neighbor_alltoallw
    (sendbuf: *const c_void, sendcounts: *const c_int, sdispls: *const MPI_Aint, sendtypes: *const MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const c_int, rdispls: *const MPI_Aint, recvtypes: *const MPI_Datatype, comm: MPI_Comm));
nonblocking!(, MPI_Neighbor_alltoallw_init_c as MPI_Neighbor_alltoallw_init => MPI_Neighbor_alltoallw_c
    (sendbuf: *const c_void, sendcounts: *const MPI_Count, sdispls: *const MPI_Aint, sendtypes: *const MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const MPI_Count, rdispls: *const MPI_Aint, recvtypes: *const MPI_Datatype, comm: MPI_Comm));
