//! Fuzz target: any UTF-8 input parses without panicking, the tree reproduces the input byte
//! for byte, every error lies inside the input, and the parser never reaches its step limit
//! (a stuck grammar loop, reported as `parser-stopped`). Reparsing after an edit (a digit
//! inserted in the middle, a character removed at a third) equals parsing the edited text.
//!
//! `cargo +nightly fuzz run parse` from `fuzz/`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parse = pcl_syntax::parse(text);
    assert_eq!(parse.syntax_node().to_string(), text);
    for error in parse.errors() {
        assert_ne!(error.code.name(), "parser-stopped", "the parser got stuck");
        assert!(usize::from(error.range.end()) <= text.len());
        if let Some((related, _)) = &error.related {
            assert!(usize::from(related.end()) <= text.len());
        }
    }
    let boundary = |mut at: usize| {
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let mut inserted = text.to_owned();
    inserted.insert(boundary(text.len() / 2), '1');
    let mut removed = text.to_owned();
    let at = boundary(text.len() / 3);
    if let Some(c) = removed[at..].chars().next() {
        removed.replace_range(at..at + c.len_utf8(), "");
    }
    for edited in [inserted, removed] {
        assert_eq!(parse.reparse(text, &edited), pcl_syntax::parse(&edited));
    }
});
