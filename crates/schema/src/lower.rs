//! Lowering schema types to PCL types, as Pulumi's schema binder and PCL's
//! `schemaTypeToType` do together: primitives, arrays, maps, `$ref`s (local types and
//! resources, other packages, `pulumi.json` builtins), `oneOf`, constants, enums;
//! optional unless required; in *input shape* (resource inputs, state inputs, the
//! input form of invoke arguments, and the objects reached from them) every level that
//! is not `plain` becomes `union(T, output(T'))`, `T'` the plain form; resource outputs
//! wrapped in `output`.
//!
//! Object types behind `$ref` become schema object types (`Ty::named`), whose
//! properties are lowered only when asked for ([`named_object`]), so recursive types
//! terminate and only what is used is decoded. Problems are collected as errors with
//! JSON pointers; the offending type lowers to `none` (or an opaque type for a dangling
//! reference) and everything else keeps working.

use std::collections::BTreeMap;

use pcl_diagnostics::{Code, codes};
use pcl_syntax::ast::NumberValue;
use pcl_types::{ConstValue, Name, NamedObject, Ty, TyKind, closest_name};
use smol_str::SmolStr;

use crate::error::{SchemaError, pointer};
use crate::index::package_index;
use crate::item::SchemaItem;
use crate::spec::{ItemKind, ItemSpec, Literal, ResourceSpec, TypeSpec, decode_item};
use crate::token::canonical;
use crate::{PackageSource, package_named};

/// A property of an object type, as lowered.
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub struct Property<'db> {
    pub name: Name,
    /// The property's type: `union(T, none)` when it is optional, and a constant type
    /// over that when the schema fixes its value (such a property is never missing).
    pub ty: Ty<'db>,
    pub required: bool,
    /// For a `oneOf` with a discriminator: the property that names the member, and
    /// each value with the member type it selects.
    pub discriminator: Option<Discriminated<'db>>,
    /// A type of another package that no source has, which this property's type uses
    /// (lowered as `dynamic`): a value given for it cannot be checked.
    pub missing_package: Option<MissingPackageRef>,
}

/// A `$ref` to another package's type (`/aws/v5.4.0/schema.json#/types/...`) whose
/// package no source has, at any version.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MissingPackageRef {
    pub package: SmolStr,
    /// The version the reference names (`v5.4.0`), if any.
    pub version: Option<SmolStr>,
    /// The schema file and the JSON pointer of the reference.
    pub file: SmolStr,
    pub pointer: String,
}

/// How a discriminated union picks its member.
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub struct Discriminated<'db> {
    pub property: Name,
    pub members: Box<[(Name, Ty<'db>)]>,
    /// Whether it picks the member of each element of a list (the `items` of an array
    /// property), not of the value itself.
    pub of_elements: bool,
}

/// The properties of a schema object type, in both forms the database hands out.
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub struct LoweredObject<'db> {
    /// `(name, type)` sorted by name: what the type system reads.
    pub fields: Box<[(Name, Ty<'db>)]>,
    pub properties: Box<[Property<'db>]>,
    pub errors: Box<[SchemaError]>,
}

/// Whether a type is lowered as a value given directly (plain) or as an input that may
/// also be an output (Go's `inputShape`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    Plain,
    Input,
}

/// Whether an object's `const` properties keep their constant type: resource outputs
/// drop it, as the reference does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Consts {
    Keep,
    Drop,
}

/// The token under which a resource's outputs form a schema object type.
pub(crate) const RESOURCE_OBJECT: &str = "#/resources/";
/// The prefix of the provider resource's token, whose outputs form a schema object type.
pub(crate) const PROVIDER_PREFIX: &str = "pulumi:providers:";

/// The property types of a schema object type (a `types` entry, a resource's outputs
/// for `#/resources/...` references, or the provider's), in the flavour asked for.
#[salsa::tracked(returns(ref))]
pub fn named_object<'db>(
    db: &'db dyn pcl_types::Db,
    object: NamedObject<'db>,
) -> LoweredObject<'db> {
    let empty = LoweredObject {
        fields: Box::new([]),
        properties: Box::new([]),
        errors: Box::new([]),
    };
    let Some(source) = package_named(db, object.package(db)) else {
        return empty;
    };
    let token = object.token(db);
    let (kind, item_token, base) = if token.starts_with(PROVIDER_PREFIX) {
        (
            ItemKind::Provider,
            SmolStr::default(),
            JsonPath::new(["provider"]),
        )
    } else if let Some(resource) = token.strip_prefix(RESOURCE_OBJECT) {
        (
            ItemKind::Resource,
            SmolStr::new(resource),
            JsonPath::new(["resources", resource]),
        )
    } else {
        (
            ItemKind::Type,
            token.clone(),
            JsonPath::new(["types", token]),
        )
    };
    let item = SchemaItem::new(db, source, kind, item_token);
    let mut lowerer = Lowerer::new(db, source);
    let mut path = base;
    let properties = path.within(["properties"], |path| match decode_item(db, item) {
        Ok(Some(ItemSpec::Type(spec))) => {
            let shape = if object.input(db) {
                Shape::Input
            } else {
                Shape::Plain
            };
            lowerer.object(spec.properties(), &spec.required, shape, Consts::Keep, path)
        }
        Ok(Some(ItemSpec::Resource(spec))) => {
            let mut properties = lowerer.object(
                &spec.properties,
                &spec.required,
                Shape::Plain,
                Consts::Drop,
                path,
            );
            if kind == ItemKind::Provider {
                lowerer.keep_provider_outputs(spec, &mut properties);
            }
            properties
        }
        Ok(_) => Vec::new(),
        Err(error) => {
            lowerer.errors.push(error.clone());
            Vec::new()
        }
    });
    LoweredObject {
        fields: properties.iter().map(|p| (p.name.clone(), p.ty)).collect(),
        properties: properties.into_boxed_slice(),
        errors: lowerer.errors.into_boxed_slice(),
    }
}

