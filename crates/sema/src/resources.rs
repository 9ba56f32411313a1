//! Resources, reads and components: the schema (or component program) that types their
//! inputs and outputs, the `options` block, and `range`, which makes the declaration a
//! list, a map or an optional value (§4.5, §4.8).

use std::fmt::Display;

use pcl_diagnostics::{Severity, codes};
use pcl_schema::{ItemKind, Property, ResourceTypes, SchemaItem, package_named, resolve_token};
use pcl_types::{
    ConstValue, Conversion, Name, TraverseKey, Ty, TyKind, conversion, input_type, resolve_outputs,
};
use smol_str::SmolStr;

use crate::builtins::{function_types_of, properties_object};
use crate::declarations::literal_string;
use crate::diagnostics::{SemaDiagnostic, Site};
use crate::hir::{AttrId, BlockId, Body, Expr, ExprId, logical_name, push_children};
use crate::inference::{
    Infer, InputAttr, accepts_none, collection_types, infer, lift, literal_value, wrap_iterable,
};
use crate::input::{Program, join_dir, program_at};
use crate::items::{DeclKind, decl_item, token_package};
use crate::resource_lookup::{Refusal, Unresolved, lookup_resource};
use crate::scope::{PROPERTY_LIST_OPTIONS, program_scope};

/// An input a resource or component takes, borrowed from the schema (or the component's
/// program): checking threads share it without touching reference counts.
struct Input<'db> {
    name: &'db str,
    ty: Ty<'db>,
    required: bool,
    discriminator: Option<&'db pcl_schema::Discriminated<'db>>,
    /// A type of a package no source has, which the input's type uses.
    missing_package: Option<&'db pcl_schema::MissingPackageRef>,
}

/// Check a `resource` or `read` block; the declaration's type.
pub(crate) fn resource<'db>(infer: &mut Infer<'db>) -> Ty<'db> {
    let db = infer.db;
    let body = infer.body;
    let token = resource_token(body);
    let read = infer.decl.kind(db) == DeclKind::Read;
    let options = options_block(infer);
    let range = options
        .and_then(|o| body.find_attr(o, "range"))
        .map(|a| body.attr(a).value);
    let range_ty = range.map(|r| range_value_type(infer, r));
    let lookup = lookup_resource(db, token, read);
    let schema = resolve_resource(infer, token, &lookup.found);
    let outputs = lookup.outputs;
    let inputs: Option<Vec<Input<'db>>> =
        schema.map(|types| resource_inputs(db, types, read).collect());
    let range_var = range
        .zip(range_ty)
        .map(|(r, (t, _))| range_variable(infer, r, t, false));
    if let Some(Some(var)) = range_var {
        infer.locals.push(("range".into(), var));
    }
    // Written out only in a message.
    let what = format_args!("resource '{token}'");
    // Go's `SkipResourceTypechecking` makes every error of the block a warning.
    infer.lenient |= infer.leniency.skip_resource_typecheck;
    // In a file checked input by input, each input is checked in a memo of its own (which
    // types the range variable again, the one variable its inputs may read).
    let alone = infer.decl.file(db).per_input_memos(db);
    check_inputs(infer, inputs.as_deref(), &what, alone);
    if let Some(Some(_)) = range_var {
        infer.locals.pop();
    }
    if let Some(options) = options {
        // A schema component takes a provider of any package for its children.
        let custom = schema.filter(|types| !types.is_component).map(|_| token);
        let outputs = schema.map(|types| &*types.outputs);
        check_options(infer, options, (inputs.as_deref(), outputs), range, custom);
    }
    match (range, range_ty) {
        (Some(_), Some((_, true))) => infer.dynamic(),
        (Some(range), Some((range_ty, _))) => ranged_type(infer, range, range_ty, outputs, false),
        _ => outputs,
    }
}

/// Whether the expression or one of its subexpressions is a name (a declaration, a
/// variable, `range`): what can change its type without its syntax changing.
fn reads_a_name(body: &Body, value: ExprId) -> bool {
    let mut stack = vec![value];
    while let Some(id) = stack.pop() {
        let expr = body.expr(id);
        if matches!(expr, Expr::Name(_)) {
            return true;
        }
        push_children(body, expr, &mut stack);
    }
    false
}

/// A resource block's type token (its second label).
fn resource_token(body: &Body) -> &str {
    body.label(BlockId::ROOT, 1).unwrap_or_default()
}

/// The input named `name` among [`resource_inputs`].
fn resource_input<'db>(
    db: &'db dyn pcl_types::Db,
    types: &'db ResourceTypes<'db>,
    read: bool,
    name: &str,
) -> Option<Input<'db>> {
    if read && name == "id" {
        return Some(id_input(db));
    }
    (input_properties(types, read).iter())
        .find(|p| *p.name == *name)
        .map(|p| schema_input(db, p))
}

/// The inputs a resource (or, for a `read`, a read) of the schema types takes.
fn resource_inputs<'db>(
    db: &'db dyn pcl_types::Db,
    types: &'db ResourceTypes<'db>,
    read: bool,
) -> impl Iterator<Item = Input<'db>> {
    (read.then(|| id_input(db)).into_iter()).chain(
        input_properties(types, read)
            .iter()
            .map(move |p| schema_input(db, p)),
    )
}

/// The schema properties a resource takes as inputs (for a `read`, its state inputs).
fn input_properties<'db>(types: &'db ResourceTypes<'db>, read: bool) -> &'db [Property<'db>] {
    match read {
        true => types.state_inputs.as_deref().unwrap_or_default(),
        false => &types.inputs,
    }
}

/// The `id` a `read` takes before the resource's state inputs.
fn id_input<'db>(db: &'db dyn pcl_types::Db) -> Input<'db> {
    Input {
        name: "id",
        ty: input_type(db, Ty::string(db)),
        required: true,
        discriminator: None,
        missing_package: None,
    }
}

/// One input of a resource whose schema is found, checked in a memo of its own (in files
/// checked input by input, `File::per_input_memos`): when a type it reads changes, only
/// this input is checked again. The diagnostics `check_input` gives in place; the types
/// it gives are [`input_types`], apart, so a change of types that leaves the diagnostics
/// as they were (`x = 1` to `x = 2.5`) stops here and the declaration's diagnostics are
/// not gathered again.
#[salsa::tracked(returns(ref))]
pub(crate) fn input_check<'db>(
    db: &'db dyn pcl_types::Db,
    key: InputAttr<'db>,
) -> Box<[SemaDiagnostic<'db>]> {
    check_input_alone(db, key, true)
        .diagnostics
        .into_boxed_slice()
}

/// The types checking one input on its own gives (what `input_check` found), by
/// expression: those that are not `dynamic`. Read only where a type is asked for (a
/// hover), never by checking.
#[salsa::tracked(returns(ref))]
pub(crate) fn input_types<'db>(
    db: &'db dyn pcl_types::Db,
    key: InputAttr<'db>,
) -> Box<[(ExprId, Ty<'db>)]> {
    check_input_alone(db, key, false).into_known_types()
}

/// Check one input of a resource on its own, as `check_inputs` does in place; with
/// `diagnostics_only` (`input_check`), without the types of its expressions.
fn check_input_alone<'db>(
    db: &'db dyn pcl_types::Db,
    key: InputAttr<'db>,
    diagnostics_only: bool,
) -> Infer<'db> {
    let decl = key.decl(db);
    let attr = key.attr(db);
    let mut infer = Infer::new(db, decl);
    infer.lenient = infer.leniency.skip_resource_typecheck;
    infer.diagnostics_only = diagnostics_only;
    let body = infer.body;
    let read = decl.kind(db) == DeclKind::Read;
    let types = match &lookup_resource(db, resource_token(body), read).found {
        Ok(item) => pcl_schema::resource_types(db, *item).as_ref().ok(),
        Err(_) => None,
    };
    if let Some(var) = range_variable_alone(&mut infer) {
        infer.locals.push(("range".into(), var));
    }
    let input = types.and_then(|types| resource_input(db, types, read, body.attr_name(attr)));
    match input {
        Some(input) => check_input(&mut infer, attr, &input),
        None => {
            infer.expr(body.attr(attr).value);
        }
    }
    infer
}

/// Fixes for the diagnostic just reported at `site`, a type token in quotes: each
/// suggested token in its place.
pub(crate) fn suggest_token_fixes(infer: &mut Infer<'_>, site: Site, suggestions: &[SmolStr]) {
    let at = infer.at(site);
    if let Some(diagnostic) = infer.diagnostics.last_mut() {
        for suggestion in suggestions {
            let replacement = crate::constants::string_literal(suggestion);
            diagnostic.replace_with(at, &format!("`{suggestion}`"), replacement);
        }
    }
}

/// The range variable of a block with `range`, typed as the block's check types it; what
/// that finds about the options and `range` is the block's to report, not an input's.
fn range_variable_alone<'db>(infer: &mut Infer<'db>) -> Option<Ty<'db>> {
    let reported = infer.diagnostics.len();
    let body = infer.body;
    let range = options_block(infer)
        .and_then(|o| body.find_attr(o, "range"))
        .map(|a| body.attr(a).value);
    let var = range.and_then(|range| {
        let range_ty = infer.expr(range);
        range_variable(infer, range, range_ty, false)
    });
    infer.diagnostics.truncate(reported);
    var
}

/// A schema property as an input: constant properties are never missing.
fn schema_input<'db>(db: &'db dyn pcl_types::Db, property: &'db Property<'db>) -> Input<'db> {
    let mut input = Input {
        name: &property.name,
        ty: property.ty,
        required: property.required,
        discriminator: property.discriminator.as_ref(),
        missing_package: property.missing_package.as_ref(),
    };
    let is_const = |t: Ty<'db>| match t.kind(db) {
        TyKind::Const(..) => true,
        TyKind::Union(members) => members
            .iter()
            .any(|m| matches!(m.kind(db), TyKind::Const(..))),
        _ => false,
    };
    if input.required && is_const(property.ty) {
        input.required = false;
    }
    input
}

/// The type of a resource or read whose options set no `range`, from its file's
/// declarations summary and the schemas alone: `decl_ty` answers with it without
/// reading the block's checking, so an edit inside the block never makes its readers
/// less durable (they stay verified in constant time) and they re-run only when its
/// token changes. `None` for other declarations.
pub(crate) fn unranged_resource_ty<'db>(
    db: &'db dyn pcl_types::Db,
    decl: crate::items::DeclId<'db>,
) -> Option<Ty<'db>> {
    let (token, read) = crate::items::typed_by_token(db, decl)?;
    Some(lookup_resource(db, token, read).outputs)
}

