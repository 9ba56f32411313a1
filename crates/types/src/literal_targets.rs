//! What a literal given where a type is expected is checked against: the type's plain
//! alternatives (its members that are not `none`, eventual or `dynamic`), and among them
//! the one object type, or the one element type of a list, set or map. The checker asks
//! at every object and tuple literal given to an input, for a handful of types over and
//! over (a program's resources of one type give the same inputs), so the targets are
//! kept in the handle's [`TypeCache`](crate::TypeCache).

use salsa::plumbing::{AsId, FromId};

use crate::{Db, Ty, TyKind};

/// The members of `ty` that are not `none`, eventual or `dynamic`.
pub fn plain_alternatives<'db>(db: &'db dyn Db, ty: Ty<'db>) -> PlainAlternatives<'db> {
    let (members, alone): (&'db [Ty<'db>], Option<Ty<'db>>) = match ty.kind(db) {
        TyKind::Union(members) => (members, None),
        TyKind::Output(_) | TyKind::Promise(_) | TyKind::None => (&[], None),
        _ => (&[], Some(ty)),
    };
    PlainAlternatives {
        db,
        members: members.iter(),
        alone,
    }
}

/// The iterator of [`plain_alternatives`]: a union's members, or the type alone (not a
/// chain of the two, whose state checks cost as much as the kinds they yield).
pub struct PlainAlternatives<'db> {
    db: &'db dyn Db,
    members: std::slice::Iter<'db, Ty<'db>>,
    alone: Option<Ty<'db>>,
}

impl<'db> Iterator for PlainAlternatives<'db> {
    type Item = Ty<'db>;

    fn next(&mut self) -> Option<Ty<'db>> {
        if let Some(alone) = self.alone.take() {
            return Some(alone);
        }
        let db = self.db;
        (self.members.by_ref()).copied().find(|member| {
            !matches!(
                member.kind(db),
                TyKind::None | TyKind::Output(_) | TyKind::Promise(_) | TyKind::Dynamic
            )
        })
    }
}

/// Which target of a literal a [`TypeCache`](crate::TypeCache) keeps.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum LiteralTarget {
    Object,
    ListElement,
    MapElement,
}

/// The one plain alternative of `expected` that is an object type (literal or named),
/// whose properties an object literal with literal keys is checked against; `None` when
/// there is none, or more than one.
pub fn literal_object_target<'db>(db: &'db dyn Db, expected: Ty<'db>) -> Option<Ty<'db>> {
    kept(db, LiteralTarget::Object, expected, || {
        the_one(
            plain_alternatives(db, expected)
                .filter(|member| matches!(member.kind(db), TyKind::Object(_) | TyKind::Named(_))),
        )
    })
}

/// The element type of the one plain alternative of `expected` that is a map (`map`),
/// or a list or set (not `map`): what the elements of an object literal, or of a tuple
/// literal, are checked against; `None` when there is none, or more than one.
pub fn literal_element_target<'db>(
    db: &'db dyn Db,
    expected: Ty<'db>,
    map: bool,
) -> Option<Ty<'db>> {
    let target = match map {
        true => LiteralTarget::MapElement,
        false => LiteralTarget::ListElement,
    };
    kept(db, target, expected, || {
        the_one(plain_alternatives(db, expected).filter_map(|member| {
            match (member.kind(db), map) {
                (TyKind::Map(e), true) | (TyKind::List(e) | TyKind::Set(e), false) => Some(*e),
                _ => None,
            }
        }))
    })
}

/// The only item of `items`, if there is exactly one.
fn the_one<T>(mut items: impl Iterator<Item = T>) -> Option<T> {
    let first = items.next()?;
    items.next().is_none().then_some(first)
}

/// `compute`'s target of `expected`, through the handle's cache when it has one. Sound
/// for the reason `TypeCache` gives: the target depends on the interned (immortal) type
/// alone, and reading it records no dependency.
fn kept<'db>(
    db: &'db dyn Db,
    target: LiteralTarget,
    expected: Ty<'db>,
    compute: impl FnOnce() -> Option<Ty<'db>>,
) -> Option<Ty<'db>> {
    let Some(cache) = db.type_cache() else {
        return compute();
    };
    let key = (expected.as_id(), target);
    let found = (cache.literal_targets).get_or_compute(key, || compute().map(|ty| ty.as_id()));
    found.map(Ty::from_id)
}
