//! Reading a trace file back (the C library's `trace::write` wrote it): a small JSON reader, enough for
//! the trace's lines, and [`Traced`], one line as the report needs it.

use std::collections::BTreeMap;

/// A JSON value. Numbers keep their text, so 64-bit integers stay exact.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(BTreeMap<String, Value>),
}

impl Value {
    /// The member `key` of an object (`Null` if absent or not an object).
    pub fn get(&self, key: &str) -> &Value {
        match self {
            Value::Object(m) => m.get(key).unwrap_or(&Value::Null),
            _ => &Value::Null,
        }
    }

    /// The value as an integer, if it is one.
    pub fn int(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// The value as a float, if it is a number.
    pub fn float(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// The value as a string slice, if it is a string.
    pub fn str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The items of an array (none for anything else).
    pub fn items(&self) -> &[Value] {
        match self {
            Value::Array(a) => a,
            _ => &[],
        }
    }
}

/// Parses one JSON value that fills `text` (surrounding white space allowed).
pub fn parse(text: &str) -> Result<Value, String> {
    let mut r = Reader {
        bytes: text.as_bytes(),
        at: 0,
    };
    let v = r.value(0)?;
    r.space();
    if r.at != r.bytes.len() {
        return Err(format!("unexpected text at byte {}", r.at));
    }
    Ok(v)
}

/// Nesting deeper than this is refused.
const DEPTH: usize = 64;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn space(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii_whitespace())
        {
            self.at += 1;
        }
    }

    fn error<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.at))
    }

    fn eat(&mut self, b: u8) -> bool {
        self.space();
        let found = self.bytes.get(self.at) == Some(&b);
        self.at += found as usize;
        found
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            self.error("unknown word")
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > DEPTH {
            return self.error("nesting too deep");
        }
        self.space();
        match self.bytes.get(self.at) {
            None => self.error("unexpected end"),
            Some(b'n') => self.word("null", Value::Null),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'"') => self.string().map(Value::Str),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Ok(Value::Array(items));
                    }
                    if !self.eat(b',') {
                        return self.error("expected ',' or ']'");
                    }
                }
            }
            Some(b'{') => {
                self.at += 1;
                let mut members = BTreeMap::new();
                if self.eat(b'}') {
                    return Ok(Value::Object(members));
                }
                loop {
                    self.space();
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return self.error("expected ':'");
                    }
                    members.insert(key, self.value(depth + 1)?);
                    if self.eat(b'}') {
                        return Ok(Value::Object(members));
                    }
                    if !self.eat(b',') {
                        return self.error("expected ',' or '}'");
                    }
                }
            }
            Some(b) if *b == b'-' || b.is_ascii_digit() => {
                let start = self.at;
                while self
                    .bytes
                    .get(self.at)
                    .is_some_and(|b| b"+-.eE".contains(b) || b.is_ascii_digit())
                {
                    self.at += 1;
                }
                let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("");
                Ok(Value::Number(text.to_string()))
            }
            Some(_) => self.error("unexpected character"),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.bytes.get(self.at) != Some(&b'"') {
            return self.error("expected a string");
        }
        self.at += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(&b) = self.bytes.get(self.at) else {
                return self.error("unterminated string");
            };
            self.at += 1;
            match b {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => {
                    let Some(&e) = self.bytes.get(self.at) else {
                        return self.error("unterminated escape");
                    };
                    self.at += 1;
                    let c = match e {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let hex = self.bytes.get(self.at..self.at + 4).unwrap_or(b"");
                            let code = std::str::from_utf8(hex)
                                .ok()
                                .and_then(|h| u32::from_str_radix(h, 16).ok());
                            self.at += 4;
                            code.and_then(char::from_u32).unwrap_or('\u{fffd}')
                        }
                        other => other as char,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(b),
            }
        }
    }
}

/// One type of a trace, as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Traced {
    /// The record's number in its process.
    pub number: i64,
    /// The process id.
    pub pid: i64,
    /// The rank, if it was known.
    pub rank: Option<i64>,
    /// The handle, as written (`0x8c000001`).
    pub handle: String,
    /// The expression that builds the type.
    pub expression: String,
    /// Whether the expression is whole.
    pub expression_complete: bool,
    /// Size in bytes.
    pub size: i64,
    /// Extent in bytes.
    pub extent: i64,
    /// Seconds since tracing started when it was built, committed and freed.
    pub built: f64,
    /// When it was committed.
    pub committed: Option<f64>,
    /// How often `MPI_Type_commit` was called on it.
    pub commits: i64,
    /// When it was freed.
    pub freed: Option<f64>,
    /// The calling functions: `(function, library, offset)`.
    pub built_at: Vec<(Option<String>, String, String)>,
    /// Pack calls and bytes.
    pub packs: (i64, i64),
    /// Unpack calls and bytes.
    pub unpacks: (i64, i64),
    /// Warnings: `(name, severity, message, standard)`.
    pub warnings: Vec<(String, String, String, Option<String>)>,
}

impl Traced {
    /// The record of one trace line.
    pub fn from_line(line: &str) -> Result<Traced, String> {
        let v = parse(line)?;
        let text = |v: &Value| v.str().unwrap_or("").to_string();
        let time = |v: &Value| v.get("time").float();
        let count = |key: &str| v.get(key).int().unwrap_or(0);
        if v.get("expression").str().is_none() {
            return Err("not a trace record (no \"expression\")".into());
        }
        Ok(Traced {
            number: count("type"),
            pid: count("pid"),
            rank: v.get("rank").int(),
            handle: text(v.get("handle")),
            expression: text(v.get("expression")),
            expression_complete: v.get("expression_complete") == &Value::Bool(true),
            size: count("size"),
            extent: count("extent"),
            built: time(v.get("built")).unwrap_or(0.0),
            committed: time(v.get("committed")),
            commits: count("commits"),
            freed: time(v.get("freed")),
            built_at: v
                .get("built_at")
                .items()
                .iter()
                .map(|f| {
                    (
                        f.get("function").str().map(str::to_string),
                        text(f.get("library")),
                        text(f.get("offset")),
                    )
                })
                .collect(),
            packs: (count("packs"), count("pack_bytes")),
            unpacks: (count("unpacks"), count("unpack_bytes")),
            warnings: v
                .get("warnings")
                .items()
                .iter()
                .map(|w| {
                    (
                        text(w.get("name")),
                        text(w.get("severity")),
                        text(w.get("message")),
                        w.get("standard").str().map(str::to_string),
                    )
                })
                .collect(),
        })
    }
}

/// Every record of a trace file's text (blank lines skipped); an error names the line.
pub fn records(text: &str) -> Result<Vec<Traced>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| Traced::from_line(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}
