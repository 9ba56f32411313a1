//! Traversal: the type reached by one step `.name` or `[key]` from a value of a given
//! type, with the diagnostics the reference reports for that step. Memoized per
//! (receiver, key).

use std::hash::BuildHasher;

use num_traits::ToPrimitive;
use pcl_diagnostics::{Code, Severity, codes};
use smol_str::SmolStr;

use crate::{
    ConstValue, Db, Name, Ty, TyKind, assignable, closest_name, conversion, display, find_property,
    input_type, object_properties,
};

/// One traversal step's key.
#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub enum TraverseKey<'db> {
    /// `.name`: the string `name`.
    Attr(SmolStr),
    /// `[literal]`: a known value.
    Literal(ConstValue),
    /// `[expr]` whose value is not known, only its type.
    Unknown(Ty<'db>),
}

/// A problem with one traversal step; the caller knows where the step is, and renders
/// the problem to text ([`TraverseProblem::message`]) only when it reports it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub enum TraverseProblem<'db> {
    /// A value of this type has no attributes or elements (a warning for `none`).
    NotTraversable { receiver: Ty<'db> },
    /// A list indexed by something that is not a number.
    ListIndexNotNumber,
    /// A map indexed by something that is not a string.
    MapKeyNotString,
    /// An object indexed by something that is not a string.
    ObjectKeyNotString,
    /// A tuple indexed by something that is not a whole number.
    TupleIndexNotInteger,
    /// A tuple index outside `0..len`.
    TupleIndexOutOfRange { len: usize },
    /// `asked` is no property of the object; `candidates` are its properties, sorted.
    UnknownProperty {
        asked: SmolStr,
        candidates: Box<[Name]>,
    },
    /// `asked` matches the property `actual` only when case is ignored (a warning).
    CaseMismatch { asked: SmolStr, actual: Name },
}

impl<'db> TraverseProblem<'db> {
    pub fn severity(&self, db: &'db dyn Db) -> Severity {
        match self {
            TraverseProblem::NotTraversable { receiver } if receiver.is_none(db) => {
                Severity::Warning
            }
            TraverseProblem::CaseMismatch { .. } => Severity::Warning,
            _ => Severity::Error,
        }
    }

    pub fn code(&self) -> Code {
        match self {
            TraverseProblem::NotTraversable { .. } => codes::NOT_TRAVERSABLE,
            TraverseProblem::ListIndexNotNumber
            | TraverseProblem::MapKeyNotString
            | TraverseProblem::ObjectKeyNotString
            | TraverseProblem::TupleIndexNotInteger => codes::INVALID_INDEX,
            TraverseProblem::TupleIndexOutOfRange { .. } => codes::INDEX_OUT_OF_RANGE,
            TraverseProblem::UnknownProperty { .. } => codes::UNKNOWN_PROPERTY,
            TraverseProblem::CaseMismatch { .. } => codes::PROPERTY_CASE_MISMATCH,
        }
    }

    /// The message (worded as Pulumi's Go model words it, but for a case mismatch).
    pub fn message(&self, db: &'db dyn Db) -> String {
        match self {
            TraverseProblem::NotTraversable { receiver } => {
                format!("cannot traverse value of type {}", display(db, *receiver))
            }
            TraverseProblem::ListIndexNotNumber => "list indices must be numbers".to_owned(),
            TraverseProblem::MapKeyNotString => "map keys must be strings".to_owned(),
            TraverseProblem::ObjectKeyNotString => "object properties must be strings".to_owned(),
            TraverseProblem::TupleIndexNotInteger => "tuple indices must be integers".to_owned(),
            TraverseProblem::TupleIndexOutOfRange { len: 0 } => {
                "the tuple is empty: it has no index".to_owned()
            }
            TraverseProblem::TupleIndexOutOfRange { len } => {
                format!("tuple index must be between 0 and {}", len - 1)
            }
            TraverseProblem::UnknownProperty { asked, candidates } => {
                let names: Vec<&str> = candidates.iter().map(|name| &**name).collect();
                format!("unknown property '{asked}' among [{}]", names.join(" "))
            }
            TraverseProblem::CaseMismatch { asked, actual } => {
                format!("'{asked}' differs from the property '{actual}' only in case")
            }
        }
    }

    /// The property the user probably meant, for unknown properties.
    pub fn suggestion(&self) -> Option<&str> {
        match self {
            TraverseProblem::UnknownProperty { asked, candidates } => {
                closest_name(asked, candidates.iter().map(|name| &**name))
            }
            TraverseProblem::CaseMismatch { actual, .. } => Some(actual),
            _ => None,
        }
    }
}

