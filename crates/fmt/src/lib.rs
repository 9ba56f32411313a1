//! The PCL formatter: rewrites the whitespace between tokens into the canonical HCL
//! layout, the one HashiCorp's `hclwrite.Format` (what `terraform fmt` applies) produces.
//!
//! Why a token-level algorithm and not a pretty-printer over the tree: people diff our
//! output with `terraform fmt`'s, so we follow hclwrite's rules exactly, and hclwrite works
//! on the flat token sequence, one line at a time (indentation from the net count of
//! brackets a line opens, spacing from each token's neighbours, `=` and trailing comments
//! aligned across consecutive lines). The tree is needed only to know that the file has no
//! syntax errors; tokens come from the lexer, classified as hclsyntax's scanner does (a `}`
//! closing `${` is not an object's `}`); see `tokens`.
//!
//! Architecture invariants:
//! - Formatting changes only the spaces and tabs between tokens on a line (never newlines,
//!   comments, template text or heredoc contents), so the significant tokens are the same
//!   before and after, and a file has as many lines after formatting as before.
//! - Callers format only files without syntax errors: `format` refuses them, `edits`
//!   documents the precondition.
//! - The result is a list of minimal edits (one per whitespace gap that changes), which is
//!   what an editor wants; `format` renders the text directly.
//! - The layout is defined on any text, so that a big file is laid out on one thread while
//!   its syntax is checked on another (whole-process `pcl fmt` then costs about one parse).

mod layout;
mod tokens;

use std::ops::Range;

use pcl_syntax::{LexedText, SyntaxError, TextRange, TextSize};

/// One change: replace the whitespace in `range` of the original text by `replacement`
/// (only spaces, possibly empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatEdit {
    pub range: TextRange,
    pub replacement: String,
}

/// The canonical form of `text`, or its syntax errors when it has any (a file that does
/// not parse is left as it is).
pub fn format(text: &str) -> Result<String, Vec<SyntaxError>> {
    if text.len() < PARALLEL_FROM_BYTES {
        let (lexed, errors) = pcl_syntax::lex_and_check(text);
        if !errors.is_empty() {
            return Err(errors);
        }
        return Ok(render(&lexed, text));
    }
    // A big file: the syntax check and the layout need nothing from each other until the
    // end, so they run side by side (the layout of a file that turns out to have errors is
    // thrown away; it is defined on any text).
    std::thread::scope(|scope| {
        let checker = std::thread::Builder::new()
            .name("syntax check".to_owned())
            .stack_size(CHECK_STACK)
            .spawn_scoped(scope, || pcl_syntax::syntax_errors(text));
        let formatted = render(&LexedText::new(text), text);
        let errors = match checker {
            Ok(checker) => checker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => pcl_syntax::syntax_errors(text),
        };
        if errors.is_empty() {
            Ok(formatted)
        } else {
            Err(errors)
        }
    })
}

/// From this size on, `format` checks syntax on a second thread while laying out.
const PARALLEL_FROM_BYTES: usize = 256 << 10;

/// The stack of that thread (the parser's recursion is bounded by its nesting limit).
const CHECK_STACK: usize = 64 << 20;

/// `text` in the canonical layout, copied in runs broken only at the gaps that change.
fn render(lexed: &LexedText<'_>, text: &str) -> String {
    let mut res = String::with_capacity(text.len() + text.len() / 8);
    let mut copied = 0;
    for_each_gap(lexed, text, |gap, spaces| {
        if !is_spaces(&text[gap.clone()], spaces) {
            res.push_str(&text[copied..gap.start]);
            push_spaces(&mut res, spaces);
            copied = gap.end;
        }
    });
    res.push_str(&text[copied..]);
    res
}

/// The edits that bring `text` (which parses without errors) into the canonical layout,
/// in source order and not overlapping; empty when it already is.
pub fn edits(text: &str) -> Vec<FormatEdit> {
    let mut res = Vec::new();
    for_each_gap(&LexedText::new(text), text, |gap, spaces| {
        if is_spaces(&text[gap.clone()], spaces) {
            return;
        }
        res.push(FormatEdit {
            range: TextRange::new(offset(gap.start), offset(gap.end)),
            replacement: " ".repeat(spaces),
        });
    });
    res
}

/// `text` with `edits` (sorted, not overlapping) applied.
pub fn apply_edits(text: &str, edits: &[FormatEdit]) -> String {
    let mut res = String::with_capacity(text.len() + text.len() / 8);
    let mut copied = 0;
    for edit in edits {
        let (start, end) = (
            usize::from(edit.range.start()),
            usize::from(edit.range.end()),
        );
        res.push_str(&text[copied..start]);
        res.push_str(&edit.replacement);
        copied = end;
    }
    res.push_str(&text[copied..]);
    res
}

/// Calls `visit(gap, spaces)` for every whitespace gap of `text` in order (the gap before
/// each token, then what follows the last one) with the number of spaces the layout puts
/// there.
fn for_each_gap(lexed: &LexedText<'_>, text: &str, mut visit: impl FnMut(Range<usize>, usize)) {
    let mut tokens = tokens::format_tokens(lexed);
    layout::lay_out(&mut tokens, text);
    let mut gap_start = 0;
    for token in &tokens {
        let (start, end) = (token.start as usize, token.end as usize);
        visit(gap_start..start, token.spaces_before as usize);
        gap_start = end;
    }
    // What follows the last token (spaces without a newline at the end of the file) is
    // kept as that many spaces, as hclwrite keeps the spaces before its end-of-file token.
    visit(gap_start..text.len(), text.len() - gap_start);
}

/// Whether `gap` is exactly `n_spaces` spaces already.
fn is_spaces(gap: &str, n_spaces: usize) -> bool {
    gap.len() == n_spaces && gap.bytes().all(|byte| byte == b' ')
}

fn push_spaces(acc: &mut String, n_spaces: usize) {
    const SPACES: &str = "                                ";
    let mut left = n_spaces;
    while 0 < left {
        let chunk = left.min(SPACES.len());
        acc.push_str(&SPACES[..chunk]);
        left -= chunk;
    }
}

fn offset(byte: usize) -> TextSize {
    // Texts are parsed only when they fit the tree's 32-bit offsets.
    TextSize::try_from(byte).unwrap_or(TextSize::new(u32::MAX))
}

#[cfg(test)]
mod tests;
