//! The parser's cursor over significant tokens and its markers.
//!
//! The grammar sees only significant tokens (no trivia); each carries a bit saying whether a
//! newline came before it, because newlines end attributes and separate object items. A
//! parser that is [`Parser::building`] a tree tells the tree's sink (`syntax_node::Sink`,
//! which puts the trivia back) of each node and token as it goes; one that is not only
//! checks. The tokens are the whole text's, or a window of them that the parser moves along
//! a large file ([`Input::windowed`]), lexed as it goes or ahead of it on a thread of their
//! own ([`lex_ahead`], [`Input::lexed_ahead`]).

use std::cell::Cell;
use std::sync::mpsc::Receiver;

use pcl_diagnostics::{Anchor, Code, Diagnostic, FileId, Span, codes};
use rowan::{TextRange, TextSize};

use crate::SyntaxKind::{self, *};
use crate::flat::{FlatBuilder, NodeStart};
use crate::lexer::{LexedChunk, LexedText, Lexer};
use crate::syntax_node::Sink;
use crate::token_set::TokenSet;

/// How many levels of brackets, blocks and templates may nest before parsing gives up on the
/// inner part with a "nested too deeply" error. Guards the stack of the recursive descent.
pub(crate) const NESTING_LIMIT: u32 = 128;

/// How deep the tree may grow through chains of operators and traversals (`a.b.c…`, `a+b+c…`).
/// Guards the stack of code that walks or drops trees recursively.
pub(crate) const CHAIN_LIMIT: u32 = 2048;

/// The significant tokens of a text, as the grammar sees them: all of them
/// ([`Input::new`]), or a window that the parser moves along a large file
/// ([`Input::windowed`]).
pub(crate) struct Input<'t> {
    lexer: Lexer<'t>,
    significant: SignificantTokens,
    /// The last position [`Input::line_start`] was asked for, and its answer: the parser
    /// asks going forward, so the scans for line starts add up to one pass over the file.
    last_line_start: Cell<(usize, usize)>,
    /// Whether brackets of any kind fail to balance; enables indentation-based recovery.
    /// Known before parsing only when the text is lexed whole; a window assumes they
    /// balance, and its parse is redone whole when they do not ([`Input::balanced`]).
    unbalanced: bool,
    /// How many of the lexer's tokens are sorted into the significant ones so far.
    scanned: usize,
    /// What sorting them has carried so far.
    scan: Scan,
    /// The window's sizes; `None` when lexed whole.
    window: Option<Window>,
    /// Where the tokens come from when a lexer on another thread lexes them ahead
    /// ([`Input::lexed_ahead`]); `None` when `lexer` lexes them itself.
    ahead: Option<Receiver<LexedAhead>>,
}

/// The sizes of a window of tokens ([`Input::windowed`]): how many tokens each step
/// lexes, and how many may have been parsed before they are dropped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Window {
    pub(crate) step: usize,
    pub(crate) drop_after: usize,
}

impl Window {
    /// About a megabyte of token arrays at most, used over and over: a whole 10 MB file's
    /// took 35 MB, written once and read once, and 8,500 page faults.
    pub(crate) const LARGE_FILES: Window = Window {
        step: 16 * 1024,
        drop_after: 64 * 1024,
    };
}

/// What sorting tokens into the significant ones carries from one run of them to the next.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scan {
    /// Whether a newline came after the last significant token.
    newline: bool,
    /// Open brackets: parentheses, square brackets, braces (and template openings).
    balance: [i64; 3],
    /// How many comments hold [`crate::IGNORE_DIRECTIVE`].
    ignore_comments: u32,
}

impl Scan {
    /// Before the first token (a newline counts as seen: the first token starts a line).
    const START: Scan = Scan {
        newline: true,
        balance: [0; 3],
        ignore_comments: 0,
    };

    /// Sorts the tokens of `lexed` from `from` on into the significant ones.
    fn sort(&mut self, lexed: &LexedText<'_>, from: usize, into: &mut SignificantTokens) {
        let mut newline = self.newline;
        let mut balance = self.balance;
        for (idx, &kind) in lexed.kinds().iter().enumerate().skip(from) {
            match kind {
                NEWLINE => newline = true,
                WHITESPACE => (),
                COMMENT => {
                    if crate::is_ignore_comment(kind, lexed.text(idx)) {
                        self.ignore_comments += 1;
                    }
                }
                _ => {
                    match kind {
                        L_PAREN => balance[0] += 1,
                        R_PAREN => balance[0] -= 1,
                        L_BRACK => balance[1] += 1,
                        R_BRACK => balance[1] -= 1,
                        L_CURLY | INTERP_START | DIRECTIVE_START => balance[2] += 1,
                        R_CURLY => balance[2] -= 1,
                        _ => (),
                    }
                    into.kinds.push(kind);
                    into.raw.push(idx as u32);
                    into.newline_before.push(newline);
                    newline = matches!(kind, HEREDOC_START);
                }
            }
        }
        self.newline = newline;
        self.balance = balance;
    }
}

