//! Data-driven snapshot tests over `tests/data/{lexer,parser}/{ok,err}` and the inline
//! `// test name` examples of the grammar, plus deep-nesting and mutation tests.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use expect_test::expect_file;

use crate::{
    GreenNodeData, ItemSyntax, LexedText, Parse, SyntaxKind, SyntaxNode, debug_tree, parse,
};

/// Renders tokens and lexer errors.
fn lex_dump(text: &str) -> String {
    let lexed = LexedText::new(text);
    let mut res = String::new();
    for idx in 0..lexed.len() {
        let range = lexed.range(idx);
        let _ = writeln!(
            res,
            "{:?}@{}..{} {:?}",
            lexed.kind(idx),
            u32::from(range.start()),
            u32::from(range.end()),
            lexed.text(idx)
        );
    }
    for err in lexed.errors() {
        render_error(&mut res, err.code, err.range, &err.message);
    }
    res
}

fn render_error(
    acc: &mut String,
    code: pcl_diagnostics::Code,
    range: crate::TextRange,
    message: &str,
) {
    let _ = writeln!(
        acc,
        "error[{code}] {}..{}: {message}",
        u32::from(range.start()),
        u32::from(range.end())
    );
}

/// Renders the tree and the errors of a parse.
fn parse_dump(parse: &Parse) -> String {
    let mut res = debug_tree(&parse.syntax_node());
    for err in parse.errors() {
        render_error(&mut res, err.code, err.range, &err.message);
        if let Some((range, label)) = &err.related {
            let _ = writeln!(
                res,
                "  related {}..{}: {label}",
                u32::from(range.start()),
                u32::from(range.end())
            );
        }
    }
    res
}

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let dir = pcl_test_utils::test_data_dir().join(dir);
    let files = pcl_test_utils::files_with_extensions(&dir, &["pp"]);
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

#[test]
fn lexer_fixtures() {
    for (dir, expect_errors) in [("lexer/ok", false), ("lexer/err", true)] {
        for path in fixtures(dir) {
            let text = read(&path);
            let lexed = LexedText::new(&text);
            assert_eq!(
                !lexed.errors().is_empty(),
                expect_errors,
                "{}: errors: {:?}",
                path.display(),
                lexed.errors()
            );
            expect_file![path.with_extension("txt")].assert_eq(&lex_dump(&text));
        }
    }
}

#[test]
fn parser_fixtures() {
    for (dir, expect_errors) in [("parser/ok", false), ("parser/err", true)] {
        for path in fixtures(dir) {
            let text = read(&path);
            let parse = parse(&text);
            assert_eq!(
                !parse.errors().is_empty(),
                expect_errors,
                "{}: errors: {:?}",
                path.display(),
                parse.errors()
            );
            assert_lossless(&text, &parse);
            expect_file![path.with_extension("rast")].assert_eq(&parse_dump(&parse));
        }
    }
}

/// The `// test name` examples above grammar rules, snapshotted in `tests/data/parser/inline`.
#[test]
fn parser_inline_tests() {
    let grammar_dir = pcl_test_utils::project_root().join("crates/syntax/src/grammar");
    let sources = pcl_test_utils::files_with_extensions(&grammar_dir, &["rs"]);
    let mut n_tests = 0;
    for source in sources {
        let text = read(&source);
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next() {
            let Some(name) = line.trim().strip_prefix("// test ") else {
                continue;
            };
            let mut program = String::new();
            while let Some(code) = lines
                .peek()
                .map(|it| it.trim())
                .filter(|it| !it.starts_with("///"))
                .and_then(|it| it.strip_prefix("//"))
            {
                program.push_str(code.strip_prefix(' ').unwrap_or(code));
                program.push('\n');
                lines.next();
            }
            let parse = parse(&program);
            assert!(
                parse.errors().is_empty(),
                "inline test {name}: {:?}",
                parse.errors()
            );
            let path = pcl_test_utils::test_data_dir().join(format!("parser/inline/{name}.rast"));
            expect_file![path].assert_eq(&format!("{program}---\n{}", parse_dump(&parse)));
            n_tests += 1;
        }
    }
    assert!(n_tests > 10, "found only {n_tests} inline tests");
}

