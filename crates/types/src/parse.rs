//! The parser for type strings in the reference's display syntax, as config type labels
//! and the CLI write them: `string`, `list(map(int))`, `union(int, none)`,
//! `object({a = int, "b c" = string})`, `optional(T)`, `type(aws:index:ARN)`, opaque names
//! such as `Archive`, constants (`cty.StringVal("x")`) and enums. What it accepts,
//! `display` prints back in normal form.

use pcl_diagnostics::{Anchor, Diagnostic, codes};
use pcl_syntax::ast::NumberValue;
use smol_str::SmolStr;

use crate::{ConstValue, Db, Name, Ty};

/// A malformed type string: what is wrong, and the 1-based character column.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TypeParseError {
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for TypeParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for TypeParseError {}

impl TypeParseError {
    /// The error as a diagnostic about the type string that `origin` names (a config
    /// declaration, a command-line argument).
    pub fn to_diagnostic(&self, origin: &str) -> Diagnostic {
        let anchor = Anchor::Place {
            origin: origin.to_owned(),
            location: format!("column {}", self.column),
        };
        Diagnostic::error(codes::INVALID_TYPE_STRING, self.message.clone(), anchor)
    }
}

/// Parse a type string.
pub fn parse_type<'db>(db: &'db dyn Db, text: &str) -> Result<Ty<'db>, TypeParseError> {
    parse_type_with(db, text, &|_| None)
}

/// Parse a type string; `resolve_name` gives the type of a bare name that is not a
/// builtin (schema object types, say) before it is taken as an opaque type.
pub fn parse_type_with<'db>(
    db: &'db dyn Db,
    text: &str,
    resolve_name: &dyn Fn(&str) -> Option<Ty<'db>>,
) -> Result<Ty<'db>, TypeParseError> {
    let mut parser = Parser {
        db,
        text,
        pos: 0,
        depth: 0,
        resolve_name,
    };
    let ty = parser.ty()?;
    parser.skip_space();
    if parser.pos < text.len() {
        return Err(parser.error("expected the end of the type"));
    }
    Ok(ty)
}

/// How deeply types may nest before the parser gives up, to keep the stack bounded.
const MAX_DEPTH: usize = 256;

/// Builtin type names and type constructors, for "did you mean" suggestions.
const KNOWN_NAMES: [&str; 17] = [
    "bool", "int", "number", "string", "dynamic", "none", "id", "list", "map", "set", "tuple",
    "object", "union", "optional", "promise", "output", "enum",
];

struct Parser<'a, 'db> {
    db: &'db dyn Db,
    text: &'a str,
    pos: usize,
    depth: usize,
    resolve_name: &'a dyn Fn(&str) -> Option<Ty<'db>>,
}

impl<'a, 'db> Parser<'a, 'db> {
    fn error(&self, message: impl Into<String>) -> TypeParseError {
        self.error_at(self.pos, message)
    }

