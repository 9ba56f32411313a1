//! Helpers shared by the CLI end-to-end tests.

use std::process::Output;

/// A transcript of one run, as the snapshots record it: the command line, stdout,
/// each stderr line prefixed `stderr: `, and the exit code. Lines carry no trailing
/// spaces.
pub(crate) fn transcript(command_line: &str, output: &Output) -> String {
    let mut out = command_line.trim_end().to_owned();
    out.push('\n');
    out.push_str(&String::from_utf8_lossy(&output.stdout));
    for line in String::from_utf8_lossy(&output.stderr).lines() {
        out.push_str(format!("stderr: {line}").trim_end());
        out.push('\n');
    }
    out.push_str(&format!("exit {}\n", output.status.code().unwrap_or(-1)));
    out
}
