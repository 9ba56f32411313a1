//! The inputs of program analysis: source files, programs (directories of `.pp` files),
//! the workspace of programs that components reach, and the checking options. Drivers
//! (the `ide` host) set them; queries only read them.

// salsa's input expansion trips this lint for structs without `'db` fields.
#![allow(unused_lifetimes)]

use std::collections::BTreeMap;
use std::sync::Arc;

use pcl_syntax::{ItemSyntax, Parse};
use smol_str::SmolStr;

use crate::items::ItemTree;

/// One source file: its display path and its text.
#[salsa::input(debug)]
pub struct File {
    #[returns(ref)]
    pub path: SmolStr,
    #[returns(ref)]
    pub text: Arc<String>,
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
    /// Whether each input of the file's resources is checked in a memo of its own
    /// (`resources::input_check`): a driver sets it for a file an editor changes, where a
    /// change of a type then re-checks only the inputs that read it. Off, a cold check
    /// pays for no memo per input.
    #[default]
    #[returns(copy)]
    pub per_input_memos: bool,
    /// Where the file's bytes on disk stopped being UTF-8, when they did (its text has
    /// each invalid sequence replaced by U+FFFD): reported with its syntax errors.
    #[default]
    #[returns(copy)]
    pub invalid_utf8: Option<pcl_syntax::InvalidUtf8>,
}

/// One top-level item of a file: its syntax (a view of its file's flat tree, its rowan
/// node built on request), as the driver last set it.
#[salsa::input(debug)]
pub struct ItemSource {
    #[returns(ref)]
    pub syntax: ItemSyntax,
}

/// A file's earlier text and its parse, to reparse an edit of it from, and where the edit
/// changed it when the driver knows (an editor's change range).
#[derive(Clone, Debug)]
pub struct ReparseBase {
    pub text: Arc<String>,
    pub parse: Parse,
    pub changed: Option<pcl_syntax::ChangedRange>,
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
    /// For each component directory the driver found no program in: the directories
    /// beside it that hold one (their names), for "did you mean".
    #[default]
    #[returns(ref)]
    pub missing_dirs: Arc<BTreeMap<SmolStr, Box<[SmolStr]>>>,
}

/// How leniently programs are bound: Pulumi's binder options, each named after the Go
/// option it mirrors (`pkg/codegen/pcl/binder.go`), and whether the checks Go does not
/// make are only warnings. No leniency is how `pulumi up` binds a PCL program; the five
/// Go options together are `pulumi convert` without `--strict` (`NonStrictBindOptions`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Leniency {
    /// `SkipResourceTypechecking`: resources and components whose schema is missing are
    /// `dynamic` (one warning), and type errors and unknown inputs of resources with a
    /// schema are warnings.
    pub skip_resource_typecheck: bool,
    /// `SkipInvokeTypechecking`: invokes whose function is missing are `dynamic`, and
    /// problems with invoke arguments are warnings.
    pub skip_invoke_typecheck: bool,
    /// `SkipRangeTypechecking`: a `range` value of the wrong type is a warning.
    pub skip_range_typecheck: bool,
    /// `AllowMissingVariables`: an undefined name is a warning and `dynamic`.
    pub allow_missing_variables: bool,
    /// `AllowMissingProperties`: an unknown property of an object is a warning.
    pub allow_missing_properties: bool,
    /// `--lenient`: the checks Pulumi's binder does not make are warnings too.
    pub beyond_go: bool,
}

impl Leniency {
    /// Every leniency: the five Go options and the checks beyond Go.
    pub const ALL: Leniency = Leniency {
        skip_resource_typecheck: true,
        skip_invoke_typecheck: true,
        skip_range_typecheck: true,
        allow_missing_variables: true,
        allow_missing_properties: true,
        beyond_go: true,
    };

    /// Only `SkipResourceTypechecking`.
    pub const SKIP_RESOURCE_TYPECHECK: Leniency = Leniency {
        skip_resource_typecheck: true,
        skip_invoke_typecheck: false,
        skip_range_typecheck: false,
        allow_missing_variables: false,
        allow_missing_properties: false,
        beyond_go: false,
    };

    /// Each leniency that either has.
    pub fn union(self, other: Leniency) -> Leniency {
        Leniency {
            skip_resource_typecheck: self.skip_resource_typecheck || other.skip_resource_typecheck,
            skip_invoke_typecheck: self.skip_invoke_typecheck || other.skip_invoke_typecheck,
            skip_range_typecheck: self.skip_range_typecheck || other.skip_range_typecheck,
            allow_missing_variables: self.allow_missing_variables || other.allow_missing_variables,
            allow_missing_properties: self.allow_missing_properties
                || other.allow_missing_properties,
            beyond_go: self.beyond_go || other.beyond_go,
        }
    }
}

/// How strictly programs are checked.
#[salsa::input(singleton, debug)]
pub struct CheckOptions {
    #[returns(copy)]
    pub leniency: Leniency,
}

/// The leniencies in force (none when no options were set).
pub fn leniency(db: &dyn salsa::Database) -> Leniency {
    CheckOptions::try_get(db).map_or_else(Leniency::default, |options| options.leniency(db))
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
