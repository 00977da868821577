//! Criterion benchmarks of the Rust core: plan compilation and packing of common patterns,
//! straight through `mpi_dtype::pack` (no handle table, no FFI). The benchmark of record,
//! against MPICH, Open MPI and hand-written loops, is `benches/run.py`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mpi_dtype::abi::{MPI_Datatype, MPI_CHAR, MPI_DOUBLE, MPI_INT};
use mpi_dtype::datatype::{construct, Datatype};
use mpi_dtype::handles;
use mpi_dtype::pack;
use std::hint::black_box;
use std::sync::Arc;

fn named(handle: MPI_Datatype) -> Arc<Datatype> {
    handles::with_type(handle, |t, _| t.clone()).expect("a predefined type")
}

/// Every other double of `n`.
fn every_other_double(n: i64) -> Arc<Datatype> {
    construct::vector(n, 1, 2, false, named(MPI_DOUBLE), false).expect("valid")
}

/// The 256x256 face of single doubles of a 256^3 grid.
fn grid_face() -> Arc<Datatype> {
    let dims = vec![256, 256, 256];
    construct::subarray(
        dims,
        vec![256, 256, 1],
        vec![0, 0, 255],
        mpi_dtype::datatype::Order::C,
        &named(MPI_DOUBLE),
        false,
    )
    .expect("valid")
}

/// `n` struct {int, double, char[3]} of 24 bytes.
fn particles() -> Arc<Datatype> {
    let members = vec![named(MPI_INT), named(MPI_DOUBLE), named(MPI_CHAR)];
    let s = construct::structure(vec![1, 1, 3], vec![0, 8, 16], members, false).expect("valid");
    construct::resized(&s, 0, 24, false).expect("valid")
}

/// Single doubles gathered from pseudo-random indices in `[0, range)`.
fn gather(n: usize, range: i64) -> Arc<Datatype> {
    let mut x = 12345u64;
    let displacements: Vec<i64> = (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as i64 % range
        })
        .collect();
    construct::indexed_block(1, displacements, false, named(MPI_DOUBLE), false).expect("valid")
}

fn bench_pack(c: &mut Criterion) {
    let cases: Vec<(&str, Arc<Datatype>, i64, usize)> = vec![
        (
            "every_other_double",
            every_other_double(1 << 20),
            1,
            16 << 20,
        ),
        ("grid256_face_x", grid_face(), 1, 256 * 256 * 256 * 8),
        ("array_of_structs", particles(), 1 << 20, 24 << 20),
        ("gather_1", gather(1 << 18, 1 << 20), 1, 8 << 20),
    ];
    let mut group = c.benchmark_group("pack");
    for (name, dt, count, span) in &cases {
        let source = vec![1u8; *span];
        let bytes = dt.size() * count;
        let mut out = vec![0u8; bytes as usize];
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                let mut position = 0;
                // SAFETY: `source` spans every byte of the type map from its start.
                unsafe {
                    pack::pack(
                        source.as_ptr(),
                        *count,
                        dt,
                        out.as_mut_ptr(),
                        bytes,
                        &mut position,
                    )
                }
                .expect("room checked");
                black_box(&out);
            })
        });
    }
    group.finish();
}

fn bench_build(c: &mut Criterion) {
    let n = 100_000i64;
    let lengths: Vec<i64> = (0..n).map(|k| 1 + k % 4).collect();
    let displacements: Vec<i64> = (0..n).map(|k| k * 48).collect();
    c.bench_function("build_and_compile_hindexed_1e5", |b| {
        b.iter(|| {
            let dt = construct::indexed(
                lengths.clone(),
                displacements.clone(),
                true,
                &named(MPI_DOUBLE),
                false,
            )
            .expect("valid");
            black_box(dt.plan.root().size())
        })
    });
}

criterion_group!(benches, bench_pack, bench_build);
criterion_main!(benches);
