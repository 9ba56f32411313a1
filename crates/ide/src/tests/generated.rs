//! The generated programs the benchmarks check: valid (zero diagnostics), and checked run
//! by run of declarations as `--jobs` schedules them.

use pcl_test_utils::checked::{CheckedProgram, checked_program};
use smol_str::SmolStr;

use super::{clean_program_types, logged_host, type_named};
use crate::{AnalysisHost, ProgramId};

/// Give `host` a generated program (in `gen/`) with its schema, and load what it needs.
pub(super) fn set_generated(host: &mut AnalysisHost, generated: &CheckedProgram) -> ProgramId {
    host.add_schema("gen.json", &generated.schema)
        .expect("the generated schema loads");
    let files = (generated.files.iter())
        .map(|(name, text)| (SmolStr::new(format!("gen/{name}")), text.clone()))
        .collect();
    let id = host.set_program("gen", files);
    host.load_dependencies();
    id
}

#[test]
fn generated_programs_check_clean() {
    let (mut host, _log) = logged_host();
    let id = set_generated(&mut host, &checked_program(300, 3, 7));
    let types = clean_program_types(&host, &id);
    let lookup = type_named(&types, "zones25").map(|t| t.ty.as_str());
    assert_eq!(lookup, Some("output(list(string))"));
}

/// In a generated program each resource reads an earlier one, some through a local
/// (`first49 = r49[0]`, the first instance of a ranged resource), and all read the configs.
/// A resource without `range` is typed from its token, so a run of declarations waits only
/// for the runs holding the configs and the locals it reads: one file's 300 resources are
/// checked in six runs, four of which may start as soon as the first is done.
#[test]
fn declarations_that_read_only_resources_are_checked_at_once() {
    let (mut host, _log) = logged_host();
    let id = set_generated(&mut host, &checked_program(300, 1, 7));
    let analysis = host.analysis();
    let program = analysis.program_of(&id).expect("the program");
    let graph = pcl_sema::program_graph(analysis.db(), program);
    assert_eq!(graph.runs().count(), 6);
    let waits: Vec<&[u32]> = graph.run_waits.iter().map(|w| &w[..]).collect();
    assert_eq!(waits, [&[][..], &[0], &[0, 1], &[0, 1], &[0], &[0]]);
}
