//! The safe core knows no ABI: no file of `src/datatype/`, `src/plan/` or `src/pack/` names
//! the ABI module (`crate::abi`, `super::abi`, any path through `abi::`) or the cargo feature
//! that picks the ABI (`standard-abi`). Handles, predefined types, combiners, orders,
//! distributions and error classes reach the core as Rust values; the layers above it
//! (`src/abi/translate.rs`, the FFI and drop-in layers) give them their numbers.
//!
//! Comments count too: the check reads every line as it is written, so a comment that names
//! the ABI module's items by their path fails it as well (name them as "the ABI layer's
//! `predefined_handle`", say). That keeps the rule one plain text search, with nothing to
//! parse, and the core's documentation points upward in words only.

use std::path::{Path, PathBuf};

/// The directories of the core, relative to the crate.
const CORE: [&str; 3] = ["src/datatype", "src/plan", "src/pack"];

/// What no line of the core may contain.
const FORBIDDEN: [&str; 2] = ["abi::", "standard-abi"];

/// Every `.rs` file under `dir`, at any depth.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_core_does_not_use_the_abi() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in CORE {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 10, "the core's files were not found");
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for (number, line) in text.lines().enumerate() {
            if FORBIDDEN.iter().any(|word| line.contains(word)) {
                let place = file.strip_prefix(root).unwrap_or(file).display();
                found.push(format!("{place}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the core names the ABI:\n{}",
        found.join("\n")
    );
}
