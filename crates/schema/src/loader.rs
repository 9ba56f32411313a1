//! Loading schema files: reading the file the search path (`crate::search`) chooses and
//! the packages it refers to, and registering loaded packages as salsa inputs. With
//! `crate::search`, this is the only part of the crate that does IO; drivers call it,
//! queries never do.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How the notes of a package found nowhere begin the name of one found that is close
/// (read back by [`crate::missing_package_suggestion`]).
pub(crate) const DID_YOU_MEAN_PACKAGE: &str = "did you mean `";

use pcl_diagnostics::{Anchor, Code, Diagnostic, codes};
use salsa::{Durability, Setter};
use smol_str::SmolStr;

use crate::error::SchemaError;
use crate::index::index_text;
use crate::search::{SCHEMA_PATH_VARIABLE, SearchPath};
use crate::{LoadedPackages, PackageSource};

/// The built-in `pulumi` package, used when no `pulumi` schema is on the search path.
const BUILTIN_PULUMI: &str = include_str!("builtin_pulumi.json");

/// A package found nowhere: what was asked for, where we looked, and what would fix it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PackageNotFound {
    pub name: String,
    pub version: Option<String>,
    /// Every directory searched, in order.
    pub searched: Vec<PathBuf>,
    /// Package names on the search path that look like the one asked for.
    pub suggestion: Option<String>,
    /// Our cache, where a fetched schema goes.
    pub cache: Option<PathBuf>,
    /// For an unversioned package: the highest installed plugin version.
    pub plugin: Option<String>,
    /// For a package block's package: the exact (possibly hashed) cache file name.
    pub cache_file: Option<String>,
    /// For a version asked for and not found: the files of other versions of the package
    /// on the search path, highest first, with their versions (`None` when the file name
    /// states none).
    pub other_versions: Vec<(Option<String>, PathBuf)>,
}

