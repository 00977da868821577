//! The C types of the MPI-5.0 standard ABI (MPI-5.0 chapter 21) as the library sees them:
//! handle types, integer types, the status object, the attribute and error-handler callback
//! types and their sentinels, and the size encoding of predefined datatype handles.
//!
//! The C side of the same declarations is `src/abi/standard_preamble.h`; the constants are
//! in `src/abi/constants.rs`. Values and layouts are those of the standard's header
//! (mpi-forum/mpi-abi-stubs) and of MPICH 5.0.2's `mpi_abi.h`, on LP64 platforms.
//!
//! # Handles
//!
//! In C every handle type is a pointer to an incomplete struct (`typedef struct
//! MPI_ABI_Datatype *MPI_Datatype;`). Predefined handles are the integers 1 to 4095 cast to
//! that pointer type; handles an implementation creates are whatever it likes outside that
//! range (MPICH 5 and Intel MPI hand out the addresses of their objects).
//!
//! Here each handle type is a `#[repr(transparent)]` newtype over `usize` rather than a raw
//! pointer `*mut MPI_ABI_Datatype` ([`address_handle_types!`](super::address_handles), for
//! the reasons given there), so constants are plain `const`s (`MPI_Datatype(0x214)`).
//!
//! The header does not get its handle typedefs from these newtypes (cbindgen would write
//! `typedef uintptr_t MPI_Datatype;`): the generator must exclude them, as it excludes the
//! MPICH-ABI handle types today, and take the typedefs from the preamble.
#![allow(non_camel_case_types, non_snake_case)]

pub use constants::*;
use std::os::raw::{c_int, c_void};

address_handle_types! {
    /// Handle of a datatype (C: `struct MPI_ABI_Datatype *`).
    MPI_Datatype => MPI_ABI_Datatype;
    /// Handle of a communicator (C: `struct MPI_ABI_Comm *`).
    MPI_Comm => MPI_ABI_Comm;
    /// Handle of an error handler (C: `struct MPI_ABI_Errhandler *`).
    MPI_Errhandler => MPI_ABI_Errhandler;
    /// Handle of an info object (C: `struct MPI_ABI_Info *`); `MPI_Abi_get_info` returns one.
    MPI_Info => MPI_ABI_Info;
    /// Handle of a request (C: `struct MPI_ABI_Request *`); the drop-in layer forwards
    /// nonblocking calls that carry one.
    MPI_Request => MPI_ABI_Request;
    /// Handle of a matched message (C: `struct MPI_ABI_Message *`), which `MPI_Mprobe`
    /// returns and `MPI_Mrecv` receives.
    MPI_Message => MPI_ABI_Message;
    /// Handle of a group (C: `struct MPI_ABI_Group *`).
    MPI_Group => MPI_ABI_Group;
    /// Handle of a reduction operation (C: `struct MPI_ABI_Op *`).
    MPI_Op => MPI_ABI_Op;
    /// Handle of a window of one-sided communication (C: `struct MPI_ABI_Win *`).
    MPI_Win => MPI_ABI_Win;
    /// Handle of a session (C: `struct MPI_ABI_Session *`).
    MPI_Session => MPI_ABI_Session;
    /// Handle of an open file (C: `struct MPI_ABI_File *`).
    MPI_File => MPI_ABI_File;
}

/// The least value of a predefined handle (MPI-5.0 §21.5: predefined handle constants are
/// the integers 1 to 4095).
pub const PREDEFINED_HANDLE_MIN: usize = 1;
/// The greatest value of a predefined handle.
pub const PREDEFINED_HANDLE_MAX: usize = 4095;

/// An address-sized integer: C `intptr_t`, which is `long` (64 bits) on the LP64 targets the
/// library is built for (as MPICH's `MPI_Aint`), so that both builds share one integer type.
pub type MPI_Aint = std::os::raw::c_long;
/// A large count: C `int64_t` (the standard ABI makes it `MPI_Offset`, on every platform
/// whose addresses have at most 64 bits).
pub type MPI_Count = i64;
/// A file offset: C `int64_t`.
pub type MPI_Offset = i64;