/// The result of a traversal step.
#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub struct Traversal<'db> {
    pub ty: Ty<'db>,
    pub problems: Box<[TraverseProblem<'db>]>,
}

impl<'db> Traversal<'db> {
    fn ok(ty: Ty<'db>) -> Traversal<'db> {
        Traversal {
            ty,
            problems: Box::new([]),
        }
    }

    fn one(ty: Ty<'db>, problem: TraverseProblem<'db>) -> Traversal<'db> {
        Traversal {
            ty,
            problems: Box::new([problem]),
        }
    }

    /// Whether any problem is an error.
    pub fn has_errors(&self, db: &'db dyn Db) -> bool {
        self.problems
            .iter()
            .any(|problem| problem.severity(db) == Severity::Error)
    }
}

/// The memo key of a traversal step. Immortal, so memos are never recycled.
#[salsa::interned(revisions = usize::MAX, debug)]
struct TraverseStep<'db> {
    #[returns(copy)]
    receiver: Ty<'db>,
    #[returns(ref)]
    key: TraverseKey<'db>,
}

/// Traverse a value of type `receiver` by `key`.
pub fn traverse<'db>(
    db: &'db dyn Db,
    receiver: Ty<'db>,
    key: TraverseKey<'db>,
) -> &'db Traversal<'db> {
    traverse_query(db, step(db, receiver, key))
}

/// The step `receiver` by `key`, through the handle's [`TypeCache`] when it has one.
fn step<'db>(db: &'db dyn Db, receiver: Ty<'db>, key: TraverseKey<'db>) -> TraverseStep<'db> {
    use salsa::plumbing::{AsId, FromId};
    let Some(cache) = db.type_cache() else {
        return TraverseStep::new(db, receiver, key);
    };
    let hash = rustc_hash::FxBuildHasher.hash_one((receiver, &key));
    let matches = |id| {
        let step = TraverseStep::from_id(id);
        step.receiver(db) == receiver && *step.key(db) == key
    };
    if let Some(id) = cache.steps.find(hash, matches) {
        return TraverseStep::from_id(id);
    }
    let step = TraverseStep::new(db, receiver, key);
    cache.steps.remember(hash, step.as_id());
    step
}

#[salsa::tracked(returns(ref))]
fn traverse_query<'db>(db: &'db dyn Db, step: TraverseStep<'db>) -> Traversal<'db> {
    let receiver = step.receiver(db);
    let key = step.key(db);
    match receiver.kind(db) {
        TyKind::Dynamic | TyKind::Enum(_) => Traversal::ok(receiver),
        TyKind::None => Traversal::one(receiver, TraverseProblem::NotTraversable { receiver }),
        TyKind::Const(underlying, _) => traverse(db, *underlying, key.clone()).clone(),
        TyKind::List(element) if !key_converts(db, key, Ty::number(db)) => {
            Traversal::one(*element, TraverseProblem::ListIndexNotNumber)
        }
        TyKind::Map(element) if !key_converts(db, key, Ty::string(db)) => {
            Traversal::one(*element, TraverseProblem::MapKeyNotString)
        }
        TyKind::List(element) | TyKind::Map(element) => Traversal::ok(*element),
        TyKind::Tuple(elements) => traverse_tuple(db, elements, key),
        TyKind::Object(_) | TyKind::Named(_) => traverse_object(db, receiver, key),
        TyKind::Union(members) => traverse_union(db, receiver, members, key),
        TyKind::Output(element) => {
            let inner = traverse(db, *element, key.clone());
            Traversal {
                ty: Ty::output(db, inner.ty),
                problems: inner.problems.clone(),
            }
        }
        TyKind::Promise(element) => {
            let inner = traverse(db, *element, key.clone());
            Traversal {
                ty: Ty::promise(db, inner.ty),
                problems: inner.problems.clone(),
            }
        }
        TyKind::Bool
        | TyKind::Int
        | TyKind::Number
        | TyKind::String
        | TyKind::Id
        | TyKind::Opaque(_)
        | TyKind::Set(_) => Traversal::one(
            Ty::dynamic(db),
            TraverseProblem::NotTraversable { receiver },
        ),
    }
}

