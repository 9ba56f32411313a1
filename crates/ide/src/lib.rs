//! The analysis API in editor terms: an [`AnalysisHost`] owns the database, applies
//! changes (file texts, programs, schema search paths) and loads schemas; an
//! [`Analysis`] is a snapshot that answers questions (diagnostics, declaration types)
//! and turns salsa's cancellation into a [`Cancellable`] result. The CLI and the
//! language server use only this crate, never the query crates below it.
//!
//! Invariants:
//! - This is the only crate that ties the query crates together: its database wires
//!   schema object types to the schema lowering, so every type question sees loaded
//!   schemas.
//! - Only the host does IO (schema files, component directories); queries see inputs.
//! - Declarations are checked in dependency order, so no query recursion grows with the
//!   length of a chain of references.

mod analysis;
mod docs;
mod for_variables;
mod formatting;
mod host;
mod navigation;
mod parallel;
mod program_dir;
mod project;
mod reading;
mod suppress;
#[cfg(test)]
mod tests;

use pcl_types::{Name, NamedObject, Ty};

pub use analysis::{Analysis, Cancellable, DeclarationType, FileDiagnostics, FileText};
pub use formatting::FormatEdit;
pub use host::{
    AnalysisHost, FetchEvent, Fetching, ProgramId, SourceText, normalise_dir, program_file_paths,
};
pub use navigation::{
    CompletionItem, CompletionKind, FileSymbol, HoverResult, InlayHint, NavigationTarget,
    Reference, SignatureHelp, TokenClass,
};
pub use parallel::CHECK_STACK_SIZE;
pub use pcl_project::{
    ConfigType, LocalFileUse, PROJECT_FILE_NAMES, ProgramConfig, ProviderConfig, check_local_files,
    stack_name,
};
pub use pcl_schema::{FetchError, FetchRequest, fetch_schema};
pub use pcl_sema::{DeclKind, Leniency};
pub use pcl_syntax::ChangedRange;
pub use program_dir::{program_dir_diagnostic, program_dir_problem, project_program_dir};
pub use project::{
    ProjectCheck, ProjectDocument, ProjectFileIds, ProjectFiles, config_key_ranges,
    parse_project_main, project_name, stack_dir,
};
pub use reading::{LARGEST_SOURCE, decode_project_file, read_source, read_source_file};

/// The database every pcl front end drives.
#[salsa::db]
#[derive(Clone, Default)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
    primitive_types: pcl_types::PrimitiveTypes,
    property_names: pcl_types::PropertyNames,
    type_cache: pcl_types::TypeCache,
}

impl RootDatabase {
    /// A database that reports salsa's events (query executions, memo reuse) to
    /// `callback`: for tests that check what an operation recomputes.
    pub fn with_event_callback(
        callback: impl Fn(salsa::Event) + Send + Sync + 'static,
    ) -> RootDatabase {
        RootDatabase {
            storage: salsa::Storage::new(Some(Box::new(callback))),
            primitive_types: pcl_types::PrimitiveTypes::default(),
            property_names: pcl_types::PropertyNames::default(),
            type_cache: pcl_types::TypeCache::default(),
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

    fn primitive_types(&self) -> Option<&pcl_types::PrimitiveTypes> {
        Some(&self.primitive_types)
    }

    fn property_names(&self) -> Option<&pcl_types::PropertyNames> {
        Some(&self.property_names)
    }

    fn type_cache(&self) -> Option<&pcl_types::TypeCache> {
        Some(&self.type_cache)
    }
}
