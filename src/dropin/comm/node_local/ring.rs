//! A process's ring: a file in the node's shared memory that the process packs the messages
//! it sends through, and that the processes receiving them map and unpack from.
//!
//! The file starts with a head (its capacity and a number drawn at random when it was made),
//! and then holds slots one after another, wrapping around at its end. A slot is a message:
//! a slot head of [`SLOT_HEAD`] bytes (the message's number, its size, how many of its bytes
//! are filled, whether its receiver has released it) and then the packed bytes. The sender
//! reserves a slot ([`Ring::reserve`]), fills it in chunks and says after each how far it
//! got ([`Reserved::filled`]); the receiver copies out each chunk as it appears
//! ([`Slot::drain`]) and releases the slot when it has them all. Slots are released in any
//! order; the sender reuses the space of the oldest slots once they are released.
//!
//! The counters are atomics in the shared file: the sender's stores release what it wrote
//! before them, the receiver's loads acquire it.

use parking_lot::Mutex;
use std::collections::VecDeque;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The bytes of the ring's head and of each slot's head; slots start at multiples of it.
pub const SLOT_HEAD: u64 = 64;

/// The first word of every ring file.
const RING_MAGIC: u64 = u64::from_le_bytes(*b"mpidtyR1");

/// The head of a ring file.
#[repr(C)]
struct RingHead {
    /// [`RING_MAGIC`].
    magic: u64,
    /// The bytes of slots after the head.
    capacity: u64,
    /// A number drawn when the ring was made, repeated in every header of its messages.
    nonce: u64,
}

/// The head of one slot.
#[repr(C)]
struct SlotHead {
    /// The message's number, stored last when the slot is reserved.
    number: AtomicU64,
    /// The message's packed bytes.
    bytes: AtomicU64,
    /// How many of them the sender has written.
    filled: AtomicU64,
    /// 1 once the receiver has copied them out.
    released: AtomicU64,
}

/// A file of the node's shared memory mapped into this process.
struct Mapping {
    base: *mut u8,
    len: usize,
}

// SAFETY: the mapping is plain memory shared by design; every access to what other processes
// write goes through the atomics of the heads.
unsafe impl Send for Mapping {}
// SAFETY: as above.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// Maps the whole of `file`, `len` bytes, for reading and writing.
    fn of(file: &std::fs::File, len: usize) -> std::io::Result<Mapping> {
        use std::os::fd::AsRawFd;
        // SAFETY: a fresh shared mapping of an open file; checked for failure.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Mapping {
            base: base.cast(),
            len,
        })
    }

    fn head(&self) -> &RingHead {
        // SAFETY: every mapping is at least a head long and page-aligned.
        unsafe { &*self.base.cast::<RingHead>() }
    }

    fn capacity(&self) -> u64 {
        self.head().capacity
    }

    /// The head of the slot at `offset` (bytes after the ring's head).
    fn slot(&self, offset: u64) -> &SlotHead {
        // SAFETY: callers pass offsets of slots within the capacity, aligned to SLOT_HEAD.
        unsafe {
            &*self
                .base
                .add((SLOT_HEAD + offset) as usize)
                .cast::<SlotHead>()
        }
    }

    /// The first packed byte of the slot at `offset`.
    fn data(&self, offset: u64) -> *mut u8 {
        // SAFETY: as for `slot`: the data follow the slot's head within the mapping.
        unsafe { self.base.add((2 * SLOT_HEAD + offset) as usize) }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: the mapping this value made.
        unsafe { libc::munmap(self.base.cast(), self.len) };
    }
}

/// The space a slot of `bytes` packed bytes takes: its head and its bytes, rounded up to
/// [`SLOT_HEAD`].
fn slot_space(bytes: u64) -> u64 {
    SLOT_HEAD + bytes.div_ceil(SLOT_HEAD) * SLOT_HEAD
}

