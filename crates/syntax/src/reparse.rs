//! Reparsing after an edit: when the edit falls inside one top-level item and leaves it
//! one well-formed item, only that item's text is parsed again and its green node is
//! spliced into the old tree, which shares every other item with the new one.
//!
//! The result is always what a full parse of the new text gives; whenever that cannot be
//! guaranteed cheaply, a full parse is what happens:
//! - the old tree must be free of errors, and so must the new item: recovery can reach
//!   across items, and an unclosed bracket or heredoc takes the rest of the file;
//! - the edit must lie within one `ATTRIBUTE` or `BLOCK` of the file's body (its ends
//!   included), and the new text there must parse as exactly one item of the same kind
//!   covering all of it, so no token moves between the item and its neighbours (a comment
//!   or newline added at an end, say);
//! - a top-level attribute keeps its name, so no attribute becomes set twice (the one
//!   check the parser makes across items).
//!
//! Top-level items start in the lexer's normal mode and end before a newline, so their
//! tokens do not depend on the text around them.

use rowan::NodeOrToken;
use rustc_hash::FxHashMap;

use crate::{
    GreenNode, GreenNodeData, Parse, SyntaxKind, SyntaxNode, TextRange, TextSize, Tree,
    is_ignore_comment, parse, parse_after,
};

impl Parse {
    /// The parse of `new_text`, which is `old_text` (the text this is the parse of) after
    /// an edit, reusing the items the edit did not touch when it can (see the module
    /// documentation). Equal to `parse(new_text)` in every case.
    pub fn reparse(&self, old_text: &str, new_text: &str) -> Parse {
        self.reparse_changed(old_text, new_text, None)
    }

    /// [`Parse::reparse`] when the caller knows where the texts differ (an editor's change
    /// range), so the texts are not compared: `changed` must cover every difference.
    /// A range that does not fit the texts' lengths is ignored.
    pub fn reparse_changed(
        &self,
        old_text: &str,
        new_text: &str,
        changed: Option<ChangedRange>,
    ) -> Parse {
        let changed = match changed.filter(|c| c.fits(old_text, new_text)) {
            Some(changed) => Some(changed),
            None if old_text == new_text && old_text.len() == usize::from(self.text_len()) => {
                return self.clone();
            }
            None => changed_range(old_text, new_text),
        };
        changed
            .and_then(|changed| self.reparse_item(old_text, new_text, changed))
            .unwrap_or_else(|| {
                parse_after(new_text, self.brackets_balance).sharing_items_with(self)
            })
    }

    /// This parse with the top-level items it has in common with `old` replaced by
    /// `old`'s nodes, so that consumers that keep items by identity see them unchanged:
    /// equal runs at the start and at the end, and between them each item equal to an
    /// old one not shared yet (a declaration inserted or removed in the middle of the file
    /// shifts the others). The tree is equal to this one.
    fn sharing_items_with(self, old: &Parse) -> Parse {
        let (Some(body), Some(old_body)) = (body_of(self.green()), body_of(old.green())) else {
            return self;
        };
        let items = |body: &GreenNodeData| -> Vec<(usize, GreenNode)> {
            (body.children().enumerate())
                .filter_map(|(i, child)| Some((i, child.into_node()?.to_owned())))
                .collect()
        };
        let (new_items, old_items) = (items(body.1), items(old_body.1));
        let prefix = (new_items.iter().zip(&old_items))
            .take_while(|((_, new), (_, old))| new == old)
            .count();
        let suffix = (new_items[prefix..].iter().rev())
            .zip(old_items[prefix..].iter().rev())
            .take_while(|((_, new), (_, old))| new == old)
            .count();
        let (new_middle, old_middle) = (
            &new_items[prefix..new_items.len() - suffix],
            &old_items[prefix..old_items.len() - suffix],
        );
        let mut unshared: FxHashMap<&GreenNode, Vec<&GreenNode>> = FxHashMap::default();
        for (_, node) in old_middle.iter().rev() {
            unshared.entry(node).or_default().push(node);
        }
        let mut shared: Vec<(usize, GreenNode)> = (0..prefix)
            .chain(new_items.len() - suffix..new_items.len())
            .map(|k| {
                let old_k = if k < prefix {
                    k
                } else {
                    k + old_items.len() - new_items.len()
                };
                (new_items[k].0, old_items[old_k].1.clone())
            })
            .collect();
        shared.extend(new_middle.iter().filter_map(|(child, node)| {
            let old = unshared.get_mut(node)?.pop()?;
            Some((*child, old.clone()))
        }));
        if shared.is_empty() {
            return self;
        }
        let mut children: Vec<_> = body.1.children().map(|c| c.to_owned()).collect();
        // An old node stands for an equal new one: it has an `invoke` when that one has.
        let mut invoking_items = self.invoking_addresses().to_vec();
        for (child, node) in shared {
            if let NodeOrToken::Node(new) = &children[child]
                && self.item_may_invoke(new)
            {
                invoking_items.push(std::ptr::from_ref::<GreenNodeData>(&node) as usize);
            }
            children[child] = NodeOrToken::Node(node);
        }
        invoking_items.sort_unstable();
        let new_body = GreenNode::new(body.1.kind(), children);
        let green = (self.green()).replace_child(body.0, NodeOrToken::Node(new_body));
        Parse::built(
            green,
            self.errors,
            self.ignore_comments,
            invoking_items,
            self.brackets_balance,
        )
    }

