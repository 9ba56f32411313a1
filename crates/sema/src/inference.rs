//! Typing one declaration: every expression of its body gets a type (§3 of the
//! semantics reference), values are checked against the types expected where they are
//! used, and the declaration's outward type comes out as `decl_ty`, the fourth firewall:
//! when an edit leaves it equal, the declaration's readers do not re-run.
//!
//! Declarations are typed one at a time; a reference to another declaration asks for
//! its `decl_ty`. Drivers check declarations in dependency order (`program_graph`), so
//! those questions are already answered and nothing recurses through the program.

use std::borrow::Cow;
use std::fmt::Display;

use pcl_diagnostics::{Code, Severity, codes};
use pcl_types::{
    ConstValue, TraverseKey, TraverseProblem, Ty, TyKind, assignable, conversion, displayed_input,
    input_type, pretty, resolve_outputs, resolve_promises, traverse, unify_types,
};
use rustc_hash::FxHashMap;
use smol_str::SmolStr;

use crate::builtins;
use crate::declarations;
use crate::diagnostics::{Located, SemaDiagnostic, Site};
use crate::hir::{BinaryOp, Body, Expr, ExprId, ForExpr, Number, UnaryOp, body};
use crate::input::{File, Leniency, Program, leniency};
use crate::items::{DeclId, DeclKind, file_decls};
use crate::scope::{
    Bindings, DECL_CHUNK, DeclChunk, Resolution, bind, decl_chunks, decl_cycle, dependency_edges,
    file_dependencies, strongly_connected,
};

/// What checking a declaration found. The types of its expressions are not kept here
/// ([`expr_ty`] computes them when asked): a check keeps every declaration's result, and
/// only a hover reads them.
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub struct InferenceResult<'db> {
    /// The declaration's type as references see it.
    pub ty: Ty<'db>,
    /// An output's value type, a config's declared type; what components expose.
    pub value_ty: Ty<'db>,
    /// For a config: whether a component must set it (no default, not nullable).
    pub required: bool,
    /// Its diagnostics, but for those of the inputs checked apart (`parts`).
    diagnostics: Vec<SemaDiagnostic<'db>>,
    /// The inputs checked in memos of their own, in order: their types and diagnostics
    /// belong to the declaration but are read from there.
    parts: Box<[CheckedApart<'db>]>,
}

/// The type of an expression of a declaration's body: from the declaration's check, or
/// from the input's memo for an input checked apart.
pub fn expr_ty<'db>(db: &'db dyn pcl_types::Db, decl: DeclId<'db>, id: ExprId) -> Option<Ty<'db>> {
    let ty = *expr_types(db, decl).get(id.0 as usize)?;
    for part in infer(db, decl).parts.iter() {
        let types = crate::resources::input_types(db, part.input);
        if let Ok(i) = types.binary_search_by_key(&id, |(e, _)| *e) {
            return Some(types[i].1);
        }
    }
    Some(ty)
}

/// The type of each expression of a declaration's body, by `ExprId` (but for those of
/// the inputs checked apart): the declaration checked again, for the types [`infer`]
/// does not keep.
#[salsa::tracked(returns(ref))]
fn expr_types<'db>(db: &'db dyn pcl_types::Db, decl: DeclId<'db>) -> Box<[Ty<'db>]> {
    check_decl(db, decl, false).0.types.into_boxed_slice()
}

impl<'db> InferenceResult<'db> {
    /// Every diagnostic of the declaration, in the order checking found them.
    pub fn diagnostics(&self, db: &'db dyn pcl_types::Db) -> Vec<SemaDiagnostic<'db>> {
        let mut all = Vec::with_capacity(self.diagnostics.len());
        let mut next = 0;
        for part in self.parts.iter() {
            let at = part.at as usize;
            all.extend_from_slice(&self.diagnostics[next..at]);
            next = at;
            all.extend(
                crate::resources::input_check(db, part.input)
                    .iter()
                    .cloned(),
            );
        }
        all.extend_from_slice(&self.diagnostics[next..]);
        all
    }
}

/// An input checked in a memo of its own (`resources::input_check`), and where its
/// diagnostics go among the declaration's.
#[derive(Clone, Copy, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub(crate) struct CheckedApart<'db> {
    at: u32,
    input: InputAttr<'db>,
}

/// The key of `resources::input_check`, in a module of its own: salsa's expansion of an
/// interned struct with a field that borrows the database names `'db` where it is not
/// used.
#[allow(unused_lifetimes)]
mod input_attr {
    use crate::hir::AttrId;
    use crate::items::DeclId;

    /// One attribute of a declaration's block.
    #[salsa::interned(revisions = usize::MAX, debug)]
    pub(crate) struct InputAttr<'db> {
        #[returns(copy)]
        pub(crate) decl: DeclId<'db>,
        #[returns(copy)]
        pub(crate) attr: AttrId,
    }
}
pub(crate) use input_attr::InputAttr;

/// The diagnostics of one file's declarations, each checked after the declarations of the
/// same file it reads. Drivers call it group by group in `program_graph().file_groups`
/// order (a group of several files after typing its declarations in `order`), so what a
/// declaration reads from other files is already typed and nothing recurses through long
/// chains. One memo per file: after an edit, a driver verifies the untouched files in
/// constant time each, not their declarations one by one. A file of more than
/// [`DECL_CHUNK`] declarations is gathered from memos of that many each
/// ([`check_chunks`]): drivers fill them on several threads, and an edit that changes one
/// declaration's diagnostics gathers its run's again, not the whole file's.
#[salsa::tracked(returns(ref))]
pub fn file_check<'db>(
    db: &'db dyn pcl_types::Db,
    program: Program,
    file: File,
) -> Box<[SemaDiagnostic<'db>]> {
    let order = file_order(db, program, file);
    if order.len() <= DECL_CHUNK {
        return checked_in_order(db, file, order);
    }
    let mut diagnostics = Vec::new();
    for chunk in check_chunks(db, program, file) {
        diagnostics.extend(chunk_check(db, chunk).iter().cloned());
    }
    diagnostics.into_boxed_slice()
}

/// The diagnostics of `decls`, declarations of `file`, in their order.
fn checked_in_order<'db>(
    db: &'db dyn pcl_types::Db,
    file: File,
    decls: &[DeclId<'db>],
) -> Box<[SemaDiagnostic<'db>]> {
    let mut diagnostics = Vec::new();
    let by_input = file.per_input_memos(db);
    for &decl in decls {
        if by_input {
            diagnostics.extend(decl_diagnostics(db, decl).iter().cloned());
        } else {
            diagnostics.extend(infer(db, decl).diagnostics(db));
        }
    }
    diagnostics.into_boxed_slice()
}

/// The runs of a large file's declarations whose diagnostics are gathered together, in
/// `file_check`'s order; none for a file of at most [`DECL_CHUNK`] declarations, which
/// `file_check` gathers itself. Drivers check them on several threads at once
/// ([`check_chunk`]), so the check of one large file is not one thread's work.
pub fn check_chunks<'db>(
    db: &'db dyn pcl_types::Db,
    program: Program,
    file: File,
) -> impl Iterator<Item = DeclChunk<'db>> + 'db {
    let count = file_order(db, program, file).len();
    decl_chunks(
        db,
        program,
        file,
        if count > DECL_CHUNK { count } else { 0 },
    )
}

/// Gather the diagnostics of a chunk, for `file_check`.
pub fn check_chunk<'db>(db: &'db dyn pcl_types::Db, chunk: DeclChunk<'db>) {
    let _ = chunk_check(db, chunk);
}

#[salsa::tracked(returns(ref))]
fn chunk_check<'db>(
    db: &'db dyn pcl_types::Db,
    chunk: DeclChunk<'db>,
) -> Box<[SemaDiagnostic<'db>]> {
    let file = chunk.file(db);
    let order = file_order(db, chunk.program(db), file);
    checked_in_order(db, file, chunk.run(db, order))
}

/// A file's declarations in the order `file_check` visits them: each after the
/// declarations of the same file it reads. Equal after edits that change no name or
/// reference, so it is computed again only then.
#[salsa::tracked(returns(ref))]
fn file_order<'db>(
    db: &'db dyn salsa::Database,
    program: Program,
    file: File,
) -> Box<[DeclId<'db>]> {
    let decls = file_decls(db, program, file);
    let edges = dependency_edges(decls, file_dependencies(db, program, file));
    (strongly_connected(&edges).iter().flatten())
        .map(|&i| decls[i])
        .collect()
}

/// One declaration's diagnostics, apart from its types, in a file checked input by input
/// (an editor's document): an edit that changes the types but not the diagnostics (a
/// literal's value) leaves it equal, so `file_check` of a large file is not computed
/// again. Files from disk read their declarations' checks directly: one query less per
/// declaration in a cold check (and fewer claims for threads checking in parallel to
/// contend on); an edit elsewhere that changes their types gathers their diagnostics
/// again, which costs what verifying as many memos would.
#[salsa::tracked(returns(ref))]
fn decl_diagnostics<'db>(
    db: &'db dyn pcl_types::Db,
    decl: DeclId<'db>,
) -> Box<[SemaDiagnostic<'db>]> {
    infer(db, decl).diagnostics(db).into_boxed_slice()
}

/// Check one declaration.
#[salsa::tracked(returns(ref))]
pub fn infer<'db>(db: &'db dyn pcl_types::Db, decl: DeclId<'db>) -> InferenceResult<'db> {
    let (mut infer, (ty, value_ty, required)) = check_decl(db, decl, true);
    repeated_keys(&mut infer);
    InferenceResult {
        ty,
        value_ty,
        required,
        diagnostics: infer.diagnostics,
        parts: infer.parts.into_boxed_slice(),
    }
}

/// Object literals that give one key twice (`{ team = "a", team = "b" }`, found while
/// lowering: `Body::repeated_keys`): Pulumi's binder keeps the last value silently, and a
/// program converted to a language does not compile. Beyond Go: an error, a warning under
/// `--lenient`.
fn repeated_keys(infer: &mut Infer<'_>) {
    let body = infer.body;
    for &[first, key] in body.pairs(body.repeated_keys) {
        let Expr::String(name) = body.expr(key) else {
            continue;
        };
        let severity = infer.lenient_beyond_go_severity();
        let label = infer.at(Site::Expr(first));
        let message = format!(
            "the key `{}` is given twice in this object",
            body.str(*name)
        );
        let diagnostic = infer.push(
            codes::DUPLICATE_ATTRIBUTE,
            severity,
            Site::Expr(key),
            message,
        );
        diagnostic
            .labels
            .push((label, "first given here".to_owned()));
        diagnostic
            .notes
            .push("Pulumi keeps the last value; remove one of them".to_owned());
    }
}

/// Check one declaration: the state checking left, and the declaration's type, value
/// type and whether it is required (`InferenceResult`); `diagnostics_only` when the
/// types of its expressions are not wanted.
fn check_decl<'db>(
    db: &'db dyn pcl_types::Db,
    decl: DeclId<'db>,
    diagnostics_only: bool,
) -> (Infer<'db>, (Ty<'db>, Ty<'db>, bool)) {
    let mut infer = Infer::new(db, decl);
    infer.diagnostics_only = diagnostics_only;
    let found = declarations::check(&mut infer);
    (infer, found)
}

/// The type a reference to the declaration has. Members of a reference cycle are
/// `dynamic` (the cycle is reported once, by the program). A resource without `range`
/// is typed by its token, without checking its block (the same type `infer` gives it).
#[salsa::tracked(returns(copy), cycle_result = |db, _id, _decl| Ty::dynamic(db))]
pub fn decl_ty<'db>(db: &'db dyn pcl_types::Db, decl: DeclId<'db>) -> Ty<'db> {
    // A component's outputs are its program's, whatever its inputs read (two components
    // may read each other's).
    if let Some(ty) = crate::resources::unranged_component_ty(db, decl) {
        return ty;
    }
    if decl_cycle(db, decl).is_some() {
        return Ty::dynamic(db);
    }
    if let Some(ty) = crate::resources::unranged_resource_ty(db, decl) {
        return ty;
    }
    infer(db, decl).ty
}

