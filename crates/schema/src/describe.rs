//! What `pcl schema` prints: a package's contents with counts, or one token's types in
//! type display syntax with each property marked required or optional. Both are built as
//! data ([`PackageListing`], [`ItemDescription`]) that renders as text or serializes as
//! the JSON `pcl schema --format json` prints.

use std::collections::BTreeMap;
use std::fmt::Write;

use pcl_types::{Ty, TyKind, displayed_input, readable, strip_input};
use serde::Serialize;
use smol_str::SmolStr;

use crate::index::PackageIndex;
use crate::lower::{
    Property, config_types, function_types, named_object, resource_types, type_definition,
};
use crate::spec::TypeSpec;
use crate::{
    ItemKind, ItemSpec, PackageSource, SchemaError, SchemaItem, TypeDefinition, canonical,
    decode_item, package_index,
};

/// A package's name, version, file, and its resources, functions, types and configuration.
#[derive(Serialize, Debug)]
pub struct PackageListing {
    pub package: SmolStr,
    pub version: Option<SmolStr>,
    pub file: SmolStr,
    /// Whether the schema declares a provider (else the default one, with no configuration).
    pub provider: bool,
    pub resources: Vec<SmolStr>,
    pub functions: Vec<SmolStr>,
    pub types: Vec<SmolStr>,
    pub config: Vec<ConfigVariable>,
}

#[derive(Serialize, Debug)]
pub struct ConfigVariable {
    pub name: SmolStr,
    pub required: bool,
}

/// One item's types, in display syntax.
#[derive(Serialize, Debug)]
pub struct ItemDescription {
    /// `resource`, `component resource`, `provider`, `function`, `configuration`,
    /// `object type` or `enum type`.
    pub kind: &'static str,
    pub token: SmolStr,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The type itself, for object and enum types.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    /// A function's inputs in positional order (`multiArgumentInputs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub positional_arguments: Vec<SmolStr>,
    /// Property lists: `inputs`, `state inputs (read)`, `outputs`, `arguments`,
    /// `variables`, `properties`, `properties in input shape`.
    pub sections: Vec<PropertySection>,
    /// A function's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<FunctionResult>,
    /// A resource's methods and the functions that implement them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<Method>,
}

#[derive(Serialize, Debug)]
pub struct PropertySection {
    pub title: &'static str,
    pub properties: Vec<PropertyDescription>,
    /// Whether the properties are inputs, which take outputs of their types too.
    #[serde(skip)]
    pub inputs: bool,
}

#[derive(Serialize, Debug)]
pub struct PropertyDescription {
    pub name: SmolStr,
    #[serde(rename = "type")]
    pub ty: String,
    pub required: bool,
    /// The type as a person reads it (text only): without the `none` of an optional
    /// property and, for an input, the outputs it takes at every level (`int`, not
    /// `union(int, output(int), none)`); `None` when that is `ty`.
    #[serde(skip)]
    pub shown: Option<String>,
    /// An input that takes no output (the schema's `plain`; text only).
    #[serde(skip)]
    pub plain_input: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// For a `oneOf` with a discriminator: the member type for each value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discriminator: Option<DiscriminatorDescription>,
}

#[derive(Serialize, Debug)]
pub struct DiscriminatorDescription {
    pub property: SmolStr,
    pub members: BTreeMap<SmolStr, String>,
    /// Whether it picks the member of each element of a list (absent when not).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub of_elements: bool,
}

#[derive(Serialize, Debug)]
pub struct FunctionResult {
    #[serde(rename = "type")]
    pub ty: String,
    /// Whether the schema declares a return type (else the result is `object({})`).
    pub declared: bool,
    pub plain: bool,
}

#[derive(Serialize, Debug)]
pub struct Method {
    pub name: SmolStr,
    pub function: SmolStr,
}

