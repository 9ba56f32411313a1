//! AST node types and their accessors.

use super::support::{child, children, token};
use super::{AstChildren, AstNode, token_of};
use crate::SyntaxKind::{self, *};
use crate::{SyntaxNode, SyntaxToken};

macro_rules! ast_node {
    ($(#[$doc:meta])* $name:ident, $kind:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name {
            syntax: SyntaxNode,
        }

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                kind == $kind
            }

            fn cast(syntax: SyntaxNode) -> Option<Self> {
                Self::can_cast(syntax.kind()).then_some($name { syntax })
            }

            fn syntax(&self) -> &SyntaxNode {
                &self.syntax
            }
        }
    };
}

macro_rules! ast_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident($node:ident)),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant($node),)*
        }

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                $($node::can_cast(kind))||*
            }

            fn cast(syntax: SyntaxNode) -> Option<Self> {
                $(if $node::can_cast(syntax.kind()) {
                    return Some($name::$variant($node { syntax }));
                })*
                None
            }

            fn syntax(&self) -> &SyntaxNode {
                match self {
                    $($name::$variant(it) => it.syntax(),)*
                }
            }
        }
    };
}

ast_node!(
    /// A whole file.
    SourceFile, SOURCE_FILE
);
ast_node!(
    /// The attributes and blocks of a file or a block.
    Body, BODY
);
ast_node!(
    /// `name = expr`
    Attribute, ATTRIBUTE
);
ast_node!(
    /// `type label* { body }`
    Block, BLOCK
);
ast_node!(
    /// An identifier or quoted-string label of a block.
    BlockLabel, BLOCK_LABEL
);
ast_enum!(
    /// An item of a body.
    Item { Attribute(Attribute), Block(Block) }
);

ast_node!(
    /// A number, `true`, `false` or `null`.
    LiteralExpr, LITERAL_EXPR
);
ast_node!(
    /// A quoted template, `"…"`.
    TemplateExpr, TEMPLATE_EXPR
);
ast_node!(
    /// A heredoc template, `<<EOT … EOT`.
    HeredocExpr, HEREDOC_EXPR
);
ast_node!(
    /// `[a, b]`
    TupleExpr, TUPLE_EXPR
);
ast_node!(
    /// `{k = v, …}`
    ObjectExpr, OBJECT_EXPR
);
ast_node!(
    /// `key = value` or `key: value` in an object.
    ObjectItem, OBJECT_ITEM
);
ast_node!(
    /// The key of an object item.
    ObjectKey, OBJECT_KEY
);
ast_node!(
    /// A name.
    VariableExpr, VARIABLE_EXPR
);
ast_node!(
    /// `f(args)` or `ns::f(args)`.
    CallExpr, CALL_EXPR
);
ast_node!(
    /// `(a, b, c...)`
    ArgList, ARG_LIST
);
ast_node!(
    /// `expr.name`
    GetAttrExpr, GET_ATTR_EXPR
);
ast_node!(
    /// `expr[index]`
    IndexExpr, INDEX_EXPR
);
ast_node!(
    /// `expr.0`, the legacy index syntax.
    LegacyIndexExpr, LEGACY_INDEX_EXPR
);
ast_node!(
    /// `expr.*.steps` or `expr[*].steps`.
    SplatExpr, SPLAT_EXPR
);
ast_node!(
    /// `.name` after a splat.
    AttrStep, ATTR_STEP
);
ast_node!(
    /// `[index]` after a full splat.
    IndexStep, INDEX_STEP
);
ast_node!(
    /// `.0` after a splat.
    LegacyIndexStep, LEGACY_INDEX_STEP
);
ast_node!(
    /// A nested `[*]` or `.*` among the steps of a full splat: the steps after it apply to
    /// each element of what the steps before it produced.
    NestedSplatStep, SPLAT_STEP
);
ast_enum!(
    /// One traversal step applied to each element of a splat.
    SplatStep {
        Attr(AttrStep),
        Index(IndexStep),
        LegacyIndex(LegacyIndexStep),
        Splat(NestedSplatStep),
    }
);
ast_node!(
    /// `[for k, v in c: e if p]`
    ForTupleExpr, FOR_TUPLE_EXPR
);
ast_node!(
    /// `{for k, v in c: ke => ve... if p}`
    ForObjectExpr, FOR_OBJECT_EXPR
);
ast_node!(
    /// `for k, v in collection :`
    ForIntro, FOR_INTRO
);
ast_node!(
    /// `if condition` at the end of a `for` expression.
    ForCond, FOR_COND
);
ast_node!(
    /// `c ? a : b`
    ConditionalExpr, CONDITIONAL_EXPR
);
ast_node!(
    /// `-e` or `!e`
    UnaryExpr, UNARY_EXPR
);
ast_node!(
    /// `a op b`
    BinaryExpr, BINARY_EXPR
);
ast_node!(
    /// `(e)`
    ParenExpr, PAREN_EXPR
);
ast_enum!(
    /// Any expression.
    Expr {
        Literal(LiteralExpr),
        Template(TemplateExpr),
        Heredoc(HeredocExpr),
        Tuple(TupleExpr),
        Object(ObjectExpr),
        Variable(VariableExpr),
        Call(CallExpr),
        GetAttr(GetAttrExpr),
        Index(IndexExpr),
        LegacyIndex(LegacyIndexExpr),
        Splat(SplatExpr),
        ForTuple(ForTupleExpr),
        ForObject(ForObjectExpr),
        Conditional(ConditionalExpr),
        Unary(UnaryExpr),
        Binary(BinaryExpr),
        Paren(ParenExpr),
    }
);

