//! Type relations on large types: conversion, unification and traversal over wide
//! unions, deep nesting and large objects, at sizes 10, 100 and 1,000 (deep nesting:
//! depths 10, 50 and 100), each measured on a first call (a database where the types
//! exist but no relation was asked) and on a repeated call (a memo hit).
//!
//! `cargo bench -p pcl-benches --bench types`. A first call includes re-building the two
//! operand types in the fresh database (only lookups of interned ids); `build` measures
//! that alone. A repeated call is the relation alone, on the same ids.

use divan::Bencher;
use pcl_ide::RootDatabase;
use pcl_types::{Db, Name, TraverseKey, Ty};

fn main() {
    divan::main();
}

const SIZES: [usize; 3] = [10, 100, 1_000];
const DEPTHS: [usize; 3] = [10, 50, 100];

/// The shapes of the operands.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// `union(object({f0 = int}), ...)` against a union sharing half its members.
    WideUnion,
    /// `list(object({a = list(object({a = ... int})), b = string}))`, `number` against `int` leaves.
    Deep,
    /// `object({p0 = number, ...})` against the same names with `int` and one extra.
    WideObject,
}

/// The two operands of a relation, and the traversal key.
fn operands<'db>(
    db: &'db dyn Db,
    shape: Shape,
    size: usize,
) -> (Ty<'db>, Ty<'db>, TraverseKey<'db>) {
    match shape {
        Shape::WideUnion => {
            let member = |i: usize| Ty::object(db, [(Name::from(format!("f{i}")), Ty::int(db))]);
            let dest = Ty::union(db, (0..size).map(member));
            let src = Ty::union(db, (size / 2..size + size / 2).map(member));
            (
                dest,
                src,
                TraverseKey::Attr(format!("f{}", size / 2).into()),
            )
        }
        Shape::Deep => {
            let nest = |leaf: Ty<'db>| {
                (0..size).fold(leaf, |inner, _| {
                    Ty::list(
                        db,
                        Ty::object(
                            db,
                            [(Name::from("a"), inner), (Name::from("b"), Ty::string(db))],
                        ),
                    )
                })
            };
            (
                nest(Ty::number(db)),
                nest(Ty::int(db)),
                TraverseKey::Unknown(Ty::number(db)),
            )
        }
        Shape::WideObject => {
            let object = |leaf: Ty<'db>, extra: usize| {
                Ty::object(
                    db,
                    (0..size + extra).map(|i| (Name::from(format!("p{i}")), leaf)),
                )
            };
            let key = TraverseKey::Attr(format!("p{}", size / 2).into());
            (object(Ty::number(db), 0), object(Ty::int(db), 1), key)
        }
    }
}

#[derive(Clone, Copy)]
enum Op {
    Conversion,
    Unify,
    Traverse,
}

fn run(db: &RootDatabase, shape: Shape, size: usize, op: Op) {
    let (dest, src, key) = operands(db, shape, size);
    run_on(db, dest, src, &key, op);
}

fn run_on<'db>(db: &'db RootDatabase, dest: Ty<'db>, src: Ty<'db>, key: &TraverseKey<'db>, op: Op) {
    match op {
        Op::Conversion => {
            divan::black_box(pcl_types::conversion(db, dest, src));
        }
        Op::Unify => {
            divan::black_box(pcl_types::unify_types(db, [dest, src]));
        }
        Op::Traverse => {
            divan::black_box(pcl_types::traverse(db, src, key.clone()));
        }
    }
}

/// A database in which the operands exist but no relation has been asked.
fn prepared(shape: Shape, size: usize) -> RootDatabase {
    let db = RootDatabase::default();
    operands(&db, shape, size);
    db
}

fn first(bencher: Bencher<'_, '_>, shape: Shape, size: usize, op: Op) {
    bencher
        .with_inputs(|| prepared(shape, size))
        .bench_local_values(|db| {
            run(&db, shape, size, op);
            db
        });
}

fn repeated(bencher: Bencher<'_, '_>, shape: Shape, size: usize, op: Op) {
    let db = prepared(shape, size);
    let (dest, src, key) = operands(&db, shape, size);
    run_on(&db, dest, src, &key, op);
    bencher.bench_local(|| run_on(&db, dest, src, &key, op));
}

macro_rules! benches {
    ($module:ident, $shape:expr, $sizes:expr) => {
        mod $module {
            use super::*;

            #[divan::bench(args = $sizes, sample_count = 20)]
            fn build(bencher: Bencher<'_, '_>, size: usize) {
                let db = prepared($shape, size);
                bencher.bench_local(|| divan::black_box(operands(&db, $shape, size).0));
            }

            #[divan::bench(args = $sizes, sample_count = 20)]
            fn conversion_first(bencher: Bencher<'_, '_>, size: usize) {
                first(bencher, $shape, size, Op::Conversion);
            }

            #[divan::bench(args = $sizes, sample_count = 20)]
            fn conversion_repeated(bencher: Bencher<'_, '_>, size: usize) {
                repeated(bencher, $shape, size, Op::Conversion);
            }

            #[divan::bench(args = $sizes, sample_count = 20)]
            fn unify_first(bencher: Bencher<'_, '_>, size: usize) {
                first(bencher, $shape, size, Op::Unify);
            }

            #[divan::bench(args = $sizes, sample_count = 20)]
            fn unify_repeated(bencher: Bencher<'_, '_>, size: usize) {
                repeated(bencher, $shape, size, Op::Unify);
            }

            #[divan::bench(args = $sizes, sample_count = 20)]
            fn traverse_first(bencher: Bencher<'_, '_>, size: usize) {
                first(bencher, $shape, size, Op::Traverse);
            }

            #[divan::bench(args = $sizes, sample_count = 20)]
            fn traverse_repeated(bencher: Bencher<'_, '_>, size: usize) {
                repeated(bencher, $shape, size, Op::Traverse);
            }
        }
    };
}

benches!(wide_union, Shape::WideUnion, SIZES);
benches!(deep, Shape::Deep, DEPTHS);
benches!(wide_object, Shape::WideObject, SIZES);
