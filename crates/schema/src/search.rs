//! Where schemas come from, in order: (1) the `--schema-dir` directories (the server's
//! `schemaPath`), (2) the directories of `PCL_SCHEMA_PATH`, (3) Pulumi's schema cache
//! `$PULUMI_HOME/schemas/` (default `$HOME/.pulumi/schemas/`), (4) our own cache
//! `$XDG_CACHE_HOME/pcl/schemas/` (default `$HOME/.cache/pcl/schemas/`); and which file of
//! them a package and version resolve to.
//!
//! - `NAME@VERSION`: the first directory holding that exact version (`NAME-VERSION.json`,
//!   or a `NAME.json` / `NAME/schema.json` whose `version` field is VERSION or absent).
//! - `NAME` found in (1) or (2): the highest version across both.
//! - Otherwise as Pulumi resolves an unversioned package: the highest installed plugin
//!   (`$PULUMI_HOME/plugins/resource-NAME-vX.Y.Z/`, skipping one with a `.partial`
//!   sibling), with its schema from (3) or (4); failing that the highest file there (with
//!   a note naming the plugin version); a `NAME.json` sorts below every versioned file.
//!
//! Pulumi's cache names a schema `<name>-<version>.json`, with a `-<12 hex digits>`
//! suffix for a download URL and another for a parameterization (see
//! [`cache_file_name`]). Such hashed names are used only when computed from a package
//! block, never by scanning a directory. We read Pulumi's cache; we never write it.

use std::path::{Path, PathBuf};

use semver::Version;
use smol_str::SmolStr;

use crate::index::index_text;
use crate::loader::{LoadError, PackageNotFound};
use crate::sha256::{hex, sha256};

/// The environment variable holding extra schema directories (path-list syntax).
pub const SCHEMA_PATH_VARIABLE: &str = "PCL_SCHEMA_PATH";
/// Pulumi's home directory (default `$HOME/.pulumi`).
pub const PULUMI_HOME_VARIABLE: &str = "PULUMI_HOME";
/// The base of per-user caches (default `$HOME/.cache`); ours is `pcl/schemas` below it.
pub const CACHE_HOME_VARIABLE: &str = "XDG_CACHE_HOME";

/// The directories searched for schemas, in order, and where plugins are installed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchPath {
    /// (1) and (2): directories named by the user.
    dirs: Vec<PathBuf>,
    /// Pulumi's home: (3) is its `schemas`, installed plugins are in its `plugins`.
    pulumi_home: Option<PathBuf>,
    /// (4): our cache of schemas.
    cache: Option<PathBuf>,
}

/// A schema file found on the search path.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Candidate {
    pub path: PathBuf,
    /// The version its file name states, if any.
    pub version: Option<Version>,
    /// Something the user should know about the choice (a plugin version not cached).
    pub note: Option<String>,
}

impl Candidate {
    fn new(path: PathBuf, version: Option<Version>) -> Candidate {
        Candidate {
            path,
            version,
            note: None,
        }
    }
}

/// A base provider's parameterization, as a `package` block states it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Parameterization {
    pub name: SmolStr,
    pub version: SmolStr,
    /// The parameter value, base64 (as written in the program and as Go marshals bytes).
    pub value: SmolStr,
}

impl SearchPath {
    /// Exactly these directories: no environment, no Pulumi home, no cache.
    pub fn new(dirs: Vec<PathBuf>) -> SearchPath {
        SearchPath {
            dirs,
            pulumi_home: None,
            cache: None,
        }
    }

    /// `dirs`, then Pulumi's home and our cache as given (tests pin them).
    pub fn with_homes(
        dirs: Vec<PathBuf>,
        pulumi_home: Option<PathBuf>,
        cache: Option<PathBuf>,
    ) -> SearchPath {
        SearchPath {
            dirs,
            pulumi_home,
            cache,
        }
    }

