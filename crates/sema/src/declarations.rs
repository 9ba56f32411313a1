//! Checking each kind of declaration: locals, configs, outputs, hooks, the `pulumi` and
//! `package` blocks here; resources, reads and components in `resources`.

use pcl_diagnostics::{Severity, codes};
use pcl_types::{Name, Ty, TyKind, input_type, pretty};
use smol_str::SmolStr;

use crate::config_type::parse_config_type;
use crate::diagnostics::Site;
use crate::hir::{BlockId, Expr, ExprId};
use crate::inference::Infer;
use crate::items::DeclKind;
use crate::resources;

/// Check the declaration; its type, its value type and whether it is a required input.
pub(crate) fn check<'db>(infer: &mut Infer<'db>) -> (Ty<'db>, Ty<'db>, bool) {
    let db = infer.db;
    match infer.decl.kind(db) {
        DeclKind::Local => {
            let ty = match infer.body.value {
                Some(value) => infer.expr(value),
                None => infer.dynamic(),
            };
            (ty, ty, false)
        }
        DeclKind::Config => config(infer),
        DeclKind::Output => output(infer),
        DeclKind::Resource | DeclKind::Read => {
            let ty = resources::resource(infer);
            (ty, ty, false)
        }
        DeclKind::Component => {
            let ty = resources::component(infer);
            (ty, ty, false)
        }
        DeclKind::Hook => {
            hook(infer);
            (infer.dynamic(), infer.dynamic(), false)
        }
        DeclKind::Pulumi => {
            pulumi_block(infer);
            (infer.dynamic(), infer.dynamic(), false)
        }
        DeclKind::Package => {
            package_block(infer);
            (infer.dynamic(), infer.dynamic(), false)
        }
    }
}

/// The type a config or output declares in its second label; `None` without one.
fn declared_type<'db>(infer: &mut Infer<'db>) -> Option<Ty<'db>> {
    let text = infer.body.label(BlockId::ROOT, 1)?;
    match parse_config_type(infer.db, text) {
        Ok(ty) => Some(ty),
        Err(message) => {
            let at = infer.at(Site::Label(BlockId::ROOT, 1));
            let pcl = pcl_type_for(text);
            // Another language's type: how PCL parses it would only confuse.
            let message = match (&pcl, message.split_once(": ")) {
                (Some(_), Some((headline, _))) if headline.ends_with("is not a type") => {
                    format!("`{text}` is not a PCL type")
                }
                _ => message,
            };
            let diagnostic = infer.push(
                codes::INVALID_CONFIG_TYPE,
                Severity::Error,
                Site::Label(BlockId::ROOT, 1),
                message,
            );
            match pcl {
                Some(pcl) => {
                    let quoted = crate::constants::string_literal(&pcl);
                    let secret = match text.to_ascii_lowercase().as_str() {
                        "secret" | "securestring" => ", with `secret = true` in the block",
                        _ => "",
                    };
                    diagnostic
                        .notes
                        .push(format!("PCL writes `{text}` as `{pcl}`{secret}"));
                    diagnostic.replace_with(at, &format!("`{quoted}`"), quoted.clone());
                }
                None => diagnostic.notes.push(
                    "for example: \"string\", \"list(int)\", \"map(object({name = string}))\""
                        .to_owned(),
                ),
            }
            Some(infer.dynamic())
        }
    }
}

/// PCL's spelling of a type written as Pulumi YAML, JSON schema or a programming language
/// writes it (`integer`, `Boolean`, `List<String>`, `string[]`, `Record<string, number>`,
/// `Dict[str, int]`, `map[string]string`, `Output<string>`), when it has one. Short labels
/// only: such a type is a few words.
fn pcl_type_for(text: &str) -> Option<String> {
    let text = text.trim();
    if text.len() > 64 {
        return None;
    }
    let pcl = foreign_type(text, 0)?;
    (pcl != text).then_some(pcl)
}

