//! What PCL writes for what a user of Pulumi's SDKs (TypeScript, Python, Go, C#) brings:
//! those languages' literals (`True`, `None`, `undefined`), the SDKs' names
//! (`pulumi.interpolate`, `config.require`, `ctx.Export`) and their standard libraries'
//! (`JSON.stringify`, `Math.max`, `len`; the dotted names' table is the parser's,
//! [`pcl_syntax::foreign`]). Each answer is a note, with a fix where the PCL form replaces
//! the name alone.

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
        "config" => (pcl_syntax::foreign::CONFIG, None),
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
        "requireOutput" | "getOutputValue" | "requireOutputValue" => {
            "PCL reads a stack reference's output with `getOutput(reference, \"name\")`"
        }
        _ => return None,
    })
}
