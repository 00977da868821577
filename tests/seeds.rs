//! The worked examples of the standard's constructor section (MPI-4.1 §5.1) and the marker and
//! empty-type rules of docs/semantics.md, each checked twice: the model `TypeMap::of` must give the
//! type map the standard prints, and the library's layout must give the bounds derived from it.

mod common;

use common::{basic, pre};
use mpi_dtype::abi::*;
use mpi_dtype::datatype::construct;
use mpi_dtype::datatype::typemap::TypeMap;
use mpi_dtype::datatype::{Basic, DarrayArgs, Datatype, Distribution, Order};
use std::sync::Arc;

/// `(basic handle, displacement)` pairs as the standard prints them.
fn entries(list: &[(MPI_Datatype, i64)]) -> Vec<(Basic, i64)> {
    list.iter().map(|&(h, d)| (basic(h), d)).collect()
}

/// Expected bounds and sizes of a type.
#[derive(Debug, PartialEq, Eq)]
struct Bounds {
    size: i64,
    lb: i64,
    ub: i64,
    true_lb: i64,
    true_ub: i64,
}

fn model_bounds(tm: &TypeMap) -> Bounds {
    Bounds {
        size: tm.size(),
        lb: tm.lb(),
        ub: tm.ub(),
        true_lb: tm.true_lb(),
        true_ub: tm.true_ub(),
    }
}

fn layout_bounds(dt: &Datatype) -> Bounds {
    Bounds {
        size: dt.size(),
        lb: dt.lb(),
        ub: dt.ub(),
        true_lb: dt.true_lb(),
        true_ub: dt.layout.true_ub(),
    }
}

/// Checks the model's data entries and both the model's and the layout's bounds.
fn check(dt: &Arc<Datatype>, data: &[(MPI_Datatype, i64)], want: Bounds) {
    let tm = TypeMap::of(dt);
    assert_eq!(tm.data_entries(), entries(data), "model data entries");
    assert_eq!(model_bounds(&tm), want, "model bounds");
    assert_eq!(layout_bounds(dt), want, "layout bounds");
    assert_eq!(dt.extent(), want.ub - want.lb, "extent");
    assert_eq!(dt.layout.elements, data.len() as i64, "element count");
}

fn b(size: i64, lb: i64, ub: i64, true_lb: i64, true_ub: i64) -> Bounds {
    Bounds {
        size,
        lb,
        ub,
        true_lb,
        true_ub,
    }
}

/// `{(double, 0), (char, 8)}` with extent 16, built with the struct constructor.
fn type1() -> Arc<Datatype> {
    construct::structure(
        vec![1, 1],
        vec![0, 8],
        vec![pre(MPI_DOUBLE), pre(MPI_CHAR)],
        false,
    )
    .unwrap()
}

// ---- the worked examples of MPI-4.1 §5.1 ---------------------------------------------------------

#[test]
fn type1_is_double_char_with_extent_16() {
    let t = type1();
    check(&t, &[(MPI_DOUBLE, 0), (MPI_CHAR, 8)], b(9, 0, 16, 0, 9));
}

#[test]
fn contiguous_3_of_type1() {
    let t = construct::contiguous(3, type1(), false).unwrap();
    check(
        &t,
        &[
            (MPI_DOUBLE, 0),
            (MPI_CHAR, 8),
            (MPI_DOUBLE, 16),
            (MPI_CHAR, 24),
            (MPI_DOUBLE, 32),
            (MPI_CHAR, 40),
        ],
        b(27, 0, 48, 0, 41),
    );
}

#[test]
fn vector_2_3_4_of_type1() {
    let t = construct::vector(2, 3, 4, false, type1(), false).unwrap();
    check(
        &t,
        &[
            (MPI_DOUBLE, 0),
            (MPI_CHAR, 8),
            (MPI_DOUBLE, 16),
            (MPI_CHAR, 24),
            (MPI_DOUBLE, 32),
            (MPI_CHAR, 40),
            (MPI_DOUBLE, 64),
            (MPI_CHAR, 72),
            (MPI_DOUBLE, 80),
            (MPI_CHAR, 88),
            (MPI_DOUBLE, 96),
            (MPI_CHAR, 104),
        ],
        // Data ends at 105; the extent 105 is rounded up to a multiple of 8.
        b(54, 0, 112, 0, 105),
    );
}

