//! Function calls (§3.8, §5.5, §5.6, §6): the builtin functions with their signatures and
//! result rules, `invoke` of schema functions, and `call` of resource methods.

use pcl_diagnostics::{Severity, codes};
use pcl_schema::{FunctionTypes, ItemKind, SchemaItem, package_named, resolve_token};
use pcl_types::{Name, Ty, TyKind, input_type, pretty, resolve_outputs, unify_types};
use smol_str::SmolStr;

use crate::constants::{path_text, primitive_kind};
use crate::diagnostics::Site;
use crate::hir::{Expr, ExprId};
use crate::inference::{Infer, all_assignable, eventual_of, lift};
use crate::items::token_package;
use crate::resources::{get_schema_note, quoted_list};
use crate::scope::Resolution;

/// Every builtin's name, for suggestions and completion.
pub const BUILTIN_FUNCTIONS: &[&str] = &[
    "assetArchive",
    "call",
    "can",
    "cwd",
    "element",
    "entries",
    "fileArchive",
    "fileAsset",
    "filebase64",
    "filebase64sha256",
    "fromBase64",
    "getOutput",
    "invoke",
    "join",
    "length",
    "lookup",
    "max",
    "min",
    "notImplemented",
    "organization",
    "project",
    "pulumiResourceName",
    "pulumiResourceType",
    "range",
    "readFile",
    "recover",
    "remoteArchive",
    "remoteAsset",
    "rootDirectory",
    "secret",
    "sha1",
    "singleOrNone",
    "split",
    "stack",
    "stringAsset",
    "toBase64",
    "toJSON",
    "try",
    "unsecret",
];

/// What each builtin does, in a sentence (hover and completion show it).
pub fn builtin_summary(name: &str) -> Option<&'static str> {
    Some(match name {
        "assetArchive" => {
            "An archive made of named assets and archives: `assetArchive({ \"index.html\" = fileAsset(\"./index.html\") })`."
        }
        "call" => "Calls a method of a resource: `call(resource, \"method\", { arguments })`.",
        "can" => "Whether evaluating the expression succeeds, as a bool.",
        "cwd" => "The directory the program runs in.",
        "element" => "The element of a list at an index, from 0.",
        "entries" => {
            "The entries of a list or map as a list of `{ key, value }` objects, for a `range` or a `for`."
        }
        "fileArchive" => {
            "An archive read from a file or directory at a path relative to the program."
        }
        "fileAsset" => "An asset read from a file at a path relative to the program.",
        "filebase64" => "The contents of a file, base64-encoded.",
        "filebase64sha256" => "The SHA-256 hash of a file's contents, base64-encoded.",
        "fromBase64" => "Decodes a base64 string.",
        "getOutput" => "An output of another stack: `getOutput(stackReference, \"name\")`.",
        "invoke" => {
            "Calls a function of a package's schema: `invoke(\"pkg:module:function\", { arguments })`."
        }
        "join" => "Joins a list of strings with a separator: `join(\",\", names)`.",
        "length" => {
            "The number of elements of a list, map or object, or of characters of a string."
        }
        "lookup" => "The value of a map at a key, or the default when it has none.",
        "max" => "The largest of its numbers.",
        "min" => "The smallest of its numbers.",
        "notImplemented" => {
            "A placeholder a converter left for what it could not translate: it throws when the program runs."
        }
        "organization" => "The name of the organization the stack belongs to.",
        "project" => "The name of the project.",
        "pulumiResourceName" => "The name of a resource, as Pulumi knows it.",
        "pulumiResourceType" => "The type token of a resource.",
        "range" => {
            "A list of numbers: `range(n)` from 0 to n-1, `range(from, to)` from `from` to `to`-1."
        }
        "readFile" => "The contents of a file, as a string.",
        "recover" => "An output whose failure is replaced by a value: `recover(output, value)`.",
        "remoteArchive" => "An archive fetched from a URL.",
        "remoteAsset" => "An asset fetched from a URL.",
        "rootDirectory" => "The directory of the program's project (where `Pulumi.yaml` is).",
        "secret" => {
            "Marks a value as secret: Pulumi encrypts it in the state and hides it in output."
        }
        "sha1" => "The SHA-1 hash of a string, hex-encoded.",
        "singleOrNone" => {
            "The only element of a list, or `null` for an empty list (more elements fail)."
        }
        "split" => "Splits a string at a separator into a list: `split(\",\", text)`.",
        "stack" => "The name of the stack being deployed.",
        "stringAsset" => "An asset whose contents are the given string.",
        "toBase64" => "Encodes a string in base64.",
        "toJSON" => "A value written as JSON text.",
        "try" => "The value of the first of its expressions that evaluates without an error.",
        "unsecret" => "The plain value of a secret one.",
        _ => return None,
    })
}

/// A fixed signature: parameters (the last `optional` of them may be left out), an
/// optional variadic parameter, and the result.
struct Signature<'db> {
    params: Vec<(&'static str, Ty<'db>)>,
    optional: usize,
    varargs: Option<Ty<'db>>,
    result: Ty<'db>,
}

fn static_signature<'db>(db: &'db dyn pcl_types::Db, name: &str) -> Option<Signature<'db>> {
    let string = Ty::string(db);
    let archive = Ty::opaque(db, "Archive");
    let asset = Ty::opaque(db, "Asset");
    let sig = |params: Vec<(&'static str, Ty<'db>)>, result| Signature {
        params,
        optional: 0,
        varargs: None,
        result,
    };
    Some(match name {
        "range" => Signature {
            params: vec![("fromOrTo", Ty::int(db)), ("to", Ty::int(db))],
            optional: 1,
            varargs: None,
            result: Ty::list(db, Ty::int(db)),
        },
        "join" => sig(
            vec![("separator", string), ("strings", Ty::list(db, string))],
            string,
        ),
        "split" => sig(
            vec![("separator", string), ("string", string)],
            Ty::list(db, string),
        ),
        "readFile" | "filebase64" | "filebase64sha256" | "sha1" | "toBase64" | "fromBase64" => {
            sig(vec![("value", string)], string)
        }
        "toJSON" => sig(vec![("value", Ty::dynamic(db))], string),
        "fileArchive" => sig(vec![("path", string)], archive),
        "remoteArchive" => sig(vec![("uri", string)], archive),
        "assetArchive" => sig(
            vec![("assets", Ty::map(db, Ty::union(db, [archive, asset])))],
            archive,
        ),
        "fileAsset" => sig(vec![("path", string)], asset),
        "stringAsset" => sig(vec![("value", string)], asset),
        "remoteAsset" => sig(vec![("uri", string)], asset),
        "stack" | "project" | "organization" | "cwd" | "rootDirectory" => sig(vec![], string),
        "notImplemented" => sig(vec![("errorMessage", string)], Ty::dynamic(db)),
        "getOutput" => sig(
            vec![("stackReference", Ty::dynamic(db)), ("outputName", string)],
            Ty::output(db, Ty::dynamic(db)),
        ),
        _ => return None,
    })
}

