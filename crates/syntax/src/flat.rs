//! Flat syntax trees: a file's nodes and tokens in preorder in one array, built by the
//! parser's sink as it goes (`FlatBuilder`: pushing, no allocation or hashing per node),
//! and read where every node of every item is visited (lowering to HIR, item outlines)
//! through `NodeRef`, whose children are the next elements: no pointer chasing. A top-level
//! item is an `ItemSyntax` handle: its view of the file's tree and its rowan node, built on
//! first request, which the file's rowan root (built on first request too, `Parse::green`)
//! shares. Ranges of a walk are relative to where it started (`ItemSyntax::root`).

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use rowan::{GreenNode, GreenNodeData, GreenTokenData, NodeOrToken};

use crate::ast::{self, AstNode};
use crate::syntax_node::TreeBuilder;
use crate::{SyntaxKind, SyntaxNode, TextRange, TextSize};

/// One node or token of a flat tree: eight bytes (a 10 MB file makes six million; at
/// twelve, with the size as wide as the length, they were a third of a check's memory).
/// The trivia right before a node or token, when it is a one-byte newline, a blank (a
/// `WHITESPACE` token), or a newline and then a blank (a line's end and the next one's
/// indentation), of at most [`MAX_LEAD`] bytes in all, is no element of its own but that
/// one's lead ([`extend_lead`]): blanks and newlines were 35% of the elements, and no walk
/// over a flat tree looks at them; the rowan trees made from it have them back
/// (`FlatTree::feed`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Element {
    kind: SyntaxKind,
    /// [`NODE`] when it is a node, and its lead: [`NEWLINE_LEAD`] when it starts with a
    /// newline, and its length ([`LEAD_LEN`]).
    flags: u8,
    /// How many elements its subtree has, itself included (one for a token); [`BIG`]
    /// when that does not fit, and then it is in the tree's `big_sizes`.
    size: u16,
    /// The length of its text.
    len: u32,
}

const _: () = assert!(std::mem::size_of::<Element>() == 8);

/// The flag of an element that is a node.
const NODE: u8 = 0x80;

/// The flag of a lead that starts with a newline (`\n`).
const NEWLINE_LEAD: u8 = 0x40;

/// The bits of a lead that hold its length, newline included: reading it is one mask,
/// as every walk does at every element.
const LEAD_LEN: u8 = NEWLINE_LEAD - 1;

/// The longest lead; a longer blank is an element.
const MAX_LEAD: u32 = LEAD_LEN as u32;

/// The lead of a newline alone.
const NEWLINE_ALONE: u8 = NEWLINE_LEAD | 1;

/// The lead `lead` (none: 0) followed by a trivia token of `kind` and `len` bytes, when
/// one lead holds both: a newline comes first and alone, a blank after it or alone, at
/// most [`MAX_LEAD`] bytes in all. `None` when the token does not fit.
#[inline(always)]
pub(crate) fn extend_lead(lead: u8, kind: SyntaxKind, len: u32) -> Option<u8> {
    match kind {
        SyntaxKind::NEWLINE if len == 1 && lead == 0 => Some(NEWLINE_ALONE),
        SyntaxKind::WHITESPACE if lead == 0 || lead == NEWLINE_ALONE => {
            let total = u32::from(lead & LEAD_LEN) + len;
            (len > 0 && total <= MAX_LEAD).then_some((lead & NEWLINE_LEAD) | total as u8)
        }
        _ => None,
    }
}

/// The tokens a lead holds, in order: a newline and a blank, each of its kind and length
/// (`(kind, 0)` for one it lacks).
pub(crate) fn lead_tokens(lead: u8) -> [(SyntaxKind, u32); 2] {
    let newline = u32::from(lead & NEWLINE_LEAD != 0);
    [
        (SyntaxKind::NEWLINE, newline),
        (SyntaxKind::WHITESPACE, u32::from(lead & LEAD_LEN) - newline),
    ]
}

/// The lead a rowan token extends `lead` to ([`extend_lead`]).
fn extend_green_lead(lead: u8, token: &GreenTokenData) -> Option<u8> {
    let kind = SyntaxKind::from_raw(token.kind().0);
    extend_lead(lead, kind, token.text_len().into())
}

impl Element {
    fn node(kind: SyntaxKind, lead: u8) -> Element {
        Element {
            kind,
            flags: NODE | lead,
            size: 0,
            len: 0,
        }
    }

    fn token(kind: SyntaxKind, lead: u8, len: u32) -> Element {
        Element {
            kind,
            flags: lead,
            size: 1,
            len,
        }
    }

    #[inline]
    fn is_node(&self) -> bool {
        self.flags & NODE != 0
    }

    /// The length of the trivia before it (its lead), in its parent.
    #[inline]
    fn lead(&self) -> u32 {
        u32::from(self.flags & LEAD_LEN)
    }

    /// The element without the trivia before it: an item's root equals another whatever
    /// precedes it.
    fn without_lead(self) -> Element {
        Element {
            flags: self.flags & NODE,
            ..self
        }
    }
}

/// The size of a node with more elements than `Element::size` holds: a file's root and
/// body, a long list.
const BIG: u16 = u16::MAX;

/// A parsed text as a flat tree: its elements in preorder, the sizes too big for their
/// element (by index, ascending), and the text.
pub(crate) struct FlatTree {
    elements: Vec<Element>,
    big_sizes: Box<[(u32, u32)]>,
    text: Arc<String>,
}

/// Sets the size of `element`, the node at `index`: in the element when it fits.
#[inline]
fn set_size(element: &mut Element, big_sizes: &mut Vec<(u32, u32)>, index: usize, size: u32) {
    if size < u32::from(BIG) {
        element.size = size as u16;
    } else {
        set_big_size(element, big_sizes, index, size);
    }
}

#[cold]
fn set_big_size(element: &mut Element, big_sizes: &mut Vec<(u32, u32)>, index: usize, size: u32) {
    element.size = BIG;
    big_sizes.push((index as u32, size));
}

/// Open nodes (the file and its body) when a top-level item ends.
const ITEM_DEPTH: usize = 2;

/// About how many elements a byte of text makes, over: programs generated for benchmarks
/// make 0.47 (0.62 before blanks were leads), hand-written ones fewer (longer names).
/// Room for them all up front spares growing the array (copying it, and touching new
/// pages each time); room left over is address space, not memory, until it is written.
const ELEMENTS_PER_BYTE: (usize, usize) = (2, 3);

