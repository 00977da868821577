//! The expression language of `mpi-dtype-explain`: a datatype written as the MPI calls that
//! build it.
//!
//! ```text
//! type  := NAME                          a predefined type by its C name: MPI_DOUBLE, MPI_LB, ...
//!        | CTOR '(' arg (',' arg)* ')'   a constructor by its MPI name without MPI_Type_ / create_
//! arg   := type | INTEGER | WORD | '[' (arg (',' arg)*)? ']'
//! WORD  := C | FORTRAN | BLOCK | CYCLIC | NONE | DFLT
//! ```
//!
//! Arguments come in the C order with the counts left out (each array's length is its
//! count): `contiguous(count, T)`, `vector(count, blocklength, stride, T)`,
//! `hvector(count, blocklength, stride_bytes, T)`, `indexed([bl...], [disp...], T)`,
//! `hindexed([bl...], [disp_bytes...], T)`, `indexed_block(bl, [disp...], T)`,
//! `hindexed_block(bl, [disp_bytes...], T)`, `struct([bl...], [disp_bytes...], [T...])`,
//! `subarray([sizes], [subsizes], [starts], C|FORTRAN, T)`,
//! `darray(size, rank, [gsizes], [BLOCK|CYCLIC|NONE...], [dargs|DFLT...], [psizes], C|FORTRAN, T)`,
//! `resized(T, lb, extent)`, `dup(T)`, and `f90_integer(r)`, `f90_real(p, r)`,
//! `f90_complex(p, r)`. The full MPI names (`MPI_Type_create_struct`) are accepted too.
//!
//! A malformed expression is an [`Error`] at the offending character; a well-formed one whose
//! constructor fails is an [`Error`] with the constructor's MPI error class and message, at
//! the constructor's name. [`Error::report`] shows either with the expression and a caret.

use mpi_dtype_core::datatype::{construct, DarrayArgs, Datatype, Distribution, F90Class, Order};
use mpi_dtype_core::error::{Error as CoreError, ErrorClass, Result as CoreResult};
use mpi_dtype_core::predefined;
use std::sync::Arc;

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The expression is malformed.
    Syntax,
    /// The constructor failed with this MPI error class.
    Mpi(ErrorClass),
}

/// An error in an expression, at a character position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Syntax or MPI error.
    pub kind: ErrorKind,
    /// Position of the offending character, counted in characters from 0.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl Error {
    fn syntax(position: usize, message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Syntax,
            position,
            message: message.into(),
        }
    }

    fn mpi(position: usize, e: CoreError) -> Error {
        Error {
            kind: ErrorKind::Mpi(e.class),
            position,
            message: e.message,
        }
    }

    /// The error for a person: the problem (with the MPI error class name for a failed
    /// constructor), the expression, and a caret under the offending character.
    pub fn report(&self, input: &str) -> String {
        let what = match self.kind {
            ErrorKind::Syntax => format!("syntax error at character {}", self.position + 1),
            ErrorKind::Mpi(class) => class.name().to_string(),
        };
        // Tabs and other control characters would move the caret: show them as spaces.
        let line: String = input
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        format!(
            "{what}: {}\n  {line}\n  {}^\n",
            self.message,
            " ".repeat(self.position)
        )
    }
}

/// A parsed argument with the position where it starts.
#[derive(Debug, Clone)]
enum Value {
    Int(i64),
    Word(String),
    Type(Arc<Datatype>),
    List(Vec<(Value, usize)>),
}