/// The type of a key: `string` for attributes, a literal's own type (`number` for every
/// number), the given type for unknown keys.
fn key_type<'db>(db: &'db dyn Db, key: &TraverseKey<'db>) -> Ty<'db> {
    match key {
        TraverseKey::Attr(_) => Ty::string(db),
        TraverseKey::Literal(ConstValue::Number(_)) => Ty::number(db),
        TraverseKey::Literal(value) => Ty::of_value(db, value),
        TraverseKey::Unknown(ty) => *ty,
    }
}

/// Whether a key converts to `In(expected)`.
fn key_converts<'db>(db: &'db dyn Db, key: &TraverseKey<'db>, expected: Ty<'db>) -> bool {
    conversion(db, input_type(db, expected), key_type(db, key)).exists()
}

/// A tuple: the key must be an integral number literal in range, or of a type
/// assignable to `In(number)` (then any element may be meant).
fn traverse_tuple<'db>(
    db: &'db dyn Db,
    elements: &[Ty<'db>],
    key: &TraverseKey<'db>,
) -> Traversal<'db> {
    let not_integer = || Traversal::one(Ty::dynamic(db), TraverseProblem::TupleIndexNotInteger);
    if !assignable(db, input_type(db, Ty::number(db)), key_type(db, key)) {
        return not_integer();
    }
    let index = match key {
        TraverseKey::Unknown(_) => return Traversal::ok(Ty::union(db, elements.iter().copied())),
        TraverseKey::Literal(ConstValue::Number(number)) => number.to_integer(),
        _ => None,
    };
    let Some(index) = index else {
        return not_integer();
    };
    // A whole number too large for any index is out of range, not a fraction.
    match index.to_usize().and_then(|i| elements.get(i)) {
        Some(ty) => Traversal::ok(*ty),
        None => Traversal::one(
            Ty::dynamic(db),
            TraverseProblem::TupleIndexOutOfRange {
                len: elements.len(),
            },
        ),
    }
}

/// An object: the exact property, else a case-insensitive match (with a warning), else
/// an error listing the properties.
fn traverse_object<'db>(
    db: &'db dyn Db,
    receiver: Ty<'db>,
    key: &TraverseKey<'db>,
) -> Traversal<'db> {
    let properties = object_properties(db, receiver).unwrap_or_default();
    if !key_converts(db, key, Ty::string(db)) {
        return Traversal::one(Ty::dynamic(db), TraverseProblem::ObjectKeyNotString);
    }
    let name = match key {
        TraverseKey::Attr(name) => name.to_string(),
        TraverseKey::Literal(value) => value.to_key_string().unwrap_or_default(),
        TraverseKey::Unknown(_) => {
            return Traversal::ok(Ty::union(db, properties.iter().map(|(_, t)| *t)));
        }
    };
    if let Some(ty) = find_property(properties, &name) {
        return Traversal::ok(ty);
    }
    let lower = name.to_lowercase();
    if let Some((actual, ty)) = properties.iter().find(|(n, _)| n.to_lowercase() == lower) {
        let problem = TraverseProblem::CaseMismatch {
            asked: SmolStr::new(&name),
            actual: actual.clone(),
        };
        return Traversal::one(*ty, problem);
    }
    let problem = TraverseProblem::UnknownProperty {
        asked: SmolStr::new(&name),
        candidates: properties.iter().map(|(n, _)| n.clone()).collect(),
    };
    Traversal::one(Ty::dynamic(db), problem)
}

/// A union: each member traversed (`none` passes through as `none`); the successes
/// make the result. Only when nothing succeeds are the members' diagnostics reported.
fn traverse_union<'db>(
    db: &'db dyn Db,
    receiver: Ty<'db>,
    members: &[Ty<'db>],
    key: &TraverseKey<'db>,
) -> Traversal<'db> {
    let mut results = Vec::new();
    let mut problems = Vec::new();
    for member in members {
        if member.is_none(db) {
            results.push(*member);
            continue;
        }
        let traversal = traverse(db, *member, key.clone());
        if !traversal.has_errors(db) {
            results.push(traversal.ty);
        }
        problems.extend(traversal.problems.iter().cloned());
    }
    match results.as_slice() {
        [] => {}
        [single] if single.is_none(db) => {}
        [single] => return Traversal::ok(*single),
        _ => return Traversal::ok(Ty::union(db, results)),
    }
    // One error per cause: the members' problems explain the failure; Go adds "cannot
    // traverse" on top of them (docs/deviations.md).
    if problems.is_empty() {
        problems.push(TraverseProblem::NotTraversable { receiver });
    }
    Traversal {
        ty: Ty::dynamic(db),
        problems: problems.into_boxed_slice(),
    }
}
