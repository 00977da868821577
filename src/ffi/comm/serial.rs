//! The point-to-point and completion calls in the one-process world (no MPI library behind
//! this one): the arguments are checked and converted here, and [`crate::serial::world`]
//! does the rest. Each function is the whole answer of the exported function of the same
//! name, whose name it is given for errors.

use super::{guard, guard_on};
use crate::abi::{
    own_message, own_message_index, own_request, own_request_index, MPI_Comm, MPI_Datatype,
    MPI_Grequest_cancel_function, MPI_Grequest_free_function, MPI_Grequest_query_function,
    MPI_Message, MPI_Request, MPI_Status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_ERR_IN_STATUS,
    MPI_ERR_RANK, MPI_ERR_REQUEST, MPI_ERR_TAG, MPI_MESSAGE_NO_PROC, MPI_MESSAGE_NULL,
    MPI_PROC_NULL, MPI_REQUEST_NULL, MPI_STATUS_IGNORE, MPI_SUCCESS, MPI_UNDEFINED,
};
use crate::error::{MpiError, MpiResult};
use crate::ffi::pack::user_memory;
use crate::ffi::{check_comm, check_out, with_committed, write_out};
use crate::serial::generalized::Generalized;
use crate::serial::mailbox::{Buffer, Outcome, Selector};
use crate::serial::requests::{Mode, Operation};
use crate::serial::world::{self, Completion, How, Report, Want};
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::Arc;

/// The largest tag a message may carry (the value of the attribute `MPI_TAG_UB`).
pub const TAG_UB: c_int = c_int::MAX;

/// `count` copies of the committed `datatype` at `buf`.
pub(super) fn buffer(buf: *const c_void, count: i64, datatype: MPI_Datatype) -> MpiResult<Buffer> {
    crate::datatype::construct::check_count(count, "count")?;
    Ok(Buffer {
        address: user_memory(buf).expose_provenance(),
        count,
        datatype: with_committed(datatype, Arc::clone)?,
    })
}

/// The communicator and tag of a send (`receive` false: the tag must be in 0..=`TAG_UB`) or
/// of a receive (which may also name `MPI_ANY_TAG`).
pub(super) fn selector(comm: MPI_Comm, tag: c_int, receive: bool) -> MpiResult<Selector> {
    check_comm(comm)?;
    let allowed = (0..=TAG_UB).contains(&tag) || (receive && tag == MPI_ANY_TAG);
    if !allowed {
        return Err(MpiError::new(
            MPI_ERR_TAG,
            format!("tag {tag} is not in 0..={TAG_UB}"),
        ));
    }
    Ok(Selector { comm, tag })
}

/// Checks a rank argument: 0, the one process, or `MPI_PROC_NULL` (and `MPI_ANY_SOURCE` for
/// a `source`).
pub(super) fn check_rank(rank: c_int, source: bool) -> MpiResult<()> {
    let wildcard = source && rank == MPI_ANY_SOURCE;
    if rank == 0 || rank == MPI_PROC_NULL || wildcard {
        return Ok(());
    }
    Err(MpiError::new(
        MPI_ERR_RANK,
        format!("rank {rank} is not in this one-process communicator (its size is 1)"),
    ))
}

/// The status of an operation that reports nothing (MPI-4.1 §3.7.3: an empty status).
fn empty() -> Outcome {
    Outcome {
        source: MPI_ANY_SOURCE,
        tag: MPI_ANY_TAG,
        ..Outcome::of_send(false)
    }
}

/// Writes `outcome` into `status` (unless it is `MPI_STATUS_IGNORE`); `error` is the code
/// for its `MPI_ERROR` field, which only the calls that complete several requests set.
///
/// # Safety
/// A status other than `MPI_STATUS_IGNORE` and NULL is writable.
pub(crate) unsafe fn write_status(
    status: *mut MPI_Status,
    outcome: &Outcome,
    error: Option<c_int>,
) {
    if status == MPI_STATUS_IGNORE || status.is_null() {
        return;
    }
    // SAFETY: the caller's contract.
    let status = unsafe { &mut *status };
    status.MPI_SOURCE = outcome.source;
    status.MPI_TAG = outcome.tag;
    status.set_count_bytes(outcome.bytes);
    status.set_cancelled(outcome.cancelled);
    if let Some(error) = error {
        status.MPI_ERROR = error;
    }
}