/// Builds a flat tree as the parser goes (through `syntax_node::Sink`, which adds the
/// trivia): a node's element is pushed when it starts and completed when it ends.
///
/// A node that encloses one already built (`a` in `a.b`, `a + b`: [`FlatBuilder::precede`])
/// would have to go before that one's elements; instead it waits aside, a [`Wrapper`],
/// until its top-level item is done, when all of the item's go in with one pass over what
/// follows the first ([`FlatBuilder::place_wrappers`]): inserting each at once would move
/// the elements after it every time, n² moves for a chain of n (`a.b.c…`, `1 + 1 + …`).
/// Until then, indices are those of the elements without the waiting wrappers, and each
/// node's size counts the wrappers made inside it.
pub(crate) struct FlatBuilder {
    elements: Vec<Element>,
    big_sizes: Vec<(u32, u32)>,
    open: Vec<Open>,
    /// The wrappers not yet placed, in the order they were made.
    wrappers: Vec<Wrapper>,
    /// How many wrappers were made, and how many of them are placed.
    wrappers_made: u32,
    wrappers_placed: u32,
    /// The buffer of `place_wrappers`, kept between items.
    order: Vec<u32>,
    /// How many `BODY` nodes the file has opened (the first is the file's body).
    bodies: u32,
    /// What the top-level item being built has shown so far.
    item_facts: ItemFacts,
    /// The file body's items: their index, start, and facts.
    items: Vec<(u32, u32, ItemFacts)>,
}

/// Where a node starts, as a marker of the parser keeps it to enclose the node later: its
/// element's index (without the wrappers waiting), where its text starts, and how many
/// wrappers were made before it.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct NodeStart {
    index: u32,
    start: u32,
    wraps: u32,
}

/// An open node: where it starts, the number of its [`Wrapper`] if it is one, and what
/// abandoning it empty restores: how many elements there were and the sink's position
/// before the trivia it took.
struct Open {
    node: NodeStart,
    wrapper: Option<u32>,
    before: (u32, u32),
}

/// A node that encloses one built before it, waiting to be placed before that one's
/// element (`at`); its kind, length and size are set when it ends.
#[derive(Clone, Copy)]
struct Wrapper {
    at: u32,
    kind: SyntaxKind,
    len: u32,
    size: u32,
}

/// What the builder notes of a top-level item as it goes, for the passes over every item
/// ([`ItemSyntax::may_invoke`], [`ItemSyntax::has_nested_blocks`]).
#[derive(Clone, Copy, Default)]
struct ItemFacts {
    may_invoke: bool,
    nested_blocks: bool,
}

impl FlatBuilder {
    /// A builder for a text of `text_len` bytes.
    pub(crate) fn for_text(text_len: usize) -> FlatBuilder {
        let (per, bytes) = ELEMENTS_PER_BYTE;
        FlatBuilder {
            elements: Vec::with_capacity(text_len / bytes * per + 16),
            big_sizes: Vec::new(),
            open: Vec::new(),
            wrappers: Vec::new(),
            wrappers_made: 0,
            wrappers_placed: 0,
            order: Vec::new(),
            bodies: 0,
            item_facts: ItemFacts::default(),
            items: Vec::new(),
        }
    }

    /// How many elements there are (without the wrappers waiting).
    #[inline(always)]
    pub(crate) fn len(&self) -> u32 {
        self.elements.len() as u32
    }

    /// How many nodes are open.
    #[inline(always)]
    pub(crate) fn depth(&self) -> usize {
        self.open.len()
    }

    /// A node starting at `at` in the text, after trivia of `lead` (its lead:
    /// [`Element`]); `before` is what abandoning it empty restores ([`Open`]). Its kind may
    /// be a placeholder until [`FlatBuilder::finish_node`] gives the real one.
    #[inline(always)]
    pub(crate) fn start_node(&mut self, kind: SyntaxKind, lead: u8, at: u32, before: (u32, u32)) {
        match self.open.len() {
            1 if kind == SyntaxKind::BODY => self.bodies += 1,
            ITEM_DEPTH => self.item_facts = ItemFacts::default(),
            _ => {}
        }
        let node = NodeStart {
            index: self.len(),
            start: at,
            wraps: self.wrappers_made,
        };
        self.open.push(Open {
            node,
            wrapper: None,
            before,
        });
        self.elements.push(Element::node(kind, lead));
    }

    /// A node that will enclose the finished node `node` and what follows it.
    pub(crate) fn precede(&mut self, node: NodeStart) {
        self.wrappers.push(Wrapper {
            at: node.index,
            kind: SyntaxKind::ERROR,
            len: 0,
            size: 0,
        });
        self.open.push(Open {
            node,
            wrapper: Some(self.wrappers_made),
            before: (0, 0),
        });
        self.wrappers_made += 1;
    }

    /// A token of `len` bytes after trivia of `lead` (its lead: [`Element`]); `names_invoke`
    /// when it is the identifier `invoke`.
    #[inline(always)]
    pub(crate) fn token(&mut self, kind: SyntaxKind, lead: u8, len: u32, names_invoke: bool) {
        self.item_facts.may_invoke |= names_invoke;
        self.elements.push(Element::token(kind, lead, len));
    }

    /// The last node open is a `kind` and ends at `at` in the text; where it starts, for
    /// a node to enclose it.
    // Always inlined (into the sink): a call per node costs a fifth of the node.
    #[inline(always)]
    pub(crate) fn finish_node(&mut self, kind: SyntaxKind, at: u32) -> NodeStart {
        let Some(open) = self.open.pop() else {
            return NodeStart::default();
        };
        let node = open.node;
        // The wrappers made inside it are waiting, unless placed since it started.
        let inner_wrappers = self.wrappers_made - node.wraps.max(self.wrappers_placed);
        let size = self.len() - node.index + inner_wrappers;
        let len = at - node.start;
        if let Some(number) = open.wrapper {
            self.wrappers[(number - self.wrappers_placed) as usize] = Wrapper {
                at: node.index,
                kind,
                len,
                size,
            };
            return node;
        }
        let element = &mut self.elements[node.index as usize];
        element.kind = kind;
        element.len = len;
        set_size(element, &mut self.big_sizes, node.index as usize, size);
        let depth = self.open.len();
        if depth > ITEM_DEPTH && kind == SyntaxKind::BLOCK {
            self.item_facts.nested_blocks = true;
        }
        if depth == ITEM_DEPTH
            && self.bodies == 1
            && matches!(kind, SyntaxKind::ATTRIBUTE | SyntaxKind::BLOCK)
            && self.elements[self.open[1].node.index as usize].kind == SyntaxKind::BODY
        {
            self.items.push((node.index, node.start, self.item_facts));
        }
        node
    }

