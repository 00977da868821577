//! The summary of a type map that every query needs, computed per constructor in time
//! independent of the number of entries: size, element count, the span of the data, the spans
//! of the lower- and upper-bound markers, the largest alignment, and whether the data is one
//! dense run. Bounds follow the marker equations of MPI-4.1 §5.1.7.

use crate::error::{Error, Result};

/// The smallest and largest of a set of displacements (for data: least displacement and
/// greatest end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// Least value.
    pub min: i64,
    /// Greatest value.
    pub max: i64,
}

/// Converts an exact intermediate result back to 64 bits.
pub fn fit(value: i128, what: &str) -> Result<i64> {
    i64::try_from(value).map_err(|_| Error::overflow(what))
}

/// `a * b` in 64 bits, or an overflow error naming `what`.
#[inline]
pub fn mul(a: i64, b: i64, what: &str) -> Result<i64> {
    a.checked_mul(b).ok_or_else(|| Error::overflow(what))
}

/// `a + b` in 64 bits, or an overflow error naming `what`.
#[inline]
pub fn add(a: i64, b: i64, what: &str) -> Result<i64> {
    a.checked_add(b).ok_or_else(|| Error::overflow(what))
}

/// `end` padded up so that `end - lb` is a multiple of `align`, in 64 bits: `None` when that
/// would overflow or the span is negative, and [`Layout::ub`] then computes it exactly. With
/// a power-of-two alignment (every C type's) it is a mask, not a division.
#[inline]
fn padded_end(lb: i64, end: i64, align: i64) -> Option<i64> {
    let span = end.checked_sub(lb).filter(|&span| span >= 0 && align > 0)?;
    let rounded_up = span.checked_add(align - 1)?;
    let padded = if align & (align - 1) == 0 {
        rounded_up & !(align - 1)
    } else {
        rounded_up / align * align
    };
    lb.checked_add(padded)
}

/// `ub - lb`, saturated to the 64-bit range.
pub fn extent_between(lb: i64, ub: i64) -> i64 {
    (ub as i128 - lb as i128).clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

#[inline]
fn shift_span(span: Option<Span>, lo: i64, hi: i64) -> Result<Option<Span>> {
    match span {
        None => Ok(None),
        Some(s) => Ok(Some(Span {
            min: add(s.min, lo, "a displacement")?,
            max: add(s.max, hi, "a displacement")?,
        })),
    }
}

fn union_span(a: Option<Span>, b: Option<Span>) -> Option<Span> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(Span {
            min: a.min.min(b.min),
            max: a.max.max(b.max),
        }),
    }
}

/// The summary of a type map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Total size in bytes of the basic entries.
    pub size: i64,
    /// Number of basic entries.
    pub elements: i64,
    /// Size in bytes of the basic entries in the external32 representation.
    pub ext32_size: i64,
    /// Least displacement and greatest end of the basic entries; `None` if there are none.
    pub data: Option<Span>,
    /// Least and greatest displacement of the `lb` markers; `None` if there are none.
    pub lb_marks: Option<Span>,
    /// Least and greatest displacement of the `ub` markers; `None` if there are none.
    pub ub_marks: Option<Span>,
    /// Largest alignment among the basic entries (1 if there are none).
    pub align: i64,
    /// True if the basic entries, in type-map order, fill `[true_lb, true_ub)` exactly, each
    /// starting where the previous one ended.
    pub dense: bool,
}

impl Layout {
    /// The empty type map: no entries, no markers.
    pub const EMPTY: Layout = Layout {
        size: 0,
        elements: 0,
        ext32_size: 0,
        data: None,
        lb_marks: None,
        ub_marks: None,
        align: 1,
        dense: true,
    };

    /// The type map `{(basic, 0)}` of a basic type of `size` bytes (`ext32_size` in
    /// external32) and alignment `align`.
    pub fn basic(size: i64, align: i64, ext32_size: i64) -> Layout {
        Layout {
            size,
            elements: 1,
            ext32_size,
            data: Some(Span { min: 0, max: size }),
            align,
            ..Layout::EMPTY
        }
    }

