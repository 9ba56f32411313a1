//! `cargo xtask bench-report [--quick] [--go BIN] [--hclwrite BIN]`: tables of the
//! front-end's figures,
//! measured in one run: for generated programs of 1k, 10k, 31k (about 10 MB) and 100k
//! resources (`--quick`: 1k and 10k), each in one file and in 100 files, the whole-process
//! time of `pcl parse` and `pcl check` (the `dist` build the README installs), throughput
//! (MB/s, lines/s), the check on one core (`taskset -c 0`, when `taskset` is there) and its
//! ratio to parsing (the median of the rounds' ratios), the default `--jobs` against
//! `--jobs 1` (the median of the ratios of runs taken in pairs), peak memory per source
//! byte (the child's `VmHWM`, sampled every few milliseconds), two figures that do not
//! drift with the machine's speed (instructions of `pcl parse -q` and `pcl check --jobs 1`
//! on one-file programs up to 31k resources, counted by Valgrind when it is installed; and
//! for 100-file programs, two `--jobs 1` checks side by side on cores of their own over
//! each alone, the machine's own cost of two busy cores), the cold check with the
//! schema found in Pulumi's cache instead of `--schema-dir`, the growth exponent of the
//! cold check from the smallest to the largest size, Go's hclsyntax checking the same files
//! (its driver's `check` mode, which includes a warm-up pass) as a whole process when its
//! driver is built (`--go BIN`, default
//! `/tmp/hclbench-go`, from `../shared/tools/hclsyntax-bench/build.sh`), and the
//! incremental/cold ratios of `cargo bench --bench check` (divan, in-process) at each size. The formatter
//! table times `pcl fmt --check` as a whole process beside HashiCorp's hclwrite on the same
//! files (`--hclwrite BIN`, default `/tmp/hclwrite-fmt`, from
//! `../shared/tools/hclwrite-fmt/build.sh`): its `-list` mode's in-process median, and for
//! one-file programs its whole process too. Writes `target/bench-report/report.md` and
//! `target/bench-report/chart.svg`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

struct Measure {
    resources: usize,
    files: usize,
    bytes: usize,
    lines: usize,
    parse: Duration,
    check: Duration,
    /// `taskset -c 0 pcl check`: one core.
    check_one_core: Option<Duration>,
    /// The default jobs over `--jobs 1`: the median of the ratios of runs taken in pairs.
    jobs_ratio: f64,
    /// The one-core check over `pcl parse`: the median of the rounds' ratios.
    one_core_ratio: Option<f64>,
    /// Instructions of `pcl parse -q` and of `pcl check --jobs 1` (one-file programs up to
    /// [`MAX_COUNTED_RESOURCES`], when Valgrind is there).
    instructions: Option<(u64, u64)>,
    /// Two `--jobs 1` checks side by side, each pinned to a core of its own, over one
    /// alone: what the machine takes from each of two busy cores (100-file programs, when
    /// `taskset` is there and there are two cores).
    side_by_side: Option<f64>,
    check_peak_kb: u64,
    /// The check with the schema found in Pulumi's cache (`$PULUMI_HOME/schemas`) instead
    /// of `--schema-dir`: lazy loading holds whatever the source.
    check_from_cache: Duration,
    go_parse: Option<Duration>,
    fmt: Duration,
    /// hclwrite's `-list` throughput (in-process, after a warm-up pass), MB/s.
    hclwrite_in_process: Option<f64>,
    /// hclwrite formatting the one file as a whole process (one-file programs only).
    hclwrite_process: Option<Duration>,
}

