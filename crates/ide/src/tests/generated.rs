//! The generated programs the benchmarks check: valid (zero diagnostics), and checked file
//! group by file group as `--jobs` schedules them.

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

/// The generated programs chain their files (each file's first resource reads the previous
/// file's last, or one further back), but a resource without `range` is typed from its
/// token, so checking a file waits only for the first file's configs and for the files
/// whose ranged resources (typed by checking their `range`) it reads: depths stay low
/// instead of 0 to 9, and `--jobs` checks the files of one depth at once.
#[test]
fn files_that_read_only_resources_of_others_are_checked_at_once() {
    let (mut host, _log) = logged_host();
    let id = set_generated(&mut host, &checked_program(300, 10, 7));
    let analysis = host.analysis();
    let program = analysis.program_of(&id).expect("the program");
    let graph = pcl_sema::program_graph(analysis.db(), program);
    assert_eq!(graph.file_groups.len(), 10, "one group per file");
    assert_eq!(*graph.group_levels, [0, 1, 1, 2, 1, 1, 3, 1, 1, 1]);
}
