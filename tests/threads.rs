//! Every exported function may be called from any thread at any time: many threads create,
//! query, decode, pack and free datatypes at once through the C entry points, and each
//! sees exactly its own results.

use mpi_dtype::abi::*;
use mpi_dtype::ffi::construct::{MPI_Type_contiguous, MPI_Type_vector};
use mpi_dtype::ffi::decode::MPI_Type_get_envelope;
use mpi_dtype::ffi::pack::MPI_Pack;
use mpi_dtype::ffi::query::{MPI_Type_commit, MPI_Type_free, MPI_Type_size};
use std::os::raw::c_int;

fn worker(seed: i32) {
    for round in 0..300 {
        let blocklength = 1 + (seed + round) % 5;
        let mut column: MPI_Datatype = MPI_DATATYPE_NULL;
        let mut row: MPI_Datatype = MPI_DATATYPE_NULL;
        // SAFETY: every pointer passed is to a live local of the right type.
        unsafe {
            assert_eq!(
                MPI_Type_contiguous(blocklength, MPI_INT, &mut row),
                MPI_SUCCESS
            );
            assert_eq!(MPI_Type_vector(3, 1, 2, row, &mut column), MPI_SUCCESS);
            assert_eq!(MPI_Type_free(&mut row), MPI_SUCCESS);
            assert_eq!(MPI_Type_commit(&mut column), MPI_SUCCESS);
            let mut size: c_int = 0;
            assert_eq!(MPI_Type_size(column, &mut size), MPI_SUCCESS);
            assert_eq!(size, 12 * blocklength);

            let (mut ni, mut na, mut nd, mut combiner) = (0, 0, 0, 0);
            assert_eq!(
                MPI_Type_get_envelope(column, &mut ni, &mut na, &mut nd, &mut combiner),
                MPI_SUCCESS
            );
            assert_eq!((ni, na, nd, combiner), (3, 0, 1, MPI_COMBINER_VECTOR));

            let source: Vec<i32> = (0..6 * blocklength).map(|i| i * 1000 + seed).collect();
            let mut packed = vec![0u8; size as usize];
            let mut position: c_int = 0;
            let rc = MPI_Pack(
                source.as_ptr().cast(),
                1,
                column,
                packed.as_mut_ptr().cast(),
                size,
                &mut position,
                MPI_COMM_WORLD,
            );
            assert_eq!((rc, position), (MPI_SUCCESS, size));
            let ints: Vec<i32> = packed
                .chunks(4)
                .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
                .collect();
            let expected: Vec<i32> = [0, 2, 4]
                .iter()
                .flat_map(|&b| {
                    source[(b * blocklength) as usize..((b + 1) * blocklength) as usize].to_vec()
                })
                .collect();
            assert_eq!(ints, expected);
            assert_eq!(MPI_Type_free(&mut column), MPI_SUCCESS);
        }
    }
}

#[test]
fn concurrent_construction_decoding_packing_and_freeing() {
    let threads: Vec<_> = (0..8)
        .map(|seed| std::thread::spawn(move || worker(seed)))
        .collect();
    for t in threads {
        t.join().expect("worker thread succeeded");
    }
}

