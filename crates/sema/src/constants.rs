//! Checks of constant values that go beyond Pulumi's binder: Go converts a string to a
//! number or a bool, a bool to a number, and any string to an enum "unsafely", so
//! `length = "six"` or `color = "rde"` bind and fail only at deploy time. A constant is a
//! literal, a template without interpolations, or a local whose value is a constant
//! (transitively); a config is never one. Values known only at run time are not judged.
//!
//! Also the checks beyond Go that read how a value is written rather than its type
//! alone: literal indexes (negative, fractional, past a literal `range` count), `==`
//! between declared values of different types, an attribute of a list's elements taken
//! from the list, and `for` over one resource.

use std::fmt::Display;

use pcl_diagnostics::{Severity, codes};
use pcl_syntax::ast::NumberValue;
use pcl_types::{ConstValue, Ty, TyKind, plain_alternatives, pretty};

use crate::diagnostics::Site;
use crate::hir::{BlockId, Body, Expr, ExprId};
use crate::inference::{Infer, literal_value};
use crate::items::{DeclId, DeclKind};
use crate::scope::Resolution;

/// How far a chain of locals (`a = b`, `b = "x"`) is followed to its constant.
const LOCAL_CHAIN_LIMIT: usize = 16;

/// What a constant that does not fit a type should have been.
enum Misfit {
    Number,
    WholeNumber,
    Bool,
    /// Not a member of a closed enum: its members, and the closest, when one is close.
    Member(String, Option<String>),
    /// Not the schema's constant.
    Const(ConstValue),
}

/// What a constant is to one alternative of the expected type.
enum Fit {
    Fits,
    Misfits(Misfit),
}

impl<'db> Infer<'db> {
    /// The constant value of `id`, when it has one.
    pub(crate) fn constant_of(&self, id: ExprId) -> Option<ConstValue> {
        match self.named_declaration(id) {
            Some((decl, _)) if decl.kind(self.db) == DeclKind::Local => {
                local_constant(self.db, decl, LOCAL_CHAIN_LIMIT)
            }
            // A name of anything else (or of nothing) is no literal.
            _ => literal_value(self.body, self.body.expr(id)),
        }
    }

