//! Snapshots: answer questions about programs in editor terms (paths, ranges, strings).
//! Every answer is `Cancellable`: when the host changes an input while a snapshot is
//! computing, salsa unwinds and the caller gets `Err(Cancelled)` to retry.

use std::collections::BTreeMap;

use pcl_diagnostics::{Anchor, Diagnostic, FileId, Fix, Span, TextEdit, codes};
use pcl_sema::{
    BlockId, DeclId, DeclKind, File, Located, Program, SemaDiagnostic, Site, body_with_source_map,
    decl_offset, file_check, infer, program_decls, program_graph, program_scope,
    structure_diagnostics,
};
use pcl_syntax::{TextRange, TextSize};
use rustc_hash::{FxHashMap, FxHashSet};
use smol_str::SmolStr;

use crate::RootDatabase;
use crate::host::ProgramId;
use crate::suppress::{Judged, apply_suppressions, merge_missing_schemas, order_by_cause};

/// The result of a question asked of a snapshot that the host may cancel.
pub type Cancellable<T> = Result<T, salsa::Cancelled>;

/// The diagnostics of one file, sorted by position. Spans' `FileId`s index the paths
/// of the answer ([`FileDiagnostics::files`]) so labels may point into other files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDiagnostics {
    pub path: SmolStr,
    pub diagnostics: Vec<Diagnostic>,
}

/// One top-level declaration and its type, as `pcl types` prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclarationType {
    pub path: SmolStr,
    pub kind: DeclKind,
    pub name: SmolStr,
    /// The type in the reference's display syntax (parses back; for machines).
    pub ty: String,
    /// The type for people (`pcl_types::readable`).
    pub readable: String,
    /// Where the declaration starts in its file.
    pub offset: u32,
}

/// A snapshot of the database.
pub struct Analysis {
    db: RootDatabase,
    files: BTreeMap<SmolStr, File>,
    programs: BTreeMap<SmolStr, Program>,
    /// How many threads whole-program questions may use.
    jobs: usize,
    /// The packages on the schema search path, which completion offers: listed on the
    /// first completion that needs them, shared with the host until its search path or
    /// the files on it change.
    pub(crate) available_packages: AvailablePackages,
}

/// The names of the packages whose schemas are on a search path, listed once (a few
/// directory reads), when first asked.
#[derive(Clone)]
pub(crate) struct AvailablePackages {
    search_path: pcl_schema::SearchPath,
    names: std::sync::Arc<std::sync::OnceLock<Box<[String]>>>,
}

impl AvailablePackages {
    pub(crate) fn new(search_path: pcl_schema::SearchPath) -> AvailablePackages {
        AvailablePackages {
            search_path,
            names: std::sync::Arc::default(),
        }
    }

    pub(crate) fn names(&self) -> &[String] {
        self.names
            .get_or_init(|| self.search_path.package_names().into_boxed_slice())
    }
}

impl Analysis {
    pub(crate) fn new(
        db: RootDatabase,
        files: BTreeMap<SmolStr, File>,
        programs: BTreeMap<SmolStr, Program>,
        jobs: usize,
        available_packages: AvailablePackages,
    ) -> Analysis {
        Analysis {
            db,
            files,
            programs,
            jobs,
            available_packages,
        }
    }

    /// Check a program on `self.jobs` threads: its declarations run by run
    /// (`ProgramGraph::runs`), each run once the runs that type what it reads are checked,
    /// then each file's diagnostics gathered: the memos the driver then reads in its own
    /// order. With `whole_files`, also each file's structure problems and suppressions,
    /// which the driver would otherwise find on its own thread.
    fn check_in_parallel(
        &self,
        program: Program,
        graph: &pcl_sema::ProgramGraph<'_>,
        whole_files: bool,
    ) {
        if self.jobs <= 1 {
            return;
        }
        let runs: Vec<&[pcl_sema::DeclId<'_>]> = graph.runs().collect();
        crate::parallel::for_each_after(&self.db, self.jobs, &runs, &graph.run_waits, |db, run| {
            for &decl in run.iter() {
                let _ = infer(db, decl);
            }
        });
        let files = program.files(&self.db);
        // A large file's declarations by runs, so its check is not one thread's (each
        // file's order, which the runs follow, worked out on the threads too).
        crate::parallel::for_each(&self.db, self.jobs, files, |db, &file| {
            let _ = pcl_sema::check_chunks(db, program, file).count();
        });
        let chunks: Vec<pcl_sema::DeclChunk<'_>> = (files.iter())
            .flat_map(|&file| pcl_sema::check_chunks(&self.db, program, file))
            .collect();
        crate::parallel::for_each(&self.db, self.jobs, &chunks, |db, &chunk| {
            pcl_sema::check_chunk(db, chunk);
        });
        crate::parallel::for_each(&self.db, self.jobs, files, |db, &file| {
            let _ = file_check(db, program, file);
            if whole_files {
                let _ = structure_diagnostics(db, file);
                let _ = pcl_sema::file_suppressions(db, file);
            }
        });
    }

    pub(crate) fn programs(&self) -> impl Iterator<Item = Program> + '_ {
        self.programs.values().copied()
    }

