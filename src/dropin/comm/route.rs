//! Which path a message of a datatype takes: packed by this library's engine and sent as
//! bytes, or handed to the MPI behind with the type's twin (or, in `auto`, with a flat type
//! of the MPI behind's making where the plan is one level of long runs:
//! [`crate::dropin::twin::for_messages`]).
//!
//! `MPI_DTYPE_COMM` chooses: `auto` (the default) decides per committed type from its plan,
//! `engine` packs every derived type of this library (except, on the send side and over an MPI
//! not known to receive their bytes whole, such as MPICH before 5, the types whose basic
//! entries differ in size and whose type signature has short runs, unless every peer runs
//! this library: below), `mpi` packs none. Predefined types,
//! types the MPI behind made itself, uncommitted types, empty messages and messages of
//! `2^31` bytes or more always take the MPI's path, but in the collectives that move every
//! side as bytes over an MPI that takes bytes only so ([`BlockSides::AllBytes`]), where every type
//! goes as bytes. With `MPI_DTYPE_DEBUG=1` the path each
//! type takes is printed on stderr, once per type, when its first message is sent or
//! received.
//!
//! # The choice in `auto`
//!
//! The engine packs, the MPI behind sends the bytes, and the receiver unpacks: two copies
//! more than a contiguous message, which pay off where the MPI's own engine is slow, that is
//! where the type's contiguous runs are short. Where runs are long, the MPI behind sends
//! them from the program's memory without packing (MPICH 4's iov path), and the engine's
//! copies are pure cost; MPICH 5.0.2 moves them slower than the engine's path, and small
//! messages of derived types no faster. Where runs are short but far apart (one double per
//! 2 KiB row of a grid), every run is a cache miss for both engines, and again the copies
//! decide. So a type takes the engine's path when both hold:
//!
//! - its mean run ([`Plan::runs`](crate::plan::Plan::runs) over the size of one copy) is at
//!   most [`LONGEST_MEAN_RUN`] bytes, or the MPI behind moves the twins of long runs slower
//!   than the engine ([`Traits::slow_long_run_twins`]: MPICH 5);
//! - its data fill at least [`DENSEST_SPARSE`] of the memory one copy spans (size over true
//!   extent), or its layout is not strided ([`Plan::strided`](crate::plan::Plan::strided):
//!   indexed blocks, structs), or the MPI behind moves the twins of sparse types slowly
//!   ([`Traits::slow_sparse_twins`]: Intel MPI, MPICH 5). MPICH 4 moves a sparse strided
//!   layout (a grid's x face) as fast as the engine, but a sparse irregular one (a mesh's
//!   boundary points, a struct of a weather model's halos) several times slower;
//! - and, over an MPI that moves the twins of strided layouts fast whatever their density
//!   ([`Traits::fast_strided_twins`]: Open MPI, whose convertor packs fragment by fragment
//!   as it sends), its layout is not strided.
//!
//! Whatever the type, over an MPI that sends small messages of a twin eagerly and fast
//! ([`Traits::eager_twins_fast`]: MPICH 4), a message of at most [`EAGER_TWIN_BYTES`] takes
//! the MPI's path: that library packs the twin straight into its transport's buffer, where the
//! engine's path copies the packed bytes twice more. A message of at most
//! [`STRIDED_ENGINE_BYTES`] of a strided layout of more than one run is the exception: it
//! takes the engine's path, whatever its runs and its density, since MPICH takes longer to
//! start it (`MessagePaths::small_on_engine`; not for `MPI_Sendrecv_replace`, nor for a type
//! whose basic entries differ in size that would be sent as bytes to a receiver that may take
//! it with the twin). The first small message of any other type on each side takes the
//! engine's path where the type would take it but for its size, so that a type used in one
//! message needs no twin (`first_on_engine`).
//!
//! The thresholds come from `benches/comm.py` on a 2-core machine with MPICH 4.0.2 (two
//! ranks, shared memory), the strided exception from its application patterns
//! (`--set apps`), the exceptions for Intel MPI and Open MPI from the same with `--mpi impi`
//! and `--mpi ompi4`, those for MPICH 5 with `--mpi mpich5`: docs/drop-in.md and
//! docs/BENCHMARKS.md give the figures.
//!
//! # Types whose basic entries differ in size
//!
//! MPICH 4.0.2 (ch4:ucx) cannot receive a stream of bytes longer than one piece of its
//! transport (about 16 KiB over shared memory) into a type whose basic entries differ in size
//! (a struct of an `int` and a `double`): the transport cuts the stream into pieces at any
//! byte, and unpacking a piece that ends inside an entry fails with `MPI_ERR_TRUNCATE`.
//! (When MPICH sends such a type itself, it cuts the pieces at entry boundaries.) Its own
//! `MPI_Bsend`, which sends `MPI_PACKED`, fails the same way. So, in every mode, for such a
//! type, over an MPI not known to receive such a stream whole
//! ([`Traits::takes_bytes_into_mixed_sizes`]: MPICH 5 and later, Intel MPI 2021.19 and later take it,
//! and there such a type is routed as any other):
//!
//! - a send that the engine packs gives the MPI behind (over MPICH:
//!   [`Traits::sends_signature_streams`]) the packed bytes as copies of the type's stream
//!   type ([`crate::dropin::twin::stream_type`]: a struct of one contiguous block per run of
//!   its type signature), not as `MPI_BYTE`s, since the receiver may be a process without
//!   this library, which receives with the type itself: the MPI then cuts the stream between
//!   entries, as when it sends the type. A type whose signature has short runs (an array of
//!   structs: [`crate::dropin::twin::streams_whole`]), which the MPI would copy as slowly as
//!   the type itself, has no stream type: its sends take the MPI's path with the twin, as do
//!   those of every such type over other MPIs. Where every peer runs this library, and so
//!   receives as below ([`super::peers`]: learnt at `MPI_Init`, or `MPI_DTYPE_PEERS=preloaded`),
//!   the sends of every such type are routed as any other, as bytes;
//! - a receive never takes the twin, since the sender may send bytes (`MPI_PACKED` from
//!   `MPI_Bsend`, or the engine of a process that packs such sends): it lands as bytes for
//!   the engine where the engine's path is taken, else it takes the MPI's path with the
//!   type's byte twin ([`crate::dropin::twin::byte_twin`]), the same type map with every entry
//!   an `MPI_BYTE`, into which the MPI receives a stream cut anywhere and which it unpacks
//!   piece by piece as the twin, so a message sent with the twin arrives as fast. A type
//!   that has no byte twin (too many runs a copy, or it could not be made) lands as bytes
//!   for the engine.

