//! End-to-end tests of where schemas come from (issue 26): the real binary with
//! `PULUMI_HOME` and `XDG_CACHE_HOME` pointing at fixtures (`tests/data/pulumi-home/`: a
//! Pulumi schema cache with versioned and hashed names, and installed plugins, one of them
//! still `.partial`; `tests/data/schema-sources/`: our cache and a `--schema-dir`). Each
//! fixture schema names where it comes from in its one resource's input.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{Expect, expect};

fn data() -> PathBuf {
    pcl_test_utils::test_data_dir()
}

/// Runs `pcl ARGS` in `cwd` with the fixture homes (or `cache` as `XDG_CACHE_HOME`) and
/// renders a transcript with the fixture directories shortened.
fn run_in(args: &[&str], cwd: &Path, cache: &Path) -> String {
    let data = data();
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(args)
        .current_dir(cwd)
        .env_remove("PCL_SCHEMA_PATH")
        .env("PULUMI_HOME", data.join("pulumi-home"))
        .env("XDG_CACHE_HOME", cache)
        .env("PATH", "/nonexistent")
        .output()
        .expect("the pcl binary runs");
    let line = format!("$ pcl {}", args.join(" "));
    common::transcript(&line, &output)
        .replace(&*cache.to_string_lossy(), "$CACHE")
        .replace(&*data.to_string_lossy(), "$DATA")
}

fn run(args: &[&str]) -> String {
    let data = data();
    run_in(args, &data, &data.join("schema-sources/xdg-cache"))
}

fn check(runs: &[&[&str]], expected: Expect) {
    let transcript: String = runs.iter().map(|args| run(args)).collect();
    expected.assert_eq(&transcript);
}

