//! The copy loops a plan runs, specialised at compile time by block size and by loop shape.
//!
//! Every kernel moves bytes between user memory (`mem`, addressed by displacements) and the
//! packed stream (`*stream`, consecutive, advanced past what was moved). The const parameter
//! `PACK` gives the direction: `true` copies memory to the stream (pack), `false` the stream
//! to memory (unpack). Blocks of up to 1 KiB are moved as fixed-size unaligned loads and
//! stores, so no call to `memcpy` is made for them.
//!
//! # Safety
//! Every kernel requires that the bytes it addresses in `mem` (at the displacements it is
//! given) and the bytes it moves at `*stream` are valid for the access its direction makes,
//! and that the stream does not overlap the bytes it addresses in `mem` (the moves of more
//! than 16 bytes read and write piece by piece).

use std::ptr::{read_unaligned, write_unaligned};

/// `mem + disp`, without assuming the result stays inside one allocation (displacements are
/// relative to an address the caller chose, such as `MPI_BOTTOM`).
#[inline(always)]
pub fn at(mem: *mut u8, disp: i64) -> *mut u8 {
    mem.wrapping_offset(disp as isize)
}

/// Moves exactly `N` bytes: more than 16 as [`medium`] moves them, 16-byte pieces stored in
/// ascending order.
#[inline(always)]
unsafe fn fixed<const PACK: bool, const N: usize>(mem: *mut u8, stream: *mut u8) {
    // SAFETY: the caller guarantees both ranges of N bytes (module contract).
    unsafe {
        if N > 16 {
            return medium::<PACK>(mem, stream, N);
        }
        let (src, dst) = if PACK { (mem, stream) } else { (stream, mem) };
        write_unaligned(dst as *mut [u8; N], read_unaligned(src as *const [u8; N]));
    }
}

/// Keeps the stores before it before the stores after it in the compiled code (the processor
/// itself keeps stores in order on x86-64, not on every architecture): the compiler otherwise stores
/// the pieces of a block in any order (the second 16 bytes of 32 first). Stored in ascending
/// order, blocks of 40 bytes 120 apart unpacked 1.14 times faster on an Intel Xeon (C loops
/// of the two orders: 6.5 GB/s against 5.7), since each line the stores reach is then
/// written from its start.
#[inline(always)]
fn in_order() {
    std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
}

/// Moves `len` bytes (`N <= len <= 2 * N`) as two possibly overlapping `N`-byte pieces, both
/// read before either is written.
#[inline(always)]
unsafe fn pair<const PACK: bool, const N: usize>(mem: *mut u8, stream: *mut u8, len: usize) {
    let (src, dst) = if PACK { (mem, stream) } else { (stream, mem) };
    // SAFETY: both pieces lie inside the `len` bytes the caller guarantees.
    unsafe {
        let head = read_unaligned(src as *const [u8; N]);
        let tail = read_unaligned(src.add(len - N) as *const [u8; N]);
        write_unaligned(dst as *mut [u8; N], head);
        write_unaligned(dst.add(len - N) as *mut [u8; N], tail);
    }
}

/// Moves `len` bytes of any length: fixed-size moves up to 64 bytes, `memmove` beyond.
#[inline(always)]
pub unsafe fn any<const PACK: bool>(mem: *mut u8, stream: *mut u8, len: usize) {
    // SAFETY: the caller guarantees the `len` bytes on both sides.
    unsafe {
        match len {
            0..=16 => short::<PACK>(mem, stream, len),
            24 if !PACK => Split::<16, 8>.mv::<PACK>(mem, stream),
            17..=31 => pair::<PACK, 16>(mem, stream, len),
            32 => fixed::<PACK, 32>(mem, stream),
            40 if !PACK => Split::<32, 8>.mv::<PACK>(mem, stream),
            48 if !PACK => Split::<32, 16>.mv::<PACK>(mem, stream),
            33..=64 => pair::<PACK, 32>(mem, stream, len),
            _ if PACK => std::ptr::copy(mem, stream, len),
            _ => std::ptr::copy(stream, mem, len),
        }
    }
}

/// [`any`] for at most 16 bytes, which moves them without [`medium`] (whose last bytes it
/// moves).
#[inline(always)]
unsafe fn short<const PACK: bool>(mem: *mut u8, stream: *mut u8, len: usize) {
    // SAFETY: the caller guarantees the `len` bytes on both sides.
    unsafe {
        match len {
            0 => {}
            1 => fixed::<PACK, 1>(mem, stream),
            2 => fixed::<PACK, 2>(mem, stream),
            3 => pair::<PACK, 2>(mem, stream, 3),
            4 => fixed::<PACK, 4>(mem, stream),
            5..=7 => pair::<PACK, 4>(mem, stream, len),
            8 => fixed::<PACK, 8>(mem, stream),
            // Unpacking writes the program's memory: no byte twice where two moves fit.
            12 if !PACK => Split::<8, 4>.mv::<PACK>(mem, stream),
            9..=15 => pair::<PACK, 8>(mem, stream, len),
            _ => fixed::<PACK, 16>(mem, stream),
        }
    }
}

/// A block mover whose size is fixed when the kernel is instantiated.
trait Block {
    /// Bytes per block.
    fn len(&self) -> usize;
    /// Moves one block.
    unsafe fn mv<const PACK: bool>(&self, mem: *mut u8, stream: *mut u8);
}

/// A block mover lent to a loop that moves the same blocks as its caller.
impl<B: Block> Block for &B {
    #[inline(always)]
    fn len(&self) -> usize {
        (**self).len()
    }
    #[inline(always)]
    unsafe fn mv<const PACK: bool>(&self, mem: *mut u8, stream: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { (**self).mv::<PACK>(mem, stream) }
    }
}

/// Blocks of exactly `N` bytes.
struct Fixed<const N: usize>;
impl<const N: usize> Block for Fixed<N> {
    #[inline(always)]
    fn len(&self) -> usize {
        N
    }
    #[inline(always)]
    unsafe fn mv<const PACK: bool>(&self, mem: *mut u8, stream: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { fixed::<PACK, N>(mem, stream) }
    }
}

/// Blocks of `self.0` bytes (`N <= len <= 2N`), moved as two overlapping `N`-byte pieces.
struct Pair<const N: usize>(usize);
impl<const N: usize> Block for Pair<N> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.0
    }
    #[inline(always)]
    unsafe fn mv<const PACK: bool>(&self, mem: *mut u8, stream: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { pair::<PACK, N>(mem, stream, self.0) }
    }
}

/// Blocks of `A + B` bytes, moved as an `A`-byte piece and the `B` bytes after it: no byte
/// is written twice, which an unpack to scattered places (the stores wait in the store
/// buffer until their lines come) pays for with overlapping pieces.
struct Split<const A: usize, const B: usize>;
impl<const A: usize, const B: usize> Block for Split<A, B> {
    #[inline(always)]
    fn len(&self) -> usize {
        A + B
    }
    #[inline(always)]
    unsafe fn mv<const PACK: bool>(&self, mem: *mut u8, stream: *mut u8) {
        // SAFETY: forwarded contract: the block is `A + B` bytes at both ends.
        unsafe {
            fixed::<PACK, A>(mem, stream);
            in_order();
            fixed::<PACK, B>(mem.add(A), stream.add(A));
        }
    }
}

/// Blocks of `self.0` bytes of any length.
struct Any(usize);
impl Block for Any {
    #[inline(always)]
    fn len(&self) -> usize {
        self.0
    }
    #[inline(always)]
    unsafe fn mv<const PACK: bool>(&self, mem: *mut u8, stream: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { any::<PACK>(mem, stream, self.0) }
    }
}

