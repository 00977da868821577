//! Property tests of the compiled pack plan: for random nested datatypes of every
//! constructor, the plan packs and unpacks exactly the naive model's bytes when the packed
//! stream is cut at any byte offsets, and its flattened runs are the reference walk's.

mod common;

use common::*;
use mpi_dtype::pack::for_each_run;
use mpi_dtype::plan::{self, iov};
use proptest::prelude::*;

/// 1024 cases per property (`PROPTEST_CASES=n` runs more or fewer).
fn config() -> ProptestConfig {
    proptest_config(1024)
}

/// Cut points of a stream of `n` bytes: every offset for short streams, else the ends, some
/// spread evenly and some from `seed`.
fn cuts(n: usize, seed: u64) -> Vec<usize> {
    if n <= 96 {
        return (0..=n).collect();
    }
    let mut cuts: Vec<usize> = (0..=16).map(|i| i * n / 16).collect();
    let noise = random_bytes(seed, 64);
    cuts.extend(
        noise
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")) as usize % (n + 1)),
    );
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// Displacements of a long block list: random, or evenly spaced (which the plan turns into
/// a repetition), in `[-span, span]`.
fn displacements(n: usize, span: i64) -> impl Strategy<Value = Vec<i64>> {
    prop_oneof![
        prop::collection::vec(-span..=span, n),
        (-span..=span, -8..=8i64)
            .prop_map(move |(start, step)| { (0..n as i64).map(|k| start + k * step).collect() }),
    ]
}

/// Types whose top level is a block list longer than the plan keeps as a sequence (indexed,
/// hindexed, indexed_block, hindexed_block, struct of one repeated member type), over small
/// random types, sometimes inside a vector; some of more than one or two stretches of
/// blocks between the plan's seek checkpoints.
fn wide_case() -> impl Strategy<Value = Case> {
    let inner = spec_with(leaf().boxed(), 24);
    let blocks = prop_oneof![9..40usize, 60..200usize];
    let wide = (blocks, any::<bool>(), 0..3u8, inner).prop_flat_map(|(n, in_bytes, kind, old)| {
        let span = if in_bytes { 400 } else { 40 };
        (
            prop::collection::vec(0..=3i64, n),
            displacements(n, span),
            Just((in_bytes, kind, old)),
        )
            .prop_map(|(lengths, displs, (in_bytes, kind, old))| match kind {
                0 => Spec::Indexed {
                    blocklengths: lengths,
                    displacements: displs,
                    in_bytes,
                    old: Box::new(old),
                },
                1 => Spec::IndexedBlock {
                    blocklength: lengths[0],
                    displacements: displs,
                    in_bytes,
                    old: Box::new(old),
                },
                _ => Spec::Struct(
                    lengths
                        .into_iter()
                        .zip(displs)
                        .map(|(b, d)| (b, d * 4, old.clone()))
                        .collect(),
                ),
            })
    });
    (wide, 0..3i64, -500..=500i64)
        .prop_map(|(spec, count, stride)| match count {
            0 => spec,
            c => Spec::Vector {
                count: c + 1,
                blocklength: 1,
                stride,
                stride_in_bytes: true,
                old: Box::new(spec),
            },
        })
        .prop_map(|s| trim(s, 4000))
        .prop_filter_map("buffer span too large", |spec| {
            let case = Case::new(spec);
            let g = Geometry::new(&case.tm, 3, 16);
            (g.len as i64 <= MAX_SPAN).then_some(case)
        })
}

/// A basic leaf of 1, 2, 4 or 8 bytes.
fn sized_leaf() -> impl Strategy<Value = Leaf> {
    prop_oneof![
        Just(Leaf::Char),
        Just(Leaf::Short),
        Just(Leaf::Int),
        Just(Leaf::Float),
        Just(Leaf::Double),
    ]
}

/// Small structs whose members are runs of 1 to 64 bytes at displacements in [-96, 96]
/// (overlapping, abutting or apart, in any order), often resized to an extent that may be
/// negative or smaller than the struct: the shapes the compiled array-of-structs kernels
/// take, and their neighbours that fall back to the general loop.
fn struct_case() -> impl Strategy<Value = Case> {
    let member = (1..=8i64, -96..=96i64, sized_leaf()).prop_map(|(b, d, leaf)| {
        let size = match leaf {
            Leaf::Char => 1,
            Leaf::Short => 2,
            Leaf::Int | Leaf::Float => 4,
            _ => 8,
        };
        // Lengths of 1 to 64 bytes: up to 64 chars, else up to 8 elements.
        let b = if size == 1 { b * 8 - (b % 8) } else { b };
        (b, d, Spec::Leaf(leaf))
    });
    let structure = prop::collection::vec(member, 1..=4).prop_map(Spec::Struct);
    (structure, 0..3u8, -40..=40i64, -160..=160i64)
        .prop_map(|(spec, kind, lb, extent)| match kind {
            0 => spec,
            _ => Spec::Resized {
                lb,
                extent,
                old: Box::new(spec),
            },
        })
        .prop_filter_map("buffer span too large", |spec| {
            let case = Case::new(spec);
            let g = Geometry::new(&case.tm, 3, 16);
            (g.len as i64 <= MAX_SPAN).then_some(case)
        })
}

/// Indexed and hindexed types of 9 to 40 blocks of 1 to 64 elements of a basic leaf at
/// random (possibly negative, overlapping) displacements: gathers of runs of varying length.
fn varying_runs_case() -> impl Strategy<Value = Case> {
    (9..40usize, any::<bool>(), sized_leaf()).prop_flat_map(|(n, in_bytes, leaf)| {
        let span = if in_bytes { 2000 } else { 250 };
        (
            prop::collection::vec(1..=64i64, n),
            displacements(n, span),
            Just((in_bytes, leaf)),
        )
            .prop_map(|(lengths, displs, (in_bytes, leaf))| {
                Case::new(Spec::Indexed {
                    blocklengths: lengths,
                    displacements: displs,
                    in_bytes,
                    old: Box::new(Spec::Leaf(leaf)),
                })
            })
    })
}

proptest! {
    #![proptest_config(config())]

    /// The array-of-structs kernels pack and unpack the model's bytes, one copy or several
    /// of any extent, cut anywhere.
    #[test]
    fn struct_kernels_match_model(case in struct_case(), count in 1..=5i64, seed in any::<u64>()) {
        check_pack_cuts(&case, count, seed)?;
        check_unpack_cuts(&case, count, seed)?;
        check_segments(&case, count)?;
    }

    /// Gathers of runs of 1 to 64 elements pack and unpack the model's bytes.
    #[test]
    fn varying_runs_match_model(case in varying_runs_case(), count in 1..=3i64, seed in any::<u64>()) {
        check_pack_cuts(&case, count, seed)?;
        check_unpack_cuts(&case, count, seed)?;
        check_segments(&case, count)?;
    }

    /// As below, for long block lists.
    #[test]
    fn wide_types_cut_anywhere_match_model(case in wide_case(), count in 1..=3i64, seed in any::<u64>()) {
        check_pack_cuts(&case, count, seed)?;
        check_unpack_cuts(&case, count, seed)?;
        check_segments(&case, count)?;
    }

    /// Packing the stream in two pieces, cut at any offset, gives the model's bytes.
    #[test]
    fn pack_cut_anywhere_matches_model(case in any_case(), count in 1..=3i64, seed in any::<u64>()) {
        check_pack_cuts(&case, count, seed)?;
    }

    /// Unpacking the stream in three pieces, cut at any offsets, restores exactly the bytes
    /// the type map covers.
    #[test]
    fn unpack_cut_anywhere_matches_model(case in any_case(), count in 1..=3i64, seed in any::<u64>()) {
        check_unpack_cuts(&case, count, seed)?;
    }

    /// The plan's merged runs are the reference walk's, one copy or several.
    #[test]
    fn segments_match_walk(case in any_case(), count in 1..=3i64) {
        check_segments(&case, count)?;
    }
}

fn check_pack_cuts(case: &Case, count: i64, seed: u64) -> Result<(), TestCaseError> {
    let (dt, tm) = (&case.dt, &case.tm);
    let g = Geometry::new(tm, count, 16);
    let src = random_bytes(seed, g.len);
    let expected = tm.pack_bytes(count, &src, g.origin());
    let n = expected.len();
    for cut in cuts(n, seed) {
        let mut out = vec![0x5au8; n];
        let (head, tail) = out.split_at_mut(cut);
        // SAFETY: the geometry covers every byte of the type map relative to the origin.
        unsafe {
            let inbuf = src.as_ptr().add(g.origin());
            plan::pack_range(&dt.plan, count, inbuf, 0, head);
            plan::pack_range(&dt.plan, count, inbuf, cut as i64, tail);
        }
        prop_assert_eq!(&out[..], &expected[..], "cut at {}", cut);
    }
    Ok(())
}

fn check_unpack_cuts(case: &Case, count: i64, seed: u64) -> Result<(), TestCaseError> {
    let (dt, tm) = (&case.dt, &case.tm);
    let g = Geometry::new(tm, count, 16);
    let src = random_bytes(seed, g.len);
    let stream = tm.pack_bytes(count, &src, g.origin());
    let want = covered_only(tm, count, &src, &g);
    let n = stream.len();
    let points = cuts(n, seed ^ 7);
    for (i, &a) in points.iter().enumerate().step_by(3) {
        let b = points[(i + points.len() / 2) % points.len()].max(a);
        let mut dst = vec![0u8; g.len];
        // SAFETY: as above.
        unsafe {
            let outbuf = dst.as_mut_ptr().add(g.origin());
            plan::unpack_range(&dt.plan, count, outbuf, 0, &stream[..a]);
            plan::unpack_range(&dt.plan, count, outbuf, a as i64, &stream[a..b]);
            plan::unpack_range(&dt.plan, count, outbuf, b as i64, &stream[b..]);
        }
        if let Some(j) = (0..g.len).find(|&j| dst[j] != want[j]) {
            prop_assert!(
                false,
                "cuts {} and {}: byte at displacement {} is {:#x}, expected {:#x}",
                a,
                b,
                g.lo + j as i64,
                dst[j],
                want[j]
            );
        }
    }
    Ok(())
}

fn check_segments(case: &Case, count: i64) -> Result<(), TestCaseError> {
    let dt = &case.dt;
    let mut walked = Vec::new();
    for_each_run(dt, count, |d, l| walked.push((d, l as i64)));
    let mut planned = Vec::new();
    iov::for_each_segment(&dt.plan.copies(count), |d, l| {
        planned.push((d, l));
        true
    });
    prop_assert_eq!(&planned, &walked);
    prop_assert_eq!(iov::run_count(&dt.plan.copies(count)), walked.len() as i64);

    // Counting and listing agree with the full list at every limit.
    let node = dt.plan.copies(count);
    let total: i64 = walked.iter().map(|s| s.1).sum();
    let (all, bytes) = iov::segments_within(&node, total);
    prop_assert_eq!((all, bytes), (walked.len() as i64, total));
    if let Some(&(_, first)) = walked.first() {
        prop_assert_eq!(iov::segments_within(&node, first - 1), (0, 0));
    }
    let skip = walked.len() as i64 / 2;
    let mut listed = Vec::new();
    let n = iov::segments(&node, skip, 3, |d, l| listed.push((d, l)));
    let end = (skip as usize + 3).min(walked.len());
    prop_assert_eq!(n as usize, end - skip as usize);
    prop_assert_eq!(&listed[..], &walked[skip as usize..end]);
    Ok(())
}
