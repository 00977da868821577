//! Decoding: `MPI_Type_get_envelope` and `MPI_Type_get_contents` (and `_c`), which give back
//! the constructor and its arguments exactly as they were passed, laid out as in the table of
//! MPI-4.1 §5.1.13; types made by `_c` constructors report their counts as large counts.

use super::{check_out, datatype, guard, write_out};
use crate::abi::*;
use crate::datatype::{Combiner, Datatype, Distribution, Order};
use crate::error::{MpiError, MpiResult};
use crate::handles;
use std::os::raw::c_int;
use std::sync::Arc;

/// The decoded arguments of one constructor call.
struct Contents {
    combiner: c_int,
    ints: Vec<i64>,
    addresses: Vec<i64>,
    large_counts: Vec<i64>,
    types: Vec<Arc<Datatype>>,
}

fn order_value(order: Order) -> i64 {
    match order {
        Order::C => MPI_ORDER_C as i64,
        Order::Fortran => MPI_ORDER_FORTRAN as i64,
    }
}

fn distribution_value(d: Distribution) -> i64 {
    (match d {
        Distribution::Block => MPI_DISTRIBUTE_BLOCK,
        Distribution::Cyclic => MPI_DISTRIBUTE_CYCLIC,
        Distribution::None => MPI_DISTRIBUTE_NONE,
    }) as i64
}

fn cat(parts: &[&[i64]]) -> Vec<i64> {
    parts.concat()
}

/// Integer arguments go to `ints` for ordinary constructors and to `large_counts` for `_c` ones.
fn counts(large: bool, values: Vec<i64>) -> (Vec<i64>, Vec<i64>) {
    if large {
        (vec![], values)
    } else {
        (values, vec![])
    }
}

fn contents(dt: &Datatype) -> Contents {
    let large = dt.large_count;
    let mut c = Contents {
        combiner: MPI_COMBINER_NAMED,
        ints: vec![],
        addresses: vec![],
        large_counts: vec![],
        types: vec![],
    };
    let split =
        |c: &mut Contents, values: Vec<i64>| (c.ints, c.large_counts) = counts(large, values);
    // Byte displacements are addresses for ordinary constructors and large counts for `_c` ones.
    let with_addresses = |c: &mut Contents, ints: Vec<i64>, addresses: &[i64]| {
        if large {
            c.large_counts = cat(&[&ints, addresses]);
        } else {
            c.ints = ints;
            c.addresses = addresses.to_vec();
        }
    };
    match &dt.combiner {
        Combiner::Named(_) => {}
        Combiner::Dup(old) => {
            c.combiner = MPI_COMBINER_DUP;
            c.types = vec![old.clone()];
        }
        Combiner::Contiguous { count, old } => {
            c.combiner = MPI_COMBINER_CONTIGUOUS;
            split(&mut c, vec![*count]);
            c.types = vec![old.clone()];
        }
        Combiner::Vector {
            count,
            blocklength,
            stride,
            old,
        } => {
            c.combiner = MPI_COMBINER_VECTOR;
            split(&mut c, vec![*count, *blocklength, *stride]);
            c.types = vec![old.clone()];
        }
        Combiner::Hvector {
            count,
            blocklength,
            stride,
            old,
        } => {
            c.combiner = MPI_COMBINER_HVECTOR;
            with_addresses(&mut c, vec![*count, *blocklength], &[*stride]);
            c.types = vec![old.clone()];
        }
        Combiner::Indexed {
            blocklengths,
            displacements,
            old,
        } => {
            c.combiner = MPI_COMBINER_INDEXED;
            split(
                &mut c,
                cat(&[&[blocklengths.len() as i64], blocklengths, displacements]),
            );
            c.types = vec![old.clone()];
        }
        Combiner::Hindexed {
            blocklengths,
            displacements,
            old,
        } => {
            c.combiner = MPI_COMBINER_HINDEXED;
            with_addresses(
                &mut c,
                cat(&[&[blocklengths.len() as i64], blocklengths]),
                displacements,
            );
            c.types = vec![old.clone()];
        }
        Combiner::IndexedBlock {
            blocklength,
            displacements,
            old,
        } => {
            c.combiner = MPI_COMBINER_INDEXED_BLOCK;
            split(
                &mut c,
                cat(&[&[displacements.len() as i64, *blocklength], displacements]),
            );
            c.types = vec![old.clone()];
        }
        Combiner::HindexedBlock {
            blocklength,
            displacements,
            old,
        } => {
            c.combiner = MPI_COMBINER_HINDEXED_BLOCK;
            with_addresses(
                &mut c,
                vec![displacements.len() as i64, *blocklength],
                displacements,
            );
            c.types = vec![old.clone()];
        }
        Combiner::Struct {
            blocklengths,
            displacements,
            types,
        } => {
            c.combiner = MPI_COMBINER_STRUCT;
            with_addresses(
                &mut c,
                cat(&[&[blocklengths.len() as i64], blocklengths]),
                displacements,
            );
            c.types = types.clone();
        }
        Combiner::Subarray {
            sizes,
            subsizes,
            starts,
            order,
            old,
            ..
        } => {
            c.combiner = MPI_COMBINER_SUBARRAY;
            let ndims = sizes.len() as i64;
            if large {
                c.ints = vec![ndims, order_value(*order)];
                c.large_counts = cat(&[sizes, subsizes, starts]);
            } else {
                c.ints = cat(&[&[ndims], sizes, subsizes, starts, &[order_value(*order)]]);
            }
            c.types = vec![old.clone()];
        }
        Combiner::Darray { args, old, .. } => {
            c.combiner = MPI_COMBINER_DARRAY;
            let widen = |v: &[i32]| v.iter().map(|&x| x as i64).collect::<Vec<_>>();
            let distribs: Vec<i64> = args
                .distribs
                .iter()
                .map(|&d| distribution_value(d))
                .collect();
            let head = [args.size as i64, args.rank as i64, args.gsizes.len() as i64];
            let tail = [
                &distribs[..],
                &widen(&args.dargs),
                &widen(&args.psizes),
                &[order_value(args.order)],
            ]
            .concat();
            if large {
                c.ints = cat(&[&head, &tail]);
                c.large_counts = args.gsizes.clone();
            } else {
                c.ints = cat(&[&head, &args.gsizes, &tail]);
            }
            c.types = vec![old.clone()];
        }
        Combiner::Resized { lb, extent, old } => {
            c.combiner = MPI_COMBINER_RESIZED;
            with_addresses(&mut c, vec![], &[*lb, *extent]);
            c.types = vec![old.clone()];
        }
    }
    c
}