impl Value {
    fn describe(&self) -> &'static str {
        match self {
            Value::Int(_) => "a number",
            Value::Word(_) => "a word",
            Value::Type(_) => "a datatype",
            Value::List(_) => "a list",
        }
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

/// Parses `input` and builds the datatype it describes.
pub fn parse(input: &str) -> Result<Arc<Datatype>, Error> {
    let mut p = Parser {
        chars: input.chars().collect(),
        at: 0,
    };
    p.skip_space();
    let start = p.at;
    let value = p.value(0)?;
    p.skip_space();
    if p.at < p.chars.len() {
        return Err(Error::syntax(
            p.at,
            format!("unexpected '{}' after the end of the type", p.chars[p.at]),
        ));
    }
    match value {
        Value::Type(t) => Ok(t),
        other => Err(Error::syntax(
            start,
            format!("expected a datatype, found {}", other.describe()),
        )),
    }
}

/// Nesting deeper than this is refused (the parser recurses once per level).
const MAX_NESTING: usize = 512;

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        self.skip_space();
        if depth > MAX_NESTING {
            return Err(Error::syntax(
                self.at,
                "the expression is nested too deeply",
            ));
        }
        let start = self.at;
        match self.peek() {
            None => Err(Error::syntax(
                start,
                "expected a value, found the end of the expression",
            )),
            Some('[') => {
                self.at += 1;
                let items = self.items(']', depth)?;
                Ok(Value::List(items))
            }
            Some(c) if c == '-' || c == '+' || c.is_ascii_digit() => self.integer(),
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let name = self.identifier();
                self.skip_space();
                if self.peek() == Some('(') {
                    self.at += 1;
                    let args = self.items(')', depth)?;
                    build(&name, start, args).map(Value::Type)
                } else if name.starts_with("MPI") && !is_constant(&name) {
                    named(&name, start).map(Value::Type)
                } else {
                    Ok(Value::Word(name))
                }
            }
            Some(c) => Err(Error::syntax(start, format!("unexpected '{c}'"))),
        }
    }

    /// Comma-separated values up to `close` (the opening bracket is consumed).
    fn items(&mut self, close: char, depth: usize) -> Result<Vec<(Value, usize)>, Error> {
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(close) {
            self.at += 1;
            return Ok(items);
        }
        loop {
            self.skip_space();
            let at = self.at;
            items.push((self.value(depth + 1)?, at));
            self.skip_space();
            match self.peek() {
                Some(',') => self.at += 1,
                Some(c) if c == close => {
                    self.at += 1;
                    return Ok(items);
                }
                Some(c) => {
                    return Err(Error::syntax(
                        self.at,
                        format!("expected ',' or '{close}', found '{c}'"),
                    ))
                }
                None => {
                    return Err(Error::syntax(
                        self.at,
                        format!("expected ',' or '{close}', found the end of the expression"),
                    ))
                }
            }
        }
    }

    fn identifier(&mut self) -> String {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn integer(&mut self) -> Result<Value, Error> {
        let start = self.at;
        if matches!(self.peek(), Some('-' | '+')) {
            self.at += 1;
        }
        let digits = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        if self.at == digits {
            return Err(Error::syntax(self.at, "expected a digit"));
        }
        let text: String = self.chars[start..self.at].iter().collect();
        text.parse::<i64>()
            .map(Value::Int)
            .map_err(|_| Error::syntax(start, format!("{text} does not fit 64 bits")))
    }
}

/// The synonyms of the standard's predefined names that the predefined table lists under
/// the other name (see `predefined`).
const SYNONYMS: [(&str, &str); 2] = [
    ("MPI_LONG_LONG", "MPI_LONG_LONG_INT"),
    ("MPI_C_FLOAT_COMPLEX", "MPI_C_COMPLEX"),
];

/// True if `name` is one of the standard's constants the language takes as a word
/// (`MPI_UNDEFINED`, `MPI_ORDER_C`, `MPI_DISTRIBUTE_BLOCK`, ...), not a datatype.
fn is_constant(name: &str) -> bool {
    name == "MPI_UNDEFINED" || name.starts_with("MPI_ORDER_") || name.starts_with("MPI_DISTRIBUTE_")
}

/// The predefined datatype named `name`, from the library's predefined table.
fn named(name: &str, at: usize) -> Result<Arc<Datatype>, Error> {
    let wanted = SYNONYMS
        .iter()
        .find(|(synonym, _)| *synonym == name)
        .map_or(name, |(_, table_name)| table_name);
    let named = predefined::by_name(wanted)
        .ok_or_else(|| Error::syntax(at, format!("unknown predefined datatype {name}")))?;
    Ok(construct::named(named))
}

/// The arguments of one constructor call, taken one by one with their positions.
struct Args {
    name: &'static str,
    items: std::vec::IntoIter<(Value, usize)>,
    end: usize,
}

impl Args {
    fn next(&mut self, what: &str) -> Result<(Value, usize), Error> {
        self.items
            .next()
            .ok_or_else(|| Error::syntax(self.end, format!("{} needs {what} here", self.name)))
    }

    fn int(&mut self, what: &str) -> Result<i64, Error> {
        match self.next(what)? {
            (Value::Int(n), _) => Ok(n),
            (other, at) => Err(Error::syntax(
                at,
                format!("{what} must be a number, found {}", other.describe()),
            )),
        }
    }

