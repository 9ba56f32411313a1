//! `cargo xtask fuzz [TARGET] [--time SECONDS]`: runs the fuzz targets of `fuzz/` with
//! libFuzzer, each for SECONDS (default 600), one after another.
//!
//! Each run gets a seed corpus rebuilt from the fixtures and the shared corpus
//! (`fuzz/corpus/TARGET`, kept between runs, not committed), libFuzzer's `-timeout` (a
//! hang is a failure) and `-rss_limit_mb` (with ASan's allocation stacks kept short, see
//! `asan_options`). A crash, hang or memory blow-up is minimised
//! (`cargo fuzz tmin`) and copied to `tests/data/fuzz/TARGET/`, which the crates' ordinary
//! tests run; the run prints the panic message (or libFuzzer's error line), and only
//! artifacts the run itself wrote count as its failures. `cargo-fuzz` is installed when missing; without a nightly toolchain the
//! build runs on stable with `RUSTC_BOOTSTRAP=1`. Prints executions per second and
//! coverage for each target.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

/// The targets, and what seeds each.
const TARGETS: &[(&str, Seeds)] = &[
    ("parse", Seeds::Programs),
    ("lex", Seeds::Programs),
    ("parse_structured", Seeds::None),
    ("type_string", Seeds::TypeStrings),
    ("schema", Seeds::Schemas),
    ("check", Seeds::Programs),
    ("lsp", Seeds::None),
    ("fmt", Seeds::Programs),
];

#[derive(Clone, Copy)]
enum Seeds {
    None,
    Programs,
    TypeStrings,
    Schemas,
}

#[allow(clippy::print_stdout)]
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut seconds = 600u64;
    let mut chosen = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--time" => {
                let value = args.next().context("`--time` needs a number of seconds")?;
                seconds = value
                    .parse()
                    .context("`--time` takes a whole number of seconds")?;
            }
            name => match TARGETS.iter().find(|(target, _)| *target == name) {
                Some(target) => chosen.push(*target),
                None => {
                    let names: Vec<&str> = TARGETS.iter().map(|(name, _)| *name).collect();
                    bail!(
                        "unknown fuzz target `{name}`; the targets are {}",
                        names.join(", ")
                    )
                }
            },
        }
    }
    if chosen.is_empty() {
        chosen = TARGETS.to_vec();
    }
    let root = pcl_test_utils::project_root();
    let fuzz_dir = root.join("fuzz");
    ensure_cargo_fuzz()?;
    let mut failed = Vec::new();
    for (target, seeds) in chosen {
        let corpus = fuzz_dir.join("corpus").join(target);
        let seeded = write_seeds(&root, &corpus, seeds)?;
        println!(
            "== {target}: {seconds} s, {seeded} seeds in {}",
            corpus.display()
        );
        // Artifacts of earlier runs stay in the directory: only new ones are this run's.
        let earlier = artifacts(&fuzz_dir, target)?;
        let output = cargo_fuzz(&fuzz_dir)
            .args(["run", "-O", target])
            .arg(&corpus)
            .arg("--")
            .args([
                format!("-max_total_time={seconds}"),
                "-timeout=10".to_owned(),
                "-rss_limit_mb=4096".to_owned(),
                "-print_final_stats=1".to_owned(),
            ])
            .output()
            .context("cannot run cargo fuzz")?;
        let log = String::from_utf8_lossy(&output.stderr);
        println!("{}", summary(&log));
        if !output.status.success() {
            failed.push(target);
            let new: Vec<PathBuf> = (artifacts(&fuzz_dir, target)?.into_iter())
                .filter(|artifact| !earlier.contains(artifact))
                .collect();
            if new.is_empty() {
                println!("   no failing input was saved (did the target build?); the log ends:");
            }
            for artifact in new {
                let fixture = minimise(&root, &fuzz_dir, target, &artifact)?;
                println!("   failure minimised into {}", fixture.display());
            }
            match failure_message(&log) {
                Some(message) => println!("   the failure:\n{message}"),
                None => {
                    let tail: Vec<&str> = log.lines().rev().take(40).collect();
                    let tail: Vec<&str> = tail.into_iter().rev().collect();
                    println!("{}", tail.join("\n"));
                }
            }
        }
    }
    if !failed.is_empty() {
        bail!("fuzz targets failed: {}", failed.join(", "));
    }
    Ok(())
}