/// The state of checking one declaration.
pub(crate) struct Infer<'db> {
    pub(crate) db: &'db dyn pcl_types::Db,
    pub(crate) decl: DeclId<'db>,
    pub(crate) body: &'db Body,
    bindings: &'db Bindings<'db>,
    pub(crate) types: Vec<Ty<'db>>,
    pub(crate) diagnostics: Vec<SemaDiagnostic<'db>>,
    /// Variables of enclosing `for` expressions and `range`, innermost last.
    pub(crate) locals: Vec<(SmolStr, Ty<'db>)>,
    splat_items: Vec<Ty<'db>>,
    /// Whether errors in expressions are reported as warnings (a resource whose schema
    /// is missing, under `--skip-resource-typecheck`).
    pub(crate) lenient: bool,
    /// Traversal errors are warnings (`--skip-resource-typecheck`: Go's lenient
    /// traversal of resources).
    pub(crate) skip_traversal_errors: bool,
    /// The leniencies in force.
    pub(crate) leniency: Leniency,
    /// Whether the checks of constant values are warnings (the arguments of an invoke
    /// under `--skip-invoke-typecheck`).
    pub(crate) demote_value_checks: bool,
    /// How many guards enclose the expression being typed (a conditional's branches, the
    /// arguments of `try` and `can`): an index there may never be taken
    /// (`length(pets) > 0 ? pets[0].id : ""`, `try(pets[3].id, "")`).
    pub(crate) guarded: u32,
    /// How many `toJSON` arguments the expression being typed is inside: JSON documents
    /// (CloudFormation's `Fn::GetAtt`, ESC's `fn::secret`) have keys PCL would misread.
    pub(crate) in_json: u32,
    /// A name written as a whole input's value where a string goes (`prefix = web`): if
    /// undefined, probably text a YAML user left unquoted.
    pub(crate) bare_text: Option<ExprId>,
    /// The arguments object of the `invoke` being checked: its fields are arguments, and
    /// messages call them so.
    pub(crate) invoke_arguments: Option<ExprId>,
    /// Whether an `options` block is being checked (where `range` is not in scope).
    pub(crate) in_options: bool,
    /// How many string templates enclose the expression being typed (`${HOME}` in a
    /// heredoc of shell text is probably meant as text).
    in_template: u32,
    /// The types of the declarations referenced so far (a body names the same few again
    /// and again; a list may name thousands), and the declaration's own reference cycle
    /// once asked.
    referenced: FxHashMap<DeclId<'db>, Ty<'db>>,
    own_cycle: Option<Option<&'db std::sync::Arc<[DeclId<'db>]>>>,
    /// The inputs checked apart so far.
    parts: Vec<CheckedApart<'db>>,
    /// Whether the check keeps only its diagnostics (`infer`, `input_check`), not the
    /// types of expressions (a hover's `expr_types`, `input_types`): then `expr_to_check`
    /// leaves references to `reference_fit` and does not type the literals `check_value`
    /// goes into.
    pub(crate) diagnostics_only: bool,
    /// The references and literals it left so, by expression (empty until the first).
    pub(crate) deferred: Vec<Option<crate::reference_fit::Deferred<'db>>>,
    /// The literals it went into, by expression: how, and against what type, which
    /// `check_value` then asks again (empty until the first).
    pub(crate) descents: Vec<Option<(Ty<'db>, Descent<'db>)>>,
    /// The list literal given for an input whose elements are a discriminated union, and
    /// the union: each element is checked as the member it names.
    pub(crate) element_members: Option<(ExprId, &'db pcl_schema::Discriminated<'db>)>,
}

