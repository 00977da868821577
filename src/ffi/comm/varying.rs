//! The collectives with a count and a displacement per process: `MPI_Gatherv`,
//! `MPI_Scatterv`, `MPI_Allgatherv`, `MPI_Alltoallv`, `MPI_Alltoallw`, the `_c` form of each,
//! and their nonblocking and persistent forms. In drop-in mode each is the MPI behind's, with
//! the sides the engine packs as bytes ([`super::varying_engine`]). In the one-process world
//! the one block moves from the send side to the receive side through the engine ([`copy`]),
//! each side at its displacement (in extents of its type, or in bytes for `MPI_Alltoallw`).

use super::one_process::{copy, Side};
use super::serial::at_once;
use super::varying_engine::{
    allgather_varied, alltoall_varied, gather_varied, scatter_varied, Number, Single, Types, Varied,
};
use super::{guard_on, missing_behind, standalone};
use crate::abi::p2p::MPI_IN_PLACE;
use crate::abi::{MPI_Aint, MPI_Comm, MPI_Count, MPI_Datatype, MPI_Info, MPI_Request};
use crate::behind::forward;
use crate::dropin::comm::blocks::Exchange;
use crate::dropin::comm::collective::After;
pub(super) use crate::dropin::comm::varying::Unit;
use crate::error::{MpiError, MpiResult};
use crate::ffi::{export, read_in, with_datatype};
use std::ffi::c_void;
use std::os::raw::c_int;

/// The one process's side of a collective: `count` copies of `datatype` at `buffer` moved
/// by `displacement` (`MPI_IN_PLACE` stays where it is).
pub(super) fn side(
    buffer: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    displacement: i64,
    unit: Unit,
) -> MpiResult<Side> {
    if buffer.expose_provenance() == MPI_IN_PLACE || displacement == 0 {
        return Ok(Side {
            buffer,
            count,
            datatype,
        });
    }
    let bytes = match unit {
        Unit::Bytes => Some(displacement),
        Unit::Extents => with_datatype(datatype, |dt| dt.extent())?.checked_mul(displacement),
    }
    .ok_or_else(|| MpiError::overflow("the displacement"))?;
    Ok(Side {
        buffer: buffer.wrapping_byte_offset(bytes as isize),
        count,
        datatype,
    })
}

/// Reads the one process's entry of a per-process array argument.
///
/// # Safety
/// A non-NULL `array` holds an entry per process.
unsafe fn first<T: Copy + Into<i64>>(array: *const T, name: &str) -> MpiResult<i64> {
    // SAFETY: the caller's contract.
    Ok(unsafe { read_in(array, name)? }.into())
}

