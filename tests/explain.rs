//! `MPIX_Type_explain`'s core and `mpi-dtype-explain`, used as a person would: the JSON of
//! random types against the naive model `TypeMap::of`, the expression language for every
//! constructor (and the round trip of every explanation's expression), errors pointing at the
//! offending character, pathological types within size and time bounds, each warning
//! triggered and not, and the README's picture. (The command-line tool itself is tested in
//! the explain crate, `explain/tests/cli.rs`.)

mod common;

use common::*;
use mpi_dtype::abi::*;
use mpi_dtype::datatype::typemap::{Item, TypeMap};
use mpi_dtype::datatype::{construct, Basic, Datatype};
use mpi_dtype::pack;
use mpi_dtype_core::error::ErrorClass;
use mpi_dtype_explain::parse::{parse, ErrorKind};
use mpi_dtype_explain::warnings::{self, Warning};
use mpi_dtype_explain::{explain, facts, Format};
use proptest::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

// ---- a small JSON reader, enough to check the JSON format ----------------------------------

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(i64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(fields) => fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no key {key:?}")),
            _ => panic!("not an object when looking for {key:?}"),
        }
    }
    fn int(&self) -> i64 {
        match self {
            Json::Num(n) => *n,
            other => panic!("not a number: {other:?}"),
        }
    }
    fn bool(&self) -> bool {
        match self {
            Json::Bool(b) => *b,
            other => panic!("not a boolean: {other:?}"),
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }
    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            other => panic!("not an array: {other:?}"),
        }
    }
}

