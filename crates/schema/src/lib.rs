//! Pulumi package schemas: loading them (`loader`), indexing a file in one pass without
//! decoding its items (`index`), decoding one resource, function or type on demand
//! (`spec`), resolving the token spellings programs use (`token`), and lowering schema
//! types to PCL types (`lower`). `describe` renders what `pcl schema` prints.
//!
//! Semantics follow `../shared/docs/pcl-semantics.md` (outside the repo) §5. Everything below the loader is a salsa
//! query over [`PackageSource`] inputs, so a package is read once and each token is
//! decoded at most once, when first asked for.
//!
//! Invariants:
//! - Only the loader does IO; queries read `PackageSource` inputs of high durability, so
//!   their memos survive edits to programs.
//! - Lowering lives here, above `pcl-types`, because it reads decoded items and reports
//!   problems with JSON pointers into the schema's text; the type system reaches it only
//!   through `pcl_types::Db::named_object_properties` (see `docs/architecture.md`).
//! - A broken item is an error with its pointer and code, never a failure of the package:
//!   everything else in the file keeps working.

mod describe;
mod error;
mod fetch;
mod index;
mod item;
mod loader;
mod lower;
mod scan;
mod search;
mod sha256;
mod source;
mod spec;
mod token;

#[cfg(test)]
mod tests;

use pcl_types::{Name, NamedObject, Ty};
use smol_str::SmolStr;

pub use describe::{
    ItemDescription, PackageListing, PropertyDescription, describe_package, describe_token,
    item_description, package_listing, suggest_tokens, suggest_tokens_of,
};
pub use error::SchemaError;
pub use fetch::{FetchError, FetchRequest, fetch_schema, pulumi_on_path};
pub use index::{PackageIndex, Section, Span, package_index};
pub use item::SchemaItem;
pub use loader::{
    LoadError, PackageNotFound, ReadSchema, SchemaLoader, fetch_command, version_note,
};
pub use lower::{
    ConfigTypes, Discriminated, FunctionTypes, LoweredObject, LoweredType, MissingPackageRef,
    Property, ResourceTypes, TypeDefinition, config_types, function_types, named_object,
    resource_types, type_definition,
};
pub use search::{
    CACHE_HOME_VARIABLE, Candidate, PULUMI_HOME_VARIABLE, Parameterization, SCHEMA_PATH_VARIABLE,
    SearchPath, cache_file_name, is_hashed, program_version,
};
pub use source::{
    LoadedPackages, MissingPackages, PackageSource, missing_package_notes,
    missing_package_suggestion, package_key, package_named,
};
pub use spec::{ItemKind, ItemSpec, decode_item};
pub use token::{ModuleFormat, canonical, decompose, package_of};

/// The properties of a schema object type, sorted by name: what a database answers for
/// [`pcl_types::Db::named_object_properties`] once schemas are loaded.
pub fn named_object_properties<'db>(
    db: &'db dyn pcl_types::Db,
    object: NamedObject<'db>,
) -> &'db [(Name, Ty<'db>)] {
    &named_object(db, object).fields
}

/// The schema object type a written token names in `source` (plain flavour), or `None`
/// when the token names no object type there.
pub fn object_type<'db>(
    db: &'db dyn pcl_types::Db,
    source: PackageSource,
    written: &str,
) -> Option<Ty<'db>> {
    let (ItemKind::Type, token) = resolve_token(db, source, written)? else {
        return None;
    };
    let item = SchemaItem::new(db, source, ItemKind::Type, token);
    match type_definition(db, item) {
        Ok(LoweredType {
            definition: TypeDefinition::Object(ty),
            ..
        }) => Some(*ty),
        _ => None,
    }
}

/// The item a written token names in `source`: the provider for
/// `pulumi:providers:<pkg>`, else a resource, function or type, by exact token, canonical
/// key or canonical form (in that order), else a resource one of whose aliases it is.
pub fn resolve_token(
    db: &dyn salsa::Database,
    source: PackageSource,
    written: &str,
) -> Option<(ItemKind, SmolStr)> {
    let index = package_index(db, source).as_ref().ok()?;
    if written.strip_prefix("pulumi:providers:") == Some(index.name.as_str()) {
        return Some((ItemKind::Provider, SmolStr::new(written)));
    }
    let format = index.module_format.as_ref();
    for (kind, section) in index.sections() {
        if let Some(token) = section.resolve(written, &index.name, format) {
            return Some((kind, token.clone()));
        }
    }
    resource_with_alias(db, source, written).map(|token| (ItemKind::Resource, token))
}

/// The resource one of whose aliases is `alias`. Only resources whose JSON contains the
/// quoted alias are decoded, so a miss on a 100 MB schema costs a text search, not a
/// decode of every resource.
fn resource_with_alias(
    db: &dyn salsa::Database,
    source: PackageSource,
    alias: &str,
) -> Option<SmolStr> {
    let index = package_index(db, source).as_ref().ok()?;
    let text = source.text(db);
    let needle = format!("\"{alias}\"");
    for (at, _) in text.match_indices(&needle) {
        let Some((token, _)) = index.resources.containing(at) else {
            continue;
        };
        let item = SchemaItem::new(db, source, ItemKind::Resource, token.clone());
        if let Ok(Some(ItemSpec::Resource(spec))) = decode_item(db, item)
            && spec
                .aliases
                .iter()
                .any(|a| a.token.as_deref() == Some(alias))
        {
            return Some(token.clone());
        }
    }
    None
}
