//! What a datatype-only MPI program needs to run with no other MPI present: init and
//! finalize, rank and size of a one-process world, error handlers, error classes and
//! strings, timers and version queries.
//!
//! When a real MPI library of MPICH's ABI (MPICH, Intel MPI, MVAPICH, Cray MPICH) is loaded
//! in the process, each of these functions forwards to that library's function of the same
//! name, so the program's processes, communicators and error handlers stay the real MPI's.
//! The library is found at the first call that needs it, in every way it can be loaded
//! (linked, preloaded after this one, or dlopen'ed `RTLD_LOCAL` as Python does):
//!
//! 1. the library named by the environment variable `MPI_DTYPE_MPI_LIBRARY` (a path or a
//!    file name as `dlopen` takes it; loaded if it is not loaded yet);
//! 2. else the first loaded object, in load order, that defines `MPI_Init` and
//!    `MPIR_Dup_fn` (which every library of MPICH's ABI exports: its `mpi.h` defines
//!    `MPI_DUP_FN` as that function; Open MPI does not)
//!    and is not this library, found with `dl_iterate_phdr` and `dlopen(name, RTLD_NOLOAD)`.
//!
//! A library once found is kept; not finding one is not: the search runs again once more
//! objects have been loaded, unless this library's own `MPI_Init` has run (standalone mode
//! then stays). With `MPI_DTYPE_DEBUG=1` the mode chosen is printed on stderr once.
//! docs/drop-in.md describes the modes.

use super::{check_out, guard, raise, write_c_string, write_out};
use crate::abi::*;
use crate::error::{self, MpiError, MpiResult};
use std::ffi::{c_char, c_void, CStr, CString};
use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// The MPI library this one forwards to.
struct Backend {
    /// Its `dlopen` handle.
    handle: usize,
    /// Its file, as the loader names it.
    path: String,
}

static BACKEND: OnceLock<Backend> = OnceLock::new();
/// The loader's count of objects ever loaded when the last search found nothing.
static SEARCHED_AT: AtomicU64 = AtomicU64::new(u64::MAX);
/// Serializes searches.
static SEARCH: Mutex<()> = Mutex::new(());
static SAID_STANDALONE: AtomicBool = AtomicBool::new(false);

fn debug() -> bool {
    std::env::var_os("MPI_DTYPE_DEBUG").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The loader's count of objects loaded so far, and the names of the objects loaded now (the
/// main program, which has the empty name, left out).
fn loaded_objects(names: bool) -> (u64, Vec<CString>) {
    struct Found {
        adds: u64,
        names: Option<Vec<CString>>,
    }
    unsafe extern "C" fn visit(
        info: *mut libc::dl_phdr_info,
        _size: usize,
        data: *mut c_void,
    ) -> c_int {
        // SAFETY: `data` is the `Found` passed to dl_iterate_phdr below, and `info` the
        // loader's description of one object, valid during this call.
        let (found, info) = unsafe { (&mut *(data as *mut Found), &*info) };
        found.adds = info.dlpi_adds;
        let Some(names) = found.names.as_mut() else {
            return 1;
        };
        if !info.dlpi_name.is_null() {
            // SAFETY: the loader's NUL-terminated name of the object.
            let name = unsafe { CStr::from_ptr(info.dlpi_name) };
            if !name.is_empty() {
                names.push(name.to_owned());
            }
        }
        0
    }
    let mut found = Found {
        adds: 0,
        names: names.then(Vec::new),
    };
    // SAFETY: `visit` only reads the loader's information and writes to `found`, which
    // outlives the call.
    unsafe { libc::dl_iterate_phdr(Some(visit), &mut found as *mut Found as *mut c_void) };
    (found.adds, found.names.unwrap_or_default())
}

/// The base address and file of the loaded object that contains `address`.
fn object_of(address: usize) -> Option<(usize, String)> {
    // SAFETY: Dl_info is plain data, filled by dladdr.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr reads no memory at `address`; it only looks it up.
    if unsafe { libc::dladdr(address as *const c_void, &mut info) } == 0 || info.dli_fname.is_null()
    {
        return None;
    }
    // SAFETY: the loader's NUL-terminated file name.
    let file = unsafe { CStr::from_ptr(info.dli_fname) };
    Some((info.dli_fbase as usize, file.to_string_lossy().into_owned()))
}

/// If the object `handle` (and not what it depends on) is a library of MPICH's ABI other
/// than this one, its handle and file.
fn mpich_abi(handle: *mut c_void) -> Option<Backend> {
    // This library's own object: the one that holds this (unexported) function.
    let own = object_of(backend as *const () as usize)?.0;
    // SAFETY: a handle dlopen returned and NUL-terminated names.
    let init = unsafe { libc::dlsym(handle, c"MPI_Init".as_ptr()) } as usize;
    // SAFETY: as above.
    let dup_fn = unsafe { libc::dlsym(handle, c"MPIR_Dup_fn".as_ptr()) } as usize;
    if init == 0 || dup_fn == 0 {
        return None;
    }
    let (base, path) = object_of(init)?;
    // Both symbols from one object that is not this library (dlsym also searches the
    // object's dependencies, which may include this library).
    if base == own || object_of(dup_fn)?.0 != base {
        return None;
    }
    let c_path = CString::new(path.clone()).ok()?;
    // SAFETY: a NUL-terminated file name; RTLD_NOLOAD only returns a handle to an object
    // already loaded (adding a reference, which keeps it loaded as this library needs).
    let handle = unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD) };
    (!handle.is_null()).then_some(Backend {
        handle: handle as usize,
        path,
    })
}

