//! Resource options whose constant values the Pulumi engine parses when it registers the
//! resource, so that a bad one fails the deploy though Go's binder takes any string: a
//! `version` must be semver, each `customTimeouts` entry a Go duration, and a string
//! alias a URN. Checked on literals only: errors beyond Go, warnings under the place's
//! leniency.

use pcl_diagnostics::codes;
use pcl_types::ConstValue;

use crate::diagnostics::Site;
use crate::hir::{Expr, ExprId};
use crate::inference::{Infer, literal_value};

/// Check the value of the option `name` when it is one the engine parses.
pub(crate) fn check_option_constant(infer: &mut Infer<'_>, name: &str, value: ExprId) {
    match name {
        "version" => version(infer, value),
        "customTimeouts" => custom_timeouts(infer, value),
        "aliases" => aliases(infer, value),
        _ => (),
    }
}

/// `aliases = ["old-pet"]`: a string alias is a URN, which the engine parses (`invalid
/// alias URN`); an old name is written `{ name = "old-pet" }`.
fn aliases(infer: &mut Infer<'_>, value: ExprId) {
    let body = infer.body;
    let Expr::Tuple(elements) = body.expr(value) else {
        return;
    };
    for &element in body.list(*elements) {
        let Expr::String(text) = body.expr(element) else {
            continue;
        };
        let text = body.str(*text);
        if text.starts_with("urn:pulumi:") {
            continue;
        }
        let severity = infer.lenient_beyond_go_severity();
        let at = infer.at(Site::Expr(element));
        let message = format!(
            "an alias given as a string is a URN (`urn:pulumi:...`), and {} is not one",
            quoted(text)
        );
        let replacement = format!("{{ name = {} }}", crate::constants::string_literal(text));
        let diagnostic = infer.push(codes::TYPE_MISMATCH, severity, Site::Expr(element), message);
        diagnostic
            .notes
            .push("for a resource's old name, write an alias object".to_owned());
        diagnostic.replace_with(at, &format!("`{replacement}`"), replacement);
    }
}

/// `version = "4.11"`: the engine reads it with `semver.Parse` (major.minor.patch).
fn version(infer: &mut Infer<'_>, value: ExprId) {
    let Some(written) = constant_text(infer, value) else {
        return;
    };
    // An empty version is no version: the engine leaves it unset.
    if written.is_empty() || semver::Version::parse(&written).is_ok() {
        return;
    }
    // A number's text is its value's (`4.10` reads `4.1`): no fix is written for it.
    let fix = match (semver_without_v(&written), infer.body.expr(value)) {
        (_, Expr::Number(_)) => None,
        (Some(bare), _) => Some(bare.to_owned()),
        _ => padded_version(&written),
    };
    let severity = infer.lenient_beyond_go_severity();
    let at = infer.at(Site::Expr(value));
    let given = match infer.body.expr(value) {
        Expr::Number(_) => "a number".to_owned(),
        _ => quoted(&written),
    };
    let message =
        format!("option `version` must be a semantic version (major.minor.patch), not {given}");
    let diagnostic = infer.push(codes::TYPE_MISMATCH, severity, Site::Expr(value), message);
    diagnostic
        .notes
        .push("Pulumi fails the deploy on a version it cannot parse".to_owned());
    match fix {
        Some(fix) => {
            let replacement = format!("\"{fix}\"");
            diagnostic.replace_with(at, &format!("`{replacement}`"), replacement);
        }
        None => diagnostic
            .notes
            .push("write a string of three numbers, such as \"4.11.2\"".to_owned()),
    }
}

/// `"4.11.2"` of `"v4.11.2"`: a version written with Go's `v`, which semver does not take.
pub(crate) fn semver_without_v(written: &str) -> Option<&str> {
    (written.strip_prefix('v')).filter(|bare| semver::Version::parse(bare).is_ok())
}

/// `4.11` or `"4"` completed to `"4.11.0"` or `"4.0.0"`, when the parts are numbers.
fn padded_version(written: &str) -> Option<String> {
    let parts: Vec<&str> = written.split('.').collect();
    let numeric = |part: &&str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    if parts.len() > 2 || !parts.iter().all(numeric) {
        return None;
    }
    let mut padded = parts.join(".");
    for _ in parts.len()..3 {
        padded.push_str(".0");
    }
    semver::Version::parse(&padded).is_ok().then_some(padded)
}

