//! File views (`MPI_File_set_view`): which bytes of a file a process sees, and in which
//! order. A view tiles its filetype over the file from a displacement; the data bytes of the
//! tiles, in type-map order, make the view's data stream. Reads and writes address the stream
//! in etypes; this module maps stream bytes to file bytes and back.

use crate::datatype::layout::{add, mul};
use crate::datatype::Datatype;
use crate::error::{Error, Result};
use crate::plan::iov::{for_each_segment, run_count};
use std::sync::Arc;

/// A filetype of at most this many runs keeps them in a list searched by bisection; one of
/// more is walked from its start at each access (correct, slower, and bounded in memory).
const LISTED_RUNS: i64 = 1 << 20;

/// A file view: the filetype's runs tiled from `disp`, and the size of its etype.
#[derive(Clone, Debug)]
pub struct FileView {
    /// Where the first tile starts, in bytes from the start of the file.
    disp: i64,
    /// Bytes of the etype: the unit of offsets into the stream.
    etype_size: i64,
    /// Data bytes of one tile (the filetype's size).
    tile_size: i64,
    /// Bytes from one tile to the next (the filetype's extent).
    tile_extent: i64,
    /// Where a tile's data start and end, relative to the tile.
    span: (i64, i64),
    /// The runs of one tile.
    runs: Runs,
    /// The filetype, whose plan moves the stream's bytes to and from an image of the file
    /// ([`FileView::pack_from_image`]).
    filetype: Arc<Datatype>,
    /// How many runs of bytes one tile has.
    tile_runs: i64,
}

/// Where a range of the stream lies in the file ([`FileView::reach`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The file offset of its first byte.
    pub first: i64,
    /// The file offset past its last byte.
    pub end: i64,
    /// About how many runs of the file it lies in: one if it is one run, else the tiles' runs
    /// in its share of the stream, at least two.
    pub runs: i64,
}

/// The byte runs of one tile, relative to where the tile starts.
#[derive(Clone, Debug)]
enum Runs {
    /// Listed: each run `(displacement, length)` and the data bytes before it in the tile.
    Listed(Vec<(i64, i64, i64)>),
    /// Too many to list: the filetype, whose runs are walked at each access.
    Walked(Arc<Datatype>),
}

impl FileView {
    /// The view of `filetype` tiled from byte `disp`, in units of `etype`.
    ///
    /// The standard's conditions are checked: `disp` is not negative; the etype has data;
    /// the filetype's size is a whole number of etypes, above zero; its type map's
    /// displacements are not negative and never decrease, within a tile nor from one tile to
    /// the next; and, beyond the standard, no two entries overlap ([`Order`]). A failure is `MPI_ERR_ARG` for the displacement and the sizes (as MPICH's
    /// ROMIO answers), `MPI_ERR_TYPE` for the etype and the order.
    pub fn new(disp: i64, etype: &Datatype, filetype: &Arc<Datatype>) -> Result<FileView> {
        if disp < 0 {
            return Err(Error::arg(format!("the displacement {disp} is negative")));
        }
        let (etype_size, tile_size) = (etype.size(), filetype.size());
        if etype_size <= 0 {
            return Err(Error::datatype("the etype has no data"));
        }
        if tile_size <= 0 || tile_size % etype_size != 0 {
            return Err(Error::arg(format!(
                "the filetype's size {tile_size} is not a positive multiple of the etype's size {etype_size}"
            )));
        }
        let tile_extent = filetype.extent();
        let tile_runs = run_count(filetype.plan.root());
        let listed = tile_runs <= LISTED_RUNS;
        let mut list = Vec::new();
        let mut order = Order::default();
        for_each_segment(filetype.plan.root(), |disp, len| {
            order.see(disp, len);
            if listed {
                list.push((disp, len, order.data - len));
            }
            order.error.is_none()
        });
        if let Some(error) = order.error {
            return Err(error);
        }
        let (first, end) = (order.first.unwrap_or(0), order.end);
        if end - first > tile_extent {
            return Err(Error::datatype(format!(
                "the filetype's data span {} bytes, more than its extent {tile_extent}: tiles would overlap",
                end - first
            )));
        }
        let runs = if listed {
            Runs::Listed(list)
        } else {
            Runs::Walked(Arc::clone(filetype))
        };
        Ok(FileView {
            disp,
            etype_size,
            tile_size,
            tile_extent,
            span: (first, end),
            runs,
            filetype: Arc::clone(filetype),
            tile_runs,
        })
    }

