//! Types of the MPI behind that stand in for a datatype's twin in point-to-point messages on
//! that library's path ([`crate::dropin::comm`]): the same type map in a shape that library
//! moves faster ([`for_messages`]), or in bytes, so that it receives a stream of bytes into
//! it whole ([`byte_twin`]); and the type of a datatype's packed bytes that the engine's
//! sends give it ([`stream_type`]); and the committed twin, or a committed copy of it, for the
//! other messages on that library's path ([`message_copy`]). Each is made and committed once,
//! at the type's first message that takes it, kept in the datatype object's `message_twin`
//! (the first two: a type has at most one of them, the first only for types whose entries are
//! all of one basic type, the second only for types whose basic entries differ in size),
//! `stream_type` or `message_copy`, and given back with it (or before `MPI_Finalize`).

use super::{enabled, named, shadow, Held, Kept, Shadow};
use crate::abi::*;
use crate::datatype::{signature, Datatype};
use crate::dropin::behind_types::{self as types, Count};
use crate::error::MpiResult;
use crate::plan::node::Node;
use std::sync::OnceLock;

/// The type of the MPI behind that point-to-point messages of `datatype` take on that
/// library's path, or `None` (the program's handle is then used).
///
/// The twin is built from `datatype`'s constructors, and the MPI behind moves some of those
/// shapes slower than its own types: MPICH takes a quarter longer for the 2 KiB rows of a
/// subarray (one `hindexed_block` of a resized type per dimension) and twice as long for a
/// vector of 128-byte blocks made through a resized type, than for the vector it builds
/// itself. When the compiled plan is one level of long runs of one basic type (a run, a
/// repetition of a run, blocks of runs), this is that level as the MPI behind's own
/// constructor of the basic type: a contiguous type, an `hvector` or an `hindexed`, which it
/// moves with its fastest kernels. Its type signature and type map are the program's type's
/// (the size check confirms). Deeper plans and short runs keep the twin, whose nested shape
/// MPICH moves faster than a flat one for the single doubles of a grid's x face.
pub fn for_messages(datatype: &Datatype, kept: &Kept) -> Option<MPI_Datatype> {
    stand_in(datatype, &kept.message_twin, flat_type)
}

/// The type of the MPI behind with `datatype`'s type map in which every entry is an
/// `MPI_BYTE`: one `hindexed` of the runs of one copy of its plan, resized to its extent. A
/// receive with it takes any stream of the type's bytes, cut into pieces anywhere, where
/// MPICH 4.0.2 fails to receive a stream of bytes longer than one piece of its transport into
/// a type whose basic entries differ in size (`MPI_PACKED` from `MPI_Bsend`, or another
/// process's engine: [`crate::dropin::comm::route`]). It unpacks each piece as it arrives, so
/// a message sent with the twin arrives as fast as into the twin. `None` when `datatype`'s
/// basic entries all have one size (the twin takes such streams), when one copy has more than
/// [`BYTE_TWIN_RUNS`] runs, or when the type built does not have its size.
///
/// It is flat on purpose: built as a tree of the MPI behind's types mirroring the plan (a
/// struct of placed runs, repetitions as `hvector`s), byte twins made later messages of
/// other types go wrong over MPICH 4.0.2 once they were freed (`MPI_Bsend` and
/// `MPI_Sendrecv_replace` of a contiguous type sent no bytes: `scripts/test-drop-in-p2p.sh`
/// with seeds 4 and 5 in one run); with the flat type, seeds 1 to 80 pass.
pub fn byte_twin(datatype: &Datatype, kept: &Kept) -> Option<MPI_Datatype> {
    stand_in(datatype, &kept.message_twin, bytes_type)
}

/// The committed type of the MPI behind with `datatype`'s type map that messages of
/// `datatype` take on that library's path where no other stand-in serves, instead of the twin
/// of the program's handle: reading it is one load, where the handle's twin takes a lock of
/// the handle's slot at every message. It is the datatype object's own twin where that was
/// made committed ([`super::committed_twin`]: the type's first call that needs a twin is its
/// first message, the usual case), so a type that only travels in messages costs that library
/// one type per level of the type, where a handle's twin costs two more (a copy and its
/// watcher: [`super::new_handle`]); else (the twin was made uncommitted for another call
/// first, and a kept twin is never committed afterwards, or it is a named type: an f90
/// type's) a committed `contiguous(1, twin)` of its own. `None` when it cannot be made (the
/// program's handle then takes its twin).
pub fn message_copy(datatype: &Datatype, kept: &Kept) -> Option<MPI_Datatype> {
    kept_in(&kept.message_copy, || {
        committed_type(datatype).ok().flatten()
    })
}

