//! `cargo xtask hcl-compare`: our parser beside Go's `hclsyntax` on the same files.
//!
//! Go's side is the `-mode check` driver of `shared/tools/hclsyntax-bench` (built by its
//! `build.sh`), which prints one line per file: `OK <path> attrs=<n>` or `FAIL <path> <first
//! error>`. For every file this compares whether it parses without errors and, when both accept
//! it, the number of top-level attributes; when both reject it, a different line for the first
//! error is listed as a note (the two parsers recover differently, so only the first error is
//! comparable).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail, format_err};
use pcl_syntax::SyntaxKind;

const USAGE: &str = "cargo xtask hcl-compare --go BIN PATH...";

/// The extensions of the files taken from directories, as `pcl parse` takes them.
const EXTENSIONS: [&str; 3] = ["pp", "hcl", "tf"];

/// What one parser says of one file.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// No errors; the number of top-level attributes.
    Ok { attributes: usize },
    /// Errors; the 1-based line of the first one.
    Fail { line: usize, message: String },
}

/// Runs the comparison; `Ok(false)` when the parsers disagree on some file.
#[allow(clippy::print_stdout)]
pub(crate) fn run(args: &[String]) -> anyhow::Result<bool> {
    let mut go: Option<PathBuf> = None;
    let mut roots = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--go" => {
                let bin = args
                    .next()
                    .ok_or_else(|| format_err!("`--go` needs the path of the Go driver"))?;
                go = Some(PathBuf::from(bin));
            }
            flag if flag.starts_with('-') => bail!("unknown option `{flag}`\nusage: {USAGE}"),
            path => roots.push(PathBuf::from(path)),
        }
    }
    let go = go.ok_or_else(|| {
        format_err!(
            "`--go BIN` is required: build it with shared/tools/hclsyntax-bench/build.sh\nusage: {USAGE}"
        )
    })?;
    if roots.is_empty() {
        bail!("no files or directories given\nusage: {USAGE}");
    }
    let files = collect_files(&roots)?;
    let theirs = run_go(&go, &files)?;
    let report = compare(&files, &theirs)?;
    print!("{}", report.text);
    Ok(report.disagreements == 0)
}

fn collect_files(roots: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for root in roots {
        if root.is_dir() {
            files.extend(pcl_test_utils::files_with_extensions(root, &EXTENSIONS));
        } else if root.is_file() {
            files.push(root.clone());
        } else {
            bail!("`{}` is neither a file nor a directory", root.display());
        }
    }
    Ok(files)
}

