//! The semantic model of PCL programs: binding and type checking of whole programs as
//! incremental salsa queries (semantics: `../shared/docs/pcl-semantics.md` §3, §4, §6).
//!
//! The query graph, each layer a firewall that backdates when an edit leaves it equal:
//! - `items`: `parse(File)`; each top-level item is an input (`ItemSource`) the driver
//!   syncs with the parse; `item_outlines` (a run of 32 items), then `item_tree(File)`
//!   (declarations without ranges or bodies) and `decl_syntax(DeclId)` (the item's
//!   syntax handle);
//! - `hir`: `body(DeclId)`, the range-free arena of a declaration's expressions, with
//!   `body_with_source_map` holding the declaration-relative ranges;
//! - `scope`: `program_scope(Program)`, `bind(DeclId)` (what each name resolves to),
//!   `program_graph(Program)` (dependency order and reference cycles);
//! - `infer`: `infer(DeclId)` types a declaration's expressions and checks them, and
//!   `decl_ty(DeclId)` is the type its readers see.
//!
//! Design choices, where they differ from `docs/architecture.md`'s first plan:
//! - Declarations are keyed by (kind, name, index among same-named ones) within their
//!   file, not by position, so inserting a declaration leaves the others' ids alone.
//! - Schemas reach checking through `pcl-schema`'s own queries over `PackageSource`
//!   inputs (high durability), not through a second set of package inputs here.
//! - Diagnostics are values in query results (`SemaDiagnostic`), anchored to parts of a
//!   declaration (`Site`), never ranges, so moving text does not invalidate them; the
//!   `ide` crate turns anchors into ranges.
//! - Cycles are found on the dependency graph before typing (`decl_cycle`); references
//!   between cycle members are `dynamic`, so typing never meets a salsa cycle.
//!   `decl_ty` still has a fallback for safety.
//! - Checking is bottom-up: drivers walk `program_graph().file_groups` with `file_check`
//!   (a file's declarations in their local dependency order), so no query recurses
//!   through a long chain of declarations (salsa's verification included).
//! - Two facts every declaration reads, the program's declarations and whether it has
//!   cycles, are summary inputs the driver syncs (`summaries`), so that edits inside
//!   bodies leave the memos of other files at medium durability (see `summaries`).

mod builtins;

pub use builtins::{BUILTIN_FUNCTIONS, builtin_signature, builtin_summary, literal_file_reads};
mod config_type;
mod constants;
mod declarations;
mod diagnostics;
mod hir;
mod inference;
mod input;
mod items;
mod misplaced;
mod option_constants;
mod reference_fit;
mod resource_lookup;
mod resources;
mod scope;
mod sdk_habits;
mod summaries;
mod suppressions;
mod version_range;

pub use declarations::{CONFIG_ATTRIBUTES, OUTPUT_ATTRIBUTES};
pub use diagnostics::{Located, SemaDiagnostic, SemaFix, Site};
pub use hir::{
    AttrId, BlockId, Body, BodySourceMap, BodyWithSourceMap, Expr, ExprId, ForExpr, body,
    body_with_source_map, logical_name,
};
pub use inference::{
    InferenceResult, check_chunk, check_chunks, decl_ty, expr_ty, file_check, infer,
};
pub use input::{
    CheckOptions, File, ItemSource, Leniency, Program, ReparseBase, Workspace, join_dir, leniency,
    program_at,
};
pub use items::{
    CachedPackage, DeclId, DeclKind, DeclSyntax, Item, ItemChunk, ItemKey, ItemTree, PackageUse,
    StructureProblem, decl_offset, decl_syntax, file_decls, file_items, item_tree, outline_chunk,
    outline_chunks, parse, program_decls, required_packages, structure_diagnostics, token_package,
};
pub use resources::{
    Field, FieldsContext, component_closure, enum_value_completions, field_completions,
    fields_owner, option_summary, range_value_hint,
};
pub use scope::{
    Bindings, DeclChunk, ProgramGraph, ProgramScope, Resolution, bind, bind_chunk, decl_cycle,
    dependency_chunks, file_dependencies, program_graph, program_scope, unused_provider_diagnostic,
};
pub use summaries::{
    first_items, set_first_items, sync_file_items, sync_file_summaries, sync_program_summaries,
    sync_summaries,
};
pub use suppressions::{Suppression, file_suppressions};
