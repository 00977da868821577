//! Tracing a real program (`MPI_DTYPE_TRACE`, `src/trace/`): `tests/trace/traced.c` is built
//! against the library (the cdylib next to `mpi-dtype-explain`) and run once per scenario in
//! its own process, and the JSON lines it leaves are checked: the records, the frames that
//! built each type, the counts and bytes of pack and unpack, and each runtime warning
//! triggered by one scenario and absent from the clean one. Then the report tool (the
//! explain crate's `mpi-dtype-explain`, which `cargo test` in the workspace builds beside the
//! library) renders the trace.
#![cfg(abi = "mpich")]

use mpi_dtype::trace::write::file_name;
use mpi_dtype_explain::trace::read::{records, Traced};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The directory of the built tool, the cdylib and this test's scratch files: the profile's
/// directory above this test's own `deps/`.
fn target_dir() -> PathBuf {
    let test = std::env::current_exe().expect("the test's own path");
    test.ancestors()
        .nth(2)
        .expect("the test is in the profile's deps/")
        .to_path_buf()
}

/// The report tool, built by the workspace's `cargo test` (or
/// `cargo build -p mpi-dtype-explain`).
fn tool() -> PathBuf {
    let tool = target_dir().join("mpi-dtype-explain");
    assert!(
        tool.exists(),
        "{} not found: build it with cargo build -p mpi-dtype-explain in the same profile",
        tool.display()
    );
    tool
}

fn scratch() -> PathBuf {
    let dir = target_dir().join("trace-tests");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The library's directory: the cdylib cargo built next to the tool.
fn library_dir() -> PathBuf {
    let dir = target_dir();
    for candidate in [dir.clone(), dir.join("deps")] {
        if candidate.join("libmpi_dtype.so").exists() {
            return candidate;
        }
    }
    panic!("libmpi_dtype.so not found in {}", dir.display());
}

/// The traced program, built once.
fn program() -> &'static Path {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let exe = scratch().join("traced");
        let lib = library_dir();
        let out = Command::new("cc")
            .args([
                "-std=c99",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-O1",
                "-rdynamic",
                "-I",
            ])
            .arg(root.join("include"))
            .arg(root.join("tests/trace/traced.c"))
            .arg("-o")
            .arg(&exe)
            .arg(format!("-L{}", lib.display()))
            .arg("-lmpi_dtype")
            .arg(format!("-Wl,-rpath,{}", lib.display()))
            .output()
            .expect("cc runs");
        assert!(
            out.status.success(),
            "building traced.c failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        exe
    })
}

/// Runs `scenario` (with `extra` arguments) traced into a fresh file; returns its records.
fn run_traced(scenario: &str, extra: &[&str]) -> Vec<Traced> {
    let file = scratch().join(format!("{scenario}{}.jsonl", extra.join("")));
    let _ = std::fs::remove_file(&file);
    let out = Command::new(program())
        .arg(scenario)
        .args(extra)
        .env("MPI_DTYPE_TRACE", &file)
        .output()
        .expect("the program runs");
    assert!(
        out.status.success(),
        "{scenario}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&file).expect("the trace was written");
    records(&text).expect("every line is a record")
}

fn names(t: &Traced) -> Vec<&str> {
    t.warnings.iter().map(|w| w.0.as_str()).collect()
}

fn message<'a>(t: &'a Traced, name: &str) -> &'a str {
    &t.warnings.iter().find(|w| w.0 == name).expect(name).2
}

fn built_by(t: &Traced) -> Option<&str> {
    t.built_at.first().and_then(|f| f.0.as_deref())
}

const RUNTIME: [&str; 3] = [
    "used-uncommitted",
    "committed-twice",
    "still-allocated-at-finalize",
];

#[test]
fn a_clean_run_records_every_type_with_its_counts_and_no_runtime_warning() {
    let r = run_traced("clean", &[]);
    assert_eq!(r.len(), 3, "{r:#?}");
    let (particle, column, copy) = (&r[0], &r[1], &r[2]);
    assert_eq!(
        particle.expression,
        "struct([1, 1, 3], [0, 8, 16], [MPI_INT, MPI_DOUBLE, MPI_CHAR])"
    );
    assert_eq!(column.expression, "vector(4, 1, 2, MPI_DOUBLE)");
    assert_eq!(copy.expression, "dup(vector(4, 1, 2, MPI_DOUBLE))");
    assert_eq!((particle.size, particle.extent), (15, 24));
    assert_eq!(built_by(particle), Some("build_particle"));
    assert_eq!(built_by(column), Some("build_column"));
    // The scenario's function, or main where it was inlined, is further up.
    assert!(particle.built_at[1..]
        .iter()
        .any(|f| matches!(f.0.as_deref(), Some("clean" | "main"))));
    assert!(particle.built_at[0].1.ends_with("/traced"));
    // Pack 2 + 1 particles, unpack 1; pack and unpack 3 columns of 32 bytes.
    assert_eq!(particle.packs, (2, 45));
    assert_eq!(particle.unpacks, (1, 15));
    assert_eq!(column.packs, (1, 96));
    assert_eq!(column.unpacks, (1, 96));
    // Built, then committed, then freed, in that order.
    for t in &r {
        let (committed, freed) = (t.committed.expect("committed"), t.freed.expect("freed"));
        assert!(t.built <= committed && committed <= freed, "{t:#?}");
        assert_eq!(t.commits, 1);
        assert!(t.warnings.iter().all(|w| !RUNTIME.contains(&w.0.as_str())));
    }
    assert_eq!(r.iter().map(|t| t.rank).collect::<Vec<_>>(), [Some(0); 3]);
    assert_ne!(particle.handle, "");
}

