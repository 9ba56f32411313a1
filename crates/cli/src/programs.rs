//! Programs named on the command line, for `pcl check` and `pcl types`: a directory that
//! holds `.pp` files is one program; a directory without its own `.pp` files stands for
//! every program below it; a `.pp` file is checked with the other `.pp` files of its
//! directory (they share its namespace) and only its own diagnostics are shown; `-` is
//! one file read from standard input. `pcl check` also reports the component programs
//! they use.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pcl_ide::{AnalysisHost, ProgramId};
use smol_str::SmolStr;

use crate::inputs::{self, Input, SourceFile};

/// One program to check and which of its files to report on.
pub(crate) struct ProgramRequest {
    dir: String,
    files: Vec<Input>,
    /// `None`: report every file; otherwise only these paths.
    shown: Option<Vec<String>>,
}

/// A program read and set in the host.
pub(crate) struct LoadedProgram {
    pub(crate) id: ProgramId,
    /// The directory as named on the command line.
    pub(crate) dir: String,
    pub(crate) files: Vec<SourceFile>,
    shown: Option<Vec<String>>,
}

impl LoadedProgram {
    /// Whether diagnostics of `files[index]` are reported.
    pub(crate) fn shows(&self, index: usize) -> bool {
        self.shown
            .as_ref()
            .is_none_or(|shown| shown.contains(&self.files[index].name))
    }
}

/// The programs `paths` name, and a message for each path that cannot be read.
pub(crate) fn requests(paths: &[PathBuf]) -> (Vec<ProgramRequest>, Vec<String>) {
    let mut by_dir: BTreeMap<String, ProgramRequest> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut errors = Vec::new();
    let mut add = |dir: String, files: Vec<Input>, shown: Option<String>| {
        let request = by_dir.entry(dir.clone()).or_insert_with(|| {
            order.push(dir.clone());
            ProgramRequest {
                dir,
                files,
                shown: Some(Vec::new()),
            }
        });
        match (shown, &mut request.shown) {
            (Some(file), Some(shown)) => shown.push(file),
            (None, shown) => *shown = None,
            (Some(_), None) => {}
        }
    };
    for path in paths {
        if path.as_os_str() == "-" {
            add(".<stdin>".to_owned(), vec![Input::Stdin], None);
            continue;
        }
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => {
                let own = pcl_ide::program_file_paths(path);
                if !own.is_empty() {
                    add(
                        dir_name(path),
                        own.into_iter().map(Input::File).collect(),
                        None,
                    );
                    continue;
                }
                let (found, walk_errors) = inputs::expand(std::slice::from_ref(path), &["pp"]);
                errors.extend(walk_errors);
                let mut dirs: Vec<PathBuf> = found
                    .iter()
                    .filter_map(|input| match input {
                        Input::File(file) => file.parent().map(Path::to_path_buf),
                        Input::Stdin => None,
                    })
                    .collect();
                dirs.dedup();
                for dir in dirs {
                    let files = pcl_ide::program_file_paths(&dir)
                        .into_iter()
                        .map(Input::File)
                        .collect();
                    add(dir_name(&dir), files, None);
                }
            }
            Ok(_) => {
                let parent = path.parent().map(Path::to_path_buf).unwrap_or_default();
                let mut files = pcl_ide::program_file_paths(&parent);
                if !files.contains(path) {
                    files.push(path.clone());
                }
                let files = files.into_iter().map(Input::File).collect();
                add(dir_name(&parent), files, Some(path.display().to_string()));
            }
            Err(err) => errors.push(format!(
                "cannot read `{}`: {}",
                path.display(),
                inputs::io_reason(&err)
            )),
        }
    }
    let requests = order
        .into_iter()
        .filter_map(|dir| by_dir.remove(&dir))
        .collect();
    (requests, errors)
}

/// Read each program's files and set them in the host; then load the schemas and
/// component programs they need. Unreadable files are reported in the error list.
pub(crate) fn load(
    host: &mut AnalysisHost,
    requests: Vec<ProgramRequest>,
    jobs: usize,
) -> (Vec<LoadedProgram>, Vec<String>) {
    let mut loaded = Vec::new();
    let mut errors = Vec::new();
    for request in requests {
        let mut files = Vec::new();
        for read in read_all(&request.files, jobs) {
            match read {
                Ok(file) => files.push(file),
                Err(message) => errors.push(message),
            }
        }
        let dir = if request.dir == ".<stdin>" {
            ".".to_owned()
        } else {
            request.dir.clone()
        };
        let texts = files
            .iter()
            .map(|f| (SmolStr::new(&f.name), f.source_text()))
            .collect();
        let id = host.set_program(&dir, texts);
        loaded.push(LoadedProgram {
            id,
            dir: request.dir.clone(),
            files,
            shown: request.shown,
        });
    }
    host.load_dependencies();
    crate::allocator::release_freed_memory();
    (loaded, errors)
}

/// The component programs the loaded ones use (found by `load_dependencies`) that were
/// not asked for themselves, for `pcl check` to report as well (a deploy binds them too);
/// none when only some files of the programs are to be shown.
pub(crate) fn component_programs(
    host: &AnalysisHost,
    loaded: &[LoadedProgram],
) -> Vec<LoadedProgram> {
    if loaded.iter().any(|program| program.shown.is_some()) {
        return Vec::new();
    }
    let analysis = host.analysis();
    (host.program_ids().into_iter())
        .filter(|id| loaded.iter().all(|program| program.id != *id))
        .map(|id| {
            let files = (analysis.program_files(&id).into_iter())
                .filter_map(|path| match analysis.file_text(&path)? {
                    pcl_ide::FileText::Program(text) => {
                        Some(SourceFile::shared(path.to_string(), text))
                    }
                    pcl_ide::FileText::Schema(_) => None,
                })
                .collect();
            LoadedProgram {
                dir: id.0.to_string(),
                id,
                files,
                shown: None,
            }
        })
        .collect()
}

/// Reads `inputs` on up to `jobs` threads (each a contiguous run of them), in order.
fn read_all(inputs: &[Input], jobs: usize) -> Vec<Result<SourceFile, String>> {
    if jobs <= 1 || inputs.len() <= 1 {
        return inputs.iter().map(Input::read_program_file).collect();
    }
    let run = inputs.len().div_ceil(jobs);
    std::thread::scope(|scope| {
        let readers: Vec<_> = (inputs.chunks(run))
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(Input::read_program_file)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        (readers.into_iter())
            .flat_map(|reader| match reader.join() {
                Ok(reads) => reads,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

fn dir_name(dir: &Path) -> String {
    let name = dir.display().to_string();
    if name.is_empty() {
        ".".to_owned()
    } else {
        name
    }
}
