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