/// Opens `name` (already loaded, or else loading it) and checks it is of MPICH's ABI.
fn open_named(name: &CStr, load: bool) -> Option<Backend> {
    let how = if load {
        libc::RTLD_LOCAL
    } else {
        libc::RTLD_NOLOAD
    };
    let flags = libc::RTLD_NOW | how;
    // SAFETY: a NUL-terminated file name.
    let handle = unsafe { libc::dlopen(name.as_ptr(), flags) };
    if handle.is_null() {
        return None;
    }
    let found = mpich_abi(handle);
    // SAFETY: drops the reference taken just above (mpich_abi took its own).
    unsafe { libc::dlclose(handle) };
    found
}

/// Looks for the MPI library behind this one.
fn search() -> Option<Backend> {
    if let Some(name) = std::env::var_os("MPI_DTYPE_MPI_LIBRARY").filter(|n| !n.is_empty()) {
        use std::os::unix::ffi::OsStrExt;
        let found = CString::new(name.as_bytes())
            .ok()
            .and_then(|n| open_named(&n, false).or_else(|| open_named(&n, true)));
        if found.is_some() {
            return found;
        }
        if debug() {
            eprintln!(
                "mpi-dtype: MPI_DTYPE_MPI_LIBRARY={} is not a library of MPICH's ABI",
                name.to_string_lossy()
            );
        }
    }
    loaded_objects(true)
        .1
        .iter()
        .find_map(|name| open_named(name, false))
}

/// The MPI library behind this one, if one is loaded: found at the first call, kept once
/// found, searched for again after new objects were loaded.
fn backend() -> Option<&'static Backend> {
    if let Some(found) = BACKEND.get() {
        return Some(found);
    }
    if INITIALIZED.load(Ordering::SeqCst) {
        return None; // this library's MPI_Init ran: standalone for good
    }
    let _one_at_a_time = SEARCH.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = BACKEND.get() {
        return Some(found);
    }
    let (adds, _) = loaded_objects(false);
    if SEARCHED_AT.load(Ordering::SeqCst) == adds {
        return None;
    }
    match search() {
        Some(found) => {
            let found = BACKEND.get_or_init(|| found);
            if debug() {
                eprintln!("mpi-dtype: forwarding to {}", found.path);
            }
            Some(found)
        }
        None => {
            SEARCHED_AT.store(adds, Ordering::SeqCst);
            if debug() && !SAID_STANDALONE.swap(true, Ordering::SeqCst) {
                eprintln!("mpi-dtype: standalone (no MPI library of MPICH's ABI is loaded)");
            }
            None
        }
    }
}

