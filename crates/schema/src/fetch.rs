//! `--fetch-schemas`: a package's schema from the `pulumi` CLI, written into our cache.
//!
//! The CLI's contract: `pulumi package get-schema NAME[@VERSION] [--server URL]` prints the
//! package's schema as JSON on stdout and exits 0; any other exit status is a failure (it
//! exits 1 after printing when the schema does not bind, so a non-zero status fails even
//! with output). We validate what it prints (a JSON object named NAME, with a `version` when
//! one was asked for) and write it to `<cache>/NAME-<its version>.json` (`NAME.json` without
//! one) through a temporary file and a rename, so a reader never sees half a file.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pcl_diagnostics::{Anchor, Diagnostic, Severity, codes};

use crate::loader::PackageNotFound;

/// What to fetch.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FetchRequest {
    pub name: String,
    pub version: Option<String>,
    /// `baseProviderDownloadUrl`, passed as `--server`.
    pub server: Option<String>,
}

impl FetchRequest {
    /// What to fetch for a package found nowhere, and the cache to write it to: the
    /// version asked for, else the installed plugin's. `None` for a parameterized package
    /// (its arguments cannot be recovered from the program) or without a cache directory.
    pub fn for_missing(name: &str, not_found: &PackageNotFound) -> Option<(FetchRequest, PathBuf)> {
        if not_found.cache_file.is_some() {
            return None;
        }
        let cache = not_found.cache.clone()?;
        let request = FetchRequest {
            name: name.to_owned(),
            version: not_found
                .version
                .clone()
                .or_else(|| not_found.plugin.clone()),
            server: None,
        };
        Some((request, cache))
    }

    /// `NAME@VERSION`, or `NAME`.
    pub fn spec(&self) -> String {
        match &self.version {
            Some(version) => format!("{}@{}", self.name, version.trim_start_matches('v')),
            None => self.name.clone(),
        }
    }

    /// The command line run, for messages.
    pub fn command_line(&self) -> String {
        let mut line = format!("pulumi package get-schema {}", self.spec());
        if let Some(server) = &self.server {
            line.push_str(&format!(" --server {server}"));
        }
        line
    }
}

/// Why a fetch failed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FetchError {
    /// No `pulumi` on `PATH`.
    NoCli,
    /// The command could not start, exited non-zero, or ran out of time.
    Failed {
        command: String,
        status: String,
        stderr_tail: String,
    },
    /// It printed something that is not the schema asked for.
    Invalid { command: String, reason: String },
    /// The cache could not be written.
    Io { path: PathBuf, message: String },
}

impl FetchError {
    /// One line saying what went wrong.
    pub fn message(&self, request: &FetchRequest) -> String {
        let spec = request.spec();
        match self {
            FetchError::NoCli => {
                "--fetch-schemas: the `pulumi` CLI is not on PATH, so no schema is fetched"
                    .to_owned()
            }
            FetchError::Failed {
                command,
                status,
                stderr_tail,
            } => {
                let tail = match stderr_tail.is_empty() {
                    true => String::new(),
                    false => format!(": {stderr_tail}"),
                };
                format!("fetching the schema of `{spec}` failed: `{command}` {status}{tail}")
            }
            FetchError::Invalid { command, reason } => {
                format!("fetching the schema of `{spec}` failed: `{command}` {reason}")
            }
            FetchError::Io { path, message } => format!(
                "fetching the schema of `{spec}` failed: cannot write {}: {message}",
                path.display()
            ),
        }
    }
}

impl FetchError {
    /// The failure as a diagnostic at the package: an error, or a warning when there is no
    /// `pulumi` CLI to run.
    pub fn to_diagnostic(&self, request: &FetchRequest) -> Diagnostic {
        let anchor = Anchor::Place {
            origin: request.name.clone(),
            location: String::new(),
        };
        let (code, severity) = match self {
            FetchError::NoCli => (codes::PULUMI_CLI_MISSING, Severity::Warning),
            _ => (codes::SCHEMA_FETCH_FAILED, Severity::Error),
        };
        let mut diagnostic = Diagnostic::error(code, self.message(request), anchor);
        diagnostic.severity = severity;
        diagnostic.notes.push(match self {
            FetchError::NoCli => {
                "install the Pulumi CLI, or get the schema another way and pass --schema-dir"
                    .to_owned()
            }
            _ => format!("run `{}` to see the whole output", request.command_line()),
        });
        diagnostic
    }
}

