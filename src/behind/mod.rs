//! The MPI library behind this one: finding it, and calling its functions.
//!
//! When a real MPI library of the ABI this library is built for is loaded in the process
//! (MPICH's: MPICH, Intel MPI, MVAPICH, Cray MPICH; the standard ABI: MPICH 5's and Intel
//! MPI's `libmpi_abi.so.1`), mpi-dtype forwards to it what it does not own itself: the process
//! functions, and every datatype call on handles and keyvals that library made (see
//! [`crate::dropin::twin`] for the datatypes mpi-dtype makes). The library is found at the first call
//! that needs it, in every way it can be loaded (linked, preloaded after this one, or
//! dlopen'ed `RTLD_LOCAL` as Python does):
//!
//! 1. the library named by the environment variable `MPI_DTYPE_MPI_LIBRARY` (a path or a
//!    file name as `dlopen` takes it; loaded if it is not loaded yet);
//! 2. else the first loaded object, in load order, that defines `MPI_Init` and the symbol
//!    that tells the ABI ([`crate::abi::BEHIND_MARK`]: `MPIR_Dup_fn` for MPICH's,
//!    `MPI_Abi_get_version` answering 1.0 or more for the standard's) and is not this
//!    library, found with `dl_iterate_phdr` and `dlopen(name, RTLD_NOLOAD)`.
//!
//! A library once found is kept; not finding one is not: the search runs again once more
//! objects have been loaded, unless this library's own `MPI_Init` has run (standalone mode
//! then stays). With `MPI_DTYPE_DEBUG=1` the mode chosen is printed on stderr once.
//! docs/drop-in.md describes the modes.

pub mod datatypes;

use std::ffi::{c_void, CStr, CString};
use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The MPI library this one forwards to.
pub struct Backend {
    /// Its `dlopen` handle.
    pub handle: usize,
    /// Its file, as the loader names it.
    pub path: String,
}

static BACKEND: OnceLock<Backend> = OnceLock::new();
/// The loader's count of objects ever loaded when the last search found nothing.
static SEARCHED_AT: AtomicU64 = AtomicU64::new(u64::MAX);
/// Serializes searches.
static SEARCH: Mutex<()> = Mutex::new(());
static SAID_STANDALONE: AtomicBool = AtomicBool::new(false);

/// Whether `MPI_DTYPE_DEBUG` asks for diagnostics on stderr (set, not empty, not `0`); read
/// once.
pub fn debug() -> bool {
    static DEBUG: OnceLock<bool> = OnceLock::new();
    *DEBUG.get_or_init(|| {
        std::env::var_os("MPI_DTYPE_DEBUG").is_some_and(|v| !v.is_empty() && v != "0")
    })
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

/// If the object `handle` (and not what it depends on) is an MPI library of this library's ABI
/// other than this one, its handle and file.
fn of_this_abi(handle: *mut c_void) -> Option<Backend> {
    // This library's own object: the one that holds this (unexported) function.
    let own = object_of(backend as *const () as usize)?.0;
    // SAFETY: a handle dlopen returned and NUL-terminated names.
    let init = unsafe { libc::dlsym(handle, c"MPI_Init".as_ptr()) } as usize;
    // SAFETY: as above.
    let mark = unsafe { libc::dlsym(handle, crate::abi::BEHIND_MARK.as_ptr()) } as usize;
    if init == 0 || mark == 0 {
        return None;
    }
    let (base, path) = object_of(init)?;
    // Both symbols from one object that is not this library (dlsym also searches the
    // object's dependencies, which may include this library).
    if base == own || object_of(mark)?.0 != base || !crate::abi::behind_speaks_this_abi(mark) {
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

/// Opens `name` (already loaded, or else loading it) and checks it is of this library's ABI.
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
    let found = of_this_abi(handle);
    // SAFETY: drops the reference taken just above (of_this_abi took its own).
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
            crate::diagnostic::line(format_args!(
                "mpi-dtype: MPI_DTYPE_MPI_LIBRARY={} is not a library of {}",
                name.to_string_lossy(),
                crate::abi::ABI_NAME
            ));
        }
    }
    loaded_objects(true)
        .1
        .iter()
        .find_map(|name| open_named(name, false))
}

/// Set once this library's own `MPI_Init` ran: there is no MPI behind, for good.
static STANDALONE: AtomicBool = AtomicBool::new(false);

/// Says that this library's own `MPI_Init` ran (standalone mode): no MPI library is searched
/// for from now on.
pub fn stay_standalone() {
    STANDALONE.store(true, Ordering::SeqCst);
}

/// The MPI library behind this one, if one is loaded: found at the first call, kept once
/// found, searched for again after new objects were loaded.
#[inline]
pub fn backend() -> Option<&'static Backend> {
    match BACKEND.get() {
        Some(found) => Some(found),
        None if STANDALONE.load(Ordering::SeqCst) => None, // this library's MPI_Init ran
        None => search_backend(),
    }
}