#[allow(clippy::print_stdout, clippy::print_stderr)]
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut quick = false;
    let mut go = PathBuf::from("/tmp/hclbench-go");
    let mut hclwrite = PathBuf::from("/tmp/hclwrite-fmt");
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => quick = true,
            "--go" => go = PathBuf::from(args.next().context("`--go` needs a path")?),
            "--hclwrite" => {
                hclwrite = PathBuf::from(args.next().context("`--hclwrite` needs a path")?)
            }
            other => bail!(
                "unknown option `{other}`: cargo xtask bench-report [--quick] [--go BIN] [--hclwrite BIN]"
            ),
        }
    }
    let root = pcl_test_utils::project_root();
    let out = root.join("target").join("bench-report");
    std::fs::create_dir_all(&out)?;
    eprintln!("building pcl (the dist profile the README installs: fat LTO, a few minutes)...");
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args(["build", "-q", "--profile", "dist", "-p", "pcl-cli"])
        .current_dir(&root)
        .status()?;
    if !status.success() {
        bail!("cannot build pcl");
    }
    let pcl = root.join("target/dist/pcl");
    let taskset = Command::new("taskset")
        .args(["-c", "0", "true"])
        .status()
        .is_ok_and(|status| status.success());
    let valgrind = Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    let two_cores =
        taskset && std::thread::available_parallelism().is_ok_and(|cores| cores.get() >= 2);
    let go = go.is_file().then_some(go);
    let hclwrite = hclwrite.is_file().then_some(hclwrite);
    let sizes: &[usize] = if quick {
        &[1_000, 10_000]
    } else {
        &[1_000, 10_000, 31_000, 100_000]
    };
    // Five rounds: with three, the ratio of two medians (default jobs over `--jobs 1`)
    // moved by 0.05 between runs of one build.
    let rounds = if quick { 1 } else { 5 };
    // The default jobs and `--jobs 1` run back to back this many times a round, and the
    // ratio reported is the median of each pair's: the speed of the machines we measure
    // on drifts by as much as 50% within minutes, which a ratio of two medians of runs
    // minutes apart takes in (five rounds of one pair read 0.55-0.73 across the sizes of
    // one report where paired runs read 0.62-0.65).
    let pairs = if quick { 1 } else { 4 };
    let mut measures = Vec::new();
    for &resources in sizes {
        for files in [1, 100] {
            let dir = out.join(format!("gen-{resources}-{files}"));
            let program = pcl_test_utils::checked::checked_program(resources, files, 1);
            let (bytes, lines) = write_program(&dir, &program)?;
            eprintln!("measuring {resources} resources in {files} file(s), {bytes} bytes...");
            let mut parse = Vec::new();
            let mut check_times = Vec::new();
            let mut one_core = Vec::new();
            let mut jobs_ratios = Vec::new();
            let mut one_core_ratios = Vec::new();
            let mut from_cache = Vec::new();
            let home = pulumi_home_with(&dir, &out.join("pulumi-home"))?;
            let mut peak = 0;
            let mut go_parse = Vec::new();
            let mut fmt = Vec::new();
            let mut hclwrite_process = Vec::new();
            let check = |command: &mut Command, jobs: Option<&str>| {
                command.args(["check", "-q", "--schema-dir"]);
                command.arg(dir.join("schemas")).arg(&dir);
                if let Some(jobs) = jobs {
                    command.args(["--jobs", jobs]);
                }
            };
            for round in 0..rounds {
                fmt.push(timed(Command::new(&pcl).args(["fmt", "-q", "--check"]).arg(&dir))?.0);
                if let (Some(hclwrite), [(name, _)]) = (&hclwrite, program.files.as_slice()) {
                    hclwrite_process.push(timed(Command::new(hclwrite).arg(dir.join(name)))?.0);
                }
                let (parsed, _) = timed(Command::new(&pcl).args(["parse", "-q"]).arg(&dir))?;
                parse.push(parsed);
                // The default jobs and `--jobs 1` take turns going first: the run after
                // another program's (here `pcl parse`) was measured up to 10% slower,
                // which made the default look slower than one job on one file.
                for pair in 0..pairs {
                    let (mut default, mut single) = (Duration::ZERO, Duration::ZERO);
                    for jobs in match (round * pairs + pair) % 2 {
                        0 => [None, Some("1")],
                        _ => [Some("1"), None],
                    } {
                        let mut command = Command::new(&pcl);
                        check(&mut command, jobs);
                        let (time, kb) = timed(&mut command)?;
                        match jobs {
                            None => {
                                check_times.push(time);
                                peak = peak.max(kb);
                                default = time;
                            }
                            Some(_) => single = time,
                        }
                    }
                    jobs_ratios.push(ratio(default, single));
                }
                if taskset {
                    let mut pinned = Command::new("taskset");
                    check(pinned.args(["-c", "0"]).arg(&pcl), None);
                    let (time, _) = timed(&mut pinned)?;
                    one_core.push(time);
                    one_core_ratios.push(ratio(time, parsed));
                }
                let (cached, _) = timed(
                    Command::new(&pcl)
                        .args(["check", "-q"])
                        .arg(&dir)
                        .env("PULUMI_HOME", &home)
                        .env("XDG_CACHE_HOME", out.join("empty-cache"))
                        .env_remove("PCL_SCHEMA_PATH"),
                )?;
                from_cache.push(cached);
                if let Some(go) = &go {
                    let list = dir.join("files.list");
                    go_parse.push(
                        timed(
                            Command::new(go)
                                .args(["-mode", "check", "-iters", "1", "-mintime", "0", "-list"])
                                .arg(&list),
                        )?
                        .0,
                    );
                }
            }
            let instructions = match valgrind && files == 1 && resources <= MAX_COUNTED_RESOURCES {
                true => {
                    eprintln!("counting instructions (Valgrind)...");
                    let parse = instructions(Command::new(&pcl).args(["parse", "-q"]).arg(&dir))?;
                    let mut command = Command::new(&pcl);
                    check(&mut command, Some("1"));
                    Some((parse, instructions(&mut command)?))
                }
                false => None,
            };
            let side_by_side = match two_cores && files > 1 {
                true => Some(side_by_side(rounds * pairs, |core| {
                    let mut command = Command::new("taskset");
                    check(command.args(["-c", core]).arg(&pcl), Some("1"));
                    command
                })?),
                false => None,
            };
            let hclwrite_in_process = match &hclwrite {
                Some(hclwrite) => hclwrite_list_mb_s(hclwrite, &dir.join("files.list"), rounds)?,
                None => None,
            };
            measures.push(Measure {
                resources,
                files,
                bytes,
                lines,
                parse: median(parse),
                check: median(check_times),
                check_one_core: (!one_core.is_empty()).then(|| median(one_core)),
                jobs_ratio: median(jobs_ratios),
                one_core_ratio: (!one_core_ratios.is_empty()).then(|| median(one_core_ratios)),
                instructions,
                side_by_side,
                check_peak_kb: peak,
                check_from_cache: median(from_cache),
                go_parse: (!go_parse.is_empty()).then(|| median(go_parse)),
                fmt: median(fmt),
                hclwrite_in_process,
                hclwrite_process: (!hclwrite_process.is_empty()).then(|| median(hclwrite_process)),
            });
        }
    }
    eprintln!("running the in-process benches (cargo bench -p pcl-benches --bench check)...");
    let divan = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args(["bench", "-q", "-p", "pcl-benches", "--bench", "check"])
        .env(
            "PCL_BENCH_SIZES",
            if quick { "1k,10k" } else { "1k,10k,100k" },
        )
        .current_dir(&root)
        .output()?;
    let divan = String::from_utf8_lossy(&divan.stdout).into_owned();
    let report = report(&measures, &divan, go.is_some());
    print!("{report}");
    std::fs::write(out.join("report.md"), &report)?;
    std::fs::write(out.join("chart.svg"), chart(&measures))?;
    eprintln!(
        "wrote {} and {}",
        out.join("report.md").display(),
        out.join("chart.svg").display()
    );
    Ok(())
}

