//! Declaration bodies lowered to a range-free arena (the third firewall): expressions,
//! attributes and nested blocks by id, with a separate source map of declaration-relative
//! ranges. A whitespace or comment edit leaves a `Body` equal, so nothing that reads it
//! re-runs. Lowering also applies the reference's syntactic rules: parentheses vanish, a
//! template that is one interpolation is that expression, `-<number>` is one literal,
//! `%{if}`/`%{for}` become a conditional and a joined `for`.

use std::borrow::Cow;

use pcl_syntax::ast::{self, AstNode, NumberValue, TemplatePart};
use pcl_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use smol_str::SmolStr;

use crate::items::{DeclId, decl_syntax};

/// An expression's index in its body.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ExprId(pub u32);

/// An attribute's index in its body.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct AttrId(pub u32);

/// A block's index in its body; block 0 is the declaration itself.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BlockId(pub u32);

impl BlockId {
    pub const ROOT: BlockId = BlockId(0);
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum UnaryOp {
    Negate,
    Not,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BinaryOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    And,
    Or,
}

/// An expression, without positions.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Expr {
    /// Parse recovery: nothing usable was written.
    Missing,
    Null,
    Bool(bool),
    /// Boxed: a number (a big integer and an exponent) would make every expression 48 bytes.
    Number(Box<NumberValue>),
    /// A number literal beyond what a value can hold (the parser reported it).
    BadNumber,
    /// Literal template text (a quoted string without interpolations is one).
    String(SmolStr),
    /// A template of several parts: `string`, lifted by its parts.
    Template(Box<[ExprId]>),
    /// `%{for}` in a template: the `for` expression whose elements are joined.
    TemplateJoin(ExprId),
    Tuple(Box<[ExprId]>),
    /// Key and value expressions; a literal key is a `String`, `Number`, `Bool` or `Null`.
    Object(Box<[(ExprId, ExprId)]>),
    Name(SmolStr),
    GetAttr {
        base: ExprId,
        name: SmolStr,
    },
    Index {
        base: ExprId,
        key: ExprId,
    },
    /// `source[*].steps`: `each` is typed once per element, with `SplatItem` the element.
    Splat {
        source: ExprId,
        each: ExprId,
    },
    SplatItem,
    /// Boxed, as `Number`: the name and arguments would make every expression 48 bytes.
    Call(Box<CallExpr>),
    /// `[for k, v in c: value if cond]`, or with `key` the object form `{for ..: key => value}`.
    /// Boxed: the largest variant otherwise, it would make every expression 80 bytes.
    For(Box<ForExpr>),
    Conditional {
        cond: ExprId,
        then: ExprId,
        otherwise: ExprId,
    },
    Unary {
        op: UnaryOp,
        operand: ExprId,
    },
    Binary {
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
    },
}

// Every expression of every body is one of these: keep large variants boxed.
const _: () = assert!(std::mem::size_of::<Expr>() <= 32);

impl Expr {
    /// Whether this is a literal (a constant key of an object constructor).
    pub fn is_literal(&self) -> bool {
        matches!(
            self,
            Expr::Null | Expr::Bool(_) | Expr::Number(_) | Expr::String(_)
        )
    }
}

/// A call of a built-in function (`Expr::Call`); `expand` when the last argument ends
/// with `...`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct CallExpr {
    pub name: SmolStr,
    pub args: Box<[ExprId]>,
    pub expand: bool,
}

/// A `for` expression (`Expr::For`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ForExpr {
    pub key_var: Option<SmolStr>,
    pub value_var: SmolStr,
    pub collection: ExprId,
    pub key: Option<ExprId>,
    pub value: ExprId,
    pub cond: Option<ExprId>,
    pub grouped: bool,
}

/// `name = value` in a block.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AttrData {
    pub name: SmolStr,
    pub value: ExprId,
}

