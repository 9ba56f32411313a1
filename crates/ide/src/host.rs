//! The host: owns the database and everything that is not a query input (paths, the
//! schema loader), applies changes, and runs the schema and component pull loop.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_diagnostics::codes;
use pcl_schema::{FetchError, FetchRequest, SchemaLoader, SearchPath};
use pcl_sema::{
    CachedPackage, CheckOptions, File, Leniency, PackageUse, Program, ReparseBase, Workspace,
    join_dir, required_packages,
};
use pcl_syntax::ChangedRange;
use rustc_hash::FxHashSet;
use salsa::{Durability, Setter};
use smol_str::SmolStr;

use crate::RootDatabase;
use crate::analysis::Analysis;

/// A program the host knows, by its normalised directory.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProgramId(pub SmolStr);

/// Owns the database; the only place that writes inputs.
pub struct AnalysisHost {
    db: RootDatabase,
    loader: SchemaLoader,
    files: BTreeMap<SmolStr, File>,
    programs: BTreeMap<SmolStr, Program>,
    /// Files edited through `set_file_text`, kept at low durability.
    edited: FxHashSet<File>,
    /// How each package name was resolved for the programs (found or not): a program that
    /// asks for another version resolves it again.
    resolved: BTreeMap<SmolStr, Resolution>,
    /// The packages on the search path, listed when completion first asks.
    available_packages: crate::analysis::AvailablePackages,
    /// Packages found nowhere while typing: resolved again (and remembered for fetching)
    /// at the next full load.
    typed_misses: BTreeSet<SmolStr>,
    /// The version each package loaded under its bare name was read at.
    chosen: BTreeMap<SmolStr, Option<SmolStr>>,
    /// Why each package found nowhere was not found (the `MissingPackages` input's value).
    missing: BTreeMap<SmolStr, Arc<[String]>>,
    /// `--fetch-schemas`: how to fetch what is found nowhere; `None` never fetches.
    fetching: Option<Fetching>,
    /// What fetching tried (`NAME@VERSION`), so each is fetched at most once.
    fetched: BTreeSet<String>,
    /// What fetching had to tell the user, for `take_schema_messages`.
    fetch_messages: Vec<pcl_diagnostics::Diagnostic>,
    /// How many threads loading and checking programs may use (`--jobs`).
    jobs: usize,
    /// The packages found nowhere that could be fetched, with the cache to fetch into.
    fetchable: BTreeMap<SmolStr, (FetchRequest, PathBuf)>,
    /// Where edits leave the parses they replace.
    retired: Retired,
}