/// A chunk of tokens lexed and sorted on the lexing thread ([`lex_ahead`]): the tokens,
/// the significant ones among them (indices counted from the chunk's first token), and
/// the sorting's state after them.
pub(crate) struct LexedAhead {
    tokens: LexedChunk,
    significant: SignificantTokens,
    scan: Scan,
}

/// Significant tokens (not trivia), as the grammar reads them: their kinds, their indices
/// among the lexed tokens, and whether a newline precedes each (true for the first).
struct SignificantTokens {
    kinds: Vec<SyntaxKind>,
    raw: Vec<u32>,
    newline_before: Vec<bool>,
}

impl SignificantTokens {
    fn with_capacity(tokens: usize) -> SignificantTokens {
        SignificantTokens {
            kinds: Vec::with_capacity(tokens),
            raw: Vec::with_capacity(tokens),
            newline_before: Vec::with_capacity(tokens),
        }
    }
}

/// Lexes `text` in chunks of about `step` tokens, sorts each into the significant ones and
/// hands it to `send`, which says whether to go on (the parser still takes them): the
/// work of [`Input::extend`] for a parser on another thread ([`Input::lexed_ahead`]).
pub(crate) fn lex_ahead(text: &str, step: usize, mut send: impl FnMut(LexedAhead) -> bool) {
    let step = step.max(1);
    let mut lexer = Lexer::new(text, true, step);
    let mut scan = Scan::START;
    loop {
        lexer.lex_until(step);
        let mut significant = SignificantTokens::with_capacity(step);
        scan.sort(&lexer.res, 0, &mut significant);
        let done = lexer.done();
        let chunk = LexedAhead {
            tokens: lexer.take_chunk(step),
            significant,
            scan,
        };
        if !send(chunk) || done {
            return;
        }
    }
}

/// How many significant tokens past the current one are always at hand: the grammar
/// looks at most this far ahead, except through [`Parser::ensure_ahead`].
const LOOKAHEAD: usize = 8;

/// How many significant tokens before the current one a window keeps when it drops what
/// was parsed: the grammar looks back at most this far (error ranges, `prev_range`).
const LOOKBEHIND: usize = 8;

impl<'t> Input<'t> {
    /// The tokens of all of `text`.
    pub(crate) fn new(text: &'t str) -> Input<'t> {
        let lexer = Lexer::whole(text, true);
        let n_raw = lexer.res.len();
        let mut input = Input::with_lexer(lexer, n_raw, None);
        input.scan();
        input.unbalanced = !input.balanced();
        input
    }

    /// The tokens of `text`, a window at a time: the parser moves it on as it goes
    /// ([`Parser::bump_remap`], [`Parser::item_done`]).
    pub(crate) fn windowed(text: &'t str, window: Window) -> Input<'t> {
        let window = Window {
            step: window.step.max(1),
            ..window
        };
        let capacity = window.step + window.drop_after;
        let lexer = Lexer::new(text, true, capacity);
        Input::with_lexer(lexer, capacity, Some(window))
    }

    /// [`Input::windowed`] with the tokens lexed and sorted on another thread, which sends
    /// them in chunks of about `window.step` ([`lex_ahead`]) through `ahead`.
    pub(crate) fn lexed_ahead(
        text: &'t str,
        window: Window,
        ahead: Receiver<LexedAhead>,
    ) -> Input<'t> {
        let capacity = window.step.max(1) + window.drop_after;
        let mut input = Input::with_lexer(Lexer::fed(text, capacity), capacity, Some(window));
        input.ahead = Some(ahead);
        input
    }

    fn with_lexer(lexer: Lexer<'t>, capacity: usize, window: Option<Window>) -> Input<'t> {
        Input {
            lexer,
            significant: SignificantTokens::with_capacity(capacity),
            last_line_start: Cell::new((0, 0)),
            unbalanced: false,
            scanned: 0,
            scan: Scan::START,
            window,
            ahead: None,
        }
    }

    /// The lexer's tokens (those of the window, when windowed).
    pub(crate) fn lexed(&self) -> &LexedText<'t> {
        &self.lexer.res
    }

    /// The lexer's tokens, for a text lexed whole.
    pub(crate) fn into_lexed(self) -> LexedText<'t> {
        self.lexer.res
    }

    /// Whether the brackets balance; a windowed parse is redone whole when they do not.
    pub(crate) fn balanced(&self) -> bool {
        self.scan.balance == [0; 3]
    }