fn assert_lossless(text: &str, parse: &Parse) {
    let root = parse.syntax_node();
    assert_eq!(root.to_string(), text, "the tree must reproduce the input");
    let len = text.len() as u32;
    for err in parse.errors() {
        let related = err.related.as_ref().map(|(range, _)| *range);
        for range in std::iter::once(err.range).chain(related) {
            assert!(u32::from(range.end()) <= len, "error out of range: {err:?}");
        }
    }
}

fn assert_nesting_limited(text: &str) {
    let parse = parse(text);
    assert_lossless(text, &parse);
    assert!(
        parse
            .errors()
            .iter()
            .any(|err| err.message.starts_with("nested too deeply")),
        "expected a nesting error, got {:?}",
        parse.errors().first()
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let depth = 100_000;
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("\"${", "}\"")] {
        let text = format!("a = {}1{}\n", open.repeat(depth), close.repeat(depth));
        assert_nesting_limited(&text);
    }
    assert_nesting_limited(&format!("a = {}1\n", "-".repeat(depth)));
    assert_nesting_limited(&format!("{}{}", "b {\n".repeat(depth), "}\n".repeat(depth)));
    assert_nesting_limited(&format!("a = \"{}\"\n", "%{ if x }".repeat(depth)));
    assert_nesting_limited(&format!("a = {}\n", "x ? y : ".repeat(depth) + "z"));
}

#[test]
fn long_chains_are_bounded() {
    let text = format!(
        "a = x{}\nb = 1{}\n",
        ".y".repeat(100_000),
        " + 1".repeat(100_000)
    );
    let parse = parse(&text);
    assert_lossless(&text, &parse);
    assert!(
        parse
            .errors()
            .iter()
            .any(|err| err.message.starts_with("expression too long"))
    );
}

/// A seeded mutation loop: random edits of the fixtures never panic, always round-trip and
/// keep errors inside the input.
#[test]
fn mutated_fixtures_round_trip() {
    const PIECES: &[&str] = &[
        "{", "}", "[", "]", "(", ")", "\"", "${", "%{", "~", "<<EOT\n", "<<-X\n", "EOT", "\n", "=",
        ",", ".", "*", "...", "\\", "#", "/*", "é", "\r", "for ", " in ", "if ", "endif", ":", "?",
        "=>", "0.1", "$${",
    ];
    let mut files: Vec<String> = ["parser/ok", "parser/err", "lexer/ok", "lexer/err"]
        .iter()
        .flat_map(|dir| fixtures(dir))
        .map(|path| read(&path))
        .collect();
    files.sort();
    let mut rng = pcl_test_utils::generate::Rng::new(0x9E37_79B9_7F4A_7C15);
    for round in 0..20_000 {
        let mut text = files[round % files.len()].clone();
        for _ in 0..1 + rng.below(4) {
            let mut pos = rng.below(text.len() + 1);
            while !text.is_char_boundary(pos) {
                pos -= 1;
            }
            match rng.below(3) {
                0 => text.insert_str(pos, PIECES[rng.below(PIECES.len())]),
                1 => {
                    let mut end = (pos + 1 + rng.below(8)).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    text.replace_range(pos..end, "");
                }
                _ => text.truncate(pos),
            }
        }
        let parse = std::panic::catch_unwind(|| parse(&text))
            .unwrap_or_else(|_| panic!("parser panicked on {text:?}"));
        assert_lossless(&text, &parse);
        let lexed = LexedText::new(&text);
        let concatenated: String = (0..lexed.len()).map(|idx| lexed.text(idx)).collect();
        assert_eq!(concatenated, text);
        assert_fast_path_agrees(&text);
        assert_windowed_parse_equals_whole(&text, SMALL_WINDOWS[round % SMALL_WINDOWS.len()]);
    }
}

