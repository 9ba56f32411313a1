//! `TokenSet`: a constant bitset of token kinds, for FIRST and recovery sets.

use crate::SyntaxKind;

/// A set of token kinds.
#[derive(Clone, Copy)]
pub(crate) struct TokenSet(u128);

impl TokenSet {
    pub(crate) const fn new(kinds: &[SyntaxKind]) -> TokenSet {
        let mut res = 0u128;
        let mut idx = 0;
        while idx < kinds.len() {
            let kind = kinds[idx] as u16;
            assert!(kind < 128, "only token kinds go in a TokenSet");
            res |= 1 << kind;
            idx += 1;
        }
        TokenSet(res)
    }

    pub(crate) const fn contains(self, kind: SyntaxKind) -> bool {
        let kind = kind as u16;
        kind < 128 && self.0 & (1 << kind) != 0
    }
}

const _: () = assert!((SyntaxKind::EOF as u16) < 128);