    /// How many comments hold [`crate::IGNORE_DIRECTIVE`].
    pub(crate) fn ignore_comments(&self) -> u32 {
        self.scan.ignore_comments
    }

    /// Sorts the lexer's new tokens into the significant ones.
    fn scan(&mut self) {
        let lexed = &self.lexer.res;
        self.scan.sort(lexed, self.scanned, &mut self.significant);
        self.scanned = lexed.len();
    }

    /// Takes a chunk of tokens the lexing thread lexed and sorted: as if this input had
    /// lexed and scanned them.
    fn take_chunk(&mut self, chunk: LexedAhead) {
        let first = self.lexer.res.len() as u32;
        self.lexer.append(chunk.tokens);
        self.significant
            .kinds
            .extend_from_slice(&chunk.significant.kinds);
        (self.significant.raw).extend(chunk.significant.raw.iter().map(|raw| raw + first));
        (self.significant.newline_before).extend_from_slice(&chunk.significant.newline_before);
        self.scan = chunk.scan;
        self.scanned = self.lexer.res.len();
    }

    /// Lexes at least one more significant token, or to the end; false at the end.
    #[cold]
    fn extend(&mut self) -> bool {
        let step = self.window.map_or(usize::MAX, |window| window.step);
        let before = self.significant.kinds.len();
        while self.significant.kinds.len() == before && !self.lexer.done() {
            match &self.ahead {
                Some(ahead) => match ahead.recv() {
                    Ok(chunk) => self.take_chunk(chunk),
                    // The lexing thread stopped before the end: it panicked, which the
                    // scope it runs in passes on once the parse returns.
                    Err(_) => break,
                },
                None => {
                    (self.lexer).lex_until(self.lexer.res.len().saturating_add(step));
                    self.scan();
                }
            }
        }
        self.significant.kinds.len() > before
    }

    /// Drops the first `significant` significant tokens and the first `raw` of the lexer's
    /// (all parsed and in the tree); positions then count from the first left.
    fn drop_front(&mut self, significant: usize, raw: usize) {
        self.significant.kinds.drain(..significant);
        self.significant.raw.drain(..significant);
        self.significant.newline_before.drain(..significant);
        let shift = raw as u32;
        for index in &mut self.significant.raw {
            *index -= shift;
        }
        self.lexer.res.drop_front(raw);
        self.scanned -= raw;
        let (asked, start) = self.last_line_start.get();
        self.last_line_start
            .set((asked - significant, start - significant));
    }

    /// The indentation, in bytes, of the line significant token `pos` is on (0 past the
    /// end): the blank before the token that starts the line. Computed when asked, as the
    /// parser needs it only at openings and for recovery.
    fn line_indent(&self, pos: usize) -> u32 {
        if pos >= self.significant.raw.len() {
            return 0;
        }
        let first = self.significant.raw[self.line_start(pos)] as usize;
        match first.checked_sub(1) {
            Some(prev) if self.lexed().kind(prev) == WHITESPACE => {
                u32::from(self.lexed().range(prev).len())
            }
            _ => 0,
        }
    }

    /// The significant token that starts the line `pos` (in bounds) is on: the last one at
    /// or before it with a newline before it (the first token has one).
    fn line_start(&self, pos: usize) -> usize {
        let last_start = |tokens: &[bool]| tokens.iter().rposition(|&newline| newline);
        let (asked, start) = self.last_line_start.get();
        let start = if pos >= asked {
            match last_start(&self.significant.newline_before[asked + 1..=pos]) {
                Some(offset) => asked + 1 + offset,
                None => start,
            }
        } else {
            last_start(&self.significant.newline_before[..=pos]).unwrap_or(0)
        };
        self.last_line_start.set((pos, start));
        start
    }
}

/// A lexing or parse error: its code, a message and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub code: Code,
    pub range: TextRange,
    pub message: String,
    /// Another place the message refers to, and what it is (say, "first set here").
    pub related: Option<(TextRange, String)>,
}

impl SyntaxError {
    /// The error as a diagnostic in `file`.
    pub fn to_diagnostic(&self, file: FileId) -> Diagnostic {
        let span = |range| Span { file, range };
        let diagnostic = Diagnostic::error(
            self.code,
            self.message.clone(),
            Anchor::Span(span(self.range)),
        );
        match &self.related {
            Some((range, label)) => diagnostic.with_label(span(*range), label.clone()),
            None => diagnostic,
        }
    }
}

/// What a parser reports.
pub(crate) struct ParseErrors {
    pub(crate) errors: Vec<SyntaxError>,
    /// The ranges that an error says to write anew whole (another language's statement or
    /// expression): the lexer's errors inside one (a backtick string in `new
    /// aws.s3.Bucket(`site`)`, Go's `&` in `&s3.BucketArgs{...}`) are part of what is
    /// rewritten, not mistakes of their own.
    pub(crate) rewritten: Vec<TextRange>,
}