/// A block: its type, labels, attributes and nested blocks in source order.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct BlockData {
    pub kind: SmolStr,
    pub labels: Box<[SmolStr]>,
    pub attrs: Box<[AttrId]>,
    pub blocks: Box<[BlockId]>,
    /// Whether the block has its `{` (a syntax error otherwise, already reported: its
    /// body is not judged for what it lacks).
    pub opened: bool,
}

/// A declaration's body. For a local, `value` is its expression and block 0 is empty.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Body {
    pub exprs: Box<[Expr]>,
    pub attrs: Box<[AttrData]>,
    pub blocks: Box<[BlockData]>,
    pub value: Option<ExprId>,
}

impl Body {
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.0 as usize]
    }

    pub fn attr(&self, id: AttrId) -> &AttrData {
        &self.attrs[id.0 as usize]
    }

    pub fn block(&self, id: BlockId) -> &BlockData {
        &self.blocks[id.0 as usize]
    }

    /// The attribute `name` of a block.
    pub fn find_attr(&self, block: BlockId, name: &str) -> Option<AttrId> {
        (self.block(block).attrs.iter().copied()).find(|&a| self.attr(a).name == name)
    }

    /// The nested blocks of type `kind` of a block.
    pub fn find_blocks<'a>(
        &'a self,
        block: BlockId,
        kind: &'a str,
    ) -> impl Iterator<Item = BlockId> + 'a {
        (self.block(block).blocks.iter().copied()).filter(move |&b| self.block(b).kind == kind)
    }
}

/// Where each part of a body is, relative to the start of its declaration.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct BodySourceMap {
    pub exprs: Box<[TextRange]>,
    /// The attribute's name.
    pub attr_names: Box<[TextRange]>,
    /// The block's type keyword (for a local, block 0 is its name).
    pub block_types: Box<[TextRange]>,
    pub block_labels: Box<[Box<[TextRange]>]>,
    /// The block's opening brace (empty at the block's end when there is none).
    pub block_opens: Box<[TextRange]>,
}

/// The body and its source map.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct BodyWithSourceMap {
    pub body: Body,
    pub source_map: BodySourceMap,
}

/// Lower a declaration's syntax, with the source map: what turns diagnostics' anchors
/// into ranges. Only needed where there is something to report.
#[salsa::tracked(returns(ref))]
pub fn body_with_source_map<'db>(
    db: &'db dyn salsa::Database,
    decl: DeclId<'db>,
) -> BodyWithSourceMap {
    lower(db, decl)
}

/// The range-free body: what checking reads. Lowered on its own (not cloned from
/// `body_with_source_map`), so checking does not keep or verify source maps.
#[salsa::tracked(returns(ref))]
pub fn body<'db>(db: &'db dyn salsa::Database, decl: DeclId<'db>) -> Body {
    lower(db, decl).body
}

fn lower<'db>(db: &'db dyn salsa::Database, decl: DeclId<'db>) -> BodyWithSourceMap {
    let Some(syntax) = decl_syntax(db, decl) else {
        return BodyWithSourceMap::default();
    };
    let root = SyntaxNode::new_root(syntax.0);
    let mut lower = Lowerer::default();
    if let Some(attr) = ast::Attribute::cast(root.clone()) {
        let name_range =
            (attr.name()).map_or(TextRange::empty(TextSize::from(0)), |n| n.text_range());
        lower.push_block(SmolStr::default(), Vec::new(), name_range, None);
        let value = lower.expr_opt(attr.value(), attr.syntax());
        lower.value = Some(value);
    } else if let Some(block) = ast::Block::cast(root) {
        lower.block(&block);
    }
    lower.finish()
}

