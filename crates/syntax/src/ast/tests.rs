//! Tests of the typed AST: accessors and literal decoding.

use std::fmt::Write;

use expect_test::{Expect, expect};

use super::{AstNode, Expr, HeredocExpr, LiteralExpr, NumberValue, ObjectKey, TemplateExpr};
use crate::{SyntaxNode, parse};

/// Renders what the AST decodes from every literal, template, object key and block label.
fn check(text: &str, expect: Expect) {
    let parse = parse(text);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let mut res = String::new();
    let root = parse.syntax_node();
    if let Some(body) = parse.tree().body() {
        for block in body.blocks() {
            let labels: Vec<_> = block.labels().map(|label| label.value()).collect();
            let _ = writeln!(
                res,
                "block {:?} labels {labels:?}",
                block.type_name().map(|t| t.text().to_owned())
            );
        }
    }
    for node in root.descendants() {
        describe(&mut res, &node);
    }
    expect.assert_eq(&res);
}

fn describe(acc: &mut String, node: &SyntaxNode) {
    if let Some(literal) = LiteralExpr::cast(node.clone()) {
        let text = literal
            .token()
            .map(|tok| tok.text().to_owned())
            .unwrap_or_default();
        match literal.number_value() {
            Some(Ok(value)) => {
                let kind = if value.is_integer() {
                    "integer"
                } else {
                    "decimal"
                };
                let _ = writeln!(acc, "number {text} = {value} ({kind})");
            }
            Some(Err(message)) => {
                let _ = writeln!(acc, "number {text}: {message}");
            }
            None => {
                let _ = writeln!(acc, "literal {text}");
            }
        }
    } else if let Some(template) = TemplateExpr::cast(node.clone()) {
        describe_template(
            acc,
            "template",
            template.chunk_texts(),
            template.literal_value(),
        );
    } else if let Some(heredoc) = HeredocExpr::cast(node.clone()) {
        describe_template(
            acc,
            "heredoc",
            heredoc.chunk_texts(),
            heredoc.literal_value(),
        );
    } else if let Some(key) = ObjectKey::cast(node.clone()) {
        let _ = writeln!(acc, "key {:?}", key.literal_name());
    }
}

fn describe_template(
    acc: &mut String,
    what: &str,
    chunks: Vec<(crate::SyntaxToken, String)>,
    literal: Option<String>,
) {
    let chunks: Vec<String> = chunks.into_iter().map(|(_, text)| text).collect();
    let _ = writeln!(acc, "{what} {chunks:?} literal {literal:?}");
}

