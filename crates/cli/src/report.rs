//! How diagnostics reach the user: rendered with source snippets on stderr (coloured on a
//! terminal), or as JSON lines on stdout (the format `docs/diagnostics.md` specifies);
//! the per-file cap of human output; the summary line at the end of a run.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::term::{self, termcolor};
use pcl_diagnostics::{Anchor, Diagnostic, Severity, TextRange, thousands};
use serde::Serialize;

use crate::inputs::SourceFile;
use crate::print_out;
use crate::sources::{Range, Sources};

/// `--format`: for people or for tools.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub(crate) enum Format {
    /// Source snippets on stderr.
    Human,
    /// One JSON object per diagnostic per line on stdout.
    Json,
}

/// `--color`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub(crate) enum ColorWhen {
    /// Colour when stderr is a terminal and `NO_COLOR` is not set.
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    fn choice(self) -> termcolor::ColorChoice {
        match self {
            ColorWhen::Always => termcolor::ColorChoice::Always,
            ColorWhen::Never => termcolor::ColorChoice::Never,
            ColorWhen::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                if std::io::stderr().is_terminal() && !no_color {
                    // termcolor still honours `TERM=dumb`.
                    termcolor::ColorChoice::Auto
                } else {
                    termcolor::ColorChoice::Never
                }
            }
        }
    }
}

/// `--format` of commands that report diagnostics.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub(crate) enum DiagnosticFormat {
    /// Source snippets on stderr.
    Human,
    /// One JSON object per diagnostic per line on stdout.
    Json,
    /// One SARIF 2.1.0 document on stdout, for code scanning tools.
    Sarif,
}

impl From<Format> for DiagnosticFormat {
    fn from(format: Format) -> DiagnosticFormat {
        match format {
            Format::Human => DiagnosticFormat::Human,
            Format::Json => DiagnosticFormat::Json,
        }
    }
}

/// The output flags every command over files shares.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct OutputArgs {
    /// How to write diagnostics: `human` (source snippets on stderr), `json` (one
    /// object per line on stdout; see docs/diagnostics.md) or `sarif` (one SARIF 2.1.0
    /// document on stdout).
    #[arg(long, value_enum, default_value_t = DiagnosticFormat::Human)]
    pub(crate) format: DiagnosticFormat,
    /// Show at most N diagnostics per file in human output, 0 for all (JSON is never
    /// capped).
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub(crate) max_errors: usize,
    /// Do not print the summary line at the end.
    #[arg(short, long)]
    pub(crate) quiet: bool,
}

/// How much a run read, for the summary line.
#[derive(Default)]
pub(crate) struct Totals {
    pub(crate) files: usize,
    pub(crate) lines: usize,
    pub(crate) bytes: usize,
}

impl Totals {
    /// A text the run read.
    pub(crate) fn add(&mut self, text: &str) {
        self.add_counted(text.len(), line_count(text));
    }

    /// A file the run read, whose lines were counted as it was read.
    pub(crate) fn add_file(&mut self, file: &SourceFile) {
        self.add_counted(file.text.len(), file.lines);
    }

    fn add_counted(&mut self, bytes: usize, lines: usize) {
        self.files += 1;
        self.bytes += bytes;
        self.lines += lines;
    }
}

