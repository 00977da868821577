//! Errors on the ABI side: the error value of the C library (the core's, with its class's
//! number), the texts of the error classes, the error codes handed to the program, and the
//! error handler state that decides whether an error aborts the program or is returned.
//!
//! # Error codes
//!
//! Every error raised gets its own code, as in MPICH, so that `MPI_Error_string` on any code a
//! call returned gives that error's own message, not only the latest one. A code has MPICH's
//! layout: the class in the low 7 bits (so `MPI_Error_class`, ours or MPICH's, maps it to its
//! class), then in bits 8-18 a generic-message index that MPICH never uses (all ones, marking
//! the code as ours), and in bits 19-29 the slot of a ring of the [`RING`] most recent errors
//! that holds the message. Memory stays bounded: a code older than the last [`RING`] errors
//! still maps to its class, but its message may have been replaced by a newer one of the same
//! class in the same slot.

use crate::abi::*;
use parking_lot::Mutex;
use std::os::raw::c_int;
use std::sync::LazyLock;

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
    /// `MPI_ERR_RANK` for a rank outside its group.
    pub fn rank(message: impl Into<String>) -> Self {
        Self::new(MPI_ERR_RANK, message)
    }
    /// `MPI_ERR_TRUNCATE` for data that does not fit the room it is given.
    pub fn truncate(message: impl Into<String>) -> Self {
        Self::new(MPI_ERR_TRUNCATE, message)
    }
    /// `MPI_ERR_ARG` for an arithmetic result that does not fit a 64-bit `MPI_Aint`/`MPI_Count`.
    pub fn overflow(what: &str) -> Self {
        Self::arg(format!(
            "{what} overflows the 64-bit range of MPI_Aint/MPI_Count"
        ))
    }
}

impl From<mpi_dtype_core::error::Error> for MpiError {
    /// The core's error with the number of its class in this ABI.
    fn from(error: mpi_dtype_core::error::Error) -> Self {
        use mpi_dtype_core::error::ErrorClass;
        let class = match error.class {
            ErrorClass::Arg => MPI_ERR_ARG,
            ErrorClass::Count => MPI_ERR_COUNT,
            ErrorClass::Type => MPI_ERR_TYPE,
            ErrorClass::Rank => MPI_ERR_RANK,
            ErrorClass::Truncate => MPI_ERR_TRUNCATE,
            ErrorClass::Op => MPI_ERR_OP,
        };
        MpiError::new(class, error.message)
    }
}

/// Result of an operation of the C library.
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
        MPI_ERR_ACCESS => "Permission denied",
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
        MPI_ERR_UNSUPPORTED_DATAREP => "Unsupported data representation",
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

/// Number of recent errors whose messages are kept.
pub const RING: usize = 1 << RING_BITS;
const RING_BITS: u32 = 11;
const RING_SHIFT: u32 = 19;
const CLASS_MASK: c_int = 0x7f;
/// MPICH's generic-message index field, all ones: the mark of a code made here.
const OUR_MARK: c_int = 0x7ff << 8;
const MARK_MASK: c_int = 0x7ff << 8 | 0x80 | 0x4000_0000 | i32::MIN;

struct Recent {
    next: usize,
    messages: Vec<Option<(c_int, String)>>,
}

static RECENT: LazyLock<Mutex<Recent>> = LazyLock::new(|| {
    Mutex::new(Recent {
        next: 0,
        messages: vec![None; RING],
    })
});

/// Records an error of `class` raised by `function` and returns its new error code. A value
/// that is not an error class (the code a program's callback returned) is returned as it is.
pub fn new_code(class: c_int, function: &str, message: &str) -> c_int {
    if class == MPI_SUCCESS || class & !CLASS_MASK != 0 || class_text(class).is_none() {
        return class;
    }
    let mut recent = RECENT.lock();
    let slot = recent.next;
    recent.next = (slot + 1) % RING;
    let code = class | OUR_MARK | (slot as c_int) << RING_SHIFT;
    recent.messages[slot] = Some((code, format!("{function}: {message}")));
    code
}

/// The error classes and codes the program added (`MPI_Add_error_class`,
/// `MPI_Add_error_code`), numbered after `MPI_ERR_LASTCODE`: for each, its class (a class is
/// its own) and the string `MPI_Add_error_string` gave it.
static ADDED: Mutex<Vec<(c_int, String)>> = Mutex::new(Vec::new());

/// The largest error class or code in use (`MPI_LASTUSEDCODE`): `MPI_ERR_LASTCODE`, or the
/// last the program added. Its address is the attribute's value.
pub static LAST_USED_CODE: std::sync::atomic::AtomicI32 =
    std::sync::atomic::AtomicI32::new(MPI_ERR_LASTCODE);

