//! Schema sources as salsa inputs: the text of each loaded package file, and the set of
//! packages loaded for the program, by name, looked up one name per query. Drivers set
//! them (with high durability: schemas rarely change while a program is edited); queries
//! only read them.

// salsa's interned-struct expansion trips this lint for structs without `'db` fields.
#![allow(unused_lifetimes)]

use std::collections::BTreeMap;
use std::sync::Arc;

use smol_str::SmolStr;

/// The text of one schema file.
#[salsa::input(debug)]
pub struct PackageSource {
    /// How to name the file in messages.
    #[returns(ref)]
    pub file: SmolStr,
    #[returns(ref)]
    pub text: Arc<str>,
}

/// The packages available to queries: by package name (the version a program uses),
/// and by `name@version` (what other packages' references name).
#[salsa::input(singleton, debug)]
pub struct LoadedPackages {
    #[returns(ref)]
    pub packages: Arc<BTreeMap<SmolStr, PackageSource>>,
}

/// The loaded package called `name`. Each name is its own query, which alone reads the
/// whole set of packages: when another package is loaded, the lookup re-runs, finds the
/// same source and is backdated, so nothing that used this package re-runs.
pub fn package_named(db: &dyn salsa::Database, name: &str) -> Option<PackageSource> {
    package_named_query(db, PackageName::new(db, SmolStr::new(name)))
}

/// A package name as a query key. Immortal, so lookups are never recycled.
#[salsa::interned(revisions = usize::MAX)]
struct PackageName<'db> {
    #[returns(ref)]
    name: SmolStr,
}

#[salsa::tracked(returns(copy))]
fn package_named_query<'db>(
    db: &'db dyn salsa::Database,
    name: PackageName<'db>,
) -> Option<PackageSource> {
    LoadedPackages::try_get(db)?
        .packages(db)
        .get(name.name(db).as_str())
        .copied()
}

/// The key a package is known by at a version: `name@version`, or `name` without one.
pub fn package_key(name: &str, version: Option<&str>) -> SmolStr {
    match version {
        Some(version) => SmolStr::new(format!("{name}@{}", version.trim_start_matches('v'))),
        None => SmolStr::new(name),
    }
}

/// Why each package the host looked for was found nowhere: the notes of its
/// [`crate::LoadError`] (where we looked, what fixes it), by package name. Set by the
/// host after loading; read by the checker for its "no schema found" errors.
#[salsa::input(singleton, debug)]
pub struct MissingPackages {
    #[returns(ref)]
    pub notes: Arc<BTreeMap<SmolStr, Arc<[String]>>>,
}

/// The notes explaining why package `name` was found nowhere, when the host looked for it.
pub fn missing_package_notes(db: &dyn salsa::Database, name: &str) -> Option<Arc<[String]>> {
    MissingPackages::try_get(db)?.notes(db).get(name).cloned()
}

/// The package found that is close to `name`, a package found nowhere (`random` for
/// `radnom`), when its notes name one.
pub fn missing_package_suggestion(db: &dyn salsa::Database, name: &str) -> Option<SmolStr> {
    let notes = missing_package_notes(db, name)?;
    notes.iter().find_map(|note| {
        let rest = note.strip_prefix(crate::loader::DID_YOU_MEAN_PACKAGE)?;
        Some(SmolStr::new(rest.split_once('`')?.0))
    })
}
