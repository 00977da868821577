//! Datatype names: `MPI_Type_get_name` and `MPI_Type_set_name`.

use super::{check_out, guard, write_c_string};
use crate::abi::*;
use crate::behind;
use crate::ffi::export;
use crate::handles;
use std::ffi::c_char;
use std::os::raw::c_int;

/// The name of the datatype: "MPI_INT" etc. for predefined types, what `MPI_Type_set_name`
/// set, or the empty string.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_name(
    datatype: MPI_Datatype,
    type_name: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    export("MPI_Type_get_name", || {
        behind::foreign_call!(
            MPI_Type_get_name(datatype, type_name, resultlen)
            if crate::dropin::is_foreign(datatype)
        );
        guard("MPI_Type_get_name", || {
            check_out(type_name, "type_name")?;
            check_out(resultlen, "resultlen")?;
            // MPI-4.1 allows MPI_DATATYPE_NULL here and names it.
            let name = match datatype {
                datatype if datatype == MPI_DATATYPE_NULL => "MPI_DATATYPE_NULL".to_string(),
                _ => handles::with_entry(datatype, |e| e.name.clone())?,
            };
            // SAFETY: the caller's buffer of MPI_MAX_OBJECT_NAME bytes and int, checked non-NULL.
            unsafe { write_c_string(type_name, resultlen, &name, MPI_MAX_OBJECT_NAME) }
        })
    })
}

/// Gives the datatype a name (at most `MPI_MAX_OBJECT_NAME - 1` characters are kept).
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_set_name(
    datatype: MPI_Datatype,
    type_name: *const c_char,
) -> c_int {
    export("MPI_Type_set_name", || {
        behind::foreign_call!(
            MPI_Type_set_name(datatype, type_name)
            if crate::dropin::is_foreign(datatype)
        );
        guard("MPI_Type_set_name", || {
            // SAFETY: the caller passes a NUL-terminated string.
            let name = unsafe { super::read_object_name(type_name, "type_name")? };
            handles::with_entry(datatype, |e| e.name = name)
        })
    })
}
