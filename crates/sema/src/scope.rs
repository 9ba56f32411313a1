//! Names across a program: the program scope (every declaration by name, duplicates
//! reported), `bind` (what each name a declaration uses resolves to: the firewall that
//! keeps a new file from re-checking declarations whose names resolve as before), the
//! dependency graph with its topological order, and reference cycles.

use std::sync::Arc;

use pcl_diagnostics::{Severity, codes};
use pcl_types::CandidateNames;
use rustc_hash::{FxHashMap, FxHashSet};
use smol_str::SmolStr;

use crate::diagnostics::{Located, SemaDiagnostic, Site};
use crate::hir::{BlockId, Body, Expr, ExprId, body, push_children};
use crate::input::{File, Program};
use crate::items::{DeclId, DeclKind, file_decls, program_decls, provider_package};

/// Options whose values are lists of the resource's own input property names, bound in
/// a scope of their own (never references to declarations).
pub(crate) const PROPERTY_LIST_OPTIONS: &[&str] = &[
    "ignoreChanges",
    "hideDiffs",
    "replaceOnChanges",
    "additionalSecretOutputs",
];

/// Every declaration of a program by name: locals, configs, resources, components,
/// hooks and `pulumi` share one namespace, outputs have their own.
#[derive(Clone, PartialEq, Eq, Debug, Default, salsa::SalsaValue)]
pub struct ProgramScope<'db> {
    pub names: FxHashMap<ScopeName, DeclId<'db>>,
    pub outputs: FxHashMap<ScopeName, DeclId<'db>>,
    pub diagnostics: Vec<SemaDiagnostic<'db>>,
}

/// A declared name, as its declaration's key holds it (copied, not allocated, when short),
/// looked up by `&str`.
#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub struct ScopeName(SmolStr);

impl ScopeName {
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl std::borrow::Borrow<str> for ScopeName {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl std::fmt::Display for ScopeName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[salsa::tracked(returns(ref))]
pub fn program_scope<'db>(db: &'db dyn salsa::Database, program: Program) -> ProgramScope<'db> {
    let mut scope = ProgramScope::default();
    let decls = program_decls(db, program);
    scope.names.reserve(decls.len());
    for &decl in decls.iter() {
        let kind = decl.kind(db);
        if kind == DeclKind::Package {
            continue;
        }
        let name = ScopeName(decl.name(db).clone());
        if name.as_str() == "null" && kind.is_referable() {
            scope.diagnostics.push(
                SemaDiagnostic::new(
                    codes::DUPLICATE_DECLARATION,
                    Severity::Error,
                    "`null` is already declared: it is the null value".to_owned(),
                    Located::new(decl, Site::Name),
                )
                .with_note("rename the declaration"),
            );
            continue;
        }
        let map = if kind.is_referable() {
            &mut scope.names
        } else {
            &mut scope.outputs
        };
        match map.get(&name) {
            Some(&first) if kind == DeclKind::Pulumi && first.kind(db) == DeclKind::Pulumi => {
                scope.diagnostics.push(
                    SemaDiagnostic::new(
                        codes::DUPLICATE_PULUMI_BLOCK,
                        Severity::Error,
                        "a program has one `pulumi` block, and this is a second".to_owned(),
                        Located::new(decl, Site::Name),
                    )
                    .with_label(Located::new(first, Site::Name), "the first `pulumi` block")
                    .with_note("merge the two blocks' attributes into one"),
                );
            }
            Some(&first) => {
                let what = if kind == DeclKind::Output {
                    "output"
                } else {
                    "name"
                };
                scope.diagnostics.push(
                    SemaDiagnostic::new(
                        codes::DUPLICATE_DECLARATION,
                        Severity::Error,
                        format!("the {what} `{name}` is declared twice"),
                        Located::new(decl, Site::Name),
                    )
                    .with_label(Located::new(first, Site::Name), "first declared here")
                    .with_note("rename or remove one of the declarations"),
                );
            }
            None => {
                map.insert(name, decl);
            }
        }
    }
    scope
}

/// What a name used in a declaration refers to.
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub enum Resolution<'db> {
    Decl(DeclId<'db>),
    /// Nothing in the program (or a local variable: `bind` does not track scopes).
    /// Checking looks for the closest name only when it reports the name, so `bind`
    /// stays cheap.
    Unresolved,
}

