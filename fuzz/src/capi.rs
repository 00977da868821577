//! The same programs through the exported C functions: building ([`build`]), decoding with
//! `MPI_Type_get_envelope` / `MPI_Type_get_contents` (and `_c`) and rebuilding from the
//! decoded arguments ([`rebuild`]).

use crate::{Kind, Program};
use mpi_dtype::abi::translate::Numbers;
use mpi_dtype::abi::*;
use mpi_dtype::datatype::numbering::Numbering;
use mpi_dtype::datatype::{Distribution, Order};
use std::os::raw::{c_char, c_int};
use std::sync::Once;

extern "C" {
    fn MPI_Comm_set_errhandler(comm: MPI_Comm, handler: MPI_Errhandler) -> c_int;
    fn MPI_Error_class(code: c_int, class: *mut c_int) -> c_int;
    fn MPI_Type_free(t: *mut MPI_Datatype) -> c_int;
    fn MPI_Type_commit(t: *mut MPI_Datatype) -> c_int;
    fn MPI_Type_dup(old: MPI_Datatype, new: *mut MPI_Datatype) -> c_int;
    fn MPI_Type_contiguous(c: c_int, old: MPI_Datatype, new: *mut MPI_Datatype) -> c_int;
    fn MPI_Type_contiguous_c(c: MPI_Count, old: MPI_Datatype, new: *mut MPI_Datatype) -> c_int;
    fn MPI_Type_vector(
        c: c_int,
        b: c_int,
        s: c_int,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_vector_c(
        c: MPI_Count,
        b: MPI_Count,
        s: MPI_Count,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_hvector(
        c: c_int,
        b: c_int,
        s: MPI_Aint,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_hvector_c(
        c: MPI_Count,
        b: MPI_Count,
        s: MPI_Count,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_indexed(
        c: c_int,
        b: *const c_int,
        d: *const c_int,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_indexed_c(
        c: MPI_Count,
        b: *const MPI_Count,
        d: *const MPI_Count,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_hindexed(
        c: c_int,
        b: *const c_int,
        d: *const MPI_Aint,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_hindexed_c(
        c: MPI_Count,
        b: *const MPI_Count,
        d: *const MPI_Count,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_indexed_block(
        c: c_int,
        b: c_int,
        d: *const c_int,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_indexed_block_c(
        c: MPI_Count,
        b: MPI_Count,
        d: *const MPI_Count,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_hindexed_block(
        c: c_int,
        b: c_int,
        d: *const MPI_Aint,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_hindexed_block_c(
        c: MPI_Count,
        b: MPI_Count,
        d: *const MPI_Count,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_struct(
        c: c_int,
        b: *const c_int,
        d: *const MPI_Aint,
        t: *const MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_struct_c(
        c: MPI_Count,
        b: *const MPI_Count,
        d: *const MPI_Count,
        t: *const MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_subarray(
        n: c_int,
        sizes: *const c_int,
        subsizes: *const c_int,
        starts: *const c_int,
        order: c_int,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_subarray_c(
        n: c_int,
        sizes: *const MPI_Count,
        subsizes: *const MPI_Count,
        starts: *const MPI_Count,
        order: c_int,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_darray(
        size: c_int,
        rank: c_int,
        n: c_int,
        gsizes: *const c_int,
        distribs: *const c_int,
        dargs: *const c_int,
        psizes: *const c_int,
        order: c_int,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_darray_c(
        size: c_int,
        rank: c_int,
        n: c_int,
        gsizes: *const MPI_Count,
        distribs: *const c_int,
        dargs: *const c_int,
        psizes: *const c_int,
        order: c_int,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_resized(
        old: MPI_Datatype,
        lb: MPI_Aint,
        extent: MPI_Aint,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_create_resized_c(
        old: MPI_Datatype,
        lb: MPI_Count,
        extent: MPI_Count,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_get_envelope(
        t: MPI_Datatype,
        ni: *mut c_int,
        na: *mut c_int,
        nt: *mut c_int,
        combiner: *mut c_int,
    ) -> c_int;
    fn MPI_Type_get_envelope_c(
        t: MPI_Datatype,
        ni: *mut MPI_Count,
        na: *mut MPI_Count,
        nc: *mut MPI_Count,
        nt: *mut MPI_Count,
        combiner: *mut c_int,
    ) -> c_int;
    fn MPI_Type_get_contents(
        t: MPI_Datatype,
        ni: c_int,
        na: c_int,
        nt: c_int,
        ints: *mut c_int,
        addrs: *mut MPI_Aint,
        types: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_get_contents_c(
        t: MPI_Datatype,
        ni: MPI_Count,
        na: MPI_Count,
        nc: MPI_Count,
        nt: MPI_Count,
        ints: *mut c_int,
        addrs: *mut MPI_Aint,
        counts: *mut MPI_Count,
        types: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_size_c(t: MPI_Datatype, size: *mut MPI_Count) -> c_int;
    fn MPI_Type_get_extent_c(t: MPI_Datatype, lb: *mut MPI_Count, extent: *mut MPI_Count) -> c_int;
    fn MPI_Type_get_true_extent_c(
        t: MPI_Datatype,
        lb: *mut MPI_Count,
        extent: *mut MPI_Count,
    ) -> c_int;
    fn MPI_Pack_external_size(
        datarep: *const c_char,
        count: c_int,
        t: MPI_Datatype,
        size: *mut MPI_Aint,
    ) -> c_int;
}

/// Errors are returned, not fatal (once per process).
pub fn init() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: plain C calls with valid constant arguments.
        unsafe {
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
        }
    });
}

/// The class of a returned code.
pub fn class(code: c_int) -> c_int {
    let mut c = code;
    // SAFETY: `c` is a valid output location.
    let rc = unsafe { MPI_Error_class(code, &mut c) };
    assert_eq!(rc, MPI_SUCCESS, "MPI_Error_class({code}) failed");
    c
}

fn ints(values: &[i64]) -> Option<Vec<c_int>> {
    values.iter().map(|&v| c_int::try_from(v).ok()).collect()
}

/// The C integer of an order, a distribution and a distribution argument, as the library
/// numbers them ([`Numbers`]).
fn order_value(order: Order) -> c_int {
    Numbers::order(order)
}

fn distrib_value(d: Distribution) -> c_int {
    Numbers::distribution(d)
}

fn darg_value(darg: Option<i32>) -> c_int {
    Numbers::darg(darg)
}

/// What one operation made through the C API: a handle (to free unless predefined) or the
/// class of the error, and whether the `_c` constructor was used.
#[derive(Debug, Clone, Copy)]
pub struct Made {
    pub handle: Result<MPI_Datatype, c_int>,
    pub large: bool,
    pub derived: bool,
}

/// Runs a program through the C constructors: the `_c` one when the operation asks for it or
/// when an argument does not fit an `int`.
pub fn build(prog: &Program) -> Vec<Option<Made>> {
    init();
    let mut out: Vec<Option<Made>> = Vec::with_capacity(prog.ops.len());
    for (i, op) in prog.ops.iter().enumerate() {
        let inputs: Option<Vec<MPI_Datatype>> = prog
            .inputs(i)
            .iter()
            .map(|&k| out[k].and_then(|m| m.handle.ok()))
            .collect();
        let Some(types) = inputs else {
            out.push(None);
            continue;
        };
        if let Kind::Leaf(h) = op.kind {
            out.push(Some(Made {
                handle: Ok(h),
                large: false,
                derived: false,
            }));
            continue;
        }
        let old = types.first().copied().unwrap_or(MPI_DATATYPE_NULL);
        let (rc, new, large) = call(&op.kind, op.large, old, &types);
        out.push(Some(Made {
            handle: if rc == MPI_SUCCESS {
                Ok(new)
            } else {
                Err(class(rc))
            },
            large,
            derived: true,
        }));
    }
    out
}

/// Frees the handles `build` made.
pub fn free_all(made: &[Option<Made>]) {
    for m in made.iter().flatten() {
        if let (Ok(mut h), true) = (m.handle, m.derived) {
            // SAFETY: `h` is a handle this program made and has not freed.
            let rc = unsafe { MPI_Type_free(&mut h) };
            assert_eq!(rc, MPI_SUCCESS, "MPI_Type_free");
        }
    }
}

/// Calls one constructor; returns (code, new handle, whether the `_c` variant was used).
fn call(
    kind: &Kind,
    large: bool,
    old: MPI_Datatype,
    types: &[MPI_Datatype],
) -> (c_int, MPI_Datatype, bool) {
    let mut new = MPI_DATATYPE_NULL;
    let n = &mut new as *mut MPI_Datatype;
    // SAFETY (every call below): the arrays live until the call returns and have the lengths
    // the count arguments give; `n` is a valid output location.
    let (rc, large) = unsafe {
        match kind {
            Kind::Leaf(_) => unreachable!("leaves are not built"),
            Kind::Dup => (MPI_Type_dup(old, n), false),
            Kind::Contiguous { count } => match (large, ints(&[*count])) {
                (false, Some(c)) => (MPI_Type_contiguous(c[0], old, n), false),
                _ => (MPI_Type_contiguous_c(*count, old, n), true),
            },
            Kind::Vector {
                count,
                blocklength,
                stride,
                bytes: false,
            } => match (large, ints(&[*count, *blocklength, *stride])) {
                (false, Some(v)) => (MPI_Type_vector(v[0], v[1], v[2], old, n), false),
                _ => (
                    MPI_Type_vector_c(*count, *blocklength, *stride, old, n),
                    true,
                ),
            },
            Kind::Vector {
                count,
                blocklength,
                stride,
                bytes: true,
            } => match (large, ints(&[*count, *blocklength])) {
                (false, Some(v)) => (MPI_Type_create_hvector(v[0], v[1], *stride, old, n), false),
                _ => (
                    MPI_Type_create_hvector_c(*count, *blocklength, *stride, old, n),
                    true,
                ),
            },
            Kind::Indexed {
                blocklengths,
                displacements,
                bytes,
            } => {
                let c = blocklengths.len() as i64;
                let small_b = ints(blocklengths);
                let small_d = if *bytes {
                    Some(vec![])
                } else {
                    ints(displacements)
                };
                match (large, small_b, small_d) {
                    (false, Some(b), Some(d)) => {
                        if *bytes {
                            (
                                MPI_Type_create_hindexed(
                                    c as c_int,
                                    b.as_ptr(),
                                    displacements.as_ptr(),
                                    old,
                                    n,
                                ),
                                false,
                            )
                        } else {
                            (
                                MPI_Type_indexed(c as c_int, b.as_ptr(), d.as_ptr(), old, n),
                                false,
                            )
                        }
                    }
                    _ => {
                        if *bytes {
                            (
                                MPI_Type_create_hindexed_c(
                                    c,
                                    blocklengths.as_ptr(),
                                    displacements.as_ptr(),
                                    old,
                                    n,
                                ),
                                true,
                            )
                        } else {
                            (
                                MPI_Type_indexed_c(
                                    c,
                                    blocklengths.as_ptr(),
                                    displacements.as_ptr(),
                                    old,
                                    n,
                                ),
                                true,
                            )
                        }
                    }
                }
            }
            Kind::IndexedBlock {
                blocklength,
                displacements,
                bytes,
            } => {
                let c = displacements.len() as i64;
                let small_b = ints(&[*blocklength]);
                let small_d = if *bytes {
                    Some(vec![])
                } else {
                    ints(displacements)
                };
                match (large, small_b, small_d) {
                    (false, Some(b), Some(d)) => {
                        if *bytes {
                            (
                                MPI_Type_create_hindexed_block(
                                    c as c_int,
                                    b[0],
                                    displacements.as_ptr(),
                                    old,
                                    n,
                                ),
                                false,
                            )
                        } else {
                            (
                                MPI_Type_create_indexed_block(c as c_int, b[0], d.as_ptr(), old, n),
                                false,
                            )
                        }
                    }
                    _ => {
                        if *bytes {
                            (
                                MPI_Type_create_hindexed_block_c(
                                    c,
                                    *blocklength,
                                    displacements.as_ptr(),
                                    old,
                                    n,
                                ),
                                true,
                            )
                        } else {
                            (
                                MPI_Type_create_indexed_block_c(
                                    c,
                                    *blocklength,
                                    displacements.as_ptr(),
                                    old,
                                    n,
                                ),
                                true,
                            )
                        }
                    }
                }
            }
            Kind::Struct {
                blocklengths,
                displacements,
                ..
            } => {
                let c = blocklengths.len() as i64;
                match (large, ints(blocklengths)) {
                    (false, Some(b)) => (
                        MPI_Type_create_struct(
                            c as c_int,
                            b.as_ptr(),
                            displacements.as_ptr(),
                            types.as_ptr(),
                            n,
                        ),
                        false,
                    ),
                    _ => (
                        MPI_Type_create_struct_c(
                            c,
                            blocklengths.as_ptr(),
                            displacements.as_ptr(),
                            types.as_ptr(),
                            n,
                        ),
                        true,
                    ),
                }
            }
            Kind::Subarray {
                sizes,
                subsizes,
                starts,
                order,
            } => {
                let nd = sizes.len() as c_int;
                let o = order_value(*order);
                match (large, ints(sizes), ints(subsizes), ints(starts)) {
                    (false, Some(a), Some(b), Some(s)) => (
                        MPI_Type_create_subarray(nd, a.as_ptr(), b.as_ptr(), s.as_ptr(), o, old, n),
                        false,
                    ),
                    _ => (
                        MPI_Type_create_subarray_c(
                            nd,
                            sizes.as_ptr(),
                            subsizes.as_ptr(),
                            starts.as_ptr(),
                            o,
                            old,
                            n,
                        ),
                        true,
                    ),
                }
            }
            Kind::Darray(args) => {
                let nd = args.gsizes.len() as c_int;
                let distribs: Vec<c_int> =
                    args.distribs.iter().map(|&d| distrib_value(d)).collect();
                let dargs: Vec<c_int> = args.dargs.iter().map(|&d| darg_value(d)).collect();
                let o = order_value(args.order);
                match (large, ints(&args.gsizes)) {
                    (false, Some(g)) => (
                        MPI_Type_create_darray(
                            args.size,
                            args.rank,
                            nd,
                            g.as_ptr(),
                            distribs.as_ptr(),
                            dargs.as_ptr(),
                            args.psizes.as_ptr(),
                            o,
                            old,
                            n,
                        ),
                        false,
                    ),
                    _ => (
                        MPI_Type_create_darray_c(
                            args.size,
                            args.rank,
                            nd,
                            args.gsizes.as_ptr(),
                            distribs.as_ptr(),
                            dargs.as_ptr(),
                            args.psizes.as_ptr(),
                            o,
                            old,
                            n,
                        ),
                        true,
                    ),
                }
            }
            Kind::Resized { lb, extent } => {
                if large {
                    (MPI_Type_create_resized_c(old, *lb, *extent, n), true)
                } else {
                    (MPI_Type_create_resized(old, *lb, *extent, n), false)
                }
            }
        }
    };
    (rc, new, large)
}

// ---- decoding ---------------------------------------------------------------------------------

/// What `MPI_Type_get_envelope_c` / `MPI_Type_get_contents_c` say about one handle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub combiner: c_int,
    pub ints: Vec<c_int>,
    pub addresses: Vec<MPI_Aint>,
    pub large_counts: Vec<MPI_Count>,
    /// The children (new handles for derived ones: the caller frees them).
    pub types: Vec<MPI_Datatype>,
}

/// Decodes one level of `t`; `None` for a named type.
pub fn decode(t: MPI_Datatype) -> Option<Decoded> {
    let (mut ni, mut na, mut nc, mut nt, mut combiner) = (0, 0, 0, 0, 0);
    // SAFETY: valid output locations.
    let rc =
        unsafe { MPI_Type_get_envelope_c(t, &mut ni, &mut na, &mut nc, &mut nt, &mut combiner) };
    assert_eq!(rc, MPI_SUCCESS, "MPI_Type_get_envelope_c({t:#x})");
    // The variant without large counts agrees, or refuses a type that needs large counts.
    let (mut ni2, mut na2, mut nt2, mut combiner2) = (0, 0, 0, 0);
    // SAFETY: valid output locations.
    let rc2 = unsafe { MPI_Type_get_envelope(t, &mut ni2, &mut na2, &mut nt2, &mut combiner2) };
    if nc > 0 {
        assert_eq!(
            class(rc2),
            MPI_ERR_TYPE,
            "MPI_Type_get_envelope on a large-count type"
        );
    } else {
        assert_eq!(rc2, MPI_SUCCESS, "MPI_Type_get_envelope({t:#x})");
        assert_eq!(
            (ni2 as i64, na2 as i64, nt2 as i64, combiner2),
            (ni, na, nt, combiner),
            "the two envelopes of {t:#x} differ"
        );
    }
    if combiner == MPI_COMBINER_NAMED {
        assert_eq!((ni, na, nc, nt), (0, 0, 0, 0), "a named type's envelope");
        return None;
    }
    assert!(
        (0..=1 << 20).contains(&ni) && (0..=1 << 20).contains(&na),
        "envelope sizes"
    );
    let mut d = Decoded {
        combiner,
        ints: vec![0; ni as usize],
        addresses: vec![0; na as usize],
        large_counts: vec![0; nc as usize],
        types: vec![MPI_DATATYPE_NULL; nt as usize],
    };
    // SAFETY: the arrays have the lengths passed.
    let rc = unsafe {
        MPI_Type_get_contents_c(
            t,
            ni,
            na,
            nc,
            nt,
            d.ints.as_mut_ptr(),
            d.addresses.as_mut_ptr(),
            d.large_counts.as_mut_ptr(),
            d.types.as_mut_ptr(),
        )
    };
    assert_eq!(rc, MPI_SUCCESS, "MPI_Type_get_contents_c({t:#x})");
    if nc == 0 {
        // The variant without large counts gives the same arrays.
        let mut ints2 = vec![0; ni as usize];
        let mut addrs2 = vec![0; na as usize];
        let mut types2 = vec![MPI_DATATYPE_NULL; nt as usize];
        // SAFETY: the arrays have the lengths passed.
        let rc = unsafe {
            MPI_Type_get_contents(
                t,
                ni as c_int,
                na as c_int,
                nt as c_int,
                ints2.as_mut_ptr(),
                addrs2.as_mut_ptr(),
                types2.as_mut_ptr(),
            )
        };
        assert_eq!(rc, MPI_SUCCESS, "MPI_Type_get_contents({t:#x})");
        assert_eq!(
            (&ints2, &addrs2),
            (&d.ints, &d.addresses),
            "the two contents of {t:#x}"
        );
        free_children(&types2);
    }
    Some(d)
}

fn is_named(t: MPI_Datatype) -> bool {
    let (mut ni, mut na, mut nc, mut nt, mut combiner) = (0, 0, 0, 0, 0);
    // SAFETY: valid output locations.
    let rc =
        unsafe { MPI_Type_get_envelope_c(t, &mut ni, &mut na, &mut nc, &mut nt, &mut combiner) };
    rc == MPI_SUCCESS && combiner == MPI_COMBINER_NAMED
}

/// Frees the derived handles among decoded children.
pub fn free_children(types: &[MPI_Datatype]) {
    for &t in types {
        if !is_named(t) {
            let mut h = t;
            // SAFETY: a handle get_contents made for the caller.
            let rc = unsafe { MPI_Type_free(&mut h) };
            assert_eq!(rc, MPI_SUCCESS, "freeing a decoded child");
        }
    }
}

/// Rebuilds `t` from its decoded arguments, recursively: a new handle with the same
/// constructor and arguments (the caller frees it), or `t` itself when it is named.
pub fn rebuild(t: MPI_Datatype) -> MPI_Datatype {
    let Some(d) = decode(t) else { return t };
    let children: Vec<MPI_Datatype> = d.types.iter().map(|&c| rebuild(c)).collect();
    let new = construct_from(&d, &children);
    for (&child, &rebuilt) in d.types.iter().zip(&children) {
        if rebuilt != child {
            let mut h = rebuilt;
            // SAFETY: a handle `rebuild` made.
            unsafe { MPI_Type_free(&mut h) };
        }
    }
    free_children(&d.types);
    new
}

/// Calls the constructor a decoded level names with its arrays.
fn construct_from(d: &Decoded, types: &[MPI_Datatype]) -> MPI_Datatype {
    let mut new = MPI_DATATYPE_NULL;
    let n = &mut new as *mut MPI_Datatype;
    let i = &d.ints;
    let a = &d.addresses;
    let l = &d.large_counts;
    let large = !l.is_empty();
    let old = types.first().copied().unwrap_or(MPI_DATATYPE_NULL);
    // SAFETY (every call below): the slices have the lengths the standard's table gives for
    // the combiner, which get_envelope reported; `n` is a valid output location.
    let rc = unsafe {
        match (d.combiner, large) {
            (MPI_COMBINER_DUP, _) => MPI_Type_dup(old, n),
            (MPI_COMBINER_CONTIGUOUS, false) => MPI_Type_contiguous(i[0], old, n),
            (MPI_COMBINER_CONTIGUOUS, true) => MPI_Type_contiguous_c(l[0], old, n),
            (MPI_COMBINER_VECTOR, false) => MPI_Type_vector(i[0], i[1], i[2], old, n),
            (MPI_COMBINER_VECTOR, true) => MPI_Type_vector_c(l[0], l[1], l[2], old, n),
            (MPI_COMBINER_HVECTOR, false) => MPI_Type_create_hvector(i[0], i[1], a[0], old, n),
            (MPI_COMBINER_HVECTOR, true) => MPI_Type_create_hvector_c(l[0], l[1], l[2], old, n),
            (MPI_COMBINER_INDEXED, false) => {
                let c = i[0] as usize;
                MPI_Type_indexed(i[0], i[1..].as_ptr(), i[1 + c..].as_ptr(), old, n)
            }
            (MPI_COMBINER_INDEXED, true) => {
                let c = l[0] as usize;
                MPI_Type_indexed_c(l[0], l[1..].as_ptr(), l[1 + c..].as_ptr(), old, n)
            }
            (MPI_COMBINER_HINDEXED, false) => {
                MPI_Type_create_hindexed(i[0], i[1..].as_ptr(), a.as_ptr(), old, n)
            }
            (MPI_COMBINER_HINDEXED, true) => {
                let c = l[0] as usize;
                MPI_Type_create_hindexed_c(l[0], l[1..].as_ptr(), l[1 + c..].as_ptr(), old, n)
            }
            (MPI_COMBINER_INDEXED_BLOCK, false) => {
                MPI_Type_create_indexed_block(i[0], i[1], i[2..].as_ptr(), old, n)
            }
            (MPI_COMBINER_INDEXED_BLOCK, true) => {
                MPI_Type_create_indexed_block_c(l[0], l[1], l[2..].as_ptr(), old, n)
            }
            (MPI_COMBINER_HINDEXED_BLOCK, false) => {
                MPI_Type_create_hindexed_block(i[0], i[1], a.as_ptr(), old, n)
            }
            (MPI_COMBINER_HINDEXED_BLOCK, true) => {
                MPI_Type_create_hindexed_block_c(l[0], l[1], l[2..].as_ptr(), old, n)
            }
            (MPI_COMBINER_STRUCT, false) => {
                MPI_Type_create_struct(i[0], i[1..].as_ptr(), a.as_ptr(), types.as_ptr(), n)
            }
            (MPI_COMBINER_STRUCT, true) => {
                let c = l[0] as usize;
                MPI_Type_create_struct_c(
                    l[0],
                    l[1..].as_ptr(),
                    l[1 + c..].as_ptr(),
                    types.as_ptr(),
                    n,
                )
            }
            (MPI_COMBINER_SUBARRAY, false) => {
                let nd = i[0] as usize;
                MPI_Type_create_subarray(
                    i[0],
                    i[1..].as_ptr(),
                    i[1 + nd..].as_ptr(),
                    i[1 + 2 * nd..].as_ptr(),
                    i[1 + 3 * nd],
                    old,
                    n,
                )
            }
            (MPI_COMBINER_SUBARRAY, true) => {
                let nd = i[0] as usize;
                MPI_Type_create_subarray_c(
                    i[0],
                    l.as_ptr(),
                    l[nd..].as_ptr(),
                    l[2 * nd..].as_ptr(),
                    i[1],
                    old,
                    n,
                )
            }
            (MPI_COMBINER_DARRAY, false) => {
                let nd = i[2] as usize;
                MPI_Type_create_darray(
                    i[0],
                    i[1],
                    i[2],
                    i[3..].as_ptr(),
                    i[3 + nd..].as_ptr(),
                    i[3 + 2 * nd..].as_ptr(),
                    i[3 + 3 * nd..].as_ptr(),
                    i[3 + 4 * nd],
                    old,
                    n,
                )
            }
            (MPI_COMBINER_DARRAY, true) => {
                let nd = i[2] as usize;
                MPI_Type_create_darray_c(
                    i[0],
                    i[1],
                    i[2],
                    l.as_ptr(),
                    i[3..].as_ptr(),
                    i[3 + nd..].as_ptr(),
                    i[3 + 2 * nd..].as_ptr(),
                    i[3 + 3 * nd],
                    old,
                    n,
                )
            }
            (MPI_COMBINER_RESIZED, false) => MPI_Type_create_resized(old, a[0], a[1], n),
            (MPI_COMBINER_RESIZED, true) => MPI_Type_create_resized_c(old, l[0], l[1], n),
            (c, _) => panic!("unexpected combiner {c} in {d:?}"),
        }
    };
    assert_eq!(
        rc,
        MPI_SUCCESS,
        "rebuilding from {d:?} failed (class {})",
        class(rc)
    );
    new
}

/// True if `a` and `b` decode to the same constructors and arguments at every level.
pub fn same_decoding(a: MPI_Datatype, b: MPI_Datatype) -> bool {
    match (decode(a), decode(b)) {
        (None, None) => a == b,
        (Some(x), Some(y)) => {
            let same_level = x.combiner == y.combiner
                && x.ints == y.ints
                && x.addresses == y.addresses
                && x.large_counts == y.large_counts
                && x.types.len() == y.types.len();
            let same = same_level
                && x.types
                    .iter()
                    .zip(&y.types)
                    .all(|(&p, &q)| same_decoding(p, q));
            free_children(&x.types);
            free_children(&y.types);
            same
        }
        (x, y) => {
            if let Some(x) = x {
                free_children(&x.types);
            }
            if let Some(y) = y {
                free_children(&y.types);
            }
            false
        }
    }
}

/// (size, lb, extent, true_lb, true_extent) through the `_c` queries.
pub fn queries(t: MPI_Datatype) -> [MPI_Count; 5] {
    let mut q = [0; 5];
    // SAFETY: valid output locations.
    unsafe {
        assert_eq!(MPI_Type_size_c(t, &mut q[0]), MPI_SUCCESS);
        let [_, lb, ext, tlb, text] = &mut q;
        assert_eq!(MPI_Type_get_extent_c(t, lb, ext), MPI_SUCCESS);
        assert_eq!(MPI_Type_get_true_extent_c(t, tlb, text), MPI_SUCCESS);
    }
    q
}

/// Commits a handle.
pub fn commit(t: MPI_Datatype) {
    let mut h = t;
    // SAFETY: a valid handle location.
    let rc = unsafe { MPI_Type_commit(&mut h) };
    assert_eq!(rc, MPI_SUCCESS, "MPI_Type_commit({t:#x})");
}

/// `MPI_Pack_external_size` for one copy.
pub fn external32_size(t: MPI_Datatype) -> Result<MPI_Aint, c_int> {
    let mut size = 0;
    // SAFETY: a NUL-terminated string and a valid output location.
    let rc = unsafe { MPI_Pack_external_size(c"external32".as_ptr(), 1, t, &mut size) };
    if rc == MPI_SUCCESS {
        Ok(size)
    } else {
        Err(class(rc))
    }
}