use super::settings::{mode, Mode};
use crate::abi::{MPI_Comm, MPI_Datatype, MPI_DATATYPE_NULL};
use crate::datatype::signature::one_entry_size;
use crate::datatype::Datatype;
use crate::dropin::twin::{kept, Kept, MessagePaths};
use crate::handles;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};
use std::sync::{Arc, OnceLock};

/// The longest mean contiguous run, in bytes, of a type the engine packs in `auto` mode.
pub const LONGEST_MEAN_RUN: i64 = 64;
/// The least fraction of its span a type's data must fill for the engine to pack it in
/// `auto` mode, as a divisor: size * DENSEST_SPARSE >= true extent.
pub const DENSEST_SPARSE: i64 = 16;
/// The largest message (bytes of data) that `auto` leaves to an MPI whose eager sends of
/// twins are fast ([`Traits::eager_twins_fast`]: MPICH 4.0.2): its eager limit on shared
/// memory, 8 KiB.
/// A round trip of random single floats between two ranks takes 10.4 µs with the twin and
/// 13.0 with the engine at 8192 bytes, and 103 against 16 at 8400, where MPICH moves the twin
/// by rendezvous.
pub const EAGER_TWIN_BYTES: i64 = 8192;
/// The largest message of a strided layout ([`Plan::strided`](crate::plan::Plan::strided):
/// vectors, subarrays) that `auto` sends on the engine's path over an MPI whose eager sends
/// of twins are fast, whatever its runs and its density: MPICH 4.0.2 takes longer to start a
/// strided twin's eager message than the engine's path takes, and the engine's two extra
/// copies stay small. Round trips, µs, MPICH's path against the engine's: on an AMD EPYC,
/// blocks of 1 to 8 doubles every other place (`benches/eager_sweep.c runsN`) 1.6-1.8
/// against 0.8-1.0 at 1 KiB and 2.6-3.1 against 1.8-2.4 at 4 KiB, single doubles 256 bytes
/// apart (`column`) 1.6 against 0.9 at 1 KiB, 2.9 against 2.7 at 4 KiB and 4.5 against 5.0
/// at 8; NAS LU's y face (4,080 bytes, runs of 5
/// doubles) one way 1.6-1.9 against 0.9-1.0; on an Intel Xeon, single doubles 0.17 µs
/// faster on the engine's path at 1 and 2 KiB and NAS LU's y face 1.96 against 2.04-2.06,
/// but single doubles at 8 KiB 5.27 against 4.44.
pub const STRIDED_ENGINE_BYTES: i64 = 4096;

/// A message the engine packs: the datatype and the bytes its copies pack into.
pub struct Packed {
    /// The datatype, kept alive until the message is complete (the program may free its
    /// handle before).
    pub datatype: Arc<Datatype>,
    /// `count * size`.
    pub bytes: usize,
    /// On the send side, the type of the MPI behind that the packed bytes go as, one copy per
    /// copy of the datatype ([`crate::dropin::twin::stream_type`]), instead of `bytes`
    /// `MPI_BYTE`s.
    pub stream_type: Option<MPI_Datatype>,
}

/// Which side of a message a route is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    /// The data leave the program's memory.
    Send,
    /// The data arrive in the program's memory.
    Receive,
    /// The data arrive in the memory the data sent by the same call leave from
    /// (`MPI_Sendrecv_replace`): the MPI behind's call takes one type for both, so where a
    /// receive would take the byte twin, this one lands as bytes for the engine.
    ReceiveInPlace,
}

/// How many messages a route is taken for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uses {
    /// One: a point-to-point call that is not persistent.
    One,
    /// Any number: every start of a persistent request, or a collective's blocks.
    Many,
}

/// The path of a message.
pub enum Path {
    /// The engine packs.
    Engine(Packed),
    /// The MPI behind moves the data, with this type of its own instead of the program's
    /// handle ([`crate::dropin::twin::for_messages`], `auto` only), or with the program's.
    Mpi(Option<MPI_Datatype>),
}

/// Whether a message of `handle` may take the engine's path at all: not in `mpi` mode, and
/// never for a predefined type (one load each; the callers skip the rest of the routing).
/// The collectives that move blocks ask [`block_sides`].
#[inline]
pub fn may_pack(handle: MPI_Datatype) -> bool {
    mode() != Mode::Mpi && !handles::is_predefined(handle)
}