    /// Bytes of the etype.
    pub fn etype_size(&self) -> i64 {
        self.etype_size
    }

    /// The view's displacement.
    pub fn disp(&self) -> i64 {
        self.disp
    }

    /// Calls `f(file_offset, length)` for the file bytes of the stream's bytes
    /// `start..start + len`, in stream order, merging pieces that continue one another.
    /// `MPI_ERR_ARG` if a file offset would not fit an `MPI_Offset`.
    pub fn for_each_range(
        &self,
        start: i64,
        len: i64,
        mut f: impl FnMut(i64, i64) -> Result<()>,
    ) -> Result<()> {
        let mut pending: Option<(i64, i64)> = None;
        let mut emit = |at: i64, n: i64| -> Result<()> {
            match &mut pending {
                Some((from, run)) if *from + *run == at => *run += n,
                _ => {
                    if let Some((from, run)) = pending.replace((at, n)) {
                        f(from, run)?;
                    }
                }
            }
            Ok(())
        };
        let (mut tile, mut within) = (start / self.tile_size, start % self.tile_size);
        let mut left = len;
        if let Runs::Listed(list) = &self.runs {
            if let [(disp, run, _)] = list[..] {
                // One run a tile: no search, and tiles that abut are one piece.
                let origin = add(self.disp, disp, "file offset")?;
                while left > 0 {
                    let take = (run - within).min(left);
                    let at = add(
                        origin,
                        mul(tile, self.tile_extent, "tile * extent")?,
                        "file offset",
                    )?;
                    emit(add(at, within, "file offset")?, take)?;
                    left -= take;
                    tile += 1;
                    within = 0;
                    if run == self.tile_extent {
                        // Tiles that abut: the rest of the stream follows on.
                        if left > 0 {
                            emit(add(at, run, "file offset")?, left)?;
                        }
                        left = 0;
                    }
                }
            }
        }
        while left > 0 {
            let base = add(
                self.disp,
                mul(tile, self.tile_extent, "tile * extent")?,
                "file offset",
            )?;
            let mut error = None;
            self.runs_from(within, |disp, skip, run| {
                let take = (run - skip).min(left);
                let at = add(base, disp, "file offset").and_then(|b| add(b, skip, "file offset"));
                match at.and_then(|at| emit(at, take)) {
                    Ok(()) => left -= take,
                    Err(e) => error = Some(e),
                }
                left > 0 && error.is_none()
            });
            if let Some(error) = error {
                return Err(error);
            }
            tile += 1;
            within = 0;
        }
        if let Some((from, run)) = pending {
            f(from, run)?;
        }
        Ok(())
    }

    /// Where the stream's bytes `start..start + len` lie in the file; `None` for no bytes.
    pub fn reach(&self, start: i64, len: i64) -> Result<Option<Reach>> {
        if len <= 0 {
            return Ok(None);
        }
        let last = add(start, len - 1, "stream offset")?;
        let (first, end) = (
            self.byte_offset(start)?,
            add(self.byte_offset(last)?, 1, "file offset")?,
        );
        let one_run = end - first == len;
        let runs = match one_run {
            true => 1,
            false => {
                let share = (len as i128 * self.tile_runs as i128 + self.tile_size as i128 - 1)
                    / self.tile_size as i128;
                i64::try_from(share.max(2)).unwrap_or(i64::MAX)
            }
        };
        Ok(Some(Reach { first, end, runs }))
    }

    /// Packs the stream's bytes `start..start + out.len()` into `out` from `image`, a copy of
    /// the file's bytes from offset `image_at` on, with the filetype's plan (its kernels, not
    /// a copy per run). `MPI_ERR_ARG` if the image does not hold every file byte of them.
    pub fn pack_from_image(
        &self,
        image: &[u8],
        image_at: i64,
        start: i64,
        out: &mut [u8],
    ) -> Result<()> {
        let base = self.image_base(image.len(), image_at, start, out.len())?;
        let Some((base, tiles)) = base else {
            return Ok(());
        };
        let inbuf = image.as_ptr().wrapping_offset(base);
        // SAFETY: every file byte of the stream's range lies in `image` (checked), at
        // `inbuf` plus its offset in the tiles.
        unsafe { crate::plan::pack_range(&self.filetype.plan, tiles, inbuf, start, out) };
        Ok(())
    }

