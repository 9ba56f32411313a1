//! Literal decoding: exact number values, string unescaping and heredoc dedenting.

use std::borrow::Cow;

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use super::{AstNode, HeredocExpr, LiteralExpr, TemplateExpr, TemplatePart};
use crate::SyntaxKind::*;
use crate::SyntaxToken;

/// The largest exponent an integer value is expanded for; larger ones stay a decimal.
const MAX_INT_EXPONENT: i64 = 4096;

/// The most significant digits a number literal may have: far beyond cty's 512-bit
/// numbers (about 154 digits), small enough that decoding stays fast.
const MAX_SIGNIFICANT_DIGITS: usize = 10_000;

/// An exact number: `mantissa × 10^exponent`, normalised so the mantissa has no trailing zero.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NumberValue {
    mantissa: BigInt,
    exponent: i64,
}

impl NumberValue {
    /// Parses a number literal (`digits ("." digits)? ([eE] [+-]? digits)?`).
    pub fn parse(text: &str) -> Result<NumberValue, String> {
        let (significand, exp_text) = match text.bytes().position(|b| matches!(b, b'e' | b'E')) {
            Some(idx) => (&text[..idx], Some(&text[idx + 1..])),
            None => (text, None),
        };
        let (int_part, frac_part) = significand.split_once('.').unwrap_or((significand, ""));
        let digits: std::borrow::Cow<'_, str> = if frac_part.is_empty() {
            int_part.into()
        } else {
            format!("{int_part}{frac_part}").into()
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("invalid number literal `{text}`"));
        }
        let mut exponent = match exp_text {
            Some(exp) => exp
                .parse::<i64>()
                .map_err(|_| format!("the exponent of `{text}` is too large or malformed"))?,
            None => 0,
        };
        exponent = exponent
            .checked_sub(frac_part.len() as i64)
            .ok_or_else(|| format!("the exponent of `{text}` is too large"))?;
        // Normalise on the text: dividing a huge mantissa by ten once per trailing zero
        // would take quadratic time.
        let significant = digits.trim_start_matches('0');
        let trimmed = significant.trim_end_matches('0');
        if trimmed.is_empty() {
            return Ok(NumberValue::new(BigInt::zero(), 0));
        }
        if trimmed.len() > MAX_SIGNIFICANT_DIGITS {
            return Err(format!(
                "number literal has {} significant digits; at most {MAX_SIGNIFICANT_DIGITS} are supported",
                trimmed.len()
            ));
        }
        exponent = exponent
            .checked_add((significant.len() - trimmed.len()) as i64)
            .ok_or_else(|| format!("the exponent of `{text}` is too large"))?;
        // Up to 19 digits fit a u64: no digit-by-digit big-number parse.
        let mantissa = match trimmed.parse::<u64>() {
            Ok(small) => BigInt::from(small),
            Err(_) => BigInt::parse_bytes(trimmed.as_bytes(), 10)
                .ok_or_else(|| format!("invalid number literal `{text}`"))?,
        };
        Ok(NumberValue { mantissa, exponent })
    }

    /// [`NumberValue::parse`] followed by [`NumberValue::small_parts`], for a literal of
    /// at most 18 decimal digits and nothing else (most literals), without the big
    /// integer: the same normalisation (trailing zeros go to the exponent). `None` for
    /// any other text.
    pub fn plain_small_parts(text: &str) -> Option<(i64, i32)> {
        const MOST_DIGITS: usize = 18;
        if text.is_empty() || text.len() > MOST_DIGITS || !text.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let mut mantissa =
            (text.bytes()).fold(0i64, |value, digit| value * 10 + i64::from(digit - b'0'));
        let mut exponent = 0;
        while mantissa != 0 && mantissa % 10 == 0 {
            mantissa /= 10;
            exponent += 1;
        }
        Some((mantissa, exponent))
    }

    /// Parses a number with an optional leading `-` (as JSON, cty and type strings write
    /// numbers; in HCL the minus is an operator).
    pub fn parse_signed(text: &str) -> Result<NumberValue, String> {
        match text.strip_prefix('-') {
            Some(digits) => NumberValue::parse(digits).map(|number| number.negate()),
            None => NumberValue::parse(text),
        }
    }

    /// `mantissa × 10^exponent`, normalised.
    pub fn new(mut mantissa: BigInt, mut exponent: i64) -> NumberValue {
        if mantissa.is_zero() {
            return NumberValue {
                mantissa,
                exponent: 0,
            };
        }
        let ten = BigInt::from(10);
        loop {
            let (quotient, rest) = (&mantissa / &ten, &mantissa % &ten);
            if !rest.is_zero() || exponent == i64::MAX {
                break;
            }
            mantissa = quotient;
            exponent += 1;
        }
        NumberValue { mantissa, exponent }
    }

    pub fn mantissa(&self) -> &BigInt {
        &self.mantissa
    }

    pub fn exponent(&self) -> i64 {
        self.exponent
    }

    /// Whether the value is a whole number.
    pub fn is_integer(&self) -> bool {
        self.exponent >= 0
    }

    /// The value as an integer, when it is whole and not astronomically large.
    pub fn to_integer(&self) -> Option<BigInt> {
        if !(0..=MAX_INT_EXPONENT).contains(&self.exponent) {
            return None;
        }
        Some(&self.mantissa * num_traits::pow(BigInt::from(10), self.exponent as usize))
    }

    /// The negated value.
    pub fn negate(&self) -> NumberValue {
        NumberValue {
            mantissa: -&self.mantissa,
            exponent: self.exponent,
        }
    }

    /// Whether the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.mantissa.is_negative()
    }

    /// The mantissa and exponent when both fit machine integers (most literals' do):
    /// what a compact form keeps, to give back with [`NumberValue::from_small_parts`].
    pub fn small_parts(&self) -> Option<(i64, i32)> {
        Some((
            i64::try_from(&self.mantissa).ok()?,
            i32::try_from(self.exponent).ok()?,
        ))
    }

    /// `mantissa × 10^exponent`, normalised.
    pub fn from_small_parts(mantissa: i64, exponent: i32) -> NumberValue {
        NumberValue::new(BigInt::from(mantissa), exponent.into())
    }
}

