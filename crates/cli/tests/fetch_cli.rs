//! `--fetch-schemas` end to end, against a stand-in for the `pulumi` CLI (the real one
//! cannot be installed on our machines): `tests/data/pulumi-stand-in/pulumi`, a shell
//! script the language server's tests use too. It follows the real CLI's documented
//! contract for `pulumi package get-schema NAME[@VERSION] [--server URL]`: it prints the
//! package's schema as JSON on stdout and exits 0; for a package it cannot find it prints
//! an error on stderr and exits non-zero (the real CLI exits 1, also after printing a
//! schema that does not bind). The stand-in knows `fetched` (at any version, reported as
//! 2.0.0) and `misnamed` (whose schema names another package); everything else fails.

mod common;

use std::path::Path;
use std::process::Command;

use expect_test::{Expect, expect};

const PROGRAM: &str = r#"resource thing "fetched:index:Thing" {
  size = 3
}
"#;

/// A scratch directory with the program in `app/` and the stand-in in `bin/`.
fn setup(name: &str, program: &str) -> common::ScratchDir {
    let stand_in = std::fs::read(pcl_test_utils::test_data_dir().join("pulumi-stand-in/pulumi"))
        .expect("the stand-in is there");
    let dir = common::scratch(
        &format!("fetch-{name}"),
        &[
            ("app/main.pp", program.as_bytes()),
            ("bin/pulumi", &stand_in),
        ],
    );
    make_executable(&dir.join("bin/pulumi"));
    dir
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut permissions = std::fs::metadata(path).expect("exists").permissions();
    permissions.set_mode(0o755);
    std::fs::set_permissions(path, permissions).expect("chmod");
}

/// `pcl ARGS` in `dir` with empty homes, the stand-in on `PATH` when `cli`.
fn run(dir: &Path, args: &[&str], cli: bool) -> String {
    let path = if cli {
        format!("{}:/usr/bin:/bin", dir.join("bin").to_string_lossy())
    } else {
        "/nonexistent".to_owned()
    };
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(args)
        .current_dir(dir)
        .env_remove("PCL_SCHEMA_PATH")
        .env("PULUMI_HOME", dir.join("pulumi-home"))
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("PATH", path)
        .output()
        .expect("the pcl binary runs");
    let transcript = common::transcript(&format!("$ pcl {}", args.join(" ")), &output)
        .replace(&*dir.to_string_lossy(), "$DIR");
    without_seconds(&transcript)
}

