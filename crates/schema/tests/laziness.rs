//! Laziness: describing one resource decodes that resource and the types it reaches,
//! not the rest of the package; asking again decodes nothing.

use std::sync::{Arc, Mutex};

use pcl_ide::RootDatabase;
use pcl_schema::{ItemKind, SchemaLoader, SearchPath, describe_token};
use pcl_test_utils::test_data_dir;
use smol_str::SmolStr;

#[test]
fn one_token_decodes_only_what_it_reaches() {
    let executed: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = executed.clone();
    let mut db = RootDatabase::with_event_callback(move |event| {
        if let salsa::EventKind::WillExecute { database_key } = event.kind {
            log.lock()
                .map(|mut log| log.push(format!("{database_key:?}")))
                .unwrap_or_default();
        }
    });
    let dir = test_data_dir().join("schemas");
    let mut loader = SchemaLoader::new(SearchPath::new(vec![dir.clone()]));
    let source = loader
        .load_file(&mut db, &dir.join("recursion.json"))
        .expect("loads");
    let decodes = || {
        executed
            .lock()
            .map(|log| {
                log.iter()
                    .filter(|key| key.starts_with("decode_item"))
                    .count()
            })
            .unwrap_or_default()
    };
    let before = decodes();
    let token = SmolStr::new("recursion:index:Tree");
    describe_token(&db, source, ItemKind::Resource, &token).expect("describes");
    // The resource only: its `root` property is a schema object type, whose properties
    // are not needed to describe the resource.
    assert_eq!(
        decodes() - before,
        2,
        "the resource and the referenced type's kind: {:?}",
        executed.lock().map(|l| l.clone())
    );
    let after_first = decodes();
    describe_token(&db, source, ItemKind::Resource, &token).expect("describes");
    assert_eq!(decodes(), after_first, "asking again decodes nothing");
}