/// The address of the MPI library's function `name` (cached in `cell` once found), or 0
/// when there is no MPI library behind this one.
fn real_function(cell: &AtomicUsize, name: &CStr) -> usize {
    let cached = cell.load(Ordering::Acquire);
    if cached != 0 {
        return cached;
    }
    let Some(found) = backend() else {
        return 0;
    };
    // SAFETY: the library's handle and a NUL-terminated name.
    let address = unsafe { libc::dlsym(found.handle as *mut c_void, name.as_ptr()) } as usize;
    cell.store(address, Ordering::Release);
    address
}

/// Evaluates to `Some(result)` of calling the real MPI's `$name` with `$args`, or `None` when
/// no real MPI is loaded behind this library.
macro_rules! forward {
    ($name:ident : fn($($ty:ty),*) -> $ret:ty, $($arg:expr),*) => {{
        static CELL: AtomicUsize = AtomicUsize::new(0);
        let symbol = CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()).expect("no NUL inside");
        match real_function(&CELL, symbol) {
            0 => None,
            addr => {
                // SAFETY: the real MPI's function of this name has this C signature.
                let f: unsafe extern "C" fn($($ty),*) -> $ret = unsafe { std::mem::transmute(addr) };
                // SAFETY: the arguments are the caller's, passed on unchanged to the function
                // of the same name and contract.
                Some(unsafe { f($($arg),*) })
            }
        }
    }};
}

static INITIALIZED: AtomicBool = AtomicBool::new(false);
static FINALIZED: AtomicBool = AtomicBool::new(false);
static THREAD_LEVEL: AtomicI32 = AtomicI32::new(MPI_THREAD_SINGLE);
static MAIN_THREAD: OnceLock<std::thread::ThreadId> = OnceLock::new();
static CLOCK_ORIGIN: OnceLock<Instant> = OnceLock::new();

/// Calls the program's error handler `handle` for the error `code` (raised on
/// `MPI_COMM_WORLD`); does nothing for a handler this library does not know.
pub fn call_user_errhandler(handle: MPI_Errhandler, code: c_int) {
    if let Some(Some(f)) = error::user_handler(handle) {
        let (mut comm, mut code) = (MPI_COMM_WORLD, code);
        // SAFETY: the program registered this function as an error handler.
        unsafe { f(&mut comm, &mut code) };
    }
}

/// Ends the program after a fatal error: through the real MPI's `MPI_Abort` when there is
/// one, else by exiting with `code`.
pub fn abort_program(code: c_int) -> ! {
    forward!(MPI_Abort: fn(MPI_Comm, c_int) -> c_int, MPI_COMM_WORLD, code);
    std::process::exit(code)
}

fn check_world_or_self(comm: MPI_Comm) -> MpiResult<()> {
    if comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF {
        Ok(())
    } else {
        Err(MpiError::new(
            MPI_ERR_COMM,
            format!("{comm:#x} is not MPI_COMM_WORLD or MPI_COMM_SELF"),
        ))
    }
}

fn initialize(required: c_int) -> MpiResult<c_int> {
    if INITIALIZED.swap(true, Ordering::SeqCst) {
        return Err(MpiError::new(MPI_ERR_OTHER, "MPI was already initialized"));
    }
    let provided = required.clamp(MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE);
    THREAD_LEVEL.store(provided, Ordering::SeqCst);
    MAIN_THREAD.get_or_init(|| std::thread::current().id());
    CLOCK_ORIGIN.get_or_init(Instant::now);
    Ok(provided)
}

/// Initializes MPI (a one-process world when no other MPI is loaded).
#[no_mangle]
pub unsafe extern "C" fn MPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int {
    if let Some(rc) = forward!(MPI_Init: fn(*mut c_int, *mut *mut *mut c_char) -> c_int, argc, argv)
    {
        return rc;
    }
    guard("MPI_Init", || initialize(MPI_THREAD_SINGLE).map(|_| ()))
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
    if let Some(rc) = forward!(MPI_Init_thread: fn(*mut c_int, *mut *mut *mut c_char, c_int, *mut c_int) -> c_int,
        argc, argv, required, provided)
    {
        return rc;
    }
    guard("MPI_Init_thread", || {
        check_out(provided, "provided")?;
        let level = initialize(required)?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(provided, level, "provided") }
    })
}

