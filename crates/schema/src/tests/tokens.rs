//! Token spellings resolve to schema items as programs write them: exact tokens,
//! canonical keys, other module spellings, two-part tokens, aliases and providers.

use pcl_test_utils::test_data_dir;

use crate::tests::TestDb;
use crate::{ItemKind, SchemaLoader, SearchPath, resolve_token, suggest_tokens};

#[test]
fn spellings_resolve() {
    let dir = test_data_dir().join("schemas");
    let mut db = TestDb::default();
    let mut loader = SchemaLoader::new(SearchPath::new(vec![dir.clone()]));
    let source = loader
        .load_file(&mut db, &dir.join("tok-1.2.3.json"))
        .expect("loads");
    let cases: [(&str, Option<(ItemKind, &str)>); 13] = [
        (
            "tok:index/thing:Thing",
            Some((ItemKind::Resource, "tok:index/thing:Thing")),
        ),
        (
            "tok:index:Thing",
            Some((ItemKind::Resource, "tok:index/thing:Thing")),
        ),
        (
            "tok::Thing",
            Some((ItemKind::Resource, "tok:index/thing:Thing")),
        ),
        (
            "tok:Thing",
            Some((ItemKind::Resource, "tok:index/thing:Thing")),
        ),
        (
            "tok:storage:Bucket",
            Some((ItemKind::Resource, "tok:storage/bucket:Bucket")),
        ),
        (
            "tok:storage/anything:Bucket",
            Some((ItemKind::Resource, "tok:storage/bucket:Bucket")),
        ),
        (
            "tok:legacy:OldThing",
            Some((ItemKind::Resource, "tok:index/thing:Thing")),
        ),
        (
            "tok:index:getThing",
            Some((ItemKind::Function, "tok:index/getThing:getThing")),
        ),
        (
            "tok:getThing",
            Some((ItemKind::Function, "tok:index/getThing:getThing")),
        ),
        (
            "pulumi:providers:tok",
            Some((ItemKind::Provider, "pulumi:providers:tok")),
        ),
        ("tok:index:thing", None),
        ("tok:storage:Bucket:Extra", None),
        ("pulumi:providers:other", None),
    ];
    for (written, expected) in cases {
        let resolved = resolve_token(&db, source, written);
        let resolved = resolved
            .as_ref()
            .map(|(kind, token)| (*kind, token.as_str()));
        assert_eq!(resolved, expected, "{written}");
    }
    assert_eq!(
        suggest_tokens(&db, source, "tok:index:thing"),
        ["tok:index/thing:Thing"]
    );
    assert_eq!(
        suggest_tokens(&db, source, "tok:index:gettThing"),
        ["tok:index/getThing:getThing"]
    );
    assert!(suggest_tokens(&db, source, "tok:index:Completely").is_empty());
}
