//! Positioned views of the green tree: a node or a token with where it starts, and walks
//! over children that build nothing. rowan's syntax nodes allocate one cursor per element
//! visited; passes that read every node of every item once (lowering to HIR) use these.
//! Ranges are relative to where the walk started (`GreenNodeRef::root`).

use std::borrow::Cow;

use rowan::{GreenNodeData, GreenTokenData, NodeOrToken};

use crate::ast::{self, AstNode};
use crate::{SyntaxKind, SyntaxNode, TextRange, TextSize};

/// A node of the green tree and where it starts.
#[derive(Clone, Copy, Debug)]
pub struct GreenNodeRef<'a> {
    green: &'a GreenNodeData,
    start: TextSize,
}

/// A token of the green tree and where it starts.
#[derive(Clone, Copy, Debug)]
pub struct GreenTokenRef<'a> {
    green: &'a GreenTokenData,
    start: TextSize,
}

pub type GreenElementRef<'a> = NodeOrToken<GreenNodeRef<'a>, GreenTokenRef<'a>>;

impl<'a> GreenNodeRef<'a> {
    /// `green` as the start of a walk: it starts at 0.
    pub fn root(green: &'a GreenNodeData) -> GreenNodeRef<'a> {
        GreenNodeRef {
            green,
            start: TextSize::from(0),
        }
    }

    pub fn kind(self) -> SyntaxKind {
        SyntaxKind::from_raw(self.green.kind().0)
    }

    pub fn text_range(self) -> TextRange {
        TextRange::at(self.start, self.green.text_len())
    }

    pub fn green(self) -> &'a GreenNodeData {
        self.green
    }

