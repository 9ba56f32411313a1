//! Files as lists of declarations. `parse` keeps each file's tree (reparsing only the
//! edited item when it can); each top-level item is an `ItemSource` input the driver syncs
//! with it, outlined in runs (`item_outlines`); `item_tree` lists a file's
//! declarations without ranges or bodies (the first firewall: an edit inside a body leaves
//! it equal); `decl_syntax` is a declaration's item's syntax handle, untouched by edits
//! to other items (the second firewall); `file_items` adds offsets, for ranges.

// salsa's interned-struct expansion trips this lint for structs without `'db` fields.
#![allow(unused_lifetimes)]

use std::borrow::Cow;
use std::sync::Arc;

use pcl_syntax::ast::{self, AstNode};
use pcl_syntax::{ItemSyntax, NodeRef, Parse, SyntaxKind, TextSize};
use rustc_hash::FxHashMap;
use salsa::plumbing::AsId;
use smol_str::SmolStr;

use crate::input::{File, ItemSource, Program};

/// The parse of a file, from the parse before its last edit when the driver kept it (only
/// the edited item is parsed again). Not compared after a re-parse (`no_eq`): comparing
/// two trees costs as much as the parse, and the firewalls below it backdate.
#[salsa::tracked(returns(ref), no_eq)]
pub fn parse(db: &dyn salsa::Database, file: File) -> Parse {
    let text = file.text(db);
    match file.reparse_base(db) {
        Some(base) => base.parse.reparse_changed(&base.text, text, base.changed),
        None => pcl_syntax::parse_shared(text),
    }
}

/// What a top-level item declares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum DeclKind {
    /// A top-level attribute.
    Local,
    Resource,
    Read,
    Config,
    Output,
    Component,
    Hook,
    Pulumi,
    Package,
}

impl DeclKind {
    /// The word `pcl types` and messages use: `local`, `resource`, ...
    pub fn keyword(self) -> &'static str {
        match self {
            DeclKind::Local => "local",
            DeclKind::Resource => "resource",
            DeclKind::Read => "read",
            DeclKind::Config => "config",
            DeclKind::Output => "output",
            DeclKind::Component => "component",
            DeclKind::Hook => "hook",
            DeclKind::Pulumi => "pulumi",
            DeclKind::Package => "package",
        }
    }

    /// The block type that declares this kind; `None` for locals.
    pub fn from_block_type(name: &str) -> Option<DeclKind> {
        Some(match name {
            "resource" => DeclKind::Resource,
            "read" => DeclKind::Read,
            "config" => DeclKind::Config,
            "output" => DeclKind::Output,
            "component" => DeclKind::Component,
            "hook" => DeclKind::Hook,
            "pulumi" => DeclKind::Pulumi,
            "package" => DeclKind::Package,
            _ => return None,
        })
    }

    /// Whether declarations of this kind are names other declarations can refer to.
    /// Outputs have a namespace of their own; package blocks declare no name.
    pub fn is_referable(self) -> bool {
        !matches!(self, DeclKind::Output | DeclKind::Package)
    }

    /// The number of labels a block of this kind takes, as (min, max).
    fn label_counts(self) -> (usize, usize) {
        match self {
            DeclKind::Local => (0, 0),
            DeclKind::Resource | DeclKind::Read | DeclKind::Hook => (2, 2),
            DeclKind::Config | DeclKind::Output | DeclKind::Component => (1, 2),
            DeclKind::Pulumi => (0, 0),
            DeclKind::Package => (0, 1),
        }
    }
}

/// A declaration's identity inside its file: kind, name, and how many declarations of
/// the same kind and name come before it in the file (duplicates stay distinct).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ItemKey {
    pub kind: DeclKind,
    pub name: SmolStr,
    pub index: u32,
}

/// One declaration as the item tree records it: no ranges, no bodies.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Item {
    pub key: ItemKey,
    /// The resource or read type token, the config or output type label, or the
    /// component source, as written.
    pub label: Option<SmolStr>,
    /// For a resource, read or component: whether its `options` block sets `range`, which
    /// makes its type depend on its body. Without it the type comes from its token (its
    /// source, for a component) alone.
    pub ranged: bool,
    /// For a resource or read whose `options` name its provider in quotes (`provider =
    /// "k8s"`, an error of its own): the name, so the provider is not also reported
    /// unused.
    pub quoted_provider: Option<SmolStr>,
    /// Its syntax.
    pub source: ItemSource,
}

/// The declarations of a file, in source order, and the names its program must resolve
/// outside itself: packages (with the version a resource asks for) and component
/// directories.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ItemTree {
    pub items: Box<[Item]>,
    pub packages: Box<[PackageUse]>,
    pub component_sources: Box<[SmolStr]>,
    /// The names a block that declares nothing may have meant to declare (its type word
    /// and its first label: `resouce "res" ...`, `fileContent readFile(..)`): its own error
    /// says what is wrong, so reading them is not also an undefined name.
    pub broken_names: Box<[SmolStr]>,
}

/// What one top-level item declares and needs, without ranges (memoized in runs of items:
/// `item_outlines`).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
struct ItemOutline {
    /// The kind, name and main label of what it declares; `None` when it declares nothing
    /// (an unknown block, labels that do not fit, an attribute without a name).
    declares: Option<(DeclKind, SmolStr, Option<SmolStr>)>,
    /// A resource, read or component whose `options` block sets `range`.
    ranged: bool,
    /// A resource or read whose `options` block names its provider in quotes.
    quoted_provider: Option<SmolStr>,
    /// The packages it names: a resource's type token (with the version its options ask
    /// for), a `package` block's name, literal `invoke` tokens. Exact-sized: one per
    /// item is kept for the whole check.
    packages: Box<[PackageUse]>,
    /// Problems with its structure, with ranges relative to the item's start.
    problems: Vec<StructureProblem>,
    /// For a block that declares nothing: the names it may have meant
    /// ([`ItemTree::broken_names`]).
    broken_names: Box<[SmolStr]>,
}

