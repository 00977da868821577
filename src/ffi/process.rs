//! What a datatype-only MPI program needs to run with no other MPI present: init and
//! finalize, rank and size of a one-process world, error handlers, error classes and
//! strings, timers and version queries.
//!
//! When a real MPI library of MPICH's ABI is loaded in the process ([`crate::behind`] finds
//! it), each of these functions forwards to that library's function of the same name, so the
//! program's processes, communicators and error handlers stay the real MPI's.

use super::{check_out, guard, raise, write_c_string, write_out};
use crate::abi::*;
use crate::behind::forward;
use crate::error::{self, MpiError};
use crate::ffi::{export, export_value};
use crate::process;
use crate::serial::comms::{self, Place};
use std::ffi::{c_char, c_void};
use std::os::raw::c_int;

/// Initializes MPI (a one-process world when no other MPI is loaded).
#[no_mangle]
pub unsafe extern "C" fn MPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int {
    export("MPI_Init", || {
        crate::dropin::before_init();
        if let Some(rc) =
            forward!(MPI_Init: fn(*mut c_int, *mut *mut *mut c_char) -> c_int, argc, argv)
        {
            crate::dropin::after_init(rc);
            return rc;
        }
        guard("MPI_Init", || {
            process::initialize(MPI_THREAD_SINGLE)?;
            crate::serial::world::enrol();
            Ok(())
        })
    })
}

/// Initializes MPI with a thread level; every function of this library is thread-safe, so
/// any level up to `MPI_THREAD_MULTIPLE` is provided as asked.
#[no_mangle]
pub unsafe extern "C" fn MPI_Init_thread(
    argc: *mut c_int,
    argv: *mut *mut *mut c_char,
    required: c_int,
    provided: *mut c_int,
) -> c_int {
    export("MPI_Init_thread", || {
        crate::dropin::before_init();
        if let Some(rc) = forward!(MPI_Init_thread: fn(*mut c_int, *mut *mut *mut c_char, c_int, *mut c_int) -> c_int,
            argc, argv, required, provided)
        {
            crate::dropin::after_init(rc);
            return rc;
        }
        guard("MPI_Init_thread", || {
            check_out(provided, "provided")?;
            let level = process::initialize(required)?;
            crate::serial::world::enrol();
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(provided, level, "provided") }
        })
    })
}

/// Finalizes MPI.
#[no_mangle]
pub unsafe extern "C" fn MPI_Finalize() -> c_int {
    export("MPI_Finalize", || {
        crate::trace::finalize();
        crate::dropin::before_finalize();
        if let Some(rc) = forward!(MPI_Finalize: fn() -> c_int,) {
            crate::dropin::after_finalize();
            return rc;
        }
        guard("MPI_Finalize", || {
            // MPI-4.1 §11.2.2: finalizing first frees MPI_COMM_SELF's attributes, last set
            // first, running their delete callbacks.
            if process::initialized() && !process::finalized() {
                super::comm::attributes::delete_all(MPI_COMM_SELF)?;
            }
            process::finalize()
        })
    })
}

/// Whether `MPI_Init` has been called.
#[no_mangle]
pub unsafe extern "C" fn MPI_Initialized(flag: *mut c_int) -> c_int {
    export("MPI_Initialized", || {
        if let Some(rc) = forward!(MPI_Initialized: fn(*mut c_int) -> c_int, flag) {
            return rc;
        }
        guard("MPI_Initialized", || {
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(flag, process::initialized() as c_int, "flag") }
        })
    })
}

/// Whether `MPI_Finalize` has been called.
#[no_mangle]
pub unsafe extern "C" fn MPI_Finalized(flag: *mut c_int) -> c_int {
    export("MPI_Finalized", || {
        if let Some(rc) = forward!(MPI_Finalized: fn(*mut c_int) -> c_int, flag) {
            return rc;
        }
        guard("MPI_Finalized", || {
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(flag, process::finalized() as c_int, "flag") }
        })
    })
}

/// The thread level MPI was initialized with.
#[no_mangle]
pub unsafe extern "C" fn MPI_Query_thread(provided: *mut c_int) -> c_int {
    export("MPI_Query_thread", || {
        if let Some(rc) = forward!(MPI_Query_thread: fn(*mut c_int) -> c_int, provided) {
            return rc;
        }
        guard("MPI_Query_thread", || {
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(provided, process::thread_level(), "provided") }
        })
    })
}