    pub(crate) fn db(&self) -> &RootDatabase {
        &self.db
    }

    /// The file at `path` and the program it belongs to.
    pub(crate) fn file_and_program(&self, path: &str) -> Option<(File, Program)> {
        let file = *self.files.get(path)?;
        let program = (self.programs.values())
            .find(|p| p.files(&self.db).contains(&file))
            .copied()?;
        Some((file, program))
    }

    fn program(&self, id: &ProgramId) -> Option<Program> {
        self.programs.get(&id.0).copied()
    }

    pub(crate) fn program_of(&self, id: &ProgramId) -> Option<Program> {
        self.program(id)
    }

    /// The paths of a program's files, sorted.
    pub fn program_files(&self, id: &ProgramId) -> Vec<SmolStr> {
        let Some(program) = self.program(id) else {
            return Vec::new();
        };
        program
            .files(&self.db)
            .iter()
            .map(|f| f.path(&self.db).clone())
            .collect()
    }

    /// A file's text: a program's file, or a loaded schema file (which definitions of
    /// resource and function tokens lead to).
    pub fn file_text(&self, path: &str) -> Option<FileText> {
        if let Some(file) = self.files.get(path) {
            return Some(FileText::Program(file.text(&self.db).clone()));
        }
        let loaded = pcl_schema::LoadedPackages::try_get(&self.db)?;
        (loaded.packages(&self.db).values())
            .find(|source| source.file(&self.db) == path)
            .map(|source| FileText::Schema(source.text(&self.db).clone()))
    }

    /// Every diagnostic of a program, by file (in the program's file order). A span's
    /// `FileId(i)` names the i-th file of the program.
    pub fn program_diagnostics(&self, id: &ProgramId) -> Cancellable<Vec<FileDiagnostics>> {
        salsa::Cancelled::catch(|| self.diagnostics(id, None))
    }

    /// The diagnostics of one file of a program (an editor's open file): only its own
    /// declarations are checked, so after an edit the cost follows what the edit touched,
    /// not the size of the program. `None` when the program has no such file.
    pub fn file_diagnostics(
        &self,
        id: &ProgramId,
        path: &str,
    ) -> Cancellable<Option<FileDiagnostics>> {
        let Some(&file) = self.files.get(path) else {
            return Ok(None);
        };
        salsa::Cancelled::catch(|| self.diagnostics(id, Some(file)).into_iter().next())
    }

