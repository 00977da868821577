//! Partitioned communication of the one-process world (MPI-4.1 §4): the pairing of the sends
//! `MPI_Psend_init` makes with the receives `MPI_Precv_init` makes, and the data moving
//! between them partition by partition.
//!
//! A partitioned send and receive are paired once, when the second of them is made: each
//! takes the oldest one of the other kind not paired yet, of its communicator and tag (apart
//! from every other kind of message). The pair shares a [`Channel`]. Each start of the send
//! opens a round of the channel, into which each partition is copied when `MPI_Pready` marks
//! it ready; the send is complete when every partition is. Each start of the receive takes the
//! oldest round: each of its partitions is unpacked into the receive buffer as soon as every
//! send partition it overlaps is ready (so `MPI_Parrived` then says it arrived), and the
//! receive is complete when the whole round has arrived. The two sides may cut the message
//! into different partitions, and read it with different datatypes of the same signature.

use super::mailbox::{truncated, Buffer, Outcome};
use super::slab::Slab;
use crate::abi::{MPI_Comm, MPI_ERR_ARG, MPI_ERR_OTHER};
use crate::error::{MpiError, MpiResult};
use std::collections::VecDeque;
use std::ops::{Range, RangeInclusive};
use std::os::raw::c_int;

/// One side of a partitioned communication: what its request keeps.
pub struct Partitioned {
    /// True for the send, false for the receive.
    pub sending: bool,
    /// All the partitions' data: `partitions * count` copies of the datatype.
    pub buffer: Buffer,
    /// How many partitions.
    pub partitions: usize,
    /// The packed bytes of one partition.
    pub partition_bytes: usize,
    /// The channel it shares with the other side; none when the other side is
    /// `MPI_PROC_NULL`.
    pub channel: Option<usize>,
}

impl Partitioned {
    /// The packed bytes of all the partitions.
    fn total(&self) -> usize {
        self.partitions * self.partition_bytes
    }

    /// The partitions `marked` names, each checked to be one of this side's.
    pub fn partitions_of(&self, marked: Marked) -> MpiResult<Vec<usize>> {
        match marked {
            Marked::One(partition) => Ok(vec![self.check_partition(partition)?]),
            Marked::Range(low, high) => {
                let (low, high) = (self.check_partition(low)?, self.check_partition(high)?);
                Ok((low..=high).collect())
            }
            Marked::List(list) => list.iter().map(|&p| self.check_partition(p)).collect(),
        }
    }

    /// Checks that `partition` is one of this side's partitions.
    pub fn check_partition(&self, partition: c_int) -> MpiResult<usize> {
        usize::try_from(partition)
            .ok()
            .filter(|&p| p < self.partitions)
            .ok_or_else(|| {
                MpiError::new(
                    MPI_ERR_ARG,
                    format!(
                        "partition {partition} is not in 0..{} (the partitions of this request)",
                        self.partitions
                    ),
                )
            })
    }
}

/// The error of a partitioned send shorter than its receive: the two must be of one size
/// (MPI-4.1 §4.2.1).
fn short(sent: usize, room: usize) -> Option<MpiError> {
    (sent < room).then(|| {
        MpiError::new(
            MPI_ERR_OTHER,
            format!(
                "a partitioned send of {sent} bytes is paired with a receive of {room}: their \
                 sizes must be equal"
            ),
        )
    })
}

/// The partitions a call marks ready.
#[derive(Clone, Copy, Debug)]
pub enum Marked<'a> {
    /// One (`MPI_Pready`).
    One(c_int),
    /// From the first to the second, both included (`MPI_Pready_range`).
    Range(c_int, c_int),
    /// Those listed (`MPI_Pready_list`).
    List(&'a [c_int]),
}

/// The data of one start of a partitioned send.
struct Round {
    /// The packed message; each partition's bytes are written when it is ready.
    bytes: Vec<u8>,
    /// Which of the send's partitions are ready.
    ready: Vec<bool>,
    /// How many are not.
    waiting: usize,
    /// Which of the receive's partitions were unpacked; empty until a start of the receive
    /// takes the round.
    delivered: Vec<bool>,
}

