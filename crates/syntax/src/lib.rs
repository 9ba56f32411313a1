//! Syntax of PCL (HCL native syntax): lexer, error-recovering parser, lossless tree and typed AST.
//!
//! Invariants:
//! - This crate knows nothing of salsa, schemas, files or LSP. A tree is a value.
//! - Parsing never fails: it returns a tree and a list of errors. The concatenated token texts
//!   of the tree equal the input byte for byte, for every input.
//! - No input overflows the stack: nesting is limited in the parser and reported.

use std::sync::{Arc, OnceLock};

pub mod ast;
mod encoding;
mod flat;
pub mod foreign;
mod grammar;
mod lexer;
mod parser;
mod reparse;
mod syntax_kind;
mod syntax_node;
mod token_set;

#[cfg(test)]
mod tests;

pub use encoding::{InvalidUtf8, decode_source};
pub use flat::{ElementRef, ItemSyntax, NodeRef, TokenRef};
pub use lexer::{LexError, LexedText, fast_path_disagreement, is_identifier};
pub use parser::SyntaxError;
pub use reparse::ChangedRange;
pub use rowan::{
    GreenNode, GreenNodeData, NodeOrToken, TextRange, TextSize, TokenAtOffset, WalkEvent,
};
pub use syntax_kind::SyntaxKind;
pub use syntax_node::{PclLanguage, SyntaxElement, SyntaxNode, SyntaxNodeChildren, SyntaxToken};

/// The result of parsing: a lossless tree and the errors found on the way, sorted by position.
#[derive(Clone)]
pub struct Parse {
    tree: Arc<Tree>,
    errors: Vec<SyntaxError>,
    /// How many comments hold [`IGNORE_DIRECTIVE`].
    ignore_comments: u32,
    /// The addresses of the top-level items with an identifier [`INVOKE`], sorted (see
    /// [`Parse::item_may_invoke`]); of a spliced tree, its base's; a flat tree's are
    /// found when its root is built.
    invoking_items: Arc<[usize]>,
    /// Whether a spliced tree's new item has one.
    replaced_item_invokes: bool,
    /// Whether the brackets balance: when they do not, reparsing a large file goes
    /// straight to the whole text's parse (a window's would be thrown away).
    brackets_balance: bool,
}

/// The builtin that calls a provider function: an item's packages include the ones its
/// `invoke` calls name.
pub const INVOKE: &str = "invoke";

/// A parse's tree: flat, as the parser builds it, with the rowan root built on first use
/// (a check reads the items' flat views and never asks); built (items shared with an
/// earlier parse, `Parse::reparse`); or an earlier built tree with one top-level item
/// replaced (`Parse::reparse`), whose root is built on first use. Building a new root
/// copies the file body's list of children (every item of the file, each a reference count
/// touched): a large file's edits re-check and re-publish without it.
enum Tree {
    Flat {
        tree: Arc<flat::FlatTree>,
        /// The file body's top-level items.
        items: Box<[ItemSyntax]>,
        /// The rowan root, and the addresses of the items that may call `invoke`.
        root: OnceLock<(GreenNode, Arc<[usize]>)>,
    },
    Built(GreenNode),
    Spliced {
        splice: reparse::Splice,
        root: OnceLock<GreenNode>,
    },
}

/// What a comment that silences diagnostics says: `# pcl-ignore PCL0001`.
pub const IGNORE_DIRECTIVE: &str = "pcl-ignore";

/// Whether a comment token's text holds [`IGNORE_DIRECTIVE`].
fn is_ignore_comment(kind: SyntaxKind, text: &str) -> bool {
    kind == SyntaxKind::COMMENT && text.contains(IGNORE_DIRECTIVE)
}

impl PartialEq for Parse {
    fn eq(&self, other: &Parse) -> bool {
        self.green() == other.green()
            && self.errors == other.errors
            && self.ignore_comments == other.ignore_comments
    }
}

impl Eq for Parse {}

impl std::fmt::Debug for Parse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parse")
            .field("green", self.green())
            .field("errors", &self.errors)
            .finish()
    }
}