/// The resource's schema types, reporting why there are none. Under
/// `--skip-resource-typecheck` a missing schema is one warning, and the block's
/// expression errors become warnings too.
fn resolve_resource<'db>(
    infer: &mut Infer<'db>,
    token: &str,
    found: &Result<pcl_schema::SchemaItem<'db>, Unresolved>,
) -> Option<&'db ResourceTypes<'db>> {
    let db = infer.db;
    let site = Site::Label(BlockId::ROOT, 1);
    let skip = infer.leniency.skip_resource_typecheck;
    let severity = if skip {
        Severity::Warning
    } else {
        Severity::Error
    };
    let missing = |infer: &mut Infer<'db>, code, message: String, note: Option<String>| {
        let code = if skip { codes::TYPECHECK_SKIPPED } else { code };
        let diagnostic = infer.push(code, severity, site, message);
        if let Some(note) = note {
            diagnostic.notes.push(note);
        }
        if skip {
            diagnostic.notes.push("--skip-resource-typecheck: the resource is typed `dynamic` and its inputs are not checked".to_owned());
            infer.lenient = true;
        }
        None
    };
    let refusal = match found {
        Ok(item) => {
            let types = pcl_schema::resource_types(db, *item).as_ref().ok()?;
            version_messages(
                infer,
                token_package(token).unwrap_or("pulumi"),
                item.source(db),
            );
            return Some(types);
        }
        Err(Unresolved::Malformed(message)) => {
            let name = infer.body.label(BlockId::ROOT, 0).unwrap_or_default();
            let note = if name.contains(':') && !token.is_empty() {
                Some(format!(
                    "the labels are swapped: PCL writes the name first, `resource {token} \"{name}\" {{ ... }}`"
                ))
            } else if name.contains('_') && !token.is_empty() && !token.contains(':') {
                Some(format!(
                    "Terraform writes `resource \"TYPE\" \"NAME\"`; PCL writes `resource {token} \"pkg:module:Type\"` (a Pulumi type token, such as `random:index/randomPet:RandomPet` for `random_pet`)"
                ))
            } else {
                sdk_class_token(db, token).map(|pcl| {
                    format!("`{token}` is the class of Pulumi's SDKs; its type token is `{pcl}`")
                })
            };
            // The schema crate's message names the token too.
            let reason = message
                .split_once("': ")
                .map_or(message.as_str(), |(_, r)| r);
            return missing(
                infer,
                codes::UNKNOWN_RESOURCE,
                format!("malformed resource type token '{token}': {reason}"),
                note,
            );
        }
        Err(Unresolved::NoPackage(package)) => {
            missing(
                infer,
                codes::UNKNOWN_PACKAGE,
                format!("no schema found for package '{package}'"),
                Some(get_schema_note(
                    db,
                    package,
                    (!skip).then_some("--skip-resource-typecheck"),
                )),
            );
            // A misspelt package (`radnom:index/randomPet:RandomPet`): the token with the
            // package found that is close.
            if let Some(close) = pcl_schema::missing_package_suggestion(db, package)
                && surely_misspelt(package, &close)
                && let Some(rest) = token.strip_prefix(package.as_str())
                && let fixed = format!("{close}{rest}")
                // When the package is loaded, the token must be one of its resources.
                && pcl_schema::package_named(db, &close).is_none_or(|source| {
                    pcl_schema::resolve_token(db, source, &fixed)
                        .is_some_and(|(kind, _)| kind == pcl_schema::ItemKind::Resource)
                })
                && let at = infer.at(site)
                && let Some(diagnostic) = infer.diagnostics.last_mut()
            {
                diagnostic.replace_with(at, &format!("`{fixed}`"), format!("\"{fixed}\""));
            }
            return None;
        }
        Err(Unresolved::NoResource(source, package)) => {
            let resource = pcl_schema::ItemKind::Resource;
            let mut suggestions = pcl_schema::suggest_tokens_of(db, *source, token, resource);
            let mut note = (!suggestions.is_empty())
                .then(|| format!("did you mean {}?", quoted_list(&suggestions)));
            if let Some((extension, extended)) = extension_resource(infer, package, token) {
                note = Some(format!(
                    "the program's `package` block makes `{extension}` of `{package}`: its resources are `{extension}:...`; did you mean '{extended}'?"
                ));
                suggestions = vec![extended];
            } else if suggestions.is_empty() && is_provider_like(token) {
                // The SDKs' `aws.Provider`, written as a resource of the package.
                let provider = SmolStr::new(format!("pulumi:providers:{package}"));
                note = Some(format!("a provider's type is `{provider}`"));
                suggestions = vec![provider];
            }
            let missing = missing(
                infer,
                codes::UNKNOWN_RESOURCE,
                format!("package '{package}' has no resource type '{token}'"),
                note,
            );
            suggest_token_fixes(infer, site, &suggestions);
            // A token that differs from one resource's only in case (`apps/v1:deployment`):
            // the body is checked as that resource's, so its mistakes show at once.
            if let [only] = suggestions.as_slice()
                && !skip
                && only.eq_ignore_ascii_case(token)
                && let Some((ItemKind::Resource, canonical)) = resolve_token(db, *source, only)
            {
                let item = pcl_schema::SchemaItem::new(db, *source, ItemKind::Resource, canonical);
                return pcl_schema::resource_types(db, item).as_ref().ok();
            }
            return missing;
        }
        Err(Unresolved::Refused(source, package, refusal)) => {
            if !matches!(refusal, Refusal::ReadProvider) {
                version_messages(infer, package, *source);
            }
            refusal
        }
    };
    match refusal {
        Refusal::ReadProvider => {
            infer.push(
                codes::UNKNOWN_RESOURCE,
                Severity::Error,
                site,
                format!("provider resources cannot be read: '{token}'"),
            );
        }
        Refusal::ReadComponent => {
            infer.push(
                codes::UNKNOWN_RESOURCE,
                Severity::Error,
                site,
                format!("component resources cannot be read: '{token}'"),
            );
        }
        Refusal::Broken(error) => {
            let message = format!("the schema of '{token}' is broken: {}", error.message);
            infer
                .push(codes::SCHEMA_PROBLEM, Severity::Error, site, message)
                .notes
                .push(format!("in {} at {}", error.file, error.location));
        }
    }
    None
}

/// Whether `token` names a provider the SDKs' way (`aws:index:Provider`, `aws:Provider`),
/// not PCL's (`pulumi:providers:aws`).
fn is_provider_like(token: &str) -> bool {
    !token.starts_with("pulumi:") && token.rsplit(':').next() == Some("Provider")
}

/// For a token of base provider `package` that names no resource of it: the package a
/// `package` block of the program makes of `package` by parameterizing it, and the token
/// in that package when it has such a resource (`extbase:index:Greeting` is
/// `myext:index:Greeting`).
fn extension_resource(infer: &Infer<'_>, package: &str, token: &str) -> Option<(SmolStr, SmolStr)> {
    let db = infer.db;
    let rest = token.strip_prefix(package)?.strip_prefix(':')?;
    let extensions = crate::declarations::parameterized_packages(db, infer.decl.program(db));
    (extensions.iter())
        .filter(|(base, _)| base == package)
        .find_map(|(_, extension)| {
            let extended = SmolStr::new(format!("{extension}:{rest}"));
            let source = package_named(db, extension)?;
            match resolve_token(db, source, &extended)? {
                (ItemKind::Resource, _) => Some((extension.clone(), extended)),
                _ => None,
            }
        })
}

/// One version per package per program: a resource whose `options { version }` names
/// another version than the one it is checked against gets a note saying which.
fn version_messages(infer: &mut Infer<'_>, package: &str, source: pcl_schema::PackageSource) {
    let db = infer.db;
    let body = infer.body;
    let Some(options) = body.find_blocks(BlockId::ROOT, "options").next() else {
        return;
    };
    let Some(attr) = body.find_attr(options, "version") else {
        return;
    };
    let value = body.attr(attr).value;
    let Expr::String(asked) = body.expr(value) else {
        return;
    };
    let asked = body.str(*asked);
    let Ok(index) = pcl_schema::package_index(db, source) else {
        return;
    };
    let Some(used) = index.version() else {
        return;
    };
    let same = |a: &str, b: &str| a.trim_start_matches('v') == b.trim_start_matches('v');
    // An empty version asks for none, nor does one that does not parse (reported as such).
    let parses = semver::Version::parse(asked.trim_start_matches('v')).is_ok();
    if !parses || same(asked, used) {
        return;
    }
    // Pulumi deploys such a resource with the version it asks for (a program may use two
    // on purpose): a note on what the check could not see, not advice to change it.
    let why = match crate::declarations::pinned_version(db, infer.decl.program(db), package) {
        Some(pinned) if same(&pinned, used) => "the version the program's `package` block pins",
        _ => "the one version of it this program uses",
    };
    infer.push(
        codes::TYPE_MISMATCH,
        Severity::Note,
        Site::Expr(value),
        format!("checked against `{package}` {used}, {why} (this resource asks for {asked})"),
    );
}

/// How to get a package's schema, for messages about missing ones: where the host looked
/// and what fixes it, when it looked.
/// `skip_flag`, when given, is the flag that would check the rest without the schema.
pub(crate) fn get_schema_note(
    db: &dyn salsa::Database,
    package: &str,
    skip_flag: Option<&str>,
) -> String {
    let mut note = match pcl_schema::missing_package_notes(db, package) {
        Some(notes) => notes.join("\n"),
        None => format!(
            "get it with `pulumi package get-schema {package} > DIR/{package}.json`, then pass `--schema-dir DIR` or set PCL_SCHEMA_PATH"
        ),
    };
    if let Some(flag) = skip_flag {
        note.push_str(&format!("\nor check the rest without it: pass {flag}"));
    }
    note
}

pub(crate) fn quoted_list(items: &[SmolStr]) -> String {
    let quoted: Vec<String> = items.iter().take(3).map(|s| format!("'{s}'")).collect();
    quoted.join(", ")
}

/// The block's `options` block, reporting duplicates and other nested blocks.
fn options_block(infer: &mut Infer<'_>) -> Option<BlockId> {
    let body = infer.body;
    let mut options = None;
    for &block in body.block(BlockId::ROOT).blocks.iter() {
        let kind = body.block_kind(block);
        if kind == "options" {
            if options.is_some() {
                infer
                    .push(
                        codes::UNEXPECTED_BLOCK,
                        Severity::Error,
                        Site::BlockType(block),
                        "a second `options` block".to_owned(),
                    )
                    .notes
                    .push("merge the options into the first block".to_owned());
            } else {
                options = Some(block);
            }
        } else {
            let way = match kind {
                "lifecycle" => "Terraform's `lifecycle` settings are resource options in PCL, in the `options` block: `prevent_destroy` is `protect`, `ignore_changes` is `ignoreChanges`".to_owned(),
                "timeouts" => "Terraform's `timeouts` are the resource option `customTimeouts`: `options { customTimeouts = { create = \"10m\" } }`".to_owned(),
                "dynamic" => "write the input as a list built by a `for` expression: `name = [for x in xs : { ... }]`".to_owned(),
                "provisioner" | "connection" => "Pulumi has no provisioners: run commands with the `command` package's resources".to_owned(),
                _ => format!("PCL has no nested blocks but `options`: write an input as an attribute, `{kind} = {{ ... }}` (or `{kind} = [{{ ... }}]` for a list)"),
            };
            let diagnostic = infer.push(
                codes::UNEXPECTED_BLOCK,
                Severity::Error,
                Site::BlockType(block),
                format!("unexpected block `{kind}`"),
            );
            diagnostic
                .notes
                .push("the only block allowed here is `options`".to_owned());
            diagnostic.notes.push(way);
        }
    }
    options
}

/// How many names a block may give for its inputs to be looked for among them one by
/// one (a block gives a few: sorting them cost more than the comparisons).
const SCANNED_NAMES: usize = 16;

