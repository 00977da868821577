//! Point-to-point communication of the one-process world: its state behind one lock (the
//! [`Mailbox`], the requests, the messages `MPI_Mprobe` matched, the buffer attached for
//! buffered sends) and the operations the exported functions call.
//!
//! A call that must wait (a blocking receive, a synchronous send, `MPI_Wait`) waits only if
//! another thread could still act: the world was initialized with `MPI_THREAD_MULTIPLE` and
//! another thread that has made a point-to-point call is alive. Otherwise nothing can ever
//! complete it, and it fails with `MPI_ERR_OTHER`, saying what it would have waited for,
//! instead of hanging (a thread that ends wakes the waiting ones, which then look again).

use super::generalized::Generalized;
use super::mailbox::{Buffer, Mailbox, Message, Outcome, Posted, Selector};
use super::partitioned::{Channels, Marked, Partitioned, Selection};
use super::requests::{Mode, Operation, Progress, Request};
use super::slab::Slab;
use crate::abi::{MPI_BSEND_OVERHEAD, MPI_ERR_BUFFER, MPI_ERR_OTHER, MPI_ERR_REQUEST};
use crate::abi::{MPI_PROC_NULL, MPI_THREAD_MULTIPLE};
use crate::error::{MpiError, MpiResult};
use parking_lot::{Condvar, Mutex, MutexGuard};
use std::os::raw::c_int;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};

/// The state of the world's messages.
#[derive(Default)]
struct World {
    /// Messages and posted receives.
    mailbox: Mailbox,
    /// The requests the program holds.
    requests: Slab<Request>,
    /// The messages `MPI_Mprobe` / `MPI_Improbe` matched, until they are received.
    matched: Slab<Message>,
    /// The buffer `MPI_Buffer_attach` attached: its address and size.
    attached: Option<(usize, usize)>,
    /// Bytes of it that buffered sends not yet received hold.
    buffered: usize,
    /// The pairs of partitioned sends and receives.
    channels: Channels,
}

/// The world, behind its lock.
static WORLD: LazyLock<Mutex<World>> = LazyLock::new(Default::default);
/// Signalled whenever the world changes, for calls that wait.
static CHANGED: Condvar = Condvar::new();
/// Threads alive that have made a point-to-point call.
static THREADS: AtomicUsize = AtomicUsize::new(0);

/// A thread's place in [`THREADS`], given up when the thread ends.
struct Enrolment;

impl Enrolment {
    fn new() -> Enrolment {
        THREADS.fetch_add(1, Ordering::SeqCst);
        Enrolment
    }
}

impl Drop for Enrolment {
    fn drop(&mut self) {
        let _world = WORLD.lock();
        THREADS.fetch_sub(1, Ordering::SeqCst);
        CHANGED.notify_all();
    }
}

thread_local! {
    static ENROLMENT: Enrolment = Enrolment::new();
}

/// Counts the calling thread among those that may send, until it ends (the thread that
/// initializes MPI, and every thread at its first point-to-point call).
pub fn enrol() {
    ENROLMENT.with(|_| ());
}

/// The world, locked, by a thread now counted among those that communicate.
fn world() -> MutexGuard<'static, World> {
    enrol();
    WORLD.lock()
}

/// Waits for the world to change, or fails if no other thread could change it: `call` would
/// never return, because of `what`.
fn wait(world: &mut MutexGuard<'static, World>, call: &str, what: String) -> MpiResult<()> {
    let others = THREADS.load(Ordering::SeqCst) > 1;
    if crate::process::thread_level() != MPI_THREAD_MULTIPLE || !others {
        return Err(MpiError::new(
            MPI_ERR_OTHER,
            format!(
                "{call} would never return: {what}, and in this one-process world no other \
                 thread can change that"
            ),
        ));
    }
    CHANGED.wait(world);
    Ok(())
}

