//! `pcl parse [--tree] PATH...`: parse files (or directories of `.pp`, `.hcl`, `.tf` files) and
//! report syntax errors with source snippets; `--tree` prints the lossless syntax tree.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;

use crate::{print_err, print_out, usage_error};

/// File extensions `pcl parse` picks up when walking a directory.
const SOURCE_EXTENSIONS: &[&str] = &["pp", "hcl", "tf"];

pub(crate) fn run(args: &[String]) -> ExitCode {
    let mut print_tree = false;
    let mut paths = Vec::new();
    for arg in args {
        match arg.as_str() {
            "--tree" => print_tree = true,
            "--help" | "-h" => {
                print_out("usage: pcl parse [--tree] PATH...\n");
                return ExitCode::SUCCESS;
            }
            flag if flag.starts_with('-') && flag != "-" => {
                return usage_error(&format!("unknown option `{flag}` for `pcl parse`"));
            }
            path => paths.push(PathBuf::from(path)),
        }
    }
    if paths.is_empty() {
        return usage_error("`pcl parse` needs at least one file or directory");
    }

    let mut outcome = Outcome::default();
    for path in &paths {
        match source_files(path) {
            Ok(files) => {
                for file in files {
                    parse_file(&mut outcome, &file, print_tree);
                }
            }
            Err(message) => {
                print_err(&format!("error: {message}\n"));
                outcome.io_errors += 1;
            }
        }
    }
    if outcome.syntax_errors > 0 {
        let plural = if outcome.syntax_errors == 1 { "" } else { "s" };
        print_err(&format!(
            "{} syntax error{plural} in {} of {} files\n",
            outcome.syntax_errors, outcome.files_with_errors, outcome.files
        ));
    }
    if outcome.io_errors > 0 {
        ExitCode::from(2)
    } else if outcome.syntax_errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[derive(Default)]
struct Outcome {
    files: usize,
    files_with_errors: usize,
    syntax_errors: usize,
    io_errors: usize,
}

/// The files `path` names: itself, or the source files below it, sorted.
fn source_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    let metadata = std::fs::metadata(path)
        .map_err(|err| format!("cannot read `{}`: {}", path.display(), io_reason(&err)))?;
    if !metadata.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut res = Vec::new();
    collect_dir(&mut res, path)?;
    res.sort();
    Ok(res)
}

fn collect_dir(acc: &mut Vec<PathBuf>, dir: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|err| {
        format!(
            "cannot read directory `{}`: {}",
            dir.display(),
            io_reason(&err)
        )
    })?;
    for entry in entries {
        let entry = entry.map_err(|err| {
            format!(
                "cannot read directory `{}`: {}",
                dir.display(),
                io_reason(&err)
            )
        })?;
        let path = entry.path();
        if path.is_dir() {
            collect_dir(acc, &path)?;
        } else if path
            .extension()
            .and_then(|ext| ext.to_str())
            .is_some_and(|ext| SOURCE_EXTENSIONS.contains(&ext))
        {
            acc.push(path);
        }
    }
    Ok(())
}

fn parse_file(outcome: &mut Outcome, path: &Path, print_tree: bool) {
    let text = match read_utf8(path) {
        Ok(text) => text,
        Err(message) => {
            print_err(&format!("error: {message}\n"));
            outcome.io_errors += 1;
            return;
        }
    };
    outcome.files += 1;
    let parse = pcl_syntax::parse(&text);
    if print_tree {
        print_out(&pcl_syntax::debug_tree(&parse.syntax_node()));
    }
    if parse.errors().is_empty() {
        return;
    }
    outcome.files_with_errors += 1;
    outcome.syntax_errors += parse.errors().len();
    let file = SimpleFile::new(path.display().to_string(), text.as_str());
    let config = term::Config::default();
    let mut rendered = String::new();
    for error in parse.errors() {
        let mut range = usize::from(error.range.start())..usize::from(error.range.end());
        if matches!(&text[range.clone()], "\n" | "\r\n") {
            // A caret at the end of the line reads better than a label spanning two lines.
            range.end = range.start;
        }
        let mut labels = vec![Label::primary((), range)];
        if let Some((related, label)) = &error.related {
            let related = usize::from(related.start())..usize::from(related.end());
            labels.push(Label::secondary((), related).with_message(label));
        }
        let diagnostic = Diagnostic::error()
            .with_code(error.code.to_string())
            .with_message(&error.message)
            .with_labels(labels);
        match term::emit_into_string(&config, &file, &diagnostic) {
            Ok(text) => rendered.push_str(&text),
            Err(err) => rendered.push_str(&format!("error: {}: {err}\n", path.display())),
        }
    }
    print_err(&rendered);
}

/// Reads `path` as UTF-8, naming the first invalid byte otherwise.
fn read_utf8(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path)
        .map_err(|err| format!("cannot read `{}`: {}", path.display(), io_reason(&err)))?;
    String::from_utf8(bytes).map_err(|err| {
        let offset = err.utf8_error().valid_up_to();
        let byte = err.as_bytes()[offset];
        format!(
            "`{}` is not valid UTF-8: byte 0x{byte:02x} at offset {offset} does not start a valid UTF-8 sequence",
            path.display()
        )
    })
}

/// An IO error's reason without the OS error number noise.
fn io_reason(err: &std::io::Error) -> String {
    match err.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => err.to_string(),
    }
}
