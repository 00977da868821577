//! The data representations of MPI-IO's file views (`datarep` of `MPI_File_set_view`): the
//! three predefined ones and those the program registers (`MPI_Register_datarep`), with its
//! conversion and extent functions, which this module calls.
//!
//! A representation other than the native one is supported where each basic type of the
//! view's and the access's types takes as many bytes in the file as in memory: `external32`
//! for every type but those of `MPI_WCHAR`'s kind on x86-64, and a registered one whose
//! extent function says so. Then the file's layout is the view's as the types describe it, and
//! only the bytes of each entry differ; other sizes are `MPI_ERR_UNSUPPORTED_DATAREP`.

use crate::abi::{
    MPI_Aint, MPI_Count, MPI_Datatype, MPI_Offset, MPI_ERR_ARG, MPI_ERR_CONVERSION, MPI_ERR_COUNT,
    MPI_ERR_DUP_DATAREP, MPI_ERR_UNSUPPORTED_DATAREP, MPI_MAX_DATAREP_STRING, MPI_SUCCESS,
};
use crate::datatype::Datatype;
use crate::error::{MpiError, MpiResult};
use crate::pack::Representation;
use parking_lot::Mutex;
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::Arc;

/// How a file's bytes represent its data.
#[derive(Clone, Debug)]
pub enum Datarep {
    /// `"native"`: the bytes of memory.
    Native,
    /// `"internal"`: this library's own, which is the native one.
    Internal,
    /// `"external32"`: the standard's big-endian representation.
    External32,
    /// One the program registered.
    Registered(Arc<Registered>),
}

/// `MPI_Datarep_conversion_function`: the program's buffer, its datatype, a count of copies,
/// the file's bytes, the position in the buffer in copies, the extra state.
pub type IntConversion = unsafe extern "C" fn(
    *mut c_void,
    MPI_Datatype,
    c_int,
    *mut c_void,
    MPI_Offset,
    *mut c_void,
) -> c_int;
/// `MPI_Datarep_conversion_function_c`: [`IntConversion`] with an `MPI_Count` of copies.
pub type CountConversion = unsafe extern "C" fn(
    *mut c_void,
    MPI_Datatype,
    MPI_Count,
    *mut c_void,
    MPI_Offset,
    *mut c_void,
) -> c_int;
/// `MPI_Datarep_extent_function`: a predefined type, where its extent in the file goes, the
/// extra state.
pub type ExtentFunction = unsafe extern "C" fn(MPI_Datatype, *mut MPI_Aint, *mut c_void) -> c_int;

/// A conversion function of a registered representation, with the width of its count.
#[derive(Clone, Copy, Debug)]
pub enum Conversion {
    /// `MPI_CONVERSION_FN_NULL`: the file holds the bytes of memory.
    None,
    /// From `MPI_Register_datarep`.
    Int(IntConversion),
    /// From `MPI_Register_datarep_c`.
    Count(CountConversion),
}

/// A representation the program registered.
#[derive(Debug)]
pub struct Registered {
    /// Its name.
    pub name: String,
    /// From the file's bytes to memory.
    pub read: Conversion,
    /// From memory to the file's bytes.
    pub write: Conversion,
    /// The extent in the file of a predefined type.
    pub extent: ExtentFunction,
    /// The program's pointer, passed to the functions.
    pub extra_state: usize,
}

/// The representations the program registered; none is ever removed.
static REGISTERED: Mutex<Vec<Arc<Registered>>> = Mutex::new(Vec::new());

/// The names of the predefined representations.
const PREDEFINED: [&str; 3] = ["native", "internal", "external32"];