/// Type a call expression.
pub(crate) fn call<'db>(
    infer: &mut Infer<'db>,
    id: ExprId,
    name: &SmolStr,
    args: &[ExprId],
    expand: bool,
) -> Ty<'db> {
    let db = infer.db;
    let mut types = Vec::with_capacity(args.len());
    let guards = matches!(name.as_str(), "try" | "can");
    let json = name == "toJSON";
    infer.guarded += u32::from(guards);
    infer.in_json += u32::from(json);
    for (i, &arg) in args.iter().enumerate() {
        if name == "recover" && i == 1 {
            infer.locals.push(("error".into(), Ty::string(db)));
            types.push(infer.expr(arg));
            infer.locals.pop();
        } else {
            types.push(infer.expr(arg));
        }
    }
    infer.guarded -= u32::from(guards);
    infer.in_json -= u32::from(json);
    if expand && let Some(last) = types.pop() {
        match resolve_outputs(db, last).kind(db) {
            TyKind::Tuple(elements) => types.extend(elements.iter().copied()),
            TyKind::List(e) | TyKind::Set(e) => types.push(*e),
            _ => types.push(last),
        }
    }
    match name.as_str() {
        "invoke" => {
            // `--skip-invoke-typecheck` demotes the checks of the arguments' constants.
            let demoted = infer.demote_value_checks;
            infer.demote_value_checks |= infer.leniency.skip_invoke_typecheck;
            let result = invoke(infer, id, args, &types);
            infer.demote_value_checks = demoted;
            return result;
        }
        "call" => return method_call(infer, id, args, &types),
        _ => {}
    }
    if let Some(result) = generic(infer, id, name, (args, expand), &types) {
        return result;
    }
    let Some(signature) = static_signature(db, name) else {
        let suggestion = pcl_types::closest_name(name, BUILTIN_FUNCTIONS.iter().copied());
        let foreign = foreign_function(name)
            .or_else(|| crate::sdk_habits::foreign_call(name).map(str::to_owned));
        let message = format!("unknown function `{name}`");
        let at_name = infer.at(Site::CallName(id));
        let diagnostic = infer.report(codes::UNKNOWN_FUNCTION, Site::Expr(id), message);
        match suggestion {
            _ if REMOVED_BUILTINS.contains(&name.as_str()) => diagnostic.notes.push(format!(
                "`{name}` was removed from PCL in Pulumi 3.230.0: `pulumi convert` no longer \
                 knows it (older versions did)"
            )),
            _ if foreign.is_some() => diagnostic.notes.extend(foreign),
            Some(s) => {
                diagnostic.notes.push(format!("did you mean `{s}`?"));
                diagnostic.replace_with(at_name, &format!("`{s}`"), s.to_owned());
            }
            None => diagnostic.notes.push(
                "schema functions are called with `invoke(\"pkg:module:function\", {..})`"
                    .to_owned(),
            ),
        }
        return infer.dynamic();
    };
    if name == "getOutput"
        && let (Some(&first), Some(&ty)) = (args.first(), types.first())
    {
        stack_reference_argument(infer, first, ty);
    }
    if name == "toJSON"
        && let Some(&first) = args.first()
    {
        json_of_resource(infer, first);
    }
    if name == "notImplemented" {
        not_implemented(infer, id);
    }
    static_call(infer, id, name, (args, expand), &types, &signature)
}

/// The builtins that read the file (or directory, for `fileArchive`) a path names.
const FILE_READING_BUILTINS: &[&str] = &[
    "fileArchive",
    "fileAsset",
    "filebase64",
    "filebase64sha256",
    "readFile",
];

/// The calls of a declaration that read a file at a literal path (`fileAsset("./a.txt")`):
/// each path argument, with the builtin and the path. A query of its own, so a driver that
/// looks for the files after every edit walks only the bodies that changed.
#[salsa::tracked(returns(ref))]
pub fn literal_file_reads<'db>(
    db: &'db dyn salsa::Database,
    decl: crate::items::DeclId<'db>,
) -> Box<[(ExprId, SmolStr, SmolStr)]> {
    let body = crate::hir::body(db, decl);
    (body.exprs.iter())
        .filter_map(|expr| {
            let Expr::Call(call) = expr else { return None };
            let function = FILE_READING_BUILTINS.iter().find(|f| **f == call.name)?;
            let &path_arg = body.list(call.args).first()?;
            let Expr::String(path) = body.expr(path_arg) else {
                return None;
            };
            Some((
                path_arg,
                SmolStr::new(function),
                SmolStr::new(body.str(*path)),
            ))
        })
        .collect()
}

/// A Terraform function that PCL has no builtin for, with its call through Pulumi's `std`
/// package (`arguments` as its schema names them).
fn std_function_note(name: &str, arguments: &str) -> String {
    format!(
        "`{name}` is a Terraform function, no PCL builtin: Pulumi's `std` package has it, called as the Terraform converter writes it: `invoke(\"std:index:{name}\", {arguments}).result` (its schema: `pulumi package get-schema std`)"
    )
}

