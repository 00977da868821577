//! Generates `include/mpi_dtype.h` from the exported functions and constants with cbindgen,
//! configured by `cbindgen.toml`, and stamps the crate version into it.

use std::env;
use std::path::PathBuf;

fn main() {
    let crate_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets the manifest dir"));
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
    let abi =
        std::fs::read_to_string(crate_dir.join("src/abi.rs")).expect("src/abi.rs is readable");
    config.after_includes = Some(format!(
        "{}{}\n{}",
        stamp,
        config.after_includes.unwrap_or_default(),
        abi_defines(&abi)
    ));

    match cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
    {
        Ok(bindings) => {
            bindings.write_to_file(crate_dir.join("include").join("mpi_dtype.h"));
        }
        Err(e) => panic!("cbindgen could not generate include/mpi_dtype.h: {e}"),
    }
}

/// Turns every `pub const NAME: TYPE = VALUE;` of `src/abi.rs` into a `#define` written the way
/// MPICH's `mpi.h` writes it: handles as `((TYPE)0x...)`, other numbers parenthesized, aliases
/// by name; the doc comment above each constant becomes a C comment.
fn abi_defines(abi: &str) -> String {
    let mut out = String::from("/* Constants of MPICH's ABI (from src/abi.rs). */\n");
    let mut doc = Vec::new();
    for line in abi.lines().map(str::trim) {
        if let Some(text) = line.strip_prefix("///") {
            doc.push(text.trim().replace("*/", "* /"));
            continue;
        }
        let Some(rest) = line.strip_prefix("pub const ") else {
            doc.clear();
            continue;
        };
        let (name, rest) = rest.split_once(':').expect("pub const NAME: TYPE = VALUE;");
        let (ty, value) = rest.split_once('=').expect("pub const NAME: TYPE = VALUE;");
        let (ty, value) = (ty.trim(), value.trim().trim_end_matches(';').trim());
        let value = value
            .split(" as ")
            .next()
            .expect("a value")
            .trim_end_matches("u32");
        let is_number = value.starts_with(|c: char| c.is_ascii_digit() || c == '-');
        let text = if !is_number {
            value.to_string()
        } else if value.starts_with("0x") && ty != "c_int" {
            format!("(({ty}){value})")
        } else {
            format!("({value})")
        };
        if !doc.is_empty() {
            out.push_str(&format!("/* {} */\n", doc.join(" ")));
        }
        out.push_str(&format!("#define {} {}\n", name.trim(), text));
        doc.clear();
    }
    out
}
