//! Whether every process of the job runs this library, so that the engine may send the types
//! whose basic entries differ in size as bytes over any MPI ([`super::route`], "Types whose
//! basic entries differ in size"): a process that runs this library in `auto` or `engine`
//! mode receives them right however the MPI cuts their stream; a process without it, or one
//! in `mpi` mode (which hands every receive to the MPI behind with the type's twin), may not.
//! Where the MPI behind takes bytes in a collective only if every side is bytes (Open MPI),
//! the collectives that move blocks go so over a communicator of this world's processes
//! ([`super::route::BlockSides::AllBytes`], [`super::world`]).
//!
//! `MPI_DTYPE_PEERS` chooses:
//!
//! - `auto` (the default): learnt at `MPI_Init`. Each process in `auto` or `engine` mode
//!   leaves a marker on its node's shared memory (`/dev/shm`) before the MPI behind's
//!   `MPI_Init` starts, and reads the markers of its job when that `MPI_Init` has returned.
//!   The MPI libraries behind this one (MPICH 4 and 5, Open MPI 4.1 and 5.0) wait inside
//!   `MPI_Init` until every process of `MPI_COMM_WORLD` has called it, so every marker of a
//!   process that runs this library is there by then. Every process runs this library when
//!   the markers of its job number the size of `MPI_COMM_WORLD`, and that is more than one;
//! - `preloaded`: the user says so;
//! - `any`: nothing is assumed, and no marker is left (the process then counts as one
//!   without this library for the others).
//!
//! A marker is a file `mpi-dtype-peer.<job>.<pid>` that holds its process's start time. The
//! job is the launcher's process that started the process (one per job and node for
//! MPICH's and Intel MPI's Hydra, Open MPI's launchers and Slurm), with a hash of the job's
//! names where the launcher gives them (`PMIX_NAMESPACE`, `SLURM_JOB_ID`, `SLURM_STEP_ID`).
//! Only markers that belong to the same user and name a live process that started at the
//! time they hold count, so a marker left by a process that died counts for nothing. What
//! cannot be seen answers "not every process": processes on other nodes leave no marker
//! here, a process started through a shell of its own has another launcher's process, a
//! process without `/dev/shm` leaves none, a process spawned by another
//! (`MPI_Comm_get_parent`) knows nothing of its parents, and a process alone in its world
//! (a singleton, which spawns its workers if it has any) learns nothing. The engine then
//! sends those types as over `any`, which every receiver takes. What is not seen is a
//! process outside `MPI_COMM_WORLD` that a job of several processes reaches later
//! (`MPI_Comm_spawn`, `MPI_Comm_connect`, `MPI_Comm_join`): spawned with the job's
//! environment it runs this library too, but a program that may reach one without it sets
//! `MPI_DTYPE_PEERS=any`.
//!
//! Each marker is removed when its process's `MPI_Finalize` has returned (the MPI libraries
//! behind finalize with a fence of the whole job, so no process reads the markers at its
//! `MPI_Init` after one is removed, and every process learns alike), or at its exit; one left by a
//! process that was killed is removed at the next `MPI_Init` of a process of the same user on
//! the node.

use super::settings::{mode, peers, Mode, Peers};
use crate::abi::{MPI_Comm, MPI_COMM_NULL, MPI_COMM_WORLD, MPI_SUCCESS};
use crate::behind::forward;
use parking_lot::Mutex;
use std::os::raw::c_int;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The first part of every marker's name.
const MARKER: &str = "mpi-dtype-peer.";

/// The first part of the name of every ring ([`super::node_local`]), a file in the same
/// directory; the job's name and the process's id follow.
pub const RING_NAME: &str = "mpi-dtype-ring.";

/// The environment variables that name a job, where its launcher sets them.
const JOB_NAMES: [&str; 3] = ["PMIX_NAMESPACE", "SLURM_JOB_ID", "SLURM_STEP_ID"];

/// A marker this process left.
struct Left {
    /// Its path.
    path: PathBuf,
    /// The job it names ([`job`]).
    job: String,
    /// The process that left it (a child made by `fork` inherits [`LEFT`], not the marker).
    pid: u32,
}

/// The marker this process left, to be removed at `MPI_Finalize` or at exit.
static LEFT: Mutex<Option<Left>> = Mutex::new(None);

/// What [`learn`] found.
static LEARNED: OnceLock<bool> = OnceLock::new();

/// Whether every process this one exchanges messages with runs this library: as
/// `MPI_DTYPE_PEERS` says, or as [`learn`] found (false before it ran).
pub fn all_preloaded() -> bool {
    match peers() {
        Peers::Any => false,
        Peers::Preloaded => true,
        Peers::Auto => LEARNED.get().copied().unwrap_or(false),
    }
}