/// A resource's input and output object types.
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub struct ResourceTypes<'db> {
    /// Input properties in input shape.
    pub inputs: Box<[Property<'db>]>,
    /// Output properties, each `output(T)`, with `id` and `urn`.
    pub outputs: Box<[Property<'db>]>,
    /// What `read` takes besides `id`: the state inputs in input shape, if declared.
    pub state_inputs: Option<Box<[Property<'db>]>>,
    pub is_component: bool,
    /// Method names and the function tokens that implement them.
    pub methods: Box<[(SmolStr, SmolStr)]>,
    pub errors: Box<[SchemaError]>,
}

/// Lower a resource (or provider) item.
#[salsa::tracked(returns(ref))]
pub fn resource_types<'db>(
    db: &'db dyn pcl_types::Db,
    item: SchemaItem<'db>,
) -> Result<ResourceTypes<'db>, SchemaError> {
    let no_spec = ResourceSpec::default();
    let spec: &ResourceSpec = match decode_item(db, item).as_ref().map_err(Clone::clone)? {
        Some(ItemSpec::Resource(spec)) => spec,
        _ => &no_spec,
    };
    let provider = item.kind(db) == ItemKind::Provider;
    let mut path = if provider {
        JsonPath::new(["provider"])
    } else {
        JsonPath::new(["resources", item.token(db)])
    };
    let mut lowerer = Lowerer::new(db, item.source(db));
    let inputs = path.within(["inputProperties"], |path| {
        lowerer.object(
            &spec.input_properties,
            &spec.required_inputs,
            Shape::Input,
            Consts::Keep,
            path,
        )
    });
    let state_inputs = spec.state_inputs.as_ref().map(|state| {
        path.within(["stateInputs", "properties"], |path| {
            lowerer.object(
                state.properties(),
                &state.required,
                Shape::Input,
                Consts::Keep,
                path,
            )
        })
        .into_boxed_slice()
    });
    let mut outputs = path.within(["properties"], |path| {
        lowerer.object(
            &spec.properties,
            &spec.required,
            Shape::Plain,
            Consts::Drop,
            path,
        )
    });
    if provider {
        lowerer.keep_provider_outputs(spec, &mut outputs);
    }
    for p in &mut outputs {
        p.ty = Ty::output(db, p.ty);
    }
    let builtin = [
        ("id", Ty::output(db, Ty::id(db))),
        ("urn", Ty::output(db, Ty::string(db))),
    ];
    for (name, ty) in builtin {
        if !outputs.iter().any(|p| &*p.name == name) {
            outputs.push(Property {
                name: Name::from(name),
                ty,
                required: true,
                discriminator: None,
                missing_package: None,
            });
        }
    }
    outputs.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(ResourceTypes {
        inputs: inputs.into_boxed_slice(),
        outputs: outputs.into_boxed_slice(),
        state_inputs,
        is_component: spec.is_component,
        methods: lowerer.methods(spec, item.token(db)),
        errors: lowerer.errors.into_boxed_slice(),
    })
}