    /// Judge the constant value of `id` (if it has one) against `expected`, whose
    /// conversion from the value's type exists: a misfit is an error (a warning when the
    /// value checks are demoted), a string close to an enum member a warning.
    pub(crate) fn check_constant(&mut self, id: ExprId, expected: Ty<'db>, what: &dyn Display) {
        if let Expr::String(text) = self.body.expr(id)
            && is_number_literal(self.body.str(*text))
        {
            self.quoted_number_for_number_or_string(id, expected, what);
        }
        // Only literals and names can be constants, and only some expected types can
        // refuse one: checked first, so most values cost nothing here.
        if !matches!(
            self.body.expr(id),
            Expr::String(_) | Expr::Number(_) | Expr::Bool(_) | Expr::Name(_)
        ) || !may_refuse_a_constant(self.db, expected)
            || fits_at_a_glance(self.db, self.body, self.body.expr(id), expected)
        {
            return;
        }
        let Some(value) = self.constant_of(id) else {
            return;
        };
        if matches!(value, ConstValue::Null) {
            return;
        }
        let db = self.db;
        let alternatives: Vec<Ty<'db>> = plain_alternatives(db, expected).collect();
        let mut misfit = None;
        let mut fits = false;
        for &alternative in &alternatives {
            match fit(db, alternative, &value) {
                Fit::Fits => {
                    fits = true;
                    break;
                }
                Fit::Misfits(why) => misfit = misfit.or(Some(why)),
            }
        }
        let at = self.at(Site::Expr(id));
        if fits {
            // A string input that also names values (`oneOf: [string, enum]`): a value
            // close to one of them is probably a typo of it, in every mode.
            if let Some(member) = close_enum_member(db, &alternatives, &value) {
                let shown = value.pretty();
                let quoted = ConstValue::String(member.as_str().into()).pretty();
                let diagnostic = self.push(
                    codes::TYPE_MISMATCH,
                    Severity::Warning,
                    Site::Expr(id),
                    format!("{shown} is close to {quoted}, one of the values {what} names"),
                );
                diagnostic.notes.push(format!("did you mean {quoted}?"));
                diagnostic.replace_with(at, &quoted, quoted.clone());
            }
            return;
        }
        let Some(misfit) = misfit else {
            return;
        };
        let shown = value.pretty();
        let severity = match self.lenient || self.demote_value_checks {
            true => Severity::Warning,
            false => self.beyond_go_severity(),
        };
        let expected_text = pretty(db, Ty::union(db, alternatives.iter().copied()));
        let (message, note, fix) = match misfit {
            Misfit::Number => (
                format!("{what} must be {expected_text}, and {shown} is not a number"),
                "Pulumi would fail to convert it when it deploys".to_owned(),
                None,
            ),
            Misfit::WholeNumber => (
                format!("{what} must be {expected_text}, and {shown} is not a whole number"),
                "round it to a whole number".to_owned(),
                None,
            ),
            Misfit::Bool => (
                format!("{what} must be {expected_text}, and {shown} is not `true` or `false`"),
                "write `true` or `false`".to_owned(),
                None,
            ),
            Misfit::Member(members, suggestion) => {
                let note = match &suggestion {
                    Some(s) => format!("did you mean {s}?"),
                    None => {
                        "write one of them, or a value known only when the program runs".to_owned()
                    }
                };
                (
                    format!("{what} must be one of {members}, not {shown}"),
                    note,
                    suggestion,
                )
            }
            Misfit::Const(constant) => (
                format!("{what} must be {}, not {shown}", constant.pretty()),
                format!("write {}, or leave it out", constant.pretty()),
                Some(constant.pretty()),
            ),
        };
        let diagnostic = self.push(codes::TYPE_MISMATCH, severity, Site::Expr(id), message);
        diagnostic.notes.push(note);
        if let Some(replacement) = fix {
            diagnostic.replace_with(at, &replacement, replacement.clone());
        }
    }
}

/// Whether some constant could fail to fit `expected`: it allows an int, number, bool,
/// enum or schema constant and no string (which every constant converts to), or it allows
/// both a string and an enum (the closeness warning).
pub(crate) fn may_refuse_a_constant<'db>(db: &'db dyn pcl_types::Db, expected: Ty<'db>) -> bool {
    let (mut strict, mut string, mut enumeration) = (false, false, false);
    let mut visit = |ty: Ty<'db>| match ty.kind(db) {
        TyKind::Int | TyKind::Number | TyKind::Bool | TyKind::Const(..) => strict = true,
        TyKind::Enum(_) => enumeration = true,
        TyKind::String | TyKind::Id | TyKind::Dynamic => string = true,
        _ => {}
    };
    match expected.kind(db) {
        TyKind::Union(members) => members.iter().for_each(|m| visit(*m)),
        _ => visit(expected),
    }
    // Without a string alternative, what is strict refuses; with one, only the enum's
    // closeness is left to warn about.
    if string {
        enumeration
    } else {
        strict || enumeration
    }
}

/// Whether a literal plainly fits one alternative of `expected` (a number where a number
/// is taken, a whole number for an int, a bool for a bool): the common case, settled
/// without building the value.
pub(crate) fn fits_at_a_glance<'db>(
    db: &'db dyn pcl_types::Db,
    body: &Body,
    expr: &Expr,
    expected: Ty<'db>,
) -> bool {
    let fits = |ty: Ty<'db>| match (expr, ty.kind(db)) {
        (Expr::Number(_), TyKind::Number) | (Expr::Bool(_), TyKind::Bool) => true,
        (Expr::Number(n), TyKind::Int) => body.number(*n).is_integer(),
        _ => false,
    };
    match expected.kind(db) {
        TyKind::Union(members) => members.iter().any(|m| fits(*m)),
        _ => fits(expected),
    }
}