impl World {
    /// Delivers a message to the first posted receive that matches it, or queues it (a
    /// buffered send takes its room in the attached buffer; a ready send must find its
    /// receive). Returns true if a receive took it.
    fn send(
        &mut self,
        mode: Mode,
        selector: Selector,
        bytes: Vec<u8>,
        sender: Option<usize>,
    ) -> MpiResult<bool> {
        let mut message = Message {
            comm: selector.comm,
            tag: selector.tag,
            bytes,
            sender: None,
            buffered: 0,
        };
        if let Some(posted) = self.mailbox.take_receive(selector.comm, selector.tag) {
            // SAFETY: a posted receive's buffer is the program's until the receive completes.
            let outcome = unsafe { message.deliver(&posted.buffer) };
            self.complete(posted.request, outcome);
            return Ok(true);
        }
        match mode {
            Mode::Ready => {
                return Err(MpiError::new(
                    MPI_ERR_OTHER,
                    format!(
                        "no receive is posted for this ready-mode send (tag {}): a ready send \
                         may start only after its receive (MPI-4.1 §3.4)",
                        selector.tag
                    ),
                ))
            }
            Mode::Buffered => message.buffered = self.reserve(message.bytes.len())?,
            Mode::Standard | Mode::Synchronous => {}
        }
        message.sender = sender;
        self.mailbox.queue(message);
        CHANGED.notify_all();
        Ok(false)
    }

    /// Takes room for a buffered send of `bytes` bytes in the attached buffer.
    fn reserve(&mut self, bytes: usize) -> MpiResult<usize> {
        let needed = bytes + MPI_BSEND_OVERHEAD as usize;
        let Some((_, size)) = self.attached else {
            return Err(MpiError::new(
                MPI_ERR_BUFFER,
                "a buffered send needs a buffer attached with MPI_Buffer_attach",
            ));
        };
        if self.buffered + needed > size {
            return Err(MpiError::new(
                MPI_ERR_BUFFER,
                format!(
                    "the attached buffer of {size} bytes has {} free, and this buffered send \
                     needs {needed} ({bytes} of data and MPI_BSEND_OVERHEAD)",
                    size - self.buffered
                ),
            ));
        }
        self.buffered += needed;
        Ok(needed)
    }

    /// Receives `message` into `buffer`: unpacks it, gives its room in the attached buffer
    /// back and completes a synchronous send waiting for it.
    ///
    /// # Safety
    /// `buffer` is writable, as for [`Buffer::unpack`].
    unsafe fn receive(&mut self, message: Message, buffer: &Buffer) -> Outcome {
        // SAFETY: the caller's contract.
        let outcome = unsafe { message.deliver(buffer) };
        self.buffered -= message.buffered;
        if let Some(sender) = message.sender {
            let active = self
                .requests
                .get(sender)
                .is_some_and(|r| r.progress == Progress::Active);
            if active {
                self.complete(sender, Outcome::of_send(false));
            }
        }
        CHANGED.notify_all();
        outcome
    }

    /// Marks the request at `index` complete with `outcome`; one the program freed goes now.
    fn complete(&mut self, index: usize, outcome: Outcome) {
        let Some(request) = self.requests.get_mut(index) else {
            return;
        };
        if request.freed {
            self.forget(index);
        } else {
            request.progress = Progress::Done(outcome);
        }
        CHANGED.notify_all();
    }

    /// Forgets the request at `index`.
    fn forget(&mut self, index: usize) {
        let request = self.requests.remove(index);
        self.mailbox.forget_sender(index);
        if let Some(Operation::Partitioned(side)) = request.map(|r| r.operation) {
            if let Some(channel) = side.channel {
                self.channels.leave(channel, side.sending);
            }
        }
    }

    /// Unpacks what has arrived for the receive of the partitioned channel `channel`, if it
    /// is started, looking at the partitions that need the send partitions `newly` marked ready;
    /// completes it if the whole round has arrived.
    fn deliver(&mut self, channel: usize, newly: &Selection) -> MpiResult<()> {
        let Some(receiver) = self.channels.receiver(channel) else {
            return Ok(());
        };
        let Some(request) = self.requests.get(receiver) else {
            return Ok(());
        };
        let (Progress::Active, Operation::Partitioned(side)) =
            (&request.progress, &request.operation)
        else {
            return Ok(());
        };
        let side = Arc::clone(side);
        // SAFETY: a started receive's buffer is the program's until it completes.
        if let Some(outcome) = unsafe { self.channels.deliver(channel, &side, newly)? } {
            self.complete(receiver, outcome);
        }
        Ok(())
    }

