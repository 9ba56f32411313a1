//! Pulumi projects named on `pcl check`'s command line: a directory with a project file
//! (`Pulumi.yaml`, `Pulumi.yml`, `Pulumi.json`) stands for the program at its `main`,
//! checked with every stack file (or the one `--stack` names); a path below a project
//! file gets stack checks only when it is that project's main program. The project and
//! stack files are shown as files of the program, after its `.pp` files.

use std::path::{Path, PathBuf};

use pcl_diagnostics::{Anchor, Diagnostic, FileId, Span, codes};
use pcl_ide::{Analysis, ProgramId, ProjectFileIds, ProjectFiles};
use pcl_project::{
    Project, Stack, Syntax, check_local_files, parse_key, parse_project, parse_stack,
};

use crate::inputs::SourceFile;

/// A project whose program is checked.
pub(crate) struct ProjectRequest {
    /// The project file.
    file: SourceFile,
    /// The program's directory, as `programs::requests` names it.
    pub(crate) program_dir: String,
    /// Whether this project file was found in a directory named on the command line (its
    /// own problems, such as another runtime, are reported then).
    named: bool,
    /// The stack files to check (none for another runtime or a broken project file).
    stacks: Vec<SourceFile>,
    /// Files beside the stack files named like one that Pulumi does not read, with the
    /// name it would read.
    misnamed: Vec<(PathBuf, String)>,
    /// Why stack files cannot be read (moved to [`Resolved::read_errors`]).
    read_errors: Vec<String>,
    /// Other project files beside this one, which Pulumi does not read.
    unread_projects: Vec<PathBuf>,
}

/// The outcome of looking for projects: the paths to check as programs (each project's
/// directory replaced by its program's), the projects, usage errors (exit 2 before any
/// check) and project or stack files that cannot be read (reported with the check, exit 2).
pub(crate) struct Resolved {
    pub(crate) paths: Vec<PathBuf>,
    pub(crate) projects: Vec<ProjectRequest>,
    pub(crate) usage_errors: Vec<String>,
    pub(crate) read_errors: Vec<String>,
}

/// The project file directly in `dir`.
fn project_file_in(dir: &Path) -> Option<PathBuf> {
    let base = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    (pcl_project::PROJECT_FILE_NAMES.iter())
        .map(|name| base.join(name))
        .find(|path| path.is_file())
        .map(|path| {
            if dir.as_os_str().is_empty() {
                PathBuf::from(path.file_name().unwrap_or_default())
            } else {
                path
            }
        })
}

/// The project files in the directories below `dir` (not in `dir` itself, and not below
/// a project's directory, whose subdirectories are its components), sorted; hidden
/// directories skipped.
fn project_files_below(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if hidden || !entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                continue;
            }
            match project_file_in(&entry.path()) {
                Some(project_file) => found.push(project_file),
                None => pending.push(entry.path()),
            }
        }
    }
    found.sort();
    found
}

/// Whether the file at `path` reads as a stack file: a map with `config`,
/// `encryptionsalt` or `secretsprovider` (not a CI workflow named `pulumi-ci.yaml`).
fn looks_like_stack_file(path: &Path) -> bool {
    let Ok(file) = read(path) else {
        return false;
    };
    let Ok(Some(root)) = pcl_project::yaml::parse(&file.text) else {
        return false;
    };
    ["config", "encryptionsalt", "secretsprovider"]
        .iter()
        .any(|key| root.get(key).is_some())
}

/// The project directory of a project file (`Pulumi.yaml`) or stack file
/// (`Pulumi.dev.yaml`, with its stack's name) named on the command line.
fn named_project_file(path: &Path) -> Option<(PathBuf, Option<String>)> {
    let name = path.file_name()?.to_str()?;
    if !name.starts_with("Pulumi.") || !path.is_file() {
        return None;
    }
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let dir = match dir.as_os_str().is_empty() {
        true => PathBuf::from("."),
        false => dir,
    };
    let project_file = project_file_in(&dir)?;
    let project_name = project_file.file_name()?.to_str()?;
    if project_name == name {
        return Some((dir, None));
    }
    let stack = pcl_project::stack_name(project_name, name)?;
    Some((dir, Some(stack.to_owned())))
}

/// A project or stack file; why it cannot be read (as Pulumi cannot: it must be UTF-8, or
/// UTF-16 with a byte order mark, which Pulumi's YAML library reads too).
fn read(path: &Path) -> Result<SourceFile, String> {
    let name = path.display().to_string();
    match pcl_ide::read_source_file(path) {
        Ok(bytes) => match pcl_ide::decode_project_file(bytes) {
            Ok(text) => Ok(SourceFile::new(name, text)),
            Err(bytes) => crate::inputs::decode(&name, bytes),
        },
        Err(err) => Err(format!(
            "cannot read `{name}`: {}",
            crate::inputs::io_reason(&err)
        )),
    }
}