    /// `dirs` (from `--schema-dir`), then the directories in `PCL_SCHEMA_PATH`, then
    /// Pulumi's cache and ours, located from the environment.
    pub fn from_args_and_env(dirs: Vec<PathBuf>) -> SearchPath {
        let mut search = SearchPath {
            dirs,
            pulumi_home: pulumi_home_from_env(),
            cache: cache_dir_from_env(),
        };
        if let Some(value) = std::env::var_os(SCHEMA_PATH_VARIABLE) {
            search
                .dirs
                .extend(std::env::split_paths(&value).filter(|d| !d.as_os_str().is_empty()));
        }
        search
    }

    /// The directories the user named: `--schema-dir`, then `PCL_SCHEMA_PATH`.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Pulumi's schema cache, `$PULUMI_HOME/schemas`.
    pub fn pulumi_schemas(&self) -> Option<PathBuf> {
        self.pulumi_home.as_ref().map(|home| home.join("schemas"))
    }

    /// Where Pulumi installs plugins, `$PULUMI_HOME/plugins`.
    pub fn plugins(&self) -> Option<PathBuf> {
        self.pulumi_home.as_ref().map(|home| home.join("plugins"))
    }

    /// Our cache, where fetched schemas are written.
    pub fn cache(&self) -> Option<&Path> {
        self.cache.as_deref()
    }

    /// Every directory searched, in order.
    pub fn searched(&self) -> Vec<PathBuf> {
        let mut all = self.dirs.clone();
        all.extend(self.caches());
        all
    }

    /// (3) and (4).
    fn caches(&self) -> Vec<PathBuf> {
        self.pulumi_schemas()
            .into_iter()
            .chain(self.cache.clone())
            .collect()
    }

    /// Every file on the search path that may hold package `name` (hashed names
    /// excluded), directory by directory.
    pub fn candidates(&self, name: &str) -> Vec<Candidate> {
        (self.searched().iter())
            .flat_map(|dir| candidates_in(dir, name))
            .collect()
    }