impl<'db> Infer<'db> {
    pub(crate) fn new(db: &'db dyn pcl_types::Db, decl: DeclId<'db>) -> Infer<'db> {
        let body = body(db, decl);
        let leniency = leniency(db);
        let bindings = bind(db, decl);
        // Room for every declaration it may read, up front: grown from empty, the map
        // rehashed for most declarations.
        let referenced =
            FxHashMap::with_capacity_and_hasher(bindings.dependencies.len(), Default::default());
        Infer {
            db,
            decl,
            body,
            bindings,
            types: vec![Ty::dynamic(db); body.exprs.len()],
            diagnostics: Vec::new(),
            locals: Vec::new(),
            splat_items: Vec::new(),
            lenient: false,
            skip_traversal_errors: leniency.skip_resource_typecheck,
            leniency,
            demote_value_checks: false,
            guarded: 0,
            in_json: 0,
            bare_text: None,
            invoke_arguments: None,
            in_options: false,
            in_template: 0,
            referenced,
            own_cycle: None,
            parts: Vec::new(),
            diagnostics_only: false,
            deferred: Vec::new(),
            descents: Vec::new(),
            element_members: None,
        }
    }

    /// The types this check gave that are not `dynamic` (where every type starts), by
    /// expression (`resources::input_types`).
    pub(crate) fn into_known_types(self) -> Box<[(ExprId, Ty<'db>)]> {
        let dynamic = self.dynamic();
        (self.types.iter().enumerate())
            .filter(|(_, ty)| **ty != dynamic)
            .map(|(i, ty)| (ExprId(i as u32), *ty))
            .collect()
    }

    /// Leave an input to its own memo (`resources::input_check`); its diagnostics go here,
    /// after those found so far.
    pub(crate) fn check_apart(&mut self, input: InputAttr<'db>) {
        let at = self.diagnostics.len() as u32;
        self.parts.push(CheckedApart { at, input });
    }

    pub(crate) fn dynamic(&self) -> Ty<'db> {
        Ty::dynamic(self.db)
    }

    pub(crate) fn at(&self, site: Site) -> Located<'db> {
        Located::new(self.decl, site)
    }

    /// The severity of problems with the program's expressions: errors, or warnings when
    /// lenient.
    pub(crate) fn severity(&self) -> Severity {
        if self.lenient {
            Severity::Warning
        } else {
            Severity::Error
        }
    }

    /// The severity of a check Pulumi's binder does not make: an error, a warning under
    /// `--lenient` (each such check has its row in `docs/deviations.md`).
    pub(crate) fn beyond_go_severity(&self) -> Severity {
        if self.leniency.beyond_go {
            Severity::Warning
        } else {
            Severity::Error
        }
    }

    /// [`Infer::beyond_go_severity`], a warning too where the check is lenient.
    pub(crate) fn lenient_beyond_go_severity(&self) -> Severity {
        match self.lenient {
            true => Severity::Warning,
            false => self.beyond_go_severity(),
        }
    }

    /// Report a problem with the program's expressions (a warning when lenient).
    #[cold]
    pub(crate) fn report(
        &mut self,
        code: Code,
        site: Site,
        message: String,
    ) -> &mut SemaDiagnostic<'db> {
        self.push(code, self.severity(), site, message)
    }

    /// Report a problem whatever the leniency (block structure, options).
    #[cold]
    pub(crate) fn push(
        &mut self,
        code: Code,
        severity: Severity,
        site: Site,
        message: String,
    ) -> &mut SemaDiagnostic<'db> {
        let diagnostic = SemaDiagnostic::new(code, severity, message, self.at(site));
        self.diagnostics.push(diagnostic);
        let last = self.diagnostics.len() - 1;
        &mut self.diagnostics[last]
    }

    pub(crate) fn ty_of(&self, id: ExprId) -> Ty<'db> {
        self.types[id.0 as usize]
    }

    /// Type an expression and its subexpressions.
    pub(crate) fn expr(&mut self, id: ExprId) -> Ty<'db> {
        let ty = self.expr_inner(id);
        self.types[id.0 as usize] = ty;
        ty
    }

    fn expr_inner(&mut self, id: ExprId) -> Ty<'db> {
        let db = self.db;
        let body = self.body;
        match body.expr(id) {
            Expr::Missing | Expr::BadNumber => self.dynamic(),
            Expr::Null => Ty::constant(db, Ty::none(db), ConstValue::Null),
            Expr::Bool(value) => Ty::constant(db, Ty::bool(db), ConstValue::Bool(*value)),
            Expr::Number(number) => {
                let value = ConstValue::Number(body.number(*number).value());
                Ty::constant(db, Ty::of_value(db, &value), value)
            }
            Expr::String(text) => {
                let text = body.str(*text);
                // One-line strings only: a heredoc holds other languages' code (a shell's
                // `$var`, Python's `f"{name}"`), which means its own names.
                if text.contains(['{', '$']) && !text.contains('\n') {
                    self.literal_braces(id, text);
                }
                Ty::string(db)
            }
            Expr::Template(parts) => {
                let parts = body.list(*parts);
                self.in_template += 1;
                let types: Vec<Ty<'db>> = parts.iter().map(|&p| self.expr(p)).collect();
                self.in_template -= 1;
                self.check_template_parts(parts);
                lift(db, Ty::string(db), &types)
            }
            Expr::TemplateJoin(inner) => {
                let ty = self.expr(*inner);
                lift(db, Ty::string(db), &[ty])
            }
            Expr::Tuple(elements) => {
                let elements = body.list(*elements);
                let types: Vec<Ty<'db>> = elements.iter().map(|&e| self.expr(e)).collect();
                Ty::tuple(db, types)
            }
            Expr::Object(items) => self.object(body.pairs(*items)),
            Expr::Name(name) => self.name(id, body.str(*name)),
            Expr::GetAttr { base, name } => {
                let name = body.str(*name);
                if self.terraform_reference(id, *base, name) {
                    return self.dynamic();
                }
                let receiver = self.expr(*base);
                if self.check_ranged_attribute(id, *base, name, receiver) {
                    return self.dynamic();
                }
                self.traverse(id, receiver, TraverseKey::Attr(SmolStr::new(name)))
            }
            Expr::Index { base, key } => {
                let receiver = self.expr(*base);
                let key_ty = self.expr(*key);
                let key_value = literal_value(body, body.expr(*key));
                match key_value {
                    Some(value) => {
                        // Go reads a string key of a list as a number at deploy time.
                        if matches!(value, ConstValue::String(_))
                            && matches!(unwrap_iterable(db, receiver).kind(db), TyKind::List(_))
                        {
                            let before = self.diagnostics.len();
                            self.check_constant(*key, Ty::int(db), &"a list index");
                            if self.diagnostics.len() > before {
                                self.note_numbered_resources(*base);
                            }
                        }
                        self.check_literal_index(*base, *key, receiver, &value);
                        self.traverse(id, receiver, TraverseKey::Literal(value))
                    }
                    None => self.index(*base, *key, receiver, key_ty),
                }
            }
            Expr::Splat { source, each } => {
                let source_ty = self.expr(*source);
                let unwrapped = unwrap_iterable(db, source_ty);
                let (item, single) = match unwrapped.kind(db) {
                    TyKind::List(e) | TyKind::Set(e) => (*e, false),
                    TyKind::Tuple(elements) => (unify_types(db, elements.iter().copied()).0, false),
                    TyKind::Dynamic => (unwrapped, false),
                    _ => (unwrapped, true),
                };
                if single && matches!(unwrapped.kind(db), TyKind::Map(_)) {
                    self.splat_of_keyed_resources(id, *source, *each);
                }
                self.splat_items.push(item);
                let each_ty = self.expr(*each);
                self.splat_items.pop();
                let list = Ty::list(db, each_ty);
                if single {
                    list
                } else {
                    wrap_iterable(db, source_ty, list)
                }
            }
            Expr::SplatItem => self
                .splat_items
                .last()
                .copied()
                .unwrap_or_else(|| self.dynamic()),
            Expr::Call(call) => {
                builtins::call(self, id, &call.name, body.list(call.args), call.expand)
            }
            Expr::For(for_expr) => self.for_expr(id, for_expr),
            Expr::Conditional {
                cond,
                then,
                otherwise,
            } => {
                let c = self.expr(*cond);
                let condition = input_type(db, Ty::bool(db));
                if self.expect(*cond, condition, &"a condition")
                    && may_misfit(body.expr(*cond), true)
                {
                    self.check_constant(*cond, condition, &"a condition");
                }
                self.guarded += 1;
                let a = self.expr(*then);
                let b = self.expr(*otherwise);
                self.guarded -= 1;
                lift(db, unify_types(db, [a, b]).0, &[c])
            }
            Expr::Unary { op, operand } => {
                let t = self.expr(*operand);
                let (param, result) = match op {
                    UnaryOp::Not => (Ty::bool(db), Ty::bool(db)),
                    UnaryOp::Negate if t == Ty::int(db) => (Ty::int(db), Ty::int(db)),
                    UnaryOp::Negate => (Ty::number(db), Ty::number(db)),
                };
                self.check_operand(*operand, input_type(db, param), None, *op == UnaryOp::Not);
                lift(db, result, &[t])
            }
            Expr::Binary { op, lhs, rhs } => {
                let a = self.expr(*lhs);
                let b = self.expr(*rhs);
                let int = a == Ty::int(db) && b == Ty::int(db);
                let number = if int { Ty::int(db) } else { Ty::number(db) };
                let (param, result) = match op {
                    BinaryOp::Add
                    | BinaryOp::Subtract
                    | BinaryOp::Multiply
                    | BinaryOp::Divide
                    | BinaryOp::Modulo => (number, number),
                    BinaryOp::Less
                    | BinaryOp::LessEqual
                    | BinaryOp::Greater
                    | BinaryOp::GreaterEqual => (number, Ty::bool(db)),
                    BinaryOp::Equal | BinaryOp::NotEqual => {
                        (Ty::optional(db, self.dynamic()), Ty::bool(db))
                    }
                    BinaryOp::And | BinaryOp::Or => (Ty::bool(db), Ty::bool(db)),
                };
                let expected = input_type(db, param);
                if !matches!(op, BinaryOp::Equal | BinaryOp::NotEqual) {
                    let logical = matches!(op, BinaryOp::And | BinaryOp::Or);
                    self.check_operand(*lhs, expected, Some(*op), logical);
                    self.check_operand(*rhs, expected, Some(*op), logical);
                } else {
                    self.expect(*lhs, expected, &"an operand");
                    self.expect(*rhs, expected, &"an operand");
                    self.check_comparison(id, *op == BinaryOp::Equal, [(*lhs, a), (*rhs, b)]);
                }
                lift(db, result, &[a, b])
            }
        }
    }

    /// An operand (of `op`, or of a unary operator) converts to `expected`; a literal that
    /// converts only unsafely and would fail at deploy (`"app-" + env`, `!"yes"`) is
    /// judged as an input's is, beyond Go. Literals only (as conditions): judging a local's
    /// constant would make every expression that computes with a local read its value, not
    /// just its type, and re-run when the value changes.
    fn check_operand(
        &mut self,
        operand: ExprId,
        expected: Ty<'db>,
        op: Option<BinaryOp>,
        wants_bool: bool,
    ) {
        let reported = self.diagnostics.len();
        if !self.expect(operand, expected, &"an operand") {
            // `groups + ["sg"]`: Python's and JavaScript's list concatenation.
            let db = self.db;
            let list = matches!(
                resolve_outputs(db, self.types[operand.0 as usize]).kind(db),
                TyKind::List(_) | TyKind::Tuple(_)
            );
            if op == Some(BinaryOp::Add)
                && list
                && let Some(diagnostic) = self.diagnostics.get_mut(reported)
            {
                diagnostic.notes.push(
                    "`+` adds numbers; PCL has no list concatenation: Pulumi's `std` package has it, `invoke(\"std:index:concat\", { input = [first, second] }).result`"
                        .to_owned(),
                );
            }
            return;
        }
        if !may_misfit(self.body.expr(operand), wants_bool) {
            return;
        }
        self.check_constant(operand, expected, &"an operand");
        // `"app-" + env` (and Python's `"logs-%s" % env`): strings meant to be joined.
        let joins_text = matches!(op, Some(BinaryOp::Add | BinaryOp::Modulo))
            && matches!(self.body.expr(operand), Expr::String(_));
        if joins_text && let Some(diagnostic) = self.diagnostics.get_mut(reported) {
            let what = match op {
                Some(BinaryOp::Modulo) => "`%` is a remainder of numbers; to format a string",
                _ => "`+` adds numbers; to join strings",
            };
            diagnostic.notes.push(format!(
                "{what}, write them in a template: \"app-${{env}}\""
            ));
        }
        // `name || "default"`: JavaScript's default, not a bool.
        let default =
            op == Some(BinaryOp::Or) && matches!(self.body.expr(operand), Expr::String(_));
        if default && let Some(diagnostic) = self.diagnostics.get_mut(reported) {
            diagnostic.notes = vec![
                "`||` takes bools; for a default value write a conditional, `name != \"\" ? name : \"default\"`, or give the config a `default`"
                    .to_owned(),
            ];
            diagnostic.fixes.clear();
        }
    }

    fn object(&mut self, items: &[[ExprId; 2]]) -> Ty<'db> {
        let db = self.db;
        let mut key_types = Vec::new();
        let mut fields: Vec<(SmolStr, Ty<'db>)> = Vec::new();
        let mut literal_keys = true;
        let mut values = Vec::new();
        for &[key, value] in items {
            let key_ty = self.expr(key);
            let value_ty = self.expr(value);
            match literal_key(self.body, self.body.expr(key)) {
                Some(name) => {
                    if items.len() == 1 && self.in_json == 0 {
                        self.yaml_function_key(key, &name);
                    }
                    fields.push((SmolStr::new(name), value_ty));
                }
                None => {
                    literal_keys = false;
                    if !self.bracketed_key(key) {
                        self.expect(key, input_type(db, Ty::string(db)), &"an object key");
                    }
                    key_types.push(key_ty);
                }
            }
            values.push(value_ty);
        }
        // A key given twice takes its last value: `Ty::object` keeps the last of each name
        // (removing an earlier one here as each key came made a literal of many keys
        // quadratic: 100k keys took 5.9 s to check, now 0.26 s).
        let ty = if literal_keys {
            Ty::object(db, fields)
        } else {
            Ty::map(db, unify_types(db, values).0)
        };
        lift(db, ty, &key_types)
    }

    fn name(&mut self, id: ExprId, name: &str) -> Ty<'db> {
        if let Some((_, ty)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return *ty;
        }
        match self.bindings.resolution(name) {
            Some(&Resolution::Decl(target)) => {
                // Asked once per declaration read (as `reference` memoizes its type).
                if !self.referenced.contains_key(&target)
                    && target.kind(self.db) == DeclKind::Output
                {
                    self.output_read(id, name);
                }
                self.reference(target)
            }
            // Terraform's `count` or `for_each` in the options is reported there, with
            // the fix to `range`: the `range` it would define is not reported again.
            Some(Resolution::Unresolved) if name == "range" && self.sets_terraform_range() => {
                self.dynamic()
            }
            // A block that declares nothing has its error: reading the name it meant is
            // not also one (`resouce "res" ...`, then `res.id`).
            Some(Resolution::Unresolved) if self.names_broken_block(name) => self.dynamic(),
            Some(Resolution::Unresolved) => {
                let suggestion = self.closest_name(name);
                let at = self.at(Site::Expr(id));
                let severity = match self.leniency.allow_missing_variables {
                    true => Severity::Warning,
                    false => self.severity(),
                };
                let mut diagnostic = SemaDiagnostic::new(
                    codes::UNDEFINED_NAME,
                    severity,
                    format!("undefined name `{name}`"),
                    at,
                );
                diagnostic = match suggestion {
                    _ if let Some(declared) = self.declared_after_colon(name) => diagnostic
                        .with_note(format!(
                            "`{declared}` is declared, but no expression can read a name with `:`: name it `{name}` (a config's namespace is the project's)"
                        )),
                    _ if let Some(habit) = crate::sdk_habits::foreign_name(name) => {
                        let diagnostic = diagnostic.with_note(habit.note);
                        match habit.fix {
                            Some(fix) => diagnostic.with_replacement(at, fix),
                            None => diagnostic,
                        }
                    }
                    Some(s) => diagnostic
                        .with_note(format!("did you mean `{s}`?"))
                        .with_replacement(at, &s),
                    None if name == "range" && self.in_options => diagnostic.with_note(
                        "`range` is not in scope in `options`: only the resource's inputs see it",
                    ),
                    None if name == "range" && self.sets_range() => diagnostic.with_note(
                        "this `range` is a condition (a bool): it decides whether the resource exists, and defines no `range` variable; range over a number, list or map to have one",
                    ),
                    None if name == "range" => diagnostic.with_note(
                        "`range` exists only inside a resource or component whose options set `range`",
                    ),
                    None if let Some(kind) = self.terraform_declared(name) => diagnostic
                        .with_note(format!(
                            "`{name}` is declared in a Terraform `{kind}` block, which PCL does not read: declare it as a config (`config {name} \"string\" {{}}`) or a local (`{name} = value`)"
                        )),
                    None if self.bare_text == Some(id) => diagnostic
                        .with_note(format!(
                            "to give the text `{name}`, quote it: `\"{name}\"` (a name must be declared: a local, a config, a resource or a component)"
                        ))
                        .with_replacement(at, &format!("\"{name}\"")),
                    // `${HOME}` in a heredoc of shell text.
                    None if self.in_template > 0 && is_environment_name(name) => diagnostic.with_note(format!(
                        "to write `${{{name}}}` as text (for a shell), escape it: `$${{{name}}}`"
                    )),
                    None => diagnostic.with_note(
                        "declare it as a local (`name = value`), a config, a resource or a component",
                    ),
                };
                self.diagnostics.push(diagnostic);
                self.dynamic()
            }
            None => self.dynamic(),
        }
    }

    /// The Terraform block (`variable`, `locals`) of the program that declares `name`, if
    /// one does (asked only for a name that does not resolve).
    fn terraform_declared(&self, name: &str) -> Option<SmolStr> {
        let db = self.db;
        let program = self.decl.program(db);
        program.files(db).iter().find_map(|&file| {
            let names = crate::items::terraform_names(db, file);
            let at = (names.binary_search_by(|(declared, _)| declared.as_str().cmp(name))).ok()?;
            Some(names[at].1.clone())
        })
    }

    /// The declared name `namespace:name` (`config "app:seed"`), if one is, for an
    /// undefined `name` (asked only for a name that does not resolve).
    fn declared_after_colon(&self, name: &str) -> Option<SmolStr> {
        let db = self.db;
        let declared = crate::scope::declared_names(db, self.decl.program(db));
        declared.with_namespace(name).map(SmolStr::new)
    }

    /// `{ "fn::invoke" = { ... } }`: Pulumi YAML's function call (an object of that one key,
    /// outside a `toJSON` document) is a plain key in PCL, so nothing is called and the
    /// object is the value. An error beyond Go.
    fn yaml_function_key(&mut self, key: ExprId, name: &str) {
        let Some(function) = name.strip_prefix("fn::") else {
            return;
        };
        const YAML_FUNCTIONS: &[&str] = &[
            "invoke",
            "join",
            "split",
            "select",
            "toJSON",
            "toBase64",
            "fromBase64",
            "secret",
            "readFile",
            "stackReference",
            "fileAsset",
            "stringAsset",
            "remoteAsset",
            "fileArchive",
            "assetArchive",
            "remoteArchive",
        ];
        if !YAML_FUNCTIONS.contains(&function) {
            return;
        }
        let severity = self.beyond_go_severity();
        let message = format!(
            "`{name}` is Pulumi YAML's function call: in PCL it is a plain key, and nothing is called"
        );
        let way = builtins::foreign_function(name)
            .unwrap_or_else(|| "PCL calls functions by name: `toJSON(value)`, `invoke(\"pkg:module:function\", { arguments })`".to_owned());
        self.push(codes::UNKNOWN_FUNCTION, severity, Site::Expr(key), message)
            .notes
            .push(way);
    }

    /// `var.region`, `count.index`, `each.value`, ...: a Terraform reference, where its
    /// first name is not declared. Reported once at the whole reference (its first name
    /// alone is undefined), with what PCL writes; `true` when reported.
    fn terraform_reference(&mut self, id: ExprId, base: ExprId, step: &str) -> bool {
        let Expr::Name(first) = self.body.expr(base) else {
            return false;
        };
        let first = self.body.str(*first);
        let terraform = matches!(
            first,
            "var"
                | "local"
                | "module"
                | "data"
                | "count"
                | "each"
                | "self"
                | "path"
                | "terraform"
                | "pulumi"
        );
        let sdk = pcl_syntax::foreign::sdk_namespace(first);
        // Terraform's resource types (`random_pet`, `aws_s3_bucket`): `random_pet.pet`.
        let resource_type = !terraform
            && sdk.is_none()
            && first.contains('_')
            && (first.bytes()).all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !(terraform || sdk.is_some() || resource_type)
            || self.locals.iter().any(|(n, _)| n == first)
            || self.bindings.resolution(first) != Some(&Resolution::Unresolved)
        {
            return false;
        }
        // The program's names, as "did you mean" reads them for an unresolved name.
        let program = self.decl.program(self.db);
        let declared = crate::scope::declared_names(self.db, program).contains(step);
        // Only a resource's name after the type, and only when the type is no misspelt
        // name of the program (`app_setting.name` for `app_settings`).
        if resource_type
            && !(matches!(
                self.declared_kind(step),
                Some(DeclKind::Resource | DeclKind::Read)
            ) && self.closest_name(first).is_none())
        {
            return false;
        }
        let yaml = first == "pulumi" && matches!(step, "stack" | "project" | "organization");
        let whose = match sdk {
            _ if yaml => "Pulumi YAML's",
            Some(whose) => whose,
            None => "Terraform's",
        };
        let note = match (first, step) {
            ("var", _) if declared => format!("Terraform's `var.{step}` is `{step}` in PCL"),
            ("var", _) => format!(
                "Terraform's variables are configs in PCL: declare `config {step} \"string\" {{}}` and write `{step}`"
            ),
            ("local", _) if declared => format!("Terraform's `local.{step}` is `{step}` in PCL"),
            ("local", _) => format!(
                "Terraform's locals are top-level attributes in PCL: declare `{step} = value` and write `{step}`"
            ),
            ("module", _) => format!(
                "Terraform's modules are components in PCL: `component {step} \"./dir\" {{ ... }}`, whose outputs read as `{step}.NAME` (not `module.{step}.NAME`)"
            ),
            ("data", _) => "Terraform's data sources are functions in PCL: `invoke(\"pkg:module:function\", { arguments })`".to_owned(),
            ("count", "index") => "PCL's is `range.value` (from 0), in a resource with `options { range = N }`".to_owned(),
            ("each", "key" | "value") => format!(
                "PCL's is `range.{step}`, in a resource with `options {{ range = collection }}`"
            ),
            ("self", _) => "PCL has no `self`: write the value itself, or read another resource's attribute".to_owned(),
            ("path", _) => "PCL reads paths relative to the program's directory (`\"./file\"`); `cwd()` and `rootDirectory()` name directories".to_owned(),
            ("terraform", "workspace") => "the stack's name is `stack()` in PCL".to_owned(),
            ("pulumi", "stack" | "project" | "organization") => {
                format!("Pulumi YAML's `${{pulumi.{step}}}` is `{step}()` in PCL")
            }
            _ if sdk.is_some() => pcl_syntax::foreign::sdk_reference(first, step),
            _ if resource_type => format!(
                "Terraform names a resource by its type and name; PCL by its name alone: `{step}`"
            ),
            _ => format!("`{first}` is {whose}; PCL has no `{first}`"),
        };
        let message = format!("undefined name `{first}` (`{first}.{step}` is {whose})");
        let severity = match self.leniency.allow_missing_variables {
            true => Severity::Warning,
            false => self.severity(),
        };
        let at = self.at(Site::Expr(id));
        let mut diagnostic =
            SemaDiagnostic::new(codes::UNDEFINED_NAME, severity, message, at).with_note(note);
        if declared && (resource_type || matches!(first, "var" | "local")) {
            diagnostic = diagnostic.with_replacement(at, step);
        }
        // In a resource with a `range`, the variable Terraform's names mean.
        let ranged = self.locals.iter().any(|(name, _)| name == "range");
        match (first, step) {
            ("count", "index") if ranged => {
                diagnostic = diagnostic.with_replacement(at, "range.value");
            }
            ("each", "key" | "value") if ranged => {
                diagnostic = diagnostic.with_replacement(at, &format!("range.{step}"));
            }
            _ => (),
        }
        self.diagnostics.push(diagnostic);
        self.types[base.0 as usize] = self.dynamic();
        true
    }

    /// `"hello ${petName}"` where `petName` is an output: Go's binder resolves it, but
    /// Python's and Go's code generators export an output's value without naming it, so
    /// the converted program reads an undefined name. An error beyond Go.
    fn output_read(&mut self, id: ExprId, name: &str) {
        let severity = self.beyond_go_severity();
        let message = format!("`{name}` is an output: other declarations cannot read it");
        let diagnostic = self.push(codes::UNDEFINED_NAME, severity, Site::Expr(id), message);
        diagnostic.notes.push(format!(
            "the converted program exports an output's value without naming it (in Python and \
             Go): put the value in a local, `{name}Value = ...`, and read that in both places"
        ));
    }

    /// Whether the declaration's `options` set `range` (which, when `range` is still
    /// undefined, is a condition).
    fn sets_range(&self) -> bool {
        self.options_set("range")
    }

    /// Whether the declaration's options set Terraform's `count` or `for_each`, which
    /// PCL writes `range`.
    fn sets_terraform_range(&self) -> bool {
        self.options_set("count") || self.options_set("for_each")
    }

    /// Whether the declaration's options set the option `name`.
    fn options_set(&self, name: &str) -> bool {
        let body = self.body;
        (body.find_blocks(crate::hir::BlockId::ROOT, "options"))
            .any(|options| body.find_attr(options, name).is_some())
    }

    /// The declared or local name closest to `name`, never the declaration itself.
    fn closest_name(&self, name: &str) -> Option<SmolStr> {
        let locals = self.locals.iter().map(|(n, _)| n.as_str());
        if let Some(local) = pcl_types::closest_name(name, locals) {
            return Some(SmolStr::new(local));
        }
        let db = self.db;
        let declared = crate::scope::declared_names(db, self.decl.program(db));
        declared
            .closest(name, Some(self.decl.name(db).as_str()))
            .map(SmolStr::new)
    }

    /// What a name resolves to in the program.
    pub(crate) fn bindings_of(&self, name: &str) -> Option<Resolution<'db>> {
        self.bindings.resolution(name).cloned()
    }

    /// The declaration `id` refers to, and its name, when `id` is a name that no `for`
    /// variable or `range` shadows. Always inlined: checking asks at every value it
    /// checks (a call there cost 0.3% of a check's instructions).
    #[inline(always)]
    pub(crate) fn named_declaration(&self, id: ExprId) -> Option<(DeclId<'db>, &'db str)> {
        let Expr::Name(name) = self.body.expr(id) else {
            return None;
        };
        let name = self.body.str(*name);
        if self.locals.iter().any(|(n, _)| n == name) {
            return None;
        }
        match self.bindings.resolution(name)? {
            Resolution::Decl(decl) => Some((*decl, name)),
            Resolution::Unresolved => None,
        }
    }

    /// The kind of the program's declaration named `name`, if any.
    pub(crate) fn declared_kind(&self, name: &str) -> Option<DeclKind> {
        let db = self.db;
        let scope = crate::scope::program_scope(db, self.decl.program(db));
        scope.names.get(name).map(|decl| decl.kind(db))
    }

    /// The literal text a config's `default` or a local's value is, when it is one.
    #[cold]
    fn declared_text(&self, decl: DeclId<'db>) -> Option<String> {
        let db = self.db;
        let body = body(db, decl);
        let value = match decl.kind(db) {
            DeclKind::Config => {
                body.attr(body.find_attr(crate::hir::BlockId::ROOT, "default")?)
                    .value
            }
            DeclKind::Local => body.value?,
            _ => return None,
        };
        match body.expr(value) {
            Expr::String(text) => Some(body.str(*text).to_owned()),
            _ => None,
        }
    }

    /// The type of a reference to another declaration.
    pub(crate) fn reference(&mut self, target: DeclId<'db>) -> Ty<'db> {
        if let Some(&ty) = self.referenced.get(&target) {
            return ty;
        }
        let ty = match self.sees_decl_ty(target) {
            true => decl_ty(self.db, target),
            false => self.dynamic(),
        };
        self.referenced.insert(target, ty);
        ty
    }

    /// Whether `name` is one a block of the program that declares nothing may have meant
    /// ([`crate::items::ItemTree::broken_names`]).
    fn names_broken_block(&self, name: &str) -> bool {
        crate::scope::names_broken_block(self.db, self.decl.program(self.db), name)
    }

    /// The member of a discriminated union element `element` of the list literal `list`
    /// names, when `list` is given for an input of such elements (`element_members`).
    pub(crate) fn element_member(&self, list: ExprId, element: ExprId) -> Option<Ty<'db>> {
        let (given, discriminated) = self.element_members?;
        (given == list)
            .then(|| crate::resources::discriminated_member(self, discriminated, element))
            .flatten()
    }

    /// Whether a reference to `target` has `target`'s `decl_ty`: not when it is the
    /// declaration itself or in its reference cycle (unless it is a component without
    /// `range`, typed by its source alone), nor `pulumi`, a hook or a package (those are
    /// `dynamic`).
    pub(crate) fn sees_decl_ty(&mut self, target: DeclId<'db>) -> bool {
        let kind = target.kind(self.db);
        target != self.decl
            && !matches!(kind, DeclKind::Hook | DeclKind::Pulumi | DeclKind::Package)
            && (!self
                .own_cycle()
                .is_some_and(|cycle| cycle.contains(&target))
                || (kind == DeclKind::Component
                    && crate::resources::unranged_component_ty(self.db, target).is_some()))
    }

    /// The reference cycle the declaration is in, if any (asked once).
    fn own_cycle(&mut self) -> Option<&'db std::sync::Arc<[DeclId<'db>]>> {
        let (db, decl) = (self.db, self.decl);
        *self.own_cycle.get_or_insert_with(|| decl_cycle(db, decl))
    }

    pub(crate) fn traverse(
        &mut self,
        id: ExprId,
        receiver: Ty<'db>,
        key: TraverseKey<'db>,
    ) -> Ty<'db> {
        let db = self.db;
        let attr = match &key {
            TraverseKey::Attr(name) => Some(name.clone()),
            _ => None,
        };
        let is_attr = attr.is_some();
        let numbered = matches!(key, TraverseKey::Literal(ConstValue::Number(_)));
        let step = traverse(db, receiver, key);
        // Most steps read an object's attribute: the list check is not asked for them.
        let may_be_list = !matches!(
            receiver.kind(db),
            TyKind::Named(_) | TyKind::Object(_) | TyKind::Dynamic
        );
        if let Some(name) = &attr
            && may_be_list
            && step.problems.is_empty()
        {
            self.named_list_step(id, receiver, name);
        }
        for problem in &step.problems {
            let mut severity = problem.severity(db);
            let missing_property = matches!(
                problem,
                TraverseProblem::UnknownProperty { .. } | TraverseProblem::ObjectKeyNotString
            );
            if self.lenient
                || self.skip_traversal_errors
                || (missing_property && self.leniency.allow_missing_properties)
            {
                severity = Severity::Warning;
            }
            let message = problem.message(db);
            // A number is no misspelt property name (`pet[0]` is not `pet.id`).
            let suggestion = match numbered {
                true => None,
                false => problem.suggestion().map(str::to_owned),
            };
            let at = self.at(Site::Step(id));
            let mut diagnostic = SemaDiagnostic::new(problem.code(), severity, message, at);
            if let TraverseProblem::NotTraversable { receiver } = problem
                && let plain = resolve_outputs(db, *receiver)
                && matches!(
                    plain.kind(db),
                    TyKind::String | TyKind::Id | TyKind::Int | TyKind::Number | TyKind::Bool
                )
            {
                diagnostic = diagnostic.with_note(format!(
                    "`{}` is a single value: only lists, maps, objects and resources have elements or attributes",
                    pretty(db, plain)
                ));
            }
            if numbered && matches!(problem, TraverseProblem::UnknownProperty { .. }) {
                let (note, resource) = self.numbered_object_note(id);
                diagnostic = diagnostic.with_note(note);
                if let Some(resource) = resource {
                    diagnostic.replace_with(
                        self.at(Site::Expr(id)),
                        &format!("`{resource}`"),
                        resource,
                    );
                }
            }
            if let Some(name) = &attr
                && is_length(name)
                && let Some((note, fix)) = self.length_function(id)
            {
                diagnostic = diagnostic.with_note(note);
                diagnostic.replace_with(self.at(Site::Expr(id)), &format!("`{fix}`"), fix);
            }
            let range_step = match (problem, &suggestion) {
                (TraverseProblem::UnknownProperty { asked, candidates }, None) => self
                    .range_variable_note(id, asked, candidates)
                    .or_else(|| self.stack_output_note(id, asked, candidates)),
                _ => None,
            };
            if let Some(s) = suggestion {
                diagnostic = diagnostic.with_note(format!("did you mean `{s}`?"));
                // `base.name`: the name after the dot can be replaced.
                if is_attr {
                    diagnostic = diagnostic.with_replacement(self.at(Site::AttrStep(id)), &s);
                }
            } else if let Some((note, fix)) = range_step {
                diagnostic = diagnostic.with_note(note);
                if let Some(fix) = fix {
                    diagnostic = diagnostic.with_replacement(self.at(Site::AttrStep(id)), fix);
                }
            }
            self.diagnostics.push(diagnostic);
        }
        step.ty
    }

    /// `"logs-{env}"`: another language's interpolation of a declared name, literal text
    /// in PCL (`${env}` inserts it). A warning, once per string.
    #[cold]
    fn literal_braces(&mut self, id: ExprId, text: &str) {
        let found = (shell_variables(text).chain(braced_paths(text)))
            .find(|(_, path, _)| self.declares(path.split('.').next().unwrap_or_default()));
        let Some((written, path, braced)) = found else {
            return;
        };
        let first = path.split('.').next().unwrap_or_default();
        let how = match braced {
            true => " (PCL interpolates with `${...}`, not braces alone)",
            false => "",
        };
        let diagnostic = self.push(
            codes::LITERAL_BRACES,
            Severity::Warning,
            Site::Expr(id),
            format!("`{written}` is literal text: PCL does not insert `{first}` here"),
        );
        diagnostic
            .notes
            .push(format!("to insert it, write `${{{path}}}`{how}"));
    }

    /// Whether `name` is a local (a `for` or `range` variable) or a declaration of the
    /// program (the body's bindings hold only the names it reads).
    fn declares(&self, name: &str) -> bool {
        let program = self.decl.program(self.db);
        self.locals.iter().any(|(n, _)| n == name)
            || crate::scope::declared_names(self.db, program).contains(name)
    }

    /// `zones.names.length` on a list: Go converts the name to a number unsafely, and the
    /// program fails where it is evaluated (a list's index is a number). Beyond Go.
    #[cold]
    fn named_list_step(&mut self, id: ExprId, receiver: Ty<'db>, name: &str) {
        let db = self.db;
        let plain = pcl_types::strip_input(db, resolve_outputs(db, receiver));
        // A list of values of unknown type (resources without a schema) may be meant
        // element by element: not judged.
        let is_list = |ty: Ty<'db>| matches!(ty.kind(db), TyKind::List(e) if !e.is_dynamic(db));
        let list = match plain.kind(db) {
            TyKind::Union(members) => members.iter().copied().all(is_list),
            _ => is_list(plain),
        };
        if !list || crate::constants::is_number_literal(name) {
            return;
        }
        let severity = self.lenient_beyond_go_severity();
        let message = format!("a list has no attribute `{name}`: its elements are numbered");
        let length = is_length(name).then(|| self.length_function(id)).flatten();
        let at = self.at(Site::Expr(id));
        let diagnostic = self.push(codes::INVALID_INDEX, severity, Site::Step(id), message);
        match length {
            Some((note, fix)) => {
                diagnostic.notes.push(note);
                diagnostic.replace_with(at, &format!("`{fix}`"), fix);
            }
            None => diagnostic.notes.push(
                "take an element by its index, `list[0]`, or each one with a `for` expression (Pulumi would fail to read a name as an index when it deploys)"
                    .to_owned(),
            ),
        }
    }

    /// `x.length` written for the number of elements: the note and the fix `length(x)`.
    #[cold]
    fn length_function(&self, id: ExprId) -> Option<(String, String)> {
        let Expr::GetAttr { base, .. } = self.body.expr(id) else {
            return None;
        };
        let fix = format!("length({})", crate::constants::path_text(self.body, *base)?);
        let note = format!("PCL counts elements (or characters) with a function: `{fix}`");
        Some((note, fix))
    }

    /// C#'s dictionary initializer, `["Name"] = "web"`: a key in brackets is a list in
    /// PCL. An error with the key alone as the fix; whether it was one.
    #[cold]
    fn bracketed_key(&mut self, key: ExprId) -> bool {
        let Expr::Tuple(items) = self.body.expr(key) else {
            return false;
        };
        let [item] = self.body.list(*items) else {
            return false;
        };
        let Some(name) = literal_key(self.body, self.body.expr(*item)) else {
            return false;
        };
        let fix = match pcl_syntax::is_identifier(&name) {
            true => name.into_owned(),
            false => format!("{name:?}"),
        };
        let message = format!("an object key in brackets is a list: write the key alone, `{fix}`");
        let at = self.at(Site::Expr(key));
        let diagnostic = self.push(
            codes::TYPE_MISMATCH,
            Severity::Error,
            Site::Expr(key),
            message,
        );
        diagnostic.replace_with(at, &format!("`{fix}`"), fix);
        true
    }

    /// `network.subnetIds` of a stack reference (whose attributes are `outputs`,
    /// `secretOutputNames`, ...): its outputs are read with `getOutput`.
    #[cold]
    fn stack_output_note(
        &self,
        id: ExprId,
        asked: &str,
        candidates: &[pcl_types::Name],
    ) -> Option<(String, Option<&'static str>)> {
        let is_reference = ["outputs", "secretOutputNames"]
            .iter()
            .all(|name| candidates.iter().any(|c| &**c == *name));
        let Expr::GetAttr { base, .. } = self.body.expr(id) else {
            return None;
        };
        if !is_reference {
            return None;
        }
        let reference = crate::constants::path_text(self.body, *base)?;
        let note = format!(
            "a stack reference's outputs are read with `getOutput({reference}, \"{asked}\")`"
        );
        Some((note, None))
    }

    /// `range.index`, `range.count`: what the `range` variable has, and the attribute
    /// meant for an index (`value` counting over a number, `key` over a list).
    #[cold]
    fn range_variable_note(
        &self,
        id: ExprId,
        asked: &str,
        candidates: &[pcl_types::Name],
    ) -> Option<(String, Option<&'static str>)> {
        let Expr::GetAttr { base, .. } = self.body.expr(id) else {
            return None;
        };
        let Expr::Name(name) = self.body.expr(*base) else {
            return None;
        };
        if self.body.str(*name) != "range" || !self.sets_range() {
            return None;
        }
        let over_collection = candidates.iter().any(|c| &**c == "key");
        // An index asked for by another name (not a count: `range.count` has none).
        let index = matches!(asked, "index" | "idx" | "i" | "number");
        Some(match over_collection {
            false => (
                "a `range` over a number counts with `range.value`, from 0 (Terraform's `count.index`)".to_owned(),
                index.then_some("value"),
            ),
            true => (
                "a `range` over a list or map has `range.key` (a list element's index, from 0, or a map key) and `range.value` (the element)".to_owned(),
                index.then_some("key"),
            ),
        })
    }

    /// Why `value[0]` finds nothing when `value` is one object: a resource is one (a
    /// resource whose `range` is a condition is one or none), not a list. With the
    /// resource's name, to write instead of `value[0]`, for a resource without a `range`.
    #[cold]
    fn numbered_object_note(&self, id: ExprId) -> (String, Option<String>) {
        let db = self.db;
        if let Expr::Index { base, key } = self.body.expr(id)
            && let Some((decl, name)) = self.named_resources(*base)
        {
            if crate::items::decl_item(db, decl).is_some_and(|item| item.ranged) {
                let note = format!(
                    "`{name}`'s `range` is a condition: it makes one resource or none, not a list; take its attributes directly, such as `{name}.id`"
                );
                return (note, None);
            }
            let note = format!(
                "`{name}` is one resource (it has no `range`), not a list: take its attributes directly, such as `{name}.id`"
            );
            let first = matches!(self.body.expr(*key),
                Expr::Number(n) if matches!(self.body.number(*n), Number::Small { mantissa: 0, .. }));
            return (note, first.then(|| name.to_owned()));
        }
        let note = "a number indexes a list or tuple, and this value is one object".to_owned();
        (note, None)
    }

    /// `collection[key]` with a key that is not a literal, as Go's `IndexExpression`
    /// types it: the key converts to the collection's key type (`int` for lists and
    /// tuples, `string` for maps and objects), and the result is the element type (the
    /// safe unification of a tuple's elements or an object's properties), re-wrapped in
    /// the collection's eventuals and lifted by the key's.
    fn index(
        &mut self,
        collection: ExprId,
        key: ExprId,
        collection_ty: Ty<'db>,
        key_ty: Ty<'db>,
    ) -> Ty<'db> {
        let db = self.db;
        let (key_type, element) = self.collection_types(collection, collection_ty);
        if crate::constants::primitive_kind(db, key_type) == Some("number") {
            self.range_value_as_index(key, key_ty);
        }
        if !key_type.is_dynamic(db) {
            let what = crate::diagnostics::Described(|| {
                format!(
                    "an index of {}",
                    pretty(db, unwrap_iterable(db, collection_ty))
                )
            });
            self.expect(key, input_type(db, key_type), &what);
        }
        lift(db, wrap_iterable(db, collection_ty, element), &[key_ty])
    }

    /// `names[range.value]` where `range` runs over a list: Terraform's `count.index`
    /// carried over, but `range.value` is the element, not its position (`range.key`).
    /// Go converts a string index unsafely, and the converted program fails (TypeScript
    /// does not compile, Python raises a `TypeError`): an error beyond Go when the
    /// element is a string.
    fn range_value_as_index(&mut self, key: ExprId, key_ty: Ty<'db>) {
        let db = self.db;
        let body = self.body;
        let Expr::GetAttr { base, name } = body.expr(key) else {
            return;
        };
        let reads_range = matches!(body.expr(*base), Expr::Name(n) if body.str(*n) == "range");
        let Some(&(_, range)) = self.locals.iter().rev().find(|(name, _)| name == "range") else {
            return;
        };
        let position = pcl_types::traverse(db, range, TraverseKey::Attr("key".into())).ty;
        if !reads_range
            || body.str(*name) != "value"
            || crate::constants::primitive_kind(db, position) != Some("number")
            || crate::constants::primitive_kind(db, key_ty) != Some("string")
        {
            return;
        }
        let severity = self.beyond_go_severity();
        let at = self.at(Site::Expr(key));
        let message =
            "`range.value` is the element of the list being ranged over, a string, not its index"
                .to_owned();
        let diagnostic = self.push(codes::TYPE_MISMATCH, severity, Site::Expr(key), message);
        diagnostic.notes.push(
            "the index of the element is `range.key` (as Terraform's `count.index`)".to_owned(),
        );
        diagnostic.replace_with(at, "`range.key`", "range.key".to_owned());
    }

    /// A `for` expression: a list, or with a key a map (of lists when grouped), lifted by
    /// the collection and by the key and condition.
    fn for_expr(&mut self, id: ExprId, for_expr: &ForExpr) -> Ty<'db> {
        let db = self.db;
        let collection_ty = self.expr(for_expr.collection);
        self.check_single_resource_iterated(for_expr.collection);
        let (key_ty, value_ty) = self.collection_types(for_expr.collection, collection_ty);
        let body = self.body;
        let value_var = body.str(for_expr.value_var);
        if for_expr.key_var.map(|k| body.str(k)) == Some(value_var) {
            self.report(
                codes::DUPLICATE_DECLARATION,
                Site::Expr(id),
                format!("the `for` variable `{value_var}` is declared twice"),
            );
        }
        let pushed = usize::from(for_expr.key_var.is_some()) + 1;
        if let Some(k) = for_expr.key_var.map(|k| body.str(k)) {
            self.locals.push((SmolStr::new(k), key_ty));
        }
        self.locals.push((SmolStr::new(value_var), value_ty));
        let mut lifts = Vec::new();
        let result = match for_expr.key {
            Some(key) => {
                let k = self.expr(key);
                self.expect(key, input_type(db, Ty::string(db)), &"an object key");
                lifts.push(k);
                let v = self.expr(for_expr.value);
                let element = if for_expr.grouped { Ty::list(db, v) } else { v };
                Ty::map(db, element)
            }
            None => {
                let v = self.expr(for_expr.value);
                Ty::list(db, v)
            }
        };
        if let Some(cond) = for_expr.cond {
            let c = self.expr(cond);
            self.expect(cond, input_type(db, Ty::bool(db)), &"a `for` condition");
            lifts.push(c);
        }
        self.locals.truncate(self.locals.len() - pushed);
        lift(db, wrap_iterable(db, collection_ty, result), &lifts)
    }

    /// The key and value types of iterating over a value of type `ty` (§3.5).
    pub(crate) fn collection_types(&mut self, at: ExprId, ty: Ty<'db>) -> (Ty<'db>, Ty<'db>) {
        let db = self.db;
        // A member of unknown type (from an error reported where it was made, such as a
        // misspelt function) may be the collection: not an error of its own.
        let has_dynamic = |ty: Ty<'db>| match ty.kind(db) {
            TyKind::Union(members) => members.iter().any(|m| m.is_dynamic(db)),
            _ => false,
        };
        match collection_types(db, ty) {
            Some(types) => types,
            None if has_dynamic(ty) => (self.dynamic(), self.dynamic()),
            None => {
                let message = format!("cannot iterate over a value of type {}", pretty(db, ty));
                let severity = match self.leniency.skip_range_typecheck {
                    true => Severity::Warning,
                    false => self.severity(),
                };
                self.push(codes::NOT_ITERABLE, severity, Site::Expr(at), message)
                    .notes
                    .push("iterate over a list, a map, a tuple or an object".to_owned());
                (self.dynamic(), self.dynamic())
            }
        }
    }

    /// Check that the value of `id` (already typed) converts to `expected`; the message
    /// calls the place `what` ("an operand", "input 'size'").
    pub(crate) fn expect(&mut self, id: ExprId, expected: Ty<'db>, what: &dyn Display) -> bool {
        let db = self.db;
        let actual = self.ty_of(id);
        if conversion(db, expected, actual).exists() {
            return true;
        }
        let _ = self.mismatch(id, expected, actual, what);
        false
    }

    /// Report that the value of `id` does not convert to `expected`, with a label at the
    /// declaration the value comes from, when it is a reference. The element type when the
    /// value is an object literal for a list of such objects ([`Infer::object_for_a_list`]).
    fn mismatch(
        &mut self,
        id: ExprId,
        expected: Ty<'db>,
        actual: Ty<'db>,
        what: &dyn Display,
    ) -> Option<Ty<'db>> {
        let db = self.db;
        let is_resource = matches!(
            resolve_outputs(db, actual).kind(db),
            TyKind::Object(properties) if properties.iter().any(|(n, _)| &**n == "urn")
        );
        let actual_text = match is_resource {
            true => "a resource".to_owned(),
            false => pretty(db, actual),
        };
        let message = format!(
            "{what} must be {}, not {actual_text}",
            pretty(db, displayed_input(db, expected)),
        );
        let mut root = id;
        while let Expr::GetAttr { base, .. } | Expr::Index { base, .. } = self.body.expr(root) {
            root = *base;
        }
        let source = self.named_declaration(root);
        // One value where a list of them is expected: the fix wraps it in `[ ]` (an object
        // literal for a list of objects, whose fields are checked on their own).
        let element = self.object_for_a_list(id, expected);
        // Arithmetic made the value a number (`groups + ["sg"]`, which its operands'
        // errors explain): no list was meant to hold it.
        let arithmetic = matches!(self.body.expr(id), Expr::Binary { .. });
        // A literal goes in a list of its own kind only: `"x"` in a list of numbers would
        // be refused as an element, and in a list of anything (`dependsOn`) is no resource.
        let literal = matches!(
            self.body.expr(id),
            Expr::String(_) | Expr::Number(_) | Expr::Bool(_) | Expr::Template(_)
        );
        let fits_as_element =
            |element: Ty<'db>| match conversion(db, input_type(db, element), actual) {
                pcl_types::Conversion::Safe => {
                    !(literal && matches!(element.kind(db), TyKind::Dynamic))
                }
                pcl_types::Conversion::Unsafe => !literal,
                pcl_types::Conversion::None => false,
            };
        let wraps = element.is_some()
            || !arithmetic
                && pcl_types::plain_alternatives(db, expected).any(|alternative| {
                    matches!(alternative.kind(db), TyKind::List(e) | TyKind::Set(e)
                        if fits_as_element(*e))
                });
        // A resource's name quoted where a list of resources goes (`dependsOn = "site"`).
        let quoted_resource = match (wraps, self.body.expr(id)) {
            (false, Expr::String(text)) => {
                let text = self.body.str(*text);
                let takes_a_list = pcl_types::plain_alternatives(db, expected)
                    .any(|alternative| matches!(alternative.kind(db), TyKind::List(_)));
                let names_a_resource = matches!(
                    self.declared_kind(text),
                    Some(DeclKind::Resource | DeclKind::Read | DeclKind::Component)
                );
                (takes_a_list && names_a_resource).then(|| text.to_owned())
            }
            _ => None,
        };
        let at = self.at(Site::Expr(id));
        let entries_note = match wraps {
            true => None,
            false => self.name_value_entries_note(id, expected),
        };
        // A resource where one of its values is meant (`bucket = site`): its `id`.
        let resource_id = match (is_resource, self.body.expr(id)) {
            (true, Expr::Name(name)) if !wraps => {
                let wants_text = pcl_types::plain_alternatives(db, expected)
                    .any(|alternative| matches!(alternative.kind(db), TyKind::String | TyKind::Id));
                wants_text.then(|| format!("{}.id", self.body.str(*name)))
            }
            _ => None,
        };
        // A literal text of several values (`"a,b"`, `"nginx -g x"`): a list of one
        // element would pass, and may deploy the wrong thing.
        let literal_text = match self.body.expr(id) {
            Expr::String(text) if wraps => text_for_list(self.body.str(*text)),
            _ => TextForList::One,
        };
        // A config or local whose text holds values separated by commas alone
        // (`default = "a,b"`): `split` makes them a list.
        let split = match (wraps, source) {
            (true, Some((decl, name))) if root == id => self.declared_text(decl).and_then(|text| {
                let bare_commas = !text.contains(", ");
                let commas = matches!(text_for_list(&text), TextForList::Commas(_));
                (commas && bare_commas).then(|| format!("split(\",\", {name})"))
            }),
            _ => None,
        };
        // One value in `[ ]` where that value goes (`metadata = [{ name = "x" }]`).
        let only_element = match self.body.expr(id) {
            Expr::Tuple(elements) if !wraps => match self.body.list(*elements) {
                &[element] => {
                    let element_ty = self.ty_of(element);
                    let fits = conversion(db, expected, element_ty) == pcl_types::Conversion::Safe;
                    fits.then_some(element)
                }
                _ => None,
            },
            _ => None,
        };
        let only_element = only_element.map(|element| self.at(Site::Expr(element)));
        let diagnostic = self.report(codes::TYPE_MISMATCH, Site::Expr(id), message);
        diagnostic.notes.extend(entries_note);
        if let Some(element) = only_element {
            diagnostic
                .notes
                .push("one value is expected here, not a list: remove the `[ ]`".to_owned());
            diagnostic.fixes.push(crate::diagnostics::SemaFix {
                message: "remove the `[ ]`".to_owned(),
                at,
                replacement: String::new(),
                after: None,
                closing: None,
                keep: Some(element),
            });
        }
        if let Some(fix) = resource_id {
            diagnostic.notes.push(format!(
                "a resource is no value of its own here: use one of its attributes, such as `{fix}`"
            ));
            diagnostic.replace_with(at, &format!("`{fix}`"), fix);
        }
        if let Some((decl, name)) = source {
            let label = format!("`{name}` is declared here");
            diagnostic
                .labels
                .push((Located::new(decl, Site::Name), label));
        }
        if let Some(name) = quoted_resource {
            diagnostic.notes.push(format!(
                "a resource is named without quotes, in a list: `[{name}]`"
            ));
            diagnostic.replace_with(at, &format!("`[{name}]`"), format!("[{name}]"));
        }
        // Which values the text holds is for the writer to say: with two fixes, neither
        // is preferred.
        let wrap = crate::diagnostics::SemaFix::wrap_in_brackets(at);
        match literal_text {
            _ if let Some(split) = split => {
                diagnostic.notes.push(format!(
                    "a list is expected here, and its text holds values separated by commas: `{split}` makes them a list; or write the value in `[ ]`"
                ));
                diagnostic.replace_with(at, &format!("`{split}`"), split.clone());
                diagnostic.fixes.push(wrap);
            }
            TextForList::Commas(elements) => {
                let list = format!("[{}]", elements.join(", "));
                diagnostic.notes.push(format!(
                    "a list is expected here: each value an element of its own, such as `{list}`, or the text one element"
                ));
                diagnostic.replace_with(at, &format!("`{list}`"), list.clone());
                diagnostic.fixes.push(wrap);
            }
            TextForList::Blanks => diagnostic.notes.push(
                "a list is expected here: write each value as an element of its own (`[\"first\", \"second\"]`), or the text as one (`[\"...\"]`)"
                    .to_owned(),
            ),
            TextForList::One if wraps => {
                diagnostic
                    .notes
                    .push("a list is expected here: write the value in `[ ]`".to_owned());
                diagnostic.fixes.push(wrap);
            }
            TextForList::One => {}
        }
        element
    }

    /// `env = { FOO = "bar" }` where a list of `{ name, value }` (or `{ key, value }`)
    /// objects is expected (Kubernetes' `env`, ECS' `environment`, tags as entries): how to
    /// write the entries.
    #[cold]
    fn name_value_entries_note(&self, id: ExprId, expected: Ty<'db>) -> Option<String> {
        let db = self.db;
        let Expr::Object(items) = self.body.expr(id) else {
            return None;
        };
        let &[key, value] = self.body.pairs(*items).first()?;
        let key = literal_key(self.body, self.body.expr(key))?;
        // The element's field for the key: `name` (Kubernetes' `env`) or `key` (tags as
        // `{ key, value }` entries).
        let key_field = list_element_objects(db, expected).find_map(|(_, properties)| {
            let has = |field: &str| properties.iter().any(|(n, _)| &**n == field);
            let key_field = ["name", "key"].into_iter().find(|field| has(field))?;
            has("value").then_some(key_field)
        })?;
        let value = match self.body.expr(value) {
            Expr::String(text) => format!("{:?}", self.body.str(*text)),
            _ => "...".to_owned(),
        };
        Some(format!(
            "a list of entries is expected here, each an object with `{key_field}` and `value`: write `[{{ {key_field} = \"{key}\", value = {value} }}, ...]`"
        ))
    }

    /// The type a schema property's value is checked against: under
    /// `--allow-missing-properties` also `none`, as Go's `AllowMissingProperties` makes
    /// every property optional (`null` for a required one is as good as leaving it out).
    pub(crate) fn property_type(&self, ty: Ty<'db>) -> Ty<'db> {
        match self.leniency.allow_missing_properties {
            true => Ty::optional(self.db, ty),
            false => ty,
        }
    }

    /// Check a value against the type of the place it is assigned to, field by field
    /// through object, tuple and map literals, so the error points at the field.
    pub(crate) fn check_value(
        &mut self,
        id: ExprId,
        expected: Ty<'db>,
        what: &dyn Display,
    ) -> bool {
        let db = self.db;
        if expected.is_dynamic(db) {
            return true;
        }
        let body = self.body;
        // `expr_to_check` went into it before, against the same type.
        let remembered = self.descents.get_mut(id.0 as usize).and_then(Option::take);
        let descent = match remembered {
            Some((against, descent)) if against == expected => descent,
            _ => self.descent(id, expected),
        };
        match (descent, body.expr(id)) {
            (Descent::Fields(fields), Expr::Object(items)) => {
                return self.check_object_fields(id, body.pairs(*items), fields, what);
            }
            (Descent::Elements(element), Expr::Object(items)) => {
                let mut ok = true;
                for &[key, value] in body.pairs(*items) {
                    let key_name = literal_key(body, body.expr(key)).unwrap_or_default();
                    ok &= self.check_value(
                        value,
                        element,
                        &format_args!("key '{key_name}' of {what}"),
                    );
                }
                return ok;
            }
            (Descent::Elements(element), Expr::Tuple(elements)) => {
                let mut ok = true;
                for (i, &e) in body.list(*elements).iter().enumerate() {
                    let element = self.element_member(id, e).unwrap_or(element);
                    ok &= self.check_value(e, element, &format_args!("element {i} of {what}"));
                }
                return ok;
            }
            _ => {}
        }
        let Some(actual) = self.type_to_check(id, expected) else {
            return true;
        };
        if converts(db, expected, actual) {
            self.check_constant(id, expected, what);
            self.check_branches(id, expected, actual, what);
            return true;
        }
        // `containers = { ... }` for a list of objects: the object is checked as the
        // element it will be once wrapped, so its own mistakes show in the same run.
        if let Some(element) = self.mismatch(id, expected, actual, what) {
            self.check_value(id, element, &format_args!("element 0 of {what}"));
        }
        false
    }

    /// The element type, when `id` is an object literal and `expected` a list or set of
    /// objects of which the literal names a property (or one close to its keys: a map
    /// of entries, `env = { FOO = "bar" }`, is no such element).
    fn object_for_a_list(&self, id: ExprId, expected: Ty<'db>) -> Option<Ty<'db>> {
        let db = self.db;
        let Expr::Object(items) = self.body.expr(id) else {
            return None;
        };
        let keys: Vec<&str> = (self.body.pairs(*items).iter())
            .filter_map(|&[key, _]| match self.body.expr(key) {
                Expr::String(key) => Some(self.body.str(*key)),
                _ => None,
            })
            .collect();
        let fits = |properties: &[(pcl_types::Name, Ty<'db>)]| {
            let names = || properties.iter().map(|(n, _)| &**n);
            (keys.iter()).any(|key| {
                names().any(|n| n == *key) || pcl_types::closest_name(key, names()).is_some()
            })
        };
        list_element_objects(db, expected)
            .find(|(_, properties)| fits(properties))
            .map(|(element, _)| element)
    }

    /// The branches of a conditional (nested ones too) judged against `expected`, as the
    /// value itself would be: `length = long ? 32 : "short"` converts (one branch does)
    /// and fails at deploy when the other is taken. Beyond Go: a branch whose type does
    /// not convert at all (`long ? ["a"] : { a = "b" }` for a list), and each constant
    /// branch as a constant.
    fn check_branches(
        &mut self,
        id: ExprId,
        expected: Ty<'db>,
        actual: Ty<'db>,
        what: &dyn Display,
    ) {
        if !matches!(self.body.expr(id), Expr::Conditional { .. }) {
            return;
        }
        let db = self.db;
        // Branches of different types make a union, which converts safely when each
        // branch does; most types refuse no constant (a string takes any). Nothing to
        // walk then.
        let plain = match actual.kind(db) {
            TyKind::Output(inner) | TyKind::Promise(inner) => *inner,
            _ => actual,
        };
        let judge_types = matches!(plain.kind(db), TyKind::Union(_))
            && conversion(db, expected, actual) != pcl_types::Conversion::Safe;
        if !judge_types && !crate::constants::may_refuse_a_constant(db, expected) {
            return;
        }
        let mut branches = vec![id];
        while let Some(branch) = branches.pop() {
            match self.body.expr(branch) {
                Expr::Conditional {
                    then, otherwise, ..
                } => branches.extend([*otherwise, *then]),
                // `null` leaves the input or option unset.
                _ if branch == id || matches!(self.body.expr(branch), Expr::Null) => {}
                _ if judge_types && !converts(db, expected, self.ty_of(branch)) => {
                    self.branch_mismatch(branch, expected, what);
                }
                _ => self.check_constant(branch, expected, what),
            }
        }
    }

    /// Report a conditional's branch whose type does not convert to `expected`.
    fn branch_mismatch(&mut self, branch: ExprId, expected: Ty<'db>, what: &dyn Display) {
        let db = self.db;
        let message = format!(
            "{what} must be {}, but this branch of the conditional is {}",
            pretty(db, displayed_input(db, expected)),
            pretty(db, self.ty_of(branch)),
        );
        let severity = self.lenient_beyond_go_severity();
        self.push(codes::TYPE_MISMATCH, severity, Site::Expr(branch), message)
            .notes
            .push(
                "another branch fits, so Pulumi's binder takes the conditional, but the deploy fails when this branch is taken"
                    .to_owned(),
            );
    }

    /// How `check_value` goes into a literal to check it against `expected`: an object
    /// with literal keys field by field (an object type expected) or value by value (a
    /// map), a tuple element by element (a list or set); anything else whole.
    pub(crate) fn descent(&self, id: ExprId, expected: Ty<'db>) -> Descent<'db> {
        let db = self.db;
        let found = match self.body.expr(id) {
            Expr::Object(items)
                if (self.body.pairs(*items).iter())
                    .all(|[k, _]| self.body.expr(*k).is_literal()) =>
            {
                literal_target_fields(db, expected)
                    .map(Descent::Fields)
                    .or_else(|| {
                        pcl_types::literal_element_target(db, expected, true).map(Descent::Elements)
                    })
            }
            Expr::Tuple(_) => {
                pcl_types::literal_element_target(db, expected, false).map(Descent::Elements)
            }
            _ => None,
        };
        found.unwrap_or(Descent::Whole)
    }

    /// Go drops an unknown property silently: an error beyond Go, demoted as the value
    /// checks are and by `--allow-missing-properties`.
    fn unknown_property_severity(&self) -> Severity {
        match self.lenient || self.demote_value_checks || self.leniency.allow_missing_properties {
            true => Severity::Warning,
            false => self.beyond_go_severity(),
        }
    }

    /// An object of two or more keys none of which is a property of the object type
    /// expected, nor close to one (a map written where an object type goes): one
    /// diagnostic at the object, not one per key and then one per required property.
    fn no_key_fits(
        &mut self,
        id: ExprId,
        items: &'db [[ExprId; 2]],
        fields: &'db [(pcl_types::Name, Ty<'db>)],
        what: &dyn Display,
    ) -> bool {
        let names = || fields.iter().map(|(n, _)| &**n);
        let keys: Vec<_> = (items.iter())
            .filter_map(|[key, _]| literal_key(self.body, self.body.expr(*key)))
            .collect();
        let fits = |key: &str| {
            names().any(|n| n == key) || pcl_types::closest_name(key, names()).is_some()
        };
        if keys.len() < 2 || keys.iter().any(|key| fits(key)) {
            return false;
        }
        let severity = self.unknown_property_severity();
        let taken: Vec<&str> = names().take(8).collect();
        let more = if fields.len() > taken.len() {
            ", ..."
        } else {
            ""
        };
        let message = format!("none of this object's keys is a property of {what}");
        let diagnostic = self.push(codes::UNKNOWN_PROPERTY, severity, Site::Expr(id), message);
        diagnostic.notes.push(match taken.is_empty() {
            true => "it has no properties".to_owned(),
            false => format!("its properties are: {}{more}", taken.join(", ")),
        });
        diagnostic
            .notes
            .push("Pulumi would drop these values without a word".to_owned());
        true
    }

    fn check_object_fields(
        &mut self,
        id: ExprId,
        items: &'db [[ExprId; 2]],
        fields: &'db [(pcl_types::Name, Ty<'db>)],
        what: &dyn Display,
    ) -> bool {
        let db = self.db;
        if self.no_key_fits(id, items, fields, what) {
            return false;
        }
        let mut ok = true;
        let mut given = Vec::new();
        for &[key, value] in items {
            let Some(name) = literal_key(self.body, self.body.expr(key)) else {
                continue;
            };
            given.push(name.clone());
            match fields.iter().find(|(n, _)| **n == *name) {
                Some((_, ty)) => {
                    let ty = self.property_type(*ty);
                    let kind = match self.invoke_arguments == Some(id) {
                        true => "argument",
                        false => "property",
                    };
                    ok &= self.check_value(value, ty, &format_args!("{kind} '{name}'"));
                }
                None => {
                    let names = fields.iter().map(|(n, _)| &**n);
                    let suggestion = pcl_types::closest_name(&name, names).map(str::to_owned);
                    let message = format!("'{name}' is not a property of {what}");
                    let at = self.at(Site::Expr(key));
                    let severity = self.unknown_property_severity();
                    let diagnostic =
                        self.push(codes::UNKNOWN_PROPERTY, severity, Site::Expr(key), message);
                    match suggestion {
                        Some(s) => {
                            diagnostic.notes.push(format!("did you mean '{s}'?"));
                            diagnostic.replace_with(at, &format!("`{s}`"), s);
                        }
                        None => {
                            let all: Vec<&str> = fields.iter().map(|(n, _)| &**n).collect();
                            let fields = fields.iter().map(|(n, t)| (&**n, *t));
                            let note = crate::misplaced::misplaced_property_note(db, fields, &name)
                                .unwrap_or_else(|| {
                                    "Pulumi would drop its value without a word".to_owned()
                                });
                            diagnostic.notes.push(note);
                            // A few fields (`customTimeouts`' create, update, delete): named.
                            if (2..=8).contains(&all.len()) {
                                diagnostic
                                    .notes
                                    .push(format!("its properties are {}", all.join(", ")));
                            }
                        }
                    }
                }
            }
        }
        // A field given under a misspelt name is reported as that (one error per cause).
        let names = || fields.iter().map(|(n, _)| &**n);
        let misspelt: Vec<&str> = match ok_names_all_known(&given, fields) {
            true => Vec::new(),
            false => (given.iter())
                .filter(|g| !names().any(|n| n == g.as_ref()))
                .filter_map(|g| pcl_types::closest_name(g, names()))
                .collect(),
        };
        for (name, ty) in fields {
            if given.iter().any(|g| *g == **name)
                || accepts_none(db, *ty)
                || self.leniency.allow_missing_properties
                || misspelt.contains(&&**name)
            {
                continue;
            }
            ok = false;
            let message = format!("{what} lacks the required property '{name}'");
            let note = format!("add `{name} = <{}>`", pretty(db, displayed_input(db, *ty)));
            // The fix writes it first in the object, with a value of its type.
            let value = crate::resources::placeholder(db, pcl_types::strip_input(db, *ty));
            let key = crate::resources::object_key(name);
            let at = self.at(Site::ObjectOpen(id));
            let diagnostic = self.report(codes::MISSING_ATTRIBUTE, Site::Expr(id), message);
            diagnostic.notes.push(note);
            diagnostic.fixes.push(crate::diagnostics::SemaFix {
                message: format!("add the property `{name}`"),
                at,
                replacement: format!("{{ {key} = {value},"),
                after: None,
                closing: None,
                keep: None,
            });
        }
        ok
    }
}

