//! `# pcl-ignore PCLnnnn[, PCLmmmm]` comments, found once per file (a memoized query, so
//! re-checking a program does not walk its unchanged files' trees again): each silences
//! the codes it names inside the statement (attribute or block) on the next line.

use pcl_diagnostics::Code;
use pcl_syntax::{IGNORE_DIRECTIVE, SyntaxKind, TextRange};

use crate::input::File;
use crate::items::parse;

/// One `pcl-ignore` comment.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Suppression {
    pub comment: TextRange,
    pub codes: Vec<Code>,
    /// The statement whose diagnostics it silences.
    pub statement: TextRange,
}

#[salsa::tracked(returns(ref))]
pub fn file_suppressions(db: &dyn salsa::Database, file: File) -> Vec<Suppression> {
    let mut res = Vec::new();
    let parse = parse(db, file);
    // Most files have none: the parse counts them, so their trees are not walked.
    if !parse.has_ignore_comments() {
        return res;
    }
    let tree = parse.syntax_node();
    for token in tree
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        if token.kind() != SyntaxKind::COMMENT || !token.text().contains(IGNORE_DIRECTIVE) {
            continue;
        }
        let body = token.text().trim_start_matches(['#', '/']).trim();
        let Some(rest) = body.strip_prefix(IGNORE_DIRECTIVE) else {
            continue;
        };
        let codes: Vec<Code> = (rest.split([',', ' ']))
            .filter(|s| !s.is_empty())
            .filter_map(Code::from_text)
            .collect();
        if codes.is_empty() {
            continue;
        }
        // The statement: the first significant token after the comment.
        let mut next = token.next_token();
        while let Some(t) = &next {
            if !t.kind().is_trivia() {
                break;
            }
            next = t.next_token();
        }
        let Some(next) = next else { continue };
        let statement = (next.parent_ancestors())
            .find(|n| {
                matches!(n.kind(), SyntaxKind::ATTRIBUTE | SyntaxKind::BLOCK)
                    && n.text_range().start() == next.text_range().start()
            })
            .map(|n| n.text_range());
        if let Some(statement) = statement {
            res.push(Suppression {
                comment: token.text_range(),
                codes,
                statement,
            });
        }
    }
    res
}