/// [`pcl_type_for`] of `text`, `depth` wrappers in.
fn foreign_type(text: &str, depth: usize) -> Option<String> {
    let text = text.trim();
    if depth > 8 {
        return None;
    }
    let inner = |t: &str| foreign_type(t, depth + 1);
    // TypeScript's `string[]`, Go's `[]string` and `map[string]string`.
    if let Some(element) = text.strip_suffix("[]").or_else(|| text.strip_prefix("[]")) {
        return Some(format!("list({})", inner(element)?));
    }
    if let Some(rest) = text.strip_prefix("map[") {
        let (key, value) = rest.split_once(']')?;
        if inner(key)? != "string" {
            return None;
        }
        return Some(format!("map({})", inner(value)?));
    }
    // `Name<A, B>` or Python's `Name[A, B]`.
    if let Some(open) = text.find(['<', '[']) {
        let close = if text.as_bytes()[open] == b'<' {
            '>'
        } else {
            ']'
        };
        let outer = text[..open].trim().to_ascii_lowercase();
        let arguments = top_level_arguments(text[open + 1..].strip_suffix(close)?);
        let one = |arguments: &[&str]| match arguments {
            [only] => inner(only),
            _ => None,
        };
        return match outer.as_str() {
            "list" | "array" | "sequence" | "ienumerable" | "ilist" => {
                Some(format!("list({})", one(&arguments)?))
            }
            "set" | "hashset" => Some(format!("set({})", one(&arguments)?)),
            "map" | "dictionary" | "idictionary" | "record" | "dict" | "immutablemap" => {
                match arguments.as_slice() {
                    [key, value] if inner(key)? == "string" => {
                        Some(format!("map({})", inner(value)?))
                    }
                    [value] => Some(format!("map({})", inner(value)?)),
                    _ => None,
                }
            }
            // A config's value is known before the program runs: no eventual wraps it.
            "output" | "input" | "promise" | "optional" => one(&arguments),
            _ => None,
        };
    }
    let lower = text.to_ascii_lowercase();
    Some(
        match lower.as_str() {
            "integer" | "int32" | "int64" | "long" => "int",
            "boolean" => "bool",
            "str" | "text" | "secret" | "securestring" => "string",
            "float" | "double" | "decimal" | "float64" => "number",
            "string" | "int" | "number" | "bool" | "any" => lower.as_str(),
            _ => return None,
        }
        .to_owned(),
    )
}

/// `a, b<c, d>` split at its top-level commas.
fn top_level_arguments(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0usize, 0, Vec::new());
    for (at, c) in text.char_indices() {
        match c {
            '<' | '[' => depth += 1,
            '>' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// An object type, or the object element of a list or map, with every property optional
/// (one level deep), as config types are read.
fn optional_properties<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>) -> Ty<'db> {
    let relax = |t: Ty<'db>| match t.kind(db) {
        TyKind::Object(fields) => Ty::object(
            db,
            fields
                .iter()
                .map(|(n, t)| (Name::clone(n), Ty::optional(db, *t))),
        ),
        _ => t,
    };
    match ty.kind(db) {
        TyKind::List(e) => Ty::list(db, relax(*e)),
        TyKind::Map(e) => Ty::map(db, relax(*e)),
        _ => relax(ty),
    }
}