/// Blocks of `len` (> 64) bytes, each moved by [`medium`] where that pays (`pieces`), else
/// by one call to `memcpy`.
struct Large {
    len: usize,
    /// Whether the blocks move as [`medium`]'s pieces: up to [`MEDIUM_MAX`] bytes, on a
    /// processor where that pays ([`pieces_pay`]).
    pieces: bool,
}

impl Large {
    /// The mover of blocks of `len` bytes on this processor.
    #[inline(always)]
    fn new(len: usize) -> Self {
        Large {
            len,
            pieces: len <= MEDIUM_MAX && pieces_pay(),
        }
    }
}

impl Block for Large {
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    unsafe fn mv<const PACK: bool>(&self, mem: *mut u8, stream: *mut u8) {
        // SAFETY: forwarded contract; the user memory and the packed stream are distinct
        // buffers.
        unsafe {
            if self.pieces {
                return medium::<PACK>(mem, stream, self.len);
            }
            if PACK {
                std::ptr::copy_nonoverlapping(mem, stream, self.len)
            } else {
                std::ptr::copy_nonoverlapping(stream, mem, self.len)
            }
        }
    }
}

/// Whether blocks of 65 bytes to [`MEDIUM_MAX`] move faster as [`medium`]'s 16-byte pieces
/// than by a call to `memcpy` each: on every processor but an AMD one. On an Intel Xeon, the
/// 256-byte rows of WRF's tile (`wrf_tile` of `benches/run.py`) packed 1.4 times as fast in
/// pieces (glibc's copy of that machine makes 64-byte stores, which cross lines where the
/// rows do not start on one). On an AMD EPYC of the Zen 4 generation, the same rows packed at
/// 25-28 GB/s in pieces and 38 with `memcpy`, and unpacked at 16-25 against 40 (Open MPI and
/// the hand loop, both calling `memcpy`: 35-38 and 36-42).
fn pieces_pay() -> bool {
    !amd_design()
}

/// The longest block [`Large`] may move with [`medium`] instead of a call to `memcpy`.
const MEDIUM_MAX: usize = 1024;

/// Moves `len` bytes (`16 <= len`) of two distinct buffers as 16-byte pieces in ascending
/// order ([`in_order`]), and the bytes after the last whole piece as [`short`] moves them. On
/// an Intel Xeon, the blocks of 256 bytes of WRF's tile (`wrf_tile` of `benches/run.py`)
/// packed 1.4 times as fast as with a call to `memcpy`
/// each (glibc's, whose 64-byte stores cross lines), and C loops of rows of 128 bytes to
/// 1 KiB were as fast or faster; from 1.5 KiB on, `memcpy` was faster.
#[inline(always)]
unsafe fn medium<const PACK: bool>(mem: *mut u8, stream: *mut u8, len: usize) {
    let (src, dst) = if PACK { (mem, stream) } else { (stream, mem) };
    let mut at = 0;
    // SAFETY: the caller guarantees the `len` bytes on both sides; every piece lies in them.
    unsafe {
        while at + 16 <= len {
            let a = read_unaligned(src.add(at) as *const [u8; 16]);
            write_unaligned(dst.add(at) as *mut [u8; 16], a);
            in_order();
            at += 16;
        }
        short::<PACK>(mem.add(at), stream.add(at), len - at);
    }
}

/// Calls `$kernel::<PACK, _>($args.., block)` with the block mover that fits `$len`: a
/// fixed-size one for the common sizes of basic types and small structs, else a general one.
/// Blocks of 12, 24, 40 and 48 bytes are moved as two pieces, `split` (one after the other:
/// the strided loops, whose unpack of MILC's 24-byte blocks went from 4.4 to 6.8 GB/s so) or
/// `overlapping` (two pieces of a power of two, fewer instructions: the gathers, which were
/// 10 % slower split).
macro_rules! by_block_size {
    ($len:expr, split, $kernel:ident ( $($arg:expr),* )) => {
        by_block_size!(@ $len, $kernel($($arg),*),
            Split::<8, 4>, Split::<16, 8>, Split::<32, 8>, Split::<32, 16>)
    };
    ($len:expr, overlapping, $kernel:ident ( $($arg:expr),* )) => {
        by_block_size!(@ $len, $kernel($($arg),*),
            Pair::<8>(12), Pair::<16>(24), Pair::<32>(40), Pair::<32>(48))
    };
    (@ $len:expr, $kernel:ident ( $($arg:expr),* ),
     $b12:expr, $b24:expr, $b40:expr, $b48:expr) => {{
        let len = $len as usize;
        match len {
            1 => $kernel::<PACK, _>($($arg,)* Fixed::<1>),
            2 => $kernel::<PACK, _>($($arg,)* Fixed::<2>),
            4 => $kernel::<PACK, _>($($arg,)* Fixed::<4>),
            8 => $kernel::<PACK, _>($($arg,)* Fixed::<8>),
            12 => $kernel::<PACK, _>($($arg,)* $b12),
            16 => $kernel::<PACK, _>($($arg,)* Fixed::<16>),
            24 => $kernel::<PACK, _>($($arg,)* $b24),
            32 => $kernel::<PACK, _>($($arg,)* Fixed::<32>),
            40 => $kernel::<PACK, _>($($arg,)* $b40),
            48 => $kernel::<PACK, _>($($arg,)* $b48),
            64 => $kernel::<PACK, _>($($arg,)* Fixed::<64>),
            128 => $kernel::<PACK, _>($($arg,)* Fixed::<128>),
            65.. => $kernel::<PACK, _>($($arg,)* Large::new(len)),
            _ => $kernel::<PACK, _>($($arg,)* Any(len)),
        }
    }};
}

#[inline(always)]
unsafe fn strided_with<const PACK: bool, B: Block>(
    mem: *mut u8,
    count: i64,
    stride: i64,
    stream: &mut *mut u8,
    block: B,
) {
    let len = block.len();
    let mut m = mem;
    let mut s = *stream;
    for _ in 0..count {
        // SAFETY: module contract: each block and its stream bytes are valid.
        unsafe { block.mv::<PACK>(m, s) };
        m = m.wrapping_offset(stride as isize);
        // SAFETY: the stream holds `count * len` bytes from its start.
        s = unsafe { s.add(len) };
    }
    *stream = s;
}

/// `count` blocks of `len` bytes, `stride` bytes apart from `mem`: one walk, packed paced
/// where that pays ([`pacing_pays`]), and such a walk unpacked with store fences on an AMD
/// processor ([`strided_fenced`]).
pub unsafe fn strided<const PACK: bool>(
    mem: *mut u8,
    count: i64,
    stride: i64,
    len: i64,
    stream: &mut *mut u8,
) {
    if stride == len {
        // SAFETY: the blocks abut: one range of count * len bytes.
        unsafe { any::<PACK>(mem, *stream, (count * len) as usize) };
        // SAFETY: as above.
        *stream = unsafe { stream.add((count * len) as usize) };
        return;
    }
    if pacing_pays(count, stride, len) {
        if PACK {
            let lag = paced_lag();
            // SAFETY: forwarded contract.
            return unsafe {
                by_block_size!(len, split, strided_paced(mem, count, stride, lag, stream))
            };
        }
        if amd_design() {
            // SAFETY: forwarded contract.
            return unsafe {
                by_block_size!(len, split, strided_fenced(mem, count, stride, stream))
            };
        }
    }
    // SAFETY: forwarded contract.
    unsafe { by_block_size!(len, split, strided_with(mem, count, stride, stream)) }
}

