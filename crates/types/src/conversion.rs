//! Conversion kinds: whether, and how safely, a value of one type converts to another
//! (Go's `ConversionFrom`). Primitive pairs are answered directly; compound pairs go
//! through memoized queries keyed on immortal interned pairs.

use crate::{Db, Ty, TyKind, object_properties, resolve_outputs, ty::TyPair};

/// How a value converts: not at all, with a check that may fail at run time, or always.
/// Ordered `None < Unsafe < Safe`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, salsa::SalsaValue)]
pub enum Conversion {
    None,
    Unsafe,
    Safe,
}

impl Conversion {
    /// Whether some conversion, safe or not, exists.
    pub fn exists(self) -> bool {
        self != Conversion::None
    }

    /// `"none"`, `"unsafe"` or `"safe"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Conversion::None => "none",
            Conversion::Unsafe => "unsafe",
            Conversion::Safe => "safe",
        }
    }
}

/// How a value of type `src` converts to `dest`.
pub fn conversion<'db>(db: &'db dyn Db, dest: Ty<'db>, src: Ty<'db>) -> Conversion {
    conversion_in_mode(db, dest, src, false)
}

/// Conversion in either mode. In unifying mode an object or tuple destination reports
/// the kind of merging it with the source instead of checking the source's shape.
pub(crate) fn conversion_in_mode<'db>(
    db: &'db dyn Db,
    dest: Ty<'db>,
    src: Ty<'db>,
    unifying: bool,
) -> Conversion {
    if dest == src || dest.is_dynamic(db) {
        return Conversion::Safe;
    }
    // Each kind read once (a read is a lookup in salsa's table, 2% of a check).
    let (dest_kind, src_kind) = (dest.kind(db), src.kind(db));
    if is_primitive_kind(dest_kind) {
        match src_kind {
            kind if is_primitive_kind(kind) || matches!(kind, TyKind::None | TyKind::Opaque(_)) => {
                return primitive_conversion(dest_kind, kind, true);
            }
            // As `compound_conversion` answers it, without a memo for every literal.
            TyKind::Const(underlying, _) => {
                return conversion_in_mode(db, dest, *underlying, unifying);
            }
            _ => {}
        }
    }
    // Without interning the pair for a memo: a union destination that has the source
    // among its members (an input's `T | output(T)` given an output), and a union, output
    // or promise destination of a primitive or constant source (by the kind rule, as
    // `compound_conversion` applies it; the members are primitive, mostly).
    match dest_kind {
        TyKind::Union(members)
            if !matches!(src_kind, TyKind::Union(_) | TyKind::Dynamic)
                && members.contains(&src) =>
        {
            return Conversion::Safe;
        }
        TyKind::Union(_) | TyKind::Output(_) | TyKind::Promise(_)
            if is_primitive_kind(src_kind)
                || matches!(
                    src_kind,
                    TyKind::None | TyKind::Opaque(_) | TyKind::Const(..)
                ) =>
        {
            return kind_rule(db, dest, src, unifying);
        }
        _ => {}
    }
    let pair = TyPair::of(db, dest, src);
    if unifying {
        unifying_conversion_query(db, pair)
    } else {
        conversion_query(db, pair)
    }
}

/// Conversions between recursive object types meet themselves; the cycle starts from
/// `Safe`, the reference's coinductive assumption, and iterates to a fixpoint.
#[salsa::tracked(returns(copy), cycle_initial = |_, _, _| Conversion::Safe)]
fn conversion_query<'db>(db: &'db dyn Db, pair: TyPair<'db>) -> Conversion {
    compound_conversion(db, pair.first(db), pair.second(db), false)
}

/// The same in unifying mode.
#[salsa::tracked(returns(copy), cycle_initial = |_, _, _| Conversion::Safe)]
fn unifying_conversion_query<'db>(db: &'db dyn Db, pair: TyPair<'db>) -> Conversion {
    compound_conversion(db, pair.first(db), pair.second(db), true)
}

