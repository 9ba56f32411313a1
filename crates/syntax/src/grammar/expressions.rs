//! Expressions: operators (a Pratt loop), postfix traversals and splats, and atoms.

use super::*;

/// Where an expression may stop; recovery inside lists does not skip past these.
const EXPR_RECOVERY: TokenSet =
    TokenSet::new(&[R_PAREN, R_BRACK, R_CURLY, COMMA, CLOSE_QUOTE, HEREDOC_END]);

/// Parses an expression, or reports that one was expected. Returns `None` when nothing could
/// be parsed (and then nothing was consumed, unless it was an error node).
pub(super) fn expr(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if !p.enter_nesting() {
        return Some(p.skip_balanced());
    }
    let res = conditional(p);
    p.leave_nesting();
    res
}

// test conditional
// a = b ? c : d ? e : f
fn conditional(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let cond = binary(p, 0)?;
    if !p.at_continuation(QUESTION) {
        return Some(cond);
    }
    let m = cond.precede(p);
    p.bump();
    // JavaScript's `a ?? b`: one error; the whole is an error node, checked no further.
    if p.at(QUESTION) && p.nth_is_joined(0) {
        let range = p.prev_range(1).cover(p.current_range());
        p.error_at(
            range,
            codes::UNEXPECTED_TOKEN,
            "PCL has no `??`: write `value != null ? value : fallback`".to_owned(),
        );
        p.bump();
        if operand_follows(p, "`??`") {
            expr(p);
        }
        return Some(m.complete(p, ERROR));
    }
    if !operand_follows(p, "`?`") || expr(p).is_none() {
        return Some(m.complete(p, CONDITIONAL_EXPR));
    }
    if p.at_continuation(COLON) {
        p.bump();
        if operand_follows(p, "`:`") {
            expr(p);
        }
    } else {
        p.error_expected("`:` and the value for a false condition");
    }
    Some(m.complete(p, CONDITIONAL_EXPR))
}

/// Whether an operand may follow an operator here: not after a significant line break.
fn operand_follows(p: &mut Parser<'_>, after: &str) -> bool {
    if p.at_significant_line_start() || p.at(EOF) {
        p.error_expected(&format!("an expression after {after}"));
        return false;
    }
    true
}

fn precedence(kind: SyntaxKind) -> u8 {
    match kind {
        PIPE2 => 1,
        AMP2 => 2,
        EQ2 | NEQ => 3,
        LT | LTEQ | GT | GTEQ => 4,
        PLUS | MINUS => 5,
        STAR | SLASH | PERCENT => 6,
        _ => 0,
    }
}

// test binary
// a = 1 + 2 * 3 - 4 == 5 || !x && -y < 7
fn binary(p: &mut Parser<'_>, min_precedence: u8) -> Option<CompletedMarker> {
    let mut lhs = unary(p)?;
    let chain_start = p.chain;
    loop {
        let op = p.current();
        let op_precedence = precedence(op);
        if op_precedence <= min_precedence || !p.at_continuation(op) {
            break;
        }
        if !chain_step(p) {
            break;
        }
        let m = lhs.precede(p);
        p.bump();
        // JavaScript's `===` and `!==`: one error, and the comparison read as PCL's.
        if matches!(op, EQ2 | NEQ) && p.at(EQ) && p.nth_is_joined(0) {
            let range = p.prev_range(1).cover(p.current_range());
            let pcl = if op == EQ2 { "==" } else { "!=" };
            p.error_at(
                range,
                codes::UNEXPECTED_TOKEN,
                format!("PCL compares with `{pcl}`: `{pcl}=` is JavaScript's"),
            );
            p.bump();
        }
        if !operand_follows(p, op.describe()) || binary(p, op_precedence).is_none() {
            lhs = m.complete(p, BINARY_EXPR);
            break;
        }
        lhs = m.complete(p, BINARY_EXPR);
    }
    p.chain = chain_start;
    Some(lhs)
}

/// Counts one more level of tree depth in a chain; reports and refuses beyond the limit.
fn chain_step(p: &mut Parser<'_>) -> bool {
    if p.chain >= CHAIN_LIMIT {
        p.error(codes::NESTED_TOO_DEEPLY, format!(
            "expression too long: more than {CHAIN_LIMIT} operators or traversals in a chain; split it into locals"
        ));
        p.skip_until(EXPR_RECOVERY, p.newlines_significant());
        return false;
    }
    p.chain += 1;
    true
}

fn unary(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if p.at(IDENT)
        && let Some(instead) = foreign_prefix(p)
    {
        return foreign_prefixed(p, instead);
    }
    if !p.at(MINUS) && !p.at(BANG) {
        return postfix(p);
    }
    if !p.enter_nesting() {
        return Some(p.skip_balanced());
    }
    let m = p.start();
    let op = p.current();
    p.bump();
    if operand_follows(p, op.describe()) {
        // A missing operand reports its own error.
        unary(p);
    }
    p.leave_nesting();
    Some(m.complete(p, UNARY_EXPR))
}

