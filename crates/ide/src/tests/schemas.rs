//! The root database with real schema files loaded: schema object types have their
//! properties, so traversal, conversion and unification see them.

use expect_test::{Expect, expect};
use pcl_schema::{SchemaLoader, SearchPath, object_type};
use pcl_test_utils::test_data_dir;
use pcl_types::{TraverseKey, Ty, conversion, display, parse_type_with, traverse, unify};

use crate::RootDatabase;

/// Loads `recursion.json` and answers `question` about the types written in it, where
/// `object(recursion:index:Node)` names the schema object type.
fn check(
    question: impl for<'db> Fn(&'db RootDatabase, &dyn Fn(&str) -> Ty<'db>) -> String,
    expect: Expect,
) {
    let dir = test_data_dir().join("schemas");
    let mut db = RootDatabase::default();
    let mut loader = SchemaLoader::new(SearchPath::new(vec![dir.clone()]));
    let source = loader
        .load_file(&mut db, &dir.join("recursion.json"))
        .expect("the fixture loads");
    let db = &db;
    let ty_of = |text: &str| {
        parse_type_with(db, text, &|token| object_type(db, source, token))
            .unwrap_or_else(|error| panic!("`{text}`: {error}"))
    };
    expect.assert_eq(&question(db, &ty_of));
}

#[test]
fn traversal_reaches_schema_properties() {
    check(
        |db, ty_of| {
            let node = ty_of("object(recursion:index:Node)");
            let mut out = String::new();
            for key in ["value", "next", "children", "bogus"] {
                let step = traverse(db, node, TraverseKey::Attr(key.into()));
                out.push_str(&format!("{key}: {}", display(db, step.ty)));
                for problem in &step.problems {
                    out.push_str(&format!(" ({} {})", problem.code(), problem.message(db)));
                }
                out.push('\n');
            }
            out
        },
        expect![[r#"
            value: string
            next: union(none, object(recursion:index:Node))
            children: union(list(object(recursion:index:Node)), none)
            bogus: dynamic (PCL3002 unknown property 'bogus' among [children next value])
        "#]],
    );
}

#[test]
fn conversion_checks_schema_properties() {
    check(
        |db, ty_of| {
            let node = ty_of("object(recursion:index:Node)");
            let mut out = String::new();
            for dest in [
                "object({bogus = bool})",
                "object({value = string})",
                "object({value = int})",
                "map(string)",
            ] {
                let kind = conversion(db, ty_of(dest), node);
                out.push_str(&format!("{dest} <- Node: {kind:?}\n"));
            }
            for src in ["object({value = string})", "object({next = string})"] {
                let kind = conversion(db, node, ty_of(src));
                out.push_str(&format!("Node <- {src}: {kind:?}\n"));
            }
            out
        },
        expect![[r#"
            object({bogus = bool}) <- Node: None
            object({value = string}) <- Node: Safe
            object({value = int}) <- Node: Unsafe
            map(string) <- Node: None
            Node <- object({value = string}): Safe
            Node <- object({next = string}): None
        "#]],
    );
}

#[test]
fn unification_sees_schema_properties() {
    check(
        |db, ty_of| {
            let node = ty_of("object(recursion:index:Node)");
            let mut out = String::new();
            for other in ["object({value = string})", "object({value = list(int)})"] {
                let (ty, kind) = unify(db, node, ty_of(other));
                out.push_str(&format!("{other}: {} ({kind:?})\n", display(db, ty)));
            }
            out
        },
        expect![[r#"
            object({value = string}): object({children = union(list(object(recursion:index:Node)), none), next = union(none, object(recursion:index:Node)), value = string}) (Safe)
            object({value = list(int)}): object({children = union(list(object(recursion:index:Node)), none), next = union(none, object(recursion:index:Node)), value = union(list(int), string)}) (Safe)
        "#]],
    );
}

/// `decl_ty` types a resource or read without `range` from its token alone, without
/// checking its block: that type must be the one checking the block gives, in every
/// check fixture (clean and broken programs, every leniency's) and in the generated
/// programs.
#[test]
fn resources_are_typed_from_their_token_as_their_checking_types_them() {
    let (mut host, _log) = super::logged_host();
    let programs = super::check_fixtures_and_a_generated_program(&mut host);
    let analysis = host.analysis();
    let db = analysis.db();
    let mut resources = 0;
    for id in &programs {
        let program = analysis.program_of(id).expect("a program");
        for &decl in pcl_sema::program_decls(db, program).iter() {
            let kind = decl.kind(db);
            if !matches!(
                kind,
                pcl_sema::DeclKind::Resource | pcl_sema::DeclKind::Read
            ) || pcl_sema::decl_cycle(db, decl).is_some()
            {
                continue;
            }
            resources += 1;
            let (referenced, checked) = (pcl_sema::decl_ty(db, decl), pcl_sema::infer(db, decl).ty);
            assert_eq!(
                display(db, referenced),
                display(db, checked),
                "{} in {}",
                decl.name(db),
                id.0
            );
        }
    }
    assert!(resources > 150, "{resources} resources compared");
}
