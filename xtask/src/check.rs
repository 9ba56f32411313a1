//! `cargo xtask check [--schema-dir D]... [--skip-resource-typecheck] [--syntax-only]
//! [--baseline FILE] [--bless] [--json OUT] [--jobs N] PATH...`: checks every program
//! (a directory that directly holds `.pp` files; with `--syntax-only` also `.hcl`/`.tf`
//! files, parsed only) under each PATH, in parallel, and summarises.
//!
//! It runs the `pcl` binary (built first with `cargo build -p pcl-cli`), one child process
//! per program, rather than linking the analysis crates: a panic, a stack overflow or a
//! hang (60 s limit) in one program is then that program's crash, reported with its path,
//! and xtask builds in seconds.
//!
//! With `--baseline FILE` (`tests/data/corpus-baseline.tsv`), each program is checked in
//! the mode its row names and its error codes compared with the row's (modes: `strict`;
//! `skip` for `--skip-resource-typecheck`; `lenient` for `--lenient`; or leniency flag
//! names without dashes joined by `+`, `allow-missing-variables+skip-range-typecheck`); any drift is printed and exits 1. `--bless`
//! rewrites the file (keeping reasons). Programs are keyed by their path relative to the
//! parent of the PATH they were found under (`pulumi-codegen/aws-s3-pp`).
//! Exit codes: 0 everything matches, 1 drift or crashes, 2 usage errors.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail, format_err};
use rayon::prelude::*;
use serde::Serialize;

/// How long one program may take.
const TIME_LIMIT: Duration = Duration::from_secs(60);

struct Options {
    schema_dirs: Vec<PathBuf>,
    skip: bool,
    syntax_only: bool,
    baseline: Option<PathBuf>,
    bless: bool,
    json: Option<PathBuf>,
    jobs: Option<usize>,
    paths: Vec<PathBuf>,
}

fn parse_args(args: &[String]) -> anyhow::Result<Options> {
    let mut options = Options {
        schema_dirs: Vec::new(),
        skip: false,
        syntax_only: false,
        baseline: None,
        bless: false,
        json: None,
        jobs: None,
        paths: Vec::new(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format_err!("`{arg}` needs a value"))
        };
        match arg.as_str() {
            "--schema-dir" => options.schema_dirs.push(PathBuf::from(value()?)),
            "--skip-resource-typecheck" => options.skip = true,
            "--syntax-only" => options.syntax_only = true,
            "--baseline" => options.baseline = Some(PathBuf::from(value()?)),
            "--bless" => options.bless = true,
            "--json" => options.json = Some(PathBuf::from(value()?)),
            "--jobs" => {
                let jobs: usize = value()?.parse().context("`--jobs` takes a whole number")?;
                options.jobs = Some(jobs.max(1));
            }
            flag if flag.starts_with("--") => bail!("unknown option `{flag}`"),
            path => options.paths.push(PathBuf::from(path)),
        }
    }
    if options.paths.is_empty() {
        bail!("no PATH given");
    }
    if options.bless && options.baseline.is_none() {
        bail!("`--bless` needs `--baseline FILE`");
    }
    Ok(options)
}

/// One program: its key, directory and files.
struct Program {
    key: String,
    files: Vec<PathBuf>,
    dir: PathBuf,
}

#[derive(Serialize, Clone, Default)]
struct ProgramResult {
    path: String,
    files: usize,
    bytes: usize,
    #[serde(skip)]
    lines: usize,
    diagnostics: BTreeMap<String, usize>,
    errors: usize,
    warnings: usize,
    time_ms: u128,
    crashed: bool,
    #[serde(skip)]
    error_codes: Vec<String>,
    #[serde(skip)]
    crash: String,
}

/// A row of the baseline file.
struct Row {
    mode: String,
    codes: String,
    reason: String,
}

