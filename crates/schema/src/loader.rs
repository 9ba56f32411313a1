//! Finding and loading schema files: the search path (`--schema-dir` directories, then
//! `PCL_SCHEMA_PATH`), file names (`NAME.json`, `NAME-VERSION.json`, `NAME/schema.json`),
//! version choice (the version asked for, else the highest), and registering loaded
//! packages as salsa inputs. This is the only part of the crate that does IO; drivers
//! call it, queries never do.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_diagnostics::{Anchor, Code, Diagnostic, codes};
use salsa::{Durability, Setter};
use semver::Version;
use smol_str::SmolStr;

use crate::error::SchemaError;
use crate::index::index_text;
use crate::{LoadedPackages, PackageSource};

/// The environment variable holding extra schema directories (path-list syntax).
pub const SCHEMA_PATH_VARIABLE: &str = "PCL_SCHEMA_PATH";

/// The built-in `pulumi` package, used when no `pulumi` schema is on the search path.
const BUILTIN_PULUMI: &str = include_str!("builtin_pulumi.json");

/// Why a package could not be loaded.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LoadError {
    /// No file on the search path names the package (or not that version).
    NotFound {
        name: String,
        version: Option<String>,
        searched: Vec<PathBuf>,
        /// Package names on the search path that look like the one asked for.
        suggestion: Option<String>,
    },
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
            LoadError::NotFound {
                name,
                version,
                searched,
                suggestion,
            } => {
                let version = version
                    .as_ref()
                    .map(|v| format!(" version {v}"))
                    .unwrap_or_default();
                write!(f, "no schema for package `{name}`{version}")?;
                if searched.is_empty() {
                    write!(
                        f,
                        "; no schema directories given (use --schema-dir DIR or set {SCHEMA_PATH_VARIABLE})"
                    )?;
                } else {
                    let dirs: Vec<String> =
                        searched.iter().map(|d| d.display().to_string()).collect();
                    write!(
                        f,
                        " in {} (looked for {name}.json, {name}-VERSION.json and {name}/schema.json)",
                        dirs.join(", ")
                    )?;
                }
                if let Some(suggestion) = suggestion {
                    write!(f, "; did you mean `{suggestion}`?")?;
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
            LoadError::NotFound { .. } => codes::PACKAGE_NOT_FOUND,
            LoadError::InvalidName { .. } => codes::INVALID_PACKAGE_NAME,
            LoadError::Io { .. } => codes::SCHEMA_UNREADABLE,
            LoadError::Schema(error) => error.code,
        }
    }

    /// The failure as a diagnostic: a schema problem at its place in the file, anything
    /// else at the package or file it is about.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let origin = match self {
            LoadError::Schema(error) => return error.to_diagnostic(),
            LoadError::NotFound { name, .. } | LoadError::InvalidName { name } => name.clone(),
            LoadError::Io { path, .. } => path.display().to_string(),
        };
        let message = match self {
            LoadError::Io { message, .. } => message.clone(),
            _ => self.to_string(),
        };
        let anchor = Anchor::Place {
            origin,
            location: String::new(),
        };
        Diagnostic::error(self.code(), message, anchor)
    }
}

/// The directories searched for schemas, in order.
#[derive(Clone, Debug, Default)]
pub struct SearchPath {
    dirs: Vec<PathBuf>,
}

/// A schema file found on the search path.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Candidate {
    pub path: PathBuf,
    /// The version its file name states, if any.
    pub version: Option<Version>,
}

impl SearchPath {
    /// Exactly these directories.
    pub fn new(dirs: Vec<PathBuf>) -> SearchPath {
        SearchPath { dirs }
    }