/// Defines the exported `$name`, its nonblocking form `$iname` and its persistent form
/// `$pname` from their C arguments. In drop-in mode each makes its sides `$send` and `$recv`
/// and hands them to `$helper` (with `$extra`) with the call of the MPI behind's function of
/// its name, which takes the sides as `$s` and `$r` and passes `$pass` (then the request, or
/// the info and the request): the engine's path for the sides it packs
/// ([`super::varying_engine`]; a persistent one packs at each start). In the one-process
/// world `$name` answers `$standalone`, `$iname` is `$name` with a request complete at once,
/// and each start of `$pname` runs `$name`.
macro_rules! varying_collective {
    (
        $(#[$doc:meta])*
        fn $name:ident / $iname:ident / $pname:ident $(as $int:ident / $iint:ident / $pint:ident)? ($($arg:ident: $ty:ty),* $(,)?)
        root [$($root:ident)?]
        sides ($send:expr, $recv:expr) taken as ($s:ident: $sty:ty, $r:ident: $rty:ty)
        passing ($($pass:expr),* $(,)?)
        via $helper:ident ($($extra:expr),*)
        standalone $standalone:expr
    ) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> c_int {
            export(stringify!($name), || {
                if standalone() {
                    return $standalone;
                }
                let call = varying_collective!(@call $name [$($int)?] ($($arg: $ty),*) [$($root)?]
                    ($s: $sty, $r: $rty) ($($pass),*) []; Return);
                // SAFETY: the caller's arguments, passed on under the same contract.
                unsafe { $helper($send, $recv, $($extra,)* call, After::Return) }
            })
        }

        #[doc = concat!("The nonblocking `", stringify!($name), "`: the bytes of the blocks it lands are unpacked when the request completes.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $iname($($arg: $ty,)* request: *mut MPI_Request) -> c_int {
            export(stringify!($iname), || {
                if standalone() {
                    // SAFETY: the caller's arguments, as the blocking function takes them.
                    return unsafe { at_once(stringify!($iname), request, || $name($($arg),*)) };
                }
                let call = varying_collective!(@call $iname [$($iint)?] ($($arg: $ty),*) [$($root)?]
                    ($s: $sty, $r: $rty) ($($pass),*) [request: *mut MPI_Request]; Request(request));
                // SAFETY: the caller's arguments, passed on under the same contract.
                unsafe { $helper($send, $recv, $($extra,)* call, After::Request(request)) }
            })
        }

        #[doc = concat!("The persistent `", stringify!($name), "`: each start packs the blocks the engine moves, each completion unpacks the blocks it lands.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $pname($($arg: $ty,)* info: MPI_Info, request: *mut MPI_Request) -> c_int {
            export(stringify!($pname), || {
                if standalone() {
                    return $crate::ffi::comm::persistent_alone::persistent_in_one_process!($pname => $name($($arg),*), request);
                }
                let call = varying_collective!(@call $pname [$($pint)?] ($($arg: $ty),*) [$($root)?]
                    ($s: $sty, $r: $rty) ($($pass),*) [info: MPI_Info, request: *mut MPI_Request]; Persistent(request));
                // SAFETY: the caller's arguments, passed on under the same contract.
                unsafe { $helper($send, $recv, $($extra,)* call, After::Persistent(request)) }
            })
        }
    };
    // The call of the MPI behind's `$fname` (or of its `int` form `$fint`), with the sides
    // `$s` and `$r` passed as `$pass` and then the arguments `$more`, finishing `$after`.
    (@call $fname:ident [$($fint:ident)?] ($($arg:ident: $ty:ty),*) [$($root:ident)?]
        ($s:ident: $sty:ty, $r:ident: $rty:ty) ($($pass:expr),*) [$($more:ident: $mty:ty),*]; $($after:tt)*) => {
        |$s: $sty, $r: $rty| {
            let rc = $crate::ffi::comm::int_forms::or_int_form!(forward!($fname: fn($($ty),* $(, $mty)*) -> c_int, $($pass),* $(, $more)*);
                $fname [$($fint)?];
                on Comm(last!($($arg),*));
                widths &$crate::ffi::comm::int_forms::widths(stringify!($fname), last!($($arg),*), None $(.or(Some($root)))?, first!($($arg),*));
                after $($after)*; messages []; ($($pass),* $(, $more)*));
            rc.unwrap_or_else(|| missing_behind(stringify!($fname)))
        }
    };
}

pub(super) use varying_collective;

/// Defines `MPI_Gatherv` / `MPI_Allgatherv` (`$root`: whether it has a root), their `_c`
/// forms and their nonblocking and persistent forms.
macro_rules! gathervs {
    ($count:ty: $displ:ty: $name:ident / $iname:ident / $pname:ident $(as $int:ident / $iint:ident / $pint:ident)? [$($root:ident)?] $helper:ident($lead:expr)) => {
        varying_collective! {
            #[doc = concat!("`", stringify!($name), "`: in the one-process world the block moves to its displacement.")]
            fn $name / $iname / $pname $(as $int / $iint / $pint)? (
                sendbuf: *const c_void,
                sendcount: $count,
                sendtype: MPI_Datatype,
                recvbuf: *mut c_void,
                recvcounts: *const $count,
                displs: *const $displ,
                recvtype: MPI_Datatype,
                $($root: c_int,)?
                comm: MPI_Comm,
            )
            root [$($root)?]
            sides (
                Single { buffer: sendbuf, count: sendcount, datatype: sendtype },
                Varied { buffer: recvbuf.cast_const(), counts: recvcounts, displs, types: recvtype }
            )
            taken as (s: Single<$count>, r: Varied<$count, $displ, MPI_Datatype>)
            passing (s.buffer, s.count, s.datatype, r.buffer.cast_mut(), r.counts, r.displs, r.types, $($root,)? comm)
            via $helper(($lead, comm))
            standalone guard_on(stringify!($name), comm, || {
                let root: Option<c_int> = None $(.or(Some($root)))?;
                // SAFETY: the caller's arrays of one entry per process.
                let (count, displ) = unsafe { (first(recvcounts, "recvcounts")?, first(displs, "displs")?) };
                let sent = side(sendbuf, sendcount.into(), sendtype, 0, Unit::Extents)?;
                let received = side(recvbuf.cast_const(), count, recvtype, displ, Unit::Extents)?;
                // SAFETY: the caller's buffers.
                unsafe { copy(sent, received, comm, root) }
            })
        }
    };
}

