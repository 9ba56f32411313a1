//! Laziness: describing one resource decodes that resource and the types it reaches,
//! not the rest of the package; asking again decodes nothing.

use pcl_base_db::ExecutionLog;
use pcl_test_utils::test_data_dir;
use smol_str::SmolStr;

use crate::tests::TestDb;
use crate::{ItemKind, SchemaLoader, SearchPath, describe_token};

#[test]
fn one_token_decodes_only_what_it_reaches() {
    let log = ExecutionLog::default();
    let mut db = TestDb::with_log(&log);
    let dir = test_data_dir().join("schemas");
    let mut loader = SchemaLoader::new(SearchPath::new(vec![dir.clone()]));
    let source = loader
        .load_file(&mut db, &dir.join("recursion.json"))
        .expect("loads");
    let decodes = || log.count("decode_item");
    let before = decodes();
    let token = SmolStr::new("recursion:index:Tree");
    describe_token(&db, source, ItemKind::Resource, &token).expect("describes");
    // The resource only: its `root` property is a schema object type, whose properties
    // are not needed to describe the resource.
    assert_eq!(
        decodes() - before,
        2,
        "the resource and the referenced type's kind: {:?}",
        log.take()
    );
    let after_first = decodes();
    describe_token(&db, source, ItemKind::Resource, &token).expect("describes");
    assert_eq!(decodes(), after_first, "asking again decodes nothing");
}

/// Loading another package leaves what was lowered from the first one valid: the lookup
/// of a package by name is backdated, so no lowering re-runs.
#[test]
fn loading_another_package_keeps_lowered_types() {
    let log = ExecutionLog::default();
    let mut db = TestDb::with_log(&log);
    let dir = test_data_dir().join("schemas");
    let mut loader = SchemaLoader::new(SearchPath::new(vec![dir.clone()]));
    let source = loader
        .load_file(&mut db, &dir.join("recursion.json"))
        .expect("loads");
    let token = SmolStr::new("recursion:index:Tree");
    describe_token(&db, source, ItemKind::Resource, &token).expect("describes");
    loader
        .load_file(&mut db, &dir.join("tok-1.2.3.json"))
        .expect("loads");
    log.take();
    describe_token(&db, source, ItemKind::Resource, &token).expect("describes");
    let executed = log.take();
    let lowering: Vec<&String> = executed
        .iter()
        .filter(|key| !key.starts_with("package_named_query"))
        .collect();
    assert!(
        lowering.is_empty(),
        "re-ran after loading another package: {lowering:?}"
    );
}