pub(crate) struct Parser<'t> {
    input: Input<'t>,
    pos: usize,
    /// Where the tree is built, when one is ([`Parser::building`]).
    sink: Option<Sink>,
    errors: Vec<SyntaxError>,
    /// The ranges of errors that say what to write instead of the whole range (another
    /// language's import, or its `new aws.s3.Bucket(...)`): see [`ParseErrors::rewritten`].
    rewritten: Vec<TextRange>,
    /// How many significant tokens a window dropped before `pos`'s.
    dropped: usize,
    /// Checks of the current token since the last token was consumed.
    steps: u32,
    /// How many checks without progress mean that a grammar loop is stuck.
    step_limit: u32,
    /// Set when the step limit was reached: every token then reads as the end of input, so
    /// every rule returns, and [`Parser::wrap_rest_after_stop`] keeps the tree lossless.
    stopped: bool,
    /// Current nesting of brackets, blocks and templates.
    depth: u32,
    /// Current tree depth added by operator and traversal chains.
    pub(crate) chain: u32,
    newlines_significant: bool,
    /// The attribute names of the bodies being parsed (see `grammar::items::SeenAttributes`).
    pub(crate) attribute_names: Vec<(&'t str, TextRange)>,
}

/// How many checks of one token, without consuming it, mean that the parser is stuck. No
/// rule checks a token anywhere near this often; reaching it is a bug, reported as an
/// error (never a hang) in every build.
pub(crate) const PARSER_STEP_LIMIT: u32 = 64 * 1024;

impl<'t> Parser<'t> {
    /// A parser that only checks: its errors, no tree.
    pub(crate) fn new(input: Input<'t>, step_limit: u32) -> Parser<'t> {
        Parser {
            step_limit,
            stopped: false,
            sink: None,
            input,
            pos: 0,
            errors: Vec::new(),
            rewritten: Vec::new(),
            dropped: 0,
            steps: 0,
            depth: 0,
            chain: 0,
            newlines_significant: true,
            attribute_names: Vec::new(),
        }
    }

    /// The errors and the tokens of a parser made by [`Parser::new`].
    pub(crate) fn finish(self) -> (ParseErrors, Input<'t>) {
        let errors = ParseErrors {
            errors: self.errors,
            rewritten: self.rewritten,
        };
        (errors, self.input)
    }

    /// A parser that builds the tree as it goes; from a window of tokens, those in the
    /// tree are dropped once each top-level item is parsed.
    pub(crate) fn building(input: Input<'t>, step_limit: u32) -> Self {
        let mut parser = Parser::new(input, step_limit);
        parser.sink = Some(Sink::new(parser.input.lexer.text_len()));
        parser.ensure_ahead(LOOKAHEAD);
        parser
    }

    /// The flat tree built, the errors and the tokens of a parser made by
    /// [`Parser::building`].
    pub(crate) fn finish_tree(self) -> (FlatBuilder, ParseErrors, Input<'t>) {
        let text_len = self.input.lexer.text_len();
        let sink = self.sink.unwrap_or_else(|| Sink::new(text_len));
        let errors = ParseErrors {
            errors: self.errors,
            rewritten: self.rewritten,
        };
        (sink.finish(), errors, self.input)
    }

    /// A top-level item is parsed: the nodes in it that enclose others go in the tree
    /// being built, if one is (`flat::FlatBuilder::place_wrappers`); only the file's and
    /// its body's nodes are open then. A window of tokens then drops what is in the tree.
    pub(crate) fn item_done(&mut self) {
        if let Some(sink) = &mut self.sink {
            sink.item_done();
            self.drop_parsed_tokens();
        }
    }

    /// Drops the tokens of a window that are in the tree and no longer looked at: those
    /// before the current line and the [`LOOKBEHIND`] tokens before the current one.
    fn drop_parsed_tokens(&mut self) {
        let (Some(sink), Some(window)) = (&mut self.sink, self.input.window) else {
            return;
        };
        // Nothing to drop yet (`raw` below is at most what is in the tree).
        if sink.raw_pos() < window.drop_after || self.pos >= self.input.significant.kinds.len() {
            return;
        }
        let line_start = self.input.line_start(self.pos);
        let significant = line_start.min(self.pos.saturating_sub(LOOKBEHIND));
        // The blank before the line's first token gives the line's indentation.
        let raw = (self.input.significant.raw[significant] as usize)
            .saturating_sub(1)
            .min(sink.raw_pos());
        if raw < window.drop_after {
            return;
        }
        self.input.drop_front(significant, raw);
        sink.dropped_front(raw);
        self.pos -= significant;
        self.dropped += significant;
    }

    /// Lexes until the token `n` ahead is at hand (or the text ends).
    pub(crate) fn ensure_ahead(&mut self, n: usize) {
        while self.pos + n >= self.input.significant.kinds.len() && self.input.extend() {}
    }

    /// The kind of the current token (`EOF` at the end).
    pub(crate) fn current(&self) -> SyntaxKind {
        self.nth(0)
    }

    /// The kind of the token `n` ahead.
    pub(crate) fn nth(&self, n: usize) -> SyntaxKind {
        if self.stopped {
            return EOF;
        }
        self.input
            .significant
            .kinds
            .get(self.pos + n)
            .copied()
            .unwrap_or(EOF)
    }

    /// Where the parser is, for [`Parser::idents_since`].
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// The texts of the identifiers from `start` (a [`Parser::position`]) up to the
    /// current token (a path `a.b.c` read back, when a message needs it).
    #[cold]
    pub(crate) fn idents_since(&self, start: usize) -> Vec<&'t str> {
        let significant = &self.input.significant;
        (start..self.pos)
            .filter(|&at| significant.kinds.get(at) == Some(&IDENT))
            .filter_map(|at| significant.raw.get(at))
            .map(|&raw| self.input.lexed().text(raw as usize))
            .collect()
    }