/// [`backend`] before one was found.
#[inline(never)]
fn search_backend() -> Option<&'static Backend> {
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
            // Before any call reaches that library (its MPI_Init is the caller's next step).
            crate::abi::adopt_objects(found.handle);
            if debug() {
                crate::diagnostic::line(format_args!("mpi-dtype: forwarding to {}", found.path));
            }
            Some(found)
        }
        None => {
            SEARCHED_AT.store(adds, Ordering::SeqCst);
            if debug() && !SAID_STANDALONE.swap(true, Ordering::SeqCst) {
                crate::diagnostic::line(format_args!(
                    "mpi-dtype: standalone (no MPI library of {} is loaded)",
                    crate::abi::ABI_NAME
                ));
            }
            None
        }
    }
}

/// The address of the MPI library's function `name` (cached in `cell` once found), or 0
/// when there is no MPI library behind this one.
pub fn real_function(cell: &AtomicUsize, name: &CStr) -> usize {
    match cell.load(Ordering::Acquire) {
        0 => {}
        MISSING => return 0,
        cached => return cached,
    }
    let Some(found) = backend() else {
        return 0;
    };
    let lookup = |name: &CStr| {
        // SAFETY: the library's handle and a NUL-terminated name.
        unsafe { libc::dlsym(found.handle as *mut c_void, name.as_ptr()) as usize }
    };
    let address = match lookup(name) {
        0 => extension_name(name).map_or(0, |older| lookup(&older)),
        address => address,
    };
    cell.store(
        if address == 0 { MISSING } else { address },
        Ordering::Release,
    );
    address
}

/// The name under which an MPI older than MPI 4.0 offers the persistent collective `name`
/// (`MPI_Bcast_init`, `PMPI_Alltoallw_init`, ...) as an extension of the same signature:
/// `MPIX_Bcast_init`, `PMPIX_Alltoallw_init` (Open MPI 4.1's `pcollreq`, declared in its
/// `mpi-ext.h`). `None` for any other name. Only tried when `name` itself is missing, so a
/// library with both keeps its standard one; a point-to-point `_init` is in every MPI, and a
/// missing one has no such second name either.
fn extension_name(name: &CStr) -> Option<std::ffi::CString> {
    let text = name.to_str().ok()?;
    if !text.ends_with("_init") {
        return None;
    }
    let (profiling, rest) = match text.strip_prefix('P') {
        Some(rest) => ("P", rest),
        None => ("", text),
    };
    let function = rest.strip_prefix("MPI_")?;
    std::ffi::CString::new(format!("{profiling}MPIX_{function}")).ok()
}

/// What [`real_function`]'s cell holds for a function the MPI library behind lacks (an
/// address no function has), so that it is looked for once.
const MISSING: usize = 1;