/// Why a package could not be loaded.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LoadError {
    /// No file on the search path names the package (or not that version).
    NotFound(Box<PackageNotFound>),
    /// Not a package name (`^[a-zA-Z][-a-zA-Z0-9_]*$`), so never looked up as a file.
    InvalidName {
        name: String,
    },
    Io {
        path: PathBuf,
        message: String,
    },
    /// The file is read but is not a schema (malformed JSON, wrong field types).
    Schema(SchemaError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotFound(_) => {
                write!(f, "{}", self.headline())?;
                for note in self.notes() {
                    write!(f, "; {note}")?;
                }
                Ok(())
            }
            LoadError::InvalidName { name } => write!(
                f,
                "`{name}` is not a package name (a letter, then letters, digits, `-` or `_`)"
            ),
            LoadError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            LoadError::Schema(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for LoadError {}

impl LoadError {
    /// The diagnostic code of this failure.
    pub fn code(&self) -> Code {
        match self {
            LoadError::NotFound(_) => codes::PACKAGE_NOT_FOUND,
            LoadError::InvalidName { .. } => codes::INVALID_PACKAGE_NAME,
            LoadError::Io { .. } => codes::SCHEMA_UNREADABLE,
            LoadError::Schema(error) => error.code,
        }
    }

    /// The first line of the message, without the notes.
    fn headline(&self) -> String {
        match self {
            LoadError::NotFound(not_found) => {
                let PackageNotFound { name, version, .. } = &**not_found;
                let version = version
                    .as_ref()
                    .map(|v| format!(" version {v}"))
                    .unwrap_or_default();
                format!("no schema for package `{name}`{version}")
            }
            _ => self.to_string(),
        }
    }

    /// What the user should know beyond the headline: for a package found nowhere, where
    /// we looked (each directory, in order) and what fixes it.
    pub fn notes(&self) -> Vec<String> {
        let LoadError::NotFound(not_found) = self else {
            return Vec::new();
        };
        let PackageNotFound {
            name,
            version,
            searched,
            suggestion,
            cache,
            plugin,
            cache_file,
            other_versions,
        } = &**not_found;
        let mut notes = Vec::new();
        if let (Some(version), Some((found, path))) = (version, other_versions.first()) {
            let found_text = match found {
                Some(found) => format!("version {found} is"),
                None => "a schema without a version in its name is".to_owned(),
            };
            let others = match other_versions.len() {
                1 => String::new(),
                2 => " and 1 other file".to_owned(),
                n => format!(" and {} other files", n - 1),
            };
            let to_use = match found {
                Some(found) => format!(
                    "to check against it, ask for that version (`options {{ version = \"{found}\" }}`), or "
                ),
                None => String::new(),
            };
            notes.push(format!(
                "no `{name}` {version} on the search path, but {found_text} there ({}{others}): {to_use}get {version}'s schema",
                path.display()
            ));
        }
        if searched.is_empty() {
            notes.push(format!(
                "no schema directories given (use --schema-dir DIR or set {SCHEMA_PATH_VARIABLE})"
            ));
        } else {
            let dirs: Vec<String> = searched.iter().map(|d| d.display().to_string()).collect();
            let files = match cache_file {
                Some(file) => format!("{name}-VERSION.json, and {file} in the caches"),
                None => format!("{name}.json, {name}-VERSION.json and {name}/schema.json"),
            };
            notes.push(format!(
                "looked in, in order: {} (for {files})",
                dirs.join(", ")
            ));
        }
        // Not a package named for the other (`awsx`, `aws-native` for `aws`, or the other
        // way round): a package of its own, no misspelling (`kubernete` is one).
        let extends = |a: &str, b: &str| {
            let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
            long.strip_prefix(short)
                .is_some_and(|rest| rest == "x" || rest.starts_with('-'))
        };
        if let Some(suggestion) = (suggestion.as_ref()).filter(|s| *s != name && !extends(s, name))
        {
            notes.push(format!("{DID_YOU_MEAN_PACKAGE}{suggestion}`?"));
        }
        if cache_file.is_some() {
            notes.push(
                "a parameterized package is never fetched (its arguments cannot be recovered from the program): run `pulumi install` in the project, which caches its schema".to_owned(),
            );
            return notes;
        }
        if let Some(plugin) = plugin {
            notes.push(format!(
                "the installed plugin `{name}` is version {plugin}, and no schema of it is cached"
            ));
        }
        if let Some(cache) = cache {
            notes.push(format!(
                "fix: run again with --fetch-schemas, or run `{}`",
                fetch_command(name, version.as_deref().or(plugin.as_deref()), cache)
            ));
        }
        notes.push(format!(
            "or put its schema ({name}.json) in a directory passed with --schema-dir"
        ));
        notes
    }

    /// The failure as a diagnostic: a schema problem at its place in the file, anything
    /// else at the package or file it is about.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let origin = match self {
            LoadError::Schema(error) => return error.to_diagnostic(),
            LoadError::NotFound(not_found) => not_found.name.clone(),
            LoadError::InvalidName { name } => name.clone(),
            LoadError::Io { path, .. } => path.display().to_string(),
        };
        let message = match self {
            LoadError::Io { message, .. } => message.clone(),
            _ => self.headline(),
        };
        let anchor = Anchor::Place {
            origin,
            location: String::new(),
        };
        let mut diagnostic = Diagnostic::error(self.code(), message, anchor);
        diagnostic.notes = self.notes();
        diagnostic
    }
}

/// A note that package `name`'s schema is not of the version Pulumi would use (`note` is
/// [`crate::Candidate::note`]), placed at the package.
pub fn version_note(name: &str, note: &str) -> Diagnostic {
    let anchor = Anchor::Place {
        origin: name.to_owned(),
        location: String::new(),
    };
    let mut diagnostic = Diagnostic::warning(
        codes::SCHEMA_VERSION_SUBSTITUTED,
        format!("package `{name}`: {note}"),
        anchor,
    );
    diagnostic.severity = pcl_diagnostics::Severity::Note;
    diagnostic.notes.push(
        "fetch the plugin's version with --fetch-schemas, or name a version in a `package` block or the resources' `options { version = ... }`".to_owned(),
    );
    diagnostic
}