/// What PCL writes for a function of Terraform or of Pulumi YAML (`fn::join`, also written
/// `Fn::Join`) that a newcomer calls: PCL's builtin of the same job, or how to do without.
pub(crate) fn foreign_function(name: &str) -> Option<String> {
    // Pulumi YAML writes `fn::join`; CloudFormation, which newcomers also bring, `Fn::Join`.
    let yaml = name
        .strip_prefix("fn::")
        .or_else(|| name.strip_prefix("Fn::"))
        .map(str::to_ascii_lowercase);
    let whose = match name.starts_with("fn::") {
        true => "Pulumi YAML's",
        false => "not PCL's",
    };
    if let Some(yaml) = yaml {
        let pcl = match yaml.as_str() {
            "join" => "join(separator, list)",
            "split" => "split(separator, text)",
            "select" => "element(list, index)",
            "tojson" => "toJSON(value)",
            "tobase64" => "toBase64(text)",
            "frombase64" => "fromBase64(text)",
            "secret" => "secret(value)",
            "readfile" => "readFile(path)",
            "invoke" => "invoke(\"pkg:module:function\", { arguments })",
            "stackreference" => return Some(STACK_REFERENCE.to_owned()),
            "fileasset" => "fileAsset(path)",
            "stringasset" => "stringAsset(text)",
            "remoteasset" => "remoteAsset(url)",
            "filearchive" => "fileArchive(path)",
            "assetarchive" => "assetArchive({ name = asset })",
            _ => {
                return Some(format!(
                    "`{name}` is {whose}: PCL calls its builtins by their own names (`join`, `split`, `toJSON`, `invoke`, ...)"
                ));
            }
        };
        return Some(format!("`{name}` is {whose}: PCL writes `{pcl}`"));
    }
    let pcl = match name {
        "jsonencode" => "PCL's is `toJSON(value)`",
        "file" => "PCL's is `readFile(path)`",
        "base64encode" => "PCL's is `toBase64(text)`",
        "base64decode" => "PCL's is `fromBase64(text)`",
        "sensitive" => "PCL's is `secret(value)`",
        "nonsensitive" => "PCL's is `unsecret(value)`",
        "one" => "PCL's is `singleOrNone(list)`",
        "format" => "PCL writes a template instead: `\"${name}-${index}\"`",
        "templatefile" => {
            "PCL has no template files: write the template in the program, or read the file with `readFile(path)`"
        }
        "stackReference" | "stackreference" => return Some(STACK_REFERENCE.to_owned()),
        // Pulumi's `std` package has Terraform's functions, called as the Terraform
        // converter writes them.
        "tomap" => "PCL's object literal is a map already: `{ key = value }`",
        "jsondecode" | "concat" | "merge" | "coalesce" | "tolist" | "toset" | "tostring"
        | "tonumber" | "upper" | "lower" | "keys" | "values" | "flatten" | "distinct"
        | "abspath" | "basename" | "dirname" | "md5" | "sha256" | "trimspace" | "compact"
        | "coalescelist" => {
            return Some(std_function_note(name, "{ input = value }"));
        }
        "timestamp" | "uuid" => return Some(std_function_note(name, "{}")),
        "cidrsubnet" | "cidrhost" | "replace" | "contains" | "zipmap" | "regex" | "substr"
        | "formatlist" | "trim" => {
            return Some(std_function_note(name, "{ ... }"));
        }
        _ => return None,
    };
    Some(format!("`{name}` is a Terraform function: {pcl}"))
}

/// How PCL reads another stack's outputs, for a newcomer who calls a function for it.
pub(crate) const STACK_REFERENCE: &str = pcl_syntax::foreign::STACK_REFERENCE;

/// Builtins Pulumi has removed from PCL (pulumi/pulumi#22449, in 3.230.0), reported as
/// unknown functions as its binder does, with a note on why.
const REMOVED_BUILTINS: &[&str] = &["mimeType", "readDir"];

/// `notImplemented("...")`, which `pulumi convert --from terraform` writes for what it
/// cannot translate: every converted program throws when it evaluates the call. A warning
/// in every mode: a placeholder written on purpose, not a mistake in the program's text.
fn not_implemented(infer: &mut Infer<'_>, id: ExprId) {
    let message = "`notImplemented` throws when the program runs".to_owned();
    let diagnostic = infer.push(
        codes::NOT_IMPLEMENTED,
        Severity::Warning,
        Site::Expr(id),
        message,
    );
    diagnostic.notes.push(
        "a converter left this placeholder for what it could not translate: write the value \
         it stands for before deploying"
            .to_owned(),
    );
}

/// Whether `token` names the stack reference resource in any of the spellings tokens
/// resolve by (`pulumi:pulumi:StackReference`, `pulumi:index:StackReference`,
/// `pulumi:StackReference`).
fn is_stack_reference(token: &str) -> bool {
    pcl_schema::package_of(token) == Some("pulumi")
        && pcl_schema::canonical(token, "pulumi", None).as_deref() == Some("pulumi::StackReference")
}

/// `getOutput("acme/network/prod", "vpcId")`: Go takes any first argument, and the
/// converted program fails on one that is not a `pulumi:pulumi:StackReference` resource.
/// An error beyond Go for a plain value or another resource.
fn stack_reference_argument<'db>(infer: &mut Infer<'db>, arg: ExprId, ty: Ty<'db>) {
    const STACK_REFERENCE_TOKEN: &str = "pulumi:pulumi:StackReference";
    let db = infer.db;
    let given = match crate::resources::named_resource(infer, arg) {
        Some((_, token)) if is_stack_reference(token) => return,
        Some((name, token)) => format!("but `{name}` is a `{token}`"),
        None if primitive_kind(db, ty).is_some() => {
            format!("not a value of type {}", pretty(db, ty))
        }
        None => return,
    };
    let severity = infer.lenient_beyond_go_severity();
    let at = infer.at(Site::Expr(arg));
    let message = format!(
        "the first argument to `getOutput` must be a `{STACK_REFERENCE_TOKEN}` resource, {given}"
    );
    // The stack references the program declares, by name (looked for only here, when
    // the error is reported).
    let program = crate::scope::program_scope(db, infer.decl.program(db));
    let mut declared: Vec<(&str, bool)> = (program.names.iter())
        .filter_map(|(name, decl)| {
            let item = crate::items::decl_item(db, *decl)?;
            (decl.kind(db) == crate::items::DeclKind::Resource
                && item.label.as_deref().is_some_and(is_stack_reference))
            .then_some((name.as_str(), item.ranged))
        })
        .collect();
    declared.sort_unstable();
    let body = infer.body;
    let diagnostic = infer.push(codes::INVALID_ARGUMENT, severity, Site::Expr(arg), message);
    match declared.as_slice() {
        // The one stack reference: the fix, unless it has a `range` (which index is meant
        // is not known).
        [(reference, ranged)] => {
            let note = format!("`{reference}` is the stack reference of this program");
            diagnostic.notes.push(note);
            if !ranged {
                diagnostic.replace_with(at, &format!("`{reference}`"), (*reference).to_owned());
            }
        }
        [] => {
            let stack = match body.expr(arg) {
                Expr::String(text) => crate::constants::string_literal(body.str(*text)),
                _ => "\"org/project/stack\"".to_owned(),
            };
            diagnostic.notes.push(format!(
                "declare one, `resource other \"{STACK_REFERENCE_TOKEN}\" {{ name = {stack} }}`, \
                 and write `getOutput(other, ...)`"
            ));
        }
        several => {
            let names: Vec<String> = several
                .iter()
                .map(|(name, _)| format!("`{name}`"))
                .collect();
            diagnostic.notes.push(format!(
                "the program's stack references are {}",
                names.join(", ")
            ));
        }
    }
}

