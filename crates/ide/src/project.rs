//! What stack checks (`pcl-project`) need from a program: its `config` blocks with their
//! types, requiredness, secrecy and logical names, and a provider's configuration
//! variables from its schema.

use pcl_diagnostics::{FileId, Span, TextRange, TextSize};
use pcl_project::{ConfigType, LocalFileUse, ProgramConfig, ProviderConfig, Syntax};
use pcl_schema::{ItemKind, SchemaItem, config_types, package_named};
use pcl_sema::{BlockId, DeclId, DeclKind, Expr, infer, program_graph};
use pcl_types::{Ty, TyKind};
use smol_str::SmolStr;

use crate::RootDatabase;
use crate::analysis::{Analysis, Cancellable, site_range};
use crate::host::ProgramId;
use crate::suppress::{Judged, apply_suppressions};

impl Analysis {
    /// The program's `config` blocks. A label's `FileId(i)` is the program's i-th file, as
    /// in [`Analysis::program_diagnostics`].
    pub fn program_configs(&self, id: &ProgramId) -> Cancellable<Vec<ProgramConfig>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let Some(program) = self.program_of(id) else {
                return Vec::new();
            };
            // Only the configs are typed here (an editor asks at each keystroke), found by
            // the files' item outlines (a declaration's kind would be a lookup per
            // declaration). A default that reads other declarations (rare) has the program
            // typed in dependency order first, so no chain of references is typed by
            // recursion (200,000 locals overflowed the stack).
            let files = program.files(db);
            let config_decls: Vec<(usize, DeclId<'_>)> = (files.iter().enumerate())
                .flat_map(|(index, &file)| {
                    let items = file.declarations(db).items.iter();
                    (items.zip(pcl_sema::file_decls(db, program, file).iter()))
                        .filter(|(item, _)| item.key.kind == DeclKind::Config)
                        .map(move |(_, &decl)| (index, decl))
                })
                .collect();
            let reads_others = (config_decls.iter())
                .any(|&(_, decl)| !pcl_sema::bind(db, decl).dependencies.is_empty());
            if reads_others {
                for &decl in program_graph(db, program).order.iter() {
                    let _ = pcl_sema::decl_ty(db, decl);
                }
            }
            let mut configs = Vec::new();
            for (index, decl) in config_decls {
                let Some(range) =
                    site_range(db, pcl_sema::Located::new(decl, pcl_sema::Site::Name))
                else {
                    continue;
                };
                let body = pcl_sema::body(db, decl);
                let literal = |name: &str| {
                    body.find_attr(BlockId::ROOT, name)
                        .map(|attr| body.expr(body.attr(attr).value))
                };
                let name = decl.name(db).to_string();
                let logical_name = pcl_sema::logical_name(db, decl).to_owned();
                let secret = matches!(literal("secret"), Some(Expr::Bool(true)));
                let result = infer(db, decl);
                configs.push(ProgramConfig {
                    name,
                    logical_name,
                    ty: config_type(db, result.value_ty, 0),
                    required: result.required,
                    secret,
                    label: Span {
                        file: FileId(index as u32),
                        range,
                    },
                });
            }
            configs
        })
    }

    /// The files the program reads at literal paths (`fileAsset("./www/index.html")`),
    /// in source order, in all its files or in `only` the one at that path; an argument's
    /// `FileId(i)` is the program's i-th file.
    pub fn program_local_files(
        &self,
        id: &ProgramId,
        only: Option<&str>,
    ) -> Cancellable<Vec<LocalFileUse>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let Some(program) = self.program_of(id) else {
                return Vec::new();
            };
            let files = program.files(db);
            let wanted =
                (files.iter()).filter(|file| only.is_none_or(|path| file.path(db) == path));
            let decls = wanted.flat_map(|&file| pcl_sema::file_decls(db, program, file).iter());
            let mut uses = Vec::new();
            for &decl in decls {
                for (path_arg, function, path) in pcl_sema::literal_file_reads(db, decl).iter() {
                    let at = pcl_sema::Located::new(decl, pcl_sema::Site::Expr(*path_arg));
                    let file = files.iter().position(|&f| f == decl.file(db));
                    let (Some(file), Some(range)) = (file, site_range(db, at)) else {
                        continue;
                    };
                    uses.push(LocalFileUse {
                        function: function.to_string(),
                        path: path.to_string(),
                        at: Span {
                            file: FileId(file as u32),
                            range,
                        },
                    });
                }
            }
            uses
        })
    }

    /// The `# pcl-ignore` comments of the program's `file` (its index, as in
    /// [`Analysis::program_diagnostics`]) applied to the project's diagnostics in it
    /// (`PCL5008`, `PCL5011`, which a driver finds), with a warning for each such
    /// comment of a project code that silences nothing.
    pub fn apply_project_suppressions(
        &self,
        id: &ProgramId,
        file: FileId,
        mut diagnostics: Vec<pcl_diagnostics::Diagnostic>,
    ) -> Cancellable<Vec<pcl_diagnostics::Diagnostic>> {
        salsa::Cancelled::catch(move || {
            let db = self.db();
            let source = (self.program_of(id))
                .and_then(|program| program.files(db).get(file.0 as usize).copied());
            if let Some(source) = source {
                let suppressions = pcl_sema::file_suppressions(db, source);
                apply_suppressions(suppressions, file, &mut diagnostics, Judged::Project);
            }
            diagnostics
        })
    }

    /// A loaded package's configuration variables; `None` when no schema of it is loaded.
    pub fn provider_config(&self, package: &str) -> Cancellable<Option<ProviderConfig>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let source = package_named(db, package)?;
            let item = SchemaItem::new(db, source, ItemKind::Config, SmolStr::default());
            let config = config_types(db, item).as_ref().ok()?;
            Some(ProviderConfig {
                variables: (config.variables.iter())
                    .map(|v| (v.name.to_string(), config_type(db, v.ty, 0)))
                    .collect(),
            })
        })
    }
}