/// The shell command that writes `name`'s schema (at `version`) into our cache the way
/// `--fetch-schemas` does: through a temporary file and a rename.
pub fn fetch_command(name: &str, version: Option<&str>, cache: &Path) -> String {
    let (spec, file) = match version {
        Some(version) => {
            let version = version.trim_start_matches('v');
            (
                format!("{name}@{version}"),
                format!("{name}-{version}.json"),
            )
        }
        None => (name.to_owned(), format!("{name}.json")),
    };
    let target = cache.join(file);
    let target = shell_quote(&target.display().to_string());
    let tmp = format!("{}.tmp", target.trim_end_matches('\''));
    let tmp = if target.ends_with('\'') {
        format!("{tmp}'")
    } else {
        tmp
    };
    let mkdir = if cache.is_dir() {
        String::new()
    } else {
        format!("mkdir -p {} && ", shell_quote(&cache.display().to_string()))
    };
    format!("{mkdir}pulumi package get-schema {spec} > {tmp} && mv {tmp} {target}")
}

/// `s` as one shell word: as is when it holds only safe characters, else single-quoted.
fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+@%=:,".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A schema file read from disk (or given as text), with the keys it is to be known by:
/// the result of the pure read step, which touches no database.
#[derive(Clone, Debug)]
pub struct ReadSchema {
    /// `name` and `name@version` (or only the versioned key, for a referenced package).
    keys: Vec<SmolStr>,
    file: SmolStr,
    text: Arc<str>,
    /// The file it was read from, when it came from disk (to read it again after a change).
    path: Option<PathBuf>,
    /// Something to tell the user about the choice of file (see [`crate::Candidate::note`]).
    note: Option<String>,
    /// A referenced package read at another version than the reference names: what to
    /// warn about (both versions).
    substituted: Option<String>,
}

impl ReadSchema {
    /// What the user should know about how this schema was chosen, if anything.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// The file, as messages name it.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The key it is known by first: its package's name (`name@version` for a referenced
    /// package).
    pub fn key(&self) -> &str {
        self.keys.first().map_or("", SmolStr::as_str)
    }
}

/// Reads schema files and registers them as inputs, in two steps so that an editor can
/// do the slow part without holding the database: [`SchemaLoader::read`] and
/// [`SchemaLoader::read_file`] search the path, read files and skim their references (no
/// database); [`SchemaLoader::apply`] only sets inputs. [`SchemaLoader::load`] does both.
#[derive(Debug, Default)]
pub struct SchemaLoader {
    search: SearchPath,
    loaded: BTreeMap<SmolStr, PackageSource>,
    /// The loaded schemas that were read from files, with their paths.
    on_disk: Vec<(PackageSource, PathBuf)>,
    /// Notes about the choice of files applied since the last [`SchemaLoader::take_notes`].
    notes: Vec<Diagnostic>,
}

