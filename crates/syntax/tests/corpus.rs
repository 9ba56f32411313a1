//! The shared corpus: every real PCL program parses without errors and round-trips exactly,
//! and the HCL spec suite's inputs give syntax errors exactly where its `.t` files expect them.
//!
//! The corpus is found through `PCL_CORPUS` or `../shared/corpus`; these tests skip only
//! on a fresh clone without it (see `pcl_test_utils::corpus_dir`), and fail in CI.

use std::path::{Path, PathBuf};

use pcl_syntax::ast;

/// `.t` files whose diagnostics come from decoding against a spec (hcldec), not from syntax.
const DECODER_DIAGNOSTICS: &[(&str, &str)] = &[(
    "structure/attributes/unexpected.t",
    "an attribute not declared in the .hcldec spec; the syntax is valid",
)];

fn corpus() -> Option<PathBuf> {
    pcl_test_utils::corpus_dir()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

#[test]
fn corpus_programs_parse_without_errors_and_round_trip() {
    let Some(corpus) = corpus() else { return };
    let mut files = pcl_test_utils::files_with_extensions(&corpus, &["pp"]);
    files.extend(pcl_test_utils::files_with_extensions(
        &corpus.join("hcl-spec/fuzz-decoded/FuzzParseConfig"),
        &["hcl"],
    ));
    assert!(
        files.len() > 300,
        "expected the whole corpus, found {} files",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let text = read(path);
        let parse = pcl_syntax::parse(&text);
        if parse.syntax_node().to_string() != text {
            failures.push(format!(
                "{}: the tree does not reproduce the input",
                path.display()
            ));
        }
        for err in parse.errors() {
            failures.push(format!(
                "{}: {:?}: {}",
                path.display(),
                err.range,
                err.message
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn spec_suite_errors_are_where_expected() {
    let Some(corpus) = corpus() else { return };
    let suite = corpus.join("hcl-spec/specsuite/tests");
    let inputs = pcl_test_utils::files_with_extensions(&suite, &["hcl"]);
    assert!(
        inputs.len() > 10,
        "spec suite not found in {}",
        suite.display()
    );
    let mut n_expected = 0;
    let mut failures = Vec::new();
    for input in &inputs {
        let text = read(input);
        let parse = pcl_syntax::parse(&text);
        assert_eq!(parse.syntax_node().to_string(), text, "{}", input.display());
        let test_file = input.with_extension("t");
        let relative = test_file.strip_prefix(&suite).unwrap_or(&test_file);
        let decoder_only = DECODER_DIAGNOSTICS
            .iter()
            .any(|(path, _)| Path::new(path) == relative);
        let expected = if test_file.exists() && !decoder_only {
            expected_error_ranges(&read(&test_file))
        } else {
            Vec::new()
        };
        n_expected += expected.len();
        let actual: Vec<(u32, u32)> = parse
            .errors()
            .iter()
            .map(|err| (u32::from(err.range.start()), u32::from(err.range.end())))
            .collect();
        if actual != expected {
            failures.push(format!(
                "{}: expected errors at {expected:?}, got {:?}",
                input.display(),
                parse.errors()
            ));
        }
    }
    assert!(
        n_expected >= 7,
        "expected the spec suite's syntax diagnostics, found {n_expected}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `from.byte`/`to.byte` ranges of `diagnostics { error { … } }` in a `.t` file, read
/// with our own parser.
fn expected_error_ranges(test_file: &str) -> Vec<(u32, u32)> {
    let parse = pcl_syntax::parse(test_file);
    assert!(
        parse.errors().is_empty(),
        "the .t file must parse: {:?}",
        parse.errors()
    );
    let mut res = Vec::new();
    let Some(body) = parse.tree().body() else {
        return res;
    };
    for diagnostics in blocks_named(&body, "diagnostics") {
        for error in diagnostics
            .body()
            .iter()
            .flat_map(|body| blocks_named(body, "error"))
        {
            let Some(error_body) = error.body() else {
                continue;
            };
            let byte = |name: &str| {
                blocks_named(&error_body, name)
                    .into_iter()
                    .find_map(|block| byte_attribute(&block))
                    .unwrap_or_else(|| panic!("`{name}.byte` missing in {test_file}"))
            };
            res.push((byte("from"), byte("to")));
        }
    }
    res.sort_unstable();
    res
}

fn blocks_named(body: &ast::Body, name: &str) -> Vec<ast::Block> {
    body.blocks()
        .filter(|block| block.type_name().is_some_and(|tok| tok.text() == name))
        .collect()
}

fn byte_attribute(block: &ast::Block) -> Option<u32> {
    let attribute = block
        .body()?
        .attributes()
        .find(|attr| attr.name().is_some_and(|tok| tok.text() == "byte"))?;
    let ast::Expr::Literal(literal) = attribute.value()? else {
        return None;
    };
    let value = literal.number_value()?.ok()?;
    u32::try_from(value.to_integer()?).ok()
}

#[test]
fn decoder_only_diagnostics_have_reasons() {
    let Some(corpus) = corpus() else { return };
    let suite = corpus.join("hcl-spec/specsuite/tests");
    for (path, reason) in DECODER_DIAGNOSTICS {
        assert!(suite.join(path).exists(), "{path} is listed but missing");
        assert!(!reason.is_empty());
    }
}
