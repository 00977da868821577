//! Generates `mpi_dtype.h` into `OUT_DIR`: the exported functions and structs with cbindgen
//! (configured by `cbindgen.toml`), the crate version from `Cargo.toml`, and the constants of
//! the ABI the library is built for (MPICH's; the MPI-5.0 standard ABI with the feature
//! `standard-abi`; Open MPI's with `ompi-abi`) from the one table of every ABI's constants,
//! `src/abi/constants.rs`, which this script reads through its own definition of the table's
//! macro (the library reads it through another). For the standard ABI and Open MPI's the C
//! declarations the table cannot express come from `src/abi/standard_preamble.h` and
//! `src/abi/ompi_preamble.h`.
//!
//! Nothing is written outside `OUT_DIR`. The header committed as `include/mpi_dtype.h` (MPICH's
//! ABI), `include/mpi_dtype_abi/mpi_dtype.h` (standard ABI) or
//! `include/mpi_dtype_ompi/mpi_dtype.h` (Open MPI's) must equal the generated one: `cargo test
//! --test header` checks it, and `MPI_DTYPE_BLESS=1 cargo test --test header` copies the
//! generated header there (add `--features standard-abi` or `ompi-abi` for the others).

use std::env;
use std::fmt::Write as _;
use std::path::PathBuf;

include!("src/abi/value_in.rs");

/// One constant of an ABI.
struct Constant {
    name: &'static str,
    /// The Rust type name, which is also the C type name (`c_int` is `int`).
    ty: &'static str,
    value: i64,
    /// The value as written in the table: a number, or the name of the constant it aliases.
    written: &'static str,
    doc: &'static str,
}

/// The [`Constant`] `$name` of type `$ty` (doc `$doc`), pushed onto `$table`, its value that
/// of the module `$abi`; in Open MPI's ABI (`ompi`), an `int` or an offset has its value and a handle (the
/// address of an object, `&ompi_mpi_double`, or an alias) none, only the text written.
macro_rules! listed {
    (@push $table:ident $name:ident, $ty:expr, $value:expr, $written:expr, $doc:expr) => {
        $table.push(Constant {
            name: stringify!($name),
            ty: $ty,
            value: $value,
            written: $written,
            doc: $doc,
        });
    };
    ([$table:ident ompi $name:ident: c_int ($doc:expr)] $value:expr) => {
        listed!(@push $table $name, "c_int", $value as i64, stringify!($value), $doc)
    };
    ([$table:ident ompi $name:ident: MPI_Offset ($doc:expr)] $value:expr) => {
        listed!(@push $table $name, "MPI_Offset", $value as i64, stringify!($value), $doc)
    };
    ([$table:ident ompi $name:ident: $ty:ident ($doc:expr)] $value:expr) => {
        listed!(@push $table $name, stringify!($ty), 0, stringify!($value), $doc)
    };
    ([$table:ident $abi:ident $name:ident: $ty:ident ($doc:expr)] $value:expr) => {
        listed!(@push $table $name, stringify!($ty), $abi::$name as i64, stringify!($value), $doc)
    };
}

