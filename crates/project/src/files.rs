//! Project files (`Pulumi.yaml`, `Pulumi.yml`, `Pulumi.json`) and stack files
//! (`Pulumi.<stack>.<ext>`) read into what the checks need, with the byte range of every
//! key and value. A file that is not valid YAML, or lacks what Pulumi requires, is a
//! diagnostic at its line.

use pcl_diagnostics::{Anchor, Diagnostic, FileId, Span, TextRange, TextSize, codes};

use crate::declared::{ConfigDeclaration, declaration};
use crate::yaml::{self, Node, NodeKind};

/// The names of project files, in the order Pulumi looks for them (`encoding.Exts`): the
/// first in a directory is its project file, and the others there are not read.
pub const PROJECT_FILE_NAMES: &[&str] = &["Pulumi.json", "Pulumi.yaml", "Pulumi.yml"];

/// A project file's runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Runtime {
    pub name: String,
    pub range: TextRange,
}

/// What the checks read from a project file.
#[derive(Clone, Debug, Default)]
pub struct Project {
    pub name: String,
    pub runtime: Option<Runtime>,
    /// `main`: the program's directory (or a file in it), relative to the project file.
    pub main: Option<String>,
    /// Where `main`'s value is written.
    pub main_range: Option<TextRange>,
    /// `stackConfigDir`, relative to the project file.
    pub stack_config_dir: Option<String>,
    /// The keys of the project file's own `config:`, as written (`port`, `proj:port`,
    /// `aws:region`).
    pub config_keys: Vec<String>,
    /// The declarations of the project's own configs in `config:`.
    pub declarations: Vec<ConfigDeclaration>,
    /// The entries of `config:` namespaced by another than the project (providers'
    /// settings, `aws:region: us-west-2`), with their values (`value:` when written as a
    /// map), to check as a stack's.
    pub provider_values: Vec<StackEntry>,
}

impl Project {
    /// Whether the program is PCL (`runtime: pcl` or `runtime: {name: pcl}`).
    pub fn is_pcl(&self) -> bool {
        self.runtime.as_ref().is_some_and(|r| r.name == "pcl")
    }
}

/// One `config:` entry of a stack file.
#[derive(Clone, Debug)]
pub struct StackEntry {
    pub key: String,
    pub key_range: TextRange,
    pub value: Node,
}

impl StackEntry {
    /// A `secure:` value (ciphertext).
    pub fn is_secure(&self) -> bool {
        crate::value::is_ciphertext(&self.value)
    }
}

/// What the checks read from a stack file.
#[derive(Clone, Debug, Default)]
pub struct Stack {
    pub config: Vec<StackEntry>,
    /// Whether the stack imports ESC environments (`environment:`), which may set config.
    pub has_environment: bool,
    /// Config keys written at the top level instead of under `config:` (Pulumi ignores
    /// them).
    pub stray_keys: Vec<String>,
}

pub(crate) fn span(file: FileId, range: TextRange) -> Anchor {
    Anchor::Span(Span { file, range })
}

fn start(text: &str) -> TextRange {
    let end = text.chars().next().map_or(0, char::len_utf8);
    TextRange::new(TextSize::from(0), TextSize::from(end as u32))
}

/// How a project or stack file is written, by its extension: Pulumi reads `.json` files
/// with Go's `encoding/json` (strict JSON: no comments, no trailing commas), the others
/// as YAML.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Yaml,
    Json,
}

impl Syntax {
    /// The syntax of the file at `path` (a name or a path).
    pub fn of(path: &str) -> Syntax {
        match path.ends_with(".json") {
            true => Syntax::Json,
            false => Syntax::Yaml,
        }
    }
}

/// Parse a document (JSON is read as the YAML it also is, for positions, once it is
/// known to be strict JSON); a syntax error is a diagnostic. An empty file is an empty map.
fn document(file: FileId, syntax: Syntax, text: &str, what: &str) -> Result<Node, Box<Diagnostic>> {
    if syntax == Syntax::Json
        && let Some(error) = json_error(file, text, what)
    {
        return Err(Box::new(error));
    }
    match yaml::parse(text) {
        Ok(Some(node)) => Ok(node),
        Ok(None) => Ok(Node {
            kind: NodeKind::Map(Vec::new()),
            range: start(text),
        }),
        Err(error) => Err(Box::new(Diagnostic::error(
            codes::PROJECT_FILE_SYNTAX,
            format!("this {what} is not valid YAML: {}", error.message),
            span(file, error.range),
        ))),
    }
}