/// Writes the empty status of a completion call that found no active request: it says
/// `MPI_SUCCESS` in its `MPI_ERROR` field too (MPI-4.1 §3.7.3), as MPICH's does.
///
/// # Safety
/// As for [`write_status`].
unsafe fn reported_empty(status: *mut MPI_Status) -> MpiResult<()> {
    // SAFETY: the caller's contract.
    unsafe { write_status(status, &empty(), Some(MPI_SUCCESS)) };
    Ok(())
}

/// The outcome's error, after its status is written.
///
/// # Safety
/// As for [`write_status`].
unsafe fn reported(status: *mut MPI_Status, outcome: Outcome) -> MpiResult<()> {
    // SAFETY: the caller's contract.
    unsafe { write_status(status, &outcome, None) };
    outcome.error.map_or(Ok(()), Err)
}

/// The index of a request handle, `None` for `MPI_REQUEST_NULL`.
fn request_index(request: MPI_Request) -> MpiResult<Option<usize>> {
    if request == MPI_REQUEST_NULL {
        return Ok(None);
    }
    own_request_index(request).map(Some).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_REQUEST,
            format!("{request:#x} is not a request handle"),
        )
    })
}

/// The index of a request handle that must not be `MPI_REQUEST_NULL` (it is to be `what`:
/// freed, started, cancelled).
pub(super) fn live_request(request: MPI_Request, what: &str) -> MpiResult<usize> {
    request_index(request)?.ok_or_else(|| {
        MpiError::new(
            MPI_ERR_REQUEST,
            format!("MPI_REQUEST_NULL cannot be {what}"),
        )
    })
}

/// Writes the handle of the request at `index` through `request`.
///
/// # Safety
/// A non-NULL `request` is writable.
pub(super) unsafe fn write_request(request: *mut MPI_Request, index: usize) -> MpiResult<()> {
    let handle = own_request(index)
        .ok_or_else(|| MpiError::new(MPI_ERR_REQUEST, "too many requests are alive at once"))?;
    // SAFETY: the caller's contract.
    unsafe { write_out(request, handle, "request") }
}

/// Writes through `request` a request complete at once whose status is `status`
/// (`MPI_Isendrecv`: the exchange is done when it starts).
///
/// # Safety
/// A non-NULL `request` is writable.
pub unsafe fn completed_with(
    call: &'static str,
    request: *mut MPI_Request,
    status: &MPI_Status,
) -> MpiResult<()> {
    let index = world::completed(call, Outcome::from_status(status));
    // SAFETY: the caller's contract.
    unsafe { write_request(request, index) }
}

/// Writes through `request` a request complete at once, with an empty status (the
/// nonblocking calls of the one-process world that have nothing to wait for:
/// `MPI_Comm_idup`).
///
/// # Safety
/// A non-NULL `request` is writable.
pub unsafe fn complete_at_once(call: &'static str, request: *mut MPI_Request) -> MpiResult<()> {
    let index = world::completed(call, empty());
    // SAFETY: the caller's contract.
    unsafe { write_request(request, index) }
}

/// `MPI_Send`, `MPI_Ssend`, `MPI_Bsend`, `MPI_Rsend` and their `_c` forms.
///
/// # Safety
/// As for the MPI function.
pub unsafe fn send(
    call: &'static str,
    (buf, count, datatype): (*const c_void, i64, MPI_Datatype),
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    guard_on(call, comm, || {
        let selector = selector(comm, tag, false)?;
        check_rank(dest, false)?;
        let buffer = buffer(buf, count, datatype)?;
        // SAFETY: the program's send buffer.
        unsafe { world::send(call, Mode::of(call), buffer, dest, selector) }
    })
}

