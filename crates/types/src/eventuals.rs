//! Eventual types (`output`, `promise`) and the helpers that add or strip them:
//! resolve-outputs, resolve-promises, `In(T)` ("T or an output of T", applied deeply),
//! and the plain form of an input type that messages and listings show.

use crate::{Db, Ty, TyKind};

/// `T` with every `output(X)` and `promise(X)` replaced by `X`, through collections,
/// unions, objects and tuples. A schema object's input flavour resolves to the plain one.
pub fn resolve_outputs<'db>(db: &'db dyn Db, ty: Ty<'db>) -> Ty<'db> {
    match at_a_glance(db, ty, Strip::OutputsAndPromises) {
        Some(resolved) => resolved,
        None => resolve_outputs_inside(db, ty),
    }
}

/// `T` with every `promise(X)` replaced by `X`, not looking inside outputs.
pub fn resolve_promises<'db>(db: &'db dyn Db, ty: Ty<'db>) -> Ty<'db> {
    match at_a_glance(db, ty, Strip::Promises) {
        Some(resolved) => resolved,
        None => resolve_promises_inside(db, ty),
    }
}

/// [`resolve_outputs`] of a type with others inside, memoized.
#[salsa::tracked(returns(copy))]
fn resolve_outputs_inside<'db>(db: &'db dyn Db, ty: Ty<'db>) -> Ty<'db> {
    resolve(db, ty, Strip::OutputsAndPromises)
}

/// [`resolve_promises`] of a type with others inside, memoized.
#[salsa::tracked(returns(copy))]
fn resolve_promises_inside<'db>(db: &'db dyn Db, ty: Ty<'db>) -> Ty<'db> {
    resolve(db, ty, Strip::Promises)
}

