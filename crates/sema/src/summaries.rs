//! Summary inputs: facts derived from the program text that the driver copies into inputs
//! of medium durability after each change, so that an edit which leaves them equal (a
//! literal, a comment, anything inside a body) does not make every declaration depend on
//! the edited file.
//!
//! Salsa gives a memo the lowest durability of everything it read, and raises it only
//! when the query runs again (never when it verifies the memo). Every declaration reads
//! the program's namespace and whether the program has reference cycles, which are
//! computed from every file; were they queries, an edit to any file would leave every
//! memo of the program at low durability, and re-checking after it would deep-verify all
//! of them (the whole program's cost, not the edit's). As inputs, set only when they change, they keep the
//! memos of untouched files at medium durability, verified in constant time each.
//!
//! The same holds within a file: each top-level item is an input of its own
//! (`ItemSource`), so an edit in one item of a large file leaves the memos of the others
//! at their durability.
//!
//! The invariant, kept by [`sync_summaries`]: `File::items` are the file's parse's
//! top-level items in order, `File::declarations` equals `item_tree` of the file, and
//! `Program::has_cycles` says whether `program_graph` has a cycle.
//! A driver calls it after setting file texts or program file lists and before asking
//! anything (the `ide` host does).

use std::sync::Arc;

use salsa::{Durability, Setter};

use pcl_syntax::{GreenNodeData, ItemSyntax};
use rustc_hash::FxHashMap;

use crate::input::{File, ItemSource, Program};
use crate::items::{item_tree, parse};
use crate::scope::program_graph;
use pcl_syntax::Parse;

/// Bring the summaries of `files` and then of `programs` up to date. Cheap when nothing
/// they summarise changed: both are memoized queries, compared before anything is set.
/// Items whose syntax changed are set at the durability given with their file (low for a
/// document an editor changes, medium for files read from disk).
pub fn sync_summaries(
    db: &mut dyn salsa::Database,
    files: &[(File, Durability)],
    programs: &[Program],
) {
    sync_file_items(db, files);
    sync_file_summaries(db, files);
    sync_program_summaries(db, programs);
}

/// The first step of [`sync_summaries`], for drivers that compute between the steps (on
/// several threads): each file's item inputs, from its parse.
pub fn sync_file_items(db: &mut dyn salsa::Database, files: &[(File, Durability)]) {
    for &(file, durability) in files {
        sync_items(db, file, durability);
    }
}

/// The item inputs of a file that has none yet (its first parse: a program being
/// loaded), made from its parse; `None` when the file has items, which
/// [`sync_file_items`] then compares with the parse (which makes these itself for a
/// file that has none). Making inputs needs no exclusive
/// access to the database, so a driver makes them on several threads (a 10 MB program
/// has 40k items) and sets them with [`set_first_items`], where `sync_file_items` would
/// make them one by one.
pub fn first_items(
    db: &dyn salsa::Database,
    file: File,
    durability: Durability,
) -> Option<Arc<[ItemSource]>> {
    if !file.items(db).is_empty() {
        return None;
    }
    let items = parse(db, file).item_syntaxes();
    let durability = edit_durability(durability, items.len());
    Some(
        (items.iter())
            .map(|syntax| new_item(db, syntax.clone(), durability))
            .collect(),
    )
}

/// Make `items` (from [`first_items`]) the items of `file`.
pub fn set_first_items(db: &mut dyn salsa::Database, file: File, items: Arc<[ItemSource]>) {
    if **file.items(&*db) != *items {
        file.set_items(db)
            .with_durability(Durability::MEDIUM)
            .to(items);
    }
}

/// The second step: each file's declarations (its item tree), once its items are synced.
pub fn sync_file_summaries(db: &mut dyn salsa::Database, files: &[(File, Durability)]) {
    for &(file, _) in files {
        // `item_tree` returns the synced summary itself when it is equal.
        let tree = item_tree(&*db, file);
        if !Arc::ptr_eq(file.declarations(&*db), tree) {
            let tree = tree.clone();
            file.set_declarations(db)
                .with_durability(Durability::MEDIUM)
                .to(tree);
        }
    }
}

/// The last step: whether each program has reference cycles.
pub fn sync_program_summaries(db: &mut dyn salsa::Database, programs: &[Program]) {
    for &program in programs {
        let has_cycles = !program_graph(&*db, program).cycles.is_empty();
        if program.has_cycles(&*db) != has_cycles {
            program
                .set_has_cycles(db)
                .with_durability(Durability::MEDIUM)
                .to(has_cycles);
        }
    }
}

