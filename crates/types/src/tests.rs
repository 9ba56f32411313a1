//! Table-driven tests of the type rules (`../shared/docs/pcl-semantics.md` (outside the repo) §2 and the seed spec),
//! recursive schema objects through a test database, and seeded property tests.

use pcl_diagnostics::Severity;
use pcl_test_utils::generate::Rng;
use smol_str::SmolStr;

use crate::conversion::conversion_in_mode;
use crate::{
    Conversion, Db, Name, NamedObject, TraverseKey, Ty, assignable, conversion, display,
    parse_type_with, pretty, traverse, unify, unify_types,
};

/// Schema-like object types for the tests: name → properties as type strings, in which
/// these names refer to the objects themselves.
const OBJECTS: &[(&str, &[(&str, &str)])] = &[
    ("Obj", &[("a", "optional(Obj)")]),
    ("Pair", &[("left", "optional(Pair)"), ("right", "string")]),
    ("Tree", &[("children", "list(Tree)"), ("value", "int")]),
    ("Wide", &[("Name", "string"), ("size", "int")]),
];

#[salsa::db]
#[derive(Clone, Default)]
struct TestDb {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for TestDb {}

#[salsa::db]
impl pcl_base_db::Db for TestDb {}

#[salsa::db]
impl Db for TestDb {
    fn named_object_properties<'db>(&'db self, object: NamedObject<'db>) -> &'db [(Name, Ty<'db>)] {
        test_object_properties(self, object)
    }
}

#[salsa::tracked(returns(ref))]
fn test_object_properties<'db>(
    db: &'db dyn Db,
    object: NamedObject<'db>,
) -> Box<[(Name, Ty<'db>)]> {
    let Some((_, properties)) = OBJECTS.iter().find(|(name, _)| *name == object.token(db)) else {
        return Box::new([]);
    };
    let flavour = |ty: Ty<'db>| {
        if object.input(db) {
            crate::input_type(db, ty)
        } else {
            ty
        }
    };
    let mut properties: Vec<(Name, Ty<'db>)> = properties
        .iter()
        .map(|(name, ty)| (Name::from(*name), flavour(ty_of(db, ty))))
        .collect();
    properties.sort_by(|a, b| a.0.cmp(&b.0));
    properties.into_boxed_slice()
}

fn ty_of<'db>(db: &'db dyn Db, text: &str) -> Ty<'db> {
    let resolve = |name: &str| {
        OBJECTS.iter().any(|(object, _)| *object == name).then(|| {
            Ty::named(
                db,
                NamedObject::new(db, SmolStr::new("test"), SmolStr::new(name), false),
            )
        })
    };
    match parse_type_with(db, text, &resolve) {
        Ok(ty) => ty,
        Err(error) => panic!("bad test type {text:?}: {error}"),
    }
}

fn show(db: &dyn Db, text: &str) -> String {
    display(db, ty_of(db, text)).clone()
}

fn kind(text: &str) -> Conversion {
    match text {
        "safe" => Conversion::Safe,
        "unsafe" => Conversion::Unsafe,
        "none" => Conversion::None,
        other => panic!("bad kind {other}"),
    }
}

