//! Snapshot tests over `tests/data/fmt/*.pp` (each formatted into the `.fmt` file beside
//! it, which must also be a fixed point), and the invariants on the shared corpus: every
//! file formats idempotently and keeps its significant tokens.

use pcl_syntax::{LexedText, SyntaxKind};

use crate::format;

/// The tokens that carry meaning: everything but whitespace, with their text.
fn significant_tokens(text: &str) -> Vec<(SyntaxKind, String)> {
    let lexed = LexedText::new(text);
    (0..lexed.len())
        .filter(|&idx| lexed.kind(idx) != SyntaxKind::WHITESPACE)
        .map(|idx| (lexed.kind(idx), lexed.text(idx).to_owned()))
        .collect()
}

/// Checks the formatter's promises on one text that parses; returns the formatted text.
fn assert_formats_soundly(name: &str, text: &str) -> String {
    let formatted = match format(text) {
        Ok(formatted) => formatted,
        Err(errors) => panic!("{name}: a file without syntax errors was refused: {errors:?}"),
    };
    let again = format(&formatted).unwrap_or_else(|errors| {
        panic!("{name}: the formatted text does not parse: {errors:?}\n{formatted}")
    });
    assert!(again == formatted, "{name}: formatting is not idempotent");
    assert!(
        significant_tokens(text) == significant_tokens(&formatted),
        "{name}: formatting changed the tokens"
    );
    assert_eq!(
        text.lines().count(),
        formatted.lines().count(),
        "{name}: formatting changed the number of lines"
    );
    formatted
}

#[test]
fn fixtures() {
    let dir = pcl_test_utils::test_data_dir().join("fmt");
    let fixtures = pcl_test_utils::files_with_extensions(&dir, &["pp"]);
    assert!(!fixtures.is_empty(), "no fixtures in {}", dir.display());
    for path in fixtures {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let name = path.display().to_string();
        let formatted = assert_formats_soundly(&name, &text);
        assert_matches_snapshot(&path.with_extension("fmt"), &formatted);
    }
}

/// Compares with the snapshot byte for byte (expect-test would normalize `\r\n`);
/// `UPDATE_EXPECT=1` rewrites it.
fn assert_matches_snapshot(path: &std::path::Path, actual: &str) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, actual).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} differs (UPDATE_EXPECT=1 rewrites it):\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

#[test]
fn a_file_with_syntax_errors_is_refused() {
    let errors = format("a = {\n  b =\n").err().unwrap_or_default();
    assert!(!errors.is_empty());
}

#[test]
fn the_corpus_formats_idempotently_and_keeps_its_tokens() {
    let Some(corpus) = pcl_test_utils::corpus_dir() else {
        return;
    };
    let files = pcl_test_utils::files_with_extensions(&corpus, &["pp", "hcl", "tf"]);
    let mut formatted = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        if !pcl_syntax::parse(&text).errors().is_empty() {
            continue;
        }
        assert_formats_soundly(&path.display().to_string(), &text);
        formatted += 1;
    }
    assert!(300 < formatted, "only {formatted} corpus files formatted");
}

/// Inputs the `fmt` fuzz target found (`tests/data/fuzz/fmt/`), checked as it checks them.
#[test]
fn fuzz_regressions() {
    let dir = pcl_test_utils::test_data_dir().join("fuzz").join("fmt");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let bytes = std::fs::read(entry.path()).unwrap_or_default();
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        if pcl_syntax::parse(text).errors().is_empty() {
            assert_formats_soundly(&entry.path().display().to_string(), text);
        }
    }
}

/// A big file takes the parallel path; its result is the same, and its syntax errors are
/// found there too.
#[test]
fn big_files_format_the_same_in_parallel() {
    let block = "resource \"r\" \"t\" {\n  a= 1\n    bbb = \"x\"\n}\n";
    let big = block.repeat(crate::PARALLEL_FROM_BYTES / block.len() + 1);
    let formatted = format(&big).unwrap_or_default();
    let expected = "resource \"r\" \"t\" {\n  a   = 1\n  bbb = \"x\"\n}\n";
    assert_eq!(
        formatted,
        expected.repeat(crate::PARALLEL_FROM_BYTES / block.len() + 1)
    );
    let broken = format!("{big}x = {{\n");
    assert!(format(&broken).is_err());
}

/// A big file of 20,000 unclosed blocks, each inside the one before: its layout (thrown
/// away) once indented each line by two more spaces than the last, 800 MB of them.
#[test]
fn unclosed_blocks_are_not_indented_without_end() {
    let text = "resource \"r\" \"t\" {\n  a = 1\n".repeat(20_000);
    assert!(crate::PARALLEL_FROM_BYTES < text.len());
    assert!(format(&text).is_err());
    let laid_out = crate::render(&LexedText::new(&text), &text);
    let most = text.len() + text.lines().count() * 2 * crate::layout::MAX_LEVELS;
    assert!(laid_out.len() <= most, "{} bytes", laid_out.len());
}

/// The layout runs on text whose syntax is still being checked: broken files (every
/// parser and lexer error fixture, the fuzz findings) must not make it panic.
#[test]
fn laying_out_broken_files_does_not_panic() {
    let data = pcl_test_utils::test_data_dir();
    let mut n_files = 0;
    for dir in ["parser/err", "lexer/err", "fuzz"] {
        for path in pcl_test_utils::files_with_extensions(&data.join(dir), &["pp"]) {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let _ = crate::edits(&text);
            n_files += 1;
        }
    }
    assert!(40 < n_files, "only {n_files} broken files");
}
