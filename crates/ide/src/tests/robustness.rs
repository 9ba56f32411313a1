//! Programs that must not crash, overflow the stack or hang the checker, each with the
//! diagnostic it deserves.

use std::fmt::Write;

use expect_test::expect;

use super::{diagnostics, logged_host, set_program, summary};

#[test]
fn a_chain_of_100000_locals_checks_bottom_up_also_after_an_edit() {
    let n = 100_000;
    let mut text = String::new();
    for i in 0..n - 1 {
        let _ = writeln!(text, "x{i} = x{}", i + 1);
    }
    let last = format!("x{} = 1\n", n - 1);
    let (mut host, _log) = logged_host();
    let id = set_program(&mut host, "chain", &[("main.pp", &format!("{text}{last}"))]);
    assert_eq!(summary(&diagnostics(&host, &id)), "");
    host.set_file_text("chain/main.pp", format!("{text}x{} = \"one\"\n", n - 1));
    assert_eq!(summary(&diagnostics(&host, &id)), "");
    let types = host
        .analysis()
        .declaration_types(&id)
        .expect("nothing cancels");
    assert_eq!(types[0].ty, "string");
}

#[test]
fn self_references_and_resources_reading_their_own_outputs_are_cycles() {
    let (mut host, _log) = logged_host();
    let text = r#"
me = me
resource "site" "web:index:Bucket" {
  name = site.arn
}
"#;
    let id = set_program(&mut host, "selfish", &[("main.pp", text)]);
    expect![[r#"
        PCL4003 `me` refers to itself
        PCL4003 `site` refers to itself
    "#]]
    .assert_eq(&summary(&diagnostics(&host, &id)));
}

#[test]
fn huge_ranges_and_deep_config_types_are_diagnosed_not_expanded() {
    let (mut host, _log) = logged_host();
    let deep = format!("{}string{}", "list(".repeat(10_000), ")".repeat(10_000));
    let text = format!(
        r#"
resource "many" "web:index:Bucket" {{
  options {{
    range = 1e12
  }}
  name = "b${{range.value}}"
}}
config "deep" "{deep}" {{}}
"#
    );
    let id = set_program(&mut host, "big", &[("main.pp", &text)]);
    let found = summary(&diagnostics(&host, &id));
    assert!(found.starts_with("PCL4020 `"), "{found}");
    assert!(found.contains("nested too deeply"), "{found}");
    assert_eq!(found.lines().count(), 1, "{found}");
}

#[test]
fn long_operator_chains_do_not_overflow_the_stack() {
    // The walk over expressions recurses by nesting depth: run it where the CLI does,
    // on a thread with a large stack.
    let handle = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            let (mut host, _log) = logged_host();
            let text = format!("sum = {}1\n", "1 + ".repeat(2_000));
            let id = set_program(&mut host, "long", &[("main.pp", &text)]);
            summary(&diagnostics(&host, &id))
        })
        .expect("a thread starts");
    assert_eq!(handle.join().expect("no panic"), "");
}

/// Inputs the `check` fuzz target found (`tests/data/fuzz/check/`), checked as it does.
#[test]
fn fuzz_regressions() {
    let dir = pcl_test_utils::test_data_dir().join("fuzz").join("check");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let bytes = std::fs::read(entry.path()).unwrap_or_default();
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let (mut host, _log) = logged_host();
        let id = set_program(&mut host, "fuzz", &[("main.pp", &text)]);
        for d in diagnostics(&host, &id) {
            let span = d.span().expect("program diagnostics have spans");
            assert!(
                usize::from(span.range.end()) <= text.len(),
                "{}: {d:?}",
                entry.path().display()
            );
        }
    }
}