/// The object types a list or set in `expected` takes as elements: each element type with
/// its properties (for messages about a value given where such a list is expected).
pub(crate) fn list_element_objects<'db>(
    db: &'db dyn pcl_types::Db,
    expected: Ty<'db>,
) -> impl Iterator<Item = (Ty<'db>, &'db [(pcl_types::Name, Ty<'db>)])> {
    pcl_types::plain_alternatives(db, expected)
        .filter_map(move |alternative| match alternative.kind(db) {
            TyKind::List(element) | TyKind::Set(element) => Some(*element),
            _ => None,
        })
        .flat_map(move |element| {
            pcl_types::plain_alternatives(db, element).filter_map(move |alternative| {
                Some((element, pcl_types::object_properties(db, alternative)?))
            })
        })
}

/// How a literal is checked against an expected type ([`Infer::descent`]).
#[derive(Clone, Copy)]
pub(crate) enum Descent<'db> {
    Fields(&'db [(pcl_types::Name, Ty<'db>)]),
    Elements(Ty<'db>),
    Whole,
}

/// Whether every name in `given` is a field (then nothing is misspelt).
fn ok_names_all_known(given: &[Cow<'_, str>], fields: &[(pcl_types::Name, Ty<'_>)]) -> bool {
    given.iter().all(|g| fields.iter().any(|(n, _)| **n == **g))
}