/// The constant a local's value is, following names of other locals.
fn local_constant<'db>(
    db: &'db dyn pcl_types::Db,
    decl: crate::items::DeclId<'db>,
    limit: usize,
) -> Option<ConstValue> {
    let body: &Body = crate::hir::body(db, decl);
    let value = body.value?;
    match body.expr(value) {
        Expr::Name(name) if limit > 0 => {
            match crate::scope::bind(db, decl).resolution(body.str(*name)) {
                Some(Resolution::Decl(target))
                    if target.kind(db) == DeclKind::Local && *target != decl =>
                {
                    local_constant(db, *target, limit - 1)
                }
                _ => None,
            }
        }
        expr => literal_value(body, expr),
    }
}

/// A number as cty reads a string: an optional sign, then a number literal.
fn parse_number(text: &str) -> Option<NumberValue> {
    NumberValue::parse_signed(text.strip_prefix('+').unwrap_or(text)).ok()
}

/// How `value` fits one plain alternative of an expected type.
fn fit<'db>(db: &'db dyn pcl_types::Db, alternative: Ty<'db>, value: &ConstValue) -> Fit {
    // Whether the value is a number, and a whole one.
    let number = |value: &ConstValue| match value {
        ConstValue::Number(n) => Some(n.is_integer()),
        ConstValue::String(s) => parse_number(s).map(|n| n.is_integer()),
        _ => None,
    };
    match alternative.kind(db) {
        TyKind::Int => match number(value) {
            Some(true) => Fit::Fits,
            Some(false) => Fit::Misfits(Misfit::WholeNumber),
            None => Fit::Misfits(Misfit::Number),
        },
        TyKind::Number => match number(value) {
            Some(_) => Fit::Fits,
            None => Fit::Misfits(Misfit::Number),
        },
        TyKind::Bool => match value {
            ConstValue::Bool(_) => Fit::Fits,
            ConstValue::String(s) if matches!(s.as_str(), "true" | "false" | "1" | "0") => {
                Fit::Fits
            }
            _ => Fit::Misfits(Misfit::Bool),
        },
        TyKind::Enum(enumeration) => {
            if enumeration.values.iter().any(|member| same(member, value)) {
                return Fit::Fits;
            }
            let members: Vec<String> = enumeration.values.iter().map(|m| m.pretty()).collect();
            Fit::Misfits(Misfit::Member(
                members.join(", "),
                closest_member(&enumeration.values, value),
            ))
        }
        TyKind::Const(_, constant) if same(constant, value) => Fit::Fits,
        TyKind::Const(_, constant) => Fit::Misfits(Misfit::Const(constant.clone())),
        _ => Fit::Fits,
    }
}

/// Whether two constants are the same value (numbers by value).
fn same(a: &ConstValue, b: &ConstValue) -> bool {
    match (a, b) {
        (ConstValue::Number(x), ConstValue::Number(y)) => x == y,
        _ => a == b,
    }
}

