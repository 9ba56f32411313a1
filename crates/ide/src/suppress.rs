//! Applying `# pcl-ignore` suppressions (found by `pcl_sema::file_suppressions`) to a
//! file's diagnostics, then merging what is one cause into one diagnostic. A suppression
//! that silences nothing is itself a warning, so stale ones do not pile up.

use pcl_diagnostics::{Anchor, Code, Diagnostic, FileId, Label, Span, codes, thousands};
use pcl_sema::Suppression;

/// Drop the diagnostics that suppressions silence, and warn about unused ones of the
/// codes `judged` (the program's own; a driver judges the project's, `PCL5xxx`, which
/// only it reports). A diagnostic is silenced by the first suppression, in the file's
/// order, that names its code and whose statement holds it.
pub(crate) fn apply_suppressions(
    suppressions: &[Suppression],
    file: FileId,
    diagnostics: &mut Vec<Diagnostic>,
    judged: Judged,
) {
    if suppressions.is_empty() {
        return;
    }
    let mut used: Vec<Vec<bool>> = suppressions
        .iter()
        .map(|s| vec![false; s.codes.len()])
        .collect();
    let enclosing = enclosing_statements(suppressions);
    diagnostics.retain(|d| {
        let Some(span) = d.span().filter(|span| span.file == file) else {
            return true;
        };
        // The statements that hold the span are the last one starting before it and the
        // statements around that one (statements nest or are apart: they are nodes).
        let starting_before =
            suppressions.partition_point(|s| s.statement.start() <= span.range.start());
        let mut at = starting_before.checked_sub(1);
        let mut silencing = None;
        while let Some(index) = at {
            let s = &suppressions[index];
            if s.statement.contains_range(span.range)
                && let Some(code) = s.codes.iter().position(|c| *c == d.code)
            {
                silencing = Some((index, code));
            }
            at = enclosing[index];
        }
        match silencing {
            Some((index, code)) => {
                used[index][code] = true;
                false
            }
            None => true,
        }
    });
    for (s, used) in suppressions.iter().zip(used) {
        for (code, used) in s.codes.iter().zip(used) {
            if !used && judged.judges(*code) {
                let message = format!("`pcl-ignore {code}` silences nothing");
                let span = Span {
                    file,
                    range: s.comment,
                };
                diagnostics.push(
                    Diagnostic::warning(codes::UNUSED_SUPPRESSION, message, Anchor::Span(span))
                        .with_note("remove the comment, or put it on the line right before the statement that has the diagnostic"),
                );
            }
        }
    }
    diagnostics.sort_by_key(|d| d.span().map(|s| (s.range.start(), s.range.end())));
}

/// Whose suppressions an unused one is reported for.
#[derive(Clone, Copy)]
pub(crate) enum Judged {
    /// The program's codes (syntax, schemas, types, semantics).
    Program,
    /// The project's (`PCL5xxx`: a stack's required config, a file the program reads).
    Project,
}

impl Judged {
    fn judges(self, code: Code) -> bool {
        let project = code.stage() == pcl_diagnostics::Stage::Project;
        match self {
            Judged::Program => !project,
            Judged::Project => project,
        }
    }
}

/// For each suppression, the nearest earlier one whose statement holds its statement.
/// Suppressions come in the file's order, so their statements are sorted by start.
fn enclosing_statements(suppressions: &[Suppression]) -> Vec<Option<usize>> {
    let mut open: Vec<usize> = Vec::new();
    let mut enclosing = Vec::with_capacity(suppressions.len());
    for (index, s) in suppressions.iter().enumerate() {
        while let Some(&last) = open.last() {
            if suppressions[last].statement.contains_range(s.statement) {
                break;
            }
            open.pop();
        }
        enclosing.push(open.last().copied());
        open.push(index);
    }
    enclosing
}

/// How many further uses of a package a merged missing-schema error labels; the others
/// are counted in a note (a program using a package 32,000 times printed 97,000 lines).
const LABELLED_USES: usize = 5;

/// One diagnostic per package per file for a missing schema (`PCL4009`, or `PCL4018`
/// under `--skip-resource-typecheck`): the first use that is not suppressed carries it,
/// the file's next [`LABELLED_USES`] uses are its labels, and a note counts the others.
/// Runs after the suppressions, so a `pcl-ignore` before a use moves the diagnostic to the
/// next use. `diagnostics` are sorted.
pub(crate) fn merge_missing_schemas(diagnostics: &mut Vec<Diagnostic>) {
    // Each first error, and how many of its uses got no label.
    let mut first: Vec<(Code, String, usize, usize)> = Vec::new();
    let mut keep = vec![true; diagnostics.len()];
    for i in 0..diagnostics.len() {
        let diagnostic = &diagnostics[i];
        let missing = matches!(
            diagnostic.code,
            codes::UNKNOWN_PACKAGE | codes::TYPECHECK_SKIPPED
        ) && diagnostic
            .message
            .starts_with("no schema found for package");
        let Some(span) = diagnostic.span().filter(|_| missing) else {
            continue;
        };
        let found = (first.iter_mut()).find(|(code, message, _, _)| {
            *code == diagnostic.code && *message == diagnostic.message
        });
        match found {
            Some((_, _, at, unlabelled)) => {
                keep[i] = false;
                let labels = &mut diagnostics[*at].labels;
                if labels.len() < LABELLED_USES {
                    labels.push(Label {
                        span,
                        message: "also used here".to_owned(),
                    });
                } else {
                    *unlabelled += 1;
                }
            }
            None => first.push((diagnostic.code, diagnostic.message.clone(), i, 0)),
        }
    }
    for (_, _, at, unlabelled) in first {
        if unlabelled > 0 {
            let uses = if unlabelled == 1 { "use" } else { "uses" };
            let note = format!("and {} more {uses} in this file", thousands(unlabelled));
            diagnostics[at].notes.insert(0, note);
        }
    }
    let mut index = 0;
    diagnostics.retain(|_| {
        index += 1;
        keep[index - 1]
    });
}

