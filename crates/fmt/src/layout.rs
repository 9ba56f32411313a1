//! hclwrite's layout rules over the token sequence: split into lines, each line into
//! cells (the lead, the `= value` assignment, a trailing comment), then indentation from
//! brackets, spacing between neighbours, and alignment of `=` and comments across
//! consecutive lines. The rules and their order follow `hclwrite/format.go`; where the
//! Go source explains a rule, the comment here says it in our words.

use std::ops::Range;

use crate::tokens::{Class, FormatToken};

/// One line split into cells, as token indices `start <= assign <= comment <= end`: the
/// lead always (`start..assign`), the assignment from an `=` whose right-hand side closes
/// every bracket it opens (`assign..comment`, when not empty), and a trailing comment after
/// other tokens (`comment..end`, when not empty). Sixteen bytes a line.
#[derive(Clone, Copy)]
struct Line {
    start: u32,
    assign: u32,
    comment: u32,
    end: u32,
}

impl Line {
    fn lead(&self) -> Range<usize> {
        self.start as usize..self.assign as usize
    }

    fn assign(&self) -> Option<Range<usize>> {
        (self.assign < self.comment).then_some(self.assign as usize..self.comment as usize)
    }

    fn comment(&self) -> Option<Range<usize>> {
        (self.comment < self.end).then_some(self.comment as usize..self.end as usize)
    }
}

/// Sets `spaces_before` of every token to the canonical layout.
pub(crate) fn lay_out(tokens: &mut [FormatToken], text: &str) {
    let lines = split_lines(tokens);
    indent(tokens, &lines);
    space(tokens, &lines, text);
    align(tokens, &lines, text);
}

fn split_lines(tokens: &[FormatToken]) -> Vec<Line> {
    let mut res = Vec::new();
    let mut line_start = 0;
    for (idx, token) in tokens.iter().enumerate() {
        if token.ends_line() {
            res.push(line_cells(tokens, line_start..idx + 1));
            line_start = idx + 1;
        }
    }
    if line_start < tokens.len() {
        res.push(line_cells(tokens, line_start..tokens.len()));
    }
    res
}

fn line_cells(tokens: &[FormatToken], line: Range<usize>) -> Line {
    let mut comment = line.end;
    if line.len() > 1 && is_comment(&tokens[line.end - 1]) {
        comment -= 1;
    }
    let equal = (line.start + 1..comment).find(|&idx| tokens[idx].class == Class::Equal);
    // The value goes in its own cell only when it is whole on this line: an `=` followed
    // by an opening bracket starts a multi-line value, which is not aligned.
    let assign = match equal {
        Some(equal) if net_brackets(&tokens[equal..comment]) == 0 => equal,
        _ => comment,
    };
    // Token indices fit in 32 bits: texts do (offsets are 32-bit).
    Line {
        start: line.start as u32,
        assign: assign as u32,
        comment: comment as u32,
        end: line.end as u32,
    }
}

/// Indentation deepens no further than this many levels. No text without syntax errors
/// nests as deep (the parser stops at 128), so only the layout of text with errors, which
/// is thrown away, is cut short: 20,000 unclosed blocks (a 673 KB file) were laid out
/// with 800 MB of indentation, and checking its format took 1.9 s and 2 GB.
pub(crate) const MAX_LEVELS: usize = 256;

/// Indentation: two spaces per level; a line that opens more brackets than it closes
/// indents the lines after it by one level, however many it opened, and closing brackets
/// unwind those levels (the stack copes with lines whose brackets do not pair up).
fn indent(tokens: &mut [FormatToken], lines: &[Line]) {
    let spaces = |levels: &[i32]| 2 * levels.len().min(MAX_LEVELS) as u32;
    let mut levels: Vec<i32> = Vec::new();
    for line in lines {
        if line.lead().is_empty() {
            continue;
        }
        let first = line.lead().start;
        if tokens[first].class == Class::Newline {
            tokens[first].spaces_before = 0;
            continue;
        }
        let mut net = 0;
        for token in &tokens[line.lead()] {
            net += token.bracket_change();
            // Brackets inside a heredoc's text are not the code's.
            if token.class == Class::OpenHeredoc {
                break;
            }
        }
        if let Some(assign) = line.assign() {
            net += net_brackets(&tokens[assign]);
        }
        if net > 0 {
            tokens[first].spaces_before = spaces(&levels);
            levels.push(net);
            continue;
        }
        let mut closed = -net;
        while 0 < closed {
            let Some(top) = levels.last_mut() else { break };
            if *top <= closed {
                closed -= *top;
                levels.pop();
            } else {
                *top -= closed;
                closed = 0;
            }
        }
        tokens[first].spaces_before = spaces(&levels);
    }
}