/// The resolution of every name a declaration uses (outside the property-list options),
/// and the declarations it depends on, in first-use order.
#[derive(Clone, PartialEq, Eq, Debug, Default, salsa::SalsaValue)]
pub struct Bindings<'db> {
    /// The names, sorted, and what each resolves to (`resolutions[i]` for `names[i]`):
    /// exact-sized, as a declaration uses few names and every declaration's bindings are
    /// kept (a hash map's smallest table was 2% of a check's memory).
    names: Box<[SmolStr]>,
    resolutions: Box<[Resolution<'db>]>,
    pub dependencies: Box<[DeclId<'db>]>,
}

/// The most names [`Bindings::resolution`] looks through one by one.
const SCANNED_NAMES: usize = 16;

impl<'db> Bindings<'db> {
    /// What `name` resolves to, when the declaration uses it.
    pub fn resolution(&self, name: &str) -> Option<&Resolution<'db>> {
        // Most declarations use a handful of names: tested for equality one by one (which
        // compares lengths first), they are found without ordering strings at each step.
        let index = match self.names.len() <= SCANNED_NAMES {
            true => (self.names.iter()).position(|n| n.as_str() == name)?,
            false => (self.names.binary_search_by(|n| n.as_str().cmp(name))).ok()?,
        };
        Some(&self.resolutions[index])
    }

    /// The names the declaration uses that resolve to nothing.
    pub fn unresolved_names(&self) -> impl Iterator<Item = &str> {
        (self.names.iter().zip(&self.resolutions))
            .filter(|(_, resolution)| matches!(resolution, Resolution::Unresolved))
            .map(|(name, _)| name.as_str())
    }
}

/// The program's declared names (outputs' apart) for "did you mean" suggestions, sorted
/// once per program and only when some name does not resolve.
#[salsa::tracked(returns(ref))]
pub(crate) fn declared_names(db: &dyn salsa::Database, program: Program) -> CandidateNames {
    let names = program_scope(db, program).names.keys();
    CandidateNames::new(names.map(|name| name.0.clone()))
}

/// Whether `name` is one a block of `program` that declares nothing may have meant
/// ([`crate::items::ItemTree::broken_names`]).
pub(crate) fn names_broken_block(db: &dyn salsa::Database, program: Program, name: &str) -> bool {
    (program.files(db).iter())
        .any(|file| file.declarations(db).broken_names.iter().any(|n| n == name))
}

