//! Formatting for editors: the formatter's minimal whitespace edits for a whole file or
//! for the part of it a selection covers, from the parse the analysis already holds.

use pcl_syntax::TextRange;

pub use pcl_fmt::FormatEdit;

use crate::analysis::{Analysis, Cancellable};

impl Analysis {
    /// The edits that format the file at `path` (only those touching `range` when one is
    /// given), or `None` when the file is unknown or has syntax errors: a file that does
    /// not parse is never reformatted.
    pub fn formatting_edits(
        &self,
        path: &str,
        range: Option<TextRange>,
    ) -> Cancellable<Option<Vec<FormatEdit>>> {
        salsa::Cancelled::catch(|| {
            let db = self.db();
            let (file, _) = self.file_and_program(path)?;
            let parse = pcl_sema::parse(db, file);
            if !parse.errors().is_empty() {
                return None;
            }
            let mut edits = pcl_fmt::edits(file.text(db));
            if let Some(range) = range {
                edits.retain(|edit| touches(range, edit.range));
            }
            Some(edits)
        })
    }
}

/// Whether an edit of `edit` belongs to a selection `range`: it overlaps it or sits at
/// one of its ends (an empty gap at the selection's edge still changes what is selected).
fn touches(range: TextRange, edit: TextRange) -> bool {
    edit.start() <= range.end() && range.start() <= edit.end()
}
