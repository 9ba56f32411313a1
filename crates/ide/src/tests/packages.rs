//! Which schema each package name is checked against as programs, edits and settings
//! change: the version the program asks for now (not the first one loaded), none when
//! that version is found nowhere, and only what the current search path holds.

use pcl_test_utils::ScratchDir;

use super::{diagnostics, set_program, summary};
use crate::AnalysisHost;

/// A schema of package `ver` at `version` whose one resource takes the input `input`.
fn versioned_schema(version: &str, input: &str) -> String {
    format!(
        r#"{{ "name": "ver", "version": "{version}", "resources": {{ "ver:index:Thing": {{
            "inputProperties": {{ "{input}": {{ "type": "string" }} }} }} }} }}"#
    )
}

/// A directory with `ver` 1.0.0 (input `old`) and 2.0.0 (input `new`).
fn two_versions() -> ScratchDir {
    let dir = ScratchDir::new("ide-package-versions");
    for (version, input) in [("1.0.0", "old"), ("2.0.0", "new")] {
        let schema = versioned_schema(version, input);
        std::fs::write(dir.join(format!("ver-{version}.json")), schema).expect("written");
    }
    dir
}

/// A host whose search path is `dir`.
fn host_over(dir: &std::path::Path) -> AnalysisHost {
    AnalysisHost::with_database(
        Default::default(),
        vec![dir.to_path_buf()],
        Default::default(),
    )
}

fn thing(version: &str, input: &str) -> String {
    format!(
        "resource t \"ver:index:Thing\" {{\n  {input} = \"x\"\n  options {{\n    version = \"{version}\"\n  }}\n}}\n"
    )
}

fn edit(host: &mut AnalysisHost, text: String) -> String {
    host.set_file_text("/p/main.pp", text);
    host.load_typed_packages("/p");
    let id = crate::ProgramId("/p".into());
    summary(&diagnostics(host, &id))
}

#[test]
fn an_edit_asking_for_another_version_checks_against_it() {
    let dir = two_versions();
    let mut host = host_over(&dir);
    let id = set_program(&mut host, "/p", &[("main.pp", &thing("1.0.0", "old"))]);
    assert_eq!(summary(&diagnostics(&host, &id)), "");
    // The text asks for 2.0.0 now, whose input is `new`: checked against it while typing,
    // and again after a save reloads what programs need.
    assert_eq!(edit(&mut host, thing("2.0.0", "new")), "");
    host.load_dependencies();
    assert_eq!(summary(&diagnostics(&host, &id)), "");
    assert!(edit(&mut host, thing("2.0.0", "old")).contains("has no input 'old'"));
    // A version found nowhere: the package is missing, not the version loaded before.
    let missing = edit(&mut host, thing("3.0.0", "new"));
    assert!(
        missing.contains("no schema found for package 'ver'"),
        "{missing}"
    );
    host.load_dependencies();
    let missing = summary(&diagnostics(&host, &id));
    assert!(
        missing.contains("no schema found for package 'ver'"),
        "{missing}"
    );
    // And back.
    assert_eq!(edit(&mut host, thing("1.0.0", "old")), "");
}

#[test]
fn a_search_path_without_a_schemas_directory_lets_its_packages_go() {
    let dir = two_versions();
    let mut host = host_over(&dir);
    let id = set_program(&mut host, "/p", &[("main.pp", &thing("1.0.0", "old"))]);
    assert_eq!(summary(&diagnostics(&host, &id)), "");
    host.set_options(Vec::new(), Default::default());
    let after = summary(&diagnostics(&host, &id));
    assert!(
        after.contains("no schema found for package 'ver'"),
        "{after}"
    );
    host.set_options(vec![dir.to_path_buf()], Default::default());
    assert_eq!(summary(&diagnostics(&host, &id)), "");
}

/// A package named while typing that is found nowhere, or whose name no schema can have,
/// has the notes a full load gives it.
#[test]
fn a_typed_miss_has_the_notes_of_a_full_load() {
    let dir = two_versions();
    let mut host = host_over(&dir);
    let id = set_program(&mut host, "/p", &[("main.pp", &thing("1.0.0", "old"))]);
    for token in ["vr:index:Thing", "éver:index:Thing"] {
        let text = format!("resource t \"{token}\" {{}}\n");
        host.set_file_text("/p/main.pp", text);
        host.load_typed_packages("/p");
        let typed = diagnostics(&host, &id);
        host.load_dependencies();
        let loaded = diagnostics(&host, &id);
        assert_eq!(typed, loaded, "{token}");
    }
}

/// A version typed, broken and typed again: each miss keeps the notes of the version the
/// text asks for now.
#[test]
fn typed_misses_keep_their_own_notes() {
    let dir = two_versions();
    let mut host = host_over(&dir);
    let id = set_program(&mut host, "/p", &[("main.pp", &thing("1.0.0", "old"))]);
    let broken = |version: &str| {
        format!(
            "resource t \"wer:index:Thing\" {{\n  options {{\n    version = {version}\n  }}\n}}\n"
        )
    };
    for text in [
        broken("= \"3.0.0\""),
        broken("\"3.0.0\""),
        broken("= \"3.0.0\""),
    ] {
        host.set_file_text("/p/main.pp", text.clone());
        host.load_typed_packages("/p");
        let mut fresh = host_over(&dir);
        let fresh_id = set_program(&mut fresh, "/p", &[("main.pp", &text)]);
        assert_eq!(
            diagnostics(&host, &id),
            diagnostics(&fresh, &fresh_id),
            "{text}"
        );
    }
}

/// Programs sharing a package: the first version found among those they ask for (in
/// directory order) is the one loaded, so one program asking for a version found nowhere,
/// while typing or not, never leaves another without its package, and a component read
/// from disk does not replace the version its program asks for.
#[test]
fn programs_sharing_a_package_keep_a_version_that_is_found() {
    let dir = two_versions();
    // Two programs; the first types a version found nowhere.
    let mut host = host_over(&dir);
    let _a = set_program(&mut host, "/a", &[("main.pp", &thing("1.0.0", "old"))]);
    let b = set_program(&mut host, "/b", &[("main.pp", &thing("1.0.0", "old"))]);
    host.set_file_text("/a/main.pp", thing("3.0.0", "old"));
    host.load_typed_packages("/a");
    assert_eq!(summary(&diagnostics(&host, &b)), "");
    host.load_dependencies();
    assert_eq!(summary(&diagnostics(&host, &b)), "");
    // A program and its component (read from disk), which asks for no version.
    let work = ScratchDir::new("ide-package-component");
    std::fs::create_dir_all(work.join("r/c")).expect("mkdir");
    let root = format!("{}component c \"./c\" {{}}\n", thing("1.0.0", "old"));
    std::fs::write(work.join("r/main.pp"), root).expect("written");
    let component = "resource u \"ver:index:Thing\" {\n  old = \"y\"\n}\n";
    std::fs::write(work.join("r/c/main.pp"), component).expect("written");
    let mut host = host_over(&dir);
    let id = host.load_program_dir(&work.join("r")).expect("the program");
    host.load_dependencies();
    assert_eq!(summary(&diagnostics(&host, &id)), "");
}