    /// Starts the partitioned send or receive `side` at `index`.
    fn start_partitioned(&mut self, index: usize, side: &Partitioned) -> MpiResult<()> {
        match (side.channel, side.sending) {
            (None, true) => self.complete(index, Outcome::of_send(false)),
            (None, false) => self.complete(index, Outcome::from_null_process()),
            (Some(channel), true) => {
                self.channels.open_round(channel, side)?;
                self.deliver(channel, &Selection::none())?;
            }
            (Some(channel), false) => self.deliver(channel, &Selection::none())?,
        }
        Ok(())
    }

    /// Starts the operation of the request at `index`.
    fn start(&mut self, index: usize) -> MpiResult<()> {
        let request = self.requests.get_mut(index).ok_or_else(no_request)?;
        if request.progress != Progress::Inactive {
            return Err(MpiError::new(
                MPI_ERR_REQUEST,
                format!("the request made by {} is active already", request.made_by),
            ));
        }
        request.progress = Progress::Active;
        match request.operation.clone() {
            Operation::Send { dest, .. } if dest == MPI_PROC_NULL => {
                self.complete(index, Outcome::of_send(false))
            }
            Operation::Send {
                buffer,
                mode,
                selector,
                ..
            } => {
                // SAFETY: the program's send buffer, readable while the send runs.
                let bytes = unsafe { buffer.pack() }?;
                let received = self.send(mode, selector, bytes, Some(index));
                if let Err(error) = received {
                    self.requests
                        .get_mut(index)
                        .ok_or_else(no_request)?
                        .progress = Progress::Inactive;
                    return Err(error);
                }
                if received == Ok(true) || mode != Mode::Synchronous {
                    self.complete(index, Outcome::of_send(false));
                }
            }
            Operation::Receive { source, .. } if source == MPI_PROC_NULL => {
                self.complete(index, Outcome::from_null_process())
            }
            Operation::Receive {
                buffer, selector, ..
            } => match self.mailbox.take_message(&selector) {
                Some(message) => {
                    // SAFETY: the program's receive buffer, writable while the receive runs.
                    let outcome = unsafe { self.receive(message, &buffer) };
                    self.complete(index, outcome);
                }
                None => self.mailbox.post(Posted {
                    selector,
                    buffer,
                    request: index,
                }),
            },
            Operation::Partitioned(side) => {
                if let Err(error) = self.start_partitioned(index, &side) {
                    if let Some(request) = self.requests.get_mut(index) {
                        request.progress = Progress::Inactive;
                    }
                    return Err(error);
                }
            }
            Operation::Matched | Operation::Collective(_) | Operation::Generalized(_) => {}
        }
        Ok(())
    }
}

/// The error of a request handle the world does not hold.
fn no_request() -> MpiError {
    MpiError::new(
        MPI_ERR_REQUEST,
        "not a request of this process (freed, or never made)",
    )
}

/// A blocking send of `buffer` in `mode` (`MPI_Send`, `MPI_Ssend`, ...): returns when the
/// data are received or kept (a synchronous send waits for its receive).
///
/// # Safety
/// `buffer` is readable.
pub unsafe fn send(
    call: &'static str,
    mode: Mode,
    buffer: Buffer,
    dest: c_int,
    selector: Selector,
) -> MpiResult<()> {
    if dest == MPI_PROC_NULL {
        return Ok(());
    }
    if mode != Mode::Synchronous {
        // SAFETY: the caller's contract.
        let bytes = unsafe { buffer.pack() }?;
        return world().send(mode, selector, bytes, None).map(drop);
    }
    let index = start(
        call,
        Operation::Send {
            buffer,
            mode,
            dest,
            selector,
        },
        false,
    )?;
    complete(call, &[Some(index)], Want::All, How::Wait)
        .map(drop)
        .inspect_err(|_| {
            let mut world = world();
            world.mailbox.withdraw_message(index);
            world.forget(index);
        })
}