/// The type map of `MPI_Type_vector(3, 1, -2, type1)`: three copies of type1, 32 bytes apart
/// going down.
fn descending_type1_map() -> [(MPI_Datatype, i64); 6] {
    [
        (MPI_DOUBLE, 0),
        (MPI_CHAR, 8),
        (MPI_DOUBLE, -32),
        (MPI_CHAR, -24),
        (MPI_DOUBLE, -64),
        (MPI_CHAR, -56),
    ]
}

#[test]
fn vector_3_1_minus2_of_type1() {
    let t = construct::vector(3, 1, -2, false, type1(), false).unwrap();
    // Span [-64, 9) = 73 bytes, rounded up to 80.
    check(&t, &descending_type1_map(), b(27, -64, 16, -64, 9));
}

#[test]
fn hvector_equals_vector_with_byte_stride() {
    let t = construct::vector(3, 1, -32, true, type1(), false).unwrap();
    check(&t, &descending_type1_map(), b(27, -64, 16, -64, 9));
}

#[test]
fn indexed_b31_d40_of_type1() {
    let t = construct::indexed(vec![3, 1], vec![4, 0], false, &type1(), false).unwrap();
    check(
        &t,
        &[
            (MPI_DOUBLE, 64),
            (MPI_CHAR, 72),
            (MPI_DOUBLE, 80),
            (MPI_CHAR, 88),
            (MPI_DOUBLE, 96),
            (MPI_CHAR, 104),
            (MPI_DOUBLE, 0),
            (MPI_CHAR, 8),
        ],
        b(36, 0, 112, 0, 105),
    );
}

#[test]
fn hindexed_and_indexed_block_agree_with_indexed() {
    let h = construct::indexed(vec![3, 1], vec![64, 0], true, &type1(), false).unwrap();
    let ib = construct::indexed_block(1, vec![4, 5, 6, 0], false, type1(), false).unwrap();
    let hb = construct::indexed_block(1, vec![64, 80, 96, 0], true, type1(), false).unwrap();
    let want = [
        (MPI_DOUBLE, 64),
        (MPI_CHAR, 72),
        (MPI_DOUBLE, 80),
        (MPI_CHAR, 88),
        (MPI_DOUBLE, 96),
        (MPI_CHAR, 104),
        (MPI_DOUBLE, 0),
        (MPI_CHAR, 8),
    ];
    for t in [h, ib, hb] {
        check(&t, &want, b(36, 0, 112, 0, 105));
    }
}

#[test]
fn struct_b213_d0_16_26_float_type1_char() {
    let t = construct::structure(
        vec![2, 1, 3],
        vec![0, 16, 26],
        vec![pre(MPI_FLOAT), type1(), pre(MPI_CHAR)],
        false,
    )
    .unwrap();
    check(
        &t,
        &[
            (MPI_FLOAT, 0),
            (MPI_FLOAT, 4),
            (MPI_DOUBLE, 16),
            (MPI_CHAR, 24),
            (MPI_CHAR, 26),
            (MPI_CHAR, 27),
            (MPI_CHAR, 28),
        ],
        // Data ends at 29; rounded up to a multiple of 8 (the double).
        b(20, 0, 32, 0, 29),
    );
}

// ---- predefined pair types ------------------------------------------------------------------

#[test]
fn pair_types_have_their_c_struct_layouts() {
    check(
        &pre(MPI_DOUBLE_INT),
        &[(MPI_DOUBLE, 0), (MPI_INT, 8)],
        b(12, 0, 16, 0, 12),
    );
    check(
        &pre(MPI_SHORT_INT),
        &[(MPI_SHORT, 0), (MPI_INT, 4)],
        b(6, 0, 8, 0, 8),
    );
    check(
        &pre(MPI_LONG_DOUBLE_INT),
        &[(MPI_LONG_DOUBLE, 0), (MPI_INT, 16)],
        b(20, 0, 32, 0, 20),
    );
}

// ---- markers -----------------------------------------------------------------------------

/// The MPI-1 markers `MPI_LB` and `MPI_UB`, which MPICH's ABI and Open MPI's have (the
/// standard ABI removed them).
#[cfg(not(abi = "standard"))]
mod markers {
    use super::*;
    use mpi_dtype::datatype::typemap::{Entry, Item};

    fn marker(e: Item, disp: i64) -> Entry {
        Entry { item: e, disp }
    }

    fn data(h: MPI_Datatype, disp: i64) -> Entry {
        Entry {
            item: Item::Data(basic(h)),
            disp,
        }
    }

