//! The root of the salsa database: the trait every pcl query is written against, and the
//! execution log that tests of every query crate use.
//!
//! Invariants: this crate does no IO. Drivers (the CLI, later the language server) read
//! files and schemas and set them as inputs; queries only see what was set. Crates that
//! add queries extend `Db` with the lookups they need from their dependents (the type
//! system asks for schema object properties, for instance).

mod execution_log;

pub use execution_log::{EventCallback, ExecutionLog};

/// The database trait every pcl query is written against.
#[salsa::db]
pub trait Db: salsa::Database {}
