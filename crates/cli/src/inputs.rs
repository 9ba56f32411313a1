//! What commands read: the files named on the command line or found below named
//! directories, and standard input as `-`, with the walking rules every command shares.
//!
//! Walking rules (as ripgrep and `terraform fmt` users expect, minus `.gitignore`):
//! a directory is walked recursively in sorted order; symbolic links to directories are
//! followed only when named on the command line; hidden entries (a name starting with
//! `.`, such as `.git` or `.terraform`) are skipped unless named; only files with one of
//! the command's extensions are picked up below a directory, while a file named on the
//! command line is read whatever its extension.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use pcl_diagnostics::Severity;

use crate::report::Reporter;

/// The file extensions `pcl parse` and `pcl fmt` pick up when walking a directory.
pub(crate) const SOURCE_EXTENSIONS: &[&str] = &["pp", "hcl", "tf"];

/// The name standard input goes by in messages.
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// One input, read and decoded.
#[derive(Clone)]
pub(crate) struct SourceFile {
    /// The path as given or found (relative when the argument was), or `<stdin>`.
    pub(crate) name: String,
    /// Shared with the analysis host, which keeps the text too.
    pub(crate) text: Arc<String>,
    /// How many lines the text has, counted when it was read (on the reading thread,
    /// while the text is in the CPU's cache), for the summary line.
    pub(crate) lines: usize,
    /// Where a program file's bytes stopped being UTF-8 ([`Input::read_program_file`]).
    pub(crate) invalid_utf8: Option<pcl_syntax::InvalidUtf8>,
}

impl SourceFile {
    pub(crate) fn new(name: String, text: String) -> SourceFile {
        SourceFile::shared(name, text.into())
    }

    /// A file whose text the analysis host already holds.
    pub(crate) fn shared(name: String, text: Arc<String>) -> SourceFile {
        SourceFile {
            lines: crate::report::line_count(&text),
            name,
            text,
            invalid_utf8: None,
        }
    }

    /// The text as the analysis host takes it.
    pub(crate) fn source_text(&self) -> pcl_ide::SourceText {
        pcl_ide::SourceText {
            text: Arc::clone(&self.text),
            invalid_utf8: self.invalid_utf8,
        }
    }
}

/// An input to read: a file path or standard input.
pub(crate) enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The input as UTF-8 text; other bytes are an error (a file `pcl fmt` would write
    /// back, or JSON).
    pub(crate) fn read(&self) -> Result<SourceFile, String> {
        let (name, bytes) = self.read_bytes()?;
        decode(&name, bytes)
    }

    /// A program file to check or parse: bytes that are not UTF-8 are read with each
    /// invalid sequence replaced, and reported as the file's first diagnostic
    /// (`PCL1016`), as Pulumi's parser goes on past them.
    pub(crate) fn read_program_file(&self) -> Result<SourceFile, String> {
        let (name, bytes) = self.read_bytes()?;
        let (text, invalid_utf8) = pcl_syntax::decode_source(bytes);
        // Each invalid byte read as U+FFFD takes three: offsets must still fit 32 bits.
        if text.len() as u64 > pcl_ide::LARGEST_SOURCE {
            return Err(format!(
                "cannot read `{name}`: it is larger than 4 GiB once its invalid UTF-8 is replaced, the most pcl reads (offsets into a file are 32-bit)"
            ));
        }
        Ok(SourceFile {
            invalid_utf8,
            ..SourceFile::new(name, text)
        })
    }

    /// The input's name in messages and its bytes.
    fn read_bytes(&self) -> Result<(String, Vec<u8>), String> {
        match self {
            Input::Stdin => {
                let bytes = pcl_ide::read_source(std::io::stdin().lock(), None)
                    .map_err(|err| format!("cannot read {STDIN_NAME}: {}", io_reason(&err)))?;
                Ok((STDIN_NAME.to_owned(), bytes))
            }
            Input::File(path) => {
                let name = path.display().to_string();
                let bytes = pcl_ide::read_source_file(path)
                    .map_err(|err| format!("cannot read `{name}`: {}", io_reason(&err)))?;
                Ok((name, bytes))
            }
        }
    }
}