/// A function's argument and result types.
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub struct FunctionTypes<'db> {
    /// Whether the schema declares `inputs` at all (a function without them takes an
    /// optional empty object).
    pub has_inputs: bool,
    /// The inputs object's properties, plain.
    pub inputs: Box<[Property<'db>]>,
    /// The same in input shape, for the output form of an invoke.
    pub input_shape_inputs: Box<[Property<'db>]>,
    /// Input names in positional order, for `multiArgumentInputs` functions.
    pub multi_argument_inputs: Box<[SmolStr]>,
    /// Whether the schema declares a return type (`outputs`).
    pub has_result: bool,
    /// Whether the return type is marked `plain` (methods then return it unwrapped).
    pub result_plain: bool,
    /// The result: an object of the output properties, a scalar type, or `object({})`
    /// when there is no return type.
    pub result: Ty<'db>,
    pub errors: Box<[SchemaError]>,
}

/// Lower a function item.
#[salsa::tracked(returns(ref))]
pub fn function_types<'db>(
    db: &'db dyn pcl_types::Db,
    item: SchemaItem<'db>,
) -> Result<FunctionTypes<'db>, SchemaError> {
    let Some(ItemSpec::Function(spec)) = decode_item(db, item).as_ref().map_err(Clone::clone)?
    else {
        return Err(SchemaError {
            code: codes::UNKNOWN_SCHEMA_TOKEN,
            file: item.source(db).file(db).clone(),
            location: pointer(["functions", item.token(db).as_str()]),
            message: "no such function".to_owned(),
        });
    };
    let mut lowerer = Lowerer::new(db, item.source(db));
    let mut path = JsonPath::new(["functions", item.token(db)]);
    let (inputs, input_shape_inputs) = match &spec.inputs {
        Some(inputs) => path.within(["inputs", "properties"], |path| {
            let plain = lowerer.object(
                inputs.properties(),
                &inputs.required,
                Shape::Plain,
                Consts::Keep,
                path,
            );
            let shaped = lowerer.quietly(|lowerer| {
                lowerer.object(
                    inputs.properties(),
                    &inputs.required,
                    Shape::Input,
                    Consts::Keep,
                    path,
                )
            });
            (plain, shaped)
        }),
        None => (Vec::new(), Vec::new()),
    };
    let result = match spec.result() {
        // A return type with `properties` is an object; anything else is a type.
        Some((key, result)) if result.properties.is_some() => {
            path.within([key, "properties"], |path| {
                let properties = lowerer.object(
                    result.properties(),
                    &result.required,
                    Shape::Plain,
                    Consts::Keep,
                    path,
                );
                Ty::object(db, properties.into_iter().map(|p| (p.name, p.ty)))
            })
        }
        Some((key, result)) => path.within([key], |path| lowerer.ty(result, Shape::Plain, path)),
        None => Ty::empty_object(db),
    };
    Ok(FunctionTypes {
        has_inputs: spec.inputs.is_some(),
        inputs: inputs.into_boxed_slice(),
        input_shape_inputs: input_shape_inputs.into_boxed_slice(),
        multi_argument_inputs: spec
            .multi_argument_inputs
            .iter()
            .map(SmolStr::new)
            .collect(),
        has_result: spec.result().is_some(),
        result_plain: spec.result().is_some_and(|(_, result)| result.plain),
        result,
        errors: lowerer.errors.into_boxed_slice(),
    })
}

/// The package's configuration variables, optional unless required.
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub struct ConfigTypes<'db> {
    pub variables: Box<[Property<'db>]>,
    pub errors: Box<[SchemaError]>,
}

/// Lower the package's `config` (its item key has kind `Config`).
#[salsa::tracked(returns(ref))]
pub fn config_types<'db>(
    db: &'db dyn pcl_types::Db,
    item: SchemaItem<'db>,
) -> Result<ConfigTypes<'db>, SchemaError> {
    let mut lowerer = Lowerer::new(db, item.source(db));
    let variables = match decode_item(db, item).as_ref().map_err(Clone::clone)? {
        Some(ItemSpec::Config(spec)) => lowerer.object(
            &spec.variables,
            &spec.required,
            Shape::Plain,
            Consts::Keep,
            &mut JsonPath::new(["config", "variables"]),
        ),
        _ => Vec::new(),
    };
    Ok(ConfigTypes {
        variables: variables.into_boxed_slice(),
        errors: lowerer.errors.into_boxed_slice(),
    })
}