/// The status object of a completed operation, laid out as the standard ABI lays it out:
/// three public `int` fields and five `int`s the implementation owns.
///
/// # What the implementation keeps in `MPI_internal`
///
/// The standard leaves `MPI_internal` to the implementation. MPICH 5's `libmpi_abi.so`
/// (and Intel MPI 2021.19's, which is built from it) keeps MPICH's own two hidden fields
/// there, in MPICH's order, and leaves the other three unused:
///
/// | word | MPICH's name | content |
/// |---|---|---|
/// | `MPI_internal[0]` | `count_lo` | bits 0..32 of the received byte count |
/// | `MPI_internal[1]` | `count_hi_and_cancelled` | bit 0: cancelled; bits 1..32: bits 32..63 of the byte count |
/// | `MPI_internal[2..5]` | `reserved` | unused (left as they were) |
///
/// The count is in bytes, whatever the datatype: `MPI_Get_count` divides by the type's
/// size. A drop-in layer over such a library writes statuses that library reads back with
/// `MPI_Get_count`, `MPI_Get_elements` and `MPI_Test_cancelled`, so it must use this very
/// encoding; standalone the library is free to choose, and uses the same one, so that a
/// status means the same to both builds. [`MPI_Status::count_bytes`],
/// [`MPI_Status::set_count_bytes`], [`MPI_Status::cancelled`] and
/// [`MPI_Status::set_cancelled`] read and write it. (Observed with `MPI_Status_set_elements_c`
/// and `MPI_Status_set_cancelled` on both libraries, and in MPICH's source:
/// `maint/gen_abi.py` maps `MPI_internal[5]` onto `count_lo`, `count_hi_and_cancelled`,
/// `reserved[3]`; `src/include/mpir_status.h` encodes the count.)
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MPI_Status {
    /// Rank of the sender.
    pub MPI_SOURCE: c_int,
    /// Tag of the message.
    pub MPI_TAG: c_int,
    /// Error code of the operation.
    pub MPI_ERROR: c_int,
    /// Owned by the implementation; see the type's documentation for the encoding.
    pub MPI_internal: [c_int; 5],
}

impl MPI_Status {
    /// The byte count stored in the status (MPICH 5's encoding).
    pub fn count_bytes(&self) -> MPI_Count {
        let lo = self.MPI_internal[0] as u32 as u64;
        let hi = (self.MPI_internal[1] as u32 >> 1) as u64;
        ((hi << 32) | lo) as MPI_Count
    }

    /// Stores a byte count (non-negative, below 2^63), keeping the cancelled flag.
    pub fn set_count_bytes(&mut self, count: MPI_Count) {
        let count = count as u64;
        let cancelled = self.MPI_internal[1] as u32 & 1;
        self.MPI_internal[0] = count as u32 as c_int;
        self.MPI_internal[1] = ((((count >> 32) as u32) << 1) | cancelled) as c_int;
    }

    /// Whether the status says the operation was cancelled.
    pub fn cancelled(&self) -> bool {
        self.MPI_internal[1] & 1 != 0
    }

    /// Sets or clears the cancelled flag, keeping the count.
    pub fn set_cancelled(&mut self, cancelled: bool) {
        self.MPI_internal[1] = (self.MPI_internal[1] & !1) | c_int::from(cancelled);
    }
}

/// `MPI_STATUS_IGNORE` and `MPI_STATUSES_IGNORE`: the null pointer (in MPICH's ABI it is 1).
pub const MPI_STATUS_IGNORE: *mut MPI_Status = std::ptr::null_mut();

/// The address of `MPI_IN_PLACE`, the standard ABI's `(void *) 1`: a collective's buffer
/// argument that says the data are in the other buffer.
pub const IN_PLACE_ADDRESS: usize = 1;

