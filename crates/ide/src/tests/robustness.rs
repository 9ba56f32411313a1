//! Programs that must not crash, overflow the stack or hang the checker, each with the
//! diagnostic it deserves.

use std::fmt::Write;

use expect_test::expect;

use crate::AnalysisHost;

use super::{clean_program_types, diagnostics, logged_host, set_program, summary, type_named};

/// The types of a one-file program `text` in `dir`, which checks without a diagnostic.
fn checked_types(dir: &str, text: &str) -> Vec<crate::DeclarationType> {
    let (mut host, _log) = logged_host();
    let id = set_program(&mut host, dir, &[("main.pp", text)]);
    clean_program_types(&host, &id)
}

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

/// Each key of an object literal once took time in the number of keys before it (a
/// generated lookup table of 100k keys took 5.9 s to check; this test 9.4 s in a test
/// build, 0.8 s since). A key given twice takes its last value.
#[test]
fn an_object_literal_of_50000_keys_checks_and_keeps_each_keys_last_value() {
    let mut text = String::from("table = {\n");
    for i in 0..50_000 {
        let _ = writeln!(text, "  k{i} = {i}");
    }
    text.push_str("  k0 = \"last\"\n}\nfirst = table.k0\n");
    let (mut host, _log) = logged_host();
    let id = set_program(&mut host, "table", &[("main.pp", &text)]);
    // The key given twice is reported (once, found through the table of keys), and the
    // type keeps its last value.
    assert_eq!(
        summary(&diagnostics(&host, &id)),
        "PCL1010 the key `k0` is given twice in this object\n"
    );
    let types = host
        .analysis()
        .declaration_types(&id)
        .expect("nothing cancels");
    let first = type_named(&types, "first").map(|t| t.ty.as_str());
    assert_eq!(first, Some("string"));
}

/// "Did you mean" once compared each unresolved name with every declaration (16,000 of
/// each took 11 s to check in a release build, 64 s with names of 13 characters; 0.2 s
/// since): each misspelt reference still gets its declaration suggested.
#[test]
fn sixteen_thousand_misspelt_references_each_get_their_declaration_suggested() {
    let n = 16_000;
    let mut text = String::new();
    for i in 0..n {
        let _ = writeln!(text, "bucket{i} = {i}\nuse{i} = bukcet{i}");
    }
    let (mut host, _log) = logged_host();
    let id = set_program(&mut host, "typos", &[("main.pp", &text)]);
    let found = diagnostics(&host, &id);
    assert_eq!(found.len(), n);
    for (i, diagnostic) in found.iter().enumerate() {
        assert_eq!(diagnostic.message, format!("undefined name `bukcet{i}`"));
        let note = format!("did you mean `bucket{i}`?");
        assert!(diagnostic.notes.contains(&note), "{diagnostic:?}");
    }
}

/// Binding a declaration compared each name it reads with the names before it, and
/// typing it each declaration it reads with those before (one list naming 40,000
/// declarations took 3.2 s to check in a release build, 0.5 s since): it still depends on
/// each once, in the order it first reads them, and the names it does not know are each
/// reported where they are read.
#[test]
fn a_list_naming_20000_declarations_binds_each_once() {
    let n = 20_000;
    let mut text = String::new();
    for i in 0..n {
        let _ = writeln!(text, "v{i} = {i}");
    }
    let names: Vec<String> = (0..n).map(|i| format!("v{}", n - 1 - i)).collect();
    let _ = writeln!(text, "all = [{}, v0, nowhere, nowhere]", names.join(", "));
    let (mut host, _log) = logged_host();
    let id = set_program(&mut host, "wide", &[("main.pp", &text)]);
    let found = diagnostics(&host, &id);
    let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["undefined name `nowhere`"; 2]);
    let db = host.raw_database();
    let program = host.analysis().program_of(&id).expect("the program");
    let decls = pcl_sema::program_decls(db, program);
    let all = *decls.last().expect("declarations");
    let read: Vec<usize> = (pcl_sema::bind(db, all).dependencies.iter())
        .map(|dep| decls.iter().position(|d| d == dep).expect("a declaration"))
        .collect();
    let expected: Vec<usize> = (0..n).rev().collect();
    assert_eq!(read, expected);
}

/// A misspelt resource type's suggestions were worked out for each resource that used it,
/// each time comparing it with every token of the package (a schema of 3,700 tokens and
/// 3,000 resources took 1.4 s): now once per package and misspelt token.
#[test]
fn five_thousand_resources_of_a_misspelt_type_from_a_package_of_five_thousand() {
    let n = 5_000;
    let resources: Vec<String> = (0..n)
        .map(|i| format!("\"big:index:Thing{i}\": {{ \"inputProperties\": {{}} }}"))
        .collect();
    let schema = format!(
        "{{ \"name\": \"big\", \"version\": \"1.0.0\", \"resources\": {{ {} }} }}",
        resources.join(", ")
    );
    let dir = pcl_test_utils::ScratchDir::new("big-schema");
    std::fs::write(dir.join("big-1.0.0.json"), schema).expect("the schema is written");
    let mut host = AnalysisHost::with_database(
        crate::RootDatabase::default(),
        vec![dir.to_path_buf()],
        pcl_sema::Leniency::default(),
    );
    let text: String = (0..n)
        .map(|i| format!("resource \"r{i}\" \"big:index:Thingg{}\" {{}}\n", i % 3))
        .collect();
    let id = set_program(&mut host, "misspelt", &[("main.pp", &text)]);
    let found = diagnostics(&host, &id);
    assert_eq!(found.len(), n);
    let note = "did you mean 'big:index:Thing0', 'big:index:Thing10', 'big:index:Thing20'?";
    assert!(found[0].notes.iter().any(|n| n == note), "{:?}", found[0]);
}