/// `MPI_Sendrecv`: the message sent goes straight into the receive buffer when the receive
/// would take it anyway (the same communicator and a matching tag, no earlier message for
/// the receive, no posted receive for the message); otherwise it is sent, then received.
///
/// # Safety
/// `sent` is readable, `received` writable.
pub unsafe fn sendrecv(
    call: &'static str,
    (sent, dest, sent_to): (Buffer, c_int, Selector),
    (received, source, received_from): (Buffer, c_int, Selector),
) -> MpiResult<Outcome> {
    let direct =
        dest == 0 && source != MPI_PROC_NULL && received_from.takes(sent_to.comm, sent_to.tag);
    if direct {
        let world = world();
        let first = world.mailbox.peek(&received_from).is_none()
            && !world.mailbox.has_receive(sent_to.comm, sent_to.tag);
        if first {
            // SAFETY: the caller's contract.
            let (bytes, error) = unsafe { sent.copy_into(&received) }?;
            return Ok(Outcome {
                source: 0,
                tag: sent_to.tag,
                bytes,
                cancelled: false,
                error,
            });
        }
    }
    // SAFETY: the caller's contract; the data sent are packed before any are received.
    unsafe {
        send(call, Mode::Standard, sent, dest, sent_to)?;
        receive(call, received, source, received_from)
    }
}

/// A blocking receive into `buffer` from `source` (`MPI_Recv`).
///
/// # Safety
/// `buffer` is writable.
pub unsafe fn receive(
    call: &'static str,
    buffer: Buffer,
    source: c_int,
    selector: Selector,
) -> MpiResult<Outcome> {
    if source == MPI_PROC_NULL {
        return Ok(Outcome::from_null_process());
    }
    let mut world = world();
    loop {
        if let Some(message) = world.mailbox.take_message(&selector) {
            // SAFETY: the caller's contract.
            return Ok(unsafe { world.receive(message, &buffer) });
        }
        let what = format!("no message matches this receive (tag {})", selector.tag);
        wait(&mut world, call, what)?;
    }
}

/// Makes a request for `operation` and starts it unless it is `persistent`
/// (`MPI_Isend`, `MPI_Irecv`, `MPI_Send_init`, ...). Returns its index.
pub fn start(call: &'static str, operation: Operation, persistent: bool) -> MpiResult<usize> {
    let mut world = world();
    let index = world.requests.insert(Request {
        made_by: call,
        operation,
        persistent,
        progress: Progress::Inactive,
        freed: false,
    });
    if !persistent {
        if let Err(error) = world.start(index) {
            world.forget(index);
            return Err(error);
        }
    }
    Ok(index)
}

/// Starts the persistent requests at `indices` (`MPI_Start`, `MPI_Startall`): a collective
/// runs now, outside the world's lock (it may raise an error on a handler that calls MPI),
/// and the first error code it returns is the answer (`Ok` with it; raised already).
pub fn start_persistent(indices: &[usize]) -> MpiResult<c_int> {
    let mut answer = crate::abi::MPI_SUCCESS;
    for &index in indices {
        let collective = {
            let mut world = world();
            let request = world.requests.get(index).filter(|r| r.persistent);
            let Some(request) = request else {
                return Err(MpiError::new(
                    MPI_ERR_REQUEST,
                    "only a persistent request (MPI_Send_init, MPI_Recv_init, ...) can be started",
                ));
            };
            match request.operation.clone() {
                Operation::Collective(run) if request.progress == Progress::Inactive => {
                    world
                        .requests
                        .get_mut(index)
                        .ok_or_else(no_request)?
                        .progress = Progress::Active;
                    Some(run)
                }
                _ => {
                    world.start(index)?;
                    None
                }
            }
        };
        if let Some(run) = collective {
            let rc = run();
            world().complete(index, Outcome::of_send(false));
            if rc != crate::abi::MPI_SUCCESS && answer == crate::abi::MPI_SUCCESS {
                answer = rc;
            }
        }
    }
    Ok(answer)
}

/// Probes for a message `selector` takes (`MPI_Probe`, `MPI_Iprobe`): what a receive of it
/// would report, or `None` if there is none and `blocking` is false.
pub fn probe(
    call: &'static str,
    source: c_int,
    selector: Selector,
    blocking: bool,
) -> MpiResult<Option<Outcome>> {
    if source == MPI_PROC_NULL {
        return Ok(Some(Outcome::from_null_process()));
    }
    let mut world = world();
    loop {
        if let Some(message) = world.mailbox.peek(&selector) {
            return Ok(Some(message.outcome()));
        }
        if !blocking {
            return Ok(None);
        }
        let what = format!("no message matches this probe (tag {})", selector.tag);
        wait(&mut world, call, what)?;
    }
}

