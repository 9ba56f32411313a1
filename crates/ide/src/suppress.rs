//! `# pcl-ignore PCLnnnn[, PCLmmmm]` comments: on the line before a statement (an
//! attribute or a block), they silence those codes inside it. A suppression that silences
//! nothing is itself a warning, so stale ones do not pile up.

use pcl_diagnostics::{Anchor, Code, Diagnostic, FileId, Span, codes};
use pcl_syntax::{SyntaxKind, SyntaxNode, TextRange};

struct Suppression {
    comment: TextRange,
    codes: Vec<Code>,
    statement: TextRange,
    used: Vec<bool>,
}

/// Drop the diagnostics that suppressions silence, and warn about unused ones.
pub(crate) fn apply_suppressions(
    tree: &SyntaxNode,
    file: FileId,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut suppressions = find(tree);
    if suppressions.is_empty() {
        return;
    }
    diagnostics.retain(|d| {
        let Some(span) = d.span() else { return true };
        for s in &mut suppressions {
            if let Some(i) = s.codes.iter().position(|c| *c == d.code)
                && s.statement.contains_range(span.range)
                && span.file == file
            {
                s.used[i] = true;
                return false;
            }
        }
        true
    });
    for s in suppressions {
        for (code, used) in s.codes.iter().zip(s.used) {
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

fn find(tree: &SyntaxNode) -> Vec<Suppression> {
    let mut res = Vec::new();
    for token in tree
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        if token.kind() != SyntaxKind::COMMENT {
            continue;
        }
        let body = token.text().trim_start_matches(['#', '/']).trim();
        let Some(rest) = body.strip_prefix("pcl-ignore") else {
            continue;
        };
        let codes: Vec<Code> = rest
            .split([',', ' '])
            .filter(|s| !s.is_empty())
            .filter_map(Code::from_text)
            .collect();
        if codes.is_empty() {
            continue;
        }
        // The statement: the first significant token after the comment's line.
        let mut next = token.next_token();
        while let Some(t) = &next {
            if !t.kind().is_trivia() {
                break;
            }
            next = t.next_token();
        }
        let Some(next) = next else { continue };
        let statement = next
            .parent_ancestors()
            .find(|n| {
                matches!(n.kind(), SyntaxKind::ATTRIBUTE | SyntaxKind::BLOCK)
                    && n.text_range().start() == next.text_range().start()
            })
            .map(|n| n.text_range());
        let Some(statement) = statement else { continue };
        let count = codes.len();
        res.push(Suppression {
            comment: token.text_range(),
            codes,
            statement,
            used: vec![false; count],
        });
    }
    res
}
