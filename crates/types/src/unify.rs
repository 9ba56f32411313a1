//! Unification: the type that two types meet at (conditionals, collection literals,
//! `UnifyTypes`), and how safely each side converts to it. Follows the reference's
//! driver (decide by conversion kinds first) and its per-kind merges.

use crate::{
    Conversion, Db, Name, Ty, TyKind, conversion, conversion::conversion_in_mode,
    object_properties, resolve_outputs, ty::TyPair,
};

/// Unify `a` with `b`: the unified type, and the kind of conversion both need to reach
/// it. `a` is the receiver whose merge rule applies when the kinds tie.
pub fn unify<'db>(db: &'db dyn Db, a: Ty<'db>, b: Ty<'db>) -> (Ty<'db>, Conversion) {
    let (t0, t1) = if a.is_dynamic(db) { (b, a) } else { (a, b) };
    if t0 == t1 {
        return (t0, Conversion::Safe);
    }
    if t1.is_dynamic(db) {
        return (t0, Conversion::Unsafe);
    }
    unify_query(db, TyPair::of(db, a, b))
}

/// The reference's `UnifyTypes`: fold the types left to right into a safe result (which
/// takes a unification only when it is safe, else the union) and an unsafe one (which
/// takes any unification that exists). `(none, none)` for no types.
pub fn unify_types<'db>(
    db: &'db dyn Db,
    types: impl IntoIterator<Item = Ty<'db>>,
) -> (Ty<'db>, Ty<'db>) {
    let types: Vec<Ty<'db>> = types.into_iter().collect();
    if types.len() > FOLDED_CONSTANTS
        && let Some(merged) = merged_objects(db, &types)
    {
        // Both folds' result, without the folds: each step merges safely, adding the next
        // object's own properties, optional, to those before. Folded, a tuple of n such
        // objects built objects of 1, 2, .. n properties (20,000 of them: more than a
        // minute and 3 GB).
        return (merged, merged);
    }
    let safe = if types.len() > FOLDED_CONSTANTS
        && (of_one_shape(db, &types) || told_apart_by_a_key(db, &types))
    {
        // The safe fold's result, without the fold: two types of one shape that differ do
        // so in constants of one type at the same places, as do two objects told apart by
        // a key, and such constants convert to each other only unsafely; so each safe step
        // adds the next to the union of those before (or keeps it, when it is there).
        // Folded, the unions of 2, 3, .. n members made iterating a tuple of n numbers
        // quadratic in time and memory (20k: 17 GB), and a tuple of n objects too (2,000
        // of `{ a = 1 }`: 19 s; 1,000 records with a name, half with one more property:
        // 5.7 s). The unsafe fold reaches the constants' type at the first two that differ.
        Ty::union(db, types.iter().copied())
    } else {
        fold_side(db, &types, Conversion::Safe)
    };
    (safe, fold_side(db, &types, Conversion::Unsafe))
}

/// Past how many types [`unify_types`] unites types of one shape at once.
const FOLDED_CONSTANTS: usize = 8;

/// Whether every type has the first's shape ([`same_shape`]).
pub(crate) fn of_one_shape<'db>(db: &'db dyn Db, types: &[Ty<'db>]) -> bool {
    let Some(&first) = types.first() else {
        return false;
    };
    types
        .iter()
        .all(|&ty| same_shape(db, first, ty, SHAPE_DEPTH))
}

/// Whether the types are objects told apart by a key: a property (of nested objects, at
/// most [`SHAPE_DEPTH`] deep) that each has, a constant of one type in all, whose values
/// differ between any two types that differ (a list of records with a name, some with
/// more properties than others). Two that differ then differ there in constants of one
/// type: unifying them takes the least of their common properties' kinds, unsafe at the
/// key, so none unify safely. Tried at the constants of the first type, a few.
pub(crate) fn told_apart_by_a_key<'db>(db: &'db dyn Db, types: &[Ty<'db>]) -> bool {
    let Some(&first) = types.first() else {
        return false;
    };
    let mut keys = Vec::new();
    constant_paths(db, first, &mut Vec::new(), &mut keys);
    keys.iter().any(|key| {
        let mut seen: rustc_hash::FxHashMap<Ty<'db>, Ty<'db>> = Default::default();
        let mut underlying = None;
        types.iter().all(|&ty| {
            let Some(leaf) = property_at(db, ty, key) else {
                return false;
            };
            let TyKind::Const(leaf_type, _) = leaf.kind(db) else {
                return false;
            };
            *underlying.get_or_insert(*leaf_type) == *leaf_type
                && *seen.entry(leaf).or_insert(ty) == ty
        })
    })
}

