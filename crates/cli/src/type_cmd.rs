//! `pcl type`: the type system from the command line, for people and for conformance
//! suites. Each subcommand prints one JSON object on one line:
//!
//! - `pcl type show TYPE` → `{"type": "<normalised display>"}`
//! - `pcl type relate TO FROM` → `{"assignable": bool, "conversion": "safe"|"unsafe"|"none",
//!   "unify": {"safe": "<type>", "unsafe": "<type>"}}`
//! - `pcl type traverse TYPE KEY...` with keys `.name`, `[N]`, `["s"]`, `[<T>]` (and the
//!   legacy index `.N`) →
//!   `{"type": "<result>", "error": bool}`; the steps' diagnostics go to stderr.
//!
//! Exit 0 on success; 2 with a message on stderr for a malformed type or key.

use std::process::ExitCode;

use pcl_types::{ConstValue, TraverseKey, Ty, display};

use crate::{print_err, print_out, usage_error_with};
use pcl_ide::RootDatabase;

const TYPE_USAGE: &str = "\
usage: pcl type show TYPE
       pcl type relate TO FROM
       pcl type traverse TYPE KEY...    (KEY: .name, [N], [\"s\"] or [<T>])
";

pub(crate) fn run(args: &[String]) -> ExitCode {
    let db = RootDatabase::default();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["show", ty] => show(&db, ty),
        ["relate", to, from] => relate(&db, to, from),
        ["traverse", ty, keys @ ..] if !keys.is_empty() => {
            traverse(&db, ty, keys).map(|(answer, diagnostics)| {
                print_err(&diagnostics);
                answer
            })
        }
        ["--help" | "-h" | "help"] => {
            print_out(TYPE_USAGE);
            return ExitCode::SUCCESS;
        }
        ["show" | "relate" | "traverse", ..] => {
            return usage_error_with("wrong arguments for `pcl type`", TYPE_USAGE);
        }
        [other, ..] => {
            return usage_error_with(&format!("unknown `pcl type` command `{other}`"), TYPE_USAGE);
        }
        [] => {
            return usage_error_with(
                "`pcl type` needs a command: show, relate or traverse",
                TYPE_USAGE,
            );
        }
    };
    match result {
        Ok(json) => {
            print_out(&format!("{json}\n"));
            ExitCode::SUCCESS
        }
        Err(message) => {
            print_err(&format!("error: {message}\n"));
            ExitCode::from(2)
        }
    }
}

fn parse<'db>(db: &'db RootDatabase, what: &str, text: &str) -> Result<Ty<'db>, String> {
    pcl_types::parse_type(db, text).map_err(|error| format!("invalid {what} `{text}`: {error}"))
}

/// A JSON string literal.
fn json(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

fn show(db: &RootDatabase, text: &str) -> Result<String, String> {
    let ty = parse(db, "type", text)?;
    Ok(format!("{{\"type\": {}}}", json(display(db, ty))))
}

fn relate(db: &RootDatabase, to: &str, from: &str) -> Result<String, String> {
    let to = parse(db, "TO type", to)?;
    let from = parse(db, "FROM type", from)?;
    let assignable = pcl_types::assignable(db, to, from);
    let conversion = pcl_types::conversion(db, to, from);
    let (safe, unsafe_) = pcl_types::unify_types(db, [to, from]);
    Ok(format!(
        "{{\"assignable\": {assignable}, \"conversion\": {}, \"unify\": {{\"safe\": {}, \"unsafe\": {}}}}}",
        json(conversion.as_str()),
        json(display(db, safe)),
        json(display(db, unsafe_)),
    ))
}

/// The JSON answer, and the steps' diagnostics as lines for stderr.
fn traverse(db: &RootDatabase, text: &str, keys: &[&str]) -> Result<(String, String), String> {
    let mut ty = parse(db, "type", text)?;
    let mut error = false;
    let mut diagnostics = String::new();
    for key_text in keys {
        let key = parse_key(db, key_text)?;
        let step = pcl_types::traverse(db, ty, key);
        for problem in &step.problems {
            diagnostics.push_str(&format!(
                "{}[{}]: at `{key_text}`: {}\n",
                problem.severity(db).as_str(),
                problem.code(),
                problem.message(db)
            ));
        }
        error |= step.has_errors(db);
        ty = step.ty;
    }
    let answer = format!(
        "{{\"type\": {}, \"error\": {error}}}",
        json(display(db, ty))
    );
    Ok((answer, diagnostics))
}

/// One traversal key: `.name`, `[N]`, `["s"]` or `[<T>]`.
fn parse_key<'db>(db: &'db RootDatabase, text: &str) -> Result<TraverseKey<'db>, String> {
    let malformed = |why: &str| {
        format!("invalid key `{text}`: {why}; expected `.name`, `[N]`, `[\"s\"]` or `[<T>]`")
    };
    if let Some(name) = text.strip_prefix('.') {
        // `.0` is HCL's legacy index syntax: a number key, as `[0]`.
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
            let number = pcl_syntax::ast::NumberValue::parse(name).map_err(|e| malformed(&e))?;
            return Ok(TraverseKey::Literal(ConstValue::Number(number)));
        }
        if !pcl_syntax::is_identifier(name) {
            return Err(malformed("not an identifier"));
        }
        return Ok(TraverseKey::Attr(name.into()));
    }
    let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
        return Err(malformed("not a key"));
    };
    let inner = inner.trim();
    if let Some(ty) = inner.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
        return Ok(TraverseKey::Unknown(parse(db, "key type", ty)?));
    }
    if let Some(quoted) = inner.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        let value = pcl_syntax::ast::unescape_quoted(quoted);
        return Ok(TraverseKey::Literal(ConstValue::String(value.into())));
    }
    let number = pcl_syntax::ast::NumberValue::parse_signed(inner).map_err(|e| malformed(&e))?;
    Ok(TraverseKey::Literal(ConstValue::Number(number)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data lines of a fixture under `tests/data/types`, split at tabs.
    fn fixture_rows(name: &str) -> Vec<Vec<String>> {
        let path = pcl_test_utils::test_data_dir().join("types").join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        let rows: Vec<Vec<String>> = text
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| line.split('\t').map(str::to_owned).collect())
            .collect();
        assert!(rows.len() > 100, "{}: too few cases", path.display());
        rows
    }

    #[test]
    fn agrees_with_go_on_recorded_relations() {
        let mut failures = Vec::new();
        for row in fixture_rows("go-relations.tsv") {
            let [to, from, expected] = row.as_slice() else {
                panic!("a relation row has three fields: {row:?}");
            };
            let db = RootDatabase::default();
            match relate(&db, to, from) {
                Ok(actual) if actual == *expected => (),
                other => failures.push(format!(
                    "relate {to} {from}\n  expected {expected}\n  actual   {other:?}"
                )),
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn agrees_with_go_on_recorded_traversals() {
        let mut failures = Vec::new();
        for row in fixture_rows("go-traversals.tsv") {
            let [ty, keys @ .., expected] = row.as_slice() else {
                panic!("a traversal row has a type, keys and an answer: {row:?}");
            };
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            let db = RootDatabase::default();
            match traverse(&db, ty, &keys) {
                Ok((actual, _)) if actual == *expected => (),
                other => failures.push(format!(
                    "traverse {ty} {keys:?}\n  expected {expected}\n  actual   {other:?}"
                )),
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
