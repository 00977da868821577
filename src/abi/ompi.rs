//! Open MPI's application binary interface (4.1 and 5.0, `libmpi.so.40`) as the library sees
//! it: handle types, integer types, the status object, the callback types, the predefined
//! objects and the handle codec.
//!
//! # Handles
//!
//! In C every handle type is a pointer to one of Open MPI's structs (`typedef struct
//! ompi_datatype_t *MPI_Datatype;`), and every predefined handle is the address of a global
//! object: `#define MPI_DOUBLE ((MPI_Datatype) &ompi_mpi_double)`.
//!
//! This library defines and exports each of those objects under Open MPI's name and at Open
//! MPI's size (512 bytes for a datatype, 2048 for an operation, ...), so that a program
//! compiled with Open MPI's `mpi.h` links with it alone. A handle is then an address that is
//! known only once the program is loaded: the compiler gives a program that names
//! `ompi_mpi_double` a copy of the object in the program itself (a copy relocation), and the
//! dynamic linker points every reference, this library's included, at that copy. So the
//! predefined handles here are not `const`s but statics read from cells that the dynamic
//! linker fills with the object's final address (`.quad ompi_mpi_double`, written in
//! assembly so that the reference goes through the symbol and follows the copy); in Rust
//! they read like constants (`MPI_DOUBLE`), compare with `==`, and cannot be `match`
//! patterns.
//!
//! Handle types are `#[repr(transparent)]` newtypes over `usize`, passed and stored exactly as
//! C's pointer to the struct Open MPI names ([`address_handle_types!`](super::address_handles)).
//! The library never dereferences one. This library's own handles are tagged addresses no
//! library hands out ([`super::address_handles`]).
//!
//! # Status
//!
//! `MPI_Status` is 24 bytes: the three public fields, `_cancelled`, and the byte count
//! `_ucount` as a `size_t`. `MPI_STATUS_IGNORE` and `MPI_STATUSES_IGNORE` are the null pointer.
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]

use super::address_handles::{has_own_tag, own_from_int, own_to_int, AddressHandle};
pub use super::address_handles::{own_handle, own_parts, GENERATIONS, SLOT_BITS};
pub use constants::*;
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::LazyLock;

address_handle_types! {
    /// Handle of a datatype (`struct ompi_datatype_t *`).
    MPI_Datatype => ompi_datatype_t;
    /// Handle of a communicator (`struct ompi_communicator_t *`).
    MPI_Comm => ompi_communicator_t;
    /// Handle of an error handler (`struct ompi_errhandler_t *`).
    MPI_Errhandler => ompi_errhandler_t;
    /// Handle of an info object (`struct ompi_info_t *`).
    MPI_Info => ompi_info_t;
    /// Handle of a request (`struct ompi_request_t *`).
    MPI_Request => ompi_request_t;
    /// Handle of a matched message (`struct ompi_message_t *`).
    MPI_Message => ompi_message_t;
    /// Handle of a group (`struct ompi_group_t *`).
    MPI_Group => ompi_group_t;
    /// Handle of a reduction operation (`struct ompi_op_t *`).
    MPI_Op => ompi_op_t;
    /// Handle of a window (`struct ompi_win_t *`).
    MPI_Win => ompi_win_t;
    /// Handle of a session (`struct ompi_instance_t *`, Open MPI 5).
    MPI_Session => ompi_instance_t;
    /// Handle of an open file (`struct ompi_file_t *`).
    MPI_File => ompi_file_t;
}

/// Gives each handle type the size of Open MPI's predefined objects of its kind.
macro_rules! object_sizes {
    ($($name:ident: $size:literal;)*) => {$(
        impl $name {
            /// Bytes of each of Open MPI's predefined objects of this kind (the same in Open MPI
            /// 4.1 and 5.0).
            pub const OBJECT_SIZE: usize = $size;
        }
    )*};
}

object_sizes! {
    MPI_Datatype: 512;
    MPI_Comm: 512;
    MPI_Errhandler: 1024;
    MPI_Info: 256;
    MPI_Request: 256;
    MPI_Message: 256;
    MPI_Group: 256;
    MPI_Op: 2048;
    MPI_Win: 512;
    MPI_Session: 512;
    MPI_File: 1536;
}