#[test]
fn unversioned_packages_take_the_installed_plugin_version() {
    check(
        &[
            // Plugin 1.0.0 (9.0.0 is still `.partial`): Pulumi's cache before ours, and
            // never the hashed plain-3.0.0-0123456789ab.json.
            &["schema", "plain:index:Thing"],
            // Only in our cache.
            &["schema", "ours:index:Thing"],
            // No plugin: the highest version; unplugged.json sorts below it.
            &["schema", "unplugged:index:Thing"],
            // Plugin 1.5.0 is cached nowhere: the highest cached, with a note.
            &["schema", "uncached:index:Thing"],
        ],
        expect![[r#"
            $ pcl schema plain:index:Thing
            resource plain:index:Thing
            inputs (1, each a value or an output of one):
              pulumiCache100 (optional): string
            outputs (3):
              id (required): output(id)
              pulumiCache100 (optional): output(string)
              urn (required): output(string)
            exit 0
            $ pcl schema ours:index:Thing
            resource ours:index:Thing
            inputs (1, each a value or an output of one):
              ourCache400 (optional): string
            outputs (3):
              id (required): output(id)
              ourCache400 (optional): output(string)
              urn (required): output(string)
            exit 0
            $ pcl schema unplugged:index:Thing
            resource unplugged:index:Thing
            inputs (1, each a value or an output of one):
              pulumiCache010 (optional): string
            outputs (3):
              id (required): output(id)
              pulumiCache010 (optional): output(string)
              urn (required): output(string)
            exit 0
            $ pcl schema uncached:index:Thing
            resource uncached:index:Thing
            inputs (1, each a value or an output of one):
              ourCache120 (optional): string
            outputs (3):
              id (required): output(id)
              ourCache120 (optional): output(string)
              urn (required): output(string)
            stderr: note[PCL2011]: package `uncached`: the installed plugin `uncached` is version 1.5.0, but no schema of that version is cached; checked against version 1.2.0 ($CACHE/pcl/schemas/uncached-1.2.0.json)
            stderr:  = fetch the plugin's version with --fetch-schemas, or name a version in a `package` block or the resources' `options { version = ... }`
            stderr:
            exit 0
        "#]],
    );
}

#[test]
fn versions_asked_for_take_the_first_source_holding_them() {
    check(
        &[
            &["schema", "plain@2.0.0"],
            &[
                "schema",
                "--schema-dir",
                "schema-sources/given",
                "plain@1.0.0",
            ],
            &["schema", "--schema-dir", "schema-sources/given", "plain"],
            // A file without a version in its name holds the version its field states.
            &[
                "schema",
                "--schema-dir",
                "schema-sources/given",
                "versionless@7.0.0",
            ],
            &[
                "schema",
                "--schema-dir",
                "schema-sources/given",
                "versionless@8.0.0",
            ],
            // A hashed name is never picked by scanning.
            &["schema", "plain@3.0.0"],
        ],
        expect![[r#"
            $ pcl schema plain@2.0.0
            package plain 2.0.0 ($DATA/pulumi-home/schemas/plain-2.0.0.json)
            provider: default, no configuration
            resources (1):
              plain:index:Thing
            functions (0):
            types (0):
            config (0):
            exit 0
            $ pcl schema --schema-dir schema-sources/given plain@1.0.0
            package plain 1.0.0 ($DATA/pulumi-home/schemas/plain-1.0.0.json)
            provider: default, no configuration
            resources (1):
              plain:index:Thing
            functions (0):
            types (0):
            config (0):
            exit 0
            $ pcl schema --schema-dir schema-sources/given plain
            package plain 0.5.0 (schema-sources/given/plain-0.5.0.json)
            provider: default, no configuration
            resources (1):
              plain:index:Thing
            functions (0):
            types (0):
            config (0):
            exit 0
            $ pcl schema --schema-dir schema-sources/given versionless@7.0.0
            package versionless 7.0.0 (schema-sources/given/versionless.json)
            provider: default, no configuration
            resources (1):
              versionless:index:Thing
            functions (0):
            types (0):
            config (0):
            exit 0
            $ pcl schema --schema-dir schema-sources/given versionless@8.0.0
            stderr: error[PCL2007]: no schema for package `versionless` version 8.0.0
            stderr:  = no `versionless` 8.0.0 on the search path, but a schema without a version in its name is there (schema-sources/given/versionless.json): get 8.0.0's schema
            stderr:  = looked in, in order: schema-sources/given, $DATA/pulumi-home/schemas, $CACHE/pcl/schemas (for versionless.json, versionless-VERSION.json and versionless/schema.json)
            stderr:  = fix: run again with --fetch-schemas, or run `pulumi package get-schema versionless@8.0.0 > $CACHE/pcl/schemas/versionless-8.0.0.json.tmp && mv $CACHE/pcl/schemas/versionless-8.0.0.json.tmp $CACHE/pcl/schemas/versionless-8.0.0.json`
            stderr:  = or put its schema (versionless.json) in a directory passed with --schema-dir
            stderr:
            exit 1
            $ pcl schema plain@3.0.0
            stderr: error[PCL2007]: no schema for package `plain` version 3.0.0
            stderr:  = no `plain` 3.0.0 on the search path, but version 2.0.0 is there ($DATA/pulumi-home/schemas/plain-2.0.0.json and 2 other files): to check against it, ask for that version (`options { version = "2.0.0" }`), or get 3.0.0's schema
            stderr:  = looked in, in order: $DATA/pulumi-home/schemas, $CACHE/pcl/schemas (for plain.json, plain-VERSION.json and plain/schema.json)
            stderr:  = fix: run again with --fetch-schemas, or run `pulumi package get-schema plain@3.0.0 > $CACHE/pcl/schemas/plain-3.0.0.json.tmp && mv $CACHE/pcl/schemas/plain-3.0.0.json.tmp $CACHE/pcl/schemas/plain-3.0.0.json`
            stderr:  = or put its schema (plain.json) in a directory passed with --schema-dir
            stderr:
            exit 1
        "#]],
    );
}

#[test]
fn a_package_found_nowhere_lists_every_directory_and_the_fix() {
    let data = data();
    let empty = common::scratch("sources-empty-cache", &[]);
    let program = common::scratch(
        "sources-program",
        &[(
            "main.pp",
            b"resource a \"plain:index:Thing\" {\n  pulumiCache100 = \"x\"\n}\n\nresource b \"missing:index:Thing\" {\n  options {\n    version = \"6.52.0\"\n  }\n}\n",
        )],
    );
    let mut transcript = run_in(&["schema", "nothing"], &data, &empty);
    transcript += &run_in(&["check", "--color", "never", "."], &program, &empty)
        .replace(&*program.to_string_lossy(), "$PROGRAM");
    expect![[r#"
        $ pcl schema nothing
        stderr: error[PCL2007]: no schema for package `nothing`
        stderr:  = looked in, in order: $DATA/pulumi-home/schemas, $CACHE/pcl/schemas (for nothing.json, nothing-VERSION.json and nothing/schema.json)
        stderr:  = fix: run again with --fetch-schemas, or run `mkdir -p $CACHE/pcl/schemas && pulumi package get-schema nothing > $CACHE/pcl/schemas/nothing.json.tmp && mv $CACHE/pcl/schemas/nothing.json.tmp $CACHE/pcl/schemas/nothing.json`
        stderr:  = or put its schema (nothing.json) in a directory passed with --schema-dir
        stderr:
        exit 1
        $ pcl check --color never .
        stderr: error[PCL4009]: no schema found for package 'missing'
        stderr:   ┌─ ./main.pp:5:12
        stderr:   │
        stderr: 5 │ resource b "missing:index:Thing" {
        stderr:   │            ^^^^^^^^^^^^^^^^^^^^^
        stderr:   │
        stderr:   = looked in, in order: $DATA/pulumi-home/schemas, $CACHE/pcl/schemas (for missing.json, missing-VERSION.json and missing/schema.json)
        stderr:     fix: run again with --fetch-schemas, or run `mkdir -p $CACHE/pcl/schemas && pulumi package get-schema missing@6.52.0 > $CACHE/pcl/schemas/missing-6.52.0.json.tmp && mv $CACHE/pcl/schemas/missing-6.52.0.json.tmp $CACHE/pcl/schemas/missing-6.52.0.json`
        stderr:     or put its schema (missing.json) in a directory passed with --schema-dir
        stderr:     or check the rest without it: pass --skip-resource-typecheck
        stderr:
        stderr: checked 1 program, 1 file (9 lines, 135 B) in <time>: 1 error in 1 of 1 file
        exit 1
    "#]].assert_eq(&transcript);
}

#[test]
fn a_version_found_nowhere_names_the_versions_there_are() {
    let data = data();
    let empty = common::scratch("sources-version-empty-cache", &[]);
    let program = common::scratch(
        "sources-version-program",
        &[(
            "main.pp",
            b"resource a \"plain:index:Thing\" {\n  options {\n    version = \"9.9.9\"\n  }\n}\n",
        )],
    );
    let given = data.join("schema-sources/given");
    let given = given.to_string_lossy();
    let transcript = run_in(
        &["check", "--color", "never", "--schema-dir", &given, "."],
        &program,
        &empty,
    );
    expect![[r#"
        $ pcl check --color never --schema-dir $DATA/schema-sources/given .
        stderr: error[PCL4009]: no schema found for package 'plain'
        stderr:   ┌─ ./main.pp:1:12
        stderr:   │
        stderr: 1 │ resource a "plain:index:Thing" {
        stderr:   │            ^^^^^^^^^^^^^^^^^^^
        stderr:   │
        stderr:   = no `plain` 9.9.9 on the search path, but version 2.0.0 is there ($DATA/pulumi-home/schemas/plain-2.0.0.json and 2 other files): to check against it, ask for that version (`options { version = "2.0.0" }`), or get 9.9.9's schema
        stderr:     looked in, in order: $DATA/schema-sources/given, $DATA/pulumi-home/schemas, $CACHE/pcl/schemas (for plain.json, plain-VERSION.json and plain/schema.json)
        stderr:     fix: run again with --fetch-schemas, or run `mkdir -p $CACHE/pcl/schemas && pulumi package get-schema plain@9.9.9 > $CACHE/pcl/schemas/plain-9.9.9.json.tmp && mv $CACHE/pcl/schemas/plain-9.9.9.json.tmp $CACHE/pcl/schemas/plain-9.9.9.json`
        stderr:     or put its schema (plain.json) in a directory passed with --schema-dir
        stderr:     or check the rest without it: pass --skip-resource-typecheck
        stderr:
        stderr: checked 1 program, 1 file (5 lines, 73 B) in <time>: 1 error in 1 of 1 file
        exit 1
    "#]].assert_eq(&transcript);
}

#[test]
fn a_program_uses_one_version_per_package() {
    let data = data();
    let cache = data.join("schema-sources/xdg-cache");
    let options = common::scratch(
        "sources-options",
        &[(
            "main.pp",
            b"resource a \"plain:index:Thing\" {\n  pulumiCache200 = \"the highest version asked for\"\n  options {\n    version = \"1.0.0\"\n  }\n}\n\nresource b \"plain:index:Thing\" {\n  options {\n    version = \"2.0.0\"\n  }\n}\n",
        )],
    );
    let block = common::scratch(
        "sources-package-block",
        &[(
            "main.pp",
            b"package {\n  baseProviderName    = \"plain\"\n  baseProviderVersion = \"2.0.0\"\n}\n\nresource a \"plain:index:Thing\" {\n  pulumiCache200 = \"the package block's version\"\n}\n",
        )],
    );
    let mut transcript = run_in(&["check", "--color", "never", "."], &options, &cache);
    transcript += &run_in(&["check", "--color", "never", "."], &block, &cache);
    expect![[r#"
        $ pcl check --color never .
        stderr: note[PCL4008]: checked against `plain` 2.0.0, the one version of it this program uses (this resource asks for 1.0.0)
        stderr:   ┌─ ./main.pp:4:15
        stderr:   │
        stderr: 4 │     version = "1.0.0"
        stderr:   │               ^^^^^^^
        stderr:
        stderr: checked 1 program, 1 file (12 lines, 198 B) in <time>: no errors
        exit 0
        $ pcl check --color never .
        stderr: checked 1 program, 1 file (8 lines, 161 B) in <time>: no errors
        exit 0
    "#]]
    .assert_eq(&transcript);
}

/// A `package` block with a parameterization finds its schema only under the hashed name
/// Pulumi's cache gives it (`parameterized-1.2.3-<hash>.json`, the base plugin's name and
/// version); with another value the name differs, and the error names the file looked
/// for (such packages are never fetched).
#[test]
fn parameterized_packages_are_found_under_their_hashed_cache_names() {
    let data = data();
    let cache = data.join("schema-sources/xdg-cache");
    let program = |value: &str| {
        format!(
            "package {{\n  baseProviderName    = \"parameterized\"\n  baseProviderVersion = \"1.2.3\"\n  parameterization {{\n    name    = \"subpackage\"\n    version = \"2.0.0\"\n    value   = \"{value}\"\n  }}\n}}\n\nresource a \"subpackage:index:Thing\" {{\n  parameterized = \"from the cache\"\n}}\n"
        )
    };
    let found = program("SGVsbG9Xb3JsZA==");
    let found = common::scratch("sources-parameterized", &[("main.pp", found.as_bytes())]);
    let other = program("b3RoZXI=");
    let other = common::scratch(
        "sources-parameterized-other",
        &[("main.pp", other.as_bytes())],
    );
    let mut transcript = run_in(&["check", "--color", "never", "."], &found, &cache);
    transcript += &run_in(&["check", "--color", "never", "."], &other, &cache);
    expect![[r#"
        $ pcl check --color never .
        stderr: checked 1 program, 1 file (13 lines, 267 B) in <time>: no errors
        exit 0
        $ pcl check --color never .
        stderr: error[PCL4009]: no schema found for package 'subpackage'
        stderr:    ┌─ ./main.pp:11:12
        stderr:    │
        stderr: 11 │ resource a "subpackage:index:Thing" {
        stderr:    │            ^^^^^^^^^^^^^^^^^^^^^^^^
        stderr:    │
        stderr:    = looked in, in order: $DATA/pulumi-home/schemas, $CACHE/pcl/schemas (for subpackage-VERSION.json, and parameterized-1.2.3-e706c96b095f.json in the caches)
        stderr:      a parameterized package is never fetched (its arguments cannot be recovered from the program): run `pulumi install` in the project, which caches its schema
        stderr:      or check the rest without it: pass --skip-resource-typecheck
        stderr:
        stderr: checked 1 program, 1 file (13 lines, 259 B) in <time>: 1 error in 1 of 1 file
        exit 1
    "#]]
    .assert_eq(&transcript);
}
