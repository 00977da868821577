//! Types of the MPI behind that stand in for a datatype's twin in point-to-point messages on
//! that library's path ([`crate::dropin::comm`]): the same type map in a shape that library
//! moves faster ([`for_messages`]), or in bytes, so that it receives a stream of bytes into
//! it whole ([`byte_twin`]). Each is made and committed once, at the type's first message,
//! kept in the datatype object's `message_shadow` and given back with it (or before
//! `MPI_Finalize`). A type has at most one of them: the first is made only for types whose
//! entries are all of one basic type, the second only for types whose basic entries differ
//! in size.

use super::{enabled, kept, named, shadow, Held, SHADOWS};
use crate::abi::*;
use crate::datatype::Datatype;
use crate::dropin::behind_types::{self as types, Count};
use crate::error::MpiResult;
use crate::plan::node::Node;

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
pub fn for_messages(datatype: &Datatype) -> Option<MPI_Datatype> {
    stand_in(datatype, flat_type)
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
pub fn byte_twin(datatype: &Datatype) -> Option<MPI_Datatype> {
    stand_in(datatype, bytes_type)
}

/// The stand-in `build` makes for `datatype`, made at the first call and kept with it (the
/// later calls, one per message, only read it).
fn stand_in(
    datatype: &Datatype,
    build: fn(&Datatype) -> MpiResult<Option<MPI_Datatype>>,
) -> Option<MPI_Datatype> {
    let message_twin = &kept(datatype).message_twin;
    let made = match message_twin.get() {
        Some(made) => made,
        None if !enabled() => return None,
        None => message_twin.get_or_init(|| {
            let handle = build(datatype).ok()??;
            SHADOWS.lock().insert(handle);
            Some(shadow(handle))
        }),
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
    let Some(basic) = crate::datatype::signature::only_basic(datatype) else {
        return Ok(None);
    };
    let plan = &datatype.plan;
    if datatype.size() < LONG_RUN.saturating_mul(plan.runs()) {
        return Ok(None);
    }
    let leaf = named(basic_handle(basic), basic.size())?;
    match one_level(plan.root(), leaf, basic.size())? {
        Some(level) => committed(level, datatype),
        None => Ok(None),
    }
}

/// Builds [`byte_twin`]'s type (`None`: see there).
fn bytes_type(datatype: &Datatype) -> MpiResult<Option<MPI_Datatype>> {
    let plan = &datatype.plan;
    if crate::datatype::signature::one_entry_size(datatype) || plan.runs() > BYTE_TWIN_RUNS {
        return Ok(None);
    }
    let (mut lens, mut displs) = (Vec::new(), Vec::new());
    crate::plan::iov::for_each_segment(plan.root(), |disp, len| {
        displs.push(disp);
        lens.push(len);
        true
    });
    let level = Held(types::hindexed(&lens, &displs, MPI_BYTE)?);
    committed(level, datatype)
}

/// The most runs of one copy a byte twin is made for (its block list takes 16 bytes a run in
/// the MPI behind); a type with more is received as bytes by the engine.
const BYTE_TWIN_RUNS: i64 = 1 << 16;

/// `level`, one copy of `datatype`'s plan, resized to the plan's extent and committed: its
/// handle if it has `datatype`'s size.
fn committed(level: Held, datatype: &Datatype) -> MpiResult<Option<MPI_Datatype>> {
    let extent = datatype.plan.extent;
    let made = Held(types::resized(level.0, 0, extent)?);
    super::commit(made.0)?;
    let size: Count = types::size(made.0)?;
    Ok((size == datatype.size()).then(|| made.into_raw()))
}

/// The MPI behind's type for a plan `node` of one level of runs holding entries of the named
/// type `leaf` of `size` bytes, placed as the plan places them; `None` for another shape.
fn one_level(node: &Node, leaf: MPI_Datatype, size: i64) -> MpiResult<Option<Held>> {
    let level = match node {
        Node::Run { disp, len } => placed(Held(types::contiguous(len / size, leaf)?), *disp)?,
        Node::Repeat {
            disp,
            count,
            stride,
            child,
            ..
        } => match &**child {
            Node::Run { disp: inner, len } => placed(
                Held(types::hvector(*count, len / size, *stride, leaf)?),
                disp + inner,
            )?,
            _ => return Ok(None),
        },
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
        Node::Seq { .. } => return Ok(None),
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