impl Parse {
    fn built(
        green: GreenNode,
        errors: Vec<SyntaxError>,
        ignore_comments: u32,
        invoking_items: Vec<usize>,
        brackets_balance: bool,
    ) -> Parse {
        Parse {
            tree: Arc::new(Tree::Built(green)),
            errors,
            ignore_comments,
            invoking_items: invoking_items.into(),
            replaced_item_invokes: false,
            brackets_balance,
        }
    }

    /// The parse of a text as the parser builds it: a flat tree and its items.
    fn flat(
        tree: Arc<flat::FlatTree>,
        items: Box<[ItemSyntax]>,
        errors: Vec<SyntaxError>,
        ignore_comments: u32,
        brackets_balance: bool,
    ) -> Parse {
        Parse {
            tree: Arc::new(Tree::Flat {
                tree,
                items,
                root: OnceLock::new(),
            }),
            errors,
            ignore_comments,
            invoking_items: Arc::from([]),
            replaced_item_invokes: false,
            brackets_balance,
        }
    }

    /// Whether `item`, one of this parse's top-level items, may call [`INVOKE`]: false
    /// when it has no identifier `invoke` (the tree builder notes the items that do), so
    /// what looks for `invoke` calls need not walk it.
    pub fn item_may_invoke(&self, item: &GreenNodeData) -> bool {
        if let Tree::Spliced { splice, .. } = &*self.tree
            && std::ptr::eq(splice.item(), item)
        {
            return self.replaced_item_invokes;
        }
        let address = std::ptr::from_ref(item) as usize;
        self.invoking_addresses().binary_search(&address).is_ok()
    }

    /// The addresses of the items of the tree's root that may call [`INVOKE`], sorted.
    fn invoking_addresses(&self) -> &Arc<[usize]> {
        match &*self.tree {
            Tree::Flat { tree, items, root } => &flat_root(tree, items, root).1,
            _ => &self.invoking_items,
        }
    }

    /// The handles of the file body's items, in order: a flat parse's own, or made from
    /// the nodes of a built or spliced one.
    pub fn item_syntaxes(&self) -> std::borrow::Cow<'_, [ItemSyntax]> {
        match &*self.tree {
            Tree::Flat { items, .. } => std::borrow::Cow::Borrowed(items),
            _ => (self.top_level_item_nodes())
                .map(|item| ItemSyntax::from_green(item, self.item_may_invoke(item)))
                .collect(),
        }
    }

    /// Where each of the file body's items starts, in order (no rowan root is built for a
    /// flat parse).
    pub fn item_starts(&self) -> Vec<TextSize> {
        match &*self.tree {
            Tree::Flat { items, .. } => items.iter().map(ItemSyntax::start).collect(),
            _ => self.top_level_places().map(|(_, start)| start).collect(),
        }
    }

    /// The root node (`SOURCE_FILE`).
    pub fn syntax_node(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green().clone())
    }

    /// The green (position-independent, shareable) tree, built now if this parse replaced
    /// an item of an earlier one.
    pub fn green(&self) -> &GreenNode {
        match &*self.tree {
            Tree::Flat { tree, items, root } => &flat_root(tree, items, root).0,
            Tree::Built(green) => green,
            Tree::Spliced { splice, root } => root.get_or_init(|| splice.build()),
        }
    }

    /// The typed root.
    pub fn tree(&self) -> ast::SourceFile {
        use ast::AstNode;
        // The root is always SOURCE_FILE, so the cast cannot fail.
        ast::SourceFile::cast(self.syntax_node()).unwrap_or_else(|| unreachable!())
    }

    /// Lexing and parsing errors, sorted by position.
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// Whether some comment holds [`IGNORE_DIRECTIVE`]: kept as a count through reparses,
    /// so a file without one is known at once, without walking its tree or its text.
    pub fn has_ignore_comments(&self) -> bool {
        self.ignore_comments > 0
    }

    /// The green nodes of the file's top-level items (the attributes and blocks of its
    /// body), in order, with their offsets. Reads the green tree only: no syntax nodes are
    /// built.
    pub fn top_level_items(&self) -> Vec<(GreenNode, TextSize)> {
        (self.top_level_places())
            .map(|(node, offset)| (node.to_owned(), offset))
            .collect()
    }

    /// [`Parse::top_level_items`] borrowed.
    fn top_level_places(&self) -> impl Iterator<Item = (&GreenNodeData, TextSize)> {
        let green = self.green();
        let body = reparse::body_of(green);
        let mut offset: TextSize = (body.iter())
            .flat_map(|(index, _)| green.children().take(*index))
            .map(|child| child.text_len())
            .sum();
        (body.into_iter())
            .flat_map(|(_, body)| body.children())
            .filter_map(move |item| {
                let start = offset;
                offset += item.text_len();
                item.into_node()
                    .filter(|node| is_top_level_item(node))
                    .map(|node| (node, start))
            })
    }

    /// When this parse is `earlier`'s with one top-level item parsed again (`reparse`,
    /// typing inside one item): that item's place among the top-level items, and its new
    /// node. The others are `earlier`'s nodes, so a driver that keeps items by identity
    /// need not compare them.
    pub fn replaced_item_of(&self, earlier: &Parse) -> Option<(usize, &GreenNodeData)> {
        match &*self.tree {
            Tree::Spliced { splice, .. } if splice.follows(&earlier.tree) => {
                Some(splice.replaced_item())
            }
            _ => None,
        }
    }

    /// [`Parse::top_level_items`] borrowed, without their offsets: what comparing items
    /// by identity needs (no reference count is touched, and a root not built yet is not
    /// built).
    pub fn top_level_item_nodes(&self) -> impl Iterator<Item = &GreenNodeData> {
        let (body, replaced) = match &*self.tree {
            Tree::Spliced { splice, root } if root.get().is_none() => {
                (Some(splice.base_body()), Some(splice.replaced()))
            }
            _ => (reparse::body_of(self.green()).map(|(_, body)| body), None),
        };
        (body.into_iter())
            .flat_map(|body| body.children().enumerate())
            .filter_map(move |(i, child)| match replaced {
                Some((index, item)) if index == i => Some(item),
                _ => child.into_node(),
            })
            .filter(|node| is_top_level_item(node))
    }
}

