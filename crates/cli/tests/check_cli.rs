//! End-to-end tests of `pcl check` and `pcl types`: every fixture under
//! `tests/data/check` (a program directory) is checked by the real binary
//! against `tests/data/programs/schemas`, and the transcript (command, output, exit code)
//! is compared with the `.txt` beside it. A first line `# pcl-check-args: ...` adds
//! arguments. `UPDATE_EXPECT=1` rewrites the transcripts.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use expect_test::{expect, expect_file};
use pcl_test_utils::test_data_dir;

fn run(args: &[&str], cwd: &Path, stdin: Option<&str>) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pcl"));
    command
        .args(args)
        .current_dir(cwd)
        .env_remove("PCL_SCHEMA_PATH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("the pcl binary runs");
    if let Some(mut input) = child.stdin.take() {
        use std::io::Write;
        input
            .write_all(stdin.unwrap_or("").as_bytes())
            .expect("stdin is written");
    }
    let output = child.wait_with_output().expect("the pcl binary runs");
    common::transcript(&format!("pcl {}", args.join(" ")), &output)
}

/// Extra arguments a fixture asks for on its first line.
fn fixture_args(path: &Path) -> Vec<String> {
    let first_file = if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "pp"))
            .collect();
        files.sort();
        files.into_iter().next()
    } else {
        Some(path.to_path_buf())
    };
    let text = first_file
        .and_then(|f| std::fs::read_to_string(f).ok())
        .unwrap_or_default();
    match text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# pcl-check-args:"))
    {
        Some(args) => args.split_whitespace().map(str::to_owned).collect(),
        None => Vec::new(),
    }
}