/// The lexer's hand-written fast path for frequent tokens gives exactly the tokens and
/// errors of the logos rules alone.
fn assert_fast_path_agrees(text: &str) {
    if let Some(difference) = crate::lexer::fast_path_disagreement(text) {
        panic!("{difference}");
    }
}

/// Every top-level item with an identifier `invoke` is one `Parse::item_may_invoke`
/// says may call it.
fn assert_invoking_items_marked(parse: &Parse) {
    for item in parse.top_level_item_nodes() {
        let invokes = (SyntaxNode::new_root(item.to_owned()).descendants_with_tokens())
            .filter_map(|element| element.into_token())
            .any(|token| token.kind() == SyntaxKind::IDENT && token.text() == crate::INVOKE);
        assert!(
            !invokes || parse.item_may_invoke(item),
            "an item with `invoke` is not marked: {item}"
        );
    }
}

/// A flat parse's items are its rowan root's items: the same nodes, equal to handles made
/// from those nodes, at the same places, and as many.
fn assert_flat_items_equal_their_nodes(parse: &Parse) {
    let items = parse.item_syntaxes().into_owned();
    let nodes: Vec<_> = parse.top_level_items();
    assert_eq!(items.len(), nodes.len());
    assert_eq!(
        parse.item_starts(),
        nodes.iter().map(|(_, at)| *at).collect::<Vec<_>>()
    );
    for (item, (node, _)) in items.iter().zip(&nodes) {
        assert!(std::ptr::eq::<GreenNodeData>(&**item.green(), &**node));
        assert_eq!(*item, ItemSyntax::from_green(node, item.may_invoke()));
    }
}

/// Reparsing keeps the marks of the items that may call `invoke`: of the item parsed
/// again, and of an earlier reparse's item once another item is parsed again.
#[test]
fn reparses_keep_the_marks_of_items_that_may_invoke() {
    let first = "a = invoke(\"p:index:f\", {})\nb = 1\nc = invoke(\"p:index:h\", {})\n";
    let second = first.replace("p:index:f", "p:index:g");
    let third = second.replace("b = 1", "b = 2");
    let fourth = third.replace("b = 2", "b = invoke(\"p:index:i\", {})");
    let mut parse = parse(first);
    let mut text = first.to_owned();
    for next in [second, third, fourth] {
        parse = parse.reparse(&text, &next);
        assert_eq!(parse, crate::parse(&next));
        assert_invoking_items_marked(&parse);
        let marked = (parse.top_level_item_nodes()).filter(|item| parse.item_may_invoke(item));
        assert_eq!(marked.count(), next.matches("invoke").count(), "{next}");
        text = next;
    }
}

/// Windows of tokens (lexed per step, parsed before dropping) small enough that every
/// text moves through many of them.
const SMALL_WINDOWS: [(usize, usize); 3] = [(1, 1), (3, 7), (16, 64)];

/// Parsing `text` from a window gives the tree and the errors of parsing it whole, unless
/// the brackets do not balance (then the windowed parse is not used).
/// The same with the tokens lexed ahead on a thread of their own (`with_lexing_ahead`).
fn assert_windowed_parse_equals_whole(text: &str, (step, drop_after): (usize, usize)) {
    let whole = crate::parse_whole(
        crate::Source::Copied(text),
        crate::parser::PARSER_STEP_LIMIT,
    );
    let in_windows = || crate::parse_in_windows(text, step, drop_after);
    for (how, windowed) in [
        ("lexed on the parser's thread", in_windows()),
        ("lexed ahead", crate::with_lexing_ahead(in_windows)),
    ] {
        match windowed {
            Some(windowed) => {
                assert!(
                    whole.brackets_balance,
                    "brackets balance in a window only ({how}): {text:?}"
                );
                assert_eq!(
                    windowed, whole,
                    "window of {step}, {drop_after} ({how}) on {text:?}"
                );
            }
            None => assert!(
                !whole.brackets_balance,
                "brackets balance whole only ({how}): {text:?}"
            ),
        }
    }
}

