//! The layering of the workspace, checked on its sources.
//!
//! - The safe core is the crate `mpi-dtype-core` (`core/`), so the compiler keeps it apart from
//!   the C library: it cannot name a handle, an ABI's number or the drop-in layer. Its
//!   manifest lists no dependency beyond the few it needs.
//! - No modules import each other, directly or around a circle, in any crate of the workspace:
//!   neither two files (a file's module is the file, a folder's is its `mod.rs`), nor two
//!   top-level modules (`ffi/` and `trace/`, say). Data flows one way.
//!
//! An import is every path that starts with `crate::`, `super::` or `self::` outside comments
//! and `#[cfg(test)]` code, resolved to the deepest module file it names.

use mpi_dtype_testkit::sources::rust_files;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The source folders of the workspace's crates, relative to the workspace root.
const CRATES: [&str; 3] = ["src", "core/src", "explain/src"];

/// What the core crate may depend on.
const CORE_DEPENDENCIES: [&str; 1] = ["stacker"];

/// A module: the path of its file below the crate's source folder, without `.rs` and
/// `mod`/`lib` (the crate root is the empty path).
type Module = Vec<String>;

/// The modules of the crate whose sources are in `src`, with their files. Binaries (`bin/`)
/// are crates of their own and left out.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let files = rust_files(src);
    let mut modules = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src).expect("below the source folder");
        let mut module: Module = relative
            .with_extension("")
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        if module.first().is_some_and(|m| m == "bin") {
            continue;
        }
        if module.last().is_some_and(|m| m == "mod" || m == "lib") {
            module.pop();
        }
        modules.insert(module, file);
    }
    modules
}

/// The text of `file` that counts: no comment lines, nothing from `#[cfg(test)]` on.
fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).expect("a readable source file");
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text,
    };
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths `crate::…`, `super::…` and `self::…` in `code`, as their segments.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut at = 0;
    while at < bytes.len() {
        let starts_word = at == 0 || !is_ident(bytes[at - 1]);
        let head = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|h| bytes[at..].starts_with(h.as_bytes()));
        match head {
            Some(_) if starts_word => {
                let mut end = at;
                while end < bytes.len() && (is_ident(bytes[end]) || bytes[end] == b':') {
                    end += 1;
                }
                let segments = code[at..end]
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect();
                paths.push(segments);
                at = end;
            }
            _ => at += 1,
        }
    }
    paths
}

/// The module that `path`, written in `module`, names: the deepest module file along it.
fn resolve(modules: &BTreeMap<Module, PathBuf>, module: &Module, path: &[String]) -> Module {
    let mut base: Module = match path[0].as_str() {
        "crate" => Vec::new(),
        _ => module.clone(),
    };
    let mut rest = &path[1..];
    if path[0] == "super" {
        base.pop();
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
    }
    let mut named = base;
    named.extend(rest.iter().cloned());
    while !modules.contains_key(&named) {
        named.pop();
    }
    named
}

/// The imports of each module of the crate in `src`: module → the modules it names.
fn imports(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let modules = modules(src);
    assert!(
        modules.len() > 5,
        "the modules of {} were not found",
        src.display()
    );
    modules
        .iter()
        .map(|(module, file)| {
            let named = paths_in(&code_of(file))
                .iter()
                .map(|path| resolve(&modules, module, path))
                .filter(|named| named != module)
                .collect();
            (module.clone(), named)
        })
        .collect()
}

/// The circles of the graph `edges`: its strongly connected components of more than one
/// node (Tarjan's algorithm).
fn circles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct Search<'a, N> {
        edges: &'a BTreeMap<N, BTreeSet<N>>,
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        circles: Vec<Vec<N>>,
    }
    impl<N: Ord + Clone> Search<'_, N> {
        fn visit(&mut self, node: &N) {
            let index = self.index.len();
            self.index.insert(node.clone(), index);
            self.low.insert(node.clone(), index);
            self.stack.push(node.clone());
            for next in self.edges.get(node).into_iter().flatten() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node.clone(), low);
                } else if self.stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node.clone(), low);
                }
            }
            if self.low[node] == self.index[node] {
                let at = self
                    .stack
                    .iter()
                    .position(|n| n == node)
                    .expect("on the stack");
                let component = self.stack.split_off(at);
                if component.len() > 1 {
                    self.circles.push(component);
                }
            }
        }
    }
    let mut search = Search {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        circles: Vec::new(),
    };
    for node in edges.keys() {
        if !search.index.contains_key(node) {
            search.visit(node);
        }
    }
    search.circles
}

/// How a module is named in a failure: its path below the crate, or the crate root.
fn name(module: &Module) -> String {
    match module.is_empty() {
        true => "(crate root)".to_owned(),
        false => module.join("/"),
    }
}

#[test]
fn no_modules_import_each_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for krate in CRATES {
        let files = imports(&root.join(krate));
        for circle in circles(&files) {
            let names: Vec<_> = circle.iter().map(name).collect();
            found.push(format!("{krate}: files {}", names.join(" <-> ")));
        }
        let mut folders: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (module, named) in &files {
            let top: Module = module.iter().take(1).cloned().collect();
            for other in named {
                let other_top: Module = other.iter().take(1).cloned().collect();
                if other_top != top && !other_top.is_empty() && !top.is_empty() {
                    folders.entry(top.clone()).or_default().insert(other_top);
                }
            }
        }
        for circle in circles(&folders) {
            let names: Vec<_> = circle.iter().map(name).collect();
            found.push(format!(
                "{krate}: top-level modules {}",
                names.join(" <-> ")
            ));
        }
    }
    assert!(
        found.is_empty(),
        "modules that import each other:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_circle_finder_finds_circles() {
    let edge = |a: &str, b: &[&str]| (a.to_owned(), b.iter().map(|s| s.to_string()).collect());
    let graph: BTreeMap<String, BTreeSet<String>> = [
        edge("a", &["b"]),
        edge("b", &["c"]),
        edge("c", &["a", "d"]),
        edge("d", &[]),
    ]
    .into_iter()
    .collect();
    let found = circles(&graph);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].iter().collect::<BTreeSet<_>>().len(), 3);
    let mut acyclic = graph.clone();
    acyclic.insert("c".to_owned(), ["d".to_owned()].into_iter().collect());
    assert!(circles(&acyclic).is_empty());
}

#[test]
fn the_core_depends_on_nothing_of_the_c_library() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest =
        std::fs::read_to_string(root.join("core/Cargo.toml")).expect("the core's manifest");
    let mut in_dependencies = false;
    let mut dependencies = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
        } else if in_dependencies && !line.is_empty() && !line.starts_with('#') {
            let name = line.split('=').next().expect("a key").trim().to_owned();
            dependencies.push(name);
        }
    }
    assert!(
        dependencies
            .iter()
            .all(|d| CORE_DEPENDENCIES.contains(&d.as_str())),
        "the core depends on {dependencies:?}; it may depend on {CORE_DEPENDENCIES:?} only"
    );
}