/// How many lines `text` has: its line breaks, and one more for a last line without one.
pub(crate) fn line_count(text: &str) -> usize {
    newlines(text.as_bytes()) + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// How many `\n` bytes `bytes` holds: counted in runs of 255 with byte-wide counters, which
/// the compiler turns into vector code (a plain count of a 10 MB file took 7 ms).
fn newlines(bytes: &[u8]) -> usize {
    (bytes.chunks(255))
        .map(|run| usize::from(run.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum()
}

/// Writes diagnostics and keeps the counts for the summary.
pub(crate) struct Reporter {
    format: DiagnosticFormat,
    /// SARIF results, written as one document by [`Reporter::finish`].
    sarif: Vec<String>,
    max_errors: usize,
    stderr: termcolor::BufferedStandardStream,
    errors: usize,
    warnings: usize,
    files_with_errors: usize,
    /// Inputs that could not be read (or, for `pcl fmt`, written): [`Reporter::io_error`].
    io_errors: usize,
}

impl Reporter {
    pub(crate) fn new(
        format: impl Into<DiagnosticFormat>,
        color: ColorWhen,
        max_errors: usize,
    ) -> Reporter {
        Reporter {
            format: format.into(),
            sarif: Vec::new(),
            max_errors,
            stderr: termcolor::BufferedStandardStream::stderr(color.choice()),
            errors: 0,
            warnings: 0,
            files_with_errors: 0,
            io_errors: 0,
        }
    }

    pub(crate) fn errors(&self) -> usize {
        self.errors
    }

    /// How many inputs could not be read or written ([`Reporter::io_error`]).
    pub(crate) fn io_errors(&self) -> usize {
        self.io_errors
    }

    /// Reports the diagnostics of one file (their spans and labels are in `file`).
    pub(crate) fn file(&mut self, file: &SourceFile, diagnostics: &[Diagnostic]) {
        let sources = Sources::new(std::slice::from_ref(file));
        self.program_file(&sources, 0, diagnostics);
    }

    /// Reports the diagnostics of the program's file `primary`, whose labels may point into
    /// its other files.
    pub(crate) fn program_file(
        &mut self,
        sources: &Sources<'_>,
        primary: usize,
        diagnostics: &[Diagnostic],
    ) {
        if diagnostics.is_empty() {
            return;
        }
        let files = sources.files();
        let file = &files[primary];
        let errors = self.count(diagnostics);
        if errors > 0 {
            self.files_with_errors += 1;
        }
        match self.format {
            DiagnosticFormat::Sarif => {
                for diagnostic in diagnostics {
                    self.sarif.push(crate::sarif::result(diagnostic, sources));
                }
            }
            DiagnosticFormat::Json => {
                let mut out = String::new();
                for diagnostic in diagnostics {
                    out.push_str(&json_line(diagnostic, sources));
                }
                print_out(&out);
            }
            DiagnosticFormat::Human => {
                // `--max-errors 0` shows them all.
                let shown = match self.max_errors {
                    0 => diagnostics.len(),
                    most => diagnostics.len().min(most),
                };
                for diagnostic in &diagnostics[..shown] {
                    let rendered = to_codespan(diagnostic, files);
                    self.emit(sources, &rendered);
                }
                let hidden = diagnostics.len() - shown;
                if hidden > 0 {
                    let what = if diagnostics[shown..]
                        .iter()
                        .all(|d| d.severity == Severity::Error)
                    {
                        plural(hidden, "more error", "more errors")
                    } else {
                        plural(hidden, "more diagnostic", "more diagnostics")
                    };
                    let _ = writeln!(
                        self.stderr,
                        "... and {what} in {} (--max-errors {} shows them all)\n",
                        file.name,
                        diagnostics.len()
                    );
                }
            }
        }
    }

    /// Reports diagnostics that have no source file of their own (schemas, arguments).
    pub(crate) fn places(&mut self, diagnostics: &[Diagnostic]) {
        if diagnostics.is_empty() {
            return;
        }
        if self.count(diagnostics) > 0 {
            self.files_with_errors += 1;
        }
        let sources = Sources::new(&[]);
        match self.format {
            DiagnosticFormat::Sarif => {
                for diagnostic in diagnostics {
                    self.sarif.push(crate::sarif::result(diagnostic, &sources));
                }
            }
            DiagnosticFormat::Json => {
                let out: String = diagnostics.iter().map(|d| json_line(d, &sources)).collect();
                print_out(&out);
            }
            DiagnosticFormat::Human => {
                for diagnostic in diagnostics {
                    let rendered = to_codespan(diagnostic, &[]);
                    self.emit(&sources, &rendered);
                }
            }
        }
    }

    /// Ends the run: with `--format sarif`, writes the document (also when empty).
    pub(crate) fn finish(&mut self) {
        if self.format == DiagnosticFormat::Sarif {
            print_out(&crate::sarif::document(std::mem::take(&mut self.sarif)));
        }
    }

    /// A plain message on stderr (`error: ...`) about the run itself, not about the
    /// input's content: not counted in the summary.
    pub(crate) fn message(&mut self, severity: Severity, text: &str) {
        let _ = writeln!(self.stderr, "{}: {text}", severity.as_str());
        let _ = self.stderr.flush();
    }

    /// An input that cannot be read (or written): an `error: ...` message, counted in the
    /// summary, which then does not say "no errors" of a run that read nothing.
    pub(crate) fn io_error(&mut self, text: &str) {
        self.message(Severity::Error, text);
        self.io_errors += 1;
    }

    /// The last line of a run over files, on stderr: what was done, how much, how long,
    /// and what was found.
    pub(crate) fn summary(&mut self, verb: &str, totals: &Totals, elapsed: Duration) {
        self.summary_noting(verb, totals, elapsed, "");
    }

    /// [`Reporter::summary`] with `note` (what the run did, such as "2 files reformatted")
    /// before the findings.
    pub(crate) fn summary_noting(
        &mut self,
        verb: &str,
        totals: &Totals,
        elapsed: Duration,
        note: &str,
    ) {
        let mut findings = match (self.errors, self.warnings) {
            (0, 0) => "no errors".to_owned(),
            (errors, 0) => plural(errors, "error", "errors"),
            (0, warnings) => plural(warnings, "warning", "warnings"),
            (errors, warnings) => format!(
                "{} and {}",
                plural(errors, "error", "errors"),
                plural(warnings, "warning", "warnings")
            ),
        };
        if self.errors > 0 {
            findings.push_str(&format!(
                " in {} of {}",
                thousands(self.files_with_errors),
                plural(totals.files, "file", "files")
            ));
        }
        if self.io_errors > 0 {
            let io_errors = plural(self.io_errors, "IO error", "IO errors");
            findings = if self.errors + self.warnings == 0 {
                format!("{io_errors} (above)")
            } else {
                format!("{findings}, and {io_errors} (above)")
            };
        }
        if !note.is_empty() {
            findings = format!("{note}, {findings}");
        }
        let _ = writeln!(
            self.stderr,
            "{verb} {} ({}, {}) in {}: {findings}",
            plural(totals.files, "file", "files"),
            plural(totals.lines, "line", "lines"),
            size(totals.bytes),
            duration(elapsed)
        );
        let _ = self.stderr.flush();
    }

    fn count(&mut self, diagnostics: &[Diagnostic]) -> usize {
        let errors = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        self.errors += errors;
        self.warnings += diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        errors
    }

    fn emit(&mut self, files: &Sources<'_>, diagnostic: &cs::Diagnostic<usize>) {
        let config = term::Config::default();
        if let Err(err) = term::emit_to_write_style(&mut self.stderr, &config, files, diagnostic) {
            let _ = writeln!(self.stderr, "error: cannot show a diagnostic: {err}");
        }
    }
}

impl Drop for Reporter {
    fn drop(&mut self) {
        let _ = self.stderr.flush();
    }
}

/// Our diagnostic in codespan's terms: the anchor as the primary label (or a note naming
/// the place), labels as secondary labels, fixes as `help:` notes.
fn to_codespan(diagnostic: &Diagnostic, files: &[SourceFile]) -> cs::Diagnostic<usize> {
    let text =
        |span: &pcl_diagnostics::Span| files.get(span.file.0 as usize).map_or("", |f| &*f.text);
    let severity = match diagnostic.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let mut labels = Vec::new();
    let mut notes = Vec::new();
    match &diagnostic.anchor {
        // A line too long to show (generated or minified source) is named, not printed.
        Anchor::Span(span) if let Some(at) = long_line(text(span), span.range) => {
            let name = files.get(span.file.0 as usize).map_or("", |f| &*f.name);
            notes.push(format!("at {name}:{at}"));
        }
        Anchor::Span(span) => labels.push(cs::Label::primary(
            span.file.0 as usize,
            caret_range(text(span), span.range),
        )),
        // A place the message already names (`no schema for package `aws``) adds nothing.
        Anchor::Place { origin, location }
            if location.is_empty() && diagnostic.message.contains(&format!("`{origin}`")) => {}
        Anchor::Place { origin, location } if location.is_empty() => {
            notes.push(format!("in {origin}"));
        }
        Anchor::Place { origin, location } => notes.push(format!("in {origin} at {location}")),
    }
    for label in &diagnostic.labels {
        if long_line(text(&label.span), label.span.range).is_some() {
            continue;
        }
        labels.push(
            cs::Label::secondary(
                label.span.file.0 as usize,
                caret_range(text(&label.span), label.span.range),
            )
            .with_message(&label.message),
        );
    }
    notes.extend(diagnostic.notes.iter().cloned());
    notes.extend((diagnostic.fixes.iter()).map(|fix| format!("help: {}", fix.message)));
    cs::Diagnostic::new(severity)
        .with_code(diagnostic.code.to_string())
        .with_message(&diagnostic.message)
        .with_labels(labels)
        .with_notes(notes)
}

/// A byte range for a label; a caret at the end of a line reads better than a label that
/// spans the line break.
/// Lines longer than this many bytes are not printed in a snippet.
const LONGEST_SHOWN_LINE: usize = 400;

/// `LINE:COLUMN (a line of N bytes, not shown)` when the line `range` starts on is longer
/// than [`LONGEST_SHOWN_LINE`].
fn long_line(text: &str, range: TextRange) -> Option<String> {
    let start = usize::from(range.start()).min(text.len());
    let before = text.get(..start)?;
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let rest = &text[line_start..];
    let length = rest.find('\n').unwrap_or(rest.len());
    if length <= LONGEST_SHOWN_LINE {
        return None;
    }
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    Some(format!(
        "{line}:{column} (a line of {length} bytes, not shown)"
    ))
}

fn caret_range(text: &str, range: TextRange) -> std::ops::Range<usize> {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    match text.get(start..end) {
        Some("\n" | "\r\n") => start..start,
        _ => start..end,
    }
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: String,
    severity: &'static str,
    message: &'a str,
    file: &'a str,
    /// `null` for diagnostics without a source range (schemas, arguments).
    range: Option<Range>,
    /// Where in `file` such a diagnostic is (a JSON pointer for schemas).
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<&'a str>,
    labels: Vec<JsonLabel<'a>>,
    notes: &'a [String],
    fixes: Vec<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    file: &'a str,
    range: Range,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    message: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    file: &'a str,
    range: Range,
    replacement: &'a str,
}

/// One diagnostic as a line of JSON.
fn json_line(diagnostic: &Diagnostic, sources: &Sources<'_>) -> String {
    let name_of = |span: &pcl_diagnostics::Span| sources.file(span).map_or("", |f| f.name.as_str());
    let range_of = |span: &pcl_diagnostics::Span| sources.range(span);
    let (file_name, range, location) = match &diagnostic.anchor {
        Anchor::Span(span) => (name_of(span), Some(range_of(span)), None),
        Anchor::Place { origin, location } => (origin.as_str(), None, Some(location.as_str())),
    };
    let json = JsonDiagnostic {
        code: diagnostic.code.to_string(),
        severity: diagnostic.severity.as_str(),
        message: &diagnostic.message,
        file: file_name,
        range,
        location,
        labels: (diagnostic.labels.iter())
            .map(|label| JsonLabel {
                file: name_of(&label.span),
                range: range_of(&label.span),
                message: &label.message,
            })
            .collect(),
        notes: &diagnostic.notes,
        fixes: (diagnostic.fixes.iter())
            .map(|fix| JsonFix {
                message: &fix.message,
                edits: (fix.edits.iter())
                    .map(|edit| JsonEdit {
                        file: name_of(&edit.span),
                        range: range_of(&edit.span),
                        replacement: &edit.replacement,
                    })
                    .collect(),
            })
            .collect(),
    };
    let mut line = serde_json::to_string(&json).unwrap_or_default();
    line.push('\n');
    line
}

/// `1 file`, `2 files`, with thousands separated: `4,817 lines`.
pub(crate) fn plural(count: usize, one: &str, many: &str) -> String {
    let word = if count == 1 { one } else { many };
    format!("{} {word}", thousands(count))
}

fn size(bytes: usize) -> String {
    match bytes {
        ..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{} KB", thousands(bytes.div_ceil(1024))),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

fn duration(elapsed: Duration) -> String {
    match elapsed.as_millis() {
        0 => format!("{} µs", elapsed.as_micros()),
        ms @ ..10_000 => format!("{ms} ms"),
        _ => format!("{:.1} s", elapsed.as_secs_f64()),
    }
}

#[cfg(test)]
mod tests {
    use super::newlines;

    #[test]
    fn newlines_are_counted_across_runs() {
        // 600 lines of 1 to 9 bytes: runs of 255 bytes split lines anywhere.
        let text: String = (0..600)
            .map(|i| format!("{}\n", "x".repeat(i % 9)))
            .collect();
        assert_eq!(newlines(text.as_bytes()), 600);
        assert_eq!(newlines(&[b'\n'; 1000]), 1000);
        assert_eq!(newlines(b""), 0);
    }
}