/// Type the block's inputs and check them against `inputs` (when known); `alone`: each
/// known input that reads a name in its own memo (`input_check`). An input that reads
/// none changes only with its block's syntax (or the schema), which checks the block
/// again anyway: a memo of its own would only be one more to keep and verify.
fn check_inputs<'db>(
    infer: &mut Infer<'db>,
    inputs: Option<&[Input<'db>]>,
    what: &dyn Display,
    alone: bool,
) {
    let db = infer.db;
    let body = infer.body;
    // The names given (a block has a few: no hashing).
    let attrs = &body.block(BlockId::ROOT).attrs;
    let mut given: Vec<&str> = Vec::with_capacity(attrs.len());
    let mut any_unknown = false;
    for &attr in attrs.iter() {
        let data = body.attr(attr);
        let name = body.str(data.name);
        if name == "__logicalName" {
            literal_string(infer, data.value, "__logicalName");
            continue;
        }
        given.push(name);
        let Some(inputs) = inputs else {
            infer.expr(data.value);
            terraform_setting_unchecked(infer, attr, name);
            continue;
        };
        match inputs.iter().find(|i| *i.name == *name) {
            Some(_) if alone && reads_a_name(body, data.value) => {
                infer.check_apart(InputAttr::new(db, infer.decl, attr))
            }
            Some(input) => check_input(infer, attr, input),
            None => {
                infer.expr(data.value);
                any_unknown = true;
                unknown_attribute(infer, attr, name, inputs, what);
            }
        }
    }
    let Some(inputs) = inputs else { return };
    // A few are compared one by one; many (a generated block) are sorted first.
    let scanned = given.len() <= SCANNED_NAMES;
    if !scanned {
        given.sort_unstable();
    }
    let is_given = |name: &str| match scanned {
        true => given.contains(&name),
        false => given.binary_search(&name).is_ok(),
    };
    // Go's `AllowMissingProperties` makes every schema property optional; a block without
    // its `{` has a syntax error, which is the one to report.
    let opened = body.block(BlockId::ROOT).opened;
    // An input given under a misspelt name is reported as that (one error per cause).
    let names = || inputs.iter().map(|i| i.name);
    let misspelt: Vec<&str> = (given.iter())
        .filter(|_| any_unknown)
        .filter(|g| !names().any(|n| n == **g))
        .filter_map(|g| pcl_types::closest_name(g, names()))
        .collect();
    // A required input of type `Any` accepts `null` in Go's reading (so Go never asks for
    // it), and the provider rejects the resource without it: reported beyond Go.
    let any = |input: &Input<'db>| pcl_types::strip_input(infer.db, input.ty).is_dynamic(infer.db);
    // The SDKs' arguments object (`args = {...}`, reported as no input) holds the inputs:
    // they are not also missing.
    let in_arguments = !names().any(|n| n == "args") && is_given("args");
    let missing: Vec<&Input<'db>> = (inputs.iter())
        .filter(|_| !in_arguments)
        .filter(|i| i.required && !is_given(i.name))
        .filter(|i| !accepts_none(infer.db, i.ty) || any(i))
        .filter(|i| !misspelt.contains(&i.name))
        .filter(|_| !infer.leniency.allow_missing_properties && opened)
        .collect();
    let root = body.block(BlockId::ROOT);
    // An empty body closed on the line of its `{` (`{}`): the fix puts the `}` on a line
    // of its own.
    let closed_on_its_line = root.closed_on_open_line;
    for input in missing {
        let plain = pcl_types::strip_input(infer.db, input.ty);
        let (ty, placeholder) = match any(input) {
            // `null` would be taken, and rejected as the missing input is.
            true => ("any value".to_owned(), "{}".to_owned()),
            false => (
                pcl_types::pretty(infer.db, plain),
                placeholder(infer.db, plain),
            ),
        };
        let message = format!("{what} is missing the required input '{}'", input.name);
        // The fix opens the body with the input set to a placeholder of its type; an
        // empty body (`{}`) is closed on its own line after it.
        let line = format!("  {} = {placeholder}", input.name);
        let replacement = if closed_on_its_line {
            format!("{{\n{line}\n")
        } else {
            format!("{{\n{line}")
        };
        let decl = infer.decl;
        let diagnostic = match any(input) {
            true => {
                let severity = infer.lenient_beyond_go_severity();
                let site = Site::BlockOpen(BlockId::ROOT);
                infer.push(codes::MISSING_ATTRIBUTE, severity, site, message)
            }
            false => infer.report(
                codes::MISSING_ATTRIBUTE,
                Site::BlockOpen(BlockId::ROOT),
                message,
            ),
        };
        diagnostic
            .notes
            .push(format!("add `{} = <{ty}>`", input.name));
        diagnostic.fixes.push(crate::diagnostics::SemaFix {
            message: format!("add the input `{}`", input.name),
            at: crate::diagnostics::Located::new(decl, Site::BlockOpen(BlockId::ROOT)),
            replacement,
            after: None,
            closing: None,
            keep: None,
        });
    }
}

/// Type an attribute's value and check it against the input it sets.
fn check_input<'db>(infer: &mut Infer<'db>, attr: AttrId, input: &Input<'db>) {
    let data = infer.body.attr(attr);
    if input.name == "options" {
        options_input_of_options(infer, data.value);
    }
    let expected = narrow_discriminated(infer, input, data.value);
    // A list of a discriminated union: each element checked as the member it names.
    infer.element_members =
        (input.discriminator.filter(|d| d.of_elements)).map(|d| (data.value, d));
    // A name alone (rare among inputs' values) where text goes.
    if matches!(infer.body.expr(data.value), Expr::Name(_))
        && pcl_types::plain_alternatives(infer.db, expected)
            .any(|t| matches!(t.kind(infer.db), TyKind::String | TyKind::Enum(_)))
    {
        infer.bare_text = Some(data.value);
    }
    infer.expr_to_check(data.value, expected);
    infer.bare_text = None;
    if let Some(reference) = &input.missing_package {
        let skip = infer.leniency.skip_resource_typecheck;
        missing_package_type(
            infer,
            data.value,
            reference,
            skip,
            "--skip-resource-typecheck",
        );
    }
    let expected = infer.property_type(expected);
    infer.check_value(
        data.value,
        expected,
        &format_args!("input '{}'", infer.body.str(data.name)),
    );
    infer.element_members = None;
}

/// A value given for a type of a package no source has (a schema's `$ref` to
/// `/aws/v5.4.0/schema.json#/types/...`): it cannot be checked. Reported as the package's
/// missing schema (one per package per file, `PCL4009`), with the reference as a note;
/// the type is `dynamic`, so nothing follows from it.
pub(crate) fn missing_package_type(
    infer: &mut Infer<'_>,
    value: ExprId,
    reference: &pcl_schema::MissingPackageRef,
    skip: bool,
    skip_flag: &str,
) {
    let (code, severity) = match skip {
        true => (codes::TYPECHECK_SKIPPED, Severity::Warning),
        false => (codes::UNKNOWN_PACKAGE, Severity::Error),
    };
    let package = &reference.package;
    let version = reference
        .version
        .as_deref()
        .map_or(String::new(), |v| format!(" {v}"));
    let how = get_schema_note(infer.db, package, (!skip).then_some(skip_flag));
    let diagnostic = infer.push(
        code,
        severity,
        Site::Expr(value),
        format!("no schema found for package '{package}'"),
    );
    diagnostic.notes.push(format!(
        "this value's type is one of `{package}`{version}'s, named in {} at {}; it is not checked",
        reference.file, reference.pointer
    ));
    diagnostic.notes.push(how);
}

/// A value of type `ty` to start from where one is required: empty for strings and
/// collections, zero, false, an enum's first member, an alternative's for a union, else
/// `null`.
pub(crate) fn placeholder<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>) -> String {
    placeholder_within(db, ty, 0)
}

/// A property's name as an object literal's key: quoted when it is no PCL name.
pub(crate) fn object_key(name: &str) -> std::borrow::Cow<'_, str> {
    match pcl_syntax::is_identifier(name) {
        true => name.into(),
        false => format!("\"{name}\"").into(),
    }
}

/// How many objects deep [`placeholder`] writes the required properties of an object.
const PLACEHOLDER_DEPTH: usize = 3;

/// [`placeholder`] of a value `depth` objects deep: an object with its required
/// properties, each a placeholder of its own (`{ name = "", port = 0 }`).
fn placeholder_within<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>, depth: usize) -> String {
    match ty.kind(db) {
        TyKind::String => "\"\"".to_owned(),
        TyKind::Int | TyKind::Number => "0".to_owned(),
        TyKind::Bool => "false".to_owned(),
        TyKind::List(_) | TyKind::Set(_) | TyKind::Tuple(_) => "[]".to_owned(),
        TyKind::Object(_) | TyKind::Named(_) if depth < PLACEHOLDER_DEPTH => {
            let fields = crate::inference::literal_target_fields(db, ty).unwrap_or_default();
            let required: Vec<String> = (fields.iter())
                .filter(|(_, field)| !crate::inference::accepts_none(db, *field))
                .map(|(name, field)| {
                    let plain = pcl_types::strip_input(db, *field);
                    let value = placeholder_within(db, plain, depth + 1);
                    format!("{} = {value}", object_key(name))
                })
                .collect();
            match required.is_empty() {
                true => "{}".to_owned(),
                false => format!("{{ {} }}", required.join(", ")),
            }
        }
        TyKind::Map(_) | TyKind::Object(_) | TyKind::Named(_) => "{}".to_owned(),
        TyKind::Enum(enumeration) => match enumeration.values.first() {
            // Written as it reads in a message when that is PCL too (no escapes, no `$`
            // or `%` that would start a template sequence).
            Some(ConstValue::String(text))
                if text
                    .chars()
                    .all(|c| c.is_ascii_graphic() && !"\"\\$%".contains(c)) =>
            {
                format!("\"{text}\"")
            }
            Some(value @ (ConstValue::Number(_) | ConstValue::Bool(_))) => value.pretty(),
            _ => "\"\"".to_owned(),
        },
        TyKind::Union(_) => (pcl_types::plain_alternatives(db, ty))
            .find(|alternative| !matches!(alternative.kind(db), TyKind::None))
            .map_or_else(
                || "null".to_owned(),
                // At the same depth: a type that holds itself through a union
                // (`next: Node | string`) stops where objects do.
                |alternative| placeholder_within(db, alternative, depth),
            ),
        _ => "null".to_owned(),
    }
}

/// The member of a discriminated union an object literal names by its discriminator
/// (only at the top of an input, as the reference does).
fn narrow_discriminated<'db>(infer: &Infer<'db>, input: &Input<'db>, value: ExprId) -> Ty<'db> {
    (input.discriminator.filter(|d| !d.of_elements))
        .and_then(|discriminated| discriminated_member(infer, discriminated, value))
        .unwrap_or(input.ty)
}

/// The member of `discriminated` an object literal `value` names by its discriminator, in
/// input form.
pub(crate) fn discriminated_member<'db>(
    infer: &Infer<'db>,
    discriminated: &pcl_schema::Discriminated<'db>,
    value: ExprId,
) -> Option<Ty<'db>> {
    let body = infer.body;
    let Expr::Object(items) = body.expr(value) else {
        return None;
    };
    for &[key, value] in body.pairs(*items) {
        if matches!(body.expr(key), Expr::String(k) if *body.str(*k) == *discriminated.property)
            && let Expr::String(chosen) = body.expr(value)
            && let chosen = body.str(*chosen)
            && let Some((_, ty)) = discriminated
                .members
                .iter()
                .find(|(name, _)| **name == *chosen || name.rsplit(':').next() == Some(chosen))
        {
            return Some(input_type(infer.db, *ty));
        }
    }
    None
}

/// `options = { dependsOn = [...] }` where the resource has an input named `options` (a
/// Docker network's driver options): the value sets that input, not the resource's
/// options, which go in a block. A warning in every mode when its keys are options'.
fn options_input_of_options(infer: &mut Infer<'_>, value: ExprId) {
    let body = infer.body;
    let Expr::Object(items) = body.expr(value) else {
        return;
    };
    // Options no driver or plugin setting is likely to be named (`version`, `provider`
    // or `import` may well be one's).
    const ONLY_OPTIONS: &[&str] = &[
        "dependsOn",
        "protect",
        "ignoreChanges",
        "deleteBeforeReplace",
        "retainOnDelete",
        "replaceOnChanges",
        "customTimeouts",
        "additionalSecretOutputs",
        "hideDiffs",
        "deletedWith",
        "replaceWith",
        "replacementTrigger",
        "pluginDownloadURL",
        "envVarMappings",
    ];
    let option = (body.pairs(*items).iter()).find_map(|[key, _]| {
        let key = crate::inference::literal_key(body, body.expr(*key))?;
        ONLY_OPTIONS.iter().copied().find(|o| *o == key)
    });
    if let Some(option) = option {
        infer
            .push(
                codes::TYPE_MISMATCH,
                Severity::Warning,
                Site::Expr(value),
                format!("this sets the input `options`, not the resource options (`{option}`)"),
            )
            .notes
            .push(
                "resource options go in a block, written without `=`: `options { ... }`".to_owned(),
            );
    }
}

/// A Terraform resource setting (a meta-argument or a `lifecycle` one) and the PCL option
/// of its job, with a note saying how it differs.
fn terraform_option(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "count" => (
            "range",
            "Terraform's `count` is PCL's `range = N` (read `range.value`)",
        ),
        "for_each" => (
            "range",
            "Terraform's `for_each` is PCL's `range = collection` (read `range.key` and `range.value`)",
        ),
        "depends_on" => ("dependsOn", "Terraform's `depends_on` is PCL's `dependsOn`"),
        "prevent_destroy" => (
            "protect",
            "Terraform's `prevent_destroy` is PCL's `protect`",
        ),
        "ignore_changes" => (
            "ignoreChanges",
            "Terraform's `ignore_changes` is PCL's `ignoreChanges`",
        ),
        _ => return None,
    })
}