/// The program directory a project file's `main` names (a file's directory).
fn main_dir(project_file: &Path, project: Option<&Project>) -> PathBuf {
    let project_dir = project_file.parent().unwrap_or(Path::new(""));
    pcl_ide::project_program_dir(project_dir, project.and_then(|p| p.main.as_deref()))
}

/// Why the program of a project named on the command line cannot be checked: its `main`
/// names nothing, or its directory holds no `.pp` file.
fn main_error(project_path: &Path, project: Option<&Project>, main: &Path) -> Option<String> {
    let written = project.and_then(|p| p.main.as_deref());
    let pcl = project.is_some_and(Project::is_pcl);
    pcl_ide::program_dir_problem(project_path, written, pcl, main)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    let canonical = |p: &Path| {
        let p = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        p.canonicalize().ok()
    };
    canonical(a).is_some_and(|a| Some(a) == canonical(b))
}

/// Find the projects `paths` name; `stack` is `--stack`.
pub(crate) fn resolve(paths: &[PathBuf], stack: Option<&str>) -> Resolved {
    let mut resolved = Resolved {
        paths: Vec::new(),
        projects: Vec::new(),
        usage_errors: Vec::new(),
        read_errors: Vec::new(),
    };
    for path in paths {
        if path.as_os_str() == "-" {
            resolved.paths.push(path.clone());
            continue;
        }
        // A project or stack file named itself stands for its project (a stack file's
        // with that stack); any other YAML or JSON file is no program.
        let named = named_project_file(path);
        // `--stack prod Pulumi.dev.yaml` names two stacks (a qualified `--stack
        // acme/web/dev` names the file's by its last part).
        if let (Some(given), Some((_, Some(file_stack)))) = (stack, &named)
            && given.rsplit('/').next() != Some(file_stack.as_str())
        {
            resolved.usage_errors.push(format!(
                "`--stack {given}` names another stack than `{}`, the stack file of `{file_stack}`: name the project's directory with `--stack {given}`, or the stack file alone",
                path.display()
            ));
            continue;
        }
        let (path, stack) = match &named {
            Some((dir, named_stack)) => (dir, stack.or(named_stack.as_deref())),
            None => (path, stack),
        };
        let extension = path.extension().and_then(|e| e.to_str());
        if path.is_file() && matches!(extension, Some("yaml" | "yml" | "json")) {
            resolved.usage_errors.push(format!(
                "`{}` is not a PCL program: name its `.pp` files or their directory (a project's `Pulumi.yaml` and stack files are read with the program of the directory they are in)",
                path.display()
            ));
            continue;
        }
        let is_dir = path.is_dir();
        let program_dir = if is_dir {
            path.clone()
        } else {
            path.parent().map(Path::to_path_buf).unwrap_or_default()
        };
        // A project file in a named directory: its program is checked.
        if is_dir && let Some(project_path) = project_file_in(path) {
            let file = match read(&project_path) {
                Ok(file) => file,
                Err(error) => {
                    resolved.read_errors.push(error);
                    resolved.paths.push(path.clone());
                    continue;
                }
            };
            let (project, _) = parse_project(FileId(0), Syntax::of(&file.name), &file.text);
            let main = main_dir(&project_path, project.as_ref());
            if let Some(error) = main_error(&project_path, project.as_ref(), &main) {
                resolved.usage_errors.push(error);
                continue;
            }
            let request = request(file, &project_path, project.as_ref(), &main, true, stack);
            match request {
                Ok(request) => resolved.projects.push(request),
                Err(error) => resolved.usage_errors.push(error),
            }
            resolved.paths.push(main);
            continue;
        }
        resolved.paths.push(path.clone());
        // A directory of several projects (a repository's root): each PCL project below
        // is checked with its stacks.
        if is_dir {
            for project_path in project_files_below(path) {
                // One found by looking below (a dependency's, a fixture's) that cannot be
                // read is not the user's to fix: skipped, as before.
                let Ok(file) = read(&project_path) else {
                    continue;
                };
                let (project, _) = parse_project(FileId(0), Syntax::of(&file.name), &file.text);
                if !project.as_ref().is_some_and(Project::is_pcl) {
                    continue;
                }
                let main = main_dir(&project_path, project.as_ref());
                // One broken project does not stop the others: its programs below are
                // still checked, as any directory's are.
                if main_error(&project_path, project.as_ref(), &main).is_some() {
                    continue;
                }
                // With `--stack`, the projects that have that stack.
                if let Ok(request) =
                    request(file, &project_path, project.as_ref(), &main, true, stack)
                {
                    resolved.projects.push(request);
                }
            }
        }
        // A project file above: stack checks only for its main program.
        let mut above = program_dir.canonicalize().ok();
        while let Some(dir) = above {
            if let Some(project_path) = project_file_in(&dir) {
                let file = read(&project_path)
                    .map_err(|error| resolved.read_errors.push(error))
                    .ok();
                if let Some(file) = file {
                    let (project, _) = parse_project(FileId(0), Syntax::of(&file.name), &file.text);
                    let main = main_dir(&project_path, project.as_ref());
                    if project.is_some() && same_dir(&main, &program_dir) {
                        let display = program_dir_name(&program_dir);
                        match request(
                            file,
                            &project_path,
                            project.as_ref(),
                            Path::new(&display),
                            false,
                            stack,
                        ) {
                            Ok(request) => resolved.projects.push(request),
                            Err(error) => resolved.usage_errors.push(error),
                        }
                    }
                }
                break;
            }
            above = dir.parent().map(Path::to_path_buf);
        }
    }
    if let Some(stack) = stack
        && resolved.projects.iter().all(|p| p.stacks.is_empty())
        && resolved.usage_errors.is_empty()
    {
        // A project of another runtime, named: say which.
        let other = (resolved.projects.iter()).find_map(|request| {
            let syntax = Syntax::of(&request.file.name);
            let project = parse_project(FileId(0), syntax, &request.file.text).0?;
            let runtime = project.runtime.filter(|r| r.name != "pcl")?;
            Some(format!(
                "`{}` is a `{}` project",
                request.file.name, runtime.name
            ))
        });
        resolved.usage_errors.push(match other {
            Some(other) => format!(
                "`--stack {stack}` checks a stack of a Pulumi project with `runtime: pcl`, and {other}: its stacks are not checked"
            ),
            None => format!(
                "`--stack {stack}` needs a Pulumi project with `runtime: pcl`, and no path names one"
            ),
        });
    }
    for project in &mut resolved.projects {
        resolved.read_errors.append(&mut project.read_errors);
    }
    resolved
}

