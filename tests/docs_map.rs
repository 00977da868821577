//! The contributor's map (`docs/architecture.md`) and the README's layout section match the
//! tree: every path they name from the top of the repository exists, and every top-level
//! module of each crate is named in the map.

use std::path::Path;

/// The folders a path named from the top of the repository starts with.
const ROOTS: [&str; 13] = [
    "src/",
    "core/",
    "explain/",
    "testkit/",
    "tests/",
    "fuzz/",
    "c_tests/",
    "include/",
    "docs/",
    "scripts/",
    "benches/",
    "conformance/",
    "h5s_mpio/",
];

/// The crates' source folders whose top-level modules the map must name.
const CRATES: [&str; 3] = ["src", "core/src", "explain/src"];

/// The text between backticks in `text`.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The README's section `## Layout`, up to the next section.
fn layout_section(readme: &str) -> &str {
    let start = readme
        .find("## Layout")
        .expect("the README has a layout section");
    let rest = &readme[start + 2..];
    let end = rest.find("\n## ").map_or(rest.len(), |e| e + 2);
    &readme[start..start + end]
}

#[test]
fn every_path_named_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("docs/architecture.md")).expect("the map");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README");
    let mut missing = Vec::new();
    for (doc, text) in [
        ("docs/architecture.md", map.as_str()),
        ("README.md", layout_section(&readme)),
    ] {
        for name in quoted(text) {
            // A pattern (`src/abi/*_constants.rs`) names its folder.
            let path = match name.find('*') {
                Some(star) => &name[..=name[..star].rfind('/').unwrap_or(0)],
                None => name,
            };
            let from_top = ROOTS.iter().any(|r| path.starts_with(r));
            if from_top && !path.contains(['<', ' ']) && !root.join(path).exists() {
                missing.push(format!("{doc}: {name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_map_names_every_top_level_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("docs/architecture.md")).expect("the map");
    let named = quoted(&map);
    let mut unnamed = Vec::new();
    for krate in CRATES {
        for entry in std::fs::read_dir(root.join(krate)).expect("a source folder") {
            let path = entry.expect("an entry").path();
            let file = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if file == "lib.rs" || file == "bin" || !(path.is_dir() || file.ends_with(".rs")) {
                continue;
            }
            let as_named = if path.is_dir() {
                format!("{file}/")
            } else {
                file.clone()
            };
            let full = format!("{krate}/{as_named}");
            let mentioned = named
                .iter()
                .any(|n| n.starts_with(&as_named) || n.starts_with(&full));
            if !mentioned {
                unnamed.push(full);
            }
        }
    }
    assert!(
        unnamed.is_empty(),
        "modules docs/architecture.md does not name:\n{}",
        unnamed.join("\n")
    );
}
