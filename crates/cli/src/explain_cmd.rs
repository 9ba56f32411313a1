//! `pcl explain [CODE]`: a diagnostic code's entry in the catalogue (`docs/diagnostics.md`,
//! compiled in), as `rustc --explain` does; without a code, every code with its summary.

use std::process::ExitCode;

use pcl_diagnostics::{Code, codes};

use crate::{print_out, usage_error};

/// The catalogue: one `### PCLnnnn name` section per code.
const CATALOGUE: &str = include_str!("../../../docs/diagnostics.md");

/// Explain a diagnostic code: what it means, an example, and how to fix it.
#[derive(clap::Args)]
#[command(after_help = "\
Without CODE, every code is listed with its one-line summary.

Exit codes:
  0  the code is explained (or the codes listed)
  2  no such code")]
pub(crate) struct ExplainArgs {
    /// A code such as PCL1003 (case does not matter; 1003 alone will do), or its name
    /// (unexpected-token).
    code: Option<String>,
}

pub(crate) fn run(args: &ExplainArgs) -> ExitCode {
    let Some(written) = args.code.as_deref().map(str::trim) else {
        print_out(&code_list());
        return ExitCode::SUCCESS;
    };
    // `4001` is PCL4001.
    let code = Code::from_text(written)
        .or_else(|| Code::from_text(&format!("PCL{written}")))
        .or_else(|| (codes::ALL.iter().copied()).find(|code| code.name() == written));
    let Some(code) = code else {
        return usage_error(&format!(
            "`{written}` is not a pcl diagnostic code; codes are PCL1xxx (syntax), PCL2xxx (schemas), PCL3xxx (types), PCL4xxx (programs) and PCL5xxx (projects): `pcl explain` lists them"
        ));
    };
    match entry(code) {
        Some(text) => {
            print_out(&format!("{}\n", text.trim_end()));
            ExitCode::SUCCESS
        }
        None => usage_error(&format!("{code} has no catalogue entry")),
    }
}

/// Every code, its name and the first sentence of its entry, one line each.
fn code_list() -> String {
    let mut list = String::new();
    for &code in codes::ALL {
        let summary = entry(code).map(summary_of).unwrap_or_default();
        list.push_str(&format!("{code} {:<28} {summary}\n", code.name()));
    }
    list
}

/// The first clause of an entry's text (after its heading): up to its first `.` or `:`
/// outside parentheses.
fn summary_of(entry: &str) -> String {
    let text = entry
        .split_once('\n')
        .map_or("", |(_, rest)| rest)
        .trim_start();
    let paragraph = text.split("\n\n").next().unwrap_or("").replace('\n', " ");
    let mut depth = 0i32;
    let mut end = paragraph.len();
    let mut chars = paragraph.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '.' | ':' if depth <= 0 && chars.peek().is_none_or(|(_, next)| *next == ' ') => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    paragraph[..end].trim().to_owned()
}

/// The catalogue section of `code`, from its heading to the next heading.
pub(crate) fn entry(code: Code) -> Option<&'static str> {
    let heading = format!("### {code} {}\n", code.name());
    let start = CATALOGUE.find(&heading)?;
    let rest = &CATALOGUE[start..];
    let end = rest[heading.len()..]
        .find("\n#")
        .map_or(rest.len(), |i| i + heading.len() + 1);
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code has an entry with an example, every entry heading names a real code,
    /// and every code is produced by some test fixture or end-to-end test (which names it
    /// as `PCL1003` or as its constant, `codes::UNEXPECTED_TOKEN`).
    #[test]
    fn the_catalogue_covers_every_code() {
        let mut problems = Vec::new();
        for code in codes::ALL {
            match entry(*code) {
                None => problems.push(format!("{code} {} has no entry", code.name())),
                Some(text) if !text.contains("```") => {
                    problems.push(format!("{code}'s entry has no example"));
                }
                Some(_) => {}
            }
        }
        let catalogue = CATALOGUE.split_once("## Catalogue").map_or("", |(_, c)| c);
        for line in catalogue.lines() {
            if let Some(heading) = line.strip_prefix("### ") {
                let known = heading.split_once(' ').and_then(|(code, name)| {
                    Code::from_text(code).filter(|code| code.name() == name)
                });
                if known.is_none() {
                    problems.push(format!("entry `{heading}` names no code in the source"));
                }
            }
        }
        let tested = tested_text();
        for code in codes::ALL {
            let constant = format!("codes::{}", code.name().to_uppercase().replace('-', "_"));
            if !tested.contains(&code.to_string()) && !tested.contains(&constant) {
                problems.push(format!(
                    "{code} {} appears in no test or fixture",
                    code.name()
                ));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// The text of every fixture under `tests/data` and every test file of the workspace.
    fn tested_text() -> String {
        let root = pcl_test_utils::project_root();
        let mut text = String::new();
        let mut pending = vec![root.join("tests/data"), root.join("crates")];
        while let Some(dir) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let under_tests = path.components().any(|c| {
                    let c = c.as_os_str();
                    c == "tests" || c == "data"
                }) || path.file_name().is_some_and(|n| n == "tests.rs");
                if path.is_dir() {
                    pending.push(path);
                } else if under_tests && path.file_name().is_some_and(|n| n != "codes.rs") {
                    text.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
                }
            }
        }
        text
    }
}
