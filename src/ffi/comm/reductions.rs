//! Reductions: the operations (`MPI_Op_create`, `MPI_Op_free`, `MPI_Op_commutative`),
//! `MPI_Reduce_local`, the reducing collectives (`MPI_Allreduce`, `MPI_Reduce`, `MPI_Scan`,
//! `MPI_Exscan`, `MPI_Reduce_scatter_block`, `MPI_Reduce_scatter`) and `MPI_Barrier`. In
//! drop-in mode each is the MPI behind's (reductions keep that library's path). In the
//! one-process world a reducing collective combines one contribution, which is the result:
//! the data are copied through the engine once the operation is checked against the type,
//! and `MPI_Reduce_local` computes ([`crate::reduce`] for the predefined operations, the
//! program's function for its own).

use super::int_forms::{self, or_int_form};
use super::one_process::{copy, Side};
use super::op_functions;
use super::{guard_on, missing_behind, standalone};
use crate::abi::p2p::MPI_IN_PLACE;
use crate::abi::*;
use crate::behind::forward;
use crate::error::{MpiError, MpiResult};
use crate::ffi::pack::user_memory;
use crate::ffi::{check_comm, check_out, export, guard, with_committed, write_out, CountArg};
use crate::reduce::Op;
use crate::serial::ops::{self, Function, UserOp};
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::Arc;

/// What an operation handle stands for in the one-process world.
enum Operation {
    /// A predefined operation.
    Predefined(Op),
    /// One the program made.
    User(UserOp),
}

/// The operation behind a handle; `MPI_ERR_OP` for `MPI_OP_NULL` and anything else.
fn operation(op: MPI_Op) -> MpiResult<Operation> {
    let predefined = [
        (MPI_MAX, Op::Max),
        (MPI_MIN, Op::Min),
        (MPI_SUM, Op::Sum),
        (MPI_PROD, Op::Prod),
        (MPI_LAND, Op::Land),
        (MPI_BAND, Op::Band),
        (MPI_LOR, Op::Lor),
        (MPI_BOR, Op::Bor),
        (MPI_LXOR, Op::Lxor),
        (MPI_BXOR, Op::Bxor),
        (MPI_MINLOC, Op::Minloc),
        (MPI_MAXLOC, Op::Maxloc),
        (MPI_REPLACE, Op::Replace),
        (MPI_NO_OP, Op::NoOp),
    ];
    if let Some(&(_, found)) = predefined.iter().find(|(handle, _)| *handle == op) {
        return Ok(Operation::Predefined(found));
    }
    own_op_index(op)
        .and_then(ops::get)
        .map(Operation::User)
        .ok_or_else(|| MpiError::new(MPI_ERR_OP, format!("{op:#x} is not an operation")))
}

/// The predefined operation `op` stands for, or `None` for one the program made;
/// `MPI_ERR_OP` for anything else.
pub(super) fn predefined_op(op: MPI_Op) -> MpiResult<Option<Op>> {
    Ok(match operation(op)? {
        Operation::Predefined(found) => Some(found),
        Operation::User(_) => None,
    })
}

/// Checks `op` for a reduction of `datatype`: a predefined operation must be defined for its
/// basic types, and `MPI_REPLACE` / `MPI_NO_OP` belong to one-sided accumulation only.
fn check_reduction(op: MPI_Op, datatype: MPI_Datatype) -> MpiResult<Operation> {
    let found = operation(op)?;
    if let Operation::Predefined(predefined) = found {
        if matches!(predefined, Op::Replace | Op::NoOp) {
            return Err(MpiError::new(
                MPI_ERR_OP,
                "MPI_REPLACE and MPI_NO_OP are operations of one-sided accumulation only",
            ));
        }
        let checked = with_committed(datatype, |dt| crate::reduce::check(predefined, dt))?;
        checked?;
    }
    Ok(found)
}