    /// `dirs` (from `--schema-dir`), then the directories in `PCL_SCHEMA_PATH`.
    pub fn from_args_and_env(dirs: Vec<PathBuf>) -> SearchPath {
        let mut search = SearchPath { dirs };
        if let Some(value) = std::env::var_os(SCHEMA_PATH_VARIABLE) {
            search
                .dirs
                .extend(std::env::split_paths(&value).filter(|d| !d.as_os_str().is_empty()));
        }
        search
    }

    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Every file on the search path that may hold package `name`.
    pub fn candidates(&self, name: &str) -> Vec<Candidate> {
        let mut found = Vec::new();
        for dir in &self.dirs {
            for path in [
                dir.join(format!("{name}.json")),
                dir.join(name).join("schema.json"),
            ] {
                if path.is_file() {
                    found.push(Candidate {
                        path,
                        version: None,
                    });
                }
            }
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let prefix = format!("{name}-");
            let mut versioned: Vec<Candidate> = entries
                .filter_map(Result::ok)
                .filter_map(|entry| {
                    let file_name = entry.file_name().into_string().ok()?;
                    let version = file_name.strip_prefix(&prefix)?.strip_suffix(".json")?;
                    let version = Version::parse(version.trim_start_matches('v')).ok()?;
                    Some(Candidate {
                        path: entry.path(),
                        version: Some(version),
                    })
                })
                .collect();
            versioned.sort_by(|a, b| a.path.cmp(&b.path));
            found.extend(versioned);
        }
        found
    }

    /// The file to load for `name`: the one of the requested version (a file without a
    /// version in its name is the fallback), else the highest version, else the first
    /// unversioned file in search order.
    pub fn find(&self, name: &str, version: Option<&str>) -> Result<Candidate, LoadError> {
        if !is_package_name(name) {
            return Err(LoadError::InvalidName {
                name: name.to_owned(),
            });
        }
        let candidates = self.candidates(name);
        let wanted = version.and_then(|v| Version::parse(v.trim_start_matches('v')).ok());
        let chosen = match &wanted {
            Some(wanted) => candidates
                .iter()
                .find(|c| c.version.as_ref() == Some(wanted))
                .or_else(|| candidates.iter().find(|c| c.version.is_none())),
            None => candidates
                .iter()
                .filter(|c| c.version.is_some())
                .max_by(|a, b| a.version.cmp(&b.version))
                .or_else(|| candidates.first()),
        };
        chosen.cloned().ok_or_else(|| LoadError::NotFound {
            name: name.to_owned(),
            version: version.map(str::to_owned),
            searched: self.dirs.clone(),
            suggestion: self.closest_package(name),
        })
    }

    /// The package name on the search path closest to `name`.
    fn closest_package(&self, name: &str) -> Option<String> {
        let mut names: Vec<String> = Vec::new();
        for dir in &self.dirs {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.filter_map(Result::ok) {
                let Ok(file_name) = entry.file_name().into_string() else {
                    continue;
                };
                let stem = file_name.strip_suffix(".json").unwrap_or(&file_name);
                // `name-1.2.3` → `name`.
                let package = match stem.find(|c: char| c.is_ascii_digit()) {
                    Some(at) if at > 0 && stem[..at].ends_with(['-', 'v']) => {
                        stem[..at].trim_end_matches('v').trim_end_matches('-')
                    }
                    _ => stem,
                };
                names.push(package.to_owned());
            }
        }
        pcl_types::closest_name(name, names.iter().map(String::as_str)).map(str::to_owned)
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
}

impl SchemaLoader {
    pub fn new(search: SearchPath) -> SchemaLoader {
        SchemaLoader {
            search,
            loaded: BTreeMap::new(),
            on_disk: Vec::new(),
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
        }];
        let mut pending = index.referenced_packages;
        let mut seen: Vec<SmolStr> = res[0].keys.clone();
        while let Some((package, version)) = pending.pop() {
            let key = crate::package_key(&package, version.as_deref());
            if self.loaded.contains_key(&key) || seen.contains(&key) {
                continue;
            }
            seen.push(key.clone());
            // Best effort: a package that is not on the search path leaves its types
            // known by name only.
            let Ok(candidate) = self.search.find(&package, version.as_deref()) else {
                continue;
            };
            let Ok(text) = read_text(&candidate.path) else {
                continue;
            };
            let file = display_path(&candidate.path);
            if let Ok(index) = index_text(&file, &text) {
                let mut keys = vec![key, index.key()];
                keys.dedup();
                pending.extend(index.referenced_packages);
                res.push(ReadSchema {
                    keys,
                    file,
                    text,
                    path: Some(candidate.path),
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
        sources
    }
}

impl SchemaLoader {
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

/// Pulumi's package-name pattern, `^[a-zA-Z][-a-zA-Z0-9_]*$`.
fn is_package_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
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
