//! Views, file pointers and offsets: `MPI_File_set_view` and `_get_view`, the extent of a
//! type in the file, the byte offset of a view position, and the individual and shared file
//! pointers.

use super::{guard_file, with_file};
use crate::abi::*;
use crate::datatype::construct;
use crate::error::{MpiError, MpiResult};
use crate::ffi::comm::{one_process_functions, raised_on};
use crate::ffi::{check_out, with_committed, with_datatype, write_c_string, write_out};
use crate::serial::files::{Datarep, View, Whence};
use std::ffi::{c_char, CStr};
use std::os::raw::c_int;
use std::sync::Arc;

/// `MPI_File_set_view` in the one-process world.
///
/// # Safety
/// A non-NULL `datarep` is a C string.
unsafe fn set_view(
    fh: MPI_File,
    disp: MPI_Offset,
    (etype, filetype): (MPI_Datatype, MPI_Datatype),
    datarep: *const c_char,
    info: MPI_Info,
) -> MpiResult<()> {
    if datarep.is_null() {
        return Err(MpiError::arg("datarep is NULL"));
    }
    // SAFETY: the caller's C string.
    let name = unsafe { CStr::from_ptr(datarep) }.to_string_lossy();
    let datarep = Datarep::named(&name)?;
    let etype = with_committed(etype, Arc::clone)?;
    let filetype = with_committed(filetype, Arc::clone)?;
    let hints = crate::info::hints_of(info)?;
    with_file(fh, |f| {
        let disp = match (disp, f.access.sequential) {
            (MPI_DISPLACEMENT_CURRENT, true) => {
                let here = f
                    .shared
                    .checked_mul(f.view.mapping.etype_size())
                    .ok_or_else(|| MpiError::arg("the shared file pointer is too far"))?;
                f.view.mapping.byte_offset(here)?
            }
            (MPI_DISPLACEMENT_CURRENT, false) => {
                return Err(MpiError::arg(
                    "MPI_DISPLACEMENT_CURRENT is for files opened with MPI_MODE_SEQUENTIAL",
                ))
            }
            (_, true) => {
                return Err(MpiError::arg(
                    "a file opened with MPI_MODE_SEQUENTIAL takes MPI_DISPLACEMENT_CURRENT",
                ))
            }
            (disp, false) => disp,
        };
        f.set_view(View::new(disp, etype, filetype, datarep)?);
        for (key, value) in hints {
            crate::info::set(&mut f.info, key, value);
        }
        Ok(())
    })
}

/// The handle `MPI_File_get_view` gives for a view's type: a predefined type's own, else a
/// new handle of a duplicate, committed, which the program frees.
fn handle_for(datatype: &Arc<crate::datatype::Datatype>) -> MpiResult<MPI_Datatype> {
    if let Some(handle) = crate::handles::existing_handle(datatype) {
        return Ok(handle);
    }
    crate::handles::insert(construct::dup(datatype), true, None)
}

/// `MPI_File_get_view` in the one-process world.
///
/// # Safety
/// As for the MPI function.
unsafe fn get_view(
    fh: MPI_File,
    disp: *mut MPI_Offset,
    (etype, filetype): (*mut MPI_Datatype, *mut MPI_Datatype),
    datarep: *mut c_char,
) -> MpiResult<()> {
    check_out(disp, "disp")?;
    check_out(etype, "etype")?;
    check_out(filetype, "filetype")?;
    check_out(datarep, "datarep")?;
    // The view's parts only: its mapping may list a million runs.
    let (at, types, name) = with_file(fh, |f| {
        let view = &f.view;
        let types = (Arc::clone(&view.etype), Arc::clone(&view.filetype));
        Ok((view.mapping.disp(), types, view.datarep.name().to_string()))
    })?;
    let etype_handle = handle_for(&types.0)?;
    let filetype_handle = handle_for(&types.1)?;
    // SAFETY: the caller's pointers, checked non-NULL above; `datarep` holds
    // MPI_MAX_DATAREP_STRING characters.
    unsafe {
        write_out(disp, at, "disp")?;
        write_out(etype, etype_handle, "etype")?;
        write_out(filetype, filetype_handle, "filetype")?;
        let mut length: c_int = 0;
        write_c_string(datarep, &mut length, &name, MPI_MAX_DATAREP_STRING)?;
    }
    Ok(())
}

