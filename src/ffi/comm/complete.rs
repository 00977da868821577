//! The completion calls: `MPI_Wait`, `MPI_Waitall`, `MPI_Waitany`, `MPI_Waitsome`, the same
//! four `MPI_Test*`, `MPI_Request_get_status` and its `_all`, `_any` and `_some` forms
//! (MPI-4.1), and `MPI_Request_free`, `MPI_Start` and `MPI_Startall`. When none of the requests is one of the engine's (one load tells), the
//! call goes to the MPI behind untouched; otherwise the entries of those requests are taken
//! for the call, and the receives it completes are unpacked before it returns
//! ([`Completion`]).

use super::serial::{self, Outputs};
use super::{missing_behind, standalone};
use crate::abi::p2p::MPI_Request;
use crate::abi::{MPI_Status, MPI_ERR_IN_STATUS, MPI_UNDEFINED};
use crate::behind::forward;
use crate::dropin::comm::node_local::Overflow;
use crate::dropin::comm::{self, Completed, Completion};
use crate::ffi::export;
use crate::serial::world::How;
use std::os::raw::c_int;

/// Calls the MPI behind's completion function (`call`, given the status array it writes) on
/// the `count` requests at `requests`: straight through when none of them is the engine's
/// (`Err` with its answer), else with the statuses the engine needs (`Ok` with the
/// [`Completion`] to finish, the status array given and the answer).
///
/// # Safety
/// `requests` holds `count` requests (or is NULL), as the MPI function requires.
unsafe fn call_with(
    name: &'static str,
    requests: *const MPI_Request,
    count: c_int,
    statuses: *mut MPI_Status,
    call: impl Fn(*mut MPI_Status) -> Option<c_int>,
) -> Result<(Completion, *mut MPI_Status, c_int), c_int> {
    let answer = |statuses| call(statuses).unwrap_or_else(|| missing_behind(name));
    // SAFETY: the caller's contract.
    let Some(mut completion) = (unsafe { Completion::new(requests, count) }) else {
        return Err(answer(statuses));
    };
    let statuses = completion.statuses(statuses);
    let rc = answer(statuses);
    Ok((completion, statuses, rc))
}

/// The answer of the completion call `name`, whose MPI behind answered `rc`, once
/// [`Completion::finish`] found `overflows`: messages through rings larger than their receives
/// (with the index of their status in `statuses`). Each is an `MPI_ERR_TRUNCATE`: the
/// call's answer, raised on its receive's communicator; where the call reports errors per
/// status (`per_status`), in that status, and the call answers `MPI_ERR_IN_STATUS`.
///
/// # Safety
/// `statuses` holds the statuses at the listed indices.
unsafe fn answer(
    name: &'static str,
    rc: c_int,
    overflows: Vec<(usize, Overflow)>,
    statuses: *mut MPI_Status,
    per_status: bool,
) -> c_int {
    let Some(&(_, first)) = overflows.first() else {
        return rc;
    };
    if !per_status {
        // Where the MPI behind failed the call (a truncated header), it raised the error.
        return match rc == crate::abi::MPI_SUCCESS {
            true => first.raise(first.code(name)),
            false => rc,
        };
    }
    for (index, overflow) in overflows {
        // SAFETY: the caller's contract.
        unsafe { (*statuses.add(index)).MPI_ERROR = overflow.code(name) };
    }
    match rc == MPI_ERR_IN_STATUS {
        true => rc, // raised already by the MPI behind
        false => first.raise(MPI_ERR_IN_STATUS),
    }
}

/// `MPI_Wait`: unpacks a receive of the engine's path before it returns.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Wait(request: *mut MPI_Request, status: *mut MPI_Status) -> c_int {
    export("MPI_Wait", || {
        if standalone() {
            let outputs = Outputs::One { flag: None, status };
            // SAFETY: the program's request and status.
            return unsafe { serial::complete("MPI_Wait", How::Wait, 1, request, outputs) };
        }
        let call = |status| forward!(MPI_Wait: fn(*mut MPI_Request, *mut MPI_Status) -> c_int, request, status);
        // SAFETY: the program's request.
        let (completion, statuses, rc) =
            match unsafe { call_with("MPI_Wait", request, 1, status, call) } {
                Ok(called) => called,
                Err(rc) => return rc,
            };
        // SAFETY: the receive's memory is the program's, as when it was posted.
        let overflows = unsafe { completion.finish(rc, statuses, Completed::All, false, false) };
        // SAFETY: the statuses the call wrote.
        unsafe { answer("MPI_Wait", rc, overflows, statuses, false) }
    })
}

