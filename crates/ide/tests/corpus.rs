//! The shared corpus the other way round: `cargo xtask check --baseline
//! tests/data/corpus-baseline.tsv` (run by `.ci/run`) pins that valid programs check
//! clean; here, each valid program with one mistake put in must be rejected at the
//! mistake.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use pcl_diagnostics::Severity;
use pcl_ide::AnalysisHost;
use pcl_test_utils::{corpus_dir, files_with_extensions, project_root};

const CORPORA: &[(&str, &[&str])] = &[
    ("pulumi-codegen", &["schemas/conformance", "schemas"]),
    ("pulumi-conformance", &["schemas/conformance", "schemas"]),
];

struct Row {
    mode: String,
    codes: String,
}

fn baseline_path() -> PathBuf {
    project_root().join("tests/data/corpus-baseline.tsv")
}

fn read_baseline() -> BTreeMap<String, Row> {
    let text = std::fs::read_to_string(baseline_path()).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|line| {
            let mut parts = line.splitn(4, '\t');
            let program = parts.next()?.to_owned();
            let row = Row {
                mode: parts.next()?.to_owned(),
                codes: parts.next()?.to_owned(),
            };
            Some((program, row))
        })
        .collect()
}

/// The program directories of a corpus: every directory that directly holds `.pp` files.
fn programs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = files_with_extensions(root, &["pp"])
        .into_iter()
        .filter_map(|f| f.parent().map(Path::to_path_buf))
        .collect();
    dirs.dedup();
    dirs
}

/// One mistake put into a valid program: where, and the code that must be reported there.
struct Mutation {
    file: usize,
    offset: usize,
    old: String,
    new: String,
    code: &'static str,
}

/// A typo in the first input of the first resource with inputs, and in the first
/// reference to a declaration.
fn mutations(files: &[(String, String)]) -> Vec<Mutation> {
    use pcl_syntax::ast::{self, AstNode};
    let mut res = Vec::new();
    let mut input_done = false;
    let mut reference_done = false;
    for (i, (_, text)) in files.iter().enumerate() {
        let parse = pcl_syntax::parse(text);
        let Some(body) = parse.tree().body() else {
            continue;
        };
        let declared: Vec<String> = body
            .items()
            .filter_map(|item| match item {
                ast::Item::Attribute(a) => a.name().map(|n| n.text().to_owned()),
                ast::Item::Block(b) if b.type_name().is_some_and(|t| t.text() != "output") => {
                    b.labels().next().and_then(|l| l.value())
                }
                ast::Item::Block(_) => None,
            })
            .collect();
        for block in body.blocks() {
            if input_done || block.type_name().is_none_or(|t| t.text() != "resource") {
                continue;
            }
            let first = block.body().and_then(|b| {
                b.attributes()
                    .find(|a| a.name().is_some_and(|n| n.text() != "__logicalName"))
            });
            if let Some(name) = first.and_then(|a| a.name()) {
                res.push(Mutation {
                    file: i,
                    offset: name.text_range().start().into(),
                    old: name.text().to_owned(),
                    new: format!("{}Typo", name.text()),
                    code: "PCL4006",
                });
                input_done = true;
            }
        }
        if !reference_done {
            let variable = parse
                .syntax_node()
                .descendants()
                .filter_map(ast::VariableExpr::cast)
                .find(|v| {
                    v.name()
                        .is_some_and(|n| declared.contains(&n.text().to_owned()))
                        && v.syntax()
                            .parent()
                            .is_some_and(|p| p.kind() != pcl_syntax::SyntaxKind::OBJECT_KEY)
                        && v.syntax().ancestors().all(|a| {
                            !matches!(
                                a.kind(),
                                pcl_syntax::SyntaxKind::FOR_TUPLE_EXPR
                                    | pcl_syntax::SyntaxKind::FOR_OBJECT_EXPR
                                    | pcl_syntax::SyntaxKind::TEMPLATE_FOR
                            )
                        })
                });
            if let Some(name) = variable.and_then(|v| v.name()) {
                res.push(Mutation {
                    file: i,
                    offset: name.text_range().start().into(),
                    old: name.text().to_owned(),
                    new: format!("{}Typo", name.text()),
                    code: "PCL4001",
                });
                reference_done = true;
            }
        }
    }
    res
}

/// The checker is measured both ways: valid programs check clean (the baseline), and a
/// valid program with one mistake put in is rejected at the mistake.
#[test]
fn a_mistake_in_a_valid_corpus_program_is_reported_where_it_is() {
    let Some(corpus) = corpus_dir() else { return };
    let baseline = read_baseline();
    let mut tried = 0;
    let mut missed = String::new();
    for (name, schema_dirs) in CORPORA {
        let root = corpus.join(name);
        for dir in programs(&root) {
            let key = format!(
                "{name}/{}",
                dir.strip_prefix(&root).unwrap_or(&dir).display()
            );
            if baseline
                .get(&key)
                .is_none_or(|row| row.mode != "strict" || row.codes != "-")
            {
                continue;
            }
            let files: Vec<(String, String)> = files_with_extensions(&dir, &["pp"])
                .into_iter()
                .filter(|f| f.parent() == Some(dir.as_path()))
                .map(|f| {
                    (
                        f.display().to_string(),
                        std::fs::read_to_string(&f).unwrap_or_default(),
                    )
                })
                .collect();
            for mutation in mutations(&files) {
                tried += 1;
                let mut changed = files.clone();
                let text = &mut changed[mutation.file].1;
                text.replace_range(
                    mutation.offset..mutation.offset + mutation.old.len(),
                    &mutation.new,
                );
                let dirs = schema_dirs.iter().map(|d| corpus.join(d)).collect();
                let mut host = AnalysisHost::new(dirs, pcl_ide::Leniency::default());
                let program_files = changed
                    .iter()
                    .map(|(p, t)| (p.as_str().into(), t.clone()))
                    .collect();
                let id = host.set_program(&dir.display().to_string(), program_files);
                host.load_dependencies();
                let found = host
                    .analysis()
                    .program_diagnostics(&id)
                    .expect("no cancellation");
                let path = &changed[mutation.file].0;
                let hit = found
                    .iter()
                    .filter(|f| f.path == path.as_str())
                    .flat_map(|f| &f.diagnostics)
                    .any(|d| {
                        d.severity == Severity::Error
                            && d.code.to_string() == mutation.code
                            && d.span()
                                .is_some_and(|s| usize::from(s.range.start()) == mutation.offset)
                    });
                if !hit {
                    let _ = writeln!(
                        missed,
                        "{key}: `{}` -> `{}` at {path}:{} ({}) not reported",
                        mutation.old, mutation.new, mutation.offset, mutation.code
                    );
                }
            }
        }
    }
    assert!(tried > 200, "only {tried} mutations were tried");
    assert!(
        missed.is_empty(),
        "{} of {tried} mistakes were missed:\n{missed}",
        missed.lines().count()
    );
}
