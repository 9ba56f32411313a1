//! The language server: `pcl lsp` speaks the Language Server Protocol on stdio. This
//! crate alone knows the protocol; it drives the analysis through `pcl-ide` (a host that
//! owns the database, snapshots that answer) in editor terms.
//!
//! What works: text sync (full and incremental `didChange`, open/close/save), diagnostics
//! published after each change for every open file of the changed program (with the
//! document version), hover (types, resource tokens), go to definition, document symbols,
//! `initializationOptions` `{"schemaPath": [..], "skipResourceTypecheck": bool}` and
//! `PCL_SCHEMA_PATH`, UTF-8 position encoding when the client offers it (else UTF-16).
//! Unknown requests get `MethodNotFound`; a panic in a handler is answered with an
//! internal error and the server keeps serving.
//!
//! Invariant: one thread owns the host; requests are answered from snapshots between
//! changes, so a change never waits on a request.

mod convert;
mod server;

pub use server::run_stdio;
