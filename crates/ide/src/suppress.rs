//! Applying `# pcl-ignore` suppressions (found by `pcl_sema::file_suppressions`) to a
//! file's diagnostics, then merging what is one cause into one diagnostic. A suppression
//! that silences nothing is itself a warning, so stale ones do not pile up.

use pcl_diagnostics::{Anchor, Code, Diagnostic, FileId, Label, Span, codes};
use pcl_sema::Suppression;

/// Drop the diagnostics that suppressions silence, and warn about unused ones.
pub(crate) fn apply_suppressions(
    suppressions: &[Suppression],
    file: FileId,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if suppressions.is_empty() {
        return;
    }
    let mut used: Vec<Vec<bool>> = suppressions
        .iter()
        .map(|s| vec![false; s.codes.len()])
        .collect();
    diagnostics.retain(|d| {
        let Some(span) = d.span() else { return true };
        for (s, used) in suppressions.iter().zip(&mut used) {
            if let Some(i) = s.codes.iter().position(|c| *c == d.code)
                && span.file == file
                && s.statement.contains_range(span.range)
            {
                used[i] = true;
                return false;
            }
        }
        true
    });
    for (s, used) in suppressions.iter().zip(used) {
        for (code, used) in s.codes.iter().zip(used) {
            if !used {
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

/// One diagnostic per package per file for a missing schema (`PCL4009`, or `PCL4018`
/// under `--skip-resource-typecheck`): the first use that is not suppressed carries it,
/// the file's other uses are its labels. Runs after the suppressions, so a `pcl-ignore`
/// before a use moves the diagnostic to the next use. `diagnostics` are sorted.
pub(crate) fn merge_missing_schemas(diagnostics: &mut Vec<Diagnostic>) {
    let mut first: Vec<(Code, String, usize)> = Vec::new();
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
        let found = (first.iter())
            .find(|(code, message, _)| *code == diagnostic.code && *message == diagnostic.message)
            .map(|(_, _, at)| *at);
        match found {
            Some(at) => {
                keep[i] = false;
                diagnostics[at].labels.push(Label {
                    span,
                    message: "also used here".to_owned(),
                });
            }
            None => first.push((diagnostic.code, diagnostic.message.clone(), i)),
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
