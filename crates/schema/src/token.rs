//! Schema tokens: `pkg:module:member`, their canonical form under a package's
//! `meta.moduleFormat`, and the spellings programs may use for them.
//!
//! Canonical form: `pkg:m:member`, `m` being capture group 1 of the module format
//! (default `(.*)`, unanchored) on the module part; no match, `index`, and two-part tokens
//! give an empty module. So `random:index/randomPet:RandomPet` (format `(.*)(?:/[^/]*)`)
//! is `random::RandomPet`, which `random:index:RandomPet` and `random:RandomPet` also are.

use regex_lite::Regex;

/// A package's module format, compiled once.
#[derive(Clone, Debug)]
pub struct ModuleFormat {
    pattern: String,
    regex: Regex,
}

impl PartialEq for ModuleFormat {
    fn eq(&self, other: &ModuleFormat) -> bool {
        self.pattern == other.pattern
    }
}

impl Eq for ModuleFormat {}

impl ModuleFormat {
    /// Compile a `meta.moduleFormat` pattern.
    pub fn new(pattern: &str) -> Result<ModuleFormat, String> {
        let regex = Regex::new(pattern).map_err(|e| format!("invalid module format regex: {e}"))?;
        Ok(ModuleFormat {
            pattern: pattern.to_owned(),
            regex,
        })
    }

    /// The module a token's module part names.
    fn module<'m>(&self, module: &'m str) -> &'m str {
        let name = match self.pattern.as_str() {
            // The formats nearly every provider uses, without running the regex.
            "(.*)" => module,
            "(.*)(?:/[^/]*)" => module.rfind('/').map_or("", |slash| &module[..slash]),
            _ => match self.regex.captures(module) {
                Some(captures) => captures.get(1).map_or("", |m| m.as_str()),
                None => "",
            },
        };
        if name == "index" { "" } else { name }
    }
}

/// The parts of a token: package, module and member. `pkg:member` has module `index`,
/// and so does an empty module (`pkg::member`).
pub fn decompose(token: &str) -> Result<(&str, &str, &str), String> {
    // The colons found byte by byte (tokens are short; `split` searches char by char, and
    // every resource's token is decomposed, twice), at most two of them.
    let mut colons = [0usize; 2];
    let mut count = 0;
    for (at, _) in token.bytes().enumerate().filter(|&(_, byte)| byte == b':') {
        if count == colons.len() {
            return Err(malformed_token(token));
        }
        colons[count] = at;
        count += 1;
    }
    let [first, second] = colons;
    match count {
        1 => Ok((&token[..first], "index", &token[first + 1..])),
        2 if second == first + 1 => Ok((&token[..first], "index", &token[second + 1..])),
        2 => Ok((
            &token[..first],
            &token[first + 1..second],
            &token[second + 1..],
        )),
        _ => Err(malformed_token(token)),
    }
}

fn malformed_token(token: &str) -> String {
    format!("malformed token '{token}': expected 'pkg:module:member' or 'pkg:member'")
}

/// The canonical form of a token of package `package` under `format` (the default
/// `(.*)` when `None`). The package part is the package's name, whatever the token says,
/// as in the reference.
pub fn canonical(token: &str, package: &str, format: Option<&ModuleFormat>) -> Option<String> {
    let (own_package, module, member) = decompose(token).ok()?;
    let two_part = token.split(':').count() == 2;
    if two_part || (own_package == "pulumi" && matches!(module, "pulumi" | "providers")) {
        return Some(format!("{package}::{member}"));
    }
    let module = match format {
        Some(format) => format.module(module),
        None if module == "index" => "",
        None => module,
    };
    Some(format!("{package}:{module}:{member}"))
}

/// The package part of a token: `pkg` of `pkg:mod:Name`, and `aws` of the provider
/// token `pulumi:providers:aws`.
pub fn package_of(token: &str) -> Option<&str> {
    let (package, module, member) = decompose(token).ok()?;
    if package == "pulumi" && module == "providers" {
        return Some(member);
    }
    Some(package)
}

#[cfg(test)]
mod tests {
    use super::{ModuleFormat, canonical, decompose, package_of};

    #[test]
    fn decomposition() {
        assert_eq!(decompose("pkg:mod:Name"), Ok(("pkg", "mod", "Name")));
        assert_eq!(decompose("pkg::Name"), Ok(("pkg", "index", "Name")));
        assert_eq!(decompose("pkg:Name"), Ok(("pkg", "index", "Name")));
        assert_eq!(
            decompose("a:b:c:d"),
            Err(
                "malformed token 'a:b:c:d': expected 'pkg:module:member' or 'pkg:member'"
                    .to_owned()
            )
        );
        assert!(decompose("nocolon").is_err());
        assert_eq!(decompose(":"), Ok(("", "index", "")));
        assert_eq!(decompose("a::"), Ok(("a", "index", "")));
        assert_eq!(decompose("::"), Ok(("", "index", "")));
        assert_eq!(decompose("a:b:"), Ok(("a", "b", "")));
        assert!(decompose(":::").is_err());
        assert_eq!(decompose("é:ü/m:Ñ"), Ok(("é", "ü/m", "Ñ")));
        assert_eq!(package_of("pulumi:providers:aws"), Some("aws"));
        assert_eq!(package_of("aws:s3/bucket:Bucket"), Some("aws"));
    }

    /// The table of `../shared/docs/pcl-semantics.md` (outside the repo) §5.2.
    #[test]
    fn canonical_forms() {
        let slash = ModuleFormat::new("(.*)(?:/[^/]*)").expect("valid");
        let underscore = ModuleFormat::new("(.*)(?:_[^_]*)").expect("valid");
        let cases = [
            (
                "random:index/randomPet:RandomPet",
                Some(&slash),
                "random::RandomPet",
            ),
            ("random:index:RandomPet", Some(&slash), "random::RandomPet"),
            ("random::RandomPet", Some(&slash), "random::RandomPet"),
            ("random:RandomPet", Some(&slash), "random::RandomPet"),
            ("docker:foo/bar:Bar", Some(&slash), "docker:foo:Bar"),
            ("docker:foo/other:Bar", Some(&slash), "docker:foo:Bar"),
            ("pkg:index:Res", None, "pkg::Res"),
            ("pkg:mod:Res", None, "pkg:mod:Res"),
            (
                "module-format:mod_Resource:Resource",
                Some(&underscore),
                "module-format:mod:Resource",
            ),
            (
                "module-format:mod:Resource",
                Some(&underscore),
                "module-format::Resource",
            ),
            ("pulumi:providers:aws", Some(&slash), "pulumi::aws"),
            (
                "pulumi:pulumi:StackReference",
                None,
                "pulumi::StackReference",
            ),
        ];
        for (token, format, expected) in cases {
            let package = token.split(':').next().unwrap_or_default();
            assert_eq!(
                canonical(token, package, format).as_deref(),
                Some(expected),
                "{token}"
            );
        }
        // The package part is the package's own name.
        assert_eq!(
            canonical("bar::Resource", "example", None).as_deref(),
            Some("example::Resource")
        );
        assert_eq!(
            canonical("pulumi:providers:call/identity", "call", None).as_deref(),
            Some("call::call/identity")
        );
    }

    #[test]
    fn invalid_module_format() {
        let error = ModuleFormat::new("(.*").expect_err("unbalanced");
        assert!(error.starts_with("invalid module format regex"), "{error}");
    }
}
