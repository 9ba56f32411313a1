//! Fuzz target, structure-aware: an `arbitrary`-built HCL body (attributes, blocks with
//! labels, every kind of expression, templates and heredocs, nested to any depth, with
//! junk tokens spliced in) is rendered to text and parsed. Always: no panic, a lossless
//! tree, no stuck parser. Without junk and within the nesting limit: no errors at all, so a
//! valid program the parser rejects is found too.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

const NAMES: &[&str] = &["a", "b", "web", "count", "x_1", "tags", "length"];
const FUNCTIONS: &[&str] = &["f", "length", "merge", "lookup"];
/// Deeper than this, the parser may report `nested-too-deeply` by design: its limit of 128
/// counts a bracket and the expression inside it as two levels, so about 64 nested
/// brackets (the first version of this bound, 100, let 65 nested `{for}` through).
const SAFE_DEPTH: usize = 60;

#[derive(Arbitrary, Debug)]
struct Body(Vec<Item>);

#[derive(Arbitrary, Debug)]
enum Item {
    Attribute(u8, Expr),
    Block(u8, Vec<Label>, Body),
    Junk(Junk),
}

#[derive(Arbitrary, Debug)]
enum Label {
    Name(u8),
    Quoted(Text),
}

#[derive(Arbitrary, Debug)]
enum Expr {
    Number(u32),
    Bool(bool),
    Null,
    Name(u8),
    Template(Vec<Part>),
    Heredoc(bool, Vec<Part>),
    Tuple(Vec<Expr>),
    Object(Vec<(u8, Expr)>),
    Unary(bool, Box<Expr>),
    Binary(Box<Expr>, Operator, Box<Expr>),
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(u8, Vec<Expr>, bool),
    Index(Box<Expr>, Box<Expr>),
    Attribute(Box<Expr>, u8),
    Splat(Box<Expr>, u8),
    ForTuple(u8, Box<Expr>, Box<Expr>, Option<Box<Expr>>),
    ForObject(u8, u8, Box<Expr>, Box<Expr>, Box<Expr>, bool),
    Paren(Box<Expr>),
    Junk(Box<Expr>, Junk),
}

#[derive(Arbitrary, Debug)]
enum Part {
    Text(Text),
    Interpolation(Expr),
    If(Expr, Vec<Part>, Option<Vec<Part>>),
    For(u8, Expr, Vec<Part>),
}

