//! Lexer and parser throughput on generated 1 MB and 10 MB programs and on many small files,
//! side by side with `hcl-edit` (with its `perf` feature) in the same run.
//!
//! `cargo bench -p pcl-benches --bench syntax`; divan prints MB/s per input. Extra inputs (say,
//! files from `shared/tools/hclsyntax-bench/gen_pcl.py`, to compare with Go's hclsyntax on the
//! same bytes) are named in `PCL_BENCH_FILES`, separated by commas.

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use pcl_test_utils::generate::{self, Shape};

fn main() {
    divan::main();
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

#[divan::bench(args = input_names(), sample_count = 10, sample_size = 1)]
fn hcl_edit_parse(bencher: Bencher<'_, '_>, name: &str) {
    let text = input(name);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| hcl_edit::parser::parse_body(text).is_ok());
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
                .map(|text| pcl_syntax::parse(text).errors().len())
                .sum::<usize>()
        });
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn hcl_edit_parse_small_files(bencher: Bencher<'_, '_>) {
    bencher
        .counter(BytesCount::new(small_files_bytes()))
        .bench(|| {
            SMALL_FILES
                .iter()
                .filter(|text| hcl_edit::parser::parse_body(text).is_ok())
                .count()
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
