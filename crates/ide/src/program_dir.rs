//! Where a Pulumi project's program is: the directory its project file's `main` names
//! (the project's own directory without one), and why Pulumi could not run a PCL program
//! there (no such path, no `.pp` file in it). Shared by `pcl check` and the server.

use std::path::{Path, PathBuf};

use pcl_diagnostics::{Anchor, Diagnostic, FileId, Span, TextRange, TextSize, codes};
use pcl_project::Syntax;

/// The program directory of the project in `project_dir` whose `main` is `main`: the
/// directory it names, or the directory of the file it names.
pub fn project_program_dir(project_dir: &Path, main: Option<&str>) -> PathBuf {
    let Some(main) = main else {
        return project_dir.to_path_buf();
    };
    let path = project_dir.join(main.trim_end_matches('/'));
    match path.is_file() {
        true => path
            .parent()
            .map_or_else(|| project_dir.to_path_buf(), Path::to_path_buf),
        false => path,
    }
}

/// Why Pulumi cannot run the program of the project file at `project_file`, whose
/// program directory is `program_dir` (`main` as written): `main` names nothing, or, for
/// a PCL project (`pcl`), the directory holds no `.pp` file itself (its subdirectories
/// are components), with the fix when a directory below holds the program.
pub fn program_dir_problem(
    project_file: &Path,
    main: Option<&str>,
    pcl: bool,
    program_dir: &Path,
) -> Option<String> {
    let shown = project_file.display();
    if !program_dir.exists() {
        return Some(format!(
            "`main: {}` in `{shown}` names `{}`, which does not exist: create it, or fix `main`",
            main.unwrap_or_default(),
            program_dir.display()
        ));
    }
    if !pcl || program_dir.is_file() || has_pp_in(program_dir) {
        return None;
    }
    let mut message = format!(
        "no *.pp file in `{}`, the program directory of `{shown}`: Pulumi runs the .pp files of that directory",
        program_dir.display()
    );
    match first_program_below(program_dir) {
        Some(below) => {
            let relative = below.strip_prefix(project_file.parent().unwrap_or(Path::new("")));
            let relative = relative.unwrap_or(&below).display();
            let fix = match main {
                Some(_) => format!("change `main` to `{relative}` in `{shown}`"),
                None => format!("add `main: {relative}` to `{shown}`"),
            };
            message.push_str(&format!(
                ", and the program is in `{}`: {fix}",
                below.display()
            ));
        }
        None => message.push_str(": write the program there (such as `main.pp`)"),
    }
    Some(message)
}

/// The error an open project file (`FileId(0)`, with `text`) shows when Pulumi cannot run
/// its program in `program_dir` (as `pcl check` says for it): at `main`'s value, else at
/// the first line.
pub fn program_dir_diagnostic(
    project_file: &Path,
    text: &str,
    program_dir: &Path,
) -> Option<Diagnostic> {
    let syntax = Syntax::of(&project_file.to_string_lossy());
    let project = pcl_project::parse_project(FileId(0), syntax, text).0?;
    let message = program_dir_problem(
        project_file,
        project.main.as_deref(),
        project.is_pcl(),
        program_dir,
    )?;
    let first_line = TextSize::from(text.lines().next().map_or(0, str::len) as u32);
    let range = (project.main_range).unwrap_or(TextRange::new(TextSize::from(0), first_line));
    let anchor = Anchor::Span(Span {
        file: FileId(0),
        range,
    });
    Some(Diagnostic::error(
        codes::INVALID_PROJECT_FILE,
        message,
        anchor,
    ))
}

/// Whether `dir` holds a `.pp` file itself.
fn has_pp_in(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    (entries.flatten()).any(|entry| {
        let path = entry.path();
        path.extension().is_some_and(|e| e == "pp") && path.is_file()
    })
}

/// The nearest directory below `dir` (the first by name at the least depth) that holds
/// a `.pp` file (hidden directories skipped).
fn first_program_below(dir: &Path) -> Option<PathBuf> {
    let mut level = vec![dir.to_path_buf()];
    while !level.is_empty() {
        let mut next = Vec::new();
        for dir in level {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut children: Vec<PathBuf> = (entries.flatten())
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .filter(|e| e.file_type().is_ok_and(|kind| kind.is_dir()))
                .map(|e| e.path())
                .collect();
            children.sort();
            next.extend(children);
        }
        if let Some(found) = next.iter().find(|child| has_pp_in(child)) {
            return Some(found.clone());
        }
        level = next;
    }
    None
}