/// Finalizes MPI.
#[no_mangle]
pub unsafe extern "C" fn MPI_Finalize() -> c_int {
    if let Some(rc) = forward!(MPI_Finalize: fn() -> c_int,) {
        return rc;
    }
    guard("MPI_Finalize", || {
        if !INITIALIZED.load(Ordering::SeqCst) || FINALIZED.swap(true, Ordering::SeqCst) {
            return Err(MpiError::new(
                MPI_ERR_OTHER,
                "MPI is not initialized, or already finalized",
            ));
        }
        Ok(())
    })
}

/// Whether `MPI_Init` has been called.
#[no_mangle]
pub unsafe extern "C" fn MPI_Initialized(flag: *mut c_int) -> c_int {
    if let Some(rc) = forward!(MPI_Initialized: fn(*mut c_int) -> c_int, flag) {
        return rc;
    }
    guard("MPI_Initialized", || {
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(flag, INITIALIZED.load(Ordering::SeqCst) as c_int, "flag") }
    })
}

/// Whether `MPI_Finalize` has been called.
#[no_mangle]
pub unsafe extern "C" fn MPI_Finalized(flag: *mut c_int) -> c_int {
    if let Some(rc) = forward!(MPI_Finalized: fn(*mut c_int) -> c_int, flag) {
        return rc;
    }
    guard("MPI_Finalized", || {
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(flag, FINALIZED.load(Ordering::SeqCst) as c_int, "flag") }
    })
}

/// The thread level MPI was initialized with.
#[no_mangle]
pub unsafe extern "C" fn MPI_Query_thread(provided: *mut c_int) -> c_int {
    if let Some(rc) = forward!(MPI_Query_thread: fn(*mut c_int) -> c_int, provided) {
        return rc;
    }
    guard("MPI_Query_thread", || {
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(provided, THREAD_LEVEL.load(Ordering::SeqCst), "provided") }
    })
}

/// Whether the calling thread is the one that initialized MPI.
#[no_mangle]
pub unsafe extern "C" fn MPI_Is_thread_main(flag: *mut c_int) -> c_int {
    if let Some(rc) = forward!(MPI_Is_thread_main: fn(*mut c_int) -> c_int, flag) {
        return rc;
    }
    guard("MPI_Is_thread_main", || {
        let main = MAIN_THREAD
            .get()
            .is_none_or(|&id| id == std::thread::current().id());
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(flag, main as c_int, "flag") }
    })
}

/// The rank of this process in `comm` (0 in the one-process world).
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_rank(comm: MPI_Comm, rank: *mut c_int) -> c_int {
    if let Some(rc) = forward!(MPI_Comm_rank: fn(MPI_Comm, *mut c_int) -> c_int, comm, rank) {
        return rc;
    }
    guard("MPI_Comm_rank", || {
        check_world_or_self(comm)?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(rank, 0, "rank") }
    })
}

/// The number of processes in `comm` (1 in the one-process world).
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_size(comm: MPI_Comm, size: *mut c_int) -> c_int {
    if let Some(rc) = forward!(MPI_Comm_size: fn(MPI_Comm, *mut c_int) -> c_int, comm, size) {
        return rc;
    }
    guard("MPI_Comm_size", || {
        check_world_or_self(comm)?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(size, 1, "size") }
    })
}

/// Ends the program with `errorcode`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Abort(comm: MPI_Comm, errorcode: c_int) -> c_int {
    if let Some(rc) = forward!(MPI_Abort: fn(MPI_Comm, c_int) -> c_int, comm, errorcode) {
        return rc;
    }
    eprintln!("MPI_Abort called with error code {errorcode}");
    std::process::exit(errorcode)
}

/// Attaches an error handler to `comm`. Errors raised by the datatype functions go to the
/// handler of `MPI_COMM_SELF` if the program set one, else to that of `MPI_COMM_WORLD`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_set_errhandler(
    comm: MPI_Comm,
    errhandler: MPI_Errhandler,
) -> c_int {
    if let Some(rc) =
        forward!(MPI_Comm_set_errhandler: fn(MPI_Comm, MPI_Errhandler) -> c_int, comm, errhandler)
    {
        if rc == MPI_SUCCESS && (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF) {
            error::set_handler(comm, errhandler);
        }
        return rc;
    }
    guard("MPI_Comm_set_errhandler", || {
        check_world_or_self(comm)?;
        let known = matches!(
            errhandler,
            MPI_ERRORS_ARE_FATAL | MPI_ERRORS_RETURN | MPI_ERRORS_ABORT
        ) || error::user_handler(errhandler).is_some();
        if !known {
            return Err(MpiError::arg(format!(
                "{errhandler:#x} is not an error handler"
            )));
        }
        error::set_handler(comm, errhandler);
        Ok(())
    })
}

