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
                let ty = wrapped(&decl.readable, head.len(), 0);
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

/// How wide a line of `pcl types` may be before its type is wrapped.
const LINE_WIDTH: usize = 100;

/// `ty` (a readable type) starting at column `column` of a line indented by `indent`:
/// as it is when it fits in [`LINE_WIDTH`], else with the items of its first bracketed
/// list of several (`object({a = A, b = B})`, `union(A, B)`) one per line, each wrapped
/// in turn, two columns further in.
fn wrapped(ty: &str, column: usize, indent: usize) -> String {
    if column + ty.len() <= LINE_WIDTH {
        return ty.to_owned();
    }
    let Some((open, close)) = first_group(ty) else {
        return ty.to_owned();
    };
    let (head, inner, tail) = (&ty[..=open], &ty[open + 1..close], &ty[close..]);
    let items = top_level_items(inner);
    if items.len() < 2 {
        let inner = wrapped(inner, column + head.len(), indent);
        return format!("{head}{inner}{tail}");
    }
    let inner_indent = indent + 2;
    let mut out = format!("{head}\n");
    for item in items {
        let item = wrapped(item.trim(), inner_indent, inner_indent);
        out.push_str(&format!("{:inner_indent$}{item},\n", ""));
    }
    out.push_str(&format!("{:indent$}{tail}", ""));
    out
}

/// The byte offsets of the first opening bracket of `text` outside string literals and
/// of the bracket that closes it.
fn first_group(text: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut open = None;
    for (offset, byte, quoted) in scan(text) {
        match byte {
            _ if quoted => {}
            b'(' | b'{' | b'[' => {
                open.get_or_insert(offset);
                depth += 1;
            }
            b')' | b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some((open?, offset));
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` split at the commas outside brackets and string literals.
fn top_level_items(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (offset, byte, quoted) in scan(text) {
        match byte {
            _ if quoted => {}
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                items.push(&text[start..offset]);
                start = offset + 1;
            }
            _ => {}
        }
    }
    items.push(&text[start..]);
    items
}

/// Each byte of `text` with its offset and whether it is inside a string literal (the
/// quotes included; `\"` does not end one).
fn scan(text: &str) -> impl Iterator<Item = (usize, u8, bool)> + '_ {
    let (mut quoted, mut escaped) = (false, false);
    text.bytes().enumerate().map(move |(offset, byte)| {
        let inside = quoted || byte == b'"';
        if quoted && !escaped && byte == b'"' {
            quoted = false;
        } else if !quoted && byte == b'"' {
            quoted = true;
        }
        escaped = quoted && !escaped && byte == b'\\';
        (offset, byte, inside)
    })
}

#[cfg(test)]
mod tests {
    use super::wrapped;

    #[test]
    fn a_short_type_stays_on_its_line() {
        assert_eq!(
            wrapped("output(list(string))", 10, 0),
            "output(list(string))"
        );
    }

    #[test]
    fn a_long_object_puts_a_property_on_each_line() {
        let fields: Vec<String> = (0..12)
            .map(|i| format!("field{i} = output(union(string, none))"))
            .collect();
        let ty = format!("object({{{}}})", fields.join(", "));
        let out = wrapped(&ty, "resource bucket: ".len(), 0);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "object({");
        assert_eq!(lines[1], "  field0 = output(union(string, none)),");
        assert_eq!(lines[12], "  field11 = output(union(string, none)),");
        assert_eq!(lines[13], "})");
        assert!(lines.iter().all(|line| line.len() <= 100));
    }

    #[test]
    fn nested_lists_are_wrapped_further_in_and_strings_are_not_split() {
        let members: Vec<String> = (0..8).map(|i| format!("\"value, {i} ({{x}})\"")).collect();
        let inner = format!("union({})", members.join(", "));
        let ty = format!("object({{a = {inner}, b = int}})");
        let out = wrapped(&ty, 0, 0);
        let expected = ["object({", "  a = union(", "    \"value, 0 ({x})\","];
        assert_eq!(out.lines().take(3).collect::<Vec<_>>(), expected);
        assert!(
            out.contains("    \"value, 7 ({x})\",\n  ),\n  b = int,\n})"),
            "{out}"
        );
    }

    #[test]
    fn unbalanced_text_is_left_as_it_is() {
        let ty = format!("object({{a = {}", "x".repeat(120));
        assert_eq!(wrapped(&ty, 0, 0), ty);
    }
}
