//! MPICH's application binary interface: handle types, predefined handle values, combiners,
//! error classes and the other constants of `mpi.h`. This module is the one place where these
//! numbers live; everything else refers to them by name.
//!
//! Values are those of MPICH 4.0 (Debian's `libmpich-dev`), so that a binary compiled against
//! MPICH's `mpi.h` can run with this library in its place.
#![allow(non_camel_case_types, non_snake_case)]

use std::os::raw::{c_int, c_long};

/// Handle of a datatype (MPICH: `int`), a type of its own so that the drop-in layer can tell
/// a datatype argument from the other `int`s of a call.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct MPI_Datatype(pub c_int);

impl std::fmt::LowerHex for MPI_Datatype {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::LowerHex::fmt(&self.0, f)
    }
}
/// Handle of a communicator (MPICH: `int`).
pub type MPI_Comm = c_int;
/// Handle of an error handler (MPICH: `int`).
pub type MPI_Errhandler = c_int;
/// Handle of an info object (MPICH: `int`).
pub type MPI_Info = c_int;
/// An address-sized integer (MPICH on x86-64: `long`).
pub type MPI_Aint = c_long;
/// A large count (MPICH on x86-64: `long`).
pub type MPI_Count = c_long;
/// A file offset (MPICH on x86-64: `long`).
pub type MPI_Offset = c_long;
/// The C type of a Fortran `INTEGER`.
pub type MPI_Fint = c_int;

/// The status object of a receive, laid out as MPICH lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct MPI_Status {
    /// Low 32 bits of the received byte count.
    pub count_lo: c_int,
    /// High bits of the received byte count (shifted left by one) and the cancelled flag (bit 0).
    pub count_hi_and_cancelled: c_int,
    /// Rank of the sender.
    pub MPI_SOURCE: c_int,
    /// Tag of the message.
    pub MPI_TAG: c_int,
    /// Error code of the operation.
    pub MPI_ERROR: c_int,
}

/// Converts a table value, evaluated as the `int` of [`raw`](constants::raw) (where
/// `MPI_Datatype` is a plain `int`), to the constant's type.
macro_rules! table_value {
    (MPI_Datatype, $v:expr) => {
        MPI_Datatype($v)
    };
    ($ty:ident, $v:expr) => {
        $v as $ty
    };
}