    /// The length of the parsed text, without building a root.
    fn text_len(&self) -> TextSize {
        match &*self.tree {
            Tree::Flat { tree, .. } => tree.text_len(),
            Tree::Built(green) => green.text_len(),
            Tree::Spliced { splice, .. } => splice.text_len(),
        }
    }

    fn reparse_item(&self, old_text: &str, new_text: &str, changed: ChangedRange) -> Option<Parse> {
        if !self.errors.is_empty() || old_text.len() != usize::from(self.text_len()) {
            return None;
        }
        let range = TextRange::new(changed.start, changed.old_end);
        // An edit inside the item this parse replaced (typing goes on in one item): that
        // item again, over the same base, and no root is built.
        if let Tree::Spliced { splice, .. } = &*self.tree
            && splice.item_range().contains_range(range)
        {
            let old_item = SyntaxNode::new_root(splice.item.clone());
            let item = self.reparsed_item(&old_item, splice.start, new_text, changed)?;
            // The same base: its items' marks stand.
            let invoking_items = self.invoking_items.clone();
            return Some(self.spliced(splice.with_item(item.0), item.1, item.2, invoking_items));
        }
        let root = self.syntax_node();
        let body = root
            .first_child()
            .filter(|n| n.kind() == SyntaxKind::BODY)?;
        // The element at the range by binary search, then the first item around it that
        // holds the range (an empty range at an item's edge touches its neighbour too).
        let at = (body.text_range().contains_range(range))
            .then(|| body.child_or_token_at_range(range))??;
        let old_item = [
            at.prev_sibling_or_token(),
            Some(at.clone()),
            at.next_sibling_or_token(),
        ]
        .into_iter()
        .flatten()
        .filter_map(|element| element.into_node())
        .find(|item| item.text_range().contains_range(range))?;
        let start = old_item.text_range().start();
        let item = self.reparsed_item(&old_item, start, new_text, changed)?;
        let body_green = body.green();
        let ordinal = (body_green.children().take(old_item.index()))
            .filter(|child| child.into_node().is_some_and(crate::is_top_level_item))
            .count();
        let splice = Splice {
            base: self.green().clone(),
            body: body_green.into_owned(),
            body_index: body.index(),
            index: old_item.index(),
            ordinal,
            start,
            old_len: old_item.text_range().len(),
            item: item.0,
        };
        let invoking_items = self.invoking_items_of_tree();
        Some(self.spliced(splice, item.1, item.2, invoking_items))
    }

    /// The item `old_item` (which starts at `start`) becomes after the edit, parsed alone,
    /// how many ignore comments the file then has, and whether the item has an identifier
    /// `invoke`; `None` unless it is one well-formed item of the same kind (and, for an
    /// attribute, the same name).
    fn reparsed_item(
        &self,
        old_item: &SyntaxNode,
        start: TextSize,
        new_text: &str,
        changed: ChangedRange,
    ) -> Option<(GreenNode, u32, bool)> {
        let end = start + old_item.text_range().len();
        let item_end =
            usize::from(end) - usize::from(changed.old_end) + usize::from(changed.new_end);
        let item_text = new_text.get(usize::from(start)..item_end)?;
        let (new_item, invokes) = single_item(item_text)?;
        if new_item.kind() != old_item.kind()
            || (old_item.kind() == SyntaxKind::ATTRIBUTE
                && attribute_name(old_item) != attribute_name(&new_item))
        {
            return None;
        }
        let ignore_comments =
            self.ignore_comments - ignore_comments_in(old_item) + ignore_comments_in(&new_item);
        Some((new_item.green().into_owned(), ignore_comments, invokes))
    }

