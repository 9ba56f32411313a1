//! PCL's type system: interned types with normalising constructors, and the four
//! relations the checker asks about them (assignability, conversion, unification,
//! traversal), each memoized in the salsa database. Display and parsing use the
//! reference's syntax (`output(list(string))`, `union(int, none)`).
//!
//! Rules follow `../shared/docs/pcl-semantics.md` (outside the repo) §2; the deliberate differences from Pulumi's Go
//! implementation are listed in `docs/deviations.md`.
//!
//! Invariants:
//! - The type system knows no schema format: schema object types are known by identity
//!   (package, token, flavour), and their properties come from the database through
//!   [`Db::named_object_properties`] (the root database answers with the schema lowering).
//! - Only immortal interned values are query keys, so memos survive edits to programs.
//! - Relations terminate on recursive schema types (coinductive checks), and display,
//!   parsing and traversal are depth-limited by the types they are given, never by input
//!   that can grow the stack unboundedly.
//! - Problems are data (`TypeParseError`, `TraverseProblem`) with stable codes, rendered
//!   to text only at the edge.

mod assignable;
mod conversion;
mod eventuals;
mod literal_targets;
mod named;
mod parse;
mod render;
mod suggest;
mod traverse;
mod ty;
mod unify;
mod value;

#[cfg(test)]
mod tests;

pub use assignable::assignable;
pub use conversion::{Conversion, conversion};
pub use eventuals::{displayed_input, input_type, resolve_outputs, resolve_promises, strip_input};
pub use literal_targets::{
    PlainAlternatives, literal_element_target, literal_object_target, plain_alternatives,
};
pub use named::NamedObject;
pub use parse::{TypeParseError, parse_type, parse_type_with};
pub use render::{display, pretty, readable, wrapped};
pub use suggest::{CandidateNames, closest_name, suggestion_distance};
pub use traverse::{Traversal, TraverseKey, TraverseProblem, traverse};
pub use ty::{EnumTy, Name, PrimitiveTypes, PropertyNames, Ty, TyKind, TypeCache, cached_key};
pub use unify::{unify, unify_types};
pub use value::ConstValue;

/// The database the type queries run against. Schema-backed object types get their
/// properties from it, so the type system does not depend on where schemas come from.
#[salsa::db]
pub trait Db: pcl_base_db::Db {
    /// The properties of a schema object type in the flavour `object` names, sorted by
    /// name (the input flavour takes `In(T)` where the schema allows eventual values).
    /// A database without schemas returns none.
    fn named_object_properties<'db>(&'db self, object: NamedObject<'db>) -> &'db [(Name, Ty<'db>)];

    /// Where this database keeps its primitive types once interned; `None` interns them at
    /// each use.
    fn primitive_types(&self) -> Option<&PrimitiveTypes> {
        None
    }

    /// Where this database keeps the property names of the object types it interns;
    /// `None` copies them into each type.
    fn property_names(&self) -> Option<&PropertyNames> {
        None
    }

    /// This handle's cache of interned types; `None` asks the interner each time.
    fn type_cache(&self) -> Option<&TypeCache> {
        None
    }
}

/// The properties of an object type, literal or schema-backed; `None` for other kinds.
pub fn object_properties<'db>(db: &'db dyn Db, ty: Ty<'db>) -> Option<&'db [(Name, Ty<'db>)]> {
    match ty.kind(db) {
        TyKind::Object(properties) => Some(properties),
        TyKind::Named(object) => Some(db.named_object_properties(*object)),
        _ => None,
    }
}

/// The type of the property `name` among properties sorted by name.
pub(crate) fn find_property<'db>(properties: &[(Name, Ty<'db>)], name: &str) -> Option<Ty<'db>> {
    properties
        .binary_search_by(|(n, _)| (**n).cmp(name))
        .ok()
        .map(|i| properties[i].1)
}
