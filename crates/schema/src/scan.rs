//! A skimming reader for the top level of a schema file. It decodes the few top-level
//! fields the index needs (`name`, `version`, `meta`) and, for `resources`, `functions`,
//! `types`, `provider` and `config`, only finds where each item's JSON starts and ends, by
//! matching brackets and strings, without building or validating the items. Items are
//! decoded (and their syntax checked) one at a time when asked for.

use std::borrow::Cow;

use serde::Deserialize;

use crate::error::strip_position;
use crate::index::Span;

/// What the skim finds.
#[derive(Default)]
pub(crate) struct TopLevel<'a> {
    pub(crate) name: Option<String>,
    pub(crate) version: Option<String>,
    pub(crate) module_format: Option<String>,
    /// Tokens and spans, in file order.
    pub(crate) resources: Vec<(Cow<'a, str>, Span)>,
    pub(crate) functions: Vec<(Cow<'a, str>, Span)>,
    pub(crate) types: Vec<(Cow<'a, str>, Span)>,
    pub(crate) provider: Option<Span>,
    pub(crate) config: Option<Span>,
}

/// A problem found while skimming: where (byte offset, and a JSON pointer when the
/// problem is a field's type), and what.
pub(crate) struct ScanError {
    pub(crate) offset: usize,
    pub(crate) pointer: Option<&'static str>,
    pub(crate) message: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Meta {
    #[serde(default)]
    module_format: Option<String>,
}

/// Skim a schema file.
pub(crate) fn scan(text: &str) -> Result<TopLevel<'_>, ScanError> {
    let mut scanner = Scanner {
        text,
        bytes: text.as_bytes(),
        pos: 0,
    };
    let mut top = TopLevel::default();
    scanner.expect(b'{', "expected the schema to be a JSON object")?;
    if !scanner.eat(b'}') {
        loop {
            let key = scanner.string()?;
            scanner.expect(b':', "expected `:` after an object key")?;
            match &*key {
                "name" => top.name = Some(scanner.field_string("/name")?),
                "version" => top.version = Some(scanner.field_string("/version")?),
                "meta" => {
                    let span = scanner.skip_value()?;
                    let meta: Meta =
                        serde_json::from_str(&text[span.start..span.end]).map_err(|e| {
                            ScanError {
                                offset: span.start,
                                pointer: Some("/meta"),
                                message: strip_position(&e.to_string()),
                            }
                        })?;
                    top.module_format = meta.module_format;
                }
                "resources" => top.resources = scanner.section("/resources")?,
                "functions" => top.functions = scanner.section("/functions")?,
                "types" => top.types = scanner.section("/types")?,
                "provider" => top.provider = Some(scanner.skip_value()?),
                "config" => top.config = Some(scanner.skip_value()?),
                _ => {
                    scanner.skip_value()?;
                }
            }
            if scanner.eat(b'}') {
                break;
            }
            scanner.expect(
                b',',
                "expected `,` or `}` after a field of the schema object",
            )?;
        }
    }
    scanner.skip_space();
    if scanner.pos < scanner.bytes.len() {
        return Err(scanner.error("unexpected text after the schema object"));
    }
    Ok(top)
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Scanner<'a> {
    fn error(&self, message: &str) -> ScanError {
        ScanError {
            offset: self.pos,
            pointer: None,
            message: message.to_owned(),
        }
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        let found = self.bytes.get(self.pos) == Some(&byte);
        if found {
            self.pos += 1;
        }
        found
    }

    fn expect(&mut self, byte: u8, message: &str) -> Result<(), ScanError> {
        if self.eat(byte) {
            Ok(())
        } else {
            Err(self.error(message))
        }
    }

    /// A string, unescaped.
    fn string(&mut self) -> Result<Cow<'a, str>, ScanError> {
        self.skip_space();
        if self.bytes.get(self.pos) != Some(&b'"') {
            return Err(self.error("expected a string"));
        }
        let start = self.pos;
        let escaped = self.skip_string()?;
        let inner = &self.text[start + 1..self.pos - 1];
        if !escaped {
            return Ok(Cow::Borrowed(inner));
        }
        serde_json::from_str::<String>(&self.text[start..self.pos])
            .map(Cow::Owned)
            .map_err(|e| ScanError {
                offset: start,
                pointer: None,
                message: e.to_string(),
            })
    }

    /// A field whose value must be a string.
    fn field_string(&mut self, pointer: &'static str) -> Result<String, ScanError> {
        self.skip_space();
        if self.bytes.get(self.pos) != Some(&b'"') {
            let offset = self.pos;
            return Err(ScanError {
                offset,
                pointer: Some(pointer),
                message: "expected a string".to_owned(),
            });
        }
        Ok(self.string()?.into_owned())
    }

    /// Skip a string starting at `pos`; whether it has escapes.
    fn skip_string(&mut self) -> Result<bool, ScanError> {
        let start = self.pos;
        self.pos += 1;
        let mut escaped = false;
        loop {
            let rest = &self.bytes[self.pos..];
            let Some(at) = rest.iter().position(|b| matches!(b, b'"' | b'\\')) else {
                self.pos = start;
                return Err(self.error("unterminated string"));
            };
            self.pos += at;
            if self.bytes[self.pos] == b'"' {
                self.pos += 1;
                return Ok(escaped);
            }
            escaped = true;
            self.pos += 2;
            if self.pos > self.bytes.len() {
                self.pos = start;
                return Err(self.error("unterminated string"));
            }
        }
    }

    /// Skip one value; where it was.
    fn skip_value(&mut self) -> Result<Span, ScanError> {
        self.skip_space();
        let start = self.pos;
        match self.bytes.get(self.pos) {
            None => return Err(self.error("expected a value, found the end of the file")),
            Some(b'"') => {
                self.skip_string()?;
            }
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                loop {
                    match self.bytes.get(self.pos) {
                        None => {
                            self.pos = start;
                            return Err(self.error("this object or array is never closed"));
                        }
                        Some(b'"') => {
                            self.skip_string()?;
                            continue;
                        }
                        Some(b'{' | b'[') => depth += 1,
                        Some(b'}' | b']') => {
                            depth -= 1;
                            if depth == 0 {
                                self.pos += 1;
                                break;
                            }
                        }
                        Some(_) => {}
                    }
                    self.pos += 1;
                }
            }
            Some(b'}' | b']' | b',' | b':') => return Err(self.error("expected a value")),
            Some(_) => {
                while let Some(byte) = self.bytes.get(self.pos) {
                    if matches!(byte, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                        break;
                    }
                    self.pos += 1;
                }
            }
        }
        Ok(Span {
            start,
            end: self.pos,
        })
    }

    /// `{"token": {...}, ...}`: each item's span.
    fn section(&mut self, pointer: &'static str) -> Result<Vec<(Cow<'a, str>, Span)>, ScanError> {
        self.skip_space();
        if self.bytes.get(self.pos) != Some(&b'{') {
            let offset = self.pos;
            let message = "expected an object mapping tokens to definitions".to_owned();
            return Err(ScanError {
                offset,
                pointer: Some(pointer),
                message,
            });
        }
        self.pos += 1;
        let mut items = Vec::new();
        if self.eat(b'}') {
            return Ok(items);
        }
        loop {
            let token = self.string()?;
            self.expect(b':', "expected `:` after a token")?;
            let span = self.skip_value()?;
            items.push((token, span));
            if self.eat(b'}') {
                return Ok(items);
            }
            self.expect(b',', "expected `,` or `}` between items")?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::scan;

    /// Every way the skim can fail, with where it says the problem is.
    #[test]
    fn scan_errors() {
        let cases = [
            ("", "0: expected the schema to be a JSON object"),
            ("[1]", "0: expected the schema to be a JSON object"),
            ("{\"name\" 1}", "8: expected `:` after an object key"),
            ("{name: 1}", "1: expected a string"),
            ("{\"name\": 1}", "9 /name: expected a string"),
            (
                "{\"version\": true, \"name\": \"x\"}",
                "12 /version: expected a string",
            ),
            (
                "{\"name\": \"x\" \"types\": {}}",
                "13: expected `,` or `}` after a field of the schema object",
            ),
            (
                "{\"name\": \"x\"} trailing",
                "14: unexpected text after the schema object",
            ),
            ("{\"name\": \"x", "9: unterminated string"),
            (
                "{\"name\": \"x\", \"types\": []}",
                "23 /types: expected an object mapping tokens to definitions",
            ),
            (
                "{\"name\": \"x\", \"types\": {\"t\" {}}}",
                "28: expected `:` after a token",
            ),
            (
                "{\"name\": \"x\", \"types\": {\"t\": {} \"u\": {}}}",
                "32: expected `,` or `}` between items",
            ),
            (
                "{\"name\": \"x\", \"types\": {\"t\": {\"a\": [}",
                "29: this object or array is never closed",
            ),
            (
                "{\"name\": \"x\", \"types\": {\"t\": }}",
                "29: expected a value",
            ),
            (
                "{\"name\": \"x\", \"provider\":",
                "25: expected a value, found the end of the file",
            ),
            (
                "{\"meta\": {\"moduleFormat\": 3}}",
                "9 /meta: invalid type: integer `3`, expected a string",
            ),
        ];
        for (text, expected) in cases {
            let error = match scan(text) {
                Ok(_) => panic!("{text:?} skims without error"),
                Err(error) => error,
            };
            let pointer = error.pointer.map(|p| format!(" {p}")).unwrap_or_default();
            assert_eq!(
                format!("{}{pointer}: {}", error.offset, error.message),
                expected,
                "{text:?}"
            );
        }
        let top = scan("{\"name\": \"a\\u0062\", \"types\": {\"x\\\\y\": {\"z\": \"}\"}}, \"other\": [1, {\"]\": 2}]}")
            .unwrap_or_else(|e| panic!("valid schema: {}", e.message));
        assert_eq!(top.name.as_deref(), Some("ab"));
        assert_eq!(top.types.len(), 1);
        assert_eq!(top.types[0].0, "x\\y");
    }
}