/// The error handler attached to `comm`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_get_errhandler(
    comm: MPI_Comm,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    if let Some(rc) = forward!(MPI_Comm_get_errhandler: fn(MPI_Comm, *mut MPI_Errhandler) -> c_int, comm, errhandler)
    {
        return rc;
    }
    guard("MPI_Comm_get_errhandler", || {
        check_world_or_self(comm)?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(errhandler, error::handler_of(comm), "errhandler") }
    })
}

/// Makes an error handler from a C function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_create_errhandler(
    comm_errhandler_fn: MPI_Comm_errhandler_function,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    if let Some(rc) = forward!(MPI_Comm_create_errhandler: fn(MPI_Comm_errhandler_function, *mut MPI_Errhandler) -> c_int,
        comm_errhandler_fn, errhandler)
    {
        return rc;
    }
    guard("MPI_Comm_create_errhandler", || {
        check_out(errhandler, "errhandler")?;
        if comm_errhandler_fn.is_none() {
            return Err(MpiError::arg("comm_errhandler_fn is NULL"));
        }
        let handle = error::add_user_handler(comm_errhandler_fn)?;
        // SAFETY: the caller's pointer, checked non-NULL above.
        unsafe { write_out(errhandler, handle, "errhandler") }
    })
}

/// Releases an error handler handle and sets it to `MPI_ERRHANDLER_NULL`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Errhandler_free(errhandler: *mut MPI_Errhandler) -> c_int {
    if let Some(rc) = forward!(MPI_Errhandler_free: fn(*mut MPI_Errhandler) -> c_int, errhandler) {
        return rc;
    }
    guard("MPI_Errhandler_free", || {
        check_out(errhandler, "errhandler")?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(errhandler, MPI_ERRHANDLER_NULL, "errhandler") }
    })
}

/// The error class of an error code: the class this library's codes carry; codes of another
/// MPI library loaded behind this one go to it.
#[no_mangle]
pub unsafe extern "C" fn MPI_Error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int {
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
}

/// The text of an error code: the text of its class and, for a code a call returned, the
/// function and the problem.
#[no_mangle]
pub unsafe extern "C" fn MPI_Error_string(
    errorcode: c_int,
    string: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
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
}

/// Seconds since an arbitrary origin.
#[no_mangle]
pub unsafe extern "C" fn MPI_Wtime() -> f64 {
    if let Some(t) = forward!(MPI_Wtime: fn() -> f64,) {
        return t;
    }
    CLOCK_ORIGIN
        .get_or_init(Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// Resolution of `MPI_Wtime` in seconds.
#[no_mangle]
pub unsafe extern "C" fn MPI_Wtick() -> f64 {
    if let Some(t) = forward!(MPI_Wtick: fn() -> f64,) {
        return t;
    }
    1e-9
}

/// The version of the MPI standard (as MPICH 4.0, whose ABI this library has, reports it).
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_version(version: *mut c_int, subversion: *mut c_int) -> c_int {
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
}

/// A text naming this library and its version.
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_library_version(
    version: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    if let Some(rc) =
        forward!(MPI_Get_library_version: fn(*mut c_char, *mut c_int) -> c_int, version, resultlen)
    {
        return rc;
    }
    guard("MPI_Get_library_version", || {
        let text = concat!(
            "mpi-dtype ",
            env!("CARGO_PKG_VERSION"),
            ": the MPI datatype chapter with MPICH's ABI"
        );
        // SAFETY: the caller's buffer of MPI_MAX_LIBRARY_VERSION_STRING bytes and int; both
        // are checked for NULL.
        unsafe { write_c_string(version, resultlen, text, MPI_MAX_LIBRARY_VERSION_STRING) }
    })
}