/// The inputs the command-line `paths` name, in order, and an error message for each path
/// that cannot be read. `-` is standard input (at most once).
pub(crate) fn expand(paths: &[PathBuf], extensions: &[&str]) -> (Vec<Input>, Vec<String>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    let mut stdin_seen = false;
    for path in paths {
        if path.as_os_str() == "-" {
            if !stdin_seen {
                inputs.push(Input::Stdin);
                stdin_seen = true;
            }
            continue;
        }
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => walk(path, extensions, &mut inputs, &mut errors),
            Ok(_) => inputs.push(Input::File(path.clone())),
            Err(err) => errors.push(format!(
                "cannot read `{}`: {}",
                path.display(),
                io_reason(&err)
            )),
        }
    }
    (inputs, errors)
}

/// The source files (`SOURCE_EXTENSIONS`) that `paths` name, for commands that read files
/// one by one, with each path that cannot be read reported as an IO error. When nothing
/// is found and nothing failed, what was searched for is reported and the command ends
/// with exit code 2 (`Err`).
pub(crate) fn expand_sources(
    paths: &[PathBuf],
    reporter: &mut Reporter,
) -> Result<Vec<Input>, ExitCode> {
    let (inputs, io_errors) = expand(paths, SOURCE_EXTENSIONS);
    for error in &io_errors {
        reporter.io_error(error);
    }
    if inputs.is_empty() && io_errors.is_empty() {
        reporter.message(Severity::Error, &searched_for(paths, SOURCE_EXTENSIONS));
        return Err(ExitCode::from(2));
    }
    Ok(inputs)
}

/// What a search for `extensions` under `paths` looked for, for the "no files" error.
pub(crate) fn searched_for(paths: &[PathBuf], extensions: &[&str]) -> String {
    let patterns: Vec<String> = extensions.iter().map(|ext| format!("*.{ext}")).collect();
    let places: Vec<String> = paths
        .iter()
        .map(|path| format!("`{}`", path.display()))
        .collect();
    format!(
        "no {} files in {} (hidden directories are skipped unless named)",
        patterns.join(", "),
        places.join(", ")
    )
}

fn walk(root: &Path, extensions: &[&str], inputs: &mut Vec<Input>, errors: &mut Vec<String>) {
    let entries = walkdir::WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| entry.depth() == 0 || !is_hidden(entry.file_name()));
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let place = err.path().unwrap_or(root).display().to_string();
                let reason = err.io_error().map_or_else(|| err.to_string(), io_reason);
                errors.push(format!("cannot read `{place}`: {reason}"));
                continue;
            }
        };
        let path = entry.path();
        let wanted = path
            .extension()
            .and_then(|ext| ext.to_str())
            .is_some_and(|ext| extensions.contains(&ext));
        // A link to a file counts as the file; a link to a directory is not followed.
        let is_file = entry.file_type().is_file()
            || (entry.path_is_symlink() && std::fs::metadata(path).is_ok_and(|m| m.is_file()));
        if wanted && is_file {
            inputs.push(Input::File(path.to_path_buf()));
        }
    }
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.to_str()
        .is_some_and(|name| name.starts_with('.') && name != "." && name != "..")
}

/// The text of `bytes`; not UTF-8 is an error naming the first invalid byte.
pub(crate) fn decode(name: &str, bytes: Vec<u8>) -> Result<SourceFile, String> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile::new(name.to_owned(), text)),
        Err(err) => {
            let offset = err.utf8_error().valid_up_to();
            let byte = err.as_bytes()[offset];
            Err(format!(
                "`{name}` is not valid UTF-8: byte 0x{byte:02x} at offset {offset} does not start a valid UTF-8 sequence"
            ))
        }
    }
}

/// Why a `--schema-dir` cannot be searched, for a usage error: it does not exist, or it
/// is a schema file rather than the directory holding it.
pub(crate) fn schema_dir_error(dirs: &[PathBuf]) -> Option<String> {
    let bad = dirs.iter().find(|dir| !dir.is_dir())?;
    let shown = bad.display();
    Some(match bad.is_file() {
        true => {
            let parent = (bad.parent())
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            format!(
                "--schema-dir `{shown}` is a file: it takes a directory of schemas (`--schema-dir {}`), where each is found by its package's name (NAME.json, NAME-VERSION.json or NAME/schema.json)",
                parent.display()
            )
        }
        false => format!("--schema-dir `{shown}`: no such directory"),
    })
}

/// An IO error's reason without the OS error number noise.
pub(crate) fn io_reason(err: &std::io::Error) -> String {
    match err.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => {
            // The OS's message, without the number Rust appends (` (os error 40)`).
            let message = err.to_string();
            match (err.raw_os_error(), message.rfind(" (os error ")) {
                (Some(_), Some(at)) => message[..at].to_lowercase(),
                _ => message,
            }
        }
    }
}
