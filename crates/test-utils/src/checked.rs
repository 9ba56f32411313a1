//! A seeded generator of realistic programs that check clean against a synthetic schema
//! of their own: resources of schema types with nested object inputs, references between
//! resources (chains and fan-out), locals, configs, outputs, for-expressions,
//! conditionals, templates, heredocs, invokes and `range` resources. For the benchmarks
//! of `pcl check` and for `cargo xtask gen-program --resources`.

use std::fmt::Write;

use crate::generate::Rng;

/// How many resource types (and functions) the schema has.
const TYPES: usize = 20;

/// A generated program: its files (name, text) and the schema of package `gen`.
pub struct CheckedProgram {
    pub files: Vec<(String, String)>,
    pub schema: String,
}

/// `resources` resources spread over `files` files, the same for the same seed.
pub fn checked_program(resources: usize, files: usize, seed: u64) -> CheckedProgram {
    let mut rng = Rng::new(seed);
    let files = files.max(1);
    let per_file = resources.div_ceil(files).max(1);
    let mut texts: Vec<(String, String)> = Vec::new();
    let mut current = String::from(
        "config \"env\" \"string\" {\n  default = \"dev\"\n}\n\nconfig \"protocols\" \"list(string)\" {\n  default = [\"tcp\", \"udp\"]\n}\n\n",
    );
    for i in 0..resources {
        resource(&mut current, &mut rng, i);
        if (i + 1) % per_file == 0 || i + 1 == resources {
            texts.push((
                format!("part{:04}.pp", texts.len()),
                std::mem::take(&mut current),
            ));
        }
    }
    if texts.is_empty() {
        texts.push(("part0000.pp".to_owned(), current));
    }
    CheckedProgram {
        files: texts,
        schema: schema(),
    }
}

fn resource(acc: &mut String, rng: &mut Rng, i: usize) {
    let kind = i % TYPES;
    let size = rng.below(1000);
    let enabled = rng.below(2) == 0;
    let port = 1 + rng.below(65000);
    let target = |j: usize| {
        if j % 50 == 49 {
            format!("first{j}.arn")
        } else {
            format!("r{j}.arn")
        }
    };
    let reference = match i {
        0 => "\"root\"".to_owned(),
        _ if i.is_multiple_of(3) => target(i / 2),
        _ => target(i - 1),
    };
    let ranged = i % 50 == 49;
    let options = if ranged {
        "  options {\n    range = 3\n  }\n"
    } else {
        ""
    };
    let name = if ranged {
        format!("\"r{i}-${{range.value}}\"")
    } else {
        format!("\"r{i}-${{env}}\"")
    };
    let _ = write!(
        acc,
        r#"resource "r{i}" "gen:index:Res{kind}" {{
{options}  name    = {name}
  size    = {size}
  enabled = {enabled}
  tags = {{
    team = "t{team}"
    env  = env
  }}
  spec = {{
    port      = {port}
    protocols = [for p in protocols : "${{p}}-{i}"]
    mode      = env == "prod" ? "strict" : "lenient"
  }}
  refId = {reference}
}}

"#,
        team = i % 7,
    );
    if ranged {
        // Later references to a ranged resource go through its first instance.
        let _ = writeln!(acc, "first{i} = r{i}[0]\n");
    }
    if i.is_multiple_of(10) {
        let _ = write!(
            acc,
            "label{i} = \"${{r{i}.name}}: %{{ if r{i}.size > 10 }}big%{{ else }}small%{{ endif }}\"\n\n"
        );
    }
    if i.is_multiple_of(25) {
        let _ = write!(
            acc,
            "lookup{i} = invoke(\"gen:index:lookup{kind}\", {{ name = r{i}.name }})\n\nzones{i} = [for z in lookup{i}.zones : \"zone-${{z}}\" if z != \"\"]\n\n"
        );
    }
    if i.is_multiple_of(40) {
        let _ = write!(
            acc,
            "doc{i} = <<-EOT\n  Resource r{i} of kind {kind}\n  endpoint: ${{r{i}.endpoint}}\n  EOT\n\noutput \"endpoint{i}\" {{\n  value = r{i}.endpoint\n}}\n\n"
        );
    }
}

/// The schema of package `gen`: `TYPES` resources `gen:index:Res{k}` with a nested spec
/// object, and functions `gen:index:lookup{k}`.
fn schema() -> String {
    let mut resources = Vec::new();
    let mut types = Vec::new();
    let mut functions = Vec::new();
    for k in 0..TYPES {
        types.push(format!(
            r##""gen:index:Spec{k}": {{"type": "object", "properties": {{
  "port": {{"type": "integer"}}, "protocols": {{"type": "array", "items": {{"type": "string"}}}},
  "mode": {{"type": "string"}}, "next": {{"$ref": "#/types/gen:index:Spec{k}"}}}}, "required": ["port"]}}"##
        ));
        resources.push(format!(
            r##""gen:index:Res{k}": {{"inputProperties": {{
  "name": {{"type": "string"}}, "size": {{"type": "integer"}}, "enabled": {{"type": "boolean"}},
  "tags": {{"type": "object", "additionalProperties": {{"type": "string"}}}},
  "spec": {{"$ref": "#/types/gen:index:Spec{k}"}}, "refId": {{"type": "string"}}}},
  "requiredInputs": ["name", "spec"],
  "properties": {{"name": {{"type": "string"}}, "size": {{"type": "integer"}}, "arn": {{"type": "string"}}, "endpoint": {{"type": "string"}}}},
  "required": ["name", "arn", "endpoint"]}}"##
        ));
        functions.push(format!(
            r##""gen:index:lookup{k}": {{"inputs": {{"properties": {{"name": {{"type": "string"}}}}, "required": ["name"]}},
  "outputs": {{"properties": {{"id": {{"type": "string"}}, "zones": {{"type": "array", "items": {{"type": "string"}}}}}}, "required": ["id", "zones"]}}}}"##
        ));
    }
    format!(
        "{{\"name\": \"gen\", \"version\": \"1.0.0\",\n\"resources\": {{\n{}\n}},\n\"types\": {{\n{}\n}},\n\"functions\": {{\n{}\n}}\n}}\n",
        resources.join(",\n"),
        types.join(",\n"),
        functions.join(",\n")
    )
}