/// A number that differs from one ring to the next: the clock, the process and a counter,
/// mixed.
fn fresh_nonce() -> u64 {
    static MADE: AtomicU64 = AtomicU64::new(0);
    let clock = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos() as u64);
    let seed = clock ^ (u64::from(std::process::id()) << 32) ^ MADE.fetch_add(1, Ordering::Relaxed);
    // splitmix64's finaliser.
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One slot in the sender's order of reservation, or the unused end of the ring skipped to
/// wrap around (`offset` none).
struct Span {
    end: u64,
    offset: Option<u64>,
}

/// Where the sender reserves: positions count every byte ever reserved, the offset in the
/// ring is the position modulo the capacity.
#[derive(Default)]
struct Reservations {
    /// Where the next slot goes.
    head: u64,
    /// Where the oldest slot not yet reused starts.
    tail: u64,
    /// The slots between, oldest first.
    spans: VecDeque<Span>,
    /// The last message's number.
    number: u64,
}

/// This process's own ring, which it sends through.
pub struct Ring {
    mapping: Mapping,
    reservations: Mutex<Reservations>,
}

/// Where a receiver finds a message: the ring's nonce, the slot's offset, the message's
/// number and size. The sender puts it in the message's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The ring's nonce.
    pub nonce: u64,
    /// The slot's offset.
    pub offset: u64,
    /// The message's number.
    pub number: u64,
    /// The message's packed bytes.
    pub bytes: u64,
}

/// A slot the sender reserved and fills.
pub struct Reserved<'a> {
    mapping: &'a Mapping,
    place: Place,
}

impl Ring {
    /// Makes the ring file at `path`, with room for `capacity` bytes of slots (a multiple of
    /// [`SLOT_HEAD`]): made anew (a file left there is removed first), readable and writable
    /// by this user only, its pages taken from the shared memory now (an error where there is
    /// not enough of it, rather than a fault later).
    pub fn create(path: &Path, capacity: u64) -> std::io::Result<Ring> {
        let capacity = capacity / SLOT_HEAD * SLOT_HEAD;
        let len = (SLOT_HEAD + capacity) as usize;
        let _ = std::fs::remove_file(path);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)?;
        use std::os::fd::AsRawFd;
        // SAFETY: an open file, a length that fits.
        let reserved = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len as libc::off_t) };
        if reserved != 0 {
            let _ = std::fs::remove_file(path);
            return Err(std::io::Error::from_raw_os_error(reserved));
        }
        let mapping = Mapping::of(&file, len)?;
        // SAFETY: the head of the fresh mapping, which nobody else has yet.
        unsafe {
            mapping.base.cast::<RingHead>().write(RingHead {
                magic: RING_MAGIC,
                capacity,
                nonce: fresh_nonce(),
            })
        };
        Ok(Ring {
            mapping,
            reservations: Mutex::new(Reservations::default()),
        })
    }

    /// The largest message a slot holds.
    pub fn largest(&self) -> u64 {
        self.mapping.capacity() - SLOT_HEAD
    }

    /// Reserves a slot for a message of `bytes` packed bytes, if the ring has room for it now
    /// (the space of released slots is reused first).
    pub fn reserve(&self, bytes: u64) -> Option<Reserved<'_>> {
        let capacity = self.mapping.capacity();
        let space = slot_space(bytes);
        if space > capacity {
            return None;
        }
        let mut at = self.reservations.lock();
        self.reuse_released(&mut at);
        let mut offset = at.head % capacity;
        if offset + space > capacity {
            let skipped = capacity - offset;
            if at.head - at.tail + skipped + space > capacity {
                return None;
            }
            at.head += skipped;
            let end = at.head;
            at.spans.push_back(Span { end, offset: None });
            offset = 0;
        }
        if at.head - at.tail + space > capacity {
            return None;
        }
        at.head += space;
        at.number += 1;
        let end = at.head;
        at.spans.push_back(Span {
            end,
            offset: Some(offset),
        });
        let slot = self.mapping.slot(offset);
        slot.bytes.store(bytes, Ordering::Relaxed);
        slot.filled.store(0, Ordering::Relaxed);
        slot.released.store(0, Ordering::Relaxed);
        slot.number.store(at.number, Ordering::Release);
        let place = Place {
            nonce: self.mapping.head().nonce,
            offset,
            number: at.number,
            bytes,
        };
        Some(Reserved {
            mapping: &self.mapping,
            place,
        })
    }

    /// Moves the tail past the oldest slots their receivers released.
    fn reuse_released(&self, at: &mut Reservations) {
        while let Some(span) = at.spans.front() {
            let released = span.offset.is_none_or(|offset| {
                self.mapping.slot(offset).released.load(Ordering::Acquire) != 0
            });
            if !released {
                break;
            }
            at.tail = span.end;
            at.spans.pop_front();
        }
        if at.spans.is_empty() {
            // Empty: the next slot starts at the ring's start again.
            (at.head, at.tail) = (0, 0);
        }
    }
}