/// A flat tree's rowan root (built now if it was not), and the addresses of its items
/// that may call [`INVOKE`], sorted.
fn flat_root<'t>(
    tree: &flat::FlatTree,
    items: &[ItemSyntax],
    root: &'t OnceLock<(GreenNode, Arc<[usize]>)>,
) -> &'t (GreenNode, Arc<[usize]>) {
    root.get_or_init(|| {
        let green = tree.green(items);
        let mut invoking: Vec<usize> = (items.iter())
            .filter(|item| item.may_invoke())
            .map(|item| std::ptr::from_ref::<GreenNodeData>(item.green()) as usize)
            .collect();
        invoking.sort_unstable();
        (green, invoking.into())
    })
}

/// Whether a child node of the file's body is a top-level item (an attribute or a block).
pub(crate) fn is_top_level_item(node: &GreenNodeData) -> bool {
    matches!(
        SyntaxKind::from_raw(node.kind().0),
        SyntaxKind::ATTRIBUTE | SyntaxKind::BLOCK
    )
}

/// Renders a tree one line per node or token, indented two spaces per depth, as
/// `KIND@START..END`, tokens followed by their text as a Rust debug string.
pub fn debug_tree(root: &SyntaxNode) -> String {
    use std::fmt::Write;
    let mut res = String::new();
    let mut depth = 0usize;
    for event in root.preorder_with_tokens() {
        match event {
            WalkEvent::Enter(element) => {
                let range = element.text_range();
                let kind = element.kind();
                let _ = write!(
                    res,
                    "{:indent$}{kind:?}@{}..{}",
                    "",
                    u32::from(range.start()),
                    u32::from(range.end()),
                    indent = depth * 2
                );
                match element {
                    rowan::NodeOrToken::Node(_) => depth += 1,
                    rowan::NodeOrToken::Token(token) => {
                        let _ = write!(res, " {:?}", token.text());
                    }
                }
                res.push('\n');
            }
            WalkEvent::Leave(rowan::NodeOrToken::Node(_)) => depth -= 1,
            WalkEvent::Leave(rowan::NodeOrToken::Token(_)) => (),
        }
    }
    res
}