/// The decoded arguments of `handle`; the variants without large counts cannot decode a type
/// that needs them (`MPI_ERR_TYPE`, as MPI-4.1 §5.1.13 says).
fn decoded(handle: MPI_Datatype, large_variant: bool) -> MpiResult<(Arc<Datatype>, Contents)> {
    let dt = datatype(handle)?;
    let c = contents(&dt);
    if !large_variant && !c.large_counts.is_empty() {
        return Err(MpiError::datatype(
            "the datatype was built with large counts; use the _c variant to decode it",
        ));
    }
    Ok((dt, c))
}

/// The envelope of `datatype`: counts of integers, addresses, large counts and datatypes, and
/// the combiner.
fn envelope(handle: MPI_Datatype, large_variant: bool) -> MpiResult<(i64, i64, i64, i64, c_int)> {
    let (_, c) = decoded(handle, large_variant)?;
    let n = |v: usize| v as i64;
    Ok((
        n(c.ints.len()),
        n(c.addresses.len()),
        n(c.large_counts.len()),
        n(c.types.len()),
        c.combiner,
    ))
}

/// How many arguments of each kind the constructor of `datatype` took, and which constructor.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_envelope(
    datatype: MPI_Datatype,
    num_integers: *mut c_int,
    num_addresses: *mut c_int,
    num_datatypes: *mut c_int,
    combiner: *mut c_int,
) -> c_int {
    guard("MPI_Type_get_envelope", || {
        for (p, name) in [
            (num_integers, "num_integers"),
            (num_addresses, "num_addresses"),
            (num_datatypes, "num_datatypes"),
            (combiner, "combiner"),
        ] {
            check_out(p, name)?;
        }
        let (ni, na, _, nd, comb) = envelope(datatype, false)?;
        let int = |v: i64| super::to_int(v, "an envelope count");
        write_out(num_integers, int(ni)?, "num_integers")?;
        write_out(num_addresses, int(na)?, "num_addresses")?;
        write_out(num_datatypes, int(nd)?, "num_datatypes")?;
        write_out(combiner, comb, "combiner")
    })
}

