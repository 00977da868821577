//! The groups of the one-process world: ordered lists of distinct ranks of `MPI_COMM_WORLD`
//! (whose only rank is 0), kept by index for the handles the program holds
//! ([`crate::abi::own_group`]), and the set operations of MPI-4.1 §7.3 on them.

use super::slab::Slab;
use crate::abi::{MPI_ERR_ARG, MPI_ERR_RANK, MPI_IDENT, MPI_SIMILAR, MPI_UNEQUAL};
use crate::error::{MpiError, MpiResult};
use parking_lot::Mutex;
use std::os::raw::c_int;
use std::sync::LazyLock;

/// The members of a group: ranks in `MPI_COMM_WORLD`, in the group's order.
pub type Members = Vec<c_int>;

/// The groups the program holds.
static GROUPS: LazyLock<Mutex<Slab<Members>>> = LazyLock::new(Default::default);

/// Keeps a group and returns its index.
pub fn keep(members: Members) -> usize {
    GROUPS.lock().insert(members)
}

/// The members of the group at `index`, if it is alive.
pub fn members(index: usize) -> Option<Members> {
    GROUPS.lock().get(index).cloned()
}

/// Forgets the group at `index`; false if there was none.
pub fn free(index: usize) -> bool {
    GROUPS.lock().remove(index).is_some()
}

/// `MPI_Group_compare`: the same members in the same order, the same members, or not.
pub fn compare(a: &[c_int], b: &[c_int]) -> c_int {
    if a == b {
        return MPI_IDENT;
    }
    let mut sorted = (a.to_vec(), b.to_vec());
    sorted.0.sort_unstable();
    sorted.1.sort_unstable();
    if sorted.0 == sorted.1 {
        MPI_SIMILAR
    } else {
        MPI_UNEQUAL
    }
}

/// `MPI_Group_union`: the members of `a`, then those of `b` not in `a`.
pub fn union(a: &[c_int], b: &[c_int]) -> Members {
    let mut out = a.to_vec();
    out.extend(b.iter().filter(|m| !a.contains(m)));
    out
}

/// `MPI_Group_intersection`: the members of `a` also in `b`, in `a`'s order.
pub fn intersection(a: &[c_int], b: &[c_int]) -> Members {
    a.iter().copied().filter(|m| b.contains(m)).collect()
}

/// `MPI_Group_difference`: the members of `a` not in `b`, in `a`'s order.
pub fn difference(a: &[c_int], b: &[c_int]) -> Members {
    a.iter().copied().filter(|m| !b.contains(m)).collect()
}

/// Checks that `ranks` are distinct ranks of a group of `size`.
fn check_ranks(ranks: &[c_int], size: usize) -> MpiResult<()> {
    for (k, &rank) in ranks.iter().enumerate() {
        if rank < 0 || rank as usize >= size {
            return Err(MpiError::new(
                MPI_ERR_RANK,
                format!("rank {rank} is not in a group of {size}"),
            ));
        }
        if ranks[..k].contains(&rank) {
            return Err(MpiError::new(
                MPI_ERR_RANK,
                format!("rank {rank} is named twice"),
            ));
        }
    }
    Ok(())
}

/// `MPI_Group_incl`: the members at `ranks`, in that order.
pub fn include(group: &[c_int], ranks: &[c_int]) -> MpiResult<Members> {
    check_ranks(ranks, group.len())?;
    Ok(ranks.iter().map(|&r| group[r as usize]).collect())
}

/// `MPI_Group_excl`: the members not at `ranks`, in the group's order.
pub fn exclude(group: &[c_int], ranks: &[c_int]) -> MpiResult<Members> {
    check_ranks(ranks, group.len())?;
    Ok(group
        .iter()
        .enumerate()
        .filter(|(k, _)| !ranks.contains(&(*k as c_int)))
        .map(|(_, &m)| m)
        .collect())
}

/// The ranks the triplets `(first, last, stride)` of `MPI_Group_range_incl` name, in order.
pub fn ranges(triplets: &[[c_int; 3]], size: usize) -> MpiResult<Vec<c_int>> {
    let mut ranks = Vec::new();
    for &[first, last, stride] in triplets {
        if stride == 0 {
            return Err(MpiError::new(MPI_ERR_ARG, "a range's stride is 0"));
        }
        for rank in [first, last] {
            if rank < 0 || rank as usize >= size {
                return Err(MpiError::new(
                    MPI_ERR_RANK,
                    format!("rank {rank} of a range is not in a group of {size}"),
                ));
            }
        }
        let mut rank = i64::from(first);
        while (stride > 0 && rank <= i64::from(last)) || (stride < 0 && rank >= i64::from(last)) {
            ranks.push(rank as c_int);
            rank += i64::from(stride);
        }
    }
    check_ranks(&ranks, size)?;
    Ok(ranks)
}

/// `MPI_Group_translate_ranks`: the rank in `to` of the member at each of `ranks` in `from`
/// (`undefined` where it is not a member, `proc_null` for `proc_null`).
pub fn translate(
    from: &[c_int],
    ranks: &[c_int],
    to: &[c_int],
    (undefined, proc_null): (c_int, c_int),
) -> MpiResult<Vec<c_int>> {
    ranks
        .iter()
        .map(|&rank| {
            if rank == proc_null {
                return Ok(proc_null);
            }
            if rank < 0 || rank as usize >= from.len() {
                return Err(MpiError::new(
                    MPI_ERR_RANK,
                    format!("rank {rank} is not in a group of {}", from.len()),
                ));
            }
            let member = from[rank as usize];
            Ok(to
                .iter()
                .position(|&m| m == member)
                .map_or(undefined, |k| k as c_int))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_keep_the_order_the_standard_gives() {
        let (a, b) = (vec![3, 1, 2], vec![2, 5, 3]);
        assert_eq!(union(&a, &b), [3, 1, 2, 5]);
        assert_eq!(intersection(&a, &b), [3, 2]);
        assert_eq!(difference(&a, &b), [1]);
        assert_eq!(compare(&a, &[1, 2, 3]), MPI_SIMILAR);
        assert_eq!(compare(&a, &a), MPI_IDENT);
        assert_eq!(compare(&a, &b), MPI_UNEQUAL);
        assert_eq!(include(&a, &[2, 0]).unwrap(), [2, 3]);
        assert_eq!(exclude(&a, &[1]).unwrap(), [3, 2]);
        assert!(include(&a, &[0, 0]).is_err());
        assert!(exclude(&a, &[3]).is_err());
        assert_eq!(ranges(&[[0, 2, 2], [1, 1, -1]], 3).unwrap(), [0, 2, 1]);
        assert!(ranges(&[[0, 2, 0]], 3).is_err());
        assert_eq!(
            translate(&a, &[0, 1, -9], &b, (-1, -9)).unwrap(),
            [2, -1, -9]
        );
    }
}
