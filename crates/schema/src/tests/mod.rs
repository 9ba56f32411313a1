//! The crate's tests, on a small database of its own that wires schema object types to
//! this crate's lowering, as the root database does.

mod corpus;
mod fixtures;
mod laziness;
mod mutations;
mod tokens;
mod versions;

use pcl_base_db::ExecutionLog;
use pcl_types::{Name, NamedObject, Ty};

#[salsa::db]
#[derive(Clone, Default)]
pub(crate) struct TestDb {
    storage: salsa::Storage<Self>,
}

impl TestDb {
    /// A database that records the queries it executes into `log`.
    pub(crate) fn with_log(log: &ExecutionLog) -> TestDb {
        TestDb {
            storage: salsa::Storage::new(Some(log.callback())),
        }
    }
}

#[salsa::db]
impl salsa::Database for TestDb {}

#[salsa::db]
impl pcl_base_db::Db for TestDb {}

#[salsa::db]
impl pcl_types::Db for TestDb {
    fn named_object_properties<'db>(&'db self, object: NamedObject<'db>) -> &'db [(Name, Ty<'db>)] {
        crate::named_object_properties(self, object)
    }
}