/// Where and why `text` is not strict JSON (a leading byte order mark is allowed: Pulumi
/// strips it).
fn json_error(file: FileId, text: &str, what: &str) -> Option<Diagnostic> {
    let skipped = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let error = serde_json::from_str::<serde_json::Value>(&text[skipped..]).err()?;
    let line_start: usize = (text[skipped..].split_inclusive('\n'))
        .take(error.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let mut offset = (skipped + line_start + error.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let message = error.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(m, _)| m);
    // serde_json stops at the bracket after a trailing comma: show the comma.
    if message == "trailing comma"
        && let Some(comma) = text[..offset].trim_end().strip_suffix(',')
    {
        offset = comma.len();
    }
    let end = text[offset..].chars().next().map_or(0, char::len_utf8);
    let range = TextRange::new(
        TextSize::from(offset as u32),
        TextSize::from((offset + end) as u32),
    );
    Some(
        Diagnostic::error(
            codes::PROJECT_FILE_SYNTAX,
            format!("this {what} is not valid JSON: {message}"),
            span(file, range),
        )
        .with_note("Pulumi reads `.json` project and stack files as strict JSON: no comments, no trailing commas"),
    )
}

/// A string field, or a diagnostic when it is something else.
fn string_field(
    node: &Node,
    key: &str,
    file: FileId,
    code: pcl_diagnostics::Code,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let value = node.get(key)?;
    match &value.kind {
        NodeKind::Scalar { text, .. } if !value.is_null() => Some(text.clone()),
        _ => {
            diagnostics.push(Diagnostic::error(
                code,
                format!("`{key}` must be a string, not {}", value.describe()),
                span(file, value.range),
            ));
            None
        }
    }
}

/// Read a project file. `None` when it cannot be used (the diagnostics say why).
pub fn parse_project(
    file: FileId,
    syntax: Syntax,
    text: &str,
) -> (Option<Project>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let root = match document(file, syntax, text, "project file") {
        Ok(root) => root,
        Err(d) => return (None, vec![*d]),
    };
    if root.entries().is_none() {
        diagnostics.push(Diagnostic::error(
            codes::INVALID_PROJECT_FILE,
            format!("a project file is a map of fields, not {}", root.describe()),
            span(file, root.range),
        ));
        return (None, diagnostics);
    }
    let code = codes::INVALID_PROJECT_FILE;
    let name = string_field(&root, "name", file, code, &mut diagnostics);
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        if root.get("name").is_none() {
            diagnostics.push(
                Diagnostic::error(
                    code,
                    "the project file has no `name`",
                    span(file, start(text)),
                )
                .with_note("Pulumi requires a project name: add `name: my-project`"),
            );
        }
        return (None, diagnostics);
    };
    let runtime = match root.get("runtime") {
        None => None,
        Some(node) => {
            let name_node = match &node.kind {
                NodeKind::Map(_) => node.get("name"),
                _ => Some(node),
            };
            match name_node.and_then(|n| n.scalar().map(|s| (s, n.range))) {
                // `PCL`: no such runtime plugin; the program is surely PCL.
                Some((runtime, range))
                    if runtime != "pcl" && runtime.eq_ignore_ascii_case("pcl") =>
                {
                    diagnostics.push(
                        Diagnostic::error(
                            code,
                            format!("the runtime `{runtime}` is written in lowercase: `pcl`"),
                            span(file, range),
                        )
                        .with_note("Pulumi finds no language plugin named otherwise"),
                    );
                    Some(Runtime {
                        name: "pcl".to_owned(),
                        range,
                    })
                }
                Some((runtime, range)) if !runtime.is_empty() => Some(Runtime {
                    name: runtime.to_owned(),
                    range,
                }),
                _ => {
                    diagnostics.push(Diagnostic::error(
                        code,
                        "`runtime` must be a name, or a map with `name` and `options`",
                        span(file, node.range),
                    ));
                    None
                }
            }
        }
    };
    if root.get("runtime").is_none() {
        diagnostics.push(
            Diagnostic::error(
                code,
                "the project file has no `runtime`",
                span(file, start(text)),
            )
            .with_note("a PCL program's project says `runtime: pcl`"),
        );
    }
    let main = string_field(&root, "main", file, code, &mut diagnostics);
    let mut stack_config_dir = string_field(&root, "stackConfigDir", file, code, &mut diagnostics);
    let mut config_keys = Vec::new();
    let mut declarations = Vec::new();
    let mut provider_values = Vec::new();
    if let Some(config) = root.get("config").filter(|c| !c.is_null()) {
        // The old form of `stackConfigDir` (Pulumi rewrites it so, and refuses both).
        if let NodeKind::Scalar { text, .. } = &config.kind {
            match stack_config_dir {
                Some(_) => diagnostics.push(
                    Diagnostic::error(
                        code,
                        "`config` names the directory of the stack files, and so does `stackConfigDir`",
                        span(file, config.range),
                    )
                    .with_note("Pulumi refuses both: keep `stackConfigDir` and remove this `config`"),
                ),
                None => stack_config_dir = Some(text.clone()),
            }
        } else {
            match config.entries() {
                Some(entries) => {
                    for (key, value) in entries {
                        let Some(key_text) = key.scalar() else {
                            continue;
                        };
                        config_keys.push(key_text.to_owned());
                        let own = match crate::check::parse_key(key_text) {
                            None if !key_text.contains(':') => Some(key_text),
                            Some((namespace, rest)) if namespace == name => Some(rest),
                            _ => None,
                        };
                        if let Some(own) = own {
                            let declared =
                                declaration(own, key.range, value, file, &mut diagnostics);
                            declarations.push(declared);
                            continue;
                        }
                        let found =
                            provider_value(key_text, key.range, value, file, &mut diagnostics);
                        provider_values.extend(found.map(|value| StackEntry {
                            key: key_text.to_owned(),
                            key_range: key.range,
                            value,
                        }));
                    }
                }
                None => diagnostics.push(Diagnostic::error(
                    code,
                    format!(
                        "`config` must be a map (or the directory of the stack files), not {}",
                        config.describe()
                    ),
                    span(file, config.range),
                )),
            }
        }
    }
    let main_range = main
        .is_some()
        .then(|| root.get("main").map(|m| m.range))
        .flatten();
    let project = Project {
        name,
        runtime,
        main,
        main_range,
        stack_config_dir,
        config_keys,
        declarations,
        provider_values,
    };
    (Some(project), diagnostics)
}