#[test]
fn display_normalises() {
    let db = TestDb::default();
    let cases = [
        ("string", "string"),
        ("  list( map(int) )", "list(map(int))"),
        ("optional(string)", "union(none, string)"),
        ("optional(list(int))", "union(list(int), none)"),
        ("optional(optional(int))", "union(int, none)"),
        ("union(string, union(int, string))", "union(int, string)"),
        ("union(int)", "int"),
        ("union()", "union()"),
        ("tuple()", "tuple()"),
        ("tuple(int, string)", "tuple(int, string)"),
        (
            "object({b = string, a = int})",
            "object({a = int, b = string})",
        ),
        ("object({\"x y\" = int})", "object({\"x y\" = int})"),
        ("object({a: int, a = string})", "object({a = string})"),
        ("object({})", "object({})"),
        ("output(output(int))", "output(int)"),
        ("output(promise(int))", "output(int)"),
        ("output(list(output(string)))", "output(list(string))"),
        (
            "output(union(output(int), promise(string)))",
            "output(union(int, string))",
        ),
        ("promise(promise(int))", "promise(int)"),
        ("promise(output(int))", "promise(output(int))"),
        ("promise(list(promise(int)))", "promise(list(int))"),
        ("Archive", "Archive"),
        ("type(aws:index:ARN)", "type(aws:index:ARN)"),
        ("type(Asset)", "Asset"),
        ("cty.StringVal(\"a\\\"b\")", "cty.StringVal(\"a\\\"b\")"),
        ("cty.NumberIntVal(-42)", "cty.NumberIntVal(-42)"),
        // cty prints whole numbers with big.Float's shortest %v: exponent form from 10^6.
        ("cty.NumberIntVal(999999)", "cty.NumberIntVal(999999)"),
        ("cty.NumberIntVal(1000000)", "cty.NumberIntVal(1e+06)"),
        (
            "cty.NumberIntVal(1234567)",
            "cty.NumberIntVal(1.234567e+06)",
        ),
        (
            "cty.NumberIntVal(-1234567)",
            "cty.NumberIntVal(-1.234567e+06)",
        ),
        (
            "cty.NumberIntVal(9223372036854775807)",
            "cty.NumberIntVal(9.223372036854775807e+18)",
        ),
        (
            "cty.NumberUIntVal(18446744073709551615)",
            "cty.NumberIntVal(1.8446744073709551615e+19)",
        ),
        ("cty.NumberFloatVal(1e15)", "cty.NumberIntVal(1e+15)"),
        (
            "cty.MustParseNumberVal(\"1e30\")",
            "cty.NumberIntVal(1e+30)",
        ),
        (
            "cty.NumberIntVal(115792089237316195423570985008687907853269984665640564039457584007913129639937)",
            "cty.NumberIntVal(1.15792089237316195423570985008687907853269984665640564039457584007913129639937e+77)",
        ),
        ("cty.NumberFloatVal(1.5)", "cty.NumberFloatVal(1.5)"),
        (
            "cty.NumberFloatVal(999999.5)",
            "cty.NumberFloatVal(999999.5)",
        ),
        (
            "cty.NumberFloatVal(1234567.5)",
            "cty.NumberFloatVal(1.2345675e+06)",
        ),
        ("cty.NumberFloatVal(0.0001)", "cty.NumberFloatVal(0.0001)"),
        ("cty.NumberFloatVal(1e-7)", "cty.NumberFloatVal(1e-07)"),
        (
            "cty.MustParseNumberVal(\"0.125e-10\")",
            "cty.MustParseNumberVal(\"0.0000000000125\")",
        ),
        (
            "cty.MustParseNumberVal(\"0.5e-10\")",
            "cty.MustParseNumberVal(\"0.00000000005\")",
        ),
        (
            "cty.NumberFloatVal(0.0009765625)",
            "cty.NumberFloatVal(0.0009765625)",
        ),
        (
            "cty.StringVal(\"nbsp\u{a0}zwsp\u{200b}\")",
            "cty.StringVal(\"nbsp\\u00a0zwsp\\u200b\")",
        ),
        (
            "cty.MustParseNumberVal(\"0.1\")",
            "cty.MustParseNumberVal(\"0.1\")",
        ),
        ("cty.True", "cty.True"),
        (
            "cty.NullVal(cty.DynamicPseudoType)",
            "cty.NullVal(cty.DynamicPseudoType)",
        ),
        (
            "enum(pkg:index:Color(string): cty.StringVal(\"red\"), cty.StringVal(\"blue\"))",
            "enum(pkg:index:Color(string): cty.StringVal(\"red\"),cty.StringVal(\"blue\"))",
        ),
        ("Obj", "object(Obj)"),
        ("union(int, Obj)", "union(int, object(Obj))"),
    ];
    for (input, expected) in cases {
        assert_eq!(show(&db, input), expected, "display of {input}");
        // Normalisation is idempotent.
        assert_eq!(
            show(&db, expected),
            expected,
            "display of display of {input}"
        );
    }
}

#[test]
fn pretty_forms() {
    let db = TestDb::default();
    let cases = [
        ("union(int, string, none)", "int | string?"),
        ("tuple(int, bool)", "(int, bool)"),
        (
            "object({a = int, b = optional(string)})",
            "{ a: int, b: string? }",
        ),
        ("object({})", "{}"),
        ("cty.StringVal(\"x\")", "\"x\""),
        ("list(cty.NumberIntVal(3))", "list(3)"),
        (
            "enum(t(string): cty.StringVal(\"a\"),cty.StringVal(\"b\"))",
            "enum(\"a\" | \"b\")",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(
            pretty(&db, ty_of(&db, input)),
            expected,
            "pretty of {input}"
        );
    }
}

/// Recorded from Pulumi's Go model: see the header of the fixture.
#[test]
fn pretty_forms_agree_with_go() {
    let path = pcl_test_utils::test_data_dir().join("types/go-pretty.tsv");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let db = TestDb::default();
    let mut cases = 0;
    for line in text.lines().filter(|line| !line.starts_with('#')) {
        let (input, expected) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("a row has a type and its form: {line:?}"));
        assert_eq!(
            pretty(&db, ty_of(&db, input)),
            expected,
            "pretty of {input}"
        );
        cases += 1;
    }
    assert!(cases >= 100, "only {cases} cases");
}

