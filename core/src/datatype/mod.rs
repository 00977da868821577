//! The safe core: datatype objects, free of raw pointers and handles.
//!
//! A [`Datatype`] keeps the constructor that made it with its arguments verbatim (for
//! `MPI_Type_get_envelope` / `MPI_Type_get_contents`) and a [`Layout`] summary from which every
//! bound and size query is answered. Datatypes are immutable and shared through `Arc`, so a
//! type lives as long as any type built from it.

mod children;
pub mod compile;
pub mod construct;
pub mod contents;
mod dismantle;
pub mod elements;
pub mod layout;
pub mod numbering;
pub mod rebuild;
pub mod signature;
/// The naive reference model: compiled for the tests and with the feature `model` only.
#[cfg(any(test, feature = "model"))]
pub mod typemap;
pub mod walk;

pub use crate::array::Array;
pub use crate::predefined::{Basic, F90Class, Predefined, PredefinedKind};
pub use layout::Layout;

use std::sync::Arc;

/// Element order of a subarray or darray.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Row-major: the last dimension varies fastest (`MPI_ORDER_C`).
    C,
    /// Column-major: the first dimension varies fastest (`MPI_ORDER_FORTRAN`).
    Fortran,
}

/// Distribution of one darray dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distribution {
    /// `MPI_DISTRIBUTE_BLOCK`.
    Block,
    /// `MPI_DISTRIBUTE_CYCLIC`.
    Cyclic,
    /// `MPI_DISTRIBUTE_NONE`.
    None,
}

/// The arguments of `MPI_Type_create_darray`, verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DarrayArgs {
    /// Number of processes in the grid.
    pub size: i32,
    /// Rank of the process whose part is described.
    pub rank: i32,
    /// Global array size in each dimension.
    pub gsizes: Vec<i64>,
    /// Distribution of each dimension.
    pub distribs: Vec<Distribution>,
    /// Distribution argument of each dimension: `None` for the default
    /// (`MPI_DISTRIBUTE_DFLT_DARG`), else the argument (valid if positive).
    pub dargs: Vec<Option<i32>>,
    /// Process-grid size in each dimension.
    pub psizes: Vec<i32>,
    /// Array element order.
    pub order: Order,
}

