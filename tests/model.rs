//! Property tests: random nested datatypes checked against the naive reference model
//! `TypeMap::of`, which writes the type map out entry by entry from the standard's definitions.

mod common;

use common::*;
use mpi_dtype::datatype::elements;
use mpi_dtype::datatype::typemap::TypeMap;
use mpi_dtype::pack;
use mpi_dtype::pack::external32;
use mpi_dtype::pack::Representation;
use mpi_dtype_core::error::ErrorClass;
use proptest::prelude::*;

/// 2048 cases per property (`PROPTEST_CASES=n` runs more or fewer).
fn config() -> ProptestConfig {
    proptest_config(2048)
}

/// Bytes of the output buffer outside the written range keep this value.
const SENTINEL: u8 = 0xa5;

proptest! {
    #![proptest_config(config())]

    /// Element counting in the packed stream (`MPI_Get_elements`, `MPI_Status_set_elements`)
    /// agrees with the model's signature at every byte of three copies: the number of whole
    /// elements at each element boundary, "not whole" inside an element, and the bytes of
    /// every prefix of elements.
    #[test]
    fn element_counts_match_model(case in any_case()) {
        let dt = &case.dt;
        let sizes: Vec<i64> = case.tm.copies(3).iter().map(|(b, _)| b.size()).collect();
        let mut bytes = 0i64;
        for (k, &size) in sizes.iter().enumerate() {
            prop_assert_eq!(elements::elements_in_bytes(dt, bytes), Some(k as i64), "at {} bytes", bytes);
            prop_assert_eq!(elements::bytes_of_elements(dt, k as i64), Ok(bytes), "{} elements", k);
            for inside in 1..size {
                prop_assert_eq!(elements::elements_in_bytes(dt, bytes + inside), None, "at {} bytes", bytes + inside);
            }
            bytes += size;
        }
        prop_assert_eq!(elements::elements_in_bytes(dt, bytes), Some(sizes.len() as i64));
        if !sizes.is_empty() {
            prop_assert_eq!(elements::bytes_of_elements(dt, sizes.len() as i64), Ok(bytes));
        }
    }

    /// Size, bounds, extent, true bounds, element count and external32 size all equal the
    /// model's.
    #[test]
    fn bounds_match_model(case in any_case()) {
        let (dt, tm) = (&case.dt, &case.tm);
        prop_assert_eq!(dt.size(), tm.size(), "size");
        prop_assert_eq!(dt.lb(), tm.lb(), "lb");
        prop_assert_eq!(dt.ub(), tm.ub(), "ub");
        prop_assert_eq!(dt.extent(), tm.extent(), "extent");
        prop_assert_eq!(dt.true_lb(), tm.true_lb(), "true_lb");
        prop_assert_eq!(dt.layout.true_ub(), tm.true_ub(), "true_ub");
        prop_assert_eq!(dt.true_extent(), tm.true_ub() - tm.true_lb(), "true_extent");
        prop_assert_eq!(dt.layout.elements, tm.data_entries().len() as i64, "elements");
        prop_assert_eq!(dt.layout.ext32_size, ext32_size(tm), "ext32_size");
    }

    /// A type flagged dense has its data entries, in type-map order, each starting where the
    /// previous one ended, covering exactly `[true_lb, true_ub)`.
    #[test]
    fn dense_flag_is_sound(case in any_case()) {
        if case.dt.layout.dense {
            let data = case.tm.data_entries();
            let mut at = case.tm.true_lb();
            for (i, (b, d)) in data.iter().enumerate() {
                prop_assert_eq!(*d, at, "entry {} of a dense type does not continue the previous one", i);
                at = d + b.size();
            }
            prop_assert_eq!(at, case.tm.true_ub(), "dense data does not end at true_ub");
        }
    }

    /// `pack` writes exactly the model's bytes at `position`, advances it by `count * size`
    /// and touches nothing else; `unpack` of those bytes into a zeroed buffer restores every
    /// byte the type map covers and leaves every other byte zero.
    #[test]
    fn pack_and_unpack_match_model(
        case in any_case(),
        count in 1..=3i64,
        seed in any::<u64>(),
        start in 0..8i64,
    ) {
        let (dt, tm) = (&case.dt, &case.tm);
        let g = Geometry::new(tm, count, 16);
        let src = random_bytes(seed, g.len);
        let expected = tm.pack_bytes(count, &src, g.origin());
        prop_assert_eq!(expected.len() as i64, count * tm.size());

        let outsize = start + expected.len() as i64 + 8;
        let mut out = vec![SENTINEL; outsize as usize];
        let mut position = start;
        // SAFETY: the geometry covers every byte of the type map relative to the origin.
        let r = unsafe {
            pack::pack(src.as_ptr().add(g.origin()), count, dt, out.as_mut_ptr(), outsize, &mut position)
        };
        prop_assert!(r.is_ok(), "pack failed: {:?}", r);
        prop_assert_eq!(position, start + expected.len() as i64, "position after pack");
        let s = start as usize;
        prop_assert!(out[..s].iter().all(|&x| x == SENTINEL), "pack wrote before position");
        prop_assert!(out[s + expected.len()..].iter().all(|&x| x == SENTINEL), "pack wrote past its end");
        prop_assert_eq!(&out[s..s + expected.len()], &expected[..], "packed bytes");

        // Unpack what was packed: every write is a source byte, so the result is exact even
        // when entries overlap.
        let mut dst = vec![0u8; g.len];
        let mut position = start;
        // SAFETY: as above.
        let r = unsafe {
            pack::unpack(out.as_ptr(), outsize, &mut position, dst.as_mut_ptr().add(g.origin()), count, dt)
        };
        prop_assert!(r.is_ok(), "unpack failed: {:?}", r);
        prop_assert_eq!(position, start + expected.len() as i64, "position after unpack");
        let want = covered_only(tm, count, &src, &g);
        if let Some(i) = (0..g.len).find(|&i| dst[i] != want[i]) {
            prop_assert!(false, "unpacked byte at displacement {} is {:#x}, expected {:#x}",
                g.lo + i as i64, dst[i], want[i]);
        }
    }

    /// For type maps without overlapping entries, `unpack` of an arbitrary packed stream puts
    /// the stream's bytes entry by entry where the model says.
    #[test]
    fn unpack_places_stream_bytes(
        case in any_case(),
        count in 1..=3i64,
        seed in any::<u64>(),
    ) {
        let (dt, tm) = (&case.dt, &case.tm);
        prop_assume!(tm.non_overlapping(count));
        let g = Geometry::new(tm, count, 16);
        let n = (count * tm.size()) as usize;
        let stream = random_bytes(seed, n);
        let mut want = vec![0u8; g.len];
        tm.unpack_bytes(count, &stream, &mut want, g.origin());
        let mut dst = vec![0u8; g.len];
        let mut position = 0;
        // SAFETY: the geometry covers every byte of the type map relative to the origin.
        let r = unsafe {
            pack::unpack(stream.as_ptr(), n as i64, &mut position, dst.as_mut_ptr().add(g.origin()), count, dt)
        };
        prop_assert!(r.is_ok(), "unpack failed: {:?}", r);
        prop_assert_eq!(position, n as i64);
        if let Some(i) = (0..g.len).find(|&i| dst[i] != want[i]) {
            prop_assert!(false, "unpacked byte at displacement {} is {:#x}, expected {:#x}",
                g.lo + i as i64, dst[i], want[i]);
        }
    }

    /// Packing into (or unpacking from) one byte too few fails with `MPI_ERR_TRUNCATE`,
    /// leaves `position` unchanged and writes nothing; native and external32 alike.
    #[test]
    fn too_little_room_is_truncate(
        case in any_case(),
        count in 1..=3i64,
        seed in any::<u64>(),
        start in 0..8i64,
        short_by in 1..=4i64,
        external in any::<bool>(),
    ) {
        let (dt, tm) = (&case.dt, &case.tm);
        let needed = if external { ext32_size(tm) } else { tm.size() } * count;
        prop_assume!(needed > 0);
        let size = start + needed - short_by.min(needed);
        let g = Geometry::new(tm, count, 16);
        let src = random_bytes(seed, g.len);

        let mut out = vec![SENTINEL; (start + needed) as usize];
        let mut position = start;
        // SAFETY: the geometry covers the source; `out` holds more than `size` bytes.
        let r = unsafe {
            let inbuf = src.as_ptr().add(g.origin());
            if external {
                Representation::External32.pack(inbuf, count, dt, out.as_mut_ptr(), size, &mut position)
            } else {
                pack::pack(inbuf, count, dt, out.as_mut_ptr(), size, &mut position)
            }
        };
        prop_assert_eq!(r.map_err(|e| e.class), Err(ErrorClass::Truncate), "pack");
        prop_assert_eq!(position, start, "pack moved position");
        prop_assert!(out.iter().all(|&x| x == SENTINEL), "a failed pack wrote bytes");

        let stream = random_bytes(seed ^ 1, (start + needed) as usize);
        let mut dst = vec![0u8; g.len];
        let mut position = start;
        // SAFETY: as above.
        let r = unsafe {
            let outbuf = dst.as_mut_ptr().add(g.origin());
            if external {
                Representation::External32.unpack(stream.as_ptr(), size, &mut position, outbuf, count, dt)
            } else {
                pack::unpack(stream.as_ptr(), size, &mut position, outbuf, count, dt)
            }
        };
        prop_assert_eq!(r.map_err(|e| e.class), Err(ErrorClass::Truncate), "unpack");
        prop_assert_eq!(position, start, "unpack moved position");
        prop_assert!(dst.iter().all(|&x| x == 0), "a failed unpack wrote bytes");
    }

    /// `external32::packed_size` is the sum of the external32 sizes of the model's data
    /// entries times count, and `external32::pack` writes each entry big-endian in type-map
    /// order (entries whose conversion changes width or format are checked for size only).
    #[test]
    fn external32_pack_matches_model(
        case in any_case(),
        count in 1..=3i64,
        seed in any::<u64>(),
    ) {
        let (dt, tm) = (&case.dt, &case.tm);
        let n = ext32_size(tm) * count;
        prop_assert_eq!(external32::packed_size(dt, count).ok(), Some(n), "packed_size");
        let g = Geometry::new(tm, count, 16);
        let src = random_bytes(seed, g.len);
        let mut out = vec![SENTINEL; n as usize + 8];
        let mut position = 0;
        // SAFETY: the geometry covers every byte of the type map relative to the origin.
        let r = unsafe {
            Representation::External32.pack(src.as_ptr().add(g.origin()), count, dt, out.as_mut_ptr(), n + 8, &mut position)
        };
        prop_assert!(r.is_ok(), "external32 pack failed: {:?}", r);
        prop_assert_eq!(position, n);
        prop_assert!(out[n as usize..].iter().all(|&x| x == SENTINEL), "wrote past the end");
        let mut at = 0usize;
        for (idx, (b, d)) in tm.copies(count).into_iter().enumerate() {
            let e = b.info().ext32_size() as usize;
            let i = g.index(d);
            if let Some(want) = ext32_encode(b, &src[i..i + b.size() as usize]) {
                prop_assert_eq!(&out[at..at + e], &want[..],
                    "external32 bytes of entry {} ({}, disp {})", idx, b.info().name, d);
            }
            at += e;
        }
    }

    /// For types whose basic types convert losslessly (int, short, char, float, double and
    /// their pairs), external32 pack then unpack restores every covered byte and leaves the
    /// rest zero; unpacking an arbitrary stream (no overlapping entries) decodes each entry in
    /// order.
    #[test]
    fn external32_round_trip(
        case in lossless_case(),
        count in 1..=3i64,
        seed in any::<u64>(),
    ) {
        let (dt, tm) = (&case.dt, &case.tm);
        let n = ext32_size(tm) * count;
        prop_assert_eq!(n, tm.size() * count, "lossless types keep their size");
        let g = Geometry::new(tm, count, 16);
        let src = random_bytes(seed, g.len);
        let mut packed = vec![0u8; n as usize];
        let mut position = 0;
        // SAFETY: the geometry covers every byte of the type map relative to the origin.
        let r = unsafe {
            Representation::External32.pack(src.as_ptr().add(g.origin()), count, dt, packed.as_mut_ptr(), n, &mut position)
        };
        prop_assert!(r.is_ok(), "external32 pack failed: {:?}", r);
        let mut dst = vec![0u8; g.len];
        let mut position = 0;
        // SAFETY: as above.
        let r = unsafe {
            Representation::External32.unpack(packed.as_ptr(), n, &mut position, dst.as_mut_ptr().add(g.origin()), count, dt)
        };
        prop_assert!(r.is_ok(), "external32 unpack failed: {:?}", r);
        prop_assert_eq!(position, n);
        let want = covered_only(tm, count, &src, &g);
        if let Some(i) = (0..g.len).find(|&i| dst[i] != want[i]) {
            prop_assert!(false, "round-tripped byte at displacement {} is {:#x}, expected {:#x}",
                g.lo + i as i64, dst[i], want[i]);
        }

        if tm.non_overlapping(count) {
            let stream = random_bytes(seed ^ 0x55, n as usize);
            let mut want = vec![0u8; g.len];
            let mut at = 0usize;
            for (b, d) in tm.copies(count) {
                let (i, s) = (g.index(d), b.size() as usize);
                let native = ext32_decode(b, &stream[at..at + s]).expect("lossless leaf");
                want[i..i + s].copy_from_slice(&native);
                at += s;
            }
            let mut dst = vec![0u8; g.len];
            let mut position = 0;
            // SAFETY: as above.
            let r = unsafe {
                Representation::External32.unpack(stream.as_ptr(), n, &mut position, dst.as_mut_ptr().add(g.origin()), count, dt)
            };
            prop_assert!(r.is_ok(), "external32 unpack failed: {:?}", r);
            if let Some(i) = (0..g.len).find(|&i| dst[i] != want[i]) {
                prop_assert!(false, "decoded byte at displacement {} is {:#x}, expected {:#x}",
                    g.lo + i as i64, dst[i], want[i]);
            }
        }
    }

    /// The model itself is consistent with the strategy's size estimate (guards the
    /// generator: if this failed, the budget would not bound the test's cost).
    #[test]
    fn estimate_bounds_model(case in any_case()) {
        prop_assert!(case.tm.entries.len() as u64 <= estimate(&case.spec));
    }
}