/// `MPI_Test`: unpacks a receive of the engine's path it reports complete.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Test(
    request: *mut MPI_Request,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    export("MPI_Test", || {
        // SAFETY: the caller's pointers, as the function requires.
        unsafe { test_like(request, flag, status, false) }
    })
}

/// `MPI_Request_get_status`: as `MPI_Test`, but the request stays the program's.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Request_get_status(
    request: MPI_Request,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    export("MPI_Request_get_status", || {
        let mut request = request;
        // SAFETY: the caller's pointers, as the function requires.
        unsafe { test_like(&mut request, flag, status, true) }
    })
}

/// `MPI_Test` (`keep` false) or `MPI_Request_get_status` (`keep` true) of one request.
///
/// # Safety
/// As for the MPI functions.
unsafe fn test_like(
    request: *mut MPI_Request,
    flag: *mut c_int,
    status: *mut MPI_Status,
    keep: bool,
) -> c_int {
    let name = if keep {
        "MPI_Request_get_status"
    } else {
        "MPI_Test"
    };
    if standalone() {
        let how = if keep { How::Look } else { How::Test };
        let outputs = Outputs::One {
            flag: Some(flag),
            status,
        };
        // SAFETY: the program's request, flag and status.
        return unsafe { serial::complete(name, how, 1, request, outputs) };
    }
    let value = match request.is_null() {
        true => crate::abi::p2p::MPI_REQUEST_NULL,
        // SAFETY: the program's request handle (read by value as MPI_Request_get_status
        // takes it).
        false => unsafe { request.read() },
    };
    let call = |status: *mut MPI_Status| match keep {
        true => {
            forward!(MPI_Request_get_status: fn(MPI_Request, *mut c_int, *mut MPI_Status) -> c_int,
            value, flag, status)
        }
        false => forward!(MPI_Test: fn(*mut MPI_Request, *mut c_int, *mut MPI_Status) -> c_int,
            request, flag, status),
    };
    // SAFETY: the program's requests.
    let (completion, statuses, rc) = match unsafe { call_with(name, request, 1, status, call) } {
        Ok(called) => called,
        Err(rc) => return rc,
    };
    // SAFETY: the MPI behind wrote the flag (a failed call leaves it unread).
    let done = !flag.is_null() && rc == crate::abi::MPI_SUCCESS && unsafe { flag.read() } != 0;
    let completed = if done {
        Completed::All
    } else {
        Completed::None
    };
    // SAFETY: the receive's memory is the program's, as when it was posted.
    let overflows = unsafe { completion.finish(rc, statuses, completed, false, keep) };
    // SAFETY: the statuses the call wrote.
    unsafe { answer(name, rc, overflows, statuses, false) }
}

/// `MPI_Waitall`: unpacks the receives of the engine's path before it returns.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Waitall(
    count: c_int,
    requests: *mut MPI_Request,
    statuses: *mut MPI_Status,
) -> c_int {
    export("MPI_Waitall", || {
        if standalone() {
            let outputs = Outputs::All {
                flag: None,
                statuses,
            };
            // SAFETY: the program's requests and statuses.
            return unsafe { serial::complete("MPI_Waitall", How::Wait, count, requests, outputs) };
        }
        let call = |statuses| {
            forward!(MPI_Waitall: fn(c_int, *mut MPI_Request, *mut MPI_Status) -> c_int,
                count, requests, statuses)
        };
        // SAFETY: the program's requests.
        let (completion, statuses, rc) =
            match unsafe { call_with("MPI_Waitall", requests, count, statuses, call) } {
                Ok(called) => called,
                Err(rc) => return rc,
            };
        // SAFETY: as for MPI_Wait.
        let overflows = unsafe { completion.finish(rc, statuses, Completed::All, true, false) };
        // SAFETY: the statuses the call wrote.
        unsafe { answer("MPI_Waitall", rc, overflows, statuses, true) }
    })
}