fn config<'db>(infer: &mut Infer<'db>) -> (Ty<'db>, Ty<'db>, bool) {
    let db = infer.db;
    let declared = declared_type(infer);
    let mut ty = declared.map_or_else(|| infer.dynamic(), |t| optional_properties(db, t));
    let body = infer.body;
    let mut has_default = false;
    let mut nullable = false;
    let mut nullable_attr = None;
    let mut secret = false;
    for &attr in body.block(BlockId::ROOT).attrs.iter() {
        let data = body.attr(attr);
        let value = data.value;
        match body.str(data.name) {
            "default" => {
                has_default = true;
                infer.expr(value);
                if matches!(body.expr(value), Expr::Null) {
                    if !crate::inference::accepts_none(db, ty) {
                        ty = Ty::optional(db, ty);
                    }
                    nullable = true;
                } else {
                    infer.check_value(value, input_type(db, ty), &"the default");
                    quoted_default(infer, value, ty);
                }
            }
            "description" => literal_string(infer, value, "description"),
            "nullable" if literal_bool(infer, value, "nullable") => {
                nullable = true;
                nullable_attr = Some(attr);
            }
            "nullable" => {}
            "secret" => secret = literal_bool(infer, value, "secret"),
            "__logicalName" => literal_string(infer, value, "__logicalName"),
            // Terraform's `type = number`: a type, not a value to type (no undefined
            // `number` after it).
            "type" => unknown_attribute(infer, attr, CONFIG_ATTRIBUTES, "a config"),
            _ => {
                infer.expr(value);
                unknown_attribute(infer, attr, CONFIG_ATTRIBUTES, "a config");
            }
        }
    }
    unexpected_blocks(infer, "a config");
    if let Some(attr) = nullable_attr.filter(|_| !has_default) {
        nullable_without_default(infer, attr);
    }
    let required = !has_default && !nullable && !crate::inference::accepts_none(db, ty);
    if secret {
        ty = Ty::output(db, ty);
    }
    (ty, ty, required)
}

/// `nullable = true` without a default: Go's binder takes the config as optional in a
/// component's inputs, but no code generator reads `nullable`: the converted program
/// requires a value (`config.require`), and a component's TypeScript arguments do too. A
/// warning; `default = null` makes a config optional.
fn nullable_without_default(infer: &mut Infer<'_>, attr: crate::hir::AttrId) {
    let message = "`nullable = true` does not make a config optional: the converted program \
                   requires a value unless the config has a default"
        .to_owned();
    let site = Site::AttrName(attr);
    let diagnostic = infer.push(codes::TYPE_MISMATCH, Severity::Warning, site, message);
    diagnostic
        .notes
        .push("write `default = null` to make the config optional".to_owned());
}

/// `config "length" "int" { default = "16" }`: Go converts the string, but the code
/// generators write a default as it is written, at its own type (`getNumber("length") ||
/// "16"` in TypeScript, which does not compile; `get_bool(..) or "false"` in Python, a
/// string that is true). An error beyond Go, fixed to the unquoted value.
fn quoted_default<'db>(infer: &mut Infer<'db>, value: ExprId, ty: Ty<'db>) {
    let db = infer.db;
    let body = infer.body;
    let Expr::String(text) = body.expr(value) else {
        return;
    };
    let text = body.str(*text);
    let (kind, fix) = match (crate::constants::primitive_kind(db, ty), text) {
        (Some("number"), _) if crate::constants::is_number_literal(text) => ("a number", text),
        (Some("bool"), "true" | "1") => ("a bool", "true"),
        (Some("bool"), "false" | "0") => ("a bool", "false"),
        _ => return,
    };
    let severity = infer.beyond_go_severity();
    let at = infer.at(Site::Expr(value));
    let message = format!(
        "the default of a config of type {} must be {kind}, not a string",
        pretty(db, ty)
    );
    let diagnostic = infer.push(codes::TYPE_MISMATCH, severity, Site::Expr(value), message);
    diagnostic.notes.push(
        "the converted program writes the default as written, so a quoted value stays a string"
            .to_owned(),
    );
    diagnostic.suggest(at, fix.to_owned());
}

