//! The messages of the one-process world and their matching: the messages sent and not yet
//! received (in the order they were sent), the receives posted and not yet matched (in the
//! order they were posted), and the rules that pair them (MPI-4.1 §3.5: a receive matches a
//! message of its communicator whose tag it names or `MPI_ANY_TAG`; of several, the first
//! sent, so that messages do not overtake each other).
//!
//! Data move through the pack engine: a send packs the program's data into the message's
//! bytes, a receive unpacks them into its own buffer with its own datatype, which may differ
//! from the sender's if the type signatures agree (MPI-4.1 §3.3.1).

use crate::abi::{MPI_Comm, MPI_ANY_TAG, MPI_ERR_TRUNCATE, MPI_PROC_NULL};
use crate::datatype::layout::Layout;
use crate::datatype::Datatype;
use crate::error::{MpiError, MpiResult};
use std::collections::VecDeque;
use std::os::raw::c_int;
use std::sync::Arc;

/// `count` copies of `datatype` at `address` in the program's memory: what a send reads or a
/// receive writes.
#[derive(Clone)]
pub struct Buffer {
    /// The buffer's address (`MPI_BOTTOM` is 0).
    pub address: usize,
    /// The copies.
    pub count: i64,
    /// Their datatype, committed.
    pub datatype: Arc<Datatype>,
}

impl Buffer {
    /// The bytes of the data, packed.
    ///
    /// # Safety
    /// The type map of `count` copies is readable relative to the address.
    pub unsafe fn pack(&self) -> MpiResult<Vec<u8>> {
        let size = crate::pack::packed_size(&self.datatype, self.count)?;
        let mut bytes = Vec::with_capacity(size as usize);
        let mut position = 0;
        // SAFETY: the caller's contract; `bytes` has room for the packed size, and packing
        // writes every byte of it (so they are initialized when the length is set).
        unsafe {
            crate::pack::pack(
                std::ptr::with_exposed_provenance(self.address),
                self.count,
                &self.datatype,
                bytes.as_mut_ptr(),
                size,
                &mut position,
            )?;
            bytes.set_len(position as usize);
        }
        Ok(bytes)
    }

    /// Unpacks `bytes` into the buffer: as many as it holds, and `MPI_ERR_TRUNCATE` if the
    /// message is longer (MPI-4.1 §3.2.4). Returns the bytes received.
    ///
    /// # Safety
    /// The type map of `count` copies is writable relative to the address.
    pub unsafe fn unpack(&self, bytes: &[u8]) -> (i64, Option<MpiError>) {
        let room = crate::pack::packed_size(&self.datatype, self.count).unwrap_or(0);
        let taken = (bytes.len() as i64).min(room);
        // SAFETY: the caller's contract; `taken` bytes lie inside the packed stream of
        // `count` copies.
        unsafe { self.unpack_range(0, &bytes[..taken as usize]) };
        (taken, truncated(bytes.len() as i64, room))
    }

    /// Packs the bytes of the data's packed stream from `offset` on into `out` (as many as it
    /// holds): one partition of a partitioned send.
    ///
    /// # Safety
    /// The type map of `count` copies is readable relative to the address, and
    /// `offset + out.len()` is at most the packed size of `count` copies.
    pub unsafe fn pack_range(&self, offset: i64, out: &mut [u8]) {
        // SAFETY: the caller's contract.
        unsafe {
            crate::plan::pack_range(
                &self.datatype.plan,
                self.count,
                std::ptr::with_exposed_provenance(self.address),
                offset,
                out,
            )
        }
    }

    /// Unpacks `bytes` into the data's packed stream from `offset` on: one partition of a
    /// partitioned receive.
    ///
    /// # Safety
    /// The type map of `count` copies is writable relative to the address, and
    /// `offset + bytes.len()` is at most the packed size of `count` copies.
    pub unsafe fn unpack_range(&self, offset: i64, bytes: &[u8]) {
        // SAFETY: the caller's contract.
        unsafe {
            crate::plan::unpack_range(
                &self.datatype.plan,
                self.count,
                std::ptr::with_exposed_provenance_mut(self.address),
                offset,
                bytes,
            )
        }
    }
}

/// `MPI_ERR_TRUNCATE` if a message of `sent` bytes is longer than the `room` of its receive
/// buffer (MPI-4.1 §3.2.4).
pub(super) fn truncated(sent: i64, room: i64) -> Option<MpiError> {
    (sent > room).then(|| {
        MpiError::new(
            MPI_ERR_TRUNCATE,
            format!("a message of {sent} bytes arrived in a receive buffer of {room} bytes"),
        )
    })
}

