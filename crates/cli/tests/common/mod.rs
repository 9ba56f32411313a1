//! Helpers shared by the CLI end-to-end tests. Each test binary compiles this module and
//! uses a part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use expect_test::Expect;
pub(crate) use pcl_test_utils::ScratchDir;

/// What a run of the binary printed and how it exited (the summary's time reads `<time>`).
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

pub(crate) fn pcl(args: &[&str], cwd: &Path) -> Run {
    pcl_with_stdin(args, cwd, b"")
}

/// Runs pcl in `cwd` with `stdin` as standard input.
pub(crate) fn pcl_with_stdin(args: &[&str], cwd: &Path, stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the pcl binary runs");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin).expect("stdin is written");
    }
    let output = child.wait_with_output().expect("the pcl binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: without_times(&String::from_utf8_lossy(&output.stderr)),
    }
}

/// A fresh directory named after the test, holding `files` (relative path, bytes), removed
/// when dropped.
pub(crate) fn scratch(name: &str, files: &[(&str, &[u8])]) -> ScratchDir {
    let dir = ScratchDir::new(&format!("cli-{name}"));
    for (path, bytes) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("files have parents")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    dir
}

/// Asserts the exit code and both streams of a run.
pub(crate) fn check(run: &Run, code: i32, stdout: Expect, stderr: Expect) {
    assert_eq!(run.code, code, "stderr: {}", run.stderr);
    stdout.assert_eq(&run.stdout);
    stderr.assert_eq(&run.stderr);
}

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
        let summary = ["parsed ", "checked ", "formatted ", "read "]
            .iter()
            .any(|verb| line.starts_with(verb));
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