/// Reads the table of constants (`src/abi/constants.rs`): each ABI's values into a module of
/// its own, and its constants as a list, by the function `table(abi)`.
macro_rules! abi_constants {
    ($($(#[doc = $doc:literal])* $name:ident : $ty:ident = $($abi:ident $value:expr),+;)*) => {
        #[allow(non_upper_case_globals, dead_code, clippy::unnecessary_cast)]
        mod mpich {
            use super::c_types::*;
            $(value_in!(mpich => constant [pub const $name: $ty]; $($abi $value),+);)*
        }
        #[allow(non_upper_case_globals, dead_code, clippy::unnecessary_cast)]
        mod standard {
            use super::c_types::*;
            $(value_in!(standard => constant [pub const $name: $ty]; $($abi $value),+);)*
        }
        /// The constants of the ABI `abi` (`mpich`, `standard` or `ompi`).
        #[allow(clippy::unnecessary_cast)]
        fn table(abi: &str) -> Vec<Constant> {
            let mut table = Vec::new();
            match abi {
                "standard" => {
                    $(value_in!(standard => listed [table standard $name: $ty (concat!($($doc),*))]; $($abi $value),+);)*
                }
                "ompi" => {
                    $(value_in!(ompi => listed [table ompi $name: $ty (concat!($($doc),*))]; $($abi $value),+);)*
                }
                _ => {
                    $(value_in!(mpich => listed [table mpich $name: $ty (concat!($($doc),*))]; $($abi $value),+);)*
                }
            }
            table
        }
    };
}

/// The C types of the tables' values, wide enough for both ABIs' numbers.
#[allow(non_camel_case_types, dead_code)]
mod c_types {
    pub type c_int = i32;
    pub type MPI_Datatype = i64;
    pub type MPI_Comm = i64;
    pub type MPI_Errhandler = i64;
    pub type MPI_Info = i64;
    pub type MPI_Aint = i64;
    pub type MPI_Count = i64;
    pub type MPI_Request = i64;
    pub type MPI_Message = i64;
    pub type MPI_Group = i64;
    pub type MPI_Op = i64;
    pub type MPI_Win = i64;
    pub type MPI_Session = i64;
    pub type MPI_File = i64;
    pub type MPI_Offset = i64;
}

include!("src/abi/constants.rs");

/// What differs between the headers of the three ABIs.
struct Abi {
    /// `mpich`, `standard` or `ompi`.
    name: &'static str,
    /// The table of constants.
    table: Vec<Constant>,
    /// Which it is, in the comment above the constants.
    title: &'static str,
    /// The include guard.
    guard: &'static str,
    /// The comment at the top of the header.
    header: &'static str,
    /// The C declarations before the constants (cbindgen.toml's `after_includes` for MPICH's
    /// ABI, `src/abi/standard_preamble.h` and `src/abi/ompi_preamble.h` for the others).
    preamble: Option<String>,
    /// Types the preamble declares, which cbindgen must not emit.
    declared: &'static [&'static str],
    /// The library file's name (its soname), where CMake does not name it libmpi_dtype.so.
    soname: Option<&'static str>,
    /// Functions (`Bcast_init`) that the MPI of this ABI also offers as an extension,
    /// `MPIX_<name>`, with the signature of `MPI_<name>`: the library exports that name too.
    extensions: &'static [&'static str],
}

/// Open MPI 4.1's persistent collectives, its `pcollreq` extension (declared in its
/// `mpi-ext.h`), which MPI 4.0 made standard as `MPI_<name>` with the same signatures.
const OMPI_PCOLLREQ: &[&str] = &[
    "Allgather_init",
    "Allgatherv_init",
    "Allreduce_init",
    "Alltoall_init",
    "Alltoallv_init",
    "Alltoallw_init",
    "Barrier_init",
    "Bcast_init",
    "Exscan_init",
    "Gather_init",
    "Gatherv_init",
    "Neighbor_allgather_init",
    "Neighbor_allgatherv_init",
    "Neighbor_alltoall_init",
    "Neighbor_alltoallv_init",
    "Neighbor_alltoallw_init",
    "Reduce_init",
    "Reduce_scatter_block_init",
    "Reduce_scatter_init",
    "Scan_init",
    "Scatter_init",
    "Scatterv_init",
];