/// Registers a representation (`MPI_Register_datarep`): `MPI_ERR_DUP_DATAREP` if its name is
/// taken, `MPI_ERR_ARG` if it is empty or too long.
pub fn register(registered: Registered) -> MpiResult<()> {
    let name = &registered.name;
    if name.is_empty() || name.len() >= MPI_MAX_DATAREP_STRING as usize {
        return Err(MpiError::new(
            MPI_ERR_ARG,
            format!(
                "a data representation's name has 1 to {} characters",
                MPI_MAX_DATAREP_STRING - 1
            ),
        ));
    }
    let mut all = REGISTERED.lock();
    if PREDEFINED.contains(&name.as_str()) || all.iter().any(|r| &r.name == name) {
        return Err(MpiError::new(
            MPI_ERR_DUP_DATAREP,
            format!("the data representation {name:?} exists already"),
        ));
    }
    all.push(Arc::new(registered));
    Ok(())
}

impl Datarep {
    /// The representation named `name`; `MPI_ERR_UNSUPPORTED_DATAREP` for no such.
    pub fn named(name: &str) -> MpiResult<Datarep> {
        match name {
            "native" => Ok(Datarep::Native),
            "internal" => Ok(Datarep::Internal),
            "external32" => Ok(Datarep::External32),
            other => REGISTERED
                .lock()
                .iter()
                .find(|r| r.name == other)
                .map(|r| Datarep::Registered(Arc::clone(r)))
                .ok_or_else(|| {
                    MpiError::new(
                        MPI_ERR_UNSUPPORTED_DATAREP,
                        format!("no data representation is named {other:?}"),
                    )
                }),
        }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        match self {
            Datarep::Native => "native",
            Datarep::Internal => "internal",
            Datarep::External32 => "external32",
            Datarep::Registered(r) => &r.name,
        }
    }

    /// How the pack engine writes it where no conversion function of the program's does.
    pub fn representation(&self) -> Representation {
        match self {
            Datarep::External32 => Representation::External32,
            _ => Representation::Native,
        }
    }

    /// The extra state of a registered representation (0 for the others).
    pub fn extra_state(&self) -> usize {
        match self {
            Datarep::Registered(r) => r.extra_state,
            _ => 0,
        }
    }

    /// The program's conversion function for a read (`write == false`) or a write, if any.
    pub fn conversion(&self, write: bool) -> Conversion {
        match self {
            Datarep::Registered(r) if write => r.write,
            Datarep::Registered(r) => r.read,
            _ => Conversion::None,
        }
    }

    /// Checks that `datatype` takes as many bytes in the file as in memory (module
    /// documentation); `MPI_ERR_UNSUPPORTED_DATAREP` if not, and the error of the program's
    /// extent function if it fails. The standard lets a registered representation's
    /// functions run only in data accesses and `MPI_File_get_type_extent`, so
    /// `MPI_File_set_view` checks the view's types with [`Self::check_sizes_now`].
    pub fn check_sizes(&self, datatype: &Datatype, what: &str) -> MpiResult<()> {
        let differs = |of: &str, in_file: i64, in_memory: i64| {
            MpiError::new(
                MPI_ERR_UNSUPPORTED_DATAREP,
                format!(
                    "{of} of the {what} takes {in_file} bytes in {} and {in_memory} in memory; this library supports representations of the same sizes only",
                    self.name()
                ),
            )
        };
        match self {
            Datarep::Native | Datarep::Internal => Ok(()),
            Datarep::External32 => {
                let in_file = Representation::External32.packed_size(datatype, 1)?;
                (in_file == datatype.size())
                    .then_some(())
                    .ok_or_else(|| differs("each copy", in_file, datatype.size()))
            }
            Datarep::Registered(r) => {
                for basic in crate::datatype::signature::basics(datatype) {
                    let in_file = r.extent_of(basic.predefined())?;
                    if in_file != basic.size() {
                        return Err(differs(basic.predefined().name, in_file, basic.size()));
                    }
                }
                Ok(())
            }
        }
    }
}

impl Datarep {
    /// [`Self::check_sizes`] where the program's functions may not run: a registered
    /// representation's types are checked at each access instead.
    pub fn check_sizes_now(&self, datatype: &Datatype, what: &str) -> MpiResult<()> {
        match self {
            Datarep::Registered(_) => Ok(()),
            _ => self.check_sizes(datatype, what),
        }
    }
}