/// How a completion call over several requests completes them.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// `MPI_Wait*`: blocks until it completes them; completed requests are freed.
    Wait,
    /// `MPI_Test*`: completes those already complete; completed requests are freed.
    Test,
    /// `MPI_Request_get_status_*` (MPI-4.1): as `MPI_Test*`, but the requests stay the
    /// program's.
    GetStatus,
}

impl Kind {
    /// How the one-process world completes the requests.
    fn how(self) -> How {
        match self {
            Kind::Wait => How::Wait,
            Kind::Test => How::Test,
            Kind::GetStatus => How::Look,
        }
    }

    /// The one of the names of a family of functions (`MPI_Waitany`, `MPI_Testany`,
    /// `MPI_Request_get_status_any`) that is of this kind.
    fn pick(self, [wait, test, get_status]: [&'static str; 3]) -> &'static str {
        match self {
            Kind::Wait => wait,
            Kind::Test => test,
            Kind::GetStatus => get_status,
        }
    }
}

/// `MPI_Testall` or `MPI_Request_get_status_all` of `count` requests.
///
/// # Safety
/// As for the MPI functions.
unsafe fn all_like(
    kind: Kind,
    count: c_int,
    requests: *mut MPI_Request,
    flag: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    let name = kind.pick(["MPI_Waitall", "MPI_Testall", "MPI_Request_get_status_all"]);
    if standalone() {
        let outputs = Outputs::All {
            flag: Some(flag),
            statuses,
        };
        // SAFETY: the program's requests, flag and statuses.
        return unsafe { serial::complete(name, kind.how(), count, requests, outputs) };
    }
    let call = |statuses: *mut MPI_Status| match kind {
        Kind::GetStatus => forward!(MPI_Request_get_status_all: fn(c_int, *mut MPI_Request,
            *mut c_int, *mut MPI_Status) -> c_int, count, requests, flag, statuses),
        _ => {
            forward!(MPI_Testall: fn(c_int, *mut MPI_Request, *mut c_int, *mut MPI_Status) -> c_int,
            count, requests, flag, statuses)
        }
    };
    // SAFETY: the program's requests.
    let (completion, statuses, rc) =
        match unsafe { call_with(name, requests, count, statuses, call) } {
            Ok(called) => called,
            Err(rc) => return rc,
        };
    // SAFETY: the MPI behind wrote the flag.
    let all = !flag.is_null() && unsafe { flag.read() } != 0;
    let completed = if all { Completed::All } else { Completed::None };
    // SAFETY: as for MPI_Wait.
    let overflows =
        unsafe { completion.finish(rc, statuses, completed, true, kind == Kind::GetStatus) };
    // SAFETY: the statuses the call wrote.
    unsafe { answer(name, rc, overflows, statuses, true) }
}

/// `MPI_Testall`: when all are complete, unpacks the receives of the engine's path.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Testall(
    count: c_int,
    requests: *mut MPI_Request,
    flag: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    export("MPI_Testall", || {
        // SAFETY: the caller's arguments.
        unsafe { all_like(Kind::Test, count, requests, flag, statuses) }
    })
}

/// `MPI_Request_get_status_all` (MPI-4.1): when all are complete, unpacks the receives of
/// the engine's path; the requests stay the program's.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Request_get_status_all(
    count: c_int,
    requests: *const MPI_Request,
    flag: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    export("MPI_Request_get_status_all", || {
        // SAFETY: the caller's arguments.
        unsafe { all_like(Kind::GetStatus, count, requests.cast_mut(), flag, statuses) }
    })
}