impl Abi {
    fn of_this_build(crate_dir: &std::path::Path) -> Abi {
        let name = abi_of_this_build();
        // The ABI's preamble, then the callback types both ABIs of pointer handles share.
        let preamble = |file: &str| {
            let read = |file: &str| {
                let path = crate_dir.join("src/abi").join(file);
                std::fs::read_to_string(&path).expect("the ABI's preamble is readable")
            };
            Some(format!("{}\n{}", read(file), read("callback_types.h")))
        };
        match name {
            "standard" => Abi {
                name,
                table: table(name),
                title: "the MPI-5.0 standard ABI (from src/abi/constants.rs)",
                guard: "MPI_DTYPE_ABI_H",
                header: concat!(
                    "/*\n",
                    " * mpi_dtype.h: the datatype chapter of MPI with the MPI-5.0 standard ABI (handles\n",
                    " * are pointers to incomplete structs, the standard's constants). Generated by\n",
                    " * cbindgen from the Rust sources; do not edit. Include <mpi.h> from this\n",
                    " * package, or this header directly.\n",
                    " */"
                ),
                preamble: preamble("standard_preamble.h"),
                declared: &["MPI_Status", "MPI_Info", "MPI_Request"],
                soname: Some("libmpi_dtype_abi.so"),
                extensions: &[],
            },
            "ompi" => Abi {
                name,
                table: table(name),
                title: "Open MPI's ABI (from src/abi/constants.rs)",
                guard: "MPI_DTYPE_OMPI_H",
                header: concat!(
                    "/*\n",
                    " * mpi_dtype.h: the datatype chapter of MPI with Open MPI's ABI (4.1 and 5.0:\n",
                    " * handles are pointers to Open MPI's structs, predefined handles the addresses\n",
                    " * of its ompi_mpi_* objects). Generated by cbindgen from the Rust sources; do\n",
                    " * not edit. Include <mpi.h> from this package, or this header directly.\n",
                    " */"
                ),
                preamble: preamble("ompi_preamble.h"),
                declared: &[
                    "MPI_Status", "MPI_Info", "MPI_Request", "Object", "ompi_datatype_t",
                    "ompi_communicator_t", "ompi_errhandler_t", "ompi_info_t", "ompi_request_t",
                    "ompi_message_t", "ompi_group_t", "ompi_op_t", "ompi_win_t", "ompi_instance_t",
                    "ompi_file_t",
                ],
                soname: Some("libmpi_dtype_ompi.so"),
                extensions: OMPI_PCOLLREQ,
            },
            _ => Abi {
                name,
                table: table(name),
                title: "MPICH's ABI (from src/abi/constants.rs)",
                guard: "MPI_DTYPE_H",
                header: "",
                preamble: None,
                declared: &[],
                soname: None,
                extensions: &[],
            },
        }
    }
}

/// The struct tag of Open MPI's predefined objects of the handle type `ty`.
fn ompi_object_struct(ty: &str) -> &'static str {
    match ty {
        "MPI_Datatype" => "ompi_predefined_datatype_t",
        "MPI_Comm" => "ompi_predefined_communicator_t",
        "MPI_Errhandler" => "ompi_predefined_errhandler_t",
        "MPI_Group" => "ompi_predefined_group_t",
        "MPI_Info" => "ompi_predefined_info_t",
        "MPI_Op" => "ompi_predefined_op_t",
        "MPI_Request" => "ompi_predefined_request_t",
        "MPI_Message" => "ompi_predefined_message_t",
        "MPI_Win" => "ompi_predefined_win_t",
        "MPI_Session" => "ompi_predefined_instance_t",
        "MPI_File" => "ompi_predefined_file_t",
        other => panic!("no predefined objects of type {other} in Open MPI's ABI"),
    }
}

