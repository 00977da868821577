//! The inverse of decoding: a datatype made again from the arguments `MPI_Type_get_envelope`
//! / `MPI_Type_get_contents` report for it (the table of MPI-4.1 §5.1.13), in either layout:
//! the ordinary one, or the large-count one of types made by `_c` constructors.
//!
//! Drop-in mode uses it to take over a datatype another MPI library made
//! (the C library's `dropin::import`): that library's types decode down to named types, and building them
//! again with this library's constructors gives them the standard's semantics.
//!
//! The integers that stand for an order, a distribution or a distribution argument are read
//! as the ABI `N` numbers them ([`Numbering`]).

use super::numbering::{self, CombinerKind, Numbering};
use super::{DarrayArgs, Datatype};
use crate::error::{Error, Result};
use std::sync::Arc;

/// A decoded constructor call, as the arrays of `MPI_Type_get_contents(_c)` hold it.
pub struct Decoded<'a> {
    /// The combiner.
    pub combiner: CombinerKind,
    /// `array_of_integers`.
    pub ints: &'a [i64],
    /// `array_of_addresses`.
    pub addresses: &'a [i64],
    /// `array_of_large_counts` (not empty only for types made by `_c` constructors).
    pub large_counts: &'a [i64],
    /// `array_of_datatypes`, already made again.
    pub types: &'a [Arc<Datatype>],
}

/// Reads the decoded arrays front to back, failing on a short one.
struct Reader<'a> {
    values: &'a [i64],
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn new(values: &'a [i64], what: &'static str) -> Self {
        Reader { values, what }
    }

    fn take(&mut self, n: i64) -> Result<&'a [i64]> {
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.values.len())
            .ok_or_else(|| short(self.what))?;
        let (head, rest) = self.values.split_at(n);
        self.values = rest;
        Ok(head)
    }

    fn one(&mut self) -> Result<i64> {
        Ok(self.take(1)?[0])
    }

    fn narrow(&mut self, n: i64) -> Result<Vec<i32>> {
        self.take(n)?
            .iter()
            .map(|&v| i32::try_from(v).map_err(|_| short(self.what)))
            .collect()
    }
}

fn short(what: &str) -> Error {
    Error::datatype(format!("the decoded {what} do not match the combiner"))
}