    /// `struct {MPI_LB at -4, MPI_INT at 0, MPI_UB at 20}`.
    fn int_between_markers() -> Arc<Datatype> {
        construct::structure(
            vec![1, 1, 1],
            vec![-4, 0, 20],
            vec![pre(MPI_LB), pre(MPI_INT), pre(MPI_UB)],
            false,
        )
        .unwrap()
    }

    #[test]
    fn lb_and_ub_markers_in_a_struct_set_the_bounds() {
        let t = int_between_markers();
        let tm = TypeMap::of(&t);
        assert_eq!(
            tm.entries,
            vec![marker(Item::Lb, -4), data(MPI_INT, 0), marker(Item::Ub, 20)]
        );
        check(&t, &[(MPI_INT, 0)], b(4, -4, 20, 0, 4));

        // The markers are sticky: each copy of a contiguous type carries them.
        let c = construct::contiguous(2, &t, false).unwrap();
        check(&c, &[(MPI_INT, 0), (MPI_INT, 24)], b(8, -4, 44, 0, 28));
    }

    #[test]
    fn lb_marker_alone_keeps_padding_from_it() {
        // lb = 3 (marker); no ub marker, so ub = 12 + padding making the extent a multiple of 4.
        let t = construct::structure(
            vec![1, 1],
            vec![3, 8],
            vec![pre(MPI_LB), pre(MPI_INT)],
            false,
        )
        .unwrap();
        check(&t, &[(MPI_INT, 8)], b(4, 3, 15, 8, 12));
    }

    #[test]
    fn ub_marker_below_the_data_counts_for_lb() {
        // No lb marker: lb is the least displacement of any entry, the ub marker included.
        let t = construct::structure(
            vec![1, 1],
            vec![0, -2],
            vec![pre(MPI_INT), pre(MPI_UB)],
            false,
        )
        .unwrap();
        check(&t, &[(MPI_INT, 0)], b(4, -2, -2, 0, 4));
    }

    #[test]
    fn resized_erases_older_markers() {
        let marked = int_between_markers();
        let r = construct::resized(&marked, 2, 6, false).unwrap();
        let tm = TypeMap::of(&r);
        assert_eq!(
            tm.entries,
            vec![marker(Item::Lb, 2), data(MPI_INT, 0), marker(Item::Ub, 8)]
        );
        check(&r, &[(MPI_INT, 0)], b(4, 2, 8, 0, 4));

        // Two copies in a struct at 100: markers at 102/108 and 108/114.
        let s = construct::structure(vec![2], vec![100], vec![r], false).unwrap();
        check(
            &s,
            &[(MPI_INT, 100), (MPI_INT, 106)],
            b(8, 102, 114, 100, 110),
        );
    }
}

#[test]
fn resized_to_zero_and_negative_extent() {
    let z = construct::resized(pre(MPI_INT), 0, 0, false).unwrap();
    let c = construct::contiguous(3, &z, false).unwrap();
    check(
        &c,
        &[(MPI_INT, 0), (MPI_INT, 0), (MPI_INT, 0)],
        b(12, 0, 0, 0, 4),
    );

    let n = construct::resized(pre(MPI_INT), 0, -8, false).unwrap();
    let c = construct::contiguous(3, &n, false).unwrap();
    // Markers at lb 0, -8, -16 and ub -8, -16, -24: lb = -16, ub = -8.
    check(
        &c,
        &[(MPI_INT, 0), (MPI_INT, -8), (MPI_INT, -16)],
        b(12, -16, -8, -16, 4),
    );
}

#[test]
fn resized_empty_type_keeps_its_markers() {
    let empty = construct::contiguous(0, pre(MPI_INT), false).unwrap();
    let r = construct::resized(&empty, -3, 10, false).unwrap();
    check(&r, &[], b(0, -3, 7, 0, 0));
    let c = construct::contiguous(2, &r, false).unwrap();
    check(&c, &[], b(0, -3, 17, 0, 0));
}

// ---- empty members and empty types ---------------------------------------------------------

