//! Scalars as Go reads them: a plain YAML scalar as Pulumi's YAML library (`gopkg.in/yaml.v3`,
//! `resolve.go`) resolves it, and `strconv`'s `ParseBool` and `ParseFloat`, which the PCL
//! runtime uses to convert a config's raw text.
//!
//! yaml.v3 is not YAML 1.2's core schema: underscores in numbers are dropped (`1_000` is
//! 1000), Go's prefixes count (`0b1010`, `0o17`, and `017`, which is octal), integers are
//! 64 bits (larger ones are floats), and a date (`2024-01-01`) is a timestamp, which Pulumi
//! passes as Go's `time.Time.String()` writes it.

/// A plain scalar as yaml.v3 resolves it.
#[derive(Clone, Debug, PartialEq)]
pub enum PlainScalar {
    Null,
    Bool(bool),
    /// An `int64` or a `uint64`.
    Int(i128),
    Float(f64),
    /// A timestamp, as the text Pulumi passes for it (`2024-01-01 00:00:00 +0000 UTC`).
    Timestamp(String),
    String,
}

/// Resolve a plain scalar as yaml.v3 does.
pub fn resolve_plain(text: &str) -> PlainScalar {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return PlainScalar::Null,
        "true" | "True" | "TRUE" => return PlainScalar::Bool(true),
        "false" | "False" | "FALSE" => return PlainScalar::Bool(false),
        ".nan" | ".NaN" | ".NAN" => return PlainScalar::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return PlainScalar::Float(f64::INFINITY);
        }
        "-.inf" | "-.Inf" | "-.INF" => return PlainScalar::Float(f64::NEG_INFINITY),
        _ => {}
    }
    match text.as_bytes()[0] {
        b'.' => go_parse_float(text).map_or(PlainScalar::String, PlainScalar::Float),
        b'0'..=b'9' | b'+' | b'-' => {
            if let Some(time) = go_timestamp(text) {
                return PlainScalar::Timestamp(time);
            }
            let plain = text.replace('_', "");
            if let Some(n) = go_parse_int(&plain, false).or_else(|| go_parse_int(&plain, true)) {
                return PlainScalar::Int(n);
            }
            let unsigned = plain.strip_prefix(['+', '-']).unwrap_or(&plain);
            match is_yaml_float(unsigned).then(|| go_parse_float(&plain)) {
                Some(Some(f)) => PlainScalar::Float(f),
                _ => PlainScalar::String,
            }
        }
        _ => PlainScalar::String,
    }
}

/// Go's `strconv.ParseInt(text, 0, 64)`, or `ParseUint` when `unsigned`: an optional sign
/// (not for `ParseUint`), then `0x`, `0b`, `0o` or a leading `0` (octal) or decimal digits.
fn go_parse_int(text: &str, unsigned: bool) -> Option<i128> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') if !unsigned => (true, &text[1..]),
        Some(b'+') if !unsigned => (false, &text[1..]),
        _ => (false, text),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(hex) = lower.strip_prefix("0x") {
        (16, hex)
    } else if let Some(binary) = lower.strip_prefix("0b") {
        (2, binary)
    } else if let Some(octal) = lower.strip_prefix("0o") {
        (8, octal)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = i128::try_from(u128::from_str_radix(digits, radix).ok()?).ok()?;
    let value = if negative { -magnitude } else { magnitude };
    let range = match unsigned {
        true => 0..=i128::from(u64::MAX),
        false => i128::from(i64::MIN)..=i128::from(i64::MAX),
    };
    range.contains(&value).then_some(value)
}