/// Builds [`message_copy`]'s type, held as it says.
fn committed_type(datatype: &Datatype) -> MpiResult<Option<Shadow>> {
    if let Some(twin) = super::committed_twin(datatype)? {
        // The object's twin, which its own shadow releases.
        return Ok(Some(Shadow {
            handle_bits: handle_bits(twin),
            committed: true,
            release: |_| {},
        }));
    }
    let copy = commit_sized(super::same_map(super::of(datatype)?)?, datatype)?;
    Ok(copy.map(|handle| shadow(handle, true)))
}

/// The type of the MPI behind whose type map is one copy of `datatype`'s packed bytes: a
/// struct of one contiguous block per run of its type signature (`(basic, count)`, equal basic
/// types merged), placed one after another, and resized to the type's size. The engine's
/// sends of a type whose basic entries differ in size give the MPI behind their packed bytes
/// as copies of this type, not as `MPI_BYTE`s, over an MPI that cannot receive a stream of
/// bytes into such a type whole (MPICH 4.0.2, [`crate::dropin::comm::route`]): the stream
/// then has the type's signature, and that library cuts it between entries, as when it sends
/// the type itself, so a receiver without this library receives it with the type. Made only
/// for types that [`streams_whole`] accepts; `None` when it could not be made or does not have
/// the type's size.
pub fn stream_type(datatype: &Datatype, kept: &Kept) -> Option<MPI_Datatype> {
    stand_in(datatype, &kept.stream_type, signature_type)
}

/// The shortest mean run of a type's signature, in bytes, for which its packed bytes are sent
/// as its [`stream_type`]: the MPI behind copies each run of the signature as one block, and
/// blocks as short as the entries of an array of structs cost it as much as the type itself.
const LONG_SIGNATURE_RUN: i64 = 64;

/// Whether the engine's sends of `datatype` may give the MPI behind its packed bytes as its
/// [`stream_type`]: its signature is known ([`Datatype::signature`]: at most
/// [`signature::MAX_RUNS`] runs a copy) and its runs are [`LONG_SIGNATURE_RUN`] bytes long on
/// average, and it holds no pair type (`MPI_DOUBLE_INT`), whose two parts the signature
/// lists apart.
pub fn streams_whole(datatype: &Datatype) -> bool {
    datatype.signature().is_some_and(|runs| {
        !runs.is_empty() && datatype.size() >= LONG_SIGNATURE_RUN.saturating_mul(runs.len() as i64)
    }) && !signature::holds_pairs(datatype)
}

/// Builds [`stream_type`]'s type (`None`: see there).
fn signature_type(datatype: &Datatype) -> MpiResult<Option<MPI_Datatype>> {
    let Some(runs) = datatype.signature().filter(|_| streams_whole(datatype)) else {
        return Ok(None);
    };
    let (mut lens, mut displs, mut leaves) = (Vec::new(), Vec::new(), Vec::new());
    let mut at = 0;
    for &(basic, count) in runs {
        lens.push(count);
        displs.push(at);
        leaves.push(named(basic_handle(basic), basic.size())?);
        at += count * basic.size();
    }
    let level = Held(types::structure(&lens, &displs, &leaves)?);
    committed(level, datatype.size(), datatype)
}

/// The stand-in `build` makes for `datatype`, made at the first call and kept in `slot` (the
/// later calls, one per message, only read it).
fn stand_in(
    datatype: &Datatype,
    slot: &OnceLock<Option<Shadow>>,
    build: fn(&Datatype) -> MpiResult<Option<MPI_Datatype>>,
) -> Option<MPI_Datatype> {
    kept_in(slot, || {
        build(datatype)
            .ok()
            .flatten()
            .map(|handle| shadow(handle, true))
    })
}

/// The type kept in `slot`, which `make` makes at the first call (`None`, kept too, when it
/// has none); `None` without making it when twins are not enabled.
fn kept_in(
    slot: &OnceLock<Option<Shadow>>,
    make: impl FnOnce() -> Option<Shadow>,
) -> Option<MPI_Datatype> {
    let made = match slot.get() {
        Some(made) => made,
        None if !enabled() => return None,
        None => slot.get_or_init(make),
    };
    made.as_ref()
        .map(|shadow| handle_from_bits(shadow.handle_bits))
}