    /// The last node open, not a wrapper, is abandoned: what it holds goes to its parent.
    /// Emptied, it gives the sink's position to go back to (the trivia it took is the next
    /// one's).
    pub(crate) fn abandon_node(&mut self) -> Option<u32> {
        let open = self.open.pop()?;
        debug_assert!(open.wrapper.is_none(), "a wrapper is never abandoned");
        let index = open.node.index;
        if index + 1 == self.len() {
            let (elements, raw_pos) = open.before;
            self.elements.truncate(elements as usize);
            return Some(raw_pos);
        }
        // Rare: its children move up one place, the first taking its lead.
        let lead = self.elements.remove(index as usize).flags & !NODE;
        self.elements[index as usize].flags |= lead;
        for wrapper in &mut self.wrappers {
            wrapper.at -= u32::from(wrapper.at > index);
        }
        for (at, _) in &mut self.big_sizes {
            *at -= u32::from(*at > index);
        }
        None
    }

    /// Puts the waiting wrappers in, each before the first element it encloses, the
    /// outermost first (the last made of those at one place) and taking the lead of the
    /// element it goes before: from the last place back, each run of elements moves once,
    /// by the number of wrappers before it. A top-level item is done: no node inside one
    /// is open.
    pub(crate) fn place_wrappers(&mut self) {
        if self.wrappers.is_empty() {
            return;
        }
        let wrappers = &self.wrappers;
        self.order.clear();
        self.order.extend(0..wrappers.len() as u32);
        (self.order).sort_unstable_by_key(|&i| (wrappers[i as usize].at, std::cmp::Reverse(i)));
        let at_of = |i: &u32| wrappers[*i as usize].at;
        // The big sizes of the nodes that move: their places once the wrappers are in.
        let first = at_of(&self.order[0]);
        for (at, _) in &mut self.big_sizes {
            if *at >= first {
                *at += self.order.partition_point(|i| at_of(i) <= *at) as u32;
            }
        }
        let mut end = self.elements.len();
        let filler = Element::token(SyntaxKind::ERROR, 0, 0);
        self.elements.resize(end + wrappers.len(), filler);
        let mut placed = wrappers.len();
        while placed > 0 {
            let at = at_of(&self.order[placed - 1]);
            let group = self.order[..placed].partition_point(|i| at_of(i) < at);
            let index = at as usize;
            self.elements.copy_within(index..end, index + placed);
            let element = &mut self.elements[index + placed];
            let lead = element.flags & !NODE;
            element.flags &= NODE;
            for (slot, i) in (index + group..).zip(&self.order[group..placed]) {
                let wrapper = wrappers[*i as usize];
                let lead = if slot == index + group { lead } else { 0 };
                let mut node = Element::node(wrapper.kind, lead);
                node.len = wrapper.len;
                set_size(&mut node, &mut self.big_sizes, slot, wrapper.size);
                self.elements[slot] = node;
            }
            end = index;
            placed = group;
        }
        self.wrappers_placed = self.wrappers_made;
        self.wrappers.clear();
    }

    /// The tree of `text` (the text the tokens were of) and its file body's items.
    pub(crate) fn finish(mut self, text: Arc<String>) -> (Arc<FlatTree>, Box<[ItemSyntax]>) {
        self.place_wrappers();
        let mut big_sizes = self.big_sizes;
        // Nodes finish after the nodes inside them.
        big_sizes.sort_unstable();
        let tree = Arc::new(FlatTree {
            elements: self.elements,
            big_sizes: big_sizes.into_boxed_slice(),
            text,
        });
        let items = (self.items.into_iter())
            .map(|(index, start, facts)| {
                ItemSyntax(Arc::new(ItemData {
                    tree: tree.clone(),
                    index,
                    start,
                    facts,
                    green: OnceLock::new(),
                }))
            })
            .collect();
        (tree, items)
    }
}

/// What building a rowan tree from a flat one does at a node.
enum AtNode<'i> {
    /// Build it from its elements, and keep it in the handle when there is one.
    Build(Option<&'i ItemSyntax>),
    /// Take this node, built before.
    Built(GreenNode),
}

impl FlatTree {
    /// The size of the subtree of `element`, the element at `index`.
    #[inline]
    fn size(&self, index: usize, element: &Element) -> usize {
        match element.size {
            BIG => self.big_size(index),
            size => size as usize,
        }
    }

    /// The index after the last element of the subtree at `index`.
    #[inline]
    fn end_of(&self, index: usize) -> usize {
        index + self.size(index, &self.elements[index])
    }

    #[cold]
    fn big_size(&self, index: usize) -> usize {
        let found = (self.big_sizes).binary_search_by_key(&(index as u32), |&(at, _)| at);
        found.map_or(1, |at| self.big_sizes[at].1 as usize)
    }

    /// The sizes too big for their elements among the elements from `first` to `end`.
    fn big_sizes_in(&self, first: usize, end: usize) -> &[(u32, u32)] {
        let from = self
            .big_sizes
            .partition_point(|&(at, _)| (at as usize) < first);
        let to = self
            .big_sizes
            .partition_point(|&(at, _)| (at as usize) < end);
        &self.big_sizes[from..to]
    }

    /// The text's length.
    pub(crate) fn text_len(&self) -> TextSize {
        TextSize::from(self.text.len() as u32)
    }

    /// The rowan tree of the whole text, each of `items` (the file body's, in order) taken
    /// from its handle, or built here and kept in it.
    pub(crate) fn green(&self, items: &[ItemSyntax]) -> GreenNode {
        let mut builder = TreeBuilder::default();
        let mut items = items.iter().peekable();
        self.feed(0, 0, &mut builder, &mut |at| match items
            .next_if(|item| item.0.index as usize == at)
        {
            Some(item) => match item.0.green.get() {
                Some(green) => AtNode::Built(green.clone()),
                None => AtNode::Build(Some(item)),
            },
            None => AtNode::Build(None),
        });
        builder.finish()
    }

    /// The rowan node of the subtree at `index`, whose text starts at `offset`.
    fn subtree_green(&self, index: usize, offset: usize) -> GreenNode {
        let mut builder = TreeBuilder::default();
        self.feed(index, offset, &mut builder, &mut |_| AtNode::Build(None));
        builder.finish()
    }