/// `MPI_Waitany`, `MPI_Testany` or `MPI_Request_get_status_any` of `count` requests.
///
/// # Safety
/// As for the MPI functions.
unsafe fn any(
    kind: Kind,
    count: c_int,
    requests: *mut MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    let name = kind.pick(["MPI_Waitany", "MPI_Testany", "MPI_Request_get_status_any"]);
    if standalone() {
        let flag = (kind != Kind::Wait).then_some(flag);
        let outputs = Outputs::Any {
            index,
            flag,
            status,
        };
        // SAFETY: the program's requests and outputs.
        return unsafe { serial::complete(name, kind.how(), count, requests, outputs) };
    }
    let call = |status: *mut MPI_Status| match kind {
        Kind::Wait => {
            forward!(MPI_Waitany: fn(c_int, *mut MPI_Request, *mut c_int, *mut MPI_Status) -> c_int,
            count, requests, index, status)
        }
        Kind::Test => forward!(MPI_Testany: fn(c_int, *mut MPI_Request, *mut c_int, *mut c_int,
            *mut MPI_Status) -> c_int, count, requests, index, flag, status),
        Kind::GetStatus => forward!(MPI_Request_get_status_any: fn(c_int, *mut MPI_Request,
            *mut c_int, *mut c_int, *mut MPI_Status) -> c_int, count, requests, index, flag, status),
    };
    // SAFETY: the program's requests.
    let (completion, statuses, rc) = match unsafe { call_with(name, requests, count, status, call) }
    {
        Ok(called) => called,
        Err(rc) => return rc,
    };
    // SAFETY: the MPI behind wrote the index (and the flag of MPI_Testany).
    let chosen = unsafe {
        let flagged = kind == Kind::Wait || (!flag.is_null() && flag.read() != 0);
        (flagged && !index.is_null()).then(|| index.read())
    };
    let pair = chosen
        .filter(|&i| i != MPI_UNDEFINED && i >= 0)
        .map(|i| [(i as usize, 0usize)]);
    let completed = match &pair {
        Some(pair) => Completed::Some(pair),
        None => Completed::None,
    };
    // SAFETY: as for MPI_Wait.
    let overflows =
        unsafe { completion.finish(rc, statuses, completed, false, kind == Kind::GetStatus) };
    // SAFETY: the statuses the call wrote.
    unsafe { answer(name, rc, overflows, statuses, false) }
}

/// `MPI_Waitany`: unpacks the receive of the engine's path it completes.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Waitany(
    count: c_int,
    requests: *mut MPI_Request,
    index: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    export("MPI_Waitany", || {
        // SAFETY: the caller's arguments.
        unsafe {
            any(
                Kind::Wait,
                count,
                requests,
                index,
                std::ptr::null_mut(),
                status,
            )
        }
    })
}

/// `MPI_Testany`: unpacks the receive of the engine's path it completes.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Testany(
    count: c_int,
    requests: *mut MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    export("MPI_Testany", || {
        // SAFETY: the caller's arguments.
        unsafe { any(Kind::Test, count, requests, index, flag, status) }
    })
}

/// `MPI_Waitsome`, `MPI_Testsome` or `MPI_Request_get_status_some` of `incount` requests.
///
/// # Safety
/// As for the MPI functions.
unsafe fn some(
    kind: Kind,
    incount: c_int,
    requests: *mut MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    let name = kind.pick([
        "MPI_Waitsome",
        "MPI_Testsome",
        "MPI_Request_get_status_some",
    ]);
    if standalone() {
        let outputs = Outputs::Some {
            outcount,
            indices,
            statuses,
        };
        // SAFETY: the program's requests and outputs.
        return unsafe { serial::complete(name, kind.how(), incount, requests, outputs) };
    }
    let call = |statuses: *mut MPI_Status| match kind {
        Kind::Wait => forward!(MPI_Waitsome: fn(c_int, *mut MPI_Request, *mut c_int, *mut c_int,
            *mut MPI_Status) -> c_int, incount, requests, outcount, indices, statuses),
        Kind::Test => forward!(MPI_Testsome: fn(c_int, *mut MPI_Request, *mut c_int, *mut c_int,
            *mut MPI_Status) -> c_int, incount, requests, outcount, indices, statuses),
        Kind::GetStatus => forward!(MPI_Request_get_status_some: fn(c_int, *mut MPI_Request,
            *mut c_int, *mut c_int, *mut MPI_Status) -> c_int, incount, requests, outcount,
            indices, statuses),
    };
    // SAFETY: the program's requests.
    let (completion, statuses, rc) =
        match unsafe { call_with(name, requests, incount, statuses, call) } {
            Ok(called) => called,
            Err(rc) => return rc,
        };
    // SAFETY: the MPI behind wrote outcount and as many indices.
    let pairs: Vec<(usize, usize)> = unsafe {
        let done = if outcount.is_null() {
            0
        } else {
            outcount.read()
        };
        if done == MPI_UNDEFINED || done <= 0 || indices.is_null() {
            Vec::new()
        } else {
            (0..done as usize)
                .map(|k| (indices.add(k).read() as usize, k))
                .collect()
        }
    };
    // SAFETY: as for MPI_Wait.
    let overflows = unsafe {
        completion.finish(
            rc,
            statuses,
            Completed::Some(&pairs),
            true,
            kind == Kind::GetStatus,
        )
    };
    // SAFETY: the statuses the call wrote.
    unsafe { answer(name, rc, overflows, statuses, true) }
}

