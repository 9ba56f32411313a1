//! Every diagnostic code pcl reports, by stage. `docs/diagnostics.md` explains each one
//! with an example (`pcl explain CODE` prints that entry), and a test keeps the two in
//! step. Codes are never renumbered or reused.

use crate::Code;

macro_rules! codes {
    ($($(#[doc = $doc:literal])* $ident:ident = $number:literal $name:literal;)*) => {
        $($(#[doc = $doc])* pub const $ident: Code = Code::new($number, $name);)*
        /// Every code, in numeric order.
        pub const ALL: &[Code] = &[$($ident),*];
    };
}

codes! {
    // Syntax: the lexer and the parser (`pcl-syntax`).
    /// A character that starts no token.
    INVALID_CHARACTER = 1001 "invalid-character";
    /// A quoted string or template without its closing quote.
    UNTERMINATED_STRING = 1002 "unterminated-string";
    /// A token where nothing of its kind can stand.
    UNEXPECTED_TOKEN = 1003 "unexpected-token";
    /// A required token is missing.
    EXPECTED_TOKEN = 1004 "expected-token";
    /// A bracket, block or template interpolation that is never closed.
    UNCLOSED_DELIMITER = 1005 "unclosed-delimiter";
    /// A closing bracket of the wrong kind.
    MISMATCHED_DELIMITER = 1006 "mismatched-delimiter";
    /// An escape sequence the language does not have.
    INVALID_ESCAPE = 1007 "invalid-escape";
    /// A heredoc without its closing marker line.
    UNTERMINATED_HEREDOC = 1008 "unterminated-heredoc";
    /// Brackets, blocks or templates nested beyond the parser's limit.
    NESTED_TOO_DEEPLY = 1009 "nested-too-deeply";
    /// An attribute set twice in one body.
    DUPLICATE_ATTRIBUTE = 1010 "duplicate-attribute";
    /// A malformed template directive (`%{if}`, `%{for}`, `%{else}`, `%{endif}`, `%{endfor}`).
    INVALID_TEMPLATE_DIRECTIVE = 1011 "invalid-template-directive";
    /// An item or value that must end its line does not.
    MISSING_NEWLINE = 1012 "missing-newline";
    /// A line break where the item must go on.
    UNEXPECTED_NEWLINE = 1013 "unexpected-newline";
    /// A malformed number, splat, index or call argument list.
    INVALID_EXPRESSION = 1014 "invalid-expression";
    /// The parser stopped making progress and gave up on the rest of the file.
    PARSER_STOPPED = 1015 "parser-stopped";
    /// A source file that is not UTF-8.
    INVALID_ENCODING = 1016 "invalid-encoding";

    // Schemas: finding, reading, indexing and lowering Pulumi package schemas (`pcl-schema`).
    /// A schema file is not valid JSON.
    SCHEMA_JSON_SYNTAX = 2001 "schema-json-syntax";
    /// A schema field has the wrong JSON type, or a required field is missing.
    SCHEMA_INVALID_FIELD = 2002 "schema-invalid-field";
    /// A type definition in a schema cannot be lowered to a PCL type.
    SCHEMA_INVALID_TYPE = 2003 "schema-invalid-type";
    /// A `$ref` names a type or resource the package does not define.
    SCHEMA_DANGLING_REFERENCE = 2004 "schema-dangling-reference";
    /// A resource method names a function that cannot implement it.
    SCHEMA_INVALID_METHOD = 2005 "schema-invalid-method";
    /// A schema's `meta.moduleFormat` is not a usable regular expression.
    SCHEMA_INVALID_MODULE_FORMAT = 2006 "schema-invalid-module-format";
    /// No schema on the search path for a package.
    PACKAGE_NOT_FOUND = 2007 "package-not-found";
    /// Not a valid package name.
    INVALID_PACKAGE_NAME = 2008 "invalid-package-name";
    /// A schema file cannot be read or is not UTF-8.
    SCHEMA_UNREADABLE = 2009 "schema-unreadable";
    /// A token names no resource, function or type of its package.
    UNKNOWN_SCHEMA_TOKEN = 2010 "unknown-schema-token";
    /// An unversioned package checked against a cached schema of another version than its installed plugin's.
    SCHEMA_VERSION_SUBSTITUTED = 2011 "schema-version-substituted";
    /// `--fetch-schemas` ran `pulumi package get-schema`, and it failed.
    SCHEMA_FETCH_FAILED = 2012 "schema-fetch-failed";
    /// `--fetch-schemas` was asked for, and the `pulumi` CLI is not on PATH.
    PULUMI_CLI_MISSING = 2013 "pulumi-cli-missing";

    // Types: type strings and traversal (`pcl-types`).
    /// A type string that does not parse.
    INVALID_TYPE_STRING = 3001 "invalid-type-string";
    /// An attribute that the object type does not have.
    UNKNOWN_PROPERTY = 3002 "unknown-property";
    /// An attribute that differs from a property only in case.
    PROPERTY_CASE_MISMATCH = 3003 "property-case-mismatch";
    /// A tuple index outside the tuple.
    INDEX_OUT_OF_RANGE = 3004 "index-out-of-range";
    /// An index or key of a type the collection does not take.
    INVALID_INDEX = 3005 "invalid-index";
    /// A value whose type has no attributes or elements.
    NOT_TRAVERSABLE = 3006 "not-traversable";

    // Semantics: binding and checking whole programs (`pcl-sema`).
    /// A name that no declaration, builtin or local variable defines.
    UNDEFINED_NAME = 4001 "undefined-name";
    /// Two declarations with the same name in one program.
    DUPLICATE_DECLARATION = 4002 "duplicate-declaration";
    /// Declarations whose values refer to each other in a cycle.
    REFERENCE_CYCLE = 4003 "reference-cycle";
    /// A top-level block that PCL does not know; it is ignored.
    UNKNOWN_BLOCK = 4004 "unknown-block";
    /// A block with the wrong number of labels.
    INVALID_LABELS = 4005 "invalid-labels";
    /// An attribute that the resource, component or block does not take.
    UNKNOWN_ATTRIBUTE = 4006 "unknown-attribute";
    /// A required input or attribute that is not set.
    MISSING_ATTRIBUTE = 4007 "missing-attribute";
    /// A value whose type does not convert to the type expected where it is used.
    TYPE_MISMATCH = 4008 "type-mismatch";
    /// A package for which no schema was found.
    UNKNOWN_PACKAGE = 4009 "unknown-package";
    /// A resource type that the package schema does not define.
    UNKNOWN_RESOURCE = 4010 "unknown-resource";
    /// A function that is neither a builtin nor defined by a package schema.
    UNKNOWN_FUNCTION = 4011 "unknown-function";
    /// A call with too few or too many arguments.
    WRONG_ARGUMENT_COUNT = 4012 "wrong-argument-count";
    /// A nested block that the enclosing block does not take, or one given twice.
    UNEXPECTED_BLOCK = 4013 "unexpected-block";
    /// A `for`, `range` or builtin over a value that is not a collection.
    NOT_ITERABLE = 4014 "not-iterable";
    /// An attribute that must be a literal (a string, a boolean) is not one.
    LITERAL_REQUIRED = 4015 "literal-required";
    /// A `component` whose source directory cannot be used.
    INVALID_COMPONENT = 4016 "invalid-component";
    /// Components that instantiate each other in a cycle.
    COMPONENT_CYCLE = 4017 "component-cycle";
    /// A resource or invoke whose schema is missing, checked as `dynamic` under `--skip-resource-typecheck`.
    TYPECHECK_SKIPPED = 4018 "typecheck-skipped";
    /// A `# pcl-ignore` comment that silences nothing.
    UNUSED_SUPPRESSION = 4019 "unused-suppression";
    /// A config type label that is not a type.
    INVALID_CONFIG_TYPE = 4020 "invalid-config-type";
    /// A builtin or `invoke`/`call` argument of the wrong shape.
    INVALID_ARGUMENT = 4021 "invalid-argument";
    /// A `package` block with a missing or malformed field.
    INVALID_PACKAGE_BLOCK = 4022 "invalid-package-block";
    /// A schema problem met while checking a program (a broken type or item).
    SCHEMA_PROBLEM = 4023 "schema-problem";
    /// A `requiredVersionRange` that is not a semver range.
    INVALID_VERSION_RANGE = 4024 "invalid-version-range";
    /// A second `pulumi` block in a program.
    DUPLICATE_PULUMI_BLOCK = 4025 "duplicate-pulumi-block";
    /// A provider resource that no resource uses (they get the default provider).
    UNUSED_PROVIDER = 4026 "unused-provider";
    /// A `notImplemented(...)` placeholder, which throws when the program runs.
    NOT_IMPLEMENTED = 4027 "not-implemented";
    /// `"logs-{env}"`: a declared name in braces without `$`, literal text (another
    /// language's interpolation).
    LITERAL_BRACES = 4028 "literal-braces";

    // Projects: `Pulumi.yaml` and stack files (`pcl-project`).
    /// A project or stack file that is not valid YAML or JSON.
    PROJECT_FILE_SYNTAX = 5001 "project-file-syntax";
    /// A project file without `name`, or with a field of the wrong shape.
    INVALID_PROJECT_FILE = 5002 "invalid-project-file";
    /// A stack file whose `config` (or another field) has the wrong shape.
    INVALID_STACK_FILE = 5003 "invalid-stack-file";
    /// A project whose runtime is not `pcl`: its stacks are not checked.
    OTHER_RUNTIME = 5004 "other-runtime";
    /// A stack config key without a namespace (`region` for `aws:region`), or otherwise malformed.
    INVALID_CONFIG_KEY = 5005 "invalid-config-key";
    /// A stack config key that no config block or provider variable declares.
    UNKNOWN_CONFIG_KEY = 5006 "unknown-config-key";
    /// A stack config value that cannot convert to the config's type.
    INVALID_CONFIG_VALUE = 5007 "invalid-config-value";
    /// A required config that a stack does not set.
    MISSING_CONFIG_VALUE = 5008 "missing-config-value";
    /// A plaintext value for a secret config.
    PLAINTEXT_SECRET = 5009 "plaintext-secret";
    /// A number with a fractional part for an `int` config.
    NON_INTEGER_CONFIG_VALUE = 5010 "non-integer-config-value";
    /// A file the program reads when it runs (`fileAsset`, `readFile`, ...) that is not there.
    MISSING_LOCAL_FILE = 5011 "missing-local-file";
    /// A file beside the project file named like a stack file that Pulumi does not read
    /// (`Pulumi.dev.yml` beside `Pulumi.yaml`).
    UNREAD_STACK_FILE = 5012 "unread-stack-file";
    /// A second project file beside the one Pulumi reads (`Pulumi.yaml` beside
    /// `Pulumi.json`).
    UNREAD_PROJECT_FILE = 5013 "unread-project-file";
}