    /// The diagnostics of the program's files, or of `only` that one.
    fn diagnostics(&self, id: &ProgramId, only: Option<File>) -> Vec<FileDiagnostics> {
        let db = &self.db;
        let Some(program) = self.program(id) else {
            return Vec::new();
        };
        let wanted = |file: File| only.is_none_or(|only| only == file);
        let files: Vec<File> = program.files(db).to_vec();
        let file_ids: FxHashMap<File, FileId> = files
            .iter()
            .enumerate()
            .map(|(i, &f)| (f, FileId(i as u32)))
            .collect();
        // On a handle of its own, as `checker` below: a span's source map is a query
        // (`body_with_source_map`) run at the stack's base, where salsa 0.28 clears the
        // dependency table of the last query that finished there, with the capacity of the
        // largest one (the program graph's, a file's check or its items' syntax: a
        // dependency per item). Resolving 100,000 diagnostics cleared such a table each
        // time (2.2 s to check a 2.4 MB program of as many mistakes). The items' syntax,
        // which resolving reads, is worked out on the shared handle.
        let resolving = self.db.clone();
        let resolver = Resolver {
            shared: db,
            db: &resolving,
            file_ids: &file_ids,
            line_styles: Default::default(),
        };
        let graph = program_graph(db, program);
        if only.is_none() {
            // The whole program on `jobs` threads first: what follows reads the memos.
            self.check_in_parallel(program, graph, true);
        }
        let mut by_file: Vec<Vec<Diagnostic>> = vec![Vec::new(); files.len()];
        for (i, &file) in files.iter().enumerate() {
            if !wanted(file) {
                continue;
            }
            let invalid_utf8 = file.invalid_utf8(db);
            by_file[i].extend(invalid_utf8.map(|invalid| invalid.to_diagnostic(FileId(i as u32))));
            let parse = pcl_sema::parse(db, file);
            let text = file.text(db);
            by_file[i].extend(
                (parse.errors().iter())
                    .filter(|e| !invalid_utf8.is_some_and(|invalid| invalid.explains(e, text)))
                    .map(|e| e.to_diagnostic(FileId(i as u32))),
            );
            for problem in structure_diagnostics(db, file) {
                let span = Span {
                    file: FileId(i as u32),
                    range: problem.range,
                };
                let diagnostic =
                    Diagnostic::error(problem.code, problem.message.clone(), Anchor::Span(span));
                let mut diagnostic = diagnostic.with_note(problem.note.clone());
                diagnostic.severity = problem.severity;
                if let Some((message, edits)) = &problem.fix {
                    let edits = (edits.iter())
                        .map(|(range, replacement)| TextEdit {
                            span: Span {
                                file: FileId(i as u32),
                                range: *range,
                            },
                            replacement: replacement.clone(),
                        })
                        .collect();
                    diagnostic = diagnostic.with_fix(Fix {
                        message: message.clone(),
                        edits,
                    });
                }
                by_file[i].push(diagnostic);
            }
        }
        let mut push = |diagnostic: &SemaDiagnostic<'_>| {
            if !wanted(diagnostic.at.decl.file(db)) {
                return;
            }
            if let Some((file, resolved)) = resolver.diagnostic(diagnostic) {
                by_file[file.0 as usize].push(resolved);
            }
        };
        for diagnostic in &program_scope(db, program).diagnostics {
            push(diagnostic);
        }
        for cycle in graph.cycles.iter() {
            // Two components may use each other's outputs (Pulumi resolves them lazily).
            let components = cycle.iter().all(|d| d.kind(db) == DeclKind::Component);
            if components && cycle.len() == 2 {
                continue;
            }
            push(&cycle_diagnostic(db, cycle));
        }
        for &provider in graph.unused_providers.iter() {
            push(&pcl_sema::unused_provider_diagnostic(db, provider));
        }
        // Bottom-up: each file after the files it reads from, each declaration after the
        // ones it reads. Files that read from each other have their declarations typed in
        // dependency order first. Only the wanted files' diagnostics are collected, but
        // the files they read from are checked before them.
        let last_group = match only {
            Some(only) => graph
                .file_groups
                .iter()
                .position(|group| group.contains(&only))
                .unwrap_or(0),
            None => graph.file_groups.len().saturating_sub(1),
        };
        // On a handle of its own, with an empty query stack. salsa 0.28 reuses a finished
        // query's frame, with the capacity of its dependency table, for the next query at
        // the same depth, and clears the whole table each time one completes there: after
        // `structure_diagnostics` above (a dependency per item), every `decl_diagnostics`
        // at that depth cleared a table as large as the file, 6% of the instructions of a
        // cold check of 10k resources in one file.
        let checker = self.db.clone();
        for group in graph.file_groups.iter().take(last_group + 1) {
            if group.len() > 1 {
                let members: FxHashSet<File> = group.iter().copied().collect();
                for &decl in graph.order.iter() {
                    if members.contains(&decl.file(db)) {
                        let _ = infer(&checker, decl);
                    }
                }
            }
            for &file in group.iter() {
                let diagnostics = file_check(&checker, program, file);
                if wanted(file) {
                    diagnostics.iter().for_each(&mut push);
                }
            }
        }
        (files.iter().zip(by_file))
            .filter(|(file, _)| wanted(**file))
            .map(|(&file, mut diagnostics)| {
                diagnostics.sort_by_key(|d| d.span().map(|s| (s.range.start(), s.range.end())));
                diagnostics.dedup();
                let file_id = file_ids[&file];
                let suppressions = pcl_sema::file_suppressions(db, file);
                apply_suppressions(suppressions, file_id, &mut diagnostics, Judged::Program);
                merge_missing_schemas(&mut diagnostics);
                order_by_cause(&mut diagnostics);
                FileDiagnostics {
                    path: file.path(db).clone(),
                    diagnostics,
                }
            })
            .collect()
    }

    /// The type of each top-level declaration, in file order, then source order.
    pub fn declaration_types(&self, id: &ProgramId) -> Cancellable<Vec<DeclarationType>> {
        salsa::Cancelled::catch(|| {
            let db = &self.db;
            let Some(program) = self.program(id) else {
                return Vec::new();
            };
            // Type bottom-up first, so nothing recurses through long chains.
            let graph = program_graph(db, program);
            self.check_in_parallel(program, graph, false);
            for &decl in graph.order.iter() {
                let _ = pcl_sema::decl_ty(db, decl);
            }
            program_decls(db, program)
                .iter()
                .filter(|d| d.kind(db) != DeclKind::Package)
                .map(|&decl| {
                    let result = infer(db, decl);
                    let ty = match decl.kind(db) {
                        DeclKind::Output => result.value_ty,
                        _ => pcl_sema::decl_ty(db, decl),
                    };
                    DeclarationType {
                        path: decl.file(db).path(db).clone(),
                        kind: decl.kind(db),
                        name: decl.name(db).clone(),
                        ty: pcl_types::display(db, ty).clone(),
                        readable: pcl_types::readable(db, ty),
                        offset: decl_offset(db, decl).into(),
                    }
                })
                .collect()
        })
    }
}