    /// Feed the subtree at `first`, whose text starts at `offset`, to `builder`; `at_node`
    /// says what to do at each node.
    fn feed<'i>(
        &self,
        first: usize,
        mut offset: usize,
        builder: &mut TreeBuilder,
        at_node: &mut dyn FnMut(usize) -> AtNode<'i>,
    ) {
        let end = first + self.elements.get(first).map_or(0, |e| self.size(first, e));
        // The open nodes: where each ends, and the handle to keep it in.
        let mut open: Vec<(usize, Option<&'i ItemSyntax>)> = Vec::new();
        let mut at = first;
        while at < end {
            while let Some(&(node_end, keep)) = open.last()
                && node_end == at
            {
                open.pop();
                builder.finish_node();
                if let Some(item) = keep {
                    builder.keep_last_node_in(&item.0.green);
                }
            }
            let element = self.elements[at];
            // The trivia before the subtree's root is its parent's.
            if at > first {
                for (kind, len) in lead_tokens(element.flags & !NODE) {
                    if len > 0 {
                        let text = &self.text[offset..offset + len as usize];
                        builder.token(rowan::SyntaxKind(kind as u16), text.as_bytes(), || text);
                        offset += text.len();
                    }
                }
            }
            if !element.is_node() {
                let text = &self.text[offset..offset + element.len as usize];
                let kind = rowan::SyntaxKind(element.kind as u16);
                builder.token(kind, text.as_bytes(), || text);
                offset += element.len as usize;
                at += 1;
                continue;
            }
            match at_node(at) {
                AtNode::Built(green) => {
                    builder.node(green);
                    offset += element.len as usize;
                    at += self.size(at, &element);
                }
                AtNode::Build(keep) => {
                    builder.start_node(rowan::SyntaxKind(element.kind as u16));
                    open.push((at + self.size(at, &element), keep));
                    at += 1;
                }
            }
        }
        while let Some((_, keep)) = open.pop() {
            builder.finish_node();
            if let Some(item) = keep {
                builder.keep_last_node_in(&item.0.green);
            }
        }
    }
}

/// A top-level item's syntax: a view of its file's flat tree, and its rowan node, built on
/// first request. Clones share both: two handles of one item are the same object.
#[derive(Clone)]
pub struct ItemSyntax(Arc<ItemData>);

struct ItemData {
    tree: Arc<FlatTree>,
    index: u32,
    start: u32,
    facts: ItemFacts,
    green: OnceLock<GreenNode>,
}

impl ItemSyntax {
    /// The item's node, as the root of a walk (its offsets relative to the item).
    pub fn root(&self) -> NodeRef<'_> {
        NodeRef {
            tree: &self.0.tree,
            index: self.0.index,
            start: TextSize::from(0),
            base: self.0.start,
        }
    }

    /// The item's rowan node.
    pub fn green(&self) -> &GreenNode {
        (self.0.green).get_or_init(|| {
            (self.0.tree).subtree_green(self.0.index as usize, self.0.start as usize)
        })
    }

    pub fn kind(&self) -> SyntaxKind {
        self.element().kind
    }

    pub fn text_len(&self) -> TextSize {
        TextSize::from(self.element().len)
    }

    /// Whether the item has an identifier `invoke`: the item outline looks for the
    /// packages of `invoke` calls only in those that do.
    pub fn may_invoke(&self) -> bool {
        self.0.facts.may_invoke
    }

    /// Read the first elements of each of `items` and the start of its text, in a loop
    /// that does nothing else: the reads do not depend on each other, so their cache
    /// misses overlap, and what then outlines the items one by one (long after a large
    /// file's parse wrote them) finds the labels cached.
    pub fn warm(items: &[&ItemSyntax]) {
        // Two cache lines of elements and two of text: a block's type and labels.
        const LINE: usize = 64;
        const ELEMENTS_PER_LINE: usize = LINE / std::mem::size_of::<Element>();
        let touched = (items.iter())
            .map(|item| {
                let (tree, index, start) = (&item.0.tree, item.0.index as usize, item.0.start);
                let element = |at: usize| tree.elements.get(at).map_or(0, |e| e.len);
                let byte = |at: usize| tree.text.as_bytes().get(at).copied().unwrap_or(0);
                let text = start as usize;
                element(index)
                    ^ element(index + ELEMENTS_PER_LINE)
                    ^ u32::from(byte(text))
                    ^ u32::from(byte(text + LINE))
            })
            .fold(0u32, |all, touched| all ^ touched);
        std::hint::black_box(touched);
    }

    /// Whether the item has a block inside it: the item outline looks for an `options`
    /// block only in those that do (a walk over a block's children, each a cache miss in a
    /// large file).
    pub fn has_nested_blocks(&self) -> bool {
        self.0.facts.nested_blocks
    }

    /// The handle of `green`, an item's rowan node (its view made from it, newlines and
    /// blanks taken as leads as the builder takes them).
    pub fn from_green(green: &GreenNodeData, may_invoke: bool) -> ItemSyntax {
        /// What is left to visit: a node or token with its lead, or the end of the node at
        /// an index.
        enum Visit<'g> {
            Node(&'g GreenNodeData, Lead<'g>),
            Token(&'g GreenTokenData, Lead<'g>),
            End(usize),
        }
        /// A lead ([`extend_lead`]) and the tokens it holds, in order.
        #[derive(Clone, Copy, Default)]
        struct Lead<'g> {
            flags: u8,
            tokens: [Option<&'g GreenTokenData>; 2],
        }
        impl<'g> Lead<'g> {
            /// Its tokens, each as an element of its own (no lead).
            fn alone(self) -> impl Iterator<Item = Visit<'g>> {
                (self.tokens.into_iter().flatten()).map(|t| Visit::Token(t, Lead::default()))
            }
            fn text(self, text: &mut String) {
                for token in self.tokens.into_iter().flatten() {
                    text.push_str(token.text());
                }
            }
        }
        let mut elements = Vec::new();
        let mut big_sizes = Vec::new();
        let mut text = String::new();
        let mut nested_blocks = false;
        let mut stack = vec![Visit::Node(green, Lead::default())];
        let mut children = Vec::new();
        while let Some(visit) = stack.pop() {
            match visit {
                Visit::Node(node, lead) => {
                    lead.text(&mut text);
                    let index = elements.len();
                    let kind = SyntaxKind::from_raw(node.kind().0);
                    nested_blocks |= index > 0 && kind == SyntaxKind::BLOCK;
                    let mut element = Element::node(kind, lead.flags);
                    element.len = u32::from(node.text_len());
                    elements.push(element);
                    // Its size once its subtree is in: a marker after its children.
                    stack.push(Visit::End(index));
                    // The sink's rule (`Sink::eat_trivia`): trivia that one lead holds
                    // waits for the next child; what it cannot take makes what waits
                    // elements of their own.
                    let mut waiting = Lead::default();
                    for child in node.children() {
                        if let NodeOrToken::Token(token) = child {
                            if let Some(flags) = extend_green_lead(waiting.flags, token) {
                                let slot = usize::from(waiting.tokens[0].is_some());
                                waiting.tokens[slot] = Some(token);
                                waiting.flags = flags;
                                continue;
                            }
                            if let Some(flags) = extend_green_lead(0, token) {
                                children.extend(waiting.alone());
                                waiting = Lead {
                                    flags,
                                    tokens: [Some(token), None],
                                };
                                continue;
                            }
                        }
                        let lead = std::mem::take(&mut waiting);
                        children.push(match child {
                            NodeOrToken::Token(token) => Visit::Token(token, lead),
                            NodeOrToken::Node(node) => Visit::Node(node, lead),
                        });
                    }
                    children.extend(waiting.alone());
                    stack.extend(children.drain(..).rev());
                }
                Visit::Token(token, lead) => {
                    lead.text(&mut text);
                    let (kind, len) = (SyntaxKind::from_raw(token.kind().0), token.text_len());
                    elements.push(Element::token(kind, lead.flags, u32::from(len)));
                    text.push_str(token.text());
                }
                Visit::End(index) => {
                    let size = (elements.len() - index) as u32;
                    set_size(&mut elements[index], &mut big_sizes, index, size);
                }
            }
        }
        big_sizes.sort_unstable();
        let tree = Arc::new(FlatTree {
            elements,
            big_sizes: big_sizes.into_boxed_slice(),
            text: Arc::new(text),
        });
        ItemSyntax(Arc::new(ItemData {
            tree,
            index: 0,
            start: 0,
            facts: ItemFacts {
                may_invoke,
                nested_blocks,
            },
            green: OnceLock::from(green.to_owned()),
        }))
    }

    /// Whether two handles are one (not only equal).
    pub fn is(&self, other: &ItemSyntax) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Where the item starts in the text it was parsed from.
    pub(crate) fn start(&self) -> TextSize {
        TextSize::from(self.0.start)
    }

    fn element(&self) -> Element {
        self.0.tree.elements[self.0.index as usize]
    }

    /// Its elements, and the sizes too big for them.
    fn elements(&self) -> (&[Element], &[(u32, u32)]) {
        let (tree, index) = (&self.0.tree, self.0.index as usize);
        let end = tree.end_of(index);
        (&tree.elements[index..end], tree.big_sizes_in(index, end))
    }

    fn text(&self) -> &str {
        let start = self.0.start as usize;
        &self.0.tree.text[start..start + self.element().len as usize]
    }
}

