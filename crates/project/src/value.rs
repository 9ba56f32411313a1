//! Stack config values as Pulumi passes them to a PCL program and its runtime reads them
//! (`pkg/pcl/runtime/convert.go`, `parseConfigValue`): a YAML string is the raw value as
//! is; any other scalar is resolved as Pulumi's YAML library resolves it (see
//! [`crate::go_scalars`]) and written as JSON text (`1.0` → `1`, `0x10` → `16`, `1_000` →
//! `1000`, `yes` stays a string, a date is Go's text for a timestamp); objects and lists
//! are JSON. Then
//! each config type converts the raw value: a string verbatim, a bool by Go's
//! `strconv.ParseBool`, numbers by Go's `strconv.ParseFloat`, structured types by JSON.

use pcl_diagnostics::{Code, Severity, TextRange, codes};

use crate::go_scalars::{PlainScalar, go_parse_bool, go_parse_float, resolve_plain};
use crate::yaml::{Node, NodeKind};

/// A config's type, as far as a stack value is checked against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigType {
    String,
    Bool,
    Int,
    Number,
    List(Box<ConfigType>),
    Map(Box<ConfigType>),
    /// An object's properties (all optional, as config objects are read).
    Object(Vec<(String, ConfigType)>),
    /// Anything goes (`dynamic`, unions, types the checker cannot describe).
    Dynamic,
}

impl ConfigType {
    fn name(&self) -> &'static str {
        match self {
            ConfigType::String => "a string",
            ConfigType::Bool => "a bool",
            ConfigType::Int => "an int",
            ConfigType::Number => "a number",
            ConfigType::List(_) => "a list",
            ConfigType::Map(_) => "a map",
            ConfigType::Object(_) => "an object",
            ConfigType::Dynamic => "a value",
        }
    }
}

/// What is wrong with a value, at a range of the stack file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueProblem {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub note: Option<String>,
    pub range: TextRange,
}

