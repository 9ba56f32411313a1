//! What stack checks (`pcl-project`) need from a program: its `config` blocks with their
//! types, requiredness, secrecy and logical names, and a provider's configuration
//! variables from its schema.

use pcl_diagnostics::{FileId, Span};
use pcl_project::{ConfigType, ProgramConfig, ProviderConfig};
use pcl_schema::{ItemKind, SchemaItem, config_types, package_named};
use pcl_sema::{BlockId, DeclKind, Expr, infer, program_decls, program_graph};
use pcl_types::{Ty, TyKind};
use smol_str::SmolStr;

use crate::RootDatabase;
use crate::analysis::{Analysis, Cancellable, site_range};
use crate::host::ProgramId;

impl Analysis {
    /// The program's `config` blocks. A label's `FileId(i)` is the program's i-th file, as
    /// in [`Analysis::program_diagnostics`].
    pub fn program_configs(&self, id: &ProgramId) -> Cancellable<Vec<ProgramConfig>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let Some(program) = self.program_of(id) else {
                return Vec::new();
            };
            for &decl in program_graph(db, program).order.iter() {
                let _ = pcl_sema::decl_ty(db, decl);
            }
            let files = program.files(db);
            let mut configs = Vec::new();
            for &decl in program_decls(db, program).iter() {
                if decl.kind(db) != DeclKind::Config {
                    continue;
                }
                let Some(index) = files.iter().position(|&f| f == decl.file(db)) else {
                    continue;
                };
                let Some(range) =
                    site_range(db, pcl_sema::Located::new(decl, pcl_sema::Site::Name))
                else {
                    continue;
                };
                let body = pcl_sema::body(db, decl);
                let literal = |name: &str| {
                    body.find_attr(BlockId::ROOT, name)
                        .map(|attr| body.expr(body.attr(attr).value))
                };
                let name = decl.name(db).to_string();
                let logical_name = match literal("__logicalName") {
                    Some(Expr::String(s)) => s.to_string(),
                    _ => name.clone(),
                };
                let secret = matches!(literal("secret"), Some(Expr::Bool(true)));
                let result = infer(db, decl);
                configs.push(ProgramConfig {
                    name,
                    logical_name,
                    ty: config_type(db, result.value_ty, 0),
                    required: result.required,
                    secret,
                    label: Span {
                        file: FileId(index as u32),
                        range,
                    },
                });
            }
            configs
        })
    }

    /// A loaded package's configuration variables; `None` when no schema of it is loaded.
    pub fn provider_config(&self, package: &str) -> Cancellable<Option<ProviderConfig>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let source = package_named(db, package)?;
            let item = SchemaItem::new(db, source, ItemKind::Config, SmolStr::default());
            let config = config_types(db, item).as_ref().ok()?;
            Some(ProviderConfig {
                variables: (config.variables.iter())
                    .map(|v| (v.name.to_string(), config_type(db, v.ty, 0)))
                    .collect(),
            })
        })
    }
}

/// A type as stack values are checked against it; what it cannot describe is dynamic.
fn config_type<'db>(db: &'db RootDatabase, ty: Ty<'db>, depth: u32) -> ConfigType {
    if depth > 16 {
        return ConfigType::Dynamic;
    }
    let inner = |t: Ty<'db>| Box::new(config_type(db, t, depth + 1));
    match ty.kind(db) {
        TyKind::Bool => ConfigType::Bool,
        TyKind::Int => ConfigType::Int,
        TyKind::Number => ConfigType::Number,
        TyKind::String | TyKind::Id => ConfigType::String,
        TyKind::List(e) | TyKind::Set(e) => ConfigType::List(inner(*e)),
        TyKind::Map(e) => ConfigType::Map(inner(*e)),
        TyKind::Output(t) | TyKind::Promise(t) | TyKind::Const(t, _) => config_type(db, *t, depth),
        TyKind::Enum(e) => config_type(db, e.underlying, depth),
        TyKind::Union(members) => {
            let mut rest = members
                .iter()
                .filter(|m| !matches!(m.kind(db), TyKind::None));
            match (rest.next(), rest.next()) {
                (Some(&only), None) => config_type(db, only, depth),
                _ => ConfigType::Dynamic,
            }
        }
        TyKind::Object(_) | TyKind::Named(_) => match pcl_types::object_properties(db, ty) {
            Some(fields) => ConfigType::Object(
                fields
                    .iter()
                    .map(|(n, t)| (n.to_string(), config_type(db, *t, depth + 1)))
                    .collect(),
            ),
            None => ConfigType::Dynamic,
        },
        _ => ConfigType::Dynamic,
    }
}
