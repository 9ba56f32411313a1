//! Schema sources as salsa inputs: the text of each loaded package file, and the set of
//! packages loaded for the program, by name. Drivers set them (with high durability:
//! schemas rarely change while a program is edited); queries only read them.

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

/// The loaded package called `name`.
pub fn package_named(db: &dyn salsa::Database, name: &str) -> Option<PackageSource> {
    LoadedPackages::try_get(db)?.packages(db).get(name).copied()
}

/// The key a package is known by at a version: `name@version`, or `name` without one.
pub fn package_key(name: &str, version: Option<&str>) -> SmolStr {
    match version {
        Some(version) => SmolStr::new(format!("{name}@{}", version.trim_start_matches('v'))),
        None => SmolStr::new(name),
    }
}