/// The value a project file sets for a key of another namespace (`aws:region`): the
/// value itself, or a map's `value`. Such a key takes no `type` or `default` (those
/// declare the project's own configs), and Pulumi refuses to load a project where one
/// does, or where a map gives no `value`.
fn provider_value(
    key: &str,
    key_range: TextRange,
    value: &Node,
    file: FileId,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Node> {
    if !matches!(value.kind, NodeKind::Map(_)) {
        return Some(value.clone());
    }
    let refused = |field: &str, range: TextRange| {
        Diagnostic::error(
            codes::INVALID_PROJECT_FILE,
            format!("`{key}` is another namespace's setting, so it takes no `{field}`"),
            span(file, range),
        )
        .with_note(
            "only the project's own configs (no namespace, or the project's name) declare a \
             `type` and a `default`; Pulumi refuses to load the project",
        )
    };
    let field_key = |field: &str| {
        (value.entries().into_iter().flatten())
            .find(|(k, _)| k.scalar() == Some(field))
            .map(|(k, _)| k.range)
    };
    for field in ["type", "default"] {
        if let Some(range) = field_key(field) {
            let mut d = refused(field, range);
            if field == "default" {
                d = d.with_note("to set it for every stack, write `value:` instead of `default:`");
            }
            diagnostics.push(d);
            return None;
        }
    }
    let given = value.get("value");
    if given.is_none() {
        diagnostics.push(
            Diagnostic::error(
                codes::INVALID_PROJECT_FILE,
                format!("`{key}` is another namespace's setting, written as a map without `value`"),
                span(file, key_range),
            )
            .with_note(format!(
                "write `{key}: VALUE`, or `value: VALUE` inside the map"
            )),
        );
    }
    given.cloned()
}

/// Read a stack file. `None` when it is not valid YAML or not a map.
pub fn parse_stack(file: FileId, syntax: Syntax, text: &str) -> (Option<Stack>, Vec<Diagnostic>) {
    let root = match document(file, syntax, text, "stack file") {
        Ok(root) => root,
        Err(d) => return (None, vec![*d]),
    };
    let mut diagnostics = Vec::new();
    if root.entries().is_none() && !root.is_null() {
        diagnostics.push(Diagnostic::error(
            codes::INVALID_STACK_FILE,
            format!("a stack file is a map of fields, not {}", root.describe()),
            span(file, root.range),
        ));
        return (None, diagnostics);
    }
    let mut stack = Stack {
        has_environment: (field_entries(&root, syntax, "environment").iter())
            .any(|(_, environment)| !environment.is_null()),
        ..Stack::default()
    };
    for (field, config) in field_entries(&root, syntax, "config") {
        if config.is_null() {
            continue;
        }
        // `Config` in JSON is read as `config`, but only `config`'s keys get the project's
        // namespace (Pulumi's `stackConfigNamespacedWithProject`).
        let namespaced_by_pulumi = field.scalar() == Some("config");
        match config.entries() {
            Some(entries) => {
                for (key, value) in entries {
                    match key.scalar() {
                        Some(name) if !namespaced_by_pulumi && !name.contains(':') => {
                            let field = field.scalar().unwrap_or_default();
                            diagnostics.push(
                                Diagnostic::error(
                                    codes::INVALID_CONFIG_KEY,
                                    format!(
                                        "`{name}` has no namespace, and Pulumi gives the project's only to the keys of `config`, not of `{field}`"
                                    ),
                                    span(file, key.range),
                                )
                                .with_note(format!(
                                    "Pulumi fails to load the stack: write `config` for `{field}` (Go reads JSON field names without case), or name the key `PROJECT:{name}`"
                                )),
                            );
                        }
                        Some(name) => stack.config.push(StackEntry {
                            key: name.to_owned(),
                            key_range: key.range,
                            value: value.clone(),
                        }),
                        None => diagnostics.push(Diagnostic::error(
                            codes::INVALID_CONFIG_KEY,
                            format!("a config key must be a string, not {}", key.describe()),
                            span(file, key.range),
                        )),
                    }
                }
            }
            None => {
                diagnostics.push(Diagnostic::error(
                    codes::INVALID_STACK_FILE,
                    format!(
                        "`config` must be a map of keys to values, not {}",
                        config.describe()
                    ),
                    span(file, config.range),
                ));
                // Its configs cannot be told apart: no stack checks.
                return (None, diagnostics);
            }
        }
    }
    unknown_stack_fields(&root, syntax, file, &mut diagnostics);
    stack.stray_keys = (root.entries().unwrap_or_default().iter())
        .filter_map(|(key, _)| key.scalar())
        .filter(|key| key.contains(':'))
        .map(str::to_owned)
        .collect();
    (Some(stack), diagnostics)
}

/// The top-level entries of a stack file that Pulumi reads as `field`: that key, and in
/// JSON (whose field names Go's `encoding/json` matches without case) the keys equal to
/// it but for case, in the order Pulumi merges them (sorted).
fn field_entries<'a>(root: &'a Node, syntax: Syntax, field: &str) -> Vec<(&'a Node, &'a Node)> {
    let mut found: Vec<(&Node, &Node)> = (root.entries().unwrap_or_default().iter())
        .filter(|(key, _)| {
            key.scalar().is_some_and(|name| {
                name == field || (syntax == Syntax::Json && name.eq_ignore_ascii_case(field))
            })
        })
        .map(|(key, value)| (key, value))
        .collect();
    found.sort_by(|a, b| a.0.scalar().cmp(&b.0.scalar()));
    found
}

