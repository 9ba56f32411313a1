//! Summary inputs: facts derived from the program text that the driver copies into inputs
//! of medium durability after each change, so that an edit which leaves them equal (a
//! literal, a comment, anything inside a body) does not make every declaration depend on
//! the edited file.
//!
//! Salsa gives a memo the lowest durability of everything it read, and does not raise it
//! when a re-executed query returns an equal value. Every declaration reads the program's
//! namespace and whether the program has reference cycles, which are computed from every
//! file; were they queries, an edit to any file would leave every memo of the program at
//! low durability, and re-checking after it would deep-verify all of them (the whole
//! program's cost, not the edit's). As inputs, set only when they change, they keep the
//! memos of untouched files at medium durability, verified in constant time each.
//!
//! The invariant, kept by [`sync_summaries`]: `File::declarations` equals `item_tree` of
//! the file's text, and `Program::has_cycles` says whether `program_graph` has a cycle.
//! A driver calls it after setting file texts or program file lists and before asking
//! anything (the `ide` host does).

use std::sync::Arc;

use salsa::{Durability, Setter};

use crate::input::{File, Program};
use crate::items::item_tree;
use crate::scope::program_graph;

/// Bring the summaries of `files` and then of `programs` up to date. Cheap when nothing
/// they summarise changed: both are memoized queries, compared before anything is set.
pub fn sync_summaries(db: &mut dyn salsa::Database, files: &[File], programs: &[Program]) {
    for &file in files {
        let tree = item_tree(&*db, file);
        if **file.declarations(&*db) != *tree {
            let tree = Arc::new(tree.clone());
            file.set_declarations(db)
                .with_durability(Durability::MEDIUM)
                .to(tree);
        }
    }
    for &program in programs {
        let has_cycles = !program_graph(&*db, program).cycles.is_empty();
        if program.has_cycles(&*db) != has_cycles {
            program
                .set_has_cycles(db)
                .with_durability(Durability::MEDIUM)
                .to(has_cycles);
        }
    }
}
