//! `MPIX_Type_explain`: a datatype explained as text, JSON, SVG or HTML
//! ([`mpi_dtype_explain`]).

use super::{check_out, guard, write_out};
use crate::abi::*;
use crate::error::MpiError;
use crate::ffi::export;
use mpi_dtype_explain::{explain, Format};
use std::ffi::{c_char, CStr};
use std::os::raw::c_int;

/// The longest prefix of `text` of at most `max` bytes that ends on a character boundary.
fn prefix(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Explains `datatype` in `format` (`"text"`, `"json"`, `"svg"` or `"html"`; see
/// docs/explain.md): writes at most `size` bytes of the explanation into `buf`, NUL included
/// (cut at a UTF-8 character boundary when it does not fit), and the size of the whole
/// explanation, NUL included, into `*needed`. `buf` may be NULL when `size` is 0, to ask for
/// the size first. Errors: an invalid `datatype` is `MPI_ERR_TYPE`, a NULL `format` or `needed`,
/// an unknown format or a NULL `buf` with `size > 0` is `MPI_ERR_ARG`, a negative `size` is
/// `MPI_ERR_COUNT`.
#[no_mangle]
pub unsafe extern "C" fn MPIX_Type_explain(
    datatype: MPI_Datatype,
    format: *const c_char,
    buf: *mut c_char,
    size: MPI_Count,
    needed: *mut MPI_Count,
) -> c_int {
    export("MPIX_Type_explain", || {
        guard("MPIX_Type_explain", || {
            check_out(format, "format")?;
            check_out(needed, "needed")?;
            if size < 0 {
                return Err(MpiError::count(format!(
                    "size must be non-negative, got {size}"
                )));
            }
            if size > 0 {
                check_out(buf, "buf")?;
            }
            // SAFETY: checked non-NULL; the caller passes a NUL-terminated string.
            let name = unsafe { CStr::from_ptr(format) }.to_string_lossy();
            let format = Format::from_name(&name).ok_or_else(|| {
                MpiError::arg(format!(
                    "unknown format \"{name}\" (text, json, svg or html)"
                ))
            })?;
            let dt = super::with_datatype(datatype, std::sync::Arc::clone)?;
            let text = explain(&dt, format);
            if size > 0 {
                let kept = prefix(&text, usize::try_from(size - 1).unwrap_or(usize::MAX));
                // SAFETY: `buf` is not NULL and holds `size` bytes, at least `kept.len() + 1`.
                unsafe {
                    std::ptr::copy_nonoverlapping(kept.as_ptr(), buf.cast::<u8>(), kept.len());
                    buf.add(kept.len()).write(0);
                }
            }
            // SAFETY: checked non-NULL; the caller passes a valid pointer.
            unsafe { write_out(needed, text.len() as MPI_Count + 1, "needed") }
        })
    })
}