/// Iterating a tuple of constants once united their types one at a time, a union of 2,
/// 3, .. n members (a tuple of 20,000 numbers took more than 17 GB): now at once.
#[test]
fn a_for_over_a_tuple_of_20000_numbers_checks() {
    let numbers: Vec<String> = (0..20_000).map(|i| i.to_string()).collect();
    let text = format!(
        "x = [{}]\ny = {{ for i in x : \"k${{i}}\" => i }}\nz = [for i in x : i + 1]\n",
        numbers.join(", ")
    );
    let types = checked_types("numbers", &text);
    let of = |name: &str| type_named(&types, name).map(|t| t.readable.as_str());
    assert_eq!(of("y"), Some("map(int)"));
    assert_eq!(of("z"), Some("list(number)"));
}

/// A tuple of objects of one shape once took its element type by the same fold as
/// constants, a union of 2, 3, .. n members (2,000 of `{ a = 1 }` took 19 s and 2.4 GB
/// to check in a release build): now at once, as for constants.
#[test]
fn a_for_over_a_tuple_of_20000_records_of_one_shape_checks() {
    let records: Vec<String> = (0..20_000)
        .map(|i| format!("{{ name = \"n{i}\", port = {i}, tls = {} }}", i % 2 == 0))
        .collect();
    let text = format!(
        "records = [{}]\nnames = [for r in records : \"${{r.name}}:${{r.port}}\" if r.tls]\n",
        records.join(",\n")
    );
    let types = checked_types("records", &text);
    let names = type_named(&types, "names").map(|t| t.readable.as_str());
    assert_eq!(names, Some("list(string)"));
}

/// Records of two shapes told apart by their name (1,000 took 5.7 s and 640 MB to check,
/// 2,000 took 30 s), and objects each of its own key (20,000: more than a minute and
/// 3 GB), iterated by `for`: their element types are found at once.
#[test]
fn a_for_over_records_with_optional_properties_and_over_objects_of_their_own_keys() {
    let records: Vec<String> = (0..20_000)
        .map(|i| match i % 2 {
            0 => format!("{{ name = \"n{i}\", port = {i} }}"),
            _ => format!("{{ name = \"n{i}\", port = {i}, tls = true }}"),
        })
        .collect();
    let entries: Vec<String> = (0..20_000)
        .map(|i| format!("{{ k{i} = {i}, kind = \"entry\" }}"))
        .collect();
    let text = format!(
        "records = [{}]\nnames = [for r in records : r.name]\nentries = [{}]\nkinds = [for e in entries : e.kind]\n",
        records.join(",\n"),
        entries.join(",\n")
    );
    let types = checked_types("shapes", &text);
    let of = |name: &str| type_named(&types, name).map(|t| t.readable.as_str());
    assert_eq!(of("names"), Some("list(string)"));
    assert_eq!(of("kinds"), Some("list(string)"));
}