/// Whether a value of type `actual` may be assigned where `expected` is. A schema
/// reference to a resource (`$ref: "#/resources/tok"`) is typed as that resource's plain
/// outputs, while a resource value has them as outputs: the reference accepts it (as
/// Pulumi does).
pub(crate) fn converts<'db>(
    db: &'db dyn pcl_types::Db,
    expected: Ty<'db>,
    actual: Ty<'db>,
) -> bool {
    conversion(db, expected, actual).exists()
        || (mentions_resource_reference(db, expected)
            && conversion(db, expected, resolve_outputs(db, actual)).exists())
}

fn mentions_resource_reference<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>) -> bool {
    match ty.kind(db) {
        TyKind::Named(object) => object.token(db).starts_with("#/resources/"),
        TyKind::Union(members) => members.iter().any(|m| mentions_resource_reference(db, *m)),
        TyKind::List(e)
        | TyKind::Map(e)
        | TyKind::Set(e)
        | TyKind::Output(e)
        | TyKind::Promise(e) => mentions_resource_reference(db, *e),
        _ => false,
    }
}

/// Whether a value may be left out where `ty` is expected.
pub(crate) fn accepts_none<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>) -> bool {
    match ty.kind(db) {
        TyKind::Const(..) | TyKind::Dynamic => true,
        _ => conversion(db, ty, Ty::none(db)) == pcl_types::Conversion::Safe,
    }
}

