//! Positions between the protocol (line, character in UTF-16 or UTF-8 code units) and
//! byte offsets, and diagnostics into the protocol's shape.

use lsp_types::{Position, Range};
use pcl_diagnostics::{ColumnUnit, Diagnostic, FileId, Severity, TextLines, TextRange};

/// How the client counts characters in a line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
}

/// Lines of a text, for offset ↔ position conversion: the text and its [`TextLines`]
/// (an open document keeps its own and updates it with each change, so positions are
/// converted without scanning the text again).
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    lines: &'a TextLines,
}

impl<'a> LineIndex<'a> {
    /// The index of `text` from its lines, kept up to date by the caller.
    pub(crate) fn with_lines(text: &'a str, lines: &'a TextLines) -> LineIndex<'a> {
        LineIndex { text, lines }
    }

    /// The position of a byte offset; one inside a character is at the line's start, as
    /// the prefix before it is no text.
    pub(crate) fn position(&self, offset: usize, encoding: Encoding) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.lines.line(offset);
        let character = if self.text.is_char_boundary(offset) {
            let unit = match encoding {
                Encoding::Utf8 => ColumnUnit::Utf8,
                Encoding::Utf16 => ColumnUnit::Utf16,
            };
            self.lines.column(line, offset, unit)
        } else {
            0
        };
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of a position; positions past a line's end or the text's end are
    /// clamped, never an error.
    pub(crate) fn offset(&self, position: Position, encoding: Encoding) -> usize {
        let Some(start) = self.lines.line_start(position.line as usize) else {
            return self.text.len();
        };
        let end = (self.lines.line_start(position.line as usize + 1)).unwrap_or(self.text.len());
        let line = &self.text[start..end];
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut units = 0usize;
        for (i, ch) in line.char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += match encoding {
                Encoding::Utf8 => ch.len_utf8(),
                Encoding::Utf16 => ch.len_utf16(),
            };
        }
        start + line.len()
    }

    pub(crate) fn range(&self, range: pcl_diagnostics::TextRange, encoding: Encoding) -> Range {
        Range::new(
            self.position(range.start().into(), encoding),
            self.position(range.end().into(), encoding),
        )
    }
}