/// Parses `text` as an HCL/PCL file. Never fails: broken input gives a tree and errors.
/// The tree keeps a copy of the text.
pub fn parse(text: &str) -> Parse {
    parse_with_step_limit(Source::Copied(text), parser::PARSER_STEP_LIMIT)
}

/// [`parse`] of a text the tree keeps a reference to, not a copy (a checked file's text,
/// which its owner keeps as long: 10 MB of a 10 MB file's check).
pub fn parse_shared(text: &Arc<String>) -> Parse {
    parse_with_step_limit(Source::Shared(text), parser::PARSER_STEP_LIMIT)
}

/// A text to parse, and how the tree keeps it.
#[derive(Clone, Copy)]
enum Source<'t> {
    Copied(&'t str),
    Shared(&'t Arc<String>),
}

impl<'t> Source<'t> {
    fn text(self) -> &'t str {
        match self {
            Source::Copied(text) => text,
            Source::Shared(text) => text,
        }
    }

    /// The text for the tree to keep.
    fn kept(self) -> Arc<String> {
        match self {
            Source::Copied(text) => Arc::new(text.to_owned()),
            Source::Shared(text) => text.clone(),
        }
    }
}

/// The syntax errors of `text`, as `parse(text).errors()` has them, without building the
/// tree (for passes that need only to know that a file is well formed, such as the
/// formatter's).
pub fn syntax_errors(text: &str) -> Vec<SyntaxError> {
    lex_and_check(text).1
}

/// The tokens of `text` and its syntax errors, without building the tree (for passes
/// over the tokens of files that must be well formed, such as the formatter).
pub fn lex_and_check(text: &str) -> (LexedText<'_>, Vec<SyntaxError>) {
    let mut parser = parser::Parser::new(parser::Input::new(text), parser::PARSER_STEP_LIMIT);
    grammar::source_file(&mut parser);
    let (parse_errors, input) = parser.finish();
    let lexed = input.into_lexed();
    let errors = all_errors(text, &lexed, parse_errors);
    (lexed, errors)
}

/// Texts from this size on are parsed from a window of tokens ([`parser::Window`]): a
/// smaller one's whole token arrays cost little, and are used again for the next file.
const WINDOWED_FROM: usize = 512 * 1024;

/// [`parse`] with a given step limit: tests force the limit with a small one.
fn parse_with_step_limit(text: Source<'_>, step_limit: u32) -> Parse {
    if text.text().len() >= WINDOWED_FROM
        && let Some(parse) = parse_windowed(text, step_limit, parser::Window::LARGE_FILES)
    {
        return parse;
    }
    parse_whole(text, step_limit)
}

/// [`parse`] of an edited text whose earlier version's brackets did or did not balance:
/// most edits leave that as it was, so when they did not, the whole text's parse is made
/// at once instead of after a window's (typing an opening bracket into a large file
/// leaves it unbalanced for every keystroke until the closing one).
fn parse_after(text: &str, brackets_balanced_before: bool) -> Parse {
    match brackets_balanced_before {
        true => parse(text),
        false => parse_whole(Source::Copied(text), parser::PARSER_STEP_LIMIT),
    }
}

/// [`parse`] from a window of tokens: `None` when the brackets turn out not to balance,
/// which changes how the parser recovers from errors (it would have to know from the
/// start), so the text is parsed again whole. The tree and the errors are those of the
/// whole text's parse (`tests::windowed_parses_equal_whole_ones`).
fn parse_windowed(text: Source<'_>, step_limit: u32, window: parser::Window) -> Option<Parse> {
    let parse = match LEXING_AHEAD.get() {
        true => parse_lexed_ahead(text, step_limit, window),
        false => build(
            text,
            parser::Input::windowed(text.text(), window),
            step_limit,
        ),
    };
    parse.brackets_balance.then_some(parse)
}

