//! Lazy schema loading against full decoding: "load a package and resolve one resource
//! (with the object types of its inputs)" against decoding every item of the package, and
//! against parsing the whole file into a `serde_json::Value`, on a generated 30 MB schema
//! and, when the shared corpus is present, the 2 MB kubernetes schema.
//!
//! `cargo bench -p pcl-benches --bench schema`.

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

use divan::Bencher;
use pcl_ide::RootDatabase;
use pcl_schema::{
    ItemKind, LoadedPackages, PackageSource, SchemaItem, decode_item, package_index, resource_types,
};
use pcl_types::TyKind;
use smol_str::SmolStr;

fn main() {
    divan::main();
}

/// (name, text, a resource token) of each input.
static INPUTS: LazyLock<Vec<(String, Arc<str>, String)>> = LazyLock::new(|| {
    let mut inputs = vec![(
        "generated-30mb".to_owned(),
        Arc::from(pcl_test_utils::schema::schema("big", 30_000_000, 7)),
        "big:mod7/res1357:Res1357".to_owned(),
    )];
    if let Some(corpus) = pcl_test_utils::corpus_dir() {
        let path = corpus.join("schemas/kubernetes-3.7.2.json");
        if let Ok(text) = std::fs::read_to_string(path) {
            inputs.push((
                "kubernetes-3.7.2".to_owned(),
                Arc::from(text),
                "kubernetes:apps/v1:Deployment".to_owned(),
            ));
        }
    }
    inputs
});

fn names() -> Vec<&'static str> {
    INPUTS.iter().map(|(name, _, _)| name.as_str()).collect()
}

fn input(name: &str) -> &'static (String, Arc<str>, String) {
    INPUTS
        .iter()
        .find(|(n, _, _)| n == name)
        .expect("known input")
}

/// A fresh database holding the schema text (untimed setup).
fn fresh(text: &Arc<str>) -> (RootDatabase, PackageSource) {
    let db = RootDatabase::default();
    let source = PackageSource::new(&db, SmolStr::new("bench.json"), text.clone());
    (db, source)
}

/// Index the package and register it under its keys, as the loader does, so that its
/// schema object types resolve. This is the "load" that every bench pays.
fn load(db: &mut RootDatabase, source: PackageSource) {
    let keys = match package_index(db, source) {
        Ok(index) => vec![index.name().clone(), index.key()],
        Err(_) => Vec::new(),
    };
    let packages: BTreeMap<SmolStr, PackageSource> =
        keys.into_iter().map(|key| (key, source)).collect();
    let _ = LoadedPackages::new(db, Arc::new(packages));
}

#[divan::bench(args = names(), sample_count = 10, sample_size = 1)]
fn index_and_one_resource(bencher: Bencher<'_, '_>, name: &str) {
    let (_, text, token) = input(name);
    bencher
        .with_inputs(|| fresh(text))
        .bench_local_values(|(mut db, source)| {
            load(&mut db, source);
            let item = SchemaItem::new(&db, source, ItemKind::Resource, SmolStr::new(token));
            let types = resource_types(&db, item).as_ref().expect("resource lowers");
            // Follow one input property into its schema object type.
            for property in &types.inputs {
                if let TyKind::Union(members) = property.ty.kind(&db) {
                    for member in members {
                        if let TyKind::Named(object) = member.kind(&db) {
                            divan::black_box(pcl_schema::named_object(&db, *object));
                        }
                    }
                }
            }
            db
        });
}

#[divan::bench(args = names(), sample_count = 10, sample_size = 1)]
fn decode_every_item(bencher: Bencher<'_, '_>, name: &str) {
    let (_, text, _) = input(name);
    bencher
        .with_inputs(|| fresh(text))
        .bench_local_values(|(mut db, source)| {
            load(&mut db, source);
            let index = package_index(&db, source).as_ref().expect("indexes");
            for (kind, section) in index.sections() {
                for token in section.tokens() {
                    let item = SchemaItem::new(&db, source, kind, token.clone());
                    divan::black_box(decode_item(&db, item).is_ok());
                }
            }
            db
        });
}

#[divan::bench(args = names(), sample_count = 10, sample_size = 1)]
fn serde_value_whole_file(bencher: Bencher<'_, '_>, name: &str) {
    let (_, text, _) = input(name);
    bencher
        .bench_local(|| divan::black_box(serde_json::from_str::<serde_json::Value>(text).is_ok()));
}