/// `count = 3` among the inputs of a resource whose schema is missing (so its inputs are
/// not known): Terraform's settings are almost never a resource's inputs. A warning in
/// every mode, with PCL's way.
fn terraform_setting_unchecked(infer: &mut Infer<'_>, attr: AttrId, name: &str) {
    let Some((option, note)) = terraform_option(name) else {
        return;
    };
    let message = format!(
        "`{name}` is Terraform's setting, not an input (unless the resource has one of that name)"
    );
    let diagnostic = infer.push(
        codes::UNKNOWN_ATTRIBUTE,
        Severity::Warning,
        Site::AttrName(attr),
        message,
    );
    diagnostic.notes.push(note.to_owned());
    diagnostic.notes.push(options_block_note(option));
}

/// Where an option written among the inputs goes.
fn options_block_note(option: &str) -> String {
    format!("resource options go in the body's `options` block: `options {{ {option} = ... }}`")
}

/// A Terraform setting with no PCL option of the same meaning: what to write instead.
fn terraform_setting_note(name: &str) -> Option<&'static str> {
    Some(match name {
        "create_before_destroy" => {
            "Pulumi creates a replacement before deleting the old resource by default: remove the setting (its `false` is PCL's `deleteBeforeReplace = true`)"
        }
        "replace_triggered_by" => {
            "PCL replaces a resource with others through `replaceWith = [resource]`, or when a value changes through `replacementTrigger = value`"
        }
        _ => return None,
    })
}

fn unknown_attribute<'db>(
    infer: &mut Infer<'db>,
    attr: AttrId,
    name: &str,
    inputs: &[Input<'db>],
    what: &dyn Display,
) {
    let at = infer.at(Site::AttrName(attr));
    let message = format!("{what} has no input '{name}'");
    // `options = {...}`, or the SDKs' `opts` (Python's keyword argument).
    if matches!(
        name,
        "options" | "opts" | "resourceOptions" | "ResourceOptions"
    ) {
        infer
            .report(codes::UNKNOWN_ATTRIBUTE, Site::AttrName(attr), message)
            .notes
            .push(
                "resource options are a block, written without `=`: `options { ... }`".to_owned(),
            );
        return;
    }
    // The SDKs' arguments object (`args = &s3.BucketArgs{...}`, Python's `args=`).
    if matches!(name, "args" | "Args" | "arguments") {
        infer
            .report(codes::UNKNOWN_ATTRIBUTE, Site::AttrName(attr), message)
            .notes
            .push(
                "PCL has no arguments object: write each input in the resource's body, `name = value`"
                    .to_owned(),
            );
        return;
    }
    if let Some(note) = terraform_setting_note(name) {
        infer
            .report(codes::UNKNOWN_ATTRIBUTE, Site::AttrName(attr), message)
            .notes
            .push(note.to_owned());
        return;
    }
    // A resource option, or Terraform's, written among the inputs.
    let option = match terraform_option(name) {
        Some((option, _)) => Some(option),
        None => OPTION_NAMES.iter().copied().find(|o| *o == name),
    };
    if let Some(option) = option {
        // With no `options` block yet, the fix makes one around the setting, on one line
        // (which any indentation takes): the first such setting's only, as a second
        // block would be one too many.
        let body = infer.body;
        let value = body.attr(attr).value;
        let is_setting = |a: AttrId| {
            let name = body.str(body.attr(a).name);
            inputs.iter().all(|i| *i.name != *name)
                && (terraform_option(name).is_some() || OPTION_NAMES.contains(&name))
        };
        let first =
            (body.block(BlockId::ROOT).attrs.iter()).find(|&&a| is_setting(a)) == Some(&attr);
        let no_options = body.find_blocks(BlockId::ROOT, "options").next().is_none() && first;
        let value_at = infer.at(Site::Expr(value));
        let diagnostic = infer.report(codes::UNKNOWN_ATTRIBUTE, Site::AttrName(attr), message);
        if let Some((_, note)) = terraform_option(name) {
            diagnostic.notes.push(note.to_owned());
        }
        diagnostic.notes.push(options_block_note(option));
        if no_options {
            diagnostic.fixes.push(crate::diagnostics::SemaFix {
                message: format!("move into an `options` block as `{option}`"),
                at,
                replacement: format!("options {{ {option}"),
                after: None,
                closing: Some((value_at, " }".to_owned())),
                keep: None,
            });
        }
        return;
    }
    let suggestion =
        pcl_types::closest_name(name, inputs.iter().map(|i| i.name)).map(str::to_owned);
    // A name the body sets already is no fix: it would be set twice.
    let body = infer.body;
    let set_already = suggestion.as_deref().is_some_and(|suggested| {
        (body.block(BlockId::ROOT).attrs.iter()).any(|&a| body.str(body.attr(a).name) == suggested)
    });
    let db = infer.db;
    let diagnostic = infer.report(codes::UNKNOWN_ATTRIBUTE, Site::AttrName(attr), message);
    match suggestion {
        Some(s) if set_already => diagnostic.notes.push(format!(
            "did you mean '{s}'? It is set already in this body: remove one of the two"
        )),
        Some(s) => {
            diagnostic.notes.push(format!("did you mean '{s}'?"));
            diagnostic.replace_with(at, &format!("`{s}`"), s);
        }
        None if let Some(note) = crate::misplaced::misplaced_property_note(
            db,
            inputs.iter().map(|i| (i.name, i.ty)),
            name,
        ) =>
        {
            diagnostic.notes.push(note);
        }
        None if !inputs.is_empty() => {
            let mut names: Vec<&str> = inputs.iter().map(|i| i.name).collect();
            names.sort_unstable();
            let shown = names
                .iter()
                .take(12)
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            let more = if names.len() > 12 { ", ..." } else { "" };
            diagnostic
                .notes
                .push(format!("its inputs are: {shown}{more}"));
        }
        None => diagnostic.notes.push("it takes no inputs".to_owned()),
    }
}

/// The type each option takes (checked as `In(T)`); `None` for options checked by hand.
fn option_type<'db>(db: &'db dyn pcl_types::Db, name: &str) -> Option<Option<Ty<'db>>> {
    let dynamic = Ty::dynamic(db);
    let opt = |t| Ty::optional(db, t);
    let object = |fields: Vec<(&str, Ty<'db>)>| {
        Ty::object(db, fields.into_iter().map(|(n, t)| (Name::from(n), t)))
    };
    Some(Some(match name {
        "range" => return Some(None),
        "parent" | "provider" | "deletedWith" | "replacementTrigger" => dynamic,
        "providers" => Ty::union(db, [Ty::map(db, dynamic), Ty::list(db, dynamic)]),
        "dependsOn" | "replaceWith" => Ty::list(db, dynamic),
        "protect" | "retainOnDelete" | "deleteBeforeReplace" => Ty::bool(db),
        "version" | "pluginDownloadURL" | "import" => Ty::string(db),
        "customTimeouts" => object(vec![
            ("create", opt(Ty::string(db))),
            ("update", opt(Ty::string(db))),
            ("delete", opt(Ty::string(db))),
            ("read", opt(Ty::string(db))),
        ]),
        "aliases" => Ty::list(
            db,
            Ty::union(
                db,
                [
                    Ty::string(db),
                    object(vec![
                        ("name", opt(Ty::string(db))),
                        ("type", opt(Ty::string(db))),
                        ("noParent", opt(Ty::bool(db))),
                        ("parent", opt(dynamic)),
                    ]),
                ],
            ),
        ),
        "envVarMappings" => Ty::map(db, Ty::string(db)),
        _ if PROPERTY_LIST_OPTIONS.contains(&name) => return Some(None),
        _ => return None,
    }))
}

const OPTION_NAMES: &[&str] = &[
    "range",
    "parent",
    "provider",
    "deletedWith",
    "replacementTrigger",
    "providers",
    "dependsOn",
    "replaceWith",
    "protect",
    "retainOnDelete",
    "deleteBeforeReplace",
    "ignoreChanges",
    "hideDiffs",
    "replaceOnChanges",
    "additionalSecretOutputs",
    "version",
    "pluginDownloadURL",
    "import",
    "customTimeouts",
    "aliases",
    "envVarMappings",
    "hooks",
];

/// Whether `name` is surely a misspelling of `close` (a did-you-mean's answer), for a
/// fix rather than a note: one edit away or two letters swapped (`tok` is two edits from
/// `tls`, and no misspelling of it), and neither a prefix of the other (`awsx` and
/// `aws`, `azuread` and `azure` are packages of their own).
fn surely_misspelt(name: &str, close: &str) -> bool {
    if name.starts_with(close) || close.starts_with(name) {
        return false;
    }
    let swapped = {
        let (a, b): (Vec<char>, Vec<char>) = (name.chars().collect(), close.chars().collect());
        let differ: Vec<usize> = (0..a.len()).filter(|&i| b.get(i) != a.get(i)).collect();
        a.len() == b.len()
            && matches!(differ.as_slice(), [i, j] if *j == i + 1 && a[*i] == b[*j] && a[*j] == b[*i])
    };
    match pcl_types::suggestion_distance(name, close) {
        Some(distance) => distance <= 1 || swapped,
        None => false,
    }
}

/// What each resource option does, in a sentence (completion and hover show it).
pub fn option_summary(name: &str) -> Option<&'static str> {
    Some(match name {
        "range" => {
            "Repeats the resource: a number makes that many, a list or map one per element (`range.value`, `range.key`), a bool zero or one."
        }
        "parent" => "The resource this one is a child of, in its name and in the resource tree.",
        "provider" => "The provider resource (`pulumi:providers:PKG`) that manages this resource.",
        "deletedWith" => {
            "A resource whose deletion deletes this one: Pulumi does not delete it itself."
        }
        "replacementTrigger" => "A value whose change replaces the resource.",
        "providers" => "Providers for a component's children, one per package.",
        "dependsOn" => "Resources to create before this one, besides those its inputs read.",
        "replaceWith" => "Resources whose replacement replaces this one too.",
        "protect" => "Refuses to delete the resource (a destroy or a replacement fails) while set.",
        "retainOnDelete" => "Leaves the cloud resource in place when Pulumi deletes it.",
        "deleteBeforeReplace" => "Deletes the old resource before creating its replacement.",
        "ignoreChanges" => {
            "Inputs whose changes do not update the resource: property paths, `[tags, website.indexDocument]`."
        }
        "hideDiffs" => "Inputs whose changes are not shown in previews.",
        "replaceOnChanges" => "Inputs whose changes replace the resource instead of updating it.",
        "additionalSecretOutputs" => "Outputs to keep secret, by name: `[\"password\"]`.",
        "version" => "The version of the provider plugin to use: `\"4.11.2\"`.",
        "pluginDownloadURL" => "Where to download the provider plugin from.",
        "import" => "The ID of an existing cloud resource to adopt instead of creating one.",
        "customTimeouts" => {
            "How long creating, updating and deleting may take: `{ create = \"30m\" }`."
        }
        "aliases" => {
            "Former names or parents of the resource, so that renaming it does not replace it."
        }
        "envVarMappings" => "Environment variables of the provider, renamed for it.",
        "hooks" => "Resource hooks to run before or after its operations.",
        _ => return None,
    })
}