gathervs!(c_int: c_int: MPI_Gatherv / MPI_Igatherv / MPI_Gatherv_init [root] gather_varied(root));
gathervs!(MPI_Count: MPI_Aint: MPI_Gatherv_c / MPI_Igatherv_c / MPI_Gatherv_init_c as MPI_Gatherv / MPI_Igatherv / MPI_Gatherv_init [root] gather_varied(root));
gathervs!(c_int: c_int: MPI_Allgatherv / MPI_Iallgatherv / MPI_Allgatherv_init [] allgather_varied(Exchange::Everyone));
gathervs!(MPI_Count: MPI_Aint: MPI_Allgatherv_c / MPI_Iallgatherv_c / MPI_Allgatherv_init_c as MPI_Allgatherv / MPI_Iallgatherv / MPI_Allgatherv_init [] allgather_varied(Exchange::Everyone));

/// Defines `MPI_Scatterv`, `MPI_Scatterv_c` and their nonblocking and persistent forms.
macro_rules! scattervs {
    ($count:ty: $displ:ty: $name:ident / $iname:ident / $pname:ident $(as $int:ident / $iint:ident / $pint:ident)?) => {
        varying_collective! {
            #[doc = concat!("`", stringify!($name), "`: in the one-process world the block moves from its displacement.")]
            fn $name / $iname / $pname $(as $int / $iint / $pint)? (
                sendbuf: *const c_void,
                sendcounts: *const $count,
                displs: *const $displ,
                sendtype: MPI_Datatype,
                recvbuf: *mut c_void,
                recvcount: $count,
                recvtype: MPI_Datatype,
                root: c_int,
                comm: MPI_Comm,
            )
            root [root]
            sides (
                Varied { buffer: sendbuf, counts: sendcounts, displs, types: sendtype },
                Single { buffer: recvbuf.cast_const(), count: recvcount, datatype: recvtype }
            )
            taken as (s: Varied<$count, $displ, MPI_Datatype>, r: Single<$count>)
            passing (s.buffer, s.counts, s.displs, s.types, r.buffer.cast_mut(), r.count, r.datatype, root, comm)
            via scatter_varied((root, comm))
            standalone guard_on(stringify!($name), comm, || {
                // SAFETY: the caller's arrays of one entry per process.
                let (count, displ) = unsafe { (first(sendcounts, "sendcounts")?, first(displs, "displs")?) };
                let sent = side(sendbuf, count, sendtype, displ, Unit::Extents)?;
                let received = side(recvbuf.cast_const(), recvcount.into(), recvtype, 0, Unit::Extents)?;
                // SAFETY: the caller's buffers.
                unsafe { copy(sent, received, comm, Some(root)) }
            })
        }
    };
}

scattervs!(c_int: c_int: MPI_Scatterv / MPI_Iscatterv / MPI_Scatterv_init);
scattervs!(MPI_Count: MPI_Aint: MPI_Scatterv_c / MPI_Iscatterv_c / MPI_Scatterv_init_c as MPI_Scatterv / MPI_Iscatterv / MPI_Scatterv_init);

