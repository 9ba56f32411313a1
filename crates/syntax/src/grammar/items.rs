//! Bodies, attributes and blocks.

use std::collections::hash_map::Entry;

use rowan::TextRange;
use rustc_hash::FxHashMap;

use super::*;

/// What a block body knows of its block.
#[derive(Clone, Copy)]
pub(super) struct BlockCtx {
    /// Indentation of the line holding the opening `{`, when the body's lines are indented
    /// deeper ([`Parser::contents_indent`]).
    pub(super) open_indent: Option<u32>,
    /// The closing `}` may follow an attribute on the same line (single-line blocks).
    pub(super) close_on_same_line: bool,
}

/// The attributes of one body seen so far, to report an attribute set twice (hclsyntax's
/// "Attribute redefined"). Small bodies keep their names on the parser's shared stack, from
/// `base`, and are searched linearly; large ones move them into a hash index.
struct SeenAttributes<'t> {
    base: usize,
    index: Option<FxHashMap<&'t str, TextRange>>,
}

/// The number of attributes from which a body indexes their names.
const INDEX_FROM: usize = 16;

impl<'t> SeenAttributes<'t> {
    fn new(p: &Parser<'t>) -> SeenAttributes<'t> {
        SeenAttributes {
            base: p.attribute_names.len(),
            index: None,
        }
    }

    /// Records the attribute named by the current token, reporting it if already set.
    fn record(&mut self, p: &mut Parser<'t>, in_block: bool) {
        let name = p.nth_text(0);
        let range = p.current_range();
        let first = match &mut self.index {
            Some(index) => match index.entry(name) {
                Entry::Occupied(entry) => Some(*entry.get()),
                Entry::Vacant(entry) => {
                    entry.insert(range);
                    None
                }
            },
            None => {
                let first = p.attribute_names[self.base..]
                    .iter()
                    .find(|(seen, _)| *seen == name)
                    .map(|&(_, first)| first);
                if first.is_none() {
                    p.attribute_names.push((name, range));
                    if p.attribute_names.len() - self.base >= INDEX_FROM {
                        self.index = Some(p.attribute_names.drain(self.base..).collect());
                    }
                }
                first
            }
        };
        if let Some(first) = first {
            let place = if in_block { "block" } else { "file" };
            p.error_related(
                range,
                codes::DUPLICATE_ATTRIBUTE,
                format!(
                    "the attribute `{name}` is already set in this {place}: each attribute may be set only once; remove or rename one of them"
                ),
                first,
                "first set here",
            );
        }
    }

    fn finish(self, p: &mut Parser<'t>) {
        p.attribute_names.truncate(self.base);
    }
}

/// Whether, in a file whose brackets do not balance, a line starts a block that PCL has
/// only at the top level (`resource name "token" {`): the block around it most likely
/// lacks its `}`, whatever the indentation says.
#[cold]
fn at_top_level_block(p: &mut Parser<'_>) -> bool {
    p.at_line_start()
        && p.at(IDENT)
        && matches!(
            p.nth_text(0),
            "resource" | "component" | "output" | "config"
        )
        && matches!(p.nth(1), IDENT | OPEN_QUOTE)
}

/// Items until the end of input, or until the `}` closing the block `block`.
pub(super) fn body(p: &mut Parser<'_>, block: Option<BlockCtx>) {
    let m = p.start_known(BODY);
    let mut seen = SeenAttributes::new(p);
    loop {
        if p.at(EOF) {
            break;
        }
        if let Some(ctx) = block {
            // Recovery's questions only where the brackets do not balance.
            if p.at(R_CURLY)
                || (p.unbalanced()
                    && (p.at_outdented_line(ctx.open_indent) || at_top_level_block(p)))
            {
                break;
            }
        } else if p.at_ts(CLOSING) {
            break;
        }
        let before = p.progress();
        item(p, block, &mut seen);
        if p.progress() == before {
            p.err_and_bump(
                codes::UNEXPECTED_TOKEN,
                format!("unexpected {}", p.describe_token()),
            );
        }
        if block.is_none() {
            p.item_done();
        }
    }
    seen.finish(p);
    m.complete(p, BODY);
}

const SINGLE_LINE_END: TokenSet = TokenSet::new(&[R_CURLY, COMMA]);
const CLOSING: TokenSet = TokenSet::new(&[R_CURLY, R_BRACK, R_PAREN]);

fn item<'t>(p: &mut Parser<'t>, block: Option<BlockCtx>, seen: &mut SeenAttributes<'t>) {
    if p.at(IDENT) {
        // The `=` of an attribute and the labels and `{` of a block start on the item's line.
        let next = if p.nth_at_line_start(1) {
            EOF
        } else {
            p.nth(1)
        };
        if block.is_none() && is_import(p, next) {
            return foreign_import(p);
        }
        if block.is_none() && next == IDENT && is_definition(p) {
            return foreign_definition(p);
        }
        if next == IDENT && is_variable_declaration(p) {
            return variable_keyword(p, block, seen);
        }
        match next {
            // `name: "nginx"`, as YAML and JSON write it: reported at the `:`, and read as
            // the attribute it means, so the name counts as set.
            EQ | COLON => {
                let colon = next == COLON;
                if colon {
                    colon_for_equals(p);
                }
                seen.record(p, block.is_some());
                let close_on_same_line = block.is_some_and(|ctx| ctx.close_on_same_line);
                return attribute(p, close_on_same_line, colon);
            }
            L_CURLY if object_keys_follow(p) => {
                seen.record(p, block.is_some());
                let close_on_same_line = block.is_some_and(|ctx| ctx.close_on_same_line);
                return attribute_without_equals(p, close_on_same_line);
            }
            IDENT | OPEN_QUOTE | L_CURLY => {
                return self::block(p, block.is_some_and(|ctx| ctx.close_on_same_line));
            }
            _ => (),
        }
        let name = p.nth_text(0);
        let step = if next == DOT { p.nth_text(2) } else { "" };
        // `tags.Name = "x"`: a key set by path.
        let by_path = next == DOT && p.nth(3) == EQ;
        p.bump();
        let message = match foreign_statement(name, next, step) {
            _ if by_path => format!(
                "an attribute's name has no `.`: set the whole value, `{name} = {{ {step} = ... }}`"
            ),
            Some(instead) => format!("PCL has no statements: {instead}"),
            None => format!(
                "expected `=` to define the attribute `{name}` or `{{` to open a block, found {}",
                p.describe_current()
            ),
        };
        p.error(codes::EXPECTED_TOKEN, message);
    } else if p.at(OPEN_QUOTE) && p.nth(1) == TEMPLATE_CHUNK && p.nth(2) == CLOSE_QUOTE {
        let name = p.nth_text(1);
        let range = p.current_range().cover(p.nth_range(2));
        p.error_at(range, codes::UNEXPECTED_TOKEN, format!(
            "attribute names and block types are not quoted: write `{name} = …` or `{name} {{ … }}`"
        ));
    } else {
        // At the token itself, which the message names, even at the start of a line.
        let range = p.current_range();
        p.error_at(
            range,
            codes::EXPECTED_TOKEN,
            format!(
                "expected an attribute (`name = value`) or a block (`type \"label\" {{ … }}`), found {}",
                p.describe_token()
            ),
        );
    }
    p.skip_until(TokenSet::new(&[]), true);
}