/// A type as stack values are checked against it; what it cannot describe is dynamic.
fn config_type<'db>(db: &'db RootDatabase, ty: Ty<'db>, depth: u32) -> ConfigType {
    if depth > 16 {
        return ConfigType::Dynamic;
    }
    let inner = |t: Ty<'db>| Box::new(config_type(db, t, depth + 1));
    match ty.kind(db) {
        TyKind::Bool => ConfigType::Bool,
        TyKind::Int => ConfigType::Int,
        TyKind::Number => ConfigType::Number,
        TyKind::String | TyKind::Id => ConfigType::String,
        TyKind::List(e) | TyKind::Set(e) => ConfigType::List(inner(*e)),
        TyKind::Map(e) => ConfigType::Map(inner(*e)),
        TyKind::Output(t) | TyKind::Promise(t) | TyKind::Const(t, _) => config_type(db, *t, depth),
        TyKind::Enum(e) => config_type(db, e.underlying, depth),
        TyKind::Union(members) => {
            let mut rest = members
                .iter()
                .filter(|m| !matches!(m.kind(db), TyKind::None));
            match (rest.next(), rest.next()) {
                (Some(&only), None) => config_type(db, only, depth),
                _ => ConfigType::Dynamic,
            }
        }
        TyKind::Object(_) | TyKind::Named(_) => match pcl_types::object_properties(db, ty) {
            Some(fields) => ConfigType::Object(
                fields
                    .iter()
                    .map(|(n, t)| (n.to_string(), config_type(db, *t, depth + 1)))
                    .collect(),
            ),
            None => ConfigType::Dynamic,
        },
        _ => ConfigType::Dynamic,
    }
}

/// A Pulumi project's files: the project file and the stack files Pulumi reads beside it,
/// each a path and a text.
pub struct ProjectFiles<'a> {
    pub project: (&'a str, &'a str),
    pub stacks: &'a [(&'a str, &'a str)],
}

/// The file ids a project's diagnostics are anchored in: the project file's, and its first
/// stack file's (the i-th is `first_stack + i`).
#[derive(Clone, Copy)]
pub struct ProjectFileIds {
    pub project: FileId,
    pub first_stack: FileId,
}

/// What a project and its stacks say of a program, as `pcl check` reports it.
pub struct ProjectCheck {
    /// The project file, parsed (`None` when it cannot be read as one).
    pub project: Option<pcl_project::Project>,
    /// The project file's syntax and settings.
    pub project_file: Vec<pcl_diagnostics::Diagnostic>,
    /// The project file's own config values.
    pub project_values: Vec<pcl_diagnostics::Diagnostic>,
    /// The project file's declarations without a value that a stack does not set.
    pub unset_declarations: Vec<pcl_diagnostics::Diagnostic>,
    /// Each stack file's own, in order.
    pub stacks: Vec<Vec<pcl_diagnostics::Diagnostic>>,
    /// Those in the program's files (a required config a stack does not set), before
    /// their `# pcl-ignore` comments are applied
    /// ([`Analysis::apply_project_suppressions`]).
    pub in_program: Vec<pcl_diagnostics::Diagnostic>,
}

