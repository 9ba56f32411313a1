//! The project file's own config declarations (`config:` keys in the project's namespace):
//! a `type` (with `items` for arrays), `secret`, and a `default` or `value` (a plain value
//! written alone is a default). Read and validated as Pulumi's `Project.Validate` does;
//! stacks are then checked against them as `pulumi up` does (a declaration without a value
//! is required, a secret one must be encrypted, a typed one's value must have its type).

use pcl_diagnostics::{Diagnostic, FileId, TextRange, codes};
use serde_json::Value;

use crate::files::span;
use crate::go_scalars::{PlainScalar, resolve_plain};
use crate::yaml::{Node, NodeKind};

/// A declared type (`simpleConfigType`, with `items` for an array).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclaredType {
    String,
    Integer,
    Boolean,
    Object,
    Array(Box<DeclaredType>),
}

impl DeclaredType {
    /// As Pulumi names it in messages (`array<string>`).
    pub fn name(&self) -> String {
        match self {
            DeclaredType::String => "string".to_owned(),
            DeclaredType::Integer => "integer".to_owned(),
            DeclaredType::Boolean => "boolean".to_owned(),
            DeclaredType::Object => "object".to_owned(),
            DeclaredType::Array(items) => format!("array<{}>", items.name()),
        }
    }

    /// Whether `value` has this type, as Pulumi's `ValidateConfigValue` judges: an
    /// integer may be a whole number or a string of one, a boolean the string `true` or
    /// `false`.
    pub fn accepts(&self, value: &Value) -> bool {
        match (self, value) {
            (DeclaredType::String, Value::String(_)) => true,
            (DeclaredType::Integer, Value::Number(n)) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            (DeclaredType::Integer, Value::String(s)) => s.parse::<i64>().is_ok(),
            (DeclaredType::Boolean, Value::Bool(_)) => true,
            (DeclaredType::Boolean, Value::String(s)) => matches!(s.as_str(), "true" | "false"),
            (DeclaredType::Object, Value::Object(_)) => true,
            (DeclaredType::Array(items), Value::Array(values)) => {
                values.iter().all(|v| items.accepts(v))
            }
            _ => false,
        }
    }
}

/// One declaration of the project's own config.
#[derive(Clone, Debug)]
pub struct ConfigDeclaration {
    /// The config's name, without the project's namespace.
    pub name: String,
    pub key_range: TextRange,
    pub ty: Option<DeclaredType>,
    pub secret: bool,
    /// A `default` or `value` (or a value written alone): the stacks need not set it.
    pub has_value: bool,
    /// That value, as written.
    pub value: Option<Node>,
}

/// The fields a declaration may have (`configTypeDeclaration`, which allows no other).
const FIELDS: [&str; 6] = ["type", "items", "description", "secret", "default", "value"];

/// Read the declaration of config `name` (its key at `key_range`) from `value`, reporting
/// what Pulumi would refuse the project for.
pub(crate) fn declaration(
    name: &str,
    key_range: TextRange,
    value: &Node,
    file: FileId,
    diagnostics: &mut Vec<Diagnostic>,
) -> ConfigDeclaration {
    let mut declared = ConfigDeclaration {
        name: name.to_owned(),
        key_range,
        ty: None,
        secret: false,
        has_value: false,
        value: None,
    };
    let mut refuse = |range: TextRange, message: String, note: Option<String>| {
        let mut d = Diagnostic::error(codes::INVALID_PROJECT_FILE, message, span(file, range));
        if let Some(note) = note {
            d = d.with_note(note);
        }
        diagnostics.push(d.with_note("Pulumi refuses to load the project"));
    };
    if name == "secret" && !is_plain_bool(value) {
        // The schema's `secret` property of `config` (meant for a flag of the whole map)
        // is a name no config may have, unless its value is a bool.
        refuse(
            value.range,
            "Pulumi's project schema reads a config named `secret` as a bool: it can only be `true` or `false`".to_owned(),
            Some("rename the config (`secretName: ...`): a config's own secrecy is `secret: true` inside its declaration".to_owned()),
        );
        // Reported once: not also as a config the stacks must set.
        declared.has_value = true;
        return declared;
    }
    let NodeKind::Map(entries) = &value.kind else {
        // A value written alone is the default: a string, an integer, a bool or a list.
        if let Some((message, note)) = value_alone_refused(name, value) {
            // A key with no value is reported once, at the key, not again for each stack.
            let range = if value.is_null() {
                key_range
            } else {
                value.range
            };
            refuse(range, message, Some(note));
            declared.has_value = true;
            return declared;
        }
        declared.has_value = !value.is_null();
        declared.value = declared.has_value.then(|| value.clone());
        return declared;
    };
    for (field, _) in entries {
        let Some(field_name) = field.scalar() else {
            continue;
        };
        if !FIELDS.contains(&field_name) {
            let close = pcl_types::closest_name(field_name, FIELDS.iter().copied());
            let note = match close {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("a declaration has {}", FIELDS.join(", ")),
            };
            refuse(
                field.range,
                format!("`{field_name}` is not a field of the declaration of config `{name}`"),
                Some(note),
            );
        }
    }
    if let Some(ty) = value.get("type") {
        declared.ty = declared_type(ty, value.get("items"), name, &mut refuse);
    }
    if let Some(secret) = value.get("secret") {
        match secret.kind {
            NodeKind::Scalar {
                ref text,
                plain: true,
            } if matches!(text.as_str(), "true" | "false") => declared.secret = text == "true",
            _ => refuse(
                secret.range,
                format!("`secret` of config `{name}` must be `true` or `false`"),
                None,
            ),
        }
    }
    let default = value.get("default").filter(|v| !v.is_null());
    let given = value.get("value").filter(|v| !v.is_null());
    declared.has_value = default.is_some() || given.is_some();
    declared.value = given.or(default).cloned();
    if let (Some(_), Some(given)) = (default, given) {
        refuse(
            given.range,
            format!("config `{name}` has both a `default` and a `value`"),
            Some("keep one: a `default` applies to the stacks that do not set it".to_owned()),
        );
    }
    if let (Some(ty), Some(default)) = (&declared.ty, default)
        && let Some(json) = crate::value::to_json(default)
        && !ty.accepts(&json)
    {
        refuse(
            default.range,
            format!(
                "the default of config `{name}` is not of its type, {}",
                ty.name()
            ),
            None,
        );
    }
    declared
}

