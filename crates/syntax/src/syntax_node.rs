//! The rowan tree: the `Language` impl and node aliases; the sink through which the parser
//! builds a flat tree (`Sink`), and the builder of rowan trees from flat ones (`TreeBuilder`).

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use rowan::{GreenNode, GreenNodeData, GreenToken, GreenTokenData, Language, NodeOrToken};
use rustc_hash::{FxHashMap, FxHasher};

use crate::SyntaxKind;
use crate::flat::{self, FlatBuilder, NodeStart};
use crate::lexer::LexedText;

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

/// Builds the flat tree as the parser goes, putting the trivia of the lexed tokens back
/// between the tokens it is given: the parser calls it at each node's start and end and
/// each token ([`crate::parser::Parser::building`]). The lexer's tokens are the text's, or
/// a window of them for a large file: `raw_pos` counts from the window's first.
///
/// Trivia before a node's first token belongs to the parent, so nodes span exactly from their
/// first to their last significant token; trivia at the end of the input goes to the root.
/// Every token of the text ends up in the tree, in order.
pub(crate) struct Sink {
    builder: FlatBuilder,
    raw_pos: usize,
}

impl Sink {
    /// A sink for a text of `text_len` bytes.
    pub(crate) fn new(text_len: usize) -> Self {
        Sink {
            builder: FlatBuilder::for_text(text_len),
            raw_pos: 0,
        }
    }

    /// The index of the next token to go in the tree.
    pub(crate) fn raw_pos(&self) -> usize {
        self.raw_pos
    }

    /// The window of tokens dropped its first `n` (all in the tree).
    pub(crate) fn dropped_front(&mut self, n: usize) {
        self.raw_pos -= n;
    }

    /// How many nodes are open.
    pub(crate) fn depth(&self) -> usize {
        self.builder.depth()
    }

    /// A top-level item is parsed: the nodes enclosing others go in
    /// ([`FlatBuilder::place_wrappers`]).
    pub(crate) fn item_done(&mut self) {
        self.builder.place_wrappers();
    }

    /// The flat tree built.
    pub(crate) fn finish(self) -> FlatBuilder {
        self.builder
    }

    /// A node of `kind` (a placeholder when not known yet) starts at the next token.
    #[inline(always)]
    pub(crate) fn start_node(&mut self, kind: SyntaxKind, lexed: &LexedText<'_>) {
        let before = (self.builder.len(), self.raw_pos as u32);
        let lead = match self.builder.depth() {
            0 => 0,
            _ => self.eat_trivia(lexed),
        };
        let at = lexed.start_of(self.raw_pos);
        (self.builder).start_node(kind, lead, at, before);
    }

    /// The last node open, not the root, is a `kind` and ends after the last token.
    #[inline(always)]
    pub(crate) fn finish_node(&mut self, kind: SyntaxKind, lexed: &LexedText<'_>) -> NodeStart {
        (self.builder).finish_node(kind, lexed.start_of(self.raw_pos))
    }

    /// The root, a `kind`, ends: everything left of the text (lexed to its end) goes in,
    /// so the tree stays lossless.
    #[cold]
    pub(crate) fn finish_root(&mut self, kind: SyntaxKind, lexed: &LexedText<'_>) -> NodeStart {
        loop {
            let lead = self.eat_trivia(lexed);
            if self.raw_pos >= lexed.len() {
                self.push_lead(lead);
                break;
            }
            let at = lexed.start_of(self.raw_pos);
            let before = (self.builder.len(), self.raw_pos as u32);
            (self.builder).start_node(SyntaxKind::ERROR, lead, at, before);
            self.raw_token(lexed.kind(self.raw_pos), 0, lexed);
            (self.builder).finish_node(SyntaxKind::ERROR, lexed.start_of(self.raw_pos));
        }
        self.finish_node(kind, lexed)
    }

    /// The last node open is abandoned: its content, if any, is its parent's.
    pub(crate) fn abandon_node(&mut self) {
        if let Some(raw_pos) = self.builder.abandon_node() {
            self.raw_pos = raw_pos as usize;
        }
    }

    /// A node starts that encloses the finished node `node`.
    pub(crate) fn precede(&mut self, node: NodeStart) {
        self.builder.precede(node);
    }

