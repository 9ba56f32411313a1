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
            inputs (2):
              region (optional): union(none, output(string), string)
              retries (optional): union(int, none, output(int))
            outputs (3):
              id (required): output(id)
              region (optional): output(union(none, string))
              urn (required): output(string)
            exit 0
            $ pcl schema --schema-dir $SCHEMAS tok:legacy:OldThing
            resource tok:index/thing:Thing
            inputs (1):
              size (optional): union(int, none, output(int))
            outputs (3):
              id (required): output(id)
              size (required): output(int)
              urn (required): output(string)
            methods (1):
              grow: tok:index/thing:Thing/grow
            stderr: error: $SCHEMAS/tok-1.2.3.json: /resources/tok:index~1thing:Thing/methods/elsewhere: invalid function token format tok:index/getThing:getThing; expected a token of the shape "tok:index/thing:Thing/<method name>"
            stderr: error: $SCHEMAS/tok-1.2.3.json: /resources/tok:index~1thing:Thing/methods/missing: unknown function tok:index/thing:Thing/missing
            stderr: error: $SCHEMAS/tok-1.2.3.json: /resources/tok:index~1thing:Thing/methods/selfless: function tok:index/thing:Thing/selfless has no __self__ parameter
            exit 2
            $ pcl schema --schema-dir $SCHEMAS tok:index:Thing
            resource tok:index/thing:Thing
            inputs (1):
              size (optional): union(int, none, output(int))
            outputs (3):
              id (required): output(id)
              size (required): output(int)
              urn (required): output(string)
            methods (1):
              grow: tok:index/thing:Thing/grow
            stderr: error: $SCHEMAS/tok-1.2.3.json: /resources/tok:index~1thing:Thing/methods/elsewhere: invalid function token format tok:index/getThing:getThing; expected a token of the shape "tok:index/thing:Thing/<method name>"
            stderr: error: $SCHEMAS/tok-1.2.3.json: /resources/tok:index~1thing:Thing/methods/missing: unknown function tok:index/thing:Thing/missing
            stderr: error: $SCHEMAS/tok-1.2.3.json: /resources/tok:index~1thing:Thing/methods/selfless: function tok:index/thing:Thing/selfless has no __self__ parameter
            exit 2
            $ pcl schema --schema-dir $SCHEMAS tok:index:getThing
            function tok:index/getThing:getThing
            arguments (1):
              id (required): string
            result: object({size = int})
            exit 0
            $ pcl schema --schema-dir $SCHEMAS tok:count
            function tok:index/count:count
            positional arguments: a, b
            arguments (2):
              a (optional): union(none, number)
              b (optional): union(none, number)
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
            stderr: error: no schema for package `vr` in $SCHEMAS/versions (looked for vr.json, vr-VERSION.json and vr/schema.json); did you mean `ver`?
            exit 1
            $ pcl schema missing
            stderr: error: no schema for package `missing`; no schema directories given (use --schema-dir DIR or set PCL_SCHEMA_PATH)
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
            stderr: error: package `tok` ($SCHEMAS/tok-1.2.3.json) has no resource, function or type `tok:index:thing`; did you mean `tok:index/thing:Thing`?
            exit 1
            $ pcl schema --schema-dir $SCHEMAS tok:index:Nothing
            stderr: error: package `tok` ($SCHEMAS/tok-1.2.3.json) has no resource, function or type `tok:index:Nothing`; did you mean `tok:index/thing:Thing` or `tok:index/getThing:getThing`?
            exit 1
            $ pcl schema --schema-dir $SCHEMAS bad:a:b:c
            stderr: error: malformed token 'bad:a:b:c': expected 'pkg:module:member' or 'pkg:member'
            exit 2
            $ pcl schema --schema-dir $SCHEMAS ../etc/passwd:index:R
            stderr: error: `../etc/passwd` is not a package name (a letter, then letters, digits, `-` or `_`)
            exit 2
            $ pcl schema --schema-dir $SCHEMAS unknowntypes:index:Res
            resource unknowntypes:index:Res
            inputs (7):
              empty (optional): union(none, output(string), string)
              fine (optional): union(bool, none, output(bool))
              length (optional): union(none, output(none))
              shape (optional): union(enum(unknowntypes::Shape(string): cty.StringVal("round")), none, output(enum(unknowntypes::Shape(string): cty.StringVal("round"))))
              things (optional): union(list(dynamic), none, output(list(dynamic)))
              weird (optional): union(none, output(none))
              what (optional): union(none, output(none))
            outputs (2):
              id (required): output(id)
              urn (required): output(string)
            stderr: error: $SCHEMAS/unknowntypes.json: /types/unknowntypes:index:Empty/enum: an enum needs at least one value
            stderr: error: $SCHEMAS/unknowntypes.json: /resources/unknowntypes:index:Res/inputProperties/length/type: unknown type "integr"; did you mean "integer"?
            stderr: error: $SCHEMAS/unknowntypes.json: /types/unknowntypes:index:Shape/type: an enum's type must be string, integer, number or boolean, not "object"
            stderr: error: $SCHEMAS/unknowntypes.json: /resources/unknowntypes:index:Res/inputProperties/things: an array type needs `items`
            stderr: error: $SCHEMAS/unknowntypes.json: /resources/unknowntypes:index:Res/inputProperties/weird/type: unknown type "tuple"; expected one of boolean, integer, number, string, array, object
            stderr: error: $SCHEMAS/unknowntypes.json: /resources/unknowntypes:index:Res/inputProperties/what: a type needs `type`, `$ref` or `oneOf`
            exit 2
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
            stderr: error: `--schema-dir` needs a directory
            stderr:
            stderr: usage: pcl schema [--schema-dir DIR]... PACKAGE|TOKEN|FILE.json
            stderr:
            stderr:   PACKAGE     list the package's resources, functions and types
            stderr:   TOKEN       print a resource's input and output types, a function's argument and
            stderr:               result types, or a type's definition (e.g. random:index/randomPet:RandomPet)
            stderr:   FILE.json   list the package in that schema file
            stderr:
            stderr: Schemas are looked up as NAME.json, NAME-VERSION.json or NAME/schema.json in each
            stderr: --schema-dir, then in the directories of PCL_SCHEMA_PATH; the highest version wins.
            exit 2
            $ pcl schema --schema-dir /does/not/exist x
            stderr: error: schema directory /does/not/exist does not exist
            exit 2
            $ pcl schema --bogus x
            stderr: error: unknown option `--bogus` for `pcl schema`
            stderr:
            stderr: usage: pcl schema [--schema-dir DIR]... PACKAGE|TOKEN|FILE.json
            stderr:
            stderr:   PACKAGE     list the package's resources, functions and types
            stderr:   TOKEN       print a resource's input and output types, a function's argument and
            stderr:               result types, or a type's definition (e.g. random:index/randomPet:RandomPet)
            stderr:   FILE.json   list the package in that schema file
            stderr:
            stderr: Schemas are looked up as NAME.json, NAME-VERSION.json or NAME/schema.json in each
            stderr: --schema-dir, then in the directories of PCL_SCHEMA_PATH; the highest version wins.
            exit 2
            $ pcl schema
            stderr: error: `pcl schema` takes one PACKAGE, TOKEN or FILE.json
            stderr:
            stderr: usage: pcl schema [--schema-dir DIR]... PACKAGE|TOKEN|FILE.json
            stderr:
            stderr:   PACKAGE     list the package's resources, functions and types
            stderr:   TOKEN       print a resource's input and output types, a function's argument and
            stderr:               result types, or a type's definition (e.g. random:index/randomPet:RandomPet)
            stderr:   FILE.json   list the package in that schema file
            stderr:
            stderr: Schemas are looked up as NAME.json, NAME-VERSION.json or NAME/schema.json in each
            stderr: --schema-dir, then in the directories of PCL_SCHEMA_PATH; the highest version wins.
            exit 2
        "#]],
    );
}

#[test]
fn not_utf8_names_the_byte() {
    let dir = std::env::temp_dir().join(format!("pcl-schema-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
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
    let _ = std::fs::remove_dir_all(&dir);
}