/// The `pulumi` executable on `PATH`, if there is one.
pub fn pulumi_on_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("pulumi"))
        .find(|candidate| candidate.is_file())
}

/// The last lines of a command's stderr, joined, at most 400 characters.
fn tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(3);
    let joined = lines[start..].join(" / ");
    match joined.char_indices().nth(400) {
        Some((cut, _)) => format!("…{}", &joined[cut..]),
        None => joined,
    }
}

/// Run `pulumi package get-schema` for `request` (at most `limit`), validate its output and
/// write it into `cache`; the file written.
pub fn fetch_schema(
    request: &FetchRequest,
    cache: &Path,
    limit: Duration,
) -> Result<PathBuf, FetchError> {
    let program = pulumi_on_path().ok_or(FetchError::NoCli)?;
    let command_line = request.command_line();
    let mut command = Command::new(program);
    command.args(["package", "get-schema", &request.spec()]);
    if let Some(server) = &request.server {
        command.args(["--server", server]);
    }
    let failed = |status: String, stderr: &[u8]| FetchError::Failed {
        command: command_line.clone(),
        status,
        stderr_tail: tail(stderr),
    };
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| failed(format!("could not start ({err})"), b""))?;
    // Read both pipes on threads, so a chatty command never blocks on a full pipe.
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(pipe) = stdout.as_mut() {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    });
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(pipe) = stderr.as_mut() {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break None,
        }
    };
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    match status {
        None => {
            return Err(failed(
                format!("did not finish within {} s", limit.as_secs()),
                &err,
            ));
        }
        Some(status) if !status.success() => {
            let how = match status.code() {
                Some(code) => format!("exited with status {code}"),
                None => "was killed by a signal".to_owned(),
            };
            return Err(failed(how, &err));
        }
        Some(_) => {}
    }
    let invalid = |reason: String| FetchError::Invalid {
        command: command_line.clone(),
        reason,
    };
    let schema: serde_json::Value = serde_json::from_slice(&out)
        .map_err(|err| invalid(format!("printed something that is not JSON ({err})")))?;
    let name = schema.get("name").and_then(|n| n.as_str());
    if name != Some(request.name.as_str()) {
        return Err(invalid(format!(
            "printed the schema of {}, not of `{}`",
            name.map_or("a package without a name".to_owned(), |n| format!("`{n}`")),
            request.name
        )));
    }
    let version = schema.get("version").and_then(|v| v.as_str());
    if request.version.is_some() && version.is_none() {
        return Err(invalid(
            "printed a schema without a `version`, though a version was asked for".to_owned(),
        ));
    }
    let file = match version {
        Some(version) => format!("{}-{}.json", request.name, version.trim_start_matches('v')),
        None => format!("{}.json", request.name),
    };
    write_atomically(cache, &file, &out)
}

/// Write `bytes` to `dir/file` through `dir/file.tmp` and a rename.
fn write_atomically(dir: &Path, file: &str, bytes: &[u8]) -> Result<PathBuf, FetchError> {
    let target = dir.join(file);
    let io = |path: &Path, err: std::io::Error| FetchError::Io {
        path: path.to_path_buf(),
        message: err.to_string(),
    };
    std::fs::create_dir_all(dir).map_err(|err| io(dir, err))?;
    let temporary = dir.join(format!("{file}.tmp"));
    std::fs::write(&temporary, bytes).map_err(|err| io(&temporary, err))?;
    std::fs::rename(&temporary, &target).map_err(|err| {
        let _ = std::fs::remove_file(&temporary);
        io(&target, err)
    })?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_names_the_version_and_server() {
        let request = FetchRequest {
            name: "aws".to_owned(),
            version: Some("v6.52.0".to_owned()),
            server: Some("https://example.com/aws".to_owned()),
        };
        assert_eq!(request.spec(), "aws@6.52.0");
        assert_eq!(
            request.command_line(),
            "pulumi package get-schema aws@6.52.0 --server https://example.com/aws"
        );
    }

    #[test]
    fn the_stderr_tail_keeps_the_last_lines() {
        assert_eq!(tail(b"one\n\ntwo\nthree\nfour\n"), "two / three / four");
        assert_eq!(tail(b""), "");
    }
}