/// Makes again the datatype `decoded` describes, its integers numbered as `N` numbers them.
/// Named and `MPI_Type_create_f90_*` types are not made here (they are predefined); every
/// other combiner is.
pub fn rebuild<N: Numbering>(decoded: &Decoded) -> Result<Arc<Datatype>> {
    let large = !decoded.large_counts.is_empty();
    let mut ints = Reader::new(decoded.ints, "integers");
    let mut addresses = Reader::new(decoded.addresses, "addresses");
    let mut counts = Reader::new(decoded.large_counts, "large counts");
    // Counts are integers of ordinary constructors and large counts of `_c` ones; byte
    // displacements are addresses of ordinary constructors and large counts of `_c` ones.
    // `arg!(ints)` reads one count, `arg!(addresses, n)` n displacements, and so on.
    macro_rules! arg {
        ($ordinary:ident) => {
            if large {
                counts.one()?
            } else {
                $ordinary.one()?
            }
        };
        ($ordinary:ident, $n:expr) => {
            if large {
                counts.take($n)?.to_vec()
            } else {
                $ordinary.take($n)?.to_vec()
            }
        };
    }
    let old = || {
        decoded
            .types
            .first()
            .cloned()
            .ok_or_else(|| short("datatypes"))
    };
    use super::construct::*;
    use CombinerKind as Kind;
    match decoded.combiner {
        Kind::Dup => Ok(dup(&old()?)),
        Kind::Contiguous => contiguous(arg!(ints), &old()?, large),
        Kind::Vector => {
            let (n, length, stride) = (arg!(ints), arg!(ints), arg!(ints));
            vector(n, length, stride, false, &old()?, large)
        }
        Kind::Hvector => {
            let (n, length, stride) = (arg!(ints), arg!(ints), arg!(addresses));
            vector(n, length, stride, true, &old()?, large)
        }
        Kind::Indexed => {
            let n = arg!(ints);
            let (lengths, places) = (arg!(ints, n), arg!(ints, n));
            indexed(lengths, places, false, &old()?, large)
        }
        Kind::Hindexed => {
            let n = arg!(ints);
            let (lengths, places) = (arg!(ints, n), arg!(addresses, n));
            indexed(lengths, places, true, &old()?, large)
        }
        Kind::IndexedBlock => {
            let (n, length) = (arg!(ints), arg!(ints));
            indexed_block(length, arg!(ints, n), false, &old()?, large)
        }
        Kind::HindexedBlock => {
            let (n, length) = (arg!(ints), arg!(ints));
            indexed_block(length, arg!(addresses, n), true, &old()?, large)
        }
        Kind::Struct => {
            let n = arg!(ints);
            let (lengths, places) = (arg!(ints, n), arg!(addresses, n));
            structure(lengths, places, decoded.types.to_vec(), large)
        }
        Kind::Subarray => {
            let ndims = ints.one()?;
            let (sizes, subsizes, starts) =
                (arg!(ints, ndims), arg!(ints, ndims), arg!(ints, ndims));
            subarray(
                sizes,
                subsizes,
                starts,
                numbering::order::<N>(ints.one()?)?,
                &old()?,
                large,
            )
        }
        Kind::Darray => {
            let (size, rank, ndims) = (ints.one()?, ints.one()?, ints.one()?);
            let gsizes = arg!(ints, ndims);
            let distribs = ints
                .take(ndims)?
                .iter()
                .enumerate()
                .map(|(dim, &d)| numbering::distribution::<N>(d, dim))
                .collect::<Result<Vec<_>>>()?;
            let dargs = ints.narrow(ndims)?;
            let dargs = dargs.into_iter().map(numbering::darg::<N>).collect();
            let psizes = ints.narrow(ndims)?;
            let args = DarrayArgs {
                size: i32::try_from(size).map_err(|_| short("integers"))?,
                rank: i32::try_from(rank).map_err(|_| short("integers"))?,
                gsizes,
                distribs,
                dargs,
                psizes,
                order: numbering::order::<N>(ints.one()?)?,
            };
            darray(args, &old()?, large)
        }
        Kind::Resized => {
            let (lb, extent) = (arg!(addresses), arg!(addresses));
            resized(&old()?, lb, extent, large)
        }
        other => Err(Error::datatype(format!(
            "combiner MPI_COMBINER_{} does not describe a derived datatype",
            other.name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::contents::contents;
    use crate::datatype::numbering::TestNumbering;
    use crate::datatype::{construct, Distribution, Order};
    use crate::predefined;

    fn named(name: &str) -> Arc<Datatype> {
        construct::named(predefined::by_name(name).unwrap())
    }

    fn again(dt: &Arc<Datatype>) -> Arc<Datatype> {
        let c = contents::<TestNumbering>(dt);
        rebuild::<TestNumbering>(&Decoded {
            combiner: c.combiner,
            ints: &c.ints,
            addresses: &c.addresses,
            large_counts: &c.large_counts,
            types: &c.types,
        })
        .unwrap()
    }

    fn same(a: &Datatype, b: &Datatype) {
        assert_eq!(
            (a.size(), a.lb(), a.extent(), a.true_lb(), a.true_extent()),
            (b.size(), b.lb(), b.extent(), b.true_lb(), b.true_extent())
        );
        assert_eq!(a.large_count, b.large_count);
        let (ca, cb) = (contents::<TestNumbering>(a), contents::<TestNumbering>(b));
        assert_eq!(
            (ca.combiner, &ca.ints, &ca.addresses, &ca.large_counts),
            (cb.combiner, &cb.ints, &cb.addresses, &cb.large_counts)
        );
    }

    #[test]
    fn every_combiner_in_both_layouts_is_made_again() {
        let (double, pair) = (named("MPI_DOUBLE"), named("MPI_DOUBLE_INT"));
        for large in [false, true] {
            let made = [
                construct::dup(&pair),
                construct::contiguous(3, &pair, large).unwrap(),
                construct::vector(3, 2, -4, false, &double, large).unwrap(),
                construct::vector(3, 1, 60, true, &pair, large).unwrap(),
                construct::indexed(vec![1, 0, 2], vec![5, 1, -2], false, &double, large).unwrap(),
                construct::indexed(vec![2, 1], vec![64, 0], true, &pair, large).unwrap(),
                construct::indexed_block(2, vec![4, 0], false, &double, large).unwrap(),
                construct::indexed_block(1, vec![40, 8], true, &double, large).unwrap(),
                construct::structure(
                    vec![1, 2],
                    vec![0, 24],
                    vec![pair.clone(), double.clone()],
                    large,
                )
                .unwrap(),
                construct::subarray(
                    vec![4, 5],
                    vec![2, 3],
                    vec![1, 2],
                    Order::Fortran,
                    &pair,
                    large,
                )
                .unwrap(),
                construct::darray(
                    DarrayArgs {
                        size: 4,
                        rank: 3,
                        gsizes: vec![7, 9],
                        distribs: vec![Distribution::Cyclic, Distribution::Block],
                        dargs: vec![Some(2), None],
                        psizes: vec![2, 2],
                        order: Order::C,
                    },
                    &double,
                    large,
                )
                .unwrap(),
                construct::resized(&pair, -8, 40, large).unwrap(),
            ];
            for dt in &made {
                same(dt, &again(dt));
            }
        }
    }

    #[test]
    fn short_or_unknown_arrays_are_errors() {
        let double = named("MPI_DOUBLE");
        let not_a_type = |decoded: &Decoded| {
            let error = rebuild::<TestNumbering>(decoded).unwrap_err();
            assert_eq!(error.class, Error::datatype("").class);
        };
        let decoded = Decoded {
            combiner: CombinerKind::Indexed,
            ints: &[3, 1, 1],
            addresses: &[],
            large_counts: &[],
            types: std::slice::from_ref(&double),
        };
        not_a_type(&decoded);
        let decoded = Decoded {
            combiner: CombinerKind::Named,
            types: &[],
            ..decoded
        };
        not_a_type(&decoded);
        let decoded = Decoded {
            combiner: CombinerKind::Contiguous,
            ints: &[1],
            types: &[],
            ..decoded
        };
        not_a_type(&decoded);
    }
}
