//! This process as an MPI process: whether MPI is initialized or finalized, the thread level
//! it was initialized with, which thread did it, and the clock's origin. Standalone, this
//! module keeps that state for the one-process world; in drop-in mode the MPI library behind
//! keeps it, and [`world_rank`] asks that library.

use crate::abi::*;
use crate::behind::forward;
use crate::error::{MpiError, MpiResult};
use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

static INITIALIZED: AtomicBool = AtomicBool::new(false);
static FINALIZED: AtomicBool = AtomicBool::new(false);
static THREAD_LEVEL: AtomicI32 = AtomicI32::new(MPI_THREAD_SINGLE);
static MAIN_THREAD: OnceLock<std::thread::ThreadId> = OnceLock::new();
static CLOCK_ORIGIN: OnceLock<Instant> = OnceLock::new();

/// Initializes the one-process world with the thread level `required` asks for (every level
/// up to `MPI_THREAD_MULTIPLE` is provided as asked) and returns the level provided.
pub fn initialize(required: c_int) -> MpiResult<c_int> {
    if INITIALIZED.swap(true, Ordering::SeqCst) {
        return Err(MpiError::new(MPI_ERR_OTHER, "MPI was already initialized"));
    }
    crate::behind::stay_standalone();
    let provided = required.clamp(MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE);
    THREAD_LEVEL.store(provided, Ordering::SeqCst);
    MAIN_THREAD.get_or_init(|| std::thread::current().id());
    CLOCK_ORIGIN.get_or_init(Instant::now);
    Ok(provided)
}

/// Finalizes the one-process world, which must be initialized and not finalized yet.
pub fn finalize() -> MpiResult<()> {
    if !INITIALIZED.load(Ordering::SeqCst) || FINALIZED.swap(true, Ordering::SeqCst) {
        return Err(MpiError::new(
            MPI_ERR_OTHER,
            "MPI is not initialized, or already finalized",
        ));
    }
    Ok(())
}

/// Whether the one-process world was initialized.
pub fn initialized() -> bool {
    INITIALIZED.load(Ordering::SeqCst)
}

/// Whether the one-process world was finalized.
pub fn finalized() -> bool {
    FINALIZED.load(Ordering::SeqCst)
}

/// The thread level the one-process world was initialized with.
pub fn thread_level() -> c_int {
    THREAD_LEVEL.load(Ordering::SeqCst)
}

/// Whether the calling thread initialized the one-process world (true before it was).
pub fn is_main_thread() -> bool {
    MAIN_THREAD
        .get()
        .is_none_or(|&id| id == std::thread::current().id())
}

/// Seconds since the clock's origin (set at the first call, or at initialization).
pub fn wtime() -> f64 {
    CLOCK_ORIGIN
        .get_or_init(Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// The rank of this process in `MPI_COMM_WORLD`, if MPI is initialized and not finalized:
/// the MPI behind's answer in drop-in mode, else 0 in the one-process world.
pub fn world_rank() -> Option<c_int> {
    let (mut initialized, mut finalized, mut rank) = (0, 0, -1);
    let asked = forward!(PMPI_Initialized: fn(*mut c_int) -> c_int, &mut initialized);
    if asked.is_none() {
        return (self::initialized() && !self::finalized()).then_some(0);
    }
    if asked != Some(MPI_SUCCESS) || initialized == 0 {
        return None;
    }
    let asked = forward!(PMPI_Finalized: fn(*mut c_int) -> c_int, &mut finalized);
    if asked != Some(MPI_SUCCESS) || finalized != 0 {
        return None;
    }
    let asked =
        forward!(PMPI_Comm_rank: fn(MPI_Comm, *mut c_int) -> c_int, MPI_COMM_WORLD, &mut rank);
    (asked == Some(MPI_SUCCESS) && rank >= 0).then_some(rank)
}

/// Ends the program after a fatal error: through the real MPI's `MPI_Abort` when there is
/// one, else by exiting with `code`.
pub fn abort_program(code: c_int) -> ! {
    forward!(MPI_Abort: fn(MPI_Comm, c_int) -> c_int, MPI_COMM_WORLD, code);
    std::process::exit(code)
}
