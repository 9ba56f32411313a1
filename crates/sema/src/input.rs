//! The inputs of program analysis: source files, programs (directories of `.pp` files),
//! the workspace of programs that components reach, and the checking options. Drivers
//! (the `ide` host) set them; queries only read them.

// salsa's input expansion trips this lint for structs without `'db` fields.
#![allow(unused_lifetimes)]

use std::collections::BTreeMap;
use std::sync::Arc;

use pcl_syntax::{GreenNode, Parse};
use smol_str::SmolStr;

use crate::items::ItemTree;

/// One source file: its display path and its text.
#[salsa::input(debug)]
pub struct File {
    #[returns(ref)]
    pub path: SmolStr,
    #[returns(ref)]
    pub text: Arc<str>,
    /// The file's item tree as the driver last synced it (`sync_summaries`): what
    /// program-wide queries read, so that edits inside bodies do not reach them.
    #[default]
    #[returns(ref)]
    pub declarations: Arc<ItemTree>,
    /// The file's top-level items (attributes and blocks), each its own input, as the
    /// driver last synced them with its parse (`sync_summaries`): an edit inside one item
    /// changes only that item's input, so the memos of the others stay valid, and stay at
    /// their durability.
    #[default]
    #[returns(ref)]
    pub items: Arc<[ItemSource]>,
    /// The text before the last edit and its parse, when the driver kept them: `parse`
    /// then parses again only the item the edit touched. The parse is the same with or
    /// without it; only its cost differs.
    #[default]
    #[returns(ref)]
    pub reparse_base: Option<ReparseBase>,
}

/// One top-level item of a file: its green node (offset-free), as the driver last set it.
#[salsa::input(debug)]
pub struct ItemSource {
    #[returns(ref)]
    pub green: GreenNode,
}

/// A file's earlier text and its parse, to reparse an edit of it from.
#[derive(Clone, Debug)]
pub struct ReparseBase {
    pub text: Arc<str>,
    pub parse: Parse,
}

/// A program: a directory whose `.pp` files share one namespace. `dir` is the
/// normalised directory path ([`join_dir`]); files are sorted by path.
#[salsa::input(debug)]
pub struct Program {
    #[returns(ref)]
    pub dir: SmolStr,
    #[returns(ref)]
    pub files: Arc<[File]>,
    /// Whether the program has a reference cycle, as the driver last synced it
    /// (`sync_summaries`): every declaration reads it.
    #[default]
    #[returns(copy)]
    pub has_cycles: bool,
}

/// Every program the driver knows, by directory: what `component` blocks instantiate.
#[salsa::input(singleton, debug)]
pub struct Workspace {
    #[returns(ref)]
    pub programs: Arc<BTreeMap<SmolStr, Program>>,
}

/// How strictly programs are checked.
#[salsa::input(singleton, debug)]
pub struct CheckOptions {
    /// Resources and invokes whose package or token has no schema are `dynamic`, with one
    /// warning per declaration, instead of errors.
    #[returns(copy)]
    pub skip_resource_typecheck: bool,
}

/// Whether resource typechecking is skipped (false when no options were set).
pub fn skip_resource_typecheck(db: &dyn salsa::Database) -> bool {
    CheckOptions::try_get(db).is_some_and(|options| options.skip_resource_typecheck(db))
}

/// The program in directory `dir` (normalised), if the driver registered it. One query
/// per directory, so registering another program does not disturb its readers.
pub fn program_at(db: &dyn salsa::Database, dir: &str) -> Option<Program> {
    program_at_query(db, DirName::new(db, SmolStr::new(dir)))
}

/// A directory path as a query key; immortal, so lookups are never recycled.
#[salsa::interned(revisions = usize::MAX)]
struct DirName<'db> {
    #[returns(ref)]
    name: SmolStr,
}

#[salsa::tracked(returns(copy))]
fn program_at_query<'db>(db: &'db dyn salsa::Database, dir: DirName<'db>) -> Option<Program> {
    Workspace::try_get(db)?
        .programs(db)
        .get(dir.name(db).as_str())
        .copied()
}

/// `relative` (a component source such as `./vpc` or `../shared`) resolved against the
/// program directory `base`, lexically: `.` segments dropped, `..` removing the previous
/// segment. The driver and the queries use this one rule, so paths agree without IO.
pub fn join_dir(base: &str, relative: &str) -> SmolStr {
    let mut parts: Vec<&str> = Vec::new();
    let absolute = relative.starts_with('/') || (relative.is_empty() && base.starts_with('/'));
    let joined: Vec<&str> = if relative.starts_with('/') {
        relative.split('/').collect()
    } else {
        base.split('/').chain(relative.split('/')).collect()
    };
    let base_absolute = !relative.starts_with('/') && base.starts_with('/');
    for part in joined {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|last| *last != "..") => {
                parts.pop();
            }
            ".." if absolute || base_absolute => {}
            _ => parts.push(part),
        }
    }
    let body = parts.join("/");
    match (absolute || base_absolute, body.is_empty()) {
        (true, _) => SmolStr::new(format!("/{body}")),
        (false, true) => SmolStr::new("."),
        (false, false) => SmolStr::new(body),
    }
}

#[cfg(test)]
mod tests {
    use super::join_dir;

    #[test]
    fn component_paths_join_lexically() {
        assert_eq!(join_dir("prog", "./vpc"), "prog/vpc");
        assert_eq!(join_dir("prog/a", "../b"), "prog/b");
        assert_eq!(join_dir(".", "./c"), "c");
        assert_eq!(join_dir("/x/y", "../../.."), "/");
        assert_eq!(join_dir("a", ".."), ".");
        assert_eq!(join_dir("a", "../.."), "..");
        assert_eq!(join_dir("a", "/abs/p"), "/abs/p");
    }
}