/// Whether `node` is an encrypted value, `{secure: CIPHERTEXT}`: a map of one key
/// `secure` whose value is a string (else Pulumi reads the map as an ordinary object),
/// at the top of a config's value or anywhere inside it.
pub fn is_ciphertext(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Map(entries) if entries.len() == 1 && entries[0].0.scalar() == Some("secure") => {
            match &entries[0].1.kind {
                NodeKind::Scalar { plain: false, .. } => true,
                NodeKind::Scalar { text, plain: true } => {
                    matches!(resolve_plain(text), PlainScalar::String)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Why a map with a `secure` key that looks meant as an encrypted value is not one (Pulumi
/// then reads it as an ordinary object): `secure:` with nothing, or a ciphertext with
/// another key beside it. An object config with a `secure` field of its own (`{host,
/// port, secure: true}`) is none of these. `None` for anything else.
pub(crate) fn misshapen_secure(node: &Node) -> Option<(&'static str, TextRange)> {
    let NodeKind::Map(entries) = &node.kind else {
        return None;
    };
    let (key, value) = entries
        .iter()
        .find(|(key, _)| key.scalar() == Some("secure"))?;
    let ciphertext_like = value
        .scalar()
        .is_some_and(|text| text.starts_with("v1:") || (text.len() >= 24 && !text.contains(' ')));
    let why = match entries.len() {
        1 if value.is_null() => "`secure` holds no ciphertext",
        2.. if ciphertext_like => "`secure` must be its only key",
        _ => return None,
    };
    Some((why, key.range))
}

/// Whether `node` is or holds an encrypted value (its decrypted text is not known here).
pub(crate) fn holds_ciphertext(node: &Node) -> bool {
    match &node.kind {
        _ if is_ciphertext(node) => true,
        NodeKind::Seq(items) => items.iter().any(holds_ciphertext),
        NodeKind::Map(entries) => entries.iter().any(|(_, value)| holds_ciphertext(value)),
        NodeKind::Scalar { .. } => false,
    }
}

/// A float as Go's `encoding/json` writes it.
fn go_json_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let text = format!("{f:e}");
        match text.split_once('e') {
            Some((mantissa, exponent)) if !exponent.starts_with('-') => {
                format!("{mantissa}e+{exponent}")
            }
            _ => text,
        }
    } else {
        format!("{f}")
    }
}

/// The raw value Pulumi passes for a stack config value.
pub fn raw_value(node: &Node) -> String {
    match &node.kind {
        NodeKind::Scalar { text, plain: false } => text.clone(),
        _ => json_text(node),
    }
}

/// A node written as JSON, scalars resolved by the core schema (strings as they are).
fn json_text(node: &Node) -> String {
    to_json(node).map_or_else(
        || node.scalar().unwrap_or_default().to_owned(),
        |json| match json {
            serde_json::Value::String(s) => s,
            other => other.to_string(),
        },
    )
}

pub(crate) fn to_json(node: &Node) -> Option<serde_json::Value> {
    use serde_json::Value;
    Some(match &node.kind {
        NodeKind::Scalar { text, plain: false } => Value::String(text.clone()),
        NodeKind::Scalar { text, plain: true } => match resolve_plain(text) {
            PlainScalar::Null => Value::Null,
            PlainScalar::Bool(b) => Value::Bool(b),
            PlainScalar::Int(n) => match i64::try_from(n) {
                Ok(n) => Value::from(n),
                Err(_) => serde_json::from_str(&n.to_string()).ok()?,
            },
            PlainScalar::Float(f) if f.is_finite() => {
                serde_json::from_str(&go_json_float(f)).ok()?
            }
            PlainScalar::Float(_) => return None,
            PlainScalar::Timestamp(time) => Value::String(time),
            PlainScalar::String => Value::String(text.clone()),
        },
        NodeKind::Seq(items) => Value::Array(items.iter().map(to_json).collect::<Option<_>>()?),
        NodeKind::Map(entries) => {
            let mut map = serde_json::Map::new();
            for (key, value) in entries {
                let key = match &key.kind {
                    NodeKind::Scalar { text, .. } => text.clone(),
                    _ => json_text(key),
                };
                map.insert(key, to_json(value)?);
            }
            Value::Object(map)
        }
    })
}

/// Who reads a stack value: the program's runtime, which fails on a field its object type
/// lacks (`unsupported attribute`), or a provider, which decides for itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reader {
    Program,
    Provider,
}

/// The problems found in one value, and who reads it.
struct Problems {
    list: Vec<ValueProblem>,
    reader: Reader,
}

impl Problems {
    fn push(&mut self, problem: ValueProblem) {
        self.list.push(problem);
    }
}

/// Check a stack value against the config's type.
pub fn check_value(node: &Node, ty: &ConfigType, reader: Reader) -> Vec<ValueProblem> {
    let mut problems = Problems {
        list: Vec::new(),
        reader,
    };
    // A config with no value (`key:`) is the empty string to Pulumi today (it warns that a
    // later version reads `null`).
    let raw = match node.is_null() {
        true => String::new(),
        false => raw_value(node),
    };
    let shown = match raw.is_empty() {
        true => "the empty string".to_owned(),
        false => format!("`{raw}`"),
    };
    let range = node.range;
    match ty {
        ConfigType::String | ConfigType::Dynamic => {
            if let Some(problem) = number_read_as_text(node, &raw) {
                problems.push(problem);
            }
        }
        ConfigType::Bool => {
            if go_parse_bool(&raw).is_none() {
                problems.push(error(
                    format!("{shown} is not a bool"),
                    Some("Pulumi reads a bool as `true` or `false` (also `1`, `t`, `T`, `TRUE`, `True` and the false forms)"),
                    range,
                ));
            }
        }
        ConfigType::Int | ConfigType::Number => match go_parse_float(&raw) {
            None => problems.push(error(
                format!("{shown} is not {}", ty.name()),
                Some(match raw.is_empty() {
                    true => "Pulumi reads a key with no value as the empty string",
                    false => "Pulumi parses numbers as Go's `strconv.ParseFloat` does",
                }),
                range,
            )),
            Some(f) if *ty == ConfigType::Int && f.is_finite() && f.fract() != 0.0 => {
                problems.push(ValueProblem {
                    code: codes::NON_INTEGER_CONFIG_VALUE,
                    severity: Severity::Warning,
                    message: format!("`{raw}` is not a whole number, but the config is an int"),
                    note: Some("the program sees the number with its fractional part".to_owned()),
                    range,
                });
            }
            Some(_) => {}
        },
        ConfigType::List(_) | ConfigType::Map(_) | ConfigType::Object(_) => match &node.kind {
            _ if node.is_null() => problems.push(error(
                format!("the empty string is not {} in JSON", ty.name()),
                Some("Pulumi reads a key with no value as the empty string: write the value (`{}` or `[]` for none)"),
                range,
            )),
            NodeKind::Scalar { text, plain: false } => match serde_json::from_str(text) {
                Ok(json) => check_json(&json, ty, range, "", &mut problems),
                Err(e) => problems.push(error(
                    format!("the value is not {} in JSON: {e}", ty.name()),
                    Some("a structured config is written as YAML, or as a JSON string"),
                    range,
                )),
            },
            _ => check_node(node, ty, "", &mut problems),
        },
    }
    problems.list
}

/// `version: 1.30` for a string: YAML reads a number, and the program gets its text as
/// Pulumi writes the number (`1.3`; `0123` is octal, `83`), not what was written; a date
/// is a timestamp, written in Go's format. A warning.
fn number_read_as_text(node: &Node, raw: &str) -> Option<ValueProblem> {
    let NodeKind::Scalar { text, plain: true } = &node.kind else {
        return None;
    };
    let read_as = match resolve_plain(text) {
        PlainScalar::Int(_) | PlainScalar::Float(_) => "a number",
        PlainScalar::Timestamp(_) => "a timestamp",
        _ => return None,
    };
    (raw != text).then(|| ValueProblem {
        code: codes::INVALID_CONFIG_VALUE,
        severity: Severity::Warning,
        message: format!("YAML reads `{text}` as {read_as}: the config gets the text `{raw}`"),
        note: Some(format!("quote it to keep it as written: '{text}'")),
        range: node.range,
    })
}

fn error(message: String, note: Option<&str>, range: TextRange) -> ValueProblem {
    ValueProblem {
        code: codes::INVALID_CONFIG_VALUE,
        severity: Severity::Error,
        message,
        note: note.map(str::to_owned),
        range,
    }
}

/// A field the config's object type does not declare, with the closest field: an error
/// for the program (its runtime fails to read the value), a warning for a provider.
fn unknown_field(
    key: &str,
    fields: &[(String, ConfigType)],
    path: &str,
    range: TextRange,
    reader: Reader,
) -> ValueProblem {
    let names = fields.iter().map(|(name, _)| name.as_str());
    let note = match pcl_types::closest_name(key, names) {
        Some(close) => format!("did you mean `{close}`?"),
        None => {
            let all: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
            format!("its fields are {}", all.join(", "))
        }
    };
    match reader {
        Reader::Program => ValueProblem {
            code: codes::INVALID_CONFIG_VALUE,
            severity: Severity::Error,
            message: format!(
                "`{key}` is not a field of the config's object type{}: the program fails to read the value (\"unsupported attribute\")",
                at(path)
            ),
            note: Some(note),
            range,
        },
        Reader::Provider => ValueProblem {
            code: codes::UNKNOWN_CONFIG_KEY,
            severity: Severity::Warning,
            message: format!(
                "`{key}` is not a field of the variable's object type{}; the provider may ignore it",
                at(path)
            ),
            note: Some(note),
            range,
        },
    }
}

fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" at `{path}`")
    }
}