/// The windowed parse with the tokens lexed on a thread of their own, ahead of the
/// parser: the same tokens in the same windows (`tests::windowed_parses_equal_whole_ones`),
/// for a core that would otherwise wait ([`with_lexing_ahead`]). On this thread when no
/// other can be started.
fn parse_lexed_ahead(text: Source<'_>, step_limit: u32, window: parser::Window) -> Parse {
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::sync_channel(CHUNKS_AHEAD);
        let step = window.step.max(1);
        let lexing = std::thread::Builder::new()
            .name("pcl-lex".to_owned())
            .spawn_scoped(scope, move || {
                // The parser stops taking chunks (drops the receiver) when it is done.
                parser::lex_ahead(text.text(), step, |chunk| send.send(chunk).is_ok());
            });
        match lexing {
            Ok(lexing) => {
                let parse = build(
                    text,
                    parser::Input::lexed_ahead(text.text(), window, receive),
                    step_limit,
                );
                // The input, and the receiver in it, are dropped: the lexing thread stops
                // at its next chunk. Joined to its very end (a scope waits only for its
                // closure), so what its thread-locals hold (a blocked sender's) is freed
                // before the parse returns.
                if let Err(panic) = lexing.join() {
                    std::panic::resume_unwind(panic);
                }
                parse
            }
            Err(_) => build(
                text,
                parser::Input::windowed(text.text(), window),
                step_limit,
            ),
        }
    })
}

/// How many chunks of tokens the lexing thread may have lexed that the parser has not
/// taken: enough that neither waits for the other at each chunk, few enough to keep the
/// window's memory small.
const CHUNKS_AHEAD: usize = 4;

thread_local! {
    /// Whether large files parsed on this thread are lexed on another ([`with_lexing_ahead`]).
    static LEXING_AHEAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `parse` with the large files parsed on this thread (from 512 KiB) lexed on a
/// thread of their own, ahead of the parser: for drivers with a core that would wait
/// while this one parses (fewer files than threads). Trees, errors and everything else
/// are as without it.
pub fn with_lexing_ahead<R>(parse: impl FnOnce() -> R) -> R {
    /// Puts the setting back, also when `parse` unwinds (a cancelled query).
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            LEXING_AHEAD.set(self.0);
        }
    }
    let _restore = Restore(LEXING_AHEAD.replace(true));
    parse()
}

/// [`parse`] as a large file is parsed, from a window of tokens: `step` more lexed at a
/// time, those parsed dropped once `drop_after` of them are. For tests and fuzzing, which
/// compare it with the whole text's parse; `None` when the brackets do not balance (a
/// large file is then parsed whole).
pub fn parse_in_windows(text: &str, step: usize, drop_after: usize) -> Option<Parse> {
    let window = parser::Window { step, drop_after };
    parse_windowed(Source::Copied(text), parser::PARSER_STEP_LIMIT, window)
}

/// [`parse`] from all of `text`'s tokens at once.
fn parse_whole(text: Source<'_>, step_limit: u32) -> Parse {
    build(text, parser::Input::new(text.text()), step_limit)
}

/// Parses `input` (of `text`) into a tree.
fn build(text: Source<'_>, input: parser::Input<'_>, step_limit: u32) -> Parse {
    let mut parser = parser::Parser::building(input, step_limit);
    grammar::source_file(&mut parser);
    let (builder, parse_errors, input) = parser.finish_tree();
    let errors = all_errors(text.text(), input.lexed(), parse_errors);
    let (tree, items) = builder.finish(text.kept());
    Parse::flat(
        tree,
        items,
        errors,
        input.ignore_comments(),
        input.balanced(),
    )
}

