//! Codes are unique, in their stage's range, and read back from their text.

use crate::{Code, Stage, codes, thousands};

#[test]
fn codes_are_unique_and_in_order() {
    for pair in codes::ALL.windows(2) {
        assert!(
            pair[0].number() < pair[1].number(),
            "{} and {} are out of order or equal",
            pair[0],
            pair[1]
        );
    }
    let mut names: Vec<&str> = codes::ALL.iter().map(|code| code.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), codes::ALL.len(), "names are unique");
}

#[test]
fn codes_read_back() {
    for &code in codes::ALL {
        assert_eq!(Code::from_text(&code.to_string()), Some(code));
        assert_eq!(
            Code::from_text(&code.to_string().to_lowercase()),
            Some(code)
        );
    }
    for text in [
        "PCL", "PCL1", "PCL01003", "XYZ1003", "PCL9999", "PCL+003", "",
    ] {
        assert_eq!(Code::from_text(text), None, "{text}");
    }
    assert_eq!(codes::UNEXPECTED_TOKEN.to_string(), "PCL1003");
    assert_eq!(codes::UNEXPECTED_TOKEN.stage(), Stage::Syntax);
    assert_eq!(codes::PACKAGE_NOT_FOUND.stage(), Stage::Schema);
    assert_eq!(codes::UNKNOWN_PROPERTY.stage(), Stage::Types);
    assert_eq!(codes::UNDEFINED_NAME.stage(), Stage::Semantics);
    assert_eq!(codes::MISSING_CONFIG_VALUE.stage(), Stage::Project);
}

#[test]
fn counts_have_their_thousands_separated() {
    let cases = [(0, "0"), (999, "999"), (1000, "1,000"), (32233, "32,233")];
    for (n, text) in cases {
        assert_eq!(thousands(n), text);
    }
    assert_eq!(thousands(1_234_567_890), "1,234,567,890");
}