/// A few hand-picked types through the same pack check, so a failure of the engine on the
/// simplest shapes is reported without shrinking.
#[test]
fn pack_simple_shapes() {
    use mpi_dtype::abi::*;
    use mpi_dtype::datatype::construct;
    let int = pre(MPI_INT);
    let vec2 = construct::vector(2, 1, 2, false, &int, false).unwrap();
    let types = [
        construct::contiguous(3, &int, false).unwrap(),
        vec2.clone(),
        construct::contiguous(2, &vec2, false).unwrap(),
        construct::vector(2, 2, 3, false, &vec2, false).unwrap(),
    ];
    for dt in &types {
        let tm = TypeMap::of(dt);
        for count in 1..=2 {
            let g = Geometry::new(&tm, count, 8);
            let src = random_bytes(7, g.len);
            let want = tm.pack_bytes(count, &src, g.origin());
            let mut out = vec![0u8; want.len()];
            let mut position = 0;
            // SAFETY: the geometry covers the type map.
            unsafe {
                pack::pack(
                    src.as_ptr().add(g.origin()),
                    count,
                    dt,
                    out.as_mut_ptr(),
                    out.len() as i64,
                    &mut position,
                )
                .unwrap()
            };
            assert_eq!(out, want, "{:?} count {count}", dt.combiner);
        }
    }
}