/// Matches a message `selector` takes and keeps it for `MPI_Mrecv` (`MPI_Mprobe`,
/// `MPI_Improbe`): its index and what a receive of it would report, or `None` if there is
/// none and `blocking` is false.
pub fn match_message(
    call: &'static str,
    selector: Selector,
    blocking: bool,
) -> MpiResult<Option<(usize, Outcome)>> {
    let mut world = world();
    loop {
        if let Some(message) = world.mailbox.take_message(&selector) {
            let outcome = message.outcome();
            return Ok(Some((world.matched.insert(message), outcome)));
        }
        if !blocking {
            return Ok(None);
        }
        let what = format!("no message matches this probe (tag {})", selector.tag);
        wait(&mut world, call, what)?;
    }
}

/// Receives the message `MPI_Mprobe` matched at `index` into `buffer` (`MPI_Mrecv`).
///
/// # Safety
/// `buffer` is writable.
pub unsafe fn receive_matched(index: usize, buffer: &Buffer) -> MpiResult<Outcome> {
    let mut world = world();
    let message = world.matched.remove(index).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_REQUEST,
            "not a message MPI_Mprobe or MPI_Improbe matched, or it was received already",
        )
    })?;
    // SAFETY: the caller's contract.
    Ok(unsafe { world.receive(message, buffer) })
}

/// A request complete at once with `outcome` (`MPI_Imrecv`, whose message is matched).
pub fn completed(call: &'static str, outcome: Outcome) -> usize {
    let mut world = world();
    world.requests.insert(Request {
        made_by: call,
        operation: Operation::Matched,
        persistent: false,
        progress: Progress::Done(outcome),
        freed: false,
    })
}

/// Which of several requests a completion call waits for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Want {
    /// All (`MPI_Waitall`, `MPI_Wait` of one).
    All,
    /// One (`MPI_Waitany`).
    Any,
    /// At least one, and all that are complete (`MPI_Waitsome`).
    Some,
}

/// How a completion call completes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum How {
    /// Waits; completed requests are reported (freed, or inactive if persistent).
    Wait,
    /// Does not wait; completed requests are reported.
    Test,
    /// Does not wait, and the requests stay as they are (`MPI_Request_get_status*`).
    Look,
}

/// One request a completion call reports complete.
#[derive(Debug)]
pub struct Report {
    /// Its position in the program's array.
    pub position: usize,
    /// What it reports.
    pub outcome: Outcome,
    /// Its handle is freed: the program's entry becomes `MPI_REQUEST_NULL`.
    pub freed: bool,
    /// The callbacks of a generalized request, whose query gives the outcome.
    pub generalized: Option<Arc<Generalized>>,
}

/// What a completion call found.
#[derive(Debug)]
pub enum Completion {
    /// No request is active (all null or inactive persistent ones).
    NoneActive,
    /// Not complete as wanted (only when not waiting).
    NotYet,
    /// These completed (for `Want::All`, all the active ones).
    Complete(Vec<Report>),
}

/// Completes the requests at `indices` (`None` for `MPI_REQUEST_NULL`) as `want` and `how`
/// say: the completion calls (`MPI_Wait`, `MPI_Testany`, `MPI_Request_get_status_some`, ...).
pub fn complete(
    call: &'static str,
    indices: &[Option<usize>],
    want: Want,
    how: How,
) -> MpiResult<Completion> {
    let mut world = world();
    loop {
        let mut active = Vec::new();
        let mut done = Vec::new();
        for (position, index) in indices.iter().enumerate() {
            let Some(index) = *index else { continue };
            let request = world.requests.get(index).ok_or_else(no_request)?;
            match request.progress {
                Progress::Inactive => {}
                Progress::Active => active.push((position, index)),
                Progress::Done(_) => done.push((position, index)),
            }
        }
        if active.is_empty() && done.is_empty() {
            return Ok(Completion::NoneActive);
        }
        let ready = match want {
            Want::All => active.is_empty(),
            Want::Any | Want::Some => !done.is_empty(),
        };
        if ready {
            if want == Want::Any {
                done.truncate(1);
            }
            let reports = done
                .into_iter()
                .map(|(position, index)| world.report(position, index, how))
                .collect();
            return Ok(Completion::Complete(reports));
        }
        if how != How::Wait {
            return Ok(Completion::NotYet);
        }
        let (_, first) = active[0];
        let what = world.requests.get(first).ok_or_else(no_request)?.describe();
        wait(&mut world, call, what)?;
    }
}

