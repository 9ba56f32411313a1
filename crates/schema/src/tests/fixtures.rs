//! Snapshot tests over our own tiny schemas in `tests/data/schemas/`: each `NAME.json`
//! is loaded (with that directory as the search path, so cross-package references
//! resolve) and every item is described; `NAME.txt` holds the expected listing, types
//! and errors. Re-bless with `UPDATE_EXPECT=1`.

use pcl_test_utils::{files_with_extensions, test_data_dir};

use crate::tests::TestDb;
use crate::{SchemaLoader, SearchPath, describe_package, describe_token, package_index};

#[test]
fn schema_fixtures() {
    let dir = test_data_dir().join("schemas");
    let files: Vec<_> = files_with_extensions(&dir, &["json"])
        .into_iter()
        .filter(|path| path.parent() == Some(dir.as_path()))
        .collect();
    assert!(
        files.len() >= 10,
        "schema fixtures missing in {}",
        dir.display()
    );
    for path in files {
        let mut db = TestDb::default();
        let mut loader = SchemaLoader::new(SearchPath::new(vec![dir.clone()]));
        let mut out = String::new();
        match loader.load_file(&mut db, &path) {
            Err(error) => out.push_str(&format!("load error[{}]: {error}\n", error.code())),
            Ok(source) => {
                out.push_str(&describe_package(&db, source).expect("indexed"));
                let index = package_index(&db, source).as_ref().expect("indexed");
                for (kind, token) in index.items() {
                    out.push('\n');
                    match describe_token(&db, source, kind, &token) {
                        Ok((text, errors)) => {
                            out.push_str(&text);
                            for error in errors {
                                out.push_str(&format!("error[{}]: {error}\n", error.code));
                            }
                        }
                        Err(error) => out.push_str(&format!(
                            "{kind:?} {token}: error[{}]: {error}\n",
                            error.code
                        )),
                    }
                }
            }
        }
        let out = out.replace(&format!("{}/", dir.display()), "");
        expect_test::expect_file![path.with_extension("txt")].assert_eq(&out);
    }
}