fn static_call<'db>(
    infer: &mut Infer<'db>,
    id: ExprId,
    name: &str,
    (args, expand): (&[ExprId], bool),
    types: &[Ty<'db>],
    signature: &Signature<'db>,
) -> Ty<'db> {
    let db = infer.db;
    let required = signature.params.len() - signature.optional;
    if types.len() < required {
        let missing: Vec<&str> = signature.params[types.len()..required]
            .iter()
            .map(|(n, _)| *n)
            .collect();
        let message = format!(
            "`{name}` is missing its argument {}",
            missing
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        infer
            .report(codes::WRONG_ARGUMENT_COUNT, Site::Expr(id), message)
            .notes
            .push(usage(db, name, signature));
    }
    if signature.varargs.is_none() && types.len() > signature.params.len() {
        let count = signature.params.len();
        let plural = if count == 1 { "" } else { "s" };
        let message = format!(
            "`{name}` takes {count} argument{plural}, not {}",
            types.len()
        );
        infer
            .report(codes::WRONG_ARGUMENT_COUNT, Site::Expr(id), message)
            .notes
            .push(usage(db, name, signature));
    }
    if let Some(result) = swapped_arguments(infer, id, name, expand, types, signature) {
        return result;
    }
    // With `f(xs...)`, the last argument stands for as many as its elements.
    let direct = if expand {
        args.len().saturating_sub(1)
    } else {
        args.len()
    };
    let mut pairs = Vec::new();
    for (i, &ty) in types.iter().enumerate() {
        let Some(param) = signature
            .params
            .get(i)
            .map(|(_, t)| *t)
            .or(signature.varargs)
        else {
            break;
        };
        pairs.push((param, ty));
        let what = crate::diagnostics::Described(|| format!("argument {} of `{name}`", i + 1));
        if i < direct {
            infer.check_value(args[i], input_type(db, param), &what);
        } else if let Some(&expanded) = args.last()
            && !pcl_types::conversion(db, input_type(db, param), ty).exists()
        {
            let message = format!(
                "{what} must be {}, not {}",
                pretty(db, param),
                pretty(db, ty)
            );
            infer.report(codes::TYPE_MISMATCH, Site::Expr(expanded), message);
        }
    }
    if all_assignable(db, &pairs) {
        signature.result
    } else {
        lift(db, signature.result, types)
    }
}

/// `join(names, "-")`: two arguments that each fit the other's parameter and not their
/// own are written the other way round: one error that says so, not one per argument.
fn swapped_arguments<'db>(
    infer: &mut Infer<'db>,
    id: ExprId,
    name: &str,
    expand: bool,
    types: &[Ty<'db>],
    signature: &Signature<'db>,
) -> Option<Ty<'db>> {
    let db = infer.db;
    let (&[first, second], &[(first_name, first_param), (second_name, second_param)]) =
        (types, signature.params.as_slice())
    else {
        return None;
    };
    let fits = |param: Ty<'db>, ty: Ty<'db>| {
        pcl_types::conversion(db, input_type(db, param), ty) == pcl_types::Conversion::Safe
    };
    if expand
        || fits(first_param, first)
        || fits(second_param, second)
        || !fits(first_param, second)
        || !fits(second_param, first)
    {
        return None;
    }
    let message = format!(
        "the arguments of `{name}` are the other way round: its {first_name} comes first, then its {second_name}"
    );
    let diagnostic = infer.report(codes::TYPE_MISMATCH, Site::Expr(id), message);
    diagnostic.notes.push(usage(db, name, signature));
    Some(lift(db, signature.result, types))
}

/// A builtin's parameters and its signature as text (`join(separator: string, strings:
/// list(string)) -> string`), for signature help; `None` for other names.
pub fn builtin_signature(db: &dyn pcl_types::Db, name: &str) -> Option<(Vec<String>, String)> {
    if let Some(signature) = static_signature(db, name) {
        let params: Vec<String> = (signature.params.iter())
            .map(|(n, t)| format!("{n}: {}", pretty(db, *t)))
            .collect();
        let label = format!(
            "{name}({}) -> {}",
            params.join(", "),
            pretty(db, signature.result)
        );
        return Some((params, label));
    }
    let (params, result): (&[&str], &str) = match name {
        "element" => (&["list: list(T) | tuple", "index: int"], "T"),
        "entries" => (
            &["collection: list(T) | map(T) | object"],
            "list({ key, value })",
        ),
        "length" => (&["value: list | map | object | tuple | string"], "int"),
        "lookup" => (&["map: map(T) | object", "key: string", "default: T?"], "T"),
        "secret" | "unsecret" => (&["value: T"], "output(T)"),
        "singleOrNone" => (&["list: list(T) | tuple"], "T?"),
        "try" => (&["expressions: T..."], "T"),
        "can" => (&["expression: dynamic"], "bool"),
        "recover" => (&["value: output(T)", "recovery: T"], "output(T)"),
        "max" | "min" => (&["first: number", "rest: number..."], "number"),
        "pulumiResourceType" | "pulumiResourceName" => (&["resource: resource"], "string"),
        "invoke" => (
            &[
                "token: string",
                "args: object",
                "options: { provider, parent, version, pluginDownloadUrl, dependsOn }?",
            ],
            "promise(result) | output(result)",
        ),
        "call" => (
            &["resource: resource", "method: string", "args: object"],
            "output(result)",
        ),
        _ => return None,
    };
    let params: Vec<String> = params.iter().map(|p| (*p).to_owned()).collect();
    let label = format!("{name}({}) -> {result}", params.join(", "));
    Some((params, label))
}

fn usage<'db>(db: &'db dyn pcl_types::Db, name: &str, signature: &Signature<'db>) -> String {
    let params: Vec<String> = (signature.params.iter())
        .map(|(n, t)| format!("{n}: {}", pretty(db, *t)))
        .collect();
    format!(
        "usage: {name}({}) -> {}",
        params.join(", "),
        pretty(db, signature.result)
    )
}

/// Check the number of arguments of a builtin with a computed signature.
fn arity(
    infer: &mut Infer<'_>,
    id: ExprId,
    name: &str,
    count: usize,
    min: usize,
    max: usize,
) -> bool {
    if (min..=max).contains(&count) {
        return true;
    }
    let expected = match (min, max) {
        (min, max) if min == max => format!("{min}"),
        (min, usize::MAX) => format!("at least {min}"),
        (min, max) => format!("{min} to {max}"),
    };
    let message = format!(
        "`{name}` takes {expected} argument{}, not {count}",
        if min == 1 && (max == 1 || max == usize::MAX) {
            ""
        } else {
            "s"
        }
    );
    infer.report(codes::WRONG_ARGUMENT_COUNT, Site::Expr(id), message);
    false
}

fn bad_argument<'db>(infer: &mut Infer<'db>, arg: ExprId, message: String) -> Ty<'db> {
    infer.report(codes::INVALID_ARGUMENT, Site::Expr(arg), message);
    infer.dynamic()
}

