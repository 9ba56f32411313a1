//! Fuzz target: any UTF-8 input parses without panicking, the tree reproduces the input byte
//! for byte, every error lies inside the input, and the parser never reaches its step limit
//! (a stuck grammar loop, reported as `parser-stopped`). Reparsing after an edit (a digit
//! inserted in the middle, a character removed at a third) equals parsing the edited text,
//! also when told where the edit is (as the language server tells the host). Parsing from
//! a small window of tokens, as large files are parsed, gives the same tree and errors.
//! Every item with an identifier `invoke`, parsed or reparsed, is marked as one that may
//! call it (the outline looks for `invoke` calls only there). The flat tree's items are the
//! rowan root's: the same nodes, equal to handles made from them, at the same starts.
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
    let step = 1 + data.len() % 5;
    if let Some(windowed) = pcl_syntax::parse_in_windows(text, step, 2 * step) {
        assert_eq!(windowed, parse, "parsed from windows of {step} tokens");
    }
    let lexed_ahead =
        pcl_syntax::with_lexing_ahead(|| pcl_syntax::parse_in_windows(text, step, 2 * step));
    if let Some(windowed) = lexed_ahead {
        assert_eq!(windowed, parse, "parsed from windows of {step} tokens lexed ahead");
    }
    let boundary = |mut at: usize| {
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let size = |n: usize| pcl_syntax::TextSize::try_from(n).expect("fuzz inputs are small");
    let changed = |start: usize, old_end: usize, new_end: usize| pcl_syntax::ChangedRange {
        start: size(start),
        old_end: size(old_end),
        new_end: size(new_end),
    };
    let mut inserted = text.to_owned();
    let middle = boundary(text.len() / 2);
    inserted.insert(middle, '1');
    let mut removed = text.to_owned();
    let at = boundary(text.len() / 3);
    let removed_len = removed[at..].chars().next().map_or(0, char::len_utf8);
    removed.replace_range(at..at + removed_len, "");
    for (edited, range) in [
        (inserted, changed(middle, middle, middle + 1)),
        (removed, changed(at, at + removed_len, at)),
    ] {
        let full = pcl_syntax::parse(&edited);
        let reparsed = parse.reparse(text, &edited);
        assert_eq!(reparsed, full);
        assert_eq!(parse.reparse_changed(text, &edited, Some(range)), full);
        assert_invoking_items_marked(&reparsed);
    }
    assert_invoking_items_marked(&parse);
    assert_flat_items_are_the_roots(&parse);
});

/// The parse's items (handles of its flat tree) are its rowan root's items.
fn assert_flat_items_are_the_roots(parse: &pcl_syntax::Parse) {
    let items = parse.item_syntaxes().into_owned();
    let nodes = parse.top_level_items();
    assert_eq!(items.len(), nodes.len());
    let starts: Vec<_> = nodes.iter().map(|(_, at)| *at).collect();
    assert_eq!(parse.item_starts(), starts);
    for (item, (node, _)) in items.iter().zip(&nodes) {
        assert!(std::ptr::eq::<pcl_syntax::GreenNodeData>(&**item.green(), &**node));
        assert_eq!(*item, pcl_syntax::ItemSyntax::from_green(node, item.may_invoke()));
    }
}

/// Every top-level item with an identifier `invoke` is marked as one that may call it.
fn assert_invoking_items_marked(parse: &pcl_syntax::Parse) {
    for item in parse.top_level_item_nodes() {
        let node = pcl_syntax::SyntaxNode::new_root(item.to_owned());
        let invokes = (node.descendants_with_tokens())
            .filter_map(|element| element.into_token())
            .any(|token| {
                token.kind() == pcl_syntax::SyntaxKind::IDENT && token.text() == pcl_syntax::INVOKE
            });
        assert!(!invokes || parse.item_may_invoke(item), "not marked: {node}");
    }
}
