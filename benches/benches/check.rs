//! `pcl check` on generated programs of 1,000, 10,000 and 100,000 resources with schema
//! types (references in chains and fan-out, for-expressions, templates, heredocs, invokes,
//! ranges), each in one file and split over 100 files: the cold check against parsing
//! alone, and re-checking after a one-literal edit, a whitespace edit and a local's type
//! change, and a hover after an edit. Arguments are `RESOURCES/FILES` (`10k/100`); set
//! `PCL_BENCH_SIZES=1k,10k` to leave sizes out. Report ratios from one run.
//!
//! `cargo bench -p pcl-benches --bench check`.

use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::BytesCount;
use pcl_ide::{AnalysisHost, ProgramId};
use pcl_test_utils::checked::{CheckedProgram, checked_program};
use smol_str::SmolStr;

fn main() {
    divan::main();
}

/// The sizes and layouts benched: `RESOURCES/FILES`, resources as `1k`, `10k`, `100k`.
const LAYOUTS: [&str; 6] = ["1k/100", "1k/1", "10k/100", "10k/1", "100k/100", "100k/1"];

/// The layouts whose size `PCL_BENCH_SIZES` (comma-separated, e.g. `1k,10k`) names; all
/// when it is unset.
fn layouts() -> Vec<&'static str> {
    let wanted = std::env::var("PCL_BENCH_SIZES").ok();
    LAYOUTS
        .into_iter()
        .filter(|layout| {
            let size = layout.split('/').next().unwrap_or_default();
            wanted
                .as_deref()
                .is_none_or(|wanted| wanted.split(',').any(|w| w.trim() == size))
        })
        .collect()
}

/// The generated program of a layout, made once.
fn program(layout: &str) -> &'static CheckedProgram {
    static PROGRAMS: [OnceLock<CheckedProgram>; 6] = [const { OnceLock::new() }; 6];
    let index = LAYOUTS
        .iter()
        .position(|l| *l == layout)
        .expect("a known layout");
    PROGRAMS[index].get_or_init(|| {
        let (size, files) = layout.split_once('/').expect("RESOURCES/FILES");
        let resources = match size {
            "1k" => 1_000,
            "10k" => 10_000,
            _ => 100_000,
        };
        checked_program(resources, files.parse().expect("a file count"), 1)
    })
}

fn bytes(program: &CheckedProgram) -> usize {
    program.files.iter().map(|(_, text)| text.len()).sum()
}

/// A host with the program and its schema set, not yet checked.
fn host(program: &CheckedProgram) -> (AnalysisHost, ProgramId) {
    let mut host = AnalysisHost::new(Vec::new(), pcl_ide::Leniency::default());
    host.add_schema("gen.json", &program.schema)
        .expect("the generated schema loads");
    let files = (program.files.iter())
        .map(|(name, text)| (SmolStr::new(format!("gen/{name}")), text.clone()))
        .collect();
    let id = host.set_program("gen", files);
    host.load_dependencies();
    (host, id)
}

/// A checked host with the middle file open in an editor (set as a document, so that it
/// stays at low durability as an editor's document does) and edited once where a literal
/// is, and where that literal is.
struct Edited {
    host: AnalysisHost,
    id: ProgramId,
    path: String,
    text: &'static String,
    /// Just after `size    = ` in the middle of the file.
    at: usize,
}

impl Edited {
    /// The file as it was, with `piece` inserted at the literal, set as its text.
    fn insert(&mut self, piece: &str) {
        let mut edited = self.text.clone();
        edited.insert_str(self.at, piece);
        self.host.set_file_text(&self.path, edited);
    }
}

fn edited(program: &'static CheckedProgram) -> Edited {
    let (mut host, id) = host(program);
    let (name, text) = &program.files[program.files.len() / 2];
    let path = format!("gen/{name}");
    host.set_file_text(&path, text.clone());
    check(&host, &id);
    let target = "size    = ";
    let at = text.len() / 2
        + text[text.len() / 2..]
            .find(target)
            .expect("a size attribute")
        + target.len();
    // The first edit of a declaration moves it to low durability and re-checks its
    // readers once; the benches measure the edits after it.
    let mut first_edit = text.clone();
    first_edit.insert(at, '0');
    host.set_file_text(&path, first_edit);
    check(&host, &id);
    host.set_file_text(&path, text.clone());
    check(&host, &id);
    Edited {
        host,
        id,
        path,
        text,
        at,
    }
}