/// Whether the calling thread is the one that initialized MPI.
#[no_mangle]
pub unsafe extern "C" fn MPI_Is_thread_main(flag: *mut c_int) -> c_int {
    export("MPI_Is_thread_main", || {
        if let Some(rc) = forward!(MPI_Is_thread_main: fn(*mut c_int) -> c_int, flag) {
            return rc;
        }
        guard("MPI_Is_thread_main", || {
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(flag, process::is_main_thread() as c_int, "flag") }
        })
    })
}

/// The rank of this process in `comm` (0 in the one-process world).
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_rank(comm: MPI_Comm, rank: *mut c_int) -> c_int {
    export("MPI_Comm_rank", || {
        if let Some(rc) = forward!(MPI_Comm_rank: fn(MPI_Comm, *mut c_int) -> c_int, comm, rank) {
            return rc;
        }
        guard("MPI_Comm_rank", || {
            super::check_comm(comm)?;
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(rank, 0, "rank") }
        })
    })
}

/// The number of processes in `comm` (1 in the one-process world).
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_size(comm: MPI_Comm, size: *mut c_int) -> c_int {
    export("MPI_Comm_size", || {
        if let Some(rc) = forward!(MPI_Comm_size: fn(MPI_Comm, *mut c_int) -> c_int, comm, size) {
            return rc;
        }
        guard("MPI_Comm_size", || {
            super::check_comm(comm)?;
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(size, 1, "size") }
        })
    })
}

/// Ends the program with `errorcode`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Abort(comm: MPI_Comm, errorcode: c_int) -> c_int {
    export("MPI_Abort", || {
        if let Some(rc) = forward!(MPI_Abort: fn(MPI_Comm, c_int) -> c_int, comm, errorcode) {
            return rc;
        }
        crate::diagnostic::line(format_args!("MPI_Abort called with error code {errorcode}"));
        std::process::exit(errorcode)
    })
}

/// Attaches an error handler to `comm`. Errors raised by the datatype functions go to the
/// handler of `MPI_COMM_SELF` if the program set one, else to that of `MPI_COMM_WORLD`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_set_errhandler(
    comm: MPI_Comm,
    errhandler: MPI_Errhandler,
) -> c_int {
    export("MPI_Comm_set_errhandler", || {
        if let Some(rc) = forward!(MPI_Comm_set_errhandler: fn(MPI_Comm, MPI_Errhandler) -> c_int, comm, errhandler)
        {
            if rc == MPI_SUCCESS && (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF) {
                error::set_handler(comm, errhandler);
            }
            return rc;
        }
        guard("MPI_Comm_set_errhandler", || {
            let place = super::place_of(comm)?;
            let known = error::attachable(errhandler, |h| matches!(h, error::UserHandler::Comm(_)));
            if !known {
                return Err(MpiError::arg(format!(
                    "{errhandler:#x} is not an error handler"
                )));
            }
            match place {
                Place::World | Place::SelfComm => error::set_handler(comm, errhandler),
                made => {
                    comms::with(made, |c| c.errhandler = errhandler);
                }
            }
            Ok(())
        })
    })
}

/// The error handler attached to `comm`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_get_errhandler(
    comm: MPI_Comm,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    export("MPI_Comm_get_errhandler", || {
        if let Some(rc) = forward!(MPI_Comm_get_errhandler: fn(MPI_Comm, *mut MPI_Errhandler) -> c_int, comm, errhandler)
        {
            return rc;
        }
        guard("MPI_Comm_get_errhandler", || {
            let handler = super::errhandler_of(comm)?;
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(errhandler, handler, "errhandler") }
        })
    })
}

/// Makes an error handler from a C function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_create_errhandler(
    comm_errhandler_fn: MPI_Comm_errhandler_function,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    export("MPI_Comm_create_errhandler", || {
        if let Some(rc) = forward!(MPI_Comm_create_errhandler: fn(MPI_Comm_errhandler_function, *mut MPI_Errhandler) -> c_int,
            comm_errhandler_fn, errhandler)
        {
            return rc;
        }
        guard("MPI_Comm_create_errhandler", || {
            let handler = error::UserHandler::Comm(comm_errhandler_fn);
            // SAFETY: the caller's pointer.
            unsafe { super::make_errhandler(handler, "comm_errhandler_fn", errhandler) }
        })
    })
}

/// Releases an error handler handle and sets it to `MPI_ERRHANDLER_NULL`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Errhandler_free(errhandler: *mut MPI_Errhandler) -> c_int {
    export("MPI_Errhandler_free", || {
        if let Some(rc) =
            forward!(MPI_Errhandler_free: fn(*mut MPI_Errhandler) -> c_int, errhandler)
        {
            return rc;
        }
        guard("MPI_Errhandler_free", || {
            // SAFETY: the caller's in-out argument.
            let handle = unsafe { super::read_in(errhandler.cast_const(), "errhandler")? };
            if !error::attachable(handle, |_| true) {
                return Err(MpiError::arg(format!(
                    "{handle:#x} is not an error handler"
                )));
            }
            // SAFETY: read above, so valid.
            unsafe { write_out(errhandler, MPI_ERRHANDLER_NULL, "errhandler") }
        })
    })
}