/// The objects merged into one, when each property either is in every object, the
/// same primitive or constant in all, or is in one object only (`[{ a = 1 }, { b = 2 }]`,
/// with properties all share): the shared properties as they are, the others optional.
/// Unifying two such objects (or the merge of some with another) takes the least kind of
/// their common properties, which are the same: safe; their merge makes the properties
/// of one side optional, which stay so.
pub(crate) fn merged_objects<'db>(db: &'db dyn Db, types: &[Ty<'db>]) -> Option<Ty<'db>> {
    let mut seen: rustc_hash::FxHashMap<&Name, (usize, Ty<'db>)> = Default::default();
    for &ty in types {
        let TyKind::Object(properties) = ty.kind(db) else {
            return None;
        };
        for (name, property) in properties.iter() {
            let (count, first) = seen.entry(name).or_insert((0, *property));
            *count += 1;
            if *first != *property {
                return None;
            }
        }
    }
    let plain = |ty: Ty<'db>| {
        matches!(
            ty.kind(db),
            TyKind::Const(..) | TyKind::Bool | TyKind::Int | TyKind::Number | TyKind::String
        )
    };
    let mut merged = Vec::with_capacity(seen.len());
    for (name, (count, ty)) in seen {
        match count {
            1 => merged.push((name.clone(), Ty::optional(db, ty))),
            _ if count == types.len() && plain(ty) => merged.push((name.clone(), ty)),
            _ => return None,
        }
    }
    Some(Ty::object(db, merged))
}

/// How many of the first type's constants [`told_apart_by_a_key`] tries as keys.
const KEYS_TRIED: usize = 8;

/// The paths (property names) of `ty`'s constants in nested objects, up to [`KEYS_TRIED`].
fn constant_paths<'db>(
    db: &'db dyn Db,
    ty: Ty<'db>,
    path: &mut Vec<Name>,
    found: &mut Vec<Vec<Name>>,
) {
    match ty.kind(db) {
        TyKind::Const(..) if !path.is_empty() => found.push(path.clone()),
        TyKind::Object(properties) if path.len() < SHAPE_DEPTH => {
            for (name, property) in properties.iter() {
                if found.len() >= KEYS_TRIED {
                    return;
                }
                path.push(name.clone());
                constant_paths(db, *property, path, found);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The type at `path` in nested objects, if `ty` has it.
fn property_at<'db>(db: &'db dyn Db, ty: Ty<'db>, path: &[Name]) -> Option<Ty<'db>> {
    path.iter().try_fold(ty, |ty, name| match ty.kind(db) {
        TyKind::Object(properties) => crate::find_property(properties, name),
        _ => None,
    })
}

/// How deep [`same_shape`] looks into objects and tuples (literals nest less deeply than
/// the parser allows): deeper types are folded one by one.
const SHAPE_DEPTH: usize = 32;

/// Whether `a` and `b` are the same type but for the values of constants: constants of
/// one type, or objects (tuples) whose properties (elements) are each of the same shape.
fn same_shape<'db>(db: &'db dyn Db, a: Ty<'db>, b: Ty<'db>, depth: usize) -> bool {
    if a == b {
        return true;
    }
    let Some(depth) = depth.checked_sub(1) else {
        return false;
    };
    match (a.kind(db), b.kind(db)) {
        (TyKind::Const(a, _), TyKind::Const(b, _)) => a == b,
        (TyKind::Tuple(a), TyKind::Tuple(b)) => {
            a.len() == b.len() && (a.iter().zip(b)).all(|(x, y)| same_shape(db, *x, *y, depth))
        }
        (TyKind::Object(a), TyKind::Object(b)) => {
            a.len() == b.len()
                && (a.iter().zip(b)).all(|((m, x), (n, y))| m == n && same_shape(db, *x, *y, depth))
        }
        _ => false,
    }
}

/// One side of [`unify_types`]: `types` folded left to right, each step taking the
/// unification when it is at least `needed`, else the union; `none` for no types.
pub(crate) fn fold_side<'db>(db: &'db dyn Db, types: &[Ty<'db>], needed: Conversion) -> Ty<'db> {
    let mut types = types.iter().copied();
    let first = types.next().unwrap_or_else(|| Ty::none(db));
    types.fold(first, |acc, t| fold_step(db, acc, t, needed))
}

/// One step of `unify_types`: the unification if it is at least `needed`, else the union.
fn fold_step<'db>(db: &'db dyn Db, acc: Ty<'db>, t: Ty<'db>, needed: Conversion) -> Ty<'db> {
    match unify(db, acc, t) {
        (unified, kind) if kind >= needed => unified,
        _ => Ty::union(db, [acc, t]),
    }
}

#[salsa::tracked(returns(copy))]
fn unify_query<'db>(db: &'db dyn Db, pair: TyPair<'db>) -> (Ty<'db>, Conversion) {
    let (t0, t1) = (pair.first(db), pair.second(db));
    let from = conversion_in_mode(db, t0, t1, true);
    let to = conversion_in_mode(db, t1, t0, true);
    if from < to {
        return (t1, to);
    }
    if from > to {
        return (t0, from);
    }
    if from == Conversion::None {
        return (Ty::union(db, [t0, t1]), Conversion::Safe);
    }
    if let TyKind::Union(members) = t1.kind(db) {
        return unify_union(db, members, t0);
    }
    merge(db, t0, t1, from)
}

/// The order in which primitives win a unification.
fn primitive_precedence(db: &dyn Db) -> [Ty<'_>; 5] {
    [
        Ty::string(db),
        Ty::number(db),
        Ty::int(db),
        Ty::bool(db),
        Ty::id(db),
    ]
}

/// The receiver's merge rule, for two types whose conversion kinds tie (and exist).
fn merge<'db>(
    db: &'db dyn Db,
    t0: Ty<'db>,
    t1: Ty<'db>,
    tied: Conversion,
) -> (Ty<'db>, Conversion) {
    let prefer_receiver = || (t0, conversion_in_mode(db, t0, t1, true));
    match (t0.kind(db), t1.kind(db)) {
        (
            TyKind::Bool
            | TyKind::Int
            | TyKind::Number
            | TyKind::String
            | TyKind::Id
            | TyKind::Opaque(_),
            _,
        ) => {
            for goal in primitive_precedence(db) {
                if t0 == goal {
                    return (goal, conversion_in_mode(db, goal, t1, true));
                }
                if t1 == goal {
                    return (goal, conversion_in_mode(db, goal, t0, true));
                }
            }
            (Ty::dynamic(db), Conversion::Safe)
        }
        (TyKind::None | TyKind::Const(..), _) => (t0, conversion(db, t1, t0)),
        // The reference fails an assertion here; keep the receiver with the tied kind.
        (TyKind::Enum(_), _) => (t0, tied),
        (TyKind::List(e), TyKind::Tuple(elements)) => {
            let (e, kind) = fold(db, *e, elements.iter().copied(), Conversion::Safe);
            (Ty::list(db, e), kind)
        }
        (TyKind::List(e), TyKind::List(f) | TyKind::Set(f)) | (TyKind::Set(e), TyKind::List(f)) => {
            let (e, kind) = unify(db, *e, *f);
            (Ty::list(db, e), kind)
        }
        (TyKind::Set(e), TyKind::Set(f)) => {
            let (e, kind) = unify(db, *e, *f);
            (Ty::set(db, e), kind)
        }
        (TyKind::Set(e), TyKind::Tuple(elements)) => {
            let (e, kind) = fold(db, *e, elements.iter().copied(), Conversion::Unsafe);
            (Ty::set(db, e), kind)
        }
        (TyKind::Map(e), TyKind::Map(f)) => {
            let (e, kind) = unify(db, *e, *f);
            (Ty::map(db, e), kind)
        }
        (TyKind::Map(e), TyKind::Object(_) | TyKind::Named(_)) => {
            let properties = object_properties(db, t1).unwrap_or_default();
            let (e, kind) = fold(db, *e, properties.iter().map(|(_, t)| *t), Conversion::Safe);
            (Ty::map(db, e), kind)
        }
        (TyKind::Tuple(a), TyKind::Tuple(b)) => unify_tuples(db, a, b),
        (TyKind::Tuple(elements), TyKind::List(f)) => {
            let (f, kind) = fold(db, *f, elements.iter().copied(), Conversion::Safe);
            (Ty::list(db, f), kind)
        }
        (TyKind::Tuple(elements), TyKind::Set(f)) => {
            let (f, kind) = fold(db, *f, elements.iter().copied(), Conversion::Unsafe);
            (Ty::set(db, f), kind)
        }
        (TyKind::Object(_) | TyKind::Named(_), TyKind::Map(f)) => {
            let properties = object_properties(db, t0).unwrap_or_default();
            let (f, kind) = fold(db, *f, properties.iter().map(|(_, t)| *t), Conversion::Safe);
            (Ty::map(db, f), kind)
        }
        (TyKind::Object(_) | TyKind::Named(_), TyKind::Object(_) | TyKind::Named(_)) => {
            unify_objects(db, t0, t1)
        }
        (TyKind::Union(members), _) => unify_union(db, members, t1),
        (TyKind::Output(e), TyKind::Output(f)) => {
            let (e, kind) = unify(db, *e, *f);
            (Ty::output(db, e), kind)
        }
        (TyKind::Output(e), TyKind::Promise(f)) => {
            let (e, kind) = unify(db, *e, resolve_outputs(db, *f));
            (Ty::output(db, e), kind)
        }
        (TyKind::Promise(e), TyKind::Promise(f)) => {
            let (e, kind) = unify(db, *e, *f);
            (Ty::promise(db, e), kind)
        }
        (TyKind::Promise(e), TyKind::Output(f)) => {
            let (e, kind) = unify(db, *e, *f);
            (Ty::output(db, e), kind)
        }
        _ => prefer_receiver(),
    }
}