// test postfix
// a = x.b[0].c.0.d
fn postfix(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    // Where a path (`pulumi.asset`) starts, read back only for what a method call of it
    // means; `None` once it is not one.
    let mut path_start = None;
    let mut called = false;
    if p.current() == IDENT {
        let next = p.nth(1);
        if next == OPEN_QUOTE && p.nth_is_joined(1) && is_string_prefix(p.nth_text(0)) {
            return Some(prefixed_string(p));
        }
        if next == IDENT
            && p.nth_text(0) == "new"
            && !p.nth_at_line_start(1)
            && !is_clause_keyword(p.nth_text(1))
        {
            return Some(new_expression(p));
        }
        // A name alone starts a path (`lookup(m, k).get(..)` is a value's method).
        if next != L_PAREN {
            path_start = Some(p.position());
        }
    }
    let mut lhs = atom(p)?;
    let chain_start = p.chain;
    loop {
        // JavaScript's `a?.b`: one error; the value before it is an error node.
        if p.current() == QUESTION && p.nth(1) == DOT && p.nth_is_joined(1) && p.nth_is_joined(0) {
            let m = lhs.precede(p);
            let range = p.current_range().cover(p.nth_range(1));
            p.error_at(
                range,
                codes::UNEXPECTED_TOKEN,
                "PCL has no `?.`: write `.` (an attribute of an optional value is optional too)"
                    .to_owned(),
            );
            p.bump();
            lhs = m.complete(p, ERROR);
            continue;
        }
        if p.at_continuation(DOT) {
            if !chain_step(p) {
                break;
            }
            let dot_at = p.position();
            lhs = match p.nth(1) {
                STAR => attr_splat(p, lhs),
                _ => {
                    let m = lhs.precede(p);
                    let kind = dot_step(p);
                    let step = m.complete(
                        p,
                        if kind == ATTR_STEP {
                            GET_ATTR_EXPR
                        } else {
                            LEGACY_INDEX_EXPR
                        },
                    );
                    if kind == ATTR_STEP && p.at(L_PAREN) && p.nth_is_joined(0) {
                        // A chain of calls (`Output.all(..).apply(..)`) is reported once.
                        let report = !called;
                        called = true;
                        let mut path = path_start.map(|at| p.idents_since(at)).unwrap_or_default();
                        path.pop();
                        path_start = None;
                        let name = p.idents_since(dot_at).pop().unwrap_or_default();
                        method_call(p, step, (&path, name), report)
                    } else {
                        step
                    }
                }
            };
        } else if p.at_continuation(L_BRACK) {
            if !chain_step(p) {
                break;
            }
            // `refs[0].getOutput(..)` is a value's method, not a path's.
            path_start = None;
            lhs = if p.nth(1) == STAR && p.nth(2) == R_BRACK {
                full_splat(p, lhs)
            } else {
                let m = lhs.precede(p);
                index_brackets(p);
                m.complete(p, INDEX_EXPR)
            };
        } else {
            // Go's composite literal, `pulumi.StringArray{"a", "b"}`: one error, and the
            // whole is an error node.
            // The path's last name is read back only at a `{` right after it.
            let composite = p.at(L_CURLY)
                && p.nth_is_joined(0)
                && path_start.is_some_and(|at| {
                    (p.idents_since(at).last())
                        .is_some_and(|name| name.starts_with(char::is_uppercase))
                })
                && closes_later(p);
            if composite {
                let start = p.prev_range(1).start();
                let m = lhs.precede(p);
                p.skip_balanced();
                let range = rowan::TextRange::new(start, p.prev_range(1).end());
                p.error_rewriting(
                    range,
                    codes::INVALID_EXPRESSION,
                    GO_COMPOSITE_LITERAL.to_owned(),
                );
                lhs = m.complete(p, ERROR);
            }
            break;
        }
    }
    p.chain = chain_start;
    Some(lhs)
}

/// `await invoke(..)`, `not enabled`: the word is an error of its own (`instead` says what
/// PCL writes), and the expression after it is read as the value.
#[cold]
#[inline(never)]
fn foreign_prefixed(p: &mut Parser<'_>, instead: &str) -> Option<CompletedMarker> {
    if !p.enter_nesting() {
        return Some(p.skip_balanced());
    }
    let m = p.start();
    let range = p.current_range();
    p.bump();
    p.error_rewriting(range, codes::INVALID_EXPRESSION, instead.to_owned());
    m.complete(p, ERROR);
    let value = unary(p);
    p.leave_nesting();
    value
}

