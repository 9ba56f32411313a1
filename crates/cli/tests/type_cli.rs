//! End-to-end tests of `pcl type`: the real binary, its one-line JSON, its stderr
//! messages and exit codes.

mod common;

use std::process::Command;

use expect_test::{Expect, expect};

/// Runs `pcl type ARGS` for each line of arguments and renders a transcript.
fn check(runs: &[&[&str]], expected: Expect) {
    let mut transcript = String::new();
    for args in runs {
        let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
            .arg("type")
            .args(*args)
            .output()
            .expect("the pcl binary runs");
        let command_line = format!("$ pcl type {}", args.join(" "));
        let data = pcl_test_utils::test_data_dir();
        let data = data.to_string_lossy();
        transcript.push_str(&common::transcript(&command_line, &output).replace(&*data, "$DATA"));
    }
    expected.assert_eq(&transcript);
}

#[test]
fn show() {
    check(
        &[
            &["show", "optional(string)"],
            &[
                "show",
                "object({b = list(int), a = output(output(string))})",
            ],
            &["show", "union(int, union(string, int))"],
            &["show", "type(aws:index:ARN)"],
            &["show", "cty.NumberIntVal(99999999999999999999999999)"],
        ],
        expect![[r#"
            $ pcl type show optional(string)
            {"type": "union(none, string)"}
            exit 0
            $ pcl type show object({b = list(int), a = output(output(string))})
            {"type": "object({a = output(string), b = list(int)})"}
            exit 0
            $ pcl type show union(int, union(string, int))
            {"type": "union(int, string)"}
            exit 0
            $ pcl type show type(aws:index:ARN)
            {"type": "type(aws:index:ARN)"}
            exit 0
            $ pcl type show cty.NumberIntVal(99999999999999999999999999)
            {"type": "cty.NumberIntVal(9.9999999999999999999999999e+25)"}
            exit 0
        "#]],
    );
}

#[test]
fn relate() {
    check(
        &[
            &["relate", "number", "int"],
            &["relate", "int", "string"],
            &["relate", "bool", "dynamic"],
            &["relate", "output(number)", "promise(string)"],
            &["relate", "object({foo = string})", "object({bar = string})"],
            &["relate", "list(int)", "map(int)"],
        ],
        expect![[r#"
            $ pcl type relate number int
            {"assignable": false, "conversion": "safe", "unify": {"safe": "number", "unsafe": "number"}}
            exit 0
            $ pcl type relate int string
            {"assignable": false, "conversion": "unsafe", "unify": {"safe": "string", "unsafe": "string"}}
            exit 0
            $ pcl type relate bool dynamic
            {"assignable": false, "conversion": "unsafe", "unify": {"safe": "union(bool, dynamic)", "unsafe": "bool"}}
            exit 0
            $ pcl type relate output(number) promise(string)
            {"assignable": false, "conversion": "unsafe", "unify": {"safe": "union(output(number), promise(string))", "unsafe": "output(number)"}}
            exit 0
            $ pcl type relate object({foo = string}) object({bar = string})
            {"assignable": false, "conversion": "none", "unify": {"safe": "object({bar = union(none, string), foo = union(none, string)})", "unsafe": "object({bar = union(none, string), foo = union(none, string)})"}}
            exit 0
            $ pcl type relate list(int) map(int)
            {"assignable": false, "conversion": "none", "unify": {"safe": "union(list(int), map(int))", "unsafe": "union(list(int), map(int))"}}
            exit 0
        "#]],
    );
}

#[test]
fn traverse() {
    check(
        &[
            &["traverse", "optional(object({a = list(int)}))", ".a", "[0]"],
            &["traverse", "object({Name = int})", ".name"],
            &["traverse", "tuple(int, string)", "[2]"],
            &["traverse", "tuple(int, string)", "[<number>]"],
            &["traverse", "map(string)", "[\"key\"]"],
            &["traverse", "output(object({a = int}))", ".b"],
            &["traverse", "none", ".a"],
            &["traverse", "tuple(int, string)", ".1"],
        ],
        expect![[r#"
            $ pcl type traverse optional(object({a = list(int)})) .a [0]
            {"type": "union(int, none)", "error": false}
            exit 0
            $ pcl type traverse object({Name = int}) .name
            {"type": "int", "error": false}
            stderr: warning[PCL3003]: at `.name`: 'name' differs from the property 'Name' only in case
            exit 0
            $ pcl type traverse tuple(int, string) [2]
            {"type": "dynamic", "error": true}
            stderr: error[PCL3004]: at `[2]`: tuple index must be between 0 and 1
            exit 1
            $ pcl type traverse tuple(int, string) [<number>]
            {"type": "union(int, string)", "error": false}
            exit 0
            $ pcl type traverse map(string) ["key"]
            {"type": "string", "error": false}
            exit 0
            $ pcl type traverse output(object({a = int})) .b
            {"type": "output(dynamic)", "error": true}
            stderr: error[PCL3002]: at `.b`: unknown property 'b' among [a]
            exit 1
            $ pcl type traverse none .a
            {"type": "none", "error": false}
            stderr: warning[PCL3006]: at `.a`: cannot traverse value of type none
            exit 0
            $ pcl type traverse tuple(int, string) .1
            {"type": "string", "error": false}
            exit 0
        "#]],
    );
}

#[test]
fn malformed_input_exits_2() {
    check(
        &[
            &["show", "list(int"],
            &["show", "strng"],
            &["relate", "int"],
            &["traverse", "int", "a"],
            &["traverse", "list(int)", "[1x]"],
            &["traverse", "list(int)", "[<lst(int)>]"],
            &["bogus"],
        ],
        expect![[r#"
            $ pcl type show list(int
            stderr: error[PCL3001]: invalid type `list(int`: column 9: expected `)`, found the end of the type
            exit 2
            $ pcl type show strng
            stderr: error[PCL3001]: invalid type `strng`: column 1: unknown type `strng`; did you mean `string`?
            exit 2
            $ pcl type relate int
            stderr: error: the following required arguments were not provided:
            stderr:   <FROM>
            stderr:
            stderr: Usage: pcl type relate <TO> <FROM>
            stderr:
            stderr: For more information, try '--help'.
            exit 2
            $ pcl type traverse int a
            stderr: error: invalid key `a`: not a key; expected `.name`, `[N]`, `["s"]` or `[<T>]`
            exit 2
            $ pcl type traverse list(int) [1x]
            stderr: error: invalid key `[1x]`: invalid number literal `1x`; expected `.name`, `[N]`, `["s"]` or `[<T>]`
            exit 2
            $ pcl type traverse list(int) [<lst(int)>]
            stderr: error[PCL3001]: invalid key type `lst(int)`: column 1: unknown type `lst`; did you mean `list`?
            exit 2
            $ pcl type bogus
            stderr: error: unrecognized subcommand 'bogus'
            stderr:
            stderr: Usage: pcl type [OPTIONS] <COMMAND>
            stderr:
            stderr: For more information, try '--help'.
            exit 2
        "#]],
    );
}

/// With `--schema-dir`, type strings name schema object types, whose properties come
/// from the schema.
#[test]
fn schema_object_types() {
    let dir = pcl_test_utils::test_data_dir().join("schemas");
    let dir = dir.to_str().expect("a UTF-8 path");
    check(
        &[
            &[
                "traverse",
                "--schema-dir",
                dir,
                "object(recursion:index:Node)",
                ".value",
            ],
            &[
                "traverse",
                "--schema-dir",
                dir,
                "object(recursion:index:Node)",
                ".next",
                ".bogus",
            ],
            &[
                "relate",
                "--schema-dir",
                dir,
                "object(recursion:index:Node)",
                "object({value = int})",
            ],
            &[
                "relate",
                "--schema-dir",
                dir,
                "object(recursion:index:Node)",
                "object({bogus = bool})",
            ],
            &["show", "--schema-dir", dir, "object(missing:index:Node)"],
            &["traverse", "list(int)", "[<list(int)>]"],
        ],
        expect![[r#"
            $ pcl type traverse --schema-dir $DATA/schemas object(recursion:index:Node) .value
            {"type": "string", "error": false}
            exit 0
            $ pcl type traverse --schema-dir $DATA/schemas object(recursion:index:Node) .next .bogus
            {"type": "dynamic", "error": true}
            stderr: error[PCL3002]: at `.bogus`: unknown property 'bogus' among [children next value]
            exit 1
            $ pcl type relate --schema-dir $DATA/schemas object(recursion:index:Node) object({value = int})
            {"assignable": false, "conversion": "safe", "unify": {"safe": "object({children = union(list(object(recursion:index:Node)), none), next = union(none, object(recursion:index:Node)), value = string})", "unsafe": "object({children = union(list(object(recursion:index:Node)), none), next = union(none, object(recursion:index:Node)), value = string})"}}
            exit 0
            $ pcl type relate --schema-dir $DATA/schemas object(recursion:index:Node) object({bogus = bool})
            {"assignable": false, "conversion": "none", "unify": {"safe": "object({bogus = union(bool, none), children = union(list(object(recursion:index:Node)), none), next = union(none, object(recursion:index:Node)), value = union(none, string)})", "unsafe": "object({bogus = union(bool, none), children = union(list(object(recursion:index:Node)), none), next = union(none, object(recursion:index:Node)), value = union(none, string)})"}}
            exit 0
            $ pcl type show --schema-dir $DATA/schemas object(missing:index:Node)
            stderr: error: cannot load the schema of `missing:index:Node`: no schema for package `missing`; looked in, in order: $DATA/schemas, .pcl-test-home/pulumi/schemas, .pcl-test-home/cache/pcl/schemas (for missing.json, missing-VERSION.json and missing/schema.json); fix: run again with --fetch-schemas, or run `mkdir -p .pcl-test-home/cache/pcl/schemas && pulumi package get-schema missing > .pcl-test-home/cache/pcl/schemas/missing.json.tmp && mv .pcl-test-home/cache/pcl/schemas/missing.json.tmp .pcl-test-home/cache/pcl/schemas/missing.json`; or put its schema (missing.json) in a directory passed with --schema-dir
            exit 2
            $ pcl type traverse list(int) [<list(int)>]
            {"type": "int", "error": true}
            stderr: error[PCL3005]: at `[<list(int)>]`: list indices must be numbers
            exit 1
        "#]],
    );
}
