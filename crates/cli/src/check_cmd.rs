//! `pcl check PATH...`: bind and type check whole programs against their package schemas
//! and report every diagnostic, with the same output formats, colour rules, error cap and
//! summary line as `pcl parse`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use pcl_diagnostics::Severity;
use pcl_ide::AnalysisHost;
use smol_str::SmolStr;

use crate::fetching::FetchArgs;
use crate::jobs::JobsArgs;
use crate::leniency::LeniencyArgs;
use crate::report::{ColorWhen, OutputArgs, Reporter, Totals, plural};
use crate::sources::Sources;
use crate::{programs, projects};

/// Check PCL programs: names, types, resource inputs against package schemas.
#[derive(clap::Args)]
#[command(after_help = "\
Programs: a DIRECTORY holding .pp files is one program (its files share one namespace);
a directory without .pp files of its own checks every program below it (walked in
sorted order, skipping hidden entries and links to directories), and each PCL project
below it with its stacks; a FILE is checked with
the other .pp files of its directory, showing only its own diagnostics; `-` reads one
file from standard input. Components are loaded from the directories they name, and
their programs are checked and reported too (unless a FILE limits what is shown).

Schemas: resource and function types come from Pulumi package schemas (NAME.json or
NAME-VERSION.json) found in the --schema-dir directories, then in PCL_SCHEMA_PATH, then in
Pulumi's schema cache ($PULUMI_HOME/schemas) and ours ($XDG_CACHE_HOME/pcl/schemas). Get one
with `pulumi package get-schema NAME > DIR/NAME.json`.

Projects: a DIRECTORY with a Pulumi project file (Pulumi.yaml, Pulumi.yml or Pulumi.json)
checks the program at the project's `main` and, with `runtime: pcl`, every stack file
(Pulumi.STACK.yaml beside it or in its stackConfigDir): config keys and values against the
program's config blocks and the providers' schemas, and the required configs each stack
must set. --stack NAME checks one stack. A path below a project file gets stack checks
when it is the project's main program.

Suppressions: a comment `# pcl-ignore PCL4008` on the line before a statement silences
that code inside the statement.

Exit codes:
  0  no errors (warnings are fine unless --deny-warnings)
  1  errors
  2  usage or IO error (a --stack whose file is missing), or no programs found")]
pub(crate) struct CheckArgs {
    /// Program directories or .pp files to check; `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// A directory of package schemas (repeatable); searched before PCL_SCHEMA_PATH.
    #[arg(long = "schema-dir", value_name = "DIR")]
    schema_dir: Vec<PathBuf>,
    /// Check only this stack's config (its short name, or `org/project/stack`).
    #[arg(long, value_name = "NAME")]
    stack: Option<String>,
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
    if let Some(error) = crate::inputs::schema_dir_error(&args.schema_dir) {
        return crate::usage_error(&error);
    }
    let resolved = projects::resolve(&args.paths, args.stack.as_deref());
    if !resolved.usage_errors.is_empty() {
        for error in &resolved.usage_errors {
            reporter.message(Severity::Error, error);
        }
        return ExitCode::from(2);
    }
    let (requests, mut io_errors) = programs::requests(&resolved.paths);
    io_errors.extend(resolved.read_errors.iter().cloned());
    if requests.is_empty() {
        for error in &io_errors {
            reporter.io_error(error);
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
    let (mut loaded, read_errors) = programs::load(&mut host, requests, jobs);
    let components = programs::component_programs(&host, &loaded);
    loaded.extend(components);
    host.load_packages(
        &projects::provider_namespaces(&resolved.projects)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    io_errors.extend(read_errors);
    for error in &io_errors {
        reporter.io_error(error);
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
        let mut files = program.files.clone();
        // Each file's diagnostics, moved out by path (a program's paths are distinct).
        let mut by_path: HashMap<SmolStr, Vec<pcl_diagnostics::Diagnostic>> = (by_file.into_iter())
            .map(|d| (d.path, d.diagnostics))
            .collect();
        let mut diagnostics: Vec<Vec<pcl_diagnostics::Diagnostic>> = (files.iter())
            .map(|file| by_path.remove(file.name.as_str()).unwrap_or_default())
            .collect();
        let project = (resolved.projects.iter()).find(|p| {
            pcl_ide::normalise_dir(&p.program_dir) == pcl_ide::normalise_dir(&program.dir)
        });
        if let Some(project) = project {
            projects::check(
                &analysis,
                &program.id,
                project,
                &mut files,
                &mut diagnostics,
            );
        }
        let sources = Sources::new(&files);
        for (index, file) in files.iter().enumerate() {
            if index < program.files.len() && !program.shows(index) {
                continue;
            }
            totals.add_file(file);
            let diagnostics = &diagnostics[index];
            warnings += diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .count();
            reporter.program_file(&sources, index, diagnostics);
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
    if reporter.io_errors() > 0 {
        ExitCode::from(2)
    } else if reporter.errors() > 0 || (args.deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