/// The extent of `datatype` in the file's representation (`MPI_File_get_type_extent`).
fn type_extent(fh: MPI_File, datatype: MPI_Datatype) -> MpiResult<MPI_Aint> {
    let datarep = with_file(fh, |f| Ok(f.view.datarep.clone()))?;
    with_datatype(datatype, |t| {
        datarep.check_sizes(t, "datatype")?;
        Ok(t.extent() as MPI_Aint)
    })?
}

/// Where `MPI_File_seek` counts from, for `whence`; `MPI_ERR_ARG` for another value.
fn whence_of(whence: c_int) -> MpiResult<Whence> {
    match whence {
        MPI_SEEK_SET => Ok(Whence::Set),
        MPI_SEEK_CUR => Ok(Whence::Current),
        MPI_SEEK_END => Ok(Whence::End),
        other => Err(MpiError::arg(format!(
            "whence {other} is none of MPI_SEEK_SET, MPI_SEEK_CUR and MPI_SEEK_END"
        ))),
    }
}

one_process_functions! {
    /// Sets the file's view: `filetype` tiled from byte `disp`, in units of `etype`, in the
    /// representation `datarep`; both file pointers go to its start.
    fn MPI_File_set_view(fh: MPI_File, disp: MPI_Offset, etype: MPI_Datatype, filetype: MPI_Datatype, datarep: *const c_char, info: MPI_Info) via guard_file(fh) {
        // SAFETY: the caller's C string.
        unsafe { set_view(fh, disp, (etype, filetype), datarep, info) }
    }
    /// The file's view: its displacement, etype, filetype (new handles for derived types)
    /// and representation.
    fn MPI_File_get_view(fh: MPI_File, disp: *mut MPI_Offset, etype: *mut MPI_Datatype, filetype: *mut MPI_Datatype, datarep: *mut c_char) via guard_file(fh) {
        // SAFETY: the caller's pointers.
        unsafe { get_view(fh, disp, (etype, filetype), datarep) }
    }
    /// The extent of `datatype` in the file.
    fn MPI_File_get_type_extent(fh: MPI_File, datatype: MPI_Datatype, extent: *mut MPI_Aint) via guard_file(fh) {
        let value = type_extent(fh, datatype)?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(extent, value, "extent") }
    }
    /// `MPI_File_get_type_extent` with an `MPI_Count` extent.
    fn MPI_File_get_type_extent_c(fh: MPI_File, datatype: MPI_Datatype, extent: *mut MPI_Count) as MPI_File_get_type_extent via guard_file(fh) {
        let value = type_extent(fh, datatype)?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(extent, value as MPI_Count, "extent") }
    }
    /// The absolute byte offset in the file of the view's position `offset` (in etypes).
    fn MPI_File_get_byte_offset(fh: MPI_File, offset: MPI_Offset, disp: *mut MPI_Offset) via guard_file(fh) {
        check_out(disp, "disp")?;
        let at = with_file(fh, |f| {
            f.check_not_sequential("MPI_File_get_byte_offset")?;
            if offset < 0 {
                return Err(MpiError::arg(format!("the offset {offset} is negative")));
            }
            let position = offset
                .checked_mul(f.view.mapping.etype_size())
                .ok_or_else(|| MpiError::arg(format!("the offset {offset} is too large")))?;
            Ok(f.view.mapping.byte_offset(position)?)
        })?;
        // SAFETY: checked non-NULL above.
        unsafe { write_out(disp, at, "disp") }
    }
    /// Moves the individual file pointer.
    fn MPI_File_seek(fh: MPI_File, offset: MPI_Offset, whence: c_int) via guard_file(fh) {
        let whence = whence_of(whence)?;
        with_file(fh, |f| f.seek(offset, whence, false))
    }
    /// The individual file pointer, in etypes.
    fn MPI_File_get_position(fh: MPI_File, offset: *mut MPI_Offset) via guard_file(fh) {
        let at = with_file(fh, |f| {
            f.check_not_sequential("MPI_File_get_position")?;
            Ok(f.individual)
        })?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(offset, at, "offset") }
    }
    /// Moves the shared file pointer.
    fn MPI_File_seek_shared(fh: MPI_File, offset: MPI_Offset, whence: c_int) via guard_file(fh) {
        let whence = whence_of(whence)?;
        with_file(fh, |f| f.seek(offset, whence, true))
    }
    /// The shared file pointer, in etypes.
    fn MPI_File_get_position_shared(fh: MPI_File, offset: *mut MPI_Offset) via guard_file(fh) {
        let at = with_file(fh, |f| Ok(f.shared))?;
        // SAFETY: the caller's pointer; write_out checks it for NULL.
        unsafe { write_out(offset, at, "offset") }
    }
}