/// The constructor that made a datatype, with its arguments exactly as they were given.
#[derive(Debug, Clone)]
pub enum Combiner {
    /// A named predefined datatype.
    Named(&'static Predefined),
    /// `MPI_Type_dup`.
    Dup(Arc<Datatype>),
    /// `MPI_Type_contiguous`.
    Contiguous { count: i64, old: Arc<Datatype> },
    /// `MPI_Type_vector` (stride in elements).
    Vector {
        count: i64,
        blocklength: i64,
        stride: i64,
        old: Arc<Datatype>,
    },
    /// `MPI_Type_create_hvector` (stride in bytes).
    Hvector {
        count: i64,
        blocklength: i64,
        stride: i64,
        old: Arc<Datatype>,
    },
    /// `MPI_Type_indexed` (displacements in elements).
    Indexed {
        blocklengths: Array,
        displacements: Array,
        old: Arc<Datatype>,
    },
    /// `MPI_Type_create_hindexed` (displacements in bytes).
    Hindexed {
        blocklengths: Array,
        displacements: Array,
        old: Arc<Datatype>,
    },
    /// `MPI_Type_create_indexed_block` (displacements in elements).
    IndexedBlock {
        blocklength: i64,
        displacements: Array,
        old: Arc<Datatype>,
    },
    /// `MPI_Type_create_hindexed_block` (displacements in bytes).
    HindexedBlock {
        blocklength: i64,
        displacements: Array,
        old: Arc<Datatype>,
    },
    /// `MPI_Type_create_struct`.
    Struct {
        blocklengths: Array,
        displacements: Array,
        types: Vec<Arc<Datatype>>,
    },
    /// `MPI_Type_create_subarray`; `realized` is the equivalent type built from simpler
    /// constructors, used for layout and packing.
    Subarray {
        /// The arguments other than the old type (boxed, to keep every combiner small).
        shape: Box<SubarrayShape>,
        old: Arc<Datatype>,
        realized: Arc<Datatype>,
    },
    /// `MPI_Type_create_darray`; `realized` as for subarrays.
    Darray {
        /// The arguments other than the old type (boxed, to keep every combiner small).
        args: Box<DarrayArgs>,
        old: Arc<Datatype>,
        realized: Arc<Datatype>,
    },
    /// `MPI_Type_create_resized`.
    Resized {
        lb: i64,
        extent: i64,
        old: Arc<Datatype>,
    },
    /// `MPI_Type_create_f90_integer` / `_real` / `_complex`: a predefined (unnamed) type
    /// with the type map of `base`, the named Fortran type its arguments select.
    /// `precision` is the `p` argument (`None` for the integer class, which has none) and
    /// `range` the `r` argument, each `None` where the call gave `MPI_UNDEFINED`.
    F90 {
        class: F90Class,
        precision: Option<i32>,
        range: Option<i32>,
        base: Arc<Datatype>,
    },
}

/// An immutable MPI datatype. (`Drop` and `Debug` are in `dismantle.rs`: neither recurses.)
pub struct Datatype {
    /// The constructor and its arguments.
    pub combiner: Combiner,
    /// True if it was made by a large-count (`_c`) constructor, so that decoding reports its
    /// arguments as large counts.
    pub large_count: bool,
    /// Size, bounds and shape of its type map.
    pub layout: Layout,
    /// What the size and bound queries report, computed once from the layout when the type
    /// is made.
    pub measures: Measures,
    /// The compiled pack plan of one copy, built when the type is made ([`compile`]).
    pub plan: crate::plan::Plan,
    /// What a layer above the core keeps with this object and drops with it; empty until
    /// that layer first needs it ([`Attached`]).
    pub attached: Attached,
}

/// State a layer above the core keeps with one datatype object, made the first time that
/// layer needs it and dropped with the object. The core never reads it: the C library keeps
/// there what the MPI library behind it holds for the type in drop-in mode.
///
/// The state's type is recorded beside it when it is made, so that finding it again is one
/// comparison with a constant: a message's route asks for it at every call, and the
/// `Any` downcast asks the value's type through its vtable, which hands a 16-byte answer back
/// through memory.
#[derive(Debug, Default)]
pub struct Attached {
    /// The state and its type, once made.
    slot: std::sync::OnceLock<(std::any::TypeId, Box<dyn std::any::Any + Send + Sync>)>,
}

impl Attached {
    /// The attached state, made by `make` the first time it is asked for; `None` if a state
    /// of another type than `T` was attached first.
    #[inline]
    pub fn get_or_init<T: std::any::Any + Send + Sync>(
        &self,
        make: impl FnOnce() -> T,
    ) -> Option<&T> {
        use std::any::TypeId;
        let (type_id, state) = self
            .slot
            .get_or_init(|| (TypeId::of::<T>(), Box::new(make())));
        if *type_id != TypeId::of::<T>() {
            return None;
        }
        let state: *const (dyn std::any::Any + Send + Sync) = &**state;
        // SAFETY: the slot is written once, above, with the `TypeId` of the boxed value's own
        // type beside it; that type is `T`, so the box points to a live `T`, borrowed as long
        // as `self`.
        Some(unsafe { &*state.cast::<T>() })
    }
}

/// The arguments of `MPI_Type_create_subarray` other than the old type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubarrayShape {
    /// `array_of_sizes`.
    pub sizes: Vec<i64>,
    /// `array_of_subsizes`.
    pub subsizes: Vec<i64>,
    /// `array_of_starts`.
    pub starts: Vec<i64>,
    /// `order`.
    pub order: Order,
}

/// The size and bounds of a type map, as the queries report them (MPI-4.1 §5.1.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Measures {
    /// Size in bytes of the data.
    pub size: i64,
    /// Lower bound.
    pub lb: i64,
    /// Upper bound.
    pub ub: i64,
    /// `ub - lb`.
    pub extent: i64,
    /// Lower bound of the data, ignoring markers.
    pub true_lb: i64,
    /// `true_ub - true_lb`.
    pub true_extent: i64,
}

impl Measures {
    /// The measures of `layout`.
    pub fn of(layout: &Layout) -> Measures {
        Measures::with_bounds(layout, layout.lb(), layout.ub())
    }