fn write_program(
    dir: &Path,
    program: &pcl_test_utils::checked::CheckedProgram,
) -> anyhow::Result<(usize, usize)> {
    let schemas = dir.join("schemas");
    std::fs::create_dir_all(&schemas)?;
    let mut list = String::new();
    let (mut bytes, mut lines) = (0, 0);
    for (name, text) in &program.files {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text)?;
        }
        bytes += text.len();
        lines += text.lines().count();
        let _ = writeln!(list, "{}", path.display());
    }
    std::fs::write(dir.join("files.list"), list)?;
    std::fs::write(schemas.join("gen-1.0.0.json"), &program.schema)?;
    Ok((bytes, lines))
}

/// A Pulumi home whose schema cache holds the generated program's schemas (copied from
/// `program/schemas`), as Pulumi leaves them on a user's disk.
fn pulumi_home_with(program: &Path, home: &Path) -> anyhow::Result<PathBuf> {
    let schemas = home.join("schemas");
    std::fs::create_dir_all(&schemas)?;
    for entry in std::fs::read_dir(program.join("schemas"))? {
        let path = entry?.path();
        if let Some(name) = path.file_name() {
            std::fs::copy(&path, schemas.join(name))?;
        }
    }
    Ok(home.to_path_buf())
}

/// Wall time of a child process and its peak resident memory (KB), sampled.
fn timed(command: &mut Command) -> anyhow::Result<(Duration, u64)> {
    let start = Instant::now();
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("cannot start")?;
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if let Ok(text) = std::fs::read_to_string(&status_path) {
            let hwm = text.lines().find_map(|l| l.strip_prefix("VmHWM:"));
            if let Some(kb) =
                hwm.and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kb);
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let elapsed = start.elapsed();
    if !matches!(status.code(), Some(0 | 1)) {
        bail!("the command failed: {status}");
    }
    Ok((elapsed, peak))
}

