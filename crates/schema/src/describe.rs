//! What `pcl schema` prints: a package's contents with counts, or one token's types in
//! type display syntax with each property marked required or optional.

use std::fmt::Write;

use pcl_types::display;
use smol_str::SmolStr;

use crate::lower::{
    Property, config_types, function_types, named_object, resource_types, type_definition,
};
use crate::{
    ItemKind, PackageSource, SchemaError, SchemaItem, TypeDefinition, canonical, package_index,
};

/// The package's name, version, file, and its resources, functions and types.
pub fn describe_package(
    db: &dyn pcl_types::Db,
    source: PackageSource,
) -> Result<String, SchemaError> {
    let index = package_index(db, source).as_ref().map_err(Clone::clone)?;
    let mut out = String::new();
    let version = index
        .version
        .as_deref()
        .map(|v| format!(" {v}"))
        .unwrap_or_default();
    let _ = writeln!(out, "package {}{version} ({})", index.name, source.file(db));
    let provider = if index.provider.is_some() {
        "declared"
    } else {
        "default, no configuration"
    };
    let _ = writeln!(out, "provider: {provider}");
    for (title, section) in [
        ("resources", &index.resources),
        ("functions", &index.functions),
        ("types", &index.types),
    ] {
        let _ = writeln!(out, "{title} ({}):", section.len());
        for token in section.tokens() {
            let _ = writeln!(out, "  {token}");
        }
    }
    let config = SchemaItem::new(db, source, ItemKind::Config, SmolStr::default());
    if let Ok(config) = config_types(db, config) {
        let _ = writeln!(out, "config ({}):", config.variables.len());
        for variable in &config.variables {
            let marker = if variable.required { " (required)" } else { "" };
            let _ = writeln!(out, "  {}{marker}", variable.name);
        }
    }
    Ok(out)
}

/// One item's types, and the schema errors met while lowering them (the types show
/// `none` or an opaque type where those are).
pub fn describe_token(
    db: &dyn pcl_types::Db,
    source: PackageSource,
    kind: ItemKind,
    token: &SmolStr,
) -> Result<(String, Vec<SchemaError>), SchemaError> {
    let item = SchemaItem::new(db, source, kind, token.clone());
    let mut out = String::new();
    let errors = match kind {
        ItemKind::Resource | ItemKind::Provider => {
            let types = resource_types(db, item).as_ref().map_err(Clone::clone)?;
            let what = match kind {
                ItemKind::Provider => "provider",
                _ if types.is_component => "component resource",
                _ => "resource",
            };
            let _ = writeln!(out, "{what} {token}");
            properties(db, &mut out, "inputs", &types.inputs);
            if let Some(state_inputs) = &types.state_inputs {
                properties(db, &mut out, "state inputs (read)", state_inputs);
            }
            properties(db, &mut out, "outputs", &types.outputs);
            if !types.methods.is_empty() {
                let _ = writeln!(out, "methods ({}):", types.methods.len());
                for (name, function) in &types.methods {
                    let _ = writeln!(out, "  {name}: {function}");
                }
            }
            types.errors.to_vec()
        }
        ItemKind::Function => {
            let types = function_types(db, item).as_ref().map_err(Clone::clone)?;
            let _ = writeln!(out, "function {token}");
            if !types.multi_argument_inputs.is_empty() {
                let order: Vec<&str> = types
                    .multi_argument_inputs
                    .iter()
                    .map(SmolStr::as_str)
                    .collect();
                let _ = writeln!(out, "positional arguments: {}", order.join(", "));
            }
            if types.has_inputs {
                properties(db, &mut out, "arguments", &types.inputs);
            } else {
                let _ = writeln!(out, "arguments: none declared");
            }
            match (types.has_result, types.result_plain) {
                (false, _) => {
                    let _ = writeln!(out, "result: none declared ({})", display(db, types.result));
                }
                (true, true) => {
                    let _ = writeln!(out, "result (plain): {}", display(db, types.result));
                }
                (true, false) => {
                    let _ = writeln!(out, "result: {}", display(db, types.result));
                }
            }
            types.errors.to_vec()
        }
        ItemKind::Config => {
            let types = config_types(db, item).as_ref().map_err(Clone::clone)?;
            let _ = writeln!(out, "configuration of package {}", index_name(db, source));
            properties(db, &mut out, "variables", &types.variables);
            types.errors.to_vec()
        }
        ItemKind::Type => {
            let lowered = type_definition(db, item).as_ref().map_err(Clone::clone)?;
            let mut errors = lowered.errors.to_vec();
            match lowered.definition {
                TypeDefinition::Enum(ty) => {
                    let _ = writeln!(out, "enum type {token}\n  {}", display(db, ty));
                }
                TypeDefinition::Object(ty) => {
                    let _ = writeln!(out, "object type {token}: {}", display(db, ty));
                    if let pcl_types::TyKind::Named(object) = ty.kind(db) {
                        let plain = named_object(db, *object);
                        properties(db, &mut out, "properties", &plain.properties);
                        errors.extend(plain.errors.iter().cloned());
                        // The input shape (where a resource input reaches this type) has the
                        // same problems, so only its properties are shown.
                        let input = named_object(db, object.input_flavour(db));
                        properties(db, &mut out, "properties in input shape", &input.properties);
                    }
                }
            }
            errors
        }
    };
    Ok((out, errors))
}

fn index_name(db: &dyn salsa::Database, source: PackageSource) -> SmolStr {
    package_index(db, source)
        .as_ref()
        .map(|index| index.name.clone())
        .unwrap_or_default()
}

fn properties(db: &dyn pcl_types::Db, out: &mut String, title: &str, properties: &[Property<'_>]) {
    let _ = writeln!(out, "{title} ({}):", properties.len());
    for property in properties {
        let marker = if property.required {
            "required"
        } else {
            "optional"
        };
        let _ = writeln!(
            out,
            "  {} ({marker}): {}",
            property.name,
            display(db, property.ty)
        );
        if let Some(discriminated) = &property.discriminator {
            for (value, member) in &discriminated.members {
                let _ = writeln!(
                    out,
                    "    when {} = {value:?}: {}",
                    discriminated.property,
                    display(db, *member)
                );
            }
        }
    }
}

/// Up to three tokens of the package that look like `written`: same canonical form
/// ignoring case, or a close spelling of it.
pub fn suggest_tokens(
    db: &dyn salsa::Database,
    source: PackageSource,
    written: &str,
) -> Vec<SmolStr> {
    let Ok(index) = package_index(db, source) else {
        return Vec::new();
    };
    let format = index.module_format.as_ref();
    let key = |token: &str| {
        canonical(token, &index.name, format)
            .unwrap_or_else(|| token.to_owned())
            .to_lowercase()
    };
    let wanted = key(written);
    let mut scored: Vec<(usize, &SmolStr)> = [&index.resources, &index.functions, &index.types]
        .into_iter()
        .flat_map(|section| section.tokens())
        .filter_map(|token| {
            let distance = pcl_types::suggestion_distance(&wanted, &key(token))?;
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
    suggestions
}