/// The fields of a stack file (`ProjectStack`); Pulumi ignores any other.
const STACK_FIELDS: [&str; 5] = [
    "config",
    "environment",
    "secretsprovider",
    "encryptedkey",
    "encryptionsalt",
];

/// A warning for each top-level key of a stack file that Pulumi ignores and that looks
/// meant: a config key not indented under `config:` (`web:size: 2`), or a misspelt field.
/// Other keys are left alone (a key that only holds a YAML anchor for the config to
/// reuse).
fn unknown_stack_fields(
    root: &Node,
    syntax: Syntax,
    file: FileId,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (key, _) in root.entries().unwrap_or_default() {
        let Some(name) = key.scalar().filter(|name| !STACK_FIELDS.contains(name)) else {
            continue;
        };
        // Read as the field in JSON all the same: said, as a warning.
        if syntax == Syntax::Json
            && let Some(field) = STACK_FIELDS.iter().find(|f| f.eq_ignore_ascii_case(name))
        {
            diagnostics.push(
                Diagnostic::warning(
                    codes::INVALID_STACK_FILE,
                    format!(
                        "`{name}` is read as `{field}`: Go reads JSON field names without case"
                    ),
                    span(file, key.range),
                )
                .with_note(format!("write `{field}`, as Pulumi's own files do")),
            );
            continue;
        }
        let note = match pcl_types::closest_name(name, STACK_FIELDS.iter().copied()) {
            _ if name.contains(':') => "a config key goes under `config:`, indented".to_owned(),
            Some(close) => format!("did you mean `{close}`?"),
            None => continue,
        };
        diagnostics.push(
            Diagnostic::warning(
                codes::INVALID_STACK_FILE,
                format!("`{name}` is not a field of a stack file: Pulumi ignores it"),
                span(file, key.range),
            )
            .with_note(note),
        );
    }
}

