//! `pcl parse [--tree] PATH...`: parse files (or directories of `.pp`, `.hcl`, `.tf`
//! files, or standard input as `-`) and report syntax errors; `--tree` prints the lossless
//! syntax tree.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use pcl_diagnostics::FileId;

use crate::inputs;
use crate::report::{ColorWhen, OutputArgs, Reporter, Totals};
use crate::{BackgroundDrop, print_out};

/// Parse PCL (and any HCL) files and report syntax errors.
#[derive(clap::Args)]
#[command(after_help = "\
Files: a FILE named on the command line is parsed whatever its extension; below a
DIRECTORY, every *.pp, *.hcl and *.tf file is, in sorted order, skipping hidden entries
(.git, .terraform) and not following symbolic links to directories. `-` reads standard
input, named <stdin> in messages.

Exit codes:
  0  no syntax errors
  1  syntax errors
  2  usage or IO error, or no files found")]
pub(crate) struct ParseArgs {
    /// Files or directories to parse; `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print each file's lossless syntax tree on stdout (after a line `=== PATH` when
    /// there are several files).
    #[arg(long)]
    tree: bool,
    #[command(flatten)]
    output: OutputArgs,
}

pub(crate) fn run(args: ParseArgs, color: ColorWhen) -> ExitCode {
    let start = Instant::now();
    let mut reporter = Reporter::new(args.output.format, color, args.output.max_errors);
    let inputs = match inputs::expand_sources(&args.paths, &mut reporter) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let headers = args.tree && inputs.len() > 1;
    let mut totals = Totals::default();
    let trees = BackgroundDrop::start();
    for input in &inputs {
        let file = match input.read_program_file() {
            Ok(file) => file,
            Err(message) => {
                reporter.io_error(&message);
                continue;
            }
        };
        totals.add_file(&file);
        // Without `--tree` only the errors are wanted: the same parse, without building
        // the tree (a third of the time and most of the memory).
        let errors = if args.tree {
            let parse = pcl_syntax::parse(&file.text);
            let mut tree = String::new();
            if headers {
                tree.push_str(&format!("=== {}\n", file.name));
            }
            tree.push_str(&pcl_syntax::debug_tree(&parse.syntax_node()));
            print_out(&tree);
            let errors = parse.errors().to_vec();
            trees.drop_later(parse);
            errors
        } else {
            pcl_syntax::syntax_errors(&file.text)
        };
        let invalid = file.invalid_utf8;
        let diagnostics: Vec<_> = (invalid.map(|e| e.to_diagnostic(FileId(0))).into_iter())
            .chain(
                (errors.iter())
                    .filter(|e| !invalid.is_some_and(|invalid| invalid.explains(e, &file.text)))
                    .map(|error| error.to_diagnostic(FileId(0))),
            )
            .collect();
        reporter.file(&file, &diagnostics);
    }
    if !args.output.quiet {
        reporter.summary("parsed", &totals, start.elapsed());
    }
    reporter.finish();
    if reporter.io_errors() > 0 {
        ExitCode::from(2)
    } else if reporter.errors() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
