//! The buffers packed messages travel in: kept for reuse by size class, so that a program
//! sending the same kind of message again and again allocates only its first few.
//!
//! A buffer's capacity is a power of two from 4 KiB up. A class hands its buffers out in
//! turn, the one given back longest ago first, and makes new ones until it has
//! [`turn_of`] of them, up to [`IN_TURN_BYTES`] in all: a buffer the process has just
//! filled and sent is read by the receiving process (MPICH and Open MPI copy a contiguous
//! message of some KiB straight from the sender's memory), whose processor then holds its
//! lines; filling the same buffer for the next message must take each line back from that
//! processor first. Two ranks over MPICH 4.0.2 on an AMD EPYC, one way, 64 KiB of contiguous
//! bytes (`benches/rewritten_send.c`): 7.1-7.2 µs sent as they are, 16.4-16.9 when the
//! sender writes the buffer just before (0.7-0.9 µs to write it alone); the engine's path of
//! WRF's y halo (63 KB) 16.1 µs with one buffer, 10.6 with a class's buffers in turn.
//!
//! When a buffer is dropped it goes back to its class's free list, unless that list already
//! holds [`kept_of`] buffers or the class is above [`LARGEST_KEPT`] (such buffers go back to
//! the allocator). [`lent`] counts the buffers taken and not yet dropped, which
//! `MPI_Finalize` reports with `MPI_DTYPE_DEBUG=1`.

use parking_lot::Mutex;
use std::alloc::Layout;
use std::collections::VecDeque;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The smallest capacity, as a power of two (4 KiB).
const SMALLEST_CLASS: u32 = 12;
/// Size classes: capacities 2^12 to 2^62 bytes (a layout's size is at most `isize::MAX`).
const CLASSES: usize = 51;
/// Buffers kept per class at least (for the messages of one call in flight at once).
const KEPT_PER_CLASS: usize = 4;
/// The most buffers a class hands out in turn.
const MOST_IN_TURN: usize = 16;
/// The bytes of the buffers a class hands out in turn (1 MiB): 16 buffers of 64 KiB, 2 of
/// 512 KiB, one from 1 MiB on. Rotating over 4 MiB instead measured no faster.
const IN_TURN_BYTES: usize = 1 << 20;
/// The largest capacity kept for reuse (256 MiB); larger buffers are freed when dropped.
const LARGEST_KEPT: usize = 1 << 28;
/// Alignment of every buffer: a cache line.
const ALIGN: usize = 64;

/// An address of a free buffer (a raw pointer is neither `Send` nor `Sync`).
#[derive(Clone, Copy)]
struct FreeBuffer(usize);

/// One class's buffers.
struct Class {
    /// Those given back, the longest ago first.
    free: VecDeque<FreeBuffer>,
    /// How many exist, lent or free.
    made: usize,
}

/// The classes.
static CLASS: [Mutex<Class>; CLASSES] = [const {
    Mutex::new(Class {
        free: VecDeque::new(),
        made: 0,
    })
}; CLASSES];
/// Buffers taken and not yet dropped.
static LENT: AtomicUsize = AtomicUsize::new(0);

/// How many buffers are lent out: taken from the pool and not yet given back (0 once every
/// message's request is complete or freed).
pub fn lent() -> usize {
    LENT.load(Ordering::Acquire)
}

/// A buffer of at least the length asked for, from the pool.
pub struct Buffer {
    ptr: NonNull<u8>,
    class: usize,
    /// For a buffer taken with [`Buffer::take_holed`], the offset of the byte the MPI behind
    /// writes one place further on.
    hole: Option<usize>,
}

// SAFETY: the buffer is plain memory owned by this value alone.
unsafe impl Send for Buffer {}
// SAFETY: as above; `&Buffer` gives no access to the bytes.
unsafe impl Sync for Buffer {}

/// The class of the smallest capacity that holds `len` bytes (`CLASSES` or more if none).
fn first_class(len: usize) -> usize {
    match len.max(1).checked_next_power_of_two() {
        Some(capacity) => (capacity.trailing_zeros().saturating_sub(SMALLEST_CLASS)) as usize,
        None => CLASSES,
    }
}

fn capacity_of(class: usize) -> usize {
    1usize << (SMALLEST_CLASS as usize + class)
}

fn layout_of(class: usize) -> Layout {
    Layout::from_size_align(capacity_of(class), ALIGN).expect("a power of two below 2^63")
}

/// How many buffers `class` makes before it reuses one: [`IN_TURN_BYTES`] of them, between
/// 1 and [`MOST_IN_TURN`].
fn turn_of(class: usize) -> usize {
    (IN_TURN_BYTES >> (SMALLEST_CLASS as usize + class).min(usize::BITS as usize - 1))
        .clamp(1, MOST_IN_TURN)
}

/// How many free buffers `class` keeps.
fn kept_of(class: usize) -> usize {
    match capacity_of(class) <= LARGEST_KEPT {
        true => turn_of(class).max(KEPT_PER_CLASS),
        false => 0,
    }
}