/// The text of every lexer and parser fixture, and of every corpus file when the corpus is
/// there.
fn fixture_and_corpus_texts() -> Vec<String> {
    let mut texts: Vec<String> = ["parser/ok", "parser/err", "lexer/ok", "lexer/err"]
        .iter()
        .flat_map(|dir| fixtures(dir))
        .map(|path| read(&path))
        .collect();
    if let Some(corpus) = pcl_test_utils::corpus_dir() {
        for path in pcl_test_utils::files_with_extensions(&corpus, &["pp", "hcl", "tf"]) {
            if let Ok(text) = std::fs::read_to_string(&path) {
                texts.push(text);
            }
        }
    }
    texts
}

/// Every fixture, every corpus file and every fuzz regression parse from small windows of
/// tokens as they parse whole (mutated fixtures are checked in
/// `mutated_fixtures_round_trip`, large generated programs in
/// `batched_trees_equal_items_parsed_alone`).
#[test]
fn windowed_parses_equal_whole_ones() {
    let mut texts = fixture_and_corpus_texts();
    for target in ["parse", "lex"] {
        let dir = pcl_test_utils::test_data_dir().join("fuzz").join(target);
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                texts.push(text);
            }
        }
    }
    for text in &texts {
        assert_invoking_items_marked(&parse(text));
        assert_flat_items_equal_their_nodes(&parse(text));
        for window in SMALL_WINDOWS {
            assert_windowed_parse_equals_whole(text, window);
        }
    }
}

/// Every fixture, every corpus file and seeded random texts over HCL's punctuation lex
/// the same with and without the fast path (mutated fixtures are checked in
/// `mutated_fixtures_round_trip`).
#[test]
fn lexer_fast_path_agrees_with_logos() {
    if pcl_test_utils::corpus_dir().is_none() {
        return;
    }
    let mut texts = fixture_and_corpus_texts();
    assert!(texts.len() > 300, "found only {} texts", texts.len());
    const ALPHABET: &[&str] = &[
        "a", "b1", "-", "_", "0", "12", ".", "e", "E", "+", "5", "x", " ", "\t", "\n", "\r\n",
        "\"", "\\", "${", "%{", "$${", "%%{", "}", "{", "[", "]", "(", ")", "=", "==", "!", "<",
        "<<EOF\n", "EOF", "#", "//", "/*", "*/", "é", "\u{0}", "'", "&", "|", "?", ":", ",", "~",
    ];
    let mut rng = pcl_test_utils::generate::Rng::new(0x5EED_1E5E);
    for _ in 0..20_000 {
        let len = 1 + rng.below(24);
        texts.push(
            (0..len)
                .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                .collect(),
        );
    }
    for text in &texts {
        assert_fast_path_agrees(text);
    }
}

#[test]
fn every_token_kind_round_trips_through_raw() {
    for raw in 0..SyntaxKind::COUNT {
        assert_eq!(SyntaxKind::from_raw(raw) as u16, raw);
    }
}

#[test]
fn generated_programs_parse_without_errors() {
    for shape in pcl_test_utils::generate::Shape::ALL {
        let text = pcl_test_utils::generate::program(shape, 50_000, 7);
        let parse = parse(&text);
        assert!(
            parse.errors().is_empty(),
            "{}: {:?}",
            shape.name(),
            &parse.errors()[..1]
        );
        assert_lossless(&text, &parse);
    }
}

/// A large file (parsed from a window of tokens) with brackets that do not balance, here
/// or there, parses as the whole text does: the window's parse is dropped for the whole
/// one, whose error recovery knows from the start.
#[test]
fn large_files_with_unbalanced_brackets_parse_as_whole_ones() {
    let program =
        pcl_test_utils::generate::program(pcl_test_utils::generate::Shape::ALL[0], 600_000, 3);
    assert!(program.len() >= crate::WINDOWED_FROM);
    let middle = program.len() / 2;
    let line = middle + program[middle..].find('\n').expect("a line break");
    for text in [
        format!("{program}x = {{\n  a = 1\n"),
        format!(
            "{}  oops = (1 +\n{}",
            &program[..=line],
            &program[line + 1..]
        ),
        format!("{}}}\n{}", &program[..=line], &program[line + 1..]),
    ] {
        let whole = crate::parse_whole(
            crate::Source::Copied(&text),
            crate::parser::PARSER_STEP_LIMIT,
        );
        assert!(!whole.brackets_balance, "the brackets balance");
        assert!(!whole.errors().is_empty());
        assert!(crate::parse_in_windows(&text, 16 * 1024, 64 * 1024).is_none());
        assert_eq!(parse(&text), whole);
        // Edited, from the unbalanced parse (which goes straight to the whole text's
        // parse) and from a balanced one.
        let edited = text.replacen("config", "config ", 1);
        assert_eq!(whole.reparse(&text, &edited), parse(&edited));
        assert_eq!(parse(&program).reparse(&program, &text), whole);
    }
}