impl PartialEq for ItemSyntax {
    fn eq(&self, other: &ItemSyntax) -> bool {
        if self.is(other) {
            return true;
        }
        let ((elements, big), (other_elements, other_big)) = (self.elements(), other.elements());
        // Equal elements put the big sizes at the same places: only their values differ.
        // The blank before the item is the file body's.
        let root = |elements: &[Element]| elements.first().map(|root| root.without_lead());
        root(elements) == root(other_elements)
            && elements.get(1..) == other_elements.get(1..)
            && big
                .iter()
                .map(|(_, size)| size)
                .eq(other_big.iter().map(|(_, size)| size))
            && self.text() == other.text()
    }
}

impl Eq for ItemSyntax {}

impl std::fmt::Debug for ItemSyntax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ItemSyntax({:?}@{}..{})",
            self.kind(),
            self.0.start,
            self.0.start + self.element().len
        )
    }
}

/// A node of a flat tree and where it starts, relative to the start of the walk (`base`
/// in the text).
#[derive(Clone, Copy, Debug)]
pub struct NodeRef<'a> {
    tree: &'a FlatTree,
    index: u32,
    start: TextSize,
    base: u32,
}

/// A token of a flat tree and where it starts (as [`NodeRef`]).
#[derive(Clone, Copy, Debug)]
pub struct TokenRef<'a> {
    tree: &'a FlatTree,
    index: u32,
    start: TextSize,
    base: u32,
}

impl std::fmt::Debug for FlatTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FlatTree({} elements)", self.elements.len())
    }
}

pub type ElementRef<'a> = NodeOrToken<NodeRef<'a>, TokenRef<'a>>;

/// The children of a node, in order.
#[derive(Clone)]
struct Children<'a> {
    tree: &'a FlatTree,
    next: usize,
    end: usize,
    offset: TextSize,
    base: u32,
}

impl<'a> Iterator for Children<'a> {
    type Item = ElementRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<ElementRef<'a>> {
        if self.next >= self.end {
            return None;
        }
        let element = self.tree.elements[self.next];
        let start = self.offset + TextSize::from(element.lead());
        let index = self.next as u32;
        self.next += self.tree.size(self.next, &element);
        self.offset = start + TextSize::from(element.len);
        let (tree, base) = (self.tree, self.base);
        Some(match element.is_node() {
            true => NodeOrToken::Node(NodeRef {
                tree,
                index,
                start,
                base,
            }),
            false => NodeOrToken::Token(TokenRef {
                tree,
                index,
                start,
                base,
            }),
        })
    }
}

impl<'a> NodeRef<'a> {
    fn element(self) -> Element {
        self.tree.elements[self.index as usize]
    }

    /// The index after its subtree's last element.
    #[inline]
    fn end(self) -> usize {
        self.tree.end_of(self.index as usize)
    }

    pub fn kind(self) -> SyntaxKind {
        self.element().kind
    }

    pub fn text_range(self) -> TextRange {
        TextRange::at(self.start, TextSize::from(self.element().len))
    }

    /// A syntax tree of this node alone (ranges relative to its start), for the typed AST's
    /// accessors where a pass needs one.
    pub fn to_syntax_node(self) -> SyntaxNode {
        let offset = (self.base + u32::from(self.start)) as usize;
        SyntaxNode::new_root(self.tree.subtree_green(self.index as usize, offset))
    }

