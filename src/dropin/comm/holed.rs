//! Receives of bytes over an MPI that writes a whole message past the end of a contiguous
//! receive buffer too short for it ([`Traits::overruns_short_receives`]: Open MPI 4.1 and
//! 5.0, when the message was sent from contiguous memory and is long enough for their
//! rendezvous protocol). Where the engine receives such a message as bytes, a truncated
//! receive would write past its landing buffer. So there a receive of `len` bytes takes one
//! copy of a type of `len` bytes with a hole of one byte before the last,
//! `hindexed(2, [len - 1, 1], [0, len])` of `MPI_BYTE`: the MPI unpacks into it piece by
//! piece and stops at its end, reporting the truncation, and the last byte lands one place
//! further on, which the landing buffer moves back before the engine unpacks
//! ([`Buffer::take_holed`]).
//!
//! [`Traits::overruns_short_receives`]: super::route::Traits::overruns_short_receives
//! [`Buffer::take_holed`]: super::pool::Buffer::take_holed

use crate::abi::MPI_BYTE;
use crate::dropin::behind_types as types;
use crate::dropin::twin::{self, Held};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

/// The types made, by length: receives of the same length (a halo exchange's) share one.
static MADE: LazyLock<Mutex<HashMap<usize, Arc<Held>>>> = LazyLock::new(Default::default);

/// The most lengths kept; past it the table is emptied (a type goes when the last receive
/// that holds it is done with it).
const KEPT: usize = 64;

/// The committed type of the MPI behind of `len` bytes (at least 1) with a hole before the
/// last, made at the first receive of that length and held by each receive that takes it
/// until the MPI behind has the receive; `None` if it cannot be made.
pub fn holed_bytes(len: usize) -> Option<Arc<Held>> {
    if let Some(made) = MADE.lock().get(&len) {
        return Some(made.clone());
    }
    let bytes = i64::try_from(len).ok().filter(|&l| l >= 1)?;
    let made = Held(types::hindexed(&[bytes - 1, 1], &[0, bytes], MPI_BYTE).ok()?);
    twin::commit(made.handle()).ok()?;
    let mut kept = MADE.lock();
    if kept.len() >= KEPT {
        kept.clear();
    }
    // Another thread may have made one meanwhile: the one kept serves both.
    Some(kept.entry(len).or_insert_with(|| Arc::new(made)).clone())
}

/// Lets the types made go (each when the last receive holding it is done), before the MPI
/// behind finalizes.
pub fn release_all() {
    MADE.lock().clear();
}
