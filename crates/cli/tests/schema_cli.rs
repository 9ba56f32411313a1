//! End-to-end tests of `pcl schema`: the real binary over our fixture schemas, with the
//! search path from `--schema-dir` and `PCL_SCHEMA_PATH`, version choice, exit codes and
//! messages.

mod common;

use std::path::PathBuf;
use std::process::Command;

use expect_test::{Expect, expect};

fn schemas() -> PathBuf {
    pcl_test_utils::test_data_dir().join("schemas")
}

/// Runs `pcl schema ARGS` (with `PCL_SCHEMA_PATH` set to `env_path` when given) and
/// renders a transcript with the fixture directory shortened to `$SCHEMAS`.
fn run(args: &[&str], env_path: Option<&str>) -> String {
    let dir = schemas();
    let mut command = Command::new(env!("CARGO_BIN_EXE_pcl"));
    command
        .arg("schema")
        .args(args)
        .env_remove("PCL_SCHEMA_PATH");
    if let Some(value) = env_path {
        command.env(
            "PCL_SCHEMA_PATH",
            value.replace("$SCHEMAS", &dir.to_string_lossy()),
        );
    }
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace(&*dir.to_string_lossy(), "$SCHEMAS"))
        .collect();
    let output = command.output().expect("the pcl binary runs");
    let command_line = format!("$ pcl schema {}", args.join(" "));
    common::transcript(&command_line, &output).replace(&*dir.to_string_lossy(), "$SCHEMAS")
}

fn check(runs: &[(&[&str], Option<&str>)], expected: Expect) {
    let transcript: String = runs.iter().map(|(args, env)| run(args, *env)).collect();
    expected.assert_eq(&transcript);
}

