//! The predefined attribute callbacks of Open MPI's ABI. Its `mpi.h` defines
//! `MPI_TYPE_DUP_FN`, `MPI_TYPE_NULL_COPY_FN`, `MPI_TYPE_NULL_DELETE_FN` and their communicator,
//! window and MPI-1 kin as functions (`OMPI_C_MPI_TYPE_DUP_FN`, ...), which a program compiled
//! with it calls or passes by address: this library exports them under those names, and they
//! do what the standard says of the callbacks they stand for.
#![cfg(abi = "ompi")]

use crate::abi::{MPI_Comm, MPI_Datatype, MPI_Win};
use crate::ffi::exported;
use crate::keyvals::{copy_nothing, copy_value, delete_nothing};
use std::ffi::c_void;
use std::os::raw::c_int;

exported! {
    /// `MPI_TYPE_DUP_FN`: copies the attribute value.
    fn OMPI_C_MPI_TYPE_DUP_FN(oldtype: MPI_Datatype, type_keyval: c_int, extra_state: *mut c_void, attribute_val_in: *mut c_void, attribute_val_out: *mut c_void, flag: *mut c_int);
    // SAFETY: the caller's arguments, as a copy callback gets them.
    => unsafe { copy_value(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag) }
}

exported! {
    /// `MPI_COMM_DUP_FN`: copies the attribute value.
    fn OMPI_C_MPI_COMM_DUP_FN(comm: MPI_Comm, comm_keyval: c_int, extra_state: *mut c_void, attribute_val_in: *mut c_void, attribute_val_out: *mut c_void, flag: *mut c_int);
    /// `MPI_DUP_FN` of MPI-1: copies the attribute value.
    fn OMPI_C_MPI_DUP_FN(comm: MPI_Comm, comm_keyval: c_int, extra_state: *mut c_void, attribute_val_in: *mut c_void, attribute_val_out: *mut c_void, flag: *mut c_int);
    // SAFETY: the caller's arguments, as a copy callback gets them.
    => unsafe { copy_value(comm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag) }
}

exported! {
    /// `MPI_WIN_DUP_FN`: copies the attribute value.
    fn OMPI_C_MPI_WIN_DUP_FN(window: MPI_Win, win_keyval: c_int, extra_state: *mut c_void, attribute_val_in: *mut c_void, attribute_val_out: *mut c_void, flag: *mut c_int);
    // SAFETY: the caller's arguments, as a copy callback gets them.
    => unsafe { copy_value(window, win_keyval, extra_state, attribute_val_in, attribute_val_out, flag) }
}

exported! {
    /// `MPI_TYPE_NULL_COPY_FN`: copies nothing.
    fn OMPI_C_MPI_TYPE_NULL_COPY_FN(oldtype: MPI_Datatype, type_keyval: c_int, extra_state: *mut c_void, attribute_val_in: *mut c_void, attribute_val_out: *mut c_void, flag: *mut c_int);
    // SAFETY: the caller's arguments, as a copy callback gets them.
    => unsafe { copy_nothing(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag) }
}

exported! {
    /// `MPI_COMM_NULL_COPY_FN`: copies nothing.
    fn OMPI_C_MPI_COMM_NULL_COPY_FN(comm: MPI_Comm, comm_keyval: c_int, extra_state: *mut c_void, attribute_val_in: *mut c_void, attribute_val_out: *mut c_void, flag: *mut c_int);
    /// `MPI_NULL_COPY_FN` of MPI-1: copies nothing.
    fn OMPI_C_MPI_NULL_COPY_FN(comm: MPI_Comm, comm_keyval: c_int, extra_state: *mut c_void, attribute_val_in: *mut c_void, attribute_val_out: *mut c_void, flag: *mut c_int);
    // SAFETY: the caller's arguments, as a copy callback gets them.
    => unsafe { copy_nothing(comm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag) }
}

exported! {
    /// `MPI_WIN_NULL_COPY_FN`: copies nothing.
    fn OMPI_C_MPI_WIN_NULL_COPY_FN(window: MPI_Win, win_keyval: c_int, extra_state: *mut c_void, attribute_val_in: *mut c_void, attribute_val_out: *mut c_void, flag: *mut c_int);
    // SAFETY: the caller's arguments, as a copy callback gets them.
    => unsafe { copy_nothing(window, win_keyval, extra_state, attribute_val_in, attribute_val_out, flag) }
}

exported! {
    /// `MPI_TYPE_NULL_DELETE_FN`: does nothing.
    fn OMPI_C_MPI_TYPE_NULL_DELETE_FN(datatype: MPI_Datatype, type_keyval: c_int, attribute_val: *mut c_void, extra_state: *mut c_void);
    => delete_nothing(datatype, type_keyval, attribute_val, extra_state)
}

exported! {
    /// `MPI_COMM_NULL_DELETE_FN`: does nothing.
    fn OMPI_C_MPI_COMM_NULL_DELETE_FN(comm: MPI_Comm, comm_keyval: c_int, attribute_val: *mut c_void, extra_state: *mut c_void);
    /// `MPI_NULL_DELETE_FN` of MPI-1: does nothing.
    fn OMPI_C_MPI_NULL_DELETE_FN(comm: MPI_Comm, comm_keyval: c_int, attribute_val: *mut c_void, extra_state: *mut c_void);
    => delete_nothing(comm, comm_keyval, attribute_val, extra_state)
}

exported! {
    /// `MPI_WIN_NULL_DELETE_FN`: does nothing.
    fn OMPI_C_MPI_WIN_NULL_DELETE_FN(window: MPI_Win, win_keyval: c_int, attribute_val: *mut c_void, extra_state: *mut c_void);
    => delete_nothing(window, win_keyval, attribute_val, extra_state)
}