/// Whether the item at the current token is another language's import (`import pulumi`,
/// `import * as aws from "@pulumi/aws"`, `from pulumi_aws import s3`, `using Pulumi;`);
/// not Terraform's `import { ... }` block. `next` is the token after the first.
fn is_import(p: &Parser<'_>, next: SyntaxKind) -> bool {
    match p.nth_text(0) {
        "import" => matches!(next, IDENT | STAR),
        "from" => next == IDENT && p.nth(2) == IDENT && p.nth_text(2) == "import",
        "using" => next == IDENT,
        _ => false,
    }
}

/// Another language's import: one error for the line, which is skipped.
#[cold]
fn foreign_import(p: &mut Parser<'_>) {
    let m = p.start();
    let start = p.current_range().start();
    while !(p.at(EOF) || (p.at_line_start() && p.prev_range(1).end() > start)) {
        p.bump();
    }
    let range = rowan::TextRange::new(start, p.prev_range(1).end());
    p.error_rewriting(
        range,
        codes::UNEXPECTED_TOKEN,
        "PCL has no imports: a package is used by naming it in a resource's type, `resource site \"aws:s3/bucket:Bucket\" { ... }`".to_owned(),
    );
    m.complete(p, ERROR);
}

/// Whether the item at the current token defines a class or a function in another
/// language (`class WebServer extends pulumi.ComponentResource {`, `function f(x) {`,
/// `def f(x):`, `func f() {`): a keyword, a name, then `(`, `:`, `extends` or `{`-less
/// words a block's labels never are.
fn is_definition(p: &Parser<'_>) -> bool {
    match p.nth_text(0) {
        "class" | "interface" => match p.nth(2) {
            L_PAREN | COLON => true,
            IDENT => matches!(p.nth_text(2), "extends" | "implements"),
            _ => false,
        },
        "function" | "def" | "func" | "fn" => p.nth(2) == L_PAREN,
        _ => false,
    }
}

