//! `pcl type`: the type system from the command line, for people and for conformance
//! suites. Each subcommand prints one JSON object on one line:
//!
//! - `pcl type show TYPE` → `{"type": "<normalised display>"}`
//! - `pcl type relate TO FROM` → `{"assignable": bool, "conversion": "safe"|"unsafe"|"none",
//!   "unify": {"safe": "<type>", "unsafe": "<type>"}}`
//! - `pcl type traverse TYPE KEY...` with keys `.name`, `[N]`, `["s"]`, `[<T>]` (and the
//!   legacy index `.N`) →
//!   `{"type": "<result>", "error": bool}`; the steps' diagnostics go to stderr.
//!
//! With `--schema-dir DIR`, type strings may name schema object types
//! (`object(recursion:index:Node)`): the packages they name are loaded first.
//!
//! Exit 0 on success; 1 when a traversal has an error; 2 with a message on stderr for a
//! malformed type or key, or a schema that cannot be loaded.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use pcl_diagnostics::codes;
use pcl_ide::RootDatabase;
use pcl_schema::{PackageSource, SchemaLoader, SearchPath};
use pcl_types::{ConstValue, TraverseKey, Ty, display};

use crate::{print_err, print_out, usage_error};

/// Try the type system: normal forms, relations and traversals of type strings, as JSON.
#[derive(clap::Args)]
#[command(after_help = "\
Type strings are written as `pcl type show` prints them: string, int, list(T),
map(T), object({a = T}), union(T, U), output(T), promise(T), object(TOKEN) with
--schema-dir, ...

Exit codes:
  0  success
  1  the traversal has an error (reported on stderr)
  2  a malformed type or key, or a schema that cannot be loaded")]
pub(crate) struct TypeArgs {
    /// A directory of Pulumi package schemas (repeatable; then PCL_SCHEMA_PATH), so type
    /// strings may name schema object types such as `object(recursion:index:Node)`.
    #[arg(long, value_name = "DIR", global = true)]
    schema_dir: Vec<PathBuf>,
    #[command(subcommand)]
    command: TypeCommand,
}

#[derive(clap::Subcommand)]
enum TypeCommand {
    /// Print a type in normal form: {"type": "..."}.
    Show {
        #[arg(value_name = "TYPE")]
        ty: String,
    },
    /// Assignability, conversion and unification of two types.
    Relate {
        /// The destination type.
        to: String,
        /// The source type.
        from: String,
    },
    /// The type reached from TYPE by the keys, in order.
    Traverse {
        #[arg(value_name = "TYPE")]
        ty: String,
        /// `.name`, `[N]`, `["s"]` or `[<T>]` (an unknown key of type T).
        #[arg(required = true, value_name = "KEY")]
        keys: Vec<String>,
    },
}

pub(crate) fn run(args: TypeArgs) -> ExitCode {
    if let Some(error) = crate::inputs::schema_dir_error(&args.schema_dir) {
        return usage_error(&error);
    }
    let mut db = RootDatabase::default();
    let texts: Vec<&str> = match &args.command {
        TypeCommand::Show { ty } => vec![ty],
        TypeCommand::Relate { to, from } => vec![to, from],
        TypeCommand::Traverse { ty, keys } => {
            // Keys of an unknown type, `[<T>]`, name types too.
            let key_types = keys.iter().filter_map(|key| {
                key.strip_prefix("[<")
                    .and_then(|key| key.strip_suffix(">]"))
            });
            std::iter::once(ty.as_str()).chain(key_types).collect()
        }
    };
    let packages = match load_named_packages(&mut db, &args.schema_dir, &texts) {
        Ok(packages) => packages,
        Err(message) => return usage_error(&message),
    };
    let types = Types { db: &db, packages };
    let result = match &args.command {
        TypeCommand::Show { ty } => types.show(ty).map(|json| (json, true)),
        TypeCommand::Relate { to, from } => types.relate(to, from).map(|json| (json, true)),
        TypeCommand::Traverse { ty, keys } => {
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            types.traverse(ty, &keys).map(|(answer, diagnostics, ok)| {
                print_err(&diagnostics);
                (answer, ok)
            })
        }
    };
    match result {
        Ok((json, ok)) => {
            print_out(&format!("{json}\n"));
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(message) => {
            print_err(&format!("{message}\n"));
            ExitCode::from(2)
        }
    }
}

/// Loads the packages of the schema object types the type strings name. The strings are
/// parsed once with a resolver that only records the tokens asked for.
fn load_named_packages(
    db: &mut RootDatabase,
    dirs: &[PathBuf],
    texts: &[&str],
) -> Result<BTreeMap<String, PackageSource>, String> {
    let asked = std::cell::RefCell::new(Vec::new());
    for text in texts {
        let _ = pcl_types::parse_type_with(&*db, text, &|token| {
            asked.borrow_mut().push(token.to_owned());
            Some(Ty::dynamic(&*db))
        });
    }
    let mut packages = BTreeMap::new();
    let asked = asked.into_inner();
    if asked.is_empty() {
        return Ok(packages);
    }
    for dir in dirs {
        if !dir.is_dir() {
            return Err(format!(
                "schema directory `{}` does not exist",
                dir.display()
            ));
        }
    }
    let mut loader = SchemaLoader::new(SearchPath::from_args_and_env(dirs.to_vec()));
    for token in asked {
        let Some(package) = pcl_schema::package_of(&token) else {
            continue;
        };
        if packages.contains_key(package) {
            continue;
        }
        let source = loader
            .load(db, package, None)
            .map_err(|error| format!("cannot load the schema of `{token}`: {error}"))?;
        packages.insert(package.to_owned(), source);
    }
    Ok(packages)
}

/// Type strings read against the loaded packages.
struct Types<'db> {
    db: &'db RootDatabase,
    packages: BTreeMap<String, PackageSource>,
}

