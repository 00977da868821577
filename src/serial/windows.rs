//! The windows of one-sided communication in the one-process world: each window's memory,
//! displacement unit, name, error handler, attributes and info, and the state of its
//! synchronisation epochs, with the rules that say which call is allowed when (MPI-4.1
//! §12.5). The one process is every window's only origin and only target, so an operation
//! takes effect when it is called; what is checked is that the program calls it inside an
//! epoch that allows it, as on many processes.

use super::slab::Slab;
use crate::abi::{MPI_Aint, MPI_Errhandler, MPI_ERR_OTHER, MPI_ERR_RMA_SYNC};
use crate::error::{MpiError, MpiResult};
use crate::info::Pairs;
use crate::keyvals::Attributes;
use parking_lot::Mutex;
use std::os::raw::c_int;
use std::sync::LazyLock;

/// How a window was made (`MPI_WIN_CREATE_FLAVOR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// `MPI_Win_create`, over the program's memory.
    Create,
    /// `MPI_Win_allocate`, over memory the library allocated.
    Allocate,
    /// `MPI_Win_allocate_shared`, over memory the library allocated that the processes share.
    Shared,
    /// `MPI_Win_create_dynamic`, over the memory the program attaches.
    Dynamic,
}

/// The memory of a window.
#[derive(Debug)]
pub enum Memory {
    /// The program's `size` bytes from `base` (`MPI_Win_create`).
    Program {
        /// The address of the first byte.
        base: usize,
        /// The bytes.
        size: usize,
    },
    /// `size` bytes the library allocated, 16-byte aligned, freed with the window.
    Owned {
        /// The memory (in 16-byte units, for their alignment).
        memory: Box<[u128]>,
        /// The bytes the program asked for.
        size: usize,
    },
    /// The regions the program attached (`MPI_Win_attach`), each its address and size.
    Attached(Vec<(usize, usize)>),
}

impl Memory {
    /// `size` bytes of zeros, allocated for the window.
    pub fn allocate(size: usize) -> Memory {
        Memory::Owned {
            memory: vec![0u128; size.div_ceil(16)].into_boxed_slice(),
            size,
        }
    }

    /// The address of the window's first byte (the null address for a dynamic window and for
    /// an allocated window of no bytes).
    pub fn base(&self) -> usize {
        match self {
            Memory::Program { base, .. } => *base,
            Memory::Owned { memory, size } if *size > 0 => memory.as_ptr().expose_provenance(),
            Memory::Owned { .. } | Memory::Attached(_) => 0,
        }
    }

    /// The window's bytes (0 for a dynamic window).
    pub fn size(&self) -> usize {
        match self {
            Memory::Program { size, .. } | Memory::Owned { size, .. } => *size,
            Memory::Attached(_) => 0,
        }
    }

    /// True if the bytes from address `start` to `end` (excluded) are all in the window: in
    /// its one region, or in one attached region.
    pub fn holds(&self, start: usize, end: usize) -> bool {
        let inside = |base: usize, size: usize| start >= base && end <= base + size;
        match self {
            Memory::Attached(regions) => regions.iter().any(|&(base, size)| inside(base, size)),
            _ => inside(self.base(), self.size()),
        }
    }
}

/// An access epoch of the window's one process (it is the origin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Opened by `MPI_Win_start` with a group that has the process (`to_self`) or not.
    Start {
        /// The process is in the group of targets.
        to_self: bool,
    },
    /// Opened by `MPI_Win_lock`.
    Lock,
    /// Opened by `MPI_Win_lock_all`.
    LockAll,
}

/// An exposure epoch opened by `MPI_Win_post`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exposure {
    /// The process is in the group of origins.
    pub from_self: bool,
    /// The process, as an origin, has completed its access epoch (`MPI_Win_complete`).
    pub completed: bool,
}

/// The synchronisation state of a window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Epochs {
    /// A fence opened an epoch (the last fence did not assert `MPI_MODE_NOSUCCEED`).
    pub fence: bool,
    /// The access epoch open, if any.
    pub access: Option<Access>,
    /// The exposure epoch open, if any.
    pub exposure: Option<Exposure>,
}

/// The error of a synchronisation call made out of turn.
fn out_of_turn(why: impl Into<String>) -> MpiError {
    MpiError::new(MPI_ERR_RMA_SYNC, why)
}

/// The error of a synchronisation call that waits for something only the one process could
/// do, and it is the one waiting.
fn never_returns(call: &str, why: &str) -> MpiError {
    MpiError::new(MPI_ERR_OTHER, format!("{call} would never return: {why}"))
}

impl Epochs {
    /// `MPI_Win_fence`: ends the fence epoch, and opens the next unless `succeed` is false.
    pub fn fence(&mut self, succeed: bool) -> MpiResult<()> {
        if self.access.is_some() || self.exposure.is_some() {
            return Err(out_of_turn(
                "a fence inside a lock, start or post epoch of the window",
            ));
        }
        self.fence = succeed;
        Ok(())
    }

    /// Opens an access epoch (`MPI_Win_start`, `MPI_Win_lock`, `MPI_Win_lock_all`).
    pub fn open_access(&mut self, access: Access) -> MpiResult<()> {
        if let Some(open) = self.access {
            return Err(out_of_turn(format!(
                "an access epoch ({open:?}) of the window is already open"
            )));
        }
        self.access = Some(access);
        Ok(())
    }