    /// A syntax tree of this node alone (ranges relative to its start), for the typed AST's
    /// accessors where a pass needs one.
    pub fn to_syntax_node(self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.to_owned())
    }

    /// The children, nodes and tokens, in order.
    pub fn children_with_tokens(self) -> impl Iterator<Item = GreenElementRef<'a>> {
        let mut offset = self.start;
        self.green.children().map(move |child| {
            let start = offset;
            offset += child.text_len();
            match child {
                NodeOrToken::Node(green) => NodeOrToken::Node(GreenNodeRef { green, start }),
                NodeOrToken::Token(green) => NodeOrToken::Token(GreenTokenRef { green, start }),
            }
        })
    }

    /// The child nodes, in order.
    pub fn children(self) -> impl Iterator<Item = GreenNodeRef<'a>> {
        self.children_with_tokens()
            .filter_map(NodeOrToken::into_node)
    }

    /// Call `found` with each node of `kind` in this subtree (this node included), each
    /// placed as a root (its offsets relative to itself): the walk reads the kinds of nodes
    /// only, never a token, as it places nothing. Nodes are visited from a stack: each
    /// node's children are pushed in order, so the last child's subtree comes first.
    pub fn for_each_of_kind(self, kind: SyntaxKind, mut found: impl FnMut(GreenNodeRef<'a>)) {
        let mut stack = vec![self.green];
        while let Some(node) = stack.pop() {
            if SyntaxKind::from_raw(node.kind().0) == kind {
                found(GreenNodeRef::root(node));
            }
            stack.extend(node.children().filter_map(NodeOrToken::into_node));
        }
    }

    /// The child tokens, in order.
    pub fn tokens(self) -> impl Iterator<Item = GreenTokenRef<'a>> {
        self.children_with_tokens()
            .filter_map(NodeOrToken::into_token)
    }

    /// The child nodes whose kind `wanted` accepts, in order.
    pub fn children_where(
        self,
        wanted: impl Fn(SyntaxKind) -> bool,
    ) -> impl Iterator<Item = GreenNodeRef<'a>> {
        self.children().filter(move |child| wanted(child.kind()))
    }

    /// The first child node of `kind`.
    pub fn child(self, kind: SyntaxKind) -> Option<GreenNodeRef<'a>> {
        self.children().find(|child| child.kind() == kind)
    }

    /// The first child token whose kind is in `kinds`.
    pub fn token(self, kinds: &[SyntaxKind]) -> Option<GreenTokenRef<'a>> {
        self.tokens().find(|token| kinds.contains(&token.kind()))
    }

    /// The child nodes that are expressions, in order: what the typed AST's accessors pick
    /// from (the first for a value or an operand, the second for an index key or a right
    /// operand).
    pub fn exprs(self) -> impl Iterator<Item = GreenNodeRef<'a>> {
        self.children_where(<ast::Expr as AstNode>::can_cast)
    }

    pub fn first_expr(self) -> Option<GreenNodeRef<'a>> {
        self.exprs().next()
    }

    /// The parts of a template node (quoted, heredoc or a directive branch), in order: its
    /// literal chunks, interpolations and directives (`ast::TemplatePart`).
    pub fn template_parts(self) -> Vec<GreenElementRef<'a>> {
        (self.children_with_tokens())
            .filter(|part| match part {
                NodeOrToken::Token(token) => token.kind() == SyntaxKind::TEMPLATE_CHUNK,
                NodeOrToken::Node(node) => matches!(
                    node.kind(),
                    SyntaxKind::TEMPLATE_INTERP
                        | SyntaxKind::TEMPLATE_IF
                        | SyntaxKind::TEMPLATE_FOR
                ),
            })
            .collect()
    }

    /// A quoted template's decoded text when it is literal text alone
    /// (`TemplateExpr::literal_value`): borrowed from the tree when it is one chunk with
    /// nothing to decode (most labels and type tokens), so reading it allocates nothing.
    pub fn template_literal(self) -> Option<Cow<'a, str>> {
        let mut res: Option<Cow<'a, str>> = None;
        for child in self.green.children() {
            let chunk = match child {
                NodeOrToken::Token(token)
                    if token.kind().0 == SyntaxKind::TEMPLATE_CHUNK as u16 =>
                {
                    ast::unescape_quoted(token.text())
                }
                NodeOrToken::Token(_) => continue,
                NodeOrToken::Node(node) => match SyntaxKind::from_raw(node.kind().0) {
                    SyntaxKind::TEMPLATE_INTERP
                    | SyntaxKind::TEMPLATE_IF
                    | SyntaxKind::TEMPLATE_FOR => {
                        return None;
                    }
                    _ => continue,
                },
            };
            res = Some(match res {
                None => chunk,
                Some(before) => Cow::Owned(before.into_owned() + &chunk),
            });
        }
        Some(res.unwrap_or_default())
    }

    /// A call's function name, namespaces included (`ns::f`; `CallExpr::name`).
    pub fn call_name(self) -> String {
        (self.tokens())
            .filter(|t| matches!(t.kind(), SyntaxKind::IDENT | SyntaxKind::COLON2))
            .map(|t| t.text())
            .collect()
    }

    /// Whether a call's function name is `name` ([`GreenNodeRef::call_name`] without
    /// building it: walks over every call of every item look for `invoke`).
    pub fn call_name_is(self, name: &str) -> bool {
        let mut rest = name;
        for token in self.tokens() {
            if matches!(token.kind(), SyntaxKind::IDENT | SyntaxKind::COLON2) {
                match rest.strip_prefix(token.text()) {
                    Some(after) => rest = after,
                    None => return false,
                }
            }
        }
        rest.is_empty()
    }

    /// A block label's value: the identifier, or the decoded string (`BlockLabel::value`).
    pub fn label_value(self) -> Option<Cow<'a, str>> {
        if let Some(ident) = self.token(&[SyntaxKind::IDENT]) {
            return Some(Cow::Borrowed(ident.text()));
        }
        self.child(SyntaxKind::TEMPLATE_EXPR)?.template_literal()
    }
}

impl<'a> GreenTokenRef<'a> {
    pub fn kind(self) -> SyntaxKind {
        SyntaxKind::from_raw(self.green.kind().0)
    }