fn output<'db>(infer: &mut Infer<'db>) -> (Ty<'db>, Ty<'db>, bool) {
    let db = infer.db;
    let declared = declared_type(infer);
    let body = infer.body;
    let mut value_ty = declared.unwrap_or_else(|| infer.dynamic());
    match body.find_attr(BlockId::ROOT, "value") {
        Some(attr) => {
            let value = body.attr(attr).value;
            value_ty = infer.expr(value);
            if let Some(declared) = declared {
                infer.check_value(value, input_type(db, declared), &"the output's value");
            }
        }
        // A misspelt `value` is reported as such, a missing `{` by the parser (one error
        // per cause).
        None if misspells(body, "value", OUTPUT_ATTRIBUTES) => {}
        None if !body.block(BlockId::ROOT).opened => {}
        None => {
            let severity = infer.beyond_go_severity();
            infer
                .push(
                    codes::MISSING_ATTRIBUTE,
                    severity,
                    Site::BlockOpen(BlockId::ROOT),
                    "this output has no `value`".to_owned(),
                )
                .notes
                .push("add `value = <expression>`".to_owned());
        }
    }
    for &attr in body.block(BlockId::ROOT).attrs.iter() {
        match body.attr_name(attr) {
            "value" => {}
            // Documentation: Go's binder does not read it, and nothing is lost.
            "description" => literal_string(infer, body.attr(attr).value, "description"),
            "__logicalName" => literal_string(infer, body.attr(attr).value, "__logicalName"),
            _ => {
                infer.expr(body.attr(attr).value);
                unknown_attribute(infer, attr, OUTPUT_ATTRIBUTES, "an output");
            }
        }
    }
    unexpected_blocks(infer, "an output");
    (declared.unwrap_or_else(|| infer.dynamic()), value_ty, false)
}

fn hook(infer: &mut Infer<'_>) {
    let db = infer.db;
    let body = infer.body;
    let error_hook = body.label(BlockId::ROOT, 0) == Some("error");
    let mut fields = vec![
        ("urn", Ty::string(db)),
        ("id", Ty::id(db)),
        ("name", Ty::string(db)),
        ("type", Ty::string(db)),
        ("newInputs", Ty::map(db, Ty::dynamic(db))),
        ("oldInputs", Ty::map(db, Ty::dynamic(db))),
        ("oldOutputs", Ty::map(db, Ty::dynamic(db))),
    ];
    if !error_hook {
        fields.push(("newOutputs", Ty::map(db, Ty::dynamic(db))));
    }
    let args = Ty::object(db, fields.into_iter().map(|(n, t)| (Name::from(n), t)));
    let allowed: &[&str] = if error_hook {
        &["command"]
    } else {
        &["command", "ignoreErrors", "onDryRun"]
    };
    if body.find_attr(BlockId::ROOT, "command").is_none() && body.block(BlockId::ROOT).opened {
        infer
            .push(
                codes::MISSING_ATTRIBUTE,
                Severity::Error,
                Site::BlockOpen(BlockId::ROOT),
                "this hook has no `command`".to_owned(),
            )
            .notes
            .push("add `command = [\"program\", \"argument\"]`".to_owned());
    }
    for &attr in body.block(BlockId::ROOT).attrs.iter() {
        let data = body.attr(attr);
        match body.str(data.name) {
            "command" => {
                infer.locals.push(("args".into(), args));
                infer.expr(data.value);
                infer.locals.pop();
                let expected = input_type(db, Ty::list(db, Ty::string(db)));
                infer.check_value(data.value, expected, &"the command");
            }
            "onDryRun" | "ignoreErrors" if !error_hook => {
                infer.expr(data.value);
                infer.expect(
                    data.value,
                    input_type(db, Ty::bool(db)),
                    &format!("`{}`", body.str(data.name)),
                );
            }
            name => {
                infer.expr(data.value);
                let message = format!("hooks have no attribute `{name}`");
                let note = format!(
                    "a {} hook takes {}",
                    if error_hook { "error" } else { "resource" },
                    allowed.join(", ")
                );
                infer
                    .push(
                        codes::UNKNOWN_ATTRIBUTE,
                        Severity::Error,
                        Site::AttrName(attr),
                        message,
                    )
                    .notes
                    .push(note);
            }
        }
    }
}