impl Reserved<'_> {
    /// Where the receiver finds the message.
    pub fn place(&self) -> Place {
        self.place
    }

    /// The slot's bytes, to fill.
    pub fn data(&self) -> *mut u8 {
        self.mapping.data(self.place.offset)
    }

    /// Says that the first `bytes` bytes are written.
    pub fn filled(&self, bytes: u64) {
        let slot = self.mapping.slot(self.place.offset);
        slot.filled.store(bytes, Ordering::Release);
    }

    /// Gives the slot up: its message was never announced (the header's send failed).
    pub fn abandon(self) {
        let slot = self.mapping.slot(self.place.offset);
        slot.released.store(1, Ordering::Release);
    }
}

/// Another process's ring, mapped to receive from.
pub struct Peer {
    mapping: Mapping,
}

impl Peer {
    /// Maps the ring file at `path`, if it is one.
    pub fn open(path: &Path) -> std::io::Result<Peer> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)?;
        let len = file.metadata()?.len();
        let invalid = || std::io::Error::from(std::io::ErrorKind::InvalidData);
        if len < SLOT_HEAD {
            return Err(invalid());
        }
        let mapping = Mapping::of(&file, len as usize)?;
        let head = mapping.head();
        if head.magic != RING_MAGIC || head.capacity.checked_add(SLOT_HEAD) != Some(len) {
            return Err(invalid());
        }
        Ok(Peer { mapping })
    }

    /// The slot `place` names, if this ring holds that message there.
    pub fn slot(&self, place: Place) -> Option<Slot<'_>> {
        let capacity = self.mapping.capacity();
        let fits = place.offset % SLOT_HEAD == 0
            && place.offset < capacity
            && place.bytes <= capacity
            && slot_space(place.bytes) <= capacity - place.offset;
        if !fits || place.nonce != self.mapping.head().nonce {
            return None;
        }
        let head = self.mapping.slot(place.offset);
        let numbered = head.number.load(Ordering::Acquire) == place.number;
        let sized = head.bytes.load(Ordering::Relaxed) == place.bytes;
        let open = head.released.load(Ordering::Acquire) == 0;
        (numbered && sized && open).then_some(Slot {
            mapping: &self.mapping,
            place,
        })
    }
}

/// A message in a peer's ring, to copy out.
pub struct Slot<'a> {
    mapping: &'a Mapping,
    place: Place,
}

