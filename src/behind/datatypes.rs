//! Datatype arguments on their way to the MPI behind: every call this library makes there
//! ([`forward!`](super::forward)) passes each argument through [`for_behind!`], which leaves
//! it as it is unless it is a datatype handle of this library's own form. Such a handle (a
//! type made while no MPI was initialized behind this one) names nothing in that library:
//! it becomes the handle of its type there, made at that first call
//! ([`translate_with`] says how; the drop-in layer does).

use crate::abi::{self, MPI_Datatype};
use std::sync::OnceLock;

/// How a handle of this library's own form becomes one of the MPI behind, once the drop-in
/// layer has said it ([`translate_with`]).
static TRANSLATION: OnceLock<fn(MPI_Datatype) -> MPI_Datatype> = OnceLock::new();

/// Makes `translation` the way handles of this library's own form become handles of the MPI
/// behind (the first one given stays).
pub fn translate_with(translation: fn(MPI_Datatype) -> MPI_Datatype) {
    // A second call gives the same function: the first stays.
    let _ = TRANSLATION.set(translation);
}

/// The handle the MPI behind takes for the datatype handle `handle`: itself, unless it has
/// this library's own form (one bit test) and a translation is known.
#[inline(always)]
pub fn datatype_for_behind(handle: MPI_Datatype) -> MPI_Datatype {
    if abi::own_parts(handle).is_none() {
        return handle;
    }
    match TRANSLATION.get() {
        Some(translation) => translation(handle),
        None => handle,
    }
}

/// An argument of a call of the MPI behind, as [`for_behind!`] looks at it.
pub struct Arg<T>(pub T);

/// A datatype argument: [`datatype_for_behind`].
pub trait DatatypeArg {
    /// The argument the MPI behind takes.
    fn for_behind(self) -> MPI_Datatype;
}

impl DatatypeArg for &&Arg<MPI_Datatype> {
    #[inline(always)]
    fn for_behind(self) -> MPI_Datatype {
        datatype_for_behind(self.0)
    }
}

/// Any other argument: as it is.
pub trait OtherArg<T> {
    /// The argument the MPI behind takes.
    fn for_behind(self) -> T;
}

impl<T: Copy> OtherArg<T> for &Arg<T> {
    #[inline(always)]
    fn for_behind(self) -> T {
        self.0
    }
}

/// The argument `$arg` (of a known type) as the MPI behind takes it: a datatype handle
/// through [`datatype_for_behind`], anything else as it is. The datatype's impl is on
/// `&&Arg`, the others' on `&Arg`, so a datatype finds its own first.
macro_rules! for_behind {
    ($arg:expr) => {{
        #[allow(unused_imports)]
        use $crate::behind::datatypes::{DatatypeArg as _, OtherArg as _};
        (&&$crate::behind::datatypes::Arg($arg)).for_behind()
    }};
}
pub(crate) use for_behind;
