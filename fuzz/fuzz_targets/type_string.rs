//! Fuzz target: any type string parses or is rejected with an error inside it, and a type
//! that parses prints (`display`) as a string that parses back to the same type; relating
//! it to itself is safe.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pcl_ide::RootDatabase;
use pcl_types::{Conversion, conversion, display, parse_type};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let db = RootDatabase::default();
    match parse_type(&db, text) {
        Ok(ty) => {
            let shown = display(&db, ty).to_string();
            let again = parse_type(&db, &shown)
                .unwrap_or_else(|err| panic!("{text:?} displays as {shown:?}, which fails: {err}"));
            assert_eq!(again, ty, "{text:?} displays as {shown:?}, which is another type");
            assert_eq!(conversion(&db, ty, ty), Conversion::Safe, "{shown} from itself");
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
});