/// The lexer's and the parser's errors, one per cause, sorted by position.
fn all_errors(text: &str, lexed: &LexedText<'_>, parse: parser::ParseErrors) -> Vec<SyntaxError> {
    let mut lex_error_starts: Vec<TextSize> =
        lexed.errors().iter().map(|e| e.range.start()).collect();
    lex_error_starts.sort_unstable();
    // A parse error where the lexer already reported one (a stray `@`, a malformed heredoc
    // opener) follows from it: one error per cause, the lexer's.
    // An unterminated heredoc takes the rest of the file, closing brackets included: the
    // brackets it leaves unclosed are not further mistakes.
    let heredoc_start = (lexed.errors().iter())
        .filter(|err| err.code == pcl_diagnostics::codes::UNTERMINATED_HEREDOC)
        .map(|err| err.range.start())
        .min();
    let lexer_reported = |start: TextSize| lex_error_starts.binary_search(&start).is_ok();
    // What an error says to write anew whole holds no mistakes of its own (the backtick
    // string in `new aws.s3.Bucket(`site`)`, the `&` of `&s3.BucketArgs{...}`).
    let mut rewritten = parse.rewritten;
    rewritten.sort_unstable_by_key(|range| range.start());
    // The furthest end among the ranges up to each: a position is inside one of those
    // starting at or before it when it is before that end.
    let reach: Vec<TextSize> = (rewritten.iter())
        .scan(TextSize::from(0), |furthest, range| {
            *furthest = (*furthest).max(range.end());
            Some(*furthest)
        })
        .collect();
    let inside_rewritten = |start: TextSize| {
        let up_to = rewritten.partition_point(|range| range.start() <= start);
        up_to > 0 && start < reach[up_to - 1]
    };
    let is_rewriting = |range: TextRange| {
        let at = rewritten.partition_point(|r| r.start() < range.start());
        (rewritten[at..].iter())
            .take_while(|r| r.start() == range.start())
            .any(|r| *r == range)
    };
    let lex_errors = (lexed.errors().iter())
        .filter(|err| !inside_rewritten(err.range.start()))
        .map(|err| SyntaxError {
            code: err.code,
            range: err.range,
            message: err.message.clone(),
            related: None,
        });
    let parse_errors = parse.errors.into_iter().filter(|err| {
        let swallowed = heredoc_start.is_some_and(|start| {
            err.code == pcl_diagnostics::codes::UNCLOSED_DELIMITER && err.range.start() < start
        });
        !swallowed && (is_rewriting(err.range) || !lexer_reported(err.range.start()))
    });
    let parse_errors: Vec<SyntaxError> = parse_errors.collect();
    // An interpolation left open inside a heredoc runs over the heredoc's closing line, so
    // the heredoc is unterminated only because of it: report the interpolation alone.
    let unclosed_interpolation_in_heredoc = |heredoc: &SyntaxError| {
        parse_errors.iter().any(|err| {
            err.range.start() > heredoc.range.start()
                && err
                    .related
                    .as_ref()
                    .is_some_and(|(_, label)| label == grammar::UNCLOSED_INTERPOLATION)
        })
    };
    let lex_errors: Vec<SyntaxError> = lex_errors
        .filter(|err| {
            err.code != pcl_diagnostics::codes::UNTERMINATED_HEREDOC
                || !unclosed_interpolation_in_heredoc(err)
        })
        .collect();
    let mut errors: Vec<SyntaxError> = lex_errors.into_iter().chain(parse_errors).collect();
    errors.sort_by_key(|err| (err.range.start(), err.range.end()));
    errors.dedup();
    drop_line_end_semicolons_after_errors(text, &mut errors);
    errors
}

/// A `;` that ends a line on which another error ends (or goes on past it) is not
/// reported: the line is written anew (`const env = config.require("env");` becomes a
/// `config` block), and a second error on it says nothing more. `errors` are sorted by
/// position.
fn drop_line_end_semicolons_after_errors(text: &str, errors: &mut Vec<SyntaxError>) {
    // Where the errors kept so far reach: the furthest last character of one (an error
    // that ends at a line's end, "found a newline", reaches that line only).
    let mut reach: Option<TextSize> = None;
    errors.retain(|err| {
        let on_an_erring_line = reach.is_some_and(|reach| {
            let between = text.get(usize::from(reach)..usize::from(err.range.start()));
            reach >= err.range.start() || between.is_some_and(|between| !between.contains('\n'))
        });
        let drop = on_an_erring_line && lexer::is_line_end_semicolon(text, err.range);
        if !drop {
            let last = match err.range.is_empty() {
                true => err.range.start(),
                false => err.range.end() - TextSize::from(1),
            };
            reach = Some(reach.map_or(last, |reach| reach.max(last)));
        }
        !drop
    });
}