/// Another language's class or function: one error, and its body skipped (to the `}` of
/// its braces, else its line).
#[cold]
fn foreign_definition(p: &mut Parser<'_>) {
    let keyword = p.nth_text(0);
    let message = match keyword {
        "class" | "interface" => {
            "PCL has no classes: a component is a directory of .pp files (its `config` blocks are the inputs, its `output` blocks the outputs), used with `component NAME \"./dir\" { inputs }`"
        }
        _ => {
            "PCL has no functions of its own: compute a value with an expression (`[for x in list : x.name]`, `condition ? a : b`), or repeat resources with `options { range = ... }`"
        }
    };
    let m = p.start();
    let start = p.current_range().start();
    loop {
        match p.current() {
            EOF => break,
            L_CURLY => {
                p.skip_balanced();
                break;
            }
            _ if p.at_line_start() && p.prev_range(1).end() > start => break,
            _ => p.bump(),
        }
    }
    let range = rowan::TextRange::new(start, p.prev_range(1).end());
    p.error_rewriting(range, codes::UNEXPECTED_TOKEN, message.to_owned());
    m.complete(p, ERROR);
}

/// Whether the item at the current token declares a variable in another language
/// (`const bucket = ...`, `let x = ...`, `var y = ...`): the keyword, a name and `=` on
/// one line, which no PCL block header is.
fn is_variable_declaration(p: &Parser<'_>) -> bool {
    matches!(p.nth_text(0), "const" | "let" | "var") && p.nth(2) == EQ && !p.nth_at_line_start(2)
}

/// The keyword of another language's variable declaration, and the attribute it means
/// (`bucket = ...`), which later lines may read. The keyword is reported unless the value
/// is a call of an SDK that PCL writes as a block (`new aws.s3.Bucket(...)`,
/// `config.require(...)`): that error says what the whole line becomes.
#[cold]
fn variable_keyword<'t>(
    p: &mut Parser<'t>,
    block: Option<BlockCtx>,
    seen: &mut SeenAttributes<'t>,
) {
    let (keyword, name) = (p.nth_text(0), p.nth_text(1));
    let m = p.start();
    p.bump();
    m.complete(p, ERROR);
    let range = p.prev_range(1);
    let before = p.error_count();
    item(p, block, seen);
    // The value's error says what the whole line becomes when it names a block to write
    // (`resource name "..." { inputs }`, a `config` block), not for `await` or a slice.
    let value_is_foreign = (p.errors_since(before).iter())
        .any(|error| error.code == codes::INVALID_EXPRESSION && error.message.contains(" block"));
    if !value_is_foreign {
        p.error_at(
            range,
            codes::UNEXPECTED_TOKEN,
            format!(
                "PCL declares no variables: a value is named without `{keyword}`, `{name} = ...`"
            ),
        );
    }
}