/// `toJSON(bucket)`: Go serializes any value, but a resource is no JSON value to the
/// converted program (Python's `json.dumps` fails on it; TypeScript writes a warning in
/// place of each output). An error beyond Go.
fn json_of_resource<'db>(infer: &mut Infer<'db>, arg: ExprId) {
    let Some((name, _)) = crate::resources::named_resource(infer, arg) else {
        return;
    };
    let severity = infer.lenient_beyond_go_severity();
    let message = format!("`toJSON` of a whole resource: `{name}` is not a JSON value");
    // `pets[0]` is one resource; `pets`, with a `range`, a collection of them.
    let note = match infer.body.expr(arg) {
        Expr::Index { .. } | Expr::Name(_)
            if !matches!(
                crate::inference::unwrap_iterable(infer.db, infer.ty_of(arg)).kind(infer.db),
                TyKind::List(_) | TyKind::Map(_)
            ) =>
        {
            let one = path_text(infer.body, arg).unwrap_or_else(|| name.to_owned());
            format!("serialize the attributes wanted, such as `toJSON({{ urn = {one}.urn }})`")
        }
        _ => {
            format!("serialize the attributes wanted, such as `toJSON([for r in {name} : r.urn])`")
        }
    };
    (infer
        .push(codes::INVALID_ARGUMENT, severity, Site::Expr(arg), message)
        .notes)
        .push(note);
}

/// `length(5)`: Go converts the number to a string and counts its characters, but the
/// converted program fails (`len(5)` in Python) or reads nothing (`(5).length` in
/// TypeScript). An error beyond Go.
fn length_of_scalar<'db>(infer: &mut Infer<'db>, arg: ExprId, ty: Ty<'db>) {
    let db = infer.db;
    let severity = infer.lenient_beyond_go_severity();
    let message = format!(
        "the argument to `length` must be a list, map, object, tuple or string, not {}",
        pretty(db, ty)
    );
    let written = path_text(infer.body, arg).unwrap_or_else(|| "value".to_owned());
    let note = format!(
        "Pulumi's binder reads it as a string, but the converted program fails on it; to \
         count the characters of its text, write `length(toJSON({written}))`"
    );
    (infer
        .push(codes::INVALID_ARGUMENT, severity, Site::Expr(arg), message)
        .notes)
        .push(note);
}

/// Wrap `result` in an output when `ty` contains an eventual.
fn output_if_eventual<'db>(db: &'db dyn pcl_types::Db, result: Ty<'db>, ty: Ty<'db>) -> Ty<'db> {
    if eventual_of(db, ty).is_some() {
        Ty::output(db, result)
    } else {
        result
    }
}

/// Whether `arg` names a config (whose `dynamic` type is a declared `any`, not a gap in
/// what we know).
fn first_is_config(infer: &Infer<'_>, arg: ExprId) -> bool {
    match infer.body.expr(arg) {
        Expr::Name(name) => matches!(
            infer.bindings_of(infer.body.str(*name)),
            Some(Resolution::Decl(decl)) if decl.kind(infer.db) == crate::items::DeclKind::Config
        ),
        _ => false,
    }
}

/// The builtins whose result depends on their arguments' types; `None` for other names.
fn generic<'db>(
    infer: &mut Infer<'db>,
    id: ExprId,
    name: &str,
    (args, expand): (&[ExprId], bool),
    types: &[Ty<'db>],
) -> Option<Ty<'db>> {
    let db = infer.db;
    let n = types.len();
    let first = types.first().copied().unwrap_or_else(|| infer.dynamic());
    let first_arg = args.first().copied().unwrap_or(id);
    Some(match name {
        "element" => {
            if !arity(infer, id, name, n, 2, 2) {
                return Some(infer.dynamic());
            }
            if infer.expect(args[1], input_type(db, Ty::int(db)), &"the index") {
                infer.check_constant(args[1], Ty::int(db), &"the index");
            }
            let element =
                match crate::inference::unwrap_iterable(db, resolve_outputs(db, first)).kind(db) {
                    TyKind::List(e) => *e,
                    TyKind::Tuple(elements) => unify_types(db, elements.iter().copied()).1,
                    // Go's `SkipRangeTypechecking` drops this error.
                    // Go's `SkipRangeTypechecking` drops this error; strict, even a
                    // `dynamic` value is one (as Go: `config x "any"`), unless it comes
                    // from a resource whose schema is missing (already reported).
                    _ if infer.leniency.skip_range_typecheck || infer.lenient => infer.dynamic(),
                    TyKind::Dynamic if !first_is_config(infer, first_arg) => infer.dynamic(),
                    _ => {
                        return Some(bad_argument(
                            infer,
                            first_arg,
                            format!(
                                "the first argument to `element` must be a list or tuple, not {}",
                                pretty(db, first)
                            ),
                        ));
                    }
                };
            output_if_eventual(db, element, first)
        }
        "entries" => {
            if !arity(infer, id, name, n, 1, 1) {
                return Some(infer.dynamic());
            }
            let (key, value) = infer.collection_types(first_arg, first);
            let entry = Ty::object(db, [(Name::from("key"), key), (Name::from("value"), value)]);
            output_if_eventual(db, Ty::list(db, entry), first)
        }
        "length" => {
            if !arity(infer, id, name, n, 1, 1) {
                return Some(infer.dynamic());
            }
            let resolved = crate::inference::unwrap_iterable(db, resolve_outputs(db, first));
            let fine = matches!(
                resolved.kind(db),
                TyKind::List(_)
                    | TyKind::Map(_)
                    | TyKind::Object(_)
                    | TyKind::Named(_)
                    | TyKind::Tuple(_)
                    | TyKind::Set(_)
            ) || pcl_types::conversion(db, Ty::string(db), resolved).exists();
            if !fine {
                bad_argument(
                    infer,
                    first_arg,
                    format!(
                        "the argument to `length` must be a list, map, object, tuple or string, not {}",
                        pretty(db, first)
                    ),
                );
            } else if matches!(primitive_kind(db, resolved), Some("number" | "bool")) {
                length_of_scalar(infer, first_arg, first);
            }
            output_if_eventual(db, Ty::int(db), first)
        }
        "lookup" => {
            if !arity(infer, id, name, n, 2, 3) {
                return Some(infer.dynamic());
            }
            infer.expect(args[1], input_type(db, Ty::string(db)), &"the key");
            let resolved = crate::inference::unwrap_iterable(db, resolve_outputs(db, first));
            let element = match resolved.kind(db) {
                TyKind::Map(e) => *e,
                TyKind::Object(_) | TyKind::Named(_) => {
                    let fields = pcl_types::object_properties(db, resolved).unwrap_or_default();
                    unify_types(db, fields.iter().map(|(_, t)| *t)).1
                }
                TyKind::Dynamic => infer.dynamic(),
                _ => {
                    return Some(bad_argument(
                        infer,
                        first_arg,
                        format!(
                            "the first argument to `lookup` must be a map, not {}",
                            pretty(db, first)
                        ),
                    ));
                }
            };
            let element = match types.get(2) {
                Some(&default) => unify_types(db, [element, default]).0,
                None => element,
            };
            lift(db, element, types)
        }
        "secret" | "unsecret" => {
            if !arity(infer, id, name, n, 1, 1) {
                return Some(infer.dynamic());
            }
            Ty::output(db, first)
        }
        "singleOrNone" => {
            if !arity(infer, id, name, n, 1, 1) {
                return Some(infer.dynamic());
            }
            let element =
                match crate::inference::unwrap_iterable(db, resolve_outputs(db, first)).kind(db) {
                    TyKind::List(e) => *e,
                    TyKind::Tuple(elements) => {
                        elements.first().copied().unwrap_or_else(|| Ty::none(db))
                    }
                    TyKind::Dynamic => infer.dynamic(),
                    _ => {
                        return Some(bad_argument(
                            infer,
                            first_arg,
                            format!(
                                "the argument to `singleOrNone` must be a list or tuple, not {}",
                                pretty(db, first)
                            ),
                        ));
                    }
                };
            output_if_eventual(db, Ty::optional(db, element), first)
        }
        "try" => {
            if !arity(infer, id, name, n, 1, usize::MAX) {
                return Some(infer.dynamic());
            }
            let unified = unify_types(db, types.iter().copied()).0;
            if types.iter().any(|t| t.is_dynamic(db)) {
                Ty::output(db, infer.dynamic())
            } else if types.iter().any(|t| eventual_of(db, *t).is_some()) {
                Ty::output(db, unified)
            } else {
                unified
            }
        }
        "can" => {
            if !arity(infer, id, name, n, 1, 1) {
                return Some(infer.dynamic());
            }
            let eventual = first.is_dynamic(db)
                || matches!(first.kind(db), TyKind::Output(_))
                || matches!(first.kind(db), TyKind::Union(m) if m.iter().any(|t| matches!(t.kind(db), TyKind::Output(_))));
            if eventual {
                Ty::output(db, Ty::bool(db))
            } else {
                Ty::bool(db)
            }
        }
        "recover" => {
            if !arity(infer, id, name, n, 2, 2) {
                return Some(infer.dynamic());
            }
            if eventual_of(db, first).is_none() && !first.is_dynamic(db) {
                bad_argument(
                    infer,
                    first_arg,
                    format!(
                        "the first argument to `recover` must be an output, not {}",
                        pretty(db, first)
                    ),
                );
            }
            let value = resolve_outputs(db, first);
            let recovery = resolve_outputs(db, types[1]);
            Ty::output(db, unify_types(db, [value, recovery]).0)
        }
        "max" | "min" => {
            if !arity(infer, id, name, n, 1, usize::MAX) {
                return Some(infer.dynamic());
            }
            let number = types.iter().any(|t| {
                let resolved = resolve_outputs(db, *t);
                resolved == Ty::number(db)
                    || matches!(resolved.kind(db), TyKind::Const(u, _) if *u == Ty::number(db))
            });
            let element = if number { Ty::number(db) } else { Ty::int(db) };
            let signature = Signature {
                params: vec![("first", element)],
                optional: 0,
                varargs: Some(element),
                result: element,
            };
            return Some(static_call(
                infer,
                id,
                name,
                (args, expand),
                types,
                &signature,
            ));
        }
        "pulumiResourceType" | "pulumiResourceName" => {
            if !arity(infer, id, name, n, 1, 1) {
                return Some(infer.dynamic());
            }
            if single_resource(infer, first_arg, first).is_none() {
                bad_argument(
                    infer,
                    first_arg,
                    format!("the argument to `{name}` must be a single resource"),
                );
            }
            Ty::string(db)
        }
        _ => return None,
    })
}

