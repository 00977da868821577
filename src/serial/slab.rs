//! A table of values by index, whose freed indices are reused: the requests and the matched
//! messages of the one-process world, which the program holds by handles that carry the
//! index.

/// Values by index.
pub struct Slab<T> {
    /// The slots; `None` is free.
    slots: Vec<Option<T>>,
    /// Free slots, reused last freed first.
    free: Vec<usize>,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Slab {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<T> Slab<T> {
    /// Keeps `value` and returns its index.
    pub fn insert(&mut self, value: T) -> usize {
        match self.free.pop() {
            Some(index) => {
                self.slots[index] = Some(value);
                index
            }
            None => {
                self.slots.push(Some(value));
                self.slots.len() - 1
            }
        }
    }

    /// The value at `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<&T> {
        self.slots.get(index)?.as_ref()
    }

    /// The value at `index`, if there is one.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        self.slots.get_mut(index)?.as_mut()
    }

    /// Takes the value at `index` out; the index is free again.
    pub fn remove(&mut self, index: usize) -> Option<T> {
        let value = self.slots.get_mut(index)?.take()?;
        self.free.push(index);
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_indices_are_reused_and_forgotten_values_are_gone() {
        let mut slab = Slab::default();
        let (a, b) = (slab.insert('a'), slab.insert('b'));
        assert_eq!((slab.get(a), slab.get(b)), (Some(&'a'), Some(&'b')));
        assert_eq!(slab.remove(a), Some('a'));
        assert_eq!(slab.get(a), None);
        assert_eq!(slab.remove(a), None);
        assert_eq!(slab.insert('c'), a);
        assert_eq!(slab.get(5), None);
    }
}