/// The `#define` of each constant, written the way MPICH's `mpi.h` writes it: handles as
/// `((TYPE)0x...)`, other numbers parenthesized, aliases by name; the doc comment above each
/// becomes a C comment.
fn abi_defines(abi: &Abi) -> String {
    let mut out = format!("/* Constants of {}. */\n", abi.title);
    let object = |c: &Constant| c.written.strip_prefix('&').map(str::trim);
    for c in &abi.table {
        if let Some(object) = object(c) {
            let tag = ompi_object_struct(c.ty);
            let _ = writeln!(out, "extern struct {tag} {object};");
        }
    }
    for c in &abi.table {
        let is_alias = c.written.starts_with(|ch: char| ch.is_ascii_alphabetic());
        let text = if is_alias {
            c.written.to_string()
        } else if let Some(object) = object(c) {
            format!("(({}) &{object})", c.ty)
        } else if c.ty == "MPI_Offset" {
            format!("((MPI_Offset){})", c.value)
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

/// The header with the prototype of `MPIX_<name>` for each of the ABI's `extensions`, the
/// one of `MPI_<name>` renamed.
fn with_extension_prototypes(header: &str, extensions: &[&str]) -> String {
    if extensions.is_empty() {
        return header.to_string();
    }
    let found = prototypes(header);
    let mut block = String::from(
        "/*\n Open MPI 4.1's names of the persistent collectives (its pcollreq extension, \
         mpi-ext.h):\n each MPIX_ function is the MPI_ function of the same name.\n */\n",
    );
    for extension in extensions {
        let standard = format!("MPI_{extension}");
        let (line, _) = found
            .iter()
            .find(|(_, name)| *name == standard)
            .unwrap_or_else(|| panic!("{standard} has no prototype, so MPIX_{extension} cannot"));
        let _ = writeln!(
            block,
            "{}",
            line.replacen(&standard, &format!("MPIX_{extension}"), 1)
        );
    }
    block.push('\n');
    at_end_of_extern_c(header, &block)
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
    (at_end_of_extern_c(header, &block), names)
}

/// The header with the prototypes of `src/ffi/comm/communication.h` (the communication
/// functions made by macros, which cbindgen does not expand) at the end of its `extern "C"`
/// block.
fn with_communication_prototypes(header: &str, declared: &str) -> String {
    let body: String = declared
        .lines()
        .skip_while(|line| !line.trim_end().ends_with("*/"))
        .skip(1)
        .map(|line| format!("{line}\n"))
        .collect();
    let block =
        format!("/* The communication functions (src/ffi/comm/communication.h). */\n{body}\n");
    at_end_of_extern_c(header, &block)
}

/// The header with `block` inserted at the end of the `extern "C"` block cbindgen wrote.
fn at_end_of_extern_c(header: &str, block: &str) -> String {
    let end = "#ifdef __cplusplus\n}  // extern \"C\"";
    let at = header
        .rfind(end)
        .expect("cbindgen closes the extern \"C\" block at the end");
    format!("{}{}{}", &header[..at], block, &header[at..])
}

/// The communication functions (`src/ffi/comm/`), each of which must have a prototype in the
/// header: the names each file defines with `pub unsafe extern "C" fn MPI_...(`, with
/// `fn MPI_...(` in a `one_process_functions!` invocation, or lists in a macro invocation at
/// the start of a line (`blocking_sends!(c_int: MPI_Send, MPI_Ssend);`, where a name followed
/// by `:` is the count type).
fn communication_functions(dir: &std::path::Path) -> Vec<String> {
    let mut names = Vec::new();
    for file in rust_files(dir) {
        let text = std::fs::read_to_string(&file).expect("a source file is readable");
        for line in text.lines() {
            let listed = if let Some(rest) = line.strip_prefix("pub unsafe extern \"C\" fn ") {
                rest.split('(').next().unwrap_or("")
            } else if let Some(rest) = line
                .trim_start()
                .strip_prefix("fn ")
                .filter(|rest| rest.starts_with("MPI_"))
            {
                // A function of a `one_process_functions!` invocation.
                rest.split('(').next().unwrap_or("")
            } else if line.split('!').next().is_some_and(|m| {
                !m.is_empty() && m.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            }) && line.contains("!(")
            {
                line.split_once("!(").map_or("", |(_, args)| args)
            } else {
                continue;
            };
            let mut rest = listed;
            while let Some(start) = rest.find("MPI_") {
                let tail = &rest[start..];
                let end = tail
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(tail.len());
                if !tail[end..].starts_with(':') {
                    names.push(tail[..end].to_string());
                }
                rest = &tail[end..];
            }
        }
    }
    names
}

/// The functions that `exported!` and `one_process_functions!` invocations in `src/ffi`
/// define, which cbindgen, not expanding macros, cannot see: written out as the Rust items
/// cbindgen reads, each `fn` line of an invocation with the docs and attributes above it, as
/// an exported function of that signature answering `c_int`. An `exported!` line runs up to
/// its `;` (without a `with name = value` of its own); a `one_process_functions!` line up to
/// its `via` (or the `as` naming a `_c` function's `int` form), its body following up to the
/// `}` that closes it. A function `declared` (the text of `src/ffi/comm/communication.h`)
/// already has the prototype written there, as the standard spells it (a variadic
/// `MPI_Pcontrol`, callbacks as pointers to function types).
fn exported_by_macro(dir: &std::path::Path, declared_in_c: &str) -> String {
    let mut out = String::new();
    for file in rust_files(dir) {
        let text = std::fs::read_to_string(&file).expect("a source file is readable");
        // A file of one ABI only (`#![cfg(abi = "ompi")]`) gives that to each function.
        let file_cfg = text
            .lines()
            .find_map(|line| {
                line.strip_prefix("#![cfg(")
                    .and_then(|c| c.strip_suffix(")]"))
            })
            .map(|cfg| format!("#[cfg({cfg})]\n"))
            .unwrap_or_default();
        // Inside an invocation; skipping a body up to the line that closes it.
        let (mut inside, mut skipping) = (false, None);
        let (mut attributes, mut signature) = (String::new(), String::new());
        for line in text.lines() {
            let trimmed = line.trim();
            if !inside {
                let starts = ["exported! {", "one_process_functions! {"];
                inside = starts.iter().any(|start| line.starts_with(start));
                // Another spelling would leave its functions out of the header unseen.
                let named = ["exported!", "one_process_functions!"]
                    .iter()
                    .any(|name| trimmed.starts_with(name) && !trimmed.starts_with("macro_rules"));
                assert!(
                    inside || !named || line.starts_with(' ') && line.contains("{$("),
                    "{}: write an invocation as `{}` at the start of its line",
                    file.display(),
                    starts.join("` or `")
                );
                continue;
            }
            if line == "}" {
                (inside, skipping) = (false, None);
            } else if skipping.is_some_and(|end| line == end) {
                skipping = None;
            } else if skipping.is_some() {
            } else if !signature.is_empty() || trimmed.starts_with("fn ") {
                signature.push_str(trimmed);
                signature.push(' ');
                let whole = signature.trim_end();
                // A `_c` function may name its `int` form (`) as MPI_... via`).
                let body_at = whole.find(") via ").or_else(|| whole.find(") as "));
                let declared = match (body_at, whole.strip_suffix(';')) {
                    (Some(at), _) => {
                        skipping = Some("    }");
                        Some(&whole[..=at])
                    }
                    (None, Some(declared)) => Some(
                        declared
                            .rfind(") with ")
                            .map_or(declared, |at| &declared[..=at]),
                    ),
                    (None, None) => None,
                };
                let name = whole[3..].split('(').next().unwrap_or("");
                let in_c = declared_in_c.contains(&format!(" {name}("));
                if let Some(declared) = declared.filter(|_| !in_c) {
                    let _ = writeln!(
                        out,
                        "{file_cfg}{attributes}#[no_mangle]\npub unsafe extern \"C\" {declared} -> c_int {{\n    0\n}}\n"
                    );
                }
                if declared.is_some() {
                    (attributes, signature) = (String::new(), String::new());
                }
            } else if trimmed.starts_with("///") || trimmed.starts_with("#[") {
                let _ = writeln!(attributes, "{trimmed}");
            } else {
                attributes.clear();
                if trimmed.starts_with("=>") || trimmed.starts_with("standalone =>") {
                    skipping = Some("}");
                }
            }
        }
    }
    out
}

/// The `.rs` files below `dir`, sorted.
fn rust_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source directory is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// Makes `PMPI_<name>` a second name of each exported function of the shared library: the
/// linker defines it at the function's address and exports it (a version script of its
/// own, next to the one rustc writes). A profiling tool that defines `MPI_<name>` and calls
/// `PMPI_<name>` so reaches this library's function directly. Each of the ABI's `extensions`
/// makes `MPIX_<name>` a second name of `MPI_<name>` the same way.
fn profiling_aliases(names: &[String], extensions: &[&str]) {
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let script = out_dir.join("pmpi.ver");
    let mut text = String::from("{\n  global:\n");
    // The function a name stands for: an extension's name is itself a second one.
    let function = |name: &str| match name.strip_prefix("MPIX_") {
        Some(extension) if extensions.contains(&extension) => format!("MPI_{extension}"),
        _ => name.to_string(),
    };
    for extension in extensions {
        let _ = writeln!(text, "    MPIX_{extension};");
        println!("cargo:rustc-cdylib-link-arg=-Wl,--defsym=MPIX_{extension}=MPI_{extension}");
    }
    for name in names {
        let _ = writeln!(text, "    P{name};");
        println!(
            "cargo:rustc-cdylib-link-arg=-Wl,--defsym=P{name}={}",
            function(name)
        );
    }
    text.push_str("};\n");
    std::fs::write(&script, text).expect("OUT_DIR is writable");
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,--version-script={}",
        script.display()
    );
}

/// The header with the blocks cbindgen wrote for items of one ABI only (`#if
/// defined(MPI_DTYPE_MPICH_ABI)` / `#if !defined(...)`, from `cfg(abi = "mpich")` and the
/// other ABIs, `cbindgen.toml`'s `[defines]`) kept or dropped for this build's ABI, so
/// that each ABI's header declares exactly what its library exports.
fn resolve_abi_blocks(header: &str, abi: &str) -> String {
    let mut out = String::new();
    // For each open `#if`: whether its lines are kept, or None for an #if of another kind.
    let mut open: Vec<Option<bool>> = Vec::new();
    let mut after_dropped = false;
    for line in header.lines() {
        let trimmed = line.trim();
        let kept_here = |open: &[Option<bool>]| open.iter().all(|o| o.unwrap_or(true));
        let abi_test = |prefix: &str| {
            let name = trimmed.strip_prefix(prefix)?.strip_suffix("_ABI)")?;
            Some(name.eq_ignore_ascii_case(abi))
        };
        if let Some(this) = abi_test("#if defined(MPI_DTYPE_") {
            open.push(Some(this));
        } else if let Some(this) = abi_test("#if !defined(MPI_DTYPE_") {
            open.push(Some(!this));
        } else if trimmed.starts_with("#if") {
            open.push(None);
            if kept_here(&open) {
                let _ = writeln!(out, "{line}");
            }
        } else if trimmed.starts_with("#endif") && !open.is_empty() {
            let closed = open.pop().flatten();
            if closed.is_none() && kept_here(&open) {
                let _ = writeln!(out, "{line}");
            }
            // The blank line cbindgen writes after a block goes with a block dropped.
            after_dropped = closed == Some(false);
            continue;
        } else if kept_here(&open) && !(after_dropped && trimmed.is_empty()) {
            let _ = writeln!(out, "{line}");
        }
        after_dropped = false;
    }
    out
}

/// The ABI this build speaks, from its cargo features: `mpich` (none), `standard`
/// (`standard-abi`) or `ompi` (`ompi-abi`).
fn abi_of_this_build() -> &'static str {
    let standard = env::var_os("CARGO_FEATURE_STANDARD_ABI").is_some();
    let ompi = env::var_os("CARGO_FEATURE_OMPI_ABI").is_some();
    match (standard, ompi) {
        (false, false) => "mpich",
        (true, false) => "standard",
        (false, true) => "ompi",
        (true, true) => panic!("the features standard-abi and ompi-abi exclude each other"),
    }
}

/// Tells the crate's code which ABI it is built for: `cfg(abi = "mpich" | "standard" |
/// "ompi")`, and `cfg(pointer_handles)` where handles are pointers (the standard ABI's and
/// Open MPI's) rather than MPICH's `int`s.
fn declare_abi_cfg() {
    println!("cargo::rustc-check-cfg=cfg(abi, values(\"mpich\", \"standard\", \"ompi\"))");
    println!("cargo::rustc-check-cfg=cfg(pointer_handles)");
    let abi = abi_of_this_build();
    println!("cargo:rustc-cfg=abi=\"{abi}\"");
    if abi != "mpich" {
        println!("cargo:rustc-cfg=pointer_handles");
    }
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
    declare_abi_cfg();

    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is readable and valid");
    let stamp = format!(
        "\n/* Version of mpi-dtype (from Cargo.toml). */\n\
         #define MPI_DTYPE_VERSION \"{version}\"\n\
         #define MPI_DTYPE_VERSION_MAJOR {major}\n\
         #define MPI_DTYPE_VERSION_MINOR {minor}\n\
         #define MPI_DTYPE_VERSION_PATCH {patch}\n"
    );
    let abi = Abi::of_this_build(&crate_dir);
    if abi.preamble.is_some() {
        config.include_guard = Some(abi.guard.to_string());
        config.header = Some(abi.header.to_string());
        config.sys_includes.push("stdint.h".to_string());
        config
            .export
            .exclude
            .extend(abi.declared.iter().map(|t| t.to_string()));
        // The MPICH-ABI preamble of cbindgen.toml gives way to the ABI's own.
        config.after_includes = abi.preamble.clone();
    }
    config.after_includes = Some(format!(
        "{}{}\n{}",
        stamp,
        config.after_includes.unwrap_or_default(),
        abi_defines(&abi)
    ));

    let header = out_dir.join("mpi_dtype.h");
    let declared = std::fs::read_to_string(crate_dir.join("src/ffi/comm/communication.h"))
        .expect("src/ffi/comm/communication.h is readable");
    let by_macro = out_dir.join("exported_by_macro.rs");
    std::fs::write(
        &by_macro,
        exported_by_macro(&crate_dir.join("src/ffi"), &declared),
    )
    .expect("OUT_DIR is writable");
    let mut text = Vec::new();
    match cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_src(&by_macro)
        .with_config(config)
        .generate()
    {
        Ok(bindings) => bindings.write(&mut text),
        Err(e) => panic!("cbindgen could not generate mpi_dtype.h: {e}"),
    }
    let text = String::from_utf8(text).expect("cbindgen writes UTF-8");
    let text = resolve_abi_blocks(&text, abi.name);
    if let Some(soname) = abi.soname {
        // The library file of this build has its own name (CMake names it so).
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    }
    let text = with_communication_prototypes(&text, &declared);
    let text = with_extension_prototypes(&text, abi.extensions);
    let (text, names) = with_profiling_prototypes(&text);
    std::fs::write(&header, text).expect("OUT_DIR is writable");
    for name in communication_functions(&crate_dir.join("src/ffi/comm")) {
        assert!(
            names.contains(&name),
            "{name} (src/ffi/comm) has no prototype: declare it in src/ffi/comm/communication.h"
        );
    }
    profiling_aliases(&names, abi.extensions);
    // Where the tests find the generated header.
    println!(
        "cargo:rustc-env=MPI_DTYPE_GENERATED_HEADER={}",
        header.display()
    );
}