fn pulumi_block(infer: &mut Infer<'_>) {
    let db = infer.db;
    let body = infer.body;
    for &attr in body.block(BlockId::ROOT).attrs.iter() {
        let data = body.attr(attr);
        infer.expr(data.value);
        if body.str(data.name) == "requiredVersionRange" {
            infer.expect(
                data.value,
                input_type(db, Ty::string(db)),
                &"`requiredVersionRange`",
            );
            if let Expr::String(range) = body.expr(data.value)
                && let range = body.str(*range)
                && let Err(why) = crate::version_range::check_range(range)
            {
                infer
                    .push(
                        codes::INVALID_VERSION_RANGE,
                        Severity::Error,
                        Site::Expr(data.value),
                        format!("`{range}` is not a version range: {why}"),
                    )
                    .notes
                    .push("Pulumi reads ranges as blang/semver does: comparisons such as `>=3.0.0 <4.0.0`, `!3.1.2` or `3.x`, joined by spaces (and) or `||` (or)".to_owned());
            }
        } else {
            unknown_attribute(infer, attr, &["requiredVersionRange"], "the `pulumi` block");
        }
    }
}

fn package_block(infer: &mut Infer<'_>) {
    let body = infer.body;
    let mut blocks = vec![BlockId::ROOT];
    blocks.extend(body.find_blocks(BlockId::ROOT, "parameterization"));
    for block in blocks {
        let (known, what): (&[&str], _) = if block == BlockId::ROOT {
            (PACKAGE_ATTRIBUTES, "a `package` block")
        } else {
            (&["name", "version", "value"], "a `parameterization` block")
        };
        for &attr in body.block(block).attrs.iter() {
            let data = body.attr(attr);
            literal_string(infer, data.value, body.str(data.name));
            if !known.contains(&body.str(data.name)) {
                unknown_attribute(infer, attr, known, what);
            }
        }
    }
    package_values(infer);
    duplicate_package(infer);
    let named = body.find_attr(BlockId::ROOT, "baseProviderName").is_some()
        || body.label_count(BlockId::ROOT) > 0;
    if !named {
        infer
            .push(
                codes::INVALID_PACKAGE_BLOCK,
                Severity::Error,
                Site::BlockType(BlockId::ROOT),
                "this package block names no package".to_owned(),
            )
            .notes
            .push("set `baseProviderName = \"<package>\"`".to_owned());
    }
}

/// A `package` block's version and download URL, as Go's binder reads them: the version
/// must be semver (`semver.Make`: `1.2.3`, no `v`), the URL an absolute URI or path
/// (`url.ParseRequestURI`), else the block is rejected.
fn package_values(infer: &mut Infer<'_>) {
    let body = infer.body;
    let literal = |block: BlockId, name: &str| string_attr(body, block, name);
    let mut versions = vec![literal(BlockId::ROOT, "baseProviderVersion")];
    versions.extend(
        body.find_blocks(BlockId::ROOT, "parameterization")
            .map(|p| literal(p, "version")),
    );
    for (value, version) in versions.into_iter().flatten() {
        if semver::Version::parse(version).is_err() {
            let fix = match crate::option_constants::semver_without_v(version) {
                Some(bare) => format!("write \"{bare}\""),
                _ => "write major.minor.patch, such as \"4.11.2\"".to_owned(),
            };
            infer
                .push(
                    codes::INVALID_PACKAGE_BLOCK,
                    Severity::Error,
                    Site::Expr(value),
                    format!("invalid version \"{version}\": a package block's version is semver"),
                )
                .notes
                .push(fix);
        }
    }
    if let Some((value, url)) = literal(BlockId::ROOT, "baseProviderDownloadUrl")
        && !is_request_uri(url)
    {
        infer
            .push(
                codes::INVALID_PACKAGE_BLOCK,
                Severity::Error,
                Site::Expr(value),
                format!("invalid download URL \"{url}\": it must be an absolute URL"),
            )
            .notes
            .push(format!("for example: \"https://{url}\""));
    }
}