impl<'db> Types<'db> {
    fn parse(&self, what: &str, text: &str) -> Result<Ty<'db>, String> {
        let db = self.db;
        let resolve = |token: &str| {
            let source = self.packages.get(pcl_schema::package_of(token)?)?;
            pcl_schema::object_type(db, *source, token)
        };
        pcl_types::parse_type_with(db, text, &resolve).map_err(|error| {
            let code = codes::INVALID_TYPE_STRING;
            format!("error[{code}]: invalid {what} `{text}`: {error}")
        })
    }

    fn show(&self, text: &str) -> Result<String, String> {
        let ty = self.parse("type", text)?;
        Ok(format!("{{\"type\": {}}}", json(display(self.db, ty))))
    }

    fn relate(&self, to: &str, from: &str) -> Result<String, String> {
        let db = self.db;
        let to = self.parse("TO type", to)?;
        let from = self.parse("FROM type", from)?;
        let assignable = pcl_types::assignable(db, to, from);
        let conversion = pcl_types::conversion(db, to, from);
        let (safe, unsafe_) = pcl_types::unify_types(db, [to, from]);
        Ok(format!(
            "{{\"assignable\": {assignable}, \"conversion\": {}, \"unify\": {{\"safe\": {}, \"unsafe\": {}}}}}",
            json(conversion.as_str()),
            json(display(db, safe)),
            json(display(db, unsafe_)),
        ))
    }

    /// The JSON answer, the steps' diagnostics as lines for stderr, and whether no step
    /// had an error.
    fn traverse(&self, text: &str, keys: &[&str]) -> Result<(String, String, bool), String> {
        let db = self.db;
        let mut ty = self.parse("type", text)?;
        let mut error = false;
        let mut diagnostics = String::new();
        for key_text in keys {
            let key = self.parse_key(key_text)?;
            let step = pcl_types::traverse(db, ty, key);
            for problem in &step.problems {
                diagnostics.push_str(&format!(
                    "{}[{}]: at `{key_text}`: {}\n",
                    problem.severity(db).as_str(),
                    problem.code(),
                    problem.message(db)
                ));
            }
            error |= step.has_errors(db);
            ty = step.ty;
        }
        let answer = format!(
            "{{\"type\": {}, \"error\": {error}}}",
            json(display(db, ty))
        );
        Ok((answer, diagnostics, !error))
    }

    /// One traversal key: `.name`, `[N]`, `["s"]` or `[<T>]`.
    fn parse_key(&self, text: &str) -> Result<TraverseKey<'db>, String> {
        let malformed = |why: &str| {
            format!(
                "error: invalid key `{text}`: {why}; expected `.name`, `[N]`, `[\"s\"]` or `[<T>]`"
            )
        };
        if let Some(name) = text.strip_prefix('.') {
            // `.0` is HCL's legacy index syntax: a number key, as `[0]`.
            if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
                let number =
                    pcl_syntax::ast::NumberValue::parse(name).map_err(|e| malformed(&e))?;
                return Ok(TraverseKey::Literal(ConstValue::Number(number)));
            }
            if !pcl_syntax::is_identifier(name) {
                return Err(malformed("not an identifier"));
            }
            return Ok(TraverseKey::Attr(name.into()));
        }
        let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
            return Err(malformed("not a key"));
        };
        let inner = inner.trim();
        if let Some(ty) = inner.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
            return Ok(TraverseKey::Unknown(self.parse("key type", ty)?));
        }
        if let Some(quoted) = inner.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            let value = pcl_syntax::ast::unescape_quoted(quoted);
            return Ok(TraverseKey::Literal(ConstValue::String(
                smol_str::SmolStr::new(value),
            )));
        }
        let number =
            pcl_syntax::ast::NumberValue::parse_signed(inner).map_err(|e| malformed(&e))?;
        Ok(TraverseKey::Literal(ConstValue::Number(number)))
    }
}

/// A JSON string literal.
fn json(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}