/// The address `MPI_T_PVAR_ALL_HANDLES` stands for: every handle of a session of performance
/// variables (`(MPI_T_pvar_handle)1`).
pub fn all_pvar_handles() -> *const c_int {
    std::ptr::without_provenance(1)
}

/// The address `MPI_UNWEIGHTED` stands for: the weights argument of a graph without weights
/// (`(int *)10`).
pub fn unweighted() -> *const c_int {
    std::ptr::without_provenance(10)
}

/// The address `MPI_WEIGHTS_EMPTY` stands for: the weights argument of a weighted graph's
/// process without edges (`(int *)11`).
pub fn weights_empty() -> *const c_int {
    std::ptr::without_provenance(11)
}

/// Address of `MPI_TYPE_NULL_COPY_FN` and `MPI_TYPE_NULL_DELETE_FN`: the null pointer.
pub const MPI_TYPE_NULL_FN_ADDRESS: usize = 0;
/// Address of `MPI_TYPE_DUP_FN`: the sentinel 1, which is no function. (In MPICH's ABI it is
/// the real function `MPIR_Type_dup_fn`.)
pub const MPI_TYPE_DUP_FN_ADDRESS: usize = 1;

/// What an attribute copy callback passed from C asks for.
#[derive(Debug, Clone, Copy)]
pub enum CopyAttr {
    /// `MPI_TYPE_NULL_COPY_FN`: the attribute is not copied.
    Null,
    /// `MPI_TYPE_DUP_FN`: the attribute value is copied as it is.
    Dup,
    /// A function of the program's.
    Function(
        unsafe extern "C" fn(
            MPI_Datatype,
            c_int,
            *mut c_void,
            *mut c_void,
            *mut c_void,
            *mut c_int,
        ) -> c_int,
    ),
}

/// Classifies a copy callback passed from C: the sentinels by address, anything else as a
/// function.
pub fn copy_attr_kind(callback: super::MPI_Type_copy_attr_function) -> CopyAttr {
    match callback {
        None => CopyAttr::Null,
        Some(f) if f as usize == MPI_TYPE_DUP_FN_ADDRESS => CopyAttr::Dup,
        Some(f) => CopyAttr::Function(f),
    }
}

/// The size in bytes that a predefined datatype handle's value encodes, if it encodes one.
///
/// MPI-5.0 §21.5 ("Handle Constants") gives predefined datatypes the values `0b10_xxxx_xxxx`
/// (0x200 to 0x2ff): bits 11:8 are `0010`, bits 7:3 name a category and bits 2:0 an instance
/// within it. The categories with bits 7:6 = `00` (0x200 to 0x23f) hold the types whose size
/// depends on the platform or the compiler (`MPI_INT`, `MPI_LONG`, `MPI_DOUBLE`,
/// `MPI_INTEGER`, `MPI_LONG_DOUBLE`, the pair types, `MPI_WCHAR`, ...); their values encode
/// no size. The categories with bit 6 set hold the fixed-size types, and bits 5:3 are the
/// base-2 logarithm of the size in bytes:
///
/// | bits 7:6 | bits 5:3 | values | types |
/// |---|---|---|---|
/// | `01` | `000`..`011` | 0x240..0x25f | C fixed-size: `MPI_INT8_T`, `MPI_CHAR`, `MPI_BYTE` (1), `MPI_INT16_T` (2), `MPI_INT32_T` (4), `MPI_INT64_T` (8) |
/// | `11` | `000`..`101` | 0x2c0..0x2ef | Fortran fixed-size: `MPI_INTEGER1` (1) ... `MPI_REAL16` (16), `MPI_COMPLEX32` (32) |
///
/// Bits 5:3 of `110` and `111` (sizes 64 and 128) are reserved, and so is bits 7:6 = `10`;
/// this function answers `None` for them, and for every value outside 0x200..0x2ff. (Intel
/// MPI 2021.19 puts its extensions `MPIX_C_FLOAT16` and `MPIX_C_BF16` at 0x2f8 and 0x2f9,
/// in that reserved space; their encoded "size" would be 128, which is why the reserved
/// sizes are refused.)
///
/// This only reads the encoding: a value it gives a size to need not be a defined handle
/// (0x242 is reserved, for instance).
pub fn encoded_size(handle_value: usize) -> Option<usize> {
    // Bits 11:8 must be 0b0010 (and nothing above bit 11 may be set).
    if handle_value >> 8 != 0b0010 {
        return None;
    }
    let category_high = (handle_value >> 6) & 0b11;
    let log2_size = (handle_value >> 3) & 0b111;
    match category_high {
        0b01 | 0b11 if log2_size <= 5 => Some(1 << log2_size),
        _ => None,
    }
}