/// What PCL writes for a statement of another language at an item's start: `name` then
/// `next` (`.` and `step`, or `(`).
fn foreign_statement(name: &str, next: SyntaxKind, step: &str) -> Option<&'static str> {
    Some(match (name, next, step) {
        (_, DOT, "export" | "Export") => "a stack output is a block, `output NAME { value = ... }`",
        ("for" | "foreach" | "forEach", L_PAREN, _) => {
            "a resource is repeated with `options { range = list }` (`range.value` is the element inside), and a list is made with `[for x in list : x.name]`"
        }
        ("if", L_PAREN, _) => {
            "a resource is made conditional with `options { range = condition }`, and a value with `condition ? a : b`"
        }
        (_, DOT | L_PAREN, _) => {
            "a value is given to an attribute, `name = value`, and a resource is a block, `resource name \"pkg:module:Type\" { inputs }`"
        }
        _ => return None,
    })
}

/// What PCL writes for a block header with `=` where its `{` goes (`output url = ...`,
/// `const bucket = ...`).
fn equals_after_labels(block_type: &str) -> Option<&'static str> {
    Some(match block_type {
        "output" => "an output is a block: `output url { value = ... }`",
        "config" => "a config is a block: `config name \"string\" { default = ... }`",
        "export" => "a stack output is a block: `output NAME { value = ... }`",
        "const" | "let" | "var" => {
            "PCL declares no variables: a top-level value is `name = value`, and a resource is a block, `resource name \"pkg:module:Type\" { inputs }`"
        }
        _ => return None,
    })
}

// test attribute
// a = 1
/// `name: value`: the `:` reported (the attribute is read all the same).
#[cold]
fn colon_for_equals(p: &mut Parser<'_>) {
    let name = p.nth_text(0);
    let colon = p.nth_range(1);
    p.error_at(
        colon,
        codes::EXPECTED_TOKEN,
        format!(
            "expected `=` to define the attribute `{name}`, found `:`: PCL writes `{name} = ...`"
        ),
    );
}

/// `colon`: written `name: value`, reported at the colon already (a `name:` without a
/// value, YAML's nesting, gets no second error).
fn attribute(p: &mut Parser<'_>, close_on_same_line: bool, colon: bool) {
    let m = p.start();
    let indent = p.line_indent();
    p.bump();
    p.bump();
    let significant = p.set_newlines_significant(true);
    let value = if colon && (p.at_line_start() || p.at(EOF)) {
        None
    } else if p.at_line_start() || p.at(EOF) {
        // `website =` with the object's attributes on the next, deeper lines, in a file
        // whose braces do not balance: the object's `{` is missing.
        if p.unbalanced()
            && p.line_indent() > indent
            && p.at(IDENT)
            && p.nth(1) == EQ
            && !p.nth_at_line_start(1)
        {
            p.error(
                codes::EXPECTED_TOKEN,
                "expected `{` after `=`: the object's attributes follow on the next lines"
                    .to_owned(),
            );
        } else {
            p.error_expected("an expression after `=`");
        }
        None
    } else {
        super::expressions::expr(p)
    };
    p.set_newlines_significant(significant);
    m.complete(p, ATTRIBUTE);
    if value.is_none() && !p.at_line_start() {
        // The missing value was reported; skip the rest of the line quietly.
        p.skip_until(TokenSet::new(&[]), true);
        return;
    }
    item_end(p, close_on_same_line, "the attribute value");
}

/// Whether `name {` opens lines that only an object has (`"my key" = 1`, `key: 1`; a
/// block's attributes are never quoted nor written with `:`): an object value missing its
/// `=`.
fn object_keys_follow(p: &mut Parser<'_>) -> bool {
    p.ensure_ahead(6);
    if !p.nth_at_line_start(2) {
        return false;
    }
    let quoted_key =
        p.nth(2) == OPEN_QUOTE && p.nth(3) == TEMPLATE_CHUNK && p.nth(4) == CLOSE_QUOTE;
    let key_then = if quoted_key { p.nth(5) } else { p.nth(3) };
    (quoted_key && matches!(key_then, EQ | COLON)) || (p.nth(2) == IDENT && key_then == COLON)
}