#[allow(clippy::print_stderr)]
pub(crate) fn run(args: &[String]) -> i32 {
    let options = match parse_args(args) {
        Ok(options) => options,
        Err(err) => {
            eprintln!(
                "error: {err}\nusage: cargo xtask check [--schema-dir D]... [--skip-resource-typecheck] [--syntax-only] [--baseline FILE] [--bless] [--json OUT] [--jobs N] PATH..."
            );
            return 2;
        }
    };
    match check(&options) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            2
        }
    }
}

#[allow(clippy::print_stderr)]
fn check(options: &Options) -> anyhow::Result<i32> {
    let start = Instant::now();
    let pcl = build_pcl()?;
    let mut programs = Vec::new();
    for path in &options.paths {
        if !path.is_dir() {
            bail!("`{}` is not a directory", path.display());
        }
        find_programs(path, options.syntax_only, &mut programs);
    }
    if programs.is_empty() {
        bail!(
            "no programs under {}",
            options
                .paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let baseline = match &options.baseline {
        Some(path) => read_baseline(path)?,
        None => BTreeMap::new(),
    };
    let terminal = std::io::stderr().is_terminal();
    let bar = terminal.then(|| indicatif::ProgressBar::new(programs.len() as u64));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .build()
        .context("cannot start the worker threads")?;
    let results: Vec<ProgramResult> = pool.install(|| {
        programs
            .par_iter()
            .map(|program| {
                let mode = match baseline.get(&program.key) {
                    Some(row) => row.mode.as_str(),
                    None if options.skip => "skip",
                    None => "strict",
                };
                let result = run_program(&pcl, program, options, mode);
                match &bar {
                    Some(bar) => bar.inc(1),
                    None => eprintln!("{} {}", status(&result), program.key),
                }
                result
            })
            .collect()
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let elapsed = start.elapsed();
    summarise(&results, elapsed);
    if let Some(path) = &options.json {
        write_json(path, &results, elapsed)?;
    }
    let crashes: Vec<&ProgramResult> = results.iter().filter(|r| r.crashed).collect();
    for crash in &crashes {
        eprintln!("crashed: {}: {}", crash.path, crash.crash);
    }
    let mut code = i32::from(!crashes.is_empty());
    if let Some(path) = &options.baseline {
        let drift = compare(&results, &baseline);
        if options.bless {
            write_baseline(path, &results, &baseline, options)?;
            eprintln!("blessed {} ({} programs)", path.display(), results.len());
        } else if !drift.is_empty() {
            eprintln!(
                "the programs drifted from {} (`--bless` rewrites it):\n{drift}",
                path.display()
            );
            code = 1;
        } else {
            eprintln!("all {} programs match {}", results.len(), path.display());
        }
    }
    Ok(code)
}

fn status(result: &ProgramResult) -> &'static str {
    match result {
        r if r.crashed => "crashed ",
        r if r.errors > 0 => "errors  ",
        r if r.warnings > 0 => "warnings",
        _ => "clean   ",
    }
}

/// Build the `pcl` binary and return its path.
fn build_pcl() -> anyhow::Result<PathBuf> {
    let root = pcl_test_utils::project_root();
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args(["build", "-q", "-p", "pcl-cli"])
        .current_dir(&root)
        .status()
        .context("cannot run cargo")?;
    if !status.success() {
        bail!("cannot build the pcl binary");
    }
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    Ok(target
        .join("debug")
        .join(format!("pcl{}", std::env::consts::EXE_SUFFIX)))
}

/// Every directory below `root` that directly holds program files, sorted, skipping
/// hidden directories.
fn find_programs(root: &Path, syntax_only: bool, acc: &mut Vec<Program>) {
    let base = root.parent().unwrap_or(root);
    let mut pending = vec![root.to_path_buf()];
    let mut found = Vec::new();
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() {
                let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
                if ext == "pp" || (syntax_only && (ext == "hcl" || ext == "tf")) {
                    files.push(path);
                }
            }
        }
        if !files.is_empty() {
            files.sort();
            let key = dir
                .strip_prefix(base)
                .unwrap_or(&dir)
                .to_string_lossy()
                .replace('\\', "/");
            found.push(Program { key, files, dir });
        }
    }
    found.sort_by(|a, b| a.key.cmp(&b.key));
    acc.extend(found);
}

fn run_program(pcl: &Path, program: &Program, options: &Options, mode: &str) -> ProgramResult {
    let start = Instant::now();
    let mut result = ProgramResult {
        path: program.key.clone(),
        files: program.files.len(),
        ..ProgramResult::default()
    };
    for file in &program.files {
        if let Ok(text) = std::fs::read(file) {
            result.bytes += text.len();
            result.lines += text.iter().filter(|&&b| b == b'\n').count();
        }
    }
    let mut command = Command::new(pcl);
    if options.syntax_only {
        command
            .args(["parse", "--format", "json", "-q"])
            .args(&program.files);
    } else {
        // One thread each: the children already run in parallel.
        command.args(["check", "--format", "json", "-q", "--jobs", "1"]);
        for dir in &options.schema_dirs {
            command.arg("--schema-dir").arg(dir);
        }
        command.args(mode_flags(mode).unwrap_or_default());
        command.arg(&program.dir);
    }
    let output = run_with_limit(command, TIME_LIMIT);
    result.time_ms = start.elapsed().as_millis();
    let output = match output {
        Ok(output) => output,
        Err(reason) => {
            result.crashed = true;
            result.crash = reason;
            return result;
        }
    };
    if !matches!(output.status.code(), Some(0 | 1)) {
        result.crashed = true;
        let stderr = String::from_utf8_lossy(&output.stderr);
        result.crash = format!(
            "exit {:?}: {}",
            output.status.code(),
            stderr.lines().rev().take(3).collect::<Vec<_>>().join(" | ")
        );
        return result;
    }
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let code = value["code"].as_str().unwrap_or("?").to_owned();
        match value["severity"].as_str() {
            Some("error") => {
                result.errors += 1;
                result.error_codes.push(code.clone());
            }
            Some("warning") => result.warnings += 1,
            _ => {}
        }
        *result.diagnostics.entry(code).or_default() += 1;
    }
    result.error_codes.sort();
    result.error_codes.dedup();
    result
}