/// The member closest to a string constant, quoted, when one is close.
fn closest_member(members: &[ConstValue], value: &ConstValue) -> Option<String> {
    let ConstValue::String(text) = value else {
        return None;
    };
    let names: Vec<&str> = (members.iter())
        .filter_map(|m| match m {
            ConstValue::String(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    pcl_types::closest_name(text, names.iter().copied())
        .map(|m| ConstValue::String(m.into()).pretty())
}

/// The member of an enum among `alternatives` that a string constant accepted as a
/// plain string is close to.
fn close_enum_member<'db>(
    db: &'db dyn pcl_types::Db,
    alternatives: &[Ty<'db>],
    value: &ConstValue,
) -> Option<String> {
    let ConstValue::String(text) = value else {
        return None;
    };
    alternatives
        .iter()
        .find_map(|alternative| match alternative.kind(db) {
            TyKind::Enum(enumeration) if !enumeration.values.iter().any(|m| same(m, value)) => {
                let names: Vec<&str> = (enumeration.values.iter())
                    .filter_map(|m| match m {
                        ConstValue::String(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .collect();
                pcl_types::closest_name(text, names.iter().copied()).map(str::to_owned)
            }
            _ => None,
        })
}

impl<'db> Infer<'db> {
    /// The parts of a template with interpolations: a resource, an object or a collection
    /// interpolated into a string prints as nothing useful at deploy time (Go converts
    /// any value to a string there).
    pub(crate) fn check_template_parts(&mut self, parts: &[ExprId]) {
        let db = self.db;
        for &part in parts {
            if matches!(self.body.expr(part), Expr::String(_)) {
                continue;
            }
            // Settled by the part's kind, under its outputs and optionality.
            let ty = crate::inference::unwrap_iterable(db, self.ty_of(part));
            let what = match ty.kind(db) {
                TyKind::Object(properties) if properties.iter().any(|(n, _)| &**n == "urn") => {
                    "a resource"
                }
                TyKind::Object(_) | TyKind::Named(_) => "an object",
                TyKind::List(_) | TyKind::Tuple(_) | TyKind::Set(_) => "a list",
                TyKind::Map(_) => "a map",
                _ => continue,
            };
            let severity = self.beyond_go_severity();
            let diagnostic = self.push(
                codes::TYPE_MISMATCH,
                severity,
                Site::Expr(part),
                format!("{what} is interpolated into a string"),
            );
            diagnostic.notes.push(match what {
                "a resource" => {
                    "interpolate one of its attributes, such as `.id` or `.urn`".to_owned()
                }
                "a list" => "interpolate one element, or `join(\",\", list)`".to_owned(),
                _ => "interpolate one of its attributes, or `toJSON(value)`".to_owned(),
            });
        }
    }

    /// `resources.attr` on a ranged resource (a list or map of them), or `net.configs.subnet`
    /// on a list of objects: Go reads the name as an index (converting it to a number
    /// "unsafely") and types it as a whole element; the user meant one element's
    /// attribute, or every element's. Reported with the fix; `true` when reported.
    pub(crate) fn check_ranged_attribute(
        &mut self,
        id: ExprId,
        base: ExprId,
        name: &str,
        receiver: Ty<'db>,
    ) -> bool {
        let db = self.db;
        if !matches!(
            self.body.expr(base),
            Expr::Name(_) | Expr::GetAttr { .. } | Expr::Index { .. }
        ) {
            return false;
        }
        let names_resources = || self.named_resources(base).is_some();
        let collection = crate::inference::unwrap_iterable(db, receiver);
        let (element, indexed) = match collection.kind(db) {
            TyKind::List(e) => (*e, "[0]"),
            // `tags.team` reads a key of any other map.
            TyKind::Map(e) if names_resources() => (*e, "[\"key\"]"),
            _ => return false,
        };
        let has_attribute = pcl_types::object_properties(db, element)
            .is_some_and(|properties| properties.iter().any(|(n, _)| &**n == name));
        if !has_attribute {
            return false;
        }
        let resources = names_resources();
        let path = path_text(self.body, base);
        let shown = match &path {
            Some(path) => format!("`{path}`"),
            None => "this value".to_owned(),
        };
        let message = match resources {
            true => format!(
                "{shown} is a collection of resources (it has a `range`): `.{name}` needs one of them"
            ),
            false => format!("{shown} is a list: `.{name}` is an attribute of its elements"),
        };
        let at = self.at(Site::Expr(id));
        let severity = self.beyond_go_severity();
        let diagnostic = self.push(codes::INVALID_INDEX, severity, Site::Expr(id), message);
        let Some(path) = path else {
            diagnostic.notes.push(format!(
                "take one element (`[0].{name}`) or all of them (`[*].{name}`)"
            ));
            return true;
        };
        let one = format!("{path}{indexed}.{name}");
        let all = if indexed == "[0]" {
            format!(", or `{path}[*].{name}` for all of them")
        } else {
            String::new()
        };
        diagnostic.notes.push(format!("write `{one}` for one{all}"));
        diagnostic.replace_with(at, &format!("`{one}`"), one);
        true
    }

    /// A literal list index a deploy cannot use, though Go takes any number: negative
    /// (`subnets[-1]`), fractional (`subnets[1.5]`), or past a literal `range` count
    /// (`pets[3]` where `pets` has `range = 3`, unless in a conditional's branch or a
    /// `try`/`can` argument, which a guard may keep from being taken). Errors beyond Go. And a number indexing
    /// resources ranged over a map, which are keyed by its keys (a warning: a key may be
    /// `"0"`).
    pub(crate) fn check_literal_index(
        &mut self,
        base: ExprId,
        key: ExprId,
        receiver: Ty<'db>,
        value: &ConstValue,
    ) {
        let db = self.db;
        let ConstValue::Number(number) = value else {
            return;
        };
        match crate::inference::unwrap_iterable(db, receiver).kind(db) {
            TyKind::List(_) => (),
            TyKind::Map(_) => return self.number_key_of_ranged_map(base, key, value),
            _ => return,
        }
        let written = value.pretty();
        let (code, message, note) = if number.is_negative() {
            let last = match path_text(self.body, base) {
                Some(list) => format!("; the last element is `{list}[length({list}) - 1]`"),
                None => String::new(),
            };
            (
                codes::INDEX_OUT_OF_RANGE,
                format!("list index {written} is before the first element"),
                format!("list indexes start at 0{last}"),
            )
        } else if !number.is_integer() {
            (
                codes::INVALID_INDEX,
                format!("list index {written} is not a whole number"),
                "a list index counts elements from 0: 0, 1, 2, ...".to_owned(),
            )
        } else if self.guarded == 0
            && let Some((name, count)) = self.literal_range_count(base)
            && number
                .to_integer()
                .is_some_and(|index| index >= count.into())
        {
            let message = match count {
                0 => {
                    format!("`{name}` makes no resources (`range = 0`): it has no index {written}")
                }
                _ => format!(
                    "`{name}` makes {count} resources (`range = {count}`): index {written} is past the last, `{name}[{}]`",
                    count - 1
                ),
            };
            let note = "a resource with `range = N` is a list of N, indexed from 0 to N - 1";
            (codes::INDEX_OUT_OF_RANGE, message, note.to_owned())
        } else {
            return;
        };
        let severity = self.lenient_beyond_go_severity();
        self.push(code, severity, Site::Expr(key), message)
            .notes
            .push(note);
    }

    /// `passwords[0]` where `passwords` ranges over a map: its resources are keyed by the
    /// map's keys, so the index reads the key `"0"`, which the map seldom has.
    fn number_key_of_ranged_map(&mut self, base: ExprId, key: ExprId, value: &ConstValue) {
        let Some(name) = self.named_rangeable(base) else {
            return;
        };
        let written = value.pretty();
        let message = format!(
            "`{name}` ranges over a map: its resources are keyed by the map's keys, and `[{written}]` reads the key \"{written}\""
        );
        self.push(codes::INVALID_INDEX, Severity::Warning, Site::Expr(key), message)
            .notes
            .push(format!(
                "index it by one of the map's keys, such as `{name}[\"key\"]`, or range over a list to number the resources"
            ));
    }

    /// `pets[*].id` where `pets` ranges over a map: Pulumi's binder takes a map as one
    /// value in a splat, so `.id` reads its key "id", not each resource's id (Terraform
    /// rejects the same). A warning in every mode.
    pub(crate) fn splat_of_keyed_resources(&mut self, id: ExprId, source: ExprId, each: ExprId) {
        let Some((_, name)) = self.named_resources(source) else {
            return;
        };
        // The attributes after `[*]` (`.a.b`), when they are all names.
        let mut steps = Vec::new();
        let mut at = each;
        while let Expr::GetAttr { base, name } = self.body.expr(at) {
            steps.push(self.body.str(*name));
            at = *base;
        }
        let step = match self.body.expr(at) {
            Expr::SplatItem => steps.iter().rev().map(|s| format!(".{s}")).collect(),
            _ => ".<attribute>".to_owned(),
        };
        // A warning: the generators differ (TypeScript makes resources ranged over an
        // object literal an array, which `[*]` does walk).
        let message = format!(
            "`{name}` ranges over a map: `[*]` takes the map as one value, not its resources"
        );
        self.push(
            codes::INVALID_INDEX,
            Severity::Warning,
            Site::Expr(id),
            message,
        )
        .notes
        .push(format!(
            "to read each resource, write a `for`: `[for r in {name} : r{step}]`"
        ));
    }

    /// On the last diagnostic, about a string index of `base`: when `base` names resources
    /// (or components) ranged over a number or a list, that they are numbered, not keyed.
    pub(crate) fn note_numbered_resources(&mut self, base: ExprId) {
        let Some(name) = self.named_rangeable(base) else {
            return;
        };
        if let Some(last) = self.diagnostics.last_mut() {
            last.notes.push(format!(
                "`{name}` is a list of resources (its `range` is no map): they are numbered from 0 (`{name}[0]`); range over a map to key them by name"
            ));
        }
    }

    /// `targetPort = "8080"` where the input takes a number or a string (Kubernetes'
    /// `IntOrString`): the string is taken as such, and a string means something else
    /// there (a port's name, which must have a letter, so the API server rejects it). A
    /// warning in every mode, fixed to the number.
    fn quoted_number_for_number_or_string(
        &mut self,
        id: ExprId,
        expected: Ty<'db>,
        what: &dyn Display,
    ) {
        let db = self.db;
        let kinds: Vec<Option<&str>> = (plain_alternatives(db, expected))
            .map(|alternative| primitive_kind(db, alternative))
            .collect();
        if !(kinds.contains(&Some("number")) && kinds.contains(&Some("string"))) {
            return;
        }
        let Expr::String(text) = self.body.expr(id) else {
            return;
        };
        let number = self.body.str(*text).to_owned();
        let at = self.at(Site::Expr(id));
        let message = format!(
            "{what} takes a number or a string, and \"{number}\" is the string, not the number"
        );
        let diagnostic = self.push(
            codes::TYPE_MISMATCH,
            Severity::Warning,
            Site::Expr(id),
            message,
        );
        diagnostic.notes.push(format!(
            "write `{number}` for the number: a provider may read the string otherwise \
             (Kubernetes reads it as a port's name, which must contain a letter)"
        ));
        diagnostic.replace_with(at, &format!("`{number}`"), number.clone());
    }

    /// `[for p in pet : p.id]` where `pet` is one resource (no `range`): Go iterates over
    /// its attributes as over any object, which no one means; the converted program walks
    /// the SDK object's fields. An error beyond Go.
    pub(crate) fn check_single_resource_iterated(&mut self, collection: ExprId) {
        let db = self.db;
        let Some((target, name)) = self.named_resources(collection) else {
            return;
        };
        if crate::items::decl_item(db, target).is_none_or(|item| item.ranged) {
            return;
        }
        let severity = self.lenient_beyond_go_severity();
        let message = format!(
            "`{name}` is one resource, not a collection: `for` would iterate over its attributes"
        );
        self.push(codes::NOT_ITERABLE, severity, Site::Expr(collection), message)
            .notes
            .push(format!(
                "to make several, give `{name}` a `range` in its options; for one attribute, use `{name}.ATTRIBUTE`"
            ));
    }

    /// Whether `expr` is a literal, or a path (`a.b[0].c`) from a declaration other than a
    /// local, whose type is declared (a config's, a schema's) or a literal's, not merged
    /// from several.
    fn declared_type(&self, expr: ExprId) -> bool {
        let mut at = expr;
        loop {
            match self.body.expr(at) {
                Expr::Null | Expr::Bool(_) | Expr::Number(_) | Expr::String(_) => {
                    return at == expr;
                }
                Expr::GetAttr { base, .. } => at = *base,
                Expr::Index { base, key } if self.body.expr(*key).is_literal() => at = *base,
                // A local's value may be a call's merged type.
                Expr::Name(_) => {
                    return self
                        .named_declaration(at)
                        .is_some_and(|(decl, _)| decl.kind(self.db) != DeclKind::Local);
                }
                _ => return false,
            }
        }
    }

    /// The name of the resources or components `expr` names (components are ranged as
    /// resources are).
    fn named_rangeable(&self, expr: ExprId) -> Option<&'db str> {
        let (decl, name) = self.named_declaration(expr)?;
        let kind = decl.kind(self.db);
        matches!(
            kind,
            DeclKind::Resource | DeclKind::Read | DeclKind::Component
        )
        .then_some(name)
    }

    /// The `resource` or `read` declaration `expr` names (one resource, or several with a
    /// `range`), and its name. Components are left out: they are no resources to these
    /// checks.
    pub(crate) fn named_resources(&self, expr: ExprId) -> Option<(DeclId<'db>, &'db str)> {
        let (decl, name) = self.named_declaration(expr)?;
        matches!(decl.kind(self.db), DeclKind::Resource | DeclKind::Read).then_some((decl, name))
    }

    /// The name and count of the resource `base` names when its `range` is a literal
    /// whole number.
    fn literal_range_count(&self, base: ExprId) -> Option<(&'db str, u32)> {
        let (target, name) = self.named_resources(base)?;
        let count = (*literal_range_count(self.db, target))?;
        Some((name, count))
    }

    /// `replicas == "3"`: values of different types are never equal (cty compares without
    /// converting, as do the languages a program converts to), so the comparison is
    /// always false (`!=` always true), and TypeScript and Go do not compile it. An error
    /// beyond Go, for numbers, strings and bools; with the fix when one side is a literal
    /// that reads as the other's type.
    pub(crate) fn check_comparison(
        &mut self,
        id: ExprId,
        equal: bool,
        operands: [(ExprId, Ty<'db>); 2],
    ) {
        let db = self.db;
        let [(lhs, a), (rhs, b)] = operands;
        let (Some(left), Some(right)) = (primitive_kind(db, a), primitive_kind(db, b)) else {
            return;
        };
        // Only types the program declares: a call's or a `for` variable's may be Go's
        // merge of several (an object's values of numbers and strings read as strings).
        if left == right || !self.declared_type(lhs) || !self.declared_type(rhs) {
            return;
        }
        // A literal string on one side that reads as the other side's type.
        let fix = [(lhs, right), (rhs, left)]
            .into_iter()
            .find_map(|(side, other)| {
                let Expr::String(text) = self.body.expr(side) else {
                    return None;
                };
                let text = self.body.str(*text);
                let written = match other {
                    "number" => ConstValue::Number(NumberValue::parse(text).ok()?).pretty(),
                    _ if matches!(text, "true" | "false") => text.to_owned(),
                    _ => return None,
                };
                Some((side, written))
            });
        let always = if equal { "false" } else { "true" };
        let op = if equal { "==" } else { "!=" };
        let severity = self.lenient_beyond_go_severity();
        let at = fix.as_ref().map(|(side, _)| self.at(Site::Expr(*side)));
        let message =
            format!("a {left} and a {right} are never equal: this `{op}` is always {always}");
        let diagnostic = self.push(codes::TYPE_MISMATCH, severity, Site::Expr(id), message);
        diagnostic.notes.push(
            "Pulumi compares values without converting them, and TypeScript and Go do not compile a comparison of different types".to_owned(),
        );
        if let (Some(at), Some((_, text))) = (at, fix) {
            diagnostic.replace_with(at, &format!("`{text}` without quotes"), text);
        }
    }
}

/// "string", "number" or "bool" for a value of that type, a constant of one, or an eventual
/// of either; one look at each layer (each `kind` is a read of the interned type).
pub(crate) fn primitive_kind<'db>(db: &'db dyn pcl_types::Db, ty: Ty<'db>) -> Option<&'static str> {
    match ty.kind(db) {
        TyKind::String | TyKind::Id => Some("string"),
        TyKind::Int | TyKind::Number => Some("number"),
        TyKind::Bool => Some("bool"),
        TyKind::Const(inner, _) | TyKind::Output(inner) | TyKind::Promise(inner) => {
            primitive_kind(db, *inner)
        }
        _ => None,
    }
}

/// Whether `text` is a number as PCL writes one (`8080`, `0.5`, `1e3`; not `.5` or `5.`):
/// what a fix may write in place of a quoted number.
pub(crate) fn is_number_literal(text: &str) -> bool {
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let whole = match mantissa.split_once('.') {
        Some((int, fraction)) => digits(int) && digits(fraction),
        None => digits(mantissa),
    };
    whole
        && exponent
            .is_none_or(|exponent| digits(exponent.strip_prefix(['+', '-']).unwrap_or(exponent)))
}

/// The text of a reference path (`net.configs[0].name`) as the fix writes it; `None`
/// for anything else, or a path too deep to be worth writing out.
pub(crate) fn path_text(body: &Body, expr: ExprId) -> Option<String> {
    let mut steps = Vec::new();
    let mut at = expr;
    loop {
        match body.expr(at) {
            Expr::Name(name) => {
                steps.push(body.str(*name).to_owned());
                break;
            }
            Expr::GetAttr { base, name } => {
                steps.push(format!(".{}", body.str(*name)));
                at = *base;
            }
            Expr::Index { base, key } => {
                steps.push(format!(
                    "[{}]",
                    literal_value(body, body.expr(*key))?.pretty()
                ));
                at = *base;
            }
            _ => return None,
        }
        if steps.len() > 16 {
            return None;
        }
    }
    steps.reverse();
    Some(steps.concat())
}

/// How many resources a resource's `range` of a literal whole number makes (`range = 3`).
/// A query of its own, which backdates: an edit of the resource that leaves the count
/// alone re-checks none of the declarations that index it.
#[salsa::tracked]
fn literal_range_count<'db>(db: &'db dyn salsa::Database, decl: DeclId<'db>) -> Option<u32> {
    let body = crate::hir::body(db, decl);
    let range = (body.find_blocks(BlockId::ROOT, "options"))
        .find_map(|options| body.find_attr(options, "range"))?;
    match body.expr(body.attr(range).value) {
        Expr::Number(number) => body.number(*number).value().to_integer()?.try_into().ok(),
        _ => None,
    }
}

/// `text` as a PCL string literal a fix can write: quoted, with `${` and `%{` escaped so
/// that they stay text.
pub(crate) fn string_literal(text: &str) -> String {
    ConstValue::String(text.into())
        .pretty()
        .replace("${", "$${")
        .replace("%{", "%%{")
}

#[cfg(test)]
mod tests {
    use super::is_number_literal;

    /// A fix writes a quoted number unquoted only when PCL's lexer reads it as one.
    #[test]
    fn number_literals_are_what_the_lexer_reads() {
        for number in ["8080", "0.5", "1e3", "2.5E-2", "1e+10"] {
            assert!(is_number_literal(number), "{number}");
        }
        for not_one in ["", ".5", "5.", "1e", "-1", "0x10", "1_000", "1.2.3", " 1"] {
            assert!(!is_number_literal(not_one), "{not_one}");
        }
    }
}
