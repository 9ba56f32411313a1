//! One diagnostic model for every stage of pcl: the parser, schema loading and lowering,
//! the type system and the semantic checker all describe problems as [`Diagnostic`]s
//! with a stable [`Code`], so the CLI, the JSON and SARIF writers and the language server
//! render one shape.
//!
//! Invariants:
//! - This crate is the lowest of the workspace: it knows no syntax, no salsa and no IO.
//! - Every code lives in [`codes`], in the range of the stage that owns it (`PCL1xxx`
//!   syntax, `PCL2xxx` schemas, `PCL3xxx` types, `PCL4xxx` the semantic checker, `PCL5xxx` projects and stack files),
//!   and is never reused for another meaning once published.
//! - Positions are byte ranges into a file the driver knows by [`FileId`]; problems with
//!   no source range say where they are in their own terms ([`Anchor::Place`]).

pub mod codes;
mod lines;

use std::fmt;

pub use lines::{ColumnUnit, TextLines};
pub use text_size::{TextRange, TextSize};

/// A file as the driver (CLI, language server) numbers them; stages that see one file
/// at a time are told its id when they report.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct FileId(pub u32);

/// A byte range in a file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Span {
    pub file: FileId,
    pub range: TextRange,
}

/// A stable diagnostic code: `PCL` and four digits, plus a kebab-case name.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Code {
    number: u16,
    name: &'static str,
}

impl Code {
    pub(crate) const fn new(number: u16, name: &'static str) -> Code {
        Code { number, name }
    }

    /// The four digits after `PCL`.
    pub fn number(self) -> u16 {
        self.number
    }

    /// The kebab-case name (`unexpected-token`).
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The stage that owns the code, by its range.
    pub fn stage(self) -> Stage {
        match self.number {
            ..2000 => Stage::Syntax,
            2000..3000 => Stage::Schema,
            3000..4000 => Stage::Types,
            4000..5000 => Stage::Semantics,
            _ => Stage::Project,
        }
    }

    /// The code written as `PCL1003`, upper or lower case; `None` for anything else.
    pub fn from_text(text: &str) -> Option<Code> {
        let digits = text
            .get(..3)?
            .eq_ignore_ascii_case("PCL")
            .then(|| &text[3..])?;
        let number: u16 = digits.parse().ok().filter(|_| digits.len() == 4)?;
        codes::ALL
            .iter()
            .copied()
            .find(|code| code.number == number)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PCL{:04}", self.number)
    }
}

/// The part of pcl that reports a code.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    Syntax,
    Schema,
    Types,
    Semantics,
    /// Project and stack files (`Pulumi.yaml`, `Pulumi.<stack>.yaml`).
    Project,
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    /// `error`, `warning` or `note`, as JSON and human output spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// Where a diagnostic is.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Anchor {
    /// A range of a source file.
    Span(Span),
    /// A place without a source range: `origin` names the schema file or command-line
    /// argument, `location` the place inside it (a JSON pointer, `line 3 column 7`,
    /// `column 12`), or is empty when the whole of `origin` is meant.
    Place { origin: String, location: String },
}

/// A secondary place the message refers to ("first set here", "declared here").
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// One replacement of source text.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TextEdit {
    pub span: Span,
    pub replacement: String,
}

/// A change that would fix the problem, offered as a quick fix by editors.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Fix {
    pub message: String,
    pub edits: Vec<TextEdit>,
}

/// One problem found in the input.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// What is wrong, lowercase, without a trailing period.
    pub message: String,
    pub anchor: Anchor,
    pub labels: Vec<Label>,
    /// Further explanation and suggestions, each a sentence.
    pub notes: Vec<String>,
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    /// An error with nothing but a message at `anchor`.
    pub fn error(code: Code, message: impl Into<String>, anchor: Anchor) -> Diagnostic {
        Diagnostic::new(code, Severity::Error, message.into(), anchor)
    }

    /// A warning with nothing but a message at `anchor`.
    pub fn warning(code: Code, message: impl Into<String>, anchor: Anchor) -> Diagnostic {
        Diagnostic::new(code, Severity::Warning, message.into(), anchor)
    }

    fn new(code: Code, severity: Severity, message: String, anchor: Anchor) -> Diagnostic {
        Diagnostic {
            code,
            severity,
            message,
            anchor,
            labels: Vec::new(),
            notes: Vec::new(),
            fixes: Vec::new(),
        }
    }

    /// The same diagnostic with a secondary label.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// The same diagnostic with a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// The same diagnostic with a fix.
    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fixes.push(fix);
        self
    }

    /// The primary range, for diagnostics anchored in a source file.
    pub fn span(&self) -> Option<Span> {
        match &self.anchor {
            Anchor::Span(span) => Some(*span),
            Anchor::Place { .. } => None,
        }
    }
}

/// `n` with its thousands separated by commas (`4,817`), as counts read in messages.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests;