    /// The next significant token, as a `kind`.
    #[inline(always)]
    pub(crate) fn token(&mut self, kind: SyntaxKind, lexed: &LexedText<'_>) {
        let lead = self.eat_trivia(lexed);
        match self.raw_pos < lexed.len() {
            true => self.raw_token(kind, lead, lexed),
            false => self.push_lead(lead),
        }
    }

    /// The tokens of `lead` (none when 0), which precede the next token, as elements of
    /// their own: nothing comes after them to take them as its lead.
    fn push_lead(&mut self, lead: u8) {
        for (kind, len) in flat::lead_tokens(lead) {
            if len > 0 {
                (self.builder).token(kind, 0, len, false);
            }
        }
    }

    /// Put the trivia before the next token or node in the tree but what one lead holds
    /// right before it (`flat::extend_lead`), which it returns.
    // Always inlined, as `raw_token`: it runs before every token and node.
    #[inline(always)]
    fn eat_trivia(&mut self, lexed: &LexedText<'_>) -> u8 {
        let mut lead = 0;
        while let Some(&kind) = lexed.kinds().get(self.raw_pos)
            && kind.is_trivia()
        {
            let len = lexed.len_of(self.raw_pos);
            if let Some(extended) = flat::extend_lead(lead, kind, len) {
                lead = extended;
                self.raw_pos += 1;
            } else if let Some(fresh) = flat::extend_lead(0, kind, len) {
                // Trivia the lead cannot take: what it holds are elements.
                self.push_lead(lead);
                lead = fresh;
                self.raw_pos += 1;
            } else {
                self.raw_token(kind, std::mem::take(&mut lead), lexed);
            }
        }
        lead
    }

    // Always inlined: a call per token (most tokens) costs as much as the token.
    #[inline(always)]
    fn raw_token(&mut self, kind: SyntaxKind, lead: u8, lexed: &LexedText<'_>) {
        let len = lexed.len_of(self.raw_pos);
        // The text is read only where it may be `invoke`.
        let names_invoke = kind == SyntaxKind::IDENT
            && len as usize == crate::INVOKE.len()
            && lexed.bytes(self.raw_pos) == crate::INVOKE.as_bytes();
        self.builder.token(kind, lead, len, names_invoke);
        self.raw_pos += 1;
    }
}

/// Builds a green tree from a flat one (`flat::FlatTree::feed`), as rowan's
/// `GreenNodeBuilder` does but cheaper: the children of the open nodes on one stack, tokens and small nodes shared
/// through caches of our own. A token first tries the last token of its kind (punctuation,
/// keywords and most blanks are the same text every time: no hashing), then a table keyed by
/// a hash of its kind and text; a node of at most `SHARED_NODE_CHILDREN` children is shared
/// when its kind and children are the same objects as an earlier one's (rowan stops at
/// three; attributes and small objects repeat too, and sharing them cut the peak memory of
/// a 10 MB check by 15%, at no cost in time). The caches are emptied
/// once a top-level item ends after `CACHE_TOKENS` tokens: one
/// cache for a whole large file grows as large as the file and makes most lookups a CPU
/// cache miss, while what a smaller one fails to share costs next to nothing. The trees
/// equal those of items parsed alone (`tests::batched_trees_equal_items_parsed_alone`).
#[derive(Default)]
pub(crate) struct TreeBuilder {
    /// The open nodes: their kind and where their children start in `children`.
    parents: Vec<(rowan::SyntaxKind, usize)>,
    children: Vec<Child>,
    /// The tokens the caches share, each once. Children name them by index, so a token
    /// costs a reference count only when a node that is not shared takes it in.
    token_pool: Vec<GreenToken>,
    /// The last token made or shared of each kind, in `token_pool`.
    last_tokens: Vec<Option<u32>>,
    /// Tokens in `token_pool` by a hash of their kind and text.
    tokens: FxHashMap<u64, u32>,
    nodes: FxHashMap<u64, GreenNode>,
    /// Tokens since the caches were last emptied.
    cached_tokens: usize,
    /// No child before this index names a pooled token (they were made their own when the
    /// caches were last emptied), so emptying them again looks only past it.
    unpooled_children: usize,
    root: Option<GreenNode>,
}

