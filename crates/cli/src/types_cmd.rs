//! `pcl types PATH...`: the type of each top-level declaration, in source order, as
//! `KIND NAME: TYPE` (`local x: output(string)`, `config count: int`; a long type wrapped
//! over indented lines), or as JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use pcl_diagnostics::Severity;
use pcl_ide::AnalysisHost;
use serde::Serialize;

use crate::fetching::FetchArgs;
use crate::jobs::JobsArgs;
use crate::leniency::LeniencyArgs;
use crate::print_out;
use crate::programs;
use crate::report::{ColorWhen, Format, Reporter};

/// Print the type of every top-level declaration of PCL programs.
#[derive(clap::Args)]
#[command(after_help = "\
Programs are found as for `pcl check` (a directory, a .pp file with its siblings, or `-`).
Each declaration starts a line `KIND NAME: TYPE`, KIND one of local, config, resource,
read, output, component, hook, pulumi; a type too long for 100 columns goes on over
indented lines, an object property or a list of members per line. With several files, a
line `=== PATH` comes before each file's declarations. Types are printed in the
reference's syntax (`output(list(string))`), made readable: constants as their types
(`int`), long unions and tuples shortened. With
`--format json`, `type` is the exact display string, which `pcl type show` parses back.
Diagnostics are not shown: run `pcl check` for them.

Exit codes:
  0  types printed
  2  usage or IO error, or no programs found")]
pub(crate) struct TypesArgs {
    /// Program directories or .pp files; `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// A directory of package schemas (repeatable); searched before PCL_SCHEMA_PATH.
    #[arg(long = "schema-dir", value_name = "DIR")]
    schema_dir: Vec<PathBuf>,
    #[command(flatten)]
    leniency: LeniencyArgs,
    #[command(flatten)]
    fetch: FetchArgs,
    #[command(flatten)]
    jobs: JobsArgs,
    /// `human` (a line per declaration, long types wrapped) or `json` (one document:
    /// `{"declarations": [{"file", "kind", "name", "type"}]}`).
    #[arg(long, value_enum, default_value_t = Format::Human, value_name = "FORMAT")]
    format: Format,
}

#[derive(Serialize)]
struct JsonDeclaration<'a> {
    file: &'a str,
    kind: &'static str,
    name: &'a str,
    #[serde(rename = "type")]
    ty: &'a str,
}

#[derive(Serialize)]
struct JsonTypes<'a> {
    declarations: Vec<JsonDeclaration<'a>>,
}

pub(crate) fn run(args: TypesArgs, color: ColorWhen) -> ExitCode {
    let jobs = match args.jobs.jobs() {
        Ok(jobs) => jobs,
        Err(message) => return crate::usage_error(&message),
    };
    if let Some(error) = crate::inputs::schema_dir_error(&args.schema_dir) {
        return crate::usage_error(&error);
    }
    let mut reporter = Reporter::new(args.format, color, usize::MAX);
    let (requests, mut errors) = programs::requests(&args.paths);
    if requests.is_empty() {
        if errors.is_empty() {
            errors.push(crate::inputs::searched_for(&args.paths, &["pp"]));
        }
        for error in &errors {
            reporter.io_error(error);
        }
        return ExitCode::from(2);
    }
    let mut host = AnalysisHost::new(args.schema_dir.clone(), args.leniency.leniency());
    host.set_fetching(args.fetch.fetching());
    host.set_jobs(jobs);
    let (loaded, read_errors) = programs::load(&mut host, requests, jobs);
    errors.extend(read_errors);
    for error in &errors {
        reporter.io_error(error);
    }
    reporter.places(&host.take_schema_messages());
    let analysis = host.analysis();
    let mut all = Vec::new();
    for program in &loaded {
        let Ok(types) = analysis.declaration_types(&program.id) else {
            reporter.message(Severity::Error, "cancelled");
            return ExitCode::from(2);
        };
        all.extend(types.into_iter().filter(|t| {
            (program.files.iter().enumerate()).any(|(i, f)| f.name == t.path && program.shows(i))
        }));
    }
    let several_files = all.windows(2).any(|w| w[0].path != w[1].path);
    match args.format {
        Format::Human => {
            let mut out = String::new();
            let mut current: Option<&str> = None;
            for decl in &all {
                if several_files && current != Some(decl.path.as_str()) {
                    out.push_str(&format!("=== {}\n", decl.path));
                    current = Some(decl.path.as_str());
                }
                let head = format!("{} {}: ", decl.kind.keyword(), decl.name);
                let ty = pcl_types::wrapped(&decl.readable, head.len());
                out.push_str(&format!("{head}{ty}\n"));
            }
            print_out(&out);
        }
        Format::Json => {
            let document = JsonTypes {
                declarations: (all.iter())
                    .map(|d| JsonDeclaration {
                        file: &d.path,
                        kind: d.kind.keyword(),
                        name: &d.name,
                        ty: &d.ty,
                    })
                    .collect(),
            };
            let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
            text.push('\n');
            print_out(&text);
        }
    }
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}
