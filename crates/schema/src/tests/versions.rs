//! Versions: a program's package is the highest version on the search path, while a
//! reference from another package (`/kube/v1.0.0/schema.json#/...`) gets the version it
//! names, whichever is loaded first.

use pcl_test_utils::test_data_dir;
use pcl_types::{Ty, TyKind};
use smol_str::SmolStr;

use crate::tests::TestDb;
use crate::{ItemKind, SchemaItem, SchemaLoader, SearchPath, named_object, resource_types};

/// The property names of the schema object types inside `ty`.
fn object_fields(db: &TestDb, ty: Ty<'_>) -> Vec<String> {
    let mut names = Vec::new();
    if let TyKind::Union(members) = ty.kind(db) {
        for member in members {
            if let TyKind::Named(object) = member.kind(db) {
                names.extend(
                    named_object(db, *object)
                        .fields
                        .iter()
                        .map(|(name, _)| name.to_string()),
                );
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

fn meta_fields(db: &TestDb, source: crate::PackageSource, token: &str) -> Vec<String> {
    let item = SchemaItem::new(db, source, ItemKind::Resource, SmolStr::new(token));
    let types = resource_types(db, item).as_ref().expect("lowers");
    let meta = types
        .inputs
        .iter()
        .find(|p| &*p.name == "meta")
        .expect("a meta input");
    object_fields(db, meta.ty)
}

#[test]
fn references_get_the_version_they_name() {
    let dir = test_data_dir().join("schemas/versions");
    for cluster_first in [true, false] {
        let mut db = TestDb::default();
        let mut loader = SchemaLoader::new(SearchPath::new(vec![dir.clone()]));
        let (cluster, kube) = if cluster_first {
            let cluster = loader
                .load(&mut db, "cluster", None)
                .expect("cluster loads");
            (
                cluster,
                loader.load(&mut db, "kube", None).expect("kube loads"),
            )
        } else {
            let kube = loader.load(&mut db, "kube", None).expect("kube loads");
            (
                loader
                    .load(&mut db, "cluster", None)
                    .expect("cluster loads"),
                kube,
            )
        };
        assert_eq!(
            meta_fields(&db, kube, "kube:index:Pod"),
            ["newField"],
            "the program's kube is 2.0.0"
        );
        assert_eq!(
            meta_fields(&db, cluster, "cluster:index:Cluster"),
            ["oldField"],
            "cluster's reference is kube 1.0.0"
        );
    }
}
