//! Pulumi projects: project files (`Pulumi.yaml`, `Pulumi.yml`, `Pulumi.json`) and stack
//! files (`Pulumi.<stack>.<ext>`) read with source positions, and each stack's config
//! checked against the program's `config` blocks and the providers' schema variables.
//! Diagnostics are in the `PCL5xxx` range, with spans in the YAML files (numbered by the
//! driver) or, for a required config a stack does not set, at the config in the program.
//!
//! Invariants:
//! - No IO and no salsa: drivers read the files and describe the program's configs
//!   ([`ProgramConfig`], with types as [`ConfigType`]); this crate only reads texts.
//! - Never panics on any input: a file that is not YAML is a diagnostic at its position.
//! - Values are read as Pulumi's PCL runtime reads them (see [`value`]).

mod check;
mod declared;
mod files;
pub mod go_scalars;
pub mod local_files;
pub mod value;
pub mod yaml;

pub use check::{
    ProgramConfig, ProviderConfig, StackCheck, check_project, check_project_values, check_stack,
    parse_key,
};
pub use declared::{ConfigDeclaration, DeclaredType};
pub use files::{
    PROJECT_FILE_NAMES, Project, Runtime, Stack, StackEntry, Syntax, misnamed_stack_file,
    parse_project, parse_stack, stack_file_name, stack_name, unread_project_file,
    unread_stack_file,
};
pub use local_files::{LocalFileUse, check_local_files};
pub use value::ConfigType;