/// True if the address ranges `a` and `b` share no byte.
fn apart(a: &std::ops::Range<usize>, b: &std::ops::Range<usize>) -> bool {
    a.end <= b.start || b.end <= a.start
}

/// The bytes a direct copy moves at a time through its buffer, small enough to stay in cache.
const CHUNK: usize = 64 * 1024;

impl Buffer {
    /// Where the data lie: the addresses from their first byte to past their last, and
    /// whether they fill them as one run in type-map order (the core's summary of the copies'
    /// type map, [`Layout::repeated`]). A buffer whose bounds overflow, which no program
    /// can pass, is taken as spanning all memory, in no run.
    fn placement(&self) -> (std::ops::Range<usize>, bool) {
        let dt = &self.datatype;
        match dt.layout.repeated(self.count, dt.extent()) {
            Ok(Layout {
                data: Some(span),
                dense,
                ..
            }) => {
                let at = |offset: i64| self.address.wrapping_add_signed(offset as isize);
                (at(span.min)..at(span.max), dense)
            }
            Ok(_) => (0..0, false),
            Err(_) => (0..usize::MAX, false),
        }
    }

    /// Copies the data of this buffer into `to` as a message would move them, without a
    /// message's buffer: one copy when both are contiguous, packed straight into `to` or
    /// unpacked straight from this buffer when one of them is (and they do not overlap), else
    /// packed and unpacked through a buffer of [`CHUNK`] bytes. `to` takes what fits
    /// (`MPI_ERR_TRUNCATE` if the data are longer). Returns the bytes received.
    ///
    /// # Safety
    /// The type map of this buffer is readable, that of `to` writable.
    pub unsafe fn copy_into(&self, to: &Buffer) -> MpiResult<(i64, Option<MpiError>)> {
        let sent = crate::pack::packed_size(&self.datatype, self.count)?;
        let room = crate::pack::packed_size(&to.datatype, to.count)?;
        let taken = sent.min(room);
        if taken == 0 {
            // Nothing moves (and either buffer may be NULL).
            return Ok((0, truncated(sent, room)));
        }
        let ((from, from_is_run), (into, into_is_run)) = (self.placement(), to.placement());
        let apart = || apart(&from, &into);
        let (from, into) = (from.start, into.start);
        match (from_is_run, into_is_run) {
            (true, true) => {
                // SAFETY: the caller's contract: `taken` bytes are readable at `from` and
                // writable at `into` (they may be the same buffer, as in
                // MPI_Sendrecv_replace).
                unsafe {
                    std::ptr::copy(
                        std::ptr::with_exposed_provenance::<u8>(from),
                        std::ptr::with_exposed_provenance_mut::<u8>(into),
                        taken as usize,
                    )
                }
            }
            (false, true) if apart() => {
                // SAFETY: the caller's contract; `taken` bytes at `into` are the receive's
                // data, writable and apart from every byte this buffer's type map reads.
                unsafe {
                    let into = std::slice::from_raw_parts_mut(
                        std::ptr::with_exposed_provenance_mut::<u8>(into),
                        taken as usize,
                    );
                    crate::plan::pack_range(
                        &self.datatype.plan,
                        self.count,
                        std::ptr::with_exposed_provenance(self.address),
                        0,
                        into,
                    )
                }
            }
            (true, false) if apart() => {
                // SAFETY: the caller's contract; `taken` bytes at `from` are the data sent,
                // readable and apart from every byte `to`'s type map writes.
                unsafe {
                    let from = std::slice::from_raw_parts(
                        std::ptr::with_exposed_provenance::<u8>(from),
                        taken as usize,
                    );
                    crate::plan::unpack_range(
                        &to.datatype.plan,
                        to.count,
                        std::ptr::with_exposed_provenance_mut(to.address),
                        0,
                        from,
                    )
                }
            }
            // SAFETY: the caller's contract; `taken` is at most both packed sizes.
            _ => unsafe { self.copy_through_chunks(to, taken) },
        }
        Ok((taken, truncated(sent, room)))
    }