/// What `resolve` makes of `ty` without going inside another type (`None` when it
/// would): most types checking meets (strings, numbers, outputs of them) are resolved
/// by a look at their kind, not by a memo's lookup, which costs several times more.
fn at_a_glance<'db>(db: &'db dyn Db, ty: Ty<'db>, strip: Strip) -> Option<Ty<'db>> {
    match ty.kind(db) {
        // An output's element has no eventuals left (`Ty::output` resolves it).
        TyKind::Output(element) if strip == Strip::OutputsAndPromises => Some(*element),
        TyKind::Promise(_)
        | TyKind::List(_)
        | TyKind::Map(_)
        | TyKind::Set(_)
        | TyKind::Tuple(_)
        | TyKind::Union(_)
        | TyKind::Object(_) => None,
        TyKind::Named(object) if object.input(db) && strip == Strip::OutputsAndPromises => None,
        _ => Some(ty),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Strip {
    OutputsAndPromises,
    Promises,
}

/// What the memos compute: [`at_a_glance`]'s answer, else the type rebuilt around its
/// resolved insides.
fn resolve<'db>(db: &'db dyn Db, ty: Ty<'db>, strip: Strip) -> Ty<'db> {
    if let Some(resolved) = at_a_glance(db, ty, strip) {
        return resolved;
    }
    let again = |t: Ty<'db>| match strip {
        Strip::OutputsAndPromises => resolve_outputs(db, t),
        Strip::Promises => resolve_promises(db, t),
    };
    match ty.kind(db) {
        TyKind::Promise(element) => again(*element),
        TyKind::List(element) => Ty::list(db, again(*element)),
        TyKind::Map(element) => Ty::map(db, again(*element)),
        TyKind::Set(element) => Ty::set(db, again(*element)),
        TyKind::Tuple(elements) => Ty::tuple(db, elements.iter().map(|t| again(*t))),
        TyKind::Union(members) => Ty::union(db, members.iter().map(|t| again(*t))),
        TyKind::Object(properties) => Ty::object(
            db,
            properties.iter().map(|(name, t)| (name.clone(), again(*t))),
        ),
        // An input flavour, resolving outputs (`at_a_glance` answered for the others).
        TyKind::Named(object) => Ty::named(db, object.plain(db)),
        _ => ty,
    }
}

/// `In(T)`: the type of a value that may be given where `T` is expected, either
/// directly or as an output. Applied inside promises, maps, lists, unions and objects
/// (not sets, tuples, constants or enums); `dynamic`, `none` and outputs are unchanged.
/// Through the handle's `TypeCache` when it has one (checking asks for every input).
pub fn input_type<'db>(db: &'db dyn Db, ty: Ty<'db>) -> Ty<'db> {
    match db.type_cache() {
        Some(cache) => (cache.input_types).type_or_compute(ty, || input_type_query(db, ty)),
        None => input_type_query(db, ty),
    }
}

/// [`input_type`], memoized.
#[salsa::tracked(returns(copy))]
fn input_type_query<'db>(db: &'db dyn Db, ty: Ty<'db>) -> Ty<'db> {
    let direct = match ty.kind(db) {
        TyKind::Dynamic | TyKind::None | TyKind::Output(_) => return ty,
        TyKind::Promise(element) => Ty::promise(db, input_type(db, *element)),
        TyKind::Map(element) => Ty::map(db, input_type(db, *element)),
        TyKind::List(element) => Ty::list(db, input_type(db, *element)),
        TyKind::Union(members) => Ty::union(db, members.iter().map(|t| input_type(db, *t))),
        TyKind::Object(properties) => Ty::object(
            db,
            properties
                .iter()
                .map(|(name, t)| (name.clone(), input_type(db, *t))),
        ),
        TyKind::Named(object) if !object.input(db) => Ty::named(db, object.input_flavour(db)),
        _ => ty,
    };
    Ty::union(db, [direct, Ty::output(db, direct)])
}

/// `T` for `In(T)`-shaped types (`union(T, output(T))`) and optional ones, for messages
/// about a value given: "must be string" reads better than "must be string |
/// output(string)?".
pub fn strip_input<'db>(db: &'db dyn Db, ty: Ty<'db>) -> Ty<'db> {
    if let TyKind::Union(members) = ty.kind(db) {
        let plain: Vec<Ty<'db>> = (members.iter().copied())
            .filter(|m| !matches!(m.kind(db), TyKind::Output(_) | TyKind::None))
            .collect();
        if !plain.is_empty() && plain.len() < members.len() {
            return Ty::union(db, plain);
        }
    }
    ty
}

/// How deep [`displayed_input`] rewrites a type (below, it is shown as it is).
const DISPLAY_DEPTH: usize = 16;

/// `ty` as a message shows an expected type: [`strip_input`] at the top, and the outputs
/// an input accepts left out below it, so that a list of inputs reads `list(string)`, not
/// `list(output(string) | string)` (optional fields keep their `?`).
pub fn displayed_input<'db>(db: &'db dyn Db, ty: Ty<'db>) -> Ty<'db> {
    fn strip<'db>(db: &'db dyn Db, ty: Ty<'db>, depth: usize) -> Ty<'db> {
        let ty = match ty.kind(db) {
            TyKind::Union(members) if depth < DISPLAY_DEPTH => {
                let plain: Vec<Ty<'db>> = (members.iter().copied())
                    .filter(|m| !matches!(m.kind(db), TyKind::Output(_)))
                    .collect();
                match plain.is_empty() {
                    true => ty,
                    false => Ty::union(db, plain),
                }
            }
            _ => strip_input(db, ty),
        };
        if depth == 0 {
            return ty;
        }
        let inner = |t: Ty<'db>| strip(db, t, depth - 1);
        match ty.kind(db) {
            TyKind::List(e) => Ty::list(db, inner(*e)),
            TyKind::Map(e) => Ty::map(db, inner(*e)),
            TyKind::Set(e) => Ty::set(db, inner(*e)),
            TyKind::Tuple(elements) => Ty::tuple(db, elements.iter().map(|e| inner(*e))),
            TyKind::Object(fields) => {
                Ty::object(db, fields.iter().map(|(name, t)| (name.clone(), inner(*t))))
            }
            TyKind::Union(members) => Ty::union(db, members.iter().map(|m| inner(*m))),
            _ => ty,
        }
    }
    strip(db, ty, DISPLAY_DEPTH)
}
