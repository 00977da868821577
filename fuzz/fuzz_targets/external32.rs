//! The external32 round trip: MPI_Pack_external writes every data entry of `count` copies in
//! type-map order in the standard's big-endian form (checked byte for byte where the form is
//! a byte reversal of the native value), unpacking restores those values, and a second round
//! trip reproduces the first packed stream exactly (long and long double included).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mpi_dtype::pack::external32;
use mpi_dtype::pack::Representation;
use mpi_dtype_core::error::ErrorClass;
use mpi_dtype_fuzz::*;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let Some(case) = MemoryCase::decode(&mut b) else {
        return;
    };
    let (dt, tm, count, region, src) = case.into_parts();
    let dt = &dt;
    let entries = tm.copies(count);
    let total: i64 = entries.iter().map(|(e, _)| e.info().ext32_size()).sum();
    assert_eq!(
        external32::packed_size(dt, count).ok(),
        Some(total),
        "external32 size"
    );

    let pack = |src: &[u8]| -> Vec<u8> {
        let mut out = vec![0u8; total as usize];
        let mut position = 0i64;
        // SAFETY: the region holds every byte addressed; `out` has `total` bytes.
        let rc = unsafe {
            Representation::External32.pack(
                src[region.origin()..].as_ptr(),
                count,
                dt,
                out.as_mut_ptr(),
                total,
                &mut position,
            )
        };
        assert!(rc.is_ok(), "external32 pack failed: {rc:?}");
        assert_eq!(position, total);
        out
    };
    let unpack = |packed: &[u8]| -> Vec<u8> {
        let mut dst = vec![0xaau8; region.len];
        let mut position = 0i64;
        let outbuf = dst[region.origin()..].as_mut_ptr();
        // SAFETY: as above.
        let rc = unsafe {
            Representation::External32.unpack(
                packed.as_ptr(),
                total,
                &mut position,
                outbuf,
                count,
                dt,
            )
        };
        assert!(rc.is_ok(), "external32 unpack failed: {rc:?}");
        assert_eq!(position, total);
        dst
    };

    let packed = pack(&src);
    let mut at = 0usize;
    for &(basic, disp) in &entries {
        let n = basic.info().ext32_size() as usize;
        let i = region.index(disp);
        if let Some(form) = ext32_encode(basic, &src[i..i + basic.size() as usize]) {
            assert_eq!(
                &packed[at..at + n],
                &form[..],
                "external32 form of {basic:?} at {disp}"
            );
        }
        at += n;
    }

    // Too small a buffer: nothing written.
    if total > 0 {
        let mut out = vec![0x11u8; total as usize];
        let mut position = 0i64;
        // SAFETY: as above; the size passed is one less than `out`'s length.
        let rc = unsafe {
            Representation::External32.pack(
                src[region.origin()..].as_ptr(),
                count,
                dt,
                out.as_mut_ptr(),
                total - 1,
                &mut position,
            )
        };
        assert_eq!(rc.map_err(|e| e.class), Err(ErrorClass::Truncate));
        assert_eq!(position, 0);
        assert!(out.iter().all(|&x| x == 0x11));
    }

    if tm.non_overlapping(count) {
        let back = unpack(&packed);
        for &(basic, disp) in &entries {
            let i = region.index(disp);
            let n = basic.size() as usize;
            if ext32_encode(basic, &src[i..i + n]).is_some() {
                assert_eq!(
                    &back[i..i + n],
                    &src[i..i + n],
                    "round trip of {basic:?} at {disp}"
                );
            }
        }
        assert_eq!(pack(&back), packed, "second round trip");
    }
});