/// Spacing inside the lead and inside the assignment: each token decides whether a space
/// follows it from itself and its neighbours; the assignment's `=` gets one space before.
fn space(tokens: &mut [FormatToken], lines: &[Line], text: &str) {
    for line in lines {
        space_cell(tokens, line.lead(), text);
        if let Some(assign) = line.assign() {
            tokens[assign.start].spaces_before = 1;
            space_cell(tokens, assign, text);
        }
    }
}

fn space_cell(tokens: &mut [FormatToken], cell: Range<usize>, text: &str) {
    for idx in cell.start..cell.end.saturating_sub(1) {
        let before = (cell.start < idx).then(|| &tokens[idx - 1]);
        let spaced = space_after(text, &tokens[idx], before, &tokens[idx + 1]);
        tokens[idx + 1].spaces_before = u32::from(spaced);
    }
}

/// Whether a space separates `subject` from `after`; `before` is the token before the
/// subject in the same cell.
fn space_after(
    text: &str,
    subject: &FormatToken,
    before: Option<&FormatToken>,
    after: &FormatToken,
) -> bool {
    use Class as C;
    let (this, next) = (subject.class, after.class);
    match () {
        // Nothing before a newline.
        _ if next == C::Newline => false,
        // A function name stays next to its parenthesis.
        _ if this == C::Ident && next == C::OpenParen => false,
        // Namespaced function names (`provider::aws::f`) stay together.
        _ if (this == C::Ident && next == C::DoubleColon)
            || (this == C::DoubleColon && next == C::Ident) =>
        {
            false
        }
        // `1. 5` (a legacy index into a number) must not become `1.5`, one number: the
        // one place where hclwrite's spacing would change the tokens, so we keep a space.
        _ if this == C::Dot
            && next == C::Number
            && before.is_some_and(|before| {
                before.class == C::Number && before.text(text).bytes().all(|b| b.is_ascii_digit())
            }) =>
        {
            true
        }
        _ if this == C::Dot || next == C::Dot => false,
        _ if next == C::Comma || next == C::Ellipsis => false,
        _ if this == C::Comma => true,
        // Template text and its delimiters are never padded.
        _ if matches!(this, C::Literal | C::OpenQuote | C::OpenHeredoc)
            || matches!(next, C::Literal | C::CloseQuote | C::CloseHeredoc) =>
        {
            false
        }
        // `for x in [a]`: `in` after an identifier is the keyword, not a value to index.
        _ if this == C::Ident
            && subject.text(text) == "in"
            && before.is_some_and(|before| before.class == C::Ident) =>
        {
            true
        }
        _ if next == C::OpenBracket
            && (matches!(this, C::Ident | C::Number) || subject.bracket_change() < 0) =>
        {
            false
        }
        _ if this == C::Bang => false,
        // A minus after something that cannot end an operand is a negation.
        _ if this == C::Minus => before.is_some_and(|before| {
            !matches!(
                before.class,
                C::OpenParen
                    | C::OpenBrace
                    | C::OpenBracket
                    | C::Equal
                    | C::Colon
                    | C::Comma
                    | C::Question
                    | C::Arithmetic
                    | C::Minus
                    | C::Comparison
                    | C::Logical
                    | C::Bang
            )
        }),
        // Braces are padded inside (`{ a = 1 }`), except when empty (`{}`).
        _ if this == C::OpenBrace || next == C::CloseBrace => {
            !(this == C::OpenBrace && next == C::CloseBrace)
        }
        // `${ {` and `} }` keep a space so an object in an interpolation reads as one.
        _ if matches!(this, C::TemplateInterp | C::TemplateControl) && next == C::OpenBrace => true,
        _ if this == C::CloseBrace && next == C::TemplateSeqEnd => true,
        _ if this == C::TemplateSeqEnd
            && matches!(next, C::TemplateInterp | C::TemplateControl) =>
        {
            false
        }
        _ if 0 < subject.bracket_change() => false,
        _ if after.bracket_change() < 0 => false,
        _ => true,
    }
}

