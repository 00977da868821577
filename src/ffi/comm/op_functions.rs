//! The functions of the operations the program makes (`MPI_Op_create`, `MPI_Op_create_c`),
//! as the MPI behind calls them in drop-in mode. The MPI behind is given a function of this
//! library's, one per program function (a slot: a program has few), which calls the
//! program's:
//! - with the handle the program holds for the datatype: a handle of this library's own form
//!   reaches that library as its twin ([`crate::behind::datatypes`]), which the program never
//!   held ([`crate::handles::program_handle`] gives the handle back);
//! - for a program function with an `MPI_Count` length over an MPI library behind that has no
//!   `MPI_Op_create_c` (Open MPI 4.1 and 5.0), with the `int` length that library passes,
//!   widened ([`int_function`]).
//!
//! There are [`SLOTS`] slots of each kind. Past them a program function is given to the MPI
//! behind as it is (its datatype argument is then the twin's handle, which every datatype
//! function answers for as for the program's), but the one whose length must be widened,
//! which is then an error.

use crate::abi::{MPI_Count, MPI_Datatype, MPI_User_function, MPI_User_function_c};
use crate::abi::{MPI_ERR_OP, MPI_ERR_OTHER};
use crate::error::{MpiError, MpiResult};
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The slots of each kind.
const SLOTS: usize = 32;

/// The program's functions with an `int` length, by slot (their addresses; 0 for a free slot).
static INT_FUNCTIONS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
/// The program's functions with an `MPI_Count` length, by slot.
static LARGE_FUNCTIONS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];

/// The program's function of the C signature `F` in slot `slot` of `functions`.
///
/// # Safety
/// The slot holds the address of a program function of that signature, put there before the
/// operation that calls it was made.
unsafe fn function_in<F: Copy>(functions: &[AtomicUsize; SLOTS], slot: usize) -> F {
    const { assert!(std::mem::size_of::<F>() == std::mem::size_of::<usize>()) };
    let address = functions[slot].load(Ordering::Acquire);
    // SAFETY: the caller's contract.
    unsafe { std::mem::transmute_copy::<usize, F>(&address) }
}

/// The handle the program holds for the datatype the MPI behind passes an operation's
/// function.
///
/// # Safety
/// `datatype` points to a handle, as the MPI library passes it.
unsafe fn program_datatype(datatype: *mut MPI_Datatype) -> MPI_Datatype {
    // SAFETY: the caller's contract.
    crate::handles::program_handle(unsafe { datatype.read() })
}

/// A program function with a length of type `L` (`int` or `MPI_Count`).
type ProgramFunction<L> = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut L, *mut MPI_Datatype);

/// Calls the program's `function` with the handle the program holds for the datatype.
///
/// # Safety
/// As the MPI library calls an operation's function: valid vectors, length and datatype.
unsafe fn call_program<L>(
    function: ProgramFunction<L>,
    vectors: (*mut c_void, *mut c_void),
    len: *mut L,
    datatype: *mut MPI_Datatype,
) {
    // SAFETY: the caller's contract.
    unsafe {
        let mut handle = program_datatype(datatype);
        function(vectors.0, vectors.1, len, &mut handle)
    }
}

/// Calls the program's `int` function of slot `slot`.
///
/// # Safety
/// As for [`call_program`]; the slot was filled before the operation was made.
unsafe fn int_of_int(
    slot: usize,
    vectors: (*mut c_void, *mut c_void),
    len: *mut c_int,
    datatype: *mut MPI_Datatype,
) {
    // SAFETY: the caller's contract.
    unsafe { call_program(function_in(&INT_FUNCTIONS, slot), vectors, len, datatype) }
}

/// Calls the program's `MPI_Count` function of slot `slot` with the `int` length widened.
///
/// # Safety
/// As for [`int_of_int`].
unsafe fn int_of_large(
    slot: usize,
    vectors: (*mut c_void, *mut c_void),
    len: *mut c_int,
    datatype: *mut MPI_Datatype,
) {
    // SAFETY: the caller's contract.
    unsafe {
        let function: ProgramFunction<MPI_Count> = function_in(&LARGE_FUNCTIONS, slot);
        let mut count = MPI_Count::from(len.read());
        call_program(function, vectors, &mut count, datatype)
    }
}