#[salsa::tracked(returns(ref))]
pub fn bind<'db>(db: &'db dyn salsa::Database, decl: DeclId<'db>) -> Bindings<'db> {
    let scope = program_scope(db, decl.program(db));
    let body = body(db, decl);
    // Borrowed from the body while they are told apart: a name is copied once, not at
    // each use.
    let mut names: Distinct<&str> = Distinct::default();
    for_each_used_name(body, |name| names.insert(name));
    let mut dependencies = Distinct::default();
    let mut names: Vec<(SmolStr, Resolution<'db>)> = (names.items.into_iter())
        .map(|name| {
            // An output only when no block that declares nothing meant the name (`hash
            // sha1(..)` for `hash = sha1(..)`, read by `output hash`): that block has its
            // error, and the output is not also read by itself.
            let target = (scope.names.get(name)).or_else(|| {
                let output = scope.outputs.get(name)?;
                (!names_broken_block(db, decl.program(db), name)).then_some(output)
            });
            let resolution = match target {
                Some(&target) => {
                    dependencies.insert(target);
                    Resolution::Decl(target)
                }
                None => Resolution::Unresolved,
            };
            (SmolStr::new(name), resolution)
        })
        .collect();
    // Copied out at their number: a list with room to spare would keep it (an allocator
    // keeps a block that shrinks by less than half), in every declaration's bindings.
    let dependencies: Box<[DeclId<'db>]> = Box::from(dependencies.items.as_slice());
    names.sort_unstable_by(|(a, _), (b, _)| a.cmp(b));
    let (names, resolutions): (Vec<_>, Vec<_>) = names.into_iter().unzip();
    Bindings {
        names: names.into_boxed_slice(),
        resolutions: resolutions.into_boxed_slice(),
        dependencies,
    }
}

/// Values kept once each, in the order first seen: compared one by one while there are
/// few (most bodies name a handful), through a hash set past [`Distinct::SCANNED`] (a
/// declaration naming 40,000 others took 1.6 s of comparisons).
struct Distinct<T> {
    items: Vec<T>,
    seen: FxHashSet<T>,
}

impl<T> Default for Distinct<T> {
    fn default() -> Self {
        Distinct {
            items: Vec::with_capacity(Self::CAPACITY),
            seen: FxHashSet::default(),
        }
    }
}

impl<T> Distinct<T> {
    /// Room for as many as most bodies use, so the list is not grown step by step.
    const CAPACITY: usize = 8;
}

impl<T: Clone + Eq + std::hash::Hash> Distinct<T> {
    const SCANNED: usize = 32;

    fn insert(&mut self, item: T) {
        let new = if self.items.len() < Self::SCANNED {
            !self.items.contains(&item)
        } else {
            if self.seen.is_empty() {
                self.seen.extend(self.items.iter().cloned());
            }
            self.seen.insert(item.clone())
        };
        if new {
            self.items.push(item);
        }
    }
}

/// Each root name of a body's expressions, in source order, outside the property-list
/// options.
fn for_each_used_name<'b>(body: &'b Body, mut used: impl FnMut(&'b str)) {
    // Rare (a resource's `options`), and few when there are any.
    let mut skipped: Vec<ExprId> = Vec::new();
    for options in body.find_blocks(BlockId::ROOT, "options") {
        for &attr in body.block(options).attrs.iter() {
            if PROPERTY_LIST_OPTIONS.contains(&body.attr_name(attr)) {
                skipped.push(body.attr(attr).value);
            }
        }
    }
    // Sorted, so a block of thousands of them is not searched through for every root.
    skipped.sort_unstable();
    // The roots go on the stack last first: the value, then the attributes in order.
    let mut stack: Vec<ExprId> = Vec::with_capacity(STACK_CAPACITY);
    let attrs = body.attrs.iter().rev().map(|a| a.value);
    stack.extend(attrs.filter(|v| skipped.binary_search(v).is_err()));
    stack.extend(body.value);
    while let Some(id) = stack.pop() {
        let expr = body.expr(id);
        if let Expr::Name(name) = expr {
            used(body.str(*name));
        }
        let from = stack.len();
        push_children(body, expr, &mut stack);
        stack[from..].reverse();
    }
}

/// Room for the expressions waiting to be visited in most bodies, so the stack is not
/// grown step by step.
const STACK_CAPACITY: usize = 32;

/// The declarations of a program in dependency order, and its reference cycles.
#[derive(Clone, PartialEq, Eq, Debug, Default, salsa::SalsaValue)]
pub struct ProgramGraph<'db> {
    /// Every declaration after the ones it depends on (cycle members together).
    pub order: Box<[DeclId<'db>]>,
    /// Each cycle's members, in the order the references run.
    pub cycles: Box<[Arc<[DeclId<'db>]>]>,
    /// The program's files in dependency order, grouped: each group after the groups its
    /// declarations read from, and files that read from each other in one group. What
    /// drivers walk with `file_check`.
    pub file_groups: Box<[Box<[File]>]>,
    /// For each run of `order` ([`ProgramGraph::runs`]), the earlier runs holding what its
    /// declarations read and must be checked to be typed: a driver on several threads may
    /// check a run's declarations as soon as those runs are checked, so the declarations
    /// of one large file are checked on every thread. Reads of a resource or read without
    /// `range` do not count: its type comes from its token, not from checking it
    /// (`decl_ty`); nor do reads within a run, which one thread checks in order.
    pub run_waits: Box<[Box<[u32]>]>,
    /// Provider resources (`pulumi:providers:*`) that no other declaration reads, in a
    /// program with resources of their package: the resources meant for them run against
    /// their package's default provider instead.
    pub unused_providers: Box<[DeclId<'db>]>,
}

/// How many declarations of [`ProgramGraph::order`] one run holds: enough that a run's
/// scheduling costs little beside checking it, few enough that two threads share a
/// file of a few hundred declarations.
const CHECK_RUN: usize = 64;

impl<'db> ProgramGraph<'db> {
    /// `order` in runs of [`CHECK_RUN`] declarations, as `run_waits` counts them.
    pub fn runs(&self) -> std::slice::Chunks<'_, DeclId<'db>> {
        self.order.chunks(CHECK_RUN)
    }
}

#[salsa::tracked(returns(ref))]
pub fn program_graph<'db>(db: &'db dyn salsa::Database, program: Program) -> ProgramGraph<'db> {
    let decls = program_decls(db, program);
    let edges = dependency_edges(
        decls,
        (program.files(db).iter()).flat_map(|&file| file_dependencies(db, program, file)),
    );
    // By the items of the files' summaries, in the order `program_decls` lists their
    // declarations: no lookup of each declaration's item.
    let typed_alone: Vec<bool> = (program.files(db).iter())
        .flat_map(|&file| file.declarations(db).items.iter())
        .map(|item| crate::items::item_typed_by_token(item).is_some())
        .collect();
    debug_assert_eq!(typed_alone.len(), decls.len());
    let file_groups = file_groups(db, program, &edges);
    let components = strongly_connected(&edges);
    let mut order = Vec::with_capacity(decls.len());
    let mut cycles = Vec::new();
    for component in components.iter() {
        let is_cycle = component.len() > 1 || edges.get(component[0]).contains(&component[0]);
        if is_cycle {
            let members = cycle_path(component, &edges);
            cycles.push(members.iter().map(|&i| decls[i]).collect::<Arc<[_]>>());
        }
        order.extend(component.iter().map(|&i| decls[i]));
    }
    ProgramGraph {
        order: order.into_boxed_slice(),
        cycles: cycles.into_boxed_slice(),
        file_groups,
        run_waits: run_waits(&components, &edges, &typed_alone),
        unused_providers: unused_providers(db, program, decls, &edges),
    }
}

/// The warning for a provider of [`ProgramGraph::unused_providers`]: a resource meant
/// for it whose options forget `provider = ...` deploys with its package's default
/// provider (the ambient region, account or cluster), and nothing fails to say so.
pub fn unused_provider_diagnostic<'db>(
    db: &'db dyn salsa::Database,
    provider: DeclId<'db>,
) -> SemaDiagnostic<'db> {
    let name = provider.name(db);
    let item = crate::items::decl_item(db, provider);
    let package = (item.and_then(|item| item.label.as_deref()))
        .and_then(provider_package)
        .unwrap_or("PACKAGE");
    SemaDiagnostic::new(
        codes::UNUSED_PROVIDER,
        Severity::Warning,
        format!("provider `{name}` is declared, but no resource uses it"),
        Located::new(provider, Site::Name),
    )
    .with_note(format!(
        "a `{package}` resource uses the default `{package}` provider unless its options name \
         another: add `options {{ provider = {name} }}` to the resources meant for `{name}`, or \
         remove it"
    ))
}

/// [`ProgramGraph::unused_providers`], from the declarations' dependency `edges`.
fn unused_providers<'db>(
    db: &'db dyn salsa::Database,
    program: Program,
    decls: &[DeclId<'db>],
    edges: &Lists,
) -> Box<[DeclId<'db>]> {
    let items = || (program.files(db).iter()).flat_map(|&file| file.declarations(db).items.iter());
    let providers: Vec<(usize, &str, &str)> = (items().enumerate())
        .filter(|(_, item)| item.key.kind == DeclKind::Resource)
        .filter_map(|(i, item)| {
            let package = provider_package(item.label.as_deref()?)?;
            Some((i, package, item.key.name.as_str()))
        })
        .collect();
    if providers.is_empty() {
        return Box::default();
    }
    // Only where a resource of the package takes the default provider can one be meant
    // for the provider (a program may declare a provider for its own sake).
    let resource_packages: FxHashSet<&str> = items()
        .filter(|item| matches!(item.key.kind, DeclKind::Resource | DeclKind::Read))
        .filter_map(|item| item.label.as_deref())
        .filter(|token| provider_package(token).is_none())
        .filter_map(crate::items::token_package)
        .collect();
    // A provider named in quotes has its own error (`provider = "k8s"`): not both.
    let quoted: FxHashSet<&str> =
        (items().filter_map(|item| item.quoted_provider.as_deref())).collect();
    let mut read = vec![false; decls.len()];
    for (decl, dependencies) in edges.iter().enumerate() {
        for &dependency in dependencies.iter().filter(|&&d| d != decl) {
            read[dependency] = true;
        }
    }
    let unused: Vec<(usize, &str)> = (providers.into_iter())
        .filter(|&(i, package, name)| {
            !read[i] && resource_packages.contains(package) && !quoted.contains(name)
        })
        .map(|(i, _, name)| (i, name))
        .collect();
    if unused.is_empty() {
        return Box::default();
    }
    // A name that resolves to nothing, one slip from an unused provider's (`provv`): its
    // error's did-you-mean names the provider, so it is not also unused.
    let unresolved: Vec<&str> = (decls.iter())
        .flat_map(|&decl| bind(db, decl).unresolved_names())
        .collect();
    (unused.into_iter())
        .filter(|&(_, name)| {
            !(unresolved.iter()).any(|n| pcl_types::closest_name(n, [name]).is_some())
        })
        .map(|(i, _)| decls[i])
        .collect()
}

/// [`ProgramGraph::run_waits`], for declarations (by index) in the order of the
/// `components`' members, with their dependency `edges`; `typed_alone` says which are
/// typed without being checked.
fn run_waits(components: &Lists, edges: &Lists, typed_alone: &[bool]) -> Box<[Box<[u32]>]> {
    let order: Vec<usize> = components.iter().flatten().copied().collect();
    let mut run_of = vec![0u32; order.len()];
    for (position, &decl) in order.iter().enumerate() {
        run_of[decl] = (position / CHECK_RUN) as u32;
    }
    (order.chunks(CHECK_RUN).enumerate())
        .map(|(run, decls)| {
            // Reads of later runs are reads within a cycle, whose members see each other
            // as `dynamic`.
            let mut waits: Vec<u32> = (decls.iter())
                .flat_map(|&decl| edges.get(decl))
                .filter(|&&read| !typed_alone[read])
                .map(|&read| run_of[read])
                .filter(|&other| (other as usize) < run)
                .collect();
            waits.sort_unstable();
            waits.dedup();
            waits.into_boxed_slice()
        })
        .collect()
}

/// The program's files grouped and ordered by the references between them
/// ([`ProgramGraph::file_groups`]): `edges` are the declarations' dependencies,
/// declarations numbered file by file as `program_decls` lists them.
fn file_groups(db: &dyn salsa::Database, program: Program, edges: &Lists) -> Box<[Box<[File]>]> {
    let files = program.files(db);
    let mut file_of = Vec::with_capacity(edges.len());
    for (i, &file) in files.iter().enumerate() {
        file_of.extend(std::iter::repeat_n(i, file.declarations(db).items.len()));
    }
    let mut file_edges: Vec<Vec<usize>> = vec![Vec::new(); files.len()];
    for (decl, dependencies) in edges.iter().enumerate() {
        for &dep in dependencies {
            let (from, to) = (file_of[decl], file_of[dep]);
            if from != to {
                file_edges[from].push(to);
            }
        }
    }
    for targets in &mut file_edges {
        targets.sort_unstable();
        targets.dedup();
    }
    let groups = strongly_connected(&Lists::from_lists(file_edges));
    (groups.iter())
        .map(|group| group.iter().map(|&i| files[i]).collect())
        .collect()
}

/// The dependency graph among `decls`: for each, the indices (in `decls`) of the ones its
/// `dependencies` name; dependencies outside `decls` are left out.
pub(crate) fn dependency_edges<'a, 'db: 'a>(
    decls: &[DeclId<'db>],
    dependencies: impl Iterator<Item = &'a Box<[DeclId<'db>]>>,
) -> Lists {
    let index = crate::items::DeclIndex::new(decls);
    let mut edges = Lists::with_capacity(decls.len());
    for dependencies in dependencies {
        edges.push((dependencies.iter()).filter_map(|&dep| index.get(dep)));
    }
    edges
}

