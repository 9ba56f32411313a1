//! Display of types in the reference's two syntaxes: the canonical one
//! (`object({a = int, b = string})`, `union(int, none)`) that also orders union members,
//! and the pretty one used in messages (`{ a: int, b: string }`, `int?`).

use crate::{Db, Ty, TyKind};

/// The canonical display string, memoized: union construction sorts members by it.
#[salsa::tracked(returns(ref))]
pub fn display<'db>(db: &'db dyn Db, ty: Ty<'db>) -> String {
    let join = |types: &[Ty<'db>]| {
        types
            .iter()
            .map(|t| display(db, *t).as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match ty.kind(db) {
        TyKind::None => "none".to_owned(),
        TyKind::Bool => "bool".to_owned(),
        TyKind::Int => "int".to_owned(),
        TyKind::Number => "number".to_owned(),
        TyKind::String => "string".to_owned(),
        TyKind::Id => "id".to_owned(),
        TyKind::Dynamic => "dynamic".to_owned(),
        TyKind::Opaque(name) => opaque_display(name),
        TyKind::List(e) => format!("list({})", display(db, *e)),
        TyKind::Map(e) => format!("map({})", display(db, *e)),
        TyKind::Set(e) => format!("set({})", display(db, *e)),
        TyKind::Output(e) => format!("output({})", display(db, *e)),
        TyKind::Promise(e) => format!("promise({})", display(db, *e)),
        TyKind::Tuple(elements) => format!("tuple({})", join(elements)),
        TyKind::Union(members) => format!("union({})", join(members)),
        TyKind::Object(properties) => {
            // The reference sorts the formatted entries, not the names.
            let mut entries: Vec<String> = properties
                .iter()
                .map(|(name, t)| format!("{} = {}", property_key(name), display(db, *t)))
                .collect();
            entries.sort();
            format!("object({{{}}})", entries.join(", "))
        }
        TyKind::Const(_, value) => value.go_syntax(),
        TyKind::Named(object) => {
            let flavour = if object.input(db) { ", input" } else { "" };
            format!("object({}{flavour})", object.token(db))
        }
        TyKind::Enum(enumeration) => {
            let values: Vec<String> = enumeration.values.iter().map(|v| v.go_syntax()).collect();
            format!(
                "enum({}({}): {})",
                enumeration.token,
                display(db, enumeration.underlying),
                values.join(",")
            )
        }
    }
}

/// An opaque name as the reference prints it: bare when it is an identifier, else
/// `type(name)`.
fn opaque_display(name: &str) -> String {
    // Bare only where the parser reads a bare name as opaque (an identifier starting with
    // an uppercase letter), so every display parses back.
    if pcl_syntax::is_identifier(name) && name.starts_with(|c: char| c.is_ascii_uppercase()) {
        name.to_owned()
    } else {
        format!("type({name})")
    }
}

/// A property name as written in an object type: bare when it is an identifier, else
/// quoted so that the display parses back.
fn property_key(name: &str) -> std::borrow::Cow<'_, str> {
    if pcl_syntax::is_identifier(name) {
        name.into()
    } else {
        crate::value::go_quote(name).into()
    }
}

/// The pretty form used in diagnostics: tuples as `(A, B)`, objects as `{ a: A }`,
/// unions as `A | B` with `none` folded into a trailing `?`, constants as literals.
pub fn pretty<'db>(db: &'db dyn Db, ty: Ty<'db>) -> String {
    match ty.kind(db) {
        TyKind::List(e) => format!("list({})", pretty(db, *e)),
        TyKind::Map(e) => format!("map({})", pretty(db, *e)),
        TyKind::Set(e) => format!("set({})", pretty(db, *e)),
        TyKind::Output(e) => format!("output({})", pretty(db, *e)),
        TyKind::Promise(e) => format!("promise({})", pretty(db, *e)),
        TyKind::Tuple(elements) => {
            let parts: Vec<String> = elements.iter().map(|t| pretty(db, *t)).collect();
            format!("({})", parts.join(", "))
        }
        TyKind::Object(properties) if properties.is_empty() => "{}".to_owned(),
        TyKind::Object(properties) => {
            let parts: Vec<String> = properties
                .iter()
                .map(|(name, t)| format!("{name}: {}", pretty(db, *t)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        TyKind::Union(members) => {
            let optional = members.iter().any(|m| m.is_none(db));
            let parts: Vec<String> = members
                .iter()
                .filter(|m| !m.is_none(db))
                .map(|t| pretty(db, *t))
                .collect();
            format!("{}{}", parts.join(" | "), if optional { "?" } else { "" })
        }
        TyKind::Const(_, value) => value.pretty(),
        TyKind::Enum(enumeration) => {
            let values: Vec<String> = enumeration.values.iter().map(|v| v.pretty()).collect();
            format!("enum({})", values.join(" | "))
        }
        _ => display(db, ty).clone(),
    }
}