/// [`strided_with`] with a store fence after each block: the unpack, on an AMD processor, of
/// a walk that is packed paced ([`pacing_pays`]). Each block's store then waits for the ones
/// before it, so the walk's lines, which all fall in one cache set, are fetched a few at a
/// time instead of all at once. On an AMD EPYC (Zen 4), `strided_column` of `benches/run.py`
/// (4096 doubles 4 KiB apart) unpacked at 1.75 GB/s so, against 1.32 without the fences
/// (medians of ten interleaved runs; Open MPI 1.41, the hand loop 1.45). Unlike a paced
/// pack, it reads nothing of the program's memory, so a receive buffer of fresh pages takes
/// one page fault per page, as without the fences. Intel processors were not measured and
/// keep [`strided_with`].
#[inline(always)]
unsafe fn strided_fenced<const PACK: bool, B: Block>(
    mem: *mut u8,
    count: i64,
    stride: i64,
    stream: &mut *mut u8,
    block: B,
) {
    // SAFETY: forwarded contract.
    unsafe { strided_with::<PACK, _>(mem, count, stride, stream, Fenced(block)) }
}

/// A block mover followed by a [`store_fence`] after each block ([`strided_fenced`]).
struct Fenced<B>(B);
impl<B: Block> Block for Fenced<B> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }
    #[inline(always)]
    unsafe fn mv<const PACK: bool>(&self, mem: *mut u8, stream: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { self.0.mv::<PACK>(mem, stream) };
        store_fence();
    }
}

