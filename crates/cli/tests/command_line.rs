//! End-to-end tests of what every subcommand shares: version, help, completions and
//! `pcl explain`.

mod common;

use std::process::Command;

use expect_test::expect;

fn pcl(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(args)
        .output()
        .expect("the pcl binary runs")
}

#[test]
fn version_and_help() {
    let version = pcl(&["--version"]);
    assert!(version.status.success());
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("pcl {}\n", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(pcl(&["-V"]).stdout, version.stdout);
    for args in [
        &["help", "parse"][..],
        &["parse", "--help"],
        &["type", "show", "--help"],
        &["help", "type", "traverse"],
        &["schema", "--help"],
        &["explain", "--help"],
    ] {
        let output = pcl(args);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{args:?}");
        assert!(text.contains("Usage: pcl"), "{args:?}: {text}");
    }
    let help = String::from_utf8_lossy(&pcl(&["parse", "--help"]).stdout).into_owned();
    for promised in [
        "Exit codes:",
        "--format",
        "--max-errors",
        "--quiet",
        "--color",
        "hidden",
    ] {
        assert!(
            help.contains(promised),
            "parse --help lacks {promised}: {help}"
        );
    }
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let output = pcl(&["completions", shell]);
        assert!(output.status.success(), "{shell}");
        let script = String::from_utf8_lossy(&output.stdout);
        assert!(
            script.contains("parse") && script.contains("schema"),
            "{shell}"
        );
    }
    assert_eq!(pcl(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn explain_prints_the_catalogue_entry() {
    let output = pcl(&["explain", "pcl1010"]);
    expect![[r#"
        $ pcl explain pcl1010
        ### PCL1010 duplicate-attribute

        An attribute set twice in one body, or a key given twice in one object literal (Pulumi keeps
        the last value; beyond Pulumi's binder, a warning under `--lenient`). The label points at
        the first definition.

        ```pcl
        resource bucket "aws:s3:Bucket" {
          acl = "private"
          acl = "public-read"
        }
        ```

        Remove one of them.
        exit 0
    "#]]
    .assert_eq(&common::transcript("$ pcl explain pcl1010", &output));
    let by_name = pcl(&["explain", "duplicate-attribute"]);
    assert_eq!(by_name.stdout, output.stdout);
    let output = pcl(&["explain", "PCL9999"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn explain_without_a_code_lists_every_code_with_its_summary() {
    let output = pcl(&["explain"]);
    assert_eq!(output.status.code(), Some(0));
    let list = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), pcl_diagnostics::codes::ALL.len(), "{list}");
    for (line, code) in lines.iter().zip(pcl_diagnostics::codes::ALL) {
        assert!(
            line.starts_with(&format!("{code} {}", code.name())),
            "{line}"
        );
        assert!(line.len() > 40, "the summary is missing: {line}");
    }
    assert!(
        lines.iter().any(|line| line.starts_with(
            "PCL1010 duplicate-attribute          An attribute set twice in one body"
        )),
        "{list}"
    );
}

#[test]
fn jobs_must_be_a_positive_number_from_the_flag_or_pcl_jobs() {
    let example = pcl_test_utils::test_data_dir().join("programs/example");
    let example = example.to_string_lossy();
    let schemas = pcl_test_utils::test_data_dir().join("programs/schemas");
    let schemas = schemas.to_string_lossy();
    let zero = pcl(&["check", "--jobs", "0", &example]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("`0` is not a number of jobs"));
    let env = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(["types", &example])
        .env("PCL_JOBS", "many")
        .output()
        .expect("the pcl binary runs");
    assert_eq!(env.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&env.stderr).contains("PCL_JOBS: `many` is not a number of jobs")
    );
    for jobs in ["1", "2", "3"] {
        let run = pcl(&[
            "check",
            "-q",
            "--jobs",
            jobs,
            "--schema-dir",
            &schemas,
            &example,
        ]);
        assert_eq!(run.status.code(), Some(0), "{run:?}");
    }
}

#[test]
fn explain_takes_a_bare_number_and_schema_dirs_must_be_directories() {
    assert_eq!(
        pcl(&["explain", "4001"]).stdout,
        pcl(&["explain", "PCL4001"]).stdout
    );
    let unknown = pcl(&["explain", "9999"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("`pcl explain` lists them"));
    let data = pcl_test_utils::test_data_dir();
    let example = data.join("programs/example");
    let schema = data.join("programs/schemas/web-1.0.0.json");
    for (dir, says) in [
        (data.join("no-such-dir"), "no such directory"),
        (schema.clone(), "is a file: it takes a directory of schemas"),
    ] {
        for command in ["check", "types"] {
            let args = [command, "--schema-dir", dir.to_str().unwrap_or_default()];
            let output = pcl(&[&args[..], &[example.to_str().unwrap_or_default()]].concat());
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{command}: {stderr}");
            assert!(stderr.contains(says), "{command}: {stderr}");
        }
    }
}
