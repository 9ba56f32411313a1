//! Applying `# pcl-ignore` suppressions (found by `pcl_sema::file_suppressions`) to a
//! file's diagnostics. A suppression that silences nothing is itself a warning, so stale
//! ones do not pile up.

use pcl_diagnostics::{Anchor, Diagnostic, FileId, Span, codes};
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