    /// The general case of [`Buffer::copy_into`]: the first `taken` bytes of the data packed
    /// into a buffer of [`CHUNK`] bytes and unpacked into `to`, a chunk at a time (so the
    /// bytes of `MPI_Sendrecv_replace`, the same on both sides, are read before they are
    /// written back).
    ///
    /// # Safety
    /// As for [`Buffer::copy_into`]; `taken` is at most both packed sizes.
    unsafe fn copy_through_chunks(&self, to: &Buffer, taken: i64) {
        let mut chunk = vec![0u8; (taken as usize).min(CHUNK)];
        let mut at = 0i64;
        while at < taken {
            let n = ((taken - at) as usize).min(CHUNK);
            // SAFETY: the caller's contract; `[at, at + n)` lies inside both packed streams.
            unsafe {
                crate::plan::pack_range(
                    &self.datatype.plan,
                    self.count,
                    std::ptr::with_exposed_provenance(self.address),
                    at,
                    &mut chunk[..n],
                );
                crate::plan::unpack_range(
                    &to.datatype.plan,
                    to.count,
                    std::ptr::with_exposed_provenance_mut(to.address),
                    at,
                    &chunk[..n],
                );
            }
            at += n as i64;
        }
    }
}

/// What a completed receive (or probe) reports in its status.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The sender's rank (0), or `MPI_PROC_NULL` for a receive from it.
    pub source: c_int,
    /// The message's tag (`MPI_ANY_TAG` for a receive from `MPI_PROC_NULL`).
    pub tag: c_int,
    /// The bytes received.
    pub bytes: i64,
    /// The operation was cancelled.
    pub cancelled: bool,
    /// The operation failed (a truncated message).
    pub error: Option<MpiError>,
}

impl Outcome {
    /// The outcome a status tells (its source, tag, byte count and cancelled flag), with no
    /// error: a generalized request's query fills one, `MPI_Isendrecv`'s exchange returns one.
    pub fn from_status(status: &crate::abi::MPI_Status) -> Outcome {
        Outcome {
            source: status.MPI_SOURCE,
            tag: status.MPI_TAG,
            bytes: status.count_bytes(),
            cancelled: status.cancelled(),
            error: None,
        }
    }

    /// The outcome of a receive from `MPI_PROC_NULL` (MPI-4.1 §3.11).
    pub fn from_null_process() -> Outcome {
        Outcome {
            source: MPI_PROC_NULL,
            tag: MPI_ANY_TAG,
            bytes: 0,
            cancelled: false,
            error: None,
        }
    }

    /// The outcome of a send, or of an operation cancelled (`cancelled`).
    pub fn of_send(cancelled: bool) -> Outcome {
        Outcome {
            source: 0,
            tag: 0,
            bytes: 0,
            cancelled,
            error: None,
        }
    }
}

/// Which messages a receive or probe takes: of `comm`, from `source` (0 or `MPI_ANY_SOURCE`:
/// the one process), with `tag` (or `MPI_ANY_TAG`).
#[derive(Clone, Copy, Debug)]
pub struct Selector {
    /// The communicator.
    pub comm: MPI_Comm,
    /// The tag, or `MPI_ANY_TAG`.
    pub tag: c_int,
}

impl Selector {
    /// True if a message of `comm` with `tag` is one this selects: the one rule of matching.
    pub fn takes(&self, comm: MPI_Comm, tag: c_int) -> bool {
        self.comm == comm && (self.tag == MPI_ANY_TAG || self.tag == tag)
    }
}

/// A message sent and not yet received.
pub struct Message {
    /// Its communicator.
    pub comm: MPI_Comm,
    /// Its tag.
    pub tag: c_int,
    /// The data, packed.
    pub bytes: Vec<u8>,
    /// The send request that waits for this message to be received or may cancel it.
    pub sender: Option<usize>,
    /// Bytes of the attached buffer this buffered send holds until it is received.
    pub buffered: usize,
}

impl Message {
    /// What a probe of it reports.
    pub fn outcome(&self) -> Outcome {
        Outcome {
            source: 0,
            tag: self.tag,
            bytes: self.bytes.len() as i64,
            cancelled: false,
            error: None,
        }
    }

    /// Unpacks the message into `buffer` and says what the receive reports.
    ///
    /// # Safety
    /// As for [`Buffer::unpack`].
    pub unsafe fn deliver(&self, buffer: &Buffer) -> Outcome {
        // SAFETY: the caller's contract.
        let (bytes, error) = unsafe { buffer.unpack(&self.bytes) };
        Outcome {
            bytes,
            error,
            ..self.outcome()
        }
    }
}