    /// The marks of the items of this parse's tree, its spliced item's included: the base
    /// of a new splice.
    fn invoking_items_of_tree(&self) -> std::sync::Arc<[usize]> {
        match &*self.tree {
            Tree::Spliced { splice, .. } if self.replaced_item_invokes => {
                let mut items = self.invoking_items.to_vec();
                items.push(std::ptr::from_ref(splice.item()) as usize);
                items.sort_unstable();
                items.into()
            }
            _ => self.invoking_addresses().clone(),
        }
    }

    fn spliced(
        &self,
        splice: Splice,
        ignore_comments: u32,
        item_invokes: bool,
        invoking_items: std::sync::Arc<[usize]>,
    ) -> Parse {
        Parse {
            tree: std::sync::Arc::new(Tree::Spliced {
                splice,
                root: std::sync::OnceLock::new(),
            }),
            errors: Vec::new(),
            ignore_comments,
            invoking_items,
            replaced_item_invokes: item_invokes,
            // An item parsed again alone is well formed: its brackets balance.
            brackets_balance: self.brackets_balance,
        }
    }
}

/// A built root with one item of its file body replaced (`Tree::Spliced`).
pub(crate) struct Splice {
    base: GreenNode,
    /// The base's file body, and its index among the root's children.
    body: GreenNode,
    body_index: usize,
    /// The replaced item's index among the body's children, its place among the file's
    /// top-level items, where it starts, and the length of the base's item there.
    index: usize,
    ordinal: usize,
    start: TextSize,
    old_len: TextSize,
    item: GreenNode,
}

impl Splice {
    /// The base's file body.
    pub(crate) fn base_body(&self) -> &GreenNodeData {
        &self.body
    }

    /// The replaced item's index among the body's children, and the item.
    pub(crate) fn replaced(&self) -> (usize, &GreenNodeData) {
        (self.index, &self.item)
    }

    /// The root with the item in place.
    pub(crate) fn build(&self) -> GreenNode {
        let body = (self.body).replace_child(self.index, NodeOrToken::Node(self.item.clone()));
        (self.base).replace_child(self.body_index, NodeOrToken::Node(body))
    }

    fn text_len(&self) -> TextSize {
        self.base.text_len() - self.old_len + self.item.text_len()
    }

    fn item_range(&self) -> TextRange {
        TextRange::at(self.start, self.item.text_len())
    }

    /// Whether `earlier`'s tree is this splice's base, or a splice of the same item over
    /// it: then this parse's items are `earlier`'s but for this one.
    pub(crate) fn follows(&self, earlier: &Tree) -> bool {
        let is_base = |green: &GreenNode| same_node(green, &self.base);
        match earlier {
            Tree::Flat { root, .. } => root.get().is_some_and(|(green, _)| is_base(green)),
            Tree::Built(green) => is_base(green),
            Tree::Spliced { splice, root } => {
                (is_base(&splice.base) && splice.index == self.index)
                    || root.get().is_some_and(is_base)
            }
        }
    }

    /// The replaced item's place among the file's top-level items, and the item.
    pub(crate) fn replaced_item(&self) -> (usize, &GreenNodeData) {
        (self.ordinal, &self.item)
    }

    /// The new item.
    pub(crate) fn item(&self) -> &GreenNodeData {
        &self.item
    }

    /// The same base with `item` in place of this one's.
    fn with_item(&self, item: GreenNode) -> Splice {
        Splice {
            base: self.base.clone(),
            body: self.body.clone(),
            item,
            ..*self
        }
    }
}

/// Whether two green nodes are the same node (not only equal).
fn same_node(a: &GreenNode, b: &GreenNode) -> bool {
    std::ptr::eq::<GreenNodeData>(&**a, &**b)
}

/// How many comments of `node` hold the ignore directive.
fn ignore_comments_in(node: &SyntaxNode) -> u32 {
    (node.descendants_with_tokens())
        .filter_map(|element| element.into_token())
        .filter(|token| is_ignore_comment(token.kind(), token.text()))
        .count() as u32
}