/// A stack file's path for `stack` beside a project file named `project_file` (its
/// extension): `Pulumi.<stack><ext>`, as Pulumi's `ProjectStackPath`.
pub fn stack_file_name(project_file: &str, stack: &str) -> String {
    let ext = project_file.strip_prefix("Pulumi").unwrap_or(".yaml");
    format!("Pulumi.{stack}{ext}")
}

/// The stack name of a file name, when it is a stack file of a project file named
/// `project_file`.
pub fn stack_name<'a>(project_file: &str, file_name: &'a str) -> Option<&'a str> {
    let ext = project_file.strip_prefix("Pulumi").unwrap_or(".yaml");
    let name = file_name.strip_prefix("Pulumi.")?.strip_suffix(ext)?;
    (!name.is_empty()).then_some(name)
}

/// The warning for `name`, a second project file beside `project_name`, the one Pulumi
/// reads (`PCL5013`), at `anchor`.
pub fn unread_project_file(name: &str, project_name: &str, anchor: Anchor) -> Diagnostic {
    Diagnostic::warning(
        codes::UNREAD_PROJECT_FILE,
        format!("Pulumi does not read `{name}`: `{project_name}` beside it is the project file"),
        anchor,
    )
    .with_note(
        "Pulumi looks for `Pulumi.json`, then `Pulumi.yaml`, then `Pulumi.yml`: remove the files it does not read",
    )
}

/// The warning for `name`, named like a stack file of the project file `project_name`
/// that Pulumi reads as `read_name` (`PCL5012`), at `anchor`.
pub fn unread_stack_file(
    name: &str,
    project_name: &str,
    read_name: &str,
    anchor: Anchor,
) -> Diagnostic {
    Diagnostic::warning(
        codes::UNREAD_STACK_FILE,
        format!("Pulumi does not read `{name}` as a stack file of `{project_name}`"),
        anchor,
    )
    .with_note(format!(
        "its stack runs without this configuration: rename it `{read_name}`"
    ))
}

