//! A stack's config checked against the program's config blocks and the providers'
//! schema variables: key namespaces, unknown keys (with did-you-mean), values that cannot
//! convert, plaintext secrets, and required configs the stack does not set.

use std::collections::{HashMap, HashSet};

use pcl_diagnostics::{Anchor, Diagnostic, FileId, Severity, Span, TextRange, codes};
use pcl_types::CandidateNames;

use crate::files::{Project, Stack, StackEntry};
use crate::value::{ConfigType, Reader, check_value};

/// A `config` block of the program.
#[derive(Clone, Debug)]
pub struct ProgramConfig {
    /// The config's name in the program.
    pub name: String,
    /// `__logicalName` when set, else the name: the key's name in the stack file.
    pub logical_name: String,
    pub ty: ConfigType,
    /// No default and not nullable.
    pub required: bool,
    pub secret: bool,
    /// The config's label in the program (where a missing value is reported).
    pub label: Span,
}

/// A provider's configuration variables, from its schema.
#[derive(Clone, Debug)]
pub struct ProviderConfig {
    pub variables: Vec<(String, ConfigType)>,
}

/// What checking one stack found: diagnostics in the stack file, in the program's files
/// (required configs the stack does not set), and in the project file (configs it
/// declares without a value that the stack does not set).
#[derive(Clone, Debug, Default)]
pub struct StackCheck {
    pub in_stack: Vec<Diagnostic>,
    pub in_program: Vec<Diagnostic>,
    pub in_project: Vec<Diagnostic>,
}

/// A config key's namespace and name: `ns:name` or `ns:config:name`.
pub fn parse_key(key: &str) -> Option<(&str, &str)> {
    let parts: Vec<&str> = key.split(':').collect();
    match parts.as_slice() {
        [ns, name] if !ns.is_empty() && !name.is_empty() => Some((ns, name)),
        [ns, "config", name] if !ns.is_empty() && !name.is_empty() => Some((ns, name)),
        _ => None,
    }
}

/// A stack file's key as Pulumi reads it: `ns:name`, `ns:config:name`, or a bare `name`,
/// which is the project's (`project:name`; Pulumi's loader adds the namespace).
fn stack_key<'k>(project: &'k Project, key: &'k str) -> Option<(&'k str, &'k str)> {
    match key.contains(':') {
        true => parse_key(key),
        false => (!key.is_empty()).then_some((project.name.as_str(), key)),
    }
}

/// The namespaces other than the project's and `pulumi` that the project file's and the
/// stack's keys name, in order.
fn namespaces<'a>(project: &'a Project, stack: &'a Stack) -> impl Iterator<Item = &'a str> {
    let keys = (project.provider_values.iter()).chain(stack.config.iter());
    keys.filter_map(|entry| parse_key(&entry.key))
        .map(|(namespace, _)| namespace)
        .filter(|namespace| *namespace != project.name && *namespace != "pulumi")
}

/// The names of the project's configs that `Pulumi.yaml`'s own `config:` gives a value
/// (a `default` or `value`).
fn project_set(project: &Project) -> Vec<&str> {
    (project.declarations.iter())
        .filter(|declared| declared.has_value)
        .map(|declared| declared.name.as_str())
        .collect()
}

