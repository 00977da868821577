//! What the tool information interface (`MPI_T`, MPI-4.1 §15.3) reports of this library: its
//! control variables are the environment variables that set it, read when a tool asks, in
//! one category; it keeps no performance variables. The exported functions are in
//! `src/ffi/comm/tool_information.rs`.

use crate::abi::{
    MPI_T_ERR_INVALID_HANDLE, MPI_T_ERR_INVALID_INDEX, MPI_T_ERR_INVALID_NAME,
    MPI_T_ERR_NOT_INITIALIZED, MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_TUNER_BASIC,
    MPI_T_VERBOSITY_USER_BASIC,
};
use crate::error::{MpiError, MpiResult};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::os::raw::c_int;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A control variable: an environment variable the library reads.
pub struct ControlVariable {
    /// Its name, the environment variable's.
    pub name: &'static str,
    /// What it sets.
    pub description: &'static str,
    /// Who it is for (`MPI_T_VERBOSITY_*`).
    pub verbosity: c_int,
}

/// The control variables, by index.
pub const CONTROL_VARIABLES: [ControlVariable; 5] = [
    ControlVariable {
        name: "MPI_DTYPE_TRACE",
        description:
            "the file to which the datatypes the program builds are recorded, for mpi-dtype-explain",
        verbosity: MPI_T_VERBOSITY_USER_BASIC,
    },
    ControlVariable {
        name: "MPI_DTYPE_COMM",
        description:
            "in drop-in mode, the path messages of derived types take: auto, engine or mpi",
        verbosity: MPI_T_VERBOSITY_TUNER_BASIC,
    },
    ControlVariable {
        name: "MPI_DTYPE_PEERS",
        description: "in drop-in mode, whether every rank runs mpi-dtype: auto (learnt at MPI_Init), any or preloaded",
        verbosity: MPI_T_VERBOSITY_TUNER_BASIC,
    },
    ControlVariable {
        name: "MPI_DTYPE_MPI_LIBRARY",
        description: "in drop-in mode, the MPI library to load behind mpi-dtype",
        verbosity: MPI_T_VERBOSITY_MPIDEV_BASIC,
    },
    ControlVariable {
        name: "MPI_DTYPE_DEBUG",
        description: "in drop-in mode, report how the MPI library behind mpi-dtype was found",
        verbosity: MPI_T_VERBOSITY_MPIDEV_BASIC,
    },
];

/// The one category, which holds every control variable: its name and description.
pub const CATEGORY: (&str, &str) = (
    "mpi_dtype",
    "the settings of mpi-dtype, read from the environment",
);

/// The control variable at `index`; `MPI_T_ERR_INVALID_INDEX` for none.
pub fn control_variable(index: c_int) -> MpiResult<&'static ControlVariable> {
    usize::try_from(index)
        .ok()
        .and_then(|i| CONTROL_VARIABLES.get(i))
        .ok_or_else(|| invalid_index(index))
}

/// The value of a control variable now: its environment variable's, or empty if unset.
pub fn value_of(variable: &ControlVariable) -> String {
    std::env::var(variable.name).unwrap_or_default()
}

/// The error of an index of no variable or category.
pub fn invalid_index(index: c_int) -> MpiError {
    MpiError::new(MPI_T_ERR_INVALID_INDEX, format!("{index} is not an index"))
}

/// The error of a name of no variable or category.
pub fn invalid_name(name: &str) -> MpiError {
    MpiError::new(
        MPI_T_ERR_INVALID_NAME,
        format!("no variable or category is named {name}"),
    )
}

/// How many times `MPI_T_init_thread` was called without its `MPI_T_finalize`.
static INITIALIZED: AtomicUsize = AtomicUsize::new(0);

/// `MPI_T_init_thread`: the interface is usable until the matching `MPI_T_finalize`.
pub fn init() {
    INITIALIZED.fetch_add(1, Ordering::SeqCst);
}

/// `MPI_T_finalize`; `MPI_T_ERR_NOT_INITIALIZED` without an `MPI_T_init_thread` to match.
pub fn finalize() -> MpiResult<()> {
    INITIALIZED
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .map(drop)
        .map_err(|_| not_initialized())
}

/// Checks that the interface is initialized.
pub fn check_initialized() -> MpiResult<()> {
    match INITIALIZED.load(Ordering::SeqCst) {
        0 => Err(not_initialized()),
        _ => Ok(()),
    }
}

fn not_initialized() -> MpiError {
    MpiError::new(
        MPI_T_ERR_NOT_INITIALIZED,
        "the tool information interface is not initialized (MPI_T_init_thread)",
    )
}

/// What a handle of the interface stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record {
    /// A control variable's handle (`MPI_T_cvar_handle_alloc`): its index and the count of
    /// its value (the bytes of its string with the NUL, when the handle was made).
    Cvar {
        /// The variable.
        index: c_int,
        /// The elements a read writes at most.
        count: c_int,
    },
    /// A session of performance variables (`MPI_T_pvar_session_create`).
    Session,
}

/// The records of the handles the interface gave out and has not taken back, by the value of
/// the handle, and the next value to give (handles are opaque to the program: the library
/// never reads through one, so one that is no handle is refused, not followed).
static RECORDS: Mutex<(usize, Option<HashMap<usize, Record>>)> = Mutex::new((0, None));

/// The values of handles: multiples of 16 from 4096, clear of `MPI_T_PVAR_ALL_HANDLES` and
/// of the null handles.
const HANDLE_STEP: usize = 16;

/// Gives out a handle to `record`, kept until [`release`]: its value.
pub fn hand_out(record: Record) -> usize {
    let mut records = RECORDS.lock();
    let (next, map) = &mut *records;
    *next = (*next).max(4096 - HANDLE_STEP) + HANDLE_STEP;
    map.get_or_insert_with(HashMap::new).insert(*next, record);
    *next
}

/// The record of the handle `handle`; `MPI_T_ERR_INVALID_HANDLE` unless it is live.
pub fn record(handle: usize) -> MpiResult<Record> {
    RECORDS
        .lock()
        .1
        .as_ref()
        .and_then(|map| map.get(&handle).copied())
        .ok_or_else(invalid_handle)
}

/// Takes the live handle `handle` back.
pub fn release(handle: usize) -> MpiResult<()> {
    RECORDS
        .lock()
        .1
        .as_mut()
        .and_then(|map| map.remove(&handle))
        .map(drop)
        .ok_or_else(invalid_handle)
}

fn invalid_handle() -> MpiError {
    MpiError::new(MPI_T_ERR_INVALID_HANDLE, "not a live handle")
}