impl Round {
    /// True if every send partition in `sources` is ready.
    fn has(&self, sources: RangeInclusive<usize>) -> bool {
        self.ready[sources].iter().all(|&ready| ready)
    }
}

/// How the two sides cut one message: which send partitions each receive partition needs.
/// Partitions of bytes overlap by their bytes; where either side's partitions hold no byte,
/// by their share of the message (partition `j` of `n` is the `j`-th `n`-th of it), so that a
/// receive partition of an empty message still waits for its own send partitions.
struct Cut {
    /// The send's partitions and the bytes of one.
    send: (usize, usize),
    /// The receive's partitions and the bytes of one.
    receive: (usize, usize),
    /// The bytes of the message.
    sent: usize,
}

impl Cut {
    /// The send partitions the receive partition `j` needs.
    fn sources(&self, j: usize) -> RangeInclusive<usize> {
        let ((parts, size), (their_parts, their_size)) = (self.send, self.receive);
        if size > 0 && their_size > 0 {
            let bytes = self.bytes(j);
            return match bytes.is_empty() {
                // Beyond the message (a receive longer than the send): the whole round.
                true => 0..=parts - 1,
                false => bytes.start / size..=(bytes.end - 1) / size,
            };
        }
        let first = j * parts / their_parts;
        first..=((j + 1) * parts).div_ceil(their_parts).max(first + 1) - 1
    }

    /// The receive partitions that may need some of the send partitions `sources`.
    fn targets(&self, sources: Range<usize>) -> Range<usize> {
        let ((parts, size), (their_parts, their_size)) = (self.send, self.receive);
        let (first, past) = match size > 0 && their_size > 0 {
            true => (
                sources.start * size / their_size,
                (sources.end * size).div_ceil(their_size),
            ),
            false => (
                sources.start * their_parts / parts,
                (sources.end * their_parts).div_ceil(parts),
            ),
        };
        first.min(their_parts)..past.min(their_parts)
    }

    /// The stream bytes of the receive partition `j` that the message holds.
    fn bytes(&self, j: usize) -> Range<usize> {
        let size = self.receive.1;
        (j * size).min(self.sent)..((j + 1) * size).min(self.sent)
    }
}

/// A paired (or not yet paired) send and receive, by their request indices, and the rounds
/// the send started that the receive has not completed.
struct Channel {
    /// The communicator.
    comm: MPI_Comm,
    /// The tag.
    tag: c_int,
    /// The send's request, while it is alive.
    sender: Option<usize>,
    /// The receive's request, while it is alive.
    receiver: Option<usize>,
    /// The bytes of one send partition (known once the send is made).
    send_partition_bytes: usize,
    /// The rounds started by the send, oldest first.
    rounds: VecDeque<Round>,
}

/// The channels of the world's partitioned communication.
#[derive(Default)]
pub struct Channels {
    /// The channels by index.
    channels: Slab<Channel>,
    /// The channels with one side only, in the order they were made: where a new side looks
    /// for its partner.
    unpaired: Vec<usize>,
}

impl Channels {
    /// Pairs the new side `side` (whose request is at `request`) of `comm` and `tag` with the
    /// oldest unpaired side of the other kind, or makes a channel where it waits for one:
    /// the channel's index.
    pub fn join(
        &mut self,
        side: &Partitioned,
        comm: MPI_Comm,
        tag: c_int,
        request: usize,
    ) -> usize {
        let channels = &self.channels;
        let partner = self.unpaired.iter().position(|&index| {
            channels.get(index).is_some_and(|c| {
                c.comm == comm && c.tag == tag && (c.sender.is_none() == side.sending)
            })
        });
        let index = match partner {
            Some(position) => self.unpaired.remove(position),
            None => {
                let channel = Channel {
                    comm,
                    tag,
                    sender: None,
                    receiver: None,
                    send_partition_bytes: 0,
                    rounds: VecDeque::new(),
                };
                let index = self.channels.insert(channel);
                self.unpaired.push(index);
                index
            }
        };
        let channel = self.channel(index);
        match side.sending {
            true => {
                channel.sender = Some(request);
                channel.send_partition_bytes = side.partition_bytes;
            }
            false => channel.receiver = Some(request),
        }
        index
    }

