//! Pack and unpack against the model, whole and split at arbitrary byte offsets of the
//! packed stream (`mpi_dtype::plan::pack_range` / `unpack_range`): the packed bytes are the
//! bytes of every data entry of `count` copies in type-map order; unpacking writes them back
//! entry by entry; too small a buffer fails with MPI_ERR_TRUNCATE and writes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mpi_dtype::{pack, plan};
use mpi_dtype_core::error::ErrorClass;
use mpi_dtype_fuzz::*;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let Some(case) = MemoryCase::decode(&mut b) else {
        return;
    };
    let (dt, tm, count, region, src) = case.into_parts();
    let dt = &dt;
    let expected = tm.pack_bytes(count, &src, region.origin());
    let total = expected.len();
    let inbuf = src[region.origin()..].as_ptr();

    // Whole, at a position.
    let start = b.range(0, 7);
    let mut out = vec![0xeeu8; start as usize + total + 8];
    let mut position = start;
    // SAFETY: the region holds every byte the type map addresses; `out` has its length.
    let rc = unsafe {
        pack::pack(
            inbuf,
            count,
            dt,
            out.as_mut_ptr(),
            out.len() as i64,
            &mut position,
        )
    };
    assert!(rc.is_ok(), "pack failed: {rc:?}");
    assert_eq!(position, start + total as i64, "position after pack");
    assert_eq!(
        &out[start as usize..start as usize + total],
        &expected[..],
        "packed bytes"
    );
    assert!(out[..start as usize]
        .iter()
        .chain(&out[start as usize + total..])
        .all(|&x| x == 0xee));

    // One byte too few: nothing written, position kept.
    if total > 0 {
        let mut short = vec![0xeeu8; start as usize + total];
        let mut position = start;
        let size = start + total as i64 - 1;
        // SAFETY: as above; `short` has more than `size` bytes.
        let rc = unsafe { pack::pack(inbuf, count, dt, short.as_mut_ptr(), size, &mut position) };
        assert_eq!(
            rc.map_err(|e| e.class),
            Err(ErrorClass::Truncate),
            "short pack"
        );
        assert_eq!(position, start, "position after a failed pack");
        assert!(short.iter().all(|&x| x == 0xee), "a failed pack wrote");
    }

    // Split at random offsets.
    let points = cuts(&mut b, total);
    let mut pieces = vec![0u8; total];
    for w in points.windows(2) {
        // SAFETY: as above.
        unsafe { plan::pack_range(&dt.plan, count, inbuf, w[0] as i64, &mut pieces[w[0]..w[1]]) };
    }
    assert_eq!(pieces, expected, "pack split at {points:?}");

    // Unpack whole, then split (in order) into fresh buffers: the same bytes.
    let mut whole = vec![0xaau8; region.len];
    let mut position = 0i64;
    let outbuf = whole[region.origin()..].as_mut_ptr();
    // SAFETY: `expected` has `total` bytes; the region holds every byte addressed.
    let rc = unsafe {
        pack::unpack(
            expected.as_ptr(),
            total as i64,
            &mut position,
            outbuf,
            count,
            dt,
        )
    };
    assert!(rc.is_ok(), "unpack failed: {rc:?}");
    assert_eq!(position, total as i64, "position after unpack");
    let points = cuts(&mut b, total);
    let mut split = vec![0xaau8; region.len];
    let outbuf = split[region.origin()..].as_mut_ptr();
    for w in points.windows(2) {
        // SAFETY: as above.
        unsafe { plan::unpack_range(&dt.plan, count, outbuf, w[0] as i64, &expected[w[0]..w[1]]) };
    }
    assert_eq!(
        split, whole,
        "unpack split at {points:?} differs from the whole unpack"
    );
    if tm.non_overlapping(count) {
        let mut model = vec![0xaau8; region.len];
        tm.unpack_bytes(count, &expected, &mut model, region.origin());
        assert_eq!(whole, model, "unpacked bytes");
        // Pieces in any order give the same result when no two entries share a byte.
        let mut shuffled = vec![0xaau8; region.len];
        let outbuf = shuffled[region.origin()..].as_mut_ptr();
        for w in points.windows(2).rev() {
            // SAFETY: as above.
            unsafe {
                plan::unpack_range(&dt.plan, count, outbuf, w[0] as i64, &expected[w[0]..w[1]])
            };
        }
        assert_eq!(shuffled, model, "unpack of pieces in reverse order");
    }

    // Too little input: nothing written, position kept.
    if total > 0 {
        let mut untouched = vec![0xaau8; region.len];
        let mut position = 0i64;
        let outbuf = untouched[region.origin()..].as_mut_ptr();
        // SAFETY: the input length passed is shorter than `expected`.
        let rc = unsafe {
            pack::unpack(
                expected.as_ptr(),
                total as i64 - 1,
                &mut position,
                outbuf,
                count,
                dt,
            )
        };
        assert_eq!(
            rc.map_err(|e| e.class),
            Err(ErrorClass::Truncate),
            "short unpack"
        );
        assert_eq!(position, 0);
        assert!(
            untouched.iter().all(|&x| x == 0xaa),
            "a failed unpack wrote"
        );
    }
});
