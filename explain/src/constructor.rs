//! The constructor tree of a datatype as the program wrote it: each constructor with its
//! arguments verbatim and its children. [`call`] describes one level; the formats render it as
//! the command-line tool's expression ([`expression`]), an indented tree ([`tree_lines`]) or
//! JSON. Arrays longer than [`ARRAY_LIMIT`] are cut (the full length is given) and at most
//! [`NODE_LIMIT`] constructors are shown.

use mpi_dtype_core::datatype::{Combiner, Datatype, Distribution, F90Class, Order};
use std::sync::Arc;

/// Arrays of constructor arguments are shown up to this many items.
pub const ARRAY_LIMIT: usize = 32;
/// At most this many constructors of a tree are shown.
pub const NODE_LIMIT: usize = 64;

/// One item of an argument: a number or a named constant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A number.
    Num(i64),
    /// A named constant (`C`, `FORTRAN`, `BLOCK`, `CYCLIC`, `NONE`, `DFLT`).
    Word(&'static str),
}

/// One argument of a constructor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// A single value.
    One(Item),
    /// An array: its first [`ARRAY_LIMIT`] items and its full length.
    List(Vec<Item>, usize),
}

/// Where the child types go among a constructor's arguments in the expression language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Children {
    /// No children (a named type).
    None,
    /// One child, the last argument.
    Last,
    /// One child, the first argument (`resized`).
    First,
    /// A list of children, the last argument (`struct`).
    List,
}

/// One constructor call.
#[derive(Debug, Clone)]
pub struct Call<'a> {
    /// Its name in the expression language (`vector`), or the type's name for a named type.
    pub short: &'static str,
    /// The MPI function (`MPI_Type_vector`), or the type's name for a named type.
    pub function: &'static str,
    /// The `MPI_COMBINER_*` name.
    pub combiner: &'static str,
    /// The arguments other than the child types, named as in the standard, in C order.
    pub args: Vec<(&'static str, Arg)>,
    /// The child types.
    pub children: Vec<&'a Arc<Datatype>>,
    /// Where the children go in the expression.
    pub placement: Children,
}

fn list(values: &[i64]) -> Arg {
    Arg::List(
        values
            .iter()
            .take(ARRAY_LIMIT)
            .map(|&v| Item::Num(v))
            .collect(),
        values.len(),
    )
}

/// The arguments of a vector: `count` blocks of `blocklength`, `stride` apart.
fn strided(count: i64, blocklength: i64, stride: i64) -> Vec<(&'static str, Arg)> {
    vec![
        ("count", num(count)),
        ("blocklength", num(blocklength)),
        ("stride", num(stride)),
    ]
}

fn num(value: i64) -> Arg {
    Arg::One(Item::Num(value))
}

fn order(o: Order) -> Arg {
    Arg::One(Item::Word(match o {
        Order::C => "C",
        Order::Fortran => "FORTRAN",
    }))
}

fn distribution(d: Distribution) -> Item {
    Item::Word(match d {
        Distribution::Block => "BLOCK",
        Distribution::Cyclic => "CYCLIC",
        Distribution::None => "NONE",
    })
}