/// What PCL writes for another language's word before a value on its line (`await x`,
/// `not x`), when the current token is one. Not a name of that spelling used as a value:
/// before a `for` expression's `if` or `in`, or indexed or called without a space
/// (`await[0]`).
fn foreign_prefix(p: &Parser<'_>) -> Option<&'static str> {
    // The next token first: a name is most often followed by none of these.
    let value_follows = match p.nth(1) {
        IDENT => !is_clause_keyword(p.nth_text(1)),
        NUMBER | OPEN_QUOTE | BANG | MINUS => true,
        L_PAREN | L_BRACK => !p.nth_is_joined(1),
        _ => false,
    };
    if !value_follows || p.nth_at_line_start(1) {
        return None;
    }
    Some(match p.nth_text(0) {
        "await" => "PCL needs no `await`: an `invoke(...)` or an output is used directly",
        "not" => "PCL negates with `!`: `!value`",
        "typeof" => "PCL has no `typeof`: a value's type is known where it is declared",
        _ => return None,
    })
}

/// What PCL writes for Go's composite literal, `pulumi.StringArray{"a", "b"}`.
const GO_COMPOSITE_LITERAL: &str = "a Go composite literal: PCL writes the value itself, a list in brackets (`[\"a\", \"b\"]`) or an object (`{ key = value }`)";

/// Go's `&T{...}` (`&s3.BucketArgs{...}`): one error for all of it, saying what PCL writes
/// (for an arguments struct: its inputs in the resource's body); `None` unless the `&` is
/// joined to a path joined to `{` (the lexer's error about the `&` stands then).
#[cold]
fn go_address_of(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if p.nth_text(0) != "&" {
        return None;
    }
    // `&`, names joined by dots, then `{`: `n` at the last name.
    let mut n = 1;
    loop {
        p.ensure_ahead(n + 2);
        if p.nth(n) != IDENT || !p.nth_is_joined(n) {
            return None;
        }
        if p.nth(n + 1) != DOT || !p.nth_is_joined(n + 1) {
            break;
        }
        n += 2;
    }
    let name = p.nth_text(n);
    if p.nth(n + 1) != L_CURLY || !p.nth_is_joined(n + 1) || !closes_later_from(p, n + 1) {
        return None;
    }
    let message = match name.ends_with("Args") {
        true => format!(
            "`{name}{{...}}` is a Go SDK's arguments struct: PCL has no arguments object: write each input in the resource's body, `name = value`"
        ),
        false => GO_COMPOSITE_LITERAL.to_owned(),
    };
    let m = p.start();
    let start = p.current_range().start();
    for _ in 0..=n {
        p.bump();
    }
    p.skip_balanced();
    let range = rowan::TextRange::new(start, p.prev_range(1).end());
    p.error_rewriting(range, codes::INVALID_EXPRESSION, message);
    Some(m.complete(p, ERROR))
}

/// Words that continue an expression (`[for x in xs : x if x]`): no value starts with them.
fn is_clause_keyword(word: &str) -> bool {
    matches!(word, "if" | "in" | "for" | "else")
}

/// Whether `text`, before a string, is a string prefix of Python (`f"..."`, `r"..."`).
fn is_string_prefix(text: &str) -> bool {
    matches!(
        text,
        "f" | "F" | "r" | "R" | "b" | "fr" | "rf" | "Fr" | "rF"
    )
}

/// `f"logs-{env}"`: Python's prefixed string, one error; the whole is an error node, so
/// the prefix is not also an undefined name.
#[cold]
fn prefixed_string(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let prefix = p.nth_text(0);
    let start = p.current_range().start();
    p.bump();
    atom(p);
    let range = rowan::TextRange::new(start, p.prev_range(1).end());
    let message = match prefix.contains(['f', 'F']) {
        true => format!(
            "PCL has no f-strings: drop the `{prefix}`, and interpolate with `${{...}}`: \"...${{name}}...\""
        ),
        false => format!("PCL strings take no prefix: drop the `{prefix}`"),
    };
    p.error_rewriting(range, codes::INVALID_EXPRESSION, message);
    m.complete(p, ERROR)
}

/// `new aws.s3.Bucket("b", {...})`, `new pulumi.asset.FileAsset("x")`, `new
/// InputMap<string> { ... }`: another language's constructor. One error saying what PCL
/// writes for the class; the whole is an error node.
#[cold]
fn new_expression(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let start = p.current_range().start();
    p.bump();
    let path_at = p.position();
    p.bump();
    while p.at(DOT) && p.nth(1) == IDENT {
        p.bump();
        p.bump();
    }
    let path = p.idents_since(path_at);
    // Type arguments (`<string>`), within the line.
    if p.at(LT) {
        while !matches!(p.current(), NEWLINE | EOF) && !p.at_line_start() {
            let closing = p.at(GT);
            p.bump();
            if closing {
                break;
            }
        }
    }
    for bracket in [L_PAREN, L_CURLY] {
        if p.at(bracket) && closes_later(p) {
            p.skip_balanced();
        }
    }
    let range = rowan::TextRange::new(start, p.prev_range(1).end());
    p.error_rewriting(range, codes::INVALID_EXPRESSION, new_message(&path));
    m.complete(p, ERROR)
}

/// What PCL writes instead of `new` of the class at `path`.
fn new_message(path: &[&str]) -> String {
    let Some((&class, namespace)) = path.split_last() else {
        return String::new();
    };
    let assets = [
        "FileAsset",
        "StringAsset",
        "RemoteAsset",
        "FileArchive",
        "AssetArchive",
        "RemoteArchive",
        "StackReference",
    ];
    let collection = class.starts_with("Input")
        || matches!(
            class,
            "Dictionary" | "Map" | "HashMap" | "List" | "Array" | "Object"
        );
    // C#'s `Pulumi.Config`, Python's `pulumi.Config`; `k8s` is the SDKs' alias.
    let root = match namespace.first().copied() {
        Some("Pulumi") => Some("pulumi"),
        Some("k8s") => Some("kubernetes"),
        other => other,
    };
    let instead = if assets.contains(&class) || (root == Some("pulumi") && class == "Config") {
        crate::foreign::sdk_reference("pulumi", class)
    } else if class == "Provider" && root.is_some_and(|package| package != "pulumi") {
        let package = root.unwrap_or_default();
        format!(
            "a provider is a resource of type `pulumi:providers:{package}`, `resource {package}Provider \"pulumi:providers:{package}\" {{ ... }}`"
        )
    } else if let (Some(package), [_, module @ ..]) = (root, namespace)
        && package != "pulumi"
        && module.len() > 1
        && class.starts_with(|c: char| c.is_ascii_uppercase())
    {
        // A class in a nested module (`k8s.apps.v1.Deployment`): its token's module is
        // the path, its file part the package's own.
        format!(
            "PCL declares a resource as a block with its type token, `resource name \"{package}:{}:{class}\" {{ inputs }}` (`pcl schema {package}` lists them)",
            module.join("/")
        )
    } else if collection {
        "PCL writes a map as an object, `{ Name = \"web\" }`, and a list in brackets, `[\"a\", \"b\"]`"
            .to_owned()
    } else if let [package, ..] = namespace
        && *package != "pulumi"
        && class.starts_with(|c: char| c.is_ascii_uppercase())
    {
        call_message(namespace, class)
    } else {
        "a resource is a block, `resource NAME \"pkg:module:Type\" { inputs }`".to_owned()
    };
    format!("PCL has no `new`: {instead}")
}

/// `value.name(...)`, a method call of another language: PCL has none. One error, at the
/// call, saying what PCL writes (when `report`: a chain's later calls add none); the whole
/// call is an error node, so nothing inside it is checked again (the `.apply` is no
/// attribute of the value, too).
#[cold]
fn method_call(
    p: &mut Parser<'_>,
    receiver: CompletedMarker,
    (path, name): (&[&str], &str),
    report: bool,
) -> CompletedMarker {
    let start = p.prev_range(1).start();
    let m = receiver.precede(p);
    // Its arguments are skipped whole (another language's lambdas and all), unless its
    // `(` is never closed: then the argument list reports it and recovers at an item.
    if closes_later(p) {
        p.skip_balanced();
    } else {
        arg_list(p);
    }
    if report {
        let range = rowan::TextRange::new(start, p.prev_range(1).end());
        p.error_rewriting(range, codes::INVALID_EXPRESSION, call_message(path, name));
    }
    m.complete(p, ERROR)
}

/// Whether the bracket at the current token is closed before the end of the input.
fn closes_later(p: &mut Parser<'_>) -> bool {
    closes_later_from(p, 0)
}

/// [`closes_later`] of the bracket `from` tokens ahead.
fn closes_later_from(p: &mut Parser<'_>, from: usize) -> bool {
    let mut depth = 0usize;
    for n in from.. {
        p.ensure_ahead(n);
        match p.nth(n) {
            EOF => return false,
            L_PAREN | L_BRACK | L_CURLY => depth += 1,
            R_PAREN | R_BRACK | R_CURLY => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// What PCL writes for a call `path.name(...)`: of an SDK's or a library's function
/// (`pulumi.String("x")`, `JSON.stringify(v)`), a resource class's (`aws.s3.Bucket.get`),
/// a package's function (`aws.getAvailabilityZones()`), or a value's method.
fn call_message(path: &[&str], name: &str) -> String {
    let called = format!("{}.{name}(...)", path.join("."));
    let class = path
        .last()
        .is_some_and(|last| last.starts_with(|c: char| c.is_ascii_uppercase()));
    // `pulumi.Output.concat` is `Output.concat`.
    let path: &[&str] = match path {
        ["pulumi", "Output", ..] => &path[1..],
        _ => path,
    };
    // A package's function, `aws.getAmi` (`getAmi`, not a method such as `getOutput`).
    let get_upper = name
        .strip_prefix("get")
        .and_then(|rest| rest.chars().next());
    let package_function =
        get_upper.is_some_and(|c| c.is_ascii_uppercase()) && known_method(name).is_none();
    match path {
        [] => method_message(name),
        [root, rest @ ..] if let Some(whose) = crate::foreign::sdk_namespace(root) => {
            let step = rest.first().copied().unwrap_or(name);
            let instead = crate::foreign::sdk_reference(root, step);
            format!("`{called}` is {whose}: {instead}")
        }
        [_, .., _] if class && matches!(name, "get" | "Get") => format!(
            "`{called}` reads an existing resource in the SDKs: PCL writes a `read` block, `read name \"pkg:module:Type\" {{ id = \"...\" }}`"
        ),
        // `random.RandomPet("pet", ...)`: a resource class's constructor.
        [package, module @ ..]
            if name.starts_with(|c: char| c.is_ascii_uppercase())
                && module.len() <= 1
                && !class =>
        {
            let module = module.first().copied().unwrap_or("index");
            let mut file = name.to_owned();
            file[..1].make_ascii_lowercase();
            format!(
                "`{called}` makes a resource in the SDKs: PCL declares it as a block, `resource name \"{package}:{module}/{file}:{name}\" {{ inputs }}`"
            )
        }
        [package, module @ ..] if package_function && module.len() <= 1 && !class => {
            let module = module.first().copied().unwrap_or("index");
            format!(
                "`{called}` is a package function of the SDKs: PCL calls it with `invoke`, such as `invoke(\"{package}:{module}/{name}:{name}\", {{ arguments }})` (`pcl schema {package}` lists its functions)"
            )
        }
        _ => method_message(name),
    }
}

/// What PCL writes for a method call `.name(...)` of a value.
fn method_message(name: &str) -> String {
    let instead = known_method(name).unwrap_or("PCL calls functions by name: `f(value)`");
    format!("PCL values have no methods: `.{name}(...)` cannot be called; {instead}")
}

/// What PCL writes for a method of other languages' values it knows (`apply`, `join`,
/// `getOutput`, `require`).
fn known_method(name: &str) -> Option<&'static str> {
    Some(match name {
        "apply" | "Apply" | "then" => {
            "an output is used as it is: a template takes it directly, `\"http://${site.endpoint}\"`, and so does an attribute, `app.metadata.name`"
        }
        "map" | "Select" | "forEach" | "filter" | "Where" => {
            "a `for` expression transforms a list: `[for x in list : x.name]`, `[for x in list : x if x.enabled]`"
        }
        "join" | "Join" => "`join` is a function: `join(\",\", list)`",
        "split" | "Split" => "`split` is a function: `split(\",\", text)`",
        "get" | "Get" | "GetValueOrDefault" => {
            "a map's value is `map[\"key\"]`, or `lookup(map, \"key\", default)` with a default"
        }
        "toString" | "ToString" | "format" | "Format" => {
            "a template turns values into text: `\"${value}\"`"
        }
        "getOutput" | "requireOutput" | "getOutputValue" | "GetOutput" | "RequireOutput" => {
            "a stack reference's output is `getOutput(reference, \"name\")`"
        }
        "toUpperCase" | "toLowerCase" | "upper" | "lower" | "ToUpper" | "ToLower" => {
            "PCL has no builtin for case: Pulumi's `std` package has `upper` and `lower`, `invoke(\"std:index:upper\", { input = value }).result`"
        }
        _ if crate::foreign::CONFIG_METHODS.contains(&name) => crate::foreign::CONFIG,
        _ if crate::foreign::LENGTH_NAMES.contains(&name) => {
            "`length` is a function: `length(list)`"
        }
        _ => return None,
    })
}

/// `.name` or `.0` (a legacy index); returns `ATTR_STEP` or `LEGACY_INDEX_STEP` as the kind
/// parsed. The caller wraps the tokens.
fn dot_step(p: &mut Parser<'_>) -> SyntaxKind {
    p.bump();
    if p.at_significant_line_start() {
        p.error_expected("an attribute name after `.`");
        return ATTR_STEP;
    }
    match p.current() {
        IDENT => {
            p.bump();
            ATTR_STEP
        }
        NUMBER => {
            let text = p.nth_text(0);
            if !text.bytes().all(|b| b.is_ascii_digit()) {
                p.error(
                    codes::INVALID_EXPRESSION,
                    format!(
                        "invalid legacy index `.{text}`: write an index in brackets, like `[0][1]`"
                    ),
                );
            }
            p.bump();
            LEGACY_INDEX_STEP
        }
        STAR => {
            p.error(
                codes::INVALID_EXPRESSION,
                "nested splat expression not allowed: use a `for` expression".to_owned(),
            );
            p.bump();
            ATTR_STEP
        }
        _ => {
            p.error_expected("an attribute name after `.`");
            ATTR_STEP
        }
    }
}

/// `[ expr ]`, with newlines ignored inside.
fn index_brackets(p: &mut Parser<'_>) {
    let open_range = p.current_range();
    p.bump();
    let significant = p.set_newlines_significant(false);
    if p.at(R_BRACK) {
        p.error(
            codes::EXPECTED_TOKEN,
            "expected an index between `[` and `]`".to_owned(),
        );
    } else {
        if !p.at(COLON) {
            expr(p);
        }
        if p.at(COLON) {
            slice(p);
        }
    }
    // The next line starts an attribute (`b = 1`): the index was left open, and the rest
    // of the file is not skipped looking for its `]`.
    if p.at_line_start() && p.at(IDENT) && p.nth(1) == EQ {
        p.error_at(
            open_range,
            codes::UNCLOSED_DELIMITER,
            "unclosed index: this `[` has no matching `]`".to_owned(),
        );
    } else {
        close_bracket(p, R_BRACK, "`]` to close the index", open_range);
    }
    p.set_newlines_significant(significant);
}

/// `xs[0:2]`, Python's and Go's slice, from its `:` to before the `]`: one error, and the
/// rest is an error node.
#[cold]
fn slice(p: &mut Parser<'_>) {
    let m = p.start();
    let start = p.current_range().start();
    p.bump();
    while !matches!(p.current(), R_BRACK | EOF) && !p.at_line_start() {
        p.bump();
    }
    let range = rowan::TextRange::new(start, p.prev_range(1).end());
    p.error_rewriting(
        range,
        codes::INVALID_EXPRESSION,
        "PCL has no slices: a `for` expression takes the elements from `start` up to `end`, `[for i, x in list : x if i >= start && i < end]`"
            .to_owned(),
    );
    m.complete(p, ERROR);
}

// test attr_splat
// a = x.*.b.0
fn attr_splat(p: &mut Parser<'_>, lhs: CompletedMarker) -> CompletedMarker {
    let m = lhs.precede(p);
    p.bump();
    p.bump();
    while p.at_continuation(DOT) && matches!(p.nth(1), IDENT | NUMBER | STAR) {
        if !chain_step(p) {
            break;
        }
        let step = p.start();
        let kind = dot_step(p);
        step.complete(p, kind);
    }
    m.complete(p, SPLAT_EXPR)
}

// test full_splat
// a = x[*].b[0].c
// b = x[*].y[*].z
// c = x[*].y.*.z
/// `[*]` and the traversal steps after it, applied to each element. A nested `[*]` or `.*`
/// among the steps is a `SPLAT_STEP`: the steps after it apply to each element of that.
fn full_splat(p: &mut Parser<'_>, lhs: CompletedMarker) -> CompletedMarker {
    let m = lhs.precede(p);
    p.bump();
    p.bump();
    p.bump();
    loop {
        if p.at_continuation(DOT) && p.nth(1) == STAR {
            if !chain_step(p) {
                break;
            }
            let step = p.start();
            p.bump();
            p.bump();
            step.complete(p, SPLAT_STEP);
        } else if p.at_continuation(DOT) && matches!(p.nth(1), IDENT | NUMBER) {
            if !chain_step(p) {
                break;
            }
            let step = p.start();
            let kind = dot_step(p);
            step.complete(p, kind);
        } else if p.at_continuation(L_BRACK) {
            if !chain_step(p) {
                break;
            }
            let step = p.start();
            if p.nth(1) == STAR && p.nth(2) == R_BRACK {
                for _ in 0..3 {
                    p.bump();
                }
                step.complete(p, SPLAT_STEP);
            } else {
                index_brackets(p);
                step.complete(p, INDEX_STEP);
            }
        } else {
            break;
        }
    }
    m.complete(p, SPLAT_EXPR)
}

fn atom(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let res = match p.current() {
        NUMBER => {
            let m = p.start();
            p.bump();
            m.complete(p, LITERAL_EXPR)
        }
        IDENT => ident_expr(p),
        OPEN_QUOTE => super::templates::quoted_template(p).0,
        HEREDOC_START => super::templates::heredoc(p),
        L_PAREN => paren(p),
        L_BRACK if p.nth_at_kw(1, "for") => for_tuple(p),
        L_BRACK => tuple(p),
        L_CURLY if p.nth_at_kw(1, "for") => for_object(p),
        L_CURLY => object(p),
        ERROR_TOKEN if let Some(literal) = go_address_of(p) => literal,
        _ => {
            let message = format!("expected an expression, found {}", p.describe_current());
            if p.at_ts(EXPR_RECOVERY)
                || p.at(EOF)
                || (p.newlines_significant() && p.at_line_start())
            {
                p.error(codes::EXPECTED_TOKEN, message);
            } else {
                p.err_and_bump(codes::EXPECTED_TOKEN, message);
            }
            return None;
        }
    };
    Some(res)
}

// test ident_expr
// a = [true, false, null, x, f(1, xs...), ns::g()]
fn ident_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    match p.nth_text(0) {
        "true" => p.bump_remap(TRUE_KW),
        "false" => p.bump_remap(FALSE_KW),
        "null" => p.bump_remap(NULL_KW),
        _ => {
            // Where newlines are significant, a call's `::` parts and `(` stay on its line.
            let on_line =
                |p: &Parser<'_>, n: usize| !(p.newlines_significant() && p.nth_at_line_start(n));
            let mut n = 1;
            p.ensure_ahead(n + 1);
            while p.nth(n) == COLON2 && p.nth(n + 1) == IDENT && on_line(p, n) && on_line(p, n + 1)
            {
                n += 2;
                p.ensure_ahead(n + 1);
            }
            if p.nth(n) != L_PAREN || !on_line(p, n) {
                p.bump();
                if n > 1 {
                    p.error(
                        codes::EXPECTED_TOKEN,
                        "expected `(` after a namespaced function name".to_owned(),
                    );
                    while p.at(COLON2) || p.at(IDENT) {
                        p.bump();
                    }
                }
                return m.complete(p, VARIABLE_EXPR);
            }
            for _ in 0..n {
                p.bump();
            }
            arg_list(p);
            return m.complete(p, CALL_EXPR);
        }
    }
    m.complete(p, LITERAL_EXPR)
}

fn arg_list(p: &mut Parser<'_>) {
    let m = p.start();
    comma_list(p, ARGS);
    m.complete(p, ARG_LIST);
}

/// A bracketed, comma-separated list of expressions, with newlines ignored inside.
struct ListSpec {
    close: SyntaxKind,
    /// Where to stop skipping junk inside the list.
    follow: TokenSet,
    /// Whether the last element may be expanded with `...`.
    allows_expansion: bool,
    expected: &'static str,
    unclosed: &'static str,
}

const ARGS: ListSpec = ListSpec {
    close: R_PAREN,
    follow: TokenSet::new(&[COMMA, R_PAREN, DOT3]),
    allows_expansion: true,
    expected: "`,` or `)`",
    unclosed: "unclosed argument list: this `(` has no matching `)`",
};

const TUPLE: ListSpec = ListSpec {
    close: R_BRACK,
    follow: TokenSet::new(&[COMMA, R_BRACK]),
    allows_expansion: false,
    expected: "`,` or `]`",
    unclosed: "unclosed tuple: this `[` has no matching `]`",
};

/// The opening bracket (current), the elements and the closing bracket of a list.
fn comma_list(p: &mut Parser<'_>, spec: ListSpec) {
    let open_indent = p.line_indent();
    let open_range = p.current_range();
    p.bump();
    let significant = p.set_newlines_significant(false);
    let open_indent = p.contents_indent(open_indent);
    p.enter_list_nesting();
    while !list_ends(p, spec.close, open_indent) {
        if p.at(DOT3) {
            let message = match spec.close {
                R_BRACK => {
                    "PCL has no spread (`...`) in lists: Pulumi's `std` package joins lists, `invoke(\"std:index:concat\", { input = [list, [more]] }).result`"
                }
                _ => "PCL expands a list into arguments with `...` after it: `f(list...)`",
            };
            leading_spread(p, message);
        } else if expr(p).is_none() && !p.at_ts(spec.follow) {
            p.skip_until(spec.follow, false);
        }
        if spec.allows_expansion && p.at(DOT3) {
            p.bump();
            if !p.at(spec.close) {
                p.error(
                    codes::INVALID_EXPRESSION,
                    "`...` expands only the last argument: put it right before `)`".to_owned(),
                );
            }
        }
        if p.eat(COMMA) {
            continue;
        }
        if list_ends(p, spec.close, open_indent) {
            break;
        }
        // Python's `[x for x in xs]`.
        if spec.close == R_BRACK && p.at(IDENT) && p.nth_text(0) == "for" {
            p.error(
                codes::EXPECTED_TOKEN,
                "PCL writes a list comprehension with `for` first: `[for x in list : value]`"
                    .to_owned(),
            );
        } else {
            p.error_expected(spec.expected);
        }
        if !p.skip_until(spec.follow, false) || !p.eat(COMMA) {
            break;
        }
    }
    p.leave_nesting();
    p.set_newlines_significant(significant);
    if mismatched_close(p, spec.close, open_range) {
        return;
    }
    if !p.eat(spec.close) {
        p.error_at(
            open_range,
            codes::UNCLOSED_DELIMITER,
            spec.unclosed.to_owned(),
        );
    }
}

/// The closing bracket `close` of the bracket at `open_range`; at a closing bracket of
/// another kind, reports the mismatch; on junk before it, reports `expected` (pointing
/// back at the opener) and skips to it.
fn close_bracket(p: &mut Parser<'_>, close: SyntaxKind, expected: &str, open_range: TextRange) {
    if mismatched_close(p, close, open_range) {
        return;
    }
    if !p.at(close) {
        let found = p.describe_current();
        let range = p.current_error_range();
        p.error_related(
            range,
            codes::EXPECTED_TOKEN,
            format!("expected {expected}, found {found}"),
            open_range,
            &format!("to close this {}", opener(close)),
        );
        p.skip_until(TokenSet::new(&[close]), false);
    }
    p.eat(close);
}

/// At a closing bracket of another kind than `close` on the same line (`[1, 2}`; one that
/// starts a line closes an enclosing block, and the list is reported unclosed instead),
/// reports the mismatch at it, with the opener at `open_range` labelled, and leaves it for
/// the enclosing construct. Later errors at the same token are dropped as follow-ups.
fn mismatched_close(p: &mut Parser<'_>, close: SyntaxKind, open_range: TextRange) -> bool {
    const CLOSERS: TokenSet = TokenSet::new(&[R_PAREN, R_BRACK, R_CURLY]);
    if p.at(close) || !p.at_ts(CLOSERS) || p.at_line_start() {
        return false;
    }
    let found = p.current();
    let range = p.current_range();
    p.error_related(
        range,
        codes::MISMATCHED_DELIMITER,
        format!(
            "mismatched brackets: this {} does not close the {}",
            found.describe(),
            opener(close)
        ),
        open_range,
        &format!("this {} is closed by {}", opener(close), close.describe()),
    );
    true
}

/// The opening bracket that `close` closes, quoted.
fn opener(close: SyntaxKind) -> &'static str {
    match close {
        R_PAREN => "`(`",
        R_BRACK => "`[`",
        _ => "`{`",
    }
}

/// Whether a bracketed list closed by `close` ends here: at its closer, at another closing
/// bracket or the end of a template, at the end of input, or (in a file whose brackets do not
/// balance) at a line indented no deeper than the line that opened the list.
fn list_ends(p: &mut Parser<'_>, close: SyntaxKind, open_indent: Option<u32>) -> bool {
    p.at(close) || p.at(EOF) || p.at_ts(LIST_STOP) || p.at_outdented_line(open_indent)
}

const LIST_STOP: TokenSet = TokenSet::new(&[R_PAREN, R_BRACK, R_CURLY, CLOSE_QUOTE, HEREDOC_END]);

// test paren
// a = (1 + 2) * 3
fn paren(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let open_range = p.current_range();
    p.bump();
    let significant = p.set_newlines_significant(false);
    expr(p);
    close_bracket(p, R_PAREN, "`)`", open_range);
    p.set_newlines_significant(significant);
    m.complete(p, PAREN_EXPR)
}

// test tuple
// a = [1, "two",
//   three,]
fn tuple(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    comma_list(p, TUPLE);
    m.complete(p, TUPLE_EXPR)
}

// test object
// a = { b = 1, "c" = 2
//   (d) : 3
//   4 = x }
fn object(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let open_indent = p.line_indent();
    let open_range = p.current_range();
    p.bump();
    let significant = p.set_newlines_significant(true);
    let open_indent = p.contents_indent(open_indent);
    p.enter_list_nesting();
    while !list_ends(p, R_CURLY, open_indent) {
        let before = p.progress();
        object_item(p);
        if p.progress() == before {
            p.err_and_bump(
                codes::UNEXPECTED_TOKEN,
                format!("unexpected {} in the object", p.describe_token()),
            );
            continue;
        }
        if p.eat(COMMA) || p.at_line_start() || list_ends(p, R_CURLY, open_indent) {
            continue;
        }
        p.error_expected("`,`, a newline or `}` after the object item");
        p.skip_until(TokenSet::new(&[COMMA]), true);
        p.eat(COMMA);
    }
    p.leave_nesting();
    p.set_newlines_significant(significant);
    if !p.eat(R_CURLY) {
        p.error_at(
            open_range,
            codes::UNCLOSED_DELIMITER,
            "unclosed object: this `{` has no matching `}`".to_owned(),
        );
    }
    m.complete(p, OBJECT_EXPR)
}

fn object_item(p: &mut Parser<'_>) {
    let m = p.start();
    if p.at(DOT3) {
        leading_spread(
            p,
            "PCL has no spread (`...`) in objects: write the keys, or combine objects with Pulumi's `std` package, `invoke(\"std:index:merge\", { input = [object, { key = value }] }).result`",
        );
        m.complete(p, OBJECT_ITEM);
        return;
    }
    let key = p.start();
    let has_key = if expr(p).is_none() {
        key.abandon(p);
        p.skip_until(TokenSet::new(&[COMMA, EQ, COLON]), true);
        if !p.at(EQ) && !p.at(COLON) {
            m.complete(p, OBJECT_ITEM);
            return;
        }
        false
    } else {
        key.complete(p, OBJECT_KEY);
        true
    };
    // A key, its `=` or `:` and its value start on one line.
    if (p.at(EQ) || p.at(COLON)) && !(has_key && p.at_line_start()) {
        p.bump();
        if p.at_line_start() || p.at(EOF) {
            p.error_expected("a value after the object key");
        } else {
            expr(p);
        }
    } else {
        p.error_expected("`=` or `:` after the object key");
    }
    m.complete(p, OBJECT_ITEM);
}

/// JavaScript's spread, `...value` in a list, an object or a call: one error (`message`
/// says what PCL writes), and the whole is an error node.
#[cold]
fn leading_spread(p: &mut Parser<'_>, message: &str) {
    let m = p.start();
    let start = p.current_range().start();
    p.bump();
    expr(p);
    let range = rowan::TextRange::new(start, p.prev_range(1).end());
    p.error_rewriting(range, codes::INVALID_EXPRESSION, message.to_owned());
    m.complete(p, ERROR);
}

// test for_tuple
// a = [for i, v in xs: v * 2 if i > 0]
fn for_tuple(p: &mut Parser<'_>) -> CompletedMarker {
    for_expr(p, R_BRACK, FOR_TUPLE_EXPR, |p| {
        expr(p);
    })
}

// test for_object
// a = {for k, v in m: k => v... if v != null}
fn for_object(p: &mut Parser<'_>) -> CompletedMarker {
    for_expr(p, R_CURLY, FOR_OBJECT_EXPR, |p| {
        expr(p);
        if p.expect(FAT_ARROW) {
            expr(p);
            p.eat(DOT3);
        }
    })
}

/// `[for …]` or `{for …}`, closed by `close`: the intro, then `result` (what each element
/// gives), then the optional `if` condition.
fn for_expr(
    p: &mut Parser<'_>,
    close: SyntaxKind,
    kind: SyntaxKind,
    result: fn(&mut Parser<'_>),
) -> CompletedMarker {
    let m = p.start();
    let open_range = p.current_range();
    p.bump();
    let significant = p.set_newlines_significant(false);
    p.enter_list_nesting();
    if for_intro(p) {
        result(p);
        opt_for_cond(p);
    } else {
        p.skip_until(TokenSet::new(&[close]), false);
    }
    p.leave_nesting();
    let expected = if close == R_BRACK {
        "`]` to close the `for` expression"
    } else {
        "`}` to close the `for` expression"
    };
    close_bracket(p, close, expected, open_range);
    p.set_newlines_significant(significant);
    m.complete(p, kind)
}

/// `for k, v in collection :`. False, after an error, when the variable name is missing: the
/// rest of the expression is then most likely not a `for` at all.
fn for_intro(p: &mut Parser<'_>) -> bool {
    let m = p.start();
    p.bump_remap(FOR_KW);
    if !p.at(IDENT) {
        // `[for` and `{for` always start a for expression, as in hclsyntax.
        p.error_expected(
            "a variable name after `for` (to use `for` as an object key or tuple element, quote it: `\"for\"`)",
        );
        m.complete(p, FOR_INTRO);
        return false;
    }
    p.bump();
    if p.eat(COMMA) {
        p.expect(IDENT);
    }
    if p.nth_at_kw(0, "in") {
        p.bump_remap(IN_KW);
        expr(p);
    } else {
        p.error_expected("`in`");
        p.skip_until(TokenSet::new(&[COLON]), false);
    }
    p.expect(COLON);
    m.complete(p, FOR_INTRO);
    true
}

fn opt_for_cond(p: &mut Parser<'_>) {
    if !p.nth_at_kw(0, "if") {
        return;
    }
    let m = p.start();
    p.bump_remap(IF_KW);
    expr(p);
    m.complete(p, FOR_COND);
}
