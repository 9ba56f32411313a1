//! Fuzz target: `pcl check` on any program. Checking never panics or hangs, every
//! diagnostic lies inside the text, also when the program is checked again after an edit
//! (a declaration appended), and checking on two threads (`--jobs 2`) finds the same
//! diagnostics in the same order. Resources may use the `web` package of the repo's
//! example schema.
//!
//! `cargo xtask fuzz check`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pcl_ide::AnalysisHost;

const SCHEMA: &str = include_str!("../../tests/data/programs/schemas/web-1.0.0.json");

fn check(host: &AnalysisHost, id: &pcl_ide::ProgramId, len: usize) -> Vec<String> {
    let found = host.analysis().program_diagnostics(id).expect("nothing cancels");
    let mut res = Vec::new();
    for file in found {
        for d in file.diagnostics {
            if let Some(span) = d.span() {
                assert!(usize::from(span.range.end()) <= len, "{d:?} lies outside the text");
            }
            res.push(format!("{d:?}"));
        }
    }
    res
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let text = text.to_owned();
    // The CLI checks on a thread with a large stack; so does this target.
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || {
        let load = |jobs: usize| {
            let mut host = AnalysisHost::new(Vec::new(), pcl_ide::Leniency::default());
            host.set_jobs(jobs);
            host.add_schema("web.json", SCHEMA).expect("the schema loads");
            let id = host.set_program("fuzz", vec![("fuzz/main.pp".into(), text.clone())]);
            host.load_dependencies();
            (host, id)
        };
        let (mut host, id) = load(1);
        let first = check(&host, &id, text.len());
        let (parallel, parallel_id) = load(2);
        assert_eq!(check(&parallel, &parallel_id, text.len()), first, "two jobs differ");
        let _ = host.analysis().declaration_types(&id).expect("nothing cancels");
        let edited = format!("{text}\nzzzFuzzAppended = 1\n");
        host.set_file_text("fuzz/main.pp", edited.clone());
        let _ = (first, check(&host, &id, edited.len()));
    });
    if let Ok(handle) = worker {
        if let Err(panic) = handle.join() {
            std::panic::resume_unwind(panic);
        }
    }
});