/// Large trees are built in batches with separate interning caches (`TreeBuilder`); that
/// must not change them: every item of a large program equals the same item parsed alone.
#[test]
fn batched_trees_equal_items_parsed_alone() {
    use pcl_test_utils::generate::{Shape, program};
    for shape in Shape::ALL {
        let text = program(shape, 1_500_000, 7);
        let whole = parse(&text);
        assert!(whole.errors().is_empty(), "{:?}", &whole.errors()[..1]);
        assert_lossless(&text, &whole);
        assert_invoking_items_marked(&whole);
        let body = whole.syntax_node().first_child().expect("a body");
        let mut items = 0;
        for item in body.children() {
            let alone = parse(&item.to_string());
            let alone_item = alone
                .syntax_node()
                .first_child()
                .and_then(|body| body.first_child())
                .expect("one item");
            assert_eq!(item.green(), alone_item.green(), "{item}");
            items += 1;
        }
        assert!(items > 500, "{}: only {items} items", shape.name());
    }
}

/// The input fuzzing found (an 82-byte file that hung the parser): a template branch at
/// the nesting limit skipped forward with `skip_balanced`, which consumes nothing at a
/// closing bracket that closes nothing, so the loop never ended. Variants around the limit
/// with every kind of opener and broken content after it parse, stay lossless and never
/// reach the step limit.
#[test]
fn deep_recovery_near_the_nesting_limit_makes_progress() {
    let tails = [
        "f=\"%{if } \n}\n<",
        "f=\"%{for x in y} \n}\n<",
        "f=\"${ \n}\n<",
        "f=<<EOF\n%{if x}\n}\nEOF\n",
        "f=\"%{if x}%{else}\n)\n]\n}",
        "\"%{if x}\n}}}}",
        "f=[\"%{ if x }\n)",
    ];
    let openers = ["{", "[", "(", "{a=", "[\"${", "{f=\"%{if x}"];
    for depth in [1, 61, 62, 63, 64, 65, 126, 127, 128, 129, 200, 1000] {
        for opener in openers {
            for tail in tails {
                let text = format!("r= x[{}{tail}", opener.repeat(depth));
                let parse = parse(&text);
                assert_lossless(&text, &parse);
                let stopped = parse
                    .errors()
                    .iter()
                    .find(|err| err.code == pcl_diagnostics::codes::PARSER_STOPPED);
                assert!(stopped.is_none(), "the parser got stuck on {text:?}");
            }
        }
    }
}

/// A parser that stops making progress reports it and keeps the whole text in the tree:
/// here a tiny step limit forces the stop.
#[test]
fn the_step_limit_stops_parsing_with_an_error() {
    let text = "a = [1, 2, {b = 3}]\nc \"d\" {\n  e = f(g)\n}\n";
    for limit in [1, 2, 3, 5] {
        let parse = crate::parse_with_step_limit(crate::Source::Copied(text), limit);
        assert_lossless(text, &parse);
        let stopped: Vec<_> = parse
            .errors()
            .iter()
            .filter(|err| err.code == pcl_diagnostics::codes::PARSER_STOPPED)
            .collect();
        assert_eq!(stopped.len(), 1, "limit {limit}: {:?}", parse.errors());
    }
}