/// One diagnostic for a reference cycle, at its first member, naming the whole cycle.
fn cycle_diagnostic<'db>(db: &'db RootDatabase, cycle: &[DeclId<'db>]) -> SemaDiagnostic<'db> {
    let mut names: Vec<String> = cycle.iter().map(|d| d.name(db).to_string()).collect();
    names.push(names[0].clone());
    let message = if cycle.len() == 1 {
        format!("`{}` refers to itself", names[0])
    } else {
        format!("reference cycle: {}", names.join(" → "))
    };
    let mut diagnostic = SemaDiagnostic::new(
        codes::REFERENCE_CYCLE,
        pcl_diagnostics::Severity::Error,
        message,
        Located::new(cycle[0], Site::Name),
    )
    .with_note("a declaration's value cannot depend on itself; break the cycle by removing one of the references");
    for &member in &cycle[1..] {
        diagnostic = diagnostic.with_label(Located::new(member, Site::Name), "part of the cycle");
    }
    // The references that make the cycle, each member's to the next, the last one's
    // closing it.
    for (i, &member) in cycle.iter().enumerate() {
        let next = cycle[(i + 1) % cycle.len()];
        let target = next.name(db);
        let body = pcl_sema::body(db, member);
        let reference = (body.exprs.iter().enumerate())
            .find(|(_, e)| matches!(e, pcl_sema::Expr::Name(n) if body.str(*n) == target));
        if let Some((index, _)) = reference {
            let at = Located::new(member, Site::Expr(pcl_sema::ExprId(index as u32)));
            let label = match i + 1 == cycle.len() {
                true if cycle.len() > 1 => format!("`{target}` here closes the cycle"),
                _ => format!("refers to `{target}`"),
            };
            diagnostic = diagnostic.with_label(at, label);
        }
    }
    diagnostic
}

/// Where a site is in its declaration's file.
pub(crate) fn site_range<'db>(db: &'db RootDatabase, at: Located<'db>) -> Option<TextRange> {
    let offset = decl_offset(db, at.decl);
    let map = &body_with_source_map(db, at.decl).source_map;
    let label = |block: BlockId, i: usize| -> Option<TextRange> {
        map.block_labels.get(block.0 as usize)?.get(i).copied()
    };
    let relative = match at.site {
        Site::Name => {
            let kind = at.decl.kind(db);
            let label_index = if kind == DeclKind::Hook { 1 } else { 0 };
            match kind {
                DeclKind::Local | DeclKind::Pulumi | DeclKind::Package => None,
                _ => label(BlockId::ROOT, label_index),
            }
            .or_else(|| map.block_types.first().copied())?
        }
        Site::Expr(e) => *map.exprs.get(e.0 as usize)?,
        Site::AttrName(a) => *map.attr_names.get(a.0 as usize)?,
        Site::AttrStep(e) => {
            // The name is the end of the expression's text (no trivia after it).
            let body = pcl_sema::body(db, at.decl);
            let pcl_sema::Expr::GetAttr { name, .. } = body.expr(e) else {
                return None;
            };
            let name = body.str(*name);
            let whole = *map.exprs.get(e.0 as usize)?;
            let len = TextSize::from(u32::try_from(name.len()).ok()?);
            let step = TextRange::new(whole.end().checked_sub(len)?, whole.end());
            let text = at.decl.file(db).text(db);
            let absolute = step + TextSize::from(u32::from(offset));
            let written = text.get(usize::from(absolute.start())..usize::from(absolute.end()))?;
            if written != name {
                return None;
            }
            step
        }
        Site::CallName(e) => {
            // The name is the start of the expression's text.
            let body = pcl_sema::body(db, at.decl);
            let pcl_sema::Expr::Call(call) = body.expr(e) else {
                return None;
            };
            let whole = *map.exprs.get(e.0 as usize)?;
            let len = TextSize::from(u32::try_from(call.name.len()).ok()?);
            let name = TextRange::at(whole.start(), len);
            let text = at.decl.file(db).text(db);
            let absolute = name + TextSize::from(u32::from(offset));
            let written = text.get(usize::from(absolute.start())..usize::from(absolute.end()))?;
            if written != call.name.as_str() {
                return None;
            }
            name
        }
        Site::Step(e) => {
            let whole = *map.exprs.get(e.0 as usize)?;
            let body = pcl_sema::body(db, at.decl);
            let base = match body.expr(e) {
                pcl_sema::Expr::GetAttr { base, .. } | pcl_sema::Expr::Index { base, .. } => {
                    map.exprs.get(base.0 as usize).copied()
                }
                _ => None,
            };
            // From the first character after the base that is not space (`.` or `[`).
            let text = at.decl.file(db).text(db);
            let start = base
                .filter(|base| whole.contains_range(*base))
                .and_then(|base| {
                    let after = usize::from(base.end() + offset);
                    let gap = text.get(after..usize::from(whole.end() + offset))?;
                    let skipped = gap.len() - gap.trim_start().len();
                    Some(base.end() + TextSize::from(u32::try_from(skipped).ok()?))
                });
            match start {
                Some(start) if start < whole.end() => TextRange::new(start, whole.end()),
                _ => whole,
            }
        }
        Site::BlockType(b) => *map.block_types.get(b.0 as usize)?,
        Site::Label(b, i) => {
            label(b, i as usize).or_else(|| map.block_types.get(b.0 as usize).copied())?
        }
        Site::BlockOpen(b) => *map.block_opens.get(b.0 as usize)?,
        Site::ObjectOpen(e) => {
            let brace = TextRange::at(map.exprs.get(e.0 as usize)?.start(), TextSize::from(1));
            let text = at.decl.file(db).text(db);
            let absolute = brace + TextSize::from(u32::from(offset));
            if text.get(usize::from(absolute.start())..usize::from(absolute.end())) != Some("{") {
                return None;
            }
            brace
        }
    };
    Some(relative + TextSize::from(u32::from(offset)))
}

