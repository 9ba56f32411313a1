//! Lines and columns of a text, for the drivers that turn byte offsets into the positions
//! people and editors read: where each line starts, and where the characters of more than
//! one byte are, so a column costs two binary searches however long its line is (counting
//! a 600 KB line's characters for each of 40,000 diagnostics on it took seconds).

/// How a column counts the characters before it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ColumnUnit {
    /// Bytes of UTF-8.
    Utf8,
    /// UTF-16 code units (editors by default).
    Utf16,
    /// Unicode scalar values (what the command line prints).
    Char,
}

/// Where a text's lines start and where its characters of more than one byte are. It
/// follows edits ([`TextLines::replace`]), so an editor's document keeps one up to date.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextLines {
    starts: Vec<usize>,
    wide: Vec<Wide>,
}

/// A character of more than one byte, with what the wide characters up to and including
/// it save over counting bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wide {
    offset: usize,
    len_utf8: u8,
    fewer_chars: usize,
    fewer_utf16: usize,
}

impl TextLines {
    pub fn new(text: &str) -> TextLines {
        let mut lines = TextLines {
            starts: vec![0],
            wide: Vec::new(),
        };
        lines.scan(0, text);
        lines.sum_wide_from(0);
        lines
    }

    /// Record the line starts and wide characters of `text`, found at `base`, at the end.
    fn scan(&mut self, base: usize, text: &str) {
        self.starts
            .extend(text.match_indices('\n').map(|(i, _)| base + i + 1));
        if !text.is_ascii() {
            let wide = (text.char_indices()).filter(|(_, c)| !c.is_ascii());
            self.wide.extend(wide.map(|(i, c)| Wide {
                offset: base + i,
                len_utf8: c.len_utf8() as u8,
                fewer_chars: 0,
                fewer_utf16: 0,
            }));
        }
    }

    /// The running sums of the wide characters from `first` on.
    fn sum_wide_from(&mut self, first: usize) {
        let (mut chars, mut utf16) = match first.checked_sub(1).and_then(|i| self.wide.get(i)) {
            Some(before) => (before.fewer_chars, before.fewer_utf16),
            None => (0, 0),
        };
        for wide in &mut self.wide[first..] {
            let len = usize::from(wide.len_utf8);
            chars += len - 1;
            // Four bytes are two UTF-16 units; two or three bytes are one.
            utf16 += if len == 4 { 2 } else { len - 1 };
            wide.fewer_chars = chars;
            wide.fewer_utf16 = utf16;
        }
    }

    /// After the text's bytes `start..end` were replaced by `inserted`.
    pub fn replace(&mut self, start: usize, end: usize, inserted: &str) {
        let shift = |offset: usize| offset + inserted.len() - (end - start);
        let mut edited = TextLines {
            starts: Vec::new(),
            wide: Vec::new(),
        };
        edited.scan(start, inserted);
        let first = self.starts.partition_point(|&s| s <= start);
        let last = self.starts.partition_point(|&s| s <= end);
        let after = (self.starts[last..].iter()).map(|&s| shift(s));
        let tail: Vec<usize> = edited.starts.into_iter().chain(after).collect();
        self.starts.truncate(first);
        self.starts.extend(tail);
        let first = self.wide.partition_point(|w| w.offset < start);
        let last = self.wide.partition_point(|w| w.offset < end);
        let after = self.wide[last..].iter().map(|&w| Wide {
            offset: shift(w.offset),
            ..w
        });
        let tail: Vec<Wide> = edited.wide.into_iter().chain(after).collect();
        self.wide.truncate(first);
        self.wide.extend(tail);
        self.sum_wide_from(first);
    }

    /// The 0-based line that holds `offset`.
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset) - 1
    }

    /// Where the 0-based `line` starts, if the text has it.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.starts.get(line).copied()
    }

    /// The 0-based column of `offset` on `line`, counting in `unit`. `offset` is on the line
    /// and at a character boundary of the text.
    pub fn column(&self, line: usize, offset: usize, unit: ColumnUnit) -> usize {
        let start = self.starts.get(line).copied().unwrap_or(0).min(offset);
        let bytes = offset - start;
        if unit == ColumnUnit::Utf8 {
            return bytes;
        }
        let fewer = |at: usize| {
            let count = self.wide.partition_point(|w| w.offset < at);
            match count.checked_sub(1).map(|i| self.wide[i]) {
                Some(w) if unit == ColumnUnit::Char => w.fewer_chars,
                Some(w) => w.fewer_utf16,
                None => 0,
            }
        };
        bytes - (fewer(offset) - fewer(start))
    }
}

#[cfg(test)]
mod tests {
    use super::{ColumnUnit, TextLines};

    /// Columns counted from the line's start, character by character.
    fn counted(text: &str, offset: usize, unit: ColumnUnit) -> (usize, usize) {
        let line = text[..offset].matches('\n').count();
        let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let prefix = &text[start..offset];
        let column = match unit {
            ColumnUnit::Utf8 => prefix.len(),
            ColumnUnit::Utf16 => prefix.encode_utf16().count(),
            ColumnUnit::Char => prefix.chars().count(),
        };
        (line, column)
    }

    fn assert_counts(text: &str, lines: &TextLines) {
        assert_eq!(*lines, TextLines::new(text), "{text:?}");
        let boundaries = (0..=text.len()).filter(|&i| text.is_char_boundary(i));
        for offset in boundaries {
            for unit in [ColumnUnit::Utf8, ColumnUnit::Utf16, ColumnUnit::Char] {
                let line = lines.line(offset);
                let found = (line, lines.column(line, offset, unit));
                assert_eq!(found, counted(text, offset, unit), "{text:?} at {offset}");
            }
        }
    }

    /// Lines and columns equal counting, in every unit, in texts edited many ways (each
    /// edit's index equal to a fresh one's).
    #[test]
    fn columns_equal_counting_and_follow_edits() {
        let pieces = ["a", "é", "😀", "\n", "\r\n", "中", " = ", "x\ny", ""];
        let mut seed = 7u64;
        let mut next = |below: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % below.max(1)
        };
        let mut text = String::new();
        let mut lines = TextLines::new(&text);
        assert_counts(&text, &lines);
        for _ in 0..300 {
            let boundaries: Vec<usize> = (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .collect();
            let a = boundaries[next(boundaries.len())];
            let b = boundaries[next(boundaries.len())];
            let (start, end) = (a.min(b), a.max(b).min(a.min(b) + 3));
            let end = (end..=text.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(text.len());
            let inserted: String = (0..next(6)).map(|_| pieces[next(pieces.len())]).collect();
            text.replace_range(start..end, &inserted);
            lines.replace(start, end, &inserted);
            assert_counts(&text, &lines);
        }
        assert!(
            text.len() > 20 && !text.is_ascii(),
            "the edits built a text: {text:?}"
        );
    }

    /// A column on a long line with many wide characters is found without counting them
    /// (this ran for minutes counting).
    #[test]
    fn many_columns_on_one_long_line() {
        let text = "é".repeat(200_000);
        let lines = TextLines::new(&text);
        let total: usize = (0..200_000)
            .map(|i| lines.column(0, 2 * i, ColumnUnit::Utf16))
            .sum();
        assert_eq!(total, 200_000 * 199_999 / 2);
        assert_eq!(lines.line(text.len()), 0);
    }
}
