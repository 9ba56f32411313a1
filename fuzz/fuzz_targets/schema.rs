//! Fuzz target: any schema text (seeded with real schemas, mutated) loads or is rejected
//! with an error, and every item of a schema that indexes decodes, lowers and describes
//! without panicking.

#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use pcl_ide::RootDatabase;
use pcl_schema::{SchemaLoader, SearchPath};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut db = RootDatabase::default();
    let mut loader = SchemaLoader::new(SearchPath::new(Vec::new()));
    let Ok(read) = loader.read_text(None, "fuzz.json".into(), Arc::from(text)) else {
        return;
    };
    let source = loader.apply(&mut db, read)[0];
    let _ = pcl_schema::describe_package(&db, source);
    let Ok(index) = pcl_schema::package_index(&db, source) else { return };
    for (kind, token) in index.items() {
        let _ = pcl_schema::describe_token(&db, source, kind, &token);
    }
});
