//! The large-count (`_c`) functions of communication over an MPI library behind that has
//! none (Open MPI 4.1 and 5.0 have MPI 3.1's interface): each calls that library's `int`
//! function of the same name instead ([`int_form!`]).
//!
//! Each argument becomes one of the `int` function ([`IntArg`]): a count is narrowed to an
//! `int`, an array of counts or displacements is copied as `int`s (the call says how many
//! entries each holds, [`Narrowing::new`]), an output the `int` function writes as an `int`
//! is written back widened, the function of an operation gets an `int` length
//! ([`super::op_functions`]), anything else passes as it is. A message of more
//! copies than an `int` counts goes as one copy of a type the MPI behind builds of them all
//! ([`Narrowing::message`], [`crate::dropin::whole_message`]); any other count that does not
//! fit is an error of class `MPI_ERR_COUNT`. What the `int` function was given lives until
//! the call completes: its return, or the completion of the request it made.

use crate::abi::MPI_File;
use crate::abi::{MPI_Comm, MPI_Datatype, MPI_Win, MPI_ERR_INTERN, MPI_SUCCESS};
use crate::abi::{MPI_User_function, MPI_User_function_c};
use crate::behind::forward;
use crate::dropin::comm::blocks::{root_and_partners, Exchange, Partners};
use crate::dropin::comm::collective::{keep_until_complete, After};
use crate::dropin::twin::Held;
use crate::dropin::whole_message::whole;
use crate::error::{MpiError, MpiResult};
use std::os::raw::c_int;

/// An argument of a `_c` function as the `int` function of the same name takes it (`T`).
pub trait IntArg<T> {
    /// The argument for the `int` function; arrays copied live in `narrowing`.
    fn int_arg(self, narrowing: &mut Narrowing) -> MpiResult<T>;
}

/// An argument of the same type in both functions passes as it is.
impl<T> IntArg<T> for T {
    fn int_arg(self, _: &mut Narrowing) -> MpiResult<T> {
        Ok(self)
    }
}

/// A count (or displacement) the `int` function takes as an `int`.
impl IntArg<c_int> for i64 {
    fn int_arg(self, _: &mut Narrowing) -> MpiResult<c_int> {
        narrowed(self)
    }
}

/// An array of counts (or displacements) the `int` function takes as `int`s.
impl IntArg<*const c_int> for *const i64 {
    fn int_arg(self, narrowing: &mut Narrowing) -> MpiResult<*const c_int> {
        narrowing.array(self)
    }
}

/// An output the `int` function writes as an `int`, written back widened when it succeeded.
impl IntArg<*mut c_int> for *mut i64 {
    fn int_arg(self, narrowing: &mut Narrowing) -> MpiResult<*mut c_int> {
        if self.is_null() {
            return Ok(self.cast());
        }
        let mut written = Box::new(0);
        let address: *mut c_int = &mut *written;
        narrowing.outputs.push((self, written));
        Ok(address)
    }
}

/// The program's function of an operation, which the `int` function calls with an `int`
/// length ([`super::op_functions`]).
impl IntArg<MPI_User_function> for MPI_User_function_c {
    fn int_arg(self, _: &mut Narrowing) -> MpiResult<MPI_User_function> {
        super::op_functions::int_function(self)
    }
}

/// `value` as an `int`, or the error of a count the MPI behind cannot take.
fn narrowed(value: i64) -> MpiResult<c_int> {
    crate::dropin::behind_types::narrowed(value, "functions of communication")
}

/// What the `int` form of one call was given beyond its own arguments.
#[derive(Default)]
pub struct Narrowing {
    /// The entries of each array argument still to be narrowed, in the order of the arguments.
    widths: Vec<usize>,
    /// The arrays narrowed.
    arrays: Vec<Vec<c_int>>,
    /// The types made for whole messages.
    wholes: Vec<Held>,
    /// The program's outputs, and the `int` written in place of each.
    outputs: Vec<(*mut i64, Box<c_int>)>,
}

impl Narrowing {
    /// A narrowing for a call whose array arguments narrowed hold `widths` entries, in their
    /// order (0 for an array the call does not read here).
    pub fn new(widths: &[usize]) -> Narrowing {
        Narrowing {
            widths: widths.iter().rev().copied().collect(),
            ..Narrowing::default()
        }
    }