/// Check the `options` block (outside the scope of `range`) of a resource with
/// `properties` (its inputs and outputs, when its schema is known); `custom` is the token
/// of a custom resource, whose `provider` must be of its package.
fn check_options<'db>(
    infer: &mut Infer<'db>,
    options: BlockId,
    properties: (Option<&[Input<'db>]>, Option<&[Property<'db>]>),
    range: Option<ExprId>,
    custom: Option<&str>,
) {
    let db = infer.db;
    let body = infer.body;
    infer.in_options = true;
    for &nested in body.block(options).blocks.iter() {
        let kind = body.block_kind(nested);
        infer.push(
            codes::UNEXPECTED_BLOCK,
            Severity::Error,
            Site::BlockType(nested),
            format!("unexpected block `{kind}` in options"),
        );
    }
    for &attr in body.block(options).attrs.iter() {
        let data = body.attr(attr);
        let name = body.str(data.name);
        if name == "hooks" {
            infer.expr(data.value);
            hooks_option(infer, data.value);
            continue;
        }
        match option_type(db, name) {
            Some(Some(ty)) => {
                infer.expr(data.value);
                let before = infer.diagnostics.len();
                let fits = infer.check_value(
                    data.value,
                    input_type(db, ty),
                    &format_args!("option `{name}`"),
                );
                // The types of these spell out every optional field: an example reads
                // better.
                let example = match name {
                    "customTimeouts" => {
                        Some("customTimeouts = { create = \"10m\", delete = \"5m\" }")
                    }
                    "aliases" => Some("aliases = [{ name = \"oldName\" }]"),
                    _ => None,
                };
                if !fits && let Some(example) = example {
                    for diagnostic in &mut infer.diagnostics[before..] {
                        diagnostic.notes.push(format!("for example: {example}"));
                    }
                }
                let user = ProviderUser::Resource(custom.and_then(token_package));
                option_values(infer, name, data.value, user);
            }
            Some(None) if Some(data.value) == range => {
                let expected = Ty::union(
                    db,
                    [
                        Ty::bool(db),
                        Ty::number(db),
                        Ty::list(db, Ty::dynamic(db)),
                        Ty::map(db, Ty::dynamic(db)),
                    ],
                );
                let lenient = infer.lenient;
                infer.lenient |= infer.leniency.skip_range_typecheck;
                infer.expect(data.value, input_type(db, expected), &"option `range`");
                fractional_range(infer, data.value);
                infer.lenient = lenient;
            }
            Some(None) => property_list(infer, data.value, properties, name),
            None => {
                infer.expr(data.value);
                let setting = terraform_setting_note(name);
                let suggestion = match setting {
                    Some(_) => None,
                    None => terraform_option(name)
                        .map(|(option, _)| option)
                        .or_else(|| pcl_types::closest_name(name, OPTION_NAMES.iter().copied())),
                };
                let message = format!("unknown resource option `{name}`");
                let at = infer.at(Site::AttrName(attr));
                let diagnostic = infer.push(
                    codes::UNKNOWN_ATTRIBUTE,
                    Severity::Error,
                    Site::AttrName(attr),
                    message,
                );
                if let Some((_, note)) = terraform_option(name) {
                    diagnostic.notes.push(note.to_owned());
                }
                match (suggestion, setting) {
                    (Some(s), _) => diagnostic.suggest(at, s.to_owned()),
                    (None, Some(note)) => diagnostic.notes.push(note.to_owned()),
                    (None, None) => diagnostic
                        .notes
                        .push(format!("the options are: {}", OPTION_NAMES.join(", "))),
                }
            }
        }
    }
    infer.in_options = false;
}

/// `range = 2.5`: Go counts up to it (three resources in TypeScript's loop), Python's
/// `range(2.5)` fails. An error beyond Go.
fn fractional_range(infer: &mut Infer<'_>, value: ExprId) {
    let body = infer.body;
    let Expr::Number(number) = body.expr(value) else {
        return;
    };
    if body.number(*number).is_integer() {
        return;
    }
    let written = ConstValue::Number(body.number(*number).value()).pretty();
    let severity = infer.lenient_beyond_go_severity();
    let message = format!("option `range` must be a whole number of resources, not {written}");
    (infer
        .push(codes::TYPE_MISMATCH, severity, Site::Expr(value), message)
        .notes)
        .push("a number `range` makes that many resources, numbered from 0".to_owned());
}

/// The options whose values are resources: `parent`, `provider` and `deletedWith` one,
/// `dependsOn` and `replaceWith` a list of them.
const RESOURCE_OPTIONS: &[&str] = &["parent", "provider", "deletedWith"];
const RESOURCE_LIST_OPTIONS: &[&str] = &["dependsOn", "replaceWith"];

/// `dependsOn = ["bucket"]`, `parent = bucket.id`: Go takes any list, and any value for the
/// single ones, and the deploy fails on a value that is not a resource. An error beyond Go
/// for values that are plain strings, numbers or bools, or outputs of them, with the fix
/// when a string names a resource or the value is an attribute of one.
fn resource_option_values(infer: &mut Infer<'_>, name: &str, value: ExprId) {
    let body = infer.body;
    if name == "provider" && matches!(body.expr(value), Expr::Object(_)) {
        let message = "option `provider` takes one provider resource, not a map of them";
        let note = "providers by package (for a component's children) are the option `providers`: write `providers = { ... }`";
        one_provider_or_many(infer, value, message, note);
    } else if name == "providers" && is_one_resource(infer, value) {
        let message = "option `providers` takes a list or a map of provider resources, not one";
        let note = "for this resource's own provider write `provider = ...`; for a component's children, `providers = [...]`";
        one_provider_or_many(infer, value, message, note);
    } else if RESOURCE_OPTIONS.contains(&name) {
        not_a_resource(infer, &format!("option `{name}`"), value, true);
    } else if RESOURCE_LIST_OPTIONS.contains(&name)
        && let Expr::Tuple(elements) = body.expr(value)
    {
        let elements = body.list(*elements);
        for &element in elements {
            if let Some(map) = collection_kind(infer, element) {
                let only = elements.len() == 1;
                nested_collection(infer, name, value, element, only, map);
            } else {
                not_a_resource(infer, &format!("a `{name}` element"), element, false);
            }
        }
    }
}

/// `provider` given a map, or `providers` one provider: beyond Go, which takes any value
/// (the SDKs fail at deploy, or drop the providers).
fn one_provider_or_many(infer: &mut Infer<'_>, value: ExprId, message: &str, note: &str) {
    let severity = infer.beyond_go_severity();
    let site = Site::Expr(value);
    let diagnostic = infer.push(codes::TYPE_MISMATCH, severity, site, message.to_owned());
    diagnostic.notes.push(note.to_owned());
}

/// The type of `value`, or of what it is an output or a promise of.
fn eventual_value_type<'db>(infer: &mut Infer<'db>, value: ExprId) -> Ty<'db> {
    let ty = infer.ty_of(value);
    match ty.kind(infer.db) {
        TyKind::Output(inner) | TyKind::Promise(inner) => *inner,
        _ => ty,
    }
}

/// Whether `value` is one resource (an object with a `urn`), or an output of one.
fn is_one_resource(infer: &mut Infer<'_>, value: ExprId) -> bool {
    let db = infer.db;
    let ty = eventual_value_type(infer, value);
    matches!(ty.kind(db), TyKind::Object(properties) if properties.iter().any(|(name, _)| &**name == "urn"))
}

/// Whether `value` is a map (`Some(true)`) or a list, tuple or set (`Some(false)`) of
/// resources, an output of one included.
fn collection_kind(infer: &mut Infer<'_>, value: ExprId) -> Option<bool> {
    let db = infer.db;
    let ty = eventual_value_type(infer, value);
    // Of resources (objects) or of what is not known: a list of strings is no collection
    // of resources, and what it is wrong with is said elsewhere.
    let of_resources =
        |element: Ty<'_>| matches!(element.kind(db), TyKind::Object(_) | TyKind::Dynamic);
    match ty.kind(db) {
        TyKind::List(element) | TyKind::Set(element) if of_resources(*element) => Some(false),
        TyKind::Tuple(elements) if elements.iter().all(|e| of_resources(*e)) => Some(false),
        TyKind::Map(element) if of_resources(*element) => Some(true),
        _ => None,
    }
}

/// `dependsOn = [pets]`, where `pets` has a `range`: Go takes any list and Node flattens
/// nested arrays, but the Python SDK raises "was passed a value ... that was not a Resource"
/// and the Go program does not compile. An error beyond Go, fixed to `dependsOn = pets`
/// (a `for` over a `map`'s values) when the collection is the only element.
fn nested_collection(
    infer: &mut Infer<'_>,
    name: &str,
    list: ExprId,
    element: ExprId,
    only: bool,
    map: bool,
) {
    let body = infer.body;
    let written = match body.expr(element) {
        Expr::Name(name) => Some(body.str(*name)),
        _ => None,
    };
    let message = format!("a `{name}` element must be one resource, not a collection of them");
    let severity = infer.beyond_go_severity();
    let at = infer.at(Site::Expr(list));
    let diagnostic = infer.push(codes::TYPE_MISMATCH, severity, Site::Expr(element), message);
    diagnostic.notes.push(
        "Python's and Go's SDKs take each element as one resource and fail on a list in the list"
            .to_owned(),
    );
    match written {
        Some(collection) if only => {
            let list = match map {
                true => format!("[for resource in {collection} : resource]"),
                false => collection.to_owned(),
            };
            let what = if map {
                "its values as a list"
            } else {
                "the collection itself"
            };
            (diagnostic.notes).push(format!("give {what}: `{name} = {list}`"));
            diagnostic.replace_with(at, &format!("`{list}`"), list.clone());
        }
        Some(collection) => diagnostic.notes.push(format!(
            "name its resources one by one (`{collection}[0]`, ...), or give `{name} = \
             {collection}` alone"
        )),
        None => diagnostic
            .notes
            .push("list the resources themselves, one element each".to_owned()),
    }
}

/// Report `value` when it is a plain value or an output of one, where `what` must be a
/// resource (`single`: one resource, not a collection of them).
fn not_a_resource(infer: &mut Infer<'_>, what: &str, value: ExprId, single: bool) {
    let db = infer.db;
    let body = infer.body;
    let ty = infer.ty_of(value);
    let (ty, eventual) = match ty.kind(db) {
        TyKind::Output(inner) | TyKind::Promise(inner) => (*inner, true),
        _ => (ty, false),
    };
    let plain = match ty.kind(db) {
        TyKind::Const(underlying, _) => *underlying,
        _ => ty,
    };
    // An object that is no resource (a resource's has its `urn`): a function's result?
    let not_resource = match plain.kind(db) {
        TyKind::Object(properties) => !properties.iter().any(|(name, _)| &**name == "urn"),
        TyKind::Named(_) => true,
        _ => false,
    };
    if not_resource && let Some(result) = function_result(infer, value) {
        let message = format!("{what} must be a resource, not the result of a function ({result})");
        let note =
            "a function's result is data: an input that reads it already waits for it".to_owned();
        return report_not_a_resource(infer, value, message, Some((note, None)), "a resource");
    }
    let kind = match (plain.kind(db), eventual) {
        (TyKind::String, false) => "a string",
        (TyKind::Int | TyKind::Number, false) => "a number",
        (TyKind::Bool, false) => "a bool",
        (TyKind::Id, false) => "an id",
        (TyKind::String, true) => "an output string",
        (TyKind::Int | TyKind::Number, true) => "an output number",
        (TyKind::Bool, true) => "an output bool",
        (TyKind::Id, true) => "an output id",
        (TyKind::List(_) | TyKind::Tuple(_) | TyKind::Set(_), _) if single => {
            return one_of_many(infer, what, value, "[0]");
        }
        (TyKind::Map(_), _) if single => return one_of_many(infer, what, value, "[\"key\"]"),
        _ => return,
    };
    let named = match body.expr(value) {
        Expr::String(text) => Some(body.str(*text)),
        Expr::GetAttr { base, .. } => match body.expr(*base) {
            Expr::Name(name) => Some(body.str(*name)),
            _ => None,
        },
        _ => None,
    };
    let fix = named
        .filter(|name| names_resource(infer, name))
        .map(|name| {
            let written = match body.expr(value) {
                Expr::String(_) => "without quotes",
                _ => "not one of its attributes",
            };
            let note = format!("refer to the resource itself: `{name}`, {written}");
            (note, Some(name.to_owned()))
        });
    let message = format!("{what} must be a resource, not {kind}");
    report_not_a_resource(infer, value, message, fix, "a resource");
}

/// How `value` is a function's result, when it is one: an `invoke` call, or a local whose
/// value is one (`net`, with `net = invoke(...)`).
fn function_result(infer: &Infer<'_>, value: ExprId) -> Option<String> {
    let db = infer.db;
    if matches!(infer.body.expr(value), Expr::Call(call) if call.name == pcl_syntax::INVOKE) {
        return Some("`invoke`".to_owned());
    }
    let (decl, name) = infer.named_declaration(value)?;
    (decl.kind(db) == DeclKind::Local && *local_is_invoke(db, decl))
        .then(|| format!("`{name}` is an `invoke`"))
}