    /// The type map `{(lb, 0)}` or `{(ub, 0)}` of a legacy marker type.
    pub fn marker(upper: bool) -> Layout {
        let at_zero = Some(Span { min: 0, max: 0 });
        if upper {
            Layout {
                ub_marks: at_zero,
                ..Layout::EMPTY
            }
        } else {
            Layout {
                lb_marks: at_zero,
                ..Layout::EMPTY
            }
        }
    }

    /// The lower bound: the least `lb` marker if there is one, else the least displacement
    /// of any entry; 0 for the empty type map.
    #[inline]
    pub fn lb(&self) -> i64 {
        match self.lb_marks {
            Some(m) => m.min,
            None => [self.data.map(|d| d.min), self.ub_marks.map(|m| m.min)]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(0),
        }
    }

    /// The upper bound: the greatest `ub` marker if there is one, else the greatest end of
    /// any entry plus the least padding that makes the extent a multiple of the alignment.
    /// Saturated to the 64-bit range (constructors reject types whose bounds leave it).
    pub fn ub(&self) -> i64 {
        self.exact_ub().clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }

    /// [`Layout::ub`] without saturation.
    #[inline]
    fn exact_ub(&self) -> i128 {
        if let Some(m) = self.ub_marks {
            return m.max as i128;
        }
        let raw = [self.data.map(|d| d.max), self.lb_marks.map(|m| m.max)]
            .into_iter()
            .flatten()
            .max();
        match raw {
            None => 0,
            Some(raw) => {
                let lb = self.lb();
                if let Some(ub) = padded_end(lb, raw, self.align) {
                    return ub as i128;
                }
                let span = raw as i128 - lb as i128;
                let align = self.align as i128;
                lb as i128 + (span + align - 1).div_euclid(align) * align
            }
        }
    }

    /// The lower and upper bounds, or an overflow error if the upper bound, the extent or the
    /// true extent of this type map leaves the 64-bit range of `MPI_Aint`.
    #[inline]
    pub fn checked_bounds(&self) -> Result<(i64, i64)> {
        let range = i64::MIN as i128..=i64::MAX as i128;
        let (lb, ub) = (self.lb(), self.exact_ub());
        if !range.contains(&ub) {
            return Err(Error::overflow("the upper bound"));
        }
        if !range.contains(&(ub - lb as i128)) {
            return Err(Error::overflow("the extent (ub - lb)"));
        }
        if !range.contains(&(self.true_ub() as i128 - self.true_lb() as i128)) {
            return Err(Error::overflow("the true extent"));
        }
        Ok((lb, ub as i64))
    }

    /// `ub - lb`, saturated to the 64-bit range.
    pub fn extent(&self) -> i64 {
        extent_between(self.lb(), self.ub())
    }

    /// The least displacement of the data (0 if there is none).
    #[inline]
    pub fn true_lb(&self) -> i64 {
        self.data.map_or(0, |d| d.min)
    }

    /// The greatest end of the data (0 if there is none).
    #[inline]
    pub fn true_ub(&self) -> i64 {
        self.data.map_or(0, |d| d.max)
    }

    /// `true_ub - true_lb`.
    #[inline]
    pub fn true_extent(&self) -> i64 {
        self.true_ub() - self.true_lb()
    }

    /// This type map moved by `offset` bytes.
    pub fn shifted(&self, offset: i64) -> Result<Layout> {
        self.shifted_by(offset, offset)
    }

    /// This type map with its data and markers spread: each span's least value moved by `lo`
    /// and its greatest by `hi`. Every field is written afresh, not copied from a layout
    /// written a moment before, which a processor would read back through a stalled store.
    #[inline]
    fn shifted_by(&self, lo: i64, hi: i64) -> Result<Layout> {
        Ok(Layout {
            size: self.size,
            elements: self.elements,
            ext32_size: self.ext32_size,
            data: shift_span(self.data, lo, hi)?,
            lb_marks: shift_span(self.lb_marks, lo, hi)?,
            ub_marks: shift_span(self.ub_marks, lo, hi)?,
            align: self.align,
            dense: self.dense,
        })
    }

