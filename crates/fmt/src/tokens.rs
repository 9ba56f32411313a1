//! The token sequence the layout works on: the lexer's tokens without whitespace,
//! classified and joined the way hclsyntax's scanner sees them, because hclwrite's rules
//! are written in terms of that scanner's tokens.
//!
//! The differences from our lexer that matter: keywords are plain identifiers; a line
//! comment owns the newline after it (so it ends a line); `${~`, `%{~` and `~}` are single
//! tokens; a `}` that closes `${` or `%{` is a template-sequence end, not a brace; quoted
//! and heredoc template text are literals.

use pcl_syntax::{LexedText, SyntaxKind};

/// What a token is, for the layout rules (hclsyntax's token types, as far as the rules
/// tell them apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    Ident,
    Number,
    Newline,
    /// A `#` or `//` comment together with the newline that ends it: it ends its line.
    LineComment,
    /// A `/* */` comment, or a line comment at the very end of the file.
    Comment,
    OpenBrace,
    CloseBrace,
    OpenBracket,
    CloseBracket,
    OpenParen,
    CloseParen,
    /// `${` or `${~`.
    TemplateInterp,
    /// `%{` or `%{~`.
    TemplateControl,
    /// `}` or `~}` closing a template interpolation or directive.
    TemplateSeqEnd,
    OpenQuote,
    CloseQuote,
    OpenHeredoc,
    CloseHeredoc,
    /// Template text, quoted or in a heredoc.
    Literal,
    Equal,
    Comma,
    Dot,
    Ellipsis,
    DoubleColon,
    Colon,
    Question,
    Bang,
    Minus,
    /// `+ * / %`
    Arithmetic,
    /// `== != < <= > >=`
    Comparison,
    /// `&& ||`
    Logical,
    Other,
}

/// One token of the layout: where it is in the original text and how many spaces the
/// layout puts before it (offsets fit in 32 bits, as the tree's do; 16 bytes a token).
#[derive(Debug, Clone)]
pub(crate) struct FormatToken {
    pub(crate) class: Class,
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) spaces_before: u32,
}

impl FormatToken {
    pub(crate) fn text<'a>(&self, text: &'a str) -> &'a str {
        &text[self.start as usize..self.end as usize]
    }

    /// The changes in bracket depth it makes (hclwrite's `tokenBracketChange`).
    pub(crate) fn bracket_change(&self) -> i32 {
        match self.class {
            Class::OpenBrace
            | Class::OpenBracket
            | Class::OpenParen
            | Class::TemplateInterp
            | Class::TemplateControl => 1,
            Class::CloseBrace | Class::CloseBracket | Class::CloseParen | Class::TemplateSeqEnd => {
                -1
            }
            _ => 0,
        }
    }

    /// Whether the token ends a line.
    pub(crate) fn ends_line(&self) -> bool {
        matches!(self.class, Class::Newline | Class::LineComment)
    }
}

/// The layout tokens of lexed text (which parses without errors), in source order.
///
/// From the lexer, not the tree: a walk of the tree costs more than the whole layout, and
/// what the tree would tell (which `}` closes a template sequence) a stack of open braces
/// tells as well, as it does hclsyntax's scanner.
pub(crate) fn format_tokens(lexed: &LexedText<'_>) -> Vec<FormatToken> {
    let kinds = lexed.kinds();
    let mut res = Vec::with_capacity(kinds.len());
    // For each open `{`, `${` or `%{`: whether it opens a template sequence.
    let mut open_braces: Vec<bool> = Vec::new();
    let mut idx = 0;
    while idx < kinds.len() {
        let kind = kinds[idx];
        let range = lexed.range(idx);
        let (start, mut end) = (u32::from(range.start()), u32::from(range.end()));
        // Whether the next token is of `kind` and touches this one: then it joins this one.
        let next_is = |next: SyntaxKind| kinds.get(idx + 1) == Some(&next);
        let (class, joins_next) = match kind {
            SyntaxKind::WHITESPACE => {
                idx += 1;
                continue;
            }
            SyntaxKind::COMMENT if !lexed.text(idx).starts_with("/*") => {
                if next_is(SyntaxKind::NEWLINE) {
                    (Class::LineComment, true)
                } else {
                    (Class::Comment, false)
                }
            }
            SyntaxKind::INTERP_START => {
                open_braces.push(true);
                (Class::TemplateInterp, next_is(SyntaxKind::TILDE))
            }
            SyntaxKind::DIRECTIVE_START => {
                open_braces.push(true);
                (Class::TemplateControl, next_is(SyntaxKind::TILDE))
            }
            SyntaxKind::L_CURLY => {
                open_braces.push(false);
                (Class::OpenBrace, false)
            }
            SyntaxKind::TILDE if next_is(SyntaxKind::R_CURLY) => {
                open_braces.pop();
                (Class::TemplateSeqEnd, true)
            }
            SyntaxKind::R_CURLY => match open_braces.pop() {
                Some(true) => (Class::TemplateSeqEnd, false),
                _ => (Class::CloseBrace, false),
            },
            kind => (class_of(kind), false),
        };
        if joins_next {
            idx += 1;
            end = u32::from(lexed.range(idx).end());
        }
        res.push(FormatToken {
            class,
            start,
            end,
            spaces_before: 0,
        });
        idx += 1;
    }
    res
}

fn class_of(kind: SyntaxKind) -> Class {
    use SyntaxKind as K;
    match kind {
        K::IDENT
        | K::TRUE_KW
        | K::FALSE_KW
        | K::NULL_KW
        | K::FOR_KW
        | K::IN_KW
        | K::IF_KW
        | K::ELSE_KW
        | K::ENDIF_KW
        | K::ENDFOR_KW => Class::Ident,
        K::NUMBER => Class::Number,
        K::NEWLINE => Class::Newline,
        K::COMMENT => Class::Comment,
        K::L_CURLY => Class::OpenBrace,
        K::R_CURLY => Class::CloseBrace,
        K::L_BRACK => Class::OpenBracket,
        K::R_BRACK => Class::CloseBracket,
        K::L_PAREN => Class::OpenParen,
        K::R_PAREN => Class::CloseParen,
        K::INTERP_START => Class::TemplateInterp,
        K::DIRECTIVE_START => Class::TemplateControl,
        K::OPEN_QUOTE => Class::OpenQuote,
        K::CLOSE_QUOTE => Class::CloseQuote,
        K::HEREDOC_START => Class::OpenHeredoc,
        K::HEREDOC_END => Class::CloseHeredoc,
        K::TEMPLATE_CHUNK => Class::Literal,
        K::EQ => Class::Equal,
        K::COMMA => Class::Comma,
        K::DOT => Class::Dot,
        K::DOT3 => Class::Ellipsis,
        K::COLON2 => Class::DoubleColon,
        K::COLON => Class::Colon,
        K::QUESTION => Class::Question,
        K::BANG => Class::Bang,
        K::MINUS => Class::Minus,
        K::PLUS | K::STAR | K::SLASH | K::PERCENT => Class::Arithmetic,
        K::EQ2 | K::NEQ | K::LT | K::LTEQ | K::GT | K::GTEQ => Class::Comparison,
        K::AMP2 | K::PIPE2 => Class::Logical,
        _ => Class::Other,
    }
}