/// Structured values written as YAML: each element at its own line.
fn check_node(node: &Node, ty: &ConfigType, path: &str, problems: &mut Problems) {
    // A secret inside the value (`pulumi config set --path --secret db.password`): the
    // program gets its decrypted text, which cannot be checked.
    if node.is_null() || is_ciphertext(node) {
        return;
    }
    let mismatch = |problems: &mut Problems, what: &str| {
        problems.push(error(
            format!("expected {}{}, found {what}", ty.name(), at(path)),
            None,
            node.range,
        ));
    };
    match (ty, &node.kind) {
        (ConfigType::Dynamic, _) => {}
        (ConfigType::List(element), NodeKind::Seq(items)) => {
            for (i, item) in items.iter().enumerate() {
                check_node(item, element, &format!("{path}[{i}]"), problems);
            }
        }
        (ConfigType::Map(element), NodeKind::Map(entries)) => {
            for (key, value) in entries {
                let key = key.scalar().unwrap_or_default();
                check_node(value, element, &join(path, key), problems);
            }
        }
        (ConfigType::Object(fields), NodeKind::Map(entries)) => {
            for (key_node, value) in entries {
                let key = key_node.scalar().unwrap_or_default();
                // YAML's merge key: the fields of the map (or maps) it names are this
                // object's too.
                if key == "<<" {
                    let merged = match &value.kind {
                        NodeKind::Seq(items) => items.iter().collect(),
                        _ => vec![value],
                    };
                    for map in merged.into_iter().filter(|m| m.entries().is_some()) {
                        check_node(map, ty, path, problems);
                    }
                    continue;
                }
                match fields.iter().find(|(name, _)| name == key) {
                    Some((_, field)) => check_node(value, field, &join(path, key), problems),
                    None => problems.push(unknown_field(
                        key,
                        fields,
                        path,
                        key_node.range,
                        problems.reader,
                    )),
                }
            }
        }
        (ConfigType::List(_) | ConfigType::Map(_) | ConfigType::Object(_), _) => {
            mismatch(problems, node.describe());
        }
        (_, NodeKind::Scalar { .. }) => {
            if let Some(json) = to_json(node) {
                check_json(&json, ty, node.range, path, problems);
            }
        }
        (_, _) => mismatch(problems, node.describe()),
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// Structured values as JSON (from a JSON string, or a scalar inside YAML): elements
/// convert as cty converts JSON values (strings to numbers and bools and back).
fn check_json(
    json: &serde_json::Value,
    ty: &ConfigType,
    range: TextRange,
    path: &str,
    problems: &mut Problems,
) {
    use serde_json::Value;
    let found = match json {
        Value::Null => return,
        Value::Bool(_) => "a bool",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    };
    let ok = match (ty, json) {
        (ConfigType::Dynamic, _) => true,
        (ConfigType::String, Value::Bool(_) | Value::Number(_) | Value::String(_)) => true,
        (ConfigType::Bool, Value::Bool(_)) => true,
        (ConfigType::Bool, Value::String(s)) => matches!(s.as_str(), "true" | "false"),
        (ConfigType::Int | ConfigType::Number, Value::Number(_)) => true,
        (ConfigType::Int | ConfigType::Number, Value::String(s)) => go_parse_float(s).is_some(),
        (ConfigType::List(element), Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                check_json(item, element, range, &format!("{path}[{i}]"), problems);
            }
            true
        }
        (ConfigType::Map(element), Value::Object(map)) => {
            for (key, value) in map {
                check_json(value, element, range, &join(path, key), problems);
            }
            true
        }
        (ConfigType::Object(fields), Value::Object(map)) => {
            for (key, value) in map {
                match fields.iter().find(|(name, _)| name == key) {
                    Some((_, field)) => check_json(value, field, range, &join(path, key), problems),
                    None => problems.push(unknown_field(key, fields, path, range, problems.reader)),
                }
            }
            true
        }
        _ => false,
    };
    if !ok {
        problems.push(error(
            format!("expected {}{}, found {found}", ty.name(), at(path)),
            None,
            range,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml;

    fn value(text: &str) -> Node {
        let doc = yaml::parse(&format!("v: {text}\n"))
            .expect("valid")
            .expect("doc");
        doc.get("v").cloned().expect("v")
    }

    #[test]
    fn raw_values_follow_pulumi() {
        for (yaml, raw) in [
            ("1.0", "1"),
            ("0x10", "16"),
            ("0o10", "8"),
            ("yes", "yes"),
            ("'1.0'", "1.0"),
            ("true", "true"),
            ("True", "true"),
            ("1e21", "1e+21"),
            ("0.0000001", "1e-7"),
            ("2.50", "2.5"),
            ("~", "null"),
            ("[1, a]", "[1,\"a\"]"),
            ("{b: 1.0}", "{\"b\":1}"),
            ("1_000", "1000"),
            ("0b1010", "10"),
            ("017", "15"),
            ("2024-01-01", "2024-01-01 00:00:00 +0000 UTC"),
        ] {
            assert_eq!(raw_value(&value(yaml)), raw, "{yaml}");
        }
    }

    #[test]
    fn conversions() {
        let codes = |yaml: &str, ty: ConfigType| -> Vec<&'static str> {
            check_value(&value(yaml), &ty, Reader::Program)
                .iter()
                .map(|p| p.code.name())
                .collect()
        };
        assert!(codes("yes", ConfigType::Bool) == ["invalid-config-value"]);
        assert!(codes("'True'", ConfigType::Bool).is_empty());
        assert!(codes("1.0", ConfigType::Int).is_empty());
        assert!(codes("1.5", ConfigType::Int) == ["non-integer-config-value"]);
        assert!(codes("0x10", ConfigType::Int).is_empty());
        assert!(codes("eighty", ConfigType::Number) == ["invalid-config-value"]);
        assert!(codes("[1, 2]", ConfigType::String).is_empty());
        let list = ConfigType::List(Box::new(ConfigType::Int));
        assert!(codes("[1, '2', x]", list.clone()) == ["invalid-config-value"]);
        assert!(codes("'[1, 2]'", list.clone()).is_empty());
        assert!(codes("'[1, 2'", list.clone()) == ["invalid-config-value"]);
        assert!(codes("'[\"a\"]'", list.clone()) == ["invalid-config-value"]);
        assert!(codes("3", list) == ["invalid-config-value"]);
        let object = ConfigType::Object(vec![("size".into(), ConfigType::Int)]);
        // A field the object lacks fails the program's runtime; a provider may ignore it.
        assert!(
            codes("{size: big, other: 1}", object.clone())
                == ["invalid-config-value", "invalid-config-value"]
        );
        assert!(codes("{size: 2}", object.clone()).is_empty());
        assert!(codes("'{\"sise\": 2}'", object.clone()) == ["invalid-config-value"]);
        let misspelt = check_value(&value("{sise: 2}"), &object, Reader::Provider);
        assert_eq!(misspelt[0].code, codes::UNKNOWN_CONFIG_KEY);
        assert_eq!(misspelt[0].note.as_deref(), Some("did you mean `size`?"));
        // A number YAML reads where text is meant.
        for (written, warned) in [
            ("1.30", true),
            ("0123", true),
            ("1_2", true),
            ("2024-1-31", true),
            ("2024-02-30", false),
            ("1.5", false),
            ("'1.30'", false),
            ("v1.30", false),
        ] {
            let found = codes(written, ConfigType::String);
            assert_eq!(
                found == ["invalid-config-value"],
                warned,
                "{written}: {found:?}"
            );
        }
    }

    /// `pulumi config set --path --secret` writes `{secure: ...}` inside a value.
    /// `{secure: ...}` meant as an encrypted value, not one: empty, or a ciphertext with a
    /// key beside it; an object's own `secure` field is none of these.
    #[test]
    fn misshapen_secure_values() {
        let why = |yaml: &str| misshapen_secure(&value(yaml)).map(|(why, _)| why);
        assert_eq!(why("{secure: }"), Some("`secure` holds no ciphertext"));
        assert_eq!(
            why("{secure: v1:AA:BB, b: 1}"),
            Some("`secure` must be its only key")
        );
        assert_eq!(why("{host: h, port: 587, secure: true}"), None);
        assert_eq!(why("{secure: true}"), None);
        assert_eq!(why("{secure: v1:AA:BB}"), None);
    }

    #[test]
    fn secrets_inside_values_are_not_checked() {
        let codes = |yaml: &str, ty: ConfigType| -> Vec<&'static str> {
            check_value(&value(yaml), &ty, Reader::Program)
                .iter()
                .map(|p| p.code.name())
                .collect()
        };
        let db = ConfigType::Object(vec![
            ("host".into(), ConfigType::String),
            ("port".into(), ConfigType::Int),
        ]);
        assert!(codes("{host: h, port: {secure: v1:AAA}}", db.clone()).is_empty());
        let list = ConfigType::List(Box::new(ConfigType::String));
        assert!(codes("[{secure: v1:AAA}, plain]", list.clone()).is_empty());
        // Not a ciphertext: a number under `secure`, or a second key, is an ordinary map.
        assert!(codes("{host: h, port: {secure: 1234}}", db) == ["invalid-config-value"]);
        assert!(codes("[{secure: a, b: c}]", list) == ["invalid-config-value"]);
        assert!(is_ciphertext(&value("{secure: 'AAA'}")));
        // A merge key brings in fields of the object, checked as its own.
        let doc = yaml::parse("base: &b {host: h}\nv: {<<: *b, port: 1}\nw: {<<: *b, prot: 1}\n")
            .expect("valid")
            .expect("doc");
        let db = ConfigType::Object(vec![
            ("host".into(), ConfigType::String),
            ("port".into(), ConfigType::Int),
        ]);
        assert!(check_value(doc.get("v").expect("v"), &db, Reader::Program).is_empty());
        assert_eq!(
            check_value(doc.get("w").expect("w"), &db, Reader::Program).len(),
            1
        );
        assert!(!is_ciphertext(&value("{secure: 12}")));
    }
}