    /// The side `sending` of the channel at `index` is freed: the channel goes when neither
    /// side is left, or when the side leaving was never paired. Rounds the receive has not
    /// taken stay for it.
    pub fn leave(&mut self, index: usize, sending: bool) {
        let channel = self.channel(index);
        match sending {
            true => channel.sender = None,
            false => channel.receiver = None,
        }
        let alone = self.unpaired.iter().position(|&i| i == index);
        if let Some(position) = alone {
            self.unpaired.remove(position);
        }
        let channel = self.channel(index);
        if alone.is_some() || (channel.sender.is_none() && channel.receiver.is_none()) {
            self.channels.remove(index);
        }
    }

    /// The request of the receive of the channel at `index`, if it is alive.
    pub fn receiver(&self, index: usize) -> Option<usize> {
        self.channels.get(index)?.receiver
    }

    /// A start of the send `send`: a round of its partitions, none ready. True if it has no
    /// partition, so it is complete at once.
    pub fn open_round(&mut self, send: &Partitioned) -> bool {
        let Some(index) = send.channel else {
            return true;
        };
        self.channel(index).rounds.push_back(Round {
            bytes: vec![0; send.total()],
            ready: vec![false; send.partitions],
            waiting: send.partitions,
            delivered: Vec::new(),
        });
        send.partitions == 0
    }

