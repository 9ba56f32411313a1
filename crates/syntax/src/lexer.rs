//! The lexer: text to a flat list of tokens, with a mode stack for templates.
//!
//! One logos DFA cannot express HCL's context dependence, so a small driver keeps a stack of
//! modes. Code (top level and inside `${ }`/`%{ }`) is lexed by the logos-derived [`CodeToken`];
//! quoted templates and heredocs are scanned by hand. Lexing never stops early: bytes that make
//! no sense become `ERROR_TOKEN`s with an error, and the concatenated token texts always equal
//! the input. A text is lexed whole, or a window at a time for the parser of a large file
//! ([`Lexer::lex_until`]), with the same tokens.

use logos::Logos;
use pcl_diagnostics::{Code, codes};
use rowan::{TextRange, TextSize};

use crate::SyntaxKind;
use crate::SyntaxKind::*;

/// A lexing error: what is wrong and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    pub code: Code,
    pub range: TextRange,
    pub message: String,
}

/// The tokens of a text: kinds and start offsets, plus errors.
#[derive(Debug)]
pub struct LexedText<'a> {
    text: &'a str,
    kinds: Vec<SyntaxKind>,
    starts: Vec<u32>,
    errors: Vec<LexError>,
}

impl<'a> LexedText<'a> {
    /// Lexes `text`. Texts of 4 GiB and more are not supported (offsets are `u32`).
    pub fn new(text: &'a str) -> LexedText<'a> {
        LexedText::lex(text, true)
    }

    /// Lexes `text` with the logos rules alone, without the hand-written fast path for
    /// frequent tokens: the reference the fast path is tested against.
    fn without_fast_path(text: &'a str) -> LexedText<'a> {
        LexedText::lex(text, false)
    }

    fn lex(text: &'a str, fast_path: bool) -> LexedText<'a> {
        Lexer::whole(text, fast_path).res
    }

    /// Forgets the first `n` tokens: what a [`Lexer`] lexing a window of the text has
    /// handed on. Indices count from the first token left.
    pub(crate) fn drop_front(&mut self, n: usize) {
        self.kinds.drain(..n);
        self.starts.drain(..n);
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    pub fn kind(&self, idx: usize) -> SyntaxKind {
        self.kinds[idx]
    }

    pub fn kinds(&self) -> &[SyntaxKind] {
        &self.kinds
    }

    pub fn text(&self, idx: usize) -> &'a str {
        &self.text[self.range_usize(idx)]
    }

    /// [`LexedText::text`] as bytes: without checking that both ends are character
    /// boundaries, which they are.
    pub(crate) fn bytes(&self, idx: usize) -> &'a [u8] {
        &self.text.as_bytes()[self.range_usize(idx)]
    }

    /// Where token `idx` starts in the text; at `len()`, where the last one ends.
    pub(crate) fn start_of(&self, idx: usize) -> u32 {
        self.starts[idx]
    }

    /// The length of token `idx`.
    pub(crate) fn len_of(&self, idx: usize) -> u32 {
        self.starts[idx + 1] - self.starts[idx]
    }

    pub fn range(&self, idx: usize) -> TextRange {
        TextRange::new(
            TextSize::new(self.starts[idx]),
            TextSize::new(self.starts[idx + 1]),
        )
    }

    /// The length of the text, as an offset.
    pub fn range_end(&self) -> u32 {
        self.text.len() as u32
    }

    pub fn errors(&self) -> &[LexError] {
        &self.errors
    }

    fn range_usize(&self, idx: usize) -> std::ops::Range<usize> {
        self.starts[idx] as usize..self.starts[idx + 1] as usize
    }
}

/// Tokens lexed on one thread for a parser on another (`Lexer::take_chunk`): their kinds
/// and starts, where the last one ends, the errors found with them, and whether the text
/// ends with them.
pub(crate) struct LexedChunk {
    kinds: Vec<SyntaxKind>,
    starts: Vec<u32>,
    end: u32,
    errors: Vec<LexError>,
    done: bool,
}

/// What the lexer is inside of.
#[derive(Debug, Clone, Copy)]
enum Mode {
    /// `${ … }` or `%{ … }`: code, until the `}` that balances the opening.
    Interp { depth: u32 },
    /// `" … "`, opened at `open`.
    Quoted { open: u32 },
    /// A heredoc whose introducer `<<ID` spans `intro`, with the marker `ID` at `marker`.
    Heredoc {
        intro: (u32, u32),
        marker: (u32, u32),
        at_line_start: bool,
    },
}

/// Lexes a text into [`LexedText`], all at once ([`LexedText::new`]) or a window at a time
/// ([`Lexer::lex_until`], for the parser of a large file): it stops between tokens and
/// goes on where it stopped, with the same tokens either way.
pub(crate) struct Lexer<'a> {
    /// Whether frequent tokens take the hand-written fast path before logos.
    fast_path: bool,
    text: &'a str,
    /// The tokens lexed so far (those not yet dropped), and the end of the last one.
    pub(crate) res: LexedText<'a>,
    stack: Vec<Mode>,
    pos: usize,
    /// Lexing stops once `res` holds this many tokens.
    limit: usize,
    /// Whether the text is lexed to its end.
    done: bool,
}

impl<'a> Lexer<'a> {
    /// The length of the whole text.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// A lexer of `text` whose token vectors start with room for `capacity` tokens.
    pub(crate) fn new(text: &'a str, fast_path: bool, capacity: usize) -> Lexer<'a> {
        let mut lexer = Lexer {
            fast_path,
            ..Lexer::fed(text, capacity)
        };
        if text.starts_with('\u{feff}') {
            lexer.push(WHITESPACE, 0);
            lexer.pos = '\u{feff}'.len_utf8();
        }
        lexer
    }

    /// A lexer that has lexed all of `text`.
    pub(crate) fn whole(text: &'a str, fast_path: bool) -> Lexer<'a> {
        // At most one token per byte (plus the end offset): the vectors never grow, and
        // pages that are never written cost no memory.
        let mut lexer = Lexer::new(text, fast_path, text.len() + 1);
        lexer.lex_until(usize::MAX);
        lexer
    }

    /// Whether the text is lexed to its end.
    pub(crate) fn done(&self) -> bool {
        self.done
    }

    /// A lexer of `text` that lexes nothing itself: it holds the tokens another thread's
    /// lexer hands over ([`Lexer::take_chunk`], [`Lexer::append`]), with room for
    /// `capacity` of them.
    pub(crate) fn fed(text: &'a str, capacity: usize) -> Lexer<'a> {
        Lexer {
            fast_path: true,
            text,
            res: LexedText {
                text,
                kinds: Vec::with_capacity(capacity),
                starts: Vec::with_capacity(capacity + 1),
                errors: Vec::new(),
            },
            stack: Vec::new(),
            pos: 0,
            limit: 0,
            done: false,
        }
    }

    /// Hands over the tokens lexed so far ([`Lexer::lex_until`]) and the errors found
    /// with them: this lexer keeps none of them and goes on with vectors of room for
    /// `room` tokens.
    pub(crate) fn take_chunk(&mut self, room: usize) -> LexedChunk {
        // `lex_until` ended the tokens with where the last one ends; the next call starts
        // from empty vectors and pushes the next token's start itself.
        let end = self.res.starts.pop().unwrap_or(self.pos as u32);
        let room = room.saturating_add(1);
        LexedChunk {
            kinds: std::mem::replace(&mut self.res.kinds, Vec::with_capacity(room)),
            starts: std::mem::replace(&mut self.res.starts, Vec::with_capacity(room)),
            end,
            errors: std::mem::take(&mut self.res.errors),
            done: self.done,
        }
    }

    /// Takes the tokens of a chunk another lexer lexed after the ones held: as if this
    /// lexer had lexed them (`lex_until`).
    pub(crate) fn append(&mut self, chunk: LexedChunk) {
        let res = &mut self.res;
        if res.starts.len() > res.kinds.len() {
            res.starts.pop();
        }
        res.kinds.extend_from_slice(&chunk.kinds);
        res.starts.extend_from_slice(&chunk.starts);
        res.starts.push(chunk.end);
        res.errors.extend(chunk.errors);
        self.done = chunk.done;
    }

    /// Lexes on until `res` holds at least `limit` tokens (a few more at most) or the
    /// text ends. `res` then ends with the end of its last token, as a whole text's does.
    pub(crate) fn lex_until(&mut self, limit: usize) {
        if self.done {
            return;
        }
        // The end of the last token: lexing the next one puts its start there.
        if self.res.starts.len() > self.res.kinds.len() {
            self.res.starts.pop();
        }
        self.limit = limit;
        while self.pos < self.text.len() && !self.at_limit() {
            match self.stack.last().copied() {
                None | Some(Mode::Interp { .. }) => self.lex_code(),
                Some(Mode::Quoted { open }) => self.lex_quoted(open),
                Some(Mode::Heredoc {
                    intro,
                    marker,
                    at_line_start,
                }) => self.lex_heredoc(intro, marker, at_line_start),
            }
        }
        if self.pos >= self.text.len() {
            self.close_modes();
            self.done = true;
            self.pos = self.text.len();
        }
        self.res.starts.push(self.pos as u32);
    }

    /// Whether lexing should stop here: the window is full, unless its last token is a run
    /// of invalid characters that the next one may still join.
    fn at_limit(&self) -> bool {
        self.res.kinds.len() >= self.limit && self.res.kinds.last() != Some(&ERROR_TOKEN)
    }

    /// Reports the modes still open at the end of input.
    fn close_modes(&mut self) {
        while let Some(mode) = self.stack.pop() {
            match mode {
                Mode::Quoted { open } => self.error(
                    open as usize,
                    self.text.len(),
                    codes::UNTERMINATED_STRING,
                    "unterminated string: add a closing `\"`".to_owned(),
                ),
                Mode::Heredoc { intro, marker, .. } => {
                    let marker = &self.text[marker.0 as usize..marker.1 as usize];
                    self.error(
                        intro.0 as usize,
                        intro.1 as usize,
                        codes::UNTERMINATED_HEREDOC,
                        format!(
                            "unterminated heredoc: add a line holding only `{marker}` to close it"
                        ),
                    )
                }
                // The parser reports the missing `}` with more context.
                Mode::Interp { .. } => (),
            }
        }
    }

    #[inline]
    fn push(&mut self, kind: SyntaxKind, start: usize) {
        self.res.kinds.push(kind);
        self.res.starts.push(start as u32);
    }

    fn error(&mut self, start: usize, end: usize, code: Code, message: String) {
        let range = TextRange::new(TextSize::new(start as u32), TextSize::new(end as u32));
        self.res.errors.push(LexError {
            code,
            range,
            message,
        });
    }

    /// Lexes code tokens until the mode changes or the input ends.
    fn lex_code(&mut self) {
        let base = self.pos;
        let mut lex = CodeToken::lexer(&self.text[base..]);
        loop {
            let fast_start = base + lex.span().end;
            if self.at_limit() {
                self.pos = fast_start;
                return;
            }
            let fast_end = if self.fast_path {
                self.lex_frequent(fast_start)
            } else {
                fast_start
            };
            lex.bump(fast_end - fast_start);
            let Some(token) = lex.next() else { break };
            let span = lex.span();
            let (start, end) = (base + span.start, base + span.end);
            let kind = match token {
                Ok(CodeToken::LineComment) => COMMENT,
                Ok(CodeToken::BlockComment) => {
                    let Some(close) = self.text[end..].find("*/") else {
                        self.push(COMMENT, start);
                        self.error(
                            start,
                            self.text.len(),
                            codes::UNCLOSED_DELIMITER,
                            "unterminated comment: add `*/` to close it".to_owned(),
                        );
                        self.pos = self.text.len();
                        return;
                    };
                    self.push(COMMENT, start);
                    self.pos = end + close + 2;
                    return;
                }
                Ok(CodeToken::Ident) => {
                    self.push(IDENT, start);
                    let rest = &self.text[end..];
                    if rest.as_bytes().first().is_some_and(|b| !b.is_ascii()) {
                        self.pos = end + ident_continue_len(rest);
                        return;
                    }
                    continue;
                }
                Ok(CodeToken::LCurly) => {
                    if let Some(Mode::Interp { depth }) = self.stack.last_mut() {
                        *depth += 1;
                    }
                    L_CURLY
                }
                Ok(CodeToken::RCurly) => {
                    self.push(R_CURLY, start);
                    match self.stack.last_mut() {
                        Some(Mode::Interp { depth: 0 }) => {
                            self.stack.pop();
                            self.pos = end;
                            return;
                        }
                        Some(Mode::Interp { depth }) => *depth -= 1,
                        _ => (),
                    }
                    continue;
                }
                Ok(CodeToken::Quote) if self.in_unclosed_interp_of_quoted(start) => {
                    // `"${x"`: the interpolation lacks its `}` and this quote closes the
                    // string. The parser reports the missing `}`.
                    self.push(CLOSE_QUOTE, start);
                    self.stack.pop();
                    self.stack.pop();
                    self.pos = end;
                    return;
                }
                Ok(CodeToken::Quote)
                    if self.stack.is_empty() && self.text[start..].starts_with("\"\"\"") =>
                {
                    self.lex_triple_quoted(start);
                    return;
                }
                Ok(CodeToken::Quote) => {
                    self.push(OPEN_QUOTE, start);
                    self.stack.push(Mode::Quoted { open: start as u32 });
                    self.pos = end;
                    return;
                }
                Ok(CodeToken::HeredocIntro) => {
                    self.lex_heredoc_intro(start);
                    return;
                }
                Err(()) => {
                    self.lex_invalid(start);
                    return;
                }
                Ok(simple) => simple.simple_kind(),
            };
            self.push(kind, start);
        }
        self.pos = self.text.len();
    }

    /// Python's `"""text"""`, through its closing `"""` (else the opening alone): one
    /// error token, and one error saying PCL writes a heredoc.
    #[cold]
    fn lex_triple_quoted(&mut self, start: usize) {
        let body = start + 3;
        let end = self.text[body..]
            .find("\"\"\"")
            .map_or(body, |close| body + close + 3);
        self.push(ERROR_TOKEN, start);
        self.error(
            start,
            end,
            codes::INVALID_CHARACTER,
            "PCL has no triple-quoted strings: a string of several lines is a heredoc, `<<-EOT` then the lines, then `EOT` on a line of its own".to_owned(),
        );
        self.pos = end;
    }

    /// Lexes the most frequent tokens (blanks, line feeds, ASCII identifiers, one-byte
    /// punctuation, whole numbers, plain strings) from `start` without going through the logos
    /// state machine, and returns where it stopped. They make up most tokens of real programs;
    /// logos lexes everything else, and these fast paths follow exactly its rules (the lexer
    /// snapshots pin that).
    fn lex_frequent(&mut self, start: usize) -> usize {
        let bytes = self.text.as_bytes();
        let top_level = self.stack.is_empty();
        let mut idx = start;
        while let Some(&byte) = bytes.get(idx) {
            if self.res.kinds.len() >= self.limit {
                break;
            }
            // Tested in order of frequency; a `match` on the byte compiles to a jump table
            // whose target changes with almost every token.
            let (kind, end) = if IDENT_START.contains(byte) {
                let len = bytes[idx..]
                    .iter()
                    .take_while(|&&b| IDENT_CONTINUE.contains(b))
                    .count();
                if bytes.get(idx + len).is_some_and(|b| !b.is_ascii()) {
                    // Non-ASCII identifier characters: the slow path handles them.
                    break;
                }
                (IDENT, idx + len)
            } else if byte == b' ' || byte == b'\t' {
                let len = bytes[idx..]
                    .iter()
                    .take_while(|&&b| b == b' ' || b == b'\t')
                    .count();
                (WHITESPACE, idx + len)
            } else if let Some(kind) = ONE_BYTE_TOKENS[byte as usize] {
                // `=`, `:` and `.` may start a longer operator; braces change the
                // interpolation depth, which only matters inside templates.
                let longer = match byte {
                    b'=' => matches!(bytes.get(idx + 1), Some(b'=' | b'>')),
                    b':' => bytes.get(idx + 1) == Some(&b':'),
                    b'.' => bytes.get(idx + 1) == Some(&b'.'),
                    b'{' | b'}' => !top_level,
                    _ => false,
                };
                if longer {
                    break;
                }
                (kind, idx + 1)
            } else if byte.is_ascii_digit() {
                let len = bytes[idx..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                if matches!(bytes.get(idx + len), Some(b'.' | b'e' | b'E')) {
                    // A fraction or an exponent may follow: the number rule decides.
                    break;
                }
                (NUMBER, idx + len)
            } else if byte == b'"' && top_level && bytes.get(idx + 1..idx + 3) != Some(b"\"\"") {
                // A string of plain text: no escapes, no template sequences, on one line.
                // Anything else goes through the template lexer (and Python's `"""`, the
                // slow path's).
                let close = skip_plain(bytes, idx + 1, &QUOTED_SPECIAL);
                if bytes.get(close) != Some(&b'"') {
                    break;
                }
                self.push(OPEN_QUOTE, idx);
                if close > idx + 1 {
                    self.push(TEMPLATE_CHUNK, idx + 1);
                }
                self.push(CLOSE_QUOTE, close);
                idx = close + 1;
                continue;
            } else {
                break;
            };
            self.push(kind, idx);
            idx = end;
        }
        idx
    }

    /// Whether a `"` at `start`, inside `${ }` of a quoted string, cannot open a nested string
    /// because no closing quote follows on its line: then it closes the outer string.
    fn in_unclosed_interp_of_quoted(&self, start: usize) -> bool {
        let [.., Mode::Quoted { .. }, Mode::Interp { depth: 0 }] = self.stack[..] else {
            return false;
        };
        let bytes = self.text.as_bytes();
        let mut idx = start + 1;
        while idx < bytes.len() {
            match bytes[idx] {
                b'"' => return false,
                b'\\' => idx += 2,
                b'\n' | b'\r' => return true,
                b'$' | b'%' if bytes.get(idx + 1) == Some(&b'{') => return false,
                _ => idx += 1,
            }
        }
        true
    }

    /// At `start` the code lexer found no token: an identifier with non-ASCII letters, or junk.
    fn lex_invalid(&mut self, start: usize) {
        let rest = &self.text[start..];
        let Some(ch) = rest.chars().next() else {
            self.pos = self.text.len();
            return;
        };
        if unicode_ident::is_xid_start(ch) {
            self.push(IDENT, start);
            self.pos = start + ch.len_utf8() + ident_continue_len(&rest[ch.len_utf8()..]);
            return;
        }
        // A backtick string of JavaScript or a single-quoted one of Python, closed on its
        // line: one error for all of it.
        // (A single-quoted one ends before a `"`: `'a + "b'c"` holds a real string.)
        if matches!(ch, '`' | '\'')
            && let Some(close) = rest[1..]
                .find(|c: char| c == ch || c == '\n' || (ch == '\'' && c == '"'))
                .filter(|&at| rest[at + 1..].starts_with(ch))
        {
            let end = start + close + 2;
            let inner = &rest[1..close + 1];
            let written = match inner.contains('"') {
                true => "\"...\"".to_owned(),
                false => format!("\"{inner}\""),
            };
            self.push(ERROR_TOKEN, start);
            let message = match ch {
                '`' => format!(
                    "a backtick string: PCL strings are written in double quotes (and interpolate with `${{...}}`): {written}"
                ),
                _ => format!(
                    "a single-quoted string: PCL strings are written in double quotes: {written}"
                ),
            };
            self.error(start, end, codes::INVALID_CHARACTER, message);
            self.pos = end;
            return;
        }
        let end = start + ch.len_utf8();
        let line_end_semicolon = ch == ';' && ends_line(&rest[1..]);
        let message = match ch {
            '\r' => "a carriage return must be followed by a line feed".to_owned(),
            '&' if rest[1..].starts_with(|c: char| c.is_ascii_alphabetic()) => {
                "unexpected character `&`: PCL has no pointers (Go's `&T{...}`): write the value itself; the operators are `&&` and `||`".to_owned()
            }
            '&' | '|' => format!("unexpected character `{ch}`: the operators are `&&` and `||`"),
            '\'' => "unexpected character `'`: strings are written in double quotes".to_owned(),
            ';' if line_end_semicolon => {
                "unexpected `;`: a line ends without one in PCL".to_owned()
            }
            '`' => "unexpected backtick (`` ` ``): strings are written in double quotes, and interpolate with `${...}`: \"logs-${name}\"".to_owned(),
            '$' if rest[1..].starts_with('{') => {
                "unexpected character `$`: `${...}` interpolates only inside a string: write the expression alone (`name`), or `\"${name}\"`".to_owned()
            }
            _ if ch.is_control() => format!("unexpected control character {ch:?}"),
            _ => format!("unexpected character `{ch}`"),
        };
        // Merge a run of invalid characters into one token and one error.
        let last = self.res.kinds.len().wrapping_sub(1);
        // A `;` ending a line keeps its own message (the backtick string before it too).
        let merges = !line_end_semicolon
            && self.res.kinds.last() == Some(&ERROR_TOKEN)
            && self
                .res
                .errors
                .last()
                .is_some_and(|err| err.range.end() == TextSize::new(start as u32))
            && self.res.starts.get(last)
                == Some(
                    &(self
                        .res
                        .errors
                        .last()
                        .map_or(0, |e| u32::from(e.range.start()))),
                );
        if merges {
            if let Some(err) = self.res.errors.last_mut() {
                err.range = TextRange::new(err.range.start(), TextSize::new(end as u32));
                err.message = format!(
                    "unexpected characters {}",
                    code_span(&self.text[u32::from(err.range.start()) as usize..end])
                );
            }
        } else {
            self.push(ERROR_TOKEN, start);
            self.error(start, end, codes::INVALID_CHARACTER, message);
        }
        self.pos = end;
    }

    /// `<<` at `start`: a heredoc introducer `<<ID` or `<<-ID` followed by a line break, or junk.
    fn lex_heredoc_intro(&mut self, start: usize) {
        let bytes = self.text.as_bytes();
        let mut idx = start + 2;
        if bytes.get(idx) == Some(&b'-') {
            idx += 1;
        }
        let marker_start = idx;
        let marker_len = match self.text[idx..].chars().next() {
            Some(ch) if ch == '_' || unicode_ident::is_xid_start(ch) => {
                ch.len_utf8() + ident_continue_len(&self.text[idx + ch.len_utf8()..])
            }
            _ => 0,
        };
        let marker_end = marker_start + marker_len;
        let newline_len = match &bytes[marker_end.min(bytes.len())..] {
            [b'\n', ..] => 1,
            [b'\r', b'\n', ..] => 2,
            _ => 0,
        };
        if marker_len == 0 || newline_len == 0 {
            self.push(ERROR_TOKEN, start);
            self.error(
                start,
                start + 2,
                codes::EXPECTED_TOKEN,
                "expected a heredoc: `<<ID` or `<<-ID` followed by a line break".to_owned(),
            );
            self.pos = start + 2;
            return;
        }
        let end = marker_end + newline_len;
        self.push(HEREDOC_START, start);
        self.stack.push(Mode::Heredoc {
            intro: (start as u32, marker_end as u32),
            marker: (marker_start as u32, marker_end as u32),
            at_line_start: true,
        });
        self.pos = end;
    }

    fn lex_quoted(&mut self, open: u32) {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut idx = start;
        loop {
            idx = skip_plain(bytes, idx, &QUOTED_SPECIAL);
            let Some(&byte) = bytes.get(idx) else { break };
            match byte {
                b'"' => {
                    self.push_chunk(start, idx);
                    self.push(CLOSE_QUOTE, idx);
                    self.stack.pop();
                    self.pos = idx + 1;
                    return;
                }
                b'\\' => idx += self.escape_len(idx),
                b'\n' | b'\r' => {
                    // `resource a "pkg:index:Type {`: the `{` opens the body, as meant.
                    let (idx, before) =
                        match block_header_brace(self.text, open as usize, start, idx) {
                            Some(brace) => {
                                (self.text[..brace].trim_end().len().max(start), "the `{`")
                            }
                            None => (idx, "the end of the line"),
                        };
                    self.push_chunk(start, idx);
                    self.stack.pop();
                    self.error(
                        open as usize,
                        idx,
                        codes::UNTERMINATED_STRING,
                        format!("unterminated string: add a closing `\"` before {before}"),
                    );
                    self.pos = idx;
                    return;
                }
                _ => match template_sequence_at(bytes, idx) {
                    TemplateSequence::Literal => idx += 3,
                    TemplateSequence::Start(kind) => {
                        self.push_chunk(start, idx);
                        self.push(kind, idx);
                        self.stack.push(Mode::Interp { depth: 0 });
                        self.pos = idx + 2;
                        return;
                    }
                    TemplateSequence::None => idx += 1,
                },
            }
        }
        self.push_chunk(start, bytes.len());
        self.pos = bytes.len();
    }

    /// The length of the escape sequence at `idx` (a backslash); reports invalid ones.
    fn escape_len(&mut self, idx: usize) -> usize {
        let bytes = self.text.as_bytes();
        let (len, valid) = match bytes.get(idx + 1) {
            Some(b'n' | b'r' | b't' | b'"' | b'\\') => (2, true),
            Some(b'u') => hex_escape_len(bytes, idx, 4),
            Some(b'U') => hex_escape_len(bytes, idx, 8),
            // A backslash at the end of the line: the newline is reported as unterminated.
            None | Some(b'\n' | b'\r') => (1, false),
            Some(_) => {
                let ch_len = self.text[idx + 1..]
                    .chars()
                    .next()
                    .map_or(1, char::len_utf8);
                (1 + ch_len, false)
            }
        };
        if !valid {
            let seq = &self.text[idx..idx + len];
            self.error(
                idx,
                idx + len,
                codes::INVALID_ESCAPE,
                format!(
                    "invalid escape sequence `{seq}`: use \\n, \\r, \\t, \\\", \\\\, \\uNNNN or \\UNNNNNNNN (hex digits naming a Unicode scalar value)"
                ),
            );
        }
        len
    }

    fn lex_heredoc(&mut self, intro: (u32, u32), marker: (u32, u32), at_line_start: bool) {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let line_end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |it| start + it);
        if at_line_start {
            let line = self.text[start..line_end]
                .strip_suffix('\r')
                .unwrap_or(&self.text[start..line_end]);
            let marker_text = &self.text[marker.0 as usize..marker.1 as usize];
            if line.trim_matches([' ', '\t']) == marker_text {
                self.push(HEREDOC_END, start);
                self.stack.pop();
                self.pos = start + line.len();
                return;
            }
        }
        let mut idx = start;
        loop {
            idx = skip_plain(bytes, idx, &HEREDOC_SPECIAL).min(line_end);
            if idx >= line_end {
                break;
            }
            match template_sequence_at(bytes, idx) {
                TemplateSequence::Literal => idx += 3,
                TemplateSequence::Start(kind) => {
                    self.push_chunk(start, idx);
                    self.push(kind, idx);
                    self.set_heredoc_line_start(intro, marker, false);
                    self.stack.push(Mode::Interp { depth: 0 });
                    self.pos = idx + 2;
                    return;
                }
                TemplateSequence::None => idx += 1,
            }
        }
        let end = (line_end + 1).min(bytes.len());
        self.push_chunk(start, end);
        self.set_heredoc_line_start(intro, marker, true);
        self.pos = end;
    }

    fn set_heredoc_line_start(
        &mut self,
        intro: (u32, u32),
        marker: (u32, u32),
        at_line_start: bool,
    ) {
        if let Some(top) = self.stack.last_mut() {
            *top = Mode::Heredoc {
                intro,
                marker,
                at_line_start,
            };
        }
    }

    fn push_chunk(&mut self, start: usize, end: usize) {
        if start < end {
            self.push(TEMPLATE_CHUNK, start);
        }
    }
}

/// Where the `{` is that ends the unterminated string from `open` (its quote) to `end` (the
/// line's end), from `start` on, when the string is a block's label (its line so far is a
/// block type and labels: `resource a "pkg:index:Type {`), so the `{` can open the body.
#[cold]
fn block_header_brace(text: &str, open: usize, start: usize, end: usize) -> Option<usize> {
    let rest = text.get(start..end)?.trim_end();
    if !rest.ends_with('{') {
        return None;
    }
    let line_start = text[..open].rfind('\n').map_or(0, |at| at + 1);
    let mut words = text[line_start..open].split_whitespace();
    let is_label = |word: &str| {
        is_identifier(word) || (word.len() >= 2 && word.starts_with('"') && word.ends_with('"'))
    };
    let header = (words.next()).is_some_and(is_identifier) && words.all(is_label);
    header.then(|| start + rest.len() - 1)
}

/// A set of bytes, as a lookup table.
struct ByteSet([bool; 256]);

impl ByteSet {
    const fn new(members: &[u8]) -> ByteSet {
        let mut res = [false; 256];
        let mut idx = 0;
        while idx < members.len() {
            res[members[idx] as usize] = true;
            idx += 1;
        }
        ByteSet(res)
    }

    /// The ASCII letters, plus `extra`.
    const fn letters_and(extra: &[u8]) -> ByteSet {
        let mut res = ByteSet::new(extra);
        let mut letter = 0;
        while letter < 26 {
            res.0[(b'a' + letter) as usize] = true;
            res.0[(b'A' + letter) as usize] = true;
            letter += 1;
        }
        res
    }

    fn contains(&self, byte: u8) -> bool {
        self.0[byte as usize]
    }
}

/// Bytes that end plain text in a quoted template.
static QUOTED_SPECIAL: ByteSet = ByteSet::new(b"\"\\$%\n\r");
/// Bytes that end plain text within a heredoc line.
static HEREDOC_SPECIAL: ByteSet = ByteSet::new(b"$%\n");
/// Bytes that start an ASCII identifier (the same rule as `CodeToken::Ident`).
static IDENT_START: ByteSet = ByteSet::letters_and(b"_");
/// Bytes that continue an ASCII identifier (the same rule as `CodeToken::Ident`).
static IDENT_CONTINUE: ByteSet = ByteSet::letters_and(b"_-0123456789");
/// The kinds of the one-byte tokens the fast path lexes.
static ONE_BYTE_TOKENS: [Option<SyntaxKind>; 256] = {
    let mut res = [None; 256];
    let pairs: [(u8, SyntaxKind); 15] = [
        (b'\n', NEWLINE),
        (b',', COMMA),
        (b'(', L_PAREN),
        (b')', R_PAREN),
        (b'[', L_BRACK),
        (b']', R_BRACK),
        (b'+', PLUS),
        (b'*', STAR),
        (b'?', QUESTION),
        (b'-', MINUS),
        (b'=', EQ),
        (b':', COLON),
        (b'.', DOT),
        (b'{', L_CURLY),
        (b'}', R_CURLY),
    ];
    let mut idx = 0;
    while idx < pairs.len() {
        res[pairs[idx].0 as usize] = Some(pairs[idx].1);
        idx += 1;
    }
    res
};

/// The index of the first byte at or after `idx` that is in `special`, or the length.
fn skip_plain(bytes: &[u8], idx: usize, special: &ByteSet) -> usize {
    bytes[idx.min(bytes.len())..]
        .iter()
        .position(|&b| special.contains(b))
        .map_or(bytes.len(), |offset| idx + offset)
}

enum TemplateSequence {
    /// `$${` or `%%{`: literal text.
    Literal,
    /// `${` or `%{`.
    Start(SyntaxKind),
    None,
}

fn template_sequence_at(bytes: &[u8], idx: usize) -> TemplateSequence {
    let sigil = bytes[idx];
    match (bytes.get(idx + 1), bytes.get(idx + 2)) {
        (Some(b'{'), _) => TemplateSequence::Start(if sigil == b'$' {
            INTERP_START
        } else {
            DIRECTIVE_START
        }),
        (Some(&next), Some(b'{')) if next == sigil => TemplateSequence::Literal,
        _ => TemplateSequence::None,
    }
}

/// `\u` or `\U` at `idx` followed by up to `digits` hex digits: (length, whether valid).
fn hex_escape_len(bytes: &[u8], idx: usize, digits: usize) -> (usize, bool) {
    let hex = bytes[idx + 2..]
        .iter()
        .take(digits)
        .take_while(|b| b.is_ascii_hexdigit())
        .count();
    if hex < digits {
        return (2 + hex, false);
    }
    let value = bytes[idx + 2..idx + 2 + digits]
        .iter()
        .fold(0u32, |acc, &b| {
            acc.wrapping_mul(16) + (b as char).to_digit(16).unwrap_or(0)
        });
    (2 + digits, char::from_u32(value).is_some())
}

/// The byte length of identifier-continuing characters (`-` included) at the start of `text`.
fn ident_continue_len(text: &str) -> usize {
    text.char_indices()
        .find(|&(_, ch)| !(ch == '-' || unicode_ident::is_xid_continue(ch)))
        .map_or(text.len(), |(idx, _)| idx)
}

/// Tokens of code: the top level and the inside of `${ }` and `%{ }`.
///
/// Plain unit variants keep the generated state machine lean; `kind` maps them to
/// `SyntaxKind`.
#[derive(Logos, Debug, Clone, Copy, PartialEq)]
enum CodeToken {
    #[regex(r"[ \t]+")]
    Whitespace,
    #[regex(r"\r?\n")]
    Newline,
    #[regex(r"[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")]
    Number,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("==")]
    Eq2,
    #[token("!=")]
    Neq,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    Lteq,
    #[token(">=")]
    Gteq,
    #[token("&&")]
    Amp2,
    #[token("||")]
    Pipe2,
    #[token("!")]
    Bang,
    #[token("=")]
    Eq,
    #[token(":")]
    Colon,
    #[token("::")]
    Colon2,
    #[token("?")]
    Question,
    #[token("=>")]
    FatArrow,
    #[token("...")]
    Dot3,
    #[token(",")]
    Comma,
    #[token(".")]
    Dot,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token("~")]
    Tilde,
    #[regex(r"#[^\r\n]*", allow_greedy = true)]
    #[regex(r"//[^\r\n]*", allow_greedy = true)]
    LineComment,
    #[token("/*")]
    BlockComment,
    #[regex(r"[a-zA-Z_][a-zA-Z0-9_\-]*")]
    Ident,
    #[token("{")]
    LCurly,
    #[token("}")]
    RCurly,
    #[token("\"")]
    Quote,
    #[token("<<")]
    HeredocIntro,
}

impl CodeToken {
    /// The syntax kind of a token that needs no special handling by the driver.
    fn simple_kind(self) -> SyntaxKind {
        match self {
            CodeToken::Whitespace => WHITESPACE,
            CodeToken::Newline => NEWLINE,
            CodeToken::Number => NUMBER,
            CodeToken::Plus => PLUS,
            CodeToken::Minus => MINUS,
            CodeToken::Star => STAR,
            CodeToken::Slash => SLASH,
            CodeToken::Percent => PERCENT,
            CodeToken::Eq2 => EQ2,
            CodeToken::Neq => NEQ,
            CodeToken::Lt => LT,
            CodeToken::Gt => GT,
            CodeToken::Lteq => LTEQ,
            CodeToken::Gteq => GTEQ,
            CodeToken::Amp2 => AMP2,
            CodeToken::Pipe2 => PIPE2,
            CodeToken::Bang => BANG,
            CodeToken::Eq => EQ,
            CodeToken::Colon => COLON,
            CodeToken::Colon2 => COLON2,
            CodeToken::Question => QUESTION,
            CodeToken::FatArrow => FAT_ARROW,
            CodeToken::Dot3 => DOT3,
            CodeToken::Comma => COMMA,
            CodeToken::Dot => DOT,
            CodeToken::LParen => L_PAREN,
            CodeToken::RParen => R_PAREN,
            CodeToken::LBrack => L_BRACK,
            CodeToken::RBrack => R_BRACK,
            CodeToken::Tilde => TILDE,
            CodeToken::LineComment
            | CodeToken::BlockComment
            | CodeToken::Ident
            | CodeToken::LCurly
            | CodeToken::RCurly
            | CodeToken::Quote
            | CodeToken::HeredocIntro => ERROR_TOKEN,
        }
    }
}

/// Whether `text` is exactly one HCL identifier (`_` or a letter, then letters, digits,
/// `_` and `-`).
/// Whether what follows a character is the end of its line (blanks, then a newline or
/// the end of the text).
fn ends_line(rest: &str) -> bool {
    rest.trim_start_matches([' ', '\t', '\r']).starts_with('\n') || rest.trim().is_empty()
}

/// Whether `range` of `text` is a `;` that ends its line, which the lexer reports alone.
pub(crate) fn is_line_end_semicolon(text: &str, range: TextRange) -> bool {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    text.get(start..end) == Some(";") && text.get(end..).is_some_and(ends_line)
}

pub fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first == '_' || unicode_ident::is_xid_start(first) => {
            let rest = &text[first.len_utf8()..];
            ident_continue_len(rest) == rest.len()
        }
        _ => false,
    }
}

