//! Decoding: the arguments of the constructor that made a datatype, laid out as
//! `MPI_Type_get_envelope` / `MPI_Type_get_contents` return them (the table of MPI-4.1
//! §5.1.13); types made by `_c` constructors report their counts as large counts. Only the
//! constructor itself is decoded (its children are not visited), so decoding costs the same
//! at any depth.

use super::{Combiner, Datatype, Distribution, F90Class, Order};
use crate::abi::*;
use std::os::raw::c_int;
use std::sync::Arc;

/// The decoded arguments of one constructor call.
pub struct Contents {
    /// The `MPI_COMBINER_*` value.
    pub combiner: c_int,
    /// `array_of_integers`.
    pub ints: Vec<i64>,
    /// `array_of_addresses`.
    pub addresses: Vec<i64>,
    /// `array_of_large_counts`.
    pub large_counts: Vec<i64>,
    /// `array_of_datatypes`.
    pub types: Vec<Arc<Datatype>>,
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

/// The arguments of the constructor of `dt`, laid out as `MPI_Type_get_contents` returns
/// them.
pub fn contents(dt: &Datatype) -> Contents {
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
        // "MPI_COMBINER_F90_REAL: p, r" and likewise for complex; "MPI_COMBINER_F90_INTEGER:
        // r" (MPI-4.1 §5.1.13). The type the arguments select is not a child: nd is 0.
        Combiner::F90 {
            class,
            precision,
            range,
            ..
        } => match class {
            F90Class::Integer => {
                c.combiner = MPI_COMBINER_F90_INTEGER;
                c.ints = vec![*range as i64];
            }
            F90Class::Real | F90Class::Complex => {
                c.combiner = if *class == F90Class::Real {
                    MPI_COMBINER_F90_REAL
                } else {
                    MPI_COMBINER_F90_COMPLEX
                };
                c.ints = vec![*precision as i64, *range as i64];
            }
        },
    }
    c
}
