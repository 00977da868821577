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
//!
//! A round costs time in proportion to the partitions of both sides, however they are
//! marked: each receive partition counts the send partitions it still needs. A send freed
//! before any receive paired with it leaves its rounds for the receive that pairs next; a send
//! whose receive was freed keeps no data.

use super::mailbox::{truncated, Buffer, Outcome};
use super::slab::Slab;
use crate::abi::{MPI_Comm, MPI_ERR_ARG, MPI_ERR_INTERN, MPI_ERR_NO_MEM, MPI_ERR_OTHER};
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
    /// How many partitions (at least one).
    pub partitions: usize,
    /// The packed bytes of one partition.
    pub partition_bytes: usize,
    /// The packed bytes of all of them (which fit a `usize`).
    pub total: usize,
    /// The channel it shares with the other side; none when the other side is
    /// `MPI_PROC_NULL`.
    pub channel: Option<usize>,
}

impl Partitioned {
    /// The partitions `marked` names, each checked to be one of this side's, and none twice.
    pub fn partitions_of(&self, marked: Marked) -> MpiResult<Selection> {
        match marked {
            Marked::One(partition) => {
                let partition = self.check_partition(partition)?;
                Ok(Selection::Range(partition..=partition))
            }
            Marked::Range(low, high) => {
                let (low, high) = (self.check_partition(low)?, self.check_partition(high)?);
                Ok(Selection::Range(low..=high))
            }
            Marked::List(list) => {
                let list = list
                    .iter()
                    .map(|&p| self.check_partition(p))
                    .collect::<MpiResult<Vec<_>>>()?;
                let mut sorted = list.clone();
                sorted.sort_unstable();
                match sorted.windows(2).find(|pair| pair[0] == pair[1]) {
                    Some(pair) => Err(marked_twice(pair[0])),
                    None => Ok(Selection::List(list)),
                }
            }
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

/// The error of a partition marked ready twice in one start.
fn marked_twice(partition: usize) -> MpiError {
    MpiError::new(
        MPI_ERR_ARG,
        format!(
            "partition {partition} of this partitioned send is marked ready twice in one start"
        ),
    )
}

/// The error of a round that cannot be had.
fn no_memory(what: &str, bytes: usize) -> MpiError {
    MpiError::new(
        MPI_ERR_NO_MEM,
        format!("no memory for {what} ({bytes} bytes) of this start of a partitioned send"),
    )
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

/// The partitions a call marks ready, as the program gives them.
#[derive(Clone, Copy, Debug)]
pub enum Marked<'a> {
    /// One (`MPI_Pready`).
    One(c_int),
    /// From the first to the second, both included (`MPI_Pready_range`).
    Range(c_int, c_int),
    /// Those listed (`MPI_Pready_list`).
    List(&'a [c_int]),
}

/// The partitions a call marks ready, checked.
#[derive(Clone, Debug)]
pub enum Selection {
    /// From one to another, both included.
    Range(RangeInclusive<usize>),
    /// Those listed, each once.
    List(Vec<usize>),
}

impl Selection {
    /// No partition.
    pub fn none() -> Selection {
        Selection::List(Vec::new())
    }

    /// The partitions.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let (range, list) = match self {
            Selection::Range(range) => (Some(range.clone()), &[][..]),
            Selection::List(list) => (None, &list[..]),
        };
        range.into_iter().flatten().chain(list.iter().copied())
    }
}

/// A receive partition that waits for the whole round: it lies beyond a shorter message.
const WHOLE_ROUND: u32 = u32::MAX;

/// The data of one start of a partitioned send.
struct Round {
    /// The packed message; each partition's bytes are written when it is ready. Empty when
    /// no receive can take the round (its receive was freed).
    bytes: Vec<u8>,
    /// Which of the send's partitions are ready.
    ready: Vec<bool>,
    /// How many are not.
    waiting: usize,
    /// For each of the receive's partitions, how many send partitions it still needs (0: it
    /// arrived and is unpacked; [`WHOLE_ROUND`]: it waits for the whole round). Empty until
    /// a start of the receive takes the round.
    needs: Vec<u32>,
}

impl Round {
    /// A round of `partitions` partitions of `total` bytes in all, none ready; its bytes kept
    /// only if a receive may take them (`kept`).
    fn new(partitions: usize, total: usize, kept: bool) -> MpiResult<Round> {
        let mut bytes = Vec::new();
        if kept {
            bytes
                .try_reserve_exact(total)
                .map_err(|_| no_memory("the message", total))?;
            bytes.resize(total, 0);
        }
        let mut ready = Vec::new();
        ready
            .try_reserve_exact(partitions)
            .map_err(|_| no_memory("the partitions' flags", partitions))?;
        ready.resize(partitions, false);
        Ok(Round {
            bytes,
            ready,
            waiting: partitions,
            needs: Vec::new(),
        })
    }

    /// Counts, for each receive partition, the send partitions it still needs (a receive
    /// taking the round).
    fn count_needs(&mut self, cut: &Cut) -> MpiResult<()> {
        let mut ready_before = Vec::new();
        ready_before
            .try_reserve_exact(self.ready.len() + 1)
            .map_err(|_| no_memory("the partitions' counts", self.ready.len()))?;
        ready_before.push(0usize);
        for &ready in &self.ready {
            ready_before.push(ready_before[ready_before.len() - 1] + usize::from(ready));
        }
        let receive_parts = cut.receive.0;
        self.needs
            .try_reserve_exact(receive_parts)
            .map_err(|_| no_memory("the partitions' counts", receive_parts))?;
        for j in 0..receive_parts {
            let needs = match cut.beyond(j) {
                true => WHOLE_ROUND,
                false => {
                    let sources = cut.sources(j);
                    let all = sources.end() + 1 - sources.start();
                    let ready = ready_before[sources.end() + 1] - ready_before[*sources.start()];
                    (all - ready) as u32
                }
            };
            self.needs.push(needs);
        }
        Ok(())
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

    /// True if the receive partition `j` lies beyond the message (a receive longer than the
    /// send): it waits for the whole round, and receives nothing.
    fn beyond(&self, j: usize) -> bool {
        self.send.1 > 0 && self.receive.1 > 0 && self.bytes(j).is_empty()
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
    /// Made by a send (which waits for a receive to pair with), else by a receive.
    made_by_send: bool,
    /// Both sides were made.
    paired: bool,
    /// The send's request, while it is alive.
    sender: Option<usize>,
    /// The receive's request, while it is alive.
    receiver: Option<usize>,
    /// The bytes of one send partition.
    send_partition_bytes: usize,
    /// The rounds started by the send, oldest first.
    rounds: VecDeque<Round>,
}

impl Channel {
    /// True if no receive will ever take a round: the receive paired with the send was freed.
    fn orphaned(&self) -> bool {
        self.paired && self.receiver.is_none()
    }
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
            channels
                .get(index)
                .is_some_and(|c| c.comm == comm && c.tag == tag && c.made_by_send != side.sending)
        });
        let index = match partner {
            Some(position) => {
                let index = self.unpaired.remove(position);
                self.channel(index).paired = true;
                index
            }
            None => {
                let channel = Channel {
                    comm,
                    tag,
                    made_by_send: side.sending,
                    paired: false,
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

    /// The side `sending` of the channel at `index` is freed. A send never paired leaves the
    /// rounds it started for the receive that pairs next; a receive freed leaves its send
    /// nothing to keep; the channel goes when nothing is left of it.
    pub fn leave(&mut self, index: usize, sending: bool) {
        let channel = self.channel(index);
        match sending {
            true => channel.sender = None,
            false => channel.receiver = None,
        }
        if channel.orphaned() {
            // Only the send's own round, if it is started, is still of use, and not its data.
            let last = channel.rounds.pop_back();
            channel.rounds.clear();
            channel.rounds.extend(last.map(|round| Round {
                bytes: Vec::new(),
                ..round
            }));
        }
        let waiting_rounds = sending && !channel.paired && !channel.rounds.is_empty();
        let gone = channel.sender.is_none() && channel.receiver.is_none() && !waiting_rounds;
        if gone {
            self.unpaired.retain(|&i| i != index);
            self.channels.remove(index);
        }
    }

    /// The request of the receive of the channel at `index`, if it is alive.
    pub fn receiver(&self, index: usize) -> Option<usize> {
        self.channels.get(index)?.receiver
    }

    /// A start of the send `send` of the channel at `index`: a round of its partitions, none
    /// ready. `MPI_ERR_NO_MEM` if the round cannot be had.
    pub fn open_round(&mut self, index: usize, send: &Partitioned) -> MpiResult<()> {
        let channel = self.channel(index);
        let kept = !channel.orphaned();
        if !kept {
            channel.rounds.clear();
        }
        let round = Round::new(send.partitions, send.total, kept)?;
        channel.rounds.push_back(round);
        Ok(())
    }

    /// Marks the partitions `selection` of the started send `send` of the channel at `index`
    /// ready, copying their data into its round (all are checked first: none is marked if
    /// one is ready already). True if the send is now complete.
    ///
    /// # Safety
    /// The send buffer is readable, as for the send.
    pub unsafe fn ready(
        &mut self,
        index: usize,
        send: &Partitioned,
        selection: &Selection,
    ) -> MpiResult<bool> {
        let size = send.partition_bytes;
        let round = self.sender_round(index)?;
        if let Some(partition) = selection.iter().find(|&p| round.ready[p]) {
            return Err(marked_twice(partition));
        }
        for partition in selection.iter() {
            if !round.bytes.is_empty() {
                let at = partition * size;
                // SAFETY: the caller's contract; the partition lies inside the send's stream,
                // whose bytes the round holds.
                unsafe {
                    send.buffer
                        .pack_range(at as i64, &mut round.bytes[at..at + size])
                };
            }
            round.ready[partition] = true;
            round.waiting -= 1;
        }
        Ok(round.waiting == 0)
    }

    /// The round of the started send of the channel at `index`: the newest.
    fn sender_round(&mut self, index: usize) -> MpiResult<&mut Round> {
        self.channel(index)
            .rounds
            .back_mut()
            .ok_or_else(|| MpiError::new(MPI_ERR_INTERN, "a started partitioned send has no round"))
    }

    /// Unpacks into the started receive `receive` of the channel at `index` every partition
    /// of its round (the oldest) that has arrived and was not unpacked: all those that have,
    /// the first time it looks at the round, then those that needed the send partitions
    /// `newly` ready. The outcome of the receive if the whole round has arrived: the round is
    /// then done.
    ///
    /// # Safety
    /// The receive buffer is writable, as for the receive.
    pub unsafe fn deliver(
        &mut self,
        index: usize,
        receive: &Partitioned,
        newly: &Selection,
    ) -> MpiResult<Option<Outcome>> {
        let channel = self.channel(index);
        let (tag, send_size) = (channel.tag, channel.send_partition_bytes);
        let Some(round) = channel.rounds.front_mut() else {
            return Ok(None);
        };
        let cut = Cut {
            send: (round.ready.len(), send_size),
            receive: (receive.partitions, receive.partition_bytes),
            sent: round.bytes.len(),
        };
        let unpack = |round: &Round, j: usize| {
            let bytes = cut.bytes(j);
            // SAFETY: the caller's contract; the range lies inside the receive's stream.
            unsafe {
                receive
                    .buffer
                    .unpack_range(bytes.start as i64, &round.bytes[bytes])
            }
        };
        if round.needs.is_empty() {
            round.count_needs(&cut)?;
            for j in 0..receive.partitions {
                if round.needs[j] == 0 {
                    unpack(round, j);
                }
            }
        } else {
            for i in newly.iter() {
                for j in cut.targets(i..i + 1) {
                    let needs = round.needs[j];
                    if needs != 0 && needs != WHOLE_ROUND && cut.sources(j).contains(&i) {
                        round.needs[j] = needs - 1;
                        if needs == 1 {
                            unpack(round, j);
                        }
                    }
                }
            }
        }
        if round.waiting != 0 {
            return Ok(None);
        }
        channel.rounds.pop_front();
        let (sent, room) = (cut.sent, receive.total);
        Ok(Some(Outcome {
            source: 0,
            tag,
            bytes: sent.min(room) as i64,
            cancelled: false,
            error: truncated(sent as i64, room as i64).or_else(|| short(sent, room)),
        }))
    }

    /// True if the partition `partition` of the started receive of the channel at `index`
    /// has arrived (and is unpacked).
    pub fn arrived(&self, index: usize, partition: usize) -> bool {
        let round = self.channels.get(index).and_then(|c| c.rounds.front());
        round.is_some_and(|round| round.needs.get(partition) == Some(&0))
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