/// A child of an open node: a finished node, a token of `token_pool`, or a token of its
/// own (one that was in the pool when the caches were emptied).
enum Child {
    Node(GreenNode),
    Pooled(u32),
    Token(GreenToken),
}

/// Open nodes (the file and its body) when a top-level item ends.
const ITEM_DEPTH: usize = 2;
/// About how many tokens share one cache.
const CACHE_TOKENS: usize = 65_536;
/// Nodes with more children than this are not shared: they rarely repeat (64 shared no
/// more than 24 on generated programs).
const SHARED_NODE_CHILDREN: usize = 24;

/// Blocks and their bodies are not shared: two equal ones are rare (549 of 32k on
/// generated programs), and each kept in the cache costs a hash, a table entry and two
/// reference counts.
fn unshared(kind: rowan::SyntaxKind) -> bool {
    kind.0 == SyntaxKind::BLOCK as u16 || kind.0 == SyntaxKind::BODY as u16
}

impl TreeBuilder {
    pub(crate) fn start_node(&mut self, kind: rowan::SyntaxKind) {
        self.parents.push((kind, self.children.len()));
    }

    /// A token of `kind` whose text is `bytes`; `text` gives them as text, asked only for
    /// a token not shared (slicing text checks both ends are character boundaries, a
    /// cost every token paid when it was asked for all).
    pub(crate) fn token<'t>(
        &mut self,
        kind: rowan::SyntaxKind,
        bytes: &[u8],
        text: impl FnOnce() -> &'t str,
    ) {
        let pooled = self.pooled_token(kind, bytes, text);
        self.children.push(Child::Pooled(pooled));
        self.cached_tokens += 1;
    }

    /// The index in `token_pool` of the token of `kind` and `bytes`, made (from `text`) if
    /// it is new.
    fn pooled_token<'t>(
        &mut self,
        kind: rowan::SyntaxKind,
        bytes: &[u8],
        text: impl FnOnce() -> &'t str,
    ) -> u32 {
        let index = usize::from(kind.0);
        if self.last_tokens.len() <= index {
            self.last_tokens.resize(index + 1, None);
        }
        if let Some(last) = self.last_tokens[index]
            && same_text(self.token_pool[last as usize].text(), bytes)
        {
            return last;
        }
        let mut hasher = FxHasher::default();
        kind.0.hash(&mut hasher);
        hasher.write(bytes);
        let key = hasher.finish();
        let pooled = match self.tokens.get(&key) {
            Some(&pooled)
                if self.token_pool[pooled as usize].kind() == kind
                    && same_text(self.token_pool[pooled as usize].text(), bytes) =>
            {
                pooled
            }
            _ => {
                let pooled = self.token_pool.len() as u32;
                self.token_pool.push(GreenToken::new(kind, text()));
                self.tokens.insert(key, pooled);
                pooled
            }
        };
        self.last_tokens[index] = Some(pooled);
        pooled
    }

    pub(crate) fn finish_node(&mut self) {
        let Some((kind, first)) = self.parents.pop() else {
            return;
        };
        let node = if self.children.len() - first <= SHARED_NODE_CHILDREN && !unshared(kind) {
            self.shared_node(kind, first)
        } else {
            self.new_node(kind, first)
        };
        if self.parents.is_empty() {
            self.root = Some(node);
            return;
        }
        self.children.push(Child::Node(node));
        if self.parents.len() <= ITEM_DEPTH && self.cached_tokens >= CACHE_TOKENS {
            // The open nodes' pooled tokens (blanks between items) become their own.
            let from = self.unpooled_children.min(self.children.len());
            for child in &mut self.children[from..] {
                if let Child::Pooled(pooled) = *child {
                    *child = Child::Token(self.token_pool[pooled as usize].clone());
                }
            }
            self.unpooled_children = self.children.len();
            self.last_tokens.clear();
            self.tokens.clear();
            self.token_pool.clear();
            self.nodes.clear();
            self.cached_tokens = 0;
        }
    }

    /// The node of `kind` over the children from `first`, shared with an equal earlier one.
    fn shared_node(&mut self, kind: rowan::SyntaxKind, first: usize) -> GreenNode {
        let children = &self.children[first..];
        let mut hasher = FxHasher::default();
        kind.0.hash(&mut hasher);
        for child in children {
            self.child_address(child).hash(&mut hasher);
        }
        let key = hasher.finish();
        if let Some(node) = self.nodes.get(&key)
            && node.kind() == kind
            && node.children().len() == children.len()
            && (node.children().zip(children))
                .all(|(old, new)| element_address(old) == self.child_address(new))
        {
            let node = node.clone();
            self.children.truncate(first);
            return node;
        }
        let node = self.new_node(kind, first);
        self.nodes.insert(key, node.clone());
        node
    }

    /// A new node of `kind` over the children from `first`.
    fn new_node(&mut self, kind: rowan::SyntaxKind, first: usize) -> GreenNode {
        if self.children.len() - first > WARMED_CHILDREN {
            warm(&self.children[first..]);
        }
        let pool = &self.token_pool;
        let children = self.children.drain(first..).map(|child| match child {
            Child::Node(node) => NodeOrToken::Node(node),
            Child::Pooled(pooled) => NodeOrToken::Token(pool[pooled as usize].clone()),
            Child::Token(token) => NodeOrToken::Token(token),
        });
        GreenNode::new(kind, children)
    }

    /// Where a child lives: children made once are shared by identity.
    fn child_address(&self, child: &Child) -> usize {
        match child {
            Child::Node(node) => std::ptr::from_ref::<GreenNodeData>(node) as usize,
            Child::Pooled(pooled) => {
                std::ptr::from_ref::<GreenTokenData>(&self.token_pool[*pooled as usize]) as usize
            }
            Child::Token(token) => std::ptr::from_ref::<GreenTokenData>(token) as usize,
        }
    }

    /// A child built before (an item's node, kept in its handle).
    pub(crate) fn node(&mut self, node: GreenNode) {
        self.children.push(Child::Node(node));
    }

    /// Keep the node just finished in `cell`, or, when the cell has one already (built
    /// beside this one), take that one in its place: the tree and the cell share it.
    pub(crate) fn keep_last_node_in(&mut self, cell: &OnceLock<GreenNode>) {
        let Some(Child::Node(node)) = self.children.last_mut() else {
            return;
        };
        let kept = cell.get_or_init(|| node.clone());
        if !std::ptr::eq::<GreenNodeData>(&**kept, &**node) {
            *node = kept.clone();
        }
    }

    /// The root: the last node finished with no node open.
    pub(crate) fn finish(self) -> GreenNode {
        self.root.unwrap_or_else(|| {
            GreenNode::new(rowan::SyntaxKind(SyntaxKind::SOURCE_FILE as u16), [])
        })
    }
}