/// `value {` over an object's lines: the attribute `value = {`, its `=` reported once (each
/// key was an error of its own, and then the block was one where a value goes).
#[cold]
fn attribute_without_equals(p: &mut Parser<'_>, close_on_same_line: bool) {
    let m = p.start();
    let name = p.nth_text(0);
    p.bump();
    p.error(
        codes::EXPECTED_TOKEN,
        format!("expected `=` before `{{`: its lines are an object's keys, so this is the value `{name} = {{ ... }}`"),
    );
    let significant = p.set_newlines_significant(true);
    super::expressions::expr(p);
    p.set_newlines_significant(significant);
    m.complete(p, ATTRIBUTE);
    item_end(p, close_on_same_line, "the attribute value");
}

/// After an attribute or block (`after` names what just ended, for the message): the item
/// must end its line.
fn item_end(p: &mut Parser<'_>, close_on_same_line: bool, after: &str) {
    if p.at(EOF) || p.at_line_start() || (close_on_same_line && p.at_ts(SINGLE_LINE_END)) {
        // In a single-line block, the block reports a `,` itself.
        return;
    }
    let foreign = foreign_after_value(p.current(), p.nth_text(0));
    let message = if p.at(COMMA) {
        "unexpected `,`: each attribute must be on its own line".to_owned()
    } else if let Some(foreign) = foreign {
        format!("unexpected {}: {foreign}", p.describe_current())
    } else {
        format!(
            "expected a newline after {after}, found {}",
            p.describe_current()
        )
    };
    p.error(codes::MISSING_NEWLINE, message);
    p.skip_until(TokenSet::new(&[]), true);
}

/// What PCL writes for another language's word after a value (`x as string`, `x!`).
#[cold]
fn foreign_after_value(kind: SyntaxKind, text: &str) -> Option<&'static str> {
    match (kind, text) {
        (IDENT, "as") => Some("PCL has no type assertions: delete `as` and the type"),
        (IDENT, "is") => Some("PCL compares with `==` and `!=`: `value == null`"),
        (IDENT, "and" | "or") => Some("PCL's logical operators are `&&` and `||`"),
        (IDENT, "if") => Some("PCL's conditional is `condition ? a : b`"),
        (BANG, _) => Some("PCL has no `!` assertion after a value: delete it"),
        _ => None,
    }
}

// test block
// resource "a" b {
//   x = 1
// }
fn block(p: &mut Parser<'_>, close_on_same_line: bool) {
    let m = p.start();
    let open_indent = p.line_indent();
    let block_start = p.position();
    p.bump();
    while !p.at_line_start() {
        match p.current() {
            IDENT => {
                let label = p.start();
                let (start, name) = (p.current_range().start(), p.nth_text(0));
                p.bump();
                if p.at(COLON) && p.nth_is_joined(0) {
                    unquoted_token(p, start, name);
                }
                label.complete(p, BLOCK_LABEL);
            }
            OPEN_QUOTE => {
                let label = p.start();
                let range_start = p.current_range().start();
                let (_, has_sequences) = super::templates::quoted_template(p);
                if has_sequences {
                    let range = rowan::TextRange::new(range_start, p.prev_range(1).end());
                    p.error_at(
                        range,
                        codes::UNEXPECTED_TOKEN,
                        "block labels cannot contain interpolations or directives: use a plain string"
                            .to_owned(),
                    );
                }
                label.complete(p, BLOCK_LABEL);
            }
            _ => break,
        }
    }
    if !p.at(L_CURLY) || p.at_line_start() {
        let idents = p.idents_since(block_start);
        let instead = match p.current() {
            EQ => {
                equals_after_labels(idents.first().copied().unwrap_or_default()).map(str::to_owned)
            }
            // `hash sha1("text")`: a name, then a call.
            L_PAREN if idents.len() == 2 && p.position() == block_start + 2 => Some(format!(
                "`{0} {1}(` reads as a block `{0}`: a value is `{0} = {1}(...)`",
                idents[0], idents[1]
            )),
            _ => None,
        };
        match instead {
            Some(instead) => p.error(codes::EXPECTED_TOKEN, instead),
            None => p.error_expected("`{` to open the block body"),
        }
        // A next line that goes on with labels or the `{` belongs to this broken header:
        // skip it, with the body it opens, rather than report it again.
        if !p.at_line_start() || p.at(OPEN_QUOTE) || p.at(L_CURLY) {
            p.skip_until(TokenSet::new(&[]), true);
        }
        m.complete(p, BLOCK);
        return;
    }
    if !p.enter_nesting() {
        p.skip_balanced();
        m.complete(p, BLOCK);
        return;
    }
    let open_range = p.current_range();
    p.bump();
    let single_line = !p.at_line_start() && !p.at(R_CURLY) && !p.at(EOF);
    if single_line {
        single_line_body(p, open_indent);
    } else {
        body(
            p,
            Some(BlockCtx {
                open_indent: p.contents_indent(open_indent),
                close_on_same_line: false,
            }),
        );
    }
    p.leave_nesting();
    if !p.eat(R_CURLY) {
        p.error_at(
            open_range,
            codes::UNCLOSED_DELIMITER,
            "unclosed block: this `{` has no matching `}`".to_owned(),
        );
    }
    m.complete(p, BLOCK);
    item_end(p, close_on_same_line, "the block's closing `}`");
}

