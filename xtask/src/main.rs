//! Development automation for pcl: `cargo xtask <command>`.
//!
//! Commands:
//! - `gen-program [--shape config|templates|nested] [--bytes N] [--seed S] -o FILE`: writes a
//!   large generated program, the same the benches use, e.g. for side-by-side runs of other
//!   parsers.
//! - `gen-program --resources N [--files F] [--seed S] -o DIR`: writes a realistic program
//!   that checks clean (the one the `check` benches use) as F files in DIR, with its schema
//!   in `DIR/schemas/gen-1.0.0.json`: `pcl check --schema-dir DIR/schemas DIR`.
//! - `hcl-compare --go BIN PATH...`: our parser beside Go's hclsyntax on real files (see
//!   [`hcl_compare`]); exits 1 when they disagree on a file.
//! - `fmt-compare --hclwrite BIN [--perturb N] PATH...`: our formatter beside
//!   `hclwrite.Format` byte for byte (see [`fmt_compare`]); exits 1 below 99% identical.
//! - `check [--schema-dir D]... [--skip-resource-typecheck] [--syntax-only] [--baseline FILE]
//!   [--bless] [--json OUT] [--jobs N] PATH...`: checks every program under the PATHs in
//!   parallel, with a summary, against a baseline (see [`check`]).
//! - `bench-report [--quick] [--go BIN] [--hclwrite BIN]`: tables of throughput, memory,
//!   growth, the formatter beside hclwrite and incremental ratios (see [`bench_report`]).
//! - `fuzz [TARGET] [--time SECONDS]`: runs the fuzz targets with libFuzzer and turns
//!   failures into regression fixtures (see [`fuzz`]).

mod bench_report;
mod check;
mod editor_test;
mod fmt_compare;
mod fuzz;
mod hcl_compare;
#[cfg(test)]
mod tidy;

use std::path::PathBuf;

use anyhow::{Context, bail, format_err};
use pcl_test_utils::generate::{self, Shape};

const USAGE: &str = "usage:
  cargo xtask gen-program [--shape config|templates|nested] [--bytes N] [--seed S] -o FILE
  cargo xtask gen-program --resources N [--files F] [--seed S] -o DIR
  cargo xtask hcl-compare --go BIN PATH...
  cargo xtask fmt-compare --hclwrite BIN [--perturb N] PATH...
  cargo xtask check [--schema-dir D]... [--skip-resource-typecheck] [--syntax-only] [--baseline FILE] [--bless] [--json OUT] [--jobs N] PATH...
  cargo xtask bench-report [--quick] [--go BIN] [--hclwrite BIN]
  cargo xtask editor-test
  cargo xtask fuzz [parse|lex|parse_structured|type_string|schema|check|lsp|fmt] [--time SECONDS]";

#[allow(clippy::print_stdout, clippy::print_stderr)]
fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo xtask COMMAND --help`: the usage, not an unknown option.
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    match args.split_first() {
        Some((command, rest)) if command == "gen-program" => gen_program(rest),
        Some((command, rest)) if command == "hcl-compare" => {
            if !hcl_compare::run(rest)? {
                std::process::exit(1);
            }
            Ok(())
        }
        Some((command, rest)) if command == "fmt-compare" => {
            if !fmt_compare::run(rest)? {
                std::process::exit(1);
            }
            Ok(())
        }
        Some((command, rest)) if command == "fuzz" => fuzz::run(rest),
        Some((command, rest)) if command == "check" => std::process::exit(check::run(rest)),
        Some((command, rest)) if command == "bench-report" => bench_report::run(rest),
        Some((command, rest)) if command == "editor-test" => editor_test::run(rest),
        Some((command, _)) if command == "help" => {
            println!("{USAGE}");
            Ok(())
        }
        Some((command, _)) => bail!("unknown command `{command}`\n{USAGE}"),
        None => bail!("no command given\n{USAGE}"),
    }
}

/// Writes a program that checks clean, and its schema, into `dir`.
#[allow(clippy::print_stderr)]
fn gen_checked_program(
    resources: usize,
    files: usize,
    seed: u64,
    dir: &std::path::Path,
) -> anyhow::Result<()> {
    let program = pcl_test_utils::checked::checked_program(resources, files, seed);
    let schemas = dir.join("schemas");
    std::fs::create_dir_all(&schemas)
        .with_context(|| format!("cannot create `{}`", schemas.display()))?;
    let mut bytes = 0;
    for (name, text) in &program.files {
        bytes += text.len();
        let path = dir.join(name);
        std::fs::write(&path, text)
            .with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    let schema = schemas.join("gen-1.0.0.json");
    std::fs::write(&schema, &program.schema)
        .with_context(|| format!("cannot write `{}`", schema.display()))?;
    eprintln!(
        "wrote {resources} resources ({bytes} bytes) in {} files to {}, schema in {}",
        program.files.len(),
        dir.display(),
        schemas.display()
    );
    Ok(())
}

#[allow(clippy::print_stderr)]
fn gen_program(args: &[String]) -> anyhow::Result<()> {
    let mut shape = Shape::Config;
    let mut bytes = 1_000_000usize;
    let mut seed = 1u64;
    let mut out: Option<PathBuf> = None;
    let mut resources: Option<usize> = None;
    let mut files = 1usize;
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format_err!("`{flag}` needs a value"))
        };
        match flag.as_str() {
            "--shape" => {
                let name = value()?;
                shape = Shape::ALL
                    .into_iter()
                    .find(|shape| shape.name() == name)
                    .ok_or_else(|| {
                        format_err!("unknown shape `{name}`: use config, templates or nested")
                    })?;
            }
            "--bytes" => bytes = value()?.parse().context("`--bytes` takes a whole number")?,
            "--seed" => seed = value()?.parse().context("`--seed` takes a whole number")?,
            "--resources" => {
                resources = Some(
                    value()?
                        .parse()
                        .context("`--resources` takes a whole number")?,
                );
            }
            "--files" => files = value()?.parse().context("`--files` takes a whole number")?,
            "-o" | "--out" => out = Some(PathBuf::from(value()?)),
            other => bail!("unknown option `{other}`\n{USAGE}"),
        }
    }
    let out = out.ok_or_else(|| format_err!("`-o FILE` is required\n{USAGE}"))?;
    if let Some(resources) = resources {
        return gen_checked_program(resources, files, seed, &out);
    }
    let text = generate::program(shape, bytes, seed);
    std::fs::write(&out, &text).with_context(|| format!("cannot write `{}`", out.display()))?;
    eprintln!(
        "wrote {} bytes of {} program to {}",
        text.len(),
        shape.name(),
        out.display()
    );
    Ok(())
}