#[test]
fn zero_count_member_at_29_does_not_move_struct_bounds() {
    let empty_double = construct::contiguous(0, pre(MPI_DOUBLE), false).unwrap();
    let t = construct::structure(
        vec![1, 1],
        vec![0, 29],
        vec![pre(MPI_INT), empty_double],
        false,
    )
    .unwrap();
    check(&t, &[(MPI_INT, 0)], b(4, 0, 4, 0, 4));

    // The same with a zero blocklength; and an empty double member does not add its alignment.
    let t = construct::structure(
        vec![1, 0],
        vec![0, 29],
        vec![pre(MPI_INT), pre(MPI_DOUBLE)],
        false,
    )
    .unwrap();
    check(&t, &[(MPI_INT, 0)], b(4, 0, 4, 0, 4));

    let empty_double = construct::vector(2, 0, 3, false, pre(MPI_DOUBLE), false).unwrap();
    let t = construct::structure(
        vec![1, 1],
        vec![0, 29],
        vec![pre(MPI_CHAR), empty_double],
        false,
    )
    .unwrap();
    check(&t, &[(MPI_CHAR, 0)], b(1, 0, 1, 0, 1));
}

#[test]
fn empty_types_have_all_bounds_zero() {
    let int = pre(MPI_INT);
    let types = [
        construct::contiguous(0, &int, false).unwrap(),
        construct::vector(0, 2, 3, false, &int, false).unwrap(),
        construct::vector(3, 0, -5, true, &int, false).unwrap(),
        construct::indexed(vec![0, 0], vec![50, -7], false, &int, false).unwrap(),
        construct::indexed(vec![], vec![], true, &int, false).unwrap(),
        construct::indexed_block(0, vec![50], true, &int, false).unwrap(),
        construct::structure(vec![], vec![], vec![], false).unwrap(),
        construct::structure(vec![0], vec![29], vec![pre(MPI_DOUBLE)], false).unwrap(),
    ];
    for t in &types {
        assert!(TypeMap::of(t).entries.is_empty());
        check(t, &[], b(0, 0, 0, 0, 0));
        assert_eq!(t.extent(), 0);
    }
}

// ---- subarray and darray end in a resize -----------------------------------------------------

#[test]
fn subarray_markers_are_0_and_the_whole_array() {
    let t = construct::subarray(vec![4], vec![2], vec![1], Order::C, &pre(MPI_INT), false).unwrap();
    check(&t, &[(MPI_INT, 4), (MPI_INT, 8)], b(8, 0, 16, 4, 12));

    // 2-D, C order: rows of 3 ints; elements (1,1), (1,2).
    let t = construct::subarray(
        vec![2, 3],
        vec![1, 2],
        vec![1, 1],
        Order::C,
        &pre(MPI_INT),
        false,
    )
    .unwrap();
    check(&t, &[(MPI_INT, 16), (MPI_INT, 20)], b(8, 0, 24, 16, 24));

    // The same arguments in Fortran order: columns of 2 ints; (1,1) at 12, (1,2) at 20.
    let t = construct::subarray(
        vec![2, 3],
        vec![1, 2],
        vec![1, 1],
        Order::Fortran,
        &pre(MPI_INT),
        false,
    )
    .unwrap();
    check(&t, &[(MPI_INT, 12), (MPI_INT, 20)], b(8, 0, 24, 12, 24));
}

#[test]
fn darray_cyclic_and_block() {
    // 1-D, 7 ints over 2 processes, cyclic(2), rank 1: indices 2, 3, 6.
    let args = DarrayArgs {
        size: 2,
        rank: 1,
        gsizes: vec![7],
        distribs: vec![Distribution::Cyclic],
        dargs: vec![Some(2)],
        psizes: vec![2],
        order: Order::C,
    };
    let t = construct::darray(args, &pre(MPI_INT), false).unwrap();
    check(
        &t,
        &[(MPI_INT, 8), (MPI_INT, 12), (MPI_INT, 24)],
        b(12, 0, 28, 8, 28),
    );

    // 1-D, 5 ints over 2 processes, default block (3), rank 1: indices 3, 4.
    let args = DarrayArgs {
        size: 2,
        rank: 1,
        gsizes: vec![5],
        distribs: vec![Distribution::Block],
        dargs: vec![None],
        psizes: vec![2],
        order: Order::Fortran,
    };
    let t = construct::darray(args, &pre(MPI_INT), false).unwrap();
    check(&t, &[(MPI_INT, 12), (MPI_INT, 16)], b(8, 0, 20, 12, 20));

    // A process that owns nothing: only the markers remain.
    let args = DarrayArgs {
        size: 2,
        rank: 1,
        gsizes: vec![3],
        distribs: vec![Distribution::Block],
        dargs: vec![Some(3)],
        psizes: vec![2],
        order: Order::C,
    };
    let t = construct::darray(args, &pre(MPI_INT), false).unwrap();
    check(&t, &[], b(0, 0, 12, 0, 0));
}
