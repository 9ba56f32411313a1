//! The rowan tree: the `Language` impl, node aliases, and building a tree from parser events.

use rowan::{GreenNode, GreenNodeBuilder, Language};

use crate::SyntaxKind;
use crate::lexer::LexedText;
use crate::parser::Event;

/// The rowan language of PCL trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PclLanguage {}

impl Language for PclLanguage {
    type Kind = SyntaxKind;

    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0)
    }

    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(kind as u16)
    }
}

pub type SyntaxNode = rowan::SyntaxNode<PclLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<PclLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<PclLanguage>;
pub type SyntaxNodeChildren = rowan::SyntaxNodeChildren<PclLanguage>;

/// Builds the tree from `events`, re-inserting the trivia of `lexed` between tokens.
///
/// Trivia before a node's first token belongs to the parent, so nodes span exactly from their
/// first to their last significant token; trivia at the end of the input goes to the root.
/// Every token of `lexed` ends up in the tree, in order.
pub(crate) fn build_tree(lexed: &LexedText<'_>, mut events: Vec<Event>) -> GreenNode {
    let mut sink = Sink {
        lexed,
        builder: GreenNodeBuilder::new(),
        raw_pos: 0,
        depth: 0,
    };
    let mut forward_kinds = Vec::new();
    for idx in 0..events.len() {
        match std::mem::replace(&mut events[idx], Event::Tombstone) {
            Event::Start {
                kind,
                forward_parent,
            } => {
                forward_kinds.push(kind);
                let mut next = forward_parent;
                while let Some(fwd) = next {
                    next = match std::mem::replace(&mut events[fwd as usize], Event::Tombstone) {
                        Event::Start {
                            kind,
                            forward_parent,
                        } => {
                            forward_kinds.push(kind);
                            forward_parent
                        }
                        _ => None,
                    };
                }
                for kind in forward_kinds.drain(..).rev() {
                    sink.start_node(kind);
                }
            }
            Event::Finish => sink.finish_node(),
            Event::Token { kind } => sink.token(kind),
            Event::Tombstone => (),
        }
    }
    sink.builder.finish()
}

struct Sink<'a, 't> {
    lexed: &'a LexedText<'t>,
    builder: GreenNodeBuilder<'static>,
    raw_pos: usize,
    depth: u32,
}

impl Sink<'_, '_> {
    fn start_node(&mut self, kind: SyntaxKind) {
        if self.depth > 0 {
            self.eat_trivia();
        }
        self.depth += 1;
        self.builder.start_node(rowan::SyntaxKind(kind as u16));
    }

    fn finish_node(&mut self) {
        self.depth -= 1;
        if self.depth == 0 {
            // The root: everything left over goes in, so the tree stays lossless.
            while self.raw_pos < self.lexed.len() {
                let kind = self.lexed.kind(self.raw_pos);
                if kind.is_trivia() {
                    self.raw_token(kind);
                } else {
                    self.builder
                        .start_node(rowan::SyntaxKind(SyntaxKind::ERROR as u16));
                    self.raw_token(kind);
                    self.builder.finish_node();
                }
            }
        }
        self.builder.finish_node();
    }

    fn token(&mut self, kind: SyntaxKind) {
        self.eat_trivia();
        if self.raw_pos < self.lexed.len() {
            self.raw_token(kind);
        }
    }

    fn eat_trivia(&mut self) {
        while self.raw_pos < self.lexed.len() {
            let kind = self.lexed.kind(self.raw_pos);
            if !kind.is_trivia() {
                break;
            }
            self.raw_token(kind);
        }
    }

    fn raw_token(&mut self, kind: SyntaxKind) {
        let text = self.lexed.text(self.raw_pos);
        self.builder.token(rowan::SyntaxKind(kind as u16), text);
        self.raw_pos += 1;
    }
}