impl Analysis {
    /// The project file and each stack file checked against the program `id` (its
    /// configs) and the providers' schemas. Another runtime's project checks only its
    /// file's syntax: its config is its own program's.
    pub fn project_check(
        &self,
        id: &ProgramId,
        files: ProjectFiles<'_>,
        ids: ProjectFileIds,
    ) -> Cancellable<ProjectCheck> {
        let project_id = ids.project;
        let (project_path, project_text) = files.project;
        let (project, project_file) =
            pcl_project::parse_project(project_id, Syntax::of(project_path), project_text);
        let mut check = ProjectCheck {
            project: None,
            project_file,
            project_values: Vec::new(),
            unset_declarations: Vec::new(),
            stacks: Vec::new(),
            in_program: Vec::new(),
        };
        let Some(project) = project else {
            return Ok(check);
        };
        if project.is_pcl() {
            let provider = |package: &str| self.provider_config(package).ok().flatten();
            (check.project_file)
                .extend(pcl_project::check_project(&project, project_id, &provider));
            let configs = self.program_configs(id)?;
            check.project_values =
                pcl_project::check_project_values(&project, project_id, &configs);
            for (index, (path, text)) in files.stacks.iter().enumerate() {
                let stack_id = FileId(ids.first_stack.0 + index as u32);
                let (stack, mut diagnostics) =
                    pcl_project::parse_stack(stack_id, Syntax::of(path), text);
                if let Some(stack) = stack {
                    let project = (&project, project_id);
                    let found = pcl_project::check_stack(
                        project, &stack, stack_id, path, &configs, &provider,
                    );
                    diagnostics.extend(found.in_stack);
                    check.in_program.extend(found.in_program);
                    check.unset_declarations.extend(found.in_project);
                }
                check.stacks.push(diagnostics);
            }
        }
        check.project = Some(project);
        Ok(check)
    }
}

/// A project file or one of its stack files, as an editor has it open.
pub struct ProjectDocument<'a> {
    /// The project file's path and text (`Pulumi.yaml`).
    pub project: (&'a str, &'a str),
    /// The open file's path and text: the project file itself, or a stack file beside it.
    pub document: (&'a str, &'a str),
    /// The project's stack files, each a path and text: a declaration in the project file
    /// without a value is reported there when one of them does not set it.
    pub stacks: &'a [(&'a str, &'a str)],
}

