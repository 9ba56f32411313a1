//! Decoded schema items: the parts of resources, functions and types that checking
//! uses. Fields we do not use (language sections, most docs) are skipped, not rejected.
//! Items are decoded one at a time, on demand, from their span in the file.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

use crate::error::{SchemaError, from_path_error, line_column};
use crate::index::{Span, package_index};
use crate::item::SchemaItem;

/// A type, a property, an object type definition or a function's return: Pulumi's
/// schema uses one shape for all of these.
#[derive(Deserialize, Clone, PartialEq, Eq, Debug, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct TypeSpec {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    #[serde(rename = "$ref")]
    pub reference: Option<String>,
    pub items: Option<Box<TypeSpec>>,
    pub additional_properties: Option<Box<TypeSpec>>,
    pub one_of: Vec<TypeSpec>,
    pub discriminator: Option<Discriminator>,
    pub plain: bool,
    pub secret: bool,
    #[serde(rename = "const", deserialize_with = "literal")]
    pub constant: Option<Literal>,
    pub description: Option<String>,
    pub deprecation_message: Option<String>,
    /// Object types: properties by name (`None` when the key is absent, which tells a
    /// scalar return type from an object one), and the names that are required.
    pub properties: Option<BTreeMap<String, TypeSpec>>,
    pub required: Vec<String>,
    /// Enum types: the allowed values.
    #[serde(rename = "enum")]
    pub enum_values: Option<Vec<EnumValueSpec>>,
}

/// No properties, for specs without any.
static NO_PROPERTIES: BTreeMap<String, TypeSpec> = BTreeMap::new();

impl TypeSpec {
    /// Whether this says nothing about a type (`{}`): a function whose `outputs` is
    /// empty has no return type.
    pub fn is_empty(&self) -> bool {
        self.kind.is_none()
            && self.reference.is_none()
            && self.one_of.is_empty()
            && self.properties.is_none()
            && self.items.is_none()
            && self.additional_properties.is_none()
    }

    /// The object properties, empty when there are none.
    pub fn properties(&self) -> &BTreeMap<String, TypeSpec> {
        self.properties.as_ref().unwrap_or(&NO_PROPERTIES)
    }
}

/// `oneOf` discriminator: the property that names the member, and the mapping from its
/// values to member references.
#[derive(Deserialize, Clone, PartialEq, Eq, Debug, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct Discriminator {
    pub property_name: String,
    pub mapping: BTreeMap<String, String>,
}

/// One value of an enum type.
#[derive(Deserialize, Clone, PartialEq, Eq, Debug)]
#[serde(rename_all = "camelCase")]
pub struct EnumValueSpec {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(deserialize_with = "required_literal")]
    pub value: Literal,
    #[serde(default)]
    pub description: Option<String>,
}

/// A JSON scalar, numbers kept as their exact text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Literal {
    Null,
    Bool(bool),
    Number(String),
    String(String),
}

fn required_literal<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Literal, D::Error> {
    let raw: Box<RawValue> = Deserialize::deserialize(deserializer)?;
    let text = raw.get().trim();
    match serde_json::from_str::<serde_json::Value>(text).map_err(serde::de::Error::custom)? {
        serde_json::Value::Null => Ok(Literal::Null),
        serde_json::Value::Bool(b) => Ok(Literal::Bool(b)),
        serde_json::Value::Number(_) => Ok(Literal::Number(text.to_owned())),
        serde_json::Value::String(s) => Ok(Literal::String(s)),
        _ => Err(serde::de::Error::custom(
            "expected a string, number, boolean or null",
        )),
    }
}

/// An optional literal: JSON `null` means "no constant", as in the reference.
fn literal<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Literal>, D::Error> {
    required_literal(deserializer).map(|literal| match literal {
        Literal::Null => None,
        literal => Some(literal),
    })
}

/// A resource (or the provider).
#[derive(Deserialize, Clone, PartialEq, Eq, Debug, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceSpec {
    pub description: Option<String>,
    pub properties: BTreeMap<String, TypeSpec>,
    pub required: Vec<String>,
    pub input_properties: BTreeMap<String, TypeSpec>,
    pub required_inputs: Vec<String>,
    pub state_inputs: Option<TypeSpec>,
    pub is_component: bool,
    pub methods: BTreeMap<String, String>,
    pub aliases: Vec<AliasSpec>,
    pub deprecation_message: Option<String>,
}

/// A former name of a resource: `{"type": "pkg:mod:Old"}`, or just the token.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct AliasSpec {
    pub token: Option<String>,
}