/// Run a command, killing it after the time limit.
pub(crate) fn run_with_limit(
    mut command: Command,
    limit: Duration,
) -> Result<std::process::Output, String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run pcl: {e}"))?;
    // Read the pipes on threads, so a chatty child cannot block on a full pipe.
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out = std::thread::spawn(move || read_all(stdout.as_mut()));
    let err = std::thread::spawn(move || read_all(stderr.as_mut()));
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("timed out after {} s", limit.as_secs_f64()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("cannot wait for pcl: {e}")),
        }
    };
    Ok(std::process::Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

fn read_all(pipe: Option<&mut impl std::io::Read>) -> Vec<u8> {
    let mut buf = Vec::new();
    if let Some(pipe) = pipe {
        let _ = pipe.read_to_end(&mut buf);
    }
    buf
}

#[allow(clippy::print_stderr)]
fn summarise(results: &[ProgramResult], elapsed: Duration) {
    let files: usize = results.iter().map(|r| r.files).sum();
    let lines: usize = results.iter().map(|r| r.lines).sum();
    let bytes: usize = results.iter().map(|r| r.bytes).sum();
    let crashed = results.iter().filter(|r| r.crashed).count();
    let with_errors = results
        .iter()
        .filter(|r| !r.crashed && r.errors > 0)
        .count();
    let with_warnings = results
        .iter()
        .filter(|r| !r.crashed && r.errors == 0 && r.warnings > 0)
        .count();
    let clean = results.len() - crashed - with_errors - with_warnings;
    let mut codes: BTreeMap<&str, usize> = BTreeMap::new();
    for result in results {
        for (code, count) in &result.diagnostics {
            *codes.entry(code).or_default() += count;
        }
    }
    let mut top: Vec<(&str, usize)> = codes.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let seconds = elapsed.as_secs_f64().max(1e-9);
    eprintln!(
        "{} programs, {files} files, {lines} lines, {bytes} bytes: {clean} clean, {with_warnings} with warnings, {with_errors} with errors, {crashed} crashed",
        results.len()
    );
    if !top.is_empty() {
        let shown: Vec<String> = top
            .iter()
            .take(10)
            .map(|(code, n)| format!("{code} {n}"))
            .collect();
        eprintln!("most frequent codes: {}", shown.join(", "));
    }
    eprintln!(
        "in {:.2} s: {:.0} lines/s, {:.2} MB/s",
        seconds,
        lines as f64 / seconds,
        bytes as f64 / 1e6 / seconds
    );
}

#[derive(Serialize)]
struct JsonReport<'a> {
    programs: &'a [ProgramResult],
    summary: JsonSummary,
}

