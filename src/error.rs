//! Errors: the error value the core returns, the texts of the error classes, and the error
//! handler state that decides whether an error aborts the program or is returned.

use crate::abi::*;
use parking_lot::Mutex;
use std::os::raw::c_int;

/// An MPI error: its class (an `MPI_ERR_*` value) and a message that names the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MpiError {
    /// The MPI error class.
    pub class: c_int,
    /// What went wrong, in words, without the function name.
    pub message: String,
}

impl MpiError {
    /// An error of `class` with `message`.
    pub fn new(class: c_int, message: impl Into<String>) -> Self {
        MpiError {
            class,
            message: message.into(),
        }
    }
    /// `MPI_ERR_ARG` for an argument that is out of range.
    pub fn arg(message: impl Into<String>) -> Self {
        Self::new(MPI_ERR_ARG, message)
    }
    /// `MPI_ERR_COUNT` for a negative or otherwise invalid count.
    pub fn count(message: impl Into<String>) -> Self {
        Self::new(MPI_ERR_COUNT, message)
    }
    /// `MPI_ERR_TYPE` for an invalid datatype.
    pub fn datatype(message: impl Into<String>) -> Self {
        Self::new(MPI_ERR_TYPE, message)
    }
    /// `MPI_ERR_ARG` for an arithmetic result that does not fit a 64-bit `MPI_Aint`/`MPI_Count`.
    pub fn overflow(what: &str) -> Self {
        Self::arg(format!(
            "{what} overflows the 64-bit range of MPI_Aint/MPI_Count"
        ))
    }
}

/// Result of a core operation.
pub type MpiResult<T> = Result<T, MpiError>;

/// The standard text of an error class (what `MPI_Error_string` returns for a bare class).
pub fn class_text(class: c_int) -> Option<&'static str> {
    Some(match class {
        MPI_SUCCESS => "No MPI error",
        MPI_ERR_BUFFER => "Invalid buffer pointer",
        MPI_ERR_COUNT => "Invalid count argument",
        MPI_ERR_TYPE => "Invalid datatype argument",
        MPI_ERR_TAG => "Invalid tag argument",
        MPI_ERR_COMM => "Invalid communicator",
        MPI_ERR_RANK => "Invalid rank",
        MPI_ERR_ROOT => "Invalid root",
        MPI_ERR_GROUP => "Invalid group",
        MPI_ERR_OP => "Invalid MPI_Op",
        MPI_ERR_TOPOLOGY => "Invalid topology",
        MPI_ERR_DIMS => "Invalid dimension argument",
        MPI_ERR_ARG => "Invalid argument",
        MPI_ERR_UNKNOWN => "Unknown error",
        MPI_ERR_TRUNCATE => "Message truncated",
        MPI_ERR_OTHER => "Other MPI error",
        MPI_ERR_INTERN => "Internal MPI error",
        MPI_ERR_IN_STATUS => "See the MPI_ERROR field in MPI_Status for the error code",
        MPI_ERR_PENDING => "Pending request (no error)",
        MPI_ERR_REQUEST => "Invalid MPI_Request",
        MPI_ERR_ACCESS => "Premission denied",
        MPI_ERR_AMODE => "Invalid amode value in MPI_File_open",
        MPI_ERR_BAD_FILE => "Invalid file name",
        MPI_ERR_CONVERSION => "An error occurred in a user-supplied data conversion function",
        MPI_ERR_DUP_DATAREP => "Conversion functions could not be registered because a data representation identifier that was already defined was passed to MPI_REGISTER_DATAREP",
        MPI_ERR_FILE_EXISTS => "File exists",
        MPI_ERR_FILE_IN_USE => "File operation could not be completed, as the file is currently open by some process",
        MPI_ERR_FILE => "Invalid MPI_File",
        MPI_ERR_INFO => "Invalid MPI_Info",
        MPI_ERR_INFO_KEY => "Invalid key for MPI_Info",
        MPI_ERR_INFO_VALUE => "Invalid MPI_Info value",
        MPI_ERR_INFO_NOKEY => "MPI_Info key is not defined",
        MPI_ERR_IO => "Other I/O error",
        MPI_ERR_NAME => "Invalid service name (see MPI_Publish_name)",
        MPI_ERR_NO_MEM => "Unable to allocate memory",
        MPI_ERR_NOT_SAME => "Inconsistent arguments to collective routine",
        MPI_ERR_NO_SPACE => "Not enough space for file",
        MPI_ERR_NO_SUCH_FILE => "File does not exist",
        MPI_ERR_PORT => "Invalid port",
        MPI_ERR_QUOTA => "Quota exceeded for files",
        MPI_ERR_READ_ONLY => "Read-only file or filesystem name",
        MPI_ERR_SERVICE => "Attempt to lookup an unknown service name",
        MPI_ERR_SPAWN => "Error in spawn call",
        MPI_ERR_UNSUPPORTED_DATAREP => "Unsupported datarep passed to MPI_File_set_view",
        MPI_ERR_UNSUPPORTED_OPERATION => "Operation not supported",
        MPI_ERR_WIN => "Invalid MPI_Win",
        MPI_ERR_BASE => "Invalid base address",
        MPI_ERR_LOCKTYPE => "Invalid lock type",
        MPI_ERR_KEYVAL => "Invalid keyval",
        MPI_ERR_RMA_CONFLICT => "Conflicting accesses to window",
        MPI_ERR_RMA_SYNC => "Wrong synchronization of RMA calls",
        MPI_ERR_SIZE => "Invalid size argument",
        MPI_ERR_DISP => "Invalid displacement argument",
        MPI_ERR_ASSERT => "Invalid assert argument",
        MPI_ERR_RMA_RANGE => "Target memory is not part of the window",
        MPI_ERR_RMA_ATTACH => "Memory cannot be attached",
        MPI_ERR_RMA_SHARED => "Memory cannot be shared",
        MPI_ERR_RMA_FLAVOR => "Passed window has incorrect flavor for the called function",
        MPI_ERR_SESSION => "Invalid session handle",
        MPI_ERR_PROC_ABORTED => "Operation failed because a remote process has aborted",
        MPI_ERR_VALUE_TOO_LARGE => "Value is too large to store",
        _ => return None,
    })
}

