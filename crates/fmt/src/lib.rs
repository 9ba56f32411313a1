//! The PCL formatter: rewrites the whitespace between tokens into the canonical HCL
//! layout, the one HashiCorp's `hclwrite.Format` (what `terraform fmt` applies) produces.
//!
//! Why a token-level algorithm and not a pretty-printer over the tree: people diff our
//! output with `terraform fmt`'s, so we follow hclwrite's rules exactly, and hclwrite works
//! on the flat token sequence, one line at a time (indentation from the net count of
//! brackets a line opens, spacing from each token's neighbours, `=` and trailing comments
//! aligned across consecutive lines). The tree is used only to classify tokens the way
//! hclsyntax's scanner does (a `}` closing `${` is not an object's `}`); see `tokens`.
//!
//! Architecture invariants:
//! - Formatting changes only the spaces and tabs between tokens on a line (never newlines,
//!   comments, template text or heredoc contents), so the significant tokens are the same
//!   before and after, and a file has as many lines after formatting as before.
//! - Callers format only files without syntax errors: `format` refuses them, `edits`
//!   documents the precondition.
//! - The result is a list of minimal edits (one per whitespace gap that changes), which is
//!   what an editor wants; `format` applies them.

mod layout;
mod tokens;

use pcl_syntax::{Parse, SyntaxError, TextRange, TextSize};

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
    let parse = pcl_syntax::parse(text);
    if !parse.errors().is_empty() {
        return Err(parse.errors().to_vec());
    }
    Ok(apply_edits(text, &edits(&parse, text)))
}

/// The edits that bring `text` (whose parse is `parse`, without syntax errors) into the
/// canonical layout, in source order and not overlapping; empty when it already is.
pub fn edits(parse: &Parse, text: &str) -> Vec<FormatEdit> {
    let mut tokens = tokens::format_tokens(&parse.syntax_node());
    layout::lay_out(&mut tokens, text);
    let mut res = Vec::new();
    let mut gap_start = 0;
    for token in &tokens {
        push_gap_edit(&mut res, text, gap_start, token.start, token.spaces_before);
        gap_start = token.end;
    }
    // What follows the last token (spaces without a newline at the end of the file) is
    // kept as that many spaces, as hclwrite keeps the spaces before its end-of-file token.
    let tail = text.len() - gap_start;
    push_gap_edit(&mut res, text, gap_start, text.len(), tail);
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

fn push_gap_edit(acc: &mut Vec<FormatEdit>, text: &str, start: usize, end: usize, spaces: usize) {
    let gap = &text[start..end];
    if gap.len() == spaces && gap.bytes().all(|byte| byte == b' ') {
        return;
    }
    let range = TextRange::new(offset(start), offset(end));
    acc.push(FormatEdit {
        range,
        replacement: " ".repeat(spaces),
    });
}

fn offset(byte: usize) -> TextSize {
    // Texts are parsed only when they fit the tree's 32-bit offsets.
    TextSize::try_from(byte).unwrap_or(TextSize::new(u32::MAX))
}

#[cfg(test)]
mod tests;