/// A reducing collective in the one-process world: `op` checked against the type, then the
/// one contribution copied from `sendbuf` into `recvbuf` (nothing moves with `MPI_IN_PLACE`,
/// or when `copies` is false: `MPI_Exscan`, whose result on the first process is undefined).
///
/// # Safety
/// As for the MPI functions.
unsafe fn reduce_one(
    (sendbuf, recvbuf): (*const c_void, *mut c_void),
    count: i64,
    (datatype, op, comm): (MPI_Datatype, MPI_Op, MPI_Comm),
    root: Option<c_int>,
    copies: bool,
) -> MpiResult<()> {
    check_comm(comm)?;
    crate::datatype::construct::check_count(count, "count")?;
    check_reduction(op, datatype)?;
    let side = |buffer: *const c_void| Side {
        buffer: if copies {
            buffer
        } else {
            std::ptr::with_exposed_provenance(MPI_IN_PLACE)
        },
        count,
        datatype,
    };
    // SAFETY: the caller's buffers.
    unsafe { copy(side(sendbuf), side(recvbuf.cast_const()), comm, root) }
}

/// Defines the exported reducing collectives of the shape of `MPI_Allreduce` (`int` and `_c`
/// forms): `$copies` false for `MPI_Exscan`.
macro_rules! allreduce_like {
    ($copies:literal, $($count:ty: $name:ident $(as $int:ident)?),*) => {$(
        #[doc = concat!("`", stringify!($name), "`: in the one-process world the one contribution is the result.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            sendbuf: *const c_void,
            recvbuf: *mut c_void,
            count: $count,
            datatype: MPI_Datatype,
            op: MPI_Op,
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                if !standalone() {
                    let rc = or_int_form!(forward!($name: fn(*const c_void, *mut c_void, $count, MPI_Datatype, MPI_Op, MPI_Comm) -> c_int,
                        sendbuf, recvbuf, count, datatype, op, comm);
                        $name [$($int)?]; on Comm(comm); widths &[]; after Return; messages [];
                        (sendbuf, recvbuf, count, datatype, op, comm));
                    return rc.unwrap_or_else(|| missing_behind(stringify!($name)));
                }
                let (buffers, handles) = ((sendbuf, recvbuf), (datatype, op, comm));
                // SAFETY: the caller's buffers.
                guard_on(stringify!($name), comm, || unsafe { reduce_one(buffers, count.into(), handles, None, $copies) })
            })
        }
    )*};
}

allreduce_like!(true, c_int: MPI_Allreduce, MPI_Count: MPI_Allreduce_c as MPI_Allreduce);
allreduce_like!(true, c_int: MPI_Scan, MPI_Count: MPI_Scan_c as MPI_Scan);
allreduce_like!(false, c_int: MPI_Exscan, MPI_Count: MPI_Exscan_c as MPI_Exscan);
allreduce_like!(true, c_int: MPI_Reduce_scatter_block, MPI_Count: MPI_Reduce_scatter_block_c as MPI_Reduce_scatter_block);

/// Defines `MPI_Reduce` and `MPI_Reduce_c`.
macro_rules! reduces {
    ($($count:ty: $name:ident $(as $int:ident)?),*) => {$(
        #[doc = concat!("`", stringify!($name), "`: in the one-process world the root's contribution is the result.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            sendbuf: *const c_void,
            recvbuf: *mut c_void,
            count: $count,
            datatype: MPI_Datatype,
            op: MPI_Op,
            root: c_int,
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                if !standalone() {
                    let rc = or_int_form!(forward!($name: fn(*const c_void, *mut c_void, $count, MPI_Datatype, MPI_Op, c_int, MPI_Comm) -> c_int,
                        sendbuf, recvbuf, count, datatype, op, root, comm);
                        $name [$($int)?]; on Comm(comm); widths &[]; after Return; messages [];
                        (sendbuf, recvbuf, count, datatype, op, root, comm));
                    return rc.unwrap_or_else(|| missing_behind(stringify!($name)));
                }
                let (buffers, handles) = ((sendbuf, recvbuf), (datatype, op, comm));
                // SAFETY: the caller's buffers.
                guard_on(stringify!($name), comm, || unsafe { reduce_one(buffers, count.into(), handles, Some(root), true) })
            })
        }
    )*};
}

reduces!(c_int: MPI_Reduce, MPI_Count: MPI_Reduce_c as MPI_Reduce);