/// The package's listing.
pub fn package_listing(
    db: &dyn pcl_types::Db,
    source: PackageSource,
) -> Result<PackageListing, SchemaError> {
    let index = package_index(db, source).as_ref().map_err(Clone::clone)?;
    let config = SchemaItem::new(db, source, ItemKind::Config, SmolStr::default());
    let config = match config_types(db, config) {
        Ok(config) => (config.variables.iter())
            .map(|variable| ConfigVariable {
                name: SmolStr::new(&*variable.name),
                required: variable.required,
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    Ok(PackageListing {
        package: index.name.clone(),
        version: index.version.clone(),
        file: source.file(db).clone(),
        provider: index.provider.is_some(),
        resources: index.resources.tokens().cloned().collect(),
        functions: index.functions.tokens().cloned().collect(),
        types: index.types.tokens().cloned().collect(),
        config,
    })
}

impl PackageListing {
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let version = (self.version.as_deref())
            .map(|v| format!(" {v}"))
            .unwrap_or_default();
        let _ = writeln!(out, "package {}{version} ({})", self.package, self.file);
        let provider = if self.provider {
            "declared"
        } else {
            "default, no configuration"
        };
        let _ = writeln!(out, "provider: {provider}");
        for (title, tokens) in [
            ("resources", &self.resources),
            ("functions", &self.functions),
            ("types", &self.types),
        ] {
            let _ = writeln!(out, "{title} ({}):", tokens.len());
            for token in tokens {
                let _ = writeln!(out, "  {token}");
            }
        }
        let _ = writeln!(out, "config ({}):", self.config.len());
        for variable in &self.config {
            let marker = if variable.required { " (required)" } else { "" };
            let _ = writeln!(out, "  {}{marker}", variable.name);
        }
        out
    }
}

/// The package's contents as text.
pub fn describe_package(
    db: &dyn pcl_types::Db,
    source: PackageSource,
) -> Result<String, SchemaError> {
    Ok(package_listing(db, source)?.to_text())
}

/// One item's types, and the schema errors met while lowering them (the types show
/// `none` or an opaque type where those are).
pub fn item_description(
    db: &dyn pcl_types::Db,
    source: PackageSource,
    kind: ItemKind,
    token: &SmolStr,
) -> Result<(ItemDescription, Vec<SchemaError>), SchemaError> {
    let item = SchemaItem::new(db, source, kind, token.clone());
    let spec = decode_item(db, item).as_ref().map_err(Clone::clone)?;
    let mut described = ItemDescription {
        kind: "",
        token: token.clone(),
        description: None,
        ty: None,
        positional_arguments: Vec::new(),
        sections: Vec::new(),
        result: None,
        methods: Vec::new(),
    };
    let errors = match kind {
        ItemKind::Resource | ItemKind::Provider => {
            let types = resource_types(db, item).as_ref().map_err(Clone::clone)?;
            let spec = match spec {
                Some(ItemSpec::Resource(spec)) => Some(&**spec),
                _ => None,
            };
            described.kind = match kind {
                ItemKind::Provider => "provider",
                _ if types.is_component => "component resource",
                _ => "resource",
            };
            described.description = spec.and_then(|spec| spec.description.clone());
            let state_specs = spec.and_then(|spec| spec.state_inputs.as_ref());
            described.section(
                db,
                "inputs",
                &types.inputs,
                spec.map(|s| &s.input_properties),
            );
            if let Some(state_inputs) = &types.state_inputs {
                let specs = state_specs.map(TypeSpec::properties);
                described.section(db, "state inputs (read)", state_inputs, specs);
            }
            described.section(db, "outputs", &types.outputs, spec.map(|s| &s.properties));
            described.methods = (types.methods.iter())
                .map(|(name, function)| Method {
                    name: name.clone(),
                    function: function.clone(),
                })
                .collect();
            types.errors.to_vec()
        }
        ItemKind::Function => {
            let types = function_types(db, item).as_ref().map_err(Clone::clone)?;
            let spec = match spec {
                Some(ItemSpec::Function(spec)) => Some(&**spec),
                _ => None,
            };
            described.kind = "function";
            described.description = spec.and_then(|spec| spec.description.clone());
            described.positional_arguments = types.multi_argument_inputs.to_vec();
            if types.has_inputs {
                let specs = spec
                    .and_then(|s| s.inputs.as_ref())
                    .map(TypeSpec::properties);
                described.section(db, "arguments", &types.inputs, specs);
            }
            described.result = Some(FunctionResult {
                ty: readable(db, types.result),
                declared: types.has_result,
                plain: types.result_plain,
            });
            types.errors.to_vec()
        }
        ItemKind::Config => {
            let types = config_types(db, item).as_ref().map_err(Clone::clone)?;
            let specs = match spec {
                Some(ItemSpec::Config(spec)) => Some(&spec.variables),
                _ => None,
            };
            described.kind = "configuration";
            described.token = index_name(db, source);
            described.section(db, "variables", &types.variables, specs);
            types.errors.to_vec()
        }
        ItemKind::Type => {
            let lowered = type_definition(db, item).as_ref().map_err(Clone::clone)?;
            let spec = match spec {
                Some(ItemSpec::Type(spec)) => Some(&**spec),
                _ => None,
            };
            described.description = spec.and_then(|spec| spec.description.clone());
            let mut errors = lowered.errors.to_vec();
            match lowered.definition {
                TypeDefinition::Enum(ty) => {
                    described.kind = "enum type";
                    described.ty = Some(readable(db, ty).to_string());
                }
                TypeDefinition::Object(ty) => {
                    described.kind = "object type";
                    described.ty = Some(readable(db, ty).to_string());
                    if let pcl_types::TyKind::Named(object) = ty.kind(db) {
                        let specs = spec.map(TypeSpec::properties);
                        let plain = named_object(db, *object);
                        described.section(db, "properties", &plain.properties, specs);
                        errors.extend(plain.errors.iter().cloned());
                        // The input shape (where a resource input reaches this type) has the
                        // same problems, so only its properties are shown.
                        let input = named_object(db, object.input_flavour(db));
                        let title = "properties in input shape";
                        described.section(db, title, &input.properties, specs);
                    }
                }
            }
            errors
        }
    };
    Ok((described, errors))
}

/// The sections whose properties are inputs, in the input form of their types.
const INPUT_SECTIONS: [&str; 4] = [
    "inputs",
    "state inputs (read)",
    "arguments",
    "properties in input shape",
];

/// An optional property's type without its `none`, inside an output too
/// (`output(string)` for `output(union(string, none))`).
fn optional_plain<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>) -> Ty<'db> {
    match ty.kind(db) {
        TyKind::Output(element) => Ty::output(db, strip_input(db, *element)),
        _ => strip_input(db, ty),
    }
}

