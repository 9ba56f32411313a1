//! Every schema in the shared corpus (`schemas/` and `schemas/conformance/`) loads, and
//! every resource, function, type and provider in it lowers without errors, except the
//! files listed in `tests/data/schemas/broken-corpus-schemas.tsv`, which must fail
//! with the errors we expect. Cross-package references resolve against the file's own
//! directory, as programs would find them.

use std::collections::BTreeMap;
use std::path::Path;

use pcl_test_utils::{corpus_dir, files_with_extensions, test_data_dir};

use crate::tests::TestDb;
use crate::{SchemaLoader, SearchPath, describe_token, package_index};

/// Every error of loading and lowering everything in one schema file.
fn schema_errors(path: &Path) -> Vec<String> {
    let dir = path.parent().expect("files have parents").to_owned();
    let mut db = TestDb::default();
    let mut loader = SchemaLoader::new(SearchPath::new(vec![dir]));
    let source = match loader.load_file(&mut db, path) {
        Ok(source) => source,
        Err(error) => return vec![error.to_string()],
    };
    let index = package_index(&db, source)
        .as_ref()
        .expect("loaded packages are indexed");
    let mut errors = Vec::new();
    for (kind, token) in index.items() {
        match describe_token(&db, source, kind, &token) {
            Ok((_, found)) => errors.extend(found.iter().map(ToString::to_string)),
            Err(error) => errors.push(error.to_string()),
        }
    }
    errors
}

#[test]
fn corpus_schemas_load() {
    let Some(corpus) = corpus_dir() else { return };
    let schemas = corpus.join("schemas");
    let files = files_with_extensions(&schemas, &["json"]);
    assert!(
        files.len() > 100,
        "expected 100+ schemas under {}",
        schemas.display()
    );

    let listed = std::fs::read_to_string(test_data_dir().join("schemas/broken-corpus-schemas.tsv"))
        .expect("the broken-schema list");
    let broken: BTreeMap<&str, &str> = listed
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| line.split_once('\t'))
        .collect();

    let mut failures = Vec::new();
    for path in &files {
        let relative = path
            .strip_prefix(&schemas)
            .expect("below the corpus")
            .to_string_lossy()
            .into_owned();
        let errors = schema_errors(path);
        match (broken.get(relative.as_str()), errors.is_empty()) {
            (None, false) => failures.push(format!(
                "{relative} fails to load:\n  {}",
                errors.join("\n  ")
            )),
            (Some(reason), true) => failures.push(format!(
                "{relative} is listed as broken ({reason}) but loads cleanly"
            )),
            (Some(expected), false) if !errors.iter().any(|e| e.contains(expected)) => failures
                .push(format!(
                    "{relative}: expected an error containing {expected:?}, got:\n  {}",
                    errors.join("\n  ")
                )),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