/// Defines `MPI_Reduce_scatter` and `MPI_Reduce_scatter_c`, whose counts are an array (one
/// per process).
macro_rules! reduce_scatters {
    ($($count:ty: $name:ident $(as $int:ident)?),*) => {$(
        #[doc = concat!("`", stringify!($name), "`: in the one-process world the one contribution is the result.")]
        ///
        /// # Safety
        /// As for the MPI function.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            sendbuf: *const c_void,
            recvbuf: *mut c_void,
            recvcounts: *const $count,
            datatype: MPI_Datatype,
            op: MPI_Op,
            comm: MPI_Comm,
        ) -> c_int {
            export(stringify!($name), || {
                if !standalone() {
                    let rc = or_int_form!(forward!($name: fn(*const c_void, *mut c_void, *const $count, MPI_Datatype, MPI_Op, MPI_Comm) -> c_int,
                        sendbuf, recvbuf, recvcounts, datatype, op, comm);
                        $name [$($int)?]; on Comm(comm); widths &[int_forms::group_size(comm)];
                        after Return; messages []; (sendbuf, recvbuf, recvcounts, datatype, op, comm));
                    return rc.unwrap_or_else(|| missing_behind(stringify!($name)));
                }
                guard_on(stringify!($name), comm, || {
                    // SAFETY: the caller's array of one count per process.
                    let count = unsafe { crate::ffi::read_in(recvcounts, "recvcounts")? };
                    let (buffers, handles) = ((sendbuf, recvbuf), (datatype, op, comm));
                    // SAFETY: the caller's buffers.
                    unsafe { reduce_one(buffers, count.into(), handles, None, true) }
                })
            })
        }
    )*};
}

reduce_scatters!(c_int: MPI_Reduce_scatter, MPI_Count: MPI_Reduce_scatter_c as MPI_Reduce_scatter);

/// `MPI_Reduce_local` or `_c`: `inoutbuf = inbuf op inoutbuf`, element by element.
///
/// # Safety
/// As for the MPI functions.
unsafe fn reduce_local<C: CountArg>(
    inbuf: *const c_void,
    inoutbuf: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
) -> MpiResult<()> {
    let count: i64 = count.into();
    crate::datatype::construct::check_count(count, "count")?;
    let dt = with_committed(datatype, Arc::clone)?;
    match check_reduction(op, datatype)? {
        Operation::Predefined(op) => {
            let bytes = crate::pack::packed_size(&dt, count)? as usize;
            let (mut input, mut inout) = (vec![0u8; bytes], vec![0u8; bytes]);
            // SAFETY: the caller's buffers hold `count` copies of the type; the vectors
            // hold their packed bytes.
            unsafe {
                crate::plan::pack_all(&dt.plan, count, user_memory(inbuf), input.as_mut_ptr());
                let inout_memory = user_memory(inoutbuf);
                crate::plan::pack_all(&dt.plan, count, inout_memory, inout.as_mut_ptr());
                crate::reduce::combine(op, &dt, count, &input, &mut inout)?;
                crate::plan::unpack_all(&dt.plan, count, inout.as_ptr(), inout_memory);
            }
            Ok(())
        }
        Operation::User(user) => {
            let mut handle = datatype;
            // SAFETY: the program's function, called on the program's buffers as the
            // standard describes (MPI-4.1 §6.9.5).
            unsafe {
                match user.function {
                    Function::Int(Some(f)) => {
                        let mut len = c_int::try_from(count).map_err(|_| {
                            MpiError::count(format!(
                                "{count} elements do not fit the int length of an MPI_Op_create function"
                            ))
                        })?;
                        f(inbuf.cast_mut(), inoutbuf, &mut len, &mut handle)
                    }
                    Function::Large(Some(f)) => {
                        let mut len: MPI_Count = count;
                        f(inbuf.cast_mut(), inoutbuf, &mut len, &mut handle)
                    }
                    Function::Int(None) | Function::Large(None) => {}
                }
            }
            Ok(())
        }
    }
}

one_process_functions! {
    /// Combines `inbuf` into `inoutbuf`: `inoutbuf[i] = inbuf[i] op inoutbuf[i]`.
    fn MPI_Reduce_local(inbuf: *const c_void, inoutbuf: *mut c_void, count: c_int, datatype: MPI_Datatype, op: MPI_Op) via guard() {
        // SAFETY: the caller's buffers.
        unsafe { reduce_local(inbuf, inoutbuf, count, datatype, op) }
    }

    /// Large-count variant of `MPI_Reduce_local`.
    fn MPI_Reduce_local_c(inbuf: *const c_void, inoutbuf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, op: MPI_Op) as MPI_Reduce_local via guard() {
        // SAFETY: the caller's buffers.
        unsafe { reduce_local(inbuf, inoutbuf, count, datatype, op) }
    }
}