/// Whether every process of `MPI_COMM_WORLD` runs this library on this node, as its markers
/// showed at `MPI_Init` (`auto` only: `preloaded` says nothing of where the processes are).
#[inline]
pub fn all_on_this_node() -> bool {
    peers() == Peers::Auto && LEARNED.get().copied().unwrap_or(false)
}

/// The name of this process's job in the names of its files in the node's shared memory,
/// where it left a marker.
pub fn job_name() -> Option<String> {
    LEFT.lock().as_ref().map(|left| left.job.clone())
}

/// Leaves this process's marker, before the MPI behind's `MPI_Init` (`auto` only, and not
/// in `mpi` mode, whose receives take the twins). Markers of the same user's processes that
/// are gone are removed first. Nothing is left where `/dev/shm` cannot be written: the
/// process then counts as one without this library.
pub fn announce() {
    if peers() != Peers::Auto || mode() == Mode::Mpi {
        return;
    }
    let (dir, job, pid) = (Path::new(DIRECTORY), job(), std::process::id());
    let Some(started) = start_time(pid) else {
        return;
    };
    remove_stale(dir);
    let path = dir.join(format!("{MARKER}{job}.{pid}"));
    // Written whole under another name, then renamed: a reader never sees half a marker.
    // Made anew, never through a link someone else left under that name.
    let partial = dir.join(format!(".{MARKER}{job}.{pid}"));
    let _ = std::fs::remove_file(&partial);
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&partial)
        .and_then(|mut file| {
            std::io::Write::write_all(&mut file, format!("{started}\n").as_bytes())
        })
        .and_then(|()| std::fs::rename(&partial, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
        return;
    }
    let first = LEFT.lock().replace(Left { path, job, pid }).is_none();
    if first {
        // SAFETY: registers a function of no arguments that only removes a file.
        unsafe { libc::atexit(withdraw_at_exit) };
    }
}

/// Reads the markers of this process's job, once the MPI behind's `MPI_Init` has returned
/// successfully (`auto` only, with a marker left), and keeps whether they number the
/// processes of `MPI_COMM_WORLD`. With `MPI_DTYPE_DEBUG=1` the finding is printed on stderr.
pub fn learn() {
    // Only `auto` leaves a marker.
    let Some(job) = LEFT.lock().as_ref().map(|left| left.job.clone()) else {
        return;
    };
    let (mut size, mut parent): (c_int, MPI_Comm) = (0, MPI_COMM_NULL);
    let asked =
        forward!(PMPI_Comm_size: fn(MPI_Comm, *mut c_int) -> c_int, MPI_COMM_WORLD, &mut size);
    let spawned = forward!(PMPI_Comm_get_parent: fn(*mut MPI_Comm) -> c_int, &mut parent);
    if asked != Some(MPI_SUCCESS) || spawned != Some(MPI_SUCCESS) || size < 1 {
        return;
    }
    // A process alone in its world learns nothing: a singleton spawns its workers, if any.
    let found = match parent == MPI_COMM_NULL && size > 1 {
        true => markers_of(Path::new(DIRECTORY), &job, size as usize + 1),
        false => 0,
    };
    let every = found == size as usize;
    let every = *LEARNED.get_or_init(|| every);
    if crate::behind::debug() {
        let what = match every {
            true => "every process of MPI_COMM_WORLD runs mpi-dtype",
            false => "not every process of MPI_COMM_WORLD is known to run mpi-dtype",
        };
        crate::diagnostic::line(format_args!(
            "mpi-dtype: {what} ({found} of {size} found on this node)"
        ));
    }
}

/// Removes this process's marker (when `MPI_Finalize` has returned).
pub fn withdraw() {
    let mine = LEFT.lock().take_if(|left| left.pid == std::process::id());
    if let Some(mine) = mine {
        let _ = std::fs::remove_file(mine.path);
    }
}

/// [`withdraw`] at the process's exit, for a program that does not call `MPI_Finalize`.
extern "C" fn withdraw_at_exit() {
    withdraw();
}

/// Where markers are left: the node's shared memory.
const DIRECTORY: &str = "/dev/shm";

/// The name of this process's job in its markers' names: the process that started it, and a
/// hash of the job's names the launcher gives, if any.
fn job() -> String {
    // SAFETY: getppid has no preconditions.
    let parent = unsafe { libc::getppid() };
    let names: Vec<String> = JOB_NAMES
        .iter()
        .filter_map(|name| {
            std::env::var(name)
                .ok()
                .map(|value| format!("{name}={value}"))
        })
        .collect();
    match names.is_empty() {
        true => parent.to_string(),
        false => format!("{parent}-{:016x}", fnv1a(names.join("\n").as_bytes())),
    }
}

/// The 64-bit FNV-1a hash of `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The start time of process `pid` (field 22 of `/proc/<pid>/stat`, in clock ticks since
/// boot), if it runs.
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
    // The command's name, in parentheses, may hold any byte: the fields after it are counted
    // from the last ')', the state being field 3.
    let after_name = &stat[stat.iter().rposition(|&b| b == b')')? + 1..];
    let field = after_name
        .split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty())
        .nth(22 - 3)?;
    std::str::from_utf8(field).ok()?.parse().ok()
}

