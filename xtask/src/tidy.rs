//! Tidy checks over the repository's Rust sources, run as tests: every file opens with a `//!`
//! doc line, no trailing whitespace, no ignored or should-panic tests, no todo macros, and
//! dependency edges between our crates only as `docs/architecture.md` allows.

use std::path::Path;

use pcl_test_utils::{files_with_extensions, project_root};

fn rust_sources() -> Vec<std::path::PathBuf> {
    let root = project_root();
    let mut files = Vec::new();
    for dir in ["crates", "xtask", "benches", "fuzz"] {
        files.extend(files_with_extensions(&root.join(dir), &["rs"]));
    }
    files.retain(|path| !path.components().any(|part| part.as_os_str() == "target"));
    assert!(files.len() > 10, "found only {} Rust files", files.len());
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

#[test]
fn files_start_with_a_module_doc() {
    let offenders: Vec<String> = rust_sources()
        .into_iter()
        .filter(|path| !read(path).starts_with("//!"))
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "files without a `//!` first line:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn no_trailing_whitespace() {
    let mut offenders = Vec::new();
    for path in rust_sources() {
        for (line_idx, line) in read(&path).lines().enumerate() {
            if line.ends_with(' ') || line.ends_with('\t') {
                offenders.push(format!("{}:{}", path.display(), line_idx + 1));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "trailing whitespace:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn no_ignored_or_should_panic_tests() {
    // Spelled in pieces so this file does not flag itself.
    let banned = [
        concat!("#[", "ignore"),
        concat!("#[", "should_panic"),
        concat!("todo", "!("),
    ];
    let mut offenders = Vec::new();
    for path in rust_sources() {
        let text = read(&path);
        for pattern in banned {
            if text.contains(pattern) {
                offenders.push(format!("{}: {pattern}", path.display()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "banned patterns:\n{}",
        offenders.join("\n")
    );
}

/// Every dependency on a crate of ours that a `Cargo.toml` declares is an edge the table in
/// `docs/architecture.md` allows: normal dependencies from "may depend on", and
/// dev-dependencies from either column.
#[test]
fn dependency_edges_follow_the_architecture() {
    let root = project_root();
    let doc = read(&root.join("docs").join("architecture.md"));
    let allowed = allowed_edges(&doc);
    assert!(
        allowed.len() >= 9,
        "the dependency table is missing from docs/architecture.md"
    );
    let mut manifests = files_with_extensions(&root.join("crates"), &["toml"]);
    manifests.extend([
        root.join("xtask").join("Cargo.toml"),
        root.join("benches").join("Cargo.toml"),
    ]);
    let mut offenders = Vec::new();
    for manifest in manifests {
        let text = read(&manifest);
        let Some(name) = package_name(&text) else {
            continue;
        };
        let Some((normal, dev)) = allowed.get(&name) else {
            offenders.push(format!("{name}: not in the table of docs/architecture.md"));
            continue;
        };
        for (section, dependency) in our_dependencies(&text) {
            let ok = match section.as_str() {
                "dependencies" => normal.contains(&dependency),
                _ => normal.contains(&dependency) || dev.contains(&dependency),
            };
            if !ok {
                offenders.push(format!("{name} -> {dependency} ([{section}])"));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "dependency edges that docs/architecture.md does not allow:\n{}",
        offenders.join("\n")
    );
}

type Edges = std::collections::BTreeMap<String, (Vec<String>, Vec<String>)>;

/// The rows `| crate | may depend on | its tests may also use |` of the architecture table.
fn allowed_edges(doc: &str) -> Edges {
    let split = |cell: &str| -> Vec<String> {
        cell.split(',')
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .map(str::to_owned)
            .collect()
    };
    doc.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line
                .trim()
                .strip_prefix('|')?
                .strip_suffix('|')?
                .split('|')
                .collect();
            let [name, normal, dev] = cells.as_slice() else {
                return None;
            };
            let name = name.trim();
            let ours = name.starts_with("pcl-") || name == "xtask";
            ours.then(|| (name.to_owned(), (split(normal), split(dev))))
        })
        .collect()
}

fn package_name(manifest: &str) -> Option<String> {
    manifest
        .lines()
        .skip_while(|line| line.trim() != "[package]")
        .find_map(|line| line.trim().strip_prefix("name = "))
        .map(|name| name.trim_matches('"').to_owned())
}

/// `(section, crate)` for each `pcl-*` crate named in a dependency section.
fn our_dependencies(manifest: &str) -> Vec<(String, String)> {
    let mut section = String::new();
    let mut res = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.to_owned();
            continue;
        }
        if !section.ends_with("dependencies") {
            continue;
        }
        let Some(dependency) = line.split(['.', '=', ' ']).next() else {
            continue;
        };
        if dependency.starts_with("pcl-") {
            res.push((section.clone(), dependency.to_owned()));
        }
    }
    res
}