/// Lists of indices in two allocations (where each list and its items start), not one per
/// list: a program's dependency graph has a list per declaration, most of them short.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Lists {
    starts: Vec<usize>,
    items: Vec<usize>,
}

impl Lists {
    fn with_capacity(lists: usize) -> Lists {
        let mut starts = Vec::with_capacity(lists + 1);
        starts.push(0);
        Lists {
            starts,
            items: Vec::with_capacity(lists),
        }
    }

    fn from_lists<L: IntoIterator<Item = usize>>(lists: impl IntoIterator<Item = L>) -> Lists {
        let mut res = Lists::with_capacity(0);
        for list in lists {
            res.push(list);
        }
        res
    }

    /// Add a list at the end.
    fn push(&mut self, list: impl IntoIterator<Item = usize>) {
        self.items.extend(list);
        self.starts.push(self.items.len());
    }

    /// Add a list at the end, sorted.
    fn push_sorted(&mut self, list: impl IntoIterator<Item = usize>) {
        let start = self.items.len();
        self.push(list);
        self.items[start..].sort_unstable();
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The list at `index`.
    pub(crate) fn get(&self, index: usize) -> &[usize] {
        &self.items[self.starts[index]..self.starts[index + 1]]
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &[usize]> {
        (0..self.len()).map(|index| self.get(index))
    }
}

/// What each declaration of one file of a program depends on, in source order (as
/// `program_decls` lists them), from memos of [`DECL_CHUNK`] declarations each.
/// `program_graph` reads these rather than every `bind`: after an edit it verifies in
/// constant time each chunk without an edited declaration (every chunk of an untouched
/// file), and the binds of the chunks with one.
pub fn file_dependencies<'db>(
    db: &'db dyn salsa::Database,
    program: Program,
    file: File,
) -> impl Iterator<Item = &'db Box<[DeclId<'db>]>> + 'db {
    dependency_chunks(db, program, file).flat_map(move |chunk| chunk_dependencies(db, chunk).iter())
}