/// The object fields a literal assigned to `expected` is checked against: the one
/// object type among `expected`'s plain alternatives (not counting eventuals).
pub(crate) fn literal_target_fields<'db>(
    db: &'db dyn pcl_types::Db,
    expected: Ty<'db>,
) -> Option<&'db [(pcl_types::Name, Ty<'db>)]> {
    pcl_types::literal_object_target(db, expected)
        .and_then(|object| pcl_types::object_properties(db, object))
}

/// Whether `expr` is a literal that may not fit an operand or condition of numbers
/// (`wants_bool`: of bools): a number fits numbers and a bool bools at a glance, and
/// anything but a literal is not judged (see `check_operand`).
fn may_misfit(expr: &Expr, wants_bool: bool) -> bool {
    match expr {
        Expr::Number(_) => wants_bool,
        Expr::Bool(_) => !wants_bool,
        Expr::String(_) => true,
        _ => false,
    }
}

/// How a literal text given where a list goes reads.
enum TextForList {
    /// One value.
    One,
    /// Values separated by commas, as literals to write (`"a, b"`: `"a"`, `"b"`).
    Commas(Vec<String>),
    /// Words separated by blanks (`"nginx -g 'daemon off;'"`), where which words make
    /// one value is for the writer to say.
    Blanks,
}