    /// The text of the token `n` ahead (empty at the end).
    pub(crate) fn nth_text(&self, n: usize) -> &'t str {
        match self.input.significant.raw.get(self.pos + n) {
            Some(&raw) => self.input.lexed().text(raw as usize),
            None => "",
        }
    }

    #[inline]
    pub(crate) fn at(&mut self, kind: SyntaxKind) -> bool {
        self.tick();
        self.current() == kind
    }

    #[inline]
    pub(crate) fn at_ts(&mut self, set: TokenSet) -> bool {
        self.tick();
        set.contains(self.current())
    }

    /// Whether the token `n` ahead is the identifier `kw` (a contextual keyword).
    pub(crate) fn nth_at_kw(&self, n: usize, kw: &str) -> bool {
        self.nth(n) == IDENT && self.nth_text(n) == kw
    }

    /// Whether the current token starts a new line.
    pub(crate) fn at_line_start(&self) -> bool {
        self.nth_at_line_start(0)
    }

    /// Whether the token `n` ahead starts a new line (true at the end).
    pub(crate) fn nth_at_line_start(&self, n: usize) -> bool {
        (self.input.significant)
            .newline_before
            .get(self.pos + n)
            .copied()
            .unwrap_or(true)
    }

    /// Whether the current token is `kind` and continues the expression on the left: a newline
    /// ends an expression where newlines are significant (bodies and object constructors).
    pub(crate) fn at_continuation(&mut self, kind: SyntaxKind) -> bool {
        self.at(kind) && !(self.newlines_significant && self.at_line_start())
    }

    /// Whether a newline before the current token ends the current construct.
    pub(crate) fn newlines_significant(&self) -> bool {
        self.newlines_significant
    }

    /// Sets whether newlines are significant, returning the previous setting.
    pub(crate) fn set_newlines_significant(&mut self, significant: bool) -> bool {
        std::mem::replace(&mut self.newlines_significant, significant)
    }

    /// The indentation of the line the current token is on.
    pub(crate) fn line_indent(&self) -> u32 {
        self.input.line_indent(self.pos)
    }

    /// Whether the file's brackets do not balance.
    pub(crate) fn unbalanced(&self) -> bool {
        self.input.unbalanced
    }

    /// Whether the current token starts a line indented no deeper than `open_indent`, in a file
    /// whose brackets do not balance: then it most likely does not belong to an unclosed
    /// construct opened on a line with that indentation.
    /// `None` (from [`Parser::contents_indent`]) never is.
    pub(crate) fn at_outdented_line(&self, open_indent: Option<u32>) -> bool {
        self.input.unbalanced
            && open_indent.is_some_and(|open_indent| {
                self.at_line_start()
                    && self.line_indent() <= open_indent
                    && !matches!(self.current(), R_CURLY | R_BRACK | R_PAREN | EOF)
            })
    }

    /// The indentation [`Parser::at_outdented_line`] compares with, for a construct opened
    /// on a line indented `open_indent` whose contents begin at the current token: none
    /// when they begin on a line of their own indented no deeper (an unindented file,
    /// as converters write), where only brackets tell where the construct ends. Each line
    /// of such a body would otherwise end it, and one missing `}` became an error at every
    /// block of the file.
    pub(crate) fn contents_indent(&self, open_indent: u32) -> Option<u32> {
        let unindented = self.input.unbalanced
            && self.at_line_start()
            && self.line_indent() <= open_indent
            && !matches!(self.current(), R_CURLY | R_BRACK | R_PAREN | EOF);
        (!unindented).then_some(open_indent)
    }

    pub(crate) fn bump(&mut self) {
        let kind = self.current();
        self.bump_remap(kind);
    }

    /// Consumes the current token, giving it `kind` in the tree.
    // Always inlined, as `start`, `start_known`, `finish_node` and `complete`, and the
    // sink's work beneath them: as calls, saving registers for the sink's loop at each
    // token and node, they cost a check 2.5% more instructions and a check-only parse 6%.
    #[inline(always)]
    pub(crate) fn bump_remap(&mut self, kind: SyntaxKind) {
        if self.stopped || self.pos >= self.input.significant.kinds.len() {
            return;
        }
        if let Some(sink) = &mut self.sink {
            sink.token(kind, self.input.lexed());
        }
        self.pos += 1;
        self.steps = 0;
        if self.pos + LOOKAHEAD >= self.input.significant.kinds.len() {
            self.ensure_ahead(LOOKAHEAD);
        }
    }

    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if !self.at(kind) {
            return false;
        }
        self.bump();
        true
    }

    /// Consumes `kind` or reports that it was expected.
    pub(crate) fn expect(&mut self, kind: SyntaxKind) -> bool {
        if self.eat(kind) {
            return true;
        }
        self.error_expected(kind.describe());
        false
    }

    /// Reports "expected `what`, found …" at the current token.
    pub(crate) fn error_expected(&mut self, what: &str) {
        let found = self.describe_current();
        self.error(
            codes::EXPECTED_TOKEN,
            format!("expected {what}, found {found}"),
        );
    }

    /// How the current token reads in an error message; a significant line break before it
    /// reads as "a newline".
    pub(crate) fn describe_current(&self) -> String {
        if self.newlines_significant && self.at_line_start() && self.pos > 0 && !self.at_end() {
            return "a newline".to_owned();
        }
        self.describe_token()
    }

    /// How the current token itself reads in an error message.
    pub(crate) fn describe_token(&self) -> String {
        match self.current() {
            EOF => "end of file".to_owned(),
            IDENT => format!("`{}`", self.nth_text(0)),
            TEMPLATE_CHUNK => "template text".to_owned(),
            kind => kind.describe().to_owned(),
        }
    }

    /// Reports an error at the current token; at a significant line break or the end of the
    /// input, at the end of the previous token instead.
    /// Enters one more level of nesting (brackets, blocks, templates, unary operators). At
    /// the limit it reports PCL1009 at the current token and returns `false`: the caller then
    /// skips what it would have nested instead of recursing. Pair with [`Parser::leave_nesting`].
    pub(crate) fn enter_nesting(&mut self) -> bool {
        if self.depth >= NESTING_LIMIT {
            self.error(
                codes::NESTED_TOO_DEEPLY,
                format!("nested too deeply: more than {NESTING_LIMIT} levels of nesting"),
            );
            return false;
        }
        self.depth += 1;
        true
    }

    /// Enters one more level of nesting without the limit check, for lists whose elements
    /// are expressions that check it themselves. Pair with [`Parser::leave_nesting`].
    pub(crate) fn enter_list_nesting(&mut self) {
        self.depth += 1;
    }

    pub(crate) fn leave_nesting(&mut self) {
        self.depth -= 1;
    }

    /// How many errors are reported so far: with [`Parser::errors_since`], what a part of
    /// the input reported.
    pub(crate) fn error_count(&self) -> usize {
        self.errors.len()
    }

    /// The errors reported after the first `count`.
    pub(crate) fn errors_since(&self, count: usize) -> &[SyntaxError] {
        self.errors.get(count..).unwrap_or_default()
    }

    /// Reports an error whose message says what to write instead of all of `range`:
    /// the lexer's errors inside it are not reported ([`ParseErrors::rewritten`]).
    pub(crate) fn error_rewriting(&mut self, range: TextRange, code: Code, message: String) {
        let count = self.errors.len();
        self.error_at(range, code, message);
        if self.errors.len() > count {
            self.rewritten.push(range);
        }
    }

    pub(crate) fn error(&mut self, code: Code, message: String) {
        let range = self.current_error_range();
        self.error_at(range, code, message);
    }

    /// Reports an error at an explicit range. Only the first error at a position is kept:
    /// later ones are follow-ups of the same mistake.
    pub(crate) fn error_at(&mut self, range: TextRange, code: Code, message: String) {
        if self
            .errors
            .last()
            .is_some_and(|last| last.range.start() == range.start())
        {
            return;
        }
        self.errors.push(SyntaxError {
            code,
            range,
            message,
            related: None,
        });
    }

    /// Reports an error at `range` that refers to another place, `related`, labelled `label`.
    pub(crate) fn error_related(
        &mut self,
        range: TextRange,
        code: Code,
        message: String,
        related: TextRange,
        label: &str,
    ) {
        let before = self.errors.len();
        self.error_at(range, code, message);
        if self.errors.len() > before
            && let Some(last) = self.errors.last_mut()
        {
            last.related = Some((related, label.to_owned()));
        }
    }

    /// Whether the current token starts a line where newlines end expressions.
    pub(crate) fn at_significant_line_start(&self) -> bool {
        self.newlines_significant && self.at_line_start() && self.pos > 0
    }

    /// Whether the token `n` ahead touches the significant token before it: no whitespace,
    /// newline or comment in between.
    pub(crate) fn nth_is_joined(&self, n: usize) -> bool {
        let at = self.pos + n;
        match (at.checked_sub(1), self.input.significant.raw.get(at)) {
            (Some(prev), Some(&raw)) => self
                .input
                .significant
                .raw
                .get(prev)
                .is_some_and(|&p| p + 1 == raw),
            _ => false,
        }
    }

    /// The range of the current token.
    pub(crate) fn current_range(&self) -> TextRange {
        self.nth_range(0)
    }

    /// The range of the token `n` ahead.
    pub(crate) fn nth_range(&self, n: usize) -> TextRange {
        match self.input.significant.raw.get(self.pos + n) {
            Some(&raw) => self.input.lexed().range(raw as usize),
            None => TextRange::empty(TextSize::new(self.input.lexed().range_end())),
        }
    }

    /// The range of the token `n` significant tokens back (`n` ≥ 1), or an empty range at 0.
    pub(crate) fn prev_range(&self, n: usize) -> TextRange {
        match self
            .pos
            .checked_sub(n)
            .and_then(|idx| self.input.significant.raw.get(idx))
        {
            Some(&raw) => self.input.lexed().range(raw as usize),
            None => TextRange::empty(TextSize::new(0)),
        }
    }

    pub(crate) fn current_error_range(&self) -> TextRange {
        let at_break = self.current() == EOF
            || (self.newlines_significant && self.at_line_start() && self.pos > 0);
        if !at_break {
            return self.current_range();
        }
        // Point at the line break right after the previous token, or at the end of the input.
        let Some(prev) = self.pos.checked_sub(1) else {
            return self.current_range();
        };
        let after_prev = self.input.significant.raw[prev] as usize + 1;
        let lexed = self.input.lexed();
        (after_prev..lexed.len())
            .take_while(|&idx| lexed.kind(idx).is_trivia())
            .find(|&idx| lexed.kind(idx) == NEWLINE)
            .map_or_else(|| self.current_range(), |idx| lexed.range(idx))
    }

    /// Wraps the current token in an `ERROR` node and reports `message` at it.
    pub(crate) fn err_and_bump(&mut self, code: Code, message: String) {
        // The message is about this token, even at the start of a line.
        self.error_at(self.current_range(), code, message);
        let m = self.start();
        self.bump();
        m.complete(self, ERROR);
    }

    /// A node starts at the next token; its kind is given when it is complete.
    #[inline(always)]
    pub(crate) fn start(&mut self) -> Marker {
        // The kind is a placeholder until then.
        self.start_known(ERROR)
    }

    /// A node whose kind is known before its content (the file, a body): the tree's
    /// builder notes them as they start.
    #[inline(always)]
    pub(crate) fn start_known(&mut self, kind: SyntaxKind) -> Marker {
        if let Some(sink) = &mut self.sink {
            sink.start_node(kind, self.input.lexed());
        }
        Marker { _private: () }
    }

    /// The last node started ends after the last token consumed.
    #[inline(always)]
    fn finish_node(&mut self, kind: SyntaxKind) -> NodeStart {
        let Some(sink) = &mut self.sink else {
            return NodeStart::default();
        };
        if sink.depth() == 1 {
            // The root takes in the rest of a window's text (the grammar reads to the end).
            while self.input.extend() {}
            return sink.finish_root(kind, self.input.lexed());
        }
        sink.finish_node(kind, self.input.lexed())
    }

    /// Guards against a grammar loop that makes no progress: past the step limit, report
    /// it once and read every token as the end of input, so every loop ends.
    #[inline]
    fn tick(&mut self) {
        self.steps += 1;
        if self.steps >= self.step_limit && !self.stopped {
            self.stop();
        }
    }

    /// Past the step limit: the one report, and the end of input from here on.
    #[cold]
    #[inline(never)]
    fn stop(&mut self) {
        let range = self.current_range();
        self.error_at(
            range,
            codes::PARSER_STOPPED,
            "the parser made no progress here and stopped; the rest of the file is not checked \
             (this is a bug in pcl: please report it with this file)"
                .to_owned(),
        );
        self.stopped = true;
    }

    /// After a stop, wraps the tokens that were never consumed in an `ERROR` node, so the
    /// tree still holds the whole text.
    pub(crate) fn wrap_rest_after_stop(&mut self) {
        if !self.stopped {
            return;
        }
        self.stopped = false;
        let m = self.start();
        while !self.at_end() {
            self.bump();
        }
        m.complete(self, ERROR);
    }

    /// How many significant tokens were consumed; loops compare it to ensure progress.
    pub(crate) fn progress(&self) -> usize {
        self.dropped + self.pos
    }

    /// Whether the parser has consumed every token.
    pub(crate) fn at_end(&self) -> bool {
        self.stopped || self.pos >= self.input.significant.kinds.len()
    }

    /// Consumes tokens into an `ERROR` node until a token of `stop` at bracket depth 0, a line
    /// start at depth 0 (when `stop_at_line_start`), a closing bracket that would go below
    /// depth 0, or the end of input. Returns whether anything was consumed.
    pub(crate) fn skip_until(&mut self, stop: TokenSet, stop_at_line_start: bool) -> bool {
        let m = self.start();
        let mut balance = 0u32;
        let mut consumed = false;
        loop {
            let kind = self.current();
            if kind == EOF {
                break;
            }
            if balance == 0 {
                if consumed && stop_at_line_start && self.at_line_start() {
                    break;
                }
                if stop.contains(kind) || matches!(kind, R_CURLY | R_BRACK | R_PAREN) && consumed {
                    break;
                }
                if matches!(
                    kind,
                    R_CURLY | R_BRACK | R_PAREN | CLOSE_QUOTE | HEREDOC_END
                ) {
                    break;
                }
            }
            match kind {
                L_PAREN | L_BRACK | L_CURLY | INTERP_START | DIRECTIVE_START | OPEN_QUOTE
                | HEREDOC_START => balance += 1,
                R_PAREN | R_BRACK | R_CURLY | CLOSE_QUOTE | HEREDOC_END => {
                    balance = balance.saturating_sub(1)
                }
                _ => (),
            }
            self.bump();
            consumed = true;
        }
        if consumed {
            m.complete(self, ERROR);
        } else {
            m.abandon(self);
        }
        consumed
    }

    /// Consumes one balanced unit (a token, or an opening bracket through its match) into an
    /// `ERROR` node. Used when nesting is too deep to parse the unit.
    pub(crate) fn skip_balanced(&mut self) -> CompletedMarker {
        let m = self.start();
        let mut balance = 0u32;
        loop {
            match self.current() {
                EOF => break,
                L_PAREN | L_BRACK | L_CURLY | INTERP_START | DIRECTIVE_START | OPEN_QUOTE
                | HEREDOC_START => balance += 1,
                R_PAREN | R_BRACK | R_CURLY | CLOSE_QUOTE | HEREDOC_END => {
                    if balance == 0 {
                        break;
                    }
                    balance -= 1;
                }
                _ => (),
            }
            self.bump();
            if balance == 0 {
                break;
            }
        }
        m.complete(self, ERROR)
    }
}