/// The runs of a file's declarations whose bindings are memoized together, in order:
/// drivers bind them on several threads at once (`bind_chunk`), so the declarations of
/// one large file are not one thread's work.
pub fn dependency_chunks<'db>(
    db: &'db dyn salsa::Database,
    program: Program,
    file: File,
) -> impl Iterator<Item = DeclChunk<'db>> + 'db {
    decl_chunks(db, program, file, file.declarations(db).items.len())
}

/// The chunks that cover `count` declarations of a file of a program, in order.
pub(crate) fn decl_chunks<'db>(
    db: &'db dyn salsa::Database,
    program: Program,
    file: File,
    count: usize,
) -> impl Iterator<Item = DeclChunk<'db>> + 'db {
    (0..count)
        .step_by(DECL_CHUNK)
        .map(move |start| DeclChunk::new(db, program, file, start as u32))
}

/// Bind the declarations of a chunk (and lower their bodies), for `file_dependencies`.
pub fn bind_chunk<'db>(db: &'db dyn salsa::Database, chunk: DeclChunk<'db>) {
    let _ = chunk_dependencies(db, chunk);
}

/// How many declarations one memo of [`file_dependencies`] covers (and one of a large
/// file's check, `inference::chunk_check`): few enough that an edit re-verifies few of
/// what they read, enough that a large file has few memos to verify.
pub(crate) const DECL_CHUNK: usize = 256;