/// The largest one-file program whose instructions are counted: Valgrind runs a check
/// 20-30 times slower, and 31k resources (about 10 MB) is the size issue 30's goals name.
const MAX_COUNTED_RESOURCES: usize = 31_000;

/// The instructions `command` executes, counted by Valgrind's cachegrind without its cache
/// simulation: the same for a build and input at every run, where time on the machines we
/// measure on drifts by up to 50% within minutes.
fn instructions(command: &mut Command) -> anyhow::Result<u64> {
    let mut counted = Command::new("valgrind");
    counted.args([
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
    ]);
    counted.arg(command.get_program()).args(command.get_args());
    let output = counted
        .stdout(Stdio::null())
        .output()
        .context("cannot run valgrind")?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    cachegrind_instructions(&stderr)
        .with_context(|| format!("no instruction count in Valgrind's output:\n{stderr}"))
}

/// The `I refs` total of cachegrind's summary (`==1234== I   refs:      1,091,462,141`).
fn cachegrind_instructions(stderr: &str) -> Option<u64> {
    let line = stderr.lines().find(|line| line.contains("I   refs:"))?;
    let count = line.rsplit(':').next()?.trim().replace(',', "");
    count.parse().ok()
}

/// Two commands side by side, one pinned to each of cores 0 and 1 (`command(core)`), over
/// each alone: the median over `rounds` of their wall times together over their times
/// alone, each round's taken back to back (as the jobs' pairs, for the machine's drift). Both run `--jobs 1`, so their time is one thread's.
fn side_by_side(rounds: usize, command: impl Fn(&str) -> Command + Sync) -> anyhow::Result<f64> {
    let mut ratios = Vec::new();
    for _ in 0..rounds {
        let alone = timed(&mut command("0"))?.0 + timed(&mut command("1"))?.0;
        let together = std::thread::scope(|scope| {
            let runs: Vec<_> = ["0", "1"]
                .map(|core| scope.spawn(|| timed(&mut command(core)).map(|(time, _)| time)))
                .into_iter()
                .collect();
            runs.into_iter()
                .map(|run| {
                    run.join()
                        .unwrap_or_else(|_| bail!("a side-by-side run panicked"))
                })
                .sum::<anyhow::Result<Duration>>()
        })?;
        ratios.push(ratio(together, alone));
    }
    Ok(median(ratios))
}

