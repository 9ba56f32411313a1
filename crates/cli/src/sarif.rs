//! `--format sarif`: diagnostics as one SARIF 2.1.0 document (for GitHub code scanning
//! and other SARIF viewers): the catalogue's codes as rules, each diagnostic a result
//! with its physical location, related locations for labels, and fixes.

use pcl_diagnostics::{Anchor, Diagnostic, Severity, Span, codes};
use serde_json::{Value, json};

use crate::explain_cmd::entry;
use crate::sources::Sources;

/// One result, its spans in `sources`, as the text [`document`] places in its list:
/// a report of many results holds each as text (about a kilobyte), not as a tree of JSON
/// values (ten times that).
pub(crate) fn result(diagnostic: &Diagnostic, sources: &Sources<'_>) -> String {
    let text = serde_json::to_string_pretty(&result_value(diagnostic, sources)).unwrap_or_default();
    text.replace('\n', &format!("\n{RESULT_INDENT}"))
}

/// Where the document's printer puts a result's lines: in `runs[0].results`, four levels
/// of two spaces deep.
const RESULT_INDENT: &str = "        ";

/// What stands for the results while the rest of the document is printed.
const RESULTS_PLACEHOLDER: &str = "\u{1}results\u{1}";

fn result_value(diagnostic: &Diagnostic, sources: &Sources<'_>) -> Value {
    let location = |span: &Span| -> Option<Value> {
        let file = sources.file(span)?;
        Some(json!({
            "physicalLocation": {
                "artifactLocation": { "uri": uri(&file.name) },
                "region": region(sources, span),
            }
        }))
    };
    let mut result = json!({
        "ruleId": diagnostic.code.to_string(),
        "ruleIndex": codes::ALL.iter().position(|c| *c == diagnostic.code).unwrap_or(0),
        "level": level(diagnostic.severity),
        "message": { "text": message(diagnostic) },
    });
    match &diagnostic.anchor {
        Anchor::Span(span) => {
            if let Some(location) = location(span) {
                result["locations"] = json!([location]);
            }
        }
        Anchor::Place { origin, location } => {
            result["locations"] = json!([{
                "physicalLocation": { "artifactLocation": { "uri": uri(origin) } },
                "message": { "text": if location.is_empty() { origin.clone() } else { format!("{origin} at {location}") } },
            }]);
        }
    }
    let related: Vec<Value> = (diagnostic.labels.iter().enumerate())
        .filter_map(|(i, label)| {
            let mut value = location(&label.span)?;
            value["id"] = json!(i);
            value["message"] = json!({ "text": label.message });
            Some(value)
        })
        .collect();
    if !related.is_empty() {
        result["relatedLocations"] = Value::Array(related);
    }
    let fixes: Vec<Value> = (diagnostic.fixes.iter())
        .map(|fix| {
            let changes: Vec<Value> = (fix.edits.iter())
                .filter_map(|edit| {
                    let file = sources.file(&edit.span)?;
                    Some(json!({
                        "artifactLocation": { "uri": uri(&file.name) },
                        "replacements": [{
                            "deletedRegion": region(sources, &edit.span),
                            "insertedContent": { "text": edit.replacement },
                        }],
                    }))
                })
                .collect();
            json!({ "description": { "text": fix.message }, "artifactChanges": changes })
        })
        .collect();
    if !fixes.is_empty() {
        result["fixes"] = Value::Array(fixes);
    }
    result
}

/// The whole document around `results` (from [`result`]), printed as one JSON value with
/// them would be.
pub(crate) fn document(results: Vec<String>) -> String {
    let document = document_value(json!(RESULTS_PLACEHOLDER));
    let text = serde_json::to_string_pretty(&document).unwrap_or_default();
    let placeholder = serde_json::to_string(RESULTS_PLACEHOLDER).unwrap_or_default();
    let (before, after) = text.split_once(&placeholder).unwrap_or((&text, ""));
    let size = results
        .iter()
        .map(|r| r.len() + RESULT_INDENT.len() + 2)
        .sum::<usize>();
    let mut out = String::with_capacity(before.len() + size + after.len() + 16);
    out.push_str(before);
    if results.is_empty() {
        out.push_str("[]");
    } else {
        out.push('[');
        for (i, result) in results.into_iter().enumerate() {
            out.push_str(if i == 0 { "\n" } else { ",\n" });
            out.push_str(RESULT_INDENT);
            out.push_str(&result);
        }
        out.push_str("\n      ]");
    }
    out.push_str(after);
    out.push('\n');
    out
}