impl<'de> Deserialize<'de> for AliasSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<AliasSpec, D::Error> {
        #[derive(Deserialize)]
        struct Object {
            #[serde(default, rename = "type")]
            token: Option<String>,
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            Token(String),
            Object(Object),
        }
        Ok(match Form::deserialize(deserializer)? {
            Form::Token(token) => AliasSpec { token: Some(token) },
            Form::Object(object) => AliasSpec {
                token: object.token,
            },
        })
    }
}

/// A function (invoke).
#[derive(Deserialize, Clone, PartialEq, Eq, Debug, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct FunctionSpec {
    pub description: Option<String>,
    pub inputs: Option<TypeSpec>,
    /// An object with `properties`, or any type spec for a scalar return.
    pub outputs: Option<TypeSpec>,
    pub return_type: Option<TypeSpec>,
    pub multi_argument_inputs: Vec<String>,
    pub deprecation_message: Option<String>,
}

impl FunctionSpec {
    /// The return type and the key it was under: `outputs` (an object with
    /// `properties`, or any type spec for a scalar return; `{}` is none), else
    /// `returnType`.
    pub fn result(&self) -> Option<(&'static str, &TypeSpec)> {
        match (&self.outputs, &self.return_type) {
            (Some(outputs), _) if outputs.is_empty() => None,
            (Some(outputs), _) => Some(("outputs", outputs)),
            (None, Some(return_type)) => Some(("returnType", return_type)),
            (None, None) => None,
        }
    }
}

/// Which section an item is in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ItemKind {
    Resource,
    Function,
    Type,
    Provider,
    /// The package's configuration variables.
    Config,
}

impl ItemKind {
    /// The section's key in the schema.
    pub fn section(self) -> &'static str {
        match self {
            ItemKind::Resource => "resources",
            ItemKind::Function => "functions",
            ItemKind::Type => "types",
            ItemKind::Provider => "provider",
            ItemKind::Config => "config",
        }
    }
}

/// The package's configuration: variables, and which of them must be set (Pulumi's
/// `ConfigSpec.Required` is spelt `defaults` in JSON).
#[derive(Deserialize, Clone, PartialEq, Eq, Debug, Default)]
#[serde(default)]
pub struct ConfigSpec {
    pub variables: BTreeMap<String, TypeSpec>,
    #[serde(rename = "defaults")]
    pub required: Vec<String>,
}

/// A decoded item.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ItemSpec {
    Resource(Box<ResourceSpec>),
    Function(Box<FunctionSpec>),
    Type(Box<TypeSpec>),
    Config(Box<ConfigSpec>),
}

/// Decode one item from its span. `None` when the package has no such item (the
/// provider is then the default empty one).
#[salsa::tracked(returns(ref))]
pub fn decode_item<'db>(
    db: &'db dyn salsa::Database,
    item: SchemaItem<'db>,
) -> Result<Option<ItemSpec>, SchemaError> {
    let source = item.source(db);
    let index = package_index(db, source).as_ref().map_err(Clone::clone)?;
    let kind = item.kind(db);
    let token = item.token(db);
    let span = match kind {
        ItemKind::Resource => index.resources.exact(token).map(|(_, span)| span),
        ItemKind::Function => index.functions.exact(token).map(|(_, span)| span),
        ItemKind::Type => index.types.exact(token).map(|(_, span)| span),
        ItemKind::Provider => index.provider,
        ItemKind::Config => index.config,
    };
    let Some(Span { start, end }) = span else {
        return Ok(None);
    };
    let text = &source.text(db)[start..end];
    let base: Vec<&str> = match kind {
        ItemKind::Provider | ItemKind::Config => vec![kind.section()],
        _ => vec![kind.section(), token.as_str()],
    };
    let file = source.file(db);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let decoded = match kind {
        ItemKind::Resource | ItemKind::Provider => {
            serde_path_to_error::deserialize(&mut deserializer)
                .map(|s| ItemSpec::Resource(Box::new(s)))
        }
        ItemKind::Function => serde_path_to_error::deserialize(&mut deserializer)
            .map(|s| ItemSpec::Function(Box::new(s))),
        ItemKind::Type => {
            serde_path_to_error::deserialize(&mut deserializer).map(|s| ItemSpec::Type(Box::new(s)))
        }
        ItemKind::Config => serde_path_to_error::deserialize(&mut deserializer)
            .map(|s| ItemSpec::Config(Box::new(s))),
    };
    decoded
        .map(Some)
        .map_err(|e| from_path_error(file, &base, line_column(source.text(db), start), e))
}
