//! Display of types: the canonical syntax (`object({a = int, b = string})`,
//! `union(int, none)`), which parses back and orders union members; the message form
//! (`{ a: int, b: string }`, `int?`); and the readable listing form, the canonical syntax
//! with constants, long unions and long tuples written for people, wrapped over lines
//! when too long for one.

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

/// The widest a shortened union or tuple is written (`… (K more)` aside).
const SHORTENED_WIDTH: usize = 120;

/// The most members a shortened union or tuple shows.
const SHORTENED_MEMBERS: usize = 6;

/// The two readable forms: messages (`pretty`) and listings (`readable`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// `{ a: A }`, `A | B?`, `tuple(A, B)`.
    Message,
    /// The canonical syntax (`object({a = A})`, `union(A, B)`), made readable.
    Listing,
}

/// The form used in diagnostics: objects as `{ a: A }`, unions as `A | B` with `none`
/// folded into a trailing `?`, tuples as `tuple(A, B)`. A string constant (in programs
/// only a schema `const`) shows as its literal, any other constant as its type (`int`,
/// `bool`); enum members as literals. Unions and tuples show as many members as fit in
/// 120 characters (at least 1, at most 6), then `… (K more)`.
pub fn pretty<'db>(db: &'db dyn Db, ty: Ty<'db>) -> String {
    render(db, ty, Style::Message)
}

/// The form of listings (`pcl types`, `pcl schema`, hover, inlay hints): the canonical
/// syntax of [`display`], with constants, unions and tuples written as [`pretty`]
/// writes them. Unlike `display`, it need not parse back.
pub fn readable<'db>(db: &'db dyn Db, ty: Ty<'db>) -> String {
    readable_query(db, ty).clone()
}

/// Memoized, as `display` is: editors ask for the same declarations' types on every
/// completion and hover.
#[salsa::tracked(returns(ref))]
fn readable_query<'db>(db: &'db dyn Db, ty: Ty<'db>) -> String {
    render(db, ty, Style::Listing)
}

fn render<'db>(db: &'db dyn Db, ty: Ty<'db>, style: Style) -> String {
    let inner = |t: &Ty<'db>| render(db, *t, style);
    match ty.kind(db) {
        TyKind::List(e) => format!("list({})", inner(e)),
        TyKind::Map(e) => format!("map({})", inner(e)),
        TyKind::Set(e) => format!("set({})", inner(e)),
        TyKind::Output(e) => format!("output({})", inner(e)),
        TyKind::Promise(e) => format!("promise({})", inner(e)),
        TyKind::Tuple(elements) => {
            let parts: Vec<String> = elements.iter().map(inner).collect();
            format!("tuple({})", shortened(parts, ", "))
        }
        TyKind::Object(properties) => match style {
            Style::Message if properties.is_empty() => "{}".to_owned(),
            Style::Message => {
                let parts: Vec<String> = (properties.iter())
                    .map(|(name, t)| format!("{name}: {}", inner(t)))
                    .collect();
                format!("{{ {} }}", parts.join(", "))
            }
            Style::Listing => {
                let mut entries: Vec<String> = (properties.iter())
                    .map(|(name, t)| format!("{} = {}", property_key(name), inner(t)))
                    .collect();
                entries.sort();
                format!("object({{{}}})", entries.join(", "))
            }
        },
        TyKind::Union(members) => {
            let mut parts: Vec<String> = Vec::new();
            for member in members.iter().filter(|m| !m.is_none(db)) {
                let part = inner(member);
                if !parts.contains(&part) {
                    parts.push(part);
                }
            }
            let optional = members.iter().any(|m| m.is_none(db));
            match style {
                Style::Message if parts.len() == 1 && optional => format!("{}?", parts[0]),
                Style::Message => {
                    if optional {
                        parts.push("none".to_owned());
                    }
                    shortened(parts, " | ")
                }
                Style::Listing => {
                    if optional {
                        parts.push("none".to_owned());
                    }
                    match parts.as_slice() {
                        [single] => single.clone(),
                        _ => format!("union({})", shortened(parts, ", ")),
                    }
                }
            }
        }
        TyKind::Const(underlying, value) => match value {
            crate::ConstValue::String(_) => value.pretty(),
            _ => inner(underlying),
        },
        TyKind::Enum(enumeration) => {
            let values: Vec<String> = enumeration.values.iter().map(|v| v.pretty()).collect();
            match style {
                Style::Message => format!("enum({})", shortened(values, " | ")),
                Style::Listing => {
                    format!("enum({}: {})", enumeration.token, shortened(values, " | "))
                }
            }
        }
        _ => display(db, ty).clone(),
    }
}