/// The path of `count` copies of `handle` on `side`. A handle the table does not hold is the
/// MPI behind's own type (or no type, which that library reports): its path.
///
/// The answer for a predefined type is found inline, in the caller (one load of the mode and
/// one of the table of predefined types), and handed back in registers: such a message is
/// forwarded with nothing else in front of it.
#[inline]
pub fn route(handle: MPI_Datatype, count: i64, side: Side, uses: Uses) -> Path {
    if count <= 0 || !may_pack(handle) {
        return Path::Mpi(None);
    }
    route_derived(handle, count, side, uses)
}

/// [`route`] for a type that may take the engine's path.
#[inline(never)]
fn route_derived(handle: MPI_Datatype, count: i64, side: Side, uses: Uses) -> Path {
    // An uncommitted type takes the MPI's path too: the MPI behind reports the error. The
    // choice comes back in registers, and the path is built from it where it is returned: a
    // path (or a choice of three fields) handed back through memory, read right after it was
    // written piece by piece, waited for those writes (about 6 ns a message).
    let mut choice = Choice::mpi(None);
    let mut engine_type = None;
    handles::try_with_committed(handle, |datatype| {
        choice = choose(handle, datatype, count, side, uses);
        if choice.is_engine() {
            engine_type = Some(datatype.clone());
        }
    });
    match engine_type {
        Some(datatype) => Path::Engine(Packed {
            datatype,
            bytes: choice.bytes(),
            stream_type: choice.handle(),
        }),
        None => Path::Mpi(choice.handle()),
    }
}

/// A path as [`choose`] decides it, in two words, which come back in registers: the engine's,
/// with the bytes of data and the stream type, or the MPI's, with the stand-in.
#[derive(Clone, Copy)]
struct Choice {
    /// The bytes of data of the engine's path (at most `i32::MAX`), or [`Choice::MPI`]; and
    /// [`Choice::HANDLE`] where `handle` holds a type.
    word: u64,
    /// The stream type (the engine's path) or the stand-in (the MPI's), where `word` says so.
    handle: MPI_Datatype,
}

impl Choice {
    /// The bit of [`Choice::word`] of the MPI's path.
    const MPI: u64 = 1 << 63;
    /// The bit of [`Choice::word`] that says [`Choice::handle`] holds a type.
    const HANDLE: u64 = 1 << 62;

    /// Packs the path and its type.
    fn new(word: u64, handle: Option<MPI_Datatype>) -> Choice {
        match handle {
            Some(handle) => Choice {
                word: word | Choice::HANDLE,
                handle,
            },
            None => Choice {
                word,
                handle: MPI_DATATYPE_NULL,
            },
        }
    }

    /// The engine's path for `bytes` bytes of data, given to the MPI behind as `stream_type`.
    fn engine(bytes: u32, stream_type: Option<MPI_Datatype>) -> Choice {
        Choice::new(bytes as u64, stream_type)
    }

    /// The MPI's path, with `stand_in` for the program's type.
    fn mpi(stand_in: Option<MPI_Datatype>) -> Choice {
        Choice::new(Choice::MPI, stand_in)
    }

    /// Whether it is the engine's path.
    fn is_engine(self) -> bool {
        self.word & Choice::MPI == 0
    }

    /// The bytes of data of the engine's path.
    fn bytes(self) -> usize {
        (self.word as u32) as usize
    }

    /// The stream type or the stand-in.
    fn handle(self) -> Option<MPI_Datatype> {
        (self.word & Choice::HANDLE != 0).then_some(self.handle)
    }
}

/// The path of [`route`] for the committed type `datatype` of `handle`.
fn choose(handle: MPI_Datatype, datatype: &Datatype, count: i64, side: Side, uses: Uses) -> Choice {
    let bytes = datatype
        .size()
        .checked_mul(count)
        .filter(|&b| b > 0 && b <= i32::MAX as i64);
    let kept = kept(datatype);
    let paths = *kept
        .message_paths
        .get_or_init(|| decide(handle, datatype, mode()));
    let small_on_engine = paths.small_on_engine
        && side != Side::ReceiveInPlace
        && bytes.is_some_and(|b| b <= STRIDED_ENGINE_BYTES);
    let eager = !small_on_engine
        && side != Side::ReceiveInPlace
        && sent_eagerly(bytes)
        && !(uses == Uses::One && first_on_engine(kept, paths, side));
    let engine = small_on_engine
        || !eager
            && match side {
                Side::Send => paths.engine_send,
                Side::Receive => paths.engine_receive,
                Side::ReceiveInPlace => paths.engine_receive || paths.byte_twin_receive,
            };
    // A message sent eagerly arrives in one piece, which the twin takes whole even as bytes.
    let byte_twin = paths.byte_twin_receive && side != Side::Send && !eager;
    // A send whose bytes must go as the type's signature needs its stream type; without one
    // (it could not be made) it takes the twin.
    let needs_stream = engine && side == Side::Send && paths.stream_send;
    let stream_type = needs_stream
        .then(|| crate::dropin::twin::stream_type(datatype, kept))
        .flatten();
    let engine = engine && (!needs_stream || stream_type.is_some());
    let (engine, stand_in) = match engine {
        true => (true, None),
        false => match stand_in(datatype, kept, paths, byte_twin) {
            // A receive that must take any stream of bytes and got no byte twin (too many
            // runs, or it could not be made) lands as bytes.
            None if byte_twin => (true, None),
            stand_in => (false, stand_in),
        },
    };
    match bytes {
        Some(bytes) if engine => Choice::engine(bytes as u32, stream_type),
        _ => Choice::mpi(stand_in),
    }
}

