//! Literal values carried by constant and enum types, and their display in the
//! reference's syntax (cty's Go syntax: `cty.StringVal("x")`, `cty.NumberIntVal(42)`).

use std::fmt::Write;

use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use pcl_syntax::ast::NumberValue;
use smol_str::SmolStr;

/// An exact literal value.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum ConstValue {
    Null,
    Bool(bool),
    Number(NumberValue),
    String(SmolStr),
}

impl ConstValue {
    /// The value in cty's Go syntax, as the reference's `String()` prints constants.
    pub fn go_syntax(&self) -> String {
        match self {
            ConstValue::Null => "cty.NullVal(cty.DynamicPseudoType)".to_owned(),
            ConstValue::Bool(true) => "cty.True".to_owned(),
            ConstValue::Bool(false) => "cty.False".to_owned(),
            ConstValue::String(text) => format!("cty.StringVal({})", go_quote(text)),
            ConstValue::Number(number) => number_go_syntax(number),
        }
    }

    /// The value as a user writes it: `"x"`, `true`, `42`, `1.5`, `null`.
    pub fn pretty(&self) -> String {
        match self {
            ConstValue::Null => "null".to_owned(),
            ConstValue::Bool(value) => value.to_string(),
            ConstValue::String(text) => go_quote(text),
            ConstValue::Number(number) => decimal_text(number),
        }
    }

    /// The value converted to a string the way cty converts keys: numbers in plain
    /// decimal, booleans as `true`/`false`. `None` for null.
    pub fn to_key_string(&self) -> Option<String> {
        match self {
            ConstValue::Null => None,
            ConstValue::Bool(value) => Some(value.to_string()),
            ConstValue::String(text) => Some(text.to_string()),
            ConstValue::Number(number) => Some(decimal_text(number)),
        }
    }
}

/// `n` in plain decimal notation, every digit exact (`1000`, `0.25`, `-3.5`).
pub(crate) fn decimal_text(number: &NumberValue) -> String {
    let digits = number.mantissa().abs().to_string();
    let sign = if number.is_negative() { "-" } else { "" };
    let exponent = number.exponent();
    if exponent >= 0 {
        if number.mantissa().is_zero() {
            return "0".to_owned();
        }
        let zeros = usize::try_from(exponent).unwrap_or(usize::MAX).min(1 << 20);
        return format!("{sign}{digits}{}", "0".repeat(zeros));
    }
    let fraction_len = usize::try_from(exponent.unsigned_abs())
        .unwrap_or(usize::MAX)
        .min(1 << 20);
    if digits.len() > fraction_len {
        let (int_part, frac_part) = digits.split_at(digits.len() - fraction_len);
        format!("{sign}{int_part}.{frac_part}")
    } else {
        format!(
            "{sign}0.{}{digits}",
            "0".repeat(fraction_len - digits.len())
        )
    }
}

/// The exact value of a finite float64.
pub(crate) fn number_from_f64(value: f64) -> Option<NumberValue> {
    if !value.is_finite() {
        return None;
    }
    let bits = value.to_bits();
    let negative = bits >> 63 == 1;
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (significand, twos) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    let mut mantissa = BigInt::from(significand);
    if negative {
        mantissa = -mantissa;
    }
    // m * 2^e = m * 5^-e * 10^e for negative e.
    Some(if twos >= 0 {
        NumberValue::new(mantissa << twos as usize, 0)
    } else {
        let fives = num_traits::pow(BigInt::from(5), twos.unsigned_abs() as usize);
        NumberValue::new(mantissa * fives, twos)
    })
}

/// cty's `GoString` for numbers: `NumberIntVal` for every whole number, `NumberFloatVal`
/// when a float64 holds the value exactly, else `MustParseNumberVal`. Numbers print as
/// Go's shortest `%g`: exponent form from 10^6 up (`cty.NumberIntVal(1e+06)`).
fn number_go_syntax(number: &NumberValue) -> String {
    if number.is_integer() {
        return format!("cty.NumberIntVal({})", go_integer(number));
    }
    match exact_f64(number) {
        Some(value) => format!("cty.NumberFloatVal({})", go_float(value)),
        None => format!(
            "cty.MustParseNumberVal({})",
            go_quote(&decimal_text(number))
        ),
    }
}

