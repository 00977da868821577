//! The registries of attribute keys, one per kind of object: datatypes
//! (`MPI_Type_create_keyval` / `MPI_Type_free_keyval`), and the communicators and windows of
//! the one-process world (`MPI_Comm_create_keyval`, `MPI_Win_create_keyval`); and the list of attributes cached on one
//! object.
//!
//! A key stays in the registry while the program may use it or while an attribute cached on
//! some datatype uses it. The standard says it of communicator keys, and datatype keys work
//! the same way: "the actual free does not transpire until after all references (in other
//! communicators on the process) to the key have been freed" (MPI-4.1 §7.7.2). So each key
//! counts the attributes cached with it; once it is freed and that count is zero, its entry
//! goes. A freed key is invalid for every call the program makes with it (`MPI_ERR_KEYVAL`),
//! while the copy and delete callbacks of attributes still cached with it keep running.
//!
//! The callbacks are kept as the program gave them; running them is the job of the
//! attribute functions (`src/ffi/attributes.rs`, `src/ffi/comm/attributes.rs`).

use crate::abi::{
    MPI_Comm_copy_attr_function, MPI_Comm_delete_attr_function, MPI_Type_copy_attr_function,
    MPI_Type_delete_attr_function, MPI_Win_copy_attr_function, MPI_Win_delete_attr_function,
    FIRST_OWN_KEYVAL, MPI_ERR_ARG, MPI_ERR_KEYVAL, MPI_SUCCESS,
};
use crate::error::{MpiError, MpiResult};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::c_void;
use std::os::raw::c_int;
use std::sync::LazyLock;

/// The callbacks and extra state of a key, with the callback types `C` (copy) and `D`
/// (delete) of its kind of object.
#[derive(Debug, Clone, Copy)]
pub struct Keyval<C, D> {
    /// Run when the object is duplicated, for each attribute with this key.
    pub copy: C,
    /// Run when an attribute with this key is deleted or its object freed.
    pub delete: D,
    /// The `extra_state` argument of both callbacks (an address the program gave).
    pub extra_state: usize,
}

/// A key of datatype attributes (`MPI_Type_create_keyval`).
pub type TypeKeyval = Keyval<MPI_Type_copy_attr_function, MPI_Type_delete_attr_function>;
/// A key of communicator attributes (`MPI_Comm_create_keyval`).
pub type CommKeyval = Keyval<MPI_Comm_copy_attr_function, MPI_Comm_delete_attr_function>;
/// A key of window attributes (`MPI_Win_create_keyval`).
pub type WinKeyval = Keyval<MPI_Win_copy_attr_function, MPI_Win_delete_attr_function>;

struct Record<K> {
    keyval: K,
    /// True once the program freed the key.
    freed: bool,
    /// Number of attributes cached with this key.
    uses: usize,
}

struct Keys<K> {
    next: c_int,
    keys: HashMap<c_int, Record<K>>,
}

/// The keys of one kind of object, numbered from their own first key.
pub struct Registry<K> {
    /// The keys.
    keys: Mutex<Keys<K>>,
    /// The first key given out.
    first: c_int,
    /// The kind of object, for messages ("datatype").
    kind: &'static str,
}

/// The keys of datatype attributes, from [`FIRST_OWN_KEYVAL`].
pub static TYPE_KEYS: LazyLock<Registry<TypeKeyval>> =
    LazyLock::new(|| Registry::new(FIRST_OWN_KEYVAL, "datatype"));
/// The keys of communicator attributes of the one-process world, numbered apart from the
/// datatype keys (from [`FIRST_OWN_KEYVAL`] + 2^22), so that a key of one kind is not one of
/// the other.
pub static COMM_KEYS: LazyLock<Registry<CommKeyval>> =
    LazyLock::new(|| Registry::new(FIRST_OWN_KEYVAL + (1 << 22), "communicator"));
/// The keys of window attributes of the one-process world (from [`FIRST_OWN_KEYVAL`] +
/// 2^23).
pub static WIN_KEYS: LazyLock<Registry<WinKeyval>> =
    LazyLock::new(|| Registry::new(FIRST_OWN_KEYVAL + (2 << 22), "window"));

impl<K: Copy> Registry<K> {
    /// An empty registry whose keys count up from `first`.
    fn new(first: c_int, kind: &'static str) -> Self {
        Registry {
            keys: Mutex::new(Keys {
                next: first,
                keys: HashMap::new(),
            }),
            first,
            kind,
        }
    }

    fn invalid(&self, key: c_int) -> MpiError {
        MpiError::new(
            MPI_ERR_KEYVAL,
            format!(
                "{key:#x} is not a valid {} keyval (never created, or already freed)",
                self.kind
            ),
        )
    }