#[derive(Serialize)]
struct JsonSummary {
    programs: usize,
    files: usize,
    lines: usize,
    bytes: usize,
    clean: usize,
    with_warnings: usize,
    with_errors: usize,
    crashed: usize,
    diagnostics: BTreeMap<String, usize>,
    time_ms: u128,
}

fn write_json(path: &Path, results: &[ProgramResult], elapsed: Duration) -> anyhow::Result<()> {
    let mut diagnostics = BTreeMap::new();
    for result in results {
        for (code, count) in &result.diagnostics {
            *diagnostics.entry(code.clone()).or_default() += count;
        }
    }
    let crashed = results.iter().filter(|r| r.crashed).count();
    let with_errors = results
        .iter()
        .filter(|r| !r.crashed && r.errors > 0)
        .count();
    let with_warnings = results
        .iter()
        .filter(|r| !r.crashed && r.errors == 0 && r.warnings > 0)
        .count();
    let report = JsonReport {
        programs: results,
        summary: JsonSummary {
            programs: results.len(),
            files: results.iter().map(|r| r.files).sum(),
            lines: results.iter().map(|r| r.lines).sum(),
            bytes: results.iter().map(|r| r.bytes).sum(),
            clean: results.len() - crashed - with_errors - with_warnings,
            with_warnings,
            with_errors,
            crashed,
            diagnostics,
            time_ms: elapsed.as_millis(),
        },
    };
    let text = serde_json::to_string_pretty(&report)?;
    std::fs::write(path, text + "\n").with_context(|| format!("cannot write `{}`", path.display()))
}

fn read_baseline(path: &Path) -> anyhow::Result<BTreeMap<String, Row>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    let mut rows = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut parts = line.splitn(4, '\t');
        let (Some(program), Some(mode), Some(codes)) = (parts.next(), parts.next(), parts.next())
        else {
            bail!(
                "{}:{}: a row is `program<TAB>mode<TAB>codes<TAB>reason`",
                path.display(),
                i + 1
            );
        };
        if let Err(message) = mode_flags(mode) {
            bail!("{}:{}: {message}", path.display(), i + 1);
        }
        rows.insert(
            program.to_owned(),
            Row {
                mode: mode.to_owned(),
                codes: codes.to_owned(),
                reason: parts.next().unwrap_or("").to_owned(),
            },
        );
    }
    Ok(rows)
}

/// The leniency flags `pcl check` is run with in a baseline mode.
const LENIENCY_FLAGS: &[&str] = &[
    "skip-resource-typecheck",
    "skip-invoke-typecheck",
    "skip-range-typecheck",
    "allow-missing-variables",
    "allow-missing-properties",
];

/// The `pcl check` flags of a baseline mode, or why the mode is not one.
fn mode_flags(mode: &str) -> Result<Vec<String>, String> {
    match mode {
        "strict" => return Ok(Vec::new()),
        "skip" => return Ok(vec!["--skip-resource-typecheck".to_owned()]),
        "lenient" => return Ok(vec!["--lenient".to_owned()]),
        _ => {}
    }
    mode.split('+')
        .map(|name| match LENIENCY_FLAGS.contains(&name) {
            true => Ok(format!("--{name}")),
            false => Err(format!(
                "the mode is `strict`, `skip`, `lenient` or names of {} joined by `+`, not `{mode}`",
                LENIENCY_FLAGS.join(", ")
            )),
        })
        .collect()
}