/// The constant `$name` of type `$ty`, its value that of `raw`.
macro_rules! typed {
    ([$(#[doc = $doc:literal])* $name:ident: $ty:ident] $value:expr) => {
        $(#[doc = $doc])* pub const $name: $ty = table_value!($ty, constants::raw::$name);
    };
}

/// Defines each constant of the table that MPICH's ABI has as a `pub const` with its doc
/// comment. The values are first evaluated as `i64`s in `raw` (where an alias names another
/// of them and a datatype is an `int`), then given their types by `table_value!`.
macro_rules! abi_constants {
    ($($(#[doc = $doc:literal])* $name:ident : $ty:ident = $($abi:ident $value:expr),+;)*) => {
        /// The table's values as written.
        mod constants {
            #![allow(non_upper_case_globals, clippy::unnecessary_cast)]
            /// The values of the table, datatypes as `int`s.
            pub(super) mod raw {
                use super::super::*;
                /// A datatype handle of the table, as the `int` it is in C.
                type MPI_Datatype = std::os::raw::c_int;
                $(value_in!(mpich => constant [pub const $name: $ty]; $($abi $value),+);)*
            }
        }
        $(value_in!(mpich => typed [$(#[doc = $doc])* $name: $ty]; $($abi $value),+);)*
    };
}

include!("constants.rs");

// ---- the handle codec ---------------------------------------------------------------------
//
// How MPICH encodes a handle: the top six bits are its kind (`0x4c` predefined datatype,
// `0x8c` / `0xcc` a datatype the library made, `0x0c` the invalid kind, `0x44` ... a
// communicator), the low bits an index. This library's own derived handles take MPICH's
// invalid kind, `0x0c000000 | generation << 22 | slot`, so they never collide with a value
// MPICH defines, and an MPI library handed one rejects it instead of misreading it.

const KIND_MASK: i32 = 0xfc00_0000u32 as i32;
const PREDEFINED_KIND: i32 = 0x4c00_0000;
const OWN_KIND: i32 = MPI_DATATYPE_NULL.0;
const BEHIND_KINDS: [i32; 2] = [0x8c00_0000u32 as i32, 0xcc00_0000u32 as i32];
const SLOT_MASK: i32 = (1 << SLOT_BITS) - 1;

/// Bits of a slot index in one of this library's handles: up to 2^22 - 1 types alive at once.
pub const SLOT_BITS: u32 = 22;
/// Generations a slot goes through before its handles repeat (the 4 bits MPICH's 26-bit index
/// leaves).
pub const GENERATIONS: u32 = 16;
/// Entries of the table of predefined datatypes by [`predefined_index`].
pub const PREDEFINED_INDEXES: usize = 256;

/// The index of a handle of the predefined kind in the table of predefined datatypes (its low
/// byte, MPICH's index of the type); the caller checks that the entry is that handle's.
#[inline(always)]
pub fn predefined_index(handle: MPI_Datatype) -> Option<usize> {
    (handle.0 & KIND_MASK == PREDEFINED_KIND).then_some((handle.0 & 0xff) as usize)
}

/// True if `handle` has the form of a predefined datatype handle.
pub fn has_predefined_form(handle: MPI_Datatype) -> bool {
    handle.0 & KIND_MASK == PREDEFINED_KIND
}

/// The predefined handle an internal number of the MPI behind may stand for: MPICH 5 passes
/// `0x4c8TSSDD` in place of the predefined handle `0x4c00SSDD` to the datatype functions it
/// calls from inside its own functions (ROMIO's, on a memory type of `MPI_File_write_all`;
/// MPICH's `MPIR_DATATYPE_GET_ORIG_BUILTIN`). The caller checks that it is predefined.
pub fn internal_alias(handle: MPI_Datatype) -> Option<MPI_Datatype> {
    const ALIAS_MASK: i32 = 0xff80_0000u32 as i32;
    const ALIAS_KIND: i32 = 0x4c80_0000;
    (handle.0 & ALIAS_MASK == ALIAS_KIND && handle.0 & 0xff != 0)
        .then_some(MPI_Datatype(PREDEFINED_KIND | (handle.0 & 0xffff)))
}

/// This library's handle of the slot `slot` (at least 1) in its generation `generation`.
pub fn own_handle(slot: usize, generation: u32) -> MPI_Datatype {
    MPI_Datatype(OWN_KIND | ((generation % GENERATIONS) << SLOT_BITS) as i32 | slot as i32)
}

/// The slot and generation one of this library's handles names, if it has that form.
#[inline(always)]
pub fn own_parts(handle: MPI_Datatype) -> Option<(usize, u32)> {
    let slot = (handle.0 & SLOT_MASK) as usize;
    if handle.0 & KIND_MASK != OWN_KIND || slot == 0 {
        return None;
    }
    Some((slot, (handle.0 >> SLOT_BITS) as u32 % GENERATIONS))
}

/// True if `handle` has the form of a datatype the MPI behind made (or a twin of this
/// library's, which is one).
#[inline]
pub fn has_behind_form(handle: MPI_Datatype) -> bool {
    BEHIND_KINDS.contains(&(handle.0 & KIND_MASK))
}

/// The handle as an unsigned number, for hashing and for messages.
#[inline(always)]
pub fn handle_bits(handle: MPI_Datatype) -> u64 {
    handle.0 as u32 as u64
}

/// `MPI_Type_toint`: the handle as an `int` (MPICH's handles are `int`s).
pub fn handle_to_int(handle: MPI_Datatype) -> Option<c_int> {
    Some(handle.0)
}

/// `MPI_Type_fromint`: the handle an `int` of [`handle_to_int`] stands for.
pub fn handle_from_int(value: c_int) -> Option<MPI_Datatype> {
    Some(MPI_Datatype(value))
}

/// True if `comm` has the form of a communicator handle of the MPI library behind this one,
/// other than `MPI_COMM_NULL` (MPICH's handles say their kind).
pub fn has_behind_comm_form(comm: MPI_Comm) -> bool {
    const COMM_KIND_MASK: c_int = 0x3c00_0000;
    comm != MPI_COMM_NULL && comm & COMM_KIND_MASK == MPI_COMM_NULL
}

/// True if `key` has the form of a keyval of the MPI library behind this one (MPICH encodes
/// its keyvals as `0xa4000000 | index` or `0xe4000000 | index`; this library's keyvals are
/// `MPI_KEYVAL_INVALID + n`, `0x24000000 | n`, a form MPICH never gives out).
pub fn is_behind_keyval(key: c_int) -> bool {
    matches!(key as u32 & 0xfc00_0000, 0xa400_0000 | 0xe400_0000)
}

/// The first keyval this library gives out.
pub const FIRST_OWN_KEYVAL: c_int = MPI_KEYVAL_INVALID + 1;

/// True if `key` has the form of one of this library's keyvals.
pub fn is_own_keyval_form(key: c_int) -> bool {
    key as u32 & 0xfc00_0000 == 0x2400_0000
}

impl MPI_Status {
    /// The byte count the status holds (MPICH splits it over two fields).
    pub fn count_bytes(&self) -> MPI_Count {
        let hi = (self.count_hi_and_cancelled as u32 >> 1) as u64;
        ((hi << 32) | self.count_lo as u32 as u64) as MPI_Count
    }

    /// Stores a byte count, keeping the cancelled flag.
    pub fn set_count_bytes(&mut self, count: MPI_Count) {
        let count = count as u64;
        let cancelled = self.count_hi_and_cancelled as u32 & 1;
        self.count_lo = count as u32 as c_int;
        self.count_hi_and_cancelled = ((((count >> 32) as u32) << 1) | cancelled) as c_int;
    }

    /// The cancelled flag.
    pub fn cancelled(&self) -> bool {
        self.count_hi_and_cancelled & 1 != 0
    }

    /// Sets the cancelled flag, keeping the byte count.
    pub fn set_cancelled(&mut self, cancelled: bool) {
        self.count_hi_and_cancelled = (self.count_hi_and_cancelled & !1) | c_int::from(cancelled);
    }
}

/// `MPI_STATUS_IGNORE` and `MPI_STATUSES_IGNORE`: MPICH's `(MPI_Status *)1`.
pub const MPI_STATUS_IGNORE: *mut MPI_Status = std::ptr::without_provenance_mut(1);

/// Handle of a request (`MPI_Request`): an `int` in MPICH's ABI.
pub type MPI_Request = c_int;
/// Handle of a matched message (`MPI_Message`): an `int` in MPICH's ABI.
pub type MPI_Message = c_int;
/// Handle of a group (`MPI_Group`): an `int` in MPICH's ABI.
pub type MPI_Group = c_int;
/// Handle of a reduction operation (`MPI_Op`): an `int` in MPICH's ABI.
pub type MPI_Op = c_int;
/// Handle of a window of one-sided communication (`MPI_Win`): an `int` in MPICH's ABI.
pub type MPI_Win = c_int;
/// Handle of a session (`MPI_Session`): an `int` in MPICH's ABI.
pub type MPI_Session = c_int;

/// Handle of an open file (`MPI_File`): in MPICH's ABI a pointer (`struct ADIOI_FileD *`),
/// here its address-sized number, passed and stored exactly as the pointer; the library
/// never dereferences one.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MPI_File(pub usize);

impl std::fmt::LowerHex for MPI_File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::LowerHex::fmt(&self.0, f)
    }
}

/// The null file handle: the null pointer.
pub const MPI_FILE_NULL: MPI_File = MPI_File(0);

/// The tag of the file handles the one-process world makes, in bits 48..63: an address no
/// x86-64 or AArch64 process has, so no pointer the MPI behind hands out.
const OWN_FILE_TAG: usize = 0x4d46 << 48;
/// The index bits of a file handle of the one-process world.
const OWN_FILE_INDEX: usize = (1 << 48) - 1;

/// The handle of the file the one-process world keeps open at `index`.
pub fn own_file(index: usize) -> Option<MPI_File> {
    (index <= OWN_FILE_INDEX).then_some(MPI_File(OWN_FILE_TAG | index))
}

/// The index of a file [`own_file`] made.
pub fn own_file_index(file: MPI_File) -> Option<usize> {
    (file.0 & !OWN_FILE_INDEX == OWN_FILE_TAG).then_some(file.0 & OWN_FILE_INDEX)
}

/// The address of `MPI_IN_PLACE`, MPICH's `(void *) -1`: a collective's buffer argument that
/// says the data are in the other buffer.
pub const IN_PLACE_ADDRESS: usize = usize::MAX;

/// The kind bits of the requests of the one-process world: MPICH's kind of requests made by
/// the library (`0xac`, request objects of its indirect kind), which no constant uses.
const OWN_REQUEST_KIND: i32 = 0xac00_0000u32 as i32;
/// The kind bits of the matched messages of the one-process world (as requests: MPICH's
/// messages are requests).
const OWN_MESSAGE_KIND: i32 = 0xec00_0000u32 as i32;
/// Index bits of a request or message of the one-process world.
const OWN_INDEX_MASK: i32 = 0x03ff_ffff;

/// The kind bits of the communicators the one-process world makes: MPICH's kind of
/// communicators it makes (`0x84`, its indirect communicator objects).
const OWN_COMM_KIND: i32 = 0x8400_0000u32 as i32;
/// The kind bits of the groups the one-process world makes (MPICH's indirect groups).
const OWN_GROUP_KIND: i32 = 0x8800_0000u32 as i32;

/// The kind bits of the operations `MPI_Op_create` makes in the one-process world (MPICH's
/// indirect operations).
const OWN_OP_KIND: i32 = 0x9800_0000u32 as i32;

/// A pointer the program reads from a variable of the library, as MPICH's `mpi.h` declares
/// `MPI_UNWEIGHTED` and `MPI_WEIGHTS_EMPTY` (`extern int * const`): its address tells the
/// sentinel apart.
#[repr(transparent)]
pub struct Sentinel(*const c_int);

// SAFETY: the pointer is never read through; it is only compared.
unsafe impl Sync for Sentinel {}

/// What `MPI_UNWEIGHTED` points to.
static UNWEIGHTED_MARK: c_int = 0;
/// What `MPI_WEIGHTS_EMPTY` points to.
static WEIGHTS_EMPTY_MARK: c_int = 0;

/// `MPI_UNWEIGHTED`: the weights argument of a graph without weights.
#[no_mangle]
pub static MPI_UNWEIGHTED: Sentinel = Sentinel(&UNWEIGHTED_MARK);
/// `MPI_WEIGHTS_EMPTY`: the weights argument of a weighted graph's process without edges.
#[no_mangle]
pub static MPI_WEIGHTS_EMPTY: Sentinel = Sentinel(&WEIGHTS_EMPTY_MARK);

/// What `MPI_T_PVAR_ALL_HANDLES` points to.
static ALL_HANDLES_MARK: c_int = 0;

/// `MPI_T_PVAR_ALL_HANDLES`: every handle of a session of performance variables.
#[no_mangle]
pub static MPI_T_PVAR_ALL_HANDLES: Sentinel = Sentinel(&ALL_HANDLES_MARK);

/// The address `MPI_T_PVAR_ALL_HANDLES` stands for.
pub fn all_pvar_handles() -> *const c_int {
    MPI_T_PVAR_ALL_HANDLES.0
}

/// The address `MPI_UNWEIGHTED` stands for.
pub fn unweighted() -> *const c_int {
    MPI_UNWEIGHTED.0
}

/// The address `MPI_WEIGHTS_EMPTY` stands for.
pub fn weights_empty() -> *const c_int {
    MPI_WEIGHTS_EMPTY.0
}

/// The kind bits of the sessions of the one-process world (MPICH's direct sessions).
const OWN_SESSION_KIND: i32 = 0xb800_0000u32 as i32;

/// The handle of the session the one-process world keeps at `index`.
pub fn own_session(index: usize) -> Option<MPI_Session> {
    own_indexed(OWN_SESSION_KIND, index)
}

/// The index of a session [`own_session`] made.
pub fn own_session_index(session: MPI_Session) -> Option<usize> {
    own_index(OWN_SESSION_KIND, session)
}

/// The kind bits of the windows the one-process world makes (MPICH's direct windows).
const OWN_WIN_KIND: i32 = 0xa000_0000u32 as i32;

/// The handle of the window the one-process world keeps at `index`.
pub fn own_win(index: usize) -> Option<MPI_Win> {
    own_indexed(OWN_WIN_KIND, index)
}

/// The index of a window [`own_win`] made.
pub fn own_win_index(win: MPI_Win) -> Option<usize> {
    own_index(OWN_WIN_KIND, win)
}

/// The handle of the operation the one-process world keeps at `index`.
pub fn own_op(index: usize) -> Option<MPI_Op> {
    own_indexed(OWN_OP_KIND, index)
}

/// The index of an operation [`own_op`] made.
pub fn own_op_index(op: MPI_Op) -> Option<usize> {
    own_index(OWN_OP_KIND, op)
}

/// The handle of the communicator the one-process world keeps at `index`.
pub fn own_comm(index: usize) -> Option<MPI_Comm> {
    own_indexed(OWN_COMM_KIND, index)
}

/// The index of a communicator [`own_comm`] made.
pub fn own_comm_index(comm: MPI_Comm) -> Option<usize> {
    own_index(OWN_COMM_KIND, comm)
}

/// The handle of the group the one-process world keeps at `index`.
pub fn own_group(index: usize) -> Option<MPI_Group> {
    own_indexed(OWN_GROUP_KIND, index)
}

/// The index of a group [`own_group`] made.
pub fn own_group_index(group: MPI_Group) -> Option<usize> {
    own_index(OWN_GROUP_KIND, group)
}

/// The handle of the request the one-process world keeps at `index`.
pub fn own_request(index: usize) -> Option<MPI_Request> {
    own_indexed(OWN_REQUEST_KIND, index)
}

/// The index of a request [`own_request`] made.
pub fn own_request_index(request: MPI_Request) -> Option<usize> {
    own_index(OWN_REQUEST_KIND, request)
}

/// The handle of the matched message the one-process world keeps at `index`.
pub fn own_message(index: usize) -> Option<MPI_Message> {
    own_indexed(OWN_MESSAGE_KIND, index)
}

/// The index of a message [`own_message`] made.
pub fn own_message_index(message: MPI_Message) -> Option<usize> {
    own_index(OWN_MESSAGE_KIND, message)
}

/// `kind | index`, if the index fits.
fn own_indexed(kind: i32, index: usize) -> Option<c_int> {
    (index <= OWN_INDEX_MASK as usize).then_some(kind | index as i32)
}

/// The index of `kind | index`.
fn own_index(kind: i32, handle: c_int) -> Option<usize> {
    (handle & KIND_MASK == kind).then_some((handle & OWN_INDEX_MASK) as usize)
}

/// MPICH's `MPI_TYPE_DUP_FN` is a real function (`MPIR_Type_dup_fn`): no sentinel to
/// recognise.
pub fn is_dup_fn_sentinel(_callback: super::MPI_Type_copy_attr_function) -> bool {
    false
}

/// The handle of the error handler made `index`-th by `MPI_Comm_create_errhandler`: the
/// numbers from `MPI_ERRORS_ARE_FATAL + 0x10` on, which MPICH gives no predefined handler.
pub fn user_errhandler(index: usize) -> Option<MPI_Errhandler> {
    c_int::try_from(index)
        .ok()?
        .checked_add(MPI_ERRORS_ARE_FATAL + 0x10)
}

/// The index of an error handler [`user_errhandler`] made.
pub fn user_errhandler_index(handle: MPI_Errhandler) -> Option<usize> {
    usize::try_from(handle.checked_sub(MPI_ERRORS_ARE_FATAL + 0x10)?).ok()
}

/// Maps a combiner of MPI-1 (`MPI_COMBINER_HVECTOR_INTEGER` and kin, which MPICH reports for
/// the MPI-1 constructors) to the one that replaced it; every other combiner to itself.
pub fn current_combiner(combiner: c_int) -> c_int {
    match combiner {
        MPI_COMBINER_HVECTOR_INTEGER => MPI_COMBINER_HVECTOR,
        MPI_COMBINER_HINDEXED_INTEGER => MPI_COMBINER_HINDEXED,
        MPI_COMBINER_STRUCT_INTEGER => MPI_COMBINER_STRUCT,
        other => other,
    }
}

/// The version of the standard ABI this build speaks: none, -1.-1, as MPICH's `libmpi.so.12`
/// answers `MPI_Abi_get_version`.
pub fn standard_abi_version() -> (c_int, c_int) {
    (-1, -1)
}

/// The handle of the info object made `index`-th standalone (`0x9c000000 | index`, MPICH's
/// kind of info handles).
pub fn own_info(index: usize) -> Option<MPI_Info> {
    (index < 1 << 26).then_some(0x9c00_0000u32 as i32 | index as i32)
}

/// The index of an info object [`own_info`] made.
pub fn own_info_index(info: MPI_Info) -> Option<usize> {
    (info as u32 & 0xfc00_0000 == 0x9c00_0000).then_some((info & 0x03ff_ffff) as usize)
}

/// The name of this ABI, for messages.
pub const ABI_NAME: &str = "MPICH's ABI";

/// The symbol that tells an MPI library of this ABI, defined by the same object as its
/// `MPI_Init`: `MPIR_Dup_fn`, which every library of MPICH's ABI exports (its `mpi.h` defines
/// `MPI_DUP_FN` as that function; Open MPI does not).
pub const BEHIND_MARK: &std::ffi::CStr = c"MPIR_Dup_fn";

/// True if the library whose [`BEHIND_MARK`] is at `address` speaks this ABI: exporting the
/// symbol says so.
pub fn behind_speaks_this_abi(_address: usize) -> bool {
    true
}

/// MPICH's ABI has no objects of the MPI behind to take over (its predefined handles are
/// numbers): nothing to do when the MPI library behind is found.
pub fn adopt_objects(_behind: usize) {}

/// The handle whose [`handle_bits`] are `bits`.
pub fn handle_from_bits(bits: u64) -> MPI_Datatype {
    MPI_Datatype(bits as u32 as c_int)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_byte_count_and_cancelled_flag_round_trip() {
        let mut s = MPI_Status::default();
        for bytes in [0i64, 1, 0x7fff_ffff, 0x1_0000_0000, 0x7_1234_5678] {
            for cancelled in [false, true] {
                s.set_cancelled(cancelled);
                s.set_count_bytes(bytes);
                assert_eq!((s.count_bytes(), s.cancelled()), (bytes, cancelled));
            }
        }
    }

    #[test]
    fn own_handles_round_trip_and_never_look_like_mpichs() {
        for (slot, generation) in [(1, 0), (4095, GENERATIONS - 1), ((1 << SLOT_BITS) - 1, 7)] {
            let handle = own_handle(slot, generation);
            assert_eq!(own_parts(handle), Some((slot, generation)));
            assert!(!has_behind_form(handle) && !has_predefined_form(handle));
        }
        assert_eq!(own_parts(MPI_DATATYPE_NULL), None);
        assert_eq!(predefined_index(MPI_DOUBLE), Some(0x0b));
        assert_eq!(internal_alias(MPI_Datatype(0x4c80_080b)), Some(MPI_DOUBLE));
    }
}