/// Adds an error class, numbered after those in use.
#[no_mangle]
pub unsafe extern "C" fn MPI_Add_error_class(errorclass: *mut c_int) -> c_int {
    export("MPI_Add_error_class", || {
        if let Some(rc) = forward!(MPI_Add_error_class: fn(*mut c_int) -> c_int, errorclass) {
            return rc;
        }
        guard("MPI_Add_error_class", || {
            check_out(errorclass, "errorclass")?;
            let class = error::add_error(None)?;
            // SAFETY: checked non-NULL above.
            unsafe { write_out(errorclass, class, "errorclass") }
        })
    })
}

/// Adds an error code of the class `errorclass`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Add_error_code(errorclass: c_int, errorcode: *mut c_int) -> c_int {
    export("MPI_Add_error_code", || {
        if let Some(rc) =
            forward!(MPI_Add_error_code: fn(c_int, *mut c_int) -> c_int, errorclass, errorcode)
        {
            return rc;
        }
        guard("MPI_Add_error_code", || {
            check_out(errorcode, "errorcode")?;
            let code = error::add_error(Some(errorclass))?;
            // SAFETY: checked non-NULL above.
            unsafe { write_out(errorcode, code, "errorcode") }
        })
    })
}

/// Gives an error class or code the program added the text `MPI_Error_string` returns.
#[no_mangle]
pub unsafe extern "C" fn MPI_Add_error_string(errorcode: c_int, string: *const c_char) -> c_int {
    export("MPI_Add_error_string", || {
        if let Some(rc) =
            forward!(MPI_Add_error_string: fn(c_int, *const c_char) -> c_int, errorcode, string)
        {
            return rc;
        }
        guard("MPI_Add_error_string", || {
            check_out(string, "string")?;
            // SAFETY: checked non-NULL; the caller's C string.
            let bytes = unsafe { std::ffi::CStr::from_ptr(string) }.to_bytes();
            if bytes.len() >= MPI_MAX_ERROR_STRING as usize {
                return Err(MpiError::arg(format!(
                    "the string has {} bytes, more than MPI_MAX_ERROR_STRING - 1",
                    bytes.len()
                )));
            }
            error::set_error_string(errorcode, String::from_utf8_lossy(bytes).into_owned())
        })
    })
}

/// The error class of an error code: the class this library's codes carry; codes of another
/// MPI library loaded behind this one go to it.
#[no_mangle]
pub unsafe extern "C" fn MPI_Error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int {
    export("MPI_Error_class", || {
        if error::class_of(errorcode).is_none() {
            if let Some(rc) =
                forward!(MPI_Error_class: fn(c_int, *mut c_int) -> c_int, errorcode, errorclass)
            {
                return rc;
            }
        }
        guard("MPI_Error_class", || {
            let class = error::class_of(errorcode)
                .ok_or_else(|| MpiError::arg(format!("{errorcode} is not an error code")))?;
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(errorclass, class, "errorclass") }
        })
    })
}

/// The text of an error code: the text of its class and, for a code a call returned, the
/// function and the problem.
#[no_mangle]
pub unsafe extern "C" fn MPI_Error_string(
    errorcode: c_int,
    string: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    export("MPI_Error_string", || {
        let Some(full) = error::code_text(errorcode) else {
            if let Some(rc) = forward!(MPI_Error_string: fn(c_int, *mut c_char, *mut c_int) -> c_int, errorcode, string, resultlen)
            {
                return rc;
            }
            return raise(
                "MPI_Error_string",
                MpiError::arg(format!("{errorcode} is not an error code")),
            );
        };
        guard("MPI_Error_string", || {
            // SAFETY: the caller's buffer of MPI_MAX_ERROR_STRING bytes and int; both are
            // checked for NULL.
            unsafe { write_c_string(string, resultlen, &full, MPI_MAX_ERROR_STRING) }
        })
    })
}

/// Seconds since an arbitrary origin.
#[no_mangle]
pub unsafe extern "C" fn MPI_Wtime() -> f64 {
    export_value("MPI_Wtime", 0.0, || {
        if let Some(t) = forward!(MPI_Wtime: fn() -> f64,) {
            return t;
        }
        process::wtime()
    })
}

