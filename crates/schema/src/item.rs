//! The memo key of per-item queries: one resource, function or type of one package.

// salsa's interned-struct expansion trips this lint for structs without `'db` fields.
#![allow(unused_lifetimes)]

use smol_str::SmolStr;

use crate::PackageSource;
use crate::spec::ItemKind;

/// One item of one package: the memo key of its decoding.
#[salsa::interned(revisions = usize::MAX, debug)]
pub struct SchemaItem<'db> {
    #[returns(copy)]
    pub source: PackageSource,
    #[returns(copy)]
    pub kind: ItemKind,
    #[returns(ref)]
    pub token: SmolStr,
}