/// Check one stack file (`file`, shown as `stack_path`) of the project whose file is
/// `project_file`.
pub fn check_stack(
    project: (&Project, FileId),
    stack: &Stack,
    file: FileId,
    stack_path: &str,
    configs: &[ProgramConfig],
    provider: &dyn Fn(&str) -> Option<ProviderConfig>,
) -> StackCheck {
    let (project, project_file) = project;
    let mut out = StackCheck::default();
    let at = |range| Anchor::Span(Span { file, range });
    let mut set: HashSet<&str> = project_set(project).into_iter().collect();
    // The program's configs by logical name (the first of a name), the names to suggest
    // from (made at the first unknown key), and each provider asked once: a stack of
    // 22,000 keys against 20,000 configs took 2.3 s, comparing each key with each config.
    let mut by_name: HashMap<&str, &ProgramConfig> = HashMap::new();
    for config in configs {
        by_name
            .entry(config.logical_name.as_str())
            .or_insert(config);
    }
    let mut config_names: Option<CandidateNames> = None;
    let mut providers = Providers::new(provider);
    for entry in &stack.config {
        let Some((namespace, name)) = stack_key(project, &entry.key) else {
            let message = format!("`{}` is not a config key", entry.key);
            out.in_stack.push(
                Diagnostic::error(codes::INVALID_CONFIG_KEY, message, at(entry.key_range))
                    .with_note(format!(
                        "keys are `NAMESPACE:NAME`: `{}:{}` (or just `{1}`) for this program's config, `PROVIDER:NAME` for a provider's",
                        project.name,
                        entry.key.rsplit(':').next().unwrap_or_default()
                    )),
            );
            continue;
        };
        if namespace == "pulumi" {
            check_pulumi_setting(&mut out, name, entry, file);
            continue;
        }
        if namespace == project.name {
            set.insert(name);
            let declared = project.declarations.iter().find(|d| d.name == name);
            // A value of the wrong type is reported once, as the project file declares it.
            let mistyped = declared.is_some_and(|d| check_declared(&mut out, entry, d, file));
            // A secret the project file declares is reported once, above.
            let declared_secret = declared.is_some_and(|d| d.secret);
            match by_name.get(name) {
                // Declared by the project file: Pulumi knows it, whether or not the
                // program reads it.
                None if declared.is_some() => {}
                Some(_) if mistyped => {}
                Some(config) => check_entry(
                    &mut out,
                    entry,
                    &config.ty,
                    (Reader::Program, config.secret && !declared_secret),
                    file,
                ),
                None => {
                    let names = config_names.get_or_insert_with(|| {
                        CandidateNames::new(configs.iter().map(|c| c.logical_name.as_str().into()))
                    });
                    let suggestion = names.closest(name, None);
                    let mut d = Diagnostic::warning(
                        codes::UNKNOWN_CONFIG_KEY,
                        format!("the program has no config `{name}`"),
                        at(entry.key_range),
                    )
                    .with_note("Pulumi passes it, but no `config` block reads it");
                    let bare = !entry.key.contains(':');
                    if let Some(s) = suggestion {
                        let key = if bare {
                            s.to_string()
                        } else {
                            format!("{namespace}:{s}")
                        };
                        d = d.with_note(format!("did you mean `{key}`?"));
                    } else if bare
                        && let Some(provider) = providers.having(name, namespaces(project, stack))
                    {
                        d = d.with_note(format!(
                            "a key without a namespace is the project's: for the `{provider}` provider's setting, write `{provider}:{name}`"
                        ));
                    }
                    out.in_stack.push(d);
                }
            }
            continue;
        }
        providers.check(&mut out, namespace, name, entry, file);
    }
    providers.misspelt_namespaces(&mut out, &project.name, file);
    // Keys of namespaces that are neither the project's nor a provider's (`rnd:prefix`
    // after the project `rnd` was renamed), by name, made at the first required config
    // the stack does not set.
    let mut foreign: Option<HashMap<&str, &str>> = None;
    for config in configs.iter().filter(|c| c.required) {
        if set.contains(config.logical_name.as_str()) {
            continue;
        }
        let foreign = foreign.get_or_insert_with(|| {
            let mut known: HashMap<&str, bool> = HashMap::new();
            (stack.config.iter())
                .filter_map(|entry| {
                    let (namespace, name) = parse_key(&entry.key)?;
                    let unknown = namespace != project.name
                        && namespace != "pulumi"
                        && *known
                            .entry(namespace)
                            .or_insert_with(|| provider(namespace).is_none());
                    unknown.then_some((name, entry.key.as_str()))
                })
                .collect()
        });
        let key = format!("{}:{}", project.name, config.logical_name);
        let message = format!(
            "the required config `{}` is not set in `{stack_path}`",
            config.logical_name
        );
        let mut d = Diagnostic::error(
            codes::MISSING_CONFIG_VALUE,
            message,
            Anchor::Span(config.label),
        );
        if let Some(written) = foreign.get(config.logical_name.as_str()) {
            d = d.with_note(format!(
                "`{stack_path}` sets `{written}`, whose namespace is no provider's: the project is named `{}`, so its config is `{key}` (was the project renamed?)",
                project.name
            ));
        }
        if let Some(note) = stray_note(stack, &key, stack_path) {
            d = d.with_note(note);
        } else if stack.has_environment {
            d.severity = Severity::Note;
            d = d.with_note("the stack imports environments, which may set it");
        } else {
            d = d.with_note(format!(
                "Pulumi stops with \"missing required configuration value\": add `{key}` to `{stack_path}`, or give the config a default"
            ));
        }
        out.in_program.push(d);
    }
    // The project file's declarations without a value, which no program config (reported
    // above) stands for.
    for declared in &project.declarations {
        let by_program = by_name
            .get(declared.name.as_str())
            .is_some_and(|c| c.required);
        if declared.has_value || set.contains(declared.name.as_str()) || by_program {
            continue;
        }
        let key = format!("{}:{}", project.name, declared.name);
        let mut d = Diagnostic::error(
            codes::MISSING_CONFIG_VALUE,
            format!(
                "the config `{}`, which the project file declares without a value, is not set in `{stack_path}`",
                declared.name
            ),
            Anchor::Span(Span {
                file: project_file,
                range: declared.key_range,
            }),
        );
        if let Some(note) = stray_note(stack, &key, stack_path) {
            d = d.with_note(note);
        } else if stack.has_environment {
            d.severity = Severity::Note;
            d = d.with_note("the stack imports environments, which may set it");
        } else {
            d = d.with_note(format!(
                "Pulumi stops with \"Stack is missing configuration value\": add `{key}` to `{stack_path}`, or give the declaration a `default`"
            ));
        }
        out.in_project.push(d);
    }
    out
}