/// The constructor call that made `dt`.
pub fn call(dt: &Datatype) -> Call<'_> {
    let one = |(short, function, combiner), args, old| Call {
        short,
        function,
        combiner,
        args,
        children: vec![old],
        placement: Children::Last,
    };
    match &dt.combiner {
        Combiner::Named(p) => Call {
            short: p.name,
            function: p.name,
            combiner: "MPI_COMBINER_NAMED",
            args: vec![],
            children: vec![],
            placement: Children::None,
        },
        Combiner::Dup(old) => one(("dup", "MPI_Type_dup", "MPI_COMBINER_DUP"), vec![], old),
        Combiner::Contiguous { count, old } => one(
            (
                "contiguous",
                "MPI_Type_contiguous",
                "MPI_COMBINER_CONTIGUOUS",
            ),
            vec![("count", num(*count))],
            old,
        ),
        Combiner::Vector {
            count,
            blocklength,
            stride,
            old,
        } => {
            let names = ("vector", "MPI_Type_vector", "MPI_COMBINER_VECTOR");
            one(names, strided(*count, *blocklength, *stride), old)
        }
        Combiner::Hvector {
            count,
            blocklength,
            stride,
            old,
        } => {
            let names = ("hvector", "MPI_Type_create_hvector", "MPI_COMBINER_HVECTOR");
            one(names, strided(*count, *blocklength, *stride), old)
        }
        Combiner::Indexed {
            blocklengths,
            displacements,
            old,
        }
        | Combiner::Hindexed {
            blocklengths,
            displacements,
            old,
        } => {
            let names = match dt.combiner {
                Combiner::Indexed { .. } => ("indexed", "MPI_Type_indexed", "MPI_COMBINER_INDEXED"),
                _ => (
                    "hindexed",
                    "MPI_Type_create_hindexed",
                    "MPI_COMBINER_HINDEXED",
                ),
            };
            let args = vec![
                ("array_of_blocklengths", list(blocklengths)),
                ("array_of_displacements", list(displacements)),
            ];
            one(names, args, old)
        }
        Combiner::IndexedBlock {
            blocklength,
            displacements,
            old,
        }
        | Combiner::HindexedBlock {
            blocklength,
            displacements,
            old,
        } => {
            let names = match dt.combiner {
                Combiner::IndexedBlock { .. } => (
                    "indexed_block",
                    "MPI_Type_create_indexed_block",
                    "MPI_COMBINER_INDEXED_BLOCK",
                ),
                _ => (
                    "hindexed_block",
                    "MPI_Type_create_hindexed_block",
                    "MPI_COMBINER_HINDEXED_BLOCK",
                ),
            };
            let args = vec![
                ("blocklength", num(*blocklength)),
                ("array_of_displacements", list(displacements)),
            ];
            one(names, args, old)
        }
        Combiner::Struct {
            blocklengths,
            displacements,
            types,
        } => Call {
            short: "struct",
            function: "MPI_Type_create_struct",
            combiner: "MPI_COMBINER_STRUCT",
            args: vec![
                ("array_of_blocklengths", list(blocklengths)),
                ("array_of_displacements", list(displacements)),
            ],
            children: types.iter().collect(),
            placement: Children::List,
        },
        Combiner::Subarray { shape, old, .. } => one(
            (
                "subarray",
                "MPI_Type_create_subarray",
                "MPI_COMBINER_SUBARRAY",
            ),
            vec![
                ("array_of_sizes", list(&shape.sizes)),
                ("array_of_subsizes", list(&shape.subsizes)),
                ("array_of_starts", list(&shape.starts)),
                ("order", order(shape.order)),
            ],
            old,
        ),
        Combiner::Darray { args, old, .. } => {
            let dargs = args
                .dargs
                .iter()
                .take(ARRAY_LIMIT)
                .map(|&d| match d {
                    None => Item::Word("DFLT"),
                    Some(d) => Item::Num(d.into()),
                })
                .collect();
            let distribs = args
                .distribs
                .iter()
                .take(ARRAY_LIMIT)
                .map(|&d| distribution(d))
                .collect();
            let psizes: Vec<i64> = args.psizes.iter().map(|&p| p.into()).collect();
            one(
                ("darray", "MPI_Type_create_darray", "MPI_COMBINER_DARRAY"),
                vec![
                    ("size", num(args.size.into())),
                    ("rank", num(args.rank.into())),
                    ("array_of_gsizes", list(&args.gsizes)),
                    (
                        "array_of_distribs",
                        Arg::List(distribs, args.distribs.len()),
                    ),
                    ("array_of_dargs", Arg::List(dargs, args.dargs.len())),
                    ("array_of_psizes", list(&psizes)),
                    ("order", order(args.order)),
                ],
                old,
            )
        }
        Combiner::Resized { lb, extent, old } => Call {
            placement: Children::First,
            ..one(
                ("resized", "MPI_Type_create_resized", "MPI_COMBINER_RESIZED"),
                vec![("lb", num(*lb)), ("extent", num(*extent))],
                old,
            )
        },
        Combiner::F90 {
            class,
            precision,
            range,
            ..
        } => {
            let (short, function, combiner) = match class {
                F90Class::Integer => (
                    "f90_integer",
                    "MPI_Type_create_f90_integer",
                    "MPI_COMBINER_F90_INTEGER",
                ),
                F90Class::Real => (
                    "f90_real",
                    "MPI_Type_create_f90_real",
                    "MPI_COMBINER_F90_REAL",
                ),
                F90Class::Complex => (
                    "f90_complex",
                    "MPI_Type_create_f90_complex",
                    "MPI_COMBINER_F90_COMPLEX",
                ),
            };
            let given = |value: Option<i32>| {
                value.map_or(Arg::One(Item::Word("MPI_UNDEFINED")), |v| num(v.into()))
            };
            let mut args = vec![];
            if *class != F90Class::Integer {
                args.push(("p", given(*precision)));
            }
            args.push(("r", given(*range)));
            Call {
                short,
                function,
                combiner,
                args,
                children: vec![],
                placement: Children::None,
            }
        }
    }
}