/// `cargo fuzz` in `fuzz/`, on stable with `RUSTC_BOOTSTRAP=1` unless rustc is nightly.
fn cargo_fuzz(fuzz_dir: &Path) -> Command {
    let mut command = Command::new("cargo");
    command.arg("fuzz").current_dir(fuzz_dir);
    let nightly = Command::new("rustc")
        .arg("--version")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains("nightly"));
    if !nightly {
        command.env("RUSTC_BOOTSTRAP", "1");
    }
    command.env("ASAN_OPTIONS", asan_options());
    command
}

/// `ASAN_OPTIONS` as set, with a short allocation stack unless it names one. AddressSanitizer
/// keeps every distinct allocation stack for the life of the process; the parser's recursion
/// over generated inputs makes new ones all the time, and `parse_structured` grew by about
/// 5 KB a run until it hit the 4 GB limit after 1.75M runs (43 MB flat without the
/// sanitizer). Four frames keep growth to about 0.5 KB a run and still say where a block
/// came from.
fn asan_options() -> String {
    let set = std::env::var("ASAN_OPTIONS").unwrap_or_default();
    if set.contains("malloc_context_size") {
        return set;
    }
    let separator = if set.is_empty() { "" } else { ":" };
    format!("{set}{separator}malloc_context_size=4")
}

#[allow(clippy::print_stdout)]
fn ensure_cargo_fuzz() -> anyhow::Result<()> {
    let installed = Command::new("cargo")
        .args(["fuzz", "--version"])
        .output()
        .is_ok_and(|out| out.status.success());
    if installed {
        return Ok(());
    }
    println!("== installing cargo-fuzz");
    let status = Command::new("cargo")
        .args(["install", "cargo-fuzz", "--locked"])
        .status()
        .context("cannot run cargo install")?;
    if !status.success() {
        bail!("`cargo install cargo-fuzz` failed");
    }
    Ok(())
}

/// Writes the seeds of a target into `corpus` (keeping what earlier runs found there);
/// returns how many were written.
fn write_seeds(root: &Path, corpus: &Path, seeds: Seeds) -> anyhow::Result<usize> {
    std::fs::create_dir_all(corpus)
        .with_context(|| format!("cannot create {}", corpus.display()))?;
    let data = root.join("tests/data");
    let shared = pcl_test_utils::corpus_dir();
    let mut texts: Vec<Vec<u8>> = Vec::new();
    let mut add_files = |dir: &Path, extensions: &[&str], limit: usize, max_bytes: u64| {
        let mut files = pcl_test_utils::files_with_extensions(dir, extensions);
        files.retain(|file| std::fs::metadata(file).is_ok_and(|m| m.len() <= max_bytes));
        files.truncate(limit);
        texts.extend(files.iter().filter_map(|file| std::fs::read(file).ok()));
    };
    match seeds {
        Seeds::None => {}
        Seeds::Programs => {
            add_files(&data.join("parser"), &["pp"], usize::MAX, 1 << 16);
            add_files(&data.join("lexer"), &["pp"], usize::MAX, 1 << 16);
            if let Some(shared) = &shared {
                add_files(shared, &["pp", "hcl", "tf"], 2000, 1 << 16);
            }
        }
        Seeds::Schemas => {
            add_files(&data.join("schemas"), &["json"], usize::MAX, 1 << 20);
            if let Some(shared) = &shared {
                add_files(&shared.join("schemas"), &["json"], 200, 1 << 18);
            }
        }
        Seeds::TypeStrings => {
            for file in pcl_test_utils::files_with_extensions(&data.join("types"), &["tsv"]) {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                for line in text.lines().filter(|line| !line.starts_with('#')) {
                    for field in line.split('\t') {
                        if field.contains('(') || field.chars().all(|c| c.is_ascii_lowercase()) {
                            texts.push(field.as_bytes().to_vec());
                        }
                    }
                }
            }
        }
    }
    for (i, text) in texts.iter().enumerate() {
        let path = corpus.join(format!("seed-{i:05}"));
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(texts.len())
}

/// libFuzzer's final line (`#N DONE cov: C ft: F corp: ... exec/s: E rss: R`) and stats.
fn summary(log: &str) -> String {
    let done = log
        .lines()
        .rev()
        .find(|line| line.contains(" DONE ") || line.contains("cov:"))
        .unwrap_or("(no libFuzzer status line)");
    let stat = |name: &str| {
        log.lines()
            .find_map(|line| line.strip_prefix(&format!("stat::{name}:")))
            .map_or("?".to_owned(), |value| value.trim().to_owned())
    };
    format!(
        "   {done}\n   executions: {}, per second: {}, peak RSS: {} MB",
        stat("number_of_executed_units"),
        stat("average_exec_per_sec"),
        stat("peak_rss_mb")
    )
}

/// What went wrong in a failed run, from its log: the Rust panic with its message (which
/// libFuzzer's last lines, a stack trace, do not show), else libFuzzer's or the
/// sanitizer's error line (a timeout, an out-of-memory, a crash outside Rust).
fn failure_message(log: &str) -> Option<String> {
    let lines: Vec<&str> = log.lines().collect();
    if let Some(at) = lines.iter().position(|line| line.contains("panicked at")) {
        let message: Vec<&str> = (lines[at..].iter())
            .take(20)
            .take_while(|line| {
                !line.starts_with("note:")
                    && !line.starts_with("stack backtrace")
                    && !line.starts_with("==")
            })
            .copied()
            .collect();
        return Some(message.join("\n"));
    }
    (lines.iter())
        .find(|line| line.contains("ERROR: libFuzzer:") || line.contains("ERROR: AddressSanitizer"))
        .map(|line| (*line).to_owned())
}

fn artifacts(fuzz_dir: &Path, target: &str) -> anyhow::Result<Vec<PathBuf>> {
    let dir = fuzz_dir.join("artifacts").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|name| {
                    ["crash-", "timeout-", "oom-", "leak-", "slow-unit-"]
                        .iter()
                        .any(|prefix| name.starts_with(prefix))
                })
        })
        .collect();
    found.sort();
    Ok(found)
}

