//! `pcl schema`: what a Pulumi package schema offers. A package (by name, `NAME@VERSION`,
//! a schema file, or `-` for standard input) lists its resources, functions, types and
//! configuration; a token prints its input and output types (resources), its argument and
//! result types (functions), or its definition (types), in type display syntax with each
//! property marked required or optional. `--check` lowers every item and reports every
//! problem with its JSON pointer.
//!
//! Schemas are found in the `--schema-dir` directories, then in `PCL_SCHEMA_PATH`, then
//! in Pulumi's schema cache and ours (see `pcl_schema::SearchPath`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use pcl_diagnostics::{Anchor, Diagnostic, codes};
use pcl_ide::RootDatabase;
use pcl_schema::{FetchRequest, LoadError, PackageSource, SchemaLoader, SearchPath};

use crate::fetching::{FetchArgs, fetch_for_schema_command};
use smol_str::SmolStr;

use crate::inputs::{Input, STDIN_NAME};
use crate::report::{ColorWhen, Format, Reporter, Totals};
use crate::{print_out, usage_error};

/// List a Pulumi package schema, print a token's types, or check a whole schema.
#[derive(clap::Args)]
#[command(after_help = "\
Targets:
  PACKAGE            the package's highest version on the search path
  PACKAGE@VERSION    that version (e.g. kubernetes@3.7.0)
  TOKEN              a resource, function or type (e.g. random:index/randomPet:RandomPet)
  FILE               a schema file; `-` reads one from standard input

Schemas are looked up as NAME.json, NAME-VERSION.json or NAME/schema.json in each
--schema-dir, then in the directories of PCL_SCHEMA_PATH, then in Pulumi's schema cache
($PULUMI_HOME/schemas, default $HOME/.pulumi/schemas) and ours ($XDG_CACHE_HOME/pcl/schemas,
default $HOME/.cache/pcl/schemas). Without a version, a package not in the first two is
the version of its installed plugin ($PULUMI_HOME/plugins), else the highest cached.

Exit codes:
  0  success
  1  the schema is invalid, or the package or token is not found
  2  usage or IO error")]
pub(crate) struct SchemaArgs {
    /// PACKAGE, PACKAGE@VERSION, TOKEN, FILE or `-`.
    target: String,
    /// With a FILE or `-` target: a token of that schema to describe.
    token: Option<String>,
    /// A directory of schemas (repeatable), searched before PCL_SCHEMA_PATH.
    #[arg(long, value_name = "DIR")]
    schema_dir: Vec<PathBuf>,
    /// Resolve tokens of package NAME against VERSION (repeatable).
    #[arg(long = "use", value_name = "NAME@VERSION")]
    uses: Vec<String>,
    /// Decode and lower every item of the package and report every problem.
    #[arg(long)]
    check: bool,
    /// `human` (text) or `json` (one JSON document; see docs/diagnostics.md).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Do not print the summary line of `--check`.
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    fetch: FetchArgs,
}

pub(crate) fn run(args: SchemaArgs, color: ColorWhen) -> ExitCode {
    let start = Instant::now();
    let mut reporter = Reporter::new(args.format, color, usize::MAX);
    if let Some(error) = crate::inputs::schema_dir_error(&args.schema_dir) {
        return usage_error(&error);
    }
    let mut versions = Vec::new();
    for used in &args.uses {
        match used.split_once('@') {
            Some((name, version)) if !name.is_empty() && !version.is_empty() => {
                versions.push((name.to_owned(), version.to_owned()));
            }
            _ => return usage_error(&format!("`--use {used}`: expected NAME@VERSION")),
        }
    }
    let version_of = |name: &str| {
        (versions.iter())
            .find(|(used, _)| used == name)
            .map(|(_, version)| version.as_str())
    };
    let mut db = RootDatabase::default();
    let mut loader = SchemaLoader::new(SearchPath::from_args_and_env(args.schema_dir.clone()));
    let target = args.target.as_str();
    let mut fetch_messages = Vec::new();
    let is_file = target == "-" || target.ends_with(".json") || Path::new(target).is_file();
    let (loaded, token) = if is_file {
        (load_file(&mut db, &mut loader, target), args.token.clone())
    } else if let Some(extra) = &args.token {
        return usage_error(&format!(
            "a second argument (`{extra}`) is a token of a schema FILE; `{target}` is not a file"
        ));
    } else if target.contains(':') {
        let Some(package) = pcl_schema::package_of(target) else {
            let message = pcl_schema::decompose(target).err().unwrap_or_default();
            return usage_error(&message);
        };
        let loaded = load_or_fetch(
            &mut db,
            &mut loader,
            (package, version_of(package)),
            args.fetch,
            &mut fetch_messages,
        );
        (loaded, Some(target.to_owned()))
    } else {
        let (name, version) = match target.split_once('@') {
            Some((name, version)) => (name, Some(version)),
            None => (target, version_of(target)),
        };
        let loaded = load_or_fetch(
            &mut db,
            &mut loader,
            (name, version),
            args.fetch,
            &mut fetch_messages,
        );
        (loaded, None)
    };
    reporter.places(&fetch_messages);
    reporter.places(&loader.take_notes());
    let source = match loaded {
        Ok(source) => source,
        Err(error) => {
            reporter.places(&[error.to_diagnostic()]);
            return load_failure_code(&error);
        }
    };
    if let Err(error) = pcl_schema::package_index(&db, source) {
        reporter.places(&[error.to_diagnostic()]);
        return ExitCode::from(1);
    }
    if args.check {
        return check(&db, source, &mut reporter, args.quiet, start);
    }
    match token {
        Some(token) => describe_token(&db, source, &token, &mut reporter, args.format),
        None => match pcl_schema::package_listing(&db, source) {
            Ok(listing) => {
                print_out(&match args.format {
                    Format::Human => listing.to_text(),
                    Format::Json => json_document(&listing),
                });
                ExitCode::SUCCESS
            }
            Err(error) => {
                reporter.places(&[error.to_diagnostic()]);
                ExitCode::from(1)
            }
        },
    }
}