/// The progress lines' durations (`in 0.3 s`, `(1.2 s)`) as `N s`.
fn without_seconds(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        let progress = line.contains("fetched the schema of") || line.contains("could not fetch");
        for i in 0..words.len().saturating_sub(1) {
            let number = words[i].trim_start_matches('(');
            if progress && words[i + 1].starts_with('s') && number.parse::<f64>().is_ok() {
                words[i] = words[i].replace(number, "N");
            }
        }
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

fn check(dir: &Path, runs: &[(&[&str], bool)], expected: Expect) {
    let transcript: String = runs
        .iter()
        .map(|(args, cli)| run(dir, args, *cli))
        .collect();
    expected.assert_eq(&transcript);
}

#[test]
fn a_fetched_schema_is_cached_and_reused_without_the_cli() {
    let dir = setup("reuse", PROGRAM);
    check(
        &dir,
        &[
            (&["check", "-q", "--fetch-schemas", "app"], true),
            // The next run finds it in our cache, with no CLI and no flag.
            (&["check", "-q", "app"], false),
            (&["schema", "fetched"], false),
        ],
        expect![[r#"
            $ pcl check -q --fetch-schemas app
            stderr: fetching the schema of fetched (`pulumi package get-schema fetched`)
            stderr: fetched the schema of fetched in N s into $DIR/cache/pcl/schemas/fetched-2.0.0.json
            exit 0
            $ pcl check -q app
            exit 0
            $ pcl schema fetched
            package fetched 2.0.0 ($DIR/cache/pcl/schemas/fetched-2.0.0.json)
            provider: default, no configuration
            resources (1):
              fetched:index:Thing
            functions (0):
            types (0):
            config (0):
            exit 0
        "#]],
    );
    assert!(dir.join("cache/pcl/schemas/fetched-2.0.0.json").is_file());
    assert!(
        !dir.join("cache/pcl/schemas/fetched-2.0.0.json.tmp")
            .exists()
    );
}

#[test]
fn failures_are_one_error_per_package_with_the_command_and_its_stderr() {
    let program = "resource a \"unknown:index:A\" {}\nresource b \"unknown:index:B\" {}\nresource c \"misnamed:index:C\" {}\n";
    let dir = setup("failures", program);
    check(
        &dir,
        &[
            (
                &["check", "-q", "--color", "never", "--fetch-schemas", "app"],
                true,
            ),
            (&["schema", "--fetch-schemas", "unknown@1.0.0"], true),
        ],
        expect![[r#"
            $ pcl check -q --color never --fetch-schemas app
            stderr: fetching the schema of misnamed (`pulumi package get-schema misnamed`)
            stderr: could not fetch the schema of misnamed (N s)
            stderr: fetching the schema of unknown (`pulumi package get-schema unknown`)
            stderr: could not fetch the schema of unknown (N s)
            stderr: error[PCL2012]: fetching the schema of `misnamed` failed: `pulumi package get-schema misnamed` printed the schema of `other`, not of `misnamed`
            stderr:  = run `pulumi package get-schema misnamed` to see the whole output
            stderr:
            stderr: error[PCL2012]: fetching the schema of `unknown` failed: `pulumi package get-schema unknown` exited with status 1: error: could not find plugin for package 'unknown' / error: no resource plugin 'unknown' found in the workspace
            stderr:  = run `pulumi package get-schema unknown` to see the whole output
            stderr:
            stderr: error[PCL4009]: no schema found for package 'unknown'
            stderr:   ┌─ app/main.pp:1:12
            stderr:   │
            stderr: 1 │ resource a "unknown:index:A" {}
            stderr:   │            ^^^^^^^^^^^^^^^^^
            stderr: 2 │ resource b "unknown:index:B" {}
            stderr:   │            ----------------- also used here
            stderr:   │
            stderr:   = looked in, in order: $DIR/pulumi-home/schemas, $DIR/cache/pcl/schemas (for unknown.json, unknown-VERSION.json and unknown/schema.json)
            stderr:     fix: run `mkdir -p $DIR/cache/pcl/schemas && pulumi package get-schema unknown > $DIR/cache/pcl/schemas/unknown.json.tmp && mv $DIR/cache/pcl/schemas/unknown.json.tmp $DIR/cache/pcl/schemas/unknown.json`
            stderr:     or put its schema (unknown.json) in a directory passed with --schema-dir
            stderr:     or check the rest without it: pass --skip-resource-typecheck
            stderr:
            stderr: error[PCL4009]: no schema found for package 'misnamed'
            stderr:   ┌─ app/main.pp:3:12
            stderr:   │
            stderr: 3 │ resource c "misnamed:index:C" {}
            stderr:   │            ^^^^^^^^^^^^^^^^^^
            stderr:   │
            stderr:   = looked in, in order: $DIR/pulumi-home/schemas, $DIR/cache/pcl/schemas (for misnamed.json, misnamed-VERSION.json and misnamed/schema.json)
            stderr:     fix: run `mkdir -p $DIR/cache/pcl/schemas && pulumi package get-schema misnamed > $DIR/cache/pcl/schemas/misnamed.json.tmp && mv $DIR/cache/pcl/schemas/misnamed.json.tmp $DIR/cache/pcl/schemas/misnamed.json`
            stderr:     or put its schema (misnamed.json) in a directory passed with --schema-dir
            stderr:     or check the rest without it: pass --skip-resource-typecheck
            stderr:
            exit 1
            $ pcl schema --fetch-schemas unknown@1.0.0
            stderr: fetching the schema of unknown@1.0.0 (`pulumi package get-schema unknown@1.0.0`)
            stderr: could not fetch the schema of unknown@1.0.0 (N s)
            stderr: error[PCL2012]: fetching the schema of `unknown@1.0.0` failed: `pulumi package get-schema unknown@1.0.0` exited with status 1: error: could not find plugin for package 'unknown@1.0.0' / error: no resource plugin 'unknown@1.0.0' found in the workspace
            stderr:  = in unknown
            stderr:  = run `pulumi package get-schema unknown@1.0.0` to see the whole output
            stderr:
            stderr: error[PCL2007]: no schema for package `unknown` version 1.0.0
            stderr:  = looked in, in order: $DIR/pulumi-home/schemas, $DIR/cache/pcl/schemas (for unknown.json, unknown-VERSION.json and unknown/schema.json)
            stderr:  = fix: run again with --fetch-schemas, or run `mkdir -p $DIR/cache/pcl/schemas && pulumi package get-schema unknown@1.0.0 > $DIR/cache/pcl/schemas/unknown-1.0.0.json.tmp && mv $DIR/cache/pcl/schemas/unknown-1.0.0.json.tmp $DIR/cache/pcl/schemas/unknown-1.0.0.json`
            stderr:  = or put its schema (unknown.json) in a directory passed with --schema-dir
            stderr:
            exit 1
        "#]],
    );
}

#[test]
fn without_the_cli_on_path_fetching_is_one_warning() {
    let program = "resource a \"unknown:index:A\" {}\nresource b \"other:index:B\" {}\n";
    let dir = setup("no-cli", program);
    check(
        &dir,
        &[(
            &["check", "-q", "--color", "never", "--fetch-schemas", "app"],
            false,
        )],
        expect![[r#"
            $ pcl check -q --color never --fetch-schemas app
            stderr: warning[PCL2013]: --fetch-schemas: the `pulumi` CLI is not on PATH, so no schema is fetched
            stderr:  = in other
            stderr:  = install the Pulumi CLI, or get the schema another way and pass --schema-dir
            stderr:
            stderr: error[PCL4009]: no schema found for package 'unknown'
            stderr:   ┌─ app/main.pp:1:12
            stderr:   │
            stderr: 1 │ resource a "unknown:index:A" {}
            stderr:   │            ^^^^^^^^^^^^^^^^^
            stderr:   │
            stderr:   = looked in, in order: $DIR/pulumi-home/schemas, $DIR/cache/pcl/schemas (for unknown.json, unknown-VERSION.json and unknown/schema.json)
            stderr:     fix: run `mkdir -p $DIR/cache/pcl/schemas && pulumi package get-schema unknown > $DIR/cache/pcl/schemas/unknown.json.tmp && mv $DIR/cache/pcl/schemas/unknown.json.tmp $DIR/cache/pcl/schemas/unknown.json`
            stderr:     or put its schema (unknown.json) in a directory passed with --schema-dir
            stderr:     or check the rest without it: pass --skip-resource-typecheck
            stderr:
            stderr: error[PCL4009]: no schema found for package 'other'
            stderr:   ┌─ app/main.pp:2:12
            stderr:   │
            stderr: 2 │ resource b "other:index:B" {}
            stderr:   │            ^^^^^^^^^^^^^^^
            stderr:   │
            stderr:   = looked in, in order: $DIR/pulumi-home/schemas, $DIR/cache/pcl/schemas (for other.json, other-VERSION.json and other/schema.json)
            stderr:     fix: run `mkdir -p $DIR/cache/pcl/schemas && pulumi package get-schema other > $DIR/cache/pcl/schemas/other.json.tmp && mv $DIR/cache/pcl/schemas/other.json.tmp $DIR/cache/pcl/schemas/other.json`
            stderr:     or put its schema (other.json) in a directory passed with --schema-dir
            stderr:     or check the rest without it: pass --skip-resource-typecheck
            stderr:
            exit 1
        "#]],
    );
}

#[test]
fn nothing_is_fetched_without_the_flag() {
    let dir = setup("no-flag", PROGRAM);
    let transcript = run(&dir, &["check", "-q", "--color", "never", "app"], true);
    assert!(transcript.contains("PCL4009"), "{transcript}");
    assert!(!dir.join("cache/pcl/schemas").exists());
}