/// Unify `start` with each of `others` in turn; the kind is the least of the steps,
/// starting from `initial`.
fn fold<'db>(
    db: &'db dyn Db,
    start: Ty<'db>,
    others: impl Iterator<Item = Ty<'db>>,
    initial: Conversion,
) -> (Ty<'db>, Conversion) {
    others.fold((start, initial), |(acc, kind), other| {
        let (unified, step) = unify(db, acc, other);
        (unified, kind.min(step))
    })
}

/// A union receiver: with another union, all members of both (safe); otherwise each
/// member unified with the other type.
fn unify_union<'db>(db: &'db dyn Db, members: &[Ty<'db>], other: Ty<'db>) -> (Ty<'db>, Conversion) {
    if let TyKind::Union(others) = other.kind(db) {
        let all = members.iter().chain(others.iter()).copied();
        return (Ty::union(db, all), Conversion::Safe);
    }
    let mut kind = Conversion::Safe;
    let unified: Vec<Ty<'db>> = members
        .iter()
        .map(|m| {
            let (t, step) = unify(db, *m, other);
            kind = kind.min(step);
            t
        })
        .collect();
    (Ty::union(db, unified), kind)
}

/// Two tuples: the common prefix unified pairwise, the longer one's tail made optional.
fn unify_tuples<'db>(db: &'db dyn Db, a: &[Ty<'db>], b: &[Ty<'db>]) -> (Ty<'db>, Conversion) {
    let common = a.len().min(b.len());
    let mut elements: Vec<Ty<'db>> = a.iter().zip(b).map(|(x, y)| unify(db, *x, *y).0).collect();
    let tail = if a.len() > common {
        &a[common..]
    } else {
        &b[common..]
    };
    elements.extend(tail.iter().map(|t| Ty::optional(db, *t)));
    (Ty::tuple(db, elements), tuples_merge_kind(db, a, b))
}