/// Drops the parses edits replace on a thread of its own: the root of a large file's tree
/// holds every item, and letting go of it touches each one, which an edit need not wait
/// for. Started at the first edit; without a thread, what is retired is dropped at once.
/// Dropping the host waits for the thread, so nothing it held outlives the host (a leak
/// checker saw parses in flight as leaked).
#[derive(Default)]
struct Retired {
    sender: Option<std::sync::mpsc::Sender<ReparseBase>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Retired {
    fn retire(&mut self, base: ReparseBase) {
        let sender = self.sender.get_or_insert_with(|| {
            let (sender, receiver) = std::sync::mpsc::channel::<ReparseBase>();
            // Should the thread not start, the receiver is gone with it: sending fails,
            // and the base is dropped here.
            self.thread = std::thread::Builder::new()
                .name("pcl-retired-parses".to_owned())
                .spawn(move || receiver.into_iter().for_each(drop))
                .ok();
            sender
        });
        if let Err(unsent) = sender.send(base) {
            drop(unsent.0);
        }
    }
}

impl Drop for Retired {
    fn drop(&mut self) {
        // The thread stops once the channel is closed and empty.
        self.sender = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// How the host fetches schemas no source has (`--fetch-schemas`, the server's
/// `fetchSchemas`): with the `pulumi` CLI, at most `time_limit` each, telling `observer`
/// when each fetch starts and ends (the CLI's progress line).
pub struct Fetching {
    pub time_limit: std::time::Duration,
    pub observer: Box<dyn FnMut(FetchEvent<'_>) + Send>,
}

/// A fetch starting or finished.
pub enum FetchEvent<'a> {
    Started(&'a FetchRequest),
    Finished {
        request: &'a FetchRequest,
        elapsed: std::time::Duration,
        result: Result<&'a Path, &'a FetchError>,
    },
}

impl AnalysisHost {
    /// A host whose schemas come from `schema_dirs` (then `PCL_SCHEMA_PATH`).
    pub fn new(schema_dirs: Vec<PathBuf>, leniency: Leniency) -> AnalysisHost {
        AnalysisHost::with_database(RootDatabase::default(), schema_dirs, leniency)
    }

    /// A host over a given database (tests pass one that records salsa's events).
    pub fn with_database(
        db: RootDatabase,
        schema_dirs: Vec<PathBuf>,
        leniency: Leniency,
    ) -> AnalysisHost {
        let _ = CheckOptions::builder(leniency)
            .durability(Durability::MEDIUM)
            .new(&db);
        // Created up front: a query that looked for a package before any was loaded must
        // see the set change, which salsa tracks for an existing input only.
        let _ = pcl_schema::LoadedPackages::builder(Arc::new(BTreeMap::new()))
            .durability(Durability::HIGH)
            .new(&db);
        let _ = pcl_schema::MissingPackages::builder(Arc::new(BTreeMap::new()))
            .durability(Durability::HIGH)
            .new(&db);
        let _ = Workspace::builder(Arc::new(BTreeMap::new()))
            .durability(Durability::MEDIUM)
            .new(&db);
        let search = SearchPath::from_args_and_env(schema_dirs);
        AnalysisHost {
            db,
            available_packages: crate::analysis::AvailablePackages::new(search.clone()),
            loader: SchemaLoader::new(search),
            files: BTreeMap::new(),
            programs: BTreeMap::new(),
            edited: FxHashSet::default(),
            resolved: BTreeMap::new(),
            typed_misses: BTreeSet::new(),
            chosen: BTreeMap::new(),
            missing: BTreeMap::new(),
            fetching: None,
            fetched: BTreeSet::new(),
            fetch_messages: Vec::new(),
            jobs: 1,
            fetchable: BTreeMap::new(),
            retired: Retired::default(),
        }
    }

    /// A package a `package` block describes with a download URL or a parameterization:
    /// only under the exact (hashed) name Pulumi's cache gives it, never by scanning.
    fn read_cached(
        &self,
        name: &str,
        version: Option<&str>,
        cached: &CachedPackage,
    ) -> Result<Vec<pcl_schema::ReadSchema>, pcl_schema::LoadError> {
        let parameterization = (cached.parameterization.as_ref()).map(|(name, version, value)| {
            pcl_schema::Parameterization {
                name: name.clone(),
                version: version.clone(),
                value: value.clone(),
            }
        });
        let file = pcl_schema::cache_file_name(
            &cached.base_name,
            &cached.base_version,
            cached.download_url.as_deref(),
            parameterization.as_ref(),
        );
        let search = self.loader.search_path();
        match search.find_cached(&file) {
            Some(candidate) => self.loader.read_file(&candidate.path),
            None => Err(search.not_found(name, version, Some(file))),
        }
    }

    /// Every program loaded: those set, and the component programs they use
    /// (`load_dependencies`), by directory.
    pub fn program_ids(&self) -> Vec<ProgramId> {
        self.programs.keys().cloned().map(ProgramId).collect()
    }

    /// The loaded programs that instantiate the program in `dir` as a component, directly
    /// or through other components (by directory, `dir` itself not among them): what a
    /// change to it may change the diagnostics of.
    pub fn programs_using(&self, dir: &str) -> Vec<ProgramId> {
        let users: Vec<(SmolStr, Vec<SmolStr>)> = (self.programs.iter())
            .map(|(user, &program)| (user.clone(), self.component_dirs(program)))
            .collect();
        let start = normalise_dir(dir);
        let mut found: Vec<SmolStr> = Vec::new();
        let mut pending = vec![start.clone()];
        while let Some(used) = pending.pop() {
            for (user, components) in &users {
                if components.contains(&used) && !found.contains(user) && *user != start {
                    found.push(user.clone());
                    pending.push(user.clone());
                }
            }
        }
        found.into_iter().map(ProgramId).collect()
    }

    /// Whether the program in `dir` is loaded.
    /// The directories of the component programs the program in `dir` uses, through
    /// its components too.
    pub fn components_used_by(&self, dir: &str) -> Vec<SmolStr> {
        let mut found: Vec<SmolStr> = Vec::new();
        let mut pending = vec![normalise_dir(dir)];
        while let Some(user) = pending.pop() {
            let Some(&program) = self.programs.get(&user) else {
                continue;
            };
            for used in self.component_dirs(program) {
                if !found.contains(&used) {
                    found.push(used.clone());
                    pending.push(used);
                }
            }
        }
        found
    }

    pub fn has_program(&self, dir: &str) -> bool {
        self.programs.contains_key(&normalise_dir(dir))
    }

    /// What could be fetched of the packages found nowhere so far, and where to (for a
    /// driver that fetches on its own threads, as the language server does).
    pub fn fetch_requests(&self) -> Vec<(FetchRequest, PathBuf)> {
        self.fetchable.values().cloned().collect()
    }

    /// Parse, bind and check programs on `jobs` threads (at least one): the results are
    /// the same, in the same order.
    pub fn set_jobs(&mut self, jobs: usize) {
        self.jobs = jobs.max(1);
    }

    /// Fetch the schemas no source has with the `pulumi` CLI from now on (`None`: never).
    pub fn set_fetching(&mut self, fetching: Option<Fetching>) {
        self.fetching = fetching;
    }

    /// Try to fetch a package found nowhere; its schema when that worked. Never for a
    /// parameterized package (its arguments cannot be recovered from the program), and at
    /// most once per `NAME@VERSION`.
    fn fetch(
        &mut self,
        name: &str,
        not_found: &pcl_schema::PackageNotFound,
    ) -> Option<Vec<pcl_schema::ReadSchema>> {
        let fetching = self.fetching.as_mut()?;
        let (request, cache) = FetchRequest::for_missing(name, not_found)?;
        // Without the `pulumi` CLI there is nothing to run for the other packages either.
        let no_cli = (self.fetch_messages.iter()).any(|d| d.code == codes::PULUMI_CLI_MISSING);
        if no_cli || !self.fetched.insert(request.spec()) {
            return None;
        }
        if pcl_schema::pulumi_on_path().is_none() {
            self.fetch_messages
                .push(FetchError::NoCli.to_diagnostic(&request));
            return None;
        }
        (fetching.observer)(FetchEvent::Started(&request));
        let start = std::time::Instant::now();
        let result = pcl_schema::fetch_schema(&request, &cache, fetching.time_limit);
        (fetching.observer)(FetchEvent::Finished {
            request: &request,
            elapsed: start.elapsed(),
            result: result.as_deref(),
        });
        match result {
            Ok(path) => match self.loader.read_file(&path) {
                Ok(read) => Some(read),
                Err(error) => {
                    self.fetch_messages.push(error.to_diagnostic());
                    None
                }
            },
            Err(error) => {
                let diagnostic = error.to_diagnostic(&request);
                self.fetch_messages.push(diagnostic);
                None
            }
        }
    }

    /// A snapshot to ask questions of. Drop it before the next change.
    pub fn analysis(&self) -> Analysis {
        Analysis::new(
            self.db.clone(),
            self.files.clone(),
            self.programs.clone(),
            self.jobs,
            self.available_packages.clone(),
        )
    }

    /// The database, for tests and benchmarks that drive queries directly.
    pub fn raw_database(&self) -> &RootDatabase {
        &self.db
    }

    /// Set (or replace) the program in `dir` with the given files (path, text). Texts
    /// equal to what the file already holds are not set again, so nothing re-runs. A text
    /// given as `Arc<String>` (or `String`) is shared, not copied.
    pub fn set_program<T: Into<SourceText>>(
        &mut self,
        dir: &str,
        mut files: Vec<(SmolStr, T)>,
    ) -> ProgramId {
        let dir = normalise_dir(dir);
        files.sort_by(|a, b| a.0.cmp(&b.0));
        let handles: Vec<File> = files
            .into_iter()
            .map(|(path, text)| self.file(path, text, Durability::MEDIUM))
            .collect();
        let handles: Arc<[File]> = handles.into();
        match self.programs.get(&dir) {
            Some(program) => {
                if program.files(&self.db) != &handles {
                    program
                        .set_files(&mut self.db)
                        .with_durability(Durability::MEDIUM)
                        .to(handles.clone());
                }
            }
            None => {
                let program = Program::builder(dir.clone(), handles.clone())
                    .durability(Durability::MEDIUM)
                    .new(&self.db);
                self.programs.insert(dir.clone(), program);
                let map: BTreeMap<SmolStr, Program> = self.programs.clone();
                if let Some(workspace) = Workspace::try_get(&self.db) {
                    workspace
                        .set_programs(&mut self.db)
                        .with_durability(Durability::MEDIUM)
                        .to(Arc::new(map));
                }
            }
        }
        let program = self.programs[&dir];
        let synced: Vec<(File, Durability)> = (handles.iter())
            .map(|&file| (file, self.durability(file)))
            .collect();
        // The summaries step by step, with what each step reads computed on `jobs`
        // threads first: parses (and the item inputs of files new to the database), item
        // trees, the bodies beside the program's scope, then each file's bindings.
        let jobs = self.jobs;
        // With fewer files than threads, a thread would wait while the others parse: a
        // large file's tokens are lexed ahead of its parser on a thread of their own.
        let lex_ahead = synced.len() < jobs;
        let first_items =
            crate::parallel::map(&self.db, jobs, &synced, |db, &(file, durability)| {
                match lex_ahead {
                    true => pcl_syntax::with_lexing_ahead(|| pcl_sema::parse(db, file)),
                    false => pcl_sema::parse(db, file),
                };
                pcl_sema::first_items(db, file, durability)
            });
        for (&(file, durability), items) in synced.iter().zip(first_items) {
            match items {
                Some(items) => pcl_sema::set_first_items(&mut self.db, file, items),
                None => pcl_sema::sync_file_items(&mut self.db, &[(file, durability)]),
            }
        }
        // Outlines by runs of items, so a large file's are not one thread's.
        let outlines: Vec<pcl_sema::ItemChunk<'_>> = (handles.iter())
            .flat_map(|&file| pcl_sema::outline_chunks(&self.db, file))
            .collect();
        crate::parallel::for_each(&self.db, jobs, &outlines, |db, &chunk| {
            pcl_sema::outline_chunk(db, chunk);
        });
        crate::parallel::for_each(&self.db, jobs, &handles, |db, &file| {
            let _ = pcl_sema::item_tree(db, file);
        });
        pcl_sema::sync_file_summaries(&mut self.db, &synced);
        // The schemas the item trees name, before anything reads them: loading them later
        // starts a revision in which everything computed so far is verified again (on one
        // thread).
        self.resolve_packages(Scope::New, false);
        self.sync_missing();
        // The declarations are interned on this thread, file by file in program order
        // (their ids follow it), and the program's namespace built from them; meanwhile
        // the workers lower the bodies of the files interned so far, which needs no
        // namespace.
        crate::parallel::lead_and_follow(
            &self.db,
            jobs,
            &handles,
            |db, ready| {
                for (done, &file) in handles.iter().enumerate() {
                    let _ = pcl_sema::file_decls(db, program, file);
                    ready(done + 1);
                }
                let _ = pcl_sema::program_scope(db, program);
            },
            |db, &file, finished| {
                for &decl in pcl_sema::file_decls(db, program, file) {
                    if finished() {
                        return;
                    }
                    let _ = pcl_sema::body(db, decl);
                }
            },
        );
        // The bindings by runs of declarations, so a large file's are not one thread's.
        let chunks: Vec<pcl_sema::DeclChunk<'_>> = (handles.iter())
            .flat_map(|&file| pcl_sema::dependency_chunks(&self.db, program, file))
            .collect();
        crate::parallel::for_each(&self.db, jobs, &chunks, |db, &chunk| {
            pcl_sema::bind_chunk(db, chunk);
        });
        pcl_sema::sync_program_summaries(&mut self.db, &[program]);
        ProgramId(dir)
    }

    /// An edit: change one file's text (an editor's open document; a no-op when the text
    /// is the same). From its first edit on, a file is kept at low durability, the other
    /// files (set by [`AnalysisHost::set_program`], from disk) at medium: re-checking
    /// after an edit then verifies in constant time each memo that does not depend on the
    /// edited file. The first edit moves the file down, so what depends on it is checked
    /// again once; editors set a document's text when they open it, before asking.
    pub fn set_file_text(&mut self, path: &str, text: String) {
        self.edit_file_text(path, text, None);
    }

    /// [`AnalysisHost::set_file_text`] when the editor says where the text changed (its
    /// change range): the old and the new text are not compared, and reparsing starts
    /// from the range.
    pub fn edit_file_text(&mut self, path: &str, text: String, changed: Option<ChangedRange>) {
        let path = SmolStr::new(path);
        let file = match self.files.get(&path).copied() {
            Some(file) => {
                // The first edit moves the file to low durability, even with equal text.
                if !self.edited.contains(&file)
                    || changed.is_some()
                    || **file.text(&self.db) != *text
                {
                    self.keep_reparse_base(file, changed);
                    file.set_text(&mut self.db)
                        .with_durability(Durability::LOW)
                        .to(Arc::from(text));
                }
                file
            }
            None => self.file(path, text, Durability::LOW),
        };
        // An editor's text is UTF-8, whatever the file on disk was.
        if file.invalid_utf8(&self.db).is_some() {
            file.set_invalid_utf8(&mut self.db).to(None);
        }
        if self.edited.insert(file) {
            // A document's resources are checked input by input: its edits re-check the
            // inputs that read what they change (the first one checks the file again).
            file.set_per_input_memos(&mut self.db)
                .with_durability(Durability::MEDIUM)
                .to(true);
        }
        let programs: Vec<Program> = (self.programs.values())
            .filter(|program| program.files(&self.db).contains(&file))
            .copied()
            .collect();
        pcl_sema::sync_summaries(&mut self.db, &[(file, Durability::LOW)], &programs);
    }

    /// Before `file`'s text is set: keep its current text and parse, so that parsing the
    /// new text parses again only the item the edit touched (or, failing that, keeps the
    /// items that did not change as they were). The parse is memoized, as the summaries
    /// were synced from it.
    fn keep_reparse_base(&mut self, file: File, changed: Option<ChangedRange>) {
        let base = ReparseBase {
            text: file.text(&self.db).clone(),
            parse: pcl_sema::parse(&self.db, file).clone(),
            changed,
        };
        self.replace_reparse_base(file, Some(base));
    }

    /// Set what `file` reparses from; the parse it replaces is dropped off the edit's path.
    fn replace_reparse_base(&mut self, file: File, base: Option<ReparseBase>) {
        let replaced = (file.set_reparse_base(&mut self.db))
            .with_durability(Durability::LOW)
            .to(base);
        if let Some(replaced) = replaced {
            self.retired.retire(replaced);
        }
    }

    /// The durability of what changes in `file`: low for documents being edited, medium
    /// for files read from disk.
    fn durability(&self, file: File) -> Durability {
        if self.edited.contains(&file) {
            Durability::LOW
        } else {
            Durability::MEDIUM
        }
    }

    /// The file at `path` with `text`, created at `durability` if it is new.
    fn file<T: Into<SourceText>>(
        &mut self,
        path: SmolStr,
        text: T,
        durability: Durability,
    ) -> File {
        let SourceText { text, invalid_utf8 } = text.into();
        match self.files.get(&path) {
            Some(&file) => {
                if *file.text(&self.db) != text {
                    // The parse kept for reparsing is the one the items were synced from
                    // (`sync_items` relies on it): a text set whole, from disk, drops it.
                    if file.reparse_base(&self.db).is_some() {
                        self.replace_reparse_base(file, None);
                    }
                    file.set_text(&mut self.db).to(text);
                }
                if file.invalid_utf8(&self.db) != invalid_utf8 {
                    file.set_invalid_utf8(&mut self.db).to(invalid_utf8);
                }
                file
            }
            None => {
                let file = File::builder(path.clone(), text)
                    .invalid_utf8(invalid_utf8)
                    .durability(durability)
                    .new(&self.db);
                self.files.insert(path, file);
                file
            }
        }
    }

    /// Add a schema from text (generated, or an editor's unsaved buffer), known as `file`
    /// in messages, under the package name it declares.
    pub fn add_schema(
        &mut self,
        file: &str,
        text: &str,
    ) -> Result<(), Box<pcl_diagnostics::Diagnostic>> {
        let read = self
            .loader
            .read_text(None, SmolStr::new(file), Arc::from(text))
            .map_err(|e| Box::new(e.to_diagnostic()))?;
        if let Some(schema) = read.first() {
            let name = SmolStr::new(schema.key());
            self.resolved.insert(name, Resolution::Given);
        }
        self.loader.apply(&mut self.db, read);
        Ok(())
    }

    /// Change where schemas are looked for (then `PCL_SCHEMA_PATH`) and the leniencies.
    /// On another search path every package is resolved again (one loaded from a directory
    /// no longer on it goes); on the same one, those found nowhere so far are looked for
    /// again.
    pub fn set_options(&mut self, schema_dirs: Vec<PathBuf>, leniency: Leniency) {
        let search = SearchPath::from_args_and_env(schema_dirs);
        self.available_packages = crate::analysis::AvailablePackages::new(search.clone());
        if search != *self.loader.search_path() {
            self.resolved
                .retain(|_, resolution| *resolution == Resolution::Given);
            self.chosen.clear();
        }
        self.loader.set_search_path(search);
        if let Some(options) = CheckOptions::try_get(&self.db)
            && options.leniency(&self.db) != leniency
        {
            options
                .set_leniency(&mut self.db)
                .with_durability(Durability::MEDIUM)
                .to(leniency);
        }
        self.forget_misses();
        self.load_dependencies();
    }

    /// Look again for the packages found nowhere so far, at the next load.
    fn forget_misses(&mut self) {
        let missing = &self.missing;
        self.resolved.retain(|name, _| !missing.contains_key(name));
    }

    /// Schema files may have changed on disk: read the loaded ones again (their packages
    /// are re-checked where their text changed) and look again for the packages that were
    /// found nowhere before.
    pub fn refresh_schemas(&mut self) {
        let search = self.loader.search_path().clone();
        self.available_packages = crate::analysis::AvailablePackages::new(search);
        self.loader.refresh_from_disk(&mut self.db);
        self.forget_misses();
        self.load_dependencies();
    }

    /// Load the `.pp` files of directory `dir` from disk as a program.
    pub fn load_program_dir(&mut self, dir: &Path) -> std::io::Result<ProgramId> {
        let files = read_program_files(dir)?;
        Ok(self.set_program(&dir.to_string_lossy(), files))
    }

    /// The pull loop: load, until nothing changes, the schemas every program names and
    /// the component programs they instantiate (from disk). What is found nowhere is left
    /// for checking to report where it is used.
    pub fn load_dependencies(&mut self) {
        // What typing found nowhere is looked for again, and remembered for fetching.
        for name in std::mem::take(&mut self.typed_misses) {
            self.resolved.remove(&name);
        }
        let mut missing: BTreeMap<SmolStr, Box<[SmolStr]>> = BTreeMap::new();
        loop {
            let mut changed = self.resolve_packages(Scope::All, false);
            let programs: Vec<Program> = self.programs.values().copied().collect();
            for program in programs {
                for dir in self.component_dirs(program) {
                    if !self.programs.contains_key(&dir) {
                        changed |= self.read_component_dir(dir, &mut missing);
                    }
                }
            }
            if !changed {
                break;
            }
        }
        missing.retain(|dir, _| !self.programs.contains_key(dir));
        self.set_missing_dirs(missing);
        self.sync_missing();
    }

    /// Reads the component directory `dir` from disk as a program (`true`), or records it
    /// in `missing` with the program directories beside it, for a did-you-mean.
    fn read_component_dir(
        &mut self,
        dir: SmolStr,
        missing: &mut BTreeMap<SmolStr, Box<[SmolStr]>>,
    ) -> bool {
        match read_program_files(Path::new(dir.as_str())) {
            Ok(files) if !files.is_empty() => {
                self.set_program(&dir, files);
                true
            }
            _ => {
                let beside = program_dirs_beside(&dir);
                missing.insert(dir, beside);
                false
            }
        }
    }

    /// Sets the component directories found with no program (with the program
    /// directories beside each, for a did-you-mean) when they changed.
    fn set_missing_dirs(&mut self, missing: BTreeMap<SmolStr, Box<[SmolStr]>>) {
        if let Some(workspace) = Workspace::try_get(&self.db)
            && **workspace.missing_dirs(&self.db) != missing
        {
            workspace
                .set_missing_dirs(&mut self.db)
                .with_durability(Durability::MEDIUM)
                .to(Arc::new(missing));
        }
    }

    /// After an edit of the program in `dir`: resolve again the packages it names whose
    /// versions asked for changed (see [`AnalysisHost::resolve_packages`]), and read a
    /// component directory it names for the first time, so a `component` typed is checked
    /// against its program at once. Unlike [`AnalysisHost::load_dependencies`] (on opening
    /// and saving), nothing is fetched: a half-typed name (`aw` on the way to `aws`) is not
    /// fetched, and a half-typed path (`./we` on the way to `./web`) is read once, as a
    /// directory with no program, whose neighbours make a did-you-mean.
    pub fn load_typed_packages(&mut self, dir: &str) {
        let Some(&program) = self.programs.get(&normalise_dir(dir)) else {
            return;
        };
        let names = (program_packages(required_packages(&self.db, program)).into_iter())
            .map(|(name, _, _)| name)
            .collect();
        self.resolve_packages(Scope::Names(names), true);
        self.sync_missing();
        let Some(workspace) = Workspace::try_get(&self.db) else {
            return;
        };
        let mut missing = (**workspace.missing_dirs(&self.db)).clone();
        let mut read = false;
        for dir in self.component_dirs(program) {
            if !self.programs.contains_key(&dir) && !missing.contains_key(&dir) {
                read |= self.read_component_dir(dir, &mut missing);
            }
        }
        match read {
            // The component's own packages and components, as on opening.
            true => self.load_dependencies(),
            false => self.set_missing_dirs(missing),
        }
    }

    /// Read package `name` at `version`: a package block's exact version on the search
    /// path first, then its hashed name in the caches (`cached_as`).
    fn read_package(
        &self,
        name: &str,
        version: Option<&str>,
        cached_as: Option<&CachedPackage>,
    ) -> Result<Vec<pcl_schema::ReadSchema>, pcl_schema::LoadError> {
        match (self.loader.read(name, version), cached_as) {
            (Err(pcl_schema::LoadError::NotFound(_)), Some(cached)) => {
                self.read_cached(name, version, cached)
            }
            (read, _) => read,
        }
    }

    /// Every package the loaded programs name, with the versions they ask for in program
    /// order (by directory; each version once).
    fn package_requests(&self) -> BTreeMap<SmolStr, VersionsAsked> {
        let mut requests: BTreeMap<SmolStr, VersionsAsked> = BTreeMap::new();
        for &program in self.programs.values() {
            for (name, version, cached_as) in program_packages(required_packages(&self.db, program))
            {
                let asked = requests.entry(name).or_default();
                if !asked.iter().any(|(v, _)| *v == version) {
                    asked.push((version, cached_as));
                }
            }
        }
        requests
    }

    /// Resolve the packages of `scope` whose versions asked for (by all programs) changed
    /// since they were last resolved: the first version found is loaded under the bare
    /// name (a program that asks for one found nowhere is checked against another
    /// program's, and never unloads it for them); when none is found, the name is
    /// forgotten, and the first version's notes say why. `typed`: nothing is fetched, and
    /// a miss is not remembered for fetching. Whether any package was loaded or let go.
    fn resolve_packages(&mut self, scope: Scope, typed: bool) -> bool {
        let mut changed = false;
        for (name, asked) in self.package_requests() {
            let in_scope = match &scope {
                Scope::All => true,
                Scope::New => !self.resolved.contains_key(&name),
                Scope::Names(names) => names.contains(&name),
            };
            let current = Resolution::Asked(asked.iter().map(|(v, _)| v.clone()).collect());
            match self.resolved.get(&name) {
                _ if !in_scope => continue,
                Some(resolution) if *resolution == Resolution::Given || *resolution == current => {
                    continue;
                }
                _ => {}
            }
            self.resolved.insert(name.clone(), current);
            let mut first_miss = None;
            let mut found = false;
            for (version, cached_as) in &asked {
                // Loaded at that version already: nothing to read.
                if self.chosen.get(&name) == Some(version)
                    && pcl_schema::package_named(&self.db, &name).is_some()
                {
                    found = true;
                    break;
                }
                let read = match self.read_package(&name, version.as_deref(), cached_as.as_deref())
                {
                    Err(pcl_schema::LoadError::NotFound(not_found)) if !typed => {
                        match self.fetch(&name, &not_found) {
                            Some(read) => Ok(read),
                            None => Err(pcl_schema::LoadError::NotFound(not_found)),
                        }
                    }
                    read => read,
                };
                match read {
                    Ok(read) => {
                        self.loader.apply(&mut self.db, read);
                        self.chosen.insert(name.clone(), version.clone());
                        found = true;
                        changed = true;
                        break;
                    }
                    Err(error) => {
                        first_miss.get_or_insert(error);
                    }
                }
            }
            if found {
                self.missing.remove(&name);
                self.fetchable.remove(&name);
                continue;
            }
            changed |= pcl_schema::package_named(&self.db, &name).is_some();
            self.loader.forget(&mut self.db, &name);
            self.chosen.remove(&name);
            match first_miss {
                Some(pcl_schema::LoadError::NotFound(not_found)) if !typed => {
                    self.remember_missing(&name, not_found);
                }
                Some(error @ pcl_schema::LoadError::NotFound(_)) => {
                    let notes = self.missing_notes(error);
                    self.missing.insert(name.clone(), notes.into());
                    self.typed_misses.insert(name);
                }
                _ => {
                    self.missing.remove(&name);
                }
            }
        }
        changed
    }

    /// A package found on no source: what to fetch (when the CLI could), and the notes its
    /// "no schema found" errors carry.
    fn remember_missing(&mut self, name: &SmolStr, not_found: Box<pcl_schema::PackageNotFound>) {
        if let Some(request) = FetchRequest::for_missing(name, &not_found) {
            self.fetchable.insert(name.clone(), request);
        }
        let notes = self.missing_notes(pcl_schema::LoadError::NotFound(not_found));
        self.missing.insert(name.clone(), notes.into());
    }

    /// The notes of a "no schema found" error for a package that failed to load so.
    fn missing_notes(&self, error: pcl_schema::LoadError) -> Vec<String> {
        let mut notes = error.notes();
        if self.fetching.is_some() {
            // The flag was given: only the command is left to suggest.
            for note in &mut notes {
                *note = note.replace("run again with --fetch-schemas, or run", "run");
            }
        }
        notes
    }

    /// Sets the `MissingPackages` input when what the host knows changed.
    fn sync_missing(&mut self) {
        if let Some(input) = pcl_schema::MissingPackages::try_get(&self.db)
            && **input.notes(&self.db) != self.missing
        {
            input
                .set_notes(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(Arc::new(self.missing.clone()));
        }
    }

    /// Load the schemas of packages named outside programs (the namespaces of stack
    /// config keys), when they are found; a package found nowhere is not an error.
    pub fn load_packages(&mut self, names: &[&str]) {
        for &name in names {
            if pcl_schema::package_named(&self.db, name).is_some() {
                continue;
            }
            if let Ok(read) = self.loader.read(name, None) {
                self.loader.apply(&mut self.db, read);
            }
        }
    }

    /// What loading schemas had to tell the user since the last call (a schema of
    /// another version than the installed plugin's used), as diagnostics placed at the
    /// package.
    pub fn take_schema_messages(&mut self) -> Vec<pcl_diagnostics::Diagnostic> {
        let mut messages = std::mem::take(&mut self.fetch_messages);
        messages.extend(self.loader.take_notes());
        messages
    }

    fn component_dirs(&self, program: Program) -> Vec<SmolStr> {
        let dir = program.dir(&self.db).clone();
        let mut res = Vec::new();
        for &file in program.files(&self.db).iter() {
            for source in file.declarations(&self.db).component_sources.iter() {
                res.push(join_dir(&dir, source));
            }
        }
        res
    }
}

/// How a package name was resolved: for the versions the programs asked for, in program
/// order (`None`: the unversioned resolution), found or not; or given as text (kept
/// whatever is asked).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Resolution {
    Asked(Vec<Option<SmolStr>>),
    Given,
}

/// Which packages [`AnalysisHost::resolve_packages`] looks at.
enum Scope {
    All,
    /// Those never resolved (a program just set: what it needs before anything reads it).
    New,
    /// Those named.
    Names(BTreeSet<SmolStr>),
}

/// The versions asked for a package, in program order, with how Pulumi's cache names
/// each.
type VersionsAsked = Vec<(Option<SmolStr>, Option<Box<CachedPackage>>)>;

/// A package with its version and how Pulumi's cache names it (for a `package` block with
/// a download URL or a parameterization).
type ProgramPackage = (SmolStr, Option<SmolStr>, Option<Box<CachedPackage>>);

/// One version per package per program: the one the first `package` block pins, else the
/// highest any resource's options ask for, else none (the unversioned resolution).
/// `packages` is sorted by name, each name's uses in file order.
fn program_packages(packages: &[PackageUse]) -> Vec<ProgramPackage> {
    let mut res: Vec<ProgramPackage> = Vec::new();
    for group in packages.chunk_by(|a, b| a.name == b.name) {
        let versions = |pinned: bool| {
            (group.iter())
                .filter(move |u| u.pinned == pinned)
                .filter_map(|u| u.version.as_deref())
        };
        // The first `package` block decides (a conflicting later one is an error).
        let block = group.iter().find(|u| u.pinned);
        let version = match block {
            Some(block) => block.version.as_deref(),
            None => pcl_schema::program_version(versions(false)),
        };
        let cached_as = block.and_then(|b| b.cached_as.clone());
        res.push((group[0].name.clone(), version.map(SmolStr::new), cached_as));
    }
    res
}

/// `dir` as programs are keyed: lexically normalised, `/` separated.
pub fn normalise_dir(dir: &str) -> SmolStr {
    join_dir(dir, ".")
}

/// The names of the directories beside `dir` that hold `.pp` files, sorted.
fn program_dirs_beside(dir: &str) -> Box<[SmolStr]> {
    let Some(parent) = Path::new(dir).parent() else {
        return Box::default();
    };
    let Some(entries) = read_dir_here(parent) else {
        return Box::default();
    };
    let holds_program = |path: &Path| {
        std::fs::read_dir(path).is_ok_and(|mut entries| {
            entries.any(|e| e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "pp")))
        })
    };
    let mut names: Vec<SmolStr> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|path| path.is_dir() && holds_program(path))
        .filter_map(|path| path.file_name().map(|n| SmolStr::new(n.to_string_lossy())))
        .collect();
    names.sort();
    names.into_boxed_slice()
}

/// The `.pp` files directly in `dir`, sorted, with their texts.
fn read_program_files(dir: &Path) -> std::io::Result<Vec<(SmolStr, SourceText)>> {
    let mut files = Vec::new();
    for path in program_file_paths(dir) {
        let text = SourceText::decode(crate::read_source_file(&path)?);
        files.push((SmolStr::new(path.to_string_lossy()), text));
    }
    Ok(files)
}

/// A source file's text as read, and where its bytes stopped being UTF-8 when they did
/// (the text then has each invalid sequence replaced: [`pcl_syntax::decode_source`]). A
/// `String` is a text read as UTF-8.
pub struct SourceText {
    pub text: Arc<String>,
    pub invalid_utf8: Option<pcl_syntax::InvalidUtf8>,
}

impl SourceText {
    /// A file's text from its bytes, which need not be UTF-8.
    pub fn decode(bytes: Vec<u8>) -> SourceText {
        let (text, invalid_utf8) = pcl_syntax::decode_source(bytes);
        SourceText {
            text: Arc::new(text),
            invalid_utf8,
        }
    }
}

impl From<Arc<String>> for SourceText {
    fn from(text: Arc<String>) -> SourceText {
        SourceText {
            text,
            invalid_utf8: None,
        }
    }
}

impl From<String> for SourceText {
    fn from(text: String) -> SourceText {
        SourceText::from(Arc::new(text))
    }
}

/// The entries of `dir`, the working directory's for an empty path (a file's parent).
fn read_dir_here(dir: &Path) -> Option<std::fs::ReadDir> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    std::fs::read_dir(dir).ok()
}

/// The files of the program in `dir`: the `.pp` files directly in it, sorted, hidden
/// ones (`.draft.pp`) skipped. The one rule of `pcl check`, the host and the server.
pub fn program_file_paths(dir: &Path) -> Vec<std::path::PathBuf> {
    let Some(entries) = read_dir_here(dir) else {
        return Vec::new();
    };
    let mut files: Vec<std::path::PathBuf> = entries
        .filter_map(|entry| entry.ok())
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
        .map(|entry| dir.join(entry.file_name()))
        .filter(|path| path.extension().is_some_and(|e| e == "pp") && path.is_file())
        .collect();
    files.sort();
    files
}
