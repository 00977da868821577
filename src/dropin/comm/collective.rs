//! What a collective on the engine's path keeps until it completes: the buffers its sending
//! sides packed, the landing buffer of its receiving side with the blocks to unpack from it,
//! and the arrays of counts, displacements and types it gave the MPI behind (which a
//! nonblocking collective may read until it completes), in a [`Collective`]. A blocking call
//! finishes at once; a nonblocking one keeps them with its request ([`super::pending`]),
//! whose completion unpacks.

use super::pending::{self, Pending};
pub use super::pending::{Collective, Landing, Refill};
use super::pool::Buffer;
use crate::abi::p2p::MPI_Request;
use crate::abi::MPI_SUCCESS;
use std::os::raw::c_int;

/// When a collective completes.
#[derive(Clone, Copy)]
pub enum After {
    /// When the call returns (a blocking collective).
    Return,
    /// When the request the call writes here completes (a nonblocking collective).
    Request(*mut MPI_Request),
    /// At each completion of the persistent request the call writes here, which packs the
    /// program's data at each start (a persistent collective).
    Persistent(*mut MPI_Request),
}

impl After {
    /// True for a persistent collective, whose data are packed at each start, not now.
    pub fn persistent(self) -> bool {
        matches!(self, After::Persistent(_))
    }
}

impl Collective {
    /// Keeps a buffer a sending side packed (if it packed).
    pub fn sent(&mut self, buffer: Option<Buffer>) {
        self.sent.extend(buffer);
    }

    /// Keeps the landing buffer of the receiving side (if it lands as bytes).
    pub fn lands(&mut self, landing: Option<Landing>) {
        self.landing = self.landing.take().or(landing);
    }

    /// Keeps the packing each start of a persistent collective does first (or, for another
    /// call, packs now: `after`).
    ///
    /// # Safety
    /// The program's copies are readable; the buffers they go to are kept here.
    pub unsafe fn refills(&mut self, refills: impl IntoIterator<Item = Refill>, after: After) {
        for refill in refills {
            match after.persistent() {
                true => self.refills.push(refill),
                // SAFETY: the caller's contract.
                false => unsafe { refill.pack() },
            }
        }
    }

    /// Runs `call`, the MPI behind's call of the collective, after the packing `refills`
    /// ([`Collective::refills`]), then finishes the collective with its answer
    /// ([`Collective::finish`]), which it returns.
    ///
    /// # Safety
    /// As for [`Collective::refills`] and [`Collective::finish`].
    pub unsafe fn run(
        mut self,
        refills: impl IntoIterator<Item = Refill>,
        call: impl FnOnce() -> c_int,
        after: After,
    ) -> c_int {
        // SAFETY: the caller's contract; this collective keeps the buffers packed into.
        unsafe { self.refills(refills, after) };
        let rc = call();
        // SAFETY: the caller's contract.
        unsafe { self.finish(rc, after) };
        rc
    }

    /// Takes on what `earlier`, kept by the same call, keeps.
    fn join(&mut self, earlier: Collective) {
        self.sent.extend(earlier.sent);
        self.landing = self.landing.take().or(earlier.landing);
        self.arrays.extend(earlier.arrays);
        self.refills.extend(earlier.refills);
    }

    /// Keeps `arrays` (the arrays the MPI behind was given) until the call completes.
    pub fn keeps(&mut self, arrays: impl std::any::Any + Send) {
        self.arrays.push(Box::new(arrays));
    }

    /// Finishes the call, which returned `rc`: when it completes at its return, unpacks what
    /// it delivered if it succeeded; for a request, keeps the buffers and blocks with the
    /// request the call made, until it completes.
    ///
    /// # Safety
    /// Each block's memory is writable (until the request completes); with a request, a
    /// successful call wrote it.
    pub unsafe fn finish(self, rc: c_int, after: After) {
        match after {
            After::Return if rc == MPI_SUCCESS => {
                // SAFETY: the caller's contract; the call delivered every block.
                unsafe { self.unpack() }
            }
            After::Request(request) | After::Persistent(request)
                if rc == MPI_SUCCESS && !request.is_null() =>
            {
                let persistent = after.persistent();
                if self.sent.is_empty() && self.landing.is_none() && self.arrays.is_empty() {
                    return;
                }
                // SAFETY: the caller's contract.
                let request = unsafe { request.read() };
                let mut collective = self;
                // What the call kept with the request already (the arrays it narrowed, or,
                // for what is kept after the call, all it kept itself).
                match pending::take(&[request]).pop().flatten() {
                    Some(Pending {
                        work: pending::Work::Collective(earlier),
                        ..
                    }) => collective.join(earlier),
                    // A message's entry (its own types are the MPI behind's to keep).
                    Some(other) => return pending::insert(request, other),
                    None => {}
                }
                let entry = match persistent {
                    true => Pending::persistent_collective(collective),
                    false => Pending::collective(collective),
                };
                pending::insert(request, entry);
            }
            _ => {}
        }
    }
}

/// Keeps `kept` (what a call gave the MPI behind) until the call completes (`after`: with the
/// request it made, as long as that request keeps what it keeps; nothing for a call
/// complete already).
///
/// # Safety
/// A request of `after` is the one the call made, which it wrote.
pub unsafe fn keep_until_complete(kept: impl std::any::Any + Send, after: After) {
    let mut collective = Collective::default();
    collective.keeps(kept);
    // SAFETY: nothing lands, so finishing unpacks nothing; the caller's request.
    unsafe { collective.finish(MPI_SUCCESS, after) };
}