/// Parses a whole JSON document (integers only, as the explanation writes no fractions).
fn read_json(text: &str) -> Json {
    let mut r = Reader {
        b: text.as_bytes(),
        at: 0,
    };
    let v = r.value();
    r.space();
    assert_eq!(r.at, r.b.len(), "trailing characters after the JSON value");
    v
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn space(&mut self) {
        while self.at < self.b.len() && self.b[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }
    fn eat(&mut self, c: u8) {
        self.space();
        assert_eq!(
            self.b.get(self.at),
            Some(&c),
            "expected {:?} at {}",
            c as char,
            self.at
        );
        self.at += 1;
    }
    fn value(&mut self) -> Json {
        self.space();
        match self.b[self.at] {
            b'{' => {
                self.at += 1;
                let mut fields = Vec::new();
                self.space();
                if self.b[self.at] == b'}' {
                    self.at += 1;
                    return Json::Obj(fields);
                }
                loop {
                    self.space();
                    let Json::Str(key) = self.value() else {
                        panic!("object key is not a string")
                    };
                    self.eat(b':');
                    fields.push((key, self.value()));
                    self.space();
                    self.at += 1;
                    match self.b[self.at - 1] {
                        b',' => continue,
                        b'}' => return Json::Obj(fields),
                        c => panic!("unexpected {:?} in an object", c as char),
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.b[self.at] == b']' {
                    self.at += 1;
                    return Json::Arr(items);
                }
                loop {
                    items.push(self.value());
                    self.space();
                    self.at += 1;
                    match self.b[self.at - 1] {
                        b',' => continue,
                        b']' => return Json::Arr(items),
                        c => panic!("unexpected {:?} in an array", c as char),
                    }
                }
            }
            b'"' => {
                self.at += 1;
                let mut s = String::new();
                loop {
                    let c = self.b[self.at];
                    self.at += 1;
                    match c {
                        b'"' => return Json::Str(s),
                        b'\\' => {
                            let e = self.b[self.at];
                            self.at += 1;
                            match e {
                                b'n' => s.push('\n'),
                                b't' => s.push('\t'),
                                b'r' => s.push('\r'),
                                b'u' => {
                                    let hex =
                                        std::str::from_utf8(&self.b[self.at..self.at + 4]).unwrap();
                                    s.push(
                                        char::from_u32(u32::from_str_radix(hex, 16).unwrap())
                                            .unwrap(),
                                    );
                                    self.at += 4;
                                }
                                other => s.push(other as char),
                            }
                        }
                        c if c < 0x20 => panic!("raw control character in a JSON string"),
                        _ => {
                            // Copy the whole UTF-8 sequence.
                            let start = self.at - 1;
                            let mut end = self.at;
                            while end < self.b.len() && (self.b[end] & 0xc0) == 0x80 {
                                end += 1;
                            }
                            s.push_str(std::str::from_utf8(&self.b[start..end]).unwrap());
                            self.at = end;
                        }
                    }
                }
            }
            b't' => self.word("true", Json::Bool(true)),
            b'f' => self.word("false", Json::Bool(false)),
            b'n' => self.word("null", Json::Null),
            _ => {
                let start = self.at;
                if self.b[self.at] == b'-' {
                    self.at += 1;
                }
                while self.at < self.b.len() && self.b[self.at].is_ascii_digit() {
                    self.at += 1;
                }
                let text = std::str::from_utf8(&self.b[start..self.at]).unwrap();
                Json::Num(
                    text.parse()
                        .unwrap_or_else(|_| panic!("bad number {text:?}")),
                )
            }
        }
    }
    fn word(&mut self, w: &str, v: Json) -> Json {
        assert_eq!(&self.b[self.at..self.at + w.len()], w.as_bytes());
        self.at += w.len();
        v
    }
}

#[test]
fn the_json_reader_reads_what_it_should() {
    let v = read_json(r#"{"a": [1, -2, "x\"y\u0041"], "b": {"c": null, "d": true}}"#);
    assert_eq!(v.get("a").arr()[1].int(), -2);
    assert_eq!(v.get("a").arr()[2].str(), "x\"yA");
    assert_eq!(v.get("b").get("c"), &Json::Null);
    assert!(v.get("b").get("d").bool());
}

// ---- helpers -------------------------------------------------------------------------------

fn json_of(dt: &Datatype) -> Json {
    read_json(&explain(dt, Format::Json))
}

fn names(entries: &[(Basic, i64)]) -> Vec<(String, i64)> {
    entries
        .iter()
        .map(|(b, d)| (b.info().name.to_string(), *d))
        .collect()
}

fn json_pairs(v: &Json) -> Vec<(String, i64)> {
    v.arr()
        .iter()
        .map(|p| (p.arr()[0].str().to_string(), p.arr()[1].int()))
        .collect()
}

fn marker_span(tm: &TypeMap, lower: bool) -> Option<(i64, i64)> {
    let disps: Vec<i64> = tm
        .entries
        .iter()
        .filter(|e| matches!((e.item, lower), (Item::Lb, true) | (Item::Ub, false)))
        .map(|e| e.disp)
        .collect();
    Some((*disps.iter().min()?, *disps.iter().max()?))
}

fn model_runs(dt: &Datatype) -> Vec<(i64, i64)> {
    let mut runs = Vec::new();
    pack::for_each_run(dt, 1, |d, l| runs.push((d, l as i64)));
    runs
}

fn warning_names(dt: &Datatype) -> Vec<&'static str> {
    warnings::check(dt).iter().map(Warning::name).collect()
}

fn t(expression: &str) -> Arc<Datatype> {
    parse(expression).unwrap_or_else(|e| panic!("{}", e.report(expression)))
}

/// Byte intervals `[start, end)` of the data of one copy moved by `shift`, sorted and merged.
fn covered(tm: &TypeMap, shift: i64) -> Vec<(i64, i64)> {
    let mut spans: Vec<(i64, i64)> = tm
        .data_entries()
        .iter()
        .map(|(b, d)| (d + shift, d + shift + b.size()))
        .collect();
    spans.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::new();
    for (s, e) in spans {
        match out.last_mut() {
            Some((_, end)) if s <= *end => *end = (*end).max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

fn intersect(a: &[(i64, i64)], b: &[(i64, i64)]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].0.max(b[j].0) < a[i].1.min(b[j].1) {
            return true;
        }
        if a[i].1 <= b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    false
}

// ---- random types against the model ----------------------------------------------------------

proptest! {
    #![proptest_config(proptest_config(2048))]

    /// The JSON's bounds, markers, type map and runs equal the naive model's.
    #[test]
    fn json_matches_the_model(case in any_case()) {
        let (dt, tm) = (&case.dt, &case.tm);
        let j = json_of(dt);
        prop_assert_eq!(j.get("size").int(), tm.size());
        prop_assert_eq!(j.get("lb").int(), tm.lb());
        prop_assert_eq!(j.get("ub").int(), tm.ub());
        prop_assert_eq!(j.get("extent").int(), tm.extent());
        prop_assert_eq!(j.get("true_lb").int(), tm.true_lb());
        prop_assert_eq!(j.get("true_extent").int(), tm.true_ub() - tm.true_lb());
        let data = tm.data_entries();
        prop_assert_eq!(j.get("typemap_count").int(), data.len() as i64);
        let shown = json_pairs(j.get("typemap"));
        prop_assert_eq!(j.get("typemap_truncated").bool(), shown.len() < data.len());
        prop_assert_eq!(&shown[..], &names(&data)[..shown.len()]);
        prop_assert!(shown.len() == data.len() || shown.len() == facts::ENTRY_LIMIT);
        let span = |v: &Json| match v {
            Json::Null => None,
            v => Some((v.arr()[0].int(), v.arr()[1].int())),
        };
        prop_assert_eq!(span(j.get("markers").get("lb")), marker_span(tm, true));
        prop_assert_eq!(span(j.get("markers").get("ub")), marker_span(tm, false));
        let runs: Vec<(i64, i64)> = j.get("runs").arr().iter().map(|p| (p.arr()[0].int(), p.arr()[1].int())).collect();
        let expected = model_runs(dt);
        prop_assert_eq!(j.get("run_count").int(), expected.len() as i64);
        prop_assert!(j.get("run_count_exact").bool());
        prop_assert_eq!(&runs[..], &expected[..runs.len()]);
        // The signature is the model's, in short form.
        let signature = json_pairs(j.get("signature"));
        if j.get("signature_complete").bool() {
            let model: Vec<(String, i64)> = facts::compress(&data).iter().map(|(b, n)| (b.info().name.to_string(), *n)).collect();
            prop_assert_eq!(signature, model);
        }
    }

    /// A whole expression builds the same type again: every constructor of the random types
    /// goes through the parser.
    #[test]
    fn expressions_build_the_same_type(case in any_case()) {
        let j = json_of(&case.dt);
        let expression = j.get("expression").str().to_string();
        prop_assume!(j.get("expression_complete").bool());
        let again = parse(&expression).map_err(|e| TestCaseError::fail(e.report(&expression)))?;
        prop_assert_eq!(TypeMap::of(&again), case.tm.clone(), "{}", expression);
        prop_assert_eq!(again.extent(), case.dt.extent());
    }

    /// The warnings about overlaps, alignment and runs agree with the model's type map.
    #[test]
    fn warnings_match_the_model(case in any_case()) {
        let (dt, tm) = (&case.dt, &case.tm);
        let found = warning_names(dt);
        let has = |name: &str| found.contains(&name);
        prop_assert_eq!(has("overlapping-entries"), !tm.non_overlapping(1));
        // Copy 0 and copy 1 share a byte (copies that only interleave are allowed).
        let copy0 = covered(tm, 0);
        let span = tm.true_ub() - tm.true_lb();
        let step = tm.extent().abs();
        let copies_overlap = !copy0.is_empty()
            && step < span
            && (step == 0 || intersect(&copy0, &covered(tm, step)));
        prop_assert_eq!(has("extent-shorter-than-data"), copies_overlap);
        let data = tm.data_entries();
        let align = data.iter().map(|(b, _)| b.align()).max().unwrap_or(1);
        let misaligned = data.iter().any(|(b, d)| d.rem_euclid(b.align()) != 0)
            || (!data.is_empty() && tm.extent().rem_euclid(align) != 0);
        prop_assert_eq!(has("misaligned-member"), misaligned);
        let runs = model_runs(dt);
        let derived = !matches!(case.spec, Spec::Leaf(_));
        prop_assert_eq!(has("single-contiguous-run"), derived && data.len() >= 2 && runs.len() == 1);
        let per_block = runs.len() as i64 >= warnings::MANY_RUNS
            && tm.size() / (runs.len() as i64) < warnings::SHORT_RUN;
        prop_assert_eq!(has("per-block-bound"), per_block);
    }

    /// Every format renders; the SVG is one picture and the HTML one page.
    #[test]
    fn every_format_renders(case in any_case()) {
        let svg = explain(&case.dt, Format::Svg);
        prop_assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        prop_assert_eq!(svg.matches("<svg ").count(), 1);
        let html = explain(&case.dt, Format::Html);
        prop_assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
        let text = explain(&case.dt, Format::Text);
        prop_assert!(text.contains("true extent"));
    }
}

// ---- the expression language -----------------------------------------------------------------

/// Every constructor of the language, each checked against the same type built directly.
#[test]
fn every_constructor_parses_to_the_type_it_names() {
    let int = pre(MPI_INT);
    let double = pre(MPI_DOUBLE);
    let cases: Vec<(&str, Arc<Datatype>)> = vec![
        ("MPI_DOUBLE_INT", pre(MPI_DOUBLE_INT)),
        (
            "contiguous(3, MPI_INT)",
            construct::contiguous(3, &int, false).unwrap(),
        ),
        (
            "vector(4, 1, 5, MPI_DOUBLE)",
            construct::vector(4, 1, 5, false, &double, false).unwrap(),
        ),
        (
            "hvector(2, 3, 40, MPI_INT)",
            construct::vector(2, 3, 40, true, &int, false).unwrap(),
        ),
        (
            "indexed([3, 1], [4, 0], MPI_INT)",
            construct::indexed(vec![3, 1], vec![4, 0], false, &int, false).unwrap(),
        ),
        (
            "hindexed([1, 2], [-8, 16], MPI_DOUBLE)",
            construct::indexed(vec![1, 2], vec![-8, 16], true, &double, false).unwrap(),
        ),
        (
            "indexed_block(2, [0, 5, 9], MPI_INT)",
            construct::indexed_block(2, vec![0, 5, 9], false, &int, false).unwrap(),
        ),
        (
            "hindexed_block(1, [24, 0], MPI_DOUBLE)",
            construct::indexed_block(1, vec![24, 0], true, &double, false).unwrap(),
        ),
        (
            "struct([1, 1, 3], [0, 8, 16], [MPI_INT, MPI_DOUBLE, MPI_CHAR])",
            construct::structure(
                vec![1, 1, 3],
                vec![0, 8, 16],
                vec![int.clone(), double.clone(), pre(MPI_CHAR)],
                false,
            )
            .unwrap(),
        ),
        (
            "subarray([4, 6], [2, 3], [1, 2], C, MPI_INT)",
            construct::subarray(
                vec![4, 6],
                vec![2, 3],
                vec![1, 2],
                mpi_dtype::datatype::Order::C,
                &int,
                false,
            )
            .unwrap(),
        ),
        (
            "subarray([4, 6], [2, 3], [1, 2], FORTRAN, MPI_INT)",
            construct::subarray(
                vec![4, 6],
                vec![2, 3],
                vec![1, 2],
                mpi_dtype::datatype::Order::Fortran,
                &int,
                false,
            )
            .unwrap(),
        ),
        (
            "darray(4, 1, [8, 8], [BLOCK, CYCLIC], [DFLT, 2], [2, 2], C, MPI_DOUBLE)",
            construct::darray(
                mpi_dtype::datatype::DarrayArgs {
                    size: 4,
                    rank: 1,
                    gsizes: vec![8, 8],
                    distribs: vec![
                        mpi_dtype::datatype::Distribution::Block,
                        mpi_dtype::datatype::Distribution::Cyclic,
                    ],
                    dargs: vec![None, Some(2)],
                    psizes: vec![2, 2],
                    order: mpi_dtype::datatype::Order::C,
                },
                &double,
                false,
            )
            .unwrap(),
        ),
        (
            "resized(MPI_INT, -4, 16)",
            construct::resized(&int, -4, 16, false).unwrap(),
        ),
        ("dup(MPI_INT)", construct::dup(&int)),
        (
            "MPI_Type_create_resized(MPI_Type_vector(2, 1, 3, MPI_INT), 0, 4)",
            construct::resized(
                construct::vector(2, 1, 3, false, &int, false).unwrap(),
                0,
                4,
                false,
            )
            .unwrap(),
        ),
        (
            "f90_real(6, 30)",
            construct::f90(
                mpi_dtype::datatype::F90Class::Real,
                Some(6),
                Some(30),
                &pre(MPI_REAL4),
            ),
        ),
        (
            "f90_real(MPI_UNDEFINED, 300)",
            construct::f90(
                mpi_dtype::datatype::F90Class::Real,
                None,
                Some(300),
                &pre(MPI_REAL8),
            ),
        ),
        (
            "f90_integer(5)",
            construct::f90(
                mpi_dtype::datatype::F90Class::Integer,
                None,
                Some(5),
                &pre(MPI_INTEGER4),
            ),
        ),
    ];
    for (expression, built) in cases {
        let parsed = t(expression);
        assert_eq!(TypeMap::of(&parsed), TypeMap::of(&built), "{expression}");
        assert_eq!(parsed.extent(), built.extent(), "{expression}");
        assert_eq!(
            parsed.combiner.name(),
            built.combiner.name(),
            "{expression}"
        );
        // The explanation writes the expression back (modulo spacing).
        let (written, whole) = mpi_dtype_explain::constructor::expression(&parsed);
        assert!(whole);
        assert_eq!(TypeMap::of(&t(&written)), TypeMap::of(&built), "{written}");
    }
    // Synonyms of the predefined table's names.
    assert_eq!(t("MPI_LONG_LONG").size(), 8);
    assert_eq!(t("MPI_C_FLOAT_COMPLEX").size(), 8);
}

/// Syntax errors point at the offending character; constructor failures carry the MPI error
/// class and the constructor's message.
#[test]
fn errors_point_at_the_offending_character() {
    let cases: [(&str, usize, &str); 9] = [
        (
            "struct([1,1,3], [0,8,16], [MPI_INT MPI_DOUBLE, MPI_CHAR])",
            35,
            "expected ',' or ']'",
        ),
        ("vector(4, 1, 5, MPI_DOUBLE", 26, "expected ',' or ')'"),
        (
            "contiguous(3, MPI_NOPE)",
            14,
            "unknown predefined datatype MPI_NOPE",
        ),
        ("contigous(3, MPI_INT)", 0, "unknown constructor contigous"),
        ("vector(4, 1, MPI_INT)", 13, "stride must be a number"),
        ("contiguous(3, MPI_INT, 4)", 23, "takes no more arguments"),
        ("subarray([4], [2], [1], ROWS, MPI_INT)", 24, "C or FORTRAN"),
        ("contiguous(3, MPI_INT) x", 23, "after the end"),
        (
            "contiguous(99999999999999999999, MPI_INT)",
            11,
            "does not fit 64 bits",
        ),
    ];
    for (expression, position, message) in cases {
        let e = parse(expression).expect_err(expression);
        assert_eq!(e.kind, ErrorKind::Syntax, "{expression}");
        assert_eq!(e.position, position, "{expression}: {}", e.message);
        assert!(e.message.contains(message), "{expression}: {}", e.message);
        let report = e.report(expression);
        let lines: Vec<&str> = report.lines().collect();
        assert_eq!(lines[1], format!("  {expression}"));
        assert_eq!(lines[2], format!("  {}^", " ".repeat(position)));
    }
    let semantic: [(&str, ErrorClass, &str); 4] = [
        (
            "vector(-1, 1, 2, MPI_INT)",
            ErrorClass::Count,
            "count must be non-negative",
        ),
        (
            "hindexed([1, 2], [0], MPI_INT)",
            ErrorClass::Arg,
            "differ in length",
        ),
        (
            "darray(4, 7, [8], [BLOCK], [DFLT], [4], C, MPI_INT)",
            ErrorClass::Rank,
            "rank",
        ),
        (
            "contiguous(2, resized(MPI_INT, 0, 9223372036854775807))",
            ErrorClass::Arg,
            "overflow",
        ),
    ];
    for (expression, class, message) in semantic {
        let e = parse(expression).expect_err(expression);
        assert_eq!(e.kind, ErrorKind::Mpi(class), "{expression}: {}", e.message);
        assert!(e.message.contains(message), "{expression}: {}", e.message);
        assert!(e.report(expression).starts_with(class.name()));
    }
}

// ---- pathological types --------------------------------------------------------------------

/// Every format of `dt`: each at most `max_bytes` long, all four within `max_time`.
fn all_formats_bounded(dt: &Datatype, max_bytes: usize, max_time: Duration) -> Vec<String> {
    let start = Instant::now();
    let out: Vec<String> = Format::ALL.iter().map(|&f| explain(dt, f)).collect();
    let took = start.elapsed();
    assert!(took < max_time, "took {took:?}");
    for (f, o) in Format::ALL.iter().zip(&out) {
        assert!(o.len() <= max_bytes, "{} is {} bytes", f.name(), o.len());
    }
    out
}

#[test]
fn empty_types_are_explained() {
    // A marker alone is empty too, in MPICH's ABI (the standard ABI removed MPI_LB).
    let marker = ["MPI_LB"]
        .into_iter()
        .filter(|_| cfg!(not(abi = "standard")));
    for expression in [
        "contiguous(0, MPI_INT)",
        "struct([0, 2], [29, 0], [MPI_DOUBLE, contiguous(0, MPI_INT)])",
        "resized(contiguous(0, MPI_INT), 4, 8)",
    ]
    .into_iter()
    .chain(marker)
    {
        let dt = t(expression);
        let out = all_formats_bounded(&dt, 64 << 10, Duration::from_secs(5));
        let j = read_json(&out[1]);
        assert_eq!(j.get("size").int(), 0);
        assert_eq!(j.get("typemap").arr().len(), 0);
        assert_eq!(j.get("run_count").int(), 0);
        assert!(out[0].contains("signature: (empty)"), "{expression}");
        assert!(out[2].contains("no data"), "{expression}");
        assert!(warning_names(&dt).is_empty(), "{expression}");
    }
}

/// MPI_LB and MPI_UB exist in MPICH's ABI and Open MPI's (the standard ABI removed them).
#[cfg(not(abi = "standard"))]
#[test]
fn negative_displacements_and_markers_are_explained() {
    let dt = t("struct([1, 1, 1, 1], [-16, -8, 0, 24], [MPI_LB, MPI_DOUBLE, MPI_INT, MPI_UB])");
    let j = json_of(&dt);
    assert_eq!(
        (j.get("lb").int(), j.get("ub").int(), j.get("extent").int()),
        (-16, 24, 40)
    );
    assert_eq!((j.get("true_lb").int(), j.get("true_ub").int()), (-8, 4));
    assert_eq!(
        json_pairs(j.get("typemap")),
        vec![("MPI_DOUBLE".into(), -8), ("MPI_INT".into(), 0)]
    );
    assert_eq!(j.get("markers").get("lb").arr()[0].int(), -16);
    assert_eq!(j.get("markers").get("ub").arr()[0].int(), 24);
    let text = explain(&dt, Format::Text);
    assert!(text.contains("lb marker at -16; ub marker at 24"), "{text}");
    let svg = explain(&dt, Format::Svg);
    assert!(svg.contains("copy 0: lb -16, ub 24, extent 40"));
    assert!(svg.contains("copy 1: lb 24, ub 64, extent 40"));
}

/// Ten million blocks: outputs are cut (and say so, with the full counts) and bounded in size
/// and time.
#[test]
fn ten_million_blocks_stay_small_and_fast() {
    let n = 10_000_000i64;
    let displacements: Vec<i64> = (0..n).map(|k| (k * 24) ^ 8).collect();
    let dt = construct::indexed_block(1, displacements, true, pre(MPI_DOUBLE), false).unwrap();
    let out = all_formats_bounded(&dt, 1 << 20, Duration::from_secs(60));
    let j = read_json(&out[1]);
    assert_eq!(j.get("typemap_count").int(), n);
    assert!(j.get("typemap_truncated").bool());
    assert_eq!(j.get("typemap").arr().len(), facts::ENTRY_LIMIT);
    assert!(j.get("runs_truncated").bool());
    assert!(j.get("run_count").int() >= facts::RUN_COUNT_WALK);
    assert!(out[0].contains("10000000 entries, the first 64 shown"));
    assert!(out[2].contains("Where the data of one copy lies"));
    assert!(out[2].contains("The first 48 of 10000000 entries"));
    assert!(warning_names(&dt).contains(&"per-block-bound"));
    // Entries far beyond a billion are not counted one by one.
    for expression in [
        "contiguous(1000000000, MPI_INT)",
        "vector(1000000000, 1, 2, MPI_INT)",
        "vector(1000000, 1000, 2000, MPI_CHAR)",
    ] {
        let dt = t(expression);
        all_formats_bounded(&dt, 1 << 20, Duration::from_secs(30));
    }
}

#[test]
fn deep_types_are_explained() {
    let mut dt = pre(MPI_INT);
    for k in 0..3000 {
        dt = if k % 2 == 0 {
            construct::contiguous(1, &dt, false).unwrap()
        } else {
            construct::dup(&dt)
        };
    }
    let out = all_formats_bounded(&dt, 1 << 20, Duration::from_secs(20));
    assert!(out[0].contains("more constructors not shown"));
    assert!(!read_json(&out[1]).get("expression_complete").bool());
}

// ---- warnings: each triggered, and not ---------------------------------------------------------

fn assert_warns(expression: &str, name: &str, yes: bool) {
    let dt = t(expression);
    let found = warnings::check(&dt);
    let hit = found.iter().find(|w| w.name() == name);
    assert_eq!(hit.is_some(), yes, "{expression}: {found:?}");
    if let Some(w) = hit {
        // Every format carries it.
        assert!(explain(&dt, Format::Text).contains(&format!("[{name}]")));
        let j = json_of(&dt);
        assert!(j
            .get("warnings")
            .arr()
            .iter()
            .any(|x| x.get("name").str() == name));
        assert!(explain(&dt, Format::Html).contains(name));
        assert!(!w.message.is_empty());
    }
}

#[test]
fn overlapping_entries_warning() {
    assert_warns(
        "hindexed([1, 1], [0, 4], MPI_DOUBLE)",
        "overlapping-entries",
        true,
    );
    assert_warns(
        "indexed_block(1, [0, 0], MPI_INT)",
        "overlapping-entries",
        true,
    );
    assert_warns(
        "hindexed([1, 1], [0, 8], MPI_DOUBLE)",
        "overlapping-entries",
        false,
    );
    assert_warns(
        "hindexed([1, 1], [8, 0], MPI_DOUBLE)",
        "overlapping-entries",
        false,
    );
    let w = warnings::check(&t("hindexed([1, 1], [0, 4], MPI_DOUBLE)"));
    assert!(w[0].kind.standard.unwrap().contains("overlapping entries"));
}

#[test]
fn extent_shorter_than_data_warning() {
    assert_warns(
        "resized(contiguous(4, MPI_INT), 0, 8)",
        "extent-shorter-than-data",
        true,
    );
    assert_warns(
        "resized(MPI_DOUBLE, 0, 0)",
        "extent-shorter-than-data",
        true,
    );
    assert_warns(
        "resized(contiguous(2, MPI_INT), 0, -4)",
        "extent-shorter-than-data",
        true,
    );
    // A column of a 4x4 matrix resized to one element interleaves copies without sharing bytes.
    assert_warns(
        "resized(vector(4, 1, 4, MPI_DOUBLE), 0, 8)",
        "extent-shorter-than-data",
        false,
    );
    assert_warns("contiguous(4, MPI_INT)", "extent-shorter-than-data", false);
    // Copy 1 of vector(2, 1, 2, MPI_INT) resized to 8 lands on copy 0's second entry;
    // resized to 4 the copies interleave.
    assert_warns(
        "resized(vector(2, 1, 2, MPI_INT), 0, 8)",
        "extent-shorter-than-data",
        true,
    );
    assert_warns(
        "resized(vector(2, 1, 2, MPI_INT), 0, 4)",
        "extent-shorter-than-data",
        false,
    );
}

#[test]
fn misaligned_member_warning() {
    assert_warns(
        "struct([1, 1], [0, 4], [MPI_INT, MPI_DOUBLE])",
        "misaligned-member",
        true,
    );
    assert_warns("resized(MPI_DOUBLE, 0, 12)", "misaligned-member", true);
    assert_warns(
        "struct([1, 1], [0, 8], [MPI_INT, MPI_DOUBLE])",
        "misaligned-member",
        false,
    );
    assert_warns("hvector(3, 1, 5, MPI_CHAR)", "misaligned-member", false);
}

#[test]
fn single_contiguous_run_warning() {
    assert_warns("contiguous(100, MPI_DOUBLE)", "single-contiguous-run", true);
    assert_warns(
        "struct([1, 1], [0, 4], [MPI_INT, MPI_FLOAT])",
        "single-contiguous-run",
        true,
    );
    assert_warns("MPI_DOUBLE", "single-contiguous-run", false);
    assert_warns(
        "vector(2, 1, 2, MPI_DOUBLE)",
        "single-contiguous-run",
        false,
    );
}

#[test]
fn per_block_bound_warning() {
    assert_warns("vector(1000, 1, 2, MPI_DOUBLE)", "per-block-bound", true);
    assert_warns("vector(1000, 16, 32, MPI_DOUBLE)", "per-block-bound", false);
    assert_warns("vector(10, 1, 2, MPI_DOUBLE)", "per-block-bound", false);
}

#[test]
fn kinds_have_stable_unique_names() {
    let names: Vec<&str> = warnings::KINDS.iter().map(|k| k.name).collect();
    assert_eq!(
        names,
        [
            "overlapping-entries",
            "extent-shorter-than-data",
            "misaligned-member",
            "single-contiguous-run",
            "per-block-bound"
        ]
    );
}

// ---- the README's picture ----------------------------------------------------------------------

/// `docs/images/particle.svg`, shown in the README, is what the tool draws for the README's
/// example; `MPI_DTYPE_BLESS=1 cargo test --release --test explain` writes it again.
#[test]
fn readme_picture_is_the_generated_one() {
    let expression = "struct([1,1,3], [0,8,16], [MPI_INT, MPI_DOUBLE, MPI_CHAR])";
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains(&format!(
        "mpi-dtype-explain '{expression}' --format svg > particle.svg"
    )));
    let generated = explain(&t(expression), Format::Svg);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/images/particle.svg");
    if std::env::var_os("MPI_DTYPE_BLESS").is_some() {
        std::fs::create_dir_all(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/images")).unwrap();
        std::fs::write(path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(path).expect("docs/images/particle.svg");
    assert!(
        committed == generated,
        "docs/images/particle.svg differs from the picture the tool draws; regenerate it with \
         MPI_DTYPE_BLESS=1 cargo test --release --test explain"
    );
}