#[test]
fn check_fixtures() {
    let dir = test_data_dir().join("check");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data/check exists")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    let mut count = 0;
    for path in entries {
        if !path.is_dir() {
            continue;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut args: Vec<String> = vec!["check".into(), "--color".into(), "never".into()];
        let extra = fixture_args(&path);
        if !extra.iter().any(|a| a == "--schema-dir") {
            args.extend(["--schema-dir".into(), "../programs/schemas".into()]);
        }
        args.extend(extra);
        args.push(name.clone());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let transcript = run(&args, &dir, None);
        expect_file![dir.join(format!("{name}.txt"))].assert_eq(&transcript);
        count += 1;
    }
    assert!(count >= 10, "the check fixtures were not found");
}

/// `pcl types` of every program under `tests/data/infer`, against the `.txt` beside it.
#[test]
fn types_fixtures() {
    let dir = test_data_dir().join("infer");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data/infer exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    entries.sort();
    assert!(!entries.is_empty());
    for path in entries {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let types = run(
            &["types", "--schema-dir", "../programs/schemas", &name],
            &dir,
            None,
        );
        let check = run(
            &[
                "check",
                "--color",
                "never",
                "-q",
                "--schema-dir",
                "../programs/schemas",
                &name,
            ],
            &dir,
            None,
        );
        expect_file![dir.join(format!("{name}.txt"))].assert_eq(&format!("{types}{check}"));
    }
}

#[test]
fn the_example_checks_clean_and_the_mistakes_do_not() {
    let root = pcl_test_utils::project_root();
    let example = run(
        &[
            "check",
            "-q",
            "--schema-dir",
            "tests/data/programs/schemas",
            "tests/data/programs/example",
        ],
        &root,
        None,
    );
    expect![[r#"
        pcl check -q --schema-dir tests/data/programs/schemas tests/data/programs/example
        exit 0
    "#]]
    .assert_eq(&example);
    // The README shows the mistakes run right after the main command: exactly this.
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README");
    let command = "$ cargo run -q -p pcl-cli -- check --schema-dir tests/data/programs/schemas tests/data/programs/mistakes\n";
    let shown = readme
        .split_once(command)
        .and_then(|(_, rest)| rest.split_once("```"))
        .map(|(block, _)| block)
        .expect("the README shows the mistakes run in a ```console block");
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args([
            "check",
            "--color",
            "never",
            "--schema-dir",
            "tests/data/programs/schemas",
            "tests/data/programs/mistakes",
        ])
        .current_dir(&root)
        .env_remove("PCL_SCHEMA_PATH")
        .output()
        .expect("the pcl binary runs");
    assert_eq!(output.status.code(), Some(1));
    let actual = String::from_utf8_lossy(&output.stderr);
    let without_time = |text: &str| common::without_times(text);
    assert_eq!(
        without_time(shown.trim_end()),
        without_time(actual.trim_end()),
        "the README's mistakes run is out of date: paste the new output"
    );
}

#[test]
fn types_prints_each_declaration() {
    let root = pcl_test_utils::project_root();
    let types = run(
        &[
            "types",
            "--schema-dir",
            "tests/data/programs/schemas",
            "tests/data/programs/example",
        ],
        &root,
        None,
    );
    expect![[r#"
        pcl types --schema-dir tests/data/programs/schemas tests/data/programs/example
        config siteName: string
        config pages: list(string)
        resource siteBucket: object({
          arn = output(string),
          id = output(id),
          name = output(string),
          tags = output(union(map(string), none)),
          urn = output(string),
          websiteEndpoint = output(string),
        })
        resource page: list(object({
          bucket = output(string),
          etag = output(string),
          id = output(id),
          key = output(string),
          urn = output(string),
        }))
        local region: output(object({region = string, zones = list(string)}))
        local websiteUrl: output(string)
        output url: output(string)
        output pageKeys: list(output(string))
        output zones: output(list(string))
        exit 0
    "#]]
    .assert_eq(&types);
    let json = run(
        &["types", "--format", "json", "-"],
        &root,
        Some("x = 1\ny = [x, \"a\"]\n"),
    );
    expect![[r#"
        pcl types --format json -
        {
          "declarations": [
            {
              "file": "<stdin>",
              "kind": "local",
              "name": "x",
              "type": "cty.NumberIntVal(1)"
            },
            {
              "file": "<stdin>",
              "kind": "local",
              "name": "y",
              "type": "tuple(cty.NumberIntVal(1), string)"
            }
          ]
        }
        exit 0
    "#]]
    .assert_eq(&json);
}

#[test]
fn a_file_is_checked_with_its_siblings_and_stdin_is_one_file() {
    let dir = test_data_dir().join("check");
    let one = run(
        &["check", "--color", "never", "duplicates/b.pp"],
        &dir,
        None,
    );
    let first = run(
        &["check", "-q", "--color", "never", "duplicates/a.pp"],
        &dir,
        None,
    );
    assert!(
        !first.contains("PCL4002") && one.contains("PCL4002"),
        "{first}\n{one}"
    );
    expect![[r#"
        pcl check --color never duplicates/b.pp
        stderr: error[PCL4002]: the name `bucketName` is declared twice
        stderr:   ┌─ duplicates/b.pp:1:1
        stderr:   │
        stderr: 1 │ bucketName = "other"
        stderr:   │ ^^^^^^^^^^
        stderr:   │
        stderr:   ┌─ duplicates/a.pp:2:1
        stderr:   │
        stderr: 2 │ bucketName = "site"
        stderr:   │ ---------- first declared here
        stderr:   │
        stderr:   = rename or remove one of the declarations
        stderr:
        stderr: error[PCL4002]: the output `url` is declared twice
        stderr:   ┌─ duplicates/b.pp:3:8
        stderr:   │
        stderr: 3 │ output "url" {
        stderr:   │        ^^^^^
        stderr:   │
        stderr:   ┌─ duplicates/a.pp:4:8
        stderr:   │
        stderr: 4 │ output "url" {
        stderr:   │        ----- first declared here
        stderr:   │
        stderr:   = rename or remove one of the declarations
        stderr:
        stderr: checked 1 program, 1 file (5 lines, 57 B) in <time>: 2 errors in 1 of 1 file
        exit 1
    "#]]
    .assert_eq(&one);
    let stdin = run(&["check", "--color", "never", "-"], &dir, Some("a = b\n"));
    expect![[r#"
        pcl check --color never -
        stderr: error[PCL4001]: undefined name `b`
        stderr:   ┌─ <stdin>:1:5
        stderr:   │
        stderr: 1 │ a = b
        stderr:   │     ^
        stderr:   │
        stderr:   = declare it as a local (`name = value`), a config, a resource or a component
        stderr:
        stderr: checked 1 program, 1 file (1 line, 6 B) in <time>: 1 error in 1 of 1 file
        exit 1
    "#]]
    .assert_eq(&stdin);
    let deny = run(
        &["check", "-q", "--deny-warnings", "-"],
        &dir,
        Some("terraform {}\n"),
    );
    expect![[r#"
        pcl check -q --deny-warnings -
        stderr: error[PCL4004]: unknown block type `terraform`
        stderr:   ┌─ <stdin>:1:1
        stderr:   │
        stderr: 1 │ terraform {}
        stderr:   │ ^^^^^^^^^
        stderr:   │
        stderr:   = PCL's requirements go in `pulumi { requiredVersionRange = "..." }`
        stderr:
        exit 1
    "#]]
    .assert_eq(&deny);
    // A file that cannot be read is an IO error (exit 2) the summary counts, beside the
    // diagnostics of the files that could (here one past 4 GiB, sparse). A file that is
    // not UTF-8 is read, with an error at its first invalid byte, as Pulumi's parser does.
    let unreadable = common::scratch(
        "check-unreadable",
        &[("a.pp", b"a = [1,\n"), ("c.pp", b"c = \"\xff\"\nd = c\n")],
    );
    let huge = std::fs::File::create(unreadable.join("b.pp")).expect("create");
    huge.set_len(5 << 30).expect("a sparse file");
    let partly = run(&["check", "--color", "never", "."], &unreadable, None);
    expect![[r#"
        pcl check --color never .
        stderr: error: cannot read `./b.pp`: it is larger than 4 GiB, the most pcl reads (offsets into a file are 32-bit)
        stderr: error[PCL1005]: unclosed tuple: this `[` has no matching `]`
        stderr:   ┌─ ./a.pp:1:5
        stderr:   │
        stderr: 1 │ a = [1,
        stderr:   │     ^
        stderr:
        stderr: error[PCL1016]: this file is not UTF-8: byte 0xff does not start a valid UTF-8 sequence
        stderr:   ┌─ ./c.pp:1:6
        stderr:   │
        stderr: 1 │ c = "�"
        stderr:   │      ^
        stderr:   │
        stderr:   = it is read with it replaced by `�`
        stderr:   = Pulumi reads PCL files as UTF-8 and rejects this one too: save it as UTF-8 (a Latin-1 `é` is the one byte 0xe9, which UTF-8 writes as two)
        stderr:
        stderr: checked 1 program, 2 files (3 lines, 24 B) in <time>: 2 errors in 2 of 2 files, and 1 IO error (above)
        exit 2
    "#]]
    .assert_eq(&partly);
    let none = run(&["check", "../schemas"], &dir, None);
    expect![[r#"
        pcl check ../schemas
        stderr: error: no *.pp files in `../schemas` (hidden directories are skipped unless named)
        exit 2
    "#]]
    .assert_eq(&none);
}

#[test]
fn a_line_too_long_to_show_is_named_not_printed() {
    let long = format!("numbers = [{}, nope]\n", vec!["1"; 300].join(", "));
    let dir = test_data_dir().join("check");
    let output = run(&["check", "-q", "--color", "never", "-"], &dir, Some(&long));
    expect![[r#"
        pcl check -q --color never -
        stderr: error[PCL4001]: undefined name `nope`
        stderr:  = at <stdin>:1:912 (a line of 916 bytes, not shown)
        stderr:  = declare it as a local (`name = value`), a config, a resource or a component
        stderr:
        exit 1
    "#]]
    .assert_eq(&common::without_times(&output));
}