    /// Unpacks `data`, the stream's bytes `start..start + data.len()`, into `image`, a copy of
    /// the file's bytes from offset `image_at` on (its other bytes stay), with the filetype's
    /// plan. `MPI_ERR_ARG` if the image does not hold every file byte of them.
    pub fn unpack_into_image(
        &self,
        image: &mut [u8],
        image_at: i64,
        start: i64,
        data: &[u8],
    ) -> Result<()> {
        let base = self.image_base(image.len(), image_at, start, data.len())?;
        let Some((base, tiles)) = base else {
            return Ok(());
        };
        let outbuf = image.as_mut_ptr().wrapping_offset(base);
        // SAFETY: as for `pack_from_image`, written.
        unsafe { crate::plan::unpack_range(&self.filetype.plan, tiles, outbuf, start, data) };
        Ok(())
    }

    /// Where the first tile starts relative to an image of `image_len` file bytes from
    /// `image_at` on, and the tiles the stream's bytes `start..start + len` reach; `None` for
    /// no bytes, an error if the image does not hold all of theirs.
    fn image_base(
        &self,
        image_len: usize,
        image_at: i64,
        start: i64,
        len: usize,
    ) -> Result<Option<(isize, i64)>> {
        if len == 0 {
            return Ok(None);
        }
        if start < 0 {
            return Err(Error::arg(format!("the stream offset {start} is negative")));
        }
        let end = add(start, len as i64, "stream offset")?;
        let (first, last) = (self.byte_offset(start)?, self.byte_offset(end - 1)?);
        let image_end = add(image_at, image_len as i64, "file offset")?;
        if first < image_at || last >= image_end {
            return Err(Error::arg(format!(
                "the stream's bytes {start}..{end} lie at file bytes {first}..={last}, beyond the image of {image_at}..{image_end}"
            )));
        }
        let base = isize::try_from(self.disp - image_at)
            .map_err(|_| Error::arg("the image lies too far from the view's displacement"))?;
        let tiles = end / self.tile_size + i64::from(end % self.tile_size != 0);
        Ok(Some((base, tiles)))
    }

    /// The file offset of the stream's byte `position` (`MPI_File_get_byte_offset`).
    pub fn byte_offset(&self, position: i64) -> Result<i64> {
        let mut found = None;
        self.for_each_range(position, 1, |at, _| {
            found = Some(at);
            Ok(())
        })?;
        Ok(found.unwrap_or(self.disp))
    }

    /// How many of the stream's bytes lie before the file offset `file_end`: the position
    /// of the end of a file of `file_end` bytes (`MPI_SEEK_END`).
    pub fn stream_before(&self, file_end: i64) -> i64 {
        let (first, end) = self.span;
        let Some(from_disp) = file_end.checked_sub(self.disp).filter(|&n| n > 0) else {
            return 0;
        };
        // The tiles whose data all lie before the end, then those the end cuts.
        let mut tile = if from_disp >= end {
            (from_disp - end) / self.tile_extent + 1
        } else {
            0
        };
        let mut data = tile.saturating_mul(self.tile_size);
        loop {
            let rest = from_disp - tile * self.tile_extent;
            if rest <= first {
                return data;
            }
            self.runs_from(0, |disp, _, run| {
                if disp >= rest {
                    return false;
                }
                data += run.min(rest - disp);
                true
            });
            tile += 1;
        }
    }

    /// Calls `f(displacement, skip, length)` for the runs of a tile from its data byte
    /// `within` on: `skip` of the first run's bytes lie before it. Stops when `f` returns
    /// false.
    fn runs_from(&self, within: i64, mut f: impl FnMut(i64, i64, i64) -> bool) {
        match &self.runs {
            Runs::Listed(list) => {
                let first = list.partition_point(|&(_, len, before)| before + len <= within);
                for (k, &(disp, len, before)) in list[first..].iter().enumerate() {
                    let skip = if k == 0 { within - before } else { 0 };
                    if !f(disp, skip, len) {
                        return;
                    }
                }
            }
            Runs::Walked(filetype) => {
                let mut before = 0i64;
                for_each_segment(filetype.plan.root(), |disp, len| {
                    let seen = before;
                    before += len;
                    if seen + len <= within {
                        return true;
                    }
                    f(disp, (within - seen).max(0), len)
                });
            }
        }
    }
}

/// The runs of a filetype seen so far: where the first starts and the last ends, and the
/// first run that breaks the order this library asks of a filetype: displacements that are
/// not negative and never decrease, as the standard says, and no two entries on the same
/// bytes (the standard allows equal displacements, and so overlapping entries, which only a
/// read may use; a run that begins before the previous one ends is refused here, because the
/// runs of a plan merge entries and their order within a run is not kept).
#[derive(Default)]
struct Order {
    /// The first run's displacement.
    first: Option<i64>,
    /// The end of the last run.
    end: i64,
    /// Data bytes so far.
    data: i64,
    /// The first violation.
    error: Option<Error>,
}