    /// The count and datatype the `int` function takes for a message of `count` copies of
    /// `datatype` (a handle of the MPI behind): the same when the count fits an `int`, else
    /// one copy of a type of them all.
    pub fn message(
        &mut self,
        count: i64,
        datatype: MPI_Datatype,
    ) -> MpiResult<(i64, MPI_Datatype)> {
        if c_int::try_from(count).is_ok() {
            return Ok((count, datatype));
        }
        let whole = whole(count, datatype)?;
        let handle = whole.handle();
        self.wholes.push(whole);
        Ok((1, handle))
    }

    /// `array`'s entries as `int`s, in an array kept here (NULL for NULL, and for an array the
    /// call does not read here, of width 0).
    fn array(&mut self, array: *const i64) -> MpiResult<*const c_int> {
        let width = self.widths.pop().ok_or_else(|| {
            MpiError::new(MPI_ERR_INTERN, "an array argument has no width".to_string())
        })?;
        if array.is_null() || width == 0 {
            return Ok(std::ptr::null());
        }
        // SAFETY: the program's array holds `width` entries, as the MPI function requires.
        let entries = unsafe { std::slice::from_raw_parts(array, width) };
        let ints = entries
            .iter()
            .map(|&v| narrowed(v))
            .collect::<MpiResult<Vec<_>>>()?;
        let address = ints.as_ptr();
        self.arrays.push(ints);
        Ok(address)
    }

    /// True if nothing was made or copied.
    fn is_empty(&self) -> bool {
        self.arrays.is_empty() && self.wholes.is_empty()
    }

    /// Writes each output the `int` function wrote into the program's, widened.
    fn write_outputs(&mut self) {
        for (output, written) in self.outputs.drain(..) {
            // SAFETY: the program's output, non-NULL, as the MPI function requires.
            unsafe { output.write(i64::from(*written)) };
        }
    }
}

// SAFETY: the arrays and types are only held, to be dropped by whichever thread completes
// the request.
unsafe impl Send for Narrowing {}

/// Where the error of a call is raised: on its communicator or window (the MPI behind calls
/// the handler set on it), or, for a call on neither, on the handler in force.
#[derive(Clone, Copy)]
pub enum On {
    /// A communicator.
    Comm(MPI_Comm),
    /// A window.
    Win(MPI_Win),
    /// An open file.
    File(MPI_File),
    /// None of these.
    Process,
}

/// Raises `error` of `function` on `on`; its error code.
fn raise(function: &'static str, error: MpiError, on: On) -> c_int {
    let code = || crate::ffi::error_code(function, &error);
    match on {
        On::Process => crate::ffi::raise(function, error),
        On::Comm(comm) => {
            let code = code();
            forward!(PMPI_Comm_call_errhandler: fn(MPI_Comm, c_int) -> c_int, comm, code);
            code
        }
        On::Win(win) => {
            let code = code();
            forward!(PMPI_Win_call_errhandler: fn(MPI_Win, c_int) -> c_int, win, code);
            code
        }
        On::File(file) => {
            let code = code();
            forward!(PMPI_File_call_errhandler: fn(MPI_File, c_int) -> c_int, file, code);
            code
        }
    }
}

/// The answer of `function`, a `_c` function, from `body`, which calls the MPI behind's
/// `int` function of its name with the arguments a [`Narrowing`] of `widths` makes: `None`
/// where that library lacks it too, an error raised on `on` where an argument does not fit.
/// The narrowed arguments of a call that made a request stay with it until it completes
/// (`after`: each time, for a persistent request, until it is freed).
pub fn call(
    function: &'static str,
    (on, widths): (On, &[usize]),
    after: After,
    body: impl FnOnce(&mut Narrowing) -> MpiResult<Option<c_int>>,
) -> Option<c_int> {
    let mut narrowing = Narrowing::new(widths);
    match body(&mut narrowing) {
        Ok(Some(rc)) => {
            if rc == MPI_SUCCESS {
                narrowing.write_outputs();
                if !narrowing.is_empty() {
                    // SAFETY: the MPI behind wrote the request it made when it succeeded.
                    unsafe { keep_until_complete(narrowing, after) };
                }
            }
            Some(rc)
        }
        Ok(None) => None,
        Err(error) => Some(raise(function, error, on)),
    }
}