impl Analysis {
    /// The diagnostics of an open project or stack file, anchored in `FileId(0)` (the
    /// document): the project file's own problems, or a stack's config checked against
    /// the program at the project's `main` (`program`, which the driver has loaded) and
    /// the providers' schemas. A required config the stack does not set, which `pcl
    /// check` reports at the config in the program, is shown at the stack's `config:` key
    /// too. A file that is no stack of the project has none.
    pub fn project_document_diagnostics(
        &self,
        files: ProjectDocument<'_>,
        program: &ProgramId,
    ) -> Cancellable<Vec<pcl_diagnostics::Diagnostic>> {
        let project_path = files.project.0;
        let (path, text) = files.document;
        if path == project_path {
            let project = ProjectFiles {
                project: (path, text),
                stacks: files.stacks,
            };
            let ids = ProjectFileIds {
                project: FileId(0),
                first_stack: FileId(1),
            };
            let check = self.project_check(program, project, ids)?;
            let mut diagnostics = check.project_file;
            diagnostics.extend(check.project_values);
            diagnostics.extend(check.unset_declarations);
            return Ok(diagnostics);
        }
        let file_name = |p: &str| {
            std::path::Path::new(p)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let (project_name, name) = (file_name(project_path), file_name(path));
        if let Some(unread) = unread_file(&project_name, &name, text) {
            return Ok(vec![unread]);
        }
        if pcl_project::stack_name(&project_name, &name).is_none() {
            return Ok(Vec::new());
        }
        let project = ProjectFiles {
            project: files.project,
            stacks: &[(path, text)],
        };
        let ids = ProjectFileIds {
            project: FileId(1),
            first_stack: FileId(0),
        };
        let mut check = self.project_check(program, project, ids)?;
        let Some(mut diagnostics) = check.stacks.pop() else {
            return Ok(Vec::new());
        };
        // A required config the stack does not set is anchored at the config in the
        // program (or its declaration in the project file); the open stack shows it too,
        // at its `config:` key (else its start).
        let at = stack_config_key(text);
        let missing = (check.in_program.into_iter()).chain(check.unset_declarations);
        diagnostics.extend(missing.map(|mut d| {
            d.anchor = pcl_diagnostics::Anchor::Span(Span {
                file: FileId(0),
                range: at,
            });
            d
        }));
        Ok(diagnostics)
    }
}

/// The warning an open file beside the project file `project_name` shows when Pulumi does
/// not read it (as `pcl check` says): a second project file (`PCL5013`), or a file named
/// like a stack file of another extension, case or separator (`PCL5012`). At its first
/// line.
fn unread_file(project_name: &str, name: &str, text: &str) -> Option<pcl_diagnostics::Diagnostic> {
    use pcl_diagnostics::{Anchor, TextRange, TextSize};
    let first_line = TextSize::from(text.lines().next().map_or(0, str::len) as u32);
    let anchor = Anchor::Span(Span {
        file: FileId(0),
        range: TextRange::new(TextSize::from(0), first_line),
    });
    if pcl_project::PROJECT_FILE_NAMES.contains(&name) {
        return Some(pcl_project::unread_project_file(name, project_name, anchor));
    }
    let read_name = pcl_project::misnamed_stack_file(project_name, name)?;
    Some(pcl_project::unread_stack_file(
        name,
        project_name,
        &read_name,
        anchor,
    ))
}

/// The range of a stack file's top-level `config:` key, else of its first line.
fn stack_config_key(text: &str) -> pcl_diagnostics::TextRange {
    use pcl_diagnostics::{TextRange, TextSize};
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        let key = match line.starts_with("config:") {
            true => Some("config".len()),
            // A JSON stack file's key, at any indentation.
            false => line
                .trim_start()
                .starts_with("\"config\"")
                .then_some("\"config\"".len()),
        };
        if let Some(len) = key {
            let start = offset
                + if line.starts_with("config:") {
                    0
                } else {
                    indent
                };
            return TextRange::new(
                TextSize::from(start as u32),
                TextSize::from((start + len) as u32),
            );
        }
        offset += line.len();
    }
    let first = text.lines().next().map_or(0, str::len);
    TextRange::new(TextSize::from(0), TextSize::from(first as u32))
}

/// Where renaming the config that stack files set as `old` (its logical name) edits a
/// stack file of the project named `project`: the name in each config key that sets it,
/// `project:old` (or the older `project:config:old`) and `old` alone, which Pulumi reads in
/// the project's namespace.
pub fn config_key_ranges(
    project: &str,
    stack_path: &str,
    stack_text: &str,
    old: &str,
) -> Vec<TextRange> {
    let (Some(stack), _) = pcl_project::parse_stack(FileId(0), Syntax::of(stack_path), stack_text)
    else {
        return Vec::new();
    };
    (stack.config.iter())
        .filter(|entry| match pcl_project::parse_key(&entry.key) {
            Some((namespace, name)) => namespace == project && name == old,
            None => entry.key == old,
        })
        .filter_map(|entry| {
            let written = stack_text.get(std::ops::Range::<usize>::from(entry.key_range))?;
            let at = TextSize::try_from(written.rfind(old)?).ok()?;
            Some(TextRange::at(
                entry.key_range.start() + at,
                TextSize::of(old),
            ))
        })
        .collect()
}

/// The name of the project a project file (at `path`, with `text`) declares.
pub fn project_name(path: &str, text: &str) -> Option<String> {
    let (project, _) = pcl_project::parse_project(FileId(0), Syntax::of(path), text);
    project.map(|project| project.name)
}

/// Where the stack files of the project whose file is `project_path` (with `text`) are:
/// its `stackConfigDir`, else beside it.
pub fn stack_dir(project_path: &std::path::Path, text: &str) -> std::path::PathBuf {
    let dir = project_path.parent().unwrap_or(std::path::Path::new("."));
    let syntax = Syntax::of(&project_path.to_string_lossy());
    let (project, _) = pcl_project::parse_project(FileId(0), syntax, text);
    match project.and_then(|project| project.stack_config_dir) {
        Some(config_dir) => dir.join(config_dir),
        None => dir.to_path_buf(),
    }
}

/// The `main` a project file's text names, if it parses and names one. A JSON file is
/// read as YAML here, leniently: its syntax errors are the project file's diagnostics.
pub fn parse_project_main(text: &str) -> Option<String> {
    pcl_project::parse_project(FileId(0), Syntax::Yaml, text)
        .0?
        .main
}