/// hclwrite's throughput over the files of `list` in its `-list` mode (MB/s, the median of
/// `rounds` passes after a warm-up), from its `RESULT` line.
fn hclwrite_list_mb_s(hclwrite: &Path, list: &Path, rounds: usize) -> anyhow::Result<Option<f64>> {
    let output = Command::new(hclwrite)
        .arg("-list")
        .arg(list)
        .args(["-iters", &rounds.to_string()])
        .output()
        .context("cannot run hclwrite-fmt")?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    Ok(stdout
        .split_whitespace()
        .find_map(|field| field.strip_prefix("mb_s="))
        .and_then(|value| value.parse().ok()))
}

fn median<T: Copy + PartialOrd>(mut values: Vec<T>) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values[values.len() / 2]
}

/// `a` over `b`.
fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / 1e6 / time.as_secs_f64().max(1e-9)
}

/// The median of a divan row, in milliseconds: the row of `bench` with argument `arg`.
fn divan_median(output: &str, bench: &str, arg: &str) -> Option<f64> {
    let mut in_bench = false;
    for line in output.lines() {
        let name = line.trim_start_matches(['│', '├', '╰', '─', ' ']);
        if line.contains("─ ") && !line.starts_with("│  ") && !line.starts_with("   ") {
            in_bench = name.split_whitespace().next() == Some(bench);
            continue;
        }
        if in_bench && name.split_whitespace().next() == Some(arg) {
            // `fastest │ slowest │ median │ mean │ samples │ iters`, counted from the end:
            // a row starts with a `│` of the tree unless its bench is the last one.
            let cells: Vec<&str> = line.split('│').collect();
            let median = cells.len().checked_sub(4)?;
            return parse_time(cells[median].trim());
        }
    }
    None
}

fn parse_time(text: &str) -> Option<f64> {
    let (number, unit) = text.split_once(' ')?;
    let value: f64 = number.parse().ok()?;
    Some(match unit {
        "s" => value * 1000.0,
        "ms" => value,
        "µs" => value / 1000.0,
        "ns" => value / 1e6,
        _ => return None,
    })
}

