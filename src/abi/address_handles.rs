//! This library's own handles in the ABIs whose handles are addresses: the MPI-5.0 standard
//! ABI's ([`super`] with `standard-abi`) and Open MPI's (`ompi-abi`).
//!
//! Each kind of object this library makes (datatypes, and the one-process world's
//! communicators, groups, requests, ...) gets a tag in bits 48..63 of its handles, a pattern
//! no x86-64 or AArch64 user-space address has (those addresses are below 2^48) and no small
//! integer has, so an own handle never equals a predefined handle (a small integer in the
//! standard ABI, the address of an object in Open MPI's) nor any pointer the MPI behind hands
//! out. Below the tag sits an index; a datatype's index is `generation << SLOT_BITS | slot`.

use std::os::raw::c_int;

/// A handle type of an ABI whose handles are addresses, seen as its address-sized number.
pub trait AddressHandle: Copy {
    /// The handle whose number is `bits`.
    fn from_bits(bits: usize) -> Self;
    /// The handle's number.
    fn bits(self) -> usize;
}

/// Declares the handle types of an ABI whose handles are addresses: for each, the incomplete
/// struct the C handle points to (named as that ABI's header names it) and the library's
/// `#[repr(transparent)]` newtype over `usize`.
///
/// A `usize` rather than a raw pointer: the library never dereferences a handle, neither its
/// own nor one of the MPI behind it, so a handle is a key, and a newtype over `usize` is
/// `Copy + Eq + Ord + Hash + Send + Sync` without wrappers or `unsafe impl`s. On every target
/// these ABIs are built for, `uintptr_t` and a data pointer have the same size, alignment and
/// calling-convention class, so the newtype is passed and stored exactly as C's pointer (the
/// ABI modules' tests check size and alignment).
macro_rules! address_handle_types {
    ($($(#[doc = $doc:literal])* $name:ident => $opaque:ident;)*) => {$(
        /// The incomplete struct a C handle of this kind points to. It has no fields and is
        /// never created or dereferenced: only its name matters (C++ mangles it into the
        /// names of functions that take the handle).
        #[repr(C)]
        pub struct $opaque {
            _private: [u8; 0],
        }

        $(#[doc = $doc])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub struct $name(pub usize);

        impl super::address_handles::AddressHandle for $name {
            fn from_bits(bits: usize) -> Self {
                Self(bits)
            }

            fn bits(self) -> usize {
                self.0
            }
        }

        impl std::fmt::LowerHex for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::LowerHex::fmt(&self.0, f)
            }
        }
    )*};
}

/// The tag of this library's datatype handles.
const DATATYPE_TAG: usize = 0x4d44 << 48;
/// The bits of the tag.
const TAG_MASK: usize = 0xffff << 48;
/// The bits below the tag.
const INDEX_MASK: usize = (1 << 48) - 1;
/// The bits of a slot in a datatype handle.
const SLOT_MASK: usize = (1 << SLOT_BITS) - 1;
/// The tag of the `int`s [`own_to_int`] gives datatype handles: positive, and above every
/// predefined handle's `int` of either ABI.
const OWN_INT_TAG: c_int = 1 << 30;

/// Bits of a slot index in one of this library's datatype handles: up to 2^22 - 1 types alive
/// at once.
pub const SLOT_BITS: u32 = 22;
/// Generations a slot goes through before its handles repeat.
pub const GENERATIONS: u32 = 64;

/// The tags of the objects of the one-process world, one per kind.
pub mod tag {
    /// Operations `MPI_Op_create` makes.
    pub const OP: usize = 0x4d4f << 48;
    /// Sessions.
    pub const SESSION: usize = 0x4d53 << 48;
    /// Windows.
    pub const WIN: usize = 0x4d57 << 48;
    /// Communicators.
    pub const COMM: usize = 0x4d43 << 48;
    /// Groups.
    pub const GROUP: usize = 0x4d47 << 48;
    /// Requests.
    pub const REQUEST: usize = 0x4d52 << 48;
    /// Matched messages.
    pub const MESSAGE: usize = 0x4d4d << 48;
    /// Open files (the standard ABI's build only).
    #[allow(dead_code)]
    pub const FILE: usize = 0x4d46 << 48;
    /// Error handlers `MPI_*_create_errhandler` makes (an index below 2^24 under the
    /// datatypes' tag, bit 40 set).
    pub const ERRHANDLER: usize = super::DATATYPE_TAG | 1 << 40;
    /// Info objects (as error handlers, bit 41).
    pub const INFO: usize = super::DATATYPE_TAG | 2 << 40;
}

/// The bits below [`tag::ERRHANDLER`] and [`tag::INFO`]: indexes below 2^24.
const SMALL_INDEX_MASK: usize = (1 << 24) - 1;