/// The rest of a type token written as a bare label (`resource pet random:index/Pet:Pet {`),
/// after its first name: its joined tokens go in the label, which reads as the whole token
/// (`BlockLabel::value`), so the block is checked as if it were quoted.
fn unquoted_token(p: &mut Parser<'_>, start: rowan::TextSize, name: &str) {
    let mut token = name.to_owned();
    while matches!(p.current(), COLON | SLASH | IDENT | DOT | MINUS | NUMBER) && p.nth_is_joined(0)
    {
        token.push_str(p.nth_text(0));
        p.bump();
    }
    let range = TextRange::new(start, p.prev_range(1).end());
    p.error_at(
        range,
        codes::UNEXPECTED_TOKEN,
        format!("a type token must be quoted: write \"{token}\""),
    );
}

// test single_line_block
// a { b = "foo" }
fn single_line_body(p: &mut Parser<'_>, open_indent: u32) {
    let m = p.start();
    let ctx = BlockCtx {
        open_indent: Some(open_indent),
        close_on_same_line: true,
    };
    if p.at(IDENT) && matches!(p.nth(1), IDENT | OPEN_QUOTE | L_CURLY) {
        // Point at the nested block's head, up to and including its `{`.
        let mut n = 1;
        p.ensure_ahead(n);
        while matches!(p.nth(n), IDENT | OPEN_QUOTE | TEMPLATE_CHUNK | CLOSE_QUOTE) {
            n += 1;
            p.ensure_ahead(n);
        }
        let last = if p.nth(n) == L_CURLY { n } else { n - 1 };
        let range = p.current_range().cover(p.nth_range(last));
        p.error_at(
            range,
            codes::MISSING_NEWLINE,
            "a single-line block cannot contain another block".to_owned(),
        );
    }
    let mut seen = SeenAttributes::new(p);
    item(p, Some(ctx), &mut seen);
    if p.at(COMMA) && !p.at_line_start() {
        p.error(
            codes::MISSING_NEWLINE,
            "only one attribute is allowed in a single-line block: put each attribute on its own line"
                .to_owned(),
        );
        p.skip_until(TokenSet::new(&[R_CURLY]), false);
    } else if p.at_line_start() && !p.at(EOF) {
        p.error(
            codes::UNEXPECTED_NEWLINE,
            "the closing `}` of a single-line block must be on the same line: put the body on its own lines"
                .to_owned(),
        );
    }
    // Recover from the errors above: the rest is a normal body, where a `}` may still follow
    // on the same line as an attribute.
    while !p.at(EOF) && !p.at(R_CURLY) && !p.at_outdented_line(Some(open_indent)) {
        let before = p.progress();
        item(p, Some(ctx), &mut seen);
        if p.progress() == before {
            p.err_and_bump(
                codes::UNEXPECTED_TOKEN,
                format!("unexpected {}", p.describe_token()),
            );
        }
    }
    seen.finish(p);
    m.complete(p, BODY);
}