impl World {
    /// Reports the completed request at `index`: unless only looked at, it is freed, or made
    /// inactive if persistent.
    fn report(&mut self, position: usize, index: usize, how: How) -> Report {
        let Some(request) = self.requests.get_mut(index) else {
            unreachable!("a request found complete is alive")
        };
        let Progress::Done(outcome) = request.progress.clone() else {
            unreachable!("a request reported is complete")
        };
        let freed = how != How::Look && !request.persistent;
        let generalized = request.generalized();
        if how != How::Look {
            request.progress = Progress::Inactive;
        }
        if freed {
            self.forget(index);
        }
        Report {
            position,
            outcome,
            freed,
            generalized,
        }
    }
}

/// Cancels the operation of the request at `index` if it has not matched yet
/// (`MPI_Cancel`): a posted receive, or the message of a send not received.
pub fn cancel(index: usize) -> MpiResult<()> {
    let mut world = world();
    let request = world.requests.get(index).ok_or_else(no_request)?;
    if matches!(request.progress, Progress::Inactive) {
        return Err(MpiError::new(
            MPI_ERR_REQUEST,
            "an inactive persistent request cannot be cancelled",
        ));
    }
    match request.operation {
        Operation::Receive { .. } => {
            if world.mailbox.withdraw_receive(index).is_some() {
                let mut cancelled = Outcome::of_send(true);
                cancelled.tag = crate::abi::MPI_ANY_TAG;
                world.complete(index, cancelled);
            }
        }
        Operation::Send { .. } => {
            if let Some(message) = world.mailbox.withdraw_message(index) {
                world.buffered -= message.buffered;
                world.complete(index, Outcome::of_send(true));
            }
        }
        Operation::Partitioned(_) => {
            return Err(MpiError::new(
                MPI_ERR_REQUEST,
                "a started partitioned request cannot be cancelled (MPI-4.1 §4.2.1)",
            ))
        }
        Operation::Matched | Operation::Collective(_) | Operation::Generalized(_) => {}
    }
    Ok(())
}

/// Frees the request at `index` (`MPI_Request_free`): at once if it is not active, else when
/// its operation completes. The callbacks of a generalized request freed now are returned:
/// its free callback is due.
pub fn free(index: usize) -> MpiResult<Option<Arc<Generalized>>> {
    let mut world = world();
    let request = world.requests.get_mut(index).ok_or_else(no_request)?;
    if request.progress == Progress::Active {
        request.freed = true;
        return Ok(None);
    }
    let generalized = request.generalized();
    world.forget(index);
    Ok(generalized)
}

/// The callbacks of the generalized request at `index`, if it is one, and whether
/// `MPI_Grequest_complete` was called for it.
pub fn generalized(index: usize) -> MpiResult<Option<(Arc<Generalized>, bool)>> {
    let world = world();
    let request = world.requests.get(index).ok_or_else(no_request)?;
    let done = request.progress != Progress::Active;
    Ok(request.generalized().map(|g| (g, done)))
}

/// `MPI_Grequest_complete`: the generalized request at `index` is complete. If the program
/// freed it already it goes now, and its callbacks are returned: its free callback is due.
pub fn complete_generalized(index: usize) -> MpiResult<Option<Arc<Generalized>>> {
    let mut world = world();
    let request = world.requests.get(index).ok_or_else(no_request)?;
    let Some(generalized) = request.generalized() else {
        return Err(MpiError::new(
            MPI_ERR_REQUEST,
            format!(
                "the request made by {} is not a generalized request",
                request.made_by
            ),
        ));
    };
    if request.progress != Progress::Active {
        return Err(MpiError::new(
            MPI_ERR_REQUEST,
            "the generalized request is complete already",
        ));
    }
    let freed = request.freed;
    world.complete(index, Outcome::of_send(false));
    Ok(freed.then_some(generalized))
}

