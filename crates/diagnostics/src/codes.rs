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
}