/// When the stack sets config `key` (with its namespace) at the top level, where Pulumi
/// ignores it: what to do instead of adding it.
fn stray_note(stack: &Stack, key: &str, stack_path: &str) -> Option<String> {
    let stray = (stack.stray_keys.iter()).find(|stray| *stray == key)?;
    Some(format!(
        "`{stack_path}` has `{stray}` at the top level, where Pulumi ignores it: indent it under `config:`"
    ))
}

/// Pulumi's own settings (`pulumi:tags`, `pulumi:disable-default-providers`): of the shape
/// the engine reads (it stops the update otherwise), and no misspelt key, which it would
/// ignore.
fn check_pulumi_setting(out: &mut StackCheck, name: &str, entry: &StackEntry, file: FileId) {
    use serde_json::Value;
    const SETTINGS: [&str; 4] = [
        "tags",
        "disable-default-providers",
        "autonaming",
        "template",
    ];
    let at = |range| Anchor::Span(Span { file, range });
    // A list or map written as YAML, or as a JSON string.
    let value = match &entry.value.kind {
        crate::yaml::NodeKind::Scalar { text, plain } => {
            let json = (!plain)
                .then(|| serde_json::from_str::<Value>(text).ok())
                .flatten();
            json.unwrap_or_else(|| Value::String(text.clone()))
        }
        _ => crate::value::to_json(&entry.value).unwrap_or(Value::Null),
    };
    let problem = match name {
        "tags" => match &value {
            Value::Object(tags) => (tags.iter())
                .find(|(_, v)| !v.is_string())
                .map(|(tag, _)| format!("`pulumi:tags` must map names to strings: `{tag}` is not a string (quote it)")),
            _ => Some("`pulumi:tags` must be a map of tag names to strings".to_owned()),
        },
        "disable-default-providers" => match &value {
            Value::Array(packages) if packages.iter().all(Value::is_string) => None,
            _ => Some(
                "`pulumi:disable-default-providers` must be a list of package names (`[\"*\"]` for all)".to_owned(),
            ),
        },
        _ if SETTINGS.contains(&name) => None,
        _ => {
            let mut d = Diagnostic::warning(
                codes::UNKNOWN_CONFIG_KEY,
                format!("Pulumi has no setting `pulumi:{name}`: it is ignored"),
                at(entry.key_range),
            );
            if let Some(close) = pcl_types::closest_name(name, SETTINGS) {
                d = d.with_note(format!("did you mean `pulumi:{close}`?"));
            }
            out.in_stack.push(d);
            None
        }
    };
    if let Some(problem) = problem {
        out.in_stack.push(
            Diagnostic::error(codes::INVALID_CONFIG_VALUE, problem, at(entry.value.range))
                .with_note("Pulumi stops the update"),
        );
    }
}

/// A stack's value of a config the project file declares: encrypted if the declaration
/// says `secret: true`, of its type if it has one (Pulumi stops the update otherwise).
/// Whether the value is not of the declared type.
fn check_declared(
    out: &mut StackCheck,
    entry: &StackEntry,
    declared: &crate::declared::ConfigDeclaration,
    file: FileId,
) -> bool {
    let at = Anchor::Span(Span {
        file,
        range: entry.value.range,
    });
    if entry.is_secure() {
        return false;
    }
    if declared.secret {
        out.in_stack.push(
            Diagnostic::error(
                codes::PLAINTEXT_SECRET,
                format!(
                    "`{}` must be encrypted: the project file declares it `secret: true`",
                    entry.key
                ),
                at.clone(),
            )
            .with_note(format!(
                "Pulumi stops the update; encrypt it: `pulumi config set --secret {} VALUE`",
                entry.key
            )),
        );
    }
    // A secret inside the value is checked by Pulumi once decrypted.
    let Some(ty) = declared
        .ty
        .as_ref()
        .filter(|_| !crate::value::holds_ciphertext(&entry.value))
    else {
        return false;
    };
    // A stack's scalar reaches Pulumi as text; a list or map as JSON.
    let value = match &entry.value.kind {
        crate::yaml::NodeKind::Scalar { .. } => Some(serde_json::Value::String(
            crate::value::raw_value(&entry.value),
        )),
        _ => crate::value::to_json(&entry.value),
    };
    let mistyped = value.is_some_and(|value| !ty.accepts(&value));
    if mistyped {
        out.in_stack.push(
            Diagnostic::error(
                codes::INVALID_CONFIG_VALUE,
                format!(
                    "`{}` must be of type {}, as the project file declares it",
                    entry.key,
                    ty.name()
                ),
                at,
            )
            .with_note("Pulumi stops the update with \"must be of type\""),
        );
    }
    mistyped
}