/// Adds an error class (`class` `None`) or a code of the class `class`; returns it.
pub fn add_error(class: Option<c_int>) -> MpiResult<c_int> {
    if let Some(class) = class {
        if class_of(class) != Some(class) || class == MPI_SUCCESS {
            return Err(MpiError::arg(format!("{class} is not an error class")));
        }
    }
    let mut added = ADDED.lock();
    let value = c_int::try_from(added.len())
        .ok()
        .and_then(|n| MPI_ERR_LASTCODE.checked_add(n + 1))
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "no error code is left"))?;
    added.push((class.unwrap_or(value), String::new()));
    LAST_USED_CODE.store(value, std::sync::atomic::Ordering::SeqCst);
    Ok(value)
}

/// Gives `text` to an error class or code the program added (`MPI_Add_error_string`).
pub fn set_error_string(code: c_int, text: String) -> MpiResult<()> {
    let mut added = ADDED.lock();
    match added_index(code).and_then(|i| added.get_mut(i)) {
        Some(entry) => {
            entry.1 = text;
            Ok(())
        }
        None => Err(MpiError::arg(format!(
            "{code} is not an error class or code the program added"
        ))),
    }
}

/// The index in [`ADDED`] of an added class or code.
fn added_index(code: c_int) -> Option<usize> {
    usize::try_from(code.checked_sub(MPI_ERR_LASTCODE + 1)?).ok()
}

/// The class and string of an added class or code.
fn added(code: c_int) -> Option<(c_int, String)> {
    ADDED.lock().get(added_index(code)?).cloned()
}

/// The class of an error code this library knows: a bare error class, a code it made, or a
/// class or code the program added.
pub fn class_of(code: c_int) -> Option<c_int> {
    if class_text(code).is_some() {
        return Some(code);
    }
    if let Some((class, _)) = added(code) {
        return Some(class);
    }
    let class = code & CLASS_MASK;
    (code & MARK_MASK == OUR_MARK && class != MPI_SUCCESS && class_text(class).is_some())
        .then_some(class)
}