impl std::fmt::Display for NumberValue {
    /// Plain decimal notation for moderate exponents, scientific notation beyond.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(int) = self.to_integer() {
            return write!(f, "{int}");
        }
        let digits = self.mantissa.abs().to_string();
        let sign = if self.is_negative() { "-" } else { "" };
        let frac_len = self.exponent.unsigned_abs();
        if self.exponent < 0 && frac_len <= 64 {
            let frac_len = frac_len as usize;
            let (int_part, frac_part) = if digits.len() > frac_len {
                let split = digits.len() - frac_len;
                (digits[..split].to_owned(), digits[split..].to_owned())
            } else {
                (
                    "0".to_owned(),
                    format!("{}{digits}", "0".repeat(frac_len - digits.len())),
                )
            };
            return write!(f, "{sign}{int_part}.{frac_part}");
        }
        write!(f, "{sign}{digits}e{}", self.exponent)
    }
}

impl LiteralExpr {
    /// The exact value of a number literal; `None` for `true`, `false` and `null`.
    pub fn number_value(&self) -> Option<Result<NumberValue, String>> {
        let token = self.token().filter(|tok| tok.kind() == NUMBER)?;
        Some(NumberValue::parse(token.text()))
    }
}

/// Decodes the text of a quoted-template chunk: escapes, `$${` and `%%{`. Invalid escapes
/// (already reported by the lexer) are kept as written.
pub fn unescape_quoted(text: &str) -> Cow<'_, str> {
    // Most chunks have nothing to decode: no copy for them (a byte scan: a search for
    // any of several chars goes char by char through a general matcher).
    if !text.bytes().any(|b| matches!(b, b'\\' | b'$' | b'%')) {
        return Cow::Borrowed(text);
    }
    let mut res = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(idx) = rest.find(['\\', '$', '%']) {
        res.push_str(&rest[..idx]);
        rest = &rest[idx..];
        let bytes = rest.as_bytes();
        let consumed = match bytes {
            [b'\\', b'n', ..] => push(&mut res, '\n', 2),
            [b'\\', b'r', ..] => push(&mut res, '\r', 2),
            [b'\\', b't', ..] => push(&mut res, '\t', 2),
            [b'\\', b'"', ..] => push(&mut res, '"', 2),
            [b'\\', b'\\', ..] => push(&mut res, '\\', 2),
            [b'\\', b'u', ..] => unicode_escape(&mut res, rest, 4),
            [b'\\', b'U', ..] => unicode_escape(&mut res, rest, 8),
            _ => unescape_template_sequence(&mut res, rest),
        };
        rest = &rest[consumed..];
    }
    res.push_str(rest);
    Cow::Owned(res)
}

fn push(acc: &mut String, ch: char, consumed: usize) -> usize {
    acc.push(ch);
    consumed
}

fn unicode_escape(acc: &mut String, rest: &str, digits: usize) -> usize {
    let decoded = rest
        .get(2..2 + digits)
        .and_then(|hex| u32::from_str_radix(hex, 16).ok())
        .and_then(char::from_u32);
    match decoded {
        Some(ch) => push(acc, ch, 2 + digits),
        None => push(acc, '\\', 1),
    }
}