/// The standard ABI's constants of `src/abi/constants.rs` as `pub const`s of the types above
/// (`MPI_DOUBLE: MPI_Datatype`, `MPI_ORDER_C: c_int`, ...), each with its doc comment.
///
/// The table writes every value as an integer or as the name of the constant it aliases.
/// Each value is first evaluated as an `i64` in the private module `raw` (where an alias
/// names another `i64`), then converted to its type by `table_value!`, which
/// matches the type's name.
pub mod constants {
    #![allow(non_upper_case_globals, clippy::unnecessary_cast)]
    use super::{
        MPI_Comm, MPI_Datatype, MPI_Errhandler, MPI_File, MPI_Group, MPI_Info, MPI_Message,
        MPI_Offset, MPI_Op, MPI_Request, MPI_Session, MPI_Win,
    };
    use std::os::raw::c_int;

    /// Converts a table value, evaluated as `i64`, to the constant's type.
    macro_rules! table_value {
        (c_int, $v:expr) => {
            $v as c_int
        };
        (MPI_Offset, $v:expr) => {
            $v as MPI_Offset
        };
        ($handle:ident, $v:expr) => {
            $handle($v as usize)
        };
    }

    /// The constant `$name` of type `$ty`, its value that of `raw`.
    macro_rules! typed {
        ([$(#[doc = $doc:literal])* $name:ident: $ty:ident] $value:expr) => {
            $(#[doc = $doc])* pub const $name: $ty = table_value!($ty, raw::$name);
        };
    }

    /// Reads the constants the standard ABI has from the table: their values into `raw`,
    /// their constants here.
    macro_rules! abi_constants {
        ($($(#[doc = $doc:literal])* $name:ident : $ty:ident = $($abi:ident $value:expr),+;)*) => {
            /// The table's values as written, evaluated as `i64`.
            pub(super) mod raw {
                $(value_in!(standard => constant [pub const $name: i64]; $($abi $value),+);)*
            }
            $(value_in!(standard => typed [$(#[doc = $doc])* $name: $ty]; $($abi $value),+);)*
        };
    }

    include!("constants.rs");
}

/// `MPIX_C_FLOAT16` (C `_Float16`) has no constant in the standard ABI: the library keeps
/// the type under Intel MPI 2021.19's number for it (its `mpi_abi.h`), in the standard's
/// range of predefined datatypes, so that both builds have the same predefined types. The
/// header does not define it.
pub const MPIX_C_FLOAT16: MPI_Datatype = MPI_Datatype(0x2f8);

// ---- the handle codec ---------------------------------------------------------------------
//
// Predefined handles are the integers 1 to 4095 (MPI-5.0 §21.5); the MPI behind (MPICH 5's
// and Intel MPI's `libmpi_abi.so.1`) hands out the addresses of its objects. This library's
// own handles are tagged addresses no library hands out ([`super::address_handles`]).

use super::address_handles::{has_own_tag, own_from_int, own_to_int, AddressHandle};
pub use super::address_handles::{own_handle, own_parts, GENERATIONS, SLOT_BITS};

/// Entries of the table of predefined datatypes by [`predefined_index`].
pub const PREDEFINED_INDEXES: usize = PREDEFINED_HANDLE_MAX + 1;

/// True if a handle's value lies in the range reserved for predefined handles.
pub const fn in_predefined_range(value: usize) -> bool {
    value >= PREDEFINED_HANDLE_MIN && value <= PREDEFINED_HANDLE_MAX
}

/// The index of a handle in the predefined range in the table of predefined datatypes (its
/// value); the caller checks that the entry is that handle's.
#[inline(always)]
pub fn predefined_index(handle: MPI_Datatype) -> Option<usize> {
    in_predefined_range(handle.0).then_some(handle.0)
}

/// True if `handle` lies in the range of predefined handles.
pub fn has_predefined_form(handle: MPI_Datatype) -> bool {
    in_predefined_range(handle.0)
}

/// The standard ABI has no internal numbers standing for predefined handles.
pub fn internal_alias(_handle: MPI_Datatype) -> Option<MPI_Datatype> {
    None
}

/// True if `handle` can be a datatype the MPI behind made (or a twin of this library's,
/// which is one): any value outside the predefined range that is not this library's own.
#[inline]
pub fn has_behind_form(handle: MPI_Datatype) -> bool {
    handle.0 != 0 && !in_predefined_range(handle.0) && !has_own_tag(handle)
}

/// The handle as an unsigned number, for hashing and for messages.
#[inline(always)]
pub fn handle_bits(handle: MPI_Datatype) -> u64 {
    handle.bits() as u64
}

/// `MPI_Type_toint` of a predefined or own handle: a predefined handle's value, or the tagged
/// `int` of an own handle; `None` for any other value (a handle of the MPI behind, which that
/// library converts).
pub fn handle_to_int(handle: MPI_Datatype) -> Option<c_int> {
    if in_predefined_range(handle.0) {
        return Some(handle.0 as c_int);
    }
    own_to_int(handle)
}

/// `MPI_Type_fromint`: the predefined or own handle an `int` of [`handle_to_int`] stands
/// for; `None` for any other value.
pub fn handle_from_int(value: c_int) -> Option<MPI_Datatype> {
    let raw = usize::try_from(value).ok()?;
    if in_predefined_range(raw) {
        return Some(MPI_Datatype(raw));
    }
    own_from_int(value)
}

world_handles!();

/// True if `comm` can be a communicator handle of the MPI library behind this one: a value
/// outside the predefined range (the standard ABI's handles do not say their kind).
pub fn has_behind_comm_form(comm: MPI_Comm) -> bool {
    comm.0 > PREDEFINED_HANDLE_MAX
}

/// The form of this library's keyvals: `0x24000000 | n` (the standard leaves keyval values to
/// the implementation).
const OWN_KEYVAL_KIND: u32 = 0x2400_0000;

/// The first keyval this library gives out.
pub const FIRST_OWN_KEYVAL: c_int = OWN_KEYVAL_KIND as c_int + 1;

/// True if `key` has the form of a keyval of the MPI library behind this one: MPICH 5's
/// `libmpi_abi.so.1` passes MPICH's own keyvals through (`0xa4000000 | index` or
/// `0xe4000000 | index`).
pub fn is_behind_keyval(key: c_int) -> bool {
    matches!(key as u32 & 0xfc00_0000, 0xa400_0000 | 0xe400_0000)
}

/// True if `key` has the form of one of this library's keyvals.
pub fn is_own_keyval_form(key: c_int) -> bool {
    key as u32 & 0xfc00_0000 == OWN_KEYVAL_KIND
}

/// True if `callback` is the sentinel `MPI_TYPE_DUP_FN`, which is never called.
pub fn is_dup_fn_sentinel(callback: super::MPI_Type_copy_attr_function) -> bool {
    matches!(copy_attr_kind(callback), CopyAttr::Dup)
}

/// Maps a combiner of MPI-1 to the one that replaced it (the standard ABI has none).
pub fn current_combiner(combiner: c_int) -> c_int {
    combiner
}

/// The version of the standard ABI this build speaks (`MPI_Abi_get_version` standalone).
pub fn standard_abi_version() -> (c_int, c_int) {
    (MPI_ABI_VERSION, MPI_ABI_SUBVERSION)
}

/// The name of this ABI, for messages.
pub const ABI_NAME: &str = "the MPI-5.0 standard ABI";

/// The symbol that tells an MPI library of this ABI, defined by the same object as its
/// `MPI_Init`: `MPI_Abi_get_version`, which answers 1.0 or more in a library of the standard
/// ABI (MPICH 5's and Intel MPI's `libmpi_abi.so.1`) and -1.-1 in one of MPICH's ABI
/// ([`behind_speaks_this_abi`] asks it).
pub const BEHIND_MARK: &std::ffi::CStr = c"MPI_Abi_get_version";

/// True if the library whose `MPI_Abi_get_version` is at `address` speaks the standard ABI.
pub fn behind_speaks_this_abi(address: usize) -> bool {
    type GetVersion = unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int;
    // SAFETY: `address` is a library's `MPI_Abi_get_version`, which has this C signature
    // (MPI-5.0 §21.2); it may be called before `MPI_Init`.
    let get_version: GetVersion = unsafe { std::mem::transmute::<usize, GetVersion>(address) };
    let (mut major, mut minor) = (-1, -1);
    // SAFETY: two valid `int` outputs.
    let rc = unsafe { get_version(&mut major, &mut minor) };
    rc == MPI_SUCCESS && major >= 1
}

/// The standard ABI has no objects of the MPI behind to take over (its predefined handles are
/// numbers): nothing to do when the MPI library behind is found.
pub fn adopt_objects(_behind: usize) {}

/// The handle whose [`handle_bits`] are `bits`.
pub fn handle_from_bits(bits: u64) -> MPI_Datatype {
    MPI_Datatype(bits as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    /// The constants of the standard ABI (`src/abi/constants.rs`), as `(name, type, value)`.
    #[allow(clippy::vec_init_then_push)]
    fn table() -> Vec<(&'static str, &'static str, i64)> {
        /// Pushes one constant of the table onto `$table`.
        macro_rules! listed {
            ([$table:ident $name:ident: $ty:ident] $value:expr) => {
                $table.push((stringify!($name), stringify!($ty), constants::raw::$name));
            };
        }
        /// Lists the table's constants that the standard ABI has.
        macro_rules! abi_constants {
            ($($(#[doc = $doc:literal])* $name:ident : $ty:ident = $($abi:ident $value:expr),+;)*) => {{
                let mut table = Vec::new();
                $(value_in!(standard => listed [table $name: $ty]; $($abi $value),+);)*
                table
            }};
        }
        include!("constants.rs")
    }

    fn value(name: &str) -> usize {
        let (_, _, v) = table()
            .into_iter()
            .find(|(n, _, _)| *n == name)
            .unwrap_or_else(|| panic!("{name} is in the table"));
        v as usize
    }

    #[test]
    fn own_handles_round_trip_through_ints_and_are_never_predefined_or_addresses() {
        for (slot, generation) in [(1, 0), (4095, 63), ((1 << SLOT_BITS) - 1, 17)] {
            let handle = own_handle(slot, generation);
            assert_eq!(own_parts(handle), Some((slot, generation)));
            assert!(!has_behind_form(handle) && !in_predefined_range(handle.0));
            assert!(handle.0 >> 47 != 0, "above every user-space address");
            let int = handle_to_int(handle).expect("own handles have an int");
            assert!(int > PREDEFINED_HANDLE_MAX as c_int);
            assert_eq!(handle_from_int(int), Some(handle));
        }
        let double = MPI_Datatype(0x214);
        assert_eq!(
            handle_from_int(handle_to_int(double).unwrap()),
            Some(double)
        );
        assert_eq!(predefined_index(double), Some(0x214));
        assert_eq!(handle_from_int(-5), None);
        assert_eq!(handle_from_int(1 << 29), None);
        let address = MPI_Datatype(0x5555_5555_0000);
        assert!(has_behind_form(address) && own_parts(address).is_none());
        assert_eq!(handle_to_int(address), None);
        let handler = user_errhandler(3).unwrap();
        assert_eq!(user_errhandler_index(handler), Some(3));
        assert_eq!(user_errhandler_index(MPI_ERRORS_RETURN), None);
    }

    #[test]
    fn handles_are_pointer_sized() {
        assert_eq!(
            size_of::<MPI_Datatype>(),
            size_of::<*mut MPI_ABI_Datatype>()
        );
        assert_eq!(
            align_of::<MPI_Datatype>(),
            align_of::<*mut MPI_ABI_Datatype>()
        );
        assert_eq!(size_of::<MPI_Comm>(), size_of::<*mut c_void>());
        assert_eq!(size_of::<MPI_Aint>(), size_of::<*mut c_void>());
        assert!(in_predefined_range(MPI_DOUBLE.0));
        assert!(!in_predefined_range(0));
        assert!(!in_predefined_range(4096));
    }

    #[test]
    fn status_layout_is_the_standards() {
        assert_eq!(size_of::<MPI_Status>(), size_of::<[c_int; 8]>());
        assert_eq!(offset_of!(MPI_Status, MPI_SOURCE), 0);
        assert_eq!(offset_of!(MPI_Status, MPI_TAG), 4);
        assert_eq!(offset_of!(MPI_Status, MPI_ERROR), 8);
        assert_eq!(offset_of!(MPI_Status, MPI_internal), 12);
    }

    #[test]
    fn status_count_and_cancelled_match_mpich5() {
        // What MPI_Status_set_elements_c(&s, MPI_BYTE, 0x123456789a) followed by
        // MPI_Status_set_cancelled(&s, 1) leaves in MPICH 5.0.2's and Intel MPI's status.
        let mut s = MPI_Status::default();
        s.set_count_bytes(0x12_3456_789a);
        assert_eq!(s.MPI_internal, [0x3456_789a, 0x24, 0, 0, 0]);
        s.set_cancelled(true);
        assert_eq!(s.MPI_internal, [0x3456_789a, 0x25, 0, 0, 0]);
        assert_eq!(s.count_bytes(), 0x12_3456_789a);
        assert!(s.cancelled());
        s.set_count_bytes(28);
        assert_eq!(s.MPI_internal[..2], [28, 1]);
        s.set_cancelled(false);
        assert_eq!((s.count_bytes(), s.cancelled()), (28, false));
        // Counts with bit 31 set must not sign-extend.
        s.set_count_bytes(0xffff_ffff);
        assert_eq!(s.count_bytes(), 0xffff_ffff);
        s.set_count_bytes(i64::MAX);
        assert_eq!(s.count_bytes(), i64::MAX);
    }

    #[test]
    fn copy_callback_sentinels() {
        assert!(matches!(copy_attr_kind(None), CopyAttr::Null));
        // SAFETY: only compared by address, never called.
        let dup: crate::abi::MPI_Type_copy_attr_function =
            unsafe { std::mem::transmute::<usize, crate::abi::MPI_Type_copy_attr_function>(1) };
        assert!(matches!(copy_attr_kind(dup), CopyAttr::Dup));
        unsafe extern "C" fn copy(
            _: MPI_Datatype,
            _: c_int,
            _: *mut c_void,
            _: *mut c_void,
            _: *mut c_void,
            _: *mut c_int,
        ) -> c_int {
            0
        }
        assert!(matches!(copy_attr_kind(Some(copy)), CopyAttr::Function(_)));
    }

    #[test]
    fn encoded_sizes_of_the_fixed_size_types() {
        let expected = [
            ("MPI_INT8_T", 1),
            ("MPI_UINT8_T", 1),
            ("MPI_CHAR", 1),
            ("MPI_SIGNED_CHAR", 1),
            ("MPI_UNSIGNED_CHAR", 1),
            ("MPI_BYTE", 1),
            ("MPI_INT16_T", 2),
            ("MPI_UINT16_T", 2),
            ("MPI_INT32_T", 4),
            ("MPI_UINT32_T", 4),
            ("MPI_INT64_T", 8),
            ("MPI_UINT64_T", 8),
            ("MPI_LOGICAL1", 1),
            ("MPI_INTEGER1", 1),
            ("MPI_LOGICAL2", 2),
            ("MPI_INTEGER2", 2),
            ("MPI_REAL2", 2),
            ("MPI_LOGICAL4", 4),
            ("MPI_INTEGER4", 4),
            ("MPI_REAL4", 4),
            ("MPI_COMPLEX4", 4),
            ("MPI_LOGICAL8", 8),
            ("MPI_INTEGER8", 8),
            ("MPI_REAL8", 8),
            ("MPI_COMPLEX8", 8),
            ("MPI_LOGICAL16", 16),
            ("MPI_INTEGER16", 16),
            ("MPI_REAL16", 16),
            ("MPI_COMPLEX16", 16),
            ("MPI_COMPLEX32", 32),
        ];
        for (name, size) in expected {
            assert_eq!(encoded_size(value(name)), Some(size), "{name}");
        }
    }

    #[test]
    fn platform_dependent_types_encode_no_size() {
        let fixed: Vec<&str> = vec![
            "MPI_INT8_T",
            "MPI_UINT8_T",
            "MPI_CHAR",
            "MPI_SIGNED_CHAR",
            "MPI_UNSIGNED_CHAR",
            "MPI_BYTE",
            "MPI_INT16_T",
            "MPI_UINT16_T",
            "MPI_INT32_T",
            "MPI_UINT32_T",
            "MPI_INT64_T",
            "MPI_UINT64_T",
        ];
        let mut datatypes = 0;
        for (name, ty, v) in table() {
            if ty != "MPI_Datatype" {
                continue;
            }
            datatypes += 1;
            let v = v as usize;
            assert!(
                (0x200..0x300).contains(&v),
                "{name} is in the datatype range"
            );
            let fortran_fixed = (0x2c0..0x2f0).contains(&v);
            if !fortran_fixed && !fixed.contains(&name) {
                assert_eq!(encoded_size(v), None, "{name}");
            }
        }
        assert!(datatypes >= 70);
    }

    #[test]
    fn encoding_edges() {
        assert_eq!(encoded_size(0), None);
        assert_eq!(encoded_size(0x101), None); // MPI_COMM_WORLD
        assert_eq!(encoded_size(0x1240), None); // bits above 11 set
        assert_eq!(encoded_size(0x280), None); // bits 7:6 = 10: reserved
        assert_eq!(encoded_size(0x270), None); // C, log2 size 6: reserved
        assert_eq!(encoded_size(0x2f8), None); // Intel's MPIX_C_FLOAT16
        assert_eq!(encoded_size(0x2f9), None); // Intel's MPIX_C_BF16
        assert_eq!(encoded_size(0x260), Some(16)); // reserved C 16-byte slot: encodes 16
    }

    #[test]
    fn constants_are_distinct_where_they_must_be() {
        let t = table();
        let mut seen = std::collections::HashMap::new();
        for (name, ty, v) in &t {
            if *ty == "MPI_Datatype" {
                if let Some(other) = seen.insert(*v, *name) {
                    // Only the two aliases share a value.
                    let pair = [other, *name];
                    assert!(
                        pair.contains(&"MPI_LONG_LONG_INT") || pair.contains(&"MPI_C_COMPLEX"),
                        "{other} and {name} share {v:#x}"
                    );
                }
            }
        }
        assert_eq!(value("MPI_ERRORS_RETURN"), 0x143);
        assert_eq!(value("MPI_COMBINER_VALUE_INDEX"), 117);
    }
}
