//! Tidy checks over the repository's Rust sources, run as tests: every file opens with a `//!`
//! doc line, no trailing whitespace, no ignored or should-panic tests, no todo macros.

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
