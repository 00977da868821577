//! Every exported function goes through the one export pattern: its whole body is one call of
//! `export` (or `export_value`, for the few that answer with a value instead of an error code),
//! the panic boundary of `src/ffi/export.rs`, so that nothing (no call of the MPI behind, no
//! fast path) runs before it and no panic unwinds into C.

use mpi_dtype_testkit::sources::rust_files;
use std::path::Path;

/// The exported functions of `text` (those `#[no_mangle]` marks), each with the first code of
/// its body: `(name, start of body)`.
fn exported(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[no_mangle]") {
        rest = &rest[at + "#[no_mangle]".len()..];
        let Some(fn_at) = rest.find("extern \"C\" fn ") else {
            break;
        };
        let after = &rest[fn_at + "extern \"C\" fn ".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        // The body opens at the first `{` after the parameters' closing parenthesis.
        let params_end = after.find(')').expect("a parameter list");
        let body_at = after[params_end..].find('{').expect("a body") + params_end;
        let body: String = after[body_at + 1..]
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with("//"))
            .take(1)
            .collect();
        found.push((name, body));
    }
    found
}

#[test]
fn every_exported_function_runs_inside_the_export_pattern() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = rust_files(&root.join("src"));
    let mut count = 0;
    let mut bypassing = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for (name, body) in exported(&text) {
            count += 1;
            let body = body.trim_start_matches("$crate::ffi::");
            if !(body.starts_with("export(") || body.starts_with("export_value(")) {
                let place = file.strip_prefix(root).unwrap_or(file).display();
                bypassing.push(format!("{place}: {name} starts with `{body}`"));
            }
        }
    }
    assert!(count > 100, "only {count} exported functions were found");
    assert!(
        bypassing.is_empty(),
        "exported functions whose body is not one call of export / export_value:\n{}",
        bypassing.join("\n")
    );
}

#[test]
fn the_check_sees_a_bypass() {
    let wrapped = "#[no_mangle]\npub unsafe extern \"C\" fn MPI_A(x: c_int) -> c_int {\n    \
                   // a comment\n    export(\"MPI_A\", || 0)\n}\n";
    let bare =
        "#[no_mangle]\npub extern \"C\" fn MPI_B() -> c_int {\n    if true { return 1; }\n    \
                export(\"MPI_B\", || 0)\n}\n";
    assert_eq!(
        exported(wrapped),
        [("MPI_A".to_owned(), "export(\"MPI_A\", || 0)".to_owned())]
    );
    assert_eq!(exported(bare)[0].1, "if true { return 1; }");
}

/// A datatype handle argument is resolved one way: through `crate::dropin::with_type` (which
/// `ffi::with_datatype` and `ffi::with_committed` call), which reads the handle table once and
/// imports a type the MPI behind made itself. No exported function reads the table by
/// another road.
#[test]
fn handle_arguments_are_resolved_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut other_roads = Vec::new();
    for file in rust_files(&root.join("src/ffi")) {
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        for (number, line) in text.lines().enumerate() {
            if line.contains("handles::with_type")
                || line.contains("handles::with_entry(") && line.contains(".datatype")
            {
                let place = file.strip_prefix(root).unwrap_or(&file).display();
                other_roads.push(format!("{place}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        other_roads.is_empty(),
        "handle arguments resolved around dropin::with_type:\n{}",
        other_roads.join("\n")
    );
}
