//! `cargo xtask fmt-compare --hclwrite BIN [--perturb N] PATH...`: our formatter beside
//! HashiCorp's `hclwrite.Format` (the `shared/tools/hclwrite-fmt` driver, run once per
//! file) on the same bytes, byte for byte.
//!
//! Files our parser rejects are skipped (`pcl fmt` leaves them alone). `--perturb N` also
//! compares N variants of each file whose whitespace was scrambled (runs of spaces and
//! tabs replaced by others, some lines indented at random, seeded and deterministic), to
//! exercise the layout rules on badly formatted input. Lists every file whose output
//! differs with the first differing line of each side; exits 1 when fewer than 99% of the
//! files are identical.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail, format_err};
use pcl_test_utils::generate::Rng;

const USAGE: &str = "cargo xtask fmt-compare --hclwrite BIN [--perturb N] PATH...";

/// The extensions of the files taken from directories, as `pcl fmt` takes them.
const EXTENSIONS: [&str; 3] = ["pp", "hcl", "tf"];

/// The share of identical outputs below which the comparison fails.
const REQUIRED_IDENTICAL: f64 = 0.99;

/// Runs the comparison; `Ok(false)` when fewer than 99% of the outputs are identical.
#[allow(clippy::print_stdout)]
pub(crate) fn run(args: &[String]) -> anyhow::Result<bool> {
    let mut hclwrite: Option<PathBuf> = None;
    let mut perturbations = 0;
    let mut roots = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--hclwrite" => {
                let bin = args.next().ok_or_else(|| {
                    format_err!("`--hclwrite` needs the path of the hclwrite-fmt driver")
                })?;
                hclwrite = Some(PathBuf::from(bin));
            }
            "--perturb" => {
                perturbations = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| format_err!("`--perturb` needs a number of variants"))?;
            }
            flag if flag.starts_with('-') => bail!("unknown option `{flag}`\nusage: {USAGE}"),
            path => roots.push(PathBuf::from(path)),
        }
    }
    let hclwrite = hclwrite.ok_or_else(|| {
        format_err!(
            "`--hclwrite BIN` is required: build it with shared/tools/hclwrite-fmt/build.sh\nusage: {USAGE}"
        )
    })?;
    if roots.is_empty() {
        bail!("no files or directories given\nusage: {USAGE}");
    }
    let scratch = std::env::temp_dir().join(format!("pcl-fmt-compare-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .with_context(|| format!("cannot create `{}`", scratch.display()))?;
    let mut report = String::new();
    let (mut compared, mut identical, mut skipped) = (0, 0, 0);
    for root in &roots {
        let files = if root.is_dir() {
            pcl_test_utils::files_with_extensions(root, &EXTENSIONS)
        } else {
            vec![root.clone()]
        };
        for file in files {
            let Ok(text) = std::fs::read_to_string(&file) else {
                skipped += 1;
                continue;
            };
            let name = file.display().to_string();
            let mut variants = vec![(name.clone(), text.clone())];
            for seed in 1..=perturbations {
                variants.push((
                    format!("{name} (perturbed, seed {seed})"),
                    perturb(&text, seed),
                ));
            }
            for (label, variant) in variants {
                let Ok(ours) = pcl_fmt::format(&variant) else {
                    skipped += 1;
                    continue;
                };
                let theirs = run_hclwrite(&hclwrite, &scratch, &variant)?;
                compared += 1;
                match first_difference(&ours, &theirs) {
                    None => identical += 1,
                    Some((line, ours_line, theirs_line)) => {
                        let _ = writeln!(
                            report,
                            "differs: {label}, line {line}\n  pcl:      {ours_line:?}\n  hclwrite: {theirs_line:?}"
                        );
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let share = if compared == 0 {
        0.0
    } else {
        identical as f64 / compared as f64
    };
    print!("{report}");
    println!(
        "{identical} of {compared} files identical to hclwrite.Format ({:.2}%); {skipped} skipped (syntax errors or not UTF-8)",
        100.0 * share
    );
    Ok(REQUIRED_IDENTICAL <= share)
}

/// hclwrite's output for `text`, through a file in `scratch`.
fn run_hclwrite(hclwrite: &Path, scratch: &Path, text: &str) -> anyhow::Result<String> {
    let input = scratch.join("input.pp");
    std::fs::write(&input, text).with_context(|| format!("cannot write `{}`", input.display()))?;
    let output = Command::new(hclwrite)
        .arg(&input)
        .output()
        .with_context(|| format!("cannot run `{}`", hclwrite.display()))?;
    if !output.status.success() {
        bail!(
            "hclwrite-fmt failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The first line (1-based) where the two texts differ, with both versions of it.
fn first_difference(ours: &str, theirs: &str) -> Option<(usize, String, String)> {
    if ours == theirs {
        return None;
    }
    let mut ours_lines = ours.split_inclusive('\n');
    let mut theirs_lines = theirs.split_inclusive('\n');
    let mut line = 1;
    loop {
        match (ours_lines.next(), theirs_lines.next()) {
            (Some(a), Some(b)) if a == b => line += 1,
            (a, b) => {
                let show = |it: Option<&str>| it.unwrap_or("<end of file>").to_owned();
                return Some((line, show(a), show(b)));
            }
        }
    }
}

/// `text` with its whitespace scrambled: every run of spaces and tabs becomes one of a few
/// others (possibly none, which may join tokens: both formatters then see the same new
/// text), and about a third of the lines get extra indentation.
fn perturb(text: &str, seed: u64) -> String {
    const RUNS: [&str; 6] = ["", " ", "  ", "\t", "   ", " \t "];
    let mut rng = Rng::new(seed);
    let mut res = String::with_capacity(text.len() + text.len() / 4);
    for line in text.split_inclusive('\n') {
        if rng.below(3) == 0 {
            res.push_str(&" ".repeat(rng.below(6)));
        }
        let mut chars = line.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch != ' ' && ch != '\t' {
                res.push(ch);
                continue;
            }
            while chars.next_if(|&next| next == ' ' || next == '\t').is_some() {}
            res.push_str(RUNS[rng.below(RUNS.len())]);
        }
    }
    res
}