#[test]
fn package_and_token() {
    let dir = schemas();
    let dir = dir.to_string_lossy();
    check(
        &[
            (&["--schema-dir", &dir, "tok"], None),
            (&["--schema-dir", &dir, "pulumi:providers:tok"], None),
            (&["--schema-dir", &dir, "tok:legacy:OldThing"], None),
            (&["--schema-dir", &dir, "tok:index:Thing"], None),
            (&["--schema-dir", &dir, "tok:index:getThing"], None),
            (&["--schema-dir", &dir, "tok:count"], None),
        ],
        expect![[r#"
            $ pcl schema --schema-dir $SCHEMAS tok
            package tok 1.2.3 ($SCHEMAS/tok-1.2.3.json)
            provider: declared
            resources (2):
              tok:index/thing:Thing
              tok:storage/bucket:Bucket
            functions (4):
              tok:index/count:count
              tok:index/getThing:getThing
              tok:index/thing:Thing/grow
              tok:index/thing:Thing/selfless
            types (0):
            config (2):
              region (required)
              retries
            exit 0
            $ pcl schema --schema-dir $SCHEMAS pulumi:providers:tok
            provider pulumi:providers:tok
            inputs (2, each a value or an output of one):
              region (optional): string
              retries (optional): int
            outputs (3):
              id (required): output(id)
              region (optional): output(string)
              urn (required): output(string)
            exit 0
            $ pcl schema --schema-dir $SCHEMAS tok:legacy:OldThing
            resource tok:index/thing:Thing
            inputs (1, each a value or an output of one):
              size (optional): int
            outputs (3):
              id (required): output(id)
              size (required): output(int)
              urn (required): output(string)
            methods (1):
              grow: tok:index/thing:Thing/grow
            stderr: error[PCL2005]: invalid function token format tok:index/getThing:getThing; expected a token of the shape "tok:index/thing:Thing/<method name>"
            stderr:  = in $SCHEMAS/tok-1.2.3.json at /resources/tok:index~1thing:Thing/methods/elsewhere
            stderr:
            stderr: error[PCL2005]: unknown function tok:index/thing:Thing/missing
            stderr:  = in $SCHEMAS/tok-1.2.3.json at /resources/tok:index~1thing:Thing/methods/missing
            stderr:
            stderr: error[PCL2005]: function tok:index/thing:Thing/selfless has no __self__ parameter
            stderr:  = in $SCHEMAS/tok-1.2.3.json at /resources/tok:index~1thing:Thing/methods/selfless
            stderr:
            exit 1
            $ pcl schema --schema-dir $SCHEMAS tok:index:Thing
            resource tok:index/thing:Thing
            inputs (1, each a value or an output of one):
              size (optional): int
            outputs (3):
              id (required): output(id)
              size (required): output(int)
              urn (required): output(string)
            methods (1):
              grow: tok:index/thing:Thing/grow
            stderr: error[PCL2005]: invalid function token format tok:index/getThing:getThing; expected a token of the shape "tok:index/thing:Thing/<method name>"
            stderr:  = in $SCHEMAS/tok-1.2.3.json at /resources/tok:index~1thing:Thing/methods/elsewhere
            stderr:
            stderr: error[PCL2005]: unknown function tok:index/thing:Thing/missing
            stderr:  = in $SCHEMAS/tok-1.2.3.json at /resources/tok:index~1thing:Thing/methods/missing
            stderr:
            stderr: error[PCL2005]: function tok:index/thing:Thing/selfless has no __self__ parameter
            stderr:  = in $SCHEMAS/tok-1.2.3.json at /resources/tok:index~1thing:Thing/methods/selfless
            stderr:
            exit 1
            $ pcl schema --schema-dir $SCHEMAS tok:index:getThing
            function tok:index/getThing:getThing
            arguments (1, each a value or an output of one unless plain):
              id (required, plain): string
            result: object({size = int})
            exit 0
            $ pcl schema --schema-dir $SCHEMAS tok:count
            function tok:index/count:count
            positional arguments: a, b
            arguments (2, each a value or an output of one unless plain):
              a (optional, plain): number
              b (optional, plain): number
            result: number
            exit 0
        "#]],
    );
}

#[test]
fn search_path_and_versions() {
    let versions = schemas().join("versions");
    let versions = versions.to_string_lossy();
    check(
        &[
            (&["--schema-dir", &versions, "ver"], None),
            (&["ver"], Some("$SCHEMAS/versions")),
            (&["nested"], Some("/does/not/exist:$SCHEMAS/versions")),
            (&["--schema-dir", &versions, "vr"], None),
            (&["missing"], None),
            (&["--schema-dir", &versions, "ver@1.9.0"], None),
            (&["--schema-dir", &versions, "ver@3.0.0"], None),
            (
                &[
                    "--schema-dir",
                    &versions,
                    "--use",
                    "ver@1.9.0",
                    "ver:index:V1_9_0",
                ],
                None,
            ),
            (&["--schema-dir", &versions, "ver:index:V1_9_0"], None),
        ],
        expect![[r#"
            $ pcl schema --schema-dir $SCHEMAS/versions ver
            package ver 1.10.0 ($SCHEMAS/versions/ver-1.10.0.json)
            provider: default, no configuration
            resources (1):
              ver:index:V1_10_0
            functions (0):
            types (0):
            config (0):
            exit 0
            $ pcl schema ver
            package ver 1.10.0 ($SCHEMAS/versions/ver-1.10.0.json)
            provider: default, no configuration
            resources (1):
              ver:index:V1_10_0
            functions (0):
            types (0):
            config (0):
            exit 0
            $ pcl schema nested
            package nested ($SCHEMAS/versions/nested/schema.json)
            provider: default, no configuration
            resources (1):
              nested:index:Thing
            functions (0):
            types (0):
            config (0):
            exit 0
            $ pcl schema --schema-dir $SCHEMAS/versions vr
            stderr: error[PCL2007]: no schema for package `vr`
            stderr:  = looked in, in order: $SCHEMAS/versions, .pcl-test-home/pulumi/schemas, .pcl-test-home/cache/pcl/schemas (for vr.json, vr-VERSION.json and vr/schema.json)
            stderr:  = did you mean `ver`?
            stderr:  = fix: run again with --fetch-schemas, or run `mkdir -p .pcl-test-home/cache/pcl/schemas && pulumi package get-schema vr > .pcl-test-home/cache/pcl/schemas/vr.json.tmp && mv .pcl-test-home/cache/pcl/schemas/vr.json.tmp .pcl-test-home/cache/pcl/schemas/vr.json`
            stderr:  = or put its schema (vr.json) in a directory passed with --schema-dir
            stderr:
            exit 1
            $ pcl schema missing
            stderr: error[PCL2007]: no schema for package `missing`
            stderr:  = looked in, in order: .pcl-test-home/pulumi/schemas, .pcl-test-home/cache/pcl/schemas (for missing.json, missing-VERSION.json and missing/schema.json)
            stderr:  = fix: run again with --fetch-schemas, or run `mkdir -p .pcl-test-home/cache/pcl/schemas && pulumi package get-schema missing > .pcl-test-home/cache/pcl/schemas/missing.json.tmp && mv .pcl-test-home/cache/pcl/schemas/missing.json.tmp .pcl-test-home/cache/pcl/schemas/missing.json`
            stderr:  = or put its schema (missing.json) in a directory passed with --schema-dir
            stderr:
            exit 1
            $ pcl schema --schema-dir $SCHEMAS/versions ver@1.9.0
            package ver 1.9.0 ($SCHEMAS/versions/ver-1.9.0.json)
            provider: default, no configuration
            resources (1):
              ver:index:V1_9_0
            functions (0):
            types (0):
            config (0):
            exit 0
            $ pcl schema --schema-dir $SCHEMAS/versions ver@3.0.0
            stderr: error[PCL2007]: no schema for package `ver` version 3.0.0
            stderr:  = no `ver` 3.0.0 on the search path, but version 1.10.0 is there ($SCHEMAS/versions/ver-1.10.0.json and 2 other files): to check against it, ask for that version (`options { version = "1.10.0" }`), or get 3.0.0's schema
            stderr:  = looked in, in order: $SCHEMAS/versions, .pcl-test-home/pulumi/schemas, .pcl-test-home/cache/pcl/schemas (for ver.json, ver-VERSION.json and ver/schema.json)
            stderr:  = fix: run again with --fetch-schemas, or run `mkdir -p .pcl-test-home/cache/pcl/schemas && pulumi package get-schema ver@3.0.0 > .pcl-test-home/cache/pcl/schemas/ver-3.0.0.json.tmp && mv .pcl-test-home/cache/pcl/schemas/ver-3.0.0.json.tmp .pcl-test-home/cache/pcl/schemas/ver-3.0.0.json`
            stderr:  = or put its schema (ver.json) in a directory passed with --schema-dir
            stderr:
            exit 1
            $ pcl schema --schema-dir $SCHEMAS/versions --use ver@1.9.0 ver:index:V1_9_0
            resource ver:index:V1_9_0
            inputs (0):
            outputs (2):
              id (required): output(id)
              urn (required): output(string)
            exit 0
            $ pcl schema --schema-dir $SCHEMAS/versions ver:index:V1_9_0
            stderr: error[PCL2010]: package `ver` ($SCHEMAS/versions/ver-1.10.0.json) has no resource, function or type `ver:index:V1_9_0`; did you mean `ver:index:V1_10_0`?
            stderr:  = in $SCHEMAS/versions/ver-1.10.0.json
            stderr:
            exit 1
        "#]],
    );
}

#[test]
fn not_found_and_errors() {
    let dir = schemas();
    let dir = dir.to_string_lossy();
    let malformed = schemas().join("bad-malformed-json.json");
    let malformed = malformed.to_string_lossy();
    check(
        &[
            (&["--schema-dir", &dir, "tok:index:thing"], None),
            (&["--schema-dir", &dir, "tok:index:Nothing"], None),
            (&["--schema-dir", &dir, "bad:a:b:c"], None),
            (&["--schema-dir", &dir, "../etc/passwd:index:R"], None),
            (
                &["--schema-dir", &dir, "unknowntypes:index:Res"],
                Some("$SCHEMAS"),
            ),
            (&[&malformed], None),
            (&["--schema-dir"], None),
            (&["--schema-dir", "/does/not/exist", "x"], None),
            (&["--bogus", "x"], None),
            (&[], None),
        ],
        expect![[r#"
            $ pcl schema --schema-dir $SCHEMAS tok:index:thing
            stderr: error[PCL2010]: package `tok` ($SCHEMAS/tok-1.2.3.json) has no resource, function or type `tok:index:thing`; did you mean `tok:index/thing:Thing`?
            stderr:  = in $SCHEMAS/tok-1.2.3.json
            stderr:
            exit 1
            $ pcl schema --schema-dir $SCHEMAS tok:index:Nothing
            stderr: error[PCL2010]: package `tok` ($SCHEMAS/tok-1.2.3.json) has no resource, function or type `tok:index:Nothing`; did you mean `tok:index/thing:Thing` or `tok:index/getThing:getThing`?
            stderr:  = in $SCHEMAS/tok-1.2.3.json
            stderr:
            exit 1
            $ pcl schema --schema-dir $SCHEMAS bad:a:b:c
            stderr: error: malformed token 'bad:a:b:c': expected 'pkg:module:member' or 'pkg:member'
            exit 2
            $ pcl schema --schema-dir $SCHEMAS ../etc/passwd:index:R
            stderr: error[PCL2008]: `../etc/passwd` is not a package name (a letter, then letters, digits, `-` or `_`)
            stderr:
            exit 2
            $ pcl schema --schema-dir $SCHEMAS unknowntypes:index:Res
            resource unknowntypes:index:Res
            inputs (7, each a value or an output of one):
              empty (optional): string
              fine (optional): bool
              length (optional): union(output(none), none)
              shape (optional): enum(unknowntypes::Shape: "round")
              things (optional): list(dynamic)
              weird (optional): union(output(none), none)
              what (optional): union(output(none), none)
                no type at all
            outputs (2):
              id (required): output(id)
              urn (required): output(string)
            stderr: error[PCL2003]: an enum needs at least one value
            stderr:  = in $SCHEMAS/unknowntypes.json at /types/unknowntypes:index:Empty/enum
            stderr:
            stderr: error[PCL2003]: unknown type "integr"; did you mean "integer"?
            stderr:  = in $SCHEMAS/unknowntypes.json at /resources/unknowntypes:index:Res/inputProperties/length/type
            stderr:
            stderr: error[PCL2003]: an enum's type must be string, integer, number or boolean, not "object"
            stderr:  = in $SCHEMAS/unknowntypes.json at /types/unknowntypes:index:Shape/type
            stderr:
            stderr: error[PCL2003]: an array type needs `items`
            stderr:  = in $SCHEMAS/unknowntypes.json at /resources/unknowntypes:index:Res/inputProperties/things
            stderr:
            stderr: error[PCL2003]: unknown type "tuple"; expected one of boolean, integer, number, string, array, object
            stderr:  = in $SCHEMAS/unknowntypes.json at /resources/unknowntypes:index:Res/inputProperties/weird/type
            stderr:
            stderr: error[PCL2003]: a type needs `type`, `$ref` or `oneOf`
            stderr:  = in $SCHEMAS/unknowntypes.json at /resources/unknowntypes:index:Res/inputProperties/what
            stderr:
            exit 1
            $ pcl schema $SCHEMAS/bad-malformed-json.json
            package malformed ($SCHEMAS/bad-malformed-json.json)
            provider: default, no configuration
            resources (1):
              malformed:index:R
            functions (0):
            types (0):
            config (0):
            exit 0
            $ pcl schema --schema-dir
            stderr: error: a value is required for '--schema-dir <DIR>' but none was supplied
            stderr:
            stderr: For more information, try '--help'.
            exit 2
            $ pcl schema --schema-dir /does/not/exist x
            stderr: error: --schema-dir `/does/not/exist`: no such directory
            exit 2
            $ pcl schema --bogus x
            stderr: error: unexpected argument '--bogus' found
            stderr:
            stderr:   tip: to pass '--bogus' as a value, use '-- --bogus'
            stderr:
            stderr: Usage: pcl schema [OPTIONS] <TARGET> [TOKEN]
            stderr:
            stderr: For more information, try '--help'.
            exit 2
            $ pcl schema
            stderr: error: the following required arguments were not provided:
            stderr:   <TARGET>
            stderr:
            stderr: Usage: pcl schema <TARGET> [TOKEN]
            stderr:
            stderr: For more information, try '--help'.
            exit 2
        "#]],
    );
}

#[test]
fn not_utf8_names_the_byte() {
    let dir = common::scratch("schema-not-utf8", &[]);
    let path = dir.join("binary.json");
    std::fs::write(&path, b"{\"name\": \"x\xff\"}").expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(["schema", &path.to_string_lossy()])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.contains("not UTF-8: invalid byte at offset 11"),
        "{stderr}"
    );
}

/// Schema files named directly, and on standard input.
#[test]
fn files_and_standard_input() {
    let dir = schemas();
    let file = dir.join("recursion.json");
    let file = file.to_string_lossy();
    check(
        &[
            (&[&file, "recursion:index:Node"], None),
            (&["--format", "json", &file, "recursion:index:Node"], None),
            (&[&dir.join("missing.json").to_string_lossy()], None),
        ],
        expect![[r#"
            $ pcl schema $SCHEMAS/recursion.json recursion:index:Node
            object type recursion:index:Node: object(recursion:index:Node)
            properties (3):
              children (optional): list(object(recursion:index:Node))
              next (optional): object(recursion:index:Node)
              value (required): string
            properties in input shape (3, each a value or an output of one):
              children (optional): list(object(recursion:index:Node, input))
              next (optional): object(recursion:index:Node, input)
              value (required): string
            exit 0
            $ pcl schema --format json $SCHEMAS/recursion.json recursion:index:Node
            {
              "kind": "object type",
              "token": "recursion:index:Node",
              "type": "object(recursion:index:Node)",
              "sections": [
                {
                  "title": "properties",
                  "properties": [
                    {
                      "name": "children",
                      "type": "union(list(object(recursion:index:Node)), none)",
                      "required": false
                    },
                    {
                      "name": "next",
                      "type": "union(object(recursion:index:Node), none)",
                      "required": false
                    },
                    {
                      "name": "value",
                      "type": "string",
                      "required": true
                    }
                  ]
                },
                {
                  "title": "properties in input shape",
                  "properties": [
                    {
                      "name": "children",
                      "type": "union(list(union(object(recursion:index:Node, input), output(object(recursion:index:Node)))), … (2 more))",
                      "required": false
                    },
                    {
                      "name": "next",
                      "type": "union(object(recursion:index:Node, input), output(object(recursion:index:Node)), none)",
                      "required": false
                    },
                    {
                      "name": "value",
                      "type": "union(output(string), string)",
                      "required": true
                    }
                  ]
                }
              ]
            }
            exit 0
            $ pcl schema $SCHEMAS/missing.json
            stderr: error[PCL2009]: no such file or directory
            stderr:  = in $SCHEMAS/missing.json
            stderr:
            exit 2
        "#]],
    );
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(["schema", "-", "recursion:index:Node"])
        .stdin(std::fs::File::open(dir.join("recursion.json")).expect("fixture"))
        .output()
        .expect("the pcl binary runs");
    expect![[r#"
        $ pcl schema - recursion:index:Node < recursion.json
        object type recursion:index:Node: object(recursion:index:Node)
        properties (3):
          children (optional): list(object(recursion:index:Node))
          next (optional): object(recursion:index:Node)
          value (required): string
        properties in input shape (3, each a value or an output of one):
          children (optional): list(object(recursion:index:Node, input))
          next (optional): object(recursion:index:Node, input)
          value (required): string
        exit 0
    "#]]
    .assert_eq(&common::transcript(
        "$ pcl schema - recursion:index:Node < recursion.json",
        &output,
    ));
}

/// `--check` lowers every item and reports every problem, in both formats.
#[test]
fn check_reports_every_problem() {
    let dir = schemas();
    let dir = dir.to_string_lossy();
    check(
        &[
            (&["--schema-dir", &dir, "--check", "recursion"], None),
            (&["--schema-dir", &dir, "--check", "unknowntypes"], None),
            (
                &[
                    "--schema-dir",
                    &dir,
                    "--check",
                    "--format",
                    "json",
                    "-q",
                    "tok",
                ],
                None,
            ),
        ],
        expect![[r#"
            $ pcl schema --schema-dir $SCHEMAS --check recursion
            stderr: checked 1 file (30 lines, 903 B) in <time>: no errors
            exit 0
            $ pcl schema --schema-dir $SCHEMAS --check unknowntypes
            stderr: error[PCL2002]: expected a string, number, boolean or null
            stderr:  = in $SCHEMAS/unknowntypes.json at /resources/unknowntypes:index:Odd/inputProperties/odd/const
            stderr:
            stderr: error[PCL2003]: an enum needs at least one value
            stderr:  = in $SCHEMAS/unknowntypes.json at /types/unknowntypes:index:Empty/enum
            stderr:
            stderr: error[PCL2003]: unknown type "integr"; did you mean "integer"?
            stderr:  = in $SCHEMAS/unknowntypes.json at /resources/unknowntypes:index:Res/inputProperties/length/type
            stderr:
            stderr: error[PCL2003]: an enum's type must be string, integer, number or boolean, not "object"
            stderr:  = in $SCHEMAS/unknowntypes.json at /types/unknowntypes:index:Shape/type
            stderr:
            stderr: error[PCL2003]: an array type needs `items`
            stderr:  = in $SCHEMAS/unknowntypes.json at /resources/unknowntypes:index:Res/inputProperties/things
            stderr:
            stderr: error[PCL2003]: unknown type "tuple"; expected one of boolean, integer, number, string, array, object
            stderr:  = in $SCHEMAS/unknowntypes.json at /resources/unknowntypes:index:Res/inputProperties/weird/type
            stderr:
            stderr: error[PCL2003]: a type needs `type`, `$ref` or `oneOf`
            stderr:  = in $SCHEMAS/unknowntypes.json at /resources/unknowntypes:index:Res/inputProperties/what
            stderr:
            stderr: error[PCL2003]: unknown type "strin"; did you mean "string"?
            stderr:  = in $SCHEMAS/unknowntypes.json at /config/variables/zone/type
            stderr:
            stderr: checked 1 file (25 lines, 852 B) in <time>: 8 errors in 1 of 1 file
            exit 1
            $ pcl schema --schema-dir $SCHEMAS --check --format json -q tok
            {"code":"PCL2005","severity":"error","message":"invalid function token format tok:index/getThing:getThing; expected a token of the shape \"tok:index/thing:Thing/<method name>\"","file":"$SCHEMAS/tok-1.2.3.json","range":null,"location":"/resources/tok:index~1thing:Thing/methods/elsewhere","labels":[],"notes":[],"fixes":[]}
            {"code":"PCL2005","severity":"error","message":"unknown function tok:index/thing:Thing/missing","file":"$SCHEMAS/tok-1.2.3.json","range":null,"location":"/resources/tok:index~1thing:Thing/methods/missing","labels":[],"notes":[],"fixes":[]}
            {"code":"PCL2005","severity":"error","message":"function tok:index/thing:Thing/selfless has no __self__ parameter","file":"$SCHEMAS/tok-1.2.3.json","range":null,"location":"/resources/tok:index~1thing:Thing/methods/selfless","labels":[],"notes":[],"fixes":[]}
            exit 1
        "#]],
    );
}