    /// The versions of plugin `name` installed in Pulumi's home, highest first; a
    /// directory with a `.partial` sibling is still being installed and is skipped.
    pub fn installed_plugins(&self, name: &str) -> Vec<Version> {
        let Some(plugins) = self.plugins() else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(&plugins) else {
            return Vec::new();
        };
        let prefix = format!("resource-{name}-v");
        let mut versions: Vec<Version> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let file_name = entry.file_name().into_string().ok()?;
                let version = Version::parse(file_name.strip_prefix(&prefix)?).ok()?;
                let partial = plugins.join(format!("{file_name}.partial"));
                (entry.path().is_dir() && !partial.exists()).then_some(version)
            })
            .collect();
        versions.sort_by(|a, b| b.cmp(a));
        versions
    }

    /// The file to load for `name` at `version` (else as an unversioned package
    /// resolves: see the module documentation).
    pub fn find(&self, name: &str, version: Option<&str>) -> Result<Candidate, LoadError> {
        if !is_package_name(name) {
            return Err(LoadError::InvalidName {
                name: name.to_owned(),
            });
        }
        let found = match version {
            Some(version) => self.find_version(name, version),
            None => self.find_unversioned(name),
        };
        found.ok_or_else(|| self.not_found(name, version, None))
    }

    /// The schema of a package a `package` block describes, in Pulumi's cache or ours
    /// under the exact (possibly hashed) name Pulumi gives it.
    pub fn find_cached(&self, file_name: &str) -> Option<Candidate> {
        (self.caches().iter())
            .map(|dir| dir.join(file_name))
            .find(|path| path.is_file())
            .map(|path| Candidate::new(path, None))
    }

    /// The failure to find `name` (at `version`): where we looked, and what fixes it.
    pub fn not_found(&self, name: &str, version: Option<&str>, file: Option<String>) -> LoadError {
        let plugin = match version {
            None => self.installed_plugins(name).first().map(Version::to_string),
            Some(_) => None,
        };
        // The highest version first: the one to suggest.
        let other_versions = match version {
            Some(_) => {
                let mut candidates = self.candidates(name);
                candidates.sort_by(|a, b| b.version.cmp(&a.version));
                (candidates.into_iter())
                    .map(|c| (c.version.as_ref().map(Version::to_string), c.path))
                    .collect()
            }
            None => Vec::new(),
        };
        LoadError::NotFound(Box::new(PackageNotFound {
            name: name.to_owned(),
            version: version.map(str::to_owned),
            searched: self.searched(),
            suggestion: self.closest_package(name),
            cache: self.cache.clone(),
            plugin,
            cache_file: file,
            other_versions,
        }))
    }

    fn find_version(&self, name: &str, version: &str) -> Option<Candidate> {
        let wanted = Version::parse(version.trim_start_matches('v')).ok();
        for dir in self.searched() {
            for candidate in candidates_in(&dir, name) {
                let holds = match &candidate.version {
                    Some(found) => wanted.as_ref() == Some(found),
                    None => declared_version(&candidate.path).is_none_or(|declared| {
                        declared.trim_start_matches('v') == version.trim_start_matches('v')
                            || Version::parse(declared.trim_start_matches('v')).ok() == wanted
                                && wanted.is_some()
                    }),
                };
                if holds {
                    return Some(candidate);
                }
            }
        }
        None
    }

    fn find_unversioned(&self, name: &str) -> Option<Candidate> {
        let given: Vec<Candidate> = (self.dirs.iter())
            .flat_map(|dir| candidates_in(dir, name))
            .collect();
        if !given.is_empty() {
            return highest(given);
        }
        let cached: Vec<Candidate> = (self.caches().iter())
            .flat_map(|dir| candidates_in(dir, name))
            .collect();
        let plugin = self.installed_plugins(name).into_iter().next();
        if let Some(plugin) = &plugin
            && let Some(exact) = cached.iter().find(|c| c.version.as_ref() == Some(plugin))
        {
            return Some(exact.clone());
        }
        let mut best = highest(cached)?;
        if let Some(plugin) = plugin {
            let used = match &best.version {
                Some(version) => format!("version {version}"),
                None => "a schema without a version".to_owned(),
            };
            best.note = Some(format!(
                "the installed plugin `{name}` is version {plugin}, but no schema of that version is cached; checked against {used} ({})",
                best.path.display()
            ));
        }
        Some(best)
    }

    /// The package name on the search path closest to `name`. A short name keeps its first
    /// letter (`aws` is no misspelling of `tls`, two edits away).
    fn closest_package(&self, name: &str) -> Option<String> {
        let names = self.package_names();
        let closest = pcl_types::closest_name(name, names.iter().map(String::as_str))?;
        let short = name.chars().count() <= 3;
        (!short || closest.chars().next() == name.chars().next()).then(|| closest.to_owned())
    }

    /// The names of the packages whose schemas the search path's directories hold
    /// (`random` for `random-4.11.2.json`), sorted, each once.
    pub fn package_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for dir in self.searched() {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.filter_map(Result::ok) {
                let Ok(file_name) = entry.file_name().into_string() else {
                    continue;
                };
                // `NAME.json`, `NAME-VERSION.json` or `NAME/schema.json`; nothing else.
                let stem = match file_name.strip_suffix(".json") {
                    Some(stem) => stem,
                    None if entry.path().join("schema.json").is_file() => &file_name,
                    None => continue,
                };
                names.push(package_of_file_stem(stem).to_owned());
            }
        }
        names.sort_unstable();
        names.dedup();
        names
    }
}

/// The package a schema file's name (without `.json`) holds: `auth0` of `auth0-3.0.0`,
/// `azure-native` of `azure-native-v2.0.0`, the whole name when no version follows a `-`.
fn package_of_file_stem(stem: &str) -> &str {
    let versioned = (stem.match_indices('-')).find(|&(at, _)| {
        let version = stem[at + 1..].trim_start_matches('v');
        at > 0 && Version::parse(version).is_ok()
    });
    versioned.map_or(stem, |(at, _)| &stem[..at])
}