/// Turns anchored diagnostics into ranges.
struct Resolver<'a, 'db> {
    /// The handle whose stack's base may hold large queries: the items' syntax is read
    /// through it first.
    shared: &'db RootDatabase,
    /// Where the source maps are lowered: a handle of the resolver's own.
    db: &'db RootDatabase,
    file_ids: &'a FxHashMap<File, FileId>,
    /// How each file writes its lines, read once ([`LineStyle::of`]).
    line_styles: std::cell::RefCell<FxHashMap<File, LineStyle>>,
}

impl<'db> Resolver<'_, 'db> {
    fn span(&self, at: Located<'db>) -> Option<Span> {
        let file = at.decl.file(self.shared);
        let _ = pcl_sema::file_items(self.shared, file);
        Some(Span {
            file: *self.file_ids.get(&file)?,
            range: site_range(self.db, at)?,
        })
    }

    fn diagnostic(&self, d: &SemaDiagnostic<'db>) -> Option<(FileId, Diagnostic)> {
        let span = self.span(d.at)?;
        let mut diagnostic = Diagnostic::error(d.code, d.message.clone(), Anchor::Span(span));
        diagnostic.severity = d.severity;
        for (at, message) in &d.labels {
            if let Some(label) = self.span(*at) {
                diagnostic = diagnostic.with_label(label, message.clone());
            }
        }
        diagnostic.notes = d.notes.clone();
        for fix in &d.fixes {
            // Only a fix that writes lines reads how the file writes them.
            let writes_lines = [Some(&fix.replacement), fix.after.as_ref()]
                .into_iter()
                .chain([fix.closing.as_ref().map(|(_, text)| text)])
                .flatten()
                .any(|text| text.contains('\n'));
            let style = match writes_lines {
                true => self.line_style(fix.at.decl.file(self.db)),
                false => LineStyle::PLAIN,
            };
            if let Some(at) = self.span(fix.at) {
                // What an unwrap removes is brackets, commas and blanks only: a comment
                // inside is the writer's, and the fix is not offered.
                let text = fix.at.decl.file(self.db).text(self.db);
                let kept = match fix.keep {
                    Some(keep) => {
                        let kept = (self.span(keep)).filter(|kept| {
                            kept.file == at.file && brackets_around(text, at, *kept)
                        });
                        match kept {
                            Some(kept) => Some(kept),
                            None => continue,
                        }
                    }
                    None => None,
                };
                let edits = match &fix.after {
                    // An unwrap: the site's text around the kept one goes.
                    _ if let Some(kept) = kept => {
                        let over = |range| Span {
                            file: at.file,
                            range,
                        };
                        let mut edits = vec![TextEdit {
                            span: over(TextRange::new(at.range.start(), kept.range.start())),
                            replacement: style.apply(&fix.replacement),
                        }];
                        // An element on lines of its own moves out one level: its lines
                        // lose what its first line is indented past the site's.
                        edits.extend(dedented_lines(text, at.range, kept.range).map(|range| {
                            TextEdit {
                                span: over(range),
                                replacement: String::new(),
                            }
                        }));
                        edits.push(TextEdit {
                            span: over(TextRange::new(kept.range.end(), at.range.end())),
                            replacement: String::new(),
                        });
                        edits
                    }
                    // A wrap: insertions before and after the site, its text kept.
                    Some(after) => {
                        let point = |offset| Span {
                            file: at.file,
                            range: TextRange::empty(offset),
                        };
                        vec![
                            TextEdit {
                                span: point(at.range.start()),
                                replacement: style.apply(&fix.replacement),
                            },
                            TextEdit {
                                span: point(at.range.end()),
                                replacement: style.apply(after),
                            },
                        ]
                    }
                    None => vec![TextEdit {
                        span: self.over_blanks_before_brace(fix, at),
                        replacement: style.apply(&fix.replacement),
                    }],
                };
                let mut edits = edits;
                if let Some((site, text)) = &fix.closing {
                    let Some(other) = self.span(*site) else {
                        continue;
                    };
                    edits.push(TextEdit {
                        span: Span {
                            file: other.file,
                            range: TextRange::empty(other.range.end()),
                        },
                        replacement: style.apply(text),
                    });
                }
                diagnostic = diagnostic.with_fix(Fix {
                    message: fix.message.clone(),
                    edits,
                });
            }
        }
        Some((span.file, diagnostic))
    }
}

