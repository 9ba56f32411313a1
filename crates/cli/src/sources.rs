//! The files a program's diagnostics point into, as the writers read them: lines and
//! columns for JSON and SARIF, and codespan's view of them for the human output. Each
//! file's lines are found the first time a diagnostic needs them (a program of 10,000
//! files, each with a diagnostic, once indexed every file again for each file: 12 s).

use std::cell::OnceCell;
use std::ops::Range as ByteRange;

use codespan_reporting::files::{Error, Files};
use pcl_diagnostics::{ColumnUnit, Span, TextLines};
use serde::Serialize;

use crate::inputs::SourceFile;

/// A program's files: a span's `FileId(i)` is `files[i]`.
pub(crate) struct Sources<'a> {
    files: &'a [SourceFile],
    lines: Vec<OnceCell<TextLines>>,
}

/// A 1-based line and column (in Unicode scalar values), and the byte offset.
#[derive(Serialize, Clone, Copy)]
pub(crate) struct Position {
    pub(crate) line: usize,
    pub(crate) column: usize,
    offset: usize,
}

#[derive(Serialize)]
pub(crate) struct Range {
    pub(crate) start: Position,
    pub(crate) end: Position,
}

impl<'a> Sources<'a> {
    pub(crate) fn new(files: &'a [SourceFile]) -> Sources<'a> {
        Sources {
            files,
            lines: files.iter().map(|_| OnceCell::new()).collect(),
        }
    }

    pub(crate) fn files(&self) -> &'a [SourceFile] {
        self.files
    }

    /// The file a span is in, if the program has it.
    pub(crate) fn file(&self, span: &Span) -> Option<&'a SourceFile> {
        self.files.get(span.file.0 as usize)
    }

    fn lines(&self, file: usize) -> Option<&TextLines> {
        let text = &self.files.get(file)?.text;
        Some(self.lines.get(file)?.get_or_init(|| TextLines::new(text)))
    }

    /// Where a span starts and ends; the text's start for a file the program does not have.
    pub(crate) fn range(&self, span: &Span) -> Range {
        let file = span.file.0 as usize;
        Range {
            start: self.position(file, span.range.start().into()),
            end: self.position(file, span.range.end().into()),
        }
    }

    fn position(&self, file: usize, offset: usize) -> Position {
        let (Some(source), Some(lines)) = (self.files.get(file), self.lines(file)) else {
            return Position {
                line: 1,
                column: 1,
                offset: 0,
            };
        };
        let text = source.text.as_str();
        let offset = offset.min(text.len());
        let line = lines.line(offset);
        let unit = match text.is_char_boundary(offset) {
            true => ColumnUnit::Char,
            false => ColumnUnit::Utf8,
        };
        Position {
            line: line + 1,
            column: lines.column(line, offset, unit) + 1,
            offset,
        }
    }
}

impl<'a> Files<'a> for Sources<'a> {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, Error> {
        let file = self.files.get(id).ok_or(Error::FileMissing)?;
        Ok(file.name.as_str())
    }

    fn source(&'a self, id: usize) -> Result<&'a str, Error> {
        let file = self.files.get(id).ok_or(Error::FileMissing)?;
        Ok(file.text.as_str())
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, Error> {
        let lines = self.lines(id).ok_or(Error::FileMissing)?;
        Ok(lines.line(byte_index))
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<ByteRange<usize>, Error> {
        let lines = self.lines(id).ok_or(Error::FileMissing)?;
        let len = self.files[id].text.len();
        let start = lines.line_start(line_index).ok_or(Error::LineTooLarge {
            given: line_index,
            max: lines.line(len),
        })?;
        let end = lines.line_start(line_index + 1).unwrap_or(len);
        Ok(start..end)
    }
}
