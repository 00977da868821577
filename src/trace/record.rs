//! What the trace keeps per type: one [`Record`] per type built, numbered in build order,
//! and a map from each live handle to its record (a freed handle number may name a new
//! type later; its events then go to the new record).

use super::frames::Frame;
use crate::abi::{handle_bits, MPI_Datatype};
use crate::handles;
use mpi_dtype_explain::{constructor, facts::Facts, warnings};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Instant;

/// When an event happened: its number among the traced events of the process, and the
/// seconds since tracing started (monotonic clock).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stamp {
    /// The event's number: 1 for the first traced event of the process.
    pub seq: u64,
    /// Seconds since tracing started.
    pub time: f64,
}

/// The first time something happened and how often.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Occurrences {
    /// How many times.
    pub count: u64,
    /// The first time, and the MPI function of it.
    pub first: Stamp,
    /// The MPI function of the first time.
    pub function: &'static str,
}

/// Everything the trace knows about one type the program built.
#[derive(Debug, Clone)]
pub struct Record {
    /// The record's number: 1 for the first type built.
    pub number: u64,
    /// The handle the program was given.
    pub handle: u64,
    /// The expression that builds the type ([`constructor::expression`]).
    pub expression: String,
    /// Whether the expression is whole (nothing was cut).
    pub expression_complete: bool,
    /// True for a type of `MPI_Type_create_f90_*`: predefined, never freed.
    pub predefined: bool,
    /// Size in bytes.
    pub size: i64,
    /// Lower bound.
    pub lb: i64,
    /// Extent.
    pub extent: i64,
    /// True lower bound.
    pub true_lb: i64,
    /// True extent.
    pub true_extent: i64,
    /// When it was built.
    pub built: Stamp,
    /// Where it was built: the calling functions outside this library, innermost first.
    pub built_at: Vec<Frame>,
    /// When it was first committed (a duplicate of a committed type is committed when built).
    pub committed: Option<Stamp>,
    /// Calls of `MPI_Type_commit` on it after the first commit.
    pub committed_again: Option<Occurrences>,
    /// When it was freed.
    pub freed: Option<Stamp>,
    /// Successful pack calls and the bytes they wrote.
    pub packs: u64,
    /// Bytes packed.
    pub pack_bytes: u64,
    /// Successful unpack calls.
    pub unpacks: u64,
    /// Bytes unpacked.
    pub unpack_bytes: u64,
    /// Pack or unpack calls that were given it uncommitted.
    pub uncommitted_uses: Option<Occurrences>,
    /// Unpacks into it while its entries overlap.
    pub overlapping_unpacks: Option<Occurrences>,
    /// The warnings the type alone shows ([`warnings::check`]).
    pub warnings: Vec<warnings::Warning>,
}

impl Record {
    /// True if its entries overlap (unpacking into it is erroneous).
    pub fn overlaps(&self) -> bool {
        self.warnings
            .iter()
            .any(|w| std::ptr::eq(w.kind, &warnings::OVERLAPPING_ENTRIES))
    }
}

/// The records of the process and the live handles.
#[derive(Default)]
pub struct Registry {
    /// Every record, in build order (record `n` at index `n - 1`).
    pub records: Vec<Record>,
    /// The record of each live handle.
    pub live: HashMap<u64, usize>,
    /// Events so far.
    events: u64,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);
static ORIGIN: OnceLock<Instant> = OnceLock::new();

/// Starts the clock and the registry (once, when tracing is found on).
pub fn start() {
    ORIGIN.get_or_init(Instant::now);
    REGISTRY.lock().get_or_insert_with(Registry::default);
}

impl Registry {
    fn stamp(&mut self) -> Stamp {
        self.events += 1;
        Stamp {
            seq: self.events,
            time: ORIGIN.get().map_or(0.0, |o| o.elapsed().as_secs_f64()),
        }
    }

    fn live_record(&mut self, handle: u64) -> Option<&mut Record> {
        let index = *self.live.get(&handle)?;
        self.records.get_mut(index)
    }

