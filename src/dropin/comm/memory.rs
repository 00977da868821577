//! The program's side of a message the engine packs: the copies of a datatype at an address
//! in the program's memory, packed from there and unpacked to there, whole or a range of the
//! packed stream at a time.

use super::pool::Buffer;
use crate::datatype::Datatype;
use std::sync::Arc;

/// The program's side of a packed message: the copies of a datatype at an address.
#[derive(Clone)]
pub struct Memory {
    /// The address the type map is relative to (`MPI_BOTTOM` included), as an integer.
    pub address: usize,
    /// The datatype, kept alive while the request is.
    pub datatype: Arc<Datatype>,
    /// The copies.
    pub count: i64,
}

impl Memory {
    fn pointer(&self) -> *mut u8 {
        std::ptr::with_exposed_provenance_mut(self.address)
    }

    /// Copies `first` to `first + count - 1` of these copies.
    pub fn copies(&self, first: i64, count: i64) -> Memory {
        let offset = first.wrapping_mul(self.datatype.extent()) as isize;
        Memory {
            address: self.address.wrapping_add_signed(offset),
            datatype: self.datatype.clone(),
            count,
        }
    }

    /// Packs the program's data into `buffer`.
    ///
    /// # Safety
    /// The type map relative to the address is readable and `buffer` holds `count * size`
    /// bytes.
    pub unsafe fn pack_into(&self, buffer: &Buffer) {
        // SAFETY: the caller's contract.
        unsafe { self.pack_to(buffer.as_mut_ptr()) }
    }

    /// Packs the program's data to `out`.
    ///
    /// # Safety
    /// The type map relative to the address is readable and `out` is writable for
    /// `count * size` bytes.
    pub unsafe fn pack_to(&self, out: *mut u8) {
        // SAFETY: the caller's contract.
        unsafe { crate::plan::pack_all(&self.datatype.plan, self.count, self.pointer(), out) }
    }

    /// Packs the bytes `[offset, offset + out.len())` of the packed stream of the program's
    /// data into `out`.
    ///
    /// # Safety
    /// The type map relative to the address is readable in that range, which lies within
    /// the `count * size` bytes of the stream.
    pub unsafe fn pack_range(&self, offset: i64, out: &mut [u8]) {
        // SAFETY: the caller's contract.
        unsafe {
            crate::plan::pack_range(&self.datatype.plan, self.count, self.pointer(), offset, out)
        }
    }

    /// Unpacks `input`, the bytes from `offset` on of the packed stream, into the program's
    /// memory.
    ///
    /// # Safety
    /// The type map relative to the address is writable in that range, which lies within
    /// the `count * size` bytes of the stream.
    pub unsafe fn unpack_range(&self, offset: i64, input: &[u8]) {
        // SAFETY: the caller's contract.
        unsafe {
            crate::plan::unpack_range(
                &self.datatype.plan,
                self.count,
                self.pointer(),
                offset,
                input,
            )
        }
    }

    /// Unpacks the whole packed stream at `input` into the program's memory.
    ///
    /// # Safety
    /// The type map relative to the address is writable and `input` is readable for
    /// `count * size` bytes.
    pub unsafe fn unpack_whole(&self, input: *const u8) {
        // SAFETY: the caller's contract.
        unsafe { crate::plan::unpack_all(&self.datatype.plan, self.count, input, self.pointer()) }
    }

    /// Unpacks the first `received` bytes of `buffer` (the whole packed stream, or the start
    /// of it for a short or truncated message) into the program's memory, once the last byte
    /// received through a type with a hole is in its place ([`Buffer::close_hole`]).
    ///
    /// # Safety
    /// The type map relative to the address is writable and the first `received` bytes of
    /// `buffer` were received.
    pub unsafe fn unpack_from(&self, buffer: &Buffer, received: usize) {
        let whole = (self.datatype.size() * self.count) as usize;
        let received = received.min(whole);
        // SAFETY: the caller's contract; `received` is within the packed stream.
        unsafe {
            buffer.close_hole();
            let bytes = buffer.filled(received);
            if received == whole {
                self.unpack_whole(bytes.as_ptr())
            } else {
                crate::plan::unpack_range(&self.datatype.plan, self.count, self.pointer(), 0, bytes)
            }
        }
    }
}