/// Defines an exported collective of `MPI_Alltoallv`'s arguments: `MPI_Alltoallv` and its
/// neighbourhood form (`$types` `MPI_Datatype`, displacements in extents) or `MPI_Alltoallw`
/// and its neighbourhood form (`$types` `*const MPI_Datatype`: a type per partner,
/// displacements in bytes), with its nonblocking and persistent forms. In drop-in mode the blocks go to and
/// from the partners `$with` says ([`alltoall_varied`]); in the one-process world `$alone`
/// answers.
macro_rules! alltoall_shaped {
    ($with:expr, $alone:path, $doc:literal; $($count:ty: $displ:ty: $types:ty: $name:ident / $iname:ident / $pname:ident $(as $int:ident / $iint:ident / $pint:ident)?),* $(,)?) => {$(
        varying_collective! {
            #[doc = concat!("`", stringify!($name), "`: in the one-process world ", $doc, ".")]
            fn $name / $iname / $pname $(as $int / $iint / $pint)? (
                sendbuf: *const c_void,
                sendcounts: *const $count,
                sdispls: *const $displ,
                sendtypes: $types,
                recvbuf: *mut c_void,
                recvcounts: *const $count,
                rdispls: *const $displ,
                recvtypes: $types,
                comm: MPI_Comm,
            )
            root []
            sides (
                Varied { buffer: sendbuf, counts: sendcounts, displs: sdispls, types: sendtypes },
                Varied { buffer: recvbuf.cast_const(), counts: recvcounts, displs: rdispls, types: recvtypes }
            )
            taken as (s: Varied<$count, $displ, $types>, r: Varied<$count, $displ, $types>)
            passing (s.buffer, s.counts, s.displs, s.types, r.buffer.cast_mut(), r.counts, r.displs, r.types, comm)
            via alltoall_varied(($with, comm))
            // SAFETY: the caller's arguments.
            standalone unsafe {
                $alone(
                    stringify!($name),
                    Varied { buffer: sendbuf, counts: sendcounts, displs: sdispls, types: sendtypes },
                    Varied { buffer: recvbuf.cast_const(), counts: recvcounts, displs: rdispls, types: recvtypes },
                    comm,
                )
            }
        }
    )*};
}

pub(super) use alltoall_shaped;

/// `MPI_Alltoallv` or `MPI_Alltoallw` in the one-process world: the block moves between its
/// displacements (from the receive side to itself with `MPI_IN_PLACE`).
///
/// # Safety
/// As for the MPI function.
unsafe fn alltoall_alone<C: Number, D: Number, T: Types>(
    function: &'static str,
    send: Varied<C, D, T>,
    recv: Varied<C, D, T>,
    comm: MPI_Comm,
) -> c_int {
    guard_on(function, comm, || {
        let in_place = send.buffer.expose_provenance() == MPI_IN_PLACE;
        // SAFETY: the caller's arrays of one entry per process (the send side's are not read
        // with MPI_IN_PLACE).
        let (sent, received) = unsafe {
            let received = side(
                recv.buffer,
                first(recv.counts, "recvcounts")?,
                recv.types.first("recvtypes")?,
                first(recv.displs, "rdispls")?,
                T::UNIT,
            )?;
            let sent = match in_place {
                true => Side {
                    buffer: send.buffer,
                    count: 0,
                    datatype: received.datatype,
                },
                false => side(
                    send.buffer,
                    first(send.counts, "sendcounts")?,
                    send.types.first("sendtypes")?,
                    first(send.displs, "sdispls")?,
                    T::UNIT,
                )?,
            };
            (sent, received)
        };
        // SAFETY: the caller's buffers.
        unsafe { copy(sent, received, comm, None) }
    })
}

alltoall_shaped!(Exchange::Everyone, alltoall_alone, "the block moves between its displacements";
    c_int: c_int: MPI_Datatype: MPI_Alltoallv / MPI_Ialltoallv / MPI_Alltoallv_init,
    MPI_Count: MPI_Aint: MPI_Datatype: MPI_Alltoallv_c / MPI_Ialltoallv_c / MPI_Alltoallv_init_c as MPI_Alltoallv / MPI_Ialltoallv / MPI_Alltoallv_init,
    c_int: c_int: *const MPI_Datatype: MPI_Alltoallw / MPI_Ialltoallw / MPI_Alltoallw_init,
    MPI_Count: MPI_Aint: *const MPI_Datatype: MPI_Alltoallw_c / MPI_Ialltoallw_c / MPI_Alltoallw_init_c as MPI_Alltoallw / MPI_Ialltoallw / MPI_Alltoallw_init,
);