/// A node being parsed; `complete` or `abandon` it. Nodes end in the opposite order they
/// start.
#[must_use]
pub(crate) struct Marker {
    _private: (),
}

impl Marker {
    #[inline(always)]
    pub(crate) fn complete(self, p: &mut Parser<'_>, kind: SyntaxKind) -> CompletedMarker {
        CompletedMarker {
            node: p.finish_node(kind),
        }
    }

    /// Drops the node: what it holds is its parent's. A node whose children were
    /// consumed is abandoned only before any of them is preceded.
    pub(crate) fn abandon(self, p: &mut Parser<'_>) {
        if let Some(sink) = &mut p.sink {
            sink.abandon_node();
        }
    }
}

/// A finished node, which can still be wrapped in a new parent.
#[derive(Clone, Copy)]
pub(crate) struct CompletedMarker {
    node: NodeStart,
}

impl CompletedMarker {
    /// Starts a node that encloses this one: `a` becomes the first child of `a.b`.
    pub(crate) fn precede(self, p: &mut Parser<'_>) -> Wrapping {
        if let Some(sink) = &mut p.sink {
            sink.precede(self.node);
        }
        Wrapping { _private: () }
    }
}

/// A node being parsed around a finished one ([`CompletedMarker::precede`]); it is
/// completed, never abandoned (the tree's builder keeps it aside until its item is done).
#[must_use]
pub(crate) struct Wrapping {
    _private: (),
}

impl Wrapping {
    #[inline(always)]
    pub(crate) fn complete(self, p: &mut Parser<'_>, kind: SyntaxKind) -> CompletedMarker {
        CompletedMarker {
            node: p.finish_node(kind),
        }
    }
}