/// Every named predefined type (all basic types, the pair types and the markers), alone and
/// as two copies in a contiguous type, against the model: bounds, packed bytes and, where the
/// conversion keeps the width, external32 bytes.
#[test]
fn every_predefined_type_matches_model() {
    use mpi_dtype::abi::{handle_bits, predefined_handle};
    use mpi_dtype::datatype::construct;
    use mpi_dtype::predefined;
    for (p, handle) in predefined::all()
        .iter()
        .filter_map(|p| Some((p, predefined_handle(p)?)))
    {
        let one = pre(handle);
        let two = construct::contiguous(2, &one, false).unwrap();
        for dt in [&one, &two] {
            let tm = TypeMap::of(dt);
            let what = format!("{} ({:?})", p.name, dt.combiner);
            assert_eq!(
                (
                    dt.size(),
                    dt.lb(),
                    dt.ub(),
                    dt.true_lb(),
                    dt.layout.true_ub()
                ),
                (tm.size(), tm.lb(), tm.ub(), tm.true_lb(), tm.true_ub()),
                "{what}: bounds"
            );
            assert_eq!(dt.layout.elements, tm.data_entries().len() as i64, "{what}");
            assert_eq!(dt.layout.ext32_size, ext32_size(&tm), "{what}");
            let g = Geometry::new(&tm, 2, 16);
            let src = random_bytes(handle_bits(handle), g.len);
            let want = tm.pack_bytes(2, &src, g.origin());
            let mut out = vec![0u8; want.len()];
            let mut position = 0;
            // SAFETY: the geometry covers the type map.
            unsafe {
                pack::pack(
                    src.as_ptr().add(g.origin()),
                    2,
                    dt,
                    out.as_mut_ptr(),
                    out.len() as i64,
                    &mut position,
                )
                .unwrap()
            };
            assert_eq!(out, want, "{what}: packed bytes");

            let n = ext32_size(&tm) * 2;
            let mut ext = vec![0u8; n as usize];
            let mut position = 0;
            // SAFETY: as above.
            unsafe {
                Representation::External32
                    .pack(
                        src.as_ptr().add(g.origin()),
                        2,
                        dt,
                        ext.as_mut_ptr(),
                        n,
                        &mut position,
                    )
                    .unwrap()
            };
            let mut at = 0usize;
            for (b, d) in tm.copies(2) {
                let e = b.info().ext32_size() as usize;
                let i = g.index(d);
                if let Some(w) = ext32_encode(b, &src[i..i + b.size() as usize]) {
                    assert_eq!(
                        &ext[at..at + e],
                        &w[..],
                        "{what}: external32 of {}",
                        b.info().name
                    );
                }
                at += e;
            }
        }
    }
}