/// Syntax errors first (a missing `{` before the "unclosed" errors it causes at outer
/// braces), then everything else, each by position: in a file with syntax errors, what
/// the checker reports may follow from them.
pub(crate) fn order_by_cause(diagnostics: &mut [Diagnostic]) {
    let rank = |d: &Diagnostic| match d.code {
        codes::UNCLOSED_DELIMITER => 1,
        code if code.to_string().starts_with("PCL1") => 0,
        _ => 2,
    };
    diagnostics.sort_by_key(|d| (rank(d), d.span().map(|s| (s.range.start(), s.range.end()))));
}

#[cfg(test)]
mod tests {
    use pcl_diagnostics::{Anchor, Code, Diagnostic, FileId, Span, codes};
    use pcl_sema::Suppression;
    use pcl_syntax::{TextRange, TextSize};

    use super::{Judged, apply_suppressions};

    const FILE: FileId = FileId(0);

    fn range(start: u32, end: u32) -> TextRange {
        TextRange::new(TextSize::new(start), TextSize::new(end))
    }

    /// A suppression of `codes` written at `comment` for the statement at `statement`.
    fn suppression(comment: u32, statement: (u32, u32), codes: &[Code]) -> Suppression {
        Suppression {
            comment: range(comment, comment + 1),
            codes: codes.to_vec(),
            statement: range(statement.0, statement.1),
        }
    }

    fn error(code: Code, file: FileId, at: (u32, u32)) -> Diagnostic {
        let span = Span {
            file,
            range: range(at.0, at.1),
        };
        Diagnostic::error(code, "wrong", Anchor::Span(span))
    }

    /// What is left after the suppressions: each diagnostic's code and where it starts.
    fn left(suppressions: &[Suppression], mut diagnostics: Vec<Diagnostic>) -> Vec<String> {
        apply_suppressions(suppressions, FILE, &mut diagnostics, Judged::Program);
        (diagnostics.iter())
            .map(|d| {
                format!(
                    "{} at {}",
                    d.code,
                    d.span().map_or(0, |s| u32::from(s.range.start()))
                )
            })
            .collect()
    }

    const NAME: Code = codes::UNDEFINED_NAME;
    const ATTRIBUTE: Code = codes::UNKNOWN_ATTRIBUTE;

    #[test]
    fn the_first_suppression_around_a_diagnostic_that_names_its_code_silences_it() {
        // A block at 10..100 (suppressed at 0) holding statements at 20..30 (at 15) and
        // 40..50 (at 35); one apart at 110..120 (at 105).
        let suppressions = [
            suppression(0, (10, 100), &[NAME]),
            suppression(15, (20, 30), &[NAME]),
            suppression(35, (40, 50), &[ATTRIBUTE]),
            suppression(105, (110, 120), &[ATTRIBUTE]),
        ];
        let diagnostics = vec![
            error(NAME, FILE, (22, 24)),
            error(ATTRIBUTE, FILE, (42, 44)),
            error(ATTRIBUTE, FILE, (60, 70)),
            error(NAME, FILE, (95, 105)),
            error(ATTRIBUTE, FILE, (112, 114)),
            error(NAME, FILE, (115, 116)),
            error(NAME, FileId(1), (22, 24)),
        ];
        assert_eq!(
            left(&suppressions, diagnostics),
            [
                // The block's suppression came first, so the one at 15 silences nothing.
                "PCL4019 at 15",
                "PCL4001 at 22",
                "PCL4006 at 60",
                "PCL4001 at 95",
                "PCL4001 at 115",
            ]
        );
    }

    #[test]
    fn two_comments_before_one_statement_each_silence_their_codes() {
        let suppressions = [
            suppression(0, (20, 30), &[ATTRIBUTE]),
            suppression(10, (20, 30), &[NAME, ATTRIBUTE]),
        ];
        let diagnostics = vec![
            error(NAME, FILE, (21, 22)),
            error(ATTRIBUTE, FILE, (25, 26)),
        ];
        assert_eq!(left(&suppressions, diagnostics), ["PCL4019 at 10"]);
    }

    #[test]
    fn a_project_code_is_judged_unused_only_with_the_project_diagnostics() {
        let suppressions = [suppression(0, (20, 30), &[codes::MISSING_LOCAL_FILE])];
        let mut program = vec![error(NAME, FILE, (21, 22))];
        apply_suppressions(&suppressions, FILE, &mut program, Judged::Program);
        assert_eq!(program.len(), 1, "{program:?}");
        let mut project = Vec::new();
        apply_suppressions(&suppressions, FILE, &mut project, Judged::Project);
        let codes: Vec<_> = project.iter().map(|d| d.code).collect();
        assert_eq!(codes, [codes::UNUSED_SUPPRESSION]);
        let mut silenced = vec![error(codes::MISSING_LOCAL_FILE, FILE, (25, 26))];
        apply_suppressions(&suppressions, FILE, &mut silenced, Judged::Project);
        assert!(silenced.is_empty(), "{silenced:?}");
    }
}
