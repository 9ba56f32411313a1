//! End-to-end tests of `pcl fmt`: rewriting in place, `--check`, `--diff`, standard input,
//! files with syntax errors, permissions and symbolic links, exit codes.

mod common;

use expect_test::expect;

use common::{check, pcl, pcl_with_stdin};

const UNFORMATTED: &[u8] = b"resource \"r\" \"t\" {\n  a= 1\n    bbb = \"x\"\n}\n";
const FORMATTED: &str = "resource \"r\" \"t\" {\n  a   = 1\n  bbb = \"x\"\n}\n";

fn scratch(name: &str, files: &[(&str, &[u8])]) -> common::ScratchDir {
    common::scratch(&format!("fmt-{name}"), files)
}

fn read(dir: &std::path::Path, path: &str) -> String {
    std::fs::read_to_string(dir.join(path)).expect("the file is there")
}

#[test]
fn files_are_rewritten_in_place_and_listed() {
    let dir = scratch(
        "in-place",
        &[
            ("main.pp", UNFORMATTED),
            ("done.pp", FORMATTED.as_bytes()),
            ("sub/other.hcl", b"x   =   1\n"),
            ("notes.txt", b"x   =   1\n"),
        ],
    );
    let run = pcl(&["fmt", "."], &dir);
    check(
        &run,
        0,
        expect![[r#"
            ./main.pp
            ./sub/other.hcl
        "#]],
        expect![[r#"
            formatted 3 files (9 lines, 95 B) in <time>: 2 files reformatted, no errors
        "#]],
    );
    assert_eq!(read(&dir, "main.pp"), FORMATTED);
    assert_eq!(read(&dir, "sub/other.hcl"), "x = 1\n");
    assert_eq!(read(&dir, "notes.txt"), "x   =   1\n");
    // No temporary file is left behind.
    let entries = std::fs::read_dir(&dir).expect("readable").count();
    assert_eq!(entries, 4);

    let again = pcl(&["fmt", "."], &dir);
    check(
        &again,
        0,
        expect![""],
        expect![[r#"
            formatted 3 files (9 lines, 92 B) in <time>: all formatted, no errors
        "#]],
    );
}

#[test]
fn check_lists_unformatted_files_changes_nothing_and_exits_1() {
    let dir = scratch(
        "check",
        &[("main.pp", UNFORMATTED), ("done.pp", FORMATTED.as_bytes())],
    );
    let run = pcl(&["fmt", "--check", "."], &dir);
    check(
        &run,
        1,
        expect![[r#"
            ./main.pp
        "#]],
        expect![[r#"
            checked the formatting of 2 files (8 lines, 85 B) in <time>: 1 file not formatted, no errors
        "#]],
    );
    assert_eq!(read(&dir, "main.pp").as_bytes(), UNFORMATTED);
    let clean = pcl(&["fmt", "--check", "-q", "done.pp"], &dir);
    check(&clean, 0, expect![""], expect![""]);
}

#[test]
fn diff_prints_a_unified_diff_and_writes_nothing() {
    let dir = scratch("diff", &[("main.pp", UNFORMATTED)]);
    let run = pcl(&["fmt", "--diff", "-q", "main.pp"], &dir);
    check(
        &run,
        1,
        expect![[r#"
            --- a/main.pp
            +++ b/main.pp
            @@ -1,4 +1,4 @@
             resource "r" "t" {
            -  a= 1
            -    bbb = "x"
            +  a   = 1
            +  bbb = "x"
             }
        "#]],
        expect![""],
    );
    assert_eq!(read(&dir, "main.pp").as_bytes(), UNFORMATTED);
    let checked = pcl(&["fmt", "--diff", "--check", "-q", "main.pp"], &dir);
    assert_eq!(checked.code, 1);
    assert_eq!(checked.stdout, run.stdout);
    let formatted = pcl(&["fmt", "-q", "main.pp"], &dir);
    assert_eq!(formatted.code, 0);
    let clean = pcl(&["fmt", "--diff", "-q", "main.pp"], &dir);
    check(&clean, 0, expect![""], expect![""]);
}

#[test]
fn the_summary_never_calls_a_file_with_syntax_errors_formatted() {
    let dir = scratch("broken", &[("broken.pp", b"a = (\n")]);
    let run = pcl(&["fmt", "--color", "never", "broken.pp"], &dir);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("1 file left unchanged for syntax errors, nothing else to format"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("all formatted"), "{}", run.stderr);
    assert!(run.stderr.contains("\nread 1 file"), "{}", run.stderr);
}

#[test]
fn standard_input_is_formatted_to_standard_output() {
    let dir = scratch("stdin", &[]);
    let run = pcl_with_stdin(&["fmt", "-"], &dir, UNFORMATTED);
    check(
        &run,
        0,
        expect![[r#"
            resource "r" "t" {
              a   = 1
              bbb = "x"
            }
        "#]],
        expect![[r#"
            formatted 1 file (4 lines, 42 B) in <time>: 1 file reformatted, no errors
        "#]],
    );
    let checked = pcl_with_stdin(&["fmt", "--check", "-q", "-"], &dir, UNFORMATTED);
    check(
        &checked,
        1,
        expect![[r#"
            <stdin>
        "#]],
        expect![""],
    );
}

#[test]
fn a_file_with_syntax_errors_is_reported_and_left_unchanged() {
    let broken: &[u8] = b"a   = {\n  b =\n}\n";
    let dir = scratch("broken", &[("broken.pp", broken), ("ok.pp", b"c   =  1\n")]);
    let run = pcl(&["fmt", "."], &dir);
    check(
        &run,
        1,
        expect![[r#"
            ./ok.pp
        "#]],
        expect![[r#"
            error[PCL1004]: expected a value after the object key, found a newline
              ┌─ ./broken.pp:2:6
              │
            2 │   b =
              │      ^

            read 2 files (4 lines, 25 B) in <time>: 1 file left unchanged for syntax errors, 1 file reformatted, 1 error in 1 of 2 files
        "#]],
    );
    assert_eq!(read(&dir, "broken.pp").as_bytes(), broken);
    assert_eq!(read(&dir, "ok.pp"), "c = 1\n");
}

#[cfg(unix)]
#[test]
fn permissions_and_symbolic_links_are_kept() {
    use std::os::unix::fs::PermissionsExt;

    let dir = scratch("permissions", &[("real.pp", UNFORMATTED)]);
    let real = dir.join("real.pp");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    std::os::unix::fs::symlink(&real, dir.join("link.pp")).expect("symlink");
    let run = pcl(&["fmt", "-q", "link.pp"], &dir);
    check(
        &run,
        0,
        expect![[r#"
        link.pp
    "#]],
        expect![""],
    );
    assert!(
        std::fs::symlink_metadata(dir.join("link.pp"))
            .expect("there")
            .is_symlink()
    );
    assert_eq!(read(&dir, "real.pp"), FORMATTED);
    let mode = std::fs::metadata(&real)
        .expect("there")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640);
}

#[test]
fn no_files_and_missing_files_are_io_errors() {
    let dir = scratch("empty", &[("readme.md", b"# not a program\n")]);
    let run = pcl(&["fmt", "."], &dir);
    check(
        &run,
        2,
        expect![""],
        expect![[r#"
            error: no *.pp, *.hcl, *.tf files in `.` (hidden directories are skipped unless named)
        "#]],
    );
    let missing = pcl(&["fmt", "-q", "nowhere.pp"], &dir);
    check(
        &missing,
        2,
        expect![""],
        expect![[r#"
            error: cannot read `nowhere.pp`: no such file or directory
        "#]],
    );
    // The summary counts what could not be read; it does not say "all formatted".
    std::fs::write(dir.join("done.pp"), FORMATTED).expect("write");
    let some = pcl(&["fmt", "--check", "done.pp", "nowhere.pp"], &dir);
    check(
        &some,
        2,
        expect![""],
        expect![[r#"
            error: cannot read `nowhere.pp`: no such file or directory
            checked the formatting of 1 file (4 lines, 43 B) in <time>: the files read are formatted, 1 IO error (above)
        "#]],
    );
}
