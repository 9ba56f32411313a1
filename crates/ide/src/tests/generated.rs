//! The generated programs the benchmarks check are valid: zero diagnostics.

use pcl_test_utils::checked::checked_program;
use smol_str::SmolStr;

use super::{diagnostics, logged_host, summary};

#[test]
fn generated_programs_check_clean() {
    let generated = checked_program(300, 3, 7);
    let (mut host, _log) = logged_host();
    host.add_schema("gen.json", &generated.schema)
        .expect("the generated schema loads");
    let files = (generated.files.iter())
        .map(|(name, text)| (SmolStr::new(format!("gen/{name}")), text.clone()))
        .collect();
    let id = host.set_program("gen", files);
    host.load_dependencies();
    assert_eq!(summary(&diagnostics(&host, &id)), "");
    let types = host
        .analysis()
        .declaration_types(&id)
        .expect("nothing cancels");
    let lookup = types
        .iter()
        .find(|t| t.name == "zones25")
        .map(|t| t.ty.as_str());
    assert_eq!(lookup, Some("output(list(string))"));
}