fn report(measures: &[Measure], divan: &str, with_go: bool) -> String {
    let mut out = String::from(
        "# pcl bench report\n\nWhole processes, the `dist` build (the README's install), median of the rounds; one run. `check` uses every core (the default `--jobs`); `one core` is `taskset -c 0 pcl check`, and its ratio to `pcl parse` (which uses one core) is the cold check's cost over parsing, the median of the rounds' ratios. `default jobs / --jobs 1` is the median of the ratios of runs taken in pairs, back to back (the machine's speed drifts between minutes).\n\n",
    );
    let _ = writeln!(
        out,
        "| resources | files | MB | lines | parse s | check s | check MB/s | check lines/s | check/parse | check s, one core | MB/s, one core | check/parse, one core | default jobs / --jobs 1 | peak B/B | check s, schema from Pulumi's cache |{}",
        if with_go {
            " Go hclsyntax check s | Go / pcl parse | Go / pcl check |"
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|{}",
        if with_go { "---:|---:|---:|" } else { "" }
    );
    for m in measures {
        let _ = write!(
            out,
            "| {} | {} | {:.1} | {} | {:.3} | {:.3} | {:.2} | {:.0} | {:.1}x | {} | {:.2}x | {:.0} | {:.3} |",
            m.resources,
            m.files,
            m.bytes as f64 / 1e6,
            m.lines,
            m.parse.as_secs_f64(),
            m.check.as_secs_f64(),
            mb_per_s(m.bytes, m.check),
            m.lines as f64 / m.check.as_secs_f64().max(1e-9),
            ratio(m.check, m.parse),
            match m.check_one_core {
                Some(core) => format!(
                    "{:.3} | {:.2} | {:.1}x",
                    core.as_secs_f64(),
                    mb_per_s(m.bytes, core),
                    m.one_core_ratio.unwrap_or_default()
                ),
                None => "– | – | –".to_owned(),
            },
            m.jobs_ratio,
            (m.check_peak_kb * 1024) as f64 / m.bytes.max(1) as f64,
            m.check_from_cache.as_secs_f64(),
        );
        if let Some(go) = m.go_parse {
            let _ = write!(
                out,
                " {:.3} | {:.1}x | {:.2}x |",
                go.as_secs_f64(),
                ratio(go, m.parse),
                ratio(go, m.check)
            );
        } else if with_go {
            out.push_str(" – | – | – |");
        }
        out.push('\n');
    }
    out.push_str(
        "\nGrowth of the cold check from the smallest to the largest program (time ∝ size^k):\n\n",
    );
    for files in [1, 100] {
        if let Some((k, first, last)) = growth(measures, files, |m| m.check) {
            let _ = writeln!(
                out,
                "- {files} file(s): k = {k:.2} ({} → {} resources)",
                first.resources, last.resources
            );
        }
    }
    report_steady(&mut out, measures);
    report_formatter(&mut out, measures);
    for size in ["1k", "10k", "100k"] {
        let layouts = [format!("{size}/100"), format!("{size}/1")];
        let cold: Vec<Option<f64>> = (layouts.iter())
            .map(|layout| divan_median(divan, "cold_check", layout))
            .collect();
        if cold.iter().all(Option::is_none) {
            continue;
        }
        let _ = write!(
            out,
            "\nIn-process (divan, `cargo bench --bench check`, {size} resources), medians and ratios to the cold check:\n\n| bench | 100 files | 1 file |\n|---|---:|---:|\n"
        );
        for bench in [
            "cold_check",
            "parse_only",
            "incremental_literal",
            "incremental_literal_edited_file",
            "incremental_whitespace",
            "incremental_type_change",
            "hover_after_edit",
        ] {
            let _ = write!(out, "| {bench} |");
            for (layout, cold) in layouts.iter().zip(&cold) {
                match (divan_median(divan, bench, layout), cold) {
                    (Some(ms), Some(cold)) => {
                        let _ = write!(out, " {ms:.2} ms ({:.1}%) |", 100.0 * ms / cold);
                    }
                    (Some(ms), None) => {
                        let _ = write!(out, " {ms:.2} ms |");
                    }
                    _ => out.push_str(" – |"),
                }
            }
            out.push('\n');
        }
    }
    out
}

/// The figures that do not drift with the machine's speed: instructions of the one-core
/// check and of `pcl parse -q`, and the machine's own cost of running two busy cores
/// beside the default jobs' ratio.
fn report_steady(out: &mut String, measures: &[Measure]) {
    let counted: Vec<(&Measure, (u64, u64))> = (measures.iter())
        .filter_map(|m| m.instructions.map(|counts| (m, counts)))
        .collect();
    if !counted.is_empty() {
        out.push_str("\nInstructions (Valgrind's cachegrind: the same at every run of a build), one-file programs:\n\n| resources | `pcl parse -q` | `pcl check --jobs 1` | check/parse, instructions | check/parse, one core's time |\n|---:|---:|---:|---:|---:|\n");
        for (m, (parse, check)) in counted {
            let _ = writeln!(
                out,
                "| {} | {:.1} M | {:.1} M | {:.2}x | {} |",
                m.resources,
                parse as f64 / 1e6,
                check as f64 / 1e6,
                check as f64 / parse.max(1) as f64,
                m.one_core_ratio
                    .map_or("–".to_owned(), |r| format!("{r:.2}x")),
            );
        }
    }
    let paired: Vec<(&Measure, f64)> = (measures.iter())
        .filter_map(|m| m.side_by_side.map(|factor| (m, factor)))
        .collect();
    if !paired.is_empty() {
        out.push_str("\nTwo cores, 100-file programs: two `pcl check --jobs 1` side by side, each pinned to a core of its own, over each alone (the machine's own cost of two busy cores: shared caches, memory, the host); half of it is the least a check on two threads could take of `--jobs 1` here, before any serial step or sharing between its threads:\n\n| resources | side by side / alone | floor (half) | default jobs / --jobs 1 |\n|---:|---:|---:|---:|\n");
        for (m, factor) in paired {
            let _ = writeln!(
                out,
                "| {} | {factor:.3} | {:.3} | {:.3} |",
                m.resources,
                factor / 2.0,
                m.jobs_ratio
            );
        }
    }
}

/// The formatter's table: `pcl fmt --check` as a whole process beside `pcl parse` and
/// hclwrite, and its growth with size.
fn report_formatter(out: &mut String, measures: &[Measure]) {
    out.push_str("\nFormatter: `pcl fmt --check` (whole process) beside `pcl parse` and hclwrite (`-list` in-process median; whole process for one file):\n\n");
    out.push_str("| resources | files | MB | fmt s | fmt MB/s | fmt/parse | hclwrite in-process MB/s | pcl fmt / hclwrite in-process | hclwrite process s | pcl fmt / hclwrite process |\n");
    out.push_str("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for m in measures {
        let fmt_mb_s = mb_per_s(m.bytes, m.fmt);
        let _ = write!(
            out,
            "| {} | {} | {:.1} | {:.3} | {fmt_mb_s:.1} | {:.2}x |",
            m.resources,
            m.files,
            m.bytes as f64 / 1e6,
            m.fmt.as_secs_f64(),
            ratio(m.fmt, m.parse),
        );
        match m.hclwrite_in_process {
            Some(theirs) => {
                let _ = write!(out, " {theirs:.1} | {:.1}x |", fmt_mb_s / theirs.max(1e-9));
            }
            None => out.push_str(" – | – |"),
        }
        match m.hclwrite_process {
            Some(theirs) => {
                let _ = write!(
                    out,
                    " {:.3} | {:.1}x |",
                    theirs.as_secs_f64(),
                    ratio(theirs, m.fmt)
                );
            }
            None => out.push_str(" – | – |"),
        }
        out.push('\n');
    }
    for files in [1, 100] {
        if let Some((k, _, _)) = growth(measures, files, |m| m.fmt) {
            let _ = writeln!(out, "\nGrowth of `pcl fmt`, {files} file(s): k = {k:.2}");
        }
    }
}

/// How a time grows with size over the programs of `files` files (time ∝ size^k): `k`,
/// from the smallest and the largest program, which are returned beside it.
fn growth(
    measures: &[Measure],
    files: usize,
    time: impl Fn(&Measure) -> Duration,
) -> Option<(f64, &Measure, &Measure)> {
    let mut rows = measures.iter().filter(|m| m.files == files);
    let first = rows.next()?;
    let last = rows.next_back()?;
    if last.bytes <= first.bytes {
        return None;
    }
    let k = (time(last).as_secs_f64() / time(first).as_secs_f64()).ln()
        / (last.bytes as f64 / first.bytes as f64).ln();
    Some((k, first, last))
}

/// A figure of one measure, charted against size.
type Metric = fn(&Measure) -> f64;

fn throughput(m: &Measure) -> f64 {
    mb_per_s(m.bytes, m.check)
}

fn bytes_per_byte(m: &Measure) -> f64 {
    (m.check_peak_kb * 1024) as f64 / m.bytes.max(1) as f64
}

/// Throughput (MB/s) and peak memory (bytes per source byte) of the cold check against
/// program size, as a small hand-drawn SVG (log scale on the x axis).
fn chart(measures: &[Measure]) -> String {
    let (width, height, margin) = (640.0, 360.0, 50.0);
    let sizes: Vec<f64> = measures.iter().map(|m| (m.bytes as f64).log10()).collect();
    let (min_x, max_x) = sizes
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let x = |v: f64| margin + (v - min_x) / (max_x - min_x).max(1e-9) * (width - 2.0 * margin);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{margin}\" y=\"20\">pcl check: MB/s (blue) and peak bytes per source byte (red) against program size (log)</text>\n"
    );
    let series: [(&str, Metric); 2] = [("#1f77b4", throughput), ("#d62728", bytes_per_byte)];
    for (color, value) in &series {
        let max_y = measures.iter().map(value).fold(1e-9, f64::max) * 1.1;
        for files in [1, 100] {
            let points: Vec<String> = measures
                .iter()
                .filter(|m| m.files == files)
                .map(|m| {
                    let px = x((m.bytes as f64).log10());
                    let py = height - margin - value(m) / max_y * (height - 2.0 * margin);
                    format!("{px:.1},{py:.1}")
                })
                .collect();
            let dash = if files == 1 {
                ""
            } else {
                " stroke-dasharray=\"4 3\""
            };
            let _ = writeln!(
                svg,
                "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"{dash} points=\"{}\"/>",
                points.join(" ")
            );
        }
    }
    for m in measures.iter().filter(|m| m.files == 1) {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}k res</text>",
            x((m.bytes as f64).log10()),
            height - 20.0,
            m.resources / 1000
        );
    }
    svg.push_str("<text x=\"50\" y=\"345\">solid: one file; dashed: 100 files</text>\n</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::{cachegrind_instructions, divan_median};

    #[test]
    fn cachegrind_totals_are_read_from_the_i_refs_line() {
        let stderr = "==19044== Cachegrind, a cache and branch-prediction profiler\n==19044== \n==19044== I   refs:      1,091,462,141\n";
        assert_eq!(cachegrind_instructions(stderr), Some(1_091_462_141));
        assert_eq!(cachegrind_instructions("==1== no summary\n"), None);
    }

    /// The median column, in rows with and without the tree's leading `│`.
    #[test]
    fn divan_medians_are_read_from_the_median_column() {
        let output = "\
check                       fastest       │ slowest       │ median        │ mean          │ samples │ iters
├─ cold_check                             │               │               │               │         │
│  ├─ 10k/1                 380 ms        │ 430 ms        │ 400 ms        │ 405 ms        │ 10      │ 10
│  │                        8.5 MB/s      │ 7.4 MB/s      │ 8.0 MB/s      │ 7.9 MB/s      │         │
│  ╰─ 10k/100               360 ms        │ 390 ms        │ 370 ms        │ 375 ms        │ 10      │ 10
╰─ incremental_type_change                │               │               │               │         │
   ├─ 10k/1                 41.29 ms      │ 83.44 ms      │ 42.95 ms      │ 45.06 ms      │ 20      │ 20
   ╰─ 10k/100               212.3 µs      │ 23.63 ms      │ 231.3 µs      │ 1.415 ms      │ 20      │ 20
";
        assert_eq!(divan_median(output, "cold_check", "10k/1"), Some(400.0));
        assert_eq!(divan_median(output, "cold_check", "10k/100"), Some(370.0));
        assert_eq!(
            divan_median(output, "incremental_type_change", "10k/1"),
            Some(42.95)
        );
        let small = divan_median(output, "incremental_type_change", "10k/100");
        assert!(
            small.is_some_and(|ms| (ms - 0.2313).abs() < 1e-9),
            "{small:?}"
        );
    }
}
