//! Source files as bytes: a file that is not UTF-8 is read with each invalid byte
//! sequence replaced by U+FFFD, and its first one reported, as Pulumi's HCL lexer reports
//! "Invalid character encoding" and goes on, so the rest of the file is still checked.

use pcl_diagnostics::{Anchor, Diagnostic, FileId, Span, codes};
use rowan::{TextRange, TextSize};

/// Where a source file's bytes stopped being UTF-8: the first invalid sequence's place in
/// the decoded text (its U+FFFD), its bytes (one, or the start of a sequence cut short:
/// at most three), and how many invalid sequences the file has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvalidUtf8 {
    pub offset: TextSize,
    pub bytes: [u8; 3],
    pub len: u8,
    pub count: u32,
}

/// The text of a source file's `bytes`, each invalid UTF-8 sequence replaced by U+FFFD
/// (as `String::from_utf8_lossy` does), and where the first one was.
pub fn decode_source(bytes: Vec<u8>) -> (String, Option<InvalidUtf8>) {
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return (text, None),
        Err(error) => error.into_bytes(),
    };
    let mut text = String::with_capacity(bytes.len() + 16);
    let mut first: Option<InvalidUtf8> = None;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        let invalid = chunk.invalid();
        if invalid.is_empty() {
            continue;
        }
        match &mut first {
            Some(first) => first.count += 1,
            None => {
                let mut bytes = [0; 3];
                let len = invalid.len().min(3);
                bytes[..len].copy_from_slice(&invalid[..len]);
                first = Some(InvalidUtf8 {
                    offset: TextSize::try_from(text.len()).unwrap_or(TextSize::from(u32::MAX)),
                    bytes,
                    len: len as u8,
                    count: 1,
                });
            }
        }
        text.push(char::REPLACEMENT_CHARACTER);
    }
    (text, first)
}

impl InvalidUtf8 {
    /// The error, at the first invalid sequence's U+FFFD in `file`'s decoded text.
    pub fn to_diagnostic(self, file: FileId) -> Diagnostic {
        let end = self.offset + TextSize::of(char::REPLACEMENT_CHARACTER);
        let range = TextRange::new(self.offset, end);
        let bytes = &self.bytes[..usize::from(self.len)];
        let written: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
        let message = match bytes {
            [byte] => format!(
                "this file is not UTF-8: byte 0x{byte:02x} does not start a valid UTF-8 sequence"
            ),
            _ => format!(
                "this file is not UTF-8: bytes {} start a UTF-8 sequence that is cut short",
                written.join(" ")
            ),
        };
        let diagnostic = Diagnostic::error(
            codes::INVALID_ENCODING,
            message,
            Anchor::Span(Span { file, range }),
        );
        let these = if bytes.len() == 1 { "it" } else { "them" };
        let replaced = match self.count - 1 {
            0 => format!("it is read with {these} replaced by `\u{fffd}`"),
            1 => format!(
                "it is read with {these} and 1 other invalid sequence replaced by `\u{fffd}`"
            ),
            n => format!(
                "it is read with {these} and {n} other invalid sequences replaced by `\u{fffd}`"
            ),
        };
        diagnostic.with_note(replaced).with_note(
            "Pulumi reads PCL files as UTF-8 and rejects this one too: save it as UTF-8 (a Latin-1 `é` is the one byte 0xe9, which UTF-8 writes as two)",
        )
    }

    /// Whether `error` is the parser's at a U+FFFD this decoding put in (an invalid
    /// character outside a string): this error says it already.
    pub fn explains(&self, error: &crate::SyntaxError, text: &str) -> bool {
        error.code == codes::INVALID_CHARACTER
            && text.get(std::ops::Range::<usize>::from(error.range)) == Some("\u{fffd}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_read_as_it_is() {
        assert_eq!(
            decode_source(b"a = \"caf\xc3\xa9\"\n".to_vec()),
            ("a = \"café\"\n".to_owned(), None)
        );
    }

    #[test]
    fn each_invalid_sequence_is_one_replacement_and_the_first_is_reported() {
        let (text, invalid) = decode_source(b"a = \"caf\xe9\"\nb = \"\xff\xfe\"\n".to_vec());
        assert_eq!(
            text,
            String::from_utf8_lossy(b"a = \"caf\xe9\"\nb = \"\xff\xfe\"\n")
        );
        let invalid = invalid.expect("reported");
        assert_eq!(&invalid.bytes[..usize::from(invalid.len)], [0xe9]);
        assert_eq!(&text[usize::from(invalid.offset)..][..3], "\u{fffd}");
        assert_eq!(invalid.count, 3);
    }

    #[test]
    fn a_sequence_cut_short_is_one_replacement_named_by_its_bytes() {
        let (text, invalid) = decode_source(b"a = \"\xe2\x82\"\n".to_vec());
        assert_eq!(text, "a = \"\u{fffd}\"\n");
        let invalid = invalid.expect("reported");
        assert_eq!(
            (&invalid.bytes[..usize::from(invalid.len)], invalid.count),
            (&[0xe2, 0x82][..], 1)
        );
        let message = invalid.to_diagnostic(FileId(0)).message;
        assert_eq!(
            message,
            "this file is not UTF-8: bytes 0xe2 0x82 start a UTF-8 sequence that is cut short"
        );
    }
}
