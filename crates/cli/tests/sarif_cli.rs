//! `pcl check --format sarif` writes one SARIF 2.1.0 document that validates against the
//! schema committed under `tests/data/sarif/`, with a rule per diagnostic code and a
//! result per diagnostic.

use std::process::Command;

use pcl_test_utils::{project_root, test_data_dir};

fn sarif(args: &[&str]) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(args)
        .current_dir(project_root())
        .output()
        .expect("the pcl binary runs");
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

fn validate(document: &serde_json::Value) {
    if let Err(error) = validation(document) {
        panic!("invalid SARIF: {error}\n{document:#}");
    }
}

fn validation(document: &serde_json::Value) -> Result<(), String> {
    let schema_path = test_data_dir().join("sarif/sarif-schema-2.1.0.json");
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&schema_path).expect("the schema is committed"),
    )
    .expect("the schema is JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("sarif.json", schema)
        .expect("the schema is added");
    let index = compiler
        .compile("sarif.json", &mut schemas)
        .expect("the schema compiles");
    schemas
        .validate(document, index)
        .map_err(|error| format!("{error:#}"))
}

#[test]
fn the_validator_rejects_broken_documents() {
    let broken = serde_json::json!({ "version": "2.1.0", "runs": [{ "results": [] }] });
    assert!(
        validation(&broken).is_err(),
        "a run without a tool is invalid"
    );
}

#[test]
fn check_writes_valid_sarif() {
    let document = sarif(&[
        "check",
        "--format",
        "sarif",
        "--schema-dir",
        "tests/data/programs/schemas",
        "tests/data/programs/mistakes",
    ]);
    validate(&document);
    let run = &document["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), pcl_diagnostics::codes::ALL.len());
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 8);
    let first = &results[0];
    assert_eq!(first["ruleId"], "PCL4007");
    assert_eq!(
        first["locations"][0]["physicalLocation"]["region"]["startLine"],
        12
    );
    let index = first["ruleIndex"].as_u64().expect("an index") as usize;
    assert_eq!(rules[index]["id"], "PCL4007");
}

#[test]
fn a_clean_run_and_parse_errors_are_valid_sarif_too() {
    let clean = sarif(&[
        "check",
        "--format",
        "sarif",
        "--schema-dir",
        "tests/data/programs/schemas",
        "tests/data/programs/example",
    ]);
    validate(&clean);
    assert_eq!(
        clean["runs"][0]["results"].as_array().map(Vec::len),
        Some(0)
    );
    let parse = sarif(&["parse", "--format", "sarif", "tests/data/parser/err"]);
    validate(&parse);
    assert!(
        parse["runs"][0]["results"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
    );
}