/// Whether `value` is a bool written alone (`true`, `False`).
fn is_plain_bool(value: &Node) -> bool {
    matches!(&value.kind, NodeKind::Scalar { text, plain: true } if matches!(resolve_plain(text), PlainScalar::Bool(_)))
}

/// What the project schema refuses in a value written alone (`port: 80`): a key with no
/// value, or a number that is not whole (its `oneOf` allows `integer`, not `number`).
fn value_alone_refused(name: &str, value: &Node) -> Option<(String, String)> {
    let NodeKind::Scalar { text, plain: true } = &value.kind else {
        return None;
    };
    match resolve_plain(text) {
        PlainScalar::Null => Some((
            format!("config `{name}` has no value"),
            format!(
                "give it one (`{name}: 80`), or declare its type for the stacks to set it: `{name}: {{type: integer}}`"
            ),
        )),
        PlainScalar::Float(f) if !f.is_finite() || f.fract() != 0.0 => Some((
            format!(
                "config `{name}` is `{text}`, but a value written alone is a string, an integer, a bool or a list"
            ),
            format!("quote it: `{name}: \"{text}\"` (the program converts the text to a number)"),
        )),
        _ => None,
    }
}

/// The type `ty` (with `items`) names; `None`, reported, when it names none.
fn declared_type(
    ty: &Node,
    items: Option<&Node>,
    name: &str,
    refuse: &mut impl FnMut(TextRange, String, Option<String>),
) -> Option<DeclaredType> {
    let text = ty.scalar().unwrap_or_default();
    Some(match text {
        "string" => DeclaredType::String,
        "integer" => DeclaredType::Integer,
        "boolean" => DeclaredType::Boolean,
        "object" => DeclaredType::Object,
        "array" => {
            let Some(items) = items else {
                refuse(
                    ty.range,
                    format!(
                        "config `{name}` is an array, but does not say the type of its elements"
                    ),
                    Some("add `items: {type: string}` (or `integer`, `boolean`, ...)".to_owned()),
                );
                return None;
            };
            let element = declared_type(
                items.get("type").unwrap_or(items),
                items.get("items"),
                name,
                refuse,
            )?;
            DeclaredType::Array(Box::new(element))
        }
        _ => {
            let known = ["string", "integer", "boolean", "array", "object"];
            let note = match (text, pcl_types::closest_name(text, known)) {
                ("number" | "float" | "int", _) => {
                    "Pulumi's are string, integer, boolean, array and object: a number is `integer`"
                        .to_owned()
                }
                (_, Some(close)) => format!("did you mean `{close}`?"),
                _ => "Pulumi's are string, integer, boolean, array and object".to_owned(),
            };
            refuse(
                ty.range,
                format!("`{text}` is not a config type"),
                Some(note),
            );
            return None;
        }
    })
}
