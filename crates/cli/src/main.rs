//! The `pcl` binary: one entry point for users, dispatching to subcommands.
//!
//! The command line is declared with clap (derive): every subcommand has `--help`, `pcl
//! help SUBCOMMAND` works, unknown commands and flags get a "did you mean", and `pcl
//! completions SHELL` prints a completion script. Each subcommand lives in its own module
//! with a `run` function that does its own printing and returns the exit code: 0 success,
//! 1 the input has errors (syntax errors, invalid schemas, a token not found, a type
//! error), 2 usage or IO errors.

mod allocator;
mod check_cmd;
mod explain_cmd;
mod fetching;
mod fmt_cmd;
mod inputs;
mod jobs;
mod leniency;
mod parse_cmd;
mod programs;
mod projects;
mod report;
mod sarif;
mod schema_cmd;
mod sources;
mod type_cmd;
mod types_cmd;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use report::ColorWhen;

/// Exit codes, shown at the end of every command's help.
const EXIT_CODES: &str = "\
Exit codes:
  0  success: no errors in the input
  1  the input has errors
  2  usage or IO error";

/// The pcl front-end for Pulumi's PCL: check programs, format and parse files, read package
/// schemas and try the type system.
#[derive(Parser)]
#[command(name = "pcl", version, after_help = EXIT_CODES, propagate_version = true)]
struct Cli {
    /// When to colour diagnostics: `auto` colours on a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, global = true, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    color: ColorWhen,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Check(check_cmd::CheckArgs),
    Types(types_cmd::TypesArgs),
    Fmt(fmt_cmd::FmtArgs),
    Parse(parse_cmd::ParseArgs),
    Schema(schema_cmd::SchemaArgs),
    Type(type_cmd::TypeArgs),
    Explain(explain_cmd::ExplainArgs),
    /// Run the language server on stdin/stdout (for editors).
    #[command(after_help = "\
Speaks the Language Server Protocol on stdin/stdout until the client sends `exit`.
Configuration: initializationOptions {\"schemaPath\": [\"dir\", ...], \"skipResourceTypecheck\": false},
then PCL_SCHEMA_PATH.

Exit codes:
  0  the client asked the server to exit
  2  the protocol could not be spoken (a broken stream)")]
    Lsp {
        /// Accepted and ignored: the server always speaks stdio (editors add this flag).
        #[arg(long)]
        stdio: bool,
    },
    /// Print a shell completion script (e.g. `pcl completions bash > /etc/bash_completion.d/pcl`).
    #[command(after_help = EXIT_CODES)]
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
}

/// The stack of the thread that does the work (the same as every checking thread's).
const STACK_SIZE: usize = pcl_ide::CHECK_STACK_SIZE;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let worker = std::thread::Builder::new()
        .name("pcl".to_owned())
        .stack_size(STACK_SIZE)
        .spawn(move || run(cli));
    match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(101),
        Err(err) => usage_error(&format!("cannot start a thread: {err}")),
    }
}

fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Check(args) => check_cmd::run(args, cli.color),
        Command::Types(args) => types_cmd::run(args, cli.color),
        Command::Fmt(args) => fmt_cmd::run(args, cli.color),
        Command::Parse(args) => parse_cmd::run(args, cli.color),
        Command::Schema(args) => schema_cmd::run(args, cli.color),
        Command::Type(args) => type_cmd::run(args),
        Command::Explain(args) => explain_cmd::run(&args),
        Command::Lsp { stdio: _ } => match pcl_lsp::run_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => usage_error(&format!("language server: {err}")),
        },
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "pcl", &mut script);
            print_out(&String::from_utf8_lossy(&script));
            ExitCode::SUCCESS
        }
    }
}

/// Drops values on another thread: freeing a big syntax tree costs a third of a parse, and
/// a run over files need not wait for it. Whatever is left when the run ends goes with the
/// process.
pub(crate) struct BackgroundDrop<T: Send + 'static>(std::sync::mpsc::Sender<T>);

impl<T: Send + 'static> BackgroundDrop<T> {
    pub(crate) fn start() -> BackgroundDrop<T> {
        let (sender, values) = std::sync::mpsc::channel::<T>();
        let _ = std::thread::Builder::new()
            .name("drop trees".to_owned())
            .spawn(move || values.into_iter().for_each(drop));
        BackgroundDrop(sender)
    }

    pub(crate) fn drop_later(&self, value: T) {
        if let Err(unsent) = self.0.send(value) {
            // The thread could not start: leave the value to the end of the process.
            std::mem::forget(unsent.0);
        }
    }
}

/// Writes to stdout, ignoring a closed pipe (`pcl parse --tree big.pp | head`).
#[allow(clippy::print_stdout)]
pub(crate) fn print_out(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Writes to stderr.
#[allow(clippy::print_stderr)]
pub(crate) fn print_err(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Prints `error: message` on stderr and returns exit code 2 (usage or IO).
pub(crate) fn usage_error(message: &str) -> ExitCode {
    print_err(&format!("error: {message}\n"));
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