/// Whether this message, one that [`sent_eagerly`] gives the MPI's path and the route of a
/// point-to-point call that is not persistent ([`Uses::One`]), is the first of its type on its
/// side whose path would otherwise be the engine's: that one takes the engine's path. The twin
/// pays for itself from the second small message on; a type made, sent (or received) once
/// and freed, as a program that builds its types for each exchange does, then never needs
/// one. Sends of a type whose basic entries differ in size that the MPI behind may not
/// receive as bytes everywhere (it needs a byte twin: [`MessagePaths::byte_twin_receive`])
/// keep the twin: a later receive of such a message takes the twin, which takes a stream of
/// bytes only in one piece.
fn first_on_engine(kept: &Kept, paths: MessagePaths, side: Side) -> bool {
    let (engine, index) = match side {
        Side::Send => (
            paths.engine_send && !paths.stream_send && !paths.byte_twin_receive,
            0,
        ),
        Side::Receive => (paths.engine_receive, 1),
        Side::ReceiveInPlace => return false,
    };
    engine && kept.first_small_message(index)
}

/// Whether a message of `bytes` bytes of data (`None`: too many) goes faster with the twin in
/// `auto` mode, whatever its type but a small strided one ([`MessagePaths::small_on_engine`],
/// decided before): an MPI whose eager sends of twins are fast sends it eagerly ([`EAGER_TWIN_BYTES`]), in one
/// piece, so a receive of it needs no byte twin either (module documentation). (Not for
/// `MPI_Sendrecv_replace`, whose one type for both sides the receive decides.)
fn sent_eagerly(bytes: Option<i64>) -> bool {
    mode() == Mode::Auto
        && behind_traits().eager_twins_fast
        && bytes.is_some_and(|b| b <= EAGER_TWIN_BYTES)
}

/// The type of the MPI behind that a message of `datatype` takes on its path instead of the
/// program's handle (whose twin that library would take): the byte twin for a receive that
/// must take a stream of bytes cut anywhere into a type whose basic entries differ in size
/// (`byte_twin`); the committed twin for other messages of such a type (its sends, which that
/// MPI cuts between entries, and the receives of messages sent in one piece); else the flat
/// type of one level of long runs, if any, or the committed twin
/// ([`crate::dropin::twin::message_copy`]: the object's twin, or a committed copy of it).
/// `None` when no stand-in can be made: the program's handle, which takes its twin. `kept`
/// is what the drop-in layer keeps with `datatype`, looked up once per message.
fn stand_in(
    datatype: &Datatype,
    kept: &Kept,
    paths: MessagePaths,
    byte_twin: bool,
) -> Option<MPI_Datatype> {
    use crate::dropin::twin::{byte_twin as bytes, for_messages, message_copy};
    match (byte_twin, paths.byte_twin_receive) {
        (true, _) => bytes(datatype, kept),
        (false, true) => message_copy(datatype, kept),
        (false, false) => for_messages(datatype, kept).or_else(|| message_copy(datatype, kept)),
    }
}

/// Whether the engine's path is the faster one for messages of `datatype` (`auto`). The
/// sparse types' rule holds over MPICH 4 for strided layouts ([`Plan::strided`]: a grid's x
/// face), whose twins it moves as fast as the engine; not for indexed and struct layouts,
/// which it moves several times slower (a mesh's boundary points, a struct of a weather
/// model's halos). Over Intel MPI and MPICH 5, which move even strided sparse twins slower
/// than the engine in some shapes, the engine packs them too ([`Traits::slow_sparse_twins`]);
/// over Open MPI, which moves strided twins fast dense or sparse, none
/// ([`Traits::fast_strided_twins`]). Long runs take the engine's path only over an MPI that
/// moves their twins slowly ([`Traits::slow_long_run_twins`]).
///
/// [`Plan::strided`]: crate::plan::Plan::strided
fn engine_wins(datatype: &Datatype) -> bool {
    let plan = &datatype.plan;
    let (size, runs) = (datatype.size(), plan.runs().max(1));
    let contiguous = runs == 1 && size == datatype.extent();
    let dense = size.saturating_mul(DENSEST_SPARSE) >= datatype.true_extent();
    let short_runs = size <= LONGEST_MEAN_RUN.saturating_mul(runs);
    let traits = behind_traits();
    let strided_wins = match traits.fast_strided_twins {
        // Only copies whose bytes go forward in memory: Open MPI sends those of a vector of
        // negative stride out of type-map order (`c_tests/drop_in/programs/bounds.c`).
        true => !(plan.strided_forward() && datatype.extent() >= datatype.true_extent()),
        false => dense || traits.slow_sparse_twins,
    };
    !contiguous && (short_runs || traits.slow_long_run_twins) && (!plan.strided() || strided_wins)
}