/// The entries of each array of counts or displacements the `int` form of `function` (a
/// collective's `_c` function, nonblocking or persistent or not) takes as `int`s, in their
/// order, for a call over `comm` with root `root` (if it has one) sending from `sendbuf`
/// (with `MPI_IN_PLACE`, the send side's arrays are not read).
pub fn widths(
    function: &str,
    comm: MPI_Comm,
    root: Option<c_int>,
    sendbuf: *const std::ffi::c_void,
) -> Vec<usize> {
    let lower = function.to_ascii_lowercase();
    let name = lower.trim_start_matches("mpi_").trim_end_matches("_c");
    let name = name.trim_end_matches("_init");
    // The nonblocking form's name starts with an `i`.
    let name = name
        .strip_prefix('i')
        .filter(|rest| WITH_ARRAYS.contains(rest))
        .unwrap_or(name);
    let sends = !super::varying_engine::is_in_place(sendbuf);
    let (sent, received) = match name.starts_with("neighbor") {
        true => blocks(comm, Exchange::Neighbours),
        false if name.starts_with("all") => blocks(comm, Exchange::Everyone),
        false => (0, 0),
    };
    let sent = if sends { sent } else { 0 };
    match name {
        "reduce_scatter" => vec![group_size(comm)],
        "gatherv" | "scatterv" => vec![at_root(root.unwrap_or(-1), comm); 2],
        "allgatherv" | "neighbor_allgatherv" => vec![received; 2],
        "alltoallv" | "alltoallw" | "neighbor_alltoallv" => vec![sent, sent, received, received],
        // Its displacements are `MPI_Aint`s in both forms.
        "neighbor_alltoallw" => vec![sent, received],
        _ => Vec::new(),
    }
}

/// The collectives whose `int` forms take arrays of counts (lower case, without `MPI_`).
const WITH_ARRAYS: [&str; 9] = [
    "reduce_scatter",
    "gatherv",
    "scatterv",
    "allgatherv",
    "alltoallv",
    "alltoallw",
    "neighbor_allgatherv",
    "neighbor_alltoallv",
    "neighbor_alltoallw",
];

/// The processes of `comm`'s group (of the local group of an intercommunicator): the entries
/// of `MPI_Reduce_scatter`'s counts.
pub fn group_size(comm: MPI_Comm) -> usize {
    let mut size: c_int = 0;
    forward!(MPI_Comm_size: fn(MPI_Comm, *mut c_int) -> c_int, comm, &mut size);
    size.max(0) as usize
}

/// The blocks each side of a collective exchanging with `with` over `comm` moves: `(sent,
/// received)`, one per process (of the remote group of an intercommunicator) or per
/// neighbour; `(0, 0)` where `comm` is no such communicator (the MPI behind reports it).
pub fn blocks(comm: MPI_Comm, with: Exchange) -> (usize, usize) {
    Partners::of(comm, with).map_or((0, 0), |p| (p.outgoing, p.incoming))
}

/// The blocks the root of a rooted collective over `comm` moves (0 at another process).
pub fn at_root(root: c_int, comm: MPI_Comm) -> usize {
    match root_and_partners(root, comm) {
        Some((true, n)) => n.max(0) as usize,
        _ => 0,
    }
}

/// `Ok(Some(answer))` of the MPI behind's `int` function `$int` called with the `$arg`s of a
/// `_c` function, each made an argument of `$int` by [`IntArg`] with the [`Narrowing`]
/// `$narrowing` (a datatype first made one of that library, as `forward!` does); `Ok(None)`
/// where that library lacks `$int`. `$int`'s C signature is that of this library's own
/// function of the name.
macro_rules! int_form {
    ($narrowing:expr, $int:ident($($arg:expr),* $(,)?)) => {{
        static CELL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let own: unsafe extern "C" fn($($crate::behind::any_type!($arg)),*) -> std::os::raw::c_int = $int;
        let symbol = $crate::behind::symbol!(stringify!($int));
        match $crate::behind::real_like(own, &CELL, symbol) {
            None => Ok(None),
            Some(f) => {
                let narrowing: &mut $crate::ffi::comm::int_forms::Narrowing = $narrowing;
                let _inside = $crate::behind::Inside::enter();
                // SAFETY: the arguments are the caller's, each as the `int` function takes it.
                Ok(Some(unsafe {
                    f($($crate::ffi::comm::int_forms::IntArg::int_arg($crate::behind::datatypes::for_behind!($arg), narrowing)?),*)
                }))
            }
        }
    }};
}
pub(crate) use int_form;