#[test]
fn parse_errors_name_the_column() {
    let db = TestDb::default();
    let cases = [
        (
            "list(",
            "column 6: expected a type, found the end of the type",
        ),
        (
            "list(int",
            "column 9: expected `)`, found the end of the type",
        ),
        ("map(int))", "column 9: expected the end of the type"),
        (
            "strin",
            "column 1: unknown type `strin`; did you mean `string`?",
        ),
        (
            "list(integr)",
            "column 6: unknown type `integr`; did you mean `int`?",
        ),
        ("object({a int})", "column 11: expected `=`, found `i`"),
        ("tuple(int string)", "column 11: expected `,`, found `s`"),
        (
            "cty.Bogus",
            "column 1: unknown constant `cty.Bogus`; expected cty.True, cty.False, cty.StringVal, cty.NumberIntVal, cty.NumberFloatVal or cty.NullVal",
        ),
        ("cty.StringVal(\"x)", "column 15: unterminated string"),
        ("type(", "column 6: expected `)` to close `type(`"),
        ("", "column 1: expected a type, found the end of the type"),
        ("@", "column 1: expected a type, found `@`"),
    ];
    for (input, expected) in cases {
        let error = crate::parse_type(&db, input).expect_err(input);
        assert_eq!(error.to_string(), expected, "error for {input:?}");
    }
    let deep = format!("{}int{}", "list(".repeat(10_000), ")".repeat(10_000));
    let error = crate::parse_type(&db, &deep).expect_err("deep");
    assert!(error.message.contains("nested too deeply"), "{error}");
}

/// The primitive table of §2.5: row = destination, column = source.
#[test]
fn primitive_conversions() {
    let db = TestDb::default();
    let names = ["bool", "int", "number", "string", "id"];
    let table = [
        ["safe", "unsafe", "unsafe", "unsafe", "unsafe"],
        ["unsafe", "safe", "unsafe", "unsafe", "unsafe"],
        ["unsafe", "safe", "safe", "unsafe", "unsafe"],
        ["safe", "safe", "safe", "safe", "safe"],
        ["safe", "safe", "safe", "safe", "safe"],
    ];
    for (dest, row) in names.iter().zip(table) {
        for (src, expected) in names.iter().zip(row) {
            let actual = conversion(&db, ty_of(&db, dest), ty_of(&db, src));
            assert_eq!(actual, kind(expected), "{dest} from {src}");
        }
    }
}