/// The paths of messages of `datatype` (whose handle is `handle`) in `mode`, decided at its
/// first message; with `MPI_DTYPE_DEBUG=1` they are printed then. A type whose basic entries
/// differ in size is sent, unless the MPI behind receives a stream of bytes into it whole, on
/// the engine's path as its stream type where it has one, else on the MPI's path, and
/// received through its byte twin where the engine does not receive it (module
/// documentation).
fn decide(handle: MPI_Datatype, datatype: &Datatype, mode: Mode) -> MessagePaths {
    let twin_takes_bytes = one_entry_size(datatype) || behind_traits().takes_bytes_into_mixed_sizes;
    let may_send_bytes = twin_takes_bytes || super::peers::all_preloaded();
    let stream_send = !may_send_bytes
        && behind_traits().sends_signature_streams
        && crate::dropin::twin::streams_whole(datatype);
    let engine_send =
        (may_send_bytes || stream_send) && (mode == Mode::Engine || engine_wins(datatype));
    let paths = MessagePaths {
        engine_send,
        engine_receive: engine_send || mode == Mode::Engine,
        byte_twin_receive: !twin_takes_bytes,
        stream_send,
        // As for the first small message (`first_on_engine`): not a send as bytes that a
        // receiver might take with the twin, which takes a stream of bytes only in one piece.
        small_on_engine: mode == Mode::Auto
            && behind_traits().eager_twins_fast
            && (stream_send || twin_takes_bytes)
            && datatype.plan.strided()
            && datatype.plan.runs() > 1,
    };
    if crate::behind::debug() {
        let on_wire = match paths.stream_send {
            true => "its packed bytes as a type of its signature on the wire",
            false => "bytes on the wire",
        };
        for (side, engine, twin, wire) in [
            ("sent", paths.engine_send, "its twin", on_wire),
            (
                "received",
                paths.engine_receive,
                match paths.byte_twin_receive {
                    true => "its twin in bytes; mpi-dtype's engine if it has none",
                    false => "its twin",
                },
                "bytes on the wire",
            ),
        ] {
            let path = match engine {
                true => format!("mpi-dtype's engine ({wire})"),
                false => format!("the MPI library's own path ({twin})"),
            };
            crate::diagnostic::line(format_args!(
                "mpi-dtype: messages of datatype {:#x} ({} bytes in {} runs, span {} bytes) {side}: {path}",
                crate::abi::handle_bits(handle),
                datatype.size(),
                datatype.plan.runs(),
                datatype.true_extent(),
            ));
        }
        if paths.small_on_engine {
            crate::diagnostic::line(format_args!(
                "mpi-dtype: messages of datatype {:#x} of at most {STRIDED_ENGINE_BYTES} bytes, \
                 sent and received: mpi-dtype's engine",
                crate::abi::handle_bits(handle),
            ));
        }
    }
    paths
}

