//! `MPI_Op_create_c` over an MPI library behind that has only `MPI_Op_create` (Open MPI 4.1
//! and 5.0): that library calls an operation's function with an `int` length, the program's
//! takes an `MPI_Count` one. The operation is made of a function here that widens the
//! length and calls the program's ([`int_function`]): one per program function (a program
//! has few), up to [`SLOTS`] of them.

use crate::abi::{MPI_Count, MPI_Datatype, MPI_User_function, MPI_User_function_c};
use crate::abi::{MPI_ERR_OP, MPI_ERR_OTHER};
use crate::error::{MpiError, MpiResult};
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most program functions with an `MPI_Count` length that operations are made of.
const SLOTS: usize = 32;

/// The program's function of each slot (its address; 0 for a free slot).
static FUNCTIONS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];

/// Calls the program's function of slot `slot` with the length widened.
///
/// # Safety
/// As the MPI library calls an operation's function: valid vectors, length and datatype.
unsafe fn call_slot(
    slot: usize,
    (invec, inoutvec): (*mut c_void, *mut c_void),
    len: *mut c_int,
    datatype: *mut MPI_Datatype,
) {
    let address = FUNCTIONS[slot].load(Ordering::Acquire);
    // SAFETY: the slot holds the address of a program function of this C signature, put there
    // before the operation that calls this was made.
    let function: unsafe extern "C" fn(
        *mut c_void,
        *mut c_void,
        *mut MPI_Count,
        *mut MPI_Datatype,
    ) = unsafe { std::mem::transmute::<usize, _>(address) };
    // SAFETY: the MPI library's length.
    let mut count = MPI_Count::from(unsafe { len.read() });
    // SAFETY: the caller's contract.
    unsafe { function(invec, inoutvec, &mut count, datatype) }
}

/// One function of the `int` signature per slot, each calling its slot's.
macro_rules! slot_functions {
    ($($slot:literal),*) => {
        /// The function of each slot, as the MPI behind calls it.
        const SLOT_FUNCTIONS: [unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut MPI_Datatype); SLOTS] = [$({
            /// The function of this slot.
            ///
            /// # Safety
            /// As for an operation's function.
            unsafe extern "C" fn of_slot(invec: *mut c_void, inoutvec: *mut c_void, len: *mut c_int, datatype: *mut MPI_Datatype) {
                // SAFETY: the caller's contract.
                unsafe { call_slot($slot, (invec, inoutvec), len, datatype) }
            }
            of_slot
        }),*];
    };
}

slot_functions!(
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    26, 27, 28, 29, 30, 31
);

/// The function of the `int` signature that calls `function` (the slot it already has, or a
/// free one).
pub fn int_function(function: MPI_User_function_c) -> MpiResult<MPI_User_function> {
    let Some(function) = function else {
        return Err(MpiError::new(
            MPI_ERR_OP,
            "the operation's function is NULL",
        ));
    };
    let address = function as usize;
    for (slot, held) in FUNCTIONS.iter().enumerate() {
        let taken = match held.compare_exchange(0, address, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => true,
            Err(current) => current == address,
        };
        if taken {
            return Ok(Some(SLOT_FUNCTIONS[slot]));
        }
    }
    Err(MpiError::new(
        MPI_ERR_OTHER,
        format!(
            "more than {SLOTS} functions with an MPI_Count length make operations, and the MPI \
             library behind has no MPI_Op_create_c"
        ),
    ))
}