/// The version a program uses of a package its resources ask for at `versions` (one
/// version per package per program): the highest that parses as semver, else the last
/// in order; `None` when none is asked for.
pub fn program_version<'a>(versions: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(&str, Option<Version>)> = None;
    for version in versions {
        let parsed = Version::parse(version.trim_start_matches('v')).ok();
        let better = match &best {
            None => true,
            Some((_, current)) => parsed >= *current,
        };
        if better {
            best = Some((version, parsed));
        }
    }
    best.map(|(version, _)| version)
}

/// The highest versioned candidate; a file without a version sorts below every versioned
/// one; among equals, the first.
fn highest(candidates: Vec<Candidate>) -> Option<Candidate> {
    let mut best: Option<Candidate> = None;
    for candidate in candidates {
        if best.as_ref().is_none_or(|b| candidate.version > b.version) {
            best = Some(candidate);
        }
    }
    best
}

/// The files of one directory that may hold package `name`: `NAME.json` and
/// `NAME/schema.json` (no version), then `NAME-VERSION.json` sorted by name. Hashed
/// names (see [`is_hashed`]) are never picked by scanning.
fn candidates_in(dir: &Path, name: &str) -> Vec<Candidate> {
    let mut found = Vec::new();
    for path in [
        dir.join(format!("{name}.json")),
        dir.join(name).join("schema.json"),
    ] {
        if path.is_file() {
            found.push(Candidate::new(path, None));
        }
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    let prefix = format!("{name}-");
    let mut versioned: Vec<Candidate> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let file_name = entry.file_name().into_string().ok()?;
            let version = file_name.strip_prefix(&prefix)?.strip_suffix(".json")?;
            if is_hashed(version) {
                return None;
            }
            let version = Version::parse(version.trim_start_matches('v')).ok()?;
            Some(Candidate::new(entry.path(), Some(version)))
        })
        .collect();
    versioned.sort_by(|a, b| a.path.cmp(&b.path));
    found.extend(versioned);
    found
}