/// `MPI_Waitsome`: unpacks the receives of the engine's path it completes.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Waitsome(
    incount: c_int,
    requests: *mut MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    export("MPI_Waitsome", || {
        // SAFETY: the caller's arguments.
        unsafe { some(Kind::Wait, incount, requests, outcount, indices, statuses) }
    })
}

/// `MPI_Testsome`: unpacks the receives of the engine's path it completes.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Testsome(
    incount: c_int,
    requests: *mut MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    export("MPI_Testsome", || {
        // SAFETY: the caller's arguments.
        unsafe { some(Kind::Test, incount, requests, outcount, indices, statuses) }
    })
}

/// `MPI_Request_free`: a request of the engine's path whose operation still runs is kept
/// (with its buffer) until the operation completes.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Request_free(request: *mut MPI_Request) -> c_int {
    export("MPI_Request_free", || {
        if standalone() {
            // SAFETY: the program's request.
            return unsafe { serial::free(request) };
        }
        crate::dropin::comm::pending::progress_detached();
        // SAFETY: the program's request.
        if let Some(rc) = unsafe { comm::free_request(request) } {
            return rc;
        }
        forward!(MPI_Request_free: fn(*mut MPI_Request) -> c_int, request)
            .unwrap_or_else(|| missing_behind("MPI_Request_free"))
    })
}

/// `MPI_Start`: a persistent send of the engine's path packs the program's data first.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Start(request: *mut MPI_Request) -> c_int {
    export("MPI_Start", || {
        if standalone() {
            // SAFETY: the program's request.
            return unsafe { serial::start("MPI_Start", 1, request) };
        }
        if !request.is_null() {
            // SAFETY: the program's request and the memory it sends from.
            unsafe { comm::before_start(request, 1) };
        }
        forward!(MPI_Start: fn(*mut MPI_Request) -> c_int, request)
            .unwrap_or_else(|| missing_behind("MPI_Start"))
    })
}

/// `MPI_Startall`: the persistent sends of the engine's path pack the program's data first.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Startall(count: c_int, requests: *mut MPI_Request) -> c_int {
    export("MPI_Startall", || {
        if standalone() {
            // SAFETY: the program's requests.
            return unsafe { serial::start("MPI_Startall", count, requests) };
        }
        // SAFETY: the program's requests and the memory they send from.
        unsafe { comm::before_start(requests, count) };
        forward!(MPI_Startall: fn(c_int, *mut MPI_Request) -> c_int, count, requests)
            .unwrap_or_else(|| missing_behind("MPI_Startall"))
    })
}

/// `MPI_Request_get_status_any` (MPI-4.1): unpacks the receive of the engine's path it
/// reports complete; the request stays the program's.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Request_get_status_any(
    count: c_int,
    requests: *const MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    export("MPI_Request_get_status_any", || {
        // SAFETY: the caller's arguments.
        unsafe {
            any(
                Kind::GetStatus,
                count,
                requests.cast_mut(),
                index,
                flag,
                status,
            )
        }
    })
}

/// `MPI_Request_get_status_some` (MPI-4.1): unpacks the receives of the engine's path it
/// reports complete; the requests stay the program's.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Request_get_status_some(
    incount: c_int,
    requests: *const MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    export("MPI_Request_get_status_some", || {
        // SAFETY: the caller's arguments.
        unsafe {
            some(
                Kind::GetStatus,
                incount,
                requests.cast_mut(),
                outcount,
                indices,
                statuses,
            )
        }
    })
}

/// `MPI_Cancel`: marks a pending operation for cancellation. The MPI behind's, or in the
/// one-process world a receive not matched yet, or a send whose message no receive has taken.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Cancel(request: *mut MPI_Request) -> c_int {
    export("MPI_Cancel", || {
        if standalone() {
            // SAFETY: the program's request.
            return unsafe { serial::cancel(request) };
        }
        forward!(MPI_Cancel: fn(*mut MPI_Request) -> c_int, request)
            .unwrap_or_else(|| missing_behind("MPI_Cancel"))
    })
}