/// Alignment: across a run of consecutive lines with an assignment, every `=` lines up one
/// column after the longest lead; then across a run of lines with a trailing comment, the
/// comments line up one column after the longest lead and assignment.
fn align(tokens: &mut [FormatToken], lines: &[Line], text: &str) {
    let mut run_start = None;
    let mut widest = 0;
    for (line_idx, line) in lines.iter().enumerate() {
        match (line.assign(), run_start) {
            (Some(_), None) => {
                run_start = Some(line_idx);
                widest = columns(tokens, &line.lead(), text);
            }
            (Some(_), Some(_)) => widest = widest.max(columns(tokens, &line.lead(), text)),
            (None, Some(start)) => {
                align_assignments(tokens, &lines[start..line_idx], widest, text);
                run_start = None;
            }
            (None, None) => (),
        }
    }
    if let Some(start) = run_start {
        align_assignments(tokens, &lines[start..], widest, text);
    }

    let width = |tokens: &[FormatToken], line: &Line| {
        columns(tokens, &line.lead(), text)
            + line
                .assign()
                .map_or(0, |assign| columns(tokens, &assign, text))
    };
    let mut run_start = None;
    let mut widest = 0;
    for (line_idx, line) in lines.iter().enumerate() {
        match (line.comment(), run_start) {
            (Some(_), None) => {
                run_start = Some(line_idx);
                widest = width(tokens, line);
            }
            (Some(_), Some(_)) => widest = widest.max(width(tokens, line)),
            (None, Some(start)) => {
                align_comments(tokens, &lines[start..line_idx], widest, &width);
                run_start = None;
            }
            (None, None) => (),
        }
    }
    if let Some(start) = run_start {
        align_comments(tokens, &lines[start..], widest, &width);
    }
}

fn align_assignments(tokens: &mut [FormatToken], run: &[Line], widest: usize, text: &str) {
    for line in run {
        if let Some(assign) = line.assign() {
            tokens[assign.start].spaces_before =
                (widest - columns(tokens, &line.lead(), text) + 1) as u32;
        }
    }
}

fn align_comments(
    tokens: &mut [FormatToken],
    run: &[Line],
    widest: usize,
    width: &dyn Fn(&[FormatToken], &Line) -> usize,
) {
    for line in run {
        if let Some(comment) = line.comment() {
            tokens[comment.start].spaces_before = (widest - width(tokens, line) + 1) as u32;
        }
    }
}

fn is_comment(token: &FormatToken) -> bool {
    matches!(token.class, Class::LineComment | Class::Comment)
}

fn net_brackets(tokens: &[FormatToken]) -> i32 {
    tokens.iter().map(FormatToken::bracket_change).sum()
}

/// The width of a cell: its spaces plus one column per character of its tokens (hclwrite
/// counts grapheme clusters; we count characters, and a `\r\n` as one, which differs only
/// for combining characters).
fn columns(tokens: &[FormatToken], cell: &Range<usize>, text: &str) -> usize {
    tokens[cell.clone()]
        .iter()
        .map(|token| {
            let token_text = token.text(text);
            let width = if token_text.is_ascii() {
                token_text.len() - token_text.matches("\r\n").count()
            } else {
                token_text.chars().count() - token_text.matches("\r\n").count()
            };
            token.spaces_before as usize + width
        })
        .sum()
}