/// Makes a request for the operation on `comm` that `make` checks and builds, starts it
/// unless it is `persistent`, and writes its handle through `request`.
///
/// # Safety
/// A non-NULL `request` is writable.
unsafe fn start_request(
    call: &'static str,
    comm: MPI_Comm,
    persistent: bool,
    request: *mut MPI_Request,
    make: impl FnOnce() -> MpiResult<Operation>,
) -> c_int {
    guard_on(call, comm, || {
        crate::ffi::check_out(request, "request")?;
        let index = world::start(call, make()?, persistent)?;
        // SAFETY: checked non-NULL; the program's request.
        unsafe { write_request(request, index) }
    })
}

/// The nonblocking and persistent sends (`MPI_Isend`, `MPI_Send_init`, ..., of the mode
/// `call` names, to `peer`) and receives (`MPI_Irecv`, `MPI_Recv_init`, where `receiving`,
/// from `peer`).
///
/// # Safety
/// As for the MPI function: the buffer stays readable (writable for a receive) until the
/// call completes.
pub unsafe fn start_point_to_point(
    call: &'static str,
    receiving: bool,
    (buf, count, datatype): (*const c_void, i64, MPI_Datatype),
    (peer, tag, comm): (c_int, c_int, MPI_Comm),
    persistent: bool,
    request: *mut MPI_Request,
) -> c_int {
    let operation = || {
        let selector = selector(comm, tag, receiving)?;
        check_rank(peer, receiving)?;
        let buffer = buffer(buf, count, datatype)?;
        Ok(match receiving {
            true => Operation::Receive {
                buffer,
                source: peer,
                selector,
            },
            false => Operation::Send {
                buffer,
                mode: Mode::of(call),
                dest: peer,
                selector,
            },
        })
    };
    // SAFETY: the caller's request.
    unsafe { start_request(call, comm, persistent, request, operation) }
}

/// `MPI_Recv` and `MPI_Recv_c`.
///
/// # Safety
/// As for the MPI function.
pub unsafe fn receive(
    call: &'static str,
    (buf, count, datatype): (*mut c_void, i64, MPI_Datatype),
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    guard_on(call, comm, || {
        let selector = selector(comm, tag, true)?;
        check_rank(source, true)?;
        let buffer = buffer(buf, count, datatype)?;
        // SAFETY: the program's receive buffer and status.
        unsafe { reported(status, world::receive(call, buffer, source, selector)?) }
    })
}

/// `MPI_Sendrecv` and `MPI_Sendrecv_c`: the send is kept before the receive looks for it.
///
/// # Safety
/// As for the MPI function.
pub unsafe fn sendrecv(
    call: &'static str,
    sent: (*const c_void, i64, MPI_Datatype),
    (dest, sendtag): (c_int, c_int),
    received: (*mut c_void, i64, MPI_Datatype),
    (source, recvtag, comm): (c_int, c_int, MPI_Comm),
    status: *mut MPI_Status,
) -> c_int {
    guard_on(call, comm, || {
        let send_selector = selector(comm, sendtag, false)?;
        let receive_selector = selector(comm, recvtag, true)?;
        check_rank(dest, false)?;
        check_rank(source, true)?;
        let (send_buffer, receive_buffer) = (
            buffer(sent.0, sent.1, sent.2)?,
            buffer(received.0, received.1, received.2)?,
        );
        let sent = (send_buffer, dest, send_selector);
        let received = (receive_buffer, source, receive_selector);
        // SAFETY: the program's buffers and status (they may be one buffer, as in
        // MPI_Sendrecv_replace: a direct copy reads each byte before it writes it).
        unsafe { reported(status, world::sendrecv(call, sent, received)?) }
    })
}