/// What a `types` entry is.
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub enum TypeDefinition<'db> {
    /// An object type; its properties come from [`named_object`].
    Object(Ty<'db>),
    Enum(Ty<'db>),
}

/// A lowered `types` entry, with the errors met (the enum's values, say).
#[derive(Clone, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub struct LoweredType<'db> {
    pub definition: TypeDefinition<'db>,
    pub errors: Box<[SchemaError]>,
}

/// Lower a `types` entry.
#[salsa::tracked(returns(ref))]
pub fn type_definition<'db>(
    db: &'db dyn pcl_types::Db,
    item: SchemaItem<'db>,
) -> Result<LoweredType<'db>, SchemaError> {
    let mut lowerer = Lowerer::new(db, item.source(db));
    let token = item.token(db);
    let path = JsonPath::new(["types", token]);
    let definition = lowerer
        .local_type(item.source(db), token, Shape::Plain)
        .map_err(|(code, message)| lowerer.error(&path, code, message))?;
    Ok(LoweredType {
        definition,
        errors: lowerer.errors.into_boxed_slice(),
    })
}

/// The JSON pointer to the schema value being lowered, for error locations. Segments are
/// added only for the duration of a closure ([`JsonPath::within`]), so every step down is
/// undone on the way back up.
struct JsonPath(Vec<String>);

impl JsonPath {
    fn new<S: AsRef<str>>(segments: impl IntoIterator<Item = S>) -> JsonPath {
        JsonPath(
            segments
                .into_iter()
                .map(|s| s.as_ref().to_owned())
                .collect(),
        )
    }

    /// Runs `inside` with `segments` appended to the path.
    fn within<S: AsRef<str>, R>(
        &mut self,
        segments: impl IntoIterator<Item = S>,
        inside: impl FnOnce(&mut JsonPath) -> R,
    ) -> R {
        let depth = self.0.len();
        self.0
            .extend(segments.into_iter().map(|s| s.as_ref().to_owned()));
        let result = inside(self);
        self.0.truncate(depth);
        result
    }
}

/// Lowering state: the package being read, and the errors found so far.
struct Lowerer<'db> {
    db: &'db dyn pcl_types::Db,
    source: PackageSource,
    errors: Vec<SchemaError>,
    /// References to packages no source has, in lowering order.
    missing_refs: Vec<MissingPackageRef>,
}

impl<'db> Lowerer<'db> {
    fn new(db: &'db dyn pcl_types::Db, source: PackageSource) -> Lowerer<'db> {
        Lowerer {
            db,
            source,
            errors: Vec::new(),
            missing_refs: Vec::new(),
        }
    }

    fn error(&self, path: &JsonPath, code: Code, message: String) -> SchemaError {
        SchemaError {
            code,
            file: self.source.file(self.db).clone(),
            location: pointer(&path.0),
            message,
        }
    }

    fn report(&mut self, path: &JsonPath, code: Code, message: String) {
        let error = self.error(path, code, message);
        self.errors.push(error);
    }

    /// Run `lower` without recording its errors: for a second lowering of the same specs
    /// (another shape), whose problems were reported the first time.
    fn quietly<T>(&mut self, lower: impl FnOnce(&mut Lowerer<'db>) -> T) -> T {
        let reported = self.errors.len();
        let result = lower(self);
        self.errors.truncate(reported);
        result
    }

    /// Lower an object's properties: optional unless required, then the constant type
    /// over that when the property has a `const` (and `consts` keeps them).
    fn object(
        &mut self,
        properties: &BTreeMap<String, TypeSpec>,
        required: &[String],
        shape: Shape,
        consts: Consts,
        path: &mut JsonPath,
    ) -> Vec<Property<'db>> {
        let db = self.db;
        let mut lowered = Vec::with_capacity(properties.len());
        for (name, spec) in properties {
            let is_required = required.contains(name);
            let missing_before = self.missing_refs.len();
            let property = path.within([name], |path| {
                let mut ty = self.ty(spec, shape, path);
                if !is_required {
                    ty = Ty::optional(db, ty);
                }
                if let (Some(literal), Consts::Keep) = (&spec.constant, consts) {
                    match const_value(literal) {
                        Ok(value) => ty = Ty::constant(db, ty, value),
                        Err(message) => path.within(["const"], |path| {
                            self.report(path, codes::SCHEMA_INVALID_TYPE, message)
                        }),
                    }
                }
                Property {
                    name: Name::from(name.as_str()),
                    ty,
                    required: is_required,
                    discriminator: self.discriminated(spec, shape, path),
                    missing_package: None,
                }
            });
            let mut property = property;
            property.missing_package = self.missing_refs.get(missing_before).cloned();
            lowered.push(property);
        }
        lowered
    }

    /// The discriminator of a `oneOf`, with each value's member type (the bare object
    /// type in the given shape, as the reference narrows to it).
    fn discriminated(
        &mut self,
        spec: &TypeSpec,
        shape: Shape,
        path: &mut JsonPath,
    ) -> Option<Discriminated<'db>> {
        let of_elements = spec.discriminator.is_none();
        let spec = match (&spec.items, of_elements) {
            // A list of a discriminated union: each element's member.
            (Some(items), true) if spec.kind.as_deref() == Some("array") => items,
            _ => spec,
        };
        let discriminator = spec
            .discriminator
            .as_ref()
            .filter(|_| !spec.one_of.is_empty())?;
        let members = discriminator
            .mapping
            .iter()
            .map(|(value, reference)| {
                let member = self.quietly(|lowerer| {
                    lowerer.reference(reference, &TypeSpec::default(), shape, path)
                });
                (Name::from(value.as_str()), member)
            })
            .collect();
        Some(Discriminated {
            property: Name::from(discriminator.property_name.as_str()),
            members,
            of_elements,
        })
    }