    /// The measures of `layout`, or an overflow error if its bounds leave the 64-bit range
    /// ([`Layout::checked_bounds`]).
    #[inline]
    pub fn checked(layout: &Layout) -> crate::error::Result<Measures> {
        let (lb, ub) = layout.checked_bounds()?;
        Ok(Measures::with_bounds(layout, lb, ub))
    }

    #[inline]
    fn with_bounds(layout: &Layout, lb: i64, ub: i64) -> Measures {
        Measures {
            size: layout.size,
            lb,
            ub,
            extent: self::layout::extent_between(lb, ub),
            true_lb: layout.true_lb(),
            true_extent: layout.true_extent(),
        }
    }
}

/// Where the measures of a type are read from, one at a time: a [`Measures`] or a copy
/// published for lock-free queries (the handle table's), so that a query reads only what it
/// reports.
pub trait ReadMeasures {
    /// Size in bytes of the data.
    fn size(&self) -> i64;
    /// Lower bound.
    fn lb(&self) -> i64;
    /// Upper bound.
    fn ub(&self) -> i64;
    /// `ub - lb`.
    fn extent(&self) -> i64;
    /// Lower bound of the data, ignoring markers.
    fn true_lb(&self) -> i64;
    /// `true_ub - true_lb`.
    fn true_extent(&self) -> i64;
}

impl ReadMeasures for Measures {
    fn size(&self) -> i64 {
        self.size
    }
    fn lb(&self) -> i64 {
        self.lb
    }
    fn ub(&self) -> i64 {
        self.ub
    }
    fn extent(&self) -> i64 {
        self.extent
    }
    fn true_lb(&self) -> i64 {
        self.true_lb
    }
    fn true_extent(&self) -> i64 {
        self.true_extent
    }
}

/// The part of a type's measures one query reports (its size, its bounds...).
pub trait MeasuresPart: Copy {
    /// What the query reports.
    type Value;
    /// This part of the measures `m`.
    fn of(self, m: &impl ReadMeasures) -> Self::Value;
}

impl Datatype {
    /// The predefined datatype this is, if it is one.
    pub fn predefined(&self) -> Option<&'static Predefined> {
        match self.combiner {
            Combiner::Named(p) => Some(p),
            _ => None,
        }
    }

    /// Size in bytes of the data.
    pub fn size(&self) -> i64 {
        self.measures.size
    }
    /// Lower bound.
    pub fn lb(&self) -> i64 {
        self.measures.lb
    }
    /// Upper bound.
    pub fn ub(&self) -> i64 {
        self.measures.ub
    }
    /// Extent (`ub - lb`).
    pub fn extent(&self) -> i64 {
        self.measures.extent
    }
    /// Lower bound of the data, ignoring markers.
    pub fn true_lb(&self) -> i64 {
        self.measures.true_lb
    }
    /// Extent of the data, ignoring markers and padding.
    pub fn true_extent(&self) -> i64 {
        self.measures.true_extent
    }

    /// Where the data of `count` copies start from a buffer's address, when they lie there as
    /// one run of memory in type-map order, without gaps (copies of a basic type, of a
    /// contiguous type of one, of a vector whose blocks touch); `None` if they do not.
    pub fn one_run_at(&self, count: i64) -> Option<i64> {
        let copies = self.layout.repeated(count, self.extent()).ok()?;
        copies.data.filter(|_| copies.dense).map(|span| span.min)
    }
}

#[cfg(test)]
mod tests {
    use super::Attached;

    #[test]
    fn attached_state_is_made_once_and_found_only_as_its_own_type() {
        let attached = Attached::default();
        let mut made = 0;
        let first = attached.get_or_init(|| {
            made += 1;
            vec![1u32, 2, 3]
        });
        assert_eq!(first, Some(&vec![1, 2, 3]));
        let again = attached.get_or_init(|| {
            made += 1;
            vec![9u32]
        });
        assert_eq!(again, Some(&vec![1, 2, 3]));
        assert_eq!(made, 1);
        assert_eq!(attached.get_or_init(|| 7u64), None);
        assert_eq!(attached.get_or_init(|| vec![0u64]), None);
    }
}
