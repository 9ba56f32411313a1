//! What PCL writes for what a user of Pulumi's SDKs (TypeScript, Python, Go, C#) brings:
//! those languages' literals (`True`, `None`, `undefined`), the SDKs' names
//! (`pulumi.interpolate`, `config.require`, `ctx.Export`) and their standard libraries'
//! (`JSON.stringify`, `Math.max`, `len`). Each answer is a note, with a fix where the PCL
//! form replaces the name alone.

/// How an undefined name is written in PCL: a note, and the replacement when the name
/// alone changes (`True` to `true`).
pub(crate) struct Habit {
    pub(crate) note: String,
    pub(crate) fix: Option<&'static str>,
}

/// A name some other language has for a PCL literal or keyword, used undefined.
pub(crate) fn foreign_name(name: &str) -> Option<Habit> {
    let (note, fix) = match name {
        "True" | "TRUE" => ("PCL's booleans are lowercase: `true`", Some("true")),
        "False" | "FALSE" => ("PCL's booleans are lowercase: `false`", Some("false")),
        "None" | "undefined" | "nil" | "NULL" | "Null" => {
            ("PCL's empty value is `null`", Some("null"))
        }
        "not" => ("PCL negates with `!`: `!value`", None),
        "and" => ("PCL's logical and is `&&`", None),
        "or" => ("PCL's logical or is `||`", None),
        "new" => (
            "PCL has no `new`: a resource is a block, `resource NAME \"pkg:module:Type\" { inputs }`",
            None,
        ),
        "await" => (
            "PCL needs no `await`: use an `invoke(...)` or an output directly",
            None,
        ),
        "config" => (
            "PCL reads configuration with a block: `config NAME \"string\" {}` (or `\"int\"`, `\"bool\"`, with `secret = true` for a secret), then the value is `NAME`",
            None,
        ),
        "stack" | "project" | "organization" => {
            return Some(Habit {
                note: format!("`{name}` is a function in PCL: `{name}()`"),
                fix: None,
            });
        }
        _ => return None,
    };
    Some(Habit {
        note: note.to_owned(),
        fix,
    })
}

/// Whose `first` is, when `first.step` names something of the SDKs or of their
/// languages' libraries (`first` undefined in the program).
pub(crate) fn sdk_namespace(first: &str) -> Option<&'static str> {
    Some(match first {
        "config" | "Output" | "ctx" | "pulumi" => "the Pulumi SDKs'",
        "JSON" | "Math" | "Object" | "Buffer" | "process" | "fs" | "console" => "JavaScript's",
        "os" => "Python's",
        _ => return None,
    })
}

/// What PCL writes for `first.step`, an SDK's or a standard library's name.
pub(crate) fn sdk_reference(first: &str, step: &str) -> String {
    let template = "PCL needs no call for it: a string template takes outputs directly, `\"http://${site.endpoint}\"`";
    let together = "PCL needs no call for it: use the outputs together in one template, list or object (`\"${a.id}-${b.id}\"`, `[a.id, b.id]`)";
    let config = "PCL reads configuration with a block: `config NAME \"string\" {}` (or `\"int\"`, `\"bool\"`, with `secret = true` for a secret), then the value is `NAME`";
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
        ("pulumi", "Config") | ("config", _) => config.to_owned(),
        ("pulumi", "StackReference") => crate::builtins::STACK_REFERENCE.to_owned(),
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

/// What PCL calls a function of another language or SDK that a newcomer calls.
pub(crate) fn foreign_call(name: &str) -> Option<&'static str> {
    Some(match name {
        "len" => "`len` is Python's: PCL's is `length(value)`",
        "str" | "String" | "toString" => {
            "PCL turns a value into text in a template: `\"${value}\"`"
        }
        "getStack" => "PCL's is `stack()`",
        "getProject" => "PCL's is `project()`",
        "getOrganization" => "PCL's is `organization()`",
        "print" | "console" => {
            "PCL programs print nothing: export a value with `output NAME { value = ... }`"
        }
        _ => return None,
    })
}
