//! `pcl schema [--schema-dir DIR]... PACKAGE|TOKEN|FILE.json`: what a Pulumi package
//! schema offers. A package (by name, or a schema file) lists its resources, functions
//! and types with counts; a token prints its input and output types (resources), its
//! argument and result types (functions), or its definition (types), in type display
//! syntax with each property marked required or optional.
//!
//! Schemas are found in the `--schema-dir` directories, then in `PCL_SCHEMA_PATH`.
//! Exit 0 on success; 1 when the package or token is not found (with suggestions);
//! 2 for usage or IO errors and for invalid schemas.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use pcl_ide::RootDatabase;
use pcl_schema::{LoadError, SchemaLoader, SearchPath};

use crate::{print_err, print_out, usage_error_with};

const SCHEMA_USAGE: &str = "\
usage: pcl schema [--schema-dir DIR]... PACKAGE|TOKEN|FILE.json

  PACKAGE     list the package's resources, functions and types
  TOKEN       print a resource's input and output types, a function's argument and
              result types, or a type's definition (e.g. random:index/randomPet:RandomPet)
  FILE.json   list the package in that schema file

Schemas are looked up as NAME.json, NAME-VERSION.json or NAME/schema.json in each
--schema-dir, then in the directories of PCL_SCHEMA_PATH; the highest version wins.
";

pub(crate) fn run(args: &[String]) -> ExitCode {
    let mut dirs = Vec::new();
    let mut targets = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--help" | "-h" => {
                print_out(SCHEMA_USAGE);
                return ExitCode::SUCCESS;
            }
            "--schema-dir" => match args.next() {
                Some(dir) => dirs.push(PathBuf::from(dir)),
                None => return usage_error_with("`--schema-dir` needs a directory", SCHEMA_USAGE),
            },
            flag if flag.starts_with("--schema-dir=") => {
                dirs.push(PathBuf::from(&flag["--schema-dir=".len()..]));
            }
            flag if flag.starts_with('-') => {
                return usage_error_with(
                    &format!("unknown option `{flag}` for `pcl schema`"),
                    SCHEMA_USAGE,
                );
            }
            target => targets.push(target.to_owned()),
        }
    }
    let [target] = targets.as_slice() else {
        return usage_error_with(
            "`pcl schema` takes one PACKAGE, TOKEN or FILE.json",
            SCHEMA_USAGE,
        );
    };
    for dir in &dirs {
        if !dir.is_dir() {
            print_err(&format!(
                "error: schema directory {} does not exist\n",
                dir.display()
            ));
            return ExitCode::from(2);
        }
    }
    let mut db = RootDatabase::default();
    let mut loader = SchemaLoader::new(SearchPath::from_args_and_env(dirs));
    if target.ends_with(".json") || Path::new(target).is_file() {
        let source = match loader.load_file(&mut db, Path::new(target)) {
            Ok(source) => source,
            Err(error) => return load_failure(&error),
        };
        return package(&db, source);
    }
    if !target.contains(':') {
        return match loader.load(&mut db, target, None) {
            Ok(source) => package(&db, source),
            Err(error) => load_failure(&error),
        };
    }
    let Some(package_name) = pcl_schema::package_of(target) else {
        let message = pcl_schema::decompose(target).err().unwrap_or_default();
        print_err(&format!("error: {message}\n"));
        return ExitCode::from(2);
    };
    let source = match loader.load(&mut db, package_name, None) {
        Ok(source) => source,
        Err(error) => return load_failure(&error),
    };
    if let Err(error) = pcl_schema::package_index(&db, source) {
        print_err(&format!("error: {error}\n"));
        return ExitCode::from(2);
    }
    let Some((kind, token)) = pcl_schema::resolve_token(&db, source, target) else {
        let mut message = format!(
            "error: package `{package_name}` ({}) has no resource, function or type `{target}`",
            source.file(&db)
        );
        let suggestions = pcl_schema::suggest_tokens(&db, source, target);
        if !suggestions.is_empty() {
            let list: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
            message.push_str(&format!("; did you mean {}?", list.join(" or ")));
        }
        print_err(&format!("{message}\n"));
        return ExitCode::from(1);
    };
    match pcl_schema::describe_token(&db, source, kind, &token) {
        Ok((text, errors)) => {
            print_out(&text);
            for error in &errors {
                print_err(&format!("error: {error}\n"));
            }
            if errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            }
        }
        Err(error) => {
            print_err(&format!("error: {error}\n"));
            ExitCode::from(2)
        }
    }
}

fn package(db: &RootDatabase, source: pcl_schema::PackageSource) -> ExitCode {
    match pcl_schema::describe_package(db, source) {
        Ok(text) => {
            print_out(&text);
            ExitCode::SUCCESS
        }
        Err(error) => {
            print_err(&format!("error: {error}\n"));
            ExitCode::from(2)
        }
    }
}

/// Not found: exit 1; unreadable or invalid: exit 2.
fn load_failure(error: &LoadError) -> ExitCode {
    print_err(&format!("error: {error}\n"));
    match error {
        LoadError::NotFound { .. } => ExitCode::from(1),
        LoadError::InvalidName { .. } | LoadError::Io { .. } | LoadError::Schema(_) => {
            ExitCode::from(2)
        }
    }
}
