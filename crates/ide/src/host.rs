//! The host: owns the database and everything that is not a query input (paths, the
//! schema loader), applies changes, and runs the schema and component pull loop.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_schema::{SchemaLoader, SearchPath};
use pcl_sema::{
    CheckOptions, File, Leniency, Program, ReparseBase, Workspace, join_dir, required_packages,
};
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
    /// Packages the pull loop has looked for (found or not), so it never retries them.
    requested_packages: BTreeSet<(SmolStr, Option<SmolStr>)>,
    /// Why each package found nowhere was not found (the `MissingPackages` input's value).
    missing: BTreeMap<SmolStr, Arc<[String]>>,
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
        AnalysisHost {
            db,
            loader: SchemaLoader::new(SearchPath::from_args_and_env(schema_dirs)),
            files: BTreeMap::new(),
            programs: BTreeMap::new(),
            edited: FxHashSet::default(),
            requested_packages: BTreeSet::new(),
            missing: BTreeMap::new(),
        }
    }

    /// A snapshot to ask questions of. Drop it before the next change.
    pub fn analysis(&self) -> Analysis {
        Analysis::new(self.db.clone(), self.files.clone(), self.programs.clone())
    }

    /// The database, for tests and benchmarks that drive queries directly.
    pub fn raw_database(&self) -> &RootDatabase {
        &self.db
    }

    /// Set (or replace) the program in `dir` with the given files (path, text). Texts
    /// equal to what the file already holds are not set again, so nothing re-runs. A text
    /// given as `Arc<str>` is shared, not copied.
    pub fn set_program<T: Into<Arc<str>> + AsRef<str>>(
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
        pcl_sema::sync_summaries(&mut self.db, &synced, &[program]);
        ProgramId(dir)
    }

    /// An edit: change one file's text (an editor's open document; a no-op when the text
    /// is the same). From its first edit on, a file is kept at low durability, the other
    /// files (set by [`AnalysisHost::set_program`], from disk) at medium: re-checking
    /// after an edit then verifies in constant time each memo that does not depend on the
    /// edited file. The first edit moves the file down, so what depends on it is checked
    /// again once; editors set a document's text when they open it, before asking.
    pub fn set_file_text(&mut self, path: &str, text: String) {
        let path = SmolStr::new(path);
        let file = match self.files.get(&path).copied() {
            Some(file) => {
                // The first edit moves the file to low durability, even with equal text.
                if !self.edited.contains(&file) || **file.text(&self.db) != *text {
                    self.keep_reparse_base(file);
                    file.set_text(&mut self.db)
                        .with_durability(Durability::LOW)
                        .to(Arc::from(text));
                }
                file
            }
            None => self.file(path, text, Durability::LOW),
        };
        self.edited.insert(file);
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
    fn keep_reparse_base(&mut self, file: File) {
        let base = ReparseBase {
            text: file.text(&self.db).clone(),
            parse: pcl_sema::parse(&self.db, file).clone(),
        };
        file.set_reparse_base(&mut self.db)
            .with_durability(Durability::LOW)
            .to(Some(base));
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
    fn file<T: Into<Arc<str>> + AsRef<str>>(
        &mut self,
        path: SmolStr,
        text: T,
        durability: Durability,
    ) -> File {
        match self.files.get(&path) {
            Some(&file) => {
                if **file.text(&self.db) != *text.as_ref() {
                    file.set_text(&mut self.db).to(text.into());
                }
                file
            }
            None => {
                let file = File::builder(path.clone(), text.into())
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
        self.loader.apply(&mut self.db, read);
        Ok(())
    }

    /// Change where schemas are looked for (then `PCL_SCHEMA_PATH`) and the leniencies.
    /// Packages already loaded stay; the ones found nowhere so far are looked for again.
    pub fn set_options(&mut self, schema_dirs: Vec<PathBuf>, leniency: Leniency) {
        self.loader
            .set_search_path(SearchPath::from_args_and_env(schema_dirs));
        if let Some(options) = CheckOptions::try_get(&self.db)
            && options.leniency(&self.db) != leniency
        {
            options
                .set_leniency(&mut self.db)
                .with_durability(Durability::MEDIUM)
                .to(leniency);
        }
        self.requested_packages.clear();
        self.load_dependencies();
    }

    /// Schema files may have changed on disk: read the loaded ones again (their packages
    /// are re-checked where their text changed) and look again for the packages that were
    /// found nowhere before.
    pub fn refresh_schemas(&mut self) {
        self.loader.refresh_from_disk(&mut self.db);
        self.requested_packages.clear();
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
        let mut missing: BTreeMap<SmolStr, Box<[SmolStr]>> = BTreeMap::new();
        loop {
            let mut changed = false;
            let programs: Vec<Program> = self.programs.values().copied().collect();
            for program in programs {
                for (name, version) in program_packages(required_packages(&self.db, program)) {
                    let key = (name.clone(), version.clone());
                    if !self.requested_packages.insert(key)
                        || pcl_schema::package_named(&self.db, &name).is_some()
                    {
                        continue;
                    }
                    match self.loader.read(&name, version.as_deref()) {
                        Ok(read) => {
                            self.loader.apply(&mut self.db, read);
                            self.missing.remove(&name);
                            changed = true;
                        }
                        Err(error @ pcl_schema::LoadError::NotFound(_)) => {
                            self.missing.insert(name.clone(), error.notes().into());
                        }
                        Err(_) => {}
                    }
                }
                for dir in self.component_dirs(program) {
                    if self.programs.contains_key(&dir) {
                        continue;
                    }
                    match read_program_files(Path::new(dir.as_str())) {
                        Ok(files) if !files.is_empty() => {
                            self.set_program(&dir, files);
                            changed = true;
                        }
                        _ => {
                            missing.insert(dir.clone(), program_dirs_beside(&dir));
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        missing.retain(|dir, _| !self.programs.contains_key(dir));
        if let Some(workspace) = Workspace::try_get(&self.db)
            && **workspace.missing_dirs(&self.db) != missing
        {
            workspace
                .set_missing_dirs(&mut self.db)
                .with_durability(Durability::MEDIUM)
                .to(Arc::new(missing));
        }
        self.sync_missing();
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
        self.loader.take_notes()
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

/// One version per package per program: the highest any resource or `package` block asks
/// for, else none (the unversioned resolution). `packages` is sorted by name.
fn program_packages(packages: &[(SmolStr, Option<SmolStr>)]) -> Vec<(SmolStr, Option<SmolStr>)> {
    let mut res: Vec<(SmolStr, Option<SmolStr>)> = Vec::new();
    for group in packages.chunk_by(|a, b| a.0 == b.0) {
        let version = pcl_schema::program_version(group.iter().filter_map(|(_, v)| v.as_deref()));
        res.push((group[0].0.clone(), version.map(SmolStr::new)));
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
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
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
fn read_program_files(dir: &Path) -> std::io::Result<Vec<(SmolStr, String)>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "pp") && path.is_file() {
            let bytes = std::fs::read(&path)?;
            let text = String::from_utf8_lossy(&bytes).into_owned();
            files.push((SmolStr::new(path.to_string_lossy()), text));
        }
    }
    files.sort();
    Ok(files)
}