fn program_dir_name(dir: &Path) -> String {
    let name = dir.display().to_string();
    if name.is_empty() {
        ".".to_owned()
    } else {
        name
    }
}

fn request(
    file: SourceFile,
    project_path: &Path,
    project: Option<&Project>,
    main: &Path,
    named: bool,
    stack: Option<&str>,
) -> Result<ProjectRequest, String> {
    let mut stacks = Vec::new();
    let mut misnamed = Vec::new();
    let mut read_errors = Vec::new();
    let file_name = (project_path.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let project_dir = project_path.parent().unwrap_or(Path::new(""));
    let unread_projects = (pcl_project::PROJECT_FILE_NAMES.iter())
        .filter(|name| **name != file_name)
        .map(|name| project_dir.join(name))
        .filter(|path| path.is_file())
        .collect();
    if let Some(project) = project.filter(|p| p.is_pcl()) {
        let dir = project_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let dir = match &project.stack_config_dir {
            Some(sub) => dir.join(sub),
            None => dir,
        };
        match stack {
            Some(stack) => {
                let short = stack.rsplit('/').next().unwrap_or(stack);
                let path = dir.join(pcl_project::stack_file_name(&file_name, short));
                match read(&path) {
                    Ok(stack_file) => stacks.push(stack_file),
                    Err(error) => return Err(format!("no stack `{short}`: {error}")),
                }
            }
            None => {
                let listed = if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    &dir
                };
                let mut names: Vec<String> = std::fs::read_dir(listed)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect();
                names.sort();
                for name in &names {
                    if let Some(read_name) = pcl_project::misnamed_stack_file(&file_name, name)
                        && looks_like_stack_file(&dir.join(name))
                    {
                        misnamed.push((dir.join(name), read_name));
                    }
                }
                names.retain(|name| pcl_project::stack_name(&file_name, name).is_some());
                for name in &names {
                    match read(&dir.join(name)) {
                        Ok(stack_file) => stacks.push(stack_file),
                        Err(error) => read_errors.push(error),
                    }
                }
            }
        }
    }
    Ok(ProjectRequest {
        file,
        program_dir: program_dir_name(main),
        named,
        stacks,
        misnamed,
        read_errors,
        unread_projects,
    })
}