/// The outlines of a run of a file's items ([`OUTLINE_CHUNK`] of them from `chunk`'s
/// start), in order: one memo per run, not per item. An edit of one item outlines its run
/// again (32 items: about 0.3 M instructions, a 128-item run was a twentieth of a type
/// change's re-check in a 10k-resource file), but the memos reading every item of a file
/// (`item_tree`, `structure_problems`) then verify one edge per run after each edit,
/// not one per item, and a cold check keeps one memo per run.
#[salsa::tracked(returns(ref))]
fn item_outlines<'db>(db: &'db dyn salsa::Database, chunk: ItemChunk<'db>) -> Box<[ItemOutline]> {
    let items = chunk.file(db).items(db);
    let start = (chunk.start(db) as usize).min(items.len());
    let end = (start + OUTLINE_CHUNK).min(items.len());
    let syntaxes: Vec<&ItemSyntax> = (items[start..end].iter())
        .map(|&source| source.syntax(db))
        .collect();
    ItemSyntax::warm(&syntaxes);
    syntaxes.into_iter().map(item_outline).collect()
}

/// How many items one memo of [`item_outlines`] outlines.
const OUTLINE_CHUNK: usize = 32;

/// The key of [`item_outlines`]: a file's items from `start`. Immortal, as the runs of a
/// file are few.
#[salsa::interned(revisions = usize::MAX)]
pub struct ItemChunk<'db> {
    #[returns(copy)]
    file: File,
    #[returns(copy)]
    start: u32,
}

/// The runs of a file's items outlined together, in order: drivers outline them on
/// several threads at once (`outline_chunk`) before `item_tree` reads them, so a large
/// file's outlines are not one thread's work.
pub fn outline_chunks(db: &dyn salsa::Database, file: File) -> impl Iterator<Item = ItemChunk<'_>> {
    (0..file.items(db).len())
        .step_by(OUTLINE_CHUNK)
        .map(move |start| ItemChunk::new(db, file, start as u32))
}

/// Outline the items of a chunk, for `item_tree`.
pub fn outline_chunk<'db>(db: &'db dyn salsa::Database, chunk: ItemChunk<'db>) {
    let _ = item_outlines(db, chunk);
}

/// Each of `file`'s items with its outline, in order.
fn outlined_items(
    db: &dyn salsa::Database,
    file: File,
) -> impl Iterator<Item = (ItemSource, &ItemOutline)> {
    let items = file.items(db);
    outline_chunks(db, file).flat_map(move |chunk| {
        let start = chunk.start(db) as usize;
        (items[start..].iter().copied()).zip(item_outlines(db, chunk).iter())
    })
}

/// What an item declares and needs, read from its flat tree (no syntax node per
/// element: this runs for every item). Only an item that `may_invoke` is walked for the
/// packages of its `invoke` calls (a walk over every node: 2.3% of a cold check's
/// instructions when it was done for every item).
fn item_outline(syntax: &ItemSyntax) -> ItemOutline {
    let root = syntax.root();
    let may_invoke = syntax.may_invoke();
    let mut outline = ItemOutline::default();
    let mut packages = Vec::new();
    let declares = match root.kind() {
        SyntaxKind::ATTRIBUTE => (root.token(&[SyntaxKind::IDENT]))
            .map(|name| (DeclKind::Local, SmolStr::new(name.text()), None)),
        SyntaxKind::BLOCK => block_labels(root, &mut outline.problems).map(|(kind, labels)| {
            let (name, label) = block_name_and_label(kind, &labels);
            // The options block checking reads: the first one (looked for only in items
            // with blocks inside: reaching each child of a large file's item is a cache
            // miss, a quarter of outlining it).
            let options = (matches!(
                kind,
                DeclKind::Resource | DeclKind::Read | DeclKind::Component
            ) && syntax.has_nested_blocks())
            .then(|| {
                (root.child(SyntaxKind::BODY)?)
                    .children_where(|kind| kind == SyntaxKind::BLOCK)
                    .find(|b| block_type_is(*b, "options"))
            })
            .flatten();
            let option = |name: &str| {
                (options?.child(SyntaxKind::BODY)?)
                    .children_where(|kind| kind == SyntaxKind::ATTRIBUTE)
                    .find(|a| {
                        a.token(&[SyntaxKind::IDENT])
                            .is_some_and(|n| n.text() == name)
                    })
            };
            outline.ranged = option("range").is_some();
            outline.quoted_provider = (option("provider").and_then(NodeRef::first_expr))
                .filter(|value| value.kind() == SyntaxKind::TEMPLATE_EXPR)
                .and_then(NodeRef::template_literal)
                .map(SmolStr::from);
            let version = (option("version").and_then(NodeRef::first_expr))
                .filter(|value| value.kind() == SyntaxKind::TEMPLATE_EXPR)
                .and_then(NodeRef::template_literal)
                // One that does not parse (reported by the check of options) asks for no
                // schema of its own.
                .filter(|version| semver::Version::parse(version.trim_start_matches('v')).is_ok())
                .map(SmolStr::from);
            collect_packages(kind, label.as_deref(), version, root, &mut packages);
            (kind, name, label)
        }),
        _ => None,
    };
    if declares.is_some() && may_invoke {
        collect_invoke_packages(root, &mut packages);
    }
    if declares.is_none() && root.kind() == SyntaxKind::BLOCK {
        let type_word = root
            .token(&[SyntaxKind::IDENT])
            .map(|t| SmolStr::new(t.text()));
        let first_label = (root.children_where(|kind| kind == SyntaxKind::BLOCK_LABEL))
            .next()
            .and_then(NodeRef::label_value)
            .map(|label| SmolStr::new(label.as_ref()));
        outline.broken_names = type_word.into_iter().chain(first_label).collect();
    }
    outline.declares = declares;
    outline.packages = packages.into_boxed_slice();
    outline
}