/// `MPI_Probe` and `MPI_Iprobe` (`flag` not NULL).
///
/// # Safety
/// As for the MPI function.
pub unsafe fn probe(
    call: &'static str,
    (source, tag, comm): (c_int, c_int, MPI_Comm),
    flag: Option<*mut c_int>,
    status: *mut MPI_Status,
) -> c_int {
    guard_on(call, comm, || {
        let selector = selector(comm, tag, true)?;
        check_rank(source, true)?;
        let found = world::probe(call, source, selector, flag.is_none())?;
        if let Some(flag) = flag {
            // SAFETY: the program's flag.
            unsafe { write_out(flag, c_int::from(found.is_some()), "flag")? };
        }
        if let Some(outcome) = found {
            // SAFETY: the program's status.
            unsafe { write_status(status, &outcome, None) };
        }
        Ok(())
    })
}

/// `MPI_Mprobe` and `MPI_Improbe` (`flag` not NULL).
///
/// # Safety
/// As for the MPI function.
pub unsafe fn match_probe(
    call: &'static str,
    (source, tag, comm): (c_int, c_int, MPI_Comm),
    flag: Option<*mut c_int>,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> c_int {
    guard_on(call, comm, || {
        let selector = selector(comm, tag, true)?;
        check_rank(source, true)?;
        crate::ffi::check_out(message, "message")?;
        let found = match source == MPI_PROC_NULL {
            true => Some((MPI_MESSAGE_NO_PROC, Outcome::from_null_process())),
            false => match world::match_message(call, selector, flag.is_none())? {
                Some((index, outcome)) => {
                    let handle = own_message(index).ok_or_else(|| {
                        MpiError::new(MPI_ERR_REQUEST, "too many matched messages at once")
                    })?;
                    Some((handle, outcome))
                }
                None => None,
            },
        };
        if let Some(flag) = flag {
            // SAFETY: the program's flag.
            unsafe { write_out(flag, c_int::from(found.is_some()), "flag")? };
        }
        if let Some((handle, outcome)) = found {
            // SAFETY: the program's message handle (checked non-NULL) and status.
            unsafe {
                message.write(handle);
                write_status(status, &outcome, None);
            }
        }
        Ok(())
    })
}

/// Receives the matched message `*message` into the buffer and sets it to
/// `MPI_MESSAGE_NULL`: its outcome.
///
/// # Safety
/// As for `MPI_Mrecv`.
unsafe fn take_matched(
    (buf, count, datatype): (*mut c_void, i64, MPI_Datatype),
    message: *mut MPI_Message,
) -> MpiResult<Outcome> {
    // SAFETY: the program's message handle.
    let handle = unsafe { crate::ffi::read_in(message, "message")? };
    let buffer = buffer(buf, count, datatype)?;
    let outcome = match handle {
        handle if handle == MPI_MESSAGE_NO_PROC => Outcome::from_null_process(),
        _ => {
            let index = own_message_index(handle).ok_or_else(|| {
                MpiError::new(
                    MPI_ERR_REQUEST,
                    format!("{handle:#x} is not a message MPI_Mprobe or MPI_Improbe matched"),
                )
            })?;
            // SAFETY: the program's receive buffer.
            unsafe { world::receive_matched(index, &buffer)? }
        }
    };
    // SAFETY: read above, so valid.
    unsafe { message.write(MPI_MESSAGE_NULL) };
    Ok(outcome)
}

/// `MPI_Mrecv` and `MPI_Mrecv_c`.
///
/// # Safety
/// As for the MPI function.
pub unsafe fn receive_matched(
    call: &'static str,
    buffer: (*mut c_void, i64, MPI_Datatype),
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> c_int {
    guard(call, || {
        // SAFETY: the program's buffer, message and status.
        unsafe { reported(status, take_matched(buffer, message)?) }
    })
}

/// `MPI_Imrecv` and `MPI_Imrecv_c`: the message is matched, so the request is complete.
///
/// # Safety
/// As for the MPI function.
pub unsafe fn start_matched(
    call: &'static str,
    buffer: (*mut c_void, i64, MPI_Datatype),
    message: *mut MPI_Message,
    request: *mut MPI_Request,
) -> c_int {
    guard(call, || {
        crate::ffi::check_out(request, "request")?;
        // SAFETY: the program's buffer and message.
        let outcome = unsafe { take_matched(buffer, message)? };
        let index = world::completed(call, outcome);
        // SAFETY: checked non-NULL.
        unsafe { write_request(request, index) }
    })
}

/// The outputs of a completion call, by its shape.
pub enum Outputs {
    /// `MPI_Wait`, `MPI_Test`, `MPI_Request_get_status` (with a flag): one status.
    One {
        /// The flag of a call that does not wait.
        flag: Option<*mut c_int>,
        /// The status.
        status: *mut MPI_Status,
    },
    /// `MPI_Waitall`, `MPI_Testall`, `MPI_Request_get_status_all`: a status per request.
    All {
        /// The flag of a call that does not wait.
        flag: Option<*mut c_int>,
        /// The statuses.
        statuses: *mut MPI_Status,
    },
    /// `MPI_Waitany`, `MPI_Testany`, `MPI_Request_get_status_any`.
    Any {
        /// The position of the request completed.
        index: *mut c_int,
        /// The flag of a call that does not wait.
        flag: Option<*mut c_int>,
        /// Its status.
        status: *mut MPI_Status,
    },
    /// `MPI_Waitsome`, `MPI_Testsome`, `MPI_Request_get_status_some`.
    Some {
        /// How many completed.
        outcount: *mut c_int,
        /// Their positions.
        indices: *mut c_int,
        /// Their statuses.
        statuses: *mut MPI_Status,
    },
}

/// A completion call of `count` requests at `requests`.
///
/// # Safety
/// As for the MPI functions: `requests` holds `count` handles (read and written), and the
/// outputs are writable.
pub unsafe fn complete(
    call: &'static str,
    how: How,
    count: c_int,
    requests: *mut MPI_Request,
    outputs: Outputs,
) -> c_int {
    guard(call, || {
        // SAFETY: the caller's contract.
        let handles = unsafe { crate::ffi::read_slice(requests, count.into(), "requests")? };
        let indices = handles
            .iter()
            .map(|&handle| request_index(handle))
            .collect::<MpiResult<Vec<_>>>()?;
        let want = match outputs {
            Outputs::One { .. } | Outputs::All { .. } => Want::All,
            Outputs::Any { .. } => Want::Any,
            Outputs::Some { .. } => Want::Some,
        };
        let completion = settled(world::complete(call, &indices, want, how)?);
        if let Completion::Complete(reports) = &completion {
            for report in reports.iter().filter(|report| report.freed) {
                // SAFETY: a position of the program's array.
                unsafe { requests.add(report.position).write(MPI_REQUEST_NULL) };
            }
        }
        // SAFETY: the caller's outputs.
        unsafe { write_outputs(call, outputs, handles.len(), completion) }
    })
}

/// The completion with the outcome of each generalized request given by its query callback,
/// and the free callback run for each whose handle is freed (MPI-4.1 §13.2), outside the
/// world's lock.
fn settled(completion: Completion) -> Completion {
    let Completion::Complete(reports) = completion else {
        return completion;
    };
    let settle = |mut report: Report| {
        if let Some(generalized) = &report.generalized {
            report.outcome = generalized.query();
            let freed = match report.freed {
                true => generalized.free(),
                false => Ok(()),
            };
            if let (None, Err(error)) = (&report.outcome.error, freed) {
                report.outcome.error = Some(error);
            }
        }
        report
    };
    Completion::Complete(reports.into_iter().map(settle).collect())
}

/// Writes what a completion call found into its outputs.
///
/// # Safety
/// As for [`complete`].
unsafe fn write_outputs(
    call: &'static str,
    outputs: Outputs,
    count: usize,
    completion: Completion,
) -> MpiResult<()> {
    let (done, reports) = match completion {
        Completion::NotYet => (false, Vec::new()),
        Completion::NoneActive => (true, Vec::new()),
        Completion::Complete(reports) => (true, reports),
    };
    let none_active = done && reports.is_empty();
    let flag_of = |flag: Option<*mut c_int>| match flag {
        // SAFETY: the program's flag.
        Some(flag) => unsafe { write_out(flag, c_int::from(done), "flag") },
        None => Ok(()),
    };
    match outputs {
        Outputs::One { flag, status } => {
            flag_of(flag)?;
            match reports.into_iter().next() {
                // SAFETY: the program's status.
                Some(report) => unsafe { reported(status, report.outcome) },
                // SAFETY: as above.
                None if done => unsafe { reported_empty(status) },
                None => Ok(()),
            }
        }
        Outputs::Any {
            index,
            flag,
            status,
        } => {
            flag_of(flag)?;
            let report = reports.into_iter().next();
            let position = report
                .as_ref()
                .map_or(MPI_UNDEFINED, |r| r.position as c_int);
            // SAFETY: the program's index.
            unsafe { write_out(index, position, "index")? };
            match report {
                // SAFETY: the program's status.
                Some(report) => unsafe { reported(status, report.outcome) },
                // SAFETY: as above.
                None if none_active => unsafe { reported_empty(status) },
                None => Ok(()),
            }
        }
        Outputs::All { flag, statuses } => {
            flag_of(flag)?;
            if !done {
                return Ok(());
            }
            let mut outcomes: Vec<Outcome> = vec![empty(); count];
            for report in reports {
                outcomes[report.position] = report.outcome;
            }
            // SAFETY: the program's statuses, one per request.
            unsafe { write_statuses(call, statuses, outcomes.into_iter()) }
        }
        Outputs::Some {
            outcount,
            indices,
            statuses,
        } => {
            let written = match none_active {
                true => MPI_UNDEFINED,
                false => reports.len() as c_int,
            };
            // SAFETY: the program's outcount.
            unsafe { write_out(outcount, written, "outcount")? };
            for (k, report) in reports.iter().enumerate() {
                // SAFETY: the program's indices, one per request at the most.
                unsafe { indices.add(k).write(report.position as c_int) };
            }
            let outcomes = reports.into_iter().map(|report: Report| report.outcome);
            // SAFETY: the program's statuses, one per request at the most.
            unsafe { write_statuses(call, statuses, outcomes) }
        }
    }
}

/// Writes one status per outcome into `statuses` (an array, or `MPI_STATUSES_IGNORE`). If
/// any failed, every status gets its error field and the call fails with
/// `MPI_ERR_IN_STATUS` (MPI-4.1 §3.7.5).
///
/// # Safety
/// A `statuses` other than `MPI_STATUSES_IGNORE` holds a status per outcome.
unsafe fn write_statuses(
    call: &'static str,
    statuses: *mut MPI_Status,
    outcomes: impl Iterator<Item = Outcome>,
) -> MpiResult<()> {
    let outcomes: Vec<Outcome> = outcomes.collect();
    let failed = outcomes.iter().any(|outcome| outcome.error.is_some());
    let ignore = statuses == MPI_STATUS_IGNORE || statuses.is_null();
    for (k, outcome) in outcomes.iter().enumerate().filter(|_| !ignore) {
        let code = failed.then(|| match &outcome.error {
            Some(e) => crate::error::new_code(e.class, call, &e.message),
            None => MPI_SUCCESS,
        });
        // SAFETY: the caller's contract.
        unsafe { write_status(statuses.add(k), outcome, code) };
    }
    match failed {
        true => Err(MpiError::new(
            MPI_ERR_IN_STATUS,
            "a request failed: see the MPI_ERROR field of its status",
        )),
        false => Ok(()),
    }
}

/// `MPI_Request_free`: the handle becomes `MPI_REQUEST_NULL`.
///
/// # Safety
/// As for the MPI function.
pub unsafe fn free(request: *mut MPI_Request) -> c_int {
    guard("MPI_Request_free", || {
        // SAFETY: the program's request.
        let handle = unsafe { crate::ffi::read_in(request, "request")? };
        let index = live_request(handle, "freed")?;
        let generalized = world::free(index)?;
        // SAFETY: read above, so valid.
        unsafe { request.write(MPI_REQUEST_NULL) };
        generalized.map_or(Ok(()), |g| g.free())
    })
}

/// `MPI_Start` and `MPI_Startall` of `count` persistent requests.
///
/// # Safety
/// As for the MPI functions.
pub unsafe fn start(call: &'static str, count: c_int, requests: *mut MPI_Request) -> c_int {
    let mut answer = MPI_SUCCESS;
    let started = guard(call, || {
        // SAFETY: the caller's contract.
        let handles = unsafe { crate::ffi::read_slice(requests, count.into(), "requests")? };
        let indices = handles
            .iter()
            .map(|&handle| live_request(handle, "started"))
            .collect::<MpiResult<Vec<_>>>()?;
        answer = world::start_persistent(&indices)?;
        Ok(())
    });
    match started {
        MPI_SUCCESS => answer,
        error => error,
    }
}

/// Makes a persistent collective request whose every start runs `run` (`MPI_Allreduce_init`
/// and the others), and writes its handle.
///
/// # Safety
/// A non-NULL `request` is writable.
pub unsafe fn persistent_collective(
    call: &'static str,
    request: *mut MPI_Request,
    run: Arc<dyn Fn() -> c_int + Send + Sync>,
) -> c_int {
    guard(call, || {
        crate::ffi::check_out(request, "request")?;
        let index = world::start(call, Operation::Collective(run), true)?;
        // SAFETY: checked non-NULL; the caller's request.
        unsafe { write_request(request, index) }
    })
}

/// `MPI_Cancel`.
///
/// # Safety
/// As for the MPI function.
pub unsafe fn cancel(request: *mut MPI_Request) -> c_int {
    guard("MPI_Cancel", || {
        // SAFETY: the program's request.
        let handle = unsafe { crate::ffi::read_in(request, "request")? };
        let index = live_request(handle, "cancelled")?;
        match world::generalized(index)? {
            Some((generalized, complete)) => generalized.cancel(complete),
            None => world::cancel(index),
        }
    })
}

one_process_functions! {
    /// Starts a generalized request: an operation the program carries out itself and
    /// completes with `MPI_Grequest_complete`; `query_fn` fills its status, `free_fn` runs
    /// when it is freed, `cancel_fn` at `MPI_Cancel`.
    fn MPI_Grequest_start(query_fn: MPI_Grequest_query_function, free_fn: MPI_Grequest_free_function, cancel_fn: MPI_Grequest_cancel_function, extra_state: *mut c_void, request: *mut MPI_Request) via guard() {
        check_out(request, "request")?;
        let callbacks = Generalized { query: query_fn, free: free_fn, cancel: cancel_fn, extra_state: extra_state as usize };
        let index = world::start("MPI_Grequest_start", Operation::Generalized(Arc::new(callbacks)), false)?;
        // SAFETY: checked non-NULL above.
        unsafe { write_request(request, index) }
    }
    /// Completes a generalized request: a completion call on it returns now.
    fn MPI_Grequest_complete(request: MPI_Request) via guard() {
        let index = live_request(request, "completed")?;
        match world::complete_generalized(index)? {
            Some(freed) => freed.free(),
            None => Ok(()),
        }
    }
}

/// The one-process world's nonblocking collective `name`: `blocking`, the blocking call of the
/// same arguments, then `*request` a request complete at once.
///
/// # Safety
/// `request` is the caller's (checked here for NULL).
pub(super) unsafe fn at_once(
    name: &'static str,
    request: *mut MPI_Request,
    blocking: impl FnOnce() -> c_int,
) -> c_int {
    let checked = guard(name, || check_out(request, "request"));
    if checked != MPI_SUCCESS {
        return checked;
    }
    let rc = blocking();
    if rc != MPI_SUCCESS {
        return rc;
    }
    // SAFETY: checked non-NULL; the caller's request.
    guard(name, || unsafe { complete_at_once(name, request) })
}