/// Each diagnostic was once matched against every `pcl-ignore` comment of its file (16,000
/// of each took 0.9 s in a release build, 0.2 s since).
#[test]
fn twenty_thousand_suppressed_diagnostics_are_all_silenced() {
    let mut text = String::new();
    for i in 0..20_000 {
        let _ = writeln!(
            text,
            "# pcl-ignore PCL4006\nconfig p{i} \"int\" {{\n  defualt = 1\n}}"
        );
    }
    let (mut host, _log) = logged_host();
    let id = set_program(&mut host, "quiet", &[("main.pp", &text)]);
    assert_eq!(summary(&diagnostics(&host, &id)), "");
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

/// `--jobs 2` loads and checks files on two threads, each with the checking thread's
/// stack: the diagnostics, and their order, are those of one thread, also for deep
/// expressions, structure problems and `pcl-ignore` comments, a file of several runs of
/// declarations each reading the one before (a run waits for the last) and a cycle
/// across runs (which does not wait), and after an edit that adds and removes items of a
/// file whose items were made on a worker thread.
#[test]
fn two_jobs_check_as_one_does() {
    let deep = format!("deep = {}1\n", "1 + ".repeat(2_000));
    let mut chain = String::from("c0 = 1\n");
    for i in 1..200 {
        let term = if i % 50 == 0 {
            format!("undefinedChain{i}")
        } else {
            "1".to_owned()
        };
        let _ = writeln!(chain, "c{i} = c{} + {term}", i - 1);
    }
    for i in 0..100 {
        let _ = writeln!(chain, "k{i} = k{}", (i + 1) % 100);
    }
    let files: Vec<(String, String)> = (0..8)
        .map(|i| {
            let next = (i + 1) % 8;
            let text = format!(
                "value{i} = {}\nmissing{i} = undefined{i}\n# pcl-ignore PCL4001\nignored{i} = unknown{i}\nwidget \"w{i}\" {{\n}}\nresource \"b{i}\" \"web:index:Bucket\" {{\n  name = value{i}\n  versioning = \"maybe\"\n}}\n",
                if i == 7 { "1".to_owned() } else { format!("value{next} + 1") }
            );
            (format!("f{i}.pp"), text)
        })
        .chain([("deep.pp".to_owned(), deep), ("chain.pp".to_owned(), chain)])
        .collect();
    let edited = files[3].1.replace("missing3 = undefined3\n", "") + "added = undefinedAdded\n";
    let run = move |jobs: usize| {
        let files = files.clone();
        let edited = edited.clone();
        on_a_checking_thread(move || {
            let (mut host, _log) = logged_host();
            host.set_jobs(jobs);
            let files: Vec<(&str, &str)> = files
                .iter()
                .map(|(p, t)| (p.as_str(), t.as_str()))
                .collect();
            let id = set_program(&mut host, "parallel", &files);
            let loaded = summary(&diagnostics(&host, &id));
            host.set_file_text("parallel/f3.pp", edited);
            (loaded, summary(&diagnostics(&host, &id)))
        })
    };
    let (one, one_edited) = run(1);
    let count = |summary: &str, code: &str| summary.lines().filter(|l| l.starts_with(code)).count();
    assert_eq!(count(&one, "PCL4001"), 8 + 3, "{one}");
    assert_eq!(count(&one, "PCL4004"), 8, "{one}");
    assert!(!one.contains("`unknown"), "suppressed: {one}");
    assert_eq!(
        one_edited.matches("`undefinedAdded`").count(),
        1,
        "{one_edited}"
    );
    assert_eq!(
        one_edited.matches("`undefined3`").count(),
        0,
        "{one_edited}"
    );
    assert_eq!(run(2), (one, one_edited));
}

/// `f`'s result, run on a thread with the stack of the CLI's checking thread.
fn on_a_checking_thread<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(crate::CHECK_STACK_SIZE)
        .spawn(f)
        .expect("a thread starts")
        .join()
        .expect("no panic")
}

/// A program of one large file (past 512 KiB, parsed a window of tokens at a time) gets
/// the same diagnostics on two threads, where its tokens are lexed on a thread of their
/// own ahead of the parser, as on one: names it does not declare, names and attributes
/// set twice, a reference to itself, an expression the parser recovers from (brackets
/// balanced, so the windowed parse stands).
#[test]
fn a_large_file_checks_on_two_threads_as_on_one() {
    let mut text = String::new();
    for i in 0..6_000usize {
        let _ = writeln!(
            text,
            "value{i} = \"${{value{}}}-{i}\" # a comment to make the file large\nlist{i} = [for x in [1, 2, 3] : x + {i}]",
            i.saturating_sub(1)
        );
        match i % 1_500 {
            7 => text.push_str(&format!("missing{i} = undefined{i}\n")),
            8 => text.push_str(&format!("value{} = 2\n", i - 1)),
            9 => text.push_str(&format!("broken{i} = 1 +\n")),
            _ => {}
        }
    }
    assert!(text.len() > 512 * 1024, "{} bytes", text.len());
    let run = move |jobs: usize| {
        let text = text.clone();
        on_a_checking_thread(move || {
            let (mut host, _log) = logged_host();
            host.set_jobs(jobs);
            let id = set_program(&mut host, "large", &[("main.pp", &text)]);
            summary(&diagnostics(&host, &id))
        })
    };
    let one = run(1);
    let count = |code: &str| one.lines().filter(|l| l.starts_with(code)).count();
    assert_eq!(
        (count("PCL4001"), count("PCL1"), one.lines().count()),
        (4, 8, 17),
        "{one}"
    );
    assert_eq!(run(2), one);
}

/// A block's given names are looked for one by one when there are few and through a
/// sorted list when there are many: either way only the input not given is missing.
#[test]
fn required_inputs_are_found_among_few_and_many_given_names() {
    for extra in [0, 20] {
        let mut text = String::from("resource \"page\" \"web:index:Page\" {\n");
        for i in 0..extra {
            let _ = writeln!(text, "  extra{i} = {i}");
        }
        text.push_str("  key    = \"index.html\"\n  bucket = \"site\"\n}\n");
        let (mut host, _log) = logged_host();
        let id = set_program(&mut host, "given", &[("main.pp", &text)]);
        let found = summary(&diagnostics(&host, &id));
        let missing: Vec<&str> = (found.lines())
            .filter(|line| line.contains("is missing the required input"))
            .collect();
        assert_eq!(
            missing,
            ["PCL4007 resource 'web:index:Page' is missing the required input 'content'"],
            "{extra} extra names:\n{found}"
        );
        let unknown = found.lines().filter(|line| line.contains("extra")).count();
        assert_eq!(unknown, extra, "{found}");
    }
}