/// The schema function a literal token names, reporting why there is none.
fn schema_function<'db>(
    infer: &mut Infer<'db>,
    at: ExprId,
    token: &str,
    in_source: Option<pcl_schema::PackageSource>,
) -> Option<&'db FunctionTypes<'db>> {
    let db = infer.db;
    // A missing package is a warning under either skip (Go warns `unknown package` once
    // `SkipResourceTypechecking` let the program load); a missing function only under
    // `SkipInvokeTypechecking`.
    let leniency = infer.leniency;
    let lenient = |skip: bool| match skip {
        true => (Some(codes::TYPECHECK_SKIPPED), Severity::Warning),
        false => (None, Severity::Error),
    };
    let (code_missing, severity) =
        lenient(leniency.skip_resource_typecheck || leniency.skip_invoke_typecheck);
    let package = match in_source {
        Some(_) => Some("the resource's package"),
        None => token_package(token),
    };
    let Some(package) = package else {
        infer.push(
            codes::INVALID_ARGUMENT,
            Severity::Error,
            Site::Expr(at),
            format!(
                "malformed function token '{token}': expected 'pkg:module:member' or 'pkg:member'"
            ),
        );
        return None;
    };
    let Some(source) = in_source.or_else(|| package_named(db, package)) else {
        infer
            .push(
                code_missing.unwrap_or(codes::UNKNOWN_PACKAGE),
                severity,
                Site::Expr(at),
                format!("no schema found for package '{package}'"),
            )
            .notes
            .push(get_schema_note(
                db,
                package,
                code_missing.is_none().then_some("--skip-invoke-typecheck"),
            ));
        return None;
    };
    let Some((ItemKind::Function, canonical)) = resolve_token(db, source, token) else {
        let (code_missing, severity) = lenient(leniency.skip_invoke_typecheck);
        let suggestions = pcl_schema::suggest_tokens_of(db, source, token, ItemKind::Function);
        let diagnostic = infer.push(
            code_missing.unwrap_or(codes::UNKNOWN_FUNCTION),
            severity,
            Site::Expr(at),
            format!("package '{package}' has no function '{token}'"),
        );
        if !suggestions.is_empty() {
            diagnostic
                .notes
                .push(format!("did you mean {}?", quoted_list(&suggestions)));
        }
        crate::resources::suggest_token_fixes(infer, Site::Expr(at), &suggestions);
        return None;
    };
    match pcl_schema::function_types(
        db,
        SchemaItem::new(db, source, ItemKind::Function, canonical),
    ) {
        Ok(types) => Some(types),
        Err(error) => {
            infer
                .push(
                    codes::SCHEMA_PROBLEM,
                    Severity::Error,
                    Site::Expr(at),
                    format!("the schema of '{token}' is broken: {}", error.message),
                )
                .notes
                .push(format!("in {} at {}", error.file, error.location));
            None
        }
    }
}

pub(crate) fn properties_object<'db>(
    db: &'db dyn pcl_types::Db,
    properties: &[pcl_schema::Property<'db>],
) -> Ty<'db> {
    Ty::object(db, properties.iter().map(|p| (p.name.clone(), p.ty)))
}

/// The schema types of function `token`, when its package is loaded and has it (for
/// editors; checking reports why not through `schema_function`).
pub(crate) fn function_types_of<'db>(
    db: &'db dyn pcl_types::Db,
    token: &str,
) -> Option<&'db FunctionTypes<'db>> {
    let source = token_package(token).and_then(|package| package_named(db, package))?;
    let Some((ItemKind::Function, canonical)) = resolve_token(db, source, token) else {
        return None;
    };
    let item = SchemaItem::new(db, source, ItemKind::Function, canonical);
    pcl_schema::function_types(db, item).as_ref().ok()
}