/// The document with `results` as the run's list of results.
fn document_value(results: Value) -> Value {
    let rules: Vec<Value> = (codes::ALL.iter())
        .map(|code| {
            let text = entry(*code).unwrap_or("");
            let body = text.split_once('\n').map_or("", |(_, body)| body).trim();
            let summary = body.split("\n\n").next().unwrap_or("").replace('\n', " ");
            json!({
                "id": code.to_string(),
                "name": code.name(),
                "shortDescription": { "text": summary },
                "help": { "text": body, "markdown": body },
                "defaultConfiguration": { "level": "error" },
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "pcl",
                    "version": env!("CARGO_PKG_VERSION"),
                    "informationUri": "https://github.com/pulumi/pulumi",
                    "rules": rules,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    })
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// The message with its notes, as SARIF has one text per result.
fn message(diagnostic: &Diagnostic) -> String {
    let mut text = diagnostic.message.clone();
    for note in &diagnostic.notes {
        text.push('\n');
        text.push_str(note);
    }
    text
}

fn region(sources: &Sources<'_>, span: &Span) -> Value {
    let range = sources.range(span);
    json!({
        "startLine": range.start.line,
        "startColumn": range.start.column,
        "endLine": range.end.line,
        "endColumn": range.end.column,
        "byteOffset": u32::from(span.range.start()),
        "byteLength": u32::from(span.range.len()),
    })
}

/// A path as a URI reference: `/` separators, spaces and `%` escaped; absolute paths
/// become `file://` URIs.
fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let escaped: String = path
        .chars()
        .map(|c| match c {
            ' ' => "%20".to_owned(),
            '%' => "%25".to_owned(),
            '#' => "%23".to_owned(),
            '?' => "%3F".to_owned(),
            c => c.to_string(),
        })
        .collect();
    if escaped.starts_with('/') {
        format!("file://{escaped}")
    } else {
        escaped
    }
}

#[cfg(test)]
mod tests {
    use pcl_diagnostics::{
        Anchor, Diagnostic, FileId, Fix, Span, TextEdit, TextRange, TextSize, codes,
    };

    use super::{document, document_value, result, result_value};
    use crate::inputs::SourceFile;
    use crate::sources::Sources;

    /// Results kept as text make the document that printing it as one JSON value makes.
    #[test]
    fn the_document_prints_as_one_json_value_would() {
        let files = [SourceFile::new(
            "dir/a b.pp".to_owned(),
            "x = y\nz = \"é\"\n".to_owned(),
        )];
        let sources = Sources::new(&files);
        let span = |start: u32, end: u32| Span {
            file: FileId(0),
            range: TextRange::new(TextSize::from(start), TextSize::from(end)),
        };
        let diagnostics = [
            Diagnostic::error(
                codes::UNDEFINED_NAME,
                "undefined name `y`",
                Anchor::Span(span(4, 5)),
            )
            .with_note("did you mean `z`?")
            .with_label(span(6, 7), "declared here")
            .with_fix(Fix {
                message: "use `z`".to_owned(),
                edits: vec![TextEdit {
                    span: span(4, 5),
                    replacement: "z".to_owned(),
                }],
            }),
            Diagnostic::warning(
                codes::UNKNOWN_BLOCK,
                "a \"quoted\"\nmessage",
                Anchor::Span(span(6, 13)),
            ),
        ];
        for count in 0..=diagnostics.len() {
            let texts = (diagnostics[..count].iter())
                .map(|d| result(d, &sources))
                .collect();
            let values = (diagnostics[..count].iter())
                .map(|d| result_value(d, &sources))
                .collect();
            let expected =
                serde_json::to_string_pretty(&document_value(serde_json::Value::Array(values)))
                    .expect("a document prints");
            assert_eq!(document(texts), expected + "\n", "{count} results");
        }
    }
}
