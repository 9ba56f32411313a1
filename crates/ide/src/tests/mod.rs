//! Tests of the analysis API: schema-backed types through the root database, what an
//! edit recomputes, and inputs that must not crash or hang the checker.

mod components;
mod generated;
mod hir;
mod incremental;
mod navigation;
mod packages;
mod robustness;
mod schemas;

use pcl_base_db::ExecutionLog;
use pcl_diagnostics::Diagnostic;
use smol_str::SmolStr;

use crate::{AnalysisHost, ProgramId, RootDatabase};

/// Where `needle` first is in `text`.
fn offset_of(text: &str, needle: &str) -> pcl_syntax::TextSize {
    pcl_syntax::TextSize::from(text.find(needle).expect("the needle is in the text") as u32)
}

/// A host over the test schemas (`tests/data/programs/schemas`) whose database records
/// every query it executes.
fn logged_host() -> (AnalysisHost, ExecutionLog) {
    let log = ExecutionLog::default();
    let callback = log.callback();
    let db = RootDatabase::with_event_callback(callback);
    let schemas = pcl_test_utils::test_data_dir()
        .join("programs")
        .join("schemas");
    (
        AnalysisHost::with_database(db, vec![schemas], pcl_sema::Leniency::default()),
        log,
    )
}

/// Every check fixture (`tests/data/check`: clean and broken programs) and a generated
/// program of 120 resources, loaded as from disk with what they need.
fn check_fixtures_and_a_generated_program(host: &mut AnalysisHost) -> Vec<ProgramId> {
    let check = pcl_test_utils::test_data_dir().join("check");
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(check)
        .expect("the check fixtures")
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    let generated = pcl_test_utils::checked::checked_program(120, 2, 3);
    let mut programs = vec![generated::set_generated(host, &generated)];
    for dir in &dirs {
        programs.push(host.load_program_dir(dir).expect("a fixture program"));
    }
    host.load_dependencies();
    programs
}

/// Set a program of in-memory files (name, text) in `dir` and load what it needs.
fn set_program(host: &mut AnalysisHost, dir: &str, files: &[(&str, &str)]) -> ProgramId {
    let files = files
        .iter()
        .map(|(name, text)| (SmolStr::new(format!("{dir}/{name}")), (*text).to_owned()))
        .collect();
    let id = host.set_program(dir, files);
    host.load_dependencies();
    id
}

/// Every diagnostic of the program.
fn diagnostics(host: &AnalysisHost, id: &ProgramId) -> Vec<Diagnostic> {
    let analysis = host.analysis();
    let by_file = analysis.program_diagnostics(id).expect("nothing cancels");
    by_file.into_iter().flat_map(|f| f.diagnostics).collect()
}

/// The types of a program's declarations, once it checks without a diagnostic.
fn clean_program_types(host: &AnalysisHost, id: &ProgramId) -> Vec<crate::DeclarationType> {
    assert_eq!(summary(&diagnostics(host, id)), "");
    let analysis = host.analysis();
    analysis.declaration_types(id).expect("nothing cancels")
}

/// The type of the declaration `name` among `types`.
fn type_named<'a>(
    types: &'a [crate::DeclarationType],
    name: &str,
) -> Option<&'a crate::DeclarationType> {
    types.iter().find(|t| t.name == name)
}

/// `code message` per diagnostic.
fn summary(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(|d| format!("{} {}\n", d.code, d.message))
        .collect()
}