/// A store fence: `sfence` on x86-64; elsewhere, where [`strided_fenced`] is never chosen, a
/// fence of the compiler's order only.
#[inline(always)]
fn store_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` is part of SSE, which every x86-64 processor has; the call is safe
    // from Rust 1.94 on.
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
    #[cfg(not(target_arch = "x86_64"))]
    in_order();
}

/// Bytes in a line of the processor's caches.
const LINE: i64 = 64;

/// `walks` walks side by side, `apart` bytes from one to the next, each of `count` blocks of
/// `len` bytes `stride` bytes apart (the columns of a matrix, as a transpose packs them): the
/// stream holds the first walk's blocks, then the second's. Where a cache line holds blocks of
/// two or more neighbouring walks ([`side_by_side_group`]), the walks are moved in groups,
/// row by row: each line is fetched once for the whole group, not once per walk, since by the
/// time the next walk reaches a line the walk before it fetched, the line is gone. The
/// blocks land where the walk-by-walk order puts them in the stream. `fft_transpose` of
/// `benches/run.py` (1024 walks of 1024 blocks of 16 bytes, 16 bytes apart) went from 3.3 to
/// 9 GB/s on pack so. The walks are never paced ([`pacing_pays`]): each goes over lines that
/// nearer caches hold for it, where loads sent out all at once win (paced, `fft_transpose`
/// packed at 0.79 of its speed walk by walk).
pub unsafe fn strided_side_by_side<const PACK: bool>(
    mem: *mut u8,
    walks: i64,
    apart: i64,
    count: i64,
    stride: i64,
    len: i64,
    stream: &mut *mut u8,
) {
    let walk = Walk {
        count,
        stride,
        walks,
        apart,
    };
    // SAFETY: forwarded contract.
    unsafe {
        match side_by_side_group(walks, apart, count, stride, len) {
            8 => by_block_size!(len, split, side_by_side_with(mem, walk, stream, Group::<8>)),
            4 => by_block_size!(len, split, side_by_side_with(mem, walk, stream, Group::<4>)),
            2 => by_block_size!(len, split, side_by_side_with(mem, walk, stream, Group::<2>)),
            _ => by_block_size!(len, split, side_by_side_with(mem, walk, stream, Group::<1>)),
        }
    }
}

/// The shape of [`strided_side_by_side`]'s walks.
#[derive(Clone, Copy)]
struct Walk {
    /// Blocks per walk.
    count: i64,
    /// Bytes from a block to the next in a walk.
    stride: i64,
    /// Walks.
    walks: i64,
    /// Bytes from a walk's first block to the next walk's.
    apart: i64,
}

/// How many neighbouring walks [`strided_side_by_side`] moves together: the walks whose blocks
/// share a line of [`LINE`] bytes (8, 4 or 2, and no more than there are), or 1 (walk by walk)
/// where it does not group them: walks that do not go forward, blocks of a walk that are not all apart from every other walk's (a group
/// moves them in another order, and an unpack must write every byte where the stream's order
/// puts it last), or fewer than two walks or two blocks.
fn side_by_side_group(walks: i64, apart: i64, count: i64, stride: i64, len: i64) -> usize {
    let disjoint =
        0 < len && len <= apart && walks.checked_mul(apart).is_some_and(|span| span <= stride);
    if walks < 2 || count < 2 || !disjoint {
        return 1;
    }
    match (LINE / apart).min(walks) {
        8.. => 8,
        4..=7 => 4,
        2 | 3 => 2,
        _ => 1,
    }
}

/// `N` walks moved together by [`side_by_side_with`].
struct Group<const N: usize>;

/// A number of walks fixed when a loop is instantiated.
trait Walks {
    /// How many.
    fn size(&self) -> usize;
}

impl<const N: usize> Walks for Group<N> {
    #[inline(always)]
    fn size(&self) -> usize {
        N
    }
}

/// The loop of [`strided_side_by_side`], `group` walks at a time (one: walk by walk); the walks
/// left over, one by one.
#[inline(always)]
unsafe fn side_by_side_with<const PACK: bool, B: Block>(
    mem: *mut u8,
    walk: Walk,
    stream: &mut *mut u8,
    group: impl Walks,
    block: B,
) {
    let together = group.size();
    let len = block.len();
    let (apart, stride) = (walk.apart as isize, walk.stride as isize);
    let walk_bytes = walk.count as usize * len;
    let start = *stream;
    let grouped = walk.walks as usize / together * together;
    for k in (0..grouped).step_by(together) {
        let mut row = mem.wrapping_offset(k as isize * apart);
        // SAFETY: the stream holds `walks * walk_bytes` bytes from `start`.
        let mut out = unsafe { start.add(k * walk_bytes) };
        for _ in 0..walk.count {
            for g in 0..together {
                // SAFETY: module contract: block (k + g, row) and its place in the stream.
                unsafe {
                    block.mv::<PACK>(
                        row.wrapping_offset(g as isize * apart),
                        out.add(g * walk_bytes),
                    )
                };
            }
            row = row.wrapping_offset(stride);
            // SAFETY: as above: the next block of each walk of the group.
            out = unsafe { out.add(len) };
        }
    }
    // SAFETY: as above: the walks left over, each after the one before.
    let mut s = unsafe { start.add(grouped * walk_bytes) };
    for k in grouped..walk.walks as usize {
        let first = mem.wrapping_offset(k as isize * apart);
        // SAFETY: module contract.
        unsafe { strided_with::<PACK, &B>(first, walk.count, walk.stride, &mut s, &block) };
    }
    *stream = s;
}

/// How many pairs of blocks a paced walk ([`strided_paced`]) lets go ahead of the pair it
/// waits for: this processor's. An AMD processor (measured on an EPYC) fetches ahead along a
/// stride across pages by itself, if the loads leave it room: there each pair waits for the
/// one before (lag 0), and `strided_column` of `benches/run.py` (4096 doubles 4 KiB apart)
/// packed 1.9 times faster than unpaced. An Intel one (measured on a Xeon) fetches nothing
/// ahead past a page's end, so the walk goes as fast as its loads overlap, and waiting for
/// each pair made the same walk 2.3 times slower than unpaced (0.40 GB/s against 0.92);
/// 16 blocks on their way (lag 7) packed it at 1.43 GB/s, and lags of 3 and 15 at 1.09 and
/// 1.25. Other processors take the lag of 7 too.
fn paced_lag() -> usize {
    if amd_design() {
        0
    } else {
        7
    }
}

/// Whether the processor is an AMD one (or a Hygon, of the same design): its fetching ahead
/// follows a stride across pages ([`paced_lag`]), and its `memcpy` moves blocks of a few
/// hundred bytes faster than 16-byte pieces ([`pieces_pay`]). Asked once: `cpuid` is slow
/// under a hypervisor, which answers it itself.
fn amd_design() -> bool {
    static AMD: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AMD.get_or_init(vendor_is_amd)
}

/// [`amd_design`], asked of the processor.
fn vendor_is_amd() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: every x86-64 processor has `cpuid`, and leaf 0 (the vendor's name); the
        // call is safe from Rust 1.94 on.
        #[allow(unused_unsafe)]
        let vendor = unsafe { std::arch::x86_64::__cpuid(0) };
        let mut name = [0u8; 12];
        for (at, word) in [vendor.ebx, vendor.edx, vendor.ecx].into_iter().enumerate() {
            name[4 * at..4 * at + 4].copy_from_slice(&word.to_le_bytes());
        }
        matches!(&name, b"AuthenticAMD" | b"HygonGenuine")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether packing `count` blocks of `len` bytes `stride` bytes apart goes faster with
/// [`strided_paced`]: blocks within a cache line, a whole number of pages apart (every one
/// of them falls in the same set of the first-level cache and in a few sets of the second),
/// and more of them than those few sets hold. On an AMD EPYC, `strided_column` of
/// `benches/run.py` (4096 doubles 4 KiB apart) packed at 0.88 GB/s unpaced, 1.9 times
/// faster paced; on an Intel Xeon at 0.92 and 1.43 (with their lags). On the first, a walk of 2048
/// doubles went 1.6 times faster, one of 1024 the same, one of 512 or fewer (all still
/// cached) slower. Cold from memory, paced and unpaced take the same time.
#[inline(always)]
fn pacing_pays(count: i64, stride: i64, len: i64) -> bool {
    const PAGE: i64 = 4096;
    const MANY: i64 = 2048;
    (1..=LINE).contains(&len) && stride != 0 && stride % PAGE == 0 && count >= MANY
}

/// [`strided_with`] for blocks that all fall in one cache set: it loads the blocks two by
/// two, and the address of each pair waits for the pair `lag + 1` pairs before it to have
/// arrived (lag 0: the pair just before), so that at most `lag + 1` pairs are on their way
/// at once. Loads sent out all at once to one
/// set throw each other's lines out before they are used; how many may be on their way at
/// once is the processor's ([`paced_lag`]).
#[inline(always)]
unsafe fn strided_paced<const PACK: bool, B: Block>(
    mem: *mut u8,
    count: i64,
    stride: i64,
    lag: usize,
    stream: &mut *mut u8,
    block: B,
) {
    let (len, step) = (block.len(), stride as isize);
    let mut m = mem;
    let mut s = *stream;
    let start = s;
    for pairs_before in 0..(count / 2).max(0) as usize {
        let next = m.wrapping_offset(step);
        // SAFETY: module contract: both blocks and their stream bytes are valid.
        unsafe {
            block.mv::<PACK>(m, s);
            block.mv::<PACK>(next, s.add(len));
        }
        // The first byte of each block of the pair `lag` before is read back from the
        // stream, where it was written (from the store, not from the block's line again).
        let arrived = match pairs_before >= lag {
            // SAFETY: that pair's bytes are the stream's, `lag` pairs back from `s`.
            true => unsafe {
                let back = s.sub(2 * len * lag);
                debug_assert!(back >= start);
                back.read() | back.add(len).read()
            },
            false => 0,
        };
        m = next
            .wrapping_offset(step)
            .wrapping_add(zero_once_loaded(arrived));
        // SAFETY: the stream holds `count * len` bytes from its start.
        s = unsafe { s.add(2 * len) };
    }
    if count % 2 == 1 {
        // SAFETY: as above: the last block.
        unsafe { block.mv::<PACK>(m, s) };
        // SAFETY: as above.
        s = unsafe { s.add(len) };
    }
    *stream = s;
}

/// Zero, computed from `loaded` so that the processor cannot have it before `loaded` has
/// arrived: an address plus this waits for the load.
#[inline(always)]
fn zero_once_loaded(loaded: u8) -> usize {
    #[allow(unused_mut)]
    let mut value = loaded as usize;
    // SAFETY: the instruction only clears a register the compiler gave it.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::asm!("and {0}, 0", inout(reg) value, options(pure, nomem, nostack))
    };
    // SAFETY: as above.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        std::arch::asm!("and {0}, {0}, xzr", inout(reg) value, options(pure, nomem, nostack))
    };
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        value = 0;
    }
    value
}

/// The loop of [`gather`]. Where it is to `ask_ahead`, it asks for the memory of the block
/// [`GATHER_AHEAD`] places ahead of the one it moves, in a loop of its own so that the asking
/// costs no bounds check ([`ahead_of`]): `unstructured_gather_1` of
/// `benches/run.py` (262,144 doubles from 8 MiB) went from 2.1 to 3.1 GB/s on unpack
/// (scattered stores otherwise fill the store buffer while each line is fetched) and from 2.9
/// to 3.2 on pack, MPICH's speed.
#[inline(always)]
unsafe fn gather_with<const PACK: bool, B: Block>(
    mem: *mut u8,
    displs: &[i64],
    scale: i64,
    ask_ahead: bool,
    stream: &mut *mut u8,
    block: B,
) {
    let len = block.len();
    let mut s = *stream;
    let mut mv = |d: i64| {
        // SAFETY: module contract.
        unsafe { block.mv::<PACK>(at(mem, d.wrapping_mul(scale)), s) };
        // SAFETY: the stream holds `displs.len() * len` bytes from its start.
        s = unsafe { s.add(len) };
    };
    let ahead = match ask_ahead {
        true => ahead_of(displs, GATHER_AHEAD),
        false => &[],
    };
    for (&d, &later) in displs.iter().zip(ahead) {
        prefetch(at(mem, later.wrapping_mul(scale)));
        mv(d);
    }
    for &d in &displs[ahead.len()..] {
        mv(d);
    }
    *stream = s;
}

/// The displacements `n` places after the first ones, as many as have one: zipped with
/// `displs`, they give each block the one to ask for the memory of, with no bounds check; the
/// last `n` blocks (from `ahead_of(displs, n).len()` on) have none.
fn ahead_of(displs: &[i64], n: usize) -> &[i64] {
    &displs[n.min(displs.len())..]
}

/// Blocks of `len` bytes at `mem + displs[k] * scale`, asking for the memory of blocks ahead
/// where `ask_ahead` (a message of at least [`GATHER_ASKS_FROM`] such blocks).
pub unsafe fn gather<const PACK: bool>(
    mem: *mut u8,
    displs: &[i64],
    scale: i64,
    len: i64,
    ask_ahead: bool,
    stream: &mut *mut u8,
) {
    // SAFETY: forwarded contract.
    unsafe {
        by_block_size!(
            len,
            overlapping,
            gather_with(mem, displs, scale, ask_ahead, stream)
        )
    }
}

/// How many blocks ahead of the one being moved the irregular loops ask for the memory of.
pub const PREFETCH_AHEAD: usize = 8;

/// How many blocks ahead of the one being moved a [`gather`] asks for the memory of.
const GATHER_AHEAD: usize = 64;

/// The fewest blocks of a message (all its copies of one block list) for which [`gather`] asks
/// ahead: from there on the blocks' lines outgrow a second-level cache (32,768 lines are 2 MiB).
/// The blocks of a smaller message sent again and again, as an exchange's are, stay cached, and
/// asking for them only takes the load slots the moves need. On an AMD EPYC (1 MiB of second-level
/// cache a core), a C loop gathering single doubles from 8 MiB moved each in 0.54-0.84 ns without
/// asking against 0.82-1.05 asking 64 ahead, from 256 to 4,096 blocks; 1.04-1.07 against 1.14-1.19
/// at 16,384; 1.36-1.37 against 1.25-1.34 at 65,536. `MPI_Pack` of 8 KiB of single floats at random
/// places of 4 MiB (SPECFEM3D's outer core) took 1.37 µs against 1.69, and MPICH 1.44.
pub const GATHER_ASKS_FROM: usize = 32768;

/// Asks the processor to bring the cache line at `p` closer; no effect on the program's
/// state, whatever `p` is.
#[inline(always)]
pub fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch hint never faults and changes no memory, for any address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast())
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Blocks of `counts[k] * unit` bytes at `mem + displs[k] * scale`.
pub unsafe fn gather_lengths<const PACK: bool>(
    mem: *mut u8,
    displs: &[i64],
    scale: i64,
    counts: &[i64],
    unit: i64,
    stream: &mut *mut u8,
) {
    let mut s = *stream;
    let mut mv = |d: i64, c: i64| {
        let len = c.wrapping_mul(unit) as usize;
        // SAFETY: module contract.
        unsafe { any::<PACK>(at(mem, d.wrapping_mul(scale)), s, len) };
        // SAFETY: the stream holds the sum of the lengths.
        s = unsafe { s.add(len) };
    };
    let ahead = ahead_of(displs, PREFETCH_AHEAD);
    for ((&d, &c), &later) in displs.iter().zip(counts).zip(ahead) {
        prefetch(at(mem, later.wrapping_mul(scale)));
        mv(d, c);
    }
    let rest = ahead.len();
    for (&d, &c) in displs[rest..].iter().zip(&counts[rest..]) {
        mv(d, c);
    }
    *stream = s;
}

/// The array-of-structs loop over `runs`, a slice or (for the unrolled forms) an array.
#[inline(always)]
unsafe fn struct_array_of<const PACK: bool, Runs: AsRef<[(i64, i64)]>>(
    mem: *mut u8,
    count: i64,
    stride: i64,
    runs: Runs,
    stream: &mut *mut u8,
) {
    let mut m = mem;
    let mut s = *stream;
    for _ in 0..count {
        for &(disp, len) in runs.as_ref() {
            // SAFETY: module contract.
            unsafe { any::<PACK>(at(m, disp), s, len as usize) };
            // SAFETY: the stream holds every run of every copy.
            s = unsafe { s.add(len as usize) };
        }
        m = m.wrapping_offset(stride as isize);
    }
    *stream = s;
}

/// `count` copies, `stride` bytes apart, of a few runs `(disp, len)` (an array of small
/// structs). Up to four runs get a loop unrolled for their number, so each run's move is
/// predicted on its own.
pub unsafe fn struct_array<const PACK: bool>(
    mem: *mut u8,
    count: i64,
    stride: i64,
    runs: &[(i64, i64)],
    stream: &mut *mut u8,
) {
    /// The runs as an array of `R`, whose length the loop is compiled for.
    fn fixed<const R: usize>(runs: &[(i64, i64)]) -> [(i64, i64); R] {
        runs.try_into().expect("R runs")
    }
    // SAFETY: forwarded contract, in every arm.
    unsafe {
        match runs.len() {
            1 => struct_array_of::<PACK, _>(mem, count, stride, fixed::<1>(runs), stream),
            2 => struct_array_of::<PACK, _>(mem, count, stride, fixed::<2>(runs), stream),
            3 => struct_array_of::<PACK, _>(mem, count, stride, fixed::<3>(runs), stream),
            4 => struct_array_of::<PACK, _>(mem, count, stride, fixed::<4>(runs), stream),
            _ => struct_array_of::<PACK, _>(mem, count, stride, runs, stream),
        }
    }
}

/// Moves `len` bytes as the move code `W` (fixed when the kernel is compiled) says: a power
/// of two `W` is one move of exactly `W == len` bytes; `W = N + 1` for a power of two
/// `N >= 2` is two moves of `N` bytes (`N <= len <= 2 * N`), the second ending at `len`. When
/// packing, no branch depends on `len`. When unpacking, a run of `N`, `1.25 N` or `1.5 N`
/// bytes (a double, 12 or 24 bytes) is written as one move or two moves one after the
/// other, not two overlapping ones: the stores to the program's memory then write no byte
/// twice (as [`Split`] does for the strided loops); the branch on `len` goes the same way in
/// every turn of a struct loop.
#[inline(always)]
unsafe fn width<const PACK: bool, const W: usize>(mem: *mut u8, stream: *mut u8, len: usize) {
    // SAFETY: every move lies inside the `len` bytes the caller guarantees.
    unsafe {
        match W {
            1 => fixed::<PACK, 1>(mem, stream),
            2 => fixed::<PACK, 2>(mem, stream),
            4 => fixed::<PACK, 4>(mem, stream),
            8 => fixed::<PACK, 8>(mem, stream),
            16 => fixed::<PACK, 16>(mem, stream),
            32 => fixed::<PACK, 32>(mem, stream),
            3 => pair::<PACK, 2>(mem, stream, len),
            5 => pair::<PACK, 4>(mem, stream, len),
            9 if !PACK => match len {
                8 => Fixed::<8>.mv::<PACK>(mem, stream),
                12 => Split::<8, 4>.mv::<PACK>(mem, stream),
                _ => pair::<PACK, 8>(mem, stream, len),
            },
            9 => pair::<PACK, 8>(mem, stream, len),
            17 if !PACK => match len {
                16 => Fixed::<16>.mv::<PACK>(mem, stream),
                24 => Split::<16, 8>.mv::<PACK>(mem, stream),
                _ => pair::<PACK, 16>(mem, stream, len),
            },
            17 => pair::<PACK, 16>(mem, stream, len),
            _ if !PACK => match len {
                32 => Fixed::<32>.mv::<PACK>(mem, stream),
                40 => Split::<32, 8>.mv::<PACK>(mem, stream),
                48 => Split::<32, 16>.mv::<PACK>(mem, stream),
                _ => pair::<PACK, 32>(mem, stream, len),
            },
            _ => pair::<PACK, 32>(mem, stream, len),
        }
    }
}

/// The move code ([`width`]) of a run of `len` bytes: one exact move when `len` is a power of
/// two up to 32 and `exact` allows it, else two moves of the largest power of two below;
/// `None` beyond 64 bytes.
fn width_of(len: i64, exact: bool) -> Option<usize> {
    let pair: usize = match len {
        1 => return Some(1),
        2..=3 => 2,
        4..=7 => 4,
        8..=15 => 8,
        16..=31 => 16,
        32..=64 => 32,
        _ => return None,
    };
    Some(if exact && len as usize == pair {
        pair
    } else {
        pair + 1
    })
}

/// The array-of-structs loop for two runs moved as the codes `A` and `B` say (see
/// [`width`]): the moves are fixed when the kernel is compiled; displacements and lengths are
/// read from `runs` once, before the loop.
unsafe fn struct2<const PACK: bool, const A: usize, const B: usize>(
    mem: *mut u8,
    count: i64,
    stride: i64,
    runs: &[(i64, i64)],
    stream: &mut *mut u8,
) {
    let [(da, la), (db, lb)] = [runs[0], runs[1]];
    let (la, lb) = (la as usize, lb as usize);
    let mut m = mem;
    let mut s = *stream;
    for _ in 0..count {
        // SAFETY: module contract: each run of each copy and its stream bytes are valid.
        unsafe {
            width::<PACK, A>(at(m, da), s, la);
            width::<PACK, B>(at(m, db), s.add(la), lb);
            s = s.add(la + lb);
        }
        m = m.wrapping_offset(stride as isize);
    }
    *stream = s;
}

/// As [`struct2`], for three runs moved as the codes `A`, `B` and `C` say.
unsafe fn struct3<const PACK: bool, const A: usize, const B: usize, const C: usize>(
    mem: *mut u8,
    count: i64,
    stride: i64,
    runs: &[(i64, i64)],
    stream: &mut *mut u8,
) {
    let [(da, la), (db, lb), (dc, lc)] = [runs[0], runs[1], runs[2]];
    let (la, lb, lc) = (la as usize, lb as usize, lc as usize);
    let mut m = mem;
    let mut s = *stream;
    for _ in 0..count {
        // SAFETY: module contract: each run of each copy and its stream bytes are valid.
        unsafe {
            width::<PACK, A>(at(m, da), s, la);
            width::<PACK, B>(at(m, db), s.add(la), lb);
            width::<PACK, C>(at(m, dc), s.add(la + lb), lc);
            s = s.add(la + lb + lc);
        }
        m = m.wrapping_offset(stride as isize);
    }
    *stream = s;
}

/// The signature of an array-of-structs loop: `count` copies `stride` bytes apart of the
/// runs `(disp, len)` placed at `mem`, moved to or from `*stream`.
type StructLoop = unsafe fn(*mut u8, i64, i64, &[(i64, i64)], &mut *mut u8);

/// An array-of-structs loop compiled for one shape of runs, chosen once when the plan is
/// compiled: two or three runs of at most 64 bytes each, each moved by the fixed-size moves
/// its length calls for ([`width`]), so the loop makes no decision per run. Two runs whose
/// lengths are powers of two move each with one exact move; three runs (fewer loops to
/// compile) move each run but single bytes as two moves.
#[derive(Clone, Copy, Debug)]
pub struct StructKernel {
    pack: StructLoop,
    unpack: StructLoop,
}

/// The kernel for the move codes `$w` of the runs: `struct2` or `struct3` instantiated for
/// every combination of the listed codes, selected by a match on the codes.
macro_rules! shape2 {
    ($w:expr, [$($l:literal)*]) => { shape2!(@a $w, [$($l)*], [$($l)*]) };
    (@a $w:expr, [$($a:literal)*], $all:tt) => {
        match $w.0 { $($a => shape2!(@b $w, $a, $all),)* _ => None }
    };
    (@b $w:expr, $a:literal, [$($b:literal)*]) => {
        match $w.1 {
            $($b => Some(StructKernel {
                pack: struct2::<true, $a, $b>,
                unpack: struct2::<false, $a, $b>,
            }),)*
            _ => None,
        }
    };
}

/// As [`shape2`], for three runs.
macro_rules! shape3 {
    ($w:expr, [$($l:literal)*]) => { shape3!(@a $w, [$($l)*], [$($l)*]) };
    (@a $w:expr, [$($a:literal)*], $all:tt) => {
        match $w.0 { $($a => shape3!(@b $w, $a, $all, $all),)* _ => None }
    };
    (@b $w:expr, $a:literal, [$($b:literal)*], $all:tt) => {
        match $w.1 { $($b => shape3!(@c $w, $a, $b, $all),)* _ => None }
    };
    (@c $w:expr, $a:literal, $b:literal, [$($c:literal)*]) => {
        match $w.2 {
            $($c => Some(StructKernel {
                pack: struct3::<true, $a, $b, $c>,
                unpack: struct3::<false, $a, $b, $c>,
            }),)*
            _ => None,
        }
    };
}

impl StructKernel {
    /// The compiled kernel for `runs`, if their shape has one: two or three runs of 1 to 64
    /// bytes.
    pub fn for_runs(runs: &[(i64, i64)]) -> Option<StructKernel> {
        let w = |k: usize, exact: bool| width_of(runs[k].1, exact);
        match runs.len() {
            2 => shape2!((w(0, true)?, w(1, true)?), [1 2 4 8 16 32 3 5 9 17 33]),
            3 => shape3!((w(0, false)?, w(1, false)?, w(2, false)?), [1 3 5 9 17 33]),
            _ => None,
        }
    }

    /// Moves `count` copies, `stride` bytes apart from `mem`, of `runs` (the runs the kernel
    /// was chosen for).
    ///
    /// # Safety
    /// Module contract.
    #[inline(always)]
    pub unsafe fn run<const PACK: bool>(
        &self,
        mem: *mut u8,
        count: i64,
        stride: i64,
        runs: &[(i64, i64)],
        stream: &mut *mut u8,
    ) {
        let f = if PACK { self.pack } else { self.unpack };
        // SAFETY: forwarded contract; `runs` has the shape the kernel was chosen for.
        unsafe { f(mem, count, stride, runs, stream) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moves `runs` of `copies` structs `stride` bytes apart with the compiled kernel and
    /// with the general loop, both ways, and compares.
    fn same_as_general(runs: &[(i64, i64)], copies: i64, stride: i64) {
        let k = StructKernel::for_runs(runs).expect("a compiled kernel");
        // Runs lie within 256 bytes either side of each copy's origin.
        let span = (copies * stride.abs() + 512) as usize;
        let origin = if stride < 0 { span - 256 } else { 256 };
        let mem: Vec<u8> = (0..span).map(|i| (i * 31 + 7) as u8).collect();
        let packed: i64 = runs.iter().map(|r| r.1).sum::<i64>() * copies;
        let (mut a, mut b) = (vec![0u8; packed as usize], vec![0u8; packed as usize]);
        let base = mem.as_ptr().wrapping_add(origin) as *mut u8;
        // SAFETY: every run of every copy lies inside `mem`; the streams hold `packed` bytes.
        unsafe {
            let (mut sa, mut sb) = (a.as_mut_ptr(), b.as_mut_ptr());
            k.run::<true>(base, copies, stride, runs, &mut sa);
            struct_array::<true>(base, copies, stride, runs, &mut sb);
            assert_eq!(sa.offset_from(a.as_ptr()), packed as isize);
        }
        assert_eq!(a, b, "pack of {runs:?}");
        let (mut ma, mut mb) = (vec![0u8; span], vec![0u8; span]);
        // SAFETY: as above.
        unsafe {
            let (mut sa, mut sb) = (a.as_mut_ptr(), a.as_mut_ptr());
            k.run::<false>(ma.as_mut_ptr().add(origin), copies, stride, runs, &mut sa);
            struct_array::<false>(mb.as_mut_ptr().add(origin), copies, stride, runs, &mut sb);
        }
        assert_eq!(ma, mb, "unpack of {runs:?}");
    }

    /// The blocks of `len` bytes at `places` (byte offsets into `mem`), one after the other.
    fn blocks_at(mem: &[u8], places: &[usize], len: usize) -> Vec<u8> {
        places
            .iter()
            .flat_map(|&p| mem[p..p + len].to_vec())
            .collect()
    }

    #[test]
    fn long_blocks_move_whole_around_the_medium_limit_in_pieces_and_by_memcpy() {
        for len in [65, 79, 96, 129, 500, 1023, MEDIUM_MAX, MEDIUM_MAX + 1, 3000] {
            // The mover this processor takes, and both kinds whatever the processor.
            let movers = [
                Large::new(len),
                Large {
                    len,
                    pieces: len <= MEDIUM_MAX,
                },
                Large { len, pieces: false },
            ];
            for block in movers {
                let (count, stride) = (5usize, len + 24);
                let mem: Vec<u8> = (0..stride * count).map(|i| (i * 13 % 247) as u8).collect();
                let places: Vec<usize> = (0..count).map(|k| k * stride).collect();
                let mut packed = vec![0u8; count * len];
                let mut back = vec![0u8; stride * count];
                let pieces = block.pieces;
                // SAFETY: every block lies inside `mem` and `back`; the stream holds
                // `packed.len()` bytes.
                unsafe {
                    let mut out = packed.as_mut_ptr();
                    let src = mem.as_ptr() as *mut u8;
                    strided_with::<true, _>(src, count as i64, stride as i64, &mut out, &block);
                    let mut input = packed.as_mut_ptr();
                    let dst = back.as_mut_ptr();
                    strided_with::<false, _>(dst, count as i64, stride as i64, &mut input, &block);
                }
                assert!(
                    packed == blocks_at(&mem, &places, len),
                    "pack of blocks of {len} B (pieces: {pieces})"
                );
                let want: Vec<u8> = (0..stride * count)
                    .map(|i| if i % stride < len { mem[i] } else { 0 })
                    .collect();
                assert!(
                    back == want,
                    "unpack of blocks of {len} B (pieces: {pieces}), and nothing between them"
                );
            }
        }
    }

    #[test]
    fn paced_columns_of_blocks_pages_apart_pack_and_unpack_every_block_once() {
        // Pacing starts at 2048 blocks; an odd count ends with a block alone.
        for count in [2048usize, 2049, 4095] {
            for (len, pages) in [(1, 1), (8, 1), (12, 2), (24, 1), (40, 3), (64, 1)] {
                let stride = pages * 4096;
                assert!(pacing_pays(count as i64, stride as i64, len as i64));
                let mem: Vec<u8> = (0..stride * count).map(|i| (i * 31 % 251) as u8).collect();
                let places: Vec<usize> = (0..count).map(|k| k * stride).collect();
                let mut packed = vec![0u8; count * len];
                // SAFETY: every block lies inside `mem`; the stream holds `packed.len()` bytes.
                unsafe {
                    let mut out = packed.as_mut_ptr();
                    let src = mem.as_ptr() as *mut u8;
                    strided::<true>(src, count as i64, stride as i64, len as i64, &mut out);
                    assert_eq!(out.offset_from(packed.as_ptr()), packed.len() as isize);
                }
                let want = blocks_at(&mem, &places, len);
                assert!(
                    packed == want,
                    "{count} blocks of {len} B, {pages} pages apart"
                );
                // Every lag, whichever this processor takes; the last pair's lag, and past it.
                for lag in [0, 1, 7, count / 2 - 1, count / 2, count / 2 + 1] {
                    const PACK: bool = true;
                    let mut packed = vec![0u8; count * len];
                    // SAFETY: as above.
                    unsafe {
                        let mut out = packed.as_mut_ptr();
                        let src = mem.as_ptr() as *mut u8;
                        let (count, stride) = (count as i64, stride as i64);
                        by_block_size!(
                            len,
                            split,
                            strided_paced(src, count, stride, lag, &mut out)
                        );
                        assert_eq!(out.offset_from(packed.as_ptr()), packed.len() as isize);
                    }
                    assert!(packed == want, "{count} blocks of {len} B, lag {lag}");
                }
                // Unpacked: the walk this processor takes, and the fenced one whatever the
                // processor; every block lands in place and nothing between them is written.
                let fill: Vec<u8> = (0..stride * count).map(|i| (i % 7) as u8).collect();
                let mut want_back = fill.clone();
                for (&place, block) in places.iter().zip(want.chunks(len)) {
                    want_back[place..place + len].copy_from_slice(block);
                }
                for fenced in [false, true] {
                    const PACK: bool = false;
                    let mut back = fill.clone();
                    let mut input = packed.clone();
                    // SAFETY: every block lies inside `back`; the stream holds
                    // `input.len()` bytes.
                    unsafe {
                        let mut at = input.as_mut_ptr();
                        let dst = back.as_mut_ptr();
                        let (count, stride) = (count as i64, stride as i64);
                        match fenced {
                            true => by_block_size!(
                                len,
                                split,
                                strided_fenced(dst, count, stride, &mut at)
                            ),
                            false => strided::<PACK>(dst, count, stride, len as i64, &mut at),
                        }
                        assert_eq!(at.offset_from(input.as_ptr()), input.len() as isize);
                    }
                    assert!(
                        back == want_back,
                        "{count} blocks of {len} B unpacked (fenced: {fenced})"
                    );
                }
            }
        }
        assert!(!pacing_pays(2047, 4096, 8), "few enough blocks stay cached");
        assert!(
            !pacing_pays(4096, 4096 + 64, 8),
            "blocks spread over the cache's sets"
        );
        assert!(!pacing_pays(4096, 8192, 65), "blocks longer than a line");
        assert!(!pacing_pays(4096, 4096, 0), "no bytes (a type of size 0)");
        assert!(!pacing_pays(4096, 0, 8), "one block over and over");
    }

    #[test]
    fn walks_side_by_side_move_their_blocks_in_the_stream_order() {
        // (walks, apart, blocks a walk, stride, len): groups of 8, 4 and 2 walks with walks
        // left over, and shapes left ungrouped (too far apart, overlapping, one block).
        let shapes = [
            (13, 8, 5, 104, 8),
            (10, 16, 7, 160, 16),
            (7, 16, 3, 4096, 12),
            (5, 24, 4, 128, 24),
            (9, 32, 3, 288, 32),
            (3, 40, 6, 120, 40),
            (4, 64, 3, 256, 8),
            (8, 8, 3, 40, 8),
            (4, 4, 3, 64, 8),
            (9, 4, 3, 64, 8),
            (5, 8, 4, 64, 8),
            (5, 16, 1, 80, 16),
        ];
        for (walks, apart, count, stride, len) in shapes {
            let span = (count - 1) * stride + (walks - 1) * apart + len;
            let mem: Vec<u8> = (0..span).map(|i| (i * 37 % 253) as u8).collect();
            let places: Vec<usize> = (0..walks)
                .flat_map(|k| (0..count).map(move |i| k * apart + i * stride))
                .collect();
            let mut packed = vec![0u8; places.len() * len];
            // A stream of its own to unpack, whose blocks differ even where the type's
            // overlap.
            let mut stream: Vec<u8> = (0..packed.len()).map(|i| (i * 13 % 251) as u8).collect();
            let mut unpacked = vec![0u8; span];
            // SAFETY: every block lies inside `mem` and `unpacked`; the streams hold
            // `packed.len()` bytes.
            unsafe {
                let (mut out, mut back) = (packed.as_mut_ptr(), stream.as_mut_ptr());
                let (src, dst) = (mem.as_ptr() as *mut u8, unpacked.as_mut_ptr());
                let (w, a, c, s, l) = (
                    walks as i64,
                    apart as i64,
                    count as i64,
                    stride as i64,
                    len as i64,
                );
                strided_side_by_side::<true>(src, w, a, c, s, l, &mut out);
                strided_side_by_side::<false>(dst, w, a, c, s, l, &mut back);
                assert_eq!(out.offset_from(packed.as_ptr()), packed.len() as isize);
                assert_eq!(back.offset_from(stream.as_ptr()), stream.len() as isize);
            }
            let shape = format!("{walks} walks {apart} B apart of {count} blocks of {len} B");
            assert!(packed == blocks_at(&mem, &places, len), "pack of {shape}");
            // Overlapping blocks are unpacked in the stream's order: the last one written wins.
            let mut want = vec![0u8; span];
            for (n, &p) in places.iter().enumerate() {
                want[p..p + len].copy_from_slice(&stream[n * len..(n + 1) * len]);
            }
            assert!(unpacked == want, "unpack of {shape}");
        }
        // (walks, apart, blocks a walk, stride, len), the group, why.
        let groups = [
            ((13, 8, 5, 104, 8), 8, "eight walks a line"),
            ((10, 16, 7, 160, 16), 4, "four walks a line"),
            ((9, 32, 3, 288, 32), 2, "two walks a line"),
            ((4, 64, 3, 256, 8), 1, "one walk a line"),
            ((8, 8, 3, 40, 8), 1, "rows overlapping"),
            ((4, 4, 3, 64, 8), 1, "blocks overlapping"),
            ((5, 16, 1, 80, 16), 1, "one block a walk"),
            ((9, 4, 3, 64, 8), 1, "blocks overlapping"),
            ((5, 8, 4, 64, 8), 4, "fewer walks than a line holds"),
            ((4, 16, 3, -256, 16), 1, "walks going back"),
            ((4, -16, 3, 256, 16), 1, "walks going back"),
            ((i64::MAX, 16, 2, 64, 16), 1, "walks past any span"),
        ];
        for ((walks, apart, count, stride, len), group, why) in groups {
            assert_eq!(
                side_by_side_group(walks, apart, count, stride, len),
                group,
                "{why}"
            );
        }
    }

    #[test]
    fn blocks_of_no_bytes_move_nothing_and_read_nothing() {
        // A type of size 0 packs through the strided loop with blocks of no bytes: neither the
        // memory nor the stream, both dangling here, is read or written.
        let nowhere = std::ptr::NonNull::<u8>::dangling().as_ptr();
        for (count, stride) in [(4096, 4096), (4096, 0), (3, 8)] {
            for pack in [true, false] {
                let mut stream = nowhere;
                // SAFETY: blocks of no bytes address nothing.
                unsafe {
                    match pack {
                        true => strided::<true>(nowhere, count, stride, 0, &mut stream),
                        false => strided::<false>(nowhere, count, stride, 0, &mut stream),
                    }
                }
                assert_eq!(stream, nowhere);
            }
        }
    }

    /// `mem` zeroed but for the blocks of `len` bytes at `places`.
    fn only_blocks(mem: &[u8], places: &[usize], len: usize) -> Vec<u8> {
        let mut only = vec![0u8; mem.len()];
        for &p in places {
            only[p..p + len].copy_from_slice(&mem[p..p + len]);
        }
        only
    }

    #[test]
    fn a_gather_asking_ahead_moves_every_block() {
        // Distinct places in a scattered order (7919 is prime to the 40,000 places).
        let (len, places_in_mem) = (6usize, 40_000usize);
        let count = 4 * GATHER_AHEAD + 3;
        let displs: Vec<i64> = (0..count)
            .map(|k| (k * 7919 % places_in_mem) as i64)
            .collect();
        let places: Vec<usize> = displs.iter().map(|&d| d as usize * len).collect();
        let mem: Vec<u8> = (0..places_in_mem * len)
            .map(|i| (i * 31 % 251) as u8)
            .collect();
        let mut packed = vec![0u8; count * len];
        let mut unpacked = vec![0u8; mem.len()];
        // SAFETY: every block lies inside `mem` and `unpacked`; the stream holds
        // `packed.len()` bytes.
        unsafe {
            let (mut out, mut back) = (packed.as_mut_ptr(), packed.as_mut_ptr());
            let (src, dst) = (mem.as_ptr() as *mut u8, unpacked.as_mut_ptr());
            gather::<true>(src, &displs, len as i64, len as i64, true, &mut out);
            gather::<false>(dst, &displs, len as i64, len as i64, true, &mut back);
            assert_eq!(out.offset_from(packed.as_ptr()), packed.len() as isize);
            assert_eq!(back.offset_from(packed.as_ptr()), packed.len() as isize);
        }
        assert!(packed == blocks_at(&mem, &places, len), "pack");
        assert!(unpacked == only_blocks(&mem, &places, len), "unpack");
    }

    #[test]
    fn strided_gathered_and_single_blocks_of_every_length_move_their_bytes() {
        for len in 1..=160usize {
            let stride = len + 7;
            let mem: Vec<u8> = (0..stride * 6).map(|i| (i * 31 % 251) as u8).collect();
            let displs = [3i64, 0, 5, 1];
            let (strided_places, gathered_places): (Vec<usize>, Vec<usize>) = (
                (0..5).map(|k| k * stride).collect(),
                displs.iter().map(|&d| d as usize * stride).collect(),
            );
            let cases = [(strided_places, true), (gathered_places, false)];
            for (places, is_strided) in cases {
                let mut packed = vec![0u8; places.len() * len];
                let mut unpacked = vec![0u8; mem.len()];
                // SAFETY: every block lies inside `mem` and `unpacked`; the streams hold
                // `packed.len()` bytes.
                unsafe {
                    let (mut out, mut back) = (packed.as_mut_ptr(), packed.as_mut_ptr());
                    let (src, dst) = (mem.as_ptr() as *mut u8, unpacked.as_mut_ptr());
                    if is_strided {
                        strided::<true>(src, 5, stride as i64, len as i64, &mut out);
                        strided::<false>(dst, 5, stride as i64, len as i64, &mut back);
                    } else {
                        gather::<true>(src, &displs, stride as i64, len as i64, false, &mut out);
                        gather::<false>(dst, &displs, stride as i64, len as i64, false, &mut back);
                    }
                    assert_eq!(out.offset_from(packed.as_ptr()), packed.len() as isize);
                }
                let what = if is_strided { "strided" } else { "gathered" };
                assert_eq!(
                    packed,
                    blocks_at(&mem, &places, len),
                    "{what} pack of {len} B"
                );
                assert_eq!(
                    unpacked,
                    only_blocks(&mem, &places, len),
                    "{what} unpack of {len} B"
                );
            }
            // One run, as the plan's single runs move.
            let (mut packed, mut unpacked) = (vec![0u8; len], vec![0u8; mem.len()]);
            // SAFETY: `len` bytes at `stride` lie inside `mem` and `unpacked`.
            unsafe {
                any::<true>(
                    mem.as_ptr().add(stride) as *mut u8,
                    packed.as_mut_ptr(),
                    len,
                );
                any::<false>(unpacked.as_mut_ptr().add(stride), packed.as_mut_ptr(), len);
            }
            assert_eq!(
                packed,
                blocks_at(&mem, &[stride], len),
                "pack of one run of {len} B"
            );
            assert_eq!(
                unpacked,
                only_blocks(&mem, &[stride], len),
                "unpack of one run of {len} B"
            );
        }
    }

    #[test]
    fn every_two_and_three_run_shape_up_to_64_bytes_has_a_kernel() {
        for a in 1..=64 {
            for b in 1..=64 {
                same_as_general(&[(0, a), (80, b)], 3, 160);
                same_as_general(&[(90, a), (-20, b), (5, 1)], 2, -200);
            }
        }
        assert!(StructKernel::for_runs(&[(0, 65), (80, 1)]).is_none());
        assert!(StructKernel::for_runs(&[(0, 1), (2, 1), (4, 1), (6, 1)]).is_none());
        assert!(StructKernel::for_runs(&[(0, 8)]).is_none());
    }
}
