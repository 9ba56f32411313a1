//! Assignability: whether a value of one type is usable where another is expected
//! without any conversion (Go's `AssignableFrom`). It decides whether calls are lifted.

use crate::{Db, Ty, TyKind, object_properties, resolve_outputs, ty::TyPair};

/// Whether `dest` is assignable from `src`.
pub fn assignable<'db>(db: &'db dyn Db, dest: Ty<'db>, src: Ty<'db>) -> bool {
    if dest == src || dest.is_dynamic(db) {
        return true;
    }
    // A constant is assignable where its underlying type is equal to the destination,
    // or where a union member, or an eventual's element, accepts the constant itself.
    if let TyKind::Const(underlying, _) = src.kind(db) {
        return match dest.kind(db) {
            _ if dest == *underlying => true,
            TyKind::Union(members) => members.iter().any(|m| assignable(db, *m, src)),
            TyKind::Output(element) | TyKind::Promise(element) => assignable(db, *element, src),
            _ => false,
        };
    }
    match dest.kind(db) {
        TyKind::None
        | TyKind::Bool
        | TyKind::Int
        | TyKind::Number
        | TyKind::String
        | TyKind::Id
        | TyKind::Dynamic
        | TyKind::Opaque(_)
        | TyKind::Const(..)
        | TyKind::Enum(_) => false,
        _ => assignable_query(db, TyPair::of(db, dest, src)),
    }
}

/// Compound destinations, memoized. Recursive object types meet themselves; the cycle
/// starts from `true`, the coinductive assumption.
#[salsa::tracked(returns(copy), cycle_initial = |_, _, _| true)]
fn assignable_query<'db>(db: &'db dyn Db, pair: TyPair<'db>) -> bool {
    let (dest, src) = (pair.first(db), pair.second(db));
    let to = |d: Ty<'db>, s: Ty<'db>| assignable(db, d, s);
    match (dest.kind(db), src.kind(db)) {
        (TyKind::List(t), TyKind::List(u)) => to(*t, *u),
        (TyKind::List(t), TyKind::Tuple(elements)) => elements.iter().all(|u| to(*t, *u)),
        (TyKind::Map(t), TyKind::Map(u)) => to(*t, *u),
        (TyKind::Map(t), _) => object_properties(db, src)
            .is_some_and(|properties| properties.iter().all(|(_, u)| to(*t, *u))),
        (TyKind::Set(t), TyKind::Set(u)) => to(*t, *u),
        (TyKind::Tuple(elements), TyKind::Tuple(sources)) => {
            let none = Ty::none(db);
            elements
                .iter()
                .enumerate()
                .all(|(i, t)| to(*t, sources.get(i).copied().unwrap_or(none)))
        }
        (TyKind::Object(_) | TyKind::Named(_), _) => {
            let (Some(dest_properties), Some(src_properties)) =
                (object_properties(db, dest), object_properties(db, src))
            else {
                return false;
            };
            let none = Ty::none(db);
            dest_properties.iter().all(|(name, t)| {
                let u = crate::find_property(src_properties, name).unwrap_or(none);
                to(*t, u)
            })
        }
        (TyKind::Union(members), _) => members.iter().any(|m| to(*m, src)),
        (TyKind::Output(t), TyKind::Output(u)) => to(*t, *u),
        (TyKind::Output(t), TyKind::Promise(u)) => to(*t, resolve_outputs(db, *u)),
        (TyKind::Output(t), _) => to(*t, src),
        (TyKind::Promise(t), TyKind::Promise(u)) => to(*t, *u),
        (TyKind::Promise(t), _) => to(*t, src),
        _ => false,
    }
}