/// A whole number as `big.Float` prints it with `%v`: plain below 10^6, else
/// `d.ddde+XX` with trailing zeros dropped. Works from the digits, so a huge exponent
/// costs nothing.
fn go_integer(number: &NumberValue) -> String {
    let sign = if number.is_negative() { "-" } else { "" };
    let digits = number.mantissa().abs().to_string();
    if digits == "0" {
        return "0".to_owned();
    }
    let trailing = number.exponent().max(0);
    let exponent = i64::try_from(digits.len())
        .unwrap_or(i64::MAX)
        .saturating_sub(1)
        .saturating_add(trailing);
    if exponent < 6 {
        let zeros = usize::try_from(trailing).unwrap_or(0);
        return format!("{sign}{digits}{}", "0".repeat(zeros));
    }
    let significant = digits.trim_end_matches('0');
    let (first, rest) = significant.split_at(1);
    let fraction = if rest.is_empty() {
        String::new()
    } else {
        format!(".{rest}")
    };
    format!("{sign}{first}{fraction}e+{exponent:02}")
}

/// The float64 equal to `number`, if there is one.
fn exact_f64(number: &NumberValue) -> Option<f64> {
    let exponent = number.exponent();
    if exponent.unsigned_abs() > 400 {
        return None;
    }
    // number = mantissa * 10^e = mantissa * 5^e * 2^e.
    let five = BigInt::from(5);
    let (mut odd, mut twos) = if exponent >= 0 {
        (
            number.mantissa() * num_traits::pow(five, exponent as usize),
            exponent,
        )
    } else {
        let divisor = num_traits::pow(five, exponent.unsigned_abs() as usize);
        if !(number.mantissa() % &divisor).is_zero() {
            return None;
        }
        (number.mantissa() / divisor, exponent)
    };
    if odd.is_zero() {
        return Some(0.0);
    }
    let two = BigInt::from(2);
    while (&odd % &two).is_zero() {
        odd /= &two;
        twos += 1;
    }
    if odd.abs() >= (BigInt::one() << 53) {
        return None;
    }
    let significand = odd.to_f64()?;
    let twos = i32::try_from(twos).ok()?;
    // Scale in two steps so neither factor overflows where the product does not.
    let value = significand * 2f64.powi(twos / 2) * 2f64.powi(twos - twos / 2);
    (value.is_finite() && value != 0.0).then_some(value)
}

/// Go's `%#v` for a float64: the shortest representation, in exponent form when the
/// decimal exponent is below -4 or at least 6.
fn go_float(value: f64) -> String {
    let scientific = format!("{value:e}");
    let Some((mantissa, exponent)) = scientific.split_once('e') else {
        return scientific;
    };
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..6).contains(&exponent) {
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exponent.abs());
    }
    format!("{value}")
}

/// Go's `strconv.Quote`: printable characters as they are, the rest escaped.
pub(crate) fn go_quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            ch if go_is_print(ch) => out.push(ch),
            ch if (ch as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", ch as u32);
            }
            ch if (ch as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", ch as u32);
            }
            ch => {
                let _ = write!(out, "\\U{:08x}", ch as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`, closely: letters, marks, numbers, punctuation, symbols and the
/// ASCII space. Controls, other spaces and separators, format characters and private-use
/// characters are not printable.
fn go_is_print(ch: char) -> bool {
    let code = ch as u32;
    if ch == ' ' {
        return true;
    }
    if ch.is_control() || ch.is_whitespace() {
        return false;
    }
    let format_or_private = matches!(
        code,
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x890..=0x891
            | 0x8E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xE000..=0xF8FF
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
            | 0xF0000..=0x10FFFF
    );
    !format_or_private
}