    /// The children, nodes and tokens, in order: the newlines and blanks a child takes as
    /// its lead ([`extend_lead`]) are not among them.
    pub fn children_with_tokens(self) -> impl Iterator<Item = ElementRef<'a>> + Clone {
        let first = self.index as usize + 1;
        Children {
            tree: self.tree,
            next: first,
            end: self.end(),
            offset: self.start,
            base: self.base,
        }
    }

    /// The child nodes, in order.
    pub fn children(self) -> impl Iterator<Item = NodeRef<'a>> {
        self.children_with_tokens()
            .filter_map(NodeOrToken::into_node)
    }

    /// Call `found` with each node of `kind` in this subtree (this node included), in
    /// preorder, each placed as a root (its offsets relative to itself).
    pub fn for_each_of_kind(self, kind: SyntaxKind, mut found: impl FnMut(NodeRef<'a>)) {
        let (first, end) = (self.index as usize, self.end());
        let mut offset = self.base + u32::from(self.start);
        for (index, element) in self.tree.elements[first..end].iter().enumerate() {
            // The blank before this node is its parent's.
            if index > 0 {
                offset += element.lead();
            }
            if element.is_node() && element.kind == kind {
                found(NodeRef {
                    tree: self.tree,
                    index: (first + index) as u32,
                    start: TextSize::from(0),
                    base: offset,
                });
            }
            // A node's first child starts where it does; a token ends where the next starts.
            if !element.is_node() {
                offset += element.len;
            }
        }
    }

    /// The child tokens, in order.
    pub fn tokens(self) -> impl Iterator<Item = TokenRef<'a>> {
        self.children_with_tokens()
            .filter_map(NodeOrToken::into_token)
    }

    /// The child nodes whose kind `wanted` accepts, in order.
    pub fn children_where(
        self,
        wanted: impl Fn(SyntaxKind) -> bool,
    ) -> impl Iterator<Item = NodeRef<'a>> {
        self.children().filter(move |child| wanted(child.kind()))
    }

    /// The first child node of `kind`.
    #[inline]
    pub fn child(self, kind: SyntaxKind) -> Option<NodeRef<'a>> {
        let (index, start) = self.first_child(|e| e.is_node() && e.kind == kind)?;
        Some(NodeRef {
            index,
            start,
            ..self
        })
    }

    /// The first child token whose kind is in `kinds`.
    #[inline]
    pub fn token(self, kinds: &[SyntaxKind]) -> Option<TokenRef<'a>> {
        let (index, start) = self.first_child(|e| !e.is_node() && kinds.contains(&e.kind))?;
        let (tree, base) = (self.tree, self.base);
        Some(TokenRef {
            tree,
            index,
            start,
            base,
        })
    }

    /// The index and start of the first child that `wanted` picks: a walk over the
    /// elements alone, for the lookups lowering makes at every node (`child`, `token`,
    /// `first_expr`), which the iterators of children cost several times over.
    // Inlined into each lookup, and those into their callers (as they were before an
    // element's size could be too big for it, which made them calls in the dist build).
    #[inline(always)]
    fn first_child(self, wanted: impl Fn(&Element) -> bool) -> Option<(u32, TextSize)> {
        let elements = &self.tree.elements;
        let end = self.end();
        let (mut next, mut offset) = (self.index as usize + 1, self.start);
        while next < end {
            let element = &elements[next];
            offset += TextSize::from(element.lead());
            if wanted(element) {
                return Some((next as u32, offset));
            }
            next += self.tree.size(next, element);
            offset += TextSize::from(element.len);
        }
        None
    }

    /// The child nodes that are expressions, in order: what the typed AST's accessors pick
    /// from (the first for a value or an operand, the second for an index key or a right
    /// operand).
    pub fn exprs(self) -> impl Iterator<Item = NodeRef<'a>> {
        self.children_where(<ast::Expr as AstNode>::can_cast)
    }

    #[inline]
    pub fn first_expr(self) -> Option<NodeRef<'a>> {
        let (index, start) = self.first_child(|e| e.is_node() && ast::Expr::can_cast(e.kind))?;
        Some(NodeRef {
            index,
            start,
            ..self
        })
    }

    /// The parts of a template node (quoted, heredoc or a directive branch), in order: its
    /// literal chunks, interpolations and directives (`ast::TemplatePart`).
    pub fn template_parts(self) -> impl Iterator<Item = ElementRef<'a>> + Clone {
        self.children_with_tokens().filter(is_template_part)
    }

    /// A quoted template's decoded text when it is literal text alone
    /// (`TemplateExpr::literal_value`): borrowed from the tree when it is one chunk with
    /// nothing to decode (most labels and type tokens), so reading it allocates nothing.
    pub fn template_literal(self) -> Option<Cow<'a, str>> {
        let mut res: Option<Cow<'a, str>> = None;
        for part in self.children_with_tokens() {
            if !is_template_part(&part) {
                continue;
            }
            let chunk = ast::unescape_quoted(part.into_token()?.text());
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

    /// Whether a call's function name is `name` ([`NodeRef::call_name`] without
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
    /// A type token written without quotes (a syntax error) reads as its tokens' text.
    pub fn label_value(self) -> Option<Cow<'a, str>> {
        if let Some(ident) = self.token(&[SyntaxKind::IDENT]) {
            // The label and its identifier, and nothing else: the usual case.
            if self.end() - self.index as usize == 2 {
                return Some(Cow::Borrowed(ident.text()));
            }
            return Some(Cow::Owned(self.tokens().map(TokenRef::text).collect()));
        }
        self.child(SyntaxKind::TEMPLATE_EXPR)?.template_literal()
    }
}

/// Whether a child of a template is one of its parts (`NodeRef::template_parts`).
fn is_template_part(part: &ElementRef<'_>) -> bool {
    match part {
        NodeOrToken::Token(token) => token.kind() == SyntaxKind::TEMPLATE_CHUNK,
        NodeOrToken::Node(node) => matches!(
            node.kind(),
            SyntaxKind::TEMPLATE_INTERP | SyntaxKind::TEMPLATE_IF | SyntaxKind::TEMPLATE_FOR
        ),
    }
}

impl<'a> TokenRef<'a> {
    fn element(self) -> Element {
        self.tree.elements[self.index as usize]
    }

    pub fn kind(self) -> SyntaxKind {
        self.element().kind
    }

