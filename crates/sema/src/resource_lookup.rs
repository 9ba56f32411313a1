//! Resolving a resource or read type token against the program's schemas, once per
//! token: what it names, why it names nothing, and the type references to such a block
//! see. Checking a block (`resources`) and typing references to it (`decl_ty`) both ask.

#![allow(unused_lifetimes)]

use std::hash::BuildHasher;

use pcl_schema::{ItemKind, SchemaItem, package_named, resolve_token};
use pcl_types::Ty;
use smol_str::SmolStr;

use crate::items::token_package;

/// Why a resource or read token has no schema types.
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub(crate) enum Unresolved {
    Malformed(String),
    NoPackage(SmolStr),
    NoResource(pcl_schema::PackageSource, SmolStr),
    /// Found, but what the block asks of it is wrong (the schema's version is still
    /// reported first).
    Refused(pcl_schema::PackageSource, SmolStr, Refusal),
}

#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub(crate) enum Refusal {
    ReadProvider,
    ReadComponent,
    Broken(Box<pcl_schema::SchemaError>),
}

/// A resource (`read: false`) or read type token as a query key. Immortal, as tokens are
/// few and shared by many blocks.
#[salsa::interned(revisions = usize::MAX)]
struct ResourceToken<'db> {
    #[returns(ref)]
    token: SmolStr,
    #[returns(copy)]
    read: bool,
}

/// What a resource or read token resolves to in the program's schemas, and the type
/// references to such a block see (its outputs, or `dynamic` without a schema).
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub(crate) struct ResourceLookup<'db> {
    pub(crate) found: Result<SchemaItem<'db>, Unresolved>,
    pub(crate) outputs: Ty<'db>,
}

/// Resolve a token once for every block that uses it: a function of the token and the
/// schemas only, so the types of unranged resources (`unranged_resource_ty`) and their
/// checking agree.
pub(crate) fn lookup_resource<'db>(
    db: &'db dyn pcl_types::Db,
    token: &str,
    read: bool,
) -> &'db ResourceLookup<'db> {
    resource_lookup(db, resource_token(db, token, read))
}

/// The query key of a token, through the handle's cache (`TypeCache::interned_key`): every
/// resource and every reference to one asks for its token's, and two checking threads
/// took turns at the interner's lock for the same few tokens.
fn resource_token<'db>(db: &'db dyn pcl_types::Db, token: &str, read: bool) -> ResourceToken<'db> {
    pcl_types::cached_key::<ResourceToken<'static>, _>(
        db,
        rustc_hash::FxBuildHasher.hash_one((token, read)),
        |key: ResourceToken<'db>| key.read(db) == read && key.token(db) == token,
        || ResourceToken::new(db, SmolStr::new(token), read),
    )
}

#[salsa::tracked(returns(ref))]
fn resource_lookup<'db>(
    db: &'db dyn pcl_types::Db,
    key: ResourceToken<'db>,
) -> ResourceLookup<'db> {
    let found = find_resource(db, key.token(db), key.read(db));
    let outputs = match found
        .as_ref()
        .map(|item| pcl_schema::resource_types(db, *item))
    {
        Ok(Ok(types)) => Ty::object(db, types.outputs.iter().map(|p| (p.name.clone(), p.ty))),
        _ => Ty::dynamic(db),
    };
    ResourceLookup { found, outputs }
}

fn find_resource<'db>(
    db: &'db dyn pcl_types::Db,
    token: &str,
    read: bool,
) -> Result<SchemaItem<'db>, Unresolved> {
    if let Err(message) = pcl_schema::decompose(token) {
        return Err(Unresolved::Malformed(message));
    }
    let package = SmolStr::new(token_package(token).unwrap_or("pulumi"));
    let Some(source) = package_named(db, &package) else {
        return Err(Unresolved::NoPackage(package));
    };
    let resolved = resolve_token(db, source, token);
    let Some((kind @ (ItemKind::Resource | ItemKind::Provider), canonical)) = resolved else {
        return Err(Unresolved::NoResource(source, package));
    };
    let refused = |refusal| Err(Unresolved::Refused(source, package.clone(), refusal));
    if read && kind == ItemKind::Provider {
        return refused(Refusal::ReadProvider);
    }
    let item = SchemaItem::new(db, source, kind, canonical);
    match pcl_schema::resource_types(db, item) {
        Ok(types) if read && types.is_component => refused(Refusal::ReadComponent),
        Ok(_) => Ok(item),
        Err(error) => refused(Refusal::Broken(Box::new(error.clone()))),
    }
}