/// Bring `File::items` in line with the file's parse: a file with none yet gets
/// [`first_items`]; otherwise items whose syntax is unchanged keep
/// their input (compared by identity first: after `Parse::reparse` they are the same
/// nodes); the others are matched in order between the unchanged ones at both ends.
/// There, an old item whose syntax reappears keeps its input too (a declaration inserted
/// or removed before it does not move every later item's input down to the edit's
/// durability), and the rest are set in order. The list itself is set only when it
/// changes.
fn sync_items(db: &mut dyn salsa::Database, file: File, durability: Durability) {
    if let Some(items) = first_items(&*db, file, durability) {
        set_first_items(db, file, items);
        return;
    }
    let parse = parse(&*db, file).clone();
    let old = file.items(&*db).clone();
    // Typing inside one item: the parse is the one the items were synced from with that
    // item parsed again, so only its input can change (no pass over the file's items).
    let replaced =
        (file.reparse_base(&*db).as_ref()).and_then(|base| parse.replaced_item_of(&base.parse));
    if let Some((ordinal, green)) = replaced
        && let Some(&source) = old.get(ordinal)
    {
        if **source.syntax(&*db).green() != *green {
            set_item(db, source, item_syntax(&parse, green), durability);
        }
        return;
    }
    // Sized once: the items an edit leaves are most of them.
    let mut new: Vec<&GreenNodeData> = Vec::with_capacity(old.len() + 1);
    new.extend(parse.top_level_item_nodes());
    let same = |db: &dyn salsa::Database, source: ItemSource, green: &GreenNodeData| {
        let current: &GreenNodeData = source.syntax(db).green();
        std::ptr::eq(current, green) || current == green
    };
    let prefix = (old.iter().zip(&new))
        .take_while(|(source, green)| same(&*db, **source, green))
        .count();
    let suffix = (old[prefix..].iter().rev().zip(new[prefix..].iter().rev()))
        .take_while(|(source, green)| same(&*db, **source, green))
        .count();
    let old_middle = &old[prefix..old.len() - suffix];
    let new_middle = &new[prefix..new.len() - suffix];
    let kept = kept_items(&*db, old_middle, new_middle);
    let mut taken = vec![false; old_middle.len()];
    for &i in kept.iter().flatten() {
        taken[i] = true;
    }
    let mut unmatched = (old_middle.iter().zip(taken))
        .filter(|(_, taken)| !taken)
        .map(|(source, _)| *source)
        .collect::<Vec<_>>()
        .into_iter();
    // Which input each new item gets, and whether its syntax must be set (or created).
    let mut plan: Vec<(Option<ItemSource>, bool)> = Vec::with_capacity(new_middle.len());
    for (green, kept) in new_middle.iter().zip(&kept) {
        plan.push(match *kept {
            Some(i) => (Some(old_middle[i]), false),
            None => match unmatched.next() {
                Some(source) => (Some(source), !same(&*db, source, green)),
                None => (None, true),
            },
        });
    }
    let durability = edit_durability(durability, plan.iter().filter(|(_, set)| *set).count());
    let middle: Vec<ItemSource> = (plan.into_iter().zip(new_middle))
        .map(|((source, set), green)| match source {
            Some(source) if set => {
                set_item(db, source, item_syntax(&parse, green), durability);
                source
            }
            Some(source) => source,
            None => new_item(&*db, item_syntax(&parse, green), durability),
        })
        .collect();
    if *old_middle != *middle {
        let items: Arc<[ItemSource]> = (old[..prefix].iter().copied())
            .chain(middle)
            .chain(old[old.len() - suffix..].iter().copied())
            .collect();
        file.set_items(db)
            .with_durability(Durability::MEDIUM)
            .to(items);
    }
}

/// The handle of `green`, one of `parse`'s items.
fn item_syntax(parse: &Parse, green: &GreenNodeData) -> ItemSyntax {
    ItemSyntax::from_green(green, parse.item_may_invoke(green))
}

/// A new item input.
fn new_item(db: &dyn salsa::Database, syntax: ItemSyntax, durability: Durability) -> ItemSource {
    ItemSource::builder(syntax).durability(durability).new(db)
}

/// Give an item input new syntax.
fn set_item(
    db: &mut dyn salsa::Database,
    source: ItemSource,
    syntax: ItemSyntax,
    durability: Durability,
) {
    source.set_syntax(db).with_durability(durability).to(syntax);
}

/// The durability at which an edit sets the items it changed: the file's, unless the edit
/// changed more than [`BULK_EDIT_ITEMS`] items at once (a replace-all, a paste, a
/// reformat), which are then set at medium. Salsa deep-verifies every memo that read a
/// low input at each later edit, and raises a memo's durability only when it runs again:
/// were such items low, every keystroke after a bulk edit would walk all their memos. A
/// medium write costs one deep verification of every memo of medium durability, once;
/// adding or removing a declaration (the item list, the summaries) already pays it.
fn edit_durability(durability: Durability, changed_items: usize) -> Durability {
    if changed_items > BULK_EDIT_ITEMS {
        durability.max(Durability::MEDIUM)
    } else {
        durability
    }
}

/// How many items an edit may change before they are set at medium durability.
const BULK_EDIT_ITEMS: usize = 16;

/// For each new item between the unchanged ends, the old item (by index) whose syntax it
/// is: the same node, which reparsing keeps for every item an edit leaves equal. Only
/// when items were inserted or removed, since an edit inside items leaves them where
/// they were.
fn kept_items(
    db: &dyn salsa::Database,
    old_middle: &[ItemSource],
    new_middle: &[&GreenNodeData],
) -> Vec<Option<usize>> {
    if old_middle.len() == new_middle.len() || old_middle.is_empty() {
        return vec![None; new_middle.len()];
    }
    // Equal items may share one node (the tree builder deduplicates): each old item is
    // kept at most once, in order.
    let node = |green: &GreenNodeData| std::ptr::from_ref(green);
    let mut by_node: FxHashMap<*const GreenNodeData, Vec<usize>> = FxHashMap::default();
    for (i, source) in old_middle.iter().enumerate().rev() {
        by_node
            .entry(node(source.syntax(db).green()))
            .or_default()
            .push(i);
    }
    (new_middle.iter())
        .map(|green| by_node.get_mut(&node(green)).and_then(Vec::pop))
        .collect()
}