/// An item as the expression language writes it.
pub fn item_text(item: &Item) -> String {
    match item {
        Item::Num(n) => n.to_string(),
        Item::Word(w) => (*w).to_string(),
    }
}

/// An argument as the expression language writes it; a cut array ends in `...`.
pub fn arg_text(arg: &Arg) -> String {
    match arg {
        Arg::One(item) => item_text(item),
        Arg::List(items, total) => {
            let mut parts: Vec<String> = items.iter().map(item_text).collect();
            if *total > items.len() {
                parts.push(format!("... {total} in all"));
            }
            format!("[{}]", parts.join(", "))
        }
    }
}

/// The expression of the command-line tool that builds `dt`, and whether it is whole (no
/// array or subtree was cut): a whole expression builds the same type again.
pub fn expression(dt: &Datatype) -> (String, bool) {
    let mut budget = NODE_LIMIT;
    let mut whole = true;
    let text = expression_of(dt, &mut budget, &mut whole);
    (text, whole)
}

fn expression_of(dt: &Datatype, budget: &mut usize, whole: &mut bool) -> String {
    if *budget == 0 {
        *whole = false;
        return "...".to_string();
    }
    *budget -= 1;
    let c = call(dt);
    if c.placement == Children::None && c.args.is_empty() {
        return c.short.to_string();
    }
    let mut args: Vec<String> = c
        .args
        .iter()
        .map(|(_, a)| {
            if let Arg::List(items, total) = a {
                *whole &= items.len() == *total;
            }
            arg_text(a)
        })
        .collect();
    let mut child = |t: &Datatype| {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || expression_of(t, budget, whole))
    };
    match c.placement {
        Children::None => {}
        Children::Last => args.push(child(c.children[0])),
        Children::First => args.insert(0, child(c.children[0])),
        Children::List => {
            let mut types: Vec<String> = c
                .children
                .iter()
                .take(ARRAY_LIMIT)
                .map(|t| child(t))
                .collect();
            if c.children.len() > ARRAY_LIMIT {
                *whole = false;
                types.push(format!("... {} in all", c.children.len()));
            }
            args.push(format!("[{}]", types.join(", ")));
        }
    }
    format!("{}({})", c.short, args.join(", "))
}

/// The constructor tree of `dt` as indented lines: each constructor's MPI function, its
/// arguments and the size and extent it produced, its children below it.
pub fn tree_lines(dt: &Datatype) -> Vec<String> {
    let mut lines = Vec::new();
    let mut budget = NODE_LIMIT;
    tree_of(dt, "", "", &mut budget, &mut lines);
    lines
}

fn tree_of(dt: &Datatype, lead: &str, rest: &str, budget: &mut usize, out: &mut Vec<String>) {
    if *budget == 0 {
        out.push(format!("{lead}... (more constructors not shown)"));
        return;
    }
    *budget -= 1;
    let c = call(dt);
    let args: Vec<String> = c
        .args
        .iter()
        .map(|(name, a)| format!("{name}={}", arg_text(a)))
        .collect();
    let shape = format!("size {}, extent {}", dt.size(), dt.extent());
    if args.is_empty() {
        out.push(format!("{lead}{}  ({shape})", c.function));
    } else {
        out.push(format!(
            "{lead}{}({})  ({shape})",
            c.function,
            args.join(", ")
        ));
    }
    let shown = c.children.len().min(ARRAY_LIMIT);
    for (i, child) in c.children.iter().take(shown).enumerate() {
        let last = i + 1 == shown && c.children.len() <= ARRAY_LIMIT;
        let (branch, next) = if last {
            ("└─ ", "   ")
        } else {
            ("├─ ", "│  ")
        };
        let label = match c.placement {
            Children::List => format!("[{i}] "),
            _ => String::new(),
        };
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            tree_of(
                child,
                &format!("{rest}{branch}{label}"),
                &format!("{rest}{next}"),
                budget,
                out,
            )
        });
    }
    if c.children.len() > ARRAY_LIMIT {
        out.push(format!("{rest}└─ ... {} types in all", c.children.len()));
    }
}