/// Whether a block's type keyword is `name`.
fn block_type_is(block: NodeRef<'_>, name: &str) -> bool {
    block
        .token(&[SyntaxKind::IDENT])
        .is_some_and(|t| t.text() == name)
}

/// The item tree of a file, shared with `File::declarations` once synced (so syncing an
/// edit that left it equal compares two pointers, not every declaration). Reads the
/// summary it is synced to: when that is set, this runs once more and returns it.
#[salsa::tracked(returns(ref))]
pub fn item_tree(db: &dyn salsa::Database, file: File) -> Arc<ItemTree> {
    // Sized once for every item (most declare a name of their own): growing the list and
    // the map item by item copied them and rehashed the names (31k resources in one file:
    // this query's share of a check's samples 1.8% -> 1.6%).
    let count = file.items(db).len();
    let mut items = Vec::with_capacity(count);
    let mut packages = Vec::new();
    let mut component_sources = Vec::new();
    let mut seen: FxHashMap<(DeclKind, SmolStr), u32> =
        FxHashMap::with_capacity_and_hasher(count, Default::default());
    let mut broken_names = Vec::new();
    for (source, outline) in outlined_items(db, file) {
        let Some((kind, name, label)) = &outline.declares else {
            broken_names.extend(outline.broken_names.iter().cloned());
            continue;
        };
        // Sorted and deduplicated below; runs of items naming the same package (most
        // resources of a file) go in once.
        for package in &outline.packages {
            if packages.last() != Some(package) {
                packages.push(package.clone());
            }
        }
        if *kind == DeclKind::Component
            && let Some(dir) = label
        {
            component_sources.push(dir.clone());
        }
        let index = seen.entry((*kind, name.clone())).or_insert(0);
        items.push(Item {
            key: ItemKey {
                kind: *kind,
                name: name.clone(),
                index: *index,
            },
            label: label.clone(),
            ranged: outline.ranged,
            quoted_provider: outline.quoted_provider.clone(),
            source,
        });
        *index += 1;
    }
    packages.sort();
    packages.dedup();
    let tree = ItemTree {
        items: items.into_boxed_slice(),
        packages: packages.into_boxed_slice(),
        component_sources: component_sources.into_boxed_slice(),
        broken_names: broken_names.into_boxed_slice(),
    };
    // The synced summary itself when equal: syncing then compares two pointers at every
    // later edit, not the trees (this runs again after an item's first edit, for one).
    let synced = file.declarations(db);
    if **synced == tree {
        synced.clone()
    } else {
        Arc::new(tree)
    }
}

/// The name and main label of a block with well-formed labels.
fn block_name_and_label(kind: DeclKind, labels: &[Cow<'_, str>]) -> (SmolStr, Option<SmolStr>) {
    let label = |i: usize| labels.get(i).map(SmolStr::new);
    match kind {
        DeclKind::Hook => (label(1).unwrap_or_default(), label(0)),
        DeclKind::Pulumi => (SmolStr::new("pulumi"), None),
        DeclKind::Package => (label(0).unwrap_or_default(), None),
        _ => (label(0).unwrap_or_default(), label(1)),
    }
}

/// Whether a block of `kind` has an acceptable number (and, for hooks, kind) of labels.
pub(crate) fn labels_fit(kind: DeclKind, labels: &[&str]) -> bool {
    let (min, max) = kind.label_counts();
    (min..=max).contains(&labels.len())
        && (kind != DeclKind::Hook || matches!(labels[0], "resource" | "error"))
}

/// A package an item names: with the version a resource's options ask for, or the one a
/// `package` block pins (`pinned`: one version per package per program, and a package
/// block decides it).
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct PackageUse {
    pub name: SmolStr,
    pub version: Option<SmolStr>,
    pub pinned: bool,
    /// For a `package` block with a download URL or a parameterization: what names its
    /// schema in Pulumi's cache (`<base>-<version>-<hash>[-<hash>].json`). Boxed: rare,
    /// and every resource's outline holds a `PackageUse`.
    pub cached_as: Option<Box<CachedPackage>>,
}

/// What a `package` block says of where its schema comes from, as Pulumi's cache names it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct CachedPackage {
    pub base_name: SmolStr,
    pub base_version: SmolStr,
    pub download_url: Option<SmolStr>,
    /// The parameterization's name, version and base64 value.
    pub parameterization: Option<(SmolStr, SmolStr, SmolStr)>,
}

/// The packages a block names: its type token's with the literal `version` its options
/// ask for, or the one a `package` block describes.
fn collect_packages(
    kind: DeclKind,
    label: Option<&str>,
    version: Option<SmolStr>,
    block: NodeRef<'_>,
    packages: &mut Vec<PackageUse>,
) {
    // An SDK class path (`aws.s3.Bucket`) names its package too, so the error can say
    // which type token it is.
    if matches!(kind, DeclKind::Resource | DeclKind::Read)
        && let Some(package) = label.and_then(|l| token_package(l).or_else(|| sdk_class_package(l)))
    {
        packages.push(PackageUse {
            name: SmolStr::new(package),
            version,
            pinned: false,
            cached_as: None,
        });
    }
    // `package` blocks are few: read with the typed AST.
    if kind == DeclKind::Package
        && let Some(block) = ast::Block::cast(block.to_syntax_node())
        && let Some(name) = package_block_name(&block)
    {
        packages.push(PackageUse {
            name: SmolStr::new(name),
            version: package_block_version(&block).map(SmolStr::new),
            pinned: true,
            cached_as: cached_package(&block).map(Box::new),
        });
    }
}