/// yaml.v3's `yamlStyleFloat`, without its sign:
/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn is_yaml_float(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", fraction)) => digits(fraction),
        Some((whole, fraction)) => digits(whole) && (fraction.is_empty() || digits(fraction)),
        None => digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

/// A timestamp in one of yaml.v3's forms (`2001-12-14`, `2001-12-14 21:59:43.10`,
/// `2001-12-14T21:59:43.10Z`, `2001-12-14t21:59:43.10-05:00`, as Go's `time.Parse` reads
/// them: one- or two-digit months, days and times, a zone only after `T`), written as
/// Go's `time.Time.String()` writes it. A zone other than `Z` is written as an offset
/// (Go names it after the local zone when the offsets agree).
fn go_timestamp(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    if bytes.len() < 5 || !bytes[..4].iter().all(u8::is_ascii_digit) || bytes[4] != b'-' {
        return None;
    }
    let year: u32 = text[..4].parse().ok()?;
    let mut rest = &text[5..];
    let month = take_number(&mut rest, 1..=12)?;
    rest = rest.strip_prefix('-')?;
    let day = take_number(&mut rest, 1..=days_in_month(year, month))?;
    let date = format!("{year:04}-{month:02}-{day:02}");
    let Some(separator) = rest.chars().next() else {
        return Some(format!("{date} 00:00:00 +0000 UTC"));
    };
    rest = &rest[1..];
    let zoned = match separator {
        'T' | 't' => true,
        ' ' => false,
        _ => return None,
    };
    let hour = take_number(&mut rest, 0..=23)?;
    rest = rest.strip_prefix(':')?;
    let minute = take_number(&mut rest, 0..=59)?;
    rest = rest.strip_prefix(':')?;
    let second = take_number(&mut rest, 0..=59)?;
    let mut fraction = String::new();
    if let Some(after) = rest.strip_prefix(['.', ',']) {
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        fraction = after[..digits.min(9)].trim_end_matches('0').to_owned();
        rest = &after[digits..];
    }
    let zone = match (zoned, rest) {
        (false, "") | (true, "Z") => "+0000 UTC".to_owned(),
        (true, offset) => {
            let b = offset.as_bytes();
            let well_formed = b.len() == 6
                && matches!(b[0], b'+' | b'-')
                && b[3] == b':'
                && [1, 2, 4, 5].iter().all(|&i| b[i].is_ascii_digit());
            if !well_formed || offset[1..3] > *"24" || offset[4..6] > *"60" {
                return None;
            }
            let offset = format!("{}{}{}", &offset[..1], &offset[1..3], &offset[4..6]);
            format!("{offset} {offset}")
        }
        (false, _) => return None,
    };
    let fraction = match fraction.is_empty() {
        true => String::new(),
        false => format!(".{fraction}"),
    };
    Some(format!(
        "{date} {hour:02}:{minute:02}:{second:02}{fraction} {zone}"
    ))
}

/// One or two digits at the start of `rest` (taken off it), within `range`.
fn take_number(rest: &mut &str, range: std::ops::RangeInclusive<u32>) -> Option<u32> {
    let digits = rest.bytes().take(2).take_while(u8::is_ascii_digit).count();
    let number: u32 = rest.get(..digits)?.parse().ok()?;
    *rest = &rest[digits..];
    range.contains(&number).then_some(number)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Go's `strconv.ParseFloat(text, 64)`: decimal and hexadecimal (`0x1p4`) forms,
/// `inf`, `infinity` and `nan` in any case; out of range is an error.
pub fn go_parse_float(text: &str) -> Option<f64> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let negative = text.starts_with('-');
    let lower = unsigned.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity") {
        return Some(if negative {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if lower == "nan" {
        return Some(f64::NAN);
    }
    if let Some(hex) = lower.strip_prefix("0x") {
        let value = parse_hex_float(hex)?;
        return Some(if negative { -value } else { value });
    }
    let valid = !unsigned.is_empty()
        && unsigned
            .bytes()
            .all(|b| b.is_ascii_digit() || b".eE+-".contains(&b))
        && unsigned.bytes().any(|b| b.is_ascii_digit());
    let value: f64 = valid.then(|| text.parse().ok()).flatten()?;
    value.is_finite().then_some(value)
}

/// `mantissa p exponent` in hexadecimal (Go requires the `p` exponent).
fn parse_hex_float(hex: &str) -> Option<f64> {
    let (mantissa, exponent) = hex.split_once('p')?;
    let exponent: i32 = exponent.parse().ok()?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in whole.chars() {
        value = value * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in fraction.chars() {
        value += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    let value = value * 2f64.powi(exponent);
    value.is_finite().then_some(value)
}

/// Go's `strconv.ParseBool`.
pub fn go_parse_bool(text: &str) -> Option<bool> {
    match text {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Resolutions checked against yaml.v3's `resolve.go`.
    #[test]
    fn plain_scalars_resolve_as_yaml_v3_does() {
        use PlainScalar::{Bool, Float, Int, Null, String, Timestamp};
        let time = |text: &str| Timestamp(text.to_owned());
        for (text, expected) in [
            ("~", Null),
            ("True", Bool(true)),
            ("yes", String),
            ("1_000", Int(1000)),
            ("1__0_", Int(10)),
            ("0b1010", Int(10)),
            ("-0b11", Int(-3)),
            ("0o17", Int(15)),
            ("017", Int(15)),
            ("-0x10", Int(-16)),
            ("0x", String),
            ("09", Float(9.0)),
            ("9223372036854775808", Int(9_223_372_036_854_775_808)),
            ("18446744073709551616", Float(18_446_744_073_709_551_616.0)),
            ("1e3", Float(1000.0)),
            ("+.5", Float(0.5)),
            (".5", Float(0.5)),
            ("1e400", String),
            ("0x1p4", String),
            ("2024-01-01", time("2024-01-01 00:00:00 +0000 UTC")),
            ("2024-2-29", time("2024-02-29 00:00:00 +0000 UTC")),
            ("2023-2-29", String),
            (
                "2001-12-14 21:59:43.10",
                time("2001-12-14 21:59:43.1 +0000 UTC"),
            ),
            (
                "2001-12-14T21:59:43Z",
                time("2001-12-14 21:59:43 +0000 UTC"),
            ),
            (
                "2001-12-14t21:59:43.10-05:00",
                time("2001-12-14 21:59:43.1 -0500 -0500"),
            ),
            ("2001-12-14T21:59:43", String),
            ("2001-12-14 21:59:43Z", String),
            ("2001-12-14x", String),
            ("20011-12-14", String),
        ] {
            assert_eq!(resolve_plain(text), expected, "{text}");
        }
        assert!(matches!(resolve_plain(".NaN"), Float(f) if f.is_nan()));
        assert_eq!(resolve_plain("-.inf"), Float(f64::NEG_INFINITY));
    }

    #[test]
    fn strconv_parsing() {
        for (text, expected) in [
            ("1", Some(true)),
            ("T", Some(true)),
            ("FALSE", Some(false)),
            ("yes", None),
            ("tRue", None),
        ] {
            assert_eq!(go_parse_bool(text), expected, "{text}");
        }
        for (text, expected) in [
            ("1", Some(1.0)),
            ("-2.5", Some(-2.5)),
            (".5", Some(0.5)),
            ("1e3", Some(1000.0)),
            ("0x1p4", Some(16.0)),
            ("0x10", None),
            ("1e400", None),
            ("1_000", None),
            ("eighty", None),
            ("", None),
        ] {
            assert_eq!(go_parse_float(text), expected, "{text}");
        }
        assert!(go_parse_float("Infinity").is_some_and(f64::is_infinite));
    }
}
