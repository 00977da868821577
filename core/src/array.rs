//! The shared arrays of constructor arguments that datatypes and their plans both hold.

use std::sync::Arc;

/// An immutable, shared array of 64-bit constructor arguments (block lengths or
/// displacements). The pack plan shares it with the constructor's verbatim arguments instead
/// of copying it, so a type with millions of blocks keeps one copy of its arrays.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Array(Arc<Vec<i64>>);

impl Array {
    /// True if both name the same shared storage.
    pub fn same(&self, other: &Array) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl From<Vec<i64>> for Array {
    fn from(values: Vec<i64>) -> Array {
        Array(Arc::new(values))
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
