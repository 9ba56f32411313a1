//! The package index: one pass over a schema file that records its name, version and
//! module format, and *where* each resource, function and type is, without decoding
//! them (`crate::scan` skims the file). Items are decoded on demand (`crate::spec`), so
//! answering one token of a 100 MB schema never builds the other tokens.

use std::borrow::Cow;

use pcl_diagnostics::codes;
use rustc_hash::FxHashMap;
use smol_str::SmolStr;

use crate::PackageSource;
use crate::error::{SchemaError, line_column, pointer};
use crate::scan::scan;
use crate::spec::ItemKind;
use crate::token::{ModuleFormat, canonical};

/// Where an item's JSON is in the file: a byte range.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// One section of a schema (`resources`, `functions` or `types`): tokens in schema
/// order of keys (sorted), where each is, and a canonical-token lookup.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Section {
    entries: Vec<(SmolStr, Span)>,
    by_canonical: FxHashMap<String, usize>,
}

impl Section {
    /// The tokens, sorted.
    pub fn tokens(&self) -> impl ExactSizeIterator<Item = &SmolStr> {
        self.entries.iter().map(|(token, _)| token)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The span of the item written exactly as `token` in the schema.
    pub fn exact(&self, token: &str) -> Option<(&SmolStr, Span)> {
        let i = self
            .entries
            .binary_search_by(|(t, _)| t.as_str().cmp(token))
            .ok()?;
        let (token, span) = &self.entries[i];
        Some((token, *span))
    }

    /// The item whose JSON contains byte offset `at`.
    pub fn containing(&self, at: usize) -> Option<(&SmolStr, Span)> {
        self.entries
            .iter()
            .find(|(_, span)| span.start <= at && at < span.end)
            .map(|(token, span)| (token, *span))
    }

    /// The schema token a written token resolves to: an exact match, a canonical key
    /// written as is, or the written token's canonical form.
    pub fn resolve(
        &self,
        written: &str,
        package: &str,
        format: Option<&ModuleFormat>,
    ) -> Option<&SmolStr> {
        if let Some((token, _)) = self.exact(written) {
            return Some(token);
        }
        let by_key = |key: &str| self.by_canonical.get(key).map(|i| &self.entries[*i].0);
        by_key(written).or_else(|| by_key(&canonical(written, package, format)?))
    }
}

/// What one pass over a schema file learns. Built only by [`package_index`], so the
/// sections always agree with the file's text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PackageIndex {
    pub(crate) name: SmolStr,
    pub(crate) version: Option<SmolStr>,
    pub(crate) module_format: Option<ModuleFormat>,
    pub(crate) resources: Section,
    pub(crate) functions: Section,
    pub(crate) types: Section,
    pub(crate) provider: Option<Span>,
    /// The package's configuration variables (`config`).
    pub(crate) config: Option<Span>,
    /// Packages this one refers to (`/aws/v5.4.0/schema.json#/...`): name and version.
    pub(crate) referenced_packages: Vec<(SmolStr, Option<SmolStr>)>,
}

impl PackageIndex {
    /// The package's name.
    pub fn name(&self) -> &SmolStr {
        &self.name
    }

    /// The package's version, when its schema declares one.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// The token spellings and places of the package's resources, functions and types.
    pub fn sections(&self) -> [(ItemKind, &Section); 3] {
        [
            (ItemKind::Resource, &self.resources),
            (ItemKind::Function, &self.functions),
            (ItemKind::Type, &self.types),
        ]
    }

    /// The key the package is registered under at its version: `name@version`.
    pub fn key(&self) -> SmolStr {
        crate::package_key(&self.name, self.version.as_deref())
    }

