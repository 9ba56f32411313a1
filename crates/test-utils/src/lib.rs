//! Helpers shared by tests, benches and xtask: where the project and the corpus live,
//! scratch directories that clean up after themselves, and generators of large programs
//! and schemas.

pub mod checked;
pub mod generate;
pub mod schema;

use std::path::{Path, PathBuf};

/// The root of the repository (the directory holding the workspace `Cargo.toml`).
pub fn project_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .ancestors()
        .nth(2)
        .unwrap_or(manifest_dir)
        .to_path_buf()
}

/// The directory of our own test fixtures, `tests/data`.
pub fn test_data_dir() -> PathBuf {
    project_root().join("tests").join("data")
}

/// Where the shared corpus lives: `$PCL_CORPUS` (when not empty), else `../shared/corpus`
/// beside the repository.
///
/// Tests that need the corpus skip (return early on `None`) only on a newcomer's fresh
/// clone: when `PCL_CORPUS` is unset and `../shared/corpus` does not exist, with one line
/// on stderr saying how to run them. A `PCL_CORPUS` naming a missing directory panics, and
/// so does a missing corpus when `CI` is set to anything non-empty.
// The skip note is for the person running the tests: it goes to stderr.
#[allow(clippy::print_stderr)]
pub fn corpus_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PCL_CORPUS").filter(|dir| !dir.is_empty()) {
        let dir = PathBuf::from(dir);
        assert!(
            dir.is_dir(),
            "PCL_CORPUS names `{}`, which is not a directory",
            dir.display()
        );
        return Some(dir);
    }
    let beside = project_root().parent()?.join("shared").join("corpus");
    if beside.is_dir() {
        return Some(beside);
    }
    let ci = std::env::var_os("CI").is_some_and(|ci| !ci.is_empty());
    assert!(
        !ci,
        "CI is set and the shared corpus is missing: set PCL_CORPUS or put it at {}",
        beside.display()
    );
    eprintln!(
        "skipped: the shared corpus is not at {} (set PCL_CORPUS to run the corpus tests)",
        beside.display()
    );
    None
}

/// A fresh, empty directory under the system's temporary directory, named after its user
/// and the process, and removed with everything in it when dropped, a failing test's
/// unwinding included. It reads as the `Path` it holds.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// Creates `pcl-{name}-{process id}-{n}`, `n` counting the directories this process
    /// made, so tests running at once never share one (emptied first if a killed run left
    /// it behind).
    ///
    /// # Panics
    /// When the directory cannot be created: a test cannot run without it.
    pub fn new(name: &str) -> ScratchDir {
        static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let process = std::process::id();
        let dir = std::env::temp_dir().join(format!("pcl-{name}-{process}-{n}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|error| panic!("cannot create `{}`: {error}", dir.display()));
        ScratchDir(dir)
    }
}

impl std::ops::Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every file below `dir` (recursively) whose extension is one of `extensions`, sorted.
pub fn files_with_extensions(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut res = Vec::new();
    collect_files(&mut res, dir, extensions);
    res.sort();
    res
}

fn collect_files(acc: &mut Vec<PathBuf>, dir: &Path, extensions: &[&str]) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_files(acc, &path, extensions);
        } else if path
            .extension()
            .and_then(|ext| ext.to_str())
            .is_some_and(|ext| extensions.contains(&ext))
        {
            acc.push(path);
        }
    }
}