/// At `$` or `%`: `$${`/`%%{` become `${`/`%{`; anything else is kept.
fn unescape_template_sequence(acc: &mut String, rest: &str) -> usize {
    let bytes = rest.as_bytes();
    if bytes.len() >= 3 && bytes[1] == bytes[0] && bytes[2] == b'{' {
        acc.push(bytes[0] as char);
        acc.push('{');
        return 3;
    }
    let ch_len = rest.chars().next().map_or(1, char::len_utf8);
    acc.push_str(&rest[..ch_len]);
    ch_len
}

/// Decodes heredoc text, where only `$${` and `%%{` are special.
fn unescape_heredoc(text: &str) -> String {
    let mut res = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(idx) = rest.find(['$', '%']) {
        res.push_str(&rest[..idx]);
        rest = &rest[idx..];
        let consumed = unescape_template_sequence(&mut res, rest);
        rest = &rest[consumed..];
    }
    res.push_str(rest);
    res
}

impl TemplateExpr {
    /// The decoded string when the template is only literal text.
    pub fn literal_value(&self) -> Option<String> {
        let mut res = String::new();
        for part in self.parts() {
            match part {
                TemplatePart::Chunk(tok) => res.push_str(&unescape_quoted(tok.text())),
                _ => return None,
            }
        }
        Some(res)
    }

    /// The decoded text of each literal chunk, in order.
    pub fn chunk_texts(&self) -> Vec<(SyntaxToken, String)> {
        chunks(self.syntax())
            .map(|tok| {
                let text = unescape_quoted(tok.text()).into_owned();
                (tok, text)
            })
            .collect()
    }
}

impl HeredocExpr {
    /// The decoded string when the heredoc is only literal text (dedented for `<<-`).
    pub fn literal_value(&self) -> Option<String> {
        let mut res = String::new();
        for part in self.parts() {
            if !matches!(part, TemplatePart::Chunk(_)) {
                return None;
            }
        }
        for (_, text) in self.chunk_texts() {
            res.push_str(&text);
        }
        Some(res)
    }

    /// The decoded text of each literal chunk, in order; for `<<-`, the smallest indentation
    /// of the non-blank lines is removed from every chunk that starts a line.
    pub fn chunk_texts(&self) -> Vec<(SyntaxToken, String)> {
        let tokens: Vec<SyntaxToken> = chunks(self.syntax()).collect();
        let line_starts: Vec<bool> = tokens.iter().map(starts_line).collect();
        let dedent = if self.is_indented() {
            tokens
                .iter()
                .zip(&line_starts)
                .filter(|(tok, starts)| {
                    **starts && !tok.text().trim_matches([' ', '\t', '\r', '\n']).is_empty()
                })
                .map(|(tok, _)| {
                    tok.text()
                        .chars()
                        .take_while(|ch| matches!(ch, ' ' | '\t'))
                        .count()
                })
                .min()
                .unwrap_or(0)
        } else {
            0
        };
        tokens
            .into_iter()
            .zip(line_starts)
            .map(|(tok, starts)| {
                let text = if starts && dedent > 0 {
                    let skip = tok
                        .text()
                        .char_indices()
                        .take(dedent)
                        .take_while(|(_, ch)| matches!(ch, ' ' | '\t'))
                        .last()
                        .map_or(0, |(idx, ch)| idx + ch.len_utf8());
                    unescape_heredoc(&tok.text()[skip..])
                } else {
                    unescape_heredoc(tok.text())
                };
                (tok, text)
            })
            .collect()
    }
}

/// The literal chunks of a template node, in the node and in its directive branches.
fn chunks(node: &crate::SyntaxNode) -> impl Iterator<Item = SyntaxToken> + use<> {
    node.descendants_with_tokens()
        .filter_map(|it| it.into_token())
        .filter(|tok| {
            tok.kind() == TEMPLATE_CHUNK
                && tok.parent().is_some_and(|parent| {
                    matches!(parent.kind(), TEMPLATE_EXPR | HEREDOC_EXPR | TEMPLATE_PARTS)
                })
        })
}

/// Whether a heredoc chunk starts a line: it follows the heredoc start or a chunk ending in
/// a line break.
fn starts_line(tok: &SyntaxToken) -> bool {
    match tok.prev_token() {
        Some(prev) => match prev.kind() {
            HEREDOC_START => true,
            TEMPLATE_CHUNK => prev.text().ends_with('\n'),
            _ => false,
        },
        None => false,
    }
}