/// The attribute `name` of `block` when its value is a literal string: the value and its
/// text.
fn string_attr<'b>(
    body: &'b crate::hir::Body,
    block: BlockId,
    name: &str,
) -> Option<(ExprId, &'b str)> {
    let value = body.attr(body.find_attr(block, name)?).value;
    match body.expr(value) {
        Expr::String(text) => Some((value, body.str(*text))),
        _ => None,
    }
}

/// Whether `url` is what Go's `url.ParseRequestURI` takes: an absolute path, or a scheme
/// (a letter, then letters, digits, `+`, `-` or `.`) and a colon.
fn is_request_uri(url: &str) -> bool {
    if url.starts_with('/') {
        return true;
    }
    let Some((scheme, _)) = url.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Whether an attribute of the declaration's block is an unknown one closest to `name`.
fn misspells(body: &crate::hir::Body, name: &str, known: &[&str]) -> bool {
    (body.block(BlockId::ROOT).attrs.iter()).any(|&attr| {
        let written = body.attr_name(attr);
        !known.contains(&written)
            && pcl_types::closest_name(written, known.iter().copied()) == Some(name)
    })
}

/// The attributes a `config` block takes.
pub const CONFIG_ATTRIBUTES: &[&str] = &[
    "default",
    "description",
    "nullable",
    "secret",
    "__logicalName",
];

/// The attributes an `output` block takes.
pub const OUTPUT_ATTRIBUTES: &[&str] = &["value", "description", "__logicalName"];

const PACKAGE_ATTRIBUTES: &[&str] = &[
    "baseProviderName",
    "baseProviderVersion",
    "baseProviderDownloadUrl",
];

/// An attribute a `config`, `output`, `pulumi` or `package` block does not take. Pulumi's
/// binder ignores it, so a misspelt `default` silently makes a config required: an error
/// beyond Go (a warning under `--lenient`), with the closest attribute suggested.
fn unknown_attribute(infer: &mut Infer<'_>, attr: crate::hir::AttrId, known: &[&str], what: &str) {
    let name = infer.body.attr_name(attr);
    let severity = infer.beyond_go_severity();
    let at = infer.at(Site::AttrName(attr));
    let foreign = foreign_attribute(what, name);
    let suggestion = match foreign {
        Some((fix, _)) => fix.map(str::to_owned),
        None => pcl_types::closest_name(name, known.iter().copied()).map(str::to_owned),
    };
    let diagnostic = infer.push(
        codes::UNKNOWN_ATTRIBUTE,
        severity,
        Site::AttrName(attr),
        format!("{what} has no attribute `{name}`; it would be ignored"),
    );
    if let Some((_, note)) = foreign {
        diagnostic.notes.push(note.to_owned());
    }
    match suggestion {
        Some(s) => {
            diagnostic.suggest(at, s);
        }
        None => diagnostic
            .notes
            .push(format!("{what} takes {}", known.join(", "))),
    }
}

/// What PCL writes for an attribute of a Terraform `variable` or `output` (`what` is the
/// block, as `unknown_attribute` names it): the attribute to write instead, if one, and a
/// note.
fn foreign_attribute(what: &str, name: &str) -> Option<(Option<&'static str>, &'static str)> {
    Some(match (what, name) {
        ("a config", "sensitive") => (Some("secret"), "Terraform's `sensitive` is PCL's `secret`"),
        ("a config", "type") => (
            None,
            "a config's type is its second label: `config name \"number\" { ... }`",
        ),
        ("a config", "validation") => (None, "PCL has no validation: the condition never runs"),
        ("an output", "sensitive" | "secret") => (
            None,
            "an output is secret when its value is: `value = secret(...)`",
        ),
        ("an output", "depends_on" | "dependsOn") => {
            (None, "an output waits for everything its value reads")
        }
        _ => return None,
    })
}

/// Blocks in a config's or output's body, which take attributes only: Pulumi's binder
/// ignores them, so a `default { ... }` block leaves the config required and a
/// Terraform `validation` or `precondition` never runs. Errors beyond Go.
fn unexpected_blocks(infer: &mut Infer<'_>, what: &str) {
    let body = infer.body;
    let severity = infer.beyond_go_severity();
    for &block in body.block(BlockId::ROOT).blocks.iter() {
        let kind = body.block_kind(block);
        let note = match kind {
            "default" | "value" => format!("{what}'s `{kind}` is an attribute: `{kind} = ...`"),
            "validation" | "precondition" | "postcondition" => {
                format!("PCL has no `{kind}` blocks: its condition would never run")
            }
            _ => format!("{what} takes attributes only"),
        };
        infer
            .push(
                codes::UNEXPECTED_BLOCK,
                severity,
                Site::BlockType(block),
                format!("unexpected block `{kind}` in {what}; it would be ignored"),
            )
            .notes
            .push(note);
    }
}

/// What a `package` block says: the package it defines (the parameterization's name,
/// else the base provider's) and its literal fields, which two blocks of one package
/// must agree on. `None` when it names no package.
fn package_descriptor(body: &crate::hir::Body) -> Option<(SmolStr, Vec<(SmolStr, SmolStr)>)> {
    let literal = |block: BlockId, name: &str| {
        string_attr(body, block, name).map(|(_, text)| SmolStr::new(text))
    };
    let parameterization = body.find_blocks(BlockId::ROOT, "parameterization").next();
    let base = literal(BlockId::ROOT, "baseProviderName")
        .or_else(|| body.label(BlockId::ROOT, 0).map(SmolStr::new))?;
    let name = parameterization
        .and_then(|p| literal(p, "name"))
        .unwrap_or_else(|| base.clone());
    let mut fields = vec![(SmolStr::new("baseProviderName"), base)];
    for field in ["baseProviderVersion", "baseProviderDownloadUrl"] {
        fields.extend(literal(BlockId::ROOT, field).map(|v| (SmolStr::new(field), v)));
    }
    if let Some(p) = parameterization {
        for field in ["name", "version", "value"] {
            fields.extend(literal(p, field).map(|v| (SmolStr::new(field), v)));
        }
    }
    Some((name, fields))
}

/// The packages the program's `package` blocks make by parameterizing a base provider
/// (`parameterization { name = "myext" }`): (base provider, package) pairs. One query per
/// program, so that each unknown resource type asks it rather than reading every block.
#[salsa::tracked(returns(ref))]
pub(crate) fn parameterized_packages(
    db: &dyn salsa::Database,
    program: crate::input::Program,
) -> Box<[(SmolStr, SmolStr)]> {
    (crate::items::program_decls(db, program).iter())
        .filter(|decl| decl.kind(db) == DeclKind::Package)
        .filter_map(|&decl| package_descriptor(crate::hir::body(db, decl)))
        .filter_map(|(name, fields)| {
            let (_, base) = fields
                .iter()
                .find(|(field, _)| field == "baseProviderName")?;
            (*base != name).then(|| (base.clone(), name.clone()))
        })
        .collect()
}

/// The version a `package` block of the program pins for `package`, if one does.
pub(crate) fn pinned_version(
    db: &dyn pcl_types::Db,
    program: crate::input::Program,
    package: &str,
) -> Option<SmolStr> {
    (crate::items::program_decls(db, program).iter())
        .filter(|decl| decl.kind(db) == DeclKind::Package)
        .filter_map(|&decl| package_descriptor(crate::hir::body(db, decl)))
        .filter(|(name, _)| name == package)
        .find_map(|(_, fields)| {
            // A parameterized package's own version, else the base provider's.
            let field = |wanted: &str| {
                (fields.iter())
                    .find(|(field, _)| field == wanted)
                    .map(|(_, version)| version.clone())
            };
            field("version").or_else(|| field("baseProviderVersion"))
        })
}

/// A second `package` block for one package, as Go's `ReadPackageDescriptors`: in the
/// same file always an error, in another file only when the two disagree.
fn duplicate_package(infer: &mut Infer<'_>) {
    let db = infer.db;
    let Some((name, fields)) = package_descriptor(infer.body) else {
        return;
    };
    let program = infer.decl.program(db);
    let file = infer.decl.file(db);
    for &other in crate::items::program_decls(db, program).iter() {
        if other == infer.decl {
            return;
        }
        if other.kind(db) != DeclKind::Package {
            continue;
        }
        let Some((other_name, other_fields)) = package_descriptor(crate::hir::body(db, other))
        else {
            continue;
        };
        if other_name != name {
            continue;
        }
        let same_file = other.file(db) == file;
        if !same_file && other_fields == fields {
            continue;
        }
        let (message, label) = if same_file {
            (
                format!("package `{name}` is already defined in this file"),
                "first defined here".to_owned(),
            )
        } else {
            (
                format!("package `{name}` is already defined with different parameters"),
                format!("defined here, in {}", other.file(db).path(db)),
            )
        };
        let diagnostic = infer.push(
            codes::DUPLICATE_DECLARATION,
            Severity::Error,
            Site::BlockType(BlockId::ROOT),
            message,
        );
        diagnostic.labels.push((
            crate::diagnostics::Located::new(other, Site::BlockType(BlockId::ROOT)),
            label,
        ));
        diagnostic.notes.push(if same_file {
            "describe each package once per file".to_owned()
        } else {
            "make the blocks identical, or keep one of them".to_owned()
        });
        return;
    }
}

/// Type an attribute value that must be a literal string.
pub(crate) fn literal_string(infer: &mut Infer<'_>, value: ExprId, name: &str) {
    infer.expr(value);
    if !matches!(infer.body.expr(value), Expr::String(_)) {
        let message = format!("`{name}` must be a literal string");
        infer
            .push(
                codes::LITERAL_REQUIRED,
                Severity::Error,
                Site::Expr(value),
                message,
            )
            .notes
            .push("write the value in quotes, without interpolations".to_owned());
    }
}

/// Type an attribute value that must be `true` or `false`; its value.
fn literal_bool(infer: &mut Infer<'_>, value: crate::hir::ExprId, name: &str) -> bool {
    infer.expr(value);
    match infer.body.expr(value) {
        Expr::Bool(b) => *b,
        _ => {
            let message = format!("`{name}` must be `true` or `false`");
            infer.push(
                codes::LITERAL_REQUIRED,
                Severity::Error,
                Site::Expr(value),
                message,
            );
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::pcl_type_for;

    #[test]
    fn types_written_as_other_languages_write_them() {
        let pcl = |text: &str| pcl_type_for(text);
        assert_eq!(pcl("integer").as_deref(), Some("int"));
        assert_eq!(pcl("Boolean").as_deref(), Some("bool"));
        assert_eq!(pcl("String").as_deref(), Some("string"));
        assert_eq!(
            pcl("List<Map<String>>").as_deref(),
            Some("list(map(string))")
        );
        assert_eq!(pcl("Array<integer>").as_deref(), Some("list(int)"));
        // Already PCL's, or nothing PCL has.
        assert_eq!(pcl("string"), None);
        assert_eq!(pcl("Tuple<String>"), None);
        assert_eq!(pcl("List<String"), None);
        // A long label is no type a person wrote: not read at all (it was recursive).
        let deep = format!("{}string{}", "List<".repeat(100_000), ">".repeat(100_000));
        assert_eq!(pcl(&deep), None);
    }
}