/// Calls the program's `MPI_Count` function of slot `slot`.
///
/// # Safety
/// As for [`int_of_int`].
unsafe fn large_of_large(
    slot: usize,
    vectors: (*mut c_void, *mut c_void),
    len: *mut MPI_Count,
    datatype: *mut MPI_Datatype,
) {
    // SAFETY: the caller's contract.
    unsafe { call_program(function_in(&LARGE_FUNCTIONS, slot), vectors, len, datatype) }
}

/// For each of `$calls` (a function of the length type `$len` taking a slot), the array
/// `$table` of one function of the C signature per slot, each calling it with its slot.
macro_rules! slot_functions {
    ($($table:ident: $calls:ident($len:ty);)* @slots $slots:tt) => {$(
        slot_functions!(@table $table: $calls($len); $slots);
    )*};
    (@table $table:ident: $calls:ident($len:ty); [$($slot:literal),*]) => {
        /// The function of each slot, as the MPI behind calls it.
        const $table: [unsafe extern "C" fn(*mut c_void, *mut c_void, *mut $len, *mut MPI_Datatype); SLOTS] = [$({
            /// The function of this slot.
            ///
            /// # Safety
            /// As for an operation's function.
            unsafe extern "C" fn of_slot(invec: *mut c_void, inoutvec: *mut c_void, len: *mut $len, datatype: *mut MPI_Datatype) {
                // SAFETY: the caller's contract.
                unsafe { $calls($slot, (invec, inoutvec), len, datatype) }
            }
            of_slot
        }),*];
    };
}

slot_functions!(
    INT_OF_INT: int_of_int(c_int);
    INT_OF_LARGE: int_of_large(c_int);
    LARGE_OF_LARGE: large_of_large(MPI_Count);
    @slots [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
        24, 25, 26, 27, 28, 29, 30, 31]
);

/// The slot of `functions` that holds `address`: the one it has already, or a free one.
fn slot_of(functions: &[AtomicUsize; SLOTS], address: usize) -> Option<usize> {
    let held = functions
        .iter()
        .position(|held| held.load(Ordering::Acquire) == address);
    held.or_else(|| {
        functions.iter().position(|held| {
            match held.compare_exchange(0, address, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => true,
                Err(current) => current == address,
            }
        })
    })
}

/// The function the MPI behind's `MPI_Op_create` is given for the program's `function`: its
/// slot's, or the program's own where it is NULL (which that library reports) or no slot is
/// free.
pub fn for_int(function: MPI_User_function) -> MPI_User_function {
    let slot = function.and_then(|f| slot_of(&INT_FUNCTIONS, f as usize));
    match slot {
        Some(slot) => Some(INT_OF_INT[slot]),
        None => function,
    }
}

/// The function the MPI behind's `MPI_Op_create_c` is given for the program's `function`, as
/// [`for_int`] chooses.
pub fn for_large(function: MPI_User_function_c) -> MPI_User_function_c {
    let slot = function.and_then(|f| slot_of(&LARGE_FUNCTIONS, f as usize));
    match slot {
        Some(slot) => Some(LARGE_OF_LARGE[slot]),
        None => function,
    }
}

/// The function of the `int` signature that calls the program's `function` of the
/// `MPI_Count` one (for an MPI library behind without `MPI_Op_create_c`): an error where it is
/// NULL or no slot is free.
pub fn int_function(function: MPI_User_function_c) -> MpiResult<MPI_User_function> {
    let Some(function) = function else {
        return Err(MpiError::new(
            MPI_ERR_OP,
            "the operation's function is NULL",
        ));
    };
    match slot_of(&LARGE_FUNCTIONS, function as usize) {
        Some(slot) => Ok(Some(INT_OF_LARGE[slot])),
        None => Err(MpiError::new(
            MPI_ERR_OTHER,
            format!(
                "more than {SLOTS} functions with an MPI_Count length make operations, and the \
                 MPI library behind has no MPI_Op_create_c"
            ),
        )),
    }
}