impl SchemaLoader {
    pub fn new(search: SearchPath) -> SchemaLoader {
        SchemaLoader {
            search,
            loaded: BTreeMap::new(),
            on_disk: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn search_path(&self) -> &SearchPath {
        &self.search
    }

    /// Look for packages not loaded yet in `search` from now on.
    pub fn set_search_path(&mut self, search: SearchPath) {
        self.search = search;
    }

    /// Load package `name` for a program (the version asked for, else the highest), and
    /// the packages it refers to when they are on the search path.
    pub fn load<Db: pcl_types::Db>(
        &mut self,
        db: &mut Db,
        name: &str,
        version: Option<&str>,
    ) -> Result<PackageSource, LoadError> {
        if let Some(source) = self.loaded.get(name) {
            return Ok(*source);
        }
        let read = self.read(name, version)?;
        Ok(self.apply(db, read)[0])
    }

    /// Load the schema file at `path` under the package name it declares.
    pub fn load_file<Db: pcl_types::Db>(
        &mut self,
        db: &mut Db,
        path: &Path,
    ) -> Result<PackageSource, LoadError> {
        let read = self.read_file(path)?;
        Ok(self.apply(db, read)[0])
    }

    /// The pure step for a package: read `name` at `version` (else the highest) from the
    /// search path (the reference always serves its own `pulumi` package), then the
    /// packages it refers to that are on the search path and not loaded yet. The first
    /// schema returned is the one asked for.
    pub fn read(&self, name: &str, version: Option<&str>) -> Result<Vec<ReadSchema>, LoadError> {
        if name == "pulumi" {
            let file = SmolStr::new("<built-in pulumi>");
            return self.read_text(Some(SmolStr::new(name)), file, Arc::from(BUILTIN_PULUMI));
        }
        let candidate = self.search.find(name, version)?;
        let text = read_text(&candidate.path)?;
        let mut res = self.read_text(
            Some(SmolStr::new(name)),
            display_path(&candidate.path),
            text,
        )?;
        res[0].path = Some(candidate.path);
        res[0].note = candidate.note;
        Ok(res)
    }

    /// The pure step for one file: read it, under the package name it declares, and the
    /// packages it refers to.
    pub fn read_file(&self, path: &Path) -> Result<Vec<ReadSchema>, LoadError> {
        let text = read_text(path)?;
        let mut res = self.read_text(None, display_path(path), text)?;
        res[0].path = Some(path.to_path_buf());
        Ok(res)
    }

    /// The pure step for schema text already in memory (stdin, an editor buffer), known
    /// as `file` in messages: under `name`, or the name it declares.
    pub fn read_text(
        &self,
        name: Option<SmolStr>,
        file: SmolStr,
        text: Arc<str>,
    ) -> Result<Vec<ReadSchema>, LoadError> {
        let index = index_text(&file, &text).map_err(LoadError::Schema)?;
        let mut keys = vec![name.unwrap_or_else(|| index.name.clone())];
        keys.push(index.key());
        keys.dedup();
        let mut res = vec![ReadSchema {
            keys,
            file,
            text,
            path: None,
            note: None,
            substituted: None,
        }];
        let referrer = res[0].file.clone();
        let mut pending: Vec<(SmolStr, Option<SmolStr>, SmolStr)> = (index.referenced_packages)
            .into_iter()
            .map(|(package, version)| (package, version, referrer.clone()))
            .collect();
        let mut seen: Vec<SmolStr> = res[0].keys.clone();
        while let Some((package, version, referrer)) = pending.pop() {
            let key = crate::package_key(&package, version.as_deref());
            if self.loaded.contains_key(&key) || seen.contains(&key) {
                continue;
            }
            seen.push(key.clone());
            // The version the reference names; else the program's own version of the
            // package (lowering falls back to it), else the highest on any source, with a
            // warning naming both. A package no source has leaves its types `dynamic`.
            let mut substituted = None;
            let candidate = match self.search.find(&package, version.as_deref()) {
                Ok(candidate) => candidate,
                Err(_) if self.loaded.contains_key(package.as_str()) => continue,
                Err(_) => match (version.as_deref(), self.search.find(&package, None)) {
                    (Some(wanted), Ok(candidate)) => {
                        let found = (candidate.version.as_ref())
                            .map_or("an unversioned schema".to_owned(), |v| {
                                format!("version {v}")
                            });
                        substituted = Some(format!(
                            "{referrer} refers to types of `{package}` {wanted}, which no source has; they are read from {found} ({})",
                            candidate.path.display()
                        ));
                        candidate
                    }
                    _ => continue,
                },
            };
            let Ok(text) = read_text(&candidate.path) else {
                continue;
            };
            let file = display_path(&candidate.path);
            if let Ok(index) = index_text(&file, &text) {
                let mut keys = vec![key, index.key()];
                keys.dedup();
                let referrer = file.clone();
                pending.extend(
                    (index.referenced_packages)
                        .into_iter()
                        .map(|(p, v)| (p, v, referrer.clone())),
                );
                res.push(ReadSchema {
                    keys,
                    file,
                    text,
                    path: Some(candidate.path),
                    note: None,
                    substituted,
                });
            }
        }
        Ok(res)
    }

    /// The apply step: make each schema an input under its keys and publish the set of
    /// packages once. Returns the sources in the order given.
    pub fn apply<Db: pcl_types::Db>(
        &mut self,
        db: &mut Db,
        schemas: Vec<ReadSchema>,
    ) -> Vec<PackageSource> {
        let mut sources = Vec::with_capacity(schemas.len());
        for schema in schemas {
            if let (Some(note), Some(name)) = (&schema.note, schema.keys.first()) {
                self.notes.push(version_note(name, note));
            }
            if let Some(warning) = &schema.substituted {
                let anchor = Anchor::Place {
                    origin: schema.file.to_string(),
                    location: String::new(),
                };
                let mut diagnostic =
                    Diagnostic::warning(codes::SCHEMA_VERSION_SUBSTITUTED, warning.clone(), anchor);
                diagnostic.notes.push(
                    "put the schema of the version it names on the search path to check against it"
                        .to_owned(),
                );
                self.notes.push(diagnostic);
            }
            let source = PackageSource::builder(schema.file, schema.text)
                .durability(Durability::HIGH)
                .new(db);
            for key in schema.keys {
                self.loaded.insert(key, source);
            }
            if let Some(path) = schema.path {
                self.on_disk.push((source, path));
            }
            sources.push(source);
        }
        self.publish(db);
        sources
    }

    /// Stop knowing package `name` by its bare name (a program asks for a version of it
    /// that is found nowhere): its uses then report it missing. Its versioned keys stay.
    pub fn forget<Db: pcl_types::Db>(&mut self, db: &mut Db, name: &str) {
        if self.loaded.remove(name).is_some() {
            self.publish(db);
        }
    }

    /// Set the `LoadedPackages` input to the packages known now.
    fn publish<Db: pcl_types::Db>(&self, db: &mut Db) {
        let packages = Arc::new(self.loaded.clone());
        match LoadedPackages::try_get(db) {
            Some(input) => {
                input
                    .set_packages(db)
                    .with_durability(Durability::HIGH)
                    .to(packages);
            }
            None => {
                let _ = LoadedPackages::builder(packages)
                    .durability(Durability::HIGH)
                    .new(db);
            }
        }
    }
}

impl SchemaLoader {
    /// What the user should know about the schemas applied since the last call (a
    /// version other than the installed plugin's), as notes placed at their packages.
    pub fn take_notes(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.notes)
    }

    /// Reads again every loaded schema that came from a file and sets the text of those
    /// that changed (an editor saw the file change on disk). A file that cannot be read any
    /// more becomes empty text, so uses of its package report that it failed to load.
    /// Returns how many schemas changed.
    pub fn refresh_from_disk<Db: pcl_types::Db>(&mut self, db: &mut Db) -> usize {
        let mut changed = 0;
        for (source, path) in &self.on_disk {
            let text = read_text(path).unwrap_or_else(|_| Arc::from(""));
            if *source.text(db) != text {
                source
                    .set_text(db)
                    .with_durability(Durability::HIGH)
                    .to(text);
                changed += 1;
            }
        }
        changed
    }
}

fn display_path(path: &Path) -> SmolStr {
    SmolStr::new(path.display().to_string())
}

/// A file's text; not UTF-8 is an error naming the first bad byte.
fn read_text(path: &Path) -> Result<Arc<str>, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError::Io {
        path: path.to_owned(),
        message: match e.kind() {
            std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
            _ => e.to_string(),
        },
    })?;
    String::from_utf8(bytes)
        .map(Arc::from)
        .map_err(|e| LoadError::Io {
            path: path.to_owned(),
            message: format!(
                "not UTF-8: invalid byte at offset {}",
                e.utf8_error().valid_up_to()
            ),
        })
}