    /// `count` copies of this type map at displacements `0, step, 2*step, ...`.
    #[inline(always)]
    pub fn repeated(&self, count: i64, step: i64) -> Result<Layout> {
        if count <= 0 {
            return Ok(Layout::EMPTY);
        }
        let last = mul(count - 1, step, "a displacement")?;
        let (lo, hi) = (last.min(0), last.max(0));
        Ok(Layout {
            size: mul(self.size, count, "the datatype size")?,
            elements: mul(self.elements, count, "the number of elements")?,
            ext32_size: mul(self.ext32_size, count, "the external32 size")?,
            data: shift_span(self.data, lo, hi)?,
            lb_marks: shift_span(self.lb_marks, lo, hi)?,
            ub_marks: shift_span(self.ub_marks, lo, hi)?,
            align: self.align,
            dense: self.dense && (count == 1 || self.size == 0 || step == self.size),
        })
    }

    /// The type map of `self` followed by `next` (entries of both, in that order).
    pub fn followed_by(&self, next: &Layout) -> Result<Layout> {
        let dense = match (self.data, next.data) {
            (Some(a), Some(b)) => self.dense && next.dense && a.max == b.min,
            _ => self.dense && next.dense,
        };
        Ok(Layout {
            size: add(self.size, next.size, "the datatype size")?,
            elements: add(self.elements, next.elements, "the number of elements")?,
            ext32_size: add(self.ext32_size, next.ext32_size, "the external32 size")?,
            data: union_span(self.data, next.data),
            lb_marks: union_span(self.lb_marks, next.lb_marks),
            ub_marks: union_span(self.ub_marks, next.ub_marks),
            align: self.align.max(next.align),
            dense,
        })
    }

    /// This type map with its markers replaced by `lb` and `ub` markers at `lb` and
    /// `lb + extent` (`MPI_Type_create_resized`).
    pub fn resized(&self, lb: i64, extent: i64) -> Result<Layout> {
        let ub = add(lb, extent, "lb + extent")?;
        Ok(Layout {
            lb_marks: Some(Span { min: lb, max: lb }),
            ub_marks: Some(Span { min: ub, max: ub }),
            ..*self
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_char_has_extent_16() {
        let l = Layout::basic(8, 8, 8)
            .followed_by(&Layout::basic(1, 1, 1).shifted(8).unwrap())
            .unwrap();
        assert_eq!((l.lb(), l.ub(), l.extent()), (0, 16, 16));
        assert_eq!((l.true_lb(), l.true_ub()), (0, 9));
        assert!(l.dense);
    }

    #[test]
    fn empty_type_map_has_zero_bounds() {
        let l = Layout::EMPTY;
        assert_eq!((l.lb(), l.ub(), l.true_lb(), l.true_ub()), (0, 0, 0, 0));
    }

    #[test]
    fn negative_steps_move_the_lower_bound() {
        let l = Layout::basic(4, 4, 4).repeated(3, -8).unwrap();
        assert_eq!((l.lb(), l.ub()), (-16, 4));
        assert!(!l.dense);
    }

    #[test]
    fn lower_marker_alone_sets_lb_and_padding_rounds_extent() {
        let l = Layout::marker(false)
            .shifted(-3)
            .unwrap()
            .followed_by(&Layout::basic(4, 4, 4))
            .unwrap();
        assert_eq!((l.lb(), l.ub()), (-3, 5));
    }

    #[test]
    fn padding_in_64_bits_is_the_exact_padding_or_declined() {
        let exact = |lb: i64, end: i64, align: i64| {
            let (lb, span, align) = (lb as i128, end as i128 - lb as i128, align as i128);
            lb + (span + align - 1).div_euclid(align) * align
        };
        let values = [
            i64::MIN,
            i64::MIN + 7,
            -1 << 40,
            -17,
            -1,
            0,
            1,
            9,
            1 << 40,
            i64::MAX - 7,
        ];
        for lb in values {
            for end in values {
                for align in [1, 2, 3, 8, 16, 24] {
                    match padded_end(lb, end, align) {
                        Some(ub) => assert_eq!(ub as i128, exact(lb, end, align)),
                        // Declined only where 64 bits may not hold an intermediate value (the
                        // caller then computes it exactly) or the span is negative.
                        None => assert!(
                            end < lb || lb.abs_diff(0).max(end.abs_diff(0)) > 1 << 62,
                            "declined {lb} {end} {align}"
                        ),
                    }
                }
            }
        }
    }

    #[test]
    fn overflow_is_an_error() {
        assert!(Layout::basic(8, 8, 8).repeated(i64::MAX / 4, 8).is_err());
    }
}