    fn int32(&mut self, what: &str) -> Result<i32, Error> {
        let at = self
            .items
            .as_slice()
            .first()
            .map_or(self.end, |(_, at)| *at);
        let n = self.int(what)?;
        i32::try_from(n).map_err(|_| Error::syntax(at, format!("{what} {n} does not fit an int")))
    }

    /// An int, or `None` for the word `MPI_UNDEFINED` (an f90 type's `p` or `r` not given).
    fn int32_or_undefined(&mut self, what: &str) -> Result<Option<i32>, Error> {
        match self.items.as_slice().first() {
            Some((Value::Word(w), _)) if w == "MPI_UNDEFINED" => {
                self.next(what)?;
                Ok(None)
            }
            _ => self.int32(what).map(Some),
        }
    }

    fn datatype(&mut self, what: &str) -> Result<Arc<Datatype>, Error> {
        match self.next(what)? {
            (Value::Type(t), _) => Ok(t),
            (Value::Word(w), at) => Err(Error::syntax(
                at,
                format!(
                    "{what} must be a datatype; {w} is not one (predefined types start with MPI_)"
                ),
            )),
            (other, at) => Err(Error::syntax(
                at,
                format!("{what} must be a datatype, found {}", other.describe()),
            )),
        }
    }

    fn list(&mut self, what: &str) -> Result<Vec<(Value, usize)>, Error> {
        match self.next(what)? {
            (Value::List(items), _) => Ok(items),
            (other, at) => Err(Error::syntax(
                at,
                format!(
                    "{what} must be a bracketed list, found {}",
                    other.describe()
                ),
            )),
        }
    }

    fn ints(&mut self, what: &str) -> Result<Vec<i64>, Error> {
        self.list(what)?
            .into_iter()
            .map(|(v, at)| match v {
                Value::Int(n) => Ok(n),
                other => Err(Error::syntax(
                    at,
                    format!("{what} holds numbers, found {}", other.describe()),
                )),
            })
            .collect()
    }

    fn words<T>(
        &mut self,
        what: &str,
        pick: impl Fn(&Value) -> Option<T>,
        expected: &str,
    ) -> Result<Vec<T>, Error> {
        self.list(what)?
            .into_iter()
            .map(|(v, at)| {
                pick(&v).ok_or_else(|| {
                    Error::syntax(
                        at,
                        format!("{what} holds {expected}, found {}", v.describe()),
                    )
                })
            })
            .collect()
    }

    fn order(&mut self) -> Result<Order, Error> {
        match self.next("the order (C or FORTRAN)")? {
            (Value::Word(w), _) if w == "C" || w == "MPI_ORDER_C" => Ok(Order::C),
            (Value::Word(w), _) if w == "FORTRAN" || w == "MPI_ORDER_FORTRAN" => Ok(Order::Fortran),
            (_, at) => Err(Error::syntax(at, "the order must be C or FORTRAN")),
        }
    }

    fn finish(mut self) -> Result<(), Error> {
        match self.items.next() {
            None => Ok(()),
            Some((_, at)) => Err(Error::syntax(
                at,
                format!("{} takes no more arguments", self.name),
            )),
        }
    }
}

fn distribution(v: &Value) -> Option<Distribution> {
    match v {
        Value::Word(w) => match w.trim_start_matches("MPI_DISTRIBUTE_") {
            "BLOCK" => Some(Distribution::Block),
            "CYCLIC" => Some(Distribution::Cyclic),
            "NONE" => Some(Distribution::None),
            _ => None,
        },
        _ => None,
    }
}

/// A distribution argument: `None` inside for the default (`DFLT`); a number is the
/// argument itself.
fn darg(v: &Value) -> Option<Option<i32>> {
    match v {
        Value::Int(n) => i32::try_from(*n).ok().map(Some),
        Value::Word(w) if w == "DFLT" || w == "MPI_DISTRIBUTE_DFLT_DARG" => Some(None),
        _ => None,
    }
}

/// The constructors by their short names.
const CONSTRUCTORS: [&str; 15] = [
    "contiguous",
    "vector",
    "hvector",
    "indexed",
    "hindexed",
    "indexed_block",
    "hindexed_block",
    "struct",
    "subarray",
    "darray",
    "resized",
    "dup",
    "f90_integer",
    "f90_real",
    "f90_complex",
];