    /// `MPI_Win_complete`: ends the access epoch of `MPI_Win_start`, once the process, if it
    /// is a target, has posted.
    pub fn complete(&mut self) -> MpiResult<()> {
        let Some(Access::Start { to_self }) = self.access else {
            return Err(out_of_turn("MPI_Win_complete without MPI_Win_start"));
        };
        if to_self {
            let Some(exposure) = self.exposure.as_mut() else {
                return Err(never_returns(
                    "MPI_Win_complete",
                    "the target, this process, has not called MPI_Win_post",
                ));
            };
            exposure.completed = true;
        }
        self.access = None;
        Ok(())
    }

    /// `MPI_Win_post`: opens an exposure epoch.
    pub fn post(&mut self, from_self: bool) -> MpiResult<()> {
        if self.exposure.is_some() {
            return Err(out_of_turn(
                "an exposure epoch of the window is already open",
            ));
        }
        self.exposure = Some(Exposure {
            from_self,
            completed: false,
        });
        Ok(())
    }

    /// `MPI_Win_test` (`wait` false) and `MPI_Win_wait`: true, and the exposure epoch closed,
    /// once every origin completed; false if the one process has yet to (for `MPI_Win_wait`
    /// an error, as it would wait for itself).
    pub fn finish_exposure(&mut self, wait: bool) -> MpiResult<bool> {
        let Some(exposure) = self.exposure else {
            let call = if wait { "MPI_Win_wait" } else { "MPI_Win_test" };
            return Err(out_of_turn(format!("{call} without MPI_Win_post")));
        };
        if exposure.from_self && !exposure.completed {
            if wait {
                return Err(never_returns(
                    "MPI_Win_wait",
                    "the origin, this process, has not called MPI_Win_complete",
                ));
            }
            return Ok(false);
        }
        self.exposure = None;
        Ok(true)
    }

    /// Ends the passive-target epoch of `MPI_Win_unlock` (`all` false) or
    /// `MPI_Win_unlock_all`.
    pub fn unlock(&mut self, all: bool) -> MpiResult<()> {
        let (wanted, call) = match all {
            true => (
                Access::LockAll,
                "MPI_Win_unlock_all without MPI_Win_lock_all",
            ),
            false => (Access::Lock, "MPI_Win_unlock without MPI_Win_lock"),
        };
        if self.access != Some(wanted) {
            return Err(out_of_turn(call));
        }
        self.access = None;
        Ok(())
    }

    /// Checks that a passive-target epoch is open (`MPI_Win_flush` and its kin).
    pub fn passive(&self, call: &str) -> MpiResult<()> {
        match self.access {
            Some(Access::Lock | Access::LockAll) => Ok(()),
            _ => Err(out_of_turn(format!(
                "{call} outside a passive-target epoch (MPI_Win_lock or MPI_Win_lock_all)"
            ))),
        }
    }

    /// Checks that the process may access the window as a target now: in a fence epoch, a
    /// lock epoch, or a start epoch whose group has it.
    pub fn may_access(&self) -> MpiResult<()> {
        match self.access {
            Some(Access::Start { to_self: false }) => Err(out_of_turn(
                "the target, rank 0, is not in the group of MPI_Win_start",
            )),
            Some(_) => Ok(()),
            None if self.fence => Ok(()),
            None => Err(out_of_turn(
                "one-sided communication outside an access epoch (MPI_Win_fence, MPI_Win_start or MPI_Win_lock)",
            )),
        }
    }

    /// Checks that no epoch but a fence's is open (`MPI_Win_free`).
    pub fn closed(&self) -> MpiResult<()> {
        match (self.access, self.exposure) {
            (None, None) => Ok(()),
            _ => Err(out_of_turn(
                "the window is freed inside a lock, start or post epoch",
            )),
        }
    }
}

/// The values of the predefined attributes of a window, which `MPI_Win_get_attr` hands out by
/// address (the base address is handed out itself).
#[derive(Debug)]
pub struct Predefined {
    /// `MPI_WIN_SIZE`.
    pub size: MPI_Aint,
    /// `MPI_WIN_DISP_UNIT`.
    pub disp_unit: c_int,
    /// `MPI_WIN_CREATE_FLAVOR`.
    pub flavor: c_int,
    /// `MPI_WIN_MODEL`.
    pub model: c_int,
}

/// What the world keeps of a window.
#[derive(Debug)]
pub struct Window {
    /// Its memory.
    pub memory: Memory,
    /// The unit of target displacements, in bytes.
    pub disp_unit: i64,
    /// How it was made.
    pub flavor: Flavor,
    /// Its name (`MPI_Win_set_name`); empty until set.
    pub name: String,
    /// Its error handler.
    pub errhandler: MPI_Errhandler,
    /// Its attributes, in the order they were set.
    pub attributes: Attributes,
    /// The hints it was given (`MPI_Win_set_info` and at creation).
    pub info: Pairs,
    /// Its epochs.
    pub epochs: Epochs,
    /// The values of its predefined attributes, at an address that stays while it lives.
    pub predefined: Box<Predefined>,
}

/// The windows, behind their lock.
static WINDOWS: LazyLock<Mutex<Slab<Window>>> = LazyLock::new(Mutex::default);

/// Keeps a window and returns its index.
pub fn keep(window: Window) -> usize {
    WINDOWS.lock().insert(window)
}

/// Runs `f` on the window at `index`; `None` if there is none.
pub fn with<R>(index: usize, f: impl FnOnce(&mut Window) -> R) -> Option<R> {
    WINDOWS.lock().get_mut(index).map(f)
}

/// Forgets the window at `index`, freeing the memory it allocated.
pub fn free(index: usize) -> Option<Window> {
    WINDOWS.lock().remove(index)
}