/// Attaches `size` bytes at `address` for buffered sends (`MPI_Buffer_attach`).
pub fn attach(address: usize, size: usize) -> MpiResult<()> {
    let mut world = world();
    if world.attached.is_some() {
        return Err(MpiError::new(
            MPI_ERR_BUFFER,
            "a buffer is attached already (MPI_Buffer_detach it first)",
        ));
    }
    world.attached = Some((address, size));
    Ok(())
}

/// Detaches the buffer attached for buffered sends (`MPI_Buffer_detach`): its address and
/// size, or none. The messages it held stay deliverable: the library keeps their data.
pub fn detach() -> Option<(usize, usize)> {
    let mut world = world();
    world.mailbox.release_buffered();
    world.buffered = 0;
    world.attached.take()
}

/// Makes the persistent request of the partitioned send or receive `side` of `comm` and `tag`
/// (`MPI_Psend_init`, `MPI_Precv_init`), paired with the oldest unpaired one of the other kind
/// unless its peer is `MPI_PROC_NULL` (`paired` false). Returns its index.
pub fn partitioned(
    call: &'static str,
    mut side: Partitioned,
    (comm, tag): (crate::abi::MPI_Comm, c_int),
    paired: bool,
) -> usize {
    let mut world = world();
    let index = world.requests.insert(Request {
        made_by: call,
        operation: Operation::Matched,
        persistent: true,
        progress: Progress::Inactive,
        freed: false,
    });
    if paired {
        side.channel = Some(world.channels.join(&side, comm, tag, index));
    }
    if let Some(request) = world.requests.get_mut(index) {
        request.operation = Operation::Partitioned(Arc::new(side));
    }
    index
}

/// The partitioned side of the request at `index`, of the kind `sending`, and whether it is
/// started and not complete.
fn partitioned_side(
    world: &World,
    index: usize,
    sending: bool,
) -> MpiResult<(Arc<Partitioned>, Progress)> {
    let request = world.requests.get(index).ok_or_else(no_request)?;
    match &request.operation {
        Operation::Partitioned(side) if side.sending == sending => {
            Ok((Arc::clone(side), request.progress.clone()))
        }
        _ => Err(MpiError::new(
            MPI_ERR_REQUEST,
            format!(
                "the request made by {} is not a partitioned {}",
                request.made_by,
                if sending {
                    "send (MPI_Psend_init)"
                } else {
                    "receive (MPI_Precv_init)"
                }
            ),
        )),
    }
}

/// Marks the partitions `partitions` of the partitioned send at `index` ready
/// (`MPI_Pready`, `MPI_Pready_range`, `MPI_Pready_list`): their data are copied, and the
/// receive's partitions they complete are unpacked.
///
/// # Safety
/// The send's buffer is readable, as the program keeps it while the send is started.
pub unsafe fn ready(index: usize, marked: Marked) -> MpiResult<()> {
    let mut world = world();
    let (side, progress) = partitioned_side(&world, index, true)?;
    let selection = side.partitions_of(marked)?;
    let channel =
        match (progress, side.channel) {
            (Progress::Inactive, _) => {
                return Err(MpiError::new(
                    MPI_ERR_REQUEST,
                    "the partitioned send is not started (MPI_Start it before MPI_Pready)",
                ))
            }
            // A send to MPI_PROC_NULL, complete when it starts: nothing moves.
            (_, None) => return Ok(()),
            (Progress::Done(_), Some(_)) => return Err(MpiError::new(
                crate::abi::MPI_ERR_ARG,
                "every partition of this partitioned send is marked ready already in this start",
            )),
            (Progress::Active, Some(channel)) => channel,
        };
    // SAFETY: the caller's contract.
    if unsafe { world.channels.ready(channel, &side, &selection)? } {
        world.complete(index, Outcome::of_send(false));
    }
    world.deliver(channel, &selection)
}

/// True if the partition `partition` of the partitioned receive at `index` has arrived
/// (`MPI_Parrived`): its data are in the receive buffer. A receive not started, or complete,
/// has nothing more to wait for.
pub fn arrived(index: usize, partition: c_int) -> MpiResult<bool> {
    let world = world();
    let (side, progress) = partitioned_side(&world, index, false)?;
    let partition = side.check_partition(partition)?;
    Ok(match (progress, side.channel) {
        (Progress::Active, Some(channel)) => world.channels.arrived(channel, partition),
        _ => true,
    })
}