/// How `text`, given where a list goes, reads.
fn text_for_list(text: &str) -> TextForList {
    let text = text.trim();
    if text.contains(',') {
        let elements: Vec<String> = (text.split(','))
            .map(str::trim)
            .filter(|element| !element.is_empty())
            .map(crate::constants::string_literal)
            .collect();
        if elements.len() > 1 {
            return TextForList::Commas(elements);
        }
    }
    match text.contains(char::is_whitespace) {
        true => TextForList::Blanks,
        false => TextForList::One,
    }
}

/// A literal object key of `body` as text (`"a"`, `1`, `true`); a string key without
/// allocating.
pub(crate) fn literal_key<'b>(body: &'b Body, expr: &Expr) -> Option<Cow<'b, str>> {
    match expr {
        Expr::String(s) => Some(Cow::Borrowed(body.str(*s))),
        other => literal_value(body, other)?.to_key_string().map(Cow::Owned),
    }
}

/// Whether `name` reads as an environment variable (`HOME`, `AWS_REGION`): capitals,
/// digits and underscores, starting with a capital.
fn is_environment_name(name: &str) -> bool {
    name.len() > 1
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The value of a literal expression of `body`.
pub(crate) fn literal_value(body: &Body, expr: &Expr) -> Option<ConstValue> {
    Some(match expr {
        Expr::Null => ConstValue::Null,
        Expr::Bool(b) => ConstValue::Bool(*b),
        Expr::Number(n) => ConstValue::Number(body.number(*n).value()),
        Expr::String(s) => ConstValue::String(SmolStr::new(body.str(*s))),
        _ => return None,
    })
}

/// Which eventual, if any, a type contains anywhere: outputs beat promises.
pub(crate) fn eventual_of<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>) -> Option<bool> {
    let resolved = resolve_outputs(db, ty);
    if resolved == ty {
        return None;
    }
    // `resolve_promises` leaves outputs alone: if it already resolves everything,
    // there were only promises.
    Some(resolve_promises(db, ty) != resolved)
}

