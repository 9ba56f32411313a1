//! A seeded generator of large Pulumi package schemas (JSON), shaped like the big cloud
//! providers: many resources, each with a handful of nested object types, enums,
//! arrays, maps and long descriptions.

use std::fmt::Write;

use crate::generate::Rng;

/// A schema for package `name` of at least `target_bytes`, the same for the same seed.
/// Resource `i` is `NAME:mod{i % 50}/res{i}:Res{i}`; its types are `NAME:mod{i % 50}/Res{i}Spec:...`.
pub fn schema(name: &str, target_bytes: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut resources = String::new();
    let mut types = String::new();
    let mut i = 0;
    while resources.len() + types.len() < target_bytes {
        let module = format!("mod{}", i % 50);
        let spec = format!("{name}:{module}/Res{i}Spec:Res{i}Spec");
        let rule = format!("{name}:{module}/Res{i}Rule:Res{i}Rule");
        let kind = format!("{name}:{module}/Res{i}Kind:Res{i}Kind");
        let description =
            "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(1 + rng.below(6));
        let _ = write!(
            types,
            r##"{sep}"{spec}": {{"type": "object", "description": "{description}", "properties": {{
  "name": {{"type": "string", "description": "{description}"}},
  "size": {{"type": "integer"}},
  "ratio": {{"type": "number"}},
  "enabled": {{"type": "boolean"}},
  "tags": {{"type": "object", "additionalProperties": {{"type": "string"}}}},
  "rules": {{"type": "array", "items": {{"$ref": "#/types/{rule}"}}}},
  "kind": {{"$ref": "#/types/{kind}"}},
  "next": {{"$ref": "#/types/{spec}"}}
}}, "required": ["name"]}},
"{rule}": {{"type": "object", "properties": {{
  "port": {{"type": "integer"}}, "protocol": {{"type": "string"}}, "cidrs": {{"type": "array", "items": {{"type": "string"}}}}
}}, "required": ["port"]}},
"{kind}": {{"type": "string", "enum": [{{"value": "small"}}, {{"value": "medium"}}, {{"value": "large"}}]}}"##,
            sep = if i == 0 { "" } else { ",\n" },
        );
        let _ = write!(
            resources,
            r##"{sep}"{name}:{module}/res{i}:Res{i}": {{"description": "{description}",
  "inputProperties": {{"spec": {{"$ref": "#/types/{spec}"}}, "region": {{"type": "string"}}, "count": {{"type": "integer"}}}},
  "requiredInputs": ["spec"],
  "properties": {{"spec": {{"$ref": "#/types/{spec}"}}, "region": {{"type": "string"}}, "arn": {{"type": "string"}}}},
  "required": ["spec", "arn"],
  "language": {{"nodejs": {{"requiredOutputs": ["spec"]}}, "python": {{"mapCase": false}}}}}}"##,
            sep = if i == 0 { "" } else { ",\n" },
        );
        i += 1;
    }
    format!(
        "{{\"name\": \"{name}\", \"version\": \"1.0.0\", \"meta\": {{\"moduleFormat\": \"(.*)(?:/[^/]*)\"}},\n\"resources\": {{\n{resources}\n}},\n\"types\": {{\n{types}\n}}\n}}\n"
    )
}