/// The blanks to take from the starts of `inner`'s lines after its first, when `inner`
/// starts a line of its own inside `outer`: as many as its first line is indented past
/// the line `outer` starts on (at most each line's own).
fn dedented_lines(
    text: &str,
    outer: TextRange,
    inner: TextRange,
) -> impl Iterator<Item = TextRange> + '_ {
    let indent = |line_start: usize| {
        text[line_start..]
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count()
    };
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |newline| newline + 1);
    let (outer_start, inner_start) = (usize::from(outer.start()), usize::from(inner.start()));
    let inner_line = line_start(inner_start);
    let own_line = inner_line > outer_start && inner_line + indent(inner_line) == inner_start;
    let extra = match own_line {
        true => (inner_start - inner_line).saturating_sub(indent(line_start(outer_start))),
        false => 0,
    };
    let inner_text = &text[inner_start..usize::from(inner.end())];
    // A heredoc's lines are its text, which no fix changes.
    let extra = if inner_text.contains("<<") { 0 } else { extra };
    (inner_text.match_indices('\n'))
        .map(move |(at, _)| inner_start + at + 1)
        .filter(move |_| extra > 0)
        .map(move |start| {
            let blanks = indent(start).min(extra);
            TextRange::new(
                TextSize::from(start as u32),
                TextSize::from((start + blanks) as u32),
            )
        })
        .filter(|range| !range.is_empty())
}