#[test]
fn used_uncommitted_is_reported_with_the_call() {
    let r = run_traced("uncommitted", &[]);
    assert_eq!(r.len(), 1);
    assert!(names(&r[0]).contains(&"used-uncommitted"), "{r:#?}");
    let m = message(&r[0], "used-uncommitted");
    assert!(m.contains("1 time,") && m.contains("MPI_Pack"), "{m}");
    // Only the pack after the commit moved bytes.
    assert_eq!(r[0].packs, (1, 32));
}

#[test]
fn committed_twice_is_reported() {
    let r = run_traced("twice", &[]);
    assert_eq!(names(&r[0]), ["committed-twice"]);
    assert_eq!(r[0].commits, 2);
}

#[test]
fn types_still_allocated_at_finalize_name_where_they_were_built() {
    let r = run_traced("leak", &[]);
    assert_eq!(r.len(), 2);
    let m = message(&r[0], "still-allocated-at-finalize");
    assert!(
        m.contains("at MPI_Finalize") && m.contains("build_particle"),
        "{m}"
    );
    assert!(!names(&r[1]).contains(&"still-allocated-at-finalize"));
}

#[test]
fn a_program_that_never_finalizes_is_written_at_exit() {
    let r = run_traced("leak", &["no-finalize"]);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].rank, Some(0), "MPI is still initialized at exit");
    let m = message(&r[0], "still-allocated-at-finalize");
    assert!(m.contains("at exit"), "{m}");
}

#[test]
fn unpacking_into_overlapping_entries_says_when() {
    let r = run_traced("overlap", &[]);
    let (overlapping, column) = (&r[0], &r[1]);
    let m = message(overlapping, "overlapping-entries");
    assert!(
        m.contains("unpacked into while overlapping: 2 times") && m.contains("MPI_Unpack"),
        "{m}"
    );
    assert!(!names(column).contains(&"overlapping-entries"));
    assert_eq!(overlapping.unpacks, (2, 72));
}

#[test]
fn external32_is_counted_and_f90_types_are_recorded_once_and_never_leaked() {
    let r = run_traced("external", &[]);
    assert_eq!(r.len(), 2, "{r:#?}");
    assert_eq!(r[0].packs, (1, 64));
    assert_eq!(r[0].unpacks, (1, 64));
    assert!(r[1].expression.starts_with("f90_real(6, "), "{r:#?}");
    let rebuilt = mpi_dtype_explain::parse::parse(&r[1].expression).expect("it parses");
    assert_eq!(rebuilt.size(), 4);
    assert!(names(&r[1]).is_empty(), "{r:#?}");
}

#[test]
fn tracing_off_writes_nothing() {
    let dir = scratch().join("off");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(program())
        .arg("leak")
        .current_dir(&dir)
        .env_remove("MPI_DTYPE_TRACE")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn runtime_warning_names_are_stable() {
    let names: Vec<&str> = mpi_dtype_explain::warnings::RUNTIME_KINDS
        .iter()
        .map(|k| k.name)
        .collect();
    assert_eq!(names, RUNTIME);
}

#[test]
fn file_names_take_the_pid_and_the_rank() {
    assert_eq!(file_name("t.%p.%r.jsonl", 42, Some(3)), "t.42.3.jsonl");
    assert_eq!(file_name("t.%r", 42, None), "t.pid42");
    assert_eq!(file_name("100%%-%x%", 1, None), "100%-%x%");
    let pattern = scratch().join("ranked.%r.jsonl");
    let file = scratch().join("ranked.0.jsonl");
    let _ = std::fs::remove_file(&file);
    let out = Command::new(program())
        .arg("twice")
        .env("MPI_DTYPE_TRACE", &pattern)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        records(&std::fs::read_to_string(&file).unwrap())
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn the_tool_renders_a_trace_as_html_and_text() {
    let file = scratch().join("report.jsonl");
    let _ = std::fs::remove_file(&file);
    for scenario in ["overlap", "leak"] {
        let out = Command::new(program())
            .arg(scenario)
            .env("MPI_DTYPE_TRACE", &file)
            .output()
            .unwrap();
        assert!(out.status.success());
    }
    let html = Command::new(tool())
        .args(["--trace"])
        .arg(&file)
        .args(["--format", "html"])
        .output()
        .unwrap();
    assert!(
        html.status.success(),
        "{}",
        String::from_utf8_lossy(&html.stderr)
    );
    let page = String::from_utf8(html.stdout).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("<table id=\"types\">") && page.contains("<script>"));
    // Four types, three distinct: the column is drawn once, the second links to it.
    assert_eq!(page.matches("data:image/svg+xml;base64,").count(), 3);
    assert_eq!(page.matches("The same type as").count(), 1);
    assert!(page.contains("still-allocated-at-finalize") && page.contains("build_particle"));
    assert!(!page.contains("src=\"http") && !page.contains("href=\"http"));
    let text = Command::new(tool())
        .arg("--trace")
        .arg(&file)
        .output()
        .unwrap();
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("4 types") && text.contains("warning overlapping-entries"),
        "{text}"
    );
    // A file that is not a trace is an error naming the line.
    let bad = scratch().join("bad.jsonl");
    std::fs::write(&bad, "{\"type\": 1}\n").unwrap();
    let out = Command::new(tool())
        .arg("--trace")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
}
