//! The shared arrays of constructor arguments that datatypes and their plans both hold.

use std::sync::Arc;

/// An immutable, shared array of 64-bit constructor arguments (block lengths or
/// displacements), in one allocation with its reference counts. The pack plan shares it with
/// the constructor's verbatim arguments instead of copying it, so a type with millions of
/// blocks keeps one copy of its arrays. Collected from an iterator of known length (a C
/// array read through a conversion), it is written straight into its allocation.
#[derive(Clone, PartialEq, Eq)]
pub struct Array(Arc<[i64]>);

impl Default for Array {
    fn default() -> Array {
        Array(Arc::from([]))
    }
}

impl From<Vec<i64>> for Array {
    fn from(values: Vec<i64>) -> Array {
        Array(values.into())
    }
}

impl FromIterator<i64> for Array {
    fn from_iter<I: IntoIterator<Item = i64>>(values: I) -> Array {
        Array(values.into_iter().collect())
    }
}

impl std::ops::Deref for Array {
    type Target = [i64];
    fn deref(&self) -> &[i64] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a i64;
    type IntoIter = std::slice::Iter<'a, i64>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl std::fmt::Debug for Array {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}