#[test]
fn numbers_are_exact() {
    check(
        r#"a = [0, 42, 1.5, 1e3, 1.0, 2.50E-3, 12e+2, 0.1, 007]
b = 115792089237316195423570985008687907853269984665640564039457584007913129639936
c = 3.141592653589793238462643383279502884197169399375105820974944592307816406286
d = 1e99999
"#,
        expect![[r#"
            number 0 = 0 (integer)
            number 42 = 42 (integer)
            number 1.5 = 1.5 (decimal)
            number 1e3 = 1000 (integer)
            number 1.0 = 1 (integer)
            number 2.50E-3 = 0.0025 (decimal)
            number 12e+2 = 1200 (integer)
            number 0.1 = 0.1 (decimal)
            number 007 = 7 (integer)
            number 115792089237316195423570985008687907853269984665640564039457584007913129639936 = 115792089237316195423570985008687907853269984665640564039457584007913129639936 (integer)
            number 3.141592653589793238462643383279502884197169399375105820974944592307816406286 = 3141592653589793238462643383279502884197169399375105820974944592307816406286e-75 (decimal)
            number 1e99999 = 1e99999 (integer)
        "#]],
    );
}

/// Values whose parts fit machine integers round-trip through them; the others have no
/// small parts.
#[test]
fn numbers_in_small_parts() {
    for text in [
        "0",
        "7",
        "-9458",
        "2.5",
        "1e300",
        "9223372036854775807",
        "1.5e-7",
    ] {
        let value = NumberValue::parse_signed(text).expect("a number");
        let (mantissa, exponent) = value.small_parts().expect("small parts");
        assert_eq!(
            NumberValue::from_small_parts(mantissa, exponent),
            value,
            "{text}"
        );
    }
    for text in ["9223372036854775808", "1e99999999999"] {
        let value = NumberValue::parse_signed(text).expect("a number");
        assert_eq!(value.small_parts(), None, "{text}");
    }
}

#[test]
fn number_edge_cases() {
    assert_eq!(
        NumberValue::parse("1e99999999999999999999"),
        Err("the exponent of `1e99999999999999999999` is too large or malformed".to_owned())
    );
    let big = NumberValue::parse("1e99999").map(|value| value.to_integer());
    assert_eq!(
        big,
        Ok(None),
        "astronomically large integers are kept symbolic"
    );
    let negated = NumberValue::parse("2147483648").map(|value| value.negate().to_string());
    assert_eq!(negated.as_deref(), Ok("-2147483648"));
    // Trailing and leading zeros are dropped on the text, so a long run of them is cheap.
    let zeros = format!("000{}{}", "7", "0".repeat(200_000));
    let value = NumberValue::parse(&zeros).expect("a literal with many zeros");
    assert_eq!(
        (value.mantissa().to_string(), value.exponent()),
        ("7".to_owned(), 200_000)
    );
    let too_long = "12".repeat(6_000);
    assert_eq!(
        NumberValue::parse(&too_long),
        Err("number literal has 12000 significant digits; at most 10000 are supported".to_owned())
    );
}

#[test]
fn quoted_templates_are_unescaped() {
    check(
        r#"a = "tab\there \"q\" back\\slash \u00e9 \U0001F600 $${not} %%{not} $ % done"
b = "x ${y} z"
c = ""
"#,
        expect![[r#"
            template ["tab\there \"q\" back\\slash é 😀 ${not} %{not} $ % done"] literal Some("tab\there \"q\" back\\slash é 😀 ${not} %{not} $ % done")
            template ["x ", " z"] literal None
            template [] literal Some("")
        "#]],
    );
}

#[test]
fn heredocs_are_decoded_and_dedented() {
    check(
        "a = <<EOT\n  keep\n    indent $${x}\nEOT\nb = <<-EOT\n    four\n      six\n\n    ${x} four\n    EOT\nc = <<-EOT\n\tTab\n\tTab\n\tEOT\n",
        expect![[r#"
            heredoc ["  keep\n", "    indent ${x}\n"] literal Some("  keep\n    indent ${x}\n")
            heredoc ["four\n", "  six\n", "\n", "", " four\n"] literal None
            heredoc ["Tab\n", "Tab\n"] literal Some("Tab\nTab\n")
        "#]],
    );
}

#[test]
fn labels_and_object_keys() {
    check(
        r#"resource "my-name" type { }
o = { a = 1, "b c" = 2, 3 = 3, (d) = 4, true = 5, "${e}" = 6 }
"#,
        expect![[r#"
            block Some("resource") labels [Some("my-name"), Some("type")]
            template ["my-name"] literal Some("my-name")
            key Some("a")
            number 1 = 1 (integer)
            key Some("b c")
            template ["b c"] literal Some("b c")
            number 2 = 2 (integer)
            key Some("3")
            number 3 = 3 (integer)
            number 3 = 3 (integer)
            key None
            number 4 = 4 (integer)
            key Some("true")
            literal true
            number 5 = 5 (integer)
            key None
            template [] literal None
            number 6 = 6 (integer)
        "#]],
    );
}

#[test]
fn expression_accessors() {
    let parse =
        parse("a = f(x, ys...)\nb = c ? d : e\nc = [for k, v in m : v if k]\nd = x[*].y[0]\n");
    let values: Vec<Expr> = parse
        .tree()
        .body()
        .into_iter()
        .flat_map(|body| body.attributes())
        .filter_map(|attr| attr.value())
        .collect();
    let [
        Expr::Call(call),
        Expr::Conditional(cond),
        Expr::ForTuple(for_expr),
        Expr::Splat(splat),
    ] = &values[..]
    else {
        panic!("unexpected expressions: {values:?}");
    };
    assert_eq!(call.name(), "f");
    let args = call.arg_list().expect("arguments");
    assert_eq!(args.args().count(), 2);
    assert!(args.has_expansion());
    assert!(cond.else_branch().is_some());
    let intro = for_expr.intro().expect("intro");
    assert_eq!(
        intro.key_var().map(|t| t.text().to_owned()).as_deref(),
        Some("k")
    );
    assert_eq!(
        intro.value_var().map(|t| t.text().to_owned()).as_deref(),
        Some("v")
    );
    assert!(for_expr.cond().is_some());
    assert!(splat.is_full());
    assert_eq!(splat.steps().count(), 2);
}