/// A receive posted and not yet matched: its buffer, what it takes, and its request.
pub struct Posted {
    /// What it receives.
    pub selector: Selector,
    /// Where the data go.
    pub buffer: Buffer,
    /// The request that reports it.
    pub request: usize,
}

/// The messages waiting for a receive and the receives waiting for a message.
#[derive(Default)]
pub struct Mailbox {
    /// Messages sent and not received, in the order they were sent.
    unexpected: VecDeque<Message>,
    /// Receives posted and not matched, in the order they were posted.
    posted: VecDeque<Posted>,
}

impl Mailbox {
    /// True if a posted receive matches a message of `comm` with `tag`.
    pub fn has_receive(&self, comm: MPI_Comm, tag: c_int) -> bool {
        self.posted.iter().any(|p| p.selector.takes(comm, tag))
    }

    /// Takes the first posted receive that matches a message of `comm` with `tag`.
    pub fn take_receive(&mut self, comm: MPI_Comm, tag: c_int) -> Option<Posted> {
        let at = self
            .posted
            .iter()
            .position(|posted| posted.selector.takes(comm, tag))?;
        self.posted.remove(at)
    }

    /// Queues a message no posted receive matched.
    pub fn queue(&mut self, message: Message) {
        self.unexpected.push_back(message);
    }

    /// The first message `selector` takes, left in place (a probe).
    pub fn peek(&self, selector: &Selector) -> Option<&Message> {
        self.unexpected
            .iter()
            .find(|message| selector.takes(message.comm, message.tag))
    }

    /// Takes the first message `selector` takes.
    pub fn take_message(&mut self, selector: &Selector) -> Option<Message> {
        let at = self
            .unexpected
            .iter()
            .position(|message| selector.takes(message.comm, message.tag))?;
        self.unexpected.remove(at)
    }

    /// Posts a receive no message matched.
    pub fn post(&mut self, posted: Posted) {
        self.posted.push_back(posted);
    }

    /// Takes back the receive of `request` if it is still posted.
    pub fn withdraw_receive(&mut self, request: usize) -> Option<Posted> {
        let at = self.posted.iter().position(|p| p.request == request)?;
        self.posted.remove(at)
    }

    /// Takes back the message of the send `request` if it was not received yet.
    pub fn withdraw_message(&mut self, request: usize) -> Option<Message> {
        let at = self
            .unexpected
            .iter()
            .position(|m| m.sender == Some(request))?;
        self.unexpected.remove(at)
    }

    /// Forgets that `request` sent any queued message (the request is freed).
    pub fn forget_sender(&mut self, request: usize) {
        for message in self.unexpected.iter_mut() {
            if message.sender == Some(request) {
                message.sender = None;
            }
        }
    }