/// The handle of kind `tag` at `index`, if the index fits.
pub fn tagged<H: AddressHandle>(tag: usize, index: usize) -> Option<H> {
    let mask = index_mask(tag);
    (index <= mask).then(|| H::from_bits(tag | index))
}

/// The index of a handle [`tagged`] made with `tag`.
pub fn index_of<H: AddressHandle>(tag: usize, handle: H) -> Option<usize> {
    let mask = index_mask(tag);
    (handle.bits() & !mask == tag).then_some(handle.bits() & mask)
}

/// The index bits below `tag`.
fn index_mask(tag: usize) -> usize {
    if tag & !TAG_MASK == 0 {
        INDEX_MASK
    } else {
        SMALL_INDEX_MASK
    }
}

/// This library's datatype handle of the slot `slot` (at least 1) in its generation
/// `generation`.
pub fn own_handle<H: AddressHandle>(slot: usize, generation: u32) -> H {
    H::from_bits(DATATYPE_TAG | ((generation % GENERATIONS) as usize) << SLOT_BITS | slot)
}

/// The slot and generation one of this library's datatype handles names, if it has that
/// form.
#[inline(always)]
pub fn own_parts<H: AddressHandle>(handle: H) -> Option<(usize, u32)> {
    let value = handle.bits();
    let slot = value & SLOT_MASK;
    let generation = (value & !TAG_MASK) >> SLOT_BITS;
    let own = value & TAG_MASK == DATATYPE_TAG && slot != 0 && generation < GENERATIONS as usize;
    own.then_some((slot, generation as u32))
}

/// True if `handle` carries the tag of this library's datatype handles.
#[inline(always)]
pub fn has_own_tag<H: AddressHandle>(handle: H) -> bool {
    handle.bits() & TAG_MASK == DATATYPE_TAG
}

/// `MPI_Type_toint` of one of this library's datatype handles:
/// `OWN_INT_TAG | generation << SLOT_BITS | slot`.
pub fn own_to_int<H: AddressHandle>(handle: H) -> Option<c_int> {
    let (slot, generation) = own_parts(handle)?;
    Some(OWN_INT_TAG | (generation << SLOT_BITS) as c_int | slot as c_int)
}

/// `MPI_Type_fromint` of an `int` [`own_to_int`] gave; `None` for any other value.
pub fn own_from_int<H: AddressHandle>(value: c_int) -> Option<H> {
    let fields = ((GENERATIONS - 1) << SLOT_BITS) as c_int | SLOT_MASK as c_int;
    if value & !(fields | OWN_INT_TAG) != 0 || value & OWN_INT_TAG == 0 {
        return None;
    }
    let slot = value as usize & SLOT_MASK;
    let generation = ((value & !OWN_INT_TAG) >> SLOT_BITS) as u32;
    (slot != 0 && generation < GENERATIONS).then(|| own_handle(slot, generation))
}

/// Defines, in an ABI module whose handle types implement [`AddressHandle`], the functions
/// that make and read the handles of the one-process world's objects (`own_comm`,
/// `own_comm_index`, ... `user_errhandler`, `own_info`), each kind under its [`tag`].
macro_rules! world_handles {
    () => {
        world_handles! {
            /// The handle of the operation the one-process world keeps at `index`.
            own_op, own_op_index: MPI_Op = OP;
            /// The handle of the session the one-process world keeps at `index`.
            own_session, own_session_index: MPI_Session = SESSION;
            /// The handle of the window the one-process world keeps at `index`.
            own_win, own_win_index: MPI_Win = WIN;
            /// The handle of the communicator the one-process world keeps at `index`.
            own_comm, own_comm_index: MPI_Comm = COMM;
            /// The handle of the group the one-process world keeps at `index`.
            own_group, own_group_index: MPI_Group = GROUP;
            /// The handle of the request the one-process world keeps at `index`.
            own_request, own_request_index: MPI_Request = REQUEST;
            /// The handle of the matched message the one-process world keeps at `index`.
            own_message, own_message_index: MPI_Message = MESSAGE;
            /// The handle of the error handler made `index`-th by
            /// `MPI_Comm_create_errhandler` and its kin.
            user_errhandler, user_errhandler_index: MPI_Errhandler = ERRHANDLER;
            /// The handle of the info object made `index`-th standalone.
            own_info, own_info_index: MPI_Info = INFO;
            /// The handle of the file the one-process world keeps open at `index`.
            own_file, own_file_index: MPI_File = FILE;
        }
    };
    ($($(#[doc = $doc:literal])* $make:ident, $index:ident: $ty:ident = $tag:ident;)*) => {$(
        $(#[doc = $doc])*
        pub fn $make(index: usize) -> Option<$ty> {
            super::address_handles::tagged(super::address_handles::tag::$tag, index)
        }

        /// The index of a handle the function of the same kind made.
        pub fn $index(handle: $ty) -> Option<usize> {
            super::address_handles::index_of(super::address_handles::tag::$tag, handle)
        }
    )*};
}