/// Minimises a failing input and copies it to `tests/data/fuzz/TARGET/`.
fn minimise(
    root: &Path,
    fuzz_dir: &Path,
    target: &str,
    artifact: &Path,
) -> anyhow::Result<PathBuf> {
    let name = artifact
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("failure")
        .to_owned();
    let _ = cargo_fuzz(fuzz_dir)
        .args(["tmin", "-O", target])
        .arg(artifact)
        .output();
    let minimised = artifact.with_file_name(format!(
        "minimized-from-{}",
        name.split('-').next_back().unwrap_or(&name)
    ));
    let source = if minimised.exists() {
        minimised
    } else {
        artifact.to_path_buf()
    };
    let dir = root.join("tests/data/fuzz").join(target);
    std::fs::create_dir_all(&dir)?;
    let fixture = dir.join(&name);
    std::fs::copy(&source, &fixture)
        .with_context(|| format!("cannot copy {} to {}", source.display(), fixture.display()))?;
    Ok(fixture)
}

#[cfg(test)]
mod tests {
    use super::failure_message;

    #[test]
    fn a_failed_run_shows_the_panic_message() {
        let log = "INFO: Seed: 1\n#1024 pulse cov: 10\n\nthread '<unnamed>' panicked at crates/fmt/src/layout.rs:10:5:\nassertion `left == right` failed: not idempotent\n  left: \"a\"\n right: \"b\"\nnote: run with `RUST_BACKTRACE=1`\n==123== ERROR: libFuzzer: deadly signal\n    #0 0x5 in __sanitizer_print_stack_trace\n";
        assert_eq!(
            failure_message(log).as_deref(),
            Some(
                "thread '<unnamed>' panicked at crates/fmt/src/layout.rs:10:5:\nassertion `left == right` failed: not idempotent\n  left: \"a\"\n right: \"b\""
            )
        );
        let timeout = "#5 NEW cov: 3\n==7== ERROR: libFuzzer: timeout after 10 seconds\nSUMMARY: libFuzzer: timeout\n";
        assert_eq!(
            failure_message(timeout).as_deref(),
            Some("==7== ERROR: libFuzzer: timeout after 10 seconds")
        );
        assert_eq!(failure_message("built, then nothing\n"), None);
    }
}