    fn error_at(&self, pos: usize, message: impl Into<String>) -> TypeParseError {
        let column = self.text[..pos.min(self.text.len())].chars().count() + 1;
        TypeParseError {
            column,
            message: message.into(),
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.rest().chars().next()
    }

    /// Consume `expected` (after spaces) or fail saying what was expected.
    fn expect(&mut self, expected: char) -> Result<(), TypeParseError> {
        match self.peek() {
            Some(c) if c == expected => {
                self.pos += c.len_utf8();
                Ok(())
            }
            Some(c) => Err(self.error(format!("expected `{expected}`, found `{c}`"))),
            None => Err(self.error(format!("expected `{expected}`, found the end of the type"))),
        }
    }

    fn eat(&mut self, expected: char) -> bool {
        let found = self.peek() == Some(expected);
        if found {
            self.pos += expected.len_utf8();
        }
        found
    }

    /// A name: identifier characters, plus `.` so that `cty.StringVal` is one name.
    fn name(&mut self) -> &'a str {
        self.skip_space();
        let rest = self.rest();
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '.'))
            .unwrap_or(rest.len());
        self.pos += len;
        &rest[..len]
    }

    fn ty(&mut self) -> Result<Ty<'db>, TypeParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(format!(
                "type nested too deeply (more than {MAX_DEPTH} levels)"
            )));
        }
        self.depth += 1;
        let ty = self.ty_inner();
        self.depth -= 1;
        ty
    }

    fn ty_inner(&mut self) -> Result<Ty<'db>, TypeParseError> {
        let db = self.db;
        self.skip_space();
        let start = self.pos;
        let name = self.name();
        if name.is_empty() {
            return Err(match self.peek() {
                Some(c) => self.error(format!("expected a type, found `{c}`")),
                None => self.error("expected a type, found the end of the type"),
            });
        }
        if let Some(constant) = name.strip_prefix("cty.") {
            return self.constant(start, constant).map(|value| {
                let underlying = Ty::of_value(db, &value);
                Ty::constant(db, underlying, value)
            });
        }
        let simple = match name {
            "bool" => Some(Ty::bool(db)),
            "int" => Some(Ty::int(db)),
            "number" => Some(Ty::number(db)),
            "string" => Some(Ty::string(db)),
            "dynamic" => Some(Ty::dynamic(db)),
            "none" => Some(Ty::none(db)),
            "id" => Some(Ty::id(db)),
            _ => None,
        };
        if let Some(ty) = simple {
            return Ok(ty);
        }
        let constructor = matches!(
            name,
            "list"
                | "map"
                | "set"
                | "promise"
                | "output"
                | "optional"
                | "tuple"
                | "union"
                | "object"
                | "type"
                | "enum"
        );
        if !constructor {
            return self.named(start, name);
        }
        self.expect('(')?;
        let ty = match name {
            "list" => Ty::list(db, self.ty()?),
            "map" => Ty::map(db, self.ty()?),
            "set" => Ty::set(db, self.ty()?),
            "promise" => Ty::promise(db, self.ty()?),
            "output" => Ty::output(db, self.ty()?),
            "optional" => Ty::optional(db, self.ty()?),
            "tuple" => Ty::tuple(db, self.list_of_types()?),
            "union" => Ty::union(db, self.list_of_types()?),
            "object" if self.peek() == Some('{') => self.object()?,
            "object" => self.named_object()?,
            "type" => self.opaque_in_parens()?,
            _ => self.enumeration()?,
        };
        if name != "tuple" && name != "union" && name != "type" {
            self.expect(')')?;
        }
        Ok(ty)
    }

    /// A bare name that is neither a builtin nor a constructor.
    fn named(&mut self, start: usize, name: &str) -> Result<Ty<'db>, TypeParseError> {
        if let Some(ty) = (self.resolve_name)(name) {
            return Ok(ty);
        }
        if name.starts_with(|c: char| c.is_ascii_uppercase()) {
            return Ok(Ty::opaque(self.db, name));
        }
        let mut message = format!("unknown type `{name}`");
        if let Some(suggestion) = crate::closest_name(name, KNOWN_NAMES) {
            message.push_str(&format!("; did you mean `{suggestion}`?"));
        } else {
            message.push_str(
                "; expected a builtin (bool, int, number, string, dynamic, none), a constructor \
                 such as list(T) or object({a = T}), or an opaque name starting with an uppercase letter",
            );
        }
        Err(self.error_at(start, message))
    }

    /// `T, U, ...)` with the closing parenthesis; empty lists allowed.
    fn list_of_types(&mut self) -> Result<Vec<Ty<'db>>, TypeParseError> {
        let mut types = Vec::new();
        if self.eat(')') {
            return Ok(types);
        }
        loop {
            types.push(self.ty()?);
            if self.eat(')') {
                return Ok(types);
            }
            self.expect(',')?;
        }
    }

    /// `{a = T, "b" = U}` inside `object(...)`.
    fn object(&mut self) -> Result<Ty<'db>, TypeParseError> {
        self.expect('{')?;
        let mut properties = Vec::new();
        if !self.eat('}') {
            loop {
                let key = if self.peek() == Some('"') {
                    self.quoted()?
                } else {
                    let key = self.name();
                    if key.is_empty() {
                        return Err(self.error("expected a property name"));
                    }
                    Name::from(key)
                };
                if !self.eat(':') {
                    self.expect('=')?;
                }
                properties.push((key, self.ty()?));
                if self.eat('}') {
                    break;
                }
                self.expect(',')?;
                if self.eat('}') {
                    break;
                }
            }
        }
        Ok(Ty::object(self.db, properties))
    }

    /// `Token` or `Token, input` inside `object(...)`: a schema object type, as displayed.
    fn named_object(&mut self) -> Result<Ty<'db>, TypeParseError> {
        self.skip_space();
        let start = self.pos;
        let rest = self.rest();
        let end = rest.find([',', ')']).unwrap_or(rest.len());
        let token = rest[..end].trim();
        self.pos += end;
        let Some(ty) = (self.resolve_name)(token) else {
            return Err(self.error_at(start, format!("unknown schema object type `{token}`")));
        };
        if !self.eat(',') {
            return Ok(ty);
        }
        let flavour_at = self.pos;
        if self.name() != "input" {
            return Err(self.error_at(flavour_at, "expected `input` after the object's token"));
        }
        Ok(crate::input_type(self.db, ty))
    }

    /// `type(name)`: an opaque type whose name is any text up to the closing parenthesis.
    fn opaque_in_parens(&mut self) -> Result<Ty<'db>, TypeParseError> {
        let rest = self.rest();
        let Some(end) = rest.find(')') else {
            return Err(self.error_at(self.text.len(), "expected `)` to close `type(`"));
        };
        let name = rest[..end].trim();
        if name.is_empty() {
            return Err(self.error("expected a type name inside `type(...)`"));
        }
        self.pos += end + 1;
        Ok(Ty::opaque(self.db, name))
    }

    /// `token(underlying): v1,v2` inside `enum(...)`.
    fn enumeration(&mut self) -> Result<Ty<'db>, TypeParseError> {
        self.skip_space();
        let rest = self.rest();
        let Some(open) = rest.find('(') else {
            return Err(self.error("expected `token(type): values` inside `enum(...)`"));
        };
        let token = rest[..open].trim();
        self.pos += open + 1;
        let underlying = self.ty()?;
        self.expect(')')?;
        self.expect(':')?;
        let mut values = Vec::new();
        loop {
            let start = self.pos;
            let name = self.name();
            let Some(constant) = name.strip_prefix("cty.") else {
                return Err(
                    self.error_at(start, "expected an enum value such as cty.StringVal(\"a\")")
                );
            };
            values.push(self.constant(start, constant)?);
            if !self.eat(',') {
                break;
            }
        }
        Ok(Ty::enumeration(self.db, token, underlying, values))
    }

    /// A cty value in Go syntax, after `cty.`.
    fn constant(&mut self, start: usize, name: &str) -> Result<ConstValue, TypeParseError> {
        let value = match name {
            "True" => ConstValue::Bool(true),
            "False" => ConstValue::Bool(false),
            "NullVal" => {
                self.expect('(')?;
                let inner = self.name();
                if inner != "cty.DynamicPseudoType" {
                    return Err(self.error("expected `cty.DynamicPseudoType`"));
                }
                self.expect(')')?;
                ConstValue::Null
            }
            "StringVal" => {
                self.expect('(')?;
                let text = self.quoted()?;
                self.expect(')')?;
                ConstValue::String(SmolStr::new(&*text))
            }
            "NumberIntVal" | "NumberUIntVal" => {
                self.expect('(')?;
                let number = self.number()?;
                self.expect(')')?;
                ConstValue::Number(number)
            }
            "NumberFloatVal" => {
                self.expect('(')?;
                self.skip_space();
                let at = self.pos;
                let number = self.number()?;
                let exact = crate::value::decimal_text(&number)
                    .parse::<f64>()
                    .ok()
                    .and_then(crate::value::number_from_f64)
                    .ok_or_else(|| self.error_at(at, "expected a finite float64"))?;
                self.expect(')')?;
                ConstValue::Number(exact)
            }
            "MustParseNumberVal" => {
                self.expect('(')?;
                self.skip_space();
                let at = self.pos;
                let text = self.quoted()?;
                let number = parse_number(&text).map_err(|message| self.error_at(at, message))?;
                self.expect(')')?;
                ConstValue::Number(number)
            }
            _ => {
                return Err(self.error_at(
                    start,
                    format!(
                        "unknown constant `cty.{name}`; expected cty.True, cty.False, \
                         cty.StringVal, cty.NumberIntVal, cty.NumberFloatVal or cty.NullVal"
                    ),
                ));
            }
        };
        Ok(value)
    }

    fn number(&mut self) -> Result<NumberValue, TypeParseError> {
        self.skip_space();
        let rest = self.rest();
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')))
            .unwrap_or(rest.len());
        let at = self.pos;
        self.pos += len;
        parse_number(&rest[..len]).map_err(|message| self.error_at(at, message))
    }

    /// A Go-quoted string.
    fn quoted(&mut self) -> Result<Name, TypeParseError> {
        self.skip_space();
        let start = self.pos;
        let mut chars = self.rest().char_indices();
        if !matches!(chars.next(), Some((_, '"'))) {
            return Err(self.error("expected a quoted string"));
        }
        let mut out = String::new();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(Name::from(out));
                }
                '\\' => {
                    let escape = chars.next().map(|(_, c)| c);
                    let simple = match escape {
                        Some('a') => Some('\u{7}'),
                        Some('b') => Some('\u{8}'),
                        Some('f') => Some('\u{c}'),
                        Some('n') => Some('\n'),
                        Some('r') => Some('\r'),
                        Some('t') => Some('\t'),
                        Some('v') => Some('\u{b}'),
                        Some(c @ ('"' | '\\' | '\'')) => Some(c),
                        _ => None,
                    };
                    let hex_digits = match escape {
                        Some('x') => 2,
                        Some('u') => 4,
                        Some('U') => 8,
                        _ => 0,
                    };
                    let decoded = simple.or_else(|| {
                        if hex_digits == 0 {
                            return None;
                        }
                        let digits: String = (0..hex_digits)
                            .filter_map(|_| chars.next().map(|(_, c)| c))
                            .collect();
                        u32::from_str_radix(&digits, 16)
                            .ok()
                            .filter(|_| digits.len() == hex_digits)
                            .and_then(char::from_u32)
                    });
                    match decoded {
                        Some(c) => out.push(c),
                        None => {
                            return Err(self.error_at(
                                start + i,
                                "unsupported escape in string; expected one of \\a \\b \\f \\n \\r \\t \\v \\\\ \\\" \\xNN \\uNNNN \\UNNNNNNNN",
                            ));
                        }
                    }
                }
                c => out.push(c),
            }
        }
        Err(self.error_at(start, "unterminated string"))
    }
}

/// A decimal number with optional sign, fraction and exponent, held exactly.
pub(crate) fn parse_number(text: &str) -> Result<NumberValue, String> {
    NumberValue::parse_signed(text).map_err(|e| format!("invalid number `{text}`: {e}"))
}