/// `parts` joined by `separator`, as many as fit in [`SHORTENED_WIDTH`] characters (at
/// least one, at most [`SHORTENED_MEMBERS`]), then `… (K more)`.
fn shortened(parts: Vec<String>, separator: &str) -> String {
    let mut shown = 0;
    let mut width = 0;
    for part in &parts {
        let next = width + part.chars().count() + if shown > 0 { separator.len() } else { 0 };
        if shown > 0 && (next > SHORTENED_WIDTH || shown == SHORTENED_MEMBERS) {
            break;
        }
        width = next;
        shown += 1;
    }
    let more = parts.len() - shown;
    let mut text = parts[..shown].join(separator);
    if more > 0 {
        text.push_str(&format!("{separator}… ({more} more)"));
    }
    text
}

/// How wide a line of a listing may be before its type is wrapped.
const LINE_WIDTH: usize = 100;

/// `ty` (a [`readable`] type) starting at column `column` of a line: as it is when it
/// fits in 100 columns, else with the items of its first bracketed list of several
/// (`object({a = A, b = B})`, `union(A, B)`) one per line, each wrapped in turn, two
/// columns further in.
pub fn wrapped(ty: &str, column: usize) -> String {
    wrapped_at(ty, column, 0)
}

/// [`wrapped`] on a line indented by `indent`.
fn wrapped_at(ty: &str, column: usize, indent: usize) -> String {
    if column + ty.len() <= LINE_WIDTH {
        return ty.to_owned();
    }
    let Some((open, close)) = first_group(ty) else {
        return ty.to_owned();
    };
    let (head, inner, tail) = (&ty[..=open], &ty[open + 1..close], &ty[close..]);
    let items = top_level_items(inner);
    if items.len() < 2 {
        let inner = wrapped_at(inner, column + head.len(), indent);
        return format!("{head}{inner}{tail}");
    }
    let inner_indent = indent + 2;
    let mut out = format!("{head}\n");
    for item in items {
        let item = wrapped_at(item.trim(), inner_indent, inner_indent);
        out.push_str(&format!("{:inner_indent$}{item},\n", ""));
    }
    out.push_str(&format!("{:indent$}{tail}", ""));
    out
}

/// The byte offsets of the first opening bracket of `text` outside string literals and
/// of the bracket that closes it.
fn first_group(text: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut open = None;
    for (offset, byte, quoted) in scan(text) {
        match byte {
            _ if quoted => {}
            b'(' | b'{' | b'[' => {
                open.get_or_insert(offset);
                depth += 1;
            }
            b')' | b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some((open?, offset));
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` split at the commas outside brackets and string literals.
fn top_level_items(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (offset, byte, quoted) in scan(text) {
        match byte {
            _ if quoted => {}
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                items.push(&text[start..offset]);
                start = offset + 1;
            }
            _ => {}
        }
    }
    items.push(&text[start..]);
    items
}

/// Each byte of `text` with its offset and whether it is inside a string literal (the
/// quotes included; `\"` does not end one).
fn scan(text: &str) -> impl Iterator<Item = (usize, u8, bool)> + '_ {
    let (mut quoted, mut escaped) = (false, false);
    text.bytes().enumerate().map(move |(offset, byte)| {
        let inside = quoted || byte == b'"';
        if quoted && !escaped && byte == b'"' {
            quoted = false;
        } else if !quoted && byte == b'"' {
            quoted = true;
        }
        escaped = quoted && !escaped && byte == b'\\';
        (offset, byte, inside)
    })
}

#[cfg(test)]
mod wrapping_tests {
    use super::wrapped;

    #[test]
    fn a_short_type_stays_on_its_line() {
        assert_eq!(wrapped("output(list(string))", 10), "output(list(string))");
    }

    #[test]
    fn a_long_object_puts_a_property_on_each_line() {
        let fields: Vec<String> = (0..12)
            .map(|i| format!("field{i} = output(union(string, none))"))
            .collect();
        let ty = format!("object({{{}}})", fields.join(", "));
        let out = wrapped(&ty, "resource bucket: ".len());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "object({");
        assert_eq!(lines[1], "  field0 = output(union(string, none)),");
        assert_eq!(lines[12], "  field11 = output(union(string, none)),");
        assert_eq!(lines[13], "})");
        assert!(lines.iter().all(|line| line.len() <= 100));
    }

    #[test]
    fn nested_lists_are_wrapped_further_in_and_strings_are_not_split() {
        let members: Vec<String> = (0..8).map(|i| format!("\"value, {i} ({{x}})\"")).collect();
        let inner = format!("union({})", members.join(", "));
        let ty = format!("object({{a = {inner}, b = int}})");
        let out = wrapped(&ty, 0);
        let expected = ["object({", "  a = union(", "    \"value, 0 ({x})\","];
        assert_eq!(out.lines().take(3).collect::<Vec<_>>(), expected);
        assert!(
            out.contains("    \"value, 7 ({x})\",\n  ),\n  b = int,\n})"),
            "{out}"
        );
    }

    #[test]
    fn unbalanced_text_is_left_as_it_is() {
        let ty = format!("object({{a = {}", "x".repeat(120));
        assert_eq!(wrapped(&ty, 0), ty);
    }
}
