//! Fuzz target: the lexer's hand-written fast path gives exactly the tokens and errors of
//! the logos rules alone, and the tokens cover the input.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Some(difference) = pcl_syntax::fast_path_disagreement(text) {
        panic!("{difference}");
    }
    let lexed = pcl_syntax::LexedText::new(text);
    let concatenated: String = (0..lexed.len()).map(|idx| lexed.text(idx)).collect();
    assert_eq!(concatenated, text);
});