/// The kind of merging two tuples: the least over the common prefix. What unifying-mode
/// conversion reports, without building the merged tuple.
pub(crate) fn tuples_merge_kind<'db>(db: &'db dyn Db, a: &[Ty<'db>], b: &[Ty<'db>]) -> Conversion {
    a.iter()
        .zip(b)
        .map(|(x, y)| unify(db, *x, *y).1)
        .min()
        .unwrap_or(Conversion::Safe)
}

/// Two objects: common properties unified, the others made optional. Two distinct
/// schema object types meet at their union (they may be recursive, and merging them
/// structurally would not terminate).
fn unify_objects<'db>(db: &'db dyn Db, a: Ty<'db>, b: Ty<'db>) -> (Ty<'db>, Conversion) {
    if matches!(a.kind(db), TyKind::Named(_)) && matches!(b.kind(db), TyKind::Named(_)) {
        return (Ty::union(db, [a, b]), Conversion::Safe);
    }
    let mut merged: Vec<(Name, Ty<'db>)> = Vec::new();
    walk_properties(db, a, b, |name, x, y| {
        let ty = match (x, y) {
            (Some(x), Some(y)) => unify(db, x, y).0,
            (Some(t), None) | (None, Some(t)) => Ty::optional(db, t),
            (None, None) => return,
        };
        merged.push((name.clone(), ty));
    });
    (Ty::object(db, merged), objects_merge_kind(db, a, b))
}

/// The kind of merging two objects: the least over their common properties. What
/// unifying-mode conversion reports, without building the merged object.
pub(crate) fn objects_merge_kind<'db>(db: &'db dyn Db, a: Ty<'db>, b: Ty<'db>) -> Conversion {
    let mut kind = Conversion::Safe;
    walk_properties(db, a, b, |_, x, y| {
        if let (Some(x), Some(y)) = (x, y) {
            kind = kind.min(unify(db, x, y).1);
        }
    });
    kind
}

/// Visit the union of two objects' property names in order, with each side's type.
fn walk_properties<'db>(
    db: &'db dyn Db,
    a: Ty<'db>,
    b: Ty<'db>,
    mut visit: impl FnMut(&Name, Option<Ty<'db>>, Option<Ty<'db>>),
) {
    let a = object_properties(db, a).unwrap_or_default();
    let b = object_properties(db, b).unwrap_or_default();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let order = match (a.get(i), b.get(j)) {
            (Some((x, _)), Some((y, _))) => x.cmp(y),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match order {
            std::cmp::Ordering::Less => {
                visit(&a[i].0, Some(a[i].1), None);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                visit(&b[j].0, None, Some(b[j].1));
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                visit(&a[i].0, Some(a[i].1), Some(b[j].1));
                i += 1;
                j += 1;
            }
        }
    }
}