/// Runs the Go driver over `files` and reads its verdicts, by path.
fn run_go(go: &Path, files: &[PathBuf]) -> anyhow::Result<HashMap<String, Verdict>> {
    let list = std::env::temp_dir().join(format!("pcl-hcl-compare-{}.list", std::process::id()));
    let mut text = String::new();
    for file in files {
        let _ = writeln!(text, "{}", file.display());
    }
    std::fs::write(&list, text).with_context(|| format!("cannot write `{}`", list.display()))?;
    let output = Command::new(go)
        .args(["-mode", "check", "-list"])
        .arg(&list)
        .output()
        .with_context(|| format!("cannot run the Go driver `{}`", go.display()));
    let _ = std::fs::remove_file(&list);
    let output = output?;
    if !output.status.success() {
        bail!(
            "the Go driver failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(parse_go_line)
        .collect()
}

/// One line of `-mode check` output: `OK\t<path>\tattrs=<n>` or `FAIL\t<path>\t<error>`, where
/// the error reads `<path>:<line>,<column>-…: <summary>; <detail>`.
fn parse_go_line(line: &str) -> anyhow::Result<(String, Verdict)> {
    let malformed = || format_err!("unexpected line from the Go driver: {line:?}");
    let mut fields = line.splitn(3, '\t');
    let (Some(status), Some(path), Some(rest)) = (fields.next(), fields.next(), fields.next())
    else {
        return Err(malformed());
    };
    let verdict = match status {
        "OK" => Verdict::Ok {
            attributes: rest
                .strip_prefix("attrs=")
                .and_then(|count| count.parse().ok())
                .ok_or_else(malformed)?,
        },
        "FAIL" => {
            let position = rest.strip_prefix(path).and_then(|it| it.strip_prefix(':'));
            let line = position
                .and_then(|it| it.split(',').next())
                .and_then(|it| it.parse().ok())
                .unwrap_or(0);
            let message = position
                .and_then(|it| it.split_once(": "))
                .map_or(rest, |(_, message)| message);
            Verdict::Fail {
                line,
                message: message.to_owned(),
            }
        }
        _ => return Err(malformed()),
    };
    Ok((path.to_owned(), verdict))
}

/// What our parser says of `text`.
fn our_verdict(text: &str) -> Verdict {
    let parse = pcl_syntax::parse(text);
    match parse.errors().first() {
        None => Verdict::Ok {
            attributes: parse
                .syntax_node()
                .children()
                .filter(|node| node.kind() == SyntaxKind::BODY)
                .flat_map(|body| body.children())
                .filter(|item| item.kind() == SyntaxKind::ATTRIBUTE)
                .count(),
        },
        Some(error) => {
            let offset = usize::from(error.range.start());
            Verdict::Fail {
                line: 1 + text.as_bytes()[..offset]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count(),
                message: error.message.clone(),
            }
        }
    }
}

struct Report {
    text: String,
    disagreements: usize,
}

fn compare(files: &[PathBuf], theirs: &HashMap<String, Verdict>) -> anyhow::Result<Report> {
    let mut text = String::new();
    let mut notes = String::new();
    let (mut both_ok, mut both_fail, mut disagreements, mut skipped) = (0, 0, 0, 0);
    for file in files {
        let key = file.display().to_string();
        let theirs = theirs
            .get(&key)
            .ok_or_else(|| format_err!("the Go driver said nothing of `{key}`"))?;
        let bytes = std::fs::read(file).with_context(|| format!("cannot read `{key}`"))?;
        let Ok(source) = String::from_utf8(bytes) else {
            // `pcl parse` rejects such files before parsing; nothing to compare.
            skipped += 1;
            continue;
        };
        match (our_verdict(&source), theirs) {
            (ours, theirs) if ours == *theirs => both_ok += 1,
            (Verdict::Fail { line, message }, Verdict::Fail { line: go_line, .. }) => {
                both_fail += 1;
                if line != *go_line {
                    let _ = writeln!(
                        notes,
                        "note: {key}: first error on line {line} here, line {go_line} in Go: {message}"
                    );
                }
            }
            (ours, theirs) => {
                disagreements += 1;
                let _ = writeln!(
                    text,
                    "differs: {key}\n  ours: {}\n  Go:   {}",
                    ours.describe(),
                    theirs.describe()
                );
            }
        }
    }
    text.push_str(&notes);
    let _ = writeln!(
        text,
        "{} files: {both_ok} accepted by both, {both_fail} rejected by both, {disagreements} differ, {skipped} not UTF-8",
        files.len()
    );
    Ok(Report {
        text,
        disagreements,
    })
}

impl Verdict {
    fn describe(&self) -> String {
        match self {
            Verdict::Ok { attributes } => format!("no errors, {attributes} top-level attributes"),
            Verdict::Fail { line, message } => format!("error on line {line}: {message}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_lines_are_read() {
        let ok = parse_go_line("OK\tdir/a.tf\tattrs=3").expect("valid");
        assert_eq!(ok, ("dir/a.tf".to_owned(), Verdict::Ok { attributes: 3 }));
        let fail = parse_go_line(
            "FAIL\tdir/b.tf\tdir/b.tf:4,5-9: Attribute redefined; The argument \"path\" was already set.",
        )
        .expect("valid");
        assert_eq!(
            fail,
            (
                "dir/b.tf".to_owned(),
                Verdict::Fail {
                    line: 4,
                    message: "Attribute redefined; The argument \"path\" was already set."
                        .to_owned()
                }
            )
        );
        assert!(parse_go_line("RESULT tool=go").is_err());
    }

    #[test]
    fn our_verdicts_count_top_level_attributes_and_locate_the_first_error() {
        assert_eq!(
            our_verdict("a = 1\nb { c = 2 }\nd = 3\n"),
            Verdict::Ok { attributes: 2 }
        );
        let Verdict::Fail { line, .. } = our_verdict("a = 1\n\nb = (\n") else {
            panic!("an unclosed parenthesis is an error");
        };
        assert_eq!(line, 3);
    }
}
