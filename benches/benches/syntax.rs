//! Lexer, parser and formatter throughput on generated 1 MB and 10 MB programs and on many small files,
//! side by side with `hcl-edit` (with its `perf` feature) in the same run.
//!
//! `cargo bench -p pcl-benches --bench syntax`; divan prints MB/s per input. Every bench returns
//! its result, so divan drops it outside the timing, for us and for hcl-edit alike; a full run
//! ends with a table of ratios, with and without the drop. Extra inputs (say,
//! files from `shared/tools/hclsyntax-bench/gen_pcl.py`, to compare with Go's hclsyntax on the
//! same bytes) are named in `PCL_BENCH_FILES`, separated by commas.

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use pcl_test_utils::generate::{self, Shape};

fn main() {
    divan::main();
    // A whole run (no filter) ends with the parse ratios to hcl-edit, input by input.
    if std::env::args().skip(1).all(|arg| arg == "--bench") {
        print_ratios_to_hcl_edit();
    }
}

/// Prints our lex+parse+tree throughput beside hcl-edit's parse on every input, from
/// alternating runs (so both see the same machine state), with their ratio: once for parsing
/// alone (as the divan benches measure it: results are dropped outside the timing) and once
/// for parsing plus dropping the result.
#[allow(clippy::print_stdout)]
fn print_ratios_to_hcl_edit() {
    println!("\nMB/s, median of {RUNS} alternating runs: parse | parse + drop");
    println!(
        "{:<18} {:>7} {:>8} {:>6} | {:>7} {:>8} {:>6}",
        "input", "pcl", "hcl-edit", "ratio", "pcl", "hcl-edit", "ratio"
    );
    for (name, text) in INPUTS.iter() {
        ratio_row(
            name,
            text.len(),
            || pcl_syntax::parse(text),
            || hcl_edit::parser::parse_body(text),
        );
    }
    ratio_row(
        "1000-small-files",
        small_files_bytes(),
        || {
            SMALL_FILES
                .iter()
                .map(|text| pcl_syntax::parse(text))
                .collect::<Vec<_>>()
        },
        || {
            SMALL_FILES
                .iter()
                .map(|text| hcl_edit::parser::parse_body(text))
                .collect::<Vec<_>>()
        },
    );
}

const RUNS: usize = 5;

#[allow(clippy::print_stdout)]
fn ratio_row<A, B>(name: &str, bytes: usize, ours: impl Fn() -> A, theirs: impl Fn() -> B) {
    let (mut ours_times, mut theirs_times) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        ours_times.push(parse_and_drop_seconds(&ours));
        theirs_times.push(parse_and_drop_seconds(&theirs));
    }
    let mbps = |times: &[(f64, f64)], with_drop: bool| {
        let mut secs: Vec<f64> = times
            .iter()
            .map(|&(parse, drop)| if with_drop { parse + drop } else { parse })
            .collect();
        secs.sort_by(f64::total_cmp);
        bytes as f64 / secs[RUNS / 2] / 1e6
    };
    let [ours, theirs, ours_drop, theirs_drop] = [
        mbps(&ours_times, false),
        mbps(&theirs_times, false),
        mbps(&ours_times, true),
        mbps(&theirs_times, true),
    ];
    println!(
        "{name:<18} {ours:>7.1} {theirs:>8.1} {:>5.2}x | {ours_drop:>7.1} {theirs_drop:>8.1} {:>5.2}x",
        ours / theirs,
        ours_drop / theirs_drop
    );
}

/// Seconds to produce `f`'s result, and seconds to drop it.
fn parse_and_drop_seconds<T>(f: &impl Fn() -> T) -> (f64, f64) {
    let start = std::time::Instant::now();
    let result = f();
    let parsed = start.elapsed().as_secs_f64();
    let start = std::time::Instant::now();
    drop(result);
    (parsed, start.elapsed().as_secs_f64())
}

const MB: usize = 1_000_000;

/// (name, text) of every large input.
static INPUTS: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let mut res = Vec::new();
    for size in [MB, 10 * MB] {
        for shape in Shape::ALL {
            let name = format!("{}-{}mb", shape.name(), size / MB);
            res.push((name, generate::program(shape, size, 42)));
        }
    }
    for path in std::env::var("PCL_BENCH_FILES")
        .unwrap_or_default()
        .split(',')
    {
        if path.is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.into(), |it| it.to_string_lossy());
        res.push((format!("file:{name}"), text));
    }
    res
});

fn input_names() -> Vec<&'static str> {
    INPUTS.iter().map(|(name, _)| name.as_str()).collect()
}

/// A thousand small files of about 2 KB each.
static SMALL_FILES: LazyLock<Vec<String>> = LazyLock::new(|| {
    (0..1000u64)
        .map(|seed| generate::program(Shape::ALL[seed as usize % 3], 2_000, seed + 1))
        .collect()
});

fn input(name: &str) -> &'static str {
    INPUTS
        .iter()
        .find(|(input_name, _)| input_name == name)
        .map(|(_, text)| text.as_str())
        .unwrap_or_else(|| panic!("no input {name}"))
}

#[divan::bench(args = input_names(), sample_count = 10, sample_size = 1)]
fn lex(bencher: Bencher<'_, '_>, name: &str) {
    let text = input(name);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| pcl_syntax::LexedText::new(text).len());
}

#[divan::bench(args = input_names(), sample_count = 10, sample_size = 1)]
fn parse(bencher: Bencher<'_, '_>, name: &str) {
    let text = input(name);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| pcl_syntax::parse(text));
}

/// The formatter on the same inputs: checking syntax (no tree) and laying out, so the
/// ratio to `parse` is what `pcl fmt` costs beside `pcl parse`.
#[divan::bench(args = input_names(), sample_count = 10, sample_size = 1)]
fn format(bencher: Bencher<'_, '_>, name: &str) {
    let text = input(name);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| pcl_fmt::format(text));
}

#[divan::bench(args = input_names(), sample_count = 10, sample_size = 1)]
fn hcl_edit_parse(bencher: Bencher<'_, '_>, name: &str) {
    let text = input(name);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| hcl_edit::parser::parse_body(text));
}

fn small_files_bytes() -> usize {
    SMALL_FILES.iter().map(String::len).sum()
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn parse_small_files(bencher: Bencher<'_, '_>) {
    bencher
        .counter(BytesCount::new(small_files_bytes()))
        .bench(|| {
            SMALL_FILES
                .iter()
                .map(|text| pcl_syntax::parse(text))
                .collect::<Vec<_>>()
        });
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn hcl_edit_parse_small_files(bencher: Bencher<'_, '_>) {
    bencher
        .counter(BytesCount::new(small_files_bytes()))
        .bench(|| {
            SMALL_FILES
                .iter()
                .map(|text| hcl_edit::parser::parse_body(text))
                .collect::<Vec<_>>()
        });
}

/// An error-dense input: the config program with a junk token on every fifth line.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn parse_error_dense(bencher: Bencher<'_, '_>) {
    static BROKEN: LazyLock<String> = LazyLock::new(|| {
        input("config-1mb")
            .lines()
            .enumerate()
            .map(|(idx, line)| {
                if idx % 5 == 0 {
                    format!("{line} ) @\n")
                } else {
                    format!("{line}\n")
                }
            })
            .collect()
    });
    let text: &str = &BROKEN;
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| pcl_syntax::parse(text).errors().len());
}