/// What the routing needs to know of the MPI library behind this one, from its version.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traits {
    /// It receives a stream of bytes whole into a type whose basic entries differ in size, so
    /// that a process without this library receives such a type from the engine right
    /// (module documentation). MPICH before 5 does not; MPICH 5.0.2 and Intel MPI 2021.19 do,
    /// which the random messages between processes with and without this library check
    /// (`scripts/test-drop-in-p2p.sh`, modes `mixed-*`), and so are trusted with their later
    /// versions.
    pub takes_bytes_into_mixed_sizes: bool,
    /// It moves the twins of sparse types (short runs far apart: a column of a matrix)
    /// slower than the engine's path, at least in some of their shapes, so the engine packs
    /// them in `auto`: Intel MPI 2021.19 and later (`benches/comm.py --mpi impi`: the x face
    /// of a 256^3 grid 6.1 ms with the twin, 4.2 ms with its own subarray, 2.0 ms with the
    /// engine), and MPICH 5.0.2 (`benches/eager_sweep.c column` and `columns`, single doubles
    /// 256 bytes apart, µs a round trip: 16 KiB as a flat vector 111-128, as a vector of
    /// vectors 18-28, with the engine 16-21; 8 KiB 990-1350 either way, with the engine 11-14),
    /// which moves only a grid's x face built as a subarray faster than the engine (256^3:
    /// 0.71 ms, the engine 1.0). MPICH 4.0.2 moves them as fast as the engine.
    pub slow_sparse_twins: bool,
    /// It moves the twins of strided layouts of short runs (a vector of single doubles, a
    /// grid's x face, an array of structs) at least as fast as the engine packs, sends and
    /// unpacks them, dense or sparse, so `auto` leaves them to it where their bytes go forward
    /// in memory ([`Plan::strided_forward`](crate::plan::Plan::strided_forward); it gets
    /// the others wrong): Open MPI 4.1 and 5.0, whose convertor packs each fragment as it
    /// sends it (`benches/comm.py --mpi ompi4`). MPICH moves the dense ones slower than the
    /// engine.
    pub fast_strided_twins: bool,
    /// Its collectives that move one block per process take `MPI_BYTE`s on one side of a
    /// pair of processes and the data of a type on the other, as its point-to-point calls do,
    /// so that the engine may pack one side of them ([`crate::dropin::comm::blocks`]): MPICH
    /// and Intel MPI 2021.19. Open MPI 4.1's collectives hang so (`scripts/test-drop-in-p2p.sh`
    /// with `P2P_ABI=ompi`), and an unknown library is not trusted with it: there they move
    /// bytes on every side or on none ([`BlockSides::AllBytes`]).
    pub collectives_take_bytes: bool,
    /// [`Self::collectives_take_bytes`] for the collectives that send every partner the same
    /// block (`MPI_Allgather`, `MPI_Allgatherv` and their neighbourhood forms): MPICH. Intel
    /// MPI 2021.19's `MPI_Allgather` delivers wrong data between a type and another layout of
    /// its signature, bytes included (`c_tests/drop_in/programs/gather.c`, `collectives.c`).
    pub allgather_takes_bytes: bool,
    /// Its `MPI_Alltoall`, `MPI_Alltoallv` and `MPI_Alltoallw` move the twin of a derived
    /// type on a sending side slower than the engine packs it, so there a sending side goes
    /// as bytes ([`sends_bytes`]): Intel MPI 2021.19 (`benches/comm.py --mpi impi`,
    /// on an AMD EPYC: the FFT transpose's `MPI_Alltoall` 4.6-5.0 ms with the twin of its
    /// send type, 1.4-1.7 with that side packed; `MPI_Ialltoall` 2.1-2.3 against 1.5-1.8;
    /// `MPI_Alltoallv` and `MPI_Alltoallw` 1.8-1.9 against 1.5-1.6). MPICH 4.0.2 and 5.0.2
    /// move it as fast either way.
    pub slow_alltoall_twins: bool,
    /// It moves the twins of types of long runs (a mean run of more than
    /// [`LONGEST_MEAN_RUN`] bytes: rows of a grid's faces, a lattice's blocks of su3 matrices)
    /// slower than the engine's path, dense or sparse, so `auto` packs them too: MPICH 5.0.2
    /// (`benches/comm.py --mpi mpich5`, on an AMD EPYC, the medians of five rounds: NAS MG's
    /// y and z faces of 1 KiB rows 0.042 ms with the twin, 0.024-0.027 with the engine;
    /// MILC's su3 z down 0.031 against 0.017; the y face of a 256^3 grid, rows of 2 KiB, 0.147
    /// against 0.112). MPICH 4.0.2 sends them from the program's memory as fast as the
    /// engine's copies.
    pub slow_long_run_twins: bool,
    /// It sends a message of up to [`EAGER_TWIN_BYTES`] of a twin eagerly, packing it straight
    /// into its transport's buffer, at least as fast as the engine's path on the layouts
    /// measured (random single floats and bytes, a vector of single doubles, structs of
    /// indexed blocks), so `auto` leaves such messages to it: MPICH 4.0.2. MPICH 5.0.2 moves
    /// them no faster than the engine's path, and in some runs nearly twice as slow
    /// (`benches/comm.py --mpi mpich5`, six runs of each: NAS LU's y face of 4 KB 3.1-5.3 µs
    /// with the twin, 2.8-3.5 with the engine; `benches/eager_sweep.c floats`: 1 KiB of
    /// random single floats 4.9-5.5 µs a round trip, 3.1-4.9 with the engine), and moves 8 KiB
    /// of them by rendezvous (124 µs, the engine 18). Intel MPI 2021.19 moves even small
    /// sparse twins several times slower than the engine.
    pub eager_twins_fast: bool,
    /// It moves a message sent as copies of a type's stream type
    /// ([`crate::dropin::twin::stream_type`]) as it moves the type itself, cut between
    /// entries, truncated receives included, so that the engine's sends of a type whose basic
    /// entries differ in size may take it where the MPI does not receive their bytes whole:
    /// MPICH (the random messages between processes with and without this library,
    /// `scripts/test-drop-in-p2p.sh`). Open MPI 4.1 and 5.0 write past a receive buffer of
    /// bytes too short for a message sent so (two copies of a struct of 4 KB into 5000 bytes:
    /// 3006 bytes past it), so there such types keep their twins.
    pub sends_signature_streams: bool,
    /// A receive into a contiguous buffer too short for the message (a truncated receive)
    /// gets the whole message written into it, past its end, when the message was sent from
    /// contiguous memory and is long enough for its rendezvous protocol: Open MPI 4.1.4 and
    /// 5.0.11 (8006 bytes received as 5000 `MPI_BYTE`s: 3006 bytes written past them; the
    /// same with a type of the same 5000 bytes without a gap, a struct of two adjacent
    /// blocks). The engine's receives then land through a type with a hole
    /// ([`super::holed`]), into which it unpacks piece by piece and stops at the end.
    pub overruns_short_receives: bool,
}

/// Whether the engine's point-to-point receives land through a type with a hole
/// ([`Traits::overruns_short_receives`]).
pub fn overruns_short_receives() -> bool {
    behind_traits().overruns_short_receives
}

/// Whether a truncated receive of the engine has the bytes of the message that fit in its
/// landing buffer, and a status that counts at least those, so that the engine unpacks them:
/// over an MPI that writes a whole message into a receive too short for it
/// ([`Traits::overruns_short_receives`]: Open MPI 4.1 and 5.0), whose receives therefore land
/// through the type with a hole ([`super::holed`]), filled piece by piece up to its end (the
/// count is the message's). MPICH 4.0.2 writes none of them and leaves the status's count as
/// it was; MPICH 5.0.2 counts the receive's size but, for a message a process without this
/// library sent as a derived type, writes only some of them (the random messages,
/// `scripts/test-drop-in-p2p.sh`, mode `mixed-engine`). So there, as over an unknown
/// library, a truncated receive of the engine unpacks nothing: the landing buffer holds what
/// an earlier message left in it.
pub fn keeps_truncated_prefix() -> bool {
    behind_traits().overruns_short_receives
}

/// How the sides of a collective that moves blocks go ([`block_sides`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BlockSides {
    /// To the MPI behind as the program gave them: `mpi` mode, nothing the engine may pack, or
    /// an MPI that takes bytes only where every side is bytes, behind a process that may not
    /// learn that every other one runs this library.
    Unchanged,
    /// Each side on the path a message of all its blocks would take ([`route`]): the MPI
    /// behind takes bytes on one side of a pair and the data of a type on the other, as its
    /// point-to-point calls do ([`Traits::collectives_take_bytes`]).
    OwnPaths,
    /// Every side of every process as `MPI_BYTE`s ([`as_bytes`]): the MPI behind does not take
    /// bytes on one side of a pair and a type on the other (Open MPI, whose collectives cut a
    /// block into pieces of whole copies of each side's own type, and Intel MPI's
    /// `MPI_Allgather`), but every process runs this library ([`super::peers::all_preloaded`]),
    /// so each one takes this same rule and every pair moves bytes on both sides. Only over
    /// communicators all of whose processes are of this `MPI_COMM_WORLD`
    /// ([`super::world::within_world`]), which learnt that alike.
    AllBytes,
}