/// Calls the constructor `name` (at `at`) with `args`.
fn build(name: &str, at: usize, args: Vec<(Value, usize)>) -> Result<Arc<Datatype>, Error> {
    let short = name
        .strip_prefix("MPI_Type_create_")
        .or_else(|| name.strip_prefix("MPI_Type_"))
        .unwrap_or(name);
    let short = CONSTRUCTORS
        .iter()
        .copied()
        .find(|c| *c == short)
        .ok_or_else(|| {
            Error::syntax(
                at,
                format!(
                    "unknown constructor {name} (known: {})",
                    CONSTRUCTORS.join(", ")
                ),
            )
        })?;
    let end = args
        .last()
        .map_or(at + name.chars().count() + 1, |(_, p)| *p);
    let mut a = Args {
        name: short,
        items: args.into_iter(),
        end,
    };
    let made = match short {
        "contiguous" => {
            let count = a.int("count")?;
            let old = a.datatype("oldtype")?;
            a.finish()?;
            construct::contiguous(count, &old, false)
        }
        "vector" | "hvector" => {
            let count = a.int("count")?;
            let blocklength = a.int("blocklength")?;
            let stride = a.int("stride")?;
            let old = a.datatype("oldtype")?;
            a.finish()?;
            construct::vector(count, blocklength, stride, short == "hvector", &old, false)
        }
        "indexed" | "hindexed" => {
            let blocklengths = a.ints("array_of_blocklengths")?;
            let displacements = a.ints("array_of_displacements")?;
            let old = a.datatype("oldtype")?;
            a.finish()?;
            let in_bytes = short == "hindexed";
            construct::indexed(blocklengths, displacements, in_bytes, &old, false)
        }
        "indexed_block" | "hindexed_block" => {
            let blocklength = a.int("blocklength")?;
            let displacements = a.ints("array_of_displacements")?;
            let old = a.datatype("oldtype")?;
            a.finish()?;
            let in_bytes = short == "hindexed_block";
            construct::indexed_block(blocklength, displacements, in_bytes, &old, false)
        }
        "struct" => {
            let blocklengths = a.ints("array_of_blocklengths")?;
            let displacements = a.ints("array_of_displacements")?;
            let types = a.words(
                "array_of_types",
                |v| match v {
                    Value::Type(t) => Some(t.clone()),
                    _ => None,
                },
                "datatypes",
            )?;
            a.finish()?;
            construct::structure(blocklengths, displacements, types, false)
        }
        "subarray" => {
            let sizes = a.ints("array_of_sizes")?;
            let subsizes = a.ints("array_of_subsizes")?;
            let starts = a.ints("array_of_starts")?;
            let order = a.order()?;
            let old = a.datatype("oldtype")?;
            a.finish()?;
            construct::subarray(sizes, subsizes, starts, order, &old, false)
        }
        "darray" => {
            let size = a.int32("size")?;
            let rank = a.int32("rank")?;
            let gsizes = a.ints("array_of_gsizes")?;
            let distribs = a.words("array_of_distribs", distribution, "BLOCK, CYCLIC or NONE")?;
            let dargs = a.words("array_of_dargs", darg, "ints or DFLT")?;
            let psizes = a.words(
                "array_of_psizes",
                |v| match v {
                    Value::Int(n) => i32::try_from(*n).ok(),
                    _ => None,
                },
                "ints",
            )?;
            let order = a.order()?;
            let old = a.datatype("oldtype")?;
            a.finish()?;
            let args = DarrayArgs {
                size,
                rank,
                gsizes,
                distribs,
                dargs,
                psizes,
                order,
            };
            construct::darray(args, &old, false)
        }
        "resized" => {
            let old = a.datatype("oldtype")?;
            let lb = a.int("lb")?;
            let extent = a.int("extent")?;
            a.finish()?;
            construct::resized(&old, lb, extent, false)
        }
        "dup" => {
            let old = a.datatype("oldtype")?;
            a.finish()?;
            Ok(construct::dup(&old))
        }
        _ => {
            let class = match short {
                "f90_integer" => F90Class::Integer,
                "f90_real" => F90Class::Real,
                _ => F90Class::Complex,
            };
            let precision = match class {
                F90Class::Integer => None,
                _ => a.int32_or_undefined("p")?,
            };
            let range = a.int32_or_undefined("r")?;
            a.finish()?;
            f90(class, precision, range)
        }
    };
    made.map_err(|e| Error::mpi(at, e))
}

/// `MPI_Type_create_f90_*(p, r)`: the type the arguments select, or `MPI_ERR_ARG`.
fn f90(class: F90Class, precision: Option<i32>, range: Option<i32>) -> CoreResult<Arc<Datatype>> {
    let base = construct::named(predefined::f90_base(class, precision, range)?.predefined());
    Ok(construct::f90(class, precision, range, &base))
}
