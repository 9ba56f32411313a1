//! blang/semver's range grammar, which Pulumi reads a `pulumi` block's
//! `requiredVersionRange` with (`>=3.0.0 <4.0.0`, `!3.1.2`, `1.2.x`, `A || B`): ranges
//! separated by `||`, each a list of comparisons separated by spaces (an operator may
//! stand apart from its version), each an operator (`=`, `==`, `!`, `!=`, `>`, `>=`,
//! `<`, `<=` or none) and a strict semver version, whose minor and patch may be `x`.
//! The Rust `semver` crate's requirements are another language (`^1.2`, commas).

/// Check a range; the error says what is wrong.
pub(crate) fn check_range(text: &str) -> Result<(), String> {
    // Operators written apart from their version join the next part, as blang's
    // `splitAndTrim` does.
    let mut parts: Vec<String> = Vec::new();
    let mut pending = String::new();
    for word in text.split_whitespace() {
        if word != "||" && word.chars().all(|c| matches!(c, '=' | '<' | '>' | '!')) {
            pending.push_str(word);
            continue;
        }
        parts.push(format!("{}{word}", std::mem::take(&mut pending)));
    }
    if !pending.is_empty() {
        return Err(format!("the operator `{pending}` has no version"));
    }
    if parts.is_empty() {
        return Err("the range is empty".to_owned());
    }
    if parts.first().is_some_and(|p| p == "||") {
        return Err("the range starts with `||`".to_owned());
    }
    if parts.last().is_some_and(|p| p == "||") {
        return Err("the range ends with `||`".to_owned());
    }
    for pair in parts.windows(2) {
        if pair[0] == "||" && pair[1] == "||" {
            return Err("`||` twice in a row".to_owned());
        }
    }
    for part in parts.iter().filter(|p| *p != "||") {
        comparison(part)?;
    }
    Ok(())
}

fn comparison(part: &str) -> Result<(), String> {
    let split = part
        .find(|c: char| !matches!(c, '=' | '<' | '>' | '!'))
        .unwrap_or(part.len());
    let (operator, version) = part.split_at(split);
    if !matches!(
        operator,
        "" | "=" | "==" | "!" | "!=" | ">" | ">=" | "<" | "<="
    ) {
        return Err(format!("`{operator}` is not a comparison operator"));
    }
    if let Some(op) = version
        .chars()
        .next()
        .filter(|c| matches!(c, '^' | '~' | '*'))
    {
        return Err(format!(
            "`{op}` is not one of its operators (write `>=3.0.0 <4.0.0`, not `^3.0.0`)"
        ));
    }
    let wildcard = version.contains('x');
    if wildcard && matches!(operator, "!" | "!=") {
        return Err(format!("`{part}`: a wildcard version cannot be excluded"));
    }
    let expanded = if wildcard {
        expand_wildcard(version).ok_or_else(|| format!("`{version}` is not a version"))?
    } else {
        version.to_owned()
    };
    strict_version(&expanded).map_err(|why| format!("`{version}` is not a version: {why}"))
}

/// `1.x`, `1.x.x`, `1.2.x` as the version at their start.
fn expand_wildcard(version: &str) -> Option<String> {
    let parts: Vec<&str> = version.split('.').collect();
    match parts.as_slice() {
        [major, "x"] | [major, "x", "x"] => Some(format!("{major}.0.0")),
        [major, minor, "x"] if *minor != "x" => Some(format!("{major}.{minor}.0")),
        _ => None,
    }
}

/// A strict semver version (no `v`, no leading zeros, three numbers).
fn strict_version(version: &str) -> Result<(), String> {
    let (rest, build) = match version.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (version, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    let numbers: Vec<&str> = core.split('.').collect();
    if numbers.len() != 3 {
        return Err("it needs MAJOR.MINOR.PATCH".to_owned());
    }
    for number in numbers {
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{number}` is not a number"));
        }
        if number.len() > 1 && number.starts_with('0') {
            return Err(format!("`{number}` has a leading zero"));
        }
    }
    let identifier =
        |id: &str| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if let Some(pre) = pre {
        for id in pre.split('.') {
            if !identifier(id) {
                return Err(format!("`{id}` is not a prerelease identifier"));
            }
            if id.len() > 1 && id.starts_with('0') && id.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("`{id}` has a leading zero"));
            }
        }
    }
    if let Some(build) = build {
        for id in build.split('.') {
            if !identifier(id) {
                return Err(format!("`{id}` is not a build identifier"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_range;

    #[test]
    fn blang_ranges() {
        for good in [
            "1.2.3",
            ">=3.0.0 <4.0.0",
            "!3.1.2",
            "!=3.1.2",
            ">= 3.0.0",
            "<1.0.0 || >=2.0.0",
            ">1.0.0 <2.0.0 || >=3.0.0",
            "1.2.x",
            ">=1.x",
            "1.x.x",
            "==1.0.0-alpha.1+build.5",
            "=0.0.0",
        ] {
            assert_eq!(check_range(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "^3.0.0",
            "~3.0.0",
            ">=3.0",
            "v3.0.0",
            ">=3.0.0, <4.0.0",
            "|| 1.0.0",
            "1.0.0 ||",
            "1.0.0 || || 2.0.0",
            "01.0.0",
            "1.0.0-01",
            "1.0.0-",
            "=>1.0.0",
            ">=",
            "!1.x",
            "x.1.0",
            "*",
        ] {
            assert!(check_range(bad).is_err(), "{bad}");
        }
    }
}
