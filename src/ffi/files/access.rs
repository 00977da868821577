//! Reading and writing files: at an explicit offset, at the individual file pointer or at the
//! shared one (`_shared`, and `_ordered`, which in a world of one process is the same);
//! blocking, nonblocking (complete when they return), collective (`_all`: the one process is
//! the whole group) and split collective (`_begin` does the access, `_end` reports it). Each
//! `int` function has its `_c` form, with an `MPI_Count` of copies.

use super::{guard_file, with_file};
use crate::abi::p2p::MPI_ANY_SOURCE;
use crate::abi::*;
use crate::error::{MpiError, MpiResult};
use crate::ffi::comm::serial::write_status;
use crate::ffi::comm::{one_process_functions, raised_on};
use crate::ffi::{check_out, with_committed, write_out};
use crate::serial::files::{self, Pointer, Split};
use crate::serial::mailbox::Outcome;
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::Arc;
use Completion::{Begin, Request, Status};
use Direction::{Read, Write};

/// Which way the data go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// From the file to memory.
    Read,
    /// From memory to the file.
    Write,
}

/// How an access reports its completion.
enum Completion {
    /// In a status (or none: `MPI_STATUS_IGNORE`).
    Status(*mut MPI_Status),
    /// In a request, complete already, which the named function returns.
    Request(*mut MPI_Request, &'static str),
    /// To the `_end` of the split collective of this stem.
    Begin(&'static str),
}

/// The outcome of an access that moved `bytes` bytes.
fn moved(bytes: i64) -> Outcome {
    Outcome {
        source: MPI_ANY_SOURCE,
        tag: MPI_ANY_TAG,
        bytes,
        cancelled: false,
        error: None,
    }
}

/// Reads or writes `count` copies of `datatype` at `buf` through the view of `fh`, from where
/// `pointer` says, and reports it as `completion` asks.
///
/// # Safety
/// As for the MPI functions: the type map of the copies addresses memory of the program,
/// readable for a write and writable for a read; the status or request is writable.
unsafe fn access(
    fh: MPI_File,
    direction: Direction,
    pointer: Pointer,
    (buf, count, datatype): (*const c_void, i64, MPI_Datatype),
    completion: Completion,
) -> MpiResult<()> {
    crate::datatype::construct::check_count(count, "count")?;
    if let Request(request, _) = completion {
        check_out(request, "request")?;
    }
    let memtype = with_committed(datatype, Arc::clone)?;
    let index = super::file_index(fh)?;
    if let Begin(_) = completion {
        let begun = with_file(fh, |f| Ok(f.split))?;
        if let Some(split) = begun {
            return Err(MpiError::new(
                MPI_ERR_IO,
                format!("{}_begin was called and its _end not yet", split.stem),
            ));
        }
    }
    let memory = buf.cast_mut().cast::<u8>();
    // SAFETY: the caller's contract.
    let bytes = unsafe {
        files::access_file(
            index,
            direction == Write,
            pointer,
            (memory, count, &memtype, datatype),
        )
    }
    .ok_or_else(|| super::not_a_file(fh))??;
    if let Begin(stem) = completion {
        with_file(fh, |f| {
            f.split = Some(Split { stem, bytes });
            Ok(())
        })?;
    }
    match completion {
        // SAFETY: the caller's status.
        Status(status) => unsafe { write_status(status, &moved(bytes), None) },
        Request(request, call) => {
            let index = crate::serial::world::completed(call, moved(bytes));
            let handle = own_request(index)
                .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many requests"))?;
            // SAFETY: checked non-NULL above.
            unsafe { write_out(request, handle, "request")? };
        }
        Begin(_) => {}
    }
    Ok(())
}

/// Ends the split collective `stem` begun on `fh`: its status says what it moved.
///
/// # Safety
/// The status is writable, or `MPI_STATUS_IGNORE`.
unsafe fn end(
    fh: MPI_File,
    stem: &'static str,
    _buf: *const c_void,
    status: *mut MPI_Status,
) -> MpiResult<()> {
    let split = with_file(fh, |f| match f.split {
        Some(split) if split.stem == stem => Ok(f.split.take()),
        Some(other) => Err(MpiError::new(
            MPI_ERR_IO,
            format!(
                "{stem}_end ends no split collective: {}_begin was called",
                other.stem
            ),
        )),
        None => Err(MpiError::new(
            MPI_ERR_IO,
            format!("{stem}_end without {stem}_begin"),
        )),
    })?;
    let bytes = split.map_or(0, |s| s.bytes);
    // SAFETY: the caller's status.
    unsafe { write_status(status, &moved(bytes), None) };
    Ok(())
}

one_process_functions! {
    /// Reads `count` copies of `datatype` at `offset` of the view.
    fn MPI_File_read_at(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Explicit(offset), (buf.cast_const(), count.into(), datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at `offset` of the view (an `MPI_Count` of copies).
    fn MPI_File_read_at_c(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_read_at via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Explicit(offset), (buf.cast_const(), count, datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at `offset` of the view, collectively.
    fn MPI_File_read_at_all(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Explicit(offset), (buf.cast_const(), count.into(), datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at `offset` of the view, collectively (an `MPI_Count` of copies).
    fn MPI_File_read_at_all_c(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_read_at_all via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Explicit(offset), (buf.cast_const(), count, datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at `offset` of the view.
    fn MPI_File_write_at(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Explicit(offset), (buf, count.into(), datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at `offset` of the view (an `MPI_Count` of copies).
    fn MPI_File_write_at_c(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_write_at via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Explicit(offset), (buf, count, datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at `offset` of the view, collectively.
    fn MPI_File_write_at_all(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Explicit(offset), (buf, count.into(), datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at `offset` of the view, collectively (an `MPI_Count` of copies).
    fn MPI_File_write_at_all_c(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_write_at_all via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Explicit(offset), (buf, count, datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at the individual file pointer.
    fn MPI_File_read(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Individual, (buf.cast_const(), count.into(), datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at the individual file pointer (an `MPI_Count` of copies).
    fn MPI_File_read_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_read via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Individual, (buf.cast_const(), count, datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at the individual file pointer, collectively.
    fn MPI_File_read_all(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Individual, (buf.cast_const(), count.into(), datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at the individual file pointer, collectively (an `MPI_Count` of copies).
    fn MPI_File_read_all_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_read_all via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Individual, (buf.cast_const(), count, datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at the individual file pointer.
    fn MPI_File_write(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Individual, (buf, count.into(), datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at the individual file pointer (an `MPI_Count` of copies).
    fn MPI_File_write_c(fh: MPI_File, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_write via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Individual, (buf, count, datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at the individual file pointer, collectively.
    fn MPI_File_write_all(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Individual, (buf, count.into(), datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at the individual file pointer, collectively (an `MPI_Count` of copies).
    fn MPI_File_write_all_c(fh: MPI_File, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_write_all via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Individual, (buf, count, datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at the shared file pointer.
    fn MPI_File_read_shared(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Shared, (buf.cast_const(), count.into(), datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at the shared file pointer (an `MPI_Count` of copies).
    fn MPI_File_read_shared_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_read_shared via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Shared, (buf.cast_const(), count, datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at the shared file pointer.
    fn MPI_File_write_shared(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Shared, (buf, count.into(), datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at the shared file pointer (an `MPI_Count` of copies).
    fn MPI_File_write_shared_c(fh: MPI_File, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_write_shared via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Shared, (buf, count, datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at the shared file pointer, collectively in rank order.
    fn MPI_File_read_ordered(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Shared, (buf.cast_const(), count.into(), datatype), Status(status)) }
    }
    /// Reads `count` copies of `datatype` at the shared file pointer, collectively in rank order (an `MPI_Count` of copies).
    fn MPI_File_read_ordered_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_read_ordered via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Shared, (buf.cast_const(), count, datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at the shared file pointer, collectively in rank order.
    fn MPI_File_write_ordered(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Shared, (buf, count.into(), datatype), Status(status)) }
    }
    /// Writes `count` copies of `datatype` at the shared file pointer, collectively in rank order (an `MPI_Count` of copies).
    fn MPI_File_write_ordered_c(fh: MPI_File, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, status: *mut MPI_Status) as MPI_File_write_ordered via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Shared, (buf, count, datatype), Status(status)) }
    }
    /// Starts a read at `offset` of the view of `count` copies of `datatype`; it is complete when it returns.
    fn MPI_File_iread_at(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, request: *mut MPI_Request) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Explicit(offset), (buf.cast_const(), count.into(), datatype), Request(request, "MPI_File_iread_at")) }
    }
    /// Starts a read at `offset` of the view of `count` copies of `datatype` (an `MPI_Count` of copies); it is complete when it returns.
    fn MPI_File_iread_at_c(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) as MPI_File_iread_at via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Explicit(offset), (buf.cast_const(), count, datatype), Request(request, "MPI_File_iread_at_c")) }
    }
    /// Starts a collective read at `offset` of the view of `count` copies of `datatype`; it is complete when it returns.
    fn MPI_File_iread_at_all(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, request: *mut MPI_Request) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Explicit(offset), (buf.cast_const(), count.into(), datatype), Request(request, "MPI_File_iread_at_all")) }
    }
    /// Starts a collective read at `offset` of the view of `count` copies of `datatype` (an `MPI_Count` of copies); it is complete when it returns.
    fn MPI_File_iread_at_all_c(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) as MPI_File_iread_at_all via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Explicit(offset), (buf.cast_const(), count, datatype), Request(request, "MPI_File_iread_at_all_c")) }
    }
    /// Starts a write at `offset` of the view of `count` copies of `datatype`; it is complete when it returns.
    fn MPI_File_iwrite_at(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: c_int, datatype: MPI_Datatype, request: *mut MPI_Request) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Explicit(offset), (buf, count.into(), datatype), Request(request, "MPI_File_iwrite_at")) }
    }
    /// Starts a write at `offset` of the view of `count` copies of `datatype` (an `MPI_Count` of copies); it is complete when it returns.
    fn MPI_File_iwrite_at_c(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) as MPI_File_iwrite_at via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Explicit(offset), (buf, count, datatype), Request(request, "MPI_File_iwrite_at_c")) }
    }
    /// Starts a collective write at `offset` of the view of `count` copies of `datatype`; it is complete when it returns.
    fn MPI_File_iwrite_at_all(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: c_int, datatype: MPI_Datatype, request: *mut MPI_Request) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Explicit(offset), (buf, count.into(), datatype), Request(request, "MPI_File_iwrite_at_all")) }
    }
    /// Starts a collective write at `offset` of the view of `count` copies of `datatype` (an `MPI_Count` of copies); it is complete when it returns.
    fn MPI_File_iwrite_at_all_c(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) as MPI_File_iwrite_at_all via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Explicit(offset), (buf, count, datatype), Request(request, "MPI_File_iwrite_at_all_c")) }
    }
    /// Starts a read at the individual file pointer of `count` copies of `datatype`; it is complete when it returns.
    fn MPI_File_iread(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, request: *mut MPI_Request) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Individual, (buf.cast_const(), count.into(), datatype), Request(request, "MPI_File_iread")) }
    }
    /// Starts a read at the individual file pointer of `count` copies of `datatype` (an `MPI_Count` of copies); it is complete when it returns.
    fn MPI_File_iread_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) as MPI_File_iread via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Individual, (buf.cast_const(), count, datatype), Request(request, "MPI_File_iread_c")) }
    }
    /// Starts a collective read at the individual file pointer of `count` copies of `datatype`; it is complete when it returns.
    fn MPI_File_iread_all(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, request: *mut MPI_Request) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Individual, (buf.cast_const(), count.into(), datatype), Request(request, "MPI_File_iread_all")) }
    }
    /// Starts a collective read at the individual file pointer of `count` copies of `datatype` (an `MPI_Count` of copies); it is complete when it returns.
    fn MPI_File_iread_all_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) as MPI_File_iread_all via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Individual, (buf.cast_const(), count, datatype), Request(request, "MPI_File_iread_all_c")) }
    }
    /// Starts a write at the individual file pointer of `count` copies of `datatype`; it is complete when it returns.
    fn MPI_File_iwrite(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype, request: *mut MPI_Request) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Individual, (buf, count.into(), datatype), Request(request, "MPI_File_iwrite")) }
    }
    /// Starts a write at the individual file pointer of `count` copies of `datatype` (an `MPI_Count` of copies); it is complete when it returns.
    fn MPI_File_iwrite_c(fh: MPI_File, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) as MPI_File_iwrite via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Individual, (buf, count, datatype), Request(request, "MPI_File_iwrite_c")) }
    }
    /// Starts a collective write at the individual file pointer of `count` copies of `datatype`; it is complete when it returns.
    fn MPI_File_iwrite_all(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype, request: *mut MPI_Request) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Individual, (buf, count.into(), datatype), Request(request, "MPI_File_iwrite_all")) }
    }
    /// Starts a collective write at the individual file pointer of `count` copies of `datatype` (an `MPI_Count` of copies); it is complete when it returns.
    fn MPI_File_iwrite_all_c(fh: MPI_File, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) as MPI_File_iwrite_all via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Individual, (buf, count, datatype), Request(request, "MPI_File_iwrite_all_c")) }
    }
    /// Starts a read at the shared file pointer of `count` copies of `datatype`; it is complete when it returns.
    fn MPI_File_iread_shared(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, request: *mut MPI_Request) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Shared, (buf.cast_const(), count.into(), datatype), Request(request, "MPI_File_iread_shared")) }
    }
    /// Starts a read at the shared file pointer of `count` copies of `datatype` (an `MPI_Count` of copies); it is complete when it returns.
    fn MPI_File_iread_shared_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) as MPI_File_iread_shared via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Shared, (buf.cast_const(), count, datatype), Request(request, "MPI_File_iread_shared_c")) }
    }
    /// Starts a write at the shared file pointer of `count` copies of `datatype`; it is complete when it returns.
    fn MPI_File_iwrite_shared(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype, request: *mut MPI_Request) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Shared, (buf, count.into(), datatype), Request(request, "MPI_File_iwrite_shared")) }
    }
    /// Starts a write at the shared file pointer of `count` copies of `datatype` (an `MPI_Count` of copies); it is complete when it returns.
    fn MPI_File_iwrite_shared_c(fh: MPI_File, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype, request: *mut MPI_Request) as MPI_File_iwrite_shared via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Shared, (buf, count, datatype), Request(request, "MPI_File_iwrite_shared_c")) }
    }
    /// Begins a collective read at `offset` of the view of `count` copies of `datatype`.
    fn MPI_File_read_at_all_begin(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int, datatype: MPI_Datatype) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Explicit(offset), (buf.cast_const(), count.into(), datatype), Begin("MPI_File_read_at_all")) }
    }
    /// Begins a collective read at `offset` of the view of `count` copies of `datatype` (an `MPI_Count` of copies).
    fn MPI_File_read_at_all_begin_c(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype) as MPI_File_read_at_all_begin via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Explicit(offset), (buf.cast_const(), count, datatype), Begin("MPI_File_read_at_all")) }
    }
    /// Ends a collective read at `offset` of the view begun on the file.
    fn MPI_File_read_at_all_end(fh: MPI_File, buf: *mut c_void, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { end(fh, "MPI_File_read_at_all", buf.cast_const(), status) }
    }
    /// Begins a collective write at `offset` of the view of `count` copies of `datatype`.
    fn MPI_File_write_at_all_begin(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: c_int, datatype: MPI_Datatype) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Explicit(offset), (buf, count.into(), datatype), Begin("MPI_File_write_at_all")) }
    }
    /// Begins a collective write at `offset` of the view of `count` copies of `datatype` (an `MPI_Count` of copies).
    fn MPI_File_write_at_all_begin_c(fh: MPI_File, offset: MPI_Offset, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype) as MPI_File_write_at_all_begin via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Explicit(offset), (buf, count, datatype), Begin("MPI_File_write_at_all")) }
    }
    /// Ends a collective write at `offset` of the view begun on the file.
    fn MPI_File_write_at_all_end(fh: MPI_File, buf: *const c_void, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { end(fh, "MPI_File_write_at_all", buf, status) }
    }
    /// Begins a collective read at the individual file pointer of `count` copies of `datatype`.
    fn MPI_File_read_all_begin(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Individual, (buf.cast_const(), count.into(), datatype), Begin("MPI_File_read_all")) }
    }
    /// Begins a collective read at the individual file pointer of `count` copies of `datatype` (an `MPI_Count` of copies).
    fn MPI_File_read_all_begin_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype) as MPI_File_read_all_begin via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Individual, (buf.cast_const(), count, datatype), Begin("MPI_File_read_all")) }
    }
    /// Ends a collective read at the individual file pointer begun on the file.
    fn MPI_File_read_all_end(fh: MPI_File, buf: *mut c_void, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { end(fh, "MPI_File_read_all", buf.cast_const(), status) }
    }
    /// Begins a collective write at the individual file pointer of `count` copies of `datatype`.
    fn MPI_File_write_all_begin(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Individual, (buf, count.into(), datatype), Begin("MPI_File_write_all")) }
    }
    /// Begins a collective write at the individual file pointer of `count` copies of `datatype` (an `MPI_Count` of copies).
    fn MPI_File_write_all_begin_c(fh: MPI_File, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype) as MPI_File_write_all_begin via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Individual, (buf, count, datatype), Begin("MPI_File_write_all")) }
    }
    /// Ends a collective write at the individual file pointer begun on the file.
    fn MPI_File_write_all_end(fh: MPI_File, buf: *const c_void, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { end(fh, "MPI_File_write_all", buf, status) }
    }
    /// Begins a collective read at the shared file pointer in rank order of `count` copies of `datatype`.
    fn MPI_File_read_ordered_begin(fh: MPI_File, buf: *mut c_void, count: c_int, datatype: MPI_Datatype) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Shared, (buf.cast_const(), count.into(), datatype), Begin("MPI_File_read_ordered")) }
    }
    /// Begins a collective read at the shared file pointer in rank order of `count` copies of `datatype` (an `MPI_Count` of copies).
    fn MPI_File_read_ordered_begin_c(fh: MPI_File, buf: *mut c_void, count: MPI_Count, datatype: MPI_Datatype) as MPI_File_read_ordered_begin via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Read, Pointer::Shared, (buf.cast_const(), count, datatype), Begin("MPI_File_read_ordered")) }
    }
    /// Ends a collective read at the shared file pointer in rank order begun on the file.
    fn MPI_File_read_ordered_end(fh: MPI_File, buf: *mut c_void, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { end(fh, "MPI_File_read_ordered", buf.cast_const(), status) }
    }
    /// Begins a collective write at the shared file pointer in rank order of `count` copies of `datatype`.
    fn MPI_File_write_ordered_begin(fh: MPI_File, buf: *const c_void, count: c_int, datatype: MPI_Datatype) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Shared, (buf, count.into(), datatype), Begin("MPI_File_write_ordered")) }
    }
    /// Begins a collective write at the shared file pointer in rank order of `count` copies of `datatype` (an `MPI_Count` of copies).
    fn MPI_File_write_ordered_begin_c(fh: MPI_File, buf: *const c_void, count: MPI_Count, datatype: MPI_Datatype) as MPI_File_write_ordered_begin via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { access(fh, Write, Pointer::Shared, (buf, count, datatype), Begin("MPI_File_write_ordered")) }
    }
    /// Ends a collective write at the shared file pointer in rank order begun on the file.
    fn MPI_File_write_ordered_end(fh: MPI_File, buf: *const c_void, status: *mut MPI_Status) via guard_file(fh) {
        // SAFETY: the caller's buffer and pointers.
        unsafe { end(fh, "MPI_File_write_ordered", buf, status) }
    }
}