/// `invoke("pkg:module:fn", {args}, {options})`.
fn invoke<'db>(infer: &mut Infer<'db>, id: ExprId, args: &[ExprId], types: &[Ty<'db>]) -> Ty<'db> {
    let db = infer.db;
    let Some(&token_arg) = args.first() else {
        infer.report(
            codes::WRONG_ARGUMENT_COUNT,
            Site::Expr(id),
            "`invoke` needs a function token and an arguments object".to_owned(),
        );
        return infer.dynamic();
    };
    let body = infer.body;
    let Expr::String(token) = body.expr(token_arg) else {
        infer.push(
            codes::INVALID_ARGUMENT,
            Severity::Error,
            Site::Expr(token_arg),
            "the function token of `invoke` must be a literal string".to_owned(),
        );
        return infer.dynamic();
    };
    let token = body.str(*token);
    let Some(function) = schema_function(infer, token_arg, token, None) else {
        // Without the function, the options are known only when written as an object
        // (a positional function takes them later).
        if let Some(&options) = args.get(2)
            && matches!(infer.body.expr(options), Expr::Object(_))
        {
            invoke_options(infer, options, token);
        }
        return infer.dynamic();
    };
    let options_at = if function.multi_argument_inputs.is_empty() {
        2
    } else {
        1 + function.multi_argument_inputs.len()
    };
    if let Some(&options) = args.get(options_at) {
        invoke_options(infer, options, token);
    }
    let result = function.result;
    if !function.multi_argument_inputs.is_empty() {
        if positional_misuse(infer, id, token, args, types, function) {
            return infer.dynamic();
        }
        for (i, name) in function.multi_argument_inputs.iter().enumerate() {
            let Some(property) = function.inputs.iter().find(|p| *p.name == **name) else {
                continue;
            };
            match args.get(i + 1) {
                Some(&arg) => {
                    infer.check_value(
                        arg,
                        input_type(db, property.ty),
                        &format!("argument '{name}'"),
                    );
                }
                None if property.required => {
                    infer.report(
                        codes::WRONG_ARGUMENT_COUNT,
                        Site::Expr(id),
                        format!("`{token}` is missing its argument '{name}'"),
                    );
                }
                None => {}
            }
        }
        return lift(db, Ty::promise(db, result), types);
    }
    // As Go's binder: the arguments object is needed once the function is known, even
    // `{}` for one that takes no inputs.
    let Some(&args_arg) = args.get(1) else {
        let at = infer.at(Site::Expr(token_arg));
        let takes_inputs = function.inputs.iter().any(|p| p.required);
        let diagnostic = infer.report(
            codes::WRONG_ARGUMENT_COUNT,
            Site::Expr(id),
            format!("`invoke` of '{token}' needs an arguments object"),
        );
        match takes_inputs {
            true => diagnostic.notes.push(
                "pass its inputs as the second argument: invoke(\"token\", { name = value })"
                    .to_owned(),
            ),
            false => {
                diagnostic.notes.push(
                    "it takes no required input: pass `{}` as the second argument".to_owned(),
                );
                diagnostic.fixes.push(crate::diagnostics::SemaFix {
                    message: "add `{}`".to_owned(),
                    at,
                    replacement: String::new(),
                    after: Some(", {}".to_owned()),
                    closing: None,
                    keep: None,
                });
            }
        }
        return Ty::promise(db, result);
    };
    if let Some(&extra) = args.get(3) {
        infer.report(
            codes::WRONG_ARGUMENT_COUNT,
            Site::Expr(extra),
            format!(
                "`invoke` takes 3 arguments at most (the token, the arguments object and the invoke options), not {}",
                args.len()
            ),
        );
    }
    let expected = if function.has_inputs {
        properties_object(db, &function.input_shape_inputs)
    } else {
        Ty::optional(db, Ty::empty_object(db))
    };
    // The output form takes the arguments whole as an output too (`secret({..})`).
    let expected = input_type(db, expected);
    let outer = infer.invoke_arguments.replace(args_arg);
    infer.check_value(
        args_arg,
        expected,
        &format_args!("the arguments of '{token}'"),
    );
    infer.invoke_arguments = outer;
    if let Expr::Object(items) = body.expr(args_arg) {
        for &[key, value] in body.pairs(*items) {
            let Expr::String(key) = body.expr(key) else {
                continue;
            };
            let reference = (function.input_shape_inputs.iter())
                .find(|p| *p.name == *body.str(*key))
                .and_then(|p| p.missing_package.clone());
            if let Some(reference) = reference {
                let skip = infer.leniency.skip_invoke_typecheck;
                crate::resources::missing_package_type(
                    infer,
                    value,
                    &reference,
                    skip,
                    "--skip-invoke-typecheck",
                );
            }
        }
    }
    // The output form, as `pulumi-language-pcl` binds (`PreferOutputVersionedInvokes`),
    // whenever the function has a return type; without one there is no output form.
    if function.has_result {
        Ty::output(db, result)
    } else {
        lift(db, Ty::promise(db, result), &types[1..])
    }
}

/// A `multiArgumentInputs` function called with one object instead of its positional
/// arguments, or with more arguments than it takes: reported, `true`.
fn positional_misuse<'db>(
    infer: &mut Infer<'db>,
    id: ExprId,
    token: &str,
    args: &[ExprId],
    types: &[Ty<'db>],
    function: &FunctionTypes<'db>,
) -> bool {
    let db = infer.db;
    let names = function.multi_argument_inputs.join(", ");
    if let (Some(&first), Some(&first_ty)) = (args.get(1), types.get(1)) {
        let objects = [
            properties_object(db, &function.inputs),
            properties_object(db, &function.input_shape_inputs),
        ];
        let object_like = matches!(infer.body.expr(first), Expr::Object(_))
            || (!first_ty.is_dynamic(db)
                && objects
                    .iter()
                    .any(|o| pcl_types::conversion(db, *o, first_ty).exists()));
        if object_like {
            infer
                .report(
                    codes::INVALID_ARGUMENT,
                    Site::Expr(first),
                    format!("'{token}' takes positional arguments ({names}), not one object"),
                )
                .notes
                .push(format!(
                    "write `invoke(\"{token}\", {})`",
                    function.multi_argument_inputs.join(", ")
                ));
            return true;
        }
    }
    let most = 1 + function.multi_argument_inputs.len() + 1;
    if args.len() > most {
        infer
            .report(
                codes::WRONG_ARGUMENT_COUNT,
                Site::Expr(id),
                format!(
                    "`invoke` of '{token}' takes at most {most} arguments, not {}",
                    args.len()
                ),
            )
            .notes
            .push(format!(
                "the token, then {names}, then the invoke options; pass `null` for an input you leave out"
            ));
        return true;
    }
    false
}

/// Check the options of an invoke of `token`: an object of known options, each checked as
/// a resource's option of that name is (`provider`, `parent`, `dependsOn`, `version`).
/// Options that are not written as an object are dropped by Pulumi's code generators,
/// which read them only from an object literal (a warning).
fn invoke_options(infer: &mut Infer<'_>, options: ExprId, token: &str) {
    let db = infer.db;
    let body = infer.body;
    match body.expr(options) {
        Expr::Object(items) => {
            let user = crate::resources::ProviderUser::Function(token_package(token));
            for &[key, value] in body.pairs(*items) {
                if let Expr::String(name) = body.expr(key) {
                    crate::resources::option_values(infer, body.str(*name), value, user);
                }
            }
        }
        Expr::Null => {}
        _ => invoke_options_dropped(infer, options),
    }
    let opt = |t| Ty::optional(db, t);
    let fields = [
        ("provider", opt(Ty::dynamic(db))),
        ("parent", opt(Ty::dynamic(db))),
        ("version", opt(Ty::string(db))),
        ("pluginDownloadUrl", opt(Ty::string(db))),
        ("dependsOn", opt(Ty::list(db, Ty::dynamic(db)))),
    ];
    let expected = Ty::object(db, fields.into_iter().map(|(n, t)| (Name::from(n), t)));
    infer.check_value(options, input_type(db, expected), &"the invoke options");
}

/// Invoke options that are not an object literal, which Pulumi's code generators drop.
fn invoke_options_dropped(infer: &mut Infer<'_>, options: ExprId) {
    let message =
        "invoke options must be written as an object: the converted program drops any other value"
            .to_owned();
    let site = Site::Expr(options);
    let diagnostic = infer.push(codes::INVALID_ARGUMENT, Severity::Warning, site, message);
    diagnostic.notes.push(
        "Pulumi's code generators read the options only from an object literal: write \
         `{ provider = ..., parent = ... }` in the call"
            .to_owned(),
    );
}

/// Whether the value of `at` (of type `ty`) is a single resource, as Go asks of the
/// argument of `pulumiResourceType` and the receiver of `call`: its type is a resource's
/// object type (not a list or map of them, not an output), and it is not an object
/// literal. `Some(Some(decl))` when the resource declaration it comes from is known
/// (`bucket`, `buckets[0]`), `Some(None)` when it is reached otherwise (`x.bucket`, or a
/// resource without schema, which is `dynamic`).
fn single_resource<'db>(
    infer: &Infer<'db>,
    at: ExprId,
    ty: Ty<'db>,
) -> Option<Option<crate::items::DeclId<'db>>> {
    let db = infer.db;
    if ty.is_dynamic(db) {
        return Some(None);
    }
    let TyKind::Object(properties) = ty.kind(db) else {
        return None;
    };
    let mut root = at;
    while let Expr::GetAttr { base, .. } | Expr::Index { base, .. } = infer.body.expr(root) {
        root = *base;
    }
    let from_declaration = match infer.body.expr(root) {
        Expr::Name(name) => match infer.bindings_of(infer.body.str(*name)) {
            Some(Resolution::Decl(decl))
                if matches!(
                    decl.kind(db),
                    crate::items::DeclKind::Resource | crate::items::DeclKind::Read
                ) =>
            {
                Some(decl)
            }
            _ => None,
        },
        _ => None,
    };
    if let Some(decl) = from_declaration {
        // `buckets[0]`, `bucket`; not `bucket.tags` (an object property of it).
        let direct =
            root == at || matches!(infer.body.expr(at), Expr::Index { base, .. } if *base == root);
        return direct.then_some(Some(decl));
    }
    // Reached through a local or an object: a resource's object type has its `urn`.
    let is_resource = !matches!(infer.body.expr(at), Expr::Object(_))
        && properties
            .iter()
            .any(|(name, t)| &**name == "urn" && *t == Ty::output(db, Ty::string(db)));
    is_resource.then_some(None)
}