/// The name Pulumi reads for the stack that `file_name`, beside the project file
/// `project_file`, looks meant for, when Pulumi does not read `file_name` itself: another
/// extension (`Pulumi.dev.yml` beside `Pulumi.yaml`), case (`pulumi.dev.yaml`) or
/// separator (`Pulumi-dev.yaml`).
pub fn misnamed_stack_file(project_file: &str, file_name: &str) -> Option<String> {
    let is_project = PROJECT_FILE_NAMES
        .iter()
        .any(|n| n.eq_ignore_ascii_case(file_name));
    if is_project || stack_name(project_file, file_name).is_some() {
        return None;
    }
    let lower = file_name.to_ascii_lowercase();
    let separated = lower
        .strip_prefix("pulumi")?
        .strip_prefix(['.', '-', '_'])?;
    let extension = [".yaml", ".yml", ".json"]
        .into_iter()
        .find(|extension| separated.ends_with(extension))?;
    // ASCII lowercasing keeps offsets: the stack's name as written.
    let stack = file_name.get("pulumi.".len()..file_name.len() - extension.len())?;
    (!stack.is_empty()).then(|| stack_file_name(project_file, stack))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projects() {
        let text =
            "name: demo\nruntime:\n  name: pcl\n  options: {}\nmain: infra/\nconfig:\n  port: 80\n";
        let (project, diagnostics) = parse_project(FileId(0), Syntax::Yaml, text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let project = project.expect("valid");
        assert!(project.is_pcl());
        assert_eq!(project.main.as_deref(), Some("infra/"));
        assert_eq!(project.config_keys, ["port"]);
        let (project, diagnostics) = parse_project(FileId(0), Syntax::Yaml, "runtime: pcl\n");
        assert!(project.is_none());
        assert_eq!(diagnostics[0].code, codes::INVALID_PROJECT_FILE);
        let (project, diagnostics) = parse_project(FileId(0), Syntax::Yaml, "name: [demo\n");
        assert!(project.is_none());
        assert_eq!(diagnostics[0].code, codes::PROJECT_FILE_SYNTAX);
        let (project, _) = parse_project(
            FileId(0),
            Syntax::Json,
            "{\"name\": \"j\", \"runtime\": \"nodejs\"}",
        );
        assert!(project.is_some_and(|p| !p.is_pcl()));
        // `runtime: PCL` is reported, and the project read as PCL's.
        let (project, diagnostics) =
            parse_project(FileId(0), Syntax::Yaml, "name: d\nruntime: PCL\n");
        assert!(project.is_some_and(|p| p.is_pcl()));
        assert!(
            diagnostics[0].message.contains("lowercase"),
            "{diagnostics:?}"
        );
        // The deprecated `config: DIR` is `stackConfigDir`; both at once are refused.
        let (project, diagnostics) = parse_project(
            FileId(0),
            Syntax::Yaml,
            "name: d\nruntime: pcl\nconfig: ./.config/\n",
        );
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let project = project.expect("valid");
        assert_eq!(project.stack_config_dir.as_deref(), Some("./.config/"));
        let both = "name: d\nruntime: pcl\nconfig: cfg\nstackConfigDir: cfg\n";
        let (_, diagnostics) = parse_project(FileId(0), Syntax::Yaml, both);
        assert_eq!(diagnostics.len(), 1);
        assert!(diagnostics[0].message.contains("stackConfigDir"));
    }

    #[test]
    fn stacks() {
        let text =
            "environment:\n  - shared\nconfig:\n  demo:port: 80\n  demo:pw:\n    secure: AAA\n";
        let (stack, diagnostics) = parse_stack(FileId(1), Syntax::Yaml, text);
        assert!(diagnostics.is_empty());
        let stack = stack.expect("valid");
        assert!(stack.has_environment);
        assert_eq!(stack.config.len(), 2);
        assert!(stack.config[1].is_secure());
        assert_eq!(&text[stack.config[0].key_range], "demo:port");
        let (_, diagnostics) = parse_stack(FileId(1), Syntax::Yaml, "config: [1]\n");
        assert_eq!(diagnostics[0].code, codes::INVALID_STACK_FILE);
    }

    #[test]
    fn misnamed_stack_files() {
        let named = |file: &str| misnamed_stack_file("Pulumi.yaml", file);
        assert_eq!(named("Pulumi.dev.yml").as_deref(), Some("Pulumi.dev.yaml"));
        assert_eq!(
            named("pulumi.prod.yaml").as_deref(),
            Some("Pulumi.prod.yaml")
        );
        assert_eq!(
            named("Pulumi-staging.yaml").as_deref(),
            Some("Pulumi.staging.yaml")
        );
        assert_eq!(named("Pulumi.dev.json").as_deref(), Some("Pulumi.dev.yaml"));
        for read_or_other in [
            "Pulumi.dev.yaml",
            "Pulumi.yml",
            "pulumi.yaml",
            "README.md",
            "Pulumi.yaml.bak",
        ] {
            assert_eq!(named(read_or_other), None, "{read_or_other}");
        }
    }

    #[test]
    fn stack_file_names() {
        assert_eq!(stack_file_name("Pulumi.json", "dev"), "Pulumi.dev.json");
        assert_eq!(stack_file_name("Pulumi.yaml", "dev"), "Pulumi.dev.yaml");
        assert_eq!(stack_name("Pulumi.yaml", "Pulumi.prod.yaml"), Some("prod"));
        assert_eq!(stack_name("Pulumi.yaml", "Pulumi.prod.yml"), None);
        assert_eq!(stack_name("Pulumi.yaml", "Pulumi.yaml"), None);
    }
}