/// Inputs fuzzing failed on, minimised by `cargo xtask fuzz` into `tests/data/fuzz/parse`
/// and `tests/data/fuzz/lex`: they parse losslessly without a stuck parser, and both lexer
/// paths agree on them.
#[test]
fn fuzz_regressions() {
    let mut checked = 0;
    for target in ["parse", "lex"] {
        let dir = pcl_test_utils::test_data_dir().join("fuzz").join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let bytes = std::fs::read(entry.path()).expect("a fuzz fixture is readable");
            let Ok(text) = String::from_utf8(bytes) else {
                continue;
            };
            let parse = crate::parse(&text);
            assert_lossless(&text, &parse);
            assert!(
                !(parse.errors().iter()).any(|e| e.code == pcl_diagnostics::codes::PARSER_STOPPED),
                "{}: the parser got stuck",
                entry.path().display()
            );
            assert_fast_path_agrees(&text);
            checked += 1;
        }
    }
    assert!(checked > 0, "no fuzz regression fixtures found");
}

#[test]
fn syntax_errors_without_a_tree_are_the_parse_errors() {
    for text in [
        "a = 1\n",
        "a = {\n  b =\n",
        "x = <<EOT\n${a\nEOT\n",
        "@ = 1\n}\n",
    ] {
        assert_eq!(crate::syntax_errors(text), parse(text).errors(), "{text:?}");
    }
}

/// Reparsing after an edit gives exactly the full parse of the new text, whether the edit
/// stays inside one item (the item alone is parsed again) or not; edits chain.
#[test]
fn reparsing_after_edits_equals_parsing_again() {
    const PIECES: &[&str] = &[
        "1",
        "x",
        " ",
        "\"",
        "{",
        "}",
        "[",
        "]",
        "(",
        ")",
        "${",
        "\n",
        "=",
        ",",
        ".",
        "#",
        "/*",
        "é",
        "<<EOT\n",
        "a = 1\n",
        " # c",
        "\"s\"",
        "true",
        "}\n",
        " # pcl-ignore",
        "invoke",
    ];
    let mut files: Vec<String> = fixtures("parser/ok").iter().map(|p| read(p)).collect();
    files.push(pcl_test_utils::generate::program(
        pcl_test_utils::generate::Shape::ALL[0],
        20_000,
        3,
    ));
    files.sort();
    let mut rng = pcl_test_utils::generate::Rng::new(0x5DEE_CE66_D1CE_4E5B);
    let mut spliced = 0;
    for round in 0..3_000 {
        let mut text = files[round % files.len()].clone();
        let mut old = parse(&text);
        // The same edits, each reparsed from the last without building its root.
        let mut lazy = old.clone();
        for _ in 0..1 + rng.below(3) {
            let mut pos = rng.below(text.len() + 1);
            while !text.is_char_boundary(pos) {
                pos -= 1;
            }
            let mut edited = text.clone();
            let (old_end, new_end) = if rng.below(2) == 0 {
                let piece = PIECES[rng.below(PIECES.len())];
                edited.insert_str(pos, piece);
                (pos, pos + piece.len())
            } else {
                let mut end = (pos + 1 + rng.below(4)).min(edited.len());
                while !edited.is_char_boundary(end) {
                    end += 1;
                }
                edited.replace_range(pos..end, "");
                (end, pos)
            };
            let reparsed = old.reparse(&text, &edited);
            lazy = lazy.reparse(&text, &edited);
            let full = parse(&edited);
            assert!(
                (lazy.top_level_item_nodes()).eq(full.top_level_item_nodes()),
                "{text:?} -> {edited:?}"
            );
            assert_eq!(reparsed, full, "{text:?} -> {edited:?}");
            for parse in [&reparsed, &lazy, &full] {
                assert_invoking_items_marked(parse);
            }
            // The same, told where the edit is (as the language server does).
            let size = |n: usize| crate::TextSize::try_from(n).expect("a small text");
            let changed = crate::ChangedRange {
                start: size(pos),
                old_end: size(old_end),
                new_end: size(new_end),
            };
            let told = old.reparse_changed(&text, &edited, Some(changed));
            assert_eq!(told, full, "{text:?} -> {edited:?} at {changed:?}");
            let old_root = old.syntax_node();
            let shares = |green: &rowan::GreenNode| {
                old_root.first_child().is_some_and(|body| {
                    body.children()
                        .any(|item| std::ptr::eq(&*item.green(), &**green))
                })
            };
            let new_items: Vec<_> = reparsed
                .syntax_node()
                .first_child()
                .map(|body| {
                    body.children()
                        .map(|item| item.green().into_owned())
                        .collect()
                })
                .unwrap_or_default();
            if new_items.len() > 1 && new_items.iter().any(shares) {
                spliced += 1;
            }
            text = edited;
            old = reparsed;
        }
        assert_eq!(lazy, old, "{text:?}");
    }
    assert!(spliced > 500, "only {spliced} edits reused items");
}

