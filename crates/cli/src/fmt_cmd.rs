//! `pcl fmt [--check] [--diff] PATH...|-`: rewrite files into the canonical HCL layout
//! (what `terraform fmt` produces), list them, or show the changes as a unified diff.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use pcl_diagnostics::FileId;

use crate::inputs::{self, Input, SourceFile};
use crate::print_out;
use crate::report::{ColorWhen, DiagnosticFormat, Reporter, Totals, plural};

/// Format PCL (and any HCL) files in the canonical layout of `terraform fmt`.
#[derive(clap::Args)]
#[command(after_help = "\
Files: a FILE named on the command line is formatted whatever its extension; below a
DIRECTORY, every *.pp, *.hcl and *.tf file is, in sorted order, skipping hidden entries
(.git, .terraform) and not following symbolic links to directories. `-` formats standard
input and prints the result on stdout.

Files are rewritten in place (through a temporary file beside them, keeping their
permissions) and the changed ones are listed on stdout. A file with syntax errors is
left unchanged and its errors are reported. Only spaces between tokens change: never
newlines, comments, template text or heredoc contents.

Exit codes:
  0  success (with --check or --diff: every file is formatted)
  1  syntax errors, or with --check or --diff: a file is not formatted
  2  usage or IO error, or no files found")]
pub(crate) struct FmtArgs {
    /// Files or directories to format; `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Change nothing; list the files that are not formatted and exit 1 if there are any
    /// (for CI).
    #[arg(long)]
    check: bool,
    /// Change nothing; print what formatting would change as a unified diff on stdout and
    /// exit 1 if anything would change.
    #[arg(long)]
    diff: bool,
    /// Show at most N syntax errors per file, 0 for all.
    #[arg(long, value_name = "N", default_value_t = 50)]
    max_errors: usize,
    /// Do not print the summary line at the end.
    #[arg(short, long)]
    quiet: bool,
}