/// The key of `chunk_dependencies` and `inference::chunk_check`, in a module of its own:
/// salsa's expansion of an interned struct names `'db` where it is not used.
#[allow(unused_lifetimes)]
mod decl_chunk {
    use crate::input::{File, Program};

    /// The declarations of a file of a program from `start`, `DECL_CHUNK` of them, in the
    /// order of the query it keys: source order for `chunk_dependencies`, checking order
    /// (`file_order`) for `chunk_check`.
    #[salsa::interned(revisions = usize::MAX)]
    pub struct DeclChunk<'db> {
        #[returns(copy)]
        pub(crate) program: Program,
        #[returns(copy)]
        pub(crate) file: File,
        #[returns(copy)]
        pub(crate) start: u32,
    }
}
pub use decl_chunk::DeclChunk;

impl<'db> DeclChunk<'db> {
    /// The chunk's run of `decls`, a list of its file's declarations in its query's order.
    pub(crate) fn run<'a, T>(self, db: &'db dyn salsa::Database, decls: &'a [T]) -> &'a [T] {
        let start = (self.start(db) as usize).min(decls.len());
        &decls[start..(start + DECL_CHUNK).min(decls.len())]
    }
}

#[salsa::tracked(returns(ref))]
fn chunk_dependencies<'db>(
    db: &'db dyn salsa::Database,
    chunk: DeclChunk<'db>,
) -> Box<[Box<[DeclId<'db>]>]> {
    let decls = file_decls(db, chunk.program(db), chunk.file(db));
    (chunk.run(db, decls).iter())
        .map(|&decl| bind(db, decl).dependencies.clone())
        .collect()
}

/// The cycle a declaration is part of, if any: checking treats references between its
/// members as `dynamic` instead of following them.
pub fn decl_cycle<'db>(
    db: &'db dyn salsa::Database,
    decl: DeclId<'db>,
) -> Option<&'db Arc<[DeclId<'db>]>> {
    // The synced summary, not `program_graph`: see `summaries`.
    if !decl.program(db).has_cycles(db) {
        return None;
    }
    decl_cycle_query(db, decl).as_ref()
}