thread_local! {
    /// How many calls of the MPI behind this thread is inside ([`Inside`]).
    static INSIDE: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// This thread's stay inside a call of the MPI behind, from [`Inside::enter`] until dropped.
/// A call that reaches this library from there comes from that library (ROMIO's datatype
/// calls, a program's callback it runs): [`inside`] tells. It keeps the address of the
/// thread's depth, so that leaving costs no second lookup of the thread-local variable; it is
/// not `Send` (a raw pointer), so it is dropped by the thread that entered.
pub struct Inside(*const std::cell::Cell<u32>);

impl Inside {
    /// Marks this thread inside a call of the MPI behind until the value is dropped.
    #[inline(always)]
    pub fn enter() -> Inside {
        Inside(INSIDE.with(|depth| {
            depth.set(depth.get() + 1);
            depth as *const std::cell::Cell<u32>
        }))
    }
}

impl Drop for Inside {
    #[inline(always)]
    fn drop(&mut self) {
        // SAFETY: the depth of this thread (`Inside` is not `Send`), a thread-local variable
        // without a destructor, which lives until the thread ends.
        let depth = unsafe { &*self.0 };
        depth.set(depth.get() - 1);
    }
}

/// True while this thread is inside a call this library made of the MPI behind: the call
/// being answered comes from that library (or from a callback of the program it runs), not
/// from the program directly.
#[inline]
pub fn inside() -> bool {
    INSIDE.with(|depth| depth.get() > 0)
}

/// The `&'static CStr` of the function name `$name` (a string literal without its NUL, as
/// `concat!` or `stringify!` make it), checked at compile time.
macro_rules! symbol {
    ($name:expr) => {
        const {
            match std::ffi::CStr::from_bytes_with_nul(concat!($name, "\0").as_bytes()) {
                Ok(symbol) => symbol,
                Err(_) => panic!("a function name has no NUL inside"),
            }
        }
    };
}
pub(crate) use symbol;

/// Evaluates to `Some(result)` of calling the real MPI's `$name` with `$args` (a datatype
/// handle of this library's own form made one of that library: [`datatypes`]), or `None`
/// when no real MPI is loaded behind this library.
/// `forward!(P $name: ...)` calls the MPI behind's profiling name `P$name`.
macro_rules! forward {
    (P $name:ident : fn($($ty:ty),*) -> $ret:ty, $($arg:expr),*) => {
        $crate::behind::forward!(@symbol $crate::behind::symbol!(concat!("P", stringify!($name))); fn($($ty),*) -> $ret, $($arg),*)
    };
    ($name:ident : fn($($ty:ty),*) -> $ret:ty, $($arg:expr),*) => {
        $crate::behind::forward!(@symbol $crate::behind::symbol!(stringify!($name)); fn($($ty),*) -> $ret, $($arg),*)
    };
    (@symbol $symbol:expr; fn($($ty:ty),*) -> $ret:ty, $($arg:expr),*) => {{
        static CELL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        match $crate::behind::real_function(&CELL, $symbol) {
            0 => None,
            addr => {
                // SAFETY: the real MPI's function of this name has this C signature.
                let f: unsafe extern "C" fn($($ty),*) -> $ret = unsafe { std::mem::transmute(addr) };
                let _inside = $crate::behind::Inside::enter();
                // SAFETY: the arguments are the caller's, passed on to the function of the
                // same name and contract, a datatype as that library knows it.
                Some(unsafe { f($($crate::behind::datatypes::for_behind!({ let typed: $ty = $arg; typed })),*) })
            }
        }
    }};
}
pub(crate) use forward;

/// Returns from the enclosing exported function `$name` the answer of the MPI behind's
/// `P$name` called with the same arguments (a datatype of this library's own form made one
/// of that library: [`datatypes`]), when `$foreign` holds: a datatype handle among
/// them is one that library made itself ([`crate::dropin::is_foreign`]). The arguments are
/// named, not typed: the call takes the exported function's own C signature, so the two can
/// never differ. An optional `; then f` maps the answer with `f` first.
macro_rules! foreign_call {
    ($name:ident ( $($arg:ident),* $(,)? ) if $foreign:expr) => {
        $crate::behind::foreign_call!($name($($arg),*) if $foreign; then |rc| rc)
    };
    // `then` maps the answer before it is returned.
    ($name:ident ( $($arg:ident),* $(,)? ) if $foreign:expr; then $after:expr) => {
        if $foreign {
            static CELL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let symbol = $crate::behind::symbol!(concat!("P", stringify!($name)));
            let own = $name as unsafe extern "C" fn($($crate::behind::any_type!($arg)),*) -> _;
            if let Some(real) = $crate::behind::real_like(own, &CELL, symbol) {
                let _inside = $crate::behind::Inside::enter();
                // SAFETY: the arguments are the caller's, passed on to the function of the
                // same signature and contract, a datatype as that library knows it.
                return $after(unsafe { real($($crate::behind::datatypes::for_behind!($arg)),*) });
            }
        }
    };
}
pub(crate) use foreign_call;

/// The type `_` whatever `$x` is: a parameter of a function pointer type to be inferred.
macro_rules! any_type {
    ($x:expr) => {
        _
    };
}
pub(crate) use any_type;

/// The MPI behind's function `symbol` (cached in `cell`) as a pointer of the same type as
/// `own`, an exported function of the same C signature (the one it stands behind, or the
/// `int` form of a `_c` one), or `None` when there is none.
pub fn real_like<F: Copy>(_own: F, cell: &AtomicUsize, symbol: &CStr) -> Option<F> {
    const { assert!(std::mem::size_of::<F>() == std::mem::size_of::<usize>()) };
    match real_function(cell, symbol) {
        0 => None,
        // SAFETY: `F` is a function pointer type, of the size of an address, and the MPI
        // behind's `symbol` is the function of that C signature `own` stands in front of
        // (its profiling name, or the `int` form of a `_c` function).
        address => Some(unsafe { std::mem::transmute_copy::<usize, F>(&address) }),
    }
}

/// The handle behind an in-out handle argument (`MPI_DATATYPE_NULL` for a NULL pointer), to
/// tell whether it is foreign.
///
/// # Safety
/// A non-NULL `handle` must be valid for a read.
pub unsafe fn read_handle(handle: *const crate::abi::MPI_Datatype) -> crate::abi::MPI_Datatype {
    if handle.is_null() {
        return crate::abi::MPI_DATATYPE_NULL;
    }
    // SAFETY: not NULL, and valid for a read by the caller's contract.
    unsafe { handle.read() }
}

#[cfg(test)]
mod tests {
    use super::extension_name;

    #[test]
    fn a_persistent_collective_has_its_extension_name_and_nothing_else_has_one() {
        let name = |text: &std::ffi::CStr| extension_name(text).map(|n| n.into_string().unwrap());
        assert_eq!(name(c"MPI_Bcast_init").as_deref(), Some("MPIX_Bcast_init"));
        assert_eq!(
            name(c"PMPI_Alltoallw_init").as_deref(),
            Some("PMPIX_Alltoallw_init")
        );
        assert_eq!(name(c"MPI_Bcast"), None);
        assert_eq!(name(c"MPI_Bcast_init_c"), None);
        assert_eq!(name(c"MPI_T_init_thread"), None);
        assert_eq!(name(c"MPIX_Bcast_init"), None);
    }
}