/// An address-sized integer (`ptrdiff_t`).
pub type MPI_Aint = std::os::raw::c_long;
/// A large count (`long long`).
pub type MPI_Count = i64;
/// A file offset (`long long`).
pub type MPI_Offset = i64;
/// The C type of a Fortran `INTEGER`.
pub type MPI_Fint = c_int;

/// The status object of a receive, laid out as Open MPI lays it out
/// (`struct ompi_status_public_t`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MPI_Status {
    /// Rank of the sender.
    pub MPI_SOURCE: c_int,
    /// Tag of the message.
    pub MPI_TAG: c_int,
    /// Error code of the operation.
    pub MPI_ERROR: c_int,
    /// Whether the request was cancelled.
    pub _cancelled: c_int,
    /// The bytes received.
    pub _ucount: usize,
}

impl MPI_Status {
    /// The byte count the status carries.
    pub fn count_bytes(&self) -> MPI_Count {
        self._ucount as MPI_Count
    }

    /// Sets the byte count.
    pub fn set_count_bytes(&mut self, count: MPI_Count) {
        self._ucount = count as usize;
    }

    /// Whether the status says the request was cancelled.
    pub fn cancelled(&self) -> bool {
        self._cancelled != 0
    }

    /// Sets the cancelled flag.
    pub fn set_cancelled(&mut self, cancelled: bool) {
        self._cancelled = c_int::from(cancelled);
    }
}

/// `MPI_STATUS_IGNORE`: the null pointer.
pub const MPI_STATUS_IGNORE: *mut MPI_Status = std::ptr::null_mut();

/// The address of `MPI_IN_PLACE`, Open MPI's `(void *) 1`.
pub const IN_PLACE_ADDRESS: usize = 1;

/// The address `MPI_T_PVAR_ALL_HANDLES` stands for (`(MPI_T_pvar_handle) -1`).
pub fn all_pvar_handles() -> *const c_int {
    std::ptr::without_provenance(usize::MAX)
}

/// The address `MPI_UNWEIGHTED` stands for (`(int *) 2`).
pub fn unweighted() -> *const c_int {
    std::ptr::without_provenance(2)
}

/// The address `MPI_WEIGHTS_EMPTY` stands for (`(int *) 3`).
pub fn weights_empty() -> *const c_int {
    std::ptr::without_provenance(3)
}

/// Storage of one of Open MPI's predefined objects: `N` bytes, aligned as Open MPI aligns
/// them. Its contents are never read or written standalone: only its address and size
/// matter.
#[repr(C, align(64))]
pub struct Object<const N: usize>([u8; N]);

impl<const N: usize> Object<N> {
    /// An object of zero bytes.
    pub const ZERO: Self = Self([0; N]);
}

/// Open MPI's constants of `src/abi/constants.rs`: integers as `pub const`s, handles as
/// statics holding the address of the object of Open MPI's name, which this module defines
/// and exports, and aliases as re-exports of the constant they name.
pub mod constants {
    #![allow(non_upper_case_globals, non_snake_case, clippy::unnecessary_cast)]
    use super::{
        MPI_Comm, MPI_Datatype, MPI_Errhandler, MPI_File, MPI_Group, MPI_Info, MPI_Message, MPI_Op,
        MPI_Request, MPI_Session, MPI_Win,
    };
    use std::os::raw::c_int;