/// Whether a local's value is an `invoke` call. A query of its own, which backdates: an
/// edit of the local that keeps it one re-checks none of the options that name it.
#[salsa::tracked]
fn local_is_invoke<'db>(db: &'db dyn salsa::Database, decl: crate::items::DeclId<'db>) -> bool {
    let body = crate::hir::body(db, decl);
    body.value.is_some_and(
        |value| matches!(body.expr(value), Expr::Call(call) if call.name == pcl_syntax::INVOKE),
    )
}

/// Report `value` where a resource must be (`message`), beyond Go: with `fix` (a note, and
/// what to write instead when there is one), else a note to name `wanted`.
fn report_not_a_resource(
    infer: &mut Infer<'_>,
    value: ExprId,
    message: String,
    fix: Option<(String, Option<String>)>,
    wanted: &str,
) {
    let at = infer.at(Site::Expr(value));
    let severity = infer.beyond_go_severity();
    let site = Site::Expr(value);
    let diagnostic = infer.push(codes::TYPE_MISMATCH, severity, site, message);
    match fix {
        Some((note, replacement)) => {
            diagnostic.notes.push(note);
            if let Some(replacement) = replacement {
                diagnostic.replace_with(at, &format!("`{replacement}`"), replacement);
            }
        }
        None => diagnostic
            .notes
            .push(format!("name {wanted} of the program (or a component)")),
    }
}

/// What an option's `provider` is for, with its package when known.
#[derive(Clone, Copy)]
pub(crate) enum ProviderUser<'a> {
    /// A custom resource (for a component, none: it takes any package's).
    Resource(Option<&'a str>),
    /// An `invoke`d function.
    Function(Option<&'a str>),
}

/// The checks of an option's value beyond its type, for a resource's `options` and an
/// invoke's: options that take resources given other values, constants the engine
/// parses (`version`), and a `provider` that is no provider or of another package.
pub(crate) fn option_values(
    infer: &mut Infer<'_>,
    name: &str,
    value: ExprId,
    user: ProviderUser<'_>,
) {
    resource_option_values(infer, name, value);
    crate::option_constants::check_option_constant(infer, name, value);
    if name == "provider" {
        provider_of_package(infer, value, user);
    }
}

/// `provider = tlsProvider` names a resource that must be a provider (`pulumi:providers:…`),
/// else the SDKs fail at deploy (an error beyond Go). A custom resource's provider must
/// be its own package's, else the SDKs keep it only for the resource's children (a
/// warning); a function's too, else the engine asks that provider for a function it does
/// not have (an error beyond Go).
fn provider_of_package(infer: &mut Infer<'_>, value: ExprId, user: ProviderUser<'_>) {
    let Some((name, token)) = named_resource(infer, value) else {
        return;
    };
    let (package, what, effect, severity) = match user {
        ProviderUser::Resource(package) => (
            package,
            "resource",
            "Pulumi does not use it for this resource",
            Severity::Warning,
        ),
        ProviderUser::Function(package) => (
            package,
            "function",
            "Pulumi asks it for a function it does not have",
            infer.beyond_go_severity(),
        ),
    };
    let site = Site::Expr(value);
    match crate::items::provider_package(token) {
        // `aws:index:Provider`, reported at its declaration with the type to write.
        None if is_provider_like(token) => {}
        None => {
            let severity = infer.beyond_go_severity();
            let message = format!(
                "option `provider` must be a provider resource, but `{name}` is a `{token}`"
            );
            let wanted = package.unwrap_or("PACKAGE");
            let note = format!(
                "a provider is a resource of type `pulumi:providers:{wanted}`, such as \
                 `resource {wanted}Provider \"pulumi:providers:{wanted}\" {{ ... }}`"
            );
            let diagnostic = infer.push(codes::TYPE_MISMATCH, severity, site, message);
            diagnostic.notes.push(note);
        }
        Some(provider) => {
            let Some(package) = package.filter(|package| *package != provider) else {
                return;
            };
            let message = format!(
                "`{name}` is a provider for `{provider}`, but this {what} is from package \
                 `{package}`: {effect}"
            );
            let note = format!(
                "give a `pulumi:providers:{package}` resource here, or leave `provider` out \
                 for the default `{package}` provider"
            );
            let diagnostic = infer.push(codes::TYPE_MISMATCH, severity, site, message);
            diagnostic.notes.push(note);
        }
    }
}

/// The name and type token of the resource `value` names (`a`, or `a[0]` of one with a
/// `range`); a component's token reads `component`.
pub(crate) fn named_resource<'db>(
    infer: &Infer<'db>,
    value: ExprId,
) -> Option<(&'db str, &'db str)> {
    let db = infer.db;
    let named = match infer.body.expr(value) {
        Expr::Index { base, .. } => *base,
        _ => value,
    };
    let (decl, name) = infer.named_declaration(named)?;
    let token = match decl.kind(db) {
        DeclKind::Resource => decl_item(db, decl)?.label.as_deref()?,
        DeclKind::Component => "component",
        _ => return None,
    };
    Some((name, token))
}

/// Whether `name` is a resource or component of the program.
fn names_resource(infer: &Infer<'_>, name: &str) -> bool {
    matches!(
        infer.declared_kind(name),
        Some(DeclKind::Resource | DeclKind::Component)
    )
}

/// Report a collection where `what` must be one resource (`parent = pages`, where `pages`
/// has a `range`): when it names a resource, how to pick one (`index`: `[0]` of a list,
/// `["key"]` of a map, whose keys the check does not know).
fn one_of_many(infer: &mut Infer<'_>, what: &str, value: ExprId, index: &str) {
    let body = infer.body;
    let named = match body.expr(value) {
        Expr::Name(name) => Some(body.str(*name)),
        _ => None,
    };
    let fix = named
        .filter(|name| names_resource(infer, name))
        .map(|name| {
            let note = format!(
                "`{name}` has a `range`: pick one of its resources, such as `{name}{index}`"
            );
            (note, (index == "[0]").then(|| format!("{name}[0]")))
        });
    let message = format!("{what} must be one resource, not a collection");
    report_not_a_resource(infer, value, message, fix, "one resource");
}

/// The lifecycle points a resource option `hooks` binds hooks to.
const HOOK_NAMES: &[&str] = &[
    "beforeCreate",
    "afterCreate",
    "beforeUpdate",
    "afterUpdate",
    "beforeDelete",
    "afterDelete",
    "onError",
];

/// `hooks = { beforeCreate = [hook, ...], onError = [errorHook] }`, checked as Go's
/// `bindResourceOptions` does: an object of known names, each a list, resource hooks
/// everywhere but `onError`, which takes error hooks.
fn hooks_option(infer: &mut Infer<'_>, value: ExprId) {
    let db = infer.db;
    let body = infer.body;
    let not_an_object = |infer: &mut Infer<'_>, at: ExprId| {
        infer
            .report(
                codes::TYPE_MISMATCH,
                Site::Expr(at),
                "option `hooks` must be an object mapping hook names to lists of hooks".to_owned(),
            )
            .notes
            .push("for example: hooks = { beforeCreate = [myHook] }".to_owned());
    };
    let Expr::Object(items) = body.expr(value) else {
        not_an_object(infer, value);
        return;
    };
    for &[key, list] in body.pairs(*items) {
        let Expr::String(point) = body.expr(key) else {
            continue;
        };
        let point = body.str(*point);
        if !HOOK_NAMES.contains(&point) {
            let suggestion =
                pcl_types::closest_name(point, HOOK_NAMES.iter().copied()).map(str::to_owned);
            let at = infer.at(Site::Expr(key));
            let diagnostic = infer.report(
                codes::UNKNOWN_ATTRIBUTE,
                Site::Expr(key),
                format!("unknown hook name `{point}`"),
            );
            match suggestion {
                Some(s) => {
                    diagnostic.suggest(at, s);
                }
                None => diagnostic
                    .notes
                    .push(format!("the hook names are {}", HOOK_NAMES.join(", "))),
            }
        }
        let Expr::Tuple(hooks) = body.expr(list) else {
            not_an_object(infer, list);
            continue;
        };
        let wants_error_hook = point == "onError";
        for &hook in body.list(*hooks) {
            let Expr::Name(name) = body.expr(hook) else {
                continue;
            };
            let name = body.str(*name);
            let Some(crate::scope::Resolution::Decl(decl)) = infer.bindings_of(name) else {
                continue;
            };
            if decl.kind(db) != DeclKind::Hook {
                continue;
            }
            let kind = (crate::hir::body(db, decl).label(BlockId::ROOT, 0)).unwrap_or_default();
            if (kind == "error") != wants_error_hook {
                let needed = if wants_error_hook {
                    "an error"
                } else {
                    "a resource"
                };
                infer
                    .report(
                        codes::TYPE_MISMATCH,
                        Site::Expr(hook),
                        format!("cannot bind {kind} hook `{name}` to `{point}`"),
                    )
                    .notes
                    .push(format!("`{point}` takes {needed} hook"));
            }
        }
    }
}

/// `ignoreChanges = [prop, prop.nested]`: each element names an input property (of
/// `properties`, the inputs and outputs).
fn property_list<'db>(
    infer: &mut Infer<'db>,
    value: ExprId,
    (inputs, outputs): (Option<&[Input<'db>]>, Option<&[Property<'db>]>),
    option: &str,
) {
    let body = infer.body;
    let Expr::Tuple(elements) = body.expr(value) else {
        // One property's name: the fix wraps it in `[ ]`.
        let one = matches!(body.expr(value), Expr::Name(_) | Expr::GetAttr { .. });
        let at = infer.at(Site::Expr(value));
        let diagnostic = infer.push(
            codes::TYPE_MISMATCH,
            Severity::Error,
            Site::Expr(value),
            format!("option `{option}` must be a list of input property names"),
        );
        if one {
            diagnostic.notes.push("write the name in `[ ]`".to_owned());
            (diagnostic.fixes).push(crate::diagnostics::SemaFix::wrap_in_brackets(at));
        }
        return;
    };
    for &element in body.list(*elements) {
        let mut root = element;
        while let Expr::GetAttr { base, .. } | Expr::Index { base, .. } = body.expr(root) {
            root = *base;
        }
        let Expr::Name(name) = body.expr(root) else {
            let quoted = match body.expr(element) {
                Expr::String(text) => Some(body.str(*text)),
                _ => None,
            };
            let at = infer.at(Site::Expr(element));
            let diagnostic = infer.push(
                codes::TYPE_MISMATCH,
                Severity::Error,
                Site::Expr(element),
                format!("option `{option}` takes input property names, not expressions"),
            );
            match quoted {
                Some("*") => diagnostic.notes.push(format!(
                    "PCL has no `*` here: name each input, `{option} = [tags, name]`"
                )),
                // An output's name, which the option cannot take unquoted either.
                Some(text)
                    if pcl_syntax::is_identifier(text)
                        && inputs.is_some_and(|inputs| inputs.iter().all(|i| *i.name != *text))
                        && outputs.is_some_and(|o| o.iter().any(|p| *p.name == *text)) =>
                {
                    diagnostic.notes.push(output_in_property_list(text, option));
                }
                Some(text) if pcl_syntax::is_identifier(text) => {
                    diagnostic
                        .notes
                        .push("write the property name without quotes".to_owned());
                    diagnostic.replace_with(at, &format!("`{text}`"), text.to_owned());
                }
                _ => diagnostic
                    .notes
                    .push("write the property name without quotes".to_owned()),
            }
            continue;
        };
        let name = body.str(*name);
        if let Some(input) = inputs.and_then(|inputs| inputs.iter().find(|i| *i.name == *name)) {
            property_path(infer, element, root, input.ty);
        } else if let Some(inputs) = inputs {
            let suggestion =
                pcl_types::closest_name(name, inputs.iter().map(|i| i.name)).map(str::to_owned);
            let diagnostic = infer.push(
                codes::UNKNOWN_PROPERTY,
                Severity::Error,
                Site::Expr(root),
                format!("`{name}` is not an input property of this resource"),
            );
            let is_output = outputs.is_some_and(|o| o.iter().any(|p| *p.name == *name));
            if is_output {
                diagnostic.notes.push(output_in_property_list(name, option));
            } else if let Some(s) = suggestion {
                diagnostic.notes.push(format!("did you mean '{s}'?"));
            }
        }
    }
}