/// `$rc`, the answer of the MPI behind's `_c` function `$name`, or where that library lacks
/// it (`None`), the answer of its `int` form `$int` (none given: `$rc` as it is) through
/// [`call`]: raising its errors on `$on`, with arrays of the entries `$widths` says, keeping
/// what it made until the call completes (`$after`), and each
/// message (`$count` copies of `$datatype`) made the `$c` and `$t` the `int` form takes.
macro_rules! or_int_form {
    ($rc:expr; $name:ident []; $($rest:tt)*) => {
        $rc
    };
    ($rc:expr; $name:ident [$int:ident]; on $on:ident $(($object:expr))?; $($rest:tt)*) => {
        $crate::ffi::comm::int_forms::or_int_form!($rc; $name [$int];
            on [$crate::ffi::comm::int_forms::On::$on$(($object))?]; $($rest)*)
    };
    (
        $rc:expr; $name:ident [$int:ident];
        on [$on:expr]; widths $widths:expr; after $after:ident $(($request:expr))?;
        messages [$(($c:ident, $t:ident) = ($count:expr, $datatype:expr)),*];
        ($($arg:expr),* $(,)?)
    ) => {
        $rc.or_else(|| $crate::ffi::comm::int_forms::call(
            stringify!($name),
            ($on, $widths),
            $crate::dropin::comm::collective::After::$after$(($request))?,
            |n| {
                $(let ($c, $t) = n.message($count, $datatype)?;)*
                $crate::ffi::comm::int_forms::int_form!(n, $int($($arg),*))
            },
        ))
    };
}
pub(crate) use or_int_form;

#[cfg(test)]
mod tests {
    use super::{IntArg, Narrowing};
    use crate::abi::MPI_ERR_COUNT;
    use std::os::raw::c_int;

    #[test]
    fn counts_narrow_or_fail_with_err_count() {
        let mut n = Narrowing::new(&[]);
        let fits: c_int = IntArg::<c_int>::int_arg(7_i64, &mut n).unwrap();
        assert_eq!(fits, 7);
        let err = IntArg::<c_int>::int_arg(1_i64 << 31, &mut n).unwrap_err();
        assert_eq!(err.class, MPI_ERR_COUNT);
    }

    #[test]
    fn arrays_are_copied_with_their_widths_in_order() {
        let (a, b): ([i64; 3], [i64; 2]) = ([1, 2, 3], [4, 5]);
        let mut n = Narrowing::new(&[3, 0, 2]);
        let first: *const c_int = IntArg::int_arg(a.as_ptr(), &mut n).unwrap();
        // A width of 0: an array the call does not read passes as NULL.
        let unread: *const c_int = IntArg::int_arg(b.as_ptr(), &mut n).unwrap();
        let second: *const c_int = IntArg::int_arg(b.as_ptr(), &mut n).unwrap();
        // SAFETY: the copies live in `n`, of the widths given.
        unsafe {
            assert_eq!(std::slice::from_raw_parts(first, 3), &[1, 2, 3]);
            assert_eq!(std::slice::from_raw_parts(second, 2), &[4, 5]);
        }
        assert!(unread.is_null());
        let too_many = IntArg::<*const c_int>::int_arg(a.as_ptr(), &mut n);
        assert!(too_many.is_err(), "no width is left");
    }

    #[test]
    fn an_entry_that_does_not_fit_fails_the_array() {
        let a: [i64; 2] = [1, i64::from(c_int::MAX) + 1];
        let mut n = Narrowing::new(&[2]);
        let err = IntArg::<*const c_int>::int_arg(a.as_ptr(), &mut n).unwrap_err();
        assert_eq!(err.class, MPI_ERR_COUNT);
    }

    #[test]
    fn outputs_are_written_back_widened() {
        let mut out: i64 = -1;
        let mut n = Narrowing::new(&[]);
        let written: *mut c_int = IntArg::int_arg(&mut out as *mut i64, &mut n).unwrap();
        // SAFETY: the int the output is written as, held by `n`.
        unsafe { written.write(-42) };
        n.write_outputs();
        assert_eq!(out, -42);
    }
}
