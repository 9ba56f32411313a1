//! Schema-backed object types, known by identity (package and token) rather than by
//! structure, so that they may refer to themselves. Their properties come from the
//! database on demand (`crate::object_properties`).

// salsa's interned-struct expansion trips this lint for structs without `'db` fields.
#![allow(unused_lifetimes)]

use smol_str::SmolStr;

use crate::Db;

/// A schema-backed object type: the package and token that define it, and whether this
/// is the input flavour (every property `In(T)`, as resource inputs take them).
#[salsa::interned(revisions = usize::MAX, debug)]
pub struct NamedObject<'db> {
    #[returns(ref)]
    pub package: SmolStr,
    #[returns(ref)]
    pub token: SmolStr,
    #[returns(copy)]
    pub input: bool,
}

impl<'db> NamedObject<'db> {
    /// The same object type without the input flavour.
    pub fn plain(self, db: &'db dyn Db) -> NamedObject<'db> {
        NamedObject::new(db, self.package(db).clone(), self.token(db).clone(), false)
    }

    /// The input flavour of this object type.
    pub fn input_flavour(self, db: &'db dyn Db) -> NamedObject<'db> {
        NamedObject::new(db, self.package(db).clone(), self.token(db).clone(), true)
    }
}