/// Keeps the program's reduction function as an operation and writes its handle.
///
/// # Safety
/// A non-NULL `op` is writable.
unsafe fn create(function: Function, commute: c_int, op: *mut MPI_Op) -> MpiResult<()> {
    check_out(op, "op")?;
    if matches!(function, Function::Int(None) | Function::Large(None)) {
        return Err(MpiError::arg("the operation's function is NULL"));
    }
    let commutes = commute != 0;
    let index = ops::keep(UserOp { function, commutes });
    let handle = own_op(index).ok_or_else(|| {
        ops::free(index);
        MpiError::new(MPI_ERR_NO_MEM, "too many operations")
    })?;
    // SAFETY: checked non-NULL; the caller's contract.
    unsafe { write_out(op, handle, "op") }
}

/// Makes an operation of the program's function `user_fn` (`commute`: it commutes). In
/// drop-in mode the MPI behind makes it, of a function that gives the program's the handles
/// it holds ([`op_functions`]).
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Op_create(
    user_fn: MPI_User_function,
    commute: c_int,
    op: *mut MPI_Op,
) -> c_int {
    export("MPI_Op_create", || {
        if !standalone() {
            let function = op_functions::for_int(user_fn);
            return forward!(MPI_Op_create: fn(MPI_User_function, c_int, *mut MPI_Op) -> c_int, function, commute, op)
                .unwrap_or_else(|| missing_behind("MPI_Op_create"));
        }
        // SAFETY: the caller's pointer.
        guard("MPI_Op_create", || unsafe {
            create(Function::Int(user_fn), commute, op)
        })
    })
}

/// `MPI_Op_create` of a function whose length is an `MPI_Count`; over an MPI library behind
/// without it, that library's `MPI_Op_create` of a function that widens the length.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Op_create_c(
    user_fn: MPI_User_function_c,
    commute: c_int,
    op: *mut MPI_Op,
) -> c_int {
    export("MPI_Op_create_c", || {
        if !standalone() {
            let function = op_functions::for_large(user_fn);
            let rc = or_int_form!(forward!(MPI_Op_create_c: fn(MPI_User_function_c, c_int, *mut MPI_Op) -> c_int, function, commute, op);
                MPI_Op_create_c [MPI_Op_create]; on Process; widths &[]; after Return; messages [];
                (user_fn, commute, op));
            return rc.unwrap_or_else(|| missing_behind("MPI_Op_create_c"));
        }
        // SAFETY: the caller's pointer.
        guard("MPI_Op_create_c", || unsafe {
            create(Function::Large(user_fn), commute, op)
        })
    })
}

one_process_functions! {
    /// Frees an operation the program made and sets the handle to `MPI_OP_NULL`.
    fn MPI_Op_free(op: *mut MPI_Op) via guard() {
        // SAFETY: the caller's pointer.
        let handle = unsafe { crate::ffi::read_in(op, "op")? };
        let index = own_op_index(handle)
            .filter(|&index| ops::get(index).is_some())
            .ok_or_else(|| {
                MpiError::new(
                    MPI_ERR_OP,
                    format!("{handle:#x} is not an operation MPI_Op_create made"),
                )
            })?;
        ops::free(index);
        // SAFETY: read above, so valid.
        unsafe { op.write(MPI_OP_NULL) };
        Ok(())
    }

    /// Sets `commute` if the operation commutes (every predefined one does).
    fn MPI_Op_commutative(op: MPI_Op, commute: *mut c_int) via guard() {
        let commutes = match operation(op)? {
            Operation::Predefined(_) => true,
            Operation::User(user) => user.commutes,
        };
        // SAFETY: the caller's pointer.
        unsafe { write_out(commute, c_int::from(commutes), "commute") }
    }
}

/// Waits until every process of `comm` has called it (the one process has).
#[no_mangle]
pub unsafe extern "C" fn MPI_Barrier(comm: MPI_Comm) -> c_int {
    export("MPI_Barrier", || {
        if !standalone() {
            return forward!(MPI_Barrier: fn(MPI_Comm) -> c_int, comm)
                .unwrap_or_else(|| missing_behind("MPI_Barrier"));
        }
        guard_on("MPI_Barrier", comm, || check_comm(comm))
    })
}