    /// Registers a new key and returns it.
    pub fn create(&self, keyval: K) -> MpiResult<c_int> {
        let mut registry = self.keys.lock();
        let first = self.first;
        // Keys count up; after the last int they start again, skipping those still registered.
        let mut key = registry.next;
        for _ in 0..=registry.keys.len() {
            if !registry.keys.contains_key(&key) {
                break;
            }
            key = key.checked_add(1).unwrap_or(first);
        }
        registry.next = key.checked_add(1).unwrap_or(first);
        registry.keys.insert(
            key,
            Record {
                keyval,
                freed: false,
                uses: 0,
            },
        );
        Ok(key)
    }

    /// The callbacks of a key the program names: an unknown or freed key is `MPI_ERR_KEYVAL`.
    pub fn get(&self, key: c_int) -> MpiResult<K> {
        match self.keys.lock().keys.get(&key) {
            Some(r) if !r.freed => Ok(r.keyval),
            _ => Err(self.invalid(key)),
        }
    }

    /// The callbacks of the key of an attribute that is cached (the key may have been freed).
    pub fn get_cached(&self, key: c_int) -> MpiResult<K> {
        match self.keys.lock().keys.get(&key) {
            Some(r) => Ok(r.keyval),
            None => Err(self.invalid(key)),
        }
    }

    /// Frees a key the program names; its entry goes once no attribute uses it.
    pub fn free(&self, key: c_int) -> MpiResult<()> {
        let mut registry = self.keys.lock();
        match registry.keys.get_mut(&key) {
            Some(r) if !r.freed => {
                r.freed = true;
                if r.uses == 0 {
                    registry.keys.remove(&key);
                }
                Ok(())
            }
            _ => Err(self.invalid(key)),
        }
    }

    /// Records a new attribute cached with `key`. `by_program` is true when the program
    /// caches it (`MPI_Type_set_attr`: the key must not be freed) and false when a copy
    /// callback made it (a duplicate of an object whose attribute's key may have been freed
    /// since).
    pub fn retain(&self, key: c_int, by_program: bool) -> MpiResult<()> {
        match self.keys.lock().keys.get_mut(&key) {
            Some(r) if !(by_program && r.freed) => {
                r.uses += 1;
                Ok(())
            }
            _ => Err(self.invalid(key)),
        }
    }

    /// Records that an attribute cached with `key` is gone.
    pub fn release(&self, key: c_int) {
        let mut registry = self.keys.lock();
        if let Some(r) = registry.keys.get_mut(&key) {
            r.uses = r.uses.saturating_sub(1);
            if r.freed && r.uses == 0 {
                registry.keys.remove(&key);
            }
        }
    }

    /// The number of keys in the registry (created and not freed, or still used).
    pub fn registered(&self) -> usize {
        self.keys.lock().keys.len()
    }
}

/// The C signature of an attribute delete callback on handles of type `H`.
pub type DeleteFn<H> = crate::abi::AttrDeleteFunction<H>;
/// The C signature of an attribute copy callback on handles of type `H`.
pub type CopyFn<H> = crate::abi::AttrCopyFunction<H>;

/// The error of a callback that returned `code` (the call that ran it fails with it).
fn callback_error(code: c_int, what: &str) -> MpiError {
    MpiError::new(
        code,
        format!("the attribute {what} callback returned error {code}"),
    )
}

/// Runs the delete callback `delete` of `key` (if there is one) for `value`, cached on the
/// object `handle`.
pub fn call_delete<H>(
    delete: Option<DeleteFn<H>>,
    handle: H,
    key: c_int,
    value: usize,
    extra_state: usize,
) -> MpiResult<()> {
    let Some(delete) = delete else {
        return Ok(());
    };
    // SAFETY: the program registered the callback for exactly this use.
    let code = unsafe {
        delete(
            handle,
            key,
            value as *mut c_void,
            extra_state as *mut c_void,
        )
    };
    match code {
        MPI_SUCCESS => Ok(()),
        code => Err(callback_error(code, "delete")),
    }
}

/// Runs the copy callback `copy` of `key` (if there is one) for `value`, cached on the object
/// `handle` that is duplicated: the value of the duplicate's attribute, or `None` if the
/// callback leaves it out.
pub fn call_copy<H>(
    copy: Option<CopyFn<H>>,
    handle: H,
    key: c_int,
    value: usize,
    extra_state: usize,
) -> MpiResult<Option<usize>> {
    let Some(copy) = copy else {
        return Ok(None);
    };
    let mut out: *mut c_void = std::ptr::null_mut();
    let mut flag: c_int = 0;
    // SAFETY: the program registered the callback for exactly this use; `out` and `flag` are
    // the outputs it writes.
    let code = unsafe {
        copy(
            handle,
            key,
            extra_state as *mut c_void,
            value as *mut c_void,
            (&raw mut out).cast(),
            &mut flag,
        )
    };
    match code {
        MPI_SUCCESS => Ok((flag != 0).then_some(out as usize)),
        code => Err(callback_error(code, "copy")),
    }
}