/// The values the project file gives its own configs (a `default`, a `value`, or a value
/// written alone), which every stack that does not set them gets, checked against the
/// program's config types as a stack's value is (at the value, in the project file).
pub fn check_project_values(
    project: &Project,
    file: FileId,
    configs: &[ProgramConfig],
) -> Vec<Diagnostic> {
    let mut out = StackCheck::default();
    for declared in &project.declarations {
        let Some(value) = &declared.value else {
            continue;
        };
        let Some(config) = configs.iter().find(|c| c.logical_name == declared.name) else {
            continue;
        };
        // A value not of the declared type is reported once, as the project file's.
        let declared_type = declared.ty.as_ref();
        let json = crate::value::to_json(value);
        if declared_type
            .zip(json)
            .is_some_and(|(ty, json)| !ty.accepts(&json))
        {
            continue;
        }
        let entry = StackEntry {
            key: format!("{}:{}", project.name, declared.name),
            key_range: declared.key_range,
            value: value.clone(),
        };
        check_entry(&mut out, &entry, &config.ty, (Reader::Program, false), file);
    }
    out.in_stack
}

/// Check the providers' settings of a project file's `config:` (`file`) against their
/// schemas' configuration variables, as a stack's.
pub fn check_project(
    project: &Project,
    file: FileId,
    provider: &dyn Fn(&str) -> Option<ProviderConfig>,
) -> Vec<Diagnostic> {
    let mut out = StackCheck::default();
    let mut providers = Providers::new(provider);
    for entry in &project.provider_values {
        if let Some((namespace, name)) = parse_key(&entry.key)
            && namespace != "pulumi"
        {
            providers.check(&mut out, namespace, name, entry, file);
        }
    }
    providers.misspelt_namespaces(&mut out, &project.name, file);
    out.in_stack
}

/// The providers' configuration variables, each asked for once, and the keys whose
/// namespace has no schema.
struct Providers<'a> {
    lookup: &'a dyn Fn(&str) -> Option<ProviderConfig>,
    found: HashMap<String, Option<ProviderConfig>>,
    unknown: Vec<(String, String, TextRange)>,
}

impl<'a> Providers<'a> {
    fn new(lookup: &'a dyn Fn(&str) -> Option<ProviderConfig>) -> Self {
        Providers {
            lookup,
            found: HashMap::new(),
            unknown: Vec::new(),
        }
    }

    /// A warning for each key whose namespace has no schema but is close to a namespace
    /// that is known (the project's, `pulumi`, a provider's of this file): a misspelt
    /// namespace, which no provider reads (`kuberentes:context` beside
    /// `kubernetes:namespace`). Other unknown namespaces may be providers without a schema.
    fn misspelt_namespaces(&self, out: &mut StackCheck, project: &str, file: FileId) {
        let known: Vec<&str> = (self.found.iter())
            .filter(|(_, found)| found.is_some())
            .map(|(namespace, _)| namespace.as_str())
            .chain([project, "pulumi"])
            .collect();
        for (namespace, name, range) in &self.unknown {
            // A misspelling, not another name that starts alike (`pulumiservice`, `awsx`
            // beside `pulumi` and `aws`); a doubled letter (`pulumii`) is a typo.
            let misspelt = |candidate: &&str| {
                let (short, long) = match candidate.len() < namespace.len() {
                    true => (*candidate, namespace.as_str()),
                    false => (namespace.as_str(), *candidate),
                };
                let extension = long.strip_prefix(short);
                let doubled = extension.is_some_and(|rest| {
                    let last = short.chars().last();
                    !rest.is_empty() && rest.chars().all(|c| Some(c) == last)
                });
                (extension.is_none() || doubled) && long.len() - short.len() <= 2
            };
            let candidates = known.iter().copied().filter(misspelt);
            let Some(close) = pcl_types::closest_name(namespace, candidates) else {
                continue;
            };
            out.in_stack.push(
                Diagnostic::warning(
                    codes::UNKNOWN_CONFIG_KEY,
                    format!(
                        "`{namespace}` is no provider with a schema, and the project is `{project}`: `{namespace}:{name}` may be read by no one"
                    ),
                    Anchor::Span(Span {
                        file,
                        range: *range,
                    }),
                )
                .with_note(format!("did you mean `{close}:{name}`?")),
            );
        }
    }

