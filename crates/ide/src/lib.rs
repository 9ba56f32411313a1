//! The root database: salsa storage plus the implementation of every query crate's
//! database trait. The CLI, the language server and the benchmarks all run against it.
//!
//! Invariants:
//! - This is the only crate that ties the query crates together: it wires schema object
//!   types to the schema lowering, so every type question sees loaded schemas.
//! - It speaks editor terms (file ids, offsets, strings) to its users, and it will be the
//!   only place that catches `salsa::Cancelled`.

#[cfg(test)]
mod tests;

use pcl_types::{Name, NamedObject, Ty};

/// The database every pcl front end drives.
#[salsa::db]
#[derive(Clone, Default)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
}

impl RootDatabase {
    /// A database that reports salsa's events (query executions, memo reuse) to
    /// `callback`: for tests that check what an operation recomputes.
    pub fn with_event_callback(
        callback: impl Fn(salsa::Event) + Send + Sync + 'static,
    ) -> RootDatabase {
        RootDatabase {
            storage: salsa::Storage::new(Some(Box::new(callback))),
        }
    }
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

#[salsa::db]
impl pcl_base_db::Db for RootDatabase {}

#[salsa::db]
impl pcl_types::Db for RootDatabase {
    /// Schema object types get their properties from the loaded schemas.
    fn named_object_properties<'db>(&'db self, object: NamedObject<'db>) -> &'db [(Name, Ty<'db>)] {
        pcl_schema::named_object_properties(self, object)
    }
}
