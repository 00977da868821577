//! Generalized requests (`MPI_Grequest_start`): operations the program carries out itself,
//! whose completion it reports with `MPI_Grequest_complete`. The world keeps each one as a
//! request; the program's three callbacks are called here, outside the world's lock, as
//! MPI-4.1 §13.2 says: the query callback fills the status when a completion call reports the
//! request, the free callback runs when the request is freed after it completed, and the
//! cancel callback runs at `MPI_Cancel`.

use super::mailbox::Outcome;
use crate::abi::{
    MPI_Grequest_cancel_function, MPI_Grequest_free_function, MPI_Grequest_query_function,
    MPI_Status, MPI_SUCCESS,
};
use crate::error::{MpiError, MpiResult};
use std::ffi::c_void;
use std::os::raw::c_int;

/// The program's callbacks of a generalized request and their extra state.
#[derive(Debug)]
pub struct Generalized {
    /// Fills the status of the completed request.
    pub query: MPI_Grequest_query_function,
    /// Frees what the program keeps for the request.
    pub free: MPI_Grequest_free_function,
    /// Cancels the operation.
    pub cancel: MPI_Grequest_cancel_function,
    /// The `extra_state` argument of each (an address the program gave).
    pub extra_state: usize,
}

/// The error of a callback that returned `code`: the code is the program's, and its class
/// is the error's.
fn callback_error(code: c_int, which: &str) -> MpiError {
    let class = crate::error::class_of(code).unwrap_or(code);
    MpiError::new(
        class,
        format!("the generalized request's {which} callback returned error {code}"),
    )
}

impl Generalized {
    /// The outcome the query callback reports: the status it fills (its source, tag, count
    /// and cancelled flag), or the error it returns.
    pub fn query(&self) -> Outcome {
        // SAFETY: MPI_Status is plain integers, for which all zeros is a valid value.
        let mut status: MPI_Status = unsafe { std::mem::zeroed() };
        let code = match self.query {
            // SAFETY: the program registered the callback for exactly this call.
            Some(query) => unsafe { query(self.extra_state as *mut c_void, &mut status) },
            None => MPI_SUCCESS,
        };
        Outcome {
            error: (code != MPI_SUCCESS).then(|| callback_error(code, "query")),
            ..Outcome::from_status(&status)
        }
    }

    /// Runs the free callback.
    pub fn free(&self) -> MpiResult<()> {
        // SAFETY: the program registered the callback for exactly this call.
        let code = self.free.map_or(MPI_SUCCESS, |free| unsafe {
            free(self.extra_state as *mut c_void)
        });
        match code {
            MPI_SUCCESS => Ok(()),
            code => Err(callback_error(code, "free")),
        }
    }

    /// Runs the cancel callback; `complete` says whether `MPI_Grequest_complete` was called.
    pub fn cancel(&self, complete: bool) -> MpiResult<()> {
        // SAFETY: the program registered the callback for exactly this call.
        let code = self.cancel.map_or(MPI_SUCCESS, |cancel| unsafe {
            cancel(self.extra_state as *mut c_void, c_int::from(complete))
        });
        match code {
            MPI_SUCCESS => Ok(()),
            code => Err(callback_error(code, "cancel")),
        }
    }
}
