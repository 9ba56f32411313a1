//! The language server: `pcl lsp` speaks the Language Server Protocol on stdio. This
//! crate alone knows the protocol; it drives the analysis through `pcl-ide` (a host that
//! owns the database, snapshots that answer) in editor terms.
//!
//! What works: text sync (full and incremental `didChange`, open/close/save), diagnostics
//! published after each change for every open file of the changed program (with the
//! document version), hover (types, resource tokens), go to definition (also from a
//! component's source to its program), references, document highlights, rename (with
//! `prepareRename` with the name as placeholder, across the program's files and into the
//! programs that instantiate a component), completion (declared names, builtins, block
//! keywords at the top level, a resource's schema inputs and `options`, a component's
//! configs, a config's or output's attributes, the fields of every object literal whose
//! expected type is known: resource and component inputs, options, `invoke` arguments, a
//! config's default, nested objects of these and objects in lists of them; attributes
//! after a dot, through indexes, outputs and optional values; resource types in a type
//! label, config types in a config's, and function tokens in `invoke`, each replacing the
//! whole quoted token, and the packages on the schema path before one is typed), quick
//! fixes from the diagnostics' fixes, related information in the program's other files,
//! folding and selection ranges, document and workspace symbols, inlay hints (types of locals and
//! of `range.value`), signature help (builtins, `invoke`, `call`), semantic tokens,
//! formatting and range formatting (the formatter's minimal whitespace edits; none for a
//! document with syntax errors),
//! `didChangeWatchedFiles` (program directories reloaded; a changed schema file is read
//! again and every open program re-checked; the server registers its watchers when the
//! client allows dynamic registration), configuration from `initializationOptions`, the
//! `pcl` section of `workspace/configuration` (asked after `initialized` and again on
//! `workspace/didChangeConfiguration` unless that carries the settings), both
//! `{"schemaPath": [..], "skipResourceTypecheck": bool, ...}` (every leniency of `pcl
//! check`, and `fetchSchemas`: missing schemas fetched on save on threads of their own,
//! `fetching.rs`), then `PCL_SCHEMA_PATH`;
//! workspace folders (every program below them is loaded, so workspace symbols and
//! references reach files that are not open), UTF-8
//! positions when the client offers them (else UTF-16). Unknown requests get
//! `MethodNotFound`, malformed ones `InvalidParams`, text that is not JSON-RPC
//! `ParseError`; a panic in a handler is answered with an internal error and the server
//! keeps serving.
//!
//! Requests are answered on worker threads (large stacks) from snapshots; a change
//! cancels their salsa queries, and an answer computed before a change is replaced by
//! `ContentModified`; `$/cancelRequest` turns the answer into `RequestCancelled`.
//!
//! The message loop has a fuzz target (`cargo xtask fuzz lsp`).
//!
//! Invariant: one thread owns the host and applies changes; requests never touch it, so
//! a change waits only for in-flight queries to unwind.

mod convert;
mod fetching;
mod server;
mod transport;

/// The protocol connection `serve` speaks over (for in-memory clients).
pub use lsp_server::Connection;
pub use server::{run_stdio, serve};
