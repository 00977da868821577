//! The buffer of buffered sends: `MPI_Buffer_attach`, `MPI_Buffer_detach` and their `_c`
//! forms. In drop-in mode they are the MPI behind's; in the one-process world the buffer's
//! size bounds the data of buffered sends not yet received
//! ([`crate::serial::world::attach`]).

use super::int_forms::or_int_form;
use super::{guard, missing_behind, standalone};
use crate::abi::{MPI_Count, MPI_ERR_ARG};
use crate::behind::forward;
use crate::error::MpiError;
use crate::ffi::{export, write_out, CountArg};
use std::ffi::c_void;
use std::os::raw::c_int;

/// `MPI_Buffer_attach` or `_c` in the one-process world.
fn attach<C: CountArg>(call: &'static str, buffer: *mut c_void, size: C) -> c_int {
    guard(call, || {
        let size: i64 = size.into();
        if size < 0 || (buffer.is_null() && size > 0) {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                format!("a buffer of {size} bytes at {buffer:?} cannot be attached"),
            ));
        }
        crate::serial::world::attach(buffer.expose_provenance(), size as usize)
    })
}

/// `MPI_Buffer_detach` or `_c` in the one-process world: the address and size attached (NULL
/// and 0 if none was).
///
/// # Safety
/// `buffer_addr` and `size` are writable (a pointer and a count).
unsafe fn detach<C: CountArg>(call: &'static str, buffer_addr: *mut c_void, size: *mut C) -> c_int {
    guard(call, || {
        crate::ffi::check_out(buffer_addr, "buffer_addr")?;
        crate::ffi::check_out(size, "size")?;
        let (address, bytes) = crate::serial::world::detach().unwrap_or((0, 0));
        let bytes = C::from_count(bytes as i64, "size")?;
        // SAFETY: checked non-NULL; the program's outputs.
        unsafe {
            write_out(
                buffer_addr.cast::<*mut c_void>(),
                std::ptr::with_exposed_provenance_mut(address),
                "buffer_addr",
            )?;
            write_out(size, bytes, "size")
        }
    })
}

/// Attaches `size` bytes at `buffer` for the data of buffered sends (`MPI_Bsend`).
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Buffer_attach(buffer: *mut c_void, size: c_int) -> c_int {
    export("MPI_Buffer_attach", || {
        if standalone() {
            return attach("MPI_Buffer_attach", buffer, size);
        }
        forward!(MPI_Buffer_attach: fn(*mut c_void, c_int) -> c_int, buffer, size)
            .unwrap_or_else(|| missing_behind("MPI_Buffer_attach"))
    })
}

/// Large-count variant of `MPI_Buffer_attach`.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Buffer_attach_c(buffer: *mut c_void, size: MPI_Count) -> c_int {
    export("MPI_Buffer_attach_c", || {
        if standalone() {
            return attach("MPI_Buffer_attach_c", buffer, size);
        }
        or_int_form!(forward!(MPI_Buffer_attach_c: fn(*mut c_void, MPI_Count) -> c_int, buffer, size);
            MPI_Buffer_attach_c [MPI_Buffer_attach]; on Process; widths &[]; after Return;
            messages []; (buffer, size))
        .unwrap_or_else(|| missing_behind("MPI_Buffer_attach_c"))
    })
}

/// Detaches the buffer of buffered sends: its address into `*buffer_addr` (a `void **`
/// passed as `void *`) and its size.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Buffer_detach(buffer_addr: *mut c_void, size: *mut c_int) -> c_int {
    export("MPI_Buffer_detach", || {
        if standalone() {
            // SAFETY: the program's outputs.
            return unsafe { detach("MPI_Buffer_detach", buffer_addr, size) };
        }
        forward!(MPI_Buffer_detach: fn(*mut c_void, *mut c_int) -> c_int, buffer_addr, size)
            .unwrap_or_else(|| missing_behind("MPI_Buffer_detach"))
    })
}

/// Large-count variant of `MPI_Buffer_detach`.
///
/// # Safety
/// As for the MPI function.
#[no_mangle]
pub unsafe extern "C" fn MPI_Buffer_detach_c(
    buffer_addr: *mut c_void,
    size: *mut MPI_Count,
) -> c_int {
    export("MPI_Buffer_detach_c", || {
        if standalone() {
            // SAFETY: the program's outputs.
            return unsafe { detach("MPI_Buffer_detach_c", buffer_addr, size) };
        }
        let rc = or_int_form!(forward!(MPI_Buffer_detach_c: fn(*mut c_void, *mut MPI_Count) -> c_int, buffer_addr, size);
            MPI_Buffer_detach_c [MPI_Buffer_detach]; on Process; widths &[]; after Return;
            messages []; (buffer_addr, size));
        rc.unwrap_or_else(|| missing_behind("MPI_Buffer_detach_c"))
    })
}
