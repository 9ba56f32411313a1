//! What an edit recomputes, pinned by the queries salsa executes after it: the reason
//! the checker is built on salsa.

use expect_test::expect;

use super::{
    check_fixtures_and_a_generated_program, diagnostics, logged_host, offset_of, set_program,
    summary,
};

const MAIN: &str = r#"
resource "site" "web:index:Bucket" {
  name = "site"
  tags = { team = "web" }
}

resource "home" "web:index:Page" {
  bucket  = site.name
  key     = "index.html"
  content = "<h1>${title}</h1>"
}

title = "Welcome"
count = 3
doubled = count * 2
tripled = count * 3
unrelated = "x"
"#;

/// The program `prog` with `MAIN` open in an editor: set as a program from disk, then
/// as a document's text, which keeps it at low durability for the edits that follow.
fn open_main(host: &mut crate::AnalysisHost) -> crate::ProgramId {
    let id = set_program(host, "prog", &[("main.pp", MAIN)]);
    host.set_file_text("prog/main.pp", MAIN.to_owned());
    id
}

/// [`open_main`] on a host that logs queries, checked once, with the log emptied.
fn main_opened_and_checked() -> (
    crate::AnalysisHost,
    pcl_base_db::ExecutionLog,
    crate::ProgramId,
) {
    let (mut host, log) = logged_host();
    let id = open_main(&mut host);
    diagnostics(&host, &id);
    log.take();
    (host, log, id)
}

/// `text` with the first `from` replaced.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from} is in the text");
    text.replacen(from, to, 1)
}