fn codes_of(result: &ProgramResult) -> String {
    if result.crashed {
        "crashed".to_owned()
    } else if result.error_codes.is_empty() {
        "-".to_owned()
    } else {
        result.error_codes.join(",")
    }
}

/// What differs between the results and the baseline, one line per program.
fn compare(results: &[ProgramResult], baseline: &BTreeMap<String, Row>) -> String {
    let mut drift = String::new();
    for result in results {
        let actual = codes_of(result);
        match baseline.get(&result.path) {
            Some(row) if row.codes == actual => {}
            Some(row) => drift.push_str(&format!(
                "  {}: expected {}, got {actual}\n",
                result.path, row.codes
            )),
            None => drift.push_str(&format!(
                "  {}: not in the baseline, got {actual}\n",
                result.path
            )),
        }
    }
    let checked: std::collections::BTreeSet<&str> =
        results.iter().map(|r| r.path.as_str()).collect();
    for program in baseline.keys() {
        if !checked.contains(program.as_str()) {
            drift.push_str(&format!("  {program}: in the baseline but not found\n"));
        }
    }
    drift
}

fn write_baseline(
    path: &Path,
    results: &[ProgramResult],
    baseline: &BTreeMap<String, Row>,
    options: &Options,
) -> anyhow::Result<()> {
    let mut text = String::from(
        "# program\tmode (strict: with schemas; skip: --skip-resource-typecheck; lenient: --lenient; or flag names joined by +)\texpected error codes\treason\n",
    );
    for result in results {
        let actual = codes_of(result);
        let row = baseline.get(&result.path);
        let mode = row.map_or(if options.skip { "skip" } else { "strict" }, |r| {
            r.mode.as_str()
        });
        let reason = match row {
            Some(row) if row.codes == actual => row.reason.clone(),
            _ if actual == "-" => "valid, all packages have schemas".to_owned(),
            _ => "TODO: explain".to_owned(),
        };
        text.push_str(&format!("{}\t{mode}\t{actual}\t{reason}\n", result.path));
    }
    std::fs::write(path, text).with_context(|| format!("cannot write `{}`", path.display()))
}

#[cfg(test)]
mod tests {
    use std::process::Command;
    use std::time::Duration;

    use super::{mode_flags, run_with_limit};

    #[test]
    fn baseline_modes_name_leniency_flags() {
        assert_eq!(mode_flags("strict"), Ok(Vec::new()));
        assert_eq!(
            mode_flags("skip"),
            Ok(vec!["--skip-resource-typecheck".to_owned()])
        );
        assert_eq!(mode_flags("lenient"), Ok(vec!["--lenient".to_owned()]));
        assert_eq!(
            mode_flags("allow-missing-variables+skip-range-typecheck"),
            Ok(vec![
                "--allow-missing-variables".to_owned(),
                "--skip-range-typecheck".to_owned()
            ])
        );
        assert!(mode_flags("allow-missing-variables+sloppy").is_err());
        assert!(mode_flags("").is_err());
    }

    #[test]
    fn a_hang_is_cut_off_and_a_crash_is_seen() {
        let mut sleeper = Command::new("sh");
        sleeper.args(["-c", "sleep 5"]);
        let hung = run_with_limit(sleeper, Duration::from_millis(200));
        assert!(hung.is_err_and(|reason| reason.starts_with("timed out")));
        let mut crasher = Command::new("sh");
        crasher.args(["-c", "kill -SEGV $$"]);
        let crashed = run_with_limit(crasher, Duration::from_secs(5)).expect("it runs");
        assert!(
            !matches!(crashed.status.code(), Some(0 | 1)),
            "{:?}",
            crashed.status
        );
    }
}
