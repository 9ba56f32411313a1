//! Helpers shared by the CLI end-to-end tests. Each test binary compiles this module and
//! uses a part of it.
#![allow(dead_code)]

use std::process::Output;

/// A transcript of one run, as the snapshots record it: the command line, stdout,
/// each stderr line prefixed `stderr: `, and the exit code. Lines carry no trailing
/// spaces.
pub(crate) fn transcript(command_line: &str, output: &Output) -> String {
    let mut out = command_line.trim_end().to_owned();
    out.push('\n');
    out.push_str(&String::from_utf8_lossy(&output.stdout));
    for line in without_times(&String::from_utf8_lossy(&output.stderr)).lines() {
        out.push_str(format!("stderr: {line}").trim_end());
        out.push('\n');
    }
    out.push_str(&format!("exit {}\n", output.status.code().unwrap_or(-1)));
    out
}

/// `text` with the summary line's duration (`in 20 ms`, `in 310 µs`, `in 1.2 s`) replaced
/// by `in <time>`, so transcripts are stable.
pub(crate) fn without_times(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let summary = line.starts_with("parsed ") || line.starts_with("checked ");
        let time = summary
            .then(|| {
                let start = line.find(") in ")? + 1;
                let after = line[start..].find(": ")? + start;
                Some((start, after))
            })
            .flatten();
        match time {
            Some((start, after)) => {
                out.push_str(&line[..start]);
                out.push_str(" in <time>");
                out.push_str(&line[after..]);
            }
            None => out.push_str(line),
        }
    }
    out
}