/// The project's extra files and the diagnostics of every file of the program that the
/// project adds: `files` are the program's files, to which the project and stack files
/// are appended; `by_file[i]` gets the diagnostics of `files[i]`.
pub(crate) fn check(
    analysis: &Analysis,
    id: &ProgramId,
    request: &ProjectRequest,
    files: &mut Vec<SourceFile>,
    by_file: &mut Vec<Vec<Diagnostic>>,
) {
    let project_id = FileId(files.len() as u32);
    files.push(request.file.clone());
    files.extend(request.stacks.iter().cloned());
    let stacks: Vec<(&str, &str)> = (request.stacks.iter())
        .map(|stack| (stack.name.as_str(), stack.text.as_str()))
        .collect();
    let project_files = ProjectFiles {
        project: (&request.file.name, &request.file.text),
        stacks: &stacks,
    };
    let ids = ProjectFileIds {
        project: project_id,
        first_stack: FileId(project_id.0 + 1),
    };
    let Ok(check) = analysis.project_check(id, project_files, ids) else {
        return;
    };
    let mut diagnostics = check.project_file;
    if request.named
        && let Some(project) = &check.project
        && !project.is_pcl()
        && let Some(runtime) = &project.runtime
    {
        let mut note = Diagnostic::warning(
            codes::OTHER_RUNTIME,
            format!("the project's runtime is `{}`, not `pcl`", runtime.name),
            Anchor::Span(Span {
                file: project_id,
                range: runtime.range,
            }),
        )
        .with_note("the program is checked, but not the stacks' config");
        note.severity = pcl_diagnostics::Severity::Note;
        diagnostics.push(note);
    }
    let project_file_name = Path::new(request.file.name.as_str()).file_name();
    let project_file_name = project_file_name.map(|n| n.to_string_lossy().into_owned());
    let project_name = project_file_name.as_deref().unwrap_or_default();
    let place = |path: &Path| {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let anchor = Anchor::Place {
            origin: path.display().to_string(),
            location: String::new(),
        };
        (name.unwrap_or_default(), anchor)
    };
    for path in &request.unread_projects {
        let (name, anchor) = place(path);
        diagnostics.push(pcl_project::unread_project_file(
            &name,
            project_name,
            anchor,
        ));
    }
    for (path, read_name) in &request.misnamed {
        let (name, anchor) = place(path);
        let warning = pcl_project::unread_stack_file(&name, project_name, read_name, anchor);
        diagnostics.push(warning);
    }
    diagnostics.extend(check.project_values);
    diagnostics.extend(check.unset_declarations);
    by_file.push(diagnostics);
    by_file.extend(check.stacks);
    // Another runtime's stacks are not checked: they get no diagnostics.
    by_file.resize_with(files.len(), Vec::new);
    let program_files = project_id.0 as usize;
    // The project's diagnostics in the program's files, which their `# pcl-ignore`
    // comments may silence: files it reads that are not there, required configs a stack
    // does not set.
    let project_dir = Path::new(request.file.name.as_str()).parent();
    let local_files = analysis.program_local_files(id, None).unwrap_or_default();
    let program_dir = Path::new(&request.program_dir);
    let mut in_program = check_local_files(
        &local_files,
        program_dir,
        project_dir.unwrap_or(program_dir),
        &|path| path.exists(),
    );
    in_program.extend(check.in_program);
    let mut per_file: Vec<Vec<Diagnostic>> = vec![Vec::new(); program_files];
    for d in in_program {
        if let Some(list) = d
            .span()
            .and_then(|span| per_file.get_mut(span.file.0 as usize))
        {
            list.push(d);
        }
    }
    for (index, found) in per_file.into_iter().enumerate() {
        let file = FileId(index as u32);
        let kept = analysis.apply_project_suppressions(id, file, found);
        by_file[index].extend(kept.unwrap_or_default());
    }
}

/// The namespaces of config keys (the stacks', and the project file's own `config:`) other
/// than the project's and `pulumi`: packages
/// whose schemas to load for their configuration variables.
pub(crate) fn provider_namespaces(requests: &[ProjectRequest]) -> Vec<String> {
    let mut names = Vec::new();
    for request in requests {
        let (project, _) = parse_project(
            FileId(0),
            Syntax::of(&request.file.name),
            &request.file.text,
        );
        let Some(project) = project else { continue };
        let stacks: Vec<Stack> = (request.stacks.iter())
            .filter_map(|stack_file| {
                parse_stack(FileId(0), Syntax::of(&stack_file.name), &stack_file.text).0
            })
            .collect();
        let entries =
            (stacks.iter().flat_map(|stack| &stack.config)).chain(&project.provider_values);
        for entry in entries {
            if let Some((ns, _)) = parse_key(&entry.key)
                && ns != project.name
                && ns != "pulumi"
                && !names.iter().any(|n| n == ns)
            {
                names.push(ns.to_owned());
            }
        }
    }
    names
}