/// The symbolic name of an error class, such as `MPI_ERR_TYPE`.
pub fn class_name(class: c_int) -> &'static str {
    match class {
        MPI_SUCCESS => "MPI_SUCCESS",
        MPI_ERR_BUFFER => "MPI_ERR_BUFFER",
        MPI_ERR_COUNT => "MPI_ERR_COUNT",
        MPI_ERR_TYPE => "MPI_ERR_TYPE",
        MPI_ERR_COMM => "MPI_ERR_COMM",
        MPI_ERR_RANK => "MPI_ERR_RANK",
        MPI_ERR_ARG => "MPI_ERR_ARG",
        MPI_ERR_TRUNCATE => "MPI_ERR_TRUNCATE",
        MPI_ERR_OTHER => "MPI_ERR_OTHER",
        MPI_ERR_INTERN => "MPI_ERR_INTERN",
        MPI_ERR_KEYVAL => "MPI_ERR_KEYVAL",
        MPI_ERR_SIZE => "MPI_ERR_SIZE",
        MPI_ERR_CONVERSION => "MPI_ERR_CONVERSION",
        MPI_ERR_UNSUPPORTED_DATAREP => "MPI_ERR_UNSUPPORTED_DATAREP",
        MPI_ERR_UNSUPPORTED_OPERATION => "MPI_ERR_UNSUPPORTED_OPERATION",
        MPI_ERR_NO_MEM => "MPI_ERR_NO_MEM",
        MPI_ERR_DIMS => "MPI_ERR_DIMS",
        _ => "MPI error",
    }
}

/// How errors raised by this library are handled (the state behind `MPI_Comm_set_errhandler`).
///
/// Errors that are not raised on a particular communicator are raised on `MPI_COMM_SELF`
/// (MPI-4.1 §9.3) when the program gave `MPI_COMM_SELF` a handler of its own, and otherwise on
/// `MPI_COMM_WORLD`, the object MPICH and Open MPI use; so a program that sets
/// `MPI_ERRORS_RETURN` on either communicator gets error codes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorHandlers {
    /// The handler attached to `MPI_COMM_WORLD`.
    pub world: MPI_Errhandler,
    /// The handler attached to `MPI_COMM_SELF`, if the program set one.
    pub self_: Option<MPI_Errhandler>,
}

static HANDLERS: Mutex<ErrorHandlers> = Mutex::new(ErrorHandlers {
    world: MPI_ERRORS_ARE_FATAL,
    self_: None,
});

/// The handler that applies to errors not tied to a communicator.
pub fn effective_handler() -> MPI_Errhandler {
    let h = HANDLERS.lock();
    h.self_.unwrap_or(h.world)
}

/// Attaches `handler` to `comm` (`MPI_COMM_WORLD` or `MPI_COMM_SELF`).
pub fn set_handler(comm: MPI_Comm, handler: MPI_Errhandler) {
    let mut h = HANDLERS.lock();
    if comm == MPI_COMM_SELF {
        h.self_ = Some(handler);
    } else {
        h.world = handler;
    }
}

/// The handler attached to `comm` (`MPI_COMM_WORLD` or `MPI_COMM_SELF`).
pub fn handler_of(comm: MPI_Comm) -> MPI_Errhandler {
    let h = HANDLERS.lock();
    if comm == MPI_COMM_SELF {
        h.self_.unwrap_or(MPI_ERRORS_ARE_FATAL)
    } else {
        h.world
    }
}
