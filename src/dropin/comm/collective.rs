//! What a collective on the engine's path keeps until it completes: the buffers its sending
//! sides packed, the landing buffer of its receiving side with the blocks to unpack from it,
//! and the arrays of counts, displacements and types it gave the MPI behind (which a
//! nonblocking collective may read until it completes). A blocking call finishes at once; a nonblocking one keeps them with its request
//! ([`super::pending`]), whose completion unpacks.

use super::pending::{self, Memory, Pending};
use super::pool::Buffer;
use crate::abi::p2p::MPI_Request;
use crate::abi::MPI_SUCCESS;
use std::os::raw::c_int;

/// Where a landing buffer's blocks go: each block's copies in the program's memory, and the
/// offset of its bytes in the buffer.
pub type Landing = (Buffer, Vec<(Memory, usize)>);

/// When a collective completes.
#[derive(Clone, Copy)]
pub enum After {
    /// When the call returns (a blocking collective).
    Return,
    /// When the request the call writes here completes (a nonblocking collective).
    Request(*mut MPI_Request),
}

/// The buffers and blocks of one collective call.
#[derive(Default)]
pub struct Collective {
    sent: Vec<Buffer>,
    landing: Option<Landing>,
    arrays: Vec<Box<dyn std::any::Any + Send>>,
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

    /// Keeps `arrays` (the arrays the MPI behind was given) until the call completes.
    pub fn keeps(&mut self, arrays: impl std::any::Any + Send) {
        self.arrays.push(Box::new(arrays));
    }

    /// Unpacks every block of the landing buffer into the program's memory.
    ///
    /// # Safety
    /// The MPI behind delivered every block, and each block's memory is writable.
    pub unsafe fn unpack(&self) {
        let Some((buffer, blocks)) = &self.landing else {
            return;
        };
        for (memory, offset) in blocks {
            // SAFETY: the caller's contract; each block's bytes lie within the buffer.
            unsafe { memory.unpack_whole(buffer.as_mut_ptr().add(*offset)) };
        }
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
            After::Request(request) if rc == MPI_SUCCESS && !request.is_null() => {
                if self.sent.is_empty() && self.landing.is_none() && self.arrays.is_empty() {
                    return;
                }
                // SAFETY: the caller's contract.
                let request = unsafe { request.read() };
                pending::insert(request, Pending::collective(self));
            }
            _ => {}
        }
    }
}