/// A self-check of the lexer, for tests and the `lex` fuzz target: where lexing `text` with
/// the hand-written fast path for frequent tokens differs from the logos rules alone (the
/// first differing token, or the errors), or `None` when they agree.
pub fn fast_path_disagreement(text: &str) -> Option<String> {
    let fast = LexedText::new(text);
    let reference = LexedText::without_fast_path(text);
    let tokens = |lexed: &LexedText<'_>| -> Vec<(SyntaxKind, TextRange)> {
        (0..lexed.len())
            .map(|idx| (lexed.kind(idx), lexed.range(idx)))
            .collect()
    };
    let (fast_tokens, reference_tokens) = (tokens(&fast), tokens(&reference));
    if let Some(idx) = (0..fast_tokens.len().max(reference_tokens.len()))
        .find(|&idx| fast_tokens.get(idx) != reference_tokens.get(idx))
    {
        return Some(format!(
            "the fast path differs at token {idx} of {text:?}: {:?} (fast) vs {:?} (logos)",
            fast_tokens.get(idx),
            reference_tokens.get(idx)
        ));
    }
    (fast.errors() != reference.errors()).then(|| {
        format!(
            "the fast path's errors differ on {text:?}: {:?} (fast) vs {:?} (logos)",
            fast.errors(),
            reference.errors()
        )
    })
}

/// `text` quoted as Markdown code: in backticks, or in double ones with spaces when it
/// holds a backtick itself (`` `$ ``).
fn code_span(text: &str) -> String {
    match text.contains('`') {
        true => format!("`` {text} ``"),
        false => format!("`{text}`"),
    }
}