/// The package of an SDK class path (`aws` of `aws.s3.Bucket`).
fn sdk_class_package(label: &str) -> Option<&str> {
    let (package, _) = label.split_once('.').filter(|_| !label.contains(':'))?;
    pcl_syntax::is_identifier(package).then_some(package)
}

/// The packages of the literal tokens of `invoke` calls inside one item: a walk over its
/// nodes that looks at the name of each call.
fn collect_invoke_packages(item: NodeRef<'_>, packages: &mut Vec<PackageUse>) {
    item.for_each_of_kind(SyntaxKind::CALL_EXPR, |call| {
        if !call.call_name_is(pcl_syntax::INVOKE) {
            return;
        }
        let first = (call.child(SyntaxKind::ARG_LIST)).and_then(NodeRef::first_expr);
        if let Some(template) = first.filter(|e| e.kind() == SyntaxKind::TEMPLATE_EXPR)
            && let Some(token) = template.template_literal()
            && let Some(package) = token_package(&token)
        {
            packages.push(PackageUse {
                name: SmolStr::new(package),
                version: None,
                pinned: false,
                cached_as: None,
            });
        }
    });
}

/// The package a provider resource's token configures (`pulumi:providers:aws` is `aws`);
/// `None` for the token of any other resource.
pub(crate) fn provider_package(token: &str) -> Option<&str> {
    token.strip_prefix("pulumi:providers:")
}

/// The package a resource or function token belongs to (`pulumi:providers:aws` is
/// `aws`); `None` for malformed tokens.
pub fn token_package(token: &str) -> Option<&str> {
    if let Some(provider) = provider_package(token) {
        return (!provider.is_empty()).then_some(provider);
    }
    pcl_schema::package_of(token)
}

/// The package a `package` block describes: its parameterization's name, else its base
/// provider's, else its (deprecated) label.
pub(crate) fn package_block_name(block: &ast::Block) -> Option<String> {
    let body = block.body()?;
    let literal = |body: &ast::Body, name: &str| {
        let attr = body
            .attributes()
            .find(|a| a.name().is_some_and(|n| n.text() == name))?;
        match attr.value()? {
            ast::Expr::Template(template) => template.literal_value(),
            _ => None,
        }
    };
    let parameterized = (body.blocks())
        .find(|b| {
            b.type_name()
                .is_some_and(|t| t.text() == "parameterization")
        })
        .and_then(|b| b.body())
        .and_then(|b| literal(&b, "name"));
    parameterized
        .or_else(|| literal(&body, "baseProviderName"))
        .or_else(|| block.labels().next().and_then(|l| l.value()))
}

/// The version of the package a `package` block describes: its parameterization's, else
/// its base provider's.
/// A `package` block's cache description, when it has a download URL or a
/// parameterization (other packages are found under their plain names).
fn cached_package(block: &ast::Block) -> Option<CachedPackage> {
    let body = block.body()?;
    let literal = |body: &ast::Body, name: &str| {
        let attr = (body.attributes()).find(|a| a.name().is_some_and(|n| n.text() == name))?;
        match attr.value()? {
            ast::Expr::Template(template) => template.literal_value().map(SmolStr::new),
            _ => None,
        }
    };
    let base_name = literal(&body, "baseProviderName").or_else(|| {
        block
            .labels()
            .next()
            .and_then(|l| l.value())
            .map(SmolStr::new)
    })?;
    let base_version = literal(&body, "baseProviderVersion")?;
    let download_url = literal(&body, "baseProviderDownloadUrl");
    let parameterization = (body.blocks())
        .find(|b| {
            b.type_name()
                .is_some_and(|t| t.text() == "parameterization")
        })
        .and_then(|b| b.body())
        .and_then(|p| {
            Some((
                literal(&p, "name")?,
                literal(&p, "version")?,
                literal(&p, "value")?,
            ))
        });
    if download_url.is_none() && parameterization.is_none() {
        return None;
    }
    Some(CachedPackage {
        base_name,
        base_version,
        download_url,
        parameterization,
    })
}

fn package_block_version(block: &ast::Block) -> Option<String> {
    let body = block.body()?;
    let literal = |body: &ast::Body, name: &str| {
        let attr = body
            .attributes()
            .find(|a| a.name().is_some_and(|n| n.text() == name))?;
        match attr.value()? {
            ast::Expr::Template(template) => template.literal_value(),
            _ => None,
        }
    };
    match (body.blocks()).find(|b| {
        b.type_name()
            .is_some_and(|t| t.text() == "parameterization")
    }) {
        Some(parameterization) => literal(&parameterization.body()?, "version"),
        None => literal(&body, "baseProviderVersion"),
    }
}

/// A declaration's syntax (offset-free) and where it starts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlacedItem {
    pub syntax: ItemSyntax,
    pub offset: TextSize,
}

/// Each declaration of a file by key, with its syntax and where it starts. Not compared
/// (`no_eq`): offsets move with most edits; only range resolution and navigation read it.
#[salsa::tracked(returns(ref), no_eq)]
pub fn file_items(db: &dyn salsa::Database, file: File) -> FxHashMap<ItemKey, PlacedItem> {
    let offsets: FxHashMap<ItemSource, TextSize> = (file.items(db).iter().copied())
        .zip(parse(db, file).item_starts())
        .collect();
    (file.declarations(db).items.iter())
        .map(|item| {
            let syntax = PlacedItem {
                syntax: item.source.syntax(db).clone(),
                offset: offsets.get(&item.source).copied().unwrap_or_default(),
            };
            (item.key.clone(), syntax)
        })
        .collect()
}