/// A diagnostic of the file `uri` (whose text `index` indexes) in the protocol's shape.
pub(crate) fn diagnostic(
    d: &Diagnostic,
    index: &LineIndex<'_>,
    encoding: Encoding,
    uri: &lsp_types::Url,
    elsewhere: &mut dyn FnMut(FileId, TextRange) -> Option<lsp_types::Location>,
) -> Option<lsp_types::Diagnostic> {
    let span = d.span()?;
    let severity = match d.severity {
        Severity::Error => lsp_types::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp_types::DiagnosticSeverity::WARNING,
        Severity::Note => lsp_types::DiagnosticSeverity::INFORMATION,
    };
    let mut message = for_the_editor(&d.message);
    for note in &d.notes {
        message.push('\n');
        message.push_str(&for_the_editor(note));
    }
    // Labels become related information, those in other files of the program too.
    let related: Vec<lsp_types::DiagnosticRelatedInformation> = (d.labels.iter())
        .filter_map(|l| {
            let location = match l.span.file == span.file {
                true => lsp_types::Location::new(uri.clone(), index.range(l.span.range, encoding)),
                false => elsewhere(l.span.file, l.span.range)?,
            };
            Some(lsp_types::DiagnosticRelatedInformation {
                location,
                message: l.message.clone(),
            })
        })
        .collect();
    Some(lsp_types::Diagnostic {
        range: index.range(span.range, encoding),
        severity: Some(severity),
        code: Some(lsp_types::NumberOrString::String(d.code.to_string())),
        source: Some("pcl".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    })
}

/// Phrases of the command line's advice and what to do in the editor instead, in order
/// (longer phrases before the flags they contain).
const EDITOR_ADVICE: &[(&str, &str)] = &[
    (
        "in a directory passed with --schema-dir",
        "in a directory of the `schemaPath` setting",
    ),
    (
        "pass --skip-resource-typecheck",
        "set `skipResourceTypecheck`",
    ),
    ("pass --skip-invoke-typecheck", "set `skipInvokeTypecheck`"),
    (
        "pass `--schema-dir DIR` or set PCL_SCHEMA_PATH",
        "add DIR to the `schemaPath` setting (or set PCL_SCHEMA_PATH for the server)",
    ),
    (
        "use --schema-dir DIR or set PCL_SCHEMA_PATH",
        "add a directory to the `schemaPath` setting, or set PCL_SCHEMA_PATH for the server",
    ),
    (
        "fix: run again with --fetch-schemas",
        "fix: add a directory that holds the schema to the `schemaPath` setting, run `pcl check --fetch-schemas` on the program once (the server then finds the schema in the cache)",
    ),
    (
        "with --fetch-schemas",
        "by running `pcl check --fetch-schemas` on the program once",
    ),
    (
        "--skip-resource-typecheck:",
        "`skipResourceTypecheck` is set:",
    ),
    ("pass `--", "set `--"),
    ("pass --", "set --"),
];

/// Command-line flags and the settings that do the same in the editor.
const FLAG_SETTINGS: &[(&str, &str)] = &[
    ("--schema-dir", "schemaPath"),
    ("--skip-resource-typecheck", "skipResourceTypecheck"),
    ("--skip-invoke-typecheck", "skipInvokeTypecheck"),
    ("--skip-range-typecheck", "skipRangeTypecheck"),
    ("--allow-missing-variables", "allowMissingVariables"),
    ("--allow-missing-properties", "allowMissingProperties"),
    ("--lenient", "lenient"),
];

/// A diagnostic's text with the command line's advice (pass a flag) turned into what to
/// set in the editor: the checker words its notes for `pcl check`, and the server, the
/// driver that knows it is an editor, supplies the editor's terms.
pub(crate) fn for_the_editor(text: &str) -> String {
    if !text.contains("--") {
        return text.to_owned();
    }
    let mut text = text.to_owned();
    for (phrase, instead) in EDITOR_ADVICE {
        text = text.replace(phrase, instead);
    }
    for (flag, setting) in FLAG_SETTINGS {
        for written in [format!("`{flag}`"), (*flag).to_owned()] {
            // Only the whole flag (not `--skip-resource-typecheck` inside a longer one).
            let mut out = String::with_capacity(text.len());
            let mut rest = text.as_str();
            while let Some(at) = rest.find(&written) {
                let after = &rest[at + written.len()..];
                out.push_str(&rest[..at]);
                if after.starts_with(|c: char| c.is_alphanumeric() || c == '-') {
                    out.push_str(&written);
                } else {
                    out.push_str(&format!("the `{setting}` setting"));
                }
                rest = after;
            }
            out.push_str(rest);
            text = out;
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::{Encoding, LineIndex, for_the_editor};
    use pcl_diagnostics::TextLines;

    #[test]
    fn command_line_advice_becomes_editor_settings() {
        assert_eq!(
            for_the_editor(
                "no schema directories given (use --schema-dir DIR or set PCL_SCHEMA_PATH)"
            ),
            "no schema directories given (add a directory to the `schemaPath` setting, or set PCL_SCHEMA_PATH for the server)"
        );
        assert_eq!(
            for_the_editor(
                "or put its schema (aws.json) in a directory passed with --schema-dir\nor check the rest without it: pass --skip-resource-typecheck"
            ),
            "or put its schema (aws.json) in a directory of the `schemaPath` setting\nor check the rest without it: set `skipResourceTypecheck`"
        );
        assert_eq!(
            for_the_editor("--skip-resource-typecheck: the resource is typed `dynamic`"),
            "`skipResourceTypecheck` is set: the resource is typed `dynamic`"
        );
        assert_eq!(
            for_the_editor(
                "fix: run again with --fetch-schemas, or run `pulumi package get-schema x`"
            ),
            "fix: add a directory that holds the schema to the `schemaPath` setting, run `pcl check --fetch-schemas` on the program once (the server then finds the schema in the cache), or run `pulumi package get-schema x`"
        );
        assert_eq!(
            for_the_editor("or pass --allow-missing-variables"),
            "or set the `allowMissingVariables` setting"
        );
        assert_eq!(for_the_editor("a - b -- c"), "a - b -- c");
    }
    use lsp_types::Position;

    #[test]
    fn positions_round_trip_in_both_encodings() {
        let text = "a = \"é😀\"\r\nb = 1\n";
        let lines = TextLines::new(text);
        let index = LineIndex::with_lines(text, &lines);
        let offset = text
            .find('"')
            .map(|i| i + 1 + 'é'.len_utf8())
            .expect("a quote");
        let utf16 = index.position(offset, Encoding::Utf16);
        assert_eq!(utf16, Position::new(0, 6));
        assert_eq!(index.offset(utf16, Encoding::Utf16), offset);
        let utf8 = index.position(offset, Encoding::Utf8);
        assert_eq!(utf8, Position::new(0, 7));
        assert_eq!(index.offset(utf8, Encoding::Utf8), offset);
        // Past the end of a line (before its CRLF) or of the text: clamped.
        assert_eq!(
            index.offset(Position::new(0, 99), Encoding::Utf16),
            text.find('\r').unwrap_or(0)
        );
        assert_eq!(
            index.offset(Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
    }
}