/// Loads a schema file, or standard input for `-`.
fn load_file(
    db: &mut RootDatabase,
    loader: &mut SchemaLoader,
    target: &str,
) -> Result<PackageSource, LoadError> {
    if target != "-" {
        return loader.load_file(db, Path::new(target));
    }
    let file = Input::Stdin.read().map_err(|message| LoadError::Io {
        path: PathBuf::from(STDIN_NAME),
        message,
    })?;
    let read = loader.read_text(None, SmolStr::new(STDIN_NAME), file.text.as_str().into())?;
    Ok(loader.apply(db, read)[0])
}

fn describe_token(
    db: &RootDatabase,
    source: PackageSource,
    written: &str,
    reporter: &mut Reporter,
    format: Format,
) -> ExitCode {
    let Some((kind, token)) = pcl_schema::resolve_token(db, source, written) else {
        let mut message = format!(
            "package `{}` ({}) has no resource, function or type `{written}`",
            package_name(db, source),
            source.file(db)
        );
        let suggestions = pcl_schema::suggest_tokens(db, source, written);
        if !suggestions.is_empty() {
            let list: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
            message.push_str(&format!("; did you mean {}?", list.join(" or ")));
        }
        let anchor = Anchor::Place {
            origin: source.file(db).to_string(),
            location: String::new(),
        };
        reporter.places(&[Diagnostic::error(
            codes::UNKNOWN_SCHEMA_TOKEN,
            message,
            anchor,
        )]);
        return ExitCode::from(1);
    };
    match pcl_schema::item_description(db, source, kind, &token) {
        Ok((described, errors)) => {
            print_out(&match format {
                Format::Human => described.to_text(),
                Format::Json => json_document(&described),
            });
            let diagnostics: Vec<Diagnostic> = errors.iter().map(|e| e.to_diagnostic()).collect();
            reporter.places(&diagnostics);
            if errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(error) => {
            reporter.places(&[error.to_diagnostic()]);
            ExitCode::from(1)
        }
    }
}

/// `--check`: every item decoded and lowered, every problem reported.
fn check(
    db: &RootDatabase,
    source: PackageSource,
    reporter: &mut Reporter,
    quiet: bool,
    start: Instant,
) -> ExitCode {
    let Ok(index) = pcl_schema::package_index(db, source) else {
        return ExitCode::from(1);
    };
    let mut diagnostics = Vec::new();
    for (kind, token) in index.items() {
        match pcl_schema::item_description(db, source, kind, &token) {
            Ok((_, errors)) => diagnostics.extend(errors.iter().map(|e| e.to_diagnostic())),
            Err(error) => diagnostics.push(error.to_diagnostic()),
        }
    }
    // One problem reached from several items is one problem. (Descriptions, not their
    // text: only the errors are wanted.)
    let mut seen = std::collections::HashSet::new();
    diagnostics.retain(|d| seen.insert((d.code, d.message.clone(), d.anchor.clone())));
    reporter.places(&diagnostics);
    if !quiet {
        let mut totals = Totals::default();
        totals.add(source.text(db));
        reporter.summary("checked", &totals, start.elapsed());
    }
    if reporter.errors() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn json_document(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

fn package_name(db: &RootDatabase, source: PackageSource) -> SmolStr {
    match pcl_schema::package_index(db, source) {
        Ok(index) => index.name().clone(),
        Err(_) => SmolStr::default(),
    }
}

/// Not found or invalid: exit 1 (the input is wrong); unreadable or not a name: exit 2.
fn load_failure_code(error: &LoadError) -> ExitCode {
    match error {
        LoadError::NotFound(_) | LoadError::Schema(_) => ExitCode::from(1),
        LoadError::InvalidName { .. } | LoadError::Io { .. } => ExitCode::from(2),
    }
}

/// Load package `name` (at `version`), fetching it with `--fetch-schemas` when no source
/// has it; a failed fetch is one diagnostic in `messages`.
fn load_or_fetch(
    db: &mut RootDatabase,
    loader: &mut SchemaLoader,
    (name, version): (&str, Option<&str>),
    fetch: FetchArgs,
    messages: &mut Vec<pcl_diagnostics::Diagnostic>,
) -> Result<PackageSource, LoadError> {
    match loader.load(db, name, version) {
        Err(LoadError::NotFound(not_found)) if fetch.enabled() => {
            let Some((request, cache)) = FetchRequest::for_missing(name, &not_found) else {
                return Err(LoadError::NotFound(not_found));
            };
            match fetch_for_schema_command(&request, &cache) {
                Ok(path) => loader.load_file(db, &path),
                Err(error) => {
                    messages.push(error.to_diagnostic(&request));
                    Err(LoadError::NotFound(not_found))
                }
            }
        }
        other => other,
    }
}
