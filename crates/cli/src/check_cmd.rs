//! `pcl check PATH...`: bind and type check whole programs against their package schemas
//! and report every diagnostic, with the same output formats, colour rules, error cap and
//! summary line as `pcl parse`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use pcl_diagnostics::Severity;
use pcl_ide::AnalysisHost;

use crate::fetching::FetchArgs;
use crate::jobs::JobsArgs;
use crate::leniency::LeniencyArgs;
use crate::programs;
use crate::report::{ColorWhen, OutputArgs, Reporter, Totals, plural};

/// Check PCL programs: names, types, resource inputs against package schemas.
#[derive(clap::Args)]
#[command(after_help = "\
Programs: a DIRECTORY holding .pp files is one program (its files share one namespace);
a directory without .pp files of its own checks every program below it (walked in
sorted order, skipping hidden entries and links to directories); a FILE is checked with
the other .pp files of its directory, showing only its own diagnostics; `-` reads one
file from standard input. Components are loaded from the directories they name.

Schemas: resource and function types come from Pulumi package schemas (NAME.json or
NAME-VERSION.json) found in the --schema-dir directories, then in PCL_SCHEMA_PATH, then in
Pulumi's schema cache ($PULUMI_HOME/schemas) and ours ($XDG_CACHE_HOME/pcl/schemas). Get one
with `pulumi package get-schema NAME > DIR/NAME.json`.

Suppressions: a comment `# pcl-ignore PCL4008` on the line before a statement silences
that code inside the statement.

Exit codes:
  0  no errors (warnings are fine unless --deny-warnings)
  1  errors
  2  usage or IO error, or no programs found")]
pub(crate) struct CheckArgs {
    /// Program directories or .pp files to check; `-` reads standard input.
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
    /// Count warnings as errors for the exit code.
    #[arg(long)]
    deny_warnings: bool,
    #[command(flatten)]
    output: OutputArgs,
}

pub(crate) fn run(args: CheckArgs, color: ColorWhen) -> ExitCode {
    let start = Instant::now();
    let jobs = match args.jobs.jobs() {
        Ok(jobs) => jobs,
        Err(message) => return crate::usage_error(&message),
    };
    let mut reporter = Reporter::new(args.output.format, color, args.output.max_errors);
    let (requests, mut io_errors) = programs::requests(&args.paths);
    if requests.is_empty() {
        for error in &io_errors {
            reporter.message(Severity::Error, error);
        }
        if io_errors.is_empty() {
            let searched = crate::inputs::searched_for(&args.paths, &["pp"]);
            reporter.message(Severity::Error, &searched);
        }
        return ExitCode::from(2);
    }
    let mut host = AnalysisHost::new(args.schema_dir.clone(), args.leniency.leniency());
    host.set_fetching(args.fetch.fetching());
    host.set_jobs(jobs);
    let (loaded, read_errors) = programs::load(&mut host, requests);
    io_errors.extend(read_errors);
    for error in &io_errors {
        reporter.message(Severity::Error, error);
    }
    reporter.places(&host.take_schema_messages());
    let analysis = host.analysis();
    let mut totals = Totals::default();
    let mut warnings = 0;
    for program in &loaded {
        let Ok(by_file) = analysis.program_diagnostics(&program.id) else {
            reporter.message(Severity::Error, "the check was cancelled");
            return ExitCode::from(2);
        };
        for (index, file) in program.files.iter().enumerate() {
            if !program.shows(index) {
                continue;
            }
            totals.add(&file.text);
            let diagnostics = (by_file.iter())
                .find(|d| d.path == file.name)
                .map(|d| d.diagnostics.clone())
                .unwrap_or_default();
            warnings += diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .count();
            reporter.program_file(&program.files, index, &diagnostics);
        }
    }
    if !args.output.quiet {
        let verb = format!("checked {},", plural(loaded.len(), "program", "programs"));
        reporter.summary(&verb, &totals, start.elapsed());
    }
    reporter.finish();
    // The process ends here: freeing the database piece by piece would only cost time.
    std::mem::forget(analysis);
    std::mem::forget(host);
    if !io_errors.is_empty() {
        ExitCode::from(2)
    } else if reporter.errors() > 0 || (args.deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
