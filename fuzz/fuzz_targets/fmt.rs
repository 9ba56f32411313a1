//! Fuzz target: laying out any input never panics; formatting any input that parses is
//! idempotent, keeps every significant token (kind and text) and keeps the number of lines.
//!
//! `cargo xtask fuzz fmt`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pcl_syntax::{LexedText, SyntaxKind};

fn significant_tokens(text: &str) -> Vec<(SyntaxKind, &str)> {
    let lexed = LexedText::new(text);
    (0..lexed.len())
        .filter(|&idx| lexed.kind(idx) != SyntaxKind::WHITESPACE)
        .map(|idx| (lexed.kind(idx), lexed.text(idx)))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The layout is defined on any text (big files are laid out while their syntax is
    // still being checked): it must not panic on broken input either.
    let _ = pcl_fmt::edits(text);
    let Ok(formatted) = pcl_fmt::format(text) else { return };
    let again = pcl_fmt::format(&formatted);
    assert!(again.as_deref() == Ok(formatted.as_str()), "not idempotent");
    assert!(significant_tokens(text) == significant_tokens(&formatted), "tokens changed");
    assert_eq!(text.lines().count(), formatted.lines().count(), "lines changed");
});
