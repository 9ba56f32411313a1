//! The rowan tree: the `Language` impl, node aliases, and building a tree from parser events.

use rowan::{GreenNode, GreenNodeBuilder, GreenToken, Language, NodeOrToken};

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
        builder: TreeBuilder::default(),
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
    builder: TreeBuilder,
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

/// Builds a green tree as rowan's `GreenNodeBuilder` does, in batches. The file and its bodies
/// (the top two levels) are assembled here; everything below them goes through a
/// `GreenNodeBuilder`, inside a wrapper node, whose interning cache is replaced once an item
/// ends after `BATCH_TOKENS` tokens. One cache for a whole large file grows as large as the
/// file and makes most tokens a CPU cache miss; a smaller one stays hot, and what batches fail
/// to share (the same punctuation and blanks once per batch) costs next to nothing. The trees
/// are the same either way (`tests::batched_trees_equal_items_parsed_alone`).
#[derive(Default)]
struct TreeBuilder {
    /// The open nodes of the top levels, with their children so far.
    top: Vec<(rowan::SyntaxKind, Vec<NodeOrToken<GreenNode, GreenToken>>)>,
    /// The builder for the deeper levels, with its wrapper node open, once started.
    batch: Option<GreenNodeBuilder<'static>>,
    /// Nodes open in `batch`, not counting the wrapper.
    batch_depth: usize,
    batch_tokens: usize,
    root: Option<GreenNode>,
}

/// How many levels `TreeBuilder` assembles itself: the file and its bodies.
const TOP_LEVELS: usize = 2;
/// About how many tokens share one interning cache.
const BATCH_TOKENS: usize = 65_536;

impl TreeBuilder {
    fn start_node(&mut self, kind: rowan::SyntaxKind) {
        if self.batch_depth == 0 && self.top.len() < TOP_LEVELS {
            self.top.push((kind, Vec::new()));
        } else {
            self.batch().start_node(kind);
            self.batch_depth += 1;
        }
    }

    fn token(&mut self, kind: rowan::SyntaxKind, text: &str) {
        if self.batch_depth == 0 && self.top.len() < TOP_LEVELS {
            if let Some((_, children)) = self.top.last_mut() {
                children.push(NodeOrToken::Token(GreenToken::new(kind, text)));
            }
        } else {
            self.batch().token(kind, text);
            self.batch_tokens += 1;
        }
    }

    fn finish_node(&mut self) {
        if self.batch_depth > 0 {
            if let Some(batch) = &mut self.batch {
                batch.finish_node();
            }
            self.batch_depth -= 1;
            if self.batch_depth == 0 && self.batch_tokens >= BATCH_TOKENS {
                self.flush_batch();
            }
            return;
        }
        self.flush_batch();
        let Some((kind, children)) = self.top.pop() else {
            return;
        };
        let node = GreenNode::new(kind, children);
        match self.top.last_mut() {
            Some((_, siblings)) => siblings.push(NodeOrToken::Node(node)),
            None => self.root = Some(node),
        }
    }

    /// The batch builder, started with its wrapper node if there is none.
    fn batch(&mut self) -> &mut GreenNodeBuilder<'static> {
        self.batch.get_or_insert_with(|| {
            let mut builder = GreenNodeBuilder::new();
            builder.start_node(rowan::SyntaxKind(SyntaxKind::ERROR as u16));
            builder
        })
    }

    /// Moves what the batch built into the innermost top-level node.
    fn flush_batch(&mut self) {
        let Some(mut batch) = self.batch.take() else {
            return;
        };
        batch.finish_node();
        let wrapper = batch.finish();
        if let Some((_, children)) = self.top.last_mut() {
            children.extend(wrapper.children().map(|child| child.to_owned()));
        }
        self.batch_tokens = 0;
    }

    fn finish(self) -> GreenNode {
        self.root.unwrap_or_else(|| {
            GreenNode::new(rowan::SyntaxKind(SyntaxKind::SOURCE_FILE as u16), [])
        })
    }
}