/// `(destination, source, conversion, assignable)` rows from §2.4, §2.5 and the seed.
#[test]
fn conversion_and_assignability() {
    let db = TestDb::default();
    let rows = [
        // Prefix rules.
        ("dynamic", "list(int)", "safe", true),
        ("int", "dynamic", "unsafe", false),
        ("union(int, dynamic)", "dynamic", "unsafe", true),
        ("string", "union(int, bool)", "safe", false),
        ("int", "union(int, list(int))", "unsafe", false),
        ("int", "union(list(int), map(int))", "none", false),
        ("int", "union()", "none", false),
        ("number", "cty.NumberIntVal(3)", "safe", false),
        ("int", "cty.NumberIntVal(3)", "safe", true),
        ("none", "cty.NullVal(cty.DynamicPseudoType)", "safe", true),
        ("none", "optional(int)", "unsafe", false),
        ("int", "none", "none", false),
        ("Archive", "Archive", "safe", true),
        ("Archive", "Asset", "none", false),
        ("Archive", "string", "none", false),
        // Constants and enums as destinations.
        ("cty.StringVal(\"a\")", "string", "unsafe", false),
        ("cty.StringVal(\"a\")", "list(int)", "none", false),
        (
            "enum(t(string): cty.StringVal(\"a\"))",
            "cty.StringVal(\"a\")",
            "unsafe",
            false,
        ),
        (
            "enum(t(string): cty.StringVal(\"a\"))",
            "string",
            "unsafe",
            false,
        ),
        (
            "enum(t(string): cty.StringVal(\"1\"))",
            "cty.NumberIntVal(1)",
            "unsafe",
            false,
        ),
        (
            "enum(t(number): cty.NumberIntVal(1))",
            "list(int)",
            "none",
            false,
        ),
        // Collections.
        ("list(number)", "list(int)", "safe", false),
        ("list(int)", "set(int)", "safe", false),
        ("list(int)", "tuple(int, number)", "unsafe", false),
        ("list(int)", "tuple()", "safe", true),
        ("list(number)", "tuple(number, number)", "safe", true),
        ("set(int)", "set(int)", "safe", true),
        ("set(int)", "list(int)", "unsafe", false),
        ("set(string)", "tuple(int, bool)", "unsafe", false),
        ("set(int)", "tuple(list(int))", "none", false),
        ("map(string)", "map(int)", "safe", false),
        ("map(string)", "object({a = int, b = bool})", "safe", false),
        ("map(int)", "object({a = int})", "safe", true),
        ("map(int)", "object({a = list(int)})", "none", false),
        ("tuple(int, string)", "tuple(int, string)", "safe", true),
        ("tuple(number, string)", "tuple(int, string)", "safe", false),
        ("tuple(int)", "tuple(int, string)", "none", true),
        ("tuple(int, none)", "tuple(int)", "none", true),
        ("tuple(int, string)", "list(int)", "unsafe", false),
        ("tuple(int)", "list(list(int))", "none", false),
        // Objects: missing keys read as none, extra source keys are ignored.
        (
            "object({a = int})",
            "object({a = int, b = string})",
            "safe",
            true,
        ),
        (
            "object({a = int, b = optional(string)})",
            "object({a = int})",
            "safe",
            true,
        ),
        (
            "object({a = int, b = string})",
            "object({a = int})",
            "none",
            false,
        ),
        (
            "object({a = number})",
            "object({a = string})",
            "unsafe",
            false,
        ),
        ("object({a = int})", "map(int)", "unsafe", false),
        ("object({a = int})", "map(list(int))", "none", false),
        // Unions as destinations.
        ("union(int, string)", "int", "safe", true),
        ("union(int, list(int))", "string", "unsafe", false),
        ("union(int, list(int))", "map(int)", "none", false),
        (
            "union(bool, int, number, string)",
            "union(bool, optional(number))",
            "unsafe",
            false,
        ),
        // A constant source: its underlying type for most rules, the constant itself for
        // union, output and promise destinations.
        (
            "union(cty.StringVal(\"a\"), int)",
            "cty.StringVal(\"a\")",
            "safe",
            true,
        ),
        (
            "union(cty.StringVal(\"a\"), cty.StringVal(\"b\"))",
            "cty.StringVal(\"a\")",
            "safe",
            true,
        ),
        (
            "union(cty.StringVal(\"a\"), cty.StringVal(\"b\"))",
            "cty.StringVal(\"c\")",
            "unsafe",
            false,
        ),
        (
            "output(cty.StringVal(\"a\"))",
            "cty.StringVal(\"a\")",
            "safe",
            true,
        ),
        (
            "promise(cty.StringVal(\"a\"))",
            "cty.StringVal(\"a\")",
            "safe",
            true,
        ),
        (
            "output(enum(t(number): cty.NumberIntVal(1)))",
            "cty.NumberIntVal(1)",
            "safe",
            false,
        ),
        (
            "union(enum(t(number): cty.NumberIntVal(1)), none)",
            "cty.NumberIntVal(1)",
            "safe",
            false,
        ),
        (
            "object({a = union(cty.StringVal(\"x\"), none)})",
            "object({a = cty.StringVal(\"x\")})",
            "safe",
            true,
        ),
        ("list(int)", "cty.NumberIntVal(1)", "none", false),
        ("string", "cty.NumberIntVal(1)", "safe", false),
        // Eventuals.
        ("output(int)", "int", "safe", true),
        ("output(int)", "output(int)", "safe", true),
        ("output(number)", "output(int)", "safe", false),
        ("output(number)", "promise(string)", "unsafe", false),
        (
            "output(list(int))",
            "promise(list(output(int)))",
            "safe",
            true,
        ),
        ("promise(int)", "int", "safe", true),
        ("promise(int)", "output(int)", "none", false),
        ("promise(int)", "promise(int)", "safe", true),
        ("int", "output(int)", "none", false),
        ("dynamic", "output(int)", "safe", true),
        ("output(dynamic)", "dynamic", "unsafe", true),
        ("promise(dynamic)", "dynamic", "unsafe", true),
        ("string", "dynamic", "unsafe", false),
    ];
    for (dest, src, expected, expected_assignable) in rows {
        let (d, s) = (ty_of(&db, dest), ty_of(&db, src));
        assert_eq!(conversion(&db, d, s), kind(expected), "{dest} from {src}");
        assert_eq!(
            assignable(&db, d, s),
            expected_assignable,
            "{dest} assignable from {src}"
        );
    }
}

/// Recursive schema object types terminate, with the coinductive assumption.
#[test]
fn recursive_objects() {
    let db = TestDb::default();
    let rows = [
        (
            "Obj",
            "object({a = object({a = object({})})})",
            "safe",
            true,
        ),
        ("Obj", "object({a = string})", "none", false),
        ("Obj", "Obj", "safe", true),
        ("Obj", "Pair", "safe", true),
        ("Pair", "Obj", "none", false),
        (
            "Tree",
            "object({children = tuple(), value = int})",
            "safe",
            true,
        ),
        (
            "Tree",
            "object({children = list(object({children = list(Tree), value = number})), value = int})",
            "unsafe",
            false,
        ),
        ("map(int)", "Wide", "unsafe", false),
        ("object({Name = string})", "Wide", "safe", true),
    ];
    for (dest, src, expected, expected_assignable) in rows {
        let (d, s) = (ty_of(&db, dest), ty_of(&db, src));
        assert_eq!(conversion(&db, d, s), kind(expected), "{dest} from {src}");
        assert_eq!(
            assignable(&db, d, s),
            expected_assignable,
            "{dest} assignable from {src}"
        );
    }
    // Unifying two distinct recursive objects terminates at their union.
    let (obj, pair) = (ty_of(&db, "Obj"), ty_of(&db, "Pair"));
    let (unified, _) = unify(&db, obj, pair);
    assert_eq!(display(&db, unified), "object(Obj)");
    let (unified, _) = unify(&db, ty_of(&db, "Tree"), ty_of(&db, "Wide"));
    assert_eq!(display(&db, unified), "union(object(Tree), object(Wide))");
}