/// Where an edit changed a text: `old[start..old_end]` became `new[start..new_end]`,
/// the rest is equal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ChangedRange {
    pub start: TextSize,
    pub old_end: TextSize,
    pub new_end: TextSize,
}

impl ChangedRange {
    /// Whether the range is one of the texts' lengths allow, at character boundaries.
    fn fits(self, old: &str, new: &str) -> bool {
        let (start, old_end, new_end) = (
            usize::from(self.start),
            usize::from(self.old_end),
            usize::from(self.new_end),
        );
        start <= old_end
            && start <= new_end
            && old_end <= old.len()
            && new_end <= new.len()
            && old.len() - old_end == new.len() - new_end
            && [old.is_char_boundary(start), old.is_char_boundary(old_end)]
                .into_iter()
                .chain([new.is_char_boundary(start), new.is_char_boundary(new_end)])
                .all(|b| b)
    }
}

/// Where `old` and `new` differ: the start, and the ends in each, at character
/// boundaries. `None` when they are equal.
fn changed_range(old: &str, new: &str) -> Option<ChangedRange> {
    if old == new {
        return None;
    }
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = common_prefix(a, b);
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let max_suffix = old.len().min(new.len()) - prefix;
    let mut suffix = common_suffix(&a[prefix..], &b[prefix..]).min(max_suffix);
    while !old.is_char_boundary(old.len() - suffix) || !new.is_char_boundary(new.len() - suffix) {
        suffix -= 1;
    }
    let size = |n: usize| TextSize::try_from(n).ok();
    Some(ChangedRange {
        start: size(prefix)?,
        old_end: size(old.len() - suffix)?,
        new_end: size(new.len() - suffix)?,
    })
}

/// The sizes of the blocks texts are compared in: large blocks while they are equal,
/// then smaller ones, then bytes (files are megabytes long; an edit is a few bytes).
const COMPARED_BLOCKS: [usize; 2] = [4096, 64];

/// The length of the longest common prefix of `a` and `b`.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let mut at = 0;
    for block in COMPARED_BLOCKS {
        while at + block <= len && a[at..at + block] == b[at..at + block] {
            at += block;
        }
    }
    at + (a[at..len].iter().zip(&b[at..len]))
        .take_while(|(x, y)| x == y)
        .count()
}

/// The length of the longest common suffix of `a` and `b`, as [`common_prefix`].
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let (a_end, b_end) = (a.len(), b.len());
    let mut at = 0;
    for block in COMPARED_BLOCKS {
        while at + block <= len
            && a[a_end - at - block..a_end - at] == b[b_end - at - block..b_end - at]
        {
            at += block;
        }
    }
    at + (a[..a_end - at]
        .iter()
        .rev()
        .zip(b[..b_end - at].iter().rev()))
    .take_while(|(x, y)| x == y)
    .count()
}

/// The one item `text` parses to without errors, when it is exactly one item and nothing
/// else, and whether it may call `invoke` (`Parse::item_may_invoke`).
fn single_item(text: &str) -> Option<(SyntaxNode, bool)> {
    let parse = parse(text);
    if !parse.errors.is_empty() {
        return None;
    }
    let root = parse.syntax_node();
    let mut top = root.children_with_tokens();
    let body = top.next()?.into_node()?;
    if top.next().is_some() || body.kind() != SyntaxKind::BODY {
        return None;
    }
    let mut items = body.children_with_tokens();
    let item = items.next()?.into_node()?;
    let whole = TextRange::up_to(root.text_range().end());
    let invokes = parse.item_may_invoke(&item.green());
    (items.next().is_none() && item.text_range() == whole).then_some((item, invokes))
}

/// The name token's text of a top-level attribute.
fn attribute_name(item: &SyntaxNode) -> Option<String> {
    let token = item.first_token()?;
    (token.kind() == SyntaxKind::IDENT).then(|| token.text().to_owned())
}

/// The file body's index among the root's children, and its node.
pub(crate) fn body_of(root: &GreenNodeData) -> Option<(usize, &GreenNodeData)> {
    (root.children().enumerate()).find_map(|(i, child)| {
        let node = child.into_node()?;
        (SyntaxKind::from_raw(node.kind().0) == SyntaxKind::BODY).then_some((i, node))
    })
}