/// Queries race with other threads making and freeing types, which reuse the same slots. A
/// query of a handle the program holds answers its own type's bounds throughout. A query of
/// one of this library's handles that another thread frees meanwhile (erroneous, but it must
/// not mislead) fails or answers that handle's own type's bounds: never another type's, nor
/// the lower bound of one type with the extent of another. Each reader queries the handle a
/// maker made last until the query fails, so many queries run while it is freed.
///
/// Overlap is proven by a handshake, not hoped for: every [`HANDSHAKE_EVERY`]th type, its
/// maker waits until a reader has had an answer for that very handle before freeing it. A
/// handle number comes back once its slot has been reused often enough to wrap the
/// generation bits, so an answer is held to its own type's bound only while fewer types than
/// that have been made since; after that, only to being one whole type's bounds
/// (`lb == extent`, the shape of every type made here).
#[test]
fn queries_never_tear_while_slots_are_reused() {
    use mpi_dtype::ffi::construct::MPI_Type_create_resized;
    use mpi_dtype::ffi::process::MPI_Comm_set_errhandler;
    use mpi_dtype::ffi::query::MPI_Type_get_extent;
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    use std::sync::Mutex;

    /// Types each maker makes.
    const ROUNDS: i64 = 20_000;
    /// Every this many types, the maker waits for a reader's answer before freeing.
    const HANDSHAKE_EVERY: i64 = 100;
    /// Fewer types made since a handle than this cannot have brought its number back (the
    /// fewest generations a handle number has in either ABI).
    const NO_REUSE_WITHIN: u64 = 16;
    /// Counts down when a reader ends, also by a panic, so that no maker waits for it.
    struct Running<'a>(&'a AtomicUsize);
    impl Drop for Running<'_> {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::AcqRel);
        }
    }

    // Per maker: the handle it made last, the bound of its type, and how many types had
    // been made when it was.
    let current: [_; 2] =
        std::array::from_fn(|_| Mutex::new((handle_bits(MPI_DATATYPE_NULL), 0, 0u64)));
    let made_so_far = AtomicU64::new(0);
    // Per maker: the bits of the last of its handles a reader had an answer for.
    let answered_for: [_; 2] =
        std::array::from_fn(|_| AtomicU64::new(handle_bits(MPI_DATATYPE_NULL)));
    let readers_running = AtomicUsize::new(2);
    let done = AtomicBool::new(false);
    let mut held: MPI_Datatype = MPI_DATATYPE_NULL;
    // SAFETY: every pointer passed is to a live local of the right type.
    unsafe {
        assert_eq!(
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN),
            MPI_SUCCESS
        );
        assert_eq!(
            MPI_Type_vector(16, 2, 4, MPI_DOUBLE, &mut held),
            MPI_SUCCESS
        );
        assert_eq!(MPI_Type_commit(&mut held), MPI_SUCCESS);
    }
    std::thread::scope(|s| {
        let makers: Vec<_> = (0..2)
            .map(|seed| {
                let (current, made_so_far) = (&current[seed], &made_so_far);
                let (answered_for, readers_running) = (&answered_for[seed], &readers_running);
                s.spawn(move || {
                    for k in 0..ROUNDS {
                        let bound = 1 + (k * 7 + seed as i64) % 997;
                        let mut made: MPI_Datatype = MPI_DATATYPE_NULL;
                        // SAFETY: pointers to live locals.
                        unsafe {
                            let serial = made_so_far.fetch_add(1, Ordering::AcqRel) + 1;
                            assert_eq!(
                                MPI_Type_create_resized(MPI_BYTE, bound, bound, &mut made),
                                MPI_SUCCESS
                            );
                            let bits = handle_bits(made);
                            *current.lock().unwrap() = (bits, bound as MPI_Aint, serial);
                            if k % HANDSHAKE_EVERY == 0 {
                                while answered_for.load(Ordering::Acquire) != bits
                                    && readers_running.load(Ordering::Acquire) > 0
                                {
                                    std::thread::yield_now();
                                }
                            }
                            assert_eq!(MPI_Type_free(&mut made), MPI_SUCCESS);
                        }
                    }
                })
            })
            .collect();
        let readers: Vec<_> = (0..2)
            .map(|_| {
                let running = Running(&readers_running);
                let (current, made_so_far, answered_for, done) =
                    (&current, &made_so_far, &answered_for, &done);
                s.spawn(move || {
                    let _running = running;
                    for maker in (0..2).cycle() {
                        if done.load(Ordering::Acquire) {
                            break;
                        }
                        let (bits, bound, serial) = *current[maker].lock().unwrap();
                        let racing = handle_from_bits(bits);
                        let (mut lb, mut extent): (MPI_Aint, MPI_Aint) = (-1, -2);
                        // SAFETY: pointers to live locals; the handles are numbers, never
                        // dereferenced by the caller.
                        unsafe {
                            while MPI_Type_get_extent(racing, &mut lb, &mut extent) == MPI_SUCCESS {
                                let since = made_so_far.load(Ordering::Acquire) - serial;
                                if since < NO_REUSE_WITHIN {
                                    assert_eq!(
                                        (lb, extent),
                                        (bound, bound),
                                        "a handle being freed"
                                    );
                                } else {
                                    assert!(
                                        lb == extent && (1..=997).contains(&lb),
                                        "a reused handle answered a torn {lb}, {extent}"
                                    );
                                }
                                // A maker waiting here has not freed the handle: the answer
                                // is its own.
                                if (lb, extent) == (bound, bound) {
                                    answered_for[maker].store(bits, Ordering::Release);
                                }
                            }
                            let rc = MPI_Type_get_extent(held, &mut lb, &mut extent);
                            assert_eq!((rc, lb, extent), (MPI_SUCCESS, 0, 496));
                        }
                    }
                })
            })
            .collect();
        for maker in makers {
            maker.join().unwrap();
        }
        done.store(true, Ordering::Release);
        for reader in readers {
            reader.join().unwrap();
        }
    });
    // SAFETY: a live handle.
    unsafe { assert_eq!(MPI_Type_free(&mut held), MPI_SUCCESS) };
}