ast_node!(
    /// `${ expr }` in a template.
    TemplateInterp, TEMPLATE_INTERP
);
ast_node!(
    /// `%{ if c }…%{ else }…%{ endif }`
    TemplateIf, TEMPLATE_IF
);
ast_node!(
    /// `%{ for k, v in c }…%{ endfor }`
    TemplateFor, TEMPLATE_FOR
);
ast_node!(
    /// `%{ if cond }`
    TemplateIfDirective, TEMPLATE_IF_DIRECTIVE
);
ast_node!(
    /// `%{ else }`
    TemplateElseDirective, TEMPLATE_ELSE_DIRECTIVE
);
ast_node!(
    /// `%{ endif }`
    TemplateEndifDirective, TEMPLATE_ENDIF_DIRECTIVE
);
ast_node!(
    /// `%{ for k, v in c }`
    TemplateForDirective, TEMPLATE_FOR_DIRECTIVE
);
ast_node!(
    /// `%{ endfor }`
    TemplateEndforDirective, TEMPLATE_ENDFOR_DIRECTIVE
);
ast_node!(
    /// The parts of one branch of a template directive.
    TemplateParts, TEMPLATE_PARTS
);

/// One part of a template, as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TemplatePart {
    /// Literal text, as written (escapes not yet decoded).
    Chunk(SyntaxToken),
    Interp(TemplateInterp),
    If(TemplateIf),
    For(TemplateFor),
}

/// The parts of a template node (quoted, heredoc, or a directive branch), in order.
pub(crate) fn template_parts(node: &SyntaxNode) -> impl Iterator<Item = TemplatePart> + use<> {
    node.children_with_tokens()
        .filter_map(|element| match element {
            rowan::NodeOrToken::Token(tok) if tok.kind() == TEMPLATE_CHUNK => {
                Some(TemplatePart::Chunk(tok))
            }
            rowan::NodeOrToken::Token(_) => None,
            rowan::NodeOrToken::Node(node) => match node.kind() {
                TEMPLATE_INTERP => Some(TemplatePart::Interp(TemplateInterp { syntax: node })),
                TEMPLATE_IF => Some(TemplatePart::If(TemplateIf { syntax: node })),
                TEMPLATE_FOR => Some(TemplatePart::For(TemplateFor { syntax: node })),
                _ => None,
            },
        })
}

impl SourceFile {
    pub fn body(&self) -> Option<Body> {
        child(&self.syntax)
    }
}

impl Body {
    pub fn items(&self) -> AstChildren<Item> {
        children(&self.syntax)
    }

    pub fn attributes(&self) -> AstChildren<Attribute> {
        children(&self.syntax)
    }

    pub fn blocks(&self) -> AstChildren<Block> {
        children(&self.syntax)
    }
}

impl Attribute {
    pub fn name(&self) -> Option<SyntaxToken> {
        token(&self.syntax, IDENT)
    }