/// How a template's literal chunks are decoded (quoted strings and heredocs differ).
type Decode<'a> = dyn for<'t> Fn(&'t SyntaxToken) -> Cow<'t, str> + 'a;

#[derive(Default)]
struct Lowerer {
    exprs: Vec<Expr>,
    expr_ranges: Vec<TextRange>,
    attrs: Vec<AttrData>,
    attr_names: Vec<TextRange>,
    blocks: Vec<BlockData>,
    block_types: Vec<TextRange>,
    block_labels: Vec<Box<[TextRange]>>,
    block_opens: Vec<TextRange>,
    value: Option<ExprId>,
}

impl Lowerer {
    fn finish(self) -> BodyWithSourceMap {
        BodyWithSourceMap {
            body: Body {
                exprs: self.exprs.into(),
                attrs: self.attrs.into(),
                blocks: self.blocks.into(),
                value: self.value,
            },
            source_map: BodySourceMap {
                exprs: self.expr_ranges.into(),
                attr_names: self.attr_names.into(),
                block_types: self.block_types.into(),
                block_labels: self.block_labels.into(),
                block_opens: self.block_opens.into(),
            },
        }
    }

    fn push_block(
        &mut self,
        kind: SmolStr,
        labels: Vec<(SmolStr, TextRange)>,
        type_range: TextRange,
        open: Option<TextRange>,
    ) -> BlockId {
        let id = BlockId(self.blocks.len() as u32);
        self.blocks.push(BlockData {
            kind,
            labels: labels.iter().map(|(l, _)| l.clone()).collect(),
            attrs: Box::default(),
            blocks: Box::default(),
            opened: open.is_some(),
        });
        self.block_types.push(type_range);
        self.block_labels
            .push(labels.iter().map(|(_, r)| *r).collect());
        self.block_opens.push(open.unwrap_or(type_range));
        id
    }

    fn block(&mut self, block: &ast::Block) -> BlockId {
        let type_token = block.type_name();
        let kind = type_token
            .as_ref()
            .map(|t| SmolStr::new(t.text()))
            .unwrap_or_default();
        let type_range = type_token.map_or(block.syntax().text_range(), |t| t.text_range());
        let labels = (block.labels())
            .map(|l| {
                (
                    SmolStr::new(l.value().unwrap_or_default()),
                    l.syntax().text_range(),
                )
            })
            .collect();
        let open = (block.syntax().children_with_tokens())
            .chain(
                block
                    .body()
                    .into_iter()
                    .flat_map(|b| b.syntax().children_with_tokens()),
            )
            .filter_map(|e| e.into_token())
            .find(|t| t.kind() == SyntaxKind::L_CURLY)
            .map(|t| t.text_range());
        let id = self.push_block(kind, labels, type_range, open);
        let mut attrs = Vec::new();
        let mut blocks = Vec::new();
        if let Some(body) = block.body() {
            for item in body.items() {
                match item {
                    ast::Item::Attribute(attr) => {
                        let Some(name) = attr.name() else { continue };
                        let value = self.expr_opt(attr.value(), attr.syntax());
                        attrs.push(AttrId(self.attrs.len() as u32));
                        self.attrs.push(AttrData {
                            name: SmolStr::new(name.text()),
                            value,
                        });
                        self.attr_names.push(name.text_range());
                    }
                    ast::Item::Block(nested) => blocks.push(self.block(&nested)),
                }
            }
        }
        let data = &mut self.blocks[id.0 as usize];
        data.attrs = attrs.into();
        data.blocks = blocks.into();
        id
    }

    fn alloc(&mut self, expr: Expr, range: TextRange) -> ExprId {
        let id = ExprId(self.exprs.len() as u32);
        self.exprs.push(expr);
        self.expr_ranges.push(range);
        id
    }

    /// `expr`, or a missing expression at the end of `parent`.
    fn expr_opt(&mut self, expr: Option<ast::Expr>, parent: &SyntaxNode) -> ExprId {
        match expr {
            Some(expr) => self.expr(&expr),
            None => {
                let end = parent.text_range().end();
                self.alloc(Expr::Missing, TextRange::empty(end))
            }
        }
    }

    fn expr(&mut self, expr: &ast::Expr) -> ExprId {
        let range = expr.syntax().text_range();
        let lowered = match expr {
            ast::Expr::Paren(paren) => return self.expr_opt(paren.inner(), paren.syntax()),
            ast::Expr::Literal(literal) => literal_expr(literal),
            ast::Expr::Template(template) => {
                return self.template(template.parts().collect(), range, &|token| {
                    ast::unescape_quoted(token.text())
                });
            }
            ast::Expr::Heredoc(heredoc) => {
                let texts = heredoc.chunk_texts();
                return self.template(heredoc.parts().collect(), range, &|token| {
                    (texts.iter())
                        .find(|(chunk, _)| chunk == token)
                        .map_or_else(|| token.text().to_owned(), |(_, text)| text.clone())
                        .into()
                });
            }
            ast::Expr::Tuple(tuple) => {
                let elements = tuple.elements().map(|e| self.expr(&e)).collect();
                Expr::Tuple(elements)
            }
            ast::Expr::Object(object) => {
                let mut items = Vec::new();
                for item in object.items() {
                    let key = match item.key() {
                        Some(key) => match key.literal_name() {
                            Some(name) => self
                                .alloc(Expr::String(SmolStr::new(name)), key.syntax().text_range()),
                            None => self.expr_opt(key.expr(), key.syntax()),
                        },
                        None => self.alloc(Expr::Missing, item.syntax().text_range()),
                    };
                    let value = self.expr_opt(item.value(), item.syntax());
                    items.push((key, value));
                }
                Expr::Object(items.into())
            }
            ast::Expr::Variable(variable) => match variable.name() {
                Some(name) => Expr::Name(SmolStr::new(name.text())),
                None => Expr::Missing,
            },
            ast::Expr::Call(call) => {
                let args = (call.arg_list().into_iter())
                    .flat_map(|list| list.args())
                    .map(|arg| self.expr(&arg))
                    .collect();
                Expr::Call(Box::new(CallExpr {
                    name: SmolStr::new(call.name()),
                    args,
                    expand: call.arg_list().is_some_and(|list| list.has_expansion()),
                }))
            }
            ast::Expr::GetAttr(get) => {
                let base = self.expr_opt(get.base(), get.syntax());
                match get.name() {
                    Some(name) => Expr::GetAttr {
                        base,
                        name: SmolStr::new(name.text()),
                    },
                    None => Expr::Missing,
                }
            }
            ast::Expr::Index(index) => {
                let base = self.expr_opt(index.base(), index.syntax());
                let key = self.expr_opt(index.index(), index.syntax());
                Expr::Index { base, key }
            }
            ast::Expr::LegacyIndex(index) => {
                let base = self.expr_opt(index.base(), index.syntax());
                let key = self.number_token(index.index(), index.syntax());
                Expr::Index { base, key }
            }
            ast::Expr::Splat(splat) => {
                let source = self.expr_opt(splat.source(), splat.syntax());
                let steps: Vec<ast::SplatStep> = splat.steps().collect();
                let each = self.splat_steps(&steps, splat.syntax());
                Expr::Splat { source, each }
            }
            ast::Expr::ForTuple(for_expr) => {
                let value = self.expr_opt(for_expr.value(), for_expr.syntax());
                let cond = (for_expr.cond()).map(|c| self.expr_opt(c.condition(), c.syntax()));
                self.for_expr(
                    for_expr.intro(),
                    None,
                    value,
                    cond,
                    false,
                    for_expr.syntax(),
                )
            }
            ast::Expr::ForObject(for_expr) => {
                let key = self.expr_opt(for_expr.key(), for_expr.syntax());
                let value = self.expr_opt(for_expr.value(), for_expr.syntax());
                let cond = (for_expr.cond()).map(|c| self.expr_opt(c.condition(), c.syntax()));
                let grouped = for_expr.is_grouped();
                self.for_expr(
                    for_expr.intro(),
                    Some(key),
                    value,
                    cond,
                    grouped,
                    for_expr.syntax(),
                )
            }
            ast::Expr::Conditional(conditional) => Expr::Conditional {
                cond: self.expr_opt(conditional.condition(), conditional.syntax()),
                then: self.expr_opt(conditional.then_branch(), conditional.syntax()),
                otherwise: self.expr_opt(conditional.else_branch(), conditional.syntax()),
            },
            ast::Expr::Unary(unary) => {
                let negate = unary.op().is_some_and(|op| op.kind() == SyntaxKind::MINUS);
                if negate
                    && let Some(ast::Expr::Literal(literal)) = unary.operand()
                    && let Some(Ok(number)) = literal.number_value()
                {
                    Expr::Number(Box::new(number.negate()))
                } else {
                    let operand = self.expr_opt(unary.operand(), unary.syntax());
                    let op = if negate {
                        UnaryOp::Negate
                    } else {
                        UnaryOp::Not
                    };
                    Expr::Unary { op, operand }
                }
            }
            ast::Expr::Binary(binary) => {
                let lhs = self.expr_opt(binary.lhs(), binary.syntax());
                let rhs = self.expr_opt(binary.rhs(), binary.syntax());
                match binary.op().and_then(|op| binary_op(op.kind())) {
                    Some(op) => Expr::Binary { op, lhs, rhs },
                    None => Expr::Missing,
                }
            }
        };
        self.alloc(lowered, range)
    }

    fn number_token(&mut self, token: Option<SyntaxToken>, parent: &SyntaxNode) -> ExprId {
        match token {
            Some(token) => {
                let value = match NumberValue::parse(token.text()) {
                    Ok(number) => Expr::Number(Box::new(number)),
                    Err(_) => Expr::BadNumber,
                };
                self.alloc(value, token.text_range())
            }
            None => self.alloc(Expr::Missing, TextRange::empty(parent.text_range().end())),
        }
    }

    /// The per-element expression of a splat: the steps applied to the element.
    fn splat_steps(&mut self, steps: &[ast::SplatStep], splat: &SyntaxNode) -> ExprId {
        let start = steps.first().map_or(splat.text_range().end(), |s| {
            s.syntax().text_range().start()
        });
        let mut current = self.alloc(Expr::SplatItem, TextRange::empty(start));
        for (i, step) in steps.iter().enumerate() {
            let range = TextRange::new(start, step.syntax().text_range().end());
            let expr = match step {
                ast::SplatStep::Attr(attr) => match attr.name() {
                    Some(name) => Expr::GetAttr {
                        base: current,
                        name: SmolStr::new(name.text()),
                    },
                    None => Expr::Missing,
                },
                ast::SplatStep::Index(index) => {
                    let key = self.expr_opt(index.index(), index.syntax());
                    Expr::Index { base: current, key }
                }
                ast::SplatStep::LegacyIndex(index) => {
                    let key = self.number_token(index.index(), index.syntax());
                    Expr::Index { base: current, key }
                }
                ast::SplatStep::Splat(_) => {
                    let each = self.splat_steps(&steps[i + 1..], splat);
                    let range = TextRange::new(start, splat.text_range().end());
                    return self.alloc(
                        Expr::Splat {
                            source: current,
                            each,
                        },
                        range,
                    );
                }
            };
            current = self.alloc(expr, range);
        }
        current
    }

    fn for_expr(
        &mut self,
        intro: Option<ast::ForIntro>,
        key: Option<ExprId>,
        value: ExprId,
        cond: Option<ExprId>,
        grouped: bool,
        parent: &SyntaxNode,
    ) -> Expr {
        let Some(intro) = intro else {
            return Expr::Missing;
        };
        let collection = self.expr_opt(intro.collection(), intro.syntax());
        let var = |t: Option<SyntaxToken>| t.map(|t| SmolStr::new(t.text()));
        let Some(value_var) = var(intro.value_var()) else {
            let _ = parent;
            return Expr::Missing;
        };
        Expr::For(Box::new(ForExpr {
            key_var: var(intro.key_var()),
            value_var,
            collection,
            key,
            value,
            cond,
            grouped,
        }))
    }

    /// A template from its parts; `decode` turns a chunk's text into its value.
    fn template(
        &mut self,
        parts: Vec<TemplatePart>,
        range: TextRange,
        decode: &Decode<'_>,
    ) -> ExprId {
        if let [TemplatePart::Interp(interp)] = parts.as_slice() {
            return self.expr_opt(interp.expr(), interp.syntax());
        }
        // Only text (most strings): one literal, without lowering the parts.
        if parts.iter().all(|p| matches!(p, TemplatePart::Chunk(_))) {
            let text = match parts.as_slice() {
                [TemplatePart::Chunk(only)] => SmolStr::new(decode(only)),
                _ => (parts.iter())
                    .filter_map(|part| match part {
                        TemplatePart::Chunk(token) => Some(decode(token)),
                        _ => None,
                    })
                    .collect::<String>()
                    .into(),
            };
            return self.alloc(Expr::String(text), range);
        }
        let lowered = self.template_parts(parts, decode);
        match lowered.as_slice() {
            [] => self.alloc(Expr::String(SmolStr::default()), range),
            [single] if self.exprs[single.0 as usize].is_literal() => {
                let expr = self.exprs[single.0 as usize].clone();
                self.alloc(expr, range)
            }
            _ => self.alloc(Expr::Template(lowered.into()), range),
        }
    }

    fn template_parts(&mut self, parts: Vec<TemplatePart>, decode: &Decode<'_>) -> Vec<ExprId> {
        let mut res: Vec<ExprId> = Vec::new();
        let mut text = String::new();
        let mut text_range: Option<TextRange> = None;
        let flush = |this: &mut Lowerer,
                     res: &mut Vec<ExprId>,
                     text: &mut String,
                     range: &mut Option<TextRange>| {
            if let Some(r) = range.take() {
                res.push(this.alloc(Expr::String(SmolStr::new(std::mem::take(text))), r));
            }
        };
        for part in parts {
            match part {
                TemplatePart::Chunk(token) => {
                    text.push_str(&decode(&token));
                    let r = token.text_range();
                    text_range = Some(text_range.map_or(r, |old| old.cover(r)));
                }
                TemplatePart::Interp(interp) => {
                    flush(self, &mut res, &mut text, &mut text_range);
                    res.push(self.expr_opt(interp.expr(), interp.syntax()));
                }
                TemplatePart::If(if_part) => {
                    flush(self, &mut res, &mut text, &mut text_range);
                    let range = if_part.syntax().text_range();
                    let cond = (if_part.if_directive())
                        .map(|d| self.expr_opt(d.condition(), d.syntax()))
                        .unwrap_or_else(|| self.alloc(Expr::Missing, range));
                    let then = self.branch(if_part.then_parts(), range, decode);
                    let otherwise = self.branch(if_part.else_parts(), range, decode);
                    res.push(self.alloc(
                        Expr::Conditional {
                            cond,
                            then,
                            otherwise,
                        },
                        range,
                    ));
                }
                TemplatePart::For(for_part) => {
                    flush(self, &mut res, &mut text, &mut text_range);
                    let range = for_part.syntax().text_range();
                    let directive = for_part.for_directive();
                    let value = self.branch(for_part.body(), range, decode);
                    let lowered = match directive {
                        Some(d) => {
                            let collection = self.expr_opt(d.collection(), d.syntax());
                            match d.value_var() {
                                Some(v) => Expr::For(Box::new(ForExpr {
                                    key_var: d.key_var().map(|k| SmolStr::new(k.text())),
                                    value_var: SmolStr::new(v.text()),
                                    collection,
                                    key: None,
                                    value,
                                    cond: None,
                                    grouped: false,
                                })),
                                None => Expr::Missing,
                            }
                        }
                        None => Expr::Missing,
                    };
                    let for_id = self.alloc(lowered, range);
                    res.push(self.alloc(Expr::TemplateJoin(for_id), range));
                }
            }
        }
        flush(self, &mut res, &mut text, &mut text_range);
        res
    }

    /// One branch of a template directive, as a template of its own (`""` when absent).
    fn branch(
        &mut self,
        parts: Option<ast::TemplateParts>,
        range: TextRange,
        decode: &Decode<'_>,
    ) -> ExprId {
        match parts {
            Some(parts) => {
                let branch_range = parts.syntax().text_range();
                self.template(parts.parts().collect(), branch_range, decode)
            }
            None => self.alloc(
                Expr::String(SmolStr::default()),
                TextRange::empty(range.end()),
            ),
        }
    }
}

fn literal_expr(literal: &ast::LiteralExpr) -> Expr {
    match literal.token().map(|t| t.kind()) {
        Some(SyntaxKind::TRUE_KW) => Expr::Bool(true),
        Some(SyntaxKind::FALSE_KW) => Expr::Bool(false),
        Some(SyntaxKind::NULL_KW) => Expr::Null,
        _ => match literal.number_value() {
            Some(Ok(number)) => Expr::Number(Box::new(number)),
            _ => Expr::BadNumber,
        },
    }
}

fn binary_op(kind: SyntaxKind) -> Option<BinaryOp> {
    Some(match kind {
        SyntaxKind::PLUS => BinaryOp::Add,
        SyntaxKind::MINUS => BinaryOp::Subtract,
        SyntaxKind::STAR => BinaryOp::Multiply,
        SyntaxKind::SLASH => BinaryOp::Divide,
        SyntaxKind::PERCENT => BinaryOp::Modulo,
        SyntaxKind::EQ2 => BinaryOp::Equal,
        SyntaxKind::NEQ => BinaryOp::NotEqual,
        SyntaxKind::LT => BinaryOp::Less,
        SyntaxKind::LTEQ => BinaryOp::LessEqual,
        SyntaxKind::GT => BinaryOp::Greater,
        SyntaxKind::GTEQ => BinaryOp::GreaterEqual,
        SyntaxKind::AMP2 => BinaryOp::And,
        SyntaxKind::PIPE2 => BinaryOp::Or,
        _ => return None,
    })
}

/// The direct subexpressions of an expression, in source order.
pub fn children(expr: &Expr) -> Vec<ExprId> {
    match expr {
        Expr::Missing
        | Expr::Null
        | Expr::Bool(_)
        | Expr::Number(_)
        | Expr::BadNumber
        | Expr::String(_)
        | Expr::Name(_)
        | Expr::SplatItem => Vec::new(),
        Expr::Template(parts) | Expr::Tuple(parts) => parts.to_vec(),
        Expr::Call(call) => call.args.to_vec(),
        Expr::TemplateJoin(inner) => vec![*inner],
        Expr::Object(items) => items.iter().flat_map(|(k, v)| [*k, *v]).collect(),
        Expr::GetAttr { base, .. } => vec![*base],
        Expr::Index { base, key } => vec![*base, *key],
        Expr::Splat { source, each } => vec![*source, *each],
        Expr::For(for_expr) => std::iter::once(for_expr.collection)
            .chain(for_expr.key)
            .chain([for_expr.value])
            .chain(for_expr.cond)
            .collect(),
        Expr::Conditional {
            cond,
            then,
            otherwise,
        } => vec![*cond, *then, *otherwise],
        Expr::Unary { operand, .. } => vec![*operand],
        Expr::Binary { lhs, rhs, .. } => vec![*lhs, *rhs],
    }
}