/// Where each of a list of declarations is in it. Declarations are interned file by file
/// as the program lists them, so their ids are nearly consecutive: a table by id, one
/// array read a lookup, with a hash map when the ids are spread. The program graph maps
/// dependencies to places with it (a hash map of a program's 38k declarations was a third
/// of its time, on the serial path of a check), and a declaration's item is found with a
/// file's (`decl_positions`; a table of item indices by key hash, which hashed and compared
/// keys, was 3% of a 31k-resource file's check).
#[derive(PartialEq, Eq, Debug)]
pub(crate) enum DeclIndex {
    /// Index plus one by id, from the least id; zero for none.
    Dense {
        first: u32,
        slots: Vec<u32>,
    },
    Sparse(FxHashMap<u32, usize>),
}

impl DeclIndex {
    pub(crate) fn new(decls: &[DeclId<'_>]) -> DeclIndex {
        DeclIndex::of_ids(&decls.iter().map(|d| d.as_id().index()).collect::<Vec<_>>())
    }

    /// The index of distinct ids, by id.
    fn of_ids(ids: &[u32]) -> DeclIndex {
        let (Some(&first), Some(&last)) = (ids.iter().min(), ids.iter().max()) else {
            return DeclIndex::Sparse(FxHashMap::default());
        };
        let span = (last - first) as usize + 1;
        if span > ids.len().saturating_mul(4).max(64) {
            return DeclIndex::Sparse(ids.iter().enumerate().map(|(i, &id)| (id, i)).collect());
        }
        let mut slots = vec![0u32; span];
        for (i, &id) in ids.iter().enumerate() {
            slots[(id - first) as usize] = i as u32 + 1;
        }
        DeclIndex::Dense { first, slots }
    }

    pub(crate) fn get(&self, decl: DeclId<'_>) -> Option<usize> {
        self.get_id(decl.as_id().index())
    }

    fn get_id(&self, id: u32) -> Option<usize> {
        match self {
            DeclIndex::Dense { first, slots } => {
                let slot = *slots.get(id.checked_sub(*first)? as usize)?;
                (slot != 0).then(|| slot as usize - 1)
            }
            DeclIndex::Sparse(map) => map.get(&id).copied(),
        }
    }
}

/// Where each declaration of a file is among its summary's items (`DeclIndex`). Keyed
/// by the declaration's own [`ProgramFile`]: a query of two arguments interns the pair
/// at each call, and every declaration's `decl_item` asks this one.
#[salsa::tracked(returns(ref))]
fn decl_positions<'db>(db: &'db dyn salsa::Database, unit: ProgramFile<'db>) -> DeclIndex {
    DeclIndex::new(file_decls(db, unit.program(db), unit.file(db)))
}

/// A declaration's item in its file's `declarations` summary (an input of medium
/// durability): what a query may read of a declaration without depending on its syntax.
pub(crate) fn decl_item<'db>(db: &'db dyn salsa::Database, decl: DeclId<'db>) -> Option<&'db Item> {
    let file = decl.file(db);
    // `file_decls` lists the declarations in the order of the summary's items.
    let position = decl_positions(db, decl.unit(db)).get(decl)?;
    file.declarations(db).items.get(position)
}

/// A resource or read whose options set no `range`, which is typed by its token alone (its
/// schema's outputs): its token and whether it is a read. Read from the declarations
/// summary, so what asks does not depend on the block's syntax.
pub(crate) fn typed_by_token<'db>(
    db: &'db dyn salsa::Database,
    decl: DeclId<'db>,
) -> Option<(&'db str, bool)> {
    if !matches!(decl.kind(db), DeclKind::Resource | DeclKind::Read) {
        return None;
    }
    let item = decl_item(db, decl)?;
    item_typed_by_token(item)
}

/// [`typed_by_token`] of the declaration an item of a summary declares.
pub(crate) fn item_typed_by_token(item: &Item) -> Option<(&str, bool)> {
    let read = match item.key.kind {
        DeclKind::Resource => false,
        DeclKind::Read => true,
        _ => return None,
    };
    (!item.ranged).then(|| (item.label.as_deref().unwrap_or_default(), read))
}

/// A declaration of a program: its file and its key there. Immortal, so declarations
/// keep their identity (and their memos) across edits that do not remove them.
#[salsa::interned(revisions = usize::MAX, debug)]
pub struct DeclId<'db> {
    #[returns(copy)]
    pub program: Program,
    #[returns(copy)]
    pub file: File,
    /// `program` and `file` as one interned value (the same for every declaration of the
    /// file), for what is kept per file of a program.
    #[returns(copy)]
    pub unit: ProgramFile<'db>,
    #[returns(ref)]
    pub key: ItemKey,
}

/// A file of a program, interned once per file by [`file_decls`].
#[salsa::interned(revisions = usize::MAX, debug)]
pub struct ProgramFile<'db> {
    #[returns(copy)]
    pub program: Program,
    #[returns(copy)]
    pub file: File,
}

impl<'db> DeclId<'db> {
    pub fn kind(self, db: &'db dyn salsa::Database) -> DeclKind {
        self.key(db).kind
    }

    pub fn name(self, db: &'db dyn salsa::Database) -> &'db SmolStr {
        &self.key(db).name
    }
}

/// The declaration's item's syntax; equal across edits elsewhere in the file.
#[salsa::tracked(returns(clone))]
pub fn decl_syntax<'db>(db: &'db dyn salsa::Database, decl: DeclId<'db>) -> Option<DeclSyntax> {
    decl_item(db, decl).map(|item| DeclSyntax(item.source.syntax(db).clone()))
}

/// A declaration's syntax, compared by identity first: after a reparse that kept the
/// declaration's item (`Parse::reparse`), the old and the new are one handle, and
/// comparing them costs nothing; otherwise they are compared element by element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclSyntax(pub ItemSyntax);