/// Large-count variant of `MPI_Type_get_envelope`, which also reports large counts.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_envelope_c(
    datatype: MPI_Datatype,
    num_integers: *mut MPI_Count,
    num_addresses: *mut MPI_Count,
    num_large_counts: *mut MPI_Count,
    num_datatypes: *mut MPI_Count,
    combiner: *mut c_int,
) -> c_int {
    guard("MPI_Type_get_envelope_c", || {
        for (p, name) in [
            (num_integers, "num_integers"),
            (num_addresses, "num_addresses"),
            (num_large_counts, "num_large_counts"),
            (num_datatypes, "num_datatypes"),
        ] {
            check_out(p, name)?;
        }
        check_out(combiner, "combiner")?;
        let (ni, na, nc, nd, comb) = envelope(datatype, true)?;
        write_out(num_integers, ni, "num_integers")?;
        write_out(num_addresses, na, "num_addresses")?;
        write_out(num_large_counts, nc, "num_large_counts")?;
        write_out(num_datatypes, nd, "num_datatypes")?;
        write_out(combiner, comb, "combiner")
    })
}

/// Checks that an output array of `max` elements can take `values` and is not NULL.
fn check_capacity<T>(ptr: *const T, max: i64, needed: usize, name: &str) -> MpiResult<()> {
    if max < 0 {
        return Err(MpiError::arg(format!(
            "max for {name} must be non-negative, got {max}"
        )));
    }
    if (max as u64) < needed as u64 {
        return Err(MpiError::arg(format!(
            "{name} has room for {max} values but the datatype needs {needed}"
        )));
    }
    if needed > 0 && ptr.is_null() {
        return Err(MpiError::arg(format!("{name} is a NULL pointer")));
    }
    Ok(())
}

/// Writes the decoded arguments of `handle` into the caller's arrays.
#[allow(clippy::too_many_arguments)]
unsafe fn write_contents(
    handle: MPI_Datatype,
    large_variant: bool,
    max: [i64; 4],
    ints: *mut c_int,
    addresses: *mut MPI_Aint,
    large_counts: *mut MPI_Count,
    types: *mut MPI_Datatype,
) -> MpiResult<()> {
    let (dt, c) = decoded(handle, large_variant)?;
    if dt.predefined().is_some() {
        return Err(MpiError::datatype(
            "MPI_Type_get_contents cannot decode a named predefined datatype",
        ));
    }
    check_capacity(ints, max[0], c.ints.len(), "array_of_integers")?;
    check_capacity(addresses, max[1], c.addresses.len(), "array_of_addresses")?;
    check_capacity(
        large_counts,
        max[2],
        c.large_counts.len(),
        "array_of_large_counts",
    )?;
    check_capacity(types, max[3], c.types.len(), "array_of_datatypes")?;
    for (i, &v) in c.ints.iter().enumerate() {
        let v = c_int::try_from(v)
            .map_err(|_| MpiError::new(MPI_ERR_INTERN, "a decoded integer does not fit"))?;
        ints.add(i).write(v);
    }
    for (i, &v) in c.addresses.iter().enumerate() {
        addresses.add(i).write(v);
    }
    for (i, &v) in c.large_counts.iter().enumerate() {
        large_counts.add(i).write(v);
    }
    for (i, t) in c.types.iter().enumerate() {
        types.add(i).write(handles::handle_for_child(t)?);
    }
    Ok(())
}

/// The arguments the constructor of `datatype` was called with. Derived datatypes come back
/// as new handles that the caller frees; predefined ones as the predefined handle.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_contents(
    datatype: MPI_Datatype,
    max_integers: c_int,
    max_addresses: c_int,
    max_datatypes: c_int,
    array_of_integers: *mut c_int,
    array_of_addresses: *mut MPI_Aint,
    array_of_datatypes: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_get_contents", || {
        let max = [
            max_integers.into(),
            max_addresses.into(),
            0,
            max_datatypes.into(),
        ];
        write_contents(
            datatype,
            false,
            max,
            array_of_integers,
            array_of_addresses,
            std::ptr::null_mut(),
            array_of_datatypes,
        )
    })
}

/// Large-count variant of `MPI_Type_get_contents`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_contents_c(
    datatype: MPI_Datatype,
    max_integers: MPI_Count,
    max_addresses: MPI_Count,
    max_large_counts: MPI_Count,
    max_datatypes: MPI_Count,
    array_of_integers: *mut c_int,
    array_of_addresses: *mut MPI_Aint,
    array_of_large_counts: *mut MPI_Count,
    array_of_datatypes: *mut MPI_Datatype,
) -> c_int {
    guard("MPI_Type_get_contents_c", || {
        let max = [max_integers, max_addresses, max_large_counts, max_datatypes];
        write_contents(
            datatype,
            true,
            max,
            array_of_integers,
            array_of_addresses,
            array_of_large_counts,
            array_of_datatypes,
        )
    })
}