/// `call(resource, "method", {args})`.
fn method_call<'db>(
    infer: &mut Infer<'db>,
    id: ExprId,
    args: &[ExprId],
    types: &[Ty<'db>],
) -> Ty<'db> {
    let db = infer.db;
    if args.len() != 3 {
        infer.report(
            codes::WRONG_ARGUMENT_COUNT,
            Site::Expr(id),
            "`call` takes a resource, a method name and an arguments object".to_owned(),
        );
        return infer.dynamic();
    }
    let body = infer.body;
    let Expr::String(method) = body.expr(args[1]) else {
        infer.push(
            codes::INVALID_ARGUMENT,
            Severity::Error,
            Site::Expr(args[1]),
            "the method name of `call` must be a literal string".to_owned(),
        );
        return infer.dynamic();
    };
    let method = body.str(*method);
    let Some(receiver) = single_resource(infer, args[0], types[0]) else {
        infer.report(
            codes::INVALID_ARGUMENT,
            Site::Expr(args[0]),
            "the receiver of `call` must be a single resource".to_owned(),
        );
        return infer.dynamic();
    };
    // A resource reached through a local: its schema is not known here.
    let Some(receiver) = receiver else {
        return infer.dynamic();
    };
    let token =
        (crate::hir::body(db, receiver).label(crate::hir::BlockId::ROOT, 1)).unwrap_or_default();
    let Some(package) = token_package(token) else {
        return infer.dynamic();
    };
    let Some(source) = package_named(db, package) else {
        return infer.dynamic();
    };
    let Some((kind @ (ItemKind::Resource | ItemKind::Provider), canonical)) =
        resolve_token(db, source, token)
    else {
        return infer.dynamic();
    };
    let Ok(resource) = pcl_schema::resource_types(db, SchemaItem::new(db, source, kind, canonical))
    else {
        return infer.dynamic();
    };
    let Some((_, function_token)) = resource.methods.iter().find(|(m, _)| *m == method) else {
        infer.report(
            codes::UNKNOWN_FUNCTION,
            Site::Expr(args[1]),
            format!("resource type '{token}' has no method '{method}'"),
        );
        return infer.dynamic();
    };
    let function_token = function_token.clone();
    let Some(function) = schema_function(infer, args[1], &function_token, Some(source)) else {
        return infer.dynamic();
    };
    let inputs: Vec<_> = function
        .input_shape_inputs
        .iter()
        .filter(|p| &*p.name != "__self__")
        .cloned()
        .collect();
    infer.check_value(
        args[2],
        properties_object(db, &inputs),
        &format!("the arguments of method '{method}'"),
    );
    let _ = types;
    if function.result_plain {
        function.result
    } else {
        Ty::output(db, function.result)
    }
}