/// The predefined copy callback that copies the attribute value (`MPI_TYPE_DUP_FN`,
/// `MPI_COMM_DUP_FN`), for handles of type `H`.
///
/// # Safety
/// Called with the address of a `void *` and of an `int` (checked for NULL).
pub unsafe extern "C" fn copy_value<H>(
    _old: H,
    _keyval: c_int,
    _extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    if attribute_val_out.is_null() || flag.is_null() {
        return MPI_ERR_ARG;
    }
    // SAFETY: both checked non-NULL; the caller passes the address of a `void *` and an int.
    unsafe {
        attribute_val_out
            .cast::<*mut c_void>()
            .write(attribute_val_in);
        flag.write(1);
    }
    MPI_SUCCESS
}

/// A copy callback that never copies (`MPI_*_NULL_COPY_FN` where the ABI makes it a
/// function): says so through `flag`.
///
/// # Safety
/// `flag` is NULL or points to an `int`.
pub unsafe extern "C" fn copy_nothing<H>(
    _old: H,
    _keyval: c_int,
    _extra_state: *mut c_void,
    _attribute_val_in: *mut c_void,
    _attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    if flag.is_null() {
        return MPI_ERR_ARG;
    }
    // SAFETY: checked non-NULL; the caller passes the address of an int.
    unsafe { flag.write(0) };
    MPI_SUCCESS
}

/// A delete callback that does nothing (`MPI_*_NULL_DELETE_FN` where the ABI makes it a
/// function).
pub extern "C" fn delete_nothing<H>(
    _object: H,
    _keyval: c_int,
    _attribute_val: *mut c_void,
    _extra_state: *mut c_void,
) -> c_int {
    MPI_SUCCESS
}

/// The attributes cached on one object: `(key, value)` in the order they were set.
pub type Attributes = Vec<(c_int, usize)>;

/// Caches `value` under `key`, replacing (and returning) the value cached before.
pub fn cache(attributes: &mut Attributes, key: c_int, value: usize) -> Option<usize> {
    let previous = uncache(attributes, key);
    attributes.push((key, value));
    previous
}

/// The value cached under `key`.
pub fn cached(attributes: &[(c_int, usize)], key: c_int) -> Option<usize> {
    attributes.iter().find(|a| a.0 == key).map(|a| a.1)
}

/// Removes (and returns) the value cached under `key`.
pub fn uncache(attributes: &mut Attributes, key: c_int) -> Option<usize> {
    let i = attributes.iter().position(|a| a.0 == key)?;
    Some(attributes.remove(i).1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: TypeKeyval = Keyval {
        copy: None,
        delete: None,
        extra_state: 0,
    };

    #[test]
    fn freed_keys_leave_the_registry() {
        let before = TYPE_KEYS.registered();
        for _ in 0..100_000 {
            let k = TYPE_KEYS.create(NONE).unwrap();
            TYPE_KEYS.free(k).unwrap();
        }
        // Other tests may create keys at the same time, but not 100,000 of them.
        assert!(TYPE_KEYS.registered() < before + 100);
    }

    #[test]
    fn cached_values_replace_each_other() {
        let mut a = Attributes::new();
        assert_eq!(cache(&mut a, 5, 50), None);
        assert_eq!(cache(&mut a, 6, 60), None);
        assert_eq!(cache(&mut a, 5, 51), Some(50));
        assert_eq!(cached(&a, 5), Some(51));
        assert_eq!(uncache(&mut a, 6), Some(60));
        assert_eq!(uncache(&mut a, 6), None);
        assert_eq!(a, vec![(5, 51)]);
    }

    #[test]
    fn a_used_key_stays_until_its_last_attribute_goes() {
        let k = TYPE_KEYS.create(NONE).unwrap();
        TYPE_KEYS.retain(k, true).unwrap();
        TYPE_KEYS.free(k).unwrap();
        assert!(
            TYPE_KEYS.get(k).is_err(),
            "freed keys are invalid for the program"
        );
        assert!(
            TYPE_KEYS.get_cached(k).is_ok(),
            "but cached attributes still use them"
        );
        assert!(TYPE_KEYS.retain(k, true).is_err());
        TYPE_KEYS.retain(k, false).unwrap();
        TYPE_KEYS.release(k);
        assert!(TYPE_KEYS.get_cached(k).is_ok());
        TYPE_KEYS.release(k);
        assert!(TYPE_KEYS.get_cached(k).is_err());
        assert!(TYPE_KEYS.free(k).is_err());
    }
}
