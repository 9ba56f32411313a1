//! Config and output type labels (`config count "int"`, `"list(object({a = string}))"`):
//! the label is an HCL expression over the type names `any`, `string`, `number`, `int`,
//! `bool` and the constructors `list`, `set`, `map`, `object`, `tuple`, `optional`.

use pcl_syntax::ast::{self, AstNode};
use pcl_types::{Name, Ty};

/// The type a label names, or what is wrong with it.
pub(crate) fn parse_config_type<'db>(
    db: &'db dyn pcl_types::Db,
    text: &str,
) -> Result<Ty<'db>, String> {
    let source = format!("t = {text}\n");
    let parse = pcl_syntax::parse(&source);
    if let Some(error) = parse.errors().first() {
        return Err(format!("`{text}` is not a type: {}", error.message));
    }
    let value = (parse.tree().body())
        .and_then(|body| body.attributes().next())
        .and_then(|attr| attr.value());
    match value {
        Some(expr) => type_of(db, &expr),
        None => Err(format!("`{text}` is not a type")),
    }
}

fn type_of<'db>(db: &'db dyn pcl_types::Db, expr: &ast::Expr) -> Result<Ty<'db>, String> {
    match expr {
        ast::Expr::Paren(paren) => match paren.inner() {
            Some(inner) => type_of(db, &inner),
            None => Err("empty parentheses".to_owned()),
        },
        ast::Expr::Variable(variable) => {
            let name = variable
                .name()
                .map(|n| n.text().to_owned())
                .unwrap_or_default();
            Ok(match name.as_str() {
                "any" => Ty::dynamic(db),
                "string" => Ty::string(db),
                "number" => Ty::number(db),
                "int" => Ty::int(db),
                "bool" => Ty::bool(db),
                // A collection without its element type.
                "list" | "set" | "map" => {
                    return Err(format!(
                        "`{name}` needs the type of its elements: `{name}(string)`, `{name}(number)`, `{name}(any)`, ..."
                    ));
                }
                _ => {
                    return Err(format!(
                        "unknown type `{name}`: use any, string, number, int, bool, list(T), set(T), map(T), object({{..}}), tuple([..]) or optional(T)"
                    ));
                }
            })
        }
        ast::Expr::Call(call) => {
            let name = call.name();
            let args: Vec<ast::Expr> = call.arg_list().into_iter().flat_map(|l| l.args()).collect();
            let [arg] = args.as_slice() else {
                return Err(format!("{name}() takes exactly one argument"));
            };
            match name.as_str() {
                "list" => Ok(Ty::list(db, type_of(db, arg)?)),
                "set" => Ok(Ty::set(db, type_of(db, arg)?)),
                "map" => Ok(Ty::map(db, type_of(db, arg)?)),
                "optional" => Ok(Ty::optional(db, type_of(db, arg)?)),
                "object" => {
                    let ast::Expr::Object(object) = arg else {
                        return Err("the argument to object() must be an object type".to_owned());
                    };
                    let mut fields = Vec::new();
                    for item in object.items() {
                        let key = item.key().and_then(|k| k.literal_name());
                        let (Some(key), Some(value)) = (key, item.value()) else {
                            return Err("object() type fields are `name = type`".to_owned());
                        };
                        fields.push((Name::from(key.as_str()), type_of(db, &value)?));
                    }
                    Ok(Ty::object(db, fields))
                }
                "tuple" => {
                    let ast::Expr::Tuple(tuple) = arg else {
                        return Err("the argument to tuple() must be a tuple type".to_owned());
                    };
                    let elements: Result<Vec<Ty<'db>>, String> =
                        tuple.elements().map(|e| type_of(db, &e)).collect();
                    Ok(Ty::tuple(db, elements?))
                }
                _ => Err(format!("unknown type constructor `{name}`")),
            }
        }
        _ => Err(format!("`{}` is not a type", expr.syntax().text())),
    }
}