/// `customTimeouts = { create = "10" }`: the engine reads each with Go's
/// `time.ParseDuration`, which needs a unit.
fn custom_timeouts(infer: &mut Infer<'_>, value: ExprId) {
    let body = infer.body;
    let Expr::Object(items) = body.expr(value) else {
        return;
    };
    for &[_, entry] in body.pairs(*items) {
        let Some(written) = constant_text(infer, entry) else {
            continue;
        };
        // The SDKs leave an empty timeout out.
        if written.is_empty() || is_go_duration(&written) {
            continue;
        }
        let severity = infer.lenient_beyond_go_severity();
        let at = infer.at(Site::Expr(entry));
        // As written: a number unquoted.
        let shown = match body.expr(entry) {
            Expr::Number(_) | Expr::Unary { .. } => written.clone(),
            _ => quoted(&written),
        };
        let message =
            format!("{shown} is not a duration: Pulumi reads custom timeouts as Go durations");
        let unitless = is_go_duration(&format!("{written}m"));
        let diagnostic = infer.push(codes::TYPE_MISMATCH, severity, Site::Expr(entry), message);
        diagnostic.notes.push(
            "a duration is numbers with units: \"30s\", \"10m\", \"1h30m\" (units ns, us, ms, s, m, h)"
                .to_owned(),
        );
        // A number alone may be seconds or minutes: both are offered, neither applied.
        if unitless {
            let (seconds, minutes) = (format!("\"{written}s\""), format!("\"{written}m\""));
            diagnostic.notes.push(format!(
                "did you mean {seconds} (seconds) or {minutes} (minutes)?"
            ));
            diagnostic.replace_with(at, &format!("`{seconds}` (seconds)"), seconds.clone());
            diagnostic.replace_with(at, &format!("`{minutes}` (minutes)"), minutes.clone());
        }
    }
}

/// The text of a literal string or number (as the number converts to a string); `None`
/// for a number too long to be a version or a duration (`1e999999` is a million digits).
fn constant_text(infer: &Infer<'_>, value: ExprId) -> Option<String> {
    let body = infer.body;
    match literal_value(body, body.expr(value))? {
        ConstValue::String(text) => Some(text.to_string()),
        number @ ConstValue::Number(_) => number.to_key_string().filter(|text| text.len() <= 64),
        ConstValue::Null | ConstValue::Bool(_) => None,
    }
}

/// `text` as a string literal in a message.
fn quoted(text: &str) -> String {
    ConstValue::String(text.into()).pretty()
}

/// Whether Go's `time.ParseDuration` accepts `text`: an optional sign, then one or more
/// decimal numbers (a fraction allowed) each with a unit, or `0` alone.
fn is_go_duration(text: &str) -> bool {
    let rest = text.strip_prefix(['+', '-']).unwrap_or(text);
    if rest == "0" {
        return true;
    }
    let mut rest = rest.as_bytes();
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let mut taken = digits;
        let mut fraction = 0;
        if rest.get(taken) == Some(&b'.') {
            taken += 1;
            fraction = rest[taken..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            taken += fraction;
        }
        if digits == 0 && fraction == 0 {
            return false;
        }
        rest = &rest[taken..];
        let unit = ["ns", "us", "µs", "μs", "ms", "s", "m", "h"]
            .iter()
            .find(|unit| rest.starts_with(unit.as_bytes()));
        match unit {
            Some(unit) => rest = &rest[unit.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{is_go_duration, padded_version};

    #[test]
    fn go_durations() {
        for good in [
            "0", "10m", "1h30m", "1.5h", ".5s", "2.s", "-3s", "+4ms", "300us", "1µs",
        ] {
            assert!(is_go_duration(good), "{good}");
        }
        for bad in ["", "10", "5 m", "m", "1d", ".s", "1h30", "-", "+0s0", "10M"] {
            assert!(!is_go_duration(bad), "{bad}");
        }
    }

    #[test]
    fn versions_are_padded_to_three_numbers() {
        assert_eq!(padded_version("4.11").as_deref(), Some("4.11.0"));
        assert_eq!(padded_version("4").as_deref(), Some("4.0.0"));
        assert_eq!(padded_version("latest"), None);
        assert_eq!(padded_version("4.x"), None);
        assert_eq!(padded_version("1.2.3.4"), None);
    }
}