/// Whether the version part of a cache file name ends in one or two groups of `-` and
/// 12 lowercase hex digits: a download URL's or parameterization's hash, not a
/// prerelease.
pub fn is_hashed(version: &str) -> bool {
    let is_hash_group = |s: &str| {
        s.len() == 13
            && s.starts_with('-')
            && s[1..]
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    version.len() > 13
        && version.is_char_boundary(version.len() - 13)
        && is_hash_group(&version[version.len() - 13..])
}

/// The `version` field a schema file declares, if it can be read.
fn declared_version(path: &Path) -> Option<SmolStr> {
    let text = std::fs::read_to_string(path).ok()?;
    let index = index_text(&SmolStr::new(path.display().to_string()), &text).ok()?;
    index.version.clone()
}

/// The file name Pulumi's loader caches a schema under: `<name>-<version>.json`, with
/// `-<hash>` for a download URL and then for a parameterization (12 lowercase hex digits:
/// the first 6 bytes of the sha256 of the URL, and of Go's `json.Marshal` of the
/// parameterization). `name` and `version` are the base provider's.
pub fn cache_file_name(
    name: &str,
    version: &str,
    download_url: Option<&str>,
    parameterization: Option<&Parameterization>,
) -> String {
    let version = Version::parse(version.trim_start_matches('v'))
        .map(|v| v.to_string())
        .unwrap_or_else(|_| version.to_owned());
    let mut file = format!("{name}-{version}");
    if let Some(url) = download_url.filter(|url| !url.is_empty()) {
        file.push('-');
        file.push_str(&hex(&sha256(url.as_bytes())[..6]));
    }
    if let Some(parameterization) = parameterization {
        file.push('-');
        file.push_str(&hex(&sha256(
            parameterization_json(parameterization).as_bytes(),
        )[..6]));
    }
    file.push_str(".json");
    file
}

/// Go's `json.Marshal` of a `ParameterizationDescriptor`: `{"name","version","value"}`,
/// no spaces, the value's bytes in padded base64 (as the program writes them).
fn parameterization_json(parameterization: &Parameterization) -> String {
    format!(
        "{{\"name\":{},\"version\":{},\"value\":{}}}",
        go_json_string(&parameterization.name),
        go_json_string(&parameterization.version),
        go_json_string(&parameterization.value),
    )
}

/// A JSON string as Go's encoder writes it (HTML-safe: `<`, `>`, `&` escaped).
fn go_json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Pulumi's package-name pattern, `^[a-zA-Z][-a-zA-Z0-9_]*$`.
pub(crate) fn is_package_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// `$PULUMI_HOME`, else `$HOME/.pulumi`.
fn pulumi_home_from_env() -> Option<PathBuf> {
    non_empty_var(PULUMI_HOME_VARIABLE)
        .or_else(|| non_empty_var("HOME").map(|home| home.join(".pulumi")))
}

/// `$XDG_CACHE_HOME/pcl/schemas`, else `$HOME/.cache/pcl/schemas`.
fn cache_dir_from_env() -> Option<PathBuf> {
    non_empty_var(CACHE_HOME_VARIABLE)
        .or_else(|| non_empty_var("HOME").map(|home| home.join(".cache")))
        .map(|cache| cache.join("pcl").join("schemas"))
}

fn non_empty_var(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::{Parameterization, cache_file_name, is_hashed, parameterization_json};

    #[test]
    fn pulumi_cache_names() {
        let parameterization = Parameterization {
            name: "subpackage".into(),
            version: "2.0.0".into(),
            value: "SGVsbG9Xb3JsZA==".into(),
        };
        assert_eq!(
            parameterization_json(&parameterization),
            r#"{"name":"subpackage","version":"2.0.0","value":"SGVsbG9Xb3JsZA=="}"#
        );
        let names = [
            cache_file_name("aws", "v6.52.0", None, None),
            cache_file_name("aws", "6.52.0", Some("https://example.com/plugins"), None),
            cache_file_name("parameterized", "1.2.3", None, Some(&parameterization)),
            cache_file_name(
                "parameterized",
                "1.2.3",
                Some("https://example.com/plugins"),
                Some(&parameterization),
            ),
        ];
        expect_test::expect![[r#"
            [
                "aws-6.52.0.json",
                "aws-6.52.0-7ee8a8fdda3c.json",
                "parameterized-1.2.3-558ed1650088.json",
                "parameterized-1.2.3-7ee8a8fdda3c-558ed1650088.json",
            ]
        "#]]
        .assert_debug_eq(&names);
    }

    #[test]
    fn package_names_of_schema_files() {
        for (stem, package) in [
            ("auth0-3.0.0", "auth0"),
            ("azure-native-v2.0.0", "azure-native"),
            ("ns1", "ns1"),
            ("aws-6.0.0-0123456789ab", "aws"),
            ("kubernetes", "kubernetes"),
        ] {
            assert_eq!(super::package_of_file_stem(stem), package, "{stem}");
        }
    }

    #[test]
    fn a_short_package_name_keeps_its_first_letter() {
        let dir = pcl_test_utils::ScratchDir::new("closest");
        for file in ["tls.json", "random-4.11.2.json"] {
            std::fs::write(dir.join(file), "{}").expect("write");
        }
        let search = super::SearchPath::new(vec![dir.to_path_buf()]);
        assert_eq!(search.closest_package("aws"), None);
        assert_eq!(search.closest_package("tsl").as_deref(), Some("tls"));
        assert_eq!(search.closest_package("randm").as_deref(), Some("random"));
    }

    #[test]
    fn hashed_versions() {
        assert!(is_hashed("6.52.0-0123456789ab"));
        assert!(is_hashed("6.52.0-0123456789ab-ba9876543210"));
        assert!(!is_hashed("6.52.0-alpha"));
        assert!(!is_hashed("6.52.0-0123456789AB"));
        assert!(!is_hashed("6.52.0"));
    }
}