    /// One constant of the table given its Open MPI value.
    macro_rules! ompi_constant {
        ([$(#[doc = $doc:literal])* $name:ident: c_int] $value:expr) => {
            $(#[doc = $doc])* pub const $name: c_int = $value as c_int;
        };
        ([$(#[doc = $doc:literal])* $name:ident: MPI_Offset] $value:expr) => {
            $(#[doc = $doc])* pub const $name: super::MPI_Offset = $value;
        };
        ([$(#[doc = $doc:literal])* $name:ident: $ty:ident] & $object:ident) => {
            /// The object Open MPI's `mpi.h` names.
            pub mod $name {
                /// The object, exported under Open MPI's name and at Open MPI's size.
                #[export_name = stringify!($object)]
                pub static mut OBJECT: super::super::Object<{ super::$ty::OBJECT_SIZE }> =
                    super::super::Object::ZERO;
            }
            // The cell holding the object's address: a reference through the symbol, which
            // the dynamic linker resolves to the program's copy of the object if it has one.
            std::arch::global_asm!(
                ".pushsection .data.rel.ro.mpi_dtype_ompi_handles,\"aw\"",
                ".balign 8",
                concat!(".globl mpi_dtype_ompi_", stringify!($name)),
                concat!(".hidden mpi_dtype_ompi_", stringify!($name)),
                concat!("mpi_dtype_ompi_", stringify!($name), ":"),
                concat!(".quad ", stringify!($object)),
                ".popsection",
            );
            unsafe extern "C" {
                $(#[doc = $doc])*
                #[link_name = concat!("mpi_dtype_ompi_", stringify!($name))]
                pub safe static $name: $ty;
            }
        };
        ([$(#[doc = $doc:literal])* $name:ident: $ty:ident] $alias:ident) => {
            $(#[doc = $doc])* pub use self::$alias as $name;
        };
    }

    /// Pushes the constant's object onto `$list` if it is the address of an object of Open
    /// MPI's (an alias names an object another entry pushes).
    macro_rules! exported_object {
        ([$list:ident $name:ident: $ty:ident] & $object:ident) => {
            $list.push(super::Exported {
                name: const {
                    match std::ffi::CStr::from_bytes_with_nul(
                        concat!(stringify!($object), "\0").as_bytes(),
                    ) {
                        Ok(name) => name,
                        Err(_) => panic!("a symbol has no NUL inside"),
                    }
                },
                address: super::AddressHandle::bits($name),
                size: $ty::OBJECT_SIZE,
                datatype: is_datatype!($ty),
            });
        };
        ([$($item:tt)*] $($value:tt)*) => {};
    }

    /// True for the handle type `MPI_Datatype`.
    macro_rules! is_datatype {
        (MPI_Datatype) => {
            true
        };
        ($other:ident) => {
            false
        };
    }

    /// Reads the constants Open MPI's ABI has from the table. The values are matched by their
    /// forms (an object's address, an alias, a number and its cast) rather than as `expr`s,
    /// which `value_in!` could not take apart again.
    macro_rules! abi_constants {
        ($($(#[doc = $doc:literal])* $name:ident : $ty:ident =
            $($abi:ident $(& $object:ident)? $($alias:ident)? $($value:literal $(as $cast:ident)?)?),+;)*) => {
            $(value_in!(ompi => ompi_constant [$(#[doc = $doc])* $name: $ty];
                $($abi $(& $object)? $($alias)? $($value $(as $cast)?)?),+);)*

            /// Every object this library exports under one of Open MPI's names, each once
            /// whatever its names.
            #[allow(clippy::vec_init_then_push)] // one push per entry that is an object
            pub fn exported_objects() -> Vec<super::Exported> {
                let mut list = Vec::new();
                $(value_in!(ompi => exported_object [list $name: $ty];
                    $($abi $(& $object)? $($alias)? $($value $(as $cast)?)?),+);)*
                list
            }
        };
    }

    include!("constants.rs");
}

/// One of the objects this library exports under Open MPI's name: the name, where it is (in
/// this library, or the program's copy of it), its size, and whether it is a datatype.
pub struct Exported {
    /// The symbol.
    pub name: &'static std::ffi::CStr,
    /// The object's address.
    pub address: usize,
    /// Its size in bytes (Open MPI's).
    pub size: usize,
    /// True for a predefined datatype (`MPI_DATATYPE_NULL` included).
    pub datatype: bool,
}

/// Gives each object this library exports the contents of Open MPI's object of the same name
/// in `behind` (the `dlopen` handle of the `libmpi` found behind this library, as a number),
/// once, before that library reads them.
///
/// Under `LD_PRELOAD`, `libmpi` reaches its predefined objects through their symbols, and
/// the dynamic linker binds those to this library's objects (or to the program's copies of
/// them), which come first: `libmpi` then works on this library's storage. The datatypes
/// (and the other objects in `libmpi`'s initialized data) must first hold what `libmpi`'s own
/// copies were initialized with, which `dlsym` on `behind` finds; the pointers in them that
/// lead to the objects themselves already lead to this library's, since the dynamic linker
/// relocated them through the same symbols. An object `libmpi` has already written to (not
/// all zeros) is left as it is; one `libmpi` lacks (an older version's) stays zero.
pub fn adopt_objects(behind: usize) {
    for object in exported_objects() {
        // SAFETY: a handle dlopen returned and a NUL-terminated name.
        let theirs = unsafe { libc::dlsym(behind as *mut c_void, object.name.as_ptr()) } as usize;
        if theirs == 0 || theirs == object.address {
            continue;
        }
        let ours = object.address as *mut u8;
        // SAFETY: `ours` is an object of `object.size` bytes this library exports (or the
        // program's copy of it, as large: check_abi_ompi.py --objects), only read here.
        let untouched = unsafe { std::slice::from_raw_parts(ours, object.size) }
            .iter()
            .all(|&b| b == 0);
        if untouched {
            // SAFETY: Open MPI's object of the same name is `object.size` bytes too (the
            // sizes of src/abi/ompi.rs are Open MPI's), and the two do not overlap.
            unsafe { std::ptr::copy_nonoverlapping(theirs as *const u8, ours, object.size) };
        }
    }
}

// ---- the handle codec ---------------------------------------------------------------------
//
// A predefined datatype's index is its place among the datatype objects sorted by address,
// found by binary search: the objects need not be contiguous (the program holds copies of
// those it names).

/// Entries of the table of predefined datatypes by [`predefined_index`].
pub const PREDEFINED_INDEXES: usize = 128;

/// The addresses of the predefined datatype objects, sorted.
static DATATYPES_BY_ADDRESS: LazyLock<Vec<usize>> = LazyLock::new(|| {
    let mut addresses: Vec<usize> = exported_objects()
        .iter()
        .filter(|object| object.datatype)
        .map(|object| object.address)
        .collect();
    addresses.sort_unstable();
    assert!(
        addresses.len() <= PREDEFINED_INDEXES,
        "too many predefined datatypes"
    );
    addresses
});

/// The index of a predefined datatype handle in the table of predefined datatypes; `None`
/// for any other value. An address outside the span of the objects (a type of the MPI
/// behind, on its heap, or one of this library's own handles) is refused by two comparisons
/// before any search.
#[inline]
pub fn predefined_index(handle: MPI_Datatype) -> Option<usize> {
    let addresses = &*DATATYPES_BY_ADDRESS;
    let (&first, &last) = (addresses.first()?, addresses.last()?);
    if handle.0 < first || handle.0 > last {
        return None;
    }
    addresses.binary_search(&handle.0).ok()
}

/// True if `handle` is the address of one of the predefined datatype objects.
pub fn has_predefined_form(handle: MPI_Datatype) -> bool {
    predefined_index(handle).is_some()
}

/// Open MPI has no internal numbers standing for predefined handles.
pub fn internal_alias(_handle: MPI_Datatype) -> Option<MPI_Datatype> {
    None
}

/// True if `handle` can be a datatype the MPI behind made (or a twin of this library's,
/// which is one): any non-null address that is neither a predefined object nor one of this
/// library's own handles.
#[inline]
pub fn has_behind_form(handle: MPI_Datatype) -> bool {
    handle.0 != 0 && !has_own_tag(handle) && predefined_index(handle).is_none()
}

/// The handle as an unsigned number, for hashing and for messages.
#[inline(always)]
pub fn handle_bits(handle: MPI_Datatype) -> u64 {
    handle.bits() as u64
}

/// The handle whose [`handle_bits`] are `bits`.
pub fn handle_from_bits(bits: u64) -> MPI_Datatype {
    MPI_Datatype::from_bits(bits as usize)
}

/// `MPI_Type_toint` of a predefined or own handle: a predefined type's index plus one, or the
/// tagged `int` of an own handle; `None` for any other value.
pub fn handle_to_int(handle: MPI_Datatype) -> Option<c_int> {
    match predefined_index(handle) {
        Some(index) => Some(index as c_int + 1),
        None => own_to_int(handle),
    }
}

/// `MPI_Type_fromint`: the predefined or own handle an `int` of [`handle_to_int`] stands
/// for; `None` for any other value.
pub fn handle_from_int(value: c_int) -> Option<MPI_Datatype> {
    let index = usize::try_from(value).ok().and_then(|v| v.checked_sub(1));
    match index.and_then(|index| DATATYPES_BY_ADDRESS.get(index)) {
        Some(&address) => Some(MPI_Datatype(address)),
        None => own_from_int(value),
    }
}

/// True if `comm` can be a communicator of the MPI library behind this one: a non-null
/// address that is not one of this library's predefined communicators nor its own.
pub fn has_behind_comm_form(comm: MPI_Comm) -> bool {
    comm.0 != 0
        && ![MPI_COMM_WORLD, MPI_COMM_SELF, MPI_COMM_NULL].contains(&comm)
        && own_comm_index(comm).is_none()
}

world_handles!();

/// The form of this library's keyvals: `0x24000000 | n`, far above the small numbers Open MPI
/// gives out from 0.
const OWN_KEYVAL_KIND: u32 = 0x2400_0000;

/// The first keyval this library gives out.
pub const FIRST_OWN_KEYVAL: c_int = OWN_KEYVAL_KIND as c_int + 1;

/// True if `key` has the form of a keyval of Open MPI: a number from 0 below this library's.
pub fn is_behind_keyval(key: c_int) -> bool {
    (0..OWN_KEYVAL_KIND as c_int).contains(&key)
}

/// True if `key` has the form of one of this library's keyvals.
pub fn is_own_keyval_form(key: c_int) -> bool {
    key as u32 & 0xfc00_0000 == OWN_KEYVAL_KIND
}

/// Open MPI's `MPI_TYPE_DUP_FN` is a function (`OMPI_C_MPI_TYPE_DUP_FN`): no sentinel.
pub fn is_dup_fn_sentinel(_callback: super::MPI_Type_copy_attr_function) -> bool {
    false
}

/// Open MPI reports the combiners of MPI-3 only.
pub fn current_combiner(combiner: c_int) -> c_int {
    combiner
}

/// The version of the standard ABI this build speaks: none, -1.-1, so that a client that
/// looks for the standard ABI (mpi4py) takes Open MPI's.
pub fn standard_abi_version() -> (c_int, c_int) {
    (-1, -1)
}

/// The name of this ABI, for messages.
pub const ABI_NAME: &str = "Open MPI's ABI";

/// The symbol that tells an MPI library of this ABI, defined by the same object as its
/// `MPI_Init`: `ompi_mpi_comm_world`, which Open MPI's `mpi.h` names for `MPI_COMM_WORLD`.
pub const BEHIND_MARK: &std::ffi::CStr = c"ompi_mpi_comm_world";

/// True if the library whose [`BEHIND_MARK`] is at `address` speaks this ABI: exporting the
/// object says so.
pub fn behind_speaks_this_abi(_address: usize) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_and_status_have_open_mpis_layout() {
        assert_eq!(
            std::mem::size_of::<MPI_Datatype>(),
            std::mem::size_of::<usize>()
        );
        assert_eq!(std::mem::size_of::<MPI_Status>(), 24);
        let mut status = MPI_Status::default();
        status.set_count_bytes(1 << 40);
        status.set_cancelled(true);
        assert_eq!((status.count_bytes(), status.cancelled()), (1 << 40, true));
        assert_eq!(status._ucount, 1 << 40);
    }

    #[test]
    fn predefined_handles_are_the_addresses_of_distinct_objects() {
        let objects: Vec<MPI_Datatype> = exported_objects()
            .iter()
            .filter(|object| object.datatype)
            .map(|object| MPI_Datatype(object.address))
            .collect();
        assert!(objects.len() > 60);
        for (i, &a) in objects.iter().enumerate() {
            assert!(has_predefined_form(a) && !has_behind_form(a));
            assert_eq!(handle_from_int(handle_to_int(a).unwrap()), Some(a));
            for &b in &objects[i + 1..] {
                assert!(a.bits().abs_diff(b.bits()) >= MPI_Datatype::OBJECT_SIZE);
            }
        }
        assert_eq!(MPI_LONG_LONG, MPI_LONG_LONG_INT);
        assert_ne!(MPI_DOUBLE, MPI_FLOAT);
    }

    #[test]
    fn own_handles_are_neither_predefined_nor_open_mpis() {
        for (slot, generation) in [(1, 0), (77, 5), ((1 << SLOT_BITS) - 1, GENERATIONS - 1)] {
            let handle: MPI_Datatype = own_handle(slot, generation);
            assert_eq!(own_parts(handle), Some((slot, generation)));
            assert!(!has_predefined_form(handle) && !has_behind_form(handle));
            assert_eq!(
                handle_from_int(handle_to_int(handle).unwrap()),
                Some(handle)
            );
        }
        let open_mpis = MPI_Datatype(0x7f00_1234_5678);
        assert!(has_behind_form(open_mpis) && own_parts(open_mpis).is_none());
    }
}