/// A node with more children than this is built long after most of them (a file's body,
/// from its items): [`warm`] reads them first.
const WARMED_CHILDREN: usize = 256;

/// Read the length of each node among `children`, in a loop that does nothing else: the
/// reads do not depend on each other, so their cache misses overlap, and rowan's pass
/// that builds the parent (which reads each length with more work between) finds them
/// cached. A 10 MB file's body node of 31k items: a third of its building time.
fn warm(children: &[Child]) {
    let lengths = (children.iter())
        .map(|child| match child {
            Child::Node(node) => u32::from(node.text_len()),
            Child::Pooled(_) | Child::Token(_) => 0,
        })
        .fold(0u32, u32::wrapping_add);
    std::hint::black_box(lengths);
}

/// Whether two token texts are equal: short ones (most tokens: blanks, punctuation,
/// names) compared byte by byte inline rather than through a call to `memcmp`.
fn same_text(a: &str, b: &[u8]) -> bool {
    const SHORT: usize = 16;
    let a = a.as_bytes();
    a.len() == b.len()
        && if a.len() <= SHORT {
            a.iter().zip(b).all(|(x, y)| x == y)
        } else {
            a == b
        }
}

fn element_address(element: NodeOrToken<&GreenNodeData, &GreenTokenData>) -> usize {
    match element {
        NodeOrToken::Node(node) => std::ptr::from_ref(node) as usize,
        NodeOrToken::Token(token) => std::ptr::from_ref(token) as usize,
    }
}