/// Whether the marker named `name` in `dir` (or its partial copy, whose name starts with a
/// dot), owned by this process's user, still stands: its process runs, and a whole marker
/// holds its start time. `None` for a name that is not a marker's, or another user's.
fn stands(dir: &Path, name: &str) -> Option<bool> {
    let (partial, unmarked) = match name.strip_prefix('.') {
        Some(unmarked) => (true, unmarked),
        None => (false, name),
    };
    let pid: u32 = unmarked
        .strip_prefix(MARKER)?
        .rsplit('.')
        .next()?
        .parse()
        .ok()?;
    let path = dir.join(name);
    // SAFETY: getuid has no preconditions.
    let ours = std::fs::symlink_metadata(&path).ok()?.uid() == unsafe { libc::getuid() };
    if !ours {
        return None;
    }
    let running = start_time(pid);
    Some(match partial {
        // What a partial copy holds may not be written yet: it stands while its process runs.
        true => running.is_some(),
        false => {
            let held = std::fs::read_to_string(&path)
                .ok()
                .and_then(|t| t.trim().parse().ok());
            held.is_some() && held == running
        }
    })
}

/// The names of the files in `dir` (none if it cannot be read).
fn names_in(dir: &Path) -> impl Iterator<Item = String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
}

/// Whether `name` in `dir` is a ring ([`super::node_local`]) of this user's that a process
/// that is gone left.
fn ring_left_behind(dir: &Path, name: &str) -> bool {
    let Some(pid) = name
        .strip_prefix(RING_NAME)
        .and_then(|rest| rest.rsplit('.').next())
        .and_then(|pid| pid.parse::<u32>().ok())
    else {
        return false;
    };
    let owner = std::fs::symlink_metadata(dir.join(name)).map(|meta| meta.uid());
    // SAFETY: getuid has no preconditions.
    owner.is_ok_and(|uid| uid == unsafe { libc::getuid() }) && start_time(pid).is_none()
}

/// Removes the markers in `dir` (whole or partial) and the rings of this user's processes
/// that are gone.
fn remove_stale(dir: &Path) {
    for name in names_in(dir) {
        if stands(dir, &name) == Some(false) || ring_left_behind(dir, &name) {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }
}

/// How many markers of running processes of `job` there are in `dir`, counted up to `most`.
fn markers_of(dir: &Path, job: &str, most: usize) -> usize {
    let prefix = format!("{MARKER}{job}.");
    names_in(dir)
        // Only the process id may follow the job's name.
        .filter(|name| {
            name.strip_prefix(&prefix)
                .is_some_and(|pid| !pid.contains('.'))
        })
        .filter(|name| stands(dir, name) == Some(true))
        .take(most)
        .count()
}

#[cfg(test)]
mod tests {
    use super::{fnv1a, markers_of, stands, start_time, MARKER};
    use std::path::PathBuf;

    /// A directory of its own for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mpi-dtype-peers-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn job_names_hash_whole() {
        // The published test vectors of 64-bit FNV-1a.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(fnv1a(b"prterun-host-1@1"), fnv1a(b"prterun-host-1@2"));
    }

    #[test]
    fn this_process_has_a_start_time() {
        let mine = start_time(std::process::id()).expect("a start time");
        assert_eq!(start_time(std::process::id()), Some(mine));
    }

    #[test]
    fn only_markers_of_running_processes_of_the_job_count() {
        let dir = scratch("count");
        let me = std::process::id();
        let started = start_time(me).unwrap();
        let write = |name: String, text: String| std::fs::write(dir.join(name), text).unwrap();
        write(format!("{MARKER}7-a.{me}"), format!("{started}\n"));
        // The same process under another job, a dead start time, a pid that is no number.
        write(format!("{MARKER}7-b.{me}"), format!("{started}\n"));
        write(format!("{MARKER}7-a.1"), format!("{}\n", started + 1));
        write(format!("{MARKER}7-a.x"), format!("{started}\n"));
        write(format!("{MARKER}7-a.b.{me}"), format!("{started}\n"));
        assert_eq!(markers_of(&dir, "7-a", 10), 1);
        assert_eq!(markers_of(&dir, "7-b", 10), 1);
        assert_eq!(markers_of(&dir, "7", 10), 0);
        assert_eq!(stands(&dir, &format!("{MARKER}7-a.1")), Some(false));
        assert_eq!(stands(&dir, "other"), None);
        // A partial copy never counts; it stands while its process runs, whatever it holds.
        write(format!(".{MARKER}7-a.{me}"), String::new());
        assert_eq!(markers_of(&dir, "7-a", 10), 1);
        assert_eq!(stands(&dir, &format!(".{MARKER}7-a.{me}")), Some(true));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