/// The common prefix for a union, constant or dynamic source, then the kind rule.
fn compound_conversion<'db>(
    db: &'db dyn Db,
    dest: Ty<'db>,
    src: Ty<'db>,
    unifying: bool,
) -> Conversion {
    match src.kind(db) {
        TyKind::Union(members) => return union_source(db, dest, members, unifying),
        // The reference checks a constant's underlying type for equality, then still
        // hands the constant itself to union, output and promise destinations (so
        // `union(cty.StringVal("a"), int)` takes `cty.StringVal("a")` safely); every
        // other rule sees only the underlying type.
        TyKind::Const(underlying, _) if !matches!(dest.kind(db), TyKind::Enum(_)) => {
            return match dest.kind(db) {
                _ if dest == *underlying => Conversion::Safe,
                TyKind::Union(_) | TyKind::Output(_) | TyKind::Promise(_) => {
                    kind_rule(db, dest, src, unifying)
                }
                _ => conversion_in_mode(db, dest, *underlying, unifying),
            };
        }
        TyKind::Dynamic => return Conversion::Unsafe,
        _ => {}
    }
    kind_rule(db, dest, src, unifying)
}

/// A union source converts when its members do: safely if all do, not at all if none
/// does, unsafely otherwise.
fn union_source<'db>(
    db: &'db dyn Db,
    dest: Ty<'db>,
    members: &[Ty<'db>],
    unifying: bool,
) -> Conversion {
    let mut kind = Conversion::Safe;
    let mut exists = false;
    for member in members {
        match conversion_in_mode(db, dest, *member, unifying) {
            Conversion::Safe => exists = true,
            Conversion::Unsafe => (kind, exists) = (Conversion::Unsafe, true),
            Conversion::None => kind = Conversion::Unsafe,
        }
    }
    if exists { kind } else { Conversion::None }
}

/// The rule of the destination's kind, after the common prefix.
fn kind_rule<'db>(db: &'db dyn Db, dest: Ty<'db>, src: Ty<'db>, unifying: bool) -> Conversion {
    let from = |d: Ty<'db>, s: Ty<'db>| conversion_in_mode(db, d, s, unifying);
    let (dest_kind, src_kind) = (dest.kind(db), src.kind(db));
    match (dest_kind, src_kind) {
        _ if is_primitive_kind(dest_kind) => primitive_conversion(dest_kind, src_kind, true),
        (TyKind::Const(underlying, _), _) => weaken(conversion(db, *underlying, src)),
        (TyKind::Enum(enumeration), TyKind::Const(underlying, value))
            if *underlying != enumeration.underlying && enumeration.values.contains(value) =>
        {
            Conversion::Safe
        }
        (TyKind::Enum(enumeration), _) => weaken(from(enumeration.underlying, src)),
        (TyKind::List(e), TyKind::List(u) | TyKind::Set(u)) => from(*e, *u),
        (TyKind::List(e), TyKind::Tuple(elements)) => {
            minimum(elements.iter().map(|u| from(*e, *u)))
        }
        (TyKind::Set(e), TyKind::Set(u)) => from(*e, *u),
        (TyKind::Set(e), TyKind::List(u)) => weaken(from(*e, *u)),
        (TyKind::Set(e), TyKind::Tuple(_)) => weaken(from(Ty::list(db, *e), src)),
        (TyKind::Map(e), TyKind::Map(u)) => from(*e, *u),
        (TyKind::Map(e), _) => match object_properties(db, src) {
            Some(properties) => minimum(properties.iter().map(|(_, u)| from(*e, *u))),
            None => Conversion::None,
        },
        (TyKind::Tuple(elements), TyKind::Tuple(sources)) => {
            if unifying {
                crate::unify::tuples_merge_kind(db, elements, sources)
            } else if elements.len() != sources.len() {
                Conversion::None
            } else {
                minimum(
                    elements
                        .iter()
                        .zip(sources.iter())
                        .map(|(t, u)| from(*t, *u)),
                )
            }
        }
        (TyKind::Tuple(elements), TyKind::List(u) | TyKind::Set(u)) => {
            minimum(elements.iter().map(|t| from(*t, *u))).min(Conversion::Unsafe)
        }
        (TyKind::Object(_) | TyKind::Named(_), _) => object_destination(db, dest, src, unifying),
        (TyKind::Union(members), _) => {
            // Compared by identity: looking members up by their sorted display strings
            // made a display string for every literal type checked against a union.
            if members.contains(&src) {
                return Conversion::Safe;
            }
            // The greatest over the members; `Safe` is the top, so stop there.
            let mut best = Conversion::None;
            for member in members {
                best = best.max(from(*member, src));
                if best == Conversion::Safe {
                    break;
                }
            }
            best
        }
        (TyKind::Output(e), TyKind::Output(u)) => from(*e, *u),
        (TyKind::Output(e), TyKind::Promise(u)) => from(*e, resolve_outputs(db, *u)),
        (TyKind::Output(e), _) => from(*e, src),
        (TyKind::Promise(e), TyKind::Promise(u)) => from(*e, *u),
        (TyKind::Promise(_), TyKind::Output(_)) => Conversion::None,
        (TyKind::Promise(e), _) => from(*e, src),
        _ => Conversion::None,
    }
}

