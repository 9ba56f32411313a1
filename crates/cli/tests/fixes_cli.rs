//! Every quick fix `pcl check --format json` offers in the check fixtures
//! (`tests/data/check`), applied alone to a copy of its program, removes the diagnostic it
//! fixes and adds no error, apart from those the fix lets the checker see ([`UNCOVERED`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use pcl_test_utils::{ScratchDir, test_data_dir};
use serde_json::Value;

/// Errors a fix uncovers, by fixture and code: what was hidden behind the fixed mistake
/// (a component found once its path is right has required inputs; a resource type
/// written right has inputs to check; a provider option given a resource must be given a
/// provider; a property found leads to the next step of its path).
const UNCOVERED: &[(&str, &str)] = &[
    ("components", "PCL4007"),
    ("follow-on", "PCL3006"),
    ("references", "PCL4008"),
    ("resources", "PCL4006"),
];

/// `pcl check --format json` of `program` with `args`: the diagnostics.
fn diagnostics(program: &Path, args: &[String]) -> Vec<Value> {
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(["check", "--format", "json"])
        .args(args)
        .arg(program)
        .env_remove("PCL_SCHEMA_PATH")
        .output()
        .expect("the pcl binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    (stdout.lines())
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).expect("a JSON diagnostic"))
        .collect()
}

/// How many errors of each (code, message) there are.
fn errors(diagnostics: &[Value]) -> BTreeMap<(String, String), usize> {
    let mut counts = BTreeMap::new();
    for d in diagnostics.iter().filter(|d| d["severity"] == "error") {
        let key = (d["code"].to_string(), d["message"].to_string());
        *counts.entry(key).or_default() += 1;
    }
    counts
}

/// A fixture's `# pcl-check-args:` with its schema directories made absolute (they are
/// relative to the fixtures' directory), and the test schemas when it names none.
fn fixture_args(program: &Path, fixtures: &Path) -> Vec<String> {
    let first_file = pcl_test_utils::files_with_extensions(program, &["pp"]);
    let text = (first_file.first())
        .and_then(|file| std::fs::read_to_string(file).ok())
        .unwrap_or_default();
    let written = (text.lines().next())
        .and_then(|line| line.strip_prefix("# pcl-check-args:"))
        .unwrap_or_default();
    let mut args: Vec<String> = Vec::new();
    let mut words = written.split_whitespace();
    while let Some(word) = words.next() {
        args.push(word.to_owned());
        if word == "--schema-dir"
            && let Some(dir) = words.next()
        {
            args.push(fixtures.join(dir).display().to_string());
        }
    }
    if !args.iter().any(|a| a == "--schema-dir") {
        let schemas = fixtures.join("../programs/schemas");
        args.extend(["--schema-dir".to_owned(), schemas.display().to_string()]);
    }
    args
}

/// Copies the directory `from` into `to`, recursively.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("readable").flatten() {
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        match source.is_dir() {
            true => copy_dir(&source, &target),
            false => {
                std::fs::copy(&source, &target).expect("copied");
            }
        }
    }
}

/// `fix`'s edits applied to the files they name (offsets in bytes); their texts before.
fn apply(fix: &Value) -> Vec<(PathBuf, Vec<u8>)> {
    let mut by_file: BTreeMap<PathBuf, Vec<&Value>> = BTreeMap::new();
    for edit in fix["edits"].as_array().into_iter().flatten() {
        let file = PathBuf::from(edit["file"].as_str().expect("a file"));
        by_file.entry(file).or_default().push(edit);
    }
    let mut before = Vec::new();
    for (file, mut edits) in by_file {
        let original = std::fs::read(&file).expect("the fixed file is there");
        let mut text = original.clone();
        edits.sort_by_key(|edit| std::cmp::Reverse(edit["range"]["start"]["offset"].as_u64()));
        for edit in edits {
            let offset = |end: &str| edit["range"][end]["offset"].as_u64().unwrap_or(0) as usize;
            let replacement = edit["replacement"].as_str().unwrap_or_default().as_bytes();
            text.splice(offset("start")..offset("end"), replacement.iter().copied());
        }
        std::fs::write(&file, text).expect("written");
        before.push((file, original));
    }
    before
}

#[test]
fn every_fix_in_the_check_fixtures_fixes_what_it_says() {
    let originals = test_data_dir().join("check");
    let scratch = ScratchDir::new("fixes");
    let fixtures = scratch.join("check");
    copy_dir(&originals, &fixtures);
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .expect("the fixtures")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    programs.sort();
    let (mut fixes, mut failures) = (0, Vec::new());
    for program in programs {
        let name = program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        // Schema directories are the originals', beside the fixtures.
        let args = fixture_args(&program, &originals);
        let found = diagnostics(&program, &args);
        let counts = errors(&found);
        for diagnostic in &found {
            for fix in diagnostic["fixes"].as_array().into_iter().flatten() {
                fixes += 1;
                let restore = apply(fix);
                let after = errors(&diagnostics(&program, &args));
                for (file, text) in restore {
                    std::fs::write(file, text).expect("restored");
                }
                let key = (
                    diagnostic["code"].to_string(),
                    diagnostic["message"].to_string(),
                );
                let fixed = diagnostic["severity"] != "error"
                    || after.get(&key).copied().unwrap_or(0) < counts[&key];
                let added: Vec<&(String, String)> = (after.iter())
                    .filter(|(key, count)| **count > counts.get(*key).copied().unwrap_or(0))
                    .map(|(key, _)| key)
                    .filter(|(code, _)| {
                        let code = code.trim_matches('"');
                        !UNCOVERED.contains(&(name.as_str(), code))
                    })
                    .collect();
                if !fixed || !added.is_empty() {
                    failures.push(format!(
                        "{name}: {} ({}): fixed {fixed}, new errors {added:?}",
                        diagnostic["message"], fix["message"]
                    ));
                }
            }
        }
    }
    assert!(fixes >= 50, "only {fixes} fixes found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