/// How the sides of a collective that moves blocks over `comm` go ([`BlockSides`];
/// `allgather`: one that sends every partner the same block, which the MPI behind may take
/// otherwise, [`Traits::allgather_takes_bytes`]; `packable`: a side holds a type the engine
/// may pack, [`may_pack`]). `mpi` mode is a process's own, and every process of a job runs in
/// one mode.
pub fn block_sides(allgather: bool, comm: MPI_Comm, packable: bool) -> BlockSides {
    if mode() == Mode::Mpi {
        return BlockSides::Unchanged;
    }
    let traits = behind_traits();
    let takes_bytes = match allgather {
        true => traits.allgather_takes_bytes,
        false => traits.collectives_take_bytes,
    };
    if takes_bytes {
        return match packable {
            true => BlockSides::OwnPaths,
            false => BlockSides::Unchanged,
        };
    }
    match super::peers::all_preloaded() && super::world::within_world(comm) {
        true => BlockSides::AllBytes,
        false => BlockSides::Unchanged,
    }
}

/// Whether the sending side of a collective whose sides go `sides` goes as bytes
/// ([`as_bytes`]): where every side does, and, for an `MPI_Alltoall`, `MPI_Alltoallv` or
/// `MPI_Alltoallw` (`alltoall`: or their nonblocking and persistent forms; not their
/// neighbourhood forms), where the MPI behind takes bytes on one side and moves twins slowly
/// on a sending side ([`Traits::slow_alltoall_twins`]). Bytes sent so are the packed type
/// signature, which a process without this library receives with any type, as over that MPI
/// it may.
pub fn sends_bytes(sides: BlockSides, alltoall: bool) -> bool {
    match sides {
        BlockSides::AllBytes => true,
        BlockSides::OwnPaths => alltoall && behind_traits().slow_alltoall_twins,
        BlockSides::Unchanged => false,
    }
}

/// How `count` copies of a type, `blocks` blocks of them, go where a collective moves every
/// side as bytes ([`BlockSides::AllBytes`]), with the bytes of one block.
pub enum AsBytes {
    /// As the bytes they already are, `MPI_BYTE`s from or into the program's buffer: copies
    /// that lie there as one run of memory from its address, in type-map order
    /// ([`Datatype::one_run_at`]: a predefined type, a contiguous one), or no
    /// data at all.
    InPlace(i64),
    /// Packed by the engine.
    Packed(Packed, i64),
    /// Not at all: an uncommitted type, no type, or blocks of `2^31` bytes or more. The call
    /// goes to the MPI behind with the program's type, which breaks the rule that every side
    /// goes as bytes or none: it reports the error, or, for such long blocks, moves them
    /// as the program's type where the other sides move bytes.
    Unchanged,
}

/// How `count` copies of `handle`, `blocks` blocks of them, go as bytes ([`AsBytes`]).
pub fn as_bytes(handle: MPI_Datatype, count: i64, blocks: i64) -> AsBytes {
    match packable(handle) {
        Some(datatype) => as_bytes_of(&datatype, count, blocks),
        None => AsBytes::Unchanged,
    }
}

/// The datatype of `handle` where the engine may pack it as the program's data in a
/// collective whose every side goes as bytes: a committed type, or one the MPI behind made
/// itself, imported ([`crate::dropin::with_type`]), which the program committed there.
pub fn packable(handle: MPI_Datatype) -> Option<Arc<Datatype>> {
    let found = crate::dropin::with_type(handle, |datatype, committed| {
        (committed || crate::dropin::is_foreign(handle)).then(|| datatype.clone())
    });
    found.ok().flatten()
}

/// [`as_bytes`] of a type the engine may pack ([`packable`]).
pub fn as_bytes_of(datatype: &Arc<Datatype>, count: i64, blocks: i64) -> AsBytes {
    let Some(bytes) = datatype.size().checked_mul(count.max(0)) else {
        return AsBytes::Unchanged;
    };
    let block = bytes / blocks.max(1);
    if block > i32::MAX as i64 {
        AsBytes::Unchanged
    } else if bytes == 0 || datatype.one_run_at(count) == Some(0) {
        AsBytes::InPlace(block)
    } else {
        let packed = Packed {
            datatype: datatype.clone(),
            bytes: bytes as usize,
            stream_type: None,
        };
        AsBytes::Packed(packed, block)
    }
}

/// The [`Traits`] of the MPI behind, asked once (`MPI_Get_library_version`).
fn behind_traits() -> Traits {
    static TRAITS: OnceLock<Traits> = OnceLock::new();
    *TRAITS.get_or_init(|| {
        let mut text = vec![0u8; crate::abi::MPI_MAX_LIBRARY_VERSION_STRING as usize + 1];
        let mut length: c_int = 0;
        let rc = crate::behind::forward!(
            PMPI_Get_library_version: fn(*mut c_char, *mut c_int) -> c_int,
            text.as_mut_ptr() as *mut c_char,
            &mut length
        );
        match (rc, CStr::from_bytes_until_nul(&text)) {
            (Some(crate::abi::MPI_SUCCESS), Ok(version)) => traits(&version.to_string_lossy()),
            _ => Traits::default(),
        }
    })
}

