//! The files a program reads when it runs (`fileAsset("./www/index.html")`,
//! `readFile("key.pub")`): a path that is not there fails the deploy. The driver says
//! which paths exist.

use std::path::Path;

use pcl_diagnostics::{Anchor, Diagnostic, Span, codes};

/// A builtin call that reads a file at a literal path.
#[derive(Clone, Debug)]
pub struct LocalFileUse {
    /// The builtin: `fileAsset`, `fileArchive`, `readFile`, `filebase64`, ...
    pub function: String,
    pub path: String,
    /// The path argument in the program.
    pub at: Span,
}

/// A warning for each path that `exists` finds neither from the program's directory
/// (where Pulumi runs a program whose `main` is that directory) nor from the project's.
/// Only a warning: a build step may make it before the deploy (`fileArchive("./dist")`).
pub fn check_local_files(
    uses: &[LocalFileUse],
    program_dir: &Path,
    project_dir: &Path,
    exists: &dyn Fn(&Path) -> bool,
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for found in uses {
        let path = Path::new(&found.path);
        if found.path.is_empty()
            || exists(&program_dir.join(path))
            || exists(&project_dir.join(path))
        {
            continue;
        }
        let what = match found.function.as_str() {
            "fileArchive" => "file or directory",
            _ => "file",
        };
        diagnostics.push(
            Diagnostic::warning(
                codes::MISSING_LOCAL_FILE,
                format!("no {what} `{}` in the project", found.path),
                Anchor::Span(found.at),
            )
            .with_note(format!(
                "`{}` reads it when the program runs, from the program's directory ({}): the deploy fails without it",
                found.function,
                program_dir.display()
            )),
        );
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use pcl_diagnostics::{FileId, TextRange, TextSize};

    use super::*;

    #[test]
    fn paths_are_found_from_the_program_or_the_project() {
        let on_disk = [
            "/shop/infra/www/index.html",
            "/shop/infra/www",
            "/shop/README.md",
        ];
        let exists = |path: &Path| on_disk.iter().any(|p| Path::new(p) == path);
        let at = Span {
            file: FileId(0),
            range: TextRange::new(TextSize::from(0), TextSize::from(1)),
        };
        let uses: Vec<LocalFileUse> = ["www/index.html", "README.md", "www", "missing.txt", ""]
            .iter()
            .map(|path| LocalFileUse {
                function: "fileArchive".to_owned(),
                path: (*path).to_owned(),
                at,
            })
            .collect();
        let program = Path::new("/shop/infra");
        let found = check_local_files(&uses, program, Path::new("/shop"), &exists);
        let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            ["no file or directory `missing.txt` in the project"]
        );
    }
}
