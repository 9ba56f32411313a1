//! The grammar of HCL native syntax, one function per production.
//!
//! Conventions (from rust-analyzer): a rule named `opt_x` may produce nothing; other rules
//! always produce a node or an error, and expect the caller to have checked their first token.

mod expressions;
mod items;
mod templates;

pub(crate) use templates::UNCLOSED_INTERPOLATION;

use pcl_diagnostics::codes;

use crate::SyntaxKind::{self, *};
use crate::parser::{CHAIN_LIMIT, CompletedMarker, Parser};
use crate::token_set::TokenSet;
use rowan::TextRange;

/// Parses a whole file: `SOURCE_FILE { BODY }`.
pub(crate) fn source_file(p: &mut Parser<'_>) {
    let m = p.start_known(SOURCE_FILE);
    items::body(p, None);
    while !p.at_end() {
        // Only a stray closing bracket can stop the top-level body early.
        p.err_and_bump(
            codes::UNEXPECTED_TOKEN,
            format!("unexpected {}: it closes nothing", p.describe_token()),
        );
        items::body(p, None);
    }
    p.wrap_rest_after_stop();
    m.complete(p, SOURCE_FILE);
}