impl Order {
    /// Takes the next run.
    fn see(&mut self, disp: i64, len: i64) {
        if disp < 0 {
            self.error = Some(Error::datatype(format!(
                "the filetype has data at the negative displacement {disp}"
            )));
        } else if self.first.is_some() && disp < self.end {
            self.error = Some(Error::datatype(format!(
                "the filetype's entries go back or overlap (data at {disp} after data up to {})",
                self.end
            )));
        }
        self.first.get_or_insert(disp);
        self.end = disp + len;
        self.data += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::construct::{named, resized, vector};
    use crate::datatype::typemap::TypeMap;
    use crate::predefined::by_name;

    fn ty(name: &str) -> Arc<Datatype> {
        named(by_name(name).expect("a predefined type"))
    }

    /// The file offsets of each stream byte `0..n`, from the naive type map.
    fn model(disp: i64, filetype: &Datatype, n: i64) -> Vec<i64> {
        let tm = TypeMap::of(filetype);
        let mut bytes = Vec::new();
        let mut tile = 0;
        while (bytes.len() as i64) < n {
            for (basic, at) in tm.data_entries() {
                for b in 0..basic.size() {
                    bytes.push(disp + tile * filetype.extent() + at + b);
                }
            }
            tile += 1;
        }
        bytes.truncate(n as usize);
        bytes
    }

    fn mapped(view: &FileView, start: i64, len: i64) -> Vec<i64> {
        let mut bytes = Vec::new();
        view.for_each_range(start, len, |at, n| {
            bytes.extend(at..at + n);
            Ok(())
        })
        .unwrap();
        bytes
    }

    #[test]
    fn every_byte_of_a_strided_view_lands_where_the_type_map_says() {
        let int = ty("MPI_INT");
        let v = vector(3, 2, 5, false, &int, false).unwrap();
        let filetype = resized(&v, 0, 64, false).unwrap();
        let view = FileView::new(12, &int, &filetype).unwrap();
        let all = model(12, &filetype, 200);
        for start in 0..60 {
            for len in [0, 1, 3, 4, 23, 24, 25, 100] {
                let want = &all[start as usize..(start + len) as usize];
                assert_eq!(mapped(&view, start, len), want, "start {start} len {len}");
            }
        }
        assert_eq!(view.byte_offset(8).unwrap(), 12 + 20);
        // Bytes 12..32 of the file hold 8 stream bytes; up to 34, 10.
        assert_eq!(view.stream_before(32), 8);
        assert_eq!(view.stream_before(34), 10);
        assert_eq!(view.stream_before(12 + 64), 24);
        assert_eq!(view.stream_before(0), 0);
    }

    #[test]
    fn walked_runs_map_as_listed_ones() {
        let byte = ty("MPI_BYTE");
        let v = vector(LISTED_RUNS + 3, 1, 2, false, &byte, false).unwrap();
        let view = FileView::new(0, &byte, &v).unwrap();
        assert!(matches!(view.runs, Runs::Walked(_)));
        assert_eq!(mapped(&view, 5, 3), vec![10, 12, 14]);
        let tile = LISTED_RUNS + 3;
        assert_eq!(mapped(&view, tile, 1), vec![v.extent()]);
    }

    #[test]
    fn views_the_standard_forbids_are_refused() {
        let int = ty("MPI_INT");
        let double = ty("MPI_DOUBLE");
        assert!(FileView::new(-1, &int, &int).is_err());
        // Six bytes are no whole number of ints.
        let three_shorts = vector(3, 1, 1, false, ty("MPI_SHORT"), false).unwrap();
        assert!(FileView::new(0, &int, &three_shorts).is_err());
        // Going back: a vector of negative stride.
        let back = vector(2, 1, -2, false, &int, false).unwrap();
        assert!(FileView::new(0, &int, &back).is_err());
        // Tiles that overlap: an extent shorter than the data's span; an extent of 0.
        let short = resized(&double, 0, 4, false).unwrap();
        assert!(FileView::new(0, &int, &short).is_err());
        assert!(FileView::new(0, &int, &resized(&int, 0, 0, false).unwrap()).is_err());
        assert!(FileView::new(0, &int, &double).is_ok());
    }
}
