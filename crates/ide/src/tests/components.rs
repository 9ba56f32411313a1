//! The component programs a program is checked against as its text is edited: a
//! `component` block typed has its directory read at once, not at the next save.

use pcl_test_utils::ScratchDir;

use super::{diagnostics, summary};
use crate::AnalysisHost;

#[test]
fn a_component_typed_is_checked_against_its_program_at_once() {
    let work = ScratchDir::new("ide-typed-component");
    let (root, web) = (work.join("r"), work.join("r/web"));
    std::fs::create_dir_all(&web).expect("mkdir");
    let component = "config port \"int\" {}\n\noutput url {\n  value = \"http://x:${port}\"\n}\n";
    std::fs::write(web.join("main.pp"), component).expect("written");
    std::fs::write(root.join("main.pp"), "").expect("written");
    let mut host = AnalysisHost::new(Vec::new(), Default::default());
    let id = host.load_program_dir(&root).expect("the program");
    host.load_dependencies();
    let main = root.join("main.pp").display().to_string();
    let root = root.display().to_string();

    // A path on its way: no program there, with the directory beside it to suggest.
    host.set_file_text(&main, "component site \"./we\" {}\n".to_owned());
    host.load_typed_packages(&root);
    let found = summary(&diagnostics(&host, &id));
    assert!(found.contains("no PCL program"), "{found}");
    assert!(
        (diagnostics(&host, &id).iter()).any(|d| d.notes.iter().any(|n| n.contains("./web"))),
        "{found}"
    );

    // The path complete: the component's inputs and outputs are known as it is typed.
    let typed =
        "component site \"./web\" {\n  prot = 80\n}\n\naddress = site.url\nwrong = site.uri\n";
    host.set_file_text(&main, typed.to_owned());
    host.load_typed_packages(&root);
    let found = summary(&diagnostics(&host, &id));
    assert!(!found.contains("no PCL program"), "{found}");
    assert!(found.contains("'prot'"), "{found}");
    assert!(found.contains("uri"), "{found}");
    assert!(
        !found.contains("`url`") && !found.contains("'url'"),
        "{found}"
    );
}