/// Why an output's `name` cannot be in the property list of `option`, and what to do.
fn output_in_property_list(name: &str, option: &str) -> String {
    let instead = match option {
        "additionalSecretOutputs" => format!(
            "; to keep the output secret, wrap it where it is used, `secret(resource.{name})`"
        ),
        _ => String::new(),
    };
    format!(
        "`{name}` is an output: Pulumi's binder looks these names up among the inputs only{instead}"
    )
}

/// The steps after an input's name in a property list (`metadata.labels`, `ports[0].name`),
/// traversed from the input's type `ty` as Go's binder traverses a property reference: an
/// unknown property or an index a value does not have is reported as in an expression.
fn property_path<'db>(infer: &mut Infer<'db>, element: ExprId, root: ExprId, mut ty: Ty<'db>) {
    let body = infer.body;
    let mut steps = Vec::new();
    let mut step = element;
    while step != root {
        steps.push(step);
        match body.expr(step) {
            Expr::GetAttr { base, .. } | Expr::Index { base, .. } => step = *base,
            _ => return,
        }
    }
    for &step in steps.iter().rev() {
        let key = match body.expr(step) {
            Expr::GetAttr { name, .. } => TraverseKey::Attr(SmolStr::new(body.str(*name))),
            Expr::Index { key, .. } => match literal_value(body, body.expr(*key)) {
                Some(value) => TraverseKey::Literal(value),
                None => return,
            },
            _ => return,
        };
        ty = infer.traverse(step, ty, key);
    }
}

/// The type `range` has in the body (`None` when the range is a condition).
fn range_variable<'db>(
    infer: &mut Infer<'db>,
    range: ExprId,
    range_ty: Ty<'db>,
    component: bool,
) -> Option<Ty<'db>> {
    let db = infer.db;
    let object = |fields: Vec<(&str, Ty<'db>)>| {
        Ty::object(db, fields.into_iter().map(|(n, t)| (Name::from(n), t)))
    };
    match range_kind(db, range_ty, component) {
        RangeKind::Condition => None,
        RangeKind::Count => Some(object(vec![("value", Ty::int(db))])),
        RangeKind::Collection => {
            let resolved = strip_range(db, range_ty, component);
            let (key, value) = match collection_types(db, resolved) {
                Some(types) => types,
                None => infer.collection_types(range, resolved),
            };
            Some(object(vec![("key", key), ("value", value)]))
        }
    }
}

enum RangeKind {
    Condition,
    Count,
    Collection,
}

/// `range`'s type with outputs resolved and (for resources) one optional layer removed.
fn strip_range<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>, component: bool) -> Ty<'db> {
    let resolved = resolve_outputs(db, ty);
    if component {
        return resolved;
    }
    match resolved.kind(db) {
        TyKind::Union(members) if members.iter().any(|m| m.is_none(db)) => {
            Ty::union(db, members.iter().copied().filter(|m| !m.is_none(db)))
        }
        _ => resolved,
    }
}

fn range_kind<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>, component: bool) -> RangeKind {
    let t = strip_range(db, ty, component);
    if conversion(db, input_type(db, Ty::bool(db)), t) == Conversion::Safe {
        RangeKind::Condition
    } else if conversion(db, input_type(db, Ty::number(db)), t) == Conversion::Safe {
        RangeKind::Count
    } else {
        RangeKind::Collection
    }
}

/// The declaration type of a ranged resource or component whose single instance has
/// type `element`.
/// The type of a `range` value, and whether its own error made it `dynamic` (a misspelt
/// name): the declaration is then `dynamic`, not a collection its readers are told to index
/// (one mistake, one error).
fn range_value_type<'db>(infer: &mut Infer<'db>, range: ExprId) -> (Ty<'db>, bool) {
    let reported = infer.diagnostics.len();
    let ty = infer.expr(range);
    (
        ty,
        ty.is_dynamic(infer.db) && infer.diagnostics.len() > reported,
    )
}

fn ranged_type<'db>(
    infer: &mut Infer<'db>,
    range: ExprId,
    range_ty: Ty<'db>,
    element: Ty<'db>,
    component: bool,
) -> Ty<'db> {
    let db = infer.db;
    let _ = range;
    match range_kind(db, range_ty, component) {
        RangeKind::Condition if component => Ty::optional(db, element),
        RangeKind::Condition => lift(db, Ty::optional(db, element), &[range_ty]),
        RangeKind::Count => Ty::list(db, element),
        RangeKind::Collection => {
            let resolved = strip_range(db, range_ty, component);
            let string_keys =
                collection_types(db, resolved).is_some_and(|(k, _)| k == Ty::string(db));
            let shaped = if string_keys {
                Ty::map(db, element)
            } else {
                Ty::list(db, element)
            };
            if component {
                shaped
            } else {
                wrap_iterable(db, range_ty, shaped)
            }
        }
    }
}

/// Check a `component` block; the declaration's type.
pub(crate) fn component<'db>(infer: &mut Infer<'db>) -> Ty<'db> {
    let db = infer.db;
    let body = infer.body;
    let options = options_block(infer);
    let range = options
        .and_then(|o| body.find_attr(o, "range"))
        .map(|a| body.attr(a).value);
    let range_ty = range.map(|r| range_value_type(infer, r));
    let program = infer.decl.program(db);
    let target = component_program(infer, program);
    let (inputs, element) = match target {
        Some(target) => {
            let scope = program_scope(db, target);
            let mut inputs: Vec<Input<'db>> = Vec::new();
            let mut configs: Vec<_> = scope
                .names
                .values()
                .copied()
                .filter(|d| d.kind(db) == DeclKind::Config)
                .collect();
            configs.sort_by_key(|&config| logical_name(db, config));
            renamed_interface(infer, &configs, scope.outputs.values().copied());
            for config in configs {
                let result = infer_decl(db, config);
                inputs.push(Input {
                    name: logical_name(db, config),
                    ty: input_type(db, result.value_ty),
                    required: result.required,
                    discriminator: None,
                    missing_package: None,
                });
            }
            (Some(inputs), component_outputs(db, target))
        }
        None => (None, infer.dynamic()),
    };
    let range_var = range
        .zip(range_ty)
        .map(|(r, (t, _))| range_variable(infer, r, t, true));
    if let Some(Some(var)) = range_var {
        infer.locals.push(("range".into(), var));
    }
    let name = infer.decl.name(db).clone();
    // As Go's `binder_component.go`: component input errors are warnings when skipping.
    infer.lenient |= infer.leniency.skip_resource_typecheck;
    check_inputs(
        infer,
        inputs.as_deref(),
        &format!("component '{name}'"),
        false,
    );
    if let Some(Some(_)) = range_var {
        infer.locals.pop();
    }
    if let Some(options) = options {
        check_options(infer, options, (None, None), range, None);
    }
    match (range, range_ty) {
        (Some(_), Some((_, true))) => infer.dynamic(),
        (Some(range), Some((range_ty, _))) => ranged_type(infer, range, range_ty, element, true),
        _ => element,
    }
}

/// The type of a component of `target`: an object of its outputs (by logical name), each
/// an `output`.
fn component_outputs<'db>(db: &'db dyn pcl_types::Db, target: Program) -> Ty<'db> {
    let outputs = (program_scope(db, target).outputs.values()).map(|&output| {
        let value = infer_decl(db, output).value_ty;
        (Name::from(logical_name(db, output)), Ty::output(db, value))
    });
    Ty::object(db, outputs.collect::<Vec<_>>())
}

/// The type of a component without `range`, read from its source alone (as a resource
/// without `range` is typed by its token): so two components may read each other's
/// outputs (Pulumi resolves them lazily), and what reads them is still checked. `None`
/// when its source is no other program (its check says why).
pub(crate) fn unranged_component_ty<'db>(
    db: &'db dyn pcl_types::Db,
    decl: crate::items::DeclId<'db>,
) -> Option<Ty<'db>> {
    if decl.kind(db) != DeclKind::Component {
        return None;
    }
    let item = crate::items::decl_item(db, decl)?;
    let source = item.label.as_deref().filter(|_| !item.ranged)?;
    let program = decl.program(db);
    let dir = join_dir(program.dir(db), source);
    let target = program_at(db, &dir).filter(|_| dir != *program.dir(db))?;
    (!component_closure(db, target).contains(&program)).then(|| component_outputs(db, target))
}

/// A component program whose configs or outputs set a `__logicalName` other than their
/// names: Go's binder has parents use the logical names, but Pulumi's code generators
/// name them by their declared names inside the component, so the converted program does
/// not compile (TypeScript, Python and Go alike). A warning at the component's source.
fn renamed_interface<'db>(
    infer: &mut Infer<'db>,
    configs: &[crate::items::DeclId<'db>],
    outputs: impl Iterator<Item = crate::items::DeclId<'db>>,
) {
    let db = infer.db;
    let renamed: Vec<String> = (configs.iter().copied().chain(outputs))
        .filter(|&decl| logical_name(db, decl) != decl.name(db).as_str())
        .map(|decl| format!("`{}` (as `{}`)", decl.name(db), logical_name(db, decl)))
        .collect();
    if renamed.is_empty() {
        return;
    }
    let message = format!(
        "this component's program renames {} with `__logicalName`: the converted program \
         does not compile",
        renamed.join(", ")
    );
    let site = Site::Label(BlockId::ROOT, 1);
    let diagnostic = infer.push(codes::INVALID_COMPONENT, Severity::Warning, site, message);
    diagnostic.notes.push(
        "Pulumi's code generators name a component's configs and outputs by their declared \
         names inside it and by their logical names in its parent: give them one name"
            .to_owned(),
    );
}

fn infer_decl<'db>(
    db: &'db dyn pcl_types::Db,
    decl: crate::items::DeclId<'db>,
) -> &'db crate::inference::InferenceResult<'db> {
    infer(db, decl)
}

/// `source` with its last segment replaced by the closest directory beside `dir` that
/// holds a program (`./dbCredential` → `./dbCredentials`), when one is close.
fn sibling_suggestion(db: &dyn salsa::Database, dir: &str, source: &str) -> Option<String> {
    let workspace = crate::input::Workspace::try_get(db)?;
    let siblings = workspace.missing_dirs(db).get(dir)?;
    let (parent, last) = source
        .trim_end_matches('/')
        .rsplit_once('/')
        .unwrap_or(("", source));
    let closest = pcl_types::closest_name(last, siblings.iter().map(|s| s.as_str()))?;
    Some(match parent {
        "" => closest.to_owned(),
        _ => format!("{parent}/{closest}"),
    })
}

/// The program a component instantiates, reporting why there is none.
fn component_program<'db>(infer: &mut Infer<'db>, program: Program) -> Option<Program> {
    let db = infer.db;
    let body = infer.body;
    let Some(source) = body.label(BlockId::ROOT, 1) else {
        if body.find_attr(BlockId::ROOT, "token").is_none() {
            infer.push(codes::INVALID_COMPONENT, Severity::Error, Site::Name, "a component without a source directory must set `token`".to_owned())
                .notes.push("write `component name \"./dir\" { .. }`, or set `token = \"pkg:index:Component\"`".to_owned());
        }
        return None;
    };
    let dir = join_dir(program.dir(db), source);
    if dir == *program.dir(db) {
        infer
            .push(
                codes::COMPONENT_CYCLE,
                Severity::Error,
                Site::Label(BlockId::ROOT, 1),
                format!("component '{source}' is the program itself"),
            )
            .notes
            .push("a component's source must be another directory".to_owned());
        return None;
    }
    let Some(target) = program_at(db, &dir) else {
        let suggestion = sibling_suggestion(db, &dir, source);
        let at = infer.at(Site::Label(BlockId::ROOT, 1));
        let diagnostic = infer.push(
            codes::INVALID_COMPONENT,
            Severity::Error,
            Site::Label(BlockId::ROOT, 1),
            format!("no PCL program in '{source}'"),
        );
        match suggestion {
            Some(path) => {
                diagnostic.notes.push(format!("did you mean '{path}'?"));
                let quoted = format!("\"{path}\"");
                diagnostic.replace_with(at, &quoted, quoted.clone());
            }
            None => diagnostic.notes.push(
                "a component's source is a directory, relative to this program, that holds .pp files"
                    .to_owned(),
            ),
        }
        return None;
    };
    if component_closure(db, target).contains(&program) {
        infer.push(codes::COMPONENT_CYCLE, Severity::Error, Site::Label(BlockId::ROOT, 1), format!("component '{source}' instantiates this program again"))
            .notes.push("components must not instantiate, directly or through others, a program that contains them".to_owned());
        return None;
    }
    Some(target)
}