    /// The first of `namespaces` whose provider has a configuration variable `name`.
    fn having<'n>(
        &mut self,
        name: &str,
        namespaces: impl Iterator<Item = &'n str>,
    ) -> Option<&'n str> {
        let lookup = self.lookup;
        namespaces.into_iter().find(|namespace| {
            let found = (self.found)
                .entry((*namespace).to_owned())
                .or_insert_with(|| lookup(namespace));
            found
                .as_ref()
                .is_some_and(|p| p.variables.iter().any(|(n, _)| n == name))
        })
    }

    /// Check `entry`, the setting `name` of provider `namespace`: an unknown variable (with
    /// did-you-mean), a value that does not fit. Nothing when no schema of it is loaded.
    fn check(
        &mut self,
        out: &mut StackCheck,
        namespace: &str,
        name: &str,
        entry: &StackEntry,
        file: FileId,
    ) {
        let lookup = self.lookup;
        let found = (self.found)
            .entry(namespace.to_owned())
            .or_insert_with(|| lookup(namespace));
        let Some(provider) = found else {
            let unknown = (namespace.to_owned(), name.to_owned(), entry.key_range);
            self.unknown.push(unknown);
            return;
        };
        match provider.variables.iter().find(|(n, _)| n == name) {
            Some((_, ty)) => check_entry(out, entry, ty, (Reader::Provider, false), file),
            None => {
                let names = provider.variables.iter().map(|(n, _)| n.as_str());
                let suggestion = pcl_types::closest_name(name, names);
                let mut d = Diagnostic::warning(
                    codes::UNKNOWN_CONFIG_KEY,
                    format!("the `{namespace}` provider has no configuration variable `{name}`"),
                    Anchor::Span(Span {
                        file,
                        range: entry.key_range,
                    }),
                );
                if let Some(s) = suggestion {
                    d = d.with_note(format!("did you mean `{namespace}:{s}`?"));
                }
                out.in_stack.push(d);
            }
        }
    }
}