/// The shortest mean run, in bytes, of a type [`for_messages`] makes a type for: MPICH moves
/// a flat vector of single doubles far apart (a grid's x face) three times slower than the
/// twin's nested shape, and its flat vectors of long runs faster.
const LONG_RUN: i64 = 64;

/// Builds [`for_messages`]'s type: `None` when `datatype` has entries of more than one basic
/// type, runs shorter than [`LONG_RUN`] on average, a plan of more than one level, or the
/// type built does not have its size.
fn flat_type(datatype: &Datatype) -> MpiResult<Option<MPI_Datatype>> {
    let Some(basic) = signature::only_basic(datatype) else {
        return Ok(None);
    };
    let plan = &datatype.plan;
    if datatype.size() < LONG_RUN.saturating_mul(plan.runs()) {
        return Ok(None);
    }
    let leaf = named(basic_handle(basic), basic.size())?;
    match one_level(plan.root(), leaf, basic.size())? {
        Some(level) => committed(level, datatype.plan.extent, datatype),
        None => Ok(None),
    }
}

/// Builds [`byte_twin`]'s type (`None`: see there).
fn bytes_type(datatype: &Datatype) -> MpiResult<Option<MPI_Datatype>> {
    let plan = &datatype.plan;
    if signature::one_entry_size(datatype) || plan.runs() > BYTE_TWIN_RUNS {
        return Ok(None);
    }
    let (mut lens, mut displs) = (Vec::new(), Vec::new());
    crate::plan::iov::for_each_segment(plan.root(), |disp, len| {
        displs.push(disp);
        lens.push(len);
        true
    });
    let level = Held(types::hindexed(&lens, &displs, MPI_BYTE)?);
    committed(level, datatype.plan.extent, datatype)
}

/// The most runs of one copy a byte twin is made for (its block list takes 16 bytes a run in
/// the MPI behind); a type with more is received as bytes by the engine.
const BYTE_TWIN_RUNS: i64 = 1 << 16;

/// `level`, one copy of `datatype`'s data, resized to `extent` and committed: its handle if it
/// has `datatype`'s size.
fn committed(level: Held, extent: i64, datatype: &Datatype) -> MpiResult<Option<MPI_Datatype>> {
    commit_sized(Held(types::resized(level.0, 0, extent)?), datatype)
}

/// `made` committed: its handle if it has `datatype`'s size (else it is freed).
fn commit_sized(made: Held, datatype: &Datatype) -> MpiResult<Option<MPI_Datatype>> {
    super::commit(made.0)?;
    let size: Count = types::size(made.0)?;
    Ok((size == datatype.size()).then(|| made.into_raw()))
}

/// The MPI behind's type for a plan `node` of one level of runs holding entries of the named
/// type `leaf` of `size` bytes, placed as the plan places them; `None` for another shape.
fn one_level(node: &Node, leaf: MPI_Datatype, size: i64) -> MpiResult<Option<Held>> {
    let level = match node {
        Node::Run { disp, len } => placed(Held(types::contiguous(len / size, leaf)?), *disp)?,
        Node::Strided {
            disp,
            count,
            stride,
            len,
        } => placed(
            Held(types::hvector(*count, len / size, *stride, leaf)?),
            *disp,
        )?,
        Node::Blocks(blocks) => match *blocks.child {
            Node::Run { disp: 0, len } if len == blocks.child_stride => {
                let counts: Vec<Count> = (0..blocks.len())
                    .map(|k| blocks.counts.get(k) * (len / size))
                    .collect();
                let displs: Vec<Count> = (0..blocks.len()).map(|k| blocks.block_disp(k)).collect();
                Held(types::hindexed(&counts, &displs, leaf)?)
            }
            _ => return Ok(None),
        },
        Node::Repeat { .. } | Node::Seq { .. } => return Ok(None),
    };
    Ok(Some(level))
}

/// `level` with its origin moved to `disp`.
fn placed(level: Held, disp: i64) -> MpiResult<Held> {
    match disp {
        0 => Ok(level),
        _ => types::hindexed_block(1, &[disp], level.0).map(Held),
    }
}