/// Template text from a small alphabet, with the characters that need escaping.
#[derive(Arbitrary, Debug)]
struct Text(Vec<u8>);

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Operator {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Tokens that break a program where they are spliced in.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Junk {
    CloseCurly,
    CloseParen,
    CloseBracket,
    OpenCurly,
    OpenBracket,
    Quote,
    Interpolation,
    Directive,
    Heredoc,
    Newline,
    Equals,
    At,
}

struct Renderer {
    out: String,
    depth: usize,
    max_depth: usize,
    junk: bool,
}

impl Renderer {
    fn name(&mut self, n: u8) {
        self.out.push_str(NAMES[usize::from(n) % NAMES.len()]);
    }

    fn nested(&mut self, render: impl FnOnce(&mut Renderer)) {
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        render(self);
        self.depth -= 1;
    }

    fn body(&mut self, body: &Body) {
        for (position, item) in body.0.iter().enumerate() {
            match item {
                Item::Attribute(name, value) => {
                    // Unique in the body: a repeated attribute is an error by design.
                    self.name(*name);
                    self.out.push_str(&format!("_{position} = "));
                    self.expr(value);
                }
                Item::Block(kind, labels, inner) => {
                    self.name(*kind);
                    for label in labels {
                        self.out.push(' ');
                        match label {
                            Label::Name(n) => self.name(*n),
                            Label::Quoted(text) => {
                                self.out.push('"');
                                self.text(text, false);
                                self.out.push('"');
                            }
                        }
                    }
                    self.out.push_str(" {\n");
                    self.nested(|r| r.body(inner));
                    self.out.push('}');
                }
                Item::Junk(junk) => self.junk(*junk),
            }
            self.out.push('\n');
        }
    }

    fn junk(&mut self, junk: Junk) {
        self.junk = true;
        self.out.push_str(match junk {
            Junk::CloseCurly => "}",
            Junk::CloseParen => ")",
            Junk::CloseBracket => "]",
            Junk::OpenCurly => "{",
            Junk::OpenBracket => "[",
            Junk::Quote => "\"",
            Junk::Interpolation => "${",
            Junk::Directive => "%{",
            Junk::Heredoc => "<<EOT\n",
            Junk::Newline => "\n",
            Junk::Equals => "=",
            Junk::At => "@",
        });
    }

    fn text(&mut self, text: &Text, heredoc: bool) {
        for byte in &text.0 {
            match byte % 8 {
                0 => self.out.push('a'),
                1 => self.out.push(' '),
                2 if heredoc => self.out.push('\n'),
                2 => self.out.push_str("\\n"),
                3 => self.out.push_str("$${"),
                4 => self.out.push_str("%%{"),
                5 if heredoc => self.out.push('"'),
                5 => self.out.push_str("\\\""),
                6 => self.out.push('é'),
                // Never a lone `$` or `%`: before `${` or `%{` it would make an escape.
                _ => self.out.push_str("$a"),
            }
        }
    }

    fn parts(&mut self, parts: &[Part], heredoc: bool) {
        for part in parts {
            match part {
                Part::Text(text) => self.text(text, heredoc),
                Part::Interpolation(expr) => {
                    self.out.push_str("${");
                    self.nested(|r| r.expr(expr));
                    self.out.push('}');
                }
                Part::If(condition, then, otherwise) => {
                    self.out.push_str("%{ if ");
                    self.expr(condition);
                    self.out.push_str(" }");
                    self.nested(|r| r.parts(then, heredoc));
                    if let Some(otherwise) = otherwise {
                        self.out.push_str("%{ else }");
                        self.nested(|r| r.parts(otherwise, heredoc));
                    }
                    self.out.push_str("%{ endif }");
                }
                Part::For(name, collection, body) => {
                    self.out.push_str("%{ for ");
                    self.name(*name);
                    self.out.push_str(" in ");
                    self.expr(collection);
                    self.out.push_str(" }");
                    self.nested(|r| r.parts(body, heredoc));
                    self.out.push_str("%{ endfor }");
                }
            }
        }
    }

    fn list(&mut self, items: &[Expr]) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(item);
        }
    }

    fn expr(&mut self, expr: &Expr) {
        self.nested(|r| r.expr_inner(expr));
    }

    fn expr_inner(&mut self, expr: &Expr) {
        match expr {
            Expr::Number(n) => self.out.push_str(&n.to_string()),
            Expr::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Expr::Null => self.out.push_str("null"),
            Expr::Name(n) => self.name(*n),
            Expr::Template(parts) => {
                self.out.push('"');
                self.parts(parts, false);
                self.out.push('"');
            }
            Expr::Heredoc(indented, parts) => {
                // In parentheses: the line break after the closing marker ends an item
                // where line breaks are significant, as in hclsyntax.
                self.out.push_str(if *indented { "(<<-EOT\n" } else { "(<<EOT\n" });
                self.parts(parts, true);
                self.out.push_str("\nEOT\n)");
            }
            Expr::Tuple(items) => {
                self.out.push('[');
                self.list(items);
                self.out.push(']');
            }
            Expr::Object(items) => {
                self.out.push('{');
                for (i, (key, value)) in items.iter().enumerate() {
                    self.out.push_str(if i > 0 { ", " } else { " " });
                    self.name(*key);
                    self.out.push_str(" = ");
                    self.expr(value);
                }
                self.out.push_str(" }");
            }
            Expr::Unary(negate, operand) => {
                self.out.push(if *negate { '-' } else { '!' });
                self.expr(operand);
            }
            Expr::Binary(left, op, right) => {
                self.expr(left);
                self.out.push_str(match op {
                    Operator::Add => " + ",
                    Operator::Sub => " - ",
                    Operator::Mul => " * ",
                    Operator::Div => " / ",
                    Operator::Mod => " % ",
                    Operator::And => " && ",
                    Operator::Or => " || ",
                    Operator::Eq => " == ",
                    Operator::Ne => " != ",
                    Operator::Lt => " < ",
                    Operator::Le => " <= ",
                    Operator::Gt => " > ",
                    Operator::Ge => " >= ",
                });
                self.expr(right);
            }
            Expr::Conditional(condition, then, otherwise) => {
                self.expr(condition);
                self.out.push_str(" ? ");
                self.expr(then);
                self.out.push_str(" : ");
                self.expr(otherwise);
            }
            Expr::Call(function, arguments, expand) => {
                self.out
                    .push_str(FUNCTIONS[usize::from(*function) % FUNCTIONS.len()]);
                self.out.push('(');
                self.list(arguments);
                if *expand && !arguments.is_empty() {
                    self.out.push_str("...");
                }
                self.out.push(')');
            }
            Expr::Index(collection, key) => {
                self.paren(collection);
                self.out.push('[');
                self.expr(key);
                self.out.push(']');
            }
            Expr::Attribute(object, name) => {
                self.paren(object);
                self.out.push('.');
                self.name(*name);
            }
            Expr::Splat(collection, name) => {
                self.paren(collection);
                self.out.push_str("[*].");
                self.name(*name);
            }
            Expr::ForTuple(name, collection, value, condition) => {
                self.out.push_str("[for ");
                self.name(*name);
                self.out.push_str(" in ");
                self.expr(collection);
                self.out.push_str(" : ");
                self.expr(value);
                if let Some(condition) = condition {
                    self.out.push_str(" if ");
                    self.expr(condition);
                }
                self.out.push(']');
            }
            Expr::ForObject(key, value_name, collection, key_expr, value, group) => {
                self.out.push_str("{for ");
                self.name(*key);
                self.out.push_str(", ");
                self.name(*value_name);
                self.out.push_str(" in ");
                self.expr(collection);
                self.out.push_str(" : ");
                self.expr(key_expr);
                self.out.push_str(" => ");
                self.expr(value);
                if *group {
                    self.out.push_str("...");
                }
                self.out.push('}');
            }
            Expr::Paren(inner) => self.paren(inner),
            Expr::Junk(inner, junk) => {
                self.expr(inner);
                self.junk(*junk);
            }
        }
    }

    /// An operand of a traversal, parenthesized so it binds as written.
    fn paren(&mut self, expr: &Expr) {
        self.out.push('(');
        self.expr(expr);
        self.out.push(')');
    }
}

fuzz_target!(|body: Body| {
    let mut renderer = Renderer { out: String::new(), depth: 0, max_depth: 0, junk: false };
    renderer.body(&body);
    let text = renderer.out;
    let parse = pcl_syntax::parse(&text);
    assert_eq!(parse.syntax_node().to_string(), text);
    for error in parse.errors() {
        assert_ne!(error.code.name(), "parser-stopped", "the parser got stuck on {text:?}");
    }
    if !renderer.junk && renderer.max_depth < SAFE_DEPTH {
        assert!(
            parse.errors().is_empty(),
            "a valid program is rejected: {:?}\n{text}",
            parse.errors()
        );
    }
});