    pub fn value(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

impl Block {
    /// The block type, `resource` in `resource "name" "type" { … }`.
    pub fn type_name(&self) -> Option<SyntaxToken> {
        token(&self.syntax, IDENT)
    }

    pub fn labels(&self) -> AstChildren<BlockLabel> {
        children(&self.syntax)
    }

    pub fn body(&self) -> Option<Body> {
        child(&self.syntax)
    }
}

impl BlockLabel {
    /// The label's value: the identifier, or the decoded string. A type token written
    /// without quotes (a syntax error) reads as its tokens' text.
    pub fn value(&self) -> Option<String> {
        if token(&self.syntax, IDENT).is_some() {
            return Some(self.syntax.text().to_string());
        }
        let template: TemplateExpr = child(&self.syntax)?;
        template.literal_value()
    }
}

impl LiteralExpr {
    /// The literal's token: `NUMBER`, `TRUE_KW`, `FALSE_KW` or `NULL_KW`.
    pub fn token(&self) -> Option<SyntaxToken> {
        token_of(&self.syntax, &[NUMBER, TRUE_KW, FALSE_KW, NULL_KW])
    }
}

impl TemplateExpr {
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart> + use<> {
        template_parts(&self.syntax)
    }
}

impl HeredocExpr {
    /// Whether this is a `<<-` heredoc, whose lines are dedented.
    pub fn is_indented(&self) -> bool {
        token(&self.syntax, HEREDOC_START).is_some_and(|tok| tok.text().starts_with("<<-"))
    }

    pub fn parts(&self) -> impl Iterator<Item = TemplatePart> + use<> {
        template_parts(&self.syntax)
    }
}

impl TupleExpr {
    pub fn elements(&self) -> AstChildren<Expr> {
        children(&self.syntax)
    }
}

impl ObjectExpr {
    pub fn items(&self) -> AstChildren<ObjectItem> {
        children(&self.syntax)
    }
}

impl ObjectItem {
    pub fn key(&self) -> Option<ObjectKey> {
        child(&self.syntax)
    }

    pub fn value(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

impl ObjectKey {
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
    }

    /// The key as a literal name when it is one: a bare identifier (not parenthesised), a
    /// literal string, or a number (`0` gives `"0"`).
    pub fn literal_name(&self) -> Option<String> {
        match self.expr()? {
            Expr::Variable(var) => Some(var.name()?.text().to_owned()),
            Expr::Literal(lit) => Some(lit.token()?.text().to_owned()),
            Expr::Template(template) => template.literal_value(),
            _ => None,
        }
    }
}

impl VariableExpr {
    pub fn name(&self) -> Option<SyntaxToken> {
        token(&self.syntax, IDENT)
    }
}

impl CallExpr {
    /// The function name, namespaces included (`ns::f`).
    pub fn name(&self) -> String {
        self.syntax
            .children_with_tokens()
            .filter_map(|it| it.into_token())
            .filter(|tok| matches!(tok.kind(), IDENT | COLON2))
            .map(|tok| tok.text().to_owned())
            .collect()
    }

    pub fn arg_list(&self) -> Option<ArgList> {
        child(&self.syntax)
    }
}

impl ArgList {
    pub fn args(&self) -> AstChildren<Expr> {
        children(&self.syntax)
    }

    /// Whether the last argument is expanded with `...`.
    pub fn has_expansion(&self) -> bool {
        token(&self.syntax, DOT3).is_some()
    }
}

impl GetAttrExpr {
    pub fn base(&self) -> Option<Expr> {
        child(&self.syntax)
    }

    pub fn name(&self) -> Option<SyntaxToken> {
        token(&self.syntax, IDENT)
    }
}

impl IndexExpr {
    pub fn base(&self) -> Option<Expr> {
        child(&self.syntax)
    }

    pub fn index(&self) -> Option<Expr> {
        children(&self.syntax).nth(1)
    }
}

impl LegacyIndexExpr {
    pub fn base(&self) -> Option<Expr> {
        child(&self.syntax)
    }

    pub fn index(&self) -> Option<SyntaxToken> {
        token(&self.syntax, NUMBER)
    }
}

impl SplatExpr {
    pub fn source(&self) -> Option<Expr> {
        child(&self.syntax)
    }

    /// `[*]` (true) or `.*` (false).
    pub fn is_full(&self) -> bool {
        token(&self.syntax, L_BRACK).is_some()
    }

    pub fn steps(&self) -> AstChildren<SplatStep> {
        children(&self.syntax)
    }
}

impl AttrStep {
    pub fn name(&self) -> Option<SyntaxToken> {
        token(&self.syntax, IDENT)
    }
}

impl IndexStep {
    pub fn index(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

impl LegacyIndexStep {
    pub fn index(&self) -> Option<SyntaxToken> {
        token(&self.syntax, NUMBER)
    }
}

impl ForIntro {
    /// The key variable: `k` in `for k, v in c`; `None` with one variable.
    pub fn key_var(&self) -> Option<SyntaxToken> {
        for_vars(&self.syntax).0
    }

    /// The value variable: `v` in `for k, v in c` and in `for v in c`.
    pub fn value_var(&self) -> Option<SyntaxToken> {
        for_vars(&self.syntax).1
    }

    pub fn collection(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

/// The (key, value) variables of a `for` introduction: `k, v` or just `v`.
fn for_vars(node: &SyntaxNode) -> (Option<SyntaxToken>, Option<SyntaxToken>) {
    let mut idents = node
        .children_with_tokens()
        .filter_map(|it| it.into_token())
        .filter(|tok| tok.kind() == IDENT);
    let first = idents.next();
    match idents.next() {
        Some(second) => (first, Some(second)),
        None => (None, first),
    }
}

impl ForCond {
    pub fn condition(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

impl ForTupleExpr {
    pub fn intro(&self) -> Option<ForIntro> {
        child(&self.syntax)
    }

    pub fn value(&self) -> Option<Expr> {
        child(&self.syntax)
    }

    pub fn cond(&self) -> Option<ForCond> {
        child(&self.syntax)
    }
}

impl ForObjectExpr {
    pub fn intro(&self) -> Option<ForIntro> {
        child(&self.syntax)
    }

    pub fn key(&self) -> Option<Expr> {
        child(&self.syntax)
    }

    pub fn value(&self) -> Option<Expr> {
        children(&self.syntax).nth(1)
    }

    /// Whether values are grouped by key with `...`.
    pub fn is_grouped(&self) -> bool {
        token(&self.syntax, DOT3).is_some()
    }

    pub fn cond(&self) -> Option<ForCond> {
        child(&self.syntax)
    }
}

impl ConditionalExpr {
    pub fn condition(&self) -> Option<Expr> {
        child(&self.syntax)
    }

    pub fn then_branch(&self) -> Option<Expr> {
        children(&self.syntax).nth(1)
    }

    pub fn else_branch(&self) -> Option<Expr> {
        children(&self.syntax).nth(2)
    }
}

impl UnaryExpr {
    pub fn op(&self) -> Option<SyntaxToken> {
        token_of(&self.syntax, &[MINUS, BANG])
    }

    pub fn operand(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

impl BinaryExpr {
    pub fn lhs(&self) -> Option<Expr> {
        child(&self.syntax)
    }

    pub fn op(&self) -> Option<SyntaxToken> {
        self.syntax
            .children_with_tokens()
            .filter_map(|it| it.into_token())
            .find(|tok| !tok.kind().is_trivia())
    }

    pub fn rhs(&self) -> Option<Expr> {
        children(&self.syntax).nth(1)
    }
}

impl ParenExpr {
    pub fn inner(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

impl TemplateInterp {
    pub fn expr(&self) -> Option<Expr> {
        child(&self.syntax)
    }

    /// `${~`: trims whitespace at the end of the text before.
    pub fn strips_before(&self) -> bool {
        strips_before(&self.syntax)
    }

    /// `~}`: trims whitespace at the start of the text after.
    pub fn strips_after(&self) -> bool {
        strips_after(&self.syntax)
    }
}

impl TemplateIf {
    pub fn if_directive(&self) -> Option<TemplateIfDirective> {
        child(&self.syntax)
    }

    pub fn then_parts(&self) -> Option<TemplateParts> {
        child(&self.syntax)
    }

    pub fn else_directive(&self) -> Option<TemplateElseDirective> {
        child(&self.syntax)
    }

    pub fn else_parts(&self) -> Option<TemplateParts> {
        children(&self.syntax).nth(1)
    }

    pub fn endif_directive(&self) -> Option<TemplateEndifDirective> {
        child(&self.syntax)
    }
}

impl TemplateIfDirective {
    pub fn condition(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

impl TemplateFor {
    pub fn for_directive(&self) -> Option<TemplateForDirective> {
        child(&self.syntax)
    }

    pub fn body(&self) -> Option<TemplateParts> {
        child(&self.syntax)
    }

    pub fn endfor_directive(&self) -> Option<TemplateEndforDirective> {
        child(&self.syntax)
    }
}

impl TemplateForDirective {
    /// The key variable: `k` in `%{ for k, v in c }`; `None` with one variable.
    pub fn key_var(&self) -> Option<SyntaxToken> {
        for_vars(&self.syntax).0
    }

    /// The value variable: `v` in `%{ for k, v in c }` and in `%{ for v in c }`.
    pub fn value_var(&self) -> Option<SyntaxToken> {
        for_vars(&self.syntax).1
    }

    pub fn collection(&self) -> Option<Expr> {
        child(&self.syntax)
    }
}

impl TemplateParts {
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart> + use<> {
        template_parts(&self.syntax)
    }
}

/// Whether a template sequence node opens with `${~` or `%{~`.
pub(crate) fn strips_before(node: &SyntaxNode) -> bool {
    let mut tokens = node.children_with_tokens().filter_map(|it| it.into_token());
    tokens.next();
    tokens
        .find(|tok| !tok.kind().is_trivia())
        .is_some_and(|tok| tok.kind() == TILDE)
}

/// Whether a template sequence node closes with `~}`.
pub(crate) fn strips_after(node: &SyntaxNode) -> bool {
    let mut tokens = node
        .children_with_tokens()
        .filter_map(|it| it.into_token())
        .collect::<Vec<_>>();
    tokens.retain(|tok| !tok.kind().is_trivia());
    tokens.len() >= 2
        && tokens[tokens.len() - 1].kind() == R_CURLY
        && tokens[tokens.len() - 2].kind() == TILDE
}
