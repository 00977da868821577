//! The lock of one slot of the table. It is held for a few loads and stores at a time (a
//! lookup copies a reference, a commit flips a flag, a free takes the entry), so a waiter
//! spins, yielding its core after a while, instead of sleeping; and the holder releases it
//! with a plain store, where a lock that can put waiters to sleep needs an atomic
//! read-modify-write to find out whether one sleeps. Building, committing and freeing a type
//! take the lock once each, so that store is a measurable part of their cost.

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};

/// Spins before a waiter starts yielding its core to the holder.
const SPINS_BEFORE_YIELDING: u32 = 64;

/// A value behind a spin lock that is released by a plain store.
#[derive(Default)]
pub(super) struct SlotLock<T> {
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: the value is only reached through a guard, and one guard exists at a time (the
// lock's acquire / release pair orders each holder's accesses after the previous one's).
unsafe impl<T: Send> Sync for SlotLock<T> {}

impl<T> SlotLock<T> {
    /// Waits for the lock and holds it until the guard goes.
    #[inline]
    pub(super) fn lock(&self) -> SlotGuard<'_, T> {
        if self
            .locked
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            self.lock_contended();
        }
        SlotGuard { lock: self }
    }

    #[cold]
    fn lock_contended(&self) {
        let mut spins = 0;
        loop {
            while self.locked.load(Ordering::Relaxed) {
                if spins < SPINS_BEFORE_YIELDING {
                    spins += 1;
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
            if self
                .locked
                .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                return;
            }
        }
    }
}

/// The held lock of a slot: the value, until it goes.
pub(super) struct SlotGuard<'a, T> {
    lock: &'a SlotLock<T>,
}

impl<T> Deref for SlotGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: this guard holds the lock.
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for SlotGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: this guard holds the lock.
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T> Drop for SlotGuard<'_, T> {
    #[inline]
    fn drop(&mut self) {
        self.lock.locked.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::SlotLock;
    use std::sync::Arc;

    #[test]
    fn threads_take_turns() {
        let counter = Arc::new(SlotLock::<u64>::default());
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let counter = counter.clone();
                std::thread::spawn(move || {
                    for _ in 0..100_000 {
                        *counter.lock() += 1;
                    }
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
        assert_eq!(*counter.lock(), 400_000);
    }
}