impl Slot<'_> {
    /// Hands the first `wanted` packed bytes (at most the message's) to `take` in chunks as
    /// the sender fills them (each chunk with its offset in the message), waiting for each,
    /// then releases the slot once the sender has filled it all.
    pub fn drain(self, wanted: u64, mut take: impl FnMut(u64, &[u8])) {
        let wanted = wanted.min(self.place.bytes);
        let head = self.mapping.slot(self.place.offset);
        let data = self.mapping.data(self.place.offset);
        let mut done = 0;
        let mut idle = 0u32;
        while done < wanted {
            let filled = head.filled.load(Ordering::Acquire).min(wanted);
            if filled <= done {
                idle += 1;
                match idle < 64 {
                    true => std::hint::spin_loop(),
                    false => std::thread::yield_now(),
                }
                continue;
            }
            idle = 0;
            // SAFETY: the sender filled these bytes of the slot before it said so.
            let chunk = unsafe {
                std::slice::from_raw_parts(data.add(done as usize), (filled - done) as usize)
            };
            take(done, chunk);
            done = filled;
        }
        // The sender may reuse the slot once it is released: not before it wrote its last
        // byte, even where the receiver takes fewer.
        while head.filled.load(Ordering::Acquire) < self.place.bytes {
            std::thread::yield_now();
        }
        head.released.store(1, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::{Peer, Place, Ring, SLOT_HEAD};
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("mpi-dtype-ring-{name}-{}", std::process::id()))
    }

    /// The sender fills in chunks on one thread while the receiver drains on another; every
    /// byte arrives in order.
    #[test]
    fn a_message_arrives_whole_while_it_is_filled() {
        let path = scratch("whole");
        let ring = Ring::create(&path, 1 << 16).unwrap();
        let peer = Peer::open(&path).unwrap();
        let bytes = 40_000u64;
        let reserved = ring.reserve(bytes).unwrap();
        let place = reserved.place();
        let data = reserved.data() as usize;
        let mut got = vec![0u8; bytes as usize];
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let data = data as *mut u8;
                for start in (0..bytes).step_by(4096) {
                    let end = (start + 4096).min(bytes);
                    for i in start..end {
                        // SAFETY: within the reserved slot.
                        unsafe { data.add(i as usize).write((i % 251) as u8) };
                    }
                    reserved.filled(end);
                }
            });
            peer.slot(place).unwrap().drain(bytes, |at, chunk| {
                got[at as usize..at as usize + chunk.len()].copy_from_slice(chunk);
            });
        });
        assert!(got.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
        // Released: the same place names no message now.
        assert!(peer.slot(place).is_none());
        std::fs::remove_file(&path).unwrap();
    }

    /// Space comes back only as the oldest slots are released, in any order of release, and
    /// the ring wraps around.
    #[test]
    fn space_is_reused_once_released() {
        let path = scratch("reuse");
        let ring = Ring::create(&path, 4096).unwrap();
        let peer = Peer::open(&path).unwrap();
        assert_eq!(ring.largest(), 4096 - SLOT_HEAD);
        assert!(ring.reserve(5000).is_none());
        let filled = |reserved: super::Reserved| {
            reserved.filled(1000);
            reserved.place()
        };
        let first = filled(ring.reserve(1000).unwrap());
        let second = filled(ring.reserve(1000).unwrap());
        let third = filled(ring.reserve(1000).unwrap());
        assert!(ring.reserve(1000).is_none(), "full");
        // The second released first: still no room, the first holds the tail.
        let drain = |place: Place| peer.slot(place).unwrap().drain(0, |_, _| {});
        drain(second);
        assert!(ring.reserve(1000).is_none());
        drain(first);
        let fourth = ring.reserve(1000).expect("room after the two oldest");
        // Three slots of 1,088 bytes fill 3,264; the fourth wraps around to the start.
        assert_eq!(fourth.place().offset, 0);
        assert!(fourth.place().number > third.number);
        // A header that names a wrong number, size or nonce names nothing.
        let wrong = [
            Place {
                number: 99,
                ..third
            },
            Place {
                bytes: 999,
                ..third
            },
            Place {
                nonce: third.nonce ^ 1,
                ..third
            },
            Place {
                offset: 4096,
                ..third
            },
            Place {
                offset: 65,
                ..third
            },
        ];
        for place in wrong {
            assert!(peer.slot(place).is_none(), "{place:?}");
        }
        assert!(peer.slot(third).is_some());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_file_that_is_no_ring_is_refused() {
        let path = scratch("other");
        std::fs::write(&path, vec![7u8; 4096]).unwrap();
        assert!(Peer::open(&path).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