/// `UnifyTypes` results tested by the reference (§2.6), in both orders.
#[test]
fn unify_types_table() {
    let db = TestDb::default();
    let rows: [(&[&str], &str, &str); 17] = [
        (&["string", "number"], "string", "string"),
        (&["string", "int"], "string", "string"),
        (&["string", "bool"], "string", "string"),
        (&["string", "id"], "string", "string"),
        (&["int", "number"], "number", "number"),
        (&["bool", "number"], "union(bool, number)", "number"),
        (&["bool", "int"], "union(bool, int)", "int"),
        (&["bool", "dynamic"], "union(bool, dynamic)", "bool"),
        (
            &["list(string)", "set(bool)"],
            "list(string)",
            "list(string)",
        ),
        (
            &["object({foo = string})", "map(bool)"],
            "map(string)",
            "map(string)",
        ),
        (
            &["tuple(number, bool)", "set(string)"],
            "union(set(string), tuple(number, bool))",
            "set(string)",
        ),
        (
            &["object({foo = string})", "object({bar = string})"],
            "object({bar = union(none, string), foo = union(none, string)})",
            "object({bar = union(none, string), foo = union(none, string)})",
        ),
        (
            &["tuple(number, bool)", "tuple(string, number)"],
            "union(tuple(number, bool), tuple(string, number))",
            "tuple(string, number)",
        ),
        (
            &["tuple(number, bool, string)", "tuple(number, bool)"],
            "tuple(number, bool, union(none, string))",
            "tuple(number, bool, union(none, string))",
        ),
        (&["bool", "id"], "id", "id"),
        (
            &["cty.NumberIntVal(0)", "cty.NumberIntVal(1)"],
            "union(cty.NumberIntVal(0), cty.NumberIntVal(1))",
            "cty.NumberIntVal(0)",
        ),
        (&[], "none", "none"),
    ];
    for (inputs, safe, unsafe_) in rows {
        for order in [false, true] {
            let mut types: Vec<Ty<'_>> = inputs.iter().map(|t| ty_of(&db, t)).collect();
            if order {
                types.reverse();
            }
            if order && inputs.first() == Some(&"cty.NumberIntVal(0)") {
                continue; // the unsafe result keeps the first constant
            }
            let (s, u) = unify_types(&db, types);
            assert_eq!(
                display(&db, s),
                safe,
                "safe unify of {inputs:?} (reversed: {order})"
            );
            assert_eq!(
                display(&db, u),
                unsafe_,
                "unsafe unify of {inputs:?} (reversed: {order})"
            );
        }
    }
}

/// Pairwise `unify` results: type and kind.
#[test]
fn unify_pairs() {
    let db = TestDb::default();
    let rows = [
        ("output(int)", "output(number)", "output(number)", "safe"),
        (
            "output(string)",
            "promise(string)",
            "output(string)",
            "safe",
        ),
        (
            "output(list(int))",
            "promise(string)",
            "union(output(list(int)), promise(string))",
            "safe",
        ),
        ("output(int)", "int", "output(int)", "safe"),
        ("list(int)", "tuple(int, number)", "list(number)", "safe"),
        ("set(int)", "tuple(int, int)", "set(int)", "unsafe"),
        ("map(int)", "object({a = number})", "map(number)", "safe"),
        (
            "union(int, string)",
            "union(bool, none)",
            "union(bool, int, none, string)",
            "safe",
        ),
        ("none", "optional(int)", "union(int, none)", "safe"),
        ("dynamic", "int", "int", "unsafe"),
        ("int", "list(int)", "union(int, list(int))", "safe"),
        ("Archive", "Asset", "union(Archive, Asset)", "safe"),
        (
            "output(cty.StringVal(\"a\"))",
            "cty.StringVal(\"a\")",
            "output(cty.StringVal(\"a\"))",
            "safe",
        ),
        (
            "union(enum(t(number): cty.NumberIntVal(1)), none)",
            "cty.NumberIntVal(1)",
            "union(enum(t(number): cty.NumberIntVal(1)), none)",
            "safe",
        ),
    ];
    for (a, b, expected, expected_kind) in rows {
        let (t, k) = unify(&db, ty_of(&db, a), ty_of(&db, b));
        assert_eq!(display(&db, t), expected, "unify({a}, {b})");
        assert_eq!(k, kind(expected_kind), "unify kind of ({a}, {b})");
    }
}

