// The macros that take one ABI's values from the table of constants (`src/abi/constants.rs`),
// shared by the library (`src/abi/mod.rs` includes this file) and the header generator
// (`build.rs` includes it too).

/// Hands the value that a table entry's values (`abi value, abi value, ...`) give the ABI
/// `$want` (`mpich`, `standard` or `ompi`) to `$then!([$($item)*] value)`; expands to nothing
/// where the entry has no value for that ABI. Open MPI's values reach `$then` as tokens it can
/// match: `& object` (the address of an object), a name (an alias) or a number.
macro_rules! value_in {
    (ompi => $then:ident [$($item:tt)*]; ompi & $object:ident $(, $($rest:tt)*)?) => {
        $then!([$($item)*] & $object);
    };
    (ompi => $then:ident [$($item:tt)*]; ompi $alias:ident $(, $($rest:tt)*)?) => {
        $then!([$($item)*] $alias);
    };
    (ompi => $then:ident [$($item:tt)*]; ompi $value:expr $(, $($rest:tt)*)?) => {
        $then!([$($item)*] $value);
    };
    (mpich => $then:ident [$($item:tt)*]; mpich $value:expr $(, $($rest:tt)*)?) => {
        $then!([$($item)*] $value);
    };
    (standard => $then:ident [$($item:tt)*]; standard $value:expr $(, $($rest:tt)*)?) => {
        $then!([$($item)*] $value);
    };
    ($want:ident => $then:ident [$($item:tt)*]; $other:ident $value:expr $(, $($rest:tt)*)?) => {
        value_in!($want => $then [$($item)*]; $($($rest)*)?);
    };
    ($want:ident => $then:ident [$($item:tt)*];) => {};
}

/// The item `$($item)*` (`pub const NAME: TYPE` with its doc) given the value `$value`.
#[allow(unused_macros)] // Open MPI's module defines its constants its own way
macro_rules! constant {
    ([$($item:tt)*] $value:expr) => {
        $($item)* = $value;
    };
}