fn check(host: &AnalysisHost, id: &ProgramId) -> usize {
    let found = host
        .analysis()
        .program_diagnostics(id)
        .expect("nothing cancels");
    let count = found.iter().map(|f| f.diagnostics.len()).sum();
    assert_eq!(count, 0, "the generated program checks clean");
    count
}

#[divan::bench(args = layouts(), sample_count = 10)]
fn parse_only(bencher: Bencher<'_, '_>, layout: &str) {
    let program = program(layout);
    bencher.counter(BytesCount::new(bytes(program))).bench(|| {
        program
            .files
            .iter()
            .map(|(_, text)| pcl_syntax::parse(text).errors().len())
            .sum::<usize>()
    });
}

#[divan::bench(args = layouts(), sample_count = 10)]
fn cold_check(bencher: Bencher<'_, '_>, layout: &str) {
    let program = program(layout);
    // Everything `pcl check` does after reading the files: loading the schema, setting the
    // program (which parses it and syncs its summaries) and checking. The host is dropped
    // after the timing.
    bencher
        .counter(BytesCount::new(bytes(program)))
        .bench_local(|| {
            let (host, id) = host(program);
            check(&host, &id);
            host
        });
}

/// One literal in the middle of the program changes; everything is checked again.
#[divan::bench(args = layouts(), sample_count = 20)]
fn incremental_literal(bencher: Bencher<'_, '_>, layout: &str) {
    let mut edited = edited(program(layout));
    let mut flip = 0u32;
    bencher.bench_local(|| {
        flip += 1;
        edited.insert(&flip.to_string());
        check(&edited.host, &edited.id)
    });
}

/// The same edit, then only the edited file's diagnostics (what an editor asks for).
#[divan::bench(args = layouts(), sample_count = 20)]
fn incremental_literal_edited_file(bencher: Bencher<'_, '_>, layout: &str) {
    let mut edited = edited(program(layout));
    let mut flip = 0u32;
    bencher.bench_local(|| {
        flip += 1;
        edited.insert(&flip.to_string());
        let found = (edited.host.analysis())
            .file_diagnostics(&edited.id, &edited.path)
            .expect("nothing cancels");
        found.map_or(0, |f| f.diagnostics.len())
    });
}

/// A whitespace edit inside a declaration: the file is re-parsed, nothing is re-checked.
#[divan::bench(args = layouts(), sample_count = 20)]
fn incremental_whitespace(bencher: Bencher<'_, '_>, layout: &str) {
    let mut edited = edited(program(layout));
    let mut spaces = 0usize;
    bencher.bench_local(|| {
        spaces = spaces % 8 + 1;
        edited.insert(&" ".repeat(spaces));
        check(&edited.host, &edited.id)
    });
}

/// The type of a local read by others changes (a string becomes a number and back): its
/// readers are re-checked.
#[divan::bench(args = layouts(), sample_count = 20)]
fn incremental_type_change(bencher: Bencher<'_, '_>, layout: &str) {
    let program = program(layout);
    let (mut host, id) = host(program);
    check(&host, &id);
    // `label0` is read by no one; `env` (a config read by every resource) is the local
    // with the most readers, so give the program a local that every tag reads.
    let (name, text) = &program.files[0];
    let path = format!("gen/{name}");
    let with_local = format!(
        "teamName = \"t\"\n{}",
        text.replace("team = \"t0\"", "team = teamName")
    );
    host.set_file_text(&path, with_local.clone());
    check(&host, &id);
    let mut flip = false;
    bencher.bench_local(|| {
        flip = !flip;
        let value = if flip { "2" } else { "\"t\"" };
        host.set_file_text(
            &path,
            with_local.replacen("teamName = \"t\"", &format!("teamName = {value}"), 1),
        );
        check(&host, &id)
    });
}

/// An editor's round trip: one literal edited, then hover on a reference in the edited
/// file (what the language server answers from a fresh snapshot).
#[divan::bench(args = layouts(), sample_count = 20)]
fn hover_after_edit(bencher: Bencher<'_, '_>, layout: &str) {
    let mut edited = edited(program(layout));
    let at = edited.at;
    let hover_at = edited.text[at..]
        .find("refId = ")
        .map(|i| at + i + "refId = ".len() + 1)
        .expect("a reference");
    let mut flip = 0u32;
    bencher.bench_local(|| {
        flip = flip % 9 + 1;
        edited.insert(&flip.to_string());
        let offset = (hover_at + flip.to_string().len()) as u32;
        let hover = (edited.host.analysis())
            .hover(&edited.path, offset.into())
            .expect("nothing cancels");
        assert!(hover.is_some(), "a hover on the reference");
    });
}
