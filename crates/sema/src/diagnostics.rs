//! Diagnostics as checking produces them: anchored to a part of a declaration (an
//! expression, an attribute name, a block, a label) rather than to a range, so results
//! that hold them stay equal when text moves. `ide` resolves anchors to file ranges.

use pcl_diagnostics::{Code, Severity};

use crate::hir::{AttrId, BlockId, ExprId};
use crate::items::DeclId;

/// A part of a declaration's body.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Site {
    /// The declaration's name (its name label, or a local's name).
    Name,
    Expr(ExprId),
    /// The name after the dot of a `GetAttr` expression (`Name` in `bucket.Name`).
    AttrStep(ExprId),
    /// The function's name in a call expression (`lenght` in `lenght(names)`).
    CallName(ExprId),
    /// The last step of a `GetAttr` or `Index` expression (`.name`, `[key]`), where a
    /// traversal fails; the whole expression for any other.
    Step(ExprId),
    AttrName(AttrId),
    /// A block's type keyword.
    BlockType(BlockId),
    /// A block's label, by position.
    Label(BlockId, u32),
    /// Just inside a block's opening brace: where missing attributes would go.
    BlockOpen(BlockId),
    /// The `{` of an object literal: where a missing property goes.
    ObjectOpen(ExprId),
}

/// A site in a given declaration.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub struct Located<'db> {
    pub decl: DeclId<'db>,
    pub site: Site,
}

impl<'db> Located<'db> {
    pub fn new(decl: DeclId<'db>, site: Site) -> Located<'db> {
        Located { decl, site }
    }
}

/// A replacement offered as a quick fix.
#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub struct SemaFix<'db> {
    pub message: String,
    pub at: Located<'db>,
    /// The site's new text; with `after`, what goes before the site's own text, kept.
    pub replacement: String,
    /// What goes after the site's text, which is kept (a wrap: `[` `value` `]`).
    pub after: Option<String>,
    /// What goes after the text of another site too (the `}` of an `options` block the
    /// fix opens at the site: `count = 3` becomes `options {` `range = 3` `}`).
    pub closing: Option<(Located<'db>, String)>,
    /// A site inside this one whose text is kept while the rest of this one's is
    /// replaced (`replacement` before it, nothing after): `[{ ... }]` unwrapped to its
    /// element.
    pub keep: Option<Located<'db>>,
}

/// One problem a check found.
#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub struct SemaDiagnostic<'db> {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub at: Located<'db>,
    pub labels: Vec<(Located<'db>, String)>,
    pub notes: Vec<String>,
    pub fixes: Vec<SemaFix<'db>>,
}

impl<'db> SemaFix<'db> {
    /// The fix that writes the value at `at` in `[ ]`.
    pub(crate) fn wrap_in_brackets(at: Located<'db>) -> SemaFix<'db> {
        SemaFix {
            message: "wrap in `[ ]`".to_owned(),
            at,
            replacement: "[".to_owned(),
            after: Some("]".to_owned()),
            closing: None,
            keep: None,
        }
    }
}

impl<'db> SemaDiagnostic<'db> {
    pub fn new(code: Code, severity: Severity, message: String, at: Located<'db>) -> Self {
        SemaDiagnostic {
            code,
            severity,
            message,
            at,
            labels: Vec::new(),
            notes: Vec::new(),
            fixes: Vec::new(),
        }
    }

    pub fn with_label(mut self, at: Located<'db>, message: impl Into<String>) -> Self {
        self.labels.push((at, message.into()));
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// The fix that puts `replacement` in place of the text at `at`, offered as "replace
    /// with `shown`" (`shown` is the replacement as the message quotes it).
    pub(crate) fn replace_with(&mut self, at: Located<'db>, shown: &str, replacement: String) {
        self.fixes.push(SemaFix {
            message: format!("replace with {shown}"),
            at,
            replacement,
            after: None,
            closing: None,
            keep: None,
        });
    }

    /// Suggest `s` in place of the text at `at`: a "did you mean" note and the fix.
    pub(crate) fn suggest(&mut self, at: Located<'db>, s: String) {
        self.notes.push(format!("did you mean `{s}`?"));
        self.replace_with(at, &format!("`{s}`"), s);
    }

    /// A "did you mean" fix: replace the text at `at` with `replacement`.
    pub fn with_replacement(mut self, at: Located<'db>, replacement: &str) -> Self {
        self.replace_with(at, &format!("`{replacement}`"), replacement.to_owned());
        self
    }
}

/// What a value is called in a message ("argument 2 of `element`"), written only when a
/// message needs it: checking a value that fits formats nothing.
pub(crate) struct Described<F: Fn() -> String>(pub(crate) F);

impl<F: Fn() -> String> std::fmt::Display for Described<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&(self.0)())
    }
}