/// The [`Traits`] of the MPI library of version text `version` (`MPI_Get_library_version`):
/// those of a library not named there, or of an earlier version, are all false.
pub fn traits(version: &str) -> Traits {
    /// The leading `major.minor` numbers of `text`.
    fn major_minor(text: &str) -> Option<(u32, u32)> {
        let mut numbers = text.trim_start().split(|c: char| !c.is_ascii_digit());
        let major = numbers.next()?.parse().ok()?;
        Some((major, numbers.next()?.parse().unwrap_or(0)))
    }
    let mpich = version.strip_prefix("MPICH Version:").and_then(major_minor);
    let intel = version
        .strip_prefix("Intel(R) MPI Library")
        .and_then(major_minor)
        .is_some_and(|v| v >= (2021, 19));
    let open_mpi = version
        .strip_prefix("Open MPI v")
        .and_then(major_minor)
        .is_some_and(|v| v >= (4, 1));
    Traits {
        takes_bytes_into_mixed_sizes: mpich.is_some_and(|v| v >= (5, 0)) || intel,
        slow_sparse_twins: intel || mpich.is_some_and(|v| v >= (5, 0)),
        fast_strided_twins: open_mpi,
        collectives_take_bytes: mpich.is_some() || intel,
        allgather_takes_bytes: mpich.is_some(),
        slow_alltoall_twins: intel,
        slow_long_run_twins: mpich.is_some_and(|v| v >= (5, 0)),
        eager_twins_fast: mpich.is_some_and(|v| v < (5, 0)),
        sends_signature_streams: mpich.is_some(),
        overruns_short_receives: open_mpi,
    }
}

#[cfg(test)]
mod tests {
    use super::{traits, Traits};

    #[test]
    fn traits_of_the_libraries_behind() {
        let none = Traits::default();
        let mpich4 = Traits {
            collectives_take_bytes: true,
            allgather_takes_bytes: true,
            eager_twins_fast: true,
            sends_signature_streams: true,
            ..Traits::default()
        };
        let mpich5 = Traits {
            takes_bytes_into_mixed_sizes: true,
            collectives_take_bytes: true,
            allgather_takes_bytes: true,
            slow_sparse_twins: true,
            slow_long_run_twins: true,
            sends_signature_streams: true,
            ..Traits::default()
        };
        let intel = Traits {
            takes_bytes_into_mixed_sizes: true,
            slow_sparse_twins: true,
            collectives_take_bytes: true,
            slow_alltoall_twins: true,
            ..Traits::default()
        };
        let open_mpi = Traits {
            fast_strided_twins: true,
            overruns_short_receives: true,
            ..Traits::default()
        };
        let cases = [
            (
                "MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022\n",
                mpich4,
            ),
            (
                "MPICH Version:      5.0.2\nMPICH Release date: Fri Sep 25 20:45:26 UTC 2026\n",
                mpich5,
            ),
            ("Intel(R) MPI Library 2021.19.0 for Linux* OS\n", intel),
            ("Intel(R) MPI Library 2019 Update 12 for Linux* OS\n", none),
            (
                "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4",
                open_mpi,
            ),
            (
                "Open MPI v5.0.11, package: Open MPI user@localhost Distribution",
                open_mpi,
            ),
            ("Open MPI v4.0.7, package: Open MPI", none),
            ("", none),
        ];
        for (version, expected) in cases {
            assert_eq!(traits(version), expected, "{version:?}");
        }
    }

    /// Where every side goes as bytes, a block of less than `2^31` bytes goes so however many
    /// blocks a process moves (a root's many, each sender's one), and only a longer block
    /// does not: the decision is the same for both ends of every pair.
    #[test]
    fn collectives_as_bytes_decide_per_block() {
        use super::{as_bytes_of, AsBytes};
        use crate::datatype::construct::{contiguous, named, resized};
        let double = named(crate::predefined::by_name("MPI_DOUBLE").unwrap());
        let spaced = resized(&double, 0, 16, false).unwrap();
        let mib = contiguous(1 << 17, &double, false).unwrap();
        let block = |chosen: AsBytes| match chosen {
            AsBytes::InPlace(block) => ("in place", block),
            AsBytes::Packed(packed, block) => {
                assert_eq!(packed.bytes as i64, block * (packed.bytes as i64 / block));
                ("packed", block)
            }
            AsBytes::Unchanged => ("unchanged", 0),
        };
        // 64 blocks of 40 MiB at a root, 2.5 GiB in all, and one at each sender.
        assert_eq!(
            block(as_bytes_of(&mib, 40 * 64, 64)),
            ("in place", 40 << 20)
        );
        assert_eq!(block(as_bytes_of(&mib, 40, 1)), ("in place", 40 << 20));
        assert_eq!(
            block(as_bytes_of(&double, 5 << 20, 1)),
            ("in place", 40 << 20)
        );
        assert_eq!(
            block(as_bytes_of(&spaced, 40 << 17, 8)),
            ("packed", 5 << 20)
        );
        assert_eq!(block(as_bytes_of(&spaced, 0, 8)), ("in place", 0));
        // A block of 2 GiB does not fit the MPI's count.
        assert_eq!(block(as_bytes_of(&mib, 2048 * 4, 4)), ("unchanged", 0));
        assert_eq!(
            block(as_bytes_of(&mib, 2047 * 4, 4)),
            ("in place", 2047 << 20)
        );
    }
}