/// Whether an input of type `ty` takes an output (`union(T, output(T))`, or `dynamic`), or
/// may (a constant, enum, set or tuple, which the input form leaves as it is).
fn takes_outputs<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>) -> bool {
    match ty.kind(db) {
        TyKind::Dynamic
        | TyKind::Output(_)
        | TyKind::Const(..)
        | TyKind::Enum(_)
        | TyKind::Set(_)
        | TyKind::Tuple(_) => true,
        TyKind::Union(members) => (members.iter())
            .filter(|m| !matches!(m.kind(db), TyKind::None))
            .any(|m| takes_outputs(db, *m)),
        _ => false,
    }
}

/// A description's first line, cut to 120 characters (`…` when cut); `None` when blank.
fn summary(description: &str) -> Option<String> {
    let line = description
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())?;
    Some(match line.char_indices().nth(120) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    })
}

impl ItemDescription {
    fn section(
        &mut self,
        db: &dyn pcl_types::Db,
        title: &'static str,
        properties: &[Property<'_>],
        specs: Option<&BTreeMap<String, TypeSpec>>,
    ) {
        let inputs = INPUT_SECTIONS.contains(&title);
        let shown = if inputs {
            displayed_input
        } else {
            optional_plain
        };
        let properties = (properties.iter())
            .map(|property| PropertyDescription {
                name: SmolStr::new(&*property.name),
                ty: readable(db, property.ty).to_string(),
                shown: Some(readable(db, shown(db, property.ty)))
                    .filter(|shown| *shown != readable(db, property.ty)),
                plain_input: inputs && !takes_outputs(db, property.ty),
                required: property.required,
                description: (specs.and_then(|specs| specs.get(&*property.name)))
                    .and_then(|spec| spec.description.clone()),
                discriminator: property.discriminator.as_ref().map(|discriminated| {
                    DiscriminatorDescription {
                        property: SmolStr::new(&*discriminated.property),
                        members: (discriminated.members.iter())
                            .map(|(value, member)| {
                                (SmolStr::new(&**value), readable(db, *member).to_string())
                            })
                            .collect(),
                        of_elements: discriminated.of_elements,
                    }
                }),
            })
            .collect();
        self.sections.push(PropertySection {
            title,
            properties,
            inputs,
        });
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        match (self.kind, &self.ty) {
            ("configuration", _) => {
                let _ = writeln!(out, "configuration of package {}", self.token);
            }
            ("enum type", Some(ty)) => {
                let _ = writeln!(out, "enum type {}\n  {ty}", self.token);
            }
            ("object type", Some(ty)) => {
                let _ = writeln!(out, "object type {}: {ty}", self.token);
            }
            (kind, _) => {
                let _ = writeln!(out, "{kind} {}", self.token);
            }
        }
        if !self.positional_arguments.is_empty() {
            let order: Vec<&str> = self
                .positional_arguments
                .iter()
                .map(SmolStr::as_str)
                .collect();
            let _ = writeln!(out, "positional arguments: {}", order.join(", "));
        }
        if self.kind == "function" && !self.sections.iter().any(|s| s.title == "arguments") {
            let _ = writeln!(out, "arguments: none declared");
        }
        for section in &self.sections {
            let also = match section.inputs {
                true if section.properties.iter().any(|p| p.plain_input) => {
                    ", each a value or an output of one unless plain"
                }
                true if section.properties.iter().any(|p| p.shown.is_some()) => {
                    ", each a value or an output of one"
                }
                _ => "",
            };
            let _ = writeln!(
                out,
                "{} ({}{also}):",
                section.title,
                section.properties.len()
            );
            for property in &section.properties {
                let marker = match (property.required, property.plain_input) {
                    (true, false) => "required",
                    (true, true) => "required, plain",
                    (false, false) => "optional",
                    (false, true) => "optional, plain",
                };
                let ty = property.shown.as_ref().unwrap_or(&property.ty);
                let _ = writeln!(out, "  {} ({marker}): {ty}", property.name);
                if let Some(summary) = property.description.as_deref().and_then(summary) {
                    let _ = writeln!(out, "    {summary}");
                }
                if let Some(discriminator) = &property.discriminator {
                    let each = if discriminator.of_elements {
                        "each element, "
                    } else {
                        ""
                    };
                    for (value, member) in &discriminator.members {
                        let _ = writeln!(
                            out,
                            "    {each}when {} = {value:?}: {member}",
                            discriminator.property
                        );
                    }
                }
            }
        }
        if let Some(result) = &self.result {
            let _ = match (result.declared, result.plain) {
                (false, _) => writeln!(out, "result: none declared ({})", result.ty),
                (true, true) => writeln!(out, "result (plain): {}", result.ty),
                (true, false) => writeln!(out, "result: {}", result.ty),
            };
        }
        if !self.methods.is_empty() {
            let _ = writeln!(out, "methods ({}):", self.methods.len());
            for method in &self.methods {
                let _ = writeln!(out, "  {}: {}", method.name, method.function);
            }
        }
        out
    }
}

/// One item's types as text, and the schema errors met while lowering them.
pub fn describe_token(
    db: &dyn pcl_types::Db,
    source: PackageSource,
    kind: ItemKind,
    token: &SmolStr,
) -> Result<(String, Vec<SchemaError>), SchemaError> {
    let (described, errors) = item_description(db, source, kind, token)?;
    Ok((described.to_text(), errors))
}

fn index_name(db: &dyn salsa::Database, source: PackageSource) -> SmolStr {
    package_index(db, source)
        .as_ref()
        .map(|index| index.name.clone())
        .unwrap_or_default()
}

/// Up to three tokens of the package that look like `written`: same canonical form
/// ignoring case, or a close spelling of it. Asked once per package and misspelt token
/// (3,000 resources of one misspelt type once compared it with every token 3,000 times).
pub fn suggest_tokens(
    db: &dyn salsa::Database,
    source: PackageSource,
    written: &str,
) -> Vec<SmolStr> {
    suggested_tokens(db, source, SmolStr::new(written), None).to_vec()
}

/// [`suggest_tokens`] among one kind of item (resources for a resource's type,
/// functions for an `invoke`), compared with these only.
pub fn suggest_tokens_of(
    db: &dyn salsa::Database,
    source: PackageSource,
    written: &str,
    kind: ItemKind,
) -> Vec<SmolStr> {
    suggested_tokens(db, source, SmolStr::new(written), Some(kind)).to_vec()
}

#[salsa::tracked(returns(ref))]
fn suggested_tokens(
    db: &dyn salsa::Database,
    source: PackageSource,
    written: SmolStr,
    kind: Option<ItemKind>,
) -> Box<[SmolStr]> {
    let Ok(index) = package_index(db, source) else {
        return Box::default();
    };
    let wanted = token_key(index, &written);
    let mut scored: Vec<(usize, &SmolStr)> = (token_keys(db, source).iter())
        .filter(|(_, _, of)| kind.is_none_or(|kind| kind == *of))
        .filter_map(|(key, token, _)| {
            let distance = pcl_types::suggestion_distance(&wanted, key)?;
            Some((distance, token))
        })
        .collect();
    scored.sort();
    // Only the closest candidates, and those one edit further: a near-exact match makes
    // distant ones noise.
    let best = scored.first().map_or(0, |(distance, _)| *distance);
    let mut suggestions: Vec<SmolStr> = Vec::new();
    for (_, token) in scored
        .into_iter()
        .take_while(|(distance, _)| *distance <= best + 1)
    {
        if !suggestions.contains(token) && suggestions.len() < 3 {
            suggestions.push(token.clone());
        }
    }
    suggestions.into_boxed_slice()
}

/// Each token of the package (resources, functions, types) with the key suggestions
/// compare: worked out once per package, not once per misspelt token.
#[salsa::tracked(returns(ref))]
fn token_keys(
    db: &dyn salsa::Database,
    source: PackageSource,
) -> Box<[(String, SmolStr, ItemKind)]> {
    let Ok(index) = package_index(db, source) else {
        return Box::default();
    };
    [
        (&index.resources, ItemKind::Resource),
        (&index.functions, ItemKind::Function),
        (&index.types, ItemKind::Type),
    ]
    .into_iter()
    .flat_map(|(section, kind)| section.tokens().map(move |token| (token, kind)))
    .map(|(token, kind)| (token_key(index, token), token.clone(), kind))
    .collect()
}

/// What `suggest_tokens` compares of a token: its canonical form, in lower case.
fn token_key(index: &PackageIndex, token: &str) -> String {
    canonical(token, &index.name, index.module_format.as_ref())
        .unwrap_or_else(|| token.to_owned())
        .to_lowercase()
}
