//! Open MPI's duplicates of the program's handles, known as the program's types.
//!
//! Where MPICH hands back the program's handle itself, from `MPI_Type_get_contents` of a type
//! it made and (within a type it builds) from `MPI_File_get_view`, Open MPI hands back a
//! duplicate of it, which carries the handle's tag ([`twin::duplicated`]). A duplicate inside
//! a type of the MPI behind that is decoded or imported stands for this library's type
//! ([`original`]); one that reaches the program (a file view's type, say) becomes a handle of
//! this library the first time the program passes it to one ([`adopt`]), as the handle it
//! duplicates would be: its twin is the duplicate itself.

use super::twin;
use crate::abi::MPI_Datatype;
use crate::datatype::Datatype;
use crate::handles;
use std::sync::Arc;

/// This library's type that `duplicated` stands for, and whether it is committed: the type of
/// the handle it duplicates (or, for the MPI behind's `MPI_Type_dup` of it, a duplicate of
/// that type), if the program still holds that handle and the handle is the one tagged, or if
/// the program freed it while the MPI behind still holds it.
fn found(duplicated: &twin::Duplicated) -> Option<(Arc<Datatype>, bool)> {
    let held = handles::with_entry(duplicated.original, |e| (e.datatype.clone(), e.committed));
    let (datatype, committed) = match held {
        Ok(held) => duplicated.is_current().then_some(held)?,
        Err(_) => (twin::retired(duplicated.original)?, true),
    };
    match duplicated.is_dup {
        // A new type, the duplicate of the handle's: `MPI_COMBINER_DUP` of it.
        true => Some((crate::datatype::construct::dup(&datatype), committed)),
        false => Some((datatype, committed)),
    }
}

/// This library's type that `handle`, a datatype of the MPI behind that is no handle of this
/// library, stands for if it is a duplicate of one of the program's handles.
pub fn original(handle: MPI_Datatype) -> Option<Arc<Datatype>> {
    found(&twin::duplicated(handle)?).map(|(datatype, _)| datatype)
}

/// Makes `handle`, a datatype of the MPI behind that is no handle of this library, one of its
/// handles if it is a duplicate of one of the program's ([`original`]); true if it is one now.
/// The program holds the duplicate: it frees it as its own, with its twin.
pub fn adopt(handle: MPI_Datatype) -> bool {
    let Some(duplicated) = twin::duplicated(handle) else {
        return false;
    };
    // Two threads that meet the same duplicate add it once.
    static ADOPTING: parking_lot::Mutex<()> = parking_lot::Mutex::new(());
    let _one_at_a_time = ADOPTING.lock();
    if handles::is_twin(handle) {
        return true;
    }
    let Some((datatype, committed)) = found(&duplicated) else {
        return false;
    };
    if twin::adopt(handle).is_err() || handles::insert(datatype, committed, Some(handle)).is_err() {
        return false;
    }
    // The number is this handle's now, whatever the program freed under it before.
    twin::forget_retired(handle);
    true
}