    fn note(
        &mut self,
        handle: u64,
        function: &'static str,
        field: fn(&mut Record) -> &mut Option<Occurrences>,
    ) {
        let stamp = self.stamp();
        if let Some(record) = self.live_record(handle) {
            let slot = field(record);
            match slot {
                Some(o) => o.count += 1,
                None => {
                    *slot = Some(Occurrences {
                        count: 1,
                        first: stamp,
                        function,
                    })
                }
            }
        }
    }
}

/// Runs `f` on the registry, if tracing has started.
pub fn with_registry<R>(f: impl FnOnce(&mut Registry) -> R) -> Option<R> {
    REGISTRY.lock().as_mut().map(f)
}

/// Records the type the program was given as `handle`, built from the code at `frames`.
pub fn built(handle: MPI_Datatype, frames: Vec<Frame>) {
    let Ok((dt, committed)) = handles::with_type(handle, |dt, c| (dt.clone(), c)) else {
        return;
    };
    let predefined = handles::is_builtin(handle);
    let key = handle_bits(handle);
    if predefined && with_registry(|r| r.live.contains_key(&key)) == Some(true) {
        return; // the same f90 type again
    }
    // The explanation's pieces are made without the registry's lock held.
    let (expression, expression_complete) = constructor::expression(&dt);
    let facts = Facts::of(&dt);
    let found = warnings::check_with(&dt, &facts);
    with_registry(|r| {
        let built = r.stamp();
        let record = Record {
            number: r.records.len() as u64 + 1,
            handle: key,
            expression,
            expression_complete,
            predefined,
            size: facts.size,
            lb: facts.lb,
            extent: facts.extent,
            true_lb: facts.true_lb,
            true_extent: facts.true_extent(),
            built,
            built_at: frames,
            committed: committed.then_some(built),
            committed_again: None,
            freed: None,
            packs: 0,
            pack_bytes: 0,
            unpacks: 0,
            unpack_bytes: 0,
            uncommitted_uses: None,
            overlapping_unpacks: None,
            warnings: found,
        };
        r.live.insert(key, r.records.len());
        r.records.push(record);
    });
}

/// Records a commit of `handle`: the first, or one more of a committed type.
pub fn commit(handle: MPI_Datatype) {
    let Ok(committed) = handles::with_type(handle, |_, committed| committed) else {
        return;
    };
    let key = handle_bits(handle);
    with_registry(|r| {
        if committed {
            r.note(key, "MPI_Type_commit", |rec| &mut rec.committed_again);
        } else {
            let stamp = r.stamp();
            if let Some(record) = r.live_record(key) {
                record.committed = Some(stamp);
            }
        }
    });
}

/// Records that `handle` is freed: its record is no longer live.
pub fn free(handle: u64) {
    with_registry(|r| {
        let stamp = r.stamp();
        if let Some(index) = r.live.remove(&handle) {
            r.records[index].freed = Some(stamp);
        }
    });
}

/// The size of a traced type about to be packed or unpacked by `function`, or `None` if
/// `handle` is not a live type the trace recorded or is not committed. A type not committed
/// is noted (`used-uncommitted`; the call fails with `MPI_ERR_TYPE`).
pub fn use_of(handle: MPI_Datatype, function: &'static str) -> Option<i64> {
    let (size, committed) = handles::with_type(handle, |dt, c| (dt.size(), c)).ok()?;
    let key = handle_bits(handle);
    let traced = with_registry(|r| {
        let traced = r.live.contains_key(&key);
        if traced && !committed {
            r.note(key, function, |rec| &mut rec.uncommitted_uses);
        }
        traced
    })?;
    (traced && committed).then_some(size)
}

/// Records a successful pack (`pack`) or unpack of `bytes` bytes by `function` with `handle`
/// (an unpack into a type whose entries overlap is noted too).
pub fn moved(handle: u64, pack: bool, function: &'static str, bytes: i64) {
    with_registry(|r| {
        let overlaps = {
            let Some(record) = r.live_record(handle) else {
                return;
            };
            let bytes = bytes.max(0) as u64;
            if pack {
                record.packs += 1;
                record.pack_bytes += bytes;
            } else {
                record.unpacks += 1;
                record.unpack_bytes += bytes;
            }
            !pack && record.overlaps()
        };
        if overlaps {
            r.note(handle, function, |rec| &mut rec.overlapping_unpacks);
        }
    });
}