/// The text of an error code this library knows: the text of its class, followed for a code
/// of a recent error by the function and the problem.
pub fn code_text(code: c_int) -> Option<String> {
    if let Some((_, text)) = added(code) {
        return Some(text);
    }
    let class = class_of(code)?;
    let text = class_text(class)?;
    if class == code {
        return Some(text.to_string());
    }
    let slot = ((code >> RING_SHIFT) as usize) & (RING - 1);
    Some(match &RECENT.lock().messages[slot] {
        Some((c, detail)) if *c == code => format!("{text}, {detail}"),
        _ => text.to_string(),
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

static HANDLERS: LazyLock<Mutex<ErrorHandlers>> = LazyLock::new(|| {
    Mutex::new(ErrorHandlers {
        world: MPI_ERRORS_ARE_FATAL,
        self_: None,
    })
});

/// The handler that applies to errors not tied to a communicator.
pub fn effective_handler() -> MPI_Errhandler {
    let h = HANDLERS.lock();
    h.self_.unwrap_or(h.world)
}

/// The communicator whose handler applies to errors not tied to a communicator.
pub fn effective_comm() -> MPI_Comm {
    match HANDLERS.lock().self_ {
        Some(_) => MPI_COMM_SELF,
        None => MPI_COMM_WORLD,
    }
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

/// An error handler the program made, with the kind of object it serves.
#[derive(Debug, Clone, Copy)]
pub enum UserHandler {
    /// Made by `MPI_Comm_create_errhandler`.
    Comm(MPI_Comm_errhandler_function),
    /// Made by `MPI_Win_create_errhandler`.
    Win(MPI_Win_errhandler_function),
    /// Made by `MPI_Session_create_errhandler`.
    Session(MPI_Session_errhandler_function),
    /// Made by `MPI_File_create_errhandler`.
    File(FileErrhandler),
}

impl UserHandler {
    /// True if the program gave no function (NULL).
    pub fn is_null(&self) -> bool {
        match self {
            UserHandler::Comm(f) => f.is_none(),
            UserHandler::Win(f) => f.is_none(),
            UserHandler::Session(f) => f.is_none(),
            UserHandler::File(f) => f.is_none(),
        }
    }
}

/// The object an error is raised on: the program's handler gets its handle.
#[derive(Debug, Clone, Copy)]
pub enum Raised {
    /// A communicator.
    Comm(MPI_Comm),
    /// A window.
    Win(MPI_Win),
    /// A session.
    Session(MPI_Session),
    /// An open file.
    File(MPI_File),
}

/// Error handlers the program made, by their index ([`user_errhandler`]).
static USER_HANDLERS: Mutex<Vec<UserHandler>> = Mutex::new(Vec::new());

/// Registers an error handler function and returns its handle.
pub fn add_user_handler(f: UserHandler) -> MpiResult<MPI_Errhandler> {
    let mut handlers = USER_HANDLERS.lock();
    let handle = user_errhandler(handlers.len())
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many error handlers"))?;
    handlers.push(f);
    Ok(handle)
}

/// The function of an error handler the program made.
pub fn user_handler(handle: MPI_Errhandler) -> Option<UserHandler> {
    let index = user_errhandler_index(handle)?;
    USER_HANDLERS.lock().get(index).copied()
}

/// True if `errhandler` may be attached to an object whose handlers `kind` accepts: a
/// predefined handler, or one the program made for that kind of object.
pub fn attachable(errhandler: MPI_Errhandler, kind: fn(&UserHandler) -> bool) -> bool {
    [MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_ERRORS_ABORT].contains(&errhandler)
        || user_handler(errhandler).is_some_and(|h| kind(&h))
}

/// Calls the program's error handler `handle` for the error `code` raised on `on`; a
/// handler made in the MPI behind is called by that library.
pub fn call_user_errhandler(handle: MPI_Errhandler, code: c_int, on: Raised) {
    let mut code = code;
    match (user_handler(handle), on) {
        (Some(UserHandler::Comm(Some(f))), Raised::Comm(mut comm)) => {
            // SAFETY: the program registered this function as a communicator's error handler.
            unsafe { f(&mut comm, &mut code) }
        }
        (Some(UserHandler::Win(Some(f))), Raised::Win(mut win)) => {
            // SAFETY: the program registered this function as a window's error handler.
            unsafe { f(&mut win, &mut code) }
        }
        (Some(UserHandler::Session(Some(f))), Raised::Session(mut session)) => {
            // SAFETY: the program registered this function as a session's error handler.
            unsafe { f(&mut session, &mut code) }
        }
        (Some(UserHandler::File(Some(f))), Raised::File(mut file)) => {
            // SAFETY: the program registered this function as a file's error handler.
            unsafe { f(&mut file, &mut code) }
        }
        (Some(_), _) => {}
        // A handler made in the MPI behind: that library calls it, on the communicator it is
        // attached to.
        (None, Raised::Comm(comm)) => {
            crate::behind::forward!(PMPI_Comm_call_errhandler: fn(MPI_Comm, c_int) -> c_int, comm, code);
        }
        (None, Raised::Win(win)) => {
            crate::behind::forward!(PMPI_Win_call_errhandler: fn(MPI_Win, c_int) -> c_int, win, code);
        }
        (None, Raised::Session(session)) => {
            crate::behind::forward!(PMPI_Session_call_errhandler: fn(MPI_Session, c_int) -> c_int, session, code);
        }
        (None, Raised::File(file)) => {
            crate::behind::forward!(PMPI_File_call_errhandler: fn(MPI_File, c_int) -> c_int, file, code);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_has_its_own_code_and_message() {
        let a = new_code(
            MPI_ERR_ARG,
            "MPI_Type_indexed",
            "array_of_blocklengths[0] is -3",
        );
        let b = new_code(MPI_ERR_TYPE, "MPI_Type_size", "bad handle");
        assert_ne!(a, b);
        assert_ne!(a, MPI_ERR_ARG);
        assert_eq!(class_of(a), Some(MPI_ERR_ARG));
        assert_eq!(class_of(b), Some(MPI_ERR_TYPE));
        assert_eq!(
            a & 0x7f,
            MPI_ERR_ARG,
            "MPICH's MPI_Error_class reads the low bits"
        );
        assert!(a > 0);
        // MPICH's ABI keeps every code at or below MPI_ERR_LASTCODE; the standard ABI's
        // MPI_ERR_LASTCODE bounds the error classes only.
        #[cfg(abi = "mpich")]
        assert!(a <= MPI_ERR_LASTCODE);
        let text = code_text(a).unwrap();
        assert!(
            text.contains("MPI_Type_indexed: array_of_blocklengths[0] is -3"),
            "{text}"
        );
        assert_eq!(code_text(MPI_ERR_ARG).as_deref(), Some("Invalid argument"));
        assert_eq!(class_of(0x1234_5678 & !OUR_MARK), None);
        // A code a program's callback returned is not ours to translate.
        assert_eq!(new_code(1000, "f", "m"), 1000);
    }
}