    /// Marks the partitions `partitions` of the started send `send` ready, copying their
    /// data into its round (all are checked first: none is marked if one is out of range or
    /// ready already). True if the send is now complete; the partitions newly ready.
    ///
    /// # Safety
    /// The send buffer is readable, as for the send.
    pub unsafe fn ready(
        &mut self,
        send: &Partitioned,
        partitions: &[usize],
    ) -> MpiResult<(bool, Range<usize>)> {
        let Some(index) = send.channel else {
            return Ok((false, 0..0));
        };
        let size = send.partition_bytes;
        let round = self.sender_round(index)?;
        let mut sorted = partitions.to_vec();
        sorted.sort_unstable();
        let twice = sorted
            .windows(2)
            .find(|pair| pair[0] == pair[1])
            .map(|pair| pair[0]);
        let marked = partitions.iter().copied().find(|&p| round.ready[p]);
        if let Some(partition) = twice.or(marked) {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!(
                    "partition {partition} of this partitioned send is marked ready twice in \
                     one start"
                ),
            ));
        }
        let (mut low, mut high) = (usize::MAX, 0);
        for &partition in partitions {
            let at = partition * size;
            // SAFETY: the caller's contract; the partition lies inside the send's stream.
            unsafe {
                send.buffer
                    .pack_range(at as i64, &mut round.bytes[at..at + size])
            };
            round.ready[partition] = true;
            round.waiting -= 1;
            (low, high) = (low.min(partition), high.max(partition + 1));
        }
        Ok((round.waiting == 0, low.min(high)..high))
    }

    /// The round of the started send of the channel at `index`: the newest.
    fn sender_round(&mut self, index: usize) -> MpiResult<&mut Round> {
        self.channel(index).rounds.back_mut().ok_or_else(|| {
            MpiError::new(
                crate::abi::MPI_ERR_INTERN,
                "a started partitioned send has no round",
            )
        })
    }

    /// Unpacks into the started receive `receive` every partition of its round (the oldest)
    /// that has arrived and was not unpacked, looking only at those that need the send
    /// partitions `newly` ready (at all of them the first time it looks at the round, and once
    /// the whole round is ready). The outcome of the receive if the whole round has arrived:
    /// the round is then done.
    ///
    /// # Safety
    /// The receive buffer is writable, as for the receive.
    pub unsafe fn deliver(
        &mut self,
        receive: &Partitioned,
        newly: Range<usize>,
    ) -> Option<Outcome> {
        let index = receive.channel?;
        let channel = self.channel(index);
        let (tag, send_size) = (channel.tag, channel.send_partition_bytes);
        let round = channel.rounds.front_mut()?;
        let cut = Cut {
            send: (round.ready.len(), send_size),
            receive: (receive.partitions, receive.partition_bytes),
            sent: round.bytes.len(),
        };
        let candidates = match round.delivered.is_empty() || round.waiting == 0 {
            true => 0..receive.partitions,
            false => cut.targets(newly),
        };
        if round.delivered.is_empty() {
            round.delivered = vec![false; receive.partitions];
        }
        for partition in candidates {
            if round.delivered[partition] || !round.has(cut.sources(partition)) {
                continue;
            }
            let bytes = cut.bytes(partition);
            // SAFETY: the caller's contract; the range lies inside the receive's stream.
            unsafe {
                receive
                    .buffer
                    .unpack_range(bytes.start as i64, &round.bytes[bytes.clone()])
            };
            round.delivered[partition] = true;
        }
        if round.waiting != 0 {
            return None;
        }
        channel.rounds.pop_front();
        let (sent, room) = (cut.sent, receive.total());
        Some(Outcome {
            source: 0,
            tag,
            bytes: sent.min(room) as i64,
            cancelled: false,
            error: truncated(sent as i64, room as i64).or_else(|| short(sent, room)),
        })
    }

    /// True if the partition `partition` of the started receive `receive` has arrived (and
    /// is unpacked).
    pub fn arrived(&self, receive: &Partitioned, partition: usize) -> bool {
        let Some(index) = receive.channel else {
            return true;
        };
        let round = self.channels.get(index).and_then(|c| c.rounds.front());
        round.is_some_and(|round| round.delivered.get(partition) == Some(&true))
    }

    /// The channel at `index`, which is alive while a request names it.
    fn channel(&mut self, index: usize) -> &mut Channel {
        match self.channels.get_mut(index) {
            Some(channel) => channel,
            None => unreachable!("a channel a request names is alive"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cut of small messages: each receive partition needs exactly the send partitions
    /// that hold its bytes (or its share of an empty message), and the receive partitions
    /// looked at when some send partitions become ready include every one that needs them
    /// (but those beyond a shorter message, looked at once the whole round is ready).
    #[test]
    fn receive_partitions_need_the_send_partitions_that_overlap_them() {
        for (parts, size, their_parts, their_size) in cuts(6, 4) {
            let sent = parts * size;
            let cut = Cut {
                send: (parts, size),
                receive: (their_parts, their_size),
                sent,
            };
            for j in 0..their_parts {
                let sources = cut.sources(j);
                assert!(!sources.is_empty() && *sources.end() < parts);
                if size > 0 && their_size > 0 && !cut.bytes(j).is_empty() {
                    let bytes = cut.bytes(j);
                    for i in 0..parts {
                        let overlaps = i * size < bytes.end && bytes.start < (i + 1) * size;
                        assert_eq!(
                            sources.contains(&i),
                            overlaps,
                            "{parts}x{size} / {their_parts}x{their_size}: {j} needs {i}?"
                        );
                    }
                }
                let beyond = size > 0 && their_size > 0 && cut.bytes(j).is_empty();
                for i in sources.filter(|_| !beyond) {
                    assert!(
                        cut.targets(i..i + 1).contains(&j),
                        "{parts}x{size} / {their_parts}x{their_size}: {i} reaches {j}"
                    );
                }
            }
        }
    }

    /// Every (send partitions, bytes of one, receive partitions, bytes of one) with at most
    /// `parts` partitions and `size` bytes a side, the receive as long as the send or longer.
    fn cuts(parts: usize, size: usize) -> Vec<(usize, usize, usize, usize)> {
        let mut all = Vec::new();
        for p in 1..=parts {
            for s in 0..=size {
                for q in 1..=parts {
                    for t in 0..=size {
                        if q * t >= p * s {
                            all.push((p, s, q, t));
                        }
                    }
                }
            }
        }
        all
    }
}
