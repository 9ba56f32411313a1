//! End-to-end tests of `pcl parse`: the real binary on files and directories, with exit
//! codes, rendered diagnostics and the `--tree` format.

mod common;

use expect_test::expect;

use common::{check, pcl, pcl_with_stdin};

/// A fresh directory for one test, holding `files` (relative path, bytes).
fn scratch(name: &str, files: &[(&str, &[u8])]) -> common::ScratchDir {
    common::scratch(&format!("parse-{name}"), files)
}

#[test]
fn example_program_parses() {
    let root = pcl_test_utils::project_root();
    let run = pcl(&["parse", "tests/data/programs/example"], &root);
    check(
        &run,
        0,
        expect![""],
        expect![[r#"
            parsed 1 file (53 lines, 2 KB) in <time>: no errors
        "#]],
    );
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
            2 │ b = (2 +
              │     - to close this `(`
            3 │ c = "x
              │   ^

            error[PCL1002]: unterminated string: add a closing `"` before the end of the line
              ┌─ main.pp:3:5
              │
            3 │ c = "x
              │     ^^

            parsed 1 file (3 lines, 22 B) in <time>: 2 errors in 1 of 1 file
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

            parsed 1 file (4 lines, 26 B) in <time>: 1 error in 1 of 1 file
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
        expect![[r#"
            parsed 1 file (1 line, 17 B) in <time>: no errors
        "#]],
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
            (".git/hidden.pp", b"hidden = (\n"),
            ("sub/.terraform/hidden.tf", b"hidden = (\n"),
        ],
    );
    let run = pcl(&["parse", "-q", "."], &dir);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("b.hcl:1:5"), "{}", run.stderr);
    assert!(run.stderr.contains("c.tf:1:5"), "{}", run.stderr);
    assert!(!run.stderr.contains("notes.txt"), "{}", run.stderr);
    assert!(!run.stderr.contains("hidden"), "{}", run.stderr);
    assert!(!run.stderr.contains("parsed"), "{}", run.stderr);
    // A hidden directory named on the command line is parsed.
    let run = pcl(&["parse", ".git"], &dir);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("hidden.pp"), "{}", run.stderr);
}

#[cfg(unix)]
#[test]
fn symlinks_to_directories_are_followed_only_when_named() {
    let dir = scratch(
        "links",
        &[("prog/main.pp", b"a = 1\n"), ("other/b.pp", b"b = (\n")],
    );
    std::os::unix::fs::symlink("..", dir.join("prog/up")).expect("symlink");
    std::os::unix::fs::symlink("../other", dir.join("prog/other")).expect("symlink");
    let run = pcl(&["parse", "prog"], &dir);
    check(
        &run,
        0,
        expect![""],
        expect![[r#"
            parsed 1 file (1 line, 6 B) in <time>: no errors
        "#]],
    );
    let run = pcl(&["parse", "-q", "prog/other"], &dir);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("b.pp:1:6"), "{}", run.stderr);
}

#[test]
fn no_files_found_is_an_error() {
    let dir = scratch("nofiles", &[("src/lib.rs", b"fn main() {}\n")]);
    let run = pcl(&["parse", "src"], &dir);
    check(
        &run,
        2,
        expect![""],
        expect![[r#"
            error: no *.pp, *.hcl, *.tf files in `src` (hidden directories are skipped unless named)
        "#]],
    );
}

#[test]
fn standard_input_is_dash() {
    let dir = scratch("stdin", &[]);
    let run = pcl_with_stdin(&["parse", "-"], &dir, b"a = 1\n");
    check(
        &run,
        0,
        expect![""],
        expect![[r#"
            parsed 1 file (1 line, 6 B) in <time>: no errors
        "#]],
    );
    let run = pcl_with_stdin(&["parse", "-"], &dir, b"x = 1\n\n\n}\n");
    check(
        &run,
        1,
        expect![""],
        expect![[r#"
            error[PCL1003]: unexpected `}`: it closes nothing
              ┌─ <stdin>:4:1
              │
            4 │ }
              │ ^

            parsed 1 file (4 lines, 10 B) in <time>: 1 error in 1 of 1 file
        "#]],
    );
}

#[test]
fn json_diagnostics_are_lines_on_stdout() {
    let dir = scratch("json", &[("s.pp", "é = [1, 2}\n".as_bytes())]);
    let run = pcl(&["parse", "--format", "json", "-q", "s.pp"], &dir);
    check(
        &run,
        1,
        expect![[r#"
            {"code":"PCL1006","severity":"error","message":"mismatched brackets: this `}` does not close the `[`","file":"s.pp","range":{"start":{"line":1,"column":10,"offset":10},"end":{"line":1,"column":11,"offset":11}},"labels":[{"file":"s.pp","range":{"start":{"line":1,"column":5,"offset":5},"end":{"line":1,"column":6,"offset":6}},"message":"this `[` is closed by `]`"}],"notes":[],"fixes":[]}
        "#]],
        expect![""],
    );
}

#[test]
fn human_output_is_capped_per_file() {
    let text = "a = )\n".repeat(5);
    let dir = scratch("cap", &[("many.pp", text.as_bytes())]);
    let run = pcl(&["parse", "--max-errors", "2", "many.pp"], &dir);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr.matches("error[PCL1004]").count(),
        2,
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("... and 3 more errors in many.pp (--max-errors 5 shows them all)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.ends_with("5 errors in 1 of 1 file\n"),
        "{}",
        run.stderr
    );
    let run = pcl(
        &["parse", "--format", "json", "--max-errors", "2", "many.pp"],
        &dir,
    );
    assert_eq!(run.stdout.lines().count(), 5, "JSON is never capped");
    let run = pcl(&["parse", "--max-errors", "0", "many.pp"], &dir);
    assert_eq!(
        run.stderr.matches("error[PCL1004]").count(),
        5,
        "0 shows them all: {}",
        run.stderr
    );
}

#[test]
fn colour_follows_the_flag() {
    let dir = scratch("colour", &[("bad.pp", b"a = )\n")]);
    let run = pcl(&["parse", "--color", "always", "bad.pp"], &dir);
    assert!(run.stderr.contains("\u{1b}["), "{}", run.stderr);
    let run = pcl(&["parse", "--color", "never", "bad.pp"], &dir);
    assert!(!run.stderr.contains("\u{1b}["), "{}", run.stderr);
    // Not a terminal: no colour by default.
    let run = pcl(&["parse", "bad.pp"], &dir);
    assert!(!run.stderr.contains("\u{1b}["), "{}", run.stderr);
}

#[test]
fn trees_of_several_files_have_headers() {
    let dir = scratch("trees", &[("a.pp", b"a = 1\n"), ("b.pp", b"b = 2\n")]);
    let run = pcl(&["parse", "--tree", "-q", "a.pp", "b.pp"], &dir);
    assert_eq!(run.code, 0);
    let headers: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("==="))
        .collect();
    assert_eq!(headers, ["=== a.pp", "=== b.pp"]);
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
            parsed 0 files (0 lines, 0 B) in <time>: 1 IO error (above)
        "#]],
    );
}

/// A file that is not UTF-8 is parsed with an error at its first invalid byte (each
/// invalid sequence read as U+FFFD), as Pulumi's parser does; `pcl fmt`, which would write
/// it back, refuses it.
#[test]
fn invalid_utf8_names_the_byte() {
    // An invalid byte outside a string has this error only, not also "invalid character".
    let dir = scratch(
        "utf8",
        &[(
            "bad.pp",
            b"a = \"ok\"\nb = \"\xff\"\nc = \"caf\xe9\"\nd = \xe2\x82\n",
        )],
    );
    let run = pcl(&["parse", "--color", "never", "bad.pp"], &dir);
    check(
        &run,
        1,
        expect![""],
        expect![[r#"
            error[PCL1016]: this file is not UTF-8: byte 0xff does not start a valid UTF-8 sequence
              ┌─ bad.pp:2:6
              │
            2 │ b = "�"
              │      ^
              │
              = it is read with it and 2 other invalid sequences replaced by `�`
              = Pulumi reads PCL files as UTF-8 and rejects this one too: save it as UTF-8 (a Latin-1 `é` is the one byte 0xe9, which UTF-8 writes as two)

            parsed 1 file (4 lines, 40 B) in <time>: 1 error in 1 of 1 file
        "#]],
    );
    let run = pcl(&["fmt", "--check", "bad.pp"], &dir);
    check(
        &run,
        2,
        expect![""],
        expect![[r#"
            error: `bad.pp` is not valid UTF-8: byte 0xff at offset 14 does not start a valid UTF-8 sequence
            checked the formatting of 0 files (0 lines, 0 B) in <time>: the files read are formatted, 1 IO error (above)
        "#]],
    );
}

/// A program whose only file cannot be read is an IO error, not a crash, on one thread or
/// two (checking two threads' share of no files once panicked); a file past 4 GiB (here a
/// sparse one, which takes no disk) is refused before it is read, as offsets are 32-bit.
#[test]
fn unreadable_and_oversized_files_are_io_errors_for_every_command() {
    let dir = scratch("unreadable", &[("bad/bad.pp", b"a = \"\xff\"\n")]);
    std::fs::create_dir_all(dir.join("huge")).expect("a directory");
    let huge = std::fs::File::create(dir.join("huge/huge.pp")).expect("create");
    huge.set_len(5 << 30).expect("a sparse file");
    let utf8 = "error: `bad/bad.pp` is not valid UTF-8: byte 0xff at offset 5 does not start a valid UTF-8 sequence";
    let size = "error: cannot read `huge/huge.pp`: it is larger than 4 GiB, the most pcl reads (offsets into a file are 32-bit)";
    let not_utf8 =
        "error[PCL1016]: this file is not UTF-8: byte 0xff does not start a valid UTF-8 sequence";
    for (args, code, error) in [
        (&["check", "--jobs", "2", "huge/huge.pp"][..], 2, size),
        (&["types", "--jobs", "2", "huge"], 2, size),
        (&["check", "--jobs", "1", "huge"], 2, size),
        (&["parse", "huge/huge.pp"], 2, size),
        (&["fmt", "--check", "huge/huge.pp"], 2, size),
        (&["fmt", "--check", "bad/bad.pp"], 2, utf8),
        // Read, with an error: a diagnostic, not an IO error.
        (&["check", "--jobs", "2", "bad/bad.pp"], 1, not_utf8),
        (&["check", "--jobs", "1", "bad"], 1, not_utf8),
    ] {
        let run = pcl(args, &dir);
        assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().next(), Some(error), "{args:?}");
        assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    }
    // `pcl types` reports no diagnostics: the file's declarations, read.
    let types = pcl(&["types", "--jobs", "2", "bad"], &dir);
    assert_eq!(
        (types.code, types.stdout.as_str()),
        (0, "local a: string\n")
    );
    // The OS's reason, without Rust's error number.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("loop", dir.join("loop")).expect("a symbolic link");
        let run = pcl(&["check", "loop"], &dir);
        let reason = "error: cannot read `loop`: too many levels of symbolic links";
        assert_eq!((run.code, run.stderr.lines().next()), (2, Some(reason)));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_exit_2() {
    let dir = scratch("usage", &[]);
    for args in [
        &["parse"][..],
        &["parse", "--frobnicate", "x.pp"],
        &["frobnicate"],
    ] {
        let run = pcl(args, &dir);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(
            run.stderr.starts_with("error: "),
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("Usage: pcl"),
            "{args:?}: {}",
            run.stderr
        );
    }
    assert_eq!(pcl(&[], &dir).code, 2, "no command");
    let run = pcl(&["pars", "x.pp"], &dir);
    assert!(
        run.stderr.contains("a similar subcommand exists: 'parse'"),
        "{}",
        run.stderr
    );
    let run = pcl(&["parse", "--tre", "x.pp"], &dir);
    assert!(
        run.stderr.contains("a similar argument exists: '--tree'"),
        "{}",
        run.stderr
    );
}