/// Where the declaration starts in its file.
pub fn decl_offset<'db>(db: &'db dyn salsa::Database, decl: DeclId<'db>) -> TextSize {
    (file_items(db, decl.file(db)).get(decl.key(db))).map_or(TextSize::from(0), |item| item.offset)
}

/// The declarations of a program, file by file in source order.
#[salsa::tracked(returns(ref))]
pub fn program_decls<'db>(db: &'db dyn salsa::Database, program: Program) -> Box<[DeclId<'db>]> {
    (program.files(db).iter())
        .flat_map(|&file| file_decls(db, program, file).iter().copied())
        .collect()
}

/// The declarations of one file of a program, in source order: interned once per file,
/// not by every query that walks them (the program's list, the file's checking order, the
/// dependencies of each run of declarations). A declaration's id follows the order in
/// which files are asked for this (drivers ask in program order, on one thread).
#[salsa::tracked(returns(ref))]
pub fn file_decls<'db>(
    db: &'db dyn salsa::Database,
    program: Program,
    file: File,
) -> Box<[DeclId<'db>]> {
    let unit = ProgramFile::new(db, program, file);
    (file.declarations(db).items.iter())
        .map(|item| DeclId::new(db, program, file, unit, item.key.clone()))
        .collect()
}

/// The packages a program names, sorted: what the driver's schema pull loop loads.
#[salsa::tracked(returns(ref))]
pub fn required_packages(db: &dyn salsa::Database, program: Program) -> Box<[PackageUse]> {
    let mut res: Vec<_> = (program.files(db).iter())
        .flat_map(|&file| file.declarations(db).packages.iter().cloned())
        .collect();
    // By name, each name's uses in file order (the first `package` block wins, as Go's).
    res.sort_by(|a, b| a.name.cmp(&b.name));
    res.dedup();
    res.into_boxed_slice()
}

/// Problems with a file's top-level structure, with ranges: blocks of unknown type
/// (warnings: they are ignored) and blocks with the wrong labels (errors: they declare
/// nothing).
#[salsa::tracked(returns(ref))]
pub fn structure_diagnostics(db: &dyn salsa::Database, file: File) -> Vec<StructureProblem> {
    let problems = structure_problems(db, file);
    if problems.is_empty() {
        return Vec::new();
    }
    let lenient = crate::input::leniency(db).beyond_go;
    // Only now the offsets, which move with most edits.
    let offsets = parse(db, file).item_starts();
    (problems.iter())
        .filter_map(|(item, problem)| {
            let offset = offsets.get(*item)?;
            let severity = match problem.code {
                pcl_diagnostics::codes::UNKNOWN_BLOCK if lenient => {
                    pcl_diagnostics::Severity::Warning
                }
                _ => problem.severity,
            };
            let fix = (problem.fix.as_ref()).map(|(message, edits)| {
                let edits = (edits.iter())
                    .map(|(range, text)| (*range + *offset, text.clone()))
                    .collect();
                (message.clone(), edits)
            });
            Some(StructureProblem {
                range: problem.range + *offset,
                severity,
                fix,
                ..problem.clone()
            })
        })
        .collect()
}

/// The structure problems of a file's items: each item's index and its problem, with a
/// range relative to the item. Equal unless an item's problems change.
#[salsa::tracked(returns(ref))]
fn structure_problems(db: &dyn salsa::Database, file: File) -> Vec<(usize, StructureProblem)> {
    (outlined_items(db, file).enumerate())
        .flat_map(|(i, (_, outline))| {
            (outline.problems.iter()).map(move |problem| (i, problem.clone()))
        })
        .collect()
}

