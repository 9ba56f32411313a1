//! An input that names another declaration (`team = teamName`, or a field of an object
//! or list literal that does) is checked against its expected type through a memo shared
//! by every reader: `reference_fit(declaration, expected type)`. When an edit changes
//! the declaration's type (`teamName = "t"` becomes `teamName = 2`) but not whether it
//! fits where it is read, that memo backdates and the readers' input checks do not run
//! again: a type change re-checks what it can change, once, not each reader.
//!
//! Number and bool literals are typed there too, only when they do not plainly fit (a
//! constant type for each `port = 8080` is an interned type that nothing else reads).
//!
//! Only checks that keep diagnostics alone defer references so (`infer`,
//! `resources::input_check`); they also leave untyped the object and list literals that
//! `check_value` goes into (a type for each, interned, that nothing would read). A check
//! that keeps the types of expressions (a hover's) types every expression as it goes.

use pcl_types::Ty;

use crate::constants::fits_at_a_glance;
use crate::hir::{Expr, ExprId};
use crate::inference::{Descent, Infer, converts, decl_ty};
use crate::items::{DeclId, DeclKind};

/// The key of `reference_fit`, in a module of its own: salsa's expansion of an interned
/// struct with a field that borrows the database names `'db` where it is not used.
#[allow(unused_lifetimes)]
mod reference_use {
    use crate::items::DeclId;
    use pcl_types::Ty;

    /// A declaration read where a value of `expected` is.
    #[salsa::interned(revisions = usize::MAX, debug)]
    pub(crate) struct ReferenceUse<'db> {
        #[returns(copy)]
        pub(crate) target: DeclId<'db>,
        #[returns(copy)]
        pub(crate) expected: Ty<'db>,
    }
}
use reference_use::ReferenceUse;

/// The query key of a reference to `target` where `expected` is read, through the handle's
/// cache (`TypeCache::interned_key`): the same few pairs come back at every resource (a
/// config every resource reads as the same input), and two checking threads took turns
/// at the interner's lock for them.
fn reference_use<'db>(
    db: &'db dyn pcl_types::Db,
    target: DeclId<'db>,
    expected: Ty<'db>,
) -> ReferenceUse<'db> {
    use salsa::plumbing::AsId;
    use std::hash::BuildHasher;
    pcl_types::cached_key::<ReferenceUse<'static>, _>(
        db,
        rustc_hash::FxBuildHasher.hash_one((target.as_id(), expected.as_id())),
        |key: ReferenceUse<'db>| key.target(db) == target && key.expected(db) == expected,
        || ReferenceUse::new(db, target, expected),
    )
}

/// `None` when a reference to the declaration fits where `expected` is read with nothing
/// to report there; else the declaration's type, for the reader to check as usual. A
/// local may be a constant that `expected` refuses (an enum's member, a number), so such
/// a pair is always the reader's to judge.
#[salsa::tracked(returns(copy))]
fn reference_fit<'db>(db: &'db dyn pcl_types::Db, reference: ReferenceUse<'db>) -> Option<Ty<'db>> {
    let (target, expected) = (reference.target(db), reference.expected(db));
    let actual = decl_ty(db, target);
    let silent = converts(db, expected, actual)
        && !(target.kind(db) == DeclKind::Local
            && crate::constants::may_refuse_a_constant(db, expected));
    (!silent).then_some(actual)
}

/// What `expr_to_check` left for `check_value` to type, if it must.
#[derive(Clone, Copy)]
pub(crate) enum Deferred<'db> {
    /// A reference to this declaration.
    Reference(DeclId<'db>),
    /// A number or bool literal.
    Literal,
}

impl<'db> Infer<'db> {
    /// Type a value before `check_value` checks it against `expected`: as `expr` does,
    /// but in a check for diagnostics only, a reference to another declaration where
    /// `check_value` will check it alone is left to `reference_fit`, and a literal it
    /// goes into gets no type of its own. The diagnostics come in the same order as
    /// `expr`'s: a reference reports nothing when typed, nor does such a literal.
    pub(crate) fn expr_to_check(&mut self, id: ExprId, expected: Ty<'db>) {
        if !self.diagnostics_only {
            self.expr(id);
            return;
        }
        let body = self.body;
        if let Some(target) = self.deferrable_reference(id) {
            self.defer(id, Deferred::Reference(target));
            return;
        }
        if matches!(body.expr(id), Expr::Number(_) | Expr::Bool(_)) {
            self.defer(id, Deferred::Literal);
            return;
        }
        let descent = self.descent(id, expected);
        if !matches!(descent, Descent::Whole) {
            self.remember_descent(id, expected, descent);
        }
        match (descent, body.expr(id)) {
            (Descent::Fields(fields), Expr::Object(items)) => {
                for &[key, value] in body.pairs(*items) {
                    self.expr(key);
                    let field = crate::inference::literal_key(body, body.expr(key))
                        .and_then(|name| fields.iter().find(|(n, _)| **n == *name));
                    match field {
                        Some(&(_, ty)) => self.expr_to_check(value, ty),
                        None => {
                            self.expr(value);
                        }
                    }
                }
            }
            (Descent::Elements(element), Expr::Object(items)) => {
                for &[key, value] in body.pairs(*items) {
                    self.expr(key);
                    self.expr_to_check(value, element);
                }
            }
            (Descent::Elements(element), Expr::Tuple(elements)) => {
                for &e in body.list(*elements) {
                    let element = self.element_member(id, e).unwrap_or(element);
                    self.expr_to_check(e, element);
                }
            }
            _ => {
                self.expr(id);
            }
        }
    }

    /// Keep how `check_value` goes into `id` against `expected`, as it will ask.
    fn remember_descent(&mut self, id: ExprId, expected: Ty<'db>, descent: Descent<'db>) {
        if self.descents.is_empty() {
            self.descents.resize(self.body.exprs.len(), None);
        }
        self.descents[id.0 as usize] = Some((expected, descent));
    }

    /// Leave `id` for `check_value` to type (`type_to_check`).
    fn defer(&mut self, id: ExprId, deferred: Deferred<'db>) {
        if self.deferred.is_empty() {
            self.deferred.resize(self.body.exprs.len(), None);
        }
        self.deferred[id.0 as usize] = Some(deferred);
    }

    /// The declaration `id` names, when it is a plain reference (not a `for` variable or
    /// `range`) whose type is that declaration's `decl_ty` (`Infer::sees_decl_ty`).
    fn deferrable_reference(&mut self, id: ExprId) -> Option<DeclId<'db>> {
        let (target, _) = self.named_declaration(id)?;
        self.sees_decl_ty(target).then_some(target)
    }

    /// The type `check_value` checks `id` by: the one it was given, or for what
    /// `expr_to_check` deferred, its type now (recorded), unless it fits silently
    /// (`None`): a reference that `reference_fit` finds fitting, a literal that plainly
    /// fits (a number where a number is taken, a whole number for an int, a bool for a
    /// bool: no constant type is made for it).
    pub(crate) fn type_to_check(&mut self, id: ExprId, expected: Ty<'db>) -> Option<Ty<'db>> {
        let Some(&Some(deferred)) = self.deferred.get(id.0 as usize) else {
            return Some(self.ty_of(id));
        };
        let db = self.db;
        let actual = match deferred {
            Deferred::Reference(target) => reference_fit(db, reference_use(db, target, expected))?,
            Deferred::Literal if fits_at_a_glance(db, self.body, self.body.expr(id), expected) => {
                return None;
            }
            Deferred::Literal => self.expr(id),
        };
        self.types[id.0 as usize] = actual;
        Some(actual)
    }
}