#[salsa::tracked(returns(ref))]
fn decl_cycle_query<'db>(
    db: &'db dyn salsa::Database,
    decl: DeclId<'db>,
) -> Option<Arc<[DeclId<'db>]>> {
    (program_graph(db, decl.program(db)).cycles.iter())
        .find(|cycle| cycle.contains(&decl))
        .cloned()
}

/// Tarjan's algorithm without recursion: components in reverse topological order of the
/// condensation, i.e. each after everything it depends on.
pub(crate) fn strongly_connected(edges: &Lists) -> Lists {
    const UNVISITED: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNVISITED; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Lists::with_capacity(n);
    let mut work: Vec<(usize, usize)> = Vec::new();
    let mut next = 0;
    for start in 0..n {
        if index[start] != UNVISITED {
            continue;
        }
        work.push((start, 0));
        index[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (node, ref mut edge)) = work.last_mut() {
            if let Some(&target) = edges.get(node).get(*edge) {
                *edge += 1;
                if index[target] == UNVISITED {
                    index[target] = next;
                    low[target] = next;
                    next += 1;
                    stack.push(target);
                    on_stack[target] = true;
                    work.push((target, 0));
                } else if on_stack[target] {
                    low[node] = low[node].min(index[target]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                // The component is the top of the stack down to `node`.
                let from = stack
                    .iter()
                    .rposition(|&member| member == node)
                    .unwrap_or(0);
                for &member in &stack[from..] {
                    on_stack[member] = false;
                }
                components.push_sorted(stack.drain(from..));
            }
        }
    }
    components
}

/// The members of a strongly connected component in the order references run, starting
/// from its first member: a path back to the start through the component.
fn cycle_path(component: &[usize], edges: &Lists) -> Vec<usize> {
    let start = component[0];
    let members: FxHashSet<usize> = component.iter().copied().collect();
    // Breadth-first from `start` to find the shortest way back to it.
    let mut previous: FxHashMap<usize, usize> = FxHashMap::default();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for &target in edges.get(node) {
            if !members.contains(&target) {
                continue;
            }
            if target == start {
                let mut path = vec![node];
                let mut at = node;
                while at != start {
                    at = previous[&at];
                    path.push(at);
                }
                path.reverse();
                path.dedup();
                return path;
            }
            if let std::collections::hash_map::Entry::Vacant(entry) = previous.entry(target) {
                entry.insert(node);
                queue.push_back(target);
            }
        }
    }
    component.to_vec()
}

#[cfg(test)]
mod tests {
    use super::{Lists, cycle_path, strongly_connected};

    #[test]
    fn components_come_after_their_dependencies() {
        // 0 -> 1 -> 2 -> 1, 3 -> 0
        let edges = Lists::from_lists([vec![1], vec![2], vec![1], vec![0]]);
        let components = strongly_connected(&edges);
        assert_eq!(
            components,
            Lists::from_lists([vec![1, 2], vec![0], vec![3]])
        );
        assert_eq!(cycle_path(&[1, 2], &edges), vec![1, 2]);
    }

    #[test]
    fn long_chains_do_not_recurse() {
        let n = 200_000;
        let edges = Lists::from_lists((0..n).map(|i| if i + 1 < n { vec![i + 1] } else { vec![] }));
        let components = strongly_connected(&edges);
        assert_eq!(components.len(), n);
        assert_eq!(components.get(0), [n - 1]);
    }
}
