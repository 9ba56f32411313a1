//! Traversal: the type reached by one step `.name` or `[key]` from a value of a given
//! type, with the diagnostics the reference reports for that step. Memoized per
//! (receiver, key).

use num_traits::ToPrimitive;
use smol_str::SmolStr;

use crate::{
    ConstValue, Db, Ty, TyKind, assignable, conversion, display, find_property, input_type,
    object_properties,
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

/// How serious a diagnostic is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Severity {
    Error,
    Warning,
}

/// A diagnostic about one traversal step; the caller knows where the step is.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TraverseDiagnostic {
    pub severity: Severity,
    pub message: String,
    pub detail: Option<String>,
}

/// The result of a traversal step.
#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub struct Traversal<'db> {
    pub ty: Ty<'db>,
    pub diagnostics: Box<[TraverseDiagnostic]>,
}

impl<'db> Traversal<'db> {
    fn ok(ty: Ty<'db>) -> Traversal<'db> {
        Traversal {
            ty,
            diagnostics: Box::new([]),
        }
    }

    fn one(ty: Ty<'db>, severity: Severity, message: String) -> Traversal<'db> {
        let diagnostic = TraverseDiagnostic {
            severity,
            message,
            detail: None,
        };
        Traversal {
            ty,
            diagnostics: Box::new([diagnostic]),
        }
    }

    fn error(ty: Ty<'db>, message: String) -> Traversal<'db> {
        Traversal::one(ty, Severity::Error, message)
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
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
    traverse_query(db, TraverseStep::new(db, receiver, key))
}

#[salsa::tracked(returns(ref))]
fn traverse_query<'db>(db: &'db dyn Db, step: TraverseStep<'db>) -> Traversal<'db> {
    let receiver = step.receiver(db);
    let key = step.key(db);
    match receiver.kind(db) {
        TyKind::Dynamic | TyKind::Enum(_) => Traversal::ok(receiver),
        TyKind::None => Traversal::one(receiver, Severity::Warning, cannot_traverse(db, receiver)),
        TyKind::Const(underlying, _) => traverse(db, *underlying, key.clone()).clone(),
        TyKind::List(element) if !key_converts(db, key, Ty::number(db)) => {
            Traversal::error(*element, "list indices must be numbers".into())
        }
        TyKind::Map(element) if !key_converts(db, key, Ty::string(db)) => {
            Traversal::error(*element, "map keys must be strings".into())
        }
        TyKind::List(element) | TyKind::Map(element) => Traversal::ok(*element),
        TyKind::Tuple(elements) => traverse_tuple(db, elements, key),
        TyKind::Object(_) | TyKind::Named(_) => traverse_object(db, receiver, key),
        TyKind::Union(members) => traverse_union(db, receiver, members, key),
        TyKind::Output(element) => {
            let inner = traverse(db, *element, key.clone());
            Traversal {
                ty: Ty::output(db, inner.ty),
                diagnostics: inner.diagnostics.clone(),
            }
        }
        TyKind::Promise(element) => {
            let inner = traverse(db, *element, key.clone());
            Traversal {
                ty: Ty::promise(db, inner.ty),
                diagnostics: inner.diagnostics.clone(),
            }
        }
        TyKind::Bool
        | TyKind::Int
        | TyKind::Number
        | TyKind::String
        | TyKind::Id
        | TyKind::Opaque(_)
        | TyKind::Set(_) => Traversal::error(Ty::dynamic(db), cannot_traverse(db, receiver)),
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

fn cannot_traverse<'db>(db: &'db dyn Db, receiver: Ty<'db>) -> String {
    format!("cannot traverse value of type {}", display(db, receiver))
}

/// A tuple: the key must be an integral number literal in range, or of a type
/// assignable to `In(number)` (then any element may be meant).
fn traverse_tuple<'db>(
    db: &'db dyn Db,
    elements: &[Ty<'db>],
    key: &TraverseKey<'db>,
) -> Traversal<'db> {
    let not_integer = || Traversal::error(Ty::dynamic(db), "tuple indices must be integers".into());
    if !assignable(db, input_type(db, Ty::number(db)), key_type(db, key)) {
        return not_integer();
    }
    let index = match key {
        TraverseKey::Unknown(_) => return Traversal::ok(Ty::union(db, elements.iter().copied())),
        TraverseKey::Literal(ConstValue::Number(number)) => number.to_integer(),
        _ => None,
    };
    let Some(index) = index.and_then(|i| i.to_i64()) else {
        return not_integer();
    };
    match usize::try_from(index).ok().and_then(|i| elements.get(i)) {
        Some(ty) => Traversal::ok(*ty),
        None => Traversal::error(
            Ty::dynamic(db),
            format!("tuple index must be between 0 and {}", elements.len()),
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
        return Traversal::error(Ty::dynamic(db), "object properties must be strings".into());
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
        return Traversal {
            ty: *ty,
            diagnostics: Box::new([TraverseDiagnostic {
                severity: Severity::Warning,
                message: "Found matching case-insensitive property".into(),
                detail: Some(format!("Matched {name} with {actual}")),
            }]),
        };
    }
    let names: Vec<&str> = properties.iter().map(|(n, _)| &**n).collect();
    Traversal::error(
        Ty::dynamic(db),
        format!("unknown property '{name}' among [{}]", names.join(" ")),
    )
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
    let mut diagnostics = Vec::new();
    for member in members {
        if member.is_none(db) {
            results.push(*member);
            continue;
        }
        let traversal = traverse(db, *member, key.clone());
        if !traversal.has_errors() {
            results.push(traversal.ty);
        }
        diagnostics.extend(traversal.diagnostics.iter().cloned());
    }
    match results.as_slice() {
        [] => {}
        [single] if single.is_none(db) => {}
        [single] => return Traversal::ok(*single),
        _ => return Traversal::ok(Ty::union(db, results)),
    }
    diagnostics.push(TraverseDiagnostic {
        severity: Severity::Error,
        message: cannot_traverse(db, receiver),
        detail: None,
    });
    Traversal {
        ty: Ty::dynamic(db),
        diagnostics: diagnostics.into_boxed_slice(),
    }
}
