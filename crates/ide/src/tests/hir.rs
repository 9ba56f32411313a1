//! The bodies lowering makes, printed: each declaration of each program in `tests/data/hir`
//! with its blocks, attributes and expressions and where each comes from
//! (`pcl_sema::body_with_source_map`), against a snapshot beside it (`.hir`). Lowering's
//! rules (which child is which, how strings are decoded, what recovery leaves) pinned
//! directly, not only through the diagnostics they lead to.

use std::fmt::Write;

use pcl_sema::{BlockId, Body, BodySourceMap, Expr, ExprId, body_with_source_map, program_decls};

use super::{logged_host, set_program};

#[test]
fn lowered_bodies_match_their_snapshots() {
    let dir = pcl_test_utils::test_data_dir().join("hir");
    let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("the hir fixtures")
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "pp"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "fixtures in {}", dir.display());
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a fixture");
        let (mut host, _log) = logged_host();
        let id = set_program(&mut host, "prog", &[("main.pp", &text)]);
        let analysis = host.analysis();
        let db = analysis.db();
        let program = analysis.program_of(&id).expect("the program is set");
        let mut out = String::new();
        for &decl in program_decls(db, program).iter() {
            let lowered = body_with_source_map(db, decl);
            let name = decl.name(db);
            out.push_str(&format!("{:?} {name}\n", decl.kind(db)));
            let printer = Printer {
                body: &lowered.body,
                map: &lowered.source_map,
                out: &mut out,
            };
            printer.body();
        }
        expect_test::expect_file![path.with_extension("hir")].assert_eq(&out);
    }
}

/// Writes a body: its blocks nested, each attribute on a line, expressions as terms with
/// their ranges (`@start..end`).
struct Printer<'a> {
    body: &'a Body,
    map: &'a BodySourceMap,
    out: &'a mut String,
}

impl Printer<'_> {
    fn put(&mut self, args: std::fmt::Arguments<'_>) {
        self.out.write_fmt(args).expect("a String takes any text");
    }

    fn put_line(&mut self, args: std::fmt::Arguments<'_>) {
        self.put(args);
        self.out.push('\n');
    }

    fn body(mut self) {
        if !self.body.blocks.is_empty() {
            self.block(BlockId::ROOT, 1);
        }
        if let Some(value) = self.body.value {
            self.out.push_str("  value = ");
            self.expr(value);
            self.out.push('\n');
        }
    }

    fn block(&mut self, id: BlockId, depth: usize) {
        let (body, map) = (self.body, self.map);
        let indent = "  ".repeat(depth);
        let index = id.0 as usize;
        let labels: Vec<String> = (0..body.label_count(id))
            .map(|i| {
                let range = map.block_labels[index][i];
                format!("{:?}@{range:?}", body.label(id, i).unwrap_or_default())
            })
            .collect();
        let data = body.block(id);
        self.put_line(format_args!(
            "{indent}block {:?}@{:?} [{}] open@{:?}{}",
            body.block_kind(id),
            map.block_types[index],
            labels.join(", "),
            map.block_opens[index],
            if data.opened { "" } else { " (not opened)" },
        ));
        for &attr in data.attrs.iter() {
            let name_range = map.attr_names[attr.0 as usize];
            self.put(format_args!(
                "{indent}  {}@{name_range:?} = ",
                body.attr_name(attr)
            ));
            self.expr(body.attr(attr).value);
            self.out.push('\n');
        }
        for &nested in data.blocks.iter() {
            self.block(nested, depth + 1);
        }
    }

    fn list(&mut self, open: &str, items: &[ExprId], close: &str) {
        self.out.push_str(open);
        for (i, &item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            self.expr(item);
        }
        self.out.push_str(close);
    }

    fn expr(&mut self, id: ExprId) {
        let body = self.body;
        match body.expr(id) {
            Expr::Missing => self.out.push_str("missing"),
            Expr::Null => self.out.push_str("null"),
            Expr::Bool(value) => self.put(format_args!("{value}")),
            Expr::Number(number) => self.put(format_args!("{}", body.number(*number).value())),
            Expr::BadNumber => self.out.push_str("bad-number"),
            Expr::String(s) => self.put(format_args!("{:?}", body.str(*s))),
            Expr::Template(parts) => self.list("(template ", body.list(*parts), ")"),
            Expr::TemplateJoin(inner) => self.list("(join ", &[*inner], ")"),
            Expr::Tuple(elements) => self.list("[", body.list(*elements), "]"),
            Expr::Object(pairs) => {
                self.out.push('{');
                for (i, &[key, value]) in body.pairs(*pairs).iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(key);
                    self.out.push_str(" = ");
                    self.expr(value);
                }
                self.out.push('}');
            }
            Expr::Name(name) => self.out.push_str(body.str(*name)),
            Expr::GetAttr { base, name } => {
                self.expr(*base);
                self.put(format_args!(".{}", body.str(*name)));
            }
            Expr::Index { base, key } => {
                self.expr(*base);
                self.list("[", &[*key], "]");
            }
            Expr::Splat { source, each } => self.list("(splat ", &[*source, *each], ")"),
            Expr::SplatItem => self.out.push_str("item"),
            Expr::Call(call) => {
                self.put(format_args!("({}", call.name));
                self.list(" ", body.list(call.args), "");
                self.out.push_str(if call.expand { " ...)" } else { ")" });
            }
            Expr::For(each) => {
                self.out.push_str("(for ");
                if let Some(key) = each.key_var {
                    self.put(format_args!("{}, ", body.str(key)));
                }
                self.put(format_args!("{} in ", body.str(each.value_var)));
                self.expr(each.collection);
                self.out.push_str(": ");
                if let Some(key) = each.key {
                    self.expr(key);
                    self.out.push_str(" => ");
                }
                self.expr(each.value);
                if let Some(cond) = each.cond {
                    self.out.push_str(" if ");
                    self.expr(cond);
                }
                self.out.push_str(if each.grouped { " ...)" } else { ")" });
            }
            Expr::Conditional {
                cond,
                then,
                otherwise,
            } => self.list("(if ", &[*cond, *then, *otherwise], ")"),
            Expr::Unary { op, operand } => {
                self.put(format_args!("({op:?} "));
                self.list("", &[*operand], ")");
            }
            Expr::Binary { op, lhs, rhs } => {
                self.put(format_args!("({op:?} "));
                self.list("", &[*lhs, *rhs], ")");
            }
        }
        self.put(format_args!("@{:?}", self.map.exprs[id.0 as usize]));
    }
}
