//! The Fortran numbers of file handles (`MPI_File_c2f`, `MPI_File_f2c`), in MPICH's ABI,
//! where a file handle is a pointer (the standard ABI has no Fortran numbers).
#![cfg(abi = "mpich")]

use crate::abi::{own_file, own_file_index, MPI_File, MPI_Fint, MPI_FILE_NULL};
use crate::ffi::export_value;
use crate::serial::files;

/// `MPI_File_c2f` (MPICH's ABI; the standard ABI has no Fortran numbers): the Fortran number of a file handle (its index plus one; 0 for
/// `MPI_FILE_NULL` and for a handle that names no open file).
///
/// # Safety
/// None: the handle is only compared.
#[cfg(abi = "mpich")]
#[no_mangle]
pub unsafe extern "C" fn MPI_File_c2f(file: MPI_File) -> MPI_Fint {
    export_value("MPI_File_c2f", 0, || {
        if crate::behind::backend().is_some() {
            let forwarded = crate::behind::forward!(MPI_File_c2f: fn(MPI_File) -> MPI_Fint, file);
            return forwarded.unwrap_or(0);
        }
        own_file_index(file)
            .filter(|&index| files::with(index, |_| ()).is_some())
            .and_then(|index| MPI_Fint::try_from(index + 1).ok())
            .unwrap_or(0)
    })
}

/// `MPI_File_f2c` (MPICH's ABI): the file handle of a Fortran number `MPI_File_c2f` gave
/// (`MPI_FILE_NULL` for 0 and any number that names no open file).
///
/// # Safety
/// None.
#[cfg(abi = "mpich")]
#[no_mangle]
pub unsafe extern "C" fn MPI_File_f2c(file: MPI_Fint) -> MPI_File {
    export_value("MPI_File_f2c", MPI_FILE_NULL, || {
        if crate::behind::backend().is_some() {
            let forwarded = crate::behind::forward!(MPI_File_f2c: fn(MPI_Fint) -> MPI_File, file);
            return forwarded.unwrap_or(MPI_FILE_NULL);
        }
        usize::try_from(file)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .filter(|&index| files::with(index, |_| ()).is_some())
            .and_then(own_file)
            .unwrap_or(MPI_FILE_NULL)
    })
}
