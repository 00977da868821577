//! The persistent collectives in the one-process world: a request that runs the blocking
//! function with the same arguments at each `MPI_Start` ([`persistent_in_one_process`]). The
//! request keeps the program's arguments, and copies of its arrays of counts, displacements
//! and types.

#[cfg(pointer_handles)]
use crate::abi::MPI_Op;
use crate::abi::{MPI_Comm, MPI_Datatype};
use std::ffi::c_void;
use std::os::raw::c_int;

/// The arguments of a persistent collective, kept by its request for every start: the
/// program's buffers and handles, valid until it frees the request (MPI-4.1 §6.13).
pub(super) struct Kept<T>(pub(super) T);

// SAFETY: the request keeps the program's pointers and handles only to call the collective
// with them; the program keeps them valid, from any thread that starts the request.
unsafe impl<T> Send for Kept<T> {}
// SAFETY: as above; they are only read.
unsafe impl<T> Sync for Kept<T> {}

impl<T: Copy> Kept<T> {
    /// The arguments.
    pub(super) fn get(&self) -> T {
        self.0
    }
}

/// Copies of the arrays of counts, displacements and types a persistent collective was given,
/// which its request owns: a program may let its own arrays go once the call returns (MPICH
/// copies them too), so each start reads these.
pub(super) type Copies = Vec<Box<dyn std::any::Any + Send + Sync>>;

/// An argument of a persistent collective as its request keeps it: an array of counts,
/// displacements or types is copied (`width` entries, one per process or neighbour) into
/// `copies`, anything else (buffers, counts, handles) is kept as it is.
pub(super) trait KeepArg: Copy {
    /// The argument to keep.
    fn keep(self, _width: usize, _copies: &mut Copies) -> Self {
        self
    }
}

/// Copies the array `array` of `width` entries into `copies` and returns the copy's address
/// (a NULL array stays NULL).
fn copied<T: Copy + Send + Sync + 'static>(
    array: *const T,
    width: usize,
    copies: &mut Copies,
) -> *const T {
    if array.is_null() {
        return array;
    }
    // SAFETY: the program passes an array of one entry per process or neighbour, valid
    // during the call that makes the request.
    let copy: Box<[T]> = unsafe { std::slice::from_raw_parts(array, width) }.into();
    let address = copy.as_ptr();
    copies.push(Box::new(copy));
    address
}

impl KeepArg for *const c_int {
    fn keep(self, width: usize, copies: &mut Copies) -> Self {
        copied(self, width, copies)
    }
}

impl KeepArg for *const i64 {
    fn keep(self, width: usize, copies: &mut Copies) -> Self {
        copied(self, width, copies)
    }
}

impl KeepArg for *const MPI_Datatype {
    fn keep(self, width: usize, copies: &mut Copies) -> Self {
        copied(self, width, copies)
    }
}

impl KeepArg for *const c_void {}
impl KeepArg for *mut c_void {}
impl KeepArg for c_int {}
impl KeepArg for i64 {}
impl KeepArg for MPI_Datatype {}
#[cfg(pointer_handles)]
impl KeepArg for MPI_Comm {}
#[cfg(pointer_handles)]
impl KeepArg for MPI_Op {}

/// How many entries the array arguments of a persistent collective have: one (the one
/// process), or for a neighbourhood collective one per neighbour, the send side's per
/// destination and the receive side's per source.
#[derive(Clone, Copy)]
pub(super) struct ArrayWidths {
    /// Entries of a receive side's arrays.
    incoming: usize,
    /// Entries of a send side's arrays.
    outgoing: usize,
}

impl ArrayWidths {
    /// The widths of the arrays of the persistent collective `init` on `comm`.
    pub(super) fn of(init: &str, comm: MPI_Comm) -> ArrayWidths {
        if !init.starts_with("MPI_Neighbor") {
            return ArrayWidths {
                incoming: 1,
                outgoing: 1,
            };
        }
        let (incoming, outgoing) = super::topologies::topology_of(comm)
            .map(|topology| topology.degrees())
            .unwrap_or((0, 0));
        ArrayWidths { incoming, outgoing }
    }

    /// The entries of the argument named `argument` (`sendcounts`, `sdispls` and `sendtypes`
    /// are the send side's).
    pub(super) fn of_argument(self, argument: &str) -> usize {
        match argument.starts_with("send") || argument == "sdispls" {
            true => self.outgoing,
            false => self.incoming,
        }
    }
}

/// The persistent collective `$init` in the one-process world: a request that runs the
/// blocking `$blocking` with the same arguments `$arg` at each start (its arrays copied).
macro_rules! persistent_in_one_process {
    ($init:ident => $blocking:ident($($arg:ident),*), $request:ident) => {{
        let widths = $crate::ffi::comm::persistent_alone::ArrayWidths::of(stringify!($init), last!($($arg),*));
        let mut copies = $crate::ffi::comm::persistent_alone::Copies::new();
        let kept = $crate::ffi::comm::persistent_alone::Kept(($($crate::ffi::comm::persistent_alone::KeepArg::keep($arg, widths.of_argument(stringify!($arg)), &mut copies),)*));
        let run = std::sync::Arc::new(move || {
            let _owned = &copies;
            let ($($arg,)*) = kept.get();
            // SAFETY: the program's arguments, valid while the request lives.
            unsafe { $blocking($($arg),*) }
        });
        // SAFETY: the caller's request.
        unsafe { $crate::ffi::comm::serial::persistent_collective(stringify!($init), $request, run) }
    }};
}
pub(super) use persistent_in_one_process;