#[test]
fn a_literal_edit_in_a_resource_re_infers_that_resource_only() {
    let (mut host, log) = logged_host();
    let id = open_main(&mut host);
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    log.take();
    // The first edit of an item moves it to low durability, and salsa does not backdate
    // a value that became less durable; but a resource without `range` is typed from
    // its token (the declarations summary), so its reader `home` is not checked again,
    // and stays at medium durability.
    host.set_file_text(
        "prog/main.pp",
        edit(MAIN, r#"team = "web""#, r#"team = "docs""#),
    );
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    assert_eq!(log.count("infer"), 1, "site only: {:#?}", log.take());
    log.take();
    // From then on, an edit re-infers what it changed.
    host.set_file_text(
        "prog/main.pp",
        edit(MAIN, r#"team = "web""#, r#"team = "ops""#),
    );
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    assert_eq!(log.count("infer"), 1, "{:#?}", log.take());
}

#[test]
fn whitespace_and_comment_edits_re_infer_nothing() {
    let (mut host, log, id) = main_opened_and_checked();
    let spaced = |spaces: &str| {
        edit(
            MAIN,
            "  key     = \"index.html\"",
            &format!("  # the page's path\n  key     ={spaces}\"index.html\"\n"),
        )
    };
    // The first edit of the item moves it to low durability (see above).
    host.set_file_text("prog/main.pp", spaced("  "));
    diagnostics(&host, &id);
    log.take();
    host.set_file_text("prog/main.pp", format!("# a comment\n\n{}", spaced("    ")));
    diagnostics(&host, &id);
    let executed = log.take();
    let infers: Vec<&String> = executed
        .iter()
        .filter(|q| q.starts_with("infer("))
        .collect();
    assert!(infers.is_empty(), "{infers:#?}");
    assert!(
        executed.iter().any(|q| q.starts_with("parse(")),
        "the file was reparsed"
    );
}

#[test]
fn changing_a_locals_type_re_infers_exactly_its_readers() {
    let (mut host, log, id) = main_opened_and_checked();
    // `count` goes from a constant int to a string: `doubled` and `tripled` read it.
    host.set_file_text("prog/main.pp", edit(MAIN, "count = 3", "count = \"3\""));
    diagnostics(&host, &id);
    assert_eq!(
        log.count("infer"),
        3,
        "count, doubled, tripled: {:#?}",
        log.take()
    );
    log.take();
    // The same type again (another constant string): only `count` itself re-runs.
    host.set_file_text("prog/main.pp", edit(MAIN, "count = 3", "count = \"4\""));
    diagnostics(&host, &id);
    assert_eq!(log.count("infer"), 1, "{:#?}", log.take());
}

#[test]
fn a_type_change_re_checks_only_the_inputs_that_read_it() {
    let (mut host, log, id) = main_opened_and_checked();
    // `title` goes from a string to a number: `home` reads it in one of its three inputs.
    // In a document each input is checked in a memo of its own: that input is checked
    // again, `home` itself is not.
    let edited = edit(MAIN, r#"title = "Welcome""#, "title = 42");
    let executed = clean_edit(&mut host, &log, &id, &edited);
    assert_eq!(ran(&executed, "infer("), 1, "title only: {executed:#?}");
    assert_eq!(
        ran(&executed, "input_check("),
        1,
        "home's content only: {executed:#?}"
    );
    // Once `title` is at low durability (its first edit moved it there), a type change
    // that leaves the input's diagnostics as they were stops at the input: `home`'s
    // diagnostics are not gathered again, and no input's types are computed until a
    // type is asked for.
    let edited = edit(MAIN, r#"title = "Welcome""#, "title = 4.5");
    let executed = clean_edit(&mut host, &log, &id, &edited);
    assert_eq!(ran(&executed, "input_check("), 1, "{executed:#?}");
    assert_eq!(
        ran(&executed, "decl_diagnostics("),
        1,
        "title's only: {executed:#?}"
    );
    assert_eq!(ran(&executed, "input_types("), 0, "{executed:#?}");
    // What the input's memo found is the declaration's: hover shows a type from it, in
    // the input checked again, and one from the block in an input checked in place.
    let hover = |at: &str| {
        let offset = offset_of(&edited, at) + pcl_syntax::TextSize::from(1);
        let hover = (host.analysis().hover("prog/main.pp", offset))
            .expect("no cancellation")
            .expect("a hover");
        hover.markdown
    };
    expect![[r#"
        ```pcl
        string
        ```"#]]
    .assert_eq(&hover("\"index.html"));
    expect![[r#"
        ```pcl
        string
        ```"#]]
    .assert_eq(&hover("<h1>"));
    // The hovers computed the types of the inputs they looked through, up to `content`:
    // `bucket` and `content` (`key` reads no name, so the block checks it in place).
    assert_eq!(log.count("input_types"), 2, "{:#?}", log.take());
}

/// In a document only the inputs that read a name get a memo of their own: `home`'s
/// `bucket` (`site.name`) and `content` (`${title}`); `site`'s inputs and `home`'s `key`
/// hold literals alone, which only their block's syntax can change.
#[test]
fn only_inputs_that_read_a_name_are_checked_apart() {
    let (mut host, log) = logged_host();
    let id = open_main(&mut host);
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    assert_eq!(log.count("input_check"), 2, "{:#?}", log.take());
}

/// Set `prog/main.pp` to `text`, which has no diagnostics: the queries that ran.
fn clean_edit(
    host: &mut crate::AnalysisHost,
    log: &pcl_base_db::ExecutionLog,
    id: &crate::ProgramId,
    text: &str,
) -> Vec<String> {
    log.take();
    host.set_file_text("prog/main.pp", text.to_owned());
    expect![""].assert_eq(&summary(&diagnostics(host, id)));
    log.take()
}

/// How many times `query` ran in `executed`.
fn ran(executed: &[String], query: &str) -> usize {
    executed.iter().filter(|q| q.starts_with(query)).count()
}

/// A program of `buckets` resources whose tags say `team` (as written: a literal or a
/// name), and a local `teamName`.
fn team_buckets(buckets: usize, team: &str) -> String {
    let mut text = String::from("teamName = \"t\"\n");
    for i in 0..buckets {
        text += &format!(
            "resource \"b{i}\" \"web:index:Bucket\" {{\n  name = \"b{i}\"\n  tags = {{ team = {team} }}\n}}\n"
        );
    }
    text
}

/// The syntax memos of the readers of `teamName` verified again when its type changes,
/// after an edit that made `buckets` resources read it, and how many inputs were
/// checked again.
fn readers_walked_after_a_type_change(buckets: usize) -> (usize, usize) {
    let (mut host, log) = logged_host();
    let id = set_program(
        &mut host,
        "prog",
        &[("main.pp", &team_buckets(buckets, "\"t\""))],
    );
    let path = "prog/main.pp";
    host.set_file_text(path, team_buckets(buckets, "\"t\""));
    diagnostics(&host, &id);
    let reading = team_buckets(buckets, "teamName");
    host.set_file_text(path, reading.clone());
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    host.set_file_text(path, edit(&reading, "teamName = \"t\"", "teamName = 2"));
    log.take();
    host.set_file_text(path, reading);
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    let walked = log.validated("decl_syntax");
    (walked, log.count("input_check"))
}

#[test]
fn after_an_edit_of_many_items_their_memos_are_verified_in_constant_time() {
    // An edit of a few items sets them at low durability: each later edit walks what
    // their memos read (the readers' syntax among it), as salsa verifies a low memo by
    // its dependencies.
    let (walked, checked) = readers_walked_after_a_type_change(4);
    assert_eq!(checked, 4, "each reader's tags");
    assert!(walked >= 4, "the readers' syntax is walked: {walked}");
    // An edit of more items at once (a replace-all) sets them at medium: the readers'
    // memos that do not read the changed type are verified without a walk.
    let (walked, checked) = readers_walked_after_a_type_change(40);
    assert_eq!(checked, 40, "each reader's tags");
    assert_eq!(walked, 0, "no reader's syntax is walked");
}

/// A large document's check is gathered by runs of its declarations: an edit that makes
/// a mistake in one declaration gathers that declaration's run again and the file's
/// runs, not every declaration's diagnostics.
#[test]
fn an_error_in_a_large_document_gathers_one_run_of_diagnostics_again() {
    let (mut host, log) = logged_host();
    let text: String = (0..600).map(|i| format!("value{i} = {i}\n")).collect();
    let broken = edit(&text, "value300 = 300", "value300 = missing");
    let id = set_program(&mut host, "large", &[("main.pp", &text)]);
    let path = "large/main.pp";
    // The first edit of `value300` moves it to low durability, and what reads it (the
    // file's order among it) is gathered again once.
    for text in [&text, &broken, &text] {
        host.set_file_text(path, text.clone());
        diagnostics(&host, &id);
    }
    log.take();
    host.set_file_text(path, broken);
    expect!["PCL4001 undefined name `missing`\n"].assert_eq(&summary(&diagnostics(&host, &id)));
    let executed = log.take();
    assert_eq!(ran(&executed, "infer("), 1, "value300 only: {executed:#?}");
    assert_eq!(
        ran(&executed, "chunk_check("),
        1,
        "its run only: {executed:#?}"
    );
    assert_eq!(ran(&executed, "file_check("), 1, "{executed:#?}");
}

/// A document checks each resource input in a memo of its own, a file from disk checks
/// its resources whole: both find the same diagnostics, in the same order, in every
/// check fixture and a generated program.
#[test]
fn documents_check_inputs_apart_as_files_from_disk_check_them_whole() {
    let (mut host, _log) = logged_host();
    let programs = check_fixtures_and_a_generated_program(&mut host);
    let found = |host: &crate::AnalysisHost| -> Vec<String> {
        (programs.iter())
            .map(|id| format!("{:#?}", diagnostics(host, id)))
            .collect()
    };
    let whole = found(&host);
    for id in &programs {
        let paths = host.analysis().program_files(id);
        for path in paths {
            let text = host
                .analysis()
                .file_text(&path)
                .expect("a file of the program");
            host.set_file_text(&path, text.to_string());
        }
    }
    let apart = found(&host);
    assert!(
        whole.iter().any(|d| d.contains("PCL")),
        "some fixtures have errors"
    );
    for (whole, apart) in whole.iter().zip(&apart) {
        assert_eq!(whole, apart);
    }
}

#[test]
fn adding_a_file_re_binds_but_does_not_re_infer_untouched_declarations() {
    let (mut host, log, _) = main_opened_and_checked();
    let id = set_program(
        &mut host,
        "prog",
        &[("main.pp", MAIN), ("extra.pp", "motto = \"${title}!\"\n")],
    );
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    let executed = log.take();
    assert!(
        executed.iter().any(|q| q.starts_with("bind(")),
        "names are re-bound: {executed:#?}"
    );
    let infers: Vec<&String> = executed
        .iter()
        .filter(|q| q.starts_with("infer("))
        .collect();
    assert_eq!(infers.len(), 1, "only the new declaration: {infers:#?}");
}

#[test]
fn a_declaration_inserted_before_others_leaves_their_inputs_alone() {
    let (mut host, log, id) = main_opened_and_checked();
    // Two edits far apart: the file is parsed whole, and its items are matched again.
    let inserted = format!(
        "first = 1\n{}",
        edit(MAIN, "unrelated = \"x\"", "unrelated = \"y\"")
    );
    host.set_file_text("prog/main.pp", inserted);
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    let infers: Vec<String> = (log.take().into_iter())
        .filter(|q| q.starts_with("infer("))
        .collect();
    // Matched by index, every item after `first` would have taken its predecessor's
    // input, been set at low durability and checked again.
    assert_eq!(infers.len(), 2, "first and unrelated only: {infers:#?}");
}

#[test]
fn a_file_read_again_keeps_the_inputs_of_the_items_it_kept() {
    // From disk (no editor's earlier parse to reparse from): the file is parsed whole,
    // and its items are matched with the inputs it had.
    let (mut host, log) = logged_host();
    let id = set_program(&mut host, "prog", &[("main.pp", MAIN)]);
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    log.take();
    let reread = format!(
        "first = 1\n{}",
        edit(MAIN, "unrelated = \"x\"", "unrelated = \"y\"")
    );
    set_program(&mut host, "prog", &[("main.pp", reread.as_str())]);
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    let infers: Vec<String> = (log.take().into_iter())
        .filter(|q| q.starts_with("infer("))
        .collect();
    assert_eq!(infers.len(), 2, "first and unrelated only: {infers:#?}");
}

#[test]
fn schemas_and_type_relations_survive_program_edits() {
    let (mut host, log, id) = main_opened_and_checked();
    host.set_file_text(
        "prog/main.pp",
        edit(MAIN, r#"name = "site""#, r#"name = "site2""#),
    );
    diagnostics(&host, &id);
    let executed = log.take();
    let schema_work: Vec<&String> = executed
        .iter()
        .filter(|q| {
            [
                "package_index",
                "decode_item",
                "resource_types",
                "named_object",
                "conversion",
                "unify",
                "traverse",
            ]
            .iter()
            .any(|name| q.starts_with(name))
        })
        .collect();
    assert!(schema_work.is_empty(), "{schema_work:#?}");
}

/// Typing inside one item syncs only that item's input (the parse says which); edits of
/// other items, and the program set again from disk, bring the items back in line. After
/// each step the diagnostics, with their ranges, are those of a host given the text anew.
#[test]
fn edits_inside_one_item_keep_every_item_in_line() {
    let (mut host, _log, id) = main_opened_and_checked();
    // An error after the edited items, whose range moves with them.
    let main = edit(MAIN, r#"unrelated = "x""#, "unrelated = nope");
    let steps = [
        edit(&main, "count = 3", "count = \"3\""),
        edit(&main, "count = 3", "count = \"34\""),
        edit(&main, "count = 3", "count = true"),
        edit(
            &edit(&main, "count = 3", "count = true"),
            r#"title = "Welcome""#,
            "title = 4",
        ),
        edit(&main, r#"key     = "index.html""#, "key     = 5"),
        edit(&main, r#"key     = "index.html""#, "key     = site.nope"),
    ];
    let fresh = |text: &str| {
        let (mut fresh, _) = logged_host();
        let fresh_id = set_program(&mut fresh, "prog", &[("main.pp", text)]);
        with_ranges(&diagnostics(&fresh, &fresh_id))
    };
    for (i, text) in steps.iter().enumerate() {
        if i == 4 {
            // A reload from disk in between: the program set whole, to another text.
            set_program(&mut host, "prog", &[("main.pp", &steps[1])]);
        }
        host.set_file_text("prog/main.pp", text.clone());
        assert_eq!(
            with_ranges(&diagnostics(&host, &id)),
            fresh(text),
            "step {i}: {text}"
        );
    }
}

/// Each diagnostic's code, message and range.
fn with_ranges(diagnostics: &[pcl_diagnostics::Diagnostic]) -> Vec<String> {
    (diagnostics.iter())
        .map(|d| format!("{} {} {:?}", d.code, d.message, d.anchor))
        .collect()
}

/// A block with `range` checks its inputs apart too: each input's memo types the range
/// variable again. A type change that leaves the reference fitting where it is read
/// (`reference_fit`) re-checks neither the input nor the block; one that makes it a
/// misfit re-checks the input, not the block.
#[test]
fn a_ranged_resources_inputs_are_checked_apart() {
    const RANGED: &str = r#"
resource "sites" "web:index:Bucket" {
  name = "site-${range.value}"
  tags = { team = team }
  options { range = 2 }
}
team = "web"
"#;
    let (mut host, log) = logged_host();
    let id = set_program(&mut host, "prog", &[("main.pp", RANGED)]);
    host.set_file_text("prog/main.pp", RANGED.to_owned());
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    // The first edit of `team` moves it to low durability (see above); then its type
    // changes again.
    let team = |value: &str| edit(RANGED, r#"team = "web""#, &format!("team = {value}"));
    clean_edit(&mut host, &log, &id, &team("4"));
    let last = clean_edit(&mut host, &log, &id, &team("true"));
    assert_eq!(ran(&last, "infer("), 1, "team only: {last:#?}");
    assert_eq!(ran(&last, "reference_fit("), 1, "team in a tag: {last:#?}");
    assert_eq!(
        ran(&last, "input_check("),
        0,
        "a bool is a string there: {last:#?}"
    );
    log.take();
    host.set_file_text("prog/main.pp", team("[true]"));
    let found = summary(&diagnostics(&host, &id));
    let last = log.take();
    assert_eq!(ran(&last, "input_check("), 1, "sites' tags only: {last:#?}");
    assert_eq!(
        ran(&last, "decl_diagnostics("),
        2,
        "team's, sites': {last:#?}"
    );
    expect![[r#"
        PCL4008 key 'team' of input 'tags' must be string, not tuple(bool)
    "#]]
    .assert_eq(&found);
    // A range error is the block's, reported once.
    let broken = edit(RANGED, "range = 2", "range = \"x\"");
    host.set_file_text("prog/main.pp", broken);
    let found = summary(&diagnostics(&host, &id));
    assert_eq!(found.lines().count(), 1, "{found}");
}

/// The outline looks for `invoke` calls only in the items the parser saw the name in: an
/// edit that types one into an item (the item alone is parsed again), or into a new item,
/// has its package loaded as a whole check of the new text does.
#[test]
fn a_range_counts_edit_re_checks_only_its_literal_index_readers() {
    const COUNTED: &str = r#"
resource "sites" "web:index:Bucket" {
  name = "site-${range.value}"
  options { range = 3 }
}
last = sites[2].name
other = "x"
"#;
    let (mut host, log) = logged_host();
    let id = set_program(&mut host, "prog", &[("main.pp", COUNTED)]);
    expect![""].assert_eq(&summary(&diagnostics(&host, &id)));
    // The first edits move `sites` to low durability (see above).
    let count = |n: &str| edit(COUNTED, "range = 3", &format!("range = {n}"));
    clean_edit(&mut host, &log, &id, &count("4"));
    let last = clean_edit(&mut host, &log, &id, &count("5"));
    assert_eq!(ran(&last, "literal_range_count("), 1, "{last:#?}");
    assert_eq!(ran(&last, "infer("), 2, "sites and last only: {last:#?}");
    log.take();
    host.set_file_text("prog/main.pp", count("2"));
    expect![[r#"
        PCL3004 `sites` makes 2 resources (`range = 2`): index 2 is past the last, `sites[1]`
    "#]]
    .assert_eq(&summary(&diagnostics(&host, &id)));
}

#[test]
fn an_invoke_typed_into_an_item_has_its_package_loaded() {
    let before = "x = 1\ny = 2\n";
    let call = "invoke(\"web:index:getRegion\", { bucket = \"b\" })";
    let typed = edit(before, "x = 1", &format!("x = {call}"));
    let added = format!("{before}z = {call}\n");
    for after in [typed, added] {
        let (mut host, _log) = logged_host();
        let id = set_program(&mut host, "edited", &[("main.pp", before)]);
        host.set_file_text("edited/main.pp", before.to_owned());
        assert_eq!(summary(&diagnostics(&host, &id)), "");
        host.set_file_text("edited/main.pp", after.clone());
        host.load_dependencies();
        assert_eq!(summary(&diagnostics(&host, &id)), "", "{after}");
    }
}
