//! Generates `mpi_dtype.h` into `OUT_DIR`: the exported functions and structs with cbindgen
//! (configured by `cbindgen.toml`), the crate version from `Cargo.toml`, and the constants of
//! MPICH's ABI from their one table, `src/abi_constants.rs`, which this script reads through
//! its own definition of the table's macro (the library reads it through another).
//!
//! Nothing is written outside `OUT_DIR`. The header committed as `include/mpi_dtype.h` must
//! equal the generated one: `cargo test --test header` checks it, and
//! `MPI_DTYPE_BLESS=1 cargo test --test header` copies the generated header there.

use std::env;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The C types of the table's values, as in `src/abi.rs`.
#[allow(non_camel_case_types, dead_code)]
mod c_types {
    pub type c_int = i32;
    pub type MPI_Datatype = i32;
    pub type MPI_Comm = i32;
    pub type MPI_Errhandler = i32;
    pub type MPI_Aint = i64;
    pub type MPI_Count = i64;
}

/// One constant of the table.
struct Constant {
    name: &'static str,
    /// The Rust type name, which is also the C type name (`c_int` is `int`).
    ty: &'static str,
    value: i64,
    /// The value as written in the table: a number, or the name of the constant it aliases.
    written: &'static str,
    doc: &'static str,
}

/// Reads the table into a list of [`Constant`]s.
macro_rules! abi_constants {
    ($($(#[doc = $doc:literal])* $name:ident : $ty:ident = $value:expr;)*) => {
        #[allow(non_upper_case_globals, dead_code, clippy::unnecessary_cast)]
        fn table() -> Vec<Constant> {
            use c_types::*;
            $(const $name: $ty = $value;)*
            vec![$(Constant {
                name: stringify!($name),
                ty: stringify!($ty),
                value: $name as i64,
                written: stringify!($value),
                doc: concat!($($doc),*),
            }),*]
        }
    };
}

include!("src/abi_constants.rs");

/// The `#define` of each constant, written the way MPICH's `mpi.h` writes it: handles as
/// `((TYPE)0x...)`, other numbers parenthesized, aliases by name; the doc comment above each
/// becomes a C comment.
fn abi_defines() -> String {
    let mut out = String::from("/* Constants of MPICH's ABI (from src/abi_constants.rs). */\n");
    for c in table() {
        let is_alias = c.written.starts_with(|ch: char| ch.is_ascii_alphabetic());
        let text = if is_alias {
            c.written.to_string()
        } else if c.ty != "c_int" {
            format!("(({}){:#010x})", c.ty, c.value as u32)
        } else if c.written.starts_with("0x") {
            format!("({:#x})", c.value)
        } else {
            format!("({})", c.value)
        };
        let doc = c.doc.trim().replace("*/", "* /");
        if !doc.is_empty() {
            let _ = writeln!(out, "/* {doc} */");
        }
        let _ = writeln!(out, "#define {} {}", c.name, text);
    }
    out
}

/// The exported `MPI_*` / `MPIX_*` functions of the header (cbindgen writes each prototype
/// on one line: `int MPI_Type_size(MPI_Datatype datatype, int *size);`): each line as
/// written and the function's name.
fn prototypes(header: &str) -> Vec<(&str, &str)> {
    header
        .lines()
        .filter(|line| line.ends_with(");"))
        .filter_map(|line| {
            let (head, _) = line.split_once('(')?;
            let name = head.rsplit([' ', '*']).next()?;
            let exported = name.starts_with("MPI_") || name.starts_with("MPIX_");
            (exported && !head.starts_with("#")).then_some((line, name))
        })
        .collect()
}

/// The header with the prototype of `PMPI_<name>` for every exported `MPI_<name>` /
/// `MPIX_<name>` (MPI-4.1 §15.2, the profiling interface), and the names of those functions.
fn with_profiling_prototypes(header: &str) -> (String, Vec<String>) {
    let found = prototypes(header);
    let names: Vec<String> = found.iter().map(|(_, name)| name.to_string()).collect();
    let mut block = String::from(
        "/*\n Profiling interface: each PMPI_ function is the MPI_ (or MPIX_) function of the same\n \
         name, at the same address (a tool that defines MPI_X can call PMPI_X).\n */\n",
    );
    for (line, name) in &found {
        let _ = writeln!(block, "{}", line.replacen(name, &format!("P{name}"), 1));
    }
    block.push('\n');
    let end = "#ifdef __cplusplus\n}  // extern \"C\"";
    let at = header
        .rfind(end)
        .expect("cbindgen closes the extern \"C\" block at the end");
    (
        format!("{}{}{}", &header[..at], block, &header[at..]),
        names,
    )
}

/// Makes `PMPI_<name>` a second name of each exported function of the shared library: the
/// linker defines it at the function's address and exports it (a version script of its
/// own, next to the one rustc writes). A profiling tool that defines `MPI_<name>` and calls
/// `PMPI_<name>` so reaches this library's function directly.
fn profiling_aliases(names: &[String]) {
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let script = out_dir.join("pmpi.ver");
    let mut text = String::from("{\n  global:\n");
    for name in names {
        let _ = writeln!(text, "    P{name};");
        println!("cargo:rustc-cdylib-link-arg=-Wl,--defsym=P{name}={name}");
    }
    text.push_str("};\n");
    std::fs::write(&script, text).expect("OUT_DIR is writable");
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,--version-script={}",
        script.display()
    );
}

fn main() {
    let crate_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets the manifest dir"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let version = env::var("CARGO_PKG_VERSION").expect("cargo sets the version");
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    let minor = env::var("CARGO_PKG_VERSION_MINOR").expect("cargo sets the version");
    let patch = env::var("CARGO_PKG_VERSION_PATCH").expect("cargo sets the version");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=src");

    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is readable and valid");
    let stamp = format!(
        "\n/* Version of mpi-dtype (from Cargo.toml). */\n\
         #define MPI_DTYPE_VERSION \"{version}\"\n\
         #define MPI_DTYPE_VERSION_MAJOR {major}\n\
         #define MPI_DTYPE_VERSION_MINOR {minor}\n\
         #define MPI_DTYPE_VERSION_PATCH {patch}\n"
    );
    config.after_includes = Some(format!(
        "{}{}\n{}",
        stamp,
        config.after_includes.unwrap_or_default(),
        abi_defines()
    ));

    let header = out_dir.join("mpi_dtype.h");
    let mut text = Vec::new();
    match cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
    {
        Ok(bindings) => bindings.write(&mut text),
        Err(e) => panic!("cbindgen could not generate mpi_dtype.h: {e}"),
    }
    let text = String::from_utf8(text).expect("cbindgen writes UTF-8");
    let (text, names) = with_profiling_prototypes(&text);
    std::fs::write(&header, text).expect("OUT_DIR is writable");
    profiling_aliases(&names);
    // Where the tests find the generated header.
    println!(
        "cargo:rustc-env=MPI_DTYPE_GENERATED_HEADER={}",
        header.display()
    );
}
