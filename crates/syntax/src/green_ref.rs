//! Positioned views of the green tree: a node or a token with where it starts, and walks
//! over children that build nothing. rowan's syntax nodes allocate one cursor per element
//! visited; passes that read every node of every item once (lowering to HIR) use these.
//! Ranges are relative to where the walk started (`GreenNodeRef::root`).

use rowan::{GreenNodeData, GreenTokenData, NodeOrToken};

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