/// Resolution of `MPI_Wtime` in seconds.
#[no_mangle]
pub unsafe extern "C" fn MPI_Wtick() -> f64 {
    export_value("MPI_Wtick", 0.0, || {
        if let Some(t) = forward!(MPI_Wtick: fn() -> f64,) {
            return t;
        }
        1e-9
    })
}

/// The version of the MPI standard (as MPICH 4.0, whose ABI this library has, reports it).
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_version(version: *mut c_int, subversion: *mut c_int) -> c_int {
    export("MPI_Get_version", || {
        if let Some(rc) =
            forward!(MPI_Get_version: fn(*mut c_int, *mut c_int) -> c_int, version, subversion)
        {
            return rc;
        }
        guard("MPI_Get_version", || {
            check_out(subversion, "subversion")?;
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(version, MPI_VERSION, "version")? };
            // SAFETY: the caller's pointer; write_out checks it for NULL.
            unsafe { write_out(subversion, MPI_SUBVERSION, "subversion") }
        })
    })
}

/// A text naming this library and its version.
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_library_version(
    version: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    export("MPI_Get_library_version", || {
        if let Some(rc) = forward!(MPI_Get_library_version: fn(*mut c_char, *mut c_int) -> c_int, version, resultlen)
        {
            return rc;
        }
        guard("MPI_Get_library_version", || {
            let text = format!(
                "mpi-dtype {}: the MPI datatype chapter with {}",
                env!("CARGO_PKG_VERSION"),
                crate::abi::ABI_NAME
            );
            // SAFETY: the caller's buffer of MPI_MAX_LIBRARY_VERSION_STRING bytes and int; both
            // are checked for NULL.
            unsafe { write_c_string(version, resultlen, &text, MPI_MAX_LIBRARY_VERSION_STRING) }
        })
    })
}

/// The name of the processor (this host's name).
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_processor_name(name: *mut c_char, resultlen: *mut c_int) -> c_int {
    export("MPI_Get_processor_name", || {
        if let Some(rc) = forward!(MPI_Get_processor_name: fn(*mut c_char, *mut c_int) -> c_int,
            name, resultlen)
        {
            return rc;
        }
        guard("MPI_Get_processor_name", || {
            let mut host = [0u8; 256];
            // SAFETY: a buffer of its own length; gethostname NUL-terminates a name that fits.
            let rc = unsafe { libc::gethostname(host.as_mut_ptr().cast(), host.len() - 1) };
            let end = host.iter().position(|&b| b == 0).unwrap_or(0);
            let text = match rc {
                0 => String::from_utf8_lossy(&host[..end]).into_owned(),
                _ => "localhost".to_string(),
            };
            // SAFETY: the caller's buffer of MPI_MAX_PROCESSOR_NAME bytes and an int.
            unsafe { write_c_string(name, resultlen, &text, MPI_MAX_PROCESSOR_NAME) }
        })
    })
}

/// Allocates `size` bytes for the program (memory for RMA and messages); `baseptr` is a
/// `void **` passed as `void *`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Alloc_mem(
    size: MPI_Aint,
    info: MPI_Info,
    baseptr: *mut c_void,
) -> c_int {
    export("MPI_Alloc_mem", || {
        if let Some(rc) = forward!(MPI_Alloc_mem: fn(MPI_Aint, MPI_Info, *mut c_void) -> c_int,
            size, info, baseptr)
        {
            return rc;
        }
        guard("MPI_Alloc_mem", || {
            check_out(baseptr, "baseptr")?;
            let bytes = usize::try_from(size)
                .map_err(|_| MpiError::arg(format!("size {size} is negative")))?;
            // SAFETY: malloc of at least one byte; the program frees it with MPI_Free_mem.
            let memory = unsafe { libc::malloc(bytes.max(1)) };
            if memory.is_null() {
                return Err(MpiError::new(
                    MPI_ERR_NO_MEM,
                    format!("{bytes} bytes could not be allocated"),
                ));
            }
            // SAFETY: checked non-NULL; baseptr points to a `void *`.
            unsafe { write_out(baseptr.cast::<*mut c_void>(), memory, "baseptr") }
        })
    })
}

/// Frees memory `MPI_Alloc_mem` gave.
#[no_mangle]
pub unsafe extern "C" fn MPI_Free_mem(base: *mut c_void) -> c_int {
    export("MPI_Free_mem", || {
        if let Some(rc) = forward!(MPI_Free_mem: fn(*mut c_void) -> c_int, base) {
            return rc;
        }
        // SAFETY: memory MPI_Alloc_mem allocated with malloc (or NULL), as the function
        // requires.
        unsafe { libc::free(base) };
        MPI_SUCCESS
    })
}
