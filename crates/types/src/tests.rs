//! Table-driven tests of the type rules (`../shared/docs/pcl-semantics.md` (outside the repo) §2 and the seed spec),
//! recursive schema objects through a test database, and seeded property tests.

use pcl_diagnostics::Severity;
use pcl_test_utils::generate::Rng;
use smol_str::SmolStr;

use crate::conversion::conversion_in_mode;
use crate::{
    Conversion, Db, Name, NamedObject, TraverseKey, Ty, assignable, conversion, display,
    parse_type_with, pretty, readable, traverse, unify, unify_types,
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
    property_names: crate::PropertyNames,
    type_cache: crate::TypeCache,
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

    fn property_names(&self) -> Option<&crate::PropertyNames> {
        Some(&self.property_names)
    }

    fn type_cache(&self) -> Option<&crate::TypeCache> {
        Some(&self.type_cache)
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

/// An object type interned by its borrowed properties is the one its owned kind interns
/// to: the key hashes and compares as the kind does.
#[test]
fn objects_interned_by_borrowed_names_are_the_owned_kind() {
    let db = TestDb::default();
    let int = Ty::int(&db);
    let string = Ty::string(&db);
    fn owned<'db>(db: &'db dyn Db, properties: &[(&str, Ty<'db>)]) -> Ty<'db> {
        let properties = properties.iter().map(|(n, t)| (Name::from(*n), *t));
        Ty::new(db, crate::TyKind::Object(properties.collect()))
    }
    // Created first through the key, then looked up through the owned kind, and the
    // other way round.
    let by_key = Ty::object(&db, [("b", string), ("a", int)]);
    assert_eq!(by_key, owned(&db, &[("a", int), ("b", string)]));
    // Names sort by their bytes: `x` before `ü`.
    let by_kind = owned(&db, &[("x", string), ("ünïcode", int)]);
    assert_eq!(by_kind, Ty::object(&db, [("ünïcode", int), ("x", string)]));
    assert_eq!(Ty::empty_object(&db), owned(&db, &[]));
    // The last of repeated names wins, sorted or not; owned names intern alike.
    let repeated = Ty::object(&db, [("b", int), ("a", int), ("b", string), ("a", string)]);
    assert_eq!(repeated, owned(&db, &[("a", string), ("b", string)]));
    let names = [(SmolStr::new("a"), int), (SmolStr::new("a"), string)];
    assert_eq!(Ty::object(&db, names), owned(&db, &[("a", string)]));
    assert_ne!(by_key, repeated);
    // Object types share their property names: `b` is kept once.
    let name_of = |ty: Ty<'_>| match ty.kind(&db) {
        crate::TyKind::Object(properties) => properties[1].0.clone(),
        _ => unreachable!("an object type"),
    };
    assert!(std::sync::Arc::ptr_eq(&name_of(by_key), &name_of(repeated)));
}

/// A handle's cache of other crates' keys (`TypeCache::interned_key`) interns a value once,
/// gives its id again while the value matches, and interns again when the id kept under
/// the hash is another value's (a collision) or the kind of key differs.
#[test]
fn interned_keys_are_kept_by_kind_and_checked_on_a_hit() {
    use salsa::plumbing::AsId;
    struct Kind;
    struct OtherKind;
    let db = TestDb::default();
    let cache = &db.type_cache;
    let (int, string) = (Ty::int(&db).as_id(), Ty::string(&db).as_id());
    let interned = std::cell::Cell::new(0);
    let intern = |id| {
        interned.set(interned.get() + 1);
        id
    };
    assert_eq!(cache.interned_key::<Kind>(7, |_| true, || intern(int)), int);
    assert_eq!(
        cache.interned_key::<Kind>(7, |id| id == int, || intern(string)),
        int
    );
    assert_eq!(
        interned.get(),
        1,
        "a hit that matches is not interned again"
    );
    // The value kept under the hash is not the one asked for: interned, and kept instead.
    assert_eq!(
        cache.interned_key::<Kind>(7, |id| id == string, || intern(string)),
        string
    );
    assert_eq!(
        cache.interned_key::<Kind>(7, |id| id == string, || intern(int)),
        string
    );
    // Another kind of key with the same hash has a place of its own.
    assert_eq!(
        cache.interned_key::<OtherKind>(7, |_| true, || intern(int)),
        int
    );
    assert_eq!(
        cache.interned_key::<Kind>(7, |id| id == string, || intern(int)),
        string
    );
    assert_eq!(interned.get(), 3);
}

/// A handle's type cache gives the interner's ids: in the handle that filled it, in a
/// clone (which starts empty), and when the id cached under a kind's hash is another
/// kind's (a collision: the interner is asked).
#[test]
fn types_through_a_handles_cache_are_the_interners() {
    use salsa::plumbing::AsId;
    use std::hash::BuildHasher;
    let db = TestDb::default();
    let int = Ty::int(&db);
    let list = Ty::list(&db, int);
    let object = Ty::object(&db, [("a", list)]);
    assert_eq!(Ty::list(&db, int), list);
    assert_eq!(Ty::object(&db, [("a", list)]), object);
    let clone = db.clone();
    assert!(
        clone.type_cache.kinds.0.borrow().is_empty(),
        "a clone starts empty"
    );
    assert_eq!(Ty::list(&clone, Ty::int(&clone)).as_id(), list.as_id());
    assert_eq!(Ty::object(&clone, [("a", list)]).as_id(), object.as_id());
    // Another kind's id under the hash of `list(string)`.
    let kind = crate::TyKind::List(Ty::string(&db));
    let hash = rustc_hash::FxBuildHasher.hash_one(&kind);
    db.type_cache.kinds.remember(hash, object.as_id());
    let strings = Ty::list(&db, Ty::string(&db));
    assert_eq!(strings.kind(&db), &kind);
    assert_eq!(Ty::new(&db, kind.clone()), strings);
    // Relations, traversals, optional and input types keyed through the cache agree with
    // the clone's, and optional types with the unions they stand for.
    type Relations = (
        crate::Conversion,
        salsa::Id,
        salsa::Id,
        salsa::Id,
        salsa::Id,
    );
    fn relations(db: &TestDb) -> Relations {
        let list = Ty::list(db, Ty::int(db));
        let object = Ty::object(db, [("a", list)]);
        let step = crate::traverse(db, object, crate::TraverseKey::Attr("a".into()));
        let unified = crate::unify(db, list, object).0;
        (
            crate::conversion(db, list, object),
            step.ty.as_id(),
            unified.as_id(),
            Ty::optional(db, list).as_id(),
            crate::input_type(db, list).as_id(),
        )
    }
    assert_eq!(relations(&db), relations(&clone));
    assert_eq!(
        relations(&db),
        relations(&db),
        "asked again, from the cache"
    );
    let input = crate::input_type(&db, list);
    assert_eq!(input.as_id(), relations(&db).4);
    assert_eq!(
        crate::display(&db, input),
        "union(list(union(int, output(int))), output(list(int)))"
    );
    assert_eq!(relations(&db).1, list.as_id());
    let optional = Ty::union(&db, [list, Ty::none(&db)]);
    assert_eq!(relations(&db).3, optional.as_id());
    assert_eq!(Ty::optional(&db, optional), optional);
}

#[test]
fn pretty_forms() {
    let db = TestDb::default();
    let cases = [
        ("union(int, string, none)", "int | string | none"),
        ("union(int, none)", "int?"),
        ("tuple(int, bool)", "tuple(int, bool)"),
        (
            "object({a = int, b = optional(string)})",
            "{ a: int, b: string? }",
        ),
        ("object({})", "{}"),
        // A string constant is a schema `const` (string literals are typed `string`).
        ("cty.StringVal(\"x\")", "\"x\""),
        // Number and bool constants come from literals: they show as their types.
        ("list(cty.NumberIntVal(3))", "list(int)"),
        ("cty.NumberFloatVal(2.5)", "number"),
        ("cty.NumberIntVal(-1)", "int"),
        ("cty.True", "bool"),
        (
            "tuple(cty.NumberIntVal(1), cty.NumberFloatVal(2.5), cty.NumberIntVal(3))",
            "tuple(int, number, int)",
        ),
        ("union(cty.NumberIntVal(1), cty.NumberIntVal(2))", "int"),
        (
            "enum(t(string): cty.StringVal(\"a\"),cty.StringVal(\"b\"))",
            "enum(\"a\" | \"b\")",
        ),
        (
            "union(cty.StringVal(\"a\"), cty.StringVal(\"b\"), cty.StringVal(\"c\"), cty.StringVal(\"d\"), cty.StringVal(\"e\"), cty.StringVal(\"f\"), cty.StringVal(\"g\"), cty.StringVal(\"h\"))",
            "\"a\" | \"b\" | \"c\" | \"d\" | \"e\" | \"f\" | … (2 more)",
        ),
        (
            "tuple(string, string, string, string, string, string, string)",
            "tuple(string, string, string, string, string, string, … (1 more))",
        ),
        (
            "union(object({aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa = int, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb = int}), object({cccccccccccccccccccccccccccccccccccccc = int, ddddddddddddddddddddddddddddddddddd = int}), string)",
            "{ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: int, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb: int } | … (2 more)",
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

#[test]
fn readable_forms() {
    let db = TestDb::default();
    let cases = [
        (
            "tuple(cty.NumberIntVal(1), cty.NumberFloatVal(2.5))",
            "tuple(int, number)",
        ),
        (
            "object({b = cty.NumberIntVal(2), a = list(string)})",
            "object({a = list(string), b = int})",
        ),
        ("union(int, none)", "union(int, none)"),
        ("union(cty.NumberIntVal(1), cty.NumberIntVal(2))", "int"),
        ("cty.StringVal(\"apps/v1\")", "\"apps/v1\""),
        (
            "enum(pkg:index:Color(string): cty.StringVal(\"red\"), cty.StringVal(\"blue\"))",
            "enum(pkg:index:Color: \"red\" | \"blue\")",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(
            readable(&db, ty_of(&db, input)),
            expected,
            "readable of {input}"
        );
    }
}

/// The message form of seeded random types: see the header of the fixture.
#[test]
fn pretty_forms_of_random_types() {
    let path = pcl_test_utils::test_data_dir().join("types/pretty.tsv");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let db = TestDb::default();
    let mut cases = 0;
    let mut actual = String::new();
    for line in text.lines() {
        if line.starts_with('#') {
            actual.push_str(line);
            actual.push('\n');
            continue;
        }
        let (input, _) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("a row has a type and its form: {line:?}"));
        actual.push_str(&format!("{input}\t{}\n", pretty(&db, ty_of(&db, input))));
        cases += 1;
    }
    assert!(cases >= 100, "only {cases} cases");
    expect_test::expect_file![path].assert_eq(&actual);
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
            assert_eq!(actual.as_str(), expected, "{dest} from {src}");
        }
    }
}

/// The rule rows of `tests/data/types/rules.tsv` (conversion and assignability, pairwise and
/// n-ary unification, traversal), each answered here and compared field by field. Every
/// failing row is listed, not only the first.
#[test]
fn rule_rows() {
    let db = TestDb::default();
    let rows = data_rows("rules.tsv");
    let mut failures = Vec::new();
    for row in &rows {
        let fields: Vec<&str> = row.iter().map(String::as_str).collect();
        let actual = match fields.as_slice() {
            ["convert", dest, src, ..] => {
                let (d, s) = (ty_of(&db, dest), ty_of(&db, src));
                vec![
                    conversion(&db, d, s).as_str().to_owned(),
                    assignable(&db, d, s).to_string(),
                ]
            }
            ["unify", a, b, ..] => {
                let (t, k) = unify(&db, ty_of(&db, a), ty_of(&db, b));
                vec![display(&db, t).clone(), k.as_str().to_owned()]
            }
            ["unify-all", types, _, _, orders] => {
                let types: Vec<Ty<'_>> = (types.split(" | "))
                    .filter(|t| !t.is_empty())
                    .map(|t| ty_of(&db, t))
                    .collect();
                let (safe, unsafe_) = unify_types(&db, types.iter().copied());
                let mut answer = vec![display(&db, safe).clone(), display(&db, unsafe_).clone()];
                if *orders == "any order" {
                    let (safe, unsafe_) = unify_types(&db, types.iter().rev().copied());
                    if (safe, unsafe_) != unify_types(&db, types.iter().copied()) {
                        answer.push(format!(
                            "reversed: {}, {}",
                            display(&db, safe),
                            display(&db, unsafe_)
                        ));
                    }
                }
                answer.push((*orders).to_owned());
                answer
            }
            ["traverse", receiver, key_text, ..] => {
                let result = traverse(&db, ty_of(&db, receiver), key(&db, key_text));
                let problems: Vec<String> = (result.problems.iter())
                    .map(|problem| {
                        let tag = match problem.severity(&db) {
                            Severity::Error => "E",
                            _ => "W",
                        };
                        format!("{tag}:{}", problem.message(&db))
                    })
                    .collect();
                vec![display(&db, result.ty).clone(), problems.join("; ")]
            }
            _ => panic!("unknown rule row {fields:?}"),
        };
        let expected = &fields[fields.len() - actual.len()..];
        if actual != expected {
            failures.push(format!(
                "{}\n  expected {expected:?}\n  actual   {actual:?}",
                fields.join("  ")
            ));
        }
    }
    assert!(rows.len() > 100, "too few rule rows");
    assert!(
        failures.is_empty(),
        "{} of {} rule rows fail:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

/// Unifying recursive schema object types terminates (their conversions are rule rows).
#[test]
fn recursive_objects_unify() {
    let db = TestDb::default();
    // Unifying two distinct recursive objects terminates at their union.
    let (obj, pair) = (ty_of(&db, "Obj"), ty_of(&db, "Pair"));
    let (unified, _) = unify(&db, obj, pair);
    assert_eq!(display(&db, unified), "object(Obj)");
    let (unified, _) = unify(&db, ty_of(&db, "Tree"), ty_of(&db, "Wide"));
    assert_eq!(display(&db, unified), "union(object(Tree), object(Wide))");
}

/// Types of one shape unify at once past a few (`unify_types`), as their fold does:
/// constants of one type (numbers, strings and bools), objects and tuples that differ
/// only in their constants, objects told apart by a key (some with more properties), and
/// objects of their own properties, with repeats, in several orders; and lists of nearly
/// one shape (another property, a constant or not at one place), with a key two share, or
/// with a property two objects share, which are folded.
#[test]
fn many_types_of_one_shape_unify_as_their_fold_does() {
    let db = TestDb::default();
    let number = |text: &str| {
        let value = crate::parse::parse_number(text).expect("a number");
        Ty::constant(&db, Ty::int(&db), crate::ConstValue::Number(value))
    };
    let string =
        |text: &str| Ty::constant(&db, Ty::string(&db), crate::ConstValue::String(text.into()));
    let boolean = |value: bool| Ty::constant(&db, Ty::bool(&db), crate::ConstValue::Bool(value));
    let mut rng = Rng::new(7);
    let mut lists: Vec<Vec<Ty<'_>>> = vec![(0..9).map(|_| boolean(rng.below(2) == 0)).collect()];
    for len in [9, 10, 17, 40] {
        lists.push((0..len).map(|i| number(&i.to_string())).collect());
        lists.push(
            (0..len)
                .map(|_| number(&rng.below(12).to_string()))
                .collect(),
        );
        lists.push(
            (0..len)
                .map(|_| string(&format!("s{}", rng.below(12))))
                .collect(),
        );
    }
    /// An object of four properties: `name`, two constants and a string.
    fn record<'db>(db: &'db dyn Db, name: Ty<'db>, port: Ty<'db>, on: Ty<'db>) -> Ty<'db> {
        let inner = Ty::object(db, [("on", on)]);
        let fields = [("name", name), ("port", port), ("spec", inner)];
        Ty::object(db, fields.into_iter().chain([("zone", Ty::string(db))]))
    }
    for len in [9, 12, 30] {
        let mut records = Vec::new();
        let mut pairs = Vec::new();
        for i in 0..len {
            let port = number(&rng.below(6).to_string());
            let on = boolean(rng.below(2) == 0);
            records.push(record(&db, string(&format!("r{}", i % 7)), port, on));
            let flag = boolean(rng.below(2) == 0);
            pairs.push(Ty::tuple(&db, [number(&rng.below(9).to_string()), flag]));
        }
        let mut nearly = records.clone();
        nearly[len / 2] = Ty::object(&db, [("name", string("odd"))]);
        let mut widened = records.clone();
        widened[1] = record(&db, Ty::string(&db), number("1"), boolean(true));
        assert!(crate::unify::of_one_shape(&db, &records));
        assert!(crate::unify::of_one_shape(&db, &pairs));
        assert!(!crate::unify::of_one_shape(&db, &nearly));
        assert!(!crate::unify::of_one_shape(&db, &widened));
        // Records told apart by their name, some with one more property (also nested);
        // then two that share a name and differ elsewhere, which are folded.
        let keyed: Vec<Ty<'_>> = (0..len)
            .map(|i| {
                let name = string(&format!("k{i}"));
                let port = number(&rng.below(3).to_string());
                match rng.below(3) {
                    0 => Ty::object(&db, [("name", name), ("port", port)]),
                    1 => Ty::object(&db, [("name", name), ("tls", boolean(true))]),
                    _ => record(&db, name, port, boolean(rng.below(2) == 0)),
                }
            })
            .collect();
        let mut repeated = keyed.clone();
        repeated.extend(keyed.iter().take(3).copied());
        let mut shared = keyed.clone();
        shared[2] = Ty::object(&db, [("name", string("k1")), ("port", number("7"))]);
        assert!(crate::unify::told_apart_by_a_key(&db, &keyed));
        assert!(crate::unify::told_apart_by_a_key(&db, &repeated));
        assert!(!crate::unify::told_apart_by_a_key(&db, &shared));
        assert!(!crate::unify::told_apart_by_a_key(&db, &pairs));
        lists.extend([keyed, repeated, shared]);
        // Objects of their own properties (of any type) and some all share, the same
        // constant or primitive: merged at once; then one object twice, a property two
        // share, and an object all share, which are folded.
        let own: Vec<Ty<'_>> = (0..len)
            .map(|i| {
                let value = match rng.below(3) {
                    0 => number(&rng.below(4).to_string()),
                    1 => Ty::optional(&db, string("s")),
                    _ => record(&db, string("r"), number("1"), boolean(true)),
                };
                let kind = string("entry");
                let fields = [(format!("k{i}"), value), ("kind".to_owned(), kind)];
                Ty::object(
                    &db,
                    fields.into_iter().chain([("n".to_owned(), Ty::int(&db))]),
                )
            })
            .collect();
        let mut twice = own.clone();
        twice.push(own[0]);
        let mut two_share = own.clone();
        two_share[1] = Ty::object(&db, [("k0", number("1")), ("kind", string("entry"))]);
        let inner = Ty::object(&db, [("on", boolean(true))]);
        let nested: Vec<Ty<'_>> = (0..len)
            .map(|i| {
                Ty::object(
                    &db,
                    [(format!("k{i}"), number("1")), ("o".to_owned(), inner)],
                )
            })
            .collect();
        assert!(crate::unify::merged_objects(&db, &own).is_some());
        for folded in [&twice, &two_share, &nested] {
            assert!(crate::unify::merged_objects(&db, folded).is_none());
        }
        lists.extend([own, twice, two_share, nested]);
        lists.extend([records, pairs, nearly, widened]);
    }
    for mut types in lists {
        for _ in 0..2 {
            let folded = (
                crate::unify::fold_side(&db, &types, Conversion::Safe),
                crate::unify::fold_side(&db, &types, Conversion::Unsafe),
            );
            assert_eq!(
                unify_types(&db, types.iter().copied()),
                folded,
                "{}",
                display(&db, folded.0)
            );
            types.reverse();
        }
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

/// A literal's targets: the one object type among a type's plain alternatives (literal or
/// named, not behind an output), the one list or set element type, the one map element
/// type; none when there are several. Asked again they come from the handle's cache, and
/// a clone (whose cache starts empty) finds the same.
#[test]
fn literal_targets_are_the_one_object_or_element_type() {
    fn targets(db: &TestDb, text: &str) -> [Option<String>; 3] {
        let ty = ty_of(db, text);
        let shown = |target: Option<Ty<'_>>| target.map(|t| display(db, t).to_string());
        [
            shown(crate::literal_object_target(db, ty)),
            shown(crate::literal_element_target(db, ty, false)),
            shown(crate::literal_element_target(db, ty, true)),
        ]
    }
    let some = |text: &str| Some(text.to_owned());
    let cases = [
        ("object({a = int})", [some("object({a = int})"), None, None]),
        ("optional(Tree)", [some("object(Tree)"), None, None]),
        (
            "union(object({a = int}), output(object({a = int})))",
            [some("object({a = int})"), None, None],
        ),
        (
            "union(object({a = int}), object({b = int}))",
            [None, None, None],
        ),
        ("output(object({a = int}))", [None, None, None]),
        (
            "union(list(string), none, dynamic)",
            [None, some("string"), None],
        ),
        ("set(bool)", [None, some("bool"), None]),
        ("union(list(int), set(string))", [None, None, None]),
        (
            "union(map(int), object({a = int}))",
            [some("object({a = int})"), None, some("int")],
        ),
        ("dynamic", [None, None, None]),
    ];
    let db = TestDb::default();
    for (text, expected) in &cases {
        assert_eq!(&targets(&db, text), expected, "{text}");
        assert_eq!(&targets(&db, text), expected, "{text}, from the cache");
    }
    let clone = db.clone();
    assert!(clone.type_cache.literal_targets.is_empty());
    for (text, expected) in &cases {
        assert_eq!(&targets(&clone, text), expected, "{text}, in a clone");
    }
}

/// Asking a compound relation again is a memo hit: no query executes the second time.
#[test]
fn repeated_relations_are_memo_hits() {
    let log = pcl_base_db::ExecutionLog::default();
    let db = TestDb {
        storage: salsa::Storage::new(Some(log.callback())),
        property_names: crate::PropertyNames::default(),
        type_cache: crate::TypeCache::default(),
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
    let relations = data_rows("go-relations.tsv");
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
    let traversals = data_rows("go-traversals.tsv");
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

/// The rows of a fixture under `tests/data/types`: tab-separated fields, comments and blank lines skipped.
fn data_rows(name: &str) -> Vec<Vec<String>> {
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

/// Inputs the `type_string` fuzz target found (`tests/data/fuzz/type_string/`): each
/// parses or is rejected, and what parses displays as a string that parses back to it.
#[test]
fn fuzz_regressions() {
    let dir = pcl_test_utils::test_data_dir()
        .join("fuzz")
        .join("type_string");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let db = TestDb::default();
    for entry in entries.flatten() {
        let bytes = std::fs::read(entry.path()).unwrap_or_default();
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        if let Ok(ty) = crate::parse_type(&db, &text) {
            let shown = display(&db, ty).clone();
            let again = crate::parse_type(&db, &shown);
            assert_eq!(again.ok(), Some(ty), "{text:?} displays as {shown:?}");
        }
    }
}
