//! The typed AST: thin, zero-cost views over the rowan tree.
//!
//! Every accessor returns `Option` or an iterator, because trees of broken input are
//! incomplete by design. Literal decoding lives in `ast::literals`.

mod literals;
mod nodes;

pub use literals::{NumberValue, unescape_quoted};
pub use nodes::*;

use std::marker::PhantomData;

use crate::{SyntaxKind, SyntaxNode, SyntaxNodeChildren, SyntaxToken};

/// A typed view of a node of one or more kinds.
pub trait AstNode {
    fn can_cast(kind: SyntaxKind) -> bool
    where
        Self: Sized;

    fn cast(syntax: SyntaxNode) -> Option<Self>
    where
        Self: Sized;

    fn syntax(&self) -> &SyntaxNode;
}

/// The children of a node that cast to `N`.
#[derive(Debug, Clone)]
pub struct AstChildren<N> {
    inner: SyntaxNodeChildren,
    ph: PhantomData<N>,
}

impl<N> AstChildren<N> {
    fn new(parent: &SyntaxNode) -> AstChildren<N> {
        AstChildren {
            inner: parent.children(),
            ph: PhantomData,
        }
    }
}

impl<N: AstNode> Iterator for AstChildren<N> {
    type Item = N;

    fn next(&mut self) -> Option<N> {
        self.inner.find_map(N::cast)
    }
}

mod support {
    use super::{AstChildren, AstNode};
    use crate::{SyntaxKind, SyntaxNode, SyntaxToken};

    pub(super) fn child<N: AstNode>(parent: &SyntaxNode) -> Option<N> {
        parent.children().find_map(N::cast)
    }

    pub(super) fn children<N: AstNode>(parent: &SyntaxNode) -> AstChildren<N> {
        AstChildren::new(parent)
    }

    pub(super) fn token(parent: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
        super::token_of(parent, &[kind])
    }
}

/// The first token of `node` whose kind is in `kinds`.
fn token_of(node: &SyntaxNode, kinds: &[SyntaxKind]) -> Option<SyntaxToken> {
    // Looked up in the green tree: an element is made only for what is found.
    let mut element = node.first_child_or_token_by_kind(&|kind| kinds.contains(&kind));
    while let Some(current) = element {
        match current {
            rowan::NodeOrToken::Token(token) => return Some(token),
            rowan::NodeOrToken::Node(node) => {
                element = node.next_sibling_or_token_by_kind(&|kind| kinds.contains(&kind));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