    pub fn text(self) -> &'a str {
        let start = (self.base + u32::from(self.start)) as usize;
        &self.tree.text[start..start + self.element().len as usize]
    }

    pub fn text_range(self) -> TextRange {
        TextRange::at(self.start, TextSize::from(self.element().len))
    }

    /// The source text from the end of this token to the start of `later`, a token after
    /// it in the same tree: the blanks, newlines and comments between them.
    pub fn text_until(self, later: TokenRef<'a>) -> &'a str {
        let start = (self.base + u32::from(self.text_range().end())) as usize;
        let end = (later.base + u32::from(later.start)) as usize;
        self.tree.text.get(start..end).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use rowan::GreenNodeData;

    use super::{ItemSyntax, NodeRef};
    use crate::ast::{AstNode, BlockLabel, CallExpr, TemplateExpr};
    use crate::{SyntaxKind, TextRange};

    const TEXT: &str = concat!(
        "resource r \"pkg:index:Type\" {\n  a = ns::invoke(1)\n  options { range = 2 }\n}\n",
        "resource \"s\" \"a\\\"b\" {}\n",
        "output o \"\" {}\n",
        "b = invoke(\"x\")\n",
        "c = invoked(2)\n",
        "d = \"x$${y}%%{z}\\n\"\n",
        "e = \"x${y}\"\n",
        "f = \"plain\" # comment\n",
    );

    /// Every node of the items' flat trees, with ranges in the file.
    fn nodes(items: &[ItemSyntax]) -> Vec<(NodeRef<'_>, TextRange)> {
        let mut res = Vec::new();
        for item in items {
            let mut stack = vec![item.root()];
            while let Some(node) = stack.pop() {
                res.push((node, node.text_range() + item.start()));
                stack.extend(node.children());
            }
        }
        res.sort_by_key(|(_, range)| range.start());
        res
    }

    /// Calls found in the flat tree are named as the typed AST names them, with their
    /// ranges in the file.
    #[test]
    fn call_names_and_ranges_match_the_syntax_tree() {
        let parse = crate::parse(TEXT);
        let items = parse.item_syntaxes();
        let calls: Vec<_> = (nodes(&items).into_iter())
            .filter(|(node, _)| node.kind() == SyntaxKind::CALL_EXPR)
            .map(|(node, range)| (node.call_name(), node.call_name_is("invoke"), range))
            .collect();
        let expected: Vec<_> = (parse.syntax_node().descendants())
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

    /// Literal templates and block labels read from the flat tree decode as the typed AST
    /// decodes them, borrowed from the tree when there is nothing to decode.
    #[test]
    fn literal_templates_and_labels_match_the_syntax_tree() {
        let parse = crate::parse(TEXT);
        let items = parse.item_syntaxes();
        let nodes = nodes(&items);
        let found = |kind: SyntaxKind, value: &dyn Fn(NodeRef<'_>) -> Option<Cow<'_, str>>| {
            (nodes.iter())
                .filter(|(node, _)| node.kind() == kind)
                .map(|(node, range)| (*range, value(*node)))
                .collect::<Vec<_>>()
        };
        let templates = found(SyntaxKind::TEMPLATE_EXPR, &|node| node.template_literal());
        let labels = found(SyntaxKind::BLOCK_LABEL, &|node| node.label_value());
        let root = parse.syntax_node();
        let expected_templates: Vec<_> = (root.descendants())
            .filter_map(TemplateExpr::cast)
            .map(|t| (t.syntax().text_range(), t.literal_value()))
            .collect();
        let expected_labels: Vec<_> = (root.descendants())
            .filter_map(BlockLabel::cast)
            .map(|l| (l.syntax().text_range(), l.value()))
            .collect();
        let owned = |found: &[(TextRange, Option<Cow<'_, str>>)]| -> Vec<_> {
            (found.iter())
                .map(|(range, value)| (*range, value.as_ref().map(|v| v.to_string())))
                .collect()
        };
        assert_eq!(owned(&templates), expected_templates);
        assert_eq!(owned(&labels), expected_labels);
        assert_eq!(templates.len(), 8, "{templates:?}");
        // Plain text is borrowed; text with escapes is decoded into a string of its own.
        let borrowed = (templates.iter().chain(&labels))
            .filter(|(_, value)| matches!(value, Some(Cow::Borrowed(_))))
            .count();
        assert_eq!(borrowed, 8, "{templates:?} {labels:?}");
    }

    /// The rowan root built from the flat tree shares each item's node with its handle
    /// (what matching items by identity after a reparse relies on), a handle made from a
    /// node equals the flat one, and the items start where the root's do.
    #[test]
    fn the_rowan_root_shares_the_items_nodes() {
        let parse = crate::parse(TEXT);
        let items = parse.item_syntaxes().into_owned();
        assert_eq!(items.len(), 8);
        // One item's node first, alone: the root takes that one.
        let early: *const GreenNodeData = &**items[3].green();
        let nodes: Vec<&GreenNodeData> = parse.top_level_item_nodes().collect();
        assert!(std::ptr::eq(nodes[3], early));
        for (item, node) in items.iter().zip(&nodes) {
            assert!(std::ptr::eq(&**item.green(), *node));
            assert_eq!(parse.item_may_invoke(node), item.may_invoke());
            let again = ItemSyntax::from_green(node, item.may_invoke());
            assert_eq!(&again, item);
            assert_eq!(again.has_nested_blocks(), item.has_nested_blocks());
            assert!(!again.is(item));
        }
        let starts: Vec<_> = (parse.top_level_items().into_iter())
            .map(|(_, at)| at)
            .collect();
        assert_eq!(parse.item_starts(), starts);
        assert_eq!(
            (items.iter()).filter(|item| item.may_invoke()).count(),
            2,
            "the items naming `invoke`"
        );
        let nested: Vec<_> = (items.iter()).map(ItemSyntax::has_nested_blocks).collect();
        assert_eq!(
            nested,
            [true, false, false, false, false, false, false, false]
        );
    }

    /// Nodes of more elements than an element's size holds (a list of 30,000 numbers: its
    /// tuple, the item and the file) are walked, built and compared as the others: their
    /// sizes live beside the elements.
    #[test]
    fn nodes_too_big_for_their_element_keep_their_size() {
        let list = |n: usize, last: &str| format!("[{}{last}]", "1, ".repeat(n));
        let text = format!("a = {}\nb = 2\n", list(30_000, "1"));
        let parse = crate::parse(&text);
        assert!(parse.errors().is_empty());
        let items = parse.item_syntaxes().into_owned();
        assert_eq!(items.len(), 2);
        let tuple = items[0].root().first_expr().expect("the list");
        assert_eq!(tuple.kind(), SyntaxKind::TUPLE_EXPR);
        assert_eq!(tuple.exprs().count(), 30_001);
        assert!(
            tuple.tree.big_sizes.len() >= 3,
            "{:?}",
            tuple.tree.big_sizes
        );
        // Walking past the list reaches what follows it.
        assert_eq!(
            items[1].root().first_expr().map(|e| e.kind()),
            Some(SyntaxKind::LITERAL_EXPR)
        );
        let root = parse.syntax_node();
        let in_file = (root.descendants()).find(|n| n.kind() == SyntaxKind::TUPLE_EXPR);
        assert_eq!(
            Some(tuple.to_syntax_node().green()),
            in_file.as_ref().map(|n| n.green())
        );
        let again = ItemSyntax::from_green(items[0].green(), false);
        assert_eq!(again, items[0]);
        let shorter = crate::parse(&format!("a = {}\n", list(29_999, "1")));
        assert_ne!(shorter.item_syntaxes()[0], items[0]);
    }

    /// Nodes that enclose nodes built before them (`a.b`, `a + b`) go in when their item
    /// is done: through a chain of a thousand, and around a node too big for its element,
    /// every node's children add up to its size and its text, the chains nest as parsed,
    /// and what follows is where it was.
    #[test]
    fn enclosing_nodes_go_before_what_they_enclose() {
        let chain = format!("x.y{}", " + 1".repeat(1000));
        let list = format!("[{}1]", "1, ".repeat(40_000));
        let text = format!("a = {chain}\nb = {list}[0] == {list}.z ? c : d\ne = 2\n");
        let parse = crate::parse(&text);
        assert!(parse.errors().is_empty(), "{:?}", parse.errors());
        let items = parse.item_syntaxes().into_owned();
        assert_eq!(items.len(), 3);
        let tree = &items[0].0.tree;
        assert_eq!(tree.elements[0].len as usize, text.len());
        for (index, element) in tree.elements.iter().enumerate() {
            if !element.is_node() {
                continue;
            }
            let end = index + tree.size(index, element);
            let (mut child, mut len) = (index + 1, 0);
            while child < end {
                let inner = &tree.elements[child];
                len += inner.lead() + inner.len;
                child += tree.size(child, inner);
            }
            assert_eq!(
                (child, len),
                (end, element.len),
                "{:?} at {index}",
                element.kind
            );
        }
        fn first(node: NodeRef<'_>) -> NodeRef<'_> {
            node.children().next().expect("a first child")
        }
        let mut node = items[0].root().first_expr().expect("the chain");
        for _ in 0..1000 {
            assert_eq!(node.kind(), SyntaxKind::BINARY_EXPR);
            node = first(node);
        }
        assert_eq!(node.kind(), SyntaxKind::GET_ATTR_EXPR);
        let conditional = items[1].root().first_expr().expect("the conditional");
        let kinds = |node: NodeRef<'_>| node.children().map(|n| n.kind()).collect::<Vec<_>>();
        assert_eq!(conditional.kind(), SyntaxKind::CONDITIONAL_EXPR);
        let comparison = first(conditional);
        let operands = [SyntaxKind::INDEX_EXPR, SyntaxKind::GET_ATTR_EXPR];
        assert_eq!(kinds(comparison), operands);
        assert_eq!(first(first(comparison)).exprs().count(), 40_001);
        let big: Vec<SyntaxKind> = (tree.big_sizes.iter())
            .map(|&(index, _)| tree.elements[index as usize].kind)
            .collect();
        for kind in [SyntaxKind::CONDITIONAL_EXPR, SyntaxKind::BINARY_EXPR] {
            assert!(big.contains(&kind), "{big:?}");
        }
        assert_eq!(
            items[2].root().first_expr().map(|e| e.kind()),
            Some(SyntaxKind::LITERAL_EXPR)
        );
        assert_eq!(parse.syntax_node().to_string(), text);
        assert_eq!(crate::parse_in_windows(&text, 64, 128), Some(parse));
    }

    /// A node's syntax tree alone is the typed AST's node of the same place.
    #[test]
    fn a_nodes_syntax_tree_is_its_subtree() {
        let parse = crate::parse(TEXT);
        let items = parse.item_syntaxes();
        let root = parse.syntax_node();
        for (node, range) in nodes(&items) {
            let alone = node.to_syntax_node();
            let in_file =
                (root.descendants()).find(|n| n.text_range() == range && n.kind() == node.kind());
            let in_file = in_file.expect("the node is in the file's tree");
            assert_eq!(alone.green(), in_file.green());
        }
    }

    /// A newline and a blank of at most `MAX_LEAD` bytes in all are the next element's
    /// lead, not elements: the text stays whole, every node and token of a walk keeps its
    /// range, a subtree's syntax tree is the file's, a handle made from a node equals the
    /// flat one, and an item equals itself whatever trivia is before it.
    #[test]
    fn blanks_and_newlines_lead_the_next_element_and_every_range_stays() {
        let long = " ".repeat(super::MAX_LEAD as usize + 1);
        let text = format!(
            "  a = 1\n\nresource r \"t\" {{\r\n\t b ={long}[1,  2 ]   # note\n  c = {{ x  =  \"y\" }}  \n}}\n  "
        );
        let parse = crate::parse(&text);
        assert_eq!(parse.syntax_node().to_string(), text);
        let items = parse.item_syntaxes().into_owned();
        assert_eq!(items.len(), 2);
        // Elements: the first newline of a blank line, a `\r\n`, the long blank, a blank
        // before a newline, and the newline and blank ending the file (after the last item).
        let tree = &items[0].0.tree;
        let trivia: Vec<(SyntaxKind, u32)> = (tree.elements.iter())
            .filter(|e| e.kind.is_trivia() && e.kind != SyntaxKind::COMMENT)
            .map(|e| (e.kind, e.len))
            .collect();
        let (newline, blank) = (SyntaxKind::NEWLINE, SyntaxKind::WHITESPACE);
        let long = super::MAX_LEAD + 1;
        let expected = [
            (newline, 1),
            (newline, 2),
            (blank, long),
            (blank, 2),
            (newline, 1),
            (blank, 2),
        ];
        assert_eq!(trivia, expected);
        let root = parse.syntax_node();
        let key = |kind: SyntaxKind, range: TextRange| (range.start(), range.end(), kind);
        let mut flat: Vec<_> = (nodes(&items).into_iter())
            .map(|(node, range)| key(node.kind(), range))
            .collect();
        let mut expected: Vec<_> = (root.descendants())
            .filter(|n| (n.ancestors()).any(|a| crate::is_top_level_item(a.green().as_ref())))
            .map(|n| key(n.kind(), n.text_range()))
            .collect();
        flat.sort();
        expected.sort();
        assert_eq!(flat, expected);
        for (node, range) in nodes(&items) {
            for token in node.tokens() {
                let at = token.text_range() + (range.start() - node.text_range().start());
                assert_eq!(token.text(), &text[at], "{:?}", token.kind());
            }
            let in_file = (root.descendants())
                .find(|n| n.text_range() == range && n.kind() == node.kind())
                .expect("the node is in the file's tree");
            assert_eq!(node.to_syntax_node().green(), in_file.green());
        }
        for item in &items {
            assert_eq!(&ItemSyntax::from_green(item.green(), false), item);
        }
        let indented = crate::parse("   \ta = 1\n");
        let plain = crate::parse("a = 1\n");
        assert_eq!(indented.item_syntaxes()[0], plain.item_syntaxes()[0]);
        let after_a_line = crate::parse("\n  a = 1\n");
        assert_eq!(after_a_line.item_syntaxes()[0], plain.item_syntaxes()[0]);
        assert_ne!(
            crate::parse("a = [\n  1]\n").item_syntaxes()[0],
            crate::parse("a = [\n 1]\n").item_syntaxes()[0]
        );
        assert_ne!(
            crate::parse("a =  1\n").item_syntaxes()[0],
            plain.item_syntaxes()[0]
        );
    }
}
