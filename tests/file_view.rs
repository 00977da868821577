//! Property tests of file views: for random filetypes, a view is made exactly when the naive
//! type map meets the conditions on filetypes (no negative displacement, none going back or
//! overlapping, within a tile or from one to the next), and then every byte of its data stream maps to the file
//! offset the type map gives it, whatever the range asked for, and is read from and written to
//! that offset of an image of the file by the filetype's plan.

mod common;

use common::*;
use mpi_dtype::datatype::typemap::TypeMap;
use mpi_dtype::file_view::FileView;
use proptest::prelude::*;

/// The file offset of each of the first `n` bytes of the view's stream, from the type map;
/// `None` if the type map breaks the standard's conditions on filetypes.
fn model(disp: i64, tm: &TypeMap, n: i64) -> Option<Vec<i64>> {
    let entries = tm.data_entries();
    let mut end = None::<i64>;
    for &(basic, at) in &entries {
        if at < 0 || end.is_some_and(|end| at < end) {
            return None;
        }
        end = Some(at + basic.size());
    }
    let (first, end) = (entries.first()?.1, end?);
    if end - first > tm.extent() {
        return None;
    }
    let mut bytes = Vec::new();
    let mut tile = 0;
    while (bytes.len() as i64) < n {
        for &(basic, at) in &entries {
            bytes.extend((0..basic.size()).map(|b| disp + tile * tm.extent() + at + b));
        }
        tile += 1;
    }
    bytes.truncate(n as usize);
    Some(bytes)
}

proptest! {
    #![proptest_config(proptest_config(1024))]

    #[test]
    fn views_map_stream_bytes_as_the_type_map_does(
        case in any_case(),
        disp in 0..64i64,
        cuts in prop::collection::vec((0..200i64, 0..120i64), 4),
    ) {
        let byte = pre(mpi_dtype::abi::MPI_BYTE);
        let view = FileView::new(disp, &byte, &case.dt);
        let size = case.tm.size();
        let longest = cuts.iter().map(|&(s, l)| s + l).max().unwrap_or(0);
        let want = if size > 0 { model(disp, &case.tm, longest) } else { None };
        prop_assert_eq!(view.is_ok(), want.is_some(), "{:?}", view.as_ref().err());
        let (Ok(view), Some(want)) = (view, want) else { return Ok(()) };
        // An image of the file whose byte k is k mod 251, read and written through the plan.
        let image_len = want.iter().max().map_or(0, |&m| m as usize + 1);
        let image: Vec<u8> = (0..image_len).map(|k| (k % 251) as u8).collect();
        for &(start, len) in &cuts {
            let range = &want[start as usize..(start + len) as usize];
            let mut packed = vec![0u8; len as usize];
            view.pack_from_image(&image, 0, start, &mut packed).unwrap();
            let expected: Vec<u8> = range.iter().map(|&at| image[at as usize]).collect();
            prop_assert_eq!(&packed, &expected);
            let mut written = vec![0u8; image_len];
            let data: Vec<u8> = (0..len).map(|k| (k % 250 + 1) as u8).collect();
            view.unpack_into_image(&mut written, 0, start, &data).unwrap();
            for (k, &at) in range.iter().enumerate() {
                prop_assert_eq!(written[at as usize], data[k]);
            }
            prop_assert_eq!(written.iter().filter(|&&b| b != 0).count(), len as usize);
            if let Some(reach) = view.reach(start, len).unwrap() {
                prop_assert_eq!((reach.first, reach.end), (range[0], range[range.len() - 1] + 1));
                prop_assert!(reach.runs >= 1);
            }
            let short = &image[..range.last().map_or(0, |&at| at as usize)];
            prop_assert!(len == 0 || view.pack_from_image(short, 0, start, &mut packed).is_err());
        }
        for (start, len) in cuts {
            let mut got = Vec::new();
            view.for_each_range(start, len, |at, n| {
                got.extend(at..at + n);
                Ok(())
            }).unwrap();
            prop_assert_eq!(&got[..], &want[start as usize..(start + len) as usize]);
            if len > 0 {
                prop_assert_eq!(view.byte_offset(start).unwrap(), want[start as usize]);
            }
        }
        // The end of a file that ends right after stream byte k is k + 1 bytes into the stream.
        for k in [0usize, 1, 7, longest as usize / 2] {
            if k < want.len() {
                prop_assert_eq!(view.stream_before(want[k] + 1), k as i64 + 1);
            }
        }
    }
}