/// The names a file's Terraform blocks declare, which PCL does not read (`variable
/// "region" {}`, the attributes of `locals { .. }`), with the block's type: for the note on
/// a later use of one, sorted by name. Read from the items with an unknown block type
/// only; equal unless those change.
#[salsa::tracked(returns(ref))]
pub(crate) fn terraform_names(db: &dyn salsa::Database, file: File) -> Box<[(SmolStr, SmolStr)]> {
    let items = file.items(db);
    let mut names = Vec::new();
    for (index, problem) in structure_problems(db, file).iter() {
        if problem.code != pcl_diagnostics::codes::UNKNOWN_BLOCK {
            continue;
        }
        let Some(source) = items.get(*index) else {
            continue;
        };
        let root = source.syntax(db).root();
        let Some(kind) = root.token(&[SyntaxKind::IDENT]) else {
            continue;
        };
        let kind = SmolStr::new(kind.text());
        match kind.as_str() {
            "variable" => {
                let label = root.children_where(|k| k == SyntaxKind::BLOCK_LABEL).next();
                if let Some(name) = label.and_then(|label| label.label_value()) {
                    names.push((SmolStr::new(name), kind.clone()));
                }
            }
            "locals" => {
                let body = root.child(SyntaxKind::BODY);
                for attribute in body
                    .into_iter()
                    .flat_map(|b| b.children_where(|k| k == SyntaxKind::ATTRIBUTE))
                {
                    if let Some(name) = attribute.token(&[SyntaxKind::IDENT]) {
                        names.push((SmolStr::new(name.text()), kind.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    // Sorted by name, for lookups by name (a use of each of many is no quadratic walk).
    names.sort_unstable();
    names.into_boxed_slice()
}

/// A fix that writes Terraform's `variable` or `locals` block as PCL: `variable "region" {
/// default = "x" }` as `config region "string" { ... }` (its type from its `type` or its
/// default: a string, a number or a bool; only with no attribute but those and
/// `description`), `locals { a = 1 }` as its attributes at the top level.
fn terraform_block_fix(
    block: NodeRef<'_>,
    type_name: &str,
) -> Option<(String, Vec<(pcl_syntax::TextRange, String)>)> {
    let body = block.child(SyntaxKind::BODY)?;
    if body
        .children_where(|kind| kind == SyntaxKind::BLOCK)
        .next()
        .is_some()
    {
        return None;
    }
    let type_token = block.token(&[SyntaxKind::IDENT])?;
    match type_name {
        "variable" => {
            let mut labels = block.children_where(|kind| kind == SyntaxKind::BLOCK_LABEL);
            let (label, None) = (labels.next()?, labels.next()) else {
                return None;
            };
            let name = label.label_value()?;
            if !pcl_syntax::is_identifier(&name) {
                return None;
            }
            // The type Terraform's `type` names (`string`, `number`, `bool`), else the
            // default's, else a string; `type` itself is no attribute of a config.
            let (mut declared, mut of_default) = (None, None);
            let mut attributes = 0;
            for attribute in body.children_where(|kind| kind == SyntaxKind::ATTRIBUTE) {
                attributes += 1;
                let value = attribute.children().last()?;
                match attribute.token(&[SyntaxKind::IDENT])?.text() {
                    "description" => {}
                    "type" => {
                        let word = (value.kind() == SyntaxKind::VARIABLE_EXPR)
                            .then(|| value.token(&[SyntaxKind::IDENT]))
                            .flatten()?;
                        let ty = (["string", "number", "bool"].into_iter())
                            .find(|t| *t == word.text())?;
                        declared = Some((ty, attribute.text_range()));
                    }
                    "default" => of_default = Some(literal_type(value)?),
                    _ => return None,
                }
            }
            let ty = (declared.map(|(ty, _)| ty))
                .or(of_default)
                .unwrap_or("string");
            let mut edits = vec![
                (type_token.text_range(), "config".to_owned()),
                (label.text_range(), format!("{name} \"{ty}\"")),
            ];
            if let Some((_, attribute)) = declared {
                // The body empties when `type` was all it held.
                let removed = match attributes {
                    1 => {
                        let open = block.token(&[SyntaxKind::L_CURLY])?.text_range();
                        let close = block.token(&[SyntaxKind::R_CURLY])?.text_range();
                        pcl_syntax::TextRange::new(open.end(), close.start())
                    }
                    _ => attribute,
                };
                edits.push((removed, String::new()));
            }
            Some((format!("write as `config {name} \"{ty}\"`"), edits))
        }
        "locals" => {
            let open = block.token(&[SyntaxKind::L_CURLY])?;
            let close = block.token(&[SyntaxKind::R_CURLY])?;
            let header = pcl_syntax::TextRange::new(
                type_token.text_range().start(),
                open.text_range().end(),
            );
            Some((
                "write its attributes at the top level".to_owned(),
                vec![(header, String::new()), (close.text_range(), String::new())],
            ))
        }
        _ => None,
    }
}

/// The config type of a literal default: a string, a number or a bool.
fn literal_type(value: NodeRef<'_>) -> Option<&'static str> {
    match value.kind() {
        SyntaxKind::TEMPLATE_EXPR => Some("string"),
        SyntaxKind::LITERAL_EXPR if value.token(&[SyntaxKind::NUMBER]).is_some() => Some("number"),
        SyntaxKind::LITERAL_EXPR
            if value
                .token(&[SyntaxKind::TRUE_KW, SyntaxKind::FALSE_KW])
                .is_some() =>
        {
            Some("bool")
        }
        _ => None,
    }
}

/// What PCL writes for a top-level block of Terraform (or a section of Pulumi YAML) that
/// a newcomer writes.
fn foreign_block(type_name: &str) -> Option<&'static str> {
    Some(match type_name {
        "variable" | "variables" => {
            "Terraform's variables are configs in PCL: `config name \"string\" { default = ... }`, read as `name`"
        }
        "locals" => {
            "Terraform's locals are top-level attributes in PCL: write `name = value` outside any block"
        }
        "module" => {
            "Terraform's modules are components in PCL: `component name \"./dir\" { inputs }`"
        }
        "data" => {
            "Terraform's data sources are functions in PCL: `name = invoke(\"pkg:module:function\", { arguments })`"
        }
        "provider" => {
            "a provider is a resource in PCL: `resource name \"pulumi:providers:pkg\" { settings }`, named in `options { provider = name }`"
        }
        "terraform" => "PCL's requirements go in `pulumi { requiredVersionRange = \"...\" }`",
        "outputs" | "export" => "PCL's stack outputs are `output name { value = ... }` blocks",
        "resources" => {
            "PCL writes one block per resource: `resource name \"pkg:module:Type\" { inputs }`"
        }
        "moved" | "import" | "removed" => {
            "Terraform's state blocks have no PCL form: an `import` is `options { import = \"id\" }` on the resource"
        }
        "check" => "Terraform's `check` assertions have no PCL form",
        _ => return None,
    })
}

/// A top-level block's kind and label values when it declares something; otherwise
/// `None`, with the reason in `problems` where it is the file's structure: an unknown
/// block type (a warning: it is ignored) or labels that do not fit the kind (an error).
/// A block whose labels fit but are not all literal declares nothing and is not reported
/// here (the label is an expression, which the checker of its kind does not accept).
fn block_labels<'a>(
    block: NodeRef<'a>,
    problems: &mut Vec<StructureProblem>,
) -> Option<(DeclKind, Vec<Cow<'a, str>>)> {
    let type_token = block.token(&[SyntaxKind::IDENT])?;
    let type_name = type_token.text();
    let Some(kind) = DeclKind::from_block_type(type_name) else {
        // No body: the parser reported the missing `{` (`const x = 1`, `import pulumi`),
        // which is the one cause.
        block.child(SyntaxKind::BODY)?;
        let closest = pcl_types::closest_name(type_name, BLOCK_TYPES.iter().copied());
        let note = match (foreign_block(type_name), &closest) {
            (Some(way), _) => way.to_owned(),
            (None, Some(known)) => format!("did you mean `{known}`?"),
            (None, None) => format!("PCL's top-level blocks are {}", BLOCK_TYPES.join(", ")),
        };
        let misspelt = (foreign_block(type_name).is_none())
            .then_some(closest)
            .flatten()
            .map(|known| {
                let edit = (type_token.text_range(), known.to_string());
                (format!("replace with `{known}`"), vec![edit])
            });
        problems.push(StructureProblem {
            code: pcl_diagnostics::codes::UNKNOWN_BLOCK,
            // Beyond Go, which ignores the block: a warning only under `--lenient`
            // (`structure_diagnostics`).
            severity: pcl_diagnostics::Severity::Error,
            message: format!("unknown block type `{type_name}`"),
            range: type_token.text_range(),
            note,
            fix: terraform_block_fix(block, type_name).or(misspelt),
        });
        return None;
    };
    let labels: Vec<NodeRef<'_>> =
        (block.children_where(|kind| kind == SyntaxKind::BLOCK_LABEL)).collect();
    let values: Vec<Option<Cow<'_, str>>> = labels.iter().map(|l| l.label_value()).collect();
    let lenient: Vec<&str> = values.iter().map(|v| v.as_deref().unwrap_or("")).collect();
    if labels_fit(kind, &lenient) {
        if kind == DeclKind::Package && !labels.is_empty() {
            let names_package = (block.child(SyntaxKind::BODY)).is_some_and(|body| {
                body.children_where(|kind| kind == SyntaxKind::ATTRIBUTE)
                    .any(|attribute| {
                        (attribute.token(&[SyntaxKind::IDENT]))
                            .is_some_and(|name| name.text() == "baseProviderName")
                    })
            });
            let note = if names_package {
                "remove the label: `baseProviderName` inside the block already names the package"
            } else {
                "set `baseProviderName` inside the block instead"
            };
            problems.push(StructureProblem {
                code: pcl_diagnostics::codes::INVALID_LABELS,
                severity: pcl_diagnostics::Severity::Warning,
                message: "package block labels are deprecated".to_owned(),
                range: labels[0].text_range(),
                note: note.to_owned(),
                fix: None,
            });
        }
        return values
            .into_iter()
            .collect::<Option<Vec<Cow<'_, str>>>>()
            .map(|v| (kind, v));
    }
    let (message, note) = match kind {
        DeclKind::Resource | DeclKind::Read => (
            format!("a `{type_name}` block takes two labels, a name and a type token"),
            format!("write `{type_name} name \"pkg:module:Type\" {{ .. }}`"),
        ),
        DeclKind::Config => (
            "a `config` block takes a name and an optional type".to_owned(),
            "write `config name \"string\" { .. }`".to_owned(),
        ),
        DeclKind::Output => (
            "an `output` block takes a name and an optional type".to_owned(),
            "write `output name { value = .. }`".to_owned(),
        ),
        DeclKind::Component => (
            "a `component` block takes a name and a source directory".to_owned(),
            "write `component name \"./dir\" { .. }`".to_owned(),
        ),
        DeclKind::Hook => (
            "a `hook` block takes a kind (`resource` or `error`) and a name".to_owned(),
            "write `hook \"resource\" name { command = [..] }`".to_owned(),
        ),
        DeclKind::Pulumi => (
            "a `pulumi` block takes no labels".to_owned(),
            "write `pulumi { requiredVersionRange = \">=3.0.0\" }`".to_owned(),
        ),
        DeclKind::Package | DeclKind::Local => (
            "a `package` block takes at most one label".to_owned(),
            "set `baseProviderName` inside the block".to_owned(),
        ),
    };
    let range = match (labels.first(), labels.last()) {
        (Some(first), Some(last)) => first.text_range().cover(last.text_range()),
        _ => type_token.text_range(),
    };
    problems.push(StructureProblem {
        code: pcl_diagnostics::codes::INVALID_LABELS,
        severity: pcl_diagnostics::Severity::Error,
        message,
        range,
        note,
        fix: None,
    });
    None
}

/// The top-level block types, for suggestions.
const BLOCK_TYPES: &[&str] = &[
    "resource",
    "read",
    "config",
    "output",
    "component",
    "hook",
    "pulumi",
    "package",
];

/// A problem [`structure_diagnostics`] found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StructureProblem {
    pub code: pcl_diagnostics::Code,
    pub severity: pcl_diagnostics::Severity,
    pub message: String,
    pub range: pcl_syntax::TextRange,
    pub note: String,
    /// A fix: what it does, and its edits (ranges relative to the item, then to the file,
    /// as `range`).
    pub fix: Option<(String, Vec<(pcl_syntax::TextRange, String)>)>,
}

#[cfg(test)]
mod tests {
    use super::DeclIndex;

    /// Ids close together are looked up in a table, ids far apart in a map: both find
    /// each id's place and nothing else.
    #[test]
    fn declarations_are_found_by_id_dense_or_sparse() {
        for ids in [vec![12, 10, 11, 15], vec![7, 1_000_000, 3, 500]] {
            let index = DeclIndex::of_ids(&ids);
            let dense = matches!(index, DeclIndex::Dense { .. });
            assert_eq!(dense, ids[0] == 12, "{ids:?}");
            for (i, &id) in ids.iter().enumerate() {
                assert_eq!(index.get_id(id), Some(i), "{ids:?}");
            }
            for absent in [0, 9, 13, 16, 999_999, u32::MAX] {
                assert_eq!(index.get_id(absent), None, "{absent} in {ids:?}");
            }
        }
        assert_eq!(DeclIndex::of_ids(&[]).get_id(0), None);
    }
}