/// An object destination: from an object, every destination property must convert
/// from the source's (`none` when missing; extra source properties are ignored); from
/// a map, every property from the map's element, unsafely. In unifying mode, literal
/// objects report the kind of their merge; two schema objects, which may be recursive
/// and so cannot be merged, keep the structural check.
fn object_destination<'db>(
    db: &'db dyn Db,
    dest: Ty<'db>,
    src: Ty<'db>,
    unifying: bool,
) -> Conversion {
    let Some(dest_properties) = object_properties(db, dest) else {
        return Conversion::None;
    };
    if let TyKind::Map(u) = src.kind(db) {
        let each = dest_properties
            .iter()
            .map(|(_, t)| conversion_in_mode(db, *t, *u, unifying));
        return minimum(each).min(Conversion::Unsafe);
    }
    let Some(src_properties) = object_properties(db, src) else {
        return Conversion::None;
    };
    let both_named =
        matches!(dest.kind(db), TyKind::Named(_)) && matches!(src.kind(db), TyKind::Named(_));
    if unifying && !both_named {
        return crate::unify::objects_merge_kind(db, dest, src);
    }
    let none = Ty::none(db);
    minimum(dest_properties.iter().map(|(name, t)| {
        let u = crate::find_property(src_properties, name).unwrap_or(none);
        conversion_in_mode(db, *t, u, false)
    }))
}

/// The least of some kinds; `Safe` when there are none.
fn minimum(kinds: impl Iterator<Item = Conversion>) -> Conversion {
    let mut least = Conversion::Safe;
    for kind in kinds {
        least = least.min(kind);
        if least == Conversion::None {
            break;
        }
    }
    least
}

/// Any existing conversion made unsafe.
fn weaken(kind: Conversion) -> Conversion {
    kind.min(Conversion::Unsafe)
}

/// The types the primitive conversion table covers.
fn is_primitive_kind(kind: &TyKind<'_>) -> bool {
    matches!(
        kind,
        TyKind::Bool | TyKind::Int | TyKind::Number | TyKind::String | TyKind::Id
    )
}

/// The primitive conversion table, between the kinds of a primitive destination and its
/// source (equal kinds are equal types: they are interned). `check_unsafe` enables the
/// unsafe conversions through a string or number form, as the reference's `checkUnsafe`
/// flag does.
fn primitive_conversion(dest: &TyKind<'_>, src: &TyKind<'_>, check_unsafe: bool) -> Conversion {
    if dest == src {
        return Conversion::Safe;
    }
    let from = |d: &TyKind<'_>, check: bool| primitive_conversion(d, src, check);
    match dest {
        TyKind::Number => match from(&TyKind::Int, false) {
            Conversion::None if check_unsafe && from(&TyKind::String, false).exists() => {
                Conversion::Unsafe
            }
            kind => kind,
        },
        TyKind::Int | TyKind::Bool if !check_unsafe => Conversion::None,
        TyKind::Int if from(&TyKind::Number, true).exists() => Conversion::Unsafe,
        TyKind::Bool if from(&TyKind::String, false).exists() => Conversion::Unsafe,
        TyKind::String if matches!(src, TyKind::Id) => Conversion::Safe,
        TyKind::String => from(&TyKind::Bool, false).max(from(&TyKind::Number, false)),
        TyKind::Id => from(&TyKind::String, check_unsafe),
        _ => Conversion::None,
    }
}