    /// Lower one type spec. In input shape, a level that is not `plain` becomes
    /// `union(T, output(T'))`, `T'` its plain form; the levels inside get the input shape
    /// whether or not this one is plain.
    fn ty(&mut self, spec: &TypeSpec, shape: Shape, path: &mut JsonPath) -> Ty<'db> {
        let db = self.db;
        let base = if let Some(reference) = &spec.reference {
            self.reference(reference, spec, shape, path)
        } else if !spec.one_of.is_empty() {
            let members: Vec<_> = (spec.one_of.iter().enumerate())
                .map(|(i, member)| {
                    path.within(["oneOf", &i.to_string()], |path| {
                        self.ty(member, shape, path)
                    })
                })
                .collect();
            Ty::union(db, members)
        } else {
            self.by_kind(spec, shape, path)
        };
        if shape == Shape::Input && !spec.plain {
            // `output(..)` resolves inner eventuals and turns input-shape objects into
            // their plain form, as the reference's resolved type does.
            Ty::union(db, [base, Ty::output(db, base)])
        } else {
            base
        }
    }

    fn by_kind(&mut self, spec: &TypeSpec, shape: Shape, path: &mut JsonPath) -> Ty<'db> {
        let db = self.db;
        let Some(kind) = spec.kind.as_deref() else {
            self.report(
                path,
                codes::SCHEMA_INVALID_TYPE,
                "a type needs `type`, `$ref` or `oneOf`".to_owned(),
            );
            return Ty::none(db);
        };
        match kind {
            "boolean" => Ty::bool(db),
            "integer" => Ty::int(db),
            "number" => Ty::number(db),
            "string" => Ty::string(db),
            "array" => match &spec.items {
                Some(items) => {
                    let element = path.within(["items"], |path| self.ty(items, shape, path));
                    Ty::list(db, element)
                }
                None => {
                    self.report(
                        path,
                        codes::SCHEMA_INVALID_TYPE,
                        "an array type needs `items`".to_owned(),
                    );
                    Ty::list(db, Ty::dynamic(db))
                }
            },
            "object" => {
                let element = match &spec.additional_properties {
                    Some(values) => path.within(["additionalProperties"], |path| {
                        self.ty(values, shape, path)
                    }),
                    // A map's values are strings unless said otherwise, shaped like any
                    // other level.
                    None => {
                        let string = TypeSpec {
                            kind: Some("string".to_owned()),
                            ..TypeSpec::default()
                        };
                        self.ty(&string, shape, path)
                    }
                };
                Ty::map(db, element)
            }
            other => {
                let mut message = format!("unknown type \"{other}\"");
                match closest_name(other, PRIMITIVE_NAMES) {
                    Some(suggestion) => {
                        message.push_str(&format!("; did you mean \"{suggestion}\"?"))
                    }
                    None => message
                        .push_str(&format!("; expected one of {}", PRIMITIVE_NAMES.join(", "))),
                }
                path.within(["type"], |path| {
                    self.report(path, codes::SCHEMA_INVALID_TYPE, message)
                });
                Ty::none(db)
            }
        }
    }

    /// A `$ref`: `pulumi.json#/...` builtins, `#/types/...`, `#/resources/...`,
    /// `#/provider`, or the same in another package (`/pkg/vX/schema.json#/...`).
    fn reference(
        &mut self,
        reference: &str,
        spec: &TypeSpec,
        shape: Shape,
        path: &mut JsonPath,
    ) -> Ty<'db> {
        let db = self.db;
        let (document, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        if document == "pulumi.json" {
            return match fragment {
                "/Archive" => Ty::opaque(db, "Archive"),
                "/Asset" => Ty::union(db, [Ty::opaque(db, "Archive"), Ty::opaque(db, "Asset")]),
                "/Any" | "/Json" => Ty::dynamic(db),
                _ => {
                    path.within(["$ref"], |path| self.report(path, codes::SCHEMA_INVALID_TYPE, format!("unknown builtin type \"{reference}\"; expected pulumi.json#/Any, #/Archive, #/Asset or #/Json")));
                    Ty::dynamic(db)
                }
            };
        }
        let token = percent_decode(
            fragment
                .trim_start_matches('/')
                .split_once('/')
                .map_or("", |(_, t)| t),
        );
        let source = if document.is_empty() {
            Some(self.source)
        } else {
            // `/pkg/vX.Y.Z/schema.json`: that version if it is loaded, else the package's
            // loaded version.
            let mut parts = document.trim_start_matches('/').split('/');
            let package = parts.next().unwrap_or_default();
            let version = parts.next().filter(|v| v.starts_with('v'));
            package_named(db, &crate::package_key(package, version))
                .or_else(|| package_named(db, package))
        };
        let Some(source) = source else {
            // No source has the other package at any version: its types are `dynamic`,
            // and a value given for them is reported where it is used.
            let mut parts = document.trim_start_matches('/').split('/');
            let package = SmolStr::new(parts.next().unwrap_or_default());
            let version = parts
                .next()
                .filter(|v| v.starts_with('v'))
                .map(SmolStr::new);
            let pointer = path.within(["$ref"], |path| pointer(&path.0));
            self.missing_refs.push(MissingPackageRef {
                package,
                version,
                file: self.source.file(db).clone(),
                pointer,
            });
            return Ty::dynamic(db);
        };
        let section = fragment
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or_default();
        let outcome = match section {
            "types" => self.local_type(source, &token, shape),
            "resources" => self.resource_object(source, &token),
            "provider" if fragment == "/provider" => {
                Ok(TypeDefinition::Object(self.provider_object(source)))
            }
            _ => Err((
                codes::SCHEMA_INVALID_TYPE,
                format!(
                    "unsupported reference \"{reference}\"; expected #/types/..., #/resources/... or #/provider"
                ),
            )),
        };
        match outcome {
            Ok(TypeDefinition::Object(ty) | TypeDefinition::Enum(ty)) => ty,
            Err((code, message)) => {
                path.within(["$ref"], |path| self.report(path, code, message));
                let opaque = Ty::opaque(db, &token);
                match spec.kind.as_deref().and_then(|k| primitive(db, k)) {
                    Some(also) => Ty::union(db, [opaque, also]),
                    None => opaque,
                }
            }
        }
    }

    /// The schema object type `token` of `source`'s package, in the given shape. The
    /// package is named by its versioned key, so types of two versions stay apart.
    fn named(&self, source: PackageSource, token: SmolStr, shape: Shape) -> Ty<'db> {
        let package = match package_index(self.db, source) {
            Ok(index) => index.key(),
            Err(_) => SmolStr::default(),
        };
        Ty::named(
            self.db,
            NamedObject::new(self.db, package, token, shape == Shape::Input),
        )
    }

    /// The provider resource's outputs as an object type.
    fn provider_object(&self, source: PackageSource) -> Ty<'db> {
        let package = match package_index(self.db, source) {
            Ok(index) => index.name.clone(),
            Err(_) => SmolStr::default(),
        };
        self.named(
            source,
            SmolStr::new(format!("{PROVIDER_PREFIX}{package}")),
            Shape::Plain,
        )
    }

    /// A resource's outputs as an object type (resources have no input shape).
    fn resource_object(
        &self,
        source: PackageSource,
        token: &str,
    ) -> Result<TypeDefinition<'db>, (Code, String)> {
        if token.starts_with(PROVIDER_PREFIX) {
            return Ok(TypeDefinition::Object(self.provider_object(source)));
        }
        let index = package_index(self.db, source)
            .as_ref()
            .map_err(|e| (e.code, e.to_string()))?;
        if index.resources.exact(token).is_none() {
            return Err((
                codes::SCHEMA_DANGLING_REFERENCE,
                format!("reference to resource \"{token}\", which the package does not define"),
            ));
        }
        Ok(TypeDefinition::Object(self.named(
            source,
            SmolStr::new(format!("{RESOURCE_OBJECT}{token}")),
            Shape::Plain,
        )))
    }

    /// A `types` entry: an enum type, or a schema object type in the given shape.
    fn local_type(
        &mut self,
        source: PackageSource,
        token: &str,
        shape: Shape,
    ) -> Result<TypeDefinition<'db>, (Code, String)> {
        let db = self.db;
        let index = package_index(db, source)
            .as_ref()
            .map_err(|e| (e.code, e.to_string()))?;
        if index.types.exact(token).is_none() {
            let mut message =
                format!("reference to type \"{token}\", which the package does not define");
            if let Some(suggestion) = closest_name(token, index.types.tokens().map(SmolStr::as_str))
            {
                message.push_str(&format!("; did you mean \"{suggestion}\"?"));
            }
            return Err((codes::SCHEMA_DANGLING_REFERENCE, message));
        }
        let item = SchemaItem::new(db, source, ItemKind::Type, SmolStr::new(token));
        let spec = match decode_item(db, item) {
            Ok(Some(ItemSpec::Type(spec))) => spec,
            Ok(_) => {
                return Err((
                    codes::SCHEMA_DANGLING_REFERENCE,
                    format!("reference to type \"{token}\", which the package does not define"),
                ));
            }
            Err(error) => {
                self.errors.push(error.clone());
                return Ok(TypeDefinition::Object(Ty::none(db)));
            }
        };
        if let Some(values) = &spec.enum_values {
            return Ok(TypeDefinition::Enum(
                self.enumeration(token, spec, values, source),
            ));
        }
        match (spec.kind.as_deref(), &spec.reference) {
            (_, Some(reference))
                if reference.trim_start_matches('#') == format!("/types/{token}") =>
            {
                Err((
                    codes::SCHEMA_INVALID_TYPE,
                    format!("type \"{token}\" is defined as a reference to itself"),
                ))
            }
            (Some("object"), None) => Ok(TypeDefinition::Object(self.named(
                source,
                SmolStr::new(token),
                shape,
            ))),
            _ => Err((
                codes::SCHEMA_INVALID_TYPE,
                format!(
                    "type \"{token}\" must be an object type (`\"type\": \"object\"` with `properties`) or an enum"
                ),
            )),
        }
    }

    /// An enum type, named by its canonical token as the reference does.
    fn enumeration(
        &mut self,
        token: &str,
        spec: &TypeSpec,
        values: &[crate::spec::EnumValueSpec],
        source: PackageSource,
    ) -> Ty<'db> {
        let db = self.db;
        // Problems are the definition's, wherever it is referenced from.
        let path = &mut JsonPath::new(["types", token]);
        let saved = std::mem::replace(&mut self.source, source);
        let underlying = match spec.kind.as_deref() {
            Some(kind) => primitive(db, kind).unwrap_or_else(|| {
                path.within(["type"], |path| {
                    self.report(
                        path,
                        codes::SCHEMA_INVALID_TYPE,
                        format!(
                            "an enum's type must be string, integer, number or boolean, not \"{kind}\""
                        ),
                    )
                });
                Ty::string(db)
            }),
            None => Ty::string(db),
        };
        let mut constants = Vec::with_capacity(values.len());
        for (i, value) in values.iter().enumerate() {
            match const_value(&value.value) {
                Ok(constant) => constants.push(constant),
                Err(message) => path.within(["enum", &i.to_string(), "value"], |path| {
                    self.report(path, codes::SCHEMA_INVALID_TYPE, message)
                }),
            }
        }
        self.source = saved;
        if constants.is_empty() {
            path.within(["enum"], |path| {
                self.report(
                    path,
                    codes::SCHEMA_INVALID_TYPE,
                    "an enum needs at least one value".to_owned(),
                )
            });
            return underlying;
        }
        let canonical_token = match package_index(db, source) {
            Ok(index) => canonical(token, &index.name, index.module_format.as_ref()),
            Err(_) => None,
        };
        Ty::enumeration(
            db,
            canonical_token.as_deref().unwrap_or(token),
            underlying,
            constants,
        )
    }

    /// A resource's methods that are valid as the reference checks them: the function
    /// exists, its token is `<resource token>/<method>`, and its first input (by name)
    /// is `__self__`. The others are reported and dropped.
    fn methods(&mut self, spec: &ResourceSpec, resource: &str) -> Box<[(SmolStr, SmolStr)]> {
        let db = self.db;
        let mut valid = Vec::new();
        for (name, token) in &spec.methods {
            let path = JsonPath::new(["resources", resource, "methods", name]);
            let item = SchemaItem::new(db, self.source, ItemKind::Function, SmolStr::new(token));
            let function = match decode_item(db, item) {
                Ok(Some(ItemSpec::Function(function))) => function,
                _ => {
                    self.report(
                        &path,
                        codes::SCHEMA_INVALID_METHOD,
                        format!("unknown function {token}"),
                    );
                    continue;
                }
            };
            if token.rsplit_once('/').map(|(owner, _)| owner) != Some(resource) {
                self.report(
                    &path,
                    codes::SCHEMA_INVALID_METHOD,
                    format!("invalid function token format {token}; expected a token of the shape \"{resource}/<method name>\""),
                );
                continue;
            }
            let first_input = function
                .inputs
                .as_ref()
                .and_then(|inputs| inputs.properties().keys().next());
            if first_input.map(String::as_str) != Some("__self__") {
                self.report(
                    &path,
                    codes::SCHEMA_INVALID_METHOD,
                    format!("function {token} has no __self__ parameter"),
                );
                continue;
            }
            valid.push((SmolStr::new(name), SmolStr::new(token)));
        }
        valid.into_boxed_slice()
    }

    /// Keep the provider outputs the reference keeps: those whose plain type is a
    /// string, an enum over strings, or a token type over strings.
    fn keep_provider_outputs(&mut self, spec: &ResourceSpec, properties: &mut Vec<Property<'db>>) {
        let db = self.db;
        properties.retain(|property| {
            let Some(spec) = spec.properties.get(&*property.name) else {
                return false;
            };
            let ty =
                self.quietly(|lowerer| lowerer.ty(spec, Shape::Plain, &mut JsonPath(Vec::new())));
            match ty.kind(db) {
                TyKind::String => true,
                TyKind::Enum(enumeration) => enumeration.underlying == Ty::string(db),
                // A token type over string (a dangling `$ref` with `"type": "string"`).
                TyKind::Union(members) => {
                    members.len() == 2
                        && members.contains(&Ty::string(db))
                        && members
                            .iter()
                            .any(|m| matches!(m.kind(db), TyKind::Opaque(_)))
                }
                _ => false,
            }
        });
    }
}

/// The schema's primitive type names.
const PRIMITIVE_NAMES: [&str; 6] = ["boolean", "integer", "number", "string", "array", "object"];

fn primitive<'db>(db: &'db dyn pcl_types::Db, kind: &str) -> Option<Ty<'db>> {
    match kind {
        "boolean" => Some(Ty::bool(db)),
        "integer" => Some(Ty::int(db)),
        "number" => Some(Ty::number(db)),
        "string" => Some(Ty::string(db)),
        _ => None,
    }
}

/// A literal as a constant value, numbers exact.
fn const_value(literal: &Literal) -> Result<ConstValue, String> {
    Ok(match literal {
        Literal::Null => ConstValue::Null,
        Literal::Bool(b) => ConstValue::Bool(*b),
        Literal::String(s) => ConstValue::String(SmolStr::new(s)),
        Literal::Number(text) => ConstValue::Number(NumberValue::parse_signed(text)?),
    })
}

/// `%2F` and friends in reference tokens.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if let [b'%', high, low, ..] = bytes[i..]
            && let (Some(high), Some(low)) = (hex(high), hex(low))
        {
            out.push((high * 16 + low) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