    /// Releases every queued message's hold on the attached buffer (it was detached).
    pub fn release_buffered(&mut self) {
        for message in self.unexpected.iter_mut() {
            message.buffered = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{MPI_COMM_SELF, MPI_COMM_WORLD};
    use crate::datatype::construct::{named, resized, structure, subarray, vector};
    use crate::datatype::Order;

    fn double() -> Arc<Datatype> {
        named(crate::predefined::by_name("MPI_DOUBLE").unwrap())
    }

    /// Layouts on both sides of a self-message: one run (plain doubles; a subarray that is
    /// whole rows, with an extent far beyond its data), copies that do not abut, strided and
    /// reordered ones (a struct of two doubles in reverse: one span, two runs), and copies
    /// that go backwards (a negative extent).
    fn layouts() -> Vec<(&'static str, i64, Arc<Datatype>)> {
        let d = double();
        let two = vector(2, 1, 1, false, &d, false).unwrap();
        vec![
            ("doubles", 24, d.clone()),
            (
                "whole rows",
                1,
                subarray(vec![8, 6], vec![4, 6], vec![2, 0], Order::C, &d, false).unwrap(),
            ),
            ("spaced pairs", 12, resized(&two, 0, 24, false).unwrap()),
            ("vector", 3, vector(8, 1, 2, false, &d, false).unwrap()),
            (
                "reversed",
                12,
                structure(vec![1, 1], vec![8, 0], vec![d.clone(), d.clone()], false).unwrap(),
            ),
            ("backwards", 24, resized(&d, 0, -8, false).unwrap()),
        ]
    }

    #[test]
    fn a_direct_copy_moves_what_a_message_would_between_any_two_layouts() {
        for (from_name, from_count, from_type) in layouts() {
            for (to_name, to_count, to_type) in layouts() {
                let source: Vec<u8> = (0..1024u32).map(|i| (i * 7 + 3) as u8).collect();
                let base = |v: &Vec<u8>| v.as_ptr() as usize + 512;
                let from = Buffer {
                    address: base(&source),
                    count: from_count,
                    datatype: from_type.clone(),
                };
                let mut direct = vec![0xAAu8; 1024];
                let mut through_message = direct.clone();
                let to = |v: &mut Vec<u8>| Buffer {
                    address: v.as_mut_ptr() as usize + 512,
                    count: to_count,
                    datatype: to_type.clone(),
                };
                // SAFETY: every layout lies within 512 bytes either side of its address.
                let (taken, error) = unsafe { from.copy_into(&to(&mut direct)) }.unwrap();
                // SAFETY: as above.
                let (expected, expected_error) =
                    unsafe { to(&mut through_message).unpack(&from.pack().unwrap()) };
                let case = format!("{from_name} into {to_name}");
                assert_eq!(direct, through_message, "{case}");
                assert_eq!(taken, expected, "{case}");
                assert_eq!(error.is_some(), expected_error.is_some(), "{case}");
            }
        }
    }

    #[test]
    fn no_copies_at_a_null_address_move_nothing() {
        for (name, _, datatype) in layouts() {
            let nothing = Buffer {
                address: 0,
                count: 0,
                datatype: datatype.clone(),
            };
            let mut data = vec![7u8; 1024];
            let some = Buffer {
                address: data.as_mut_ptr() as usize + 512,
                count: 1,
                datatype,
            };
            // SAFETY: no byte is read or written at address 0; `some` lies within `data`.
            let (taken, error) = unsafe { nothing.copy_into(&some) }.unwrap();
            assert_eq!((taken, error.is_none()), (0, true), "nothing into {name}");
            // SAFETY: as above; the message is longer than no room.
            let (taken, error) = unsafe { some.copy_into(&nothing) }.unwrap();
            assert_eq!((taken, error.is_some()), (0, true), "{name} into nothing");
            assert!(data.iter().all(|&b| b == 7), "{name}");
        }
    }

    #[test]
    fn buffers_that_share_bytes_overlap() {
        let d = double();
        let at = |address, count| Buffer {
            address,
            count,
            datatype: d.clone(),
        };
        let overlap = |a: Buffer, b: Buffer| !apart(&a.placement().0, &b.placement().0);
        assert!(overlap(at(1000, 4), at(1024, 4)));
        assert!(!overlap(at(1000, 4), at(1032, 4)));
        assert!(!overlap(at(1000, 0), at(1000, 4)));
        let backwards = || Buffer {
            address: 1000,
            count: 4,
            datatype: resized(&d, 0, -8, false).unwrap(),
        };
        assert_eq!(backwards().placement().0, 976..1008);
        assert!(overlap(backwards(), at(1000, 1)));
        assert!(!overlap(backwards(), at(1008, 1)));
    }

    fn message(comm: MPI_Comm, tag: c_int, byte: u8) -> Message {
        Message {
            comm,
            tag,
            bytes: vec![byte],
            sender: None,
            buffered: 0,
        }
    }

    #[test]
    fn receives_take_the_first_message_of_their_communicator_and_tag() {
        let mut mailbox = Mailbox::default();
        mailbox.queue(message(MPI_COMM_WORLD, 1, 10));
        mailbox.queue(message(MPI_COMM_SELF, 2, 20));
        mailbox.queue(message(MPI_COMM_WORLD, 2, 30));
        mailbox.queue(message(MPI_COMM_WORLD, 2, 40));
        let world_2 = Selector {
            comm: MPI_COMM_WORLD,
            tag: 2,
        };
        assert_eq!(mailbox.take_message(&world_2).unwrap().bytes, [30]);
        let any = Selector {
            comm: MPI_COMM_WORLD,
            tag: MPI_ANY_TAG,
        };
        assert_eq!(mailbox.peek(&any).unwrap().bytes, [10]);
        assert_eq!(mailbox.take_message(&any).unwrap().bytes, [10]);
        assert_eq!(mailbox.take_message(&any).unwrap().bytes, [40]);
        assert!(mailbox.take_message(&any).is_none());
        let self_any = Selector {
            comm: MPI_COMM_SELF,
            tag: MPI_ANY_TAG,
        };
        assert_eq!(mailbox.take_message(&self_any).unwrap().bytes, [20]);
    }
}
