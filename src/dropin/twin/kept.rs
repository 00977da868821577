//! What the drop-in layer keeps with each datatype object (in its [`Attached`] state, made the
//! first time the layer needs it): the object's twin, the type its messages take on the MPI
//! behind's path, and which path they take. All of it goes with the object.
//!
//! [`Attached`]: crate::datatype::Attached

use crate::datatype::Datatype;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// A reference to a datatype of the MPI library behind, kept with a [`Datatype`] and given
/// back through `release` when the datatype goes. It keeps the handle as bits (the ABI's
/// `handle_bits` and its inverse).
#[derive(Debug)]
pub struct Shadow {
    /// The bits of the other library's handle.
    pub handle_bits: u64,
    /// Whether the type was committed before it was kept here. A kept type is never committed
    /// afterwards: other threads may be building on it, and a commit changes the object (Open
    /// MPI does not lock it).
    pub committed: bool,
    /// Gives the reference back (does nothing for a type that cannot be freed).
    pub release: fn(u64),
}

impl Drop for Shadow {
    fn drop(&mut self) {
        (self.release)(self.handle_bits)
    }
}

/// The paths of a datatype's messages in drop-in mode, on each side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessagePaths {
    /// Sends pack with this library's engine (else the MPI behind moves the data).
    pub engine_send: bool,
    /// Receives land as bytes that this library's engine unpacks.
    pub engine_receive: bool,
    /// Receives on the MPI's path land through the type's byte twin
    /// ([`super::byte_twin`]) instead of its twin.
    pub byte_twin_receive: bool,
    /// The engine's sends give the MPI behind the packed bytes as copies of the type's
    /// stream type ([`super::stream_type`]) instead of `MPI_BYTE`s, so that it cuts them
    /// between entries for a receiver that receives with a type whose entries differ in size.
    pub stream_send: bool,
    /// In `auto` over an MPI whose eager sends of twins are fast, messages of at most
    /// [`STRIDED_ENGINE_BYTES`](crate::dropin::comm::route::STRIDED_ENGINE_BYTES) take the
    /// engine's path on both sides whatever the rules for larger ones say: the type's layout
    /// is strided, it is more than one run, and the engine's sends of it go as bytes that its
    /// twin takes in any piece, or as its stream type.
    pub small_on_engine: bool,
}

/// What the drop-in layer keeps with one datatype object.
#[derive(Debug, Default)]
pub struct Kept {
    /// The type with the same type map in the MPI library behind, made the first time it is
    /// needed ([`super`]) and released with the datatype.
    pub twin: OnceLock<Shadow>,
    /// The type of the MPI library behind that point-to-point messages of this type take on
    /// that library's path instead of its twin, built from the plan at the first message that
    /// takes it ([`super::for_messages`] or [`super::byte_twin`]); `None` inside when it has
    /// none.
    pub message_twin: OnceLock<Option<Shadow>>,
    /// The committed twin (of an f90 type, a committed copy of it) that point-to-point
    /// messages of this type take on the MPI library's path where no other stand-in serves
    /// ([`super::message_copy`]), committed at the first such message; `None` inside when it
    /// could not be made. It releases nothing where it is the twin itself, which `twin` holds.
    pub message_copy: OnceLock<Option<Shadow>>,
    /// The type of the MPI library behind that describes the packed bytes of one copy of this
    /// type, which the engine's sends give that library ([`super::stream_type`]), made at the
    /// first such send; `None` inside when it has none.
    pub stream_type: OnceLock<Option<Shadow>>,
    /// Which path point-to-point messages of this type take in drop-in mode, decided at its
    /// first message ([`crate::dropin::comm::route`]).
    pub message_paths: OnceLock<MessagePaths>,
    /// Whether a message of this type that `auto` gives the MPI's path for its size alone (a
    /// small message, sent eagerly) was sent already, and received already: the first one on
    /// each side takes the engine's path, which needs no twin ([`crate::dropin::comm::route`]).
    pub small_message_seen: [AtomicBool; 2],
}

impl Kept {
    /// True the first time it is asked for `side` (0: sends, 1: receives), from any thread,
    /// and never again; one load each time after that.
    pub fn first_small_message(&self, side: usize) -> bool {
        let seen = &self.small_message_seen[side];
        !seen.load(Ordering::Relaxed) && !seen.swap(true, Ordering::Relaxed)
    }
}

/// What the drop-in layer keeps with `datatype`, made empty the first time it is asked for.
pub fn kept(datatype: &Datatype) -> &Kept {
    datatype
        .attached
        .get_or_init(Kept::default)
        .expect("only the drop-in layer attaches state to a datatype")
}