pub(crate) fn run(args: FmtArgs, color: ColorWhen) -> ExitCode {
    let start = Instant::now();
    let mut reporter = Reporter::new(DiagnosticFormat::Human, color, args.max_errors);
    let inputs = match inputs::expand_sources(&args.paths, &mut reporter) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let mut totals = Totals::default();
    let mut changed = 0;
    let mut skipped = 0;
    for input in &inputs {
        let file = match input.read() {
            Ok(file) => file,
            Err(message) => {
                reporter.io_error(&message);
                continue;
            }
        };
        totals.add_file(&file);
        let formatted = match pcl_fmt::format(&file.text) {
            Ok(formatted) => formatted,
            Err(errors) => {
                let diagnostics: Vec<_> = (errors.iter())
                    .map(|error| error.to_diagnostic(FileId(0)))
                    .collect();
                reporter.file(&file, &diagnostics);
                skipped += 1;
                continue;
            }
        };
        let is_changed = *formatted != *file.text;
        changed += usize::from(is_changed);
        if args.diff {
            if is_changed {
                print_out(&unified_diff(&file.name, &file.text, &formatted));
            }
            continue;
        }
        match input {
            Input::Stdin if !args.check => print_out(&formatted),
            _ if !is_changed => (),
            Input::File(path) if !args.check => {
                if let Err(message) = write_atomically(path, &formatted, &file) {
                    reporter.io_error(&message);
                    continue;
                }
                print_out(&format!("{}\n", file.name));
            }
            _ => print_out(&format!("{}\n", file.name)),
        }
    }
    if !args.quiet {
        let mut note = match (changed, args.check || args.diff) {
            (0, _) if skipped > 0 => "nothing else to format".to_owned(),
            (0, _) if reporter.io_errors() > 0 => "the files read are formatted".to_owned(),
            (0, _) => "all formatted".to_owned(),
            (n, true) => format!("{} not formatted", plural(n, "file", "files")),
            (n, false) => format!("{} reformatted", plural(n, "file", "files")),
        };
        if skipped > 0 {
            let files = plural(skipped, "file", "files");
            note = format!("{files} left unchanged for syntax errors, {note}");
        }
        // `--check` and `--diff` change nothing: they read.
        let verb = match (args.check || args.diff, skipped) {
            (true, _) => "checked the formatting of",
            (false, 0) => "formatted",
            (false, _) => "read",
        };
        reporter.summary_noting(verb, &totals, start.elapsed(), &note);
    }
    reporter.finish();
    if reporter.io_errors() > 0 {
        ExitCode::from(2)
    } else if reporter.errors() > 0 || ((args.check || args.diff) && changed > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Replaces the file at `path` (or the file a symbolic link there points to) by `text`:
/// written to a temporary file beside it with the same permissions, then renamed over it,
/// so a crash leaves either the old or the new file, never half of one.
fn write_atomically(path: &Path, text: &str, file: &SourceFile) -> Result<(), String> {
    let fail = |what: &str, err: std::io::Error| {
        format!(
            "cannot {what} `{}`: {}; it is unchanged",
            file.name,
            inputs::io_reason(&err)
        )
    };
    let target = std::fs::canonicalize(path).map_err(|err| fail("resolve", err))?;
    let permissions = std::fs::metadata(&target)
        .map_err(|err| fail("read the permissions of", err))?
        .permissions();
    let file_name = target.file_name().map_or_else(
        || "pcl-fmt".into(),
        |name| name.to_string_lossy().into_owned(),
    );
    let temporary = target.with_file_name(format!(".{file_name}.pcl-fmt.{}", std::process::id()));
    let written = std::fs::write(&temporary, text)
        .and_then(|()| std::fs::set_permissions(&temporary, permissions))
        .and_then(|()| std::fs::rename(&temporary, &target));
    written.map_err(|err| {
        let _ = std::fs::remove_file(&temporary);
        fail("write", err)
    })
}

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// A unified diff of `old` and `new`, which have the same number of lines (formatting
/// never adds or removes one), so line `i` of one corresponds to line `i` of the other.
fn unified_diff(name: &str, old: &str, new: &str) -> String {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let n_lines = old_lines.len().min(new_lines.len());
    let changed: Vec<usize> = (0..n_lines)
        .filter(|&idx| old_lines[idx] != new_lines[idx])
        .collect();
    let mut res = format!("--- a/{name}\n+++ b/{name}\n");
    let mut next = 0;
    while next < changed.len() {
        // A hunk takes every change closer than two contexts to the previous one.
        let mut last = next;
        while last + 1 < changed.len() && changed[last + 1] - changed[last] <= 2 * CONTEXT {
            last += 1;
        }
        let first_line = changed[next].saturating_sub(CONTEXT);
        let end_line = (changed[last] + CONTEXT + 1).min(n_lines);
        let span = end_line - first_line;
        res.push_str(&format!("@@ -{0},{span} +{0},{span} @@\n", first_line + 1));
        let mut line = first_line;
        while line < end_line {
            if old_lines[line] == new_lines[line] {
                push_diff_line(&mut res, ' ', old_lines[line]);
                line += 1;
                continue;
            }
            let run_end = (line..end_line)
                .find(|&idx| old_lines[idx] == new_lines[idx])
                .unwrap_or(end_line);
            for old_line in &old_lines[line..run_end] {
                push_diff_line(&mut res, '-', old_line);
            }
            for new_line in &new_lines[line..run_end] {
                push_diff_line(&mut res, '+', new_line);
            }
            line = run_end;
        }
        next = last + 1;
    }
    res
}

fn push_diff_line(acc: &mut String, marker: char, line: &str) {
    acc.push(marker);
    acc.push_str(line);
    if !line.ends_with('\n') {
        acc.push_str("\n\\ No newline at end of file\n");
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::unified_diff;

    #[test]
    fn a_diff_groups_nearby_changes_and_marks_a_missing_final_newline() {
        let old = "a=1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\ng = 7\nh = 8\ni = 9\nj = 10\nk = 11\nl = 12\nm=13";
        let new = "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\ng = 7\nh = 8\ni = 9\nj = 10\nk = 11\nl = 12\nm = 13";
        expect![[r#"
            --- a/x.pp
            +++ b/x.pp
            @@ -1,4 +1,4 @@
            -a=1
            +a = 1
             b = 2
             c = 3
             d = 4
            @@ -10,4 +10,4 @@
             j = 10
             k = 11
             l = 12
            -m=13
            \ No newline at end of file
            +m = 13
            \ No newline at end of file
        "#]]
        .assert_eq(&unified_diff("x.pp", old, new));
    }
}
