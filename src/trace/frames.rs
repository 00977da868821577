//! Where a type was built: the return addresses on the stack (`backtrace`), symbolised with
//! `dladdr`, frames inside this library skipped, so the first frame is the function that
//! called the MPI constructor (in drop-in mode, HDF5's or ROMIO's function for the types
//! they build). `dladdr` names functions the object exports (a program linked with
//! `-rdynamic`, every shared library); a static function is given as its library and offset.

use std::ffi::{c_void, CStr};

/// How many frames outside this library are kept.
pub const KEPT: usize = 6;
/// How many return addresses are looked at.
const DEPTH: usize = 48;

/// One calling function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// The function's name, if its object exports it.
    pub function: Option<String>,
    /// The path of the object (program or shared library) the code is in.
    pub library: String,
    /// The offset of the return address in the function if it is named, else in the object.
    pub offset: u64,
}

impl Frame {
    /// `function+0x1c (libhdf5.so.310)`, or `libhdf5.so.310+0x1f2a0` for a function without
    /// a name.
    pub fn short(&self) -> String {
        let library = self.library.rsplit('/').next().unwrap_or(&self.library);
        match &self.function {
            Some(f) => format!("{f}+{:#x} ({library})", self.offset),
            None => format!("{library}+{:#x}", self.offset),
        }
    }
}

/// What `dladdr` says of an address.
struct Found {
    /// The base address of the object.
    base: usize,
    /// The object's path.
    library: String,
    /// The exported symbol containing the address, and its start.
    symbol: Option<(String, usize)>,
}

/// `dladdr` of `address`.
fn lookup(address: *const c_void) -> Option<Found> {
    // SAFETY: an all-zero Dl_info (null pointers) is a valid value for dladdr to fill in.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr only reads the address as a number and fills `info`.
    if unsafe { libc::dladdr(address, &mut info) } == 0 {
        return None;
    }
    let text = |p: *const libc::c_char| {
        // SAFETY: dladdr's strings are NUL-terminated and live as long as the object.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    };
    let library = text(info.dli_fname).unwrap_or_default();
    let symbol = text(info.dli_sname).map(|name| (name, info.dli_saddr as usize));
    Some(Found {
        base: info.dli_fbase as usize,
        library,
        symbol,
    })
}

/// The base address of the object this library is in.
fn own_base() -> usize {
    static BASE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BASE.get_or_init(|| lookup(own_base as *const c_void).map_or(0, |found| found.base))
}

/// The calling functions outside this library, innermost first, at most [`KEPT`].
pub fn capture() -> Vec<Frame> {
    let mut addresses = [std::ptr::null_mut::<c_void>(); DEPTH];
    // SAFETY: backtrace writes at most DEPTH pointers into the array.
    let n = unsafe { libc::backtrace(addresses.as_mut_ptr(), DEPTH as libc::c_int) };
    let own = own_base();
    let mut frames = Vec::new();
    for &address in &addresses[..n.max(0) as usize] {
        // A return address may be one past the call's function: look up the call itself.
        let at = (address as usize).saturating_sub(1);
        let Some(Found {
            base,
            library,
            symbol,
        }) = lookup(at as *const c_void)
        else {
            continue;
        };
        if base == own {
            continue;
        }
        let (function, offset) = match symbol {
            Some((name, start)) => (Some(name), (at + 1).wrapping_sub(start) as u64),
            None => (None, (at + 1).wrapping_sub(base) as u64),
        };
        frames.push(Frame {
            function,
            library,
            offset,
        });
        if frames.len() == KEPT {
            break;
        }
    }
    frames
}