    pub fn text(self) -> &'a str {
        self.green.text()
    }

    pub fn text_range(self) -> TextRange {
        TextRange::at(self.start, self.green.text_len())
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::GreenNodeRef;
    use crate::SyntaxKind;
    use crate::ast::{AstNode, BlockLabel, CallExpr, TemplateExpr};

    /// Calls found in the green tree are named as the typed AST names them, with their
    /// ranges in the file.
    #[test]
    fn call_names_and_ranges_match_the_syntax_tree() {
        let parse = crate::parse("a = ns::invoke(1)\nb = invoke(\"x\")\nc = invoked(2)\n");
        let root = parse.syntax_node();
        let green = root.green();
        let mut stack = vec![GreenNodeRef::root(&green)];
        let mut calls = Vec::new();
        while let Some(node) = stack.pop() {
            if node.kind() == SyntaxKind::CALL_EXPR {
                calls.push((
                    node.call_name(),
                    node.call_name_is("invoke"),
                    node.text_range(),
                ));
            }
            stack.extend(node.children());
        }
        calls.sort_by_key(|(_, _, range)| range.start());
        let expected: Vec<_> = (root.descendants())
            .filter_map(CallExpr::cast)
            .map(|call| {
                (
                    call.name(),
                    call.name() == "invoke",
                    call.syntax().text_range(),
                )
            })
            .collect();
        assert_eq!(calls, expected);
        assert_eq!(calls.iter().filter(|(_, invoke, _)| *invoke).count(), 1);
    }

    /// Literal templates and block labels read from the green tree decode as the typed AST
    /// decodes them, borrowed from the tree when there is nothing to decode.
    #[test]
    fn literal_templates_and_labels_match_the_syntax_tree() {
        let text = concat!(
            "resource r \"pkg:index:Type\" {}\n",
            "resource \"s\" \"a\\\"b\" {}\n",
            "output o \"\" {}\n",
            "a = \"x$${y}%%{z}\\n\"\n",
            "b = \"x${y}\"\n",
            "c = \"plain\"\n",
        );
        let parse = crate::parse(text);
        let root = parse.syntax_node();
        let green = root.green();
        let mut stack = vec![GreenNodeRef::root(&green)];
        let (mut templates, mut labels) = (Vec::new(), Vec::new());
        while let Some(node) = stack.pop() {
            match node.kind() {
                SyntaxKind::TEMPLATE_EXPR => {
                    templates.push((node.text_range(), node.template_literal()))
                }
                SyntaxKind::BLOCK_LABEL => labels.push((node.text_range(), node.label_value())),
                _ => {}
            }
            stack.extend(node.children());
        }
        templates.sort_by_key(|(range, _)| range.start());
        labels.sort_by_key(|(range, _)| range.start());
        let expected_templates: Vec<_> = (root.descendants())
            .filter_map(TemplateExpr::cast)
            .map(|t| (t.syntax().text_range(), t.literal_value()))
            .collect();
        let expected_labels: Vec<_> = (root.descendants())
            .filter_map(BlockLabel::cast)
            .map(|l| (l.syntax().text_range(), l.value()))
            .collect();
        let owned = |items: &[(crate::TextRange, Option<Cow<'_, str>>)]| -> Vec<_> {
            (items.iter())
                .map(|(range, value)| (*range, value.as_ref().map(|v| v.to_string())))
                .collect()
        };
        assert_eq!(owned(&templates), expected_templates);
        assert_eq!(owned(&labels), expected_labels);
        assert_eq!(templates.len(), 7, "{templates:?}");
        // Plain text is borrowed; text with escapes is decoded into a string of its own.
        let borrowed = (templates.iter().chain(&labels))
            .filter(|(_, value)| matches!(value, Some(Cow::Borrowed(_))))
            .count();
        assert_eq!(borrowed, 7, "{templates:?} {labels:?}");
    }
}
