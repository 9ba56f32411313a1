//! What PCL writes for the dotted names of Pulumi's SDKs and their languages' libraries
//! (`pulumi.interpolate`, `config.require`, `JSON.stringify`), shared by the parser (a
//! method call, `pulumi.String("x")`) and the checker (a name, `pulumi.secret`).

/// How PCL reads another stack's outputs, for a newcomer who calls a function for it.
pub const STACK_REFERENCE: &str = "a stack reference is a resource in PCL: `resource other \"pulumi:pulumi:StackReference\" { name = \"org/project/stack\" }`, read with `getOutput(other, \"outputName\")`";

/// How PCL reads configuration, for `config.require("x")` and its kin.
pub const CONFIG: &str = "PCL reads configuration with a block: `config NAME \"string\" {}` (or `\"int\"`, `\"bool\"`, with `secret = true` for a secret), then the value is `NAME`";

/// The SDKs' methods that read a config (`config.requireNumber("n")`).
pub const CONFIG_METHODS: &[&str] = &[
    "require",
    "requireNumber",
    "requireBoolean",
    "requireObject",
    "requireSecret",
    "require_int",
    "require_bool",
    "require_object",
    "require_secret",
    "getNumber",
    "getBoolean",
    "getObject",
    "getSecret",
    "get_int",
    "get_bool",
    "Require",
    "RequireInt",
    "RequireBool",
    "RequireSecret",
    "GetInt",
    "GetBool",
];

/// What other languages call a collection's size (`xs.length`, `xs.Count`, `len`).
pub const LENGTH_NAMES: &[&str] = &["length", "Length", "len", "size", "Size", "count", "Count"];

/// Whose `first` is, when `first.step` names something of the SDKs or of their
/// languages' libraries (`first` undefined in the program).
pub fn sdk_namespace(first: &str) -> Option<&'static str> {
    Some(match first {
        "config" | "Output" | "ctx" | "pulumi" => "the Pulumi SDKs'",
        "JSON" | "Math" | "Object" | "Buffer" | "process" | "fs" | "console" => "JavaScript's",
        "os" => "Python's",
        _ => return None,
    })
}

/// What PCL writes for `first.step`, an SDK's or a standard library's name.
pub fn sdk_reference(first: &str, step: &str) -> String {
    let template = "PCL needs no call for it: a string template takes outputs directly, `\"http://${site.endpoint}\"`";
    let together = "PCL needs no call for it: use the outputs together in one template, list or object (`\"${a.id}-${b.id}\"`, `[a.id, b.id]`)";
    match (first, step) {
        ("pulumi", "getStack" | "getProject" | "getOrganization") => {
            let function = step.trim_start_matches("get").to_ascii_lowercase();
            format!("PCL's is `{function}()`")
        }
        ("pulumi" | "Output", "interpolate" | "concat" | "format" | "Format" | "Sprintf") => {
            template.to_owned()
        }
        ("pulumi" | "Output", "all" | "All" | "Tuple" | "tuple") => together.to_owned(),
        ("pulumi" | "Output", "secret" | "Secret" | "CreateSecret" | "ToSecret") => {
            "PCL's is `secret(value)`".to_owned()
        }
        ("pulumi" | "Output", "unsecret" | "Unsecret") => "PCL's is `unsecret(value)`".to_owned(),
        ("pulumi" | "ctx", "export" | "Export") => {
            "stack outputs are blocks in PCL: `output NAME { value = ... }`".to_owned()
        }
        ("pulumi", "Config") | ("config", _) => CONFIG.to_owned(),
        ("pulumi", "Output") => together.to_owned(),
        ("pulumi", "StackReference") => STACK_REFERENCE.to_owned(),
        ("pulumi", "ResourceOptions" | "CustomResourceOptions" | "ComponentResourceOptions") => {
            "resource options go in the body's `options { ... }` block (`options { protect = true }`)"
                .to_owned()
        }
        ("pulumi", "ComponentResource") => {
            "a component is a directory of .pp files in PCL, used with `component NAME \"./dir\" { inputs }`"
                .to_owned()
        }
        ("pulumi", "asset") => {
            "PCL's assets and archives are builtins: `fileAsset(path)`, `stringAsset(text)`, `remoteAsset(url)`, `fileArchive(path)`, `assetArchive({ name = asset })`"
                .to_owned()
        }
        ("pulumi", asset)
            if matches!(
                asset,
                "FileAsset"
                    | "StringAsset"
                    | "RemoteAsset"
                    | "FileArchive"
                    | "AssetArchive"
                    | "RemoteArchive"
            ) =>
        {
            let mut builtin = asset.to_owned();
            builtin[..1].make_ascii_lowercase();
            format!("PCL's is the builtin `{builtin}(...)`")
        }
        // Go's input types (`pulumi.String("x")`, `pulumi.StringArray{...}`).
        ("pulumi", wrapper) if wrapper.starts_with(|c: char| c.is_ascii_uppercase()) => {
            "PCL needs no input wrappers: write the value itself (`\"text\"`, `3`, `[\"a\", \"b\"]`, `{ key = \"value\" }`)"
                .to_owned()
        }
        ("JSON", "stringify") => "PCL's is `toJSON(value)`".to_owned(),
        ("Math", "max" | "min") => format!("PCL's is `{step}(a, b)`"),
        ("Object", "entries") => "PCL's is `entries(object)`".to_owned(),
        ("Buffer", _) => "PCL encodes with `toBase64(text)` and decodes with `fromBase64(text)`".to_owned(),
        ("fs", _) => "PCL reads a file with `readFile(path)`".to_owned(),
        ("process" | "os", _) => {
            "PCL reads no environment variables: declare a config (`config NAME \"string\" {}`) and set it in the stack"
                .to_owned()
        }
        _ => format!(
            "PCL has no `{first}`: its builtins are called by name (`toJSON(value)`, `secret(value)`, `stack()`, `readFile(path)`)"
        ),
    }
}