/// `R` lifted by the strongest eventual inside any of `types` (§2.8).
pub(crate) fn lift<'db>(db: &'db dyn pcl_types::Db, result: Ty<'db>, types: &[Ty<'db>]) -> Ty<'db> {
    let mut output = false;
    let mut promise = false;
    for &t in types {
        match eventual_of(db, t) {
            Some(true) => output = true,
            Some(false) => promise = true,
            None => {}
        }
    }
    if output {
        Ty::output(db, result)
    } else if promise {
        Ty::promise(db, result)
    } else {
        result
    }
}

/// Whether every argument is assignable (§3.8): calls are lifted only otherwise.
pub(crate) fn all_assignable<'db>(
    db: &'db dyn pcl_types::Db,
    pairs: &[(Ty<'db>, Ty<'db>)],
) -> bool {
    pairs.iter().all(|&(dest, src)| assignable(db, dest, src))
}

/// Strip outputs, promises and two-member optionals from the top of a type.
pub(crate) fn unwrap_iterable<'db>(db: &'db dyn pcl_types::Db, mut ty: Ty<'db>) -> Ty<'db> {
    loop {
        ty = match ty.kind(db) {
            TyKind::Output(e) | TyKind::Promise(e) => *e,
            TyKind::Union(members)
                if members.len() == 2 && members.iter().any(|m| m.is_none(db)) =>
            {
                match members.iter().find(|m| !m.is_none(db)) {
                    Some(m) => *m,
                    None => return ty,
                }
            }
            _ => return ty,
        }
    }
}

/// Re-apply the `output`/`promise` wrappers at the top of `source` to `result`.
pub(crate) fn wrap_iterable<'db>(
    db: &'db dyn pcl_types::Db,
    source: Ty<'db>,
    result: Ty<'db>,
) -> Ty<'db> {
    match source.kind(db) {
        TyKind::Output(e) => Ty::output(db, wrap_iterable(db, *e, result)),
        TyKind::Promise(e) => Ty::promise(db, wrap_iterable(db, *e, result)),
        TyKind::Union(members) if members.len() == 2 && members.iter().any(|m| m.is_none(db)) => {
            match members.iter().find(|m| !m.is_none(db)) {
                Some(m) => wrap_iterable(db, *m, result),
                None => result,
            }
        }
        _ => result,
    }
}

/// The key and value types of iterating a collection (§3.5); `None` when the type is
/// not iterable.
pub(crate) fn collection_types<'db>(
    db: &'db dyn pcl_types::Db,
    ty: Ty<'db>,
) -> Option<(Ty<'db>, Ty<'db>)> {
    let unwrapped = unwrap_iterable(db, ty);
    Some(match unwrapped.kind(db) {
        TyKind::List(e) => (Ty::int(db), *e),
        TyKind::Map(e) => (Ty::string(db), *e),
        TyKind::Tuple(elements) => (Ty::int(db), unify_types(db, elements.iter().copied()).0),
        TyKind::Object(_) | TyKind::Named(_) => {
            let fields = pcl_types::object_properties(db, unwrapped).unwrap_or_default();
            (
                Ty::string(db),
                unify_types(db, fields.iter().map(|(_, t)| *t)).0,
            )
        }
        TyKind::Dynamic => (unwrapped, unwrapped),
        _ => return None,
    })
}

/// A shell's `$env` in `text`: each as written, the name, and `false` (not braced).
fn shell_variables(text: &str) -> impl Iterator<Item = (String, &str, bool)> {
    let bytes = text.as_bytes();
    text.match_indices('$').filter_map(move |(at, _)| {
        let name = text[at + 1..]
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or_default();
        let escaped = at > 0 && bytes[at - 1] == b'$';
        (!escaped && name.starts_with(|c: char| c.is_ascii_alphabetic()))
            .then(|| (format!("${name}"), name, false))
    })
}

/// Python's and C#'s `{pet.id}` in `text`: each as written, the path, and `true` (braced).
/// Not `$${env}` (an interpolation escaped on purpose), `%{` (a directive), `{{name}}` (a
/// template language's) or `/users/{id}` (a route's parameter).
fn braced_paths(text: &str) -> impl Iterator<Item = (String, &str, bool)> {
    let bytes = text.as_bytes();
    let identifier = |step: &str| {
        step.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && step
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
    };
    text.match_indices('{').filter_map(move |(at, _)| {
        if at > 0 && matches!(bytes[at - 1], b'$' | b'%' | b'{' | b'/') {
            return None;
        }
        let inner = &text[at + 1..];
        let end = inner.find('}')?;
        let path = &inner[..end];
        let whole = !inner[end..].starts_with("}}") && path.split('.').all(identifier);
        whole.then(|| (format!("{{{path}}}"), path, true))
    })
}

/// Whether `name` is what other languages call a collection's size (`xs.length`,
/// `xs.Count`, `len`).
fn is_length(name: &str) -> bool {
    pcl_syntax::foreign::LENGTH_NAMES.contains(&name)
}