fn key<'db>(db: &'db dyn Db, text: &str) -> TraverseKey<'db> {
    if let Some(name) = text.strip_prefix('.') {
        // `.0` is HCL's legacy index syntax: a number key, as `[0]`.
        if let Ok(number) = crate::parse::parse_number(name) {
            return TraverseKey::Literal(crate::ConstValue::Number(number));
        }
        return TraverseKey::Attr(name.into());
    }
    let inner = &text[1..text.len() - 1];
    if let Some(ty) = inner.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
        return TraverseKey::Unknown(ty_of(db, ty));
    }
    if let Some(s) = inner.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        return TraverseKey::Literal(crate::ConstValue::String(s.into()));
    }
    let number = crate::parse::parse_number(inner).expect("number key");
    TraverseKey::Literal(crate::ConstValue::Number(number))
}

/// Traversal rows of §2.7: receiver, key, result, and the diagnostics as
/// `E:`/`W:` messages joined by `; `.
#[test]
fn traversal() {
    let db = TestDb::default();
    let rows = [
        ("dynamic", ".a", "dynamic", ""),
        (
            "string",
            ".a",
            "dynamic",
            "E:cannot traverse value of type string",
        ),
        (
            "Archive",
            "[0]",
            "dynamic",
            "E:cannot traverse value of type Archive",
        ),
        ("none", ".a", "none", "W:cannot traverse value of type none"),
        ("list(int)", "[0]", "int", ""),
        ("list(int)", ".foo", "int", ""),
        (
            "list(int)",
            "[<list(int)>]",
            "int",
            "E:list indices must be numbers",
        ),
        ("map(int)", "[\"k\"]", "int", ""),
        ("map(int)", "[3]", "int", ""),
        (
            "map(int)",
            "[<list(int)>]",
            "int",
            "E:map keys must be strings",
        ),
        (
            "set(int)",
            "[0]",
            "dynamic",
            "E:cannot traverse value of type set(int)",
        ),
        ("tuple(int, string)", "[1]", "string", ""),
        (
            "tuple(int, string)",
            "[2]",
            "dynamic",
            "E:tuple index must be between 0 and 2",
        ),
        (
            "tuple(int, string)",
            "[-1]",
            "dynamic",
            "E:tuple index must be between 0 and 2",
        ),
        (
            "tuple(int, string)",
            "[1.5]",
            "dynamic",
            "E:tuple indices must be integers",
        ),
        (
            "tuple(int, string)",
            ".a",
            "dynamic",
            "E:tuple indices must be integers",
        ),
        (
            "tuple(int, string)",
            "[\"0\"]",
            "dynamic",
            "E:tuple indices must be integers",
        ),
        ("tuple(int, string)", "[<number>]", "union(int, string)", ""),
        (
            "tuple(int, string)",
            "[<int>]",
            "dynamic",
            "E:tuple indices must be integers",
        ),
        ("object({a = int, b = string})", ".a", "int", ""),
        ("object({a = int, b = string})", "[\"b\"]", "string", ""),
        (
            "object({Name = int})",
            ".name",
            "int",
            "W:Found matching case-insensitive property (Matched name with Name)",
        ),
        (
            "object({b = int, a = string})",
            ".c",
            "dynamic",
            "E:unknown property 'c' among [a b]",
        ),
        (
            "object({a = int, b = string})",
            "[<string>]",
            "union(int, string)",
            "",
        ),
        (
            "object({a = int})",
            "[<list(int)>]",
            "dynamic",
            "E:object properties must be strings",
        ),
        ("object({})", "[<string>]", "union()", ""),
        ("object({1 = int})", "[1]", "int", ""),
        ("optional(object({a = int}))", ".a", "union(int, none)", ""),
        (
            "union(object({a = int}), object({b = string}))",
            ".a",
            "int",
            "",
        ),
        (
            "union(object({a = int}), object({a = string}))",
            ".a",
            "union(int, string)",
            "",
        ),
        (
            "union(string, none)",
            ".a",
            "dynamic",
            "E:cannot traverse value of type string; E:cannot traverse value of type union(none, string)",
        ),
        ("output(object({a = int}))", ".a", "output(int)", ""),
        ("promise(list(string))", "[0]", "promise(string)", ""),
        (
            "output(object({a = int}))",
            ".b",
            "output(dynamic)",
            "E:unknown property 'b' among [a]",
        ),
        (
            "cty.StringVal(\"x\")",
            ".a",
            "dynamic",
            "E:cannot traverse value of type string",
        ),
        (
            "enum(t(string): cty.StringVal(\"a\"))",
            ".a",
            "enum(t(string): cty.StringVal(\"a\"))",
            "",
        ),
        ("Tree", ".children", "list(object(Tree))", ""),
        ("Tree", ".value", "int", ""),
    ];
    for (receiver, key_text, expected, diagnostics) in rows {
        let result = traverse(&db, ty_of(&db, receiver), key(&db, key_text));
        let actual: Vec<String> = result
            .problems
            .iter()
            .map(|d| {
                let tag = if d.severity(&db) == Severity::Error {
                    "E"
                } else {
                    "W"
                };
                format!("{tag}:{}", d.message(&db))
            })
            .collect();
        assert_eq!(display(&db, result.ty), expected, "{receiver} {key_text}");
        assert_eq!(
            actual.join("; "),
            diagnostics,
            "diagnostics of {receiver} {key_text}"
        );
    }
}