/// Edits inside one item are reparsed over the tree before the first of them, and no root
/// is built until one is asked for: the items are read from the base and the new item.
#[test]
fn edits_in_one_item_build_no_root_until_asked() {
    let texts = [
        "a = 1\nb = 2\nc = 3\n",
        "a = 1\nb = 23\nc = 3\n",
        "a = 1\nb = \"x\"\nc = 3\n",
    ];
    let unbuilt = |parse: &crate::Parse| matches!(&*parse.tree, crate::Tree::Spliced { root, .. } if root.get().is_none());
    let mut parsed = parse(texts[0]);
    for pair in texts.windows(2) {
        parsed = parsed.reparse(pair[0], pair[1]);
        assert!(unbuilt(&parsed), "{:?}", pair[1]);
        let full = parse(pair[1]);
        assert!(
            parsed
                .top_level_item_nodes()
                .eq(full.top_level_item_nodes())
        );
    }
    // An edit of another item builds the root it splices into.
    let other = "a = 10\nb = \"x\"\nc = 3\n";
    let again = parsed.reparse(texts[2], other);
    assert!(!unbuilt(&parsed) && unbuilt(&again));
    assert_eq!(again, parse(other));
}

/// A change range that does not fit the texts is ignored: the texts are compared instead.
#[test]
fn a_change_range_that_does_not_fit_is_ignored() {
    let (old_text, new_text) = ("a = 1\nb = 2\n", "a = 1\nb = 23\n");
    let old = parse(old_text);
    let size = |n: u32| crate::TextSize::from(n);
    for (start, old_end, new_end) in [(0, 1, 1), (11, 10, 12), (0, 40, 41), (9, 9, 99)] {
        let changed = crate::ChangedRange {
            start: size(start),
            old_end: size(old_end),
            new_end: size(new_end),
        };
        let reparsed = old.reparse_changed(old_text, new_text, Some(changed));
        assert_eq!(reparsed, parse(new_text), "{changed:?}");
    }
}

/// When an edit is not inside one item, the file is parsed whole, and every item equal to
/// an old one keeps the old node: the runs at both ends, and between them the items a
/// shift moved (consumers keep items by identity).
#[test]
fn reparsing_the_whole_file_keeps_every_unchanged_item() {
    let old_text = "a = 1\nb = 2\nc = 3\nd = 4\n";
    // An item inserted at the start and one edited at the end: `b` and `c` moved.
    let new_text = "z = 0\na = 1\nb = 2\nc = 3\nd = 5\n";
    let old = parse(old_text);
    let reparsed = old.reparse(old_text, new_text);
    assert_eq!(reparsed, parse(new_text));
    let items = |parse: &crate::Parse| -> Vec<rowan::GreenNode> {
        parse
            .top_level_items()
            .into_iter()
            .map(|(green, _)| green)
            .collect()
    };
    let (old_items, new_items) = (items(&old), items(&reparsed));
    let same = |new: usize, old: usize| std::ptr::eq(&*new_items[new], &*old_items[old]);
    assert!(
        same(1, 0) && same(2, 1) && same(3, 2),
        "a, b and c keep their nodes"
    );
    assert!(!same(4, 3), "d changed");
}
