//! Randomized robustness: seeded mutations of our fixture schemas (bytes deleted,
//! duplicated or replaced by JSON punctuation) never panic when loaded and described;
//! every failure is an error value.

use pcl_test_utils::generate::Rng;
use pcl_test_utils::{files_with_extensions, test_data_dir};

use crate::tests::TestDb;
use crate::{SchemaLoader, SearchPath, describe_package, describe_token, package_index};

const PUNCTUATION: &[u8] = b"{}[]\":,\\ 0a-.#/$";

fn mutate(text: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = text.to_vec();
    for _ in 0..1 + rng.below(4) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.below(bytes.len());
        match rng.below(3) {
            0 => {
                let len = (1 + rng.below(8)).min(bytes.len() - at);
                bytes.drain(at..at + len);
            }
            1 => {
                let end = (at + 1 + rng.below(16)).min(bytes.len());
                let copy: Vec<u8> = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => bytes[at] = PUNCTUATION[rng.below(PUNCTUATION.len())],
        }
    }
    bytes
}

#[test]
fn mutated_schemas_never_panic() {
    let dir = test_data_dir().join("schemas");
    let scratch = pcl_test_utils::ScratchDir::new("schema-mutations");
    let mut rng = Rng::new(0x5c4e);
    let mut loaded = 0;
    for path in files_with_extensions(&dir, &["json"]) {
        let original = std::fs::read(&path).expect("fixture");
        for round in 0..60 {
            let mutated = mutate(&original, &mut rng);
            let file = scratch.join(format!("m{round}.json"));
            std::fs::write(&file, &mutated).expect("write");
            let mut db = TestDb::default();
            let mut loader = SchemaLoader::new(SearchPath::new(vec![dir.clone()]));
            let Ok(source) = loader.load_file(&mut db, &file) else {
                continue;
            };
            loaded += 1;
            let _ = describe_package(&db, source);
            let index = package_index(&db, source)
                .as_ref()
                .expect("loaded packages are indexed");
            for (kind, token) in index.items() {
                let _ = describe_token(&db, source, kind, &token);
            }
        }
    }
    assert!(
        loaded > 100,
        "too few mutants loaded ({loaded}) to exercise decoding"
    );
}

/// Inputs the `schema` fuzz target found (`tests/data/fuzz/schema/`), run as it runs them.
#[test]
fn fuzz_regressions() {
    let dir = test_data_dir().join("fuzz").join("schema");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let bytes = std::fs::read(entry.path()).unwrap_or_default();
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let mut db = TestDb::default();
        let mut loader = SchemaLoader::new(SearchPath::new(Vec::new()));
        let Ok(read) = loader.read_text(None, "fuzz.json".into(), std::sync::Arc::from(text))
        else {
            continue;
        };
        let source = loader.apply(&mut db, read)[0];
        let _ = describe_package(&db, source);
        if let Ok(index) = package_index(&db, source) {
            for (kind, token) in index.items() {
                let _ = describe_token(&db, source, kind, &token);
            }
        }
    }
}
