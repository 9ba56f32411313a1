//! The `pcl` binary: one entry point for users, dispatching to subcommands.
//!
//! Each subcommand lives in its own module with a `run(args) -> ExitCode` function that
//! does its own printing. Exit codes: 0 success, 1 the input has errors (syntax errors,
//! token not found, ...), 2 usage or IO errors.

mod parse_cmd;
mod schema_cmd;
mod type_cmd;

use std::process::ExitCode;

const USAGE: &str = "\
usage: pcl <command> [args]

commands:
  parse [--tree] PATH...      parse PCL/HCL files or directories and report syntax errors
  schema [--schema-dir DIR]... PACKAGE|TOKEN
                              list a Pulumi package schema, or print a token's types
  type show TYPE              print a type in normal form, as JSON
  type relate TO FROM         assignability, conversion and unification of two types, as JSON
  type traverse TYPE KEY...   the type reached by .name, [N], [\"s\"] or [<T>] keys, as JSON
  help                        print this message
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        return usage_error("no command given");
    };
    match command.as_str() {
        "parse" => parse_cmd::run(rest),
        "schema" => schema_cmd::run(rest),
        "type" => type_cmd::run(rest),
        "help" | "--help" | "-h" => {
            print_out(USAGE);
            ExitCode::SUCCESS
        }
        other => usage_error(&format!("unknown command `{other}`")),
    }
}

/// Prints `message` and the usage text to stderr and returns exit code 2.
pub(crate) fn usage_error(message: &str) -> ExitCode {
    usage_error_with(message, USAGE)
}

/// Prints `message` and a subcommand's `usage` text to stderr and returns exit code 2.
pub(crate) fn usage_error_with(message: &str, usage: &str) -> ExitCode {
    print_err(&format!("error: {message}\n\n{usage}"));
    ExitCode::from(2)
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
