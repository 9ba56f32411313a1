//! Errors in schemas: which file, where in it (a JSON pointer, or a line and column for
//! JSON syntax errors), and what is wrong.

use std::fmt;

use pcl_diagnostics::{Anchor, Code, Diagnostic, codes};
use smol_str::SmolStr;

/// A problem in a schema file.
#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub struct SchemaError {
    pub code: Code,
    /// The file, as the user named it or as the loader found it.
    pub file: SmolStr,
    /// A JSON pointer (`/resources/pkg:index:Res/inputProperties/size/type`), or
    /// `line L column C` for a syntax error.
    pub location: String,
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}: {}: {}", self.file, self.location, self.message)
        }
    }
}

impl std::error::Error for SchemaError {}

impl SchemaError {
    /// The error as a diagnostic placed by its file and JSON pointer (or line and column).
    pub fn to_diagnostic(&self) -> Diagnostic {
        let anchor = Anchor::Place {
            origin: self.file.to_string(),
            location: self.location.clone(),
        };
        Diagnostic::error(self.code, self.message.clone(), anchor)
    }
}

/// The 1-based line and column of a byte offset.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A JSON pointer (RFC 6901) to the value reached through `segments`.
pub(crate) fn pointer<S: AsRef<str>>(segments: impl IntoIterator<Item = S>) -> String {
    let mut out = String::new();
    for segment in segments {
        out.push('/');
        for ch in segment.as_ref().chars() {
            match ch {
                '~' => out.push_str("~0"),
                '/' => out.push_str("~1"),
                ch => out.push(ch),
            }
        }
    }
    out
}

/// Convert a `serde_path_to_error` failure inside the value at `base` into an error with
/// the full pointer.
/// `position` is the line and column (1-based) where the value starts in the file, so
/// that syntax errors inside it are reported at their place in the file.
pub(crate) fn from_path_error(
    file: &SmolStr,
    base: &[&str],
    position: (usize, usize),
    error: serde_path_to_error::Error<serde_json::Error>,
) -> SchemaError {
    let inner = error.inner();
    if inner.is_syntax() || inner.is_eof() {
        let (line, column) = match inner.line() {
            1 => (position.0, position.1 + inner.column() - 1),
            line => (position.0 + line - 1, inner.column()),
        };
        return SchemaError {
            code: codes::SCHEMA_JSON_SYNTAX,
            file: file.clone(),
            location: format!("line {line} column {column} (in {})", pointer(base)),
            message: strip_position(&inner.to_string()),
        };
    }
    let mut segments: Vec<String> = base.iter().map(|s| (*s).to_owned()).collect();
    for segment in error.path().iter() {
        use serde_path_to_error::Segment;
        match segment {
            Segment::Seq { index } => segments.push(index.to_string()),
            Segment::Map { key } | Segment::Enum { variant: key } => segments.push(key.clone()),
            Segment::Unknown => segments.push("?".to_owned()),
        }
    }
    SchemaError {
        code: codes::SCHEMA_INVALID_FIELD,
        file: file.clone(),
        location: pointer(&segments),
        message: strip_position(&inner.to_string()),
    }
}

/// serde_json appends " at line L column C" to messages; the location says that better.
pub(crate) fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}