/// A random type of bounded depth, built from the kinds the reference has.
fn random_type<'db>(db: &'db dyn Db, rng: &mut Rng, depth: usize) -> Ty<'db> {
    let leaves = [
        "bool", "int", "number", "string", "id", "none", "dynamic", "Archive", "Obj",
    ];
    if depth == 0 || rng.below(3) == 0 {
        return ty_of(db, leaves[rng.below(leaves.len())]);
    }
    let children = |rng: &mut Rng, n: usize| -> Vec<Ty<'db>> {
        (0..n).map(|_| random_type(db, rng, depth - 1)).collect()
    };
    match rng.below(9) {
        0 => Ty::list(db, children(rng, 1)[0]),
        1 => Ty::map(db, children(rng, 1)[0]),
        2 => Ty::set(db, children(rng, 1)[0]),
        3 => Ty::output(db, children(rng, 1)[0]),
        4 => Ty::promise(db, children(rng, 1)[0]),
        5 => {
            let n = rng.below(3);
            Ty::tuple(db, children(rng, n))
        }
        6 => {
            let n = 1 + rng.below(3);
            Ty::union(db, children(rng, n))
        }
        7 => {
            let names = ["a", "b", "c"];
            let n = rng.below(3);
            let values = children(rng, n);
            Ty::object(
                db,
                names.iter().zip(values).map(|(k, v)| (Name::from(*k), v)),
            )
        }
        _ => Ty::optional(db, children(rng, 1)[0]),
    }
}

/// Properties over seeded random types: conversion from a type to itself is safe,
/// display round-trips through the parser, and unification is symmetric wherever the
/// reference's driver decides by conversion kinds.
#[test]
fn properties_of_random_types() {
    let db = TestDb::default();
    let mut rng = Rng::new(0x5eed);
    for _ in 0..2_000 {
        let a = random_type(&db, &mut rng, 4);
        let b = random_type(&db, &mut rng, 4);
        assert_eq!(
            conversion(&db, a, a),
            Conversion::Safe,
            "{} from itself",
            display(&db, a)
        );
        assert!(
            assignable(&db, a, a),
            "{} assignable from itself",
            display(&db, a)
        );
        let shown = display(&db, a).clone();
        assert_eq!(ty_of(&db, &shown), a, "parse(display({shown}))");

        let (ab, kind_ab) = unify(&db, a, b);
        let (ba, kind_ba) = unify(&db, b, a);
        let pair = format!("({}, {})", display(&db, a), display(&db, b));
        assert_eq!(kind_ab, kind_ba, "unify kinds of {pair}");
        // When the conversion kinds decide (they differ, or neither exists), the result
        // does not depend on the order; ties go to the receiver's merge rule.
        let from = conversion_in_mode(&db, a, b, true);
        let to = conversion_in_mode(&db, b, a, true);
        if from != to || from == Conversion::None {
            assert_eq!(ab, ba, "unify{pair} is symmetric");
        }
    }
}