/// Every program that `program`'s components reach, directly or through others.
#[salsa::tracked(returns(ref))]
pub fn component_closure(db: &dyn salsa::Database, program: Program) -> Box<[Program]> {
    let mut seen: Vec<Program> = Vec::new();
    let mut pending = vec![program];
    while let Some(current) = pending.pop() {
        for &file in current.files(db).iter() {
            for source in file.declarations(db).component_sources.iter() {
                let dir = join_dir(current.dir(db), source);
                if let Some(next) = program_at(db, &dir)
                    && !seen.contains(&next)
                {
                    seen.push(next);
                    pending.push(next);
                }
            }
        }
    }
    seen.into_boxed_slice()
}

/// Where the object literal (or body) that a completion is for sits, relative to its
/// declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldsContext {
    /// The declaration's body itself: its inputs (a resource's schema inputs, a
    /// component's configs).
    Body,
    /// The `options` block of a resource or component: the option names.
    Options,
    /// The value of attribute `name` of the declaration's body (a resource or component
    /// input, a config's `default`).
    Attribute(SmolStr),
    /// The value of option `name` in the `options` block.
    Option(SmolStr),
    /// The arguments object of `invoke(token, {..})`.
    InvokeArguments(SmolStr),
}

/// A field that can go in an object literal (or a declaration's body): its name, its
/// type as values are written (not in input shape), and whether it must be given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: String,
    pub required: bool,
}

/// The fields that can go where `context` and then `path` (property names of nested
/// objects: `website` → the fields of the website object) lead, for completion and
/// hover. Empty where the expected type is unknown.
pub fn field_completions<'db>(
    db: &'db dyn pcl_types::Db,
    decl: crate::items::DeclId<'db>,
    context: &FieldsContext,
    path: &[SmolStr],
) -> Vec<Field> {
    let describe = |name: &str, ty: Ty<'db>, required: bool| Field {
        name: name.to_owned(),
        ty: pcl_types::pretty(db, pcl_types::displayed_input(db, ty)),
        required,
    };
    match context {
        FieldsContext::Body if path.is_empty() => {
            return (declaration_inputs(db, decl).iter())
                .map(|(name, ty, required)| describe(name, *ty, *required))
                .collect();
        }
        FieldsContext::Options if path.is_empty() => {
            return (OPTION_NAMES.iter())
                .map(|&name| Field {
                    name: name.to_owned(),
                    ty: match option_type(db, name) {
                        Some(Some(ty)) => pcl_types::pretty(db, ty),
                        // `range` and the property lists are checked by their own rules.
                        _ if name == "range" => "int | bool | list | map".to_owned(),
                        _ => "list(property names)".to_owned(),
                    },
                    required: false,
                })
                .collect();
        }
        FieldsContext::InvokeArguments(token) if path.is_empty() => {
            return (function_types_of(db, token).into_iter())
                .flat_map(|types| types.inputs.iter())
                .map(|p| describe(&p.name, p.ty, p.required))
                .collect();
        }
        _ => (),
    }
    let Some(ty) = expected_type(db, decl, context, path) else {
        return Vec::new();
    };
    let Some(fields) = crate::inference::literal_target_fields(db, list_element(db, ty)) else {
        return Vec::new();
    };
    (fields.iter())
        .map(|(name, ty)| describe(name, *ty, !crate::inference::accepts_none(db, *ty)))
        .collect()
}

/// The type of field `name` of an object literal checked against `ty` (or against its
/// elements: see [`list_element`]).
fn field_type<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>, name: &str) -> Option<Ty<'db>> {
    let fields = crate::inference::literal_target_fields(db, list_element(db, ty))?;
    fields.iter().find(|(n, _)| **n == *name).map(|(_, ty)| *ty)
}

/// The elements' type of a list or set `ty` (an input of one included), else `ty`: an
/// object literal written in a list (`containers = [{ ... }]`) is checked against it.
fn list_element<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>) -> Ty<'db> {
    match pcl_types::strip_input(db, ty).kind(db) {
        TyKind::List(element) | TyKind::Set(element) => *element,
        _ => ty,
    }
}

/// The schema object type whose properties are the fields where `context` and then
/// `path` lead (as in [`field_completions`]), so that a driver can find their
/// descriptions; `None` for a declaration's body, its options, the top level of `invoke`
/// arguments, and where the expected type is not one schema object type.
pub fn fields_owner<'db>(
    db: &'db dyn pcl_types::Db,
    decl: crate::items::DeclId<'db>,
    context: &FieldsContext,
    path: &[SmolStr],
) -> Option<pcl_types::NamedObject<'db>> {
    if matches!(context, FieldsContext::InvokeArguments(_)) && path.is_empty() {
        return None;
    }
    let ty = expected_type(db, decl, context, path)?;
    let mut owners = pcl_types::plain_alternatives(db, list_element(db, ty)).filter_map(|member| {
        match member.kind(db) {
            TyKind::Named(object) => Some(object.plain(db)),
            _ => None,
        }
    });
    let owner = owners.next()?;
    owners.next().is_none().then_some(owner)
}

/// The type expected where `context` and then `path` (property names of nested objects)
/// lead; `None` for a declaration's body or its `options` (no one type) and where the
/// expected type is unknown.
fn expected_type<'db>(
    db: &'db dyn pcl_types::Db,
    decl: crate::items::DeclId<'db>,
    context: &FieldsContext,
    path: &[SmolStr],
) -> Option<Ty<'db>> {
    let mut ty = match context {
        FieldsContext::Body | FieldsContext::Options => return None,
        FieldsContext::Attribute(name) => {
            let config_default = decl.kind(db) == DeclKind::Config && name == "default";
            let input = (declaration_inputs(db, decl).into_iter()).find(|(n, _, _)| n == name);
            match input {
                Some((_, ty, _)) => ty,
                None if config_default => crate::inference::decl_ty(db, decl),
                None => return None,
            }
        }
        FieldsContext::Option(name) => option_type(db, name)??,
        FieldsContext::InvokeArguments(token) => {
            properties_object(db, &function_types_of(db, token)?.inputs)
        }
    };
    for segment in path {
        ty = field_type(db, ty, segment)?;
    }
    Some(ty)
}

/// The values of the enums expected where `context` and then `path` lead (as in
/// [`field_completions`]), or in the elements there when `element` (a value written in a
/// list): each with its enum's token, for value completion.
pub fn enum_value_completions<'db>(
    db: &'db dyn pcl_types::Db,
    decl: crate::items::DeclId<'db>,
    context: &FieldsContext,
    path: &[SmolStr],
    element: bool,
) -> Vec<(pcl_types::ConstValue, SmolStr)> {
    let Some(mut ty) = expected_type(db, decl, context, path) else {
        return Vec::new();
    };
    if element {
        ty = list_element(db, ty);
    }
    let mut res: Vec<(pcl_types::ConstValue, SmolStr)> = Vec::new();
    for alternative in pcl_types::plain_alternatives(db, ty) {
        if let TyKind::Enum(enumeration) = alternative.kind(db) {
            for value in enumeration.values.iter() {
                if !res.iter().any(|(known, _)| known == value) {
                    res.push((value.clone(), enumeration.token.clone()));
                }
            }
        }
    }
    res
}

/// A declaration's inputs (name, type, required): a resource's or read's schema inputs,
/// a component's configs; none for other declarations or without a schema or program.
fn declaration_inputs<'db>(
    db: &'db dyn pcl_types::Db,
    decl: crate::items::DeclId<'db>,
) -> Vec<(String, Ty<'db>, bool)> {
    let body = crate::hir::body(db, decl);
    let Some(label) = body.label(BlockId::ROOT, 1) else {
        return Vec::new();
    };
    match decl.kind(db) {
        DeclKind::Resource | DeclKind::Read => {
            let Some(source) = token_package(label).and_then(|p| package_named(db, p)) else {
                return Vec::new();
            };
            let Some((kind @ (ItemKind::Resource | ItemKind::Provider), canonical)) =
                resolve_token(db, source, label)
            else {
                return Vec::new();
            };
            let Ok(types) =
                pcl_schema::resource_types(db, SchemaItem::new(db, source, kind, canonical))
            else {
                return Vec::new();
            };
            (types.inputs.iter())
                .map(|p| (p.name.to_string(), p.ty, p.required))
                .collect()
        }
        DeclKind::Component => {
            let dir = join_dir(decl.program(db).dir(db), label);
            let Some(target) = program_at(db, &dir) else {
                return Vec::new();
            };
            let scope = program_scope(db, target);
            let mut res: Vec<(String, Ty<'db>, bool)> = (scope.names.values())
                .filter(|config| config.kind(db) == DeclKind::Config)
                .map(|&config| {
                    let result = infer_decl(db, config);
                    (
                        logical_name(db, config).to_owned(),
                        result.value_ty,
                        result.required,
                    )
                })
                .collect();
            res.sort_by(|a, b| a.0.cmp(&b.0));
            res
        }
        _ => Vec::new(),
    }
}

/// The type of `range.value` in a resource's or component's body, and where its `range`
/// option's value ends (relative to the declaration): for editors' hints. `None` without a
/// `range`, or when the range is a condition (no `range` variable).
pub fn range_value_hint<'db>(
    db: &'db dyn pcl_types::Db,
    decl: crate::items::DeclId<'db>,
) -> Option<(crate::hir::ExprId, Ty<'db>)> {
    let component = match decl.kind(db) {
        DeclKind::Resource | DeclKind::Read => false,
        DeclKind::Component => true,
        _ => return None,
    };
    let body = crate::hir::body(db, decl);
    let options = body.find_blocks(BlockId::ROOT, "options").next()?;
    let range = body.attr(body.find_attr(options, "range")?).value;
    let range_ty = crate::inference::expr_ty(db, decl, range)?;
    let value = match range_kind(db, range_ty, component) {
        RangeKind::Condition => return None,
        RangeKind::Count => Ty::int(db),
        RangeKind::Collection => collection_types(db, strip_range(db, range_ty, component))
            .map_or_else(|| Ty::dynamic(db), |(_, v)| v),
    };
    Some((range, value))
}

/// The type token of an SDK class path (`aws.s3.Bucket` is `aws:s3/bucket:Bucket`,
/// `random.RandomPet` is `random:index/randomPet:RandomPet`), when the package's schema
/// is loaded and has it.
fn sdk_class_token(db: &dyn pcl_types::Db, written: &str) -> Option<SmolStr> {
    let parts: Vec<&str> = written.split('.').collect();
    let (package, class) = (parts.first()?, parts.last()?);
    if parts.len() < 2 || parts.iter().any(|part| !pcl_syntax::is_identifier(part)) {
        return None;
    }
    let module = match &parts[1..parts.len() - 1] {
        [] => "index".to_owned(),
        // Kubernetes' `apps.v1` is the module `apps/v1`.
        module => module.join("/"),
    };
    let mut file = class.to_string();
    file.get_mut(..1)?.make_ascii_lowercase();
    let source = pcl_schema::package_named(db, package)?;
    // `aws:s3/bucket:Bucket`, else `kubernetes:apps/v1:Deployment`.
    let token = [
        format!("{package}:{module}/{file}:{class}"),
        format!("{package}:{module}:{class}"),
    ]
    .into_iter()
    .find(|token| pcl_schema::resolve_token(db, source, token).is_some())?;
    // The token as the schema writes it.
    let (kind, spelled) = pcl_schema::resolve_token(db, source, &token)?;
    (kind == pcl_schema::ItemKind::Resource).then_some(spelled)
}