impl Buffer {
    /// A buffer of at least `len` bytes, reused from the pool or newly allocated; `None` if
    /// the allocator has no memory for it (the caller then lets the MPI behind move the data).
    pub fn take(len: usize) -> Option<Buffer> {
        let class = first_class(len);
        if class >= CLASSES {
            return None;
        }
        let reused = {
            let mut buffers = CLASS[class].lock();
            let reused = match buffers.made < turn_of(class) {
                true => None,
                false => buffers.free.pop_front(),
            };
            if reused.is_none() {
                buffers.made += 1;
            }
            reused
        };
        let ptr = match reused {
            Some(FreeBuffer(address)) => {
                NonNull::new(address as *mut u8).expect("free lists hold allocations")
            }
            // SAFETY: the layout has a nonzero size.
            None => match NonNull::new(unsafe { std::alloc::alloc(layout_of(class)) }) {
                Some(made) => made,
                None => {
                    CLASS[class].lock().made -= 1;
                    return None;
                }
            },
        };
        LENT.fetch_add(1, Ordering::AcqRel);
        Some(Buffer {
            ptr,
            class,
            hole: None,
        })
    }

    /// A buffer that receives `len` bytes through a type of the MPI behind with a hole of
    /// one byte before the last ([`super::holed::holed_bytes`]): the first `len - 1`
    /// bytes land in place and the last at `len`, one place further on, until
    /// [`Buffer::close_hole`] moves it. (At least `len + 1` bytes; `len` is at least 1.)
    pub fn take_holed(len: usize) -> Option<Buffer> {
        let mut buffer = Buffer::take(len.checked_add(1)?)?;
        buffer.hole = Some(len.max(1) - 1);
        Some(buffer)
    }

    /// Moves the byte received past the hole of a buffer taken with [`Buffer::take_holed`]
    /// to its place, so that the buffer holds the bytes received one after another (nothing
    /// for another buffer; doing it again changes nothing).
    ///
    /// # Safety
    /// No receive is writing into the buffer.
    pub unsafe fn close_hole(&self) {
        if let Some(hole) = self.hole {
            // SAFETY: the buffer holds at least `hole + 2` bytes (`take_holed`), and the
            // caller's contract.
            unsafe { *self.ptr.as_ptr().add(hole) = *self.ptr.as_ptr().add(hole + 1) };
        }
    }

    /// The buffer's first byte.
    pub fn as_mut_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// The buffer's bytes `..len` (which the caller must have written or received).
    ///
    /// # Safety
    /// The first `len` bytes were written, and `len` is at most the capacity.
    pub unsafe fn filled(&self, len: usize) -> &[u8] {
        debug_assert!(len <= capacity_of(self.class));
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), len) }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        LENT.fetch_sub(1, Ordering::AcqRel);
        {
            let mut buffers = CLASS[self.class].lock();
            if buffers.free.len() < kept_of(self.class) {
                buffers
                    .free
                    .push_back(FreeBuffer(self.ptr.as_ptr() as usize));
                return;
            }
            buffers.made -= 1;
        }
        // SAFETY: allocated in `take` with this class's layout, and owned by this value.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), layout_of(self.class)) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The only test that takes buffers, so that it can count them.
    #[test]
    fn buffers_hold_what_is_asked_are_handed_out_in_turn_and_counted() {
        let first = Buffer::take(5000).unwrap();
        assert_eq!(capacity_of(first.class), 8192);
        assert_eq!(first.as_mut_ptr() as usize % ALIGN, 0);
        assert_eq!(lent(), 1);
        let first_address = first.as_mut_ptr();
        drop(first);
        assert_eq!(lent(), 0);
        // 8 KiB buffers go in a turn of 16: each message until then gets a new one, and the
        // seventeenth the first again.
        assert_eq!(turn_of(first_class(5000)), MOST_IN_TURN);
        let mut seen = vec![first_address];
        for _ in 1..MOST_IN_TURN {
            let next = Buffer::take(8000).unwrap();
            assert!(!seen.contains(&next.as_mut_ptr()));
            seen.push(next.as_mut_ptr());
        }
        assert_eq!(Buffer::take(6000).unwrap().as_mut_ptr(), first_address);
        assert_eq!(CLASS[first_class(5000)].lock().made, MOST_IN_TURN);
        // From 1 MiB on, a class reuses its one buffer.
        assert_eq!(turn_of(first_class(3 << 20)), 1);
        let large = Buffer::take(3 << 20).unwrap().as_mut_ptr();
        assert_eq!(Buffer::take(3 << 20).unwrap().as_mut_ptr(), large);
        assert_eq!(capacity_of(Buffer::take(0).unwrap().class), 4096);
        assert!(Buffer::take(usize::MAX / 2).is_none());
        assert_eq!(lent(), 0);
        // A class keeps no more free buffers than its turn: of 17 lent at once, the one
        // given back last goes back to the allocator.
        let held: Vec<Buffer> = (0..=MOST_IN_TURN)
            .map(|_| Buffer::take(8000).unwrap())
            .collect();
        assert_eq!(lent(), MOST_IN_TURN + 1);
        assert_eq!(CLASS[first_class(8000)].lock().made, MOST_IN_TURN + 1);
        drop(held);
        assert_eq!(lent(), 0);
        assert_eq!(CLASS[first_class(8000)].lock().made, MOST_IN_TURN);
        assert_eq!(CLASS[first_class(8000)].lock().free.len(), MOST_IN_TURN);
        // A buffer the allocator cannot give counts for nothing.
        assert!(Buffer::take(1 << 62).is_none());
        assert_eq!(CLASS[first_class(1 << 62)].lock().made, 0);
        assert_eq!(lent(), 0);
    }
}
