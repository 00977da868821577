//! Tracing the datatypes a program builds: with `MPI_DTYPE_TRACE=FILE` in the environment,
//! every derived type the program builds is recorded (its expression, bounds, where it was
//! built, when it was committed and freed, how often it was packed and unpacked and the
//! bytes moved, and the warnings of [`mpi_dtype_explain::warnings`] with those only a run can
//! show), and the records are written to `FILE` as JSON lines at `MPI_Finalize`, or at exit
//! if the program never finalizes (`docs/explain.md`, "Tracing a program").
//!
//! The FFI layer calls one hook per event: [`built`] (the constructors, `MPI_Type_dup`, the
//! f90 types), [`commit`], [`free`], [`pack_call`] (native and external32 pack and unpack)
//! and [`finalize`]. The environment is read once, by the first hook that is not on the pack
//! path (a derived type is built before it can be packed); the pack path itself only loads
//! one static flag with relaxed ordering, so tracing off costs nothing measurable there.
//!
//! - [`record`]: what is kept per type, keyed by a sequence number, with a map from the live
//!   handle to its record (a freed handle number may come back for a new type);
//! - [`frames`]: the calling functions, symbolised with `dladdr`;
//! - [`write`]: the JSON lines and the file name (`%p`, `%r`);
//! - the other side, reading a trace for `mpi-dtype-explain --trace`, is the explain crate's
//!   (`mpi_dtype_explain::trace`).

pub mod frames;
pub mod record;
pub mod write;

use crate::abi::{handle_bits, MPI_Datatype};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// The environment variable that names the trace file.
pub const ENV: &str = "MPI_DTYPE_TRACE";

/// True while tracing: set once, when the environment is first read, and never cleared.
static ENABLED: AtomicBool = AtomicBool::new(false);
/// The trace file's name pattern, once the environment has been read (`None`: tracing off).
static PATTERN: OnceLock<Option<String>> = OnceLock::new();

/// True if the program is traced. The check of the pack path: one relaxed load.
#[inline(always)]
pub fn on() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Reads the environment on the first call and tells whether the program is traced.
fn active() -> bool {
    PATTERN
        .get_or_init(|| {
            let pattern = std::env::var(ENV).ok().filter(|p| !p.is_empty());
            if pattern.is_some() {
                record::start();
                write::register_at_exit();
                ENABLED.store(true, Ordering::Release);
            }
            pattern
        })
        .is_some()
}

/// The trace file's name pattern, if tracing.
fn pattern() -> Option<&'static str> {
    PATTERN.get().and_then(|p| p.as_deref())
}

/// A new derived type was given to the program as `handle` (a constructor, `MPI_Type_dup`,
/// or the first `MPI_Type_create_f90_*` call with its arguments).
pub fn built(handle: MPI_Datatype) {
    if active() {
        record::built(handle, frames::capture());
    }
}

/// `MPI_Type_commit(handle)` is about to commit the handle (a second commit is reported).
pub fn commit(handle: MPI_Datatype) {
    if active() {
        record::commit(handle);
    }
}

/// `MPI_Type_free(handle)` is about to free the handle.
pub fn free(handle: MPI_Datatype) {
    if active() {
        record::free(handle_bits(handle));
    }
}

/// `MPI_Finalize` was called: the trace is written now (once).
pub fn finalize() {
    if active() {
        write::write_once(write::When::Finalize);
    }
}

/// A pack (`pack` true) or unpack call of `function` on `count` copies of `handle` is
/// starting, with the position argument `position`. Tracing off, it returns `None` after one
/// relaxed load; tracing on, the returned guard records the call when it is dropped at the
/// end of the call: the bytes moved are the distance `*position` advanced (a failed call
/// leaves it where it was), a type not committed is `used-uncommitted`.
#[inline(always)]
pub fn pack_call<P: Copy + Into<i64>>(
    pack: bool,
    function: &'static str,
    handle: MPI_Datatype,
    count: i64,
    position: *const P,
) -> Option<PackCall<P>> {
    if !on() {
        return None;
    }
    PackCall::begin(pack, function, handle, count, position)
}

/// A pack or unpack call being traced ([`pack_call`]).
pub struct PackCall<P: Copy + Into<i64>> {
    pack: bool,
    function: &'static str,
    handle: u64,
    position: *const P,
    before: i64,
    expected: i64,
}

impl<P: Copy + Into<i64>> PackCall<P> {
    #[cold]
    #[inline(never)]
    fn begin(
        pack: bool,
        function: &'static str,
        handle: MPI_Datatype,
        count: i64,
        position: *const P,
    ) -> Option<PackCall<P>> {
        if position.is_null() {
            return None;
        }
        let size = record::use_of(handle, function)?;
        // SAFETY: the caller's position argument, not NULL, valid for a read by the contract
        // of the pack function.
        let before = unsafe { position.read() }.into();
        Some(PackCall {
            pack,
            function,
            handle: handle_bits(handle),
            position,
            before,
            expected: size.saturating_mul(count),
        })
    }
}

impl<P: Copy + Into<i64>> Drop for PackCall<P> {
    fn drop(&mut self) {
        // SAFETY: as in `begin`: the position argument of the call that is ending.
        let after: i64 = unsafe { self.position.read() }.into();
        let moved = after.wrapping_sub(self.before);
        if moved == self.expected {
            record::moved(self.handle, self.pack, self.function, moved);
        }
    }
}