/// Seeded mutations of valid type strings never panic the parser; whatever parses
/// displays to a string that parses back to the same type.
#[test]
fn mutated_type_strings() {
    let db = TestDb::default();
    let seeds = [
        "object({a = list(map(int)), \"b c\" = optional(tuple(string, bool))})",
        "union(output(promise(number)), set(Archive), type(aws:index:ARN))",
        "enum(t(string): cty.StringVal(\"x\\u00e9\"),cty.StringVal(\"y\"))",
        "cty.MustParseNumberVal(\"1.5e300\")",
        "tuple(cty.NumberIntVal(-3), cty.NumberFloatVal(2.5), cty.True, cty.NullVal(cty.DynamicPseudoType))",
    ];
    let pieces = [
        "(", ")", "{", "}", ",", "=", ":", "\"", "\\", "list", "cty.", "e+", "-", " ", "union(",
        "Obj",
    ];
    let mut rng = Rng::new(0x7e57);
    for _ in 0..5_000 {
        let mut text: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(text.len() + 1);
            match rng.below(3) {
                0 if at < text.len() => {
                    text.remove(at);
                }
                1 => {
                    let piece = pieces[rng.below(pieces.len())];
                    for (i, ch) in piece.chars().enumerate() {
                        text.insert(at + i, ch);
                    }
                }
                _ if at < text.len() => {
                    text[at] = pieces[rng.below(pieces.len())]
                        .chars()
                        .next()
                        .unwrap_or('x')
                }
                _ => {}
            }
        }
        let text: String = text.into_iter().collect();
        let resolve = |name: &str| (name == "Obj").then(|| ty_of(&db, "Obj"));
        if let Ok(ty) = parse_type_with(&db, &text, &resolve) {
            let shown = display(&db, ty).clone();
            let again = parse_type_with(&db, &shown, &resolve);
            assert_eq!(
                again.as_ref().ok(),
                Some(&ty),
                "{text:?} displays as {shown:?}, which does not parse back"
            );
        }
    }
}

/// Asking a compound relation again is a memo hit: no query executes the second time.
#[test]
fn repeated_relations_are_memo_hits() {
    let log = pcl_base_db::ExecutionLog::default();
    let db = TestDb {
        storage: salsa::Storage::new(Some(log.callback())),
    };
    let dest = ty_of(&db, "object({a = list(number), b = optional(Tree)})");
    let src = ty_of(&db, "object({a = tuple(int, int), b = Tree, c = string})");
    let ask = || {
        (
            conversion(&db, dest, src),
            assignable(&db, dest, src),
            unify(&db, dest, src),
            traverse(&db, src, TraverseKey::Attr("b".into())).ty,
        )
    };
    let first = ask();
    assert!(!log.take().is_empty(), "the first questions run queries");
    assert_eq!(ask(), first);
    let again = log.take();
    assert!(again.is_empty(), "repeated questions re-ran {again:?}");
}

/// The relations and traversals recorded from Pulumi's Go model
/// (`tests/data/types/go-*.tsv`), each row answered here in the JSON form `pcl type`
/// prints. Every failing row is listed, not only the first.
#[test]
fn agrees_with_go_on_recorded_relations_and_traversals() {
    let db = TestDb::default();
    let mut failures = Vec::new();
    let relations = go_rows("go-relations.tsv");
    for row in &relations {
        let [to, from, expected] = row.as_slice() else {
            panic!("a relation row has three fields: {row:?}");
        };
        let (to_ty, from_ty) = (ty_of(&db, to), ty_of(&db, from));
        let (safe, unsafe_) = unify_types(&db, [to_ty, from_ty]);
        let actual = format!(
            "{{\"assignable\": {}, \"conversion\": {}, \"unify\": {{\"safe\": {}, \"unsafe\": {}}}}}",
            assignable(&db, to_ty, from_ty),
            json_string(conversion(&db, to_ty, from_ty).as_str()),
            json_string(display(&db, safe)),
            json_string(display(&db, unsafe_)),
        );
        if actual != *expected {
            failures.push(format!(
                "relate {to} {from}\n  expected {expected}\n  actual   {actual}"
            ));
        }
    }
    let traversals = go_rows("go-traversals.tsv");
    for row in &traversals {
        let [ty, keys @ .., expected] = row.as_slice() else {
            panic!("a traversal row has a type, keys and an answer: {row:?}");
        };
        let mut current = ty_of(&db, ty);
        let mut error = false;
        for key_text in keys {
            let step = traverse(&db, current, key(&db, key_text));
            error |= step.has_errors(&db);
            current = step.ty;
        }
        let actual = format!(
            "{{\"type\": {}, \"error\": {error}}}",
            json_string(display(&db, current))
        );
        if actual != *expected {
            failures.push(format!(
                "traverse {ty} {keys:?}\n  expected {expected}\n  actual   {actual}"
            ));
        }
    }
    assert!(
        relations.len() + traversals.len() > 800,
        "too few recorded rows"
    );
    assert!(
        failures.is_empty(),
        "{} of {} rows differ from Go:\n{}",
        failures.len(),
        relations.len() + traversals.len(),
        failures.join("\n")
    );
}

/// The rows of a recorded fixture: tab-separated fields, comments and blank lines skipped.
fn go_rows(name: &str) -> Vec<Vec<String>> {
    let path = pcl_test_utils::test_data_dir().join("types").join(name);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split('\t').map(str::to_owned).collect())
        .collect()
}

/// A JSON string literal, as serde_json writes one.
fn json_string(text: impl AsRef<str>) -> String {
    let text = text.as_ref();
    let mut out = String::from("\"");
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            ch if u32::from(ch) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(ch))),
            ch => out.push(ch),
        }
    }
    out.push('"');
    out
}