/// Whether `outer` holds `inner` and, around it, brackets, commas and blanks only.
fn brackets_around(text: &str, outer: Span, inner: Span) -> bool {
    if !outer.range.contains_range(inner.range) {
        return false;
    }
    let around = [
        TextRange::new(outer.range.start(), inner.range.start()),
        TextRange::new(inner.range.end(), outer.range.end()),
    ];
    around.into_iter().all(|range| {
        (text.get(std::ops::Range::<usize>::from(range))).is_some_and(|removed| {
            (removed.chars()).all(|c| matches!(c, '[' | ']' | ',') || c.is_whitespace())
        })
    })
}

impl<'db> Resolver<'_, 'db> {
    /// How `file` writes its lines, read once per resolver (a file of many fixes).
    fn line_style(&self, file: File) -> LineStyle {
        *(self.line_styles.borrow_mut())
            .entry(file)
            .or_insert_with(|| LineStyle::of(file.text(self.db)))
    }

    /// A fix's span, grown over the blanks after a block's `{` when a `}` follows them and
    /// the fix ends its text with a line end (`{ }` with an input added: the `}` then starts
    /// its line, as `{}` gives).
    fn over_blanks_before_brace(&self, fix: &pcl_sema::SemaFix<'db>, at: Span) -> Span {
        if !matches!(fix.at.site, Site::BlockOpen(_)) || !fix.replacement.ends_with('\n') {
            return at;
        }
        let text = fix.at.decl.file(self.db).text(self.db);
        let after = text.get(usize::from(at.range.end())..).unwrap_or_default();
        let blanks = after.len() - after.trim_start_matches([' ', '\t']).len();
        match after[blanks..].starts_with('}') {
            true => Span {
                file: at.file,
                range: TextRange::new(
                    at.range.start(),
                    at.range.end() + TextSize::from(blanks as u32),
                ),
            },
            false => at,
        }
    }
}

/// How a file writes its lines, for the text of its fixes (which sema writes with `\n` and
/// two-space steps): `\r\n` line ends, tab indentation. Read from the file's start.
#[derive(Clone, Copy)]
struct LineStyle {
    crlf: bool,
    tabs: bool,
}

impl LineStyle {
    /// `\n` and spaces, as fixes are written.
    const PLAIN: LineStyle = LineStyle {
        crlf: false,
        tabs: false,
    };

    /// Bytes of a file's start that say how it writes its lines.
    const SAMPLE: usize = 64 * 1024;

    fn of(text: &str) -> LineStyle {
        let sample = &text.as_bytes()[..text.len().min(Self::SAMPLE)];
        let crlf = sample.windows(2).any(|pair| pair == b"\r\n");
        let indented =
            (sample.split(|&b| b == b'\n')).find(|line| matches!(line.first(), Some(b' ' | b'\t')));
        let tabs = indented.is_some_and(|line| line.first() == Some(&b'\t'));
        LineStyle { crlf, tabs }
    }

    /// `text` (lines after the first start with two-space steps) in this style.
    fn apply(self, text: &str) -> String {
        if !text.contains('\n') || !(self.crlf || self.tabs) {
            return text.to_owned();
        }
        let mut styled = String::with_capacity(text.len() + 8);
        for (i, line) in text.split('\n').enumerate() {
            if i == 0 {
                styled.push_str(line);
                continue;
            }
            styled.push_str(if self.crlf { "\r\n" } else { "\n" });
            let spaces = line.len() - line.trim_start_matches(' ').len();
            match self.tabs {
                true => {
                    styled.extend(std::iter::repeat_n('\t', spaces / 2));
                    styled.push_str(&line[spaces - spaces % 2..]);
                }
                false => styled.push_str(line),
            }
        }
        styled
    }
}

/// A file's text as the host holds it, shared (never copied): a program's file (kept as
/// the `String` an editor or the disk gave, so setting it copies nothing) or a schema.
#[derive(Clone, Debug)]
pub enum FileText {
    Program(std::sync::Arc<String>),
    Schema(std::sync::Arc<str>),
}

impl std::ops::Deref for FileText {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            FileText::Program(text) => text,
            FileText::Schema(text) => text,
        }
    }
}