    /// Every item: resources, functions and types in token order, then the provider and
    /// the configuration.
    pub fn items(&self) -> Vec<(ItemKind, SmolStr)> {
        let mut items =
            Vec::with_capacity(self.resources.len() + self.functions.len() + self.types.len() + 2);
        items.extend(
            self.resources
                .tokens()
                .map(|t| (ItemKind::Resource, t.clone())),
        );
        items.extend(
            self.functions
                .tokens()
                .map(|t| (ItemKind::Function, t.clone())),
        );
        items.extend(self.types.tokens().map(|t| (ItemKind::Type, t.clone())));
        items.push((
            ItemKind::Provider,
            SmolStr::new(format!("pulumi:providers:{}", self.name)),
        ));
        items.push((ItemKind::Config, SmolStr::default()));
        items
    }
}

/// Index a schema file.
#[salsa::tracked(returns(ref))]
pub fn package_index(
    db: &dyn salsa::Database,
    source: PackageSource,
) -> Result<PackageIndex, SchemaError> {
    index_text(source.file(db), source.text(db))
}

/// Index schema text known as `file` in messages: one pass, no database.
pub(crate) fn index_text(file: &SmolStr, text: &str) -> Result<PackageIndex, SchemaError> {
    let top = scan(text).map_err(|e| {
        let location = match e.pointer {
            Some(pointer) => pointer.to_owned(),
            None => {
                let (line, column) = line_column(text, e.offset);
                format!("line {line} column {column}")
            }
        };
        SchemaError {
            code: codes::SCHEMA_JSON_SYNTAX,
            file: file.clone(),
            location,
            message: e.message,
        }
    })?;
    let Some(name) = top.name else {
        return Err(SchemaError {
            code: codes::SCHEMA_INVALID_FIELD,
            file: file.clone(),
            location: String::new(),
            message: "missing field `name`".to_owned(),
        });
    };
    let name = SmolStr::new(name);
    // An empty module format is no module format, as in the reference.
    let module_format = match top.module_format.filter(|pattern| !pattern.is_empty()) {
        Some(pattern) => Some(ModuleFormat::new(&pattern).map_err(|message| SchemaError {
            code: codes::SCHEMA_INVALID_MODULE_FORMAT,
            file: file.clone(),
            location: pointer(["meta", "moduleFormat"]),
            message,
        })?),
        None => None,
    };
    let section = |items: Vec<(Cow<'_, str>, Span)>| {
        let mut entries: Vec<(SmolStr, Span)> = items
            .into_iter()
            .map(|(token, span)| (SmolStr::new(token), span))
            .collect();
        // A token given twice: the last definition wins, as in a JSON decoder.
        entries.reverse();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|later, kept| later.0 == kept.0);
        let mut by_canonical = FxHashMap::default();
        for (i, (token, _)) in entries.iter().enumerate() {
            if let Some(key) = canonical(token, &name, module_format.as_ref()) {
                by_canonical.entry(key).or_insert(i);
            }
        }
        Section {
            entries,
            by_canonical,
        }
    };
    let resources = section(top.resources);
    let functions = section(top.functions);
    let types = section(top.types);
    Ok(PackageIndex {
        name,
        version: top.version.map(SmolStr::new),
        resources,
        functions,
        types,
        provider: top.provider,
        config: top.config,
        referenced_packages: referenced_packages(text),
        module_format,
    })
}

/// The packages named by cross-package references (`"/aws/v5.4.0/schema.json#/..."`),
/// found by a scan of the text rather than a decode.
fn referenced_packages(text: &str) -> Vec<(SmolStr, Option<SmolStr>)> {
    let mut found: Vec<(SmolStr, Option<SmolStr>)> = Vec::new();
    for (at, _) in text.match_indices("/schema.json#") {
        let Some(quote) = text[..at].rfind('"') else {
            continue;
        };
        let path = &text[quote + 1..at];
        let mut parts = path.trim_start_matches('/').split('/');
        let (Some(name), version) = (parts.next(), parts.next()) else {
            continue;
        };
        if name.is_empty() || name.contains(['"', ' ', '#']) {
            continue;
        }
        let version = version.map(|v| SmolStr::new(v.trim_start_matches('v')));
        let entry = (SmolStr::new(name), version);
        if !found.contains(&entry) {
            found.push(entry);
        }
    }
    found
}
