//! End-to-end tests of `pcl parse`: the real binary on files and directories, with exit
//! codes, rendered diagnostics and the `--tree` format.

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{Expect, expect};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn pcl(args: &[&str], cwd: &Path) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the pcl binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A fresh directory holding `files` (relative path, bytes).
fn scratch(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pcl-parse-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    for (path, bytes) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("files have parents")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    dir
}

fn check(run: &Run, code: i32, stdout: Expect, stderr: Expect) {
    assert_eq!(run.code, code, "stderr: {}", run.stderr);
    stdout.assert_eq(&run.stdout);
    stderr.assert_eq(&run.stderr);
}

#[test]
fn example_program_parses() {
    let root = pcl_test_utils::project_root();
    let run = pcl(&["parse", "tests/data/programs/example"], &root);
    check(&run, 0, expect![""], expect![""]);
}

#[test]
fn syntax_errors_are_rendered_with_location_and_exit_1() {
    let dir = scratch("errors", &[("main.pp", b"a = 1\nb = (2 +\nc = \"x\n")]);
    let run = pcl(&["parse", "main.pp"], &dir);
    check(
        &run,
        1,
        expect![""],
        expect![[r#"
            error[PCL1004]: expected `)`, found `=`
              ┌─ main.pp:3:3
              │
            3 │ c = "x
              │   ^

            error[PCL1002]: unterminated string: add a closing `"` before the end of the line
              ┌─ main.pp:3:5
              │
            3 │ c = "x
              │     ^^

            2 syntax errors in 1 of 1 files
        "#]],
    );
}

#[test]
fn redefined_attribute_points_at_the_first_definition() {
    let dir = scratch(
        "redefined",
        &[("main.pp", b"r \"a\" {\n  x = 1\n  x = 2\n}\n")],
    );
    let run = pcl(&["parse", "main.pp"], &dir);
    check(
        &run,
        1,
        expect![""],
        expect![[r#"
            error[PCL1010]: the attribute `x` is already set in this block: each attribute may be set only once; remove or rename one of them
              ┌─ main.pp:3:3
              │
            2 │   x = 1
              │   - first set here
            3 │   x = 2
              │   ^

            1 syntax error in 1 of 1 files
        "#]],
    );
}

#[test]
fn tree_prints_every_token_so_the_file_can_be_rebuilt() {
    let dir = scratch("tree", &[("t.pp", b"a = [1, \"x\"] # c\n")]);
    let run = pcl(&["parse", "--tree", "t.pp"], &dir);
    check(
        &run,
        0,
        expect![[r##"
            SOURCE_FILE@0..17
              BODY@0..12
                ATTRIBUTE@0..12
                  IDENT@0..1 "a"
                  WHITESPACE@1..2 " "
                  EQ@2..3 "="
                  WHITESPACE@3..4 " "
                  TUPLE_EXPR@4..12
                    L_BRACK@4..5 "["
                    LITERAL_EXPR@5..6
                      NUMBER@5..6 "1"
                    COMMA@6..7 ","
                    WHITESPACE@7..8 " "
                    TEMPLATE_EXPR@8..11
                      OPEN_QUOTE@8..9 "\""
                      TEMPLATE_CHUNK@9..10 "x"
                      CLOSE_QUOTE@10..11 "\""
                    R_BRACK@11..12 "]"
              WHITESPACE@12..13 " "
              COMMENT@13..16 "# c"
              NEWLINE@16..17 "\n"
        "##]],
        expect![""],
    );
}

#[test]
fn directories_are_walked_for_pcl_and_hcl_files() {
    let dir = scratch(
        "walk",
        &[
            ("a.pp", b"a = 1\n"),
            ("sub/b.hcl", b"b = \n"),
            ("sub/deeper/c.tf", b"c = )\n"),
            ("notes.txt", b"not = parsed = at all\n"),
        ],
    );
    let run = pcl(&["parse", "."], &dir);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("b.hcl:1:5"), "{}", run.stderr);
    assert!(run.stderr.contains("c.tf:1:5"), "{}", run.stderr);
    assert!(!run.stderr.contains("notes.txt"), "{}", run.stderr);
    assert!(
        run.stderr.ends_with("2 syntax errors in 2 of 3 files\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn missing_file_is_an_io_error() {
    let dir = scratch("missing", &[]);
    let run = pcl(&["parse", "nope.pp"], &dir);
    check(
        &run,
        2,
        expect![""],
        expect![[r#"
            error: cannot read `nope.pp`: no such file or directory
        "#]],
    );
}

#[test]
fn invalid_utf8_names_the_byte() {
    let dir = scratch("utf8", &[("bad.pp", b"a = \"ok\"\nb = \"\xff\"\n")]);
    let run = pcl(&["parse", "bad.pp"], &dir);
    check(
        &run,
        2,
        expect![""],
        expect![[r#"
            error: `bad.pp` is not valid UTF-8: byte 0xff at offset 14 does not start a valid UTF-8 sequence
        "#]],
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = scratch("usage", &[]);
    for args in [
        &["parse"][..],
        &["parse", "--frobnicate", "x.pp"],
        &["frobnicate"],
        &[],
    ] {
        let run = pcl(args, &dir);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(
            run.stderr.starts_with("error: "),
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("usage: pcl"),
            "{args:?}: {}",
            run.stderr
        );
    }
    let run = pcl(&["help"], &dir);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("parse [--tree] PATH..."));
}