impl Registered {
    /// The extent in the file of the predefined type `p`, from the program's function.
    fn extent_of(&self, p: &crate::datatype::Predefined) -> MpiResult<i64> {
        let handle = crate::abi::predefined_handle(p).ok_or_else(|| {
            MpiError::new(
                MPI_ERR_UNSUPPORTED_DATAREP,
                format!("{} has no handle in this ABI", p.name),
            )
        })?;
        let extent_fn = self.extent;
        let mut extent: MPI_Aint = 0;
        // SAFETY: the program registered this function with this extra state.
        let rc = unsafe {
            extent_fn(
                handle,
                &mut extent,
                std::ptr::with_exposed_provenance_mut(self.extra_state),
            )
        };
        check_callback(rc, "extent function")?;
        Ok(extent as i64)
    }
}

/// The error an extent function's answer `rc` stands for (its class; `MPI_ERR_CONVERSION`
/// for a code of no class).
fn check_callback(rc: c_int, what: &str) -> MpiResult<()> {
    if rc == MPI_SUCCESS {
        return Ok(());
    }
    let class = crate::error::class_of(rc).unwrap_or(MPI_ERR_CONVERSION);
    Err(MpiError::new(
        class,
        format!("the data representation's {what} returned {rc}"),
    ))
}

impl Conversion {
    /// Converts `copies` copies of `datatype` (`items` basic entries each) between the
    /// program's buffer `userbuf` and the file's bytes `filebuf` (`size` bytes a copy) with
    /// the program's function, whose count and position count basic entries (MPI-4.1
    /// §14.5.3). An `int` function is called for whole copies of at most `INT_MAX` entries at a
    /// time, its position advancing; a copy of more entries than that is `MPI_ERR_COUNT`.
    /// Nothing for [`Conversion::None`]. A failure of the function is `MPI_ERR_CONVERSION`.
    ///
    /// # Safety
    /// `userbuf` is the buffer of the access, `filebuf` holds the bytes of `copies` copies,
    /// and `extra_state` is the one registered with the function.
    pub unsafe fn convert(
        self,
        (userbuf, datatype, copies, items): (*mut u8, MPI_Datatype, i64, i64),
        (filebuf, size): (*mut u8, i64),
        extra_state: usize,
    ) -> MpiResult<()> {
        let extra: *mut c_void = std::ptr::with_exposed_provenance_mut(extra_state);
        let user = userbuf.cast::<c_void>();
        let failed = |rc: c_int| {
            MpiError::new(
                MPI_ERR_CONVERSION,
                format!("the data representation's conversion function returned {rc}"),
            )
        };
        let entries = |n: i64| {
            n.checked_mul(items)
                .ok_or_else(|| MpiError::new(MPI_ERR_COUNT, "too many entries"))
        };
        match self {
            Conversion::None => Ok(()),
            Conversion::Count(f) => {
                // SAFETY: the caller's contract.
                let rc = unsafe { f(user, datatype, entries(copies)?, filebuf.cast(), 0, extra) };
                (rc == MPI_SUCCESS).then_some(()).ok_or_else(|| failed(rc))
            }
            Conversion::Int(f) => {
                if items > c_int::MAX as i64 {
                    return Err(MpiError::new(
                        MPI_ERR_COUNT,
                        format!("a copy has {items} entries, more than the int count of the conversion function"),
                    ));
                }
                let per_call = (c_int::MAX as i64 / items.max(1)).max(1);
                let mut done = 0i64;
                while done < copies {
                    let n = (copies - done).min(per_call);
                    // SAFETY: the caller's contract; `done` copies of `size` bytes lie before.
                    let at = unsafe { filebuf.add((done * size) as usize) };
                    let (count, position) = (entries(n)? as c_int, entries(done)?);
                    // SAFETY: as above.
                    let rc = unsafe { f(user, datatype, count, at.cast(), position, extra) };
                    if rc != MPI_SUCCESS {
                        return Err(failed(rc));
                    }
                    done += n;
                }
                Ok(())
            }
        }
    }
}