/// A stack's value of a program config (`Reader::Program`, `secret` when it is one) or of
/// a provider's variable.
fn check_entry(
    out: &mut StackCheck,
    entry: &StackEntry,
    ty: &ConfigType,
    (reader, secret): (Reader, bool),
    file: FileId,
) {
    if entry.is_secure() {
        return;
    }
    let problems = check_value(&entry.value, ty, reader);
    // A value that is none: the empty string for now, which the config's type may refuse
    // (then that error says it).
    if entry.value.is_null() && problems.is_empty() {
        out.in_stack.push(
            Diagnostic::warning(
                codes::INVALID_CONFIG_VALUE,
                format!(
                    "`{}` has no value: Pulumi reads it as the empty string `\"\"`, and warns that a later version reads `null`",
                    entry.key
                ),
                Anchor::Span(Span {
                    file,
                    range: entry.key_range,
                }),
            )
            .with_note("write the value, or `\"\"` for the empty string"),
        );
    }
    if let Some((why, range)) = crate::value::misshapen_secure(&entry.value) {
        out.in_stack.push(
            Diagnostic::warning(
                codes::PLAINTEXT_SECRET,
                format!(
                    "the value of `{}` is not an encrypted value: {why}",
                    entry.key
                ),
                Anchor::Span(Span { file, range }),
            )
            .with_note(format!(
                "Pulumi reads it as an ordinary object: the config gets the text `{}`",
                crate::value::raw_value(&entry.value)
            ))
            .with_note(format!(
                "set a secret with `pulumi config set --secret {} VALUE`",
                entry.key
            )),
        );
    } else if secret {
        out.in_stack.push(
            Diagnostic::warning(
                codes::PLAINTEXT_SECRET,
                format!(
                    "`{}` is a secret config, but its value is in plain text",
                    entry.key
                ),
                Anchor::Span(Span {
                    file,
                    range: entry.value.range,
                }),
            )
            .with_note(format!(
                "encrypt it: `pulumi config set --secret {} VALUE`",
                entry.key
            )),
        );
    }
    for problem in problems {
        // A value that is none is shown at its key (its range is where the next line
        // starts).
        let range = match entry.value.is_null() {
            true => entry.key_range,
            false => problem.range,
        };
        let mut d = Diagnostic::error(
            problem.code,
            format!("`{}`: {}", entry.key, problem.message),
            Anchor::Span(Span { file, range }),
        );
        d.severity = problem.severity;
        if let Some(note) = problem.note {
            d = d.with_note(note);
        }
        out.in_stack.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::{Syntax, parse_project, parse_stack};
    use pcl_diagnostics::{TextRange, TextSize};

    fn config(name: &str, ty: ConfigType, required: bool, secret: bool) -> ProgramConfig {
        ProgramConfig {
            name: name.to_owned(),
            logical_name: name.to_owned(),
            ty,
            required,
            secret,
            label: Span {
                file: FileId(0),
                range: TextRange::new(TextSize::from(0), TextSize::from(1)),
            },
        }
    }

    /// `stack` checked as `Pulumi.dev.yaml`, the second file.
    /// The stack file `text`, which must parse (as `FileId(2)`).
    fn stack_of(text: &str) -> Stack {
        parse_stack(FileId(2), Syntax::Yaml, text)
            .0
            .expect("a stack")
    }

    fn check_dev(
        project: &Project,
        stack: &Stack,
        configs: &[ProgramConfig],
        provider: &dyn Fn(&str) -> Option<ProviderConfig>,
    ) -> StackCheck {
        check_stack(
            (project, FileId(1)),
            stack,
            FileId(2),
            "Pulumi.dev.yaml",
            configs,
            provider,
        )
    }

    fn run(project: &str, stack: &str) -> Vec<String> {
        let (project, _) = parse_project(FileId(1), Syntax::Yaml, project);
        let project = project.expect("a project");
        let (stack, _) = parse_stack(FileId(2), Syntax::Yaml, stack);
        let stack = stack.expect("a stack");
        let configs = [
            config("port", ConfigType::Int, true, false),
            config("password", ConfigType::String, false, true),
            config("region", ConfigType::String, true, false),
        ];
        let provider = |ns: &str| {
            (ns == "aws").then(|| ProviderConfig {
                variables: vec![
                    ("region".to_owned(), ConfigType::String),
                    ("maxRetries".to_owned(), ConfigType::Int),
                ],
            })
        };
        let check = check_dev(&project, &stack, &configs, &provider);
        (check.in_stack.iter().chain(&check.in_program))
            .map(|d| format!("{} {} {}", d.severity.as_str(), d.code, d.message))
            .collect()
    }

    /// A stack of 22,000 keys against 20,000 configs: each key was compared with every
    /// config (and each unknown one again for a suggestion), 2 s in a release build.
    #[test]
    fn a_stack_of_22000_keys_against_20000_configs() {
        let n = 20_000;
        let (project, _) = parse_project(FileId(1), Syntax::Yaml, "name: big\nruntime: pcl\n");
        let project = project.expect("a project");
        let mut text = String::from("config:\n");
        for i in 0..n {
            text.push_str(&format!("  big:setting{i}: {i}\n"));
        }
        for i in 0..2_000 {
            text.push_str(&format!("  big:settnig{i}: {i}\n"));
        }
        let (stack, _) = parse_stack(FileId(2), Syntax::Yaml, &text);
        let stack = stack.expect("a stack");
        let configs: Vec<ProgramConfig> = (0..n)
            .map(|i| config(&format!("setting{i}"), ConfigType::Int, true, false))
            .collect();
        let check = check_dev(&project, &stack, &configs, &|_| None);
        assert!(check.in_program.is_empty());
        assert_eq!(check.in_stack.len(), 2_000);
        let last = &check.in_stack[1_999];
        assert_eq!(last.message, "the program has no config `settnig1999`");
        assert!(
            last.notes
                .iter()
                .any(|n| n == "did you mean `big:setting1999`?"),
            "{last:?}"
        );
    }

    /// A project file's settings of providers are checked as a stack's; its own configs'
    /// declarations are not settings.
    #[test]
    fn a_project_files_provider_settings() {
        let text = "name: demo\nruntime: pcl\nconfig:\n  port: 80\n  demo:zone: a\n  aws:regin: x\n  aws:maxRetries:\n    value: lots\n  aws:profile:\n    type: string\n";
        let (project, diagnostics) = parse_project(FileId(1), Syntax::Yaml, text);
        let project = project.expect("a project");
        let aws = |package: &str| {
            (package == "aws").then(|| ProviderConfig {
                variables: vec![
                    ("region".to_owned(), ConfigType::String),
                    ("maxRetries".to_owned(), ConfigType::Int),
                    ("profile".to_owned(), ConfigType::String),
                ],
            })
        };
        let found: Vec<String> = (diagnostics.iter())
            .chain(&check_project(&project, FileId(1), &aws))
            .map(|d| format!("{} {} {}", d.severity.as_str(), d.code, d.message))
            .collect();
        expect_test::expect![[r#"
            [
                "error PCL5002 `aws:profile` is another namespace's setting, so it takes no `type`",
                "warning PCL5006 the `aws` provider has no configuration variable `regin`",
                "error PCL5007 `aws:maxRetries`: `lots` is not an int",
            ]
        "#]]
        .assert_debug_eq(&found);
    }

    /// A project renamed from `old`: its stack still sets `old:port`.
    #[test]
    fn a_required_config_set_under_an_old_project_name() {
        let (project, _) = parse_project(FileId(1), Syntax::Yaml, "name: demo\nruntime: pcl\n");
        let project = project.expect("a project");
        let stack = stack_of("config:\n  old:port: 80\n  aws:port: 1\n");
        let configs = [config("port", ConfigType::Int, true, false)];
        let aws = |ns: &str| (ns == "aws").then(|| ProviderConfig { variables: vec![] });
        let check = check_dev(&project, &stack, &configs, &aws);
        let notes: Vec<&str> = (check.in_program.iter())
            .flat_map(|d| d.notes.iter().map(String::as_str))
            .collect();
        assert_eq!(
            notes.first().copied(),
            Some(
                "`Pulumi.dev.yaml` sets `old:port`, whose namespace is no provider's: the project is named `demo`, so its config is `demo:port` (was the project renamed?)"
            ),
            "{notes:?}"
        );
    }

    /// Pulumi reads a key without a namespace as the project's (`demo:port`).
    #[test]
    fn a_key_without_a_namespace_is_the_projects() {
        let (project, _) = parse_project(FileId(1), Syntax::Yaml, "name: demo\nruntime: pcl\n");
        let project = project.expect("a project");
        let stack =
            stack_of("config:\n  port: eighty\n  region: eu\n  aws:profile: p\n  zone: a\n");
        let configs = [
            config("port", ConfigType::Int, true, false),
            config("zones", ConfigType::String, false, false),
        ];
        let aws = |ns: &str| {
            (ns == "aws").then(|| ProviderConfig {
                variables: vec![
                    ("region".to_owned(), ConfigType::String),
                    ("profile".to_owned(), ConfigType::String),
                ],
            })
        };
        let checked = check_dev(&project, &stack, &configs, &aws);
        let found: Vec<String> = (checked.in_stack.iter().chain(&checked.in_program))
            .map(|d| {
                format!(
                    "{} {} {} {:?}",
                    d.severity.as_str(),
                    d.code,
                    d.message,
                    d.notes
                )
            })
            .collect();
        expect_test::expect![[r#"
            [
                "error PCL5007 `port`: `eighty` is not an int [\"Pulumi parses numbers as Go's `strconv.ParseFloat` does\"]",
                "warning PCL5006 the program has no config `region` [\"Pulumi passes it, but no `config` block reads it\", \"a key without a namespace is the project's: for the `aws` provider's setting, write `aws:region`\"]",
                "warning PCL5006 the program has no config `zone` [\"Pulumi passes it, but no `config` block reads it\", \"did you mean `zones`?\"]",
            ]
        "#]]
        .assert_debug_eq(&found);
    }

    /// The project file's own declarations: validated as Pulumi loads a project, and the
    /// stacks checked against them.
    #[test]
    fn a_project_files_declarations() {
        let text = "name: demo\nruntime: pcl\nconfig:\n  owner:\n    type: string\n  key:\n    type: string\n    secret: true\n  count:\n    type: integer\n  zones:\n    type: array\n    items:\n      type: string\n  tier:\n    type: number\n  size:\n    default: small\n    value: large\n  region:\n    defualt: eu\n  replicas:\n    type: integer\n    default: two\n  list:\n    type: array\n  flag: true\n";
        let (project, diagnostics) = parse_project(FileId(1), Syntax::Yaml, text);
        let project = project.expect("a project");
        let problems: Vec<String> = (diagnostics.iter())
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        expect_test::expect![[r#"
            [
                "PCL5002 `number` is not a config type",
                "PCL5002 config `size` has both a `default` and a `value`",
                "PCL5002 `defualt` is not a field of the declaration of config `region`",
                "PCL5002 the default of config `replicas` is not of its type, integer",
                "PCL5002 config `list` is an array, but does not say the type of its elements",
            ]
        "#]]
        .assert_debug_eq(&problems);
        let stack = stack_of(
            "config:\n  key: plain\n  demo:count: three\n  zones: [a, 1]\n  tier: 1\n  demo:config:flag: x\n",
        );
        let checked = check_dev(&project, &stack, &[], &|_| None);
        let found: Vec<String> = (checked.in_stack.iter().chain(&checked.in_project))
            .map(|d| {
                format!(
                    "{} {} {} in {:?}",
                    d.severity.as_str(),
                    d.code,
                    d.message,
                    d.span().map(|s| s.file)
                )
            })
            .collect();
        expect_test::expect![[r#"
            [
                "error PCL5009 `key` must be encrypted: the project file declares it `secret: true` in Some(FileId(2))",
                "error PCL5007 `demo:count` must be of type integer, as the project file declares it in Some(FileId(2))",
                "error PCL5007 `zones` must be of type array<string>, as the project file declares it in Some(FileId(2))",
                "error PCL5008 the config `owner`, which the project file declares without a value, is not set in `Pulumi.dev.yaml` in Some(FileId(1))",
                "error PCL5008 the config `region`, which the project file declares without a value, is not set in `Pulumi.dev.yaml` in Some(FileId(1))",
                "error PCL5008 the config `list`, which the project file declares without a value, is not set in `Pulumi.dev.yaml` in Some(FileId(1))",
            ]
        "#]]
        .assert_debug_eq(&found);
    }

    /// The project file's values of the program's configs, as a stack's.
    #[test]
    fn a_project_files_values_of_the_programs_configs() {
        let text = "name: demo\nruntime: pcl\nconfig:\n  port: three\n  debug:\n    default: sometimes\n  region: eu\n";
        let (project, _) = parse_project(FileId(1), Syntax::Yaml, text);
        let project = project.expect("a project");
        let configs = [
            config("port", ConfigType::Int, true, false),
            config("debug", ConfigType::Bool, false, false),
            config("region", ConfigType::String, true, false),
        ];
        let found: Vec<String> = (check_project_values(&project, FileId(1), &configs).iter())
            .map(|d| format!("{} {} {}", d.severity.as_str(), d.code, d.message))
            .collect();
        expect_test::expect![[r#"
            [
                "error PCL5007 `demo:port`: `three` is not an int",
                "error PCL5007 `demo:debug`: `sometimes` is not a bool",
            ]
        "#]]
        .assert_debug_eq(&found);
    }

    /// A secret inside a typed value is Pulumi's to check once decrypted.
    #[test]
    fn a_declared_array_of_secrets() {
        let text = "name: demo\nruntime: pcl\nconfig:\n  keys:\n    type: array\n    items:\n      type: string\n";
        let (project, _) = parse_project(FileId(1), Syntax::Yaml, text);
        let project = project.expect("a project");
        let stack = stack_of("config:\n  demo:keys: [{secure: v1:AAAA}, plain]\n");
        let checked = check_dev(&project, &stack, &[], &|_| None);
        assert!(checked.in_stack.is_empty(), "{:?}", checked.in_stack);
    }

    /// Pulumi's own settings, as its engine reads them.
    #[test]
    fn pulumi_settings() {
        let found = run(
            "name: demo\nruntime: pcl\n",
            "config:\n  pulumi:tags:\n    team: web\n    cost: 1234\n  pulumi:disable-default-providers: \"*\"\n  pulumi:tag: {a: b}\n  demo:port: 1\n  demo:region: r\n",
        );
        expect_test::expect![[r#"
            [
                "error PCL5007 `pulumi:tags` must map names to strings: `cost` is not a string (quote it)",
                "error PCL5007 `pulumi:disable-default-providers` must be a list of package names (`[\"*\"]` for all)",
                "warning PCL5006 Pulumi has no setting `pulumi:tag`: it is ignored",
            ]
        "#]]
        .assert_debug_eq(&found);
        let fine = run(
            "name: demo\nruntime: pcl\n",
            "config:\n  pulumi:tags: {team: web}\n  pulumi:disable-default-providers: ['*']\n  demo:port: 1\n  demo:region: r\n",
        );
        assert!(fine.is_empty(), "{fine:?}");
    }

    #[test]
    fn keys_values_and_missing_configs() {
        let project = "name: demo\nruntime: pcl\nconfig:\n  region: us\n";
        let found = run(
            project,
            "config:\n  port: 80\n  a:b:c: 1\n  demo:config:port: 80\n  demo:prot: 1\n  aws:regin: x\n  aws:maxRetries: lots\n  pulumi:tags: {a: b}\n  demo:password: hunter2\n  other:x: 1\n",
        );
        expect_test::expect![[r#"
            [
                "error PCL5005 `a:b:c` is not a config key",
                "warning PCL5006 the program has no config `prot`",
                "warning PCL5006 the `aws` provider has no configuration variable `regin`",
                "error PCL5007 `aws:maxRetries`: `lots` is not an int",
                "warning PCL5009 `demo:password` is a secret config, but its value is in plain text",
            ]
        "#]]
        .assert_debug_eq(&found);
        let found = run(
            "name: demo\nruntime: pcl\n",
            "config:\n  demo:password:\n    secure: AAA\n",
        );
        expect_test::expect![[r#"
            [
                "error PCL5008 the required config `port` is not set in `Pulumi.dev.yaml`",
                "error PCL5008 the required config `region` is not set in `Pulumi.dev.yaml`",
            ]
        "#]]
        .assert_debug_eq(&found);
        let found = run(
            "name: demo\nruntime: pcl\n",
            "environment: [shared]\nconfig:\n  demo:port: 1\n",
        );
        expect_test::expect![[r#"
            [
                "note PCL5008 the required config `region` is not set in `Pulumi.dev.yaml`",
            ]
        "#]]
        .assert_debug_eq(&found);
    }

    /// A namespace with no schema one edit from a known one is a misspelling; one that
    /// only starts alike (`pulumiservice`, `awsx` beside `aws`) is another provider.
    #[test]
    fn misspelt_namespaces_are_not_other_providers() {
        let (project, _) = parse_project(FileId(1), Syntax::Yaml, "name: demo\nruntime: pcl\n");
        let project = project.expect("a project");
        let stack = stack_of(
            "config:\n  aws:region: r\n  asw:region: r\n  awsx:x: 1\n  pulumiservice:accessToken: t\n  pulumii:tags: {}\n",
        );
        let aws = |package: &str| {
            (package == "aws").then(|| ProviderConfig {
                variables: vec![("region".to_owned(), ConfigType::String)],
            })
        };
        let found: Vec<String> = (check_dev(&project, &stack, &[], &aws).in_stack.iter())
            .map(|d| d.message.clone())
            .collect();
        expect_test::expect![[r#"
            [
                "`asw` is no provider with a schema, and the project is `demo`: `asw:region` may be read by no one",
                "`pulumii` is no provider with a schema, and the project is `demo`: `pulumii:tags` may be read by no one",
            ]
        "#]]
        .assert_debug_eq(&found);
    }
}
